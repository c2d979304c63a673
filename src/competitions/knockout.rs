//! Knockout: a bracket seeded by rating, byes to the next power of two, matches of 1 or 2 games.
//!
//! Seeds are placed in the standard bracket order (1 v 16, 8 v 9, 4 v 13, 5 v 12, 2 v 15, 7 v 10,
//! 3 v 14, 6 v 11 for 16), so the top two seeds can only meet in the final. With fewer entrants
//! than the power of two, the missing seeds are byes and the top seeds get them. A match is 1 or
//! 2 games, the second with the seats swapped (the better seed takes seat 0 first); when it is
//! tied on points a deciding game follows, the better seed in seat 0, then alternating until one
//! of them wins one.

use super::{EntrantId, GameResult};
use serde::{Deserialize, Serialize};

/// One line of a knockout round, in bracket order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Tie {
    /// Advances without playing.
    Bye { entrant: EntrantId },
    /// `high` is the better seed.
    Match { high: EntrantId, low: EntrantId },
}

impl Tie {
    /// The entrants of this line.
    pub fn entrants(&self) -> Vec<EntrantId> {
        match *self {
            Tie::Bye { entrant } => vec![entrant],
            Tie::Match { high, low } => vec![high, low],
        }
    }
}

/// Seed numbers (1-based) in bracket order for a bracket of `size` (a power of two).
pub fn bracket_order(size: usize) -> Vec<usize> {
    let mut order = vec![1];
    while order.len() < size {
        let n = order.len() * 2;
        order = order.iter().flat_map(|s| [*s, n + 1 - *s]).collect();
    }
    order
}

/// Round 1 from the entrants in seed order (best first): matches and byes in bracket order.
pub fn first_round(seeds: &[EntrantId]) -> Vec<Tie> {
    let size = seeds.len().next_power_of_two().max(2);
    let order = bracket_order(size);
    order
        .chunks(2)
        .filter_map(|pair| {
            let seed = |i: usize| pair.get(i).and_then(|s| seeds.get(s - 1)).copied();
            match (seed(0), seed(1)) {
                (Some(high), Some(low)) => Some(Tie::Match { high, low }),
                (Some(entrant), None) | (None, Some(entrant)) => Some(Tie::Bye { entrant }),
                (None, None) => None,
            }
        })
        .collect()
}

/// The next round from the previous round's winners in bracket order (one per line of the
/// previous round); `seeds` (best first) decides who is the better seed of each match.
pub fn next_round(winners: &[EntrantId], seeds: &[EntrantId]) -> Vec<Tie> {
    let rank = |e: EntrantId| seeds.iter().position(|s| *s == e).unwrap_or(usize::MAX);
    winners
        .chunks(2)
        .filter_map(|pair| match *pair {
            [a, b] if rank(a) <= rank(b) => Some(Tie::Match { high: a, low: b }),
            [a, b] => Some(Tie::Match { high: b, low: a }),
            [a] => Some(Tie::Bye { entrant: a }),
            _ => None,
        })
        .collect()
}

/// The number of lines (matches or byes) of knockout round `round` (1-based) for `entrants`:
/// half the bracket in round 1, half as many each round after, 1 for the final.
pub fn lines_in_round(entrants: usize, round: u32) -> usize {
    let size = entrants.next_power_of_two().max(2);
    (size >> round.min(usize::BITS - 1)).max(1)
}

/// The next round from the previous round's lines in bracket order: each line's winner, or
/// `None` where nobody goes on (both entrants of a match left, or the one who won it). The
/// bracket keeps its shape: line `i` of the next round (its table `i + 1`) takes lines `2i` and
/// `2i + 1`, so nobody meets an opponent from the wrong half. A winner whose opponent-to-be is
/// missing advances by walkover (a bye); two empty lines give an empty one (`None`).
/// `seeds` (best first) decides who is the better seed of each match.
pub fn next_round_lines(lines: &[Option<EntrantId>], seeds: &[EntrantId]) -> Vec<Option<Tie>> {
    let rank = |e: EntrantId| seeds.iter().position(|s| *s == e).unwrap_or(usize::MAX);
    lines
        .chunks(2)
        .map(|pair| match *pair {
            [Some(a), Some(b)] if rank(a) <= rank(b) => Some(Tie::Match { high: a, low: b }),
            [Some(a), Some(b)] => Some(Tie::Match { high: b, low: a }),
            [Some(a), None] | [None, Some(a)] | [Some(a)] => Some(Tie::Bye { entrant: a }),
            _ => None,
        })
        .collect()
}

/// What a match needs next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum MatchStep {
    /// Play this game; `deciding` when the regular games are over and tied.
    Play {
        seats: [EntrantId; 2],
        deciding: bool,
    },
    /// A game is still being played.
    Wait,
    /// The match is over.
    Won { winner: EntrantId, loser: EntrantId },
}

/// The state of a match of `games_per_match` (1 or 2) between `high` and `low`, from the results
/// of its games so far in order (each with its seats as [`MatchStep::Play`] gave them).
pub fn match_step(
    high: EntrantId,
    low: EntrantId,
    games_per_match: u8,
    games: &[(Vec<EntrantId>, GameResult)],
) -> MatchStep {
    let regular = usize::from(games_per_match.clamp(1, 2));
    let (mut high_halves, mut low_halves) = (0u32, 0u32);
    for (i, (seats, result)) in games.iter().enumerate() {
        let seat_of = |e| seats.iter().position(|s| *s == e);
        let halves = |e: EntrantId| -> u32 {
            match (result, seat_of(e)) {
                (GameResult::Played { places, .. }, Some(seat)) => {
                    let mine = places.get(seat).copied().unwrap_or(u32::MAX);
                    let best = places.iter().copied().min().unwrap_or(mine);
                    let shared = places.iter().filter(|p| **p == best).count();
                    match (mine == best, shared) {
                        (true, 1) => 2,
                        (true, _) => 1,
                        _ => 0,
                    }
                }
                (GameResult::Forfeit { absent }, Some(seat)) => {
                    if absent.get(seat).copied().unwrap_or(true) {
                        0
                    } else {
                        2
                    }
                }
                _ => 0,
            }
        };
        if matches!(result, GameResult::Pending) {
            return MatchStep::Wait;
        }
        let (h, l) = (halves(high), halves(low));
        if i >= regular {
            // A deciding game: the first one won ends the match.
            if h > l {
                return MatchStep::Won {
                    winner: high,
                    loser: low,
                };
            }
            if l > h {
                return MatchStep::Won {
                    winner: low,
                    loser: high,
                };
            }
        } else {
            high_halves += h;
            low_halves += l;
        }
    }
    let played = games.len();
    if played < regular {
        let seats = if played.is_multiple_of(2) {
            [high, low]
        } else {
            [low, high]
        };
        return MatchStep::Play {
            seats,
            deciding: false,
        };
    }
    if played == regular && high_halves != low_halves {
        return if high_halves > low_halves {
            MatchStep::Won {
                winner: high,
                loser: low,
            }
        } else {
            MatchStep::Won {
                winner: low,
                loser: high,
            }
        };
    }
    let deciders = played - regular;
    let seats = if deciders.is_multiple_of(2) {
        [high, low]
    } else {
        [low, high]
    };
    MatchStep::Play {
        seats,
        deciding: true,
    }
}

/// Final places: the champion 1, the final's loser 2, the losers of round r share the place after
/// everyone who went further (2 semi-final losers share 3, quarter-final losers share 5...).
/// `eliminated` lists, per round in order, the entrants knocked out in it; `champion` is the winner.
pub fn placings(eliminated: &[Vec<EntrantId>], champion: EntrantId) -> Vec<(EntrantId, u32)> {
    let mut out = vec![(champion, 1)];
    let mut place = 2;
    for losers in eliminated.iter().rev() {
        for e in losers {
            out.push((*e, place));
        }
        place += losers.len() as u32;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(seat: usize) -> GameResult {
        GameResult::Played {
            places: if seat == 0 { vec![1, 2] } else { vec![2, 1] },
            scores: None,
        }
    }

    fn draw() -> GameResult {
        GameResult::Played {
            places: vec![1, 1],
            scores: None,
        }
    }

    #[test]
    fn the_bracket_order_is_the_standard_one() {
        assert_eq!(bracket_order(2), vec![1, 2]);
        assert_eq!(bracket_order(4), vec![1, 4, 2, 3]);
        assert_eq!(bracket_order(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
        assert_eq!(
            bracket_order(16),
            vec![1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
        );
    }

    #[test]
    fn five_entrants_give_three_byes_to_the_top_seeds_and_one_game() {
        let seeds = [10, 20, 30, 40, 50];
        let r1 = first_round(&seeds);
        assert_eq!(
            r1,
            vec![
                Tie::Bye { entrant: 10 },
                Tie::Match { high: 40, low: 50 },
                Tie::Bye { entrant: 20 },
                Tie::Bye { entrant: 30 },
            ]
        );
        // 50 upsets 40: round 2 is 10 v 50 and 20 v 30, the final one game.
        let r2 = next_round(&[10, 50, 20, 30], &seeds);
        assert_eq!(
            r2,
            vec![
                Tie::Match { high: 10, low: 50 },
                Tie::Match { high: 20, low: 30 }
            ]
        );
        assert_eq!(
            next_round(&[50, 20], &seeds),
            vec![Tie::Match { high: 20, low: 50 }]
        );
    }

    #[test]
    fn brackets_with_byes_for_every_size_from_2_to_40() {
        for n in 2..=40u32 {
            let seeds: Vec<u32> = (1..=n).collect();
            let r1 = first_round(&seeds);
            let size = (n as usize).next_power_of_two();
            let byes: Vec<u32> = r1
                .iter()
                .filter_map(|t| match t {
                    Tie::Bye { entrant } => Some(*entrant),
                    _ => None,
                })
                .collect();
            assert_eq!(byes.len(), size - n as usize, "{n}");
            // The byes go to the top seeds.
            let mut sorted = byes.clone();
            sorted.sort();
            assert_eq!(sorted, (1..=byes.len() as u32).collect::<Vec<_>>(), "{n}");
            let mut all: Vec<u32> = r1.iter().flat_map(|t| t.entrants()).collect();
            all.sort();
            assert_eq!(all, seeds, "{n}: everyone once");
            // Higher seeds always win: the final is 1 v 2.
            let mut round = r1;
            while round.len() > 1 {
                let winners: Vec<u32> = round
                    .iter()
                    .map(|t| match *t {
                        Tie::Bye { entrant } => entrant,
                        Tie::Match { high, .. } => high,
                    })
                    .collect();
                round = next_round(&winners, &seeds);
            }
            if n >= 2 {
                assert_eq!(round, vec![Tie::Match { high: 1, low: 2 }], "{n}");
            }
        }
    }

    #[test]
    fn a_one_game_match_goes_to_its_winner_and_a_draw_needs_a_decider() {
        assert_eq!(
            match_step(1, 2, 1, &[]),
            MatchStep::Play {
                seats: [1, 2],
                deciding: false
            }
        );
        assert_eq!(
            match_step(1, 2, 1, &[(vec![1, 2], win(1))]),
            MatchStep::Won {
                winner: 2,
                loser: 1
            }
        );
        assert_eq!(
            match_step(1, 2, 1, &[(vec![1, 2], GameResult::Pending)]),
            MatchStep::Wait
        );
        assert_eq!(
            match_step(1, 2, 1, &[(vec![1, 2], draw())]),
            MatchStep::Play {
                seats: [1, 2],
                deciding: true
            }
        );
    }

    #[test]
    fn a_two_game_match_swaps_seats_and_a_tie_is_decided() {
        assert_eq!(
            match_step(1, 2, 2, &[(vec![1, 2], win(0))]),
            MatchStep::Play {
                seats: [2, 1],
                deciding: false
            }
        );
        // 1–0 then ½–½: 1 wins the match 1.5–0.5.
        assert_eq!(
            match_step(1, 2, 2, &[(vec![1, 2], win(0)), (vec![2, 1], draw())]),
            MatchStep::Won {
                winner: 1,
                loser: 2
            }
        );
        // Each wins with seat 0: 1–1, a decider with the better seed in seat 0.
        let tied = [(vec![1, 2], win(0)), (vec![2, 1], win(0))];
        assert_eq!(
            match_step(1, 2, 2, &tied),
            MatchStep::Play {
                seats: [1, 2],
                deciding: true
            }
        );
        // A drawn decider: another, seats swapped; then 2 wins it.
        let mut more = tied.to_vec();
        more.push((vec![1, 2], draw()));
        assert_eq!(
            match_step(1, 2, 2, &more),
            MatchStep::Play {
                seats: [2, 1],
                deciding: true
            }
        );
        more.push((vec![2, 1], win(0)));
        assert_eq!(
            match_step(1, 2, 2, &more),
            MatchStep::Won {
                winner: 2,
                loser: 1
            }
        );
        // A forfeit counts as a win for the one present.
        let forfeit = GameResult::Forfeit {
            absent: vec![true, false],
        };
        assert_eq!(
            match_step(1, 2, 1, &[(vec![1, 2], forfeit)]),
            MatchStep::Won {
                winner: 2,
                loser: 1
            }
        );
    }

    #[test]
    fn an_empty_line_gives_its_neighbour_a_walkover_and_the_bracket_keeps_its_shape() {
        assert_eq!(lines_in_round(4, 1), 2);
        assert_eq!(lines_in_round(4, 2), 1);
        assert_eq!(lines_in_round(5, 1), 4);
        assert_eq!(lines_in_round(2, 1), 1);
        let seeds = [1, 2, 3, 4, 5, 6, 7, 8];
        // Match 1 lost both its players: the winner of match 2 gets a walkover to the final of
        // its half rather than meeting someone from the other half.
        assert_eq!(
            next_round_lines(&[None, Some(4), Some(2), Some(7)], &seeds),
            vec![
                Some(Tie::Bye { entrant: 4 }),
                Some(Tie::Match { high: 2, low: 7 })
            ]
        );
        assert_eq!(
            next_round_lines(&[None, None, Some(6), Some(3)], &seeds),
            vec![None, Some(Tie::Match { high: 3, low: 6 })]
        );
    }

    #[test]
    fn placings_follow_the_round_of_elimination() {
        let p = placings(&[vec![40], vec![10, 30], vec![20]], 50);
        assert_eq!(p, vec![(50, 1), (20, 2), (10, 3), (30, 3), (40, 5)]);
    }
}
