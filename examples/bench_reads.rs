//! Game reads per second (issue 20): 32 clients, each a seat of one of 16 Magnate games in play,
//! reading `GET /api/v1/games/{id}` as fast as the server answers, in three phases on the same
//! server and games:
//! - `engine`: the seen cache off (what every read cost before it): each read parses the state and
//!   runs the engine's view and legal actions;
//! - `kept`: the cache on: the view and legal actions of a version already seen are served again;
//! - `conditional`: the client sends the `ETag` it has (`If-None-Match`) and gets 304.
//!
//! It prints numbers; it asserts nothing. Run: `cargo run --release --example bench_reads [seconds]`
//! (default 5 s per phase).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

mod common;

use common::{Client, percentile_ms};
use diesel::{Connection, PgConnection};
use herald::devdb::EmbeddedPostgres;
use serde_json::json;
use std::time::{Duration, Instant};

const GAMES: usize = 16;
/// Moves played in each game before reading, so that the states are mid-game.
const MOVES: usize = 30;

/// Reads of one game as one seat until `until`: latencies, and the statuses seen.
async fn read(
    client: Client,
    id: String,
    token: String,
    conditional: bool,
    until: Instant,
) -> (Vec<Duration>, u64) {
    let url = format!("{}/api/v1/games/{id}", client.base);
    let mut tag = String::new();
    let mut latencies = Vec::new();
    let mut not_modified = 0;
    while Instant::now() < until {
        let mut req = client
            .http
            .get(&url)
            .insert_header(("Authorization", format!("Bearer {token}")));
        if conditional && !tag.is_empty() {
            req = req.insert_header(("If-None-Match", tag.clone()));
        }
        let start = Instant::now();
        let mut resp = req.send().await.unwrap();
        let _ = resp.body().limit(16 << 20).await.unwrap();
        latencies.push(start.elapsed());
        match resp.status().as_u16() {
            200 => {
                tag = resp
                    .headers()
                    .get("etag")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("")
                    .to_owned();
            }
            304 => not_modified += 1,
            other => panic!("read answered {other}"),
        }
    }
    (latencies, not_modified)
}

/// Plays `MOVES` random legal moves in a game (the first legal action of whoever is pending,
/// rotating through the list so that the games differ).
async fn advance(client: &Client, id: &str, tokens: &[String; 2], salt: usize) {
    for n in 0..MOVES {
        for token in tokens {
            let (_, g) = client
                .call("GET", &format!("/api/v1/games/{id}"), Some(token), None)
                .await;
            let Some(legal) = g["legal_actions"].as_array().filter(|l| !l.is_empty()) else {
                continue;
            };
            let action = legal[(n * 7 + salt) % legal.len()].clone();
            let (st, b) = client
                .call(
                    "POST",
                    &format!("/api/v1/games/{id}/actions"),
                    Some(token),
                    Some(json!({"expected_version": g["version"], "actions": [action]})),
                )
                .await;
            assert_eq!(st, 200, "{b}");
            break;
        }
    }
}

fn report(phase: &str, mut all: Vec<Duration>, elapsed: f64, not_modified: u64) {
    all.sort_unstable();
    let pct = |p: f64| percentile_ms(&all, p);
    println!(
        "phase={phase} reads={} reads_per_s={:.0} not_modified={not_modified} p50_ms={:.2} p99_ms={:.2}",
        all.len(),
        all.len() as f64 / elapsed,
        pct(0.5),
        pct(0.99)
    );
}

fn main() {
    let seconds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let dir = std::env::temp_dir().join(format!("herald-bench-reads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut pg = EmbeddedPostgres::start(&dir.join("pg"), &[("max_connections", "200")]).unwrap();
    pg.remove_after_exit(&dir).unwrap();
    pg.create_database("herald_bench", None).unwrap();
    let url = pg.url("herald_bench");
    herald::db::migrate(&mut PgConnection::establish(&url).unwrap()).unwrap();

    // One JWT secret for every phase's server: the tokens of the first serve them all.
    let base_settings = common::settings(&url, &dir.join("data"));
    actix_web::rt::System::new().block_on(async move {
        let mut games: Vec<(String, [String; 2])> = Vec::new();
        for (phase, entries, conditional) in [
            ("engine", 0, false),
            ("kept", 2048, false),
            ("conditional", 2048, true),
        ] {
            // One server per phase on the same database: only the cache setting differs.
            let mut settings = base_settings.clone();
            settings.games.seen_cache_entries = entries;
            let (base, handle) = common::serve(settings);
            let client = || common::client(&base);
            if games.is_empty() {
                let setup = client();
                let mut tokens = Vec::new();
                for i in 0..2 * GAMES {
                    tokens.push(setup.user(i).await);
                }
                for g in 0..GAMES {
                    let (id, seats) = setup
                        .game(
                            &tokens[2 * g],
                            &tokens[2 * g + 1],
                            &common::email(2 * g + 1),
                        )
                        .await;
                    advance(&setup, &id, &seats, g).await;
                    games.push((id, seats));
                }
                let (_, sample) = setup
                    .call(
                        "GET",
                        &format!("/api/v1/games/{}", games[0].0),
                        Some(&games[0].1[0]),
                        None,
                    )
                    .await;
                let bytes = serde_json::to_vec(&sample).unwrap_or_default().len();
                println!(
                    "games={GAMES} clients={} moves_per_game={MOVES} resource_bytes={bytes} version={}",
                    2 * GAMES,
                    sample["version"]
                );
            }
            let until = Instant::now() + Duration::from_secs(seconds);
            let start = Instant::now();
            let tasks: Vec<_> = games
                .iter()
                .flat_map(|(id, tokens)| tokens.iter().map(move |t| (id.clone(), t.clone())))
                .map(|(id, token)| actix_web::rt::spawn(read(client(), id, token, conditional, until)))
                .collect();
            let mut all = Vec::new();
            let mut not_modified = 0;
            for t in tasks {
                let (l, n) = t.await.unwrap();
                all.extend(l);
                not_modified += n;
            }
            report(phase, all, start.elapsed().as_secs_f64(), not_modified);
            handle.stop(true).await;
        }
    });
}
