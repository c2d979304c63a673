//! A fixed-window rate limiter in memory: enough for one instance; several instances each count
//! on their own, which only loosens the limit by the number of instances.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const WINDOW: Duration = Duration::from_secs(60);

/// Counts requests per key (an e-mail address, a client address) per minute.
#[derive(Debug)]
pub struct RateLimiter {
    per_window: u32,
    window: Duration,
    windows: Mutex<HashMap<String, (Instant, u32)>>,
}

impl RateLimiter {
    pub fn new(per_minute: u32) -> RateLimiter {
        RateLimiter::per(per_minute, WINDOW)
    }

    /// `per_window` requests per key every `window`.
    pub fn per(per_window: u32, window: Duration) -> RateLimiter {
        RateLimiter {
            per_window,
            window,
            windows: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one request for each key; refuses with the seconds to wait when any key is over
    /// its limit.
    ///
    /// # Errors
    /// The number of seconds until the window of the exhausted key ends.
    pub fn check(&self, keys: &[&str]) -> Result<(), u64> {
        self.count(keys, 1)
    }

    /// Whether any key is over its limit, counting nothing (a failure is counted with
    /// [`RateLimiter::hit`] once it has happened).
    ///
    /// # Errors
    /// The number of seconds to wait.
    pub fn peek(&self, keys: &[&str]) -> Result<(), u64> {
        self.count(keys, 0)
    }

    /// Counts one more for each key.
    pub fn hit(&self, keys: &[&str]) {
        let _ = self.count(keys, 1);
    }

    fn count(&self, keys: &[&str], add: u32) -> Result<(), u64> {
        let window = self.window;
        let now = Instant::now();
        let mut windows = self
            .windows
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if windows.len() > 100_000 {
            windows.retain(|_, (start, _)| now.duration_since(*start) < window);
        }
        let mut wait = None;
        for key in keys {
            let entry = windows.entry((*key).to_owned()).or_insert((now, 0));
            if now.duration_since(entry.0) >= window {
                *entry = (now, 0);
            }
            entry.1 += add;
            if entry.1 > self.per_window || (add == 0 && entry.1 >= self.per_window) {
                let left = window.saturating_sub(now.duration_since(entry.0));
                wait = Some(left.as_secs().max(1));
            }
        }
        wait.map_or(Ok(()), Err)
    }
}

/// The client's address for rate limits: the socket's peer, unless the peer is a trusted proxy;
/// then the rightmost address of `X-Forwarded-For` that is not itself a trusted proxy. A header
/// from anyone else is ignored, so it cannot be used to dodge a limit.
pub fn client_ip(req: &actix_web::HttpRequest, trusted: &[crate::config::Cidr]) -> String {
    let Some(peer) = req.peer_addr().map(|a| a.ip()) else {
        return "unknown".to_owned();
    };
    let is_trusted = |ip: std::net::IpAddr| trusted.iter().any(|c| c.contains(ip));
    if !is_trusted(peer) {
        return peer.to_string();
    }
    let forwarded = req
        .headers()
        .get_all("x-forwarded-for")
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|a| a.trim().parse::<std::net::IpAddr>().ok())
        .collect::<Vec<_>>();
    forwarded
        .into_iter()
        .rev()
        .find(|ip| !is_trusted(*ip))
        .unwrap_or(peer)
        .to_string()
}

/// Shards of [`AccountLimiter`]: two callers lock the same map only when their accounts share
/// a shard, so the limiter never serialises the server's workers.
const ACCOUNT_SHARDS: usize = 16;

/// Authenticated requests per account per minute (`ACCOUNT_REQUESTS_PER_MINUTE`). It sits on
/// every authenticated call, so it is the cheapest counter that does the job: fixed windows
/// numbered from the limiter's start, one count per account id (no string to build, no clock
/// per entry), a map per shard that is emptied when its window ends (so it holds at most the
/// accounts seen in one minute). Like [`RateLimiter`], each instance counts on its own.
#[derive(Debug)]
pub struct AccountLimiter {
    per_minute: u32,
    start: Instant,
    shards: [Mutex<Shard>; ACCOUNT_SHARDS],
}

/// The counts of one shard's accounts in window number `window`.
#[derive(Debug, Default)]
struct Shard {
    window: u64,
    counts: HashMap<uuid::Uuid, u32>,
}

impl AccountLimiter {
    pub fn new(per_minute: u32) -> AccountLimiter {
        AccountLimiter {
            per_minute,
            start: Instant::now(),
            shards: std::array::from_fn(|_| Mutex::new(Shard::default())),
        }
    }

    /// The limit per minute (named in refusals).
    pub fn per_minute(&self) -> u32 {
        self.per_minute
    }

    /// Counts one request of `account`; refuses it, counting nothing, when the account has
    /// already made its `per_minute` requests in this window.
    ///
    /// # Errors
    /// The seconds until the window ends (at least 1).
    pub fn check(&self, account: uuid::Uuid) -> Result<(), u64> {
        let elapsed = self.start.elapsed().as_secs();
        let window = elapsed / WINDOW.as_secs();
        let shard = &self.shards[usize::from(account.as_bytes()[15]) % ACCOUNT_SHARDS];
        let mut shard = shard
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if shard.window != window {
            // Every count in the map belongs to a window that has ended.
            shard.window = window;
            shard.counts.clear();
        }
        let count = shard.counts.entry(account).or_insert(0);
        if *count >= self.per_minute {
            return Err((WINDOW.as_secs() - elapsed % WINDOW.as_secs()).max(1));
        }
        *count += 1;
        Ok(())
    }
}

#[cfg(test)]
mod account_tests {
    use super::*;

    #[test]
    fn an_account_over_its_limit_waits_and_another_account_is_not_affected() {
        let limiter = AccountLimiter::new(3);
        let (ada, bob) = (uuid::Uuid::new_v4(), uuid::Uuid::new_v4());
        for _ in 0..3 {
            assert_eq!(limiter.check(ada), Ok(()));
        }
        let wait = limiter.check(ada).unwrap_err();
        assert!((1..=60).contains(&wait), "{wait}");
        // Refused calls are not counted, and do not spill over to another account.
        assert!(limiter.check(ada).is_err());
        assert_eq!(limiter.check(bob), Ok(()));
    }
}
