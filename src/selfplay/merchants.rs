//! Self-play hooks for Merchants & Marauders: the invariant checks of the game's own `check`,
//! what each seat must not see (the others' unrevealed captains and rumor cards, by their
//! quoted ids; a plundering winner sees the loser's), and the structural check of each view: another seat's cargo, glory hand,
//! stash, rumor, sealed ship, placed tokens and redraw choice are absent.

use super::SelfPlay;
use crate::engine::{Game, Seat, Viewer};
use crate::games::merchants::state::Frame;
use crate::games::merchants::{Action, Merchants, State, check, data};

impl SelfPlay for Merchants {
    fn check_state(state: &State) -> Result<(), String> {
        check::check(state)
    }

    fn hidden_from(state: &State, seat: Seat) -> Vec<String> {
        let Ok(d) = data::load() else {
            return Vec::new();
        };
        // MM-PLUN-1: the loser's hidden cards are shown to the plundering winner.
        let plundered = match state.stack.last() {
            Some(Frame::Plunder { seat: w, from }) if *w == seat => Some(from.index()),
            _ => None,
        };
        let mut hidden = Vec::new();
        for (i, p) in state.players.iter().enumerate() {
            if i == seat.index() || plundered == Some(i) {
                continue;
            }
            if !p.revealed
                && let Some(c) = d.captains.get(usize::from(p.captain))
            {
                hidden.push(format!("\"{}\"", c.id));
            }
            if let Some(r) = p.rumor.and_then(|r| d.rumors.get(usize::from(r))) {
                hidden.push(format!("\"{}\"", r.id));
            }
        }
        hidden
    }

    fn check_actions(state: &State, seat: Seat, listed: &[Action]) -> Result<(), String> {
        for a in listed {
            let text = a.to_string();
            if text.parse::<Action>().ok().as_ref() != Some(a) {
                return Err(format!(
                    "notation {text} does not read back to the same action"
                ));
            }
        }
        if seat.0 >= state.seats {
            return Ok(());
        }
        let view = Merchants::view(state, Viewer::Seat(seat));
        for (i, pv) in view.players.iter().enumerate() {
            if i == seat.index() {
                continue;
            }
            let shows = pv.cargo.is_some()
                || pv.glory_hand.is_some()
                || pv.stash.is_some()
                || pv.rumor.is_some()
                || pv.sealed.is_some()
                || pv.known_mods.is_some()
                || pv.may_redraw.is_some();
            if shows {
                return Err(format!(
                    "seat {seat}'s view shows a hidden part of seat {i}"
                ));
            }
        }
        Ok(())
    }

    fn outcome_label(state: &State) -> String {
        match Merchants::outcome(state) {
            Some(o) if o.winners.is_empty() => format!("no winner ({})", o.reason),
            Some(o) if o.winners.len() > 1 => format!("shared win ({})", o.reason),
            Some(o) => format!("a single winner ({})", o.reason),
            None => "unfinished".to_string(),
        }
    }
}
