//! Lancaster over HTTP: three clients play a whole game from `legal_actions`; during a
//! parliament vote all three are pending at once and nobody's ballot reaches the others early.

use crate::helpers::{Dice, spawn_app, without_notation};
use serde_json::{Value, json};

#[actix_web::test]
async fn three_players_finish_a_lancaster_game_and_ballots_stay_sealed() {
    let app = spawn_app().await;
    let (id, tokens) = app.lancaster_three().await;
    // Tokens by seat.
    let mut by_seat: Vec<String> = vec![String::new(); 3];
    for t in &tokens {
        let r = app.get(&format!("/api/v1/games/{id}"), Some(t)).await;
        assert_eq!(r.json["status"], "active", "{}", r.text);
        by_seat[r.json["you"]["seat"].as_u64().unwrap() as usize] = t.clone();
    }

    let mut dice = Dice::new(11);
    let mut all_three_voting = false;
    let mut steps = 0;
    loop {
        let mut games: Vec<Value> = Vec::new();
        for t in &by_seat {
            let r = app.get(&format!("/api/v1/games/{id}"), Some(t)).await;
            assert_eq!(r.status, 200, "{}", r.text);
            games.push(r.json);
        }
        if games[0]["status"] != "active" {
            break;
        }
        steps += 1;
        assert!(steps < 4000, "the game does not end");
        let voting: Vec<usize> = (0..3)
            .filter(|&s| {
                games[s]["legal_actions"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|a| a["type"] == "vote")
            })
            .collect();
        if voting.len() == 3 && !all_three_voting {
            // Abstaining is the game's default for a late voter, not a player's choice: refused
            // in either form, and nothing changes.
            for abstain in [
                json!({"notation": "V:-"}),
                json!({"type": "vote", "yes": null}),
            ] {
                let r = app
                    .post(
                        &format!("/api/v1/games/{id}/actions"),
                        Some(&by_seat[0]),
                        json!({"expected_version": games[0]["version"], "actions": [abstain]}),
                    )
                    .await;
                r.assert_problem(422, "illegal_action");
                assert_eq!(r.json["rule"], "LAN-PAR-2", "{}", r.text);
                let again = app
                    .get(&format!("/api/v1/games/{id}"), Some(&by_seat[0]))
                    .await;
                assert_eq!(again.json["version"], games[0]["version"]);
                assert!(again.json["view"]["my_ballot"].is_null(), "{}", again.text);
            }
        }
        if voting.len() == 3 {
            all_three_voting = true;
            assert!(
                games[0]["seats"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|s| s["pending"] == true)
            );
        }
        let mover = (0..3)
            .find(|&s| !games[s]["legal_actions"].as_array().unwrap().is_empty())
            .expect("someone is pending");
        let legal = games[mover]["legal_actions"].as_array().unwrap();
        let choice = without_notation(&legal[dice.below(legal.len())]);
        let r = app
            .post(
                &format!("/api/v1/games/{id}/actions"),
                Some(&by_seat[mover]),
                json!({"expected_version": games[mover]["version"], "actions": [choice]}),
            )
            .await;
        assert_eq!(
            r.status, 200,
            "a listed action was refused: {choice} -> {}",
            r.text
        );
        if choice["type"] == "vote" {
            // Nobody else learns this ballot: not in their game, not in their history.
            for other in (0..3).filter(|&s| s != mover) {
                let h = app
                    .get(
                        &format!("/api/v1/games/{id}/history"),
                        Some(&by_seat[other]),
                    )
                    .await;
                let leaked = h
                    .json
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|e| e["seat"] != json!(other) && e["action"]["type"] == "vote");
                assert!(
                    !leaked,
                    "seat {other} sees another seat's vote action: {}",
                    h.text
                );
                if voting.contains(&other) {
                    // `other` has not voted yet, so its view holds no ballot at all.
                    let g = app
                        .get(&format!("/api/v1/games/{id}"), Some(&by_seat[other]))
                        .await;
                    let mine = &g.json["view"]["my_ballot"];
                    assert!(
                        mine.is_null(),
                        "seat {other} sees a ballot before voting: {mine}"
                    );
                }
            }
        }
    }
    assert!(
        all_three_voting,
        "a vote had all three players pending at once"
    );
    let done = app
        .get(&format!("/api/v1/games/{id}"), Some(&by_seat[0]))
        .await;
    assert_eq!(done.json["status"], "finished");
    assert!(
        done.json["outcome"]["winners"].is_array(),
        "{}",
        done.json["outcome"]
    );
    // One result per seat, placed by prestige points ("1224": a better total places higher).
    let results = app.results(&id);
    assert_eq!(results.len(), 3, "{results:?}");
    let scores = done.json["outcome"]["scores"].as_array().unwrap();
    for result in &results {
        let total = |seat: &Value| {
            scores.iter().find(|l| l["seat"] == *seat).unwrap()["total"]
                .as_i64()
                .unwrap()
        };
        let better = results
            .iter()
            .filter(|o| total(&o["seat"]) > total(&result["seat"]))
            .count();
        assert_eq!(result["place"], better + 1, "{result}");
        assert_eq!(result["score"], total(&result["seat"]));
        assert_eq!(result["reason"], "finished");
    }
    let fair = app.get(&format!("/api/v1/games/{id}/fairness"), None).await;
    assert_eq!(fair.json["replay_ok"], true, "{}", fair.text);
}

/// A list ends at the action that ends its seat's turn, whatever that action turned up: what
/// follows is refused with the one sentence a roll or a draw gets, where it used to be
/// "not your turn" — so that in games whose hidden standing orders or scripts play when a turn
/// ends, where a list ends never tells what they did.
#[actix_web::test]
async fn a_list_going_on_past_the_end_of_its_turn_is_refused_as_one() {
    let app = spawn_app().await;
    let (id, tokens) = app.lancaster_three().await;
    let path = format!("/api/v1/games/{id}");
    let mut mover = None;
    for token in &tokens {
        let g = app.get(&path, Some(token)).await.json;
        if g["legal_actions"].as_array().is_some_and(|l| l.len() >= 2) {
            mover = Some((token.clone(), g));
            break;
        }
    }
    let (token, g) = mover.expect("a seat with a choice");
    let legal = g["legal_actions"].as_array().unwrap();
    let r = app
        .post(
            &format!("{path}/actions"),
            Some(&token),
            json!({"expected_version": g["version"],
                   "actions": [without_notation(&legal[0]), without_notation(&legal[1])]}),
        )
        .await;
    r.assert_problem(422, "validation_failed");
    assert_eq!(r.json["index"], 1, "{}", r.text);
    assert!(
        r.json["detail"]
            .as_str()
            .unwrap()
            .contains("ends your turn"),
        "{}",
        r.text
    );
    let after = app.get(&path, Some(&token)).await.json;
    assert_eq!(after["version"], g["version"], "nothing was played");
}
