//! Setting up a game (MAG-SETUP): districts, Crowns, starting tokens, the deck and the hands,
//! the start player, and the first roll.

use super::cards::{Card, CardSet, District, Rank};
use super::events::Event;
use super::options::{DistrictCards, Rules, StartPlayer};
use super::state::{PerDistrict, PerSeat, Phase, Player, State, Turn};
use super::turn::{Chance, Dice, roll_now};
use crate::engine::{Logged, Seat};

/// The property cards of this game's deck (MAG-SETUP-4, MAG-COURT-1, MAG-COURT-8).
pub fn deck_cards(rules: &Rules) -> Vec<Card> {
    let extra = match rules.district_cards {
        DistrictCards::Pawns => Rank::Court,
        DistrictCards::Courts => Rank::Pawn,
    };
    Card::all()
        .filter(|c| match c.rank() {
            Rank::Ace | Rank::Number(_) => true,
            r => rules.courts && r == extra,
        })
        .collect()
}

/// The four cards laid as districts `a b d e` around the Excuse.
pub fn district_cards(rules: &Rules) -> Vec<Card> {
    let rank = match rules.district_cards {
        DistrictCards::Pawns => Rank::Pawn,
        DistrictCards::Courts => Rank::Court,
    };
    Card::all().filter(|c| c.rank() == rank).collect()
}

/// Every card in play in this game: districts, Crowns and the deck (41, or 45 with Courts).
pub fn cards_in_game(rules: &Rules) -> CardSet {
    let mut all: CardSet = deck_cards(rules).into_iter().collect();
    for c in district_cards(rules)
        .into_iter()
        .chain(Card::all().filter(|c| matches!(c.rank(), Rank::Crown | Rank::Excuse)))
    {
        all.insert(c);
    }
    all
}

pub fn setup(
    rules: &Rules,
    chance: &mut impl Chance,
    events: &mut Vec<Logged<Event>>,
    dice: Dice,
) -> State {
    // MAG-SETUP-5: the start player first, since the deal begins with them.
    let start = match rules.start_player {
        StartPlayer::Random => Seat(chance.die(2) - 1),
        StartPlayer::HostChooses => Seat(rules.start_seat),
        StartPlayer::FirstSeat => Seat(0),
    };
    let second = super::state::opponent(start);

    // MAG-SETUP-1: the Excuse in the centre, the four others in random order around it.
    let mut outer = district_cards(rules);
    chance.reshuffle(&mut outer);
    let mut districts = PerDistrict([Card::EXCUSE; 5]);
    for (d, card) in [
        District::ALL[0],
        District::ALL[1],
        District::ALL[3],
        District::ALL[4],
    ]
    .into_iter()
    .zip(outer)
    {
        districts[d] = card;
    }

    // MAG-SETUP-2/3: three Crowns each, one token per Crown.
    let mut crowns: Vec<Card> = Card::all().filter(|c| c.rank() == Rank::Crown).collect();
    chance.reshuffle(&mut crowns);
    let mut players = PerSeat([Player::default(), Player::default()]);
    for (i, crown) in crowns.into_iter().enumerate() {
        let seat = if i % 2 == 0 { start } else { second };
        let p = &mut players[seat];
        p.crowns.insert(crown);
        for s in crown.suits().iter() {
            p.supply.add(s, 1);
        }
    }

    // MAG-SETUP-4: shuffle the deck, three cards each, alternating, first player first.
    let mut draw_pile = deck_cards(rules);
    chance.reshuffle(&mut draw_pile);
    for i in 0..6 {
        let seat = if i % 2 == 0 { start } else { second };
        if let Some(card) = draw_pile.pop() {
            players[seat].hand.insert(card);
        }
    }

    let mut state = State {
        rules: rules.clone(),
        districts,
        players,
        draw_pile,
        discard: Vec::with_capacity(32),
        reshuffled: false,
        turn: Turn {
            seat: start,
            phase: Phase::Roll,
            card_played: false,
        },
        final_turns: None,
        last_roll: None,
        resigned: None,
        timed_out: false,
    };
    // MAG-SETUP-7: the first turn begins with a normal roll.
    if dice == Dice::Auto {
        roll_now(&mut state, chance, events);
    }
    state
}
