//! Standing orders (Part III.3.3 and III.3.5): a seat's private rules for the decisions that
//! may come up in someone else's turn, its combat declarations and its timing windows, the
//! glory card to discard from a hand over the limit (MM-GCARD-2), what to plunder (MM-PLUN-1),
//! whether to claim a defeated ship (MM-PLUN-2/4) and the captain redraw and ship choice after
//! a death (MM-DEATH-4; also the first ship choice, MM-SETUP-9, if filed before it). The
//! engine applies the first order that fits instead of asking, so the frame never becomes
//! pending for that seat; it logs that it did to that seat alone (III.3.5: skipping a window
//! must look the same to the others whether the seat holds nothing or auto-passed).
//!
//! An order is `when [if cond and cond ...]: answer`; a filing is a list of them, tried in
//! order (the first whose situation and conditions hold and whose answer is legal now
//! decides; `ask` stops the search and asks). In the one-line notation orders are separated
//! by `;`:
//!
//! ```text
//! orders window TW3: fire; declare if attacked and hull<=1: flee;
//!        declare if crew_margin>=2: board; declare: shoot;
//!        window if holds GLY-08: ask; window: pass
//! ```
//!
//! | part | notation | JSON |
//! |---|---|---|
//! | situation | `declare`, `window`, `window TW5`, `hand`, `plunder`, `claim`, `ship` | `{"kind":"declare"}`, `{"kind":"window","tw":5}`, `{"kind":"hand"}` |
//! | role | `attacked` / `attacking` | `{"kind":"attacked"}` |
//! | opponent | `vs npc` / `vs player` | `{"kind":"vs_npc"}` |
//! | own ship | `hull<=1` (hull, masts, cannons, crew, cargo) | `{"kind":"mine","loc":"hull","cmp":"<=","n":1}` |
//! | crew lead | `crew_margin>=2` (mine minus theirs) | `{"kind":"crew_margin","cmp":">=","n":2}` |
//! | combat round | `round>=2` | `{"kind":"round","cmp":">=","n":2}` |
//! | glory hand | `holds GLY-08` / `lacks GLY-08` | `{"kind":"holds","card":"GLY-08"}` |
//! | answer | `shoot`, `shoot 1`, `board`, `flee` (declare); `fire`, `pass`, `play GLY-09` (window); `ask` | `{"kind":"declare","decl":"shoot"}`, `{"kind":"play","card":"GLY-09"}` |
//! | hand answer | `discard GLY-05` (a card of that design), `discard newest` | `{"kind":"discard","card":"GLY-05"}`, `{"kind":"discard_newest"}` |
//! | plunder answer | `plunder all|gold|cargo|glory|specialist|rumor|weapon` (cargo: the most valuable that fits; the others: the first listed), `capture`, `done` | `{"kind":"plunder","what":"gold"}`, `{"kind":"capture"}`, `{"kind":"done"}` |
//! | claim answer | `capture`, `done` (keep your own ship) | `{"kind":"capture"}` |
//! | ship answer | `ship sloop`, `ship flute`, `redraw` | `{"kind":"ship","ship":"flute"}`, `{"kind":"redraw"}` |
//!
//! An answer that is not legal at the moment (no card of that design, nothing of that kind to
//! plunder, no redraw allowed) lets the search go on to the next order, as for the combat
//! answers; where none fits, the seat is asked. A seat with a hand over the limit is asked
//! (or answered by its `hand` orders) before any other decision of its own.
//!
//! Comparisons are `<=`, `<`, `>=`, `>`, `=`. Filing is allowed at any time, also out of
//! turn, and is never listed by `legal_actions` (as Magnate's `prefer`); a new filing replaces
//! the old one and an empty one (`orders clear`) removes it.

use super::action::Loot;
use super::action::loc_word;
use super::combat::{Decl, Side};
use super::data::Data;
use super::events::Event;
use super::ids::{Loc, Ship};
use super::rules::{cur, no};
use super::state::{Frame, State, Target, WindowCtx};
use super::{Action, legal};
use crate::engine::{GameRng, Illegal, Logged, Seat, SeatSet};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

type Ev = Vec<Logged<Event>>;

/// At most this many orders in one filing, and this many conditions in one order (III.3.3:
/// a short rule list, checked at every decision).
pub const MAX_ORDERS: usize = 32;
pub const MAX_CONDS: usize = 8;

/// One standing order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Order {
    pub when: When,
    #[serde(default, rename = "if", skip_serializing_if = "Vec::is_empty")]
    pub conds: Vec<Cond>,
    pub then: Answer,
}

/// The decision an order answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum When {
    /// A combat declaration (MM-NAV-4), as aggressor or defender.
    Declare,
    /// A timing window (D-WINDOW TW2–TW7), or only window `tw`.
    Window {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tw: Option<u8>,
    },
    /// MM-GCARD-2: the glory hand is over the limit.
    Hand,
    /// MM-PLUN-1: plundering a defeated player (each item one answer, until `done`).
    Plunder,
    /// MM-PLUN-2/4: claiming a defeated NPC's ship.
    Claim,
    /// MM-DEATH-4 (and MM-SETUP-9): the captain redraw and the sealed ship choice.
    Ship,
}

/// What kind of loot a `plunder` order takes (MM-PLUN-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LootKind {
    All,
    Gold,
    Cargo,
    Glory,
    Specialist,
    Rumor,
    Weapon,
}

impl LootKind {
    const ALL: [(LootKind, &'static str); 7] = [
        (LootKind::All, "all"),
        (LootKind::Gold, "gold"),
        (LootKind::Cargo, "cargo"),
        (LootKind::Glory, "glory"),
        (LootKind::Specialist, "specialist"),
        (LootKind::Rumor, "rumor"),
        (LootKind::Weapon, "weapon"),
    ];

    fn word(self) -> &'static str {
        LootKind::ALL
            .iter()
            .find(|(k, _)| *k == self)
            .map_or("all", |(_, w)| w)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cmp {
    #[serde(rename = "<=")]
    Le,
    #[serde(rename = "<")]
    Lt,
    #[serde(rename = ">=")]
    Ge,
    #[serde(rename = ">")]
    Gt,
    #[serde(rename = "=")]
    Eq,
}

impl Cmp {
    pub(super) const ALL: [(Cmp, &'static str); 5] = [
        (Cmp::Le, "<="),
        (Cmp::Ge, ">="),
        (Cmp::Lt, "<"),
        (Cmp::Gt, ">"),
        (Cmp::Eq, "="),
    ];

    pub(super) fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Le => a <= b,
            Cmp::Lt => a < b,
            Cmp::Ge => a >= b,
            Cmp::Gt => a > b,
            Cmp::Eq => a == b,
        }
    }

    pub(super) fn word(self) -> &'static str {
        Cmp::ALL
            .iter()
            .find(|(c, _)| *c == self)
            .map_or("=", |(_, w)| w)
    }
}

/// A condition on what the seat may see: its own ship and hand, the public combat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Cond {
    /// This seat is the defender (or the scout's target).
    Attacked,
    /// This seat is the aggressor (or the scouting player).
    Attacking,
    VsNpc,
    VsPlayer,
    /// One of this seat's current Hull, Masts, Cannons, Crew, Cargo.
    Mine {
        loc: Loc,
        cmp: Cmp,
        n: u8,
    },
    /// This seat's Crew minus the opponent's.
    CrewMargin {
        cmp: Cmp,
        n: i8,
    },
    /// The combat round (MM-NAV-4).
    Round {
        cmp: Cmp,
        n: u8,
    },
    /// A glory card of this design (D-GLORY id) is in the seat's hand.
    Holds {
        card: String,
    },
    Lacks {
        card: String,
    },
}

/// What an order answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Answer {
    Declare {
        decl: Decl,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        weapon: Option<u8>,
    },
    /// Long Guns in the opening volley (TW3).
    Fire,
    Pass,
    /// A tactic of this design (D-GLORY id).
    Play {
        card: String,
    },
    /// Stop here and ask the seat.
    Ask,
    /// MM-GCARD-2: discard a card of this design (D-GLORY id) from the hand.
    Discard {
        card: String,
    },
    /// MM-GCARD-2: discard the most recently drawn card (III.2's default).
    DiscardNewest,
    /// MM-PLUN-1: take one item of this kind.
    Plunder {
        what: LootKind,
    },
    /// MM-PLUN-4: take the defeated ship.
    Capture,
    /// End the plunder, or keep your own ship.
    Done,
    /// MM-DEATH-4 / MM-SETUP-9: choose this ship (Sloop or Flute).
    Ship {
        ship: Ship,
    },
    /// MM-DEATH-4a: draw another captain when allowed.
    Redraw,
}

impl fmt::Display for Cond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cond::Attacked => f.write_str("attacked"),
            Cond::Attacking => f.write_str("attacking"),
            Cond::VsNpc => f.write_str("vs npc"),
            Cond::VsPlayer => f.write_str("vs player"),
            Cond::Mine { loc, cmp, n } => write!(f, "{}{}{n}", loc_word(*loc), cmp.word()),
            Cond::CrewMargin { cmp, n } => write!(f, "crew_margin{}{n}", cmp.word()),
            Cond::Round { cmp, n } => write!(f, "round{}{n}", cmp.word()),
            Cond::Holds { card } => write!(f, "holds {card}"),
            Cond::Lacks { card } => write!(f, "lacks {card}"),
        }
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Declare { decl, weapon: None } => f.write_str(decl.word()),
            Answer::Declare {
                decl,
                weapon: Some(w),
            } => write!(f, "{} {w}", decl.word()),
            Answer::Fire => f.write_str("fire"),
            Answer::Pass => f.write_str("pass"),
            Answer::Play { card } => write!(f, "play {card}"),
            Answer::Ask => f.write_str("ask"),
            Answer::Discard { card } => write!(f, "discard {card}"),
            Answer::DiscardNewest => f.write_str("discard newest"),
            Answer::Plunder { what } => write!(f, "plunder {}", what.word()),
            Answer::Capture => f.write_str("capture"),
            Answer::Done => f.write_str("done"),
            Answer::Ship { ship } => write!(f, "ship {ship}"),
            Answer::Redraw => f.write_str("redraw"),
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.when {
            When::Declare => f.write_str("declare")?,
            When::Window { tw: None } => f.write_str("window")?,
            When::Window { tw: Some(t) } => write!(f, "window TW{t}")?,
            When::Hand => f.write_str("hand")?,
            When::Plunder => f.write_str("plunder")?,
            When::Claim => f.write_str("claim")?,
            When::Ship => f.write_str("ship")?,
        }
        for (i, c) in self.conds.iter().enumerate() {
            f.write_str(if i == 0 { " if " } else { " and " })?;
            write!(f, "{c}")?;
        }
        write!(f, ": {}", self.then)
    }
}

/// Writes a filing as the text after `orders`.
pub fn write_orders(f: &mut fmt::Formatter<'_>, orders: &[Order]) -> fmt::Result {
    write_filing(f, "orders", orders)
}

/// Writes `keyword clear` for nothing filed, else `keyword a; b; c` (orders and turn scripts).
pub(super) fn write_filing<T: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    keyword: &str,
    items: &[T],
) -> fmt::Result {
    if items.is_empty() {
        return write!(f, "{keyword} clear");
    }
    write!(f, "{keyword} ")?;
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str("; ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

/// A comparison condition written `name<op>n` (spaces allowed): its name, operator and number
/// text, or `None` when the words hold no operator.
pub(super) fn comparison(words: &[&str]) -> Option<(String, Cmp, String)> {
    let compact: String = words.concat();
    Cmp::ALL.iter().find_map(|(c, w)| {
        compact
            .split_once(w)
            .map(|(name, n)| (name.to_string(), *c, n.to_string()))
    })
}

/// A glory card design as D-GLORY writes it (`GLY-08`), however it was typed: the notation is
/// read in lower case.
pub(super) fn design(code: &str) -> String {
    code.to_ascii_uppercase()
}

fn parse_cond(text: &str) -> Result<Cond, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["attacked"] => return Ok(Cond::Attacked),
        ["attacking"] => return Ok(Cond::Attacking),
        ["vs", "npc"] => return Ok(Cond::VsNpc),
        ["vs", "player"] => return Ok(Cond::VsPlayer),
        ["holds", c] => return Ok(Cond::Holds { card: design(c) }),
        ["lacks", c] => return Ok(Cond::Lacks { card: design(c) }),
        _ => {}
    }
    let (name, cmp, n) = comparison(&words).ok_or_else(|| {
        format!("{text:?} is not a condition (attacked, vs npc, hull<=1, holds GLY-08, ...)")
    })?;
    let num = |what: &str| format!("{n:?} is not {what}");
    match name.as_str() {
        "crew_margin" => Ok(Cond::CrewMargin {
            cmp,
            n: n.parse().map_err(|_| num("a number from -128 to 127"))?,
        }),
        "round" => Ok(Cond::Round {
            cmp,
            n: n.parse().map_err(|_| num("a round number"))?,
        }),
        _ => {
            let loc = Loc::HITS
                .into_iter()
                .find(|l| loc_word(*l) == name)
                .ok_or_else(|| {
                    format!(
                        "{name:?} is not hull, masts, cannons, crew, cargo, crew_margin or round"
                    )
                })?;
            Ok(Cond::Mine {
                loc,
                cmp,
                n: n.parse().map_err(|_| num("a number from 0 to 255"))?,
            })
        }
    }
}

fn parse_answer(text: &str) -> Result<Answer, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let decl = |w: &str| match w {
        "shoot" => Some(Decl::Shoot),
        "board" => Some(Decl::Board),
        "flee" => Some(Decl::Flee),
        _ => None,
    };
    match words.as_slice() {
        ["fire"] => Ok(Answer::Fire),
        ["pass"] => Ok(Answer::Pass),
        ["ask"] => Ok(Answer::Ask),
        ["discard", "newest"] => Ok(Answer::DiscardNewest),
        ["discard", c] => Ok(Answer::Discard { card: design(c) }),
        ["plunder", w] => Ok(Answer::Plunder {
            what: LootKind::ALL
                .iter()
                .find(|(_, x)| x == w)
                .map(|(k, _)| *k)
                .ok_or_else(|| {
                    format!("{w:?} is not all, gold, cargo, glory, specialist, rumor or weapon")
                })?,
        }),
        ["capture"] => Ok(Answer::Capture),
        ["done"] => Ok(Answer::Done),
        ["ship", w] => Ok(Answer::Ship { ship: w.parse()? }),
        ["redraw"] => Ok(Answer::Redraw),
        ["play", c] => Ok(Answer::Play { card: design(c) }),
        [w] if decl(w).is_some() => Ok(Answer::Declare {
            decl: decl(w).unwrap_or(Decl::Shoot),
            weapon: None,
        }),
        [w, k] if decl(w).is_some() => Ok(Answer::Declare {
            decl: decl(w).unwrap_or(Decl::Shoot),
            weapon: Some(
                k.parse()
                    .map_err(|_| format!("{k:?} is not a weapon number"))?,
            ),
        }),
        _ => Err(format!(
            "{text:?} is not an answer (shoot, board, flee, fire, pass, play GLY-09, discard GLY-05, discard newest, plunder gold, capture, done, ship flute, redraw, ask)"
        )),
    }
}

impl FromStr for Order {
    type Err = String;

    fn from_str(s: &str) -> Result<Order, String> {
        let (head, answer) = s
            .split_once(':')
            .ok_or_else(|| format!("{:?}: an order is `when [if ...]: answer`", s.trim()))?;
        let (when_text, conds_text) = match head.split_once(" if ") {
            Some((w, c)) => (w, Some(c)),
            None => (head, None),
        };
        let when = match when_text.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["declare"] => When::Declare,
            ["window"] => When::Window { tw: None },
            ["hand"] => When::Hand,
            ["plunder"] => When::Plunder,
            ["claim"] => When::Claim,
            ["ship"] => When::Ship,
            ["window", t] => When::Window {
                tw: Some(
                    t.get(..2)
                        .filter(|w| w.eq_ignore_ascii_case("TW"))
                        .and_then(|_| t.get(2..)?.parse().ok())
                        .ok_or_else(|| format!("{t:?} is not a timing window (TW2..TW7)"))?,
                ),
            },
            _ => {
                return Err(format!(
                    "{:?} is not a situation (declare, window, window TW5, hand, plunder, claim, ship)",
                    when_text.trim()
                ));
            }
        };
        let conds = match conds_text {
            Some(c) => c.split(" and ").map(parse_cond).collect::<Result<_, _>>()?,
            None => Vec::new(),
        };
        Ok(Order {
            when,
            conds,
            then: parse_answer(answer)?,
        })
    }
}

/// Reads the text after `orders`: `clear`, or orders separated by `;`, in lower case (as
/// [`Action`]'s `FromStr` hands it on; a glory card's or window's code in any case).
pub fn parse_orders(rest: &str) -> Result<Vec<Order>, String> {
    let rest = rest.trim();
    if rest.is_empty() || rest == "clear" {
        return Ok(Vec::new());
    }
    rest.split(';').map(str::parse).collect()
}

// ---------------------------------------------------------------------------------------------
// Filing (validation) and applying
// ---------------------------------------------------------------------------------------------

fn known_design(d: &Data, card: &str) -> Result<(), Illegal> {
    if d.glory.iter().any(|g| g.id == card) {
        Ok(())
    } else {
        Err(no(
            "MM-GCARD-3",
            format!("{card:?} is not a glory card design (D-GLORY: GLY-01 to GLY-14)."),
        ))
    }
}

fn check_order(d: &Data, i: usize, o: &Order) -> Result<(), Illegal> {
    let at = |s: String| format!("Order {}: {s}", i + 1);
    if o.conds.len() > MAX_CONDS {
        return Err(no(
            "III.3.3",
            at(format!("at most {MAX_CONDS} conditions in one order.")),
        ));
    }
    if let When::Window { tw: Some(t) } = o.when
        && !(2..=7).contains(&t)
    {
        return Err(no(
            "III.3.5",
            at(format!(
                "TW{t} is not a window standing orders answer (TW2 to TW7; TW1, TW8 and TW9 come in your own turn)."
            )),
        ));
    }
    for c in &o.conds {
        match c {
            Cond::Holds { card } | Cond::Lacks { card } => known_design(d, card)?,
            Cond::Mine { loc, .. } if !Loc::HITS.contains(loc) => {
                return Err(no(
                    "MM-DMG-1",
                    at("a condition names hull, masts, cannons, crew or cargo.".into()),
                ));
            }
            _ => {}
        }
    }
    match (&o.when, &o.then) {
        (_, Answer::Ask) => Ok(()),
        (When::Declare, Answer::Declare { weapon, .. }) => match weapon {
            Some(w) if usize::from(*w) >= d.weapons.len() => Err(no(
                "MM-WPN-3",
                at(format!(
                    "{w} is not a special weapon (D-WPN rows 0 to {}).",
                    d.weapons.len().saturating_sub(1)
                )),
            )),
            Some(w) if super::combat::long_guns(d) == Some(*w) => Err(no(
                "MM-WPN-2",
                at(
                    "Long Guns fire in the volley (`window TW3: fire`), not with a declaration."
                        .into(),
                ),
            )),
            _ => Ok(()),
        },
        (When::Hand, Answer::Discard { card }) => known_design(d, card),
        (When::Hand, Answer::DiscardNewest) => Ok(()),
        (When::Hand, _) => Err(no(
            "MM-GCARD-2",
            at(format!(
                "a hand over the limit is answered with discard GLY-NN, discard newest or ask, not `{}`.",
                o.then
            )),
        )),
        (When::Plunder, Answer::Plunder { .. } | Answer::Capture | Answer::Done) => Ok(()),
        (When::Plunder, _) => Err(no(
            "MM-PLUN-1",
            at(format!(
                "a plunder is answered with plunder all|gold|cargo|glory|specialist|rumor|weapon, capture, done or ask, not `{}`.",
                o.then
            )),
        )),
        (When::Claim, Answer::Capture | Answer::Done) => Ok(()),
        (When::Claim, _) => Err(no(
            "MM-PLUN-4",
            at(format!(
                "a claim is answered with capture, done or ask, not `{}`.",
                o.then
            )),
        )),
        (
            When::Ship,
            Answer::Ship {
                ship: Ship::Sloop | Ship::Flute,
            }
            | Answer::Redraw,
        ) => Ok(()),
        (When::Ship, _) => Err(no(
            "MM-DEATH-4",
            at(format!(
                "a ship choice is answered with ship sloop, ship flute, redraw or ask, not `{}`.",
                o.then
            )),
        )),
        (When::Declare, _) => Err(no(
            "MM-NAV-4",
            at(format!(
                "a declaration is answered with shoot, board, flee or ask, not `{}`.",
                o.then
            )),
        )),
        (
            When::Window { .. },
            Answer::Declare { .. }
            | Answer::Discard { .. }
            | Answer::DiscardNewest
            | Answer::Plunder { .. }
            | Answer::Capture
            | Answer::Done
            | Answer::Ship { .. }
            | Answer::Redraw,
        ) => Err(no(
            "MM-GCARD-5",
            at(format!(
                "a window is answered with fire, pass, play or ask, not `{}`.",
                o.then
            )),
        )),
        (When::Window { tw }, Answer::Fire) => match tw {
            Some(t) if *t != 3 => Err(no(
                "MM-WPN-2",
                at(format!(
                    "Long Guns fire only in the volley (TW3), not TW{t}."
                )),
            )),
            _ => Ok(()),
        },
        (When::Window { .. }, Answer::Pass) => Ok(()),
        (When::Window { tw }, Answer::Play { card }) => {
            known_design(d, card)?;
            let Some(g) = d.glory.iter().find(|g| g.id == *card) else {
                return Ok(());
            };
            if g.hire.is_some() {
                return Err(no(
                    "MM-GCARD-4",
                    at(format!(
                        "{card} is a specialist: it is employed, not played."
                    )),
                ));
            }
            match tw {
                Some(t) if !g.in_window(*t) => Err(no(
                    "MM-GCARD-5",
                    at(format!("{card} is played in {}, not TW{t}.", g.window)),
                )),
                _ if !(2..=7).any(|t| g.in_window(t)) => Err(no(
                    "MM-GCARD-5",
                    at(format!(
                        "{card} is played in {} only, in your own turn.",
                        g.window
                    )),
                )),
                _ => Ok(()),
            }
        }
    }
}

/// Files `orders` for `seat`, replacing its previous ones (none: cleared). Refused whole,
/// with the first problem, if any order is not well formed.
pub fn file(
    d: &Data,
    st: &mut State,
    seat: Seat,
    orders: &[Order],
    ev: &mut Ev,
) -> Result<(), Illegal> {
    if seat.0 >= st.seats {
        return Err(no("III.3.3", "No such seat."));
    }
    if orders.len() > MAX_ORDERS {
        return Err(no(
            "III.3.3",
            format!(
                "At most {MAX_ORDERS} standing orders, not {}.",
                orders.len()
            ),
        ));
    }
    for (i, o) in orders.iter().enumerate() {
        check_order(d, i, o)?;
    }
    if st.orders.len() < usize::from(st.seats) {
        st.orders.resize(usize::from(st.seats), Vec::new());
    }
    if let Some(slot) = st.orders.get_mut(seat.index()) {
        *slot = orders.to_vec();
    }
    ev.push(Logged::only(
        SeatSet::only(seat),
        Event::OrdersFiled {
            seat,
            count: u8::try_from(orders.len()).unwrap_or(u8::MAX),
        },
    ));
    Ok(())
}

/// The kind of decision an order may answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Declare,
    Window(u8),
    Hand,
    Plunder,
    Claim,
    Ship,
}

/// A decision standing orders may answer: the seat, its kind, its role (true: attacked), and
/// the opponent.
struct Situation {
    seat: Seat,
    kind: Kind,
    attacked: bool,
    me: Side,
    them: Option<Side>,
    round: u8,
}

impl Situation {
    fn plain(seat: Seat, kind: Kind, them: Option<Side>) -> Situation {
        Situation {
            seat,
            kind,
            attacked: false,
            me: Side::Player(seat),
            them,
            round: 0,
        }
    }
}

/// Every decision open now that orders may answer, in the order they are tried: the hands
/// over the limit first (MM-GCARD-2 comes before anything else of their owners), then the top
/// frame's.
fn situations(d: &Data, st: &State) -> Vec<Situation> {
    let mut out: Vec<Situation> = (0..st.seats)
        .map(Seat)
        .filter(|s| super::rules::over_limit(d, st, *s))
        .map(|s| Situation::plain(s, Kind::Hand, None))
        .collect();
    match st.top() {
        Some(Frame::Combat {
            aggressor,
            defender,
            declared,
            round,
            ..
        }) => {
            let attacked = declared.is_some();
            let (me, them) = if attacked {
                (*defender, *aggressor)
            } else {
                (*aggressor, *defender)
            };
            if let Some(seat) = me.seat() {
                out.push(Situation {
                    seat,
                    kind: Kind::Declare,
                    attacked,
                    me,
                    them: Some(them),
                    round: *round,
                });
            }
        }
        Some(Frame::Window { tw, seat, ctx, .. }) => {
            let me = Side::Player(*seat);
            match ctx {
                WindowCtx::Combat => {
                    if let Some((a, b, round)) = super::combat::sides(st) {
                        let attacked = b == me;
                        out.push(Situation {
                            seat: *seat,
                            kind: Kind::Window(*tw),
                            attacked,
                            me,
                            them: Some(if attacked { a } else { b }),
                            round,
                        });
                    }
                }
                WindowCtx::Scout {
                    scouter, target, ..
                } => {
                    let attacked = *target == Target::Player(*seat);
                    let them = if attacked {
                        Some(*scouter)
                    } else {
                        match target {
                            Target::Player(s) => Some(Side::Player(*s)),
                            Target::Npc(n) => Some(Side::Npc(*n)),
                            _ => None,
                        }
                    };
                    out.push(Situation {
                        seat: *seat,
                        kind: Kind::Window(*tw),
                        attacked,
                        me,
                        them,
                        round: 0,
                    });
                }
            }
        }
        Some(Frame::Plunder { seat, from }) => {
            out.push(Situation::plain(
                *seat,
                Kind::Plunder,
                Some(Side::Player(*from)),
            ));
        }
        Some(Frame::Claim { seat, .. }) => out.push(Situation::plain(*seat, Kind::Claim, None)),
        Some(Frame::ShipChoice { seats }) => out.extend(
            seats
                .iter()
                .filter(|s| st.player(*s).is_some_and(|p| p.sealed.is_none()))
                .map(|s| Situation::plain(s, Kind::Ship, None)),
        ),
        _ => {}
    }
    // III.3.9: the ship choices of dead captains waiting beneath the top.
    let top = st.stack.len().saturating_sub(1);
    out.extend(
        (0..st.seats)
            .map(Seat)
            .filter(|s| {
                super::rules::request_at(st, *s).is_some_and(|i| {
                    i < top && matches!(st.stack.get(i), Some(Frame::ShipChoice { .. }))
                })
            })
            .map(|s| Situation::plain(s, Kind::Ship, None)),
    );
    out
}

fn holds(d: &Data, st: &State, seat: Seat, card: &str) -> bool {
    st.player(seat).is_some_and(|p| {
        p.glory_hand
            .iter()
            .any(|c| d.glory_card(*c).is_some_and(|g| g.id == card))
    })
}

fn cond_holds(d: &Data, st: &State, s: &Situation, c: &Cond) -> bool {
    let crew = |side: Side| super::combat::current_hits(d, st, side).map(|h| i64::from(h[3]));
    match c {
        Cond::Attacked => s.attacked,
        Cond::Attacking => !s.attacked,
        Cond::VsNpc => matches!(s.them, Some(Side::Npc(_))),
        Cond::VsPlayer => matches!(s.them, Some(Side::Player(_))),
        Cond::Mine { loc, cmp, n } => st
            .player(s.seat)
            .is_some_and(|p| cmp.holds(i64::from(cur(p, *loc)), i64::from(*n))),
        Cond::CrewMargin { cmp, n } => match (crew(s.me), s.them.and_then(crew)) {
            (Some(a), Some(b)) => cmp.holds(a - b, i64::from(*n)),
            _ => false,
        },
        Cond::Round { cmp, n } => s.round > 0 && cmp.holds(i64::from(s.round), i64::from(*n)),
        Cond::Holds { card } => holds(d, st, s.seat, card),
        Cond::Lacks { card } => !holds(d, st, s.seat, card),
    }
}

fn fits(when: When, kind: Kind) -> bool {
    match (when, kind) {
        (When::Declare, Kind::Declare)
        | (When::Window { tw: None }, Kind::Window(_))
        | (When::Hand, Kind::Hand)
        | (When::Plunder, Kind::Plunder)
        | (When::Claim, Kind::Claim)
        | (When::Ship, Kind::Ship) => true,
        (When::Window { tw: Some(t) }, Kind::Window(k)) => t == k,
        _ => false,
    }
}

/// The action an answer stands for among the seat's listed actions, if one does now.
fn answer_action(
    d: &Data,
    st: &State,
    seat: Seat,
    then: &Answer,
    listed: &[Action],
) -> Option<Action> {
    let of_design =
        |c: &super::ids::GloryId, card: &str| d.glory_card(*c).is_some_and(|g| g.id == card);
    let action = match then {
        Answer::Ask => return None,
        Answer::Declare { decl, weapon } => Action::Declare {
            decl: *decl,
            weapon: *weapon,
        },
        Answer::Fire => Action::Fire,
        Answer::Pass => Action::Pass,
        Answer::Play { card } => listed
            .iter()
            .find(|a| matches!(a, Action::Play { card: c, .. } if of_design(c, card)))?
            .clone(),
        Answer::Discard { card } => Action::DiscardGlory {
            card: *st
                .player(seat)?
                .glory_hand
                .iter()
                .find(|c| of_design(c, card))?,
        },
        Answer::DiscardNewest => Action::DiscardGlory {
            card: *st.player(seat)?.glory_hand.last()?,
        },
        Answer::Plunder { what } => {
            let items = listed.iter().filter_map(|a| match a {
                Action::Plunder { item } => Some(*item),
                _ => None,
            });
            let item = match what {
                LootKind::All => Some(Loot::All),
                LootKind::Gold => items.clone().find(|i| *i == Loot::Gold),
                LootKind::Rumor => items.clone().find(|i| *i == Loot::Rumor),
                LootKind::Cargo => items
                    .clone()
                    .filter_map(|i| match i {
                        Loot::Cargo(c) => Some(c),
                        _ => None,
                    })
                    .max_by_key(|c| d.cargo_card(*c).plunder)
                    .map(Loot::Cargo),
                LootKind::Glory => items.clone().find(|i| matches!(i, Loot::Glory(_))),
                LootKind::Specialist => items.clone().find(|i| matches!(i, Loot::Specialist(_))),
                LootKind::Weapon => items.clone().find(|i| matches!(i, Loot::Weapon(_))),
            }?;
            Action::Plunder { item }
        }
        Answer::Capture => Action::Capture,
        Answer::Done => Action::Done,
        Answer::Ship { ship } => Action::Ship { ship: *ship },
        Answer::Redraw => Action::Redraw,
    };
    listed.contains(&action).then_some(action)
}

/// The first decision open now that a seat's orders answer: the seat, the order's number
/// (from 1) and the action, when an order fits and its answer is legal now.
pub fn decide(d: &Data, st: &State) -> Option<(Seat, u8, Action)> {
    for s in situations(d, st) {
        let Some(orders) = st.orders.get(s.seat.index()).filter(|o| !o.is_empty()) else {
            continue;
        };
        let listed = legal::legal_actions(st, s.seat);
        for (i, o) in orders.iter().enumerate() {
            if !fits(o.when, s.kind) || !o.conds.iter().all(|c| cond_holds(d, st, &s, c)) {
                continue;
            }
            if o.then == Answer::Ask {
                break;
            }
            if let Some(a) = answer_action(d, st, s.seat, &o.then, &listed) {
                return Some((s.seat, u8::try_from(i + 1).unwrap_or(u8::MAX), a));
            }
        }
    }
    None
}

/// Answers, by standing order, every decision at the top of the stack that an order decides,
/// until one needs asking (III.3.3). Each is applied exactly as the seat's own action would be.
pub fn settle(d: &Data, st: &mut State, rng: &mut GameRng, ev: &mut Ev) {
    // Every answer moves a combat or window on; the bound only guards against a loop.
    for _ in 0..10_000 {
        if st.outcome.is_some() {
            return;
        }
        // III.3.4: the active seat's turn script goes first in its own turn.
        if super::script::advance_one(d, st, rng, ev) {
            continue;
        }
        let Some((seat, order, action)) = decide(d, st) else {
            return;
        };
        let mut next = st.clone();
        let mut more = vec![Logged::only(
            SeatSet::only(seat),
            Event::OrderApplied {
                seat,
                order,
                action: action.to_string(),
            },
        )];
        if super::rules::act(d, &mut next, seat, &action, rng, &mut more).is_err() {
            return;
        }
        *st = next;
        ev.extend(more);
    }
}
