//! Bad input of every shape gets a 4xx problem with a clear sentence, never a 500.

use crate::helpers::spawn_app;
use awc::http::Method;
use serde_json::json;

const JSON: &[(&str, &str)] = &[("Content-Type", "application/json")];

#[actix_web::test]
async fn a_body_that_is_not_json_is_a_malformed_request() {
    let app = spawn_app().await;
    for body in ["{not json", "", "[1, 2", "{\"email\": }"] {
        let r = app
            .send(
                Method::POST,
                "/api/v1/accounts",
                None,
                JSON,
                Some(body.as_bytes().to_vec()),
            )
            .await;
        r.assert_problem(400, "malformed_request");
    }
}

#[actix_web::test]
async fn wrong_types_are_a_validation_failure() {
    let app = spawn_app().await;
    let r = app
        .post(
            "/api/v1/accounts",
            None,
            json!({"email": 7, "display_name": ["Ada"], "password": true}),
        )
        .await;
    r.assert_problem(422, "validation_failed");
    let r = app.post("/api/v1/accounts", None, json!([1, 2, 3])).await;
    r.assert_problem(422, "validation_failed");
}

#[actix_web::test]
async fn unknown_fields_are_a_validation_failure_naming_the_field() {
    let app = spawn_app().await;
    let r = app
        .post(
            "/api/v1/accounts",
            None,
            json!({"email": "ada@example.test", "display_name": "Ada", "password": "correct horse 42", "admin": true}),
        )
        .await;
    r.assert_problem(422, "validation_failed");
    assert!(r.json["detail"].as_str().unwrap().contains("admin"));
}

#[actix_web::test]
async fn nul_characters_are_a_validation_failure_and_nothing_is_stored() {
    let app = spawn_app().await;
    let body = br#"{"email": "ada@example.test", "display_name": "A\u0000da", "password": "correct horse 42"}"#;
    let r = app
        .send(
            Method::POST,
            "/api/v1/accounts",
            None,
            JSON,
            Some(body.to_vec()),
        )
        .await;
    r.assert_problem(422, "validation_failed");
    let r = app
        .post(
            "/api/v1/auth/token",
            None,
            json!({"email": "ada@example.test", "password": "correct horse 42"}),
        )
        .await;
    r.assert_problem(401, "unauthenticated");
}

#[actix_web::test]
async fn a_huge_body_is_refused_as_too_large() {
    let app = spawn_app().await;
    let huge = format!(
        r#"{{"email": "ada@example.test", "display_name": "{}", "password": "correct horse 42"}}"#,
        "x".repeat(2 * 1024 * 1024)
    );
    let r = app
        .send(
            Method::POST,
            "/api/v1/accounts",
            None,
            JSON,
            Some(huge.into_bytes()),
        )
        .await;
    r.assert_problem(413, "payload_too_large");
}

#[actix_web::test]
async fn a_body_of_another_media_type_is_refused() {
    let app = spawn_app().await;
    let r = app
        .send(
            Method::POST,
            "/api/v1/accounts",
            None,
            &[("Content-Type", "text/plain")],
            Some(b"hello".to_vec()),
        )
        .await;
    r.assert_problem(415, "unsupported_media_type");
}

#[actix_web::test]
async fn an_unknown_path_is_a_not_found_problem() {
    let app = spawn_app().await;
    app.get("/api/v1/no-such-thing", None)
        .await
        .assert_problem(404, "not_found");
    app.get("/nothing/here", None)
        .await
        .assert_problem(404, "not_found");
}

#[actix_web::test]
async fn a_known_path_with_the_wrong_method_names_the_allowed_methods() {
    let app = spawn_app().await;
    let r = app.call(Method::DELETE, "/api/v1/me", None, None).await;
    r.assert_problem(405, "method_not_allowed");
    assert_eq!(r.header("allow"), "GET, PUT");
    let r = app.call(Method::PUT, "/api/v1/me/tokens", None, None).await;
    r.assert_problem(405, "method_not_allowed");
    assert_eq!(r.header("allow"), "GET, POST");
    let r = app.call(Method::GET, "/api/v1/accounts", None, None).await;
    r.assert_problem(405, "method_not_allowed");
    assert_eq!(r.header("allow"), "POST");
}

#[actix_web::test]
async fn an_id_that_is_not_a_uuid_is_not_found() {
    let app = spawn_app().await;
    let jwt = app.user("ada@example.test", "Ada").await;
    let r = app
        .call(
            Method::DELETE,
            "/api/v1/me/tokens/not-a-uuid",
            Some(&jwt),
            None,
        )
        .await;
    r.assert_problem(404, "not_found");
}
