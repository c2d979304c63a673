//! Magnate, a two-player Decktet game by Cristyn Magnus: the rules engine, from
//! `shared/rules/magnate.md` (every rule cited by its ID).
//!
//! Rules in ten lines: five districts (four Pawns around the Excuse) lie between two players. A
//! turn is: roll two d10 (a 1 taxes one suit down to a single token for both players), both
//! players collect income from the higher die (a 10 pays each Crown, a rank pays properties of
//! that rank, double 1s pay Aces); then exactly one card play — build a card outright by paying its
//! rank in its suits, buy a deed for one token per suit and develop it later, or sell a card for
//! tokens — plus any trades (three tokens for one) and developments; then draw. Cards in a district
//! must share a suit with the district (first card) or with your last card there. The discards are
//! reshuffled once; after the pile runs out again each player has one final turn. Whoever wins more
//! districts (higher sum of completed properties) wins.
//!
//! Glossary (rulebook → code): token → one unit of a [`cards::Suit`] in [`tokens::Tokens`];
//! supply → `Player::supply`; district → [`cards::District`]; column → `Player::columns`; property
//! → [`state::Property`]; deed → [`state::Deed`]; card play → build / deed / sell
//! ([`play`]); develop → [`develop`]; trade → [`trade`]; roll, taxation, income → [`roll`]; draw,
//! final turns, end → [`turn`]; district total, district points → [`score`]; the last card of a
//! column (MAG-PLACE-3), which the next card must share a suit with → its top, [`legal::Tops`].
//!
//! The engine is pure: it imports `engine`, serde and thiserror only. [`present`] (the words of
//! mails and pages) is the one module outside it.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

pub mod action;
pub mod cards;
pub mod develop;
pub mod events;
pub mod legal;
pub mod names;
pub mod options;
pub mod play;
pub mod position;
pub mod present;
pub mod referee;
pub mod roll;
pub mod score;
pub mod setup;
pub mod state;
pub mod tokens;
pub mod trade;
pub mod turn;
pub mod view;

#[cfg(test)]
mod tests;

use crate::engine::{
    Audience, Game, GameRng, Illegal, Logged, OptionsError, Seat, SeatSet, Standing, Switch, Viewer,
};
pub use action::Action;
pub use events::Event;
pub use options::{Options, Rules};
pub use score::MagnateOutcome;
pub use state::State;
pub use view::View;

/// The Magnate game, for the engine.
pub struct Magnate;

impl Game for Magnate {
    const KIND: &'static str = "magnate";
    const NAME: &'static str = "Magnate";
    const PRESETS: &'static [&'static str] = &options::PRESETS;
    const SWITCHES: &'static [Switch] = options::SWITCHES;
    const MIN_SEATS: u8 = 2;
    const MAX_SEATS: u8 = 2;

    type Options = Options;
    type Rules = Rules;
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = View;
    type Outcome = MagnateOutcome;

    fn resolve(options: &Options) -> Result<Rules, OptionsError> {
        options.resolve()
    }

    fn setup(
        rules: &Rules,
        seats: u8,
        rng: &mut GameRng,
        events: &mut Vec<Logged<Event>>,
    ) -> Result<State, OptionsError> {
        if seats != 2 {
            return Err(OptionsError(format!(
                "seats: Magnate is for exactly two players, not {seats}"
            )));
        }
        rules.validate()?;
        Ok(setup::setup(rules, rng, events, turn::Dice::Auto))
    }

    fn pending(state: &State) -> SeatSet {
        if state.is_over() {
            SeatSet::EMPTY
        } else {
            SeatSet::only(state.turn.seat)
        }
    }

    fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
        legal::legal_actions(state, seat)
    }

    fn allowed_out_of_turn(_state: &State, _seat: Seat, action: &Action) -> bool {
        matches!(action, Action::Prefer { .. })
    }

    /// The draw pile and the opponent's hand (MAG-INFO-1): `END` draws from the first.
    fn unseen(state: &State, seat: Seat) -> Vec<usize> {
        let other = state::opponent(seat);
        vec![state.draw_pile.len(), state.players[other].hand.len()]
    }

    /// MAG-INFO-1/2: the action log is public except `PREFER`.
    fn action_audience(action: &Action, seat: Seat) -> Audience {
        match action {
            Action::Prefer { .. } => Audience::Only(SeatSet::only(seat)),
            _ => Audience::Everyone,
        }
    }

    fn apply(
        state: &mut State,
        seat: Seat,
        action: &Action,
        rng: &mut GameRng,
        events: &mut Vec<Logged<Event>>,
    ) -> Result<(), Illegal> {
        turn::act(state, seat, action, rng, events, turn::Dice::Auto)
    }

    fn view(state: &State, viewer: Viewer) -> View {
        view::view(state, viewer)
    }

    fn outcome(state: &State) -> Option<MagnateOutcome> {
        score::outcome(state)
    }

    fn standings(state: &State, _seats: u8) -> Vec<Standing> {
        score::standings(state)
    }

    fn resign(state: &mut State, seat: Seat) -> Result<(), Illegal> {
        if state.is_over() {
            return Err(Illegal::new(
                "MAG-END-4",
                "The game is over; no action is possible.",
            ));
        }
        if seat.0 > 1 {
            return Err(Illegal::new(
                "MAG-TURN-5",
                format!("Magnate has seats 0 and 1 only, not {seat}."),
            ));
        }
        turn::clear_table(state);
        state.resigned = Some(seat);
        Ok(())
    }

    /// MAG has no default decision that harms only the late seat: it loses (the default
    /// [`Game::timeout`]).
    fn lose_on_time(state: &mut State, seat: Seat) -> Result<(), Illegal> {
        Magnate::resign(state, seat)?;
        state.timed_out = true;
        Ok(())
    }
}
