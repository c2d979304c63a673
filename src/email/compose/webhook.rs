//! The mail to a webhook's owner when it was disabled after 3 days of failed deliveries.

use super::{Context, Doc, Mail, blank, db, finish};
use crate::domain::Locale;
use crate::email::jobs::WebhookDisabledMail;
use crate::jobs::JobError;
use crate::present::T;
use crate::schema::{users, webhooks};
use diesel::prelude::*;

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

/// The disabled-webhook mail.
///
/// # Errors
/// Database failures (retried).
pub fn disabled(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &WebhookDisabledMail,
) -> Result<Option<Mail>, JobError> {
    let found: Option<(String, crate::models::User)> = webhooks::table
        .inner_join(users::table)
        .filter(webhooks::id.eq(p.webhook_id))
        .select((webhooks::url, crate::models::User::as_select()))
        .first(conn)
        .optional()
        .map_err(db)?;
    let Some((url, user)) = found else {
        return Ok(None);
    };
    let locale = Locale::from_db(&user.locale);
    let mut doc = Doc::new(locale, &user.display_name);
    doc.paragraphs
        .push(crate::present::fill(locale, &BODY, &[("url", &url)]));
    doc.link = Some((
        crate::present::pick(locale, &SETTINGS).to_owned(),
        format!("{}/settings", ctx.public_url),
    ));
    let subject = crate::present::pick(locale, &SUBJECT).to_owned();
    Ok(Some(finish(
        blank(&user, subject, p.message_id.clone(), None),
        &doc,
    )))
}
