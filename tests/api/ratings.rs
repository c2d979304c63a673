//! Ratings over HTTP (design.md section 16): rated games move the players' ratings once, unrated
//! and aborted games never do, a retried or racing end counts once, the public profile and the
//! leaderboard show no private data, and `herald ratings rebuild` gives back exactly the stored
//! values.

use crate::helpers::{Dice, TestApp, spawn_app, strings, without_notation};
use crate::web::page;
use diesel::{Connection, PgConnection, RunQueryDsl};
use serde_json::{Value, json};

/// Registers `name` (address `name@example.test`, lower case); returns the token and the id.
async fn player(app: &TestApp, name: &str) -> (String, String) {
    let email = format!("{}@example.test", name.to_lowercase());
    let token = app.user(&email, name).await;
    let me = app.get("/api/v1/me", Some(&token)).await;
    (token, me.json["id"].as_str().unwrap().to_owned())
}

/// A started game of `kind`: the host invites the guests (by name), they join. Returns its id.
async fn started(
    app: &TestApp,
    kind: &str,
    host: &str,
    guests: &[(&str, &str)],
    rated: Option<bool>,
) -> String {
    let invite: Vec<String> = guests
        .iter()
        .map(|(name, _)| format!("{}@example.test", name.to_lowercase()))
        .collect();
    let mut body = json!({"kind": kind, "invite": invite});
    if let Some(rated) = rated {
        body["rated"] = json!(rated);
    }
    let g = app.post("/api/v1/games", Some(host), body).await;
    assert_eq!(g.status, 201, "{}", g.text);
    assert_eq!(g.json["rated"], json!(rated.unwrap_or(false)));
    let id = g.json["id"].as_str().unwrap().to_owned();
    for (_, token) in guests {
        let r = app
            .post(&format!("/api/v1/games/{id}/join"), Some(token), json!({}))
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    id
}

async fn resign(app: &TestApp, game: &str, token: &str) -> u16 {
    app.post(
        &format!("/api/v1/games/{game}/resign"),
        Some(token),
        json!({}),
    )
    .await
    .status
}

/// The public profile, read without a token.
async fn profile(app: &TestApp, id: &str) -> Value {
    let r = app.get(&format!("/api/v1/players/{id}"), None).await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json
}

async fn rating(app: &TestApp, id: &str, kind: &str) -> Value {
    profile(app, id).await["ratings"][kind].clone()
}

async fn history(app: &TestApp, id: &str, kind: &str) -> Vec<Value> {
    let r = app
        .get(
            &format!("/api/v1/players/{id}/ratings/{kind}/history"),
            None,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    r.json.as_array().unwrap().clone()
}

/// The rows of a query as one JSON array (`SELECT ... ` wrapped in `json_agg`).
fn rows(app: &TestApp, select: &str) -> Value {
    #[derive(diesel::QueryableByName)]
    struct Rows {
        #[diesel(sql_type = diesel::sql_types::Text)]
        json: String,
    }
    let mut conn = PgConnection::establish(&app.db_url).unwrap();
    let rows: Rows = diesel::sql_query(format!(
        "SELECT coalesce(json_agg(t), '[]')::text AS json FROM ({select}) t"
    ))
    .get_result(&mut conn)
    .unwrap();
    serde_json::from_str(&rows.json).unwrap()
}

fn execute(app: &TestApp, sql: &str) {
    let mut conn = PgConnection::establish(&app.db_url).unwrap();
    diesel::sql_query(sql).execute(&mut conn).unwrap();
}

/// Every stored rating and history row (without the history's serial numbers), in a fixed order.
fn stored(app: &TestApp) -> (Value, Value) {
    (
        rows(app, "SELECT * FROM ratings ORDER BY user_id, kind"),
        rows(
            app,
            "SELECT user_id, kind, game_id, at, rating_before, deviation_before, volatility_before, \
               mu_before, sigma_before, rating_after, deviation_after, volatility_after, mu_after, \
               sigma_after FROM rating_history ORDER BY seq",
        ),
    )
}

fn near(value: &Value, want: f64) -> bool {
    value.as_f64().is_some_and(|v| (v - want).abs() < 0.051)
}

#[actix_web::test]
async fn a_rated_magnate_game_ended_by_resignation_gives_the_first_glicko2_step() {
    let app = spawn_app().await;
    let (ada, ada_id) = player(&app, "Ada").await;
    let (bruno, bruno_id) = player(&app, "Bruno").await;
    assert_eq!(profile(&app, &ada_id).await["ratings"], json!({}));
    let game = started(&app, "magnate", &ada, &[("Bruno", &bruno)], Some(true)).await;
    assert_eq!(resign(&app, &game, &bruno).await, 200);

    // From 1500 / 350 / 0.06 each, one game as its own rating period (Glickman 2012).
    let winner = rating(&app, &ada_id, "magnate").await;
    let loser = rating(&app, &bruno_id, "magnate").await;
    assert!(
        near(&winner["rating"], 1662.3) && near(&winner["deviation"], 290.3),
        "{winner}"
    );
    assert!(
        near(&loser["rating"], 1337.7) && near(&loser["deviation"], 290.3),
        "{loser}"
    );
    assert!(
        (winner["volatility"].as_f64().unwrap() - 0.06).abs() < 1e-4,
        "{winner}"
    );
    assert_eq!(winner["games"], 1);
    assert_eq!(winner["provisional"], true);
    assert!(winner.get("mu").is_none(), "Glicko-2 has no mu: {winner}");

    let h = history(&app, &ada_id, "magnate").await;
    assert_eq!(h.len(), 1, "{h:?}");
    assert_eq!(h[0]["game_id"], json!(game));
    assert!(near(&h[0]["change"], 162.3), "{:?}", h[0]);

    // The game says it was rated, and shows each player's rating beside the seat.
    let g = app.get(&format!("/api/v1/games/{game}"), None).await;
    assert_eq!(g.json["rated"], true);
    assert!(
        near(&g.json["seats"][0]["rating"]["rating"], 1662.3),
        "{}",
        g.text
    );
    assert_eq!(g.json["seats"][0]["rating"]["provisional"], true);

    // The profile lists the game as a rated result.
    let p = profile(&app, &bruno_id).await;
    let result = &p["recent_results"][0];
    assert_eq!(result["game_id"], json!(game));
    assert_eq!(
        (result["place"].clone(), result["reason"].clone()),
        (json!(2), json!("resigned"))
    );
    assert_eq!(result["rated"], true);
    assert!(near(&result["rating_change"], -162.3), "{result}");

    // Two provisional players: nobody on the leaderboard yet.
    let board = app.get("/api/v1/ratings/magnate", None).await;
    assert_eq!(board.status, 200, "{}", board.text);
    assert_eq!(board.json, json!([]));
}

#[actix_web::test]
async fn a_rated_magnate_game_played_to_the_end_moves_both_ratings() {
    let app = spawn_app().await;
    let (ada, ada_id) = player(&app, "Ada").await;
    let (bruno, bruno_id) = player(&app, "Bruno").await;
    let game = started(&app, "magnate", &ada, &[("Bruno", &bruno)], Some(true)).await;
    let tokens = [ada, bruno];
    let mut dice = Dice::new(3);
    let finished = loop {
        let mut mover = None;
        for (seat, token) in tokens.iter().enumerate() {
            let g = app.get(&format!("/api/v1/games/{game}"), Some(token)).await;
            if g.json["status"] != "active" {
                break;
            }
            if !g.json["legal_actions"].as_array().unwrap().is_empty() {
                mover = Some((seat, g.json));
                break;
            }
        }
        let Some((seat, g)) = mover else {
            break app.get(&format!("/api/v1/games/{game}"), None).await.json;
        };
        let legal = g["legal_actions"].as_array().unwrap();
        let action = without_notation(&legal[dice.below(legal.len())]);
        let r = app
            .post(
                &format!("/api/v1/games/{game}/actions"),
                Some(&tokens[seat]),
                json!({"expected_version": g["version"], "actions": [action]}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    };
    assert_eq!(finished["status"], "finished", "{finished}");
    let results = app.results(&game);
    assert!(
        results.iter().all(|r| r["reason"] == "finished"),
        "{results:?}"
    );
    let place = |seat: usize| results[seat]["place"].as_i64().unwrap();
    let ids = [&ada_id, &bruno_id];
    for (seat, id) in ids.into_iter().enumerate() {
        let r = rating(&app, id, "magnate").await;
        assert_eq!(r["games"], 1, "{r}");
        let moved = r["rating"].as_f64().unwrap() - 1500.0;
        match place(seat).cmp(&place(1 - seat)) {
            std::cmp::Ordering::Less => assert!(moved > 100.0, "{r}"),
            std::cmp::Ordering::Greater => assert!(moved < -100.0, "{r}"),
            std::cmp::Ordering::Equal => assert!(moved.abs() < 0.1, "{r}"),
        }
        assert_eq!(history(&app, id, "magnate").await.len(), 1);
    }
}

#[actix_web::test]
async fn a_rated_lancaster_game_rates_all_three_with_weng_lin_and_ties_share_a_place() {
    let app = spawn_app().await;
    let (ada, ada_id) = player(&app, "Ada").await;
    let (bruno, bruno_id) = player(&app, "Bruno").await;
    let (chiara, chiara_id) = player(&app, "Chiara").await;
    let game = started(
        &app,
        "lancaster",
        &ada,
        &[("Bruno", &bruno), ("Chiara", &chiara)],
        Some(true),
    )
    .await;
    // Chiara resigns: the other two share the victory (places 1, 1, 3).
    assert_eq!(resign(&app, &game, &chiara).await, 200);
    let places: Vec<i64> = app
        .results(&game)
        .iter()
        .map(|r| r["place"].as_i64().unwrap())
        .collect();
    assert_eq!(places.iter().filter(|p| **p == 1).count(), 2, "{places:?}");

    let a = rating(&app, &ada_id, "lancaster").await;
    let b = rating(&app, &bruno_id, "lancaster").await;
    let c = rating(&app, &chiara_id, "lancaster").await;
    // Each winner: mu 25 + 2.6352, sigma 7.7885; the loser mu 25 - 5.2705 (see the unit test
    // three_new_players_placed_first_second_third_by_hand); shown as 1500 + 40 (mu - 3 sigma).
    assert_eq!(a, b, "winners sharing a place move alike");
    assert_eq!(a["rating"], json!(1670.8), "{a}");
    assert_eq!(c["rating"], json!(1354.6), "{c}");
    assert!((a["mu"].as_f64().unwrap() - 27.6352).abs() < 1e-4, "{a}");
    assert!((c["sigma"].as_f64().unwrap() - 7.7885).abs() < 1e-4, "{c}");
    assert!(near(&c["deviation"], 311.5), "{c}");
    for r in [&a, &b, &c] {
        assert_eq!(r["games"], 1);
        assert_eq!(r["provisional"], true);
        assert!(r.get("volatility").is_none(), "{r}");
    }
    // Magnate ratings are a separate scale: untouched.
    assert!(rating(&app, &ada_id, "magnate").await.is_null());
}

#[actix_web::test]
async fn a_repeated_or_racing_resignation_counts_once() {
    let app = spawn_app().await;
    let (ada, ada_id) = player(&app, "Ada").await;
    let (bruno, bruno_id) = player(&app, "Bruno").await;
    let (cyd, cyd_id) = player(&app, "Cyd").await;

    let first = started(&app, "magnate", &ada, &[("Bruno", &bruno)], Some(true)).await;
    assert_eq!(resign(&app, &first, &bruno).await, 200);
    let after_first = rating(&app, &ada_id, "magnate").await;
    // Again, and by the winner: refused, nothing counted.
    let again = app
        .post(
            &format!("/api/v1/games/{first}/resign"),
            Some(&bruno),
            json!({}),
        )
        .await;
    again.assert_problem(409, "game_over");
    assert_eq!(resign(&app, &first, &ada).await, 409);
    assert_eq!(rating(&app, &ada_id, "magnate").await, after_first);

    // Eight racing resignations of one game: one is stored, the rating moves once.
    let second = started(&app, "magnate", &bruno, &[("Cyd", &cyd)], Some(true)).await;
    let path = format!("/api/v1/games/{second}/resign");
    let racers = (0..8).map(|_| app.post(&path, Some(&cyd), json!({})));
    let replies = futures_util::future::join_all(racers).await;
    let codes: Vec<u16> = replies.iter().map(|r| r.status).collect();
    assert_eq!(codes.iter().filter(|c| **c == 200).count(), 1, "{codes:?}");
    assert!(codes.iter().all(|c| [200, 409].contains(c)), "{codes:?}");
    assert_eq!(rating(&app, &bruno_id, "magnate").await["games"], 2);
    assert_eq!(rating(&app, &cyd_id, "magnate").await["games"], 1);
    assert_eq!(history(&app, &bruno_id, "magnate").await.len(), 2);
    let counted = rows(&app, "SELECT game_id FROM rating_history");
    assert_eq!(
        counted.as_array().unwrap().len(),
        4,
        "two games, two players each"
    );
}

#[actix_web::test]
async fn unrated_and_aborted_games_change_no_rating() {
    let app = spawn_app().await;
    let (ada, ada_id) = player(&app, "Ada").await;
    let (bruno, bruno_id) = player(&app, "Bruno").await;

    // `rated` left out: false.
    let unrated = started(&app, "magnate", &ada, &[("Bruno", &bruno)], None).await;
    assert_eq!(resign(&app, &unrated, &bruno).await, 200);
    let explicit = started(&app, "magnate", &ada, &[("Bruno", &bruno)], Some(false)).await;
    assert_eq!(resign(&app, &explicit, &ada).await, 200);
    for id in [&ada_id, &bruno_id] {
        let p = profile(&app, id).await;
        assert_eq!(p["ratings"], json!({}), "{p}");
        assert_eq!(p["recent_results"].as_array().unwrap().len(), 2);
        assert!(
            p["recent_results"]
                .as_array()
                .unwrap()
                .iter()
                .all(|r| r["rated"] == false)
        );
    }

    // A rated game aborted (as an operator would, or a future cancel): it never ends with
    // results, so it never counts.
    let aborted = started(&app, "magnate", &ada, &[("Bruno", &bruno)], Some(true)).await;
    execute(
        &app,
        &format!("UPDATE games SET status = 'aborted' WHERE id = '{aborted}'"),
    );
    let r = app
        .post(
            &format!("/api/v1/games/{aborted}/resign"),
            Some(&bruno),
            json!({}),
        )
        .await;
    r.assert_problem(409, "game_over");
    assert_eq!(rows(&app, "SELECT * FROM ratings"), json!([]));
    assert_eq!(rows(&app, "SELECT * FROM rating_history"), json!([]));
    let out = rebuild(&app);
    assert!(
        out.contains("rebuilt 0 ratings from 0 rated games"),
        "{out}"
    );
}

/// Runs `herald ratings rebuild` on the test's database; returns its standard output.
fn rebuild(app: &TestApp) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(["ratings", "rebuild"])
        .env("DATABASE_URL", &app.db_url)
        .env(
            "DATA_DIR",
            std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("herald-rebuild-unused"),
        )
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[actix_web::test]
async fn the_rebuild_reproduces_exactly_the_stored_ratings_and_history() {
    let app = spawn_app().await;
    let (ada, _) = player(&app, "Ada").await;
    let (bruno, bruno_id) = player(&app, "Bruno").await;
    let (cyd, _) = player(&app, "Cyd").await;
    // Games with players in common, so the order matters; one unrated game among them.
    let g = started(&app, "magnate", &ada, &[("Bruno", &bruno)], Some(true)).await;
    assert_eq!(resign(&app, &g, &bruno).await, 200);
    let g = started(&app, "magnate", &bruno, &[("Cyd", &cyd)], Some(true)).await;
    assert_eq!(resign(&app, &g, &cyd).await, 200);
    let g = started(&app, "magnate", &cyd, &[("Ada", &ada)], None).await;
    assert_eq!(resign(&app, &g, &ada).await, 200);
    let g = started(&app, "magnate", &cyd, &[("Ada", &ada)], Some(true)).await;
    assert_eq!(resign(&app, &g, &ada).await, 200);
    let g = started(
        &app,
        "lancaster",
        &ada,
        &[("Bruno", &bruno), ("Cyd", &cyd)],
        Some(true),
    )
    .await;
    assert_eq!(resign(&app, &g, &ada).await, 200);
    let g = started(
        &app,
        "lancaster",
        &cyd,
        &[("Bruno", &bruno), ("Ada", &ada)],
        Some(true),
    )
    .await;
    assert_eq!(resign(&app, &g, &bruno).await, 200);

    let before = stored(&app);
    assert_eq!(
        before.0.as_array().unwrap().len(),
        6,
        "three players, two kinds"
    );
    assert_eq!(before.1.as_array().unwrap().len(), 12);

    let out = rebuild(&app);
    assert!(
        out.contains("rebuilt 6 ratings from 5 rated games; 0 ratings and 0 history rows differed"),
        "{out}"
    );
    assert_eq!(
        stored(&app),
        before,
        "the rebuild gives exactly the stored values"
    );

    // A damaged rating is put right.
    execute(
        &app,
        &format!(
            "UPDATE ratings SET rating = 1, games = 99 WHERE user_id = '{bruno_id}' AND kind = 'magnate'"
        ),
    );
    let out = rebuild(&app);
    assert!(
        out.contains("; 1 ratings and 0 history rows differed"),
        "{out}"
    );
    assert_eq!(stored(&app), before);
    // And the API reads the rebuilt history in the same order.
    assert_eq!(history(&app, &bruno_id, "magnate").await.len(), 2);
}

#[actix_web::test]
async fn profiles_and_leaderboards_are_public_and_show_nothing_private() {
    let app = spawn_app().await;
    let (ada, ada_id) = player(&app, "Ada").await;
    let (bruno, bruno_id) = player(&app, "Bruno").await;
    let g = started(&app, "magnate", &ada, &[("Bruno", &bruno)], Some(true)).await;
    assert_eq!(resign(&app, &g, &bruno).await, 200);
    // Ada established (as after many games), Bruno still provisional.
    execute(
        &app,
        &format!("UPDATE ratings SET deviation = 60, games = 30 WHERE user_id = '{ada_id}'"),
    );

    let board = app.get("/api/v1/ratings/magnate", None).await;
    assert_eq!(board.status, 200, "{}", board.text);
    let rows = board.json.as_array().unwrap();
    assert_eq!(rows.len(), 1, "{}", board.text);
    assert_eq!(rows[0]["rank"], 1);
    assert_eq!(
        rows[0]["player"],
        json!({"id": ada_id, "display_name": "Ada"})
    );
    assert!(near(&rows[0]["rating"], 1662.3));
    assert_eq!(rows[0]["deviation"], json!(60.0));
    assert_eq!(rows[0]["games"], 30);
    let page2 = app
        .get("/api/v1/ratings/magnate?limit=1&offset=1", None)
        .await;
    assert_eq!(page2.json, json!([]));
    assert_eq!(
        app.get("/api/v1/ratings/lancaster", None).await.json,
        json!([])
    );

    // Nothing private anywhere: no address, in the API or on the pages.
    for id in [&ada_id, &bruno_id] {
        let p = app.get(&format!("/api/v1/players/{id}"), None).await;
        let mut seen = std::collections::BTreeSet::new();
        strings(&p.json, &mut seen);
        assert!(!seen.iter().any(|s| s.contains('@')), "{seen:?}");
        let keys: Vec<&String> = p.json.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["display_name", "id", "ratings", "recent_results"]);
        assert!(!p.text.contains("example.test"), "{}", p.text);
        let html = page(&app, &format!("/players/{id}"), "").await;
        assert_eq!(html.status, 200);
        assert!(!html.text.contains("example.test"), "{}", html.text);
    }
    assert!(!board.text.contains("example.test"));
    let html = page(&app, &format!("/players/{ada_id}"), "").await;
    assert!(html.text.contains("<h1>Ada</h1>"), "{}", html.text);
    assert!(html.text.contains("1662"), "{}", html.text);
    // Her win, which Bruno resigned, is said of the game: she did not resign (nor, on time,
    // lose).
    assert!(
        html.text.contains("place 1 of 2 · decided by resignation"),
        "{}",
        html.text
    );
    let html = page(&app, "/ratings/magnate", "").await;
    assert_eq!(html.status, 200);
    assert!(
        html.text.contains(&format!("/players/{ada_id}")),
        "{}",
        html.text
    );
    assert!(
        !html.text.contains(&format!("/players/{bruno_id}")),
        "provisional: {}",
        html.text
    );
    assert!(!html.text.contains("example.test"));
    // The game page shows the ratings beside the names.
    let html = page(&app, &format!("/play/{g}"), "").await;
    assert!(
        html.text.contains("Ada (1662)") && html.text.contains("Bruno (1338?)"),
        "{}",
        html.text
    );

    // Unknown players and kinds: 404 problems; bad paging: 422.
    let nobody = uuid::Uuid::new_v4();
    app.get(&format!("/api/v1/players/{nobody}"), None)
        .await
        .assert_problem(404, "not_found");
    app.get(
        &format!("/api/v1/players/{nobody}/ratings/magnate/history"),
        None,
    )
    .await
    .assert_problem(404, "not_found");
    app.get(
        &format!("/api/v1/players/{ada_id}/ratings/chess/history"),
        None,
    )
    .await
    .assert_problem(404, "not_found");
    app.get("/api/v1/ratings/chess", None)
        .await
        .assert_problem(404, "not_found");
    app.get("/api/v1/players/not-a-uuid", None)
        .await
        .assert_problem(404, "not_found");
    for query in [
        "limit=0",
        "limit=201",
        "limit=x",
        "offset=-1",
        "offset=1000001",
    ] {
        app.get(&format!("/api/v1/ratings/magnate?{query}"), None)
            .await
            .assert_problem(422, "validation_failed");
    }
    assert_eq!(page(&app, "/ratings/chess", "").await.status, 404);
    assert_eq!(
        page(&app, &format!("/players/{nobody}"), "").await.status,
        404
    );
}

/// Every move of a rated game sent four times at once, the last move included (stored with the
/// game's results, ratings and record in a transaction of its own, without reading the game
/// again under its lock): one copy of each is stored and the others are refused (stale, or the
/// game over), and the game counts once.
#[actix_web::test]
async fn racing_copies_of_every_move_to_the_last_store_one_and_count_the_game_once() {
    let app = spawn_app().await;
    let (ada, ada_id) = player(&app, "Ada").await;
    let (bruno, bruno_id) = player(&app, "Bruno").await;
    let id = started(&app, "magnate", &ada, &[("Bruno", &bruno)], Some(true)).await;
    let path = format!("/api/v1/games/{id}");
    let actions = format!("{path}/actions");
    let mut dice = Dice::new(11);
    let mut moves = 0;
    'game: loop {
        assert!(moves < 3000, "the game did not end");
        let mut mover = None;
        for token in [&ada, &bruno] {
            let g = app.get(&path, Some(token)).await;
            assert_eq!(g.status, 200, "{}", g.text);
            if g.json["status"] != "active" {
                break 'game;
            }
            if !g.json["legal_actions"].as_array().unwrap().is_empty() {
                mover = Some((token, g.json));
                break;
            }
        }
        let (token, g) = mover.expect("an active game waits for a seat");
        let legal = g["legal_actions"].as_array().unwrap();
        // Ending turns when it may, so that the game ends in some 150 moves.
        let action = legal
            .iter()
            .find(|a| a["type"] == "end")
            .unwrap_or(&legal[dice.below(legal.len())]);
        let body = json!({"expected_version": g["version"], "actions": [without_notation(action)]});
        let racers = (0..4).map(|_| app.post(&actions, Some(token), body.clone()));
        let replies = futures_util::future::join_all(racers).await;
        let codes: Vec<u16> = replies.iter().map(|r| r.status).collect();
        assert_eq!(codes.iter().filter(|c| **c == 200).count(), 1, "{codes:?}");
        let stored = replies.iter().find(|r| r.status == 200).unwrap();
        // The copies of the last move learn that the game is over, the others that it moved on.
        let refusal = if stored.json["status"] == "active" {
            "stale_version"
        } else {
            "game_over"
        };
        for r in replies.iter().filter(|r| r.status != 200) {
            r.assert_problem(409, refusal);
        }
        moves += 1;
    }
    let end = app.get(&path, Some(&ada)).await;
    assert_eq!(end.json["status"], "finished", "{}", end.text);
    for user in [&ada_id, &bruno_id] {
        assert_eq!(rating(&app, user, "magnate").await["games"], 1);
        assert_eq!(history(&app, user, "magnate").await.len(), 1);
    }
    let results = rows(
        &app,
        &format!("SELECT seat, place FROM game_results WHERE game_id = '{id}'"),
    );
    assert_eq!(results.as_array().unwrap().len(), 2, "{results}");
}
