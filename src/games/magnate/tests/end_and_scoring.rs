//! Drawing and the end of the game (MAG-DRAW, MAG-END), scoring and the winner (MAG-SCORE,
//! MAG-TIE).

use super::*;

/// A finished game's table: no hands, no deeds, every other card discarded.
fn over() -> Pos {
    Pos::new().turn(0, "over").rest(Rest::Discard)
}

fn outcome(p: &Pos) -> Value {
    answer(p, &[])["outcome"].clone()
}

// ---- MAG-DRAW -------------------------------------------------------------------------------

#[test]
fn ending_the_turn_draws_the_top_card() {
    let p = Pos::new().hand(0, &["5ML"]).draw(&["9MS", "2MK"]);
    let a = accepted(&p, &[(0, "S:5ML"), (0, "E")]);
    assert_eq!(hand(&a, 0), vec!["9MS"]);
    assert_eq!(a["position"]["draw_pile"][0], json!("2MK"));
    assert_eq!(a["position"]["final_turns"], json!(null));
}

#[test]
fn the_first_time_the_pile_is_empty_the_discards_become_the_pile_cards_sold_this_turn_included() {
    let p = Pos::new()
        .hand(0, &["9MS"])
        .discard(&["3SK", "6LK"])
        .rest(Rest::Hand(1));
    let a = accepted_with(
        &p,
        &[(0, "S:9MS"), (0, "E")],
        json!({"reshuffle": ["9MS", "3SK", "6LK"]}),
    );
    assert_eq!(hand(&a, 0), vec!["9MS"]);
    assert_eq!(a["position"]["draw_pile"], json!(["3SK", "6LK"]));
    assert_eq!(a["position"]["discard"], json!([]));
    assert_eq!(a["position"]["reshuffled"], json!(true));
    assert_eq!(a["position"]["final_turns"], json!(null));
    assert_eq!(events(&a, "reshuffled")[0]["cards"], json!(3));
    // Shuffled from the seed when no order is given.
    let a = accepted_with(&p, &[(0, "S:9MS"), (0, "E")], json!({"seed": 9}));
    assert_eq!(hand(&a, 0).len(), 1);
    assert_eq!(a["position"]["draw_pile"].as_array().unwrap().len(), 2);
}

#[test]
fn drawing_the_last_card_before_the_reshuffle_starts_no_final_turns() {
    let p = Pos::new()
        .hand(0, &["9MS"])
        .draw(&["2MK"])
        .discard(&["3SK"])
        .rest(Rest::Hand(1));
    let a = accepted(&p, &[(0, "S:9MS"), (0, "E")]);
    assert_eq!(a["position"]["draw_pile"], json!([]));
    assert_eq!(a["position"]["reshuffled"], json!(false));
    assert_eq!(a["position"]["final_turns"], json!(null));
}

#[test]
fn after_the_last_card_is_drawn_the_opponent_then_the_drawer_take_one_final_turn() {
    let p = Pos::new()
        .hand(0, &["9MS", "5ML"])
        .hand(1, &["4VL", "3SK"])
        .built(1, "d", &["4MS"])
        .draw(&["2MK"])
        .reshuffled()
        .rest(Rest::Discard);
    // X (seat 0) draws the last card: Y (seat 1) then X are owed a final turn.
    let a = accepted(&p, &[(0, "S:9MS"), (0, "E")]);
    assert_eq!(hand(&a, 0), vec!["2MK", "5ML"]);
    assert_eq!(a["position"]["final_turns"], json!({"remaining": [1, 0]}));
    assert_eq!(a["outcome"], json!(null));
    // Y's final turn is a complete turn: a roll with income, then a card play.
    refused(
        &p,
        &[(0, "S:9MS"), (0, "E"), (1, "R:3,4"), (1, "E")],
        "MAG-TURN-4",
    );
    let y = [(0, "S:9MS"), (0, "E"), (1, "R:3,4"), (1, "S:4VL"), (1, "E")];
    let a = accepted(&p, &y);
    assert_eq!(income(&a, 1), json!({"M": 1, "S": 1}));
    assert_eq!(events(&a, "drew_nothing")[0]["seat"], json!(1));
    assert_eq!(a["position"]["final_turns"], json!({"remaining": [0]}));
    assert_eq!(a["position"]["turn"]["seat"], json!(0));
    assert_eq!(a["outcome"], json!(null));
    // X's final turn ends the game.
    let mut all = y.to_vec();
    all.extend([(0, "R:3,4"), (0, "S:5ML"), (0, "E")]);
    let a = accepted(&p, &all);
    assert_eq!(a["position"]["turn"]["phase"], json!("over"));
    assert_eq!(a["outcome"]["winners"], json!([1]));
    assert_eq!(events(&a, "game_over").len(), 1);
}

#[test]
fn a_reshuffle_of_an_empty_discard_makes_this_the_final_turn_and_the_opponent_has_one_more() {
    let p = Pos::new()
        .hand(0, &["5ML"])
        .supply(0, json!({"M": 1, "L": 1}))
        .rest(Rest::Hand(1));
    let a = accepted(&p, &[(0, "D:5ML@d"), (0, "E")]);
    assert_eq!(a["position"]["reshuffled"], json!(true));
    assert_eq!(events(&a, "reshuffled")[0]["cards"], json!(0));
    assert_eq!(events(&a, "drew_nothing")[0]["seat"], json!(0));
    assert_eq!(a["position"]["final_turns"], json!({"remaining": [1]}));
    let a = accepted(
        &p,
        &[
            (0, "D:5ML@d"),
            (0, "E"),
            (1, "R:3,4"),
            (1, "S:9VY"),
            (1, "E"),
        ],
    );
    assert_eq!(a["position"]["turn"]["phase"], json!("over"));
    assert!(a["outcome"].is_object());
}

#[test]
fn the_reshuffle_happens_only_once() {
    let p = Pos::new()
        .hand(0, &["5ML"])
        .reshuffled()
        .discard(&["3SK"])
        .rest(Rest::Hand(1));
    let a = accepted(&p, &[(0, "S:5ML"), (0, "E")]);
    assert_eq!(a["position"]["discard"], json!(["3SK", "5ML"]));
    assert!(hand(&a, 0).is_empty());
    assert!(events(&a, "reshuffled").is_empty());
    assert_eq!(a["position"]["final_turns"], json!({"remaining": [1]}));
}

// ---- MAG-END --------------------------------------------------------------------------------

#[test]
fn at_the_end_hands_are_discarded_and_unfinished_deeds_removed_with_their_tokens() {
    let p = Pos::new()
        .hand(0, &["9MS", "4VL"])
        .hand(1, &["3SK"])
        .deed(0, "b", "7VY", json!({"V": 3}))
        .built(0, "d", &["5ML"])
        .reshuffled()
        .final_turns(&[0])
        .rest(Rest::Discard);
    let a = accepted(&p, &[(0, "S:9MS"), (0, "E")]);
    let pos = &a["position"];
    assert_eq!(pos["turn"]["phase"], json!("over"));
    assert!(hand(&a, 0).is_empty() && hand(&a, 1).is_empty());
    assert_eq!(column(&a, 0, "b"), json!([]));
    let discard: Vec<&str> = pos["discard"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    for c in ["9MS", "4VL", "3SK", "7VY"] {
        assert!(discard.contains(&c), "{c} discarded");
    }
    assert_eq!(
        supply(&a, 0),
        json!({"M": 1, "S": 1}),
        "the deed's tokens are gone"
    );
    let over = &events(&a, "game_over")[0];
    assert_eq!(over["removed_deeds"], json!(["7VY"]));
    assert_eq!(over["hands"], json!([["4VL"], ["3SK"]]));
    assert_eq!(a["score"]["districts"]["b"], json!([0, 0]));
    assert_eq!(
        a["outcome"],
        json!({"winners": [0], "tiebreak": "district_points"})
    );
}

#[test]
fn once_the_game_is_over_every_action_is_refused() {
    let p = over().built(0, "d", &["5ML"]);
    for action in ["S:9MS", "E", "R:3,4", "T:M3+V", "P:5ML+M"] {
        refused(&p, &[(0, action)], "MAG-END-4");
        refused(&p, &[(1, action)], "MAG-END-4");
    }
}

#[test]
fn tokens_on_a_deed_removed_at_the_end_do_not_count_for_the_tie_break() {
    let p = Pos::new()
        .hand(0, &["9MS"])
        .deed(0, "b", "7VY", json!({"V": 6}))
        .supply(1, json!({"K": 3}))
        .reshuffled()
        .final_turns(&[0])
        .rest(Rest::Discard);
    let a = accepted(&p, &[(0, "S:9MS"), (0, "E")]);
    assert_eq!(a["score"]["tokens"], json!([2, 3]));
    assert_eq!(a["outcome"], json!({"winners": [1], "tiebreak": "tokens"}));
}

// ---- MAG-SCORE ------------------------------------------------------------------------------

#[test]
fn an_ace_of_wyrms_with_the_3_5_and_8_of_wyrms_is_worth_4_making_the_district_20() {
    let p = over()
        .built(0, "a", &["3LY", "5YK", "8YK", "1Y"])
        .built(0, "c", &["1M"]);
    let s = &answer(&p, &[])["score"];
    assert_eq!(s["districts"]["a"], json!([20, 0]));
    assert_eq!(
        s["districts"]["c"],
        json!([1, 0]),
        "an Ace of Moons alone is worth 1"
    );
}

#[test]
fn an_ace_counts_only_cards_bearing_its_own_suit_on_its_owners_side() {
    let p = over()
        .built(0, "b", &["9VY", "2VL", "1V"])
        .built(0, "c", &["1S", "1L"])
        .built(1, "b", &["7VY", "4VL"]);
    let s = &answer(&p, &[])["score"];
    assert_eq!(s["districts"]["b"], json!([9 + 2 + 3, 7 + 4]));
    assert_eq!(
        s["districts"]["c"],
        json!([2, 0]),
        "a second Ace does not bear the suit"
    );
}

#[test]
fn a_district_total_is_the_sum_of_completed_properties_only() {
    let p = Pos::new()
        .built(0, "d", &["5ML", "7ML"])
        .deed(0, "b", "9VY", json!({"V": 8}))
        .hand(0, &["9MS"])
        .supply(0, json!({"M": 20}));
    let s = &answer(&p, &[])["score"];
    assert_eq!(s["districts"]["d"], json!([12, 0]));
    assert_eq!(s["districts"]["b"], json!([0, 0]), "a deed never scores");
    assert_eq!(s["district_points"], json!([1, 0]));
    assert_eq!(s["totals"], json!([12, 0]));
    assert_eq!(s["tokens"], json!([20, 0]));
}

#[test]
fn more_districts_win_even_with_a_lower_total_and_equal_districts_score_for_nobody() {
    let p = over()
        .built(0, "a", &["5YK"])
        .built(0, "b", &["3LY"])
        .built(0, "e", &["6MV"])
        .built(1, "a", &["4YK"])
        .built(1, "b", &["2VL"])
        .built(1, "d", &["9MS", "8MS"])
        .built(1, "e", &["4MS", "2MK"]);
    let a = answer(&p, &[]);
    assert_eq!(a["score"]["districts"]["e"], json!([6, 6]));
    assert_eq!(a["score"]["districts"]["c"], json!([0, 0]));
    assert_eq!(a["score"]["district_points"], json!([2, 1]));
    assert_eq!(a["score"]["totals"], json!([14, 29]));
    assert_eq!(
        a["outcome"],
        json!({"winners": [0], "tiebreak": "district_points"})
    );
}

#[test]
fn equal_district_points_go_to_the_higher_overall_total() {
    let p = over()
        .built(0, "a", &["9LK"])
        .built(1, "d", &["5ML"])
        .supply(1, json!({"M": 9}));
    assert_eq!(outcome(&p), json!({"winners": [0], "tiebreak": "totals"}));
}

#[test]
fn equal_totals_go_to_the_player_with_more_tokens() {
    let p = over()
        .built(0, "a", &["5YK"])
        .built(1, "d", &["5ML"])
        .supply(0, json!({"M": 1}))
        .supply(1, json!({"S": 1, "L": 1}));
    assert_eq!(outcome(&p), json!({"winners": [1], "tiebreak": "tokens"}));
}

#[test]
fn equal_tokens_too_make_a_shared_victory() {
    let p = over()
        .built(0, "a", &["5YK"])
        .built(1, "d", &["5ML"])
        .supply(0, json!({"M": 2}))
        .supply(1, json!({"S": 1, "L": 1}));
    assert_eq!(
        outcome(&p),
        json!({"winners": [0, 1], "tiebreak": "shared"})
    );
}

#[test]
fn five_empty_districts_are_decided_by_tokens_then_shared() {
    let p = over().supply(1, json!({"K": 1}));
    let a = answer(&p, &[]);
    assert_eq!(a["score"]["district_points"], json!([0, 0]));
    assert_eq!(a["outcome"], json!({"winners": [1], "tiebreak": "tokens"}));
    assert_eq!(
        outcome(&over()),
        json!({"winners": [0, 1], "tiebreak": "shared"})
    );
}

#[test]
fn a_game_in_progress_has_a_standing_but_no_outcome() {
    let a = answer(&Pos::new().built(0, "a", &["5YK"]), &[]);
    assert_eq!(a["outcome"], json!(null));
    assert_eq!(a["score"]["district_points"], json!([1, 0]));
}
