//! The access log: one line per request (target `herald::access`), and the request counts of
//! [`crate::metrics`] from the same place.
//!
//! Paths carry secrets (sign-in and unsubscribe tokens are path segments) and queries carry play
//! tokens, so the line names the matched route pattern (`route=/sign-in/{token}`), never the path;
//! a request that matched no route (`route=unmatched`) is logged with its path without the query,
//! every segment that could be a token masked (design.md section 20: no token in any log line).

use crate::metrics::{Metrics, UNMATCHED};
use actix_web::HttpMessage;
use actix_web::dev::ServiceRequest;
use actix_web::http::header::{HeaderName, HeaderValue};
use std::time::Instant;

/// The response header that carries the request's id, so that a user's report can be matched to
/// the log line.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The longest unmatched path logged: random probes must not fill the log.
const MAX_PATH: usize = 160;

/// What the line needs from the request, taken before the request is handed on.
pub struct Started {
    method: String,
    /// The path for requests that match no route, already made safe to log.
    path: String,
    id: String,
    at: Instant,
}

/// The request's id, readable by handlers through the request's extensions.
#[derive(Debug, Clone)]
pub struct RequestId(pub String);

impl Started {
    /// Notes the request and gives it a fresh id. Ids are ours, never taken from the client, so
    /// that nothing a client sends ends up in the log unchecked.
    pub fn new(req: &ServiceRequest) -> Started {
        let id = hex::encode(crate::auth::random_bytes::<8>());
        req.extensions_mut().insert(RequestId(id.clone()));
        Started {
            method: req.method().as_str().to_owned(),
            path: loggable_path(req.path()),
            id,
            at: Instant::now(),
        }
    }

    /// The header value of the request's id.
    pub fn id_header(&self) -> Option<HeaderValue> {
        HeaderValue::from_str(&self.id).ok()
    }

    /// Writes the access line and counts the request. `pattern` is the route the request
    /// matched, if any.
    pub fn finish(self, pattern: Option<&str>, status: u16, metrics: &Metrics) {
        let elapsed = self.at.elapsed();
        let route = pattern.unwrap_or(UNMATCHED);
        metrics.observe_request(&self.method, route, status, elapsed.as_secs_f64());
        // Microseconds as a decimal number of milliseconds: readable, and a number in JSON.
        let duration_ms = elapsed.as_micros() as f64 / 1000.0;
        // `route` is the same label as in the metrics; `path` only when no route matched.
        // Display (`%`) rather than Debug: `route=/games` reads better than `route="/games"`.
        let path = pattern
            .is_none()
            .then(|| tracing::field::display(self.path.as_str()));
        tracing::info!(
            target: "herald::access",
            method = %self.method,
            route = %route,
            path,
            status,
            duration_ms,
            request_id = %self.id,
            "request"
        );
    }
}

/// `path` as it may be logged: at most [`MAX_PATH`] characters, and every segment that could be
/// a token replaced by `{masked}`. Route words are lowercase and hyphens; game ids are UUIDs
/// and stay (they are not secrets); anything else of 16 characters or more is masked.
pub fn loggable_path(path: &str) -> String {
    let masked: Vec<String> = path
        .split('/')
        .map(|segment| {
            let word = segment
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '-' || c == '_' || c == '.');
            if segment.chars().count() < 16 || word || uuid::Uuid::try_parse(segment).is_ok() {
                segment.to_owned()
            } else {
                "{masked}".to_owned()
            }
        })
        .collect();
    let joined = masked.join("/");
    match joined.char_indices().nth(MAX_PATH) {
        Some((cut, _)) => format!("{}…", &joined[..cut]),
        None => joined,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_like_segments_are_masked_and_words_and_ids_kept() {
        assert_eq!(
            loggable_path("/api/v1/no-such-thing-abcdef"),
            "/api/v1/no-such-thing-abcdef"
        );
        assert_eq!(
            loggable_path("/sign-in/Zk3_9aQwErTyUiOp1234/extra"),
            "/sign-in/{masked}/extra"
        );
        assert_eq!(
            loggable_path("/games/0b6f0a0e-5d3c-4c1e-9f55-8b1f2f0c9a11/x"),
            "/games/0b6f0a0e-5d3c-4c1e-9f55-8b1f2f0c9a11/x"
        );
        assert_eq!(
            loggable_path("/unsubscribe/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIx"),
            "/unsubscribe/{masked}"
        );
        let long = format!("/{}", "a/".repeat(200));
        assert!(loggable_path(&long).chars().count() <= MAX_PATH + 1);
    }
}
