//! League seasons: divisions of a chosen size, each a round robin (see [`super::berger`]), and
//! promotion and relegation between seasons.
//!
//! The first season fills the divisions in seed order (division 1 is the strongest). The number
//! of divisions is what the size asks for (entrants ÷ size, rounded up); their sizes are then as
//! even as possible, the higher divisions taking the extra entrant, so no division is left with
//! one or two players. Between seasons the top `promote` of each division but the first go up and
//! the bottom `relegate` of each division but the last go down; then leavers leave, newcomers
//! join the lowest division, and the divisions are brought back to those sizes, a gap filled
//! from the division below.

use super::EntrantId;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LeagueError {
    #[error("a division has between 2 and {MAX_DIVISION} entrants, not {0}")]
    DivisionSize(usize),
    #[error("promoting {promote} and relegating {relegate} needs divisions of more than {size}")]
    Movement {
        promote: usize,
        relegate: usize,
        size: usize,
    },
}

/// A league's shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeagueRules {
    pub division_size: usize,
    pub promote: usize,
    pub relegate: usize,
}

/// The largest division: an entrant's pairing number is its division's number × 1,000 plus its
/// place in it (`services::competitions::rounds`), so a division holds at most 1,000.
pub const MAX_DIVISION: usize = 1000;

impl LeagueRules {
    pub fn check(&self) -> Result<(), LeagueError> {
        if !(2..=MAX_DIVISION).contains(&self.division_size) {
            return Err(LeagueError::DivisionSize(self.division_size));
        }
        // Checked: the two come from a request, and a sum that wrapped would pass.
        let moving = self.promote.checked_add(self.relegate);
        if moving.is_none_or(|m| m >= self.division_size) {
            return Err(LeagueError::Movement {
                promote: self.promote,
                relegate: self.relegate,
                size: self.division_size,
            });
        }
        Ok(())
    }
}

/// The first season's divisions from the entrants in seed order (best first).
pub fn divisions(seeds: &[EntrantId], division_size: usize) -> Vec<Vec<EntrantId>> {
    if seeds.is_empty() || division_size == 0 {
        return Vec::new();
    }
    let count = seeds.len().div_ceil(division_size);
    let (base, extra) = (seeds.len() / count, seeds.len() % count);
    let mut out = Vec::with_capacity(count);
    let mut rest = seeds;
    for d in 0..count {
        let take = (base + usize::from(d < extra)).min(rest.len());
        let (here, later) = rest.split_at(take);
        out.push(here.to_vec());
        rest = later;
    }
    out
}

/// The next season's divisions from this season's final rankings (per division, best first).
/// Entrants in `leaving` are dropped; `joining` (in seed order) join the lowest division. Within a
/// new division the order (its pairing numbers) is: those relegated from above, those who stayed
/// in their finishing order, those promoted from below.
pub fn next_season(
    rankings: &[Vec<EntrantId>],
    rules: LeagueRules,
    leaving: &[EntrantId],
    joining: &[EntrantId],
) -> Vec<Vec<EntrantId>> {
    let count = rankings.len();
    let up = |d: usize| -> usize {
        if d == 0 {
            0
        } else {
            rules.promote.min(rankings.get(d).map_or(0, Vec::len) / 2)
        }
    };
    let down = |d: usize| -> usize {
        if d + 1 >= count {
            0
        } else {
            rules.relegate.min(rankings.get(d).map_or(0, Vec::len) / 2)
        }
    };
    let mut out: Vec<Vec<EntrantId>> = Vec::with_capacity(count);
    for (d, ranking) in rankings.iter().enumerate() {
        let len = ranking.len();
        let (promoted, relegated) = (up(d), down(d));
        let mut next = Vec::with_capacity(len);
        if d > 0
            && let Some(above) = rankings.get(d - 1)
        {
            let r = down(d - 1);
            next.extend_from_slice(above.get(above.len() - r..).unwrap_or(&[]));
        }
        next.extend_from_slice(ranking.get(promoted..len - relegated).unwrap_or(&[]));
        if let Some(below) = rankings.get(d + 1) {
            next.extend_from_slice(below.get(..up(d + 1)).unwrap_or(&[]));
        }
        out.push(next);
    }
    for division in &mut out {
        division.retain(|e| !leaving.contains(e));
    }
    if let Some(last) = out.last_mut() {
        last.extend_from_slice(joining);
    } else if !joining.is_empty() {
        out.push(joining.to_vec());
    }
    out.retain(|d| !d.is_empty());
    rebalance(out, rules.division_size, rankings)
}

/// Leavers and newcomers change the divisions' sizes. Each division keeps the size it had this
/// season (at most `division_size`): one short of it (a leaver's place) is filled from below, by
/// the best finisher of the division below who has not just come down from it (an extra
/// promotion, never a reprieve while anyone else can go), and so on down. Only the lowest
/// division can grow (the newcomers join it): grown past `division_size`, it splits as a first
/// season's divisions would, its newcomers last. Nobody who earned a promotion is sent back.
/// A lowest division left with a lone entrant, who would have nobody to play, joins the one
/// above.
fn rebalance(
    mut out: Vec<Vec<EntrantId>>,
    division_size: usize,
    rankings: &[Vec<EntrantId>],
) -> Vec<Vec<EntrantId>> {
    for d in 0..out.len() {
        let target = rankings
            .get(d)
            .map_or(division_size, Vec::len)
            .min(division_size);
        let came_down: &[EntrantId] = rankings.get(d).map_or(&[], Vec::as_slice);
        while out.get(d).map_or(0, Vec::len) < target {
            let Some(below) = out.get_mut(d + 1) else {
                break;
            };
            // When everyone below has just come down, the best of them goes back up.
            let pick = below
                .iter()
                .position(|e| !came_down.contains(e))
                .unwrap_or(0);
            if pick >= below.len() {
                break;
            }
            let up = below.remove(pick);
            if let Some(here) = out.get_mut(d) {
                here.push(up);
            }
        }
    }
    out.retain(|d| !d.is_empty());
    if out.len() > 1 && out.last().is_some_and(|d| d.len() < 2) {
        let lone = out.pop().unwrap_or_default();
        if let Some(above) = out.last_mut() {
            above.extend(lone);
        }
    }
    if let Some(lowest) = out.pop() {
        out.extend(divisions(&lowest, division_size));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divisions_are_as_even_as_the_chosen_size_allows() {
        let seeds: Vec<u32> = (1..=10).collect();
        assert_eq!(
            divisions(&seeds, 4),
            vec![vec![1, 2, 3, 4], vec![5, 6, 7], vec![8, 9, 10]]
        );
        assert_eq!(
            divisions(&seeds, 5),
            vec![vec![1, 2, 3, 4, 5], vec![6, 7, 8, 9, 10]]
        );
        assert_eq!(divisions(&seeds, 12), vec![seeds.clone()]);
        let nine: Vec<u32> = (1..=9).collect();
        assert_eq!(
            divisions(&nine, 8),
            vec![vec![1, 2, 3, 4, 5], vec![6, 7, 8, 9]]
        );
    }

    #[test]
    fn two_up_two_down_between_three_divisions() {
        let rules = LeagueRules {
            division_size: 6,
            promote: 2,
            relegate: 2,
        };
        assert_eq!(rules.check(), Ok(()));
        // Final rankings, best first.
        let rankings = vec![
            vec![1, 2, 3, 4, 5, 6],
            vec![11, 12, 13, 14, 15, 16],
            vec![21, 22, 23, 24, 25, 26],
        ];
        let next = next_season(&rankings, rules, &[], &[]);
        assert_eq!(
            next,
            vec![
                vec![1, 2, 3, 4, 11, 12],
                vec![5, 6, 13, 14, 21, 22],
                vec![15, 16, 23, 24, 25, 26],
            ]
        );
    }

    #[test]
    fn leavers_go_and_newcomers_join_the_lowest_division() {
        let rules = LeagueRules {
            division_size: 4,
            promote: 1,
            relegate: 1,
        };
        let rankings = vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]];
        let next = next_season(&rankings, rules, &[2], &[9, 10]);
        // 2's place goes to 6, the best of division 2 after 5 (promoted); division 2, grown to
        // five with the newcomers, splits into 3 and 2.
        assert_eq!(next, vec![vec![1, 3, 5, 6], vec![4, 7, 8], vec![9, 10]]);
    }

    #[test]
    fn a_newcomer_never_undoes_a_promotion() {
        let rules = LeagueRules {
            division_size: 4,
            promote: 1,
            relegate: 1,
        };
        let rankings = vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]];
        let next = next_season(&rankings, rules, &[], &[9]);
        assert_eq!(next, vec![vec![1, 2, 3, 5], vec![4, 6, 7], vec![8, 9]]);
        // Three leave the top division: its places go to the best of the one below.
        let rankings = vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8], vec![9, 10, 11, 12]];
        let next = next_season(&rankings, rules, &[1, 2, 3], &[]);
        assert_eq!(
            next[0],
            vec![5, 6, 7, 9],
            "9 came up to division 2, 8 went down"
        );
        assert!(
            next.iter().all(|d| d.len() >= 2 && d.len() <= 4),
            "{next:?}"
        );
        assert_eq!(next.iter().map(Vec::len).sum::<usize>(), 9);
    }

    #[test]
    fn a_gap_left_by_a_leaver_is_filled_from_below() {
        let rules = LeagueRules {
            division_size: 3,
            promote: 1,
            relegate: 1,
        };
        // 1 won division 1 and leaves; 7 joins. 3 came down, 4 went up: the next best of
        // division 2 (5) goes up too, and 7 joins division 2, which stays at 3.
        let rankings = vec![vec![1, 2, 3], vec![4, 5, 6]];
        let next = next_season(&rankings, rules, &[1], &[7]);
        assert_eq!(next, vec![vec![2, 4, 5], vec![3, 6, 7]]);
        // Without a newcomer: five entrants, divisions of 3 and 2.
        let next = next_season(&rankings, rules, &[1], &[]);
        assert_eq!(next, vec![vec![2, 4, 5], vec![3, 6]]);
        // Nothing changes without leavers or newcomers.
        let next = next_season(&rankings, rules, &[], &[]);
        assert_eq!(next, vec![vec![1, 2, 4], vec![3, 5, 6]]);
    }

    #[test]
    fn impossible_movement_is_refused() {
        let rules = LeagueRules {
            division_size: 4,
            promote: 2,
            relegate: 2,
        };
        assert!(rules.check().is_err());
        let tiny = LeagueRules {
            division_size: 1,
            promote: 0,
            relegate: 0,
        };
        assert_eq!(tiny.check(), Err(LeagueError::DivisionSize(1)));
        let huge = LeagueRules {
            division_size: usize::MAX,
            promote: 0,
            relegate: 0,
        };
        assert_eq!(huge.check(), Err(LeagueError::DivisionSize(usize::MAX)));
        // A sum that would wrap to a small number is refused, not taken for one.
        for (promote, relegate) in [(usize::MAX, 1), (1 << 63, 1 << 63)] {
            let wrapping = LeagueRules {
                division_size: 4,
                promote,
                relegate,
            };
            assert!(
                matches!(wrapping.check(), Err(LeagueError::Movement { .. })),
                "{wrapping:?}"
            );
        }
    }

    #[test]
    fn a_single_division_keeps_everyone() {
        let rules = LeagueRules {
            division_size: 8,
            promote: 2,
            relegate: 2,
        };
        let next = next_season(&[vec![3, 1, 2]], rules, &[], &[]);
        assert_eq!(next, vec![vec![3, 1, 2]]);
    }
}
