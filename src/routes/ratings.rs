//! Ratings (design.md section 16): leaderboards, public player profiles and rating histories.
//! All public: they show display names and numbers, never an address.

use super::docs::ServerErrors;
use super::paging::PageQuery;
use crate::domain::UserId;
use crate::error::{ApiError, Problem};
use crate::services::ratings::{self, LeaderboardEntry, Profile, RatingPoint};
use crate::state::AppState;
use actix_web::{HttpResponse, get, web};
use uuid::Uuid;

const PROBLEM: &str = "application/problem+json";

/// Get a leaderboard
///
/// The players of a kind of game by rating, best first, provisional ratings left out (a
/// Glicko-2 deviation above 110, a Weng–Lin σ above 2.5). Public.
#[utoipa::path(
    operation_id = "get_leaderboard",
    tag = "ratings",
    params(
        ("kind" = crate::routes::schemas::GameKindName, Path, description = "The kind of game, e.g. `magnate`."),
        PageQuery,
    ),
    responses(
        (status = 200, description = "One page of the leaderboard.", body = Vec<LeaderboardEntry>),
        (status = 404, description = "No such kind of game (`not_found`).", body = Problem, content_type = PROBLEM),
        (status = 422, description = "A limit or offset out of range, or an unknown parameter (`validation_failed`).", body = Problem, content_type = PROBLEM),
        ServerErrors,
    )
)]
#[get("/ratings/{kind}")]
pub async fn get_leaderboard(
    state: web::Data<AppState>,
    kind: web::Path<String>,
    query: web::Query<PageQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = query.page()?;
    let kind = kind.into_inner();
    let rows = crate::db::run(&state.pool, move |conn| {
        ratings::leaderboard(conn, &kind, page)
    })
    .await?;
    Ok(HttpResponse::Ok().json(rows))
}

/// Get a player
///
/// A player's public profile: display name, rating per kind of game (with `provisional`), and
/// the latest finished games. Never an address or a setting. Public.
#[utoipa::path(
    operation_id = "get_player",
    tag = "ratings",
    params(("id" = Uuid, Path, description = "The player's account id.")),
    responses(
        (status = 200, description = "The profile.", body = Profile),
        (status = 404, description = "No such player (`not_found`).", body = Problem, content_type = PROBLEM),
        ServerErrors,
    )
)]
#[get("/players/{id}")]
pub async fn get_player(
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let user = UserId(id.into_inner());
    let profile = crate::db::run(&state.pool, move |conn| ratings::profile(conn, user)).await?;
    Ok(HttpResponse::Ok().json(profile))
}

/// Get a player's rating history
///
/// The player's rating after each rated game of a kind, oldest first. Public.
#[utoipa::path(
    operation_id = "get_player_rating_history",
    tag = "ratings",
    params(
        ("id" = Uuid, Path, description = "The player's account id."),
        ("kind" = crate::routes::schemas::GameKindName, Path, description = "The kind of game, e.g. `magnate`."),
        PageQuery,
    ),
    responses(
        (status = 200, description = "The history, oldest first.", body = Vec<RatingPoint>),
        (status = 404, description = "No such player or kind of game (`not_found`).", body = Problem, content_type = PROBLEM),
        (status = 422, description = "A limit or offset out of range, or an unknown parameter (`validation_failed`).", body = Problem, content_type = PROBLEM),
        ServerErrors,
    )
)]
#[get("/players/{id}/ratings/{kind}/history")]
pub async fn get_player_rating_history(
    state: web::Data<AppState>,
    path: web::Path<(Uuid, String)>,
    query: web::Query<PageQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = query.page()?;
    let (id, kind) = path.into_inner();
    let user = UserId(id);
    let points = crate::db::run(&state.pool, move |conn| {
        ratings::history(conn, user, &kind, page)
    })
    .await?;
    Ok(HttpResponse::Ok().json(points))
}
