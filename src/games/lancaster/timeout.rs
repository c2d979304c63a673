//! What a seat that lets its deadline pass decides (design.md section 14): Lancaster never makes
//! a seat lose on time (2–5 players: the others would lose their game too). The default is one of
//! the seat's legal actions, chosen by a fixed rule — deterministic, always accepted, and costing
//! only the late seat (it keeps its gold, squires and markers and declines what is optional):
//!
//! | Decision (spec §15) | Default |
//! |---|---|
//! | D1 starting extension (LAN-SET-7) | the first space listed |
//! | D2 knight placement (LAN-PLC) | the weakest knight, no squires, to the castle if it may, else a conflict, else a county (passing is not allowed while a knight can be placed, LAN-PLC-4) |
//! | D2a king's favour | the first tile listed |
//! | D3 vote (LAN-PAR-3) | abstain (`V:-`, never listed): a sealed ballot with no tile and no marker, counted for neither side |
//! | D4 law exchange | the fewest exchanges allowed |
//! | upgrade (LAN-EFF-3), passage (LAN-EFF-7) | declined |
//! | build (LAN-EFF-4), noble (LAN-EFF-5) | the first listed |
//! | D5 county reward (LAN-RWC-2) | the noble |
//! | D5-I Surrey: next start player | the current start player (who opened the round: the marker passes only with this choice, LAN-ENG-5) keeps the marker, as when nobody is in Surrey (LAN-RWC-4): naming the first seat listed handed seat 0 the marker, a gift to a bystander, and naming the late seat itself would reward it for being late |
//! | D5 reward option (a county with `reward_options`) | the first listed |
//! | D6 castle (LAN-RWK-4) | the optional cost declined, first space listed |
//! | D7a ransom | no ransom: the knights go to the reserve |
//!
//! Among actions of equal rank the first listed wins, so the choice follows the engine's own
//! listing order. The vote is the one default that is not listed: voting no would sink a law the
//! others pass on a tie (LAN-PAR-3), harming them, so the late seat abstains instead.

use super::action::{Action, Take};
use super::ids::Target;
use super::state::{State, Step};
use super::{Game, Lancaster};
use crate::engine::{Seat, Timeout};

/// The default decision of pending `seat`; [`Timeout::Loses`] only if it has no legal action,
/// which the engine never leaves a pending seat with.
pub fn timeout(state: &State, seat: Seat) -> Timeout<Action> {
    if matches!(state.step, Step::Vote { .. }) && state.frames.is_empty() && state.is_pending(seat)
    {
        return Timeout::Play(Action::Vote {
            yes: None,
            markers: 0,
        });
    }
    Lancaster::legal_actions(state, seat)
        .into_iter()
        .enumerate()
        .min_by_key(|(i, a)| (rank(a, state.start_player), *i))
        .map_or(Timeout::Loses, |(_, a)| Timeout::Play(a))
}

/// Smaller is a better default for a late seat, in a round opened by `start_player`.
fn rank(action: &Action, start_player: Seat) -> (u32, u32) {
    match action {
        Action::Place {
            knight,
            target,
            squires,
            ..
        } => {
            let place = match target {
                Target::Castle(_) => 0,
                Target::Conflict(_) => 1,
                Target::County(_) => 2,
            };
            (place * 1000 + u32::from(*knight), *squires)
        }
        Action::Vote { markers, .. } => (0, *markers),
        Action::Exchange { times } => (*times, 0),
        Action::Upgrade { knight } => (u32::from(knight.is_some()), 0),
        Action::Passage { card } => (u32::from(card.is_some()), 0),
        Action::County { take } => match take {
            Take::Noble => (0, 0),
            Take::Reward => (1, 0),
            Take::Both => (2, 0),
        },
        Action::Castle { take, .. } => (u32::from(*take), 0),
        Action::Ransom { knight } => (u32::from(knight.is_some()), 0),
        // What the rules do when nobody is in Surrey: the marker stays where it is, with the
        // seat that opened the round (it passes at once only with this choice, LAN-ENG-5, and
        // Surrey chooses once a round, so `start_player` is still the opener). Any other
        // seat named would be a gift (seat 0, when the first listed was taken), and the late
        // seat naming itself would gain by being late.
        Action::StartPlayer { seat: next } => (u32::from(*next != start_player), 0),
        Action::StartExtension { .. }
        | Action::Favour { .. }
        | Action::Build { .. }
        | Action::Noble { .. }
        | Action::Reward { .. } => (0, 0),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::engine::{GameRng, Seed, driver};
    use crate::games::lancaster::Rules;

    fn kind(a: &Action) -> &'static str {
        match a {
            Action::StartExtension { .. } => "start_extension",
            Action::Place { .. } => "place",
            Action::Favour { .. } => "favour",
            Action::Vote { .. } => "vote",
            Action::Exchange { .. } => "exchange",
            Action::Upgrade { .. } => "upgrade",
            Action::Build { .. } => "build",
            Action::Noble { .. } => "noble",
            Action::County { .. } => "county",
            Action::Passage { .. } => "passage",
            Action::StartPlayer { .. } => "start_player",
            Action::Reward { .. } => "reward",
            Action::Castle { .. } => "castle",
            Action::Ransom { .. } => "ransom",
        }
    }

    /// Plays games where seat 0 picks at random and every other seat is always late (decided by
    /// default), calling `look` with every default and the legal list it came from. Returns the
    /// number of steps of each game; panics if a default is refused or a game does not end.
    fn late_games(players: u8, games: u64, look: &mut dyn FnMut(&Action, &[Action])) -> Vec<u64> {
        (0..games)
            .map(|g| {
                let mut events = Vec::new();
                let mut rng = GameRng::from_u64(g);
                let mut state =
                    Lancaster::setup(&Rules::default(), players, &mut rng, &mut events).unwrap();
                let mut policy = GameRng::from_u64(g ^ 0xbeef);
                let mut n = 0u64;
                while let Some(seat) = Lancaster::pending(&state).iter().last() {
                    let legal = Lancaster::legal_actions(&state, seat);
                    let action = if seat == Seat(0) && players > 1 {
                        legal[policy.index(legal.len())].clone()
                    } else {
                        let Timeout::Play(a) = timeout(&state, seat) else {
                            panic!("seat {seat} pending with no default");
                        };
                        look(&a, &legal);
                        a
                    };
                    n += 1;
                    let mut rng = GameRng::for_action(&Seed([2; 32]), n);
                    driver::submit::<Lancaster>(&mut state, seat, &action, &mut rng, &mut events)
                        .unwrap_or_else(|e| panic!("default {action} refused: {e}"));
                    assert!(n < 20_000, "the game does not end");
                }
                n
            })
            .collect()
    }

    #[test]
    fn games_whose_other_seats_are_always_late_still_end_for_two_to_five_players() {
        for players in 2..=5 {
            let steps = late_games(players, 12, &mut |_, _| {});
            assert!(steps.iter().all(|n| *n > 0), "{players}: {steps:?}");
        }
    }

    /// Random games in which, at every step, every pending seat's default is checked against
    /// the table above and accepted by the engine (on a copy), so every kind of decision the
    /// engine can wait for is met.
    fn random_games(players: u8, games: u64, look: &mut dyn FnMut(&Action, &[Action])) {
        for g in 0..games {
            let mut events = Vec::new();
            let mut rng = GameRng::from_u64(g + 100);
            let mut state =
                Lancaster::setup(&Rules::default(), players, &mut rng, &mut events).unwrap();
            let mut policy = GameRng::from_u64(g ^ 0xfeed);
            let mut n = 0u64;
            while let Some(seat) = Lancaster::pending(&state).lowest() {
                n += 1;
                for late in Lancaster::pending(&state).iter() {
                    let legal = Lancaster::legal_actions(&state, late);
                    let Timeout::Play(default) = timeout(&state, late) else {
                        panic!("seat {late} pending with no default");
                    };
                    look(&default, &legal);
                    let mut copy = state.clone();
                    let mut rng = GameRng::for_action(&Seed([3; 32]), n);
                    driver::submit::<Lancaster>(
                        &mut copy,
                        late,
                        &default,
                        &mut rng,
                        &mut Vec::new(),
                    )
                    .unwrap_or_else(|e| panic!("default {default} refused: {e}"));
                }
                let legal = Lancaster::legal_actions(&state, seat);
                let action = legal[policy.index(legal.len())].clone();
                let mut rng = GameRng::for_action(&Seed([3; 32]), n);
                driver::submit::<Lancaster>(&mut state, seat, &action, &mut rng, &mut events)
                    .unwrap();
                assert!(n < 20_000);
            }
        }
    }

    /// Every kind of decision met in random play, with its documented default.
    #[test]
    fn each_kind_of_decision_has_its_documented_default() {
        let mut seen = std::collections::BTreeSet::new();
        for players in 2..=5 {
            random_games(players, 6, &mut |default, legal| {
                let k = kind(default);
                seen.insert(k);
                let listed_first =
                    |f: &dyn Fn(&Action) -> bool| legal.iter().find(|a| f(a)).cloned();
                match default {
                    Action::Vote { yes, markers } => {
                        assert!(
                            yes.is_none() && *markers == 0,
                            "a late voter abstains: {default}"
                        );
                        assert!(!legal.contains(default), "the abstention is not listed");
                    }
                    Action::Place {
                        squires, knight, ..
                    } => {
                        assert_eq!(*squires, 0, "{default}");
                        let castle = listed_first(&|a| {
                            matches!(
                                a,
                                Action::Place {
                                    target: Target::Castle(_),
                                    ..
                                }
                            )
                        });
                        if castle.is_some() {
                            assert!(
                                matches!(
                                    default,
                                    Action::Place {
                                        target: Target::Castle(_),
                                        ..
                                    }
                                ),
                                "{default}"
                            );
                        }
                        let weakest = legal
                            .iter()
                            .filter_map(|a| match a {
                                Action::Place { knight, target, .. }
                                    if std::mem::discriminant(target)
                                        == std::mem::discriminant(match default {
                                            Action::Place { target, .. } => target,
                                            _ => unreachable!(),
                                        }) =>
                                {
                                    Some(*knight)
                                }
                                _ => None,
                            })
                            .min()
                            .unwrap();
                        assert_eq!(*knight, weakest, "the weakest knight: {default}");
                    }
                    Action::Upgrade { knight } => {
                        assert!(
                            knight.is_none() || !legal.contains(&Action::Upgrade { knight: None }),
                            "{default}"
                        );
                    }
                    Action::Passage { card } => {
                        assert!(
                            card.is_none() || !legal.contains(&Action::Passage { card: None }),
                            "{default}"
                        );
                    }
                    Action::Ransom { knight } => {
                        assert!(
                            knight.is_none() || !legal.contains(&Action::Ransom { knight: None }),
                            "{default}"
                        );
                    }
                    Action::Exchange { times } => {
                        let fewest = legal
                            .iter()
                            .filter_map(|a| match a {
                                Action::Exchange { times } => Some(*times),
                                _ => None,
                            })
                            .min()
                            .unwrap();
                        assert_eq!(*times, fewest);
                    }
                    Action::County { take } => {
                        if legal.contains(&Action::County { take: Take::Noble }) {
                            assert_eq!(*take, Take::Noble);
                        }
                    }
                    Action::Castle { take, .. } => {
                        let declinable = legal
                            .iter()
                            .any(|a| matches!(a, Action::Castle { take: false, .. }));
                        assert!(!take || !declinable, "{default}");
                    }
                    Action::StartPlayer { .. } => {
                        assert!(
                            legal.contains(default),
                            "the late seat names a listed seat: {default}"
                        );
                        // The rule test
                        // `a_late_surrey_occupant_leaves_the_start_marker_where_it_is` pins it.
                    }
                    Action::StartExtension { .. }
                    | Action::Favour { .. }
                    | Action::Build { .. }
                    | Action::Noble { .. }
                    | Action::Reward { .. } => {
                        assert_eq!(
                            Some(default.clone()),
                            legal.iter().find(|a| kind(a) == k).cloned(),
                            "the first listed"
                        );
                    }
                }
            });
        }
        for k in [
            "start_extension",
            "place",
            "favour",
            "vote",
            "exchange",
            "upgrade",
            "build",
            "noble",
            "county",
            "passage",
            "start_player",
            "castle",
            "ransom",
        ] {
            assert!(
                seen.contains(k),
                "no late seat ever met a {k} decision: {seen:?}"
            );
        }
    }
}
