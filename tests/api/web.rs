//! The web pages over plain HTTP: the landing from a play link, the game page, every action form
//! and its errors, sign-in links, my games, creating a game, invitations.

use crate::helpers::{Reply, Table, TestApp, spawn_app};
use awc::http::Method;
use herald::auth::links::PlayGrant;
use herald::domain::{GameId, UserId};
use serde_json::Value;
use std::collections::BTreeSet;

const FORM: (&str, &str) = ("Content-Type", "application/x-www-form-urlencoded");

fn unescape(s: &str) -> String {
    s.replace("&amp;", "&")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
}

/// The `action` address of the first form with `data-action="<kind>"`.
pub fn form_action(page: &str, kind: &str) -> Option<String> {
    let at = page.find(&format!("data-action=\"{kind}\""))?;
    let start = page[..at].rfind("<form")?;
    let tag = &page[start..start + page[start..].find('>')?];
    let a = tag.find(" action=\"")? + 9;
    let end = tag[a..].find('"')?;
    Some(unescape(&tag[a..a + end]))
}

pub async fn user_id(app: &TestApp, token: &str) -> UserId {
    let me = app.get("/api/v1/me", Some(token)).await;
    UserId(me.json["id"].as_str().unwrap().parse().unwrap())
}

/// Opens a fresh play link for `seat` and returns the session cookie (`name=value`).
pub async fn open_link(app: &TestApp, table: &Table, seat: usize) -> String {
    let user = user_id(app, &table.tokens[seat]).await;
    let game = GameId(table.id.parse().unwrap());
    let token = app.links.play_link(
        PlayGrant {
            user,
            game,
            seat: seat as i16,
        },
        3600,
    );
    let r = page(app, &format!("/play/{}?t={token}", table.id), "").await;
    assert_eq!(r.status, 303, "{}", r.text);
    assert_eq!(r.header("location"), format!("/play/{}", table.id));
    let set = r.header("set-cookie");
    assert!(set.contains("HttpOnly"), "{set}");
    assert!(set.contains("SameSite=Lax"), "{set}");
    assert!(set.contains(&format!("Path=/play/{}", table.id)), "{set}");
    assert!(!set.contains("Secure"), "plain http test server: {set}");
    set.split(';').next().unwrap().to_owned()
}

/// Opens a sign-in link's page (GET) and presses its button (POST) as a browser does: with the
/// cookie the page set.
pub async fn press_sign_in(app: &TestApp, path: &str) -> Reply {
    let opened = page(app, path, "").await;
    let mark = opened
        .header("set-cookie")
        .split(';')
        .next()
        .unwrap_or("")
        .to_owned();
    post_form(app, path, &mark, "").await
}

pub async fn page(app: &TestApp, path: &str, cookie: &str) -> Reply {
    let headers: Vec<(&str, &str)> = if cookie.is_empty() {
        vec![("Accept", "text/html")]
    } else {
        vec![("Accept", "text/html"), ("Cookie", cookie)]
    };
    app.send(Method::GET, path, None, &headers, None).await
}

pub async fn post_form(app: &TestApp, path: &str, cookie: &str, body: &str) -> Reply {
    let headers = [FORM, ("Cookie", cookie), ("Accept", "text/html")];
    app.send(
        Method::POST,
        path,
        None,
        &headers,
        Some(body.as_bytes().to_vec()),
    )
    .await
}

fn hand(game: &Value, seat: usize) -> Vec<String> {
    game["view"]["players"][seat]["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect()
}

pub fn shows_card(page: &str, code: &str) -> bool {
    let bytes = page.as_bytes();
    page.match_indices(code).any(|(i, _)| {
        let before = i.checked_sub(1).map(|j| bytes[j]);
        let after = bytes.get(i + code.len()).copied();
        let edge = |c: Option<u8>| c.is_none_or(|c| !c.is_ascii_digit() && !c.is_ascii_uppercase());
        edge(before) && edge(after)
    })
}

#[actix_web::test]
async fn a_play_link_signs_the_seat_in_and_the_page_shows_its_hand_and_not_the_other() {
    let app = spawn_app().await;
    let table = app.table().await;
    let (mover, g) = app.mover(&table).await;
    let other = 1 - mover;
    let theirs = hand(&app.game(&table, other).await, other);
    let cookie = open_link(&app, &table, mover).await;
    let r = page(&app, &format!("/play/{}", table.id), &cookie).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.header("content-type").starts_with("text/html"));
    assert!(r.text.contains("name=\"viewport\""));
    assert!(r.text.contains("<html lang=\"en\""));
    assert!(r.text.contains("<main"));
    // Every card and token shows its suit's icon: the icons the page refers to are defined on it.
    for suit in ["M", "S", "V", "L", "Y", "K"] {
        assert!(
            r.text.contains(&format!("<symbol id=\"i-{suit}\"")),
            "icon {suit}"
        );
    }
    for c in hand(&g, mover) {
        assert!(shows_card(&r.text, &c), "own card {c} missing");
    }
    for c in &theirs {
        assert!(
            !shows_card(&r.text, c),
            "the other hand's {c} is on the page"
        );
    }
    let seed = app
        .get(&format!("/api/v1/games/{}/fairness", table.id), None)
        .await;
    assert!(seed.json["seed"].is_null());
    assert!(r.text.contains("data-action=\"sell\""));
    // A form for each kind of action listed now, and none for a kind that is not.
    for kind in ["build", "deed", "develop", "trade"] {
        let listed = g["legal_actions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["type"] == kind);
        let form = r.text.contains(&format!("data-action=\"{kind}\""));
        assert_eq!(form, listed, "{kind}");
    }
    assert!(!r.text.contains("http://") || !r.text.contains("src=\"http"));
    // The other seat's page, from its own link: it waits, and shows no hand of the mover.
    let cookie2 = open_link(&app, &table, other).await;
    let r2 = page(&app, &format!("/play/{}", table.id), &cookie2).await;
    assert_eq!(r2.status, 200);
    for c in hand(&g, mover) {
        assert!(
            !shows_card(&r2.text, &c),
            "the mover's {c} is on the other page"
        );
    }
    assert!(!r2.text.contains("data-action=\"sell\""));
}

#[actix_web::test]
async fn a_refused_link_answers_403_with_a_form_for_a_fresh_link() {
    let app = spawn_app().await;
    let table = app.table().await;
    let user = user_id(&app, &table.tokens[0]).await;
    let game = GameId(table.id.parse().unwrap());
    let other_game = app.links.play_link(
        PlayGrant {
            user,
            game: GameId::new(),
            seat: 0,
        },
        3600,
    );
    let expired = app.links.play_link(
        PlayGrant {
            user,
            game,
            seat: 0,
        },
        -3600,
    );
    let good = app.links.play_link(
        PlayGrant {
            user,
            game,
            seat: 0,
        },
        3600,
    );
    let tampered = format!("{good}x");
    for (token, why) in [
        (other_game, "another game"),
        (expired, "expired"),
        (tampered, "not valid"),
    ] {
        let r = page(&app, &format!("/play/{}?t={token}", table.id), "").await;
        assert_eq!(r.status, 403, "{why}: {}", r.text);
        assert!(r.text.contains(why), "{why}: {}", r.text);
        assert!(r.text.contains("action=\"/sign-in\""));
        assert!(r.header("set-cookie").is_empty());
    }
}

#[actix_web::test]
async fn a_game_page_without_a_session_is_watched_with_a_way_to_sign_in() {
    let app = spawn_app().await;
    let table = app.table().await;
    let r = page(&app, &format!("/play/{}", table.id), "").await;
    // Anyone may watch a game in progress on its page (issue 16), with a spectator's view: no
    // hand, no action form, and a sign-in form to play or chat.
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.text.contains("You are watching this game."));
    let sign_in = format!("href=\"/sign-in?next=/play/{}\"", table.id);
    assert!(r.text.contains(&sign_in), "{}", r.text);
    assert!(!r.text.contains("data-action="), "{}", r.text);
    let form = page(&app, &format!("/sign-in?next=/play/{}", table.id), "").await;
    assert!(
        form.text
            .contains(&format!("name=\"next\" value=\"/play/{}\"", table.id)),
        "{}",
        form.text
    );
    let away = page(&app, "/sign-in?next=//evil.example/", "").await;
    assert!(!away.text.contains("evil.example"), "{}", away.text);
    for seat in 0..2 {
        for c in hand(&app.game(&table, seat).await, seat) {
            assert!(!shows_card(&r.text, &c), "an anonymous watcher sees {c}");
        }
    }
    // The API still asks for a token before the end (api.md: public reads are finished games).
    let api = app.get(&format!("/api/v1/games/{}", table.id), None).await;
    assert_eq!(api.status, 401, "{}", api.text);
    let missing = page(&app, &format!("/play/{}", uuid::Uuid::new_v4()), "").await;
    assert_eq!(missing.status, 404);
}

#[actix_web::test]
async fn selling_from_the_page_redirects_back_and_shows_the_sale() {
    let app = spawn_app().await;
    let table = app.table().await;
    let (mover, g) = app.mover(&table).await;
    let cookie = open_link(&app, &table, mover).await;
    let r = page(&app, &format!("/play/{}", table.id), &cookie).await;
    let action = form_action(&r.text, "sell").unwrap();
    let posted = post_form(&app, &action, &cookie, "").await;
    assert_eq!(posted.status, 303, "{}", posted.text);
    assert_eq!(posted.header("location"), format!("/play/{}", table.id));
    let after = app.game(&table, mover).await;
    assert_eq!(after["version"], g["version"].as_i64().unwrap() + 1);
    let r = page(&app, &format!("/play/{}", table.id), &cookie).await;
    assert!(
        r.text.contains("data-action=\"end\""),
        "end is offered after the card play"
    );
    // End the turn from its form.
    let end = form_action(&r.text, "end").unwrap();
    let ended = post_form(&app, &end, &cookie, "").await;
    assert_eq!(ended.status, 303, "{}", ended.text);
    let (next, _) = app.mover(&table).await;
    assert_eq!(next, 1 - mover);
}

/// Plays whole turns through the API (sell a card, end) until the mover can build; returns the
/// mover and one legal build.
pub async fn until_a_build(app: &TestApp, table: &Table) -> (usize, Value) {
    for _ in 0..40 {
        let (mover, g) = app.mover(table).await;
        let legal = g["legal_actions"].as_array().unwrap();
        if let Some(b) = legal.iter().find(|a| a["type"] == "build") {
            return (mover, b.clone());
        }
        let sell = legal.iter().find(|a| a["type"] == "sell").unwrap().clone();
        let r = app
            .submit(
                table,
                mover,
                g["version"].as_i64().unwrap(),
                serde_json::json!([sell, {"type": "end"}]),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    panic!("no build became legal in 40 turns");
}

#[actix_web::test]
async fn an_illegal_build_answers_422_with_the_rule_next_to_the_form_and_keeps_the_entries() {
    let app = spawn_app().await;
    let table = app.table().await;
    let (mover, build) = until_a_build(&app, &table).await;
    let g = app.game(&table, mover).await;
    let cookie = open_link(&app, &table, mover).await;
    let r = page(&app, &format!("/play/{}", table.id), &cookie).await;
    let action = form_action(&r.text, "build").unwrap();
    let body = format!(
        "card={}&district={}&pay_M=0&pay_K=",
        build["card"].as_str().unwrap(),
        build["district"].as_str().unwrap()
    );
    let refused = post_form(&app, &action, &cookie, &body).await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert!(refused.header("content-type").starts_with("text/html"));
    assert!(refused.text.contains("id=\"problem-build\""));
    assert!(refused.text.contains("MAG-"), "{}", refused.text);
    assert!(
        refused.text.contains("href=\"/rules/magnate#MAG-"),
        "the rule links to its rules page"
    );
    // The form next to the refusal offers the legal builds, this one among them.
    assert!(refused.text.contains(&format!(
        "<option value=\"{}\"",
        build["notation"].as_str().unwrap().replace('&', "&amp;")
    )));
    // Nothing was stored.
    assert_eq!(app.game(&table, mover).await["version"], g["version"]);
    // A payment that is not a number is refused with its own sentence.
    let body = format!(
        "card={}&district={}&pay_V=lots",
        build["card"].as_str().unwrap(),
        build["district"].as_str().unwrap()
    );
    let bad = post_form(&app, &action, &cookie, &body).await;
    assert_eq!(bad.status, 422);
    let alert = alert_of(&bad.text);
    assert!(
        alert.contains("The field “tokens” has a value this form does not take; it takes a whole number from 0 to 99."),
        "{alert}"
    );
    assert!(
        !alert.contains("lots"),
        "the refusal does not repeat what was sent: {alert}"
    );
    // An unknown card: refused as unreadable, still on the page.
    let bad = post_form(&app, &action, &cookie, "card=ZZZ&district=a&pay_V=1").await;
    assert_eq!(bad.status, 422);
    assert!(bad.text.contains("id=\"problem-build\""));
    assert!(
        bad.text
            .contains("Choose one of the listed choices. Nothing was changed."),
        "{}",
        bad.text
    );
    assert!(
        !bad.text.contains("ZZZ"),
        "the refusal repeats what was sent"
    );
    // The legal build from the form is accepted.
    let mut body = format!(
        "card={}&district={}",
        build["card"].as_str().unwrap(),
        build["district"].as_str().unwrap()
    );
    for (suit, n) in build["payment"].as_object().unwrap() {
        body.push_str(&format!("&pay_{suit}={n}"));
    }
    let ok = post_form(&app, &action, &cookie, &body).await;
    assert_eq!(ok.status, 303, "{}", ok.text);
}

#[actix_web::test]
async fn every_form_refusal_has_its_answer() {
    let app = spawn_app().await;
    let table = app.table().await;
    let (mover, _) = app.mover(&table).await;
    let cookie = open_link(&app, &table, mover).await;
    let r = page(&app, &format!("/play/{}", table.id), &cookie).await;
    // A sell button is always there for the mover at the start of a turn: its address carries
    // the token and version.
    let sell = form_action(&r.text, "sell").unwrap();
    let build = format!(
        "/play/{}/build?{}",
        table.id,
        sell.split_once('?').unwrap().1
    );
    // A wrong CSRF token: 403, nothing stored.
    let forged = build.split("&csrf=").next().unwrap().to_owned() + "&csrf=0000";
    let f = post_form(&app, &forged, &cookie, "card=x").await;
    assert_eq!(f.status, 403);
    // No session at all: 401.
    let anon = post_form(&app, &build, "", "card=x").await;
    assert_eq!(anon.status, 401);
    // An unknown action type.
    let unknown = build.replace("/build?", "/fly?");
    let u = post_form(&app, &unknown, &cookie, "").await;
    assert_eq!(u.status, 422);
    // The page draws no such form: the reason is shown above the game, not lost.
    assert!(u.text.contains("id=\"problem-form\""), "{}", u.text);
    let shown = u.text.split("id=\"problem-form\"").nth(1).unwrap_or("");
    let shown = shown.split("</div>").next().unwrap_or("");
    // It says there is no such form, without repeating the address.
    assert!(
        shown.contains("This game's page has no such form") && !shown.contains("fly"),
        "the reason: {}",
        u.text
    );
    // Deed, develop, trade and prefer forms refused by the rules or the reader.
    let trade = build.replace("/build?", "/trade?");
    let t = post_form(&app, &trade, &cookie, "give_M=1&take=S").await;
    assert_eq!(t.status, 422, "{}", t.text);
    assert!(t.text.contains("id=\"problem-trade\""));
    let deed = form_action(&r.text, "deed");
    if let Some(deed) = deed {
        let d = post_form(&app, &deed, &cookie, "card=NM&district=a").await;
        assert_eq!(d.status, 422, "{}", d.text);
        assert!(d.text.contains("id=\"problem-deed\""));
    }
    let develop = build.replace("/build?", "/develop?");
    let d = post_form(&app, &develop, &cookie, "card=1M&pay_M=1").await;
    assert_eq!(d.status, 422, "{}", d.text);
    assert!(d.text.contains("id=\"problem-develop\""));
    let prefer = build.replace("/build?", "/prefer?");
    let p = post_form(&app, &prefer, &cookie, "card=1M&suit=M").await;
    assert_eq!(p.status, 422, "{}", p.text);
    // Next to its form when the page draws one (a seat with a deed to prefer on), else above
    // the game.
    let boxed = if form_action(&r.text, "prefer").is_some() {
        "id=\"problem-prefer\""
    } else {
        "id=\"problem-form\""
    };
    assert!(
        p.text.contains(boxed),
        "the refusal is shown in {boxed}: {}",
        p.text
    );
    let end = build.replace("/build?", "/end?");
    let e = post_form(&app, &end, &cookie, "").await;
    assert_eq!(e.status, 422, "end before the card play: {}", e.text);
    assert!(e.text.contains("MAG-TURN-4"), "{}", e.text);
    // A stale page: 409 with the current page.
    let sell = form_action(&r.text, "sell").unwrap();
    assert_eq!(post_form(&app, &sell, &cookie, "").await.status, 303);
    let again = post_form(&app, &sell, &cookie, "").await;
    assert_eq!(again.status, 409, "{}", again.text);
    // Another session's page may not reuse this session's CSRF token.
    let cookie2 = open_link(&app, &table, 1 - mover).await;
    let other = sell.replace(&cookie_csrf(&sell), "");
    let o = post_form(&app, &other, &cookie2, "").await;
    assert_eq!(o.status, 403, "another session's CSRF token: {}", o.text);
}

/// A page read before the others acted is still about the seat's decision: in Lancaster's
/// opening, decided by all three at once, a form posted after another player's choice plays (it
/// used to be refused as stale); a form read before the seat's own move still is.
#[actix_web::test]
async fn a_page_form_read_before_the_others_decided_still_plays() {
    let app = spawn_app().await;
    let (id, tokens) = app.lancaster_three().await;
    let emails = crate::helpers::THREE;
    let path = format!("/api/v1/games/{id}");
    let ada = app.get(&path, Some(&tokens[0])).await.json;
    let first = ada["legal_actions"][0].clone();
    assert!(!first.is_null(), "Ada decides at the start: {ada}");
    let cookie = signed_in(&app, &tokens[0], emails[0].0).await;
    let read = page(&app, &format!("/play/{id}"), &cookie).await;
    let kind = first["type"].as_str().unwrap();
    let action = form_action(&read.text, kind).unwrap_or_else(|| panic!("no {kind} form"));
    // Bruno decides by the API meanwhile.
    let bruno = app.get(&path, Some(&tokens[1])).await.json;
    let his = bruno["legal_actions"][0].clone();
    let body = serde_json::json!({"expected_version": bruno["version"], "actions": [his]});
    let decided = app
        .post(
            &format!("/api/v1/games/{id}/actions"),
            Some(&tokens[1]),
            body,
        )
        .await;
    assert_eq!(decided.status, 200, "{}", decided.text);
    let before = app.get(&path, Some(&tokens[0])).await.json["version"]
        .as_i64()
        .unwrap();
    let notation = first["notation"].as_str().unwrap();
    let form = format!("notation={}", urlencode(notation));
    // A version the game never had is no page's: refused as stale, changing nothing.
    let shown = format!("v={}&", before - 1);
    assert!(action.contains(&shown), "{action}");
    let future = action.replace(&shown, &format!("v={}&", before + 5));
    let forged = post_form(&app, &future, &cookie, &form).await;
    assert_eq!(forged.status, 409, "{}", forged.text);
    let posted = post_form(&app, &action, &cookie, &form).await;
    assert_eq!(posted.status, 303, "{}", posted.text);
    let after = app.get(&path, Some(&tokens[0])).await.json;
    assert_eq!(after["version"].as_i64().unwrap(), before + 1, "{after}");
    // The same form again: Ada has acted since it was read.
    let again = post_form(&app, &action, &cookie, &form).await;
    assert_eq!(again.status, 409, "{}", again.text);
    assert_eq!(
        app.get(&path, Some(&tokens[0])).await.json["version"],
        after["version"]
    );
}

fn cookie_csrf(action: &str) -> String {
    action
        .split("&csrf=")
        .nth(1)
        .map(|c| format!("&csrf={c}"))
        .unwrap_or_default()
}

/// Records a sign-in link for `email` the way an emailed one is.
async fn sign_in_link(app: &TestApp, token: &str, email: &str) -> String {
    use diesel::Connection;
    let user = user_id(app, token).await;
    let mut conn = diesel::PgConnection::establish(&app.db_url).unwrap();
    herald::web::session::new_sign_in_link(&mut conn, &app.links, user, email, 600).unwrap()
}

pub async fn signed_in(app: &TestApp, token: &str, email: &str) -> String {
    let link = sign_in_link(app, token, email).await;
    // Opening the link (as a mail scanner would, twice) spends nothing: a page with one button,
    // and a cookie that marks this browser as the one that opened it (it signs nobody in).
    let mut mark = String::new();
    for _ in 0..2 {
        let opened = page(app, &format!("/sign-in/{link}"), "").await;
        assert_eq!(opened.status, 200, "{}", opened.text);
        let set = opened.header("set-cookie");
        assert!(set.starts_with("herald_link="), "{set}");
        assert!(
            set.contains("HttpOnly")
                && set.contains("SameSite=Lax")
                && set.contains("Path=/sign-in/"),
            "{set}"
        );
        assert!(!set.contains("herald_user"), "{set}");
        assert!(
            !set.contains(&link),
            "the cookie is not the link's token: {set}"
        );
        let action = form_action(&opened.text, "sign-in").unwrap();
        assert_eq!(action, format!("/sign-in/{link}"));
        mark = set.split(';').next().unwrap().to_owned();
    }
    // The button pressed from elsewhere (another site posting the link, login CSRF): refused,
    // saying to open the link, and the link is not spent.
    let elsewhere = post_form(app, &format!("/sign-in/{link}"), "", "").await;
    assert_eq!(elsewhere.status, 403, "{}", elsewhere.text);
    assert!(elsewhere.header("set-cookie").is_empty());
    assert!(
        elsewhere.text.contains("Open the link"),
        "{}",
        elsewhere.text
    );
    let r = post_form(app, &format!("/sign-in/{link}"), &mark, "").await;
    assert_eq!(r.status, 303, "{}", r.text);
    assert_eq!(r.header("location"), "/games");
    let set = r.header("set-cookie");
    assert!(set.contains("HttpOnly") && set.contains("SameSite=Lax"));
    // Spent: 410, and one button that mails a fresh link to this account.
    let again = page(app, &format!("/sign-in/{link}"), "").await;
    assert_eq!(again.status, 410, "a sign-in link is single use");
    assert!(form_action(&again.text, "fresh-link").is_some());
    let reused = post_form(app, &format!("/sign-in/{link}"), &mark, "").await;
    assert_eq!(reused.status, 410);
    set.split(';').next().unwrap().to_owned()
}

#[actix_web::test]
async fn a_sign_in_link_signs_in_once_and_my_games_lists_my_move_first() {
    let app = spawn_app().await;
    let table = app.table().await;
    let (mover, _) = app.mover(&table).await;
    let email = ["ada@example.test", "bruno@example.test"][mover];
    let cookie = signed_in(&app, &table.tokens[mover], email).await;
    let games = page(&app, "/games", &cookie).await;
    assert_eq!(games.status, 200);
    assert!(games.text.contains("Your move"));
    assert!(games.text.contains(&format!("/play/{}", table.id)));
    // The account cookie opens the game page for the account's seat.
    let g = page(&app, &format!("/play/{}", table.id), &cookie).await;
    assert_eq!(g.status, 200);
    assert!(g.text.contains("data-action=\"sell\""));
    assert_eq!(page(&app, "/games", "").await.status, 401);
    assert_eq!(page(&app, "/sign-in/not-a-token", "").await.status, 403);
    let form = page(&app, "/sign-in", "").await;
    assert_eq!(form.status, 200);
    let asked = post_form(
        &app,
        "/sign-in",
        "",
        "email=ada%40example.test&next=%2Fgames",
    )
    .await;
    assert_eq!(asked.status, 200);
    let bad = post_form(&app, "/sign-in", "", "email=nope").await;
    assert_eq!(bad.status, 422);
    let settings = page(&app, "/settings", &cookie).await;
    assert_eq!(settings.status, 200);
    // Signing out takes the page's token (design.md section 20): without it, 403 and the
    // session goes on; with it the session ends on the server and a copy of the cookie is dead.
    let forged = post_form(&app, "/sign-out", &cookie, "").await;
    assert_eq!(forged.status, 403);
    assert_eq!(page(&app, "/settings", &cookie).await.status, 200);
    let csrf = csrf_of(&settings.text);
    let out = post_form(&app, "/sign-out", &cookie, &format!("csrf={csrf}")).await;
    assert_eq!(out.status, 303);
    assert!(out.header("set-cookie").contains("herald_user="));
    assert_eq!(page(&app, "/settings", &cookie).await.status, 401);
}

#[actix_web::test]
async fn signing_out_everywhere_ends_every_session_of_the_account() {
    let app = spawn_app().await;
    let table = app.table().await;
    let (mover, g) = app.mover(&table).await;
    let email = ["ada@example.test", "bruno@example.test"][mover];
    let phone = signed_in(&app, &table.tokens[mover], email).await;
    let laptop = signed_in(&app, &table.tokens[mover], email).await;
    // The laptop's page is loaded, with its form and token, before the phone signs out.
    let on_laptop = page(&app, &format!("/play/{}", table.id), &laptop).await;
    let sell = form_action(&on_laptop.text, "sell").unwrap();
    let csrf = csrf_of(&page(&app, "/settings", &phone).await.text);
    let out = post_form(
        &app,
        "/sign-out",
        &phone,
        &format!("csrf={csrf}&everywhere=on"),
    )
    .await;
    assert_eq!(out.status, 303);
    assert_eq!(page(&app, "/settings", &laptop).await.status, 401);
    assert_eq!(page(&app, "/games", &phone).await.status, 401);
    // A copy of the ended cookie cannot act either: asked to sign in, and nothing changes.
    let posted = post_form(&app, &sell, &laptop, "").await;
    assert_eq!(posted.status, 401, "{}", posted.text);
    assert_eq!(app.game(&table, mover).await["version"], g["version"]);
}

#[actix_web::test]
async fn a_game_is_created_from_the_form_and_the_invitation_accepted_from_its_page() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let bruno = app.user("bruno@example.test", "Bruno").await;
    let cookie = signed_in(&app, &ada, "ada@example.test").await;
    let form = page(&app, "/games/new", &cookie).await;
    assert_eq!(form.status, 200);
    let csrf = form
        .text
        .split("name=\"csrf\" value=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    let bad = post_form(
        &app,
        "/games/new",
        &cookie,
        &format!("csrf={csrf}&kind=magnate&preset_magnate=standard&invite=not%40an%40address"),
    )
    .await;
    assert_eq!(bad.status, 422);
    assert!(bad.text.contains("id=\"problem-create\""));
    assert!(bad.text.contains("value=\"not@an@address\""));
    let forged = post_form(
        &app,
        "/games/new",
        &cookie,
        "csrf=x&kind=magnate&invite=bruno%40example.test",
    )
    .await;
    assert_eq!(forged.status, 422);
    let made = post_form(
        &app,
        "/games/new",
        &cookie,
        &format!(
            "csrf={csrf}&kind=magnate&preset_magnate=standard&opt_magnate_courts=true&invite=bruno%40example.test"
        ),
    )
    .await;
    assert_eq!(made.status, 303, "{}", made.text);
    let location = made.header("location");
    let id = location.trim_start_matches("/play/").to_owned();
    let g = app.get(&format!("/api/v1/games/{id}"), Some(&ada)).await;
    assert_eq!(g.json["options"]["courts"], true);
    // Bruno accepts from the invitation link.
    let bcookie = signed_in(&app, &bruno, "bruno@example.test").await;
    let game = GameId(id.parse().unwrap());
    let token = app.links.invite_link(game, 1, "bruno@example.test", 600);
    let inv = page(&app, &format!("/invitations/{id}?t={token}"), &bcookie).await;
    assert_eq!(inv.status, 200, "{}", inv.text);
    let wrong = app.links.invite_link(game, 1, "eve@example.test", 600);
    let w = page(&app, &format!("/invitations/{id}?t={wrong}"), &bcookie).await;
    assert_eq!(w.status, 403);
    let bcsrf = inv
        .text
        .split("name=\"csrf\" value=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    let accepted = post_form(
        &app,
        &format!("/invitations/{id}"),
        &bcookie,
        &format!("csrf={bcsrf}"),
    )
    .await;
    assert_eq!(accepted.status, 303, "{}", accepted.text);
    let g = app.get(&format!("/api/v1/games/{id}"), Some(&bruno)).await;
    assert_eq!(g.json["status"], "active");
    let again = post_form(
        &app,
        &format!("/invitations/{id}"),
        &bcookie,
        &format!("csrf={bcsrf}"),
    )
    .await;
    assert_eq!(again.status, 409);
}

#[actix_web::test]
async fn the_page_speaks_the_account_language_and_serves_its_own_assets() {
    let app = spawn_app().await;
    let table = app.table().await;
    // Bruno prefers French.
    {
        use diesel::prelude::*;
        let mut conn = diesel::PgConnection::establish(&app.db_url).unwrap();
        diesel::update(herald::schema::users::table)
            .filter(herald::schema::users::email.eq("bruno@example.test"))
            .set(herald::schema::users::locale.eq("fr"))
            .execute(&mut conn)
            .unwrap();
    }
    let cookie = open_link(&app, &table, 1).await;
    let r = page(&app, &format!("/play/{}", table.id), &cookie).await;
    assert!(r.text.contains("<html lang=\"fr\""));
    assert!(r.text.contains("Votre main"));
    let css = page(&app, "/static/herald.css", "").await;
    assert_eq!(css.status, 200);
    assert!(css.header("content-type").starts_with("text/css"));
    let js = page(&app, "/static/herald.js", "").await;
    assert_eq!(js.status, 200);
}

#[actix_web::test]
async fn the_demo_makes_a_game_and_a_sign_in_link_per_seat_that_opens_it() {
    use diesel::Connection;
    let app = spawn_app().await;
    let mut conn = diesel::PgConnection::establish(&app.db_url).unwrap();
    let demo = herald::web::demo::create(&mut conn, &app.links).unwrap();
    assert_eq!(demo.seats.len(), 2);
    let again = herald::web::demo::create(&mut conn, &app.links).unwrap();
    assert_ne!(
        again.game, demo.game,
        "each run starts a new game with the same accounts"
    );
    for (_, link) in &demo.seats {
        assert_eq!(
            page(&app, link, "").await.status,
            200,
            "a page with one button"
        );
        let r = press_sign_in(&app, link).await;
        assert_eq!(r.status, 303, "{}", r.text);
        assert_eq!(r.header("location"), format!("/play/{}", demo.game));
        let cookie = r.header("set-cookie").split(';').next().unwrap().to_owned();
        let g = page(&app, &format!("/play/{}", demo.game), &cookie).await;
        assert_eq!(g.status, 200);
        assert!(g.text.contains("Your hand"));
    }
}

#[actix_web::test]
async fn the_notification_preference_is_set_from_the_settings_page() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let cookie = signed_in(&app, &ada, "ada@example.test").await;
    let form = page(&app, "/settings", &cookie).await;
    assert_eq!(form.status, 200);
    assert!(
        form.text.contains("value=\"instant\" checked"),
        "{}",
        form.text
    );
    let csrf = form
        .text
        .split("name=\"csrf\" value=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    let saved = post_form(&app, "/settings", &cookie, &format!("csrf={csrf}&mode=off")).await;
    assert_eq!(saved.status, 200, "{}", saved.text);
    assert!(saved.text.contains("value=\"off\" checked"));
    let api = app.get("/api/v1/me/notifications", Some(&ada)).await;
    assert_eq!(api.json["mode"], "off", "{}", api.text);
    let bad = post_form(
        &app,
        "/settings",
        &cookie,
        &format!("csrf={csrf}&mode=loud"),
    )
    .await;
    assert_eq!(bad.status, 422);
    let forged = post_form(&app, "/settings", &cookie, "csrf=x&mode=instant").await;
    assert_eq!(forged.status, 403);
    assert_eq!(page(&app, "/settings", "").await.status, 401);
}

/// The stored seed (hex) and the draw pile of a game, read from the database.
fn secrets(app: &TestApp, game: &str) -> (String, Vec<String>) {
    use diesel::prelude::*;
    use herald::schema::games;
    let mut conn = diesel::PgConnection::establish(&app.db_url).unwrap();
    let (seed, state): (Vec<u8>, Option<Value>) = games::table
        .find(uuid::Uuid::parse_str(game).unwrap())
        .select((games::seed, games::state))
        .first(&mut conn)
        .unwrap();
    let pile = state.unwrap()["draw_pile"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    (hex::encode(seed), pile)
}

fn own_preferences(view: &Value, seat: usize) -> usize {
    view["view"]["districts"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| d["columns"][seat].as_array().unwrap().clone())
        .filter(|p| p["prefer"].is_string())
        .count()
}

#[actix_web::test]
async fn no_page_shows_the_other_hand_the_draw_pile_the_seed_or_the_other_preferences() {
    let app = spawn_app().await;
    let table = app.table().await;
    let cookies = [
        open_link(&app, &table, 0).await,
        open_link(&app, &table, 1).await,
    ];
    let mut dice = crate::helpers::Dice::new(11);
    let mut preferences = 0;
    let mut preferences_by = [0usize; 2];
    for step in 0..80 {
        let views = [app.game(&table, 0).await, app.game(&table, 1).await];
        if views[0]["status"] != "active" {
            break;
        }
        let (seed, pile) = secrets(&app, &table.id);
        for seat in 0..2 {
            let other = 1 - seat;
            let r = page(&app, &format!("/play/{}", table.id), &cookies[seat]).await;
            assert_eq!(r.status, 200);
            // After the reshuffle the other may hold a card this seat saw sold (public,
            // MAG-INFO-1), which the page's history may name: only unseen cards must not show.
            let history = app
                .get(
                    &format!("/api/v1/games/{}/history", table.id),
                    Some(&table.tokens[seat]),
                )
                .await;
            let mut known = std::collections::BTreeSet::new();
            crate::helpers::strings(&history.json, &mut known);
            for c in hand(&views[other], other)
                .into_iter()
                .filter(|c| !known.contains(c))
            {
                assert!(
                    !shows_card(&r.text, &c),
                    "seat {seat} sees {c} in the other hand"
                );
            }
            for c in pile.iter().filter(|c| !known.contains(*c)) {
                assert!(
                    !shows_card(&r.text, c),
                    "seat {seat} sees {c} in the draw pile"
                );
            }
            assert!(!r.text.contains(&seed), "the seed is on the page");
            // On the board, each of the seat's own preferences and nothing of the other's; the
            // seat's own history may mention its own.
            let board = r.text.split("id=\"districts-h\"").nth(1).unwrap();
            let board = board.split("</section>").next().unwrap();
            assert_eq!(
                board.matches("income preference").count(),
                own_preferences(&views[seat], seat),
                "seat {seat} sees only its own deed preferences"
            );
            let others = own_preferences(&views[other], other);
            assert!(
                r.text.matches("income preference").count()
                    <= own_preferences(&views[seat], seat) + preferences_by[seat],
                "seat {seat} sees seat {other}'s {others} preferences"
            );
        }
        let (mover, g) = app.mover(&table).await;
        // Now and then the waiting player sets a preference out of turn, from its page.
        let other = 1 - mover;
        let deed = views[other]["view"]["districts"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|d| d["columns"][other].as_array().unwrap().clone())
            .find(|p| p["deed"] == true);
        if step % 2 == 0
            && let Some(deed) = deed
        {
            let r = page(&app, &format!("/play/{}", table.id), &cookies[other]).await;
            let action = form_action(&r.text, "prefer").expect("a prefer form");
            let card = deed["card"].as_str().unwrap();
            let suit = card.chars().last().unwrap();
            let posted = post_form(
                &app,
                &action,
                &cookies[other],
                &format!("card={card}&suit={suit}"),
            )
            .await;
            assert_eq!(posted.status, 303, "{}", posted.text);
            preferences += 1;
            preferences_by[other] += 1;
            continue;
        }
        let legal = g["legal_actions"].as_array().unwrap();
        let deeds: Vec<&Value> = legal.iter().filter(|a| a["type"] == "deed").collect();
        let pick = if !deeds.is_empty() && dice.below(2) == 0 {
            deeds[dice.below(deeds.len())].clone()
        } else {
            legal[dice.below(legal.len())].clone()
        };
        let r = app
            .submit(
                &table,
                mover,
                g["version"].as_i64().unwrap(),
                serde_json::json!([crate::helpers::without_notation(&pick)]),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    assert!(
        preferences > 0,
        "no preference was set: the test saw too little"
    );
}

#[actix_web::test]
async fn a_signed_in_account_without_a_seat_watches_without_hands_or_forms() {
    let app = spawn_app().await;
    let table = app.table().await;
    let eve = app.user("eve@example.test", "Eve").await;
    let cookie = signed_in(&app, &eve, "eve@example.test").await;
    let r = page(&app, &format!("/play/{}", table.id), &cookie).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.text.contains("You are watching this game."));
    assert!(!r.text.contains("data-action=\"sell\""));
    for seat in 0..2 {
        for c in hand(&app.game(&table, seat).await, seat) {
            assert!(!shows_card(&r.text, &c), "a spectator sees {c}");
        }
    }
    // A play link opens its own game only: its cookie is no session for another game.
    let link_cookie = open_link(&app, &table, 0).await;
    let b = app
        .post(
            "/api/v1/games",
            Some(&table.tokens[0]),
            serde_json::json!({"kind": "magnate", "invite": ["eve@example.test"]}),
        )
        .await;
    assert_eq!(b.status, 201, "{}", b.text);
    let other = page(
        &app,
        &format!("/play/{}", b.json["id"].as_str().unwrap()),
        &link_cookie,
    )
    .await;
    // There it is only watched, as by anyone: no seat, no form, a way to sign in.
    assert_eq!(other.status, 200, "{}", other.text);
    assert!(!other.text.contains("data-action="), "{}", other.text);
    assert!(other.text.contains("href=\"/sign-in?next=/play/"));
}

/// An invitation link that cannot seat its reader (mangled, expired, another game's, or another
/// address's) says why in the reader's language, as a play link does.
#[actix_web::test]
async fn a_refused_invitation_link_says_why_in_the_readers_language() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let bruno = app.user("bruno@example.test", "Bruno").await;
    let games = two_invitations(&app, &ada, "carla@example.test").await;
    let (id, game) = (&games[0], GameId(games[0].parse().unwrap()));
    let other = GameId(games[1].parse().unwrap());
    let token = app.links.invite_link(game, 1, "carla@example.test", 600);
    let visitor = |lang: &'static str| [("Accept", "text/html"), ("Accept-Language", lang)];
    for (link, said) in [
        (format!("{token}x"), "El enlace no es válido."),
        (
            app.links.invite_link(game, 1, "carla@example.test", -600),
            "El enlace ha caducado.",
        ),
        (
            app.links.invite_link(other, 1, "carla@example.test", 600),
            "El enlace es de otra partida.",
        ),
    ] {
        let path = format!("/invitations/{id}?t={link}");
        let r = app
            .send(Method::GET, &path, None, &visitor("es"), None)
            .await;
        assert_eq!(r.status, 403, "{said}: {}", r.text);
        assert!(r.text.contains(said), "{said}: {}", r.text);
    }
    // Carla's link opened by Bruno, signed in and reading French.
    app.set_locale(&bruno, "fr").await;
    let cookie = signed_in(&app, &bruno, "bruno@example.test").await;
    let r = page(&app, &format!("/invitations/{id}?t={token}"), &cookie).await;
    assert_eq!(r.status, 403, "{}", r.text);
    assert!(r.text.contains("Le lien n'est pas valide."), "{}", r.text);
    // Carla's link used to join as another address.
    let mut headers = visitor("it").to_vec();
    headers.push(FORM);
    let r = app
        .send(
            Method::POST,
            &format!("/invitations/{id}/new"),
            None,
            &headers,
            Some(format!("t={token}&name=Eve&email=eve%40example.test").into_bytes()),
        )
        .await;
    assert_eq!(r.status, 403, "{}", r.text);
    assert!(r.text.contains("Il link non è valido."), "{}", r.text);
}

#[actix_web::test]
async fn an_invited_address_without_an_account_joins_from_the_invitation_page() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let g = app
        .post(
            "/api/v1/games",
            Some(&ada),
            serde_json::json!({"kind": "magnate", "invite": ["carla@example.test"]}),
        )
        .await;
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.json["id"].as_str().unwrap().to_owned();
    let game = GameId(id.parse().unwrap());
    let token = app.links.invite_link(game, 1, "carla@example.test", 600);
    let inv = page(&app, &format!("/invitations/{id}?t={token}"), "").await;
    assert_eq!(inv.status, 200, "{}", inv.text);
    let action = form_action(&inv.text, "join").unwrap();
    // Another address than the invited one is refused, keeping what was typed.
    let wrong = post_form(
        &app,
        &action,
        "",
        &format!("t={token}&name=Eve&email=eve%40example.test"),
    )
    .await;
    assert_eq!(wrong.status, 403);
    assert!(wrong.text.contains("value=\"Eve\""));
    let empty = post_form(&app, &action, "", &format!("t={token}&name=&email=")).await;
    assert_eq!(empty.status, 422);
    let joined = post_form(
        &app,
        &action,
        "",
        &format!("t={token}&name=Carla&email=carla%40example.test"),
    )
    .await;
    assert_eq!(joined.status, 303, "{}", joined.text);
    assert_eq!(joined.header("location"), format!("/play/{id}"));
    let cookie = joined
        .header("set-cookie")
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let r = page(&app, &format!("/play/{id}"), &cookie).await;
    assert_eq!(r.status, 200);
    assert!(r.text.contains("Your hand"));
    let again = post_form(
        &app,
        &action,
        "",
        &format!("t={token}&name=Carla&email=carla%40example.test"),
    )
    .await;
    assert_eq!(again.status, 409, "the address has an account now");
}

#[actix_web::test]
async fn visitors_without_an_account_are_answered_in_their_browser_language() {
    let app = spawn_app().await;
    let r = app
        .send(
            Method::GET,
            "/sign-in",
            None,
            &[("Accept-Language", "it-IT,it;q=0.9,en;q=0.5")],
            None,
        )
        .await;
    assert_eq!(r.status, 200);
    assert!(r.text.contains("<html lang=\"it\""), "{}", r.text);
    assert!(r.text.contains("Inviami un link di accesso"));
    let refused = app
        .send(
            Method::GET,
            &format!("/play/{}?t=nonsense", uuid::Uuid::new_v4()),
            None,
            &[("Accept-Language", "es")],
            None,
        )
        .await;
    assert_eq!(refused.status, 403);
    assert!(refused.text.contains("El enlace no es válido."));
    let default = page(&app, "/sign-in", "").await;
    assert!(default.text.contains("<html lang=\"en\""));
}

#[actix_web::test]
async fn a_finished_game_shows_the_winner_to_its_players_and_to_anyone() {
    let app = spawn_app().await;
    let table = app.table().await;
    let cookie = open_link(&app, &table, 1).await;
    let r = app.resign(&table, 0).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let mine = page(&app, &format!("/play/{}", table.id), &cookie).await;
    assert_eq!(mine.status, 200);
    assert!(mine.text.contains("The game is over."));
    assert!(mine.text.contains("Winner: Bruno"), "{}", mine.text);
    assert!(!mine.text.contains("<form"), "no action after the end");
    let anyone = page(&app, &format!("/play/{}", table.id), "").await;
    assert_eq!(anyone.status, 200);
    assert!(anyone.text.contains("You are watching this game."));
    assert!(anyone.text.contains("resigned"));
}

/// The text of a page's refusal next to its form (`role="alert"`), empty when there is none.
pub fn alert_of(text: &str) -> &str {
    text.split("role=\"alert\"")
        .nth(1)
        .and_then(|rest| rest.split("</p>").next())
        .unwrap_or("")
}

pub fn csrf_of(text: &str) -> String {
    text.split("name=\"csrf\" value=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned()
}

#[actix_web::test]
async fn the_pages_show_deadlines_in_the_readers_zone_and_set_reminders_zone_and_vacation() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let bruno = app.user("bruno@example.test", "Bruno").await;
    let cookie = signed_in(&app, &ada, "ada@example.test").await;
    let form = page(&app, "/settings", &cookie).await;
    assert!(
        form.text.contains("value=\"24, 2\""),
        "default reminders: {}",
        form.text
    );
    assert!(form.text.contains("Days available: 7"), "{}", form.text);
    let csrf = csrf_of(&form.text);

    let bad = post_form(
        &app,
        "/settings",
        &cookie,
        &format!("csrf={csrf}&mode=instant&reminders=24&time_zone=Mars%2FOlympus"),
    )
    .await;
    assert_eq!(bad.status, 422);
    assert!(
        alert_of(&bad.text).contains("The field “Time zone (IANA name"),
        "{}",
        bad.text
    );
    // Every wrong field is named at once, by its label, never repeating what was typed.
    let worse = post_form(
        &app,
        "/settings",
        &cookie,
        &format!("csrf={csrf}&mode=loud&reminders=1%2C2%2C3%2C4%2C5%2C6&time_zone=Mars%2FOlympus"),
    )
    .await;
    assert_eq!(worse.status, 422);
    let alert = alert_of(&worse.text);
    for named in [
        "The field “Mail about my turns” has a value this form does not take; it takes one of the choices the form offers.",
        "The field “Reminders before a deadline (hours, comma-separated; empty for none)” has a value this form does not take; it takes numbers of hours above 0 and up to 720, separated by commas, at most 5 of them.",
        "The field “Time zone (IANA name, e.g. Europe/Madrid)”",
    ] {
        assert!(alert.contains(named), "{named}: {alert}");
    }
    for typed in ["loud", "Mars", "Olympus", "6"] {
        assert!(!alert.contains(typed), "{typed}: {alert}");
    }
    // The form shows what was typed, to mend.
    for typed in ["value=\"1,2,3,4,5,6\"", "value=\"Mars/Olympus\""] {
        assert!(worse.text.contains(typed), "{typed}: {}", worse.text);
    }
    let unchanged = app.get("/api/v1/me/notifications", Some(&ada)).await;
    assert_eq!(
        unchanged.json["reminders_seconds"],
        serde_json::json!([86400, 7200]),
        "nothing changed"
    );

    let saved = post_form(
        &app,
        "/settings",
        &cookie,
        &format!("csrf={csrf}&mode=instant&reminders=24%2C+0.5&time_zone=Europe%2FMadrid"),
    )
    .await;
    assert_eq!(saved.status, 200, "{}", saved.text);
    let api = app.get("/api/v1/me/notifications", Some(&ada)).await;
    assert_eq!(
        api.json["reminders_seconds"],
        serde_json::json!([86400, 1800])
    );
    let me = app.get("/api/v1/me", Some(&ada)).await;
    assert_eq!(me.json["time_zone"], "Europe/Madrid");
    // A number of hours above 0, however small, is taken as the field says (a second at least).
    let tiny = post_form(
        &app,
        "/settings",
        &cookie,
        &format!("csrf={csrf}&mode=instant&reminders=24%2C+0.0001&time_zone=Europe%2FMadrid"),
    )
    .await;
    assert_eq!(tiny.status, 200, "{}", alert_of(&tiny.text));
    let api = app.get("/api/v1/me/notifications", Some(&ada)).await;
    assert_eq!(api.json["reminders_seconds"], serde_json::json!([86400, 1]));

    // A game waiting for Ada: the page and the list give her deadline in Madrid time.
    let g = app
        .post(
            "/api/v1/games",
            Some(&ada),
            serde_json::json!({"kind": "magnate", "options": {"start_player": "first_seat"},
                   "invite": ["bruno@example.test"], "clock": {"type": "per_move", "seconds": 7200}}),
        )
        .await;
    let id = g.json["id"].as_str().unwrap().to_owned();
    app.post(
        &format!("/api/v1/games/{id}/join"),
        Some(&bruno),
        serde_json::json!({}),
    )
    .await;
    let game = page(&app, &format!("/play/{id}"), &cookie).await;
    assert!(game.text.contains("2 hours per move"), "{}", game.text);
    assert!(
        game.text.contains(" CET (") || game.text.contains(" CEST ("),
        "the deadline in Madrid time: {}",
        game.text
    );
    let list = page(&app, "/games", &cookie).await;
    assert!(list.text.contains("hour"), "{}", list.text);

    // Vacation from the page: away, then back.
    let away = post_form(
        &app,
        "/settings/vacation",
        &cookie,
        &format!("csrf={csrf}&do=start"),
    )
    .await;
    assert_eq!(away.status, 200, "{}", away.text);
    assert!(away.text.contains("On vacation since"), "{}", away.text);
    let v = app.get("/api/v1/me/vacation", Some(&ada)).await;
    assert!(v.json["on_vacation_since"].is_string());
    let back = post_form(
        &app,
        "/settings/vacation",
        &cookie,
        &format!("csrf={csrf}&do=end&auto=on"),
    )
    .await;
    assert_eq!(back.status, 200, "{}", back.text);
    let v = app.get("/api/v1/me/vacation", Some(&ada)).await;
    assert_eq!(v.json["on_vacation_since"], Value::Null);
    assert_eq!(v.json["auto"], true);
    let forged = post_form(&app, "/settings/vacation", &cookie, "csrf=x&do=start").await;
    assert_eq!(forged.status, 403);
}

/// A vacation the account cannot take (away already, no day left) is refused on the settings
/// page in the reader's language, never in the service's English, and changes nothing: not even
/// the automatic box sent with it.
#[actix_web::test]
async fn a_refused_vacation_says_why_in_the_readers_language_and_changes_nothing() {
    use diesel::{Connection, RunQueryDsl};
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    app.set_locale(&ada, "it").await;
    let cookie = signed_in(&app, &ada, "ada@example.test").await;
    let csrf = csrf_of(&page(&app, "/settings", &cookie).await.text);
    let vacation = |body: &str| {
        let (app, cookie, body) = (&app, cookie.clone(), format!("csrf={csrf}&{body}"));
        async move { post_form(app, "/settings/vacation", &cookie, &body).await }
    };
    let unchanged = |away: bool| {
        let app = &app;
        let ada = ada.clone();
        async move {
            let v = app.get("/api/v1/me/vacation", Some(&ada)).await;
            assert_eq!(v.json["on_vacation_since"].is_string(), away, "{}", v.text);
            assert_eq!(v.json["auto"], false, "the box stays as it was: {}", v.text);
        }
    };
    let english = ["already on vacation", "no vacation day left", "accrues"];

    let away = vacation("do=start").await;
    assert_eq!(away.status, 200, "{}", away.text);
    // Pressed again from a page read before going away.
    let again = vacation("do=start&auto=on").await;
    assert_eq!(again.status, 409, "{}", again.text);
    let alert = alert_of(&again.text);
    assert!(
        alert.contains("Sei già in vacanza. Non è cambiato nulla."),
        "{}",
        again.text
    );
    for word in english {
        assert!(!again.text.contains(word), "{word}: {}", again.text);
    }
    unchanged(true).await;

    let back = vacation("do=end").await;
    assert_eq!(back.status, 200, "{}", back.text);
    // The bank spent: no day left to go away with.
    let mut conn = diesel::PgConnection::establish(&app.db_url).unwrap();
    diesel::sql_query(
        "UPDATE users SET vacation_bank_seconds = 0, vacation_bank_at = now() \
         WHERE email = 'ada@example.test'",
    )
    .execute(&mut conn)
    .unwrap();
    let spent = vacation("do=start&auto=on").await;
    assert_eq!(spent.status, 409, "{}", spent.text);
    let alert = alert_of(&spent.text);
    assert!(
        alert.contains(
            "Non ti resta nessun giorno di vacanza: se ne aggiunge uno ogni 7 giorni di iscrizione. Non è cambiato nulla."
        ),
        "{}",
        spent.text
    );
    for word in english {
        assert!(!spent.text.contains(word), "{word}: {}", spent.text);
    }
    unchanged(false).await;
}

/// A game without a board of its own on the web (Lancaster, today) still plays from its page:
/// each legal action is a button posting its notation, refused notation is answered next to the
/// buttons, and the page is titled by its game.
#[actix_web::test]
async fn the_lancaster_page_shows_the_board_and_only_the_seats_own_decisions_and_supplies() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let bruno = app.user("bruno@example.test", "Bruno").await;
    let carla = app.user("carla@example.test", "Carla").await;
    let eve = app.user("eve@example.test", "Eve").await;
    let g = app
        .post(
            "/api/v1/games",
            Some(&ada),
            serde_json::json!({"kind": "lancaster", "invite": ["bruno@example.test", "carla@example.test"]}),
        )
        .await;
    let id = g.json["id"].as_str().unwrap().to_owned();
    for t in [&bruno, &carla] {
        let joined = app
            .post(
                &format!("/api/v1/games/{id}/join"),
                Some(t),
                serde_json::json!({}),
            )
            .await;
        assert_eq!(joined.status, 200, "{}", joined.text);
    }
    let seats = [
        (&ada, "ada@example.test"),
        (&bruno, "bruno@example.test"),
        (&carla, "carla@example.test"),
    ];
    let mut mover = None;
    for (token, email) in seats {
        let game = app.get(&format!("/api/v1/games/{id}"), Some(token)).await;
        if !game.json["legal_actions"].as_array().unwrap().is_empty() && mover.is_none() {
            mover = Some((token.clone(), email, game.json));
        }
    }
    let (token, email, before) = mover.expect("someone acts first");
    let cookie = signed_in(&app, &token, email).await;
    let r = page(&app, &format!("/play/{id}"), &cookie).await;
    assert_eq!(r.status, 200);
    assert!(
        r.text
            .contains("<title>Your move · Lancaster: Ada – Bruno – Carla"),
        "{}",
        &r.text[..400]
    );
    assert!(
        !r.text.contains("<symbol id=\"i-M\""),
        "Magnate's suit icons stay on Magnate's pages"
    );
    assert!(
        r.text.contains("href=\"/rules/lancaster\""),
        "the page links its rules"
    );
    for county in before["view"]["counties"].as_array().unwrap() {
        // The page names a county as players read it: "County A" for the data's placeholder
        // "County A (placeholder)", "Gloucester" for D.
        let name = county["name"].as_str().unwrap();
        let shown = name.split(" (").next().unwrap();
        assert!(r.text.contains(shown), "the board names {county}");
    }
    // The viewer's own supplies, which their view holds.
    let me = before["you"]["seat"].as_u64().unwrap();
    let mine = before["view"]["factions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["seat"].as_u64() == Some(me) && f["ally"] != true)
        .unwrap();
    assert!(
        r.text.contains(&format!(
            "Gold: {} · Squires: {}",
            mine["gold"], mine["squires"]
        )),
        "own supplies"
    );
    // A form per kind of listed decision, offering exactly the listed actions.
    let first = &before["legal_actions"][0];
    let kind = first["type"].as_str().unwrap();
    let notation = first["notation"].as_str().unwrap();
    let url = form_action(&r.text, kind).expect("a form for the first listed kind");
    for a in before["legal_actions"].as_array().unwrap() {
        assert!(r.text.contains(&format!(
            "<option value=\"{}\"",
            a["notation"].as_str().unwrap()
        )));
    }
    let bad = post_form(&app, &url, &cookie, "notation=nonsense").await;
    assert_eq!(bad.status, 422, "{}", bad.text);
    assert!(
        bad.text.contains(&format!("id=\"problem-{kind}\"")),
        "the refusal is next to its form"
    );
    let ok = post_form(
        &app,
        &url,
        &cookie,
        &format!("notation={}", urlencode(notation)),
    )
    .await;
    assert_eq!(ok.status, 303, "{}", ok.text);
    let after = app.get(&format!("/api/v1/games/{id}"), Some(&token)).await;
    assert_eq!(
        after.json["version"],
        before["version"].as_i64().unwrap() + 1
    );

    // A spectator (another account) sees the board, no forms, and nobody's gold or squires
    // (three players keep them behind screens).
    let spectator = signed_in(&app, &eve, "eve@example.test").await;
    let s = page(&app, &format!("/play/{id}"), &spectator).await;
    assert_eq!(s.status, 200);
    assert!(s.text.contains("Gloucester"), "the board, county D");
    assert!(!s.text.contains("data-action=\"place\""));
    assert!(!s.text.contains("<select"), "no forms for a spectator");
    assert!(
        !s.text.contains("Gold: "),
        "no hidden gold shown to a spectator"
    );
    // Someone not signed in watches the same board with the same nothing hidden shown, and a
    // Spanish reader reads the counties in Spanish.
    let headers = [("Accept", "text/html"), ("Accept-Language", "es")];
    let anon = app
        .send(Method::GET, &format!("/play/{id}"), None, &headers, None)
        .await
        .text;
    assert!(
        anon.contains("Gloucester") && anon.contains("Condado A"),
        "{anon}"
    );
    assert!(!anon.contains("<select") && !anon.contains("data-action=\"place\""));
    assert!(
        !anon.contains("Oro: "),
        "no hidden gold shown to an anonymous watcher"
    );
}

pub fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The invitation page offers to decline as well as to accept; the creator's page of a waiting
/// game offers to cancel it, and both forms do what they say.
#[actix_web::test]
async fn an_invitation_is_declined_and_a_waiting_game_cancelled_from_their_pages() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let bruno = app.user("bruno@example.test", "Bruno").await;
    let ids = two_invitations(&app, &ada, "bruno@example.test").await;
    let bcookie = signed_in(&app, &bruno, "bruno@example.test").await;
    let game = GameId(ids[0].parse().unwrap());
    let token = app.links.invite_link(game, 1, "bruno@example.test", 600);
    let inv = page(
        &app,
        &format!("/invitations/{}?t={token}", ids[0]),
        &bcookie,
    )
    .await;
    assert!(form_action(&inv.text, "accept").is_some());
    let decline = form_action(&inv.text, "decline").expect("a decline form");
    let forged = post_form(&app, &decline, &bcookie, "csrf=nope").await;
    assert_eq!(forged.status, 403);
    let declined = post_form(
        &app,
        &decline,
        &bcookie,
        &format!("csrf={}", csrf_of(&inv.text)),
    )
    .await;
    assert_eq!(declined.status, 303, "{}", declined.text);
    let g = app
        .get(&format!("/api/v1/games/{}", ids[0]), Some(&ada))
        .await;
    assert_eq!(g.json["seats"][1]["invited"], serde_json::json!(null));
    // Ada cancels the other game from its page; Bruno's page of it has no such form.
    let acookie = signed_in(&app, &ada, "ada@example.test").await;
    let mine = page(&app, &format!("/play/{}", ids[1]), &acookie).await;
    let cancel = form_action(&mine.text, "cancel").expect("a cancel form");
    assert!(
        form_action(
            &page(&app, &format!("/play/{}", ids[1]), &bcookie)
                .await
                .text,
            "cancel"
        )
        .is_none()
    );
    let cancelled = post_form(
        &app,
        &cancel,
        &acookie,
        &format!("csrf={}", csrf_of(&mine.text)),
    )
    .await;
    assert_eq!(cancelled.status, 303, "{}", cancelled.text);
    let g = app
        .get(&format!("/api/v1/games/{}", ids[1]), Some(&ada))
        .await;
    assert_eq!(g.json["status"], "aborted");
}

/// The lobby page lists an open table with a button that seats the player.
#[actix_web::test]
async fn the_lobby_page_seats_a_player_at_an_open_table() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let bruno = app.user("bruno@example.test", "Bruno").await;
    let g = app
        .post(
            "/api/v1/games",
            Some(&ada),
            serde_json::json!({"kind": "magnate", "open_seats": 1}),
        )
        .await;
    let id = g.json["id"].as_str().unwrap().to_owned();
    let cookie = signed_in(&app, &bruno, "bruno@example.test").await;
    let lobby = page(&app, "/lobby", &cookie).await;
    assert_eq!(lobby.status, 200);
    assert!(lobby.text.contains(&id), "the open game is listed");
    let join = form_action(&lobby.text, "join").unwrap();
    let seated = post_form(
        &app,
        &join,
        &cookie,
        &format!("csrf={}", csrf_of(&lobby.text)),
    )
    .await;
    assert_eq!(seated.status, 303, "{}", seated.text);
    let after = app.get(&format!("/api/v1/games/{id}"), Some(&bruno)).await;
    assert_eq!(after.json["status"], "active");
    assert_eq!(page(&app, "/lobby", "").await.status, 401);
}

/// A registered invitee's mail link opens the game page with accept and decline forms, and the
/// accept form seats them and starts the game, from the link's own session.
#[actix_web::test]
async fn a_registered_invitee_accepts_from_the_page_their_mail_link_opens() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let bruno = app.user("bruno@example.test", "Bruno").await;
    let g = app
        .post(
            "/api/v1/games",
            Some(&ada),
            serde_json::json!({"kind": "magnate", "invite": ["bruno@example.test"]}),
        )
        .await;
    let id = g.json["id"].as_str().unwrap().to_owned();
    let grant = PlayGrant {
        user: user_id(&app, &bruno).await,
        game: GameId(id.parse().unwrap()),
        seat: 1,
    };
    let token = app.links.play_link(grant, 600);
    let landing = page(&app, &format!("/play/{id}?t={token}"), "").await;
    let cookie = landing.header("set-cookie");
    let cookie = cookie.split(';').next().unwrap().to_owned();
    let r = page(&app, &format!("/play/{id}"), &cookie).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(form_action(&r.text, "decline").is_some());
    let accept = form_action(&r.text, "accept").expect("an accept form");
    // The play link's cookie is scoped to the game's pages: the form must post there.
    assert!(
        landing
            .header("set-cookie")
            .contains(&format!("Path=/play/{id}")),
        "{}",
        landing.header("set-cookie")
    );
    assert!(accept.starts_with(&format!("/play/{id}/")), "{accept}");
    let accepted = post_form(
        &app,
        &accept,
        &cookie,
        &format!("csrf={}", csrf_of(&r.text)),
    )
    .await;
    assert_eq!(accepted.status, 303, "{}", accepted.text);
    let after = app.get(&format!("/api/v1/games/{id}"), Some(&bruno)).await;
    assert_eq!(after.json["status"], "active");
}

#[actix_web::test]
async fn the_new_game_form_makes_a_game_of_any_kind_with_seats_open_seats_guests_by_name_and_a_clock()
 {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let zeph = app.user("zephyrine@example.test", "Zephyrine Quill").await;
    let cookie = signed_in(&app, &ada, "ada@example.test").await;
    let form = page(&app, "/games/new?kind=lancaster", &cookie).await;
    assert_eq!(form.status, 200);
    for needed in [
        "<option value=\"lancaster\" selected",
        "name=\"seats\"",
        "name=\"open_seats\"",
        "name=\"invite\"",
        "name=\"clock\"",
        "name=\"preset_lancaster\"",
        "name=\"preset_magnate\"",
        "href=\"/games/new?kind=magnate\"",
    ] {
        assert!(form.text.contains(needed), "{needed}");
    }
    let csrf = csrf_of(&form.text);
    let post = |body: String| {
        let (app, cookie) = (&app, cookie.clone());
        async move { post_form(app, "/games/new", &cookie, &body).await }
    };
    // Seats and open seats that disagree, a name nobody has: refused, nothing made.
    let disagree = post(format!(
        "csrf={csrf}&kind=lancaster&seats=4&open_seats=1&invite=Zephyrine+Quill"
    ))
    .await;
    assert_eq!(disagree.status, 422, "{}", disagree.text);
    assert!(
        alert_of(&disagree.text).contains("The field “open to anyone” has a value this form does not take; it takes the seats left once you and the invited players are seated, or nothing."),
        "{}",
        disagree.text
    );
    let nobody = post(format!(
        "csrf={csrf}&kind=lancaster&seats=3&invite=Nobody+Here"
    ))
    .await;
    assert_eq!(nobody.status, 422);
    let alert = alert_of(&nobody.text);
    assert!(
        alert.contains("The field “Invite (addresses or players' names, separated by commas)” has a value this form does not take; it takes email addresses, or display names each of which belongs to exactly one player here"),
        "{alert}"
    );
    // The form keeps what was typed, to mend; the sentence does not repeat it.
    assert!(!alert.contains("Nobody"), "{alert}");
    assert!(
        nobody.text.contains("value=\"Nobody Here\""),
        "{}",
        nobody.text
    );
    assert_eq!(
        app.get("/api/v1/games", Some(&ada)).await.json,
        serde_json::json!([])
    );

    let made = post(format!(
        "csrf={csrf}&kind=lancaster&seats=3&open_seats=&invite=zephyrine+quill&clock=fischer_7d_1d_14d&preset_magnate=standard&opt_lancaster_extension_draw=random"
    ))
    .await;
    assert_eq!(made.status, 303, "{}", made.text);
    let id = made
        .header("location")
        .trim_start_matches("/play/")
        .to_owned();
    let g = app.get(&format!("/api/v1/games/{id}"), Some(&ada)).await;
    assert_eq!(g.json["kind"], "lancaster");
    assert_eq!(g.json["seats"].as_array().unwrap().len(), 3);
    assert_eq!(
        g.json["seats"][1]["invited"],
        serde_json::json!({"display_name": "Zephyrine Quill"})
    );
    assert_eq!(g.json["seats"][2]["open"], true);
    assert_eq!(g.json["clock"]["type"], "fischer");
    assert_eq!(g.json["clock"]["increment_seconds"], 86400);
    assert_eq!(g.json["options"]["extension_draw"], "random");
    let joined = app
        .post(
            &format!("/api/v1/games/{id}/join"),
            Some(&zeph),
            serde_json::json!({}),
        )
        .await;
    assert_eq!(joined.status, 200, "{}", joined.text);
}

/// Every `<option value>` of the forms with `data-action="<kind>"`, with the form's address.
fn form_options(page: &str, kind: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = page;
    while let Some(at) = rest.find(&format!("data-action=\"{kind}\"")) {
        let start = rest[..at].rfind("<form").unwrap();
        let end = at + rest[at..].find("</form>").unwrap();
        let form = &rest[start..end];
        let action = form_action(form, kind).unwrap();
        for part in form.split("<option value=\"").skip(1) {
            let value = unescape(&part[..part.find('"').unwrap()]);
            out.push((action.clone(), value));
        }
        rest = &rest[end..];
    }
    out
}

#[actix_web::test]
async fn every_choice_of_every_magnate_form_is_a_listed_action_the_server_accepts() {
    let app = spawn_app().await;
    let table = app.table().await;
    let cookies = [
        open_link(&app, &table, 0).await,
        open_link(&app, &table, 1).await,
    ];
    let mut dice = crate::helpers::Dice::new(17);
    let (mut pages, mut choices, mut kinds) = (0, 0, BTreeSet::new());
    // Thirty pages at least, and on until a build was offered (some deals take a while).
    while pages < 30 || (!kinds.contains("build") && pages < 120) {
        let (mover, g) = app.mover(&table).await;
        if g["status"] != "active" {
            break;
        }
        let version = g["version"].as_i64().unwrap();
        let listed: BTreeSet<String> = g["legal_actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["notation"].as_str().unwrap().to_owned())
            .collect();
        let r = page(&app, &format!("/play/{}", table.id), &cookies[mover]).await;
        assert_eq!(r.status, 200);
        pages += 1;
        let mut offered = Vec::new();
        for kind in ["build", "deed", "develop", "trade"] {
            for (action, notation) in form_options(&r.text, kind) {
                assert!(
                    listed.contains(&notation),
                    "{kind} offers {notation}, not listed: {listed:?}"
                );
                let check = app
                    .post(
                        &format!("/api/v1/games/{}/actions/check", table.id),
                        Some(&table.tokens[mover]),
                        serde_json::json!({"expected_version": version, "actions": [{"notation": notation}]}),
                    )
                    .await;
                assert_eq!(check.status, 200, "{notation}: {}", check.text);
                kinds.insert(kind);
                offered.push((action, notation));
            }
        }
        choices += offered.len();
        // Every listed build, deed, develop and trade is among the choices.
        for n in &listed {
            let kind = ["B:", "D:", "A:", "T:"].iter().any(|p| n.starts_with(p));
            assert!(
                !kind || offered.iter().any(|(_, o)| o == n),
                "{n} is listed but not offered"
            );
        }
        // Play on from the page: a random choice when there is one, else sell and end.
        if offered.is_empty() {
            let sell = g["legal_actions"]
                .as_array()
                .unwrap()
                .iter()
                .find(|a| a["type"] == "sell")
                .cloned();
            let actions = match sell {
                Some(s) => serde_json::json!([s, {"type": "end"}]),
                None => serde_json::json!([{"type": "end"}]),
            };
            let r = app.submit(&table, mover, version, actions).await;
            assert_eq!(r.status, 200, "{}", r.text);
            continue;
        }
        let (action, notation) = &offered[dice.below(offered.len())];
        let body = format!("notation={}", urlencode(notation));
        let posted = post_form(&app, action, &cookies[mover], &body).await;
        assert_eq!(posted.status, 303, "{notation}: {}", posted.text);
        let after = app.game(&table, mover).await;
        assert!(
            after["version"].as_i64().unwrap() > version,
            "{notation} was played"
        );
        if after["legal_actions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["type"] == "end")
        {
            let r = app
                .submit(
                    &table,
                    mover,
                    after["version"].as_i64().unwrap(),
                    serde_json::json!([{"type": "end"}]),
                )
                .await;
            assert_eq!(r.status, 200, "{}", r.text);
        }
    }
    assert!(
        pages >= 10 && choices > 20,
        "{pages} pages, {choices} choices"
    );
    assert!(kinds.contains("build"), "{kinds:?}");
}

#[actix_web::test]
async fn the_archive_lists_finished_games_for_anyone_by_game_and_by_player() {
    let app = spawn_app().await;
    let table = app.table().await;
    let cyd = app.user("cyd@example.test", "Cyd").await;
    let listed = |path: String| {
        let app = &app;
        async move { page(app, &path, "").await }
    };
    assert!(
        !listed("/archive".to_owned()).await.text.contains(&table.id),
        "not before it ends"
    );
    let resigned = app.resign(&table, 0).await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    let ada = user_id(&app, &table.tokens[0]).await;
    let all = listed("/archive".to_owned()).await;
    assert_eq!(all.status, 200);
    assert!(all.text.contains(&format!("href=\"/play/{}\"", table.id)));
    assert!(
        all.text.contains("Bruno</a> (Winner)"),
        "the winner is named"
    );
    assert!(
        listed("/archive?kind=magnate".to_owned())
            .await
            .text
            .contains(&table.id)
    );
    assert!(
        !listed("/archive?kind=lancaster".to_owned())
            .await
            .text
            .contains(&table.id)
    );
    assert!(
        listed(format!("/archive?player={}", ada.0))
            .await
            .text
            .contains(&table.id)
    );
    let cyd_id = user_id(&app, &cyd).await;
    assert!(
        !listed(format!("/archive?player={}", cyd_id.0))
            .await
            .text
            .contains(&table.id)
    );
    for bad in [
        "/archive?kind=chess",
        "/archive?player=nobody",
        "/archive?page=0",
    ] {
        assert_eq!(listed(bad.to_owned()).await.status, 400, "{bad}");
    }
    // The page it links to is readable without signing in.
    let g = listed(format!("/play/{}", table.id)).await;
    assert_eq!(g.status, 200);
    assert!(!g.text.contains("data-action=\"build\""));
}

/// A page asked with a method it does not answer gets 405 with `Allow`, as a page; a page is
/// read with `HEAD` too; a form posted as something else than a form gets 415 as a page saying
/// so. The API keeps its problems.
#[actix_web::test]
async fn pages_answer_wrong_methods_and_media_types_as_pages() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let cookie = signed_in(&app, &ada, "ada@example.test").await;
    let html = [("Accept", "text/html"), ("Cookie", cookie.as_str())];
    for (method, path, allow) in [
        (Method::PUT, "/settings", "GET, HEAD, POST"),
        (Method::DELETE, "/games/new", "GET, HEAD, POST"),
        (Method::GET, "/sign-out", "POST"),
        (Method::GET, "/settings/vacation", "POST"),
        (Method::PATCH, "/rules/magnate", "GET, HEAD"),
    ] {
        let r = app.send(method.clone(), path, None, &html, None).await;
        assert_eq!(r.status, 405, "{method} {path}: {}", r.text);
        assert_eq!(r.header("allow"), allow, "{method} {path}");
        assert!(
            r.header("content-type").starts_with("text/html"),
            "{method} {path}"
        );
        let said = format!("does not answer {method}; it answers {allow}.");
        assert!(r.text.contains(&said), "{method} {path}: {}", r.text);
    }
    // In the reader's language.
    let es = app
        .send(
            Method::GET,
            "/sign-out",
            None,
            &[("Accept", "text/html"), ("Accept-Language", "es")],
            None,
        )
        .await;
    assert!(es.text.contains("no responde a GET"), "{}", es.text);
    // HEAD reads a page's headers, without its body.
    for path in ["/games", "/lobby", "/rules/magnate", "/settings"] {
        let r = app.send(Method::HEAD, path, None, &html, None).await;
        assert_eq!(r.status, 200, "HEAD {path}");
        assert!(r.text.is_empty(), "HEAD {path}: {}", r.text);
    }
    // A form sent as JSON, signed in or not: 415, and nothing changes.
    let csrf = csrf_of(&page(&app, "/settings", &cookie).await.text);
    let body = format!(r#"{{"csrf": "{csrf}", "mode": "off"}}"#).into_bytes();
    for (path, body) in [
        ("/settings", body),
        ("/sign-up", br#"{"email": "x@example.test"}"#.to_vec()),
    ] {
        let r = app
            .send(
                Method::POST,
                path,
                None,
                &[
                    ("Accept", "text/html"),
                    ("Cookie", cookie.as_str()),
                    ("Content-Type", "application/json"),
                ],
                Some(body),
            )
            .await;
        assert_eq!(r.status, 415, "{path}: {}", r.text);
        assert!(r.header("content-type").starts_with("text/html"), "{path}");
        assert!(
            r.text
                .contains("a form is sent as application/x-www-form-urlencoded"),
            "{path}: {}",
            r.text
        );
    }
    let mode = app.get("/api/v1/me/notifications", Some(&ada)).await;
    assert_eq!(mode.json["mode"], "instant", "{}", mode.text);
    // The API's wrong methods and unknown pages stay problems.
    let api = app
        .send(Method::DELETE, "/api/v1/game-kinds", None, &[], None)
        .await;
    assert_eq!(api.status, 405);
    assert_eq!(api.json["code"], "method_not_allowed", "{}", api.text);
    let nowhere = app
        .send(Method::GET, "/no-such-page", None, &html, None)
        .await;
    assert_eq!(nowhere.status, 404, "{}", nowhere.text);
}

/// An address a page cannot read (an id that is not one, a link's parameter given twice) is
/// answered as a page in the reader's language, like the pages' other refusals, not as the
/// API's problem, and without repeating the address.
#[actix_web::test]
async fn pages_answer_unreadable_addresses_as_pages_in_the_readers_language() {
    let app = spawn_app().await;
    let table = app.table().await;
    for path in [
        "/play/zzz",
        "/players/zzz",
        "/invitations/zzz",
        "/play/zzz?t=a&t=b",
    ] {
        let r = app
            .send(
                Method::GET,
                path,
                None,
                &[("Accept", "text/html"), ("Accept-Language", "fr")],
                None,
            )
            .await;
        assert_eq!(r.status, 404, "{path}: {}", r.text);
        assert!(r.header("content-type").starts_with("text/html"), "{path}");
        assert!(r.text.contains("Introuvable"), "{path}: {}", r.text);
        assert!(
            r.text.contains("vérifiez le lien que vous avez suivi"),
            "{path}: {}",
            r.text
        );
        assert!(!r.text.contains("zzz"), "{path}: {}", r.text);
    }
    for path in [
        format!("/play/{}?t=a&t=b", table.id),
        "/archive?page=1&page=2".to_owned(),
    ] {
        let r = app
            .send(
                Method::GET,
                &path,
                None,
                &[("Accept", "text/html"), ("Accept-Language", "es")],
                None,
            )
            .await;
        assert_eq!(r.status, 400, "{path}: {}", r.text);
        assert!(r.header("content-type").starts_with("text/html"), "{path}");
        assert!(
            r.text.contains("No se pudo leer esta dirección"),
            "{path}: {}",
            r.text
        );
        assert!(!r.text.contains("duplicate"), "{path}: {}", r.text);
    }
}

/// A page's address that gives a parameter twice (`?page=1&page=2`) is refused as a form's field
/// given twice is: 400 (not the 422 of a refused move), as a page in the reader's language naming
/// the parameter, whatever page it is, without guessing which value was meant.
#[actix_web::test]
async fn a_page_address_giving_a_parameter_twice_is_a_400_page_naming_it() {
    let app = spawn_app().await;
    let table = app.table().await;
    let ada = signed_in(&app, &table.tokens[0], "ada@example.test").await;
    let cases = [
        (
            "/archive?page=1&page=2".to_owned(),
            "es",
            "da el parámetro «page» más de una vez",
        ),
        (
            "/sign-in?next=/games&next=/lobby".to_owned(),
            "it",
            "dà il parametro «next» più di una volta",
        ),
        (
            "/lobby?kind=magnate&kind=lancaster".to_owned(),
            "fr",
            "donne le paramètre « kind » plus",
        ),
        (
            "/competitions?status=running&status=finished".to_owned(),
            "en",
            "it gives the parameter “status” more than once",
        ),
        (
            format!("/play/{}?t=a&t=b", table.id),
            "en",
            "it gives the parameter “t” more than once",
        ),
    ];
    for (path, lang, said) in cases {
        // Said in the reader's language: a visitor's browser's, a signed-in reader's account's
        // (whatever the browser asks), as the page's own refusals are.
        // (The lobby is for signed-in readers: a visitor is asked to sign in first.)
        let visitor = (!path.starts_with("/lobby")).then_some(None);
        for cookie in visitor.into_iter().chain([Some(ada.as_str())]) {
            let r = refused_in(&app, &table.tokens[0], &path, lang, cookie).await;
            assert_eq!(r.status, 400, "{path}: {}", r.text);
            assert!(r.header("content-type").starts_with("text/html"), "{path}");
            assert!(r.text.contains(said), "{path} {cookie:?}: {}", r.text);
        }
    }
}

/// `path` asked in `lang`: by a visitor whose browser reads it, or, with `cookie`, by the
/// signed-in account of `token`, whose account reads it and whose browser asks for another.
async fn refused_in(
    app: &TestApp,
    token: &str,
    path: &str,
    lang: &str,
    cookie: Option<&str>,
) -> Reply {
    let mut headers = vec![("Accept", "text/html")];
    match cookie {
        None => headers.push(("Accept-Language", lang)),
        Some(cookie) => {
            app.set_locale(token, lang).await;
            let other = if lang == "en" { "fr" } else { "en" };
            headers.extend([("Accept-Language", other), ("Cookie", cookie)]);
        }
    }
    app.send(Method::GET, path, None, &headers, None).await
}

/// What a link or a page's own GET form may send is read, not refused: a field left empty (sent
/// as `name=`) is absent where the page reads a number, and names the page does not read are
/// ignored, even given twice.
#[actix_web::test]
async fn a_page_address_with_empty_or_foreign_parameters_is_served() {
    let app = spawn_app().await;
    let table = app.table().await;
    let ada = signed_in(&app, &table.tokens[0], "ada@example.test").await;
    for path in [
        "/archive?kind=&player=&page=",
        "/archive?page=1&utm_source=a&utm_source=b",
        "/lobby?kind=&seats=&utm_source=mail",
        "/lobby?ref=x&ref=y",
        "/competitions?status=&ref=x&ref=y",
    ] {
        let headers = [("Accept", "text/html"), ("Cookie", ada.as_str())];
        let r = app.send(Method::GET, path, None, &headers, None).await;
        assert_eq!(r.status, 200, "{path}: {}", r.text);
    }
}

/// A page's query parameter whose value reads but that the page does not take (more seats than a
/// game has, page 0, a status there is none of) is refused as one it cannot read is: 400, a page
/// in the reader's language (a signed-in reader's account's) naming the parameter and what it
/// takes, never repeating the value; the API keeps its problem.
#[actix_web::test]
async fn a_page_address_whose_parameter_is_not_taken_is_a_400_page_naming_what_it_takes() {
    let app = spawn_app().await;
    let table = app.table().await;
    app.set_locale(&table.tokens[0], "es").await;
    let ada = signed_in(&app, &table.tokens[0], "ada@example.test").await;
    // (path, Accept-Language of a visitor or "" for Ada, what the page says, the value given)
    let cases = [
        (
            "/lobby?seats=9917",
            "",
            "su parámetro «seats» tiene un valor que esta página no admite; admite un número entero de 1 a 16",
            "9917",
        ),
        (
            "/lobby?kind=magnate&limit=7919",
            "",
            "su parámetro «limit» tiene un valor que esta página no admite; admite un número entero de 1 a 200",
            "7919",
        ),
        (
            "/lobby?kind=zq9x",
            "",
            "su parámetro «kind» tiene un valor que esta página no admite; admite uno de estos valores: magnate, lancaster",
            "zq9x",
        ),
        (
            "/archive?page=90210",
            "fr",
            "son paramètre « page » a une valeur que cette page n'accepte pas ; elle accepte un nombre entier de 1 à 10000",
            "90210",
        ),
        (
            "/archive?kind=zq9x",
            "it",
            "il suo parametro «kind» ha un valore che questa pagina non accetta; accetta uno di questi valori: magnate, lancaster",
            "zq9x",
        ),
        (
            "/archive?player=zq9x",
            "es",
            "su parámetro «player» tiene un valor que esta página no admite; admite el identificador de un jugador",
            "zq9x",
        ),
        (
            "/competitions?status=zq9x",
            "it",
            "il suo parametro «status» ha un valore che questa pagina non accetta; accetta uno di questi valori: registering, running, paused, finished",
            "zq9x",
        ),
    ];
    for (path, lang, said, value) in cases {
        let mut headers = vec![("Accept", "text/html")];
        if lang.is_empty() {
            headers.push(("Cookie", ada.as_str()));
        } else {
            headers.push(("Accept-Language", lang));
        }
        let r = app.send(Method::GET, path, None, &headers, None).await;
        assert_eq!(r.status, 400, "{path}: {}", r.text);
        assert!(r.header("content-type").starts_with("text/html"), "{path}");
        assert!(r.text.contains(said), "{path}: {}", r.text);
        assert!(!r.text.contains(value), "{path}: {}", r.text);
    }
    // The API's lobby answers the same queries with its problem, as api.md has it.
    for (query, detail) in [
        ("seats=9917", "seats: from 1 to 16"),
        ("limit=7919", "limit: from 1 to 200"),
    ] {
        let r = app
            .get(&format!("/api/v1/lobby?{query}"), Some(&table.tokens[0]))
            .await;
        r.assert_problem(422, "validation_failed");
        assert_eq!(r.json["detail"], detail, "{query}");
    }
    let r = app
        .get("/api/v1/lobby?kind=zq9x", Some(&table.tokens[0]))
        .await;
    r.assert_problem(422, "validation_failed");
    let detail = r.json["detail"].as_str().unwrap_or("");
    assert!(
        detail.starts_with("kind: “zq9x” is not one of magnate, lancaster"),
        "{detail}"
    );
}

/// A page's query parameter whose value the page cannot read (a word where it takes a number) is
/// refused with 400 and a page in the reader's language naming the parameter, never repeating
/// the value nor serde's words.
#[actix_web::test]
async fn a_page_address_whose_parameter_cannot_be_read_is_a_400_page_naming_it() {
    let app = spawn_app().await;
    let table = app.table().await;
    let ada = signed_in(&app, &table.tokens[0], "ada@example.test").await;
    let cases = [
        (
            "/lobby?seats=abc",
            "es",
            "su parámetro «seats» tiene un valor que esta página no puede leer",
        ),
        (
            "/lobby?kind=magnate&limit=xyz",
            "en",
            "its parameter “limit” has a value this page cannot read",
        ),
        (
            "/archive?kind=magnate&page=abc",
            "fr",
            "son paramètre « page » a une valeur que cette page ne sait pas lire",
        ),
        (
            "/archive?page=99999999999",
            "it",
            "il suo parametro «page» ha un valore che questa pagina non sa leggere",
        ),
    ];
    for (path, lang, said) in cases {
        let visitor = (!path.starts_with("/lobby")).then_some(None);
        for cookie in visitor.into_iter().chain([Some(ada.as_str())]) {
            let r = refused_in(&app, &table.tokens[0], path, lang, cookie).await;
            assert_eq!(r.status, 400, "{path}: {}", r.text);
            assert!(r.header("content-type").starts_with("text/html"), "{path}");
            assert!(r.text.contains(said), "{path} {cookie:?}: {}", r.text);
            for word in ["abc", "xyz", "99999999999", "invalid digit", "too large"] {
                assert!(!r.text.contains(word), "{path}: {}", r.text);
            }
        }
    }
}

/// A form field a page does not take is refused next to its form in the reader's language (a
/// signed-in reader's account's, whatever the browser asks), naming the field by its label and
/// what it takes, never repeating what was typed (the form keeps it, to mend); an address that
/// names nothing, and a rate limit, are said in that language too. Nothing is made.
#[actix_web::test]
async fn form_refusals_name_the_field_in_the_readers_language_never_what_was_typed() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    app.set_locale(&ada, "es").await;
    let cookie = signed_in(&app, &ada, "ada@example.test").await;
    let csrf = csrf_of(&page(&app, "/games/new", &cookie).await.text);
    let field = |label: &str, accepts: &str| {
        format!("El campo «{label}» tiene un valor que este formulario no admite; admite {accepts}")
    };
    let invite = "Invitar (direcciones o nombres de jugadores, separados por comas)";
    let comp_invite = "Invitar (direcciones)";
    // (page, form, status, what the page says, what was typed, whether the form keeps it)
    let cases = [
        (
            "/games/new",
            "kind=magnate&invite=Zq9x+Nadie",
            422,
            field(
                invite,
                "direcciones de correo, o nombres visibles que pertenezcan cada uno a un solo jugador de aquí (si no, invítalos por dirección)",
            ),
            "Zq9x",
            true,
        ),
        (
            "/games/new",
            "kind=magnate&invite=zq9x%40example.test%2C+zq9x%40example.test",
            422,
            field(
                invite,
                "direcciones de correo o nombres visibles de otros jugadores, no tú, separados por comas, cada jugador una vez",
            ),
            "zq9x",
            true,
        ),
        (
            "/games/new",
            "kind=magnate&invite=ada%40example.test",
            422,
            field(
                invite,
                "direcciones de correo o nombres visibles de otros jugadores, no tú",
            ),
            "ada@",
            true,
        ),
        (
            "/games/new",
            "kind=lancaster&seats=9",
            422,
            field("Asientos", "un número entero de 2 a 5"),
            "zq9x",
            false,
        ),
        (
            "/games/new",
            "kind=magnate&preset_magnate=zq9x",
            422,
            field("Variante", "uno de estos valores: standard, "),
            "zq9x",
            false,
        ),
        (
            "/games/new",
            "kind=magnate&opt_magnate_courts=zq9x",
            422,
            field("courts", "una de las opciones que ofrece el formulario"),
            "zq9x",
            false,
        ),
        (
            "/competitions/new",
            "name=Copa&kind=magnate&rounds=zq9x",
            422,
            field("Rondas (suizo, mesas)", "un número entero"),
            "zq9x",
            true,
        ),
        (
            "/competitions/new",
            "name=Copa&kind=magnate&invite=zq9x%40example.test%0Azq9x%40example.test",
            422,
            field(
                comp_invite,
                "direcciones de correo, separadas por comas o líneas, cada una una vez",
            ),
            "zq9x",
            true,
        ),
        (
            "/competitions/new",
            "name=Copa&kind=magnate&tie_breaks=wins%2Czq9x",
            422,
            field(
                "Desempates, en orden",
                "una lista separada por comas, cada uno una vez, de sonneborn_berger, buchholz",
            ),
            "zq9x",
            true,
        ),
        (
            "/competitions/new",
            "name=Copa&kind=magnate&clock=zq9x",
            422,
            field("Reloj", "uno de los relojes que ofrece el formulario"),
            "zq9x",
            false,
        ),
        (
            "/settings",
            "mode=instant&reminders=zq9x",
            422,
            field(
                "Recordatorios antes de un plazo (horas, separadas por comas; vacío para ninguno)",
                "números de horas mayores que 0 y hasta 720, separados por comas, como mucho 5",
            ),
            "zq9x",
            true,
        ),
        (
            "/settings/vacation",
            "do=zq9x",
            422,
            field("Vacaciones", "una de las opciones que ofrece el formulario"),
            "zq9x",
            false,
        ),
    ];
    for (path, form, status, said, typed, kept) in cases {
        let headers = [
            FORM,
            ("Cookie", cookie.as_str()),
            ("Accept", "text/html"),
            ("Accept-Language", "en"),
        ];
        let body = format!("csrf={csrf}&{form}").into_bytes();
        let r = app
            .send(Method::POST, path, None, &headers, Some(body))
            .await;
        assert_eq!(r.status, status, "{path} {form}: {}", r.text);
        let alert = alert_of(&r.text);
        assert!(alert.contains(&said), "{path} {form}: {alert}");
        assert!(!alert.contains(typed), "{path} {form}: {alert}");
        // The form keeps what was typed in its field, to mend; nothing else repeats it.
        assert_eq!(r.text.contains(typed), kept, "{path} {form}: {}", r.text);
    }
    assert_eq!(
        app.get("/api/v1/games", Some(&ada)).await.json,
        serde_json::json!([])
    );
    let comps = app.get("/api/v1/competitions", Some(&ada)).await;
    assert_eq!(comps.status, 200, "{}", comps.text);
    assert!(!comps.text.contains("Copa"), "{}", comps.text);
    let settings = app.get("/api/v1/me/notifications", Some(&ada)).await;
    assert_eq!(
        settings.json["reminders_seconds"],
        serde_json::json!([86400, 7200])
    );
    let vacation = page(&app, "/settings", &cookie).await;
    assert!(
        vacation.text.contains("value=\"start\""),
        "{}",
        vacation.text
    );

    // A competition that is not there: the not-found sentence, not the address.
    let unknown = "0b1e9c3a-5f7d-4e2b-9a6c-1d2e3f4a5b6c";
    for path in [
        format!("/competitions/{unknown}"),
        "/competitions/zq9x".to_owned(),
    ] {
        let r = page(&app, &path, &cookie).await;
        assert_eq!(r.status, 404, "{path}: {}", r.text);
        assert!(
            r.text.contains("No hay nada en esta dirección"),
            "{path}: {}",
            r.text
        );
        assert!(
            !r.text.contains("zq9x") && !r.text.contains(unknown),
            "{path}: {}",
            r.text
        );
    }

    // Mailed sign-in links are limited: the wait is said in the visitor's language.
    let headers = [FORM, ("Accept", "text/html"), ("Accept-Language", "it")];
    let mut limited = None;
    for _ in 0..30 {
        let body = b"email=zq9x%40example.test".to_vec();
        let r = app
            .send(Method::POST, "/sign-in", None, &headers, Some(body))
            .await;
        if r.status == 429 {
            limited = Some(r);
            break;
        }
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let limited = limited.expect("the sign-in form is limited");
    assert!(
        limited.text.contains("Troppe richieste: riprova tra"),
        "{}",
        limited.text
    );
    assert!(
        !limited.text.contains("too many requests"),
        "{}",
        limited.text
    );
}

/// What the create forms take but their service would still refuse (one player invited by
/// address and by name, switches that do not go together or with the seats, a format the game or
/// the format itself does not allow) is named by the form's field in the reader's language:
/// never the service's English, never an invited player's account id, and nothing is made.
#[actix_web::test]
async fn the_create_forms_name_the_field_the_service_would_refuse_never_its_english_or_an_id() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let bruno = app.user("bruno@example.test", "Bruno Vale").await;
    let bruno_id = user_id(&app, &bruno).await.0.to_string();
    app.set_locale(&ada, "fr").await;
    let cookie = signed_in(&app, &ada, "ada@example.test").await;
    let csrf = csrf_of(&page(&app, "/games/new", &cookie).await.text);
    let field = |label: &str, accepts: &str| {
        format!(
            "Le champ « {label} » a une valeur que ce formulaire n'accepte pas ; il accepte {accepts}"
        )
    };
    let switch =
        "un choix compatible avec les autres options de la partie et avec son nombre de joueurs";
    // (page, form, what the page says, the service's English that it must not)
    let cases = [
        (
            "/games/new",
            "kind=lancaster&invite=bruno%40example.test%2C+Bruno+Vale",
            field(
                "Inviter (adresses ou noms de joueurs, séparés par des virgules)",
                "des adresses e-mail ou des noms affichés d'autres joueurs que vous, séparés par des virgules, chaque joueur une fois",
            ),
            vec!["invited twice", "player "],
        ),
        (
            "/games/new",
            "kind=lancaster&invite=Bruno+Vale%0Abruno%40example.test",
            field(
                "Inviter (adresses ou noms de joueurs, séparés par des virgules)",
                "des adresses e-mail ou des noms affichés d'autres joueurs que vous, séparés par des virgules, chaque joueur une fois",
            ),
            vec!["invited twice", "player "],
        ),
        (
            "/games/new",
            "kind=magnate&invite=bruno%40example.test&opt_magnate_start_player=random&opt_magnate_start_seat=1",
            field("start_seat", switch),
            vec!["only used", "start_seat:", "options:"],
        ),
        (
            "/games/new",
            "kind=merchants_and_marauders&invite=bruno%40example.test&opt_merchants_and_marauders_solo_level=hard",
            field("solo_level", switch),
            vec!["one-player", "leave it out", "options:"],
        ),
        // A game played by one number of players says that number, not a range of it.
        (
            "/games/new",
            "kind=magnate&seats=3&invite=bruno%40example.test",
            field("Places", "exactement 2."),
            vec!["2 à 2", "seats"],
        ),
        (
            "/competitions/new",
            "name=Coupe&kind=magnate&format=swiss&rounds=500",
            field("Rondes (suisse, tables)", "un nombre entier de 1 à 100"),
            vec!["a Swiss", "500", "format:"],
        ),
        (
            "/competitions/new",
            "name=Coupe&kind=magnate&format=league&division_size=3",
            field("Taille de division (ligue)", "un nombre entier de 5 à 1000"),
            vec!["promoting", "relegating", "format:"],
        ),
        (
            "/competitions/new",
            "name=Coupe&kind=magnate&format=tables",
            field(
                "Format",
                "un format dans lequel se joue le jeu choisi : tables pour un jeu à trois joueurs ou plus",
            ),
            vec!["is for", "tables of", "format:"],
        ),
        (
            "/competitions/new",
            "name=Coupe&kind=lancaster&format=tables&table_sizes=3%2C6",
            field(
                "Tailles des tables (tables)",
                "des tailles de table de 3 à 5 joueurs, en nombres entiers séparés par des virgules",
            ),
            vec!["between 3 and 5", "seats", "format:"],
        ),
    ];
    for (path, form, said, english) in cases {
        let r = post_form(&app, path, &cookie, &format!("csrf={csrf}&{form}")).await;
        assert_eq!(r.status, 422, "{path} {form}: {}", r.text);
        let alert = alert_of(&r.text);
        assert!(alert.contains(&said), "{path} {form}: {alert}");
        for word in english {
            assert!(!alert.contains(word), "{path} {form}: {word}: {alert}");
        }
        assert!(!r.text.contains(&bruno_id), "{path} {form}: {}", r.text);
    }
    assert_eq!(
        app.get("/api/v1/games", Some(&ada)).await.json,
        serde_json::json!([])
    );
    let comps = app.get("/api/v1/competitions", Some(&ada)).await;
    assert_eq!(comps.status, 200, "{}", comps.text);
    assert!(!comps.text.contains("Coupe"), "{}", comps.text);
}

/// A chat message the game page refuses says why in the page's words, next to the chat form,
/// without repeating the message.
#[actix_web::test]
async fn a_refused_chat_message_is_named_by_its_field_and_not_repeated() {
    let app = spawn_app().await;
    let table = app.table().await;
    let cookie = open_link(&app, &table, 0).await;
    let r = page(&app, &format!("/play/{}", table.id), &cookie).await;
    let csrf = csrf_of(&r.text);
    let long = "zq9x".repeat(126);
    let refused = post_form(
        &app,
        &format!("/play/{}/chat", table.id),
        &cookie,
        &format!("csrf={csrf}&text={long}"),
    )
    .await;
    assert_eq!(refused.status, 422, "{}", refused.text);
    assert!(
        refused.text.contains(
            "The field “Message” has a value this form does not take; it takes one line of 1 to 500 characters."
        ),
        "{}",
        refused.text
    );
    assert!(!refused.text.contains("zq9x"), "the message is repeated");
}

/// What the games service refuses from an invitation's or a waiting game's buttons (accept,
/// decline, cancel, and joining as a new player) is said in the reader's language (a signed-in
/// reader's account's), naming why, never the service's English.
#[actix_web::test]
async fn a_refused_seat_button_says_why_in_the_readers_language_never_the_services_english() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let bruno = app.user("bruno@example.test", "Bruno").await;
    let cyd = app.user("cyd@example.test", "Cyd").await;
    app.set_locale(&bruno, "fr").await;
    app.set_locale(&cyd, "es").await;
    let ids = two_invitations(&app, &ada, "bruno@example.test").await;
    let bcookie = signed_in(&app, &bruno, "bruno@example.test").await;
    let ccookie = signed_in(&app, &cyd, "cyd@example.test").await;
    let csrf = |cookie: String| {
        let app = &app;
        async move { csrf_of(&page(app, "/settings", &cookie).await.text) }
    };
    let (bcsrf, ccsrf) = (csrf(bcookie.clone()).await, csrf(ccookie.clone()).await);
    let check = |r: &Reply, status: u16, said: &str, english: &[&str]| {
        assert_eq!(r.status, status, "{said}: {}", r.text);
        assert!(r.text.contains(said), "{said}: {}", r.text);
        for word in english {
            assert!(!r.text.contains(word), "{word}: {}", r.text);
        }
    };
    let (first, second) = (&ids[0], &ids[1]);

    // Bruno may not cancel Ada's game, and has no invitation of Cyd's to decline.
    let r = post_form(
        &app,
        &format!("/games/{first}/cancel"),
        &bcookie,
        &format!("csrf={bcsrf}"),
    )
    .await;
    check(
        &r,
        403,
        "Seul le créateur de la partie peut l'annuler. Rien n'a été modifié.",
        &["only the game's creator"],
    );
    let r = post_form(
        &app,
        &format!("/invitations/{first}/decline"),
        &ccookie,
        &format!("csrf={ccsrf}"),
    )
    .await;
    check(
        &r,
        403,
        "No tienes ninguna invitación a esta partida que rechazar. No se cambió nada.",
        &["no invitation", "to decline"],
    );
    // Bruno takes his seat in the second game, which starts; pressing again, and Cyd pressing.
    let accept = format!("/invitations/{second}");
    let r = post_form(&app, &accept, &bcookie, &format!("csrf={bcsrf}")).await;
    assert_eq!(r.status, 303, "{}", r.text);
    let r = post_form(&app, &accept, &bcookie, &format!("csrf={bcsrf}")).await;
    check(
        &r,
        409,
        "Vous avez déjà une place dans cette partie. Rien n'a été modifié.",
        &["you already have seat"],
    );
    let r = post_form(&app, &accept, &ccookie, &format!("csrf={ccsrf}")).await;
    check(
        &r,
        409,
        "La partida ya ha empezado. No se cambió nada.",
        &["already started", "every seat is taken"],
    );
    // Ada cancels the first game; Bruno's invitation then opens nothing.
    let cancelled = app
        .post(
            &format!("/api/v1/games/{first}/cancel"),
            Some(&ada),
            serde_json::json!({}),
        )
        .await;
    assert_eq!(cancelled.status, 200, "{}", cancelled.text);
    let r = post_form(
        &app,
        &format!("/invitations/{first}"),
        &bcookie,
        &format!("csrf={bcsrf}"),
    )
    .await;
    check(
        &r,
        409,
        "La partie a été annulée avant de commencer. Rien n'a été modifié.",
        &["was cancelled", "nobody can join"],
    );

    // An invited address without an account, in its browser's language: not "address taken".
    let g = app
        .post(
            "/api/v1/games",
            Some(&ada),
            serde_json::json!({"kind": "magnate", "invite": ["dora@example.test"]}),
        )
        .await;
    let id = g.json["id"].as_str().unwrap().to_owned();
    let token = app
        .links
        .invite_link(GameId(id.parse().unwrap()), 1, "dora@example.test", 600);
    let cancelled = app
        .post(
            &format!("/api/v1/games/{id}/cancel"),
            Some(&ada),
            serde_json::json!({}),
        )
        .await;
    assert_eq!(cancelled.status, 200, "{}", cancelled.text);
    let r = app
        .send(
            Method::POST,
            &format!("/invitations/{id}/new"),
            None,
            &[FORM, ("Accept", "text/html"), ("Accept-Language", "it")],
            Some(format!("t={token}&name=Dora&email=dora%40example.test").into_bytes()),
        )
        .await;
    check(
        &r,
        409,
        "La partita è stata annullata prima di iniziare. Non è cambiato nulla.",
        &["was cancelled", "nobody can join"],
    );
    assert!(!r.text.contains("ha già un account"), "{}", r.text);
    use diesel::{Connection, RunQueryDsl};
    let mut conn = diesel::PgConnection::establish(&app.db_url).unwrap();
    let made = diesel::sql_query("SELECT id FROM users WHERE email = 'dora@example.test'")
        .execute(&mut conn)
        .unwrap();
    assert_eq!(made, 0, "no account was made");
}

/// A refusal of the games service that the page has no words of its own for (a move posted to a
/// game that has not started) is said by its kind in the reader's language, never in the
/// service's English.
#[actix_web::test]
async fn a_refusal_without_words_of_its_own_is_said_by_its_kind_in_the_readers_language() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    app.set_locale(&ada, "it").await;
    let ids = two_invitations(&app, &ada, "bruno@example.test").await;
    let cookie = signed_in(&app, &ada, "ada@example.test").await;
    let at = format!("/play/{}", ids[0]);
    let shown = page(&app, &at, &cookie).await;
    assert_eq!(shown.status, 200, "{}", shown.text);
    let version = app
        .get(&format!("/api/v1/games/{}", ids[0]), Some(&ada))
        .await
        .json["version"]
        .clone();
    let csrf = csrf_of(&shown.text);
    let r = post_form(
        &app,
        &format!("{at}/end"),
        &cookie,
        &format!("csrf={csrf}&v={version}"),
    )
    .await;
    assert_eq!(r.status, 409, "{}", alert_of(&r.text));
    assert!(
        r.text.contains(
            "Non si può fare nello stato attuale della partita o della competizione. Non è cambiato nulla."
        ),
        "{}",
        r.text
    );
    for word in ["has not started", "waiting for", "seats"] {
        assert!(!r.text.contains(word), "{word}: {}", r.text);
    }
}

/// Ada's Magnate game inviting Bruno, whose account speaks `locale`, and Bruno signed in.
struct Invited {
    app: TestApp,
    ada: String,
    id: String,
    cookie: String,
    csrf: String,
}

impl Invited {
    async fn new(locale: &str) -> Invited {
        let app = spawn_app().await;
        let ada = app.user("ada@example.test", "Ada").await;
        let bruno = app.user("bruno@example.test", "Bruno").await;
        app.set_locale(&bruno, locale).await;
        let g = app
            .post(
                "/api/v1/games",
                Some(&ada),
                serde_json::json!({"kind": "magnate", "invite": ["bruno@example.test"]}),
            )
            .await;
        assert_eq!(g.status, 201, "{}", g.text);
        let id = g.json["id"].as_str().unwrap().to_owned();
        let cookie = signed_in(&app, &bruno, "bruno@example.test").await;
        let csrf = csrf_of(&page(&app, "/settings", &cookie).await.text);
        Invited {
            app,
            ada,
            id,
            cookie,
            csrf,
        }
    }

    /// Bruno presses the button whose form posts to `path`.
    async fn press(&self, path: &str) -> Reply {
        let body = format!("csrf={}", self.csrf);
        post_form(&self.app, path, &self.cookie, &body).await
    }

    /// Ada withdraws Bruno's invitation (seat 1).
    async fn withdraw(&self) {
        let path = format!("/api/v1/games/{}/invitations/1", self.id);
        let r = self
            .app
            .call(Method::DELETE, &path, Some(&self.ada), None)
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }

    /// The game as its creator reads it: its status, version and seats.
    async fn game(&self) -> Value {
        let g = self
            .app
            .get(&format!("/api/v1/games/{}", self.id), Some(&self.ada))
            .await;
        assert_eq!(g.status, 200, "{}", g.text);
        serde_json::json!([g.json["status"], g.json["version"], g.json["seats"]])
    }
}

/// A refused seat's button: its status and the sentence saying why, never the API's English.
fn refused_saying(r: &Reply, status: u16, said: &str, english: &str) {
    assert_eq!(r.status, status, "{said}: {}", r.text);
    assert!(r.text.contains(said), "{said}: {}", r.text);
    assert!(!r.text.contains(english), "{english}: {}", r.text);
}

/// Accepting an invitation one declined says so, not "no seat is open to you" among other guesses.
#[actix_web::test]
async fn accepting_an_invitation_one_declined_says_it_was_declined() {
    let bruno = Invited::new("es").await;
    let declined = bruno
        .press(&format!("/invitations/{}/decline", bruno.id))
        .await;
    assert_eq!(declined.status, 303, "{}", declined.text);
    let before = bruno.game().await;
    let r = bruno.press(&format!("/invitations/{}", bruno.id)).await;
    refused_saying(
        &r,
        403,
        "Rechazaste la invitación a esta partida, así que ya no puedes unirte a ella. No se cambió nada.",
        "you declined its invitation",
    );
    assert_eq!(bruno.game().await, before, "nothing changed");
}

/// Declining an invitation twice (two tabs, the mail's link and the page) says it was declined
/// already, not that there was never an invitation.
#[actix_web::test]
async fn declining_an_invitation_twice_says_it_was_declined_already() {
    let bruno = Invited::new("fr").await;
    let decline = format!("/invitations/{}/decline", bruno.id);
    assert_eq!(bruno.press(&decline).await.status, 303);
    let before = bruno.game().await;
    let r = bruno.press(&decline).await;
    refused_saying(
        &r,
        403,
        "Vous avez déjà refusé l'invitation à cette partie. Rien n'a été modifié.",
        "no invitation to this game",
    );
    assert_eq!(bruno.game().await, before, "nothing changed");
}

/// Accepting an invitation its creator withdrew says who withdrew it.
#[actix_web::test]
async fn accepting_a_withdrawn_invitation_says_the_creator_withdrew_it() {
    let bruno = Invited::new("it").await;
    bruno.withdraw().await;
    let before = bruno.game().await;
    // From the game's page as from the invitation's.
    for path in [
        format!("/invitations/{}", bruno.id),
        format!("/play/{}/accept", bruno.id),
    ] {
        let r = bruno.press(&path).await;
        refused_saying(
            &r,
            403,
            "Chi ha creato la partita ha ritirato il tuo invito. Non è cambiato nulla.",
            "your invitation was withdrawn",
        );
    }
    assert_eq!(bruno.game().await, before, "nothing changed");
}

/// Declining an invitation its creator withdrew says so, not that there was never one.
#[actix_web::test]
async fn declining_a_withdrawn_invitation_says_the_creator_withdrew_it() {
    let bruno = Invited::new("es").await;
    bruno.withdraw().await;
    let before = bruno.game().await;
    let r = bruno
        .press(&format!("/invitations/{}/decline", bruno.id))
        .await;
    refused_saying(
        &r,
        403,
        "Quien creó la partida retiró tu invitación. No se cambió nada.",
        "no invitation to this game",
    );
    assert_eq!(bruno.game().await, before, "nothing changed");
}

/// The mail's invitation link, opened after the invitation is gone, says what became of it:
/// declined, withdrawn by the creator, or the game cancelled (one guess for all three before).
#[actix_web::test]
async fn an_invitation_link_says_whether_it_was_declined_withdrawn_or_cancelled() {
    for (gone, said) in [
        ("decline", "You declined this game's invitation"),
        ("withdraw", "The game's creator withdrew your invitation"),
        ("cancel", "The game was cancelled before it started"),
    ] {
        let bruno = Invited::new("en").await;
        let game = GameId(bruno.id.parse().unwrap());
        let link = bruno
            .app
            .links
            .invite_link(game, 1, "bruno@example.test", 600);
        let path = format!("/invitations/{}?t={link}", bruno.id);
        assert_eq!(page(&bruno.app, &path, "").await.status, 200, "{gone}");
        match gone {
            "decline" => {
                let r = bruno
                    .press(&format!("/invitations/{}/decline", bruno.id))
                    .await;
                assert_eq!(r.status, 303, "{}", r.text);
            }
            "withdraw" => bruno.withdraw().await,
            _ => {
                let r = bruno
                    .app
                    .post(
                        &format!("/api/v1/games/{}/cancel", bruno.id),
                        Some(&bruno.ada),
                        serde_json::json!({}),
                    )
                    .await;
                assert_eq!(r.status, 200, "{}", r.text);
            }
        }
        let r = page(&bruno.app, &path, "").await;
        assert_eq!(r.status, 403, "{gone}: {}", r.text);
        assert!(r.text.contains(said), "{gone}: {}", r.text);
        assert!(
            !r.text.contains("withdrawn or declined"),
            "{gone}: {}",
            r.text
        );
    }
}

/// A stranger at a table whose every seat is taken or promised is told that no seat is open.
#[actix_web::test]
async fn accepting_at_a_table_without_an_open_seat_says_no_seat_is_open() {
    let table = Invited::new("en").await;
    let cyd = table.app.user("cyd@example.test", "Cyd").await;
    table.app.set_locale(&cyd, "fr").await;
    let cookie = signed_in(&table.app, &cyd, "cyd@example.test").await;
    let csrf = csrf_of(&page(&table.app, "/settings", &cookie).await.text);
    let before = table.game().await;
    let r = post_form(
        &table.app,
        &format!("/play/{}/accept", table.id),
        &cookie,
        &format!("csrf={csrf}"),
    )
    .await;
    refused_saying(
        &r,
        403,
        "Vous n'êtes pas invité à cette partie et aucune place n'est libre. Rien n'a été modifié.",
        "no seat is open",
    );
    assert_eq!(table.game().await, before, "nothing changed");
}

/// An invited address without an account whose invitation was withdrawn before it joined is told
/// so in its browser's language, and no account is made.
#[actix_web::test]
async fn a_new_player_whose_invitation_was_withdrawn_is_told_so() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let g = app
        .post(
            "/api/v1/games",
            Some(&ada),
            serde_json::json!({"kind": "magnate", "invite": ["dora@example.test"]}),
        )
        .await;
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.json["id"].as_str().unwrap().to_owned();
    let token = app
        .links
        .invite_link(GameId(id.parse().unwrap()), 1, "dora@example.test", 600);
    let path = format!("/api/v1/games/{id}/invitations/1");
    let withdrawn = app.call(Method::DELETE, &path, Some(&ada), None).await;
    assert_eq!(withdrawn.status, 200, "{}", withdrawn.text);
    let r = app
        .send(
            Method::POST,
            &format!("/invitations/{id}/new"),
            None,
            &[FORM, ("Accept", "text/html"), ("Accept-Language", "it")],
            Some(format!("t={token}&name=Dora&email=dora%40example.test").into_bytes()),
        )
        .await;
    refused_saying(
        &r,
        403,
        "Chi ha creato la partita ha ritirato il tuo invito. Non è cambiato nulla.",
        "your invitation was withdrawn",
    );
    let after = app.get(&format!("/api/v1/games/{id}"), Some(&ada)).await;
    assert_eq!(
        after.json["version"], withdrawn.json["version"],
        "nothing changed"
    );
    use diesel::{Connection, RunQueryDsl};
    let mut conn = diesel::PgConnection::establish(&app.db_url).unwrap();
    let made = diesel::sql_query("SELECT id FROM users WHERE email = 'dora@example.test'")
        .execute(&mut conn)
        .unwrap();
    assert_eq!(made, 0, "no account was made");
}

/// Two Magnate games created by `creator`, each inviting `invitee`: their ids.
async fn two_invitations(app: &TestApp, creator: &str, invitee: &str) -> Vec<String> {
    let mut ids = Vec::new();
    for _ in 0..2 {
        let g = app
            .post(
                "/api/v1/games",
                Some(creator),
                serde_json::json!({"kind": "magnate", "invite": [invitee]}),
            )
            .await;
        assert_eq!(g.status, 201, "{}", g.text);
        ids.push(g.json["id"].as_str().unwrap().to_owned());
    }
    ids
}

/// A waiting game's button pressed with a token that is not the session's (a page from before a
/// sign-out) is refused on a page titled by that button, not by another form's.
#[actix_web::test]
async fn a_seat_button_with_an_expired_form_is_refused_under_its_own_title() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    app.set_locale(&ada, "es").await;
    let ids = two_invitations(&app, &ada, "bruno@example.test").await;
    let cookie = signed_in(&app, &ada, "ada@example.test").await;
    let r = post_form(
        &app,
        &format!("/games/{}/cancel", ids[0]),
        &cookie,
        "csrf=not-the-token",
    )
    .await;
    assert_eq!(r.status, 403, "{}", r.text);
    assert!(
        r.text.contains("<h1>Cancelar esta partida</h1>"),
        "{}",
        r.text
    );
    assert!(
        r.text
            .contains("Este formulario ha caducado; inténtalo de nuevo."),
        "{}",
        r.text
    );
    assert!(!r.text.contains("<h1>Invitación</h1>"), "{}", r.text);
    let g = app
        .get(&format!("/api/v1/games/{}", ids[0]), Some(&ada))
        .await;
    assert_eq!(g.json["status"], "waiting", "{}", g.text);
}
