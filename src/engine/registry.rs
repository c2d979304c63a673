//! The closed set of games herald hosts, and the one place that matches on the kind.
//!
//! The service stores options, states and actions as JSON; this module turns them into each
//! game's typed values at the edge (parse, don't validate) and back. Adding a game means one new
//! arm per `match` below.

use super::driver::{self, Refusal};
use super::{
    Audience, Game, GameRng, Illegal, Logged, OptionsError, Outcome, Seat, SeatSet, Seed, Viewer,
};
use crate::games::lancaster::{self, Lancaster};
use crate::games::magnate::{self, Magnate};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// The kinds of game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    Magnate,
    Lancaster,
}

/// What a client needs to offer a game: its seats, presets and switches.
#[derive(Debug, Clone, Serialize)]
pub struct KindInfo {
    pub kind: GameKind,
    pub name: &'static str,
    pub min_seats: u8,
    pub max_seats: u8,
    /// Preset names, the default first.
    pub presets: Vec<&'static str>,
    /// Each switch: its allowed values (default first) and the rules it governs.
    pub options: Value,
    /// The rules version a new game starts with (a game keeps its own).
    pub rules_version: u32,
}

/// An event as stored and shown: the audience and the game's event as JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoggedJson {
    #[serde(flatten)]
    pub audience: Audience,
    pub event: Value,
}

/// A game's state, typed.
#[derive(Debug, Clone, PartialEq)]
pub enum AnyState {
    Magnate(Box<magnate::State>),
    Lancaster(Box<lancaster::State>),
}

/// An action, typed for its game.
#[derive(Debug, Clone, PartialEq)]
pub enum AnyAction {
    Magnate(magnate::Action),
    Lancaster(lancaster::Action),
}

fn to_json<T: Serialize>(value: &T) -> Value {
    // Our types serialise to JSON without failing (no maps with non-string keys, no floats).
    serde_json::to_value(value).unwrap_or(Value::Null)
}

fn logged_json<G: Game>(events: Vec<Logged<G::Event>>) -> Vec<LoggedJson> {
    events
        .into_iter()
        .map(|l| LoggedJson {
            audience: l.audience,
            event: to_json(&l.event),
        })
        .collect()
}

/// An action with its notation, as listed in `legal_actions` and history.
pub fn action_json<G: Game>(action: &G::Action) -> Value {
    let mut v = to_json(action);
    if let Value::Object(map) = &mut v {
        map.insert("notation".into(), Value::String(action.to_string()));
    }
    v
}

/// Reads an action: the typed object (with or without its `notation`) or `{"notation": "..."}`.
fn parse_action<G: Game>(value: &Value) -> Result<G::Action, String>
where
    <G::Action as std::str::FromStr>::Err: std::fmt::Display,
{
    let Value::Object(map) = value else {
        return Err("an action is a JSON object with a \"type\" (or a \"notation\")".into());
    };
    let notation = match map.get("notation") {
        None => None,
        Some(Value::String(s)) => Some(s.parse::<G::Action>().map_err(|e| e.to_string())?),
        Some(_) => return Err("\"notation\" must be a string".into()),
    };
    if !map.contains_key("type") {
        return match (notation, map.len()) {
            (Some(a), 1) => Ok(a),
            (Some(_), _) => Err(
                "an action given by \"notation\" has no other fields unless it also has a \"type\""
                    .into(),
            ),
            (None, _) => Err("an action needs a \"type\" (or a \"notation\")".into()),
        };
    }
    let mut fields: Map<String, Value> = map.clone();
    fields.remove("notation");
    let typed: G::Action =
        serde_json::from_value(Value::Object(fields)).map_err(|e| e.to_string())?;
    match notation {
        Some(n) if n != typed => Err(format!(
            "the \"notation\" {:?} does not describe the same action as the fields ({typed})",
            n.to_string()
        )),
        _ => Ok(typed),
    }
}

fn resolve<G: Game>(options: &Value) -> Result<Value, OptionsError> {
    let options = if options.is_null() {
        Value::Object(Map::new())
    } else {
        options.clone()
    };
    let parsed: G::Options =
        serde_json::from_value(options).map_err(|e| OptionsError(e.to_string()))?;
    Ok(to_json(&G::resolve(&parsed)?))
}

fn rules<G: Game>(rules: &Value) -> Result<G::Rules, OptionsError> {
    serde_json::from_value(rules.clone()).map_err(|e| OptionsError(format!("stored rules: {e}")))
}

impl GameKind {
    pub const ALL: &'static [GameKind] = &[GameKind::Magnate, GameKind::Lancaster];

    pub fn as_str(self) -> &'static str {
        match self {
            GameKind::Magnate => Magnate::KIND,
            GameKind::Lancaster => Lancaster::KIND,
        }
    }

    pub fn parse(s: &str) -> Option<GameKind> {
        GameKind::ALL.iter().copied().find(|k| k.as_str() == s)
    }

    pub fn info(self) -> KindInfo {
        match self {
            GameKind::Magnate => KindInfo {
                kind: self,
                name: "Magnate",
                min_seats: Magnate::MIN_SEATS,
                max_seats: Magnate::MAX_SEATS,
                presets: magnate::options::PRESETS.to_vec(),
                options: json!({
                    "courts": {"values": [false, true], "rules": "MAG-COURT"},
                    "ace_build_cost": {"values": [3, 1], "rules": "MAG-BUILD-1, MAG-DEV-3"},
                    "ace_deed": {"values": ["one", "two_same", "forbidden"], "rules": "MAG-DEED-2"},
                    "deed_on_two": {"values": ["forbid", "allow"], "rules": "MAG-DEED-3"},
                    "deed_dev_each_suit": {"values": [false, true], "rules": "MAG-DEV-7"},
                    "ace_scoring": {"values": ["suit_count", "flat", "deucey"], "rules": "MAG-SCORE-2"},
                    "trade": {"values": ["three_same", "any_three"], "rules": "MAG-TRADE-2"},
                    "trade_same_suit": {"values": ["forbid", "allow"], "rules": "MAG-TRADE-3"},
                    "tiebreak_total": {"values": ["scored", "raw"], "rules": "MAG-TIE-1"},
                    "tax_dice": {"values": [1, 2], "rules": "MAG-TAX-5"},
                    "district_cards": {"values": ["pawns", "courts"], "rules": "MAG-COURT-8"},
                    "auto_pick": {"values": ["fewer", "ap"], "rules": "MAG-INC-6"},
                    "start_player": {"values": ["random", "host_chooses", "first_seat"], "rules": "MAG-SETUP-5"},
                    "start_seat": {"values": [0, 1], "rules": "MAG-SETUP-5 (with start_player = host_chooses)"},
                }),
                rules_version: 1,
            },
            GameKind::Lancaster => KindInfo {
                kind: self,
                name: "Lancaster",
                min_seats: Lancaster::MIN_SEATS,
                max_seats: Lancaster::MAX_SEATS,
                presets: lancaster::options::PRESETS.to_vec(),
                options: json!({
                    "start_voting_markers": {"values": [1, 2], "rules": "LAN-SET-6"},
                    "extension_draw": {"values": ["choice"], "rules": "LAN-SET-7"},
                    "sim_law_choices": {"values": [false, true], "rules": "LAN-LAW-3"},
                    "law_set": {"values": ["base"], "rules": "DAT-RULESET"},
                }),
                rules_version: 1,
            },
        }
    }

    /// Resolves a client's options (`null` for none) into the complete rules a game stores.
    ///
    /// # Errors
    /// An [`OptionsError`] naming the option.
    pub fn resolve_options(self, options: &Value) -> Result<Value, OptionsError> {
        match self {
            GameKind::Magnate => resolve::<Magnate>(options),
            GameKind::Lancaster => resolve::<Lancaster>(options),
        }
    }

    /// Sets up a game from stored rules; the setup draws from stream 0 of `seed`.
    ///
    /// # Errors
    /// An [`OptionsError`] when the rules or the number of seats do not fit the game.
    pub fn setup(
        self,
        rules_json: &Value,
        seats: u8,
        seed: &Seed,
    ) -> Result<(AnyState, Vec<LoggedJson>), OptionsError> {
        let mut rng = GameRng::for_setup(seed);
        match self {
            GameKind::Magnate => {
                let mut events = Vec::new();
                let state =
                    Magnate::setup(&rules::<Magnate>(rules_json)?, seats, &mut rng, &mut events)?;
                Ok((
                    AnyState::Magnate(Box::new(state)),
                    logged_json::<Magnate>(events),
                ))
            }
            GameKind::Lancaster => {
                let mut events = Vec::new();
                let state = Lancaster::setup(
                    &rules::<Lancaster>(rules_json)?,
                    seats,
                    &mut rng,
                    &mut events,
                )?;
                Ok((
                    AnyState::Lancaster(Box::new(state)),
                    logged_json::<Lancaster>(events),
                ))
            }
        }
    }

    /// Reads a stored state.
    ///
    /// # Errors
    /// What is wrong with it.
    pub fn load(self, state: &Value) -> Result<AnyState, String> {
        match self {
            GameKind::Magnate => serde_json::from_value(state.clone())
                .map(|s| AnyState::Magnate(Box::new(s)))
                .map_err(|e| e.to_string()),
            GameKind::Lancaster => serde_json::from_value(state.clone())
                .map(|s| AnyState::Lancaster(Box::new(s)))
                .map_err(|e| e.to_string()),
        }
    }

    /// Who may see a stored action (sent by `seat`) before the game ends. An action that no
    /// longer reads is treated as its sender's alone.
    pub fn action_audience(self, action: &Value, seat: Seat) -> Audience {
        if action.get("type").and_then(Value::as_str) == Some("resign") {
            return Audience::Everyone;
        }
        match self.parse_action(action) {
            Ok(AnyAction::Magnate(a)) => Magnate::action_audience(&a, seat),
            Ok(AnyAction::Lancaster(a)) => Lancaster::action_audience(&a, seat),
            Err(_) => Audience::Only(SeatSet::only(seat)),
        }
    }

    /// Reads a client's action for this kind of game.
    ///
    /// # Errors
    /// A sentence saying what is wrong with it.
    pub fn parse_action(self, action: &Value) -> Result<AnyAction, String> {
        match self {
            GameKind::Magnate => parse_action::<Magnate>(action).map(AnyAction::Magnate),
            GameKind::Lancaster => parse_action::<Lancaster>(action).map(AnyAction::Lancaster),
        }
    }
}

impl AnyAction {
    /// The action with its `notation`.
    pub fn to_json(&self) -> Value {
        match self {
            AnyAction::Magnate(a) => action_json::<Magnate>(a),
            AnyAction::Lancaster(a) => action_json::<Lancaster>(a),
        }
    }

    pub fn notation(&self) -> String {
        match self {
            AnyAction::Magnate(a) => a.to_string(),
            AnyAction::Lancaster(a) => a.to_string(),
        }
    }
}

impl AnyState {
    pub fn kind(&self) -> GameKind {
        match self {
            AnyState::Magnate(_) => GameKind::Magnate,
            AnyState::Lancaster(_) => GameKind::Lancaster,
        }
    }

    /// The stored form.
    pub fn to_json(&self) -> Value {
        match self {
            AnyState::Magnate(s) => to_json(s),
            AnyState::Lancaster(s) => to_json(s),
        }
    }

    pub fn pending(&self) -> SeatSet {
        match self {
            AnyState::Magnate(s) => Magnate::pending(s),
            AnyState::Lancaster(s) => Lancaster::pending(s),
        }
    }

    /// The legal actions of `seat`, each with its `notation`.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Value> {
        match self {
            AnyState::Magnate(s) => Magnate::legal_actions(s, seat)
                .iter()
                .map(action_json::<Magnate>)
                .collect(),
            AnyState::Lancaster(s) => Lancaster::legal_actions(s, seat)
                .iter()
                .map(action_json::<Lancaster>)
                .collect(),
        }
    }

    /// Submits action number `number` (the first action of a game is 1) through the driver.
    ///
    /// # Errors
    /// The driver's [`Refusal`]; the state is then unchanged.
    pub fn submit(
        &mut self,
        seat: Seat,
        action: &AnyAction,
        seed: &Seed,
        number: u64,
    ) -> Result<Vec<LoggedJson>, Refusal> {
        let mut rng = GameRng::for_action(seed, number);
        match (self, action) {
            (AnyState::Magnate(s), AnyAction::Magnate(a)) => {
                let mut events = Vec::new();
                driver::submit::<Magnate>(s, seat, a, &mut rng, &mut events)?;
                Ok(logged_json::<Magnate>(events))
            }
            (AnyState::Lancaster(s), AnyAction::Lancaster(a)) => {
                let mut events = Vec::new();
                driver::submit::<Lancaster>(s, seat, a, &mut rng, &mut events)?;
                Ok(logged_json::<Lancaster>(events))
            }
            _ => Err(Refusal::Illegal(Illegal::new(
                "GAME-KIND",
                "The action is for another kind of game.",
            ))),
        }
    }

    pub fn view(&self, viewer: Viewer) -> Value {
        match self {
            AnyState::Magnate(s) => to_json(&Magnate::view(s, viewer)),
            AnyState::Lancaster(s) => to_json(&Lancaster::view(s, viewer)),
        }
    }

    pub fn outcome(&self) -> Option<Value> {
        match self {
            AnyState::Magnate(s) => Magnate::outcome(s).map(|o| to_json(&o)),
            AnyState::Lancaster(s) => Lancaster::outcome(s).map(|o| to_json(&o)),
        }
    }

    pub fn winners(&self) -> SeatSet {
        match self {
            AnyState::Magnate(s) => Magnate::outcome(s).map(|o| o.winners()).unwrap_or_default(),
            AnyState::Lancaster(s) => Lancaster::outcome(s)
                .map(|o| o.winners())
                .unwrap_or_default(),
        }
    }

    /// `seat` resigns: the game ends and the others win.
    ///
    /// # Errors
    /// When the game is already over.
    pub fn resign(&mut self, seat: Seat) -> Result<(), Illegal> {
        match self {
            AnyState::Magnate(s) => Magnate::resign(s, seat),
            AnyState::Lancaster(s) => Lancaster::resign(s, seat),
        }
    }
}

/// Replays a game from its seed and its stored actions (seat and action JSON, in order); the
/// fairness check compares the result with the stored state. A stored `{"type": "resign"}`
/// (server policy, not a game action) replays as that seat resigning.
///
/// # Errors
/// Which action could not be replayed, and why.
pub fn replay(
    kind: GameKind,
    rules: &Value,
    seats: u8,
    seed: &Seed,
    actions: &[(Seat, Value)],
) -> Result<AnyState, String> {
    let (mut state, _) = kind.setup(rules, seats, seed).map_err(|e| e.to_string())?;
    for (i, (seat, action)) in actions.iter().enumerate() {
        if action.get("type").and_then(Value::as_str) == Some("resign") {
            state
                .resign(*seat)
                .map_err(|e| format!("action {}: {e}", i + 1))?;
            continue;
        }
        let parsed = kind
            .parse_action(action)
            .map_err(|e| format!("action {}: {e}", i + 1))?;
        state
            .submit(*seat, &parsed, seed, i as u64 + 1)
            .map_err(|e| format!("action {}: {e}", i + 1))?;
    }
    Ok(state)
}
