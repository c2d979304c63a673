//! What the account's own mails say: a sign-in link, a sign-up link, the daily digest.

use super::{Context, Loaded, Recipient, db, unsubscribe_url, user};
use crate::auth::links::PlayGrant;
use crate::domain::{GameId, Locale, UserId};
use crate::email::compose::account::{SignIn, SignUp};
use crate::email::compose::digest::{Digest, Waiting};
use crate::email::jobs::{DigestMail, SignInMail, SignUpMail};
use crate::jobs::JobError;
use crate::models::User;
use crate::schema::{email_links, game_seats, games, users};
use crate::services::notifications::{self, Mode};
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

/// A link shorter-lived than this is not worth sending.
const LEAST_LEFT_S: i64 = 60;

/// Stores the hash of the token a link mail carries, in the worker's transaction: if the send
/// fails, the row keeps its old hash.
fn store_token(conn: &mut PgConnection, link: Uuid, token: &str) -> Result<(), JobError> {
    diesel::update(email_links::table.find(link))
        .set(email_links::token_hash.eq(crate::auth::token_hash(token)))
        .execute(conn)
        .map_err(db)?;
    Ok(())
}

/// What a sign-in link job comes to, once its link is still worth sending.
pub enum SignInLink {
    /// The mail to the account of the link's row.
    Account(SignIn),
    /// The row has no account: the same mail, written with a token that nothing accepts, to be
    /// dropped unsent. Its only use is to cost what [`SignInLink::Account`] costs.
    NoAccount(SignIn),
}

/// A sign-in link's row: when it was used, when it expires, its address and its account.
type SignInRow = (Option<DateTime<Utc>>, DateTime<Utc>, String, Option<User>);

/// A sign-in link, unless it was used or has (nearly) expired.
pub fn sign_in(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &SignInMail,
) -> Result<Option<SignInLink>, JobError> {
    // The account is the row's (set when the link was asked for), never one found by the
    // address now: an address that registers meanwhile was asked for without one.
    let row: Option<SignInRow> = email_links::table
        .left_join(users::table)
        .filter(email_links::id.eq(p.link_id))
        .select((
            email_links::used_at,
            email_links::expires_at,
            email_links::email,
            Option::<User>::as_select(),
        ))
        .first(conn)
        .optional()
        .map_err(db)?;
    let Some((None, expires_at, email, account)) = row else {
        return Ok(None);
    };
    let left_s = (expires_at - Utc::now()).num_seconds();
    if left_s < LEAST_LEFT_S {
        return Ok(None);
    }
    // Without an account the token names the nil user, whom no row has: `use_sign_in_link`
    // spends a row only for the user it holds, and this row holds none.
    let (to, user) = match &account {
        Some(user) => (Recipient::account(user), UserId(user.id)),
        None => (
            Recipient::address(&email, None, Locale::En),
            UserId(Uuid::nil()),
        ),
    };
    let token = ctx.links.sign_in_link(user, p.link_id, left_s);
    store_token(conn, p.link_id, &token)?;
    let mail = SignIn {
        to,
        url: format!("{}/sign-in/{token}", ctx.public_url),
        left_s,
        message_id: p.message_id.clone(),
    };
    Ok(Some(match account {
        Some(_) => SignInLink::Account(mail),
        None => SignInLink::NoAccount(mail),
    }))
}

/// The sign-up link of an address without an account (nothing is sent once the link was used,
/// has nearly expired, or the address got an account meanwhile).
pub fn sign_up(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &SignUpMail,
) -> Result<Option<SignUp>, JobError> {
    let row: Option<(String, Option<DateTime<Utc>>, DateTime<Utc>)> = email_links::table
        .find(p.link_id)
        .filter(email_links::purpose.eq("sign_up"))
        .select((
            email_links::email,
            email_links::used_at,
            email_links::expires_at,
        ))
        .first(conn)
        .optional()
        .map_err(db)?;
    let Some((email, None, expires_at)) = row else {
        return Ok(None);
    };
    let left_s = (expires_at - Utc::now()).num_seconds();
    let registered: i64 = users::table
        .filter(users::email.eq(&email))
        .count()
        .get_result(conn)
        .map_err(db)?;
    if left_s < LEAST_LEFT_S || registered > 0 {
        return Ok(None);
    }
    let token = ctx.links.sign_up_link(p.link_id, left_s);
    store_token(conn, p.link_id, &token)?;
    Ok(Some(SignUp {
        to: Recipient::address(&email, None, Locale::from_db(&p.locale)),
        url: format!("{}/sign-up/{token}", ctx.public_url),
        left_s,
        message_id: p.message_id.clone(),
    }))
}

/// The daily digest of an account that chose it, unless no game waits for it.
pub fn digest(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &DigestMail,
) -> Result<Option<Digest>, JobError> {
    let Some(user) = user(conn, p.user_id)? else {
        return Ok(None);
    };
    if notifications::mode(conn, UserId(user.id)).map_err(db)? != Mode::DailyDigest {
        return Ok(None);
    }
    // Most urgent first: with no deadlines yet, the game that has waited longest.
    let rows: Vec<(Uuid, i16, DateTime<Utc>)> = game_seats::table
        .inner_join(games::table)
        .filter(game_seats::user_id.eq(user.id))
        .filter(game_seats::is_pending.eq(true))
        .filter(games::status.eq("active"))
        .order((games::updated_at.asc(), games::id))
        .select((games::id, game_seats::seat, games::updated_at))
        .limit(50)
        .load(conn)
        .map_err(db)?;
    if rows.is_empty() {
        return Ok(None);
    }
    let mut waiting = Vec::new();
    for (game_id, seat, since) in rows {
        let Some(game) = Loaded::load(conn, game_id)? else {
            continue;
        };
        waiting.push(Waiting {
            table: game.table,
            seat,
            since,
            play_url: ctx.play_url(PlayGrant {
                user: UserId(user.id),
                game: GameId(game_id),
                seat,
            }),
        });
    }
    Ok(Some(Digest {
        unsubscribe_url: unsubscribe_url(conn, ctx, UserId(user.id))?,
        to: Recipient::account(&user),
        waiting,
        message_id: p.message_id.clone(),
    }))
}
