//! Vacation (design.md section 14): a bank of days that membership accrues (7 to start, one more
//! per 7 days of membership, at most 30). While a player is away no deadline of theirs passes in
//! a game whose clock allows vacation; when they come back every such deadline moves on by the
//! time they were away. Taken explicitly, or automatically when a deadline would pass (opt-in).

use crate::domain::UserId;
use crate::error::ApiError;
use crate::schema::users;
use chrono::{DateTime, Duration, Utc};
use diesel::prelude::*;
use serde::Serialize;
use utoipa::ToSchema;

/// Days every account starts with.
pub const STARTING_DAYS: i64 = 7;
/// Membership days that accrue one more vacation day.
pub const DAYS_PER_ACCRUED_DAY: i64 = 7;
/// The most days a bank holds.
pub const MAX_DAYS: i64 = 30;
const DAY: i64 = 24 * 3600;

/// An account's vacation, as `GET /me/vacation` shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Vacation {
    /// Whole days left in the bank (what the current vacation has used is already taken off).
    pub days_available: i64,
    /// When the current vacation began; `null` when not away.
    pub on_vacation_since: Option<DateTime<Utc>>,
    /// When the current vacation ends by itself (the days asked for, or the bank running out).
    pub on_vacation_until: Option<DateTime<Utc>>,
    /// Whether a vacation starts by itself when a deadline would pass.
    pub auto: bool,
}

#[derive(Debug, Queryable)]
struct Row {
    created_at: DateTime<Utc>,
    since: Option<DateTime<Utc>>,
    until: Option<DateTime<Utc>>,
    auto: bool,
    used: i64,
}

fn load(conn: &mut PgConnection, user: UserId, lock: bool) -> Result<Row, ApiError> {
    let query = users::table.find(user.0).select((
        users::created_at,
        users::vacation_since,
        users::vacation_until,
        users::vacation_auto,
        users::vacation_used_seconds,
    ));
    let row = if lock {
        query.for_update().first(conn).optional()?
    } else {
        query.first(conn).optional()?
    };
    row.ok_or_else(|| {
        ApiError::Unauthenticated("the account of this token no longer exists".to_owned())
    })
}

impl Row {
    /// Seconds left in the bank at `now`, counting the vacation under way as used.
    fn left(&self, now: DateTime<Utc>) -> i64 {
        let member_days = (now - self.created_at).num_days().max(0);
        let accrued = (STARTING_DAYS + member_days / DAYS_PER_ACCRUED_DAY).min(MAX_DAYS);
        let away = self.since.map_or(0, |s| (now - s).num_seconds().max(0));
        (accrued * DAY - self.used - away).max(0)
    }

    fn show(&self, now: DateTime<Utc>) -> Vacation {
        Vacation {
            days_available: self.left(now) / DAY,
            on_vacation_since: self.since,
            on_vacation_until: self.until,
            auto: self.auto,
        }
    }
}

/// The caller's vacation.
///
/// # Errors
/// Database failures.
pub fn status(conn: &mut PgConnection, user: UserId) -> Result<Vacation, ApiError> {
    Ok(load(conn, user, false)?.show(Utc::now()))
}

/// Why a vacation does not start: said by the API in its words ([`ApiError`]) and by the pages
/// in the reader's (so the refusal is a type, not a sentence).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// A vacation is under way.
    AlreadyAway,
    /// Less than a day left in the bank.
    NoDayLeft,
    /// More days asked than the bank holds (`left` whole days).
    TooManyDays { asked: u32, left: i64 },
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        match r {
            Refusal::AlreadyAway => ApiError::Conflict("you are already on vacation".to_owned()),
            Refusal::NoDayLeft => ApiError::Conflict(format!(
                "no vacation day left: a day accrues every {DAYS_PER_ACCRUED_DAY} days of membership"
            )),
            Refusal::TooManyDays { asked, left } => {
                ApiError::Validation(format!("days: 1 to {left} (what is left), not {asked}"))
            }
        }
    }
}

/// Starts a vacation of `days` (all that is left when absent).
///
/// # Errors
/// 409 `conflict` when already away or with less than a day left; 422 for more days than left.
pub fn start(
    conn: &mut PgConnection,
    user: UserId,
    days: Option<u32>,
) -> Result<Vacation, ApiError> {
    try_start(conn, user, days)?.map_err(ApiError::from)
}

/// Starts a vacation of `days` (all that is left when absent); `Ok(Err(_))` when it may not
/// start, having written nothing.
///
/// # Errors
/// Database failures.
pub fn try_start(
    conn: &mut PgConnection,
    user: UserId,
    days: Option<u32>,
) -> Result<Result<Vacation, Refusal>, ApiError> {
    conn.transaction(|conn| {
        let row = load(conn, user, true)?;
        let now = Utc::now();
        if row.since.is_some() {
            return Ok(Err(Refusal::AlreadyAway));
        }
        let left = row.left(now);
        if left < DAY {
            return Ok(Err(Refusal::NoDayLeft));
        }
        let seconds = match days {
            None => left,
            Some(d) if i64::from(d) * DAY <= left && d > 0 => i64::from(d) * DAY,
            Some(asked) => {
                let left = left / DAY;
                return Ok(Err(Refusal::TooManyDays { asked, left }));
            }
        };
        begin(conn, user, now, now + Duration::seconds(seconds))?;
        tracing::info!(user.id = %user, days = seconds / DAY, "vacation started");
        Ok(Ok(load(conn, user, false)?.show(now)))
    })
    .inspect(|started| {
        if started.is_ok() {
            crate::jobs::wake();
        }
    })
}

fn begin(
    conn: &mut PgConnection,
    user: UserId,
    now: DateTime<Utc>,
    until: DateTime<Utc>,
) -> Result<(), ApiError> {
    diesel::update(users::table.find(user.0))
        .set((
            users::vacation_since.eq(Some(now)),
            users::vacation_until.eq(Some(until)),
        ))
        .execute(conn)?;
    crate::services::notifications::enqueue_vacation(conn, user)?;
    Ok(())
}

/// Ends the caller's vacation (nothing to do when not away): the time away is taken from the
/// bank and every deadline of theirs moves on by it.
///
/// # Errors
/// Database failures.
pub fn end(conn: &mut PgConnection, user: UserId) -> Result<Vacation, ApiError> {
    conn.transaction(|conn| {
        let row = load(conn, user, true)?;
        let now = Utc::now();
        if let Some(since) = row.since {
            come_back(conn, user, since, now)?;
        }
        Ok(load(conn, user, false)?.show(now))
    })
}

/// Whether a vacation starts by itself when a deadline would pass.
///
/// # Errors
/// Database failures.
pub fn set_auto(conn: &mut PgConnection, user: UserId, auto: bool) -> Result<Vacation, ApiError> {
    diesel::update(users::table.find(user.0))
        .set(users::vacation_auto.eq(auto))
        .execute(conn)?;
    status(conn, user)
}

/// The vacation that ran from `since` ends `at`: charged to the bank, deadlines moved on.
fn come_back(
    conn: &mut PgConnection,
    user: UserId,
    since: DateTime<Utc>,
    at: DateTime<Utc>,
) -> Result<(), ApiError> {
    let away = (at - since).num_seconds().max(0);
    diesel::update(users::table.find(user.0))
        .set((
            users::vacation_since.eq(None::<DateTime<Utc>>),
            users::vacation_until.eq(None::<DateTime<Utc>>),
            users::vacation_used_seconds.eq(users::vacation_used_seconds + away),
        ))
        .execute(conn)?;
    // A decision that began during the vacation is moved by the part of it spent away.
    let moved = diesel::sql_query(
        "UPDATE game_seats s \
         SET deadline = s.deadline + ($3 - greatest($2, s.pending_since)), \
             next_reminder_at = s.next_reminder_at + ($3 - greatest($2, s.pending_since)) \
         FROM games g \
         WHERE g.id = s.game_id AND s.user_id = $1 AND s.is_pending AND NOT s.dropped \
           AND s.deadline IS NOT NULL AND g.status = 'active' \
           AND coalesce(g.clock ->> 'vacation_allowed', 'true') <> 'false'",
    )
    .bind::<diesel::sql_types::Uuid, _>(user.0)
    .bind::<diesel::sql_types::Timestamptz, _>(since)
    .bind::<diesel::sql_types::Timestamptz, _>(at)
    .execute(conn)?;
    tracing::info!(user.id = %user, away_s = away, deadlines = moved, "back from vacation");
    Ok(())
}

/// Ends the vacations whose time is up; returns how many.
///
/// # Errors
/// Database failures.
pub fn end_expired(conn: &mut PgConnection) -> Result<usize, ApiError> {
    let now = Utc::now();
    let due: Vec<uuid::Uuid> = users::table
        .filter(users::vacation_until.le(now))
        .select(users::id)
        .limit(100)
        .load(conn)?;
    let mut ended = 0;
    for id in due {
        let user = UserId(id);
        conn.transaction::<_, ApiError, _>(|conn| {
            let row = load(conn, user, true)?;
            if let (Some(since), Some(until)) = (row.since, row.until.filter(|u| *u <= now)) {
                come_back(conn, user, since, until)?;
                ended += 1;
            }
            Ok(())
        })?;
    }
    Ok(ended)
}

/// Starts a vacation by itself for `user` whose deadline is passing, when they opted in and have
/// a day left. Returns whether it did.
///
/// # Errors
/// Database failures.
pub fn start_if_auto(conn: &mut PgConnection, user: UserId) -> Result<bool, ApiError> {
    let row = load(conn, user, true)?;
    let now = Utc::now();
    if !row.auto || row.since.is_some() || row.left(now) < DAY {
        return Ok(false);
    }
    begin(conn, user, now, now + Duration::seconds(row.left(now)))?;
    tracing::info!(user.id = %user, "vacation started automatically");
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(member_days: i64, used_days: i64) -> (Row, DateTime<Utc>) {
        let now = Utc::now();
        let r = Row {
            created_at: now - Duration::days(member_days),
            since: None,
            until: None,
            auto: false,
            used: used_days * DAY,
        };
        (r, now)
    }

    #[test]
    fn the_bank_starts_at_seven_days_accrues_one_a_week_and_stops_at_thirty() {
        for (member, used, days) in [
            (0, 0, 7),
            (6, 0, 7),
            (7, 0, 8),
            (70, 0, 17),
            (1000, 0, 30),
            (14, 9, 0),
        ] {
            let (r, now) = row(member, used);
            assert_eq!(
                r.show(now).days_available,
                days,
                "{member} days in, {used} used"
            );
        }
    }

    #[test]
    fn a_vacation_under_way_is_counted_as_used() {
        let (mut r, now) = row(0, 0);
        r.since = Some(now - Duration::hours(36));
        assert_eq!(r.show(now).days_available, 5);
    }
}
