//! Self-play hooks for Magnate: the fast counted pick and the invariant checks.

use super::{Policy, SelfPlay};
use crate::engine::driver::{self, Refusal};
use crate::engine::{Game, GameRng, Logged, Seat};
use crate::games::magnate::legal::Tops;
use crate::games::magnate::position::Position;
use crate::games::magnate::state::{SEATS, opponent};
use crate::games::magnate::tokens::Tokens;
use crate::games::magnate::turn::{self, Dice};
use crate::games::magnate::{Action, Event, Magnate, State, legal, roll};

/// What Magnate self-play keeps from action to action.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Kept {
    /// Each seat's column tops, which every pick reads and an action changes in one column at
    /// most.
    tops: [Tops; 2],
    /// What each seat's completed properties pay per die, which every roll reads and only a
    /// build or a completing development changes.
    income: roll::Kept,
}

/// A roll's income with the completed properties' part and the deeds as kept.
impl roll::Income for Kept {
    fn income(&self, state: &State, seat: Seat, hi: u8) -> Tokens {
        let deeds = self
            .tops
            .get(seat.index())
            .into_iter()
            .flat_map(Tops::deeds);
        self.income.income(state, seat, hi, deeds)
    }
}

impl SelfPlay for Magnate {
    type Cache = Kept;

    fn cache(state: &State) -> Kept {
        Kept {
            tops: SEATS.map(|s| Tops::read(state, s)),
            income: roll::Kept::read(state),
        }
    }

    fn pick(state: &State, seat: Seat, rng: &mut Policy) -> Option<Action> {
        legal::pick(state, seat, rng)
    }

    fn pick_cached(state: &State, seat: Seat, rng: &mut Policy, cache: &Kept) -> Option<Action> {
        legal::pick_with(state, seat, cache.tops.get(seat.index())?, rng)
    }

    fn submit_cached(
        state: &mut State,
        seat: Seat,
        action: &Action,
        rng: &mut GameRng,
        events: &mut Vec<Logged<Event>>,
        cache: &Kept,
    ) -> Result<(), Refusal> {
        driver::submit_with::<Magnate>(state, seat, action, events, |state, events| {
            turn::act_with(state, seat, action, rng, events, Dice::Auto, cache)
        })
    }

    fn update_cache(cache: &mut Kept, state: &State, seat: Seat, action: &Action) {
        if let Some(tops) = cache.tops.get_mut(seat.index()) {
            let deeds = tops.deed_count();
            tops.after(state, seat, action);
            match *action {
                Action::Build { card, .. } => cache.income.completed(seat, card),
                // A development that leaves one deed fewer on top completed it.
                Action::Develop { card, .. } if tops.deed_count() < deeds => {
                    cache.income.completed(seat, card);
                }
                _ => {}
            }
        }
        // The end of the game removes both players' unfinished deeds.
        if state.is_over() {
            *cache = Self::cache(state);
        }
    }

    fn check_cache(cache: &Kept, state: &State) -> Result<(), String> {
        for (kept, seat) in cache.tops.iter().zip(SEATS) {
            let fresh = Tops::read(state, seat);
            if *kept != fresh {
                return Err(format!(
                    "seat {seat}'s kept column tops {kept:?} differ from the columns {fresh:?}"
                ));
            }
        }
        let fresh = roll::Kept::read(state);
        if cache.income != fresh {
            return Err(format!(
                "the kept income of completed properties {:?} differs from the columns {fresh:?}",
                cache.income
            ));
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

    /// The kept tops and income follow every action of random games (the actions applied with
    /// the kept income), and a cache that missed a change is reported by the check `--check`
    /// runs after every action.
    #[test]
    fn kept_column_tops_and_income_follow_the_game_and_stale_ones_are_caught() {
        let options: Options = serde_json::from_value(serde_json::json!({"courts": true})).unwrap();
        let rules = options.resolve().unwrap();
        let (mut caught, mut caught_income) = (0, 0);
        for game in 0..20u8 {
            let seed = Seed([game; 32]);
            let mut rng = GameRng::for_setup(&seed);
            let mut policy = Policy::for_game(&seed);
            let mut events = Vec::new();
            let mut state = Magnate::setup(&rules, 2, &mut rng, &mut events).unwrap();
            let mut cache = Magnate::cache(&state);
            assert!(Magnate::check_cache(&Default::default(), &state).is_err());
            let mut n = 0;
            let mut log = Vec::new();
            while let Some(seat) = Magnate::pending(&state).lowest() {
                let action = Magnate::pick_cached(&state, seat, &mut policy, &cache).unwrap();
                n += 1;
                rng.to_action(n);
                let stale = cache.clone();
                Magnate::submit_cached(&mut state, seat, &action, &mut rng, &mut events, &cache)
                    .unwrap();
                Magnate::update_cache(&mut cache, &state, seat, &action);
                assert_eq!(
                    Magnate::check_cache(&cache, &state),
                    Ok(()),
                    "after {action}"
                );
                // Each part left stale alone is caught.
                if stale.tops != cache.tops {
                    let mut partly = cache.clone();
                    partly.tops = stale.tops;
                    let err = Magnate::check_cache(&partly, &state).unwrap_err();
                    assert!(err.contains("kept column tops"), "{err}");
                    caught += 1;
                }
                if stale.income != cache.income {
                    let mut partly = cache.clone();
                    partly.income = stale.income.clone();
                    let err = Magnate::check_cache(&partly, &state).unwrap_err();
                    assert!(err.contains("kept income"), "{err}");
                    caught_income += 1;
                }
                log.push((seat, action));
            }
            // The same actions through the server's path (income read from every column) end
            // in the same state.
            let mut replayed =
                Magnate::setup(&rules, 2, &mut GameRng::for_setup(&seed), &mut events).unwrap();
            for (i, (seat, action)) in log.iter().enumerate() {
                let mut rng = GameRng::for_action(&seed, i as u64 + 1);
                submit::<Magnate>(&mut replayed, *seat, action, &mut rng, &mut events).unwrap();
            }
            assert_eq!(replayed, state);
        }
        assert!(caught > 100, "only {caught} changes of the tops");
        assert!(
            caught_income > 20,
            "only {caught_income} changes of the income"
        );
    }
}
