//! The driver: the one path every action takes, on the server, in self-play and in tests.
//!
//! Checks run in a fixed order so a client always hears about the most basic problem first:
//! the game is over, the seat is not pending (unless the game allows this action out of turn),
//! then the game's own rules. A refused action changes nothing.

use super::{Game, GameRng, Illegal, Logged, Seat};

/// Why the driver refused an action.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("the game is over")]
    GameOver,
    #[error("it is not seat {0}'s turn to act")]
    NotYourTurn(Seat),
    #[error(transparent)]
    Illegal(#[from] Illegal),
}

/// Checks and applies one action by `seat`, appending its events to `events`.
///
/// # Errors
/// [`Refusal`] in the order above; `state` and `events` are then unchanged.
pub fn submit<G: Game>(
    state: &mut G::State,
    seat: Seat,
    action: &G::Action,
    rng: &mut GameRng,
    events: &mut Vec<Logged<G::Event>>,
) -> Result<(), Refusal> {
    submit_with::<G>(state, seat, action, events, |state, events| {
        G::apply(state, seat, action, rng, events)
    })
}

/// [`submit`] with the game's rules applied by `apply` (which must do what [`Game::apply`]
/// does for this action): self-play hands a game what it keeps from action to action this way,
/// through the same checks.
///
/// # Errors
/// As [`submit`].
pub fn submit_with<G: Game>(
    state: &mut G::State,
    seat: Seat,
    action: &G::Action,
    events: &mut Vec<Logged<G::Event>>,
    apply: impl FnOnce(&mut G::State, &mut Vec<Logged<G::Event>>) -> Result<(), Illegal>,
) -> Result<(), Refusal> {
    let pending = G::pending(state);
    if pending.is_empty() {
        return Err(Refusal::GameOver);
    }
    if !pending.contains(seat) && !G::allowed_out_of_turn(state, seat, action) {
        return Err(Refusal::NotYourTurn(seat));
    }
    let before = events.len();
    apply(state, events).inspect_err(|_| events.truncate(before))?;
    Ok(())
}
