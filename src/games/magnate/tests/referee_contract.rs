//! The referee's contract (`shared/magnate-position.md`): positions it refuses to read, the
//! refusal answer, the roll it makes itself, and the reshuffle it is given.

use super::*;

fn unreadable(request: &str) -> String {
    referee(request).expect_err("the referee should refuse to read this request")
}

fn position_with(p: &Pos, edit: impl FnOnce(&mut Value)) -> String {
    let mut v = p.json();
    edit(&mut v);
    json!({"position": v, "actions": []}).to_string()
}

#[test]
fn a_position_with_a_card_in_two_places_is_refused_naming_it() {
    let p = Pos::new().hand(0, &["9MS"]).hand(1, &["9MS"]);
    let e = unreadable(&request(&p, &[], json!({})));
    assert!(e.contains("9MS") && e.contains("twice"), "{e}");
    let e = unreadable(&position_with(&Pos::new(), |v| {
        v["discard"] = json!([v["draw_pile"][0].clone()]);
    }));
    assert!(e.contains("twice"), "{e}");
}

#[test]
fn a_position_missing_a_card_is_refused_naming_it() {
    let e = unreadable(&position_with(&Pos::new().draw(&["9MS"]), |v| {
        v["draw_pile"].as_array_mut().unwrap().remove(0);
    }));
    assert!(e.contains("9MS") && e.contains("missing"), "{e}");
}

#[test]
fn a_position_with_an_unknown_card_code_is_refused() {
    let e = unreadable(&position_with(&Pos::new(), |v| {
        v["players"][0]["hand"] = json!(["4LV"]);
    }));
    assert!(e.contains("4LV"), "{e}");
    let e = unreadable(&position_with(&Pos::new(), |v| {
        v["districts"][0] = json!("5ML");
    }));
    assert!(e.contains("not a district card"), "{e}");
}

#[test]
fn a_deed_holding_more_than_its_target_or_a_foreign_suit_is_refused() {
    let e = unreadable(&request(
        &Pos::new().deed(0, "b", "4VL", json!({"V": 5})),
        &[],
        json!({}),
    ));
    assert!(
        e.contains("4VL") && e.contains("more than its target"),
        "{e}"
    );
    let e = unreadable(&request(
        &Pos::new().deed(0, "b", "4VL", json!({"M": 1})),
        &[],
        json!({}),
    ));
    assert!(e.contains("Moons"), "{e}");
    let e = unreadable(&request(
        &Pos::new()
            .deed(0, "b", "4VL", json!({}))
            .built(0, "b", &["8VL"]),
        &[],
        json!({}),
    ));
    assert!(e.contains("on top of it"), "{e}");
}

#[test]
fn other_unreadable_requests_are_refused_with_a_message() {
    assert!(unreadable("not json").contains("cannot read"));
    let p = Pos::new().hand(0, &["5ML"]);
    let mut r: Value = serde_json::from_str(&request(&p, &[(0, "S:5ML")], json!({}))).unwrap();
    r["actions"][0]["seat"] = json!(2);
    assert!(unreadable(&r.to_string()).contains("\"seat\" must be 0 or 1"));
    assert!(unreadable(&request(&p, &[(0, "X:5ML")], json!({}))).contains("actions[0]"));
    assert!(unreadable(&request(&p, &[], json!({"dice": 3}))).contains("dice"));
    let e = unreadable(&position_with(&p, |v| v["options"]["tax_dice"] = json!(3)));
    assert!(e.contains("tax_dice"), "{e}");
    let e = unreadable(&position_with(&p, |v| v["turn"]["phase"] = json!("over")));
    assert!(e.contains("over"), "{e}");
}

#[test]
fn a_reshuffle_order_that_is_not_the_discard_pile_is_refused() {
    let p = Pos::new()
        .hand(0, &["9MS"])
        .discard(&["3SK", "6LK"])
        .rest(Rest::Hand(1));
    let actions = [(0, "S:9MS"), (0, "E")];
    for bad in [
        json!(["3SK", "6LK"]),
        json!(["9MS", "3SK", "2MK"]),
        json!(["9MS", "3SK", "6LK", "6LK"]),
    ] {
        let e = referee(&request(&p, &actions, json!({ "reshuffle": bad }))).unwrap_err();
        assert!(e.contains("reshuffle") && e.contains("9MS"), "{e}");
    }
}

#[test]
fn a_refusal_names_the_action_its_rule_and_the_position_just_before_it() {
    let p = Pos::new()
        .hand(0, &["5ML", "4VL"])
        .supply(0, json!({"M": 1}));
    let a = answer(&p, &[(0, "S:5ML"), (0, "S:4VL"), (0, "E")]);
    assert_eq!(a["ok"], json!(false));
    assert_eq!(a["index"], json!(1));
    assert_eq!(a["rule"], json!("MAG-PLAY-1"));
    assert_sentence(a["detail"].as_str().unwrap());
    // The sale before the refused action stands in the position; nothing after it was applied.
    assert_eq!(supply(&a, 0), json!({"M": 2, "L": 1}));
    assert_eq!(hand(&a, 0), vec!["4VL"]);
    assert_eq!(a["position"]["turn"]["card_played"], json!(true));
    assert!(a.get("events").is_none() && a.get("score").is_none());
}

#[test]
fn a_refused_action_in_phase_roll_answers_with_the_position_before_the_roll() {
    let p = Pos::new().turn(0, "roll").hand(0, &["5ML"]);
    let a = refused(&p, &[(0, "E")], "MAG-TURN-4");
    assert_eq!(a["position"]["turn"]["phase"], json!("roll"));
    assert_eq!(a["position"], answer(&p, &[])["position"]);
}

#[test]
fn after_end_the_next_seat_is_in_phase_roll_and_may_roll_chosen_dice() {
    let p = Pos::new().hand(0, &["5ML"]).built(1, "d", &["7ML"]);
    let a = accepted(&p, &[(0, "S:5ML"), (0, "E")]);
    assert_eq!(
        a["position"]["turn"],
        json!({"seat": 1, "phase": "roll", "card_played": false})
    );
    assert_eq!(events(&a, "rolled").len(), 0);
    let a = accepted(&p, &[(0, "S:5ML"), (0, "E"), (1, "R:7,2")]);
    assert_eq!(income(&a, 1), json!({"M": 1, "L": 1}));
}

#[test]
fn the_active_seat_acting_in_phase_roll_first_rolls_from_the_seed() {
    let p = Pos::new().turn(1, "roll").hand(1, &["4VL"]);
    let run = |seed: u64| accepted_with(&p, &[(1, "S:4VL")], json!({ "seed": seed }));
    let a = run(7);
    assert_eq!(a["events"][0]["type"], json!("rolled"));
    assert_eq!(a["events"][0]["seat"], json!(1));
    assert_eq!(a["position"]["turn"]["phase"], json!("action"));
    assert_eq!(run(7), a, "the same seed rolls the same dice");
    let rolls: std::collections::BTreeSet<String> = (0..20)
        .map(|s| run(s)["events"][0]["d10"].to_string())
        .collect();
    assert!(
        rolls.len() > 5,
        "different seeds roll different dice: {rolls:?}"
    );
    // Without a seed the referee still rolls (from seed 0).
    let a = accepted(&p, &[(1, "S:4VL")]);
    assert_eq!(a, run(0));
}

#[test]
fn a_preference_from_the_other_seat_does_not_trigger_the_roll() {
    let p = Pos::new().turn(1, "roll").deed(0, "b", "7VY", json!({}));
    let a = accepted(&p, &[(0, "P:7VY+Y")]);
    assert_eq!(a["position"]["turn"]["phase"], json!("roll"));
    assert!(events(&a, "rolled").is_empty());
    assert_eq!(column(&a, 0, "b")[0]["prefer"], json!("Y"));
    // The active seat's own preference is an action like any other: it rolls first.
    let p = Pos::new().turn(0, "roll").deed(0, "b", "7VY", json!({}));
    let a = accepted(&p, &[(0, "P:7VY+Y")]);
    assert_eq!(a["position"]["turn"]["phase"], json!("action"));
}

#[test]
fn an_empty_action_list_just_scores_the_position_and_reads_back_unchanged() {
    let p = Pos::new()
        .built(0, "a", &["5YK"])
        .deed(1, "d", "7ML", json!({"L": 2}))
        .prefer(1, "d", "M")
        .supply(1, json!({"K": 2}));
    let a = accepted(&p, &[]);
    assert_eq!(a["events"], json!([]));
    assert_eq!(a["outcome"], json!(null));
    assert_eq!(a["score"]["districts"]["a"], json!([5, 0]));
    let pos = &a["position"];
    assert!(pos.get("last_roll").is_none() && pos.get("resigned").is_none());
    assert_eq!(pos["options"]["preset"], json!("standard"));
    assert_eq!(pos["options"]["courts"], json!(false));
    let again = referee(&json!({"position": pos, "actions": []}).to_string()).unwrap();
    assert_eq!(&again["position"], pos);
}

#[test]
fn typed_actions_are_accepted_as_well_as_notation() {
    let p = Pos::new()
        .turn(0, "roll")
        .hand(0, &["4VL"])
        .supply(0, json!({"V": 2, "L": 3, "M": 3}))
        .draw(&["9MS"]);
    let r = json!({
        "position": p.json(),
        "actions": [
            {"seat": 0, "type": "roll", "d10": [1, 7], "d6": 4},
            {"seat": 0, "type": "trade", "give": {"M": 3}, "take": "V"},
            {"seat": 0, "type": "build", "card": "4VL", "district": "b", "payment": {"V": 3, "L": 1}},
            {"seat": 0, "type": "end"}
        ]
    });
    let a = referee(&r.to_string()).unwrap();
    assert_eq!(a["ok"], json!(true), "{a:#}");
    // Leaves taxed from 3 to 1 before the build.
    assert_eq!(supply(&a, 0), json!({}));
    assert_eq!(hand(&a, 0), vec!["9MS"]);
}

#[test]
fn the_position_format_accepts_its_documented_equivalent_forms() {
    let p = Pos::new()
        .hand(0, &["5ML", "4VL"])
        .deed(0, "b", "7VY", json!({}))
        .supply(0, json!({"M": 1}));
    let plain = answer(&p, &[])["position"].clone();
    let request = position_with(&p, |v| {
        v["players"][0]["hand"] = json!(["4VL", "5ML"]);
        v["players"][0]["columns"]["b"][0]["prefer"] = json!(null);
        v["players"][0]["columns"]["e"] = json!([]);
        v["players"][0]["supply"] = json!({"M": 1, "S": 0});
        v["players"][1]["columns"] = json!({"a": []});
    });
    let a = referee(&request).unwrap();
    assert_eq!(a["position"], plain);
}
