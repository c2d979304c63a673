//! The one write path of a game (design.md section 5). Every change of a started or starting
//! game — the join that fills the last seat, a submission, a resignation, a timeout — is
//! described as a [`Step`] and stored by [`commit`], inside the caller's transaction and with
//! the game row already locked (or by the two below, which check the version instead): the game
//! row (state, version, counts, status, outcome), the pending flags, the actions, the events,
//! the mails, the accounts' events, and a result per seat when the game ends.
//!
//! A submission that does not end the game may instead be stored by [`commit_unlocked`], without
//! a transaction or a lock: its one statement writes nothing unless the game row still has the
//! version the step was computed from (checked under the row's lock the update takes), so of two
//! racing writers exactly one is stored, and the other learns it: a move played on a copy this
//! instance kept then reads the game and tries again, a move played on the game as read takes the
//! locked path. A submission that ends the game is stored the same way by [`commit_ending`], in a
//! transaction of its own that also writes its results.

use super::resource::{GameStatus, SeatRow};
use crate::domain::GameId;
use crate::engine::registry::{AnyState, LoggedJson};
use crate::engine::{Seat, SeatSet, Standing};
use crate::error::ApiError;
use crate::jobs::{BackgroundJob, NewJob};
use crate::models::{Game, GameResult, GameSeat};
use crate::schema::game_results;
use crate::services::clocks::Clock;
use crate::services::notifications::{self, Change};
use chrono::{DateTime, Duration, Utc};
use diesel::prelude::*;
use serde_json::{Value, json};

/// How a game that ends with this step ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// By the rules.
    Played,
    Resigned,
    Timeout,
}

impl Ending {
    fn as_str(self) -> &'static str {
        match self {
            Ending::Played => "finished",
            Ending::Resigned => "resigned",
            Ending::Timeout => "timeout",
        }
    }
}

/// One change of a game, as its writer describes it.
pub struct Step<'a> {
    /// The game row as read: under its lock for [`commit`], or not for [`commit_unlocked`] and
    /// [`commit_ending`], whose write then checks that its version has not moved.
    pub game: &'a Game,
    /// Its seats as read (their pending flags are the ones before the step).
    pub seats: &'a [SeatRow],
    /// The state after the step; `None` while seats are still open.
    pub state: Option<&'a AnyState>,
    /// The seat whose decision this is; `None` for the start of the game.
    pub actor: Option<Seat>,
    /// The actor's deadline passed and the decision was the game's default (or a loss on
    /// time): its consecutive timeouts grow instead of starting again from zero.
    pub timed_out: bool,
    /// The actions the actor took, numbered from the game's `action_count + 1`.
    pub actions: &'a [Value],
    /// The events, each with the number of the action that caused it (0 for the setup).
    pub events: &'a [(i64, LoggedJson)],
    pub ending: Ending,
}

/// The rows as they are after the step (the state text moved into the game row, not copied).
pub struct Written {
    pub game: Game,
    pub seats: Vec<SeatRow>,
}

/// Stores `step`, the game row locked by the caller's transaction.
///
/// # Errors
/// Database failures only: every check happened before.
pub fn commit(conn: &mut PgConnection, step: Step<'_>) -> Result<Written, ApiError> {
    store(conn, step)?.ok_or_else(|| {
        ApiError::internal(anyhow::anyhow!("a game's version moved under its row lock"))
    })
}

/// Stores `step` in one statement of its own, without the game row's lock: `None` when another
/// writer changed the game since `step.game` was read, and then nothing is written. A step that
/// ends the game is refused: its results, ratings and competition take statements of their own,
/// which need a transaction ([`commit_ending`]).
///
/// # Errors
/// Database failures; an ending step.
pub fn commit_unlocked(
    conn: &mut PgConnection,
    step: Step<'_>,
) -> Result<Option<Written>, ApiError> {
    if step.state.and_then(AnyState::outcome).is_some() {
        return Err(ApiError::internal(anyhow::anyhow!(
            "a step that ends the game was given to the unlocked write"
        )));
    }
    store(conn, step)
}

/// Stores a step that ends the game without reading the game again under its lock: in a
/// transaction of its own whose first statement is [`commit_unlocked`]'s version-checked write,
/// which leaves the game row locked by this transaction for the results, ratings and competition
/// round written after it, as [`commit`]'s caller's lock would. `None` when another writer
/// changed the game since `step.game` was read; nothing is written then. Reading the game again
/// under the lock and playing the move a third time took three round trips more, on the one
/// submission of a game that already takes the longest (`bench_submit`).
///
/// # Errors
/// Database failures.
pub fn commit_ending(conn: &mut PgConnection, step: Step<'_>) -> Result<Option<Written>, ApiError> {
    conn.transaction(|conn| store(conn, step))
}

/// Writes `step` unless the game's version moved since it was read (`None`).
fn store(conn: &mut PgConnection, step: Step<'_>) -> Result<Option<Written>, ApiError> {
    let Step {
        game,
        seats,
        state,
        actor,
        actions,
        events,
        ending,
        timed_out,
    } = step;
    let id = GameId(game.id);
    // To the microsecond, as PostgreSQL keeps it: the answer shows the times a later read shows.
    let now = chrono::SubsecRound::trunc_subsecs(Utc::now(), 6);
    let outcome = state.and_then(AnyState::outcome);
    let status = match (state, &outcome) {
        (None, _) => GameStatus::Waiting,
        (Some(_), None) => GameStatus::Active,
        (Some(_), Some(_)) => GameStatus::Finished,
    };
    let version = game.version + 1;
    let action_count = game.action_count + count(actions);
    let event_count = game.event_count + count(events);
    let finished_at = (status == GameStatus::Finished).then_some(now);
    let before: SeatSet = seats
        .iter()
        .filter(|s| s.row.is_pending)
        .map(SeatRow::seat)
        .collect();
    let after = state.map(AnyState::pending).unwrap_or_default();
    let clock = Clock::stored(&game.clock);
    let mut seats = seats.to_vec();
    let mut changed = Vec::new();
    for seat in &mut seats {
        let acted = actor == Some(seat.seat());
        let timing = Timing {
            was_pending: seat.row.is_pending,
            is_pending: after.contains(seat.seat()),
            acted,
            timed_out: acted && timed_out,
            started: state.is_some() && game.state.is_none(),
        };
        if timing.changes_nothing() {
            continue;
        }
        timing.apply(&mut seat.row, clock, game.seat_count, (now, version));
        changed.push(seat.row.clone());
    }
    let change = Change {
        game: id,
        version,
        action_count,
        // A timeout is nobody's move: every seat hears of it, the late one too.
        actor: actor.filter(|_| !timed_out).map(|s| i16::from(s.0)),
        pending_before: before,
        pending_after: after,
        finished: status == GameStatus::Finished,
        seat_count: game.seat_count,
    };
    let mut jobs = match state {
        Some(_) => notifications::jobs_for_change(&change),
        None => Vec::new(),
    };
    if state.is_some() && finished_at.is_some() {
        // The record moves into one compressed row after the commit (see `record`).
        jobs.push(super::record::ArchiveRecord { game: game.id }.job());
    }
    let accounts = match state {
        Some(_) => {
            let seated: Vec<(i16, Option<uuid::Uuid>)> =
                seats.iter().map(|s| (s.row.seat, s.row.user_id)).collect();
            crate::services::events::of_change(
                &game.kind,
                &seated,
                &change,
                game.state.is_none(),
                outcome.as_ref(),
            )
        }
        None => Vec::new(),
    };
    let row = GameRow {
        state: state.map(|s| crate::db::JsonText(s.to_json_text())),
        version,
        action_count,
        event_count,
        status: status.as_str(),
        outcome: outcome.as_ref(),
        now,
        finished_at,
    };
    let batch = crate::services::events::Batch::of(accounts);
    let parts = Parts {
        seats: &changed,
        actor,
        actions,
        events,
        jobs: &jobs,
        accounts: &batch,
    };
    if !write_rows(conn, game, &row, &parts)? {
        return Ok(None);
    }
    if let (Some(state), Some(at)) = (state, finished_at) {
        let results = insert_results(conn, game, &seats, state, ending, at)?;
        // Here and only here: the results are written once per game, so the ratings are too.
        crate::services::ratings::record_game(conn, game, &results)?;
        // A competition's game: its result counts there, and the round may be complete.
        crate::services::competitions::game_ended(conn, game, &results)?;
    }
    let game = Game {
        // Moved, not copied: the next move's read may find it kept (see `seen`).
        state: row.state,
        version,
        action_count,
        event_count,
        status: status.as_str().to_owned(),
        outcome,
        updated_at: now,
        finished_at,
        ..game.clone_without_state()
    };
    Ok(Some(Written { game, seats }))
}

/// What a step does to one seat's clock.
#[derive(Debug, Clone, Copy)]
struct Timing {
    was_pending: bool,
    is_pending: bool,
    acted: bool,
    timed_out: bool,
    /// The step starts the game (every seat's bank is set).
    started: bool,
}

impl Timing {
    fn changes_nothing(self) -> bool {
        self.was_pending == self.is_pending && !self.acted && !self.started
    }

    /// A decision that ends (acted, or no longer asked) charges the bank; one that starts (newly
    /// pending, or pending again after acting) gets a fresh deadline, and its time and the
    /// game's version (`at`) are kept. A dropped seat's deadline is now: its decisions are made
    /// by default at once.
    fn apply(self, row: &mut GameSeat, clock: Clock, seat_count: i16, at: (DateTime<Utc>, i64)) {
        let (now, version) = at;
        if self.started {
            row.bank_seconds = clock.initial_bank();
        }
        if self.was_pending && (self.acted || !self.is_pending) {
            let spent = row.pending_since.map_or(Duration::zero(), |t| now - t);
            row.bank_seconds = clock.bank_after(row.bank_seconds, spent);
        }
        if self.acted {
            if self.timed_out {
                row.timeouts += 1;
                let drop_after = i32::try_from(clock.drop_after).unwrap_or(i32::MAX);
                row.dropped |= seat_count >= 3 && row.timeouts >= drop_after;
            } else {
                row.timeouts = 0;
            }
        }
        row.is_pending = self.is_pending;
        if !self.is_pending {
            row.deadline = None;
            row.pending_since = None;
            row.pending_version = None;
        } else if !self.was_pending || self.acted {
            row.pending_since = Some(now);
            row.pending_version = Some(version);
            row.deadline = if row.dropped {
                Some(now)
            } else {
                clock.deadline(now, row.bank_seconds)
            };
        }
    }
}

/// The game row's new values.
struct GameRow<'a> {
    state: Option<crate::db::JsonText>,
    version: i64,
    action_count: i64,
    event_count: i64,
    status: &'a str,
    outcome: Option<&'a Value>,
    now: DateTime<Utc>,
    finished_at: Option<DateTime<Utc>>,
}

/// What the step's statement writes besides the game row.
struct Parts<'a> {
    /// The seats that change.
    seats: &'a [GameSeat],
    actor: Option<Seat>,
    actions: &'a [Value],
    events: &'a [(i64, LoggedJson)],
    jobs: &'a [NewJob],
    accounts: &'a crate::services::events::Batch,
}

/// How many values [`write_rows`] binds before the accounts' events' ([`WRITE`] numbers those
/// from the next one on).
const GAME_VALUES: usize = 24;

/// The part of the step's statements that writes the game row, the seats, the actions and the
/// events (values `$1` to `$21`, and `$24`): `g` returns a row only if the version was the one
/// read, and every other part writes from `g`.
const WRITE_GAME: &str = "WITH g AS ( \
           UPDATE games SET state = $2, version = $3, action_count = $4, event_count = $5, \
             status = $6, outcome = $7, updated_at = $8, finished_at = $9 \
           WHERE id = $1 AND version = $3 - 1 \
           RETURNING id), \
         s AS ( \
           UPDATE game_seats s SET is_pending = v.is_pending, deadline = v.deadline, \
             pending_since = v.pending_since, pending_version = v.pending_version, \
             bank_seconds = v.bank_seconds, timeouts = v.timeouts, dropped = v.dropped, \
             next_reminder_at = CASE WHEN v.deadline IS NULL OR v.dropped THEN NULL ELSE ( \
               SELECT min(v.deadline - make_interval(secs => o)) \
               FROM unnest(( \
                 SELECT CASE WHEN n.mode = 'off' THEN ARRAY[]::integer[] \
                             ELSE coalesce(n.reminders_seconds, ARRAY[86400, 7200]) END \
                 FROM (SELECT s.user_id) me \
                 LEFT JOIN notification_settings n ON n.user_id = me.user_id)) AS o \
               WHERE v.deadline - make_interval(secs => o) > v.pending_since) END \
           FROM g, unnest($10, $11, $12, $13, $14, $15, $16, $24) \
             AS v(seat, is_pending, deadline, pending_since, bank_seconds, timeouts, dropped, \
               pending_version) \
           WHERE s.game_id = g.id AND s.seat = v.seat), \
         a AS ( \
           INSERT INTO game_actions (game_id, seq, seat, action, created_at) \
           SELECT g.id, $4 - cardinality($18::jsonb[]) + o, $17, x, $8 \
           FROM g, unnest($18::jsonb[]) WITH ORDINALITY AS t(x, o)), \
         e AS ( \
           INSERT INTO game_events (game_id, seq, action_seq, audience, event, created_at) \
           SELECT g.id, $5 - cardinality($19::bigint[]) + o, q, au, ev, $8 \
           FROM g, unnest($19::bigint[], $20::jsonb[], $21::jsonb[]) WITH ORDINALITY AS t(q, au, ev, o))";

/// The step's statement: its first [`GAME_VALUES`] values are bound by [`write_rows`], the
/// accounts' events' after them.
static WRITE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "{WRITE_GAME}, \
         j AS ( \
           INSERT INTO jobs (kind, payload) \
           SELECT k, p FROM g, unnest($22::text[], $23::jsonb[]) WITH ORDINALITY AS t(k, p, o) \
           ORDER BY o), \
         {accounts} \
         SELECT 1 FROM g",
        accounts = crate::services::events::Batch::sql(GAME_VALUES + 1, Some("g")),
    )
});

/// The step's statement when it queues no job and no account event, as two moves of three in a
/// Magnate game (those that keep the turn): the same values, of which it reads none of the jobs'.
/// The parts it leaves out would write nothing, but PostgreSQL sets up each of their plan nodes at
/// every execution: with them the statement ran 12–52 % slower (`pgbench`, 32 clients, README).
static WRITE_QUIET: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("{WRITE_GAME} SELECT 1 FROM g"));

/// Writes the step in one statement (one round trip on the submission path, design.md section
/// 5), and only if the game row still has the version before the step (else nothing, and
/// `false`): the game row; the seats that change, each next reminder computed from the new
/// deadline and the player's offsets (the first offset point after the decision began; none for
/// a dropped seat or with mail turned off); the actions numbered from the game's count; the
/// events with their audiences; the jobs (mails, and the record's archive when the game ends);
/// and the accounts' events.
///
/// Without the row's lock, a seat's deadline moved meanwhile (a director's extension, a return
/// from vacation) is written over only for the seats that change here, whose deadlines start
/// afresh anyway; the rest of what the step computes comes from columns only a step writes.
fn write_rows(
    conn: &mut PgConnection,
    game: &Game,
    row: &GameRow<'_>,
    parts: &Parts<'_>,
) -> Result<bool, ApiError> {
    use diesel::sql_types::{
        Array, BigInt, Bool, Integer, Json, Jsonb, Nullable, SmallInt, Text, Timestamptz,
    };
    let seats = parts.seats;
    let events = parts.events;
    let column =
        |f: fn(&GameSeat) -> Option<DateTime<Utc>>| seats.iter().map(f).collect::<Vec<_>>();
    let audience = |l: &LoggedJson| serde_json::to_value(l.audience).unwrap_or(Value::Null);
    let quiet = parts.jobs.is_empty() && parts.accounts.is_empty();
    let sql = if quiet { &WRITE_QUIET } else { &WRITE };
    let query = crate::db::Kept::new(sql.as_str())
        .bind::<diesel::sql_types::Uuid, _>(game.id)
        .bind::<Nullable<Json>, _>(&row.state)
        .bind::<BigInt, _>(row.version)
        .bind::<BigInt, _>(row.action_count)
        .bind::<BigInt, _>(row.event_count)
        .bind::<Text, _>(row.status)
        .bind::<Nullable<Jsonb>, _>(row.outcome)
        .bind::<Timestamptz, _>(row.now)
        .bind::<Nullable<Timestamptz>, _>(row.finished_at)
        .bind::<Array<SmallInt>, _>(seats.iter().map(|r| r.seat).collect::<Vec<_>>())
        .bind::<Array<Bool>, _>(seats.iter().map(|r| r.is_pending).collect::<Vec<_>>())
        .bind::<Array<Nullable<Timestamptz>>, _>(column(|r| r.deadline))
        .bind::<Array<Nullable<Timestamptz>>, _>(column(|r| r.pending_since))
        .bind::<Array<Nullable<BigInt>>, _>(
            seats.iter().map(|r| r.bank_seconds).collect::<Vec<_>>(),
        )
        .bind::<Array<Integer>, _>(seats.iter().map(|r| r.timeouts).collect::<Vec<_>>())
        .bind::<Array<Bool>, _>(seats.iter().map(|r| r.dropped).collect::<Vec<_>>())
        // Without an actor there are no actions.
        .bind::<SmallInt, _>(parts.actor.map_or(-1, |s| i16::from(s.0)))
        .bind::<Array<Jsonb>, _>(if parts.actor.is_some() {
            parts.actions
        } else {
            &[]
        })
        .bind::<Array<BigInt>, _>(events.iter().map(|(q, _)| *q).collect::<Vec<_>>())
        .bind::<Array<Jsonb>, _>(events.iter().map(|(_, l)| audience(l)).collect::<Vec<_>>())
        .bind::<Array<Jsonb>, _>(events.iter().map(|(_, l)| &l.event).collect::<Vec<_>>())
        .bind::<Array<Text>, _>(parts.jobs.iter().map(|j| j.kind).collect::<Vec<_>>())
        .bind::<Array<Jsonb>, _>(parts.jobs.iter().map(|j| &j.payload).collect::<Vec<_>>())
        .bind::<Array<Nullable<BigInt>>, _>(
            seats.iter().map(|r| r.pending_version).collect::<Vec<_>>(),
        );
    // The accounts' events' markers in `WRITE` follow from this count (tests run debug builds).
    debug_assert_eq!(query.values(), GAME_VALUES, "the game's values in WRITE");
    // `WRITE_QUIET` has no markers for the accounts' (empty) values, so none are sent.
    Ok(parts.accounts.bind(query).execute(conn)? == 1)
}

fn count<T>(items: &[T]) -> i64 {
    i64::try_from(items.len()).unwrap_or(i64::MAX)
}

/// A row per seated player from the game's standings; returns them.
fn insert_results(
    conn: &mut PgConnection,
    game: &Game,
    seats: &[SeatRow],
    state: &AnyState,
    ending: Ending,
    finished_at: chrono::DateTime<Utc>,
) -> Result<Vec<GameResult>, ApiError> {
    let count = u8::try_from(game.seat_count).unwrap_or(u8::MAX);
    let dropped: SeatSet = seats
        .iter()
        .filter(|s| s.row.dropped)
        .map(SeatRow::seat)
        .collect();
    let rows: Vec<GameResult> = rank_dropped_last(state.standings(count), dropped)
        .into_iter()
        .filter_map(|standing| {
            let seat = seats.iter().find(|s| s.seat() == standing.seat)?;
            let tiebreaks: Vec<Value> = standing
                .tiebreaks
                .iter()
                .map(|(name, value)| json!({"name": name, "value": value}))
                .collect();
            Some(GameResult {
                game_id: game.id,
                seat: i16::from(standing.seat.0),
                user_id: seat.row.user_id?,
                kind: game.kind.clone(),
                place: i16::from(standing.place),
                score: standing.score,
                tiebreaks: Value::Array(tiebreaks),
                reason: ending.as_str().to_owned(),
                finished_at,
            })
        })
        .collect();
    diesel::insert_into(game_results::table)
        .values(&rows)
        .execute(conn)?;
    Ok(rows)
}

/// Dropped seats share the last place (design.md section 14); the others keep their order.
fn rank_dropped_last(mut standings: Vec<Standing>, dropped: SeatSet) -> Vec<Standing> {
    if dropped.is_empty() {
        return standings;
    }
    let kept: Vec<(Seat, u8)> = standings
        .iter()
        .filter(|s| !dropped.contains(s.seat))
        .map(|s| (s.seat, s.place))
        .collect();
    let last = u8::try_from(kept.len() + 1).unwrap_or(u8::MAX);
    for standing in &mut standings {
        standing.place = if dropped.contains(standing.seat) {
            last
        } else {
            let better = kept.iter().filter(|(_, p)| *p < standing.place).count();
            u8::try_from(better + 1).unwrap_or(u8::MAX)
        };
    }
    standings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standing(seat: u8, place: u8) -> Standing {
        Standing {
            seat: Seat(seat),
            place,
            score: None,
            tiebreaks: Vec::new(),
        }
    }

    #[test]
    fn dropped_seats_rank_last_and_the_others_close_up() {
        let before = vec![
            standing(0, 2),
            standing(1, 1),
            standing(2, 3),
            standing(3, 3),
        ];
        let dropped: SeatSet = [Seat(1), Seat(3)].into_iter().collect();
        let places: Vec<u8> = rank_dropped_last(before, dropped)
            .iter()
            .map(|s| s.place)
            .collect();
        assert_eq!(places, [1, 3, 2, 3]);
    }
}
