//! Mails rendered from hand-built values: no database, no clock.

use super::game_over::{GameOver, game_over};
use super::turn::{Turn, turn};
use super::{ByMail, Recipient, SeatEnd, SeatMail, Table};
use crate::domain::{GameId, Locale};
use crate::engine::registry::GameKind;
use chrono::{DateTime, TimeZone, Utc};
use serde_json::{Value, json};
use uuid::Uuid;

fn at(hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 2, hour, 0, 0)
        .single()
        .unwrap_or_default()
}

fn ada(locale: Locale) -> Recipient {
    Recipient {
        email: "ada@example.com".to_owned(),
        name: "Ada".to_owned(),
        locale,
        time_zone: "Europe/Madrid".to_owned(),
    }
}

/// Ada at seat 0 and Bruno at seat 1 of a game of Magnate.
fn table() -> Table {
    Table {
        game: GameId(Uuid::from_u128(7)),
        kind: GameKind::parse("magnate").unwrap(),
        seat_names: vec!["Ada".to_owned(), "Bruno".to_owned()],
        seats: vec![(0, "Ada".to_owned()), (1, "Bruno".to_owned())],
    }
}

/// Ada's mail about her seat 0.
fn to_ada(locale: Locale, message_id: &str) -> SeatMail {
    SeatMail {
        to: ada(locale),
        table: table(),
        seat: 0,
        end: SeatEnd {
            play_url: "https://herald.test/play/7?t=PLAY".to_owned(),
            unsubscribe_url: "https://herald.test/unsubscribe/UNSUB".to_owned(),
            rules_url: "https://herald.test/rules/magnate?lang=xx".to_owned(),
        },
        message_id: message_id.to_owned(),
    }
}

/// Ada's own view: her hand and supply, Bruno's hidden.
fn view() -> Value {
    json!({
        "turn": {"seat": 0},
        "players": [
            {"hand": ["1M", "2V"], "supply": {"V": 2}},
            {"hand_size": 2, "supply": {"K": 1}}
        ],
        "standings": {"district_points": [3, 1], "totals": [12, 9]}
    })
}

fn turn_value(locale: Locale) -> Turn {
    Turn {
        seat: to_ada(locale, "turn-1"),
        view: view(),
        events: vec![
            json!({"type": "rolled", "seat": 1, "d10": [3, 7]}),
            json!({"type": "game_over", "winners": [1]}),
        ],
        deciding: false,
        deadline: Some(at(20)),
        now: at(10),
        by_mail: Some(ByMail {
            address: "play+REPLY@mail.herald.test".to_owned(),
            moves: (0..45).map(|i| format!("move {i}")).collect(),
            tag: "l0123456789abcdef".to_owned(),
        }),
    }
}

#[test]
fn a_turn_mail_is_written_from_its_value_alone() {
    let mail = turn(&turn_value(Locale::En));
    assert_eq!(mail.subject, "Your move in Magnate with Bruno");
    assert_eq!(
        (mail.to_email.as_str(), mail.to_name.as_str()),
        ("ada@example.com", "Ada")
    );
    assert_eq!(mail.thread, Some(GameId(Uuid::from_u128(7))));
    // The job's id, tagged with the numbered moves' tag.
    assert_eq!(mail.message_id, "turn-1.l0123456789abcdef");
    let id = format!("<{}@herald.test>", mail.message_id);
    assert!(super::numbered_these(&id, "l0123456789abcdef"));
    assert!(!super::numbered_these(&id, "l0123456789abcdee"));
    assert!(!super::numbered_these(
        "<turn-1@herald.test>",
        "l0123456789abcdef"
    ));
    assert_eq!(
        mail.reply_to.as_deref(),
        Some("play+REPLY@mail.herald.test")
    );
    assert_eq!(
        mail.unsubscribe_url.as_deref(),
        Some("https://herald.test/unsubscribe/UNSUB")
    );
    assert_eq!(mail.links, vec!["https://herald.test/play/7?t=PLAY"]);
    let text = &mail.text;
    assert!(text.starts_with("Hello Ada,\r\n"), "{text}");
    assert!(text.contains("Since your last move:\r\n- Bruno rolled 3 and 7.\r\n"));
    // The end is the game-over mail's business.
    assert!(
        !text.contains("game_over") && !text.contains("winners"),
        "{text}"
    );
    // The deadline in the reader's zone, the time left counted from the value's `now`.
    assert!(
        text.contains("Your deadline: 2026-03-02 21:00 CET (10 hours from now)."),
        "{text}"
    );
    assert!(text.contains("Your hand: 1M, 2V"), "{text}");
    // Forty moves listed and numbered from 1, the rest counted.
    assert!(text.contains("    1. move 0\r\n"), "{text}");
    assert!(text.contains("    40. move 39\r\n"), "{text}");
    assert!(!text.contains("move 40"), "{text}");
    assert!(text.contains("    … and "), "{text}");
    assert!(
        mail.html.contains("<ol><li><code>move 0</code></li>"),
        "{}",
        mail.html
    );
    assert!(text.contains("https://herald.test/rules/magnate?lang=xx"));
    assert!(
        text.contains("-- \r\n") && text.contains("/unsubscribe/UNSUB"),
        "{text}"
    );
    assert!(
        mail.html.contains("<li>Bruno rolled 3 and 7.</li>"),
        "{}",
        mail.html
    );
}

#[test]
fn a_turn_mail_speaks_the_readers_language() {
    let mail = turn(&turn_value(Locale::Es));
    assert_eq!(mail.subject, "Te toca en Magnate con Bruno");
    assert!(mail.text.starts_with("Hola, Ada:\r\n"), "{}", mail.text);
    assert!(
        mail.text
            .contains("Desde tu última jugada:\r\n- Bruno tiró 3 y 7.\r\n")
    );
    assert!(
        mail.text.contains("Tu plazo: 2026-03-02 21:00 CET"),
        "{}",
        mail.text
    );
    assert!(
        mail.html.starts_with("<!DOCTYPE html><html lang=\"es\">"),
        "{}",
        mail.html
    );
    let deciding = turn(&Turn {
        deciding: true,
        by_mail: None,
        deadline: None,
        ..turn_value(Locale::Es)
    });
    assert_ne!(deciding.subject, mail.subject);
    assert_eq!(deciding.reply_to, None);
    assert!(!deciding.text.contains("Tu plazo"));
}

fn over_value(locale: Locale, winners: Vec<i16>, outcome: Value) -> GameOver {
    GameOver {
        seat: to_ada(locale, "over-1"),
        winners,
        view: view(),
        outcome,
        seed: "ab".repeat(32),
        commitment: "cd".repeat(32),
        fairness_url: "https://herald.test/api/v1/games/7/fairness".to_owned(),
    }
}

#[test]
fn a_game_over_mail_is_written_from_its_value_alone() {
    let mail = game_over(&over_value(Locale::En, vec![0], json!({"reason": "score"})));
    assert_eq!(mail.subject, "Game over: Magnate with Bruno");
    let text = &mail.text;
    assert!(text.contains("You won.\r\n"), "{text}");
    assert!(text.contains("Final score:\r\n- Ada: 3 districts won (tie-break total 12)\r\n- Bruno: 1 district won (tie-break total 9)\r\n"), "{text}");
    assert!(text.contains(&"ab".repeat(32)) && text.contains(&"cd".repeat(32)));
    assert!(text.contains("https://herald.test/api/v1/games/7/fairness"));
    assert!(!text.contains("lost on time"), "{text}");
    assert_eq!(mail.links, vec!["https://herald.test/play/7?t=PLAY"]);
}

#[test]
fn a_game_over_mail_in_french_names_the_winner_and_the_late() {
    let outcome = json!({"reason": "timeout", "timed_out": 0});
    let mail = game_over(&over_value(Locale::Fr, vec![1], outcome));
    assert_eq!(mail.subject, "Partie terminée : Magnate avec Bruno");
    let text = &mail.text;
    assert!(text.starts_with("Bonjour Ada,\r\n"), "{text}");
    assert!(text.contains("Bruno a gagné.\r\n"), "{text}");
    assert!(text.contains("Vous avez perdu au temps"), "{text}");
    assert!(
        text.contains("Score final :\r\n- Ada : 3 quartiers gagnés (départage 12)"),
        "{text}"
    );
    let shared = game_over(&over_value(Locale::Fr, vec![0, 1], json!(null)));
    assert!(shared.text.contains("Ada et Bruno"), "{}", shared.text);
}
