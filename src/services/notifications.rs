//! Notifications: each account's mail preference, the one-click unsubscribe, and the email jobs
//! that game changes write in their own transactions (design.md sections 5 and 8).
//!
//! Which mails a change causes follows the change in pending seats: every seat that becomes
//! pending gets one "your move" mail for that version, a seat that stays pending gets none, and
//! the seat whose action it was gets none. At the end every other seat gets a "game over" mail.
//! Preferences are read when a mail is sent, so a change of mind applies to mails still queued.
//!
//! Job payloads carry ids only (never a hand, a seed, an address or a token) and the id of the
//! mail's `Message-ID`, fixed here so that a retried send is recognisable.

use crate::domain::{GameId, UserId};
use crate::email::jobs::{
    DigestMail, GameOverMail, InvitationMail, ReminderMail, SignInMail, TurnMail, VacationMail,
    message_id,
};
use crate::engine::SeatSet;
use crate::error::ApiError;
use crate::jobs::{self, BackgroundJob, NewJob};
use diesel::prelude::*;
use diesel::sql_types::{Text, Uuid as SqlUuid};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// How long an emailed sign-in link works.
pub const SIGN_IN_LINK_TTL_S: i64 = 20 * 60;

/// What mail an account wants about its games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// A mail whenever a game waits for you (the default).
    #[default]
    Instant,
    /// One mail a day listing the games waiting for you, most urgent first.
    DailyDigest,
    /// No turn mails (invitations and sign-in links still come).
    Off,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Instant => "instant",
            Mode::DailyDigest => "daily_digest",
            Mode::Off => "off",
        }
    }

    pub fn from_db(text: &str) -> Mode {
        match text {
            "daily_digest" => Mode::DailyDigest,
            "off" => Mode::Off,
            _ => Mode::Instant,
        }
    }
}

#[derive(QueryableByName)]
struct ModeRow {
    #[diesel(sql_type = Text)]
    mode: String,
}

#[derive(QueryableByName)]
struct TokenRow {
    #[diesel(sql_type = Text)]
    unsubscribe_token: String,
}

#[derive(QueryableByName)]
struct UserRow {
    #[diesel(sql_type = SqlUuid)]
    user_id: Uuid,
}

fn new_token() -> String {
    hex::encode(crate::auth::random_bytes::<24>())
}

/// The account's mail preference (`instant` when never set).
///
/// # Errors
/// Database failures.
pub fn mode(conn: &mut PgConnection, user: UserId) -> Result<Mode, ApiError> {
    let row: Option<ModeRow> =
        diesel::sql_query("SELECT mode FROM notification_settings WHERE user_id = $1")
            .bind::<SqlUuid, _>(user.0)
            .get_result(conn)
            .optional()?;
    Ok(row.map_or(Mode::Instant, |r| Mode::from_db(&r.mode)))
}

/// Sets the account's mail preference. Choosing `daily_digest` schedules the first digest a day
/// from now (keeping an already scheduled one).
///
/// # Errors
/// Database failures.
pub fn set_mode(conn: &mut PgConnection, user: UserId, mode: Mode) -> Result<Mode, ApiError> {
    let row: ModeRow = diesel::sql_query(
        "INSERT INTO notification_settings (user_id, mode, unsubscribe_token, next_digest_at) \
         VALUES ($1, $2, $3, CASE WHEN $2 = 'daily_digest' THEN now() + interval '1 day' END) \
         ON CONFLICT (user_id) DO UPDATE SET mode = EXCLUDED.mode, updated_at = now(), \
           next_digest_at = CASE WHEN EXCLUDED.mode = 'daily_digest' \
             THEN coalesce(notification_settings.next_digest_at, now() + interval '1 day') END \
         RETURNING mode",
    )
    .bind::<SqlUuid, _>(user.0)
    .bind::<Text, _>(mode.as_str())
    .bind::<Text, _>(new_token())
    .get_result(conn)?;
    tracing::info!(user.id = %user, mode = %row.mode, "notification preference set");
    Ok(Mode::from_db(&row.mode))
}

/// The most reminders one decision may bring.
pub const MAX_REMINDERS: usize = 5;
/// The earliest a reminder may come: 30 days before a deadline.
pub const MAX_REMINDER_SECONDS: i32 = 30 * 24 * 3600;

/// The account's reminder offsets, largest first (the defaults when never set).
///
/// # Errors
/// Database failures.
pub fn reminders(conn: &mut PgConnection, user: UserId) -> Result<Vec<i32>, ApiError> {
    #[derive(QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Array<diesel::sql_types::Integer>>)]
        reminders_seconds: Option<Vec<i32>>,
    }
    let row: Option<Row> =
        diesel::sql_query("SELECT reminders_seconds FROM notification_settings WHERE user_id = $1")
            .bind::<SqlUuid, _>(user.0)
            .get_result(conn)
            .optional()?;
    Ok(row
        .and_then(|r| r.reminders_seconds)
        .unwrap_or_else(|| DEFAULT_REMINDERS_SECONDS.to_vec()))
}

/// Sets the account's reminder offsets (seconds before a deadline; `[]` for none).
///
/// # Errors
/// 422 naming the offending offset; database failures.
pub fn set_reminders(
    conn: &mut PgConnection,
    user: UserId,
    offsets: &[i64],
) -> Result<Vec<i32>, ApiError> {
    if offsets.len() > MAX_REMINDERS {
        return Err(ApiError::Validation(format!(
            "reminders_seconds: at most {MAX_REMINDERS} reminders, not {}",
            offsets.len()
        )));
    }
    let mut wanted = Vec::with_capacity(offsets.len());
    for (i, o) in offsets.iter().enumerate() {
        let seconds = i32::try_from(*o)
            .ok()
            .filter(|s| (1..=MAX_REMINDER_SECONDS).contains(s))
            .ok_or_else(|| {
                ApiError::Validation(format!(
                    "reminders_seconds[{i}]: 1 to {MAX_REMINDER_SECONDS} seconds before a deadline, not {o}"
                ))
            })?;
        wanted.push(seconds);
    }
    wanted.sort_unstable_by(|a, b| b.cmp(a));
    wanted.dedup();
    diesel::sql_query(
        "INSERT INTO notification_settings (user_id, unsubscribe_token, reminders_seconds) \
         VALUES ($1, $2, $3) \
         ON CONFLICT (user_id) DO UPDATE SET reminders_seconds = EXCLUDED.reminders_seconds, \
           updated_at = now()",
    )
    .bind::<SqlUuid, _>(user.0)
    .bind::<Text, _>(new_token())
    .bind::<diesel::sql_types::Array<diesel::sql_types::Integer>, _>(&wanted)
    .execute(conn)?;
    Ok(wanted)
}

/// The secret of the account's one-click unsubscribe link, created on first use.
///
/// # Errors
/// Database failures.
pub fn unsubscribe_token(conn: &mut PgConnection, user: UserId) -> Result<String, ApiError> {
    let row: TokenRow = diesel::sql_query(
        "INSERT INTO notification_settings (user_id, unsubscribe_token) VALUES ($1, $2) \
         ON CONFLICT (user_id) DO UPDATE SET user_id = EXCLUDED.user_id \
         RETURNING unsubscribe_token",
    )
    .bind::<SqlUuid, _>(user.0)
    .bind::<Text, _>(new_token())
    .get_result(conn)?;
    Ok(row.unsubscribe_token)
}

/// The locale of the account of a live unsubscribe token (for the confirmation page), `None`
/// for an unknown token.
///
/// # Errors
/// Database failures.
pub fn unsubscribe_locale(
    conn: &mut PgConnection,
    token: &str,
) -> Result<Option<crate::domain::Locale>, ApiError> {
    if !well_formed(token) {
        return Ok(None);
    }
    let row: Option<LocaleRow> = diesel::sql_query(
        "SELECT u.locale FROM notification_settings n JOIN users u ON u.id = n.user_id \
         WHERE n.unsubscribe_token = $1",
    )
    .bind::<Text, _>(token)
    .get_result(conn)
    .optional()?;
    Ok(row.map(|r| crate::domain::Locale::from_db(&r.locale)))
}

#[derive(QueryableByName)]
struct LocaleRow {
    #[diesel(sql_type = Text)]
    locale: String,
}

/// The one-click unsubscribe: turn mails off for the account of `token`.
///
/// # Errors
/// 404 for an unknown token.
pub fn unsubscribe(conn: &mut PgConnection, token: &str) -> Result<UserId, ApiError> {
    if !well_formed(token) {
        return Err(ApiError::NotFound("no such unsubscribe link".to_owned()));
    }
    let row: Option<UserRow> = diesel::sql_query(
        "UPDATE notification_settings SET mode = 'off', next_digest_at = NULL, updated_at = now() \
         WHERE unsubscribe_token = $1 RETURNING user_id",
    )
    .bind::<Text, _>(token)
    .get_result(conn)
    .optional()?;
    let user = row
        .map(|r| UserId(r.user_id))
        .ok_or_else(|| ApiError::NotFound("this unsubscribe link is not valid".to_owned()))?;
    tracing::info!(user.id = %user, "unsubscribed by one-click link");
    Ok(user)
}

/// Whether `token` could be an unsubscribe secret (hex): anything else (a NUL byte, a path
/// trick) is no link at all, answered without asking the database.
fn well_formed(token: &str) -> bool {
    !token.is_empty() && token.len() <= 128 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Jobs for the invitations of a new game (one per invited seat).
///
/// # Errors
/// Database failures.
pub fn enqueue_invitations(
    conn: &mut PgConnection,
    game: GameId,
    seats: &[i16],
) -> Result<(), ApiError> {
    let new: Vec<NewJob> = seats
        .iter()
        .map(|seat| {
            InvitationMail {
                game_id: game.0,
                seat: *seat,
                message_id: message_id(),
            }
            .job()
        })
        .collect();
    Ok(jobs::enqueue(conn, &new)?)
}

/// What a stored change did to a game, for its mails.
#[derive(Debug, Clone, Copy)]
pub struct Change {
    pub game: GameId,
    /// The game's version after the change.
    pub version: i64,
    /// Actions stored after the change.
    pub action_count: i64,
    /// The seat whose action it was (`None` for the start of the game).
    pub actor: Option<i16>,
    pub pending_before: SeatSet,
    pub pending_after: SeatSet,
    pub finished: bool,
    pub seat_count: i16,
}

/// The mails a change causes: "your move" to each newly pending seat, or "game over" to every
/// seat at the end; never to the seat that acted. The write path stores them with the change.
pub fn jobs_for_change(change: &Change) -> Vec<NewJob> {
    let not_actor = |seat: i16| Some(seat) != change.actor;
    if change.finished {
        (0..change.seat_count)
            .filter(|s| not_actor(*s))
            .map(|seat| {
                GameOverMail {
                    game_id: change.game.0,
                    seat,
                    version: change.version,
                    message_id: message_id(),
                }
                .job()
            })
            .collect()
    } else {
        change
            .pending_after
            .iter()
            .filter(|s| !change.pending_before.contains(*s))
            .map(|s| i16::from(s.0))
            .filter(|s| not_actor(*s))
            .map(|seat| {
                TurnMail {
                    game_id: change.game.0,
                    seat,
                    version: change.version,
                    upto: change.action_count,
                    message_id: message_id(),
                }
                .job()
            })
            .collect()
    }
}

/// A sign-in link for `email`: an `email_links` row (single use, [`SIGN_IN_LINK_TTL_S`]) and its
/// mail's job, in one statement. Says nothing about whether an account has the address.
///
/// # Errors
/// Database failures.
pub fn request_sign_in_link(conn: &mut PgConnection, email: &str) -> Result<(), ApiError> {
    use diesel::sql_types::{BigInt, Bytea, Text};
    let email = email.trim().to_lowercase();
    // The token is signed when the mail is sent (so it is never stored in a job); until then the
    // row holds the hash of random bytes that no token has. An address without an account gets
    // the same row without an account (a record of the request that no token can ever use) and
    // the same job, which reads the row, finds no account, writes the mail all the same and drops
    // it. So both requests do the same work before the answer and after it (the job's row, the
    // worker woken and busy) but for the sending itself (the relay's exchange, its counter and
    // its log line), which only the address's owner sees: neither the answer's time nor the load
    // it leaves behind may tell whether an account exists (design.md section 20). The job still names the account, the nil
    // one for none, so that a worker of the version before, which read it from there, sends the
    // account's mail and nothing for the nil one while both versions run side by side.
    let placeholder = crate::auth::token_hash(&new_token());
    diesel::sql_query(
        "WITH u AS (SELECT id FROM users WHERE email = $1), \
              l AS (INSERT INTO email_links (id, token_hash, user_id, email, purpose, expires_at) \
                    VALUES (gen_random_uuid(), $2, (SELECT id FROM u), $1, 'sign_in', \
                            now() + make_interval(secs => $3)) \
                    RETURNING id, user_id) \
         INSERT INTO jobs (kind, payload) \
         SELECT $4, jsonb_build_object('link_id', l.id, 'user_id', \
                                       COALESCE(l.user_id, '00000000-0000-0000-0000-000000000000'), \
                                       'message_id', $5) \
         FROM l",
    )
    .bind::<Text, _>(&email)
    .bind::<Bytea, _>(placeholder.to_vec())
    .bind::<BigInt, _>(SIGN_IN_LINK_TTL_S)
    .bind::<Text, _>(<SignInMail as crate::jobs::BackgroundJob>::KIND)
    .bind::<Text, _>(message_id())
    .execute(conn)?;
    tracing::info!("sign-in link queued");
    // Not at once: the answer goes out first (see `wake_soon`).
    jobs::wake_soon();
    Ok(())
}

/// Queues the daily digests that are due, and schedules the next ones a day later, in one
/// statement (safe with several workers: each due row is taken once).
///
/// # Errors
/// Database failures.
pub fn schedule_digests(conn: &mut PgConnection) -> QueryResult<usize> {
    diesel::sql_query(
        "WITH due AS ( \
           UPDATE notification_settings SET next_digest_at = now() + interval '1 day' \
           WHERE user_id IN (SELECT user_id FROM notification_settings \
             WHERE mode = 'daily_digest' AND next_digest_at <= now() \
             FOR UPDATE SKIP LOCKED) \
           RETURNING user_id) \
         INSERT INTO jobs (kind, payload) \
         SELECT $1, jsonb_build_object('user_id', user_id, 'message_id', gen_random_uuid()) \
         FROM due",
    )
    .bind::<Text, _>(DigestMail::KIND)
    .execute(conn)
}

/// Reminder offsets when an account has chosen none: 24 hours and 2 hours before a deadline.
pub const DEFAULT_REMINDERS_SECONDS: [i32; 2] = [86_400, 7_200];

/// Queues the reminders that have come due (each seat's `next_reminder_at`, set with its
/// deadline): one per offset and decision, never twice (the `reminders_sent` row is the proof,
/// written with its job), never to a seat that has acted (the decision is named by when it
/// began, and the mail is dropped if the seat has moved on), none for an offset longer than the
/// decision's whole allowance, none on vacation or with mail off.
///
/// # Errors
/// Database failures.
pub fn schedule_reminders(conn: &mut PgConnection) -> Result<usize, ApiError> {
    #[derive(QueryableByName)]
    struct Due {
        #[diesel(sql_type = SqlUuid)]
        game_id: Uuid,
        #[diesel(sql_type = diesel::sql_types::SmallInt)]
        seat: i16,
        #[diesel(sql_type = diesel::sql_types::Timestamptz)]
        pending_since: chrono::DateTime<chrono::Utc>,
        #[diesel(sql_type = diesel::sql_types::Integer)]
        offset_seconds: i32,
    }
    conn.transaction(|conn| {
        // The due seats are taken with SKIP LOCKED (workers share them), advanced to their next
        // offset point, and recorded with their jobs in this one transaction.
        let due: Vec<Due> = diesel::sql_query(
            "WITH due AS ( \
               SELECT s.game_id, s.seat, s.user_id, s.pending_since, s.deadline, s.next_reminder_at \
               FROM game_seats s WHERE s.next_reminder_at <= now() \
               ORDER BY s.next_reminder_at LIMIT 200 FOR UPDATE SKIP LOCKED), \
             advanced AS ( \
               UPDATE game_seats s SET next_reminder_at = ( \
                 SELECT min(s.deadline - make_interval(secs => o)) \
                 FROM unnest(( \
                   SELECT CASE WHEN n.mode = 'off' THEN ARRAY[]::integer[] \
                               ELSE coalesce(n.reminders_seconds, ARRAY[86400, 7200]) END \
                   FROM (SELECT s.user_id) me \
                   LEFT JOIN notification_settings n ON n.user_id = me.user_id)) AS o \
                 WHERE s.deadline - make_interval(secs => o) > now()) \
               FROM due WHERE s.game_id = due.game_id AND s.seat = due.seat \
               RETURNING s.game_id) \
             INSERT INTO reminders_sent (game_id, seat, pending_since, offset_seconds) \
             SELECT due.game_id, due.seat, due.pending_since, \
                    round(extract(epoch FROM due.deadline - due.next_reminder_at))::integer \
             FROM due JOIN users u ON u.id = due.user_id \
             JOIN games g ON g.id = due.game_id AND g.status = 'active' \
             WHERE u.vacation_since IS NULL AND due.deadline > now() \
               AND due.pending_since IS NOT NULL \
             ON CONFLICT DO NOTHING \
             RETURNING game_id, seat, pending_since, offset_seconds",
        )
        .load(conn)?;
        let new: Vec<NewJob> = due
            .iter()
            .map(|d| {
                ReminderMail {
                    game_id: d.game_id,
                    seat: d.seat,
                    pending_since: d.pending_since,
                    offset_seconds: d.offset_seconds,
                    message_id: message_id(),
                }
                .job()
            })
            .collect();
        jobs::enqueue(conn, &new)?;
        Ok(due.len())
    })
}

/// Tells the other players of every active game of `user` that they are on vacation.
///
/// # Errors
/// Database failures.
pub fn enqueue_vacation(conn: &mut PgConnection, user: UserId) -> Result<(), ApiError> {
    #[derive(QueryableByName)]
    struct Opponent {
        #[diesel(sql_type = SqlUuid)]
        game_id: Uuid,
        #[diesel(sql_type = diesel::sql_types::SmallInt)]
        seat: i16,
        #[diesel(sql_type = diesel::sql_types::SmallInt)]
        away_seat: i16,
    }
    let opponents: Vec<Opponent> = diesel::sql_query(
        "SELECT o.game_id, o.seat, me.seat AS away_seat \
         FROM game_seats me \
         JOIN games g ON g.id = me.game_id AND g.status = 'active' \
         JOIN game_seats o ON o.game_id = me.game_id AND o.seat <> me.seat \
         WHERE me.user_id = $1 AND o.user_id IS NOT NULL",
    )
    .bind::<SqlUuid, _>(user.0)
    .load(conn)?;
    let new: Vec<NewJob> = opponents
        .iter()
        .map(|o| {
            VacationMail {
                game_id: o.game_id,
                seat: o.seat,
                away_seat: o.away_seat,
                message_id: message_id(),
            }
            .job()
        })
        .collect();
    Ok(jobs::enqueue(conn, &new)?)
}
