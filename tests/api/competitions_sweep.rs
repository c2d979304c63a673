//! Competitions after an outside test sweep: each test drives an event through a real server
//! and PostgreSQL into a corner the sweep found wrong (disqualifications, late director actions,
//! corrections, withdrawals, exports), and checks what a chess arbiter would expect.

use super::Event;
use serde_json::{Value, json};

impl Event {
    /// A director action with a reason; the reply.
    async fn direct(&self, id: &str, body: Value) -> crate::helpers::Reply {
        let mut body = body;
        body["reason"] = json!("sweep");
        self.app
            .post(
                &format!("/api/v1/competitions/{id}/director"),
                Some(&self.organiser),
                body,
            )
            .await
    }

    /// The names of the standings' lines ranked `rank`.
    fn ranked(&self, table: &[Value], rank: u64) -> Vec<String> {
        table
            .iter()
            .filter(|r| r["rank"] == rank)
            .map(|r| self.name_of(r["entrant"]["id"].as_str().unwrap()))
            .collect()
    }

    /// A player's Magnate rating history.
    async fn history(&self, name: &str) -> Value {
        let path = format!(
            "/api/v1/players/{}/ratings/magnate/history",
            self.players[name].1
        );
        self.app.get(&path, None).await.json
    }

    async fn audit(&self, id: &str) -> Vec<Value> {
        let a = self
            .app
            .get(&format!("/api/v1/competitions/{id}/audit"), None)
            .await;
        assert_eq!(a.status, 200, "{}", a.text);
        a.json.as_array().unwrap().clone()
    }
}

#[actix_web::test]
async fn a_knockout_match_whose_two_players_are_disqualified_sends_nobody_to_the_final() {
    let ev = Event::new(&["Ann", "Ben", "Cid", "Dee"]).await;
    let id = ev
        .create(json!({"name": "Cup", "kind": "magnate", "entry": "open",
                       "format": {"type": "knockout", "games_per_match": 1}}))
        .await;
    let first = ev.rounds(&id).await[0]["pairings"]
        .as_array()
        .unwrap()
        .clone();
    let (m1, m2) = (ev.seats(&first[0]), ev.seats(&first[1]));
    for name in &m1 {
        let r = ev
            .direct(
                &id,
                json!({"action": "disqualify", "account_id": ev.players[name].1}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    ev.deliver();
    ev.resign(first[1]["game_id"].as_str().unwrap(), &m2[0])
        .await;
    ev.deliver();

    // The winner of match 2 wins the final by walkover: round 2 is a bye, nobody else is paired.
    assert_eq!(ev.status(&id).await, "finished");
    let rounds = ev.rounds(&id).await;
    assert_eq!(rounds.len(), 2, "{rounds:?}");
    assert!(rounds[1]["pairings"].as_array().unwrap().is_empty());
    let byes = rounds[1]["byes"].as_array().unwrap();
    assert_eq!(byes.len(), 1, "{byes:?}");
    assert_eq!(
        ev.name_of(byes[0]["account"]["id"].as_str().unwrap()),
        m2[1]
    );
    let table = ev.standings(&id).await;
    assert_eq!(ev.ranked(&table, 1), [m2[1].clone()], "{table:?}");
    assert_eq!(ev.ranked(&table, 2), [m2[0].clone()], "{table:?}");
    for row in &table {
        if m1.contains(&ev.name_of(row["entrant"]["id"].as_str().unwrap())) {
            assert_eq!(row["status"], "disqualified");
            assert_eq!(row["rank"], 3, "the disqualified go last: {table:?}");
        }
    }
    // The event ran its course (a walkover final): it did not end early.
    let actions: Vec<Value> = ev
        .audit(&id)
        .await
        .iter()
        .map(|a| a["action"].clone())
        .collect();
    assert_eq!(actions, [json!("disqualify"), json!("disqualify")]);
}

#[actix_web::test]
async fn a_finished_competition_refuses_a_replacement_as_it_refuses_a_withdrawal() {
    let ev = Event::new(&["Ann", "Ben"]).await;
    let zed = ev.app.user("zed@example.test", "Zed").await;
    let zed_id = ev.app.get("/api/v1/me", Some(&zed)).await.json["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let id = ev
        .create(json!({"name": "Pair", "kind": "magnate", "entry": "open",
                       "format": {"type": "round_robin", "cycles": 1, "rounds": "all_at_once"}}))
        .await;
    let pairing = ev.rounds(&id).await[0]["pairings"][0].clone();
    let game = pairing["game_id"].as_str().unwrap();
    let r = ev
        .direct(
            &id,
            json!({"action": "set_result", "game_id": game, "places": [1, 2]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    ev.deliver();
    assert_eq!(ev.status(&id).await, "finished");
    let before = (ev.rounds(&id).await, ev.standings(&id).await);

    let ann = ev.players["Ann"].1.clone();
    let w = ev
        .direct(&id, json!({"action": "withdraw", "account_id": ann}))
        .await;
    assert_eq!(w.status, 409, "{}", w.text);
    let r = ev
        .direct(
            &id,
            json!({"action": "replace", "account_id": ann, "by_account_id": zed_id}),
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert!(
        r.text.contains("the competition has finished"),
        "{}",
        r.text
    );
    ev.deliver();
    assert_eq!((ev.rounds(&id).await, ev.standings(&id).await), before);
    let actions: Vec<Value> = ev
        .audit(&id)
        .await
        .iter()
        .map(|a| a["action"].clone())
        .collect();
    assert_eq!(
        actions,
        [json!("set_result")],
        "refused actions are not logged"
    );
}

#[actix_web::test]
async fn a_directors_result_counts_for_the_competition_and_ratings_keep_the_games_as_played() {
    let ev = Event::new(&["Ann", "Ben"]).await;
    let id = ev
        .create(
            json!({"name": "Rated Pair", "kind": "magnate", "entry": "open", "rated": true,
                       "format": {"type": "round_robin", "cycles": 2, "rounds": "sequential"}}),
        )
        .await;
    // Round 1: adjudicated while being played. The game is stopped (aborted, unrated); the
    // competition counts the director's result.
    let p1 = ev.rounds(&id).await[0]["pairings"][0].clone();
    let game = p1["game_id"].as_str().unwrap();
    let r = ev
        .direct(
            &id,
            json!({"action": "set_result", "game_id": game, "places": [1, 2]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    ev.deliver();
    let g = ev.app.get(&format!("/api/v1/games/{game}"), None).await;
    assert_eq!(
        (g.json["status"].clone(), g.json["outcome"].clone()),
        (json!("aborted"), Value::Null)
    );
    let result = &ev.rounds(&id).await[0]["pairings"][0]["result"];
    assert_eq!(result["places"], json!([1, 2]), "{result}");
    assert_eq!(result["corrected"], true);
    assert_eq!(
        ev.history("Ann").await,
        json!([]),
        "an adjudicated game is not rated"
    );

    // Round 2: seat 0 resigns, then the director gives the game the other way. The competition
    // counts the correction; the game and the ratings keep the resignation.
    let rounds = ev.rounds(&id).await;
    assert_eq!(rounds.len(), 2, "{rounds:?}");
    let p2 = rounds[1]["pairings"][0].clone();
    let (game, seats) = (p2["game_id"].as_str().unwrap(), ev.seats(&p2));
    ev.resign(game, &seats[0]).await;
    ev.deliver();
    let r = ev
        .direct(
            &id,
            json!({"action": "set_result", "game_id": game, "places": [1, 2]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    ev.deliver();
    assert_eq!(ev.outcome(game).await["winners"], json!([1]));
    let result = &ev.rounds(&id).await[1]["pairings"][0]["result"];
    assert_eq!(
        (result["places"].clone(), result["corrected"].clone()),
        (json!([1, 2]), json!(true))
    );
    let theirs = ev.history(&seats[1]).await;
    assert_eq!(theirs.as_array().unwrap().len(), 1, "{theirs}");
    assert_eq!(theirs[0]["game_id"], game, "{theirs}");

    // The document says so rather than that the game "ends".
    let doc = ev.app.get("/api/openapi.json", None).await.text;
    assert!(
        !doc.contains("A game still being played\\nends."),
        "stale DirectorSetResult text"
    );
    assert!(doc.contains("is stopped and reads `aborted`"));
}

#[actix_web::test]
async fn a_result_with_nobody_first_is_refused_naming_places() {
    let ev = Event::new(&["Ann", "Ben"]).await;
    let id = ev
        .create(json!({"name": "Pair", "kind": "magnate", "entry": "open",
                       "format": {"type": "round_robin", "cycles": 1, "rounds": "all_at_once"}}))
        .await;
    let game = ev.rounds(&id).await[0]["pairings"][0]["game_id"].clone();
    for places in [json!([2, 2])] {
        let r = ev
            .direct(
                &id,
                json!({"action": "set_result", "game_id": game, "places": places}),
            )
            .await;
        assert_eq!(r.status, 422, "{places}: {}", r.text);
        assert!(
            r.json["detail"].as_str().unwrap().starts_with("places:"),
            "{}",
            r.text
        );
    }
    let result = &ev.rounds(&id).await[0]["pairings"][0]["result"];
    assert!(result.is_null(), "nothing stored: {result}");
    // A shared first place is a draw, as before.
    let r = ev
        .direct(
            &id,
            json!({"action": "set_result", "game_id": game, "places": [1, 1]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let result = &ev.rounds(&id).await[0]["pairings"][0]["result"];
    assert_eq!(result["points"], json!([0.5, 0.5]), "{result}");
}

#[actix_web::test]
async fn withdrawing_twice_is_a_conflict_not_a_stranger() {
    let ev = Event::new(&["Ann", "Ben", "Cid", "Dee"]).await;
    let id = ev
        .create(json!({"name": "Swiss", "kind": "magnate", "entry": "open",
                       "format": {"type": "swiss", "rounds": 3}}))
        .await;
    let ann = ev.players["Ann"].1.clone();
    let path = format!("/api/v1/competitions/{id}/entries/{ann}");
    let first = ev
        .app
        .call(
            awc::http::Method::DELETE,
            &path,
            Some(ev.token("Ann")),
            None,
        )
        .await;
    assert_eq!(first.status, 200, "{}", first.text);
    for token in [ev.token("Ann"), ev.organiser.as_str()] {
        let again = ev
            .app
            .call(awc::http::Method::DELETE, &path, Some(token), None)
            .await;
        assert_eq!(again.status, 409, "{}", again.text);
        assert!(again.text.contains("already withdrawn"), "{}", again.text);
    }
    let r = ev
        .direct(&id, json!({"action": "disqualify", "account_id": ann}))
        .await;
    assert_eq!(r.status, 409, "{}", r.text);
    // Someone who never entered is still not found.
    let zed = ev.app.user("zed@example.test", "Zed").await;
    let zed_id = ev.app.get("/api/v1/me", Some(&zed)).await.json["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let stranger = ev
        .app
        .call(
            awc::http::Method::DELETE,
            &format!("/api/v1/competitions/{id}/entries/{zed_id}"),
            Some(&zed),
            None,
        )
        .await;
    assert_eq!(stranger.status, 404, "{}", stranger.text);
}

#[actix_web::test]
async fn a_swiss_with_too_few_entrants_for_its_rounds_says_so_at_the_start() {
    let ev = Event::new(&["Ann", "Ben"]).await;
    let c = ev
        .app
        .post(
            "/api/v1/competitions",
            Some(&ev.organiser),
            json!({"name": "Thin Swiss", "kind": "magnate", "entry": "open",
                   "format": {"type": "swiss", "rounds": 2}}),
        )
        .await;
    assert_eq!(c.status, 201, "{}", c.text);
    let id = c.json["id"].as_str().unwrap();
    for name in ["Ann", "Ben"] {
        let e = ev
            .app
            .post(
                &format!("/api/v1/competitions/{id}/entries"),
                Some(ev.token(name)),
                json!({}),
            )
            .await;
        assert_eq!(e.status, 201, "{}", e.text);
    }
    let s = ev
        .app
        .post(
            &format!("/api/v1/competitions/{id}/start"),
            Some(&ev.organiser),
            json!({}),
        )
        .await;
    assert_eq!(s.status, 422, "{}", s.text);
    let detail = s.json["detail"].as_str().unwrap();
    assert!(
        detail.contains("too few entrants for 2 rounds")
            && detail.contains("at least 3 entrants")
            && detail.contains("with 2 entrants it can have at most 1 round"),
        "{detail}"
    );
}

#[actix_web::test]
async fn annulled_results_read_the_same_in_rounds_and_standings_and_the_entrant_stays_listed() {
    let ev = Event::new(&["Ann", "Ben", "Cid", "Dee"]).await;
    let id = ev
        .create(json!({"name": "Swiss", "kind": "magnate", "entry": "open",
                       "format": {"type": "swiss", "rounds": 3}, "tie_breaks": ["buchholz"]}))
        .await;
    let pairing = ev.rounds(&id).await[0]["pairings"][0].clone();
    let seats = ev.seats(&pairing);
    let (leaver, opponent) = (&seats[0], &seats[1]);
    let w = ev
        .app
        .call(
            awc::http::Method::DELETE,
            &format!("/api/v1/competitions/{id}/entries/{}", ev.players[leaver].1),
            Some(ev.token(leaver)),
            None,
        )
        .await;
    assert_eq!(w.status, 200, "{}", w.text);
    ev.deliver();

    let result = ev.rounds(&id).await[0]["pairings"][0]["result"].clone();
    assert_eq!(result["forfeit"], true, "{result}");
    assert_eq!(result["annulled"], true, "{result}");
    assert_eq!(
        result["points"],
        json!([0, 0]),
        "counts for nobody: {result}"
    );
    let table = ev.standings(&id).await;
    assert_eq!(
        table.len(),
        4,
        "the withdrawn entrant stays listed: {table:?}"
    );
    let last = table.last().unwrap();
    assert_eq!(ev.name_of(last["entrant"]["id"].as_str().unwrap()), *leaver);
    assert_eq!(
        (
            last["status"].clone(),
            last["annulled"].clone(),
            last["rank"].clone()
        ),
        (json!("withdrawn"), json!(true), json!(4))
    );
    assert_eq!(last["tie_breaks"][0]["name"], "buchholz");
    let theirs = table
        .iter()
        .find(|r| ev.name_of(r["entrant"]["id"].as_str().unwrap()) == *opponent)
        .unwrap();
    assert_eq!(
        (theirs["points"].clone(), theirs["forfeit_wins"].clone()),
        (json!(0), json!(0)),
        "{theirs}"
    );
}

#[actix_web::test]
async fn the_csv_standings_carry_every_field_of_the_json_under_distinct_names() {
    let ev = Event::new(&["Ann", "Ben", "Cid", "Dee"]).await;
    let id = ev
        .create(json!({"name": "Swiss", "kind": "magnate", "entry": "open",
                       "format": {"type": "swiss", "rounds": 1}, "tie_breaks": ["wins", "buchholz"]}))
        .await;
    // One game played, one forfeited by a disqualification: forfeit counts and statuses differ.
    let pairings = ev.rounds(&id).await[0]["pairings"]
        .as_array()
        .unwrap()
        .clone();
    let played = ev.seats(&pairings[0]);
    ev.resign(pairings[0]["game_id"].as_str().unwrap(), &played[1])
        .await;
    let out = ev.seats(&pairings[1])[0].clone();
    let r = ev
        .direct(
            &id,
            json!({"action": "disqualify", "account_id": ev.players[&out].1}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    ev.deliver();

    let table = ev.standings(&id).await;
    let csv = ev.csv(&id).await;
    let mut lines = csv.text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let unique: std::collections::BTreeSet<&&str> = head.iter().collect();
    assert_eq!(unique.len(), head.len(), "a column named twice: {head:?}");
    let lines: Vec<&str> = lines.collect();
    assert_eq!(lines.len(), table.len());
    for (line, row) in lines.iter().zip(&table) {
        let cells: std::collections::BTreeMap<&str, &str> =
            head.iter().copied().zip(line.split(',')).collect();
        for field in [
            "rank",
            "played",
            "wins",
            "draws",
            "losses",
            "byes",
            "forfeit_wins",
            "forfeit_losses",
            "annulled",
        ] {
            assert_eq!(cells[field], row[field].to_string(), "{field} in {line}");
        }
        assert_eq!(cells["entrant"], row["entrant"]["id"].as_str().unwrap());
        assert_eq!(cells["status"], row["status"].as_str().unwrap());
        assert_eq!(
            cells["points"].parse::<f64>().unwrap(),
            row["points"].as_f64().unwrap()
        );
        for tb in row["tie_breaks"].as_array().unwrap() {
            let column = format!("tb_{}", tb["name"].as_str().unwrap());
            assert_eq!(
                cells[column.as_str()].parse::<f64>().unwrap(),
                tb["value"].as_f64().unwrap(),
                "{column} in {line}"
            );
        }
    }
    assert!(csv.text.contains(",disqualified,"), "{}", csv.text);
}

#[actix_web::test]
async fn a_swiss_left_with_one_entrant_ends_early_rather_than_pair_a_round_of_byes() {
    let ev = Event::new(&["Ann", "Ben", "Cid", "Dee"]).await;
    let id = ev
        .create(json!({"name": "Swiss", "kind": "magnate", "entry": "open",
                       "format": {"type": "swiss", "rounds": 3}}))
        .await;
    for name in ["Ann", "Ben", "Cid"] {
        let w = ev
            .app
            .call(
                awc::http::Method::DELETE,
                &format!("/api/v1/competitions/{id}/entries/{}", ev.players[name].1),
                Some(ev.token(name)),
                None,
            )
            .await;
        assert_eq!(w.status, 200, "{}", w.text);
    }
    ev.deliver();
    assert_eq!(ev.status(&id).await, "finished");
    let rounds = ev.rounds(&id).await;
    assert_eq!(rounds.len(), 1, "no round of byes alone: {rounds:?}");
    let audit = ev.audit(&id).await;
    let last = audit.last().unwrap();
    assert_eq!(
        (last["action"].clone(), last["actor"].clone()),
        (json!("ended_early"), Value::Null)
    );
    let reason = last["reason"].as_str().unwrap();
    assert!(
        reason.contains("round 2") && reason.contains("only one entrant"),
        "{reason}"
    );
}

#[actix_web::test]
async fn a_league_fills_the_gap_a_leaver_leaves_in_a_division_from_below() {
    let ev = Event::new(&["Ann", "Ben", "Cid", "Dee", "Eve", "Fay"]).await;
    let id = ev
        .create(json!({"name": "Club League", "kind": "magnate", "entry": "open",
                       "format": {"type": "league", "division_size": 3, "promote": 1, "relegate": 1}}))
        .await;
    for r in ev.rounds(&id).await {
        for p in r["pairings"].as_array().unwrap() {
            let seats = ev.seats(p);
            ev.resign(p["game_id"].as_str().unwrap(), &seats[1]).await;
        }
    }
    ev.deliver();
    assert_eq!(ev.status(&id).await, "finished");
    let table = ev.standings(&id).await;
    let division = |d: i64| -> Vec<String> {
        table
            .iter()
            .filter(|r| r["division"] == d)
            .map(|r| ev.name_of(r["entrant"]["id"].as_str().unwrap()))
            .collect()
    };
    let (top, bottom) = (division(1), division(2));

    // Division 1's winner leaves, a newcomer enters between the seasons.
    let winner = &top[0];
    let w = ev
        .app
        .call(
            awc::http::Method::DELETE,
            &format!("/api/v1/competitions/{id}/entries/{}", ev.players[winner].1),
            Some(ev.token(winner)),
            None,
        )
        .await;
    assert_eq!(w.status, 200, "{}", w.text);
    let zed = ev.app.user("zed@example.test", "Zed").await;
    let e = ev
        .app
        .post(
            &format!("/api/v1/competitions/{id}/entries"),
            Some(&zed),
            json!({}),
        )
        .await;
    assert_eq!(e.status, 201, "{}", e.text);
    let next = ev
        .app
        .post(
            &format!("/api/v1/competitions/{id}/start"),
            Some(&ev.organiser),
            json!({}),
        )
        .await;
    assert_eq!(next.status, 200, "{}", next.text);
    let in_division = |d: i64| -> Vec<String> {
        let mut names: Vec<String> = next.json["entrants"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["division"] == d)
            .map(|e| e["account"]["display_name"].as_str().unwrap().to_owned())
            .collect();
        names.sort();
        names
    };
    // Division 1 keeps its size: its second, the promoted winner of division 2, and the next
    // best of division 2 in the winner's place; the relegated third of division 1, the last of
    // division 2 and the newcomer make division 2.
    let mut want_top = vec![top[1].clone(), bottom[0].clone(), bottom[1].clone()];
    let mut want_bottom = vec![top[2].clone(), bottom[2].clone(), "Zed".to_owned()];
    want_top.sort();
    want_bottom.sort();
    assert_eq!(in_division(1), want_top, "{}", next.text);
    assert_eq!(in_division(2), want_bottom, "{}", next.text);
}
