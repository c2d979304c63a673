//! "X invites you to play": to an invited seat, with or without an account.

use super::{Doc, Mail, Recipient, Table, blank, finish, footer, rules_line};
use crate::email::i18n;

/// What the invitation says.
#[derive(Debug, Clone)]
pub struct Invitation {
    /// The invitee: their account's name and language, or their address in English.
    pub to: Recipient,
    pub table: Table,
    pub seat: i16,
    /// The game's preset (`standard` when none).
    pub variant: String,
    /// A play link for an account, an invitation link for an address without one.
    pub url: String,
    /// Only an account has unsubscribe settings.
    pub unsubscribe_url: Option<String>,
    pub rules_url: String,
    pub message_id: String,
}

pub fn invitation(v: &Invitation) -> Mail {
    let locale = v.to.locale;
    let inviter = v.table.name_of(0);
    let game = v.table.game_name();
    let subject = i18n::fill(
        locale,
        &i18n::INVITE_SUBJECT,
        &[("inviter", &inviter), ("game", game)],
    );
    let mut doc = Doc::new(locale, &v.to.name);
    doc.paragraphs.push(i18n::fill(
        locale,
        &i18n::INVITE_BODY,
        &[
            ("inviter", &inviter),
            ("game", game),
            ("variant", &v.variant),
            ("players", &v.table.opponents(v.seat, locale)),
        ],
    ));
    doc.link = Some((
        i18n::pick(locale, &i18n::INVITE_CTA).to_owned(),
        v.url.clone(),
    ));
    let mut mail = blank(&v.to, subject, &v.message_id, Some(v.table.game));
    if let Some(url) = &v.unsubscribe_url {
        footer(url, locale, &mut mail, &mut doc);
    }
    doc.rules = Some(rules_line(locale, game, &v.rules_url));
    finish(mail, &doc)
}
