//! What one viewer may see (MAG-INFO), built field by field from the state: every public fact,
//! the viewer's own hand and deed preferences, and never the other hand or the draw-pile order.

use super::cards::{Card, District, Suit};
use super::options::Rules;
use super::score::{Score, score};
use super::state::{Phase, SEATS, State};
use super::tokens::Tokens;
use crate::engine::{Seat, Viewer};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct PropertyView {
    pub card: Card,
    pub deed: bool,
    pub tokens_on_deed: Tokens,
    /// The deed's development target (its cost), for deeds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<u16>,
    /// The owner's income preference: present in the owner's own view only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefer: Option<Suit>,
}

#[derive(Debug, Clone, Serialize)]
pub struct DistrictView {
    pub district: District,
    pub card: Card,
    /// One column per seat, bottom to top.
    pub columns: [Vec<PropertyView>; 2],
}

#[derive(Debug, Clone, Serialize)]
pub struct PlayerView {
    pub crowns: Vec<Card>,
    pub supply: Tokens,
    /// The viewer's own hand only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<Card>>,
    pub hand_count: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct RollView {
    pub d10: [u8; 2],
    /// The higher die: the rank that paid income.
    pub hi: u8,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub d6: Vec<u8>,
    /// The taxed suit (the first when two tax dice are used).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tax_suit: Option<Suit>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tax_suits: Vec<Suit>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TurnView {
    pub seat: Seat,
    pub phase: &'static str,
    pub card_played: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct FinalTurnsView {
    pub remaining: Vec<Seat>,
}

#[derive(Debug, Clone, Serialize)]
pub struct View {
    pub rules: Rules,
    pub districts: Vec<DistrictView>,
    pub players: Vec<PlayerView>,
    pub draw_pile_count: usize,
    pub discard: Vec<Card>,
    pub reshuffled: bool,
    pub last_roll: Option<RollView>,
    pub turn: TurnView,
    pub final_turns: Option<FinalTurnsView>,
    /// The district standings as if the game ended now (MAG-SCORE).
    pub standings: Score,
}

pub fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Roll => "roll",
        Phase::Action => "action",
        Phase::Over => "over",
    }
}

pub fn view(state: &State, viewer: Viewer) -> View {
    let me = viewer.seat();
    let districts = District::ALL
        .into_iter()
        .map(|d| DistrictView {
            district: d,
            card: state.districts[d],
            columns: SEATS.map(|s| {
                state.players[s].columns[d]
                    .iter()
                    .map(|p| PropertyView {
                        card: p.card,
                        deed: p.deed.is_some(),
                        tokens_on_deed: p.deed.map(|x| x.tokens).unwrap_or_default(),
                        target: p.deed.map(|_| super::play::cost(p.card, &state.rules)),
                        prefer: if me == Some(s) {
                            p.deed.and_then(|x| x.prefer)
                        } else {
                            None
                        },
                    })
                    .collect()
            }),
        })
        .collect();
    let players = SEATS
        .into_iter()
        .map(|s| {
            let p = &state.players[s];
            PlayerView {
                crowns: p.crowns.iter().collect(),
                supply: p.supply,
                hand: (me == Some(s)).then(|| p.hand.iter().collect()),
                hand_count: p.hand.len(),
            }
        })
        .collect();
    let last_roll = state.last_roll.map(|r| {
        let suits: Vec<Suit> = if r.taxes() {
            r.tax_suits().iter().collect()
        } else {
            Vec::new()
        };
        RollView {
            d10: r.d10,
            hi: r.hi(),
            d6: r.d6.iter().copied().filter(|&f| f != 0).collect(),
            tax_suit: suits.first().copied(),
            tax_suits: suits,
        }
    });
    View {
        rules: state.rules.clone(),
        districts,
        players,
        draw_pile_count: state.draw_pile.len(),
        discard: state.discard.clone(),
        reshuffled: state.reshuffled,
        last_roll,
        turn: TurnView {
            seat: state.turn.seat,
            phase: phase_name(state.turn.phase),
            card_played: state.turn.card_played,
        },
        final_turns: state.final_turns.as_ref().map(|r| FinalTurnsView {
            remaining: r.clone(),
        }),
        standings: score(state),
    }
}
