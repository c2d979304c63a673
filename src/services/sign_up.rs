//! Web sign-up (design.md section 19): an address, a mailed single-use link, then the display
//! name; no password. An address that already has an account gets a sign-in link instead, and the
//! answer is the same either way, so the form never tells who is registered.

use super::accounts::{self, Account};
use crate::domain::{DisplayName, EmailAddress, Locale};
use crate::email::jobs::{SignUpMail, message_id};
use crate::error::ApiError;
use crate::jobs::{self, BackgroundJob};
use crate::schema::{email_links, users};
use chrono::{TimeDelta, Utc};
use diesel::prelude::*;
use uuid::Uuid;

/// How long a mailed sign-up link works: a day, as a newcomer may read the mail later.
pub const SIGN_UP_LINK_TTL_S: i64 = 24 * 3600;

/// Mails a sign-up link to `email`, or a sign-in link when it already has an account.
///
/// # Errors
/// Database failures.
pub fn request(
    conn: &mut PgConnection,
    email: &EmailAddress,
    locale: Locale,
) -> Result<(), ApiError> {
    let registered: i64 = users::table
        .filter(users::email.eq(email.as_str()))
        .count()
        .get_result(conn)?;
    if registered > 0 {
        return super::notifications::request_sign_in_link(conn, email.as_str());
    }
    let link = Uuid::new_v4();
    conn.transaction::<_, ApiError, _>(|conn| {
        // As for sign-in links, the token is signed when the mail goes out; until then the row
        // holds the hash of random bytes that no token has.
        let placeholder = crate::auth::token_hash(&hex::encode(crate::auth::random_bytes::<32>()));
        diesel::insert_into(email_links::table)
            .values((
                email_links::id.eq(link),
                email_links::token_hash.eq(placeholder.to_vec()),
                email_links::email.eq(email.as_str()),
                email_links::purpose.eq("sign_up"),
                email_links::expires_at.eq(Utc::now() + TimeDelta::seconds(SIGN_UP_LINK_TTL_S)),
            ))
            .execute(conn)?;
        let mail = SignUpMail {
            link_id: link,
            locale: locale.as_str().to_owned(),
            message_id: message_id(),
        };
        jobs::enqueue(conn, &[mail.job()])?;
        Ok(())
    })?;
    tracing::info!(link.id = %link, "sign-up link queued");
    jobs::wake();
    Ok(())
}

/// The address of a sign-up link that can still be used (read without spending it).
///
/// # Errors
/// Database failures.
pub fn pending(conn: &mut PgConnection, link: Uuid) -> QueryResult<Option<String>> {
    email_links::table
        .find(link)
        .filter(email_links::purpose.eq("sign_up"))
        .filter(email_links::used_at.is_null())
        .filter(email_links::expires_at.gt(Utc::now()))
        .select(email_links::email)
        .first(conn)
        .optional()
}

/// Spends the sign-up link and makes the account; `None` when the link was already used or has
/// expired. Run it in the caller's transaction (which also starts the session).
///
/// # Errors
/// 409 when the address got an account meanwhile; database failures.
pub fn complete(
    conn: &mut PgConnection,
    link: Uuid,
    name: &DisplayName,
    locale: Locale,
) -> Result<Option<Account>, ApiError> {
    let now = Utc::now();
    let email: Option<String> = diesel::update(
        email_links::table
            .find(link)
            .filter(email_links::purpose.eq("sign_up"))
            .filter(email_links::used_at.is_null())
            .filter(email_links::expires_at.gt(now)),
    )
    .set(email_links::used_at.eq(Some(now)))
    .returning(email_links::email)
    .get_result(conn)
    .optional()?;
    let Some(email) = email else {
        return Ok(None);
    };
    let address = EmailAddress::parse(&email)
        .map_err(|e| ApiError::internal(anyhow::anyhow!("stored sign-up address: {}", e.0)))?;
    let account = accounts::register(conn, &address, name, locale, None)?;
    // The account was made from a mailed link: its address works.
    accounts::address_works(conn, account.id)?;
    Ok(Some(account))
}
