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

use super::ids::{CardId, CountyId};
use super::state::{Conflict, Loc, Stack, Step};
use crate::engine::{Seat, Viewer};

/// A game past the starting extensions (everyone built K1), seat 0 to place.
fn placing(players: u8) -> State {
    let mut s = new_game(players, 11);
    for seat in 0..players {
        act(&mut s, seat, "X:K1").unwrap();
    }
    s.start_player = Seat(0);
    s.step = Step::Place { turn: Seat(0) };
    s
}

fn act(s: &mut State, seat: u8, notation: &str) -> Result<Vec<Logged<Event>>, String> {
    let a: Action = notation.parse().map_err(|e| format!("{e}"))?;
    let mut events = Vec::new();
    let mut rng = GameRng::from_u64(0);
    driver::submit::<Lancaster>(s, Seat(seat), &a, &mut rng, &mut events)
        .map_err(|e| e.to_string())?;
    check::check(s)?;
    Ok(events)
}

/// Puts `faction`'s strength-`strength` knight (the first one in reserve) into its court.
fn to_court(s: &mut State, faction: u8, strength: u8) {
    let f = s.faction_mut(faction).unwrap();
    let i = (0..7u8)
        .find(|i| {
            f.loc(*i) == Loc::Reserve
                && ids::Piece {
                    ally: false,
                    idx: *i,
                }
                .strength()
                    == strength
        })
        .unwrap();
    f.set_loc(i, Loc::Court);
}

fn refused_with(s: &mut State, seat: u8, notation: &str, rule: &str) {
    let before = s.clone();
    let e = act(s, seat, notation).unwrap_err();
    assert!(e.contains(rule), "{notation}: {e}");
    assert_eq!(*s, before, "a refused action changed the state");
}

#[test]
fn a_knight_below_the_county_minimum_is_refused_even_with_squires() {
    // LAN-CTY-1: Gloucester (D) needs strength 3; squires do not count.
    let mut s = placing(3);
    refused_with(&mut s, 0, "P:2@D+2", "LAN-CTY-1");
    to_court(&mut s, 0, 3);
    act(&mut s, 0, "P:3@D").unwrap();
}

#[test]
fn the_stafford_example_a_weaker_knight_with_squires_expels_and_the_squires_are_lost() {
    // LAN-CTY-2/3 and S1's example: blue's strength-2 knight holds Stafford (H); red places a
    // strength-1 knight with 2 squires (3 > 2) and expels it back to blue's court.
    let mut s = placing(3);
    act(&mut s, 0, "P:2@H").unwrap();
    let events = act(&mut s, 1, "P:1@H+2").unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e.event, Event::Expelled { faction: 0, .. }))
    );
    assert_eq!(s.county(CountyId(7)).unwrap().faction, 1);
    assert_eq!(s.faction(1).unwrap().squires, 0);
    assert_eq!(s.faction(0).unwrap().pieces_at(Loc::Court).count(), 2);
    // An equal total does not expel (strictly stronger), and only in the same turn.
    refused_with(&mut s, 2, "P:2@H+1", "LAN-CTY-3");
    // Expelling the new occupant (1 + 2 squires = 3) needs 4: blue's 2 with 2 squires.
    act(&mut s, 2, "P:2@A").unwrap();
    act(&mut s, 0, "P:2@H+2").unwrap();
    assert_eq!(
        s.faction(1).unwrap().squires,
        0,
        "red's squires went to the supply"
    );
}

#[test]
fn a_player_never_expels_their_own_knight() {
    let mut s = placing(3);
    act(&mut s, 0, "P:1@A").unwrap();
    act(&mut s, 1, "P:1@B").unwrap_err();
    act(&mut s, 1, "P:1@C").unwrap();
    act(&mut s, 2, "P:1@F").unwrap_err();
    act(&mut s, 2, "P:2@F").unwrap();
    refused_with(&mut s, 0, "P:2@A", "LAN-CTY-4");
}

#[test]
fn squires_are_refused_outside_counties_and_castle_spaces_hold_one_knight() {
    let mut s = placing(3);
    refused_with(&mut s, 0, "P:1@K2+1", "LAN-CTY-5");
    refused_with(&mut s, 0, "P:1@X01+1", "LAN-CTY-5");
    // K1 is covered by the starting extension (LAN-CAS-2).
    refused_with(&mut s, 0, "P:1@K1", "LAN-CAS-1");
    act(&mut s, 0, "P:1@K2").unwrap();
    act(&mut s, 1, "P:1@K2").unwrap();
    act(&mut s, 2, "P:1@K3").unwrap();
    refused_with(&mut s, 0, "P:2@K2", "LAN-CAS-1");
    refused_with(&mut s, 0, "P:2@AK1", "LAN-CAS-3");
}

#[test]
fn conflicts_take_one_space_per_player_and_stack_further_knights() {
    // LAN-CNF-1/2, LAN-FAV-1/2.
    let mut s = placing(4);
    let card = s.top_row[0].card;
    for seat in 0..3u8 {
        act(&mut s, seat, &format!("P:1@{card}")).unwrap();
        // Each of the first six conflict knights earns a favour, picked at once.
        assert_eq!(Lancaster::pending(&s), SeatSet::only(Seat(seat)));
        act(&mut s, seat, &format!("F:F{}", seat + 3)).unwrap();
    }
    refused_with(&mut s, 3, &format!("P:1@{card}"), "LAN-CNF-1");
    act(&mut s, 3, "P:1@A").unwrap();
    act(&mut s, 0, &format!("P:2@{card}")).unwrap();
    let c = s.conflict(card).unwrap();
    assert_eq!(c.spaces.len(), 3);
    assert_eq!(
        c.spaces[0].pieces.len(),
        2,
        "seat 0 stacked its second knight"
    );
    // A face-down favour tile cannot be picked again this round.
    refused_with(&mut s, 0, "F:F3", "LAN-FAV-1");
    // F1: a noble of any letter, chosen at once (LAN-EFF-5).
    act(&mut s, 0, "F:F1").unwrap();
    act(&mut s, 0, "N:C").unwrap();
    assert_eq!(s.faction(0).unwrap().nobles, vec![CountyId(2)]);
}

#[test]
fn only_the_first_six_conflict_knights_of_a_round_earn_a_favour() {
    let mut s = placing(3);
    for f in 0..3u8 {
        for st in [1, 2, 3, 4] {
            to_court(&mut s, f, st);
        }
    }
    let cards: Vec<CardId> = s.top_row.iter().map(|c| c.card).collect();
    let mut favours = 0;
    for i in 0..7u8 {
        let seat = i % 3;
        let card = cards[usize::from(i / 3 % 2)];
        let strength = 1 + i / 3;
        act(&mut s, seat, &format!("P:{strength}@{card}")).unwrap();
        if !s.frames.is_empty() {
            favours += 1;
            let tile = Lancaster::legal_actions(&s, Seat(seat))
                .into_iter()
                .find(|a| matches!(a, Action::Favour { .. }))
                .unwrap();
            let mut ev = Vec::new();
            driver::submit::<Lancaster>(
                &mut s,
                Seat(seat),
                &tile,
                &mut GameRng::from_u64(0),
                &mut ev,
            )
            .unwrap();
            while let Some(top) = s.frames.last().copied() {
                let who = s.frame_seat(&top);
                let a = Lancaster::legal_actions(&s, who).remove(0);
                driver::submit::<Lancaster>(&mut s, who, &a, &mut GameRng::from_u64(0), &mut ev)
                    .unwrap();
            }
        }
    }
    assert_eq!(favours, 6);
    assert_eq!(s.favours_taken.len(), 6);
}

/// A game at the first vote of round 1 (placement skipped: all knights back in reserve).
fn voting(players: u8) -> State {
    let mut s = placing(players);
    for f in s.factions.iter_mut() {
        for l in f.knights.iter_mut() {
            *l = Loc::Reserve;
        }
    }
    s.ballots = vec![None; usize::from(players)];
    s.step = Step::Vote { k: 0 };
    s
}

#[test]
fn every_voter_is_pending_at_once_and_ballots_stay_sealed_until_the_last_is_in() {
    // LAN-PAR-2, spec §15: D3 is simultaneous and secret.
    let mut s = voting(3);
    s.faction_mut(1).unwrap().voting_markers = 3;
    assert_eq!(Lancaster::pending(&s), SeatSet::first(3));
    let events = act(&mut s, 1, "V:N+2").unwrap();
    for e in &events {
        let text = serde_json::to_string(&e.event).unwrap();
        if text.contains("\"yes\"") {
            assert!(!e.audience.admits(Viewer::Seat(Seat(0))));
            assert!(!e.audience.admits(Viewer::Spectator));
            assert!(e.audience.admits(Viewer::Seat(Seat(1))));
        }
    }
    assert_eq!(Lancaster::pending(&s), SeatSet::first(3).without(Seat(1)));
    for viewer in [
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(2)),
        Viewer::Spectator,
    ] {
        let v = serde_json::to_string(&Lancaster::view(&s, viewer)).unwrap();
        assert!(!v.contains("my_ballot"), "{v}");
        // The marker pile does not move before the reveal.
        let vm = Lancaster::view(&s, viewer).factions[1].voting_markers;
        assert_eq!(vm, 3);
    }
    assert!(
        Lancaster::view(&s, Viewer::Seat(Seat(1)))
            .my_ballot
            .is_some()
    );
    // No second ballot.
    refused_with(&mut s, 1, "V:Y", "not seat 1's turn");
    act(&mut s, 0, "V:Y").unwrap();
    let events = act(&mut s, 2, "V:Y").unwrap();
    let revealed = events
        .iter()
        .find_map(|e| match &e.event {
            Event::VoteRevealed {
                yes, no, passed, ..
            } => Some((*yes, *no, *passed)),
            _ => None,
        })
        .unwrap();
    // 2 yes tiles against 1 no tile plus 2 markers: 2 against 3, rejected.
    assert_eq!(revealed, (2, 3, false));
    assert_eq!(
        s.faction(1).unwrap().voting_markers,
        1,
        "committed markers are spent"
    );
    assert_eq!(s.step, Step::Vote { k: 1 });
}

#[test]
fn a_tied_vote_passes_its_law_which_replaces_the_leftmost_current_law() {
    // LAN-PAR-3 (ties pass) and LAN-PAR-5, with four players voting 2 against 2.
    let mut s = voting(4);
    let proposal = s.proposed_laws[0].unwrap();
    let leftmost = s.current_laws[0];
    let (second, third) = (s.current_laws[1], s.current_laws[2]);
    act(&mut s, 0, "V:Y").unwrap();
    act(&mut s, 1, "V:N").unwrap();
    act(&mut s, 2, "V:Y").unwrap();
    act(&mut s, 3, "V:N").unwrap();
    assert_eq!(s.current_laws, vec![second, third, proposal]);
    assert!(s.law_discard.contains(&leftmost));
}

#[test]
fn a_late_voter_abstains_so_a_law_tied_without_it_still_passes() {
    // design.md §14: the default harms only the late seat. With A yes and B no the law passes
    // 1–1 (LAN-PAR-3); the late C's default must not turn that into 1–2.
    let mut s = voting(3);
    let proposal = s.proposed_laws[0].unwrap();
    act(&mut s, 0, "V:Y").unwrap();
    act(&mut s, 1, "V:N").unwrap();
    let crate::engine::Timeout::Play(default) = Lancaster::timeout(&s, Seat(2)) else {
        panic!("no default");
    };
    assert_eq!(default.to_string(), "V:-");
    // Not a choice the rules list, and it commits no markers.
    assert!(!Lancaster::legal_actions(&s, Seat(2)).contains(&default));
    s.faction_mut(2).unwrap().voting_markers = 1;
    refused_with(&mut s, 2, "V:-+1", "LAN-PAR-2");
    let events = act(&mut s, 2, &default.to_string()).unwrap();
    // Sealed like any ballot: the others learn only that C has voted, until the reveal.
    for e in &events {
        if let Event::BallotSealed { ballot } = &e.event {
            assert_eq!(ballot.yes, None);
            assert!(!e.audience.admits(Viewer::Seat(Seat(0))));
            assert!(!e.audience.admits(Viewer::Spectator));
        }
    }
    let revealed = events
        .iter()
        .find_map(|e| match &e.event {
            Event::VoteRevealed {
                ballots,
                yes,
                no,
                passed,
                ..
            } => Some((ballots.clone(), *yes, *no, *passed)),
            _ => None,
        })
        .unwrap();
    assert_eq!((revealed.1, revealed.2, revealed.3), (1, 1, true));
    assert_eq!(revealed.0[2].yes, None, "the reveal says C abstained");
    assert!(s.current_laws.contains(&proposal));
    assert_eq!(s.faction(2).unwrap().voting_markers, 1, "no marker spent");
}

#[test]
fn an_abstention_is_sealed_in_the_views_like_any_ballot() {
    let mut s = voting(3);
    act(&mut s, 2, "V:-").unwrap();
    for viewer in [Viewer::Seat(Seat(0)), Viewer::Spectator] {
        let v = serde_json::to_string(&Lancaster::view(&s, viewer)).unwrap();
        assert!(!v.contains("my_ballot"), "{v}");
    }
    let mine = Lancaster::view(&s, Viewer::Seat(Seat(2)))
        .my_ballot
        .unwrap();
    assert_eq!(mine.yes, None);
    assert_eq!(Lancaster::pending(&s), SeatSet::first(2));
}

#[test]
fn leftover_voting_markers_return_to_the_supply_after_the_third_vote() {
    // LAN-PAR-6
    let mut s = voting(3);
    for f in 0..3 {
        s.faction_mut(f).unwrap().voting_markers = 2;
    }
    for _ in 0..3 {
        for seat in 0..3 {
            act(&mut s, seat, "V:Y").unwrap();
        }
    }
    assert!(s.factions.iter().all(|f| f.voting_markers <= 2));
    assert!(!matches!(s.step, Step::Vote { .. }));
}

/// A state at the conflict step with only `conflict` on the board (top row unless `bottom`).
fn at_conflicts(players: u8, conflict: Conflict, bottom: bool) -> State {
    let mut s = voting(players);
    s.conflict_deck.extend(s.top_row.drain(..).map(|c| c.card));
    s.conflict_deck.retain(|c| *c != conflict.card);
    for st in &conflict.spaces {
        for p in &st.pieces {
            s.faction_mut(st.faction)
                .unwrap()
                .set_loc(*p, Loc::Conflict(conflict.card));
        }
    }
    if bottom {
        s.bottom_row.push(conflict);
    } else {
        s.top_row.push(conflict);
    }
    for p in s.proposed_laws.drain(..).flatten() {
        s.law_discard.push(p);
    }
    s.step = Step::Conflicts { top: false };
    check::check(&s).unwrap();
    s
}

fn stack(faction: u8, pieces: &[u8]) -> Stack {
    Stack {
        faction,
        pieces: pieces.to_vec(),
    }
}

fn resolve(s: &mut State) -> Vec<Logged<Event>> {
    let mut events = Vec::new();
    rules::advance(s, &mut GameRng::from_u64(0), &mut events);
    events
}

// Piece indices: 0-2 strength 1, 3-4 strength 2, 5 strength 3, 6 strength 4.

#[test]
fn the_conflict_example_england_wins_and_a_tie_ranks_the_later_knight_higher() {
    // LAN-RWF-2..4 with the France 5 card (PP 4/2/1): seat 0 (top space) and seat 1 (below)
    // both have strength 2, seat 2 has 1: total 5 reaches France's 5.
    let card: CardId = "X03".parse().unwrap();
    let mut s = at_conflicts(
        3,
        Conflict {
            card,
            spaces: vec![stack(0, &[3]), stack(1, &[0, 1]), stack(2, &[0])],
        },
        false,
    );
    resolve(&mut s);
    let pp: Vec<u32> = s.factions.iter().map(|f| f.pp).collect();
    assert_eq!(pp, vec![2, 4, 1]);
    assert!(s.conflict_discard.contains(&card));
    assert_eq!(s.faction(1).unwrap().loc(0), Loc::Court);
}

#[test]
fn a_lost_first_attempt_pays_the_second_and_third_values_and_moves_the_card_down() {
    // LAN-RWF-5: France 5 against 2 + 2; the later knight ranks first and gets pp2 = 2.
    let card: CardId = "X03".parse().unwrap();
    let mut s = at_conflicts(
        3,
        Conflict {
            card,
            spaces: vec![stack(0, &[3]), stack(1, &[4])],
        },
        false,
    );
    resolve(&mut s);
    let pp: Vec<u32> = s.factions.iter().map(|f| f.pp).collect();
    assert_eq!(pp, vec![1, 2, 0]);
    let moved = s.bottom_row.iter().find(|c| c.card == card).unwrap();
    assert_eq!(moved.spaces.len(), 2, "the knights stay in their spaces");
    assert_eq!(s.faction(0).unwrap().loc(3), Loc::Conflict(card));
    assert_eq!(s.round, 2);
}

/// Three players at X03's second attempt: seat 0's knights of strength 3 and 0 against seat 1's
/// of strength 1, seat 1 to start; resolving it captures the knights, whose owners may ransom
/// them.
fn second_defeat_of_x03() -> (State, CardId) {
    let card: CardId = "X03".parse().unwrap();
    let mut s = at_conflicts(
        3,
        Conflict {
            card,
            spaces: vec![stack(0, &[3, 0]), stack(1, &[1])],
        },
        true,
    );
    s.start_player = Seat(1);
    (s, card)
}

#[test]
fn a_second_defeat_captures_the_knights_and_owners_may_ransom_them() {
    // LAN-RWF-7: ransom costs the knight's strength in gold; the rest go to the reserve.
    let (mut s, card) = second_defeat_of_x03();
    s.faction_mut(0).unwrap().gold = 2;
    resolve(&mut s);
    // Seat 0 ranked first (3 > 1): pp2 = 2; seat 1 pp3 = 1. Every owner is asked at once
    // (D7a: the choices are independent).
    assert_eq!(s.faction(0).unwrap().pp, 2);
    assert_eq!(s.faction(1).unwrap().pp, 1);
    assert_eq!(Lancaster::pending(&s), SeatSet::first(2));
    refused_with(&mut s, 0, "R:1c", "LAN-RWF-7");
    act(&mut s, 0, "R:2a").unwrap();
    assert_eq!(Lancaster::pending(&s), SeatSet::first(2));
    act(&mut s, 1, "R:-").unwrap();
    assert_eq!(s.faction(1).unwrap().loc(1), Loc::Reserve);
    assert_eq!(Lancaster::pending(&s), SeatSet::only(Seat(0)));
    assert_eq!(s.faction(0).unwrap().gold, 0);
    assert_eq!(s.faction(0).unwrap().loc(3), Loc::Court);
    // Out of gold: only stopping is left.
    assert_eq!(
        Lancaster::legal_actions(&s, Seat(0)),
        vec!["R:-".parse().unwrap()]
    );
    act(&mut s, 0, "R:-").unwrap();
    assert_eq!(s.faction(0).unwrap().loc(0), Loc::Reserve);
    assert!(s.conflict_discard.contains(&card));
}

#[test]
fn an_empty_top_row_conflict_is_lost_and_moves_down_empty() {
    let card: CardId = "X01".parse().unwrap();
    let mut s = at_conflicts(
        3,
        Conflict {
            card,
            spaces: vec![],
        },
        false,
    );
    resolve(&mut s);
    assert!(
        s.bottom_row
            .iter()
            .any(|c| c.card == card && c.spaces.is_empty())
    );
}

/// A state at the county step with `faction`'s piece `piece` in each of `counties`.
fn at_counties(players: u8, occupants: &[(u8, u8, u8)]) -> State {
    let mut s = voting(players);
    for p in s.proposed_laws.drain(..).flatten() {
        s.law_discard.push(p);
    }
    for &(county, faction, piece) in occupants {
        s.counties[usize::from(county)] = Some(state::CountySlot {
            faction,
            piece,
            squires: 0,
        });
        s.faction_mut(faction)
            .unwrap()
            .set_loc(piece, Loc::County(CountyId(county)));
    }
    s.step = Step::Counties { next: 0 };
    resolve(&mut s);
    check::check(&s).unwrap();
    s
}

#[test]
fn a_county_offers_noble_reward_or_both_for_three_gold() {
    // LAN-RWC-2: county A (2 squires). Seat 0 has 2 gold: no "both" yet.
    let mut s = at_counties(3, &[(0, 0, 0), (1, 1, 3)]);
    assert_eq!(Lancaster::pending(&s), SeatSet::only(Seat(0)));
    let takes: Vec<String> = Lancaster::legal_actions(&s, Seat(0))
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(takes, ["C:N", "C:R"]);
    refused_with(&mut s, 0, "C:B", "LAN-RWC-2");
    act(&mut s, 0, "C:R").unwrap();
    assert_eq!(s.faction(0).unwrap().squires, 4);
    assert_eq!(s.faction(0).unwrap().loc(0), Loc::Court, "LAN-RWC-3");
    // County B: seat 1 with 3 gold pays for both.
    s.faction_mut(1).unwrap().gold = 3;
    act(&mut s, 1, "C:B").unwrap();
    let f = s.faction(1).unwrap();
    assert_eq!((f.gold, f.nobles.clone()), (2, vec![CountyId(1)]));
}

#[test]
fn a_player_holds_at_most_one_noble_of_each_letter() {
    // LAN-EFF-5, LAN-RWC-2 [E]: with the letter held, only the reward remains.
    let mut s = at_counties(3, &[(0, 0, 0)]);
    s.faction_mut(0).unwrap().nobles.push(CountyId(0));
    s.nobles[0] -= 1;
    assert_eq!(
        Lancaster::legal_actions(&s, Seat(0)),
        vec!["C:R".parse::<Action>().unwrap()]
    );
}

#[test]
fn surrey_chooses_the_next_start_player_after_its_reward() {
    // LAN-RWC-4
    let mut s = at_counties(3, &[(8, 2, 3)]);
    act(&mut s, 2, "C:R").unwrap();
    assert_eq!(Lancaster::pending(&s), SeatSet::only(Seat(2)));
    act(&mut s, 2, "S:1").unwrap();
    assert_eq!(s.start_player, Seat(1), "at once (LAN-ENG-5)");
    assert_eq!(s.next_start_player, Some(Seat(1)), "and for the next round");
}

#[test]
fn stafford_upgrades_a_knight_which_keeps_its_place() {
    // LAN-EFF-3: the strength-2 knight on a conflict becomes the strength-3 knight there.
    let card = "X03".parse::<CardId>().unwrap();
    let mut s = at_counties(3, &[(7, 0, 0)]);
    s.conflict_deck.retain(|c| *c != card);
    let old: Vec<CardId> = s.top_row.drain(..).map(|c| c.card).collect();
    s.conflict_deck.extend(old);
    s.top_row.push(Conflict {
        card,
        spaces: vec![stack(0, &[3])],
    });
    s.faction_mut(0).unwrap().set_loc(3, Loc::Conflict(card));
    act(&mut s, 0, "C:R").unwrap();
    assert!(
        Lancaster::legal_actions(&s, Seat(0)).contains(&"U:2a".parse().unwrap()),
        "{:?}",
        Lancaster::legal_actions(&s, Seat(0))
    );
    act(&mut s, 0, "U:2a").unwrap();
    assert_eq!(s.faction(0).unwrap().loc(5), Loc::Conflict(card));
    assert_eq!(s.faction(0).unwrap().loc(3), Loc::Reserve);
    assert_eq!(s.conflict(card).unwrap().spaces[0].pieces, vec![5]);
}

#[test]
fn the_castle_step_is_simultaneous_and_pays_the_round_table() {
    // LAN-RWK-1..4: everyone resolves at once; then 1 marker per noble plus 1 for the lord.
    let mut s = at_counties(3, &[]);
    assert_eq!(s.step, Step::Castles);
    assert_eq!(Lancaster::pending(&s), SeatSet::first(3));
    s.faction_mut(1).unwrap().nobles.push(CountyId(4));
    s.nobles[4] -= 1;
    let before = s.faction(1).unwrap().squires;
    act(&mut s, 1, "K:K1").unwrap();
    let f = s.faction(1).unwrap();
    assert_eq!(f.squires, before + 2);
    assert_eq!(
        f.voting_markers,
        1 + 1 + 1,
        "start marker, lord and one noble"
    );
    assert_eq!(Lancaster::pending(&s), SeatSet::first(3).without(Seat(1)));
    refused_with(&mut s, 0, "K:K2", "LAN-RWK-1");
}

/// A three-player castle step (everyone holds the K1 extension) in which `seats` also hold a
/// strength-2 knight on K3 and the 2 squires it costs: taking K3 asks for an upgrade target.
fn castles_with_k3(seats: &[u8]) -> State {
    let mut s = at_counties(3, &[]);
    assert_eq!(s.step, Step::Castles);
    let k3: ids::Space = "K3".parse().unwrap();
    for &seat in seats {
        let f = s.faction_mut(seat).unwrap();
        f.set_loc(3, Loc::Castle(k3));
        f.squires = 2;
    }
    check::check(&s).unwrap();
    s
}

#[test]
fn lan_rwk_4_castle_step_stays_simultaneous_while_one_seat_answers_an_upgrade() {
    // D6 (LAN-RWK-4): castles do not affect each other, so seat 0's upgrade target (K3) is its
    // own decision; the others stay pending, keep their clocks and resolve meanwhile.
    let mut s = castles_with_k3(&[0, 2]);
    assert_eq!(Lancaster::pending(&s), SeatSet::first(3));
    act(&mut s, 0, "K:K3").unwrap();
    assert_eq!(
        Lancaster::pending(&s),
        SeatSet::first(3),
        "nobody leaves the pending set while seat 0 picks its upgrade"
    );
    assert_eq!(listed(&s, 0), ["U:-", "U:2a"]);
    assert_eq!(listed(&s, 1), ["K:K1", "K:K1-"]);
    assert_eq!(listed(&s, 2), ["K:K1", "K:K1-", "K:K3", "K:K3-"]);
    // Seat 1 resolves its castle while seat 0's upgrade is open, and is done with it.
    act(&mut s, 1, "K:K1").unwrap();
    assert!(s.faction(1).unwrap().castle_done);
    assert_eq!(Lancaster::pending(&s), SeatSet::first(3).without(Seat(1)));
    // Seat 2 takes K3 too: its upgrade is its own, stacked above seat 0's.
    act(&mut s, 2, "K:K3").unwrap();
    assert_eq!(listed(&s, 2), ["U:-", "U:2a"]);
    assert_eq!(listed(&s, 0), ["U:-", "U:2a"]);
    // Seat 0 answers first although seat 2's decision is on top; its knight 3 (strength 2)
    // becomes knight 5 (strength 3), seat 2's knights stay as they are.
    act(&mut s, 0, "U:2a").unwrap();
    assert_eq!(s.faction(0).unwrap().loc(5), Loc::Court);
    assert_eq!(s.faction(2).unwrap().loc(3), Loc::Court);
    assert_eq!(s.faction(2).unwrap().loc(5), Loc::Reserve);
    assert_eq!(Lancaster::pending(&s), SeatSet::first(3).without(Seat(1)));
    act(&mut s, 2, "U:-").unwrap();
    act(&mut s, 2, "K:K1-").unwrap();
    assert_eq!(Lancaster::pending(&s), SeatSet::only(Seat(0)));
    act(&mut s, 0, "K:K1").unwrap();
    assert!(!matches!(s.step, Step::Castles), "{:?}", s.step);
}

#[test]
fn lan_rwk_4_a_seat_answers_its_own_castle_follow_up_before_resolving_more() {
    // D6: the follow-up belongs to the seat whose K3 asked it. That seat finishes it before its
    // next castle space; the others cannot answer it, and refused actions change nothing.
    let mut s = castles_with_k3(&[0]);
    act(&mut s, 0, "K:K3").unwrap();
    refused_with(&mut s, 0, "K:K1", "LAN-EFF-3");
    refused_with(&mut s, 1, "U:2a", "LAN-GEN-3");
    refused_with(&mut s, 2, "U:-", "LAN-GEN-3");
    // A late seat's default (design.md section 14) is its own decision's: seat 0 declines the
    // upgrade, seat 1 resolves its castle without the optional cost.
    for (seat, want) in [(0, "U:-"), (1, "K:K1-"), (2, "K:K1-")] {
        let crate::engine::Timeout::Play(default) = Lancaster::timeout(&s, Seat(seat)) else {
            panic!("seat {seat} has no default");
        };
        assert_eq!(default.to_string(), want, "seat {seat}");
    }
    act(&mut s, 1, "K:K1-").unwrap();
    act(&mut s, 0, "U:-").unwrap();
    assert_eq!(listed(&s, 0), ["K:K1", "K:K1-"]);
    assert_eq!(Lancaster::pending(&s), SeatSet::first(3).without(Seat(1)));
}

#[test]
fn lan_rwk_4_an_ally_upgrade_in_the_two_player_castle_step_leaves_the_other_seat_pending() {
    // LAN-2P, D6: AK2 upgrades an ally's knight; its controller's decision does not hold up the
    // other player's castle.
    let mut s = at_counties(2, &[]);
    let ak2: ids::Space = "AK2".parse().unwrap();
    s.faction_mut(2).unwrap().set_loc(3, Loc::Castle(ak2));
    check::check(&s).unwrap();
    assert_eq!(Lancaster::pending(&s), SeatSet::first(2));
    act(&mut s, 0, "K:AK2").unwrap();
    assert_eq!(Lancaster::pending(&s), SeatSet::first(2));
    assert!(listed(&s, 0).iter().all(|a| a.starts_with("U:")));
    act(&mut s, 1, "K:K1").unwrap();
    assert!(s.faction(1).unwrap().castle_done);
    act(&mut s, 0, "U:-").unwrap();
    assert_eq!(listed(&s, 0), ["K:K1", "K:K1-"]);
}

#[test]
fn lan_gen_5_each_seat_sees_its_own_castle_follow_up_and_nobody_elses() {
    // LAN-GEN-5, D6: the view's decision is the viewer's own; a seat still resolving its castle
    // and a spectator see none (who decides is public in `pending`).
    let mut s = castles_with_k3(&[0, 2]);
    act(&mut s, 0, "K:K3").unwrap();
    act(&mut s, 2, "K:K3").unwrap();
    let decision = |s: &State, viewer| Lancaster::view(s, viewer).decision;
    let upgrade = |faction| {
        Some(state::Frame::Upgrade {
            faction,
            deployed_only: false,
            only_strength: None,
        })
    };
    assert_eq!(decision(&s, Viewer::Seat(Seat(0))), upgrade(0));
    assert_eq!(decision(&s, Viewer::Seat(Seat(2))), upgrade(2));
    assert_eq!(decision(&s, Viewer::Seat(Seat(1))), None);
    assert_eq!(decision(&s, Viewer::Spectator), None);
}

#[test]
fn lan_gen_5_in_a_ransom_block_each_owner_sees_its_own_decision() {
    // D7a, LAN-GEN-5: ransoms are asked at once; each owner's view names its own ransom, not
    // the one that happens to be on top of the stack.
    let (mut s, _) = second_defeat_of_x03();
    resolve(&mut s);
    assert_eq!(Lancaster::pending(&s), SeatSet::first(2));
    let decision = |viewer| Lancaster::view(&s, viewer).decision;
    assert_eq!(
        decision(Viewer::Seat(Seat(0))),
        Some(state::Frame::Ransom { faction: 0 })
    );
    assert_eq!(
        decision(Viewer::Seat(Seat(1))),
        Some(state::Frame::Ransom { faction: 1 })
    );
    assert_eq!(decision(Viewer::Seat(Seat(2))), None);
    assert_eq!(decision(Viewer::Spectator), None);
}

#[test]
fn a_castle_follow_up_stored_one_at_a_time_still_loads_and_plays() {
    // Games stored before the castle step's parallel block have no `parallel_from` while a
    // K3 upgrade is asked: they load as stored (only that seat pending) and play on.
    let mut s = castles_with_k3(&[0]);
    act(&mut s, 0, "K:K3").unwrap();
    let mut old = serde_json::to_value(&s).unwrap();
    old.as_object_mut().unwrap().remove("parallel_from");
    let mut back: State = serde_json::from_value(old).unwrap();
    assert_eq!(back.parallel_from, None);
    assert_eq!(Lancaster::pending(&back), SeatSet::only(Seat(0)));
    act(&mut back, 0, "U:-").unwrap();
    assert_eq!(Lancaster::pending(&back), SeatSet::first(3));
    act(&mut back, 1, "K:K1").unwrap();
    assert_eq!(
        Lancaster::pending(&back),
        SeatSet::first(3).without(Seat(1))
    );
}

/// Three players at the first vote with L16 (gold for PP) as the first current law.
fn with_l16_in_force(sim: bool) -> State {
    let mut s = voting(3);
    s.rules.sim_law_choices = sim;
    let l16: ids::LawId = "L16".parse().unwrap();
    // Put L16 into force in place of the first current law.
    let pos = s.law_deck.iter().position(|l| *l == l16);
    match pos {
        Some(i) => {
            s.law_deck[i] = s.current_laws[0];
            s.current_laws[0] = l16;
        }
        None => {
            let i = s.current_laws.iter().position(|l| *l == l16);
            if i.is_none() {
                let j = s
                    .proposed_laws
                    .iter()
                    .position(|l| *l == Some(l16))
                    .unwrap();
                s.proposed_laws[j] = Some(s.current_laws[0]);
                s.current_laws[0] = l16;
            }
        }
    }
    s.start_player = Seat(2);
    for _ in 0..3 {
        for seat in 0..3 {
            act(&mut s, seat, "V:N").unwrap();
        }
    }
    // 3 no against 0 yes rejects every proposal, so L16 stays in force.
    assert!(s.current_laws.contains(&l16));
    s
}

#[test]
fn a_law_exchange_is_asked_in_player_order() {
    // LAN-LAW-3
    let mut s = with_l16_in_force(false);
    let first = Lancaster::pending(&s);
    assert_eq!(first, SeatSet::only(Seat(2)));
    act(&mut s, 2, "E:2").unwrap();
    assert_eq!(s.faction(2).unwrap().pp, 2);
    assert_eq!(s.faction(2).unwrap().gold, 0);
    refused_with(&mut s, 0, "E:3", "LAN-LAW-3");
}

#[test]
fn behind_screens_every_player_is_asked_for_an_exchange_law_even_one_who_cannot_pay() {
    // LAN-LAW-3 with hidden gold (3–5 players): the pending seat is public, so skipping the
    // player without gold would show the table their screened gold is 0. L16: 1 gold for 1 PP.
    let mut s = laws_in_force(["L16", "L03", "L12"]);
    s.start_player = Seat(0);
    s.faction_mut(0).unwrap().gold = 0;
    s.faction_mut(1).unwrap().gold = 2;
    let events = resolve(&mut s);
    assert_eq!(Lancaster::pending(&s), SeatSet::only(Seat(0)));
    assert_eq!(
        Lancaster::legal_actions(&s, Seat(0)),
        vec!["E:0".parse::<Action>().unwrap()],
        "only \"no exchange\""
    );
    let mut seen = serde_json::to_string(&Lancaster::view(&s, Viewer::Seat(Seat(1)))).unwrap();
    seen.push_str(&serde_json::to_string(&Lancaster::view(&s, Viewer::Spectator)).unwrap());
    for e in &events {
        assert!(
            !matches!(e.event, Event::Gained { .. } | Event::Paid { .. }),
            "{:?}",
            e.event
        );
    }
    assert!(!seen.contains("\"gold\":0"), "{seen}");
    let events = act(&mut s, 0, "E:0").unwrap();
    // What others see of the pass is what they would see of anyone's E:0.
    assert!(
        events
            .iter()
            .all(|e| matches!(e.event, Event::Exchanged { times: 0, .. })),
        "{events:?}"
    );
    assert_eq!(Lancaster::pending(&s), SeatSet::only(Seat(1)));
}

#[test]
fn with_two_players_nothing_is_screened_so_a_player_who_cannot_exchange_is_skipped() {
    // LAN-2P: gold is open, so asking the player without gold would only waste a turn.
    let mut s = voting(2);
    let l16: ids::LawId = "L16".parse().unwrap();
    let mut pool: Vec<ids::LawId> = s.law_deck.drain(..).collect();
    pool.append(&mut s.current_laws);
    pool.extend(s.proposed_laws.drain(..).flatten());
    pool.retain(|l| *l != l16);
    s.current_laws = vec![l16];
    s.law_discard.extend(pool);
    s.step = Step::Laws {
        law: 0,
        player: 0,
        majority: SeatSet::EMPTY,
    };
    s.start_player = Seat(0);
    s.faction_mut(0).unwrap().gold = 0;
    s.faction_mut(1).unwrap().gold = 2;
    resolve(&mut s);
    assert_eq!(Lancaster::pending(&s), SeatSet::only(Seat(1)));
}

#[test]
fn in_the_two_player_game_each_player_also_places_an_ally_without_squires() {
    // LAN-2P-1..5
    let mut s = placing(2);
    assert_eq!(s.factions.len(), 4);
    let ally = s.faction(2).unwrap();
    assert!(ally.ally && ally.seat == Seat(0));
    assert_eq!(ally.pieces_at(Loc::Court).count(), 1);
    refused_with(&mut s, 0, "P:a2@B+1", "LAN-2P-4");
    refused_with(&mut s, 0, "P:a1@A", "LAN-PLC-1");
    act(&mut s, 0, "P:a2@B").unwrap();
    // Seat 0 may not expel its own ally; seat 1 may expel it.
    to_court(&mut s, 0, 3);
    act(&mut s, 1, "P:1@A").unwrap();
    refused_with(&mut s, 0, "P:3@B", "LAN-2P-5");
    to_court(&mut s, 1, 3);
    act(&mut s, 0, "P:1@C").unwrap();
    act(&mut s, 1, "P:3@B").unwrap();
    assert_eq!(s.faction(2).unwrap().pieces_at(Loc::Court).count(), 1);
    // The ally's castle has its own two spaces.
    act(&mut s, 0, "P:a2@AK2").unwrap();
    assert_eq!(
        s.faction(2).unwrap().loc(3),
        Loc::Castle("AK2".parse().unwrap())
    );
}

#[test]
fn allies_do_not_vote_and_gain_no_gold_or_squires() {
    // LAN-2P-7, LAN-2P-8
    let mut s = voting(2);
    assert_eq!(Lancaster::pending(&s), SeatSet::first(2));
    let mut events = Vec::new();
    rules::apply_effect_for_test(
        &mut s,
        2,
        &data::data().favours[2].effect,
        &mut GameRng::from_u64(0),
        &mut events,
    );
    let a = s.faction(2).unwrap();
    assert_eq!((a.gold, a.squires), (0, 0));
}

#[test]
fn an_ally_noble_removes_the_tile_from_the_game() {
    // LAN-2P-10: only recruit, upgrade, noble (removed) and passage serve an ally.
    let mut s = at_counties(2, &[(0, 2, 3)]);
    assert_eq!(Lancaster::pending(&s), SeatSet::only(Seat(0)));
    let takes: Vec<String> = Lancaster::legal_actions(&s, Seat(0))
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(takes, ["C:N", "C:R"]);
    act(&mut s, 0, "C:N").unwrap();
    assert_eq!(s.nobles_removed[0], 1);
    assert!(s.faction(0).unwrap().nobles.is_empty());
}

#[test]
fn screens_hide_other_players_gold_and_squires_except_with_two_players() {
    // LAN-GEN-5, LAN-2P-2
    let s = placing(3);
    let v = Lancaster::view(&s, Viewer::Seat(Seat(1)));
    assert!(v.factions[0].gold.is_none() && v.factions[0].squires.is_none());
    assert_eq!(v.factions[1].gold, Some(2));
    let spectator = serde_json::to_string(&Lancaster::view(&s, Viewer::Spectator)).unwrap();
    assert!(!spectator.contains("\"gold\""));
    let two = placing(2);
    let v = Lancaster::view(&two, Viewer::Seat(Seat(1)));
    assert_eq!(v.factions[0].gold, Some(2));
    // Deck orders are never shown; the top law group is.
    let text = serde_json::to_string(&Lancaster::view(&s, Viewer::Seat(Seat(0)))).unwrap();
    for l in &s.law_deck {
        assert!(!text.contains(&format!("\"{l}\"")));
    }
    for c in &s.conflict_deck {
        assert!(!text.contains(&format!("\"{c}\"")));
    }
}

#[test]
fn starting_extensions_are_chosen_simultaneously_and_revealed_together() {
    // LAN-SET-7, D1.
    let mut s = new_game(3, 5);
    assert_eq!(Lancaster::pending(&s), SeatSet::first(3));
    act(&mut s, 2, "X:K4").unwrap();
    let other = serde_json::to_string(&Lancaster::view(&s, Viewer::Seat(Seat(0)))).unwrap();
    assert!(other.contains("\"start_extension_chosen\":true"));
    assert!(s.faction(2).unwrap().built.is_empty());
    act(&mut s, 0, "X:K1").unwrap();
    act(&mut s, 1, "X:K1").unwrap();
    assert_eq!(s.faction(2).unwrap().built, vec!["K4".parse().unwrap()]);
    assert!(matches!(s.step, Step::Place { .. }));
}

#[test]
fn setup_follows_the_player_count_table() {
    // LAN-SET-1, LAN-SET-2, LAN-SET-5, LAN-SET-6.
    for (players, nobles) in [(2, 2), (3, 2), (4, 3), (5, 4)] {
        let s = new_game(players, 1);
        assert!(s.nobles.iter().all(|n| *n == nobles));
        assert_eq!(s.current_laws.len(), 3);
        assert_eq!(s.proposed_laws.len(), 3);
        assert_eq!(s.top_row.len(), 2);
        // The first six laws come from group 0.
        for l in s
            .current_laws
            .iter()
            .chain(s.proposed_laws.iter().flatten())
        {
            assert_eq!(data::data().law(usize::from(l.0)).unwrap().group, 0);
        }
        let f = s.faction(0).unwrap();
        assert_eq!((f.gold, f.squires, f.voting_markers), (2, 2, 1));
        assert_eq!(f.pieces_at(Loc::Court).count(), 2);
    }
    let mut events = Vec::new();
    assert!(
        Lancaster::setup(&Rules::default(), 6, &mut GameRng::from_u64(1), &mut events).is_err()
    );
}

#[test]
fn final_scoring_pays_majorities_and_the_round_table_and_names_the_winner() {
    // LAN-FIN-1..5: play a random three-player game and recompute the totals.
    let s = random_game(3, 42);
    let o = Lancaster::outcome(&s).unwrap();
    for line in &o.scores {
        assert_eq!(
            line.total,
            line.pp_before + line.knighthood_pp + line.castle_pp + line.round_table_pp
        );
        assert_eq!(
            line.round_table_pp,
            data::data().round_table_pp[line.nobles as usize]
        );
    }
    let best = o.scores.iter().map(|l| l.total).max().unwrap();
    for w in &o.winners {
        assert_eq!(o.scores[w.index()].total, best);
    }
}

#[test]
fn a_resignation_ends_the_game_and_the_others_win() {
    let mut s = placing(4);
    Lancaster::resign(&mut s, Seat(2)).unwrap();
    assert!(Lancaster::pending(&s).is_empty());
    assert_eq!(Lancaster::outcome(&s).unwrap().winners.len(), 3);
}

#[test]
fn passage_to_france_moves_the_county_knight_onto_a_conflict_without_a_favour() {
    // LAN-EFF-7 [P], LAN-FAV-3: county G.
    let mut s = at_counties(3, &[(6, 1, 3)]);
    act(&mut s, 1, "C:R").unwrap();
    let card = s.top_row[0].card;
    assert!(Lancaster::legal_actions(&s, Seat(1)).contains(&Action::Passage { card: Some(card) }));
    act(&mut s, 1, &format!("T:{card}")).unwrap();
    assert_eq!(s.faction(1).unwrap().loc(3), Loc::Conflict(card));
    assert!(s.favours_taken.is_empty());
}

#[test]
fn actions_of_seats_that_are_not_pending_are_refused_and_change_nothing() {
    // Property over random games: the driver and `apply` refuse, and the state is unchanged.
    for players in 2..=5 {
        let mut s = new_game(players, 77);
        let mut policy = GameRng::from_u64(u64::from(players));
        let mut n = 0;
        while let Some(seat) = Lancaster::pending(&s).lowest() {
            let actions = Lancaster::legal_actions(&s, seat);
            for other in (0..players).map(Seat) {
                if Lancaster::pending(&s).contains(other) {
                    continue;
                }
                for a in actions.iter().take(5) {
                    let before = s.clone();
                    let mut ev = Vec::new();
                    assert!(
                        Lancaster::apply(&mut s, other, a, &mut GameRng::from_u64(0), &mut ev)
                            .is_err()
                    );
                    assert_eq!(s, before);
                    assert!(ev.is_empty());
                }
            }
            let a = actions[policy.index(actions.len())].clone();
            let mut ev = Vec::new();
            driver::submit::<Lancaster>(&mut s, seat, &a, &mut GameRng::from_u64(0), &mut ev)
                .unwrap();
            n += 1;
            assert!(n < 20_000);
        }
    }
}

#[test]
fn every_listed_action_is_accepted_in_random_games_with_views_free_of_sealed_ballots() {
    for players in 2..=5 {
        let mut s = new_game(players, 99);
        let mut policy = GameRng::from_u64(u64::from(players) + 100);
        while let Some(seat) = Lancaster::pending(&s).lowest() {
            for p in Lancaster::pending(&s).iter() {
                for a in Lancaster::legal_actions(&s, p) {
                    let mut copy = s.clone();
                    let mut ev = Vec::new();
                    driver::submit::<Lancaster>(
                        &mut copy,
                        p,
                        &a,
                        &mut GameRng::from_u64(0),
                        &mut ev,
                    )
                    .unwrap_or_else(|e| panic!("{a}: {e}"));
                }
            }
            if matches!(s.step, Step::Vote { .. }) {
                for viewer in (0..players).map(Seat) {
                    let v = Lancaster::view(&s, Viewer::Seat(viewer));
                    let own = s.ballots[viewer.index()];
                    assert_eq!(v.my_ballot, own);
                }
            }
            let actions = Lancaster::legal_actions(&s, seat);
            let a = actions[policy.index(actions.len())].clone();
            let mut ev = Vec::new();
            driver::submit::<Lancaster>(&mut s, seat, &a, &mut GameRng::from_u64(0), &mut ev)
                .unwrap();
        }
    }
}

#[test]
fn the_castle_examples_a_knight_and_an_extension_each_pay_their_space_once() {
    // S1's castle examples: K1 gives 2 squires; K2 recruits a strength-1 knight for 3 squires.
    let mut s = at_counties(3, &[]);
    let k2: ids::Space = "K2".parse().unwrap();
    {
        let f = s.faction_mut(1).unwrap();
        f.set_loc(3, Loc::Castle(k2));
        f.squires = 1;
    }
    // Seat 1 holds a knight on K2 and the K1 extension: both to resolve, in any order.
    let listed: Vec<String> = Lancaster::legal_actions(&s, Seat(1))
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        listed,
        ["K:K1", "K:K1-", "K:K2-"],
        "3 squires are needed for K2"
    );
    act(&mut s, 1, "K:K1").unwrap();
    assert_eq!(s.faction(1).unwrap().squires, 3);
    refused_with(&mut s, 1, "K:K1", "LAN-RWK-1");
    let reserve_ones = |s: &State| {
        (0..3u8)
            .filter(|i| s.faction(1).unwrap().loc(*i) == Loc::Reserve)
            .count()
    };
    let before = reserve_ones(&s);
    act(&mut s, 1, "K:K2").unwrap();
    assert_eq!(
        reserve_ones(&s),
        before - 1,
        "a strength-1 knight was recruited"
    );
    let f = s.faction(1).unwrap();
    assert_eq!(f.squires, 0);
    assert_eq!(
        f.loc(3),
        Loc::Court,
        "the knight returns to court once resolved"
    );
    assert!(f.castle_done);
}

#[test]
fn with_sim_law_choices_every_player_answers_a_law_at_once() {
    // D4 with `sim_law_choices = true`.
    let mut s = with_l16_in_force(true);
    assert_eq!(Lancaster::pending(&s), SeatSet::first(3));
    act(&mut s, 1, "E:1").unwrap();
    assert_eq!(Lancaster::pending(&s), SeatSet::first(3).without(Seat(1)));
    act(&mut s, 0, "E:0").unwrap();
    act(&mut s, 2, "E:2").unwrap();
    let pp: Vec<u32> = s.factions.iter().map(|f| f.pp).collect();
    assert_eq!(pp, vec![0, 1, 2]);
}

/// A three-player state at the laws step with `laws` in force (the proposals already decided).
fn laws_in_force(laws: [&str; 3]) -> State {
    let mut s = voting(3);
    let all: Vec<ids::LawId> = laws.iter().map(|l| l.parse().unwrap()).collect();
    let mut pool: Vec<ids::LawId> = s.law_deck.drain(..).collect();
    pool.append(&mut s.current_laws);
    pool.extend(s.proposed_laws.drain(..).flatten());
    pool.retain(|l| !all.contains(l));
    s.current_laws = all;
    s.law_discard.extend(pool);
    s.step = Step::Laws {
        law: 0,
        player: 0,
        majority: SeatSet::EMPTY,
    };
    s
}

#[test]
fn majority_laws_reward_everyone_tied_for_the_most_even_at_zero() {
    // LAN-LAW-4 [E]: L02 (most squires recruit); seats 0 and 2 tie with 3 squires.
    let mut s = laws_in_force(["L02", "L03", "L12"]);
    s.faction_mut(0).unwrap().squires = 3;
    s.faction_mut(1).unwrap().squires = 1;
    s.faction_mut(2).unwrap().squires = 3;
    let court = |s: &State, f: u8| s.faction(f).unwrap().pieces_at(Loc::Court).count();
    let before: Vec<usize> = (0..3).map(|f| court(&s, f)).collect();
    resolve(&mut s);
    let after: Vec<usize> = (0..3).map(|f| court(&s, f)).collect();
    assert_eq!(after, vec![before[0] + 1, before[1], before[2] + 1]);
    // Nobody holds squires: all tie at zero and all qualify.
    let mut s = laws_in_force(["L02", "L03", "L12"]);
    for f in 0..3 {
        s.faction_mut(f).unwrap().squires = 0;
    }
    resolve(&mut s);
    assert!((0..3).all(|f| court(&s, f) == 1));
}

#[test]
fn counting_laws_pay_per_complete_group_and_ignore_the_rest() {
    // L03: 3 PP per 2 counties; L12: 3 PP per conflict; L18: 6 PP for a deployed 1-2-3-4 set.
    let mut s = laws_in_force(["L03", "L12", "L18"]);
    let card = s.top_row[0].card;
    for (c, piece) in [(0u8, 0u8), (1, 3), (2, 1)] {
        s.counties[usize::from(c)] = Some(state::CountySlot {
            faction: 0,
            piece,
            squires: 0,
        });
        s.faction_mut(0)
            .unwrap()
            .set_loc(piece, Loc::County(CountyId(c)));
    }
    s.faction_mut(0)
        .unwrap()
        .set_loc(5, Loc::Castle("K2".parse().unwrap()));
    s.faction_mut(0).unwrap().set_loc(6, Loc::Conflict(card));
    s.top_row[0].spaces.push(stack(0, &[6]));
    check::check(&s).unwrap();
    resolve(&mut s);
    // 3 counties -> 1 pair -> 3 PP; 1 conflict -> 3 PP; strengths 1, 2, 3, 4 deployed -> 6 PP.
    assert_eq!(s.faction(0).unwrap().pp, 12);
    assert_eq!(s.faction(1).unwrap().pp, 0);
}

#[test]
fn an_ally_ranks_in_conflicts_but_its_points_are_lost() {
    // LAN-2P-12: seat 0's ally (faction 2) ranks first; its 4 PP are lost; seat 1 gets 2.
    let card: CardId = "X03".parse().unwrap();
    let mut s = at_conflicts(
        2,
        Conflict {
            card,
            spaces: vec![stack(1, &[3]), stack(2, &[5])],
        },
        false,
    );
    resolve(&mut s);
    let pp: Vec<u32> = s.factions.iter().map(|f| f.pp).collect();
    assert_eq!(pp, vec![0, 2, 0, 0]);
}

#[test]
fn a_player_without_a_legal_placement_is_skipped() {
    // LAN-PLC-2/4: seat 1's court is empty, so seat 2 follows seat 0.
    let mut s = placing(3);
    for l in s.faction_mut(1).unwrap().knights.iter_mut() {
        *l = Loc::Reserve;
    }
    act(&mut s, 0, "P:1@A").unwrap();
    assert_eq!(Lancaster::pending(&s), SeatSet::only(Seat(2)));
}

#[test]
fn bottom_row_conflicts_resolve_before_the_top_row() {
    // LAN-RWF-1: the second attempt on X01 comes before the new X03.
    let x01: CardId = "X01".parse().unwrap();
    let mut s = at_conflicts(
        3,
        Conflict {
            card: x01,
            spaces: vec![stack(0, &[6])],
        },
        true,
    );
    let x03: CardId = "X03".parse().unwrap();
    s.conflict_deck.retain(|c| *c != x03);
    s.top_row.push(Conflict {
        card: x03,
        spaces: vec![],
    });
    let events = resolve(&mut s);
    let order: Vec<CardId> = events
        .iter()
        .filter_map(|e| match &e.event {
            Event::ConflictResolved { card, .. } => Some(*card),
            _ => None,
        })
        .collect();
    assert_eq!(order, vec![x01, x03]);
}

// `extension_draw = random` (LAN-SET-7, LAN-EFF-4, §13 DAT-RULESET, §14 Q7, §15.4 R4).

use super::state::Frame;
use crate::engine::Audience;

fn drawing() -> Rules {
    Options {
        extension_draw: Some("random".into()),
        ..Options::default()
    }
    .resolve()
    .unwrap()
}

fn draw_setup(players: u8, seed: u64) -> (State, Vec<Logged<Event>>) {
    let mut events = Vec::new();
    let s = Lancaster::setup(
        &drawing(),
        players,
        &mut GameRng::from_u64(seed),
        &mut events,
    )
    .unwrap();
    check::check(&s).unwrap();
    (s, events)
}

fn offers_a_tile(s: &State) -> bool {
    (0..5).map(Seat).any(|seat| {
        Lancaster::legal_actions(s, seat)
            .iter()
            .any(|a| matches!(a, Action::StartExtension { .. } | Action::Build { .. }))
    })
}

/// Seat 0's strength-4 knight in county E (reward: build 1 extension), tiles drawn blind.
fn at_county_e_drawing() -> State {
    let mut s = at_counties(3, &[(4, 0, 6)]);
    s.rules = drawing();
    check::check(&s).unwrap();
    s
}

#[test]
fn extension_draw_random_is_accepted_and_unknown_draws_are_refused() {
    assert!(drawing().draws_extensions());
    assert_eq!(drawing().extension_draw, "random");
    assert!(!Rules::default().draws_extensions());
    let o: Options =
        serde_json::from_value(serde_json::json!({"extension_draw": "random"})).unwrap();
    assert_eq!(Lancaster::resolve(&o).unwrap(), drawing());
    let e = Options {
        extension_draw: Some("blind".into()),
        ..Options::default()
    }
    .resolve()
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("extension_draw:") && e.contains("\"random\""),
        "{e}"
    );
}

#[test]
fn the_new_laws_are_refused_because_their_data_is_not_in_the_spec_yet() {
    // DAT-RULESET `law_set`: DAT-LAWS lists only the 18 base laws.
    for x in ["new", "mixed"] {
        let o: Options = serde_json::from_value(serde_json::json!({"law_set": x})).unwrap();
        let e = Lancaster::resolve(&o).unwrap_err().to_string();
        assert!(e.starts_with("law_set:"), "{e}");
        assert!(
            e.contains("New Laws") && e.contains("not in the spec yet") && e.contains("base"),
            "{e}"
        );
        assert!(e.ends_with('.'), "one sentence: {e}");
    }
    let base = Options {
        law_set: Some("base".into()),
        ..Options::default()
    };
    assert_eq!(base.resolve().unwrap().law_set, "base");
    let e = Options {
        law_set: Some("old".into()),
        ..Options::default()
    }
    .resolve()
    .unwrap_err()
    .to_string();
    assert!(e.contains("\"base\", \"new\" or \"mixed\""), "{e}");
}

#[test]
fn with_random_draw_the_starting_extension_is_drawn_at_setup_and_not_chosen() {
    // LAN-SET-7 [I/E] and R4: no D1 decision; each player's first tile is drawn and built.
    for players in 2..=5 {
        let (mut s, events) = draw_setup(players, 3);
        assert_eq!(
            s.step,
            Step::Place {
                turn: s.start_player
            }
        );
        assert_eq!(Lancaster::pending(&s), SeatSet::only(s.start_player));
        for f in &s.factions {
            if f.ally {
                assert!(f.built.is_empty() && f.start_extension.is_none());
            } else {
                assert_eq!(f.built.len(), 1);
                assert_eq!(f.start_extension, Some(f.built[0]));
            }
        }
        let revealed: Vec<&Logged<Event>> = events
            .iter()
            .filter(|e| matches!(e.event, Event::StartExtensionsRevealed { .. }))
            .collect();
        assert_eq!(revealed.len(), 1);
        assert_eq!(revealed[0].audience, Audience::Everyone);
        assert!(events.iter().all(|e| !matches!(
            e.event,
            Event::StartExtensionSealed { .. } | Event::StartExtensionChosen { .. }
        )));
        assert!(!offers_a_tile(&s));
        let first = s.start_player.0;
        refused_with(&mut s, first, "X:K1", "LAN-SET-7");
    }
}

#[test]
fn with_random_draw_a_gained_extension_is_drawn_blind_and_not_chosen() {
    // LAN-EFF-4 with `extension_draw = random`: county E's reward builds a face-down tile at
    // once, announced to everyone; nobody is asked which.
    let mut s = at_county_e_drawing();
    assert_eq!(Lancaster::pending(&s), SeatSet::only(Seat(0)));
    let events = act(&mut s, 0, "C:R").unwrap();
    let k1: ids::Space = "K1".parse().unwrap();
    let f = s.faction(0).unwrap();
    assert_eq!(f.built.len(), 2);
    let drawn = f.built[1];
    assert_ne!(drawn, k1);
    assert!(!s.frames.iter().any(|fr| matches!(fr, Frame::Build { .. })));
    assert!(!offers_a_tile(&s));
    let shown: Vec<&Logged<Event>> = events
        .iter()
        .filter(|e| matches!(e.event, Event::ExtensionDrawn { .. }))
        .collect();
    assert_eq!(shown.len(), 1);
    assert_eq!(shown[0].audience, Audience::Everyone);
    assert_eq!(
        shown[0].event,
        Event::ExtensionDrawn {
            faction: 0,
            space: drawn
        }
    );
    // The drawn tile pays this round's castle step like a chosen one (LAN-RWK-2).
    assert!(matches!(s.step, Step::Castles));
    assert!(rules::castle_todo(&s, 0).contains(&drawn));
    // A tile sent anyway is refused, and says why.
    refused_with(&mut s, 0, "B:K2", "LAN-EFF-4");
    // Every view lists the remaining face-down tiles in castle order only.
    for viewer in (0..3).map(Seat) {
        let v = Lancaster::view(&s, Viewer::Seat(viewer));
        assert_eq!(
            v.factions[0].extensions_unbuilt,
            rules::build_options(&s, 0)
        );
    }
    // With `choice` (the default) the same reward asks which tile.
    let mut c = at_counties(3, &[(4, 0, 6)]);
    act(&mut c, 0, "C:R").unwrap();
    assert_eq!(Lancaster::legal_actions(&c, Seat(0)).len(), 5);
    assert!(offers_a_tile(&c));
}

#[test]
fn with_random_draw_the_same_seed_draws_the_same_tile() {
    // Replay is exact: the draw uses the game's generator (setup stream, or the action's).
    let built = |s: &State| -> Vec<Vec<ids::Space>> {
        s.factions.iter().map(|f| f.built.clone()).collect()
    };
    let mut setups = std::collections::BTreeSet::new();
    for seed in 0..20 {
        let a = built(&draw_setup(4, seed).0);
        assert_eq!(a, built(&draw_setup(4, seed).0));
        setups.insert(a);
    }
    assert!(
        setups.len() > 1,
        "the starting tiles do not depend on the seed"
    );
    // A later gain: the same action stream draws the same tile, and the stored state holds no
    // order that would fix it in advance (other streams draw other tiles).
    let s = at_county_e_drawing();
    let gain = |n: u64| {
        let mut c = s.clone();
        let mut ev = Vec::new();
        let mut rng = GameRng::for_action(&Seed([9; 32]), n);
        driver::submit::<Lancaster>(&mut c, Seat(0), &"C:R".parse().unwrap(), &mut rng, &mut ev)
            .unwrap();
        c.faction(0).unwrap().built.clone()
    };
    let mut tiles = std::collections::BTreeSet::new();
    for n in 1..40 {
        let once = gain(n);
        assert_eq!(once, gain(n));
        tiles.insert(once[1]);
    }
    assert!(
        tiles.len() > 1,
        "the drawn tile does not depend on the stream"
    );
    assert!(
        !tiles.contains(&"K1".parse().unwrap()),
        "a built tile was drawn again"
    );
}

#[test]
fn with_random_draw_a_law_gain_is_drawn_too_and_is_lost_when_no_tile_is_left() {
    // L06 (build 1 extension per 2 conflicts), applied automatically by the laws step.
    let mut s = laws_in_force(["L06", "L03", "L12"]);
    s.rules = drawing();
    let cards: Vec<CardId> = s.top_row.iter().map(|c| c.card).collect();
    for (card, piece) in cards.iter().zip([0u8, 1]) {
        s.faction_mut(0)
            .unwrap()
            .set_loc(piece, Loc::Conflict(*card));
        s.conflict_mut(*card)
            .unwrap()
            .spaces
            .push(stack(0, &[piece]));
    }
    check::check(&s).unwrap();
    let events = resolve(&mut s);
    check::check(&s).unwrap();
    assert_eq!(s.faction(0).unwrap().built.len(), 2);
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e.event, Event::ExtensionDrawn { faction: 0, .. }))
            .count(),
        1
    );
    assert!(!offers_a_tile(&s));
    // LAN-ENG-4: with every tile built, the gain is lost and nothing is asked.
    let mut s = at_county_e_drawing();
    s.faction_mut(0).unwrap().built = (0..6).map(|idx| ids::Space { ally: false, idx }).collect();
    let events = act(&mut s, 0, "C:R").unwrap();
    assert_eq!(s.faction(0).unwrap().built.len(), 6);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e.event, Event::ExtensionDrawn { .. }))
    );
}

#[test]
fn random_games_with_drawn_extensions_pass_the_self_play_checks() {
    // Property over random games, 2-5 players, through the self-play driver with `--check`:
    // invariants after every action, every listed action accepted, no tile ever offered, views
    // free of hidden information, and the action log replaying to the same final state.
    use crate::selfplay::{Run, play};
    for players in 2..=5 {
        let run = Run {
            rules: drawing(),
            seats: players,
            games: 4,
            seed: u64::from(players) + 40,
            threads: 1,
            check: true,
        };
        let summary = play::<Lancaster>(&run).unwrap_or_else(|v| panic!("{}", v.message));
        assert_eq!(summary.games, 4);
    }
    // And the draws happen beyond setup: count them over more (unchecked) games.
    let mut drawn = 0;
    for players in 2..=5 {
        for seed in 0..6 {
            drawn += random_game_counting_draws(players, seed);
        }
    }
    assert!(drawn > 0, "no extension tile was drawn after setup");
}

/// Like [`random_game`] with `extension_draw = random`: the number of tiles drawn after setup.
fn random_game_counting_draws(players: u8, seed: u64) -> usize {
    let (mut state, _) = draw_setup(players, seed);
    let mut policy = GameRng::from_u64(seed ^ 0xbeef);
    let mut n = 0u64;
    let mut drawn = 0;
    while let Some(seat) = Lancaster::pending(&state).lowest() {
        let actions = Lancaster::legal_actions(&state, seat);
        assert!(!offers_a_tile(&state));
        let a = actions[policy.index(actions.len())].clone();
        n += 1;
        let mut rng = GameRng::for_action(&Seed([2; 32]), n);
        let mut events = Vec::new();
        driver::submit::<Lancaster>(&mut state, seat, &a, &mut rng, &mut events)
            .unwrap_or_else(|e| panic!("{a} refused: {e}"));
        drawn += events
            .iter()
            .filter(|e| matches!(e.event, Event::ExtensionDrawn { .. }))
            .count();
        assert!(n < 20_000);
    }
    check::check(&state).unwrap();
    assert!(Lancaster::outcome(&state).is_some());
    drawn
}

// Rule-ID coverage for refusals. Not tested here, with the reason:
// - LAN-CMP-1 ("no such county"): county letters parse only as A-I and every one is in the
//   data; the engine opens county frames only for occupied counties. Internal safeguard.
// - LAN-CMP-3 ("no such space"): a castle action is first checked against the spaces left to
//   resolve (LAN-RWK-1), all of which exist in the data. Internal safeguard.
// - LAN-GEN-4 ("no such colour"): factions come from `faction_for`, which only yields
//   existing colours (an absent ally is refused as LAN-2P-3 first). Internal safeguard.
// - LAN-RWC-1 ("the county is empty"): county frames are opened by the engine only for
//   occupied counties, so no client action reaches it. Internal safeguard.
// - LAN-GEN-2's second site in rules.rs ("Another player decides first"): a pending seat
//   always has a frame, and `apply` refuses non-pending seats first. Internal safeguard.
// - LAN-EFF-2, LAN-ENG-3, LAN-LAW-2, LAN-NXT-1, LAN-PAR-4, LAN-RWF-3, LAN-RWK-3 are cited only
//   in comments of rules.rs, never in a refusal, so there is no refusal to test.

#[test]
fn placing_an_ally_knight_outside_the_two_player_game_is_refused() {
    // LAN-2P-3: only two-player games have allies. The obeying case (an ally placed with two
    // players) is in `in_the_two_player_game_each_player_also_places_an_ally_without_squires`.
    let mut s = placing(3);
    refused_with(&mut s, 0, "P:a1@A", "LAN-2P-3");
    refused_with(&mut s, 0, "P:a2@K2", "LAN-2P-3");
    act(&mut s, 0, "P:1@A").unwrap();
}

#[test]
fn a_knight_can_join_only_a_conflict_card_on_the_board() {
    // LAN-CNF-3
    let mut s = placing(3);
    let on_board: Vec<CardId> = s
        .top_row
        .iter()
        .chain(&s.bottom_row)
        .map(|c| c.card)
        .collect();
    let absent = (0..data::data().conflicts.len())
        .map(|i| CardId(i as u8))
        .find(|c| !on_board.contains(c))
        .expect("some conflict card is off the board");
    refused_with(&mut s, 0, &format!("P:1@{absent}"), "LAN-CNF-3");
    let card = s.top_row[0].card;
    act(&mut s, 0, &format!("P:1@{card}")).unwrap();
    assert_eq!(s.conflict(card).unwrap().spaces[0].faction, 0);
}

#[test]
fn a_player_cannot_spend_more_squires_than_they_hold() {
    // LAN-EFF-1
    let mut s = placing(3);
    let held = s.faction(0).unwrap().squires;
    refused_with(&mut s, 0, &format!("P:1@A+{}", held + 1), "LAN-EFF-1");
    act(&mut s, 0, &format!("P:1@A+{held}")).unwrap();
    assert_eq!(s.faction(0).unwrap().squires, 0);
    assert_eq!(s.county(CountyId(0)).unwrap().squires, held);
}

#[test]
fn only_the_seat_whose_turn_it_is_may_place() {
    // LAN-GEN-2. The engine driver already refuses a seat that is not pending before the game
    // sees it, so this calls the game's own `apply` to check its guard directly.
    let mut s = placing(3);
    for seat in [1u8, 2] {
        let before = s.clone();
        let a: Action = "P:1@A".parse().unwrap();
        let mut events = Vec::new();
        let e = Lancaster::apply(
            &mut s,
            Seat(seat),
            &a,
            &mut GameRng::from_u64(0),
            &mut events,
        )
        .unwrap_err();
        assert!(format!("{e}").contains("LAN-GEN-2"), "{e}");
        assert_eq!(s, before, "a refused action changed the state");
        assert!(events.is_empty());
    }
    act(&mut s, 0, "P:1@A").unwrap();
    act(&mut s, 1, "P:1@C").unwrap();
}

#[test]
fn an_action_of_the_wrong_kind_for_the_step_is_refused() {
    // LAN-GEN-3: during placement the game waits for a placement, not a vote.
    let mut s = placing(3);
    refused_with(&mut s, 0, "V:Y", "LAN-GEN-3");
    act(&mut s, 0, "P:1@A").unwrap();
}

// Issue 21: exchanges that give nothing, and the data switches.

fn listed(s: &State, seat: u8) -> Vec<String> {
    Lancaster::legal_actions(s, Seat(seat))
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// A copy of the embedded data, to flip one field in a test.
fn data_copy() -> data::Data {
    data::load().unwrap().clone()
}

#[test]
fn k2_is_neither_offered_nor_accepted_when_no_strength_1_knight_is_left_in_reserve() {
    // LAN-ENG-3/4, S1: the K2 extension gives "un caballero nuevo de fuerza 1 a cambio de tres
    // escuderos"; with no strength-1 knight in reserve the 3 squires would buy nothing.
    let mut s = at_counties(3, &[]);
    let k2: ids::Space = "K2".parse().unwrap();
    {
        let f = s.faction_mut(1).unwrap();
        f.set_loc(3, Loc::Castle(k2));
        f.squires = 3;
        for i in 0..3 {
            f.set_loc(i, Loc::Court);
        }
    }
    assert_eq!(listed(&s, 1), ["K:K1", "K:K1-", "K:K2-"]);
    refused_with(&mut s, 1, "K:K2", "LAN-ENG-4");
    // With a strength-1 knight back in reserve the exchange is offered and recruits it.
    s.faction_mut(1).unwrap().set_loc(2, Loc::Reserve);
    assert_eq!(listed(&s, 1), ["K:K1", "K:K1-", "K:K2", "K:K2-"]);
    act(&mut s, 1, "K:K2").unwrap();
    let f = s.faction(1).unwrap();
    assert_eq!((f.squires, f.loc(2)), (0, Loc::Court));
}

#[test]
fn k3_is_neither_offered_nor_accepted_with_nothing_to_upgrade() {
    // LAN-ENG-3/4, LAN-EFF-3: K3 upgrades for 2 squires; with every knight out of the reserve no
    // stronger piece can take a weaker one's place.
    let mut s = at_counties(3, &[]);
    let k3: ids::Space = "K3".parse().unwrap();
    {
        let f = s.faction_mut(2).unwrap();
        for i in 0..7 {
            f.set_loc(i, Loc::Court);
        }
        f.set_loc(0, Loc::Castle(k3));
        f.squires = 2;
    }
    assert_eq!(listed(&s, 2), ["K:K1", "K:K1-", "K:K3-"]);
    refused_with(&mut s, 2, "K:K3", "LAN-ENG-4");
    // The strength-4 knight back in reserve: the strength-3 knight can be upgraded.
    s.faction_mut(2).unwrap().set_loc(6, Loc::Reserve);
    assert!(listed(&s, 2).contains(&"K:K3".to_string()));
    act(&mut s, 2, "K:K3").unwrap();
    assert_eq!(listed(&s, 2), ["U:-", "U:3"]);
}

#[test]
fn both_is_neither_offered_nor_accepted_when_the_county_reward_cannot_apply() {
    // LAN-RWC-2, LAN-ENG-4: Gloucester (D) recruits a strength-1 knight; with none in reserve,
    // 3 gold for "both" would buy only the noble, which is free alone.
    let mut s = at_counties(3, &[(3, 0, 5)]);
    {
        let f = s.faction_mut(0).unwrap();
        f.gold = 3;
        for i in 0..3 {
            f.set_loc(i, Loc::Court);
        }
    }
    assert_eq!(listed(&s, 0), ["C:N", "C:R"]);
    refused_with(&mut s, 0, "C:B", "LAN-RWC-2");
    s.faction_mut(0).unwrap().set_loc(1, Loc::Reserve);
    assert_eq!(listed(&s, 0), ["C:N", "C:R", "C:B"]);
    act(&mut s, 0, "C:B").unwrap();
    let f = s.faction(0).unwrap();
    assert_eq!((f.gold, f.loc(1)), (0, Loc::Court));
    assert_eq!(f.nobles, vec![CountyId(3)]);
}

#[test]
fn the_castle_lord_takes_a_round_table_seat_at_the_end_only_when_the_data_says_so() {
    // LAN-FIN-4, §14 Q11 (`lord_counts_at_end`): two nobles score 1 PP; with the lord seated
    // as well, three seats score 3 PP.
    let score = |d: data::Data| {
        data::with_data(d, || {
            let mut s = placing(3);
            s.faction_mut(0).unwrap().nobles = vec![CountyId(0), CountyId(1)];
            s.nobles[0] -= 1;
            s.nobles[1] -= 1;
            let o = score::final_scoring(&mut s);
            o.scores[0].round_table_pp
        })
    };
    assert_eq!(score(data_copy()), 1);
    let mut d = data_copy();
    d.lord_counts_at_end = true;
    d.round_table_pp.push(45);
    assert_eq!(score(d), 3);
    // The table must then have a value for the tenth seat.
    let mut d = data_copy();
    d.lord_counts_at_end = true;
    assert!(d.check().unwrap_err().contains("round_table_pp"));
}

#[test]
fn the_majorities_follow_the_metric_and_the_tie_break_of_the_data() {
    // LAN-FIN-1/2 (DAT-MAJORITIES): seats 0 and 1 tie on knighthood; seat 0 has more squires,
    // seat 1 more gold. Castle: seat 2 has the most nobles, the others one extension more.
    let run = |d: data::Data| {
        data::with_data(d, || {
            let mut s = placing(3);
            for (f, court, squires, gold) in [(0, 3, 5, 0), (1, 3, 0, 5), (2, 0, 0, 0)] {
                let x = s.faction_mut(f).unwrap();
                x.squires = squires;
                x.gold = gold;
                if court == 0 {
                    x.set_loc(0, Loc::Reserve);
                }
            }
            s.faction_mut(0).unwrap().built.push("K2".parse().unwrap());
            s.faction_mut(1).unwrap().built.push("K2".parse().unwrap());
            s.faction_mut(2).unwrap().nobles = vec![CountyId(0)];
            s.nobles[0] -= 1;
            let o = score::final_scoring(&mut s);
            let k: Vec<u32> = o.scores.iter().map(|l| l.knighthood_pp).collect();
            let c: Vec<u32> = o.scores.iter().map(|l| l.castle_pp).collect();
            (k, c)
        })
    };
    // Default: squires break the knighthood tie; extensions decide the castle (gold breaks
    // the tie between seats 0 and 1).
    assert_eq!(run(data_copy()), (vec![8, 4, 0], vec![4, 8, 0]));
    let mut d = data_copy();
    d.majorities.knighthood.tiebreak = data::Quantity::Gold;
    d.majorities.castle.metric = data::Quantity::NobleTiles;
    d.majorities.castle.tiebreak = data::Quantity::None;
    // Gold breaks the knighthood tie; nobles decide the castle, and seats 0 and 1 (no noble,
    // no tie-break) share second place.
    assert_eq!(run(d), (vec![4, 8, 0], vec![2, 2, 8]));
}

#[test]
fn favour_tiles_below_their_minimum_player_count_are_not_in_play() {
    // DAT-FAVOURS `min_players`, LAN-FAV-1: F1 for 4 or more players only.
    let mut d = data_copy();
    d.favours[0].min_players = 4;
    data::with_data(d, || {
        for (players, offered) in [(3u8, false), (4, true)] {
            let mut s = placing(players);
            let card = s.top_row[0].card;
            act(&mut s, 0, &format!("P:1@{card}")).unwrap();
            assert_eq!(listed(&s, 0).contains(&"F:F1".to_string()), offered);
            let v = Lancaster::view(&s, Viewer::Seat(Seat(0)));
            assert_eq!(v.favours_in_play.len(), if offered { 6 } else { 5 });
            if !offered {
                refused_with(&mut s, 0, "F:F1", "LAN-FAV-1");
            }
        }
    });
}

#[test]
fn when_every_tile_in_play_is_face_down_no_more_favours_are_earned() {
    // LAN-FAV-1: with only F3 in play for three players, the second conflict knight earns
    // nothing although fewer than six knights were placed.
    let mut d = data_copy();
    for f in d.favours.iter_mut().filter(|f| f.id != "F3") {
        f.min_players = 4;
    }
    data::with_data(d, || {
        let mut s = placing(3);
        let card = s.top_row[0].card;
        act(&mut s, 0, &format!("P:1@{card}")).unwrap();
        assert_eq!(listed(&s, 0), ["F:F3"]);
        act(&mut s, 0, "F:F3").unwrap();
        act(&mut s, 1, &format!("P:1@{card}")).unwrap();
        assert_eq!(
            Lancaster::pending(&s),
            SeatSet::only(Seat(2)),
            "no favour for seat 1"
        );
    });
}

#[test]
fn the_two_player_game_takes_its_cards_from_the_player_count_the_data_names() {
    // S1: the two-player game uses "las reglas para 4 jugadores"; the spec filters by 2
    // (`two_player_cards_as`). X11 and X12 are for 3 or more players here.
    let deck = |as_players: u8| {
        let mut d = data_copy();
        d.two_player_cards_as = as_players;
        for c in d.conflicts.iter_mut().skip(10) {
            c.min_players = 3;
        }
        d.favours[0].min_players = 3;
        data::with_data(d, || {
            let s = new_game(2, 5);
            check::check(&s).unwrap();
            let cards = s.conflict_deck.len() + s.top_row.len();
            let v = Lancaster::view(&s, Viewer::Seat(Seat(0)));
            (cards, v.favours_in_play.len())
        })
    };
    assert_eq!(deck(2), (10, 5));
    assert_eq!(deck(4), (12, 6));
    assert_eq!(
        data_copy().two_player_cards_as,
        2,
        "the spec's reading is the default"
    );
}

#[test]
fn an_extension_tile_covers_its_castle_space_unless_the_data_says_it_does_not() {
    // LAN-CAS-2 [I] (`extension_covers_space`): by default K1, built at the start, takes no
    // knight. Without covering, a knight may go there and the knight and the tile each pay.
    let mut s = placing(3);
    refused_with(&mut s, 0, "P:1@K1", "LAN-CAS-1");
    let mut d = data_copy();
    d.extension_covers_space = false;
    data::with_data(d, || {
        let mut s = placing(3);
        act(&mut s, 0, "P:1@K1").unwrap();
        let mut s = at_counties(3, &[]);
        let k1: ids::Space = "K1".parse().unwrap();
        s.faction_mut(0).unwrap().set_loc(0, Loc::Castle(k1));
        let before = s.faction(0).unwrap().squires;
        act(&mut s, 0, "K:K1").unwrap();
        assert_eq!(s.faction(0).unwrap().loc(0), Loc::Court);
        assert_eq!(listed(&s, 0), ["K:K1", "K:K1-"], "the tile still pays");
        act(&mut s, 0, "K:K1").unwrap();
        assert_eq!(s.faction(0).unwrap().squires, before + 4);
        assert!(s.faction(0).unwrap().castle_done);
    });
}

#[test]
fn surreys_reward_is_fixed_by_default_and_a_choice_when_the_data_offers_options() {
    // S1: "Como recompensa elige dos escuderos y dos monedas de oro". The spec reads one fixed
    // reward (2 squires and 2 gold); `reward_options` makes it a choice.
    let mut s = at_counties(3, &[(8, 2, 3)]);
    let before = s.faction(2).unwrap().clone();
    act(&mut s, 2, "C:R").unwrap();
    let f = s.faction(2).unwrap();
    assert_eq!((f.squires, f.gold), (before.squires + 2, before.gold + 2));
    assert_eq!(listed(&s, 2), ["S:0", "S:1", "S:2"], "no reward choice");
    let mut d = data_copy();
    let surrey = &mut d.counties[8];
    let gain = |squires, gold| data::Effect {
        gain: data::Res {
            squires,
            gold,
            ..data::Res::default()
        },
        ..data::Effect::default()
    };
    surrey.reward_options = vec![gain(2, 0), gain(1, 1), gain(0, 2)];
    surrey.reward = data::Effect::default();
    data::with_data(d, || {
        let mut s = at_counties(3, &[(8, 2, 3)]);
        let before = s.faction(2).unwrap().clone();
        act(&mut s, 2, "C:R").unwrap();
        assert_eq!(listed(&s, 2), ["O:1", "O:2", "O:3"]);
        refused_with(&mut s, 2, "O:4", "LAN-RWC-2");
        act(&mut s, 2, "O:3").unwrap();
        let f = s.faction(2).unwrap();
        assert_eq!((f.squires, f.gold), (before.squires, before.gold + 2));
        // Then the start player, as without options.
        assert_eq!(listed(&s, 2), ["S:0", "S:1", "S:2"]);
    });
    // A county cannot have both a reward and options.
    let mut d = data_copy();
    d.counties[8].reward_options = vec![gain(2, 0)];
    assert!(d.check().unwrap_err().contains("reward options"));
}

#[test]
fn surreys_choice_passes_the_marker_at_once_and_opens_the_next_round() {
    // LAN-RWC-4 [E], LAN-ENG-5: "The start-player marker passes at once after Surrey". Seat 0
    // holds the marker in round 1; seat 2 holds Surrey and names seat 1.
    let mut s = at_counties(3, &[(8, 2, 3)]);
    assert_eq!(s.start_player, Seat(0));
    act(&mut s, 2, "C:R").unwrap();
    assert_eq!(s.next_start_player, None, "not chosen yet");
    act(&mut s, 2, "S:1").unwrap();
    assert_eq!(s.start_player, Seat(1), "the marker has passed");
    assert_eq!(s.next_start_player, Some(Seat(1)));
    let v = Lancaster::view(&s, Viewer::Seat(Seat(0)));
    assert_eq!(
        (v.start_player, v.next_start_player),
        (Seat(1), Some(Seat(1)))
    );
    // Castles, then conflicts, in seat 1's order; then round 2 opens with seat 1.
    for f in 0..3 {
        s.faction_mut(f).unwrap().set_loc(0, Loc::Court);
    }
    let mut events = Vec::new();
    for seat in 0..3 {
        events.extend(act(&mut s, seat, "K:K1").unwrap());
    }
    assert_eq!(s.round, 2);
    assert_eq!(s.start_player, Seat(1));
    assert_eq!(s.next_start_player, None);
    assert_eq!(s.step, Step::Place { turn: Seat(1) });
    assert!(events.iter().any(|e| matches!(
        e.event,
        Event::RoundStarted {
            round: 2,
            start_player: Seat(1),
            ..
        }
    )));
    assert_eq!(Lancaster::pending(&s), SeatSet::only(Seat(1)));
}

#[test]
fn a_late_surrey_occupant_leaves_the_start_marker_where_it_is() {
    // design.md §14: the default harms only the late seat. Naming seat 0 (the first listed)
    // gave it a steady advantage; naming the late seat itself rewarded being late. The marker
    // stays with the seat that opened the round, as when nobody is in Surrey (LAN-RWC-4). Seat
    // 0 holds the marker; seat 2 holds Surrey and is late.
    let mut s = at_counties(3, &[(8, 2, 3)]);
    act(&mut s, 2, "C:R").unwrap();
    assert_eq!(s.start_player, Seat(0));
    let crate::engine::Timeout::Play(default) = Lancaster::timeout(&s, Seat(2)) else {
        panic!("no default");
    };
    assert_eq!(default.to_string(), "S:0");
    act(&mut s, 2, &default.to_string()).unwrap();
    assert_eq!(
        (s.start_player, s.next_start_player),
        (Seat(0), Some(Seat(0)))
    );
}

#[test]
fn without_a_knight_in_surrey_the_start_player_keeps_the_marker() {
    // LAN-RWC-4: "Si no hubiera ningún caballero en Surrey, el jugador que abrió esa ronda se
    // quedará con la ficha de inicio."
    let mut s = at_counties(3, &[]);
    for f in 0..3 {
        s.faction_mut(f).unwrap().set_loc(0, Loc::Court);
    }
    for seat in 0..3 {
        act(&mut s, seat, "K:K1").unwrap();
    }
    assert_eq!((s.round, s.start_player), (2, Seat(0)));
    assert_eq!(s.step, Step::Place { turn: Seat(0) });
}

/// Three seats at the counties, seat 0 holding the marker and seat 2 Surrey; seats 0 and 2 each
/// have a knight on a bottom-row conflict (X12) that France wins again (LAN-RWF-7).
fn surrey_held_by_2_and_a_lost_bottom_row_conflict_for_0_and_2() -> State {
    let card = "X12".parse::<CardId>().unwrap();
    let mut s = at_counties(3, &[(8, 2, 3)]);
    s.conflict_deck.extend(s.top_row.drain(..).map(|c| c.card));
    s.conflict_deck.retain(|c| *c != card);
    s.bottom_row.push(Conflict {
        card,
        spaces: vec![stack(2, &[0]), stack(0, &[0])],
    });
    s.faction_mut(2).unwrap().set_loc(0, Loc::Conflict(card));
    s.faction_mut(0).unwrap().set_loc(0, Loc::Conflict(card));
    s
}

#[test]
fn a_ransom_after_surrey_follows_the_new_start_players_order() {
    // LAN-RWF-7: ransoms go "in player order"; LAN-ENG-5 and LAN-RWC-4 [E]: the marker passes at
    // once after Surrey, so the rest of Phase 3 already uses the new order (LAN-GEN-2). Seat 0
    // opened the round; seat 2 holds Surrey and names itself; seats 0 and 2 lose a bottom-row
    // conflict the same round. Seat 2's ransom comes first.
    let mut s = surrey_held_by_2_and_a_lost_bottom_row_conflict_for_0_and_2();
    for seat in [0, 2] {
        s.faction_mut(seat).unwrap().gold = 1;
    }
    check::check(&s).unwrap();
    act(&mut s, 2, "C:R").unwrap();
    act(&mut s, 2, "S:2").unwrap();
    for seat in 0..3 {
        act(&mut s, seat, "K:K1").unwrap();
    }
    // The ransoms are asked together (D7a); the stack keeps player order, seat 2 first.
    assert_eq!(Lancaster::pending(&s), SeatSet::only(Seat(0)).with(Seat(2)));
    let order: Vec<Seat> = s.frames.iter().rev().map(|f| s.frame_seat(f)).collect();
    assert_eq!(order, [Seat(2), Seat(0)]);
    assert_eq!(s.start_player, Seat(2));
    act(&mut s, 0, "R:-").unwrap();
    act(&mut s, 2, "R:-").unwrap();
    assert_eq!((s.round, s.start_player), (2, Seat(2)));
    assert_eq!(s.step, Step::Place { turn: Seat(2) });
}

#[test]
fn a_game_stored_while_surreys_choice_waited_applies_it_when_the_round_ends() {
    // Games stored before LAN-ENG-5 was followed kept Surrey's choice in `next_start_player`
    // until the round's end, with the marker still at the round's opener. Such a state loads and
    // plays as it was: the rest of its round keeps the opener's order, and the chosen seat opens
    // the next round.
    let mut s = surrey_held_by_2_and_a_lost_bottom_row_conflict_for_0_and_2();
    act(&mut s, 2, "C:R").unwrap();
    act(&mut s, 2, "S:2").unwrap();
    // The stored form of the old engine: the marker still with seat 0, the choice waiting.
    let mut old = serde_json::to_value(&s).unwrap();
    old["start_player"] = serde_json::json!(0);
    assert_eq!(old["next_start_player"], 2);
    let mut s: State = serde_json::from_value(old).unwrap();
    check::check(&s).unwrap();
    assert_eq!(
        (s.start_player, s.next_start_player),
        (Seat(0), Some(Seat(2)))
    );
    for seat in 0..3 {
        act(&mut s, seat, "K:K1").unwrap();
    }
    let order: Vec<Seat> = s.frames.iter().rev().map(|f| s.frame_seat(f)).collect();
    assert_eq!(order, [Seat(0), Seat(2)], "the order the round began with");
    act(&mut s, 0, "R:-").unwrap();
    act(&mut s, 2, "R:-").unwrap();
    assert_eq!((s.round, s.start_player), (2, Seat(2)));
    assert_eq!(s.next_start_player, None);
    assert_eq!(s.step, Step::Place { turn: Seat(2) });
}

#[test]
fn the_component_counts_are_data_and_check_holds_the_lists_to_them() {
    // DAT-COMPONENTS: the counts `Data::check` enforces come from the data.
    let mut d = data_copy();
    d.components.favour_tiles = 7;
    assert!(d.check().unwrap_err().contains("DAT-COMPONENTS"));
    // A seventh favour tile with its count is consistent, and the game offers it.
    let mut f7 = d.favours[2].clone();
    f7.id = "F7".into();
    d.favours.push(f7);
    d.check().unwrap();
    data::with_data(d, || {
        let mut s = placing(3);
        let card = s.top_row[0].card;
        act(&mut s, 0, &format!("P:1@{card}")).unwrap();
        assert_eq!(listed(&s, 0).len(), 7);
        act(&mut s, 0, "F:F7").unwrap();
    });
    type Flip = (fn(&mut data::Data), &'static str);
    let flips: [Flip; 7] = [
        (|d| d.components.counties = 10, "counties"),
        (|d| d.components.law_cards = 17, "laws"),
        (|d| d.components.knights_per_colour = 8, "knights"),
        (|d| d.components.conflict_cards = 13, "conflicts"),
        (|d| d.components.castle_spaces = 5, "castle spaces"),
        (|d| d.components.nobles_per_letter = 2, "nobles per county"),
        (|d| d.components.proposals_per_round = 2, "proposals"),
    ];
    for (flip, why) in flips {
        let mut d = data_copy();
        flip(&mut d);
        let e = d.check().unwrap_err();
        assert!(e.contains(why), "{why}: {e}");
    }
}

#[test]
fn random_games_under_the_open_readings_pass_the_self_play_checks() {
    // Every open reading flipped at once (lord seated, tiles not covering, Surrey's reward a
    // choice, two-player cards as for four, some cards and tiles for more players only): games
    // still end, every listed action is accepted and the invariants hold.
    let mut d = data_copy();
    d.lord_counts_at_end = true;
    d.round_table_pp.push(45);
    d.extension_covers_space = false;
    d.two_player_cards_as = 4;
    d.favours[5].min_players = 4;
    for c in d.conflicts.iter_mut().skip(10) {
        c.min_players = 4;
    }
    let surrey = &mut d.counties[8];
    surrey.reward_options = vec![
        data::Effect {
            gain: data::Res {
                squires: 2,
                ..data::Res::default()
            },
            ..data::Effect::default()
        },
        data::Effect {
            gain: data::Res {
                gold: 2,
                ..data::Res::default()
            },
            ..data::Effect::default()
        },
    ];
    surrey.reward = data::Effect::default();
    data::with_data(d, || {
        for players in 2..=5 {
            for seed in 0..4 {
                let s = random_game(players, seed);
                assert!(Lancaster::outcome(&s).is_some());
            }
        }
    });
}

#[test]
fn a_state_stored_before_surreys_deferred_choice_still_loads() {
    // Stored games are JSON of `State`; `next_start_player` is absent from older ones.
    let mut s = at_counties(3, &[(8, 2, 3)]);
    let mut old = serde_json::to_value(&s).unwrap();
    assert!(old.get("next_start_player").is_none());
    old.as_object_mut().unwrap().remove("next_start_player");
    let back: State = serde_json::from_value(old).unwrap();
    assert_eq!(back, s);
    act(&mut s, 2, "C:R").unwrap();
    act(&mut s, 2, "S:1").unwrap();
    let json = serde_json::to_value(&s).unwrap();
    assert_eq!(json["next_start_player"], 1);
    assert_eq!(serde_json::from_value::<State>(json).unwrap(), s);
}

#[test]
fn every_county_placement_the_rules_accept_is_listed_and_no_other_in_random_games() {
    // LAN-CTY-1..5: the list counts a county's squire choices as one run from the fewest that
    // win; every strength, county and squire count tried through `apply` must agree with it.
    for players in 2..=5 {
        let mut s = new_game(players, 7);
        let mut policy = GameRng::from_u64(u64::from(players) + 7);
        let mut tried = 0;
        while let Some(seat) = Lancaster::pending(&s).lowest() {
            let listed = Lancaster::legal_actions(&s, seat);
            if matches!(s.step, Step::Place { .. }) && s.frames.is_empty() {
                for ally in [false, true] {
                    let most = s
                        .faction_for(seat, ally)
                        .and_then(|f| s.faction(f))
                        .map_or(0, |f| f.squires + 1);
                    for knight in 1..=5 {
                        for c in 0..s.counties.len() as u8 {
                            for squires in 0..=most {
                                let a = Action::Place {
                                    knight,
                                    ally,
                                    target: ids::Target::County(CountyId(c)),
                                    squires,
                                };
                                let mut copy = s.clone();
                                let ok = driver::submit::<Lancaster>(
                                    &mut copy,
                                    seat,
                                    &a,
                                    &mut GameRng::from_u64(0),
                                    &mut Vec::new(),
                                )
                                .is_ok();
                                assert_eq!(ok, listed.contains(&a), "{a}");
                                tried += 1;
                            }
                        }
                    }
                }
            }
            let a = listed[policy.index(listed.len())].clone();
            driver::submit::<Lancaster>(
                &mut s,
                seat,
                &a,
                &mut GameRng::from_u64(0),
                &mut Vec::new(),
            )
            .unwrap();
        }
        assert!(tried > 1000, "{tried}");
    }
}

#[test]
fn the_random_pick_draws_the_action_that_indexing_the_list_would() {
    // Self-play plays the same games whether it picks from the list or by counting.
    for players in 2..=5 {
        let mut s = new_game(players, 3);
        let mut policy = GameRng::from_u64(u64::from(players) + 3);
        let mut n = 0u64;
        while let Some(seat) = Lancaster::pending(&s).lowest() {
            for p in (0..5).map(Seat) {
                let listed = Lancaster::legal_actions(&s, p);
                assert_eq!(rules::count_legal(&s, p) as usize, listed.len());
                for (i, a) in listed.iter().enumerate() {
                    assert_eq!(rules::nth_legal(&s, p, i as u32).as_ref(), Some(a));
                }
                assert_eq!(s.is_pending(p), Lancaster::pending(&s).contains(p));
            }
            let listed = Lancaster::legal_actions(&s, seat);
            let mut by_list = GameRng::for_action(&Seed([5; 32]), n);
            let mut by_pick = GameRng::for_action(&Seed([5; 32]), n);
            let expected = listed[by_list.index(listed.len())].clone();
            assert_eq!(rules::pick(&s, seat, &mut by_pick), Some(expected.clone()));
            assert_eq!(by_list.next_u32(), by_pick.next_u32());
            let a = listed[policy.index(listed.len())].clone();
            n += 1;
            driver::submit::<Lancaster>(
                &mut s,
                seat,
                &a,
                &mut GameRng::from_u64(n),
                &mut Vec::new(),
            )
            .unwrap();
        }
    }
}
