//! The deadline queries at scale (design.md section 14): 100,000 active two-player games on a
//! private PostgreSQL, then the plans and timings of what the worker asks every half second
//! (timeouts due, reminders due) and of a player's games by nearest deadline. It prints the
//! plans; it asserts nothing.
//!
//! Run: `cargo run --release --example bench_deadlines [games]` (default 100000).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use diesel::{Connection, PgConnection, QueryableByName, RunQueryDsl, sql_query};
use herald::devdb::EmbeddedPostgres;
use std::time::Instant;

#[derive(QueryableByName)]
struct Line {
    #[diesel(sql_type = diesel::sql_types::Text, column_name = "QUERY PLAN")]
    line: String,
}

fn explain(conn: &mut PgConnection, title: &str, query: &str) {
    let plan: Vec<Line> = sql_query(format!("EXPLAIN (ANALYZE, BUFFERS) {query}"))
        .load(conn)
        .unwrap();
    println!("\n== {title}");
    for l in plan {
        println!("{}", l.line);
    }
}

fn main() {
    let games: i64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let dir = std::env::temp_dir().join(format!("herald-deadlines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut pg = EmbeddedPostgres::start(&dir.join("pg"), &[]).unwrap();
    pg.remove_after_exit(&dir).unwrap();
    pg.create_database("herald_bench", None).unwrap();
    let mut conn = PgConnection::establish(&pg.url("herald_bench")).unwrap();
    herald::db::migrate(&mut conn).unwrap();

    let start = Instant::now();
    // 2,000 players (one in 50 away on vacation), each game between two of them; seat 0 is
    // pending with a deadline somewhere in the next three days, or already past for one game in
    // a thousand.
    sql_query(
        "INSERT INTO users (id, email, display_name, locale, vacation_since) \
         SELECT md5('u' || i)::uuid, 'p' || i || '@example.test', 'P' || i, 'en', \
                CASE WHEN i % 50 = 0 THEN now() END \
         FROM generate_series(1, 2000) i",
    )
    .execute(&mut conn)
    .unwrap();
    sql_query(
        "INSERT INTO games (id, kind, rules_version, options, seed, seed_commitment, state, \
                            version, status, seat_count, created_by, clock) \
         SELECT md5('g' || i)::uuid, 'magnate', 1, '{}', decode(md5('s' || i) || md5('t' || i), 'hex'), \
                md5('c' || i), '{}', 1, 'active', 2, md5('u' || (1 + i % 2000))::uuid, \
                '{\"type\": \"per_move\", \"seconds\": 259200}' \
         FROM generate_series(1, $1) i",
    )
    .bind::<diesel::sql_types::BigInt, _>(games)
    .execute(&mut conn)
    .unwrap();
    sql_query(
        "INSERT INTO game_seats (game_id, seat, user_id, is_pending, deadline, pending_since, \
                                 next_reminder_at, joined_at) \
         SELECT md5('g' || i)::uuid, s, md5('u' || (1 + (i + s * 7) % 2000))::uuid, s = 0, \
                CASE WHEN s = 0 THEN now() + make_interval(secs => \
                    CASE WHEN i % 1000 = 0 THEN -60 ELSE (i * 7919) % 259200 END) END, \
                CASE WHEN s = 0 THEN now() END, \
                CASE WHEN s = 0 THEN now() + make_interval(secs => \
                    CASE WHEN i % 1000 = 0 THEN -60 ELSE (i * 7919) % 259200 END - 7200) END, \
                now() \
         FROM generate_series(1, $1) i, generate_series(0, 1) s",
    )
    .bind::<diesel::sql_types::BigInt, _>(games)
    .execute(&mut conn)
    .unwrap();
    sql_query("ANALYZE").execute(&mut conn).unwrap();
    println!(
        "{games} active games, {} seats, loaded in {:.1} s",
        games * 2,
        start.elapsed().as_secs_f64()
    );

    explain(
        &mut conn,
        "timeouts due (the worker, every 0.5 s)",
        "SELECT s.game_id, s.seat FROM game_seats s \
         JOIN games g ON g.id = s.game_id \
         LEFT JOIN users u ON u.id = s.user_id \
         WHERE s.deadline <= now() \
           AND (u.vacation_since IS NULL OR s.dropped OR g.clock ->> 'vacation_allowed' = 'false') \
         ORDER BY s.deadline LIMIT 100",
    );
    explain(
        &mut conn,
        "reminders due (the worker, every 0.5 s)",
        "SELECT s.game_id, s.seat, s.user_id, s.pending_since, s.deadline, s.next_reminder_at \
         FROM game_seats s WHERE s.next_reminder_at <= now() \
         ORDER BY s.next_reminder_at LIMIT 200",
    );
    explain(
        &mut conn,
        "a player's games by nearest deadline (their pending seats, as the server asks)",
        "SELECT game_id, deadline FROM game_seats \
         WHERE user_id = md5('u1')::uuid AND is_pending \
         ORDER BY deadline LIMIT 50",
    );
    pg.stop();
}
