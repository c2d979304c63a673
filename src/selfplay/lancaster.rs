//! Self-play hooks for Lancaster: the invariant checks, what each seat must not see, and checks
//! of the views (screens hide other players' gold and squires in 3-5 player games). With
//! `extension_draw = random`, no extension tile is ever offered as a choice and the views list
//! face-down tiles in castle order only.

use super::{Policy, SelfPlay};
use crate::engine::{Game, Seat, Viewer};
use crate::games::lancaster::state::Step;
use crate::games::lancaster::{Action, Lancaster, State, check, rules};

impl SelfPlay for Lancaster {
    type Cache = ();

    /// The default's draw from the list, built into a reused buffer (no allocation per action).
    fn pick(state: &State, seat: Seat, rng: &mut Policy) -> Option<Action> {
        rules::pick(state, seat, rng)
    }

    fn check_state(state: &State) -> Result<(), String> {
        check::check(state)
    }

    fn hidden_from(state: &State, seat: Seat) -> Vec<String> {
        let mut hidden = Vec::new();
        // Deck orders: cards still in a deck are named nowhere.
        hidden.extend(state.law_deck.iter().map(|l| format!("\"{l}\"")));
        hidden.extend(state.conflict_deck.iter().map(|c| format!("\"{c}\"")));
        for other in state.seats().filter(|s| *s != seat) {
            // Sealed ballots and sealed starting extensions of the others.
            if matches!(state.step, Step::Vote { .. })
                && state
                    .ballots
                    .get(other.index())
                    .is_some_and(Option::is_some)
            {
                hidden.push(format!("\"seat\":{other},\"yes\":"));
            }
            if matches!(state.step, Step::StartExtension)
                && let Some(sp) = state.faction(other.0).and_then(|f| f.start_extension)
            {
                hidden.push(format!("\"seat\":{other},\"space\":\"{sp}\""));
            }
        }
        hidden
    }

    fn check_actions(state: &State, seat: Seat, listed: &[Action]) -> Result<(), String> {
        // The pick's count and index walk, and the pending test it and `apply` use, agree with
        // the list and the pending set.
        if state.is_pending(seat) != state.pending().contains(seat) {
            return Err(format!(
                "seat {seat}: is_pending says {} but the pending set {:?}",
                state.is_pending(seat),
                state.pending()
            ));
        }
        super::check_counted::<Lancaster>(seat, listed, rules::count_legal(state, seat), |i| {
            rules::nth_legal(state, seat, i)
        })?;
        // The view's decision is the seat's own; in a parallel block no other seat's.
        let own = state.frame_for(seat).map(|(_, f)| f);
        let decision = Lancaster::view(state, Viewer::Seat(seat)).decision;
        if (own.is_some() || state.block().is_some()) && decision != own {
            return Err(format!(
                "seat {seat}'s view shows the decision {decision:?}, its own is {own:?}"
            ));
        }
        // LAN-SET-7 with `extension_draw = random`: the draw replaces the choice, so no tile is
        // ever offered.
        if state.rules.draws_extensions()
            && let Some(a) = listed
                .iter()
                .find(|a| matches!(a, Action::StartExtension { .. } | Action::Build { .. }))
        {
            return Err(format!(
                "{a} is listed although extension tiles are drawn blind"
            ));
        }
        if state.rules.draws_extensions() && seat.0 < state.players {
            // The face-down tiles have no order; the view lists them in castle order only.
            let view = Lancaster::view(state, Viewer::Seat(seat));
            for f in &view.factions {
                if f.extensions_unbuilt != rules::build_options(state, f.faction) {
                    return Err(format!(
                        "seat {seat}'s view lists the face-down tiles of colour {} as {:?}, \
                         not in castle order",
                        f.faction, f.extensions_unbuilt
                    ));
                }
            }
        }
        if seat.0 >= state.players || state.players == 2 || state.is_over() {
            return Ok(());
        }
        // LAN-GEN-5: behind the screens.
        let view = serde_json::to_value(Lancaster::view(state, Viewer::Seat(seat)))
            .map_err(|e| e.to_string())?;
        let factions = view
            .get("factions")
            .and_then(|f| f.as_array())
            .ok_or("the view has no factions")?;
        for f in factions {
            let own = f.get("seat").and_then(serde_json::Value::as_u64) == Some(u64::from(seat.0));
            let shows = f.get("gold").is_some() || f.get("squires").is_some();
            if shows != own {
                return Err(format!(
                    "seat {seat}'s view {} gold/squires of {f}",
                    if shows { "shows" } else { "hides its own" }
                ));
            }
        }
        let spectator = serde_json::to_string(&Lancaster::view(state, Viewer::Spectator))
            .map_err(|e| e.to_string())?;
        if spectator.contains("\"gold\"") || spectator.contains("my_ballot") {
            return Err("the spectator's view shows gold or a ballot".into());
        }
        Ok(())
    }

    fn outcome_label(state: &State) -> String {
        match Lancaster::outcome(state) {
            Some(o) if o.winners.len() > 1 => "shared win".to_string(),
            Some(o) => format!("seat {} wins", o.winners.first().map(|s| s.0).unwrap_or(0)),
            None => "unfinished".to_string(),
        }
    }
}
