//! The start of a turn: roll, taxation, income (MAG-ROLL, MAG-TAX, MAG-INC).

use super::cards::{Card, District, Rank, Suit};
use super::events::Event;
use super::options::AutoPick;
use super::state::{Deed, Phase, Player, Roll, SEATS, State};
use super::tokens::Tokens;
use crate::engine::{Illegal, Logged, Seat};

/// MAG-INC-6: the suit an unfinished deed pays when its rank comes up. `supply` is the owner's
/// supply after this roll's taxation, before its income.
fn deed_income_suit(
    deed: &Deed,
    card_suits: super::cards::SuitSet,
    player: &Player,
    auto: AutoPick,
    supply: &Tokens,
) -> Option<Suit> {
    if let Some(s) = deed.prefer.filter(|s| card_suits.contains(*s)) {
        return Some(s);
    }
    let (suits, n) = card_suits.to_array();
    let suits = suits.get(..n)?;
    match auto {
        AutoPick::Fewer => {
            // Fewer tokens; on equality the first in canonical order (min_by_key keeps the first).
            suits.iter().copied().min_by_key(|s| supply.get(*s))
        }
        AutoPick::Ap => {
            let crown_suits = player
                .crowns
                .iter()
                .fold(super::cards::SuitSet::EMPTY, |acc, c| {
                    c.suits().iter().fold(acc, super::cards::SuitSet::with)
                });
            let mut outside = suits.iter().copied().filter(|s| !crown_suits.contains(*s));
            if let (Some(only), None) = (outside.next(), outside.next()) {
                return Some(only);
            }
            // Fewer tokens; on equality the later suit in canonical order.
            suits.iter().copied().rev().min_by_key(|s| supply.get(*s))
        }
    }
}

/// The income `player` collects when the higher die shows `hi` (MAG-INC-1..4).
fn income(state: &State, player: &Player, hi: u8) -> Tokens {
    let mut gained = Tokens::NONE;
    if hi == 10 {
        for crown in player.crowns.iter() {
            gained.add_suits(crown.suits(), 1);
        }
        return gained;
    }
    let supply = player.supply;
    // A loop per column (the income of every roll scans them all).
    for column in &player.columns.0 {
        for p in column {
            // MAG-INC-2/3: a number card pays on its rank, an Ace on double 1s.
            if p.card.pays_on() != hi {
                continue;
            }
            match &p.deed {
                Some(deed) => deed_pays(state, player, p.card, deed, &supply, &mut gained),
                None => gained.add_suits(p.card.suits(), 1),
            }
        }
    }
    gained
}

/// What each seat's properties pay when the higher die shows `hi` (MAG-INC-1..4), Crowns on a 10
/// included: read from every column at every roll ([`Scan`], the server), or with what completed
/// properties pay kept from action to action ([`Kept`], self-play). Both give the same tokens.
pub trait Income {
    fn income(&self, state: &State, seat: Seat, hi: u8) -> Tokens;
}

/// Income read from the columns at each roll.
pub struct Scan;

impl Income for Scan {
    fn income(&self, state: &State, seat: Seat, hi: u8) -> Tokens {
        income(state, &state.players[seat], hi)
    }
}

/// What each seat's completed properties pay for each higher die (1 for Aces on double 1s, 2–9
/// for the ranks; and what its Crowns pay on a 10, kept from the setup on). A completed
/// property never leaves its column before the game ends, and it only joins one by a build or
/// the development that completes a deed, so a caller that sees every action keeps this up to
/// date with [`Kept::completed`]; the unfinished deeds, whose suit depends on the supply, are
/// read at each roll from the column tops (a deed is always its column's top card). Self-play
/// compares it with a fresh [`Kept::read`] after every action with `--check`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Kept([[Tokens; 11]; 2]);

/// Where [`Kept`] keeps what a seat's Crowns pay on a 10: dealt at the setup, they never change.
const CROWNS: usize = 10;

impl Kept {
    /// What `state`'s completed properties pay, read afresh.
    pub fn read(state: &State) -> Kept {
        let mut out = Kept::default();
        for seat in SEATS {
            for (_, p) in state.players[seat].placed() {
                if p.is_completed() {
                    out.completed(seat, p.card);
                }
            }
            if let Some(crowns) = out.0.get_mut(seat.index()).and_then(|d| d.get_mut(CROWNS)) {
                *crowns = income(state, &state.players[seat], 10);
            }
        }
        out
    }

    /// Notes that `card` joined `seat`'s completed properties (built, or a deed completed).
    pub fn completed(&mut self, seat: Seat, card: Card) {
        if let Some(t) = self
            .0
            .get_mut(seat.index())
            .and_then(|per_die| per_die.get_mut(usize::from(card.pays_on())))
        {
            t.add_suits(card.suits(), 1);
        }
    }

    /// What `seat`'s properties pay when the higher die shows `hi`: the kept part of the
    /// completed ones, plus the unfinished `deeds` (each with the district whose column it tops,
    /// as [`super::legal::Tops`] keeps them), so that no column is read but a paying deed's.
    pub fn income(
        &self,
        state: &State,
        seat: Seat,
        hi: u8,
        deeds: impl Iterator<Item = (District, Card)>,
    ) -> Tokens {
        let player = &state.players[seat];
        let mut gained = self
            .0
            .get(seat.index())
            .and_then(|per_die| per_die.get(usize::from(hi)))
            .copied()
            .unwrap_or_default();
        if usize::from(hi) == CROWNS {
            return gained;
        }
        let supply = player.supply;
        for (district, card) in deeds {
            if card.pays_on() == hi
                && let Some(p) = player.columns[district].last()
                && let Some(deed) = &p.deed
            {
                deed_pays(state, player, p.card, deed, &supply, &mut gained);
            }
        }
        gained
    }
}

/// What one unfinished deed pays when its rank comes up (MAG-INC-2/3/6): an Ace deed its suit,
/// any other one suit of the card.
fn deed_pays(
    state: &State,
    player: &Player,
    card: Card,
    deed: &Deed,
    supply: &Tokens,
    gained: &mut Tokens,
) {
    if card.rank() == Rank::Ace {
        gained.add_suits(card.suits(), 1);
    } else if let Some(s) =
        deed_income_suit(deed, card.suits(), player, state.rules.auto_pick, supply)
    {
        gained.add(s, 1);
    }
}

/// Checks dice a caller chose (the referee's `roll`): faces in range, the d6 given exactly when
/// a 1 is rolled, one d6 face per `tax_dice`.
pub fn check_dice(state: &State, d10: [u8; 2], d6: [u8; 2]) -> Result<(), Illegal> {
    if d10.iter().any(|f| !(1..=10).contains(f)) {
        return Err(Illegal::new(
            "MAG-COMP-3",
            format!("A ten-sided die shows 1 to 10, not {:?}.", d10),
        ));
    }
    let taxes = d10.contains(&1);
    let wanted = if taxes {
        usize::from(state.rules.tax_dice)
    } else {
        0
    };
    let given = d6.iter().filter(|&&f| f != 0).count();
    if given != wanted {
        let rule = if state.rules.tax_dice == 2 {
            "MAG-TAX-5"
        } else {
            "MAG-ROLL-2"
        };
        let detail = if taxes {
            format!(
                "A 1 was rolled, so taxation needs {wanted} six-sided die result(s); {given} given."
            )
        } else {
            "No 1 was rolled, so there is no taxation and no six-sided die to give.".to_string()
        };
        return Err(Illegal::new(rule, detail));
    }
    if d6.iter().any(|&f| f > 6) {
        return Err(Illegal::new("MAG-COMP-3", "A six-sided die shows 1 to 6."));
    }
    Ok(())
}

/// Resolves a roll for the active seat: taxation first, then income for both players from the
/// higher die; the active player may then act.
pub fn resolve(state: &mut State, roll: Roll, events: &mut Vec<Logged<Event>>) {
    resolve_with(state, roll, events, &Scan);
}

/// [`resolve`] with the income read through `paid`.
pub fn resolve_with(
    state: &mut State,
    roll: Roll,
    events: &mut Vec<Logged<Event>>,
    paid: &impl Income,
) {
    let seat = state.turn.seat;
    let d6 = match roll.d6 {
        [0, 0] => None,
        [a, 0] => Some(super::action::TaxDice::One(a)),
        faces => Some(super::action::TaxDice::Two(faces)),
    };
    events.push(Logged::public(Event::Rolled {
        seat,
        d10: roll.d10,
        d6,
    }));
    if roll.taxes() {
        let suits = roll.tax_suits();
        let mut lost = [Tokens::NONE; 2];
        for (l, s) in lost.iter_mut().zip(SEATS) {
            let supply = &mut state.players[s].supply;
            for suit in suits.iter() {
                let n = supply.get(suit);
                if n >= 2 {
                    l.set(suit, n - 1);
                    supply.set(suit, 1);
                }
            }
        }
        events.push(Logged::public(Event::Taxed { suits, lost }));
    }
    let hi = roll.hi();
    let gained = SEATS.map(|s| paid.income(state, s, hi));
    for (g, s) in gained.iter().zip(SEATS) {
        state.players[s].supply.add_all(g);
    }
    events.push(Logged::public(Event::Income { gained }));
    state.last_roll = Some(roll);
    state.turn.phase = Phase::Action;
}
