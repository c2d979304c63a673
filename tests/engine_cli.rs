//! The engine tools as a player meets them: `herald selfplay` and `herald referee`, run as the
//! real binary.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::process::{Command, Stdio};

fn herald(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn selfplay_ends_with_the_summary_line_and_is_reproducible() {
    let (code, out, err) = herald(
        &[
            "selfplay", "magnate", "--games", "40", "--seed", "9", "--check",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("games=40 actions="), "{last}");
    let fields: Vec<&str> = last
        .split(' ')
        .map(|f| f.split('=').next().unwrap())
        .collect();
    assert_eq!(fields, ["games", "actions", "elapsed_ms", "games_per_s"]);
    let actions = |s: &str| {
        s.lines()
            .last()
            .unwrap()
            .split(' ')
            .nth(1)
            .unwrap()
            .to_string()
    };
    let (_, again, _) = herald(
        &[
            "selfplay",
            "magnate",
            "--games",
            "40",
            "--seed",
            "9",
            "--threads",
            "2",
        ],
        "",
    );
    assert_eq!(
        actions(&out),
        actions(&again),
        "the same seed plays the same games whatever the thread count"
    );
}

#[test]
fn selfplay_refuses_an_unknown_game_or_option_clearly() {
    let (code, _, err) = herald(&["selfplay", "chess"], "");
    assert_eq!(code, 2);
    assert!(err.contains("unknown game"), "{err}");
    let (code, _, err) = herald(&["selfplay", "magnate", "--option", "tax_dice=7"], "");
    assert_eq!(code, 2);
    assert!(err.contains("tax_dice"), "{err}");
}

const POSITION: &str = r#"{
  "options": {"preset": "standard"},
  "districts": ["PMYK", "PVLY", "0", "PMSL", "PSVK"],
  "players": [
    {"crowns": ["NM", "NV", "NY"], "supply": {"M": 2, "V": 1, "L": 4, "Y": 1}, "hand": ["4VL", "9MS", "2MK"],
     "columns": {"b": [{"card": "7VY"}], "e": [{"card": "7SK", "deed": {"S": 2}, "prefer": "K"}]}},
    {"crowns": ["NS", "NL", "NK"], "supply": {"L": 1, "K": 3}, "hand": ["5ML", "6LK", "3SK"], "columns": {"d": [{"card": "7ML"}]}}
  ],
  "draw_pile": ["8VL", "2SY", "1M", "1S", "1V", "1L", "1Y", "1K", "2VL", "3MV", "3LY", "4MS", "4YK", "5SV", "5YK", "6MV", "6SY", "7ML0"],
  "discard": [],
  "reshuffled": false,
  "turn": {"seat": 0, "phase": "roll", "card_played": false},
  "final_turns": null
}"#;

fn position() -> serde_json::Value {
    let mut p: serde_json::Value =
        serde_json::from_str(&POSITION.replace(", \"7ML0\"", "")).unwrap();
    // The rest of the deck, so every card of the game is in exactly one place.
    let pile = p["draw_pile"].as_array_mut().unwrap();
    for c in ["8MS", "8YK", "9VY", "9LK"] {
        pile.push(c.into());
    }
    p
}

#[test]
fn the_referee_plays_the_documented_example_and_scores_it() {
    let request = serde_json::json!({"position": position(), "actions": [
        {"seat": 0, "type": "roll", "d10": [1, 7], "d6": 2},
        {"seat": 0, "type": "build", "card": "4VL", "district": "b", "payment": {"V": 1, "L": 3}},
        {"seat": 0, "type": "end"}
    ]});
    let (code, out, err) = herald(&["referee"], &request.to_string());
    assert_eq!(code, 0, "{err}");
    let answer: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(answer["ok"], true, "{answer}");
    // Suns were taxed (nobody held two); the 7 paid the Cave V+Y, the Castle deed its preferred K,
    // and seat 1's Chance Meeting M+L; the Sailor cost V1 L3.
    assert_eq!(
        answer["position"]["players"][0]["supply"],
        serde_json::json!({"M": 2, "V": 1, "L": 1, "Y": 2, "K": 1})
    );
    assert_eq!(
        answer["position"]["players"][1]["supply"],
        serde_json::json!({"M": 1, "L": 2, "K": 3})
    );
    assert_eq!(
        answer["position"]["turn"],
        serde_json::json!({"seat": 1, "phase": "roll", "card_played": false})
    );
    assert_eq!(
        answer["position"]["players"][0]["columns"]["b"][1]["card"],
        "4VL"
    );
    assert_eq!(
        answer["score"]["districts"]["b"],
        serde_json::json!([11, 0])
    );
    assert_eq!(answer["outcome"], serde_json::Value::Null);
}

#[test]
fn the_referee_names_the_rule_an_action_breaks() {
    let request = serde_json::json!({"position": position(), "seed": 3, "actions": [
        {"seat": 0, "notation": "R:2,5"},
        {"seat": 0, "type": "build", "card": "4VL", "district": "a", "payment": {"M": 2}}
    ]});
    let (code, out, _) = herald(&["referee"], &request.to_string());
    assert_eq!(code, 0);
    let answer: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(answer["ok"], false);
    assert_eq!(answer["index"], 1);
    // The payment is wrong too, but placement comes first in the order of MAG-PLAY-4.
    assert_eq!(answer["rule"], "MAG-PLACE-2");
    assert!(
        answer["detail"].as_str().unwrap().contains("share a suit"),
        "{answer}"
    );
    assert_eq!(answer["position"]["turn"]["phase"], "action");
}

#[test]
fn the_referee_refuses_a_broken_position_with_exit_2_and_one_line() {
    let mut p = position();
    p["discard"] = serde_json::json!(["4VL"]);
    let (code, out, err) = herald(
        &["referee"],
        &serde_json::json!({"position": p}).to_string(),
    );
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("4VL") && err.contains("twice"), "{err}");
    assert_eq!(err.trim().lines().count(), 1);
    let (code, _, err) = herald(&["referee"], "not json");
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
}
