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
    // JSON sent without saying so (what a cross-site page may send without a preflight) is
    // refused too, naming the header; nobody is registered.
    let r = app
        .send(
            Method::POST,
            "/api/v1/accounts",
            None,
            &[],
            Some(
                br#"{"email": "eve@example.test", "display_name": "Eve", "password": "correct horse 42"}"#
                    .to_vec(),
            ),
        )
        .await;
    r.assert_problem(415, "unsupported_media_type");
    assert!(
        r.text.contains("Content-Type: application/json"),
        "{}",
        r.text
    );
    // JSON said to be in another charset, or compressed, is refused by name rather than read
    // as something else (it used to be parsed as plain UTF-8); nobody is registered.
    let ada = serde_json::to_vec(&serde_json::json!(
        {"email": "ada@example.test", "display_name": "Ada", "password": "correct horse 42"}
    ))
    .unwrap();
    for (headers, named) in [
        (
            vec![("Content-Type", "application/json; charset=latin1")],
            "latin1",
        ),
        (
            vec![
                ("Content-Type", "application/json"),
                ("Content-Encoding", "gzip"),
            ],
            "gzip",
        ),
    ] {
        let r = app
            .send(
                Method::POST,
                "/api/v1/accounts",
                None,
                &headers,
                Some(ada.clone()),
            )
            .await;
        r.assert_problem(415, "unsupported_media_type");
        assert!(r.text.contains(named), "{}", r.text);
    }
    // UTF-8 said so, in any spelling, and `identity`, are read.
    let r = app
        .send(
            Method::POST,
            "/api/v1/accounts",
            None,
            &[
                ("Content-Type", "application/json; charset=\"UTF-8\""),
                ("Content-Encoding", "identity"),
            ],
            Some(ada),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
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
    assert_eq!(r.header("allow"), "GET, HEAD, PUT");
    let r = app.call(Method::PUT, "/api/v1/me/tokens", None, None).await;
    r.assert_problem(405, "method_not_allowed");
    assert_eq!(r.header("allow"), "GET, HEAD, POST");
    let r = app.call(Method::GET, "/api/v1/accounts", None, None).await;
    r.assert_problem(405, "method_not_allowed");
    assert_eq!(r.header("allow"), "POST");
    // HEAD where there is no GET is refused like any other method.
    let r = app.call(Method::HEAD, "/api/v1/accounts", None, None).await;
    assert_eq!(r.status, 405);
    assert_eq!(r.header("allow"), "POST");
    let r = app
        .call(Method::DELETE, "/api/v1/game-kinds", None, None)
        .await;
    r.assert_problem(405, "method_not_allowed");
    assert_eq!(r.header("allow"), "GET, HEAD");
}

/// HEAD is answered wherever GET is (RFC 9110): the status and headers of the GET, without its
/// body; a stream's headers too, at once; the metrics count it as HEAD on the route's pattern.
#[actix_web::test]
async fn every_get_of_the_api_answers_head_with_its_headers_and_no_body() {
    let app = spawn_app().await;
    let table = app.table().await;
    let ada = table.tokens[0].as_str();
    let game = format!("/api/v1/games/{}", table.id);
    for (path, token, status) in [
        ("/api/v1/game-kinds", None, 200),
        ("/api/v1/me", Some(ada), 200),
        (game.as_str(), Some(ada), 200),
        ("/api/v1/games?status=active", Some(ada), 200),
        ("/api/v1/me", None, 401),
        (
            "/api/v1/games/00000000-0000-0000-0000-000000000000",
            Some(ada),
            404,
        ),
        ("/healthz", None, 200),
        ("/api/openapi.json", None, 200),
    ] {
        let get = app.send(Method::GET, path, token, &[], None).await;
        let head = app.send(Method::HEAD, path, token, &[], None).await;
        assert_eq!(get.status, status, "GET {path}: {}", get.text);
        assert_eq!(head.status, status, "HEAD {path}: {}", head.text);
        assert!(head.text.is_empty(), "HEAD {path}: {}", head.text);
        assert!(!get.header("content-length").is_empty(), "GET {path}");
        for name in [
            "content-type",
            "content-length",
            "etag",
            "cache-control",
            "www-authenticate",
        ] {
            assert_eq!(head.header(name), get.header(name), "HEAD {path}: {name}");
        }
    }
    // The game's ETag holds for HEAD as for GET.
    let tag = app.get(&game, Some(ada)).await.header("etag");
    assert!(!tag.is_empty());
    let r = app
        .send(
            Method::HEAD,
            &game,
            Some(ada),
            &[("If-None-Match", &tag)],
            None,
        )
        .await;
    assert_eq!(r.status, 304);
    // The event stream's headers come at once, without waiting for an event.
    let r = actix_web::rt::time::timeout(
        std::time::Duration::from_secs(10),
        app.send(
            Method::HEAD,
            "/api/v1/me/events",
            Some(ada),
            &[("Accept", "text/event-stream")],
            None,
        ),
    )
    .await
    .expect("HEAD of a stream answers at once");
    assert_eq!(r.status, 200);
    assert!(r.header("content-type").starts_with("text/event-stream"));
    let metrics = app.get("/metrics", None).await.text;
    assert!(
        metrics.contains(
            r#"herald_http_requests_total{method="HEAD",route="/api/v1/game-kinds",status="200"}"#
        ),
        "{metrics}"
    );
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

/// A path segment or a query parameter the API cannot read is refused with a short sentence
/// naming it and what it takes: not the address, not serde's words.
#[actix_web::test]
async fn an_unreadable_path_segment_or_query_parameter_is_named_with_what_it_takes() {
    let app = spawn_app().await;
    let table = app.table().await;
    let ada = table.tokens[0].as_str();
    let long = "a".repeat(20_000);
    let cases = [
        (
            Method::DELETE,
            format!("/api/v1/games/{}/invitations/abc", table.id),
            404,
            "the path segment `seat` must be a number from 0 to 7",
        ),
        (
            Method::DELETE,
            format!("/api/v1/games/{}/invitations/99999", table.id),
            404,
            "the path segment `seat` must be a number from 0 to 7",
        ),
        (
            Method::GET,
            "/api/v1/games/zzz".to_owned(),
            404,
            "the path segment `id` must be a UUID",
        ),
        (
            Method::GET,
            format!("/api/v1/games/{long}"),
            404,
            "the path segment `id` must be a UUID",
        ),
        (
            Method::GET,
            "/api/v1/games?my_turn=maybe".to_owned(),
            422,
            "the query parameter `my_turn` must be `true` or `false`",
        ),
        (
            Method::GET,
            "/api/v1/games?status=active&status=finished".to_owned(),
            422,
            "the query parameter `status` is given more than once",
        ),
        (
            Method::GET,
            format!("/api/v1/games?status={long}"),
            422,
            "the query parameter `status` must be one of `waiting`, `active`, `finished`, `aborted`",
        ),
        (
            Method::GET,
            "/api/v1/me/events?after=x".to_owned(),
            422,
            "the query parameter `after` must be a whole number of at least 0",
        ),
        (
            Method::GET,
            format!("/api/v1/games?{long}=1"),
            422,
            "is not a query parameter of this route; it reads `status`, `my_turn`",
        ),
    ];
    for (method, path, status, said) in cases {
        let r = app.call(method.clone(), &path, Some(ada), None).await;
        let short: String = path.chars().take(80).collect();
        let code = if status == 404 {
            "not_found"
        } else {
            "validation_failed"
        };
        assert_eq!(r.status, status, "{method} {short}: {}", r.text);
        assert_eq!(r.code(), code, "{method} {short}: {}", r.text);
        let detail = r.json["detail"].as_str().unwrap();
        assert!(detail.contains(said), "{method} {short}: {detail}");
        assert!(detail.chars().count() <= 200, "{method} {short}: {detail}");
        for word in [
            "deserialize",
            "parse",
            "i16",
            "abc",
            "zzz",
            "maybe",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        ] {
            assert!(!detail.contains(word), "{method} {short}: {detail}");
        }
    }
}
