//! The footprint figures of issue 20: the resident memory of an idle `herald serve` (the real
//! binary, on a private PostgreSQL), and the bytes stored per finished Magnate game: the growth of
//! `pg_total_relation_size` (tables with their indexes and TOAST) of every table while G games are
//! played to their end through the API, divided by G; then the same after `VACUUM FULL` (live
//! rows only: what the games keep for good). It prints numbers; it asserts nothing.
//!
//! Run: `cargo build --release && cargo run --release --example bench_footprint [games]`
//! (default 200 games).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

mod common;

use common::Client;
use diesel::{Connection, PgConnection, QueryableByName, RunQueryDsl, sql_query};
use herald::devdb::EmbeddedPostgres;
use serde_json::json;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How much each table grew from `before` to `after` (printed per table, as `label`).
fn grown(before: &[Size], after: &[Size], label: &str, games: usize) -> Vec<(String, i64)> {
    let mut out = Vec::new();
    for s in after {
        let was = before
            .iter()
            .find(|b| b.name == s.name)
            .map_or(0, |b| b.bytes);
        let grew = s.bytes - was;
        if grew != 0 {
            println!(
                "table={} {label}={grew} per_game_bytes={}",
                s.name,
                grew / games as i64
            );
        }
        out.push((s.name.clone(), grew));
    }
    out
}

#[derive(QueryableByName)]
struct Size {
    #[diesel(sql_type = diesel::sql_types::Text)]
    name: String,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    bytes: i64,
}

/// Every table of the schema with its total size (indexes and TOAST included).
fn sizes(conn: &mut PgConnection) -> Vec<Size> {
    sql_query(
        "SELECT c.relname::text AS name, pg_total_relation_size(c.oid) AS bytes \
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
         WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname",
    )
    .load(conn)
    .unwrap()
}

/// Ended games whose record the worker has not archived yet.
fn unarchived(conn: &mut PgConnection) -> i64 {
    #[derive(QueryableByName)]
    struct Count {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let c: Count = sql_query(
        "SELECT count(*) AS n FROM jobs WHERE kind = 'game.archive_record' AND status <> 'done'",
    )
    .get_result(conn)
    .unwrap();
    c.n
}

/// The resident set of process `pid`, in kB.
fn rss_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// Plays one game to its end with random legal actions.
async fn play_out(client: &Client, id: &str, tokens: &[String; 2], seed: u64) -> usize {
    let mut rng = seed | 1;
    let mut moves = 0;
    loop {
        let mut moved = false;
        for token in tokens {
            let (_, g) = client
                .call("GET", &format!("/api/v1/games/{id}"), Some(token), None)
                .await;
            if g["status"] != "active" {
                return moves;
            }
            let Some(legal) = g["legal_actions"].as_array().filter(|l| !l.is_empty()) else {
                continue;
            };
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let action = legal[(rng % legal.len() as u64) as usize].clone();
            let (st, b) = client
                .call(
                    "POST",
                    &format!("/api/v1/games/{id}/actions"),
                    Some(token),
                    Some(json!({"expected_version": g["version"], "actions": [action]})),
                )
                .await;
            assert_eq!(st, 200, "{b}");
            moves += 1;
            moved = true;
            break;
        }
        if !moved {
            return moves;
        }
    }
}

fn main() {
    let games: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let exe = std::env::current_exe().unwrap();
    let herald = exe
        .parent()
        .and_then(|examples| examples.parent())
        .map(|profile| profile.join("herald"))
        .filter(|p| p.exists())
        .expect("build the server first: cargo build --release");
    let dir = std::env::temp_dir().join(format!("herald-footprint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut pg = EmbeddedPostgres::start(&dir.join("pg"), &[]).unwrap();
    pg.remove_after_exit(&dir).unwrap();
    pg.create_database("herald_bench", None).unwrap();
    let url = pg.url("herald_bench");
    let mut conn = PgConnection::establish(&url).unwrap();
    herald::db::migrate(&mut conn).unwrap();

    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut server = Command::new(&herald)
        .arg("serve")
        .env("DATABASE_URL", &url)
        .env("BIND_ADDR", format!("127.0.0.1:{port}"))
        .env("DATA_DIR", dir.join("data"))
        .env("SIGN_IN_PER_MINUTE", "10000")
        .env("ACCOUNT_REQUESTS_PER_MINUTE", "1000000")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}");
    let pid = server.id();

    actix_web::rt::System::new().block_on(async move {
        let client = common::client(&base);
        let started = Instant::now();
        while client
            .http
            .get(format!("{}/healthz", client.base))
            .send()
            .await
            .is_err()
        {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "herald serve did not answer"
            );
            actix_web::rt::time::sleep(Duration::from_millis(100)).await;
        }
        actix_web::rt::time::sleep(Duration::from_secs(3)).await;
        let idle_kb = rss_kb(pid);
        println!("idle_rss_kb={idle_kb} (herald serve, started, no request since /healthz)");

        let a = client.user(0).await;
        let b = client.user(1).await;
        // Compacted first, so that "after, compacted" compares like with like.
        sql_query("VACUUM FULL").execute(&mut conn).unwrap();
        let before = sizes(&mut conn);
        let mut moves = 0;
        for g in 0..games {
            let (id, tokens) = client.game(&a, &b, &common::email(1)).await;
            moves += play_out(&client, &id, &tokens, g as u64 + 1).await;
        }
        // Let the worker archive every game's record and send the game-over mails (their jobs
        // are part of what a game stores until they are cleaned), and autovacuum settle.
        let waiting = Instant::now();
        while unarchived(&mut conn) > 0 {
            assert!(
                waiting.elapsed() < Duration::from_secs(300),
                "the worker did not archive the games' records"
            );
            actix_web::rt::time::sleep(Duration::from_millis(200)).await;
        }
        actix_web::rt::time::sleep(Duration::from_secs(5)).await;
        sql_query("VACUUM ANALYZE").execute(&mut conn).unwrap();
        let after = sizes(&mut conn);
        println!("games={games} moves={moves}");
        let total: i64 = grown(&before, &after, "grew_bytes", games)
            .iter()
            .map(|(_, g)| g)
            .sum();
        println!(
            "stored_bytes_per_finished_game={} (as the tables grew, dead row versions included)",
            total / games as i64
        );
        // What the games keep for good: the tables rewritten with their live rows only. Done
        // mail jobs are deleted after a week (`jobs::prune`), so they are counted apart.
        sql_query("VACUUM FULL").execute(&mut conn).unwrap();
        let compacted = sizes(&mut conn);
        let (jobs, kept): (Vec<_>, Vec<_>) = grown(&before, &compacted, "compacted_bytes", games)
            .into_iter()
            .partition(|(name, _)| name == "jobs");
        let sum = |l: &[(String, i64)]| l.iter().map(|(_, g)| g).sum::<i64>();
        let (kept, jobs) = (sum(&kept), sum(&jobs));
        println!(
            "compacted_bytes_per_finished_game={} (and {} of mail jobs until they are pruned)",
            kept / games as i64,
            jobs / games as i64
        );
        actix_web::rt::time::sleep(Duration::from_secs(3)).await;
        println!("rss_kb_after_games={} (idle again)", rss_kb(pid));
    });
    let _ = server.kill();
    let _ = server.wait();
}
