//! Answering and managing invitations (design.md section 19): an invitee declines (the seat is
//! closed, the creator is told, and that address may not join any more); the creator cancels a
//! game that has not started, withdraws an invitation not yet accepted (the seat is closed) and
//! invites someone else to a closed seat.
//!
//! A closed seat is neither taken, invited nor open: only a new invitation fills it, so a game
//! never starts with a seat nobody was asked to take.

use super::refusal::{self, Asked, Failure, Refusal};
use super::{GameResource, GameStatus, SeatRow, email_of, get, load_game, load_seats};
use crate::auth::links::PlayGrant;
use crate::domain::{EmailAddress, GameId, UserId};
use crate::email::jobs::{DeclinedMail, message_id};
use crate::error::ApiError;
use crate::jobs::{self, BackgroundJob};
use crate::models::Game;
use crate::schema::{game_refusals, game_seats, games, users};
use chrono::Utc;
use diesel::prelude::*;

/// Why `email` has no invitation to game `id` any more, if it declined it or the creator withdrew
/// it (`asked` is what was refused for it).
///
/// # Errors
/// Database failures.
pub(super) fn refused(
    conn: &mut PgConnection,
    id: GameId,
    email: &str,
    asked: Asked,
) -> QueryResult<Option<Refusal>> {
    let reason: Option<String> = game_refusals::table
        .find((id.0, email))
        .select(game_refusals::reason)
        .first(conn)
        .optional()?;
    Ok(reason.map(|r| match r.as_str() {
        "declined" => Refusal::Declined(asked),
        _ => Refusal::Withdrawn(asked),
    }))
}

/// The game is waiting, or the refusal of `asked` saying what became of it.
fn waiting(game: &Game, asked: Asked) -> Result<(), Refusal> {
    Refusal::not_waiting(game, asked).map_or(Ok(()), Err)
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
    refusal::as_api(try_decline(conn, user, id))
}

/// [`decline`], its refusal as a [`Refusal`] (`Ok(Err(_))`, nothing written).
///
/// # Errors
/// 404 for no such game; database failures.
pub fn try_decline(
    conn: &mut PgConnection,
    user: UserId,
    id: GameId,
) -> Result<Result<GameResource, Refusal>, ApiError> {
    refusal::split(conn.transaction(|conn| {
        let game = load_game(conn, id, true)?;
        waiting(&game, Asked::Decline)?;
        let email = email_of(conn, user)?;
        let seats = load_seats(conn, id)?;
        let invited = seats
            .iter()
            .find(|s| s.row.user_id.is_none() && s.row.invited_email.as_deref() == Some(&email));
        let Some(seat) = invited.map(|s| s.row.seat) else {
            // Declined already, or withdrawn by the creator: the refusal says which.
            let gone = refused(conn, id, &email, Asked::Decline)?;
            return Err(gone.unwrap_or(Refusal::NoInvitation).into());
        };
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
        Ok::<_, Failure>(get(conn, Some(user), id)?)
    }))
}

/// The creator cancels a game that has not started: it is `aborted` (never rated, never
/// played), and its pending invitations are no longer mailed.
///
/// # Errors
/// 403 for anyone but the creator; 409 once the game has started; database failures.
pub fn cancel(conn: &mut PgConnection, user: UserId, id: GameId) -> Result<GameResource, ApiError> {
    refusal::as_api(try_cancel(conn, user, id))
}

/// [`cancel`], its refusal as a [`Refusal`] (`Ok(Err(_))`, nothing written).
///
/// # Errors
/// 404 for no such game; database failures.
pub fn try_cancel(
    conn: &mut PgConnection,
    user: UserId,
    id: GameId,
) -> Result<Result<GameResource, Refusal>, ApiError> {
    refusal::split(conn.transaction(|conn| {
        creators_waiting_game(conn, user, id, Asked::Cancel)?;
        diesel::update(games::table.find(id.0))
            .set((
                games::status.eq(GameStatus::Aborted.as_str()),
                games::finished_at.eq(Some(Utc::now())),
            ))
            .execute(conn)?;
        changed(conn, id)?;
        tracing::info!(game.id = %id, user.id = %user, "game cancelled");
        Ok::<_, Failure>(get(conn, Some(user), id)?)
    }))
}

/// Whom the creator invites to a closed seat.
#[derive(Debug, Clone)]
pub enum Invitee {
    Email(EmailAddress),
    Player(UserId),
}

/// The address of the account `player`, for an invitation by player id.
///
/// # Errors
/// 422 when there is no such player (the id names nobody the caller could have found).
pub(super) fn player_email(conn: &mut PgConnection, player: UserId) -> Result<String, Failure> {
    let email = users::table
        .find(player.0)
        .select(users::email)
        .first(conn)
        .optional()?;
    email.ok_or_else(|| Refusal::NoPlayer(player).into())
}

/// The game, locked, when `user` created it and it still waits for players (`asked` is what the
/// creator asks of it).
fn creators_waiting_game(
    conn: &mut PgConnection,
    user: UserId,
    id: GameId,
    asked: Asked,
) -> Result<Game, Failure> {
    let game = load_game(conn, id, true)?;
    if game.created_by != user.0 {
        return Err(Refusal::NotCreator(asked).into());
    }
    waiting(&game, asked)?;
    Ok(game)
}

/// The creator invites `invitee` to the first closed seat: the seat holds the invitation, a
/// refusal the address had (declined or withdrawn) is forgotten, and the invitation is mailed.
///
/// # Errors
/// 403 for anyone but the creator; 409 when no seat is closed, the game has started, or the
/// address already has a seat or an invitation; 422 for the creator's own address or an unknown
/// player.
pub fn invite(
    conn: &mut PgConnection,
    user: UserId,
    id: GameId,
    invitee: Invitee,
) -> Result<GameResource, ApiError> {
    conn.transaction(|conn| {
        creators_waiting_game(conn, user, id, Asked::Invite)?;
        let email = match invitee {
            Invitee::Email(e) => e.as_str().to_owned(),
            Invitee::Player(p) => player_email(conn, p)?,
        };
        if email == email_of(conn, user)? {
            return Err(Refusal::InvitesSelf.into());
        }
        let seats = load_seats(conn, id)?;
        let seated = seats_user_emails(conn, &seats)?;
        if seats.iter().any(|s| holds(s, &email, &seated)) {
            return Err(Refusal::AlreadyInvited.into());
        }
        let seat = seats
            .iter()
            .find(|s| s.row.closed && s.row.user_id.is_none())
            .map(|s| s.row.seat)
            .ok_or(Refusal::NoEmptySeat)?;
        diesel::update(game_seats::table.find((id.0, seat)))
            .set((
                game_seats::invited_email.eq(Some(&email)),
                game_seats::closed.eq(false),
            ))
            .execute(conn)?;
        diesel::delete(game_refusals::table.find((id.0, &email))).execute(conn)?;
        changed(conn, id)?;
        super::super::notifications::enqueue_invitations(conn, id, &[seat])?;
        tracing::info!(game.id = %id, user.id = %user, seat, "invitation sent to an empty seat");
        Ok::<_, Failure>(get(conn, Some(user), id)?)
    })
    .map_err(ApiError::from)
    .inspect(|_| crate::jobs::wake())
}

/// The addresses of the accounts seated in `seats`.
fn seats_user_emails(conn: &mut PgConnection, seats: &[SeatRow]) -> QueryResult<Vec<String>> {
    let ids: Vec<uuid::Uuid> = seats.iter().filter_map(|s| s.row.user_id).collect();
    users::table
        .filter(users::id.eq_any(ids))
        .select(users::email)
        .load(conn)
}

/// Whether `email` already sits at or is invited to seat `s` (`seated` are the seated accounts'
/// addresses).
fn holds(s: &SeatRow, email: &str, seated: &[String]) -> bool {
    s.row.invited_email.as_deref() == Some(email)
        || (s.row.user_id.is_some() && seated.iter().any(|e| e == email))
}

/// The creator withdraws the invitation (or the open place) of `seat`: the seat is closed, and
/// the invited address may no longer join, by its link or otherwise.
///
/// # Errors
/// 403 for anyone but the creator; 404 for a seat the game does not have; 409 when the seat is
/// taken (an accepted invitation), already empty, or the game has started.
pub fn withdraw(
    conn: &mut PgConnection,
    user: UserId,
    id: GameId,
    seat: i16,
) -> Result<GameResource, ApiError> {
    conn.transaction(|conn| {
        creators_waiting_game(conn, user, id, Asked::Withdraw)?;
        let seats = load_seats(conn, id)?;
        let row = seats
            .iter()
            .find(|s| s.row.seat == seat)
            .map(|s| &s.row)
            .ok_or(Refusal::NoSuchSeat(seat))?;
        if row.user_id.is_some() {
            return Err(Refusal::SeatTaken(seat).into());
        }
        if row.closed {
            return Err(Refusal::SeatEmpty(seat).into());
        }
        if let Some(email) = &row.invited_email {
            diesel::insert_into(game_refusals::table)
                .values((
                    game_refusals::game_id.eq(id.0),
                    game_refusals::email.eq(email),
                    game_refusals::reason.eq("withdrawn"),
                ))
                .on_conflict((game_refusals::game_id, game_refusals::email))
                .do_update()
                .set(game_refusals::reason.eq("withdrawn"))
                .execute(conn)?;
        }
        diesel::update(game_seats::table.find((id.0, seat)))
            .set((
                game_seats::invited_email.eq(None::<String>),
                game_seats::closed.eq(true),
            ))
            .execute(conn)?;
        changed(conn, id)?;
        tracing::info!(game.id = %id, user.id = %user, seat, "invitation withdrawn");
        Ok::<_, Failure>(get(conn, Some(user), id)?)
    })
    .map_err(ApiError::from)
}

/// Whether a play link's grant still stands: its account sits at the seat, or the seat still
/// invites that account's address (a withdrawn or declined invitation's link is refused).
///
/// # Errors
/// Database failures.
pub fn grant_holds(conn: &mut PgConnection, grant: PlayGrant) -> QueryResult<bool> {
    let row: Option<(Option<uuid::Uuid>, Option<String>)> = game_seats::table
        .find((grant.game.0, grant.seat))
        .select((game_seats::user_id, game_seats::invited_email))
        .first(conn)
        .optional()?;
    Ok(match row {
        Some((Some(seated), _)) => seated == grant.user.0,
        Some((None, Some(invited))) => {
            let email: Option<String> = users::table
                .find(grant.user.0)
                .select(users::email)
                .first(conn)
                .optional()?;
            email.as_deref() == Some(invited.as_str())
        }
        _ => false,
    })
}

/// What became of the invitation an invitation link carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InvitationState {
    /// The seat still invites the link's address in a waiting game.
    Stands,
    /// The seat is taken (the invitation was accepted): the game's page is the place to go.
    Taken,
    /// Gone, and why, as a join from the link would be refused: the game was cancelled (or has
    /// started or ended without this address), the address declined, or the creator withdrew it.
    Gone(Refusal),
}

/// What became of the invitation of `seat` for the address whose digest a link carries.
///
/// # Errors
/// Database failures.
pub fn invitation_state(
    conn: &mut PgConnection,
    id: GameId,
    seat: i16,
    digest: &str,
) -> QueryResult<InvitationState> {
    let game: Option<Game> = games::table
        .find(id.0)
        .select(Game::as_select())
        .first(conn)
        .optional()?;
    let Some(game) = game else {
        return Ok(InvitationState::Gone(Refusal::Withdrawn(Asked::Join)));
    };
    let row: Option<(Option<uuid::Uuid>, Option<String>)> = game_seats::table
        .filter(game_seats::game_id.eq(id.0))
        .filter(game_seats::seat.eq(seat))
        .select((game_seats::user_id, game_seats::invited_email))
        .first(conn)
        .optional()?;
    let ours = |email: &str| crate::auth::links::email_digest(email) == digest;
    if let Some((user, email)) = row {
        if user.is_some() {
            return Ok(InvitationState::Taken);
        }
        if email.as_deref().is_some_and(ours) {
            return Ok(match Refusal::not_waiting(&game, Asked::Join) {
                None => InvitationState::Stands,
                Some(why) => InvitationState::Gone(why),
            });
        }
    }
    // The seat no longer invites this address: what the address's refusal row says (declined
    // or withdrawn), found by its digest, since the link does not carry the address.
    let refusals: Vec<(String, String)> = game_refusals::table
        .filter(game_refusals::game_id.eq(id.0))
        .select((game_refusals::email, game_refusals::reason))
        .load(conn)?;
    let declined = refusals
        .iter()
        .any(|(email, reason)| reason == "declined" && ours(email));
    let why = if declined {
        Refusal::Declined(Asked::Join)
    } else {
        Refusal::not_waiting(&game, Asked::Join).unwrap_or(Refusal::Withdrawn(Asked::Join))
    };
    Ok(InvitationState::Gone(why))
}

/// A stored change a client must notice: the version moves on.
pub(crate) fn changed(conn: &mut PgConnection, id: GameId) -> QueryResult<usize> {
    diesel::update(games::table.find(id.0))
        .set((
            games::version.eq(games::version + 1),
            games::updated_at.eq(Utc::now()),
        ))
        .execute(conn)
}
