//! The submission-path benchmark of design.md section 5: 16 two-player Magnate games (32
//! clients) submitting moves as fast as the server takes them, on a private PostgreSQL with
//! fsync and synchronous_commit on, compared with what `pgbench` (tpcb-like, 32 clients) commits
//! on the same cluster. It prints numbers; it asserts nothing.
//!
//! Last, `pgbench` runs again with 16 clients, the submissions' requests in flight, and prints
//! its own p50 and p99, tpcb-like and simple-update: what the host allows that hour.
//!
//! With `--instances 1,2,3` the same load runs again against 1, 2 and 3 stateless servers on
//! the one database (each client stays with one server), printing the throughput of each.
//!
//! Run: `cargo run --release --example bench_submit [seconds] [--instances 1,2,3]` (default
//! 10 s per phase, one instance).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

mod common;

use common::{TABLE_WRITES, TOP_STATEMENTS, percentile_ms, play_pairs, psql};
use diesel::{Connection, PgConnection};
use herald::devdb::EmbeddedPostgres;
use herald::startup::{Application, ServerOptions};
use std::process::Command;
use std::time::{Duration, Instant};

const GAMES: usize = 16;

/// `pgbench`'s tpcb-like load on its own database of the cluster: made once, run before the
/// submissions and again after them, since the host's speed drifts within minutes and a ratio
/// against one run taken before can move by a fifth either way.
struct Pgbench {
    bin: &'static str,
    url: String,
}

impl Pgbench {
    fn init(pg: &EmbeddedPostgres) -> Option<Pgbench> {
        let bin = ["/usr/lib/postgresql/15/bin/pgbench", "pgbench"]
            .into_iter()
            .find(|b| Command::new(b).arg("--version").output().is_ok())?;
        pg.create_database("pgbench", None).ok()?;
        let url = pg.url("pgbench");
        let init = Command::new(bin)
            .args(["-i", "-q", "-s", "10", &url])
            .output()
            .ok()?;
        if !init.status.success() {
            eprintln!(
                "pgbench -i failed: {}",
                String::from_utf8_lossy(&init.stderr)
            );
            return None;
        }
        Some(Pgbench { bin, url })
    }

    /// Transactions a second over `seconds` with 32 clients.
    fn tps(&self, seconds: u64) -> Option<f64> {
        self.run(seconds, 32, "tpcb-like", &[])
    }

    /// Transactions a second of `script` with `clients` clients, as `pgbench` prints them.
    fn run(&self, seconds: u64, clients: u32, script: &str, extra: &[&str]) -> Option<f64> {
        let run = Command::new(self.bin)
            .args([
                "-c",
                &clients.to_string(),
                "-j",
                "2",
                "-T",
                &seconds.to_string(),
            ])
            .args(["-b", script])
            .args(extra)
            .arg(&self.url)
            .output()
            .ok()?;
        let text = String::from_utf8_lossy(&run.stdout).to_string();
        text.lines()
            .find(|l| l.starts_with("tps = "))
            .and_then(|l| l.split_whitespace().nth(2))
            .and_then(|v| v.parse().ok())
    }

    /// The database's own latency at the submissions' concurrency (16 games, so 16 requests in
    /// flight): transactions a second of `script` and every transaction's latency, sorted, from
    /// `pgbench`'s per-transaction log (written under `dir`). The p99 goal is absolute, but this
    /// host's speed drifts by half within a day: a `pgbench` transaction, lighter than a
    /// submission, shows in the same run what the host allows. `tpcb-like` is the load of the
    /// ratio (its 16 clients queue on the 10 branches' rows); `simple-update` leaves those rows
    /// out, so nothing waits on a lock: one small durable transaction after another.
    fn latencies(
        &self,
        seconds: u64,
        script: &str,
        dir: &std::path::Path,
    ) -> Option<(f64, Vec<Duration>)> {
        let logs = dir.join("pgbench-log");
        std::fs::create_dir_all(&logs).ok()?;
        let prefix = format!("--log-prefix={}", logs.join("tx").display());
        let tps = self.run(seconds, GAMES as u32, script, &["-l", &prefix]);
        let mut all = Vec::new();
        for file in std::fs::read_dir(&logs).ok()?.flatten() {
            let text = std::fs::read_to_string(file.path()).unwrap_or_default();
            // Each line: client, transaction, latency in microseconds, script, epoch, microseconds.
            all.extend(text.lines().filter_map(|l| {
                let us = l.split_whitespace().nth(2)?.parse().ok()?;
                Some(Duration::from_micros(us))
            }));
        }
        std::fs::remove_dir_all(&logs).ok();
        all.sort_unstable();
        Some((tps?, all))
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let seconds: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    // `--instances 1,2,3`: the same load spread over that many servers on the one database.
    let instances: Vec<usize> = match (args.next().as_deref(), args.next()) {
        (Some("--instances"), Some(list)) => list
            .split(',')
            .filter_map(|n| n.trim().parse().ok())
            .filter(|n| *n >= 1)
            .collect(),
        _ => vec![1],
    };
    let dir = std::env::temp_dir().join(format!("herald-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Durable settings: fsync and synchronous_commit stay on (the defaults).
    let mut pg = EmbeddedPostgres::start(
        &dir.join("pg"),
        &[
            ("max_connections", "300"),
            ("shared_preload_libraries", "pg_stat_statements"),
            ("pg_stat_statements.track_planning", "on"),
        ],
    )
    .unwrap();
    pg.remove_after_exit(&dir).unwrap();
    let pgbench = Pgbench::init(&pg);
    let tps = pgbench.as_ref().and_then(|p| p.tps(seconds));
    pg.create_database("herald_bench", None).unwrap();
    let url = pg.url("herald_bench");
    herald::db::migrate(&mut PgConnection::establish(&url).unwrap()).unwrap();
    // One JWT secret for every instance, as README says for several instances on one database.
    let settings = common::settings(&url, &dir.join("data"));
    match tps {
        Some(t) => println!("pgbench_tpcb_tps={t:.0} target_60pct={:.0}", t * 0.6),
        None => println!("pgbench_tpcb_tps=unavailable"),
    }

    let pg_dir = dir.clone();
    let rates = actix_web::rt::System::new().block_on(async move {
        let mut rates = Vec::new();
        let mut tokens = Vec::new();
        for n in instances {
            // Stateless instances: each its own pool and workers, the database shared.
            let mut bases = Vec::new();
            let mut handles = Vec::new();
            for _ in 0..n {
                // Each with the pool `herald serve` would have.
                let each = settings.clone();
                let app = Application::build(
                    each,
                    ServerOptions {
                        workers: 2,
                        handle_signals: false,
                    },
                )
                .unwrap();
                bases.push(format!("http://127.0.0.1:{}", app.port()));
                handles.push(app.handle());
                actix_web::rt::spawn(app.run_until_stopped());
            }
            let client = |i: usize| common::client(&bases[i % bases.len()]);
            if tokens.is_empty() {
                let setup = client(0);
                for i in 0..2 * GAMES {
                    tokens.push(setup.user(i).await);
                }
            }
            psql(&url, "SELECT pg_stat_statements_reset(), pg_stat_reset()");
            let archiver = common::Archiver::start(&settings);
            let until = Instant::now() + Duration::from_secs(seconds);
            let start = Instant::now();
            let cpu = common::Cpu::now(&dir);
            let played = play_pairs(client, &tokens, until).await;
            let elapsed = start.elapsed().as_secs_f64();
            let used = common::Cpu::now(&dir).per(cpu, played.latencies.len());
            drop(archiver);
            let all = &played.latencies;
            let per_s = all.len() as f64 / elapsed;
            rates.push((n, per_s));
            println!(
                "instances={n} clients=32 games={GAMES} seconds={elapsed:.1} reads={} \
                 submissions={} submissions_per_s={per_s:.0} p50_ms={:.1} p99_ms={:.1}",
                played.reads,
                all.len(),
                percentile_ms(all, 0.5),
                percentile_ms(all, 0.99)
            );
            // Where the machine's CPU went, per submission (the reads, the new games and the
            // archiver included): this process is the servers and the clients.
            println!("cpu_ms_per_submission {used}");
            // The submissions that ended a game write its results, ratings and record.
            println!(
                "game_endings={} p50_ms={:.1} max_ms={:.1}",
                played.endings.len(),
                percentile_ms(&played.endings, 0.5),
                percentile_ms(&played.endings, 1.0)
            );
            // The submissions that passed the turn wrote more: the other seat's clock, its mail
            // job and its account event.
            println!(
                "turn_passes={} p50_ms={:.1} p99_ms={:.1}",
                played.passes.len(),
                percentile_ms(&played.passes, 0.5),
                percentile_ms(&played.passes, 0.99)
            );
            // Where the database's time went in this phase, by statement.
            print!("{}", psql(&url, TOP_STATEMENTS));
            print!("{}", psql(&url, TABLE_WRITES));
            for h in handles {
                h.stop(true).await;
            }
        }
        rates
    });
    // The ratio asked (design.md section 5) against the mean of the runs before and after.
    let after = pgbench.as_ref().and_then(|p| p.tps(seconds));
    if let (Some(before), Some(after)) = (tps, after) {
        let mean = f64::midpoint(before, after);
        println!("pgbench_after_tps={after:.0} pgbench_mean_tps={mean:.0}");
        for (n, per_s) in rates {
            println!(
                "instances={n} submissions_per_s={per_s:.0} ratio_to_pgbench_mean_pct={:.1}",
                100.0 * per_s / mean
            );
        }
    }
    // Last, so that its writes (and the vacuum they bring) fall in no submission phase: run
    // before the submissions, it raised their p99 by a third.
    for script in ["tpcb-like", "simple-update"] {
        if let Some((t, all)) = pgbench
            .as_ref()
            .and_then(|p| p.latencies(seconds, script, &pg_dir))
        {
            println!(
                "pgbench_{script}_{GAMES}_clients tps={t:.0} p50_ms={:.1} p99_ms={:.1}",
                percentile_ms(&all, 0.5),
                percentile_ms(&all, 0.99)
            );
        }
    }
}
