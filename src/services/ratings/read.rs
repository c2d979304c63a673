//! What anyone may read about ratings: a player's public profile, a kind's leaderboard, a
//! player's history in a kind, and the rating shown beside a seated player. Public by design:
//! nothing here reads or returns an address, a token or a setting.

use super::system::{Shown, System, one_decimal};
use super::{kind_named, shown_of};
use crate::domain::UserId;
use crate::engine::registry::GameKind;
use crate::error::ApiError;
use crate::models::{RatingChange, RatingRow};
use crate::schema::{game_results, games, rating_history, ratings, users};
use crate::services::games::PlayerRef;
use crate::services::paging::Page;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::ToSchema;
use uuid::Uuid;

/// How many results a profile lists.
const RECENT_RESULTS: i64 = 20;
/// A player's rating in one kind of game.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RatingView {
    /// Glicko-2's rating; for Weng–Lin kinds 1500 + 40 × (μ − 3σ). One decimal.
    pub rating: f64,
    /// Glicko-2's rating deviation; for Weng–Lin kinds 40 × σ. One decimal.
    pub deviation: f64,
    /// Glicko-2 only: the volatility.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub volatility: Option<f64>,
    /// Weng–Lin only: the skill estimate μ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mu: Option<f64>,
    /// Weng–Lin only: its uncertainty σ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sigma: Option<f64>,
    /// While the deviation is above 110 (Glicko-2) or σ above 2.5 (Weng–Lin): not on the
    /// leaderboard yet.
    pub provisional: bool,
    /// Rated games counted.
    pub games: u32,
}

impl From<&RatingRow> for RatingView {
    fn from(row: &RatingRow) -> Self {
        let shown = shown_of(row);
        RatingView {
            rating: one_decimal(row.rating),
            deviation: one_decimal(row.deviation),
            volatility: row.volatility,
            mu: row.mu,
            sigma: row.sigma,
            provisional: shown.provisional(),
            games: u32::try_from(row.games).unwrap_or(0),
        }
    }
}

/// One finished game of a player.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RecentResult {
    pub game_id: Uuid,
    #[schema(value_type = crate::routes::schemas::GameKindName)]
    pub kind: String,
    /// How many seats the game had.
    pub seats: u8,
    /// 1 for a winner; tied seats share a place.
    pub place: u8,
    /// How the game ended: `finished`, `resigned` or `timeout`.
    pub reason: String,
    pub finished_at: DateTime<Utc>,
    /// Whether the game counted for ratings.
    pub rated: bool,
    /// What the game did to the player's rating (one decimal); absent when it did not count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating_change: Option<f64>,
}

/// A player as anyone may see them.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Profile {
    pub id: Uuid,
    pub display_name: String,
    /// By kind of game (`magnate`, `lancaster`); a kind the player has no rated game of is absent.
    pub ratings: BTreeMap<String, RatingView>,
    /// The latest finished games, newest first (at most 20).
    pub recent_results: Vec<RecentResult>,
}

/// One row of a leaderboard.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LeaderboardEntry {
    /// 1 for the best rating.
    pub rank: u32,
    pub player: PlayerRef,
    /// One decimal (see `RatingView`).
    pub rating: f64,
    pub deviation: f64,
    pub games: u32,
    /// Weng–Lin kinds only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mu: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sigma: Option<f64>,
}

/// A player's rating after one rated game.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RatingPoint {
    pub game_id: Uuid,
    /// When the game ended.
    pub at: DateTime<Utc>,
    /// After the game, one decimal.
    pub rating: f64,
    pub deviation: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub volatility: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mu: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sigma: Option<f64>,
    /// The rating after minus before, one decimal.
    pub change: f64,
}

impl From<&RatingChange> for RatingPoint {
    fn from(c: &RatingChange) -> Self {
        RatingPoint {
            game_id: c.game_id,
            at: c.at,
            rating: one_decimal(c.rating_after),
            deviation: one_decimal(c.deviation_after),
            volatility: c.volatility_after,
            mu: c.mu_after,
            sigma: c.sigma_after,
            change: one_decimal(c.rating_after - c.rating_before),
        }
    }
}

/// The rating shown beside a seated player's name.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq, ToSchema)]
pub struct SeatRating {
    /// One decimal (see `RatingView`).
    pub rating: f64,
    pub provisional: bool,
}

/// The seat rating from a stored rating, deviation and σ (σ only for Weng–Lin kinds).
pub fn seat_rating(rating: f64, deviation: f64, sigma: Option<f64>) -> SeatRating {
    let shown = Shown {
        rating,
        deviation,
        volatility: None,
        mu: None,
        sigma,
    };
    SeatRating {
        rating: one_decimal(rating),
        provisional: shown.provisional(),
    }
}

fn display_name(conn: &mut PgConnection, user: UserId) -> Result<String, ApiError> {
    users::table
        .find(user.0)
        .select(users::display_name)
        .first(conn)
        .optional()?
        .ok_or_else(|| ApiError::NotFound(format!("there is no player {user}")))
}

/// A player's public profile: name, ratings, latest results.
///
/// # Errors
/// 404 `not_found` for no such player.
pub fn profile(conn: &mut PgConnection, user: UserId) -> Result<Profile, ApiError> {
    let display_name = display_name(conn, user)?;
    let rows: Vec<RatingRow> = ratings::table
        .filter(ratings::user_id.eq(user.0))
        .order(ratings::kind)
        .select(RatingRow::as_select())
        .load(conn)?;
    let ratings = rows
        .iter()
        .filter(|r| GameKind::parse(&r.kind).is_some())
        .map(|r| (r.kind.clone(), RatingView::from(r)))
        .collect();
    type Row = (
        Uuid,
        String,
        i16,
        i16,
        String,
        DateTime<Utc>,
        bool,
        Option<(f64, f64)>,
    );
    let results: Vec<Row> = game_results::table
        .inner_join(games::table)
        .left_join(
            rating_history::table.on(rating_history::game_id
                .eq(game_results::game_id)
                .and(rating_history::user_id.eq(game_results::user_id))),
        )
        .filter(game_results::user_id.eq(user.0))
        .order((game_results::finished_at.desc(), game_results::game_id))
        .limit(RECENT_RESULTS)
        .select((
            game_results::game_id,
            game_results::kind,
            games::seat_count,
            game_results::place,
            game_results::reason,
            game_results::finished_at,
            games::rated,
            (rating_history::rating_before, rating_history::rating_after).nullable(),
        ))
        .load(conn)?;
    let recent_results = results
        .into_iter()
        .map(
            |(game_id, kind, seats, place, reason, finished_at, _, change)| RecentResult {
                game_id,
                kind,
                seats: u8::try_from(seats).unwrap_or(0),
                place: u8::try_from(place).unwrap_or(0),
                reason,
                finished_at,
                // Counted, not merely asked for: a rated game of one account twice is not.
                rated: change.is_some(),
                rating_change: change.map(|(before, after)| one_decimal(after - before)),
            },
        )
        .collect();
    Ok(Profile {
        id: user.0,
        display_name,
        ratings,
        recent_results,
    })
}

/// The non-provisional players of a kind, best rating first.
///
/// # Errors
/// 404 `not_found` for an unknown kind.
pub fn leaderboard(
    conn: &mut PgConnection,
    kind: &str,
    page: Page,
) -> Result<Vec<LeaderboardEntry>, ApiError> {
    let kind = kind_named(kind)?;
    let mut query = ratings::table
        .inner_join(users::table)
        .filter(ratings::kind.eq(kind.as_str()))
        .into_boxed();
    query = match System::of(kind) {
        System::Glicko2 => {
            query.filter(ratings::deviation.le(super::system::GLICKO2_PROVISIONAL_DEVIATION))
        }
        System::WengLin => {
            query.filter(ratings::sigma.le(super::system::WENG_LIN_PROVISIONAL_SIGMA))
        }
    };
    let rows: Vec<(RatingRow, String)> = query
        .order((
            ratings::rating.desc(),
            ratings::games.desc(),
            ratings::user_id,
        ))
        .limit(i64::from(page.limit))
        .offset(i64::from(page.offset))
        .select((RatingRow::as_select(), users::display_name))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .zip(page.offset.saturating_add(1)..)
        .map(|((row, display_name), rank)| LeaderboardEntry {
            rank,
            player: PlayerRef {
                id: row.user_id,
                display_name,
            },
            rating: one_decimal(row.rating),
            deviation: one_decimal(row.deviation),
            games: u32::try_from(row.games).unwrap_or(0),
            mu: row.mu,
            sigma: row.sigma,
        })
        .collect())
}

/// A player's rating after each rated game of a kind, oldest first.
///
/// # Errors
/// 404 `not_found` for an unknown player or kind.
pub fn history(
    conn: &mut PgConnection,
    user: UserId,
    kind: &str,
    page: Page,
) -> Result<Vec<RatingPoint>, ApiError> {
    let kind = kind_named(kind)?;
    display_name(conn, user)?;
    let rows: Vec<RatingChange> = rating_history::table
        .filter(rating_history::user_id.eq(user.0))
        .filter(rating_history::kind.eq(kind.as_str()))
        .order(rating_history::seq)
        .limit(i64::from(page.limit))
        .offset(i64::from(page.offset))
        .select(RatingChange::as_select())
        .load(conn)?;
    Ok(rows.iter().map(RatingPoint::from).collect())
}
