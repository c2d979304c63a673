//! Merchants & Marauders (Kasper Aagaard and Christian Marcussen, Z-Man Games 2010), 1–4
//! players: the rules engine, from `shared/rules/merchants-and-marauders.md` (draft v0.1; every
//! rule cited by its `MM-...` ID), registered as the kind `merchants_and_marauders` (issue 15).
//!
//! Rules in ten lines: captains sail the Caribbean in rounds. Each round the first player draws
//! an event (NPC icons move the navies and pirates, then the card's text), then every captain
//! takes a turn of up to three actions: Move (to an adjacent zone, into or out of a port), Scout
//! (a merchant to raid, a player or NPC to fight) and, once, Port (sell, buy from a private
//! offer, shipyard, recruit, rumor, mission, stash in the home port). Glory comes from big
//! sales, rich raids, missions, rumors, big ships, victories and the secret stash; at 10 the game
//! ends with the round. An empty event deck ends it at once.
//!
//! Glossary (rulebook → code): captain → [`state::Player::captain`] (a D-CAPT row); ship and its
//! player board → [`state::Player`] (`hits` in Hull, Masts, Cannons, Crew, Cargo order); sea
//! zone / port → [`ids::ZoneId`] with `in_port`; cargo card → [`ids::CargoId`]; decision
//! stack → [`state::Frame`] (the top frame is pending); Port activity → [`state::Activity`];
//! timing window → [`state::Frame::Window`].
//!
//! Data provenance: `data.json` is Part II of the spec. Every table or row the spec tags [P]
//! carries `"p": true` (or a `*_p` flag for a whole card set): the die-face locations, goods
//! names and cargo values, zone nations and effects, the borders, captains, NPCs, events,
//! modifications beyond counts, weapon effects, glory cards, missions, rumors and the Brutal
//! solo level. The card and zone texts are read by the rules through small verbs in the data
//! (`rules` of a zone, `power` of a captain, `effect` of a glory card or weapon, `objective` of
//! a mission, `extra` of a rumor), so a corrected table replaces the JSON without code changes
//! as long as it uses known verbs; `Data::check` holds it to the counts of D-COMP, the shape
//! rules of Part II and the known verbs.
//!
//! Built: MM-SETUP-1..14 (with the sealed simultaneous ship choice), MM-SOLO-1..4,
//! MM-ROUND-1..3, MM-EVT-1..5 (every D-EVT effect, EVT-27's hunters and EVT-29's pardon
//! included), MM-NPC-1..9, MM-ACT-1..4, MM-MOVE-1..4, MM-SCOUT-1..4, MM-RAID-1..7,
//! MM-PORT-1..4, MM-SELL-1..3, MM-BUY-1..8, MM-YARD-1..13 (weapon resale; MM-YARD-5 placement
//! by the owner), MM-RECR-1/2, MM-RUM-1..3 (every D-RUM reward), MM-MIS-1..5, MM-STASH-1..5,
//! MM-NAV-1..14 (the opening volley), MM-DMG-1..6, MM-CREW-1..5, MM-WPN-1..4, MM-PLUN-1..6
//! (plunder choices, claiming ships), MM-DEATH-1..5 (the redraw of MM-DEATH-4a), MM-GLORY-1/2,
//! MM-GCARD-1..6, MM-BNTY-1..6, MM-WAR-1..3, MM-END-1..4, D-WINDOW TW1..TW9, D-ZONE effects and
//! D-CAPT abilities, standing orders (III.3.3, [`orders`]), the hand-limit choice of
//! MM-GCARD-2 (a side request of the owner, [`rules::over_limit`]) and conditional turn
//! scripts (III.3.4, [`script`]).
//!
//! Standing orders: a seat files (`orders ...`, at any time, also out of turn, never listed by
//! `legal_actions`, seen in the history by its sender only) typed rules for its combat
//! declarations, its windows TW2–TW7, its discards from a hand over the limit, its plunder,
//! its claims of defeated ships and its ship choice (with the redraw) after a death. After every accepted action the engine answers each
//! decision at the top of the stack that the deciding seat's orders cover, as that seat's own
//! action, so the seat is never pending for it; the seat alone is told (`order_applied`). A
//! window auto-passed looks to the others exactly like a window nobody had a play for (no event
//! at all), and the filing is answered at once if it covers the seat's pending decision.
//!
//! Readings of the spec where it is silent or loose ([I] unless said): a window is asked of
//! each seat with a legal play once per opening, in D-WINDOW's order, and one play or `pass`
//! moves it on; TW1 tactics come before the first action, TW8 ones whenever the Port action
//! waits between activities; GLY-07 adds a Move (move, enter or leave a port) only; a Hidden
//! Cove against an NPC's scout ends that trigger's hunt; the passive GLY-02 rerolls one Cargo
//! location it caused per round and GLY-03 repairs the first damaged of Hull, Masts, Cannons,
//! Cargo; Long Guns hits land at once (a sinking ends the combat before the defender fires);
//! Chain Shot and Grapeshot go back to the supply when declared; when neither ship can Shoot,
//! Board or Flee (no cannon, no mast) at the start of a round they part (no rule; otherwise two dismasted, disarmed ships fight
//! forever), and so they do after an idle round (from round 2 both Shoot, neither has a cannon,
//! no hit landed: a late seat's III.2 Shoot, an NPC's MM-NPC-8 Shoot or standing orders would
//! repeat it forever; [`combat`]); plunder is taken item by item within the winner's hold, hand limit and two
//! specialists, and `plunder all` is III.2's default; MM-BUY-6's face-up discard of old cargo
//! (`discard cargo N`) is offered while the hold, not the gold, limits what is taken — a buy
//! offer, a raid's or naval ship's cargo to keep (MM-RAID-6's excess, MM-PLUN-2), a captain's
//! plunder (MM-PLUN-1) — and no default ever discards from the hold; a captured ship keeps its damage and its
//! own modifications, and any NPC beaten in crew combat may be captured (MM-PLUN-4 is general);
//! MM-STASH-2 pays a price in the home port from the gold on board first and the stash for the
//! rest, a fixed order ([`rules::purse`]; the owner alone is told what the stash paid);
//! MM-GCARD-2's "at once" means before any other decision of the owner, who is asked even in
//! another player's turn, one card per `discard glory` (a seat two cards over is asked twice),
//! while that turn goes on (the hand count is public, so the request reveals nothing);
//! a mission's objective is met when its holder's turn or Port action waits in the named port
//! (cards delivered: the oldest, or the first good with enough cards); RUM-05 offers face-down
//! tokens blind and one of a kind the ship has is only revealed; MM-YARD-5's timeout places in
//! the first empty port (a default is one action, without dice); MM-DEATH-4a allows one redraw,
//! before the ship is sealed; special weapons are public (III.4), so only their use is logged.
//!
//! Combat is a frame of the decision stack ([`combat`]) above the turn it interrupts; the
//! turn frame beneath is untouched and resumes when the combat closes. A death puts the new
//! ship choice (and the modifications owed) at the bottom of the stack: the dead seat may
//! answer it at once (out of turn, not listed, as the orders are), the other seats' turns go on
//! above it, and the game waits for it only when the dead seat's own next turn would begin
//! (III.3.9, MM-DEATH-2, [`rules::rejoining`]): only then is the seat pending, with a deadline
//! and a timeout default; before, its view shows the request as `rejoin` (with the answers it
//! may send, which no `legal_actions` lists), apart from the decision the game waits for.
//!
//! The engine is pure: it imports `engine`, serde, serde_json and thiserror only.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod action;
pub mod check;
pub mod combat;
pub mod data;
pub mod events;
pub mod ids;
pub mod legal;
pub mod orders;
mod present;
pub mod rules;
pub mod script;
pub mod state;
pub mod view;

#[cfg(test)]
mod tests;

use crate::engine::{
    Audience, EndReason, Game, GameRng, Illegal, Logged, OptionsError, Outcome, Seat, SeatSet,
    Switch, SwitchValue, Timeout, Viewer,
};
use serde::{Deserialize, Serialize};

pub use action::Action;
pub use events::Event;
pub use state::State;
pub use view::View;

/// Options as a client gives them.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    #[serde(default)]
    pub preset: Option<String>,
    /// D-SOLO level of a one-player game (MM-SOLO-2).
    #[serde(default)]
    pub solo_level: Option<String>,
    /// MM-END-4.
    #[serde(default)]
    pub glory_target: Option<u8>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rules {
    pub preset: String,
    pub solo_level: String,
    pub glory_target: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MmOutcome {
    pub winners: Vec<Seat>,
    /// Total glory (track + stash points) per seat.
    pub glory: Vec<u8>,
    /// Stashed gold per seat, revealed at the end (III.4).
    pub stash: Vec<u32>,
    pub reason: String,
}

impl Outcome for MmOutcome {
    fn winners(&self) -> SeatSet {
        self.winners.iter().copied().collect()
    }
}

pub struct Merchants;

impl Game for Merchants {
    const KIND: &'static str = "merchants_and_marauders";
    const NAME: &'static str = "Merchants & Marauders";
    const MIN_SEATS: u8 = 1;
    const MAX_SEATS: u8 = 4;
    const PRESETS: &'static [&'static str] = &["standard"];
    const SWITCHES: &'static [Switch] = &[
        Switch {
            name: "solo_level",
            values: &[
                SwitchValue::Text("easy"),
                SwitchValue::Text("medium"),
                SwitchValue::Text("hard"),
                SwitchValue::Text("brutal"),
            ],
            rules: "MM-SOLO-2",
        },
        Switch {
            name: "glory_target",
            values: &[
                SwitchValue::Number(10),
                SwitchValue::Number(6),
                SwitchValue::Number(8),
                SwitchValue::Number(12),
                SwitchValue::Number(15),
            ],
            rules: "MM-END-4",
        },
    ];

    type Options = Options;
    type Rules = Rules;
    type State = State;
    type Action = Action;
    type Event = Event;
    type View = View;
    type Outcome = MmOutcome;

    fn resolve(options: &Options) -> Result<Rules, OptionsError> {
        let preset = options.preset.clone().unwrap_or_else(|| "standard".into());
        if preset != "standard" {
            return Err(OptionsError(format!("preset: {preset:?} is not a preset")));
        }
        let solo_level = options.solo_level.clone().unwrap_or_else(|| "easy".into());
        if !matches!(solo_level.as_str(), "easy" | "medium" | "hard" | "brutal") {
            return Err(OptionsError(format!(
                "solo_level: easy, medium, hard or brutal, not {solo_level:?}"
            )));
        }
        let glory_target = options.glory_target.unwrap_or(10);
        if ![6, 8, 10, 12, 15].contains(&glory_target) {
            return Err(OptionsError(format!(
                "glory_target: 6, 8, 10, 12 or 15, not {glory_target}"
            )));
        }
        Ok(Rules {
            preset,
            solo_level,
            glory_target,
        })
    }

    /// MM-SOLO-2: the D-SOLO level shortens the event deck of a game of one; with more players
    /// it would be silently ignored.
    fn fits_seats(options: &Options, seats: u8) -> Result<(), OptionsError> {
        match &options.solo_level {
            Some(level) if seats != 1 => Err(OptionsError(format!(
                "solo_level: {level:?} is a one-player level (MM-SOLO-2); leave it out of a game \
                 of {seats} players"
            ))),
            _ => Ok(()),
        }
    }

    fn setup(
        rules: &Rules,
        seats: u8,
        rng: &mut GameRng,
        events: &mut Vec<Logged<Event>>,
    ) -> Result<State, OptionsError> {
        rules::setup(rules, seats, rng, events)
    }

    /// The top frame's seats and every seat owing a hand-limit discard (MM-GCARD-2, a side
    /// request that never blocks the others: [`rules::over_limit`]). A dead captain's seat
    /// whose new ship or token placement waits beneath (III.3.9: [`rules::rejoining`]) is
    /// pending only once nothing else is left and its own turn would begin (MM-DEATH-2,
    /// [`rules::rejoin_due`]); before, it may answer out of turn, with no deadline running.
    fn pending(state: &State) -> SeatSet {
        let owing = data::load().map_or(SeatSet::EMPTY, |d| {
            (0..state.seats)
                .map(Seat)
                .filter(|s| rules::over_limit(d, state, *s))
                .collect()
        });
        let run = rules::rejoining(state);
        if !run.is_empty() && run.len() == state.stack.len() {
            let waited = match rules::rejoin_due(state) {
                Some(seat) => SeatSet::only(seat),
                // `advance` never rests here; should it, every dead captain's seat is asked
                // rather than none (no pending seat would read as a game over).
                None => run.iter().flat_map(|f| f.seats().iter()).collect(),
            };
            return waited.iter().chain(owing.iter()).collect();
        }
        let framed = state.top().map_or(SeatSet::EMPTY, |f| {
            let seats = f.seats();
            match f {
                // A sealed choice waits only for the seats that have not chosen.
                state::Frame::ShipChoice { .. } => seats
                    .iter()
                    .filter(|s| state.player(*s).is_some_and(|p| p.sealed.is_none()))
                    .collect(),
                _ => seats,
            }
        });
        framed.iter().chain(owing.iter()).collect()
    }

    fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
        if !Merchants::pending(state).contains(seat) {
            return Vec::new();
        }
        legal::legal_actions(state, seat)
    }

    /// III.3.3 / III.3.4: standing orders and turn scripts may be filed at any time. III.3.9:
    /// a dead captain's new ship (with the redraw) and its token placements may be answered
    /// before its own turn, while its seat is not pending yet (accepted, not listed).
    fn allowed_out_of_turn(state: &State, seat: Seat, action: &Action) -> bool {
        match action {
            Action::Orders { .. } | Action::Script { .. } => true,
            Action::Ship { .. } | Action::Redraw | Action::Place { .. } => {
                rules::rejoin_request(state, seat)
            }
            _ => false,
        }
    }

    /// The face-down decks and demand pool, the face-down modification and merchant tokens, and
    /// what the others hold unseen (a sealed ship, an unrevealed captain, cargo, glory cards, a
    /// rumor): a card drawn, a token turned or a choice revealed lowers one of them.
    fn unseen(state: &State, seat: Seat) -> Vec<usize> {
        let mut unseen = vec![
            state.event_deck.len(),
            state.cargo_deck.len(),
            state.glory_deck.len(),
            state.rumor_deck.len(),
            state.mission_deck.len(),
            state.captain_deck.len(),
            state.demand_pool.len(),
            state
                .mod_tokens
                .iter()
                .filter(|t| matches!(t, Some(m) if !m.face_up))
                .count(),
            state.merchants.iter().filter(|m| m.is_some()).count(),
        ];
        for (i, p) in state.players.iter().enumerate() {
            if i != seat.index() {
                unseen.extend([
                    usize::from(p.sealed.is_some() && !p.revealed),
                    usize::from(!p.revealed),
                    p.cargo.len(),
                    p.glory_hand.len(),
                    usize::from(p.rumor.is_some()),
                ]);
            }
        }
        unseen
    }

    /// The sealed ship choice is the sender's alone until the reveal; standing orders are
    /// the sender's alone (III.4).
    fn action_audience(action: &Action, seat: Seat) -> Audience {
        match action {
            Action::Orders { .. }
            | Action::Script { .. }
            | Action::Ship { .. }
            | Action::Take { .. }
            | Action::Stash { .. }
            | Action::Leave { .. }
            | Action::Keep { .. }
            | Action::Redraw
            | Action::Pick { .. }
            | Action::Plunder { .. } => Audience::Only(SeatSet::only(seat)),
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
        if !Merchants::pending(state).contains(seat)
            && !Merchants::allowed_out_of_turn(state, seat, action)
        {
            return Err(Illegal::new(
                "MM-ACT-1",
                format!("Seat {} has no decision to take now.", seat.0),
            ));
        }
        rules::apply(state, seat, action, rng, events)
    }

    fn view(state: &State, viewer: Viewer) -> View {
        view::view(state, viewer)
    }

    fn outcome(state: &State) -> Option<MmOutcome> {
        state.outcome.clone()
    }

    fn resign(state: &mut State, seat: Seat) -> Result<(), Illegal> {
        concede(state, seat, EndReason::Resigned)
    }

    fn lose_on_time(state: &mut State, seat: Seat) -> Result<(), Illegal> {
        concede(state, seat, EndReason::Timeout)
    }

    fn timeout(state: &State, seat: Seat) -> Timeout<Action> {
        legal::timeout(state, seat)
    }
}

fn concede(state: &mut State, seat: Seat, reason: EndReason) -> Result<(), Illegal> {
    if state.outcome.is_some() {
        return Err(Illegal::new("MM-END-1", "The game is over."));
    }
    if seat.0 >= state.seats {
        return Err(Illegal::new("MM-END-1", "No such seat."));
    }
    state.stack.clear();
    state.outcome = Some(MmOutcome {
        winners: (0..state.seats).map(Seat).filter(|s| *s != seat).collect(),
        glory: state.players.iter().map(|p| p.glory).collect(),
        stash: state.players.iter().map(|p| p.stash).collect(),
        reason: match reason {
            EndReason::Resigned => "resigned".into(),
            EndReason::Timeout => "timeout".into(),
        },
    });
    Ok(())
}
