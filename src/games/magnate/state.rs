//! The complete Magnate state, hidden parts included. It never leaves the server as is: players
//! get a [`super::view::View`]. Its JSON form is the position format of `magnate-position.md`
//! (see `position.rs`), plus `last_roll` and `resigned`.

use super::cards::{Card, CardSet, District, Suit};
use super::options::Rules;
use super::tokens::Tokens;
use crate::engine::Seat;
use std::ops::{Index, IndexMut};

/// One value per district `a`–`e`, indexed by [`District`] without bounds checks that could fail.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PerDistrict<T>(pub [T; 5]);

impl<T> Index<District> for PerDistrict<T> {
    type Output = T;
    fn index(&self, d: District) -> &T {
        let [a, b, c, dd, e] = &self.0;
        match d.index() {
            0 => a,
            1 => b,
            2 => c,
            3 => dd,
            _ => e,
        }
    }
}

impl<T> IndexMut<District> for PerDistrict<T> {
    fn index_mut(&mut self, d: District) -> &mut T {
        let [a, b, c, dd, e] = &mut self.0;
        match d.index() {
            0 => a,
            1 => b,
            2 => c,
            3 => dd,
            _ => e,
        }
    }
}

/// One value per seat (Magnate has exactly two).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PerSeat<T>(pub [T; 2]);

impl<T> Index<Seat> for PerSeat<T> {
    type Output = T;
    fn index(&self, s: Seat) -> &T {
        let [a, b] = &self.0;
        if s.0 == 0 { a } else { b }
    }
}

impl<T> IndexMut<Seat> for PerSeat<T> {
    fn index_mut(&mut self, s: Seat) -> &mut T {
        let [a, b] = &mut self.0;
        if s.0 == 0 { a } else { b }
    }
}

/// The other player.
pub fn opponent(seat: Seat) -> Seat {
    Seat(1 - (seat.0 & 1))
}

pub const SEATS: [Seat; 2] = [Seat(0), Seat(1)];

/// An unfinished deed: the development tokens on it and the owner's standing income preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Deed {
    pub tokens: Tokens,
    pub prefer: Option<Suit>,
}

/// A card in a player's column: completed (no deed) or an unfinished deed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Property {
    pub card: Card,
    pub deed: Option<Deed>,
}

impl Property {
    pub fn is_completed(&self) -> bool {
        self.deed.is_none()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Player {
    pub crowns: CardSet,
    pub supply: Tokens,
    pub hand: CardSet,
    /// Bottom (first placed) to top.
    pub columns: PerDistrict<Vec<Property>>,
}

impl Player {
    /// The unfinished deed of `card` in this player's columns.
    pub fn deed_mut(&mut self, card: Card) -> Option<&mut Deed> {
        self.property_mut(card).and_then(|p| p.deed.as_mut())
    }

    pub fn deed(&self, card: Card) -> Option<&Deed> {
        self.property(card).and_then(|p| p.deed.as_ref())
    }

    /// `card` where this player placed it. Every development looks its deed up, and a deed is
    /// always a column's top card, so the five tops are read before the columns are searched.
    pub fn property(&self, card: Card) -> Option<&Property> {
        let columns = &self.columns.0;
        columns
            .iter()
            .find_map(|c| c.last().filter(|p| p.card == card))
            .or_else(|| {
                columns
                    .iter()
                    .find_map(|c| c.iter().find(|p| p.card == card))
            })
    }

    pub fn property_mut(&mut self, card: Card) -> Option<&mut Property> {
        let columns = &mut self.columns.0;
        match columns
            .iter()
            .position(|c| c.last().is_some_and(|p| p.card == card))
        {
            Some(i) => columns.get_mut(i).and_then(|c| c.last_mut()),
            None => columns
                .iter_mut()
                .find_map(|c| c.iter_mut().find(|p| p.card == card)),
        }
    }

    /// Whether this player has an unfinished deed in `district` (MAG-PLACE-4).
    pub fn has_deed_in(&self, district: District) -> bool {
        self.columns[district].iter().any(|p| p.deed.is_some())
    }

    /// Every placed card with its district.
    pub fn placed(&self) -> impl Iterator<Item = (District, &Property)> {
        District::ALL
            .into_iter()
            .flat_map(move |d| self.columns[d].iter().map(move |p| (d, p)))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The turn has begun; the dice are not rolled yet (only the referee leaves a state here).
    Roll,
    /// Rolled: the active player acts.
    Action,
    /// The game has ended.
    Over,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Turn {
    pub seat: Seat,
    pub phase: Phase,
    pub card_played: bool,
}

/// A roll of the dice: both d10 and the tax d6 (0 where not rolled).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Roll {
    pub d10: [u8; 2],
    pub d6: [u8; 2],
}

impl Roll {
    /// The higher d10 (MAG-ROLL-1).
    pub fn hi(&self) -> u8 {
        let [a, b] = self.d10;
        a.max(b)
    }

    /// Whether taxation happens (MAG-ROLL-2).
    pub fn taxes(&self) -> bool {
        // Not `contains`, which searches a byte slice with `memchr`: every roll asks.
        let [a, b] = self.d10;
        a == 1 || b == 1
    }

    /// The taxed suits, each once (MAG-TAX-5).
    pub fn tax_suits(&self) -> super::cards::SuitSet {
        self.d6
            .iter()
            .filter_map(|&f| Suit::from_d6(f))
            .fold(super::cards::SuitSet::EMPTY, |s, x| s.with(x))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub rules: Rules,
    pub districts: PerDistrict<Card>,
    pub players: PerSeat<Player>,
    /// Top card last (so drawing pops); the position format writes it top first.
    pub draw_pile: Vec<Card>,
    /// Oldest first.
    pub discard: Vec<Card>,
    pub reshuffled: bool,
    pub turn: Turn,
    /// Seats still owed a final turn, in order (MAG-END-1); `None` until the pile runs out again.
    pub final_turns: Option<Vec<Seat>>,
    pub last_roll: Option<Roll>,
    /// The seat that resigned, if the game ended that way (server policy, MAG-END-5).
    pub resigned: Option<Seat>,
    /// Whether the seat in `resigned` lost on time rather than resigning (design.md §14).
    pub timed_out: bool,
}

impl State {
    pub fn is_over(&self) -> bool {
        self.turn.phase == Phase::Over
    }
}
