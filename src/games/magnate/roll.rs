//! The start of a turn: roll, taxation, income (MAG-ROLL, MAG-TAX, MAG-INC).

use super::cards::{Rank, Suit};
use super::events::Event;
use super::options::AutoPick;
use super::state::{Deed, Phase, Player, Roll, SEATS, State};
use super::tokens::Tokens;
use crate::engine::{Illegal, Logged};

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
                Some(deed) if p.card.rank() != Rank::Ace => {
                    if let Some(s) = deed_income_suit(
                        deed,
                        p.card.suits(),
                        player,
                        state.rules.auto_pick,
                        &supply,
                    ) {
                        gained.add(s, 1);
                    }
                }
                _ => gained.add_suits(p.card.suits(), 1),
            }
        }
    }
    gained
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
    let gained = [
        income(state, &state.players[SEATS[0]], hi),
        income(state, &state.players[SEATS[1]], hi),
    ];
    for (g, s) in gained.iter().zip(SEATS) {
        state.players[s].supply.add_all(g);
    }
    events.push(Logged::public(Event::Income { gained }));
    state.last_roll = Some(roll);
    state.turn.phase = Phase::Action;
}
