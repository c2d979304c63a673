//! The answer to a reply by mail (moves by email): in the reply's thread, marked automatic.
//! A played move shows what it did and the position now; a refused one why, and the position
//! now; both list the legal moves and carry a fresh reply address while the seat is pending. A
//! mail that may not move gets a short polite answer that tells nothing about any game.

use super::{ByMail, Doc, Mail, Recipient, SeatMail, blank, finish};
use crate::domain::{GameId, Locale};
use crate::email::i18n;
use crate::email::jobs::NotAllowed;
use serde_json::Value;

/// What the answer answers.
#[derive(Debug, Clone)]
pub enum Answer {
    /// The mail may not move: why, and nothing else.
    NotAllowed(Polite),
    /// A move of the seat's player, played or refused.
    Move(Box<OnMove>),
}

/// The polite answer, in the language of the sender's account if they have one.
#[derive(Debug, Clone)]
pub struct Polite {
    pub to: Recipient,
    pub why: NotAllowed,
    /// Only a forward from the seat's own address names its game.
    pub thread: Option<GameId>,
    pub message_id: String,
}

/// What became of a move sent by mail.
#[derive(Debug, Clone)]
pub enum Outcome {
    Played {
        /// The line of the mail that was read as the move.
        line: String,
    },
    Refused {
        line: Option<String>,
        code: String,
        rule: Option<String>,
        detail: String,
    },
}

/// The answer about a move of `seat`, to the seat's player.
#[derive(Debug, Clone)]
pub struct OnMove {
    pub seat: SeatMail,
    pub outcome: Outcome,
    /// The events the seat may see since the move (played) or since its own last move
    /// (refused, as the turn mail shows them).
    pub events: Vec<Value>,
    /// The seat's view now.
    pub view: Value,
    /// The game's stored outcome, once it is over.
    pub finished: Option<Value>,
    /// Whether the seat is still to act.
    pub pending: bool,
    pub by_mail: Option<ByMail>,
}

/// The answer, in the thread of the reply it answers (`in_reply_to`).
pub fn answer(v: &Answer, in_reply_to: Option<&str>) -> Mail {
    let mut mail = match v {
        Answer::NotAllowed(polite) => not_allowed(polite),
        Answer::Move(on_move) => on_move_answer(on_move),
    };
    mail.in_reply_to = in_reply_to.map(str::to_owned);
    mail.auto_replied = true;
    mail
}

fn not_allowed(v: &Polite) -> Mail {
    let locale = v.to.locale;
    let mut doc = Doc::new(locale, &v.to.name);
    let reason = match v.why {
        NotAllowed::UnknownAddress => &i18n::UNKNOWN_ADDRESS,
        NotAllowed::Expired => &i18n::EXPIRED_ADDRESS,
        NotAllowed::OtherSeat => &i18n::OTHER_SEAT,
        NotAllowed::Forwarded => &i18n::FORWARDED,
    };
    doc.paragraphs.push(i18n::pick(locale, reason).to_owned());
    doc.paragraphs
        .push(i18n::pick(locale, &i18n::ONCE_A_DAY).to_owned());
    let subject = i18n::pick(locale, &i18n::NOT_PLAYED_SUBJECT).to_owned();
    finish(blank(&v.to, subject, &v.message_id, v.thread), &doc)
}

fn on_move_answer(v: &OnMove) -> Mail {
    let seat = &v.seat;
    let locale = seat.to.locale;
    let mut doc = seat.doc();
    let subject = match &v.outcome {
        Outcome::Played { line } => {
            doc.paragraphs.push(i18n::fill(
                locale,
                &i18n::PLAYED_BODY,
                &[("line", line.as_str())],
            ));
            seat.fill(&i18n::PLAYED_SUBJECT, &[])
        }
        Outcome::Refused {
            line,
            code,
            rule,
            detail,
        } => {
            if let Some(line) = line {
                doc.paragraphs.push(i18n::fill(
                    locale,
                    &i18n::REFUSED_BODY,
                    &[("line", line.as_str())],
                ));
            }
            // "The game is over" is said below, with the result.
            if !(code == "game_over" && v.finished.is_some()) {
                doc.paragraphs
                    .push(refusal_reason(locale, code, rule.as_deref(), detail));
            }
            // The engines word their refusals in English: the rule itself, in the reader's
            // language, is a link away.
            if let Some((rule, url)) = rule
                .as_deref()
                .and_then(|rule| Some((rule, seat.rule_url(rule)?)))
            {
                doc.paragraphs.push(i18n::fill(
                    locale,
                    &i18n::RULE_EXPLAINED,
                    &[("rule", rule), ("url", &url)],
                ));
            }
            seat.fill(&i18n::REFUSED_SUBJECT, &[])
        }
    };
    let lines = seat.table.event_lines(locale, &v.events);
    if !lines.is_empty() {
        doc.list_heading = Some(i18n::pick(locale, &i18n::WHAT_HAPPENED).to_owned());
        doc.list = lines;
    }
    if let Some(outcome) = &v.finished {
        doc.after
            .push(i18n::pick(locale, &i18n::OVER_NOW).to_owned());
        doc.after.extend(seat.result(&v.view, outcome));
    } else {
        doc.after.extend(seat.holds(&v.view));
        if !v.pending {
            doc.after
                .push(i18n::pick(locale, &i18n::NOT_YOUR_TURN_ANY_MORE).to_owned());
        }
    }
    if let Some(by_mail) = &v.by_mail {
        by_mail.write(locale, &mut doc);
    }
    seat.write(&i18n::SEE_GAME, subject, doc)
}

/// Why a move by mail was refused, in the reader's language (a broken rule in the rulebook's
/// words, with its ID).
fn refusal_reason(locale: Locale, code: &str, rule: Option<&str>, detail: &str) -> String {
    match (code, rule) {
        ("illegal_action", Some(rule)) => i18n::fill(
            locale,
            &i18n::RULE_BROKEN,
            &[("rule", rule), ("detail", detail)],
        ),
        ("stale_version", _) => i18n::pick(locale, &i18n::STALE).to_owned(),
        ("not_your_turn", _) => i18n::pick(locale, &i18n::NOT_YOUR_TURN_NOW).to_owned(),
        ("game_over", _) => i18n::pick(locale, &i18n::OVER_NOW).to_owned(),
        ("no_move", _) => i18n::pick(locale, &i18n::NO_MOVE).to_owned(),
        ("validation_failed", _) => i18n::fill(locale, &i18n::UNREADABLE, &[("detail", detail)]),
        _ => detail.to_owned(),
    }
}
