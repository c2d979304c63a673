//! Creating, joining, listing and reading games, and the refusals of submissions.

use crate::helpers::{spawn_app, without_notation};
use awc::http::Method;
use serde_json::json;

#[actix_web::test]
async fn the_game_kinds_are_public_and_list_magnate_with_its_presets() {
    let app = spawn_app().await;
    let r = app.get("/api/v1/game-kinds", None).await;
    assert_eq!(r.status, 200);
    let magnate = r
        .json
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kind"] == "magnate")
        .unwrap();
    assert_eq!(magnate["min_seats"], 2);
    assert_eq!(magnate["max_seats"], 2);
    assert!(
        magnate["presets"]
            .as_array()
            .unwrap()
            .contains(&json!("standard"))
    );
    assert!(magnate["options"].is_object());
}

#[actix_web::test]
async fn a_new_game_waits_for_its_invited_player_with_a_published_commitment() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let r = app
        .post(
            "/api/v1/games",
            Some(&ada),
            json!({"kind": "magnate", "invite": ["Bruno@Example.test"]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let g = &r.json;
    assert_eq!(g["status"], "waiting");
    assert_eq!(g["you"], json!({"seat": 0}));
    assert_eq!(g["seats"][0]["player"]["display_name"], "Ada");
    assert_eq!(g["seats"][1]["player"], json!(null));
    assert_eq!(
        g["seats"][1]["invited"],
        json!({"email_masked": "b***@example.test"})
    );
    assert_eq!(g["seats"][1]["open"], false);
    assert!(
        !r.text.contains("bruno@example.test"),
        "invited addresses are not shown"
    );
    assert_eq!(g["view"], json!(null));
    assert_eq!(g["legal_actions"], json!([]));
    let commitment = g["seed_commitment"].as_str().unwrap();
    assert_eq!(commitment.len(), 64);
    assert!(commitment.chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(g["options"]["courts"], false, "options are stored resolved");
}

#[actix_web::test]
async fn bad_game_requests_are_refused_with_a_validation_problem() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let cases = [
        json!({"kind": "chess", "invite": ["b@example.test"]}),
        json!({"kind": "magnate", "options": {"preset": "no-such-preset"}, "invite": ["b@example.test"]}),
        json!({"kind": "magnate", "options": {"courts": "sometimes"}, "invite": ["b@example.test"]}),
        json!({"kind": "magnate", "invite": []}),
        json!({"kind": "magnate", "invite": ["b@example.test", "c@example.test"]}),
        json!({"kind": "magnate", "invite": ["ada@example.test"]}),
        json!({"kind": "magnate", "invite": ["not an address"]}),
        json!({"kind": "magnate", "open_seats": 300}),
        json!({"kind": "magnate", "open_seats": 1, "colour": "red"}),
    ];
    for body in cases {
        let r = app.post("/api/v1/games", Some(&ada), body.clone()).await;
        assert_eq!(r.status, 422, "{body} -> {}", r.text);
        r.assert_problem(422, "validation_failed");
    }
    let r = app.get("/api/v1/games", Some(&ada)).await;
    assert_eq!(r.json, json!([]), "nothing half-written");
}

#[actix_web::test]
async fn the_game_starts_when_the_invitee_joins_and_exactly_one_seat_is_pending() {
    let app = spawn_app().await;
    let table = app.table().await;
    let a = app.game(&table, 0).await;
    let b = app.game(&table, 1).await;
    assert_eq!(a["status"], "active");
    assert_eq!(a["you"], json!({"seat": 0}));
    assert_eq!(b["you"], json!({"seat": 1}));
    assert_eq!(a["version"], b["version"]);
    let pending: Vec<bool> = a["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["pending"].as_bool().unwrap())
        .collect();
    assert_eq!(pending.iter().filter(|p| **p).count(), 1);
    let mover = pending.iter().position(|p| *p).unwrap();
    let views = [&a, &b];
    assert!(!views[mover]["legal_actions"].as_array().unwrap().is_empty());
    assert!(
        views[1 - mover]["legal_actions"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    for action in views[mover]["legal_actions"].as_array().unwrap() {
        assert!(action["notation"].is_string(), "{action}");
    }
    assert!(a["view"]["players"][0]["hand"].is_array());
    assert!(a["view"]["players"][1].get("hand").is_none());
    assert!(b["view"]["players"][1]["hand"].is_array());
}

#[actix_web::test]
async fn open_seats_are_taken_by_anyone_but_only_once() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let carla = app.user("carla@example.test", "Carla").await;
    let dan = app.user("dan@example.test", "Dan").await;
    let r = app
        .post(
            "/api/v1/games",
            Some(&ada),
            json!({"kind": "magnate", "open_seats": 1}),
        )
        .await;
    let id = r.json["id"].as_str().unwrap().to_owned();
    let r = app
        .post(&format!("/api/v1/games/{id}/join"), Some(&ada), json!({}))
        .await;
    r.assert_problem(409, "conflict");
    let r = app
        .call(
            Method::POST,
            &format!("/api/v1/games/{id}/join"),
            Some(&carla),
            None,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["status"], "active");
    let r = app
        .post(&format!("/api/v1/games/{id}/join"), Some(&dan), json!({}))
        .await;
    r.assert_problem(409, "conflict");
}

#[actix_web::test]
async fn a_stranger_cannot_take_an_invited_seat() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let eve = app.user("eve@example.test", "Eve").await;
    let r = app
        .post(
            "/api/v1/games",
            Some(&ada),
            json!({"kind": "magnate", "invite": ["bruno@example.test"]}),
        )
        .await;
    let id = r.json["id"].as_str().unwrap().to_owned();
    let r = app
        .post(&format!("/api/v1/games/{id}/join"), Some(&eve), json!({}))
        .await;
    r.assert_problem(403, "forbidden");
}

#[actix_web::test]
async fn my_games_list_invitations_and_filters_by_status_and_turn() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let bruno = app.user("bruno@example.test", "Bruno").await;
    let r = app
        .post(
            "/api/v1/games",
            Some(&ada),
            json!({"kind": "magnate", "invite": ["bruno@example.test"]}),
        )
        .await;
    let id = r.json["id"].as_str().unwrap().to_owned();
    let list = app.get("/api/v1/games", Some(&bruno)).await;
    assert_eq!(list.status, 200, "{}", list.text);
    assert_eq!(list.json[0]["id"], id.as_str());
    assert_eq!(list.json[0]["invited"], true);
    assert_eq!(list.json[0]["you"], json!(null));
    app.post(&format!("/api/v1/games/{id}/join"), Some(&bruno), json!({}))
        .await;

    let mine_a = app.get("/api/v1/games?my_turn=true", Some(&ada)).await.json;
    let mine_b = app
        .get("/api/v1/games?my_turn=true", Some(&bruno))
        .await
        .json;
    assert_eq!(
        mine_a.as_array().unwrap().len() + mine_b.as_array().unwrap().len(),
        1,
        "exactly one player has the move"
    );
    let active = app
        .get("/api/v1/games?status=active", Some(&ada))
        .await
        .json;
    assert_eq!(active.as_array().unwrap().len(), 1);
    let finished = app
        .get("/api/v1/games?status=finished", Some(&ada))
        .await
        .json;
    assert_eq!(finished, json!([]));
    let r = app.get("/api/v1/games?status=sleeping", Some(&ada)).await;
    r.assert_problem(422, "validation_failed");
}

#[actix_web::test]
async fn a_game_in_progress_is_not_public_and_an_unknown_game_is_not_found() {
    let app = spawn_app().await;
    let table = app.table().await;
    let r = app.get(&format!("/api/v1/games/{}", table.id), None).await;
    r.assert_problem(401, "unauthenticated");
    let r = app
        .get(&format!("/api/v1/games/{}/history", table.id), None)
        .await;
    r.assert_problem(401, "unauthenticated");
    let r = app
        .get(
            "/api/v1/games/6f1c2a52-0000-4000-8000-000000000000",
            Some(&table.tokens[0]),
        )
        .await;
    r.assert_problem(404, "not_found");
    let r = app
        .get("/api/v1/games/not-a-game", Some(&table.tokens[0]))
        .await;
    r.assert_problem(404, "not_found");
}

#[actix_web::test]
async fn a_spectator_sees_no_hand_and_has_no_legal_actions() {
    let app = spawn_app().await;
    let table = app.table().await;
    let eve = app.user("eve@example.test", "Eve").await;
    let r = app
        .get(&format!("/api/v1/games/{}", table.id), Some(&eve))
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json["you"], json!(null));
    assert_eq!(r.json["legal_actions"], json!([]));
    for p in r.json["view"]["players"].as_array().unwrap() {
        assert!(p.get("hand").is_none());
    }
    let r = app
        .submit(
            &crate::helpers::Table {
                id: table.id.clone(),
                tokens: [eve.clone(), eve],
            },
            0,
            2,
            json!([{"type": "end"}]),
        )
        .await;
    r.assert_problem(403, "forbidden");
}

#[actix_web::test]
async fn each_refusal_has_its_own_code_in_the_documented_order() {
    let app = spawn_app().await;
    let table = app.table().await;
    let (mover, g) = app.mover(&table).await;
    let version = g["version"].as_i64().unwrap();
    let legal = without_notation(&g["legal_actions"][0]);

    let r = app
        .submit(&table, 1 - mover, version, json!([{"type": "end"}]))
        .await;
    r.assert_problem(409, "not_your_turn");
    assert_eq!(r.json["index"], 0);

    let r = app.submit(&table, mover, version - 1, json!([legal])).await;
    r.assert_problem(409, "stale_version");
    assert_eq!(r.json["version"], version, "the current version is given");

    let r = app
        .submit(
            &table,
            mover,
            version,
            json!([{"type": "sell", "card": "PMYK"}]),
        )
        .await;
    r.assert_problem(422, "illegal_action");
    assert!(
        r.json["rule"].as_str().unwrap().starts_with("MAG-"),
        "{}",
        r.text
    );

    let r = app
        .submit(
            &table,
            mover,
            version,
            json!([{"type": "sell", "card": "ZZZ"}]),
        )
        .await;
    r.assert_problem(422, "validation_failed");

    let r = app
        .submit(
            &table,
            mover,
            version,
            json!([{"type": "build", "card": "1M", "district": "a", "payment": {"M": 9}}]),
        )
        .await;
    r.assert_problem(422, "illegal_action");
    assert!(
        r.json["rule"].as_str().unwrap().starts_with("MAG-"),
        "{}",
        r.text
    );
    assert_eq!(r.json["index"], 0);

    let r = app
        .submit(
            &table,
            mover,
            version,
            json!([{"type": "roll", "d10": [9, 9]}]),
        )
        .await;
    r.assert_problem(422, "illegal_action");

    let r = app
        .submit(&table, mover, version, json!([{"type": "dance"}]))
        .await;
    r.assert_problem(422, "validation_failed");
    assert_eq!(r.json["index"], 0);

    let r = app.submit(&table, mover, version, json!([])).await;
    r.assert_problem(422, "validation_failed");

    let after = app.game(&table, mover).await;
    assert_eq!(after["version"], version, "no refusal changed anything");
}

#[actix_web::test]
async fn a_list_of_actions_is_all_or_nothing() {
    let app = spawn_app().await;
    let table = app.table().await;
    let (mover, g) = app.mover(&table).await;
    let version = g["version"].as_i64().unwrap();
    let legal = without_notation(&g["legal_actions"][0]);
    let r = app
        .submit(
            &table,
            mover,
            version,
            json!([legal, {"type": "sell", "card": "0"}, {"type": "end"}]),
        )
        .await;
    assert!(r.status == 422 || r.status == 409, "{}", r.text);
    assert!(r.json["index"].as_u64().unwrap() >= 1, "{}", r.text);
    let after = app.game(&table, mover).await;
    assert_eq!(after["version"], version);
    assert_eq!(after["view"], g["view"], "the first action was not kept");
    let history = app
        .get(
            &format!("/api/v1/games/{}/history", table.id),
            Some(&table.tokens[mover]),
        )
        .await;
    assert_eq!(
        history.json.as_array().unwrap().len(),
        1,
        "only the setup: {}",
        history.text
    );
}

/// A list that does not draw or roll before its end plays whole: Magnate's deed or build then
/// `end` (which draws, last). One that goes on past `end` is refused as a whole, whatever follows.
#[actix_web::test]
async fn a_list_plays_whole_when_only_its_last_action_draws() {
    let app = spawn_app().await;
    let table = app.table().await;
    let (mover, g) = app.mover(&table).await;
    let version = g["version"].as_i64().unwrap();
    let first = g["legal_actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] != "end")
        .map(without_notation)
        .expect("a move besides end");
    let after_end = app
        .submit(
            &table,
            mover,
            version,
            json!([first, {"type": "end"}, {"type": "end"}]),
        )
        .await;
    after_end.assert_problem(422, "validation_failed");
    assert_eq!(after_end.json["index"], 2, "{}", after_end.text);
    let r = app
        .submit(&table, mover, version, json!([first, {"type": "end"}]))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["version"], version + 1, "{}", r.text);
    assert_eq!(r.json["seats"][mover]["pending"], false, "the turn passed");
}

#[actix_web::test]
async fn an_action_given_by_notation_alone_is_accepted() {
    let app = spawn_app().await;
    let table = app.table().await;
    let (mover, g) = app.mover(&table).await;
    let notation = g["legal_actions"][0]["notation"].as_str().unwrap();
    let r = app
        .submit(
            &table,
            mover,
            g["version"].as_i64().unwrap(),
            json!([{"notation": notation}]),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["version"], g["version"].as_i64().unwrap() + 1);
}

#[actix_web::test]
async fn checking_actions_stores_nothing_and_answers_like_a_submission() {
    let app = spawn_app().await;
    let table = app.table().await;
    let (mover, g) = app.mover(&table).await;
    let version = g["version"].as_i64().unwrap();
    let legal = without_notation(&g["legal_actions"][0]);
    let path = format!("/api/v1/games/{}/actions/check", table.id);
    let r = app
        .post(
            &path,
            Some(&table.tokens[mover]),
            json!({"expected_version": version, "actions": [legal]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json, json!({"accepted": true, "version": version}));
    assert_eq!(app.game(&table, mover).await["version"], version);
    let r = app
        .post(
            &path,
            Some(&table.tokens[1 - mover]),
            json!({"expected_version": version, "actions": [{"type": "end"}]}),
        )
        .await;
    r.assert_problem(409, "not_your_turn");
    let r = app
        .post(
            &path,
            Some(&table.tokens[mover]),
            json!({"expected_version": version + 5, "actions": [legal]}),
        )
        .await;
    r.assert_problem(409, "stale_version");
}

#[actix_web::test]
async fn a_retried_submission_with_the_same_key_is_answered_again_not_played_twice() {
    let app = spawn_app().await;
    let table = app.table().await;
    let (mover, g) = app.mover(&table).await;
    let version = g["version"].as_i64().unwrap();
    let legal = without_notation(&g["legal_actions"][0]);
    let body = json!({"expected_version": version, "actions": [legal]});
    let path = format!("/api/v1/games/{}/actions", table.id);
    let key = [
        ("Content-Type", "application/json"),
        ("Idempotency-Key", "move-1"),
    ];
    let first = app
        .send(
            Method::POST,
            &path,
            Some(&table.tokens[mover]),
            &key,
            Some(serde_json::to_vec(&body).unwrap()),
        )
        .await;
    let second = app
        .send(
            Method::POST,
            &path,
            Some(&table.tokens[mover]),
            &key,
            Some(serde_json::to_vec(&body).unwrap()),
        )
        .await;
    assert_eq!(first.status, 200, "{}", first.text);
    assert_eq!(second.status, 200, "{}", second.text);
    assert_eq!(first.json, second.json);
    assert_eq!(
        app.game(&table, mover).await["version"],
        version + 1,
        "stored once"
    );
    let other = json!({"expected_version": version + 1, "actions": [{"type": "end"}]});
    let third = app
        .send(
            Method::POST,
            &path,
            Some(&table.tokens[mover]),
            &key,
            Some(serde_json::to_vec(&other).unwrap()),
        )
        .await;
    third.assert_problem(409, "conflict");
}

#[actix_web::test]
async fn creating_a_game_with_an_idempotency_key_twice_creates_one_game() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let body = serde_json::to_vec(&json!({"kind": "magnate", "open_seats": 1})).unwrap();
    let headers = [
        ("Content-Type", "application/json"),
        ("Idempotency-Key", "new-game"),
    ];
    let a = app
        .send(
            Method::POST,
            "/api/v1/games",
            Some(&ada),
            &headers,
            Some(body.clone()),
        )
        .await;
    let b = app
        .send(
            Method::POST,
            "/api/v1/games",
            Some(&ada),
            &headers,
            Some(body),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.text);
    assert_eq!(b.status, 201);
    assert_eq!(a.json["id"], b.json["id"]);
    assert_eq!(
        app.get("/api/v1/games", Some(&ada))
            .await
            .json
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[actix_web::test]
async fn a_read_only_token_cannot_play() {
    let app = spawn_app().await;
    let table = app.table().await;
    let r = app
        .post(
            "/api/v1/me/tokens",
            Some(&table.tokens[0]),
            json!({"name": "watcher", "scopes": ["read"]}),
        )
        .await;
    let read_only = r.json["token"].as_str().unwrap().to_owned();
    let g = app
        .get(&format!("/api/v1/games/{}", table.id), Some(&read_only))
        .await;
    assert_eq!(g.status, 200);
    assert_eq!(g.json["you"], json!({"seat": 0}));
    let r = app
        .post(
            &format!("/api/v1/games/{}/actions", table.id),
            Some(&read_only),
            json!({"expected_version": g.json["version"], "actions": [{"type": "end"}]}),
        )
        .await;
    r.assert_problem(403, "forbidden");
}

#[actix_web::test]
async fn resigning_ends_the_game_the_record_becomes_public_and_the_seed_is_revealed() {
    let app = spawn_app().await;
    let table = app.table().await;
    let fair = app
        .get(
            &format!("/api/v1/games/{}/fairness", table.id),
            Some(&table.tokens[0]),
        )
        .await;
    assert_eq!(fair.status, 200);
    assert!(
        fair.json.get("seed").is_none() && fair.json.get("replay_ok").is_none(),
        "{}",
        fair.text
    );
    let mut before_the_end = vec![fair.text];
    for seat in 0..2 {
        let token = Some(table.tokens[seat].as_str());
        for path in ["", "/history", "/fairness"] {
            let path = format!("/api/v1/games/{}{path}", table.id);
            before_the_end.push(app.get(&path, token).await.text);
        }
        before_the_end.push(app.get("/api/v1/games", token).await.text);
        let refused = app.submit(&table, seat, 1, json!([{"type": "end"}])).await;
        before_the_end.push(refused.text);
    }

    let r = app.resign(&table, 0).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["status"], "finished");
    assert_eq!(r.json["outcome"]["winners"], json!([1]));
    assert_eq!(r.json["legal_actions"], json!([]));
    let results = app.results(&table.id);
    let places: Vec<(serde_json::Value, serde_json::Value, serde_json::Value)> = results
        .iter()
        .map(|r| (r["seat"].clone(), r["place"].clone(), r["reason"].clone()))
        .collect();
    assert_eq!(
        places,
        [
            (json!(0), json!(2), json!("resigned")),
            (json!(1), json!(1), json!("resigned"))
        ],
        "the resigned seat places second"
    );

    let again = app.resign(&table, 1).await;
    again.assert_problem(409, "game_over");
    let late = app
        .submit(
            &table,
            1,
            r.json["version"].as_i64().unwrap(),
            json!([{"type": "end"}]),
        )
        .await;
    late.assert_problem(409, "game_over");

    let public = app.get(&format!("/api/v1/games/{}", table.id), None).await;
    assert_eq!(public.status, 200, "a finished game is public");
    let fair = app
        .get(&format!("/api/v1/games/{}/fairness", table.id), None)
        .await;
    assert_eq!(fair.status, 200);
    assert_eq!(fair.json["replay_ok"], true, "{}", fair.text);
    let seed_hex = fair.json["seed"].as_str().unwrap();
    for text in &before_the_end {
        assert!(
            !text.contains(seed_hex),
            "the seed showed before the end: {text}"
        );
    }
    let seed = hex::decode(seed_hex).unwrap();
    use sha2::Digest;
    assert_eq!(
        hex::encode(sha2::Sha256::digest(&seed)),
        fair.json["seed_commitment"].as_str().unwrap()
    );
}

#[actix_web::test]
async fn the_documented_magnate_view_lists_every_field_the_engine_sends() {
    let app = spawn_app().await;
    let table = app.table().await;
    let g = app.game(&table, 0).await;
    let documented = herald::routes::schemas::magnate_view_fields();
    for key in g["view"].as_object().unwrap().keys() {
        assert!(
            documented.contains(key),
            "view field {key} is not in the OpenAPI schema"
        );
    }
}

/// A client polling a game sends its `ETag` back: 304 without a body while nothing it sees has
/// changed, a 200 with a new tag after a move; the two players' tags differ (their views do).
#[actix_web::test]
async fn a_game_read_answers_304_while_unchanged_for_its_reader() {
    let app = spawn_app().await;
    let table = app.table().await;
    let path = format!("/api/v1/games/{}", table.id);
    let first = app.get(&path, Some(&table.tokens[0])).await;
    let tag = first.header("etag");
    assert!(tag.starts_with('"') && tag.len() > 10, "{tag}");
    let other = app.get(&path, Some(&table.tokens[1])).await;
    assert_ne!(other.header("etag"), tag, "another reader, another view");
    let again = app
        .send(
            Method::GET,
            &path,
            Some(&table.tokens[0]),
            &[("If-None-Match", &tag)],
            None,
        )
        .await;
    assert_eq!(again.status, 304);
    assert!(again.text.is_empty());
    assert_eq!(again.header("etag"), tag);
    let (mover, g) = app.mover(&table).await;
    let legal = without_notation(&g["legal_actions"][0]);
    let moved = app
        .submit(
            &table,
            mover,
            g["version"].as_i64().unwrap(),
            json!([legal]),
        )
        .await;
    assert_eq!(moved.status, 200, "{}", moved.text);
    let after = app
        .send(
            Method::GET,
            &path,
            Some(&table.tokens[0]),
            &[("If-None-Match", &tag)],
            None,
        )
        .await;
    assert_eq!(after.status, 200);
    assert_ne!(after.header("etag"), tag);
}

/// An invitee declines: the seat closes (neither invited nor open), their join is refused from
/// then on, and the creator's mail is queued; the creator alone cancels a game that has not
/// started, and a started game cannot be cancelled.
#[actix_web::test]
async fn an_invitee_declines_and_the_creator_cancels_a_waiting_game() {
    let app = spawn_app().await;
    let table = app.table().await;
    let (ada, bruno) = (table.tokens[0].clone(), table.tokens[1].clone());
    let created = app
        .post(
            "/api/v1/games",
            Some(&ada),
            json!({"kind": "magnate", "invite": ["bruno@example.test"]}),
        )
        .await;
    let id = created.json["id"].as_str().unwrap().to_owned();
    assert_eq!(
        created.json["seats"][1]["invited"],
        json!({"display_name": "Bruno"})
    );
    let stranger = app.user("cleo@example.test", "Cleo").await;
    let nobody = app
        .post(
            &format!("/api/v1/games/{id}/decline"),
            Some(&stranger),
            json!({}),
        )
        .await;
    nobody.assert_problem(403, "forbidden");
    let declined = app
        .post(
            &format!("/api/v1/games/{id}/decline"),
            Some(&bruno),
            json!({}),
        )
        .await;
    assert_eq!(declined.status, 200, "{}", declined.text);
    let g = app.get(&format!("/api/v1/games/{id}"), Some(&ada)).await;
    assert_eq!(g.json["seats"][1]["invited"], json!(null));
    assert_eq!(g.json["seats"][1]["open"], false);
    assert_eq!(
        g.json["version"],
        created.json["version"].as_i64().unwrap() + 1
    );
    let join = app
        .post(&format!("/api/v1/games/{id}/join"), Some(&bruno), json!({}))
        .await;
    join.assert_problem(403, "forbidden");
    assert_eq!(
        crate::clocks::jobs_of_kind(&app, "email.declined"),
        1,
        "the creator is told"
    );
    // Cancel: the creator only, a waiting game only.
    let not_mine = app
        .post(
            &format!("/api/v1/games/{id}/cancel"),
            Some(&bruno),
            json!({}),
        )
        .await;
    not_mine.assert_problem(403, "forbidden");
    let cancelled = app
        .post(&format!("/api/v1/games/{id}/cancel"), Some(&ada), json!({}))
        .await;
    assert_eq!(cancelled.status, 200, "{}", cancelled.text);
    assert_eq!(cancelled.json["status"], "aborted");
    let again = app
        .post(&format!("/api/v1/games/{id}/cancel"), Some(&ada), json!({}))
        .await;
    again.assert_problem(409, "conflict");
    // Joining it says why nobody can.
    let dora = app.user("dora@example.test", "Dora").await;
    let late = app
        .post(&format!("/api/v1/games/{id}/join"), Some(&dora), json!({}))
        .await;
    late.assert_problem(409, "conflict");
    assert!(late.text.contains("was cancelled"), "{}", late.text);
    let started = app
        .post(
            &format!("/api/v1/games/{}/cancel", table.id),
            Some(&table.tokens[0]),
            json!({}),
        )
        .await;
    started.assert_problem(409, "conflict");
}

/// The lobby lists waiting games with open seats to everyone else, filtered by kind and seat
/// count, counting down as seats are taken and dropping the full game.
#[actix_web::test]
async fn the_lobby_lists_open_seats_until_the_game_is_full() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let bruno = app.user("bruno@example.test", "Bruno").await;
    let cleo = app.user("cleo@example.test", "Cleo").await;
    let g = app
        .post(
            "/api/v1/games",
            Some(&ada),
            json!({"kind": "lancaster", "open_seats": 2}),
        )
        .await;
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.json["id"].as_str().unwrap().to_owned();
    let find = |list: &serde_json::Value| {
        list.as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == id.as_str())
            .cloned()
    };
    let listed = app.get("/api/v1/lobby", Some(&bruno)).await;
    assert_eq!(listed.status, 200, "{}", listed.text);
    let item = find(&listed.json).expect("listed");
    assert_eq!(item["open_seats"], 2);
    assert_eq!(item["kind"], "lancaster");
    assert!(
        find(&app.get("/api/v1/lobby", Some(&ada)).await.json).is_none(),
        "not one's own"
    );
    for (q, want) in [
        ("?kind=magnate", false),
        ("?kind=lancaster", true),
        ("?seats=3", true),
        ("?seats=4", false),
    ] {
        let r = app.get(&format!("/api/v1/lobby{q}"), Some(&bruno)).await;
        assert_eq!(find(&r.json).is_some(), want, "{q}");
    }
    app.get("/api/v1/lobby?kind=chess", Some(&bruno))
        .await
        .assert_problem(422, "validation_failed");
    let joined = app
        .post(&format!("/api/v1/games/{id}/join"), Some(&bruno), json!({}))
        .await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    let item = find(&app.get("/api/v1/lobby", Some(&cleo)).await.json).expect("still listed");
    assert_eq!(item["open_seats"], 1);
    let last = app
        .post(&format!("/api/v1/games/{id}/join"), Some(&cleo), json!({}))
        .await;
    assert_eq!(last.status, 200, "{}", last.text);
    let dana = app.user("dana@example.test", "Dana").await;
    assert!(
        find(&app.get("/api/v1/lobby", Some(&dana)).await.json).is_none(),
        "a full game is gone"
    );
}

/// Rows of `table` for `game` (a test's look at where the record is kept).
fn rows_of(app: &crate::helpers::TestApp, table: &str, game: &str) -> i64 {
    use diesel::{Connection, RunQueryDsl};
    #[derive(diesel::QueryableByName)]
    struct Count {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let mut conn = diesel::PgConnection::establish(&app.db_url).unwrap();
    diesel::sql_query(format!(
        "SELECT count(*) AS n FROM {table} WHERE game_id = $1::uuid"
    ))
    .bind::<diesel::sql_types::Text, _>(game)
    .get_result::<Count>(&mut conn)
    .unwrap()
    .n
}

#[actix_web::test]
async fn a_finished_games_record_is_archived_in_one_row_and_reads_and_replays_the_same() {
    let app = spawn_app().await;
    let table = app.table().await;
    for _ in 0..12 {
        let (seat, g) = app.mover(&table).await;
        let legal = g["legal_actions"].as_array().unwrap();
        let pick = legal
            .iter()
            .find(|a| a["type"] == "end")
            .unwrap_or(&legal[0]);
        let r = app
            .submit(
                &table,
                seat,
                g["version"].as_i64().unwrap(),
                json!([without_notation(pick)]),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let path = format!("/api/v1/games/{}/history", table.id);
    let before = app.get(&path, Some(&table.tokens[0])).await.json;
    let played = rows_of(&app, "game_actions", &table.id);
    assert!(played >= 12, "one row per action while the game is played");
    assert!(rows_of(&app, "game_events", &table.id) > played);
    assert_eq!(rows_of(&app, "game_archives", &table.id), 0);

    let r = app.resign(&table, 0).await;
    assert_eq!(r.status, 200, "{}", r.text);
    // The move is a job after the commit: the game has ended and its record is still in rows.
    assert_eq!(rows_of(&app, "game_archives", &table.id), 0);
    let ended = app.get(&path, None).await;
    assert_eq!(ended.status, 200, "{}", ended.text);
    let worker =
        herald::jobs::Worker::new(&app.settings, herald::db::pool(&app.db_url, 1).unwrap())
            .unwrap();
    worker.drain().unwrap();
    assert_eq!(rows_of(&app, "game_actions", &table.id), 0);
    assert_eq!(rows_of(&app, "game_events", &table.id), 0);
    assert_eq!(rows_of(&app, "game_archives", &table.id), 1);
    // A second run of the job (a repeat after a crash) changes nothing.
    use diesel::Connection;
    let mut conn = diesel::PgConnection::establish(&app.db_url).unwrap();
    let id = uuid::Uuid::parse_str(&table.id).unwrap();
    herald::services::games::record::archive(&mut conn, id).unwrap();
    assert_eq!(rows_of(&app, "game_archives", &table.id), 1);

    // Everything seat 0 saw is still there, in order, now with what it could not see; and the
    // record reads the same from its rows and from its archive.
    let after = app.get(&path, None).await;
    assert_eq!(after.status, 200, "{}", after.text);
    assert_eq!(after.json, ended.json);
    let after = after.json.as_array().unwrap().clone();
    let before = before.as_array().unwrap();
    assert!(after.len() >= before.len());
    for entry in before {
        let same = after
            .iter()
            .find(|e| e["seq"] == entry["seq"])
            .unwrap_or_else(|| panic!("entry {} lost", entry["seq"]));
        assert_eq!(same["seat"], entry["seat"]);
        assert_eq!(same["created_at"], entry["created_at"]);
        if !entry["action"].is_null() {
            assert_eq!(same["action"], entry["action"]);
        }
        for event in entry["events"].as_array().unwrap() {
            assert!(
                same["events"].as_array().unwrap().contains(event),
                "event {event} of action {} lost",
                entry["seq"]
            );
        }
    }
    // Every action kept, and the resignation after them.
    let actions = after.iter().filter(|e| !e["action"].is_null()).count();
    assert_eq!(i64::try_from(actions).unwrap(), played + 1);
    // The archived actions replay to the stored state.
    let fair = app
        .get(&format!("/api/v1/games/{}/fairness", table.id), None)
        .await;
    assert_eq!(fair.json["replay_ok"], true, "{}", fair.text);
}

/// A server plays a move on the game as it kept it at the version it last stored, without reading
/// the game first. A move sent there at that version after another server moved the game on must
/// be refused as stale, as the game as stored says, and never stored over the other server's move.
/// (Its requests come within the second in which the first server plays on its copy; were they
/// slower, the server would read the game first and the answer must be the same.)
#[actix_web::test]
async fn a_move_at_a_version_another_server_moved_on_is_stale_there_too() {
    let app = spawn_app().await;
    let table = app.table().await;
    let other = app.second_server();
    let path = format!("/api/v1/games/{}/actions", table.id);
    let post = |base: &str, seat: usize, body: serde_json::Value| {
        let (base, token, path) = (base.to_owned(), table.tokens[seat].clone(), path.clone());
        let app = &app;
        async move {
            app.send_to(
                &base,
                Method::POST,
                &path,
                Some(&token),
                &[("Content-Type", "application/json")],
                Some(serde_json::to_vec(&body).unwrap()),
            )
            .await
        }
    };
    // A card play: the turn is still the mover's, and this server keeps the game at `kept`.
    let (seat, g) = app.mover(&table).await;
    let play = g["legal_actions"][0].clone();
    let r = post(
        &app.base,
        seat,
        json!({"expected_version": g["version"], "actions": [play]}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let kept = r.json["version"].as_i64().unwrap();
    let next = r.json["legal_actions"][0].clone();
    // The same seat goes on through the other server.
    let r = post(
        &other,
        seat,
        json!({"expected_version": kept, "actions": [next]}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let moved = r.json.clone();
    // Back on the first server, at the version it kept: the game has moved on.
    let r = post(
        &app.base,
        seat,
        json!({"expected_version": kept, "actions": [next]}),
    )
    .await;
    r.assert_problem(409, "stale_version");
    assert_eq!(r.json["version"], kept + 1, "{}", r.text);
    // Nothing was stored: both servers show the other server's move as the last.
    for base in [app.base.clone(), other.clone()] {
        let g = app
            .send_to(
                &base,
                Method::GET,
                &format!("/api/v1/games/{}", table.id),
                Some(&table.tokens[seat]),
                &[],
                None,
            )
            .await;
        assert_eq!(g.json["version"], moved["version"], "{base}");
        assert_eq!(g.json["view"], moved["view"], "{base}");
    }
    // The two moves stored, the refused one not.
    let history = app
        .get(
            &format!("/api/v1/games/{}/history", table.id),
            Some(&table.tokens[seat]),
        )
        .await;
    assert_eq!(history.status, 200, "{}", history.text);
    let entries = history.json.as_array().unwrap();
    let actions = entries.iter().filter(|e| !e["action"].is_null()).count();
    assert_eq!(actions, 2, "{}", history.text);
}

/// What a server keeps of a game between moves includes its seats, some of whose columns change
/// without the game's version: a player going on vacation is one. The answer to a move may show
/// them as kept for at most a second (`KEPT_HEAD_FRESH`); after that it reads them again.
#[actix_web::test]
async fn the_answer_to_a_move_shows_the_opponent_gone_on_vacation_a_second_later() {
    let app = spawn_app().await;
    let table = app.table().await;
    let (seat, g) = app.mover(&table).await;
    let play = g["legal_actions"][0].clone();
    let r = app
        .submit(&table, seat, g["version"].as_i64().unwrap(), json!([play]))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let away = app
        .post(
            "/api/v1/me/vacation",
            Some(&table.tokens[1 - seat]),
            json!({}),
        )
        .await;
    assert_eq!(away.status, 201, "{}", away.text);
    actix_web::rt::time::sleep(std::time::Duration::from_millis(1100)).await;
    let end = r.json["legal_actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] == "end")
        .expect("the turn may end after its card play (MAG-TURN-4)")
        .clone();
    let r = app
        .submit(
            &table,
            seat,
            r.json["version"].as_i64().unwrap(),
            json!([end]),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let opponent = &r.json["seats"][1 - seat];
    assert_eq!(opponent["pending"], true, "{}", r.text);
    assert_eq!(opponent["on_vacation"], true, "{}", r.text);
}

/// Each server keeps the state of the last version of a game it stored or read, so that the next
/// move reads and parses none. Two servers on one database: each player moves on their own and
/// reads on the other, so every move is made on a server whose kept state is older than the
/// game's. It must play on the game's latest state all the same: every move is accepted as
/// listed, both servers then show the same game, and the record replays.
#[actix_web::test]
async fn moves_alternating_between_two_servers_each_play_on_the_latest_state() {
    let app = spawn_app().await;
    let table = app.table().await;
    let bases = [app.base.clone(), app.second_server()];
    let read = |seat: usize, base: usize| {
        let path = format!("/api/v1/games/{}", table.id);
        let token = table.tokens[seat].clone();
        let base = bases[base].clone();
        let app = &app;
        async move {
            let r = app
                .send_to(&base, Method::GET, &path, Some(&token), &[], None)
                .await;
            assert_eq!(r.status, 200, "{}", r.text);
            r.json
        }
    };
    let mut dice = crate::helpers::Dice::new(5);
    let mut moves = 0;
    let mut last = json!(null);
    while moves < 40 {
        let mut mover = None;
        for seat in 0..2 {
            let g = read(seat, 1 - seat).await;
            if !g["legal_actions"].as_array().unwrap().is_empty() {
                mover = Some((seat, g));
                break;
            }
        }
        let Some((seat, g)) = mover else { break };
        let legal = g["legal_actions"].as_array().unwrap();
        let action = &legal[dice.below(legal.len())];
        let body = json!({"expected_version": g["version"], "actions": [action]});
        let r = app
            .send_to(
                &bases[seat],
                Method::POST,
                &format!("/api/v1/games/{}/actions", table.id),
                Some(&table.tokens[seat]),
                &[("Content-Type", "application/json")],
                Some(serde_json::to_vec(&body).unwrap()),
            )
            .await;
        assert_eq!(r.status, 200, "move {moves}: {}", r.text);
        assert_eq!(r.json["version"], g["version"].as_i64().unwrap() + 1);
        moves += 1;
        last = r.json;
        if last["status"] != "active" {
            break;
        }
    }
    assert!(moves >= 20, "only {moves} moves were played");
    let seat = last["you"]["seat"].as_u64().unwrap() as usize;
    for base in 0..2 {
        assert_eq!(read(seat, base).await, last, "server {base}");
    }
    let r = app.resign(&table, 0).await;
    assert!(r.status == 200 || r.status == 409, "{}", r.text);
    let fair = app
        .get(&format!("/api/v1/games/{}/fairness", table.id), None)
        .await;
    assert_eq!(fair.json["replay_ok"], true, "{}", fair.text);
}

/// The database's own checks of what a move writes (domains since 2026-12-02, table constraints
/// before) still refuse what the server never writes: an unknown status (bound as text, as the
/// write statement binds it), a seed that is not 32 bytes, nine seats, an account event of no
/// known kind; and nothing refused is stored.
#[actix_web::test]
async fn the_database_refuses_a_game_row_or_account_event_outside_its_checks() {
    use diesel::prelude::*;
    use diesel::result::{DatabaseErrorKind, Error};
    use diesel::sql_types::{BigInt, Integer, SmallInt, Text};
    let app = spawn_app().await;
    let table = app.table().await;
    let mut conn = diesel::PgConnection::establish(&app.db_url).unwrap();
    let id = &table.id;
    let refusals = [
        (
            "an unknown status",
            diesel::sql_query(format!("UPDATE games SET status = $1 WHERE id = '{id}'"))
                .bind::<Text, _>("paused")
                .execute(&mut conn),
        ),
        (
            "a seed of one byte",
            diesel::sql_query(format!(
                "UPDATE games SET seed = '\\x00'::bytea WHERE id = '{id}'"
            ))
            .execute(&mut conn),
        ),
        (
            "nine seats",
            diesel::sql_query(format!(
                "UPDATE games SET seat_count = $1 WHERE id = '{id}'"
            ))
            .bind::<SmallInt, _>(9)
            .execute(&mut conn),
        ),
        (
            "an account event of no known kind",
            diesel::sql_query(format!(
                "INSERT INTO account_events (user_id, seq, kind, game_id, data) \
                 SELECT created_by, 1000, $1, id, '{{}}' FROM games WHERE id = '{id}'"
            ))
            .bind::<Text, _>("moved")
            .execute(&mut conn),
        ),
    ];
    for (what, refused) in refusals {
        assert!(
            matches!(
                refused,
                Err(Error::DatabaseError(DatabaseErrorKind::CheckViolation, _))
            ),
            "{what}: {refused:?}"
        );
    }
    #[derive(QueryableByName, Debug, PartialEq)]
    struct Stored {
        #[diesel(sql_type = Text)]
        status: String,
        #[diesel(sql_type = Integer)]
        seed_bytes: i32,
        #[diesel(sql_type = SmallInt)]
        seat_count: i16,
        #[diesel(sql_type = BigInt)]
        strays: i64,
    }
    let stored: Stored = diesel::sql_query(format!(
        "SELECT status, octet_length(seed) AS seed_bytes, seat_count, \
           (SELECT count(*) FROM account_events WHERE seq = 1000) AS strays \
         FROM games WHERE id = '{id}'"
    ))
    .get_result(&mut conn)
    .unwrap();
    assert_eq!(
        stored,
        Stored {
            status: "active".into(),
            seed_bytes: 32,
            seat_count: 2,
            strays: 0
        }
    );
}
