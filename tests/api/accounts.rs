use crate::helpers::spawn_app;
use awc::http::Method;
use serde_json::json;

#[actix_web::test]
async fn a_new_account_is_created_with_a_normalised_address_and_english_by_default() {
    let app = spawn_app().await;
    let r = app
        .post(
            "/api/v1/accounts",
            None,
            json!({"email": " Ada@Example.TEST ", "display_name": "Ada", "password": "correct horse 42"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.json["email"], "ada@example.test");
    assert_eq!(r.json["display_name"], "Ada");
    assert_eq!(r.json["locale"], "en");
    assert!(r.json["id"].as_str().unwrap().len() == 36);
    assert!(
        !r.text.contains("correct horse"),
        "the password is never echoed"
    );
}

#[actix_web::test]
async fn registering_an_address_twice_is_a_conflict() {
    let app = spawn_app().await;
    app.user("ada@example.test", "Ada").await;
    let r = app
        .post(
            "/api/v1/accounts",
            None,
            json!({"email": "ADA@example.test", "display_name": "Ada 2", "password": "another pass 77", "locale": "it"}),
        )
        .await;
    r.assert_problem(409, "conflict");
}

#[actix_web::test]
async fn bad_account_fields_are_refused_with_a_sentence_naming_the_field() {
    let app = spawn_app().await;
    let cases = [
        (
            json!({"email": "not-an-address", "display_name": "Ada", "password": "correct horse 42"}),
            "e-mail",
        ),
        (
            json!({"email": "ada@example.test", "display_name": "", "password": "correct horse 42"}),
            "display_name",
        ),
        (
            json!({"email": "ada@example.test", "display_name": "x".repeat(65), "password": "correct horse 42"}),
            "display_name",
        ),
        (
            json!({"email": "ada@example.test", "display_name": "Ada", "password": "short"}),
            "password",
        ),
        (
            json!({"email": "ada@example.test", "display_name": "Ada", "password": "correct horse 42", "locale": "de"}),
            "locale",
        ),
        (
            json!({"email": "ada@example.test", "display_name": "Ada"}),
            "password",
        ),
    ];
    for (body, word) in cases {
        let r = app.post("/api/v1/accounts", None, body.clone()).await;
        r.assert_problem(422, "validation_failed");
        let detail = r.json["detail"].as_str().unwrap();
        assert!(
            detail.contains(word) || (word == "locale" && detail.contains("variant")),
            "{body}: {detail}"
        );
    }
}

#[actix_web::test]
async fn signing_in_returns_a_bearer_token_valid_for_at_least_an_hour() {
    let app = spawn_app().await;
    app.user("ada@example.test", "Ada").await;
    let r = app
        .post(
            "/api/v1/auth/token",
            None,
            json!({"email": "ada@example.test", "password": "correct horse 42"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["token_type"], "Bearer");
    assert!(r.json["expires_in"].as_i64().unwrap() >= 3600);
    let me = app.get("/api/v1/me", r.json["access_token"].as_str()).await;
    assert_eq!(me.status, 200);
    assert_eq!(me.json["email"], "ada@example.test");
}

#[actix_web::test]
async fn a_wrong_password_and_an_unknown_address_get_the_same_answer() {
    let app = spawn_app().await;
    app.user("ada@example.test", "Ada").await;
    let wrong = app
        .post(
            "/api/v1/auth/token",
            None,
            json!({"email": "ada@example.test", "password": "wrong password"}),
        )
        .await;
    let unknown = app
        .post(
            "/api/v1/auth/token",
            None,
            json!({"email": "nobody@example.test", "password": "wrong password"}),
        )
        .await;
    wrong.assert_problem(401, "unauthenticated");
    unknown.assert_problem(401, "unauthenticated");
    assert_eq!(wrong.json["detail"], unknown.json["detail"]);
}

#[actix_web::test]
async fn too_many_sign_in_attempts_are_rate_limited() {
    let app = spawn_app().await;
    let mut last = None;
    for _ in 0..12 {
        last = Some(
            app.post(
                "/api/v1/auth/token",
                None,
                json!({"email": "ada@example.test", "password": "wrong password"}),
            )
            .await,
        );
    }
    let r = last.unwrap();
    r.assert_problem(429, "rate_limited");
    assert!(r.header("retry-after").parse::<u64>().unwrap() >= 1);
}

#[actix_web::test]
async fn a_sign_in_link_request_is_accepted_whether_or_not_the_account_exists() {
    let app = spawn_app().await;
    app.user("ada@example.test", "Ada").await;
    let known = app
        .post(
            "/api/v1/auth/email-link",
            None,
            json!({"email": "ada@example.test"}),
        )
        .await;
    let unknown = app
        .post(
            "/api/v1/auth/email-link",
            None,
            json!({"email": "nobody@example.test"}),
        )
        .await;
    assert_eq!(known.status, 202);
    assert_eq!(unknown.status, 202);
    assert_eq!(known.text, unknown.text);
}

#[actix_web::test]
async fn my_account_needs_a_token() {
    let app = spawn_app().await;
    let r = app.get("/api/v1/me", None).await;
    r.assert_problem(401, "unauthenticated");
    assert_eq!(r.header("www-authenticate"), "Bearer");
    let r = app.get("/api/v1/me", Some("not-a-token")).await;
    r.assert_problem(401, "unauthenticated");
}

#[actix_web::test]
async fn a_personal_token_works_until_revoked_and_its_secret_is_shown_once() {
    let app = spawn_app().await;
    let jwt = app.user("ada@example.test", "Ada").await;
    let r = app
        .post(
            "/api/v1/me/tokens",
            Some(&jwt),
            json!({"name": "bot", "scopes": ["read", "play"]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let secret = r.json["token"].as_str().unwrap().to_owned();
    let id = r.json["id"].as_str().unwrap().to_owned();
    assert_eq!(r.json["scopes"], json!(["read", "play"]));

    let me = app.get("/api/v1/me", Some(&secret)).await;
    assert_eq!(me.status, 200, "{}", me.text);
    assert_eq!(me.json["email"], "ada@example.test");

    let list = app.get("/api/v1/me/tokens", Some(&jwt)).await;
    assert_eq!(list.status, 200);
    assert_eq!(list.json.as_array().unwrap().len(), 1);
    assert_eq!(list.json[0]["name"], "bot");
    assert!(!list.text.contains(&secret), "listing never shows secrets");

    let gone = app
        .call(
            Method::DELETE,
            &format!("/api/v1/me/tokens/{id}"),
            Some(&jwt),
            None,
        )
        .await;
    assert_eq!(gone.status, 204, "{}", gone.text);
    app.get("/api/v1/me", Some(&secret))
        .await
        .assert_problem(401, "unauthenticated");
    let again = app
        .call(
            Method::DELETE,
            &format!("/api/v1/me/tokens/{id}"),
            Some(&jwt),
            None,
        )
        .await;
    again.assert_problem(404, "not_found");
}

#[actix_web::test]
async fn a_token_without_the_needed_scope_is_forbidden() {
    let app = spawn_app().await;
    let jwt = app.user("ada@example.test", "Ada").await;
    let r = app
        .post(
            "/api/v1/me/tokens",
            Some(&jwt),
            json!({"name": "player", "scopes": ["play"]}),
        )
        .await;
    let play_only = r.json["token"].as_str().unwrap().to_owned();
    app.get("/api/v1/me", Some(&play_only))
        .await
        .assert_problem(403, "forbidden");
}

/// A token's name is shown in lists like any name: a text-direction override or a line
/// separator in it is refused, naming the field, and no token is made.
#[actix_web::test]
async fn a_token_name_that_reorders_or_breaks_its_line_is_refused() {
    let app = spawn_app().await;
    let jwt = app.user("ada@example.test", "Ada").await;
    for name in ["phone\u{202E}kcab", "two\u{2028}lines", " "] {
        app.post(
            "/api/v1/me/tokens",
            Some(&jwt),
            json!({"name": name, "scopes": ["play"]}),
        )
        .await
        .assert_problem(422, "validation_failed");
    }
    let list = app.get("/api/v1/me/tokens", Some(&jwt)).await;
    assert_eq!(list.json, json!([]), "{}", list.text);
}

#[actix_web::test]
async fn a_personal_token_cannot_mint_more_tokens() {
    let app = spawn_app().await;
    let jwt = app.user("ada@example.test", "Ada").await;
    let r = app
        .post(
            "/api/v1/me/tokens",
            Some(&jwt),
            json!({"name": "all", "scopes": ["read", "play", "organise"]}),
        )
        .await;
    let pat = r.json["token"].as_str().unwrap().to_owned();
    let r = app
        .post(
            "/api/v1/me/tokens",
            Some(&pat),
            json!({"name": "more", "scopes": ["read"]}),
        )
        .await;
    r.assert_problem(403, "forbidden");
}

#[actix_web::test]
async fn a_token_request_with_an_unknown_scope_is_refused() {
    let app = spawn_app().await;
    let jwt = app.user("ada@example.test", "Ada").await;
    let r = app
        .post(
            "/api/v1/me/tokens",
            Some(&jwt),
            json!({"name": "x", "scopes": ["admin"]}),
        )
        .await;
    r.assert_problem(422, "validation_failed");
    let r = app
        .post(
            "/api/v1/me/tokens",
            Some(&jwt),
            json!({"name": "x", "scopes": []}),
        )
        .await;
    r.assert_problem(422, "validation_failed");
}
