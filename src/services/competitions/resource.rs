//! What the API answers about competitions: the JSON shapes of api.md's "Competitions".

use super::{CompetitionRow, EntrantRow, Entry, Status};
use crate::competitions::Points;
use crate::error::ApiError;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

/// An account as competitions show it: never its address.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccountRef {
    pub id: Uuid,
    pub display_name: String,
}

/// An entrant.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EntrantResource {
    pub account: AccountRef,
    /// The entry order (1 first).
    pub number: i32,
    /// Given at the start: by rating (highest first, none counts as 0), then entry order.
    pub pairing_number: Option<i32>,
    /// The rating in this kind at the start (seeding), if any.
    pub rating: Option<i32>,
    /// `entered`, `withdrawn` or `disqualified`.
    pub status: String,
    /// Leagues: the division this season (1 = top).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub division: Option<i32>,
    /// A withdrawal before half of the entrant's games: their games count for nobody.
    pub annulled: bool,
    pub entered_at: DateTime<Utc>,
    /// When the entrant withdrew or was disqualified.
    pub left_at: Option<DateTime<Utc>>,
}

impl EntrantResource {
    pub(crate) fn of(row: &EntrantRow, account: AccountRef) -> EntrantResource {
        EntrantResource {
            account,
            number: row.number,
            pairing_number: row.pairing_number,
            rating: row.rating,
            status: row.status.clone(),
            division: row.division,
            annulled: row.annulled,
            entered_at: row.entered_at,
            left_at: row.left_at,
        }
    }
}

/// A competition in the public list.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CompetitionSummary {
    pub id: Uuid,
    pub name: String,
    pub kind: String,
    #[schema(value_type = Object)]
    pub format: Value,
    pub status: Status,
    pub entry: Entry,
    pub entrants: i64,
    pub organiser: String,
    pub current_round: i32,
    pub created_at: DateTime<Utc>,
}

impl CompetitionSummary {
    pub(crate) fn of(row: &CompetitionRow, organiser: String, entrants: i64) -> CompetitionSummary {
        CompetitionSummary {
            id: row.id,
            name: row.name.clone(),
            kind: row.kind.clone(),
            format: row.format.clone(),
            status: row.status(),
            entry: if row.entry == "open" {
                Entry::Open
            } else {
                Entry::Invite
            },
            entrants,
            organiser,
            current_round: row.current_round,
            created_at: row.created_at,
        }
    }
}

/// A competition.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CompetitionResource {
    pub id: Uuid,
    pub name: String,
    pub kind: String,
    /// The games' options as resolved at creation.
    #[schema(value_type = Object)]
    pub options: Value,
    #[schema(value_type = Object)]
    pub clock: Value,
    pub rated: bool,
    /// `{"type": "round_robin" | "swiss" | "knockout" | "league" | "tables", ...}` (api.md).
    #[schema(value_type = Object)]
    pub format: Value,
    pub entry: Entry,
    pub max_entrants: Option<i32>,
    pub min_rating: Option<i32>,
    /// Open entry only for accounts whose mail address is known to work (they have used a
    /// mailed link or moved by mail).
    pub require_working_address: bool,
    /// The tie-breaks in the organiser's order.
    pub tie_breaks: Vec<String>,
    /// Points of a pairing-allocated bye.
    pub bye_points: f64,
    /// Points by place at a table (first place first); absent: one point per seat beaten.
    pub place_points: Option<Vec<f64>>,
    pub vacation_allowed: bool,
    pub status: Status,
    pub organiser: AccountRef,
    /// Entrants by pairing number (entry order before the start).
    pub entrants: Vec<EntrantResource>,
    /// Addresses invited (the addresses themselves are not shown).
    pub invited: i64,
    /// The last round paired (0 before the start).
    pub current_round: i32,
    pub season: i32,
    /// The director finalised it: the standings are frozen.
    pub finalised: bool,
    pub created_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
}

impl CompetitionResource {
    pub(crate) fn of(
        row: &CompetitionRow,
        organiser: AccountRef,
        entrants: Vec<EntrantResource>,
        invited: i64,
    ) -> Result<CompetitionResource, ApiError> {
        let scoring = row.scoring();
        Ok(CompetitionResource {
            id: row.id,
            name: row.name.clone(),
            kind: row.kind.clone(),
            options: row.options.clone(),
            clock: row.clock.clone(),
            rated: row.rated,
            format: row.format.clone(),
            entry: if row.entry == "open" {
                Entry::Open
            } else {
                Entry::Invite
            },
            max_entrants: row.max_entrants,
            min_rating: row.min_rating,
            require_working_address: row.require_working_address,
            tie_breaks: row
                .tie_breaks()
                .iter()
                .map(|t| t.name().to_owned())
                .collect(),
            bye_points: scoring.bye_points.to_f64(),
            place_points: scoring
                .place_points
                .map(|l| l.iter().map(|p| p.to_f64()).collect()),
            vacation_allowed: row.vacation_allowed,
            status: row.status(),
            organiser,
            entrants,
            invited,
            current_round: row.current_round,
            season: row.season,
            finalised: row.finalised_at.is_some(),
            created_at: row.created_at,
            started_at: row.started_at,
            finished_at: row.finished_at,
        })
    }
}

/// The result of one game as the competition counts it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PairingResult {
    /// The place of each seat (1 = first; equal places share).
    pub places: Vec<u32>,
    /// The points each seat scored in the competition.
    #[schema(value_type = Vec<f64>)]
    pub points: Vec<Points>,
    /// Not played: the seats that did not appear lose, the others win.
    pub forfeit: bool,
    /// Set or corrected by the director (see the audit log).
    pub corrected: bool,
    /// An entrant of this game withdrew before half of their games: the game counts for
    /// nobody (its `points` are 0), as in the standings.
    pub annulled: bool,
}

/// One game of a round.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PairingResource {
    /// The board or table number (1 first); a knockout match's games share it.
    pub table: i32,
    /// The entrants by seat (seat 0 plays the role of White).
    pub seats: Vec<AccountRef>,
    pub game_id: Uuid,
    /// `null` while the game is being played.
    pub result: Option<PairingResult>,
    /// Leagues: the division.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub division: Option<i32>,
}

/// An entrant who sits a round out.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ByeResource {
    pub account: AccountRef,
    /// `pairing_allocated` (the competition's bye points), `full`, `half` or `zero`.
    pub kind: String,
    /// What the bye scored; 0 for an entrant whose results are annulled.
    #[schema(value_type = f64)]
    pub points: Points,
}

/// A round.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RoundResource {
    pub number: i32,
    pub season: i32,
    /// Every game of the round has a result.
    pub finished: bool,
    pub pairings: Vec<PairingResource>,
    pub byes: Vec<ByeResource>,
}

/// A tie-break's name and value.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TieBreakResource {
    pub name: String,
    #[schema(value_type = f64)]
    pub value: Points,
}

/// One line of the standings.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StandingRow {
    /// Equal points and tie-breaks share a rank (1, 2, 2, 4); leagues rank within a division.
    pub rank: u32,
    pub entrant: AccountRef,
    #[schema(value_type = f64)]
    pub points: Points,
    /// Games played over the board.
    pub played: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub byes: u32,
    pub forfeit_wins: u32,
    pub forfeit_losses: u32,
    /// `entered`, `withdrawn` or `disqualified`.
    pub status: String,
    /// Withdrew before half of their games: listed last, every game and bye counting for
    /// nobody (all numbers 0).
    #[serde(default)]
    pub annulled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub division: Option<i32>,
    /// In the organiser's order.
    pub tie_breaks: Vec<TieBreakResource>,
}

/// One director action (or the server's own `ended_early`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AuditEntry {
    pub seq: i64,
    /// Who acted; `null` for the server itself (`ended_early`: nobody left to pair or seat).
    pub actor: Option<AccountRef>,
    pub action: String,
    /// The action's body without its reason (game, places, seconds, accounts...).
    #[schema(value_type = Object)]
    pub detail: Value,
    pub reason: String,
    pub at: DateTime<Utc>,
}
