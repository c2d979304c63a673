//! The daily list of games waiting for the reader, most urgent first.

use super::{Doc, Mail, Recipient, Table, blank, finish, footer};
use crate::email::i18n;
use chrono::{DateTime, Utc};

/// One game waiting for the reader's seat.
#[derive(Debug, Clone)]
pub struct Waiting {
    pub table: Table,
    pub seat: i16,
    /// Since when it has waited.
    pub since: DateTime<Utc>,
    pub play_url: String,
}

#[derive(Debug, Clone)]
pub struct Digest {
    pub to: Recipient,
    pub waiting: Vec<Waiting>,
    pub unsubscribe_url: String,
    pub message_id: String,
}

pub fn digest(v: &Digest) -> Mail {
    let locale = v.to.locale;
    let count = v.waiting.len().to_string();
    let subject = i18n::fill(locale, &i18n::DIGEST_SUBJECT, &[("count", &count)]);
    let mut doc = Doc::new(locale, &v.to.name);
    doc.list_heading = Some(i18n::pick(locale, &i18n::DIGEST_BODY).to_owned());
    let mut mail = blank(&v.to, subject, &v.message_id, None);
    for w in &v.waiting {
        doc.list.push(i18n::fill(
            locale,
            &i18n::DIGEST_LINE,
            &[
                ("game", w.table.game_name()),
                ("opponents", &w.table.opponents(w.seat, locale)),
                ("since", &w.since.format("%Y-%m-%d %H:%M UTC").to_string()),
                ("link", &w.play_url),
            ],
        ));
        mail.links.push(w.play_url.clone());
    }
    footer(&v.unsubscribe_url, locale, &mut mail, &mut doc);
    finish(mail, &doc)
}
