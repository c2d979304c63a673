//! Names of things on the table, as they appear in JSON and notation: counties `A`-`I`, castle
//! spaces `K1`-`K6` (the ally's `AK1`, `AK2`), conflict cards `X01`..., laws `L01`..., favour tiles
//! `F1`..., and knight pieces `1a 1b 1c 2a 2b 3 4` (an ally's with a leading `a`: `a2a`).

use super::data::data;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

macro_rules! string_serde {
    ($t:ty) => {
        impl TryFrom<String> for $t {
            type Error = String;
            fn try_from(s: String) -> Result<Self, String> {
                s.parse()
            }
        }
        impl From<$t> for String {
            fn from(v: $t) -> String {
                v.to_string()
            }
        }
    };
}

/// A county by its index 0-8 (letters A-I).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct CountyId(pub u8);

impl fmt::Display for CountyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", char::from(b'A'.saturating_add(self.0)))
    }
}

impl FromStr for CountyId {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let n = data().counties.len().min(26) as u8;
        let last = char::from(b'A' + n.saturating_sub(1));
        let mut c = s.chars();
        match (c.next().map(|x| x.to_ascii_uppercase()), c.next()) {
            (Some(x), None) if ('A'..=last).contains(&x) && n > 0 => Ok(CountyId(x as u8 - b'A')),
            _ => Err(format!("{s:?} is not a county letter (A-{last})")),
        }
    }
}
string_serde!(CountyId);

/// A castle space: of a player's castle (`K1`-`K6`) or of an ally's (`AK1`, `AK2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Space {
    pub ally: bool,
    pub idx: u8,
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match data().space(self.ally, usize::from(self.idx)) {
            Some(s) => f.write_str(&s.id),
            None => write!(f, "?{}", self.idx),
        }
    }
}

impl FromStr for Space {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let d = data();
        for ally in [false, true] {
            let spaces = if ally {
                &d.ally_castle_spaces
            } else {
                &d.castle_spaces
            };
            if let Some(i) = spaces.iter().position(|x| x.id.eq_ignore_ascii_case(s)) {
                return Ok(Space { ally, idx: i as u8 });
            }
        }
        Err(format!("{s:?} is not a castle space"))
    }
}
string_serde!(Space);

/// A conflict card by its index in the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct CardId(pub u8);

impl fmt::Display for CardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match data().conflict(usize::from(self.0)) {
            Some(c) => f.write_str(&c.id),
            None => write!(f, "?{}", self.0),
        }
    }
}

impl FromStr for CardId {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        data()
            .conflicts
            .iter()
            .position(|c| c.id.eq_ignore_ascii_case(s))
            .map(|i| CardId(i as u8))
            .ok_or_else(|| format!("{s:?} is not a conflict card"))
    }
}
string_serde!(CardId);

/// A law card by its index in the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct LawId(pub u8);

impl fmt::Display for LawId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match data().law(usize::from(self.0)) {
            Some(c) => f.write_str(&c.id),
            None => write!(f, "?{}", self.0),
        }
    }
}

impl FromStr for LawId {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        data()
            .laws
            .iter()
            .position(|c| c.id.eq_ignore_ascii_case(s))
            .map(|i| LawId(i as u8))
            .ok_or_else(|| format!("{s:?} is not a law"))
    }
}
string_serde!(LawId);

/// A King's favour tile by its index in the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct FavourId(pub u8);

impl fmt::Display for FavourId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match data().favours.get(usize::from(self.0)) {
            Some(c) => f.write_str(&c.id),
            None => write!(f, "?{}", self.0),
        }
    }
}

impl FromStr for FavourId {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        data()
            .favours
            .iter()
            .position(|c| c.id.eq_ignore_ascii_case(s))
            .map(|i| FavourId(i as u8))
            .ok_or_else(|| format!("{s:?} is not a King's favour tile"))
    }
}
string_serde!(FavourId);

/// One knight piece of a colour (`ally` for the ally's pieces), by its index 0-6 in
/// `DAT-KNIGHTS`: `1a 1b 1c 2a 2b 3 4`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Piece {
    pub ally: bool,
    pub idx: u8,
}

impl Piece {
    pub fn strength(self) -> u8 {
        data().strength(usize::from(self.idx))
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = data();
        let i = usize::from(self.idx);
        let s = d.strength(i);
        if self.ally {
            f.write_str("a")?;
        }
        write!(f, "{s}")?;
        let same = d.knights.iter().filter(|k| **k == s).count();
        if same > 1 {
            let nth = d.knights.iter().take(i).filter(|k| **k == s).count();
            write!(f, "{}", char::from(b'a'.saturating_add(nth as u8)))?;
        }
        Ok(())
    }
}

impl FromStr for Piece {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let lower = s.to_ascii_lowercase();
        let (ally, rest) = match lower.strip_prefix('a') {
            Some(r) => (true, r),
            None => (false, lower.as_str()),
        };
        (0..data().knights.len())
            .map(|i| Piece {
                ally: false,
                idx: i as u8,
            })
            .find(|p| p.to_string() == rest)
            .map(|p| Piece { ally, ..p })
            .ok_or_else(|| format!("{s:?} is not a knight (1a 1b 1c 2a 2b 3 4, a... for the ally)"))
    }
}
string_serde!(Piece);

/// Where a knight is placed (D2): a county, a castle space or a conflict card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Target {
    County(CountyId),
    Castle(Space),
    Conflict(CardId),
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::County(c) => c.fmt(f),
            Target::Castle(s) => s.fmt(f),
            Target::Conflict(x) => x.fmt(f),
        }
    }
}

impl FromStr for Target {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        if let Ok(c) = s.parse() {
            return Ok(Target::County(c));
        }
        if let Ok(c) = s.parse() {
            return Ok(Target::Castle(c));
        }
        if let Ok(c) = s.parse() {
            return Ok(Target::Conflict(c));
        }
        Err(format!(
            "{s:?} is not a county, a castle space or a conflict card"
        ))
    }
}
string_serde!(Target);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for s in ["1a", "1b", "1c", "2a", "2b", "3", "4", "a1c", "a3"] {
            assert_eq!(s.parse::<Piece>().unwrap().to_string(), s);
        }
        for s in ["A", "I", "K1", "K6", "AK1", "AK2", "X01", "X12"] {
            assert_eq!(s.parse::<Target>().unwrap().to_string(), s);
        }
        assert!("J".parse::<CountyId>().is_err());
        assert!("5".parse::<Piece>().is_err());
        assert_eq!("L07".parse::<LawId>().unwrap().to_string(), "L07");
        assert_eq!("F6".parse::<FavourId>().unwrap().to_string(), "F6");
    }
}
