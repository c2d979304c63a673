//! The public archive (design.md section 9): finished games, newest first, by kind and by
//! player. Everything listed is public already (a finished game's record is open to anyone).

use super::resource::{SeatResource, SeatRow};
use super::seat_rows;
use crate::domain::UserId;
use crate::error::ApiError;
use crate::models::Game;
use crate::schema::{game_seats, games};
use diesel::prelude::*;

/// A finished game as the archive lists it.
#[derive(Debug, Clone)]
pub struct ArchivedGame {
    pub id: uuid::Uuid,
    pub kind: String,
    pub seats: Vec<SeatResource>,
    pub outcome: Option<serde_json::Value>,
    pub finished_at: Option<chrono::DateTime<chrono::Utc>>,
}

/// What the archive lists.
#[derive(Debug, Clone, Default)]
pub struct ArchiveFilter {
    pub kind: Option<String>,
    pub player: Option<UserId>,
    pub limit: i64,
    pub offset: i64,
}

/// Finished games, newest first.
///
/// # Errors
/// Database failures.
pub fn archive(
    conn: &mut PgConnection,
    filter: &ArchiveFilter,
) -> Result<Vec<ArchivedGame>, ApiError> {
    let mut query = games::table
        .filter(games::status.eq("finished"))
        .order((games::finished_at.desc(), games::id))
        .select(Game::as_select())
        .limit(filter.limit)
        .offset(filter.offset)
        .into_boxed();
    if let Some(kind) = &filter.kind {
        query = query.filter(games::kind.eq(kind));
    }
    if let Some(player) = filter.player {
        let theirs = game_seats::table
            .filter(game_seats::user_id.eq(player.0))
            .select(game_seats::game_id);
        query = query.filter(games::id.eq_any(theirs));
    }
    let found: Vec<Game> = query.load(conn)?;
    let ids: Vec<uuid::Uuid> = found.iter().map(|g| g.id).collect();
    let rows = seat_rows(conn, &ids)?;
    Ok(found
        .into_iter()
        .map(|game| {
            let seats = rows
                .iter()
                .filter(|(id, _)| *id == game.id)
                .map(|(_, s): &(uuid::Uuid, SeatRow)| s.resource(false))
                .collect();
            ArchivedGame {
                id: game.id,
                kind: game.kind,
                seats,
                outcome: game.outcome,
                finished_at: game.finished_at,
            }
        })
        .collect())
}
