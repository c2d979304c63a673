//! Paging of the caller's games, a game's history and its chat: `limit`/`offset` and
//! `after`/`limit`, a `Link: <...>; rel="next"` (RFC 8288) exactly when more follow, and the
//! unpaged answers as they were.

use crate::helpers::{Reply, Table, TestApp, spawn_app, without_notation};
use serde_json::{Value, json};

/// The address of the next page a reply's `Link` names, if it names one.
fn next_of(r: &Reply) -> Option<String> {
    let link = r.header("link");
    if link.is_empty() {
        return None;
    }
    let (target, rel) = link.split_once(';').expect("`<url>; rel=...`");
    assert_eq!(rel.trim(), "rel=\"next\"", "{link}");
    let target = target.trim();
    assert!(target.starts_with('<') && target.ends_with('>'), "{link}");
    Some(target[1..target.len() - 1].to_owned())
}

/// Every page from `first` on, following the `Link`s: the rows of each page, and the address of
/// each page after the first.
async fn follow(app: &TestApp, first: &str, token: Option<&str>) -> (Vec<Vec<Value>>, Vec<String>) {
    let (mut pages, mut links) = (Vec::new(), Vec::new());
    let mut at = first.to_owned();
    loop {
        let r = app.get(&at, token).await;
        assert_eq!(r.status, 200, "{at}: {}", r.text);
        pages.push(r.json.as_array().unwrap().clone());
        match next_of(&r) {
            Some(next) => {
                assert!(pages.len() < 50, "the links go round: {next}");
                links.push(next.clone());
                at = next;
            }
            None => return (pages, links),
        }
    }
}

fn ids(rows: &[Value]) -> Vec<String> {
    rows.iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect()
}

fn seqs(rows: &[Value]) -> Vec<i64> {
    rows.iter().map(|e| e["seq"].as_i64().unwrap()).collect()
}

/// Ada's games: `n` waiting ones, each with an open seat.
async fn waiting_games(app: &TestApp, ada: &str, n: usize) {
    for _ in 0..n {
        let g = app
            .post(
                "/api/v1/games",
                Some(ada),
                json!({"kind": "magnate", "open_seats": 1}),
            )
            .await;
        assert_eq!(g.status, 201, "{}", g.text);
    }
}

#[actix_web::test]
async fn paging_my_games_by_two_gives_every_game_once_in_the_list_order() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    waiting_games(&app, &ada, 5).await;
    let whole = app.get("/api/v1/games", Some(&ada)).await;
    assert_eq!(whole.status, 200, "{}", whole.text);
    assert_eq!(next_of(&whole), None, "the whole list has nothing after it");
    let whole = ids(whole.json.as_array().unwrap());
    assert_eq!(whole.len(), 5);

    let (pages, links) = follow(&app, "/api/v1/games?status=waiting&limit=2", Some(&ada)).await;
    let sizes: Vec<usize> = pages.iter().map(Vec::len).collect();
    assert_eq!(sizes, [2, 2, 1]);
    assert_eq!(
        ids(&pages.concat()),
        whole,
        "each game once, in the list's order"
    );
    assert_eq!(
        links,
        [
            "/api/v1/games?status=waiting&limit=2&offset=2",
            "/api/v1/games?status=waiting&limit=2&offset=4",
        ],
        "the next page keeps the other parameters"
    );
}

#[actix_web::test]
async fn paging_my_games_links_a_next_page_exactly_when_more_games_follow() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    waiting_games(&app, &ada, 4).await;
    for (query, rows, more) in [
        ("limit=4", 4, false),
        ("limit=3", 3, true),
        ("limit=2&offset=2", 2, false),
        ("limit=2&offset=1", 2, true),
        ("offset=3", 1, false),
        ("limit=2&offset=9", 0, false),
    ] {
        let r = app.get(&format!("/api/v1/games?{query}"), Some(&ada)).await;
        assert_eq!(r.status, 200, "{query}: {}", r.text);
        assert_eq!(r.json.as_array().unwrap().len(), rows, "{query}");
        assert_eq!(
            next_of(&r).is_some(),
            more,
            "{query}: {:?}",
            r.header("link")
        );
    }
}

/// Ada's turn in games of several deadlines, two of them without any: pages of my turn follow
/// the nearest deadline first as the whole list does, the games without a deadline last and in
/// a stable order.
#[actix_web::test]
async fn paging_my_turn_by_two_follows_the_nearest_deadline_first() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let bruno = app.user("bruno@example.test", "Bruno").await;
    let clocks = [
        json!({"type": "per_move", "seconds": 7200}),
        json!({"type": "none"}),
        json!({"type": "per_move", "seconds": 3600}),
        json!({"type": "none"}),
        json!({"type": "per_move", "seconds": 10800}),
    ];
    for clock in clocks {
        let g = app
            .post(
                "/api/v1/games",
                Some(&ada),
                json!({"kind": "magnate", "options": {"start_player": "first_seat"},
                       "invite": ["bruno@example.test"], "clock": clock}),
            )
            .await;
        assert_eq!(g.status, 201, "{}", g.text);
        let id = g.json["id"].as_str().unwrap();
        let r = app
            .post(&format!("/api/v1/games/{id}/join"), Some(&bruno), json!({}))
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    // A waiting game of Ada's is not her turn.
    waiting_games(&app, &ada, 1).await;
    let whole = app.get("/api/v1/games?my_turn=true", Some(&ada)).await;
    let whole = whole.json.as_array().unwrap().clone();
    assert_eq!(whole.len(), 5);
    let deadlines: Vec<Option<&str>> = whole
        .iter()
        .map(|g| g["seats"][0]["deadline"].as_str())
        .collect();
    assert!(deadlines[..3].iter().all(Option::is_some), "{deadlines:?}");
    assert!(deadlines[..3].is_sorted(), "{deadlines:?}");
    assert!(deadlines[3..].iter().all(Option::is_none), "{deadlines:?}");

    let (pages, links) = follow(&app, "/api/v1/games?my_turn=true&limit=2", Some(&ada)).await;
    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), [2, 2, 1]);
    assert_eq!(ids(&pages.concat()), ids(&whole));
    assert!(
        links.iter().all(|l| l.contains("my_turn=true")),
        "{links:?}"
    );
    let none = app
        .get("/api/v1/games?my_turn=true&limit=5", Some(&bruno))
        .await;
    assert_eq!((none.json.clone(), next_of(&none)), (json!([]), None));
}

/// The seat the game waits for plays a deed when it may (so that the game soon holds deeds), or
/// ends its turn.
async fn play_one(app: &TestApp, table: &Table) {
    let (seat, g) = app.mover(table).await;
    let legal = g["legal_actions"].as_array().unwrap();
    let pick = ["deed", "end"]
        .iter()
        .find_map(|kind| legal.iter().find(|a| a["type"] == *kind))
        .unwrap_or(&legal[0]);
    let r = app
        .submit(
            table,
            seat,
            g["version"].as_i64().unwrap(),
            json!([without_notation(pick)]),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
}

#[actix_web::test]
async fn paging_history_after_a_seq_answers_only_the_newer_entries_as_each_seat_sees_them() {
    let app = spawn_app().await;
    let table = app.table().await;
    for _ in 0..6 {
        play_one(&app, &table).await;
    }
    let path = format!("/api/v1/games/{}/history", table.id);
    for token in &table.tokens {
        let whole = app.get(&path, Some(token)).await;
        assert_eq!(next_of(&whole), None);
        let whole = whole.json.as_array().unwrap().clone();
        assert!(whole.len() >= 7, "the setup and six actions");
        // Only what is new since each entry a client may hold.
        for held in &whole {
            let seq = held["seq"].as_i64().unwrap();
            let newer = app.get(&format!("{path}?after={seq}"), Some(token)).await;
            assert_eq!(newer.status, 200, "{}", newer.text);
            let expected: Vec<Value> = whole
                .iter()
                .filter(|e| e["seq"].as_i64().unwrap() > seq)
                .cloned()
                .collect();
            assert_eq!(newer.json, json!(expected), "after={seq}");
        }
        // Pages of two, the setup included, are the whole history as this seat sees it.
        let (pages, links) = follow(&app, &format!("{path}?limit=2"), Some(token)).await;
        assert_eq!(json!(pages.concat()), json!(whole));
        assert!(pages.iter().all(|p| p.len() <= 2));
        let last_seqs: Vec<i64> = pages[..pages.len() - 1]
            .iter()
            .map(|p| *seqs(p).last().unwrap())
            .collect();
        let expected: Vec<String> = last_seqs
            .iter()
            .map(|s| format!("{path}?limit=2&after={s}"))
            .collect();
        assert_eq!(links, expected);
    }
    // Past the last entry: nothing, and no link.
    let last = app.get(&path, Some(&table.tokens[0])).await;
    let top = *seqs(last.json.as_array().unwrap()).last().unwrap();
    let r = app
        .get(
            &format!("{path}?after={top}&limit=3"),
            Some(&table.tokens[0]),
        )
        .await;
    assert_eq!(
        (r.status, r.json.clone(), next_of(&r)),
        (200, json!([]), None)
    );
    let r = app
        .get(&format!("{path}?after=999999"), Some(&table.tokens[0]))
        .await;
    assert_eq!((r.status, r.json.clone()), (200, json!([])));
}

/// A Magnate preference is its sender's alone: the other seat's pages leave it out as its whole
/// history does, and it fills no place of theirs.
#[actix_web::test]
async fn paging_history_keeps_another_seats_secret_action_hidden() {
    let app = spawn_app().await;
    let table = app.table().await;
    // Play until the waiting seat holds a deed it may set a preference on.
    let mut preferred = None;
    for _ in 0..200 {
        let (mover, _) = app.mover(&table).await;
        let other = 1 - mover;
        if app.prefer_on_a_deed(&table, other).await {
            preferred = Some((other, mover));
            break;
        }
        play_one(&app, &table).await;
    }
    let (sender, watcher) = preferred.expect("a deed within 200 actions");
    play_one(&app, &table).await;
    let path = format!("/api/v1/games/{}/history", table.id);
    let senders = app.get(&path, Some(&table.tokens[sender])).await.json;
    let secret = senders
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["action"]["type"] == "prefer")
        .map(|e| e["seq"].as_i64().unwrap())
        .expect("the sender sees their preference");
    let watchers = app.get(&path, Some(&table.tokens[watcher])).await.json;
    let watchers = watchers.as_array().unwrap().clone();
    assert!(
        !seqs(&watchers).contains(&secret),
        "hidden in the whole history"
    );
    for limit in [1, 2, 3] {
        let (pages, _) = follow(
            &app,
            &format!("{path}?limit={limit}"),
            Some(&table.tokens[watcher]),
        )
        .await;
        assert!(
            pages
                .iter()
                .all(|p| p.len() == limit || p == pages.last().unwrap())
        );
        assert_eq!(json!(pages.concat()), json!(watchers), "limit={limit}");
    }
    // Asked from just before it, the watcher gets what follows it, never the secret entry.
    let r = app
        .get(
            &format!("{path}?after={}", secret - 1),
            Some(&table.tokens[watcher]),
        )
        .await;
    let after: Vec<Value> = watchers
        .iter()
        .filter(|e| e["seq"].as_i64().unwrap() > secret - 1)
        .cloned()
        .collect();
    assert_eq!(r.json, json!(after));
    assert!(!r.text.contains("prefer"), "{}", r.text);
}

#[actix_web::test]
async fn paging_chat_after_a_seq_answers_only_the_newer_messages() {
    let app = spawn_app().await;
    let t = app.table().await;
    let chat = format!("/api/v1/games/{}/chat", t.id);
    for i in 1..=5 {
        let r = app
            .post(
                &chat,
                Some(&t.tokens[i % 2]),
                json!({"text": format!("message {i}")}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.text);
    }
    let whole = app.get(&chat, Some(&t.tokens[0])).await;
    assert_eq!(next_of(&whole), None);
    assert_eq!(seqs(whole.json.as_array().unwrap()), [1, 2, 3, 4, 5]);

    let newer = app
        .get(&format!("{chat}?after=3"), Some(&t.tokens[0]))
        .await;
    assert_eq!(newer.status, 200, "{}", newer.text);
    assert_eq!(seqs(newer.json.as_array().unwrap()), [4, 5]);
    assert_eq!(newer.json[0]["text"], "message 4");
    assert_eq!(next_of(&newer), None);

    let (pages, links) = follow(&app, &format!("{chat}?limit=2"), Some(&t.tokens[1])).await;
    assert_eq!(json!(pages.concat()), whole.json);
    assert_eq!(
        links,
        [
            format!("{chat}?limit=2&after=2"),
            format!("{chat}?limit=2&after=4")
        ]
    );
    let full = app
        .get(&format!("{chat}?after=1&limit=4"), Some(&t.tokens[0]))
        .await;
    assert_eq!(seqs(full.json.as_array().unwrap()), [2, 3, 4, 5]);
    assert_eq!(next_of(&full), None, "a full last page has no next");

    // A muted seat's messages take no place on a page.
    let r = app
        .call(
            awc::http::Method::PUT,
            &format!("{chat}/mutes/1"),
            Some(&t.tokens[0]),
            None,
        )
        .await;
    assert!(r.status < 300, "{}", r.text);
    let (pages, _) = follow(&app, &format!("{chat}?limit=1"), Some(&t.tokens[0])).await;
    let shown: Vec<i64> = seqs(&pages.concat());
    assert_eq!(shown, [2, 4], "seat 0 wrote the even ones");
    assert_eq!(pages.len(), 2, "no empty page at the end");
}

#[actix_web::test]
async fn paging_values_out_of_range_or_unreadable_are_refused_naming_the_parameter() {
    let app = spawn_app().await;
    let t = app.table().await;
    let history = format!("/api/v1/games/{}/history", t.id);
    let chat = format!("/api/v1/games/{}/chat", t.id);
    let cases = [
        (
            "/api/v1/games?limit=0",
            "`limit` must be a number from 1 to 200",
        ),
        (
            "/api/v1/games?limit=500",
            "`limit` must be a number from 1 to 200",
        ),
        (
            "/api/v1/games?limit=abc",
            "`limit` must be a number from 1 to 200",
        ),
        (
            "/api/v1/games?limit=-1",
            "`limit` must be a number from 1 to 200",
        ),
        (
            "/api/v1/games?offset=1000001",
            "`offset` must be a number from 0 to 1000000",
        ),
        (
            "/api/v1/games?offset=-1",
            "`offset` must be a number from 0 to 1000000",
        ),
        (
            "/api/v1/games?my_turn=true&limit=2&limit=3",
            "`limit` is given more than once",
        ),
        (
            "/api/v1/games?after=3",
            "`after` is not a query parameter of this route",
        ),
        (
            &format!("{history}?after=-1"),
            "`after` must be a whole number of at least 0",
        ),
        (
            &format!("{history}?after=abc"),
            "`after` must be a whole number of at least 0",
        ),
        (
            &format!("{history}?limit=0"),
            "`limit` must be a number from 1 to 200",
        ),
        (
            &format!("{history}?limit=500"),
            "`limit` must be a number from 1 to 200",
        ),
        (
            &format!("{history}?offset=2"),
            "`offset` is not a query parameter of this route",
        ),
        (
            &format!("{chat}?after=-1"),
            "`after` must be a whole number of at least 0",
        ),
        (
            &format!("{chat}?after=abc"),
            "`after` must be a whole number of at least 0",
        ),
        (
            &format!("{chat}?limit=201"),
            "`limit` must be a number from 1 to 200",
        ),
        (
            &format!("{chat}?limit=x"),
            "`limit` must be a number from 1 to 200",
        ),
    ];
    for (path, said) in cases {
        let r = app.get(path, Some(&t.tokens[0])).await;
        r.assert_problem(422, "validation_failed");
        let detail = r.json["detail"].as_str().unwrap();
        assert!(detail.contains(said), "{path}: {detail}");
        assert_eq!(r.header("link"), "", "{path}");
    }
}
