//! The contract every game implements.

use super::{Audience, GameRng, Seat, SeatSet, Viewer};
use serde::{Serialize, de::DeserializeOwned};
use std::fmt::{Debug, Display};
use std::str::FromStr;

/// A refused action: the rule it breaks and one sentence in rulebook language.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{rule}: {detail}")]
pub struct Illegal {
    /// The stable rule ID of the game's spec, e.g. `MAG-PLACE-2`.
    pub rule: &'static str,
    /// What is wrong, for a player.
    pub detail: String,
}

impl Illegal {
    pub fn new(rule: &'static str, detail: impl Into<String>) -> Illegal {
        Illegal {
            rule,
            detail: detail.into(),
        }
    }
}

/// Options a game cannot be set up with; the message names the option.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct OptionsError(pub String);

/// An event together with who may see it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Logged<E> {
    #[serde(flatten)]
    pub audience: Audience,
    pub event: E,
}

impl<E> Logged<E> {
    pub fn public(event: E) -> Self {
        Logged {
            audience: Audience::Everyone,
            event,
        }
    }

    pub fn only(seats: SeatSet, event: E) -> Self {
        Logged {
            audience: Audience::Only(seats),
            event,
        }
    }

    pub fn all_but(seats: SeatSet, event: E) -> Self {
        Logged {
            audience: Audience::AllBut(seats),
            event,
        }
    }
}

/// One switch of a game's options, as `/game-kinds` lists it and as `resolve` accepts it: the
/// game describes its switches once, here, and a test holds `resolve` to the description.
#[derive(Debug, Clone, Copy)]
pub struct Switch {
    pub name: &'static str,
    /// Every accepted value, the default first.
    pub values: &'static [SwitchValue],
    /// The rule IDs it governs.
    pub rules: &'static str,
}

/// A value a switch takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum SwitchValue {
    Bool(bool),
    Number(u32),
    Text(&'static str),
}

/// A seat's place when the game is over: what results, standings and ratings read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Standing {
    pub seat: Seat,
    /// 1 for a winner; tied seats share a place ("1224" ranking).
    pub place: u8,
    /// The game's own score (Magnate district points, Lancaster prestige points).
    pub score: Option<i64>,
    /// The game's tie-break figures, named, in the order the game applies them.
    pub tiebreaks: Vec<(&'static str, i64)>,
}

/// Places by "1224" ranking: winners first, then the others by `key` (greater is better).
pub fn places(seats: u8, winners: SeatSet, key: impl Fn(Seat) -> i64) -> Vec<(Seat, u8)> {
    let rank = |s: Seat| (winners.contains(s), key(s));
    (0..seats)
        .map(Seat)
        .map(|s| {
            let better = (0..seats).map(Seat).filter(|o| rank(*o) > rank(s)).count();
            (s, u8::try_from(better + 1).unwrap_or(u8::MAX))
        })
        .collect()
}

/// Why a game ended before its rules ended it, as an outcome's `reason` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    Resigned,
    Timeout,
}

/// What happens to a seat that lets its deadline pass (design.md section 14).
#[derive(Debug, Clone, PartialEq)]
pub enum Timeout<A> {
    /// The late seat loses the game on time (two-player games): [`Game::lose_on_time`].
    Loses,
    /// A default decision that harms only the late seat, applied as if it had sent it.
    Play(A),
}

/// What a finished game reports: at least who won.
pub trait Outcome: Debug + Clone + Serialize + DeserializeOwned + PartialEq {
    /// The winning seats (several for a shared victory).
    fn winners(&self) -> SeatSet;
}

/// One game's rules, as pure functions over its state.
///
/// The platform derives everything (emails, deadlines, "your move") from [`Game::pending`]: the
/// seats whose decision the game waits for. It is empty exactly when the game is over. Several
/// seats may be pending at once (a secret vote), and a seat that is not the active player may be
/// pending (a defender deciding in the middle of someone else's turn).
pub trait Game: 'static {
    /// The wire name, e.g. `"magnate"`.
    const KIND: &'static str;
    /// The name players read, e.g. `"Magnate"`.
    const NAME: &'static str;
    const MIN_SEATS: u8;
    const MAX_SEATS: u8;
    /// The rules version a new game starts with (a game keeps its own).
    const RULES_VERSION: u32 = 1;
    /// The named presets, the default first.
    const PRESETS: &'static [&'static str];
    /// Every switch a client may set over a preset.
    const SWITCHES: &'static [Switch];

    /// Options as given by a client: a preset plus switches, all optional.
    type Options: Debug + Clone + Serialize + DeserializeOwned + Default;
    /// Every option resolved to a value; what a game stores.
    type Rules: Debug + Clone + Serialize + DeserializeOwned + PartialEq;
    type State: Debug + Clone + Serialize + DeserializeOwned + PartialEq + Send + Sync;
    type Action: Debug
        + Clone
        + Serialize
        + DeserializeOwned
        + PartialEq
        + Display
        + FromStr<Err: Display>
        + Send
        + Sync;
    type Event: Debug + Clone + Serialize;
    type View: Debug + Serialize;
    type Outcome: Outcome;

    /// Resolves a preset and switches into complete rules; errors name the option.
    fn resolve(options: &Self::Options) -> Result<Self::Rules, OptionsError>;

    /// Refuses options given that mean nothing with `seats` players (a one-player level in a
    /// game of three), which [`Game::resolve`] cannot tell: it does not know the seats. A client
    /// who chose one would otherwise believe it in force.
    ///
    /// # Errors
    /// An [`OptionsError`] naming the option.
    fn fits_seats(_options: &Self::Options, _seats: u8) -> Result<(), OptionsError> {
        Ok(())
    }

    /// The starting state for `seats` players, using only `rng` for chance. Whatever happens at
    /// once (Magnate's first roll) is pushed to `events`.
    fn setup(
        rules: &Self::Rules,
        seats: u8,
        rng: &mut GameRng,
        events: &mut Vec<Logged<Self::Event>>,
    ) -> Result<Self::State, OptionsError>;

    fn pending(state: &Self::State) -> SeatSet;

    /// Every action `seat` may take now, each complete and accepted as listed. Empty when the
    /// seat is not pending. Out-of-turn actions (Magnate's `prefer`) are accepted but not listed.
    fn legal_actions(state: &Self::State, seat: Seat) -> Vec<Self::Action>;

    /// Refuses an action that only a late seat's default plays (design.md section 14): the game
    /// plays it for a seat that let its deadline pass, but it is no choice the rules give a
    /// player (Lancaster's abstention), so a player who sends it is refused.
    ///
    /// # Errors
    /// The rule that gives the player's choices.
    fn chosen_by_player(_action: &Self::Action) -> Result<(), Illegal> {
        Ok(())
    }

    /// Whether `seat` may send `action` although it is not pending (checked by the driver before
    /// it answers "not your turn").
    fn allowed_out_of_turn(_state: &Self::State, _seat: Seat, _action: &Self::Action) -> bool {
        false
    }

    /// Who may see `action`, sent by `seat`, in the history before the game ends (its effects
    /// are events with audiences of their own). Secret choices (a deed preference, a sealed
    /// ballot) are seen by their sender only.
    fn action_audience(_action: &Self::Action, _seat: Seat) -> Audience {
        Audience::Everyone
    }

    /// How many of each kind of thing `seat` cannot see, in a fixed order: the cards of each
    /// face-down pile, the others' sealed choices, face-down tokens. An action that lowers one of
    /// them turned something up for its player (a card drawn, ballots revealed); so does one that
    /// draws from its generator. Such an action ends a list of actions: were the list to go on,
    /// its acceptance or refusal, or a check of it, would tell the player what is hidden before
    /// they commit (`services::games`). Only counts the player could know go in, so that where a
    /// list ends tells nothing either.
    fn unseen(_state: &Self::State, _seat: Seat) -> Vec<usize> {
        Vec::new()
    }

    /// Applies one action. A refused action leaves `state` exactly as it was and pushes no event.
    fn apply(
        state: &mut Self::State,
        seat: Seat,
        action: &Self::Action,
        rng: &mut GameRng,
        events: &mut Vec<Logged<Self::Event>>,
    ) -> Result<(), Illegal>;

    /// What `viewer` may see, built field by field.
    fn view(state: &Self::State, viewer: Viewer) -> Self::View;

    fn outcome(state: &Self::State) -> Option<Self::Outcome>;

    /// Every seat's place, score and tie-breaks once the game is over (empty before). By
    /// default winners share first place and the others share the next.
    fn standings(state: &Self::State, seats: u8) -> Vec<Standing> {
        let Some(outcome) = Self::outcome(state) else {
            return Vec::new();
        };
        places(seats, outcome.winners(), |_| 0)
            .into_iter()
            .map(|(seat, place)| Standing {
                seat,
                place,
                score: None,
                tiebreaks: Vec::new(),
            })
            .collect()
    }

    /// Ends the game with `seat` resigning (server policy, outside the rules): the other seats win.
    fn resign(state: &mut Self::State, seat: Seat) -> Result<(), Illegal>;

    /// What the platform does when pending `seat` lets its deadline pass. By default the seat
    /// loses on time; a game with a harmless default decision returns it instead, and must
    /// then return one for every decision it can wait for.
    fn timeout(_state: &Self::State, _seat: Seat) -> Timeout<Self::Action> {
        Timeout::Loses
    }

    /// Ends the game with `seat` losing on time: like [`Game::resign`], but the outcome says
    /// `"reason": "timeout"`.
    fn lose_on_time(state: &mut Self::State, seat: Seat) -> Result<(), Illegal>;
}
