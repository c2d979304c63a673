//! Small closed vocabularies of the rules: nations, compass letters, hit locations, skills and
//! ship kinds. Zones and cards are numbered by their row in `data.json` (a zone by its D-ZONE
//! row, a cargo card 0..64 by good and copy, a glory card 0..70 by design and copy).
//!
//! Their names are read in any case (`es`, `Sloop`: phone keyboards capitalise) and written
//! in one.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A sea zone (and its port): the D-ZONE row.
pub type ZoneId = u8;
/// A cargo card: good `n / 8`, copy `n % 8` (D-CARGO).
pub type CargoId = u8;
/// A glory card: design `n / copies` (D-GLORY).
pub type GloryId = u8;

/// D-NATION.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Nation {
    ES,
    EN,
    FR,
    NL,
}

impl Nation {
    pub const ALL: [Nation; 4] = [Nation::ES, Nation::EN, Nation::FR, Nation::NL];

    pub fn index(self) -> usize {
        self as usize
    }
}

impl FromStr for Nation {
    type Err = String;

    fn from_str(s: &str) -> Result<Nation, String> {
        Nation::ALL
            .into_iter()
            .find(|n| format!("{n:?}").eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("{s:?} is not a nation (ES, EN, FR, NL)"))
    }
}

impl fmt::Display for Nation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

/// A compass letter on a border (D-ADJ).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Dir {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Dir {
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::NE,
        Dir::E,
        Dir::SE,
        Dir::S,
        Dir::SW,
        Dir::W,
        Dir::NW,
    ];

    pub fn opposite(self) -> Dir {
        let i = (self as usize + 4) % 8;
        Dir::ALL.get(i).copied().unwrap_or(Dir::N)
    }
}

impl FromStr for Dir {
    type Err = String;

    fn from_str(s: &str) -> Result<Dir, String> {
        Dir::ALL
            .into_iter()
            .find(|d| format!("{d:?}").eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("{s:?} is not a compass letter"))
    }
}

/// A hit location (plus Maneuverability, which only a modification changes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Loc {
    Hull,
    Masts,
    Cannons,
    Crew,
    Cargo,
    Maneuver,
}

impl Loc {
    /// The five hit locations, in player-board order.
    pub const HITS: [Loc; 5] = [Loc::Hull, Loc::Masts, Loc::Cannons, Loc::Crew, Loc::Cargo];
}

/// A captain's skill (MM-DICE-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Skill {
    Seamanship,
    Scouting,
    Leadership,
    Influence,
}

/// D-SHIP, in table order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ship {
    Sloop,
    Flute,
    Frigate,
    Galleon,
    ManOWar,
}

impl Ship {
    pub const ALL: [Ship; 5] = [
        Ship::Sloop,
        Ship::Flute,
        Ship::Frigate,
        Ship::Galleon,
        Ship::ManOWar,
    ];

    pub fn word(self) -> &'static str {
        match self {
            Ship::Sloop => "sloop",
            Ship::Flute => "flute",
            Ship::Frigate => "frigate",
            Ship::Galleon => "galleon",
            Ship::ManOWar => "man_o_war",
        }
    }
}

impl FromStr for Ship {
    type Err = String;

    fn from_str(s: &str) -> Result<Ship, String> {
        Ship::ALL
            .into_iter()
            .find(|k| k.word().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("{s:?} is not a ship (sloop, flute, frigate, galleon)"))
    }
}

impl fmt::Display for Ship {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}
