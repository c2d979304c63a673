//! The referee (`herald referee`, magnate-position.md): reads a position and actions, answers
//! with the result or the first refusal (index, rule, detail), the provisional score and the
//! outcome. It is how a player settles a rules dispute, so dice and the reshuffle can be given.

use super::action::Action;
use super::cards::Card;
use super::position::Position;
use super::score::{outcome, score};
use super::state::State;
use super::turn::{Chance, Dice, act};
use crate::engine::{GameRng, Seat};
use serde::Deserialize;
use serde_json::{Map, Value, json};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    position: Value,
    #[serde(default)]
    actions: Vec<Value>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    reshuffle: Option<Vec<Card>>,
}

/// Dice from a seeded generator; the reshuffle from the request when it gives one.
struct RefereeChance {
    rng: GameRng,
    reshuffle: Option<Vec<Card>>,
    problem: Option<String>,
}

impl Chance for RefereeChance {
    fn die(&mut self, sides: u8) -> u8 {
        self.rng.die(sides)
    }

    fn reshuffle(&mut self, cards: &mut [Card]) {
        let Some(order) = self.reshuffle.take() else {
            self.rng.shuffle(cards);
            return;
        };
        let mut want: Vec<Card> = cards.to_vec();
        let mut got = order.clone();
        want.sort_unstable();
        got.sort_unstable();
        if want != got {
            let discard: Vec<&str> = cards.iter().map(|c| c.code()).collect();
            self.problem = Some(format!(
                "\"reshuffle\" must be a reordering of the discard pile at the reshuffle, which is [{}]",
                discard.join(", ")
            ));
            return;
        }
        // The request lists the new pile top first; the state keeps the top card last.
        for (slot, card) in cards.iter_mut().zip(order.iter().rev()) {
            *slot = *card;
        }
    }
}

/// One action of the request: its seat and the action itself (typed fields or `notation`).
fn read_action(i: usize, value: &Value) -> Result<(Seat, Action), String> {
    let Value::Object(map) = value else {
        return Err(format!("actions[{i}]: an action is a JSON object"));
    };
    let seat = match map.get("seat").and_then(Value::as_u64) {
        Some(s @ 0..=1) => Seat(s as u8),
        _ => return Err(format!("actions[{i}]: \"seat\" must be 0 or 1")),
    };
    let mut fields: Map<String, Value> = map.clone();
    fields.remove("seat");
    let action = if fields.contains_key("type") {
        fields.remove("notation");
        serde_json::from_value::<Action>(Value::Object(fields))
            .map_err(|e| format!("actions[{i}]: {e}"))?
    } else {
        match fields.get("notation").and_then(Value::as_str) {
            Some(text) => text
                .parse::<Action>()
                .map_err(|e| format!("actions[{i}]: {e}"))?,
            None => {
                return Err(format!(
                    "actions[{i}]: an action needs a \"type\" or a \"notation\""
                ));
            }
        }
    };
    Ok((seat, action))
}

/// The position as the format writes it (without the server's extra fields).
fn position_json(state: &State) -> Value {
    let mut p = Position::from(state);
    p.last_roll = None;
    p.resigned = None;
    serde_json::to_value(p).unwrap_or(Value::Null)
}

/// Answers one referee request (the JSON text of standard input).
///
/// # Errors
/// A one-line message when the input cannot be read: not JSON, a position that breaks an
/// invariant, an unreadable action, or a `reshuffle` that does not fit.
pub fn referee(input: &str) -> Result<Value, String> {
    let request: Request =
        serde_json::from_str(input).map_err(|e| format!("cannot read the request: {e}"))?;
    let mut state: State =
        serde_json::from_value(request.position).map_err(|e| format!("position: {e}"))?;
    let actions = request
        .actions
        .iter()
        .enumerate()
        .map(|(i, v)| read_action(i, v))
        .collect::<Result<Vec<_>, _>>()?;
    let mut chance = RefereeChance {
        rng: GameRng::from_u64(request.seed.unwrap_or(0)),
        reshuffle: request.reshuffle,
        problem: None,
    };
    let mut events = Vec::new();
    for (i, (seat, action)) in actions.iter().enumerate() {
        let before = state.clone();
        let result = act(
            &mut state,
            *seat,
            action,
            &mut chance,
            &mut events,
            Dice::Manual,
        );
        if let Some(problem) = chance.problem.take() {
            return Err(problem);
        }
        if let Err(illegal) = result {
            return Ok(
                json!({"ok": false, "index": i, "rule": illegal.rule, "detail": illegal.detail, "position": position_json(&before)}),
            );
        }
    }
    let events: Vec<Value> = events
        .iter()
        .map(|l| serde_json::to_value(&l.event).unwrap_or(Value::Null))
        .collect();
    Ok(json!({
        "ok": true,
        "position": position_json(&state),
        "events": events,
        "score": score(&state),
        "outcome": outcome(&state),
    }))
}
