//! Deadlines enforced (design.md section 14): the worker finds the pending seats whose deadline
//! has passed and applies each timeout in the same transaction discipline as a submission — the
//! game row locked, then the seat read again — so a move and its timeout racing give exactly one
//! of the two: whichever takes the lock first; the other sees the seat no longer due.

use super::resource::{GameStatus, SeatRow};
use super::write::{self, Ending, Step};
use super::{internal, load_game, load_seats, load_state, seed_of};
use crate::domain::{GameId, UserId};
use crate::engine::registry::LoggedJson;
use crate::engine::{Audience, Seat, Timeout};
use crate::error::ApiError;
use crate::services::clocks::Clock;
use crate::services::vacation;
use chrono::Utc;
use diesel::prelude::*;
use serde_json::json;
use uuid::Uuid;

/// How many due seats one sweep takes (the rest wait for the next, a second later).
const SWEEP: i64 = 100;

/// Applies every timeout that is due; returns how many were applied.
///
/// # Errors
/// Database failures; a game that cannot be timed out is logged and skipped.
pub fn time_out_due(conn: &mut PgConnection) -> Result<usize, ApiError> {
    #[derive(QueryableByName)]
    struct Due {
        #[diesel(sql_type = diesel::sql_types::Uuid)]
        game_id: Uuid,
        #[diesel(sql_type = diesel::sql_types::SmallInt)]
        seat: i16,
    }
    // A player away on vacation is not due in a game that allows vacation: their deadlines move
    // on when they come back.
    let due: Vec<Due> = diesel::sql_query(
        "SELECT s.game_id, s.seat FROM game_seats s \
         JOIN games g ON g.id = s.game_id \
         LEFT JOIN users u ON u.id = s.user_id \
         WHERE s.deadline <= now() \
           AND (u.vacation_since IS NULL OR s.dropped \
                OR g.clock ->> 'vacation_allowed' = 'false') \
         ORDER BY s.deadline LIMIT $1",
    )
    .bind::<diesel::sql_types::BigInt, _>(SWEEP)
    .load(conn)?;
    let mut applied = 0;
    for Due {
        game_id: game,
        seat,
    } in due
    {
        let seat = Seat(u8::try_from(seat).unwrap_or(u8::MAX));
        match time_out(conn, GameId(game), seat) {
            Ok(true) => applied += 1,
            Ok(false) => {}
            Err(e) => tracing::error!(game.id = %game, seat = seat.0, error = %e, "timeout failed"),
        }
    }
    if applied > 0 {
        crate::jobs::wake();
    }
    Ok(applied)
}

/// Times out `seat` of game `id` if it is still pending past its deadline: the game's default
/// decision for it, or a loss on time. Returns whether anything was stored.
///
/// # Errors
/// Database failures, or a stored game that no longer reads.
pub fn time_out(conn: &mut PgConnection, id: GameId, seat: Seat) -> Result<bool, ApiError> {
    conn.transaction(|conn| {
        let game = load_game(conn, id, true)?;
        if GameStatus::from_db(&game.status) != GameStatus::Active {
            return Ok(false);
        }
        let seats = load_seats(conn, id)?;
        let now = Utc::now();
        let Some(late) = seats.iter().find(|s| {
            s.seat() == seat && s.row.is_pending && s.row.deadline.is_some_and(|d| d <= now)
        }) else {
            // The seat acted (or its deadline moved) while we waited for the lock.
            return Ok(false);
        };
        if !late.row.dropped
            && Clock::stored(&game.clock).vacation_allowed
            && let Some(user) = late.row.user_id
            && vacation::start_if_auto(conn, UserId(user))?
        {
            // Away instead of late: the deadline moves on when the player comes back.
            return Ok(false);
        }
        let mut state =
            load_state(&game)?.ok_or_else(|| internal("active game without state", game.id))?;
        let number = game.action_count + 1;
        let timed_out = LoggedJson {
            audience: Audience::Everyone,
            event: json!({"type": "timed_out", "seat": seat.0}),
        };
        let mut events = vec![(number, timed_out)];
        let (action, ending) = match state.timeout(seat) {
            Timeout::Play(action) => {
                let seed = seed_of(&game, &seats)?;
                let n = u64::try_from(number).unwrap_or(u64::MAX);
                match state.submit(seat, &action, &seed, n) {
                    Ok(logged) => {
                        events.extend(logged.into_iter().map(|e| (number, e)));
                        (action.to_json(), Ending::Played)
                    }
                    // A default the game refuses is a bug in the game; the seat then loses
                    // rather than stall the game for everyone.
                    Err(refused) => {
                        tracing::error!(game.id = %id, seat = seat.0, error = %refused, "the game refused its own timeout default");
                        lose_on_time(&mut state, seat)?
                    }
                }
            }
            Timeout::Loses => lose_on_time(&mut state, seat)?,
        };
        let written = write::commit(
            conn,
            Step {
                game: &game,
                seats: &seats,
                state: Some(&state),
                actor: Some(seat),
                timed_out: true,
                actions: &[action],
                events: &events,
                ending,
            },
        )?;
        let dropped = written
            .seats
            .iter()
            .any(|s: &SeatRow| s.seat() == seat && s.row.dropped);
        tracing::info!(game.id = %id, seat = seat.0, dropped, status = %written.game.status, "timed out");
        Ok(true)
    })
}

fn lose_on_time(
    state: &mut crate::engine::registry::AnyState,
    seat: Seat,
) -> Result<(serde_json::Value, Ending), ApiError> {
    state
        .lose_on_time(seat)
        .map_err(|e| internal("timeout of a finished game", e))?;
    Ok((
        json!({"type": "timeout", "notation": "timeout"}),
        Ending::Timeout,
    ))
}
