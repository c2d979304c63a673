//! The game page in headless Chromium, driven over the WebDriver protocol (chromedriver's HTTP and
//! JSON, with `awc`): sign in from an emailed link, play a turn (the roll shown, a build with a
//! payment, end), see an illegal build refused, and check the opponent's page. Screenshots of the
//! game page at 360 and 1280 pixels go to `target/`.
//!
//! Needs `chromium` and `chromium-driver` (Debian); `CHROMEDRIVER` and `CHROMIUM` override the
//! programs' paths.

use crate::helpers::{TestApp, spawn_app};
use crate::web::{shows_card, until_a_build, user_id};
use base64::Engine;
use herald::auth::links::PlayGrant;
use herald::domain::GameId;
use serde_json::{Value, json};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A chromedriver process, stopped on drop.
struct Driver {
    child: Child,
    base: String,
    client: awc::Client,
    temp: std::path::PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.temp);
    }
}

/// One browser session.
struct Browser<'a> {
    driver: &'a Driver,
    id: String,
}

impl Driver {
    async fn start() -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let program = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".to_owned());
        let child = Command::new(&program)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{program} could not start ({e}): see README"));
        let temp =
            std::env::temp_dir().join(format!("herald-chromium-{}-{port}", std::process::id()));
        let driver = Driver {
            child,
            base: format!("http://127.0.0.1:{port}"),
            client: awc::Client::builder()
                .timeout(Duration::from_secs(60))
                .finish(),
            temp,
        };
        for _ in 0..100 {
            if let Ok(mut r) = driver
                .client
                .get(format!("{}/status", driver.base))
                .send()
                .await
                && r.json::<Value>()
                    .await
                    .is_ok_and(|v| v["value"]["ready"] == true)
            {
                return driver;
            }
            actix_web::rt::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("chromedriver did not become ready");
    }

    async fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.base);
        let req = match method {
            "GET" => self.client.get(url),
            "DELETE" => self.client.delete(url),
            _ => self.client.post(url),
        };
        let mut res = match body {
            Some(b) => req.send_json(&b).await,
            None if method == "POST" => req.send_json(&json!({})).await,
            None => req.send().await,
        }
        .expect("chromedriver answers");
        let v: Value = res.json().limit(64 * 1024 * 1024).await.unwrap();
        assert!(
            v["value"]["error"].is_null(),
            "{method} {path}: {}",
            v["value"]
        );
        v["value"].clone()
    }

    /// A POST whose failure (e.g. during a navigation) is not fatal.
    async fn try_call(&self, path: &str, body: &Value) -> Option<Value> {
        let mut res = self
            .client
            .post(format!("{}{path}", self.base))
            .send_json(body)
            .await
            .ok()?;
        let v: Value = res.json().await.ok()?;
        v["value"]["error"].is_null().then(|| v["value"].clone())
    }

    async fn session(&self, width: u32) -> Browser<'_> {
        let binary = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_owned());
        let dir = self.temp.join(format!("profile-{width}-{}", rand_suffix()));
        std::fs::create_dir_all(&dir).unwrap();
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": binary,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", format!("--user-data-dir={}", dir.display()),
                    format!("--window-size={width},900"),
                ]
            }
        }}});
        let v = self.call("POST", "/session", Some(caps)).await;
        Browser {
            driver: self,
            id: v["sessionId"].as_str().unwrap().to_owned(),
        }
    }
}

fn rand_suffix() -> String {
    hex::encode(herald::auth::random_bytes::<4>())
}

impl Browser<'_> {
    async fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.driver
            .call(method, &format!("/session/{}{path}", self.id), body)
            .await
    }

    async fn go(&self, url: &str) {
        self.call("POST", "/url", Some(json!({"url": url}))).await;
    }

    async fn url(&self) -> String {
        self.call("GET", "/url", None)
            .await
            .as_str()
            .unwrap()
            .to_owned()
    }

    async fn source(&self) -> String {
        self.call("GET", "/source", None)
            .await
            .as_str()
            .unwrap()
            .to_owned()
    }

    async fn find(&self, css: &str) -> String {
        let v = self
            .call(
                "POST",
                "/element",
                Some(json!({"using": "css selector", "value": css})),
            )
            .await;
        v[ELEMENT].as_str().unwrap().to_owned()
    }

    async fn text(&self, css: &str) -> String {
        let e = self.find(css).await;
        self.call("GET", &format!("/element/{e}/text"), None)
            .await
            .as_str()
            .unwrap()
            .to_owned()
    }

    async fn click(&self, css: &str) {
        let e = self.find(css).await;
        self.call("POST", &format!("/element/{e}/click"), None)
            .await;
    }

    /// Clicks a submit button and waits for the next page to have loaded.
    async fn submit(&self, css: &str) {
        let mark = json!({"script": "window.__heraldOld = true; return 1", "args": []});
        self.call("POST", "/execute/sync", Some(mark)).await;
        self.click(css).await;
        let probe = json!({"script": "return !window.__heraldOld && document.readyState === 'complete'", "args": []});
        for _ in 0..200 {
            if let Some(v) = self
                .driver
                .try_call(&format!("/session/{}/execute/sync", self.id), &probe)
                .await
                && v == json!(true)
            {
                return;
            }
            actix_web::rt::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("no page after submitting {css}");
    }

    /// Chooses the option `value` of a select by clicking it.
    async fn choose(&self, select_css: &str, value: &str) {
        self.click(&format!("{select_css} option[value=\"{value}\"]"))
            .await;
    }

    /// A screenshot of the whole page at `width` pixels, written to `target/name` (overwritten at
    /// each run); its path.
    async fn screenshot(&self, width: u32, name: &str) -> std::path::PathBuf {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
        let height: u64 = self
            .call(
                "POST",
                "/execute/sync",
                Some(json!({"script": "return document.documentElement.scrollHeight", "args": []})),
            )
            .await
            .as_u64()
            .unwrap_or(2000);
        self.call(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": height.clamp(600, 6000)})),
        )
        .await;
        let png = self.call("GET", "/screenshot", None).await;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(png.as_str().unwrap())
            .unwrap();
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    /// A screenshot of one screenful around the element `css`.
    async fn view_of(&self, css: &str, width: u32, name: &str) {
        self.call(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": 780})),
        )
        .await;
        let script = format!("document.querySelector('{css}').scrollIntoView(); return 1");
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        )
        .await;
        let png = self.call("GET", "/screenshot", None).await;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(png.as_str().unwrap())
            .unwrap();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
        std::fs::write(dir.join(name), bytes).unwrap();
    }

    async fn close(self) {
        self.call("DELETE", "", None).await;
    }
}

async fn sign_in_link(app: &TestApp, token: &str, email: &str, game: &str) -> String {
    use diesel::Connection;
    let user = user_id(app, token).await;
    let mut conn = diesel::PgConnection::establish(&app.db_url).unwrap();
    let t =
        herald::web::session::new_sign_in_link(&mut conn, &app.links, user, email, 600).unwrap();
    format!("{}/sign-in/{t}?next=/play/{game}", app.base)
}

#[actix_web::test]
#[ignore = "needs Chromium (see README)"]
async fn a_player_signs_in_from_a_link_plays_a_turn_and_the_opponent_sees_the_result_not_the_hand()
{
    let app = spawn_app().await;
    let table = app.table().await;
    let (mover, build) = until_a_build(&app, &table).await;
    let emails = ["ada@example.test", "bruno@example.test"];
    let driver = Driver::start().await;
    let b = driver.session(1280).await;

    // Sign in from the emailed link: it lands on the clean game page.
    let link = sign_in_link(&app, &table.tokens[mover], emails[mover], &table.id).await;
    b.go(&link).await;
    // Opening the link spends nothing (a mail scanner may open it first): its one button does.
    b.submit("form[data-action=sign-in] button[type=submit]")
        .await;
    assert_eq!(b.url().await, format!("{}/play/{}", app.base, table.id));
    assert!(b.text(".status").await.contains("Your move"));
    let roll = b.text("section[aria-labelledby=roll-h]").await;
    assert!(roll.contains("Dice: "), "{roll}");
    b.screenshot(1280, "web-game-1280.png").await;

    // The build form offers exactly the listed builds, each with its payment: choose one.
    let card = build["card"].as_str().unwrap();
    let notation = build["notation"].as_str().unwrap();
    let offered = b.text("#build-notation").await;
    assert!(offered.contains("Payment"), "the price is shown: {offered}");
    b.choose("#build-notation", notation).await;
    b.submit("form[data-action=build] button[type=submit]")
        .await;
    if b.url().await != format!("{}/play/{}", app.base, table.id) {
        panic!("{build}: {}", b.text("#problem-build").await);
    }
    let history = b.text("section[aria-labelledby=history-h]").await;
    assert!(history.contains(card), "{history}");
    b.screenshot(360, "web-game-360.png").await;

    // Meanwhile the turn ends from another device: this page's button is now stale, and the
    // page says so and shows the game as it stands.
    let g = app.game(&table, mover).await;
    let ended = app
        .submit(
            &table,
            mover,
            g["version"].as_i64().unwrap(),
            json!([{"type": "end"}]),
        )
        .await;
    assert_eq!(ended.status, 200, "{}", ended.text);
    b.submit("form[data-action=end] button").await;
    assert!(b.text(".notice").await.contains("changed meanwhile"));
    b.view_of(".notice", 360, "web-stale-360.png").await;
    assert!(b.text(".status").await.contains("Waiting for"));
    let g = app.game(&table, mover).await;
    let hand: Vec<String> = g["view"]["players"][mover]["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    b.close().await;

    // The opponent, from their play link in a browser of their own.
    let other = 1 - mover;
    let user = user_id(&app, &table.tokens[other]).await;
    let token = app.links.play_link(
        PlayGrant {
            user,
            game: GameId(table.id.parse().unwrap()),
            seat: other as i16,
        },
        600,
    );
    let o = driver.session(360).await;
    o.go(&format!("{}/play/{}?t={token}", app.base, table.id))
        .await;
    assert_eq!(o.url().await, format!("{}/play/{}", app.base, table.id));
    let districts = o.text("section[aria-labelledby=districts-h]").await;
    assert!(districts.contains(card), "the build is on the board");
    let source = o.source().await;
    for c in &hand {
        assert!(
            !shows_card(&source, c),
            "the mover's card {c} is on the opponent's page"
        );
    }
    assert!(o.text(".status").await.contains("Your move"));
    o.close().await;
}

/// The newest play link in the mails to `email` among `mails`.
fn play_link_in(mails: &[crate::smtp::Received], email: &str, game: &str) -> Option<String> {
    mails
        .iter()
        .rev()
        .filter(|m| m.is_to(email))
        .flat_map(|m| m.links())
        .find(|l| l.contains(&format!("/play/{game}?t=")))
}

#[actix_web::test]
#[ignore = "needs Chromium (see README)"]
async fn three_lancaster_players_follow_their_mail_links_and_play_a_round_with_a_vote() {
    let room = crate::mail::mailroom().await;
    let app = &room.app;
    let emails = [
        "ada@example.test",
        "bruno@example.test",
        "chiara@example.test",
    ];
    let mut tokens = Vec::new();
    for (email, name) in emails.iter().zip(["Ada", "Bruno", "Chiara"]) {
        tokens.push(app.user(email, name).await);
    }
    let g = app
        .post(
            "/api/v1/games",
            Some(&tokens[0]),
            json!({"kind": "lancaster", "invite": [emails[1], emails[2]]}),
        )
        .await;
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.json["id"].as_str().unwrap().to_owned();
    for t in &tokens[1..] {
        let r = app
            .post(&format!("/api/v1/games/{id}/join"), Some(t), json!({}))
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    // Seats by account: the API says which seat each token holds.
    let mut seat_of = Vec::new();
    for t in &tokens {
        let r = app.get(&format!("/api/v1/games/{id}"), Some(t)).await;
        seat_of.push(r.json["you"]["seat"].as_u64().unwrap() as usize);
    }
    let by_seat: Vec<usize> = (0..3)
        .map(|s| seat_of.iter().position(|&x| x == s).unwrap())
        .collect();

    let driver = Driver::start().await;
    let mut browsers = Vec::new();
    for width in [360, 1280, 1280] {
        browsers.push(driver.session(width).await);
    }
    let mut followed = [false; 3];
    let mut voted = [false; 3];
    let mut shot_vote = false;
    let mut mails = Vec::new();
    let mut dice = crate::helpers::Dice::new(5);
    let page_url = format!("{}/play/{id}", app.base);
    for step in 0.. {
        assert!(step < 200, "the round does not end");
        mails.extend(room.deliver());
        let mut games = Vec::new();
        for &account in &by_seat {
            let r = app
                .get(&format!("/api/v1/games/{id}"), Some(&tokens[account]))
                .await;
            games.push(r.json);
        }
        if games[0]["view"]["round"].as_u64() != Some(1) || games[0]["status"] != "active" {
            break;
        }
        let Some(seat) =
            (0..3).find(|&s| !games[s]["legal_actions"].as_array().unwrap().is_empty())
        else {
            panic!("nobody is pending: {}", games[0]["view"]);
        };
        let b = &browsers[seat];
        let email = emails[by_seat[seat]];
        // A player's first page comes from their mail's link; then the page they are on.
        if followed[seat] {
            b.go(&page_url).await;
        } else {
            let link = play_link_in(&mails, email, &id)
                .unwrap_or_else(|| panic!("no your-move mail with a link to {email}"));
            b.go(&link).await;
            assert_eq!(b.url().await, page_url, "the link lands on the clean page");
            followed[seat] = true;
        }
        assert!(b.text(".status").await.contains("Your move"));
        let legal = games[seat]["legal_actions"].as_array().unwrap();
        let votes: Vec<&Value> = legal.iter().filter(|a| a["type"] == "vote").collect();
        let action = if votes.is_empty() {
            legal[dice.below(legal.len())].clone()
        } else {
            if !shot_vote {
                let width = if seat == 0 { 360 } else { 1280 };
                let path = b
                    .screenshot(width, &format!("lancaster-vote-{width}.png"))
                    .await;
                println!("screenshot: {}", path.display());
                shot_vote = true;
            }
            voted[seat] = true;
            votes[dice.below(votes.len())].clone()
        };
        let kind = action["type"].as_str().unwrap();
        let notation = action["notation"].as_str().unwrap();
        b.choose(&format!("#{kind}-notation"), notation).await;
        b.submit(&format!("form[data-action={kind}] button[type=submit]"))
            .await;
        assert_eq!(b.url().await, page_url);
        let source = b.source().await;
        assert!(
            !source.contains(&format!("id=\"problem-{kind}\"")),
            "{notation} refused: {}",
            b.text(&format!("#problem-{kind}")).await
        );
    }
    assert_eq!(followed, [true; 3], "every player came from a mail");
    assert_eq!(voted, [true; 3], "every player voted in parliament");
    // The second round's page, at both widths, for a player and their neighbour.
    for (seat, width) in [(0, 360), (1, 1280), (2, 360), (2, 1280)] {
        let b = &browsers[seat];
        b.go(&page_url).await;
        let path = b
            .screenshot(width, &format!("lancaster-seat{seat}-{width}.png"))
            .await;
        println!("screenshot: {}", path.display());
    }
    for b in browsers {
        b.close().await;
    }
}

#[actix_web::test]
#[ignore = "needs Chromium (see README)"]
async fn the_merchants_page_reads_at_360_and_1280_pixels() {
    let app = spawn_app().await;
    let crew = crate::web_merchants::three_captains(&app).await;
    let emails = [
        "ada@example.test",
        "bruno@example.test",
        "chiara@example.test",
    ];
    let driver = Driver::start().await;
    let b = driver.session(360).await;
    // Ada's seat, signed in from an emailed link.
    let r = app
        .get(&format!("/api/v1/games/{}", crew.id), Some(&crew.tokens[0]))
        .await;
    let seat = r.json["you"]["seat"].as_u64().unwrap() as usize;
    let link = sign_in_link(&app, &crew.tokens[seat], emails[0], &crew.id).await;
    b.go(&link).await;
    b.submit("form[data-action=sign-in] button[type=submit]")
        .await;
    assert!(b.text(".status").await.contains("Your move"));
    b.click("#ship-1").await;
    b.submit("form[data-action=ship] button[type=submit]").await;
    assert!(
        b.text("section[aria-labelledby=own-h]")
            .await
            .contains("Your sealed ship")
    );
    for width in [360, 1280] {
        let path = b.screenshot(width, &format!("merchants-{width}.png")).await;
        println!("screenshot: {}", path.display());
    }
    b.close().await;
}
