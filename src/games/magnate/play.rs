//! Card plays (MAG-PLAY): build outright (MAG-BUILD), buy a deed (MAG-DEED), sell (MAG-SELL), and
//! the placement (MAG-PLACE) and payment (MAG-PAY) rules they share. Every check runs before
//! anything changes, in the order of MAG-PLAY-4.

use super::cards::{Card, District, Rank, Suit, SuitSet};
use super::events::Event;
use super::options::{AceDeed, ForbidAllow, Rules};
use super::state::{Deed, Property, State};
use super::tokens::Tokens;
use crate::engine::{Illegal, Logged, Seat};

/// MAG-BUILD-1, MAG-DEV-3: what building the card outright costs, and a deed's target.
pub fn cost(card: Card, rules: &Rules) -> u16 {
    match card.fixed_cost() {
        Some(c) => u16::from(c),
        None => u16::from(rules.ace_build_cost),
    }
}

/// MAG-DEED-1/2: the price of a deed, or the rule that forbids it.
pub fn deed_price(card: Card, rules: &Rules) -> Result<Tokens, Illegal> {
    match card.rank() {
        Rank::Ace => {
            let suit = card.suits().iter().next().unwrap_or(Suit::Moons);
            match rules.ace_deed {
                AceDeed::One => Ok(Tokens::of(suit, 1)),
                AceDeed::TwoSame => Ok(Tokens::of(suit, 2)),
                AceDeed::Forbidden => Err(Illegal::new(
                    "MAG-DEED-2",
                    format!(
                        "An Ace cannot be bought as a deed in this game; {card} can only be built outright or sold."
                    ),
                )),
            }
        }
        Rank::Number(2) if rules.deed_on_two == ForbidAllow::Forbid => Err(Illegal::new(
            "MAG-DEED-3",
            format!(
                "A card of rank 2 cannot be bought as a deed; build {card} outright (it costs the same two tokens) or sell it."
            ),
        )),
        _ => {
            let mut price = Tokens::NONE;
            for s in card.suits().iter() {
                price.add(s, 1);
            }
            Ok(price)
        }
    }
}

/// MAG-PAY-1: the payer's supply must hold the whole payment.
pub fn check_holdings(
    state: &State,
    seat: Seat,
    payment: &Tokens,
    what: impl FnOnce() -> String,
) -> Result<(), Illegal> {
    let supply = &state.players[seat].supply;
    if supply.covers(payment) {
        return Ok(());
    }
    let short: Vec<String> = payment
        .iter()
        .filter(|&(s, n)| supply.get(s) < n)
        .map(|(s, n)| format!("{n} {} but hold {}", s.name(), supply.get(s)))
        .collect();
    Err(Illegal::new(
        "MAG-PAY-1",
        format!(
            "You cannot pay for {} from your supply: you need {}.",
            what(),
            short.join(", and ")
        ),
    ))
}

/// MAG-PLACE-2/3/4: whether `card` may go at the end of `seat`'s column in `district`.
pub fn check_placement(
    state: &State,
    seat: Seat,
    card: Card,
    district: District,
) -> Result<(), Illegal> {
    let column = &state.players[seat].columns[district];
    if column.iter().any(|p| p.deed.is_some()) {
        return Err(Illegal::new(
            "MAG-PLACE-4",
            format!(
                "You have an unfinished deed in district {district}; complete it before placing another card there."
            ),
        ));
    }
    match column.last() {
        None => {
            let pawn = state.districts[district];
            if pawn.rank() != Rank::Excuse && !card.shares_suit(pawn) {
                return Err(Illegal::new(
                    "MAG-PLACE-2",
                    format!(
                        "Your first card in district {district} must share a suit with {} ({pawn}); {card} does not.",
                        pawn.name()
                    ),
                ));
            }
        }
        Some(last) => {
            if !card.shares_suit(last.card) {
                return Err(Illegal::new(
                    "MAG-PLACE-3",
                    format!(
                        "A card in district {district} must share a suit with the last card of your column there, {} ({}); {card} does not.",
                        last.card.name(),
                        last.card
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// For each district, the suits a card needs to be placed there by `seat` (MAG-PLACE-2/3/4):
/// empty where an unfinished deed blocks it, every suit for an empty Excuse column. Placement
/// is then `card.suits().intersects(..)`, computed once for a whole hand.
pub fn placement_suits(state: &State, seat: Seat) -> [SuitSet; 5] {
    District::ALL.map(|d| {
        let column = &state.players[seat].columns[d];
        match column.last() {
            _ if column.iter().any(|p| p.deed.is_some()) => SuitSet::EMPTY,
            None => {
                let pawn = state.districts[d];
                if pawn.rank() == Rank::Excuse {
                    SuitSet::from_bits(0x3f)
                } else {
                    pawn.suits()
                }
            }
            Some(last) => last.card.suits(),
        }
    })
}

/// Whether `card` may be bought as a deed under the options (MAG-DEED-2/3), without building
/// the refusal.
pub fn deed_allowed(card: Card, rules: &Rules) -> bool {
    match card.rank() {
        Rank::Ace => rules.ace_deed != AceDeed::Forbidden,
        Rank::Number(2) => rules.deed_on_two == ForbidAllow::Allow,
        _ => true,
    }
}

/// MAG-PLAY-1 and MAG-PLAY-5: one card play per turn, with a card from the hand.
fn check_card_play(state: &State, seat: Seat, card: Card) -> Result<(), Illegal> {
    if state.turn.card_played {
        return Err(Illegal::new(
            "MAG-PLAY-1",
            "You have already made this turn's card play (build, deed or sell).",
        ));
    }
    if !state.players[seat].hand.contains(card) {
        return Err(Illegal::new(
            "MAG-PLAY-5",
            format!("{card} is not in your hand."),
        ));
    }
    Ok(())
}

/// MAG-BUILD-1..3: the payment's amount, suits, and each-suit requirement.
pub fn check_build_payment(card: Card, payment: &Tokens, rules: &Rules) -> Result<(), Illegal> {
    let cost = cost(card, rules);
    let total = payment.total();
    if total != u32::from(cost) {
        return Err(Illegal::new(
            "MAG-BUILD-1",
            format!("Building {card} costs exactly {cost} tokens; the payment has {total}."),
        ));
    }
    let suits = card.suits();
    let paid = payment.suits();
    if let Some(s) = paid.minus(suits).first() {
        return Err(Illegal::new(
            "MAG-BUILD-2",
            format!(
                "Every token paid for {card} must be of one of its suits; {} is not.",
                s.name()
            ),
        ));
    }
    if let Some(s) = suits.minus(paid).first() {
        return Err(Illegal::new(
            "MAG-BUILD-3",
            format!(
                "The payment for {card} must include at least one token of each of its suits; it has no {}.",
                s.name()
            ),
        ));
    }
    Ok(())
}

pub fn build(
    state: &mut State,
    seat: Seat,
    card: Card,
    district: District,
    payment: &Tokens,
    events: &mut Vec<Logged<Event>>,
) -> Result<(), Illegal> {
    check_card_play(state, seat, card)?;
    check_placement(state, seat, card, district)?;
    check_build_payment(card, payment, &state.rules)?;
    check_holdings(state, seat, payment, || format!("building {card}"))?;
    let player = &mut state.players[seat];
    player.supply.remove_all(payment);
    player.hand.remove(card);
    player.columns[district].push(Property { card, deed: None });
    state.turn.card_played = true;
    events.push(Logged::public(Event::Built {
        seat,
        card,
        district,
        payment: *payment,
    }));
    Ok(())
}

pub fn deed(
    state: &mut State,
    seat: Seat,
    card: Card,
    district: District,
    events: &mut Vec<Logged<Event>>,
) -> Result<(), Illegal> {
    check_card_play(state, seat, card)?;
    let price = deed_price(card, &state.rules)?;
    check_placement(state, seat, card, district)?;
    check_holdings(state, seat, &price, || format!("the deed of {card}"))?;
    let player = &mut state.players[seat];
    player.supply.remove_all(&price);
    player.hand.remove(card);
    player.columns[district].push(Property {
        card,
        deed: Some(Deed::default()),
    });
    state.turn.card_played = true;
    events.push(Logged::public(Event::Deeded {
        seat,
        card,
        district,
        price,
    }));
    Ok(())
}

/// MAG-SELL-1..3: what selling a card brings.
pub fn sale_value(card: Card) -> Tokens {
    let mut gained = Tokens::NONE;
    gained.add_suits(card.suits(), if card.rank() == Rank::Ace { 2 } else { 1 });
    gained
}

pub fn sell(
    state: &mut State,
    seat: Seat,
    card: Card,
    events: &mut Vec<Logged<Event>>,
) -> Result<(), Illegal> {
    check_card_play(state, seat, card)?;
    let gained = sale_value(card);
    let player = &mut state.players[seat];
    player.hand.remove(card);
    player.supply.add_all(&gained);
    state.discard.push(card);
    state.turn.card_played = true;
    events.push(Logged::public(Event::Sold { seat, card, gained }));
    Ok(())
}
