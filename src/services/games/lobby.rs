//! The lobby (design.md section 19): games waiting for players with seats anyone may take,
//! newest first, so a player finds a table without an invitation.

use super::resource::{SeatResource, SeatRow};
use super::seat_rows;
use crate::domain::UserId;
use crate::error::ApiError;
use crate::models::Game;
use crate::schema::{game_seats, games};
use diesel::prelude::*;
use serde::Serialize;
use utoipa::ToSchema;

/// A game with open seats.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LobbyGame {
    pub id: uuid::Uuid,
    pub kind: String,
    /// The resolved rules.
    #[schema(value_type = Object)]
    pub options: serde_json::Value,
    pub rated: bool,
    /// Every seat, as in the game resource (taken, invited, open).
    pub seats: Vec<SeatResource>,
    /// How many seats anyone may still take.
    pub open_seats: u8,
    pub created_at: chrono::DateTime<chrono::Utc>,
}

/// What the lobby lists.
#[derive(Debug, Clone, Default)]
pub struct LobbyFilter {
    pub kind: Option<String>,
    /// The game's seat count.
    pub seats: Option<i16>,
    pub limit: i64,
}

/// Waiting games with open seats that `caller` does not sit in, newest first.
///
/// # Errors
/// Database failures.
pub fn lobby(
    conn: &mut PgConnection,
    caller: UserId,
    filter: &LobbyFilter,
) -> Result<Vec<LobbyGame>, ApiError> {
    let open = game_seats::table
        .filter(game_seats::user_id.is_null())
        .filter(game_seats::invited_email.is_null())
        .filter(game_seats::closed.eq(false))
        .select(game_seats::game_id);
    let mine = game_seats::table
        .filter(game_seats::user_id.eq(caller.0))
        .select(game_seats::game_id);
    let mut query = games::table
        .filter(games::status.eq("waiting"))
        .filter(games::id.eq_any(open))
        .filter(games::id.ne_all(mine))
        .order((games::created_at.desc(), games::id))
        .select(Game::as_select())
        .limit(filter.limit)
        .into_boxed();
    if let Some(kind) = &filter.kind {
        query = query.filter(games::kind.eq(kind));
    }
    if let Some(seats) = filter.seats {
        query = query.filter(games::seat_count.eq(seats));
    }
    let found: Vec<Game> = query.load(conn)?;
    let ids: Vec<uuid::Uuid> = found.iter().map(|g| g.id).collect();
    let rows = seat_rows(conn, &ids)?;
    Ok(found
        .into_iter()
        .map(|game| {
            let seats: Vec<SeatRow> = rows
                .iter()
                .filter(|(id, _)| *id == game.id)
                .map(|(_, s)| s.clone())
                .collect();
            let resources: Vec<SeatResource> = seats.iter().map(|s| s.resource(false)).collect();
            let open_seats = resources.iter().filter(|s| s.open).count();
            LobbyGame {
                id: game.id,
                kind: game.kind,
                options: game.options,
                rated: game.rated,
                seats: resources,
                open_seats: u8::try_from(open_seats).unwrap_or(u8::MAX),
                created_at: game.created_at,
            }
        })
        .collect())
}
