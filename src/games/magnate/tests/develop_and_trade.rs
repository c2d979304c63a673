//! Developing deeds (MAG-DEV) and trading with the bank (MAG-TRADE).

use super::*;

// ---- MAG-DEV --------------------------------------------------------------------------------

#[test]
fn only_the_owner_develops_a_deed() {
    let p = Pos::new()
        .deed(1, "b", "7VY", json!({}))
        .built(0, "b", &["9VY"])
        .supply(0, json!({"V": 3}));
    let a = refused(&p, &[(0, "A:7VY+V")], "MAG-DEV-1");
    assert!(
        a["detail"]
            .as_str()
            .unwrap()
            .contains("not one of your unfinished deeds")
    );
    // A completed property and a card not on the table are not deeds either.
    refused(&p, &[(0, "A:9VY+V")], "MAG-DEV-1");
    refused(&p, &[(0, "A:8VL+V")], "MAG-DEV-1");
    // The owner cannot develop out of turn.
    let p = Pos::new()
        .deed(1, "b", "7VY", json!({}))
        .supply(1, json!({"V": 3}));
    refused(&p, &[(1, "A:7VY+V")], "MAG-TURN-5");
}

#[test]
fn a_development_puts_at_least_one_token_on_the_deed() {
    let p = Pos::new()
        .deed(0, "b", "7VY", json!({}))
        .supply(0, json!({"V": 3}));
    refused(&p, &[(0, "A:7VY")], "MAG-DEV-1");
    accepted(&p, &[(0, "A:7VY+V")]);
}

#[test]
fn a_deed_may_be_developed_on_the_turn_it_is_bought_before_or_after_other_developments() {
    let p = Pos::new()
        .hand(0, &["7VY"])
        .deed(0, "d", "5ML", json!({}))
        .supply(0, json!({"M": 2, "V": 4, "Y": 2}));
    let a = accepted(
        &p,
        &[
            (0, "A:5ML+M"),
            (0, "D:7VY@b"),
            (0, "A:7VY+V3"),
            (0, "A:7VY+Y"),
            (0, "A:5ML+M"),
        ],
    );
    assert_eq!(column(&a, 0, "b")[0]["deed"], json!({"V": 3, "Y": 1}));
    assert_eq!(column(&a, 0, "d")[0]["deed"], json!({"M": 2}));
    assert_eq!(supply(&a, 0), json!({}));
}

#[test]
fn every_token_on_a_deed_is_of_one_of_its_suits() {
    let p = Pos::new()
        .deed(0, "b", "7VY", json!({}))
        .supply(0, json!({"M": 3, "V": 3}));
    let a = refused(&p, &[(0, "A:7VY+V+M")], "MAG-DEV-2");
    assert!(a["detail"].as_str().unwrap().contains("Moons"));
    let p = p.supply(0, json!({"V": 3, "Y": 1}));
    let a = accepted(&p, &[(0, "A:7VY+V2+Y")]);
    assert_eq!(column(&a, 0, "b")[0]["deed"], json!({"V": 2, "Y": 1}));
}

#[test]
fn a_deed_is_developed_up_to_its_cost_and_no_further() {
    let p = Pos::new()
        .deed(0, "b", "4VL", json!({"V": 3}))
        .supply(0, json!({"V": 2, "L": 2}));
    let a = refused(&p, &[(0, "A:4VL+V2")], "MAG-DEV-4");
    assert!(a["detail"].as_str().unwrap().contains("1 more"));
    refused(&p, &[(0, "A:4VL+V+L")], "MAG-DEV-4");
    accepted(&p, &[(0, "A:4VL+L")]);
}

#[test]
fn a_deed_is_completed_the_moment_its_tokens_reach_the_target_and_they_go_to_the_bank() {
    let p = Pos::new()
        .deed(0, "b", "4VL", json!({"V": 2}))
        .supply(0, json!({"V": 1, "L": 2}));
    let a = accepted(&p, &[(0, "A:4VL+V")]);
    assert_eq!(column(&a, 0, "b")[0]["deed"], json!({"V": 3}));
    let a = accepted(&p, &[(0, "A:4VL+V+L")]);
    assert_eq!(column(&a, 0, "b"), json!([{"card": "4VL"}]));
    assert_eq!(supply(&a, 0), json!({"L": 1}));
    assert_eq!(events(&a, "developed")[0]["completed"], json!(true));
    assert_eq!(a["score"]["districts"]["b"], json!([4, 0]));
}

#[test]
fn a_deed_completed_then_a_card_placed_in_that_district_in_the_same_turn_is_allowed() {
    let p = Pos::new()
        .hand(0, &["7ML"])
        .deed(0, "d", "5ML", json!({"M": 4}))
        .supply(0, json!({"M": 1, "L": 2}));
    let a = accepted(&p, &[(0, "A:5ML+L"), (0, "D:7ML@d")]);
    assert_eq!(
        column(&a, 0, "d"),
        json!([{"card": "5ML"}, {"card": "7ML", "deed": {}}])
    );
    // In that order only.
    refused(&p, &[(0, "D:7ML@d")], "MAG-PLACE-4");
}

#[test]
fn a_completed_deed_pays_as_a_completed_property_on_later_rolls() {
    let p = Pos::new()
        .hand(0, &["9VY"])
        .deed(0, "d", "5ML", json!({"M": 4}))
        .supply(0, json!({"L": 1}));
    let a = accepted(&p, &[(0, "A:5ML+L"), (0, "S:9VY"), (0, "E"), (1, "R:5,3")]);
    assert_eq!(income(&a, 0), json!({"M": 1, "L": 1}));
}

#[test]
fn tokens_on_a_deed_stay_there_and_do_not_count_as_tokens_held() {
    let p = Pos::new()
        .deed(0, "b", "7VY", json!({"V": 3}))
        .supply(0, json!({"Y": 1}));
    let a = answer(&p, &[]);
    assert_eq!(a["score"]["tokens"], json!([1, 0]));
    refused(&p, &[(0, "T:V3+M")], "MAG-PAY-1");
}

#[test]
fn any_mix_of_the_cards_suits_may_develop_a_deed_by_default() {
    let p = Pos::new()
        .deed(0, "b", "4VL", json!({}))
        .supply(0, json!({"V": 4}));
    let a = accepted(&p, &[(0, "A:4VL+V4")]);
    assert_eq!(column(&a, 0, "b"), json!([{"card": "4VL"}]));
}

#[test]
fn a_sailor_deed_takes_six_tokens_in_all_the_mill_ten_and_a_rank_three_card_five() {
    for (card, district, start, steps) in [
        (
            "4VL",
            "b",
            json!({"V": 3, "L": 3}),
            vec!["A:4VL+V2", "A:4VL+L2"],
        ),
        ("8VL", "b", json!({"V": 5, "L": 5}), vec!["A:8VL+V4+L4"]),
        ("3MV", "c", json!({"M": 3, "V": 2}), vec!["A:3MV+M2+V"]),
    ] {
        let total: u64 = start
            .as_object()
            .unwrap()
            .values()
            .map(|n| n.as_u64().unwrap())
            .sum();
        let p = Pos::new().hand(0, &[card]).supply(0, start);
        let deed = format!("D:{card}@{district}");
        let mut actions = vec![(0u8, deed.as_str())];
        actions.extend(steps.iter().map(|s| (0u8, *s)));
        let a = accepted(&p, &actions);
        assert_eq!(supply(&a, 0), json!({}), "{card}: {total} tokens spent");
        assert_eq!(column(&a, 0, district), json!([{ "card": card }]));
    }
}

// ---- MAG-TRADE ------------------------------------------------------------------------------

#[test]
fn a_trade_gives_three_tokens_for_one() {
    let p = Pos::new().supply(0, json!({"M": 7}));
    refused(&p, &[(0, "T:M2+V")], "MAG-TRADE-1");
    refused(&p, &[(0, "T:M4+V")], "MAG-TRADE-1");
    let a = accepted(&p, &[(0, "T:M3+V"), (0, "T:M3+S")]);
    assert_eq!(supply(&a, 0), json!({"M": 1, "S": 1, "V": 1}));
    let t = events(&a, "traded");
    assert_eq!(t.len(), 2);
}

#[test]
fn the_three_tokens_given_are_of_one_suit_by_default() {
    let p = Pos::new().supply(0, json!({"M": 2, "S": 1}));
    let a = refused(&p, &[(0, "T:M2+S+V")], "MAG-TRADE-2");
    assert!(a["detail"].as_str().unwrap().contains("one suit"));
}

#[test]
fn three_tokens_cannot_be_traded_for_one_of_the_same_suit() {
    let p = Pos::new().supply(0, json!({"M": 3}));
    let a = refused(&p, &[(0, "T:M3+M")], "MAG-TRADE-3");
    assert!(a["detail"].as_str().unwrap().contains("Moons"));
}

#[test]
fn a_trade_is_paid_from_the_supply() {
    let p = Pos::new().supply(0, json!({"M": 2}));
    refused(&p, &[(0, "T:M3+V")], "MAG-PAY-1");
}

#[test]
fn only_the_active_player_trades() {
    let p = Pos::new().supply(1, json!({"M": 3}));
    refused(&p, &[(1, "T:M3+V")], "MAG-TURN-5");
}

// ---- MAG-PLAY-4 for DEVELOP and TRADE -------------------------------------------------------

#[test]
fn a_development_reports_owner_then_suits_then_overpayment_then_each_suit_then_holdings() {
    let p = Pos::new()
        .deed(0, "b", "4VL", json!({"V": 2}))
        .deed(1, "b", "9VY", json!({}));
    refused(&p, &[(0, "A:9VY+K9")], "MAG-DEV-1");
    refused(&p, &[(0, "A:4VL+M5")], "MAG-DEV-2");
    refused(&p, &[(0, "A:4VL+V3")], "MAG-DEV-4");
    let each = p.clone().option("deed_dev_each_suit", json!(true));
    refused(&each, &[(0, "A:4VL+V3")], "MAG-DEV-4");
    refused(&each, &[(0, "A:4VL+V2")], "MAG-DEV-7");
    refused(&each, &[(0, "A:4VL+V")], "MAG-PAY-1");
    refused(&p, &[(0, "A:4VL+V2")], "MAG-PAY-1");
}

#[test]
fn a_trade_reports_one_suit_before_same_suit_before_holdings() {
    let p = Pos::new();
    refused(&p, &[(0, "T:M+S+V+M")], "MAG-TRADE-2");
    refused(&p, &[(0, "T:M3+M")], "MAG-TRADE-3");
    refused(&p, &[(0, "T:M3+S")], "MAG-PAY-1");
}
