//! Typed actions, their JSON shape and their one-line notation (`Display` + `FromStr`, round
//! trip tested). Zones are written by their D-ZONE code (`move SJU`), cargo cards by number.

use super::data;
use super::ids::{CargoId, Loc, Nation, Ship, ZoneId};
use super::state::Target;
use crate::engine::Seat;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
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
    /// `keep 3 17` (MM-RAID-6).
    Keep {
        cards: Vec<CargoId>,
    },
    /// `shoot` / `board` / `flee`: a combat declaration (MM-NAV-4).
    Declare {
        decl: super::combat::Decl,
    },
    /// `end`: end the turn (MM-ACT-1).
    End,
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

fn loc_word(l: Loc) -> &'static str {
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
            Action::Keep { cards } => list(f, "keep", cards),
            Action::Declare { decl } => f.write_str(decl.word()),
            Action::End => f.write_str("end"),
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

    fn from_str(s: &str) -> Result<Action, String> {
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
            "scout" => {
                let w: String = one(rest, "a target")?;
                let target = if w == "merchant" {
                    Target::Merchant
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
            "shoot" => bare(Action::Declare {
                decl: super::combat::Decl::Shoot,
            }),
            "board" => bare(Action::Declare {
                decl: super::combat::Decl::Board,
            }),
            "flee" => bare(Action::Declare {
                decl: super::combat::Decl::Flee,
            }),
            _ => Err(format!("{s:?} is not a Merchants & Marauders action")),
        }
    }
}
