//! Magnate actions: the typed wire form (`{"type": "build", ...}`, api.md) and the one-line text
//! notation, which follows Abstract Play's so its move records translate one to one.
//!
//! | Action  | Notation                         | Example          |
//! |---------|----------------------------------|------------------|
//! | build   | `B:<card>@<district>+<payment>`  | `B:4VL@b+V+L3`   |
//! | deed    | `D:<card>@<district>`            | `D:9VY@b`        |
//! | sell    | `S:<card>`                       | `S:6SY`          |
//! | develop | `A:<card>+<payment>`             | `A:9VY+V2+Y`     |
//! | trade   | `T:<given>+<taken suit>`         | `T:Y3+M`         |
//! | prefer  | `P:<card>+<suit>`                | `P:9VY+Y`        |
//! | end     | `E`                              | `E`              |
//! | roll    | `R:<d10>,<d10>[/<d6>[,<d6>]]`    | `R:1,7/4` (referee only) |
//!
//! A payment is `+`-joined suit letters, each with a count when above one (`V3+L`). Notation is
//! case-insensitive and ignores spaces; [`Action`]'s `Display` writes the canonical form (upper
//! case cards and suits, lower case districts, suits in canonical order).

use super::cards::{Card, District, Suit};
use super::tokens::{MAX_COUNT, Tokens};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The tax dice of a referee roll: one face, or two with `tax_dice = 2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TaxDice {
    One(u8),
    Two([u8; 2]),
}

impl TaxDice {
    pub fn faces(self) -> [u8; 2] {
        match self {
            TaxDice::One(a) => [a, 0],
            TaxDice::Two(f) => f,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// MAG-BUILD: develop a card outright.
    Build {
        card: Card,
        district: District,
        payment: Tokens,
    },
    /// MAG-DEED: buy a deed (the price is implied).
    Deed { card: Card, district: District },
    /// MAG-SELL.
    Sell { card: Card },
    /// MAG-DEV: put tokens on one of your deeds.
    Develop { card: Card, payment: Tokens },
    /// MAG-TRADE: three tokens to the bank for one.
    Trade { give: Tokens, take: Suit },
    /// MAG-INC-6: the standing income preference for one of your deeds (any time).
    Prefer { card: Card, suit: Suit },
    /// MAG-TURN-4: draw and pass the turn.
    End,
    /// MAG-ROLL with chosen dice: accepted by the referee only; the server rolls by itself.
    Roll {
        d10: [u8; 2],
        #[serde(default, skip_serializing_if = "Option::is_none")]
        d6: Option<TaxDice>,
    },
}

impl Action {
    /// The wire `type` of this action.
    pub fn kind(&self) -> &'static str {
        match self {
            Action::Build { .. } => "build",
            Action::Deed { .. } => "deed",
            Action::Sell { .. } => "sell",
            Action::Develop { .. } => "develop",
            Action::Trade { .. } => "trade",
            Action::Prefer { .. } => "prefer",
            Action::End => "end",
            Action::Roll { .. } => "roll",
        }
    }

    /// Whether this is a card play (MAG-PLAY-1).
    pub fn is_card_play(&self) -> bool {
        matches!(
            self,
            Action::Build { .. } | Action::Deed { .. } | Action::Sell { .. }
        )
    }
}

fn write_tokens(f: &mut fmt::Formatter<'_>, t: &Tokens) -> fmt::Result {
    for (s, n) in t.iter() {
        if n == 1 {
            write!(f, "+{s}")?;
        } else {
            write!(f, "+{s}{n}")?;
        }
    }
    Ok(())
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Build {
                card,
                district,
                payment,
            } => {
                write!(f, "B:{card}@{district}")?;
                write_tokens(f, payment)
            }
            Action::Deed { card, district } => write!(f, "D:{card}@{district}"),
            Action::Sell { card } => write!(f, "S:{card}"),
            Action::Develop { card, payment } => {
                write!(f, "A:{card}")?;
                write_tokens(f, payment)
            }
            Action::Trade { give, take } => {
                // The given tokens without their leading '+', then the taken suit.
                let given = {
                    struct G<'a>(&'a Tokens);
                    impl fmt::Display for G<'_> {
                        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                            write_tokens(f, self.0)
                        }
                    }
                    G(give).to_string()
                };
                write!(f, "T:{}+{take}", given.trim_start_matches('+'))
            }
            Action::Prefer { card, suit } => write!(f, "P:{card}+{suit}"),
            Action::End => f.write_str("E"),
            Action::Roll { d10: [a, b], d6 } => {
                write!(f, "R:{a},{b}")?;
                // By the dice named, not by their faces: `R:1,1/2,0` names two dice and must
                // read back as two.
                match d6 {
                    Some(TaxDice::One(x)) => write!(f, "/{x}"),
                    Some(TaxDice::Two([x, y])) => write!(f, "/{x},{y}"),
                    None => Ok(()),
                }
            }
        }
    }
}

/// Why a notation string could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot read {text:?} as a Magnate action: {reason}")]
pub struct NotationError {
    pub text: String,
    pub reason: String,
}

fn card(s: &str) -> Result<Card, String> {
    Card::from_code(s).ok_or_else(|| format!("{s:?} is not a card code"))
}

fn suit(s: &str) -> Result<Suit, String> {
    let mut chars = s.chars();
    match (chars.next().and_then(Suit::from_letter), chars.next()) {
        (Some(x), None) => Ok(x),
        _ => Err(format!("{s:?} is not a suit letter (M S V L Y K)")),
    }
}

/// One payment part: a suit letter and an optional count (`V3`, `L`).
fn part(s: &str) -> Result<(Suit, u16), String> {
    let mut chars = s.chars();
    let x = chars
        .next()
        .and_then(Suit::from_letter)
        .ok_or_else(|| format!("{s:?} is not a suit with a count"))?;
    let rest = chars.as_str();
    let n = if rest.is_empty() {
        1
    } else {
        rest.parse::<u16>()
            .map_err(|_| format!("{s:?} has no valid count"))?
    };
    if n == 0 || n > MAX_COUNT {
        return Err(format!("{s:?}: a count must be between 1 and {MAX_COUNT}"));
    }
    Ok((x, n))
}

fn tokens<'a>(parts: impl Iterator<Item = &'a str>) -> Result<Tokens, String> {
    let mut t = Tokens::NONE;
    for p in parts {
        let (x, n) = part(p)?;
        t.add(x, n);
        // Parts of one suit add up (`V9000+V9000`): the sum has the JSON form's limit too.
        if t.get(x) > MAX_COUNT {
            return Err(format!(
                "{} tokens of {x} is more than {MAX_COUNT}",
                t.get(x)
            ));
        }
    }
    Ok(t)
}

fn die(s: &str) -> Result<u8, String> {
    s.parse::<u8>()
        .map_err(|_| format!("{s:?} is not a die face"))
}

fn parse(text: &str) -> Result<Action, String> {
    let s: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    if s.eq_ignore_ascii_case("e") || s.eq_ignore_ascii_case("end") {
        return Ok(Action::End);
    }
    let (head, body) = s
        .split_once(':')
        .ok_or("expected a letter, a colon and the action's arguments")?;
    match head.to_ascii_uppercase().as_str() {
        "B" | "D" => {
            let (c, rest) = body.split_once('@').ok_or("expected <card>@<district>")?;
            let mut parts = rest.split('+');
            let d = parts.next().unwrap_or_default();
            let mut chars = d.chars();
            let district = match (chars.next().and_then(District::from_letter), chars.next()) {
                (Some(x), None) => x,
                _ => return Err(format!("{d:?} is not a district (a-e)")),
            };
            let card = card(c)?;
            if head.eq_ignore_ascii_case("d") {
                if parts.next().is_some() {
                    return Err("a deed's price is implied: write D:<card>@<district>".into());
                }
                return Ok(Action::Deed { card, district });
            }
            Ok(Action::Build {
                card,
                district,
                payment: tokens(parts)?,
            })
        }
        "S" => Ok(Action::Sell { card: card(body)? }),
        "A" => {
            let mut parts = body.split('+');
            let c = card(parts.next().unwrap_or_default())?;
            Ok(Action::Develop {
                card: c,
                payment: tokens(parts)?,
            })
        }
        "T" => {
            let parts: Vec<&str> = body.split('+').collect();
            let (take, give) = parts
                .split_last()
                .ok_or("expected the given tokens and the taken suit")?;
            if give.is_empty() {
                return Err("expected the given tokens, then + and the taken suit".into());
            }
            // `T:+M` is what a trade giving nothing writes: it reads back as one, for the rules
            // to refuse (MAG-TRADE-1) as they refuse the same JSON.
            let give = match give {
                [""] => Tokens::NONE,
                _ => tokens(give.iter().copied())?,
            };
            Ok(Action::Trade {
                give,
                take: suit(take)?,
            })
        }
        "P" => {
            let (c, x) = body.split_once('+').ok_or("expected <card>+<suit>")?;
            Ok(Action::Prefer {
                card: card(c)?,
                suit: suit(x)?,
            })
        }
        "R" => {
            let (d10, d6) = match body.split_once('/') {
                Some((a, b)) => (a, Some(b)),
                None => (body, None),
            };
            let (a, b) = d10
                .split_once(',')
                .ok_or("expected two d10 faces, R:<a>,<b>")?;
            let d6 = match d6 {
                None => None,
                Some(t) => Some(match t.split_once(',') {
                    Some((x, y)) => TaxDice::Two([die(x)?, die(y)?]),
                    None => TaxDice::One(die(t)?),
                }),
            };
            Ok(Action::Roll {
                d10: [die(a)?, die(b)?],
                d6,
            })
        }
        other => Err(format!("{other:?} is not an action letter (B D S A T P E)")),
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

    fn a(s: &str) -> Action {
        s.parse().unwrap()
    }

    #[test]
    fn notation_round_trips_for_every_kind_of_action() {
        for s in [
            "B:4VL@b+V+L3",
            "D:9VY@b",
            "S:6SY",
            "A:9VY+V2+Y",
            "T:Y3+M",
            "T:M+V+L+S",
            "P:9VY+Y",
            "E",
            "R:1,7/4",
            "R:10,3",
            "R:1,1/2,5",
            "R:1,1/2,0",
            "T:+M",
            "B:TMVK@a+M3+V3+K4",
        ] {
            let action = a(s);
            assert_eq!(action.to_string(), s);
            let json = serde_json::to_value(&action).unwrap();
            assert_eq!(serde_json::from_value::<Action>(json).unwrap(), action);
        }
    }

    #[test]
    fn notation_ignores_case_and_spaces() {
        assert_eq!(a(" b:4vl @ B + v + l3 "), a("B:4VL@b+V+L3"));
        assert_eq!(a("end"), Action::End);
        assert_eq!(a("A:9VY+V+V"), a("A:9VY+V2"));
    }

    #[test]
    fn bad_notation_says_what_is_wrong() {
        for (s, want) in [
            ("X:1M", "not an action letter"),
            ("B:4VL@f+V", "not a district"),
            ("S:4LV", "not a card code"),
            ("T:Y3", "taken suit"),
            ("B:4VL@b+V0", "between 1 and"),
            ("B:4VL@b+V9000+V9000", "more than 10000"),
            ("D:4VL@b+V", "implied"),
            ("hello", "colon"),
        ] {
            let e = s.parse::<Action>().unwrap_err();
            assert!(e.to_string().contains(want), "{s}: {e}");
        }
    }

    #[test]
    fn the_wire_form_matches_the_api_contract() {
        let b = a("B:4VL@b+V+L3");
        assert_eq!(
            serde_json::to_value(&b).unwrap(),
            serde_json::json!({"type": "build", "card": "4VL", "district": "b", "payment": {"V": 1, "L": 3}})
        );
        assert_eq!(
            serde_json::to_value(Action::End).unwrap(),
            serde_json::json!({"type": "end"})
        );
        let t: Action = serde_json::from_value(
            serde_json::json!({"type": "trade", "give": {"Y": 3}, "take": "M"}),
        )
        .unwrap();
        assert_eq!(t, a("T:Y3+M"));
        assert!(
            serde_json::from_value::<Action>(
                serde_json::json!({"type": "sell", "card": "1M", "extra": 1})
            )
            .is_err()
        );
        assert!(serde_json::from_value::<Action>(serde_json::json!({"type": "fly"})).is_err());
    }
}
