//! Events for clients over HTTP (design.md section 17): the account event stream follows a whole
//! game in order and resumes after a drop with nothing lost or repeated, a second server on the
//! same database wakes its streams too, webhooks are delivered once each with a valid signature
//! across a receiver outage, and chat keeps its limits and shows nothing hidden.

use crate::helpers::{Dice, Reply, Table, TestApp, spawn_app, without_notation};
use futures_util::StreamExt;
use herald::jobs::Worker;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// An open event stream: the events read so far.
struct Stream {
    body: awc::ClientResponse<actix_web::dev::Decompress<actix_web::dev::Payload>>,
    buffer: String,
    events: Vec<(i64, String, Value)>,
}

async fn open(base: &str, token: &str, last: Option<i64>) -> Stream {
    let client = awc::Client::builder()
        .timeout(Duration::from_secs(600))
        .finish();
    let mut req = client
        .get(format!("{base}/api/v1/me/events"))
        .insert_header(("Authorization", format!("Bearer {token}")))
        .insert_header(("Accept", "text/event-stream"));
    if let Some(n) = last {
        req = req.insert_header(("Last-Event-ID", n.to_string()));
    }
    let body = req.send().await.unwrap();
    assert_eq!(body.status(), 200);
    assert!(
        body.headers()
            .get("content-type")
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("text/event-stream")
    );
    Stream {
        body,
        buffer: String::new(),
        events: Vec::new(),
    }
}

impl Stream {
    /// Reads until `done` holds for the events so far, or `wait` passes.
    async fn read_until(&mut self, wait: Duration, done: impl Fn(&[(i64, String, Value)]) -> bool) {
        let end = tokio::time::Instant::now() + wait;
        while !done(&self.events) {
            let left = end.saturating_duration_since(tokio::time::Instant::now());
            let Ok(Some(chunk)) = tokio::time::timeout(left, self.body.next()).await else {
                return;
            };
            self.buffer
                .push_str(&String::from_utf8_lossy(&chunk.unwrap()));
            while let Some(at) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..at + 2).collect();
                let (mut id, mut kind, mut data) = (None, String::new(), Value::Null);
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("id: ") {
                        id = v.parse().ok();
                    } else if let Some(v) = line.strip_prefix("event: ") {
                        kind = v.to_owned();
                    } else if let Some(v) = line.strip_prefix("data: ") {
                        data = serde_json::from_str(v).unwrap();
                    }
                }
                if let Some(id) = id {
                    self.events.push((id, kind, data));
                }
            }
        }
    }
}

fn kinds(events: &[(i64, String, Value)]) -> Vec<&str> {
    events.iter().map(|(_, k, _)| k.as_str()).collect()
}

/// Plays one random legal action of whoever must act; false once the game is over.
async fn step(app: &TestApp, t: &Table, dice: &mut Dice) -> bool {
    for seat in 0..2 {
        let g = app.game(t, seat).await;
        if g["status"] != "active" {
            return false;
        }
        let legal = g["legal_actions"].as_array().unwrap();
        if legal.is_empty() {
            continue;
        }
        let action = without_notation(&legal[dice.below(legal.len())]);
        let r = app
            .submit(t, seat, g["version"].as_i64().unwrap(), json!([action]))
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
        return true;
    }
    panic!("nobody can act");
}

#[actix_web::test]
async fn a_stream_follows_a_whole_game_in_order_and_resumes_after_a_drop_with_nothing_lost() {
    let app = spawn_app().await;
    let t = app.table().await;
    // The game started when Bruno joined: both follow from their first event.
    let mut streams = [
        open(&app.base, &t.tokens[0], Some(0)).await,
        open(&app.base, &t.tokens[1], Some(0)).await,
    ];
    let mut dice = Dice::new(5);
    // A few moves, then Bruno's stream drops; the game goes on; he comes back with his last id.
    for _ in 0..6 {
        assert!(step(&app, &t, &mut dice).await);
    }
    let seen = |s: &Stream| s.events.last().map_or(0, |e| e.0);
    streams[1]
        .read_until(Duration::from_secs(3), |_| false)
        .await;
    let before_drop = streams[1].events.clone();
    let last = seen(&streams[1]);
    let [ada, bruno] = streams;
    drop(bruno);
    let mut moves = 0;
    while moves < 20 && step(&app, &t, &mut dice).await {
        moves += 1;
    }
    let mut bruno = open(&app.base, &t.tokens[1], Some(last)).await;
    let mut ada = ada;
    while step(&app, &t, &mut dice).await {}
    let over = |e: &[(i64, String, Value)]| e.iter().any(|(_, k, _)| k == "game_over");
    bruno.read_until(Duration::from_secs(10), over).await;
    ada.read_until(Duration::from_secs(10), over).await;

    for (who, (token, events)) in [
        (&t.tokens[0], ada.events.clone()),
        (
            &t.tokens[1],
            before_drop
                .iter()
                .cloned()
                .chain(bruno.events.clone())
                .collect::<Vec<_>>(),
        ),
    ]
    .into_iter()
    .enumerate()
    {
        // Numbered 1, 2, 3... without a gap or a repeat, across the drop.
        let ids: Vec<i64> = events.iter().map(|e| e.0).collect();
        assert_eq!(
            ids,
            (1..=ids.len() as i64).collect::<Vec<_>>(),
            "seat {who}: {:?}",
            kinds(&events)
        );
        assert_eq!(kinds(&events)[0], "game_started", "seat {who}");
        assert_eq!(*kinds(&events).last().unwrap(), "game_over", "seat {who}");
        assert!(kinds(&events).contains(&"your_move"));
        for (_, _, data) in &events {
            assert_eq!(data["game_id"], json!(t.id));
            // Only ids, names and numbers: the game's hidden parts never travel in an event.
            let keys: Vec<&String> = data["data"].as_object().unwrap().keys().collect();
            for k in keys {
                assert!(
                    ["game_id", "kind", "seat", "version", "winners", "reason"]
                        .contains(&k.as_str()),
                    "{k} in {data}"
                );
            }
        }
        // `?after=N` answers the same events as JSON.
        let listed = app.get("/api/v1/me/events?after=0", Some(token)).await;
        let listed: Vec<(i64, String)> = listed
            .json
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["id"].as_i64().unwrap(),
                    e["type"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        let streamed: Vec<(i64, String)> = events.iter().map(|(i, k, _)| (*i, k.clone())).collect();
        assert_eq!(listed, streamed);
    }
}

/// How many events the account's log holds (`?after=0`).
async fn logged(app: &TestApp, token: &str) -> usize {
    let listed = app.get("/api/v1/me/events?after=0", Some(token)).await;
    listed.json.as_array().unwrap().len()
}

#[actix_web::test]
async fn every_move_wakes_the_streams_at_once_to_the_last() {
    // Each event must reach its stream within a second of the move's answer, with no later
    // traffic to wake it: a notification missed (no lease taken, or not seen by the write)
    // leaves the stream asleep until its keep-alive (15 s). Moves go through the unlocked write
    // and the last through the ending's transaction, each notifying at its commit.
    let app = spawn_app().await;
    let t = app.table().await;
    let mut streams = [
        open(&app.base, &t.tokens[0], Some(0)).await,
        open(&app.base, &t.tokens[1], Some(0)).await,
    ];
    // Both streams are reading (and listened for) before the first move.
    for (seat, stream) in streams.iter_mut().enumerate() {
        let total = logged(&app, &t.tokens[seat]).await;
        stream
            .read_until(Duration::from_secs(2), |e| e.len() >= total)
            .await;
    }
    let mut dice = Dice::new(3);
    let mut moves = 0;
    loop {
        let going = step(&app, &t, &mut dice).await;
        for (seat, stream) in streams.iter_mut().enumerate() {
            let total = logged(&app, &t.tokens[seat]).await;
            stream
                .read_until(Duration::from_secs(1), |e| e.len() >= total)
                .await;
            assert_eq!(
                stream.events.len(),
                total,
                "seat {seat} after move {moves}: {:?}",
                kinds(&stream.events)
            );
        }
        if !going {
            break;
        }
        moves += 1;
    }
    for stream in &streams {
        assert_eq!(*kinds(&stream.events).last().unwrap(), "game_over");
    }
}

/// What the database announced on the streams' channel since last asked: account ids.
fn announced(listener: &mut diesel::PgConnection) -> Vec<String> {
    use diesel::RunQueryDsl;
    // libpq hands notifications over with the answer to a query.
    diesel::sql_query("SELECT 1").execute(listener).unwrap();
    listener
        .notifications_iter()
        .map(|n| n.unwrap().payload)
        .collect()
}

#[actix_web::test]
async fn moves_are_announced_only_to_accounts_that_follow_a_stream() {
    use diesel::{Connection, RunQueryDsl};
    // A commit that notifies waits for the notifying commits before it to reach the disk, so
    // accounts that follow by mail alone are not announced; one with a stream open is.
    let app = spawn_app().await;
    let t = app.table().await;
    let mut listener = diesel::PgConnection::establish(&app.db_url).unwrap();
    diesel::sql_query(format!("LISTEN {}", herald::services::events::CHANNEL))
        .execute(&mut listener)
        .unwrap();
    let mut dice = Dice::new(4);
    for _ in 0..4 {
        assert!(step(&app, &t, &mut dice).await);
    }
    assert_eq!(announced(&mut listener), Vec::<String>::new());

    let bruno = app.get("/api/v1/me", Some(&t.tokens[1])).await;
    let bruno = bruno.json["id"].as_str().unwrap().to_owned();
    let mut stream = open(&app.base, &t.tokens[1], None).await;
    // The stream's first read holds the account's lease; a keep-alive comes 15 s later.
    stream
        .read_until(Duration::from_millis(500), |_| false)
        .await;
    // Until an event of Bruno's is written (his turn comes).
    let before = logged(&app, &t.tokens[1]).await;
    for _ in 0..40 {
        assert!(step(&app, &t, &mut dice).await);
        if logged(&app, &t.tokens[1]).await > before {
            break;
        }
    }
    let heard = announced(&mut listener);
    assert!(!heard.is_empty(), "no announcement for Bruno's stream");
    assert!(
        heard.iter().all(|u| *u == bruno),
        "{heard:?} (Bruno: {bruno})"
    );
    let total = logged(&app, &t.tokens[1]).await;
    stream
        .read_until(Duration::from_secs(2), |e| {
            e.last().is_some_and(|l| l.0 == total as i64)
        })
        .await;
    assert_eq!(stream.events.last().map(|e| e.0), Some(total as i64));
}

/// Ends the server's listening connection, as a restart of the database or a network fault
/// would; true when there was one.
fn end_listener(app: &TestApp) -> bool {
    use diesel::{Connection, QueryableByName, RunQueryDsl};
    #[derive(QueryableByName)]
    struct Ended {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let mut conn = diesel::PgConnection::establish(&app.db_url).unwrap();
    let ended: Ended = diesel::sql_query(
        "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) AS n FROM pg_stat_activity \
         WHERE application_name = $1 AND datname = current_database()",
    )
    .bind::<diesel::sql_types::Text, _>(herald::services::events::LISTENER_NAME)
    .get_result(&mut conn)
    .unwrap();
    ended.n == 1
}

#[actix_web::test]
async fn a_move_made_while_the_listener_reconnects_reaches_the_stream_without_waiting_for_a_keep_alive()
 {
    // The move's announcement goes nowhere while the server has no listening connection; once
    // the listener is back every stream reads its log again. Before, the stream slept until its
    // keep-alive, 15 s later.
    let app = spawn_app().await;
    let t = app.table().await;
    let mut stream = open(&app.base, &t.tokens[1], Some(0)).await;
    let total = logged(&app, &t.tokens[1]).await;
    stream
        .read_until(Duration::from_secs(2), |e| e.len() >= total)
        .await;
    assert_eq!(stream.events.len(), total);

    assert!(end_listener(&app), "no listening connection to end");
    // Moves until one gives Bruno an event, all within the second the listener is away.
    let mut dice = Dice::new(5);
    for _ in 0..40 {
        assert!(step(&app, &t, &mut dice).await);
        if logged(&app, &t.tokens[1]).await > total {
            break;
        }
    }
    let total = logged(&app, &t.tokens[1]).await;
    stream
        .read_until(Duration::from_secs(5), |e| e.len() >= total)
        .await;
    assert_eq!(
        stream.events.len(),
        total,
        "the stream missed the move made while the listener was away: {:?}",
        kinds(&stream.events)
    );
    // And the listener is back for the moves after.
    assert!(end_listener(&app), "the listener did not come back");
}

#[actix_web::test]
async fn a_second_server_on_the_same_database_wakes_its_streams_and_sends_each_event_once() {
    let app = spawn_app().await;
    let other_base = app.second_server();
    let t = app.table().await;
    // Ada follows on the second server while the moves go to the first.
    let mut stream = open(&other_base, &t.tokens[0], Some(0)).await;
    let mut dice = Dice::new(9);
    for _ in 0..10 {
        step(&app, &t, &mut dice).await;
    }
    let total = app
        .get("/api/v1/me/events?after=0", Some(&t.tokens[0]))
        .await
        .json
        .as_array()
        .unwrap()
        .len();
    stream
        .read_until(Duration::from_secs(10), |e| e.len() >= total)
        .await;
    stream
        .read_until(Duration::from_millis(800), |_| false)
        .await;
    let ids: Vec<i64> = stream.events.iter().map(|e| e.0).collect();
    assert_eq!(ids, (1..=total as i64).collect::<Vec<_>>());
}

/// A received request: its headers (lower-case names) and body.
type Delivery = (BTreeMap<String, String>, Vec<u8>);

/// A webhook receiver: keeps each request's headers and body; answers 503 while `down`.
#[derive(Clone, Default)]
struct Receiver {
    got: Arc<Mutex<Vec<Delivery>>>,
    down: Arc<Mutex<bool>>,
}

impl Receiver {
    fn start(&self) -> String {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        let me = self.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(mut conn) = conn else { continue };
                let mut reader = BufReader::new(conn.try_clone().unwrap());
                let mut headers = BTreeMap::new();
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                loop {
                    line.clear();
                    reader.read_line(&mut line).unwrap();
                    let l = line.trim_end();
                    if l.is_empty() {
                        break;
                    }
                    if let Some((k, v)) = l.split_once(':') {
                        headers.insert(k.trim().to_lowercase(), v.trim().to_owned());
                    }
                }
                let n: usize = headers
                    .get("content-length")
                    .map_or(0, |v| v.parse().unwrap());
                let mut body = vec![0; n];
                reader.read_exact(&mut body).unwrap();
                let down = *me.down.lock().unwrap();
                if !down {
                    me.got.lock().unwrap().push((headers, body));
                }
                let status = if down {
                    "503 Service Unavailable"
                } else {
                    "200 OK"
                };
                let _ = write!(
                    conn,
                    "HTTP/1.1 {status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                );
            }
        });
        url
    }
}

/// The ids of the account's events of the webhook test's subscribed types.
async fn subscribed(app: &TestApp, token: &str) -> Vec<i64> {
    app.get("/api/v1/me/events?after=0", Some(token))
        .await
        .json
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| ["your_move", "game_over", "chat"].contains(&e["type"].as_str().unwrap()))
        .map(|e| e["id"].as_i64().unwrap())
        .collect()
}

fn due_now(app: &TestApp) {
    use diesel::{Connection, PgConnection, RunQueryDsl};
    let mut conn = PgConnection::establish(&app.db_url).unwrap();
    diesel::sql_query("UPDATE jobs SET run_at = now() WHERE status = 'queued'")
        .execute(&mut conn)
        .unwrap();
}

#[actix_web::test]
async fn webhooks_get_every_event_once_signed_and_across_an_outage() {
    let app = spawn_app().await;
    let t = app.table().await;
    let receiver = Receiver::default();
    let url = receiver.start();
    // Events from before the subscription (the game's start) are not delivered to it.
    let before: i64 = app
        .get("/api/v1/me/events?after=0", Some(&t.tokens[1]))
        .await
        .json
        .as_array()
        .unwrap()
        .last()
        .map_or(0, |e| e["id"].as_i64().unwrap());
    let sub = app
        .post(
            "/api/v1/me/webhooks",
            Some(&t.tokens[1]),
            json!({"url": url, "events": ["your_move", "game_over", "chat"]}),
        )
        .await;
    assert_eq!(sub.status, 201, "{}", sub.text);
    let secret = sub.json["secret"].as_str().unwrap().to_owned();
    let id = sub.json["id"].as_str().unwrap().to_owned();
    let again = app
        .get(&format!("/api/v1/me/webhooks/{id}"), Some(&t.tokens[1]))
        .await;
    assert!(again.json.get("secret").is_none() && !again.text.contains(&secret));
    let listed = app.get("/api/v1/me/webhooks", Some(&t.tokens[1])).await;
    assert!(!listed.text.contains(&secret));

    let worker = Worker::new(&app.settings, herald::db::pool(&app.db_url, 2).unwrap()).unwrap();
    let mut dice = Dice::new(4);
    for _ in 0..8 {
        step(&app, &t, &mut dice).await;
    }
    worker.drain().unwrap();
    // The receiver goes down; more moves; it comes back; the retries bring everything.
    *receiver.down.lock().unwrap() = true;
    // At least one subscribed event while it is down: eight moves may all be one player's long
    // turn (the deal is random), which tells the other nothing.
    let up_to_now = subscribed(&app, &t.tokens[1]).await.len();
    let mut moves = 0;
    while moves < 8 || subscribed(&app, &t.tokens[1]).await.len() == up_to_now {
        assert!(moves < 200, "no subscribed event in 200 moves");
        if !step(&app, &t, &mut dice).await {
            break;
        }
        moves += 1;
    }
    worker.drain().unwrap();
    *receiver.down.lock().unwrap() = false;
    for _ in 0..5 {
        due_now(&app);
        worker.drain().unwrap();
    }
    let want: Vec<i64> = subscribed(&app, &t.tokens[1])
        .await
        .into_iter()
        .filter(|id| *id > before)
        .collect();
    let got = receiver.got.lock().unwrap().clone();
    let mut ids: Vec<i64> = got
        .iter()
        .map(|(h, _)| h["herald-event-id"].parse().unwrap())
        .collect();
    ids.sort_unstable();
    let log = app
        .get(&format!("/api/v1/me/webhooks/{id}"), Some(&t.tokens[1]))
        .await;
    assert_eq!(ids, want, "every subscribed event once; log {}", log.text);
    for (headers, body) in &got {
        assert_eq!(
            headers["herald-signature"],
            herald::services::webhooks::signature(&secret, body)
        );
        let event: Value = serde_json::from_slice(body).unwrap();
        assert_eq!(event["id"].to_string(), headers["herald-event-id"]);
    }
    // The delivery log shows them delivered, some after several tries.
    let log = app
        .get(&format!("/api/v1/me/webhooks/{id}"), Some(&t.tokens[1]))
        .await;
    let deliveries = log.json["deliveries"].as_array().unwrap();
    assert!(
        deliveries.iter().all(|d| d["status"] == "delivered"),
        "{}",
        log.text
    );
    assert!(
        deliveries
            .iter()
            .any(|d| d["attempts"].as_i64().unwrap() > 1)
    );
    // A private address is refused where it is not allowed (tests allow it; the rule is unit-tested).
    let bad = app
        .post(
            "/api/v1/me/webhooks",
            Some(&t.tokens[1]),
            json!({"url": "ftp://x/", "events": ["chat"]}),
        )
        .await;
    bad.assert_problem(422, "validation_failed");
}

#[actix_web::test]
async fn chat_is_for_the_players_within_its_limits_and_reaches_the_opponent_as_an_event() {
    let app = spawn_app().await;
    let t = app.table().await;
    let outsider = app.user("otto@example.test", "Otto").await;
    let chat = format!("/api/v1/games/{}/chat", t.id);
    let ok = app
        .post(&chat, Some(&t.tokens[0]), json!({"text": "x".repeat(500)}))
        .await;
    assert_eq!(ok.status, 201, "{}", ok.text);
    app.post(&chat, Some(&t.tokens[0]), json!({"text": "x".repeat(501)}))
        .await
        .assert_problem(422, "validation_failed");
    app.post(&chat, Some(&outsider), json!({"text": "hi"}))
        .await
        .assert_problem(403, "forbidden");
    app.get(&chat, Some(&outsider))
        .await
        .assert_problem(403, "forbidden");
    let said = app
        .post(&chat, Some(&t.tokens[1]), json!({"text": "good luck"}))
        .await;
    assert_eq!(said.status, 201);
    let listed = app.get(&chat, Some(&t.tokens[0])).await;
    let texts: Vec<&str> = listed
        .json
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts.len(), 2);
    assert_eq!(texts[1], "good luck");
    // Ada hears of Bruno's message; Bruno not of his own.
    let events = |token: &str| {
        let token = token.to_owned();
        let app = &app;
        async move {
            app.get("/api/v1/me/events?after=0", Some(&token))
                .await
                .json
                .as_array()
                .unwrap()
                .iter()
                .filter(|e| e["type"] == "chat")
                .map(|e| e["data"]["text"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(events(&t.tokens[0]).await, ["good luck"]);
    assert_eq!(events(&t.tokens[1]).await, ["x".repeat(500)]);
    // Ada mutes Bruno's seat: his messages are hidden from her and raise no event for her.
    let mute = format!("/api/v1/games/{}/chat/mutes/1", t.id);
    let r = app
        .call(awc::http::Method::PUT, &mute, Some(&t.tokens[0]), None)
        .await;
    assert_eq!(r.status, 204, "{}", r.text);
    app.call(
        awc::http::Method::PUT,
        &format!("/api/v1/games/{}/chat/mutes/0", t.id),
        Some(&t.tokens[0]),
        None,
    )
    .await
    .assert_problem(422, "validation_failed");
    let r = app
        .post(&chat, Some(&t.tokens[1]), json!({"text": "psst"}))
        .await;
    assert_eq!(r.status, 201);
    assert_eq!(
        events(&t.tokens[0]).await,
        ["good luck"],
        "no event from a muted seat"
    );
    let listed = app.get(&chat, Some(&t.tokens[0])).await;
    assert!(
        !listed.text.contains("psst") && !listed.text.contains("good luck"),
        "{}",
        listed.text
    );
    let r = app
        .call(awc::http::Method::DELETE, &mute, Some(&t.tokens[0]), None)
        .await;
    assert_eq!(r.status, 204);
    let listed = app.get(&chat, Some(&t.tokens[0])).await;
    assert!(listed.text.contains("psst"));
    // At most 10 a minute (Bruno has written 2).
    for i in 0..8 {
        let r = app
            .post(&chat, Some(&t.tokens[1]), json!({"text": format!("{i}")}))
            .await;
        assert_eq!(r.status, 201, "{}", r.text);
    }
    app.post(&chat, Some(&t.tokens[1]), json!({"text": "one too many"}))
        .await
        .assert_problem(429, "rate_limited");
    // Chat never enters the game itself.
    let g = app.game(&t, 0).await;
    assert!(!g.to_string().contains("good luck"));
    let history = app
        .get(
            &format!("/api/v1/games/{}/history", t.id),
            Some(&t.tokens[0]),
        )
        .await;
    assert!(!history.text.contains("good luck"));
}

#[actix_web::test]
async fn a_near_deadline_is_a_deadline_soon_event_for_the_pending_seat() {
    use diesel::{Connection, PgConnection, RunQueryDsl};
    let app = spawn_app().await;
    let t = app.table().await;
    let (seat, _) = app.mover(&t).await;
    let mut conn = PgConnection::establish(&app.db_url).unwrap();
    diesel::sql_query("UPDATE game_seats SET next_reminder_at = now() WHERE is_pending")
        .execute(&mut conn)
        .unwrap();
    let worker = Worker::new(&app.settings, herald::db::pool(&app.db_url, 2).unwrap()).unwrap();
    assert_eq!(worker.schedule_reminders().unwrap(), 1);
    worker.drain().unwrap();
    let events = app
        .get("/api/v1/me/events?after=0", Some(&t.tokens[seat]))
        .await;
    let soon: Vec<&Value> = events
        .json
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "deadline_soon")
        .collect();
    assert_eq!(soon.len(), 1, "{}", events.text);
    assert_eq!(soon[0]["data"]["game_id"], json!(t.id));
    assert!(soon[0]["data"]["deadline"].is_string());
    let other = app
        .get("/api/v1/me/events?after=0", Some(&t.tokens[1 - seat]))
        .await;
    assert!(!other.text.contains("deadline_soon"));
}

/// Posts `body` to `path` with an `Idempotency-Key`.
async fn post_keyed(app: &TestApp, path: &str, token: &str, key: &str, body: &Value) -> Reply {
    app.send(
        awc::http::Method::POST,
        path,
        Some(token),
        &[
            ("Content-Type", "application/json"),
            ("Idempotency-Key", key),
        ],
        Some(serde_json::to_vec(body).unwrap()),
    )
    .await
}

#[actix_web::test]
async fn a_retried_chat_webhook_or_competition_with_its_key_is_answered_again_not_made_twice() {
    let app = spawn_app().await;
    let t = app.table().await;
    let chat = format!("/api/v1/games/{}/chat", t.id);
    let hello = json!({"text": "hello"});
    let first = post_keyed(&app, &chat, &t.tokens[0], "chat-1", &hello).await;
    assert_eq!(first.status, 201, "{}", first.text);
    let again = post_keyed(&app, &chat, &t.tokens[0], "chat-1", &hello).await;
    assert_eq!((again.status, &again.json), (201, &first.json));
    let listed = app.get(&chat, Some(&t.tokens[0])).await;
    assert_eq!(listed.json.as_array().unwrap().len(), 1, "posted once");
    post_keyed(
        &app,
        &chat,
        &t.tokens[0],
        "chat-1",
        &json!({"text": "other"}),
    )
    .await
    .assert_problem(409, "conflict");

    let hook = json!({"url": "http://127.0.0.1:9/hook", "events": ["your_move"]});
    let made = post_keyed(&app, "/api/v1/me/webhooks", &t.tokens[0], "hook-1", &hook).await;
    assert_eq!(made.status, 201, "{}", made.text);
    let again = post_keyed(&app, "/api/v1/me/webhooks", &t.tokens[0], "hook-1", &hook).await;
    assert_eq!(again.json, made.json, "the same subscription and secret");
    let hooks = app.get("/api/v1/me/webhooks", Some(&t.tokens[0])).await;
    assert_eq!(hooks.json.as_array().unwrap().len(), 1, "subscribed once");

    let organiser = app.user("olga@example.test", "Olga").await;
    let body = json!({"name": "Keyed", "kind": "magnate",
                      "format": {"type": "swiss", "rounds": 3}, "entry": "open"});
    let c = post_keyed(&app, "/api/v1/competitions", &organiser, "comp-1", &body).await;
    assert_eq!(c.status, 201, "{}", c.text);
    let again = post_keyed(&app, "/api/v1/competitions", &organiser, "comp-1", &body).await;
    assert_eq!((again.status, &again.json["id"]), (201, &c.json["id"]));
    let listed = app.get("/api/v1/competitions", None).await;
    let keyed = listed
        .json
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["name"] == "Keyed")
        .count();
    assert_eq!(keyed, 1, "created once: {}", listed.text);
}

#[actix_web::test]
async fn a_stream_ends_when_the_access_token_that_opened_it_expires() {
    let app = crate::helpers::spawn_app_with(|s| s.auth.access_token_ttl_s = 3).await;
    let token = app.user("ada@example.test", "Ada").await;
    let mut stream = open(&app.base, &token, None).await;
    // Within the keep-alive interval the server closes the stream (a client reconnects with a
    // fresh token); without the expiry it would stay open with keep-alive comments forever.
    let ended = tokio::time::timeout(Duration::from_secs(12), async {
        while let Some(Ok(_)) = stream.body.next().await {}
    })
    .await;
    assert!(ended.is_ok(), "the stream outlived its token");
}

#[actix_web::test]
async fn spectators_chat_only_where_the_creator_allows_it_and_players_may_mute_them() {
    let app = spawn_app().await;
    let ada = app.user("ada@example.test", "Ada").await;
    let bruno = app.user("bruno@example.test", "Bruno").await;
    let sam = app.user("sam@example.test", "Sam").await;
    let g = app
        .post(
            "/api/v1/games",
            Some(&ada),
            json!({"kind": "magnate", "invite": ["bruno@example.test"], "spectator_chat": true}),
        )
        .await;
    assert_eq!(g.status, 201, "{}", g.text);
    assert_eq!(g.json["spectator_chat"], true);
    let id = g.json["id"].as_str().unwrap().to_owned();
    let joined = app
        .post(&format!("/api/v1/games/{id}/join"), Some(&bruno), json!({}))
        .await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    let chat = format!("/api/v1/games/{id}/chat");
    let said = app
        .post(&chat, Some(&sam), json!({"text": "nice opening"}))
        .await;
    assert_eq!(said.status, 201, "{}", said.text);
    assert_eq!(said.json["seat"], Value::Null, "a spectator has no seat");
    // Sam reads the chat while the game is played; an anonymous visitor is asked to sign in.
    let read = app.get(&chat, Some(&sam)).await;
    assert_eq!(read.json.as_array().unwrap().len(), 1, "{}", read.text);
    app.get(&chat, None)
        .await
        .assert_problem(401, "unauthenticated");
    // Both players hear of it as an event.
    for token in [&ada, &bruno] {
        let events = app.get("/api/v1/me/events?after=0", Some(token)).await;
        let chats = events
            .json
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["type"] == "chat" && e["data"]["text"] == "nice opening")
            .count();
        assert_eq!(chats, 1, "{}", events.text);
    }
    // Bruno mutes the spectators: Sam's next message is hidden from him and raises no event.
    let mute = app
        .call(
            awc::http::Method::PUT,
            &format!("/api/v1/games/{id}/chat/mutes/spectators"),
            Some(&bruno),
            None,
        )
        .await;
    assert_eq!(mute.status, 204, "{}", mute.text);
    app.post(&chat, Some(&sam), json!({"text": "second thoughts"}))
        .await;
    let bruno_sees = app.get(&chat, Some(&bruno)).await;
    assert_eq!(
        bruno_sees.json.as_array().unwrap().len(),
        0,
        "{}",
        bruno_sees.text
    );
    let ada_sees = app.get(&chat, Some(&ada)).await;
    assert_eq!(ada_sees.json.as_array().unwrap().len(), 2);
    let events = app.get("/api/v1/me/events?after=0", Some(&bruno)).await;
    assert!(!events.text.contains("second thoughts"), "{}", events.text);
    app.call(
        awc::http::Method::PUT,
        &format!("/api/v1/games/{id}/chat/mutes/nobody"),
        Some(&bruno),
        None,
    )
    .await
    .assert_problem(404, "not_found");

    // Without the creator's leave a spectator can neither read nor write.
    let other = app
        .post(
            "/api/v1/games",
            Some(&ada),
            json!({"kind": "magnate", "invite": ["bruno@example.test"]}),
        )
        .await;
    assert_eq!(other.json["spectator_chat"], false);
    let closed = format!("/api/v1/games/{}/chat", other.json["id"].as_str().unwrap());
    app.post(&closed, Some(&sam), json!({"text": "hi"}))
        .await
        .assert_problem(403, "forbidden");
    app.get(&closed, Some(&sam))
        .await
        .assert_problem(403, "forbidden");
}

/// Makes the events of `email` numbered at most `up_to` older than the retention.
fn age_events(app: &TestApp, email: &str, up_to: i64) {
    use diesel::{Connection, PgConnection, RunQueryDsl};
    let mut conn = PgConnection::establish(&app.db_url).unwrap();
    diesel::sql_query(
        "UPDATE account_events SET at = now() - interval '46 days' \
         WHERE seq <= $1 AND user_id = (SELECT id FROM users WHERE email = $2)",
    )
    .bind::<diesel::sql_types::BigInt, _>(up_to)
    .bind::<diesel::sql_types::Text, _>(email)
    .execute(&mut conn)
    .unwrap();
}

#[actix_web::test]
async fn events_past_the_retention_are_pruned_and_a_client_resuming_before_them_is_told() {
    let app = spawn_app().await;
    let t = app.table().await;
    let mut dice = Dice::new(3);
    let events_of = |seat: usize| {
        let (app, token) = (&app, t.tokens[seat].clone());
        async move { app.get("/api/v1/me/events?after=0", Some(&token)).await }
    };
    // Moves until Ada has a few events (how many a move gives depends on the deal).
    let mut ada_before = 0;
    for _ in 0..60 {
        ada_before = events_of(0).await.json.as_array().unwrap().len() as i64;
        if ada_before >= 4 {
            break;
        }
        assert!(step(&app, &t, &mut dice).await, "the game ended first");
    }
    let bruno_before = events_of(1).await.json.as_array().unwrap().len() as i64;
    assert!(
        ada_before >= 3 && bruno_before >= 1,
        "{ada_before} {bruno_before}"
    );
    // Ada's first two events and every one of Bruno's are past the retention (45 days).
    age_events(&app, "ada@example.test", 2);
    age_events(&app, "bruno@example.test", i64::MAX);
    let worker = Worker::new(&app.settings, herald::db::pool(&app.db_url, 2).unwrap()).unwrap();
    let (deleted, more) = worker.prune_events().unwrap();
    assert_eq!((deleted as i64, more), (2 + bruno_before, false));
    assert_eq!(worker.prune_events().unwrap(), (0, false));

    // Ada resuming from before her oldest kept event hears that she missed some, and where to
    // resume; from there she gets the rest, every recent event kept.
    for after in [0, 1] {
        let r = app
            .get(
                &format!("/api/v1/me/events?after={after}"),
                Some(&t.tokens[0]),
            )
            .await;
        r.assert_problem(410, "cursor_expired");
        assert_eq!(r.json["resume_after"], 2, "{}", r.text);
    }
    let rest = app
        .get("/api/v1/me/events?after=2", Some(&t.tokens[0]))
        .await;
    assert_eq!(rest.status, 200, "{}", rest.text);
    let ids: Vec<i64> = rest
        .json
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, (3..=ada_before).collect::<Vec<_>>());
    // A stream resumed from before them is refused the same way; from the resume point it runs.
    let stale = app
        .send(
            awc::http::Method::GET,
            "/api/v1/me/events",
            Some(&t.tokens[0]),
            &[("Accept", "text/event-stream"), ("Last-Event-ID", "1")],
            None,
        )
        .await;
    stale.assert_problem(410, "cursor_expired");
    // A cursor past her last event was never hers: refused, by query and by stream alike,
    // rather than a stream that waits in silence for events it would skip.
    let ahead = ada_before + 1;
    let r = app
        .get(
            &format!("/api/v1/me/events?after={ahead}"),
            Some(&t.tokens[0]),
        )
        .await;
    r.assert_problem(422, "validation_failed");
    assert!(
        r.text
            .contains(&format!("beyond this account's last event, {ada_before}")),
        "{}",
        r.text
    );
    for cursor in [ahead.to_string(), i64::MAX.to_string()] {
        let r = app
            .send(
                awc::http::Method::GET,
                "/api/v1/me/events",
                Some(&t.tokens[0]),
                &[("Accept", "text/event-stream"), ("Last-Event-ID", &cursor)],
                None,
            )
            .await;
        r.assert_problem(422, "validation_failed");
    }
    let mut stream = open(&app.base, &t.tokens[0], Some(2)).await;
    stream
        .read_until(Duration::from_secs(10), |e| {
            e.len() as i64 >= ada_before - 2
        })
        .await;
    assert_eq!(stream.events.first().map(|e| e.0), Some(3));

    // Bruno's whole log is gone: any cursor before his last event is told so; at it, all is well.
    let r = events_of(1).await;
    r.assert_problem(410, "cursor_expired");
    assert_eq!(r.json["resume_after"], bruno_before, "{}", r.text);
    let r = app
        .get(
            &format!("/api/v1/me/events?after={bruno_before}"),
            Some(&t.tokens[1]),
        )
        .await;
    assert_eq!((r.status, r.json.clone()), (200, json!([])), "{}", r.text);
    // New events go on from the account's numbers.
    while step(&app, &t, &mut dice).await {
        let r = app
            .get(
                &format!("/api/v1/me/events?after={bruno_before}"),
                Some(&t.tokens[1]),
            )
            .await;
        if r.json.as_array().is_some_and(|l| !l.is_empty()) {
            assert_eq!(r.json[0]["id"], bruno_before + 1, "{}", r.text);
            return;
        }
    }
    panic!("Bruno never had another event");
}

/// Sets delivery `seq` of webhook `hook` to `status` and makes it older than the retention.
fn age_delivery(app: &TestApp, hook: &str, seq: i64, status: &str) {
    use diesel::{Connection, PgConnection, RunQueryDsl};
    let mut conn = PgConnection::establish(&app.db_url).unwrap();
    let n = diesel::sql_query(
        "UPDATE webhook_deliveries SET status = $3, \
           created_at = now() - interval '46 days', updated_at = now() - interval '43 days' \
         WHERE webhook_id = $1::uuid AND seq = $2",
    )
    .bind::<diesel::sql_types::Text, _>(hook)
    .bind::<diesel::sql_types::BigInt, _>(seq)
    .bind::<diesel::sql_types::Text, _>(status)
    .execute(&mut conn)
    .unwrap();
    assert_eq!(n, 1);
}

#[actix_web::test]
async fn old_finished_webhook_deliveries_are_pruned_and_recent_or_queued_ones_kept() {
    let app = spawn_app().await;
    let t = app.table().await;
    let sub = app
        .post(
            "/api/v1/me/webhooks",
            Some(&t.tokens[1]),
            json!({"url": "http://127.0.0.1:9/hook", "events": ["your_move", "game_started", "game_over", "chat", "pairing", "deadline_soon"]}),
        )
        .await;
    assert_eq!(sub.status, 201, "{}", sub.text);
    let hook = sub.json["id"].as_str().unwrap().to_owned();
    let log_of = || {
        let (app, token, hook) = (&app, t.tokens[1].clone(), hook.clone());
        async move {
            let r = app
                .get(&format!("/api/v1/me/webhooks/{hook}"), Some(&token))
                .await;
            let mut lines: Vec<(i64, String)> = r.json["deliveries"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| {
                    let status = d["status"].as_str().unwrap().to_owned();
                    (d["event_id"].as_i64().unwrap(), status)
                })
                .collect();
            lines.sort_unstable();
            lines
        }
    };
    // Moves until Bruno's webhook has six deliveries queued (none is tried: no worker runs).
    let mut dice = Dice::new(5);
    let mut seqs: Vec<i64> = Vec::new();
    for _ in 0..80 {
        seqs = log_of().await.into_iter().map(|(s, _)| s).collect();
        if seqs.len() >= 6 {
            break;
        }
        assert!(step(&app, &t, &mut dice).await, "the game ended first");
    }
    assert!(seqs.len() >= 6, "{seqs:?}");
    // The oldest three are past the retention with their events: one delivered, one given up,
    // one still queued; the fourth was delivered lately.
    age_delivery(&app, &hook, seqs[0], "delivered");
    age_delivery(&app, &hook, seqs[1], "failed");
    age_delivery(&app, &hook, seqs[2], "pending");
    age_events(&app, "bruno@example.test", seqs[2]);
    {
        use diesel::{Connection, PgConnection, RunQueryDsl};
        let mut conn = PgConnection::establish(&app.db_url).unwrap();
        diesel::sql_query("UPDATE webhook_deliveries SET status = 'delivered' WHERE seq = $1")
            .bind::<diesel::sql_types::BigInt, _>(seqs[3])
            .execute(&mut conn)
            .unwrap();
    }
    let worker = Worker::new(&app.settings, herald::db::pool(&app.db_url, 2).unwrap()).unwrap();
    let status = |i: usize, s: &str| (seqs[i], s.to_owned());
    let recent: Vec<(i64, String)> = std::iter::once(status(3, "delivered"))
        .chain((4..seqs.len()).map(|i| status(i, "pending")))
        .collect();
    // Before its event is pruned, the queued one stays, to be tried; the finished ones go.
    assert_eq!(worker.prune_deliveries().unwrap(), (2, false));
    let mut want = vec![status(2, "pending")];
    want.extend(recent.iter().cloned());
    assert_eq!(log_of().await, want);
    // Once its event is gone it cannot be sent, and goes too; recent and queued ones stay.
    worker.prune_events().unwrap();
    assert_eq!(worker.prune_deliveries().unwrap(), (1, false));
    assert_eq!(worker.prune_deliveries().unwrap(), (0, false));
    assert_eq!(log_of().await, recent);
}
