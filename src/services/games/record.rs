//! A game's record — its actions and the events they caused — wherever it is kept. While a game
//! is played the write path appends one row per action and per event; the transaction that ends
//! it queues an [`ArchiveRecord`] job, which moves the record into one `game_archives` row of two
//! JSON arrays kept as text, which PostgreSQL compresses as a whole (issue 20: a finished Magnate
//! game's ~150 action and ~290 event rows with their index entries were most of its bytes). The
//! move is a job and not part of the last move's transaction because it is the slowest statement
//! of the submission path (some 900 buffers, 10–30 ms under `bench_submit`'s load), and the player
//! who made the last move need not wait for it.
//!
//! Every reader goes through here, so none cares where the record is. Each reads the rows first
//! and the archive only when they hold nothing: the move deletes the rows and writes the archive
//! in one transaction, so a reader whose rows statement ran before it committed has the rows, and
//! one whose rows statement ran after it finds the archive (the other order could miss both).

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

use crate::db::JsonText;
use crate::jobs::{BackgroundJob, Env, JobError};
use crate::schema::{game_actions, game_archives, game_events};

/// One stored action.
#[derive(Debug, Clone, Deserialize)]
pub struct Action {
    pub seq: i64,
    pub seat: i16,
    pub action: Value,
    pub created_at: DateTime<Utc>,
}

/// One stored event, with the number of the action that caused it (0 for the setup).
#[derive(Debug, Clone, Deserialize)]
pub struct Event {
    pub seq: i64,
    pub action_seq: i64,
    pub audience: Value,
    pub event: Value,
    pub created_at: DateTime<Utc>,
}

/// The actions of `game` in order.
///
/// # Errors
/// Database failures.
pub fn actions(conn: &mut PgConnection, game: Uuid) -> QueryResult<Vec<Action>> {
    actions_from(conn, game, i64::MIN)
}

/// The actions of `game` numbered `from` or more, in order.
///
/// # Errors
/// Database failures.
pub fn actions_from(conn: &mut PgConnection, game: Uuid, from: i64) -> QueryResult<Vec<Action>> {
    let rows: Vec<(i64, i16, Value, DateTime<Utc>)> = game_actions::table
        .filter(game_actions::game_id.eq(game))
        .filter(game_actions::seq.ge(from))
        .order(game_actions::seq)
        .select((
            game_actions::seq,
            game_actions::seat,
            game_actions::action,
            game_actions::created_at,
        ))
        .load(conn)?;
    if rows.is_empty() {
        // Nothing new, or the record was archived: the archive says which.
        return Ok(archived::<Action>(conn, game, Part::Actions)?
            .unwrap_or_default()
            .into_iter()
            .filter(|a| a.seq >= from)
            .collect());
    }
    Ok(rows
        .into_iter()
        .map(|(seq, seat, action, created_at)| Action {
            seq,
            seat,
            action,
            created_at,
        })
        .collect())
}

/// The events of `game` caused by actions `from..=to`, in order.
///
/// # Errors
/// Database failures.
pub fn events(conn: &mut PgConnection, game: Uuid, from: i64, to: i64) -> QueryResult<Vec<Event>> {
    let rows: Vec<(i64, i64, Value, Value, DateTime<Utc>)> = game_events::table
        .filter(game_events::game_id.eq(game))
        .filter(game_events::action_seq.ge(from))
        .filter(game_events::action_seq.le(to))
        .order(game_events::seq)
        .select((
            game_events::seq,
            game_events::action_seq,
            game_events::audience,
            game_events::event,
            game_events::created_at,
        ))
        .load(conn)?;
    if rows.is_empty() {
        return Ok(archived::<Event>(conn, game, Part::Events)?
            .unwrap_or_default()
            .into_iter()
            .filter(|e| (from..=to).contains(&e.action_seq))
            .collect());
    }
    Ok(rows
        .into_iter()
        .map(|(seq, action_seq, audience, event, created_at)| Event {
            seq,
            action_seq,
            audience,
            event,
            created_at,
        })
        .collect())
}

/// The number of `seat`'s last action at or before `upto` (every action when `None`).
///
/// # Errors
/// Database failures.
pub fn last_action_of(
    conn: &mut PgConnection,
    game: Uuid,
    seat: i16,
    upto: Option<i64>,
) -> QueryResult<Option<i64>> {
    let upto = upto.unwrap_or(i64::MAX);
    let found: Option<i64> = game_actions::table
        .filter(game_actions::game_id.eq(game))
        .filter(game_actions::seat.eq(seat))
        .filter(game_actions::seq.le(upto))
        .select(diesel::dsl::max(game_actions::seq))
        .first(conn)?;
    if found.is_some() {
        return Ok(found);
    }
    Ok(archived::<Action>(conn, game, Part::Actions)?
        .unwrap_or_default()
        .iter()
        .filter(|a| a.seat == seat && a.seq <= upto)
        .map(|a| a.seq)
        .max())
}

/// How many actions `seat` took after action `after` and up to action `until`.
///
/// # Errors
/// Database failures.
pub fn actions_between(
    conn: &mut PgConnection,
    game: Uuid,
    seat: i16,
    after: i64,
    until: i64,
) -> QueryResult<i64> {
    let found: i64 = game_actions::table
        .filter(game_actions::game_id.eq(game))
        .filter(game_actions::seat.eq(seat))
        .filter(game_actions::seq.gt(after))
        .filter(game_actions::seq.le(until))
        .count()
        .get_result(conn)?;
    if found > 0 {
        return Ok(found);
    }
    let n = archived::<Action>(conn, game, Part::Actions)?
        .unwrap_or_default()
        .iter()
        .filter(|a| a.seat == seat && a.seq > after && a.seq <= until)
        .count();
    Ok(i64::try_from(n).unwrap_or(i64::MAX))
}

/// Moves the record of a game that has ended into its archive row; queued by the transaction
/// that ends it (see the module's doc).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ArchiveRecord {
    pub game: Uuid,
}

impl BackgroundJob for ArchiveRecord {
    const KIND: &'static str = "game.archive_record";
    fn run(&self, _env: &Env, conn: &mut PgConnection) -> Result<(), JobError> {
        archive(conn, self.game).map_err(|e| JobError::Retry(e.to_string()))
    }
}

/// Moves the record of `game`, which has ended, into its archive row, once: a game archived
/// already is left as it is (its rows are gone, and a second archive row would be refused).
///
/// # Errors
/// Database failures.
pub fn archive(conn: &mut PgConnection, game: Uuid) -> QueryResult<()> {
    let done: Option<Uuid> = game_archives::table
        .find(game)
        .select(game_archives::game_id)
        .first(conn)
        .optional()?;
    if done.is_some() {
        return Ok(());
    }
    // `json_agg` writes the arrays as text, which the column keeps as sent (migration
    // `archive_as_json`: smaller and cheaper than `jsonb`); kept prepared, as it runs once a game.
    crate::db::Kept::new(
        "WITH a AS (DELETE FROM game_actions WHERE game_id = $1 \
                    RETURNING seq, seat, action, created_at), \
              e AS (DELETE FROM game_events WHERE game_id = $1 \
                    RETURNING seq, action_seq, audience, event, created_at) \
         INSERT INTO game_archives (game_id, actions, events) SELECT $1, \
           (SELECT coalesce(json_agg(json_build_array(seq, seat, action, created_at) \
                                     ORDER BY seq), '[]') FROM a), \
           (SELECT coalesce(json_agg(json_build_array(seq, action_seq, audience, event, \
                                                      created_at) ORDER BY seq), '[]') FROM e)",
    )
    .bind::<diesel::sql_types::Uuid, _>(game)
    .execute(conn)?;
    Ok(())
}

/// Which list of the archive row.
#[derive(Clone, Copy)]
enum Part {
    Actions,
    Events,
}

/// One list of the archive row of `game`, when it has one, read as `T`s (each stored as the
/// array of its fields in order).
fn archived<T: for<'de> Deserialize<'de>>(
    conn: &mut PgConnection,
    game: Uuid,
    part: Part,
) -> QueryResult<Option<Vec<T>>> {
    let row = game_archives::table.find(game);
    let stored: Option<JsonText> = match part {
        Part::Actions => row.select(game_archives::actions).first(conn).optional()?,
        Part::Events => row.select(game_archives::events).first(conn).optional()?,
    };
    stored
        .map(|text| {
            serde_json::from_slice(&text.0)
                .map_err(|e| diesel::result::Error::DeserializationError(Box::new(e)))
        })
        .transpose()
}
