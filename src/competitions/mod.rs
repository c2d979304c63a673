//! Competitions as pure functions: who plays whom in each round, and who stands where.
//!
//! This module owns the pairing and scoring rules of the formats design.md section 15 names, in
//! the words of the FIDE Handbook: round robin by the Berger tables (C.05 Annex 1), Swiss by the
//! Dutch system (C.04.3), knockout brackets, league seasons, tables of 3–5 seats, standings with
//! tie-breaks, and the TRF-16 and CSV exports. The service around it stores entrants, games and
//! results and calls these functions to pair round N or to compute standings.
//!
//! Pure: it imports serde, thiserror and `mwmatching` only. No database, clock, I/O or
//! randomness, so the same history always gives the same pairing.
//!
//! Glossary (handbook → code): player / participant → entrant ([`EntrantId`], [`Entrant`]);
//! pairing number / TPN → position in [`pairing_order`]; White → seat 0, Black → seat 1;
//! game → [`GameRecord`]; bye (PAB, half-point, full-point, zero-point) → [`ByeRecord`],
//! [`ByeKind`]; score → [`Points`] (exact); tie-break → [`tiebreaks::TieBreak`].
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

pub mod berger;
pub mod csv;
pub mod format;
pub mod knockout;
pub mod league;
mod points;
pub mod standings;
pub mod swiss;
pub mod tables;
pub mod tiebreaks;
pub mod trf;

pub use points::Points;
use serde::{Deserialize, Serialize};

/// An entrant as the service numbers it (e.g. its entry row); the module never interprets it.
pub type EntrantId = u32;

/// What pairing needs to know about an entrant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    pub id: EntrantId,
    pub name: String,
    /// No rating counts as 0 for seeding and for the `rating` tie-break.
    #[serde(default)]
    pub rating: Option<i32>,
}

/// How entrants with equal ratings are ordered for pairing numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeedTie {
    /// The order the entrants are given in (api.md: the order in which they entered).
    #[default]
    EntryOrder,
    /// Alphabetically by name, then entry order (FIDE C.04.2 without titles).
    Name,
}

/// Pairing numbers: the entrants' ids, pairing number 1 first. Highest rating first (none counts
/// as 0), equal ratings by `tie`.
pub fn pairing_order(entrants: &[Entrant], tie: SeedTie) -> Vec<EntrantId> {
    let mut order: Vec<(usize, &Entrant)> = entrants.iter().enumerate().collect();
    order.sort_by(|(ia, a), (ib, b)| {
        let by_rating = b.rating.unwrap_or(0).cmp(&a.rating.unwrap_or(0));
        let by_tie = match tie {
            SeedTie::EntryOrder => std::cmp::Ordering::Equal,
            SeedTie::Name => a.name.cmp(&b.name),
        };
        by_rating.then(by_tie).then(ia.cmp(ib))
    });
    order.into_iter().map(|(_, e)| e.id).collect()
}

/// One game of a competition: its round (1-based), the entrants by seat (seat 0 = White in
/// two-seat games) and its result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    pub round: u32,
    pub seats: Vec<EntrantId>,
    pub result: GameResult,
}

/// How a game ended, as far as the competition is concerned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum GameResult {
    /// Not finished yet.
    Pending,
    /// Played to the end (resignation and timeout included): the place of each seat, 1 = first,
    /// equal places share; `scores` is the game's own score per seat (the `game_score`
    /// tie-break), when the game has one.
    Played {
        places: Vec<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        scores: Option<Vec<i64>>,
    },
    /// Not played: the seats marked `true` forfeited (did not appear, withdrew); the others win
    /// by forfeit.
    Forfeit { absent: Vec<bool> },
}

impl GameRecord {
    /// The seat `entrant` holds in this game.
    pub fn seat_of(&self, entrant: EntrantId) -> Option<usize> {
        self.seats.iter().position(|s| *s == entrant)
    }

    /// Whether the game was played over the board (as opposed to pending or forfeited).
    pub fn is_played(&self) -> bool {
        matches!(self.result, GameResult::Played { .. })
    }
}

/// A round an entrant sits out, and what it scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ByeRecord {
    pub round: u32,
    pub entrant: EntrantId,
    pub kind: ByeKind,
}

/// The kinds of bye (TRF-16 codes U, F, H, Z).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ByeKind {
    /// Pairing-allocated bye (odd number of entrants): scores the competition's bye points.
    PairingAllocated,
    /// Full-point bye (e.g. a knockout seed without an opponent).
    Full,
    /// Half-point bye (requested).
    Half,
    /// Zero-point bye (known absence).
    Zero,
}

impl ByeKind {
    /// The stored and shown name (as serde writes it).
    pub fn as_str(self) -> &'static str {
        match self {
            ByeKind::PairingAllocated => "pairing_allocated",
            ByeKind::Full => "full",
            ByeKind::Half => "half",
            ByeKind::Zero => "zero",
        }
    }

    /// The kind a stored name names (a pairing-allocated bye for anything else).
    pub fn parse(name: &str) -> ByeKind {
        [ByeKind::Full, ByeKind::Half, ByeKind::Zero]
            .into_iter()
            .find(|k| k.as_str() == name)
            .unwrap_or(ByeKind::PairingAllocated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(id: u32, name: &str, rating: Option<i32>) -> Entrant {
        Entrant {
            id,
            name: name.into(),
            rating,
        }
    }

    #[test]
    fn pairing_numbers_go_by_rating_then_entry_order_or_name() {
        let es = [
            e(10, "Zoe", Some(1500)),
            e(11, "Abe", None),
            e(12, "Max", Some(1700)),
            e(13, "Bea", Some(1500)),
            e(14, "Cal", Some(0)),
        ];
        assert_eq!(
            pairing_order(&es, SeedTie::EntryOrder),
            vec![12, 10, 13, 11, 14]
        );
        assert_eq!(pairing_order(&es, SeedTie::Name), vec![12, 13, 10, 11, 14]);
    }

    #[test]
    fn a_game_record_reads_back_from_json() {
        let g = GameRecord {
            round: 2,
            seats: vec![3, 4],
            result: GameResult::Played {
                places: vec![1, 2],
                scores: None,
            },
        };
        let json = serde_json::to_string(&g).unwrap_or_default();
        assert_eq!(
            json,
            r#"{"round":2,"seats":[3,4],"result":{"type":"played","places":[1,2]}}"#
        );
        let back: GameRecord = serde_json::from_str(&json).unwrap_or_else(|_| g.clone());
        assert_eq!(back, g);
    }
}
