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
