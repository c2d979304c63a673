//! The test harness: the private cluster, a server per test, and a small JSON client.

use awc::http::Method;
use diesel::{Connection, PgConnection};
use herald::config::Settings;
use herald::devdb::EmbeddedPostgres;
use herald::startup::{Application, ServerOptions};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

const TEMPLATE: &str = "herald_template";

struct Cluster {
    pg: EmbeddedPostgres,
    dir: PathBuf,
    next: AtomicU32,
}

/// The cluster of this test process: started on first use, stopped and deleted by its watchdog
/// when the process exits.
fn cluster() -> &'static Cluster {
    static CLUSTER: OnceLock<Cluster> = OnceLock::new();
    CLUSTER.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!(
            "herald-test-{}-{}",
            std::process::id(),
            hex::encode(herald::auth::random_bytes::<4>())
        ));
        std::fs::create_dir_all(&dir).unwrap();
        // Test speed over durability: the cluster is thrown away.
        let tuning = [
            ("fsync", "off"),
            ("synchronous_commit", "off"),
            ("full_page_writes", "off"),
            ("max_connections", "400"),
        ];
        let mut pg = EmbeddedPostgres::start(&dir.join("pg"), &tuning)
            .unwrap_or_else(|e| panic!("the test database could not start: {e}"));
        pg.remove_after_exit(&dir).unwrap();
        pg.create_database(TEMPLATE, None).unwrap();
        let mut conn = PgConnection::establish(&pg.url(TEMPLATE)).unwrap();
        herald::db::migrate(&mut conn).unwrap();
        drop(conn);
        Cluster {
            pg,
            dir,
            next: AtomicU32::new(0),
        }
    })
}

/// A server of its own on a database of its own.
pub struct TestApp {
    pub base: String,
    #[allow(dead_code, reason = "used by the games tests")]
    pub db_url: String,
    /// The server's settings (its secret, its data folder), for a job worker beside it.
    #[allow(dead_code, reason = "used by the mail tests")]
    pub settings: Settings,
    /// The server's link keys (same secret), to mint play and sign-in links as emails would.
    #[allow(dead_code, reason = "used by the web tests")]
    pub links: herald::auth::links::LinkKeys,
    /// The port of the inbound mail listener (with `INBOUND_SMTP_ADDR` set).
    #[allow(dead_code, reason = "used by the moves-by-email tests")]
    pub inbound_port: Option<u16>,
    client: awc::Client,
}

/// What came back.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: awc::http::header::HeaderMap,
    pub text: String,
    pub json: Value,
}

impl Reply {
    pub fn header(&self, name: &str) -> String {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned()
    }

    /// The problem `code` of an error answer.
    pub fn code(&self) -> &str {
        self.json["code"].as_str().unwrap_or("")
    }

    /// Asserts the status and, for problems, the content type and code.
    #[track_caller]
    pub fn assert_problem(&self, status: u16, code: &str) {
        assert_eq!(self.status, status, "{}", self.text);
        assert!(
            self.header("content-type")
                .starts_with("application/problem+json"),
            "content type {:?}",
            self.header("content-type")
        );
        assert_eq!(self.code(), code, "{}", self.text);
        assert_eq!(self.json["status"], json!(status));
        assert!(self.json["detail"].as_str().is_some_and(|d| !d.is_empty()));
        assert!(self.json["title"].is_string() && self.json["type"].is_string());
    }
}

/// A fresh, empty (unmigrated) database; returns its URL.
pub async fn spawn_empty_database() -> String {
    let cluster = cluster();
    let n = cluster.next.fetch_add(1, Ordering::SeqCst);
    let name = format!("empty_{n}");
    cluster.pg.create_database(&name, None).unwrap();
    cluster.pg.url(&name)
}

/// Starts a server for one test.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

/// Starts a server for one test with its settings changed by `adjust`.
pub async fn spawn_app_with(adjust: impl FnOnce(&mut Settings)) -> TestApp {
    let cluster = cluster();
    let n = cluster.next.fetch_add(1, Ordering::SeqCst);
    let name = format!("test_{n}");
    cluster.pg.create_database(&name, Some(TEMPLATE)).unwrap();
    let db_url = cluster.pg.url(&name);
    let mut settings = Settings::for_tests(db_url.clone(), cluster.dir.join(&name));
    adjust(&mut settings);
    let kept = settings.clone();
    let links = herald::auth::links::LinkKeys::new(&settings.auth.jwt_secret);
    let app = Application::build(
        settings,
        ServerOptions {
            workers: 2,
            handle_signals: false,
        },
    )
    .unwrap();
    let base = format!("http://127.0.0.1:{}", app.port());
    let inbound_port = app.inbound_port();
    actix_web::rt::spawn(app.run_until_stopped());
    // The server closes a connection idle for 5 s (actix's default keep-alive); the client must
    // let go of it before that, or a request sent as the server closes it fails with
    // `Disconnected` (seen when a test waited on Chromium or a slow machine between requests).
    let client = awc::Client::builder()
        .connector(awc::Connector::new().conn_keep_alive(Duration::from_secs(2)))
        .timeout(Duration::from_secs(60))
        .disable_redirects()
        .finish();
    TestApp {
        base,
        db_url,
        settings: kept,
        links,
        inbound_port,
        client,
    }
}

impl TestApp {
    /// Sends raw bytes with the given headers.
    pub async fn send(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        headers: &[(&str, &str)],
        body: Option<Vec<u8>>,
    ) -> Reply {
        self.send_to(&self.base, method, path, token, headers, body)
            .await
    }

    /// [`TestApp::send`] to the server at `base` (a [`TestApp::second_server`]).
    pub async fn send_to(
        &self,
        base: &str,
        method: Method,
        path: &str,
        token: Option<&str>,
        headers: &[(&str, &str)],
        body: Option<Vec<u8>>,
    ) -> Reply {
        let mut req = self
            .client
            .request(method, format!("{base}{path}"))
            .insert_header(("Accept", "application/json"));
        if let Some(token) = token {
            req = req.insert_header(("Authorization", format!("Bearer {token}")));
        }
        for (name, value) in headers {
            req = req.insert_header((*name, *value));
        }
        let mut res = match body {
            Some(bytes) => req.send_body(bytes).await,
            None => req.send().await,
        }
        .expect("the server answers");
        let bytes = res.body().limit(16 * 1024 * 1024).await.unwrap();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        Reply {
            status: res.status().as_u16(),
            headers: res.headers().clone(),
            json: serde_json::from_str(&text).unwrap_or(Value::Null),
            text,
        }
    }

    /// Sets the account's language (`PUT /api/v1/me`), which its pages speak.
    pub async fn set_locale(&self, token: &str, locale: &str) {
        let r = self
            .call(
                Method::PUT,
                "/api/v1/me",
                Some(token),
                Some(serde_json::json!({ "locale": locale })),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }

    /// Sends JSON (or nothing).
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Reply {
        let (headers, bytes): (&[(&str, &str)], _) = match &body {
            Some(v) => (
                &[("Content-Type", "application/json")],
                Some(serde_json::to_vec(v).unwrap()),
            ),
            None => (&[], None),
        };
        self.send(method, path, token, headers, bytes).await
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Reply {
        self.call(Method::GET, path, token, None).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Reply {
        self.call(Method::POST, path, token, Some(body)).await
    }

    /// Registers an account and signs in; returns its access token.
    pub async fn user(&self, email: &str, name: &str) -> String {
        let r = self
            .post(
                "/api/v1/accounts",
                None,
                json!({"email": email, "display_name": name, "password": "correct horse 42"}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text);
        self.sign_in(email, "correct horse 42").await
    }

    pub async fn sign_in(&self, email: &str, password: &str) -> String {
        let r = self
            .post(
                "/api/v1/auth/token",
                None,
                json!({"email": email, "password": password}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
        r.json["access_token"].as_str().unwrap().to_owned()
    }
}

/// The players of [`TestApp::lancaster_three`]: address and name.
pub const THREE: [(&str, &str); 3] = [
    ("ada@example.test", "Ada"),
    ("bruno@example.test", "Bruno"),
    ("chiara@example.test", "Chiara"),
];

/// A started two-player Magnate game.
pub struct Table {
    pub id: String,
    /// Access tokens by seat.
    pub tokens: [String; 2],
}

impl TestApp {
    /// Ada creates a Magnate game inviting Bruno, Bruno joins.
    pub async fn table(&self) -> Table {
        let ada = self.user("ada@example.test", "Ada").await;
        let bruno = self.user("bruno@example.test", "Bruno").await;
        let g = self
            .post(
                "/api/v1/games",
                Some(&ada),
                json!({"kind": "magnate", "options": {"preset": "standard"}, "invite": ["bruno@example.test"]}),
            )
            .await;
        assert_eq!(g.status, 201, "{}", g.text);
        let id = g.json["id"].as_str().unwrap().to_owned();
        let r = self
            .post(&format!("/api/v1/games/{id}/join"), Some(&bruno), json!({}))
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
        Table {
            id,
            tokens: [ada, bruno],
        }
    }

    /// Ada creates a Lancaster game inviting Bruno and Chiara, who join: the game's id and the
    /// three access tokens, in that order (not by seat).
    pub async fn lancaster_three(&self) -> (String, Vec<String>) {
        let mut tokens = Vec::new();
        for (email, name) in THREE {
            tokens.push(self.user(email, name).await);
        }
        let g = self
            .post(
                "/api/v1/games",
                Some(&tokens[0]),
                json!({"kind": "lancaster", "invite": [THREE[1].0, THREE[2].0]}),
            )
            .await;
        assert_eq!(g.status, 201, "{}", g.text);
        let id = g.json["id"].as_str().unwrap().to_owned();
        for t in &tokens[1..] {
            let r = self
                .post(&format!("/api/v1/games/{id}/join"), Some(t), json!({}))
                .await;
            assert_eq!(r.status, 200, "{}", r.text);
        }
        (id, tokens)
    }

    pub async fn game(&self, table: &Table, seat: usize) -> Value {
        let r = self
            .get(
                &format!("/api/v1/games/{}", table.id),
                Some(&table.tokens[seat]),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
        r.json
    }

    pub async fn submit(&self, table: &Table, seat: usize, version: i64, actions: Value) -> Reply {
        self.post(
            &format!("/api/v1/games/{}/actions", table.id),
            Some(&table.tokens[seat]),
            json!({"expected_version": version, "actions": actions}),
        )
        .await
    }

    /// A second server on this app's database and settings (several stateless instances, as
    /// README describes them); its base URL.
    pub fn second_server(&self) -> String {
        let server = Application::build(
            self.settings.clone(),
            ServerOptions {
                workers: 1,
                handle_signals: false,
            },
        )
        .unwrap();
        let base = format!("http://127.0.0.1:{}", server.port());
        actix_web::rt::spawn(server.run_until_stopped());
        base
    }

    /// Seat `seat` resigns the game of `table`.
    pub async fn resign(&self, table: &Table, seat: usize) -> Reply {
        self.post(
            &format!("/api/v1/games/{}/resign", table.id),
            Some(&table.tokens[seat]),
            json!({}),
        )
        .await
    }

    /// The `game_results` rows of a game, by seat, as JSON objects (not in the API yet: the
    /// competitions and ratings read them).
    #[allow(dead_code, reason = "used by the games and play tests")]
    pub fn results(&self, game: &str) -> Vec<Value> {
        use diesel::RunQueryDsl;
        #[derive(diesel::QueryableByName)]
        struct Rows {
            #[diesel(sql_type = diesel::sql_types::Text)]
            json: String,
        }
        let mut conn = PgConnection::establish(&self.db_url).unwrap();
        let rows: Rows = diesel::sql_query(
            "SELECT coalesce(json_agg(r ORDER BY r.seat), '[]')::text AS json \
             FROM game_results r WHERE r.game_id = $1::uuid",
        )
        .bind::<diesel::sql_types::Text, _>(game)
        .get_result(&mut conn)
        .unwrap();
        serde_json::from_str::<Value>(&rows.json)
            .unwrap()
            .as_array()
            .unwrap()
            .clone()
    }

    /// The seat the game waits for, and its fresh resource.
    pub async fn mover(&self, table: &Table) -> (usize, Value) {
        for seat in 0..2 {
            let g = self.game(table, seat).await;
            if !g["legal_actions"].as_array().unwrap().is_empty() {
                return (seat, g);
            }
        }
        panic!("no seat has legal actions");
    }

    /// Magnate: `seat` sets a (secret) income preference on the first deed it holds, out of turn
    /// or not; whether it held one. The preference must be accepted.
    pub async fn prefer_on_a_deed(&self, table: &Table, seat: usize) -> bool {
        let g = self.game(table, seat).await;
        let deed = g["view"]["districts"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|d| d["columns"][seat].as_array().unwrap().clone())
            .find(|p| p["deed"] == true);
        let Some(deed) = deed else { return false };
        let card = deed["card"].as_str().unwrap();
        let suit = card.chars().last().unwrap().to_string();
        let r = self
            .submit(
                table,
                seat,
                g["version"].as_i64().unwrap(),
                json!([{"type": "prefer", "card": card, "suit": suit}]),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
        true
    }
}

/// A small deterministic generator for choosing among legal actions.
pub struct Dice(u64);

impl Dice {
    pub fn new(seed: u64) -> Dice {
        Dice(
            seed.wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407),
        )
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Every string value inside a JSON document.
pub fn strings(value: &Value, out: &mut std::collections::BTreeSet<String>) {
    match value {
        Value::String(s) => {
            out.insert(s.clone());
        }
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// One step of the Merchants & Marauders tests' random games: the seat whose `game` (as it reads
/// it) this is scouts another captain when it may, so that captains meet and fight, and else plays
/// a random listed action, sent with `token`; a listed action must be accepted.
pub async fn play_scouting(app: &TestApp, id: &str, token: &str, game: &Value, dice: &mut Dice) {
    let legal = game["legal_actions"].as_array().unwrap();
    let scout = legal
        .iter()
        .find(|a| a["type"] == "scout" && a["target"]["kind"] == "player");
    let choice = without_notation(scout.unwrap_or(&legal[dice.below(legal.len())]));
    let r = app
        .post(
            &format!("/api/v1/games/{id}/actions"),
            Some(token),
            json!({"expected_version": game["version"], "actions": [choice]}),
        )
        .await;
    assert_eq!(
        r.status, 200,
        "a listed action was refused: {choice} -> {}",
        r.text
    );
}

/// The action as listed, without its notation (a client may send either).
pub fn without_notation(action: &Value) -> Value {
    let mut action = action.clone();
    action.as_object_mut().unwrap().remove("notation");
    action
}
