//! Trading with the bank (MAG-TRADE): three tokens for one.

use super::cards::Suit;
use super::events::Event;
use super::options::{ForbidAllow, TradeRule};
use super::play::check_holdings;
use super::state::State;
use super::tokens::Tokens;
use crate::engine::{Illegal, Logged, Seat};

/// MAG-TRADE-1..3 and MAG-PAY-1, in the order of MAG-PLAY-4.
pub fn check(state: &State, seat: Seat, give: &Tokens, take: Suit) -> Result<(), Illegal> {
    if give.total() != 3 {
        return Err(Illegal::new(
            "MAG-TRADE-1",
            format!(
                "A trade gives exactly three tokens to the bank; this gives {}.",
                give.total()
            ),
        ));
    }
    if state.rules.trade == TradeRule::ThreeSame && give.suits().len() != 1 {
        return Err(Illegal::new(
            "MAG-TRADE-2",
            "The three tokens given in a trade must all be of one suit.",
        ));
    }
    if state.rules.trade_same_suit == ForbidAllow::Forbid && give.get(take) > 0 {
        return Err(Illegal::new(
            "MAG-TRADE-3",
            format!(
                "The token taken must be of a suit you did not give; you gave {}.",
                take.name()
            ),
        ));
    }
    check_holdings(state, seat, give, || "the trade".to_string())
}

pub fn trade(
    state: &mut State,
    seat: Seat,
    give: &Tokens,
    take: Suit,
    events: &mut Vec<Logged<Event>>,
) -> Result<(), Illegal> {
    check(state, seat, give, take)?;
    let supply = &mut state.players[seat].supply;
    supply.remove_all(give);
    supply.add(take, 1);
    events.push(Logged::public(Event::Traded {
        seat,
        give: *give,
        take,
    }));
    Ok(())
}
