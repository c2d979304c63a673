//! Clocks over HTTP and a real worker: a clock is checked and shown, the pending seat has its
//! deadline, a silent Magnate player loses on time, a move and its timeout racing give exactly
//! one winner, and a deadline that passed while no worker ran is applied once by the next.

use crate::helpers::{TestApp, spawn_app};
use chrono::{DateTime, Utc};
use diesel::{Connection, PgConnection, RunQueryDsl};
use herald::domain::GameId;
use herald::engine::Seat;
use herald::jobs::Worker;
use serde_json::{Value, json};
use std::time::Duration;

/// Ada creates a Magnate game with `clock` inviting Bruno, who joins; returns the game and
/// both tokens.
async fn clocked_game(app: &TestApp, tokens: &[String; 2], clock: Value) -> Value {
    let g = app
        .post(
            "/api/v1/games",
            Some(&tokens[0]),
            json!({"kind": "magnate", "invite": ["bruno@example.test"], "clock": clock}),
        )
        .await;
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.json["id"].as_str().unwrap();
    let r = app
        .post(
            &format!("/api/v1/games/{id}/join"),
            Some(&tokens[1]),
            json!({}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json
}

async fn players(app: &TestApp) -> [String; 2] {
    [
        app.user("ada@example.test", "Ada").await,
        app.user("bruno@example.test", "Bruno").await,
    ]
}

fn pending_seat(game: &Value) -> usize {
    let seats = game["seats"].as_array().unwrap();
    let pending: Vec<usize> = (0..seats.len())
        .filter(|s| seats[*s]["pending"] == true)
        .collect();
    assert_eq!(pending.len(), 1, "{game}");
    pending[0]
}

fn deadline(seat: &Value) -> Option<DateTime<Utc>> {
    seat["deadline"].as_str().map(|d| d.parse().unwrap())
}

fn worker(app: &TestApp) -> Worker {
    Worker::new(&app.settings, herald::db::pool(&app.db_url, 2).unwrap()).unwrap()
}

#[actix_web::test]
async fn a_clock_shorter_than_the_minimum_or_malformed_is_refused_naming_the_field() {
    let app = spawn_app().await;
    let tokens = players(&app).await;
    let cases = [
        (json!({"type": "per_move", "seconds": 0}), "clock.seconds"),
        (json!({"type": "per_move"}), "clock.seconds"),
        (json!({"type": "sandglass"}), "clock.type"),
        (
            json!({"type": "fischer", "initial_seconds": 60, "increment_seconds": -1, "max_seconds": 60}),
            "clock.increment_seconds",
        ),
        (
            json!({"type": "per_move", "seconds": 60, "drop_after": 0}),
            "clock.drop_after",
        ),
    ];
    for (clock, field) in cases {
        let r = app
            .post(
                "/api/v1/games",
                Some(&tokens[0]),
                json!({"kind": "magnate", "invite": ["bruno@example.test"], "clock": clock}),
            )
            .await;
        r.assert_problem(422, "validation_failed");
        assert!(r.text.contains(field), "{clock}: {}", r.text);
    }
    let mine = app.get("/api/v1/games", Some(&tokens[0])).await;
    assert_eq!(mine.json, json!([]), "a refused game was created");
}

#[actix_web::test]
async fn the_game_shows_its_clock_and_only_the_pending_seat_has_a_deadline() {
    let app = spawn_app().await;
    let tokens = players(&app).await;
    let g = clocked_game(&app, &tokens, Value::Null).await;
    assert_eq!(
        g["clock"],
        json!({"type": "per_move", "seconds": 259200, "drop_after": 3})
    );
    let seat = pending_seat(&g);
    let seats = g["seats"].as_array().unwrap();
    let due = deadline(&seats[seat]).expect("the pending seat has a deadline");
    let left = (due - Utc::now()).num_seconds();
    assert!((259_100..=259_200).contains(&left), "{left} s left");
    assert_eq!(seats[1 - seat]["deadline"], Value::Null);
    for s in seats {
        assert_eq!(s["timeouts"], 0);
        assert_eq!(s["dropped"], false);
        assert_eq!(s["bank_seconds"], Value::Null);
    }

    let none = clocked_game(&app, &tokens, json!({"type": "none"})).await;
    assert!(
        none["seats"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["deadline"].is_null()),
        "{none}"
    );

    let fischer = json!({"type": "fischer", "initial_seconds": 600, "increment_seconds": 30, "max_seconds": 900});
    let f = clocked_game(&app, &tokens, fischer).await;
    assert_eq!(f["clock"]["type"], "fischer");
    for s in f["seats"].as_array().unwrap() {
        assert_eq!(s["bank_seconds"], 600, "{s}");
    }
    let seat = pending_seat(&f);
    let due = deadline(&f["seats"][seat]).unwrap();
    assert!((due - Utc::now()).num_seconds() <= 600);
}

#[actix_web::test]
async fn a_silent_player_loses_a_magnate_game_on_time_and_the_record_replays() {
    let app = spawn_app().await;
    let tokens = players(&app).await;
    let g = clocked_game(&app, &tokens, json!({"type": "per_move", "seconds": 1})).await;
    let id = g["id"].as_str().unwrap().to_owned();
    let late = pending_seat(&g);
    let worker = worker(&app);
    assert_eq!(worker.time_out_due().unwrap(), 0, "nothing is due yet");
    std::thread::sleep(Duration::from_millis(1200));
    assert_eq!(worker.time_out_due().unwrap(), 1);
    assert_eq!(
        worker.time_out_due().unwrap(),
        0,
        "a timeout is applied once"
    );

    let done = app
        .get(&format!("/api/v1/games/{id}"), Some(&tokens[0]))
        .await;
    assert_eq!(done.json["status"], "finished", "{}", done.text);
    assert_eq!(done.json["outcome"]["reason"], "timeout");
    assert_eq!(done.json["outcome"]["winners"], json!([1 - late]));
    assert_eq!(done.json["outcome"]["timed_out"], late);
    assert_eq!(done.json["seats"][late]["timeouts"], 1);
    assert!(done.json["seats"][late]["deadline"].is_null());

    let results = app.results(&id);
    let by_seat: Vec<(Value, Value)> = results
        .iter()
        .map(|r| (r["place"].clone(), r["reason"].clone()))
        .collect();
    let mut expected = vec![(json!(1), json!("timeout")); 2];
    expected[late] = (json!(2), json!("timeout"));
    assert_eq!(by_seat, expected);

    let history = app.get(&format!("/api/v1/games/{id}/history"), None).await;
    assert!(history.text.contains("timed_out"), "{}", history.text);
    let fair = app.get(&format!("/api/v1/games/{id}/fairness"), None).await;
    assert_eq!(fair.json["replay_ok"], true, "{}", fair.text);
}

#[actix_web::test]
async fn a_move_just_before_the_deadline_is_stored_and_the_deadline_moves_on() {
    let app = spawn_app().await;
    let tokens = players(&app).await;
    let g = clocked_game(&app, &tokens, json!({"type": "per_move", "seconds": 3})).await;
    let id = g["id"].as_str().unwrap().to_owned();
    let seat = pending_seat(&g);
    let first = deadline(&g["seats"][seat]).unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let now = app
        .get(&format!("/api/v1/games/{id}"), Some(&tokens[seat]))
        .await;
    let action = now.json["legal_actions"][0].clone();
    let r = app
        .post(
            &format!("/api/v1/games/{id}/actions"),
            Some(&tokens[seat]),
            json!({"expected_version": now.json["version"], "actions": [action]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let next = pending_seat(&r.json);
    let moved = deadline(&r.json["seats"][next]).unwrap();
    assert!(moved > first, "the deadline moved on: {first} -> {moved}");
    std::thread::sleep(Duration::from_millis(
        u64::try_from((first - Utc::now()).num_milliseconds().max(0)).unwrap() + 100,
    ));
    worker(&app).time_out_due().unwrap();
    let still = app
        .get(&format!("/api/v1/games/{id}"), Some(&tokens[0]))
        .await;
    assert_eq!(
        still.json["status"], "active",
        "the old deadline no longer counts"
    );
}

/// Makes the pending seat of `game` due now, as if its deadline had just passed.
fn make_due(conn: &mut PgConnection, game: &str) {
    diesel::sql_query(
        "UPDATE game_seats SET deadline = now() WHERE game_id = $1::uuid AND is_pending",
    )
    .bind::<diesel::sql_types::Text, _>(game)
    .execute(conn)
    .unwrap();
}

#[actix_web::test]
async fn two_hundred_races_of_a_move_against_its_timeout_each_have_exactly_one_winner() {
    let app = spawn_app().await;
    let tokens = players(&app).await;
    let mut conn = PgConnection::establish(&app.db_url).unwrap();
    let (mut moves, mut timeouts) = (0, 0);
    for race in 0..200u64 {
        let g = clocked_game(&app, &tokens, json!({"type": "per_move", "seconds": 3600})).await;
        let id = g["id"].as_str().unwrap().to_owned();
        let seat = pending_seat(&g);
        let mine = app
            .get(&format!("/api/v1/games/{id}"), Some(&tokens[seat]))
            .await;
        let body = json!({"expected_version": mine.json["version"], "actions": [mine.json["legal_actions"][0]]});
        make_due(&mut conn, &id);
        let url = app.db_url.clone();
        let game = GameId(id.parse().unwrap());
        let (go, ready) = std::sync::mpsc::channel::<()>();
        let timeout = std::thread::spawn(move || {
            let mut conn = PgConnection::establish(&url).unwrap();
            ready.recv().unwrap();
            herald::services::games::time_out(&mut conn, game, Seat(u8::try_from(seat).unwrap()))
                .unwrap()
        });
        // Connected first, released together; the move leaves 0-3 ms later so both sides win
        // some races.
        std::thread::sleep(Duration::from_millis(20));
        go.send(()).unwrap();
        std::thread::sleep(Duration::from_millis(race % 4));
        let moved = app
            .post(
                &format!("/api/v1/games/{id}/actions"),
                Some(&tokens[seat]),
                body,
            )
            .await;
        let timed_out = timeout.join().unwrap();
        let after = app
            .get(&format!("/api/v1/games/{id}"), Some(&tokens[0]))
            .await;
        match (moved.status, timed_out) {
            (200, false) => {
                moves += 1;
                assert_eq!(after.json["status"], "active", "{}", after.text);
            }
            (409, true) => {
                timeouts += 1;
                assert_eq!(after.json["outcome"]["reason"], "timeout", "{}", after.text);
            }
            other => panic!(
                "not exactly one winner: {other:?} {} / {}",
                moved.text, after.text
            ),
        }
    }
    println!("races won by the move: {moves}, by the timeout: {timeouts}");
    assert!(moves > 0 && timeouts > 0, "both sides won some races");
}

#[actix_web::test]
async fn a_deadline_that_passed_while_no_worker_ran_is_applied_once_by_the_next_workers() {
    let app = spawn_app().await;
    let tokens = players(&app).await;
    let g = clocked_game(&app, &tokens, json!({"type": "per_move", "seconds": 1})).await;
    let id = g["id"].as_str().unwrap().to_owned();
    std::thread::sleep(Duration::from_millis(1500));
    // Two fresh workers (a restarted server and a `herald worker` beside it) sweep at once.
    let sweeps: Vec<_> = (0..2)
        .map(|_| {
            let w = worker(&app);
            std::thread::spawn(move || w.time_out_due().unwrap())
        })
        .collect();
    let applied: usize = sweeps.into_iter().map(|s| s.join().unwrap()).sum();
    assert_eq!(applied, 1);
    let history = app.get(&format!("/api/v1/games/{id}/history"), None).await;
    assert_eq!(
        history.text.matches("timed_out").count(),
        1,
        "{}",
        history.text
    );
}

#[actix_web::test]
async fn my_turn_lists_the_nearest_deadline_first() {
    let app = spawn_app().await;
    let tokens = players(&app).await;
    let mut ids = Vec::new();
    for seconds in [7200, 3600, 10800] {
        let g = clocked_game(
            &app,
            &tokens,
            json!({"type": "per_move", "seconds": seconds}),
        )
        .await;
        ids.push((
            seconds,
            g["id"].as_str().unwrap().to_owned(),
            pending_seat(&g),
        ));
    }
    for (seat, token) in tokens.iter().enumerate() {
        let mine = app.get("/api/v1/games?my_turn=true", Some(token)).await;
        let listed: Vec<&str> = mine
            .json
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap())
            .collect();
        let mut expected: Vec<&(i32, String, usize)> =
            ids.iter().filter(|(_, _, s)| *s == seat).collect();
        expected.sort_by_key(|(seconds, _, _)| *seconds);
        let expected: Vec<&str> = expected.iter().map(|(_, id, _)| id.as_str()).collect();
        assert_eq!(listed, expected);
    }
}
