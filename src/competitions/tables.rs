//! Tables for games of 3–5 seats (Lancaster, Merchants & Marauders): entrants split into tables of
//! the organiser's sizes, seats rotating from round to round; points by place are in
//! [`super::standings::Scoring`].
//!
//! The split is as even as possible: the fewest tables whose sizes differ by at most one and are
//! all allowed; failing that, any allowed split with the smallest spread of sizes. Entrants are
//! seated in the order given (pairing numbers in round 1, standings later, so leaders meet), table
//! by table, larger tables first; within a table the seat order turns by one place each round so
//! that seat 0 (who starts) rotates.

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

/// Round `round`'s tables (1-based) for the entrants in `order`.
pub fn seat(order: &[EntrantId], allowed: &[usize], round: u32) -> Result<Vec<Table>, TablesError> {
    let sizes = table_sizes(order.len(), allowed)?;
    let mut rest = order;
    let mut out = Vec::with_capacity(sizes.len());
    for (i, size) in sizes.into_iter().enumerate() {
        let (here, later) = rest.split_at(size.min(rest.len()));
        rest = later;
        let mut seats = here.to_vec();
        if !seats.is_empty() {
            let turn = (round.saturating_sub(1) as usize) % seats.len();
            seats.rotate_left(turn);
        }
        out.push(Table {
            number: i as u32 + 1,
            seats,
        });
    }
    Ok(out)
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
            let Ok(tables) = seat(&order, &[3, 4, 5], 1) else {
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

    #[test]
    fn seats_rotate_from_round_to_round() {
        let order = [1, 2, 3, 4, 5, 6, 7];
        let r1 = seat(&order, &[3, 4], 1).unwrap();
        assert_eq!(r1[0].seats, vec![1, 2, 3, 4]);
        assert_eq!(r1[1].seats, vec![5, 6, 7]);
        let r2 = seat(&order, &[3, 4], 2).unwrap();
        assert_eq!(r2[0].seats, vec![2, 3, 4, 1]);
        assert_eq!(r2[1].seats, vec![6, 7, 5]);
        let r4 = seat(&order, &[3, 4], 4).unwrap();
        assert_eq!(r4[0].seats, vec![4, 1, 2, 3]);
        assert_eq!(r4[1].seats, vec![5, 6, 7]);
    }
}
