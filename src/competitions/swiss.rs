//! Swiss pairings by the FIDE Dutch system (C.04.3, rules in force since 2017), seat 0 = White.
//!
//! A round is paired bracket by bracket from the top score down (A.3, A.9). Each bracket holds
//! the residents of a score group and the moved-down players (MDPs) the bracket above could not
//! pair. Candidates are generated in the handbook's order (D): for a heterogeneous bracket the
//! MDPs (S1) take residents (S2) in order, then the remainder is paired as a homogeneous bracket;
//! a homogeneous bracket pairs S1 (the top half) against S2 by transpositions of S2 in
//! lexicographic order, then by exchanges between S1 and S2 (fewest players first, then the
//! smallest difference of the sums of their bracket sequence numbers). Of the candidates that
//! meet the absolute criteria and the completion criterion, the first best by the quality
//! criteria wins.
//!
//! - Absolute (C1–C3): no two entrants meet twice; nobody gets a second pairing-allocated bye
//!   (nor one after a forfeit win); two non-topscorers with the same absolute colour preference
//!   never meet.
//! - Completion (C4): a bracket is only paired in a way that lets everybody below still be paired
//!   (checked exactly, by maximum-cardinality matching over the remaining entrants).
//! - Quality, in order: C5 the most pairs (exact, by weighted matching), C6 the smallest pairing
//!   score difference (PSD), C7 the most pairs in the next bracket for the downfloaters (pairs
//!   only, not its PSD), C8–C9 topscorers' colour difference beyond ±2 and three same colours in
//!   a row, C10 colour preferences, C11 strong colour preferences, C12–C15 repeated down/upfloats
//!   from the last round and the one before, C16–C19 their score differences.
//! - Colours by E.1–E.5: both preferences, the stronger one, alternation from the latest round
//!   with different colours, the higher ranked entrant's preference, else the higher ranked gets
//!   White when its pairing number is odd (the initial colour is White).
//!
//! Approximations: the pairing-allocated bye is chosen first (the lowest-ranked eligible entrant
//! whose removal still lets everybody else be paired) rather than inside the last bracket; MDPs
//! are only paired with residents; exchanges go up to two players each way; C7 compares only the
//! number of pairs the downfloaters allow in the next bracket, and C16–C19 sum the score
//! differences. The search is a branch and bound over the candidates in the handbook's order
//! (the counts of C8–C19 only grow as pairs are added) with a budget per bracket: it stops at a
//! candidate that meets every criterion's lower bound, else after the budget, keeping the first
//! best found; if it found none, the matching that proved C5 is used. A forfeited game counts as
//! a meeting unless `rematch_after_forfeit` is set (FIDE counts it as not played).

use super::standings::Scoring;
use super::{ByeKind, ByeRecord, EntrantId, GameRecord, GameResult, Points};
use mwmatching::{Matching, SENTINEL};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// A Swiss round: boards in order (seat 0 = White) and the pairing-allocated bye.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissRound {
    pub pairings: Vec<[EntrantId; 2]>,
    pub bye: Option<EntrantId>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SwissError {
    #[error("nobody to pair")]
    NoEntrants,
    #[error("round {round} of {rounds} does not exist")]
    NoSuchRound { round: u32, rounds: u32 },
    #[error("no pairing satisfies the absolute criteria (everyone has met, or no bye is allowed)")]
    NoPairing,
}

/// What pairing a round needs.
#[derive(Debug, Clone, Copy)]
pub struct SwissInput<'a> {
    /// The entrants to pair, pairing number 1 first (withdrawn entrants left out).
    pub players: &'a [EntrantId],
    /// Every game so far (earlier rounds).
    pub games: &'a [GameRecord],
    pub byes: &'a [ByeRecord],
    /// The round to pair, 1-based.
    pub round: u32,
    /// The number of rounds of the event (topscorers exist in the last one).
    pub rounds: u32,
    pub scoring: &'a Scoring,
    /// Whether two entrants whose game was forfeited may be paired again (FIDE counts a
    /// forfeited game as not played; `false` never pairs them twice).
    pub rematch_after_forfeit: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Colour {
    White,
    Black,
}

impl Colour {
    fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    None,
    Mild,
    Strong,
    Absolute,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pref {
    colour: Option<Colour>,
    strength: Strength,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Float {
    None,
    Down,
    Up,
}

#[derive(Debug, Clone)]
struct Player {
    id: EntrantId,
    /// Pairing number, 0-based.
    tpn: usize,
    score: Points,
    colours: Vec<Colour>,
    opponents: HashSet<EntrantId>,
    /// Has had a pairing-allocated bye or a forfeit win (C2).
    no_bye: bool,
    /// The float of the last round and of the round before.
    floats: [Float; 2],
    topscorer: bool,
    pref: Pref,
}

impl Player {
    fn cd(&self) -> i64 {
        self.colours
            .iter()
            .map(|c| if *c == Colour::White { 1 } else { -1 })
            .sum()
    }
}

/// A.6: the colour preference from the colours of the games played.
fn preference(colours: &[Colour]) -> Pref {
    let Some(&last) = colours.last() else {
        return Pref {
            colour: None,
            strength: Strength::None,
        };
    };
    let cd: i64 = colours
        .iter()
        .map(|c| if *c == Colour::White { 1 } else { -1 })
        .sum();
    let last_two_same = colours.len() >= 2 && colours.get(colours.len() - 2) == Some(&last);
    let (colour, strength) = if cd > 1 {
        (Colour::Black, Strength::Absolute)
    } else if cd < -1 {
        (Colour::White, Strength::Absolute)
    } else if last_two_same {
        (last.other(), Strength::Absolute)
    } else if cd == 1 {
        (Colour::Black, Strength::Strong)
    } else if cd == -1 {
        (Colour::White, Strength::Strong)
    } else {
        (last.other(), Strength::Mild)
    };
    Pref {
        colour: Some(colour),
        strength,
    }
}

/// Pairs round `input.round`.
pub fn pair(input: &SwissInput<'_>) -> Result<SwissRound, SwissError> {
    if input.players.is_empty() {
        return Err(SwissError::NoEntrants);
    }
    if input.round == 0 || input.round > input.rounds {
        return Err(SwissError::NoSuchRound {
            round: input.round,
            rounds: input.rounds,
        });
    }
    let players = build_players(input);
    let ctx = Ctx::new(players);
    let mut order: Vec<usize> = (0..ctx.players.len()).collect();
    order.sort_by(|a, b| ctx.rank_cmp(*a, *b));

    let bye = if order.len() % 2 == 1 {
        let chosen = order
            .iter()
            .rev()
            .copied()
            .filter(|x| !ctx.p(*x).no_bye)
            .find(|x| {
                let rest: Vec<usize> = order.iter().copied().filter(|y| y != x).collect();
                ctx.completes(&rest)
            });
        Some(chosen.ok_or(SwissError::NoPairing)?)
    } else {
        if !ctx.completes(&order) {
            return Err(SwissError::NoPairing);
        }
        None
    };
    let mut remaining: Vec<usize> = order.iter().copied().filter(|x| Some(*x) != bye).collect();

    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut mdps: Vec<usize> = Vec::new();
    while !remaining.is_empty() || !mdps.is_empty() {
        let Some(&top) = remaining.first() else {
            break;
        };
        let score = ctx.p(top).score;
        let residents: Vec<usize> = remaining
            .iter()
            .copied()
            .take_while(|x| ctx.p(*x).score == score)
            .collect();
        remaining.drain(..residents.len());
        let next_score = remaining.first().map(|x| ctx.p(*x).score);
        let next_group: Vec<usize> = remaining
            .iter()
            .copied()
            .take_while(|x| Some(ctx.p(*x).score) == next_score)
            .collect();
        let mut bracket = Bracket::new(&ctx, mdps, residents, &remaining, next_group);
        let (bracket_pairs, floaters) = bracket.pair();
        pairs.extend(bracket_pairs);
        mdps = floaters;
        mdps.sort_by(|a, b| ctx.rank_cmp(*a, *b));
        if remaining.is_empty() && !mdps.is_empty() {
            // Completion guarantees this never happens; pair what is left rather than lose anyone.
            let left = std::mem::take(&mut mdps);
            pairs.extend(ctx.matching_pairs(&left));
        }
    }

    let mut boards: Vec<(usize, usize)> = pairs
        .into_iter()
        .map(|(a, b)| {
            let (hi, lo) = if ctx.rank_cmp(a, b).is_le() {
                (a, b)
            } else {
                (b, a)
            };
            if ctx.allocate(hi, lo) == Colour::White {
                (hi, lo)
            } else {
                (lo, hi)
            }
        })
        .collect();
    boards.sort_by(|(a1, b1), (a2, b2)| {
        let key = |a: usize, b: usize| {
            let (sa, sb) = (ctx.p(a).score, ctx.p(b).score);
            (
                std::cmp::Reverse(sa.max(sb)),
                std::cmp::Reverse(sa + sb),
                ctx.p(a).tpn.min(ctx.p(b).tpn),
            )
        };
        key(*a1, *b1).cmp(&key(*a2, *b2))
    });
    Ok(SwissRound {
        pairings: boards
            .into_iter()
            .map(|(w, b)| [ctx.p(w).id, ctx.p(b).id])
            .collect(),
        bye: bye.map(|x| ctx.p(x).id),
    })
}

/// Scores, colours, opponents and floats from the rounds before `input.round`.
fn build_players(input: &SwissInput<'_>) -> Vec<Player> {
    let round = input.round;
    let earlier = |r: u32| r < round;
    let score_before = |id: EntrantId, before: u32| -> Points {
        let games: Points = input
            .games
            .iter()
            .filter(|g| g.round < before)
            .filter_map(|g| g.seat_of(id).map(|s| input.scoring.game_points(g, s)))
            .sum();
        let byes: Points = input
            .byes
            .iter()
            .filter(|b| b.round < before && b.entrant == id)
            .map(|b| input.scoring.bye_points(b.kind))
            .sum();
        games + byes
    };
    let float_in = |id: EntrantId, r: u32| -> Float {
        if r == 0 {
            return Float::None;
        }
        if input.byes.iter().any(|b| b.round == r && b.entrant == id) {
            return Float::Down;
        }
        let Some(g) = input
            .games
            .iter()
            .find(|g| g.round == r && g.seats.contains(&id))
        else {
            return Float::None;
        };
        if !g.is_played() {
            return Float::Down;
        }
        let Some(other) = g.seats.iter().copied().find(|s| *s != id) else {
            return Float::None;
        };
        let (mine, theirs) = (score_before(id, r), score_before(other, r));
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => Float::Down,
            std::cmp::Ordering::Less => Float::Up,
            std::cmp::Ordering::Equal => Float::None,
        }
    };
    let last_round = input.round == input.rounds;
    input
        .players
        .iter()
        .enumerate()
        .map(|(tpn, &id)| {
            let mut mine: Vec<&GameRecord> = input
                .games
                .iter()
                .filter(|g| earlier(g.round) && g.seats.contains(&id))
                .collect();
            mine.sort_by_key(|g| g.round);
            let colours: Vec<Colour> = mine
                .iter()
                .filter(|g| g.is_played())
                .filter_map(|g| match g.seat_of(id) {
                    Some(0) => Some(Colour::White),
                    Some(_) => Some(Colour::Black),
                    None => None,
                })
                .collect();
            let opponents = mine
                .iter()
                .filter(|g| {
                    !(input.rematch_after_forfeit && matches!(g.result, GameResult::Forfeit { .. }))
                })
                .flat_map(|g| g.seats.iter().copied())
                .filter(|o| *o != id)
                .collect();
            let forfeit_win = mine.iter().any(|g| match &g.result {
                GameResult::Forfeit { absent } => g
                    .seat_of(id)
                    .is_some_and(|s| !absent.get(s).copied().unwrap_or(true)),
                _ => false,
            });
            let had_bye = input.byes.iter().any(|b| {
                earlier(b.round)
                    && b.entrant == id
                    && matches!(b.kind, ByeKind::PairingAllocated | ByeKind::Full)
            });
            let score = score_before(id, round);
            // A.7: topscorers have more than half the maximum possible score in the last round.
            let topscorer = last_round && score > Points::halves(i64::from(round) - 1);
            Player {
                id,
                tpn,
                score,
                pref: preference(&colours),
                colours,
                opponents,
                no_bye: had_bye || forfeit_win,
                floats: [
                    float_in(id, round - 1),
                    float_in(id, round.saturating_sub(2)),
                ],
                topscorer,
            }
        })
        .collect()
}

/// The players and the absolute criteria between them.
struct Ctx {
    players: Vec<Player>,
    compatible: Vec<Vec<bool>>,
}

impl Ctx {
    fn new(players: Vec<Player>) -> Ctx {
        let n = players.len();
        let mut compatible = vec![vec![false; n]; n];
        for (i, a) in players.iter().enumerate() {
            for (j, b) in players.iter().enumerate() {
                let met = a.opponents.contains(&b.id) || b.opponents.contains(&a.id);
                let same_absolute = !a.topscorer
                    && !b.topscorer
                    && a.pref.strength == Strength::Absolute
                    && b.pref.strength == Strength::Absolute
                    && a.pref.colour == b.pref.colour;
                if let Some(cell) = compatible.get_mut(i).and_then(|row| row.get_mut(j)) {
                    *cell = i != j && !met && !same_absolute;
                }
            }
        }
        Ctx {
            players,
            compatible,
        }
    }

    fn p(&self, i: usize) -> &Player {
        // Indices always come from 0..players.len(); the fallback is never used.
        self.players.get(i).unwrap_or_else(|| fallback_player())
    }

    fn ok(&self, a: usize, b: usize) -> bool {
        self.compatible
            .get(a)
            .and_then(|row| row.get(b))
            .copied()
            .unwrap_or(false)
    }

    /// A.2: higher score first, then the lower pairing number.
    fn rank_cmp(&self, a: usize, b: usize) -> std::cmp::Ordering {
        let (pa, pb) = (self.p(a), self.p(b));
        pb.score.cmp(&pa.score).then(pa.tpn.cmp(&pb.tpn))
    }

    /// A maximum-weight matching (maximum cardinality first) over `set`; pairs as indices.
    fn matching(&self, set: &[usize], weight: &dyn Fn(usize, usize) -> i32) -> Vec<(usize, usize)> {
        let mut edges = Vec::new();
        for (i, &a) in set.iter().enumerate() {
            for (j, &b) in set.iter().enumerate().skip(i + 1) {
                if self.ok(a, b) {
                    edges.push((i, j, weight(a, b)));
                }
            }
        }
        if edges.is_empty() {
            return Vec::new();
        }
        let mate = Matching::new(edges).max_cardinality().solve();
        let mut out = Vec::new();
        for (i, &m) in mate.iter().enumerate() {
            if m != SENTINEL
                && i < m
                && let (Some(&a), Some(&b)) = (set.get(i), set.get(m))
            {
                out.push((a, b));
            }
        }
        out
    }

    /// C4: can everybody in `set` be paired?
    fn completes(&self, set: &[usize]) -> bool {
        if set.len() % 2 == 1 {
            return false;
        }
        set.is_empty() || self.matching(set, &|_, _| 1).len() * 2 == set.len()
    }

    fn matching_pairs(&self, set: &[usize]) -> Vec<(usize, usize)> {
        self.matching(set, &|_, _| 1)
    }

    /// E.1–E.5: the colour of `hi` (the higher ranked) against `lo`.
    fn allocate(&self, hi: usize, lo: usize) -> Colour {
        let (a, b) = (self.p(hi), self.p(lo));
        match (a.pref.colour, b.pref.colour) {
            (Some(ca), Some(cb)) if ca != cb => return ca,
            (Some(ca), None) => return ca,
            (None, Some(cb)) => return cb.other(),
            (None, None) => return initial(a),
            _ => {}
        }
        // Both want the same colour.
        let wanted = a.pref.colour.unwrap_or(Colour::White);
        if a.pref.strength != b.pref.strength {
            return if a.pref.strength > b.pref.strength {
                wanted
            } else {
                wanted.other()
            };
        }
        if a.pref.strength == Strength::Absolute && a.cd().abs() != b.cd().abs() {
            return if a.cd().abs() > b.cd().abs() {
                wanted
            } else {
                wanted.other()
            };
        }
        for (ca, cb) in a.colours.iter().rev().zip(b.colours.iter().rev()) {
            if ca != cb {
                return ca.other();
            }
        }
        wanted
    }
}

/// E.5: the higher ranked entrant gets White (the initial colour) when its pairing number is odd.
fn initial(p: &Player) -> Colour {
    if p.tpn.is_multiple_of(2) {
        Colour::White
    } else {
        Colour::Black
    }
}

fn fallback_player() -> &'static Player {
    static EMPTY: std::sync::OnceLock<Player> = std::sync::OnceLock::new();
    EMPTY.get_or_init(|| Player {
        id: 0,
        tpn: usize::MAX,
        score: Points::ZERO,
        colours: Vec::new(),
        opponents: HashSet::new(),
        no_bye: true,
        floats: [Float::None; 2],
        topscorer: false,
        pref: preference(&[]),
    })
}

/// How good a candidate is: compared field by field, smaller is better.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Quality {
    /// C6: score differences, highest first.
    psd: Vec<i64>,
    /// C7: minus the pairs the downfloaters allow in the next bracket.
    next_pairs: i64,
    /// C8–C19.
    counts: [i64; 12],
}

/// Candidates generated and evaluated per bracket before settling for the best so far.
const NODE_BUDGET: usize = 20000;
const LEAF_BUDGET: usize = 400;
/// Leaves for the remainder under one choice of MDP opponents, so that other choices get a turn.
const REMAINDER_BUDGET: usize = 150;

/// The best candidate of a bracket so far.
struct Best {
    quality: Quality,
    pairs: Vec<(usize, usize)>,
    floaters: Vec<usize>,
}

struct Bracket<'a> {
    ctx: &'a Ctx,
    mdps: Vec<usize>,
    residents: Vec<usize>,
    lower: Vec<usize>,
    next_group: Vec<usize>,
    lowest: Points,
    nodes: usize,
    leaves: usize,
    /// The leaf count at which the current remainder search stops.
    remainder_limit: usize,
    best: Option<Best>,
    ideal: Option<Quality>,
    completes: HashMap<Vec<usize>, bool>,
    next_pairs: HashMap<Vec<usize>, i64>,
    /// The PSD of every candidate under the current choice of MDPs (it does not depend on the
    /// residents chosen, who all have the same score).
    psd_here: Vec<i64>,
    /// C8–C19 of the pairs made so far on the current branch.
    partial: [i64; 12],
    pair_cache: HashMap<(usize, usize), [i64; 12]>,
    exchange_orders: HashMap<(usize, usize), std::rc::Rc<Vec<Exchange>>>,
}

impl<'a> Bracket<'a> {
    fn new(
        ctx: &'a Ctx,
        mdps: Vec<usize>,
        residents: Vec<usize>,
        lower: &[usize],
        next_group: Vec<usize>,
    ) -> Bracket<'a> {
        let lowest = residents
            .iter()
            .chain(&mdps)
            .map(|x| ctx.p(*x).score)
            .min()
            .unwrap_or_default();
        Bracket {
            ctx,
            mdps,
            residents,
            lower: lower.to_vec(),
            next_group,
            lowest,
            nodes: 0,
            leaves: 0,
            remainder_limit: usize::MAX,
            best: None,
            ideal: None,
            completes: HashMap::new(),
            next_pairs: HashMap::new(),
            psd_here: Vec::new(),
            partial: [0; 12],
            pair_cache: HashMap::new(),
            exchange_orders: HashMap::new(),
        }
    }

    fn exhausted(&self) -> bool {
        self.nodes >= NODE_BUDGET
            || self.leaves >= LEAF_BUDGET
            || self.leaves >= self.remainder_limit
            || matches!((&self.best, &self.ideal), (Some(b), Some(i)) if b.quality <= *i)
    }

    /// The bracket's pairs and its downfloaters.
    fn pair(&mut self) -> (Vec<(usize, usize)>, Vec<usize>) {
        let ctx = self.ctx;
        let members: Vec<usize> = self.mdps.iter().chain(&self.residents).copied().collect();
        let inside: HashSet<usize> = members.iter().copied().collect();
        let mdp: HashSet<usize> = self.mdps.iter().copied().collect();
        let everyone: Vec<usize> = members.iter().chain(&self.lower).copied().collect();
        // C4 + C5 exactly: the most pairs inside the bracket (then the most MDPs paired with
        // residents) among the pairings that complete the round.
        let proof = ctx.matching(&everyone, &|a, b| {
            if inside.contains(&a) && inside.contains(&b) {
                1000 + i32::from(mdp.contains(&a) != mdp.contains(&b))
            } else {
                0
            }
        });
        let inner: Vec<(usize, usize)> = proof
            .iter()
            .copied()
            .filter(|(a, b)| inside.contains(a) && inside.contains(b))
            .collect();
        let max_pairs = inner.len();
        let max_mdp = inner
            .iter()
            .filter(|(a, b)| mdp.contains(a) != mdp.contains(b))
            .count();
        'search: for p in (0..=max_pairs).rev() {
            let top = max_mdp.min(p).min(self.mdps.len());
            for m1 in (0..=top).rev() {
                self.ideal = Some(self.ideal_quality(p, m1));
                self.with_mdps(p, m1);
                if self.best.is_some() || self.nodes >= NODE_BUDGET {
                    break 'search;
                }
            }
        }
        if let Some(best) = self.best.take() {
            return (best.pairs, best.floaters);
        }
        let paired: HashSet<usize> = inner.iter().flat_map(|(a, b)| [*a, *b]).collect();
        let floaters = members
            .into_iter()
            .filter(|x| !paired.contains(x))
            .collect();
        (inner, floaters)
    }

    /// The best conceivable quality for `p` pairs of which `m1` pair MDPs: the top MDPs paired,
    /// no colour or float criterion broken.
    fn ideal_quality(&self, p: usize, m1: usize) -> Quality {
        let ctx = self.ctx;
        let res_score = self.residents.first().map(|x| ctx.p(*x).score);
        let mut psd = Vec::new();
        for (i, x) in self.mdps.iter().enumerate() {
            let s = ctx.p(*x).score;
            if i < m1 {
                psd.push((s - res_score.unwrap_or(s)).raw());
            } else {
                psd.push((s - self.lowest + Points::ONE).raw());
            }
        }
        psd.extend(std::iter::repeat_n(0, p - m1));
        let floating_residents = self.residents.len().saturating_sub(m1 + 2 * (p - m1));
        psd.extend(std::iter::repeat_n(Points::ONE.raw(), floating_residents));
        psd.sort_by(|a, b| b.cmp(a));
        let floating = self.mdps.len() + self.residents.len() - 2 * p;
        let next_pairs = if floating == 0 {
            0
        } else {
            -(((floating + self.next_group.len()) / 2) as i64)
        };
        // When everybody is paired, at most p of them get White and p Black: the rest of those
        // wanting one colour cannot have it (C10, C11).
        let mut counts = [0; 12];
        if floating == 0 {
            let want = |c: Colour, strong: bool| {
                self.mdps
                    .iter()
                    .chain(&self.residents)
                    .map(|x| ctx.p(*x).pref)
                    .filter(|pr| {
                        pr.colour == Some(c) && (!strong || pr.strength >= Strength::Strong)
                    })
                    .count()
            };
            let excess = |c: Colour, strong: bool| want(c, strong).saturating_sub(p) as i64;
            counts[2] = excess(Colour::White, false).max(excess(Colour::Black, false));
            counts[3] = excess(Colour::White, true).max(excess(Colour::Black, true));
        }
        Quality {
            psd,
            next_pairs,
            counts,
        }
    }

    /// The PSD when the MDPs `paired` are paired with residents, `limbo` floats and `p` pairs
    /// are made in all.
    fn psd_for(&self, paired: &[usize], limbo: &[usize], p: usize, m1: usize) -> Vec<i64> {
        let ctx = self.ctx;
        let res_score = self.residents.first().map(|x| ctx.p(*x).score);
        let mut psd: Vec<i64> = paired
            .iter()
            .map(|x| {
                let s = ctx.p(*x).score;
                (s - res_score.unwrap_or(s)).raw().abs()
            })
            .collect();
        psd.extend(
            limbo
                .iter()
                .map(|x| (ctx.p(*x).score - self.lowest + Points::ONE).raw()),
        );
        psd.extend(std::iter::repeat_n(0, p - m1));
        let floating = self.residents.len().saturating_sub(m1 + 2 * (p - m1));
        let res_sd = res_score.map_or(0, |s| (s - self.lowest + Points::ONE).raw());
        psd.extend(std::iter::repeat_n(res_sd, floating));
        psd.sort_by(|a, b| b.cmp(a));
        psd
    }

    /// D.2: every choice of `m1` MDPs (highest first), each paired with a resident in order,
    /// the remainder paired homogeneously.
    fn with_mdps(&mut self, p: usize, m1: usize) {
        let mdps = self.mdps.clone();
        let mut chosen = Vec::new();
        self.choose(&mdps, 0, m1, &mut chosen, p);
    }

    fn choose(
        &mut self,
        mdps: &[usize],
        from: usize,
        m1: usize,
        chosen: &mut Vec<usize>,
        p: usize,
    ) {
        if self.exhausted() {
            return;
        }
        if chosen.len() == m1 {
            let limbo: Vec<usize> = mdps
                .iter()
                .copied()
                .filter(|x| !chosen.contains(x))
                .collect();
            let s1 = chosen.clone();
            self.psd_here = self.psd_for(&s1, &limbo, p, m1);
            let mut used = vec![false; self.residents.len()];
            let mut pairs = Vec::new();
            self.mdp_pairs(&s1, 0, &mut used, &mut pairs, &limbo, p - m1);
            return;
        }
        for i in from..mdps.len() {
            if let Some(&x) = mdps.get(i) {
                chosen.push(x);
                self.choose(mdps, i + 1, m1, chosen, p);
                chosen.pop();
            }
        }
    }

    fn mdp_pairs(
        &mut self,
        s1: &[usize],
        i: usize,
        used: &mut Vec<bool>,
        pairs: &mut Vec<(usize, usize)>,
        limbo: &[usize],
        rest_pairs: usize,
    ) {
        if self.exhausted() {
            return;
        }
        self.nodes += 1;
        let Some(&m) = s1.get(i) else {
            let remainder: Vec<usize> = self
                .residents
                .iter()
                .zip(used.iter())
                .filter(|(_, u)| !**u)
                .map(|(x, _)| *x)
                .collect();
            if !s1.is_empty() {
                self.remainder_limit = self.leaves + REMAINDER_BUDGET;
            }
            self.homogeneous(&remainder, rest_pairs, pairs, limbo);
            self.remainder_limit = usize::MAX;
            return;
        };
        for j in 0..self.residents.len() {
            let Some(&r) = self.residents.get(j) else {
                continue;
            };
            if used.get(j).copied().unwrap_or(true) || !self.ctx.ok(m, r) {
                continue;
            }
            if let Some(u) = used.get_mut(j) {
                *u = true;
            }
            let counts = self.cached_pair_counts(m, r);
            add(&mut self.partial, &counts);
            if !self.hopeless() {
                pairs.push((m, r));
                self.mdp_pairs(s1, i + 1, used, pairs, limbo, rest_pairs);
                pairs.pop();
            }
            sub(&mut self.partial, &counts);
            if let Some(u) = used.get_mut(j) {
                *u = false;
            }
        }
    }

    /// D.1: S1 = the first `q` of `x`, S2 the rest; transpositions, then exchanges.
    fn homogeneous(
        &mut self,
        x: &[usize],
        q: usize,
        pairs: &mut Vec<(usize, usize)>,
        limbo: &[usize],
    ) {
        if 2 * q > x.len() {
            return;
        }
        let (s1, s2) = x.split_at(q);
        let mut used = vec![false; s2.len()];
        self.transpose(s1, s2, 0, &mut used, pairs, limbo);
        if s1.is_empty() || s2.is_empty() {
            return;
        }
        let order = self
            .exchange_orders
            .entry((s1.len(), s2.len()))
            .or_insert_with(|| std::rc::Rc::new(exchange_order(s1.len(), s2.len())))
            .clone();
        for (a, b) in order.iter() {
            if self.exhausted() {
                return;
            }
            let (e1, e2) = exchanged(s1, s2, a, b);
            let mut used = vec![false; e2.len()];
            self.transpose(&e1, &e2, 0, &mut used, pairs, limbo);
        }
    }

    fn transpose(
        &mut self,
        s1: &[usize],
        s2: &[usize],
        i: usize,
        used: &mut Vec<bool>,
        pairs: &mut Vec<(usize, usize)>,
        limbo: &[usize],
    ) {
        if self.exhausted() {
            return;
        }
        self.nodes += 1;
        let Some(&a) = s1.get(i) else {
            let mut floaters: Vec<usize> = limbo.to_vec();
            floaters.extend(
                s2.iter()
                    .zip(used.iter())
                    .filter(|(_, u)| !**u)
                    .map(|(x, _)| *x),
            );
            self.evaluate(pairs, floaters);
            return;
        };
        for j in 0..s2.len() {
            let Some(&b) = s2.get(j) else {
                continue;
            };
            if used.get(j).copied().unwrap_or(true) || !self.ctx.ok(a, b) {
                continue;
            }
            if let Some(u) = used.get_mut(j) {
                *u = true;
            }
            let counts = self.cached_pair_counts(a, b);
            add(&mut self.partial, &counts);
            if !self.hopeless() {
                pairs.push((a, b));
                self.transpose(s1, s2, i + 1, used, pairs, limbo);
                pairs.pop();
            }
            sub(&mut self.partial, &counts);
            if let Some(u) = used.get_mut(j) {
                *u = false;
            }
        }
    }

    fn evaluate(&mut self, pairs: &[(usize, usize)], mut floaters: Vec<usize>) {
        floaters.sort_unstable();
        let complete = match self.completes.get(&floaters) {
            Some(c) => *c,
            None => {
                let mut rest = floaters.clone();
                rest.extend(&self.lower);
                let c = self.ctx.completes(&rest);
                self.completes.insert(floaters.clone(), c);
                c
            }
        };
        if !complete {
            return;
        }
        self.leaves += 1;
        let q = self.quality(pairs, &floaters);
        if self.best.as_ref().is_none_or(|b| q < b.quality) {
            self.best = Some(Best {
                quality: q,
                pairs: pairs.to_vec(),
                floaters,
            });
        }
    }

    fn cached_pair_counts(&mut self, x: usize, y: usize) -> [i64; 12] {
        if let Some(c) = self.pair_cache.get(&(x, y)) {
            return *c;
        }
        let c = self.pair_counts(x, y);
        self.pair_cache.insert((x, y), c);
        c
    }

    /// C8–C19 counts that the pair `x`–`y` adds to a candidate.
    fn pair_counts(&self, x: usize, y: usize) -> [i64; 12] {
        let ctx = self.ctx;
        let mut counts = [0i64; 12];
        let mut bump = |i: usize, by: i64| {
            if let Some(c) = counts.get_mut(i) {
                *c += by;
            }
        };
        let (hi, lo) = if ctx.rank_cmp(x, y).is_le() {
            (x, y)
        } else {
            (y, x)
        };
        let hi_colour = ctx.allocate(hi, lo);
        let top = ctx.p(hi).topscorer || ctx.p(lo).topscorer;
        for (who, colour) in [(hi, hi_colour), (lo, hi_colour.other())] {
            let p = ctx.p(who);
            let cd = p.cd() + if colour == Colour::White { 1 } else { -1 };
            let n = p.colours.len();
            let three = n >= 2
                && p.colours.get(n - 1) == Some(&colour)
                && p.colours.get(n - 2) == Some(&colour);
            if top && cd.abs() > 2 {
                bump(0, 1); // C8
            }
            if top && three {
                bump(1, 1); // C9
            }
            if p.pref.colour.is_some_and(|c| c != colour) {
                bump(2, 1); // C10
                if p.pref.strength >= Strength::Strong {
                    bump(3, 1); // C11
                }
            }
        }
        let (sx, sy) = (ctx.p(x).score, ctx.p(y).score);
        if sx != sy {
            let (down, up) = if sx > sy { (x, y) } else { (y, x) };
            let diff = (sx - sy).raw().abs();
            let (pd, pu) = (ctx.p(down), ctx.p(up));
            if pd.floats[0] == Float::Down {
                bump(4, 1); // C12
                bump(8, diff); // C16
            }
            if pu.floats[0] == Float::Up {
                bump(5, 1); // C13
                bump(9, diff); // C17
            }
            if pd.floats[1] == Float::Down {
                bump(6, 1); // C14
                bump(10, diff); // C18
            }
            if pu.floats[1] == Float::Up {
                bump(7, 1); // C15
                bump(11, diff); // C19
            }
        }
        counts
    }

    /// The counts a downfloater of this bracket adds (it will float down again: C12, C14).
    fn floater_counts(&self, x: usize) -> [i64; 12] {
        let p = self.ctx.p(x);
        let mut counts = [0i64; 12];
        if p.floats[0] == Float::Down {
            counts[4] += 1;
        }
        if p.floats[1] == Float::Down {
            counts[6] += 1;
        }
        counts
    }

    /// Branch and bound: the counts only grow as pairs are added, so once the pairs so far
    /// are no better than the best candidate (with the same PSD and an ideal C7), nothing
    /// below can beat it.
    fn hopeless(&self) -> bool {
        let Some(best) = &self.best else {
            return false;
        };
        let ideal_next = self.ideal.as_ref().map_or(i64::MIN, |i| i.next_pairs);
        match best.quality.psd.cmp(&self.psd_here) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => {
                best.quality.next_pairs <= ideal_next && self.partial >= best.quality.counts
            }
        }
    }

    fn quality(&mut self, pairs: &[(usize, usize)], floaters: &[usize]) -> Quality {
        let ctx = self.ctx;
        let mut psd: Vec<i64> = pairs
            .iter()
            .map(|(a, b)| (ctx.p(*a).score - ctx.p(*b).score).raw().abs())
            .collect();
        psd.extend(
            floaters
                .iter()
                .map(|x| (ctx.p(*x).score - self.lowest + Points::ONE).raw()),
        );
        psd.sort_by(|a, b| b.cmp(a));
        let next_pairs = match self.next_pairs.get(floaters) {
            Some(n) => *n,
            None => {
                let mut set = floaters.to_vec();
                set.extend(&self.next_group);
                let n = if floaters.is_empty() {
                    0
                } else {
                    -(ctx.matching_pairs(&set).len() as i64)
                };
                self.next_pairs.insert(floaters.to_vec(), n);
                n
            }
        };
        let mut counts = [0i64; 12];
        for &(x, y) in pairs {
            let c = self.cached_pair_counts(x, y);
            add(&mut counts, &c);
        }
        for x in floaters {
            add(&mut counts, &self.floater_counts(*x));
        }
        Quality {
            psd,
            next_pairs,
            counts,
        }
    }
}

fn add(total: &mut [i64; 12], more: &[i64; 12]) {
    for (t, m) in total.iter_mut().zip(more) {
        *t += m;
    }
}

fn sub(total: &mut [i64; 12], less: &[i64; 12]) {
    for (t, l) in total.iter_mut().zip(less) {
        *t -= l;
    }
}

/// The positions exchanged: in S1, in S2.
type Exchange = (Vec<usize>, Vec<usize>);

/// The exchanges between S1 and S2 in the handbook's order, as positions: one player each way,
/// then two; sorted by the difference of the sums of the bracket sequence numbers moved, then
/// the highest moved from S1, then the lowest moved from S2. The order depends on the sizes only.
fn exchange_order(n1: usize, n2: usize) -> Vec<Exchange> {
    // Bracket sequence numbers: S1 then S2 in order.
    let bsn = |from_s1: bool, i: usize| if from_s1 { i } else { n1 + i };
    // (exchanged players, sum difference, S1 BSNs highest first, S2 BSNs lowest first), then
    // the positions exchanged in S1 and in S2.
    type Key = (usize, i64, Vec<std::cmp::Reverse<usize>>, Vec<usize>);
    let mut options: Vec<(Key, Vec<usize>, Vec<usize>)> = Vec::new();
    for size in 1..=2usize {
        if n1 < size || n2 < size {
            break;
        }
        for a in combinations(n1, size) {
            for b in combinations(n2, size) {
                let sa: usize = a.iter().map(|i| bsn(true, *i)).sum();
                let sb: usize = b.iter().map(|i| bsn(false, *i)).sum();
                let mut high: Vec<std::cmp::Reverse<usize>> =
                    a.iter().map(|i| std::cmp::Reverse(bsn(true, *i))).collect();
                high.sort();
                let low: Vec<usize> = b.iter().map(|i| bsn(false, *i)).collect();
                options.push(((size, sb as i64 - sa as i64, high, low), a.clone(), b));
            }
        }
    }
    options.sort_by(|x, y| x.0.cmp(&y.0));
    options.into_iter().map(|(_, a, b)| (a, b)).collect()
}

/// S1 and S2 after exchanging the players at positions `a` of S1 with those at `b` of S2, each
/// side back in bracket order.
fn exchanged(s1: &[usize], s2: &[usize], a: &[usize], b: &[usize]) -> (Vec<usize>, Vec<usize>) {
    let mut new1: Vec<(usize, usize)> = Vec::with_capacity(s1.len());
    let mut new2: Vec<(usize, usize)> = Vec::with_capacity(s2.len());
    for (i, x) in s1.iter().enumerate() {
        if a.contains(&i) {
            new2.push((i, *x));
        } else {
            new1.push((i, *x));
        }
    }
    for (i, x) in s2.iter().enumerate() {
        if b.contains(&i) {
            new1.push((s1.len() + i, *x));
        } else {
            new2.push((s1.len() + i, *x));
        }
    }
    new1.sort();
    new2.sort();
    (
        new1.into_iter().map(|(_, x)| x).collect(),
        new2.into_iter().map(|(_, x)| x).collect(),
    )
}

/// The `k`-subsets of `0..n`, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current = Vec::with_capacity(k);
    fn go(n: usize, k: usize, from: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if current.len() == k {
            out.push(current.clone());
            return;
        }
        for i in from..n {
            current.push(i);
            go(n, k, i + 1, current, out);
            current.pop();
        }
    }
    go(n, k, 0, &mut current, &mut out);
    out
}

#[cfg(test)]
mod tests;
