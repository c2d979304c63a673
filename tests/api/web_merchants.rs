//! The Merchants & Marauders game page over plain HTTP: the sea, the seat's own hold and forms,
//! a refusal next to its form, nobody else's hold on any other page, and a combat answered from a
//! form on the defender's page during the attacker's turn.

use crate::helpers::{Dice, TestApp, play_scouting, spawn_app};
use crate::web::{form_action, page, post_form, signed_in, urlencode};
use serde_json::{Value, json};

const PLAYERS: [(&str, &str); 3] = [
    ("ada@example.test", "Ada"),
    ("bruno@example.test", "Bruno"),
    ("chiara@example.test", "Chiara"),
];

/// A started three-seat game: its id, and per seat its API token and page cookie.
pub struct Crew {
    pub id: String,
    pub tokens: Vec<String>,
    pub cookies: Vec<String>,
}

pub async fn three_captains(app: &TestApp) -> Crew {
    let mut by_user = Vec::new();
    for (email, name) in PLAYERS {
        by_user.push((app.user(email, name).await, email));
    }
    let g = app
        .post(
            "/api/v1/games",
            Some(&by_user[0].0),
            json!({"kind": "merchants_and_marauders",
                   "invite": ["bruno@example.test", "chiara@example.test"]}),
        )
        .await;
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.json["id"].as_str().unwrap().to_owned();
    for (t, _) in &by_user[1..] {
        let r = app
            .post(&format!("/api/v1/games/{id}/join"), Some(t), json!({}))
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let mut tokens = vec![String::new(); 3];
    let mut cookies = vec![String::new(); 3];
    for (t, email) in &by_user {
        let r = app.get(&format!("/api/v1/games/{id}"), Some(t)).await;
        let seat = r.json["you"]["seat"].as_u64().unwrap() as usize;
        tokens[seat] = t.clone();
        cookies[seat] = signed_in(app, t, email).await;
    }
    Crew {
        id,
        tokens,
        cookies,
    }
}

/// The names of the glory cards anyone may know were shown: played, discarded or employed, as
/// the spectator's history tells (another copy of such a card may still be secret in a hand).
async fn shown_glory_names(app: &TestApp, id: &str, spectator_token: &str) -> Vec<String> {
    let data: Value =
        serde_json::from_str(include_str!("../../src/games/merchants/data.json")).unwrap();
    let copies = data["glory_copies"].as_u64().unwrap();
    let r = app
        .get(
            &format!("/api/v1/games/{id}/history"),
            Some(spectator_token),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|entry| entry["events"].as_array().cloned().unwrap_or_default())
        .filter_map(|e| e["card"].as_u64())
        .map(|c| {
            data["glory"][(c / copies) as usize]["name"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect()
}

/// The glory-card names of `seat`'s hand that no other seat holds or shows (so they may appear
/// on no other page).
fn secret_glory_names(games: &[Value], seat: usize, shown: &[String]) -> Vec<String> {
    let data: Value =
        serde_json::from_str(include_str!("../../src/games/merchants/data.json")).unwrap();
    let copies = data["glory_copies"].as_u64().unwrap();
    let name = |c: &Value| {
        data["glory"][(c.as_u64().unwrap() / copies) as usize]["name"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let mine = &games[seat]["view"]["players"][seat];
    let others: Vec<String> = (0..games.len())
        .filter(|&s| s != seat)
        .flat_map(|s| {
            let p = &games[s]["view"]["players"][s];
            let hand = p["glory_hand"].as_array().cloned().unwrap_or_default();
            let mut all = hand;
            for q in games[s]["view"]["players"].as_array().unwrap() {
                all.extend(q["specialists"].as_array().cloned().unwrap_or_default());
            }
            all
        })
        .map(|c| name(&c))
        .collect();
    mine["glory_hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(name)
        .filter(|n| !others.contains(n) && !shown.contains(n))
        .collect()
}

async fn games_of(app: &TestApp, crew: &Crew) -> Vec<Value> {
    let mut out = Vec::new();
    for t in &crew.tokens {
        let r = app
            .get(&format!("/api/v1/games/{}", crew.id), Some(t))
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
        out.push(r.json);
    }
    out
}

/// Every page of the game (each seat's, a spectator's) shows its reader's own hold and nobody
/// else's: no other seat's cargo, glory cards, stash or rumor.
async fn no_page_shows_another_hold(
    app: &TestApp,
    crew: &Crew,
    spectator: &str,
    spectator_token: &str,
) {
    let games = games_of(app, crew).await;
    let shown = shown_glory_names(app, &crew.id, spectator_token).await;
    let mut pages = Vec::new();
    for c in &crew.cookies {
        let r = page(app, &format!("/play/{}", crew.id), c).await;
        assert_eq!(r.status, 200, "{}", r.text);
        pages.push(r.text);
    }
    let watcher = page(app, &format!("/play/{}", crew.id), spectator).await;
    assert_eq!(watcher.status, 200);
    for seat in 0..3 {
        let me = &games[seat]["view"]["players"][seat];
        assert!(
            pages[seat].contains("id=\"own-cargo\""),
            "seat {seat} sees its cargo"
        );
        assert!(pages[seat].contains(&format!(
            "id=\"own-stash\">{}<",
            me["stash"].as_u64().unwrap()
        )));
        let secrets = secret_glory_names(&games, seat, &shown);
        for name in &secrets {
            assert!(pages[seat].contains(name.as_str()), "seat {seat}: {name}");
            for other in (0..3).filter(|&o| o != seat) {
                assert!(
                    !pages[other].contains(name.as_str()),
                    "seat {other}'s page shows seat {seat}'s glory card {name}"
                );
            }
            assert!(!watcher.text.contains(name.as_str()), "spectator: {name}");
        }
        if let Some(rumor) = me["rumor"].as_str() {
            for other in (0..3).filter(|&o| o != seat) {
                assert!(!pages[other].contains(rumor), "seat {other}: {rumor}");
            }
            assert!(!watcher.text.contains(rumor));
        }
    }
    for hidden in ["own-cargo", "own-glory", "own-stash", "own-rumor"] {
        assert!(
            !watcher.text.contains(hidden),
            "a spectator has no hold: {hidden}"
        );
    }
    assert!(!watcher.text.contains("data-action=\""), "no forms");
}

#[actix_web::test]
async fn the_merchants_page_shows_the_sea_the_seats_hold_and_forms_and_refusals_next_to_them() {
    let app = spawn_app().await;
    let crew = three_captains(&app).await;
    let eve = app.user("eve@example.test", "Eve").await;
    let spectator = signed_in(&app, &eve, "eve@example.test").await;
    let id = &crew.id;

    let r = page(&app, &format!("/play/{id}"), &crew.cookies[0]).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(
        r.text
            .contains("<title>Your move · Merchants &amp; Marauders: Ada – Bruno – Chiara"),
        "{}",
        &r.text[..400]
    );
    assert!(r.text.contains("href=\"/rules/merchants_and_marauders\""));
    for port in ["Havana", "Nassau", "Tortuga", "Cartagena", "Caribbean Sea"] {
        assert!(r.text.contains(port), "the sea names {port}");
    }
    assert!(r.text.contains("aria-labelledby=\"sea-h\""), "a landmark");
    assert!(
        r.text.contains("captain not revealed yet"),
        "no captain before the reveal"
    );
    // The sealed ship choice: one form, its two choices as labelled radio buttons.
    let url = form_action(&r.text, "ship").expect("the ship form");
    assert!(r.text.contains("<legend>Choose your ship</legend>"));
    assert!(r.text.contains("value=\"ship sloop\""));
    assert!(r.text.contains("<label for=\"ship-0\">Sloop</label>"));
    no_page_shows_another_hold(&app, &crew, &spectator, &eve).await;

    // A refusal stands next to its form; a choice the form does not offer is not repeated.
    let bad = post_form(&app, &url, &crew.cookies[0], "notation=ship+barge").await;
    assert_eq!(bad.status, 422, "{}", bad.text);
    assert!(bad.text.contains("id=\"problem-ship\""), "{}", bad.text);
    assert!(bad.text.contains("Choose one of the listed choices."));
    assert!(!bad.text.contains("barge"));
    let before = app
        .get(&format!("/api/v1/games/{id}"), Some(&crew.tokens[0]))
        .await;
    let ok = post_form(&app, &url, &crew.cookies[0], "notation=ship+flute").await;
    assert_eq!(ok.status, 303, "{}", ok.text);
    let after = app
        .get(&format!("/api/v1/games/{id}"), Some(&crew.tokens[0]))
        .await;
    assert_eq!(
        after.json["version"],
        before.json["version"].as_i64().unwrap() + 1
    );

    // The sealed choice is the chooser's: on their page, never on another's.
    let mine = page(&app, &format!("/play/{id}"), &crew.cookies[0]).await;
    assert!(mine.text.contains("Your sealed ship"), "{}", mine.text);
    let theirs = page(&app, &format!("/play/{id}"), &crew.cookies[1]).await;
    assert!(!theirs.text.contains("Your sealed ship"));
    assert!(theirs.text.contains("ship chosen, sealed"));
    let watcher = page(&app, &format!("/play/{id}"), &spectator).await;
    assert!(
        !watcher.text.contains("Flute"),
        "the sealed ship stays sealed"
    );
}

#[actix_web::test]
async fn a_defender_answers_the_combat_from_a_form_on_their_page_during_the_attackers_turn() {
    let app = spawn_app().await;
    let crew = three_captains(&app).await;
    let eve = app.user("eve@example.test", "Eve").await;
    let spectator = signed_in(&app, &eve, "eve@example.test").await;
    let id = &crew.id;
    let mut dice = Dice::new(11);
    let mut turn_seat: Option<u64> = None;
    let mut checked_holds = false;
    let mut steps = 0;
    let (defender, attacker) = loop {
        steps += 1;
        assert!(steps < 3000, "no combat against a captain");
        let games = games_of(&app, &crew).await;
        assert_eq!(games[0]["status"], "active", "the game ended first");
        let d = &games[0]["view"]["decision"];
        if d["kind"] == "turn" {
            turn_seat = d["seat"].as_u64();
        }
        let pending: Vec<usize> = (0..3)
            .filter(|&s| !games[s]["legal_actions"].as_array().unwrap().is_empty())
            .collect();
        let mover = pending[0];
        if d["kind"] == "combat"
            && d["defender"]["kind"] == "player"
            && d["defender"]["id"].as_u64() == Some(mover as u64)
            && turn_seat.is_some_and(|t| t != mover as u64)
        {
            break (mover, d["aggressor"].clone());
        }
        // Once a seat carries cargo, every page is checked for holds once.
        if !checked_holds
            && (0..3).any(|s| {
                !games[s]["view"]["players"][s]["cargo"]
                    .as_array()
                    .unwrap()
                    .is_empty()
            })
        {
            no_page_shows_another_hold(&app, &crew, &spectator, &eve).await;
            checked_holds = true;
        }
        play_scouting(&app, id, &crew.tokens[mover], &games[mover], &mut dice).await;
    };

    // Mid-game, with a combat open, still nobody's hold on another's page.
    no_page_shows_another_hold(&app, &crew, &spectator, &eve).await;

    // The defender's page: who attacks whom, the alert, and the answer as a form.
    let r = page(&app, &format!("/play/{id}"), &crew.cookies[defender]).await;
    assert_eq!(r.status, 200);
    assert!(r.text.contains("id=\"combat-h\""), "the combat is shown");
    assert!(
        r.text
            .contains("You are attacked: answer now, during their turn."),
        "{}",
        r.text
    );
    let url = form_action(&r.text, "declare").expect("a declaration form on the defender's page");
    let game = app
        .get(&format!("/api/v1/games/{id}"), Some(&crew.tokens[defender]))
        .await;
    let first = game.json["legal_actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] == "declare")
        .expect("a declaration is listed")
        .clone();
    // The attacker (when a captain) and a spectator see the combat, not the form.
    if attacker["kind"] == "player" {
        let a = attacker["id"].as_u64().unwrap() as usize;
        let theirs = page(&app, &format!("/play/{id}"), &crew.cookies[a]).await;
        assert!(theirs.text.contains("id=\"combat-h\""));
        assert!(!theirs.text.contains("data-action=\"declare\""));
    }
    let watcher = page(&app, &format!("/play/{id}"), &spectator).await;
    assert!(watcher.text.contains("id=\"combat-h\""));
    assert!(!watcher.text.contains("data-action=\"declare\""));

    let answered = post_form(
        &app,
        &url,
        &crew.cookies[defender],
        &format!(
            "notation={}",
            urlencode(first["notation"].as_str().unwrap())
        ),
    )
    .await;
    assert_eq!(answered.status, 303, "{}", answered.text);
    let after = app
        .get(&format!("/api/v1/games/{id}"), Some(&crew.tokens[defender]))
        .await;
    assert_eq!(
        after.json["version"],
        game.json["version"].as_i64().unwrap() + 1
    );
}

/// MM-DEATH-2 / III.3.9: a captain who dies in another captain's turn may choose the new ship
/// from their page at once, before their own turn comes (the game does not wait for it yet, so
/// nothing lists it), with a line saying they may also wait; no other page offers that form.
#[actix_web::test]
async fn a_captain_dead_in_anothers_turn_may_choose_the_new_ship_early_from_their_page() {
    let app = spawn_app().await;
    let crew = three_captains(&app).await;
    let eve = app.user("eve@example.test", "Eve").await;
    let spectator = signed_in(&app, &eve, "eve@example.test").await;
    let id = &crew.id;
    let may_choose_now = "you may choose the ship (and place returned modifications) now, or \
                          when that turn comes";
    // Random listed actions, scouting another captain whenever possible so that fights happen,
    // until a captain dies in another's turn (in a few hundred actions at most).
    let mut dice = Dice::new(5);
    let mut steps = 0;
    let (dead, games) = loop {
        steps += 1;
        assert!(steps < 3000, "no captain died in another's turn");
        let games = games_of(&app, &crew).await;
        assert_eq!(games[0]["status"], "active", "the game ended first");
        if let Some(dead) = (0..3).find(|&s| games[s]["view"]["rejoin"]["kind"] == "ship_choice") {
            break (dead, games);
        }
        let mover = (0..3)
            .find(|&s| !games[s]["legal_actions"].as_array().unwrap().is_empty())
            .expect("a pending seat");
        play_scouting(&app, id, &crew.tokens[mover], &games[mover], &mut dice).await;
    };
    assert!(
        games[dead]["legal_actions"].as_array().unwrap().is_empty(),
        "the game does not wait for the dead captain's seat yet"
    );

    // The dead captain's page: the ship form, its choices, and that it may wait.
    let mine = page(&app, &format!("/play/{id}"), &crew.cookies[dead]).await;
    assert_eq!(mine.status, 200, "{}", mine.text);
    let url = form_action(&mine.text, "ship").expect("the early ship form");
    assert!(mine.text.contains("value=\"ship sloop\""), "{}", mine.text);
    assert!(mine.text.contains("value=\"ship flute\""));
    assert!(mine.text.contains(may_choose_now), "{}", mine.text);

    // Nobody else's page offers it: the other captains' (unless dead too) and a spectator's.
    let others = (0..3).filter(|&s| s != dead && games[s]["view"]["rejoin"].is_null());
    let mut readers: Vec<&str> = others.map(|s| crew.cookies[s].as_str()).collect();
    assert!(!readers.is_empty(), "the captain on turn is alive");
    readers.push(&spectator);
    for cookie in readers {
        let theirs = page(&app, &format!("/play/{id}"), cookie).await;
        assert_eq!(theirs.status, 200);
        assert!(!theirs.text.contains("data-action=\"ship\""));
        assert!(!theirs.text.contains("value=\"ship sloop\""));
        assert!(!theirs.text.contains(may_choose_now));
    }

    // Posted, the choice is made out of turn: the new captain has its Flute.
    let chosen = post_form(&app, &url, &crew.cookies[dead], "notation=ship+flute").await;
    assert_eq!(chosen.status, 303, "{}", chosen.text);
    let after = app
        .get(&format!("/api/v1/games/{id}"), Some(&crew.tokens[dead]))
        .await;
    assert_eq!(
        after.json["version"],
        games[dead]["version"].as_i64().unwrap() + 1
    );
    assert_eq!(after.json["view"]["players"][dead]["ship"], "flute");
    assert_ne!(after.json["view"]["rejoin"]["kind"], "ship_choice");
    let mine = page(&app, &format!("/play/{id}"), &crew.cookies[dead]).await;
    assert!(!mine.text.contains("value=\"ship sloop\""), "chosen once");
}
