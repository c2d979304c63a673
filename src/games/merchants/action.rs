//! Typed actions, their JSON shape and their one-line notation (`Display` + `FromStr`, round
//! trip tested). Zones are written by their D-ZONE code (`move SJU`), cargo cards by number.

use super::data;
use super::ids::{CargoId, GloryId, Loc, Nation, Ship, ZoneId};
use super::state::Target;
use crate::engine::Seat;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// `ship sloop`: the sealed ship choice (MM-SETUP-9, MM-DEATH-4).
    Ship {
        ship: Ship,
    },
    /// `move SJU`: to an adjacent sea zone (MM-MOVE-1).
    Move {
        to: ZoneId,
    },
    /// `enter`: from the sea zone into its port.
    Enter,
    /// `leave` / `leave drop 3 17`: out of port, discarding cargo over capacity (MM-MOVE-3).
    Leave {
        drop: Vec<CargoId>,
    },
    /// `scout merchant` / `scout p1` / `scout npc3` (MM-SCOUT-1).
    Scout {
        target: Target,
    },
    /// `port`: take the Port action (MM-PORT-1).
    Port,
    /// `sell 3 17` (MM-SELL-1).
    Sell {
        cards: Vec<CargoId>,
    },
    /// `buy`: draw a private offer (MM-BUY-1).
    Buy,
    /// `take 3 17` / `take`: buy these cards of the offer (MM-BUY-4).
    Take {
        cards: Vec<CargoId>,
    },
    /// `yard frigate`: sell the ship and buy another (MM-YARD-2).
    Yard {
        ship: Ship,
    },
    /// `repair hull masts` (MM-YARD-9): one point per location named.
    Repair {
        locs: Vec<Loc>,
    },
    /// `modify`: buy the port's modification token (MM-YARD-10).
    Modify,
    /// `weapon 0` (MM-YARD-12): buy a special weapon, by D-WPN row.
    Weapon {
        kind: u8,
    },
    /// `recruit` (MM-RECR-1).
    Recruit,
    /// `hire 2` (MM-RECR-1 after a failed roll): buy crew points.
    Hire {
        crew: u8,
    },
    /// `rumor` (MM-RUM-1).
    Rumor,
    /// `claim` (MM-MIS-1).
    Claim,
    /// `check`: check a port-icon rumor in its port (MM-RUM-2).
    Check,
    /// `stash 5` / `stash -5` (MM-STASH-1): to the stash, or back on board.
    Stash {
        amount: i64,
    },
    /// `done`: finish the Port action.
    Done,
    /// `raid ES` / `let go` (MM-RAID-1).
    RaidAs {
        nation: Option<Nation>,
    },
    /// `draw` / `discard 12` / `swap 12`: spend one raid success (MM-RAID-4).
    Draw,
    Discard {
        card: CargoId,
    },
    Swap {
        card: CargoId,
    },
    /// `stop`: spend no more successes.
    Stop,
    /// `discard glory 12`: MM-GCARD-2, discard a glory card from a hand over the limit (the
    /// owner's choice, asked even in another player's turn).
    DiscardGlory {
        card: GloryId,
    },
    /// `discard cargo 12`: MM-BUY-6, discard a cargo card you hold, face up, to make room for
    /// cards you are taking (an offer, a raid's or a naval ship's cargo, a captain's plunder).
    DiscardCargo {
        card: CargoId,
    },
    /// `keep 3 17` (MM-RAID-6).
    Keep {
        cards: Vec<CargoId>,
    },
    /// `shoot` / `board` / `flee`: a combat declaration (MM-NAV-4); `shoot 1` fires the
    /// special weapon of D-WPN row 1 with it (MM-WPN-3/4).
    Declare {
        decl: super::combat::Decl,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        weapon: Option<u8>,
    },
    /// `end`: end the turn (MM-ACT-1).
    End,
    /// `resell 1`: sell a special weapon back (MM-YARD-12).
    Resell {
        kind: u8,
    },
    /// `employ 12`: employ a specialist from the glory hand during Recruit (MM-GCARD-4).
    Employ {
        card: GloryId,
    },
    /// `play 12` / `play 12 sell 5`: play a glory tactic in its window (MM-GCARD-5); GLY-10
    /// names the cargo card it sells.
    Play {
        card: GloryId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cargo: Option<CargoId>,
    },
    /// `pass`: play nothing in this window.
    Pass,
    /// `fire`: Long Guns in the opening volley (MM-WPN-2, MM-NAV-3).
    Fire,
    /// `reroll 2`: CAP-03 rerolls one of its own contest dice (by position).
    Reroll {
        die: u8,
    },
    /// `pardon ES`: EVT-29, pay 5 gold at the start of the turn to lose a bounty level.
    Pardon {
        nation: Nation,
    },
    /// `redraw`: MM-DEATH-4a, another captain instead of this one.
    Redraw,
    /// `plunder gold` / `plunder cargo 12` / ... / `plunder all` (MM-PLUN-1).
    Plunder {
        item: Loot,
    },
    /// `capture`: take the defeated ship instead of your own (MM-PLUN-4).
    Capture,
    /// `pick 3`: one of the listed options of a choice.
    Pick {
        option: u8,
    },
    /// `place HAV`: put a returned modification token face-down in this port (MM-YARD-5).
    Place {
        to: ZoneId,
    },
    /// `orders declare if attacked: shoot; window: pass` / `orders clear`: file standing
    /// orders (III.3.3), at any time, seen by the sender only ([`super::orders`]).
    Orders {
        orders: Vec<super::orders::Order>,
    },
    /// `script move SJU; port; if gold>=6: buy` / `script clear`: file a turn script
    /// (III.3.4), at any time, seen by the sender only ([`super::script`]).
    Script {
        steps: Vec<super::script::Step>,
    },
}

/// What the winner of a crew combat takes from the loser (MM-PLUN-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    content = "id",
    rename_all = "snake_case",
    deny_unknown_fields
)]
pub enum Loot {
    Gold,
    Cargo(CargoId),
    Glory(GloryId),
    Specialist(GloryId),
    Rumor,
    Weapon(u8),
    /// Everything that fits, gold first (III.2's default), and the plunder ends.
    All,
}

fn list(f: &mut fmt::Formatter<'_>, word: &str, cards: &[CargoId]) -> fmt::Result {
    f.write_str(word)?;
    for c in cards {
        write!(f, " {c}")?;
    }
    Ok(())
}

fn zone_code(z: ZoneId) -> String {
    data::load()
        .ok()
        .and_then(|d| d.zones.get(usize::from(z)))
        .map_or_else(|| format!("zone{z}"), |r| r.id.clone())
}

/// A hit location's word in the notation (actions and standing orders).
pub(super) fn loc_word(l: Loc) -> &'static str {
    match l {
        Loc::Hull => "hull",
        Loc::Masts => "masts",
        Loc::Cannons => "cannons",
        Loc::Crew => "crew",
        Loc::Cargo => "cargo",
        Loc::Maneuver => "maneuver",
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Ship { ship } => write!(f, "ship {ship}"),
            Action::Move { to } => write!(f, "move {}", zone_code(*to)),
            Action::Enter => f.write_str("enter"),
            Action::Leave { drop } if drop.is_empty() => f.write_str("leave"),
            Action::Leave { drop } => list(f, "leave drop", drop),
            Action::Scout { target } => match target {
                Target::Merchant => f.write_str("scout merchant"),
                Target::Rumor => f.write_str("scout rumor"),
                Target::Player(s) => write!(f, "scout p{}", s.0),
                Target::Npc(n) => write!(f, "scout npc{n}"),
                Target::FarMerchant(z) => write!(f, "scout merchant {}", zone_code(*z)),
                Target::Mission => f.write_str("scout mission"),
            },
            Action::Port => f.write_str("port"),
            Action::Sell { cards } => list(f, "sell", cards),
            Action::Buy => f.write_str("buy"),
            Action::Take { cards } => list(f, "take", cards),
            Action::Yard { ship } => write!(f, "yard {ship}"),
            Action::Repair { locs } => {
                f.write_str("repair")?;
                for l in locs {
                    write!(f, " {}", loc_word(*l))?;
                }
                Ok(())
            }
            Action::Modify => f.write_str("modify"),
            Action::Weapon { kind } => write!(f, "weapon {kind}"),
            Action::Recruit => f.write_str("recruit"),
            Action::Hire { crew } => write!(f, "hire {crew}"),
            Action::Rumor => f.write_str("rumor"),
            Action::Claim => f.write_str("claim"),
            Action::Check => f.write_str("check"),
            Action::Stash { amount } => write!(f, "stash {amount}"),
            Action::Done => f.write_str("done"),
            Action::RaidAs { nation: Some(n) } => write!(f, "raid {n}"),
            Action::RaidAs { nation: None } => f.write_str("let go"),
            Action::Draw => f.write_str("draw"),
            Action::Discard { card } => write!(f, "discard {card}"),
            Action::Swap { card } => write!(f, "swap {card}"),
            Action::Stop => f.write_str("stop"),
            Action::DiscardGlory { card } => write!(f, "discard glory {card}"),
            Action::DiscardCargo { card } => write!(f, "discard cargo {card}"),
            Action::Keep { cards } => list(f, "keep", cards),
            Action::Declare { decl, weapon: None } => f.write_str(decl.word()),
            Action::Declare {
                decl,
                weapon: Some(w),
            } => write!(f, "{} {w}", decl.word()),
            Action::End => f.write_str("end"),
            Action::Resell { kind } => write!(f, "resell {kind}"),
            Action::Employ { card } => write!(f, "employ {card}"),
            Action::Play { card, cargo: None } => write!(f, "play {card}"),
            Action::Play {
                card,
                cargo: Some(c),
            } => write!(f, "play {card} sell {c}"),
            Action::Pass => f.write_str("pass"),
            Action::Fire => f.write_str("fire"),
            Action::Reroll { die } => write!(f, "reroll {die}"),
            Action::Pardon { nation } => write!(f, "pardon {nation}"),
            Action::Redraw => f.write_str("redraw"),
            Action::Plunder { item } => match item {
                Loot::Gold => f.write_str("plunder gold"),
                Loot::Cargo(c) => write!(f, "plunder cargo {c}"),
                Loot::Glory(c) => write!(f, "plunder glory {c}"),
                Loot::Specialist(c) => write!(f, "plunder specialist {c}"),
                Loot::Rumor => f.write_str("plunder rumor"),
                Loot::Weapon(k) => write!(f, "plunder weapon {k}"),
                Loot::All => f.write_str("plunder all"),
            },
            Action::Capture => f.write_str("capture"),
            Action::Pick { option } => write!(f, "pick {option}"),
            Action::Place { to } => write!(f, "place {}", zone_code(*to)),
            Action::Orders { orders } => super::orders::write_orders(f, orders),
            Action::Script { steps } => super::script::write_script(f, steps),
        }
    }
}

fn numbers<T: FromStr>(words: &[&str]) -> Result<Vec<T>, String> {
    words
        .iter()
        .map(|w| w.parse().map_err(|_| format!("{w:?} is not a number")))
        .collect()
}

fn one<T: FromStr>(words: &[&str], what: &str) -> Result<T, String> {
    match words {
        [w] => w.parse().map_err(|_| format!("{w:?} is not {what}")),
        _ => Err(format!("expected one {what}")),
    }
}

fn parse_loc(w: &str) -> Result<Loc, String> {
    Loc::HITS
        .into_iter()
        .find(|l| loc_word(*l) == w)
        .ok_or_else(|| format!("{w:?} is not a hit location"))
}

impl FromStr for Action {
    type Err = String;

    fn from_str(sent: &str) -> Result<Action, String> {
        // Phone keyboards capitalise the first word and a mailed line may end as a sentence:
        // the notation is read in any case (codes are matched whatever their case) and
        // without one final full stop, which no notation ends with.
        let text = sent.trim();
        let text = text.strip_suffix('.').unwrap_or(text).to_ascii_lowercase();
        let s = text.as_str();
        // Standing orders have a grammar of their own (conditions, `;` between orders).
        if let Some(rest) = s.trim_start().strip_prefix("orders")
            && (rest.is_empty() || rest.starts_with(char::is_whitespace))
        {
            return Ok(Action::Orders {
                orders: super::orders::parse_orders(rest)?,
            });
        }
        if let Some(rest) = s.trim_start().strip_prefix("script")
            && (rest.is_empty() || rest.starts_with(char::is_whitespace))
        {
            return Ok(Action::Script {
                steps: super::script::parse_script(rest)?,
            });
        }
        let words: Vec<&str> = s.split_whitespace().collect();
        let Some((&head, rest)) = words.split_first() else {
            return Err("an empty action".into());
        };
        let bare = |a: Action| {
            if rest.is_empty() {
                Ok(a)
            } else {
                Err(format!("`{head}` takes nothing after it"))
            }
        };
        match head {
            "ship" => Ok(Action::Ship {
                ship: one(rest, "a ship")?,
            }),
            "move" => {
                let code: String = one(rest, "a zone")?;
                let d = data::load()?;
                let to = d
                    .zone_index(&code)
                    .ok_or_else(|| format!("{code:?} is not a sea zone"))?;
                Ok(Action::Move { to })
            }
            "enter" => bare(Action::Enter),
            "leave" => match rest {
                [] => Ok(Action::Leave { drop: Vec::new() }),
                ["drop", cards @ ..] if !cards.is_empty() => Ok(Action::Leave {
                    drop: numbers(cards)?,
                }),
                _ => Err("`leave` or `leave drop N ...`".into()),
            },
            "scout" if rest.len() == 2 && rest.first() == Some(&"merchant") => {
                let code = rest.get(1).copied().unwrap_or_default();
                let d = data::load()?;
                let z = d
                    .zone_index(code)
                    .ok_or_else(|| format!("{code:?} is not a sea zone"))?;
                Ok(Action::Scout {
                    target: Target::FarMerchant(z),
                })
            }
            "scout" => {
                let w: String = one(rest, "a target")?;
                let target = if w == "merchant" {
                    Target::Merchant
                } else if w == "mission" {
                    Target::Mission
                } else if w == "rumor" {
                    Target::Rumor
                } else if let Some(n) = w.strip_prefix("npc") {
                    Target::Npc(n.parse().map_err(|_| format!("{w:?} is not a target"))?)
                } else if let Some(n) = w.strip_prefix('p') {
                    Target::Player(Seat(
                        n.parse().map_err(|_| format!("{w:?} is not a target"))?,
                    ))
                } else {
                    return Err(format!("{w:?} is not a target (merchant, pN, npcN)"));
                };
                Ok(Action::Scout { target })
            }
            "port" => bare(Action::Port),
            "sell" if !rest.is_empty() => Ok(Action::Sell {
                cards: numbers(rest)?,
            }),
            "buy" => bare(Action::Buy),
            "take" => Ok(Action::Take {
                cards: numbers(rest)?,
            }),
            "yard" => Ok(Action::Yard {
                ship: one(rest, "a ship")?,
            }),
            "repair" if !rest.is_empty() => Ok(Action::Repair {
                locs: rest
                    .iter()
                    .map(|w| parse_loc(w))
                    .collect::<Result<_, _>>()?,
            }),
            "modify" => bare(Action::Modify),
            "weapon" => Ok(Action::Weapon {
                kind: one(rest, "a weapon number")?,
            }),
            "recruit" => bare(Action::Recruit),
            "hire" => Ok(Action::Hire {
                crew: one(rest, "a crew count")?,
            }),
            "rumor" => bare(Action::Rumor),
            "claim" => bare(Action::Claim),
            "check" => bare(Action::Check),
            "stash" => Ok(Action::Stash {
                amount: one(rest, "an amount")?,
            }),
            "done" => bare(Action::Done),
            "raid" => Ok(Action::RaidAs {
                nation: Some(one(rest, "a nation")?),
            }),
            "let" if rest == ["go"] => Ok(Action::RaidAs { nation: None }),
            "draw" => bare(Action::Draw),
            "discard" if rest.first() == Some(&"glory") => Ok(Action::DiscardGlory {
                card: one(rest.get(1..).unwrap_or_default(), "a glory card number")?,
            }),
            "discard" if rest.first() == Some(&"cargo") => Ok(Action::DiscardCargo {
                card: one(rest.get(1..).unwrap_or_default(), "a cargo card number")?,
            }),
            "discard" => Ok(Action::Discard {
                card: one(rest, "a card number")?,
            }),
            "swap" => Ok(Action::Swap {
                card: one(rest, "a card number")?,
            }),
            "stop" => bare(Action::Stop),
            "keep" => Ok(Action::Keep {
                cards: numbers(rest)?,
            }),
            "end" => bare(Action::End),
            "shoot" | "board" | "flee" => {
                let decl = match head {
                    "shoot" => super::combat::Decl::Shoot,
                    "board" => super::combat::Decl::Board,
                    _ => super::combat::Decl::Flee,
                };
                let weapon = match rest {
                    [] => None,
                    [w] => Some(
                        w.parse()
                            .map_err(|_| format!("{w:?} is not a weapon number"))?,
                    ),
                    _ => return Err(format!("`{head}` or `{head} N`")),
                };
                Ok(Action::Declare { decl, weapon })
            }
            "resell" => Ok(Action::Resell {
                kind: one(rest, "a weapon number")?,
            }),
            "employ" => Ok(Action::Employ {
                card: one(rest, "a glory card number")?,
            }),
            "play" => match rest {
                [c] => Ok(Action::Play {
                    card: c
                        .parse()
                        .map_err(|_| format!("{c:?} is not a card number"))?,
                    cargo: None,
                }),
                [c, "sell", x] => Ok(Action::Play {
                    card: c
                        .parse()
                        .map_err(|_| format!("{c:?} is not a card number"))?,
                    cargo: Some(
                        x.parse()
                            .map_err(|_| format!("{x:?} is not a card number"))?,
                    ),
                }),
                _ => Err("`play N` or `play N sell C`".into()),
            },
            "pass" => bare(Action::Pass),
            "fire" => bare(Action::Fire),
            "reroll" => Ok(Action::Reroll {
                die: one(rest, "a die position")?,
            }),
            "pardon" => Ok(Action::Pardon {
                nation: one(rest, "a nation")?,
            }),
            "redraw" => bare(Action::Redraw),
            "plunder" => {
                let num = |w: &str| {
                    w.parse::<u8>()
                        .map_err(|_| format!("{w:?} is not a number"))
                };
                let item =
                    match rest {
                        ["gold"] => Loot::Gold,
                        ["rumor"] => Loot::Rumor,
                        ["all"] => Loot::All,
                        ["cargo", n] => Loot::Cargo(num(n)?),
                        ["glory", n] => Loot::Glory(num(n)?),
                        ["specialist", n] => Loot::Specialist(num(n)?),
                        ["weapon", n] => Loot::Weapon(num(n)?),
                        _ => return Err(
                            "`plunder gold|rumor|all` or `plunder cargo|glory|specialist|weapon N`"
                                .into(),
                        ),
                    };
                Ok(Action::Plunder { item })
            }
            "capture" => bare(Action::Capture),
            "pick" => Ok(Action::Pick {
                option: one(rest, "an option number")?,
            }),
            "place" => {
                let code: String = one(rest, "a port")?;
                let d = data::load()?;
                let to = d
                    .zone_index(&code)
                    .ok_or_else(|| format!("{code:?} is not a port"))?;
                Ok(Action::Place { to })
            }
            _ => Err(format!("{sent:?} is not a Merchants & Marauders action")),
        }
    }
}
