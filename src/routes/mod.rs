//! The HTTP surface: thin handlers with `#[utoipa::path]`, and [`register`], the one place that
//! mounts them, so the OpenAPI document describes exactly what is served. Unknown paths answer
//! 404 and known paths with another method 405, both as problems.
//!
//! Handlers extract, authorise, call one service and map the answer; rules live in services and
//! the engine.

pub mod accounts;
pub mod competitions;
pub mod docs;
pub mod document;
pub mod events;
pub mod games;
pub mod health;
pub mod inbound;
pub mod invitations;
pub mod json;
pub mod metrics;
pub mod notifications;
pub mod paging;
pub mod params;
pub mod ratings;
pub mod schemas;
pub mod vacation;

use crate::error::ApiError;
use crate::services::idempotency::{Answer, IdempotencyKey};
use actix_web::dev::{ResourceDef, ServiceFactory, ServiceRequest};
use actix_web::{App, HttpRequest, HttpResponse, web};
use std::sync::Arc;
use utoipa::OpenApi;
use utoipa_actix_web::{AppExt, UtoipaApp, scope};

/// Mounts every documented handler.
pub fn register<T>(app: UtoipaApp<T>) -> UtoipaApp<T>
where
    T: ServiceFactory<ServiceRequest, Config = (), Error = actix_web::Error, InitError = ()>,
{
    app.openapi(docs::ApiDoc::openapi())
        .service(health::healthz)
        .service(health::readyz)
        .service(
            scope("/api/v1")
                .service(accounts::create_account)
                .service(accounts::create_token)
                .service(accounts::create_email_link)
                .service(accounts::get_me)
                .service(accounts::update_me)
                .service(accounts::create_personal_token)
                .service(accounts::list_personal_tokens)
                .service(accounts::delete_personal_token)
                .service(notifications::get_notification_settings)
                .service(notifications::update_notification_settings)
                .service(vacation::get_vacation)
                .service(vacation::start_vacation)
                .service(vacation::end_vacation)
                .service(vacation::update_vacation)
                .service(games::list_game_kinds)
                .service(games::create_game)
                .service(games::list_games)
                .service(games::lobby)
                .service(games::get_game)
                .service(games::join_game)
                .service(games::submit_actions)
                .service(games::check_actions)
                .service(games::get_game_history)
                .service(games::resign_game)
                .service(invitations::decline_invitation)
                .service(invitations::cancel_game)
                .service(invitations::create_invitation)
                .service(invitations::withdraw_invitation)
                .service(invitations::search_players)
                .service(games::get_game_fairness)
                .service(ratings::get_leaderboard)
                .service(ratings::get_player)
                .service(ratings::get_player_rating_history)
                .service(competitions::create_competition)
                .service(competitions::list_competitions)
                .service(competitions::get_competition)
                .service(competitions::enter_competition)
                .service(competitions::withdraw_from_competition)
                .service(competitions::start_competition)
                .service(competitions::list_competition_rounds)
                .service(competitions::get_competition_standings)
                .service(competitions::get_competition_trf)
                .service(competitions::direct_competition)
                .service(competitions::get_competition_audit)
                .service(events::get_my_events)
                .service(events::post_chat)
                .service(events::get_chat)
                .service(events::mute_chat_seat)
                .service(events::unmute_chat_seat)
                .service(events::create_webhook)
                .service(events::list_webhooks)
                .service(events::get_webhook)
                .service(events::delete_webhook)
                .service(inbound::receive_inbound_mail),
        )
}

/// The OpenAPI document of the mounted handlers.
pub fn openapi() -> utoipa::openapi::OpenApi {
    register(App::new().into_utoipa_app()).split_for_parts().1
}

/// The document as served at `/api/openapi.json`, printed by `herald openapi` and committed as
/// `openapi/openapi.json`: pretty JSON and a final newline.
pub fn openapi_json() -> String {
    let mut text = document_json(&openapi());
    text.push('\n');
    text
}

/// The document as pretty JSON with its finishing touches ([`document::finish`]).
fn document_json(api: &utoipa::openapi::OpenApi) -> String {
    let doc = serde_json::to_value(api).unwrap_or_default();
    serde_json::to_string_pretty(&document::finish(doc)).unwrap_or_default()
}

/// The served document and the path templates it lists (to tell 404 from 405).
pub struct Spec {
    pub json: String,
    routes: Vec<(ResourceDef, Vec<&'static str>)>,
    /// What each operation's path segments and query parameters take.
    params: params::Params,
}

impl Spec {
    pub fn new() -> Spec {
        let api = openapi();
        let routes = api
            .paths
            .paths
            .iter()
            .map(|(path, item)| {
                let mut allow = Vec::new();
                for (method, op) in [
                    ("GET", &item.get),
                    ("POST", &item.post),
                    ("PUT", &item.put),
                    ("PATCH", &item.patch),
                    ("DELETE", &item.delete),
                ] {
                    if op.is_some() {
                        allow.push(method);
                    }
                    // Every GET is answered to HEAD too (see `startup`).
                    if method == "GET" && op.is_some() {
                        allow.push("HEAD");
                    }
                }
                (ResourceDef::new(path.as_str()), allow)
            })
            .collect();
        let mut json = document_json(&api);
        json.push('\n');
        let params = serde_json::from_str(&json)
            .map(|doc| params::Params::of(&doc))
            .unwrap_or_default();
        Spec {
            json,
            routes,
            params,
        }
    }

    /// The methods a path answers, when it is a known path.
    fn allowed(&self, path: &str) -> Option<Vec<&'static str>> {
        let mut allow: Vec<&'static str> = Vec::new();
        for (_, methods) in self.routes.iter().filter(|(def, _)| def.is_match(path)) {
            for m in methods {
                if !allow.contains(m) {
                    allow.push(m);
                }
            }
        }
        (!allow.is_empty()).then_some(allow)
    }
}

impl Default for Spec {
    fn default() -> Self {
        Spec::new()
    }
}

/// `GET /api/openapi.json`.
pub async fn serve_spec(spec: web::Data<Arc<Spec>>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(spec.json.clone())
}

/// What no handler took: 405 for a known path (a page's as a page), 404 otherwise.
pub async fn fallback(
    req: HttpRequest,
    spec: web::Data<Arc<Spec>>,
    pages: Option<web::Data<crate::web::PageRoutes>>,
) -> Result<HttpResponse, ApiError> {
    if let Some(allow) = pages.as_ref().and_then(|p| p.allowed(req.path())) {
        return Ok(crate::web::method_not_allowed(&req, &allow));
    }
    Err(match spec.allowed(req.path()) {
        Some(allow) => ApiError::MethodNotAllowed { allow },
        None => ApiError::NotFound(format!("there is nothing at {}", req.path())),
    })
}

/// A path segment that does not parse (an id that is not a UUID): 404, on the pages as a page,
/// on the API as a problem naming the segment and what it takes. actix's text quotes the whole
/// path and serde's wording, so it is not shown.
pub fn path_error(_: actix_web::error::PathError, req: &HttpRequest) -> actix_web::Error {
    if crate::web::is_page(req.path()) {
        return crate::web::unreadable_address(req, actix_web::http::StatusCode::NOT_FOUND);
    }
    let detail = match req.app_data::<web::Data<Arc<Spec>>>() {
        Some(spec) => spec.params.path_problem(req),
        None => "there is nothing here".to_owned(),
    };
    ApiError::NotFound(detail).into()
}

/// Query parameters that do not parse (a word for a number, a parameter given twice): on the API
/// 422, a problem naming the parameter and what it takes (api.md: `validation_failed`); on the
/// pages 400, as a page (pages read their queries with `web::extract::Params`, which names the
/// parameter; this answers for any that does not, as the pages answer an address they cannot read
/// or a field given twice).
pub fn query_error(_: actix_web::error::QueryPayloadError, req: &HttpRequest) -> actix_web::Error {
    if crate::web::is_page(req.path()) {
        return crate::web::unreadable_address(req, actix_web::http::StatusCode::BAD_REQUEST);
    }
    let detail = match req.app_data::<web::Data<Arc<Spec>>>() {
        Some(spec) => spec.params.query_problem(req),
        None => "the query parameters are not those this route reads".to_owned(),
    };
    ApiError::Validation(detail).into()
}

/// The request's `Idempotency-Key`, if any, bound to `scope` (the operation and its body): a
/// retry with the same key and another body is refused.
///
/// # Errors
/// 422 for a key that is not 1 to 255 visible ASCII characters.
pub(crate) fn idempotency_key(
    req: &HttpRequest,
    scope: serde_json::Value,
) -> Result<Option<IdempotencyKey>, ApiError> {
    req.headers()
        .get("Idempotency-Key")
        .map(|v| {
            let key = v
                .to_str()
                .map_err(|_| ApiError::Validation("Idempotency-Key must be ASCII".to_owned()))?;
            IdempotencyKey::new(key, &scope)
        })
        .transpose()
}

/// A retry-safe request's answer as a response.
pub(crate) fn answered(answer: Answer) -> HttpResponse {
    HttpResponse::build(
        actix_web::http::StatusCode::from_u16(answer.status)
            .unwrap_or(actix_web::http::StatusCode::OK),
    )
    .json(answer.body)
}
