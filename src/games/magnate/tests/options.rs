//! Every option and preset that changes a rule (MAG-OPT, spec section 14), and the Courts
//! (MAG-COURT).

use super::*;
use crate::engine::{GameRng, Seat};
use crate::games::magnate::cards::Rank;
use crate::games::magnate::options::{
    AceDeed, AceScoring, AutoPick, DistrictCards, ForbidAllow, Rules, StartPlayer, TiebreakTotal,
    TradeRule,
};
use crate::games::magnate::setup::setup;
use crate::games::magnate::turn::Dice;

fn resolved(options: Value) -> Rules {
    serde_json::from_value::<Options>(options)
        .unwrap()
        .resolve()
        .unwrap()
}

#[test]
fn each_preset_sets_the_switches_of_its_source_and_leaves_the_rest_at_the_default() {
    let standard = resolved(json!({}));
    assert_eq!(standard, Rules::standard());
    let es = resolved(json!({"preset": "es"}));
    assert_eq!(
        (
            es.ace_build_cost,
            es.ace_deed,
            es.ace_scoring,
            es.trade,
            es.tiebreak_total
        ),
        (
            1,
            AceDeed::Forbidden,
            AceScoring::Flat,
            TradeRule::AnyThree,
            TiebreakTotal::Raw
        )
    );
    assert!(!es.courts && es.deed_on_two == ForbidAllow::Forbid);
    let it = resolved(json!({"preset": "it"}));
    assert_eq!(it.deed_on_two, ForbidAllow::Allow);
    assert_eq!(it.ace_deed, AceDeed::One);
    let fr = resolved(json!({"preset": "fr"}));
    assert_eq!(
        (fr.ace_deed, fr.deed_on_two),
        (AceDeed::TwoSame, ForbidAllow::Allow)
    );
    let ap = resolved(json!({"preset": "abstractplay"}));
    assert!(ap.courts && ap.deed_dev_each_suit);
    assert_eq!(
        (ap.trade_same_suit, ap.auto_pick, ap.start_player),
        (ForbidAllow::Allow, AutoPick::Ap, StartPlayer::FirstSeat)
    );
    assert_eq!(ap.ace_scoring, AceScoring::SuitCount);
    assert_eq!(ap.district_cards, DistrictCards::Pawns);
    // A switch given with a preset wins over the preset.
    let r = resolved(json!({"preset": "es", "ace_deed": "one"}));
    assert_eq!((r.ace_deed, r.ace_build_cost), (AceDeed::One, 1));
}

// ---- ace_build_cost, ace_deed, deed_on_two ---------------------------------------------------

#[test]
fn with_ace_build_cost_1_an_ace_costs_one_token_and_its_deed_target_is_one() {
    let p = Pos::new()
        .option("ace_build_cost", json!(1))
        .hand(0, &["1Y"])
        .supply(0, json!({"Y": 3}));
    accepted(&p, &[(0, "B:1Y@a+Y")]);
    refused(&p, &[(0, "B:1Y@a+Y3")], "MAG-BUILD-1");
    let a = accepted(&p, &[(0, "D:1Y@a"), (0, "A:1Y+Y")]);
    assert_eq!(column(&a, 0, "a"), json!([{"card": "1Y"}]));
    assert_eq!(supply(&a, 0), json!({"Y": 1}));
    refused(&p, &[(0, "D:1Y@a"), (0, "A:1Y+Y2")], "MAG-DEV-4");
    // The standard game charges 3 and develops an Ace deed up to 3.
    let p = Pos::new().hand(0, &["1Y"]).supply(0, json!({"Y": 4}));
    refused(&p, &[(0, "B:1Y@a+Y")], "MAG-BUILD-1");
    let a = accepted(&p, &[(0, "D:1Y@a"), (0, "A:1Y+Y3")]);
    assert_eq!(
        column(&a, 0, "a"),
        json!([{"card": "1Y"}]),
        "4 tokens in all"
    );
}

#[test]
fn with_ace_deed_two_same_an_ace_deed_costs_two_tokens_of_its_suit() {
    let p = Pos::new()
        .option("ace_deed", json!("two_same"))
        .hand(0, &["1Y"]);
    refused(
        &p.clone().supply(0, json!({"Y": 1})),
        &[(0, "D:1Y@a")],
        "MAG-PAY-1",
    );
    let a = accepted(&p.supply(0, json!({"Y": 2})), &[(0, "D:1Y@a")]);
    assert_eq!(supply(&a, 0), json!({}));
    assert_eq!(events(&a, "deeded")[0]["price"], json!({"Y": 2}));
}

#[test]
fn with_ace_deed_forbidden_an_ace_is_built_or_sold_only() {
    let p = Pos::new()
        .option("ace_deed", json!("forbidden"))
        .hand(0, &["1Y"])
        .supply(0, json!({"Y": 3}));
    let a = refused(&p, &[(0, "D:1Y@a")], "MAG-DEED-2");
    assert!(a["detail"].as_str().unwrap().contains("Ace"));
    let listed = crate::games::magnate::legal::legal_actions(&p.state(), Seat(0));
    assert!(!listed.iter().any(|a| a.to_string().starts_with("D:")));
    accepted(&p, &[(0, "B:1Y@a+Y3")]);
}

#[test]
fn with_deed_on_two_allowed_a_rank_two_deed_costs_two_and_takes_two_more() {
    for preset in ["it", "fr"] {
        let p = Pos::new()
            .option("preset", json!(preset))
            .hand(0, &["2VL"])
            .supply(0, json!({"V": 2, "L": 2}));
        let a = accepted(&p, &[(0, "D:2VL@b"), (0, "A:2VL+V+L")]);
        assert_eq!(column(&a, 0, "b"), json!([{"card": "2VL"}]));
        assert_eq!(supply(&a, 0), json!({}));
    }
}

// ---- deed_dev_each_suit ---------------------------------------------------------------------

#[test]
fn with_deed_dev_each_suit_the_development_must_include_each_suit_of_the_card() {
    let p = Pos::new()
        .option("deed_dev_each_suit", json!(true))
        .deed(0, "b", "4VL", json!({}))
        .supply(0, json!({"V": 4, "L": 1}));
    let a = refused(&p, &[(0, "A:4VL+V4")], "MAG-DEV-7");
    assert!(a["detail"].as_str().unwrap().contains("each of its suits"));
    refused(&p, &[(0, "A:4VL+V3"), (0, "A:4VL+V")], "MAG-DEV-7");
    let a = accepted(&p, &[(0, "A:4VL+V3"), (0, "A:4VL+L")]);
    assert_eq!(column(&a, 0, "b"), json!([{"card": "4VL"}]));
    // Legal developments never leave the deed unable to take each suit.
    let listed: Vec<String> = crate::games::magnate::legal::legal_actions(&p.state(), Seat(0))
        .iter()
        .map(ToString::to_string)
        .collect();
    assert!(listed.contains(&"A:4VL+V3".to_string()));
    assert!(listed.contains(&"A:4VL+V3+L".to_string()));
    assert!(!listed.contains(&"A:4VL+V4".to_string()));
}

// ---- ace_scoring, tiebreak_total ------------------------------------------------------------

#[test]
fn with_flat_ace_scoring_every_ace_is_worth_one() {
    let p = Pos::new()
        .option("ace_scoring", json!("flat"))
        .turn(0, "over")
        .rest(Rest::Discard)
        .built(0, "a", &["3LY", "5YK", "8YK", "1Y"]);
    assert_eq!(answer(&p, &[])["score"]["districts"]["a"], json!([17, 0]));
}

#[test]
fn with_deucey_ace_scoring_an_ace_also_counts_the_pawn_and_the_opponents_matching_cards() {
    let table = |p: Pos| {
        p.built(0, "a", &["5YK", "1Y"])
            .built(1, "a", &["7VY"])
            .deed(1, "a", "9VY", json!({}))
            .built(0, "c", &["1M"])
            .built(1, "c", &["5ML"])
    };
    let s = &answer(
        &table(Pos::new().option("ace_scoring", json!("deucey"))),
        &[],
    )["score"];
    // Own Soldier and itself, the Watchman's Wyrms, the opponent's completed Cave (not the
    // Darkness, still a deed): 4.
    assert_eq!(s["districts"]["a"], json!([5 + 4, 7]));
    // The Excuse bears no suit; the opponent's Forest bears Moons.
    assert_eq!(s["districts"]["c"], json!([2, 5]));
    let s = &answer(&table(Pos::new()), &[])["score"];
    assert_eq!(s["districts"]["a"], json!([5 + 2, 7]));
    assert_eq!(s["districts"]["c"], json!([1, 5]));
}

#[test]
fn with_raw_tiebreak_totals_the_printed_ranks_decide_with_an_ace_worth_one() {
    let table = |p: Pos| {
        p.turn(0, "over")
            .rest(Rest::Discard)
            .built(0, "a", &["4YK", "5YK", "1Y"])
            .built(1, "d", &["9MS", "2MK"])
    };
    let scored = answer(&table(Pos::new()), &[]);
    assert_eq!(scored["score"]["totals"], json!([12, 11]));
    assert_eq!(
        scored["outcome"],
        json!({"winners": [0], "tiebreak": "totals"})
    );
    let raw = answer(
        &table(Pos::new().option("tiebreak_total", json!("raw"))),
        &[],
    );
    assert_eq!(
        raw["score"]["districts"]["a"],
        json!([12, 0]),
        "districts still score Aces"
    );
    assert_eq!(raw["score"]["totals"], json!([10, 11]));
    assert_eq!(
        raw["outcome"],
        json!({"winners": [1], "tiebreak": "totals"})
    );
}

// ---- trade, trade_same_suit -----------------------------------------------------------------

#[test]
fn with_any_three_trading_three_mixed_tokens_buy_one_of_another_suit() {
    let p = Pos::new()
        .option("trade", json!("any_three"))
        .supply(0, json!({"M": 4, "S": 1, "V": 1}));
    let a = accepted(&p, &[(0, "T:M+S+V+L")]);
    assert_eq!(supply(&a, 0), json!({"M": 3, "L": 1}));
    accepted(&p, &[(0, "T:M3+K")]);
    refused(&p, &[(0, "T:M2+S+M")], "MAG-TRADE-3");
    refused(&p, &[(0, "T:M2+S2+K")], "MAG-TRADE-1");
}

#[test]
fn with_trade_same_suit_allowed_three_tokens_may_buy_one_of_their_own_suit() {
    let p = Pos::new()
        .option("trade_same_suit", json!("allow"))
        .supply(0, json!({"M": 3}));
    let a = accepted(&p, &[(0, "T:M3+M")]);
    assert_eq!(supply(&a, 0), json!({"M": 1}));
    let trades = crate::games::magnate::legal::legal_actions(&p.state(), Seat(0))
        .iter()
        .filter(|a| a.kind() == "trade")
        .count();
    assert_eq!(trades, 6, "three Moons for any of the six suits");
}

// ---- auto_pick ------------------------------------------------------------------------------

fn deed_income(auto: &str, card: &str, district: &str, tokens: Value, roll: &str) -> Value {
    let p = Pos::new()
        .option("auto_pick", json!(auto))
        .turn(0, "roll")
        .deed(0, district, card, json!({}))
        .supply(0, tokens);
    income(&accepted(&p, &[(0, roll)]), 0)
}

#[test]
fn with_ap_auto_pick_a_deed_pays_its_only_suit_outside_the_owners_crowns() {
    // Seat 0 holds the Crowns of Moons, Waves and Wyrms: the Forest's Leaves is outside them.
    let many_leaves = json!({"L": 5});
    assert_eq!(
        deed_income("ap", "5ML", "d", many_leaves.clone(), "R:5,2"),
        json!({"L": 1})
    );
    assert_eq!(
        deed_income("fewer", "5ML", "d", many_leaves, "R:5,2"),
        json!({"M": 1})
    );
    // With the Crowns of Leaves, Suns and Knots the outside suit is Moons.
    let p = Pos::new()
        .option("auto_pick", json!("ap"))
        .crowns(0, ["NL", "NS", "NK"])
        .crowns(1, ["NM", "NV", "NY"])
        .turn(0, "roll")
        .deed(0, "d", "5ML", json!({}))
        .supply(0, json!({"M": 5}));
    assert_eq!(income(&accepted(&p, &[(0, "R:5,2")]), 0), json!({"M": 1}));
}

#[test]
fn with_ap_auto_pick_an_equal_choice_goes_to_the_later_suit() {
    // The Cave: both suits are seat 0's Crowns; the Market: neither is. Equal holdings.
    assert_eq!(
        deed_income("ap", "7VY", "b", json!({}), "R:7,2"),
        json!({"Y": 1})
    );
    assert_eq!(
        deed_income("fewer", "7VY", "b", json!({}), "R:7,2"),
        json!({"V": 1})
    );
    assert_eq!(
        deed_income("ap", "6LK", "c", json!({}), "R:6,2"),
        json!({"K": 1})
    );
    assert_eq!(
        deed_income("fewer", "6LK", "c", json!({}), "R:6,2"),
        json!({"L": 1})
    );
    // Unequal holdings: the suit held fewer of, under both rules.
    assert_eq!(
        deed_income("ap", "6LK", "c", json!({"K": 2}), "R:6,2"),
        json!({"L": 1})
    );
}

// ---- start_player ---------------------------------------------------------------------------

#[test]
fn the_abstractplay_preset_always_starts_seat_0() {
    let rules = resolved(json!({"preset": "abstractplay"}));
    for seed in 0..20 {
        let s = setup(
            &rules,
            &mut GameRng::from_u64(seed),
            &mut Vec::new(),
            Dice::Manual,
        );
        assert_eq!(s.turn.seat, Seat(0));
    }
    let e = serde_json::from_value::<Options>(json!({"start_seat": 1}))
        .unwrap()
        .resolve()
        .unwrap_err();
    assert!(e.0.starts_with("start_seat"), "{e}");
}

// ---- courts (MAG-COURT) ---------------------------------------------------------------------

fn courts() -> Pos {
    Pos::new().option("courts", json!(true))
}

#[test]
fn with_courts_the_four_courts_join_the_deck() {
    let rules = resolved(json!({"courts": true}));
    let s = setup(
        &rules,
        &mut GameRng::from_u64(4),
        &mut Vec::new(),
        Dice::Manual,
    );
    assert_eq!(s.draw_pile.len(), 28);
    let mut cards: Vec<Card> = s.draw_pile.clone();
    for seat in [Seat(0), Seat(1)] {
        cards.extend(s.players[seat].hand.iter());
    }
    let in_deck = cards.iter().filter(|c| c.rank() == Rank::Court).count();
    assert_eq!(in_deck, 4);
    // Without the option a Court is not part of the game.
    let p = Pos::new().hand(0, &["TMVK"]);
    let e = referee(&request(&p, &[], json!({}))).unwrap_err();
    assert!(e.contains("TMVK") && e.contains("of this game"), "{e}");
}

#[test]
fn a_court_is_built_for_ten_tokens_with_each_of_its_suits() {
    let p = courts()
        .hand(0, &["TMVK"])
        .supply(0, json!({"M": 9, "V": 1, "K": 1}));
    let a = accepted(&p, &[(0, "B:TMVK@a+M8+V+K")]);
    assert_eq!(column(&a, 0, "a"), json!([{"card": "TMVK"}]));
    refused(&p, &[(0, "B:TMVK@a+M9+V")], "MAG-BUILD-3");
    refused(&p, &[(0, "B:TMVK@a+M7+V+K")], "MAG-BUILD-1");
    // Placement by its three suits: the Harvest shares Moons, the Borderland Waves.
    accepted(&p, &[(0, "B:TMVK@d+M8+V+K")]);
    accepted(&p, &[(0, "B:TMVK@b+M8+V+K")]);
}

#[test]
fn a_court_deed_costs_three_tokens_and_is_developed_up_to_ten() {
    let p = courts()
        .hand(0, &["TMVK"])
        .supply(0, json!({"M": 11, "V": 1, "K": 1}));
    let a = accepted(&p, &[(0, "D:TMVK@a"), (0, "A:TMVK+M9")]);
    assert_eq!(column(&a, 0, "a")[0]["deed"], json!({"M": 9}));
    assert_eq!(supply(&a, 0), json!({"M": 1}));
    refused(
        &p,
        &[(0, "D:TMVK@a"), (0, "A:TMVK+M10"), (0, "A:TMVK+M")],
        "MAG-DEV-1",
    );
    let p = p.supply(0, json!({"M": 12, "V": 1, "K": 1}));
    refused(&p, &[(0, "D:TMVK@a"), (0, "A:TMVK+M11")], "MAG-DEV-4");
}

#[test]
fn a_court_sells_for_one_token_of_each_of_its_three_suits() {
    let a = accepted(&courts().hand(0, &["TMVK"]), &[(0, "S:TMVK")]);
    assert_eq!(supply(&a, 0), json!({"M": 1, "V": 1, "K": 1}));
}

#[test]
fn a_court_never_pays_income_completed_or_deeded() {
    let p = courts()
        .turn(0, "roll")
        .built(0, "a", &["TMVK"])
        .deed(0, "b", "TSVY", json!({"V": 2}));
    let mut rolls: Vec<String> = (2..=9).map(|k| format!("R:{k},{k}")).collect();
    rolls.push("R:1,1/6".into());
    for roll in &rolls {
        let a = accepted(&p, &[(0, roll)]);
        assert_eq!(income(&a, 0), json!({}), "{roll}");
    }
    let a = accepted(&p, &[(0, "R:10,3")]);
    assert_eq!(
        income(&a, 0),
        json!({"M": 1, "V": 1, "Y": 1}),
        "the Crowns only"
    );
}

#[test]
fn a_court_is_worth_ten_and_counts_once_toward_a_matching_ace() {
    let p = courts()
        .turn(0, "over")
        .rest(Rest::Discard)
        .built(0, "a", &["TMLY", "1M"])
        .built(1, "e", &["TSLK"]);
    let s = &answer(&p, &[])["score"];
    assert_eq!(s["districts"]["a"], json!([12, 0]));
    assert_eq!(s["districts"]["e"], json!([0, 10]));
    // The Court is worth 10 in the raw tie-break too.
    let raw = p.option("tiebreak_total", json!("raw"));
    assert_eq!(answer(&raw, &[])["score"]["totals"], json!([11, 10]));
}

// ---- district_cards = courts ----------------------------------------------------------------

const COURT_DISTRICTS: [&str; 5] = ["TMVK", "TMLY", "0", "TSVY", "TSLK"];

#[test]
fn with_court_districts_the_courts_are_the_districts_and_the_pawns_are_out_of_the_game() {
    let rules = resolved(json!({"district_cards": "courts"}));
    let s = setup(
        &rules,
        &mut GameRng::from_u64(2),
        &mut Vec::new(),
        Dice::Manual,
    );
    let [a, b, c, d, e] = s.districts.0;
    assert_eq!(c, Card::EXCUSE);
    assert!([a, b, d, e].iter().all(|x| x.rank() == Rank::Court));
    assert_eq!(s.draw_pile.len(), 24);
    assert!(s.draw_pile.iter().all(|x| x.rank() != Rank::Pawn));
    // A first card must share a suit with the Court of its district.
    let p = Pos::new()
        .option("district_cards", json!("courts"))
        .districts(COURT_DISTRICTS)
        .hand(0, &["5SV"])
        .supply(0, json!({"S": 1, "V": 1}));
    refused(&p, &[(0, "D:5SV@b")], "MAG-PLACE-2");
    accepted(&p, &[(0, "D:5SV@a")]);
}

#[test]
fn with_court_districts_and_courts_on_a_pawn_is_a_ten_point_property_without_income() {
    let p = courts()
        .option("district_cards", json!("courts"))
        .districts(COURT_DISTRICTS)
        .hand(0, &["PMYK"])
        .supply(0, json!({"M": 8, "Y": 1, "K": 1}));
    let a = accepted(&p, &[(0, "B:PMYK@a+M8+Y+K")]);
    assert_eq!(column(&a, 0, "a"), json!([{"card": "PMYK"}]));
    assert_eq!(a["score"]["districts"]["a"], json!([10, 0]));
    refused(&p, &[(0, "B:PMYK@a+M9+Y")], "MAG-BUILD-3");
    let a = accepted(&p, &[(0, "D:PMYK@a")]);
    assert_eq!(supply(&a, 0), json!({"M": 7}));
    let a = accepted(&p, &[(0, "S:PMYK")]);
    assert_eq!(supply(&a, 0), json!({"M": 9, "Y": 2, "K": 2}));
    let rolls = courts()
        .option("district_cards", json!("courts"))
        .districts(COURT_DISTRICTS)
        .turn(0, "roll")
        .built(0, "a", &["PMYK"]);
    for roll in ["R:5,5", "R:9,2", "R:1,1/2"] {
        assert_eq!(income(&accepted(&rolls, &[(0, roll)]), 0), json!({}));
    }
}
