//! The game resource of api.md as one caller may see it, built from the rows and the state:
//! the view is the engine's view for the caller's seat (a spectator's when unseated).

use crate::domain::UserId;
use crate::engine::registry::AnyState;
use crate::engine::{Seat, Viewer};
use crate::models::{Game, GameSeat};
use crate::services::clocks::Clock;
use crate::services::ratings::SeatRating;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;
use utoipa::ToSchema;
use uuid::Uuid;

/// Where a game is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Seats are still open or invitations unanswered.
    Waiting,
    Active,
    Finished,
    Aborted,
}

impl GameStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Waiting => "waiting",
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
            GameStatus::Aborted => "aborted",
        }
    }

    pub fn from_db(text: &str) -> GameStatus {
        match text {
            "waiting" => GameStatus::Waiting,
            "active" => GameStatus::Active,
            "finished" => GameStatus::Finished,
            _ => GameStatus::Aborted,
        }
    }
}

/// A seat's row with its player's display name.
#[derive(Debug, Clone)]
pub struct SeatRow {
    pub row: GameSeat,
    pub display_name: Option<String>,
    /// The display name of an invited address that has an account (not yet joined).
    pub invitee_name: Option<String>,
    /// The player's rating in the game's kind, when they have one.
    pub rating: Option<SeatRating>,
    /// The player is on vacation now.
    pub on_vacation: bool,
}

impl SeatRow {
    pub fn seat(&self) -> Seat {
        Seat(u8::try_from(self.row.seat).unwrap_or(u8::MAX))
    }

    /// The seat as every caller may see it (an invited address is never shown).
    pub fn resource(&self, pending: bool) -> SeatResource {
        SeatResource {
            seat: self.seat().0,
            player: match (self.row.user_id, &self.display_name) {
                (Some(id), Some(name)) => Some(PlayerRef {
                    id,
                    display_name: name.clone(),
                }),
                _ => None,
            },
            pending,
            invited: match (
                self.row.user_id,
                &self.row.invited_email,
                &self.invitee_name,
            ) {
                (Some(_), _, _) | (None, None, _) => None,
                (None, Some(_), Some(name)) => Some(Invitee::Player {
                    display_name: name.clone(),
                }),
                (None, Some(email), None) => Some(Invitee::Address {
                    email_masked: mask_email(email),
                }),
            },
            open: self.row.user_id.is_none()
                && self.row.invited_email.is_none()
                && !self.row.closed,
            deadline: self.row.deadline.filter(|_| pending),
            bank_seconds: self.row.bank_seconds,
            timeouts: u32::try_from(self.row.timeouts).unwrap_or(0),
            dropped: self.row.dropped,
            rating: self.rating.clone().filter(|_| self.row.user_id.is_some()),
            // Only while it bears on a deadline: a finished game, readable by anyone, must not
            // tell whether its players are away from home now.
            on_vacation: self.on_vacation && self.row.user_id.is_some() && pending,
        }
    }
}

/// A player as others see them.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlayerRef {
    pub id: Uuid,
    pub display_name: String,
}

/// One seat at the table.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeatResource {
    pub seat: u8,
    /// The player in this seat; `null` while it is open or its invitation unanswered.
    pub player: Option<PlayerRef>,
    /// Whether the game waits for this seat.
    pub pending: bool,
    /// Who the seat is reserved for while they have not joined: a player's display name, or a
    /// masked address (`a***@example.org`); a full address is never shown.
    pub invited: Option<Invitee>,
    /// Whether anyone may take the seat.
    pub open: bool,
    /// When the seat's current decision times out; `null` when it is not pending or the game
    /// has no clock.
    pub deadline: Option<DateTime<Utc>>,
    /// What is left in the seat's bank (a `fischer` clock only), as of its last decision.
    pub bank_seconds: Option<i64>,
    /// Consecutive timeouts so far.
    pub timeouts: u32,
    /// Dropped after `drop_after` consecutive timeouts: its decisions are made by default and it
    /// ranks last.
    pub dropped: bool,
    /// The player's current rating in this kind of game; `null` for a seat not taken or a
    /// player without a rated game of the kind.
    pub rating: Option<SeatRating>,
    /// The player of this pending seat is on vacation now (`false` for a seat not pending). In a
    /// game whose clock allows vacation
    /// (`clock.vacation_allowed`), the seat's `deadline` does not pass while they are away, and
    /// it moves on by the time away when they return (so the one shown may lie in the past).
    pub on_vacation: bool,
}

/// The invitee of a seat not taken yet.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum Invitee {
    /// An invited address that has an account.
    #[schema(title = "InvitedPlayer")]
    Player { display_name: String },
    /// An invited address without an account, masked.
    #[schema(title = "InvitedAddress")]
    Address { email_masked: String },
}

/// `ada@example.org` as `a***@example.org`: enough to recognise, not enough to write to.
pub fn mask_email(email: &str) -> String {
    match email.split_once('@') {
        Some((local, domain)) => {
            let first: String = local.chars().take(1).collect();
            format!("{first}***@{domain}")
        }
        None => "***".to_owned(),
    }
}

/// The caller's place in the game.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct You {
    pub seat: u8,
}

/// A game as the caller may see it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameResource {
    pub id: Uuid,
    /// The kind of game, e.g. `magnate`.
    pub kind: String,
    pub status: GameStatus,
    /// Counts for the players' ratings when it ends (asked for at creation; only when every seat
    /// is a different account).
    pub rated: bool,
    /// Spectators may read and write the chat while the game is played (set at creation).
    pub spectator_chat: bool,
    /// Increments with every stored change; send it back as `expected_version`.
    pub version: i64,
    /// The resolved rules: every option with its value.
    #[schema(value_type = Object)]
    pub options: Value,
    /// The time control.
    pub clock: Clock,
    /// Indexed by seat.
    pub seats: Vec<SeatResource>,
    /// The caller's seat; `null` for spectators.
    pub you: Option<You>,
    /// The game-specific view for the caller; `null` until the game starts.
    #[schema(value_type = Option<crate::routes::schemas::GameView>)]
    pub view: Option<Box<RawValue>>,
    /// What the caller may do now, each submittable as listed; empty when not pending.
    #[schema(value_type = Vec<crate::routes::schemas::GameAction>)]
    pub legal_actions: Vec<Box<RawValue>>,
    /// Once the game is over, the result as its game reports it: `winners` (seats) and the
    /// game's own detail (Magnate: the `tiebreak` that decided; Lancaster: `scores` per seat).
    #[schema(value_type = Option<Object>)]
    pub outcome: Option<Value>,
    /// Lower-case hex SHA-256 of the secret seed, published at creation.
    #[schema(pattern = "^[0-9a-f]{64}$")]
    pub seed_commitment: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// The caller's seat in `seats`, if any.
pub fn seat_of(seats: &[SeatRow], user: Option<UserId>) -> Option<Seat> {
    let user = user?;
    seats
        .iter()
        .find(|s| s.row.user_id == Some(user.0))
        .map(SeatRow::seat)
}

/// What a game's state shows one viewer at one version: the part of the resource that runs the
/// engine (its view, the seat's legal actions, who is pending). A stored state never changes under
/// its version, so this is kept and served again while the version stays (see `seen`). Kept as
/// JSON text: an answer only passes them on, and text is copied and written out whole.
#[derive(Debug, Clone, Default)]
pub struct Seen {
    pub pending: crate::engine::SeatSet,
    pub view: Option<Box<RawValue>>,
    pub legal_actions: Vec<Box<RawValue>>,
}

impl Seen {
    /// Runs the engine for `you` (a spectator when `None`).
    pub fn of(state: Option<&AnyState>, you: Option<Seat>, status: GameStatus) -> Seen {
        let viewer = you.map_or(Viewer::Spectator, Viewer::Seat);
        Seen {
            pending: state.map(AnyState::pending).unwrap_or_default(),
            view: state.map(|s| s.view_text(viewer)),
            legal_actions: match (state, you) {
                (Some(state), Some(seat)) if status == GameStatus::Active => {
                    state.legal_actions_text(seat)
                }
                _ => Vec::new(),
            },
        }
    }
}

/// Renders the resource for `caller` (a spectator when unseated or anonymous).
pub fn render(
    game: &Game,
    seats: &[SeatRow],
    state: Option<&AnyState>,
    caller: Option<UserId>,
) -> GameResource {
    let you = seat_of(seats, caller);
    let seen = Seen::of(state, you, GameStatus::from_db(&game.status));
    assemble(game, seats, you, seen)
}

/// The resource from the rows and what the state shows `you`.
pub fn assemble(game: &Game, seats: &[SeatRow], you: Option<Seat>, seen: Seen) -> GameResource {
    GameResource {
        id: game.id,
        kind: game.kind.clone(),
        status: GameStatus::from_db(&game.status),
        rated: game.rated,
        spectator_chat: game.spectator_chat,
        version: game.version,
        options: game.options.clone(),
        clock: Clock::stored(&game.clock),
        seats: seats
            .iter()
            .map(|s| s.resource(seen.pending.contains(s.seat())))
            .collect(),
        you: you.map(|s| You { seat: s.0 }),
        view: seen.view,
        legal_actions: seen.legal_actions,
        outcome: game.outcome.clone(),
        seed_commitment: game.seed_commitment.clone(),
        created_at: game.created_at,
        updated_at: game.updated_at,
    }
}
