//! Hardening (design.md section 20): security headers, client addresses that a header cannot
//! fake, wrong passwords that slow their sender and not the owner, registration limits,
//! same-origin redirects, and names without invisible characters.

use crate::helpers::{spawn_app, spawn_app_with};
use crate::web::{page, post_form, press_sign_in, user_id};
use awc::http::Method;
use serde_json::json;

#[actix_web::test]
async fn pages_and_personal_api_answers_carry_their_security_headers() {
    let app = spawn_app().await;
    let token = app.user("ada@example.test", "Ada").await;
    let sign_in = page(&app, "/sign-in", "").await;
    assert_eq!(sign_in.status, 200);
    let csp = sign_in.header("content-security-policy");
    assert!(
        csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"),
        "{csp}"
    );
    assert!(!csp.contains("unsafe-inline"), "{csp}");
    assert_eq!(sign_in.header("x-content-type-options"), "nosniff");
    assert_eq!(sign_in.header("referrer-policy"), "no-referrer");
    assert!(
        !sign_in.text.contains("<script>") && !sign_in.text.contains("style=\""),
        "no inline script or style: {}",
        sign_in.text
    );
    let me = app.get("/api/v1/me", Some(&token)).await;
    assert_eq!(me.header("x-content-type-options"), "nosniff");
    assert_eq!(me.header("cache-control"), "no-store");
    assert_eq!(
        me.header("strict-transport-security"),
        "",
        "not behind https"
    );
    let https = spawn_app_with(|s| s.http.public_url = "https://herald.example".to_owned()).await;
    let r = page(&https, "/sign-in", "").await;
    assert!(r.header("strict-transport-security").contains("max-age="));
}

#[actix_web::test]
async fn x_forwarded_for_from_an_untrusted_peer_does_not_dodge_the_limit() {
    let app = spawn_app().await;
    let mut limited = false;
    for i in 0..15 {
        let forged = format!("10.0.0.{i}");
        let r = app
            .send(
                Method::POST,
                "/api/v1/auth/email-link",
                None,
                &[
                    ("Content-Type", "application/json"),
                    ("X-Forwarded-For", &forged),
                ],
                Some(serde_json::to_vec(&json!({"email": format!("n{i}@example.test")})).unwrap()),
            )
            .await;
        if r.status == 429 {
            limited = true;
            break;
        }
    }
    assert!(
        limited,
        "one peer meets the limit whatever X-Forwarded-For says"
    );
}

#[actix_web::test]
async fn wrong_passwords_slow_their_sender_and_never_lock_out_the_owner_elsewhere() {
    let app = spawn_app_with(|s| {
        s.http.trusted_proxies = vec![herald::config::Cidr::parse("127.0.0.1").unwrap()];
    })
    .await;
    app.user("ada@example.test", "Ada").await;
    let try_from = |from: &'static str, password: &'static str| {
        let body = json!({"email": "ada@example.test", "password": password});
        let app = &app;
        async move {
            app.send(
                Method::POST,
                "/api/v1/auth/token",
                None,
                &[
                    ("Content-Type", "application/json"),
                    ("X-Forwarded-For", from),
                ],
                Some(serde_json::to_vec(&body).unwrap()),
            )
            .await
        }
    };
    let mut statuses = Vec::new();
    for _ in 0..12 {
        statuses.push(try_from("203.0.113.9", "wrong horse 42").await.status);
    }
    assert!(
        statuses.contains(&401) && statuses.ends_with(&[429]),
        "{statuses:?}"
    );
    let attacker = try_from("203.0.113.9", "correct horse 42").await;
    assert_eq!(
        attacker.status, 429,
        "the sender waits, even with the right password"
    );
    assert!(!attacker.header("retry-after").is_empty());
    let owner = try_from("198.51.100.7", "correct horse 42").await;
    assert_eq!(
        owner.status, 200,
        "the owner elsewhere signs in: {}",
        owner.text
    );
}

#[actix_web::test]
async fn registrations_are_limited_per_client_address() {
    let app = spawn_app_with(|s| s.auth.registrations_per_hour = 5).await;
    let mut statuses = Vec::new();
    for i in 0..7 {
        let r = app
            .post(
                "/api/v1/accounts",
                None,
                json!({"email": format!("r{i}@example.test"), "display_name": "R", "password": "correct horse 42"}),
            )
            .await;
        statuses.push(r.status);
        if r.status == 429 {
            assert!(!r.header("retry-after").is_empty());
        }
    }
    assert_eq!(statuses, [201, 201, 201, 201, 201, 429, 429]);
}

#[actix_web::test]
async fn sign_in_links_send_the_browser_nowhere_but_this_site() {
    use diesel::Connection;
    let app = spawn_app().await;
    let token = app.user("ada@example.test", "Ada").await;
    let user = user_id(&app, &token).await;
    let link = || {
        let mut conn = diesel::PgConnection::establish(&app.db_url).unwrap();
        herald::web::session::new_sign_in_link(&mut conn, &app.links, user, "ada@example.test", 600)
            .unwrap()
    };
    for (next, to) in [
        ("/games", "/games"),
        ("/%20/evil.example", "/"),
        ("//evil.example", "/"),
        ("/%5Cevil.example", "/"),
        ("https://evil.example", "/"),
    ] {
        let r = press_sign_in(&app, &format!("/sign-in/{}?next={next}", link())).await;
        assert_eq!(r.status, 303, "{next}: {}", r.text);
        assert_eq!(r.header("location"), to, "{next}");
    }
    // Control characters: refused before the link is spent, which then still works.
    let spare = link();
    for next in ["/games%0d%0aSet-Cookie:%20x=1", "/%09/evil.example", "/%00"] {
        let forged = page(&app, &format!("/sign-in/{spare}?next={next}"), "").await;
        assert_eq!(forged.status, 400, "{next}");
        let posted = post_form(&app, &format!("/sign-in/{spare}?next={next}"), "", "").await;
        assert_eq!(posted.status, 400, "{next}");
    }
    let fine = press_sign_in(&app, &format!("/sign-in/{spare}")).await;
    assert_eq!(fine.status, 303);
    for path in ["/unsubscribe/%00", "/unsubscribe/..%2f..%2fetc"] {
        let r = page(&app, path, "").await;
        assert_eq!(r.status, 404, "{path}");
        let posted = app.send(Method::POST, path, None, &[], None).await;
        assert_eq!(posted.status, 404, "{path}");
    }
}

#[actix_web::test]
async fn invisible_and_direction_characters_are_refused_in_names_and_addresses() {
    let app = spawn_app().await;
    for (email, name) in [
        ("zw\u{200B}@example.test", "Zed"),
        ("ok@example.test", "Ad\u{200B}a"),
        ("ok@example.test", "gro\u{202E}ll"),
    ] {
        let r = app
            .post(
                "/api/v1/accounts",
                None,
                json!({"email": email, "display_name": name, "password": "correct horse 42"}),
            )
            .await;
        r.assert_problem(422, "validation_failed");
    }
    let r = app
        .post(
            "/api/v1/accounts",
            None,
            json!({"email": "jose@example.test", "display_name": "Jose\u{0301}", "password": "correct horse 42"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.json["display_name"], "Jos\u{00E9}", "stored in NFC");
}

/// Browser clients of a listed origin may call the API (preflight answered, `ETag` exposed); an
/// unlisted origin gets no CORS header at all, and is not blocked from the pages either.
#[actix_web::test]
async fn cors_answers_the_listed_origins_only() {
    let app = spawn_app_with(|s| {
        s.http.cors_allowed_origins = vec!["https://client.example".to_owned()];
    })
    .await;
    let ok = preflight(&app, "https://client.example").await;
    assert!(ok.status < 300, "{}", ok.status);
    assert_eq!(
        ok.header("access-control-allow-origin"),
        "https://client.example"
    );
    let allowed = ok.header("access-control-allow-headers").to_lowercase();
    assert!(
        allowed.contains("authorization") && allowed.contains("idempotency-key"),
        "{allowed}"
    );
    let evil = preflight(&app, "https://evil.example").await;
    assert_eq!(evil.header("access-control-allow-origin"), "");
    let read = app
        .send(
            Method::GET,
            "/api/v1/game-kinds",
            None,
            &[("Origin", "https://client.example")],
            None,
        )
        .await;
    assert_eq!(read.status, 200);
    assert!(
        read.header("access-control-expose-headers")
            .to_lowercase()
            .contains("etag")
    );
    let other = app
        .send(
            Method::GET,
            "/api/v1/game-kinds",
            None,
            &[("Origin", "https://evil.example")],
            None,
        )
        .await;
    assert_eq!(other.status, 200);
    assert_eq!(other.header("access-control-allow-origin"), "");
    let sign_in = app
        .send(
            Method::GET,
            "/sign-in",
            None,
            &[("Origin", "https://evil.example")],
            None,
        )
        .await;
    assert_eq!(sign_in.status, 200, "pages are not blocked by an origin");
}

async fn preflight(app: &crate::helpers::TestApp, origin: &str) -> crate::helpers::Reply {
    app.send(
        Method::OPTIONS,
        "/api/v1/games",
        None,
        &[
            ("Origin", origin),
            ("Access-Control-Request-Method", "POST"),
            (
                "Access-Control-Request-Headers",
                "authorization, content-type, idempotency-key",
            ),
        ],
        None,
    )
    .await
}

/// Reads `/api/v1/me` with `token` until it is refused; the number of reads answered.
async fn calls_until_refused(app: &crate::helpers::TestApp, token: &str) -> usize {
    for n in 0..40 {
        let r = app.get("/api/v1/me", Some(token)).await;
        if r.status == 429 {
            return n;
        }
        assert_eq!(r.status, 200, "{}", r.text);
    }
    panic!("never refused");
}

#[actix_web::test]
async fn an_account_over_its_request_limit_waits_and_changes_nothing_while_others_go_on() {
    // What ACCOUNT_REQUESTS_PER_MINUTE=5 sets.
    let app = spawn_app_with(|s| s.auth.account_requests_per_minute = 5).await;
    let ada = app.user("ada@example.test", "Ada").await;
    let bruno = app.user("bruno@example.test", "Bruno").await;
    // Ada's personal token (her first call) counts for the same account as her access token.
    let made = app
        .post(
            "/api/v1/me/tokens",
            Some(&ada),
            json!({"name": "bot", "scopes": ["read", "play"]}),
        )
        .await;
    assert_eq!(made.status, 201, "{}", made.text);
    let personal = made.json["token"].as_str().unwrap().to_owned();
    // Four more calls fill the minute; a window that turns meanwhile (the windows are the
    // server's minutes) allows at most five more.
    let answered = calls_until_refused(&app, &personal).await;
    assert!((4..=9).contains(&answered), "{answered}");
    let refused = app
        .post(
            "/api/v1/games",
            Some(&ada),
            json!({"kind": "magnate", "options": {"preset": "standard"}, "invite": ["bruno@example.test"]}),
        )
        .await;
    refused.assert_problem(429, "rate_limited");
    let wait: u64 = refused.header("retry-after").parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    let detail = refused.json["detail"].as_str().unwrap();
    assert!(
        detail.contains("ACCOUNT_REQUESTS_PER_MINUTE") && detail.contains('5'),
        "{detail}"
    );
    // Bruno is not held back, and the refused call made no game (he would be invited to it).
    let mine = app.get("/api/v1/games", Some(&bruno)).await;
    assert_eq!(mine.status, 200, "{}", mine.text);
    assert_eq!(mine.json.as_array().map(Vec::len), Some(0), "{}", mine.text);
    // Public reads without a token are not the account's: they go on.
    assert_eq!(app.get("/api/v1/game-kinds", None).await.status, 200);
}

#[actix_web::test]
async fn signed_in_form_posts_count_against_the_account_limit() {
    let app = spawn_app_with(|s| s.auth.account_requests_per_minute = 3).await;
    let ada = app.user("ada@example.test", "Ada").await;
    let cookie = crate::web::signed_in(&app, &ada, "ada@example.test").await;
    // A game of hers (one call), whose page answers its own form posts.
    let game = app
        .post(
            "/api/v1/games",
            Some(&ada),
            json!({"kind": "magnate", "options": {"preset": "standard"}, "invite": ["bruno@example.test"]}),
        )
        .await;
    assert_eq!(game.status, 201, "{}", game.text);
    let play = format!("/play/{}/chat", game.json["id"].as_str().unwrap());
    let mut statuses = Vec::new();
    for _ in 0..10 {
        // Without the page's CSRF token: refused (403) after the limit is counted, so nothing
        // is saved either way.
        let r = post_form(&app, "/settings", &cookie, "locale=en").await;
        statuses.push(r.status);
        if r.status == 429 {
            let wait: u64 = r.header("retry-after").parse().unwrap();
            assert!((1..=60).contains(&wait), "{wait}");
            // A page says it in its reader's words (the API's problem names the setting).
            assert!(
                r.text.contains("Too many requests: try again in"),
                "{}",
                r.text
            );
            break;
        }
        assert_eq!(r.status, 403, "{}", r.text);
    }
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    // The game page (shown again) refuses its own posts the same way, with the wait (posted
    // until refused: the minute may have turned since).
    let mut refused = false;
    for _ in 0..10 {
        let r = post_form(&app, &play, &cookie, "text=hi").await;
        if r.status == 429 {
            let wait: u64 = r.header("retry-after").parse().unwrap();
            assert!((1..=60).contains(&wait), "{wait}");
            refused = true;
            break;
        }
        assert_eq!(r.status, 403, "{}", r.text);
    }
    assert!(refused, "the game page's post was never refused");
    // Reading pages is not counted.
    assert_eq!(page(&app, "/settings", &cookie).await.status, 200);
}

/// Sends `head` (a request whose body stops short) and waits up to `limit` for the whole
/// answer: the answer and how long it took.
async fn stalled(base: &str, head: &[u8], limit: u64) -> (String, std::time::Duration) {
    // The server runs on this test's own thread: the client must not block it.
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let address = base.trim_start_matches("http://").to_owned();
    let mut stream = actix_web::rt::net::TcpStream::connect(&address)
        .await
        .unwrap();
    stream.write_all(head).await.unwrap();
    let began = std::time::Instant::now();
    let mut answer = Vec::new();
    let read = stream.read_to_end(&mut answer);
    let _ = actix_web::rt::time::timeout(std::time::Duration::from_secs(limit), read).await;
    (
        String::from_utf8_lossy(&answer).into_owned(),
        began.elapsed(),
    )
}

/// A body that stops arriving is answered 408 `request_timeout` when its time is up, and the
/// connection is freed, rather than held for as long as the client likes.
#[actix_web::test]
async fn a_stalled_body_is_answered_408_and_its_connection_freed() {
    let app = spawn_app().await;
    // Ten bytes of a hundred promised, then nothing.
    let (answer, waited) = stalled(
        &app.base,
        b"POST /api/v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"email\":",
        60,
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("request_timeout"), "{answer}");
    assert!(
        waited >= herald::routes::json::BODY_WAIT && waited.as_secs() < 50,
        "answered after {waited:?}"
    );
}

/// An inbound mail that stops arriving meets the deadline every body has: 408
/// `request_timeout`, saying the message did not arrive whole, not a malformed message.
#[actix_web::test]
async fn a_stalled_inbound_mail_is_answered_408() {
    let app = spawn_app_with(|s| {
        s.inbound.secret = Some("the inbound secret".to_owned());
        s.inbound.mail_domain = Some("herald.test".to_owned());
    })
    .await;
    let (answer, waited) = stalled(
        &app.base,
        b"POST /api/v1/inbound-mail HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer the inbound secret\r\nContent-Type: message/rfc822\r\nContent-Length: 5000\r\n\r\nFrom: ada@example.test\r\n",
        90,
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("request_timeout"), "{answer}");
    assert!(
        answer.contains("the message did not arrive whole within 60 s"),
        "{answer}"
    );
    assert!(
        waited >= herald::startup::BODY_DEADLINE && waited.as_secs() < 80,
        "answered after {waited:?}"
    );
}
