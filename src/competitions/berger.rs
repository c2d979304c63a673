//! Round robin by the FIDE Berger tables (C.05 Annex 1).
//!
//! For an even number n of pairing numbers, round 1 is 1–n, 2–(n−1), 3–(n−2)…; each later round
//! rotates the others by n/2 places while n stays on board 1 and alternates colours (Black in odd
//! rounds, White in even ones). With an odd number of entrants the table for n+1 is used and
//! whoever meets n+1 has the bye. A double round robin repeats the first cycle with the seats
//! swapped; as FIDE recommends, the last two rounds of the first cycle are played in reverse order
//! (the second cycle keeps the table's order) so that nobody gets the same colour three times in a
//! row across the cycles.

use serde::{Deserialize, Serialize};

/// One round of a round robin, in pairing numbers (1-based): boards in table order, seat 0 first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRobinRound {
    pub pairings: Vec<[u32; 2]>,
    /// The pairing number that sits out (odd number of entrants).
    pub bye: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BergerError {
    #[error("a round robin needs at least 2 entrants, not {0}")]
    TooFew(u32),
    #[error("a round robin has 1 or 2 cycles, not {0}")]
    Cycles(u8),
}

/// The Berger table for an even `n` (≥ 2): rounds of boards `[white, black]`.
pub fn table(n: u32) -> Vec<Vec<[u32; 2]>> {
    if n < 2 || n % 2 == 1 {
        return Vec::new();
    }
    let others = n - 1; // numbers 1..=n-1 rotate, n is fixed
    let wrap = |x: i64| -> u32 { (x - 1).rem_euclid(i64::from(others)) as u32 + 1 };
    (1..n)
        .map(|round| {
            // The partner of n advances by n/2 every round, starting with 1.
            let x = wrap(1 + i64::from((round - 1) * (n / 2)));
            let mut boards = Vec::with_capacity(n as usize / 2);
            boards.push(if round % 2 == 1 { [x, n] } else { [n, x] });
            for b in 1..i64::from(n / 2) {
                boards.push([wrap(i64::from(x) + b), wrap(i64::from(x) - b)]);
            }
            boards
        })
        .collect()
}

/// The whole schedule for `entrants` entrants and 1 or 2 cycles.
pub fn schedule(entrants: u32, cycles: u8) -> Result<Vec<RoundRobinRound>, BergerError> {
    if entrants < 2 {
        return Err(BergerError::TooFew(entrants));
    }
    if !(1..=2).contains(&cycles) {
        return Err(BergerError::Cycles(cycles));
    }
    let n = entrants + entrants % 2;
    let rows: Vec<Vec<[u32; 2]>> = table(n);
    let mut first: Vec<&Vec<[u32; 2]>> = rows.iter().collect();
    if cycles == 2 && first.len() >= 2 {
        let len = first.len();
        first.swap(len - 2, len - 1);
    }
    let mut rounds: Vec<RoundRobinRound> = first
        .iter()
        .map(|boards| to_round(boards, entrants, false))
        .collect();
    if cycles == 2 {
        // The second cycle in the table's own order, seats swapped.
        rounds.extend(rows.iter().map(|boards| to_round(boards, entrants, true)));
    }
    Ok(rounds)
}

fn to_round(boards: &[[u32; 2]], entrants: u32, swap: bool) -> RoundRobinRound {
    let mut bye = None;
    let mut pairings = Vec::with_capacity(boards.len());
    for &[w, b] in boards {
        if w > entrants {
            bye = Some(b);
        } else if b > entrants {
            bye = Some(w);
        } else if swap {
            pairings.push([b, w]);
        } else {
            pairings.push([w, b]);
        }
    }
    RoundRobinRound { pairings, bye }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Parses a table as the handbook prints it: one round per line, boards `w-b` by commas.
    fn published(text: &str) -> Vec<Vec<[u32; 2]>> {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|line| {
                line.split(',')
                    .map(|board| {
                        let (w, b) = board.trim().split_once('-').unwrap();
                        [w.trim().parse().unwrap(), b.trim().parse().unwrap()]
                    })
                    .collect()
            })
            .collect()
    }

    // FIDE Handbook C.05 Annex 1, the Berger tables as published.
    const FOUR: &str = "
        1-4, 2-3
        4-3, 1-2
        2-4, 3-1";
    const SIX: &str = "
        1-6, 2-5, 3-4
        6-4, 5-3, 1-2
        2-6, 3-1, 4-5
        6-5, 1-4, 2-3
        3-6, 4-2, 5-1";
    const EIGHT: &str = "
        1-8, 2-7, 3-6, 4-5
        8-5, 6-4, 7-3, 1-2
        2-8, 3-1, 4-7, 5-6
        8-6, 7-5, 1-4, 2-3
        3-8, 4-2, 5-1, 6-7
        8-7, 1-6, 2-5, 3-4
        4-8, 5-3, 6-2, 7-1";
    const TEN: &str = "
        1-10, 2-9, 3-8, 4-7, 5-6
        10-6, 7-5, 8-4, 9-3, 1-2
        2-10, 3-1, 4-9, 5-8, 6-7
        10-7, 8-6, 9-5, 1-4, 2-3
        3-10, 4-2, 5-1, 6-9, 7-8
        10-8, 9-7, 1-6, 2-5, 3-4
        4-10, 5-3, 6-2, 7-1, 8-9
        10-9, 1-8, 2-7, 3-6, 4-5
        5-10, 6-4, 7-3, 8-2, 9-1";
    const TWELVE: &str = "
        1-12, 2-11, 3-10, 4-9, 5-8, 6-7
        12-7, 8-6, 9-5, 10-4, 11-3, 1-2
        2-12, 3-1, 4-11, 5-10, 6-9, 7-8
        12-8, 9-7, 10-6, 11-5, 1-4, 2-3
        3-12, 4-2, 5-1, 6-11, 7-10, 8-9
        12-9, 10-8, 11-7, 1-6, 2-5, 3-4
        4-12, 5-3, 6-2, 7-1, 8-11, 9-10
        12-10, 11-9, 1-8, 2-7, 3-6, 4-5
        5-12, 6-4, 7-3, 8-2, 9-1, 10-11
        12-11, 1-10, 2-9, 3-8, 4-7, 5-6
        6-12, 7-5, 8-4, 9-3, 10-2, 11-1";
    const SIXTEEN: &str = "
        1-16, 2-15, 3-14, 4-13, 5-12, 6-11, 7-10, 8-9
        16-9, 10-8, 11-7, 12-6, 13-5, 14-4, 15-3, 1-2
        2-16, 3-1, 4-15, 5-14, 6-13, 7-12, 8-11, 9-10
        16-10, 11-9, 12-8, 13-7, 14-6, 15-5, 1-4, 2-3
        3-16, 4-2, 5-1, 6-15, 7-14, 8-13, 9-12, 10-11
        16-11, 12-10, 13-9, 14-8, 15-7, 1-6, 2-5, 3-4
        4-16, 5-3, 6-2, 7-1, 8-15, 9-14, 10-13, 11-12
        16-12, 13-11, 14-10, 15-9, 1-8, 2-7, 3-6, 4-5
        5-16, 6-4, 7-3, 8-2, 9-1, 10-15, 11-14, 12-13
        16-13, 14-12, 15-11, 1-10, 2-9, 3-8, 4-7, 5-6
        6-16, 7-5, 8-4, 9-3, 10-2, 11-1, 12-15, 13-14
        16-14, 15-13, 1-12, 2-11, 3-10, 4-9, 5-8, 6-7
        7-16, 8-6, 9-5, 10-4, 11-3, 12-2, 13-1, 14-15
        16-15, 1-14, 2-13, 3-12, 4-11, 5-10, 6-9, 7-8
        8-16, 9-7, 10-6, 11-5, 12-4, 13-3, 14-2, 15-1";

    #[test]
    fn the_tables_equal_the_published_fide_berger_tables() {
        for (n, text) in [
            (4, FOUR),
            (6, SIX),
            (8, EIGHT),
            (10, TEN),
            (12, TWELVE),
            (16, SIXTEEN),
        ] {
            assert_eq!(table(n), published(text), "Berger table for {n}");
        }
    }

    #[test]
    fn odd_fields_use_the_next_table_and_whoever_meets_the_top_number_has_the_bye() {
        // 7 entrants: the table for 8, number 8 is the bye.
        let rounds = schedule(7, 1).unwrap();
        let eight = published(EIGHT);
        assert_eq!(rounds.len(), 7);
        for (round, boards) in rounds.iter().zip(&eight) {
            let expected: Vec<[u32; 2]> =
                boards.iter().copied().filter(|p| !p.contains(&8)).collect();
            assert_eq!(round.pairings, expected);
            let partner = boards.iter().find(|p| p.contains(&8)).unwrap();
            assert_eq!(round.bye, Some(partner[0] + partner[1] - 8));
        }
        // 3 and 5 entrants likewise.
        let three = schedule(3, 1).unwrap();
        assert_eq!(three[0].pairings, vec![[2, 3]]);
        assert_eq!(three[0].bye, Some(1));
        let five = schedule(5, 1).unwrap();
        assert_eq!(five[1].pairings, vec![[5, 3], [1, 2]]);
        assert_eq!(five[1].bye, Some(4));
    }

    #[test]
    fn every_pair_meets_exactly_once_per_cycle_for_3_to_16_entrants() {
        for n in 3..=16u32 {
            for cycles in [1u8, 2] {
                let rounds = schedule(n, cycles).unwrap();
                let per_cycle = (n + n % 2 - 1) as usize;
                assert_eq!(rounds.len(), per_cycle * cycles as usize);
                let mut met: Vec<[u32; 2]> = Vec::new();
                for r in &rounds {
                    let mut seen = HashSet::new();
                    for p in &r.pairings {
                        assert!(
                            seen.insert(p[0]) && seen.insert(p[1]),
                            "{n}: twice in a round"
                        );
                        met.push(*p);
                    }
                    seen.extend(r.bye);
                    assert_eq!(seen.len() as u32, n, "{n}: everyone once per round");
                }
                let unordered: HashSet<(u32, u32)> = met
                    .iter()
                    .map(|p| (p[0].min(p[1]), p[0].max(p[1])))
                    .collect();
                assert_eq!(unordered.len() as u32, n * (n - 1) / 2);
                assert_eq!(met.len() as u32, n * (n - 1) / 2 * u32::from(cycles));
                if cycles == 2 {
                    // The second cycle has every pairing with the seats swapped.
                    let ordered: HashSet<[u32; 2]> = met.iter().copied().collect();
                    assert!(met.iter().all(|p| ordered.contains(&[p[1], p[0]])));
                }
            }
        }
    }

    #[test]
    fn the_top_number_alternates_colours_and_nobody_gets_three_in_a_row_in_a_double_cycle() {
        for n in (4..=16u32).step_by(2) {
            let rounds = schedule(n, 2).unwrap();
            for player in 1..=n {
                let colours: Vec<usize> = rounds
                    .iter()
                    .filter_map(|r| {
                        r.pairings
                            .iter()
                            .find_map(|p| p.iter().position(|x| *x == player))
                    })
                    .collect();
                for w in colours.windows(3) {
                    assert!(
                        !(w[0] == w[1] && w[1] == w[2]),
                        "{n}: {player} three in a row"
                    );
                }
            }
            let single = table(n);
            for (i, boards) in single.iter().enumerate() {
                let seat = boards[0].iter().position(|x| *x == n).unwrap();
                assert_eq!(seat, if i % 2 == 0 { 1 } else { 0 });
            }
        }
    }

    #[test]
    fn fewer_than_two_entrants_or_three_cycles_are_refused() {
        assert_eq!(schedule(1, 1), Err(BergerError::TooFew(1)));
        assert_eq!(schedule(4, 3), Err(BergerError::Cycles(3)));
    }
}
