//! Scoring and the winner (MAG-SCORE, MAG-TIE): district totals, district points, the overall
//! total, tokens, and a shared victory when all three are equal.

use super::cards::{Card, District, Rank};
use super::options::{AceScoring, TiebreakTotal};
use super::state::{SEATS, State, opponent};
use crate::engine::{EndReason, Outcome, Seat, SeatSet, Standing, places};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The standing as if the game ended now (the referee's `score`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    /// Each seat's district total (MAG-SCORE-1), by district letter.
    pub districts: BTreeMap<char, [u32; 2]>,
    /// Districts won (MAG-SCORE-4).
    pub district_points: [u32; 2],
    /// The MAG-TIE-1 sum, per `tiebreak_total`.
    pub totals: [u32; 2],
    /// Tokens in supply (MAG-TIE-2).
    pub tokens: [u32; 2],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tiebreak {
    DistrictPoints,
    Totals,
    Tokens,
    Shared,
}

/// `{"winners": [seat, ...], "tiebreak": ...}`; a resignation names the seat instead.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MagnateOutcome {
    pub winners: Vec<Seat>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiebreak: Option<Tiebreak>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resigned: Option<Seat>,
    /// The seat that lost on time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timed_out: Option<Seat>,
    /// Why the game ended before its rules ended it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<EndReason>,
}

impl Outcome for MagnateOutcome {
    fn winners(&self) -> SeatSet {
        self.winners.iter().copied().collect()
    }
}

/// The value of a completed property in `district` on `seat`'s side (MAG-SCORE-2).
fn value(state: &State, seat: Seat, district: District, card: Card) -> u32 {
    match card.rank() {
        Rank::Number(r) => u32::from(r),
        Rank::Court | Rank::Pawn => 10,
        Rank::Ace => {
            let suits = card.suits();
            let bearing = |s: Seat| {
                state.players[s].columns[district]
                    .iter()
                    .filter(|p| p.is_completed() && p.card.suits().intersects(suits))
                    .count() as u32
            };
            match state.rules.ace_scoring {
                AceScoring::Flat => 1,
                AceScoring::SuitCount => bearing(seat),
                AceScoring::Deucey => {
                    let pawn = u32::from(state.districts[district].suits().intersects(suits));
                    bearing(seat) + pawn + bearing(opponent(seat))
                }
            }
        }
        Rank::Crown | Rank::Excuse => 0,
    }
}

/// The printed rank, for `tiebreak_total = raw` (Ace = 1).
fn printed(card: Card) -> u32 {
    match card.rank() {
        Rank::Ace => 1,
        Rank::Number(r) => u32::from(r),
        Rank::Court | Rank::Pawn => 10,
        Rank::Crown | Rank::Excuse => 0,
    }
}

pub fn score(state: &State) -> Score {
    let (per_district, figures) = tally(state);
    Score {
        districts: District::ALL
            .into_iter()
            .zip(per_district)
            .map(|(d, t)| (d.letter(), t))
            .collect(),
        district_points: figures.district_points,
        totals: figures.totals,
        tokens: figures.tokens,
    }
}

/// The figures [`decide`] compares, without the per-district map (the outcome needs no more).
struct Figures {
    district_points: [u32; 2],
    totals: [u32; 2],
    tokens: [u32; 2],
}

/// Each district's totals in district order, and the deciding figures.
fn tally(state: &State) -> ([[u32; 2]; 5], Figures) {
    let mut districts = [[0u32; 2]; 5];
    let mut points = [0u32; 2];
    let mut totals = [0u32; 2];
    let mut raw = [0u32; 2];
    for d in District::ALL {
        let mut t = [0u32; 2];
        for ((slot, seat), x) in t.iter_mut().zip(SEATS).zip(raw.iter_mut()) {
            for p in state.players[seat].columns[d]
                .iter()
                .filter(|p| p.is_completed())
            {
                *slot += value(state, seat, d, p.card);
                *x += printed(p.card);
            }
        }
        let [a, b] = t;
        if a > b {
            points[0] += 1;
        } else if b > a {
            points[1] += 1;
        }
        totals[0] += a;
        totals[1] += b;
        if let Some(slot) = districts.get_mut(d.index()) {
            *slot = t;
        }
    }
    if state.rules.tiebreak_total == TiebreakTotal::Raw {
        totals = raw;
    }
    let tokens = [
        state.players[Seat(0)].supply.total(),
        state.players[Seat(1)].supply.total(),
    ];
    (
        districts,
        Figures {
            district_points: points,
            totals,
            tokens,
        },
    )
}

/// MAG-SCORE-5 and MAG-TIE: the first figure that differs decides.
pub fn decide(score: &Score) -> MagnateOutcome {
    decide_on(&Figures {
        district_points: score.district_points,
        totals: score.totals,
        tokens: score.tokens,
    })
}

fn decide_on(score: &Figures) -> MagnateOutcome {
    let figures = [
        (Tiebreak::DistrictPoints, score.district_points),
        (Tiebreak::Totals, score.totals),
        (Tiebreak::Tokens, score.tokens),
    ];
    for (tiebreak, [a, b]) in figures {
        if a != b {
            let winner = if a > b { Seat(0) } else { Seat(1) };
            return MagnateOutcome {
                winners: vec![winner],
                tiebreak: Some(tiebreak),
                resigned: None,
                timed_out: None,
                reason: None,
            };
        }
    }
    MagnateOutcome {
        winners: SEATS.to_vec(),
        tiebreak: Some(Tiebreak::Shared),
        resigned: None,
        timed_out: None,
        reason: None,
    }
}

/// Places, district points and the MAG-TIE figures of a finished game (empty while it goes on).
/// A resigned seat places second whatever its figures.
pub fn standings(state: &State) -> Vec<Standing> {
    let Some(outcome) = outcome(state) else {
        return Vec::new();
    };
    let score = score(state);
    let figure = |f: [u32; 2], s: Seat| i64::from(f.get(usize::from(s.0)).copied().unwrap_or(0));
    places(2, outcome.winners(), |_| 0)
        .into_iter()
        .map(|(seat, place)| Standing {
            seat,
            place,
            score: Some(figure(score.district_points, seat)),
            tiebreaks: vec![
                ("district_points", figure(score.district_points, seat)),
                ("property_value", figure(score.totals, seat)),
                ("tokens", figure(score.tokens, seat)),
            ],
        })
        .collect()
}

/// The outcome of a finished game, `None` while it goes on.
pub fn outcome(state: &State) -> Option<MagnateOutcome> {
    if !state.is_over() {
        return None;
    }
    if let Some(r) = state.resigned {
        let reason = if state.timed_out {
            EndReason::Timeout
        } else {
            EndReason::Resigned
        };
        return Some(MagnateOutcome {
            winners: vec![opponent(r)],
            tiebreak: None,
            resigned: (!state.timed_out).then_some(r),
            timed_out: state.timed_out.then_some(r),
            reason: Some(reason),
        });
    }
    Some(decide_on(&tally(state).1))
}
