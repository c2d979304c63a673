//! The games herald hosts: one list, [`GameKind::ALL`], and the plumbing that turns the stored
//! JSON (options, states, actions) into each game's typed values at the edge (parse, don't
//! validate) and back.
//!
//! Everything here is written once, generically over [`Game`]: a [`GameKind`] is a reference to
//! the game's [`Host`], an [`AnyState`] or [`AnyAction`] a boxed typed value behind a small trait
//! object. Hosting a new game is one line in `ALL`; nothing in this module or outside it matches
//! on a kind.

use super::driver::{self, Refusal};
use super::{
    Audience, Game, GameRng, Illegal, Logged, OptionsError, Outcome, Seat, SeatSet, Seed, Standing,
    Timeout, Viewer,
};
use crate::domain::Locale;
use crate::games::lancaster::Lancaster;
use crate::games::magnate::Magnate;
use crate::games::merchants::Merchants;
use crate::present::{self, Present, RulesPage, Sentence};
use crate::selfplay::{self, Plan, Run, SelfPlay, Summary, Violation};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::any::Any;
use std::fmt;
use std::marker::PhantomData;

/// A kind of game: its wire name on the outside, its [`Host`] inside.
#[derive(Clone, Copy)]
pub struct GameKind(&'static dyn Host);

impl GameKind {
    /// Every game herald hosts. A new game is one line here.
    pub const ALL: &'static [GameKind] = &[
        GameKind::of::<Magnate>(),
        GameKind::of::<Lancaster>(),
        GameKind::of::<Merchants>(),
        #[cfg(test)]
        GameKind::of::<crate::games::nim::Nim>(),
    ];

    /// The first game in [`GameKind::ALL`] that two players can play: the one `herald demo`
    /// starts between its two accounts.
    pub fn first_for_two() -> Option<GameKind> {
        GameKind::ALL.iter().copied().find(|k| {
            let info = k.info();
            (info.min_seats..=info.max_seats).contains(&2)
        })
    }

    /// The kind of `G`.
    pub const fn of<G: SelfPlay + Present>() -> GameKind
    where
        G::Rules: Sync,
    {
        GameKind(Hosting::<G>::HOST)
    }

    pub fn as_str(self) -> &'static str {
        self.0.kind()
    }

    pub fn parse(s: &str) -> Option<GameKind> {
        GameKind::ALL.iter().copied().find(|k| k.as_str() == s)
    }

    /// The wire names, for messages: `magnate, lancaster`.
    pub fn names() -> String {
        let names: Vec<&str> = GameKind::ALL.iter().map(|k| k.as_str()).collect();
        names.join(", ")
    }

    pub fn info(self) -> KindInfo {
        self.0.info(self)
    }

    /// Resolves a client's options (`null` for none) into the complete rules a game stores.
    ///
    /// # Errors
    /// An [`OptionsError`] naming the option.
    pub fn resolve_options(self, options: &Value) -> Result<Value, OptionsError> {
        self.0.resolve_options(options)
    }

    /// Whether a client's options (already resolved without error) suit a game of `seats`.
    ///
    /// # Errors
    /// An [`OptionsError`] naming the option given that the seats leave without effect.
    pub fn options_fit_seats(self, options: &Value, seats: u8) -> Result<(), OptionsError> {
        self.0.options_fit_seats(options, seats)
    }

    /// Sets up a game from stored rules; the setup draws from stream 0 of `seed`.
    ///
    /// # Errors
    /// An [`OptionsError`] when the rules or the number of seats do not fit the game.
    pub fn setup(
        self,
        rules: &Value,
        seats: u8,
        seed: &Seed,
    ) -> Result<(AnyState, Vec<LoggedJson>), OptionsError> {
        self.0.setup(rules, seats, seed)
    }

    /// Reads a stored state from its JSON text.
    ///
    /// # Errors
    /// What is wrong with it.
    pub fn load(self, state: &[u8]) -> Result<AnyState, String> {
        self.0.load(state)
    }

    /// Reads a client's action for this kind of game.
    ///
    /// # Errors
    /// A sentence saying what is wrong with it.
    pub fn parse_action(self, action: &Value) -> Result<AnyAction, String> {
        self.0.parse_action(action)
    }

    /// Who may see a stored action (sent by `seat`) before the game ends. An action that no
    /// longer reads is treated as its sender's alone.
    pub fn action_audience(self, action: &Value, seat: Seat) -> Audience {
        if matches!(
            action.get("type").and_then(Value::as_str),
            Some("resign" | "timeout")
        ) {
            return Audience::Everyone;
        }
        match self.parse_action(action) {
            Ok(a) => a.0.audience(seat),
            Err(_) => Audience::Only(SeatSet::only(seat)),
        }
    }

    /// Plays `plan` with random legal actions (design.md section 12); `options` as a client
    /// gives them, `seats` defaulting to the game's smallest count.
    ///
    /// # Errors
    /// A bad option or seat count, or the first violated invariant.
    pub fn selfplay(self, options: &Value, plan: &Plan) -> Result<Summary, SelfplayError> {
        self.0.selfplay(options, plan)
    }
}

/// The words of each game (the presentation seam, [`Present`]).
impl GameKind {
    /// The line for one stored event; `None` for events not worth a line.
    pub fn event_line(self, locale: Locale, event: &Value) -> Option<Sentence> {
        self.0.event_line(locale, event)
    }

    /// The game's rules page, if it has one.
    pub fn rules(self) -> Option<&'static RulesPage> {
        self.0.rules()
    }

    /// A `{{key}}` of the rules page's text in `locale`.
    pub fn rules_name(self, locale: Locale, key: &str) -> Option<String> {
        self.0.rules_name(locale, key)
    }

    /// The lines of a finished game's result, from its public view and outcome.
    pub fn result(self, locale: Locale, view: &Value, outcome: &Value) -> Vec<Sentence> {
        self.0.result(locale, view, outcome)
    }

    /// What a turn mail reminds `seat` of, from `seat`'s own view.
    pub fn reminder(self, locale: Locale, view: &Value, seat: usize) -> Vec<Sentence> {
        self.0.reminder(locale, view, seat)
    }

    /// Whether `seat` decides outside a turn of its own (a vote, a defence).
    pub fn deciding(self, view: &Value, seat: usize, pending: usize) -> bool {
        self.0.deciding(view, seat, pending)
    }
}

impl PartialEq for GameKind {
    fn eq(&self, other: &GameKind) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for GameKind {}

impl std::hash::Hash for GameKind {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl fmt::Debug for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for GameKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for GameKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<GameKind, D::Error> {
        let name = String::deserialize(d)?;
        GameKind::parse(&name).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown game kind {name:?}; the kinds are {}",
                GameKind::names()
            ))
        })
    }
}

/// Why a self-play run stopped.
#[derive(Debug)]
pub enum SelfplayError {
    /// The options or the seat count do not fit the game.
    Setup(String),
    Violation(Violation),
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

/// A game's state, typed behind the kind-free surface the service uses.
#[derive(Debug)]
pub struct AnyState(Box<dyn PlayState>);

/// An action, typed for its game.
#[derive(Debug)]
pub struct AnyAction(Box<dyn PlayAction>);

impl Clone for AnyState {
    fn clone(&self) -> AnyState {
        AnyState(self.0.clone_box())
    }
}

impl PartialEq for AnyState {
    fn eq(&self, other: &AnyState) -> bool {
        self.0.same(other.0.as_any())
    }
}

impl AnyState {
    pub fn kind(&self) -> GameKind {
        self.0.kind()
    }

    /// The stored form, as JSON text.
    pub fn to_json_text(&self) -> Vec<u8> {
        self.0.to_json_text()
    }

    pub fn pending(&self) -> SeatSet {
        self.0.pending()
    }

    /// The legal actions of `seat`, each with its `notation`.
    pub fn legal_actions(&self, seat: Seat) -> Vec<Value> {
        self.0.legal_actions(seat)
    }

    /// [`AnyState::legal_actions`] as JSON text, for an answer that only passes them on.
    pub fn legal_actions_text(&self, seat: Seat) -> Vec<Box<RawValue>> {
        self.0.legal_actions_text(seat)
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
        self.0.submit(seat, action.0.as_any(), &mut rng)
    }

    /// [`AnyState::submit`], also telling whether the action turned up something its player
    /// could not see before it ([`crate::engine::Game::unseen`]): it drew from its generator,
    /// or lowered a count of what the seat cannot see.
    ///
    /// # Errors
    /// The driver's [`Refusal`]; the state is then unchanged.
    pub fn submit_telling(
        &mut self,
        seat: Seat,
        action: &AnyAction,
        seed: &Seed,
        number: u64,
    ) -> Result<(Vec<LoggedJson>, bool), Refusal> {
        let before = self.0.unseen(seat);
        let mut rng = GameRng::for_action(seed, number);
        let events = self.0.submit(seat, action.0.as_any(), &mut rng)?;
        let after = self.0.unseen(seat);
        let turned_up = rng.drew()
            || before.len() != after.len()
            || before.iter().zip(&after).any(|(b, a)| a < b);
        Ok((events, turned_up))
    }

    pub fn view(&self, viewer: Viewer) -> Value {
        self.0.view(viewer)
    }

    /// [`AnyState::view`] as JSON text, for an answer that only passes it on.
    pub fn view_text(&self, viewer: Viewer) -> Box<RawValue> {
        self.0.view_text(viewer)
    }

    pub fn outcome(&self) -> Option<Value> {
        self.0.outcome()
    }

    pub fn winners(&self) -> SeatSet {
        self.0.winners()
    }

    /// Every seat's place, score and tie-breaks once the game is over.
    pub fn standings(&self, seats: u8) -> Vec<Standing> {
        self.0.standings(seats)
    }

    /// `seat` resigns: the game ends and the others win.
    ///
    /// # Errors
    /// When the game is already over.
    pub fn resign(&mut self, seat: Seat) -> Result<(), Illegal> {
        self.0.resign(seat)
    }

    /// What the game does when pending `seat` lets its deadline pass.
    pub fn timeout(&self, seat: Seat) -> Timeout<AnyAction> {
        self.0.timeout(seat)
    }

    /// `seat` loses on time: the game ends, the others win, the outcome says why.
    ///
    /// # Errors
    /// When the game is already over.
    pub fn lose_on_time(&mut self, seat: Seat) -> Result<(), Illegal> {
        self.0.lose_on_time(seat)
    }
}

impl AnyAction {
    /// The action with its `notation`.
    pub fn to_json(&self) -> Value {
        self.0.to_json()
    }

    pub fn notation(&self) -> String {
        self.0.notation()
    }

    /// Refuses an action only a late seat's default plays ([`Game::chosen_by_player`]).
    ///
    /// # Errors
    /// The rule that gives the player's choices.
    pub fn chosen_by_player(&self) -> Result<(), Illegal> {
        self.0.chosen_by_player()
    }
}

/// Replays a game from its seed and its stored actions (seat and action JSON, in order); the
/// fairness check compares the result with the stored state. A stored `{"type": "resign"}` or
/// `{"type": "timeout"}` (server policy, not game actions) replays as that seat resigning or
/// losing on time.
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
        let policy = match action.get("type").and_then(Value::as_str) {
            Some("resign") => Some(state.resign(*seat)),
            Some("timeout") => Some(state.lose_on_time(*seat)),
            _ => None,
        };
        if let Some(done) = policy {
            done.map_err(|e| format!("action {}: {e}", i + 1))?;
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

/// What the platform does with a kind of game, without knowing its types.
trait Host: Sync {
    fn kind(&self) -> &'static str;
    fn info(&self, kind: GameKind) -> KindInfo;
    fn resolve_options(&self, options: &Value) -> Result<Value, OptionsError>;
    fn options_fit_seats(&self, options: &Value, seats: u8) -> Result<(), OptionsError>;
    fn setup(
        &self,
        rules: &Value,
        seats: u8,
        seed: &Seed,
    ) -> Result<(AnyState, Vec<LoggedJson>), OptionsError>;
    fn load(&self, state: &[u8]) -> Result<AnyState, String>;
    fn parse_action(&self, action: &Value) -> Result<AnyAction, String>;
    fn selfplay(&self, options: &Value, plan: &Plan) -> Result<Summary, SelfplayError>;
    fn event_line(&self, locale: Locale, event: &Value) -> Option<Sentence>;
    fn result(&self, locale: Locale, view: &Value, outcome: &Value) -> Vec<Sentence>;
    fn reminder(&self, locale: Locale, view: &Value, seat: usize) -> Vec<Sentence>;
    fn deciding(&self, view: &Value, seat: usize, pending: usize) -> bool;
    fn rules(&self) -> Option<&'static RulesPage>;
    fn rules_name(&self, locale: Locale, key: &str) -> Option<String>;
}

/// A typed state behind [`AnyState`].
trait PlayState: fmt::Debug + Send + Sync {
    fn kind(&self) -> GameKind;
    fn clone_box(&self) -> Box<dyn PlayState>;
    fn as_any(&self) -> &dyn Any;
    fn same(&self, other: &dyn Any) -> bool;
    fn to_json_text(&self) -> Vec<u8>;
    fn pending(&self) -> SeatSet;
    fn legal_actions(&self, seat: Seat) -> Vec<Value>;
    fn legal_actions_text(&self, seat: Seat) -> Vec<Box<RawValue>>;
    fn submit(
        &mut self,
        seat: Seat,
        action: &dyn Any,
        rng: &mut GameRng,
    ) -> Result<Vec<LoggedJson>, Refusal>;
    fn unseen(&self, seat: Seat) -> Vec<usize>;
    fn view(&self, viewer: Viewer) -> Value;
    fn view_text(&self, viewer: Viewer) -> Box<RawValue>;
    fn outcome(&self) -> Option<Value>;
    fn winners(&self) -> SeatSet;
    fn standings(&self, seats: u8) -> Vec<Standing>;
    fn resign(&mut self, seat: Seat) -> Result<(), Illegal>;
    fn timeout(&self, seat: Seat) -> Timeout<AnyAction>;
    fn lose_on_time(&mut self, seat: Seat) -> Result<(), Illegal>;
}

/// A typed action behind [`AnyAction`].
trait PlayAction: fmt::Debug + Send + Sync {
    fn as_any(&self) -> &dyn Any;
    fn to_json(&self) -> Value;
    fn notation(&self) -> String;
    fn audience(&self, seat: Seat) -> Audience;
    fn chosen_by_player(&self) -> Result<(), Illegal>;
}

/// The host of game `G`: a zero-sized value whose vtable is the game's entry in the registry.
struct Hosting<G>(PhantomData<fn() -> G>);

impl<G: SelfPlay + Present> Hosting<G>
where
    G::Rules: Sync,
{
    const HOST: &'static dyn Host = &Hosting::<G>(PhantomData);
}

/// `G`'s state behind [`PlayState`].
struct Playing<G: Game>(G::State);

impl<G: Game> fmt::Debug for Playing<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// `G`'s action behind [`PlayAction`].
struct Acting<G: Game>(G::Action);

impl<G: Game> fmt::Debug for Acting<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

fn to_json<T: Serialize>(value: &T) -> Value {
    // Our types serialise to JSON without failing (no maps with non-string keys, no floats).
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// `value` as JSON text, written straight from the typed value. An answer's view and legal
/// actions built as `Value` trees first, kept, copied and written out cost about 0.1 ms of CPU a
/// submission (`bench_submit`: 0.61–0.67 ms for the server and its clients, 0.52 without),
/// most of it allocating and freeing the trees' nodes.
fn to_raw_json<T: Serialize>(value: &T) -> Box<RawValue> {
    // As `to_json`: our types serialise to JSON without failing.
    serde_json::value::to_raw_value(value).unwrap_or_else(|_| RawValue::NULL.to_owned())
}

/// An action as listed: its own fields, then its `notation` (the same object as [`action_json`]).
#[derive(Serialize)]
struct Listed<'a, A> {
    #[serde(flatten)]
    action: &'a A,
    notation: String,
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
fn parse_action<G: Game>(value: &Value) -> Result<G::Action, String> {
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
    let fields = Value::Object(fields);
    let typed: G::Action = serde_json::from_value(fields.clone()).map_err(|e| e.to_string())?;
    // serde skips the other fields of an action (or a part) that has none of its own, whatever
    // `deny_unknown_fields` says: what the typed action does not write back was not read.
    if let Some(key) = serde_json::to_value(&typed)
        .ok()
        .and_then(|read| unread(&fields, &read))
    {
        return Err(format!("unknown field `{key}`"));
    }
    match notation {
        Some(n) if n != typed => Err(format!(
            "the \"notation\" {:?} does not describe the same action as the fields ({typed})",
            n.to_string()
        )),
        _ => Ok(typed),
    }
}

/// A key of `given` that `read` (the same value parsed and written back) does not have, at any
/// depth; a `null` or an empty list counts as absent (an optional part left out, which is not
/// written back), and so does a 0 inside a part (a count of tokens, written back without its
/// zeros: `"payment": {"M": 0}` is the schema's own), though not among the action's own fields.
fn unread(given: &Value, read: &Value) -> Option<String> {
    unread_at(given, read, 0)
}

fn unread_at(given: &Value, read: &Value, depth: usize) -> Option<String> {
    match (given, read) {
        (Value::Object(given), Value::Object(read)) => {
            given.iter().find_map(|(key, value)| match read.get(key) {
                Some(back) => unread_at(value, back, depth + 1),
                None if value.is_null() || value.as_array().is_some_and(Vec::is_empty) => None,
                None if depth > 0 && value.as_u64() == Some(0) => None,
                None => Some(key.clone()),
            })
        }
        (Value::Array(given), Value::Array(read)) if given.len() == read.len() => given
            .iter()
            .zip(read)
            .find_map(|(g, r)| unread_at(g, r, depth + 1)),
        // Written back in another shape (a part written as text): nothing to compare.
        _ => None,
    }
}

fn resolve<G: Game>(options: &Value) -> Result<G::Rules, OptionsError> {
    G::resolve(&parse_options::<G>(options)?)
}

/// A client's options (`null` for none) read into the game's options type.
fn parse_options<G: Game>(options: &Value) -> Result<G::Options, OptionsError> {
    let options = match options {
        Value::Null => Value::Object(Map::new()),
        Value::Object(_) => options.clone(),
        // serde would read the options struct from an array too (`[]` as all the defaults).
        _ => {
            return Err(OptionsError(
                "options must be a JSON object of named choices".to_owned(),
            ));
        }
    };
    serde_json::from_value(options).map_err(|e| OptionsError(e.to_string()))
}

impl<G: SelfPlay + Present> Host for Hosting<G>
where
    G::Rules: Sync,
{
    fn kind(&self) -> &'static str {
        G::KIND
    }

    fn info(&self, kind: GameKind) -> KindInfo {
        let options: Map<String, Value> = G::SWITCHES
            .iter()
            .map(|s| {
                let described = serde_json::json!({"values": s.values, "rules": s.rules});
                (s.name.to_owned(), described)
            })
            .collect();
        KindInfo {
            kind,
            name: G::NAME,
            min_seats: G::MIN_SEATS,
            max_seats: G::MAX_SEATS,
            presets: G::PRESETS.to_vec(),
            options: Value::Object(options),
            rules_version: G::RULES_VERSION,
        }
    }

    fn resolve_options(&self, options: &Value) -> Result<Value, OptionsError> {
        resolve::<G>(options).map(|r| to_json(&r))
    }

    fn options_fit_seats(&self, options: &Value, seats: u8) -> Result<(), OptionsError> {
        G::fits_seats(&parse_options::<G>(options)?, seats)
    }

    fn setup(
        &self,
        rules: &Value,
        seats: u8,
        seed: &Seed,
    ) -> Result<(AnyState, Vec<LoggedJson>), OptionsError> {
        let rules: G::Rules = serde_json::from_value(rules.clone())
            .map_err(|e| OptionsError(format!("stored rules: {e}")))?;
        let mut rng = GameRng::for_setup(seed);
        let mut events = Vec::new();
        let state = G::setup(&rules, seats, &mut rng, &mut events)?;
        Ok((
            AnyState(Box::new(Playing::<G>(state))),
            logged_json::<G>(events),
        ))
    }

    fn load(&self, state: &[u8]) -> Result<AnyState, String> {
        // Straight from the stored text: a `Value` tree first, then the state, showed in
        // `perf` of every game read and submission.
        serde_json::from_slice::<G::State>(state)
            .map(|s| AnyState(Box::new(Playing::<G>(s))))
            .map_err(|e| e.to_string())
    }

    fn parse_action(&self, action: &Value) -> Result<AnyAction, String> {
        parse_action::<G>(action).map(|a| AnyAction(Box::new(Acting::<G>(a))))
    }

    fn selfplay(&self, options: &Value, plan: &Plan) -> Result<Summary, SelfplayError> {
        let rules = resolve::<G>(options).map_err(|e| SelfplayError::Setup(e.to_string()))?;
        let seats = plan.players.unwrap_or(G::MIN_SEATS);
        if !(G::MIN_SEATS..=G::MAX_SEATS).contains(&seats) {
            return Err(SelfplayError::Setup(format!(
                "{} is for {} to {} players, not {seats}",
                G::NAME,
                G::MIN_SEATS,
                G::MAX_SEATS
            )));
        }
        let run = Run {
            rules,
            seats,
            games: plan.games,
            seed: plan.seed,
            threads: plan.threads,
            check: plan.check,
        };
        selfplay::play::<G>(&run).map_err(SelfplayError::Violation)
    }

    fn event_line(&self, locale: Locale, event: &Value) -> Option<Sentence> {
        present::event_line::<G>(locale, event)
    }

    fn rules(&self) -> Option<&'static RulesPage> {
        G::rules()
    }

    fn rules_name(&self, locale: Locale, key: &str) -> Option<String> {
        G::rules_name(locale, key)
    }

    fn result(&self, locale: Locale, view: &Value, outcome: &Value) -> Vec<Sentence> {
        G::result(locale, view, outcome)
    }

    fn reminder(&self, locale: Locale, view: &Value, seat: usize) -> Vec<Sentence> {
        G::reminder(locale, view, seat)
    }

    fn deciding(&self, view: &Value, seat: usize, pending: usize) -> bool {
        G::deciding(view, seat, pending)
    }
}

impl<G: SelfPlay + Present> PlayState for Playing<G>
where
    G::Rules: Sync,
{
    fn kind(&self) -> GameKind {
        GameKind::of::<G>()
    }

    fn clone_box(&self) -> Box<dyn PlayState> {
        Box::new(Playing::<G>(self.0.clone()))
    }

    fn as_any(&self) -> &dyn Any {
        &self.0
    }

    fn same(&self, other: &dyn Any) -> bool {
        other.downcast_ref::<G::State>() == Some(&self.0)
    }

    fn to_json_text(&self) -> Vec<u8> {
        // Our states serialise without failing (no maps with non-string keys, no floats).
        serde_json::to_vec(&self.0).unwrap_or_else(|_| b"null".to_vec())
    }

    fn pending(&self) -> SeatSet {
        G::pending(&self.0)
    }

    fn legal_actions(&self, seat: Seat) -> Vec<Value> {
        G::legal_actions(&self.0, seat)
            .iter()
            .map(action_json::<G>)
            .collect()
    }

    fn legal_actions_text(&self, seat: Seat) -> Vec<Box<RawValue>> {
        G::legal_actions(&self.0, seat)
            .iter()
            .map(|action| {
                let listed = Listed {
                    action,
                    notation: action.to_string(),
                };
                // Should an action ever be a shape `flatten` cannot write, the tree still can.
                serde_json::value::to_raw_value(&listed)
                    .unwrap_or_else(|_| to_raw_json(&action_json::<G>(action)))
            })
            .collect()
    }

    fn submit(
        &mut self,
        seat: Seat,
        action: &dyn Any,
        rng: &mut GameRng,
    ) -> Result<Vec<LoggedJson>, Refusal> {
        let Some(action) = action.downcast_ref::<G::Action>() else {
            return Err(Refusal::Illegal(Illegal::new(
                "GAME-KIND",
                "The action is for another kind of game.",
            )));
        };
        let mut events = Vec::new();
        driver::submit::<G>(&mut self.0, seat, action, rng, &mut events)?;
        Ok(logged_json::<G>(events))
    }

    fn unseen(&self, seat: Seat) -> Vec<usize> {
        G::unseen(&self.0, seat)
    }

    fn view(&self, viewer: Viewer) -> Value {
        to_json(&G::view(&self.0, viewer))
    }

    fn view_text(&self, viewer: Viewer) -> Box<RawValue> {
        to_raw_json(&G::view(&self.0, viewer))
    }

    fn outcome(&self) -> Option<Value> {
        G::outcome(&self.0).map(|o| to_json(&o))
    }

    fn winners(&self) -> SeatSet {
        G::outcome(&self.0).map(|o| o.winners()).unwrap_or_default()
    }

    fn standings(&self, seats: u8) -> Vec<Standing> {
        G::standings(&self.0, seats)
    }

    fn resign(&mut self, seat: Seat) -> Result<(), Illegal> {
        G::resign(&mut self.0, seat)
    }

    fn timeout(&self, seat: Seat) -> Timeout<AnyAction> {
        match G::timeout(&self.0, seat) {
            Timeout::Loses => Timeout::Loses,
            Timeout::Play(a) => Timeout::Play(AnyAction(Box::new(Acting::<G>(a)))),
        }
    }

    fn lose_on_time(&mut self, seat: Seat) -> Result<(), Illegal> {
        G::lose_on_time(&mut self.0, seat)
    }
}

impl<G: Game> PlayAction for Acting<G> {
    fn as_any(&self) -> &dyn Any {
        &self.0
    }

    fn to_json(&self) -> Value {
        action_json::<G>(&self.0)
    }

    fn notation(&self) -> String {
        self.0.to_string()
    }

    fn audience(&self, seat: Seat) -> Audience {
        G::action_audience(&self.0, seat)
    }

    fn chosen_by_player(&self) -> Result<(), Illegal> {
        G::chosen_by_player(&self.0)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::engine::SwitchValue;
    use serde_json::json;

    /// Games played with random legal actions from fixed seeds, and what they came to (actions
    /// played in all; outcomes), per kind, rules version and seat count.
    const RECORDED: &str = r#"magnate v1 2: 887 actions; {"seat 0 wins by DistrictPoints":2,"seat 0 wins by Totals":1,"seat 1 wins by DistrictPoints":3}
lancaster v1 2: 676 actions; {"seat 0 wins":5,"seat 1 wins":1}
lancaster v1 3: 798 actions; {"seat 0 wins":1,"seat 1 wins":2,"seat 2 wins":3}
lancaster v1 4: 1122 actions; {"seat 0 wins":2,"seat 1 wins":1,"seat 2 wins":1,"seat 3 wins":1,"shared win":1}
lancaster v1 5: 1385 actions; {"seat 0 wins":3,"seat 2 wins":1,"seat 3 wins":1,"seat 4 wins":1}
merchants_and_marauders v1 1: 632 actions; {"no winner (event deck exhausted (MM-END-3))":6}
merchants_and_marauders v1 2: 1504 actions; {"a single winner (event deck exhausted (MM-END-3))":3,"shared win (event deck exhausted (MM-END-3))":3}
merchants_and_marauders v1 3: 2034 actions; {"a single winner (event deck exhausted (MM-END-3))":3,"shared win (event deck exhausted (MM-END-3))":3}
merchants_and_marauders v1 4: 2919 actions; {"a single winner (event deck exhausted (MM-END-3))":3,"shared win (event deck exhausted (MM-END-3))":3}
nim v1 2: 32 actions; {"winner Some(0)":2,"winner Some(1)":4}
nim v1 3: 32 actions; {"winner Some(0)":1,"winner Some(1)":2,"winner Some(2)":3}
nim v1 4: 32 actions; {"winner Some(0)":2,"winner Some(1)":3,"winner Some(3)":1}
"#;

    /// The rules a stored game was played under must replay it as it was played (design.md
    /// section 3: a game keeps the `rules_version` it started with; its fairness check replays
    /// it). A rules change that plays a recorded game differently fails here. Before the first
    /// release, such a fix changes version 1 and updates this record, saying so in its commit;
    /// after it, the fix bumps the game's `RULES_VERSION` and keeps the old behaviour for games
    /// started under the old version. The actions are self-play's random policy's
    /// ([`crate::selfplay::Policy`]): a change to the policy, not the rules, also updates the
    /// record, and is checked first by playing with the old policy against the old record.
    #[test]
    fn recorded_games_play_as_they_were_played_under_their_rules_version() {
        let mut played = String::new();
        for kind in GameKind::ALL {
            let info = kind.info();
            for seats in info.min_seats..=info.max_seats {
                let plan = Plan {
                    players: Some(seats),
                    games: 6,
                    seed: 20_261_201,
                    threads: 1,
                    check: false,
                };
                let summary = kind
                    .selfplay(&json!({}), &plan)
                    .unwrap_or_else(|e| panic!("{} {seats}: {e:?}", kind.as_str()));
                played.push_str(&format!(
                    "{} v{} {seats}: {} actions; {}\n",
                    kind.as_str(),
                    info.rules_version,
                    summary.actions,
                    serde_json::to_string(&summary.labels).unwrap()
                ));
            }
        }
        assert_eq!(
            played, RECORDED,
            "recorded games play differently: see this test's comment"
        );
    }

    fn accepts(kind: GameKind, options: Value) -> Result<Value, OptionsError> {
        kind.resolve_options(&options)
    }

    /// A zero count in a part is the schema's own (`MagnateTokens` has minimum 0): read, not
    /// taken for an unknown field because the tokens are written back without their zeros; an
    /// unknown field among an action's own is refused, zero or not.
    #[test]
    fn a_zero_count_is_read_and_an_unknown_field_still_refused() {
        let with_zero = json!({"type": "trade", "give": {"M": 3, "L": 0}, "take": "S"});
        let without = json!({"type": "trade", "give": {"M": 3}, "take": "S"});
        assert_eq!(
            parse_action::<Magnate>(&with_zero).unwrap(),
            parse_action::<Magnate>(&without).unwrap()
        );
        let build = json!({"type": "build", "card": "1S", "district": "a", "payment": {"M": 0}});
        assert!(parse_action::<Magnate>(&build).is_ok());
        for padded in [
            json!({"type": "end", "extra": 0}),
            json!({"type": "end", "extra": 1}),
        ] {
            let err = parse_action::<Magnate>(&padded).unwrap_err();
            assert!(err.contains("unknown field `extra`"), "{err}");
        }
    }

    /// `/game-kinds` is the description `resolve` is held to: every listed value is accepted
    /// (alone, or beside another switch's value when it depends on one), and of the finite
    /// domains (numbers up to one past the largest, a made-up word) nothing unlisted is.
    #[test]
    fn every_listed_option_resolves_and_nothing_else_does() {
        for kind in GameKind::ALL {
            let info = kind.info();
            for preset in &info.presets {
                accepts(*kind, json!({ "preset": preset })).unwrap();
            }
            let switches = info.options.as_object().unwrap();
            for (name, described) in switches {
                let values = described["values"].as_array().unwrap();
                for value in values {
                    let alone = accepts(*kind, json!({ name: value }));
                    let beside_another =
                        switches.iter().any(|(other, d)| {
                            other != name
                                && d["values"].as_array().unwrap().iter().any(|v| {
                                    accepts(*kind, json!({ name: value, other: v })).is_ok()
                                })
                        });
                    assert!(
                        alone.is_ok() || beside_another,
                        "{kind} lists {name} = {value} but resolve refuses it: {alone:?}"
                    );
                }
                let unlisted: Vec<Value> = match values.first() {
                    Some(Value::Number(_)) => {
                        let top = values.iter().filter_map(Value::as_u64).max().unwrap();
                        (0..=top + 1)
                            .map(Value::from)
                            .filter(|v| !values.contains(v))
                            .collect()
                    }
                    Some(Value::String(_)) => vec![json!("no_such_value")],
                    _ => Vec::new(),
                };
                for value in unlisted {
                    assert!(
                        accepts(*kind, json!({ name: value })).is_err(),
                        "{kind} accepts {name} = {value}, which /game-kinds does not list"
                    );
                }
            }
            // Every resolved rule is a preset or a described switch: none is left undescribed.
            let rules = accepts(*kind, Value::Null).unwrap();
            for key in rules.as_object().unwrap().keys() {
                assert!(
                    key == "preset" || switches.contains_key(key),
                    "{kind}: the rule {key} is not described in /game-kinds"
                );
            }
        }
    }

    #[test]
    fn lancaster_lists_both_extension_draws() {
        let info = GameKind::parse("lancaster").unwrap().info();
        assert_eq!(
            info.options["extension_draw"]["values"],
            json!([SwitchValue::Text("choice"), SwitchValue::Text("random")])
        );
    }

    #[test]
    fn kinds_round_trip_through_their_wire_names() {
        for kind in GameKind::ALL {
            let wire = serde_json::to_value(kind).unwrap();
            assert_eq!(serde_json::from_value::<GameKind>(wire).unwrap(), *kind);
        }
        let refused = serde_json::from_value::<GameKind>(json!("chess")).unwrap_err();
        assert!(
            refused.to_string().contains("magnate, lancaster"),
            "{refused}"
        );
    }

    #[test]
    fn the_views_and_legal_actions_as_text_are_the_same_json_as_the_values() {
        let parsed = |t: &RawValue| serde_json::from_str::<Value>(t.get()).unwrap();
        for kind in GameKind::ALL {
            let rules = kind.resolve_options(&Value::Null).unwrap();
            let seats = kind.info().max_seats;
            let seed = Seed([3; 32]);
            let (mut state, _) = kind.setup(&rules, seats, &seed).unwrap();
            let mut listed = 0;
            for number in 1..=80u64 {
                for viewer in (0..seats).map(|s| Viewer::Seat(Seat(s))) {
                    assert_eq!(parsed(&state.view_text(viewer)), state.view(viewer));
                }
                let spectator = state.view_text(Viewer::Spectator);
                assert_eq!(parsed(&spectator), state.view(Viewer::Spectator));
                let Some(seat) = (0..seats).map(Seat).find(|s| state.pending().contains(*s)) else {
                    break;
                };
                let values = state.legal_actions(seat);
                let texts: Vec<Value> = state
                    .legal_actions_text(seat)
                    .iter()
                    .map(|t| parsed(t))
                    .collect();
                assert_eq!(texts, values, "{} action {number}", kind.as_str());
                listed += values.len();
                // Varied, so that many kinds of action are listed along the way.
                let pick = &values[number as usize * 7 % values.len()];
                let action = kind.parse_action(pick).unwrap();
                state.submit(seat, &action, &seed, number).unwrap();
            }
            assert!(listed >= 10, "{} listed only {listed}", kind.as_str());
        }
    }

    #[test]
    fn a_state_knows_its_kind_and_compares_by_value() {
        for kind in GameKind::ALL {
            let rules = kind.resolve_options(&Value::Null).unwrap();
            let (state, _) = kind
                .setup(&rules, kind.info().min_seats, &Seed([7; 32]))
                .unwrap();
            assert_eq!(state.kind(), *kind);
            assert_eq!(state.clone(), state);
            assert_eq!(kind.load(&state.to_json_text()).unwrap(), state);
        }
    }
}
