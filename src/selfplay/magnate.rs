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
        cache: &mut [Tops; 2],
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
