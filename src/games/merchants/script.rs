//! Conditional turn scripts (Part III.3.4): the active player's plan for its own turn, filed
//! ahead and applied step by step as the seat's own actions; the seat is asked where the
//! script does not cover the situation. Scripts are hidden from the others (III.4): the seat
//! alone hears of the filing and of each step (`script_step`, `script_ended`).
//!
//! ```text
//! script move SJU; scout p1; if in_combat: shoot; if in_combat: board;
//!        if not_in_combat: scout merchant
//! ```
//!
//! A step is `[if cond and cond ...:] action`: any action of the turn, its Port action or a
//! decision inside them (a declaration in a combat the turn starts, `keep`, `take`, ...), in
//! the one-line notation. Conditions: `gold>=N` (any comparison), `in_port`, `at_sea`,
//! `in_combat`, `not_in_combat`, the own-ship values `hull<=1` ... `cargo>0`, and
//! `holds GLY-08` / `lacks GLY-08`. JSON: `{"type":"script","steps":[{"if":[{"kind":"gold",
//! "cmp":">=","n":10}],"do":{"type":"buy"}}]}`.
//!
//! Readings where III.3.4 gives only an example ([I]):
//! - the script runs when its seat is asked in its own turn (its Turn frame on the stack, the
//!   top decision its own), at the start of the turn and after every accepted action;
//! - a step whose conditions do not hold is skipped;
//! - a step whose action is not legal now stops the script: the seat is asked, and the rest
//!   is dropped (the plan no longer fits what happened); so is one the rules refuse;
//! - the script ends with the turn (or the captain's death in it); it may be filed at any
//!   time, also out of turn for the seat's next turn; a new filing replaces the old one and
//!   `script clear` removes it;
//! - in the seat's own turn a script step goes before its standing orders (the turn's plan is
//!   the more particular); a hand over the limit (MM-GCARD-2) is settled first.

use super::action::loc_word;
use super::data::Data;
use super::events::Event;
use super::ids::Loc;
use super::orders::{Cmp, comparison, design, write_filing};
use super::rules::{cur, no};
use super::state::{Frame, State, WindowCtx};
use super::{Action, legal};
use crate::engine::{GameRng, Illegal, Logged, Seat, SeatSet};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

type Ev = Vec<Logged<Event>>;

/// At most this many steps in one script, and this many conditions in one step.
pub const MAX_STEPS: usize = 32;
pub const MAX_CONDS: usize = 8;

/// One step of a turn script.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    #[serde(default, rename = "if", skip_serializing_if = "Vec::is_empty")]
    pub conds: Vec<Cond>,
    #[serde(rename = "do")]
    pub action: Action,
}

/// A condition on the scripting seat's own state and the decision it faces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Cond {
    /// Gold on board.
    Gold {
        cmp: Cmp,
        n: u32,
    },
    InPort,
    AtSea,
    /// The decision asked is a combat's (a declaration or a combat window).
    InCombat,
    NotInCombat,
    /// One of the seat's current Hull, Masts, Cannons, Crew, Cargo.
    Mine {
        loc: Loc,
        cmp: Cmp,
        n: u8,
    },
    /// A glory card of this design (D-GLORY id) is in the hand.
    Holds {
        card: String,
    },
    Lacks {
        card: String,
    },
}

impl fmt::Display for Cond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cond::Gold { cmp, n } => write!(f, "gold{}{n}", cmp.word()),
            Cond::InPort => f.write_str("in_port"),
            Cond::AtSea => f.write_str("at_sea"),
            Cond::InCombat => f.write_str("in_combat"),
            Cond::NotInCombat => f.write_str("not_in_combat"),
            Cond::Mine { loc, cmp, n } => write!(f, "{}{}{n}", loc_word(*loc), cmp.word()),
            Cond::Holds { card } => write!(f, "holds {card}"),
            Cond::Lacks { card } => write!(f, "lacks {card}"),
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.conds.iter().enumerate() {
            f.write_str(if i == 0 { "if " } else { " and " })?;
            write!(f, "{c}")?;
        }
        if !self.conds.is_empty() {
            f.write_str(": ")?;
        }
        write!(f, "{}", self.action)
    }
}

/// Writes a script as its whole notation (`script ...` or `script clear`).
pub fn write_script(f: &mut fmt::Formatter<'_>, steps: &[Step]) -> fmt::Result {
    write_filing(f, "script", steps)
}

fn parse_cond(text: &str) -> Result<Cond, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["in_port"] => return Ok(Cond::InPort),
        ["at_sea"] => return Ok(Cond::AtSea),
        ["in_combat"] => return Ok(Cond::InCombat),
        ["not_in_combat"] => return Ok(Cond::NotInCombat),
        ["holds", c] => return Ok(Cond::Holds { card: design(c) }),
        ["lacks", c] => return Ok(Cond::Lacks { card: design(c) }),
        _ => {}
    }
    let (name, cmp, n) = comparison(&words).ok_or_else(|| {
            format!("{text:?} is not a step condition (gold>=10, in_port, in_combat, hull<=1, holds GLY-08, ...)")
        })?;
    if name == "gold" {
        return Ok(Cond::Gold {
            cmp,
            n: n.parse().map_err(|_| format!("{n:?} is not an amount"))?,
        });
    }
    let loc = Loc::HITS
        .into_iter()
        .find(|l| loc_word(*l) == name)
        .ok_or_else(|| format!("{name:?} is not gold, hull, masts, cannons, crew or cargo"))?;
    Ok(Cond::Mine {
        loc,
        cmp,
        n: n.parse()
            .map_err(|_| format!("{n:?} is not a number from 0 to 255"))?,
    })
}

impl FromStr for Step {
    type Err = String;

    fn from_str(s: &str) -> Result<Step, String> {
        let s = s.trim();
        let (conds, action) = match s.strip_prefix("if ") {
            Some(rest) => {
                let (c, a) = rest
                    .split_once(':')
                    .ok_or_else(|| format!("{s:?}: a step is `[if cond and ...:] action`"))?;
                (
                    c.split(" and ").map(parse_cond).collect::<Result<_, _>>()?,
                    a,
                )
            }
            None => (Vec::new(), s),
        };
        let action: Action = action.trim().parse()?;
        Ok(Step { conds, action })
    }
}

/// Reads the text after `script`: `clear`, or steps separated by `;`, in lower case (as
/// [`Action`]'s `FromStr` hands it on; a glory card's code in any case).
pub fn parse_script(rest: &str) -> Result<Vec<Step>, String> {
    let rest = rest.trim();
    if rest.is_empty() || rest == "clear" {
        return Ok(Vec::new());
    }
    rest.split(';').map(str::parse).collect()
}

/// Files `steps` as `seat`'s turn script, replacing the previous one (none: cleared). Refused
/// whole, with the first problem, if a step is not well formed.
pub fn file(
    d: &Data,
    st: &mut State,
    seat: Seat,
    steps: &[Step],
    ev: &mut Ev,
) -> Result<(), Illegal> {
    if seat.0 >= st.seats {
        return Err(no("III.3.4", "No such seat."));
    }
    if steps.len() > MAX_STEPS {
        return Err(no(
            "III.3.4",
            format!(
                "At most {MAX_STEPS} steps in a turn script, not {}.",
                steps.len()
            ),
        ));
    }
    for (i, s) in steps.iter().enumerate() {
        if s.conds.len() > MAX_CONDS {
            return Err(no(
                "III.3.4",
                format!("Step {}: at most {MAX_CONDS} conditions.", i + 1),
            ));
        }
        if matches!(s.action, Action::Orders { .. } | Action::Script { .. }) {
            return Err(no(
                "III.3.4",
                format!(
                    "Step {}: a script's steps are actions of the turn, not filings.",
                    i + 1
                ),
            ));
        }
        for c in &s.conds {
            if let Cond::Holds { card } | Cond::Lacks { card } = c
                && !d.glory.iter().any(|g| g.id == *card)
            {
                return Err(no(
                    "MM-GCARD-3",
                    format!("{card:?} is not a glory card design (D-GLORY: GLY-01 to GLY-14)."),
                ));
            }
        }
    }
    if st.scripts.len() < usize::from(st.seats) {
        st.scripts.resize(usize::from(st.seats), Vec::new());
    }
    if let Some(slot) = st.scripts.get_mut(seat.index()) {
        *slot = steps.to_vec();
    }
    ev.push(Logged::only(
        SeatSet::only(seat),
        Event::ScriptFiled {
            seat,
            steps: u8::try_from(steps.len()).unwrap_or(u8::MAX),
        },
    ));
    Ok(())
}

/// The seat whose script may act now: asked in its own turn, with a script, and no glory
/// discard owed.
fn scripted_seat(d: &Data, st: &State) -> Option<Seat> {
    let top = st.top()?;
    let seat = st.stack.iter().find_map(|f| match f {
        Frame::Turn { seat, .. } => Some(*seat),
        _ => None,
    })?;
    let has = st.scripts.get(seat.index()).is_some_and(|s| !s.is_empty());
    let asked = match top {
        Frame::ShipChoice { .. } => false,
        _ => top.seats().contains(seat),
    };
    (has && asked && !super::rules::over_limit(d, st, seat)).then_some(seat)
}

fn in_combat(st: &State) -> bool {
    matches!(
        st.top(),
        Some(
            Frame::Combat { .. }
                | Frame::Window {
                    ctx: WindowCtx::Combat,
                    ..
                }
        )
    )
}

fn cond_holds(d: &Data, st: &State, seat: Seat, c: &Cond) -> bool {
    let Some(p) = st.player(seat) else {
        return false;
    };
    let holds = |card: &str| {
        p.glory_hand
            .iter()
            .any(|c| d.glory_card(*c).is_some_and(|g| g.id == card))
    };
    match c {
        Cond::Gold { cmp, n } => cmp.holds(i64::from(p.gold), i64::from(*n)),
        Cond::InPort => p.in_port,
        Cond::AtSea => p.at_sea(),
        Cond::InCombat => in_combat(st),
        Cond::NotInCombat => !in_combat(st),
        Cond::Mine { loc, cmp, n } => cmp.holds(i64::from(cur(p, *loc)), i64::from(*n)),
        Cond::Holds { card } => holds(card),
        Cond::Lacks { card } => !holds(card),
    }
}

/// Moves the scripting seat's script on by one step, if a script may act now: applies the
/// first step whose conditions hold (the skipped ones are dropped), or, when that step is not
/// legal now, drops the script and leaves the decision to the seat. Whether anything changed.
pub fn advance_one(d: &Data, st: &mut State, rng: &mut GameRng, ev: &mut Ev) -> bool {
    let Some(seat) = scripted_seat(d, st) else {
        return false;
    };
    let steps = st.scripts.get(seat.index()).cloned().unwrap_or_default();
    let told = |e: Event| Logged::only(SeatSet::only(seat), e);
    let Some(at) = steps
        .iter()
        .position(|s| s.conds.iter().all(|c| cond_holds(d, st, seat, c)))
    else {
        if let Some(s) = st.scripts.get_mut(seat.index()) {
            s.clear();
        }
        ev.push(told(Event::ScriptEnded {
            seat,
            stopped_at: None,
        }));
        return true;
    };
    let Some(step) = steps.get(at) else {
        return false;
    };
    if legal::legal_actions(st, seat).contains(&step.action) {
        let mut next = st.clone();
        if let Some(s) = next.scripts.get_mut(seat.index()) {
            *s = steps.get(at + 1..).unwrap_or_default().to_vec();
        }
        let mut more = vec![told(Event::ScriptStep {
            seat,
            action: step.action.to_string(),
        })];
        if super::rules::act(d, &mut next, seat, &step.action, rng, &mut more).is_ok() {
            *st = next;
            ev.extend(more);
            return true;
        }
    }
    if let Some(s) = st.scripts.get_mut(seat.index()) {
        s.clear();
    }
    ev.push(told(Event::ScriptEnded {
        seat,
        stopped_at: Some(step.action.to_string()),
    }));
    true
}

/// The end of `seat`'s turn (or its captain's death in it) ends its script.
pub fn end_turn(st: &mut State, seat: Seat) {
    if let Some(s) = st.scripts.get_mut(seat.index()) {
        s.clear();
    }
}
