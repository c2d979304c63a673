//! The mails that remind a seat of its game: a deadline is near, an opponent is on vacation.

use super::{ByMail, Mail, SeatMail, deadline_words, local_time};
use crate::email::i18n;
use chrono::{DateTime, Utc};

/// A reminder before a deadline.
#[derive(Debug, Clone)]
pub struct Reminder {
    pub seat: SeatMail,
    pub deadline: DateTime<Utc>,
    /// When the mail was gathered: the time left is counted from here.
    pub now: DateTime<Utc>,
    /// A reminder is a turn mail too: it may be answered with the move.
    pub by_mail: Option<ByMail>,
}

pub fn reminder(v: &Reminder) -> Mail {
    let seat = &v.seat;
    let (when, left) = deadline_words(&seat.to, v.deadline, v.now);
    let subject = seat.fill(&i18n::REMINDER_SUBJECT, &[("left", &left)]);
    let mut doc = seat.doc();
    doc.paragraphs
        .push(seat.fill(&i18n::REMINDER_BODY, &[("when", &when)]));
    if let Some(by_mail) = &v.by_mail {
        by_mail.write(seat.to.locale, &mut doc);
    }
    seat.write(&i18n::PLAY_CTA, subject, doc)
}

/// An opponent is on vacation until `until`.
#[derive(Debug, Clone)]
pub struct Vacation {
    pub seat: SeatMail,
    /// The opponent's display name.
    pub away: String,
    pub until: DateTime<Utc>,
}

pub fn vacation(v: &Vacation) -> Mail {
    let seat = &v.seat;
    let until = local_time(&seat.to, v.until);
    let subject = seat.fill(&i18n::VACATION_SUBJECT, &[("p", &v.away)]);
    let mut doc = seat.doc();
    doc.paragraphs
        .push(seat.fill(&i18n::VACATION_BODY, &[("p", &v.away), ("until", &until)]));
    seat.write(&i18n::SEE_GAME, subject, doc)
}
