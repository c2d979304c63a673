//! The rules pages: `/rules/{game}` in the reader's language, every rule family an anchor.

use crate::helpers::{Reply, TestApp, spawn_app};
use crate::web::{page, user_id};
use awc::http::Method;
use herald::web::rules::{families, rule_link, rules_href};

const GAMES: [&str; 2] = ["magnate", "lancaster"];
const LANGS: [&str; 4] = ["en", "es", "it", "fr"];

async fn get(app: &TestApp, path: &str, accept_language: &str, cookie: &str) -> Reply {
    let mut headers = vec![
        ("Accept", "text/html"),
        ("Accept-Language", accept_language),
    ];
    if !cookie.is_empty() {
        headers.push(("Cookie", cookie));
    }
    app.send(Method::GET, path, None, &headers, None).await
}

fn lang_of(html: &str) -> &str {
    html.split("<html lang=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or("")
}

fn ids(html: &str) -> Vec<&str> {
    let mut ids: Vec<&str> = html
        .split(" id=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    ids.sort_unstable();
    ids
}

#[actix_web::test]
async fn each_game_answers_in_each_language_asked_by_the_browser_and_the_pages_differ() {
    let app = spawn_app().await;
    for game in GAMES {
        let mut bodies = Vec::new();
        for lang in LANGS {
            let r = get(&app, &format!("/rules/{game}"), lang, "").await;
            assert_eq!(r.status, 200, "{game} {lang}: {}", r.text);
            assert!(r.header("content-type").starts_with("text/html"));
            assert_eq!(lang_of(&r.text), lang, "{game}");
            bodies.push(r.text);
        }
        for (i, a) in bodies.iter().enumerate() {
            for b in &bodies[i + 1..] {
                assert_ne!(a, b, "{game}: two languages give the same page");
            }
        }
    }
}

#[actix_web::test]
async fn the_lang_parameter_wins_over_the_browser_language() {
    let app = spawn_app().await;
    for game in GAMES {
        for lang in LANGS {
            let r = get(
                &app,
                &format!("/rules/{game}?lang={lang}"),
                "fr-FR, es;q=0.5",
                "",
            )
            .await;
            assert_eq!(r.status, 200, "{}", r.text);
            assert_eq!(lang_of(&r.text), lang, "{game}");
        }
    }
    let magnate = get(&app, "/rules/magnate?lang=it", "es", "").await;
    assert!(magnate.text.contains("il Mulino"));
    assert!(magnate.text.contains("Serpi"));
    let lancaster = get(&app, "/rules/lancaster?lang=fr", "en", "").await;
    assert!(lancaster.text.contains("Comté A"));
}

#[actix_web::test]
async fn a_signed_in_reader_gets_their_account_language_unless_the_address_asks_another() {
    use diesel::prelude::*;
    let app = spawn_app().await;
    let token = app.user("ines@example.test", "Inès").await;
    {
        let mut conn = diesel::PgConnection::establish(&app.db_url).unwrap();
        diesel::update(herald::schema::users::table)
            .filter(herald::schema::users::email.eq("ines@example.test"))
            .set(herald::schema::users::locale.eq("it"))
            .execute(&mut conn)
            .unwrap();
    }
    let link = {
        let user = user_id(&app, &token).await;
        let mut conn = diesel::PgConnection::establish(&app.db_url).unwrap();
        herald::web::session::new_sign_in_link(
            &mut conn,
            &app.links,
            user,
            "ines@example.test",
            600,
        )
        .unwrap()
    };
    let r = crate::web::press_sign_in(&app, &format!("/sign-in/{link}")).await;
    assert_eq!(r.status, 303, "{}", r.text);
    let cookie = r.header("set-cookie").split(';').next().unwrap().to_owned();
    let own = get(&app, "/rules/lancaster", "fr", &cookie).await;
    assert_eq!(own.status, 200);
    assert_eq!(lang_of(&own.text), "it");
    assert!(own.text.contains("Inès"), "the page shows the account");
    let asked = get(&app, "/rules/lancaster?lang=es", "fr", &cookie).await;
    assert_eq!(lang_of(&asked.text), "es");
}

#[actix_web::test]
async fn an_unknown_game_is_404_and_a_bad_language_falls_back_to_the_readers() {
    let app = spawn_app().await;
    for path in [
        "/rules/chess",
        "/rules/MAGNATE",
        "/rules/magnate%00",
        "/rules/nim",
    ] {
        let r = get(&app, path, "es", "").await;
        assert_eq!(r.status, 404, "{path}: {}", r.text);
        assert_eq!(lang_of(&r.text), "es", "{path}");
        assert!(r.text.contains("href=\"/rules\""), "{path}");
    }
    for lang in ["xx", "", "de", "es%00", "%E2%80%AE", "EN-gb"] {
        let r = get(&app, &format!("/rules/magnate?lang={lang}"), "it", "").await;
        assert_eq!(r.status, 200, "lang={lang}: {}", r.text);
        assert_eq!(lang_of(&r.text), "it", "lang={lang}");
    }
    let long = format!("/rules/magnate?lang={}", "x".repeat(5000));
    assert!(get(&app, &long, "fr", "").await.status < 500);
    let doubled = get(&app, "/rules/magnate?lang=fr&lang=es", "it", "").await;
    assert!(doubled.status < 500);
}

#[actix_web::test]
async fn every_rule_family_is_an_anchor_of_every_language_and_the_ids_are_the_same() {
    let app = spawn_app().await;
    for game in GAMES {
        let english = get(&app, &format!("/rules/{game}?lang=en"), "", "").await;
        let english_ids = ids(&english.text);
        for family in families(game) {
            assert!(
                english_ids.contains(family),
                "{game}: no anchor {family} on the English page"
            );
            let link = rule_link(game, &format!("{family}-1")).unwrap();
            assert_eq!(link, format!("{}#{family}", rules_href(game)));
        }
        for lang in &LANGS[1..] {
            let r = get(&app, &format!("/rules/{game}?lang={lang}"), "", "").await;
            assert_eq!(ids(&r.text), english_ids, "{game} {lang}");
        }
    }
}

#[actix_web::test]
async fn the_rules_list_links_every_game_in_the_readers_language() {
    let app = spawn_app().await;
    let r = page(&app, "/rules?lang=fr", "").await;
    assert_eq!(r.status, 200);
    assert_eq!(lang_of(&r.text), "fr");
    for game in GAMES {
        assert!(
            r.text.contains(&format!("href=\"/rules/{game}?lang=fr\"")),
            "{game}"
        );
    }
}
