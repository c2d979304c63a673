//! Card plays (MAG-PLAY, MAG-PAY, MAG-BUILD, MAG-PLACE, MAG-DEED, MAG-SELL) and the order in
//! which an action breaking several rules is reported (MAG-PLAY-4).

use super::*;
use crate::engine::Seat;
use crate::games::magnate::Action;
use crate::games::magnate::legal::legal_actions;

fn listed(p: &Pos) -> Vec<String> {
    legal_actions(&p.state(), Seat(0))
        .iter()
        .map(Action::to_string)
        .collect()
}

// ---- MAG-PLAY -------------------------------------------------------------------------------

#[test]
fn a_turn_has_exactly_one_card_play() {
    let p = Pos::new()
        .hand(0, &["5ML", "4VL", "1Y"])
        .supply(0, json!({"V": 2, "L": 2, "Y": 1}));
    refused(&p, &[(0, "S:5ML"), (0, "S:4VL")], "MAG-PLAY-1");
    refused(&p, &[(0, "S:5ML"), (0, "B:4VL@b+V2+L2")], "MAG-PLAY-1");
    refused(&p, &[(0, "B:4VL@b+V2+L2"), (0, "D:1Y@a")], "MAG-PLAY-1");
    let a = accepted(&p, &[(0, "S:5ML")]);
    assert_eq!(a["position"]["turn"]["card_played"], json!(true));
}

#[test]
fn the_card_played_must_be_in_your_hand() {
    let p = Pos::new()
        .hand(0, &["5ML"])
        .hand(1, &["9MS"])
        .supply(0, json!({"M": 9, "S": 9}));
    let a = refused(&p, &[(0, "S:9MS")], "MAG-PLAY-5");
    assert_eq!(a["detail"], json!("9MS is not in your hand."));
    refused(&p, &[(0, "B:9MS@d+M5+S4")], "MAG-PLAY-5");
    refused(&p, &[(0, "D:9MS@d")], "MAG-PLAY-5");
    accepted(&p, &[(0, "S:5ML")]);
}

#[test]
fn a_player_who_can_place_nothing_must_sell() {
    // No tokens: the only card plays listed are the sales, and a sale is accepted.
    let p = Pos::new().hand(0, &["9LK", "8YK"]);
    assert_eq!(listed(&p), vec!["S:8YK", "S:9LK"]);
    accepted(&p, &[(0, "S:9LK"), (0, "E")]);
}

#[test]
fn with_an_empty_hand_the_turn_may_end_without_a_card_play() {
    let p = Pos::new().draw(&["2MK"]);
    assert_eq!(listed(&p), vec!["E"]);
    let a = accepted(&p, &[(0, "E")]);
    assert_eq!(hand(&a, 0), vec!["2MK"]);
}

// ---- MAG-PAY, MAG-BUILD ---------------------------------------------------------------------

#[test]
fn a_build_costs_exactly_the_rank_and_overpaying_is_refused() {
    let p = Pos::new()
        .hand(0, &["5ML"])
        .supply(0, json!({"M": 3, "L": 3}));
    let a = refused(&p, &[(0, "B:5ML@d+M2+L2")], "MAG-BUILD-1");
    assert!(a["detail"].as_str().unwrap().contains("exactly 5"));
    refused(&p, &[(0, "B:5ML@d+M3+L3")], "MAG-BUILD-1");
    accepted(&p, &[(0, "B:5ML@d+M2+L3")]);
}

#[test]
fn every_token_paid_for_a_build_is_of_the_cards_suits() {
    let p = Pos::new()
        .hand(0, &["5ML"])
        .supply(0, json!({"M": 3, "S": 1, "L": 3}));
    let a = refused(&p, &[(0, "B:5ML@d+M2+S+L2")], "MAG-BUILD-2");
    assert!(a["detail"].as_str().unwrap().contains("Suns"));
}

#[test]
fn a_build_pays_at_least_one_token_of_each_of_the_cards_suits() {
    let p = Pos::new()
        .hand(0, &["5ML", "1Y"])
        .supply(0, json!({"M": 5, "Y": 3}));
    let a = refused(&p, &[(0, "B:5ML@d+M5")], "MAG-BUILD-3");
    assert!(a["detail"].as_str().unwrap().contains("Leaves"));
    // An Ace has one suit, so three of it is enough.
    accepted(&p, &[(0, "B:1Y@a+Y3")]);
}

#[test]
fn a_payment_comes_from_the_supply_and_never_from_tokens_on_a_deed() {
    let p = Pos::new()
        .hand(0, &["4VL"])
        .deed(0, "b", "7VY", json!({"V": 4}))
        .supply(0, json!({"V": 1, "L": 3}));
    let a = refused(&p, &[(0, "B:4VL@d+V2+L2")], "MAG-PAY-1");
    assert!(a["detail"].as_str().unwrap().contains("Waves"));
    let a = accepted(&p, &[(0, "B:4VL@d+V1+L3")]);
    assert_eq!(supply(&a, 0), json!({}));
}

#[test]
fn a_built_card_leaves_the_hand_and_its_payment_goes_to_the_bank() {
    let p = Pos::new()
        .hand(0, &["4VL", "9MS"])
        .supply(0, json!({"M": 1, "V": 2, "L": 3}));
    let a = accepted(&p, &[(0, "B:4VL@b+V2+L2")]);
    assert_eq!(column(&a, 0, "b"), json!([{"card": "4VL"}]));
    assert_eq!(hand(&a, 0), vec!["9MS"]);
    assert_eq!(supply(&a, 0), json!({"M": 1, "L": 1}));
    let built = events(&a, "built");
    assert_eq!(built[0]["payment"], json!({"V": 2, "L": 2}));
}

#[test]
fn the_sailor_can_be_paid_only_as_v1_l3_v2_l2_or_v3_l1() {
    let p = Pos::new()
        .hand(0, &["4VL"])
        .supply(0, json!({"M": 1, "V": 4, "L": 4}));
    for pay in ["V+L3", "V2+L2", "V3+L"] {
        accepted(&p, &[(0, &format!("B:4VL@b+{pay}"))]);
    }
    refused(&p, &[(0, "B:4VL@b+V4")], "MAG-BUILD-3");
    refused(&p, &[(0, "B:4VL@b+L4")], "MAG-BUILD-3");
    refused(&p, &[(0, "B:4VL@b+V2+L")], "MAG-BUILD-1");
    refused(&p, &[(0, "B:4VL@b+M+V+L2")], "MAG-BUILD-2");
    let builds_in_b: Vec<String> = listed(&p)
        .into_iter()
        .filter(|a| a.starts_with("B:4VL@b"))
        .collect();
    assert_eq!(
        builds_in_b,
        vec!["B:4VL@b+V+L3", "B:4VL@b+V2+L2", "B:4VL@b+V3+L"]
    );
}

// ---- MAG-PLACE ------------------------------------------------------------------------------

#[test]
fn a_card_goes_on_top_of_your_own_column() {
    let p = Pos::new()
        .hand(0, &["4VL"])
        .built(0, "b", &["8VL"])
        .built(1, "b", &["9VY"])
        .supply(0, json!({"V": 2, "L": 2}));
    let a = accepted(&p, &[(0, "B:4VL@b+V2+L2")]);
    assert_eq!(
        column(&a, 0, "b"),
        json!([{"card": "8VL"}, {"card": "4VL"}])
    );
    assert_eq!(column(&a, 1, "b"), json!([{"card": "9VY"}]));
}

#[test]
fn a_first_card_must_share_a_suit_with_the_pawn() {
    let p = Pos::new()
        .hand(0, &["5SV"])
        .supply(0, json!({"S": 3, "V": 2}));
    let a = refused(&p, &[(0, "B:5SV@a+S3+V2")], "MAG-PLACE-2");
    assert!(a["detail"].as_str().unwrap().contains("the Watchman"));
    refused(&p, &[(0, "D:5SV@a")], "MAG-PLACE-2");
    accepted(&p, &[(0, "B:5SV@e+S3+V2")]);
    accepted(&p, &[(0, "D:5SV@d")]);
}

#[test]
fn any_card_may_be_the_first_in_the_excuse_district_an_ace_included() {
    for (card, pay) in [("5SV", "S3+V2"), ("1S", "S3")] {
        let p = Pos::new()
            .hand(0, &[card])
            .supply(0, json!({"S": 3, "V": 2}));
        let a = accepted(&p, &[(0, &format!("B:{card}@c+{pay}"))]);
        assert_eq!(column(&a, 0, "c"), json!([{ "card": card }]));
    }
    let p = Pos::new()
        .built(0, "c", &["1S"])
        .turn(0, "over")
        .rest(Rest::Discard);
    assert_eq!(answer(&p, &[])["score"]["districts"]["c"], json!([1, 0]));
}

#[test]
fn a_later_card_must_share_a_suit_with_the_last_card_of_your_column() {
    // Column d (the Harvest, Moons Suns Leaves): the Forest, then the Origin (Waves Leaves).
    let p = Pos::new()
        .hand(0, &["9MS", "8VL"])
        .built(0, "d", &["5ML", "2VL"])
        .supply(0, json!({"M": 5, "S": 4, "V": 4, "L": 4}));
    // The Pact shares Moons with the Pawn and the Forest, but not with the Origin on top.
    let a = refused(&p, &[(0, "B:9MS@d+M5+S4")], "MAG-PLACE-3");
    assert!(a["detail"].as_str().unwrap().contains("the Origin"));
    accepted(&p, &[(0, "B:8VL@d+V4+L4")]);
}

#[test]
fn no_card_goes_where_you_have_an_unfinished_deed() {
    let p = Pos::new()
        .hand(0, &["7ML"])
        .deed(0, "d", "5ML", json!({"M": 1}))
        .supply(0, json!({"M": 4, "L": 3}));
    refused(&p, &[(0, "B:7ML@d+M4+L3")], "MAG-PLACE-4");
    refused(&p, &[(0, "D:7ML@d")], "MAG-PLACE-4");
    accepted(&p, &[(0, "D:7ML@a")]);
}

#[test]
fn the_opponents_cards_and_deeds_neither_help_nor_block_you() {
    let p = Pos::new()
        .hand(0, &["5YK", "9MS"])
        .built(1, "a", &["9VY"])
        .built(1, "b", &["3MV"])
        .deed(1, "b", "6MV", json!({}))
        .supply(0, json!({"Y": 3, "K": 2, "M": 1, "S": 1}));
    accepted(&p, &[(0, "B:5YK@a+Y3+K2")]);
    // The opponent's Moons cards in b do not open b to the Pact.
    refused(&p, &[(0, "D:9MS@b")], "MAG-PLACE-2");
}

#[test]
fn a_card_with_no_legal_district_can_still_be_sold() {
    // The Desert (Suns Wyrms) shares no suit with the top of any of seat 0's columns.
    let p = Pos::new()
        .hand(0, &["2SY"])
        .built(0, "a", &["2MK"])
        .built(0, "b", &["2VL"])
        .built(0, "c", &["3MV"])
        .built(0, "d", &["5ML"])
        .built(0, "e", &["6MV"])
        .supply(0, json!({"S": 1, "Y": 1}));
    assert_eq!(listed(&p), vec!["S:2SY"]);
    refused(&p, &[(0, "B:2SY@a+S+Y")], "MAG-PLACE-3");
    accepted(&p, &[(0, "S:2SY")]);
}

// ---- MAG-DEED -------------------------------------------------------------------------------

#[test]
fn a_deed_costs_one_token_of_each_suit_and_starts_with_no_development() {
    let p = Pos::new()
        .hand(0, &["9VY"])
        .supply(0, json!({"V": 1, "Y": 2}));
    let a = accepted(&p, &[(0, "D:9VY@b")]);
    assert_eq!(supply(&a, 0), json!({"Y": 1}));
    assert_eq!(column(&a, 0, "b"), json!([{"card": "9VY", "deed": {}}]));
    assert!(hand(&a, 0).is_empty());
    assert_eq!(events(&a, "deeded")[0]["price"], json!({"V": 1, "Y": 1}));
    let p = Pos::new().hand(0, &["9VY"]).supply(0, json!({"V": 1}));
    let a = refused(&p, &[(0, "D:9VY@b")], "MAG-PAY-1");
    assert!(a["detail"].as_str().unwrap().contains("Wyrms"));
}

#[test]
fn an_ace_deed_costs_one_token_of_its_suit_by_default() {
    let p = Pos::new().hand(0, &["1Y"]).supply(0, json!({"Y": 1}));
    let a = accepted(&p, &[(0, "D:1Y@a")]);
    assert_eq!(supply(&a, 0), json!({}));
    refused(&Pos::new().hand(0, &["1Y"]), &[(0, "D:1Y@a")], "MAG-PAY-1");
}

#[test]
fn a_rank_two_card_cannot_be_deeded_by_default() {
    let p = Pos::new()
        .hand(0, &["2VL"])
        .supply(0, json!({"V": 1, "L": 1}));
    let a = refused(&p, &[(0, "D:2VL@b")], "MAG-DEED-3");
    assert!(a["detail"].as_str().unwrap().contains("rank 2"));
    accepted(&p, &[(0, "B:2VL@b+V+L")]);
    assert!(!listed(&p).iter().any(|a| a.starts_with("D:")));
}

#[test]
fn a_deed_may_be_bought_for_a_card_you_could_build_outright() {
    let p = Pos::new()
        .hand(0, &["9VY"])
        .supply(0, json!({"V": 9, "Y": 9}));
    accepted(&p, &[(0, "D:9VY@b")]);
    assert!(listed(&p).contains(&"D:9VY@b".to_string()));
}

// ---- MAG-SELL -------------------------------------------------------------------------------

#[test]
fn selling_discards_the_card_face_up_for_one_token_of_each_suit() {
    let p = Pos::new().hand(0, &["9VY"]).discard(&["2MK"]);
    let a = accepted(&p, &[(0, "S:9VY")]);
    assert_eq!(supply(&a, 0), json!({"V": 1, "Y": 1}));
    let discard = a["position"]["discard"].as_array().unwrap();
    assert_eq!(discard.last(), Some(&json!("9VY")), "on top of the discard");
    assert!(hand(&a, 0).is_empty());
}

#[test]
fn selling_an_ace_brings_two_tokens_of_its_suit() {
    let a = accepted(&Pos::new().hand(0, &["1Y"]), &[(0, "S:1Y")]);
    assert_eq!(supply(&a, 0), json!({"Y": 2}));
}

#[test]
fn any_card_may_be_sold_even_one_you_could_build() {
    let p = Pos::new()
        .hand(0, &["9VY"])
        .supply(0, json!({"V": 9, "Y": 9}));
    let a = accepted(&p, &[(0, "S:9VY")]);
    assert_eq!(supply(&a, 0), json!({"V": 10, "Y": 10}));
}

// ---- MAG-PLAY-4: the first broken rule in order ---------------------------------------------

#[test]
fn the_turn_check_comes_before_every_card_play_check() {
    let p = Pos::new().hand(1, &["5ML"]).played();
    refused(&p, &[(1, "B:9MS@a+M9")], "MAG-TURN-5");
}

#[test]
fn a_second_card_play_is_reported_before_a_card_not_in_hand() {
    let p = Pos::new().played();
    refused(&p, &[(0, "B:9MS@a+S9")], "MAG-PLAY-1");
}

#[test]
fn a_card_not_in_hand_is_reported_before_its_placement() {
    refused(&Pos::new(), &[(0, "B:9MS@b+S9")], "MAG-PLAY-5");
}

#[test]
fn a_forbidden_deed_is_reported_before_its_placement_and_price() {
    // The Author (Moons Knots) shares nothing with the Borderland, and seat 0 has no tokens.
    let p = Pos::new().hand(0, &["2MK"]);
    refused(&p, &[(0, "D:2MK@b")], "MAG-DEED-3");
    let p = Pos::new()
        .option("ace_deed", json!("forbidden"))
        .hand(0, &["1M"]);
    refused(&p, &[(0, "D:1M@b")], "MAG-DEED-2");
}

#[test]
fn placement_is_reported_before_the_payment() {
    let p = Pos::new().hand(0, &["5ML"]);
    refused(&p, &[(0, "B:5ML@e+S9")], "MAG-PLACE-2");
    refused(&p, &[(0, "D:5ML@e")], "MAG-PLACE-2");
    let p = Pos::new().hand(0, &["5ML"]).deed(0, "d", "7ML", json!({}));
    refused(&p, &[(0, "B:5ML@d+S9")], "MAG-PLACE-4");
}

#[test]
fn the_amount_is_reported_before_the_suits_and_the_suits_before_each_suit() {
    let p = Pos::new().hand(0, &["5ML"]);
    refused(&p, &[(0, "B:5ML@d+S2")], "MAG-BUILD-1");
    refused(&p, &[(0, "B:5ML@d+M4+S")], "MAG-BUILD-2");
    refused(&p, &[(0, "B:5ML@d+M5")], "MAG-BUILD-3");
    refused(&p, &[(0, "B:5ML@d+M4+L")], "MAG-PAY-1");
}
