//! Use cases and their transactions: synchronous functions over `&mut PgConnection`, called from
//! handlers on the blocking pool. Each returns domain values or an [`ApiError`](crate::error::ApiError).
//!
//! Must not depend on actix (handlers adapt) or on routes.

pub mod accounts;
pub mod chat;
pub mod clocks;
pub mod competitions;
pub mod events;
pub mod games;
pub mod housekeeping;
pub mod idempotency;
pub mod inbound;
pub mod notifications;
pub mod paging;
pub mod ratings;
mod refusal;
pub mod sign_up;
pub mod tokens;
pub mod vacation;
pub mod webhooks;

/// Whether a diesel error is a unique-constraint violation (a duplicate).
pub(crate) fn is_unique_violation(error: &diesel::result::Error) -> bool {
    matches!(
        error,
        diesel::result::Error::DatabaseError(diesel::result::DatabaseErrorKind::UniqueViolation, _)
    )
}
