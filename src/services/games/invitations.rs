//! Answering and managing invitations (design.md section 19): an invitee declines (the seat is
//! closed, the creator is told, and that address may not join any more); the creator cancels a
//! game that has not started.

use super::{GameResource, GameStatus, email_of, get, load_game, load_seats};
use crate::domain::{GameId, UserId};
use crate::email::jobs::{DeclinedMail, message_id};
use crate::error::ApiError;
use crate::jobs::{self, BackgroundJob};
use crate::schema::{game_refusals, game_seats, games};
use chrono::Utc;
use diesel::prelude::*;

/// Why `email` may not join game `id`, if it may not.
///
/// # Errors
/// Database failures.
pub(super) fn refusal(
    conn: &mut PgConnection,
    id: GameId,
    email: &str,
) -> QueryResult<Option<&'static str>> {
    let reason: Option<String> = game_refusals::table
        .find((id.0, email))
        .select(game_refusals::reason)
        .first(conn)
        .optional()?;
    Ok(reason.map(|r| match r.as_str() {
        "declined" => "you declined its invitation",
        _ => "your invitation was withdrawn",
    }))
}

/// The game is waiting, or a 409 saying it is not.
fn waiting(status: &str) -> Result<(), ApiError> {
    match GameStatus::from_db(status) {
        GameStatus::Waiting => Ok(()),
        GameStatus::Aborted => Err(ApiError::Conflict("the game was cancelled".to_owned())),
        _ => Err(ApiError::Conflict(
            "the game has already started".to_owned(),
        )),
    }
}

/// The invitee `user` declines: their seat is closed (only a new invitation fills it), their
/// address may not join this game any more, and the creator gets a mail.
///
/// # Errors
/// 403 without an invitation to decline; 409 once the game has started; database failures.
pub fn decline(
    conn: &mut PgConnection,
    user: UserId,
    id: GameId,
) -> Result<GameResource, ApiError> {
    conn.transaction(|conn| {
        let game = load_game(conn, id, true)?;
        waiting(&game.status)?;
        let email = email_of(conn, user)?;
        let seats = load_seats(conn, id)?;
        let seat = seats
            .iter()
            .find(|s| s.row.user_id.is_none() && s.row.invited_email.as_deref() == Some(&email))
            .map(|s| s.row.seat)
            .ok_or_else(|| {
                ApiError::Forbidden("you have no invitation to this game to decline".to_owned())
            })?;
        diesel::update(game_seats::table.find((id.0, seat)))
            .set((
                game_seats::invited_email.eq(None::<String>),
                game_seats::closed.eq(true),
            ))
            .execute(conn)?;
        diesel::insert_into(game_refusals::table)
            .values((
                game_refusals::game_id.eq(id.0),
                game_refusals::email.eq(&email),
                game_refusals::reason.eq("declined"),
            ))
            .on_conflict((game_refusals::game_id, game_refusals::email))
            .do_nothing()
            .execute(conn)?;
        changed(conn, id)?;
        let creator_seat = seats
            .iter()
            .find(|s| s.row.user_id == Some(game.created_by))
            .map_or(0, |s| s.row.seat);
        let mail = DeclinedMail {
            game_id: id.0,
            seat: creator_seat,
            declined_by: user.0,
            message_id: message_id(),
        };
        jobs::enqueue(conn, &[mail.job()])?;
        tracing::info!(game.id = %id, user.id = %user, seat, "invitation declined");
        get(conn, Some(user), id)
    })
}

/// The creator cancels a game that has not started: it is `aborted` (never rated, never
/// played), and its pending invitations are no longer mailed.
///
/// # Errors
/// 403 for anyone but the creator; 409 once the game has started; database failures.
pub fn cancel(conn: &mut PgConnection, user: UserId, id: GameId) -> Result<GameResource, ApiError> {
    conn.transaction(|conn| {
        let game = load_game(conn, id, true)?;
        if game.created_by != user.0 {
            return Err(ApiError::Forbidden(
                "only the game's creator may cancel it".to_owned(),
            ));
        }
        waiting(&game.status)?;
        diesel::update(games::table.find(id.0))
            .set((
                games::status.eq(GameStatus::Aborted.as_str()),
                games::finished_at.eq(Some(Utc::now())),
            ))
            .execute(conn)?;
        changed(conn, id)?;
        tracing::info!(game.id = %id, user.id = %user, "game cancelled");
        get(conn, Some(user), id)
    })
}

/// A stored change a client must notice: the version moves on.
fn changed(conn: &mut PgConnection, id: GameId) -> QueryResult<usize> {
    diesel::update(games::table.find(id.0))
        .set((
            games::version.eq(games::version + 1),
            games::updated_at.eq(Utc::now()),
        ))
        .execute(conn)
}
