//! Vacation (`/api/v1/me/vacation`, design.md section 14): see the bank, go away, come back, and
//! opt in to vacation that starts by itself when a deadline would pass.

use super::docs::{AuthErrors, BodyErrors, ServerErrors};
use super::json::{Json, OptionalJson};
use crate::auth::{AuthUser, Scope};
use crate::error::{ApiError, PROBLEM_JSON as PROBLEM, Problem};
use crate::services::idempotency;
use crate::services::vacation::{self, Vacation};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, delete, get, post, put, web};
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

/// Going away.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StartVacation {
    /// Whole days (at most what is left); all that is left when absent.
    #[schema(minimum = 1)]
    pub days: Option<u32>,
}

/// Whether vacation starts by itself.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VacationSettings {
    /// Start a vacation (with all that is left) when a deadline would pass.
    pub auto: bool,
}

/// Get my vacation
///
/// The days left in the bank and the vacation under way, if any. Needs the `read` scope.
#[utoipa::path(
    operation_id = "get_vacation",
    tag = "accounts",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller's vacation.", body = Vacation),
        AuthErrors,
        ServerErrors,
    )
)]
#[get("/me/vacation")]
pub async fn get_vacation(
    state: web::Data<AppState>,
    auth: AuthUser,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Read)?;
    let v = crate::db::run(&state.pool, move |conn| {
        vacation::status(conn, auth.user_id)
    })
    .await?;
    Ok(HttpResponse::Ok().json(v))
}

/// Go on vacation
///
/// From now on no deadline of the caller's passes in a game whose clock allows vacation; the
/// other players are told by mail. Accepts `Idempotency-Key`. Needs the `play` scope.
#[utoipa::path(
    operation_id = "start_vacation",
    tag = "accounts",
    security(("bearer" = [])),
    params(("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 255, pattern = "^[!-~]+$", description = "Makes a retry return the first answer instead of a 409 (already away).")),
    request_body(content = Option<StartVacation>, description = "Optional; `{}` or no body at all for all the days left."),
    responses(
        (status = 201, description = "The vacation under way.", body = Vacation),
        (status = 409, description = "Already away, no day left, or the `Idempotency-Key` was used for a different request (`conflict`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        BodyErrors,
        ServerErrors,
    )
)]
#[post("/me/vacation")]
pub async fn start_vacation(
    state: web::Data<AppState>,
    auth: AuthUser,
    req: HttpRequest,
    body: OptionalJson<StartVacation>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Play)?;
    let days = body.0.days;
    let key = super::idempotency_key(&req, json!({"op": "start_vacation", "days": days}))?;
    let user = auth.user_id;
    let answer = crate::db::run(&state.pool, move |conn| {
        idempotency::once(conn, user, key.as_ref(), 201, |conn| {
            vacation::start(conn, user, days)
        })
    })
    .await?;
    // The service wakes the worker when its transaction ends, which is now inside `once`'s:
    // wake it again now that the vacation is committed.
    crate::jobs::wake();
    Ok(super::answered(answer))
}

/// Come back from vacation
///
/// Every deadline of the caller's moves on by the time away, which is taken from the bank.
/// Answers the same when not away. Needs the `play` scope.
#[utoipa::path(
    operation_id = "end_vacation",
    tag = "accounts",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The bank after the vacation.", body = Vacation),
        AuthErrors,
        ServerErrors,
    )
)]
#[delete("/me/vacation")]
pub async fn end_vacation(
    state: web::Data<AppState>,
    auth: AuthUser,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Play)?;
    let v = crate::db::run(&state.pool, move |conn| vacation::end(conn, auth.user_id)).await?;
    Ok(HttpResponse::Ok().json(v))
}

/// Set automatic vacation
///
/// Needs the `play` scope.
#[utoipa::path(
    operation_id = "update_vacation",
    tag = "accounts",
    security(("bearer" = [])),
    request_body = VacationSettings,
    responses(
        (status = 200, description = "The caller's vacation.", body = Vacation),
        AuthErrors,
        BodyErrors,
        ServerErrors,
    )
)]
#[put("/me/vacation")]
pub async fn update_vacation(
    state: web::Data<AppState>,
    auth: AuthUser,
    body: Json<VacationSettings>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Play)?;
    let auto = body.0.auto;
    let v = crate::db::run(&state.pool, move |conn| {
        vacation::set_auto(conn, auth.user_id, auto)
    })
    .await?;
    Ok(HttpResponse::Ok().json(v))
}
