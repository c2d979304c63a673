//! What every handler can reach: the pool, the token keys, the rate limiter, the settings, the
//! metrics.

use crate::auth::jwt::JwtKeys;
use crate::auth::links::LinkKeys;
use crate::auth::{AccountLimiter, RateLimiter};
use crate::config::Settings;
use crate::db::PgPool;
use crate::metrics::Metrics;
use crate::services::inbound::Inbox;
use std::sync::Arc;

/// Shared by all workers (cheap to clone).
#[derive(Clone)]
pub struct AppState {
    pub pool: PgPool,
    pub jwt: JwtKeys,
    /// Emailed links and browser session cookies.
    pub links: LinkKeys,
    pub limiter: Arc<RateLimiter>,
    /// New accounts per client address per hour.
    pub registrations: Arc<RateLimiter>,
    /// Authenticated calls per account per minute.
    pub accounts: Arc<AccountLimiter>,
    pub settings: Arc<Settings>,
    /// This server's metrics (`GET /metrics`), shared with its job worker.
    pub metrics: Arc<Metrics>,
    /// Wakes the account event streams (`GET /api/v1/me/events`).
    pub events: Arc<crate::services::events::Hub>,
    /// What reading replies by mail needs (moves by email).
    pub inbox: Inbox,
    /// What game states showed their viewers, by version (reads that run no engine).
    pub seen: Arc<crate::services::games::seen::SeenCache>,
}

impl AppState {
    pub fn new(settings: Settings, pool: PgPool, metrics: Arc<Metrics>) -> AppState {
        AppState {
            events: Arc::new(crate::services::events::Hub::new(pool.clone())),
            pool,
            jwt: JwtKeys::new(&settings.auth.jwt_secret, settings.auth.access_token_ttl_s),
            links: LinkKeys::new(&settings.auth.jwt_secret),
            inbox: Inbox {
                links: LinkKeys::new(&settings.auth.jwt_secret),
                domain: settings.inbound.mail_domain.clone(),
                reply_ttl_s: settings.email.play_link_ttl_s,
            },
            limiter: Arc::new(RateLimiter::new(settings.auth.sign_in_per_minute)),
            registrations: Arc::new(RateLimiter::per(
                settings.auth.registrations_per_hour,
                std::time::Duration::from_secs(3600),
            )),
            accounts: Arc::new(AccountLimiter::new(
                settings.auth.account_requests_per_minute,
            )),
            seen: Arc::new(crate::services::games::seen::SeenCache::new(
                settings.games.seen_cache_entries,
            )),
            settings: Arc::new(settings),
            metrics,
        }
    }
}
