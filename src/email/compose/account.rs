//! The account's own mails: a sign-in link, a sign-up link.

use super::{Doc, Mail, Recipient, blank, finish};
use crate::email::i18n;

/// A one-time sign-in link.
#[derive(Debug, Clone)]
pub struct SignIn {
    pub to: Recipient,
    pub url: String,
    /// How long the link still works, in seconds.
    pub left_s: i64,
    pub message_id: String,
}

pub fn sign_in(v: &SignIn) -> Mail {
    let locale = v.to.locale;
    let subject = i18n::pick(locale, &i18n::SIGN_IN_SUBJECT).to_owned();
    let mut doc = Doc::new(locale, &v.to.name);
    let minutes = (v.left_s / 60).to_string();
    doc.paragraphs.push(i18n::fill(
        locale,
        &i18n::SIGN_IN_BODY,
        &[("minutes", &minutes)],
    ));
    doc.link = Some((
        i18n::pick(locale, &i18n::SIGN_IN_CTA).to_owned(),
        v.url.clone(),
    ));
    finish(blank(&v.to, subject, &v.message_id, None), &doc)
}

/// A sign-up link for an address without an account (`to` is the address, in the language of
/// the page it was asked from).
#[derive(Debug, Clone)]
pub struct SignUp {
    pub to: Recipient,
    pub url: String,
    /// How long the link still works, in seconds.
    pub left_s: i64,
    pub message_id: String,
}

pub fn sign_up(v: &SignUp) -> Mail {
    let locale = v.to.locale;
    let mut doc = Doc::new(locale, "");
    doc.greeting = i18n::pick(locale, &i18n::WELCOME).to_owned();
    let hours = (v.left_s / 3600).max(1).to_string();
    doc.paragraphs.push(i18n::fill(
        locale,
        &i18n::SIGN_UP_BODY,
        &[("hours", &hours)],
    ));
    doc.link = Some((
        i18n::pick(locale, &i18n::SIGN_UP_CTA).to_owned(),
        v.url.clone(),
    ));
    let subject = i18n::pick(locale, &i18n::SIGN_UP_SUBJECT).to_owned();
    finish(blank(&v.to, subject, &v.message_id, None), &doc)
}
