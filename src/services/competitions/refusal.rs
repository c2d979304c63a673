//! Why a competition's service refuses what it was asked (entry, withdrawal, the start, a
//! director's action): a type, said by the API in its English sentences and codes
//! ([`ApiError`], through `From`) and by the pages in their reader's language. Nothing is written
//! when a refusal is answered: it rolls back the transaction it is raised in ([`Failure`]).

use super::Status;
use crate::competitions::format::FormatError;
use crate::domain::Invalid;
use crate::error::ApiError;
use uuid::Uuid;

/// A refusal of a competition's service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Starting (or a league's next season) is the organiser's.
    NotOrganiser,
    /// Directing is the organiser's.
    NotDirector,
    /// Only the organiser enters someone else.
    EntersOthers,
    /// Only the entrant or the organiser withdraws an entry.
    WithdrawsOthers,
    /// Entry closed with the start.
    EntryClosed,
    AlreadyEntered,
    /// The account to enter or to bring in does not exist.
    NoAccount(Uuid),
    /// Entry by invitation, and the caller's address is not invited.
    NotInvited,
    /// Entry only for addresses known to work, and the caller's is not (yet).
    AddressNotKnownToWork,
    /// The caller's rating in the competition's game is below `min`, or (`None`) they have none
    /// in it yet.
    RatingBelow {
        min: i32,
        rating: Option<i32>,
    },
    Full {
        max: i32,
    },
    /// The account left already (`status`: withdrawn or disqualified).
    AlreadyLeft {
        account: Uuid,
        status: String,
    },
    /// The account is not an entrant.
    NotEntered(Uuid),
    /// An account brought in to replace someone is an entrant already.
    AlreadyEntrant(Uuid),
    /// The competition has finished (and is not a league between seasons).
    Finished,
    /// Only a registering competition starts (or a finished league season goes on).
    NotStartable {
        status: Status,
        league: bool,
    },
    /// Only a league has another season.
    NoNextSeason,
    /// The entrants do not make the format's first round.
    CannotStart(FormatError),
    /// A league's next season would have fewer than two entrants.
    SeasonTooFew,
    /// The standings are frozen.
    Finalised,
    /// A director's action other than finalising needs the competition started.
    NotStarted,
    /// Pausing needs it running.
    NotRunning(Status),
    /// Resuming needs it paused.
    NotPaused,
    /// The director's reason is not one line of 1 to [`super::director::REASON_MOST`]
    /// characters.
    Reason(Invalid),
    /// The game named is not one of the competition's.
    NotItsGame(Uuid),
    /// An extension outside [`super::director::EXTENSION_SECONDS`].
    ExtensionSeconds,
    /// Nobody in the game has a deadline to extend.
    NoDeadline,
    /// The winner named is not an entrant.
    WinnerNotEntrant(Uuid),
    /// The winner named does not play in the game.
    WinnerNotInGame {
        winner: Uuid,
        game: Uuid,
    },
    /// Places given are not one per seat.
    PlacesPerSeat {
        seats: usize,
    },
    /// A place is not between 1 and the number of seats.
    PlacesRange {
        seats: usize,
    },
    /// The places do not read as a ranking.
    NotARanking(Vec<u32>),
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        let forbidden = |s: &str| ApiError::Forbidden(s.to_owned());
        let conflict = |s: &str| ApiError::Conflict(s.to_owned());
        match r {
            Refusal::NotOrganiser => forbidden("only the competition's organiser may do this"),
            Refusal::NotDirector => forbidden("only the competition's organiser may direct it"),
            Refusal::EntersOthers => forbidden("only the organiser may enter someone else"),
            Refusal::WithdrawsOthers => {
                forbidden("only the entrant or the organiser may withdraw an entry")
            }
            Refusal::EntryClosed => conflict("entry is closed: the competition has started"),
            Refusal::AlreadyEntered => conflict("already entered"),
            Refusal::NoAccount(who) => ApiError::NotFound(format!("there is no account {who}")),
            Refusal::NotInvited => {
                forbidden("this competition is by invitation and your address is not invited")
            }
            Refusal::AddressNotKnownToWork => forbidden(
                "this competition takes only accounts whose mail address is known to work: \
                 sign in once with a link mailed to you (POST /api/v1/auth/email-link), then enter",
            ),
            Refusal::RatingBelow {
                min,
                rating: Some(rating),
            } => ApiError::Forbidden(format!(
                "this competition needs a rating of at least {min}; yours is {rating}"
            )),
            Refusal::RatingBelow { min, rating: None } => ApiError::Forbidden(format!(
                "this competition needs a rating of at least {min} in its game, and you have none \
                 in it yet"
            )),
            Refusal::Full { max } => {
                ApiError::Conflict(format!("the competition is full ({max} entrants)"))
            }
            Refusal::AlreadyLeft { account, status } => ApiError::Conflict(format!(
                "account {account} is already {status} from this competition"
            )),
            Refusal::NotEntered(account) => ApiError::NotFound(format!(
                "account {account} is not entered in this competition"
            )),
            Refusal::AlreadyEntrant(by) => {
                ApiError::Conflict(format!("account {by} is already an entrant"))
            }
            Refusal::Finished => conflict("the competition has finished"),
            Refusal::NotStartable { status, league } => ApiError::Conflict(format!(
                "the competition is {}, not registering{}",
                status.as_str(),
                if league { " nor a finished season" } else { "" }
            )),
            Refusal::NoNextSeason => conflict("only a league has another season"),
            Refusal::CannotStart(e) => ApiError::Validation(format!("cannot start: {e}")),
            Refusal::SeasonTooFew => ApiError::Validation(
                "cannot start another season: fewer than 2 entrants are left".to_owned(),
            ),
            Refusal::Finalised => {
                conflict("the competition is finalised: its standings are frozen")
            }
            Refusal::NotStarted => conflict("the competition has not started yet"),
            Refusal::NotRunning(status) => ApiError::Conflict(format!(
                "the competition is {}, not running",
                status.as_str()
            )),
            Refusal::NotPaused => conflict("the competition is not paused"),
            Refusal::Reason(e) => ApiError::Validation(e.to_string()),
            Refusal::NotItsGame(game) => {
                ApiError::NotFound(format!("game {game} is not a game of this competition"))
            }
            Refusal::ExtensionSeconds => {
                let r = &super::director::EXTENSION_SECONDS;
                ApiError::Validation(format!(
                    "seconds: between {} and {} ({} days)",
                    r.start(),
                    r.end(),
                    r.end() / 86_400
                ))
            }
            Refusal::NoDeadline => conflict("nobody in that game has a deadline to extend"),
            Refusal::WinnerNotEntrant(w) => {
                ApiError::Validation(format!("winner: account {w} is not an entrant"))
            }
            Refusal::WinnerNotInGame { winner, game } => ApiError::Validation(format!(
                "winner: account {winner} does not play in game {game}"
            )),
            Refusal::PlacesPerSeat { seats } => {
                ApiError::Validation(format!("places: one place per seat ({seats} seats)"))
            }
            Refusal::PlacesRange { seats } => {
                ApiError::Validation(format!("places: each between 1 and {seats}"))
            }
            Refusal::NotARanking(places) => ApiError::Validation(format!(
                "places: {places:?} is not a ranking: a seat's place is one more than the number \
                 of seats ahead of it (1 = first; equal places share, as in [1, 2, 2, 4])"
            )),
        }
    }
}

impl crate::services::refusal::Refusal for Refusal {}

/// What stops this service's transactions (see [`crate::services::refusal`]).
pub(crate) type Failure = crate::services::refusal::Failure<Refusal>;
pub(crate) use crate::services::refusal::{as_api, split};
