//! [`ApiError`]: every refusal and failure of the API, answered as `application/problem+json`
//! (RFC 9457) with a stable snake_case `code`. Internal failures are logged here, once, and
//! answered with a generic sentence: their text never reaches a client.
//!
//! Must not depend on services or routes; they depend on it.

use actix_web::http::{StatusCode, header};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use std::fmt;
use utoipa::ToSchema;

/// The media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// An RFC 9457 problem document.
#[derive(Debug, Clone, Serialize, serde::Deserialize, ToSchema)]
#[schema(example = json!({
    "type": "urn:herald:problem:stale_version",
    "title": "Stale version",
    "status": 409,
    "detail": "the game is at version 13, not 12: reload it and decide again",
    "code": "stale_version",
    "version": 13
}))]
pub struct Problem {
    /// A URI naming the kind of problem: `urn:herald:problem:<code>`.
    #[serde(rename = "type")]
    pub problem_type: String,
    /// A short summary of the kind of problem.
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// What went wrong with this request, in a sentence.
    pub detail: String,
    /// The stable machine-readable code clients switch on.
    pub code: ProblemCode,
    /// For a refused game action: the rule it breaks, e.g. `MAG-PLACE-2`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// For a list of actions: the 0-based position of the first refused one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// For `stale_version`: the game's current version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<i64>,
    /// For `cursor_expired`: the event number to resume after (`?after=` or `Last-Event-ID`),
    /// the last one before the oldest event still kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resume_after: Option<i64>,
}

/// The stable error codes of the API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProblemCode {
    MalformedRequest,
    Unauthenticated,
    Forbidden,
    NotFound,
    MethodNotAllowed,
    PayloadTooLarge,
    UnsupportedMediaType,
    RequestTimeout,
    ValidationFailed,
    IllegalAction,
    NotYourTurn,
    StaleVersion,
    GameOver,
    Conflict,
    RateLimited,
    CursorExpired,
    Unavailable,
    Internal,
}

impl ProblemCode {
    /// The code as it appears on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemCode::MalformedRequest => "malformed_request",
            ProblemCode::Unauthenticated => "unauthenticated",
            ProblemCode::Forbidden => "forbidden",
            ProblemCode::NotFound => "not_found",
            ProblemCode::MethodNotAllowed => "method_not_allowed",
            ProblemCode::PayloadTooLarge => "payload_too_large",
            ProblemCode::UnsupportedMediaType => "unsupported_media_type",
            ProblemCode::RequestTimeout => "request_timeout",
            ProblemCode::ValidationFailed => "validation_failed",
            ProblemCode::IllegalAction => "illegal_action",
            ProblemCode::NotYourTurn => "not_your_turn",
            ProblemCode::StaleVersion => "stale_version",
            ProblemCode::GameOver => "game_over",
            ProblemCode::Conflict => "conflict",
            ProblemCode::RateLimited => "rate_limited",
            ProblemCode::CursorExpired => "cursor_expired",
            ProblemCode::Unavailable => "unavailable",
            ProblemCode::Internal => "internal",
        }
    }

    fn status(self) -> StatusCode {
        match self {
            ProblemCode::MalformedRequest => StatusCode::BAD_REQUEST,
            ProblemCode::Unauthenticated => StatusCode::UNAUTHORIZED,
            ProblemCode::Forbidden => StatusCode::FORBIDDEN,
            ProblemCode::NotFound => StatusCode::NOT_FOUND,
            ProblemCode::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            ProblemCode::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ProblemCode::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ProblemCode::RequestTimeout => StatusCode::REQUEST_TIMEOUT,
            ProblemCode::ValidationFailed | ProblemCode::IllegalAction => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ProblemCode::NotYourTurn
            | ProblemCode::StaleVersion
            | ProblemCode::GameOver
            | ProblemCode::Conflict => StatusCode::CONFLICT,
            ProblemCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            ProblemCode::CursorExpired => StatusCode::GONE,
            ProblemCode::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            ProblemCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn title(self) -> &'static str {
        match self {
            ProblemCode::MalformedRequest => "Malformed request",
            ProblemCode::Unauthenticated => "Unauthenticated",
            ProblemCode::Forbidden => "Forbidden",
            ProblemCode::NotFound => "Not found",
            ProblemCode::MethodNotAllowed => "Method not allowed",
            ProblemCode::PayloadTooLarge => "Payload too large",
            ProblemCode::UnsupportedMediaType => "Unsupported media type",
            ProblemCode::RequestTimeout => "Request timeout",
            ProblemCode::ValidationFailed => "Validation failed",
            ProblemCode::IllegalAction => "Illegal action",
            ProblemCode::NotYourTurn => "Not your turn",
            ProblemCode::StaleVersion => "Stale version",
            ProblemCode::GameOver => "Game over",
            ProblemCode::Conflict => "Conflict",
            ProblemCode::RateLimited => "Rate limited",
            ProblemCode::CursorExpired => "Cursor expired",
            ProblemCode::Unavailable => "Unavailable",
            ProblemCode::Internal => "Internal error",
        }
    }
}

/// Every way a request can fail.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The body is not parseable JSON.
    #[error("{0}")]
    MalformedRequest(String),
    #[error("{0}")]
    Unauthenticated(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    /// The path exists but not with this method; `allow` lists the methods it has.
    #[error("this resource does not answer this method")]
    MethodNotAllowed { allow: Vec<&'static str> },
    #[error("the body is larger than {limit} bytes")]
    PayloadTooLarge { limit: usize },
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// The body did not arrive in time (a stalled or trickling client holds a connection).
    #[error("{0}")]
    RequestTimeout(String),
    /// Parsed, but wrong types, unknown fields, NUL bytes or values out of range.
    #[error("{0}")]
    Validation(String),
    /// An action in a list that cannot be read (a `validation_failed` with its `index`).
    #[error("{detail}")]
    InvalidAction { detail: String, index: usize },
    /// The game's rules refuse the action.
    #[error("{detail}")]
    IllegalAction {
        rule: String,
        detail: String,
        index: Option<usize>,
    },
    #[error("{detail}")]
    NotYourTurn {
        detail: String,
        index: Option<usize>,
    },
    #[error("the game is at version {current}, not {expected}: reload it and decide again")]
    StaleVersion { current: i64, expected: i64 },
    #[error("the game is over")]
    GameOver { index: Option<usize> },
    #[error("{0}")]
    Conflict(String),
    #[error("too many requests: try again in {retry_after_s} seconds")]
    RateLimited { retry_after_s: u64 },
    /// The account's limit on authenticated calls (`ACCOUNT_REQUESTS_PER_MINUTE`), named in the
    /// answer so that a client author knows which limit to stay under.
    #[error(
        "this account made more than {per_minute} authenticated requests this minute (the limit ACCOUNT_REQUESTS_PER_MINUTE = {per_minute}): try again in {retry_after_s} seconds"
    )]
    AccountRateLimited { per_minute: u32, retry_after_s: u64 },
    /// A client resumes the account's events from before the oldest one kept: it missed some.
    #[error(
        "the events after {after} are no longer kept (events are kept {kept_days} days): reload what you show (GET /api/v1/games) and resume after {resume_after}, the last event before the oldest kept"
    )]
    CursorExpired {
        after: i64,
        resume_after: i64,
        kept_days: u32,
    },
    #[error("{0}")]
    Unavailable(String),
    /// A bug or an outage; logged, and answered with a generic sentence.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl ApiError {
    /// Logs an internal failure, once, where it is answered: the API's problem and the pages'
    /// error page both call this, so an operator hears of a failure whichever answered it.
    pub fn log_failure(&self) {
        if let ApiError::Internal(error) = self {
            // Errors are built from ids and library messages, never from secrets or hands.
            tracing::error!(error = format!("{error:#}"), "internal error");
        }
    }

    /// The seconds to wait before trying again (`Retry-After`), for a rate limit.
    pub fn retry_after_s(&self) -> Option<u64> {
        match self {
            ApiError::RateLimited { retry_after_s }
            | ApiError::AccountRateLimited { retry_after_s, .. } => Some(*retry_after_s),
            _ => None,
        }
    }

    pub fn code(&self) -> ProblemCode {
        match self {
            ApiError::MalformedRequest(_) => ProblemCode::MalformedRequest,
            ApiError::Unauthenticated(_) => ProblemCode::Unauthenticated,
            ApiError::Forbidden(_) => ProblemCode::Forbidden,
            ApiError::NotFound(_) => ProblemCode::NotFound,
            ApiError::MethodNotAllowed { .. } => ProblemCode::MethodNotAllowed,
            ApiError::PayloadTooLarge { .. } => ProblemCode::PayloadTooLarge,
            ApiError::UnsupportedMediaType(_) => ProblemCode::UnsupportedMediaType,
            ApiError::RequestTimeout(_) => ProblemCode::RequestTimeout,
            ApiError::Validation(_) | ApiError::InvalidAction { .. } => {
                ProblemCode::ValidationFailed
            }
            ApiError::IllegalAction { .. } => ProblemCode::IllegalAction,
            ApiError::NotYourTurn { .. } => ProblemCode::NotYourTurn,
            ApiError::StaleVersion { .. } => ProblemCode::StaleVersion,
            ApiError::GameOver { .. } => ProblemCode::GameOver,
            ApiError::Conflict(_) => ProblemCode::Conflict,
            ApiError::RateLimited { .. } | ApiError::AccountRateLimited { .. } => {
                ProblemCode::RateLimited
            }
            ApiError::CursorExpired { .. } => ProblemCode::CursorExpired,
            ApiError::Unavailable(_) => ProblemCode::Unavailable,
            ApiError::Internal(_) => ProblemCode::Internal,
        }
    }

    /// A 500 for an unexpected failure (its text is logged, never sent).
    pub fn internal(error: impl Into<anyhow::Error>) -> ApiError {
        ApiError::Internal(error.into())
    }

    /// The problem document a client receives.
    pub fn problem(&self) -> Problem {
        let code = self.code();
        let detail = match self {
            ApiError::Internal(_) => {
                "the server failed to answer this request; it has been logged".to_owned()
            }
            ApiError::MethodNotAllowed { allow } => format!(
                "this resource does not answer this method; it answers {}",
                allow.join(", ")
            ),
            other => other.to_string(),
        };
        let (rule, index, version) = match self {
            ApiError::IllegalAction { rule, index, .. } => (Some(rule.clone()), *index, None),
            ApiError::NotYourTurn { index, .. } | ApiError::GameOver { index } => {
                (None, *index, None)
            }
            ApiError::StaleVersion { current, .. } => (None, None, Some(*current)),
            ApiError::InvalidAction { index, .. } => (None, Some(*index), None),
            _ => (None, None, None),
        };
        Problem {
            problem_type: format!("urn:herald:problem:{}", code.as_str()),
            title: code.title().to_owned(),
            status: code.status().as_u16(),
            detail,
            code,
            rule,
            index,
            version,
            resume_after: match self {
                ApiError::CursorExpired { resume_after, .. } => Some(*resume_after),
                _ => None,
            },
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.code().status()
    }

    fn error_response(&self) -> HttpResponse {
        self.log_failure();
        let mut response = HttpResponse::build(self.status_code());
        response.insert_header((header::CONTENT_TYPE, PROBLEM_JSON));
        match self {
            ApiError::MethodNotAllowed { allow } => {
                response.insert_header((header::ALLOW, allow.join(", ")));
            }
            ApiError::Unauthenticated(_) => {
                response.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
            }
            _ => {}
        }
        if let Some(wait) = self.retry_after_s() {
            response.insert_header((header::RETRY_AFTER, wait.to_string()));
        }
        let body = serde_json::to_vec(&self.problem()).unwrap_or_default();
        response.body(body)
    }
}

impl From<diesel::result::Error> for ApiError {
    fn from(error: diesel::result::Error) -> Self {
        use diesel::result::{DatabaseErrorKind, Error};
        // A COMMIT whose connection was lost fails its rollback too: what counts is why the
        // commit failed.
        let error = match error {
            Error::RollbackErrorOnCommit { commit_error, .. } => *commit_error,
            other => other,
        };
        // Two transactions waiting for each other: PostgreSQL rolled this one back, nothing was
        // stored, and the same request will succeed when sent again.
        if let Error::DatabaseError(kind, info) = &error
            && (matches!(kind, DatabaseErrorKind::SerializationFailure)
                || info.message().contains("deadlock detected"))
        {
            tracing::warn!(error = %error, "transaction rolled back by the database; the client may retry");
            return ApiError::Unavailable(
                "the database was busy with a conflicting change; nothing was stored: try again"
                    .to_owned(),
            );
        }
        // The connection lost under the request (the database restarting, a server killed
        // under it): the client's mistake it is not, and trying again shortly will do. Whether
        // a commit in flight was stored cannot be known here, so the answer does not say.
        if let Error::DatabaseError(kind, info) = &error
            && (matches!(kind, DatabaseErrorKind::ClosedConnection)
                || CONNECTION_LOST.iter().any(|m| info.message().contains(m)))
        {
            tracing::warn!(error = %error, "the database connection was lost");
            return ApiError::Unavailable(
                "the connection to the database was lost; try again shortly (a move sent again \
                 with its expected_version or Idempotency-Key cannot be played twice)"
                    .to_owned(),
            );
        }
        ApiError::Internal(error.into())
    }
}

/// PostgreSQL's words for a session ended under a request: an administrator's or a shutdown's
/// termination (57P01, 57P02), a server restarting (57P03), a socket closed.
const CONNECTION_LOST: [&str; 5] = [
    "terminating connection due to administrator command",
    "terminating connection due to crash of another server process",
    "the database system is shutting down",
    "the database system is starting up",
    "server closed the connection unexpectedly",
];

impl From<crate::db::BlockingError<ApiError>> for ApiError {
    fn from(error: crate::db::BlockingError<ApiError>) -> Self {
        use crate::db::BlockingError;
        match error {
            BlockingError::Pool(e) => {
                tracing::warn!(error = %e, "no database connection");
                ApiError::Unavailable("the database is not answering; try again shortly".to_owned())
            }
            BlockingError::Busy => {
                tracing::warn!("every database connection stayed busy");
                ApiError::Unavailable("the server is too busy; try again shortly".to_owned())
            }
            BlockingError::Canceled => {
                ApiError::internal(anyhow::anyhow!("blocking pool canceled"))
            }
            BlockingError::Work(e) => e,
        }
    }
}

impl fmt::Display for ProblemCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use diesel::result::{DatabaseErrorKind, Error};

    fn from_database(kind: DatabaseErrorKind, message: &str) -> ApiError {
        ApiError::from(Error::DatabaseError(kind, Box::new(message.to_owned())))
    }

    #[test]
    fn a_connection_lost_under_a_request_is_unavailable_not_an_internal_error() {
        for (kind, message) in [
            (DatabaseErrorKind::ClosedConnection, "connection closed"),
            (
                DatabaseErrorKind::Unknown,
                "terminating connection due to administrator command",
            ),
            (
                DatabaseErrorKind::Unknown,
                "server closed the connection unexpectedly\n\tThis probably means the server terminated abnormally",
            ),
            (
                DatabaseErrorKind::Unknown,
                "the database system is shutting down",
            ),
        ] {
            let e = from_database(kind, message);
            assert_eq!(
                e.status_code(),
                StatusCode::SERVICE_UNAVAILABLE,
                "{message}"
            );
        }
        let at_commit = ApiError::from(diesel::result::Error::RollbackErrorOnCommit {
            rollback_error: Box::new(Error::BrokenTransactionManager),
            commit_error: Box::new(Error::DatabaseError(
                DatabaseErrorKind::ClosedConnection,
                Box::new("connection closed".to_owned()),
            )),
        });
        assert_eq!(at_commit.status_code(), StatusCode::SERVICE_UNAVAILABLE);
        let other = from_database(DatabaseErrorKind::Unknown, "relation \"x\" does not exist");
        assert_eq!(other.status_code(), StatusCode::INTERNAL_SERVER_ERROR);
    }
}
