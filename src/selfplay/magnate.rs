//! Self-play hooks for Magnate: the fast counted pick and the invariant checks.

use super::SelfPlay;
use crate::engine::{Game, GameRng, Seat};
use crate::games::magnate::position::Position;
use crate::games::magnate::state::opponent;
use crate::games::magnate::{Action, Magnate, State, legal};

impl SelfPlay for Magnate {
    fn pick(state: &State, seat: Seat, rng: &mut GameRng) -> Option<Action> {
        legal::pick(state, seat, rng)
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
