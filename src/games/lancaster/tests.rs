//! Rule tests: each named after the behaviour a player would notice, citing the LAN rule.

use super::*;
use crate::engine::{GameRng, Seed, driver};

fn new_game(players: u8, seed: u64) -> State {
    let mut events = Vec::new();
    Lancaster::setup(
        &Rules::default(),
        players,
        &mut GameRng::from_u64(seed),
        &mut events,
    )
    .unwrap()
}

/// Plays random legal actions to the end, checking invariants after every step.
fn random_game(players: u8, seed: u64) -> State {
    let mut state = new_game(players, seed);
    let mut policy = GameRng::from_u64(seed ^ 0xfeed);
    let mut n = 0u64;
    while let Some(seat) = Lancaster::pending(&state).lowest() {
        check::check(&state).unwrap();
        let actions = Lancaster::legal_actions(&state, seat);
        assert!(!actions.is_empty(), "pending seat {seat} has no action");
        let a = actions[policy.index(actions.len())].clone();
        let text = a.to_string();
        assert_eq!(text.parse::<Action>().unwrap(), a, "{text}");
        n += 1;
        let mut rng = GameRng::for_action(&Seed([1; 32]), n);
        let mut events = Vec::new();
        driver::submit::<Lancaster>(&mut state, seat, &a, &mut rng, &mut events)
            .unwrap_or_else(|e| panic!("{a} refused: {e}"));
        assert!(n < 20_000);
    }
    check::check(&state).unwrap();
    state
}

#[test]
fn random_games_for_two_to_five_players_end_with_an_outcome() {
    for players in 2..=5 {
        for seed in 0..6 {
            let s = random_game(players, seed);
            let o = Lancaster::outcome(&s).unwrap();
            assert!(!o.winners.is_empty());
            assert_eq!(o.scores.len(), usize::from(players));
            assert_eq!(s.round, 5);
        }
    }
}
