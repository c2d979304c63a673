//! What happened, for histories, emails and pages. Each event is logged with an audience: a
//! drawn card and a preference are seen by their owner only (MAG-INFO-2).

use super::action::TaxDice;
use super::cards::{Card, District, Suit, SuitSet};
use super::score::{MagnateOutcome, Score};
use super::tokens::Tokens;
use crate::engine::Seat;
use serde::{Serialize, Serializer};

impl Serialize for SuitSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The dice at the start of `seat`'s turn (MAG-ROLL); published to both (MAG-INFO-4).
    Rolled {
        seat: Seat,
        d10: [u8; 2],
        #[serde(skip_serializing_if = "Option::is_none")]
        d6: Option<TaxDice>,
    },
    /// MAG-TAX: the taxed suits and what each seat returned to the bank.
    Taxed {
        suits: SuitSet,
        lost: [Tokens; 2],
    },
    /// MAG-INC: what each seat collected from this roll.
    Income {
        gained: [Tokens; 2],
    },
    Built {
        seat: Seat,
        card: Card,
        district: District,
        payment: Tokens,
    },
    Deeded {
        seat: Seat,
        card: Card,
        district: District,
        price: Tokens,
    },
    Sold {
        seat: Seat,
        card: Card,
        gained: Tokens,
    },
    Developed {
        seat: Seat,
        card: Card,
        payment: Tokens,
        completed: bool,
    },
    Traded {
        seat: Seat,
        give: Tokens,
        take: Suit,
    },
    /// Seen by the owner only.
    Preferred {
        seat: Seat,
        card: Card,
        suit: Suit,
    },
    /// Seen by the drawing seat only; the other seat sees [`Event::DrewFaceDown`].
    Drew {
        seat: Seat,
        card: Card,
    },
    DrewFaceDown {
        seat: Seat,
    },
    /// MAG-DRAW-4: the pile was empty, nothing drawn; this was `seat`'s final turn.
    DrewNothing {
        seat: Seat,
    },
    /// MAG-DRAW-2: the discard pile became the draw pile.
    Reshuffled {
        cards: usize,
    },
    /// MAG-END-1: the seats still owed a final turn, in order.
    FinalTurns {
        remaining: Vec<Seat>,
    },
    /// MAG-END-3 and the final score; the hands are revealed (MAG-INFO-5).
    /// The fields are boxed so this rare event does not make every event (pushed several times
    /// an action) as large as itself.
    GameOver {
        hands: Box<[Vec<Card>; 2]>,
        removed_deeds: Vec<Card>,
        score: Box<Score>,
        outcome: Box<MagnateOutcome>,
    },
    Resigned {
        seat: Seat,
    },
}
