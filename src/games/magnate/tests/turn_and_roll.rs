//! Setup (MAG-SETUP), the turn (MAG-TURN), the roll, taxation and income (MAG-ROLL, MAG-TAX,
//! MAG-INC), and the dice (MAG-COMP-3/4).

use super::*;
use crate::engine::{Game, GameRng, Seat};
use crate::games::magnate::cards::Rank;
use crate::games::magnate::options::{Rules, StartPlayer};
use crate::games::magnate::setup::setup;
use crate::games::magnate::state::Phase;
use crate::games::magnate::turn::Dice;
use crate::games::magnate::{Event, Magnate};

// ---- MAG-SETUP ----------------------------------------------------------------------------

fn set_up(rules: &Rules, seed: u64) -> State {
    setup(
        rules,
        &mut GameRng::from_u64(seed),
        &mut Vec::new(),
        Dice::Manual,
    )
}

#[test]
fn the_excuse_is_the_centre_district_and_the_four_pawns_surround_it() {
    let mut orders = std::collections::BTreeSet::new();
    for seed in 0..30 {
        let s = set_up(&Rules::standard(), seed);
        let [a, b, c, d, e] = s.districts.0;
        assert_eq!(c, Card::EXCUSE);
        let mut outer = vec![a, b, d, e];
        assert!(outer.iter().all(|x| x.rank() == Rank::Pawn));
        orders.insert(format!("{outer:?}"));
        outer.sort();
        outer.dedup();
        assert_eq!(outer.len(), 4, "four different Pawns");
    }
    assert!(orders.len() > 5, "the Pawns are laid in random order");
}

#[test]
fn each_player_starts_with_three_crowns_one_token_per_crown_and_three_secret_cards() {
    for seed in 0..10 {
        let s = set_up(&Rules::standard(), seed);
        for seat in [Seat(0), Seat(1)] {
            let p = &s.players[seat];
            assert_eq!(p.crowns.len(), 3);
            assert!(p.crowns.iter().all(|c| c.rank() == Rank::Crown));
            let mut want = crate::games::magnate::tokens::Tokens::NONE;
            for c in p.crowns.iter() {
                for suit in c.suits().iter() {
                    want.add(suit, 1);
                }
            }
            assert_eq!(p.supply, want, "one token of each Crown's suit");
            assert_eq!(p.supply.total(), 3);
            assert_eq!(p.hand.len(), 3);
            assert!(p.placed().next().is_none());
        }
        assert_eq!(s.draw_pile.len(), 24, "30 property cards less six dealt");
        assert!(s.discard.is_empty());
        assert!(!s.reshuffled);
        assert!(s.final_turns.is_none());
        assert_eq!(s.turn.phase, Phase::Roll);
    }
}

#[test]
fn the_start_player_is_random_by_default_and_seat_0_with_first_seat() {
    let mut starters = std::collections::BTreeSet::new();
    for seed in 0..40 {
        starters.insert(set_up(&Rules::standard(), seed).turn.seat);
    }
    assert_eq!(starters.len(), 2, "both seats start some games");
    let mut first = Rules::standard();
    first.start_player = StartPlayer::FirstSeat;
    let mut host = Rules::standard();
    host.start_player = StartPlayer::HostChooses;
    host.start_seat = 1;
    for seed in 0..20 {
        assert_eq!(set_up(&first, seed).turn.seat, Seat(0));
        assert_eq!(set_up(&host, seed).turn.seat, Seat(1));
    }
}

/// Chance that never shuffles and always rolls 1: the deck stays in table order.
struct Unshuffled;

impl crate::games::magnate::turn::Chance for Unshuffled {
    fn die(&mut self, _sides: u8) -> u8 {
        1
    }
    fn reshuffle(&mut self, _cards: &mut [Card]) {}
}

#[test]
fn crowns_and_cards_are_dealt_alternately_starting_with_the_start_player() {
    let mut rules = Rules::standard();
    rules.start_player = StartPlayer::HostChooses;
    rules.start_seat = 1;
    let s = setup(&rules, &mut Unshuffled, &mut Vec::new(), Dice::Manual);
    let codes = |seat: u8, crowns: bool| -> Vec<&str> {
        let p = &s.players[Seat(seat)];
        let set = if crowns { p.crowns } else { p.hand };
        set.iter().map(|c| c.code()).collect()
    };
    assert_eq!(s.turn.seat, Seat(1));
    assert_eq!(codes(1, true), vec!["NM", "NV", "NY"]);
    assert_eq!(codes(0, true), vec!["NS", "NL", "NK"]);
    // The top of the pile is the end of the table: the Merchant goes to the start player.
    assert_eq!(codes(1, false), vec!["8VL", "9MS", "9LK"]);
    assert_eq!(codes(0, false), vec!["8MS", "8YK", "9VY"]);
    assert_eq!(
        s.draw_pile.last(),
        Some(&card("7VY")),
        "the next card drawn"
    );
    let codes: Vec<&str> = s.districts.0.iter().map(|c| c.code()).collect();
    assert_eq!(codes, vec!["PMYK", "PVLY", "0", "PMSL", "PSVK"]);
}

#[test]
fn the_first_turn_begins_with_a_normal_roll_by_the_start_player() {
    for seed in 0..10 {
        let mut events = Vec::new();
        let rules = Rules::standard();
        let s = Magnate::setup(&rules, 2, &mut GameRng::from_u64(seed), &mut events).unwrap();
        assert_eq!(s.turn.phase, Phase::Action);
        assert!(!s.turn.card_played);
        let rolled: Vec<_> = events
            .iter()
            .filter_map(|l| match l.event {
                Event::Rolled { seat, .. } => Some(seat),
                _ => None,
            })
            .collect();
        assert_eq!(rolled, vec![s.turn.seat]);
    }
    assert!(
        Magnate::setup(
            &Rules::standard(),
            3,
            &mut GameRng::from_u64(1),
            &mut Vec::new()
        )
        .is_err(),
        "Magnate is for two players"
    );
}

// ---- MAG-TURN -------------------------------------------------------------------------------

#[test]
fn only_the_active_player_may_act() {
    let p = Pos::new().hand(0, &["5ML"]).hand(1, &["4VL"]);
    let a = refused(&p, &[(1, "S:4VL")], "MAG-TURN-5");
    assert!(a["detail"].as_str().unwrap().contains("not your turn"));
    accepted(&p, &[(0, "S:5ML")]);
    refused(&p, &[(1, "T:L3+K")], "MAG-TURN-5");
    refused(&p, &[(0, "S:5ML"), (1, "E")], "MAG-TURN-5");
}

#[test]
fn a_turn_cannot_end_before_its_card_play() {
    let p = Pos::new().hand(0, &["5ML"]).supply(0, json!({"M": 3}));
    refused(&p, &[(0, "E")], "MAG-TURN-4");
    refused(&p, &[(0, "T:M3+V"), (0, "E")], "MAG-TURN-4");
}

#[test]
fn ending_the_turn_draws_and_hands_the_turn_to_the_other_player_before_their_roll() {
    let p = Pos::new().hand(0, &["5ML"]).draw(&["9MS"]);
    let a = accepted(&p, &[(0, "S:5ML"), (0, "E")]);
    assert_eq!(
        a["position"]["turn"],
        json!({"seat": 1, "phase": "roll", "card_played": false})
    );
    assert_eq!(hand(&a, 0), vec!["9MS"]);
    // Players alternate: the next turn is seat 0's again.
    let p = Pos::new().hand(1, &["4VL"]).turn(1, "roll");
    let a = accepted(&p, &[(1, "R:3,4"), (1, "S:4VL"), (1, "E")]);
    assert_eq!(a["position"]["turn"]["seat"], json!(0));
}

#[test]
fn trades_and_developments_interleave_freely_around_the_card_play() {
    let p = Pos::new()
        .hand(0, &["4VL"])
        .deed(0, "d", "5ML", json!({}))
        .supply(0, json!({"M": 4, "V": 2, "L": 3}));
    let a = accepted(
        &p,
        &[
            (0, "A:5ML+M"),
            (0, "T:M3+V"),
            (0, "B:4VL@b+V2+L2"),
            (0, "A:5ML+L"),
        ],
    );
    assert_eq!(supply(&a, 0), json!({"V": 1}));
    assert_eq!(
        column(&a, 0, "d"),
        json!([{"card": "5ML", "deed": {"M": 1, "L": 1}}])
    );
}

#[test]
fn a_submission_may_be_a_lone_trade_or_development_without_the_card_play() {
    let p = Pos::new()
        .hand(0, &["4VL"])
        .deed(0, "d", "5ML", json!({}))
        .supply(0, json!({"M": 4}));
    let a = accepted(&p, &[(0, "T:M3+V")]);
    assert_eq!(
        a["position"]["turn"],
        json!({"seat": 0, "phase": "action", "card_played": false})
    );
    accepted(&p, &[(0, "A:5ML+M")]);
}

#[test]
fn the_dice_are_rolled_once_at_the_start_of_the_turn() {
    let p = Pos::new().turn(0, "roll");
    let a = accepted(&p, &[(0, "R:3,4")]);
    assert_eq!(a["position"]["turn"]["phase"], json!("action"));
    refused(&p, &[(0, "R:3,4"), (0, "R:5,6")], "MAG-TURN-2");
    refused(&Pos::new(), &[(0, "R:3,4")], "MAG-TURN-2");
    refused(&p, &[(1, "R:3,4")], "MAG-TURN-5");
}

#[test]
fn nothing_can_be_done_before_the_roll_so_an_early_trade_comes_after_it() {
    let p = Pos::new().turn(0, "roll").supply(0, json!({"M": 3}));
    let a = accepted_with(&p, &[(0, "T:M3+V")], json!({"seed": 5}));
    let kinds: Vec<&str> = a["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.first(), Some(&"rolled"));
    assert_eq!(kinds.last(), Some(&"traded"));
}

#[test]
fn a_client_cannot_send_a_roll_to_the_server() {
    let mut state = Pos::new().state();
    let before = state.clone();
    let mut events = Vec::new();
    let e = Magnate::apply(
        &mut state,
        Seat(0),
        &"R:3,4".parse().unwrap(),
        &mut GameRng::from_u64(1),
        &mut events,
    )
    .unwrap_err();
    assert_eq!(e.rule, "MAG-TURN-2");
    assert_sentence(&e.detail);
    assert_eq!(state, before);
    assert!(events.is_empty());
}

#[test]
fn the_server_rolls_for_the_next_player_as_soon_as_a_turn_ends() {
    let mut state = Pos::new().hand(0, &["5ML"]).state();
    let mut events = Vec::new();
    let mut rng = GameRng::from_u64(3);
    Magnate::apply(
        &mut state,
        Seat(0),
        &"S:5ML".parse().unwrap(),
        &mut rng,
        &mut events,
    )
    .unwrap();
    Magnate::apply(
        &mut state,
        Seat(0),
        &"E".parse().unwrap(),
        &mut rng,
        &mut events,
    )
    .unwrap();
    assert_eq!(state.turn.seat, Seat(1));
    assert_eq!(state.turn.phase, Phase::Action, "seat 1 may act at once");
    assert!(matches!(
        events.iter().rev().find_map(|l| match l.event {
            Event::Rolled { seat, .. } => Some(seat),
            _ => None,
        }),
        Some(Seat(1))
    ));
}

// ---- MAG-COMP-3/4, MAG-ROLL -----------------------------------------------------------------

#[test]
fn dice_show_one_to_ten_and_one_to_six() {
    let p = Pos::new().turn(0, "roll");
    refused(&p, &[(0, "R:11,3")], "MAG-COMP-3");
    refused(&p, &[(0, "R:0,3")], "MAG-COMP-3");
    refused(&p, &[(0, "R:1,3/7")], "MAG-COMP-3");
    accepted(&p, &[(0, "R:10,10")]);
    accepted(&p, &[(0, "R:1,3/6")]);
}

#[test]
fn a_tax_die_is_given_exactly_when_a_one_is_rolled() {
    let p = Pos::new().turn(0, "roll");
    refused(&p, &[(0, "R:1,7")], "MAG-ROLL-2");
    refused(&p, &[(0, "R:3,7/4")], "MAG-ROLL-2");
    // Double 1s roll one tax die, not two.
    refused(&p, &[(0, "R:1,1/2,5")], "MAG-ROLL-2");
    accepted(&p, &[(0, "R:1,1/2")]);
}

#[test]
fn the_tax_die_names_the_suits_in_canonical_order() {
    for (face, letter) in (1..=6).zip(["M", "S", "V", "L", "Y", "K"]) {
        let all = json!({"M": 2, "S": 2, "V": 2, "L": 2, "Y": 2, "K": 2});
        let p = Pos::new().turn(0, "roll").supply(0, all.clone());
        let a = accepted(&p, &[(0, &format!("R:1,4/{face}"))]);
        let mut want = all;
        want[letter] = json!(1);
        assert_eq!(supply(&a, 0), want, "d6 {face}");
    }
}

#[test]
fn only_the_higher_die_pays_and_a_double_pays_once() {
    let p = Pos::new()
        .turn(0, "roll")
        .built(0, "b", &["7VY"])
        .built(0, "e", &["3SK"]);
    let a = accepted(&p, &[(0, "R:3,7")]);
    assert_eq!(income(&a, 0), json!({"V": 1, "Y": 1}), "the 3 pays nothing");
    let a = accepted(&p, &[(0, "R:7,7")]);
    assert_eq!(income(&a, 0), json!({"V": 1, "Y": 1}), "a double pays once");
    let a = accepted(&p, &[(0, "R:3,2")]);
    assert_eq!(income(&a, 0), json!({"S": 1, "K": 1}));
}

#[test]
fn dice_are_never_rolled_again_on_a_double() {
    let p = Pos::new().turn(0, "roll");
    let a = accepted(&p, &[(0, "R:5,5")]);
    assert_eq!(events(&a, "rolled").len(), 1);
    assert_eq!(a["position"]["turn"]["phase"], json!("action"));
}

// ---- MAG-TAX --------------------------------------------------------------------------------

#[test]
fn taxation_leaves_both_players_one_token_of_the_taxed_suit() {
    let p = Pos::new()
        .turn(0, "roll")
        .supply(0, json!({"M": 3, "S": 1, "V": 2}))
        .supply(1, json!({"M": 2, "L": 4}));
    let a = accepted(&p, &[(0, "R:1,5/1")]);
    assert_eq!(supply(&a, 0), json!({"M": 1, "S": 1, "V": 2}));
    assert_eq!(
        supply(&a, 1),
        json!({"M": 1, "L": 4}),
        "the roller's opponent too"
    );
    let taxed = events(&a, "taxed");
    assert_eq!(taxed[0]["suits"], json!(["M"]));
    assert_eq!(taxed[0]["lost"], json!([{"M": 2}, {"M": 1}]));
}

#[test]
fn a_player_with_no_token_or_one_token_of_the_taxed_suit_keeps_it() {
    let p = Pos::new()
        .turn(0, "roll")
        .supply(0, json!({"S": 1, "V": 5}))
        .supply(1, json!({"L": 4}));
    let a = accepted(&p, &[(0, "R:1,5/2")]);
    assert_eq!(supply(&a, 0), json!({"S": 1, "V": 5}));
    assert_eq!(supply(&a, 1), json!({"L": 4}));
}

#[test]
fn tokens_on_deeds_are_never_taxed() {
    let p = Pos::new()
        .turn(0, "roll")
        .deed(0, "b", "7VY", json!({"V": 3}))
        .supply(0, json!({"V": 3}));
    let a = accepted(&p, &[(0, "R:1,5/3")]);
    assert_eq!(supply(&a, 0), json!({"V": 1}));
    assert_eq!(column(&a, 0, "b")[0]["deed"], json!({"V": 3}));
}

#[test]
fn a_one_and_a_ten_tax_first_then_pay_the_crowns_untaxed() {
    let p = Pos::new()
        .turn(0, "roll")
        .built(0, "b", &["7VY"])
        .supply(0, json!({"M": 4}))
        .supply(1, json!({"S": 5}));
    let a = accepted(&p, &[(0, "R:1,10/1")]);
    // Moons taxed to 1, then the Crowns of Moons, Waves and Wyrms pay: the new Moon stays.
    assert_eq!(supply(&a, 0), json!({"M": 2, "V": 1, "Y": 1}));
    assert_eq!(supply(&a, 1), json!({"S": 6, "L": 1, "K": 1}));
}

#[test]
fn double_ones_tax_one_suit_then_every_ace_pays_completed_or_deeded() {
    let p = Pos::new()
        .turn(0, "roll")
        .built(0, "c", &["1M"])
        .deed(0, "a", "1Y", json!({"Y": 2}))
        .built(1, "c", &["1S"])
        .built(1, "d", &["2MK"])
        .supply(0, json!({"M": 3, "Y": 3}));
    let a = accepted(&p, &[(0, "R:1,1/1")]);
    assert_eq!(supply(&a, 0), json!({"M": 2, "Y": 4}));
    assert_eq!(supply(&a, 1), json!({"S": 1}));
    assert_eq!(events(&a, "taxed").len(), 1);
}

#[test]
fn with_two_tax_dice_each_named_suit_is_taxed_once() {
    let p = Pos::new()
        .option("tax_dice", json!(2))
        .turn(0, "roll")
        .supply(0, json!({"M": 3, "S": 3, "V": 3}));
    let a = accepted(&p, &[(0, "R:1,6/1,2")]);
    assert_eq!(supply(&a, 0), json!({"M": 1, "S": 1, "V": 3}));
    let a = accepted(&p, &[(0, "R:1,6/3,3")]);
    assert_eq!(supply(&a, 0), json!({"M": 3, "S": 3, "V": 1}));
    let a = refused(&p, &[(0, "R:1,6/3")], "MAG-TAX-5");
    assert!(a["detail"].as_str().unwrap().contains("2 six-sided"));
    // The standard game gives one die only.
    refused(
        &Pos::new().turn(0, "roll"),
        &[(0, "R:1,6/3,3")],
        "MAG-ROLL-2",
    );
}

// ---- MAG-INC --------------------------------------------------------------------------------

#[test]
fn a_ten_pays_each_crown_and_nothing_else() {
    let p = Pos::new().turn(0, "roll").built(0, "b", &["7VY"]);
    let a = accepted(&p, &[(0, "R:10,7")]);
    assert_eq!(income(&a, 0), json!({"M": 1, "V": 1, "Y": 1}));
    assert_eq!(income(&a, 1), json!({"S": 1, "L": 1, "K": 1}));
}

#[test]
fn crowns_pawns_and_cards_in_hand_pay_nothing_on_other_rolls() {
    let p = Pos::new().turn(0, "roll").hand(0, &["5ML"]);
    for roll in ["R:5,3", "R:2,2", "R:9,4"] {
        let a = accepted(&p, &[(0, roll)]);
        assert_eq!(income(&a, 0), json!({}));
        assert_eq!(income(&a, 1), json!({}));
    }
}

#[test]
fn a_completed_property_pays_each_suit_and_a_deed_one_token() {
    let p = Pos::new()
        .turn(0, "roll")
        .built(0, "b", &["7VY"])
        .deed(1, "d", "7ML", json!({}))
        .prefer(1, "d", "L");
    let a = accepted(&p, &[(0, "R:7,2")]);
    assert_eq!(income(&a, 0), json!({"V": 1, "Y": 1}));
    assert_eq!(income(&a, 1), json!({"L": 1}), "both players collect");
}

#[test]
fn a_deed_pays_its_owners_preference() {
    for suit in ["V", "Y"] {
        let p = Pos::new()
            .turn(0, "roll")
            .deed(0, "b", "7VY", json!({}))
            .prefer(0, "b", suit)
            .supply(0, json!({"V": 5}));
        let a = accepted(&p, &[(0, "R:7,2")]);
        assert_eq!(income(&a, 0), json!({ suit: 1 }));
    }
}

#[test]
fn without_a_preference_a_deed_pays_the_suit_held_fewer_of_after_taxation() {
    let with = |tokens: Value, roll: &str| {
        let p = Pos::new()
            .turn(0, "roll")
            .deed(0, "b", "7VY", json!({}))
            .supply(0, tokens);
        income(&accepted(&p, &[(0, roll)]), 0)
    };
    assert_eq!(with(json!({"V": 2, "Y": 1}), "R:7,2"), json!({"Y": 1}));
    assert_eq!(with(json!({"V": 1, "Y": 2}), "R:7,2"), json!({"V": 1}));
    // Equal: the first suit in canonical order (Waves before Wyrms).
    assert_eq!(with(json!({}), "R:7,2"), json!({"V": 1}));
    assert_eq!(with(json!({"V": 3, "Y": 3}), "R:7,2"), json!({"V": 1}));
    // Waves taxed from 3 to 1 first: now Waves are fewer.
    assert_eq!(with(json!({"V": 3, "Y": 2}), "R:7,1/3"), json!({"V": 1}));
}

#[test]
fn a_preference_can_be_set_when_the_deed_is_bought_and_changed_later() {
    let p = Pos::new()
        .hand(0, &["7VY"])
        .supply(0, json!({"V": 1, "Y": 1}));
    let a = accepted(
        &p,
        &[(0, "D:7VY@b"), (0, "P:7VY+Y"), (0, "E"), (1, "R:7,3")],
    );
    assert_eq!(income(&a, 0), json!({"Y": 1}));
    let a = accepted(
        &p,
        &[
            (0, "D:7VY@b"),
            (0, "P:7VY+Y"),
            (0, "E"),
            (0, "P:7VY+V"),
            (1, "R:7,3"),
        ],
    );
    assert_eq!(income(&a, 0), json!({"V": 1}));
}

#[test]
fn a_preference_is_one_suit_of_one_of_your_own_deeds() {
    let p = Pos::new()
        .deed(0, "b", "7VY", json!({}))
        .built(0, "d", &["5ML"])
        .deed(1, "d", "7ML", json!({}));
    refused(&p, &[(0, "P:7VY+M")], "MAG-INC-6");
    refused(&p, &[(0, "P:7ML+M")], "MAG-INC-6");
    refused(&p, &[(0, "P:5ML+M")], "MAG-INC-6");
    refused(&p, &[(0, "P:9MS+M")], "MAG-INC-6");
    let a = accepted(&p, &[(0, "P:7VY+Y"), (1, "P:7ML+M")]);
    assert_eq!(column(&a, 0, "b")[0]["prefer"], json!("Y"));
    assert_eq!(column(&a, 1, "d")[0]["prefer"], json!("M"));
}

#[test]
fn a_property_created_this_turn_earns_nothing_from_this_turns_roll() {
    let p = Pos::new()
        .turn(0, "roll")
        .hand(0, &["4VL"])
        .supply(0, json!({"V": 2, "L": 2}));
    let a = accepted(&p, &[(0, "R:4,2"), (0, "B:4VL@b+V2+L2")]);
    assert_eq!(income(&a, 0), json!({}));
    assert_eq!(supply(&a, 0), json!({}));
}

#[test]
fn a_deed_completed_after_the_roll_was_paid_as_a_deed() {
    let p = Pos::new()
        .turn(0, "roll")
        .deed(0, "b", "4VL", json!({"V": 3}))
        .prefer(0, "b", "L")
        .supply(0, json!({"V": 1}));
    let a = accepted(&p, &[(0, "R:4,2"), (0, "A:4VL+V")]);
    assert_eq!(income(&a, 0), json!({"L": 1}));
    assert_eq!(supply(&a, 0), json!({"L": 1}));
    assert_eq!(column(&a, 0, "b"), json!([{"card": "4VL"}]));
}
