//! A game's record — its actions and the events they caused — wherever it is kept. While a game
//! is played the write path appends one row per action and per event; in the transaction that
//! ends it, [`archive`] moves the record into one `game_archives` row of two JSON arrays, which
//! PostgreSQL compresses as a whole (issue 20: a finished Magnate game's ~150 action and ~290
//! event rows with their index entries were most of its bytes). Every reader goes through here,
//! so none cares where the record is.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

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
    if let Some(list) = archived(conn, game, Part::Actions)? {
        return Ok(list);
    }
    let rows: Vec<(i64, i16, Value, DateTime<Utc>)> = game_actions::table
        .filter(game_actions::game_id.eq(game))
        .order(game_actions::seq)
        .select((
            game_actions::seq,
            game_actions::seat,
            game_actions::action,
            game_actions::created_at,
        ))
        .load(conn)?;
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
    if let Some(list) = archived::<Event>(conn, game, Part::Events)? {
        return Ok(list
            .into_iter()
            .filter(|e| (from..=to).contains(&e.action_seq))
            .collect());
    }
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
    if let Some(list) = archived::<Action>(conn, game, Part::Actions)? {
        return Ok(list
            .iter()
            .filter(|a| a.seat == seat && a.seq <= upto)
            .map(|a| a.seq)
            .max());
    }
    game_actions::table
        .filter(game_actions::game_id.eq(game))
        .filter(game_actions::seat.eq(seat))
        .filter(game_actions::seq.le(upto))
        .select(diesel::dsl::max(game_actions::seq))
        .first(conn)
}

/// How many actions `seat` took after action `after`.
///
/// # Errors
/// Database failures.
pub fn actions_since(
    conn: &mut PgConnection,
    game: Uuid,
    seat: i16,
    after: i64,
) -> QueryResult<i64> {
    if let Some(list) = archived::<Action>(conn, game, Part::Actions)? {
        let n = list
            .iter()
            .filter(|a| a.seat == seat && a.seq > after)
            .count();
        return Ok(i64::try_from(n).unwrap_or(i64::MAX));
    }
    game_actions::table
        .filter(game_actions::game_id.eq(game))
        .filter(game_actions::seat.eq(seat))
        .filter(game_actions::seq.gt(after))
        .count()
        .get_result(conn)
}

/// Moves the record of `game`, which has just ended, into its archive row (in the caller's
/// transaction, after the last action and events are written).
///
/// # Errors
/// Database failures.
pub fn archive(conn: &mut PgConnection, game: Uuid) -> QueryResult<()> {
    diesel::sql_query(
        "WITH a AS (DELETE FROM game_actions WHERE game_id = $1 \
                    RETURNING seq, seat, action, created_at), \
              e AS (DELETE FROM game_events WHERE game_id = $1 \
                    RETURNING seq, action_seq, audience, event, created_at) \
         INSERT INTO game_archives (game_id, actions, events) SELECT $1, \
           (SELECT coalesce(jsonb_agg(jsonb_build_array(seq, seat, action, created_at) \
                                      ORDER BY seq), '[]') FROM a), \
           (SELECT coalesce(jsonb_agg(jsonb_build_array(seq, action_seq, audience, event, \
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
    let stored: Option<Value> = match part {
        Part::Actions => row.select(game_archives::actions).first(conn).optional()?,
        Part::Events => row.select(game_archives::events).first(conn).optional()?,
    };
    stored
        .map(|v| {
            serde_json::from_value(v)
                .map_err(|e| diesel::result::Error::DeserializationError(Box::new(e)))
        })
        .transpose()
}
