//! Tables for games of 3–5 seats (Lancaster, Merchants & Marauders): entrants split into tables of
//! the organiser's sizes, seats rotating from round to round; points by place are in
//! [`super::standings::Scoring`].
//!
//! The split is as even as possible: the fewest tables whose sizes differ by at most one and are
//! all allowed; failing that, any allowed split with the smallest spread of sizes. Entrants are
//! seated in the order given (pairing numbers in round 1, standings later, so leaders meet), table
//! by table, larger tables first. Then, so that the same players do not sit together round after
//! round, entrants of different tables swap places while a swap lowers the number of pairs at a
//! table who have met before: of the swaps that do, the one between the closest places in the
//! order first (leaders still meet as far as they can without repeating). Within a table the
//! entrants sit in the order given, turned by one place each round so that seat 0 (who starts)
//! rotates.

use super::EntrantId;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TablesError {
    #[error("no table size given")]
    NoSizes,
    #[error("a table has at least 2 seats, not {0}")]
    TooSmall(usize),
    #[error("{entrants} entrants cannot be split into tables of {sizes:?}")]
    CannotSplit { entrants: usize, sizes: Vec<usize> },
}

/// One table of a round: the entrants by seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// 1-based.
    pub number: u32,
    pub seats: Vec<EntrantId>,
}

/// Table sizes for `entrants` from the `allowed` sizes, larger first.
pub fn table_sizes(entrants: usize, allowed: &[usize]) -> Result<Vec<usize>, TablesError> {
    let mut sizes: Vec<usize> = allowed.to_vec();
    sizes.sort_unstable();
    sizes.dedup();
    let (Some(&min), Some(&max)) = (sizes.first(), sizes.last()) else {
        return Err(TablesError::NoSizes);
    };
    if min < 2 {
        return Err(TablesError::TooSmall(min));
    }
    let cannot = || TablesError::CannotSplit {
        entrants,
        sizes: sizes.clone(),
    };
    if entrants < min {
        return Err(cannot());
    }
    // The even splits, fewest tables first.
    for count in entrants.div_ceil(max)..=entrants / min {
        let (base, extra) = (entrants / count, entrants % count);
        let ok = sizes.contains(&base) && (extra == 0 || sizes.contains(&(base + 1)));
        if ok {
            let mut out = vec![base + 1; extra];
            out.extend(std::iter::repeat_n(base, count - extra));
            return Ok(out);
        }
    }
    // Any split: the smallest spread, then the fewest tables.
    let mut best: Option<Vec<usize>> = None;
    let mut current = Vec::new();
    search(entrants, &sizes, sizes.len(), &mut current, &mut best);
    best.ok_or_else(cannot)
}

fn spread(split: &[usize]) -> (usize, usize) {
    let max = split.iter().copied().max().unwrap_or(0);
    let min = split.iter().copied().min().unwrap_or(0);
    (max - min, split.len())
}

/// Depth-first over non-increasing sizes (each size index at most `upto`).
fn search(
    left: usize,
    sizes: &[usize],
    upto: usize,
    current: &mut Vec<usize>,
    best: &mut Option<Vec<usize>>,
) {
    if left == 0 {
        if best.as_ref().is_none_or(|b| spread(current) < spread(b)) {
            *best = Some(current.clone());
        }
        return;
    }
    for (i, &s) in sizes.iter().enumerate().take(upto).rev() {
        if s <= left {
            current.push(s);
            search(left - s, sizes, i + 1, current, best);
            current.pop();
        }
    }
}

/// Round `round`'s tables (1-based) for the entrants in `order`; `met(a, b)` is how many games
/// `a` and `b` have already played together.
pub fn seat(
    order: &[EntrantId],
    allowed: &[usize],
    round: u32,
    met: &dyn Fn(EntrantId, EntrantId) -> u32,
) -> Result<Vec<Table>, TablesError> {
    let sizes = table_sizes(order.len(), allowed)?;
    // Places in `order`, by table.
    let mut groups: Vec<Vec<usize>> = Vec::with_capacity(sizes.len());
    let mut next = 0;
    for size in sizes {
        let end = (next + size).min(order.len());
        groups.push((next..end).collect());
        next = end;
    }
    let at = |place: usize| order.get(place).copied().unwrap_or_default();
    // The meetings by places in `order`.
    let n = order.len();
    let meetings: Vec<u32> = (0..n * n)
        .map(|k| {
            let (p, q) = (k / n, k % n);
            if p == q { 0 } else { met(at(p), at(q)) }
        })
        .collect();
    let met_at = |p: usize, q: usize| meetings.get(p * n + q).copied().unwrap_or(0);
    // A swap's change in repeated pairs: `x` leaves `from` for `to`, `y` the other way.
    let change = |from: &[usize], to: &[usize], x: usize, y: usize| -> i64 {
        let with = |group: &[usize], who: usize, without: usize| -> i64 {
            group
                .iter()
                .filter(|&&p| p != who && p != without)
                .map(|&p| i64::from(met_at(who, p)))
                .sum()
        };
        with(from, y, x) + with(to, x, y) - with(from, x, x) - with(to, y, y)
    };
    // Every swap taken lowers the repeated pairs, a whole number, so this ends; the bound is
    // only a guard.
    for _ in 0..n * n {
        let mut best: Option<(usize, i64, usize, usize, usize, usize)> = None;
        for (i, gi) in groups.iter().enumerate() {
            for (j, gj) in groups.iter().enumerate().skip(i + 1) {
                for (a, &x) in gi.iter().enumerate() {
                    for (b, &y) in gj.iter().enumerate() {
                        let delta = change(gi, gj, x, y);
                        let key = (x.abs_diff(y), delta, i, a, j, b);
                        if delta < 0 && best.is_none_or(|k| (key.0, key.1) < (k.0, k.1)) {
                            best = Some(key);
                        }
                    }
                }
            }
        }
        let Some((_, _, i, a, j, b)) = best else {
            break;
        };
        let x = groups.get(i).and_then(|g| g.get(a)).copied();
        let y = groups.get(j).and_then(|g| g.get(b)).copied();
        if let (Some(x), Some(y)) = (x, y) {
            if let Some(slot) = groups.get_mut(i).and_then(|g| g.get_mut(a)) {
                *slot = y;
            }
            if let Some(slot) = groups.get_mut(j).and_then(|g| g.get_mut(b)) {
                *slot = x;
            }
        }
    }
    Ok(groups
        .into_iter()
        .enumerate()
        .map(|(i, mut places)| {
            places.sort_unstable();
            let mut seats: Vec<EntrantId> = places.into_iter().map(at).collect();
            if !seats.is_empty() {
                let turn = (round.saturating_sub(1) as usize) % seats.len();
                seats.rotate_left(turn);
            }
            Table {
                number: i as u32 + 1,
                seats,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entrants_split_into_the_chosen_sizes_as_evenly_as_possible() {
        assert_eq!(table_sizes(7, &[3, 4]), Ok(vec![4, 3]));
        assert_eq!(table_sizes(9, &[3, 4]), Ok(vec![3, 3, 3]));
        assert_eq!(table_sizes(9, &[3, 4, 5]), Ok(vec![5, 4]));
        assert_eq!(table_sizes(12, &[3, 4, 5]), Ok(vec![4, 4, 4]));
        assert_eq!(
            table_sizes(10, &[4]),
            Err(TablesError::CannotSplit {
                entrants: 10,
                sizes: vec![4]
            })
        );
        // Only uneven splits exist: 3 + 5.
        assert_eq!(table_sizes(8, &[3, 5]), Ok(vec![5, 3]));
        assert_eq!(table_sizes(11, &[3, 5]), Ok(vec![5, 3, 3]));
        assert!(table_sizes(2, &[3, 4]).is_err());
        assert_eq!(table_sizes(5, &[]), Err(TablesError::NoSizes));
    }

    #[test]
    fn every_entrant_sits_at_exactly_one_table_for_3_to_40() {
        for n in 3..=40u32 {
            let order: Vec<u32> = (1..=n).collect();
            let Ok(tables) = seat(&order, &[3, 4, 5], 1, &|_, _| 0) else {
                panic!("{n} cannot be seated");
            };
            let mut all: Vec<u32> = tables.iter().flat_map(|t| t.seats.clone()).collect();
            all.sort();
            assert_eq!(all, order);
            let sizes: Vec<usize> = tables.iter().map(|t| t.seats.len()).collect();
            let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
            assert!(hi - lo <= 1 && *lo >= 3 && *hi <= 5, "{n}: {sizes:?}");
        }
    }

    const NEVER: fn(EntrantId, EntrantId) -> u32 = |_, _| 0;

    /// How many pairs of `tables` have met in `before`, counted once per earlier table.
    fn repeats(tables: &[Table], before: &[Vec<EntrantId>]) -> u32 {
        let met = |a, b| {
            before
                .iter()
                .filter(|t| t.contains(&a) && t.contains(&b))
                .count() as u32
        };
        tables
            .iter()
            .map(|t| {
                let s = &t.seats;
                let mut n = 0;
                for (i, a) in s.iter().enumerate() {
                    for b in s.iter().skip(i + 1) {
                        n += met(*a, *b);
                    }
                }
                n
            })
            .sum()
    }

    #[test]
    fn the_same_players_are_not_seated_together_again_when_others_can_be() {
        // Standings that follow round 1's tables would seat the same two groups again.
        let order = [1, 2, 3, 4, 5, 6, 7, 8];
        let before = vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]];
        let met = |a, b| u32::from(before.iter().any(|t| t.contains(&a) && t.contains(&b)));
        let r2 = seat(&order, &[4], 2, &met).unwrap();
        // Each table of four holds two of each earlier table: two repeated pairs each, the
        // fewest possible; the leaders (1 and 2) still sit together.
        assert_eq!(repeats(&r2, &before), 4);
        let mut first: Vec<EntrantId> = r2[0].seats.clone();
        first.sort_unstable();
        assert_eq!(first, vec![1, 2, 5, 6]);
        // Seven entrants in tables of four and three, as the sweep found them re-seated.
        let order = [1, 2, 3, 4, 5, 6, 7];
        let before = vec![vec![1, 2, 3, 4], vec![5, 6, 7]];
        let met = |a, b| u32::from(before.iter().any(|t| t.contains(&a) && t.contains(&b)));
        let r2 = seat(&order, &[3, 4], 2, &met).unwrap();
        let again = seat(&order, &[3, 4], 2, &NEVER).unwrap();
        assert_eq!(repeats(&again, &before), 9);
        assert!(repeats(&r2, &before) <= 3, "{r2:?}");
        let mut all: Vec<EntrantId> = r2.iter().flat_map(|t| t.seats.clone()).collect();
        all.sort_unstable();
        assert_eq!(all, order);
    }

    #[test]
    fn a_hundred_entrants_meet_nobody_twice_in_five_rounds() {
        let order: Vec<EntrantId> = (1..=100).collect();
        let mut before: Vec<Vec<EntrantId>> = Vec::new();
        for round in 1..=5 {
            let met = |a, b| {
                before
                    .iter()
                    .filter(|t| t.contains(&a) && t.contains(&b))
                    .count() as u32
            };
            let tables = seat(&order, &[4], round, &met).unwrap();
            assert_eq!(repeats(&tables, &before), 0, "round {round}");
            before.extend(tables.into_iter().map(|t| t.seats));
        }
    }

    #[test]
    fn seats_rotate_from_round_to_round() {
        let order = [1, 2, 3, 4, 5, 6, 7];
        let r1 = seat(&order, &[3, 4], 1, &NEVER).unwrap();
        assert_eq!(r1[0].seats, vec![1, 2, 3, 4]);
        assert_eq!(r1[1].seats, vec![5, 6, 7]);
        let r2 = seat(&order, &[3, 4], 2, &NEVER).unwrap();
        assert_eq!(r2[0].seats, vec![2, 3, 4, 1]);
        assert_eq!(r2[1].seats, vec![6, 7, 5]);
        let r4 = seat(&order, &[3, 4], 4, &NEVER).unwrap();
        assert_eq!(r4[0].seats, vec![4, 1, 2, 3]);
        assert_eq!(r4[1].seats, vec![5, 6, 7]);
    }
}
