//! Lancaster (Matthias Cramer, Queen Games 2011), 2–5 players: the rules engine, from
//! `shared/rules/lancaster.md` (every rule cited by its `LAN-...` ID).
//!
//! Rules in ten lines: five rounds. In each, players take turns placing one knight from their
//! court on a county (minimum strength; squires add strength; a strictly stronger knight expels
//! the occupant), on their own castle, or on a conflict with France (the first six conflict
//! knights each earn a King's favour). Then parliament votes three proposed laws one after
//! another, each vote secret and simultaneous (tile plus spent voting markers; ties pass), and the
//! three current laws apply left to right. Then rewards: counties A–I (noble, reward, or both for
//! 3 gold; Surrey picks the next start player), castles (spaces and extensions, then voting
//! markers for the round table), conflicts (bottom row first: England wins if the knights' total
//! reaches France's strength; a lost first attempt moves down, a lost second captures the
//! knights for ransom). Final scoring: knighthood and castle majorities and the round table. In
//! the two-player game each player also controls an ally.
//!
//! Glossary (rulebook → code): colour / ally → [`state::Faction`] (players first, then allies);
//! knight piece → [`ids::Piece`], its zone → [`state::Loc`]; court / reserve → `Loc::Court` /
//! `Loc::Reserve`; county → [`ids::CountyId`], [`state::CountySlot`]; castle space and extension
//! tile → [`ids::Space`]; conflict card → [`state::Conflict`]; ballot → [`state::Ballot`]; a
//! decision inside a step (favour pick, upgrade target, county choice, ransom...) →
//! [`state::Frame`]; phase and step → [`state::Step`]; rules flow → [`rules`].
//!
//! Data provenance: `data.json` is section 13 of `shared/rules/lancaster.md` (draft v0.1). Rows
//! tagged [P] there are placeholders, invented so the game is playable: the names, minimums and
//! rewards of counties A, B, C, E, F, G (and the rewards of D and the minimum of I), castle
//! spaces K3–K6 (and K2's cost), the amounts of the six favour tiles, all conflict cards but the
//! France-5 card with PP 4/2/1, and the group numbers of the laws. Corrected data replaces
//! `data.json` without touching code.
//!
//! Readings the rulebook (S1, the Spanish seed) leaves open are data values too, each defaulting
//! to the spec's current reading, so a corrected reading is a data edit and the engine obeys it
//! (each is pinned by a test that flips it):
//! - `lord_counts_at_end` (LAN-FIN-4, §14 Q11; default `false`): whether the castle lord takes a
//!   round-table seat at the final scoring. S1 pays "más de un noble en la mesa redonda" but
//!   hands out voting markers "por cada noble, incluido el señor de la fortaleza".
//! - `extension_covers_space` (LAN-CAS-2 [I]; default `true`): a built extension tile covers its
//!   castle space, so no knight may go there. S1 only says knights go on "cualquier casilla libre
//!   de su propio castillo". With `false` a knight may, and the knight and the tile each pay.
//! - `reward_options` of a county (LAN-RWC-2; Surrey's default is the one fixed reward of 2
//!   squires and 2 gold): S1's example "Como recompensa elige dos escuderos y dos monedas de oro"
//!   may mean a choice; with options the occupant takes one (`O:<n>`).
//! - `two_player_cards_as` (LAN-2P, §14 Q6; default 2): the player count whose favour tiles and
//!   conflict cards (`min_players`) a two-player game uses. S1 plays it "con las reglas para 4
//!   jugadores", which reads 4.
//! - `majorities` (DAT-MAJORITIES): each award's metric and tie-break quantity.
//! - `components` (DAT-COMPONENTS): the counts `Data::check` holds the lists to.
//!
//! Exchanges that give nothing are neither listed nor accepted (LAN-ENG-3/4, LAN-RWC-2): a
//! castle space with a cost (K2, K3) whose effect cannot happen, and 3 gold for "both" where the
//! county's reward cannot apply. Surrey's start-player choice passes the marker at once
//! (LAN-RWC-4 [E], LAN-ENG-5): the rest of the rewards phase (castles, asked at once anyway, D6;
//! conflicts and their ransoms, LAN-RWF-7) already goes clockwise from the chosen seat
//! (LAN-GEN-2), which also opens the next round. S1 only says the chosen player "abrirá la siguiente ronda", which leaves
//! the moment open; the spec fixes it, and the rules pages tell players the same. A game stored
//! while the engine still kept the choice for the round's end (`next_start_player` pending with
//! the marker at the opener) finishes that round in the opener's order and applies it then.
//!
//! A late or dropped seat's decisions are made by [`timeout`] (design.md section 14), each
//! harming only that seat. Its vote is the one default the rulebook has no word for: the
//! abstention `V:-` (`{"type": "vote", "yes": null}`), a sealed ballot with no tile and no marker
//! that counts for neither side, so a law the others tie on still passes (LAN-PAR-3). The engine
//! accepts it (the server plays a default as any action, and `herald verify` replays it from the
//! history) but never lists it, and the server refuses it from a player
//! ([`Game::chosen_by_player`], LAN-PAR-2): abstaining would be a choice the rules do not give.
//!
//! The engine is pure: it imports `engine`, serde, serde_json and thiserror only. [`present`] (the
//! words of mails and pages) is the one module outside it.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

pub mod action;
pub mod check;
pub mod data;
pub mod events;
pub mod ids;
pub mod names;
pub mod options;
pub mod present;
#[cfg(test)]
mod properties;
pub mod rules;
pub mod score;
mod sink;
pub mod state;
mod timeout;
pub mod view;

#[cfg(test)]
mod tests;

use crate::engine::{
    Audience, EndReason, Game, GameRng, Illegal, Logged, OptionsError, Seat, SeatSet, Standing,
    Switch, Timeout, Viewer,
};
pub use action::Action;
pub use events::Event;
pub use options::{Options, Rules};
pub use score::LancasterOutcome;
pub use state::State;
pub use view::View;

/// The Lancaster game, for the engine.
pub struct Lancaster;

impl Game for Lancaster {
    const KIND: &'static str = "lancaster";
    const NAME: &'static str = "Lancaster";
    const PRESETS: &'static [&'static str] = options::PRESETS;
    const SWITCHES: &'static [Switch] = options::SWITCHES;
    const MIN_SEATS: u8 = 2;
    const MAX_SEATS: u8 = 5;

    type Options = Options;
    type Rules = Rules;
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = View;
    type Outcome = LancasterOutcome;

    fn resolve(options: &Options) -> Result<Rules, OptionsError> {
        options.resolve()
    }

    fn setup(
        rules: &Rules,
        seats: u8,
        rng: &mut GameRng,
        events: &mut Vec<Logged<Event>>,
    ) -> Result<State, OptionsError> {
        rules::setup(rules, seats, rng, events)
    }

    fn pending(state: &State) -> SeatSet {
        state.pending()
    }

    fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
        rules::legal_actions(state, seat)
    }

    /// The law and conflict decks, and the others' sealed ballots and starting extensions while
    /// they are sealed: the last of them cast reveals them all.
    fn unseen(state: &State, seat: Seat) -> Vec<usize> {
        let others = || state.seats().filter(move |s| *s != seat);
        let ballots = match state.step {
            state::Step::Vote { .. } => others()
                .filter(|s| state.ballots.get(s.index()).is_some_and(Option::is_some))
                .count(),
            _ => 0,
        };
        let extensions = match state.step {
            state::Step::StartExtension => others()
                .filter(|s| {
                    state
                        .faction(s.0)
                        .is_some_and(|f| f.start_extension.is_some())
                })
                .count(),
            _ => 0,
        };
        vec![
            state.law_deck.len(),
            state.conflict_deck.len(),
            ballots,
            extensions,
        ]
    }

    /// The abstention is a late voter's default, not a player's choice: LAN-PAR-2 gives a
    /// voter a yes tile or a no tile.
    fn chosen_by_player(action: &Action) -> Result<(), Illegal> {
        match action {
            Action::Vote { yes: None, .. } => Err(Illegal::new(
                "LAN-PAR-2",
                "A vote is a yes tile or a no tile (V:Y or V:N); abstaining (V:-) is only what \
                 the game does for a voter who lets the deadline pass.",
            )),
            _ => Ok(()),
        }
    }

    /// Sealed choices (a parliament ballot, a starting extension) are the sender's alone until
    /// the reveal, which is an event of its own.
    fn action_audience(action: &Action, seat: Seat) -> Audience {
        match action {
            Action::Vote { .. } | Action::StartExtension { .. } => {
                Audience::Only(SeatSet::only(seat))
            }
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
        if state.is_over() {
            return Err(Illegal::new("LAN-GEN-1", "The game is over."));
        }
        if !state.is_pending(seat) {
            return Err(Illegal::new(
                "LAN-GEN-2",
                format!("Seat {seat} has no decision to take now."),
            ));
        }
        // Every refusal of `rules::act` comes before its first change, so the action applies in
        // place and a refused one leaves the state as it was; only its events are taken back.
        let before = events.len();
        // The generator is this action's own stream: a blind extension draw
        // (`extension_draw = random`) replays exactly.
        let result = rules::act(state, seat, action, rng, events);
        if result.is_err() {
            events.truncate(before);
        }
        result
    }

    fn view(state: &State, viewer: Viewer) -> View {
        view::view(state, viewer)
    }

    fn outcome(state: &State) -> Option<LancasterOutcome> {
        state.outcome.clone()
    }

    fn standings(state: &State, seats: u8) -> Vec<Standing> {
        state
            .outcome
            .as_ref()
            .map(|o| o.standings(seats))
            .unwrap_or_default()
    }

    fn resign(state: &mut State, seat: Seat) -> Result<(), Illegal> {
        concede(state, seat, EndReason::Resigned)
    }

    fn lose_on_time(state: &mut State, seat: Seat) -> Result<(), Illegal> {
        concede(state, seat, EndReason::Timeout)
    }

    fn timeout(state: &State, seat: Seat) -> Timeout<Action> {
        timeout::timeout(state, seat)
    }
}

/// The game ends with `seat` out and the others sharing the victory.
fn concede(state: &mut State, seat: Seat, reason: EndReason) -> Result<(), Illegal> {
    if state.is_over() {
        return Err(Illegal::new("LAN-GEN-1", "The game is over."));
    }
    if seat.0 >= state.players {
        return Err(Illegal::new(
            "LAN-GEN-1",
            format!("This game has seats 0 to {}.", state.players - 1),
        ));
    }
    state.frames.clear();
    state.parallel_from = None;
    state.resigned = Some(seat);
    state.step = state::Step::Over;
    state.outcome = Some(LancasterOutcome {
        winners: state.seats().filter(|s| *s != seat).collect(),
        scores: Vec::new(),
        resigned: Some(seat),
        reason: Some(reason),
    });
    Ok(())
}
