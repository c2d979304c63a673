//! `GET /metrics`: the Prometheus text format for scrapers ([`crate::metrics`]). Not part of the
//! OpenAPI document: it is for operators' scrapers, not for API clients, and its body is not JSON.

use crate::error::ApiError;
use crate::metrics::{Metrics, Snapshot, token_matches};
use crate::state::AppState;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use std::time::Duration;

/// How long a scrape waits for the queue and game counts: a scraper's own timeout is often a
/// few seconds, and a slow database must not make the whole scrape fail.
const DATABASE_WITHIN: Duration = Duration::from_millis(800);

/// With `METRICS_TOKEN` set, only `Authorization: Bearer <METRICS_TOKEN>` is answered.
pub async fn serve_metrics(
    state: web::Data<AppState>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    if let Some(expected) = &state.settings.http.metrics_token {
        let given = req
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(bearer)
            .unwrap_or("");
        if !token_matches(given, expected) {
            return Err(ApiError::Unauthenticated(
                "the metrics need the Bearer token set in METRICS_TOKEN".to_owned(),
            ));
        }
    }
    let snapshot = crate::db::run_within(&state.pool, DATABASE_WITHIN, Snapshot::read).await;
    let kinds: Vec<&str> = crate::services::games::kinds()
        .iter()
        .map(|k| k.kind.as_str())
        .collect();
    let text = state.metrics.scrape(snapshot.as_ref(), &kinds);
    Ok(HttpResponse::Ok()
        .content_type(Metrics::content_type())
        .body(text))
}

/// The token of `Bearer <token>` (the scheme in any case, RFC 7235).
fn bearer(value: &str) -> Option<&str> {
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
}
