//! Tie-breaks, each with the stable name api.md gives it, computed from a [`Ledger`] of results.
//!
//! Definitions (two-seat games; for tables every other seat at the table counts as an opponent,
//! beaten when it placed worse, drawn when it placed equal):
//! - `sonneborn_berger`: the sum of the final scores of the opponents beaten plus half the scores
//!   of the opponents drawn.
//! - `buchholz`: the sum of the opponents' final scores. A round without a played game (bye,
//!   forfeit) contributes 0.
//! - `buchholz_cut1`: Buchholz less the least contribution of a round.
//! - `median_buchholz`: Buchholz less the greatest and the least contribution.
//! - `head_to_head`: the points scored in games among the entrants still tied when this
//!   tie-break applies (same points and same earlier tie-breaks).
//! - `wins`: games won over the board (forfeit wins not counted).
//! - `game_score`: the sum of the game's own scores (as the service reports them per seat).
//! - `rating`: the entrant's rating (none counts as 0).

use super::standings::Ledger;
use super::{EntrantId, Points};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

/// The tie-breaks an organiser may order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    SonnebornBerger,
    Buchholz,
    #[serde(rename = "buchholz_cut1")]
    BuchholzCut1,
    MedianBuchholz,
    HeadToHead,
    Wins,
    GameScore,
    Rating,
}

impl TieBreak {
    pub const ALL: [TieBreak; 8] = [
        TieBreak::SonnebornBerger,
        TieBreak::Buchholz,
        TieBreak::BuchholzCut1,
        TieBreak::MedianBuchholz,
        TieBreak::HeadToHead,
        TieBreak::Wins,
        TieBreak::GameScore,
        TieBreak::Rating,
    ];

    /// The stable name (API, CSV header, page).
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::SonnebornBerger => "sonneborn_berger",
            TieBreak::Buchholz => "buchholz",
            TieBreak::BuchholzCut1 => "buchholz_cut1",
            TieBreak::MedianBuchholz => "median_buchholz",
            TieBreak::HeadToHead => "head_to_head",
            TieBreak::Wins => "wins",
            TieBreak::GameScore => "game_score",
            TieBreak::Rating => "rating",
        }
    }
}

impl fmt::Display for TieBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown tie-break {0:?}")]
pub struct UnknownTieBreak(pub String);

impl FromStr for TieBreak {
    type Err = UnknownTieBreak;
    fn from_str(s: &str) -> Result<TieBreak, UnknownTieBreak> {
        TieBreak::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| UnknownTieBreak(s.to_string()))
    }
}

/// One tie-break of one entrant: its name and exact value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TieBreakValue {
    pub name: TieBreak,
    pub value: Points,
}

/// The value of a tie-break that does not depend on who else is tied.
pub(crate) fn value(tb: TieBreak, ledger: &Ledger, e: EntrantId) -> Points {
    let Some(line) = ledger.line(e) else {
        return Points::ZERO;
    };
    let contributions = || ledger.round_contributions(e);
    match tb {
        TieBreak::SonnebornBerger => line
            .encounters
            .iter()
            .map(|enc| ledger.points(enc.opponent).times(enc.halves, 2))
            .sum(),
        TieBreak::Buchholz => contributions().into_iter().sum(),
        TieBreak::BuchholzCut1 => {
            let mut c = contributions();
            c.sort();
            c.into_iter().skip(1).sum()
        }
        TieBreak::MedianBuchholz => {
            let mut c = contributions();
            c.sort();
            let n = c.len();
            c.into_iter().skip(1).take(n.saturating_sub(2)).sum()
        }
        TieBreak::HeadToHead => Points::ZERO,
        TieBreak::Wins => Points::whole(i64::from(line.tally.wins)),
        TieBreak::GameScore => Points::whole(line.game_score),
        TieBreak::Rating => Points::whole(i64::from(line.rating)),
    }
}

/// Head-to-head: the points `e` scored against the others of `group` (the entrants tied with it).
pub(crate) fn head_to_head(ledger: &Ledger, e: EntrantId, group: &HashSet<EntrantId>) -> Points {
    let Some(line) = ledger.line(e) else {
        return Points::ZERO;
    };
    line.encounters
        .iter()
        .filter(|enc| enc.opponent != e && group.contains(&enc.opponent))
        .map(|enc| Points::halves(enc.halves))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tie_break_names_are_stable_and_parse_back() {
        let names: Vec<&str> = TieBreak::ALL.iter().map(|t| t.name()).collect();
        assert_eq!(
            names,
            [
                "sonneborn_berger",
                "buchholz",
                "buchholz_cut1",
                "median_buchholz",
                "head_to_head",
                "wins",
                "game_score",
                "rating"
            ]
        );
        for t in TieBreak::ALL {
            assert_eq!(t.name().parse::<TieBreak>(), Ok(t));
            assert_eq!(
                serde_json::to_string(&t).unwrap(),
                format!("\"{}\"", t.name())
            );
        }
        assert!("koya".parse::<TieBreak>().is_err());
    }
}
