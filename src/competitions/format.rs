//! A competition's format as api.md writes it (`{"type": "swiss", "rounds": 5}`...), checked
//! against the number of entrants before the service starts it.

use super::league::{LeagueError, LeagueRules};
use super::tables::{TablesError, table_sizes};
use serde::{Deserialize, Serialize};

/// How a round robin releases its rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pace {
    /// Every game at once, as correspondence play does it.
    AllAtOnce,
    /// Round by round.
    Sequential,
}

/// The rounds a Swiss or a tables event may have.
pub const ROUNDS: std::ops::RangeInclusive<u32> = 1..=100;
/// The seats a table of a tables event may have.
pub const TABLE_SIZES: std::ops::RangeInclusive<usize> = 3..=5;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Format {
    RoundRobin {
        cycles: u8,
        rounds: Pace,
    },
    Swiss {
        rounds: u32,
    },
    Knockout {
        games_per_match: u8,
    },
    League {
        division_size: usize,
        promote: usize,
        relegate: usize,
    },
    Tables {
        table_sizes: Vec<usize>,
        rounds: u32,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    #[error("a round robin has 1 or 2 cycles")]
    Cycles,
    /// Nobody meets the same opponent twice and nobody has two byes, so each round needs
    /// another opponent (or the one bye) for everyone.
    #[error(
        "too few entrants for {rounds} rounds: a Swiss of {rounds} rounds needs at least {needed} \
         entrants (nobody meets the same opponent twice or has two byes); with {entrants} \
         entrants it can have at most {max} round{plural}",
        plural = if *max == 1 { "" } else { "s" }
    )]
    SwissRounds {
        rounds: u32,
        needed: usize,
        entrants: usize,
        max: u32,
    },
    #[error("a Swiss has between 1 and 100 rounds, not {0}")]
    SwissRange(u32),
    #[error("a knockout match has 1 or 2 games")]
    GamesPerMatch,
    #[error("table sizes are between 3 and 5 seats")]
    TableSize,
    #[error("a tables event has between 1 and 100 rounds")]
    TableRounds,
    #[error("{0}")]
    League(#[from] LeagueError),
    #[error("{0}")]
    Tables(#[from] TablesError),
    #[error("{format} needs at least {min} entrants, not {entrants}")]
    TooFew {
        format: &'static str,
        min: usize,
        entrants: usize,
    },
}

impl Format {
    /// Whether the format itself is well formed (at creation).
    pub fn check(&self) -> Result<(), FormatError> {
        match self {
            Format::RoundRobin { cycles, .. } if !(1..=2).contains(cycles) => {
                Err(FormatError::Cycles)
            }
            Format::Swiss { rounds } if !ROUNDS.contains(rounds) => {
                Err(FormatError::SwissRange(*rounds))
            }
            Format::Knockout { games_per_match } if !(1..=2).contains(games_per_match) => {
                Err(FormatError::GamesPerMatch)
            }
            Format::League {
                division_size,
                promote,
                relegate,
            } => Ok(LeagueRules {
                division_size: *division_size,
                promote: *promote,
                relegate: *relegate,
            }
            .check()?),
            Format::Tables { table_sizes, .. }
                if table_sizes.is_empty()
                    || table_sizes.iter().any(|s| !TABLE_SIZES.contains(s)) =>
            {
                Err(FormatError::TableSize)
            }
            Format::Tables { rounds, .. } if !ROUNDS.contains(rounds) => {
                Err(FormatError::TableRounds)
            }
            _ => Ok(()),
        }
    }

    /// Whether the format can start with `entrants` entrants.
    pub fn check_start(&self, entrants: usize) -> Result<(), FormatError> {
        self.check()?;
        let too_few = |format, min| {
            if entrants < min {
                Err(FormatError::TooFew {
                    format,
                    min,
                    entrants,
                })
            } else {
                Ok(())
            }
        };
        match self {
            Format::RoundRobin { .. } => too_few("a round robin", 2),
            Format::Swiss { rounds } => {
                too_few("a Swiss", 2)?;
                // Nobody can play more rounds than there are others to meet (plus one bye).
                let max = swiss_max_rounds(entrants);
                if *rounds > max {
                    return Err(FormatError::SwissRounds {
                        rounds: *rounds,
                        needed: (2..).find(|n| swiss_max_rounds(*n) >= *rounds).unwrap_or(2),
                        entrants,
                        max,
                    });
                }
                Ok(())
            }
            Format::Knockout { .. } => too_few("a knockout", 2),
            Format::League { .. } => too_few("a league", 2),
            Format::Tables { table_sizes: s, .. } => {
                table_sizes(entrants, s)?;
                Ok(())
            }
        }
    }
}

/// The most rounds a Swiss of `entrants` can pair: one per other entrant to meet, plus the bye
/// when the number is odd.
fn swiss_max_rounds(entrants: usize) -> u32 {
    u32::try_from(entrants.saturating_sub(1) + entrants % 2).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_read_as_api_md_writes_them() {
        let read = |s: &str| serde_json::from_str::<Format>(s).unwrap();
        assert_eq!(
            read(r#"{"type": "round_robin", "cycles": 1, "rounds": "all_at_once"}"#),
            Format::RoundRobin {
                cycles: 1,
                rounds: Pace::AllAtOnce
            }
        );
        assert_eq!(
            read(r#"{"type": "swiss", "rounds": 3}"#),
            Format::Swiss { rounds: 3 }
        );
        assert_eq!(
            read(r#"{"type": "knockout", "games_per_match": 2}"#),
            Format::Knockout { games_per_match: 2 }
        );
        assert_eq!(
            read(r#"{"type": "league", "division_size": 6, "promote": 1, "relegate": 1}"#),
            Format::League {
                division_size: 6,
                promote: 1,
                relegate: 1
            }
        );
        assert_eq!(
            read(r#"{"type": "tables", "table_sizes": [3, 4], "rounds": 1}"#),
            Format::Tables {
                table_sizes: vec![3, 4],
                rounds: 1
            }
        );
        assert!(
            serde_json::from_str::<Format>(r#"{"type": "swiss", "rounds": 3, "x": 1}"#).is_err()
        );
    }

    #[test]
    fn impossible_formats_are_refused() {
        let rr = Format::RoundRobin {
            cycles: 3,
            rounds: Pace::Sequential,
        };
        assert_eq!(rr.check(), Err(FormatError::Cycles));
        assert_eq!(
            Format::Knockout { games_per_match: 3 }.check(),
            Err(FormatError::GamesPerMatch)
        );
        let six = Format::Tables {
            table_sizes: vec![3, 6],
            rounds: 1,
        };
        assert_eq!(six.check(), Err(FormatError::TableSize));
        for rounds in [0, 101] {
            let refused = Format::Swiss { rounds }.check().unwrap_err();
            assert_eq!(
                refused.to_string(),
                format!("a Swiss has between 1 and 100 rounds, not {rounds}")
            );
        }
        let swiss = Format::Swiss { rounds: 6 };
        assert_eq!(
            swiss.check_start(6),
            Err(FormatError::SwissRounds {
                rounds: 6,
                needed: 7,
                entrants: 6,
                max: 5
            })
        );
        assert_eq!(
            Format::Swiss { rounds: 2 }
                .check_start(2)
                .map_err(|e| e.to_string()),
            Err(
                "too few entrants for 2 rounds: a Swiss of 2 rounds needs at least 3 entrants \
                 (nobody meets the same opponent twice or has two byes); with 2 entrants it can \
                 have at most 1 round"
                    .to_owned()
            )
        );
        assert_eq!(Format::Swiss { rounds: 5 }.check_start(5), Ok(()));
        let tables = Format::Tables {
            table_sizes: vec![4],
            rounds: 1,
        };
        assert!(tables.check_start(6).is_err());
        assert_eq!(tables.check_start(8), Ok(()));
    }
}
