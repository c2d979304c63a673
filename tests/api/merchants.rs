//! Merchants & Marauders over HTTP: three clients play a whole game from `legal_actions` (a
//! client that can scout another captain does, so that fights happen); a defender is pending in
//! the middle of the attacker's turn, and no response shows another seat's cargo, glory cards,
//! stash, rumor or unrevealed captain, nor (in the history) another seat's secret actions.

use crate::helpers::{Dice, play_scouting, spawn_app, without_notation};
use serde_json::{Value, json};

/// Another seat's hidden parts in `view` (III.4): none may be present.
fn leaks(view: &Value, me: usize) -> Vec<String> {
    let mut out = Vec::new();
    for (i, p) in view["players"].as_array().into_iter().flatten().enumerate() {
        if i == me {
            continue;
        }
        for key in [
            "cargo",
            "glory_hand",
            "stash",
            "rumor",
            "sealed",
            "known_mods",
        ] {
            if !p[key].is_null() {
                out.push(format!("seat {i}'s {key}: {}", p[key]));
            }
        }
        if p["revealed"] == false && !p["captain"].is_null() {
            out.push(format!("seat {i}'s captain before the reveal"));
        }
    }
    out
}

#[actix_web::test]
async fn three_captains_finish_a_game_with_a_defender_answering_during_anothers_turn() {
    let app = spawn_app().await;
    let names = [
        ("ada@example.test", "Ada"),
        ("bruno@example.test", "Bruno"),
        ("chiara@example.test", "Chiara"),
    ];
    let mut tokens = Vec::new();
    for (email, name) in names {
        tokens.push(app.user(email, name).await);
    }
    let g = app
        .post(
            "/api/v1/games",
            Some(&tokens[0]),
            json!({"kind": "merchants_and_marauders",
                   "invite": ["bruno@example.test", "chiara@example.test"]}),
        )
        .await;
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.json["id"].as_str().unwrap().to_owned();
    for t in &tokens[1..] {
        let r = app
            .post(&format!("/api/v1/games/{id}/join"), Some(t), json!({}))
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let mut by_seat: Vec<String> = vec![String::new(); 3];
    for t in &tokens {
        let r = app.get(&format!("/api/v1/games/{id}"), Some(t)).await;
        assert_eq!(r.json["status"], "active", "{}", r.text);
        by_seat[r.json["you"]["seat"].as_u64().unwrap() as usize] = t.clone();
    }

    let mut dice = Dice::new(7);
    let mut turn_seat: Option<usize> = None;
    let mut defended_in_anothers_turn = false;
    let mut sealed_choice_by_all = false;
    let mut steps = 0;
    loop {
        let mut games: Vec<Value> = Vec::new();
        for (s, t) in by_seat.iter().enumerate() {
            let r = app.get(&format!("/api/v1/games/{id}"), Some(t)).await;
            assert_eq!(r.status, 200, "{}", r.text);
            let leaked = leaks(&r.json["view"], s);
            assert!(leaked.is_empty(), "seat {s} sees {leaked:?}");
            games.push(r.json);
        }
        if games[0]["status"] != "active" {
            break;
        }
        steps += 1;
        assert!(steps < 6000, "the game does not end");
        let decision = &games[0]["view"]["decision"];
        if decision["kind"] == "turn" {
            turn_seat = decision["seat"].as_u64().map(|s| s as usize);
        }
        let pending: Vec<usize> = (0..3)
            .filter(|&s| !games[s]["legal_actions"].as_array().unwrap().is_empty())
            .collect();
        if decision["kind"] == "ship_choice" && pending.len() == 3 {
            sealed_choice_by_all = true;
        }
        let mover = *pending.first().expect("someone is pending");
        if matches!(decision["kind"].as_str(), Some("combat" | "window"))
            && turn_seat.is_some_and(|t| t != mover)
        {
            defended_in_anothers_turn = true;
        }
        play_scouting(&app, &id, &by_seat[mover], &games[mover], &mut dice).await;
        // Secret actions (the sealed ship, purchases from a private offer, kept or plundered
        // cards, stash moves, picks) stay their sender's while the game runs (once it is over
        // the history shows everything, so not after the action that ended it).
        let running = app
            .get(&format!("/api/v1/games/{id}"), Some(&by_seat[mover]))
            .await
            .json["status"]
            == "active";
        if running && steps % 25 == 0 {
            for other in (0..3).filter(|&s| s != mover) {
                let h = app
                    .get(
                        &format!("/api/v1/games/{id}/history"),
                        Some(&by_seat[other]),
                    )
                    .await;
                let leaked = h.json.as_array().into_iter().flatten().find(|e| {
                    e["seat"] != json!(other)
                        && matches!(
                            e["action"]["type"].as_str(),
                            Some(
                                "ship" | "take" | "keep" | "stash" | "pick" | "plunder" | "redraw"
                            )
                        )
                });
                assert!(leaked.is_none(), "seat {other} sees {leaked:?}");
            }
        }
    }
    assert!(
        sealed_choice_by_all,
        "the sealed ship choice had all three pending"
    );
    assert!(
        defended_in_anothers_turn,
        "no defender was pending during another captain's turn"
    );
    let done = app
        .get(&format!("/api/v1/games/{id}"), Some(&by_seat[0]))
        .await;
    assert_eq!(done.json["status"], "finished");
    assert!(done.json["outcome"]["winners"].is_array());
    let fair = app.get(&format!("/api/v1/games/{id}/fairness"), None).await;
    assert_eq!(fair.json["replay_ok"], true, "{}", fair.text);
}

/// III.3.3 over HTTP: both captains file standing orders for when they are attacked (one as
/// typed JSON, one by notation, both out of turn where they are not pending); no defender is
/// ever asked for a declaration or a window, the orders are decided by them, and neither the
/// other's game resource nor its history shows them.
#[actix_web::test]
async fn standing_orders_answer_a_defender_in_anothers_turn_and_stay_hidden() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let bruno = app.user("bruno@example.test", "Bruno").await;
    let g = app
        .post(
            "/api/v1/games",
            Some(&ada),
            json!({"kind": "merchants_and_marauders", "invite": ["bruno@example.test"]}),
        )
        .await;
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.json["id"].as_str().unwrap().to_owned();
    let r = app
        .post(&format!("/api/v1/games/{id}/join"), Some(&bruno), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let mut by_seat: Vec<String> = vec![String::new(); 2];
    for t in [&ada, &bruno] {
        let r = app.get(&format!("/api/v1/games/{id}"), Some(t)).await;
        by_seat[r.json["you"]["seat"].as_u64().unwrap() as usize] = t.clone();
    }
    let game = |s: usize| {
        let app = &app;
        let id = id.clone();
        let t = by_seat[s].clone();
        async move {
            let r = app.get(&format!("/api/v1/games/{id}"), Some(&t)).await;
            assert_eq!(r.status, 200, "{}", r.text);
            r.json
        }
    };
    let post = |s: usize, version: &Value, action: Value| {
        let app = &app;
        let id = id.clone();
        let t = by_seat[s].clone();
        let body = json!({"expected_version": version, "actions": [action]});
        async move {
            app.post(&format!("/api/v1/games/{id}/actions"), Some(&t), body)
                .await
        }
    };
    for s in 0..2 {
        let g = game(s).await;
        let r = post(s, &g["version"], json!({"type": "ship", "ship": "sloop"})).await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    // A badly formed order is a 4xx naming the rule, and changes nothing.
    let g = game(1).await;
    let r = post(
        1,
        &g["version"],
        json!({"notation": "orders declare if attacked: pass"}),
    )
    .await;
    assert!(
        r.status == 422 || r.status == 400,
        "{} {}",
        r.status,
        r.text
    );
    assert!(r.text.contains("MM-NAV-4"), "{}", r.text);
    assert_eq!(game(1).await["version"], g["version"]);
    // Seat 0 by typed JSON, seat 1 by notation, whoever's turn it is.
    let g = game(0).await;
    let typed = json!({"type": "orders", "orders": [
        {"when": {"kind": "declare"}, "if": [{"kind": "attacked"}], "then": {"kind": "declare", "decl": "shoot"}},
        {"when": {"kind": "window"}, "if": [{"kind": "attacked"}], "then": {"kind": "pass"}}
    ]});
    let r = post(0, &g["version"], typed).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let g = game(1).await;
    let r = post(
        1,
        &g["version"],
        json!({"notation": "orders declare if attacked: shoot; window if attacked: pass"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    for s in 0..2 {
        let g = game(s).await;
        assert_eq!(
            g["view"]["players"][s]["orders"].as_array().unwrap().len(),
            2
        );
        assert!(
            g["view"]["players"][1 - s]["orders"].is_null(),
            "{}",
            g["view"]
        );
        assert!(!g["legal_actions"].to_string().contains("\"orders\""));
    }

    let mut dice = Dice::new(11);
    let mut turn_seat: Option<usize> = None;
    let mut decided = false;
    for step in 0..3000 {
        let games = [game(0).await, game(1).await];
        if games[0]["status"] != "active" {
            break;
        }
        let decision = &games[0]["view"]["decision"];
        if decision["kind"] == "turn" {
            turn_seat = decision["seat"].as_u64().map(|s| s as usize);
        }
        let mover = (0..2)
            .find(|&s| !games[s]["legal_actions"].as_array().unwrap().is_empty())
            .expect("someone is pending");
        if matches!(decision["kind"].as_str(), Some("combat" | "window")) {
            assert_eq!(Some(mover), turn_seat, "a defender was asked: {decision}");
        }
        let legal = games[mover]["legal_actions"].as_array().unwrap();
        let scout = legal
            .iter()
            .find(|a| a["type"] == "scout" && a["target"]["kind"] == "player");
        let choice = without_notation(scout.unwrap_or(&legal[dice.below(legal.len())]));
        let r = post(mover, &games[mover]["version"], choice.clone()).await;
        assert_eq!(r.status, 200, "{choice} -> {}", r.text);
        if step % 5 != 0 && !decided {
            continue;
        }
        for (s, token) in by_seat.iter().enumerate() {
            let h = app
                .get(&format!("/api/v1/games/{id}/history"), Some(token))
                .await;
            let entries = h.json.as_array().unwrap();
            for e in entries {
                let text = e.to_string();
                if e["seat"] == json!(1 - s) {
                    assert!(
                        !text.contains("\"orders\"") && !text.contains("attacked"),
                        "seat {s} sees the other's orders: {text}"
                    );
                }
                for ev in e["events"].as_array().unwrap() {
                    if ev["type"] == "order_applied" {
                        assert_eq!(ev["seat"], json!(s), "{ev}");
                        if ev["action"] == "shoot" {
                            decided = true;
                        }
                    }
                    assert!(ev["type"] != "orders_filed" || ev["seat"] == json!(s));
                }
            }
        }
        if decided {
            break;
        }
    }
    assert!(decided, "no declaration was decided by standing orders");
}

/// A game of one has every seat taken when it is created: it starts then, and its captain plays
/// at once (before, it stayed waiting for a join nobody could make). An action with a field it
/// does not have is refused.
#[actix_web::test]
async fn a_solo_game_starts_when_created_and_takes_a_move() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let g = app
        .post(
            "/api/v1/games",
            Some(&ada),
            json!({"kind": "merchants_and_marauders"}),
        )
        .await;
    assert_eq!(g.status, 201, "{}", g.text);
    assert_eq!(g.json["status"], "active", "{}", g.text);
    assert_eq!(g.json["seats"].as_array().unwrap().len(), 1);
    let legal = g.json["legal_actions"].as_array().unwrap();
    assert!(!legal.is_empty(), "the captain may act: {}", g.text);
    let id = g.json["id"].as_str().unwrap();
    // A field the action does not have is refused, as in every game, and changes nothing: on
    // an action with fields, and on one without (which serde alone lets through).
    let mut padded = legal[0].clone();
    padded["extra"] = json!(1);
    for (path, padded, unknown) in [
        ("actions", &padded, "extra"),
        ("actions/check", &padded, "extra"),
        (
            "actions/check",
            &json!({"type": "end", "extra": 1}),
            "extra",
        ),
        // A null is an optional part left out; a list is not.
        (
            "actions/check",
            &json!({"type": "port", "extra": null, "more": [1]}),
            "more",
        ),
    ] {
        let r = app
            .post(
                &format!("/api/v1/games/{id}/{path}"),
                Some(&ada),
                json!({"expected_version": g.json["version"], "actions": [padded]}),
            )
            .await;
        assert_eq!(r.status, 422, "{path}: {}", r.text);
        let named = format!("unknown field `{unknown}`");
        assert!(r.text.contains(&named), "{}", r.text);
    }
    let r = app
        .post(
            &format!("/api/v1/games/{id}/actions"),
            Some(&ada),
            json!({"expected_version": g.json["version"], "actions": [without_notation(&legal[0])]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.json["version"].as_i64() > g.json["version"].as_i64());
    // Read back: still in play, at the version the move answered.
    let read = app.get(&format!("/api/v1/games/{id}"), Some(&ada)).await;
    assert_eq!(read.json["status"], "active", "{}", read.text);
    assert_eq!(read.json["version"], r.json["version"]);
}

/// MM-SOLO-2: a solo level chosen for a game of several, or for a competition's tables, would be
/// silently ignored; it is refused, naming the option, and creates nothing.
#[actix_web::test]
async fn a_solo_level_is_refused_for_a_game_of_several() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let several = app
        .post(
            "/api/v1/games",
            Some(&ada),
            json!({"kind": "merchants_and_marauders", "open_seats": 2,
                   "options": {"solo_level": "hard"}}),
        )
        .await;
    assert_eq!(several.status, 422, "{}", several.text);
    assert!(
        several.text.contains("solo_level") && several.text.contains("MM-SOLO-2"),
        "{}",
        several.text
    );
    let tables = app
        .post(
            "/api/v1/competitions",
            Some(&ada),
            json!({"name": "Brutal tables", "kind": "merchants_and_marauders",
                   "options": {"solo_level": "brutal"},
                   "format": {"type": "tables", "table_sizes": [3], "rounds": 1},
                   "entry": "open"}),
        )
        .await;
    assert_eq!(tables.status, 422, "{}", tables.text);
    assert!(tables.text.contains("solo_level"), "{}", tables.text);
    let mine = app.get("/api/v1/games", Some(&ada)).await;
    assert_eq!(mine.json, json!([]), "{}", mine.text);
    // Alone, the level is what it is for; with several and no level, the game is made.
    for (seats, options) in [(0, json!({"solo_level": "hard"})), (2, json!({}))] {
        let ok = app
            .post(
                "/api/v1/games",
                Some(&ada),
                json!({"kind": "merchants_and_marauders", "open_seats": seats, "options": options}),
            )
            .await;
        assert_eq!(ok.status, 201, "{}", ok.text);
    }
}

/// A list may not go on past an action that draws, rolls or reveals: were it to, whether the
/// rest is accepted (or checked) would tell the captain the hidden cards before they commit. A
/// port's `buy` draws the private offer from the face-down cargo deck: `[buy, take X]` used to
/// be accepted exactly for the X of the offer about to be drawn. Now every such list gets the
/// same refusal, stored or checked, and `buy` alone plays.
#[actix_web::test]
async fn a_list_ends_at_a_draw_so_checking_it_tells_nothing_of_the_deck() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let g = app
        .post(
            "/api/v1/games",
            Some(&ada),
            json!({"kind": "merchants_and_marauders"}),
        )
        .await;
    let id = g.json["id"].as_str().unwrap().to_owned();
    let path = format!("/api/v1/games/{id}");
    // Random single moves until a port offers `buy`.
    let mut dice = Dice::new(1);
    let game = loop {
        let game = app.get(&path, Some(&ada)).await.json;
        let legal = game["legal_actions"].as_array().unwrap().clone();
        assert!(!legal.is_empty(), "the game ended before a port: {game}");
        if legal.iter().any(|a| a["notation"] == "buy") {
            break game;
        }
        let pick = without_notation(&legal[dice.below(legal.len())]);
        let r = app
            .post(
                &format!("{path}/actions"),
                Some(&ada),
                json!({"expected_version": game["version"], "actions": [pick]}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    };
    let version = game["version"].clone();
    let mut answers = std::collections::BTreeSet::new();
    for x in 0..40 {
        for route in ["actions/check", "actions"] {
            let r = app
                .post(
                    &format!("{path}/{route}"),
                    Some(&ada),
                    json!({"expected_version": version,
                           "actions": [{"notation": "buy"}, {"notation": format!("take {x}")}]}),
                )
                .await;
            r.assert_problem(422, "validation_failed");
            assert_eq!(r.json["index"], 1, "{}", r.text);
            answers.insert(r.json["detail"].as_str().unwrap().to_owned());
        }
    }
    assert_eq!(answers.len(), 1, "the answers differ: {answers:?}");
    let detail = answers.first().unwrap();
    assert!(
        detail.contains("“buy”") && detail.contains("must end its list"),
        "{detail}"
    );
    let unchanged = app.get(&path, Some(&ada)).await.json;
    assert_eq!(
        unchanged["version"], version,
        "a refused list changed the game"
    );
    // Alone it plays, and the offer it drew is then the captain's to take from.
    let r = app
        .post(
            &format!("{path}/actions"),
            Some(&ada),
            json!({"expected_version": version, "actions": [{"notation": "buy"}]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let takes = r.json["legal_actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["notation"].as_str().unwrap().starts_with("take"))
        .count();
    assert!(takes > 0, "no offer to take from: {}", r.text);
}
