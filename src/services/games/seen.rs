//! The engine's part of a game resource kept between reads. A client polling its game, or a page
//! reloaded, asks again for a version it has seen: the stored state never changes under its
//! version, so what it shows a viewer (view, legal actions, pending seats) is kept by game,
//! version and viewer, and such a read parses no state and runs no engine. Only rows read outside
//! a transaction are kept (a version written in a transaction that then rolls back could be
//! written again with another state). Each instance keeps its own; nothing here is shared
//! between instances or needs to be.
//!
//! The state itself is kept too, the last version of each game that this instance stored or
//! read: the next move in a game is made at the version its last move stored, and is played on
//! the kept state, row and seats without reading the game first (`submit_at_kept_version`: its
//! write checks that the version is still that one), or, when the seats were read too long ago,
//! after a read that fetches no state and parses none (see `game_and_seats`).

use super::resource::{GameStatus, Seen};
use crate::db::JsonText;
use crate::engine::Seat;
use crate::engine::registry::AnyState;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
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
    states: Mutex<States>,
}

/// A game's state as stored at one version: its text (the column as read) and the state parsed,
/// and the game's row and seats at that version when this instance read or wrote them.
#[derive(Clone)]
pub struct KeptState {
    pub version: i64,
    pub text: Arc<JsonText>,
    pub state: Arc<AnyState>,
    pub head: Option<Arc<KeptHead>>,
}

/// The game row (without its state) and seats at a kept version. Every change of the game row
/// or of who sits where moves the version, but a few things at a table change without it (a
/// director's extension or a return from vacation moves deadlines; a player's rating and vacation
/// are their account's): `read_at` says when those were last read from the database.
pub struct KeptHead {
    pub game: crate::models::Game,
    pub seats: Vec<super::resource::SeatRow>,
    pub read_at: Instant,
}

impl KeptHead {
    /// `game` (its state left out: the [`KeptState`] has it) and `seats` as read at `read_at`.
    pub fn new(
        game: &crate::models::Game,
        seats: &[super::resource::SeatRow],
        read_at: Instant,
    ) -> Arc<KeptHead> {
        Arc::new(KeptHead {
            game: game.clone_without_state(),
            seats: seats.to_vec(),
            read_at,
        })
    }
}

/// The last kept state of each game, oldest game evicted first.
#[derive(Default)]
struct States {
    entries: HashMap<Uuid, KeptState>,
    order: VecDeque<Uuid>,
}

/// How many, never what: states hold hands and the deck's order.
impl std::fmt::Debug for States {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "States({} games)", self.entries.len())
    }
}

#[derive(Debug, Default)]
struct Inner {
    entries: HashMap<SeenKey, Arc<Seen>>,
    order: VecDeque<SeenKey>,
    /// By game, the one version whose entries are kept, and those entries' keys. A read asks
    /// for the version it read, so once a later version is kept the earlier one is never asked
    /// for again: its entries go then, not when the capacity pushes them out. Without this the
    /// cache filled with views of versions long played over (2048 of them, some 9 MB of the
    /// server's memory after 200 games: `bench_footprint`, 2026-12-02).
    latest: HashMap<Uuid, (i64, Vec<SeenKey>)>,
}

impl Inner {
    /// Forgets `key`'s entry, and the game's bookkeeping with its last entry.
    fn forget(&mut self, key: &SeenKey) {
        self.entries.remove(key);
        if let Some((version, keys)) = self.latest.get_mut(&key.game)
            && *version == key.version
        {
            keys.retain(|k| k != key);
            if keys.is_empty() {
                self.latest.remove(&key.game);
            }
        }
    }
}

impl SeenCache {
    pub fn new(capacity: usize) -> SeenCache {
        SeenCache {
            capacity,
            inner: Mutex::default(),
            states: Mutex::default(),
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
        let earlier = match inner.latest.get_mut(&key.game) {
            // A slow read of a version already played over: nobody will ask for it.
            Some((version, _)) if *version > key.version => return,
            Some((version, keys)) if *version == key.version => {
                if !keys.contains(&key) {
                    keys.push(key);
                }
                Vec::new()
            }
            Some((version, keys)) => {
                *version = key.version;
                std::mem::replace(keys, vec![key])
            }
            None => {
                inner.latest.insert(key.game, (key.version, vec![key]));
                Vec::new()
            }
        };
        for old in &earlier {
            inner.entries.remove(old);
        }
        if inner.entries.insert(key, seen).is_none() {
            inner.order.push_back(key);
        }
        // The order still lists the keys forgotten above; popping one again is harmless.
        while inner.order.len() > self.capacity {
            if let Some(old) = inner.order.pop_front() {
                inner.forget(&old);
            }
        }
    }

    /// The version of `game` whose state is kept, if any.
    pub fn state_version(&self, game: Uuid) -> Option<i64> {
        self.lock_states().entries.get(&game).map(|k| k.version)
    }

    /// The state of `game` at `version`, if that is the one kept.
    pub fn state(&self, game: Uuid, version: i64) -> Option<KeptState> {
        self.lock_states()
            .entries
            .get(&game)
            .filter(|k| k.version == version)
            .cloned()
    }

    /// The kept state of `game` with its row and seats, if those were read from the database
    /// less than `fresh` ago.
    pub fn with_head(&self, game: Uuid, fresh: Duration) -> Option<(KeptState, Arc<KeptHead>)> {
        let states = self.lock_states();
        let kept = states.entries.get(&game)?;
        let head = kept.head.as_ref().filter(|h| h.read_at.elapsed() < fresh)?;
        Some((kept.clone(), Arc::clone(head)))
    }

    /// Keeps `kept` as `game`'s state unless a later version is kept already (a slow read must
    /// not replace what a move stored meanwhile), or the same one with its row and seats read
    /// as late. Only committed versions may be kept.
    pub fn put_state(&self, game: Uuid, kept: KeptState) {
        if self.capacity == 0 {
            return;
        }
        let mut states = self.lock_states();
        // At the same version the state is the same; a later read of the row and seats is kept.
        let later_head = |old: &KeptState| match (&old.head, &kept.head) {
            (Some(old), Some(new)) => new.read_at > old.read_at,
            (None, new) => new.is_some(),
            (Some(_), None) => false,
        };
        match states.entries.get_mut(&game) {
            Some(old) if old.version > kept.version => {}
            Some(old) if old.version == kept.version && !later_head(old) => {}
            Some(old) => *old = kept,
            None => {
                states.entries.insert(game, kept);
                states.order.push_back(game);
            }
        }
        while states.order.len() > self.capacity {
            if let Some(old) = states.order.pop_front() {
                states.entries.remove(&old);
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

    fn lock_states(&self) -> std::sync::MutexGuard<'_, States> {
        self.states.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_entry_goes_first_and_a_kept_one_is_found() {
        let cache = SeenCache::new(100);
        let game = |g: u128| Uuid::from_u128(g);
        let key = |g| SeenKey::new(game(g), 7, Some(Seat(0)), GameStatus::Active);
        for g in 0..103 {
            cache.put(key(g), Arc::new(Seen::default()));
        }
        assert_eq!(cache.len(), 100);
        assert!(cache.get(&key(0)).is_none());
        assert!(cache.get(&key(2)).is_none());
        assert!(cache.get(&key(3)).is_some());
        assert!(
            cache
                .get(&SeenKey::new(game(3), 7, None, GameStatus::Active))
                .is_none(),
            "a spectator never gets a seat's entry"
        );
        let none = SeenCache::new(0);
        none.put(key(1), Arc::new(Seen::default()));
        assert!(none.is_empty());
    }

    #[test]
    fn a_games_views_at_a_version_go_when_a_later_one_is_kept() {
        let cache = SeenCache::new(100);
        let (a, b) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let key = |game, v, seat| SeenKey::new(game, v, Some(Seat(seat)), GameStatus::Active);
        let spectator = |game, v| SeenKey::new(game, v, None, GameStatus::Active);
        for k in [key(a, 1, 0), key(a, 1, 1), spectator(a, 1), key(b, 1, 0)] {
            cache.put(k, Arc::new(Seen::default()));
        }
        assert_eq!(cache.len(), 4);
        cache.put(key(a, 2, 1), Arc::new(Seen::default()));
        assert_eq!(
            cache.len(),
            2,
            "game a's version 1 is gone, all its viewers"
        );
        assert!(cache.get(&key(a, 1, 0)).is_none());
        assert!(cache.get(&spectator(a, 1)).is_none());
        assert!(cache.get(&key(a, 2, 1)).is_some());
        assert!(
            cache.get(&key(b, 1, 0)).is_some(),
            "another game keeps its own"
        );
        // A slow read of the version played over is not kept.
        cache.put(key(a, 1, 0), Arc::new(Seen::default()));
        assert!(cache.get(&key(a, 1, 0)).is_none());
        // Many games through a small cache: what it keeps about them stays within its capacity.
        let small = SeenCache::new(10);
        for g in 0..1000 {
            for v in 0..3 {
                small.put(key(Uuid::from_u128(g), v, 0), Arc::new(Seen::default()));
            }
        }
        let inner = small.lock();
        assert!(inner.entries.len() <= 10 && inner.latest.len() <= 10);
        assert!(inner.entries.contains_key(&key(Uuid::from_u128(999), 2, 0)));
    }

    #[test]
    fn a_games_later_state_is_kept_and_an_earlier_one_never_replaces_it() {
        use crate::engine::Seed;
        use crate::engine::registry::GameKind;
        let kind = GameKind::ALL[0];
        let rules = kind.resolve_options(&serde_json::Value::Null).unwrap();
        let (state, _) = kind.setup(&rules, 2, &Seed([1; 32])).unwrap();
        let at = |version| KeptState {
            version,
            text: Arc::new(JsonText(state.to_json_text())),
            state: Arc::new(state.clone()),
            head: None,
        };
        let cache = SeenCache::new(2);
        let (a, b, c) = (Uuid::from_u128(1), Uuid::from_u128(2), Uuid::from_u128(3));
        cache.put_state(a, at(5));
        cache.put_state(a, at(4));
        assert_eq!(cache.state_version(a), Some(5));
        assert!(
            cache.state(a, 4).is_none(),
            "only the kept version is served"
        );
        assert_eq!(cache.state(a, 5).map(|k| k.version), Some(5));
        cache.put_state(a, at(6));
        assert_eq!(cache.state_version(a), Some(6));
        cache.put_state(b, at(1));
        cache.put_state(c, at(1));
        assert_eq!(cache.state_version(a), None, "the oldest game goes first");
        assert_eq!(cache.state_version(c), Some(1));
        let none = SeenCache::new(0);
        none.put_state(a, at(1));
        assert_eq!(none.state_version(a), None);
        assert_eq!(format!("{cache:?}").matches("States(2 games)").count(), 1);
    }

    #[test]
    fn at_the_same_version_only_a_later_read_of_the_seats_replaces_the_kept_one() {
        use crate::engine::Seed;
        use crate::engine::registry::GameKind;
        let kind = GameKind::ALL[0];
        let rules = kind.resolve_options(&serde_json::Value::Null).unwrap();
        let (state, _) = kind.setup(&rules, 2, &Seed([1; 32])).unwrap();
        let now = chrono::Utc::now();
        let game = crate::models::Game {
            id: Uuid::from_u128(1),
            kind: "magnate".to_owned(),
            rules_version: 1,
            options: serde_json::Value::Null,
            seed: Vec::new(),
            seed_commitment: String::new(),
            state: None,
            version: 5,
            action_count: 0,
            event_count: 0,
            status: "active".to_owned(),
            outcome: None,
            seat_count: 2,
            created_by: Uuid::nil(),
            created_at: now,
            updated_at: now,
            finished_at: None,
            clock: serde_json::Value::Null,
            rated: false,
            spectator_chat: false,
        };
        let at = |version, read_at: Option<Instant>| KeptState {
            version,
            text: Arc::new(JsonText(state.to_json_text())),
            state: Arc::new(state.clone()),
            head: read_at.map(|t| KeptHead::new(&game, &[], t)),
        };
        let (t0, a) = (Instant::now(), game.id);
        let (t1, t2) = (
            t0 + Duration::from_millis(10),
            t0 + Duration::from_millis(20),
        );
        let fresh = Duration::from_secs(3600);
        let read_at = |cache: &SeenCache| cache.with_head(a, fresh).map(|(_, h)| h.read_at);
        let cache = SeenCache::new(4);
        cache.put_state(a, at(5, None));
        assert_eq!(read_at(&cache), None, "a state kept without its seats");
        cache.put_state(a, at(5, Some(t1)));
        assert_eq!(
            read_at(&cache),
            Some(t1),
            "the seats added at the same version"
        );
        cache.put_state(a, at(5, Some(t0)));
        cache.put_state(a, at(5, None));
        assert_eq!(
            read_at(&cache),
            Some(t1),
            "an older read, or none, is not kept"
        );
        cache.put_state(a, at(5, Some(t2)));
        assert_eq!(
            read_at(&cache),
            Some(t2),
            "a later read of the same version is"
        );
        cache.put_state(a, at(4, Some(t2 + Duration::from_millis(10))));
        assert_eq!(read_at(&cache), Some(t2), "an earlier version never is");
        assert!(
            cache.with_head(a, Duration::ZERO).is_none(),
            "seats read longer ago than asked are not served"
        );
    }
}
