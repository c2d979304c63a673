//! Self-play hooks for Merchants & Marauders: the invariant checks of the game's own `check`,
//! what each seat must not see (the others' unrevealed captains and rumor cards, by their
//! quoted ids; a plundering winner sees the loser's), and the structural check of each view: another seat's cargo, glory hand,
//! stash, rumor, sealed ship, placed tokens, redraw choice and standing orders are absent.
//! Random seats sometimes file random standing orders (III.3.3), of every situation: combat
//! declarations, windows, the glory hand over the limit, plunder, claims and ship choices.

use super::{Policy, SelfPlay};
use crate::engine::{Draw, Game, Seat, Viewer};
use crate::games::merchants::state::Frame;
use crate::games::merchants::{Action, Merchants, State, check, data};

/// Standing orders a random seat may file (III.3.3): every situation, condition and answer
/// kind, some of them never legal (the engine then asks as usual).
const ORDERS: &[&str] = &[
    "declare if attacked and hull<=1: flee",
    "declare if crew_margin>=2 and round>=2: board",
    "declare if vs npc and round>=2: flee",
    "declare if attacking: ask",
    "declare: shoot 1",
    "declare: shoot",
    "window TW3: fire",
    "window TW2 if attacked: play GLY-08",
    "window TW5 if lacks GLY-14: play GLY-11",
    "window TW6 if vs player: play GLY-09",
    "window if holds GLY-14: ask",
    "window: pass",
    "hand if holds GLY-08: discard GLY-03",
    "hand: discard GLY-05",
    "hand: discard newest",
    "hand: ask",
    "plunder: plunder gold",
    "plunder if vs player: plunder cargo",
    "plunder: plunder glory",
    "plunder: plunder weapon",
    "plunder: capture",
    "plunder: done",
    "plunder: plunder all",
    "claim if hull<=1: capture",
    "claim: done",
    "ship: redraw",
    "ship: ship flute",
    "ship: ship sloop",
];

/// Step conditions a random turn script may use (III.3.4); the empty one is no condition.
const SCRIPT_CONDS: &[&str] = &[
    "",
    "gold>=5",
    "in_port",
    "at_sea",
    "in_combat",
    "not_in_combat and hull>1",
    "lacks GLY-08",
];

impl SelfPlay for Merchants {
    type Cache = ();

    /// A random legal action; now and then (one time in 20) the pending seat files random
    /// standing orders instead, which the engine may apply at once.
    fn pick(state: &State, seat: Seat, rng: &mut Policy) -> Option<Action> {
        if rng.index(20) == 0 {
            let n = rng.index(5);
            let text: Vec<&str> = (0..n)
                .filter_map(|_| ORDERS.get(rng.index(ORDERS.len())).copied())
                .collect();
            if let Ok(a) = format!("orders {}", text.join("; ")).parse() {
                return Some(a);
            }
        }
        let actions = Self::legal_actions(state, seat);
        // III.3.4: now and then (one time in 20) a turn script of up to three listed actions,
        // some with a condition; the first applies at once, the others as they fit.
        if rng.index(20) == 0 && !actions.is_empty() {
            let n = 1 + rng.index(3);
            let steps: Vec<String> = (0..n)
                .filter_map(|k| {
                    let a = actions.get(rng.index(actions.len()))?;
                    let cond = SCRIPT_CONDS
                        .get(rng.index(SCRIPT_CONDS.len() * 2))
                        .copied()
                        .unwrap_or("");
                    Some(if k == 0 || cond.is_empty() {
                        a.to_string()
                    } else {
                        format!("if {cond}: {a}")
                    })
                })
                .collect();
            if let Ok(a) = format!("script {}", steps.join("; ")).parse() {
                return Some(a);
            }
        }
        let i = rng.index(actions.len());
        actions.into_iter().nth(i)
    }

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
        super::check_notation::<Merchants>(listed)?;
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
                || pv.may_redraw.is_some()
                || pv.orders.is_some()
                || pv.script.is_some();
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
