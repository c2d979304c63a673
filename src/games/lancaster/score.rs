//! Final scoring (LAN-FIN): the knighthood and castle majorities with their tie-breaks and
//! shared awards, the round table, and the winners.

use super::data::{Majority, Quantity, data};
use super::state::{Faction, Loc, State};
use crate::engine::{EndReason, Outcome, Seat, SeatSet, Standing, places};
use serde::{Deserialize, Serialize};

/// One player's final scoring, revealed at the end (D9).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreLine {
    pub seat: Seat,
    pub pp_before: u32,
    pub knighthood: u32,
    pub knighthood_pp: u32,
    pub extensions: u32,
    pub castle_pp: u32,
    pub nobles: u32,
    pub round_table_pp: u32,
    pub gold: u32,
    pub squires: u32,
    pub total: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LancasterOutcome {
    pub winners: Vec<Seat>,
    /// Empty when the game ended by resignation.
    pub scores: Vec<ScoreLine>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resigned: Option<Seat>,
    /// Why the game ended before its rules ended it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<EndReason>,
}

impl Outcome for LancasterOutcome {
    fn winners(&self) -> SeatSet {
        self.winners.iter().copied().collect()
    }
}

impl LancasterOutcome {
    /// Places by prestige points (shared on equal points, LAN-FIN); after a resignation the
    /// others share first place and the resigned seat is last.
    pub fn standings(&self, seats: u8) -> Vec<Standing> {
        let total = |s: Seat| {
            self.scores
                .iter()
                .find(|l| l.seat == s)
                .map(|l| i64::from(l.total))
        };
        places(seats, self.winners(), |s| total(s).unwrap_or(0))
            .into_iter()
            .map(|(seat, place)| Standing {
                seat,
                place,
                score: total(seat),
                tiebreaks: Vec::new(),
            })
            .collect()
    }
}

/// LAN-FIN-1..3, LAN-2P-13: awards for `entries` (seat index, metric, tie-break), `awards` the
/// 1st/2nd prizes. Returns the PP per entry, in the same order.
pub fn majority(entries: &[(u32, u32)], awards: &[u32]) -> Vec<u32> {
    let mut out = vec![0; entries.len()];
    let key = |i: usize| entries.get(i).copied().unwrap_or((0, 0));
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by_key(|i| std::cmp::Reverse(key(*i)));
    let Some(&best) = order.first() else {
        return out;
    };
    let first: Vec<usize> = order
        .iter()
        .copied()
        .filter(|i| key(*i) == key(best))
        .collect();
    let n = first.len() as u32;
    if n > 1 {
        // Tied for first: share 1st and 2nd together, remainder lost; no 2nd place is paid.
        let pot: u32 = awards.iter().sum();
        for i in &first {
            if let Some(x) = out.get_mut(*i) {
                *x = pot / n;
            }
        }
        return out;
    }
    if let Some(x) = out.get_mut(best) {
        *x = awards.first().copied().unwrap_or(0);
    }
    let Some(&second_award) = awards.get(1) else {
        return out;
    };
    let rest: Vec<usize> = order.iter().copied().skip(1).collect();
    if let Some(&runner) = rest.first() {
        let seconds: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|i| key(*i) == key(runner))
            .collect();
        let m = seconds.len() as u32;
        for i in &seconds {
            if let Some(x) = out.get_mut(*i) {
                *x = second_award / m;
            }
        }
    }
    out
}

/// A player's quantity `q` at the end of the game (allies are never asked).
fn quantity(f: &Faction, q: Quantity) -> u32 {
    let d = data();
    match q {
        Quantity::StrengthNotInReserve => f
            .knights
            .iter()
            .enumerate()
            .filter(|(_, l)| **l != Loc::Reserve)
            .map(|(i, _)| u32::from(d.strength(i)))
            .sum(),
        Quantity::ExtensionsBuilt => f.built.len() as u32,
        Quantity::Squires => f.squires,
        Quantity::Gold => f.gold,
        Quantity::NobleTiles => f.nobles.len() as u32,
        Quantity::None => 0,
    }
}

/// Scores the game into its players' PP and returns the outcome (allies are ignored).
pub fn final_scoring(state: &mut State) -> LancasterOutcome {
    let d = data();
    let awards = d
        .player_count(state.players)
        .map(|p| p.majority.clone())
        .unwrap_or_default();
    let players: Vec<Seat> = state.seats().collect();
    // LAN-FIN-1/2: each majority's metric and tie-break are data (DAT-MAJORITIES).
    let entries = |m: &Majority| -> Vec<(u32, u32)> {
        players
            .iter()
            .map(|s| {
                state
                    .faction(s.0)
                    .map_or((0, 0), |f| (quantity(f, m.metric), quantity(f, m.tiebreak)))
            })
            .collect()
    };
    let knighthood = entries(&d.majorities.knighthood);
    let castle = entries(&d.majorities.castle);
    let k_pp = majority(&knighthood, &awards);
    let c_pp = majority(&castle, &awards);
    let mut scores = Vec::new();
    for (i, s) in players.iter().enumerate() {
        let Some(f) = state.faction_mut(s.0) else {
            continue;
        };
        let nobles = f.nobles.len() as u32;
        // LAN-FIN-4 (§14 Q11): the lord takes a seat at the table only if the data says so.
        let seated = f.nobles.len() + usize::from(d.lord_counts_at_end);
        let rt = d.round_table_pp.get(seated).copied().unwrap_or(0);
        let kp = k_pp.get(i).copied().unwrap_or(0);
        let cp = c_pp.get(i).copied().unwrap_or(0);
        let before = f.pp;
        f.pp = before + kp + cp + rt;
        scores.push(ScoreLine {
            seat: *s,
            pp_before: before,
            knighthood: knighthood.get(i).map_or(0, |k| k.0),
            knighthood_pp: kp,
            extensions: castle.get(i).map_or(0, |c| c.0),
            castle_pp: cp,
            nobles,
            round_table_pp: rt,
            gold: f.gold,
            squires: f.squires,
            total: f.pp,
        });
    }
    let best = scores.iter().map(|s| s.total).max().unwrap_or(0);
    let winners = scores
        .iter()
        .filter(|s| s.total == best)
        .map(|s| s.seat)
        .collect();
    LancasterOutcome {
        winners,
        scores,
        resigned: None,
        reason: None,
    }
}

#[cfg(test)]
mod tests {
    use super::majority;

    #[test]
    fn the_single_best_takes_first_and_the_next_takes_second() {
        assert_eq!(majority(&[(9, 0), (7, 0), (3, 0)], &[8, 4]), [8, 4, 0]);
    }

    #[test]
    fn a_tie_is_broken_by_the_tiebreak_quantity() {
        assert_eq!(majority(&[(9, 1), (9, 3), (3, 0)], &[8, 4]), [4, 8, 0]);
    }

    #[test]
    fn a_surviving_tie_for_first_splits_twelve_and_pays_no_second() {
        assert_eq!(majority(&[(9, 1), (9, 1), (3, 0)], &[8, 4]), [6, 6, 0]);
        assert_eq!(
            majority(&[(9, 1), (9, 1), (9, 1), (1, 0)], &[8, 4]),
            [4, 4, 4, 0]
        );
        assert_eq!(
            majority(&[(9, 1), (9, 1), (9, 1), (9, 1), (9, 1)], &[8, 4]),
            [2, 2, 2, 2, 2]
        );
    }

    #[test]
    fn a_tie_for_second_splits_four_with_the_remainder_lost() {
        assert_eq!(
            majority(&[(9, 1), (5, 1), (5, 1), (5, 1)], &[8, 4]),
            [8, 1, 1, 1]
        );
    }

    #[test]
    fn two_player_majorities_pay_first_place_only() {
        assert_eq!(majority(&[(9, 1), (5, 1)], &[8]), [8, 0]);
        assert_eq!(majority(&[(9, 1), (9, 1)], &[8]), [4, 4]);
    }
}
