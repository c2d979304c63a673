//! The turn (MAG-TURN): who may act when, the dispatch of every action, the draw at `END`
//! (MAG-DRAW), final turns and the end of the game (MAG-END).

use super::action::Action;
use super::cards::Card;
use super::events::Event;
use super::state::{Phase, Roll, State, Turn, opponent};
use super::{develop, play, roll, score, trade};
use crate::engine::{GameRng, Illegal, Logged, Seat, SeatSet};

/// Where dice and shuffles come from: the game's generator on the server, injected values in the
/// referee (MAG-INFO-3).
pub trait Chance {
    /// A fair die with `sides` faces, 1..=sides.
    fn die(&mut self, sides: u8) -> u8;
    /// MAG-DRAW-2: order the old discard pile into the new draw pile (top card last).
    fn reshuffle(&mut self, cards: &mut [Card]);
}

impl Chance for GameRng {
    fn die(&mut self, sides: u8) -> u8 {
        GameRng::die(self, sides)
    }

    fn reshuffle(&mut self, cards: &mut [Card]) {
        self.shuffle(cards);
    }
}

/// Whether the dice roll by themselves when a turn begins (the server, MAG-TURN-2) or wait for a
/// `roll` action with chosen dice (the referee).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dice {
    Auto,
    Manual,
}

/// Rolls the dice for the active seat from `chance` and resolves the roll.
pub fn roll_now(state: &mut State, chance: &mut impl Chance, events: &mut Vec<Logged<Event>>) {
    roll_with(state, chance, events, &roll::Scan);
}

/// [`roll_now`] with the income read through `paid`.
fn roll_with(
    state: &mut State,
    chance: &mut impl Chance,
    events: &mut Vec<Logged<Event>>,
    paid: &impl roll::Income,
) {
    let d10 = [chance.die(10), chance.die(10)];
    let mut d6 = [0, 0];
    if (Roll { d10, d6 }).taxes() {
        for (i, f) in d6.iter_mut().enumerate() {
            if i < usize::from(state.rules.tax_dice) {
                *f = chance.die(6);
            }
        }
    }
    roll::resolve_with(state, Roll { d10, d6 }, events, paid);
}

/// Checks and applies one action of `seat`. A refused action leaves the state as it was, except
/// that in [`Dice::Manual`] mode an action sent before the roll first rolls (the referee keeps a
/// copy for that case).
pub fn act(
    state: &mut State,
    seat: Seat,
    action: &Action,
    chance: &mut impl Chance,
    events: &mut Vec<Logged<Event>>,
    dice: Dice,
) -> Result<(), Illegal> {
    act_with(state, seat, action, chance, events, dice, &roll::Scan)
}

/// [`act`] with the income of the rolls it makes read through `paid` (self-play keeps what
/// completed properties pay, [`roll::Kept`], rather than reading every column at every roll).
pub fn act_with(
    state: &mut State,
    seat: Seat,
    action: &Action,
    chance: &mut impl Chance,
    events: &mut Vec<Logged<Event>>,
    dice: Dice,
    paid: &impl roll::Income,
) -> Result<(), Illegal> {
    if state.is_over() {
        return Err(Illegal::new(
            "MAG-END-4",
            "The game is over; no action is possible.",
        ));
    }
    if seat.0 > 1 {
        return Err(Illegal::new(
            "MAG-TURN-5",
            format!("Magnate has seats 0 and 1 only, not {seat}."),
        ));
    }
    let active = seat == state.turn.seat;
    if let Action::Roll { d10, d6 } = action {
        if dice == Dice::Auto {
            return Err(Illegal::new(
                "MAG-TURN-2",
                "The server rolls the dice itself when a turn begins; a roll cannot be sent.",
            ));
        }
        if !active {
            return Err(Illegal::new(
                "MAG-TURN-5",
                "Only the active player's turn begins with a roll.",
            ));
        }
        if state.turn.phase != Phase::Roll {
            return Err(Illegal::new(
                "MAG-TURN-2",
                "The dice have already been rolled this turn.",
            ));
        }
        let d6 = d6.map(super::action::TaxDice::faces).unwrap_or([0, 0]);
        roll::check_dice(state, *d10, d6)?;
        roll::resolve(state, Roll { d10: *d10, d6 }, events);
        return Ok(());
    }
    if !active && !matches!(action, Action::Prefer { .. }) {
        return Err(Illegal::new(
            "MAG-TURN-5",
            "It is not your turn; out of turn you may only set a deed preference.",
        ));
    }
    if active && state.turn.phase == Phase::Roll {
        // MAG-TURN-2: nothing happens before the roll.
        roll_with(state, chance, events, paid);
    }
    match *action {
        Action::Build {
            card,
            district,
            ref payment,
        } => play::build(state, seat, card, district, payment, events),
        Action::Deed { card, district } => play::deed(state, seat, card, district, events),
        Action::Sell { card } => play::sell(state, seat, card, events),
        Action::Develop { card, ref payment } => {
            develop::develop(state, seat, card, payment, events)
        }
        Action::Trade { ref give, take } => trade::trade(state, seat, give, take, events),
        Action::Prefer { card, suit } => develop::prefer(state, seat, card, suit, events),
        Action::End => end(state, seat, chance, events, dice, paid),
        Action::Roll { .. } => Ok(()),
    }
}

/// MAG-TURN-4: `END` after the card play; draw, note final turns, and begin the next turn.
fn end(
    state: &mut State,
    seat: Seat,
    chance: &mut impl Chance,
    events: &mut Vec<Logged<Event>>,
    dice: Dice,
    paid: &impl roll::Income,
) -> Result<(), Illegal> {
    if !state.turn.card_played && !state.players[seat].hand.is_empty() {
        return Err(Illegal::new(
            "MAG-TURN-4",
            "You must make this turn's card play (build, deed or sell) before ending the turn.",
        ));
    }
    let drew = draw(state, seat, chance, events);
    match (drew, &mut state.final_turns) {
        // MAG-DRAW-4: nothing to draw, so this was the seat's final turn.
        (false, Some(remaining)) => remaining.retain(|s| *s != seat),
        (false, None) => state.final_turns = Some(vec![opponent(seat)]),
        // MAG-END-1: the pile has run out for the second time: one final turn each.
        (true, None) if state.draw_pile.is_empty() && state.reshuffled => {
            state.final_turns = Some(vec![opponent(seat), seat])
        }
        (true, _) => {}
    }
    if let Some(remaining) = &state.final_turns {
        if !drew || state.draw_pile.is_empty() {
            events.push(Logged::public(Event::FinalTurns {
                remaining: remaining.clone(),
            }));
        }
        if remaining.is_empty() {
            finish(state, events);
            return Ok(());
        }
    }
    state.turn = Turn {
        seat: opponent(seat),
        phase: Phase::Roll,
        card_played: false,
    };
    if dice == Dice::Auto {
        roll_with(state, chance, events, paid);
    }
    Ok(())
}

/// MAG-DRAW-1..4: draws the top card, reshuffling the discards once; whether a card was drawn.
fn draw(
    state: &mut State,
    seat: Seat,
    chance: &mut impl Chance,
    events: &mut Vec<Logged<Event>>,
) -> bool {
    if state.draw_pile.is_empty() && !state.reshuffled {
        state.reshuffled = true;
        std::mem::swap(&mut state.draw_pile, &mut state.discard);
        chance.reshuffle(&mut state.draw_pile);
        events.push(Logged::public(Event::Reshuffled {
            cards: state.draw_pile.len(),
        }));
    }
    match state.draw_pile.pop() {
        Some(card) => {
            state.players[seat].hand.insert(card);
            events.push(Logged::only(
                SeatSet::only(seat),
                Event::Drew { seat, card },
            ));
            events.push(Logged::all_but(
                SeatSet::only(seat),
                Event::DrewFaceDown { seat },
            ));
            true
        }
        None => {
            events.push(Logged::public(Event::DrewNothing { seat }));
            false
        }
    }
}

/// MAG-END-3: hands to the discard pile, unfinished deeds removed with their tokens, then score.
pub fn finish(state: &mut State, events: &mut Vec<Logged<Event>>) {
    let (hands, removed) = clear_table(state);
    let score = score::score(state);
    let outcome = score::decide(&score);
    events.push(Logged::public(Event::GameOver {
        hands: Box::new(hands),
        removed_deeds: removed,
        score: Box::new(score),
        outcome: Box::new(outcome),
    }));
}

/// The first half of MAG-END-3, also used when a player resigns: returns the discarded hands
/// and the removed deeds, and marks the game over.
pub fn clear_table(state: &mut State) -> ([Vec<Card>; 2], Vec<Card>) {
    let mut hands: [Vec<Card>; 2] = [Vec::new(), Vec::new()];
    let mut removed = Vec::new();
    for (hand, seat) in hands.iter_mut().zip(super::state::SEATS) {
        let player = &mut state.players[seat];
        hand.extend(player.hand.iter());
        state.discard.extend(player.hand.iter());
        player.hand = super::cards::CardSet::EMPTY;
        for column in player.columns.0.iter_mut() {
            column.retain(|p| {
                if p.deed.is_some() {
                    removed.push(p.card);
                    false
                } else {
                    true
                }
            });
        }
    }
    state.discard.extend(removed.iter().copied());
    state.turn.phase = Phase::Over;
    (hands, removed)
}
