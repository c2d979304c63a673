//! Whole games over HTTP: a complete Magnate game chosen from `legal_actions`, hidden
//! information, a 20-way race, and `herald verify`.

use crate::helpers::{Dice, spawn_app, strings, without_notation};
use serde_json::{Value, json};
use std::collections::BTreeSet;

#[actix_web::test]
async fn two_players_finish_a_magnate_game_over_http_and_verify_confirms_the_dice() {
    let app = spawn_app().await;
    let table = app.table().await;
    let mut dice = Dice::new(7);
    let mut steps = 0;
    let finished = loop {
        let g = app.game(&table, 0).await;
        if g["status"] != "active" {
            break g;
        }
        steps += 1;
        assert!(steps < 3000, "the game does not end");
        let (mover, g) = app.mover(&table).await;
        let legal = g["legal_actions"].as_array().unwrap();
        let choice = &legal[dice.below(legal.len())];
        // Half the time as listed (with notation), half without.
        let action = if steps % 2 == 0 {
            choice.clone()
        } else {
            without_notation(choice)
        };
        let r = app
            .submit(
                &table,
                mover,
                g["version"].as_i64().unwrap(),
                json!([action]),
            )
            .await;
        assert_eq!(
            r.status, 200,
            "a listed action was refused: {choice} -> {}",
            r.text
        );
    };
    assert_eq!(finished["status"], "finished");
    assert!(
        finished["outcome"]["winners"].is_array(),
        "{}",
        finished["outcome"]
    );
    assert_eq!(finished["legal_actions"], json!([]));
    // The end wrote one result per seat: places from the outcome, the district points as the
    // score and the MAG-TIE figures by name.
    let results = app.results(&table.id);
    assert_eq!(results.len(), 2, "{results:?}");
    let winners = finished["outcome"]["winners"].as_array().unwrap();
    for (seat, result) in results.iter().enumerate() {
        assert_eq!(result["seat"], seat);
        assert_eq!(result["reason"], "finished");
        assert_eq!(result["kind"], "magnate");
        let place = if winners.contains(&json!(seat)) { 1 } else { 2 };
        assert_eq!(result["place"], place, "{result}");
        assert_eq!(result["score"], result["tiebreaks"][0]["value"], "{result}");
        let names: Vec<&str> = result["tiebreaks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["district_points", "property_value", "tokens"]);
    }
    assert!(
        finished["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["pending"] == false)
    );

    let fair = app
        .get(&format!("/api/v1/games/{}/fairness", table.id), None)
        .await;
    assert_eq!(fair.json["replay_ok"], true, "{}", fair.text);

    let history = app
        .get(&format!("/api/v1/games/{}/history", table.id), None)
        .await;
    assert_eq!(history.status, 200);
    let entries = history.json.as_array().unwrap();
    assert_eq!(
        entries.len(),
        steps + 1,
        "the setup and every action, once the game is over"
    );
    assert!(
        entries[1..]
            .iter()
            .all(|e| e["action"]["notation"].is_string())
    );

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(["verify", &table.id])
        .env("DATABASE_URL", &app.db_url)
        .env(
            "DATA_DIR",
            std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("herald-verify-unused"),
        )
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("reproduces the stored state"), "{stdout}");
}

/// Every string one seat can read about the game right now: the game, its history, its list
/// entry, the fairness record, and the errors of a wrong move and an out-of-turn move.
async fn everything_seen_by(
    app: &crate::helpers::TestApp,
    table: &crate::helpers::Table,
    seat: usize,
    version: i64,
) -> BTreeSet<String> {
    let token = Some(table.tokens[seat].as_str());
    let mut seen = BTreeSet::new();
    for path in [
        format!("/api/v1/games/{}", table.id),
        format!("/api/v1/games/{}/history", table.id),
        format!("/api/v1/games/{}/fairness", table.id),
        "/api/v1/games".to_owned(),
    ] {
        strings(&app.get(&path, token).await.json, &mut seen);
    }
    for actions in [
        json!([{"type": "sell", "card": "PMYK"}]),
        json!([{"type": "end"}, {"type": "end"}]),
    ] {
        let r = app.submit(table, seat, version, actions).await;
        strings(&r.json, &mut seen);
        seen.insert(r.text);
    }
    seen
}

#[actix_web::test]
async fn no_response_to_one_player_shows_the_other_hand_preferences_or_the_seed() {
    let app = spawn_app().await;
    let table = app.table().await;
    let mut dice = Dice::new(3);
    let mut preferences = 0;
    for step in 0..40 {
        let views = [app.game(&table, 0).await, app.game(&table, 1).await];
        if views[0]["status"] != "active" {
            break;
        }
        let version = views[0]["version"].as_i64().unwrap();
        for seat in 0..2 {
            let other = 1 - seat;
            let hand: Vec<String> = views[other]["view"]["players"][other]["hand"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_owned())
                .collect();
            let seen = everything_seen_by(&app, &table, seat, version).await;
            for card in &hand {
                assert!(
                    !seen.contains(card),
                    "seat {seat} can see {card} in seat {other}'s hand"
                );
            }
            // The other seat's preferences appear in its own view only.
            let prefs = views[other]["view"]["districts"].to_string();
            let mine_seen = views[seat]["view"]["districts"].to_string();
            if prefs.contains("\"prefer\"") {
                let my_columns: Vec<&Value> = views[seat]["view"]["districts"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|d| &d["columns"][other])
                    .collect();
                assert!(
                    !serde_json::to_string(&my_columns)
                        .unwrap()
                        .contains("\"prefer\""),
                    "seat {seat} sees seat {other}'s preference: {mine_seen}"
                );
            }
            let seed_hidden = app
                .get(
                    &format!("/api/v1/games/{}/fairness", table.id),
                    Some(&table.tokens[seat]),
                )
                .await;
            assert!(seed_hidden.json.get("seed").is_none());
        }
        let (mover, g) = app.mover(&table).await;
        let legal = g["legal_actions"].as_array().unwrap();
        let mut actions = vec![without_notation(&legal[dice.below(legal.len())])];
        // Now and then the waiting player sets a (secret) income preference out of turn.
        if step % 3 == 0 {
            let other = 1 - mover;
            if app.prefer_on_a_deed(&table, other).await {
                preferences += 1;
                let history = app
                    .get(
                        &format!("/api/v1/games/{}/history", table.id),
                        Some(&table.tokens[mover]),
                    )
                    .await;
                let leaked = history.json.as_array().unwrap().iter().any(|e| {
                    e["seat"] == json!(other)
                        && (e["action"]["type"] == "prefer"
                            || e["events"].to_string().contains("prefer"))
                });
                assert!(
                    !leaked,
                    "seat {other}'s preference shows in seat {mover}'s history"
                );
                let g = app.game(&table, mover).await;
                actions = vec![without_notation(&g["legal_actions"][0])];
                let r = app
                    .submit(
                        &table,
                        mover,
                        g["version"].as_i64().unwrap(),
                        json!(actions),
                    )
                    .await;
                assert_eq!(r.status, 200, "{}", r.text);
                continue;
            }
        }
        let r = app
            .submit(
                &table,
                mover,
                g["version"].as_i64().unwrap(),
                json!(actions),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    assert!(
        preferences > 0,
        "the test set no preference: choose another seed"
    );
}

#[actix_web::test]
async fn twenty_racing_submissions_of_the_same_turn_store_exactly_one() {
    let app = spawn_app().await;
    let table = app.table().await;
    let (mover, g) = app.mover(&table).await;
    let version = g["version"].as_i64().unwrap();
    let action = without_notation(&g["legal_actions"][0]);
    let racers = (0..20).map(|_| app.submit(&table, mover, version, json!([action.clone()])));
    let replies = futures_util::future::join_all(racers).await;
    let won = replies.iter().filter(|r| r.status == 200).count();
    assert_eq!(
        won,
        1,
        "{:?}",
        replies.iter().map(|r| r.status).collect::<Vec<_>>()
    );
    for r in replies.iter().filter(|r| r.status != 200) {
        r.assert_problem(409, "stale_version");
        assert_eq!(r.json["version"], version + 1);
    }
    let after = app.game(&table, mover).await;
    assert_eq!(after["version"], version + 1);
    let history = app
        .get(
            &format!("/api/v1/games/{}/history", table.id),
            Some(&table.tokens[mover]),
        )
        .await;
    assert_eq!(
        history.json.as_array().unwrap().len(),
        2,
        "the setup and one action"
    );
}

/// What a stored move writes, counted: actions, game events, jobs, account events, the
/// accounts' counters, webhook deliveries.
fn written(conn: &mut diesel::PgConnection) -> Vec<i64> {
    use diesel::RunQueryDsl;
    diesel::select(diesel::dsl::sql::<
        diesel::sql_types::Array<diesel::sql_types::BigInt>,
    >(
        "ARRAY[(SELECT count(*) FROM game_actions), (SELECT count(*) FROM game_events), \
         (SELECT count(*) FROM jobs), (SELECT count(*) FROM account_events), \
         (SELECT coalesce(sum(last), 0)::bigint FROM account_event_counters), \
         (SELECT count(*) FROM webhook_deliveries)]",
    ))
    .get_result(conn)
    .unwrap()
}

/// A move read while another transaction holds the game row with its version moved: the
/// move's write waits for that transaction's end (seen in `pg_stat_activity`), which then
/// commits (`true`) or rolls back. Returns the move's answer, the version before, and what was
/// written before and after.
async fn move_beside_an_open_writer(
    commit: bool,
) -> (crate::helpers::Reply, i64, Vec<i64>, Vec<i64>) {
    use diesel::connection::SimpleConnection;
    use diesel::{Connection, PgConnection, RunQueryDsl};
    let app = spawn_app().await;
    let table = app.table().await;
    let (mover, g) = app.mover(&table).await;
    let version = g["version"].as_i64().unwrap();
    let action = without_notation(&g["legal_actions"][0]);
    let mut other = PgConnection::establish(&app.db_url).unwrap();
    let mut watch = PgConnection::establish(&app.db_url).unwrap();
    let before = written(&mut watch);
    other
        .batch_execute(&format!(
            "BEGIN; UPDATE games SET version = version + 1 WHERE id = '{}'",
            table.id
        ))
        .unwrap();
    let submitted = app.submit(&table, mover, version, json!([action]));
    let release = async {
        let mut waiting = || {
            diesel::select(diesel::dsl::sql::<diesel::sql_types::BigInt>(
                "(SELECT count(*) FROM pg_stat_activity \
                  WHERE wait_event_type = 'Lock' AND datname = current_database())",
            ))
            .get_result::<i64>(&mut watch)
            .unwrap()
        };
        let mut waited = 0;
        while waiting() == 0 {
            waited += 1;
            assert!(
                waited < 500,
                "the move's write never waited for the open writer"
            );
            actix_web::rt::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        other
            .batch_execute(if commit { "COMMIT" } else { "ROLLBACK" })
            .unwrap();
    };
    let (reply, ()) = futures_util::future::join(submitted, release).await;
    let after = written(&mut watch);
    (reply, version, before, after)
}

#[actix_web::test]
async fn a_move_whose_version_moved_before_its_write_is_refused_as_stale_and_writes_nothing() {
    let (reply, version, before, after) = move_beside_an_open_writer(true).await;
    reply.assert_problem(409, "stale_version");
    assert_eq!(reply.json["version"], version + 1);
    assert_eq!(
        before, after,
        "actions, events, jobs, account events, counters, deliveries"
    );
}

#[actix_web::test]
async fn a_move_whose_write_waited_for_a_writer_that_rolled_back_is_stored_once() {
    let (reply, version, before, after) = move_beside_an_open_writer(false).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.json["version"], version + 1);
    assert_eq!(after[0], before[0] + 1, "one action stored");
    assert!(after[1] > before[1], "the move's game events");
}
