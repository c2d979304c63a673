//! Every route against the classic bad inputs (design.md section 20): a 4xx naming the problem,
//! never a 5xx, and nothing changed.
//!
//! The routes are a table ([`ROUTES`]: method, path template, body kind); a test compares it with
//! the served OpenAPI document and with the page routes mounted in the source, so a new route
//! without a row fails. Each row gets a valid request (a real game, a real token, a real link),
//! and the sweep sends it spoiled one way at a time: NUL, CR/LF, direction and zero-width
//! characters and overlong values in each path segment, query value and field; `%00` as a whole
//! segment; wrong JSON types, an array for the object, `null`, a bare string, malformed JSON, the
//! wrong media type, a 2 MB body. After every request the database must be exactly as before
//! (every row of every table) and, after every route, the game, the account and the vacation as
//! both seats see them through the API.

use crate::helpers::{Reply, TestApp, spawn_app};
use crate::web::{page, user_id};
use awc::http::Method;
use diesel::{Connection, PgConnection, RunQueryDsl};
use herald::auth::links::PlayGrant;
use herald::domain::GameId;
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// How a route reads its body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BodyKind {
    /// No body is read.
    None,
    /// `routes::json::Json`: a JSON object is required.
    Json,
    /// `routes::json::OptionalJson`: no body means the defaults.
    OptionalJson,
    /// An HTML form (`application/x-www-form-urlencoded`).
    Form,
    /// A raw mail message (`message/rfc822`).
    Raw,
}

#[derive(Debug)]
struct Route {
    method: &'static str,
    path: &'static str,
    body: BodyKind,
}

const fn row(method: &'static str, path: &'static str, body: BodyKind) -> Route {
    Route { method, path, body }
}

use BodyKind::{Form, Json as JsonBody, None as NoBody, OptionalJson, Raw};

/// Every route the server mounts, in an order in which each valid request can follow the one
/// before (the check before the move, signing out last).
const ROUTES: &[Route] = &[
    // Probes and the spec.
    row("GET", "/healthz", NoBody),
    row("GET", "/readyz", NoBody),
    row("GET", "/metrics", NoBody),
    row("GET", "/api/openapi.json", NoBody),
    row("GET", "/docs", NoBody),
    row("GET", "/docs/{_:.*}", NoBody),
    // The API (src/routes).
    row("POST", "/api/v1/accounts", JsonBody),
    row("POST", "/api/v1/auth/token", JsonBody),
    row("POST", "/api/v1/auth/email-link", JsonBody),
    row("GET", "/api/v1/me", NoBody),
    row("PUT", "/api/v1/me", JsonBody),
    row("POST", "/api/v1/me/tokens", JsonBody),
    row("GET", "/api/v1/me/tokens", NoBody),
    row("DELETE", "/api/v1/me/tokens/{id}", NoBody),
    row("GET", "/api/v1/me/notifications", NoBody),
    row("PUT", "/api/v1/me/notifications", JsonBody),
    row("GET", "/api/v1/me/vacation", NoBody),
    row("POST", "/api/v1/me/vacation", OptionalJson),
    row("PUT", "/api/v1/me/vacation", JsonBody),
    row("DELETE", "/api/v1/me/vacation", NoBody),
    row("GET", "/api/v1/game-kinds", NoBody),
    row("POST", "/api/v1/games", JsonBody),
    row("GET", "/api/v1/games", NoBody),
    row("GET", "/api/v1/lobby", NoBody),
    row("GET", "/api/v1/games/{id}", NoBody),
    row("POST", "/api/v1/games/{id}/join", OptionalJson),
    row("POST", "/api/v1/games/{id}/actions/check", JsonBody),
    row("POST", "/api/v1/games/{id}/actions", JsonBody),
    row("GET", "/api/v1/games/{id}/history", NoBody),
    row("POST", "/api/v1/games/{id}/resign", NoBody),
    row("POST", "/api/v1/games/{id}/decline", NoBody),
    row("POST", "/api/v1/games/{id}/cancel", NoBody),
    row("DELETE", "/api/v1/games/{id}/invitations/{seat}", NoBody),
    row("POST", "/api/v1/games/{id}/invitations", JsonBody),
    row("GET", "/api/v1/players", NoBody),
    row("GET", "/api/v1/games/{id}/fairness", NoBody),
    row("GET", "/api/v1/ratings/{kind}", NoBody),
    row("GET", "/api/v1/players/{id}", NoBody),
    row("GET", "/api/v1/players/{id}/ratings/{kind}/history", NoBody),
    row("GET", "/api/v1/me/events", NoBody),
    row("POST", "/api/v1/games/{id}/chat", JsonBody),
    row("GET", "/api/v1/games/{id}/chat", NoBody),
    row("PUT", "/api/v1/games/{id}/chat/mutes/{seat}", NoBody),
    row("DELETE", "/api/v1/games/{id}/chat/mutes/{seat}", NoBody),
    row("POST", "/api/v1/me/webhooks", JsonBody),
    row("GET", "/api/v1/me/webhooks", NoBody),
    row("GET", "/api/v1/me/webhooks/{id}", NoBody),
    row("DELETE", "/api/v1/me/webhooks/{id}", NoBody),
    row("POST", "/api/v1/competitions", JsonBody),
    row("GET", "/api/v1/competitions", NoBody),
    row("GET", "/api/v1/competitions/{id}", NoBody),
    row("POST", "/api/v1/competitions/{id}/entries", OptionalJson),
    row(
        "DELETE",
        "/api/v1/competitions/{id}/entries/{account_id}",
        NoBody,
    ),
    row("POST", "/api/v1/competitions/{id}/start", NoBody),
    row("GET", "/api/v1/competitions/{id}/rounds", NoBody),
    row("GET", "/api/v1/competitions/{id}/standings", NoBody),
    row("GET", "/api/v1/competitions/{id}/trf", NoBody),
    row("POST", "/api/v1/competitions/{id}/director", JsonBody),
    row("GET", "/api/v1/competitions/{id}/audit", NoBody),
    row("POST", "/api/v1/inbound-mail", Raw),
    // The pages (src/web, and the unsubscribe page of src/routes/notifications.rs).
    row("GET", "/static/herald.css", NoBody),
    row("GET", "/static/herald.js", NoBody),
    row("GET", "/", NoBody),
    row("GET", "/games", NoBody),
    row("GET", "/lobby", NoBody),
    row("GET", "/archive", NoBody),
    row("GET", "/competitions", NoBody),
    row("GET", "/competitions/new", NoBody),
    row("POST", "/competitions/new", Form),
    row("GET", "/competitions/{id}", NoBody),
    row("GET", "/competitions/{id}/standings.csv", NoBody),
    row("POST", "/competitions/{id}/{action}", Form),
    row("GET", "/games/new", NoBody),
    row("POST", "/games/new", Form),
    row("GET", "/sign-up", NoBody),
    row("POST", "/sign-up", Form),
    row("GET", "/sign-up/{token}", NoBody),
    row("POST", "/sign-up/{token}", Form),
    row("GET", "/sign-in", NoBody),
    row("POST", "/sign-in", Form),
    row("GET", "/sign-in/{token}", NoBody),
    row("POST", "/sign-in/{token}", NoBody),
    row("POST", "/sign-in/{token}/fresh", NoBody),
    row("GET", "/invitations/{game_id}", NoBody),
    row("POST", "/invitations/{game_id}", Form),
    row("POST", "/invitations/{game_id}/new", Form),
    row("POST", "/invitations/{game_id}/decline", Form),
    row("POST", "/games/{game_id}/cancel", Form),
    row("GET", "/settings", NoBody),
    row("POST", "/settings", Form),
    row("POST", "/settings/vacation", Form),
    row("GET", "/play/{game_id}", NoBody),
    row("POST", "/play/{game_id}/accept", Form),
    row("POST", "/play/{game_id}/decline", Form),
    row("POST", "/play/{game_id}/chat", Form),
    row("POST", "/play/{game_id}/{action}", Form),
    row("GET", "/players/{id}", NoBody),
    row("GET", "/ratings/{kind}", NoBody),
    row("GET", "/rules", NoBody),
    row("GET", "/rules/{game}", NoBody),
    // The one-click unsubscribe (RFC 8058) ignores its body.
    row("GET", "/unsubscribe/{token}", NoBody),
    row("POST", "/unsubscribe/{token}", NoBody),
    row("POST", "/sign-out", Form),
];

fn is_api(path: &str) -> bool {
    path.starts_with("/api/") || ["/healthz", "/readyz", "/metrics"].contains(&path)
}

// ---------------------------------------------------------------------------------------------
// The table covers every route.

/// `(method, path)` of each `.route("...", web::get()...)`, `web::resource("...")`,
/// `.get("...", ...)` and `.post("...", ...)` (the pages') and `SwaggerUi::new("...")` in the
/// body of `fn <function>` of a source file.
fn mounted_in(file: &str, function: &str) -> BTreeSet<(String, String)> {
    let text = std::fs::read_to_string(format!("{}/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let start = text
        .find(&format!("fn {function}"))
        .unwrap_or_else(|| panic!("{file} has no fn {function}"));
    let body = &text[start..];
    let body = &body[..body.find("\n}\n").unwrap_or(body.len())];
    let literal = |at: usize| -> Option<String> {
        let rest = body[at..].trim_start();
        let rest = rest.strip_prefix('"')?;
        Some(rest[..rest.find('"')?].to_owned())
    };
    let mut found = BTreeSet::new();
    let mut current = String::new();
    let mut i = 0;
    while i < body.len() {
        let rest = &body[i..];
        if let Some(p) = rest
            .strip_prefix(".route(")
            .map(|_| literal(i + 7))
            .or_else(|| rest.strip_prefix("resource(").map(|_| literal(i + 9)))
            .flatten()
        {
            current = p;
        } else if let Some((method, p)) = [(".get(", "GET"), (".post(", "POST")]
            .iter()
            .find(|(call, _)| rest.starts_with(call))
            .and_then(|(call, method)| Some((*method, literal(i + call.len())?)))
        {
            // The pages' own `.get("path", handler)` and `.post(...)`.
            found.insert((method.to_owned(), p));
        } else if rest.starts_with("SwaggerUi::new(") {
            if let Some(p) = literal(i + 15) {
                found.insert(("GET".to_owned(), p));
            }
        } else {
            for (call, method) in [
                ("web::get()", "GET"),
                ("guard::Get()", "GET"),
                ("web::post()", "POST"),
                ("web::put()", "PUT"),
                ("web::delete()", "DELETE"),
            ] {
                if rest.starts_with(call) {
                    assert!(!current.is_empty(), "{file}: {call} before any path");
                    found.insert((method.to_owned(), current.clone()));
                }
            }
        }
        i += rest.chars().next().map_or(1, char::len_utf8);
    }
    found
}

#[actix_web::test]
async fn the_sweep_has_a_row_for_every_route_and_no_row_for_a_route_that_is_gone() {
    let app = spawn_app().await;
    let table: BTreeSet<(String, String)> = ROUTES
        .iter()
        .map(|r| (r.method.to_owned(), r.path.to_owned()))
        .collect();
    assert_eq!(table.len(), ROUTES.len(), "a route is listed twice");
    // The API: the served document lists exactly what `routes::register` mounts.
    let spec = app.get("/api/openapi.json", None).await;
    assert_eq!(spec.status, 200);
    let mut mounted = BTreeSet::new();
    for (path, item) in spec.json["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            mounted.insert((method.to_uppercase(), path.clone()));
        }
    }
    assert!(mounted.len() > 20, "{mounted:?}");
    // The rest: the pages, the unsubscribe page, the spec and the docs.
    mounted.extend(mounted_in("src/web/mod.rs", "configure"));
    mounted.extend(mounted_in("src/routes/notifications.rs", "configure_pages"));
    mounted.extend(mounted_in("src/startup.rs", "app"));
    let missing: Vec<_> = mounted.difference(&table).collect();
    assert!(
        missing.is_empty(),
        "routes without a row in ROUTES: {missing:?}"
    );
    let gone: Vec<_> = table.difference(&mounted).collect();
    assert!(
        gone.is_empty(),
        "rows for routes no longer mounted: {gone:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// The world the sweep spoils requests against.

struct World {
    app: TestApp,
    /// A started Magnate game.
    game: String,
    /// A waiting Lancaster game: seat 1 invites Cyd (registered), seat 2 Dee (not registered).
    waiting: String,
    /// The seat whose turn it is, its access token and address, the other seat's token.
    mover: usize,
    token: String,
    email: &'static str,
    cyd: String,
    version: i64,
    /// One legal action of the mover, without its notation.
    legal: Value,
    /// A personal access token of the mover.
    pat: String,
    /// The mover's account cookie and its CSRF token; Cyd's.
    cookie: String,
    csrf: String,
    cyd_cookie: String,
    cyd_csrf: String,
    /// An unspent sign-in link of the mover, and the cookie its page sets in the browser that
    /// opens it (which its button needs).
    link: String,
    link_mark: String,
    unsubscribe: String,
    play_link: String,
    invite_cyd: String,
    invite_dee: String,
    tokens: [String; 2],
    /// Waiting Magnate games of Ada inviting Cyd, one per route that declines or cancels (each
    /// valid request ends its game's invitation for good).
    spare: [String; 8],
    /// Ada's (the creator's) account cookie and its CSRF token.
    ada_cookie: String,
    ada_csrf: String,
    /// The mover's account id (their public profile).
    mover_id: String,
    /// An unspent sign-up link of an address without an account.
    sign_up: String,
    /// Ada's competitions: open for entry; Cyd entered; Cyd and Bruno entered (to start); a
    /// running Swiss of Cyd and Bruno.
    comps: [String; 4],
    cyd_id: String,
    /// A webhook of the mover's.
    webhook: String,
}

/// Ada's competition with the entrants given (by token), started if asked.
async fn competition(app: &TestApp, ada: &str, entrants: &[&str], swiss: bool) -> String {
    let format = if swiss {
        json!({"type": "swiss", "rounds": 1})
    } else {
        json!({"type": "round_robin", "cycles": 1, "rounds": "all_at_once"})
    };
    let c = app
        .post(
            "/api/v1/competitions",
            Some(ada),
            json!({"name": "Sweep Cup", "kind": "magnate", "format": format, "entry": "open"}),
        )
        .await;
    assert_eq!(c.status, 201, "{}", c.text);
    let id = c.json["id"].as_str().unwrap().to_owned();
    for token in entrants {
        let e = app
            .post(
                &format!("/api/v1/competitions/{id}/entries"),
                Some(token),
                json!({}),
            )
            .await;
        assert_eq!(e.status, 201, "{}", e.text);
    }
    if swiss {
        let s = app
            .post(
                &format!("/api/v1/competitions/{id}/start"),
                Some(ada),
                json!({}),
            )
            .await;
        assert_eq!(s.status, 200, "{}", s.text);
    }
    id
}

pub(crate) async fn account_cookie(app: &TestApp, token: &str, email: &str) -> (String, String) {
    let user = user_id(app, token).await;
    let link = {
        let mut conn = PgConnection::establish(&app.db_url).unwrap();
        herald::web::session::new_sign_in_link(&mut conn, &app.links, user, email, 3600).unwrap()
    };
    let r = crate::web::press_sign_in(app, &format!("/sign-in/{link}")).await;
    assert_eq!(r.status, 303, "{}", r.text);
    let cookie = r.header("set-cookie").split(';').next().unwrap().to_owned();
    let settings = page(app, "/settings", &cookie).await;
    assert_eq!(settings.status, 200, "{}", settings.text);
    let csrf = settings
        .text
        .split("name=\"csrf\" value=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    (cookie, csrf)
}

/// The world's `INBOUND_SECRET` and `MAIL_DOMAIN`.
const INBOUND_SECRET: &str = "the inbound secret";
const MAIL_DOMAIN: &str = "herald.test";

async fn world() -> World {
    let app = crate::helpers::spawn_app_with(|s| {
        s.inbound.secret = Some(INBOUND_SECRET.to_owned());
        s.inbound.mail_domain = Some(MAIL_DOMAIN.to_owned());
    })
    .await;
    let table = app.table().await;
    let cyd = app.user("cyd@example.test", "Cyd").await;
    // Cyd reads in Italian: a page's refusal speaks a signed-in reader's language.
    app.set_locale(&cyd, "it").await;
    let (mover, g) = app.mover(&table).await;
    let token = table.tokens[mover].clone();
    let email = ["ada@example.test", "bruno@example.test"][mover];
    let version = g["version"].as_i64().unwrap();
    let legal = crate::helpers::without_notation(&g["legal_actions"][0]);
    let waiting = app
        .post(
            "/api/v1/games",
            Some(&table.tokens[0]),
            json!({"kind": "lancaster", "invite": ["cyd@example.test", "dee@example.test"]}),
        )
        .await;
    assert_eq!(waiting.status, 201, "{}", waiting.text);
    let waiting = waiting.json["id"].as_str().unwrap().to_owned();
    let pat = app
        .post(
            "/api/v1/me/tokens",
            Some(&token),
            json!({"name": "bot", "scopes": ["read"]}),
        )
        .await;
    assert_eq!(pat.status, 201, "{}", pat.text);
    let pat = pat.json["id"].as_str().unwrap().to_owned();
    let (cookie, csrf) = account_cookie(&app, &token, email).await;
    let (cyd_cookie, cyd_csrf) = account_cookie(&app, &cyd, "cyd@example.test").await;
    let (ada_cookie, ada_csrf) = account_cookie(&app, &table.tokens[0], "ada@example.test").await;
    let mut spare: [String; 8] = Default::default();
    for game in &mut spare {
        let g = app
            .post(
                "/api/v1/games",
                Some(&table.tokens[0]),
                json!({"kind": "magnate", "invite": ["cyd@example.test"]}),
            )
            .await;
        assert_eq!(g.status, 201, "{}", g.text);
        *game = g.json["id"].as_str().unwrap().to_owned();
    }
    // The last one has an empty seat to invite someone to.
    let emptied = app
        .call(
            Method::DELETE,
            &format!("/api/v1/games/{}/invitations/1", spare[7]),
            Some(&table.tokens[0]),
            None,
        )
        .await;
    assert_eq!(emptied.status, 200, "{}", emptied.text);
    let user = user_id(&app, &token).await;
    let (link, unsubscribe) = {
        let mut conn = PgConnection::establish(&app.db_url).unwrap();
        (
            herald::web::session::new_sign_in_link(&mut conn, &app.links, user, email, 3600)
                .unwrap(),
            herald::services::notifications::unsubscribe_token(&mut conn, user).unwrap(),
        )
    };
    let link_mark = crate::web::page(&app, &format!("/sign-in/{link}"), "")
        .await
        .header("set-cookie")
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let sign_up = {
        use diesel::prelude::*;
        use herald::schema::email_links;
        let mut conn = PgConnection::establish(&app.db_url).unwrap();
        let address = herald::domain::EmailAddress::parse("newcomer@example.test").unwrap();
        herald::services::sign_up::request(&mut conn, &address, herald::domain::Locale::En)
            .unwrap();
        let id: uuid::Uuid = email_links::table
            .filter(email_links::purpose.eq("sign_up"))
            .select(email_links::id)
            .first(&mut conn)
            .unwrap();
        app.links.sign_up_link(id, 3600)
    };
    let game_id = GameId(table.id.parse().unwrap());
    let play_link = app.links.play_link(
        PlayGrant {
            user,
            game: game_id,
            seat: mover as i16,
        },
        3600,
    );
    let waiting_id = GameId(waiting.parse().unwrap());
    let invite_cyd = app
        .links
        .invite_link(waiting_id, 1, "cyd@example.test", 3600);
    let invite_dee = app
        .links
        .invite_link(waiting_id, 2, "dee@example.test", 3600);
    let ada = table.tokens[0].clone();
    let bruno = table.tokens[1].clone();
    let comps = [
        competition(&app, &ada, &[], false).await,
        competition(&app, &ada, &[&cyd], false).await,
        competition(&app, &ada, &[&cyd, &bruno], false).await,
        competition(&app, &ada, &[&cyd, &bruno], true).await,
    ];
    let cyd_id = user_id(&app, &cyd).await.0.to_string();
    let hook = app
        .post(
            "/api/v1/me/webhooks",
            Some(&token),
            json!({"url": "http://127.0.0.1:9/hook", "events": ["your_move", "chat"]}),
        )
        .await;
    assert_eq!(hook.status, 201, "{}", hook.text);
    let webhook = hook.json["id"].as_str().unwrap().to_owned();
    World {
        webhook,
        comps,
        cyd_id,
        game: table.id.clone(),
        tokens: table.tokens.clone(),
        app,
        waiting,
        mover,
        token,
        email,
        cyd,
        version,
        legal,
        pat,
        cookie,
        csrf,
        cyd_cookie,
        cyd_csrf,
        link_mark,
        link,
        unsubscribe,
        play_link,
        invite_cyd,
        invite_dee,
        spare,
        ada_cookie,
        ada_csrf,
        mover_id: user.0.to_string(),
        sign_up,
    }
}

/// Every row of every table, as a digest per table.
struct Fingerprint {
    conn: PgConnection,
    sql: String,
}

#[derive(diesel::QueryableByName)]
struct Digest {
    #[diesel(sql_type = diesel::sql_types::Text)]
    name: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    digest: String,
}

impl Fingerprint {
    fn new(db_url: &str) -> Fingerprint {
        let mut conn = PgConnection::establish(db_url).unwrap();
        let tables: Vec<Digest> = diesel::sql_query(
            "SELECT tablename::text AS name, '' AS digest FROM pg_tables \
             WHERE schemaname = 'public' AND tablename NOT LIKE '\\_\\_%' ORDER BY 1",
        )
        .load(&mut conn)
        .unwrap();
        let names: Vec<String> = tables.into_iter().map(|t| t.name).collect();
        for needed in [
            "users",
            "games",
            "game_actions",
            "web_sessions",
            "email_links",
            "jobs",
        ] {
            assert!(names.iter().any(|n| n == needed), "{needed}: {names:?}");
        }
        let sql = names
            .iter()
            .map(|t| {
                format!(
                    "SELECT '{t}' AS name, count(*)::text || ' rows ' || \
                     coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS digest \
                     FROM \"{t}\" t"
                )
            })
            .collect::<Vec<_>>()
            .join(" UNION ALL ");
        Fingerprint { conn, sql }
    }

    fn take(&mut self) -> BTreeMap<String, String> {
        let rows: Vec<Digest> = diesel::sql_query(&self.sql).load(&mut self.conn).unwrap();
        rows.into_iter().map(|d| (d.name, d.digest)).collect()
    }
}

/// What the players see through the API: both seats' game, the waiting game, each account, its
/// vacation and mail settings, the mover's tokens.
async fn seen(w: &World) -> Value {
    let mut out = Map::new();
    for (who, token) in [
        ("seat0", &w.tokens[0]),
        ("seat1", &w.tokens[1]),
        ("cyd", &w.cyd),
    ] {
        let mut mine = Map::new();
        for path in [
            format!("/api/v1/games/{}", w.game),
            format!("/api/v1/games/{}", w.waiting),
            format!("/api/v1/games/{}/history", w.game),
            "/api/v1/me".to_owned(),
            "/api/v1/me/vacation".to_owned(),
            "/api/v1/me/notifications".to_owned(),
            "/api/v1/me/tokens".to_owned(),
        ] {
            let r = w.app.get(&path, Some(token)).await;
            assert_eq!(r.status, 200, "{who} {path}: {}", r.text);
            mine.insert(path, r.json);
        }
        out.insert(who.to_owned(), Value::Object(mine));
    }
    Value::Object(out)
}

// ---------------------------------------------------------------------------------------------
// Requests and what they must get.

#[derive(Debug, Clone)]
enum Sender {
    Nobody,
    Bearer(String),
    Cookie(String),
}

#[derive(Debug, Clone, Copy)]
enum Expect {
    /// Any 4xx.
    Refused,
    /// This status and problem code.
    Problem(u16, &'static str),
    /// Anything but a 5xx (an unknown query parameter is ignored).
    Harmless,
    /// This status (a 4xx) as a page that says `said` (in the reader's language, naming the
    /// parameter or field and what it takes, or that nothing is there) and does not repeat the
    /// value given, `value`.
    Named {
        status: u16,
        said: &'static str,
        value: &'static str,
    },
}

#[derive(Debug)]
struct Case {
    label: String,
    method: &'static str,
    /// Already percent-encoded, with its query.
    path: String,
    sender: Sender,
    content_type: Option<&'static str>,
    headers: Vec<(&'static str, String)>,
    body: Option<Vec<u8>>,
    expect: Expect,
}

const FORM_TYPE: &str = "application/x-www-form-urlencoded";
const JSON_TYPE: &str = "application/json";

/// Percent-encodes everything but the unreserved characters.
fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn encode_pairs(pairs: &[(String, String)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
        .collect::<Vec<_>>()
        .join("&")
}

fn with(pairs: &[(String, String)], name: &str, value: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = pairs.iter().filter(|(k, _)| k != name).cloned().collect();
    out.push((name.to_owned(), value.to_owned()));
    out
}

fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

const LONG: usize = 10_000;
const HUGE: usize = 100_000;

/// Spoilt versions of a name, an address, a word of a fixed set or a token: a NUL, a line break
/// that would start a header, a direction override, a zero-width space, far too long, huge.
fn strict(v: &str) -> Vec<String> {
    let mut chars = v.chars();
    let first: String = chars.next().map(String::from).unwrap_or_default();
    vec![
        format!("{v}\0"),
        format!("{v}\r\nX-Injected: 1"),
        format!("\u{202E}{v}"),
        format!("{first}\u{200B}{}", chars.as_str()),
        "x".repeat(LONG),
        "x".repeat(HUGE),
    ]
}

/// Spoilt versions of free text (a password, entropy): a NUL, far too long, huge.
fn free(v: &str) -> Vec<String> {
    vec![format!("{v}\0"), "x".repeat(LONG), "x".repeat(HUGE)]
}

fn strings(values: Vec<String>) -> Vec<Value> {
    values.into_iter().map(Value::String).collect()
}

/// JSON that is not a string, for a string field (`null` only where it is required).
fn not_strings(v: &str, required: bool) -> Vec<Value> {
    let mut out = vec![
        json!(7),
        json!(1.5),
        json!(true),
        json!([]),
        json!({}),
        json!([v]),
    ];
    if required {
        out.push(Value::Null);
    }
    out
}

/// A page's address whose parameter `value` reads but is not taken: refused with a page in
/// `lang` (a visitor's Accept-Language; a signed-in reader's account's language wins) that says
/// `said`.
fn not_taken(
    path: String,
    sender: Sender,
    lang: &'static str,
    said: &'static str,
    value: &'static str,
) -> Case {
    Case {
        label: format!(
            "a value not taken, Accept-Language {lang}: {}",
            short(&path)
        ),
        method: "GET",
        path,
        sender,
        content_type: None,
        headers: vec![
            ("Accept", "text/html".to_owned()),
            ("Accept-Language", lang.to_owned()),
        ],
        body: None,
        expect: Expect::Named {
            status: 400,
            said,
            value,
        },
    }
}

/// A form Cyd posts (she reads Italian; her browser asks for French) that its page refuses with
/// `status`, saying `said` in Italian without repeating `value`.
fn cyd_form(
    w: &World,
    path: String,
    form: &[(&str, &str)],
    status: u16,
    said: &'static str,
    value: &'static str,
) -> Case {
    let mut form = pairs(form);
    form.push(("csrf".to_owned(), w.cyd_csrf.clone()));
    Case {
        label: format!("a form value not taken, read in Italian: {}", short(&path)),
        method: "POST",
        path,
        sender: Sender::Cookie(w.cyd_cookie.clone()),
        content_type: Some(FORM_TYPE),
        headers: vec![
            ("Accept", "text/html".to_owned()),
            ("Accept-Language", "fr".to_owned()),
        ],
        body: Some(encode_pairs(&form).into_bytes()),
        expect: Expect::Named {
            status,
            said,
            value,
        },
    }
}

/// What a route needs to be sent well, and how to spoil its fields.
struct Plan {
    sender: Sender,
    /// The valid value of each `{...}` segment, in order.
    params: Vec<String>,
    /// A valid query (the game page's forms carry their version and CSRF token there).
    query: Vec<(String, String)>,
    /// Spoilt values of the query parameters the route reads.
    reads: Vec<(&'static str, Vec<String>)>,
    json: Option<Value>,
    form: Vec<(String, String)>,
    /// A raw message.
    raw: Option<Vec<u8>>,
    /// Spoilt values of each body field.
    fields: Vec<(&'static str, Vec<Value>)>,
    extra: Vec<Case>,
}

impl Plan {
    fn new(sender: Sender) -> Plan {
        Plan {
            sender,
            params: Vec::new(),
            query: Vec::new(),
            reads: Vec::new(),
            json: None,
            form: Vec::new(),
            raw: None,
            fields: Vec::new(),
            extra: Vec::new(),
        }
    }
}

/// The form fields of a Magnate action, as the game page's forms name them.
fn form_fields(action: &Value) -> (String, Vec<(String, String)>) {
    let mut out = Vec::new();
    for (k, v) in action.as_object().unwrap() {
        match (k.as_str(), v) {
            ("type", _) => {}
            ("payment" | "give", Value::Object(map)) => {
                let prefix = if k == "payment" { "pay_" } else { "give_" };
                for (suit, n) in map {
                    out.push((format!("{prefix}{suit}"), n.to_string()));
                }
            }
            (_, Value::String(s)) => out.push((k.clone(), s.clone())),
            (_, other) => out.push((k.clone(), other.to_string())),
        }
    }
    (action["type"].as_str().unwrap().to_owned(), out)
}

fn token_attacks(valid: &str) -> Vec<String> {
    let mut out = strict(valid);
    out.extend(["\0".to_owned(), String::new(), "%00".to_owned()]);
    out
}

fn plan(w: &World, route: &Route) -> Plan {
    let bearer = Sender::Bearer(w.token.clone());
    let cookie = Sender::Cookie(w.cookie.clone());
    let cyd_cookie = Sender::Cookie(w.cyd_cookie.clone());
    let email_attacks = |v: &str| {
        let mut out = strings(strict(v));
        out.extend(not_strings(v, true));
        out.push(json!(""));
        out
    };
    match (route.method, route.path) {
        ("POST", "/api/v1/accounts") => {
            let mut p = Plan::new(Sender::Nobody);
            p.json = Some(
                json!({"email": "new@example.test", "display_name": "New", "password": "correct horse 42", "locale": "en"}),
            );
            p.fields = vec![
                ("email", email_attacks("new@example.test")),
                ("display_name", email_attacks("New")),
                ("password", {
                    let mut v = strings(free("correct horse 42"));
                    v.extend(not_strings("correct horse 42", true));
                    v.push(json!("short"));
                    v
                }),
                ("locale", {
                    let mut v = strings(strict("en"));
                    v.extend(not_strings("en", false));
                    v.push(json!("xx"));
                    v
                }),
            ];
            p
        }
        ("POST", "/api/v1/auth/token") => {
            let mut p = Plan::new(Sender::Nobody);
            p.json = Some(json!({"email": w.email, "password": "correct horse 42"}));
            p.fields = vec![
                ("email", email_attacks(w.email)),
                ("password", {
                    let mut v = strings(free("correct horse 42"));
                    v.extend(not_strings("correct horse 42", true));
                    v
                }),
            ];
            p
        }
        ("POST", "/api/v1/auth/email-link") => {
            let mut p = Plan::new(Sender::Nobody);
            p.json = Some(json!({"email": "nobody@example.test"}));
            p.fields = vec![("email", email_attacks("nobody@example.test"))];
            p
        }
        ("PUT", "/api/v1/me") => {
            let mut p = Plan::new(bearer);
            p.json = Some(json!({"locale": "es", "time_zone": "Europe/Madrid"}));
            let words = |v: &str| {
                let mut out = strings(strict(v));
                out.extend(not_strings(v, false));
                out
            };
            p.fields = vec![
                ("locale", {
                    let mut v = words("es");
                    v.push(json!("xx"));
                    v
                }),
                ("time_zone", {
                    let mut v = words("Europe/Madrid");
                    v.extend([json!("Not/AZone"), json!("../../etc/passwd"), json!("")]);
                    v
                }),
            ];
            p
        }
        ("POST", "/api/v1/me/tokens") => {
            let mut p = Plan::new(bearer);
            p.json = Some(json!({"name": "script", "scopes": ["read", "play"]}));
            p.fields = vec![
                ("name", {
                    let mut v = strings(vec![
                        "script\0".to_owned(),
                        "script\r\nX-Injected: 1".to_owned(),
                        "x".repeat(LONG),
                        "x".repeat(HUGE),
                        String::new(),
                        "   ".to_owned(),
                    ]);
                    v.extend(not_strings("script", true));
                    v
                }),
                (
                    "scopes",
                    vec![
                        json!("read"),
                        json!([]),
                        json!([7]),
                        json!(["admin"]),
                        json!(["read\r\nX-Injected: 1"]),
                        json!(["read\u{200B}"]),
                        json!([null]),
                        json!({"read": true}),
                        Value::Null,
                    ],
                ),
            ];
            p
        }
        ("DELETE", "/api/v1/me/tokens/{id}") => {
            let mut p = Plan::new(bearer);
            p.params = vec![w.pat.clone()];
            p
        }
        ("PUT", "/api/v1/me/notifications") => {
            let mut p = Plan::new(bearer);
            p.json = Some(json!({"mode": "daily_digest", "reminders_seconds": [3600]}));
            p.fields = vec![
                ("mode", {
                    let mut v = strings(strict("daily_digest"));
                    v.extend(not_strings("daily_digest", false));
                    v.push(json!("sometimes"));
                    v
                }),
                (
                    "reminders_seconds",
                    vec![
                        json!("3600"),
                        json!(3600),
                        json!([-1]),
                        json!(["3600"]),
                        json!([1.5]),
                        json!([null]),
                        json!([1e30]),
                        json!([18_446_744_073_709_551_615_u64]),
                        json!({}),
                        json!(true),
                        json!(vec![3600; 5000]),
                    ],
                ),
            ];
            p
        }
        ("POST", "/api/v1/me/vacation") => {
            let mut p = Plan::new(bearer);
            p.json = Some(json!({"days": 1}));
            p.fields = vec![(
                "days",
                vec![
                    json!("1"),
                    json!(-1),
                    json!(1.5),
                    json!(0),
                    json!(4_294_967_296_u64),
                    json!(1e30),
                    json!([]),
                    json!({}),
                    json!(true),
                ],
            )];
            p
        }
        ("PUT", "/api/v1/me/vacation") => {
            let mut p = Plan::new(bearer);
            p.json = Some(json!({"auto": true}));
            p.fields = vec![(
                "auto",
                vec![
                    json!("true"),
                    json!(1),
                    json!("yes"),
                    json!([]),
                    json!({}),
                    Value::Null,
                ],
            )];
            p
        }
        ("POST", "/api/v1/games") => {
            let mut p = Plan::new(bearer);
            let valid = json!({"kind": "magnate", "options": {"preset": "standard"}, "invite": ["cyd@example.test"], "open_seats": 0, "clock": {"type": "per_move", "seconds": 259200}, "rated": true});
            p.json = Some(valid.clone());
            p.fields = vec![
                ("kind", {
                    let mut v = strings(strict("magnate"));
                    v.extend(not_strings("magnate", true));
                    v.push(json!("chess"));
                    v
                }),
                (
                    "options",
                    vec![
                        json!([]),
                        json!(["standard"]),
                        json!("standard"),
                        json!(7),
                        json!(true),
                        json!({"preset": "standard\r\nX-Injected: 1"}),
                        json!({"preset": "\u{202E}standard"}),
                        json!({"preset": 7}),
                        json!({"preset": "nope"}),
                        json!({"preset": "x".repeat(LONG)}),
                        json!({"courts": "yes"}),
                        json!({"nope": true}),
                    ],
                ),
                ("invite", {
                    let mut v: Vec<Value> = strict("cyd@example.test")
                        .into_iter()
                        .map(|a| json!([a]))
                        .collect();
                    v.extend([
                        json!("cyd@example.test"),
                        json!([7]),
                        json!([null]),
                        json!([["cyd@example.test"]]),
                        json!({"cyd@example.test": true}),
                        json!(vec!["cyd@example.test"; 8]),
                        Value::Null,
                    ]);
                    v
                }),
                (
                    "open_seats",
                    vec![
                        json!(-1),
                        json!(256),
                        json!(8),
                        json!("1"),
                        json!(1.5),
                        json!([]),
                        Value::Null,
                    ],
                ),
                (
                    "rated",
                    vec![json!("true"), json!(1), json!([]), json!({}), Value::Null],
                ),
                (
                    "clock",
                    vec![
                        json!("none"),
                        json!([]),
                        json!(["per_move", 259200]),
                        json!(7),
                        json!({"type": "per_move", "seconds": -1}),
                        json!({"type": "per_move", "seconds": "259200"}),
                        json!({"type": "per_move", "seconds": 1e30}),
                        json!({"type": "per_move", "seconds": 259200, "drop_after": 0}),
                        json!({"type": "per_move", "seconds": 259200, "extra": 1}),
                        json!({"type": "fischer"}),
                        json!({"type": "none\r\nX-Injected: 1"}),
                        json!({"type": "nope"}),
                    ],
                ),
            ];
            for key in idempotency_attacks() {
                p.extra.push(json_case(
                    &format!("Idempotency-Key {:?}", short(&key)),
                    "POST",
                    "/api/v1/games".to_owned(),
                    Sender::Bearer(w.token.clone()),
                    vec![("Idempotency-Key", key)],
                    &valid,
                    Expect::Problem(422, "validation_failed"),
                ));
            }
            p
        }
        ("GET", "/api/v1/games") => {
            let mut p = Plan::new(bearer);
            p.query = pairs(&[
                ("status", "active"),
                ("my_turn", "true"),
                ("limit", "2"),
                ("offset", "0"),
            ]);
            p.reads = vec![
                ("status", {
                    let mut v = strict("active");
                    v.push("nope".to_owned());
                    v
                }),
                ("my_turn", {
                    let mut v = strict("true");
                    v.push("yes".to_owned());
                    v
                }),
                ("limit", {
                    let mut v = strict("2");
                    v.extend(["0", "201", "500", "-1", "1.5", "x"].map(str::to_owned));
                    v
                }),
                ("offset", {
                    let mut v = strict("0");
                    v.extend(["-1", "1000001", "99999999999999999999"].map(str::to_owned));
                    v
                }),
            ];
            p
        }
        ("GET", "/archive") => {
            let mut p = Plan::new(Sender::Nobody);
            p.query = pairs(&[("kind", "magnate"), ("player", &w.mover_id), ("page", "1")]);
            p.reads = vec![
                ("kind", {
                    let mut v = strict("magnate");
                    v.push("chess".to_owned());
                    v
                }),
                ("player", strict(&w.mover_id)),
                ("page", {
                    let mut v = strict("1");
                    v.extend(["0".to_owned(), "-1".to_owned(), "99999999999".to_owned()]);
                    v
                }),
            ];
            p.extra = vec![
                not_taken(
                    "/archive?kind=magnate&page=90210".to_owned(),
                    Sender::Nobody,
                    "fr",
                    "son paramètre « page » a une valeur que cette page n'accepte pas ; elle accepte un nombre entier de 1 à 10000",
                    "90210",
                ),
                not_taken(
                    "/archive?kind=zq9x".to_owned(),
                    Sender::Nobody,
                    "es",
                    "su parámetro «kind» tiene un valor que esta página no admite; admite uno de estos valores: magnate",
                    "zq9x",
                ),
            ];
            p
        }
        ("GET", "/api/v1/lobby" | "/lobby") => {
            let mut p = if route.path == "/lobby" {
                Plan::new(cookie)
            } else {
                Plan::new(bearer)
            };
            p.query = pairs(&[("kind", "lancaster"), ("seats", "3")]);
            p.reads = vec![
                ("kind", {
                    let mut v = strict("lancaster");
                    v.push("chess".to_owned());
                    v
                }),
                ("seats", {
                    let mut v = strict("3");
                    v.extend(["0".to_owned(), "99999".to_owned(), "x".to_owned()]);
                    v
                }),
            ];
            if route.path == "/lobby" {
                // Cyd reads in Italian (the world sets it); the browser's French is not the
                // account's language.
                p.extra = vec![not_taken(
                    "/lobby?kind=lancaster&seats=9917".to_owned(),
                    Sender::Cookie(w.cyd_cookie.clone()),
                    "fr",
                    "il suo parametro «seats» ha un valore che questa pagina non accetta; accetta un numero intero da 1 a 16",
                    "9917",
                )];
            }
            p
        }
        ("POST", "/api/v1/games/{id}/decline") => {
            let mut p = Plan::new(Sender::Bearer(w.cyd.clone()));
            p.params = vec![w.spare[0].clone()];
            p
        }
        ("POST", "/api/v1/games/{id}/cancel") => {
            let mut p = Plan::new(Sender::Bearer(w.tokens[0].clone()));
            p.params = vec![w.spare[1].clone()];
            p
        }
        ("DELETE", "/api/v1/games/{id}/invitations/{seat}") => {
            let mut p = Plan::new(Sender::Bearer(w.tokens[0].clone()));
            p.params = vec![w.spare[6].clone(), "1".to_owned()];
            p
        }
        ("POST", "/api/v1/games/{id}/invitations") => {
            let mut p = Plan::new(Sender::Bearer(w.tokens[0].clone()));
            p.params = vec![w.spare[7].clone()];
            p.json = Some(json!({"email": "eve@example.test"}));
            p.fields = vec![
                ("email", {
                    let mut v = strings(strict("eve@example.test"));
                    v.extend(not_strings("eve@example.test", false));
                    v
                }),
                ("player_id", {
                    let mut v = strings(strict(&w.mover_id));
                    v.extend(not_strings(&w.mover_id, false));
                    v
                }),
            ];
            p
        }
        // With `after` the answer is JSON; without it the stream would never end.
        ("GET", "/api/v1/me/events") => {
            let mut p = Plan::new(bearer);
            p.query = pairs(&[("after", "0")]);
            p.reads = vec![("after", {
                let mut v = strict("0");
                v.extend(["-1".to_owned(), "x".to_owned(), "1.5".to_owned()]);
                v
            })];
            p
        }
        ("POST", "/api/v1/games/{id}/chat") => {
            let mut p = Plan::new(bearer);
            p.params = vec![w.game.clone()];
            p.json = Some(json!({"text": "good game"}));
            p.fields = vec![("text", {
                let mut v = strings(strict("good game"));
                v.extend(not_strings("good game", true));
                v.push(json!(""));
                v.push(json!("x".repeat(501)));
                v
            })];
            p
        }
        ("GET", "/api/v1/games/{id}/chat" | "/api/v1/games/{id}/history") => {
            let mut p = Plan::new(bearer);
            p.params = vec![w.game.clone()];
            p.query = pairs(&[("after", "0"), ("limit", "2")]);
            p.reads = vec![
                ("after", {
                    let mut v = strict("0");
                    v.extend(["-1", "x", "1.5", "99999999999999999999"].map(str::to_owned));
                    v
                }),
                ("limit", {
                    let mut v = strict("2");
                    v.extend(["0", "201", "500", "-1", "x"].map(str::to_owned));
                    v
                }),
            ];
            p
        }
        ("PUT" | "DELETE", "/api/v1/games/{id}/chat/mutes/{seat}") => {
            let mut p = Plan::new(bearer);
            p.params = vec![w.game.clone(), (1 - w.mover).to_string()];
            p
        }
        ("POST", "/api/v1/me/webhooks") => {
            let mut p = Plan::new(bearer);
            p.json = Some(json!({"url": "http://127.0.0.1:9/other", "events": ["game_over"]}));
            p.fields = vec![
                ("url", {
                    let mut v = strings(strict("http://127.0.0.1:9/other"));
                    v.extend(not_strings("http://127.0.0.1:9/other", true));
                    v.extend([json!("ftp://127.0.0.1/"), json!("not a url"), json!("")]);
                    v
                }),
                (
                    "events",
                    vec![
                        json!([]),
                        json!(["nope"]),
                        json!("game_over"),
                        json!([7]),
                        json!(["game_over", "game_over"]),
                        json!(["game_over\0"]),
                        Value::Null,
                    ],
                ),
            ];
            p
        }
        ("GET", "/api/v1/me/webhooks") => Plan::new(bearer),
        ("GET" | "DELETE", "/api/v1/me/webhooks/{id}") => {
            let mut p = Plan::new(bearer);
            p.params = vec![w.webhook.clone()];
            p
        }
        ("POST", "/api/v1/competitions") => {
            let mut p = Plan::new(Sender::Bearer(w.tokens[0].clone()));
            p.json = Some(json!({
                "name": "Spring Cup", "kind": "magnate",
                "format": {"type": "swiss", "rounds": 3}, "entry": "invite",
                "invite": ["cyd@example.test"], "max_entrants": 8,
                "tie_breaks": ["buchholz", "wins"], "bye_points": 1,
            }));
            p.fields = vec![
                ("name", {
                    let mut v = strings(strict("Spring Cup"));
                    v.extend(not_strings("Spring Cup", true));
                    v.push(json!("  "));
                    v
                }),
                ("kind", {
                    let mut v = strings(strict("magnate"));
                    v.extend(not_strings("magnate", true));
                    v.push(json!("chess"));
                    v
                }),
                (
                    "format",
                    vec![
                        json!({"type": "swiss", "rounds": 0}),
                        json!({"type": "swiss", "rounds": -1}),
                        json!({"type": "swiss"}),
                        json!({"type": "tables", "table_sizes": [3], "rounds": 1}),
                        json!({"type": "knockout", "games_per_match": 3}),
                        json!({"type": "league", "division_size": 4, "promote": 2, "relegate": 2}),
                        json!({"type": "nope"}),
                        json!("swiss"),
                        json!([]),
                        Value::Null,
                    ],
                ),
                ("entry", {
                    let mut v = strings(strict("invite"));
                    v.extend(not_strings("invite", true));
                    v
                }),
                (
                    "invite",
                    vec![
                        json!(["not an address"]),
                        json!("cyd@example.test"),
                        json!([7]),
                        json!(["cyd@example.test", "cyd@example.test"]),
                    ],
                ),
                (
                    "max_entrants",
                    vec![json!(0), json!(1), json!(-1), json!(100000), json!("8")],
                ),
                (
                    "tie_breaks",
                    vec![
                        json!(["koya"]),
                        json!(["wins", "wins"]),
                        json!("wins"),
                        json!([7]),
                    ],
                ),
                (
                    "bye_points",
                    vec![json!(-1), json!(2), json!("1"), json!(1e300)],
                ),
            ];
            p
        }
        ("GET", "/api/v1/competitions") => {
            let mut p = Plan::new(Sender::Nobody);
            p.query = pairs(&[("status", "running"), ("kind", "magnate"), ("limit", "10")]);
            p.reads = vec![
                ("status", {
                    let mut v = strict("running");
                    v.push("nope".to_owned());
                    v
                }),
                ("kind", {
                    let mut v = strict("magnate");
                    v.push("chess".to_owned());
                    v
                }),
                ("limit", {
                    let mut v = strict("10");
                    v.extend(["0", "201", "-1", "x"].map(str::to_owned));
                    v
                }),
            ];
            p
        }
        (
            "GET",
            "/api/v1/competitions/{id}"
            | "/api/v1/competitions/{id}/rounds"
            | "/api/v1/competitions/{id}/standings"
            | "/api/v1/competitions/{id}/trf"
            | "/api/v1/competitions/{id}/audit",
        ) => {
            let mut p = Plan::new(Sender::Nobody);
            p.params = vec![w.comps[3].clone()];
            p
        }
        ("POST", "/api/v1/competitions/{id}/entries") => {
            let mut p = Plan::new(Sender::Bearer(w.cyd.clone()));
            p.params = vec![w.comps[0].clone()];
            p.json = Some(json!({}));
            p.fields = vec![("account_id", {
                let mut v = strings(strict(&w.cyd_id));
                v.extend(not_strings(&w.cyd_id, false));
                v
            })];
            p
        }
        ("DELETE", "/api/v1/competitions/{id}/entries/{account_id}") => {
            let mut p = Plan::new(Sender::Bearer(w.cyd.clone()));
            p.params = vec![w.comps[1].clone(), w.cyd_id.clone()];
            p
        }
        ("POST", "/api/v1/competitions/{id}/start") => {
            let mut p = Plan::new(Sender::Bearer(w.tokens[0].clone()));
            p.params = vec![w.comps[2].clone()];
            p
        }
        ("POST", "/api/v1/competitions/{id}/director") => {
            let mut p = Plan::new(Sender::Bearer(w.tokens[0].clone()));
            p.params = vec![w.comps[3].clone()];
            p.json = Some(json!({"action": "pause", "reason": "a dispute to settle"}));
            p.fields = vec![
                ("action", {
                    let mut v = strings(strict("pause"));
                    v.extend(not_strings("pause", true));
                    v.push(json!("set_result"));
                    v
                }),
                ("reason", {
                    let mut v = strings(strict("a dispute to settle"));
                    v.extend(not_strings("a dispute to settle", true));
                    v.push(json!(" "));
                    v
                }),
            ];
            p
        }
        ("GET", "/api/v1/players") => {
            let mut p = Plan::new(bearer);
            p.query = pairs(&[("q", "cyd")]);
            p.reads = vec![("q", free("cyd"))];
            p
        }
        ("POST", "/api/v1/games/{id}/join") => {
            let mut p = Plan::new(Sender::Bearer(w.cyd.clone()));
            p.params = vec![w.waiting.clone()];
            p.json = Some(json!({"entropy": "my lucky words"}));
            p.fields = vec![("entropy", {
                let mut v = strings(free("my lucky words"));
                v.extend(not_strings("my lucky words", false));
                v
            })];
            p
        }
        ("POST", "/api/v1/games/{id}/actions" | "/api/v1/games/{id}/actions/check") => {
            let mut p = Plan::new(bearer);
            p.params = vec![w.game.clone()];
            let valid = json!({"expected_version": w.version, "actions": [w.legal.clone()]});
            p.json = Some(valid.clone());
            let mut spoilt = w.legal.clone();
            spoilt["zz"] = json!(1);
            p.fields = vec![
                (
                    "expected_version",
                    vec![
                        json!(w.version.to_string()),
                        json!(-1),
                        json!(1.5),
                        json!(1e30),
                        json!(18_446_744_073_709_551_615_u64),
                        json!([w.version]),
                        json!({}),
                        json!(true),
                        Value::Null,
                    ],
                ),
                (
                    "actions",
                    vec![
                        w.legal.clone(),
                        json!("E"),
                        json!([]),
                        json!([7]),
                        json!([null]),
                        json!([[]]),
                        json!(["E"]),
                        json!([spoilt]),
                        json!([{"type": "fly"}]),
                        json!([{"type": "sell\r\nX-Injected: 1", "card": "1M"}]),
                        json!([{"type": "sell", "card": 7}]),
                        json!([{"type": "sell", "card": "1M\r\nX-Injected: 1"}]),
                        json!([{"type": "sell", "card": "\u{202E}1M"}]),
                        json!([{"type": "sell", "card": "1\u{200B}M"}]),
                        json!([{"type": "sell", "card": "x".repeat(LONG)}]),
                        json!([{"type": "build", "card": "4VL", "district": "b", "payment": []}]),
                        json!([{"type": "build", "card": "4VL", "district": "b", "payment": {"V": "1"}}]),
                        json!([{"type": "build", "card": "4VL", "district": "b", "payment": {"V": 70000}}]),
                        json!([{"type": "build", "card": "4VL", "district": "b", "payment": {"V": -1}}]),
                        json!([{"type": "trade", "give": {}, "take": "M"}]),
                        json!([{"type": "trade", "give": [3], "take": "M"}]),
                        json!([{"type": "roll", "d10": [1, 1]}]),
                        json!([{"notation": 7}]),
                        json!([{"notation": "x".repeat(LONG)}]),
                        json!([{"notation": "B:4VL@b+V9999+V9999"}]),
                        json!([{"notation": "E\r\nX-Injected: 1"}]),
                        json!([{"notation": "\u{202E}E"}]),
                        json!([{"notation": "S:1M", "type": "end"}]),
                        json!([w.legal.clone(), w.legal.clone()]),
                        json!([w.legal.clone(), {"type": "roll", "d10": [1, 1]}]),
                        json!(vec![w.legal.clone(); 65]),
                        Value::Null,
                    ],
                ),
            ];
            if route.path.ends_with("/actions") {
                for key in idempotency_attacks() {
                    p.extra.push(json_case(
                        &format!("Idempotency-Key {:?}", short(&key)),
                        "POST",
                        format!("/api/v1/games/{}/actions", w.game),
                        Sender::Bearer(w.token.clone()),
                        vec![("Idempotency-Key", key)],
                        &valid,
                        Expect::Problem(422, "validation_failed"),
                    ));
                }
            }
            p
        }
        ("GET", "/api/v1/ratings/{kind}" | "/api/v1/players/{id}/ratings/{kind}/history") => {
            let mut p = Plan::new(Sender::Nobody);
            p.params = if route.path.starts_with("/api/v1/players") {
                vec![w.mover_id.clone(), "magnate".to_owned()]
            } else {
                vec!["magnate".to_owned()]
            };
            p.query = pairs(&[("limit", "10"), ("offset", "0")]);
            p.reads = vec![
                ("limit", {
                    let mut v = strict("10");
                    v.extend(["0", "201", "-1", "1.5", "x"].map(str::to_owned));
                    v
                }),
                ("offset", {
                    let mut v = strict("0");
                    v.extend(["-1", "1000001", "99999999999999999999"].map(str::to_owned));
                    v
                }),
            ];
            p
        }
        ("POST", "/api/v1/inbound-mail") => {
            // A reply to the mover's turn mail; whatever it comes to, it is read (200).
            let mut p = Plan::new(Sender::Bearer(INBOUND_SECRET.to_owned()));
            let token = w.app.links.reply_token(
                herald::auth::links::ReplyGrant {
                    game: GameId(w.game.parse().unwrap()),
                    seat: w.mover as i16,
                    version: w.version,
                },
                3600,
            );
            p.raw = Some(
                format!(
                    "From: {}\r\nTo: play+{token}@{MAIL_DOMAIN}\r\nSubject: Re: Your move\r\n\
                     Message-ID: <sweep@example.test>\r\n\r\nE\r\n",
                    w.email
                )
                .into_bytes(),
            );
            p
        }
        ("GET", "/api/v1/players/{id}" | "/players/{id}") => {
            let mut p = Plan::new(Sender::Nobody);
            p.params = vec![w.mover_id.clone()];
            p
        }
        // An unknown `lang` falls back to the reader's language: not a read the sweep spoils.
        ("GET", "/rules/{game}") => {
            let mut p = Plan::new(Sender::Nobody);
            p.params = vec!["lancaster".to_owned()];
            p.query = pairs(&[("lang", "es")]);
            p
        }
        ("GET", "/ratings/{kind}") => {
            let mut p = Plan::new(Sender::Nobody);
            p.params = vec!["magnate".to_owned()];
            p.query = pairs(&[("offset", "0")]);
            p.reads = vec![("offset", {
                let mut v = strict("0");
                v.extend(["-1", "x", "1000001"].map(str::to_owned));
                v
            })];
            // An offset the page does not take (400, as every page's refused parameter), and a
            // game there is none of: said in the visitor's language, never repeated.
            p.extra = vec![
                Case {
                    expect: Expect::Named {
                        status: 400,
                        said: "su parámetro «offset» tiene un valor que esta página no admite; admite un número entero de 0 a 1000000",
                        value: "zq9x",
                    },
                    ..not_taken(
                        "/ratings/magnate?offset=zq9x".to_owned(),
                        Sender::Nobody,
                        "es",
                        "",
                        "",
                    )
                },
                Case {
                    expect: Expect::Named {
                        status: 404,
                        said: "No hay nada en esta dirección",
                        value: "zq9x",
                    },
                    ..not_taken("/ratings/zq9x".to_owned(), Sender::Nobody, "es", "", "")
                },
            ];
            p
        }
        ("GET" | "POST", path) if path.starts_with("/api/v1/games/{id}") => {
            let mut p = Plan::new(bearer);
            p.params = vec![w.game.clone()];
            p
        }
        (
            "GET",
            "/api/v1/game-kinds" | "/healthz" | "/readyz" | "/metrics" | "/api/openapi.json",
        ) => Plan::new(Sender::Nobody),
        (_, path) if path.starts_with("/api/v1/") => Plan::new(bearer),
        // The pages.
        (
            "GET",
            "/static/herald.css" | "/static/herald.js" | "/" | "/sign-in" | "/sign-up" | "/docs"
            | "/rules",
        ) => Plan::new(Sender::Nobody),
        ("GET", "/docs/{_:.*}") => {
            let mut p = Plan::new(Sender::Nobody);
            p.params = vec!["index.html".to_owned()];
            p
        }
        ("GET", "/games" | "/games/new" | "/settings") => Plan::new(cookie),
        ("GET", "/competitions") => {
            let mut p = Plan::new(Sender::Nobody);
            p.query = pairs(&[("status", "running")]);
            p.reads = vec![("status", {
                let mut v = strict("running");
                v.push("nope".to_owned());
                v
            })];
            p.extra = vec![not_taken(
                "/competitions?status=zq9x".to_owned(),
                Sender::Nobody,
                "it",
                "il suo parametro «status» ha un valore che questa pagina non accetta; accetta uno di questi valori: registering, running, paused, finished",
                "zq9x",
            )];
            p
        }
        ("GET", "/competitions/new") => Plan::new(cookie),
        ("POST", "/competitions/new") => {
            let mut p = Plan::new(Sender::Cookie(w.ada_cookie.clone()));
            p.form = pairs(&[
                ("csrf", &w.ada_csrf),
                ("name", "Page Cup"),
                ("kind", "magnate"),
                ("format", "swiss"),
                ("rounds", "3"),
                ("entry", "invite"),
                ("invite", "cyd@example.test"),
                ("clock", "per_move_3d"),
                ("tie_breaks", "buchholz,wins"),
            ]);
            p.fields = vec![
                ("csrf", strings(token_attacks(&w.ada_csrf))),
                ("name", strings(strict("Page Cup"))),
                ("kind", {
                    let mut v = strict("magnate");
                    v.push("chess".to_owned());
                    strings(v)
                }),
                ("format", {
                    let mut v = strict("swiss");
                    v.push("nope".to_owned());
                    strings(v)
                }),
                ("rounds", {
                    let mut v = strict("3");
                    v.extend(["0".to_owned(), "-1".to_owned(), "x".to_owned()]);
                    strings(v)
                }),
                ("entry", strings(strict("invite"))),
                ("invite", {
                    let mut v = strict("cyd@example.test");
                    v.push("not an address".to_owned());
                    strings(v)
                }),
                ("clock", strings(strict("per_move_3d"))),
                ("tie_breaks", {
                    let mut v = strict("buchholz,wins");
                    v.push("koya".to_owned());
                    strings(v)
                }),
            ];
            p.extra = vec![cyd_form(
                w,
                "/competitions/new".to_owned(),
                &[("name", "Cup"), ("kind", "magnate"), ("format", "zq9x")],
                422,
                "Il campo «Formato» ha un valore che questo modulo non accetta; accetta una delle scelte offerte dal modulo",
                "zq9x",
            )];
            p
        }
        ("GET", "/competitions/{id}" | "/competitions/{id}/standings.csv") => {
            let mut p = Plan::new(Sender::Nobody);
            p.params = vec![w.comps[3].clone()];
            // An address naming no competition: nothing there, said without repeating it.
            let path = route.path.replace("{id}", "zq9x");
            p.extra = vec![Case {
                label: format!("no competition, Accept-Language es: {path}"),
                expect: Expect::Named {
                    status: 404,
                    said: "No hay nada en esta dirección",
                    value: "zq9x",
                },
                ..not_taken(path, Sender::Nobody, "es", "", "")
            }];
            p
        }
        ("POST", "/competitions/{id}/{action}") => {
            let mut p = Plan::new(Sender::Cookie(w.ada_cookie.clone()));
            p.params = vec![w.comps[3].clone(), "director".to_owned()];
            p.form = pairs(&[
                ("csrf", &w.ada_csrf),
                ("action", "pause"),
                ("reason", "a dispute to settle"),
            ]);
            p.fields = vec![
                ("csrf", strings(token_attacks(&w.ada_csrf))),
                ("action", {
                    let mut v = strict("pause");
                    v.push("resume".to_owned());
                    strings(v)
                }),
                ("reason", strings(strict("a dispute to settle"))),
            ];
            let comp = &w.comps[3];
            p.extra = vec![
                cyd_form(
                    w,
                    format!("/competitions/{comp}/director"),
                    &[
                        ("action", "set_result"),
                        ("places", "zq9x"),
                        ("reason", "r"),
                    ],
                    422,
                    "Il campo «Piazzamenti per posto» ha un valore che questo modulo non accetta; accetta la posizione di ogni posto",
                    "zq9x",
                ),
                cyd_form(
                    w,
                    format!("/competitions/{comp}/zq9x"),
                    &[],
                    404,
                    "Non c'è niente a questo indirizzo",
                    "zq9x",
                ),
            ];
            p
        }
        ("POST", "/games/new") => {
            let mut p = Plan::new(cookie);
            p.form = pairs(&[
                ("csrf", &w.csrf),
                ("kind", "magnate"),
                ("preset_magnate", "standard"),
                ("opt_magnate_courts", "true"),
                ("invite", "cyd@example.test"),
                ("seats", "2"),
                ("open_seats", "0"),
                ("clock", "per_move_3d"),
            ]);
            p.fields = vec![
                ("csrf", strings(token_attacks(&w.csrf))),
                ("kind", {
                    let mut v = strict("magnate");
                    v.push("chess".to_owned());
                    strings(v)
                }),
                ("preset_magnate", {
                    let mut v = strict("standard");
                    v.push("nope".to_owned());
                    strings(v)
                }),
                ("opt_magnate_courts", {
                    let mut v = strict("true");
                    v.push("maybe".to_owned());
                    strings(v)
                }),
                ("invite", {
                    let mut v = strict("cyd@example.test");
                    v.extend([
                        "Nobody Called This".to_owned(),
                        "cyd@example.test, Cyd, Cyd".to_owned(),
                    ]);
                    strings(v)
                }),
                ("seats", {
                    let mut v = strict("2");
                    v.extend([
                        "3".to_owned(),
                        "0".to_owned(),
                        "-1".to_owned(),
                        "300".to_owned(),
                    ]);
                    strings(v)
                }),
                ("open_seats", {
                    let mut v = strict("0");
                    v.extend(["1".to_owned(), "255".to_owned()]);
                    strings(v)
                }),
                ("clock", {
                    let mut v = strict("per_move_3d");
                    v.push("per_move_0d".to_owned());
                    strings(v)
                }),
            ];
            p.extra = vec![
                cyd_form(
                    w,
                    "/games/new".to_owned(),
                    &[("kind", "magnate"), ("clock", "zq9x")],
                    422,
                    "Il campo «Orologio» ha un valore che questo modulo non accetta; accetta uno degli orologi offerti dal modulo",
                    "zq9x",
                ),
                cyd_form(
                    w,
                    "/games/new".to_owned(),
                    &[("kind", "magnate"), ("seats", "zq9x")],
                    422,
                    "Il campo «Posti» ha un valore che questo modulo non accetta; accetta una delle scelte offerte dal modulo",
                    "zq9x",
                ),
            ];
            p
        }
        ("POST", "/sign-in") => {
            let mut p = Plan::new(Sender::Nobody);
            p.form = pairs(&[("email", "nobody@example.test"), ("next", "/games")]);
            p.fields = vec![("email", {
                let mut v = strict("nobody@example.test");
                v.push(String::new());
                strings(v)
            })];
            p
        }
        ("POST", "/sign-up") => {
            let mut p = Plan::new(Sender::Nobody);
            p.form = pairs(&[("email", "someone.new@example.test")]);
            p.fields = vec![("email", {
                let mut v = strict("someone.new@example.test");
                v.push(String::new());
                strings(v)
            })];
            p
        }
        ("GET", "/sign-up/{token}") => {
            let mut p = Plan::new(Sender::Nobody);
            p.params = vec![w.sign_up.clone()];
            p
        }
        ("POST", "/sign-up/{token}") => {
            let mut p = Plan::new(Sender::Nobody);
            p.params = vec![w.sign_up.clone()];
            p.form = pairs(&[("name", "Newcomer")]);
            p.fields = vec![("name", {
                let mut v = strict("Newcomer");
                v.push(String::new());
                strings(v)
            })];
            p
        }
        ("GET" | "POST", "/sign-in/{token}") => {
            // The mover's real, unspent link, opened in this browser: a spoilt one must not
            // spend it.
            let mut p = Plan::new(Sender::Cookie(w.link_mark.clone()));
            p.params = vec![w.link.clone()];
            p.query = pairs(&[("next", "/games")]);
            p.reads = vec![(
                "next",
                vec![
                    "/games\0".to_owned(),
                    "\0".to_owned(),
                    "/games\r\nSet-Cookie: x=1".to_owned(),
                    "/\t/evil.example".to_owned(),
                ],
            )];
            p
        }
        ("POST", "/sign-in/{token}/fresh") => {
            // A spent or expired link asks for a fresh one: a spoilt token asks for nothing.
            let mut p = Plan::new(Sender::Nobody);
            p.params = vec![w.link.clone()];
            p
        }
        ("POST", "/sign-out") => {
            let mut p = Plan::new(cookie);
            p.form = pairs(&[("csrf", &w.csrf)]);
            p.fields = vec![("csrf", strings(token_attacks(&w.csrf)))];
            p
        }
        ("GET", "/invitations/{game_id}") => {
            let mut p = Plan::new(cyd_cookie);
            p.params = vec![w.waiting.clone()];
            p.query = pairs(&[("t", &w.invite_cyd)]);
            p.reads = vec![("t", token_attacks(&w.invite_cyd))];
            p
        }
        ("POST", "/play/{game_id}/accept" | "/play/{game_id}/decline") => {
            let mut p = Plan::new(Sender::Cookie(w.cyd_cookie.clone()));
            let spare = if route.path.ends_with("accept") { 4 } else { 5 };
            p.params = vec![w.spare[spare].clone()];
            p.form = pairs(&[("csrf", &w.cyd_csrf)]);
            p.fields = vec![("csrf", strings(token_attacks(&w.cyd_csrf)))];
            p
        }
        ("POST", "/invitations/{game_id}/decline") => {
            let mut p = Plan::new(cyd_cookie);
            p.params = vec![w.spare[2].clone()];
            p.form = pairs(&[("csrf", &w.cyd_csrf)]);
            p.fields = vec![("csrf", strings(token_attacks(&w.cyd_csrf)))];
            p
        }
        ("POST", "/games/{game_id}/cancel") => {
            let mut p = Plan::new(Sender::Cookie(w.ada_cookie.clone()));
            p.params = vec![w.spare[3].clone()];
            p.form = pairs(&[("csrf", &w.ada_csrf)]);
            p.fields = vec![("csrf", strings(token_attacks(&w.ada_csrf)))];
            p
        }
        ("POST", "/invitations/{game_id}") => {
            let mut p = Plan::new(cyd_cookie);
            p.params = vec![w.waiting.clone()];
            p.form = pairs(&[("csrf", &w.cyd_csrf)]);
            p.fields = vec![("csrf", strings(token_attacks(&w.cyd_csrf)))];
            p
        }
        ("POST", "/invitations/{game_id}/new") => {
            let mut p = Plan::new(Sender::Nobody);
            p.params = vec![w.waiting.clone()];
            p.form = pairs(&[
                ("t", &w.invite_dee),
                ("name", "Dee"),
                ("email", "dee@example.test"),
            ]);
            p.fields = vec![
                ("t", strings(token_attacks(&w.invite_dee))),
                ("name", {
                    let mut v = strict("Dee");
                    v.push(String::new());
                    strings(v)
                }),
                ("email", {
                    let mut v = strict("dee@example.test");
                    v.extend([String::new(), "cyd@example.test".to_owned()]);
                    strings(v)
                }),
            ];
            p
        }
        ("POST", "/settings") => {
            let mut p = Plan::new(cookie);
            p.form = pairs(&[
                ("csrf", &w.csrf),
                ("mode", "daily_digest"),
                ("reminders", "12"),
                ("time_zone", "Europe/Madrid"),
            ]);
            p.fields = vec![
                ("csrf", strings(token_attacks(&w.csrf))),
                ("mode", {
                    let mut v = strict("daily_digest");
                    v.push("sometimes".to_owned());
                    strings(v)
                }),
                ("reminders", {
                    let mut v = strict("12");
                    v.extend(["-1", "0", "NaN", "inf", "1e400", "721", "12,x"].map(str::to_owned));
                    strings(v)
                }),
                ("time_zone", {
                    let mut v = strict("Europe/Madrid");
                    v.extend(["Not/AZone", "../../etc/passwd"].map(str::to_owned));
                    strings(v)
                }),
            ];
            p.extra = vec![cyd_form(
                w,
                "/settings".to_owned(),
                &[("mode", "zq9x")],
                422,
                "Il campo «Email sui miei turni» ha un valore che questo modulo non accetta; accetta una delle scelte offerte dal modulo",
                "zq9x",
            )];
            p
        }
        ("POST", "/settings/vacation") => {
            let mut p = Plan::new(cookie);
            p.form = pairs(&[("csrf", &w.csrf), ("auto", "on"), ("do", "start")]);
            p.fields = vec![
                ("csrf", strings(token_attacks(&w.csrf))),
                ("do", {
                    let mut v = strict("start");
                    v.push("nope".to_owned());
                    strings(v)
                }),
            ];
            p
        }
        ("GET", "/play/{game_id}") => {
            let mut p = Plan::new(cookie);
            p.params = vec![w.game.clone()];
            p.reads = vec![("t", token_attacks(&w.play_link))];
            p
        }
        ("POST", "/play/{game_id}/chat") => {
            let mut p = Plan::new(cookie.clone());
            p.params = vec![w.game.clone()];
            p.form = pairs(&[("csrf", &w.csrf), ("text", "well played")]);
            p.fields = vec![
                ("csrf", strings(token_attacks(&w.csrf))),
                ("text", {
                    let mut v = strict("well played");
                    v.push(String::new());
                    strings(v)
                }),
            ];
            p
        }
        ("POST", "/play/{game_id}/{action}") => {
            // As the action forms send it: the version and CSRF token in the address, the
            // choices in the body.
            let (kind, fields) = form_fields(&w.legal);
            let mut p = Plan::new(cookie.clone());
            p.params = vec![w.game.clone(), kind.clone()];
            let v = w.version.to_string();
            p.query = pairs(&[("v", &v), ("csrf", &w.csrf)]);
            p.reads = vec![
                ("v", {
                    let mut s = strict(&v);
                    s.extend(["1.5", "", "99999999999999999999"].map(str::to_owned));
                    s
                }),
                ("csrf", token_attacks(&w.csrf)),
            ];
            p.form = fields.clone();
            p.fields = fields
                .iter()
                .map(|(name, value)| {
                    let name: &'static str = Box::leak(name.clone().into_boxed_str());
                    let mut s = strict(value);
                    s.extend(["-1", "99999"].map(str::to_owned));
                    (name, strings(s))
                })
                .collect();
            // As the one-click forms send it: everything in the address, no body. A body that
            // cannot be read as a form must be refused, not read as no fields.
            let mut all = fields.clone();
            all.extend(p.query.clone());
            let path = format!("/play/{}/{}?{}", w.game, enc(&kind), encode_pairs(&all));
            for (label, content_type, body) in [
                ("2 MB form body", FORM_TYPE, vec![b'x'; 2 * 1024 * 1024]),
                ("JSON body", JSON_TYPE, br#"{"type": "end"}"#.to_vec()),
                ("text body", "text/plain", b"hello".to_vec()),
            ] {
                p.extra.push(Case {
                    label: format!("one-click form with a {label}"),
                    method: "POST",
                    path: path.clone(),
                    sender: cookie.clone(),
                    content_type: Some(content_type),
                    headers: Vec::new(),
                    body: Some(body),
                    expect: Expect::Refused,
                });
            }
            // A form the game's page has not, and a count that is not one: said in the reader's
            // language, without what was sent.
            let v = w.version.to_string();
            p.extra.push(cyd_form(
                w,
                format!("/play/{}/zq9x?v={v}", w.game),
                &[],
                422,
                "La pagina di questa partita non ha quel modulo",
                "zq9x",
            ));
            p.extra.push(cyd_form(
                w,
                format!("/play/{}/build?v={v}", w.game),
                &[("card", "A1"), ("district", "a"), ("pay_V", "zq9x")],
                422,
                "Il campo «gettoni» ha un valore che questo modulo non accetta; accetta un numero intero da 0 a 99",
                "zq9x",
            ));
            // Said above the game in its reader's language, not in actix's English.
            p.extra.push(Case {
                content_type: Some("text/plain"),
                body: Some(b"zq9x".to_vec()),
                ..cyd_form(
                    w,
                    path.clone(),
                    &[],
                    415,
                    "un modulo si invia come application/x-www-form-urlencoded",
                    "zq9x",
                )
            });
            for (name, value) in &fields {
                for bad in strict(value).into_iter().filter(|v| v.len() <= LONG) {
                    let spoilt = with(&all, name, &bad);
                    p.extra.push(Case {
                        label: format!("one-click form, {name}={:?}", short(&bad)),
                        method: "POST",
                        path: format!("/play/{}/{}?{}", w.game, enc(&kind), encode_pairs(&spoilt)),
                        sender: cookie.clone(),
                        content_type: Some(FORM_TYPE),
                        headers: Vec::new(),
                        body: Some(Vec::new()),
                        expect: Expect::Refused,
                    });
                }
            }
            p
        }
        ("GET" | "POST", "/unsubscribe/{token}") => {
            let mut p = Plan::new(Sender::Nobody);
            p.params = vec![w.unsubscribe.clone()];
            p
        }
        (method, path) => panic!("no plan for {method} {path}: add one"),
    }
}

fn idempotency_attacks() -> Vec<String> {
    vec!["a b".to_owned(), "k".repeat(256), "k\tk".to_owned()]
}

fn short(s: &str) -> String {
    if s.chars().count() > 40 {
        format!(
            "{}… ({} bytes)",
            s.chars().take(20).collect::<String>(),
            s.len()
        )
    } else {
        s.to_owned()
    }
}

fn json_case(
    label: &str,
    method: &'static str,
    path: String,
    sender: Sender,
    headers: Vec<(&'static str, String)>,
    body: &Value,
    expect: Expect,
) -> Case {
    Case {
        label: label.to_owned(),
        method,
        path,
        sender,
        content_type: Some(JSON_TYPE),
        headers,
        body: Some(serde_json::to_vec(body).unwrap()),
        expect,
    }
}

/// The route's path with its valid parameters, percent-encoded, split into segments.
fn segments(route: &Route, params: &[String]) -> Vec<(bool, String)> {
    let mut params = params.iter();
    route
        .path
        .split('/')
        .skip(1)
        .map(|s| {
            if s.starts_with('{') {
                let v = params
                    .next()
                    .unwrap_or_else(|| panic!("{}: no value for {s}", route.path));
                (true, enc(v))
            } else {
                (false, s.to_owned())
            }
        })
        .collect()
}

fn join_path(segments: &[(bool, String)], query: &str) -> String {
    let path: String = segments.iter().map(|(_, s)| format!("/{s}")).collect();
    if query.is_empty() {
        path
    } else {
        format!("{path}?{query}")
    }
}

/// The valid body of a route's plan, with its media type.
fn valid_body(route: &Route, p: &Plan) -> (Option<&'static str>, Option<Vec<u8>>) {
    match route.body {
        BodyKind::Json | BodyKind::OptionalJson => (
            Some(JSON_TYPE),
            Some(serde_json::to_vec(p.json.as_ref().expect("a valid JSON body")).unwrap()),
        ),
        BodyKind::Form => (Some(FORM_TYPE), Some(encode_pairs(&p.form).into_bytes())),
        BodyKind::Raw => (Some(MESSAGE_TYPE), p.raw.clone()),
        BodyKind::None => (None, None),
    }
}

const MESSAGE_TYPE: &str = "message/rfc822";

/// The route's valid request, unspoilt.
fn control(w: &World, route: &Route) -> Case {
    let p = plan(w, route);
    let (content_type, body) = valid_body(route, &p);
    Case {
        label: "the valid request".to_owned(),
        method: route.method,
        path: join_path(&segments(route, &p.params), &encode_pairs(&p.query)),
        sender: p.sender,
        content_type,
        headers: Vec::new(),
        body,
        expect: Expect::Harmless,
    }
}

/// Every spoilt request for one route.
fn cases(w: &World, route: &Route) -> Vec<Case> {
    let p = plan(w, route);
    let segs = segments(route, &p.params);
    let query = encode_pairs(&p.query);
    let (content_type, body) = valid_body(route, &p);
    let case =
        |label: String, path: String, ct: Option<&'static str>, body: Option<Vec<u8>>, expect| {
            Case {
                label,
                method: route.method,
                path,
                sender: p.sender.clone(),
                content_type: ct,
                headers: Vec::new(),
                body,
                expect,
            }
        };
    let mut out = Vec::new();

    // Path segments, each spoilt in turn; the valid body goes along, so only the path is wrong.
    let mut spoilt_paths: Vec<(String, Vec<(bool, String)>)> = Vec::new();
    for (i, (param, valid)) in segs.iter().enumerate() {
        let mut bad: Vec<String> = vec![format!("{valid}%00"), format!("{valid}%0D%0A")];
        if *param {
            bad.extend(
                [
                    "%00",
                    "%0D%0A",
                    "%0D%0ASet-Cookie:%20x=1",
                    "..%2F..%2Fetc%2Fpasswd",
                    "%E2%80%AE",
                    "%E2%80%8B",
                    "%FF",
                    "not-a-uuid",
                ]
                .map(str::to_owned),
            );
            bad.push(format!("%E2%80%AE{valid}"));
            bad.push(format!("{valid}%E2%80%8B"));
            bad.push("a".repeat(4096));
        } else if i + 1 != segs.len() {
            // Literal segments inside the path: only the whole-segment NUL.
            bad = vec!["%00".to_owned()];
        }
        for b in bad {
            let mut s = segs.clone();
            s[i].1 = b;
            spoilt_paths.push((format!("segment {i}"), s));
        }
    }
    let mut extra_segment = segs.clone();
    extra_segment.push((false, "%00".to_owned()));
    spoilt_paths.push(("a %00 segment after".to_owned(), extra_segment));
    let mut first_segment = segs.clone();
    first_segment.insert(0, (false, "%00".to_owned()));
    spoilt_paths.push(("a %00 segment before".to_owned(), first_segment));
    for (label, s) in spoilt_paths {
        let path = join_path(&s, &query);
        out.push(case(
            format!("{label}: {}", short(&path)),
            path,
            content_type,
            body.clone(),
            Expect::Refused,
        ));
    }

    // Query values the route reads (an address holds at most 64 kB: no huge values there).
    for (name, values) in &p.reads {
        for v in values.iter().filter(|v| v.len() <= LONG) {
            let q = encode_pairs(&with(&p.query, name, v));
            out.push(case(
                format!("query {name}={:?}", short(v)),
                join_path(&segs, &q),
                content_type,
                body.clone(),
                Expect::Refused,
            ));
        }
    }
    // Unknown query parameters are ignored, but never a 5xx (reads only: a valid write with an
    // ignored parameter is still valid).
    // (Not the sign-in link: opening it signs in, whatever else the address says.)
    if route.method == "GET" && route.path != "/sign-in/{token}" {
        for v in ["\0", "\r\nX-Injected: 1", "\u{202E}"] {
            let q = encode_pairs(&with(&p.query, "zz", v));
            out.push(case(
                format!("unknown query zz={v:?}"),
                join_path(&segs, &q),
                None,
                None,
                Expect::Harmless,
            ));
        }
    }

    let path = join_path(&segs, &query);
    match route.body {
        BodyKind::Json | BodyKind::OptionalJson => {
            let valid = p.json.clone().unwrap();
            let object = valid.as_object().unwrap();
            let as_array = Value::Array(object.values().cloned().collect());
            let mut unknown = valid.clone();
            unknown["admin"] = json!(true);
            let malformed = Expect::Problem(400, "malformed_request");
            let invalid = Expect::Problem(422, "validation_failed");
            let mut whole: Vec<(String, Option<&'static str>, Vec<u8>, Expect)> = vec![
                (
                    "malformed".into(),
                    Some(JSON_TYPE),
                    b"{not json".to_vec(),
                    malformed,
                ),
                (
                    "unterminated".into(),
                    Some(JSON_TYPE),
                    b"[1, 2".to_vec(),
                    malformed,
                ),
                (
                    "missing value".into(),
                    Some(JSON_TYPE),
                    b"{\"a\": }".to_vec(),
                    malformed,
                ),
                ("null".into(), Some(JSON_TYPE), b"null".to_vec(), invalid),
                (
                    "a bare string".into(),
                    Some(JSON_TYPE),
                    b"\"hello\"".to_vec(),
                    invalid,
                ),
                ("a number".into(), Some(JSON_TYPE), b"7".to_vec(), invalid),
                ("true".into(), Some(JSON_TYPE), b"true".to_vec(), invalid),
                (
                    "an empty array".into(),
                    Some(JSON_TYPE),
                    b"[]".to_vec(),
                    invalid,
                ),
                (
                    "the fields as an array".into(),
                    Some(JSON_TYPE),
                    serde_json::to_vec(&as_array).unwrap(),
                    invalid,
                ),
                (
                    "the object in an array".into(),
                    Some(JSON_TYPE),
                    serde_json::to_vec(&json!([valid])).unwrap(),
                    invalid,
                ),
                (
                    "an unknown field".into(),
                    Some(JSON_TYPE),
                    serde_json::to_vec(&unknown).unwrap(),
                    invalid,
                ),
                (
                    "a raw NUL byte".into(),
                    Some(JSON_TYPE),
                    {
                        let mut b = serde_json::to_vec(&valid).unwrap();
                        let close = b.len() - 1;
                        b.splice(close..close, b", \"zz\": \"\0\"".iter().copied());
                        b
                    },
                    invalid,
                ),
                (
                    "text/plain".into(),
                    Some("text/plain"),
                    serde_json::to_vec(&valid).unwrap(),
                    Expect::Problem(415, "unsupported_media_type"),
                ),
                (
                    "a form".into(),
                    Some(FORM_TYPE),
                    serde_json::to_vec(&valid).unwrap(),
                    Expect::Problem(415, "unsupported_media_type"),
                ),
                (
                    "2 MB".into(),
                    Some(JSON_TYPE),
                    format!("{{\"pad\": \"{}\"}}", "x".repeat(2 * 1024 * 1024)).into_bytes(),
                    Expect::Problem(413, "payload_too_large"),
                ),
            ];
            if route.body == BodyKind::Json {
                whole.push(("empty".into(), Some(JSON_TYPE), Vec::new(), malformed));
            }
            // The first key again (first), and a key twice inside a field kept as JSON.
            if let Some((key, value)) = valid.as_object().and_then(|o| o.iter().next()) {
                let mut b = serde_json::to_vec(&valid).unwrap();
                b.splice(1..1, format!("{}: {value}, ", json!(key)).into_bytes());
                whole.push(("a key named twice".into(), Some(JSON_TYPE), b, invalid));
            }
            if let Some(options) = valid.get("options").filter(|o| o.is_object()) {
                let twice = serde_json::to_string(options).unwrap().replacen(
                    '{',
                    "{\"preset\": \"standard\", ",
                    1,
                );
                let b = serde_json::to_string(&valid).unwrap().replacen(
                    &serde_json::to_string(options).unwrap(),
                    &twice,
                    1,
                );
                whole.push((
                    "an option named twice".into(),
                    Some(JSON_TYPE),
                    b.into_bytes(),
                    invalid,
                ));
            }
            for (label, ct, bytes, expect) in whole {
                out.push(case(
                    format!("body: {label}"),
                    path.clone(),
                    ct,
                    Some(bytes),
                    expect,
                ));
            }
            for (field, values) in &p.fields {
                for v in values {
                    let mut spoilt = valid.clone();
                    spoilt[*field] = v.clone();
                    let text = v.to_string();
                    out.push(case(
                        format!("{field}: {}", short(&text)),
                        path.clone(),
                        Some(JSON_TYPE),
                        Some(serde_json::to_vec(&spoilt).unwrap()),
                        Expect::Refused,
                    ));
                }
            }
        }
        BodyKind::Form => {
            for (field, values) in &p.fields {
                for v in values {
                    let v = v.as_str().unwrap();
                    let spoilt = with(&p.form, field, v);
                    out.push(case(
                        format!("field {field}={:?}", short(v)),
                        path.clone(),
                        Some(FORM_TYPE),
                        Some(encode_pairs(&spoilt).into_bytes()),
                        Expect::Refused,
                    ));
                }
            }
            let form = encode_pairs(&p.form);
            for (label, ct, bytes) in [
                ("2 MB form", Some(FORM_TYPE), {
                    let mut b = form.clone().into_bytes();
                    b.extend(b"&pad=");
                    b.extend(vec![b'x'; 2 * 1024 * 1024]);
                    b
                }),
                ("the form as JSON", Some(JSON_TYPE), {
                    let map: Map<String, Value> = p
                        .form
                        .iter()
                        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                        .collect();
                    serde_json::to_vec(&map).unwrap()
                }),
                (
                    "the form as text/plain",
                    Some("text/plain"),
                    form.clone().into_bytes(),
                ),
            ] {
                out.push(case(
                    format!("body: {label}"),
                    path.clone(),
                    ct,
                    Some(bytes),
                    Expect::Refused,
                ));
            }
        }
        BodyKind::Raw => {
            let valid = p.raw.clone().unwrap();
            let raw =
                |label: &str, sender: Sender, ct: Option<&'static str>, bytes: Vec<u8>, expect| {
                    Case {
                        label: format!("body: {label}"),
                        method: route.method,
                        path: path.clone(),
                        sender,
                        content_type: ct,
                        headers: Vec::new(),
                        body: Some(bytes),
                        expect,
                    }
                };
            let unauthenticated = Expect::Problem(401, "unauthenticated");
            let invalid = Expect::Problem(422, "validation_failed");
            let json_instead = Expect::Problem(415, "unsupported_media_type");
            out.extend([
                raw(
                    "no secret",
                    Sender::Nobody,
                    Some(MESSAGE_TYPE),
                    valid.clone(),
                    unauthenticated,
                ),
                raw(
                    "a wrong secret",
                    Sender::Bearer("not the secret".to_owned()),
                    Some(MESSAGE_TYPE),
                    valid.clone(),
                    unauthenticated,
                ),
                raw(
                    "an account's token",
                    Sender::Bearer(w.token.clone()),
                    Some(MESSAGE_TYPE),
                    valid.clone(),
                    unauthenticated,
                ),
                raw(
                    "empty",
                    p.sender.clone(),
                    Some(MESSAGE_TYPE),
                    Vec::new(),
                    invalid,
                ),
                raw(
                    "NUL bytes",
                    p.sender.clone(),
                    Some(MESSAGE_TYPE),
                    vec![0; 64],
                    invalid,
                ),
                raw(
                    "JSON",
                    p.sender.clone(),
                    Some(JSON_TYPE),
                    b"{\"raw\": \"message\"}".to_vec(),
                    json_instead,
                ),
                raw(
                    "a form",
                    p.sender.clone(),
                    Some(FORM_TYPE),
                    valid.clone(),
                    json_instead,
                ),
                raw(
                    "not addressed to a reply address",
                    p.sender.clone(),
                    Some(MESSAGE_TYPE),
                    String::from_utf8(valid.clone())
                        .unwrap()
                        .replace("play+", "someone+")
                        .into_bytes(),
                    invalid,
                ),
                raw(
                    "2 MB of nothing",
                    p.sender.clone(),
                    Some(MESSAGE_TYPE),
                    vec![b'x'; 2 * 1024 * 1024],
                    invalid,
                ),
                raw(
                    "11 MB",
                    p.sender.clone(),
                    Some(MESSAGE_TYPE),
                    vec![b'x'; 11 * 1024 * 1024],
                    Expect::Problem(413, "payload_too_large"),
                ),
            ]);
        }
        BodyKind::None => {}
    }
    out.extend(p.extra);
    out
}

// ---------------------------------------------------------------------------------------------
// The sweep.

struct Sweep<'a> {
    w: &'a World,
    db: Fingerprint,
    before: BTreeMap<String, String>,
    sent: usize,
    failures: Vec<String>,
}

impl Sweep<'_> {
    async fn send(&self, c: &Case) -> Reply {
        let mut headers: Vec<(&str, &str)> = Vec::new();
        let token = match &c.sender {
            Sender::Bearer(t) => Some(t.as_str()),
            Sender::Cookie(cookie) => {
                headers.push(("Cookie", cookie));
                headers.push(("Accept", "text/html"));
                None
            }
            Sender::Nobody => None,
        };
        if let Some(ct) = c.content_type {
            headers.push(("Content-Type", ct));
        }
        for (k, v) in &c.headers {
            headers.push((k, v));
        }
        let method = Method::from_bytes(c.method.as_bytes()).unwrap();
        self.w
            .app
            .send(method, &c.path, token, &headers, c.body.clone())
            .await
    }

    async fn run(&mut self, route: &Route, c: &Case) {
        let r = self.send(c).await;
        self.sent += 1;
        let what = format!("{} {} [{}]", route.method, route.path, c.label);
        let mut wrong = Vec::new();
        match c.expect {
            Expect::Harmless => {
                if r.status >= 500 {
                    wrong.push(format!("answered {}", r.status));
                }
            }
            Expect::Refused | Expect::Problem(..) | Expect::Named { .. } => {
                if !(400..500).contains(&r.status) {
                    wrong.push(format!("answered {}, not a 4xx", r.status));
                }
            }
        }
        if let Expect::Problem(status, code) = c.expect
            && (r.status != status || r.code() != code)
        {
            wrong.push(format!(
                "answered {} {:?}, not {status} {code}",
                r.status,
                r.code()
            ));
        }
        if let Expect::Named {
            status,
            said,
            value,
        } = c.expect
        {
            if r.status != status || !r.header("content-type").starts_with("text/html") {
                wrong.push(format!("answered {}, not a {status} page", r.status));
            }
            if !r.text.contains(said) {
                wrong.push(format!("does not say {said:?}"));
            }
            if r.text.contains(value) {
                wrong.push(format!("repeats the value {value:?}"));
            }
        }
        if is_api(route.path) && (400..500).contains(&r.status) {
            let problem = r
                .header("content-type")
                .starts_with("application/problem+json")
                && !r.code().is_empty()
                && r.json["status"] == json!(r.status)
                && r.json["detail"].as_str().is_some_and(|d| !d.is_empty());
            if !problem {
                wrong.push("the refusal is not a problem with a code".to_owned());
            }
        }
        let after = self.db.take();
        if after != self.before {
            let changed: Vec<&String> = after
                .keys()
                .filter(|k| after.get(*k) != self.before.get(*k))
                .collect();
            wrong.push(format!("changed the tables {changed:?}"));
            self.before = after;
        }
        if !wrong.is_empty() {
            let text: String = r.text.chars().take(300).collect();
            self.failures.push(format!(
                "{what}: {} (answer {}: {text})",
                wrong.join("; "),
                r.status
            ));
        }
    }
}

async fn sweep(select: fn(&Route) -> bool) -> (usize, usize) {
    let routes: Vec<&Route> = ROUTES.iter().filter(|r| select(r)).collect();
    // First, in a world of its own, each route's valid request is accepted: the spoilt ones are
    // refused for what was spoilt, not for something else.
    let w = world().await;
    let mut refused = Vec::new();
    for route in &routes {
        let c = control(&w, route);
        let s = Sweep {
            db: Fingerprint::new(&w.app.db_url),
            before: BTreeMap::new(),
            w: &w,
            sent: 0,
            failures: Vec::new(),
        };
        let r = s.send(&c).await;
        if r.status >= 400 {
            refused.push(format!(
                "{} {} answered {}: {}",
                route.method,
                route.path,
                r.status,
                r.text.chars().take(300).collect::<String>()
            ));
        }
    }
    assert!(
        refused.is_empty(),
        "valid requests refused:\n{}",
        refused.join("\n")
    );
    drop(w);
    let w = world().await;
    // Every read a user makes, once, so that what a first read creates is there before.
    let mut seen_before = seen(&w).await;
    let mut s = Sweep {
        db: Fingerprint::new(&w.app.db_url),
        before: BTreeMap::new(),
        w: &w,
        sent: 0,
        failures: Vec::new(),
    };
    s.before = s.db.take();
    for route in &routes {
        for c in cases(&w, route) {
            s.run(route, &c).await;
        }
        let now = seen(&w).await;
        if now != seen_before {
            s.failures.push(format!(
                "{} {}: what the players see changed",
                route.method, route.path
            ));
            seen_before = now;
        }
    }
    let (sent, failures) = (s.sent, s.failures);
    assert!(
        failures.is_empty(),
        "{} of {sent} bad requests were not refused cleanly:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The world is still usable: the valid move the sweep spoilt is accepted now.
    let r = w
        .app
        .post(
            &format!("/api/v1/games/{}/actions", w.game),
            Some(&w.token),
            json!({"expected_version": w.version, "actions": [w.legal]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let _ = w.mover;
    (sent, routes.len())
}

#[actix_web::test]
async fn every_api_route_refuses_bad_input_with_a_problem_and_changes_nothing() {
    let (sent, routes) = sweep(|r| is_api(r.path)).await;
    eprintln!("bad-input sweep (API): {sent} requests over {routes} routes");
    assert!(sent > 500, "{sent}");
}

#[actix_web::test]
async fn every_page_refuses_bad_input_and_changes_nothing() {
    let (sent, routes) = sweep(|r| !is_api(r.path)).await;
    eprintln!("bad-input sweep (pages): {sent} requests over {routes} routes");
    assert!(sent > 300, "{sent}");
}
