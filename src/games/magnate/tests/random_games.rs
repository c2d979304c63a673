//! Property tests over random games: for every preset and the main variants, complete games of
//! uniformly random legal actions keep every invariant (self-play with checks: each card in one
//! place, every listed action accepted, nothing hidden leaks, replay reproduces the game), and
//! the counted legal-action index agrees with the list.

use super::*;
use crate::engine::driver::submit;
use crate::engine::{Game, GameRng, Seat, Seed};
use crate::games::magnate::options::{PRESETS, Rules};
use crate::games::magnate::{Action, Magnate, legal};
use crate::selfplay::{Run, play};

fn rules(options: Value) -> Rules {
    serde_json::from_value::<Options>(options)
        .unwrap()
        .resolve()
        .unwrap()
}

fn self_play(rules: Rules, games: u64, seed: u64) {
    let run = Run {
        rules,
        seats: 2,
        games,
        seed,
        threads: 1,
        check: true,
    };
    let summary = play::<Magnate>(&run).unwrap_or_else(|v| panic!("{}", v.message));
    assert_eq!(summary.games, games);
    assert!(!summary.labels.contains_key("unfinished"));
}

#[test]
fn random_games_of_every_preset_keep_every_invariant() {
    for (i, preset) in PRESETS.iter().enumerate() {
        self_play(rules(json!({ "preset": preset })), 8, 100 + i as u64);
    }
}

#[test]
fn random_games_with_courts_and_the_other_switches_keep_every_invariant() {
    for (i, options) in [
        json!({"courts": true}),
        json!({"courts": true, "district_cards": "courts", "tax_dice": 2}),
        json!({"district_cards": "courts", "ace_scoring": "deucey", "auto_pick": "ap"}),
        json!({"preset": "fr", "courts": true, "trade": "any_three", "trade_same_suit": "allow"}),
        json!({"preset": "es", "deed_dev_each_suit": true, "start_player": "host_chooses", "start_seat": 1}),
    ]
    .into_iter()
    .enumerate()
    {
        self_play(rules(options), 4, 200 + i as u64);
    }
}

/// One random game through the driver: every state along the way and the actions taken. At
/// each step the counted index must agree with the list, and the active seat must make exactly
/// one card play per turn.
fn random_game(rules: &Rules, seed: &Seed, policy: u64) -> (Vec<State>, Vec<(Seat, Action)>) {
    let mut state =
        Magnate::setup(rules, 2, &mut GameRng::for_setup(seed), &mut Vec::new()).unwrap();
    let mut policy = GameRng::from_u64(policy);
    let mut states = vec![state.clone()];
    let mut log = Vec::new();
    let mut plays = 0;
    while let Some(seat) = Magnate::pending(&state).lowest() {
        let listed = legal::legal_actions(&state, seat);
        assert_eq!(legal::count(&state, seat) as usize, listed.len());
        for (i, a) in listed.iter().enumerate() {
            assert_eq!(legal::nth(&state, seat, i as u32).as_ref(), Some(a));
        }
        assert_eq!(legal::nth(&state, seat, listed.len() as u32), None);
        // The fast random pick draws the same action as indexing the counted list.
        let salt = log.len() as u64;
        let picked = legal::pick(&state, seat, &mut GameRng::from_u64(salt));
        let index = GameRng::from_u64(salt).below(listed.len() as u32);
        assert_eq!(picked.as_ref(), listed.get(index as usize));
        assert!(
            legal::legal_actions(&state, crate::games::magnate::state::opponent(seat)).is_empty()
        );
        let action = listed[policy.index(listed.len())].clone();
        if action.is_card_play() {
            plays += 1;
        }
        if action == Action::End {
            assert!(
                plays == 1 || state.players[seat].hand.is_empty(),
                "one card play per turn"
            );
            plays = 0;
        }
        let mut rng = GameRng::for_action(seed, log.len() as u64 + 1);
        submit::<Magnate>(&mut state, seat, &action, &mut rng, &mut Vec::new()).unwrap();
        log.push((seat, action));
        states.push(state.clone());
        assert!(log.len() < 5_000, "the game ends");
    }
    (states, log)
}

#[test]
fn replaying_a_game_from_its_seed_and_actions_gives_identical_states() {
    for (i, options) in [json!({}), json!({"preset": "abstractplay"})]
        .into_iter()
        .enumerate()
    {
        let rules = rules(options);
        let seed = Seed::from_numbers(77, i as u64);
        let (states, log) = random_game(&rules, &seed, 5 + i as u64);
        let mut state =
            Magnate::setup(&rules, 2, &mut GameRng::for_setup(&seed), &mut Vec::new()).unwrap();
        assert_eq!(state, states[0]);
        for (n, (seat, action)) in log.iter().enumerate() {
            let mut rng = GameRng::for_action(&seed, n as u64 + 1);
            submit::<Magnate>(&mut state, *seat, action, &mut rng, &mut Vec::new()).unwrap();
            assert_eq!(state, states[n + 1], "after action {n}: {action}");
        }
        assert!(state.is_over());
        // The stored form reads back to the same state at the end, too.
        let back: State = serde_json::from_str(&serde_json::to_string(&state).unwrap()).unwrap();
        assert_eq!(back, state);
    }
}

#[test]
fn the_counted_legal_action_index_agrees_with_the_list_in_random_games() {
    for (i, options) in [
        json!({"preset": "es"}),
        json!({"courts": true, "deed_dev_each_suit": true}),
    ]
    .into_iter()
    .enumerate()
    {
        let (states, _) = random_game(&rules(options), &Seed::from_numbers(91, i as u64), 3);
        assert!(states.last().unwrap().is_over());
    }
}
