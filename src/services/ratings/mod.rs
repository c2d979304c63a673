//! Ratings (design.md section 16): one rating per account and kind of game, changed in the
//! transaction that ends a rated game, from the `game_results` rows that transaction writes.
//! Those rows are written once per game (their key is the game and seat, and the game row is
//! locked), and the history's key is the game and account: a retried or racing game end cannot
//! count twice, and an aborted game, which writes no results, never counts.
//!
//! The numbers come from [`system`] (pure); this module stores them, [`read`] answers the
//! profiles, leaderboards and histories, and [`rebuild`] recomputes everything from the stored
//! results. Must not depend on actix or routes.

mod read;
mod rebuild;
pub mod system;

pub use read::{
    LeaderboardEntry, Profile, RatingPoint, RatingView, RecentResult, SeatRating, history,
    leaderboard, profile, seat_rating,
};
pub use rebuild::{Rebuilt, rebuild};

use crate::engine::registry::GameKind;
use crate::error::ApiError;
use crate::models::{Game, GameResult, NewRatingChange, RatingRow};
use crate::schema::{rating_history, ratings};
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use system::{Shown, Skill, System};
use uuid::Uuid;

/// A kind by its wire name, or the 404 that names the kinds there are.
///
/// # Errors
/// 404 `not_found` for a name that is no kind of game.
pub fn kind_named(name: &str) -> Result<GameKind, ApiError> {
    GameKind::parse(name).ok_or_else(|| {
        ApiError::NotFound(format!(
            "there is no game kind {name:?}; the kinds are {}",
            GameKind::names()
        ))
    })
}

/// Whether a game's results count: each seat a different account (design.md section 16), and
/// as many as the kind's system rates (two for Glicko-2, two or more for Weng–Lin). Seats are
/// distinct accounts today (joining twice is refused); the check keeps a future path from
/// rating someone against themselves.
fn counts(kind: GameKind, placed: &[(Uuid, i16)]) -> bool {
    let mut users: Vec<Uuid> = placed.iter().map(|(u, _)| *u).collect();
    users.sort_unstable();
    users.dedup();
    let seats_ok = match System::of(kind) {
        System::Glicko2 => placed.len() == 2,
        System::WengLin => placed.len() >= 2,
    };
    seats_ok && users.len() == placed.len()
}

fn shown_of(row: &RatingRow) -> Shown {
    Shown {
        rating: row.rating,
        deviation: row.deviation,
        volatility: row.volatility,
        mu: row.mu,
        sigma: row.sigma,
    }
}

/// The row of an account that has not played a rated game of the kind yet.
fn initial_row(user: Uuid, kind: GameKind, at: DateTime<Utc>) -> RatingRow {
    let shown = Skill::initial(System::of(kind)).shown();
    RatingRow {
        user_id: user,
        kind: kind.as_str().to_owned(),
        rating: shown.rating,
        deviation: shown.deviation,
        volatility: shown.volatility,
        mu: shown.mu,
        sigma: shown.sigma,
        games: 0,
        updated_at: at,
    }
}

/// The rows after one game and the history it leaves, from the rows before and each player's
/// place, in the same order. The live update and the rebuild both come here, so they agree to
/// the last bit. `None` when the game does not count.
fn apply_game(
    kind: GameKind,
    game: Uuid,
    at: DateTime<Utc>,
    before: &[(RatingRow, i16)],
) -> Option<Vec<(RatingRow, NewRatingChange)>> {
    let placed: Vec<(Uuid, i16)> = before.iter().map(|(r, p)| (r.user_id, *p)).collect();
    if !counts(kind, &placed) {
        return None;
    }
    let system = System::of(kind);
    let players: Vec<(Skill, u8)> = before
        .iter()
        .map(|(row, place)| {
            let place = u8::try_from(*place).unwrap_or(u8::MAX);
            (Skill::stored(system, &shown_of(row)), place)
        })
        .collect();
    let after = system::rate(system, &players)?;
    Some(
        before
            .iter()
            .zip(after)
            .map(|((old, _), skill)| {
                let new = skill.shown();
                let row = RatingRow {
                    rating: new.rating,
                    deviation: new.deviation,
                    volatility: new.volatility,
                    mu: new.mu,
                    sigma: new.sigma,
                    games: old.games.saturating_add(1),
                    updated_at: at,
                    ..old.clone()
                };
                let change = NewRatingChange {
                    user_id: old.user_id,
                    kind: old.kind.clone(),
                    game_id: game,
                    at,
                    rating_before: old.rating,
                    deviation_before: old.deviation,
                    volatility_before: old.volatility,
                    mu_before: old.mu,
                    sigma_before: old.sigma,
                    rating_after: new.rating,
                    deviation_after: new.deviation,
                    volatility_after: new.volatility,
                    mu_after: new.mu,
                    sigma_after: new.sigma,
                };
                (row, change)
            })
            .collect(),
    )
}

/// Counts a game that has just ended: called by the write path in the transaction that writes
/// `results` (one per seated account), with the game row locked. Does nothing for an unrated
/// game, or one whose seats are not all different accounts.
///
/// # Errors
/// Database failures only.
pub fn record_game(
    conn: &mut PgConnection,
    game: &Game,
    results: &[GameResult],
) -> Result<(), ApiError> {
    if !game.rated {
        return Ok(());
    }
    let kind = GameKind::parse(&game.kind).ok_or_else(|| {
        ApiError::internal(anyhow::anyhow!("game {} has an unknown kind", game.id))
    })?;
    let placed: Vec<(Uuid, i16)> = results.iter().map(|r| (r.user_id, r.place)).collect();
    let Some(at) = results.first().map(|r| r.finished_at) else {
        return Ok(());
    };
    if !counts(kind, &placed) {
        tracing::info!(game.id = %game.id, "rated game not counted: its seats are not distinct accounts");
        return Ok(());
    }
    let mut users: Vec<Uuid> = placed.iter().map(|(u, _)| *u).collect();
    users.sort_unstable();
    // The players' rows are created if new and locked in one order (by account id): two games
    // ending at once with a player in common wait for each other instead of deadlocking, and
    // the second reads what the first wrote.
    let fresh: Vec<RatingRow> = users.iter().map(|u| initial_row(*u, kind, at)).collect();
    diesel::insert_into(ratings::table)
        .values(&fresh)
        .on_conflict_do_nothing()
        .execute(conn)?;
    let rows: Vec<RatingRow> = ratings::table
        .filter(ratings::kind.eq(kind.as_str()))
        .filter(ratings::user_id.eq_any(&users))
        .order(ratings::user_id)
        .for_update()
        .select(RatingRow::as_select())
        .load(conn)?;
    let mut before = Vec::with_capacity(placed.len());
    for (user, place) in &placed {
        let row = rows
            .iter()
            .find(|r| r.user_id == *user)
            .cloned()
            .ok_or_else(|| ApiError::internal(anyhow::anyhow!("no rating row for {user}")))?;
        before.push((row, *place));
    }
    let Some(after) = apply_game(kind, game.id, at, &before) else {
        return Ok(());
    };
    for (row, _) in &after {
        diesel::update(ratings::table.find((row.user_id, &row.kind)))
            .set(row)
            .execute(conn)?;
    }
    let changes: Vec<NewRatingChange> = after.into_iter().map(|(_, c)| c).collect();
    diesel::insert_into(rating_history::table)
        .values(&changes)
        .execute(conn)?;
    tracing::info!(game.id = %game.id, kind = kind.as_str(), players = changes.len(), "ratings updated");
    Ok(())
}
