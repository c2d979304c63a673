//! Developing deeds (MAG-DEV) and the standing income preference for a deed (MAG-INC-6).

use super::cards::{Card, Suit};
use super::events::Event;
use super::play::{check_holdings, cost};
use super::state::State;
use super::tokens::Tokens;
use crate::engine::{Illegal, Logged, Seat};

/// MAG-DEV-1..7 for putting `payment` on `seat`'s deed of `card`, in the order of MAG-PLAY-4.
pub fn check(state: &State, seat: Seat, card: Card, payment: &Tokens) -> Result<(), Illegal> {
    let Some(deed) = state.players[seat].deed(card) else {
        return Err(Illegal::new(
            "MAG-DEV-1",
            format!("{card} is not one of your unfinished deeds; only the owner develops a deed."),
        ));
    };
    if payment.is_empty() {
        return Err(Illegal::new(
            "MAG-DEV-1",
            format!("A development puts at least one token on the deed of {card}."),
        ));
    }
    let suits = card.suits();
    if let Some(s) = payment.suits().minus(suits).first() {
        return Err(Illegal::new(
            "MAG-DEV-2",
            format!(
                "Every token placed on {card} must be of one of its suits; {} is not.",
                s.name()
            ),
        ));
    }
    let target = u32::from(cost(card, &state.rules));
    let on = deed.tokens.total();
    let after = on + payment.total();
    if after > target {
        return Err(Illegal::new(
            "MAG-DEV-4",
            format!(
                "The deed of {card} needs {} more token(s) to reach its target of {target}; {} would overpay it.",
                target - on,
                payment.total()
            ),
        ));
    }
    if state.rules.deed_dev_each_suit {
        let mut tokens = deed.tokens;
        tokens.add_all(payment);
        let missing_suits = suits.iter().filter(|s| tokens.get(*s) == 0).count() as u32;
        if target - after < missing_suits {
            return Err(Illegal::new(
                "MAG-DEV-7",
                format!(
                    "The development tokens on {card} must end up including each of its suits; this leaves too few tokens to add the missing suit(s)."
                ),
            ));
        }
    }
    check_holdings(state, seat, payment, || format!("developing {card}"))
}

pub fn develop(
    state: &mut State,
    seat: Seat,
    card: Card,
    payment: &Tokens,
    events: &mut Vec<Logged<Event>>,
) -> Result<(), Illegal> {
    check(state, seat, card, payment)?;
    let target = u32::from(cost(card, &state.rules));
    let player = &mut state.players[seat];
    player.supply.remove_all(payment);
    let mut completed = false;
    if let Some(p) = player.property_mut(card)
        && let Some(deed) = p.deed.as_mut()
    {
        deed.tokens.add_all(payment);
        // MAG-DEV-5: complete at once; the tokens go back to the bank.
        if deed.tokens.total() == target {
            p.deed = None;
            completed = true;
        }
    }
    events.push(Logged::public(Event::Developed {
        seat,
        card,
        payment: *payment,
        completed,
    }));
    Ok(())
}

/// MAG-INC-6: set the suit a deed pays; allowed at any time, by the owner only, and private.
pub fn prefer(
    state: &mut State,
    seat: Seat,
    card: Card,
    suit: Suit,
    events: &mut Vec<Logged<Event>>,
) -> Result<(), Illegal> {
    if !card.suits().contains(suit) {
        return Err(Illegal::new(
            "MAG-INC-6",
            format!(
                "A deed's preference must be one of its suits; {card} has no {}.",
                suit.name()
            ),
        ));
    }
    let Some(deed) = state.players[seat].deed_mut(card) else {
        return Err(Illegal::new(
            "MAG-INC-6",
            format!(
                "{card} is not one of your unfinished deeds, so it has no income preference to set."
            ),
        ));
    };
    deed.prefer = Some(suit);
    events.push(Logged::only(
        crate::engine::SeatSet::only(seat),
        Event::Preferred { seat, card, suit },
    ));
    Ok(())
}
