use crate::helpers::spawn_app;
use serde_json::json;

#[actix_web::test]
async fn the_liveness_probe_answers_ok() {
    let app = spawn_app().await;
    let r = app.get("/healthz", None).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json, json!({"status": "ok"}));
}

#[actix_web::test]
async fn the_readiness_probe_answers_ok_when_the_database_answers() {
    let app = spawn_app().await;
    let r = app.get("/readyz", None).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json, json!({"status": "ok"}));
}

#[actix_web::test]
async fn the_readiness_probe_answers_503_when_the_database_is_gone() {
    let dir = std::env::temp_dir().join(format!("herald-readyz-{}", std::process::id()));
    // A database URL that names a socket directory where nothing listens.
    let url = format!("postgresql://nobody@/nothing?host={}&port=1", dir.display());
    let settings = herald::config::Settings::for_tests(url, dir);
    let app = herald::startup::Application::build(
        settings,
        herald::startup::ServerOptions {
            workers: 1,
            handle_signals: false,
        },
    )
    .unwrap();
    let port = app.port();
    actix_web::rt::spawn(app.run_until_stopped());
    let mut res = awc::Client::builder()
        .timeout(std::time::Duration::from_secs(60))
        .finish()
        .get(format!("http://127.0.0.1:{port}/readyz"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 503);
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["code"], "unavailable");
}
