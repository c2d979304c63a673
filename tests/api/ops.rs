//! Operations (design.md section 19): `/metrics` with route patterns and its token, the access
//! log, JSON logs, the shutdown line, a failure behind a page logged as the API's are, `/readyz`
//! within a second while the database hangs, mail files readable by their owner only, and no
//! token of any mailed link in the log.

use crate::helpers::{TestApp, spawn_app, spawn_app_with, without_notation};
use herald::jobs::Worker;
use herald::metrics::Metrics;
use herald::startup::{Application, ServerOptions};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The samples of a Prometheus text page, `name{labels}` to value; fails on a line that is
/// neither a comment nor a sample.
fn samples(text: &str) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (series, value) = line
            .rsplit_once(' ')
            .unwrap_or_else(|| panic!("not a sample: {line:?}"));
        let value: f64 = value
            .parse()
            .unwrap_or_else(|_| panic!("not a sample value: {line:?}"));
        out.insert(series.to_owned(), value);
    }
    out
}

fn value(samples: &BTreeMap<String, f64>, series: &str) -> f64 {
    *samples
        .get(series)
        .unwrap_or_else(|| panic!("no {series} among {:#?}", samples.keys()))
}

/// One move of the table's pending seat.
async fn one_move(app: &TestApp, table: &crate::helpers::Table) {
    let (seat, g) = app.mover(table).await;
    let action = without_notation(&g["legal_actions"][0]);
    let r = app
        .submit(table, seat, g["version"].as_i64().unwrap(), json!([action]))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
}

#[actix_web::test]
async fn metrics_count_requests_by_route_pattern_submissions_the_queue_and_active_games() {
    let app = spawn_app().await;
    let table = app.table().await;
    one_move(&app, &table).await;
    let missing = app
        .get("/api/v1/nothing-here/Zq81xYt5Ka02Lm9P?secret=s3cr3t", None)
        .await;
    assert_eq!(missing.status, 404);

    let r = app.get("/metrics", None).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(
        r.header("content-type").starts_with("text/plain"),
        "{}",
        r.header("content-type")
    );
    let s = samples(&r.text);
    assert!(
        value(
            &s,
            r#"herald_http_requests_total{method="GET",route="/api/v1/games/{id}",status="200"}"#
        ) >= 1.0,
        "the mover was found by reading the game (once or twice, whoever starts)"
    );
    assert_eq!(
        value(
            &s,
            r#"herald_http_requests_total{method="POST",route="/api/v1/games/{id}/actions",status="200"}"#
        ),
        1.0
    );
    assert_eq!(
        value(
            &s,
            r#"herald_http_requests_total{method="GET",route="unmatched",status="404"}"#
        ),
        1.0
    );
    assert!(
        value(
            &s,
            r#"herald_http_request_duration_seconds_count{method="GET",route="/api/v1/games/{id}"}"#
        ) >= 1.0
    );
    assert!(s.contains_key(
        r#"herald_http_request_duration_seconds_bucket{method="GET",route="/api/v1/games/{id}",le="+Inf"}"#
    ));
    // Labels are patterns: no id, no path of the unmatched request, no query.
    for leak in [&table.id, "Zq81xYt5Ka02Lm9P", "s3cr3t", "nothing-here"] {
        assert!(!r.text.contains(leak), "{leak} in\n{}", r.text);
    }
    assert_eq!(value(&s, "herald_action_submit_seconds_count"), 1.0);
    assert!(s.contains_key(r#"herald_action_submit_seconds_bucket{le="0.1"}"#));
    assert_eq!(value(&s, r#"herald_games_active{kind="magnate"}"#), 1.0);
    assert_eq!(value(&s, r#"herald_games_active{kind="lancaster"}"#), 0.0);
    // No worker runs beside a test server: the invitation and the turn mails wait.
    assert!(value(&s, "herald_jobs_queued") >= 2.0);
    assert!(value(&s, "herald_jobs_oldest_queued_age_seconds") >= 0.0);
    assert_eq!(value(&s, "herald_metrics_database_read"), 1.0);
    assert_eq!(value(&s, "herald_mails_sent_total"), 0.0);
    assert_eq!(value(&s, "herald_mails_failed_total"), 0.0);

    // Every answer names its request.
    let (a, b) = (
        app.get("/healthz", None).await,
        app.get("/healthz", None).await,
    );
    let (a, b) = (a.header("x-request-id"), b.header("x-request-id"));
    assert!(
        a.len() == 16 && a.chars().all(|c| c.is_ascii_hexdigit()),
        "{a:?}"
    );
    assert_ne!(a, b);
}

#[actix_web::test]
async fn metrics_need_the_metrics_token_when_one_is_set() {
    let app =
        spawn_app_with(|s| s.http.metrics_token = Some("m3trics-t0ken-of-the-test".into())).await;
    let r = app.get("/metrics", None).await;
    r.assert_problem(401, "unauthenticated");
    assert!(!r.text.contains("herald_"));
    let r = app.get("/metrics", Some("m3trics-t0ken-of-the-tes")).await;
    r.assert_problem(401, "unauthenticated");
    let r = app
        .get("/metrics", Some("m3trics-t0ken-of-the-test!"))
        .await;
    r.assert_problem(401, "unauthenticated");
    let r = app.get("/metrics", Some("m3trics-t0ken-of-the-test")).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.text.contains("herald_http_requests_total"));
    let r = app
        .send(
            awc::http::Method::GET,
            "/metrics",
            None,
            &[("Authorization", "bearer m3trics-t0ken-of-the-test")],
            None,
        )
        .await;
    assert_eq!(r.status, 200, "the scheme is case-insensitive");
}

#[actix_web::test]
async fn mails_sent_by_the_worker_beside_the_server_are_counted_and_their_files_are_private() {
    let app = spawn_app().await;
    let table = app.table().await;
    // Two mails: the first game's turn mail, and the invitation of a game still waiting.
    let r = app
        .post(
            "/api/v1/games",
            Some(&table.tokens[0]),
            json!({"kind": "magnate", "invite": ["carol@example.test"]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    // A second server on the same database, sharing its metrics with a worker, as `herald serve`.
    let metrics = Arc::new(Metrics::new().unwrap());
    let server = Application::build_with_metrics(
        app.settings.clone(),
        ServerOptions {
            workers: 1,
            handle_signals: false,
        },
        metrics.clone(),
    )
    .unwrap();
    let base = format!("http://127.0.0.1:{}", server.port());
    actix_web::rt::spawn(server.run_until_stopped());
    let pool = herald::db::pool(&app.db_url, 2).unwrap();
    let worker = Worker::counting(&app.settings, pool, metrics).unwrap();
    assert!(worker.drain().unwrap() >= 2);

    let mut res = awc::Client::new()
        .get(format!("{base}/metrics"))
        .send()
        .await
        .unwrap();
    let text = String::from_utf8(res.body().await.unwrap().to_vec()).unwrap();
    let s = samples(&text);
    assert!(value(&s, "herald_mails_sent_total") >= 2.0, "{text}");
    assert_eq!(value(&s, "herald_mails_failed_total"), 0.0);
    assert_eq!(value(&s, "herald_jobs_queued"), 0.0);
    assert_eq!(value(&s, "herald_jobs_oldest_queued_age_seconds"), 0.0);

    let dir = app.settings.data_dir.join("mail");
    assert_private(&dir, 2);
}

/// At least `at_least` `.eml` files in `dir`, each of mode 0600, the folder 0700.
#[track_caller]
fn assert_private(dir: &Path, at_least: usize) -> Vec<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(dir), 0o700, "{}", dir.display());
    let files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    assert!(files.len() >= at_least, "{} mail files", files.len());
    for f in &files {
        assert_eq!(mode(f), 0o600, "{}", f.display());
    }
    files
}

/// A TCP front to the test cluster's socket that can stop passing bytes, as a stopped
/// (SIGSTOP) PostgreSQL does: connections stay open and nothing answers.
struct Freezer {
    frozen: Arc<AtomicBool>,
}

impl Freezer {
    /// Starts the front for the database of `url` (the test cluster's Unix-socket URL); returns
    /// it and a URL that goes through it.
    fn start(url: &str) -> (Freezer, String) {
        let (path, query) = url.split_once('?').unwrap();
        let database = path.rsplit('/').next().unwrap().to_owned();
        let params: BTreeMap<&str, &str> = query
            .split('&')
            .filter_map(|kv| kv.split_once('='))
            .collect();
        let socket = PathBuf::from(percent_decode(params["host"]))
            .join(format!(".s.PGSQL.{}", params["port"]));
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let frozen = Arc::new(AtomicBool::new(false));
        let flag = frozen.clone();
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                let Ok(server) = std::os::unix::net::UnixStream::connect(&socket) else {
                    continue;
                };
                pump(
                    client.try_clone().unwrap(),
                    server.try_clone().unwrap(),
                    &flag,
                );
                pump(server, client, &flag);
            }
        });
        let through = format!("postgresql://herald@127.0.0.1:{port}/{database}?sslmode=disable");
        (Freezer { frozen }, through)
    }

    fn freeze(&self, frozen: bool) {
        self.frozen.store(frozen, Ordering::SeqCst);
    }
}

fn pump(
    mut from: impl Read + Send + 'static,
    mut to: impl Write + Send + 'static,
    frozen: &Arc<AtomicBool>,
) {
    let frozen = frozen.clone();
    std::thread::spawn(move || {
        let mut buf = [0u8; 16 * 1024];
        loop {
            let n = match from.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            while frozen.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(5));
            }
            if to.write_all(&buf[..n]).is_err() {
                break;
            }
        }
    });
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let hex = s
            .get(i + 1..i + 3)
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        if let (b'%', Some(byte)) = (bytes[i], hex) {
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[actix_web::test]
async fn readyz_answers_503_within_a_second_while_the_database_hangs_and_200_after() {
    let mut freezer = None;
    let app = spawn_app_with(|s| {
        let (f, url) = Freezer::start(s.database.url.as_deref().unwrap());
        s.database.url = Some(url);
        freezer = Some(f);
    })
    .await;
    let freezer = freezer.unwrap();
    let r = app.get("/readyz", None).await;
    assert_eq!(r.status, 200, "{}", r.text);

    freezer.freeze(true);
    for _ in 0..2 {
        let started = Instant::now();
        let r = app.get("/readyz", None).await;
        let took = started.elapsed();
        r.assert_problem(503, "unavailable");
        assert!(took < Duration::from_millis(1500), "/readyz took {took:?}");
    }
    // The metrics answer too, from their last reading.
    let started = Instant::now();
    let r = app.get("/metrics", None).await;
    assert_eq!(r.status, 200);
    assert!(started.elapsed() < Duration::from_millis(1500));
    assert!(
        r.text.contains("herald_metrics_database_read 0"),
        "{}",
        r.text
    );

    freezer.freeze(false);
    let started = Instant::now();
    loop {
        if app.get("/readyz", None).await.status == 200 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "/readyz stays 503"
        );
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
    }
}

#[actix_web::test]
async fn readyz_answers_503_within_a_second_when_the_database_accepts_and_never_answers() {
    // A listener that takes connections and says nothing, as a hung PostgreSQL.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for conn in listener.incoming() {
            held.push(conn);
        }
    });
    let app = spawn_app_with(|s| {
        s.database.url = Some(format!(
            "postgresql://nobody@127.0.0.1:{port}/nothing?sslmode=disable"
        ));
    })
    .await;
    let started = Instant::now();
    let r = app.get("/readyz", None).await;
    r.assert_problem(503, "unavailable");
    assert!(
        started.elapsed() < Duration::from_millis(1500),
        "{:?}",
        started.elapsed()
    );
}

// ------------------------------------------------------------------ `herald serve` as a process

/// `herald serve` on a migrated test database, its stderr and stdout in `log`.
struct Served {
    child: Child,
    base: String,
    dir: PathBuf,
    log: PathBuf,
}

impl Served {
    async fn start(database_url: &str, env: &[(&str, &str)]) -> Served {
        // The server picks its own port and says it in its log: a port probed here and handed
        // over could be taken by another test's server in between, which would then answer.
        let dir = std::env::temp_dir().join(format!(
            "herald-ops-{}-{}",
            std::process::id(),
            hex::encode(herald::auth::random_bytes::<4>())
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("server.log");
        let out = std::fs::File::create(&log).unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_herald"));
        cmd.arg("serve")
            .current_dir(&dir)
            .env("DATABASE_URL", database_url)
            .env("BIND_ADDR", "127.0.0.1:0")
            .env("DATA_DIR", dir.join("data"))
            // The server's own default filter, as an operator starts it.
            .env_remove("RUST_LOG")
            .env_remove("LOG_FORMAT")
            .env_remove("METRICS_TOKEN")
            .env_remove("SMTP_URL")
            .env_remove("NO_COLOR")
            // Links in its mails name this address; `call` sends their paths to the real port.
            .env("PUBLIC_URL", PUBLIC)
            .stdin(Stdio::null())
            .stdout(out.try_clone().unwrap())
            .stderr(out);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().unwrap();
        let started = Instant::now();
        let port = loop {
            let said = std::fs::read_to_string(&log).unwrap_or_default();
            if let Some(port) = serving_port(&said) {
                break port;
            }
            assert!(
                child.try_wait().unwrap().is_none(),
                "herald serve exited: {said}"
            );
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "herald serve did not say its port: {said}"
            );
            actix_web::rt::time::sleep(Duration::from_millis(50)).await;
        };
        let base = format!("http://127.0.0.1:{port}");
        let client = awc::Client::builder()
            .timeout(Duration::from_secs(5))
            .finish();
        loop {
            if let Ok(res) = client.get(format!("{base}/healthz")).send().await
                && res.status().as_u16() == 200
            {
                break;
            }
            assert!(
                child.try_wait().unwrap().is_none(),
                "herald serve exited: {}",
                std::fs::read_to_string(&log).unwrap_or_default()
            );
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "herald serve did not answer"
            );
            actix_web::rt::time::sleep(Duration::from_millis(100)).await;
        }
        Served {
            child,
            base,
            dir,
            log,
        }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap()
    }

    async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        // Anything else after the port would be read as part of it (and the port then dropped).
        assert!(path.starts_with('/'), "not a path: {path:?}");
        let client = awc::Client::builder()
            .timeout(Duration::from_secs(20))
            .disable_redirects()
            .finish();
        let mut req = client.request(method.parse().unwrap(), format!("{}{path}", self.base));
        if let Some(token) = token {
            req = req.insert_header(("Authorization", format!("Bearer {token}")));
        }
        let sent = match body {
            Some(b) => req.send_json(&b).await,
            None => req.send().await,
        };
        // A failed call says whether the server still runs, and what it logged: the client's
        // error alone ("Connection refused") could not tell a dead server from a bad address.
        let mut res = sent.unwrap_or_else(|e| {
            panic!(
                "{method} {path}: {e}; the server {}; its log:\n{}",
                match Command::new("ps")
                    .args(["-o", "stat=,etime=", "-p", &self.child.id().to_string()])
                    .output()
                {
                    Ok(ps) if ps.status.success() =>
                        format!("runs ({})", String::from_utf8_lossy(&ps.stdout).trim()),
                    _ => "has exited".to_owned(),
                },
                self.log()
            )
        });
        let bytes = res.body().limit(1 << 20).await.unwrap();
        (
            res.status().as_u16(),
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    async fn account(&self, email: &str, name: &str) -> String {
        let (st, b) = self
            .call(
                "POST",
                "/api/v1/accounts",
                None,
                Some(json!({"email": email, "display_name": name, "password": "correct horse 42"})),
            )
            .await;
        assert_eq!(st, 201, "{b}");
        let (st, b) = self
            .call(
                "POST",
                "/api/v1/auth/token",
                None,
                Some(json!({"email": email, "password": "correct horse 42"})),
            )
            .await;
        assert_eq!(st, 200, "{b}");
        b["access_token"].as_str().unwrap().to_owned()
    }

    /// A Magnate game made by `creator`, inviting `invitee`, who joins it: started. Its id.
    async fn magnate_game(&self, creator: &str, invitee: &str, invitee_token: &str) -> String {
        let (st, g) = self
            .call(
                "POST",
                "/api/v1/games",
                Some(creator),
                Some(json!({"kind": "magnate", "invite": [invitee]})),
            )
            .await;
        assert_eq!(st, 201, "{g}");
        let id = g["id"].as_str().unwrap().to_owned();
        let (st, b) = self
            .call(
                "POST",
                &format!("/api/v1/games/{id}/join"),
                Some(invitee_token),
                Some(json!({})),
            )
            .await;
        assert_eq!(st, 200, "{b}");
        id
    }

    /// Asks for a sign-in link by mail for `email` (queued for the worker).
    async fn mail_sign_in_link(&self, email: &str) {
        let (st, b) = self
            .call(
                "POST",
                "/api/v1/auth/email-link",
                None,
                Some(json!({ "email": email })),
            )
            .await;
        assert!((200..300).contains(&st), "{st} {b}");
    }

    /// SIGTERM; returns whether it exited 0 and how long it took.
    fn terminate(mut self) -> (bool, Duration, String) {
        let started = Instant::now();
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > Duration::from_secs(25) {
                let _ = self.child.kill();
                panic!("herald serve still runs 25 s after SIGTERM: {}", self.log());
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let log = self.log();
        let _ = std::fs::remove_dir_all(&self.dir);
        (status.success(), started.elapsed(), log)
    }
}

/// The address a `Served` server writes in its mails' links.
const PUBLIC: &str = "http://herald-ops.test";

/// The port in the server's "serving" line, as text (`serving bind=127.0.0.1:0 port=41234`) or
/// JSON (`"port":41234`).
fn serving_port(log: &str) -> Option<u16> {
    let line = log.lines().find(|l| l.contains("serving"))?;
    let (_, rest) = line.split_once("port")?;
    let digits: String = rest
        .trim_start_matches(['=', '"', ':'])
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

impl Drop for Served {
    /// A test that ends (or fails) before `terminate` leaves no server running behind it.
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Candidate secrets of a link, as the first-hour acceptance looks for them: path segments and
/// query values of 16 or more of `[A-Za-z0-9._~-]` with a digit, UUIDs excepted.
fn secrets_of(link: &str, out: &mut Vec<String>) {
    let rest = link.split_once("://").map_or(link, |(_, r)| r);
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let values = query
        .split('&')
        .filter_map(|kv| kv.split_once('=').map(|(_, v)| v));
    for part in path.split('/').chain(values) {
        let part = percent_decode(part);
        if part.len() >= 16
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._~-".contains(c))
            && part.chars().any(|c| c.is_ascii_digit())
            && uuid::Uuid::try_parse(&part).is_err()
        {
            out.push(part);
        }
    }
}

/// The links to `base` in a mail file, as its reader sees them: in its headers (unfolded) and in
/// its decoded text and HTML parts (HTML unescaped). Read undecoded, a quoted-printable soft line
/// break could cut a link anywhere, even right after the host, where the rest of the address
/// (`=`) would be taken for a port.
fn links_in(raw: &[u8], base: &str) -> Vec<String> {
    let raw_text = String::from_utf8_lossy(raw);
    let headers = raw_text
        .split("\r\n\r\n")
        .next()
        .unwrap_or("")
        .replace("\r\n ", " ")
        .replace("\r\n\t", " ");
    let message = mail_parser::MessageParser::default()
        .parse(raw)
        .expect("a mail herald wrote parses");
    let mut text = headers;
    for i in 0.. {
        let (plain, html) = (message.body_text(i), message.body_html(i));
        if plain.is_none() && html.is_none() {
            break;
        }
        for part in [plain, html].into_iter().flatten() {
            text.push('\n');
            text.push_str(&part);
        }
    }
    let text = text.replace("&amp;", "&");
    text.split(|c: char| c.is_whitespace() || "\"'<>".contains(c))
        .filter(|w| w.starts_with(base))
        .map(|w| w.trim_end_matches(['.', ',', ';', ')']).to_owned())
        .collect()
}

#[actix_web::test]
async fn herald_serve_logs_one_access_line_per_request_without_queries_tokens_or_colours() {
    let db = spawn_app().await;
    let srv = Served::start(&db.db_url, &[]).await;
    let ada = srv.account("ada@example.test", "Ada").await;
    let bruno = srv.account("bruno@example.test", "Bruno").await;
    srv.magnate_game(&ada, "bruno@example.test", &bruno).await;
    // First, so that its job has run when Ada's mail is written.
    srv.mail_sign_in_link("nobody@example.test").await;
    srv.mail_sign_in_link("ada@example.test").await;
    let (st, _) = srv
        .call(
            "DELETE",
            "/api/v1/game-kinds?probe=Pr0beOfTheQuery",
            None,
            None,
        )
        .await;
    assert_eq!(st, 405);

    // Invitation, turn and sign-in mails, written by the worker inside `herald serve`.
    let mail = srv.dir.join("data/mail");
    let started = Instant::now();
    let files = loop {
        let n = std::fs::read_dir(&mail).map_or(0, |d| d.count());
        if n >= 3 {
            actix_web::rt::time::sleep(Duration::from_millis(300)).await;
            break assert_private(&mail, 3);
        }
        assert!(started.elapsed() < Duration::from_secs(20), "{n} mails");
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
    };
    let mut links = Vec::new();
    for f in &files {
        links.extend(links_in(&std::fs::read(f).unwrap(), PUBLIC));
    }
    links.sort();
    links.dedup();
    let mut secrets = vec![ada.clone(), bruno.clone()];
    for link in &links {
        secrets_of(link, &mut secrets);
        let path = &link[PUBLIC.len()..];
        let (st, _) = srv.call("GET", path, None, None).await;
        assert!(st < 500, "{path}: {st}");
    }
    assert!(
        secrets.len() >= 4,
        "mail tokens found in {links:?}: {secrets:?}"
    );
    let (st, _) = srv.call("GET", "/api/v1/me", Some(&ada), None).await;
    assert_eq!(st, 200);
    // A request the HTTP parser refuses (a control byte in a header) gets its 400 and leaves
    // no ERROR line that a client could repeat to fill the log.
    let addr = srv.base.trim_start_matches("http://").to_owned();
    let answer = actix_web::rt::task::spawn_blocking(move || {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        s.write_all(b"GET /api/v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\x01b\r\n\r\n")
            .unwrap();
        let mut buf = Vec::new();
        let _ = s.read_to_end(&mut buf);
        String::from_utf8_lossy(&buf).into_owned()
    })
    .await
    .unwrap();
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;

    let log = srv.log();
    assert!(
        !log.contains("parse error") && !log.contains("ERROR"),
        "{log}"
    );
    for secret in &secrets {
        let line = log.lines().find(|l| l.contains(secret.as_str()));
        assert!(line.is_none(), "a token in the log: {line:?}");
    }
    assert!(!log.contains('\x1b'), "colour codes in a log file");
    // A link asked for an address without an account is logged as one with an account is, and
    // its job (written, run and dropped) says nothing above debug.
    assert!(!log.contains("nobody@example.test"), "{log}");
    assert_eq!(log.matches("sign-in link queued").count(), 2, "{log}");
    assert!(
        !log.contains("Pr0beOfTheQuery"),
        "a query string in the log"
    );
    let access: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("herald::access"))
        .collect();
    let deleted: Vec<&&str> = access
        .iter()
        .filter(|l| l.contains("DELETE") && l.contains("/api/v1/game-kinds") && l.contains("405"))
        .collect();
    assert_eq!(deleted.len(), 1, "{access:#?}");
    assert!(deleted[0].contains("request_id="), "{}", deleted[0]);
    assert!(deleted[0].contains("duration_ms="), "{}", deleted[0]);
    assert!(
        access
            .iter()
            .any(|l| l.contains("route=/sign-in/{token}") && l.contains("GET")),
        "the sign-in link is logged by its pattern: {access:#?}"
    );
    assert!(
        access
            .iter()
            .any(|l| l.contains("route=/api/v1/games/{id}/join") && l.contains("status=200")),
        "{access:#?}"
    );

    let (exited_0, took, log) = srv.terminate();
    assert!(exited_0, "{log}");
    assert!(took < Duration::from_secs(20), "{took:?}");
    let tail: Vec<&str> = log.lines().rev().take(8).collect();
    assert!(
        tail.iter().any(|l| l.contains("shutting down")),
        "{tail:#?}"
    );
}

#[actix_web::test]
async fn with_log_format_json_every_line_is_a_json_object_and_sigterm_says_it_shuts_down() {
    let db = spawn_app().await;
    let srv = Served::start(&db.db_url, &[("LOG_FORMAT", "json")]).await;
    let (st, _) = srv.call("GET", "/api/v1/game-kinds", None, None).await;
    assert_eq!(st, 200);
    let (st, _) = srv
        .call("GET", "/api/v1/no-such-thing?q=Qu3ryValueHere", None, None)
        .await;
    assert_eq!(st, 404);
    srv.account("jason@example.test", "Jason Lines").await;
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;

    let (exited_0, took, log) = srv.terminate();
    assert!(exited_0, "{log}");
    assert!(took < Duration::from_secs(20), "{took:?}");
    let lines: Vec<Value> = log
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?}"));
            assert!(v.is_object(), "{l}");
            v
        })
        .collect();
    assert!(!log.contains("Qu3ryValueHere"));
    let not_found: Vec<&Value> = lines
        .iter()
        .filter(|v| v["target"] == "herald::access" && v["status"] == 404)
        .collect();
    assert_eq!(not_found.len(), 1, "{lines:#?}");
    let line = not_found[0];
    assert_eq!(line["method"], "GET");
    assert_eq!(line["route"], "unmatched");
    assert_eq!(line["path"], "/api/v1/no-such-thing");
    assert_eq!(line["level"], "INFO");
    assert!(line["duration_ms"].is_number(), "{line}");
    assert!(
        line["request_id"].as_str().is_some_and(|id| id.len() == 16),
        "{line}"
    );
    assert!(
        lines
            .iter()
            .any(|v| v["route"] == "/api/v1/accounts" && v["status"] == 201),
        "{lines:#?}"
    );
    let tail = &lines[lines.len().saturating_sub(8)..];
    assert!(
        tail.iter().any(|v| v["message"]
            .as_str()
            .is_some_and(|m| m.contains("shutting down"))
            && v["signal"] == "SIGTERM"),
        "{tail:#?}"
    );
}

#[actix_web::test]
async fn the_sign_in_limit_is_a_setting_and_a_bad_value_stops_the_server() {
    let wrong = json!({"email": "ada@example.test", "password": "not the password"});
    let right = json!({"email": "ada@example.test", "password": "correct horse 42"});
    // Today's limit stays the default: after ten wrong passwords from one address in a minute,
    // even the right one is refused.
    let default = spawn_app().await;
    default.user("ada@example.test", "Ada").await;
    let mut statuses = Vec::new();
    for _ in 0..10 {
        statuses.push(
            default
                .post("/api/v1/auth/token", None, wrong.clone())
                .await
                .status,
        );
    }
    statuses.push(
        default
            .post("/api/v1/auth/token", None, right.clone())
            .await
            .status,
    );
    assert_eq!(statuses[..10], [401; 10], "{statuses:?}");
    assert_eq!(statuses[10], 429, "{statuses:?}");
    // With the limit at 40 (what SIGN_IN_PER_MINUTE=40 sets), a bot's 32 misses leave it working.
    let db = spawn_app_with(|s| s.auth.sign_in_per_minute = 40).await;
    db.user("ada@example.test", "Ada").await;
    for n in 0..32 {
        let r = db.post("/api/v1/auth/token", None, wrong.clone()).await;
        assert_eq!(r.status, 401, "try {n}: {}", r.text);
    }
    let r = db.post("/api/v1/auth/token", None, right).await;
    assert_eq!(r.status, 200, "{}", r.text);
    // The variable itself is read when the server starts: a bad value stops it, named.
    let dir = std::env::temp_dir().join(format!("herald-limit-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_herald"))
        .arg("serve")
        .env("DATABASE_URL", &db.db_url)
        .env("BIND_ADDR", "127.0.0.1:0")
        .env("DATA_DIR", &dir)
        .env("SIGN_IN_PER_MINUTE", "0")
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("SIGN_IN_PER_MINUTE"), "{said}");
}

/// `DATABASE_POOL_SIZE` is read when the server starts, like the rate limits: a value that is not
/// a whole number of at least 1 stops it, named, before it serves anything.
#[actix_web::test]
async fn a_bad_pool_size_stops_the_server_naming_it() {
    let url = crate::helpers::spawn_empty_database().await;
    for bad in ["0", "many", "-4"] {
        let dir = std::env::temp_dir().join(format!("herald-pool-{}", std::process::id()));
        let mut server = Command::new(env!("CARGO_BIN_EXE_herald"))
            .arg("serve")
            .env("DATABASE_URL", &url)
            .env("BIND_ADDR", "127.0.0.1:0")
            .env("DATA_DIR", &dir)
            .env("DATABASE_POOL_SIZE", bad)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // A server that accepted the value would serve until stopped: fail, do not hang.
        let deadline = Instant::now() + Duration::from_secs(30);
        let status = loop {
            if let Some(status) = server.try_wait().unwrap() {
                break Some(status);
            }
            if Instant::now() > deadline {
                let _ = server.kill();
                let _ = server.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let _ = std::fs::remove_dir_all(&dir);
        assert!(
            status.is_some_and(|s| !s.success()),
            "{bad}: the server started"
        );
        let mut said = String::new();
        server
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut said)
            .unwrap();
        assert!(
            said.contains("DATABASE_POOL_SIZE") && said.contains(bad),
            "{bad}: {said}"
        );
    }
}

/// A request waits for one of the pool's permits before it takes a blocking thread
/// (`db::run`), and gives it back whatever its work did. With one connection, forty requests at
/// once, half of them for a game that does not exist (their work fails), are each answered as
/// they would be alone, and so is one after them. A permit kept by a failed request would leave
/// every later one waiting out the pool's 10 seconds and answered 503.
#[actix_web::test]
async fn one_connection_answers_forty_requests_at_once_and_each_gives_it_back() {
    let app = spawn_app_with(|s| s.database.pool_size = 1).await;
    let table = app.table().await;
    let game = format!("/api/v1/games/{}", table.id);
    let missing = "/api/v1/games/00000000-0000-4000-8000-000000000000";
    let asked = (0..40).map(|i| {
        let path = if i % 2 == 0 { game.as_str() } else { missing };
        app.get(path, Some(&table.tokens[i % 2]))
    });
    let replies = futures_util::future::join_all(asked).await;
    for (i, r) in replies.iter().enumerate() {
        if i % 2 == 0 {
            assert_eq!(r.status, 200, "request {i}: {}", r.text);
            assert_eq!(r.json["id"], table.id.as_str(), "request {i}");
        } else {
            r.assert_problem(404, "not_found");
        }
    }
    let after = app.get(&game, Some(&table.tokens[0])).await;
    assert_eq!(after.status, 200, "{}", after.text);
}

/// A kept statement (the submission path's one write) is prepared once per connection however
/// often it runs, and a marker written twice binds the same value at both places.
#[actix_web::test]
async fn a_kept_statement_is_prepared_once_per_connection_and_repeats_its_markers() {
    use diesel::sql_types::{BigInt, Integer, Text};
    use diesel::{Connection, PgConnection, RunQueryDsl};
    let url = crate::helpers::spawn_empty_database().await;
    let mut conn = PgConnection::establish(&url).unwrap();
    diesel::sql_query("CREATE TABLE kept_rows (a integer, b integer, c text)")
        .execute(&mut conn)
        .unwrap();
    for n in 1..=3 {
        let written =
            herald::db::Kept::new("INSERT INTO kept_rows SELECT $1, $1 + $2, $3 WHERE $2 > 0")
                .bind::<Integer, _>(n)
                .bind::<Integer, _>(10)
                .bind::<Text, _>(format!("row {n}"))
                .execute(&mut conn)
                .unwrap();
        assert_eq!(written, 1);
    }
    let rows: String = diesel::select(diesel::dsl::sql::<Text>(
        "(SELECT string_agg(a || ',' || b || ',' || c, ';' ORDER BY a) FROM kept_rows)",
    ))
    .get_result(&mut conn)
    .unwrap();
    assert_eq!(rows, "1,11,row 1;2,12,row 2;3,13,row 3");
    let prepared: i64 = diesel::select(diesel::dsl::sql::<BigInt>(
        "(SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE 'INSERT INTO kept_rows%')",
    ))
    .get_result(&mut conn)
    .unwrap();
    assert_eq!(prepared, 1, "the statement is kept, not prepared per call");
    // A marker without a value is refused before anything is sent.
    let missing = herald::db::Kept::new("SELECT $1, $2")
        .bind::<Integer, _>(1)
        .execute(&mut conn)
        .unwrap_err();
    assert!(missing.to_string().contains("$2"), "{missing}");
}

/// A pooled connection is handed out untested for half a second after its last test, and a
/// dead one is tested and replaced once that has passed: a database restart costs at most the
/// requests of that half second, never the connection for good.
#[actix_web::test]
async fn a_dead_pooled_connection_is_replaced_after_the_alive_window() {
    use diesel::RunQueryDsl;
    use diesel::sql_types::Integer;
    #[derive(diesel::QueryableByName)]
    struct Pid {
        #[diesel(sql_type = Integer)]
        pid: i32,
    }
    let pid = |conn: &mut diesel::PgConnection| {
        diesel::sql_query("SELECT pg_backend_pid() AS pid")
            .get_result::<Pid>(conn)
            .map(|p| p.pid)
    };
    let url = crate::helpers::spawn_empty_database().await;
    let pool = herald::db::pool(&url, 1).unwrap();
    let first = pid(&mut pool.get().unwrap()).unwrap();
    // Within the window the same connection comes back without a test.
    assert_eq!(pid(&mut pool.get().unwrap()).unwrap(), first);
    let mut other = <diesel::PgConnection as diesel::Connection>::establish(&url).unwrap();
    diesel::sql_query(format!("SELECT pg_terminate_backend({first})"))
        .execute(&mut other)
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(600));
    let after = pid(&mut pool.get().unwrap()).expect("a working connection after the window");
    assert_ne!(after, first, "the dead connection was replaced");
}

/// The server's connections never start parallel workers: starting them costs milliseconds and
/// every statement of the server reads a page of rows at most (the lobby over 100,000 finished
/// games took 14–23 ms with two workers against 0.3–0.6 ms without). The session makes a parallel
/// plan as cheap as it can be; a plain connection then gathers from workers, the pool's does not.
#[actix_web::test]
async fn the_servers_connections_plan_without_parallel_workers() {
    use diesel::RunQueryDsl;
    use diesel::connection::SimpleConnection;
    #[derive(diesel::QueryableByName)]
    struct Line {
        #[diesel(sql_type = diesel::sql_types::Text, column_name = "QUERY PLAN")]
        line: String,
    }
    let plan = |conn: &mut diesel::PgConnection| -> String {
        conn.batch_execute(
            "SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; \
             SET min_parallel_table_scan_size = 0",
        )
        .unwrap();
        diesel::sql_query("EXPLAIN SELECT count(*) FROM numbers")
            .load::<Line>(conn)
            .unwrap()
            .into_iter()
            .map(|l| l.line)
            .collect::<Vec<_>>()
            .join("\n")
    };
    let url = crate::helpers::spawn_empty_database().await;
    let mut plain = <diesel::PgConnection as diesel::Connection>::establish(&url).unwrap();
    plain
        .batch_execute(
            "CREATE TABLE numbers AS SELECT generate_series(1, 10000) AS n; ANALYZE numbers",
        )
        .unwrap();
    let plain = plan(&mut plain);
    assert!(
        plain.contains("Gather"),
        "the control plans with workers: {plain}"
    );
    let pool = herald::db::pool(&url, 1).unwrap();
    let pooled = plan(&mut pool.get().unwrap());
    assert!(
        !pooled.contains("Gather"),
        "the server's connection started workers: {pooled}"
    );
}

/// The scans of table `games` and of each of its indexes so far, by name (`seq` for the table's
/// sequential scans).
fn games_scans(db_url: &str) -> BTreeMap<String, i64> {
    use diesel::{Connection, RunQueryDsl};
    #[derive(diesel::QueryableByName)]
    struct Scans {
        #[diesel(sql_type = diesel::sql_types::Text)]
        name: String,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let mut conn = diesel::PgConnection::establish(db_url).unwrap();
    let rows: Vec<Scans> = diesel::sql_query(
        "SELECT 'seq' AS name, seq_scan AS n FROM pg_stat_user_tables WHERE relname = 'games' \
         UNION ALL SELECT indexrelname::text, idx_scan FROM pg_stat_user_indexes \
         WHERE relname = 'games'",
    )
    .load(&mut conn)
    .unwrap();
    rows.into_iter().map(|r| (r.name, r.n)).collect()
}

#[actix_web::test]
async fn the_lobby_and_the_archive_read_games_by_index_never_the_whole_table() {
    use diesel::{Connection, RunQueryDsl};
    let app = spawn_app().await;
    let table = app.table().await;
    let r = app.resign(&table, 0).await;
    assert_eq!(r.status, 200, "{}", r.text);
    // The games table grows with every game ever played. A server whose connections avoid a
    // sequential scan wherever an index can serve: the lists must not need one.
    let mut conn = diesel::PgConnection::establish(&app.db_url).unwrap();
    diesel::sql_query(
        "DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET enable_seqscan = off', \
         current_database()); END $$",
    )
    .execute(&mut conn)
    .unwrap();
    let base = app.second_server();
    let before = games_scans(&app.db_url);
    let http = awc::Client::new();
    for (path, token) in [
        ("/api/v1/lobby", Some(&table.tokens[1])),
        ("/archive", None),
        ("/archive?kind=magnate", None),
    ] {
        let mut req = http.get(format!("{base}{path}"));
        if let Some(t) = token {
            req = req.insert_header(("Authorization", format!("Bearer {t}")));
        }
        let mut res = req.send().await.unwrap();
        let body = res.body().await.unwrap();
        assert_eq!(res.status(), 200, "{path}: {body:?}");
    }
    // The server's connections report their counts within a second or so of going idle: wait
    // until each list's index shows its scan, then compare the table's sequential scans.
    let started = std::time::Instant::now();
    let after = loop {
        let now = games_scans(&app.db_url);
        let used = |index: &str| now.get(index) > before.get(index);
        if used("games_by_status_created")
            && used("games_by_status_finished")
            && used("games_by_status_kind_finished")
        {
            break now;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "the lists' indexes were not used: before {before:?}, now {now:?}"
        );
        actix_web::rt::time::sleep(std::time::Duration::from_millis(200)).await;
    };
    assert_eq!(after.get("seq"), before.get("seq"), "{before:?} {after:?}");
}

/// A webhook receiver that accepts each delivery and never answers: the connection stays open
/// for `hold`, longer than a delivery's 10-second timeout. Records when it accepted each one.
fn silent_receiver(hold: Duration) -> (String, Arc<std::sync::Mutex<Vec<Instant>>>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let accepted = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = accepted.clone();
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(conn) = conn else { continue };
            seen.lock().unwrap().push(Instant::now());
            std::thread::spawn(move || {
                std::thread::sleep(hold);
                drop(conn);
            });
        }
    });
    (url, accepted)
}

/// Design.md section 17: a slow receiver never delays mail. In `herald serve` itself, two
/// receivers that hold every delivery open take both webhook threads (each holding its pooled
/// connection while it waits); a sign-in mail asked for meanwhile is still written within
/// seconds, long before either delivery times out.
#[actix_web::test]
async fn two_silent_webhook_receivers_delay_no_mail_from_herald_serve() {
    let db = spawn_app().await;
    let srv = Served::start(&db.db_url, &[("WEBHOOKS_ALLOW_PRIVATE", "true")]).await;
    let ada = srv.account("ada@example.test", "Ada").await;
    let bruno = srv.account("bruno@example.test", "Bruno").await;
    let id = srv.magnate_game(&ada, "bruno@example.test", &bruno).await;
    // The start's mails are written before the receivers are subscribed.
    let mail = srv.dir.join("data/mail");
    let count = |dir: &Path| std::fs::read_dir(dir).map_or(0, |d| d.count());
    let started = Instant::now();
    while count(&mail) < 2 {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "no start mails"
        );
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
    }
    actix_web::rt::time::sleep(Duration::from_millis(500)).await;
    let before = count(&mail);

    let hold = Duration::from_secs(20);
    let mut receivers = Vec::new();
    for token in [&ada, &bruno] {
        let (url, accepted) = silent_receiver(hold);
        let (st, b) = srv
            .call(
                "POST",
                "/api/v1/me/webhooks",
                Some(token),
                Some(json!({"url": url, "events": ["chat"]})),
            )
            .await;
        assert_eq!(st, 201, "{b}");
        receivers.push(accepted);
    }
    // Each says something: the other's receiver gets a delivery, and neither answers.
    for token in [&ada, &bruno] {
        let (st, b) = srv
            .call(
                "POST",
                &format!("/api/v1/games/{id}/chat"),
                Some(token),
                Some(json!({"text": "good luck"})),
            )
            .await;
        assert_eq!(st, 201, "{b}");
    }
    let started = Instant::now();
    while receivers.iter().any(|r| r.lock().unwrap().is_empty()) {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the deliveries did not reach both receivers: {}",
            srv.log()
        );
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    let held_since = receivers
        .iter()
        .map(|r| r.lock().unwrap()[0])
        .max()
        .unwrap();

    // Both webhook threads wait; the mail thread still sends.
    srv.mail_sign_in_link("ada@example.test").await;
    while count(&mail) <= before {
        assert!(
            held_since.elapsed() < Duration::from_secs(8),
            "no mail while two webhook deliveries hang: {}",
            srv.log()
        );
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    for r in &receivers {
        assert_eq!(r.lock().unwrap().len(), 1, "a delivery was retried already");
    }
    let (clean, _, log) = srv.terminate();
    assert!(clean, "{log}");
}

/// Each worker lane finds its next due job by index, whatever the other lanes have waiting: the
/// webhook lane never reads through the mails due ahead of its delivery, the mail lane never
/// through deliveries, a lane of one kind (the benchmarks' archiver) through neither. Counted by
/// the rows the poll's transaction fetched by index or read by a scan, whichever plan it took
/// (`pg_stat_xact_user_tables`).
#[actix_web::test]
async fn each_job_lane_takes_its_next_job_without_reading_the_other_lanes_backlog() {
    use diesel::connection::SimpleConnection;
    use diesel::{Connection, QueryableByName, RunQueryDsl};
    use herald::jobs::{BackgroundJob, Lane, Ran, run_one};
    #[derive(QueryableByName)]
    struct Fetched {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let url = crate::helpers::spawn_empty_database().await;
    let mut conn = diesel::PgConnection::establish(&url).unwrap();
    herald::db::migrate(&mut conn).unwrap();
    // The kinds as the jobs name them: the mail lane's index names the webhooks' kind.
    let webhook = <herald::services::webhooks::DeliverWebhook as BackgroundJob>::KIND;
    let archive = <herald::services::games::record::ArchiveRecord as BackgroundJob>::KIND;
    let mail = <herald::email::jobs::TurnMail as BackgroundJob>::KIND;
    for (lane, backlog, wanted) in [
        (Lane::Webhooks, mail, webhook),
        (Lane::Mail, webhook, mail),
        (Lane::Kind(archive), mail, archive),
    ] {
        // 3,000 jobs of other kinds due before the one this lane takes.
        conn.batch_execute(&format!(
            "TRUNCATE jobs; \
             INSERT INTO jobs (kind, payload, run_at) \
             SELECT '{backlog}', '{{}}', now() - interval '2 hours' + i * interval '1 ms' \
             FROM generate_series(1, 3000) i; \
             INSERT INTO jobs (kind, payload, run_at) \
             VALUES ('{wanted}', '{{}}', now() - interval '1 hour'); ANALYZE jobs"
        ))
        .unwrap();
        let (ran, fetched) = conn
            .transaction::<_, diesel::result::Error, _>(|conn| {
                let mut kinds = Vec::new();
                let ran = run_one(conn, lane, &mut |_, job| {
                    kinds.push(job.kind.clone());
                    Ok(())
                })?;
                let fetched: Fetched = diesel::sql_query(
                    "SELECT (coalesce(idx_tup_fetch, 0) + coalesce(seq_tup_read, 0))::bigint AS n \
                     FROM pg_stat_xact_user_tables WHERE relname = 'jobs'",
                )
                .get_result(conn)?;
                assert_eq!(kinds, [wanted], "{lane:?} took its own job");
                Ok((ran, fetched.n))
            })
            .unwrap();
        assert!(matches!(ran, Ran::Done { .. }), "{lane:?}: {ran:?}");
        assert!(
            fetched < 10,
            "{lane:?} read {fetched} jobs to find its one among 3,000 of {backlog}"
        );
    }
}

#[actix_web::test]
async fn rows_past_their_keeping_are_pruned_and_recent_ones_kept() {
    use diesel::connection::SimpleConnection;
    use diesel::{Connection, PgConnection, RunQueryDsl};
    let app = spawn_app().await;
    let ada = app.user("ada@example.org", "Ada").await;
    let create = |key: &'static str, invite: &'static str| {
        let (app, ada) = (&app, ada.clone());
        async move {
            app.send(
                awc::http::Method::POST,
                "/api/v1/games",
                Some(&ada),
                &[
                    ("Content-Type", "application/json"),
                    ("Idempotency-Key", key),
                ],
                Some(serde_json::to_vec(&json!({"kind": "magnate", "invite": [invite]})).unwrap()),
            )
            .await
        }
    };
    for key in ["last-week", "today"] {
        let r = create(key, "bruno@example.test").await;
        assert_eq!(r.status, 201, "{}", r.text);
    }
    // One answer kept for retries was given eight days ago; and beside it, for each of the
    // other tables, a row past its keeping and one not yet.
    let mut conn = PgConnection::establish(&app.db_url).unwrap();
    diesel::sql_query(
        "UPDATE idempotency_keys SET created_at = now() - interval '8 days' \
         WHERE key = 'last-week'",
    )
    .execute(&mut conn)
    .unwrap();
    conn.batch_execute(
        "INSERT INTO web_sessions (id, user_id, created_at) \
         SELECT gen_random_uuid(), id, now() - d FROM users, \
           (VALUES (interval '32 days'), (interval '29 days')) ages(d); \
         INSERT INTO inbound_mails (sender, message_id, received_at) VALUES \
           ('ada@example.org', '<old@mail>', now() - interval '31 days'), \
           ('ada@example.org', '<new@mail>', now() - interval '29 days'); \
         INSERT INTO email_links (id, token_hash, email, purpose, expires_at) VALUES \
           (gen_random_uuid(), '\\x01', 'ada@example.org', 'sign_in', now() - interval '31 days'), \
           (gen_random_uuid(), '\\x02', 'ada@example.org', 'sign_in', now() - interval '29 days')",
    )
    .unwrap();
    let worker = Worker::new(&app.settings, herald::db::pool(&app.db_url, 2).unwrap()).unwrap();
    let pruned: BTreeMap<&str, (usize, bool)> = worker
        .housekeeping()
        .unwrap()
        .into_iter()
        .map(|(what, r)| (what, r.unwrap()))
        .collect();
    assert_eq!(
        pruned,
        BTreeMap::from([
            ("expired links", (1, false)),
            ("idempotency keys", (1, false)),
            ("inbound mails", (1, false)),
            ("web sessions", (1, false)),
        ])
    );
    // What is left is what is recent; a second run finds nothing.
    #[derive(diesel::QueryableByName)]
    struct Left {
        #[diesel(sql_type = diesel::sql_types::Text)]
        what: String,
    }
    let left: Vec<String> = diesel::sql_query(
        "SELECT key AS what FROM idempotency_keys \
         UNION ALL SELECT message_id FROM inbound_mails \
         UNION ALL SELECT 'link' FROM email_links WHERE token_hash IN ('\\x01', '\\x02') \
         UNION ALL SELECT 'session' FROM web_sessions WHERE created_at > now() - interval '30 days' \
         ORDER BY 1",
    )
    .load::<Left>(&mut conn)
    .unwrap()
    .into_iter()
    .map(|l| l.what)
    .collect();
    assert_eq!(left, ["<new@mail>", "link", "session", "today"]);
    assert!(
        worker
            .housekeeping()
            .unwrap()
            .iter()
            .all(|(_, r)| matches!(r, Ok((0, false))))
    );
    // The forgotten key is free again: another request with it is answered afresh, where the
    // kept one still refuses another body.
    let again = create("last-week", "carla@example.test").await;
    assert_eq!(again.status, 201, "{}", again.text);
    create("today", "carla@example.test")
        .await
        .assert_problem(409, "conflict");
}

#[actix_web::test]
async fn a_failure_behind_a_page_is_logged_as_the_apis_are() {
    use diesel::{Connection, RunQueryDsl};
    let db = spawn_app().await;
    let srv = Served::start(&db.db_url, &[]).await;
    let (st, _) = srv.call("GET", "/archive", None, None).await;
    assert_eq!(st, 200, "{}", srv.log());
    assert!(!srv.log().contains("internal error"), "{}", srv.log());
    // The archive page's table gone: a failure, not the reader's fault.
    let mut conn = diesel::PgConnection::establish(&db.db_url).unwrap();
    diesel::sql_query("ALTER TABLE games RENAME TO games_gone")
        .execute(&mut conn)
        .unwrap();
    let (st, _) = srv.call("GET", "/archive", None, None).await;
    assert_eq!(st, 500, "{}", srv.log());
    let logged = srv.log();
    let line = logged
        .lines()
        .find(|l| l.contains("internal error"))
        .unwrap_or_else(|| panic!("the page's failure was not logged:\n{logged}"));
    assert!(line.contains("ERROR") && line.contains("games"), "{line}");
}
