//! Liveness and readiness probes.

use crate::state::AppState;
use actix_web::{HttpResponse, get, web};
use diesel::RunQueryDsl;
use serde::Serialize;
use utoipa::ToSchema;

/// The body of the probes.
#[derive(Debug, Serialize, ToSchema)]
pub struct HealthResponse {
    /// `ok`.
    #[schema(example = "ok")]
    pub status: String,
}

/// Liveness
///
/// Answers as long as the process serves HTTP; it does not touch the database.
#[utoipa::path(
    operation_id = "get_healthz",
    tag = "health",
    responses((status = 200, description = "The server is alive.", body = HealthResponse))
)]
#[get("/healthz")]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(HealthResponse {
        status: "ok".to_owned(),
    })
}

/// How long `/readyz` waits for the database: a probe must answer within a second (design.md
/// section 19), and a database that takes longer is not ready.
const READY_WITHIN: std::time::Duration = std::time::Duration::from_millis(800);

/// Readiness
///
/// Answers 200 when the database answers a query, 503 otherwise.
#[utoipa::path(
    operation_id = "get_readyz",
    tag = "health",
    responses(
        (status = 200, description = "The server and its database answer.", body = HealthResponse),
        (status = 503, description = "The database does not answer (`unavailable`).", body = crate::error::Problem, content_type = "application/problem+json"),
    )
)]
#[get("/readyz")]
pub async fn readyz(state: web::Data<AppState>) -> Result<HttpResponse, crate::error::ApiError> {
    let answered = crate::db::run_within(&state.pool, READY_WITHIN, |conn| {
        diesel::sql_query("SELECT 1").execute(conn)
    })
    .await;
    if answered.is_none() {
        return Err(crate::error::ApiError::Unavailable(
            "the database does not answer".to_owned(),
        ));
    }
    Ok(HttpResponse::Ok().json(HealthResponse {
        status: "ok".to_owned(),
    }))
}
