//! What the benchmark programs share: an HTTP client of the API that signs players up and starts
//! Magnate games between them.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use serde_json::{Value, json};
use std::time::{Duration, Instant};

pub struct Client {
    pub http: awc::Client,
    pub base: String,
}

impl Client {
    pub async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let (status, bytes) = self.send(method, path, token, body).await;
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    /// A game read or a submission, as the playing clients need it: the rest of the answer
    /// (the view above all) is skipped unparsed, as a client that knows its types would.
    pub async fn play_call(
        &self,
        path: &str,
        token: &str,
        body: Option<Value>,
    ) -> (u16, Result<Answer, String>) {
        let method = if body.is_some() { "POST" } else { "GET" };
        let (status, bytes) = self.send(method, path, Some(token), body).await;
        let answer = serde_json::from_slice::<Answer>(&bytes)
            .map_err(|_| String::from_utf8_lossy(&bytes).into_owned());
        (status, answer)
    }

    /// A GET (or a POST of `body`) and its answer's status and bytes.
    async fn send(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, actix_web::web::Bytes) {
        let mut req = match method {
            "GET" => self.http.get(format!("{}{path}", self.base)),
            _ => self.http.post(format!("{}{path}", self.base)),
        };
        if let Some(t) = token {
            req = req.insert_header(("Authorization", format!("Bearer {t}")));
        }
        let mut resp = match body {
            Some(b) => req.send_json(&b).await.unwrap(),
            None => req.send().await.unwrap(),
        };
        let bytes = resp.body().limit(16 << 20).await.unwrap();
        (resp.status().as_u16(), bytes)
    }

    pub async fn user(&self, i: usize) -> String {
        let email = email(i);
        let (st, _) = self.call("POST", "/api/v1/accounts", None, Some(json!({"email": email, "display_name": format!("P{i}"), "password": "bench password 1234"}))).await;
        assert_eq!(st, 201);
        let (_, t) = self
            .call(
                "POST",
                "/api/v1/auth/token",
                None,
                Some(json!({"email": email, "password": "bench password 1234"})),
            )
            .await;
        t["access_token"].as_str().unwrap().to_owned()
    }

    /// `token`'s player resigns game `id`: the status and the answer.
    pub async fn resign(&self, id: &str, token: &str) -> (u16, Value) {
        self.call(
            "POST",
            &format!("/api/v1/games/{id}/resign"),
            Some(token),
            Some(json!({})),
        )
        .await
    }

    /// A new game between the pair; the tokens by seat.
    pub async fn game(&self, a: &str, b: &str, b_email: &str) -> (String, [String; 2]) {
        let (st, g) = self
            .call(
                "POST",
                "/api/v1/games",
                Some(a),
                Some(json!({"kind": "magnate", "invite": [b_email]})),
            )
            .await;
        assert_eq!(st, 201, "{g}");
        let id = g["id"].as_str().unwrap().to_owned();
        let (st, g) = self
            .call(
                "POST",
                &format!("/api/v1/games/{id}/join"),
                Some(b),
                Some(json!({})),
            )
            .await;
        assert_eq!(st, 200, "{g}");
        let (_, ga) = self
            .call("GET", &format!("/api/v1/games/{id}"), Some(a), None)
            .await;
        let tokens = if ga["you"]["seat"] == 0 {
            [a.to_owned(), b.to_owned()]
        } else {
            [b.to_owned(), a.to_owned()]
        };
        (id, tokens)
    }
}

/// The parts of a game resource the playing clients read.
#[derive(Debug, serde::Deserialize)]
pub struct Answer {
    pub status: String,
    pub version: i64,
    #[serde(default)]
    pub legal_actions: Vec<Value>,
    pub seats: Vec<AnswerSeat>,
}

#[derive(Debug, serde::Deserialize)]
pub struct AnswerSeat {
    pub pending: bool,
}

/// What clients playing games measured.
#[derive(Debug, Default)]
pub struct Played {
    /// Every submission's latency.
    pub latencies: Vec<Duration>,
    /// The latencies of the submissions that ended their game (also in `latencies`): the
    /// results, ratings and record are written then.
    pub endings: Vec<Duration>,
    /// The latencies of the submissions that passed the turn to the other seat (also in
    /// `latencies`): they write the other seat's clock, a mail job and an account event.
    pub passes: Vec<Duration>,
    /// Game reads.
    pub reads: u64,
}

impl Played {
    fn extend(&mut self, other: Played) {
        self.latencies.extend(other.latencies);
        self.endings.extend(other.endings);
        self.passes.extend(other.passes);
        self.reads += other.reads;
    }
}

/// Percentile `p` (0..1) of `sorted`, in milliseconds (0 when empty).
pub fn percentile_ms(sorted: &[Duration], p: f64) -> f64 {
    sorted
        .get(((sorted.len() as f64 * p) as usize).min(sorted.len().saturating_sub(1)))
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// One pair of clients playing games back to back until `until`.
pub async fn play(
    client: Client,
    a: String,
    b: String,
    b_email: String,
    until: Instant,
    seed: u64,
) -> Played {
    let mut played = Played::default();
    let mut rng = seed | 1;
    while Instant::now() < until {
        let (id, tokens) = client.game(&a, &b, &b_email).await;
        let mut current: Option<(usize, Answer)> = None;
        // The seat whose turn the last answer showed: its client reads first, as a client that
        // learns of its turn (by event or mail) reads its view once.
        let mut next_up = 0;
        loop {
            if Instant::now() >= until {
                // Resigned, so that the lists a later phase measures hold only its own games.
                let (st, body) = client.resign(&id, &tokens[0]).await;
                // 409: the game ended with the last move.
                if st != 200 && st != 409 {
                    eprintln!("resigning game {id} at the end of the phase: {st} {body}");
                }
                return played;
            }
            let (seat, g) = match current.take() {
                Some(x) => x,
                None => {
                    let mut found = None;
                    for seat in [next_up, 1 - next_up] {
                        let (st, g) = client
                            .play_call(&format!("/api/v1/games/{id}"), &tokens[seat], None)
                            .await;
                        played.reads += 1;
                        let g = g.unwrap_or_else(|body| panic!("reading game {id}: {st} {body}"));
                        if g.status != "active" {
                            break;
                        }
                        if !g.legal_actions.is_empty() {
                            found = Some((seat, g));
                            break;
                        }
                    }
                    match found {
                        Some(x) => x,
                        None => break,
                    }
                }
            };
            let legal = &g.legal_actions;
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let action = legal
                .iter()
                .find(|a| a["type"] == "end")
                .unwrap_or(&legal[(rng % legal.len() as u64) as usize])
                .clone();
            let start = Instant::now();
            let (st, next) = client
                .play_call(
                    &format!("/api/v1/games/{id}/actions"),
                    &tokens[seat],
                    Some(json!({"expected_version": g.version, "actions": [action]})),
                )
                .await;
            let took = start.elapsed();
            played.latencies.push(took);
            let next = match (st, next) {
                (200, Ok(next)) => next,
                (st, Ok(next)) => panic!("submission to game {id}: {st} {next:?}"),
                (st, Err(body)) => panic!("submission to game {id}: {st} {body}"),
            };
            if next.status == "finished" {
                played.endings.push(took);
            }
            if !next.legal_actions.is_empty() {
                current = Some((seat, next));
            } else if let Some(up) = next.seats.iter().position(|s| s.pending) {
                next_up = up;
                if up != seat {
                    played.passes.push(took);
                }
            }
        }
    }
    played
}

/// The benchmarks' settings: the pool `herald serve` has on this machine (`DATABASE_POOL_SIZE`
/// when set, else four connections per core), and rate limits that 32 clients from one address,
/// each reading or submitting for its account as fast as the server answers (bench_reads: some
/// 150 reads a second per account), never meet (one JWT secret: clone these for every server
/// that must accept the same tokens).
pub fn settings(url: &str, data: &std::path::Path) -> herald::config::Settings {
    let mut s = herald::config::Settings::for_tests(url.to_owned(), data.to_path_buf());
    // As `herald serve` reads it: a bad value stops the benchmark, named.
    s.database.pool_size =
        herald::config::pool_size_from(std::env::var("DATABASE_POOL_SIZE").ok()).unwrap();
    s.auth.sign_in_per_minute = 10_000;
    s.auth.account_requests_per_minute = 1_000_000;
    s.auth.registrations_per_hour = 10_000;
    s
}

/// A thread that moves the records of ended games into their archive rows, as `herald serve`'s
/// job worker does after each game (the benchmarks send no mail, so it runs those jobs only and
/// leaves the mail jobs queued); it stops when dropped.
pub struct Archiver {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Archiver {
    pub fn start(settings: &herald::config::Settings) -> Archiver {
        use herald::jobs::{BackgroundJob, Lane, Ran};
        use std::sync::atomic::Ordering;
        let url = settings.database.url.clone().unwrap();
        let worker =
            herald::jobs::Worker::new(settings, herald::db::pool(&url, 1).unwrap()).unwrap();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopped = stop.clone();
        let lane = Lane::Kind(herald::services::games::record::ArchiveRecord::KIND);
        let thread = std::thread::spawn(move || {
            while !stopped.load(Ordering::Relaxed) {
                match worker.run_once_in(lane) {
                    Ok(Ran::Done { .. }) => {}
                    Ok(Ran::Idle) => std::thread::sleep(Duration::from_millis(20)),
                    Ok(other) => panic!("archiving a record failed: {other:?}"),
                    Err(e) => panic!("the archiver lost its database: {e}"),
                }
            }
        });
        Archiver {
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Archiver {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Starts a server with `settings` in this process (two workers); its address and handle.
pub fn serve(settings: herald::config::Settings) -> (String, actix_web::dev::ServerHandle) {
    let app = herald::startup::Application::build(
        settings,
        herald::startup::ServerOptions {
            workers: 2,
            handle_signals: false,
        },
    )
    .unwrap();
    let base = format!("http://127.0.0.1:{}", app.port());
    let handle = app.handle();
    actix_web::rt::spawn(app.run_until_stopped());
    (base, handle)
}

/// A client of the server at `base`.
pub fn client(base: &str) -> Client {
    Client {
        http: awc::Client::builder()
            .timeout(Duration::from_secs(60))
            .finish(),
        base: base.to_owned(),
    }
}

/// Every pair of `tokens` (players 2g and 2g+1, signed up by [`Client::user`]) plays games back
/// to back until `until`, pair g through `client(g)`: what they measured, latencies sorted.
pub async fn play_pairs(
    client: impl Fn(usize) -> Client,
    tokens: &[String],
    until: Instant,
) -> Played {
    let tasks: Vec<_> = (0..tokens.len() / 2)
        .map(|g| {
            actix_web::rt::spawn(play(
                client(g),
                tokens[2 * g].clone(),
                tokens[2 * g + 1].clone(),
                email(2 * g + 1),
                until,
                g as u64 + 1,
            ))
        })
        .collect();
    let mut all = Played::default();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    all.latencies.sort_unstable();
    all.endings.sort_unstable();
    all.passes.sort_unstable();
    all
}

/// The address of benchmark player `i` (signed up by [`Client::user`]).
pub fn email(i: usize) -> String {
    format!("p{i}@bench.test")
}

/// The statements of a phase by total time: calls, total and mean milliseconds, rows, and
/// buffers touched per call (a scan that reads more of a table than it returns shows here).
pub const TOP_STATEMENTS: &str = "SELECT calls, plans, round(total_plan_time) AS plan_ms, round(total_exec_time) AS total_ms, \
    round(mean_exec_time::numeric, 3) AS mean_ms, rows, \
    round(shared_blks_hit::numeric / nullif(calls, 0), 1) AS blocks_per_call, \
    left(regexp_replace(query, '\\s+', ' ', 'g'), 100) AS statement \
    FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) \
    ORDER BY total_exec_time DESC LIMIT 15";

/// The rows each table gained or changed in a run, and how many updates were HOT (written
/// beside the old row, no index touched): the row writes are most of a submission's cost.
pub const TABLE_WRITES: &str = "SELECT relname, n_tup_ins AS inserted, n_tup_upd AS updated, \
    n_tup_hot_upd AS hot, n_tup_del AS deleted FROM pg_stat_all_tables \
    WHERE n_tup_ins + n_tup_upd + n_tup_del > 0 AND schemaname IN ('public', 'pg_toast') \
    ORDER BY n_tup_ins + n_tup_upd + n_tup_del DESC LIMIT 12";

/// Runs `sql` with `psql` (the extension is created on first use); its output, or nothing.
pub fn psql(url: &str, sql: &str) -> String {
    let run = |q: &str| {
        std::process::Command::new("/usr/lib/postgresql/15/bin/psql")
            .args(["-X", "-q", "-c", q, url])
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default()
    };
    run("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    run(sql)
}

/// CPU time used so far, in milliseconds: by this process (the servers and the clients) and by
/// the PostgreSQL cluster whose command line names `pg_dir` (its postmaster and backends). Read
/// from `/proc` (Linux reports it in hundredths of a second); zero where it cannot be read.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cpu {
    pub this_process_ms: u64,
    pub postgres_ms: u64,
}

impl Cpu {
    pub fn now(pg_dir: &std::path::Path) -> Cpu {
        // Fields after the command name (which may hold spaces): state is field 3, ppid 4,
        // utime 14 and stime 15.
        let stat = |pid: &str| -> Option<(String, u32, u64)> {
            let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let (head, rest) = text.rsplit_once(')')?;
            let comm = head.split_once('(')?.1.to_owned();
            let f: Vec<&str> = rest.split_whitespace().collect();
            let ticks = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
            Some((comm, f.get(1)?.parse().ok()?, ticks))
        };
        let needle = pg_dir.to_string_lossy().into_owned();
        let mut postgres: Vec<(u32, u32, u64)> = Vec::new();
        let mut postmaster = None;
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Ok(pid) = name.parse::<u32>() else {
                continue;
            };
            let Some((comm, ppid, ticks)) = stat(&name) else {
                continue;
            };
            if comm != "postgres" {
                continue;
            }
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            if String::from_utf8_lossy(&cmdline).contains(&needle) {
                postmaster = Some(pid);
            }
            postgres.push((pid, ppid, ticks));
        }
        let postgres_ticks: u64 = postgres
            .iter()
            .filter(|(pid, ppid, _)| Some(*pid) == postmaster || Some(*ppid) == postmaster)
            .map(|(_, _, t)| t)
            .sum();
        Cpu {
            this_process_ms: stat("self").map_or(0, |s| s.2 * 10),
            postgres_ms: postgres_ticks * 10,
        }
    }

    /// The CPU used since `earlier`, per unit of work, as `herald=… postgres=…` (milliseconds).
    pub fn per(&self, earlier: Cpu, units: usize) -> String {
        let each = |now: u64, then: u64| now.saturating_sub(then) as f64 / units.max(1) as f64;
        format!(
            "this_process={:.2} postgres={:.2}",
            each(self.this_process_ms, earlier.this_process_ms),
            each(self.postgres_ms, earlier.postgres_ms)
        )
    }
}
