//! Why the games service refuses what was asked of a game waiting for players (joining it,
//! declining its invitation, cancelling it, inviting to an empty seat, withdrawing an invitation):
//! a type, said by the API in its English sentences and codes ([`ApiError`], through `From`) and
//! by the pages in their reader's language. Nothing is written when a refusal is answered: it
//! rolls back the transaction it is raised in ([`Failure`]).

use super::GameStatus;
use crate::domain::UserId;
use crate::error::ApiError;
use crate::models::Game;

/// What was asked of a game waiting for players: the API words some refusals by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asked {
    /// Taking a seat: accepting an invitation, or an open seat.
    Join,
    /// Declining an invitation.
    Decline,
    /// Cancelling the game (its creator's).
    Cancel,
    /// Inviting someone to an empty seat (the creator's).
    Invite,
    /// Withdrawing an invitation (the creator's).
    Withdraw,
}

/// A refusal of a seat's or an invitation's operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The game was cancelled before it started.
    Cancelled(Asked),
    /// The game has already started: every seat is taken.
    Started(Asked),
    /// The game is over: it finished, or (`stopped`) a competition's director ended it while it
    /// was played.
    Over { asked: Asked, stopped: bool },
    /// The caller already has a seat in the game (joining again).
    Seated(u8),
    /// The caller declined the game's invitation: they may not join, and have nothing left to
    /// decline.
    Declined(Asked),
    /// The creator withdrew the caller's invitation: likewise.
    Withdrawn(Asked),
    /// The caller is not invited, and no seat is open.
    NoOpenSeat,
    /// The caller has no invitation to decline (never had one, or took its seat).
    NoInvitation,
    /// Only the game's creator may (cancel it, invite, withdraw an invitation).
    NotCreator(Asked),
    /// The player to invite, by id, does not exist.
    NoPlayer(UserId),
    /// The creator invited their own address.
    InvitesSelf,
    /// The address invited already has a seat or an invitation in the game.
    AlreadyInvited,
    /// No seat is empty: nobody can be invited until an invitation is withdrawn or declined.
    NoEmptySeat,
    /// The game has no seat with this number.
    NoSuchSeat(i16),
    /// The seat is taken: its invitation was accepted.
    SeatTaken(i16),
    /// The seat is empty already.
    SeatEmpty(i16),
}

impl Refusal {
    /// Why `asked` is refused by what became of `game`; `None` while it waits for players.
    pub(super) fn not_waiting(game: &Game, asked: Asked) -> Option<Refusal> {
        match GameStatus::from_db(&game.status) {
            GameStatus::Waiting => None,
            GameStatus::Active => Some(Refusal::Started(asked)),
            // Cancelled by its creator before it started: it never had a state.
            GameStatus::Aborted if game.state.is_none() => Some(Refusal::Cancelled(asked)),
            GameStatus::Aborted => Some(Refusal::Over {
                asked,
                stopped: true,
            }),
            GameStatus::Finished => Some(Refusal::Over {
                asked,
                stopped: false,
            }),
        }
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        let forbidden = |s: &str| ApiError::Forbidden(s.to_owned());
        let conflict = |s: &str| ApiError::Conflict(s.to_owned());
        let no_invitation = || forbidden("you have no invitation to this game to decline");
        match r {
            Refusal::Cancelled(Asked::Join) => {
                conflict("the game was cancelled before it started; nobody can join it")
            }
            Refusal::Started(Asked::Join) => {
                conflict("the game has already started; every seat is taken")
            }
            Refusal::Over {
                asked: Asked::Join, ..
            } => conflict("the game is over"),
            // The other operations' words: an aborted game is cancelled, any other has started.
            Refusal::Cancelled(_) | Refusal::Over { stopped: true, .. } => {
                conflict("the game was cancelled")
            }
            Refusal::Started(_) | Refusal::Over { stopped: false, .. } => {
                conflict("the game has already started")
            }
            Refusal::Seated(seat) => {
                ApiError::Conflict(format!("you already have seat {seat} in this game"))
            }
            Refusal::Declined(Asked::Join) => {
                forbidden("you may not join this game: you declined its invitation")
            }
            Refusal::Withdrawn(Asked::Join) => {
                forbidden("you may not join this game: your invitation was withdrawn")
            }
            Refusal::Declined(_) | Refusal::Withdrawn(_) | Refusal::NoInvitation => no_invitation(),
            Refusal::NoOpenSeat => {
                forbidden("you are not invited to this game and no seat is open")
            }
            Refusal::NotCreator(asked) => ApiError::Forbidden(format!(
                "only the game's creator may {}",
                match asked {
                    Asked::Cancel => "cancel it",
                    Asked::Invite => "invite players",
                    Asked::Withdraw => "withdraw an invitation",
                    // Never raised: joining and declining are the invitee's.
                    Asked::Join | Asked::Decline => "do this",
                }
            )),
            Refusal::NoPlayer(player) => {
                ApiError::Validation(format!("there is no player {player}"))
            }
            Refusal::InvitesSelf => ApiError::Validation("you cannot invite yourself".to_owned()),
            Refusal::AlreadyInvited => {
                conflict("that player already has a seat or an invitation in this game")
            }
            Refusal::NoEmptySeat => {
                conflict("no seat is empty: withdraw an invitation first, or wait for a decline")
            }
            Refusal::NoSuchSeat(seat) => ApiError::NotFound(format!("the game has no seat {seat}")),
            Refusal::SeatTaken(seat) => {
                ApiError::Conflict(format!("seat {seat} is taken: its invitation was accepted"))
            }
            Refusal::SeatEmpty(seat) => ApiError::Conflict(format!("seat {seat} is already empty")),
        }
    }
}

impl crate::services::refusal::Refusal for Refusal {}

/// What stops this service's transactions (see [`crate::services::refusal`]).
pub(crate) type Failure = crate::services::refusal::Failure<Refusal>;
pub(crate) use crate::services::refusal::{as_api, split};

#[cfg(test)]
mod tests {
    use super::*;

    /// The API's words for every refusal, as the service said them before they were typed: its
    /// code and sentence (clients and the HTTP tests read them).
    #[test]
    fn each_refusal_is_said_by_the_api_as_before() {
        let player = UserId(uuid::Uuid::nil());
        let over = |asked, stopped| Refusal::Over { asked, stopped };
        let cases = [
            (
                Refusal::Cancelled(Asked::Join),
                "conflict",
                "the game was cancelled before it started; nobody can join it",
            ),
            (
                Refusal::Started(Asked::Join),
                "conflict",
                "the game has already started; every seat is taken",
            ),
            (over(Asked::Join, false), "conflict", "the game is over"),
            (over(Asked::Join, true), "conflict", "the game is over"),
            (
                Refusal::Cancelled(Asked::Decline),
                "conflict",
                "the game was cancelled",
            ),
            (
                Refusal::Cancelled(Asked::Cancel),
                "conflict",
                "the game was cancelled",
            ),
            (
                over(Asked::Invite, true),
                "conflict",
                "the game was cancelled",
            ),
            (
                Refusal::Started(Asked::Withdraw),
                "conflict",
                "the game has already started",
            ),
            (
                over(Asked::Cancel, false),
                "conflict",
                "the game has already started",
            ),
            (
                Refusal::Seated(1),
                "conflict",
                "you already have seat 1 in this game",
            ),
            (
                Refusal::Declined(Asked::Join),
                "forbidden",
                "you may not join this game: you declined its invitation",
            ),
            (
                Refusal::Withdrawn(Asked::Join),
                "forbidden",
                "you may not join this game: your invitation was withdrawn",
            ),
            (
                Refusal::NoOpenSeat,
                "forbidden",
                "you are not invited to this game and no seat is open",
            ),
            (
                Refusal::NoInvitation,
                "forbidden",
                "you have no invitation to this game to decline",
            ),
            (
                Refusal::Declined(Asked::Decline),
                "forbidden",
                "you have no invitation to this game to decline",
            ),
            (
                Refusal::Withdrawn(Asked::Decline),
                "forbidden",
                "you have no invitation to this game to decline",
            ),
            (
                Refusal::NotCreator(Asked::Cancel),
                "forbidden",
                "only the game's creator may cancel it",
            ),
            (
                Refusal::NotCreator(Asked::Invite),
                "forbidden",
                "only the game's creator may invite players",
            ),
            (
                Refusal::NotCreator(Asked::Withdraw),
                "forbidden",
                "only the game's creator may withdraw an invitation",
            ),
            (
                Refusal::NoPlayer(player),
                "validation_failed",
                "there is no player 00000000-0000-0000-0000-000000000000",
            ),
            (
                Refusal::InvitesSelf,
                "validation_failed",
                "you cannot invite yourself",
            ),
            (
                Refusal::AlreadyInvited,
                "conflict",
                "that player already has a seat or an invitation in this game",
            ),
            (
                Refusal::NoEmptySeat,
                "conflict",
                "no seat is empty: withdraw an invitation first, or wait for a decline",
            ),
            (
                Refusal::NoSuchSeat(5),
                "not_found",
                "the game has no seat 5",
            ),
            (
                Refusal::SeatTaken(1),
                "conflict",
                "seat 1 is taken: its invitation was accepted",
            ),
            (Refusal::SeatEmpty(2), "conflict", "seat 2 is already empty"),
        ];
        for (refusal, code, sentence) in cases {
            let e = ApiError::from(refusal.clone());
            assert_eq!(e.code().as_str(), code, "{refusal:?}");
            assert_eq!(e.to_string(), sentence, "{refusal:?}");
        }
    }
}
