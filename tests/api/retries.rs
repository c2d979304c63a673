//! `Idempotency-Key` on the creators that had none (api.md "Retries"): registering, entering a
//! competition, going on vacation. The same key and body get the first answer again, without
//! the work done twice; the same key with another body is a 409.

use crate::helpers::{Reply, TestApp, spawn_app};
use serde_json::{Value, json};

/// Posts `body` to `path` with an `Idempotency-Key`.
async fn post_keyed(
    app: &TestApp,
    path: &str,
    token: Option<&str>,
    key: &str,
    body: &Value,
) -> Reply {
    app.send(
        awc::http::Method::POST,
        path,
        token,
        &[
            ("Content-Type", "application/json"),
            ("Idempotency-Key", key),
        ],
        Some(serde_json::to_vec(body).unwrap()),
    )
    .await
}

#[actix_web::test]
async fn a_retried_registration_with_its_key_gets_the_first_answer_and_only_with_its_password() {
    let app = spawn_app().await;
    let ada =
        json!({"email": "ada@example.org", "display_name": "Ada", "password": "correct horse 42"});
    let first = post_keyed(&app, "/api/v1/accounts", None, "sign-up-1", &ada).await;
    assert_eq!(first.status, 201, "{}", first.text);
    let again = post_keyed(&app, "/api/v1/accounts", None, "sign-up-1", &ada).await;
    assert_eq!(again.status, 201, "{}", again.text);
    assert_eq!(
        again.json, first.json,
        "the first answer, not a second account"
    );
    // The same address without the key, with another key, another name or another password
    // (someone who does not know it) is refused as before.
    app.post("/api/v1/accounts", None, ada.clone())
        .await
        .assert_problem(409, "conflict");
    post_keyed(&app, "/api/v1/accounts", None, "sign-up-2", &ada)
        .await
        .assert_problem(409, "conflict");
    let mut renamed = ada.clone();
    renamed["display_name"] = json!("Ada L.");
    post_keyed(&app, "/api/v1/accounts", None, "sign-up-1", &renamed)
        .await
        .assert_problem(409, "conflict");
    let mut guessed = ada.clone();
    guessed["password"] = json!("not her password");
    post_keyed(&app, "/api/v1/accounts", None, "sign-up-1", &guessed)
        .await
        .assert_problem(409, "conflict");
    // One account, which signs in with the first password.
    app.sign_in("ada@example.org", "correct horse 42").await;
}

#[actix_web::test]
async fn a_retried_vacation_with_its_key_gets_the_first_answer_not_a_409() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.org", "Ada").await;
    let two = json!({"days": 2});
    let first = post_keyed(&app, "/api/v1/me/vacation", Some(&ada), "away-1", &two).await;
    assert_eq!(first.status, 201, "{}", first.text);
    let again = post_keyed(&app, "/api/v1/me/vacation", Some(&ada), "away-1", &two).await;
    assert_eq!(again.status, 201, "{}", again.text);
    assert_eq!(again.json, first.json);
    post_keyed(
        &app,
        "/api/v1/me/vacation",
        Some(&ada),
        "away-1",
        &json!({"days": 3}),
    )
    .await
    .assert_problem(409, "conflict");
    // Without the key, going away twice is still refused.
    app.post("/api/v1/me/vacation", Some(&ada), two)
        .await
        .assert_problem(409, "conflict");
}

#[actix_web::test]
async fn a_retried_entry_with_its_key_gets_the_first_answer_not_a_409() {
    let app = spawn_app().await;
    let org = app.user("org@example.org", "Org").await;
    let ben = app.user("ben@example.org", "Ben").await;
    let c = app
        .post(
            "/api/v1/competitions",
            Some(&org),
            json!({"name": "Open", "kind": "magnate", "entry": "open",
                   "format": {"type": "swiss", "rounds": 1}}),
        )
        .await;
    assert_eq!(c.status, 201, "{}", c.text);
    let entries = format!(
        "/api/v1/competitions/{}/entries",
        c.json["id"].as_str().unwrap()
    );
    let first = post_keyed(&app, &entries, Some(&ben), "enter-1", &json!({})).await;
    assert_eq!(first.status, 201, "{}", first.text);
    let again = post_keyed(&app, &entries, Some(&ben), "enter-1", &json!({})).await;
    assert_eq!(again.status, 201, "{}", again.text);
    assert_eq!(again.json, first.json);
    assert_eq!(
        first.json["entrants"].as_array().map(Vec::len),
        Some(1),
        "{}",
        first.text
    );
    let me = app.get("/api/v1/me", Some(&ben)).await.json["id"].clone();
    post_keyed(
        &app,
        &entries,
        Some(&ben),
        "enter-1",
        &json!({"account_id": me}),
    )
    .await
    .assert_problem(409, "conflict");
    app.post(&entries, Some(&ben), json!({}))
        .await
        .assert_problem(409, "conflict");
}
