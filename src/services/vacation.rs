//! Vacation (design.md section 14): a bank of days that membership accrues (7 to start, one more
//! per 7 days of membership, never holding more than 30). While a player is away no deadline of theirs passes in
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
/// The most days a bank holds: what would accrue beyond is lost, and accrues again once days
/// are taken.
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
    /// The bank in seconds as last counted (the last vacation's start or end), and when; `None`
    /// until the first vacation, the bank then being the starting days at the account's creation.
    bank: Option<i64>,
    bank_at: Option<DateTime<Utc>>,
}

fn load(conn: &mut PgConnection, user: UserId, lock: bool) -> Result<Row, ApiError> {
    let query = users::table.find(user.0).select((
        users::created_at,
        users::vacation_since,
        users::vacation_until,
        users::vacation_auto,
        users::vacation_bank_seconds,
        users::vacation_bank_at,
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
    /// Whole weeks of membership at `at`: each one adds a day.
    fn weeks(&self, at: DateTime<Utc>) -> i64 {
        (at - self.created_at).num_days().max(0) / DAYS_PER_ACCRUED_DAY
    }

    /// Seconds left in the bank at `now`, counting the vacation under way as used. The bank was
    /// last counted when the vacation under way began (or the last one ended), so the days taken
    /// since are all the vacation's, and the cap holds the balance, never the days accrued in
    /// all: a player who has taken 30 days over the years still earns the next.
    fn left(&self, now: DateTime<Utc>) -> i64 {
        let (bank, counted_at) = match (self.bank, self.bank_at) {
            (Some(bank), Some(at)) => (bank, at),
            _ => (STARTING_DAYS * DAY, self.created_at),
        };
        let accrued = (self.weeks(now) - self.weeks(counted_at)).max(0) * DAY;
        let away = self.since.map_or(0, |s| (now - s).num_seconds().max(0));
        (bank + accrued - away).clamp(0, MAX_DAYS * DAY)
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
        begin(conn, user, &row, now, now + Duration::seconds(seconds))?;
        tracing::info!(user.id = %user, days = seconds / DAY, "vacation started");
        Ok(Ok(load(conn, user, false)?.show(now)))
    })
    .inspect(|started| {
        if started.is_ok() {
            crate::jobs::wake();
        }
    })
}

/// Starts the vacation of `row`'s account at `now`, its bank counted as it stands then.
fn begin(
    conn: &mut PgConnection,
    user: UserId,
    row: &Row,
    now: DateTime<Utc>,
    until: DateTime<Utc>,
) -> Result<(), ApiError> {
    diesel::update(users::table.find(user.0))
        .set((
            users::vacation_since.eq(Some(now)),
            users::vacation_until.eq(Some(until)),
            users::vacation_bank_seconds.eq(Some(row.left(now))),
            users::vacation_bank_at.eq(Some(now)),
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
            come_back(conn, user, &row, since, now)?;
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

/// The vacation of `row`'s account, which ran from `since`, ends `at`: charged to the bank,
/// deadlines moved on.
fn come_back(
    conn: &mut PgConnection,
    user: UserId,
    row: &Row,
    since: DateTime<Utc>,
    at: DateTime<Utc>,
) -> Result<(), ApiError> {
    let away = (at - since).num_seconds().max(0);
    diesel::update(users::table.find(user.0))
        .set((
            users::vacation_since.eq(None::<DateTime<Utc>>),
            users::vacation_until.eq(None::<DateTime<Utc>>),
            users::vacation_bank_seconds.eq(Some(row.left(at))),
            users::vacation_bank_at.eq(Some(at)),
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
                come_back(conn, user, &row, since, until)?;
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
    begin(
        conn,
        user,
        &row,
        now,
        now + Duration::seconds(row.left(now)),
    )?;
    tracing::info!(user.id = %user, "vacation started automatically");
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An account `member_days` old that has taken no vacation yet.
    fn row(member_days: i64) -> (Row, DateTime<Utc>) {
        let now = Utc::now();
        let r = Row {
            created_at: now - Duration::days(member_days),
            since: None,
            until: None,
            auto: false,
            bank: None,
            bank_at: None,
        };
        (r, now)
    }

    /// The same, with its bank counted `days_ago` at `bank_days`.
    fn counted(member_days: i64, days_ago: i64, bank_days: i64) -> (Row, DateTime<Utc>) {
        let (mut r, now) = row(member_days);
        r.bank = Some(bank_days * DAY);
        r.bank_at = Some(now - Duration::days(days_ago));
        (r, now)
    }

    #[test]
    fn the_bank_starts_at_seven_days_accrues_one_a_week_and_stops_at_thirty() {
        for (member, days) in [(0, 7), (6, 7), (7, 8), (70, 17), (1000, 30)] {
            let (r, now) = row(member);
            assert_eq!(r.show(now).days_available, days, "{member} days in");
        }
    }

    #[test]
    fn a_spent_bank_earns_a_day_a_week_again_even_after_thirty_days_taken_in_all() {
        // Over three years the player has taken far more than 30 days; the bank emptied 10 days
        // ago, so one week has passed since and one day accrued (the old count, of days taken
        // against at most 30 accrued in all, said none for good).
        let (r, now) = counted(1000, 10, 0);
        assert_eq!(r.show(now).days_available, 1);
        // Counted at 29 days 70 days ago: the ten weeks since fill it to 30, no further.
        let (r, now) = counted(1000, 70, 29);
        assert_eq!(r.show(now).days_available, MAX_DAYS);
        // Counted 3 days ago, no week boundary crossed since: as it was.
        let (r, now) = counted(703, 3, 4);
        assert_eq!(r.show(now).days_available, 4);
    }

    #[test]
    fn a_vacation_under_way_is_counted_as_used() {
        let (mut r, now) = row(0);
        r.since = Some(now - Duration::hours(36));
        assert_eq!(r.show(now).days_available, 5);
        // A vacation begun with a counted bank: counted at its start, the time away taken off.
        let (mut r, now) = counted(402, 2, 10);
        r.since = r.bank_at;
        assert_eq!(r.show(now).days_available, 8);
    }
}
