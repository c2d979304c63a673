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
    windows: Mutex<HashMap<String, (Instant, u32)>>,
}

impl RateLimiter {
    pub fn new(per_minute: u32) -> RateLimiter {
        RateLimiter {
            per_window: per_minute,
            windows: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one request for each key; refuses with the seconds to wait when any key is over
    /// its limit.
    ///
    /// # Errors
    /// The number of seconds until the window of the exhausted key ends.
    pub fn check(&self, keys: &[&str]) -> Result<(), u64> {
        let now = Instant::now();
        let mut windows = self
            .windows
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if windows.len() > 100_000 {
            windows.retain(|_, (start, _)| now.duration_since(*start) < WINDOW);
        }
        let mut wait = None;
        for key in keys {
            let entry = windows.entry((*key).to_owned()).or_insert((now, 0));
            if now.duration_since(entry.0) >= WINDOW {
                *entry = (now, 0);
            }
            entry.1 += 1;
            if entry.1 > self.per_window {
                let left = WINDOW.saturating_sub(now.duration_since(entry.0));
                wait = Some(left.as_secs().max(1));
            }
        }
        wait.map_or(Ok(()), Err)
    }
}
