//! Competitions over HTTP with a real worker and a real SMTP listener (design.md section 15): a
//! six-entrant Magnate Swiss and a nine-entrant Lancaster tables event run to the end by
//! themselves, their games ended by play, resignation, timeout and the director; standings,
//! CSV, TRF-16, mails and the audit log are checked against the results the games gave.

// The bugs an outside sweep found, one test each (they use the `Event` below).
#[path = "competitions_sweep.rs"]
mod sweep;

use crate::helpers::{Dice, TestApp, spawn_app, without_notation};
use crate::smtp::SmtpSink;
use actix_web::http::Method;
use herald::jobs::Worker;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

struct Event {
    app: TestApp,
    sink: SmtpSink,
    worker: Worker,
    organiser: String,
    /// name → (token, account id, address)
    players: BTreeMap<String, (String, String, String)>,
}

impl Event {
    async fn new(names: &[&str]) -> Event {
        let app = spawn_app().await;
        let sink = SmtpSink::start();
        let mut settings = app.settings.clone();
        settings.email.smtp_url = Some(sink.url());
        settings.http.public_url = app.base.clone();
        let worker = Worker::new(&settings, herald::db::pool(&app.db_url, 4).unwrap()).unwrap();
        let organiser = app.user("olga@example.test", "Olga").await;
        let mut players = BTreeMap::new();
        for name in names {
            let email = format!("{}@example.test", name.to_lowercase());
            let token = app.user(&email, name).await;
            let me = app.get("/api/v1/me", Some(&token)).await;
            let id = me.json["id"].as_str().unwrap().to_owned();
            players.insert((*name).to_owned(), (token, id, email));
        }
        Event {
            app,
            sink,
            worker,
            organiser,
            players,
        }
    }

    fn token(&self, name: &str) -> &str {
        &self.players[name].0
    }

    fn name_of(&self, id: &str) -> String {
        self.players
            .iter()
            .find(|(_, p)| p.1 == id)
            .map(|(n, _)| n.clone())
            .unwrap_or_else(|| panic!("{id} is no entrant"))
    }

    /// Runs every due job (advances, mails).
    fn deliver(&self) {
        self.worker.drain().unwrap();
    }

    async fn create(&self, body: Value) -> String {
        let c = self
            .app
            .post("/api/v1/competitions", Some(&self.organiser), body)
            .await;
        assert_eq!(c.status, 201, "{}", c.text);
        assert_eq!(c.json["status"], "registering");
        let id = c.json["id"].as_str().unwrap().to_owned();
        for (token, _, _) in self.players.values() {
            let e = self
                .app
                .post(
                    &format!("/api/v1/competitions/{id}/entries"),
                    Some(token),
                    json!({}),
                )
                .await;
            assert_eq!(e.status, 201, "{}", e.text);
        }
        let s = self
            .app
            .post(
                &format!("/api/v1/competitions/{id}/start"),
                Some(&self.organiser),
                json!({}),
            )
            .await;
        assert_eq!(s.status, 200, "{}", s.text);
        assert_eq!(s.json["status"], "running");
        self.deliver();
        id
    }

    async fn rounds(&self, id: &str) -> Vec<Value> {
        let r = self
            .app
            .get(&format!("/api/v1/competitions/{id}/rounds"), None)
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
        r.json.as_array().unwrap().clone()
    }

    async fn status(&self, id: &str) -> String {
        let c = self
            .app
            .get(&format!("/api/v1/competitions/{id}"), None)
            .await;
        c.json["status"].as_str().unwrap().to_owned()
    }

    /// The names at each seat of a pairing.
    fn seats(&self, pairing: &Value) -> Vec<String> {
        pairing["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| self.name_of(s["id"].as_str().unwrap()))
            .collect()
    }

    async fn resign(&self, game: &str, name: &str) {
        let r = self
            .app
            .post(
                &format!("/api/v1/games/{game}/resign"),
                Some(self.token(name)),
                json!({}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }

    /// Plays random legal actions until the game ends.
    async fn play_out(&self, game: &str, names: &[String], dice: &mut Dice) {
        self.play_out_without(game, names, None, dice).await;
    }

    /// Plays random legal actions for everyone but `idle` until the game ends; whenever only
    /// `idle` is asked, its deadline is let pass and the worker times it out (the competition's
    /// clock is one second a move).
    async fn play_out_without(
        &self,
        game: &str,
        names: &[String],
        idle: Option<&str>,
        dice: &mut Dice,
    ) {
        for _ in 0..5000 {
            let mut moved = false;
            for name in names.iter().filter(|n| Some(n.as_str()) != idle) {
                let g = self
                    .app
                    .get(&format!("/api/v1/games/{game}"), Some(self.token(name)))
                    .await;
                if g.json["status"] != "active" {
                    return;
                }
                let legal = g.json["legal_actions"].as_array().unwrap();
                if legal.is_empty() {
                    continue;
                }
                let action = without_notation(&legal[dice.below(legal.len())]);
                let r = self
                    .app
                    .post(
                        &format!("/api/v1/games/{game}/actions"),
                        Some(self.token(name)),
                        json!({"expected_version": g.json["version"], "actions": [action]}),
                    )
                    .await;
                assert_eq!(r.status, 200, "{}", r.text);
                moved = true;
                break;
            }
            if !moved && idle.is_some() {
                if self.worker.time_out_due().unwrap() == 0 {
                    std::thread::sleep(Duration::from_millis(200));
                }
                moved = true;
            }
            assert!(moved, "nobody could move in {game}");
        }
        panic!("game {game} did not end");
    }

    /// The winners' names of a finished game (every seat in first place).
    async fn outcome(&self, game: &str) -> Value {
        let g = self.app.get(&format!("/api/v1/games/{game}"), None).await;
        assert_eq!(g.json["status"], "finished", "{}", g.text);
        g.json["outcome"].clone()
    }

    /// The standings as `Accept: text/csv` gives them.
    async fn csv(&self, id: &str) -> crate::helpers::Reply {
        self.app
            .send(
                awc::http::Method::GET,
                &format!("/api/v1/competitions/{id}/standings"),
                None,
                &[("Accept", "text/csv")],
                None,
            )
            .await
    }

    async fn standings(&self, id: &str) -> Vec<Value> {
        let s = self
            .app
            .get(&format!("/api/v1/competitions/{id}/standings"), None)
            .await;
        assert_eq!(s.status, 200, "{}", s.text);
        s.json.as_array().unwrap().clone()
    }
}

fn points_of(row: &Value) -> f64 {
    row["points"].as_f64().unwrap()
}

#[actix_web::test]
async fn a_six_entrant_magnate_swiss_runs_by_itself_through_play_resignation_and_timeout() {
    let names = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay"];
    let ev = Event::new(&names).await;
    let id = ev
        .create(json!({
            "name": "Autumn Swiss", "kind": "magnate", "format": {"type": "swiss", "rounds": 3},
            "entry": "open", "tie_breaks": ["buchholz", "sonneborn_berger", "wins"],
            "clock": {"type": "per_move", "seconds": 1},
        }))
        .await;
    let mut dice = Dice::new(11);
    let mut met = BTreeSet::new();
    let mut expected: BTreeMap<String, f64> =
        names.iter().map(|n| ((*n).to_owned(), 0.0)).collect();
    for round in 1..=3 {
        let rounds = ev.rounds(&id).await;
        assert_eq!(
            rounds.len(),
            round,
            "round {round} is paired, and no later one"
        );
        let r = &rounds[round - 1];
        let pairings = r["pairings"].as_array().unwrap();
        assert_eq!(pairings.len(), 3);
        assert_eq!(r["byes"], json!([]));
        let everyone: BTreeSet<String> = pairings.iter().flat_map(|p| ev.seats(p)).collect();
        assert_eq!(
            everyone.len(),
            6,
            "each entrant plays once in round {round}"
        );
        for p in pairings {
            let pair: BTreeSet<String> = ev.seats(p).into_iter().collect();
            assert!(met.insert(pair.clone()), "round {round} repeats {pair:?}");
        }
        // The first game by play (round 1) or resignation, the second by resignation, the
        // third by timeout: seat 0's player of game 2 resigns, game 3's mover waits too long.
        let games: Vec<String> = pairings
            .iter()
            .map(|p| p["game_id"].as_str().unwrap().to_owned())
            .collect();
        let seats: Vec<Vec<String>> = pairings.iter().map(|p| ev.seats(p)).collect();
        if round == 1 {
            ev.play_out(&games[0], &seats[0], &mut dice).await;
        } else {
            ev.resign(&games[0], &seats[0][1]).await;
        }
        ev.resign(&games[1], &seats[1][0]).await;
        ev.deliver();
        assert_eq!(
            ev.rounds(&id).await.len(),
            round,
            "no new round while a game is played"
        );
        actix_web::rt::time::sleep(Duration::from_millis(1200)).await;
        assert_eq!(ev.worker.time_out_due().unwrap(), 1, "game 3 times out");
        for (g, s) in games.iter().zip(&seats) {
            let outcome = ev.outcome(g).await;
            let winners: Vec<usize> = outcome["winners"]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| w.as_u64().unwrap() as usize)
                .collect();
            for w in &winners {
                *expected.get_mut(&s[*w]).unwrap() += 1.0 / winners.len() as f64;
            }
        }
        ev.deliver();
    }
    assert_eq!(ev.status(&id).await, "finished");
    assert_eq!(ev.rounds(&id).await.len(), 3);

    let table = ev.standings(&id).await;
    assert_eq!(table.len(), 6);
    let total: f64 = table.iter().map(points_of).sum();
    assert_eq!(total, 9.0, "9 games, one point each");
    for row in &table {
        let name = ev.name_of(row["entrant"]["id"].as_str().unwrap());
        assert_eq!(points_of(row), expected[&name], "{name}: {row}");
        assert_eq!(row["played"], 3);
        let tbs: Vec<&str> = row["tie_breaks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(tbs, ["buchholz", "sonneborn_berger", "wins"]);
    }
    let ranks: Vec<u64> = table.iter().map(|r| r["rank"].as_u64().unwrap()).collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
    assert!(
        table
            .windows(2)
            .all(|w| points_of(&w[0]) >= points_of(&w[1])),
        "standings by points first"
    );

    // The CSV carries the same numbers.
    let csv = ev.csv(&id).await;
    assert_eq!(csv.status, 200);
    assert!(csv.header("content-type").starts_with("text/csv"));
    let lines: Vec<&str> = csv.text.lines().collect();
    assert!(
        lines[0].starts_with(
            "rank,entrant,name,points,played,wins,draws,losses,byes,forfeit_wins,\
             forfeit_losses,status,annulled,tb_buchholz,tb_sonneborn_berger,tb_wins"
        ),
        "{}",
        lines[0]
    );
    for (line, row) in lines[1..].iter().zip(&table) {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells[1], row["entrant"]["id"].as_str().unwrap());
        assert_eq!(cells[3].parse::<f64>().unwrap(), points_of(row));
        let sb = row["tie_breaks"][1]["value"].as_f64().unwrap();
        assert_eq!(cells[14].parse::<f64>().unwrap(), sb);
    }

    // TRF-16: one 001 line per entrant, each with three rounds of results.
    let trf = ev
        .app
        .get(&format!("/api/v1/competitions/{id}/trf"), None)
        .await;
    assert_eq!(trf.status, 200);
    let players: Vec<&str> = trf.text.lines().filter(|l| l.starts_with("001")).collect();
    assert_eq!(players.len(), 6, "{}", trf.text);
    assert!(trf.text.contains("XXR 3"));

    // Every entrant got a pairing mail per round naming the competition with a play link.
    for (name, (_, _, email)) in &ev.players {
        let mails: Vec<_> = ev
            .sink
            .to(email)
            .into_iter()
            .filter(|m| m.subject().contains("Autumn Swiss"))
            .collect();
        assert_eq!(mails.len(), 3, "{name} got {} pairing mails", mails.len());
        assert!(mails.iter().all(|m| m.text().contains("/play/")), "{name}");
    }
}

#[actix_web::test]
async fn a_nine_entrant_lancaster_tables_event_seats_everyone_and_scores_by_place() {
    let names = [
        "Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida",
    ];
    let ev = Event::new(&names).await;
    let id = ev
        .create(json!({
            "name": "Lancaster Tables", "kind": "lancaster",
            "format": {"type": "tables", "table_sizes": [3], "rounds": 2},
            "entry": "open", "tie_breaks": ["game_score"],
            "clock": {"type": "per_move", "seconds": 1},
        }))
        .await;
    let mut dice = Dice::new(5);
    let mut expected: BTreeMap<String, f64> =
        names.iter().map(|n| ((*n).to_owned(), 0.0)).collect();
    let mut tables_before: Vec<BTreeSet<String>> = Vec::new();
    for round in 1..=2 {
        let rounds = ev.rounds(&id).await;
        assert_eq!(rounds.len(), round);
        let pairings = rounds[round - 1]["pairings"].as_array().unwrap().clone();
        assert_eq!(pairings.len(), 3, "three tables of three");
        let seated: Vec<String> = pairings.iter().flat_map(|p| ev.seats(p)).collect();
        let unique: BTreeSet<&String> = seated.iter().collect();
        assert_eq!(
            (seated.len(), unique.len()),
            (9, 9),
            "everyone at exactly one table"
        );
        // Nine at tables of three can sit with new players every round: nobody meets anyone
        // twice in round 2.
        let tables: Vec<BTreeSet<String>> = pairings
            .iter()
            .map(|p| ev.seats(p).into_iter().collect())
            .collect();
        for t in &tables {
            for u in &tables_before {
                assert!(
                    t.intersection(u).count() <= 1,
                    "round {round} seats {t:?} together again ({u:?})"
                );
            }
        }
        tables_before.extend(tables);
        // Round 1: the last table resigns, the first plays to the end, the second plays to the
        // end while its seat 2 never answers (timed out three times, then dropped). Round 2:
        // two resignations and the director's adjudication. Resignations come first, so that
        // the timeouts of the second table's idle seat touch no other game.
        let order: [usize; 3] = if round == 1 { [2, 0, 1] } else { [0, 1, 2] };
        for t in order {
            let p = &pairings[t];
            let game = p["game_id"].as_str().unwrap();
            let seats = ev.seats(p);
            let g = ev
                .app
                .get(&format!("/api/v1/games/{game}"), Some(ev.token(&seats[0])))
                .await;
            assert_eq!(g.json["kind"], "lancaster");
            assert_eq!(g.json["status"], "active");
            if round == 2 && t == 2 {
                // The director adjudicates the last table: seat 1 first, seat 0 second.
                let r = ev
                    .app
                    .post(
                        &format!("/api/v1/competitions/{id}/director"),
                        Some(&ev.organiser),
                        json!({"action": "set_result", "game_id": game, "places": [2, 1, 3],
                               "reason": "adjudicated after a dispute"}),
                    )
                    .await;
                assert_eq!(r.status, 200, "{}", r.text);
                // The game ends as `aborted`; its page says what counts instead, and where.
                let page = ev.app.get(&format!("/play/{game}"), None).await;
                assert_eq!(page.status, 200, "{}", page.text);
                assert!(
                    page.text.contains(&format!(
                        "Result set by the competition's director</strong>: 1. {}, 2. {}, 3. {}",
                        seats[1], seats[0], seats[2]
                    )),
                    "{}",
                    page.text
                );
                assert!(
                    page.text
                        .contains(&format!("href=\"/competitions/{id}\">Lancaster Tables</a>"))
                );
                // Points by place, one per seat beaten: 2, 1, 0.
                *expected.get_mut(&seats[1]).unwrap() += 2.0;
                *expected.get_mut(&seats[0]).unwrap() += 1.0;
                continue;
            }
            let results = match (round, t) {
                (1, 0) => {
                    ev.play_out(game, &seats, &mut dice).await;
                    let results = ev.app.results(game);
                    assert!(
                        results.iter().all(|r| r["reason"] == "finished"),
                        "{results:?}"
                    );
                    results
                }
                (1, 1) => {
                    ev.play_out_without(game, &seats, Some(&seats[2]), &mut dice)
                        .await;
                    let g = ev.app.get(&format!("/api/v1/games/{game}"), None).await;
                    assert_eq!(g.json["seats"][2]["dropped"], true, "{}", g.text);
                    let results = ev.app.results(game);
                    assert_eq!(results[2]["place"], 3, "the dropped seat ranks last");
                    results
                }
                _ => {
                    // A resignation ends a Lancaster game: the resigner last, the others by
                    // the score.
                    ev.resign(game, &seats[t % 3]).await;
                    let results = ev.app.results(game);
                    assert_eq!(results[t % 3]["place"], 3, "{results:?}");
                    results
                }
            };
            let place = |seat: usize| results[seat]["place"].as_i64().unwrap();
            for (seat, name) in seats.iter().enumerate() {
                // One point per seat placed worse, half a point per seat placed equal.
                let worse = (0..3).filter(|o| place(*o) > place(seat)).count() as f64;
                let equal = (0..3)
                    .filter(|o| *o != seat && place(*o) == place(seat))
                    .count() as f64;
                *expected.get_mut(name).unwrap() += worse + equal / 2.0;
            }
        }
        ev.deliver();
    }
    assert_eq!(ev.status(&id).await, "finished");
    let table = ev.standings(&id).await;
    assert_eq!(table.len(), 9);
    for row in &table {
        let name = ev.name_of(row["entrant"]["id"].as_str().unwrap());
        assert_eq!(points_of(row), expected[&name], "{name}: {row}");
        assert_eq!(row["tie_breaks"][0]["name"], "game_score");
    }
    let total: f64 = table.iter().map(points_of).sum();
    assert_eq!(total, 18.0, "6 games of 3 points each");
    // Two pairing mails each (one per round), and the CSV has a line per entrant.
    for (name, (_, _, email)) in &ev.players {
        let mails = ev
            .sink
            .to(email)
            .into_iter()
            .filter(|m| m.subject().contains("Lancaster Tables") && m.text().contains("/play/"))
            .count();
        assert_eq!(mails, 2, "{name}");
    }
    let csv = ev.csv(&id).await;
    assert_eq!(csv.text.lines().count(), 10, "{}", csv.text);
    assert!(csv.text.lines().next().unwrap().ends_with(",tb_game_score"));

    // The audit log names who, when and why; only the organiser may direct.
    let audit = ev
        .app
        .get(&format!("/api/v1/competitions/{id}/audit"), None)
        .await;
    assert_eq!(audit.status, 200);
    let entry = &audit.json[0];
    assert_eq!(entry["action"], "set_result");
    assert_eq!(entry["actor"]["display_name"], "Olga");
    assert_eq!(entry["reason"], "adjudicated after a dispute");
    assert!(entry["at"].as_str().is_some());
    let not_mine = ev
        .app
        .post(
            &format!("/api/v1/competitions/{id}/director"),
            Some(ev.token("Ann")),
            json!({"action": "finalise", "reason": "me"}),
        )
        .await;
    not_mine.assert_problem(403, "forbidden");

    // An extension outside a minute to 30 days is refused, naming the range.
    let game = ev.rounds(&id).await[0]["pairings"][0]["game_id"].clone();
    for seconds in [59, 2_592_001] {
        let r = ev
            .app
            .post(
                &format!("/api/v1/competitions/{id}/director"),
                Some(&ev.organiser),
                json!({"action": "extend_deadline", "game_id": game, "seconds": seconds,
                       "reason": "a long weekend"}),
            )
            .await;
        r.assert_problem(422, "validation_failed");
        assert_eq!(
            r.json["detail"], "seconds: between 60 and 2592000 (30 days)",
            "{seconds}"
        );
    }

    // Finalising freezes the standings: no more corrections.
    let fin = ev
        .app
        .post(
            &format!("/api/v1/competitions/{id}/director"),
            Some(&ev.organiser),
            json!({"action": "finalise", "reason": "all results checked"}),
        )
        .await;
    assert_eq!(fin.status, 200, "{}", fin.text);
    assert_eq!(fin.json["finalised"], true);
    let late = ev
        .app
        .post(
            &format!("/api/v1/competitions/{id}/director"),
            Some(&ev.organiser),
            json!({"action": "set_result", "game_id": game, "places": [1, 2, 3], "reason": "too late"}),
        )
        .await;
    late.assert_problem(409, "conflict");
    assert_eq!(ev.standings(&id).await, table);
}

#[actix_web::test]
async fn a_withdrawal_before_half_annuls_the_knockout_champion_ranks_first_and_finalised_standings_stay()
 {
    let names = ["Ann", "Ben", "Cid", "Dee"];
    let ev = Event::new(&names).await;
    // A round robin of 4 (3 rounds at once): Dee withdraws after one game, so it is annulled.
    let rr = ev
        .create(json!({"name": "Small Round Robin", "kind": "magnate",
                       "format": {"type": "round_robin", "cycles": 1, "rounds": "all_at_once"},
                       "entry": "open"}))
        .await;
    let rounds = ev.rounds(&rr).await;
    assert_eq!(rounds.len(), 3);
    let dee = ev.players["Dee"].1.clone();
    let first = rounds[0]["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| ev.seats(p).contains(&"Dee".to_owned()))
        .unwrap()
        .clone();
    ev.resign(first["game_id"].as_str().unwrap(), "Dee").await;
    ev.deliver();
    let w = ev
        .app
        .call(
            awc::http::Method::DELETE,
            &format!("/api/v1/competitions/{rr}/entries/{dee}"),
            Some(ev.token("Dee")),
            None,
        )
        .await;
    assert_eq!(w.status, 200, "{}", w.text);
    ev.deliver();
    let table = ev.standings(&rr).await;
    assert_eq!(table.len(), 4, "an annulled entrant stays listed, last");
    assert!(
        table.iter().all(|r| r["points"] == 0 && r["played"] == 0),
        "{table:?}"
    );
    assert_eq!(table[3]["entrant"]["id"], dee.as_str());
    assert_eq!(
        (table[3]["status"].clone(), table[3]["annulled"].clone()),
        (json!("withdrawn"), json!(true))
    );
    // Dee's other games ended; the competition goes on with the others' games.
    for r in ev.rounds(&rr).await {
        for p in r["pairings"].as_array().unwrap() {
            if ev.seats(p).contains(&"Dee".to_owned()) {
                assert!(!p["result"].is_null(), "{p}");
            }
        }
    }

    // A knockout of 4: two semi-finals, a final, the champion alone in first place.
    let ko = ev
        .create(json!({"name": "Cup", "kind": "magnate",
                       "format": {"type": "knockout", "games_per_match": 1}, "entry": "open"}))
        .await;
    let mut champion = String::new();
    for (round, games) in [(1, 2), (2, 1)] {
        let rounds = ev.rounds(&ko).await;
        assert_eq!(rounds.len(), round);
        let pairings = rounds[round - 1]["pairings"].as_array().unwrap().clone();
        assert_eq!(pairings.len(), games);
        for p in &pairings {
            let seats = ev.seats(p);
            ev.resign(p["game_id"].as_str().unwrap(), &seats[1]).await;
            champion = seats[0].clone();
        }
        ev.deliver();
    }
    assert_eq!(ev.status(&ko).await, "finished");
    let table = ev.standings(&ko).await;
    let firsts: Vec<String> = table
        .iter()
        .filter(|r| r["rank"] == 1)
        .map(|r| ev.name_of(r["entrant"]["id"].as_str().unwrap()))
        .collect();
    assert_eq!(firsts, [champion]);
    assert_eq!(table[1]["rank"], 2);
    assert_eq!(
        (table[2]["rank"].clone(), table[3]["rank"].clone()),
        (json!(3), json!(3))
    );

    // Finalised while games are still being played: a game that ends afterwards is played out
    // (its players see its result) but the frozen standings do not move.
    let quick = ev
        .create(json!({"name": "Quick", "kind": "magnate",
                       "format": {"type": "round_robin", "cycles": 1, "rounds": "all_at_once"},
                       "entry": "open"}))
        .await;
    let pairings: Vec<Value> = ev
        .rounds(&quick)
        .await
        .iter()
        .flat_map(|r| r["pairings"].as_array().unwrap().clone())
        .collect();
    assert_eq!(pairings.len(), 6, "4 entrants, 3 rounds of 2 games at once");
    let first = ev.seats(&pairings[0]);
    ev.resign(pairings[0]["game_id"].as_str().unwrap(), &first[1])
        .await;
    ev.deliver();
    let fin = ev
        .app
        .post(
            &format!("/api/v1/competitions/{quick}/director"),
            Some(&ev.organiser),
            json!({"action": "finalise", "reason": "the season is cut short"}),
        )
        .await;
    assert_eq!(fin.status, 200, "{}", fin.text);
    let frozen = ev.standings(&quick).await;
    assert_eq!(frozen.iter().map(points_of).sum::<f64>(), 1.0);
    let second = ev.seats(&pairings[1]);
    ev.resign(pairings[1]["game_id"].as_str().unwrap(), &second[1])
        .await;
    ev.deliver();
    assert_eq!(
        ev.standings(&quick).await,
        frozen,
        "finalised standings stay"
    );
    assert_eq!(ev.status(&quick).await, "finished");
    let csv = ev.csv(&quick).await;
    let csv_points: f64 = csv
        .text
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(3).unwrap().parse::<f64>().unwrap())
        .sum();
    assert_eq!(csv_points, 1.0, "the CSV is frozen too: {}", csv.text);
}

#[actix_web::test]
async fn the_pages_show_a_competition_to_anyone_and_let_players_enter_and_the_organiser_direct() {
    use crate::bad_input::account_cookie;
    use crate::web::{page, post_form};
    let ev = Event::new(&[]).await;
    let ann = ev.app.user("ann@example.test", "Ann").await;
    let ben = ev.app.user("ben@example.test", "Ben").await;
    let (olga_cookie, olga_csrf) =
        account_cookie(&ev.app, &ev.organiser, "olga@example.test").await;
    let (ann_cookie, ann_csrf) = account_cookie(&ev.app, &ann, "ann@example.test").await;

    // The organiser creates one with the form.
    let created = post_form(
        &ev.app,
        "/competitions/new",
        &olga_cookie,
        &format!("csrf={olga_csrf}&name=Page+Cup&kind=magnate&format=swiss&rounds=1&entry=open&invite=&clock=per_move_3d&tie_breaks=buchholz"),
    )
    .await;
    assert_eq!(created.status, 303, "{}", created.text);
    let at = created.header("location");
    let id = at.trim_start_matches("/competitions/").to_owned();
    // A bad form is refused naming the field, and creates nothing.
    let bad = post_form(
        &ev.app,
        "/competitions/new",
        &olga_cookie,
        &format!("csrf={olga_csrf}&name=X&kind=magnate&format=swiss&rounds=0&entry=open&clock=per_move_3d"),
    )
    .await;
    assert_eq!(bad.status, 422);
    assert!(bad.text.contains("Swiss"), "{}", bad.text);
    let list = ev.app.get("/api/v1/competitions", None).await;
    assert_eq!(list.json.as_array().unwrap().len(), 1);

    // Anyone reads it; Ann enters with its button; Ben through the API.
    let visitor = page(&ev.app, &at, "").await;
    assert_eq!(visitor.status, 200);
    assert!(visitor.text.contains("Page Cup") && !visitor.text.contains("data-action=\"enter\""));
    let mine = page(&ev.app, &at, &ann_cookie).await;
    assert!(mine.text.contains("data-action=\"enter\""), "{}", mine.text);
    let entered = post_form(
        &ev.app,
        &format!("{at}/enter"),
        &ann_cookie,
        &format!("csrf={ann_csrf}"),
    )
    .await;
    assert_eq!(entered.status, 303, "{}", entered.text);
    let r = ev
        .app
        .post(
            &format!("/api/v1/competitions/{id}/entries"),
            Some(&ben),
            json!({}),
        )
        .await;
    assert_eq!(r.status, 201);
    let forged = post_form(&ev.app, &format!("{at}/start"), &ann_cookie, "csrf=nope").await;
    assert_eq!(forged.status, 403);
    let not_hers = post_form(
        &ev.app,
        &format!("{at}/start"),
        &ann_cookie,
        &format!("csrf={ann_csrf}"),
    )
    .await;
    assert_eq!(not_hers.status, 403);

    // The organiser starts it and pauses it; the page shows the round, the standings and the log.
    let own = page(&ev.app, &at, &olga_cookie).await;
    assert!(own.text.contains("data-action=\"start\""));
    let started = post_form(
        &ev.app,
        &format!("{at}/start"),
        &olga_cookie,
        &format!("csrf={olga_csrf}"),
    )
    .await;
    assert_eq!(started.status, 303, "{}", started.text);
    ev.deliver();
    let paused = post_form(
        &ev.app,
        &format!("{at}/director"),
        &olga_cookie,
        &format!("csrf={olga_csrf}&action=pause&reason=venue+closed"),
    )
    .await;
    assert_eq!(paused.status, 303, "{}", paused.text);
    // A game the form names that is not one of the competition's: the form's field is at fault,
    // not the address.
    let stranger = uuid::Uuid::new_v4();
    let wrong_game = post_form(
        &ev.app,
        &format!("{at}/director"),
        &olga_cookie,
        &format!(
            "csrf={olga_csrf}&action=extend_deadline&game_id={stranger}&seconds=3600&reason=r"
        ),
    )
    .await;
    assert_eq!(wrong_game.status, 422, "{}", wrong_game.text);
    assert!(
        wrong_game
            .text
            .contains("The field “Game” has a value this form does not take"),
        "{}",
        wrong_game.text
    );
    assert!(!wrong_game.text.contains(&stranger.to_string()));
    let shown = page(&ev.app, &at, "").await;
    for text in [
        "Ann",
        "Ben",
        "Round 1",
        "Standings",
        "buchholz",
        "venue closed",
        "/play/",
        "standings.csv",
    ] {
        assert!(shown.text.contains(text), "{text} missing: {}", shown.text);
    }
    let csv = page(&ev.app, &format!("{at}/standings.csv"), "").await;
    assert_eq!(csv.status, 200);
    assert!(csv.text.starts_with("rank,entrant,name,points"));
    let listed = page(&ev.app, "/competitions?status=paused", "").await;
    assert!(listed.text.contains("Page Cup"));
    // Nothing private: no address on any page.
    assert!(!shown.text.contains("@example.test"));
}

#[actix_web::test]
async fn a_league_season_promotes_and_relegates_into_the_next() {
    let names = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay"];
    let ev = Event::new(&names).await;
    let id = ev
        .create(json!({"name": "Club League", "kind": "magnate", "entry": "open",
                       "format": {"type": "league", "division_size": 3, "promote": 1, "relegate": 1}}))
        .await;
    let rounds = ev.rounds(&id).await;
    assert_eq!(rounds.len(), 3, "a round robin of 3 per division");
    for r in &rounds {
        assert_eq!(
            r["pairings"].as_array().unwrap().len(),
            2,
            "one game per division"
        );
        assert_eq!(
            r["byes"].as_array().unwrap().len(),
            2,
            "one bye per division"
        );
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
    assert_eq!((top.len(), bottom.len()), (3, 3), "{table:?}");

    // The next season: the last of division 1 and the first of division 2 change places.
    let next = ev
        .app
        .post(
            &format!("/api/v1/competitions/{id}/start"),
            Some(&ev.organiser),
            json!({}),
        )
        .await;
    assert_eq!(next.status, 200, "{}", next.text);
    assert_eq!(
        (next.json["season"].clone(), next.json["status"].clone()),
        (json!(2), json!("running"))
    );
    let in_division = |d: i64| -> BTreeSet<String> {
        next.json["entrants"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["division"] == d)
            .map(|e| ev.name_of(e["account"]["id"].as_str().unwrap()))
            .collect()
    };
    let want_top: BTreeSet<String> = [&top[0], &top[1], &bottom[0]]
        .into_iter()
        .cloned()
        .collect();
    let want_bottom: BTreeSet<String> = [&top[2], &bottom[1], &bottom[2]]
        .into_iter()
        .cloned()
        .collect();
    assert_eq!(in_division(1), want_top);
    assert_eq!(in_division(2), want_bottom);
    ev.deliver();
    let rounds = ev.rounds(&id).await;
    assert_eq!(rounds.len(), 3, "season 2's rounds, season 1's kept apart");
    assert!(
        rounds
            .iter()
            .all(|r| r["season"] == 2 && r["finished"] == false)
    );
    let fresh = ev.standings(&id).await;
    assert!(fresh.iter().all(|r| r["played"] == 0), "{fresh:?}");
}

#[actix_web::test]
async fn a_player_who_left_a_league_between_seasons_is_told_so_when_entering_again() {
    let ev = Event::new(&["Ann", "Ben", "Cid"]).await;
    let id = ev
        .create(
            json!({"name": "Small League", "kind": "magnate", "entry": "open",
                       "format": {"type": "league", "division_size": 3, "promote": 0, "relegate": 0}}),
        )
        .await;
    for r in &ev.rounds(&id).await {
        for p in r["pairings"].as_array().unwrap() {
            let seats = ev.seats(p);
            ev.resign(p["game_id"].as_str().unwrap(), &seats[1]).await;
        }
    }
    ev.deliver();
    assert_eq!(ev.status(&id).await, "finished");
    let (token, account, _) = ev.players["Ann"].clone();
    let entry = format!("/api/v1/competitions/{id}/entries");
    let r = ev
        .app
        .call(
            Method::DELETE,
            &format!("{entry}/{account}"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    // Coming back for the next season: refused, and for the reason that holds.
    let r = ev.app.post(&entry, Some(&token), json!({})).await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert!(r.text.contains("already withdrawn"), "{}", r.text);
    assert!(!r.text.contains("already entered"), "{}", r.text);
    let c = ev
        .app
        .get(&format!("/api/v1/competitions/{id}"), None)
        .await;
    let ann = c.json["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["account"]["id"] == account.as_str())
        .unwrap()
        .clone();
    assert_eq!(ann["status"], "withdrawn", "{ann}");
}

#[actix_web::test]
async fn a_swiss_nobody_can_pair_ends_in_the_log_and_a_newcomer_is_mailed_their_games() {
    let ev = Event::new(&["Ann", "Ben", "Cid", "Dee"]).await;
    let zed = ev.app.user("zed@example.test", "Zed").await;
    let zed_id = ev.app.get("/api/v1/me", Some(&zed)).await.json["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let id = ev
        .create(json!({"name": "Short Swiss", "kind": "magnate",
                       "format": {"type": "swiss", "rounds": 3}, "entry": "open"}))
        .await;
    let pairings = ev.rounds(&id).await[0]["pairings"]
        .as_array()
        .unwrap()
        .clone();
    let (first, second) = (ev.seats(&pairings[0]), ev.seats(&pairings[1]));

    // The director replaces a player of the first game by Zed, who hears of it by mail and
    // event, and now holds the seat.
    let leaving = first[0].clone();
    let r = ev
        .app
        .post(
            &format!("/api/v1/competitions/{id}/director"),
            Some(&ev.organiser),
            json!({"action": "replace", "account_id": ev.players[&leaving].1,
                   "by_account_id": zed_id, "reason": "moved abroad"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    ev.deliver();
    let mails = ev.sink.to("zed@example.test");
    assert!(
        mails
            .iter()
            .any(|m| m.subject().contains("Short Swiss") && m.text().contains("/play/")),
        "{:?}",
        mails.iter().map(|m| m.subject()).collect::<Vec<_>>()
    );
    let events = ev.app.get("/api/v1/me/events?after=0", Some(&zed)).await;
    assert!(events.text.contains("\"pairing\""), "{}", events.text);
    let game = pairings[0]["game_id"].as_str().unwrap();
    let g = ev
        .app
        .get(&format!("/api/v1/games/{game}"), Some(&zed))
        .await;
    assert_eq!(g.json["you"]["seat"], 0, "{}", g.text);

    // Both players of the second game withdraw before half of their games (annulled); the
    // first game ends; Zed and the other player of the first game have met: no round 2 can be
    // paired, so the event ends and the log says why, in the server's name.
    for name in &second {
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
    let r = ev
        .app
        .post(
            &format!("/api/v1/games/{game}/resign"),
            Some(&zed),
            json!({}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    ev.deliver();
    assert_eq!(ev.status(&id).await, "finished");
    assert_eq!(ev.rounds(&id).await.len(), 1);
    let audit = ev
        .app
        .get(&format!("/api/v1/competitions/{id}/audit"), None)
        .await;
    let last = audit.json.as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["action"], "ended_early", "{}", audit.text);
    assert_eq!(last["actor"], Value::Null);
    assert!(
        last["reason"].as_str().unwrap().contains("round 2"),
        "{last}"
    );
    let page = ev.app.get(&format!("/competitions/{id}"), None).await;
    // The page shows the log, in its reader's words (English here), not by the API's name.
    assert!(page.text.contains(" · Ended early · "), "{}", page.text);
    assert!(!page.text.contains("ended_early"), "{}", page.text);
}

#[actix_web::test]
async fn an_open_entry_may_ask_for_a_mail_address_known_to_work() {
    let ev = Event::new(&["Ann"]).await;
    let c = ev
        .app
        .post(
            "/api/v1/competitions",
            Some(&ev.organiser),
            json!({"name": "Mail Cup", "kind": "magnate", "format": {"type": "swiss", "rounds": 3},
                   "entry": "open", "require_working_address": true}),
        )
        .await;
    assert_eq!(c.status, 201, "{}", c.text);
    assert_eq!(c.json["require_working_address"], true);
    let id = c.json["id"].as_str().unwrap();
    let entries = format!("/api/v1/competitions/{id}/entries");
    // Ann signed up with a password and never used a mailed link: refused, and told how.
    let refused = ev
        .app
        .post(&entries, Some(ev.token("Ann")), json!({}))
        .await;
    refused.assert_problem(403, "forbidden");
    assert!(refused.text.contains("email-link"), "{}", refused.text);
    // Once she signs in through a mailed link, she may enter.
    crate::bad_input::account_cookie(&ev.app, ev.token("Ann"), "ann@example.test").await;
    let entered = ev
        .app
        .post(&entries, Some(ev.token("Ann")), json!({}))
        .await;
    assert_eq!(entered.status, 201, "{}", entered.text);
}

/// What the competition's service refuses from a page's button or the director's form is said on
/// the competition's page in the reader's language, with the API's status, naming what was
/// refused; never the service's English, nor an account's id.
#[actix_web::test]
async fn a_refused_competition_button_says_why_in_the_readers_language_never_the_services_english()
{
    use crate::bad_input::account_cookie;
    use crate::web::{alert_of, post_form};
    let ev = Event::new(&["Ann", "Ben"]).await;
    ev.app.set_locale(&ev.organiser, "es").await;
    ev.app.set_locale(ev.token("Ann"), "it").await;
    let (olga, olga_csrf) = account_cookie(&ev.app, &ev.organiser, "olga@example.test").await;
    let (ann, ann_csrf) = account_cookie(&ev.app, ev.token("Ann"), "ann@example.test").await;
    let ann_id = ev.players["Ann"].1.clone();
    let create = |body: Value| {
        let app = &ev.app;
        let organiser = ev.organiser.clone();
        async move {
            let c = app
                .post("/api/v1/competitions", Some(&organiser), body)
                .await;
            assert_eq!(c.status, 201, "{}", c.text);
            format!("/competitions/{}", c.json["id"].as_str().unwrap())
        }
    };
    let press = |at: String, cookie: String, form: String| {
        let app = &ev.app;
        async move { post_form(app, &at, &cookie, &form).await }
    };
    // (status, what the page says, the service's English it must not say)
    let check = |r: &crate::helpers::Reply, status: u16, said: &str, english: &[&str]| {
        assert_eq!(r.status, status, "{said}: {}", r.text);
        let alert = alert_of(&r.text);
        assert!(alert.contains(said), "{said}: {alert}");
        for word in english {
            assert!(!r.text.contains(word), "{word}: {}", r.text);
        }
        // (The page links its entrants by id; the reason never names one.)
        assert!(!alert.contains(&ann_id), "an account's id: {alert}");
    };

    // Nobody entered: the Swiss cannot start, and the organiser is told so in Spanish.
    let swiss = create(json!({"name": "Copa", "kind": "magnate", "entry": "open",
                              "format": {"type": "swiss", "rounds": 1}}))
    .await;
    let r = press(
        format!("{swiss}/start"),
        olga.clone(),
        format!("csrf={olga_csrf}"),
    )
    .await;
    check(
        &r,
        422,
        "La competición aún no puede empezar: su formato necesita al menos 2 inscritos. No se cambió nada.",
        &["cannot start", "needs at least", "a Swiss"],
    );
    // Directing it before it starts.
    let r = press(
        format!("{swiss}/director"),
        olga.clone(),
        format!("csrf={olga_csrf}&action=pause&reason=r"),
    )
    .await;
    check(
        &r,
        409,
        "La competición aún no ha empezado. No se cambió nada.",
        &["has not started"],
    );
    // Ann withdraws from what she never entered; then enters an event by invitation.
    let r = press(
        format!("{swiss}/withdraw"),
        ann.clone(),
        format!("csrf={ann_csrf}"),
    )
    .await;
    check(
        &r,
        409,
        "Non sei iscritto a questa competizione. Non è cambiato nulla.",
        &["is not entered", "account "],
    );
    let closed = create(
        json!({"name": "Invito", "kind": "magnate", "entry": "invite",
                               "format": {"type": "swiss", "rounds": 1}}),
    )
    .await;
    let r = press(
        format!("{closed}/enter"),
        ann.clone(),
        format!("csrf={ann_csrf}"),
    )
    .await;
    check(
        &r,
        403,
        "Questa competizione è su invito, e il tuo indirizzo non è tra quelli invitati.",
        &["by invitation", "not invited"],
    );

    // Both enter the Swiss and it starts; then entry is closed, and the director's form is
    // refused by its field or by the state it finds.
    for who in ["Ann", "Ben"] {
        let e = ev
            .app
            .post(
                &format!("/api/v1{swiss}/entries"),
                Some(ev.token(who)),
                json!({}),
            )
            .await;
        assert_eq!(e.status, 201, "{}", e.text);
    }
    let r = press(
        format!("{swiss}/start"),
        olga.clone(),
        format!("csrf={olga_csrf}"),
    )
    .await;
    assert_eq!(r.status, 303, "{}", r.text);
    ev.deliver();
    let r = press(
        format!("{swiss}/enter"),
        ann.clone(),
        format!("csrf={ann_csrf}"),
    )
    .await;
    check(
        &r,
        409,
        "Le iscrizioni sono chiuse: la competizione è iniziata. Non è cambiato nulla.",
        &["entry is closed", "already entered"],
    );
    let game =
        ev.rounds(swiss.trim_start_matches("/competitions/")).await[0]["pairings"][0]["game_id"]
            .as_str()
            .unwrap()
            .to_owned();
    let r = press(
        format!("{swiss}/director"),
        olga.clone(),
        format!("csrf={olga_csrf}&action=extend_deadline&game_id={game}&seconds=10&reason=r"),
    )
    .await;
    check(
        &r,
        422,
        "El campo «Segundos» tiene un valor que este formulario no admite; admite un número entero de 60 a 2592000.",
        &["seconds:", "between 60"],
    );
    // A field the page itself cannot read is said on the competition's page too, with the
    // director's form still there to correct it.
    let r = press(
        format!("{swiss}/director"),
        olga.clone(),
        format!("csrf={olga_csrf}&action=extend_deadline&game_id={game}&seconds=soon&reason=r"),
    )
    .await;
    check(
        &r,
        422,
        "El campo «Segundos» tiene un valor que este formulario no admite; admite un número entero",
        &[],
    );
    assert!(r.text.contains("<h1>Copa</h1>"), "{}", r.text);
    assert!(r.text.contains("name=\"seconds\""), "{}", r.text);
    let r = press(
        format!("{swiss}/director"),
        olga.clone(),
        format!("csrf={olga_csrf}&action=set_result&game_id={game}&places=2%2C2&reason=r"),
    )
    .await;
    check(
        &r,
        422,
        "El campo «Puestos por asiento» tiene un valor que este formulario no admite; admite un puesto por asiento (2 aquí)",
        &["not a ranking", "places:", "[2, 2]"],
    );
    let r = press(
        format!("{swiss}/director"),
        olga.clone(),
        format!("csrf={olga_csrf}&action=resume&reason=r"),
    )
    .await;
    check(
        &r,
        409,
        "La competición no está en pausa. No se cambió nada.",
        &["not paused"],
    );
    let withdraw = format!("csrf={olga_csrf}&action=withdraw&account_id={ann_id}&reason=r");
    let r = press(format!("{swiss}/director"), olga.clone(), withdraw.clone()).await;
    assert_eq!(r.status, 303, "{}", r.text);
    let r = press(format!("{swiss}/director"), olga.clone(), withdraw).await;
    check(
        &r,
        409,
        "Ese jugador ya no está en la competición: se retiró o fue descalificado.",
        &["is already", "withdrawn from"],
    );
    // Only the organiser starts or directs it.
    let r = press(
        format!("{closed}/start"),
        ann.clone(),
        format!("csrf={ann_csrf}"),
    )
    .await;
    check(
        &r,
        403,
        "Solo l'organizzatore della competizione può farlo. Non è cambiato nulla.",
        &["only the competition's organiser"],
    );
    // The refused page is the competition's, with the reader's forms.
    assert!(r.text.contains("<h1>Invito</h1>"), "{}", r.text);
}

/// A competition that asks for a rating tells a player who has none in its game so, rather than
/// that their rating is 0, and does not enter them.
#[actix_web::test]
async fn a_player_without_a_rating_is_told_they_have_none_not_that_theirs_is_zero() {
    use crate::bad_input::account_cookie;
    use crate::web::{alert_of, post_form};
    let app = spawn_app().await;
    let olga = app.user("olga@example.test", "Olga").await;
    let ann = app.user("ann@example.test", "Ann").await;
    app.set_locale(&ann, "es").await;
    let c = app
        .post(
            "/api/v1/competitions",
            Some(&olga),
            json!({"name": "Copa", "kind": "magnate", "entry": "open", "min_rating": 1400,
                   "format": {"type": "swiss", "rounds": 1}}),
        )
        .await;
    assert_eq!(c.status, 201, "{}", c.text);
    let id = c.json["id"].as_str().unwrap().to_owned();
    let (cookie, csrf) = account_cookie(&app, &ann, "ann@example.test").await;
    let r = post_form(
        &app,
        &format!("/competitions/{id}/enter"),
        &cookie,
        &format!("csrf={csrf}"),
    )
    .await;
    assert_eq!(r.status, 403, "{}", r.text);
    let alert = alert_of(&r.text);
    assert!(
        alert.contains("Esta competición exige una puntuación de al menos 1400 en su juego, y aún no tienes ninguna en él"),
        "{alert}"
    );
    assert!(!alert.contains("la tuya es 0"), "{alert}");
    // The API says so too, in its words.
    let api = app
        .post(
            &format!("/api/v1/competitions/{id}/entries"),
            Some(&ann),
            json!({}),
        )
        .await;
    assert_eq!(api.status, 403, "{}", api.text);
    assert!(api.text.contains("you have none in it yet"), "{}", api.text);
    assert!(!api.text.contains("yours is 0"), "{}", api.text);
    let c = app.get(&format!("/api/v1/competitions/{id}"), None).await;
    assert_eq!(
        c.json["entrants"].as_array().map(Vec::len),
        Some(0),
        "{}",
        c.text
    );
}

/// The competition pages name formats, entrants' statuses and the director's actions in the
/// reader's language (here Spanish), never by the API's English names, which the API keeps.
#[actix_web::test]
async fn the_competition_pages_name_formats_statuses_and_director_actions_in_the_readers_language()
{
    use crate::bad_input::account_cookie;
    use crate::web::page;
    let ev = Event::new(&["Ann", "Ben", "Cid", "Dee"]).await;
    ev.app.set_locale(&ev.organiser, "es").await;
    let (olga, _) = account_cookie(&ev.app, &ev.organiser, "olga@example.test").await;
    let id = ev
        .create(json!({"name": "Copa", "kind": "magnate", "entry": "open",
                       "format": {"type": "round_robin", "cycles": 2, "rounds": "all_at_once"},
                       "tie_breaks": ["wins", "head_to_head"]}))
        .await;
    for (action, who) in [("withdraw", "Ann"), ("disqualify", "Ben")] {
        let body = json!({"action": action, "account_id": ev.players[who].1, "reason": "motivo"});
        let r = ev
            .app
            .post(
                &format!("/api/v1/competitions/{id}/director"),
                Some(&ev.organiser),
                body,
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    ev.deliver();

    let shown = page(&ev.app, &format!("/competitions/{id}"), &olga).await;
    assert_eq!(shown.status, 200, "{}", shown.text);
    let text = &shown.text;
    for spanish in [
        // The format, in the heading's line.
        "Magnate · Todos contra todos a doble vuelta · ",
        // The entrants' statuses, in the list and in the standings.
        "<em>retirado</em>",
        "<em>descalificado</em>",
        " (retirado)",
        // The director's form's actions, by the API's names.
        "<option value=\"set_result\">Fijar un resultado</option>",
        "<option value=\"extend_deadline\">Ampliar un plazo</option>",
        "<option value=\"resume\">Reanudar</option>",
        "<option value=\"finalise\">Cerrar la clasificación</option>",
        // The director's log.
        " · Retirar a un jugador · motivo",
        " · Descalificar a un jugador · motivo",
        // The standings' tie-breaks, their API names as the headings' titles.
        "<th title=\"wins\">Victorias</th>",
        "<th title=\"head_to_head\">Enfrentamiento directo</th>",
    ] {
        assert!(text.contains(spanish), "{spanish}: {text}");
    }
    for english in [
        "round robin",
        "<em>withdrawn</em>",
        "<em>disqualified</em>",
        "(withdrawn)",
        ">set result<",
        ">extend deadline<",
        ">finalise<",
        "<code>withdraw</code>",
        "<code>disqualify</code>",
        ">wins<",
        ">head_to_head<",
    ] {
        assert!(!text.contains(english), "{english}: {text}");
    }

    // The list and the creation form name the formats so too.
    let list = page(&ev.app, "/competitions", &olga).await;
    assert!(
        list.text
            .contains(" · Todos contra todos a doble vuelta · "),
        "{}",
        list.text
    );
    let form = page(&ev.app, "/competitions/new", &olga).await;
    for option in [
        "value=\"swiss\" selected>Suizo</option>",
        "value=\"knockout\">Eliminatoria</option>",
        "value=\"league\">Liga</option>",
        "value=\"tables\">Mesas</option>",
    ] {
        assert!(form.text.contains(option), "{option}: {}", form.text);
    }
    assert!(!form.text.contains(">Round robin<"), "{}", form.text);

    // The API keeps its names.
    let c = ev
        .app
        .get(&format!("/api/v1/competitions/{id}"), None)
        .await;
    assert_eq!(c.json["format"]["type"], "round_robin", "{}", c.text);
    let statuses: Vec<&str> = c.json["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["status"].as_str())
        .collect();
    assert!(
        statuses.contains(&"withdrawn") && statuses.contains(&"disqualified"),
        "{statuses:?}"
    );
    let audit = ev
        .app
        .get(&format!("/api/v1/competitions/{id}/audit"), None)
        .await;
    assert!(
        audit.text.contains("\"action\":\"withdraw\""),
        "{}",
        audit.text
    );
}
