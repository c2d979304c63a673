//! Self-play hooks for Magnate: the fast counted pick and the invariant checks.

use super::SelfPlay;
use crate::engine::{Game, GameRng, Seat};
use crate::games::magnate::legal::Tops;
use crate::games::magnate::position::Position;
use crate::games::magnate::state::{SEATS, opponent};
use crate::games::magnate::{Action, Magnate, State, legal};

impl SelfPlay for Magnate {
    /// Each seat's column tops, which every pick reads and an action changes in one column at
    /// most.
    type Cache = [Tops; 2];

    fn cache(state: &State) -> [Tops; 2] {
        SEATS.map(|s| Tops::read(state, s))
    }

    fn pick(state: &State, seat: Seat, rng: &mut GameRng) -> Option<Action> {
        legal::pick(state, seat, rng)
    }

    fn pick_cached(
        state: &State,
        seat: Seat,
        rng: &mut GameRng,
        cache: &[Tops; 2],
    ) -> Option<Action> {
        legal::pick_with(state, seat, cache.get(seat.index())?, rng)
    }

    fn update_cache(cache: &mut [Tops; 2], state: &State, seat: Seat, action: &Action) {
        if let Some(tops) = cache.get_mut(seat.index()) {
            tops.after(state, seat, action);
        }
        // The end of the game removes both players' unfinished deeds.
        if state.is_over() {
            *cache = Self::cache(state);
        }
    }

    fn check_cache(cache: &[Tops; 2], state: &State) -> Result<(), String> {
        for (kept, seat) in cache.iter().zip(SEATS) {
            let fresh = Tops::read(state, seat);
            if *kept != fresh {
                return Err(format!(
                    "seat {seat}'s kept column tops {kept:?} differ from the columns {fresh:?}"
                ));
            }
        }
        Ok(())
    }

    fn check_state(state: &State) -> Result<(), String> {
        // Reading the position back runs every invariant of the format: each card of the game in
        // exactly one place, counts in range, deeds within their target.
        let back = State::try_from(Position::from(state))?;
        if &back != state {
            return Err("the stored form does not read back to the same state".into());
        }
        Ok(())
    }

    fn hidden_from(state: &State, seat: Seat) -> Vec<String> {
        let other = opponent(seat);
        let mut hidden: Vec<String> = state.players[other]
            .hand
            .iter()
            .map(|c| format!("\"{c}\""))
            .collect();
        hidden.extend(state.draw_pile.iter().map(|c| format!("\"{c}\"")));
        hidden
    }

    fn check_actions(state: &State, seat: Seat, listed: &[Action]) -> Result<(), String> {
        // The opponent's deed preferences never reach this seat's view (MAG-INFO-2).
        let view = Magnate::view(state, crate::engine::Viewer::Seat(seat));
        if view.districts.iter().any(|d| {
            d.columns
                .get(opponent(seat).index())
                .is_some_and(|c| c.iter().any(|p| p.prefer.is_some()))
        }) {
            return Err(format!(
                "seat {seat}'s view shows the opponent's deed preferences"
            ));
        }
        // The counted pick draws from exactly the listed actions.
        super::check_counted::<Magnate>(seat, listed, legal::count(state, seat), |i| {
            legal::nth(state, seat, i)
        })
    }

    fn outcome_label(state: &State) -> String {
        match Magnate::outcome(state) {
            Some(o) if o.winners.len() == 2 => "shared".to_string(),
            Some(o) => format!(
                "seat {} wins by {}",
                o.winners.first().map(|s| s.0).unwrap_or(0),
                o.tiebreak.map(|t| format!("{t:?}")).unwrap_or_default()
            ),
            None => "unfinished".to_string(),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::engine::Seed;
    use crate::engine::driver::submit;
    use crate::games::magnate::Options;

    /// The kept tops follow every action of random games, and tops that missed a change to a
    /// column are reported by the check `--check` runs after every action.
    #[test]
    fn kept_column_tops_follow_the_game_and_stale_ones_are_caught() {
        let options: Options = serde_json::from_value(serde_json::json!({"courts": true})).unwrap();
        let rules = options.resolve().unwrap();
        let mut caught = 0;
        for game in 0..20u8 {
            let seed = Seed([game; 32]);
            let mut rng = GameRng::for_setup(&seed);
            let mut policy = GameRng::for_action(&seed, u64::MAX);
            let mut events = Vec::new();
            let mut state = Magnate::setup(&rules, 2, &mut rng, &mut events).unwrap();
            let mut cache = Magnate::cache(&state);
            assert!(Magnate::check_cache(&Default::default(), &state).is_err());
            let mut n = 0;
            while let Some(seat) = Magnate::pending(&state).lowest() {
                let action = Magnate::pick_cached(&state, seat, &mut policy, &cache).unwrap();
                n += 1;
                rng.to_action(n);
                let stale = cache;
                submit::<Magnate>(&mut state, seat, &action, &mut rng, &mut events).unwrap();
                Magnate::update_cache(&mut cache, &state, seat, &action);
                assert_eq!(
                    Magnate::check_cache(&cache, &state),
                    Ok(()),
                    "after {action}"
                );
                if stale != cache {
                    let err = Magnate::check_cache(&stale, &state).unwrap_err();
                    assert!(err.contains("kept column tops"), "{err}");
                    caught += 1;
                }
            }
        }
        assert!(caught > 100, "only {caught} changes of the tops");
    }
}
