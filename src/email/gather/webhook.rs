//! What the disabled-webhook mail says.

use super::{Context, Recipient, db};
use crate::email::compose::webhook::WebhookDisabled;
use crate::email::jobs::WebhookDisabledMail;
use crate::jobs::JobError;
use crate::models::User;
use crate::schema::{users, webhooks};
use diesel::prelude::*;

/// The webhook's address and its owner.
///
/// # Errors
/// Database failures (retried).
pub fn webhook_disabled(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &WebhookDisabledMail,
) -> Result<Option<WebhookDisabled>, JobError> {
    let found: Option<(String, User)> = webhooks::table
        .inner_join(users::table)
        .filter(webhooks::id.eq(p.webhook_id))
        .select((webhooks::url, User::as_select()))
        .first(conn)
        .optional()
        .map_err(db)?;
    Ok(found.map(|(url, user)| WebhookDisabled {
        to: Recipient::account(&user),
        url,
        settings_url: format!("{}/settings", ctx.public_url),
        message_id: p.message_id.clone(),
    }))
}
