//! `herald ratings rebuild`: every rating recomputed from the stored `game_results`, game by
//! game in the order they were counted, through the same [`apply_game`](super::apply_game) the
//! live update uses, so that a rebuild of a healthy database gives exactly the stored values.
//!
//! The order: by the history's `seq` (the order the ending transactions counted the games,
//! which for two games with a player in common is the order they committed), then, for a rated
//! game with no history at all (only if the history was cleared by hand), by when it ended.

use super::{apply_game, initial_row};
use crate::engine::registry::GameKind;
use crate::error::ApiError;
use crate::models::{GameResult, NewRatingChange, RatingChange, RatingRow};
use crate::schema::{game_results, games, rating_history, ratings};
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use std::collections::{BTreeMap, HashMap};
use uuid::Uuid;

/// What a rebuild did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rebuilt {
    /// Rated games counted.
    pub games: usize,
    /// Ratings (account and kind) written.
    pub ratings: usize,
    /// Ratings that differed from the stored ones before the rebuild (0 for a healthy
    /// database); history rows that differed.
    pub ratings_changed: usize,
    pub history_changed: usize,
}

/// One rated game's results, in seat order.
struct Ended {
    game: Uuid,
    kind: String,
    at: DateTime<Utc>,
    placed: Vec<(Uuid, i16)>,
}

/// Recomputes every rating and its history in one transaction, the tables locked against the
/// live update meanwhile.
///
/// # Errors
/// Database failures only.
pub fn rebuild(conn: &mut PgConnection) -> Result<Rebuilt, ApiError> {
    conn.transaction(|conn| {
        // EXCLUSIVE lets readers read the old values meanwhile; a game ending now waits.
        diesel::sql_query("LOCK TABLE ratings, rating_history IN EXCLUSIVE MODE").execute(conn)?;
        let stored: Vec<RatingRow> = ratings::table.select(RatingRow::as_select()).load(conn)?;
        let stored_history: Vec<RatingChange> = rating_history::table
            .order(rating_history::seq)
            .select(RatingChange::as_select())
            .load(conn)?;
        let ended = rated_games(conn, &stored_history)?;

        let mut current: BTreeMap<(Uuid, String), RatingRow> = BTreeMap::new();
        let mut history: Vec<NewRatingChange> = Vec::new();
        let mut counted = 0;
        for game in &ended {
            let Some(kind) = GameKind::parse(&game.kind) else {
                continue;
            };
            let before: Vec<(RatingRow, i16)> = game
                .placed
                .iter()
                .map(|(user, place)| {
                    let row = current
                        .get(&(*user, game.kind.clone()))
                        .cloned()
                        .unwrap_or_else(|| initial_row(*user, kind, game.at));
                    (row, *place)
                })
                .collect();
            let Some(after) = apply_game(kind, game.game, game.at, &before) else {
                continue;
            };
            counted += 1;
            for (row, change) in after {
                current.insert((row.user_id, row.kind.clone()), row);
                history.push(change);
            }
        }

        let ratings_changed = differences(&stored, &current);
        let history_changed = history_differences(&stored_history, &history);
        diesel::delete(rating_history::table).execute(conn)?;
        diesel::delete(ratings::table).execute(conn)?;
        let rows: Vec<RatingRow> = current.into_values().collect();
        for chunk in rows.chunks(1000) {
            diesel::insert_into(ratings::table)
                .values(chunk)
                .execute(conn)?;
        }
        // In order, one statement per chunk: the new `seq` numbers keep the counting order.
        for chunk in history.chunks(1000) {
            diesel::insert_into(rating_history::table)
                .values(chunk)
                .execute(conn)?;
        }
        Ok(Rebuilt {
            games: counted,
            ratings: rows.len(),
            ratings_changed,
            history_changed,
        })
    })
}

/// The finished rated games with their results, in counting order.
fn rated_games(
    conn: &mut PgConnection,
    stored_history: &[RatingChange],
) -> Result<Vec<Ended>, ApiError> {
    let results: Vec<GameResult> = game_results::table
        .inner_join(games::table)
        .filter(games::rated.eq(true))
        .filter(games::status.eq("finished"))
        .order((game_results::game_id, game_results::seat))
        .select(GameResult::as_select())
        .load(conn)?;
    let mut by_game: Vec<Ended> = Vec::new();
    for r in results {
        match by_game.last_mut() {
            Some(last) if last.game == r.game_id => last.placed.push((r.user_id, r.place)),
            _ => by_game.push(Ended {
                game: r.game_id,
                kind: r.kind.clone(),
                at: r.finished_at,
                placed: vec![(r.user_id, r.place)],
            }),
        }
    }
    let mut first_seq: HashMap<Uuid, i64> = HashMap::new();
    for h in stored_history {
        first_seq.entry(h.game_id).or_insert(h.seq);
    }
    by_game.sort_by_key(|g| {
        let seq = first_seq.get(&g.game).copied();
        (seq.is_none(), seq, g.at, g.game)
    });
    Ok(by_game)
}

fn differences(stored: &[RatingRow], rebuilt: &BTreeMap<(Uuid, String), RatingRow>) -> usize {
    let changed = stored
        .iter()
        .filter(|s| rebuilt.get(&(s.user_id, s.kind.clone())) != Some(*s))
        .count();
    let added = rebuilt
        .keys()
        .filter(|(u, k)| !stored.iter().any(|s| s.user_id == *u && &s.kind == k))
        .count();
    changed + added
}

fn history_differences(stored: &[RatingChange], rebuilt: &[NewRatingChange]) -> usize {
    let key = |c: &RatingChange| {
        (
            c.user_id,
            c.kind.clone(),
            c.game_id,
            c.at,
            [
                c.rating_before,
                c.deviation_before,
                c.rating_after,
                c.deviation_after,
            ],
            [c.volatility_before, c.mu_before, c.sigma_before],
            [c.volatility_after, c.mu_after, c.sigma_after],
        )
    };
    let new_key = |c: &NewRatingChange| {
        (
            c.user_id,
            c.kind.clone(),
            c.game_id,
            c.at,
            [
                c.rating_before,
                c.deviation_before,
                c.rating_after,
                c.deviation_after,
            ],
            [c.volatility_before, c.mu_before, c.sigma_before],
            [c.volatility_after, c.mu_after, c.sigma_after],
        )
    };
    let stored: Vec<_> = stored.iter().map(key).collect();
    let rebuilt: Vec<_> = rebuilt.iter().map(new_key).collect();
    let common = stored.len().min(rebuilt.len());
    (0..common).filter(|i| stored[*i] != rebuilt[*i]).count() + stored.len().abs_diff(rebuilt.len())
}
