//! Scoring and standings: points per game and bye, the tally of each entrant, and the ranking by
//! points then the organiser's tie-breaks.
//!
//! Scoring (design.md section 15): a game gives points by place from a list (two seats: win 1,
//! draw ½, loss 0; tables: the organiser's list, shared places split the points of the places
//! they cover). A forfeit gives the present seats the points of a win and the absent ones 0. A
//! pairing-allocated bye gives the competition's bye points (default 1), a full-point bye 1, a
//! half-point bye ½, a zero-point bye 0. Unfinished games count for nothing.

use super::tiebreaks::{self, TieBreak, TieBreakValue};
use super::{ByeKind, ByeRecord, Entrant, EntrantId, GameRecord, GameResult, Points};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// How results turn into points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scoring {
    /// Points of a pairing-allocated bye (default 1).
    #[serde(default = "one")]
    pub bye_points: Points,
    /// Points by place, first place first; `None` gives each seat one point per seat it beat
    /// (two seats: 1 and 0, so a draw is ½ each).
    #[serde(default)]
    pub place_points: Option<Vec<Points>>,
}

fn one() -> Points {
    Points::ONE
}

impl Default for Scoring {
    fn default() -> Scoring {
        Scoring {
            bye_points: Points::ONE,
            place_points: None,
        }
    }
}

impl Scoring {
    fn place_value(&self, seats: usize, place: usize) -> Points {
        match &self.place_points {
            Some(list) => list.get(place).copied().unwrap_or(Points::ZERO),
            None => Points::whole(seats.saturating_sub(place + 1) as i64),
        }
    }

    /// The points of seat `seat` in a finished game (zero while it is pending).
    pub fn game_points(&self, game: &GameRecord, seat: usize) -> Points {
        let n = game.seats.len();
        match &game.result {
            GameResult::Pending => Points::ZERO,
            GameResult::Played { places, .. } => {
                let Some(&mine) = places.get(seat) else {
                    return Points::ZERO;
                };
                // Places are 1-based; equal places share the points of the places they cover.
                let first = places.iter().filter(|p| **p < mine).count();
                let shared = places.iter().filter(|p| **p == mine).count().max(1);
                let total: Points = (first..first + shared)
                    .map(|p| self.place_value(n, p))
                    .sum();
                total.shared_by(shared as i64)
            }
            GameResult::Forfeit { absent } => {
                if absent.get(seat).copied().unwrap_or(true) {
                    Points::ZERO
                } else {
                    self.place_value(n, 0)
                }
            }
        }
    }

    /// The points a bye gives.
    pub fn bye_points(&self, kind: ByeKind) -> Points {
        match kind {
            ByeKind::PairingAllocated => self.bye_points,
            ByeKind::Full => Points::ONE,
            ByeKind::Half => Points::HALF,
            ByeKind::Zero => Points::ZERO,
        }
    }
}

/// Counts for one entrant.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub points: Points,
    /// Games played over the board.
    pub played: u32,
    /// Sole first place (two seats: won).
    pub wins: u32,
    /// Shared first place (two seats: drawn).
    pub draws: u32,
    pub losses: u32,
    pub forfeit_wins: u32,
    pub forfeit_losses: u32,
    /// Byes of any kind.
    pub byes: u32,
}

/// One row of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// Equal points and equal tie-breaks share a rank (1, 2, 2, 4).
    pub rank: u32,
    pub entrant: EntrantId,
    #[serde(flatten)]
    pub tally: Tally,
    pub tie_breaks: Vec<TieBreakValue>,
}

/// A played game as one entrant saw it against one opponent: 2, 1 or 0 half points (won, drawn,
/// lost; at a table, placed better, equal or worse).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Encounter {
    pub opponent: EntrantId,
    pub halves: i64,
}

/// One entrant's share of the results: its tally, encounters and, per round it was scheduled,
/// the opponents it met over the board (none for a bye or a forfeit).
#[derive(Debug, Clone, Default)]
pub(crate) struct Line {
    pub tally: Tally,
    pub encounters: Vec<Encounter>,
    pub rounds: Vec<Vec<EntrantId>>,
    pub game_score: i64,
    pub rating: i32,
}

/// Every entrant's line, for tie-breaks.
pub(crate) struct Ledger {
    lines: HashMap<EntrantId, Line>,
}

impl Ledger {
    pub(crate) fn new(
        entrants: &[Entrant],
        games: &[GameRecord],
        byes: &[ByeRecord],
        scoring: &Scoring,
    ) -> Ledger {
        let mut lines: HashMap<EntrantId, Line> = entrants
            .iter()
            .map(|e| {
                let line = Line {
                    rating: e.rating.unwrap_or(0),
                    ..Line::default()
                };
                (e.id, line)
            })
            .collect();
        for game in games {
            for (seat, id) in game.seats.iter().enumerate() {
                let Some(line) = lines.get_mut(id) else {
                    continue;
                };
                record_game(line, game, seat, scoring);
            }
        }
        for bye in byes {
            if let Some(line) = lines.get_mut(&bye.entrant) {
                line.tally.points += scoring.bye_points(bye.kind);
                line.tally.byes += 1;
                line.rounds.push(Vec::new());
            }
        }
        Ledger { lines }
    }

    pub(crate) fn line(&self, e: EntrantId) -> Option<&Line> {
        self.lines.get(&e)
    }

    /// An entrant's points; entrants outside the competition count 0.
    pub(crate) fn points(&self, e: EntrantId) -> Points {
        self.lines
            .get(&e)
            .map(|l| l.tally.points)
            .unwrap_or_default()
    }

    /// Per scheduled round, the sum of the final scores of the opponents met over the board.
    pub(crate) fn round_contributions(&self, e: EntrantId) -> Vec<Points> {
        self.lines
            .get(&e)
            .map(|l| {
                l.rounds
                    .iter()
                    .map(|opps| opps.iter().map(|o| self.points(*o)).sum())
                    .collect()
            })
            .unwrap_or_default()
    }
}

fn record_game(line: &mut Line, game: &GameRecord, seat: usize, scoring: &Scoring) {
    match &game.result {
        GameResult::Pending => {}
        GameResult::Played { places, scores } => {
            let mine = places.get(seat).copied().unwrap_or(u32::MAX);
            line.tally.points += scoring.game_points(game, seat);
            line.tally.played += 1;
            let best = places.iter().copied().min().unwrap_or(mine);
            let at_best = places.iter().filter(|p| **p == best).count();
            if mine == best && at_best == 1 {
                line.tally.wins += 1;
            } else if mine == best {
                line.tally.draws += 1;
            } else {
                line.tally.losses += 1;
            }
            let mut met = Vec::new();
            for (other, id) in game.seats.iter().enumerate() {
                if other == seat {
                    continue;
                }
                let theirs = places.get(other).copied().unwrap_or(u32::MAX);
                let halves = match mine.cmp(&theirs) {
                    std::cmp::Ordering::Less => 2,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Greater => 0,
                };
                line.encounters.push(Encounter {
                    opponent: *id,
                    halves,
                });
                met.push(*id);
            }
            line.rounds.push(met);
            if let Some(s) = scores.as_ref().and_then(|s| s.get(seat)) {
                line.game_score += *s;
            }
        }
        GameResult::Forfeit { absent } => {
            line.tally.points += scoring.game_points(game, seat);
            if absent.get(seat).copied().unwrap_or(true) {
                line.tally.forfeit_losses += 1;
            } else {
                line.tally.forfeit_wins += 1;
            }
            line.rounds.push(Vec::new());
        }
    }
}

/// The tallies alone (for pairing): entrant id → tally.
pub fn tallies(
    entrants: &[Entrant],
    games: &[GameRecord],
    byes: &[ByeRecord],
    scoring: &Scoring,
) -> HashMap<EntrantId, Tally> {
    Ledger::new(entrants, games, byes, scoring)
        .lines
        .into_iter()
        .map(|(id, l)| (id, l.tally))
        .collect()
}

/// The standings: by points, then by `order` of tie-breaks, then (sharing the rank) by the order
/// `entrants` are given in (pairing numbers).
pub fn standings(
    entrants: &[Entrant],
    games: &[GameRecord],
    byes: &[ByeRecord],
    scoring: &Scoring,
    order: &[TieBreak],
) -> Vec<Standing> {
    let ledger = Ledger::new(entrants, games, byes, scoring);
    let ids: Vec<EntrantId> = entrants.iter().map(|e| e.id).collect();
    // keys[i] = points then the tie-break values so far, for entrant ids[i].
    let mut keys: Vec<Vec<Points>> = ids.iter().map(|e| vec![ledger.points(*e)]).collect();
    for tb in order {
        let values: Vec<Points> = if *tb == TieBreak::HeadToHead {
            ids.iter()
                .zip(&keys)
                .map(|(e, key)| {
                    let group: HashSet<EntrantId> = ids
                        .iter()
                        .zip(&keys)
                        .filter(|(_, k)| *k == key)
                        .map(|(id, _)| *id)
                        .collect();
                    tiebreaks::head_to_head(&ledger, *e, &group)
                })
                .collect()
        } else {
            ids.iter()
                .map(|e| tiebreaks::value(*tb, &ledger, *e))
                .collect()
        };
        for (key, v) in keys.iter_mut().zip(values) {
            key.push(v);
        }
    }
    let mut rows: Vec<(usize, &Vec<Points>)> = keys.iter().enumerate().collect();
    rows.sort_by(|(ia, a), (ib, b)| b.cmp(a).then(ia.cmp(ib)));
    let mut out: Vec<Standing> = Vec::with_capacity(rows.len());
    let mut previous: Option<&Vec<Points>> = None;
    let mut rank = 0;
    for (position, (i, key)) in rows.into_iter().enumerate() {
        if previous != Some(key) {
            rank = position as u32 + 1;
        }
        previous = Some(key);
        let Some(&entrant) = ids.get(i) else {
            continue;
        };
        let tally = ledger.line(entrant).map(|l| l.tally).unwrap_or_default();
        let tie_breaks = order
            .iter()
            .zip(key.iter().skip(1))
            .map(|(name, value)| TieBreakValue {
                name: *name,
                value: *value,
            })
            .collect();
        out.push(Standing {
            rank,
            entrant,
            tally,
            tie_breaks,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrants(n: u32) -> Vec<Entrant> {
        (1..=n)
            .map(|id| Entrant {
                id,
                name: format!("P{id}"),
                rating: Some(2000 - id as i32 * 10),
            })
            .collect()
    }

    /// A two-seat game: `r` is "1-0", "0-1" or "½".
    fn g(round: u32, white: u32, black: u32, r: &str) -> GameRecord {
        let places = match r {
            "1-0" => vec![1, 2],
            "0-1" => vec![2, 1],
            _ => vec![1, 1],
        };
        GameRecord {
            round,
            seats: vec![white, black],
            result: GameResult::Played {
                places,
                scores: None,
            },
        }
    }

    fn row(table: &[Standing], id: u32) -> &Standing {
        table.iter().find(|s| s.entrant == id).unwrap()
    }

    fn tb(s: &Standing, name: TieBreak) -> Points {
        s.tie_breaks.iter().find(|t| t.name == name).unwrap().value
    }

    /// A 5-entrant event of 3 rounds (hand-computed below):
    /// R1: 1–2 1-0, 3–4 ½, 5 bye (PAB)
    /// R2: 5–1 0-1, 2–3 1-0, 4 bye (PAB)
    /// R3: 1–4 ½, 3–5 1-0, 2 bye (PAB)
    /// Scores: 1: 1+1+½ = 2.5; 2: 0+1+1 = 2; 3: ½+0+1 = 1.5; 4: ½+1+½ = 2; 5: 1+0+0 = 1.
    fn event() -> (Vec<Entrant>, Vec<GameRecord>, Vec<ByeRecord>) {
        let games = vec![
            g(1, 1, 2, "1-0"),
            g(1, 3, 4, "½"),
            g(2, 5, 1, "0-1"),
            g(2, 2, 3, "1-0"),
            g(3, 1, 4, "½"),
            g(3, 3, 5, "1-0"),
        ];
        let bye = |round, entrant| ByeRecord {
            round,
            entrant,
            kind: ByeKind::PairingAllocated,
        };
        (entrants(5), games, vec![bye(1, 5), bye(2, 4), bye(3, 2)])
    }

    #[test]
    fn points_count_wins_draws_losses_and_byes() {
        let (es, games, byes) = event();
        let t = standings(&es, &games, &byes, &Scoring::default(), &[]);
        let points: Vec<(u32, String)> = t
            .iter()
            .map(|s| (s.entrant, s.tally.points.to_string()))
            .collect();
        // 2 and 4 share 2 points; without tie-breaks they share the rank.
        assert_eq!(
            points,
            vec![
                (1, "2.5".into()),
                (2, "2".into()),
                (4, "2".into()),
                (3, "1.5".into()),
                (5, "1".into())
            ]
        );
        let ranks: Vec<u32> = t.iter().map(|s| s.rank).collect();
        assert_eq!(ranks, vec![1, 2, 2, 4, 5]);
        let one = row(&t, 1).tally;
        assert_eq!(
            (one.played, one.wins, one.draws, one.losses, one.byes),
            (3, 2, 1, 0, 0)
        );
        let four = row(&t, 4).tally;
        assert_eq!(
            (four.played, four.wins, four.draws, four.losses, four.byes),
            (2, 0, 2, 0, 1)
        );
    }

    #[test]
    fn a_bye_scores_what_the_organiser_chose() {
        let (es, games, byes) = event();
        let half = Scoring {
            bye_points: Points::HALF,
            ..Scoring::default()
        };
        let t = standings(&es, &games, &byes, &half, &[]);
        assert_eq!(row(&t, 5).tally.points, Points::HALF);
        assert_eq!(row(&t, 2).tally.points, Points::halves(3));
    }

    #[test]
    fn sonneborn_berger_by_hand() {
        // 1 beat 2 (2) and 5 (1), drew 4 (½·2): 2 + 1 + 1 = 4.
        // 2 beat 3 (1.5): 1.5.   3 drew 4 (½·2 = 1), beat 5 (1): 2.
        // 4 drew 3 (½·1.5 = 0.75) and 1 (½·2.5 = 1.25): 2.   5: 0.
        let (es, games, byes) = event();
        let t = standings(
            &es,
            &games,
            &byes,
            &Scoring::default(),
            &[TieBreak::SonnebornBerger],
        );
        let sb: Vec<(u32, String)> = t
            .iter()
            .map(|s| (s.entrant, tb(s, TieBreak::SonnebornBerger).to_string()))
            .collect();
        assert_eq!(
            sb,
            vec![
                (1, "4".into()),
                (4, "2".into()),
                (2, "1.5".into()),
                (3, "2".into()),
                (5, "0".into())
            ]
        );
        // 4 now ranks above 2 (2 > 1.5).
        assert_eq!(t[1].rank, 2);
        assert_eq!(t[2].rank, 3);
    }

    #[test]
    fn buchholz_and_its_cut_and_median_by_hand() {
        // Opponents' scores per round (bye = 0):
        // 1: 2 (2), 5 (1), 4 (2) → 5; cut-1 drops 1 → 4; median drops 1 and 2 → 2.
        // 2: 1 (2.5), 3 (1.5), bye 0 → 4; cut-1 → 4; median → 1.5.
        // 4: 3 (1.5), bye 0, 1 (2.5) → 4; cut-1 → 4; median → 1.5.
        // 3: 4 (2), 2 (2), 5 (1) → 5; cut-1 → 4; median → 2.
        // 5: bye 0, 1 (2.5), 3 (1.5) → 4; cut-1 → 4; median → 1.5.
        let (es, games, byes) = event();
        let order = [
            TieBreak::Buchholz,
            TieBreak::BuchholzCut1,
            TieBreak::MedianBuchholz,
        ];
        let t = standings(&es, &games, &byes, &Scoring::default(), &order);
        let got = |id| {
            let s = row(&t, id);
            order.map(|o| tb(s, o).to_string())
        };
        assert_eq!(got(1), ["5", "4", "2"]);
        assert_eq!(got(2), ["4", "4", "1.5"]);
        assert_eq!(got(3), ["5", "4", "2"]);
        assert_eq!(got(4), ["4", "4", "1.5"]);
        assert_eq!(got(5), ["4", "4", "1.5"]);
        // 2 and 4 tie on every Buchholz: they share rank 2.
        assert_eq!(row(&t, 2).rank, 2);
        assert_eq!(row(&t, 4).rank, 2);
    }

    #[test]
    fn head_to_head_counts_only_games_among_the_tied() {
        // Add a round 4 where 4 beats 2: 2 has 2, 4 has 3 ... make them tie instead:
        // R4: 2–4 ½ → 2: 2.5, 4: 2.5, 1: 2.5 (bye-less round for 1 and 3, 5).
        // Among {1, 2, 4} (all 2.5): 1 beat 2 (1) and drew 4 (½) → 1.5; 2 lost to 1 and drew 4
        // → ½; 4 drew 1 and 2 → 1.
        let (es, mut games, byes) = event();
        games.push(g(4, 2, 4, "½"));
        let t = standings(
            &es,
            &games,
            &byes,
            &Scoring::default(),
            &[TieBreak::HeadToHead],
        );
        let h: Vec<(u32, String)> = t
            .iter()
            .map(|s| (s.entrant, tb(s, TieBreak::HeadToHead).to_string()))
            .collect();
        assert_eq!(
            &h[..3],
            &[(1, "1.5".into()), (4, "1".into()), (2, "0.5".into())]
        );
        // 3 (1.5) is alone on its points: nobody to compare with.
        assert_eq!(tb(row(&t, 3), TieBreak::HeadToHead), Points::ZERO);
    }

    #[test]
    fn wins_game_score_and_rating_by_hand() {
        let (es, mut games, byes) = event();
        // The game's own scores in round 3: 3 scored 40, 5 scored 25.
        games[5].result = GameResult::Played {
            places: vec![1, 2],
            scores: Some(vec![40, 25]),
        };
        games[1].result = GameResult::Played {
            places: vec![1, 1],
            scores: Some(vec![12, 12]),
        };
        let order = [TieBreak::Wins, TieBreak::GameScore, TieBreak::Rating];
        let t = standings(&es, &games, &byes, &Scoring::default(), &order);
        let got = |id| order.map(|o| tb(row(&t, id), o).to_string());
        assert_eq!(got(1), ["2", "0", "1990"]);
        assert_eq!(got(2), ["1", "0", "1980"]);
        assert_eq!(got(3), ["1", "52", "1970"]);
        assert_eq!(got(4), ["0", "12", "1960"]);
        assert_eq!(got(5), ["0", "25", "1950"]);
        // 2 and 4 tie on points; 2 has more wins.
        assert_eq!(row(&t, 2).rank, 2);
        assert_eq!(row(&t, 4).rank, 3);
    }

    #[test]
    fn forfeits_score_but_are_not_played_and_do_not_feed_buchholz() {
        let es = entrants(2);
        let games = vec![GameRecord {
            round: 1,
            seats: vec![1, 2],
            result: GameResult::Forfeit {
                absent: vec![false, true],
            },
        }];
        let t = standings(&es, &games, &[], &Scoring::default(), &[TieBreak::Buchholz]);
        let one = row(&t, 1);
        assert_eq!(one.tally.points, Points::ONE);
        assert_eq!((one.tally.played, one.tally.forfeit_wins), (0, 1));
        assert_eq!(tb(one, TieBreak::Buchholz), Points::ZERO);
        assert_eq!(row(&t, 2).tally.forfeit_losses, 1);
    }

    #[test]
    fn places_at_a_table_give_points_by_place_and_shared_places_split() {
        let scoring = Scoring {
            place_points: Some(vec![Points::whole(4), Points::whole(2), Points::whole(1)]),
            ..Scoring::default()
        };
        let game = |places: Vec<u32>| GameRecord {
            round: 1,
            seats: vec![1, 2, 3, 4],
            result: GameResult::Played {
                places,
                scores: None,
            },
        };
        let pts = |g: &GameRecord| -> Vec<String> {
            (0..4)
                .map(|s| scoring.game_points(g, s).to_string())
                .collect()
        };
        assert_eq!(pts(&game(vec![1, 2, 3, 4])), ["4", "2", "1", "0"]);
        assert_eq!(pts(&game(vec![1, 1, 3, 4])), ["3", "3", "1", "0"]);
        assert_eq!(pts(&game(vec![1, 1, 1, 4])), ["2.33", "2.33", "2.33", "0"]);
        assert_eq!(pts(&game(vec![2, 1, 3, 3])), ["2", "4", "0.5", "0.5"]);
        // The thirds stay exact: the three shares add up to 7.
        let g = game(vec![1, 1, 1, 4]);
        let sum: Points = (0..3).map(|s| scoring.game_points(&g, s)).sum();
        assert_eq!(sum, Points::whole(7));
        // Default: one point per seat beaten.
        let default = Scoring::default();
        let v: Vec<String> = (0..4)
            .map(|s| default.game_points(&game(vec![1, 2, 2, 4]), s).to_string())
            .collect();
        assert_eq!(v, ["3", "1.5", "1.5", "0"]);
    }
}
