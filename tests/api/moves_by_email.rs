//! Moves by email (design.md section 18) over a real SMTP client delivering to herald's inbound
//! listener: turn mails carry a reply address per seat and the legal moves; a reply plays its
//! first line through the submission path and is answered in its thread; the mail programs'
//! shapes of a reply all play the right move; what may not play never does and is answered at
//! most once; an auto-responder never starts a loop; the HTTP route needs its secret.

use crate::helpers::{Dice, Table, TestApp, spawn_app_with};
use crate::smtp::{Received, SmtpSink};
use awc::http::Method;
use herald::auth::links::ReplyGrant;
use herald::domain::GameId;
use herald::jobs::Worker;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::sync::atomic::{AtomicU32, Ordering};

const DOMAIN: &str = "herald.test";
const SECRET: &str = "a shared secret for the mail service";
const EMAILS: [&str; 2] = ["ada@example.test", "bruno@example.test"];

struct PostOffice {
    app: TestApp,
    sink: SmtpSink,
    worker: Worker,
    port: u16,
}

async fn post_office() -> PostOffice {
    let app = spawn_app_with(|s| {
        s.inbound.mail_domain = Some(DOMAIN.to_owned());
        s.inbound.smtp_addr = Some("127.0.0.1:0".parse().unwrap());
        s.inbound.secret = Some(SECRET.to_owned());
    })
    .await;
    let sink = SmtpSink::start();
    let mut settings = app.settings.clone();
    settings.email.smtp_url = Some(sink.url());
    settings.http.public_url = app.base.clone();
    let worker = Worker::new(&settings, herald::db::pool(&app.db_url, 4).unwrap()).unwrap();
    let port = app.inbound_port.expect("the inbound listener is on");
    PostOffice {
        app,
        sink,
        worker,
        port,
    }
}

impl PostOffice {
    /// Runs every due job; returns the messages that arrived meanwhile.
    fn post(&self) -> Vec<Received> {
        let before = self.sink.messages().len();
        self.worker.drain().unwrap();
        self.sink.messages()[before..].to_vec()
    }

    /// The newest mail to `address` that carries a reply address.
    fn latest_turn_mail(&self, address: &str) -> Received {
        self.sink
            .to(address)
            .into_iter()
            .rev()
            .find(|m| m.header("Reply-To").is_some())
            .unwrap_or_else(|| panic!("no mail with a reply address to {address}"))
    }

    /// Delivers `raw` over SMTP from `from` to `to`.
    async fn smtp(&self, from: &str, to: &str, raw: Vec<u8>) -> Result<(), String> {
        let (port, from, to) = (self.port, from.to_owned(), to.to_owned());
        actix_web::rt::task::spawn_blocking(move || {
            use lettre::Transport;
            let transport = lettre::SmtpTransport::builder_dangerous("127.0.0.1")
                .port(port)
                .build();
            let from = if from.is_empty() {
                None
            } else {
                Some(from.parse().map_err(|e| format!("{e}"))?)
            };
            let envelope =
                lettre::address::Envelope::new(from, vec![to.parse().map_err(|e| format!("{e}"))?])
                    .map_err(|e| format!("{e}"))?;
            transport
                .send_raw(&envelope, &raw)
                .map(|_| ())
                .map_err(|e| format!("{e}"))
        })
        .await
        .unwrap()
    }

    /// A new game's first mover: their seat, their turn mail and a move it lists (`seed` picks).
    async fn opening(&self, seed: u64) -> (Table, usize, Received, String) {
        let t = self.app.table().await;
        self.post();
        let (seat, g) = self.app.mover(&t).await;
        let mail = self.latest_turn_mail(EMAILS[seat]);
        let notation = some_move(&g, &mut Dice::new(seed));
        (t, seat, mail, notation)
    }

    async fn version(&self, t: &Table) -> i64 {
        self.app.game(t, 0).await["version"].as_i64().unwrap()
    }

    /// The notation of the game's last stored action.
    async fn last_action(&self, t: &Table) -> String {
        let h = self
            .app
            .get(
                &format!("/api/v1/games/{}/history", t.id),
                Some(&t.tokens[0]),
            )
            .await;
        assert_eq!(h.status, 200, "{}", h.text);
        let entries = h.json.as_array().unwrap();
        entries
            .iter()
            .rev()
            .find_map(|e| e["action"]["notation"].as_str())
            .unwrap_or("")
            .to_owned()
    }
}

/// The address of a mail's `Reply-To`.
fn reply_address(mail: &Received) -> String {
    mail.header("Reply-To")
        .unwrap()
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_owned()
}

/// How a mail program shapes a reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// Plain text, the move on top, the original quoted below with `>`.
    Plain,
    /// Gmail: text and HTML alternatives, the quote below in a `gmail_quote` block.
    Gmail,
    /// Outlook: windows-1252 quoted-printable, the original below a line and a header block.
    Outlook,
    /// Apple Mail on a phone: quoted-printable, "Sent from my iPhone", the quote below.
    Apple,
    /// HTML only, quoted-printable.
    HtmlOnly,
    /// The quote first, the move below it, then a signature.
    BottomPosted,
}

static NEXT_ID: AtomicU32 = AtomicU32::new(0);

/// Quoted-printable (RFC 2045) with soft line breaks.
fn qp(bytes: &[u8]) -> String {
    let mut out = String::new();
    let mut width = 0;
    for &b in bytes {
        let piece = match b {
            b'\n' => {
                out.push_str("\r\n");
                width = 0;
                continue;
            }
            b'\r' => continue,
            b'=' => "=3D".to_owned(),
            32..=126 => char::from(b).to_string(),
            _ => format!("={b:02X}"),
        };
        if width + piece.len() > 73 {
            out.push_str("=\r\n");
            width = 0;
        }
        width += piece.len();
        out.push_str(&piece);
    }
    out
}

/// A reply from `from` to the mail `orig`, its first line `line`, shaped as `shape`, with
/// `extra` headers.
fn reply(orig: &Received, from: &str, line: &str, shape: Shape, extra: &str) -> (Vec<u8>, String) {
    let n = NEXT_ID.fetch_add(1, Ordering::SeqCst);
    let id = format!("<reply-{n}-{}@example.test>", std::process::id());
    let orig_id = orig.header("Message-ID").unwrap_or_default();
    let quoted: String = orig.text().lines().map(|l| format!("> {l}\n")).collect();
    let original: String = orig.text().replace("\r\n", "\n");
    let wrote = "On Mon, 1 Jan 2024 at 10:00, herald <herald@localhost> wrote:";
    let mut head = format!(
        "From: Player <{from}>\nTo: {}\nSubject: Re: {}\nDate: Mon, 1 Jan 2024 10:05:00 +0000\nMessage-ID: {id}\nIn-Reply-To: {orig_id}\nReferences: {orig_id}\nMIME-Version: 1.0\n{extra}",
        reply_address(orig),
        orig.subject()
    );
    let body = match shape {
        Shape::Plain => {
            head.push_str(
                "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n",
            );
            format!("{line}\n\n{wrote}\n{quoted}")
        }
        Shape::BottomPosted => {
            head.push_str(
                "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n",
            );
            format!("{wrote}\n{quoted}\n{line}\n\n-- \nAda, from the road\n")
        }
        Shape::Gmail => {
            head.push_str("Content-Type: multipart/alternative; boundary=\"000000000000gmail\"\n");
            let html_quote = orig.text().replace("\r\n", "<br>");
            format!(
                "--000000000000gmail\nContent-Type: text/plain; charset=\"UTF-8\"\n\n{line}\n\n{wrote}\n\n{quoted}\n--000000000000gmail\nContent-Type: text/html; charset=\"UTF-8\"\nContent-Transfer-Encoding: quoted-printable\n\n{}\n--000000000000gmail--\n",
                qp(format!("<div dir=\"ltr\">{line}</div><br><div class=\"gmail_quote\"><div dir=\"ltr\" class=\"gmail_attr\">{wrote}<br></div><blockquote class=\"gmail_quote\" style=\"margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex\">{html_quote}</blockquote></div>").as_bytes())
            )
        }
        Shape::Outlook => {
            head.push_str("Content-Type: text/plain; charset=\"windows-1252\"\nContent-Transfer-Encoding: quoted-printable\n");
            // "Thanks – Ada" with the en dash of windows-1252, one byte.
            let mut bytes = format!("{line}\n\nThanks ").into_bytes();
            bytes.push(0x96);
            bytes.extend(format!(" Ada\n\n________________________________\nFrom: herald <herald@localhost>\nSent: Monday, January 1, 2024 10:00 AM\nTo: Ada <{from}>\nSubject: {}\n\n", orig.subject()).as_bytes());
            bytes.extend(original.as_bytes());
            qp(&bytes)
        }
        Shape::Apple => {
            head.push_str("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n");
            qp(format!("{line}\n\nSent from my iPhone\n\n> On 1 Jan 2024, at 10:00, herald <herald@localhost> wrote:\n> \n{quoted}").as_bytes())
        }
        Shape::HtmlOnly => {
            head.push_str("Content-Type: text/html; charset=\"UTF-8\"\nContent-Transfer-Encoding: quoted-printable\n");
            let html_quote = orig.text().replace("\r\n", "<br>");
            qp(format!("<html><body><div dir=\"ltr\">{line}</div><div><br></div><div class=\"gmail_quote\"><div class=\"gmail_attr\">{wrote}</div><blockquote class=\"gmail_quote\">{html_quote}</blockquote></div></body></html>").as_bytes())
        }
    };
    let text = format!("{head}\n{body}")
        .replace("\r\n", "\n")
        .replace('\n', "\r\n");
    (text.into_bytes(), id)
}

/// The seat's listed actions (the out-of-turn `prefer` aside).
fn legal(g: &Value) -> Vec<Value> {
    g["legal_actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["type"] != "prefer")
        .cloned()
        .collect()
}

/// A legal move other than `end` when there is one (so that "the right move" is visible).
fn some_move(g: &Value, dice: &mut Dice) -> String {
    let all = legal(g);
    let others: Vec<&Value> = all.iter().filter(|a| a["type"] != "end").collect();
    let pick = if others.is_empty() {
        &all[0]
    } else {
        others[dice.below(others.len())]
    };
    pick["notation"].as_str().unwrap().to_owned()
}

#[actix_web::test]
async fn turn_mails_carry_a_reply_address_per_seat_and_the_legal_moves_in_each_language() {
    for (locale, how) in [
        ("en", "To play by email, reply to this mail"),
        ("es", "Para jugar por correo, responde a este mensaje"),
        ("it", "Per giocare via email, rispondi a questo messaggio"),
        ("fr", "Pour jouer par e-mail, répondez à ce message"),
    ] {
        let po = post_office().await;
        let mut tokens = Vec::new();
        for (email, name) in [(EMAILS[0], "Ada"), (EMAILS[1], "Bruno")] {
            let r = po
                .app
                .post(
                    "/api/v1/accounts",
                    None,
                    json!({"email": email, "display_name": name, "password": "correct horse 42", "locale": locale}),
                )
                .await;
            assert_eq!(r.status, 201, "{}", r.text);
            tokens.push(po.app.sign_in(email, "correct horse 42").await);
        }
        let g = po
            .app
            .post(
                "/api/v1/games",
                Some(&tokens[0]),
                json!({"kind": "magnate", "invite": [EMAILS[1]]}),
            )
            .await;
        let id = g.json["id"].as_str().unwrap().to_owned();
        po.app
            .post(
                &format!("/api/v1/games/{id}/join"),
                Some(&tokens[1]),
                json!({}),
            )
            .await;
        let t = Table {
            id,
            tokens: [tokens[0].clone(), tokens[1].clone()],
        };
        po.post();
        let (seat, g) = po.app.mover(&t).await;
        let mail = po.latest_turn_mail(EMAILS[seat]);
        let address = reply_address(&mail);
        let token = address
            .strip_prefix("play+")
            .and_then(|rest| rest.strip_suffix(&format!("@{DOMAIN}")))
            .unwrap_or_else(|| panic!("{address}"));
        assert!(address.split('@').next().unwrap().len() <= 64);
        let grant = po.app.links.verify_reply_token(token).unwrap();
        assert_eq!(
            (grant.game.0.to_string(), grant.seat, grant.version),
            (t.id.clone(), seat as i16, g["version"].as_i64().unwrap())
        );
        let text = mail.text();
        assert!(text.contains(how), "{locale}: {text}");
        // Numbered in the order of the API's list, so that a reply may give the number alone.
        for (i, action) in legal(&g).iter().enumerate().take(10) {
            let listed = format!("{}. {}", i + 1, action["notation"].as_str().unwrap());
            assert!(
                text.lines().any(|l| l.trim() == listed),
                "{locale}: {listed} is not listed in\n{text}"
            );
        }
        // The other seat's mails (its invitation) carry no reply address for this seat.
        assert!(
            po.sink
                .to(EMAILS[1 - seat])
                .iter()
                .all(|m| m.header("Reply-To").is_none_or(|r| !r.contains(token)))
        );
    }
}

#[actix_web::test]
async fn without_a_mail_domain_turn_mails_carry_no_reply_address() {
    let app = crate::helpers::spawn_app().await;
    let sink = SmtpSink::start();
    let mut settings = app.settings.clone();
    settings.email.smtp_url = Some(sink.url());
    let worker = Worker::new(&settings, herald::db::pool(&app.db_url, 2).unwrap()).unwrap();
    let t = app.table().await;
    worker.drain().unwrap();
    let (seat, _) = app.mover(&t).await;
    let mails = sink.to(EMAILS[seat]);
    assert!(!mails.is_empty());
    for m in mails {
        assert!(m.header("Reply-To").is_none());
        assert!(!m.text().contains("To play by email"));
    }
}

#[actix_web::test]
async fn a_magnate_game_is_played_to_the_end_only_by_replies() {
    let po = post_office().await;
    let t = po.app.table().await;
    let mut dice = Dice::new(19);
    let mut replies = 0;
    let mut last_answer = None;
    loop {
        let arrived = po.post();
        if let Some(answer) = arrived
            .iter()
            .rev()
            .find(|m| m.subject().starts_with("Move "))
        {
            last_answer = Some(answer.clone());
        }
        for m in &arrived {
            // Answers are automatic (RFC 3834) and in the thread of the reply they answer.
            if m.subject().starts_with("Move ") {
                assert_eq!(m.header("Auto-Submitted").as_deref(), Some("auto-replied"));
                assert!(m.header("In-Reply-To").unwrap().starts_with("<reply-"));
            }
        }
        let g = po.app.game(&t, 0).await;
        if g["status"] == "finished" {
            break;
        }
        let (seat, g) = po.app.mover(&t).await;
        let mail = po.latest_turn_mail(EMAILS[seat]);
        let actions = legal(&g);
        let end = actions.iter().find(|a| a["type"] == "end");
        let action = match end {
            Some(end) if dice.below(10) < 7 => end.clone(),
            _ => actions[dice.below(actions.len())].clone(),
        };
        let notation = action["notation"].as_str().unwrap();
        let (raw, _) = reply(&mail, EMAILS[seat], notation, Shape::Plain, "");
        po.smtp(EMAILS[seat], &reply_address(&mail), raw)
            .await
            .unwrap();
        replies += 1;
        let after = po.app.game(&t, seat).await;
        if after["version"].as_i64() <= g["version"].as_i64() {
            let answers = po.post();
            let texts: Vec<String> = answers.iter().map(Received::text).collect();
            panic!("{notation} was not played: {texts:#?}");
        }
        assert_eq!(po.last_action(&t).await, notation);
        assert!(replies < 3000, "the game does not end");
    }
    // Every stored action came by mail.
    let h = po
        .app
        .get(
            &format!("/api/v1/games/{}/history", t.id),
            Some(&t.tokens[0]),
        )
        .await;
    let played = h
        .json
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"].is_object())
        .count();
    assert_eq!(played, replies);
    let g = po.app.game(&t, 0).await;
    assert!(g["outcome"].is_object(), "{g}");
    // The move that ended the game is answered with the end, and no reply address.
    let last = last_answer.unwrap();
    assert!(last.text().contains("The game is over."), "{}", last.text());
    assert!(last.header("Reply-To").is_none());
    // A reply to an old mail once the game is over is told so, once, with the result.
    let old = po.latest_turn_mail(EMAILS[0]);
    let (raw, _) = reply(&old, EMAILS[0], "E", Shape::Plain, "");
    po.smtp(EMAILS[0], &reply_address(&old), raw).await.unwrap();
    let answers = po.post();
    assert_eq!(answers.len(), 1);
    let text = answers[0].text();
    assert_eq!(text.matches("The game is over.").count(), 1, "{text}");
}

#[actix_web::test]
async fn gmail_outlook_and_apple_mail_shaped_replies_play_the_right_move() {
    let po = post_office().await;
    let t = po.app.table().await;
    let mut dice = Dice::new(7);
    for shape in [
        Shape::Gmail,
        Shape::Outlook,
        Shape::Apple,
        Shape::HtmlOnly,
        Shape::BottomPosted,
        Shape::Plain,
    ] {
        po.post();
        let (seat, g) = po.app.mover(&t).await;
        let mail = po.latest_turn_mail(EMAILS[seat]);
        let notation = some_move(&g, &mut dice);
        let (raw, id) = reply(&mail, EMAILS[seat], &notation, shape, "");
        po.smtp(EMAILS[seat], &reply_address(&mail), raw.clone())
            .await
            .unwrap();
        let v = po.version(&t).await;
        assert!(
            v > g["version"].as_i64().unwrap(),
            "{shape:?}: {notation} not played"
        );
        assert_eq!(po.last_action(&t).await, notation, "{shape:?}");
        let answers = po.post();
        let answer = answers
            .iter()
            .find(|m| m.is_to(EMAILS[seat]) && m.header("In-Reply-To").as_deref() == Some(&id))
            .unwrap_or_else(|| panic!("{shape:?}: no answer in the thread"));
        assert!(answer.text().contains(&notation), "{}", answer.text());
        assert!(answer.header("References").unwrap().contains(&id));
        // The same message delivered again plays nothing and is not answered again.
        po.smtp(EMAILS[seat], &reply_address(&mail), raw)
            .await
            .unwrap();
        assert_eq!(po.version(&t).await, v, "{shape:?}: a duplicate played");
        assert!(po.post().is_empty(), "{shape:?}: a duplicate was answered");
    }
}

#[actix_web::test]
async fn replies_that_may_not_play_change_nothing_and_are_answered_at_most_once() {
    let po = post_office().await;
    let t = po.app.table().await;
    po.app.user("cyd@example.test", "Cyd").await;
    po.post();
    let (seat, g) = po.app.mover(&t).await;
    let other = 1 - seat;
    let mail = po.latest_turn_mail(EMAILS[seat]);
    let to = reply_address(&mail);
    let v0 = g["version"].as_i64().unwrap();
    let notation = legal(&g)[0]["notation"].as_str().unwrap().to_owned();

    // An illegal move: refused by mail with its rule and the legal moves.
    let (raw, id) = reply(&mail, EMAILS[seat], "S:PMYK", Shape::Plain, "");
    po.smtp(EMAILS[seat], &to, raw).await.unwrap();
    assert_eq!(po.version(&t).await, v0);
    let answers = po.post();
    assert_eq!(answers.len(), 1, "{answers:?}");
    let text = answers[0].text();
    assert!(answers[0].is_to(EMAILS[seat]));
    assert_eq!(
        answers[0].header("In-Reply-To").as_deref(),
        Some(id.as_str())
    );
    assert!(text.contains("was not played"), "{text}");
    assert!(text.contains("MAG-"), "no rule in {text}");
    // The engine words its refusal in English; the rule itself is a link away, in the reader's
    // language, at its section of the rules page.
    assert!(
        text.contains("What rule MAG-") && text.contains("/rules/magnate?lang=en#MAG-"),
        "{text}"
    );
    let listed = format!("1. {notation}");
    assert!(text.lines().any(|l| l.trim() == listed), "{text}");
    assert!(answers[0].header("Reply-To").is_some());

    // No move at all: refused, with the legal moves.
    let (raw, _) = reply(&mail, EMAILS[seat], "", Shape::Plain, "");
    po.smtp(EMAILS[seat], &to, raw).await.unwrap();
    assert_eq!(po.version(&t).await, v0);
    let answers = po.post();
    assert_eq!(answers.len(), 1);
    assert!(
        answers[0].text().contains("No move was found"),
        "{}",
        answers[0].text()
    );

    // Another player (the other seat, then someone outside the game) with this seat's address:
    // nothing played, one polite answer each, then none.
    for stranger in [EMAILS[other], "cyd@example.test", "eve@example.test"] {
        for attempt in 0..2 {
            let (raw, _) = reply(&mail, stranger, &notation, Shape::Plain, "");
            po.smtp(stranger, &to, raw).await.unwrap();
            assert_eq!(po.version(&t).await, v0, "{stranger} played");
            let answers = po.post();
            if attempt == 0 {
                assert_eq!(answers.len(), 1, "{stranger}: {answers:?}");
                assert!(answers[0].is_to(stranger));
                let text = answers[0].text();
                assert!(text.contains("nothing was played"), "{text}");
                // Nothing about the game: no move, no link.
                assert!(notation.len() < 3 || !text.contains(&notation), "{text}");
                assert!(!text.contains("http"), "{text}");
                assert!(answers[0].header("Reply-To").is_none());
            } else {
                assert!(answers.is_empty(), "{stranger} answered twice: {answers:?}");
            }
        }
    }

    // The seat's own player with the other seat's address (a token for another seat).
    let other_token = po.app.links.reply_token(
        ReplyGrant {
            game: GameId(t.id.parse().unwrap()),
            seat: other as i16,
            version: v0,
        },
        3600,
    );
    let mut forged = mail.clone();
    forged.data = forged
        .data
        .replace(&to, &format!("play+{other_token}@{DOMAIN}"));
    let (raw, _) = reply(&forged, EMAILS[seat], &notation, Shape::Plain, "");
    po.smtp(EMAILS[seat], &format!("play+{other_token}@{DOMAIN}"), raw)
        .await
        .unwrap();
    assert_eq!(po.version(&t).await, v0);
    let first_polite = po.post();
    assert_eq!(first_polite.len(), 1, "{first_polite:?}");

    // An expired address, a tampered one, a forward: nothing played; the seat's player had
    // their one polite answer of the day already.
    let expired = po.app.links.reply_token(
        ReplyGrant {
            game: GameId(t.id.parse().unwrap()),
            seat: seat as i16,
            version: v0,
        },
        -60,
    );
    let mut tampered = to.clone();
    tampered.replace_range(8..9, if &to[8..9] == "a" { "b" } else { "a" });
    for (address, subject_prefix) in [
        (format!("play+{expired}@{DOMAIN}"), ""),
        (tampered, ""),
        (to.clone(), "Fwd: "),
    ] {
        let (raw, _) = reply(&mail, EMAILS[seat], &notation, Shape::Plain, "");
        let raw = String::from_utf8(raw)
            .unwrap()
            .replace(&format!("To: {to}"), &format!("To: {address}"))
            .replace("Subject: Re: ", &format!("Subject: {subject_prefix}Re: "))
            .into_bytes();
        po.smtp(EMAILS[seat], &address, raw).await.unwrap();
        assert_eq!(po.version(&t).await, v0, "{address} {subject_prefix}");
        assert!(po.post().is_empty());
    }

    // A stale reply: the position moved on (by the API), the old mail's move is refused with
    // the position now.
    let r = po
        .app
        .submit(
            &t,
            seat,
            v0,
            json!([crate::helpers::without_notation(&legal(&g)[0])]),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    po.post();
    let v1 = po.version(&t).await;
    let (raw, _) = reply(&mail, EMAILS[seat], &notation, Shape::Plain, "");
    po.smtp(EMAILS[seat], &to, raw).await.unwrap();
    assert_eq!(po.version(&t).await, v1);
    let answers = po.post();
    assert_eq!(answers.len(), 1);
    assert!(
        answers[0].text().contains("The game has moved on"),
        "{}",
        answers[0].text()
    );
    // Addresses for other domains are refused at RCPT TO, never read.
    let (raw, _) = reply(&mail, EMAILS[seat], &notation, Shape::Plain, "");
    assert!(
        po.smtp(EMAILS[seat], "play+abc@elsewhere.test", raw)
            .await
            .is_err()
    );
}

#[actix_web::test]
async fn an_auto_responder_never_plays_and_never_loops() {
    let po = post_office().await;
    let t = po.app.table().await;
    po.post();
    let (seat, g) = po.app.mover(&t).await;
    let v0 = g["version"].as_i64().unwrap();
    let notation = legal(&g)[0]["notation"].as_str().unwrap().to_owned();
    let mail = po.latest_turn_mail(EMAILS[seat]);
    let to = reply_address(&mail);
    // Well-behaved responders mark themselves: never played, never answered.
    for headers in [
        "Auto-Submitted: auto-replied\n",
        "Auto-Submitted: auto-generated\n",
        "Precedence: bulk\n",
        "Precedence: junk\n",
        "Precedence: bulk (vacation)\n",
        "Precedence: \"bulk\"\n",
        "X-Autoreply: yes\n",
    ] {
        let (raw, _) = reply(&mail, EMAILS[seat], &notation, Shape::Plain, headers);
        po.smtp(EMAILS[seat], &to, raw).await.unwrap();
        assert_eq!(po.version(&t).await, v0, "{headers}");
        assert!(po.post().is_empty(), "{headers} was answered");
    }
    // A bounce: from the mailer-daemon, or with the null sender.
    let (raw, _) = reply(
        &mail,
        "MAILER-DAEMON@example.test",
        &notation,
        Shape::Plain,
        "",
    );
    po.smtp("MAILER-DAEMON@example.test", &to, raw)
        .await
        .unwrap();
    let (raw, _) = reply(&mail, EMAILS[seat], &notation, Shape::Plain, "");
    po.smtp("", &to, raw).await.unwrap();
    assert_eq!(po.version(&t).await, v0);
    assert!(po.post().is_empty());
    // A badly behaved responder answers every mail, herald's answers included, with "I am away"
    // as its first line: herald's answers stop (they are marked automatic, and rate-limited).
    let mut latest = mail;
    let mut answered = 0;
    for _ in 0..40 {
        let (raw, _) = reply(
            &latest,
            EMAILS[seat],
            "I am away until Monday.",
            Shape::Plain,
            "",
        );
        po.smtp(EMAILS[seat], &reply_address(&latest), raw)
            .await
            .unwrap();
        let back = po.post();
        let Some(answer) = back.into_iter().find(|m| m.is_to(EMAILS[seat])) else {
            break;
        };
        assert_eq!(
            answer.header("Auto-Submitted").as_deref(),
            Some("auto-replied")
        );
        answered += 1;
        latest = answer;
    }
    assert!(
        answered <= herald::services::inbound::REFUSALS_PER_HOUR as usize,
        "{answered} answers"
    );
    assert_eq!(po.version(&t).await, v0);
}

/// A NUL in the sender, the Message-ID or the move (raw or quoted-printable `=00`) is refused
/// for good (5xx: the relay does not retry it for days), plays nothing and is not answered.
#[actix_web::test]
async fn a_reply_with_a_nul_is_refused_for_good_and_changes_nothing() {
    let po = post_office().await;
    let t = po.app.table().await;
    po.post();
    let (seat, g) = po.app.mover(&t).await;
    let v0 = g["version"].as_i64().unwrap();
    let notation = legal(&g)[0]["notation"].as_str().unwrap().to_owned();
    let mail = po.latest_turn_mail(EMAILS[seat]);
    let to = reply_address(&mail);
    let (good, id) = reply(&mail, EMAILS[seat], &notation, Shape::Plain, "");
    let good = String::from_utf8(good).unwrap();
    let from_line = format!("From: Player <{}>", EMAILS[seat]);
    let spoilt = [
        good.replacen(&id, &id.replacen('@', "\0@", 1), 1),
        good.replacen(&from_line, &from_line.replacen('@', "\0@", 1), 1),
        good.replacen(
            &format!("\r\n\r\n{notation}"),
            &format!("\r\n\r\n{notation}\0"),
            1,
        ),
        good.replacen(
            "Content-Transfer-Encoding: 8bit",
            "Content-Transfer-Encoding: quoted-printable",
            1,
        )
        .replacen(
            &format!("\r\n\r\n{notation}"),
            &format!("\r\n\r\n{notation}=00"),
            1,
        ),
    ];
    for raw in spoilt {
        assert_ne!(raw, good, "the NUL went in");
        let refused = po.smtp(EMAILS[seat], &to, raw.clone().into_bytes()).await;
        let why = refused.expect_err("refused");
        assert!(why.contains("554"), "a permanent refusal: {why}");
        assert!(why.contains("a NUL character"), "saying why: {why}");
        assert_eq!(po.version(&t).await, v0, "{raw}");
        assert!(po.post().is_empty(), "answered: {raw}");
    }
    // The same reply without the NUL plays.
    po.smtp(EMAILS[seat], &to, good.into_bytes()).await.unwrap();
    assert_eq!(po.last_action(&t).await, notation);
}

/// The answer to a reply whose Message-ID could not sit on one header line is not threaded
/// under it: every line of the answer stays within RFC 5322's 998 characters.
#[actix_web::test]
async fn an_answer_never_carries_a_header_line_too_long_for_relays() {
    let po = post_office().await;
    let t = po.app.table().await;
    po.post();
    let (seat, _) = po.app.mover(&t).await;
    let mail = po.latest_turn_mail(EMAILS[seat]);
    let (raw, id) = reply(&mail, EMAILS[seat], "not a move at all", Shape::Plain, "");
    let long = format!("<{}@example.test>", "x".repeat(5000));
    let raw = String::from_utf8(raw).unwrap().replacen(&id, &long, 1);
    po.smtp(EMAILS[seat], &reply_address(&mail), raw.into_bytes())
        .await
        .unwrap();
    let answers = po.post();
    let answer = answers
        .iter()
        .find(|m| m.is_to(EMAILS[seat]))
        .expect("the refusal is answered");
    let longest = answer.data.lines().map(str::len).max().unwrap_or(0);
    assert!(longest <= 998, "a line of {longest} characters");
    assert!(
        !answer.data.contains(&"x".repeat(100)),
        "threaded under the long id"
    );
}

#[actix_web::test]
async fn lmtp_delivery_is_answered_per_recipient_and_plays() {
    let po = post_office().await;
    let (t, seat, mail, notation) = po.opening(3).await;
    let (raw, _) = reply(&mail, EMAILS[seat], &notation, Shape::Plain, "");
    let (port, to, from) = (po.port, reply_address(&mail), EMAILS[seat]);
    let transcript = actix_web::rt::task::spawn_blocking(move || {
        let stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        let mut out = stream.try_clone().unwrap();
        let mut input = BufReader::new(stream);
        let mut said = Vec::new();
        let read = |input: &mut BufReader<std::net::TcpStream>, said: &mut Vec<String>| loop {
            let mut line = String::new();
            input.read_line(&mut line).unwrap();
            said.push(line.trim_end().to_owned());
            if line.as_bytes().get(3) != Some(&b'-') {
                return;
            }
        };
        read(&mut input, &mut said);
        for cmd in [
            "LHLO mx.example.test".to_owned(),
            format!("MAIL FROM:<{from}>"),
            format!("RCPT TO:<{to}>"),
            "RCPT TO:<nobody@example.test>".to_owned(),
            "DATA".to_owned(),
        ] {
            out.write_all(format!("{cmd}\r\n").as_bytes()).unwrap();
            read(&mut input, &mut said);
        }
        out.write_all(&raw).unwrap();
        out.write_all(b".\r\n").unwrap();
        read(&mut input, &mut said);
        out.write_all(b"QUIT\r\n").unwrap();
        read(&mut input, &mut said);
        said
    })
    .await
    .unwrap();
    let codes: Vec<&str> = transcript.iter().map(|l| &l[..3]).collect();
    // Greeting, LHLO (its name and three extensions), MAIL, RCPT ours, RCPT not ours, DATA, one
    // answer for the one accepted recipient, QUIT.
    assert_eq!(
        codes,
        [
            "220", "250", "250", "250", "250", "250", "250", "550", "354", "250", "221"
        ],
        "{transcript:?}"
    );
    assert_eq!(po.last_action(&t).await, notation);
}

#[actix_web::test]
async fn the_http_route_needs_the_secret_and_plays_like_a_delivery() {
    let po = post_office().await;
    let t = po.app.table().await;
    po.post();
    let (seat, g) = po.app.mover(&t).await;
    let v0 = g["version"].as_i64().unwrap();
    let mail = po.latest_turn_mail(EMAILS[seat]);
    let notation = some_move(&g, &mut Dice::new(5));
    let (raw, _) = reply(&mail, EMAILS[seat], &notation, Shape::Gmail, "");
    let post = |auth: Option<String>, ct: &'static str, body: Vec<u8>| {
        let app = &po.app;
        async move {
            let mut headers = vec![("Content-Type", ct)];
            let auth_value;
            if let Some(a) = auth {
                auth_value = a;
                headers.push(("Authorization", auth_value.as_str()));
            }
            app.send(
                Method::POST,
                "/api/v1/inbound-mail",
                None,
                &headers,
                Some(body),
            )
            .await
        }
    };
    for auth in [
        None,
        Some("Bearer not-the-secret".to_owned()),
        Some(format!("Bearer {}", t.tokens[seat])),
    ] {
        let r = post(auth, "message/rfc822", raw.clone()).await;
        r.assert_problem(401, "unauthenticated");
    }
    assert_eq!(po.version(&t).await, v0);
    let r = post(
        Some(format!("Bearer {SECRET}")),
        "application/json",
        raw.clone(),
    )
    .await;
    r.assert_problem(415, "unsupported_media_type");
    let r = post(
        Some(format!("Bearer {SECRET}")),
        "message/rfc822",
        b"From: a@example.test\r\nTo: b@example.test\r\n\r\nE\r\n".to_vec(),
    )
    .await;
    r.assert_problem(422, "validation_failed");
    let r = post(
        Some(format!("Bearer {SECRET}")),
        "message/rfc822",
        raw.clone(),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["outcome"], "played");
    assert_eq!(po.last_action(&t).await, notation);
    let r = post(Some(format!("Bearer {SECRET}")), "message/rfc822", raw).await;
    assert_eq!(r.json["outcome"], "duplicate");
    // HTTP Basic with the secret as the password, for services that put it in the URL.
    po.post();
    let (seat, g) = po.app.mover(&t).await;
    let mail = po.latest_turn_mail(EMAILS[seat]);
    let notation = some_move(&g, &mut Dice::new(6));
    let (raw, _) = reply(&mail, EMAILS[seat], &notation, Shape::Apple, "");
    use base64::Engine;
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("forwarder:{SECRET}"));
    let r = post(Some(format!("Basic {basic}")), "text/plain", raw).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(po.last_action(&t).await, notation);
}

/// A decision three players take at once (Lancaster's start): each answers their own mail,
/// and each reply plays, though the game moved on with the others' replies before it arrived:
/// their choices leave this one's decision as its mail showed it. A reply to a mail whose
/// decision the seat has taken since stays refused (see the stale reply above).
#[actix_web::test]
async fn replies_to_a_decision_taken_by_several_at_once_all_play() {
    let po = post_office().await;
    let (id, tokens) = po.app.lancaster_three().await;
    po.post();
    // Each player's first listed move, as their mail lists it.
    let mut moves = Vec::new();
    for (t, (email, _)) in tokens.iter().zip(crate::helpers::THREE) {
        let r = po.app.get(&format!("/api/v1/games/{id}"), Some(t)).await;
        let listed = r.json["legal_actions"].as_array().unwrap().clone();
        assert!(
            !listed.is_empty(),
            "{email} decides at the start: {}",
            r.text
        );
        let notation = listed[0]["notation"].as_str().unwrap().to_owned();
        moves.push((email, po.latest_turn_mail(email), notation, t));
    }
    let version = |r: &crate::helpers::Reply| r.json["version"].as_i64().unwrap();
    let mut before = version(
        &po.app
            .get(&format!("/api/v1/games/{id}"), Some(&tokens[0]))
            .await,
    );
    for (email, mail, notation, token) in moves {
        let (raw, _) = reply(&mail, email, &notation, Shape::Plain, "");
        po.smtp(email, &reply_address(&mail), raw).await.unwrap();
        let answers = po.post();
        let answer = answers
            .iter()
            .find(|m| m.is_to(email))
            .unwrap_or_else(|| panic!("{email} got no answer"));
        assert!(
            !answer.text().contains("The game has moved on"),
            "{email}: {}",
            answer.text()
        );
        let now = version(
            &po.app
                .get(&format!("/api/v1/games/{id}"), Some(token))
                .await,
        );
        assert!(now > before, "{email}'s reply {notation:?} did not play");
        before = now;
    }
}

/// In a decision taken by several at once, a move given by its number still plays after the
/// others' replies moved the game on: the mail it answers (its `In-Reply-To`) numbered the same
/// moves as are listed now. Without `In-Reply-To` the numbers cannot be checked and the reply is
/// refused as stale, changing nothing.
#[actix_web::test]
async fn numbered_replies_to_a_decision_taken_by_several_at_once_all_play() {
    let po = post_office().await;
    let (id, tokens) = po.app.lancaster_three().await;
    po.post();
    let path = format!("/api/v1/games/{id}");
    let mut mails = Vec::new();
    for (t, (email, _)) in tokens.iter().zip(crate::helpers::THREE) {
        let listed = po.app.get(&path, Some(t)).await.json["legal_actions"]
            .as_array()
            .unwrap()
            .clone();
        let first = listed[0]["notation"].as_str().unwrap().to_owned();
        mails.push((email, po.latest_turn_mail(email), first, t));
    }
    let version = |r: &crate::helpers::Reply| r.json["version"].as_i64().unwrap();
    let mut before = version(&po.app.get(&path, Some(&tokens[0])).await);
    for (i, (email, mail, first, token)) in mails.into_iter().enumerate() {
        let (raw, _) = reply(&mail, email, "1", Shape::Plain, "");
        if i == 1 {
            // The same reply without the headers naming the mail it answers.
            let bare: String = String::from_utf8(raw.clone())
                .unwrap()
                .split("\r\n")
                .filter(|l| !l.starts_with("In-Reply-To:") && !l.starts_with("References:"))
                .map(|l| format!("{l}\r\n"))
                .collect();
            let bare = bare.replace("Message-ID: <reply-", "Message-ID: <bare-reply-");
            po.smtp(email, &reply_address(&mail), bare.into_bytes())
                .await
                .unwrap();
            assert_eq!(
                version(&po.app.get(&path, Some(token)).await),
                before,
                "{email}: a bare number played"
            );
            let answers = po.post();
            assert!(
                answers
                    .iter()
                    .any(|m| m.is_to(email)
                        && m.text().contains("moved on since the mail you answered")),
                "{email}: {answers:?}"
            );
        }
        po.smtp(email, &reply_address(&mail), raw).await.unwrap();
        let answers = po.post();
        let answer = answers
            .iter()
            .find(|m| m.is_to(email))
            .unwrap_or_else(|| panic!("{email} got no answer"));
        assert!(
            answer
                .text()
                .contains(&format!("\u{201c}1. {first}\u{201d}")),
            "{email}: {}",
            answer.text()
        );
        let now = version(&po.app.get(&path, Some(token)).await);
        assert!(now > before, "{email}'s reply 1 ({first:?}) did not play");
        before = now;
    }
}

/// A reply with a line far longer than SMTP's 1000 octets (an HTML mail program's paragraph)
/// is read and plays, rather than cut off mid-message; `HELP` is answered.
#[actix_web::test]
async fn a_reply_with_a_very_long_line_plays_and_help_is_answered() {
    let po = post_office().await;
    let (t, seat, mail, notation) = po.opening(3).await;
    let (raw, _) = reply(&mail, EMAILS[seat], &notation, Shape::Plain, "");
    let long = "x".repeat(100_000);
    let raw = String::from_utf8(raw)
        .unwrap()
        .replacen(
            &format!("{notation}\r\n"),
            &format!("{notation}\r\n\r\n{long}\r\n"),
            1,
        )
        .into_bytes();
    let before = po.version(&t).await;
    po.smtp(EMAILS[seat], &reply_address(&mail), raw)
        .await
        .unwrap();
    assert_eq!(po.version(&t).await, before + 1);
    // HELP, over a raw connection.
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let stream = actix_web::rt::net::TcpStream::connect(("127.0.0.1", po.port))
        .await
        .unwrap();
    let (reader, mut writer) = stream.into_split();
    let mut reader = tokio::io::BufReader::new(reader);
    let mut greeting = String::new();
    reader.read_line(&mut greeting).await.unwrap();
    assert!(greeting.starts_with("220"), "{greeting}");
    writer.write_all(b"HELP\r\n").await.unwrap();
    let mut help = String::new();
    reader.read_line(&mut help).await.unwrap();
    assert!(help.starts_with("214 "), "{help}");
}

/// A greeting typed above the move ("Hola,") is no move: the next line is, and plays.
#[actix_web::test]
async fn a_greeting_above_the_move_is_passed_over() {
    let po = post_office().await;
    let (t, seat, mail, notation) = po.opening(5).await;
    let (raw, _) = reply(
        &mail,
        EMAILS[seat],
        &format!("Hola,\n\n{notation}"),
        Shape::Plain,
        "",
    );
    let before = po.version(&t).await;
    po.smtp(EMAILS[seat], &reply_address(&mail), raw)
        .await
        .unwrap();
    assert_eq!(po.version(&t).await, before + 1);
    assert_eq!(po.last_action(&t).await, notation);
}

/// A move may be given by its number in the mail's list (`2`), or copied with it (`1. B:…`);
/// a number read against a newer position than its mail's, or beyond the list, is refused and
/// changes nothing.
#[actix_web::test]
async fn a_move_given_by_its_number_in_the_mail_plays() {
    let po = post_office().await;
    let (t, seat, mail, _) = po.opening(3).await;
    let g = po.app.game(&t, seat).await;
    let moves = legal(&g);
    assert!(moves.len() >= 2, "{g}");
    let second = moves[1]["notation"].as_str().unwrap().to_owned();
    let before = po.version(&t).await;
    let (raw, _) = reply(&mail, EMAILS[seat], "2", Shape::Plain, "");
    po.smtp(EMAILS[seat], &reply_address(&mail), raw)
        .await
        .unwrap();
    assert_eq!(po.version(&t).await, before + 1);
    assert_eq!(po.last_action(&t).await, second);
    let answers = po.post();
    let played = answers
        .iter()
        .find(|m| m.is_to(EMAILS[seat]) && m.text().contains("was played"))
        .unwrap_or_else(|| panic!("no answer: {answers:?}"));
    assert!(
        played
            .text()
            .contains(&format!("\u{201c}2. {second}\u{201d}")),
        "{}",
        played.text()
    );

    // The same mail's numbers no longer hold: the game has moved on.
    let (raw, _) = reply(&mail, EMAILS[seat], "1", Shape::Plain, "");
    po.smtp(EMAILS[seat], &reply_address(&mail), raw)
        .await
        .unwrap();
    assert_eq!(po.version(&t).await, before + 1);
    let answers = po.post();
    assert!(
        answers
            .iter()
            .any(|m| m.text().contains("moved on since the mail you answered")),
        "{answers:?}"
    );

    // From the newest mail: a number beyond its list is refused, naming the range; the first
    // move copied with its number plays.
    let (mover, g) = po.app.mover(&t).await;
    let latest = po.latest_turn_mail(EMAILS[mover]);
    let moves = legal(&g);
    // One past the list the mail showed (at most 40: a move beyond those was never shown).
    let past = format!("#{}", moves.len().min(40) + 1);
    let (raw, _) = reply(&latest, EMAILS[mover], &past, Shape::Plain, "");
    po.smtp(EMAILS[mover], &reply_address(&latest), raw)
        .await
        .unwrap();
    assert_eq!(po.version(&t).await, before + 1);
    let answers = po.post();
    let range = format!("numbered its moves from 1 to {}", moves.len().min(40));
    assert!(
        answers.iter().any(|m| m.text().contains(&range)),
        "{range}: {answers:?}"
    );
    let first = moves[0]["notation"].as_str().unwrap().to_owned();
    let (raw, _) = reply(
        &latest,
        EMAILS[mover],
        &format!("1. {first}"),
        Shape::Plain,
        "",
    );
    po.smtp(EMAILS[mover], &reply_address(&latest), raw)
        .await
        .unwrap();
    assert_eq!(po.version(&t).await, before + 2);
    assert_eq!(po.last_action(&t).await, first);
}

/// Silent connections cannot keep a relay's mail out: while more than three quarters of the
/// listener's 64 sessions are taken, a client silent for 10 s is let go with a 421 (as Postfix
/// does under stress), where it used to keep its place for five minutes, until the crowd is
/// back under that mark; a relay connecting then is greeted.
#[actix_web::test]
async fn silent_connections_are_let_go_when_the_listener_is_crowded() {
    let po = post_office().await;
    let port = po.port;
    let (let_go, greeting) = actix_web::rt::task::spawn_blocking(move || {
        let connect = || {
            let s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
            s.set_read_timeout(Some(std::time::Duration::from_secs(5)))
                .unwrap();
            let mut r = BufReader::new(s);
            let mut greeting = String::new();
            r.read_line(&mut greeting).unwrap();
            (r, greeting)
        };
        let mut silent: Vec<_> = (0..60).map(|_| connect()).collect();
        assert!(silent.iter().all(|(_, g)| g.starts_with("220")));
        std::thread::sleep(std::time::Duration::from_secs(16));
        let let_go = silent
            .iter_mut()
            .map(|(r, _)| {
                r.get_ref()
                    .set_read_timeout(Some(std::time::Duration::from_millis(50)))
                    .unwrap();
                let mut bye = String::new();
                r.read_line(&mut bye).is_ok() && bye.starts_with("421 Idle")
            })
            .filter(|&bye| bye)
            .count();
        (let_go, connect().1)
    })
    .await
    .unwrap();
    // 60 silent ones, 48 the mark: at least the 12 above it were let go.
    assert!(let_go >= 12, "{let_go} let go");
    assert!(greeting.starts_with("220"), "{greeting}");
}

/// Says `commands` in turn on a fresh connection to the listener (each sent as given, CRLF and
/// all: a message's text and its final dot may be one "command"), and returns the greeting then
/// each reply, a multi-line reply's lines joined with `\n`.
async fn converse(port: u16, commands: Vec<Vec<u8>>) -> Vec<String> {
    actix_web::rt::task::spawn_blocking(move || {
        let stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(60)))
            .unwrap();
        let mut out = stream.try_clone().unwrap();
        let mut input = BufReader::new(stream);
        let mut read = || {
            let mut reply = Vec::new();
            loop {
                let mut line = String::new();
                input.read_line(&mut line).unwrap();
                reply.push(line.trim_end().to_owned());
                if line.as_bytes().get(3) != Some(&b'-') {
                    return reply.join("\n");
                }
            }
        };
        let mut said = vec![read()];
        for command in commands {
            out.write_all(&command).unwrap();
            said.push(read());
        }
        said
    })
    .await
    .unwrap()
}

fn line(text: &str) -> Vec<u8> {
    format!("{text}\r\n").into_bytes()
}

/// RFC 1870, 6152 and 6531: `EHLO` and `LHLO` offer `SIZE` with the largest message the
/// listener takes (the limit DATA enforces), `8BITMIME` and `SMTPUTF8`.
#[actix_web::test]
async fn smtp_ehlo_and_lhlo_offer_size_8bitmime_and_smtputf8() {
    let po = post_office().await;
    let size = format!("SIZE {}", herald::services::inbound::MAX_MESSAGE_BYTES);
    for hello in ["EHLO mx.example.test", "LHLO mx.example.test"] {
        let said = converse(po.port, vec![line(hello), line("QUIT")]).await;
        let offered: Vec<&str> = said[1].lines().map(|l| &l[4..]).collect();
        assert_eq!(said[1].lines().next(), Some("250-herald.test"), "{said:?}");
        for extension in ["8BITMIME", "SMTPUTF8", size.as_str()] {
            assert!(offered.contains(&extension), "{hello}: {said:?}");
        }
        assert!(said[2].starts_with("221"), "{said:?}");
    }
}

/// A `SIZE=` above the limit is refused at `MAIL FROM`, naming it, before any of the message is
/// sent; a malformed `SIZE` and an unknown parameter are refused as such. A message larger than
/// declared is still read to its end and refused 552, stores nothing, and the session goes on:
/// the next message on it plays.
#[actix_web::test]
async fn smtp_an_oversized_declared_size_is_refused_before_data() {
    let po = post_office().await;
    let (t, seat, mail, notation) = po.opening(3).await;
    let before = po.version(&t).await;
    let max = herald::services::inbound::MAX_MESSAGE_BYTES;
    let (from, to) = (EMAILS[seat], reply_address(&mail));
    let (good, _) = reply(&mail, from, &notation, Shape::Plain, "");
    // The same reply, padded with lines of 999 characters to just past the limit.
    let (big, _) = reply(&mail, from, &notation, Shape::Plain, "");
    let mut big = String::from_utf8(big).unwrap();
    let pad = format!("{}\r\n", "x".repeat(999));
    big.push_str(&pad.repeat(max / pad.len() + 1));
    let message = |raw: Vec<u8>| [raw, b".\r\n".to_vec()].concat();
    let said = converse(
        po.port,
        vec![
            line("EHLO mx.example.test"),
            line(&format!("MAIL FROM:<{from}> SIZE={}", max + 1)),
            line(&format!("MAIL FROM:<{from}> SIZE=ten")),
            line(&format!("MAIL FROM:<{from}> FOO=BAR")),
            line(&format!(
                "MAIL FROM:<{from}> SIZE={} BODY=8BITMIME",
                max + 1000
            )),
            line(&format!("MAIL FROM:<{from}> SIZE={max} BODY=8BITMIME")),
            line(&format!("RCPT TO:<{to}>")),
            line("DATA"),
            message(big.into_bytes()),
            line(&format!("MAIL FROM:<{from}> SIZE={}", good.len())),
            line(&format!("RCPT TO:<{to}>")),
            line("DATA"),
            message(good),
            line("QUIT"),
        ],
    )
    .await;
    let refused = &said[2];
    assert!(refused.starts_with("552 5.3.4 "), "{said:?}");
    assert!(
        refused.contains(&max.to_string()),
        "names the limit: {refused}"
    );
    assert!(said[3].starts_with("501 5.5.4 "), "{said:?}");
    assert!(said[4].starts_with("555 5.5.4 "), "{said:?}");
    assert!(said[5].starts_with("552 5.3.4 "), "{said:?}");
    let codes: Vec<&str> = said[6..].iter().map(|r| &r[..3]).collect();
    assert_eq!(
        codes,
        [
            "250", "250", "354", "552", "250", "250", "354", "250", "221"
        ],
        "{said:?}"
    );
    assert!(said[9].starts_with("552 5.3.4 "), "{said:?}");
    // The oversized message stored nothing; the next one played, once.
    assert_eq!(po.version(&t).await, before + 1);
    assert_eq!(po.last_action(&t).await, notation);
}

/// The players of the UTF-8 table: an internationalised local part, and an internationalised
/// domain.
const UTF8_EMAILS: [&str; 2] = ["jos\u{e9}@exemple.fr", "zo\u{eb}@b\u{fc}cher.example"];

/// A Magnate game between the two players of [`UTF8_EMAILS`].
async fn utf8_table(app: &TestApp) -> Table {
    let first = app.user(UTF8_EMAILS[0], "José").await;
    let second = app.user(UTF8_EMAILS[1], "Zoë").await;
    let g = app
        .post(
            "/api/v1/games",
            Some(&first),
            json!({"kind": "magnate", "options": {"preset": "standard"}, "invite": [UTF8_EMAILS[1]]}),
        )
        .await;
    assert_eq!(g.status, 201, "{}", g.text);
    let id = g.json["id"].as_str().unwrap().to_owned();
    let r = app
        .post(
            &format!("/api/v1/games/{id}/join"),
            Some(&second),
            json!({}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    Table {
        id,
        tokens: [first, second],
    }
}

/// RFC 6531: a player whose address is UTF-8 replies to their turn mail from it, their relay
/// saying `SMTPUTF8` (lettre does when the listener offers it), the header in UTF-8 (RFC 6532),
/// and the move plays for their account, answered at that address. The `From` is written in
/// another Unicode form (NFD) and letter case than the account's: it is still theirs.
#[actix_web::test]
async fn smtp_a_move_mailed_from_a_utf8_address_with_smtputf8_plays() {
    use unicode_normalization::UnicodeNormalization;
    let po = post_office().await;
    let t = utf8_table(&po.app).await;
    po.post();
    let (seat, g) = po.app.mover(&t).await;
    let address = UTF8_EMAILS[seat];
    let mail = po.latest_turn_mail(address);
    let notation = some_move(&g, &mut Dice::new(3));
    let (raw, _) = reply(&mail, address, &notation, Shape::Plain, "");
    let written_otherwise: String = address.to_uppercase().nfd().collect();
    assert_ne!(written_otherwise, address);
    let raw = String::from_utf8(raw)
        .unwrap()
        .replacen(
            &format!("From: Player <{address}>"),
            &format!("From: Jos\u{e9} Zo\u{eb} <{written_otherwise}>"),
            1,
        )
        .into_bytes();
    let before = po.version(&t).await;
    po.smtp(address, &reply_address(&mail), raw).await.unwrap();
    assert_eq!(po.version(&t).await, before + 1);
    assert_eq!(po.last_action(&t).await, notation);
    let answers = po.post();
    assert!(
        answers
            .iter()
            .any(|m| m.is_to(address) && m.text().contains("was played")),
        "{answers:?}"
    );
}

/// RFC 6531 section 3.5: without `SMTPUTF8` on `MAIL FROM`, a non-ASCII sender or recipient is
/// refused `553 5.6.7`; the same sender with it is taken.
#[actix_web::test]
async fn smtp_a_utf8_address_without_smtputf8_is_refused_553() {
    let po = post_office().await;
    let said = converse(
        po.port,
        vec![
            line("EHLO mx.example.test"),
            line(&format!("MAIL FROM:<{}>", UTF8_EMAILS[0])),
            line("MAIL FROM:<ada@example.test> BODY=8BITMIME"),
            line(&format!("RCPT TO:<play+abc@{DOMAIN}>")),
            line("RCPT TO:<pl\u{e4}y+abc@herald.test>"),
            line("RSET"),
            line(&format!("MAIL FROM:<{}> SMTPUTF8", UTF8_EMAILS[0])),
            line("QUIT"),
        ],
    )
    .await;
    assert!(said[2].starts_with("553 5.6.7 "), "{said:?}");
    assert!(said[3].starts_with("250"), "{said:?}");
    assert!(said[4].starts_with("250"), "{said:?}");
    assert!(said[5].starts_with("553 5.6.7 "), "{said:?}");
    let codes: Vec<&str> = said[6..].iter().map(|r| &r[..3]).collect();
    assert_eq!(codes, ["250", "250", "221"], "{said:?}");
}
