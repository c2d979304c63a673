use crate::schema::{rating_history, ratings};
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

/// One account's rating in one kind of game.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = ratings, check_for_backend(diesel::pg::Pg))]
#[diesel(treat_none_as_null = true)]
pub struct RatingRow {
    pub user_id: Uuid,
    pub kind: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: Option<f64>,
    pub mu: Option<f64>,
    pub sigma: Option<f64>,
    pub games: i32,
    pub updated_at: DateTime<Utc>,
}

/// What one rated game did to one account's rating.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = rating_history, check_for_backend(diesel::pg::Pg))]
pub struct RatingChange {
    pub seq: i64,
    pub user_id: Uuid,
    pub kind: String,
    pub game_id: Uuid,
    pub at: DateTime<Utc>,
    pub rating_before: f64,
    pub deviation_before: f64,
    pub volatility_before: Option<f64>,
    pub mu_before: Option<f64>,
    pub sigma_before: Option<f64>,
    pub rating_after: f64,
    pub deviation_after: f64,
    pub volatility_after: Option<f64>,
    pub mu_after: Option<f64>,
    pub sigma_after: Option<f64>,
}

/// A history row to write (its `seq` is assigned by the database).
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = rating_history)]
pub struct NewRatingChange {
    pub user_id: Uuid,
    pub kind: String,
    pub game_id: Uuid,
    pub at: DateTime<Utc>,
    pub rating_before: f64,
    pub deviation_before: f64,
    pub volatility_before: Option<f64>,
    pub mu_before: Option<f64>,
    pub sigma_before: Option<f64>,
    pub rating_after: f64,
    pub deviation_after: f64,
    pub volatility_after: Option<f64>,
    pub mu_after: Option<f64>,
    pub sigma_after: Option<f64>,
}
