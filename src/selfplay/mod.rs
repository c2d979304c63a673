//! Self-play: N complete games with uniformly random legal actions, through the same driver the
//! server uses, optionally checking invariants after every action (design.md section 12).
//!
//! Game `i` of a run seeded with `S` uses the seed `Seed::from_numbers(S, i)` for the game and
//! for its policy ([`Policy::for_game`]), so a run gives the same games whatever the thread
//! count.

use crate::engine::{Draw, Game, GameRng, Logged, Seat, Seed, Viewer, driver};
use std::fmt::Write as _;
use std::time::Duration;

mod lancaster;
mod magnate;
mod merchants;

/// The random player's generator: SplitMix64 (Steele, Lea and Flood, 2014) seeded from the
/// game's seed. The game's own dice and draws stay ChaCha20 ([`GameRng`]), one stream per
/// action, as players verify them; the policy's choices are never shown, verified or replayed
/// by anyone but self-play, so they need only be uniform and fixed by the seed. A ChaCha20
/// block gives 16 words for about 60 ns, about as long as a fifth of a Magnate action; the
/// policy draws one word per action, and SplitMix64 gives it in about a nanosecond.
pub struct Policy(u64);

impl Policy {
    /// The policy of the game seeded with `seed`: its words, folded.
    pub fn for_game(seed: &Seed) -> Policy {
        let mut state = 0u64;
        for chunk in seed.0.chunks_exact(8) {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            state = Policy(state ^ u64::from_le_bytes(word)).next_u64();
        }
        Policy(state)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

impl Draw for Policy {
    #[inline]
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
}

/// What self-play needs from a game beyond [`Game`].
pub trait SelfPlay: Game {
    /// What a game keeps from action to action to pick faster (`()` for most): derived from the
    /// state, never stored with it, and checked against a fresh one after every action with
    /// `--check`.
    type Cache: Default;

    /// The cache for `state`, built afresh.
    fn cache(_state: &Self::State) -> Self::Cache {
        Self::Cache::default()
    }

    /// [`SelfPlay::pick`] with the cache of `state` at hand; exactly what `pick` draws.
    fn pick_cached(
        state: &Self::State,
        seat: Seat,
        rng: &mut Policy,
        _cache: &Self::Cache,
    ) -> Option<Self::Action> {
        Self::pick(state, seat, rng)
    }

    /// Checks and applies `seat`'s `action` as [`driver::submit`] does, with the cache at hand
    /// (a game may read from it what applying the action needs); exactly what `submit` does.
    ///
    /// # Errors
    /// As [`driver::submit`].
    fn submit_cached(
        state: &mut Self::State,
        seat: Seat,
        action: &Self::Action,
        rng: &mut GameRng,
        events: &mut Vec<Logged<Self::Event>>,
        _cache: &Self::Cache,
    ) -> Result<(), driver::Refusal>
    where
        Self: Sized,
    {
        driver::submit::<Self>(state, seat, action, rng, events)
    }

    /// Brings `cache` up to date after `seat`'s `action` was applied to `state`.
    fn update_cache(
        _cache: &mut Self::Cache,
        _state: &Self::State,
        _seat: Seat,
        _action: &Self::Action,
    ) {
    }

    /// Whether the kept cache still equals a fresh one.
    ///
    /// # Errors
    /// What differs.
    fn check_cache(_cache: &Self::Cache, _state: &Self::State) -> Result<(), String> {
        Ok(())
    }

    /// One of `seat`'s legal actions, uniformly at random (`legal_actions` then an index by
    /// default; a game may count and index without building the list).
    fn pick(state: &Self::State, seat: Seat, rng: &mut Policy) -> Option<Self::Action> {
        let actions = Self::legal_actions(state, seat);
        let i = rng.index(actions.len());
        actions.into_iter().nth(i)
    }

    /// Every component accounted for exactly once, no negative count, and the stored form reads
    /// back to the same state.
    fn check_state(state: &Self::State) -> Result<(), String>;

    /// Strings (JSON-quoted card codes, ...) that must not appear in anything `seat` sees.
    fn hidden_from(state: &Self::State, seat: Seat) -> Vec<String>;

    /// Further checks of the legal-action list (e.g. that the fast `pick` agrees with it).
    fn check_actions(
        _state: &Self::State,
        _seat: Seat,
        _listed: &[Self::Action],
    ) -> Result<(), String> {
        Ok(())
    }

    /// Per-game statistics for the summary: a short label of the outcome.
    fn outcome_label(state: &Self::State) -> String;
}

/// One run's settings.
#[derive(Debug, Clone)]
pub struct Run<R> {
    pub rules: R,
    pub seats: u8,
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    pub check: bool,
}

/// A run as asked for on the command line, before the game's options are resolved.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Players; the game's smallest count when absent.
    pub players: Option<u8>,
    pub games: u64,
    pub seed: u64,
    pub threads: usize,
    pub check: bool,
}

/// A run's totals.
#[derive(Debug, Default)]
pub struct Summary {
    pub games: u64,
    pub actions: u64,
    pub labels: std::collections::BTreeMap<String, u64>,
}

/// A violated invariant, with what reproduces it.
#[derive(Debug)]
pub struct Violation {
    pub message: String,
}

/// Plays game `index` of the run to its end.
fn play_one<G: SelfPlay>(run: &Run<G::Rules>, index: u64) -> Result<(u64, String), Violation> {
    let seed = Seed::from_numbers(run.seed, index);
    let mut policy = Policy::for_game(&seed);
    let mut events: Vec<Logged<G::Event>> = Vec::with_capacity(16);
    let fail = |message: String, log: &[(Seat, G::Action)]| {
        let mut text = String::new();
        let _ = write!(
            text,
            "{message}\nreproduce: --seed {} (game {index}); actions:",
            run.seed
        );
        for (s, a) in log {
            let _ = write!(text, " {s}:{a}");
        }
        Violation { message: text }
    };
    // One generator for the setup and every action: moved to each action's stream, it draws what
    // a fresh `GameRng::for_action(&seed, n)` would, without keying ChaCha20 per turn.
    let mut rng = GameRng::for_setup(&seed);
    let mut state = G::setup(&run.rules, run.seats, &mut rng, &mut events)
        .map_err(|e| fail(format!("setup failed: {e}"), &[]))?;
    let mut log: Vec<(Seat, G::Action)> = Vec::new();
    let mut cache = G::cache(&state);
    let mut n: u64 = 0;
    loop {
        let pending = G::pending(&state);
        if run.check {
            check_step::<G>(&state, &events, &log).map_err(|m| fail(m, &log))?;
            G::check_cache(&cache, &state).map_err(|m| fail(m, &log))?;
        }
        let Some(seat) = pending.lowest() else { break };
        events.clear();
        let Some(action) = G::pick_cached(&state, seat, &mut policy, &cache) else {
            return Err(fail(
                format!("seat {seat} is pending but has no legal action"),
                &log,
            ));
        };
        n += 1;
        rng.to_action(n);
        if let Err(e) = G::submit_cached(&mut state, seat, &action, &mut rng, &mut events, &cache) {
            return Err(fail(
                format!("the listed action {action} of seat {seat} was refused: {e}"),
                &log,
            ));
        }
        G::update_cache(&mut cache, &state, seat, &action);
        if run.check {
            log.push((seat, action));
        }
        if n > 100_000 {
            return Err(fail(
                "the game did not end after 100000 actions".into(),
                &log,
            ));
        }
    }
    if run.check {
        replay_check::<G>(run, &seed, &state, &log).map_err(|m| fail(m, &log))?;
    }
    Ok((n, G::outcome_label(&state)))
}

/// The checks after every action (design.md section 12).
fn check_step<G: SelfPlay>(
    state: &G::State,
    events: &[Logged<G::Event>],
    log: &[(Seat, G::Action)],
) -> Result<(), String> {
    let _ = log;
    G::check_state(state)?;
    let pending = G::pending(state);
    let outcome = G::outcome(state);
    if pending.is_empty() != outcome.is_some() {
        return Err(format!("pending seats {pending:?} but outcome {outcome:?}"));
    }
    for seat in (0..G::MAX_SEATS).map(Seat) {
        let listed = G::legal_actions(state, seat);
        if pending.contains(seat) == listed.is_empty() {
            return Err(format!(
                "seat {seat}: pending is {} but {} legal actions are listed",
                pending.contains(seat),
                listed.len()
            ));
        }
        G::check_actions(state, seat, &listed)?;
        for action in &listed {
            let mut copy = state.clone();
            let mut scratch = Vec::new();
            let mut rng = GameRng::for_setup(&Seed([7; 32]));
            if let Err(e) = driver::submit::<G>(&mut copy, seat, action, &mut rng, &mut scratch) {
                return Err(format!("seat {seat}: listed action {action} refused: {e}"));
            }
        }
        let hidden = G::hidden_from(state, seat);
        let view = serde_json::to_string(&G::view(state, Viewer::Seat(seat)))
            .map_err(|e| e.to_string())?;
        let seen: Vec<String> = events
            .iter()
            .filter(|l| l.audience.admits(Viewer::Seat(seat)))
            .map(|l| serde_json::to_string(&l.event).unwrap_or_default())
            .collect();
        for h in &hidden {
            if view.contains(h.as_str()) {
                return Err(format!("seat {seat}'s view shows hidden {h}"));
            }
            if let Some(e) = seen.iter().find(|e| e.contains(h.as_str())) {
                return Err(format!("an event seat {seat} sees shows hidden {h}: {e}"));
            }
        }
    }
    Ok(())
}

/// For a game whose `pick` counts and indexes without building the list: `count` (its count of
/// `seat`'s legal actions) is the list's length, `nth(i)` is the list's `i`-th action and nothing
/// is past its end, so the pick draws from exactly the listed actions; and each listed action's
/// notation reads back to it.
///
/// # Errors
/// The first disagreement, naming the seat and the action.
fn check_counted<G: SelfPlay>(
    seat: Seat,
    listed: &[G::Action],
    count: u32,
    nth: impl Fn(u32) -> Option<G::Action>,
) -> Result<(), String> {
    let n = count as usize;
    if n != listed.len() {
        return Err(format!(
            "seat {seat}: count says {n} legal actions, the list has {}",
            listed.len()
        ));
    }
    for (i, a) in listed.iter().enumerate() {
        let by_index = nth(i as u32);
        if by_index.as_ref() != Some(a) {
            return Err(format!(
                "seat {seat}: action {i} is {a} in the list but {by_index:?} by index"
            ));
        }
    }
    if nth(listed.len() as u32).is_some() {
        return Err(format!("seat {seat}: an action past the end of the list"));
    }
    check_notation::<G>(listed)
}

/// Each listed action's notation reads back to the same action.
///
/// # Errors
/// The first that does not.
fn check_notation<G: SelfPlay>(listed: &[G::Action]) -> Result<(), String> {
    for a in listed {
        let text = a.to_string();
        if text.parse::<G::Action>().ok().as_ref() != Some(a) {
            return Err(format!(
                "notation {text} does not read back to the same action"
            ));
        }
    }
    Ok(())
}

/// Replays the action log from the seed and compares the stored forms byte for byte.
fn replay_check<G: SelfPlay>(
    run: &Run<G::Rules>,
    seed: &Seed,
    end: &G::State,
    log: &[(Seat, G::Action)],
) -> Result<(), String> {
    let mut events = Vec::new();
    let mut state = G::setup(
        &run.rules,
        run.seats,
        &mut GameRng::for_setup(seed),
        &mut events,
    )
    .map_err(|e| e.to_string())?;
    for (i, (seat, action)) in log.iter().enumerate() {
        let mut rng = GameRng::for_action(seed, i as u64 + 1);
        driver::submit::<G>(&mut state, *seat, action, &mut rng, &mut events)
            .map_err(|e| format!("replay: action {} refused: {e}", i + 1))?;
    }
    let a = serde_json::to_string(&state).map_err(|e| e.to_string())?;
    let b = serde_json::to_string(end).map_err(|e| e.to_string())?;
    if a != b {
        return Err(
            "replaying the action log from the seed does not reproduce the final state".into(),
        );
    }
    Ok(())
}

/// Plays the run on `run.threads` threads.
///
/// # Errors
/// The first violation found.
pub fn play<G: SelfPlay>(run: &Run<G::Rules>) -> Result<Summary, Violation>
where
    G::Rules: Sync,
{
    let threads = run.threads.max(1) as u64;
    let results: Vec<Result<Summary, Violation>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut summary = Summary::default();
                    let mut i = t;
                    while i < run.games {
                        let (actions, label) = play_one::<G>(run, i)?;
                        summary.games += 1;
                        summary.actions += actions;
                        *summary.labels.entry(label).or_default() += 1;
                        i += threads;
                    }
                    Ok(summary)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(Violation {
                        message: "a self-play thread panicked".into(),
                    })
                })
            })
            .collect()
    });
    let mut total = Summary::default();
    for r in results {
        let s = r?;
        total.games += s.games;
        total.actions += s.actions;
        for (k, v) in s.labels {
            *total.labels.entry(k).or_default() += v;
        }
    }
    Ok(total)
}

/// Formats a run's report, whose last line is the contract of design.md section 12.
pub fn report(summary: &Summary, elapsed: Duration) -> String {
    let ms = elapsed.as_millis();
    let per_s = summary.games as f64 / elapsed.as_secs_f64().max(1e-9);
    let mut out = String::new();
    for (label, n) in &summary.labels {
        let _ = writeln!(out, "{label}: {n}");
    }
    let avg = summary.actions as f64 / (summary.games.max(1)) as f64;
    let _ = writeln!(out, "actions_per_game={avg:.1}");
    let _ = writeln!(
        out,
        "games={} actions={} elapsed_ms={ms} games_per_s={per_s:.1}",
        summary.games, summary.actions
    );
    out
}

#[cfg(test)]
mod tests {
    use super::{Policy, check_counted};
    use crate::engine::{Draw, Seat, Seed};
    use crate::games::nim::{Action, Nim};

    fn take(stones: u32) -> Action {
        Action::Take { stones }
    }

    #[test]
    fn a_counted_pick_that_disagrees_with_the_list_is_named_with_its_seat_and_action() {
        let listed = [take(1), take(2), take(3)];
        let by_index = |end: u32| move |i: u32| (i < end).then(|| take(i + 1));
        assert_eq!(
            check_counted::<Nim>(Seat(0), &listed, 3, by_index(3)),
            Ok(())
        );
        let short = check_counted::<Nim>(Seat(1), &listed, 2, by_index(3)).unwrap_err();
        assert_eq!(short, "seat 1: count says 2 legal actions, the list has 3");
        let off = check_counted::<Nim>(Seat(0), &listed, 3, |i| Some(take(i + 2))).unwrap_err();
        assert!(
            off.starts_with("seat 0: action 0 is take 1 in the list but Some(Take"),
            "{off}"
        );
        let past = check_counted::<Nim>(Seat(0), &listed, 3, by_index(4)).unwrap_err();
        assert_eq!(past, "seat 0: an action past the end of the list");
    }

    /// A run's games are fixed by its seed: the policy's words must never change with a
    /// refactor (the recorded games in `engine::registry` rest on them), differ between games,
    /// and give every choice its fair share.
    #[test]
    fn the_policy_is_fixed_by_the_seed_and_uniform() {
        let words = |seed: &Seed| {
            let mut p = Policy::for_game(seed);
            (0..4).map(|_| p.next_u32()).collect::<Vec<_>>()
        };
        // SplitMix64's words for the all-zero seed, computed apart from this code.
        assert_eq!(
            words(&Seed([0; 32])),
            [0x78ae_5a9a, 0xb989_5a2b, 0x4d93_6ece, 0x4f26_a0bb]
        );
        assert_eq!(
            words(&Seed::from_numbers(1, 7)),
            words(&Seed::from_numbers(1, 7))
        );
        assert_ne!(
            words(&Seed::from_numbers(1, 7)),
            words(&Seed::from_numbers(1, 8))
        );
        let mut p = Policy::for_game(&Seed::from_numbers(3, 0));
        let mut counts = [0u32; 7];
        let n = 70_000;
        for _ in 0..n {
            let i = p.index(counts.len());
            counts[i] += 1;
        }
        // Chi-square with 6 degrees of freedom; 22.46 is the 0.999 quantile.
        let expected = f64::from(n) / 7.0;
        let chi2: f64 = counts
            .iter()
            .map(|&c| (f64::from(c) - expected).powi(2) / expected)
            .sum();
        assert!(chi2 < 22.46, "chi-square {chi2} with counts {counts:?}");
        assert_eq!(p.below(0), 0);
    }
}
