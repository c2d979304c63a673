//! The engine's part of a game resource kept between reads. A client polling its game, or a page
//! reloaded, asks again for a version it has seen: the stored state never changes under its
//! version, so what it shows a viewer (view, legal actions, pending seats) is kept by game,
//! version and viewer, and such a read parses no state and runs no engine. Only rows read outside
//! a transaction are kept (a version written in a transaction that then rolls back could be
//! written again with another state). Each instance keeps its own; nothing here is shared
//! between instances or needs to be.

use super::resource::{GameStatus, Seen};
use crate::engine::Seat;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use uuid::Uuid;

/// One viewer of one version of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SeenKey {
    pub game: Uuid,
    pub version: i64,
    pub you: Option<Seat>,
    pub status: &'static str,
}

impl SeenKey {
    pub fn new(game: Uuid, version: i64, you: Option<Seat>, status: GameStatus) -> SeenKey {
        SeenKey {
            game,
            version,
            you,
            status: status.as_str(),
        }
    }
}

/// What was seen, by viewer and version, oldest evicted first (`SEEN_CACHE_ENTRIES`: a few
/// thousand games being played at once fit in the default).
#[derive(Debug, Default)]
pub struct SeenCache {
    capacity: usize,
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    entries: HashMap<SeenKey, Arc<Seen>>,
    order: VecDeque<SeenKey>,
}

impl SeenCache {
    pub fn new(capacity: usize) -> SeenCache {
        SeenCache {
            capacity,
            inner: Mutex::default(),
        }
    }

    pub fn get(&self, key: &SeenKey) -> Option<Arc<Seen>> {
        self.lock().entries.get(key).cloned()
    }

    pub fn put(&self, key: SeenKey, seen: Arc<Seen>) {
        if self.capacity == 0 {
            return;
        }
        let mut inner = self.lock();
        if inner.entries.insert(key, seen).is_none() {
            inner.order.push_back(key);
        }
        while inner.order.len() > self.capacity {
            if let Some(old) = inner.order.pop_front() {
                inner.entries.remove(&old);
            }
        }
    }

    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic elsewhere while holding it leaves a map that is still whole.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_entry_goes_first_and_a_kept_one_is_found() {
        let cache = SeenCache::new(100);
        let game = Uuid::nil();
        let key = |v| SeenKey::new(game, v, Some(Seat(0)), GameStatus::Active);
        for v in 0..103 {
            cache.put(key(v), Arc::new(Seen::default()));
        }
        assert_eq!(cache.len(), 100);
        assert!(cache.get(&key(0)).is_none());
        assert!(cache.get(&key(2)).is_none());
        assert!(cache.get(&key(3)).is_some());
        assert!(
            cache
                .get(&SeenKey::new(game, 3, None, GameStatus::Active))
                .is_none(),
            "a spectator never gets a seat's entry"
        );
        let none = SeenCache::new(0);
        none.put(key(1), Arc::new(Seen::default()));
        assert!(none.is_empty());
    }
}
