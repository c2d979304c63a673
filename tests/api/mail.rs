//! Email over a real SMTP listener: invitations, turn mails, game over, sign-in links and
//! digests, in each player's language; links that work for their seat only; no hidden card in
//! any mail; threading and one-click unsubscribe headers; SMTP outages, killed workers and
//! competing workers lose nothing and send nothing twice.

use crate::helpers::{Dice, Table, TestApp, spawn_app, without_notation};
use crate::smtp::{Received, SmtpSink};
use awc::http::Method;
use diesel::{Connection, PgConnection, RunQueryDsl};
use herald::auth::links::LinkError;
use herald::domain::GameId;
use herald::jobs::{Ran, Worker};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::time::Duration;

pub struct Mailroom {
    pub app: TestApp,
    pub sink: SmtpSink,
    worker: Worker,
    settings: herald::config::Settings,
}

pub async fn mailroom() -> Mailroom {
    let app = spawn_app().await;
    let sink = SmtpSink::start();
    let mut settings = app.settings.clone();
    settings.email.smtp_url = Some(sink.url());
    settings.http.public_url = app.base.clone();
    let worker = Worker::new(&settings, herald::db::pool(&app.db_url, 4).unwrap()).unwrap();
    Mailroom {
        app,
        sink,
        worker,
        settings,
    }
}

impl Mailroom {
    /// Runs every due job; returns the messages that arrived meanwhile.
    pub fn deliver(&self) -> Vec<Received> {
        let before = self.sink.messages().len();
        self.worker.drain().unwrap();
        self.sink.messages()[before..].to_vec()
    }

    fn sql(&self, query: &str) {
        let mut conn = PgConnection::establish(&self.app.db_url).unwrap();
        diesel::sql_query(query).execute(&mut conn).unwrap();
    }
}

async fn account(app: &TestApp, email: &str, name: &str, locale: &str) -> String {
    let r = app
        .post(
            "/api/v1/accounts",
            None,
            json!({"email": email, "display_name": name, "password": "correct horse 42", "locale": locale}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    app.sign_in(email, "correct horse 42").await
}

async fn new_game(app: &TestApp, creator: &str, invite: &str) -> String {
    let g = app
        .post(
            "/api/v1/games",
            Some(creator),
            json!({"kind": "magnate", "invite": [invite]}),
        )
        .await;
    assert_eq!(g.status, 201, "{}", g.text);
    g.json["id"].as_str().unwrap().to_owned()
}

/// Ada (en) invites Bruno (`bruno_locale`), Bruno gets the invitation and joins.
async fn table(room: &Mailroom, bruno_locale: &str) -> Table {
    let ada = account(&room.app, "ada@example.test", "Ada", "en").await;
    let bruno = account(&room.app, "bruno@example.test", "Bruno", bruno_locale).await;
    let id = new_game(&room.app, &ada, "bruno@example.test").await;
    // Bruno joins from his invitation, as an invitee does: an invitation still queued when its
    // seat is taken is not sent.
    let invited = room.deliver();
    assert!(
        invited.len() == 1 && invited[0].is_to(EMAILS[1]),
        "{:?}",
        invited.iter().map(Received::subject).collect::<Vec<_>>()
    );
    let r = room
        .app
        .post(&format!("/api/v1/games/{id}/join"), Some(&bruno), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    Table {
        id,
        tokens: [ada, bruno],
    }
}

const EMAILS: [&str; 2] = ["ada@example.test", "bruno@example.test"];

/// The pending seat plays random legal actions until its turn passes (or the game ends);
/// returns the seat and each answer.
async fn play_turn(app: &TestApp, t: &Table, dice: &mut Dice) -> (usize, Vec<Value>) {
    let (seat, mut g) = app.mover(t).await;
    let mut answers = Vec::new();
    for _ in 0..60 {
        let actions: Vec<&Value> = g["legal_actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["type"] != "prefer")
            .collect();
        if actions.is_empty() {
            break;
        }
        let end = actions.iter().find(|a| a["type"] == "end");
        let action = match end {
            Some(end) if dice.below(10) < 7 => (*end).clone(),
            _ => actions[dice.below(actions.len())].clone(),
        };
        let r = app
            .submit(
                t,
                seat,
                g["version"].as_i64().unwrap(),
                json!([without_notation(&action)]),
            )
            .await;
        assert_eq!(r.status, 200, "{action}: {}", r.text);
        g = r.json.clone();
        answers.push(r.json);
        if action["type"] == "end" || g["status"] != "active" {
            break;
        }
    }
    (seat, answers)
}

/// `text` without its links and long tokens (runs of 20 or more base64 or token characters).
fn prose(text: &str) -> String {
    text.split_whitespace()
        .filter(|w| !w.starts_with("http://") && !w.starts_with("https://"))
        .map(|w| {
            let token = |c: char| c.is_ascii_alphanumeric() || "_-.=".contains(c);
            let mut out = String::new();
            let mut run = String::new();
            for c in w.chars() {
                if token(c) {
                    run.push(c);
                } else {
                    if run.len() < 20 {
                        out.push_str(&run);
                    }
                    run.clear();
                    out.push(c);
                }
            }
            if run.len() < 20 {
                out.push_str(&run);
            }
            out
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn play_token(link: &str) -> String {
    link.split("?t=").nth(1).unwrap().to_owned()
}

/// Whether `text` names `card` by its code (not as part of a longer word or number). Links and
/// other long tokens are left out first: they are random base64, where `…g1Mj…` is no card.
fn names_code(text: &str, card: &str) -> bool {
    let text = &prose(text);
    let edge = |c: Option<char>| c.is_none_or(|c| !(c.is_ascii_digit() || c.is_ascii_uppercase()));
    text.match_indices(card).any(|(i, _)| {
        edge(text[..i].chars().next_back()) && edge(text[i + card.len()..].chars().next())
    })
}

#[actix_web::test]
async fn invitations_are_mailed_in_the_invited_players_language_with_an_accept_link() {
    let room = mailroom().await;
    let ada = account(&room.app, "ada@example.test", "Ada", "en").await;
    account(&room.app, "bruno@example.test", "Bruno", "es").await;
    account(&room.app, "chloe@example.test", "Chloé", "fr").await;
    account(&room.app, "dario@example.test", "Dario", "it").await;
    let mut games = Vec::new();
    for who in ["bruno", "chloe", "dario", "eve"] {
        games.push(new_game(&room.app, &ada, &format!("{who}@example.test")).await);
    }
    let mails = room.deliver();
    assert_eq!(mails.len(), 4, "one invitation each");
    let expect = [
        ("bruno", "Ada te invita a jugar a Magnate", "Hola, Bruno:"),
        (
            "chloe",
            "Ada vous invite à jouer à Magnate",
            "Bonjour Chloé,",
        ),
        ("dario", "Ada ti invita a giocare a Magnate", "Ciao Dario,"),
        (
            "eve",
            "Ada invites you to play Magnate",
            "Hello eve@example.test,",
        ),
    ];
    for ((who, subject, hello), game) in expect.iter().zip(&games) {
        let address = format!("{who}@example.test");
        let mail = room.sink.to(&address);
        assert_eq!(mail.len(), 1, "{who}");
        let mail = &mail[0];
        assert_eq!(mail.subject(), *subject);
        assert!(mail.text().starts_with(hello), "{}", mail.text());
        assert!(mail.text().contains("standard"), "the variant is named");
        let link = mail.links().into_iter().next().unwrap();
        if *who == "eve" {
            // No account yet: an invitation link for this address and game.
            assert!(
                link.starts_with(&format!("{}/invitations/{game}?t=", room.app.base)),
                "{link}"
            );
            let seat = room.app.links.verify_invite(
                &play_token(&link),
                GameId(game.parse().unwrap()),
                &address,
            );
            assert_eq!(seat, Ok(1));
            assert_eq!(mail.header("List-Unsubscribe"), None);
        } else {
            assert!(
                link.starts_with(&format!("{}/play/{game}?t=", room.app.base)),
                "{link}"
            );
            assert!(mail.header("List-Unsubscribe").is_some());
        }
        assert_eq!(
            mail.header("References"),
            Some(format!("<game-{game}@127.0.0.1>"))
        );
    }
}

#[actix_web::test]
async fn the_first_player_gets_a_your_move_mail_with_a_link_for_their_seat_only() {
    let room = mailroom().await;
    let t = table(&room, "es").await;
    let mails = room.deliver();
    let (mover, g) = room.app.mover(&t).await;
    let other = 1 - mover;
    // After the invitation (`table`), exactly one turn mail: to the first player.
    assert_eq!(
        mails.len(),
        1,
        "{:?}",
        mails.iter().map(Received::subject).collect::<Vec<_>>()
    );
    let mail = &mails[0];
    assert!(mail.is_to(EMAILS[mover]) && !mail.is_to(EMAILS[other]));
    if mover == 1 {
        assert_eq!(mail.subject(), "Te toca en Magnate con Ada");
        assert!(mail.text().contains("Juega ahora"));
    } else {
        assert_eq!(mail.subject(), "Your move in Magnate with Bruno");
        assert!(mail.text().contains("Play now"));
    }
    // The link names this game and this seat, and no other.
    let link = mail
        .links()
        .into_iter()
        .find(|l| l.contains("/play/"))
        .unwrap();
    let token = play_token(&link);
    let game = GameId(t.id.parse().unwrap());
    let grant = room.app.links.verify_play_link(&token, game).unwrap();
    assert_eq!(grant.seat, i16::try_from(mover).unwrap());
    assert_ne!(grant.seat, i16::try_from(other).unwrap());
    assert_eq!(
        room.app.links.verify_play_link(&token, GameId::new()),
        Err(LinkError::OtherGame)
    );
    // Over HTTP, once the page exists: the link signs in, the same token on another game does not.
    let path = link.trim_start_matches(&room.app.base).to_owned();
    let r = room
        .app
        .send(Method::GET, &path, None, &[("Accept", "text/html")], None)
        .await;
    if r.status != 404 {
        assert!(
            [200, 302, 303].contains(&r.status),
            "{} {}",
            r.status,
            r.text
        );
        assert!(!r.header("set-cookie").is_empty());
        let other_game = new_game(&room.app, &t.tokens[0], "eve@example.test").await;
        let r = room
            .app
            .send(
                Method::GET,
                &path.replace(&t.id, &other_game),
                None,
                &[("Accept", "text/html")],
                None,
            )
            .await;
        assert!(
            r.header("set-cookie").is_empty() && r.status >= 400,
            "{}",
            r.status
        );
    }
    // The mail shows the player's own hand, never the opponent's.
    let own: Vec<String> = g["view"]["players"][mover]["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    let theirs = room.app.game(&t, other).await["view"]["players"][other]["hand"].clone();
    for card in theirs.as_array().unwrap() {
        assert!(
            !names_code(&mail.text(), card.as_str().unwrap()),
            "{card} leaked"
        );
    }
    assert!(
        own.iter().all(|c| names_code(&mail.text(), c)),
        "own hand listed"
    );
}

#[actix_web::test]
async fn mails_thread_per_game_and_carry_a_one_click_unsubscribe_that_works() {
    let room = mailroom().await;
    let t = table(&room, "en").await;
    room.deliver();
    let mut dice = Dice::new(3);
    let (_, _) = play_turn(&room.app, &t, &mut dice).await;
    room.deliver();
    let all = room.sink.messages();
    let ids: BTreeSet<String> = all
        .iter()
        .map(|m| m.header("Message-ID").unwrap())
        .collect();
    assert_eq!(ids.len(), all.len(), "every message has its own Message-ID");
    let root = format!("<game-{}@127.0.0.1>", t.id);
    for m in &all {
        assert_eq!(m.header("In-Reply-To").as_deref(), Some(root.as_str()));
        assert_eq!(m.header("References").as_deref(), Some(root.as_str()));
        assert_eq!(
            m.header("List-Unsubscribe-Post").as_deref(),
            Some("List-Unsubscribe=One-Click")
        );
        assert!(
            m.text().contains("/rules/magnate?lang=en"),
            "every game mail links the rules: {}",
            m.text()
        );
    }
    // Bruno unsubscribes in one click from his latest mail.
    let last = room.sink.to(EMAILS[1]).pop().unwrap();
    let header = last.header("List-Unsubscribe").unwrap();
    let url = header.trim_start_matches('<').trim_end_matches('>');
    let path = url.trim_start_matches(&room.app.base).to_owned();
    assert!(path.starts_with("/unsubscribe/"), "{url}");
    let form = room
        .app
        .send(Method::GET, &path, None, &[("Accept", "text/html")], None)
        .await;
    assert_eq!(form.status, 200);
    assert!(form.text.contains("method=\"post\""), "{}", form.text);
    assert!(form.text.contains("lang=\"en\""), "{}", form.text);
    let me = room
        .app
        .get("/api/v1/me/notifications", Some(&t.tokens[1]))
        .await;
    assert_eq!(
        me.json,
        json!({"mode": "instant", "reminders_seconds": [86400, 7200]}),
        "a GET changes nothing"
    );
    let r = room
        .app
        .send(
            Method::POST,
            &path,
            None,
            &[("Content-Type", "application/x-www-form-urlencoded")],
            Some(b"List-Unsubscribe=One-Click".to_vec()),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let me = room
        .app
        .get("/api/v1/me/notifications", Some(&t.tokens[1]))
        .await;
    assert_eq!(
        me.json,
        json!({"mode": "off", "reminders_seconds": [86400, 7200]})
    );
    let bogus = room
        .app
        .send(Method::POST, "/unsubscribe/nope", None, &[], None)
        .await;
    assert_eq!(bogus.status, 404);
    // No more turn mails for Bruno; Ada still gets hers.
    let before = room.sink.to(EMAILS[1]).len();
    let before_ada = room.sink.to(EMAILS[0]).len();
    for _ in 0..4 {
        play_turn(&room.app, &t, &mut dice).await;
        room.deliver();
    }
    assert_eq!(room.sink.to(EMAILS[1]).len(), before);
    assert!(room.sink.to(EMAILS[0]).len() > before_ada);
}

#[actix_web::test]
async fn preferences_are_read_and_set_through_the_api() {
    let room = mailroom().await;
    let ada = account(&room.app, "ada@example.test", "Ada", "en").await;
    let r = room.app.get("/api/v1/me/notifications", Some(&ada)).await;
    assert_eq!(
        (r.status, r.json.clone()),
        (
            200,
            json!({"mode": "instant", "reminders_seconds": [86400, 7200]})
        )
    );
    for mode in ["daily_digest", "off", "instant"] {
        let r = room
            .app
            .call(
                Method::PUT,
                "/api/v1/me/notifications",
                Some(&ada),
                Some(json!({"mode": mode})),
            )
            .await;
        assert_eq!(
            (r.status, r.json.clone()),
            (
                200,
                json!({"mode": mode, "reminders_seconds": [86400, 7200]})
            ),
            "{}",
            r.text
        );
        let r = room.app.get("/api/v1/me/notifications", Some(&ada)).await;
        assert_eq!(
            r.json,
            json!({"mode": mode, "reminders_seconds": [86400, 7200]})
        );
    }
    let r = room
        .app
        .call(
            Method::PUT,
            "/api/v1/me/notifications",
            Some(&ada),
            Some(json!({"mode": "hourly"})),
        )
        .await;
    r.assert_problem(422, "validation_failed");
    let r = room.app.get("/api/v1/me/notifications", None).await;
    r.assert_problem(401, "unauthenticated");
}

#[actix_web::test]
async fn a_daily_digest_lists_the_waiting_games_longest_waiting_first_instead_of_turn_mails() {
    let room = mailroom().await;
    let ada = account(&room.app, "ada@example.test", "Ada", "en").await;
    let bruno = account(&room.app, "bruno@example.test", "Bruno", "it").await;
    let r = room
        .app
        .call(
            Method::PUT,
            "/api/v1/me/notifications",
            Some(&bruno),
            Some(json!({"mode": "daily_digest"})),
        )
        .await;
    assert_eq!(r.status, 200);
    let mut dice = Dice::new(9);
    let mut games = Vec::new();
    for _ in 0..2 {
        let id = new_game(&room.app, &ada, EMAILS[1]).await;
        let r = room
            .app
            .post(&format!("/api/v1/games/{id}/join"), Some(&bruno), json!({}))
            .await;
        assert_eq!(r.status, 200);
        let t = Table {
            id,
            tokens: [ada.clone(), bruno.clone()],
        };
        if room.app.mover(&t).await.0 == 0 {
            play_turn(&room.app, &t, &mut dice).await;
        }
        assert_eq!(room.app.mover(&t).await.0, 1);
        games.push(t.id);
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
    let mails = room.deliver();
    assert!(
        mails
            .iter()
            .all(|m| !m.is_to(EMAILS[1]) || m.subject().contains("invit")),
        "no turn mail in digest mode: {:?}",
        mails.iter().map(Received::subject).collect::<Vec<_>>()
    );
    assert_eq!(
        room.worker.schedule_digests().unwrap(),
        0,
        "not due before a day"
    );
    room.sql("UPDATE notification_settings SET next_digest_at = now() - interval '1 minute'");
    assert_eq!(room.worker.schedule_digests().unwrap(), 1);
    assert_eq!(room.worker.schedule_digests().unwrap(), 0, "once a day");
    let mails = room.deliver();
    assert_eq!(mails.len(), 1);
    let digest = &mails[0];
    assert!(digest.is_to(EMAILS[1]));
    assert_eq!(digest.subject(), "Partite che ti aspettano: 2");
    let text = digest.text();
    let first = text.find(&format!("/play/{}", games[0])).unwrap();
    let second = text.find(&format!("/play/{}", games[1])).unwrap();
    assert!(first < second, "the game waiting longest comes first");
    assert!(digest.header("List-Unsubscribe").is_some());
}

#[actix_web::test]
async fn a_sign_in_link_is_mailed_only_to_an_existing_account_and_names_its_link_row() {
    let room = mailroom().await;
    account(&room.app, "ada@example.test", "Ada", "fr").await;
    for email in ["ada@example.test", "nobody@example.test"] {
        let r = room
            .app
            .post("/api/v1/auth/email-link", None, json!({"email": email}))
            .await;
        assert_eq!(r.status, 202);
    }
    let mails = room.deliver();
    assert_eq!(mails.len(), 1);
    assert!(mails[0].is_to("ada@example.test"));
    assert_eq!(mails[0].subject(), "Votre lien de connexion");
    let link = mails[0].links().into_iter().next().unwrap();
    let prefix = format!("{}/sign-in/", room.app.base);
    assert!(link.starts_with(&prefix), "{link}");
    let (_, row) = room
        .app
        .links
        .verify_sign_in(&link[prefix.len()..])
        .unwrap();
    let mut conn = PgConnection::establish(&room.app.db_url).unwrap();
    #[derive(diesel::QueryableByName)]
    struct Hash {
        #[diesel(sql_type = diesel::sql_types::Bytea)]
        token_hash: Vec<u8>,
    }
    let stored: Hash = diesel::sql_query("SELECT token_hash FROM email_links WHERE id = $1 AND used_at IS NULL AND expires_at > now()")
        .bind::<diesel::sql_types::Uuid, _>(row)
        .get_result(&mut conn)
        .unwrap();
    assert_eq!(
        stored.token_hash,
        herald::auth::token_hash(&link[prefix.len()..])
    );
}

/// A request for an address without an account costs what one with an account costs: a job,
/// run by the worker to the end; but nothing reaches the address, then or after it registers.
#[actix_web::test]
async fn a_link_request_without_an_account_runs_its_job_and_mails_nothing() {
    let room = mailroom().await;
    account(&room.app, "ada@example.test", "Ada", "en").await;
    for email in ["nobody@example.test", "ada@example.test"] {
        let r = room
            .app
            .post("/api/v1/auth/email-link", None, json!({"email": email}))
            .await;
        assert_eq!(r.status, 202);
    }
    let url = &room.app.db_url;
    assert_eq!(
        count(
            url,
            "SELECT count(*) AS n FROM jobs WHERE kind = 'email.sign_in' AND status = 'queued'"
        ),
        2,
        "one job each, of one kind"
    );
    assert_eq!(
        count(
            url,
            "SELECT count(DISTINCT (SELECT array_agg(k ORDER BY k) FROM jsonb_object_keys(payload) k)) \
             AS n FROM jobs"
        ),
        1,
        "payloads of one shape"
    );
    // Registered before the job runs: the request was made without an account, so still no mail.
    account(&room.app, "nobody@example.test", "Nobody", "en").await;
    let mails = room.deliver();
    assert_eq!(mails.len(), 1);
    assert!(mails[0].is_to("ada@example.test"));
    assert_eq!(mails[0].subject(), "Your sign-in link");
    assert!(room.sink.to("nobody@example.test").is_empty());
    assert_eq!(
        count(url, "SELECT count(*) AS n FROM jobs WHERE status <> 'done'"),
        0,
        "both jobs ran to the end"
    );
    // The link without an account is spent by nothing, even by the token its job signed.
    assert_eq!(
        count(
            url,
            "SELECT count(*) AS n FROM email_links WHERE email = 'nobody@example.test' \
             AND user_id IS NULL AND used_at IS NULL"
        ),
        1
    );
    let link = mails[0].links().into_iter().next().unwrap();
    let path = link.trim_start_matches(&room.app.base).to_owned();
    let signed_in = crate::web::press_sign_in(&room.app, &path).await;
    assert_eq!(signed_in.status, 303, "{}", signed_in.text);
    assert!(signed_in.header("set-cookie").contains("HttpOnly"));
}

#[derive(diesel::QueryableByName)]
struct Count {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    n: i64,
}

fn count(url: &str, query: &str) -> i64 {
    let mut conn = PgConnection::establish(url).unwrap();
    diesel::sql_query(query)
        .get_result::<Count>(&mut conn)
        .unwrap()
        .n
}

#[actix_web::test]
async fn with_smtp_down_moves_are_accepted_and_every_mail_arrives_once_when_it_returns() {
    let room = mailroom().await;
    let t = table(&room, "en").await;
    room.deliver();
    let before = room.sink.messages().len();
    room.sink.set_down(true);
    let mut dice = Dice::new(11);
    // A move (the other player's turn mail) and a sign-in link while the relay is down.
    let (seat, _) = play_turn(&room.app, &t, &mut dice).await;
    let r = room
        .app
        .post(
            "/api/v1/auth/email-link",
            None,
            json!({"email": EMAILS[seat]}),
        )
        .await;
    assert_eq!(r.status, 202);
    let mut failures = 0;
    loop {
        match room.worker.run_once().unwrap() {
            Ran::Idle => break,
            Ran::Retrying { error, .. } => {
                assert!(error.contains("SMTP"), "{error}");
                failures += 1;
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(failures, 2);
    assert_eq!(room.sink.messages().len(), before);
    let waiting = "SELECT count(*) AS n FROM jobs WHERE status = 'queued' AND attempts = 1 \
                   AND last_error LIKE 'SMTP%' AND run_at > now() + interval '2 seconds' \
                   AND run_at <= now() + interval '10 seconds'";
    assert_eq!(
        count(&room.app.db_url, waiting),
        2,
        "each retried within 10 s"
    );
    // Still down at the next try: the wait doubles.
    room.sql("UPDATE jobs SET run_at = now() WHERE status = 'queued'");
    room.worker.drain().unwrap();
    let doubled = "SELECT count(*) AS n FROM jobs WHERE status = 'queued' AND attempts = 2 \
                   AND run_at > now() + interval '7 seconds'";
    assert_eq!(count(&room.app.db_url, doubled), 2);
    room.sink.set_down(false);
    room.sql("UPDATE jobs SET run_at = now() WHERE status = 'queued'");
    let mails = room.deliver();
    assert_eq!(mails.len(), 2, "each mail once");
    assert_eq!(
        room.sink.to(EMAILS[1 - seat]).len(),
        room.sink
            .to(EMAILS[1 - seat])
            .iter()
            .filter(|m| m.subject().contains("Your move") || m.subject().contains("invites"))
            .count()
    );
    assert!(
        mails
            .iter()
            .any(|m| m.is_to(EMAILS[1 - seat]) && m.subject().contains("Your move"))
    );
    assert!(
        mails
            .iter()
            .any(|m| m.is_to(EMAILS[seat]) && m.subject() == "Your sign-in link")
    );
    assert!(room.deliver().is_empty());
    room.sql("UPDATE jobs SET run_at = now()");
    assert!(room.deliver().is_empty(), "nothing sent twice");
    assert_eq!(
        count(
            &room.app.db_url,
            "SELECT count(*) AS n FROM jobs WHERE status <> 'done'"
        ),
        0
    );
}

/// A started game whose first turn mail went out, with the mail server then down: the mails of
/// the moves that follow wait in the queue.
async fn queued_while_down() -> (Mailroom, Table, Dice) {
    let room = mailroom().await;
    let t = table(&room, "en").await;
    room.deliver();
    room.sink.set_down(true);
    (room, t, Dice::new(5))
}

#[actix_web::test]
async fn a_turn_mail_still_queued_when_its_player_has_moved_is_not_sent() {
    let (room, t, mut dice) = queued_while_down().await;
    let (first, _) = play_turn(&room.app, &t, &mut dice).await;
    let (second, _) = play_turn(&room.app, &t, &mut dice).await;
    assert_eq!(second, 1 - first);
    room.sink.set_down(false);
    let mails = room.deliver();
    // The mail telling `second` to move is stale (they moved); the one to `first` is not.
    let to: Vec<&str> = mails.iter().map(|m| m.to[0].as_str()).collect();
    assert_eq!(to, vec![EMAILS[first]]);
    assert_eq!(
        count(
            &room.app.db_url,
            "SELECT count(*) AS n FROM jobs WHERE status <> 'done'"
        ),
        0
    );
}

#[actix_web::test]
async fn a_turn_mail_still_queued_when_its_player_has_begun_the_turn_is_sent() {
    let (room, t, mut dice) = queued_while_down().await;
    let (first, _) = play_turn(&room.app, &t, &mut dice).await;
    let second = 1 - first;
    // `second` takes one action that keeps the turn (from an app, before the mail goes out).
    let g = room.app.game(&t, second).await;
    let keep = g["legal_actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["type"] != "end" && a["type"] != "prefer")
        .expect("an action besides ending the turn")
        .clone();
    let r = room
        .app
        .submit(
            &t,
            second,
            g["version"].as_i64().unwrap(),
            json!([without_notation(&keep)]),
        )
        .await;
    assert_eq!(r.status, 200, "{keep}: {}", r.text);
    assert!(
        !r.json["legal_actions"].as_array().unwrap().is_empty(),
        "{keep} kept the turn"
    );
    room.sink.set_down(false);
    let mails = room.deliver();
    // Still `second`'s turn: the mail saying so is true, and the only one about it.
    let to: Vec<(&str, String)> = mails
        .iter()
        .map(|m| (m.to[0].as_str(), m.subject()))
        .collect();
    assert_eq!(to.len(), 1, "{to:?}");
    assert_eq!(to[0].0, EMAILS[second], "{to:?}");
    assert!(to[0].1.starts_with("Your move"), "{to:?}");
    // It shows the game as it is now: the card that action played has left the hand.
    let card = keep["card"].as_str().expect("the action plays a card");
    let text = mails[0].text();
    let hand = text.lines().find(|l| l.starts_with("Your hand:"));
    assert!(hand.is_some_and(|h| !h.contains(card)), "{card}: {text}");
}

#[actix_web::test]
async fn a_turn_mail_still_queued_when_its_player_has_a_later_turn_is_not_sent() {
    let (room, t, mut dice) = queued_while_down().await;
    // Three turns while the mail is down: `second` is pending again, with a mail for each of its
    // two turns queued.
    let (first, _) = play_turn(&room.app, &t, &mut dice).await;
    let (second, _) = play_turn(&room.app, &t, &mut dice).await;
    let (third, _) = play_turn(&room.app, &t, &mut dice).await;
    assert_eq!((second, third), (1 - first, first));
    room.sink.set_down(false);
    let mails = room.deliver();
    // One "your move" to `second`, for the turn it has now; none for the turn that passed.
    let to: Vec<&str> = mails.iter().map(|m| m.to[0].as_str()).collect();
    assert_eq!(to, vec![EMAILS[second]]);
}

#[actix_web::test]
async fn a_turn_mail_goes_out_while_the_chores_wait_for_the_database() {
    let room = mailroom().await;
    let t = table(&room, "en").await;
    room.deliver();
    // Another session holds a table the chores prune in their first round (the mails of moves
    // by email): the chores wait for it as long as it is held.
    let mut holder = PgConnection::establish(&room.app.db_url).unwrap();
    diesel::sql_query("BEGIN").execute(&mut holder).unwrap();
    diesel::sql_query("LOCK TABLE inbound_mails IN ACCESS EXCLUSIVE MODE")
        .execute(&mut holder)
        .unwrap();
    let running = room.worker.clone().spawn();
    let waiting = "SELECT count(*) AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation \
                   WHERE c.relname = 'inbound_mails' AND NOT l.granted \
                   AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())";
    let mut waited = Duration::ZERO;
    while count(&room.app.db_url, waiting) == 0 {
        assert!(
            waited < Duration::from_secs(20),
            "the chores never reached the table"
        );
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
        waited += Duration::from_millis(20);
    }
    // A move now: its turn mail does not wait for the chores.
    let before = room.sink.messages().len();
    let mut dice = Dice::new(5);
    let (first, _) = play_turn(&room.app, &t, &mut dice).await;
    let got = room
        .sink
        .wait_for_count(before + 1, Duration::from_secs(10))
        .await;
    let stuck = count(&room.app.db_url, waiting);
    diesel::sql_query("ROLLBACK").execute(&mut holder).unwrap();
    running.stop();
    assert_eq!(stuck, 1, "the chores were still waiting when the mail came");
    let mails = &got[before..];
    assert_eq!(mails.len(), 1, "the turn mail, while the chores wait");
    assert!(mails[0].is_to(EMAILS[1 - first]), "{}", mails[0].subject());
    assert!(
        mails[0].subject().starts_with("Your move"),
        "{}",
        mails[0].subject()
    );
}

#[actix_web::test]
async fn an_invitation_still_queued_when_its_seat_is_taken_is_not_sent() {
    let room = mailroom().await;
    let ada = account(&room.app, "ada@example.test", "Ada", "en").await;
    let bruno = account(&room.app, "bruno@example.test", "Bruno", "en").await;
    // Bruno joins from the game list before his invitation goes out.
    let id = new_game(&room.app, &ada, "bruno@example.test").await;
    let r = room
        .app
        .post(&format!("/api/v1/games/{id}/join"), Some(&bruno), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let mails = room.deliver();
    // Only the first player's turn mail: no "Ada invites you" after he has sat down.
    let subjects: Vec<String> = mails.iter().map(Received::subject).collect();
    assert_eq!(subjects.len(), 1, "{subjects:?}");
    assert!(subjects[0].starts_with("Your move"), "{subjects:?}");
    assert_eq!(
        count(
            &room.app.db_url,
            "SELECT count(*) AS n FROM jobs WHERE status <> 'done'"
        ),
        0,
        "the skipped invitation is done, not retried"
    );
}

/// Queues `n` sign-in mails (one job each) for one account.
fn queue_sign_ins(room: &Mailroom, n: usize) {
    let mut conn = PgConnection::establish(&room.app.db_url).unwrap();
    for _ in 0..n {
        herald::services::notifications::request_sign_in_link(&mut conn, EMAILS[0]).unwrap();
    }
}

fn job_message_ids(url: &str) -> BTreeSet<String> {
    #[derive(diesel::QueryableByName)]
    struct Id {
        #[diesel(sql_type = diesel::sql_types::Text)]
        id: String,
    }
    let mut conn = PgConnection::establish(url).unwrap();
    diesel::sql_query("SELECT payload->>'message_id' AS id FROM jobs")
        .load::<Id>(&mut conn)
        .unwrap()
        .into_iter()
        .map(|i| format!("<{}@127.0.0.1>", i.id))
        .collect()
}

#[actix_web::test]
async fn a_worker_killed_mid_batch_loses_nothing() {
    let room = mailroom().await;
    account(&room.app, EMAILS[0], "Ada", "en").await;
    queue_sign_ins(&room, 8);
    room.sink.set_delay(Duration::from_millis(300));
    let data = room.settings.data_dir.join("killed-worker");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
        .arg("worker")
        .env("DATABASE_URL", &room.app.db_url)
        .env("SMTP_URL", room.sink.url())
        .env("DATA_DIR", &data)
        .env("PUBLIC_URL", &room.app.base)
        .env("JWT_SECRET", "a secret for the killed worker, long enough")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let got = room.sink.wait_for_count(3, Duration::from_secs(60)).await;
    assert!(got.len() >= 3, "the worker process sends");
    child.kill().unwrap();
    child.wait().unwrap();
    let pending = count(
        &room.app.db_url,
        "SELECT count(*) AS n FROM jobs WHERE status = 'queued'",
    );
    assert!(pending > 0, "killed before the end of the batch");
    room.sink.set_delay(Duration::ZERO);
    room.deliver();
    assert_eq!(
        count(
            &room.app.db_url,
            "SELECT count(*) AS n FROM jobs WHERE status <> 'done'"
        ),
        0
    );
    let received: Vec<String> = room
        .sink
        .messages()
        .iter()
        .map(|m| m.header("Message-ID").unwrap())
        .collect();
    let unique: BTreeSet<String> = received.iter().cloned().collect();
    assert_eq!(
        unique,
        job_message_ids(&room.app.db_url),
        "every job's mail arrived"
    );
    assert!(
        received.len() <= unique.len() + 1,
        "at most the mail in flight is repeated, with its Message-ID"
    );
}

#[actix_web::test]
async fn two_workers_on_one_database_never_send_the_same_job_twice() {
    let room = mailroom().await;
    account(&room.app, EMAILS[0], "Ada", "en").await;
    queue_sign_ins(&room, 30);
    room.sink.set_delay(Duration::from_millis(10));
    let a = room.worker.clone().spawn();
    let b = Worker::new(
        &room.settings,
        herald::db::pool(&room.app.db_url, 2).unwrap(),
    )
    .unwrap()
    .spawn();
    let got = room.sink.wait_for_count(30, Duration::from_secs(60)).await;
    actix_web::rt::time::sleep(Duration::from_millis(500)).await;
    a.stop();
    b.stop();
    assert_eq!(got.len(), 30);
    assert_eq!(room.sink.messages().len(), 30, "no job sent twice");
    let ids: BTreeSet<String> = room
        .sink
        .messages()
        .iter()
        .map(|m| m.header("Message-ID").unwrap())
        .collect();
    assert_eq!(ids, job_message_ids(&room.app.db_url));
    assert_eq!(
        count(
            &room.app.db_url,
            "SELECT count(*) AS n FROM jobs WHERE status = 'done' AND attempts = 1"
        ),
        30
    );
    // Done jobs are kept a week, then pruned.
    assert_eq!(room.worker.prune().unwrap(), 0);
    room.sql("UPDATE jobs SET updated_at = now() - interval '8 days' WHERE id % 2 = 0");
    assert_eq!(room.worker.prune().unwrap(), 15);
}

#[actix_web::test]
async fn a_full_magnate_game_mails_exactly_the_expected_sequence_to_both_players() {
    let room = mailroom().await;
    let t = table(&room, "en").await;
    // The invitation, then "your move" to the first player.
    let mut expected: Vec<(usize, &str)> = vec![(1, "invites you")];
    let first = room.app.mover(&t).await.0;
    expected.push((first, "Your move"));
    room.deliver();
    let mut received = room.sink.messages();
    let mut dice = Dice::new(2024);
    let mut pending = [first == 0, first == 1];
    let mut finished = false;
    for _ in 0..400 {
        let (seat, mut g) = room.app.mover(&t).await;
        // One action at a time, so each stored change is checked on its own.
        let actions: Vec<&Value> = g["legal_actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["type"] != "prefer")
            .collect();
        let end = actions.iter().find(|a| a["type"] == "end");
        let action = match end {
            Some(end) if dice.below(10) < 6 => *end,
            _ => actions[dice.below(actions.len())],
        };
        let r = room
            .app
            .submit(
                &t,
                seat,
                g["version"].as_i64().unwrap(),
                json!([without_notation(action)]),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
        g = r.json;
        let now: Vec<bool> = (0..2).map(|s| g["seats"][s]["pending"] == true).collect();
        if g["status"] == "finished" {
            expected.push((1 - seat, "Game over"));
            finished = true;
        } else {
            for s in 0..2 {
                if now[s] && !pending[s] && s != seat {
                    expected.push((s, "Your move"));
                }
            }
        }
        pending = [now[0], now[1]];
        let mails = room.deliver();
        for m in &mails {
            let to = EMAILS.iter().position(|e| m.is_to(e)).unwrap();
            let opponent = room.app.game(&t, 1 - to).await;
            // After the reshuffle the opponent may hold a card the recipient saw sold (public,
            // MAG-INFO-1): a mail may name it. Only cards the recipient never saw must not appear.
            let history = room
                .app
                .get(
                    &format!("/api/v1/games/{}/history", t.id),
                    Some(&t.tokens[to]),
                )
                .await;
            let mut known = BTreeSet::new();
            crate::helpers::strings(&history.json, &mut known);
            if let Some(hand) = opponent["view"]["players"][1 - to]["hand"].as_array()
                && g["status"] != "finished"
            {
                for card in hand.iter().filter(|c| !known.contains(c.as_str().unwrap())) {
                    let text = m.text();
                    assert!(
                        !names_code(&text, card.as_str().unwrap()),
                        "{card} in a mail to seat {to}:\n{text}"
                    );
                }
            }
        }
        received.extend(mails);
        if finished {
            break;
        }
    }
    assert!(finished, "the game ends");
    let got: Vec<(usize, String)> = received
        .iter()
        .map(|m| (EMAILS.iter().position(|e| m.is_to(e)).unwrap(), m.subject()))
        .collect();
    assert_eq!(got.len(), expected.len(), "{got:?}");
    for ((seat, subject), (want_seat, want)) in got.iter().zip(&expected) {
        assert_eq!(seat, want_seat, "{got:?}");
        assert!(subject.contains(want), "{subject} is not {want}");
    }
    // The last mail reveals the seed, which matches the published commitment.
    let over = received.last().unwrap().text();
    let fairness = room
        .app
        .get(&format!("/api/v1/games/{}/fairness", t.id), None)
        .await;
    assert!(over.contains(fairness.json["seed"].as_str().unwrap()));
    assert!(over.contains(&format!("herald verify {}", t.id)));
    // No earlier mail carries the seed.
    for m in &received[..received.len() - 1] {
        assert!(!m.data.contains(fairness.json["seed"].as_str().unwrap()));
    }
}

#[actix_web::test]
async fn without_an_smtp_server_mails_are_written_as_eml_files_under_the_data_folder() {
    let app = spawn_app().await;
    let mut settings = app.settings.clone();
    settings.http.public_url = app.base.clone();
    assert!(settings.email.smtp_url.is_none());
    let worker = Worker::new(&settings, herald::db::pool(&app.db_url, 2).unwrap()).unwrap();
    let ada = account(&app, EMAILS[0], "Ada", "en").await;
    account(&app, EMAILS[1], "Bruno", "en").await;
    let game = new_game(&app, &ada, EMAILS[1]).await;
    assert_eq!(worker.drain().unwrap(), 1);
    let dir = settings.data_dir.join("mail");
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(files[0].extension().unwrap(), "eml");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(text.contains("To: Bruno <bruno@example.test>"), "{text}");
    assert!(text.contains(&format!("{}/play/{game}?t=", app.base)));
}

#[actix_web::test]
async fn a_mail_that_cannot_be_sent_for_48_hours_is_marked_failed_with_its_last_error() {
    let room = mailroom().await;
    account(&room.app, EMAILS[0], "Ada", "en").await;
    queue_sign_ins(&room, 2);
    room.sink.set_down(true);
    room.sql("UPDATE jobs SET created_at = now() - interval '47 hours' WHERE id = 1");
    room.sql("UPDATE jobs SET created_at = now() - interval '48 hours 1 minute' WHERE id = 2");
    let mut ran = vec![
        room.worker.run_once().unwrap(),
        room.worker.run_once().unwrap(),
    ];
    ran.sort_by_key(|r| format!("{r:?}"));
    assert!(
        matches!(&ran[0], Ran::Failed { id: 2, error } if error.starts_with("SMTP")),
        "{ran:?}"
    );
    assert!(matches!(&ran[1], Ran::Retrying { id: 1, .. }), "{ran:?}");
    let failed = "SELECT count(*) AS n FROM jobs WHERE id = 2 AND status = 'failed' \
                  AND last_error LIKE 'SMTP%'";
    assert_eq!(count(&room.app.db_url, failed), 1);
    // A failed job is not tried again, even when the relay is back.
    room.sink.set_down(false);
    room.sql("UPDATE jobs SET run_at = now()");
    let mails = room.deliver();
    assert_eq!(mails.len(), 1);
    assert_eq!(count(&room.app.db_url, failed), 1);
}

#[actix_web::test]
async fn herald_serve_runs_a_worker_that_mails_at_once() {
    let room = mailroom().await;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let base = format!("http://127.0.0.1:{port}");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
        .arg("serve")
        .env("DATABASE_URL", &room.app.db_url)
        .env("BIND_ADDR", format!("127.0.0.1:{port}"))
        .env("DATA_DIR", room.settings.data_dir.join("served"))
        .env("PUBLIC_URL", &base)
        .env("SMTP_URL", room.sink.url())
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let client = awc::Client::builder()
        .timeout(Duration::from_secs(5))
        .finish();
    let mut ready = false;
    for _ in 0..300 {
        if let Ok(res) = client.get(format!("{base}/readyz")).send().await
            && res.status().as_u16() == 200
        {
            ready = true;
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(ready, "herald serve did not become ready");
    account(&room.app, EMAILS[0], "Ada", "en").await;
    let res = client
        .post(format!("{base}/api/v1/auth/email-link"))
        .send_json(&json!({"email": EMAILS[0]}))
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 202);
    let got = room.sink.wait_for_count(1, Duration::from_secs(30)).await;
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(got.len(), 1, "the worker inside herald serve sent the mail");
    assert!(got[0].links()[0].starts_with(&format!("{base}/sign-in/")));
}

/// Creates a Magnate game between Ada (seat 0, to move) and Bruno with `clock`.
async fn clocked(room: &Mailroom, t: &[String; 2], clock: Value) -> String {
    let g = room
        .app
        .post(
            "/api/v1/games",
            Some(&t[0]),
            json!({"kind": "magnate", "options": {"start_player": "first_seat"},
                   "invite": ["bruno@example.test"], "clock": clock}),
        )
        .await;
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.json["id"].as_str().unwrap().to_owned();
    let r = room
        .app
        .post(&format!("/api/v1/games/{id}/join"), Some(&t[1]), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    id
}

#[actix_web::test]
async fn clocks_speak_by_mail_deadline_in_the_readers_zone_reminder_vacation_and_loss_on_time() {
    let room = mailroom().await;
    let t = [
        account(&room.app, "ada@example.test", "Ada", "en").await,
        account(&room.app, "bruno@example.test", "Bruno", "es").await,
    ];
    let r = room
        .app
        .call(
            Method::PUT,
            "/api/v1/me",
            Some(&t[0]),
            Some(json!({"time_zone": "America/New_York"})),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    room.app
        .call(
            Method::PUT,
            "/api/v1/me/notifications",
            Some(&t[0]),
            Some(json!({"reminders_seconds": [2]})),
        )
        .await;

    // The turn mail gives the deadline in Ada's zone.
    let id = clocked(&room, &t, json!({"type": "per_move", "seconds": 4})).await;
    let first = room.deliver();
    let turn = first
        .iter()
        .find(|m| m.is_to(EMAILS[0]))
        .expect("Ada's turn mail");
    assert!(turn.text().contains("Your deadline:"), "{}", turn.text());
    assert!(
        turn.text().contains("EST") || turn.text().contains("EDT"),
        "{}",
        turn.text()
    );

    // Two seconds before the deadline: one reminder, once.
    actix_web::rt::time::sleep(Duration::from_millis(2300)).await;
    room.worker.schedule_reminders().unwrap();
    room.worker.schedule_reminders().unwrap();
    let reminders = room.deliver();
    assert_eq!(reminders.len(), 1, "{reminders:?}");
    assert!(
        reminders[0]
            .subject()
            .starts_with("Reminder: your move in Magnate")
    );

    // The deadline passes: both players hear that Ada lost on time, each in their language.
    actix_web::rt::time::sleep(Duration::from_millis(2000)).await;
    assert_eq!(room.worker.time_out_due().unwrap(), 1);
    let over = room.deliver();
    let ada = over.iter().find(|m| m.is_to(EMAILS[0])).expect("Ada hears");
    let bruno = over
        .iter()
        .find(|m| m.is_to(EMAILS[1]))
        .expect("Bruno hears");
    assert!(ada.text().contains("You lost on time"), "{}", ada.text());
    assert!(
        bruno.text().contains("Ada ha perdido por tiempo"),
        "{}",
        bruno.text()
    );
    assert!(bruno.text().contains(&id), "the mail names the game");

    // Ada goes on vacation in a new game: Bruno is told.
    clocked(&room, &t, json!({"type": "per_move", "seconds": 3600})).await;
    room.deliver();
    let r = room
        .app
        .post("/api/v1/me/vacation", Some(&t[0]), json!({"days": 2}))
        .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let told = room.deliver();
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(told[0].is_to(EMAILS[1]));
    assert!(
        told[0].subject().contains("vacaciones"),
        "{}",
        told[0].subject()
    );
}

/// Lancaster's mails speak in words (issue 11): each event a sentence in the reader's language,
/// the reader's own supplies, and a game-over mail with every player's score, never raw JSON;
/// the game's page is titled Lancaster.
#[actix_web::test]
async fn lancaster_mails_tell_the_game_in_words_in_each_language() {
    let room = mailroom().await;
    let ada = account(&room.app, "ada@example.test", "Ada", "en").await;
    let bruno = account(&room.app, "bruno@example.test", "Bruno", "es").await;
    let g = room
        .app
        .post(
            "/api/v1/games",
            Some(&ada),
            json!({"kind": "lancaster", "invite": ["bruno@example.test"]}),
        )
        .await;
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.json["id"].as_str().unwrap().to_owned();
    let r = room
        .app
        .post(&format!("/api/v1/games/{id}/join"), Some(&bruno), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let mut dice = Dice::new(5);
    let mut mails = room.deliver();
    for step in 0.. {
        assert!(step < 3000, "the game does not end");
        let mut moved = false;
        for token in [&ada, &bruno] {
            let game = room
                .app
                .get(&format!("/api/v1/games/{id}"), Some(token))
                .await;
            if game.json["status"] != "active" {
                break;
            }
            // Played to its end: nobody resigns.
            let legal: Vec<&Value> = game.json["legal_actions"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|a| a["type"] != "resign")
                .collect();
            if legal.is_empty() {
                continue;
            }
            let choice = without_notation(legal[dice.below(legal.len())]);
            let r = room
                .app
                .post(
                    &format!("/api/v1/games/{id}/actions"),
                    Some(token),
                    json!({"expected_version": game.json["version"], "actions": [choice]}),
                )
                .await;
            assert_eq!(r.status, 200, "{choice} -> {}", r.text);
            moved = true;
            // Deliver now and then, so that turn mails are written mid-game.
            if dice.below(8) == 0 {
                mails.extend(room.deliver());
            }
        }
        if !moved {
            break;
        }
    }
    mails.extend(room.deliver());
    let to = |who: &str| -> Vec<&Received> { mails.iter().filter(|m| m.is_to(who)).collect() };
    let (en, es) = (to("ada@example.test"), to("bruno@example.test"));
    for m in en.iter().chain(&es) {
        let text = m.text();
        assert!(!text.contains("{\""), "raw JSON in a mail: {text}");
        assert!(
            !text.contains("round_started") && !text.contains("vote_revealed"),
            "an event named by its type: {text}"
        );
    }
    let turn_en = en
        .iter()
        .find(|m| m.text().contains("Your gold:"))
        .expect("a turn mail reminds Ada of her supplies");
    assert!(turn_en.text().contains("Round "), "{}", turn_en.text());
    assert!(
        es.iter().any(|m| m.text().contains("Tu oro:")),
        "Bruno's turn mails are in Spanish"
    );
    // The game is over: every seat but the one whose action ended it gets the scores.
    let over: Vec<&&Received> = en
        .iter()
        .chain(&es)
        .filter(|m| {
            m.subject().starts_with("Game over") || m.subject().starts_with("Fin de la partida")
        })
        .collect();
    assert_eq!(over.len(), 1, "one game-over mail");
    let text = over[0].text();
    assert!(text.contains("Ada: ") && text.contains("Bruno: "), "{text}");
    assert!(
        text.contains("power points") || text.contains("puntos de poder"),
        "{text}"
    );
    // The page of the game is Lancaster's, with its history in sentences.
    let link = turn_en
        .links()
        .into_iter()
        .find(|l| l.contains("/play/"))
        .unwrap();
    let path = link.trim_start_matches(&room.app.base).to_owned();
    let landing = crate::web::page(&room.app, &path, "").await;
    let cookie = landing.header("set-cookie");
    let cookie = cookie.split(';').next().unwrap();
    let page = crate::web::page(&room.app, &format!("/play/{id}"), cookie).await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(
        page.text.contains("<title>Lancaster: Ada – Bruno"),
        "{}",
        &page.text[..page.text.len().min(600)]
    );
    assert!(page.text.contains("Round "), "the history in sentences");
}

#[test]
fn the_leak_check_reads_the_prose_and_not_the_links() {
    let mail = "Your hand: 1M, 2V\nPlay: http://h/play/x?t=eyJhbGciOi.g1Mj.e3x 3K\ntoken eyJ0eXAiOiJKV1QiLCJhbGciOi1Mj";
    assert!(names_code(mail, "1M") && names_code(mail, "2V"));
    assert!(!names_code("http://h/play/x?t=abc.1M.def", "1M"));
    assert!(!names_code("t=eyJ0eXAiOiJKV1QiLCJ.1M.x", "1M"));
    assert!(names_code("a leak: 8VL.", "8VL"));
}

/// Invitees see each other by display name (with an account) or a masked address: never another
/// invitee's full address, in a mail or in the game they read (design.md section 19).
#[actix_web::test]
async fn invitees_never_see_each_others_addresses() {
    let room = mailroom().await;
    let ada = account(&room.app, "ada@example.test", "Ada", "en").await;
    let bruno = account(&room.app, "bruno@example.test", "Bruno", "en").await;
    let g = room
        .app
        .post(
            "/api/v1/games",
            Some(&ada),
            json!({"kind": "lancaster", "invite": ["bruno@example.test", "chiara@example.test", "dario@example.test"]}),
        )
        .await;
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.json["id"].as_str().unwrap().to_owned();
    let seats = g.json["seats"].as_array().unwrap();
    assert_eq!(seats[1]["invited"], json!({"display_name": "Bruno"}));
    assert_eq!(
        seats[2]["invited"],
        json!({"email_masked": "c***@example.test"})
    );
    let mails = room.deliver();
    assert_eq!(mails.len(), 3, "one invitation per invitee");
    for m in &mails {
        let text = m.text();
        for (who, address) in [
            ("bruno", "bruno@example.test"),
            ("chiara", "chiara@example.test"),
            ("dario", "dario@example.test"),
        ] {
            if !m.is_to(address) {
                assert!(
                    !text.contains(address),
                    "{who}'s address in a mail to {:?}: {text}",
                    m.to
                );
            }
        }
    }
    let seen = room
        .app
        .get(&format!("/api/v1/games/{id}"), Some(&bruno))
        .await;
    assert_eq!(seen.status, 200, "{}", seen.text);
    for address in ["chiara@example.test", "dario@example.test"] {
        assert!(!seen.text.contains(address), "{}", seen.text);
    }
    let list = room.app.get("/api/v1/games", Some(&bruno)).await;
    assert!(!list.text.contains("chiara@example.test"), "{}", list.text);
}

/// A browser request with a language and maybe a cookie.
async fn browse(
    app: &TestApp,
    method: Method,
    path: &str,
    cookie: &str,
    form: Option<&str>,
) -> crate::helpers::Reply {
    let mut headers = vec![
        ("Accept", "text/html"),
        ("Accept-Language", "es-ES,es;q=0.9"),
    ];
    if !cookie.is_empty() {
        headers.push(("Cookie", cookie));
    }
    if form.is_some() {
        headers.push(("Content-Type", "application/x-www-form-urlencoded"));
    }
    app.send(
        method,
        path,
        None,
        &headers,
        form.map(|f| f.as_bytes().to_vec()),
    )
    .await
}

#[actix_web::test]
async fn web_sign_up_mails_a_link_whose_page_asks_the_name_and_signs_in() {
    let room = mailroom().await;
    let app = &room.app;
    let form = browse(app, Method::GET, "/sign-up", "", None).await;
    assert_eq!(form.status, 200, "{}", form.text);
    assert!(crate::web::form_action(&form.text, "sign-up").is_some());
    let bad = browse(app, Method::POST, "/sign-up", "", Some("email=nope")).await;
    assert_eq!(bad.status, 422, "{}", bad.text);
    assert!(
        room.deliver().is_empty(),
        "a refused address is mailed nothing"
    );

    let asked = browse(
        app,
        Method::POST,
        "/sign-up",
        "",
        Some("email=nuevo%40example.test"),
    )
    .await;
    assert_eq!(asked.status, 200, "{}", asked.text);
    let mails = room.deliver();
    assert_eq!(mails.len(), 1);
    let mail = &mails[0];
    assert!(mail.is_to("nuevo@example.test"));
    assert_eq!(
        mail.subject(),
        "Termina de registrarte en herald",
        "in the page's language"
    );
    let link = mail
        .links()
        .into_iter()
        .find(|l| l.contains("/sign-up/"))
        .expect("a sign-up link");
    let path = link.trim_start_matches(&app.base).to_owned();

    // Opening it (twice, as a mail scanner would) spends nothing and asks the name.
    for _ in 0..2 {
        let opened = browse(app, Method::GET, &path, "", None).await;
        assert_eq!(opened.status, 200, "{}", opened.text);
        assert!(opened.header("set-cookie").is_empty());
        assert_eq!(
            crate::web::form_action(&opened.text, "sign-up-name").as_deref(),
            Some(path.as_str())
        );
        assert!(opened.text.contains("nuevo@example.test"));
    }
    let nameless = browse(app, Method::POST, &path, "", Some("name=%20")).await;
    assert_eq!(nameless.status, 422, "{}", nameless.text);
    let made = browse(app, Method::POST, &path, "", Some("name=Nuevo+Jugador")).await;
    assert_eq!(made.status, 303, "{}", made.text);
    assert_eq!(made.header("location"), "/games");
    let cookie = made
        .header("set-cookie")
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let games = browse(app, Method::GET, "/games", &cookie, None).await;
    assert_eq!(games.status, 200, "{}", games.text);
    assert!(
        games.text.contains("Nuevo Jugador"),
        "signed in under the chosen name"
    );
    assert!(
        games.text.contains("lang=\"es\""),
        "the account speaks the page's language"
    );

    // Single use; the address now has an account.
    assert_eq!(browse(app, Method::GET, &path, "", None).await.status, 410);
    assert_eq!(
        browse(app, Method::POST, &path, "", Some("name=Otro"))
            .await
            .status,
        410
    );
    let taken = app
        .post(
            "/api/v1/accounts",
            None,
            json!({"email": "nuevo@example.test", "display_name": "Someone", "password": "correct horse 42"}),
        )
        .await;
    taken.assert_problem(409, "conflict");
    assert_eq!(
        browse(app, Method::GET, "/sign-up/forged", "", None)
            .await
            .status,
        403
    );

    // Asking again with the address of an account gets the same answer and a sign-in link.
    let again = browse(
        app,
        Method::POST,
        "/sign-up",
        "",
        Some("email=nuevo%40example.test"),
    )
    .await;
    assert_eq!(
        (again.status, again.text.contains("sign-up")),
        (asked.status, asked.text.contains("sign-up"))
    );
    let mails = room.deliver();
    assert_eq!(mails.len(), 1);
    assert!(
        mails[0].links().iter().any(|l| l.contains("/sign-in/")),
        "{}",
        mails[0].text()
    );
}
