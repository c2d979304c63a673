//! To the creator: an invitee declined; the seat stays empty until they invite someone else.

use super::{Mail, SeatMail};
use crate::email::i18n;

#[derive(Debug, Clone)]
pub struct Declined {
    pub seat: SeatMail,
    /// Who declined.
    pub by: String,
}

pub fn declined(v: &Declined) -> Mail {
    let seat = &v.seat;
    let subject = seat.fill(&i18n::DECLINED_SUBJECT, &[("p", &v.by)]);
    let mut doc = seat.doc();
    doc.paragraphs
        .push(seat.fill(&i18n::DECLINED_BODY, &[("p", &v.by)]));
    seat.write(&i18n::SEE_GAME, subject, doc)
}
