//! The pages' forms and queries read each field once: a field given twice where its form has it
//! once (a forged or broken form, never a browser's) is refused with 400 and a page naming it in
//! the reader's language, changing nothing; a field a form lets repeat (the invitations of a new
//! game) keeps every value.

use crate::helpers::spawn_app;
use crate::web::{csrf_of, form_action, open_link, page, post_form, signed_in};
use awc::http::Method;

/// A move form with its card given twice, in the body or in the address: refused, naming the
/// field, and the game is where it was.
#[actix_web::test]
async fn a_move_form_with_its_card_given_twice_is_refused_naming_it_and_the_game_is_unchanged() {
    let app = spawn_app().await;
    let table = app.table().await;
    let (mover, before) = app.mover(&table).await;
    let cookie = open_link(&app, &table, mover).await;
    let game_page = page(&app, &format!("/play/{}", table.id), &cookie).await;
    let sell = form_action(&game_page.text, "sell").unwrap();
    let card = sell
        .split("card=")
        .nth(1)
        .unwrap()
        .split('&')
        .next()
        .unwrap()
        .to_owned();
    for (path, body) in [
        (format!("{sell}&card={card}"), String::new()),
        (sell.clone(), format!("card={card}&card={card}")),
    ] {
        let r = post_form(&app, &path, &cookie, &body).await;
        assert_eq!(r.status, 400, "{path} {body}: {}", r.text);
        assert!(r.header("content-type").starts_with("text/html"));
        assert!(
            r.text.contains("gives the field “card” more than once"),
            "{path} {body}: {}",
            r.text
        );
        let after = app.game(&table, mover).await;
        assert_eq!(after["version"], before["version"], "{path} {body}");
        assert_eq!(after["view"], before["view"], "{path} {body}");
    }
    // The same form with its card once is played.
    let played = post_form(&app, &sell, &cookie, "").await;
    assert_eq!(played.status, 303, "{}", played.text);
}

/// An account form with a choice given twice: refused in the reader's language, naming it, and
/// the account keeps its settings.
#[actix_web::test]
async fn a_settings_form_with_a_field_given_twice_is_refused_naming_it_and_changes_nothing() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let cookie = signed_in(&app, &ada, "ada@example.test").await;
    let csrf = csrf_of(&page(&app, "/settings", &cookie).await.text);
    // Said in the account's language (French), not the browser's.
    app.set_locale(&ada, "fr").await;
    let headers = [
        ("Content-Type", "application/x-www-form-urlencoded"),
        ("Cookie", cookie.as_str()),
        ("Accept", "text/html"),
        ("Accept-Language", "en"),
    ];
    let body = format!("csrf={csrf}&mode=instant&time_zone=Europe%2FParis&mode=off");
    let r = app
        .send(
            Method::POST,
            "/settings",
            None,
            &headers,
            Some(body.into_bytes()),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(
        r.text
            .contains("il donne le champ « mode » plus d'une fois"),
        "{}",
        r.text
    );
    let mode = app.get("/api/v1/me/notifications", Some(&ada)).await;
    assert_eq!(mode.json["mode"], "instant", "{}", mode.text);
    let me = app.get("/api/v1/me", Some(&ada)).await;
    assert_ne!(me.json["time_zone"], "Europe/Paris", "{}", me.text);
    // Signing out with the token given twice: refused, and the session goes on.
    let out = post_form(
        &app,
        "/sign-out",
        &cookie,
        &format!("csrf={csrf}&csrf={csrf}"),
    )
    .await;
    assert_eq!(out.status, 400, "{}", out.text);
    // In her account's French, as every refusal to a signed-in reader.
    assert!(out.text.contains("« csrf »"), "{}", out.text);
    assert_eq!(page(&app, "/settings", &cookie).await.status, 200);
}

/// The sign-in form with two addresses: which one would get the link? Neither: refused, naming
/// the field, in the visitor's language.
#[actix_web::test]
async fn a_sign_in_form_with_two_addresses_is_refused_naming_the_field() {
    let app = spawn_app().await;
    app.user("ada@example.test", "Ada").await;
    let headers = [
        ("Content-Type", "application/x-www-form-urlencoded"),
        ("Accept", "text/html"),
        ("Accept-Language", "es"),
    ];
    let body = "email=ada%40example.test&next=%2Fgames&email=eve%40example.test";
    let r = app
        .send(
            Method::POST,
            "/sign-in",
            None,
            &headers,
            Some(body.as_bytes().to_vec()),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(
        r.text.contains("da el campo «email» más de una vez"),
        "{}",
        r.text
    );
    assert!(!r.text.contains("eve@example.test"), "{}", r.text);
}

/// A page's query parameter given twice (`?offset=0&offset=50`) is refused by name too, as the
/// address's parameter.
#[actix_web::test]
async fn a_page_query_with_a_parameter_given_twice_is_refused_naming_it() {
    let app = spawn_app().await;
    for (path, name) in [
        ("/ratings/magnate?offset=0&offset=50", "offset"),
        ("/rules/magnate?lang=fr&lang=es", "lang"),
    ] {
        let r = page(&app, path, "").await;
        assert_eq!(r.status, 400, "{path}: {}", r.text);
        assert!(
            r.text
                .contains(&format!("gives the parameter “{name}” more than once")),
            "{path}: {}",
            r.text
        );
    }
    assert_eq!(
        page(&app, "/ratings/magnate?offset=0", "").await.status,
        200
    );
    assert_eq!(page(&app, "/rules/magnate?lang=fr", "").await.status, 200);
}

/// The new-game form's invitations may come as several `invite` fields (each a guest, as the
/// API's list): every one is invited. Its other fields may not repeat: no game is made.
#[actix_web::test]
async fn a_new_game_invites_every_guest_of_repeated_invite_fields_and_refuses_other_repeats() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    app.user("bruno@example.test", "Bruno").await;
    app.user("zephyrine@example.test", "Zephyrine Quill").await;
    let cookie = signed_in(&app, &ada, "ada@example.test").await;
    let csrf = csrf_of(&page(&app, "/games/new", &cookie).await.text);
    let twice = post_form(
        &app,
        "/games/new",
        &cookie,
        &format!("csrf={csrf}&kind=lancaster&kind=magnate&invite=bruno%40example.test"),
    )
    .await;
    assert_eq!(twice.status, 400, "{}", twice.text);
    assert!(twice.text.contains("“kind”"), "{}", twice.text);
    let none = app.get("/api/v1/games", Some(&ada)).await;
    assert_eq!(none.json, serde_json::json!([]), "{}", none.text);

    let made = post_form(
        &app,
        "/games/new",
        &cookie,
        &format!(
            "csrf={csrf}&kind=lancaster&seats=3&invite=bruno%40example.test&invite=Zephyrine+Quill"
        ),
    )
    .await;
    assert_eq!(made.status, 303, "{}", made.text);
    let id = made
        .header("location")
        .trim_start_matches("/play/")
        .to_owned();
    let g = app.get(&format!("/api/v1/games/{id}"), Some(&ada)).await;
    let seats = g.json["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 3, "{}", g.text);
    let invited = seats.iter().filter(|s| !s["invited"].is_null()).count();
    assert_eq!(invited, 2, "{}", g.text);
    assert!(
        g.text.contains("Zephyrine Quill"),
        "the guest by name: {}",
        g.text
    );
    assert!(
        seats.iter().all(|s| s["open"] != true),
        "both guests invited, no seat left open: {}",
        g.text
    );
}
