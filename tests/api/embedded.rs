//! The embedded database under faults (design.md section 20): `herald serve` killed with SIGKILL
//! and restarted at once on the same DATA_DIR, `herald verify` twice in a row and beside a running
//! server, and PostgreSQL killed under a running server. Each test runs the real binary on a
//! DATA_DIR of its own, the way a supervisor (systemd, Docker) would.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A DATA_DIR kept across restarts, and the servers started on it.
struct Node {
    root: PathBuf,
    port: u16,
    client: awc::Client,
}

impl Node {
    fn new(tag: &str) -> Node {
        let root = std::env::temp_dir().join(format!(
            "herald-{tag}-{}-{}",
            std::process::id(),
            hex::encode(herald::auth::random_bytes::<4>())
        ));
        std::fs::create_dir_all(&root).unwrap();
        Node {
            root,
            port: free_port(),
            client: awc::Client::builder()
                .timeout(Duration::from_secs(5))
                .finish(),
        }
    }

    /// A second server on the same DATA_DIR.
    fn beside(&self) -> Node {
        Node {
            root: self.root.clone(),
            port: free_port(),
            client: awc::Client::builder()
                .timeout(Duration::from_secs(5))
                .finish(),
        }
    }

    fn data(&self) -> PathBuf {
        self.root.join("data")
    }

    fn herald(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_herald"));
        cmd.args(args)
            .current_dir(&self.root)
            .env_remove("DATABASE_URL")
            .env_remove("SMTP_URL")
            .env("BIND_ADDR", format!("127.0.0.1:{}", self.port))
            .env("DATA_DIR", self.data())
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null());
        cmd
    }

    fn serve(&self) -> Child {
        self.herald(&["serve"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    }

    async fn status(&self, path: &str) -> Option<u16> {
        let res = self
            .client
            .get(format!("http://127.0.0.1:{}{path}", self.port))
            .send()
            .await
            .ok()?;
        Some(res.status().as_u16())
    }

    /// Waits until /readyz answers 200; panics when the server exits or `limit` passes.
    async fn ready(&self, server: &mut Child, limit: Duration, what: &str) {
        let began = Instant::now();
        loop {
            if let Some(exit) = server.try_wait().unwrap() {
                panic!("{what}: herald serve exited with {exit}");
            }
            if self.status("/readyz").await == Some(200) {
                return;
            }
            assert!(began.elapsed() < limit, "{what}: not ready after {limit:?}");
            actix_web::rt::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn call(&self, path: &str, token: Option<&str>, body: Option<Value>) -> (u16, Value) {
        let url = format!("http://127.0.0.1:{}/api/v1{path}", self.port);
        let mut req = match body {
            Some(_) => self.client.post(url),
            None => self.client.get(url),
        };
        if let Some(token) = token {
            req = req.insert_header(("Authorization", format!("Bearer {token}")));
        }
        let mut res = match body {
            Some(body) => req.send_json(&body).await,
            None => req.send().await,
        }
        .expect("the server answers");
        let bytes = res.body().await.unwrap();
        (
            res.status().as_u16(),
            serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        )
    }

    async fn account(&self, email: &str) -> String {
        let (status, body) = self
            .call(
                "/accounts",
                None,
                Some(
                    json!({"email": email, "display_name": email, "password": "correct horse 42"}),
                ),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        let (status, body) = self
            .call(
                "/auth/token",
                None,
                Some(json!({"email": email, "password": "correct horse 42"})),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        body["access_token"].as_str().unwrap().to_owned()
    }

    /// A started Magnate game between two new accounts: (game id, tokens by seat).
    async fn game(&self) -> (String, [String; 2]) {
        let ada = self.account("ada@example.test").await;
        let bruno = self.account("bruno@example.test").await;
        let (status, g) = self
            .call(
                "/games",
                Some(&ada),
                Some(json!({"kind": "magnate", "invite": ["bruno@example.test"]})),
            )
            .await;
        assert_eq!(status, 201, "{g}");
        let id = g["id"].as_str().unwrap().to_owned();
        let (status, g) = self
            .call(&format!("/games/{id}/join"), Some(&bruno), Some(json!({})))
            .await;
        assert_eq!(status, 200, "{g}");
        (id, [ada, bruno])
    }

    /// Plays the first legal action of whoever is pending; returns the acknowledged version.
    async fn play(&self, id: &str, tokens: &[String; 2]) -> i64 {
        for token in tokens {
            let (status, g) = self.call(&format!("/games/{id}"), Some(token), None).await;
            assert_eq!(status, 200, "{g}");
            let Some(action) = g["legal_actions"].as_array().and_then(|a| a.first()) else {
                continue;
            };
            let body = json!({"expected_version": g["version"], "actions": [action]});
            let (status, g) = self
                .call(&format!("/games/{id}/actions"), Some(token), Some(body))
                .await;
            assert_eq!(status, 200, "{g}");
            return g["version"].as_i64().unwrap();
        }
        panic!("nobody may act in game {id}");
    }

    async fn version(&self, id: &str, token: &str) -> i64 {
        let (status, g) = self.call(&format!("/games/{id}"), Some(token), None).await;
        assert_eq!(status, 200, "{g}");
        g["version"].as_i64().unwrap()
    }

    fn verify(&self, id: &str) -> std::process::Output {
        self.herald(&["verify", id]).output().unwrap()
    }

    fn postmaster_pid(&self) -> u32 {
        let text =
            std::fs::read_to_string(self.data().join("postgres/data/postmaster.pid")).unwrap();
        text.lines().next().unwrap().trim().parse().unwrap()
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        // Whatever a test left running stops with its watchdog once the servers are gone.
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn kill(pid: u32, signal: &str) {
    let ok = Command::new("kill")
        .args([signal, &pid.to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill {signal} {pid}");
}

fn stop(mut server: Child) {
    kill(server.id(), "-TERM");
    assert!(server.wait().unwrap().success(), "a clean stop exits 0");
}

fn alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
        && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .unwrap_or_default()
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
}

#[actix_web::test]
async fn a_server_killed_and_restarted_at_once_twenty_times_serves_every_time_and_loses_no_move() {
    let node = Node::new("restart");
    let mut server = node.serve();
    node.ready(&mut server, Duration::from_secs(90), "first start")
        .await;
    let (id, tokens) = node.game().await;
    for round in 0..20 {
        let acknowledged = node.play(&id, &tokens).await;
        // SIGKILL of herald alone, reaped at once, then a new server at once: what the dead one
        // left behind must not stop the new one's database.
        server.kill().unwrap();
        server.wait().unwrap();
        server = node.serve();
        node.ready(
            &mut server,
            Duration::from_secs(60),
            &format!("restart {round}"),
        )
        .await;
        // Still serving a moment later (a leftover acting late would stop it now).
        actix_web::rt::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(
            node.status("/readyz").await,
            Some(200),
            "restart {round}: ready, then not"
        );
        assert_eq!(
            node.version(&id, &tokens[0]).await,
            acknowledged,
            "restart {round}: the acknowledged move is kept"
        );
    }
    stop(server);
}

#[actix_web::test]
async fn two_verifies_in_a_row_and_one_beside_a_running_server_never_stop_each_others_database() {
    let node = Node::new("verify");
    let mut server = node.serve();
    node.ready(&mut server, Duration::from_secs(90), "start")
        .await;
    let (id, tokens) = node.game().await;
    node.play(&id, &tokens).await;
    stop(server);
    for pause in [0, 100, 300, 700] {
        let first = node.verify(&id);
        std::thread::sleep(Duration::from_millis(pause));
        let second = node.verify(&id);
        for (which, out) in [("first", &first), ("second", &second)] {
            assert!(
                out.status.success(),
                "{which} verify ({pause} ms apart): {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    let mut server = node.serve();
    node.ready(&mut server, Duration::from_secs(90), "second start")
        .await;
    let beside = node.verify(&id);
    assert!(
        beside.status.success(),
        "verify beside a server: {}",
        String::from_utf8_lossy(&beside.stderr)
    );
    for _ in 0..15 {
        actix_web::rt::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(
            node.status("/readyz").await,
            Some(200),
            "the server beside a verify stays ready"
        );
    }
    stop(server);
}

#[actix_web::test]
async fn a_server_whose_embedded_database_is_killed_starts_it_again_and_keeps_the_game() {
    let node = Node::new("pgdeath");
    let mut server = node.serve();
    node.ready(&mut server, Duration::from_secs(90), "start")
        .await;
    let (id, tokens) = node.game().await;
    let version = node.play(&id, &tokens).await;
    let postmaster = node.postmaster_pid();
    kill(postmaster, "-KILL");
    let began = Instant::now();
    while alive(postmaster) && began.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    // The server notices within moments and starts a new postmaster (or exits non-zero).
    while std::fs::read_to_string(node.data().join("postgres/data/postmaster.pid"))
        .ok()
        .and_then(|t| t.lines().next().and_then(|l| l.trim().parse::<u32>().ok()))
        .is_none_or(|pid| pid == postmaster || !alive(pid))
    {
        assert!(server.try_wait().unwrap().is_none(), "the server exited");
        assert!(
            began.elapsed() < Duration::from_secs(45),
            "no new postmaster within 45 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    node.ready(
        &mut server,
        Duration::from_secs(45),
        "after PostgreSQL died",
    )
    .await;
    assert_eq!(node.version(&id, &tokens[0]).await, version);
    assert_eq!(
        node.play(&id, &tokens).await,
        version + 1,
        "and takes moves"
    );
    stop(server);
}

/// A second server on the same DATA_DIR uses the first one's database. When the first is killed
/// (its watchdog stops the cluster) and nobody runs the database again, the second exits non-zero
/// within moments, for its supervisor to restart it as the owner, rather than answer 503 for
/// ever (design.md section 20).
#[actix_web::test]
async fn a_server_sharing_a_database_whose_owner_dies_exits_rather_than_serve_503() {
    let owner_node = Node::new("orphan");
    let mut owner = owner_node.serve();
    owner_node
        .ready(&mut owner, Duration::from_secs(90), "the owner")
        .await;
    let sharer_node = owner_node.beside();
    let mut sharer = sharer_node.serve();
    sharer_node
        .ready(&mut sharer, Duration::from_secs(60), "the sharer")
        .await;
    owner.kill().unwrap();
    owner.wait().unwrap();
    let began = Instant::now();
    let exit = loop {
        if let Some(exit) = sharer.try_wait().unwrap() {
            break exit;
        }
        assert!(
            began.elapsed() < Duration::from_secs(60),
            "the sharer still runs {:?} after its owner died, /readyz {:?}",
            began.elapsed(),
            sharer_node.status("/readyz").await
        );
        actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(!exit.success(), "a non-zero exit: {exit}");
    // Restarted (as a supervisor would), it runs the database itself.
    let mut again = sharer_node.serve();
    sharer_node
        .ready(&mut again, Duration::from_secs(60), "restarted")
        .await;
    stop(again);
}

/// A DATA_DIR too deep to hold the cluster's socket puts it in a short directory elsewhere.
/// A server sharing that cluster keeps serving after its owner is killed and started again (as
/// a supervisor would): the socket comes back where the sharer looks for it.
#[actix_web::test]
async fn a_sharer_on_a_deep_data_dir_serves_again_once_the_owner_is_back() {
    let mut owner_node = Node::new("deep");
    owner_node.root = owner_node.root.join("a".repeat(80));
    std::fs::create_dir_all(&owner_node.root).unwrap();
    let mut owner = owner_node.serve();
    owner_node
        .ready(&mut owner, Duration::from_secs(90), "the owner")
        .await;
    assert!(
        !owner_node.data().join("postgres/run").exists(),
        "the DATA_DIR was meant to be too deep for the socket"
    );
    let sharer_node = owner_node.beside();
    let mut sharer = sharer_node.serve();
    sharer_node
        .ready(&mut sharer, Duration::from_secs(60), "the sharer")
        .await;
    let (id, tokens) = sharer_node.game().await;
    let before = sharer_node.play(&id, &tokens).await;
    owner.kill().unwrap();
    owner.wait().unwrap();
    let mut back = owner_node.serve();
    owner_node
        .ready(&mut back, Duration::from_secs(90), "the owner again")
        .await;
    let began = Instant::now();
    loop {
        if let Some(exit) = sharer.try_wait().unwrap() {
            panic!("the sharer exited with {exit} although its database is back");
        }
        if sharer_node.status("/readyz").await == Some(200) {
            break;
        }
        assert!(
            began.elapsed() < Duration::from_secs(30),
            "the sharer is not ready {:?} after its owner came back",
            began.elapsed()
        );
        actix_web::rt::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(sharer_node.play(&id, &tokens).await, before + 1);
    stop(sharer);
    stop(back);
    // A clean stop leaves no socket directory behind.
    let socket_dir = || {
        let text = std::fs::read_to_string(owner_node.data().join("postgres/owner")).unwrap();
        PathBuf::from(text.lines().nth(1).unwrap())
    };
    assert!(!socket_dir().exists(), "{:?} left", socket_dir());
    owner_node.root.pop();
}

/// Two servers started at the same moment on a new DATA_DIR: both serve (one creates the
/// database, the other finds it made).
#[actix_web::test]
async fn two_servers_started_at_once_on_a_new_data_dir_both_serve() {
    let first_node = Node::new("twins");
    let second_node = first_node.beside();
    let mut first = first_node.serve();
    let mut second = second_node.serve();
    first_node
        .ready(&mut first, Duration::from_secs(90), "the first")
        .await;
    second_node
        .ready(&mut second, Duration::from_secs(90), "the second")
        .await;
    stop(second);
    stop(first);
}
