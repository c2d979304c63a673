//! The mail to a webhook's owner when it was disabled after 3 days of failed deliveries.

use super::{Doc, Mail, Recipient, blank, finish};
use crate::present::{T, fill, pick};

const SUBJECT: T = [
    "Your webhook was disabled",
    "Tu webhook se ha desactivado",
    "Il tuo webhook è stato disattivato",
    "Votre webhook a été désactivé",
];
const BODY: T = [
    "Every delivery to {url} has failed for 3 days, so herald stopped sending to it. Its events are kept: subscribe again when the receiver works, and read the missed events with GET /api/v1/me/events?after=N.",
    "Todas las entregas a {url} han fallado durante 3 días, así que herald ha dejado de enviarlas. Los eventos se conservan: suscríbete de nuevo cuando el receptor funcione y lee los que faltan con GET /api/v1/me/events?after=N.",
    "Tutte le consegne a {url} sono fallite per 3 giorni, quindi herald ha smesso di inviarle. Gli eventi restano: iscriviti di nuovo quando il ricevitore funziona e leggi quelli mancati con GET /api/v1/me/events?after=N.",
    "Toutes les livraisons vers {url} échouent depuis 3 jours : herald a cessé de les envoyer. Les événements sont conservés : abonnez-vous à nouveau quand le récepteur fonctionne et lisez ceux manqués avec GET /api/v1/me/events?after=N.",
];
const SETTINGS: T = [
    "Your account:",
    "Tu cuenta:",
    "Il tuo account:",
    "Votre compte :",
];

/// The disabled webhook and its owner.
#[derive(Debug, Clone)]
pub struct WebhookDisabled {
    pub to: Recipient,
    /// The receiver's address.
    pub url: String,
    pub settings_url: String,
    pub message_id: String,
}

pub fn disabled(v: &WebhookDisabled) -> Mail {
    let locale = v.to.locale;
    let mut doc = Doc::new(locale, &v.to.name);
    doc.paragraphs.push(fill(locale, &BODY, &[("url", &v.url)]));
    doc.link = Some((pick(locale, &SETTINGS).to_owned(), v.settings_url.clone()));
    let subject = pick(locale, &SUBJECT).to_owned();
    finish(blank(&v.to, subject, &v.message_id, None), &doc)
}
