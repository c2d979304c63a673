//! Nim, hosted in tests only: the smallest game that shows what hosting a game takes. It is this
//! file (the engine contract, self-play's checks and its words, [`crate::present::Present`]), one
//! line in `games/mod.rs` and one line in `GameKind::ALL`; the registry test below plays it
//! through the registry to its result.
//!
//! The rules: a pile of stones (the `pile` switch, 10 or 15, a random pile of 10–15 with
//! `random`); players take 1 to 3 in turn; whoever takes the last stone wins.

use crate::engine::{
    Game, GameRng, Illegal, Logged, OptionsError, Outcome, Seat, SeatSet, Switch, SwitchValue,
    Viewer,
};
use crate::selfplay::SelfPlay;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

pub struct Nim;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    #[serde(default)]
    pub preset: Option<String>,
    #[serde(default)]
    pub pile: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rules {
    pub preset: String,
    pub pile: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub stones: u32,
    pub seats: u8,
    pub turn: Seat,
    pub winner: Option<Seat>,
}

/// `take N`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    Take { stones: u32 },
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Action::Take { stones } = self;
        write!(f, "take {stones}")
    }
}

impl FromStr for Action {
    type Err = String;

    fn from_str(s: &str) -> Result<Action, String> {
        let stones = s
            .strip_prefix("take ")
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| format!("{s:?} is not `take N`"))?;
        Ok(Action::Take { stones })
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Took {
    pub seat: Seat,
    pub stones: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NimOutcome {
    pub winners: Vec<Seat>,
}

impl Outcome for NimOutcome {
    fn winners(&self) -> SeatSet {
        self.winners.iter().copied().collect()
    }
}

impl Game for Nim {
    const KIND: &'static str = "nim";
    const NAME: &'static str = "Nim";
    const MIN_SEATS: u8 = 2;
    const MAX_SEATS: u8 = 4;
    const PRESETS: &'static [&'static str] = &["standard"];
    const SWITCHES: &'static [Switch] = &[Switch {
        name: "pile",
        values: &[
            SwitchValue::Text("10"),
            SwitchValue::Text("15"),
            SwitchValue::Text("random"),
        ],
        rules: "NIM-1",
    }];

    type Options = Options;
    type Rules = Rules;
    type State = State;
    type Action = Action;
    type Event = Took;
    type View = State;
    type Outcome = NimOutcome;

    fn resolve(options: &Options) -> Result<Rules, OptionsError> {
        let preset = options.preset.clone().unwrap_or_else(|| "standard".into());
        if preset != "standard" {
            return Err(OptionsError(format!(
                "preset: {preset:?} is not a Nim preset"
            )));
        }
        let pile = options.pile.clone().unwrap_or_else(|| "10".into());
        if !matches!(pile.as_str(), "10" | "15" | "random") {
            return Err(OptionsError(format!(
                "pile: 10, 15 or random, not {pile:?}"
            )));
        }
        Ok(Rules { preset, pile })
    }

    fn setup(
        rules: &Rules,
        seats: u8,
        rng: &mut GameRng,
        _events: &mut Vec<Logged<Took>>,
    ) -> Result<State, OptionsError> {
        let stones = match rules.pile.as_str() {
            "random" => 10 + rng.below(6),
            n => n.parse().map_err(|_| OptionsError("pile".into()))?,
        };
        Ok(State {
            stones,
            seats,
            turn: Seat(0),
            winner: None,
        })
    }

    fn pending(state: &State) -> SeatSet {
        match state.winner {
            Some(_) => SeatSet::EMPTY,
            None => SeatSet::only(state.turn),
        }
    }

    fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
        if !Nim::pending(state).contains(seat) {
            return Vec::new();
        }
        (1..=state.stones.min(3))
            .map(|stones| Action::Take { stones })
            .collect()
    }

    fn apply(
        state: &mut State,
        seat: Seat,
        action: &Action,
        _rng: &mut GameRng,
        events: &mut Vec<Logged<Took>>,
    ) -> Result<(), Illegal> {
        let Action::Take { stones } = *action;
        if !(1..=3).contains(&stones) || stones > state.stones {
            return Err(Illegal::new(
                "NIM-2",
                "Take 1 to 3 stones, no more than the pile.",
            ));
        }
        state.stones -= stones;
        events.push(Logged::public(Took { seat, stones }));
        if state.stones == 0 {
            state.winner = Some(seat);
        } else {
            state.turn = Seat((seat.0 + 1) % state.seats);
        }
        Ok(())
    }

    fn view(state: &State, _viewer: Viewer) -> State {
        state.clone()
    }

    fn outcome(state: &State) -> Option<NimOutcome> {
        state.winner.map(|w| NimOutcome { winners: vec![w] })
    }

    fn resign(state: &mut State, seat: Seat) -> Result<(), Illegal> {
        if state.winner.is_some() {
            return Err(Illegal::new("NIM-3", "The game is over."));
        }
        state.winner = Some(Seat((seat.0 + 1) % state.seats));
        Ok(())
    }

    fn lose_on_time(state: &mut State, seat: Seat) -> Result<(), Illegal> {
        Nim::resign(state, seat)
    }
}

/// Nim's words: a test game speaks English in every language.
impl crate::present::Present for Nim {
    fn event(_: crate::domain::Locale, e: &serde_json::Value) -> Option<crate::present::Sentence> {
        use crate::present::{Part, Sentence};
        Some(Sentence(vec![
            Part::Seat(e["seat"].as_i64()?),
            Part::Text(format!(" took {}.", e["stones"].as_u64()?)),
        ]))
    }

    fn result(
        _: crate::domain::Locale,
        _: &serde_json::Value,
        _: &serde_json::Value,
    ) -> Vec<crate::present::Sentence> {
        Vec::new()
    }

    fn deciding(_: &serde_json::Value, _: usize, _: usize) -> bool {
        false
    }
}

impl SelfPlay for Nim {
    type Cache = ();

    fn check_state(state: &State) -> Result<(), String> {
        match (state.stones, state.winner) {
            (0, None) => Err("an empty pile and no winner".into()),
            _ => Ok(()),
        }
    }

    fn hidden_from(_state: &State, _seat: Seat) -> Vec<String> {
        Vec::new()
    }

    fn outcome_label(state: &State) -> String {
        format!("winner {:?}", state.winner.map(|s| s.0))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use crate::engine::registry::GameKind;
    use crate::engine::{Seat, Seed};
    use crate::selfplay::Plan;
    use serde_json::json;

    /// Everything the service does with a game, through the registry alone.
    #[test]
    fn a_game_hosted_by_one_line_plays_through_the_registry_to_its_standings() {
        let kind = GameKind::parse("nim").unwrap();
        assert_eq!(kind.info().name, "Nim");
        let rules = kind.resolve_options(&json!({"pile": "10"})).unwrap();
        let (mut state, _) = kind.setup(&rules, 3, &Seed([3; 32])).unwrap();
        let mut number = 0;
        while let Some(seat) = state.pending().iter().next() {
            let first = state.legal_actions(seat)[0].clone();
            let action = kind.parse_action(&first).unwrap();
            number += 1;
            state.submit(seat, &action, &Seed([3; 32]), number).unwrap();
        }
        // Ten stones taken one at a time by three players: seat 0 takes the tenth.
        assert_eq!(number, 10);
        let standings = state.standings(3);
        assert_eq!(standings[0].seat, Seat(0));
        assert_eq!(
            standings.iter().map(|s| s.place).collect::<Vec<_>>(),
            [1, 2, 2]
        );
        let plan = Plan {
            players: Some(4),
            games: 50,
            seed: 1,
            threads: 1,
            check: true,
        };
        let summary = kind.selfplay(&json!({"pile": "random"}), &plan).unwrap();
        assert_eq!(summary.games, 50);
    }
}
