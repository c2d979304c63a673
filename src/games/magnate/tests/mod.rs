//! The rule-by-rule tests of the Magnate engine, against `shared/rules/magnate.md` (rule IDs) and
//! `shared/magnate-position.md` (the position format and the referee).
//!
//! Most tests state a position with [`Pos`] (only what matters: every card the test does not
//! place is put in the draw pile, the discard or a hand, so the position holds every card of the
//! game exactly once), send actions to the referee in the notation (`"B:4VL@b+V+L3"`, `"E"`,
//! `"R:1,7/4"`) and look at what a player would notice: the refusal's rule and sentence, the
//! supplies, the columns, the hands, the score.
//!
//! Default table of every position: districts `a` the Watchman (M Y K), `b` the Borderland
//! (V L Y), `c` the Excuse, `d` the Harvest (M S L), `e` the Light Keeper (S V K); seat 0 holds
//! the Crowns of Moons, Waves and Wyrms, seat 1 those of Suns, Leaves and Knots; seat 0 is active
//! and has rolled (phase `action`); supplies, hands and columns are empty.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use super::cards::Card;
use super::options::Options;
use super::referee::referee;
use super::setup::cards_in_game;
use super::state::State;
use serde_json::{Value, json};

mod card_plays;
mod develop_and_trade;
mod end_and_scoring;
mod information;
mod options;
mod properties;
mod random_games;
mod referee_contract;
mod turn_and_roll;

/// Where the cards a test does not place end up.
#[derive(Debug, Clone, Copy)]
pub enum Rest {
    /// Under the cards the test put in the draw pile.
    Draw,
    /// After the cards the test put in the discard pile.
    Discard,
    /// In this seat's hand.
    Hand(usize),
}

/// A position under construction (see the module documentation for its defaults).
#[derive(Debug, Clone)]
pub struct Pos {
    v: Value,
    rest: Rest,
}

impl Pos {
    pub fn new() -> Pos {
        Pos {
            v: json!({
                "options": {},
                "districts": ["PMYK", "PVLY", "0", "PMSL", "PSVK"],
                "players": [
                    {"crowns": ["NM", "NV", "NY"], "supply": {}, "hand": [], "columns": {}},
                    {"crowns": ["NS", "NL", "NK"], "supply": {}, "hand": [], "columns": {}}
                ],
                "draw_pile": [],
                "discard": [],
                "reshuffled": false,
                "turn": {"seat": 0, "phase": "action", "card_played": false},
                "final_turns": null
            }),
            rest: Rest::Draw,
        }
    }

    /// One option switch (`"courts"`, `json!(true)`) or `"preset"`.
    pub fn option(mut self, key: &str, value: Value) -> Pos {
        self.v["options"][key] = value;
        self
    }

    pub fn districts(mut self, cards: [&str; 5]) -> Pos {
        self.v["districts"] = json!(cards);
        self
    }

    pub fn crowns(mut self, seat: usize, cards: [&str; 3]) -> Pos {
        self.v["players"][seat]["crowns"] = json!(cards);
        self
    }

    pub fn hand(mut self, seat: usize, cards: &[&str]) -> Pos {
        self.v["players"][seat]["hand"] = json!(cards);
        self
    }

    /// The seat's supply as a suit map, e.g. `json!({"V": 1, "L": 3})`.
    pub fn supply(mut self, seat: usize, tokens: Value) -> Pos {
        self.v["players"][seat]["supply"] = tokens;
        self
    }

    /// Completed properties at the end of the seat's column in `district`, bottom first.
    pub fn built(mut self, seat: usize, district: &str, cards: &[&str]) -> Pos {
        let column = &mut self.v["players"][seat]["columns"][district];
        if column.is_null() {
            *column = json!([]);
        }
        for c in cards {
            column.as_array_mut().unwrap().push(json!({"card": c}));
        }
        self
    }

    /// An unfinished deed on top of the seat's column in `district`, with these development
    /// tokens (`json!({})` for none).
    pub fn deed(mut self, seat: usize, district: &str, card: &str, tokens: Value) -> Pos {
        let column = &mut self.v["players"][seat]["columns"][district];
        if column.is_null() {
            *column = json!([]);
        }
        column
            .as_array_mut()
            .unwrap()
            .push(json!({"card": card, "deed": tokens}));
        self
    }

    /// The standing income preference of the deed on top of the seat's column in `district`.
    pub fn prefer(mut self, seat: usize, district: &str, suit: &str) -> Pos {
        let column = self.v["players"][seat]["columns"][district]
            .as_array_mut()
            .unwrap();
        column.last_mut().unwrap()["prefer"] = json!(suit);
        self
    }

    /// The top of the draw pile, top card first.
    pub fn draw(mut self, cards: &[&str]) -> Pos {
        self.v["draw_pile"] = json!(cards);
        self
    }

    /// The discard pile, oldest first.
    pub fn discard(mut self, cards: &[&str]) -> Pos {
        self.v["discard"] = json!(cards);
        self
    }

    /// Where the cards not placed by the test go (the draw pile unless told).
    pub fn rest(mut self, rest: Rest) -> Pos {
        self.rest = rest;
        self
    }

    pub fn reshuffled(mut self) -> Pos {
        self.v["reshuffled"] = json!(true);
        self
    }

    /// The active seat and the phase (`"roll"`, `"action"`, `"over"`).
    pub fn turn(mut self, seat: u8, phase: &str) -> Pos {
        self.v["turn"]["seat"] = json!(seat);
        self.v["turn"]["phase"] = json!(phase);
        self
    }

    /// This turn's card play has been made.
    pub fn played(mut self) -> Pos {
        self.v["turn"]["card_played"] = json!(true);
        self
    }

    pub fn final_turns(mut self, remaining: &[u8]) -> Pos {
        self.v["final_turns"] = json!({ "remaining": remaining });
        self
    }

    /// The complete position: every card of the game in exactly one place.
    pub fn json(&self) -> Value {
        let mut v = self.v.clone();
        let options: Options = serde_json::from_value(v["options"].clone()).unwrap();
        let rules = options.resolve().unwrap();
        let mut listed: Vec<String> = Vec::new();
        let mut note = |x: &Value| listed.push(x.as_str().unwrap().to_string());
        v["districts"]
            .as_array()
            .unwrap()
            .iter()
            .for_each(&mut note);
        for p in v["players"].as_array().unwrap() {
            p["crowns"].as_array().unwrap().iter().for_each(&mut note);
            p["hand"].as_array().unwrap().iter().for_each(&mut note);
            for column in p["columns"].as_object().unwrap().values() {
                for e in column.as_array().unwrap() {
                    note(&e["card"]);
                }
            }
        }
        v["draw_pile"]
            .as_array()
            .unwrap()
            .iter()
            .for_each(&mut note);
        v["discard"].as_array().unwrap().iter().for_each(&mut note);
        let rest: Vec<Value> = cards_in_game(&rules)
            .iter()
            .map(|c| c.code().to_string())
            .filter(|c| !listed.iter().any(|l| l.eq_ignore_ascii_case(c)))
            .map(Value::String)
            .collect();
        let target = match self.rest {
            Rest::Draw => &mut v["draw_pile"],
            Rest::Discard => &mut v["discard"],
            Rest::Hand(seat) => &mut v["players"][seat]["hand"],
        };
        target.as_array_mut().unwrap().extend(rest);
        v
    }

    /// The position read as an engine state.
    pub fn state(&self) -> State {
        serde_json::from_value(self.json()).unwrap()
    }
}

/// One referee request: the position, the actions as `(seat, notation)`, and any further
/// top-level fields (`"seed"`, `"reshuffle"`).
pub fn request(p: &Pos, actions: &[(u8, &str)], extra: Value) -> String {
    let actions: Vec<Value> = actions
        .iter()
        .map(|(seat, n)| json!({"seat": seat, "notation": n}))
        .collect();
    let mut r = json!({"position": p.json(), "actions": actions});
    if let Value::Object(more) = extra {
        for (k, x) in more {
            r[k] = x;
        }
    }
    r.to_string()
}

/// The referee's answer (the request must be readable).
pub fn answer(p: &Pos, actions: &[(u8, &str)]) -> Value {
    referee(&request(p, actions, json!({}))).unwrap()
}

/// The referee's answer, all actions accepted.
pub fn accepted(p: &Pos, actions: &[(u8, &str)]) -> Value {
    accepted_with(p, actions, json!({}))
}

pub fn accepted_with(p: &Pos, actions: &[(u8, &str)], extra: Value) -> Value {
    let a = referee(&request(p, actions, extra)).unwrap();
    assert_eq!(
        a["ok"],
        json!(true),
        "expected every action of {actions:?} to be accepted, got {a:#}"
    );
    a
}

/// The referee's refusal of the last action, which must name `rule` with a clear sentence;
/// every earlier action must have been accepted.
pub fn refused(p: &Pos, actions: &[(u8, &str)], rule: &str) -> Value {
    let a = answer(p, actions);
    assert_eq!(
        a["ok"],
        json!(false),
        "expected {:?} to be refused under {rule}, got {a:#}",
        actions.last()
    );
    assert_eq!(
        a["rule"],
        json!(rule),
        "wrong rule for {:?}: {}",
        actions.last(),
        a["detail"]
    );
    assert_eq!(
        a["index"],
        json!(actions.len() - 1),
        "refused too early: {a:#}"
    );
    assert_sentence(a["detail"].as_str().unwrap());
    a
}

/// A refusal's detail is one readable sentence for a player.
pub fn assert_sentence(detail: &str) {
    assert!(
        detail.len() > 15,
        "too short to explain anything: {detail:?}"
    );
    assert!(
        detail.ends_with('.'),
        "a sentence ends with a full stop: {detail:?}"
    );
    assert!(
        !detail.contains("Some(") && !detail.contains("Card(") && !detail.contains("{"),
        "debug formatting leaked into {detail:?}"
    );
}

/// A seat's supply in an answer.
pub fn supply(answer: &Value, seat: usize) -> Value {
    answer["position"]["players"][seat]["supply"].clone()
}

/// A seat's hand in an answer, sorted by code.
pub fn hand(answer: &Value, seat: usize) -> Vec<String> {
    let mut h: Vec<String> = answer["position"]["players"][seat]["hand"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    h.sort();
    h
}

/// A seat's column in `district` in an answer (`[]` when empty).
pub fn column(answer: &Value, seat: usize, district: &str) -> Value {
    let c = &answer["position"]["players"][seat]["columns"][district];
    if c.is_null() { json!([]) } else { c.clone() }
}

/// The events of an answer of the given `type`.
pub fn events<'a>(answer: &'a Value, kind: &str) -> Vec<&'a Value> {
    answer["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == json!(kind))
        .collect()
}

/// What one seat collected from the single roll of an answer.
pub fn income(answer: &Value, seat: usize) -> Value {
    let e = events(answer, "income");
    assert_eq!(e.len(), 1, "expected exactly one roll in {answer:#}");
    e[0]["gained"][seat].clone()
}

pub fn card(code: &str) -> Card {
    Card::from_code(code).unwrap()
}

#[test]
fn the_position_builder_places_every_card_of_the_game_exactly_once() {
    for courts in [false, true] {
        let p = Pos::new()
            .option("courts", json!(courts))
            .hand(0, &["4VL"])
            .built(1, "d", &["7ML"]);
        let state = p.state();
        let n = state.draw_pile.len();
        assert_eq!(n, if courts { 28 } else { 24 } + 6 - 2);
        let discard = Pos::new().rest(Rest::Discard).state();
        assert_eq!(discard.discard.len(), 30);
        assert!(discard.draw_pile.is_empty());
    }
}

/// The rule IDs quoted in `text` (`"MAG-PLACE-2"`), each once.
fn quoted_rules(text: &str) -> std::collections::BTreeSet<String> {
    text.split("\"MAG-")
        .skip(1)
        .filter_map(|rest| rest.split_once('"'))
        .map(|(id, _)| format!("MAG-{id}"))
        .filter(|id| id.len() < 16 && !id.contains(' '))
        .collect()
}

#[test]
fn every_rule_the_engine_refuses_with_is_broken_by_some_test_here() {
    let engine = [
        include_str!("../mod.rs"),
        include_str!("../turn.rs"),
        include_str!("../roll.rs"),
        include_str!("../play.rs"),
        include_str!("../develop.rs"),
        include_str!("../trade.rs"),
    ]
    .concat();
    let tests = [
        include_str!("turn_and_roll.rs"),
        include_str!("card_plays.rs"),
        include_str!("develop_and_trade.rs"),
        include_str!("end_and_scoring.rs"),
        include_str!("options.rs"),
        include_str!("information.rs"),
        include_str!("referee_contract.rs"),
    ]
    .concat();
    let refusable = quoted_rules(&engine);
    assert!(refusable.len() > 20, "{refusable:?}");
    let tested = quoted_rules(&tests);
    let untested: Vec<&String> = refusable.difference(&tested).collect();
    assert!(untested.is_empty(), "no test breaks {untested:?}");
}
