//! "Your move" (or "you must decide"): to a seat that became pending, with what happened since
//! its own last move, what it holds, and its deadline.

use super::{ByMail, Mail, SeatMail, deadline_words};
use crate::email::i18n;
use chrono::{DateTime, Utc};
use serde_json::Value;

#[derive(Debug, Clone)]
pub struct Turn {
    pub seat: SeatMail,
    /// The seat's own view of the game.
    pub view: Value,
    /// The events since the seat's last move that the seat may see, in order.
    pub events: Vec<Value>,
    /// A decision outside a turn of its own (a vote, a defence).
    pub deciding: bool,
    /// The seat's deadline, under a clock.
    pub deadline: Option<DateTime<Utc>>,
    /// When the mail was gathered: the time left is counted from here.
    pub now: DateTime<Utc>,
    pub by_mail: Option<ByMail>,
}

pub fn turn(v: &Turn) -> Mail {
    let seat = &v.seat;
    let locale = seat.to.locale;
    let subject_t = if v.deciding {
        &i18n::DECIDE_SUBJECT
    } else {
        &i18n::TURN_SUBJECT
    };
    let mut doc = seat.doc();
    doc.paragraphs.push(seat.fill(&i18n::TURN_BODY, &[]));
    if let Some(deadline) = v.deadline {
        let (when, left) = deadline_words(&seat.to, deadline, v.now);
        doc.paragraphs.push(i18n::fill(
            locale,
            &i18n::DEADLINE,
            &[("when", &when), ("left", &left)],
        ));
    }
    let lines = seat.table.event_lines(locale, &v.events);
    if !lines.is_empty() {
        doc.list_heading = Some(i18n::pick(locale, &i18n::SINCE).to_owned());
        doc.list = lines;
    }
    // What the reader holds (their hand, their supplies): from their own view only.
    doc.after.extend(seat.holds(&v.view));
    if let Some(by_mail) = &v.by_mail {
        by_mail.write(locale, &mut doc);
    }
    seat.write(&i18n::PLAY_CTA, seat.fill(subject_t, &[]), doc)
}
