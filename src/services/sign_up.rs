//! Web sign-up (design.md section 19): an address, a mailed single-use link, then the display
//! name; no password. An address that already has an account gets a sign-in link instead, and the
//! answer is the same either way, so the form never tells who is registered.

use super::accounts::{self, Account};
use super::notifications::SIGN_IN_LINK_TTL_S;
use crate::domain::{DisplayName, EmailAddress, Locale};
use crate::email::jobs::{SignInMail, SignUpMail, message_id};
use crate::error::ApiError;
use crate::jobs::{self, BackgroundJob};
use crate::schema::email_links;
use chrono::Utc;
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
    use diesel::sql_types::{BigInt, Bytea, Text};
    // One statement either way, writing one link row and one job (a sign-in link and its mail
    // for an account, a sign-up link and its mail for anyone else), whose worker then sends one
    // mail: the same work before the answer and after it, so that its time does not tell whether
    // the address is registered (design.md section 20). Looking the account up first and then
    // taking one of two paths took one statement more for the address without one.
    //
    // As for sign-in links, the token is signed when the mail goes out; until then the row holds
    // the hash of random bytes that no token has.
    let placeholder = crate::auth::token_hash(&hex::encode(crate::auth::random_bytes::<32>()));
    diesel::sql_query(
        "WITH u AS (SELECT (SELECT id FROM users WHERE email = $1) AS id), \
              l AS (INSERT INTO email_links (id, token_hash, user_id, email, purpose, expires_at) \
                    SELECT gen_random_uuid(), $2, u.id, $1, \
                           CASE WHEN u.id IS NULL THEN 'sign_up' ELSE 'sign_in' END, \
                           now() + make_interval(secs => \
                             CASE WHEN u.id IS NULL THEN $3 ELSE $4 END) \
                    FROM u \
                    RETURNING id, user_id) \
         INSERT INTO jobs (kind, payload) \
         SELECT CASE WHEN l.user_id IS NULL THEN $5 ELSE $6 END, \
                CASE WHEN l.user_id IS NULL \
                  THEN jsonb_build_object('link_id', l.id, 'locale', $7, 'message_id', $8) \
                  ELSE jsonb_build_object('link_id', l.id, 'user_id', l.user_id, \
                                          'message_id', $8) END \
         FROM l",
    )
    .bind::<Text, _>(email.as_str())
    .bind::<Bytea, _>(placeholder.to_vec())
    .bind::<BigInt, _>(SIGN_UP_LINK_TTL_S)
    .bind::<BigInt, _>(SIGN_IN_LINK_TTL_S)
    .bind::<Text, _>(SignUpMail::KIND)
    .bind::<Text, _>(SignInMail::KIND)
    .bind::<Text, _>(locale.as_str())
    .bind::<Text, _>(message_id())
    .execute(conn)?;
    tracing::info!("sign-up form: link queued");
    // Not at once: the answer goes out first (see `wake_soon`).
    jobs::wake_soon();
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
