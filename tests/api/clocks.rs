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

/// Ada creates a Magnate game with `clock` inviting Bruno, who joins; Ada (seat 0) moves
/// first. Returns the game as Bruno sees it.
async fn clocked_game(app: &TestApp, tokens: &[String; 2], clock: Value) -> Value {
    let g = app
        .post(
            "/api/v1/games",
            Some(&tokens[0]),
            json!({"kind": "magnate", "options": {"start_player": "first_seat"},
                   "invite": ["bruno@example.test"], "clock": clock}),
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
        json!({"type": "per_move", "seconds": 259200, "drop_after": 3, "vacation_allowed": true})
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
    actix_web::rt::time::sleep(Duration::from_millis(1200)).await;
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
    actix_web::rt::time::sleep(Duration::from_millis(1500)).await;
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
    actix_web::rt::time::sleep(Duration::from_millis(
        u64::try_from((first - Utc::now()).num_milliseconds().max(0)).unwrap() + 100,
    ))
    .await;
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
    actix_web::rt::time::sleep(Duration::from_millis(1500)).await;
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

pub fn jobs_of_kind(app: &TestApp, kind: &str) -> usize {
    #[derive(diesel::QueryableByName)]
    struct Count {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let mut conn = PgConnection::establish(&app.db_url).unwrap();
    let c: Count = diesel::sql_query("SELECT count(*) AS n FROM jobs WHERE kind = $1")
        .bind::<diesel::sql_types::Text, _>(kind)
        .get_result(&mut conn)
        .unwrap();
    usize::try_from(c.n).unwrap()
}

#[actix_web::test]
async fn vacation_holds_off_the_timeout_and_moves_the_deadline_by_the_time_away() {
    let app = spawn_app().await;
    let tokens = players(&app).await;
    let g = clocked_game(&app, &tokens, json!({"type": "per_move", "seconds": 1})).await;
    let id = g["id"].as_str().unwrap().to_owned();
    let seat = pending_seat(&g);
    let away = &tokens[seat];
    let v = app.get("/api/v1/me/vacation", Some(away)).await;
    assert_eq!(v.status, 200, "{}", v.text);
    assert_eq!(
        v.json["days_available"], 7,
        "a new account starts with 7 days"
    );
    assert_eq!(v.json["on_vacation_since"], Value::Null);
    assert_eq!(v.json["auto"], false);

    let too_many = app
        .post("/api/v1/me/vacation", Some(away), json!({"days": 8}))
        .await;
    too_many.assert_problem(422, "validation_failed");
    let went = app.post("/api/v1/me/vacation", Some(away), json!({})).await;
    assert_eq!(went.status, 201, "{}", went.text);
    assert!(went.json["on_vacation_since"].is_string());
    let again = app.post("/api/v1/me/vacation", Some(away), json!({})).await;
    again.assert_problem(409, "conflict");
    assert_eq!(
        jobs_of_kind(&app, "email.vacation"),
        1,
        "the opponent is told"
    );

    // Everyone at the table sees why the deadline is not kept (the API and the page say so).
    let other = &tokens[1 - seat];
    let seen = app.get(&format!("/api/v1/games/{id}"), Some(other)).await;
    assert_eq!(
        seen.json["seats"][seat]["on_vacation"], true,
        "{}",
        seen.text
    );
    assert_eq!(seen.json["seats"][1 - seat]["on_vacation"], false);
    let cookie = crate::web::signed_in(
        &app,
        other,
        ["ada@example.test", "bruno@example.test"][1 - seat],
    )
    .await;
    let page = crate::web::page(&app, &format!("/play/{id}"), &cookie).await;
    assert!(
        page.text
            .contains("on vacation: the deadline waits for their return"),
        "{}",
        page.text
    );

    actix_web::rt::time::sleep(Duration::from_millis(2000)).await;
    let worker = worker(&app);
    assert_eq!(worker.time_out_due().unwrap(), 0, "no timeout while away");
    let before = deadline(&g["seats"][seat]).unwrap();
    let back = app
        .call(
            awc::http::Method::DELETE,
            "/api/v1/me/vacation",
            Some(away),
            None,
        )
        .await;
    assert_eq!(back.status, 200, "{}", back.text);
    assert_eq!(back.json["on_vacation_since"], Value::Null);
    let now = app.get(&format!("/api/v1/games/{id}"), Some(away)).await;
    assert_eq!(now.json["status"], "active");
    assert_eq!(now.json["seats"][seat]["on_vacation"], false);
    let after = deadline(&now.json["seats"][seat]).unwrap();
    let moved = (after - before).num_milliseconds();
    assert!(
        moved >= 1900,
        "the deadline moved by {moved} ms after 2 s away"
    );
    assert_eq!(
        worker.time_out_due().unwrap(),
        0,
        "the moved deadline is not due yet"
    );
    actix_web::rt::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(
        worker.time_out_due().unwrap(),
        1,
        "and it passes in its turn"
    );
}

#[actix_web::test]
async fn an_opted_in_player_goes_on_vacation_instead_of_timing_out() {
    let app = spawn_app().await;
    let tokens = players(&app).await;
    let g = clocked_game(&app, &tokens, json!({"type": "per_move", "seconds": 1})).await;
    let seat = pending_seat(&g);
    let r = app
        .call(
            awc::http::Method::PUT,
            "/api/v1/me/vacation",
            Some(&tokens[seat]),
            Some(json!({"auto": true})),
        )
        .await;
    assert_eq!(r.json["auto"], true, "{}", r.text);
    actix_web::rt::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(worker(&app).time_out_due().unwrap(), 0);
    let v = app.get("/api/v1/me/vacation", Some(&tokens[seat])).await;
    assert!(v.json["on_vacation_since"].is_string(), "{}", v.text);

    // A game whose clock forbids vacation times out all the same.
    let strict = clocked_game(
        &app,
        &tokens,
        json!({"type": "per_move", "seconds": 1, "vacation_allowed": false}),
    )
    .await;
    assert_eq!(strict["clock"]["vacation_allowed"], false);
    actix_web::rt::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(
        pending_seat(&strict),
        seat,
        "the player on vacation is to move"
    );
    assert_eq!(worker(&app).time_out_due().unwrap(), 1);
}

#[actix_web::test]
async fn a_reminder_comes_once_per_offset_and_never_after_the_seat_has_moved() {
    let app = spawn_app().await;
    let tokens = players(&app).await;
    for (token, offsets) in tokens.iter().zip([json!([2]), json!([])]) {
        let r = app
            .call(
                awc::http::Method::PUT,
                "/api/v1/me/notifications",
                Some(token),
                Some(json!({"reminders_seconds": offsets})),
            )
            .await;
        assert_eq!(r.json["reminders_seconds"], offsets, "{}", r.text);
        assert_eq!(r.json["mode"], "instant", "the mode stays as it was");
    }
    let bad = app
        .call(
            awc::http::Method::PUT,
            "/api/v1/me/notifications",
            Some(&tokens[0]),
            Some(json!({"reminders_seconds": [3600, 0]})),
        )
        .await;
    bad.assert_problem(422, "validation_failed");
    assert!(bad.text.contains("reminders_seconds[1]"), "{}", bad.text);

    let silent = clocked_game(&app, &tokens, json!({"type": "per_move", "seconds": 4})).await;
    let moving = clocked_game(&app, &tokens, json!({"type": "per_move", "seconds": 4})).await;
    let worker = worker(&app);
    assert_eq!(worker.schedule_reminders().unwrap(), 0, "not yet");
    // Ada ends her turn in the second game before its reminder is due (Bruno wants none).
    let id = moving["id"].as_str().unwrap();
    loop {
        let g = app
            .get(&format!("/api/v1/games/{id}"), Some(&tokens[0]))
            .await;
        let legal = g.json["legal_actions"].as_array().unwrap();
        let Some(action) = legal
            .iter()
            .find(|a| a["type"] == "end")
            .or_else(|| legal.iter().find(|a| a["type"] != "prefer"))
        else {
            break;
        };
        let r = app
            .post(
                &format!("/api/v1/games/{id}/actions"),
                Some(&tokens[0]),
                json!({"expected_version": g.json["version"], "actions": [action]}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let due = deadline(&silent["seats"][pending_seat(&silent)]).unwrap();
    let wait = (due - Utc::now()).num_milliseconds() - 1500;
    actix_web::rt::time::sleep(Duration::from_millis(u64::try_from(wait.max(0)).unwrap())).await;
    assert_eq!(
        worker.schedule_reminders().unwrap(),
        1,
        "the silent seat's reminder"
    );
    assert_eq!(worker.schedule_reminders().unwrap(), 0, "once");
    assert_eq!(jobs_of_kind(&app, "email.reminder"), 1);
}

#[actix_web::test]
async fn the_account_has_a_time_zone_that_must_be_an_iana_name() {
    let app = spawn_app().await;
    let token = app.user("ada@example.test", "Ada").await;
    let me = app.get("/api/v1/me", Some(&token)).await;
    assert_eq!(me.json["time_zone"], "UTC");
    let bad = app
        .call(
            awc::http::Method::PUT,
            "/api/v1/me",
            Some(&token),
            Some(json!({"time_zone": "Mars/Olympus_Mons"})),
        )
        .await;
    bad.assert_problem(422, "validation_failed");
    assert!(bad.text.contains("time_zone"), "{}", bad.text);
    let good = app
        .call(
            awc::http::Method::PUT,
            "/api/v1/me",
            Some(&token),
            Some(json!({"time_zone": "Europe/Madrid"})),
        )
        .await;
    assert_eq!(good.status, 200, "{}", good.text);
    let me = app.get("/api/v1/me", Some(&token)).await;
    assert_eq!(me.json["time_zone"], "Europe/Madrid");
}

#[actix_web::test]
async fn lancaster_seats_that_never_act_are_decided_by_default_then_dropped_after_three_timeouts() {
    let app = spawn_app().await;
    let tokens = [
        app.user("l0@example.test", "Lia").await,
        app.user("l1@example.test", "Leo").await,
        app.user("l2@example.test", "Lou").await,
    ];
    let g = app
        .post(
            "/api/v1/games",
            Some(&tokens[0]),
            json!({"kind": "lancaster", "invite": ["l1@example.test", "l2@example.test"],
                   "clock": {"type": "per_move", "seconds": 1}}),
        )
        .await;
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.json["id"].as_str().unwrap().to_owned();
    for token in &tokens[1..] {
        let r = app
            .post(&format!("/api/v1/games/{id}/join"), Some(token), json!({}))
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let start = app
        .get(&format!("/api/v1/games/{id}"), Some(&tokens[0]))
        .await;
    let seats = start.json["seats"].as_array().unwrap();
    assert!(
        seats
            .iter()
            .all(|s| s["pending"] == true && s["deadline"].is_string()),
        "every voter of the starting extensions has a deadline of its own: {seats:?}"
    );
    let worker = worker(&app);
    let mut dice = crate::helpers::Dice::new(3);
    let mut dropped = [false; 3];
    for _ in 0..400 {
        let g = app
            .get(&format!("/api/v1/games/{id}"), Some(&tokens[0]))
            .await;
        if g.json["status"] != "active" {
            break;
        }
        for (s, seat) in g.json["seats"].as_array().unwrap().iter().enumerate() {
            dropped[s] |= seat["dropped"] == true;
        }
        let legal = g.json["legal_actions"].as_array().unwrap();
        if !legal.is_empty() {
            let action = &legal[dice.below(legal.len())];
            let r = app
                .post(
                    &format!("/api/v1/games/{id}/actions"),
                    Some(&tokens[0]),
                    json!({"expected_version": g.json["version"], "actions": [action]}),
                )
                .await;
            assert!(r.status == 200 || r.status == 409, "{}", r.text);
        } else {
            std::thread::sleep(Duration::from_millis(300));
            worker.time_out_due().unwrap();
        }
        if dropped[1] && dropped[2] {
            break;
        }
    }
    assert!(dropped[1] && dropped[2], "both silent seats were dropped");
    let g = app
        .get(&format!("/api/v1/games/{id}"), Some(&tokens[0]))
        .await;
    assert_eq!(
        g.json["seats"][0]["dropped"], false,
        "the active player stays"
    );
    assert_eq!(g.json["seats"][0]["timeouts"], 0);
    for s in 1..3 {
        let timeouts = g.json["seats"][s]["timeouts"].as_u64().unwrap();
        assert!(
            timeouts >= 3,
            "dropped after the default three timeouts, not {timeouts}"
        );
    }
    // A dropped seat is due at once: one sweep leaves it pending no longer.
    worker.time_out_due().unwrap();
    let g = app
        .get(&format!("/api/v1/games/{id}"), Some(&tokens[0]))
        .await;
    if g.json["status"] == "active" {
        for s in 1..3 {
            let seat = &g.json["seats"][s];
            assert!(
                seat["pending"] == false || deadline(seat).unwrap() <= Utc::now(),
                "a dropped seat waits for nothing: {seat}"
            );
        }
    }
    let history = app
        .get(&format!("/api/v1/games/{id}/history"), Some(&tokens[0]))
        .await;
    assert!(history.text.contains("timed_out"), "{}", history.text);
}
