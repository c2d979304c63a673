use crate::schema::{game_actions, game_events, game_results, game_seats, games};
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = games, check_for_backend(diesel::pg::Pg))]
pub struct Game {
    pub id: Uuid,
    pub kind: String,
    pub rules_version: i32,
    pub options: serde_json::Value,
    pub seed: Vec<u8>,
    pub seed_commitment: String,
    /// The engine's state as its JSON text, read into the typed state without a `Value` tree.
    pub state: Option<crate::db::JsonText>,
    pub version: i64,
    pub action_count: i64,
    pub event_count: i64,
    pub status: String,
    pub outcome: Option<serde_json::Value>,
    pub seat_count: i16,
    pub created_by: Uuid,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    pub clock: serde_json::Value,
    /// Counts for the players' ratings when it ends (design.md section 16).
    pub rated: bool,
    /// Spectators may read and write the game's chat (design.md section 17).
    pub spectator_chat: bool,
}

impl Game {
    /// A copy of the row without its state, the largest column: the write path returns the row
    /// as it is after a move, and copying the state into it only to drop it showed in `perf` of
    /// every submission (`bench_submit`).
    #[must_use]
    pub fn clone_without_state(&self) -> Game {
        Game {
            id: self.id,
            kind: self.kind.clone(),
            rules_version: self.rules_version,
            options: self.options.clone(),
            seed: self.seed.clone(),
            seed_commitment: self.seed_commitment.clone(),
            state: None,
            version: self.version,
            action_count: self.action_count,
            event_count: self.event_count,
            status: self.status.clone(),
            outcome: self.outcome.clone(),
            seat_count: self.seat_count,
            created_by: self.created_by,
            created_at: self.created_at,
            updated_at: self.updated_at,
            finished_at: self.finished_at,
            clock: self.clock.clone(),
            rated: self.rated,
            spectator_chat: self.spectator_chat,
        }
    }
}

/// A game's row without its state: for reads that can do without the engine (the state is the
/// largest column, and reading it means parsing it).
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = games, check_for_backend(diesel::pg::Pg))]
pub struct GameHead {
    pub id: Uuid,
    pub kind: String,
    pub rules_version: i32,
    pub options: serde_json::Value,
    pub seed: Vec<u8>,
    pub seed_commitment: String,
    pub version: i64,
    pub action_count: i64,
    pub event_count: i64,
    pub status: String,
    pub outcome: Option<serde_json::Value>,
    pub seat_count: i16,
    pub created_by: Uuid,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    pub clock: serde_json::Value,
    pub rated: bool,
    pub spectator_chat: bool,
}

impl GameHead {
    /// The row with `state` put back.
    pub fn with_state(self, state: Option<crate::db::JsonText>) -> Game {
        let GameHead {
            id,
            kind,
            rules_version,
            options,
            seed,
            seed_commitment,
            version,
            action_count,
            event_count,
            status,
            outcome,
            seat_count,
            created_by,
            created_at,
            updated_at,
            finished_at,
            clock,
            rated,
            spectator_chat,
        } = self;
        Game {
            id,
            kind,
            rules_version,
            options,
            seed,
            seed_commitment,
            state,
            version,
            action_count,
            event_count,
            status,
            outcome,
            seat_count,
            created_by,
            created_at,
            updated_at,
            finished_at,
            clock,
            rated,
            spectator_chat,
        }
    }
}

#[derive(Debug, Insertable)]
#[diesel(table_name = games)]
pub struct NewGame<'a> {
    pub id: Uuid,
    pub kind: &'a str,
    pub rules_version: i32,
    pub options: &'a serde_json::Value,
    pub seed: &'a [u8],
    pub seed_commitment: &'a str,
    pub status: &'a str,
    pub seat_count: i16,
    pub created_by: Uuid,
    pub clock: &'a serde_json::Value,
    pub rated: bool,
    pub spectator_chat: bool,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = game_seats, check_for_backend(diesel::pg::Pg))]
pub struct GameSeat {
    pub game_id: Uuid,
    pub seat: i16,
    pub user_id: Option<Uuid>,
    pub invited_email: Option<String>,
    pub is_pending: bool,
    pub entropy: Option<String>,
    pub joined_at: Option<DateTime<Utc>>,
    pub deadline: Option<DateTime<Utc>>,
    pub pending_since: Option<DateTime<Utc>>,
    pub bank_seconds: Option<i64>,
    pub timeouts: i32,
    pub dropped: bool,
    pub next_reminder_at: Option<DateTime<Utc>>,
    /// Declined or withdrawn: neither taken, invited nor open.
    pub closed: bool,
    /// The game's version when the seat's current decision began (`None` when not pending).
    pub pending_version: Option<i64>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = game_seats)]
pub struct NewGameSeat<'a> {
    pub game_id: Uuid,
    pub seat: i16,
    pub user_id: Option<Uuid>,
    pub invited_email: Option<&'a str>,
    pub joined_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = game_actions, check_for_backend(diesel::pg::Pg))]
pub struct GameAction {
    pub game_id: Uuid,
    pub seq: i64,
    pub seat: i16,
    pub action: serde_json::Value,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = game_events, check_for_backend(diesel::pg::Pg))]
pub struct GameEvent {
    pub game_id: Uuid,
    pub seq: i64,
    pub action_seq: i64,
    pub audience: serde_json::Value,
    pub event: serde_json::Value,
    pub created_at: DateTime<Utc>,
}

/// A seat's result, written when its game ends.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = game_results, check_for_backend(diesel::pg::Pg))]
pub struct GameResult {
    pub game_id: Uuid,
    pub seat: i16,
    pub user_id: Uuid,
    pub kind: String,
    pub place: i16,
    pub score: Option<i64>,
    pub tiebreaks: serde_json::Value,
    pub reason: String,
    pub finished_at: DateTime<Utc>,
}
