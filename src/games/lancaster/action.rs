//! Lancaster actions: the typed wire form (`{"type": "place", ...}`) and the one-line notation.
//!
//! | Action          | Notation                  | Example     | Decision (spec §15) |
//! |-----------------|---------------------------|-------------|---------------------|
//! | start_extension | `X:<space>`               | `X:K3`      | D1 |
//! | place           | `P:<strength>@<target>[+<squires>]`, ally `P:a<strength>@...` | `P:1@H+2`, `P:a2@X03` | D2 |
//! | favour          | `F:<tile>`                | `F:F4`      | D2a |
//! | vote            | `V:Y` / `V:N`, `+<markers>`; `V:-` abstains | `V:Y+2` | D3 |
//! | exchange        | `E:<times>`               | `E:3`       | D4 |
//! | upgrade         | `U:<knight>` / `U:-`      | `U:1b`, `U:a2a` | EFF-3 |
//! | build           | `B:<space>`               | `B:K4`      | EFF-4 |
//! | noble           | `N:<letter>`              | `N:C`       | EFF-5 |
//! | county          | `C:N` noble, `C:R` reward, `C:B` both | `C:B` | D5 |
//! | passage         | `T:<card>` / `T:-`        | `T:X05`     | EFF-7 |
//! | start_player    | `S:<seat>`                | `S:2`       | D5-I |
//! | reward          | `O:<option>` (1 the first) | `O:2`      | D5, a county with reward options |
//! | castle          | `K:<space>`, `K:<space>-` declines | `K:K2-` | D6 |
//! | ransom          | `R:<knight>` / `R:-` stops | `R:3`      | D7a |
//!
//! Notation is case-insensitive and ignores spaces; `Display` writes the canonical form.
//!
//! The abstention `V:-` (`{"type": "vote", "yes": null}`) is no choice of the rulebook: it is
//! the ballot a late or dropped seat casts by default (design.md section 14: the default harms
//! only the late seat), counted for neither side. Being the default, it is an action like any
//! other (stored in the history, replayed by `herald verify`) and the engine accepts it, but it
//! is never listed, and the server refuses it from a player (LAN-PAR-2,
//! `Game::chosen_by_player`).

use super::ids::{CardId, CountyId, FavourId, Piece, Space, Target};
use crate::engine::Seat;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// LAN-RWC-2: what the occupant of a county takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Take {
    Noble,
    Reward,
    Both,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    StartExtension {
        space: Space,
    },
    Place {
        /// The strength of the court knight to place.
        knight: u8,
        /// The ally's knight (two-player game).
        #[serde(default)]
        ally: bool,
        target: Target,
        #[serde(default)]
        squires: u32,
    },
    Favour {
        tile: FavourId,
    },
    Vote {
        /// `None` abstains (the default of a late seat, never listed): counted for neither
        /// side. `"yes"` must be given, as `null` to abstain.
        #[serde(deserialize_with = "given")]
        yes: Option<bool>,
        #[serde(default)]
        markers: u32,
    },
    Exchange {
        times: u32,
    },
    /// `None` declines.
    Upgrade {
        knight: Option<Piece>,
    },
    Build {
        space: Space,
    },
    Noble {
        county: CountyId,
    },
    County {
        take: Take,
    },
    /// `None` declines.
    Passage {
        card: Option<CardId>,
    },
    StartPlayer {
        seat: Seat,
    },
    /// The reward option of a county that offers several (`reward_options`), 1 the first.
    Reward {
        option: u8,
    },
    Castle {
        space: Space,
        #[serde(default = "yes")]
        take: bool,
    },
    /// `None` stops ransoming; the rest go to the reserve.
    Ransom {
        knight: Option<Piece>,
    },
}

fn yes() -> bool {
    true
}

/// An `Option` field that must be present (`null` for `None`): with `deserialize_with` serde no
/// longer reads a missing field as `None`, so `{"type": "vote"}` is refused, not an abstention.
fn given<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    Option::<bool>::deserialize(d)
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn opt<T: fmt::Display>(f: &mut fmt::Formatter<'_>, x: &Option<T>) -> fmt::Result {
            match x {
                Some(v) => write!(f, "{v}"),
                None => f.write_str("-"),
            }
        }
        match self {
            Action::StartExtension { space } => write!(f, "X:{space}"),
            Action::Place {
                knight,
                ally,
                target,
                squires,
            } => {
                write!(f, "P:{}{knight}@{target}", if *ally { "a" } else { "" })?;
                if *squires > 0 {
                    write!(f, "+{squires}")?;
                }
                Ok(())
            }
            Action::Favour { tile } => write!(f, "F:{tile}"),
            Action::Vote { yes, markers } => {
                let side = match yes {
                    Some(true) => "Y",
                    Some(false) => "N",
                    None => "-",
                };
                write!(f, "V:{side}")?;
                if *markers > 0 {
                    write!(f, "+{markers}")?;
                }
                Ok(())
            }
            Action::Exchange { times } => write!(f, "E:{times}"),
            Action::Upgrade { knight } => {
                f.write_str("U:")?;
                opt(f, knight)
            }
            Action::Build { space } => write!(f, "B:{space}"),
            Action::Noble { county } => write!(f, "N:{county}"),
            Action::County { take } => f.write_str(match take {
                Take::Noble => "C:N",
                Take::Reward => "C:R",
                Take::Both => "C:B",
            }),
            Action::Passage { card } => {
                f.write_str("T:")?;
                opt(f, card)
            }
            Action::StartPlayer { seat } => write!(f, "S:{seat}"),
            Action::Reward { option } => write!(f, "O:{option}"),
            Action::Castle { space, take } => {
                write!(f, "K:{space}{}", if *take { "" } else { "-" })
            }
            Action::Ransom { knight } => {
                f.write_str("R:")?;
                opt(f, knight)
            }
        }
    }
}

/// Why a notation string could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot read {text:?} as a Lancaster action: {reason}")]
pub struct NotationError {
    pub text: String,
    pub reason: String,
}

fn number(s: &str) -> Result<u32, String> {
    s.parse::<u32>()
        .map_err(|_| format!("{s:?} is not a count"))
}

fn optional<T: FromStr<Err = String>>(s: &str) -> Result<Option<T>, String> {
    if s == "-" {
        Ok(None)
    } else {
        s.parse().map(Some)
    }
}

fn parse(text: &str) -> Result<Action, String> {
    let s: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let (head, body) = s
        .split_once(':')
        .ok_or("expected a letter, a colon and the action's arguments")?;
    match head.to_ascii_uppercase().as_str() {
        "X" => Ok(Action::StartExtension {
            space: body.parse()?,
        }),
        "P" => {
            let (knight, rest) = body.split_once('@').ok_or("expected <strength>@<target>")?;
            let (ally, k) = match knight.strip_prefix(['a', 'A']) {
                Some(k) => (true, k),
                None => (false, knight),
            };
            let knight = k
                .parse::<u8>()
                .map_err(|_| format!("{k:?} is not a knight strength"))?;
            let (target, squires) = match rest.split_once('+') {
                Some((t, n)) => (t, number(n)?),
                None => (rest, 0),
            };
            Ok(Action::Place {
                knight,
                ally,
                target: target.parse()?,
                squires,
            })
        }
        "F" => Ok(Action::Favour {
            tile: body.parse()?,
        }),
        "V" => {
            let (side, markers) = match body.split_once('+') {
                Some((a, n)) => (a, number(n)?),
                None => (body, 0),
            };
            let yes = match side.to_ascii_uppercase().as_str() {
                "Y" | "YES" => Some(true),
                "N" | "NO" => Some(false),
                "-" => None,
                _ => return Err(format!("{side:?} is not Y or N")),
            };
            Ok(Action::Vote { yes, markers })
        }
        "E" => Ok(Action::Exchange {
            times: number(body)?,
        }),
        "U" => Ok(Action::Upgrade {
            knight: optional(body)?,
        }),
        "B" => Ok(Action::Build {
            space: body.parse()?,
        }),
        "N" => Ok(Action::Noble {
            county: body.parse()?,
        }),
        "C" => {
            let take = match body.to_ascii_uppercase().as_str() {
                "N" | "NOBLE" => Take::Noble,
                "R" | "REWARD" => Take::Reward,
                "B" | "BOTH" => Take::Both,
                _ => return Err(format!("{body:?} is not N, R or B")),
            };
            Ok(Action::County { take })
        }
        "T" => Ok(Action::Passage {
            card: optional(body)?,
        }),
        "S" => Ok(Action::StartPlayer {
            seat: Seat(
                body.parse::<u8>()
                    .map_err(|_| format!("{body:?} is not a seat"))?,
            ),
        }),
        "O" => Ok(Action::Reward {
            option: body
                .parse::<u8>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("{body:?} is not an option number (1, 2, ...)"))?,
        }),
        "K" => {
            let (space, take) = match body.strip_suffix('-') {
                Some(s) => (s, false),
                None => (body, true),
            };
            Ok(Action::Castle {
                space: space.parse()?,
                take,
            })
        }
        "R" => Ok(Action::Ransom {
            knight: optional(body)?,
        }),
        other => Err(format!(
            "{other:?} is not an action letter (X P F V E U B N C T S O K R)"
        )),
    }
}

impl FromStr for Action {
    type Err = NotationError;
    fn from_str(text: &str) -> Result<Action, NotationError> {
        parse(text).map_err(|reason| NotationError {
            text: text.chars().take(80).collect(),
            reason,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_for_every_kind_of_action() {
        for s in [
            "X:K3", "P:1@H+2", "P:a2@X03", "P:4@K6", "P:a1@AK1", "F:F4", "V:Y+2", "V:N", "V:-",
            "E:3", "U:1b", "U:a2a", "U:-", "B:K4", "N:C", "C:N", "C:R", "C:B", "T:X05", "T:-",
            "S:2", "K:K2", "K:K2-", "K:AK2", "R:3", "R:-", "O:1", "O:2",
        ] {
            let action: Action = s.parse().unwrap();
            assert_eq!(action.to_string(), s);
            let json = serde_json::to_value(&action).unwrap();
            assert_eq!(serde_json::from_value::<Action>(json).unwrap(), action);
        }
    }

    #[test]
    fn notation_ignores_case_and_spaces() {
        assert_eq!(
            " p : 1 @ h + 2 ".parse::<Action>().unwrap(),
            "P:1@H+2".parse::<Action>().unwrap()
        );
        assert_eq!(
            "v:yes".parse::<Action>().unwrap(),
            "V:Y".parse::<Action>().unwrap()
        );
    }

    #[test]
    fn bad_notation_says_what_is_wrong() {
        for (s, want) in [
            ("Q:1", "not an action letter"),
            ("P:1@Z", "not a county"),
            ("V:maybe", "not Y or N"),
            ("U:9", "not a knight"),
            ("hello", "colon"),
        ] {
            let e = s.parse::<Action>().unwrap_err();
            assert!(e.to_string().contains(want), "{s}: {e}");
        }
    }

    #[test]
    fn the_wire_form_is_typed_json() {
        let a: Action = "P:1@H+2".parse().unwrap();
        assert_eq!(
            serde_json::to_value(&a).unwrap(),
            serde_json::json!({"type": "place", "knight": 1, "ally": false, "target": "H", "squires": 2})
        );
        let v: Action =
            serde_json::from_value(serde_json::json!({"type": "vote", "yes": false})).unwrap();
        assert_eq!(v, "V:N".parse().unwrap());
        assert!(
            serde_json::from_value::<Action>(
                serde_json::json!({"type": "vote", "yes": true, "x": 1})
            )
            .is_err()
        );
        // The abstention: `yes` given as null; a vote without `yes` is refused.
        let a: Action =
            serde_json::from_value(serde_json::json!({"type": "vote", "yes": null})).unwrap();
        assert_eq!(a, "V:-".parse().unwrap());
        assert_eq!(
            serde_json::to_value(&a).unwrap(),
            serde_json::json!({"type": "vote", "yes": null, "markers": 0})
        );
        assert!(serde_json::from_value::<Action>(serde_json::json!({"type": "vote"})).is_err());
    }
}
