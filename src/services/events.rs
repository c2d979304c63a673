//! The account event log (design.md section 17): every change that matters to an account — its
//! move, a game started or over, a chat message, a competition pairing — is an event with the
//! account's next number, written in the transaction of the change, so an event exists exactly
//! when its change committed. Streams and `?after=N` read the log; nothing is lost by a dropped
//! connection because the log is the source, not the connection.
//!
//! Waking streams: the writing transaction also runs `pg_notify('herald_events', <account>)`
//! for each account with a stream open somewhere ([`hold_streams`]), which PostgreSQL delivers
//! at commit to every listening session, in this instance or another on the same database. One
//! [`Hub`] per process holds one listening connection and fans the account ids out to its
//! streams, which then read the log.

use crate::domain::{GameId, UserId};
use crate::error::ApiError;
use crate::schema::{account_event_counters, account_events};
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::{Arc, LazyLock, Mutex, OnceLock};
use std::time::Duration;
use uuid::Uuid;

/// The PostgreSQL channel the event writers notify.
pub const CHANNEL: &str = "herald_events";

/// The kinds of event (api.md "Events, webhooks, chat").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    YourMove,
    GameStarted,
    GameOver,
    Chat,
    Pairing,
    DeadlineSoon,
}

impl EventKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::YourMove => "your_move",
            EventKind::GameStarted => "game_started",
            EventKind::GameOver => "game_over",
            EventKind::Chat => "chat",
            EventKind::Pairing => "pairing",
            EventKind::DeadlineSoon => "deadline_soon",
        }
    }

    pub const ALL: [EventKind; 6] = [
        EventKind::YourMove,
        EventKind::GameStarted,
        EventKind::GameOver,
        EventKind::Chat,
        EventKind::Pairing,
        EventKind::DeadlineSoon,
    ];

    pub fn parse(s: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// An event to write.
#[derive(Debug, Clone)]
pub struct NewEvent {
    pub user: UserId,
    pub kind: EventKind,
    pub game: Option<GameId>,
    /// What the account may see: ids, names and numbers, never a hidden part.
    pub data: Value,
}

/// Writes `events` in the caller's transaction: each account's next numbers, then one
/// notification per account with a stream open. Accounts are numbered in id order so that two
/// transactions never wait for each other's counters in opposite orders.
///
/// # Errors
/// Database failures.
pub fn record(conn: &mut PgConnection, events: Vec<NewEvent>) -> Result<(), ApiError> {
    static SQL: LazyLock<String> =
        LazyLock::new(|| format!("WITH {} SELECT 1", Batch::sql(1, None)));
    if events.is_empty() {
        return Ok(());
    }
    Batch::of(events)
        .bind(crate::db::Kept::new(SQL.as_str()))
        .execute(conn)?;
    Ok(())
}

/// How long an account's streams are taken to be open after they last said so: a stream says
/// so again on its first read or keep-alive once [`STREAM_LEASE_RENEWAL`] has passed (15–30 s
/// apart, a wait for a connection aside), well within the lease.
pub const STREAM_LEASE: Duration = Duration::from_secs(60);

/// How often an open stream renews its account's lease.
pub const STREAM_LEASE_RENEWAL: Duration = Duration::from_secs(15);

/// Marks `user` as having a stream open for [`STREAM_LEASE`] from now, so that writes of its
/// events notify it. A stream does this before it reads its log: a write that updated the
/// account's counter first has committed by then (this waits for the counter row's lock), and
/// one that updates it after reads the lease in that row and notifies.
///
/// # Errors
/// Database failures.
pub fn hold_streams(conn: &mut PgConnection, user: UserId) -> QueryResult<()> {
    diesel::sql_query(
        "INSERT INTO account_event_counters (user_id, last, streaming_until) \
         VALUES ($1, 0, now() + make_interval(secs => $2)) \
         ON CONFLICT (user_id) DO UPDATE SET streaming_until = EXCLUDED.streaming_until",
    )
    .bind::<diesel::sql_types::Uuid, _>(user.0)
    .bind::<diesel::sql_types::Double, _>(STREAM_LEASE.as_secs_f64())
    .execute(conn)?;
    Ok(())
}

/// Events ready to be written by one statement: the accounts in id order with how many events
/// each gets, then the events account by account.
pub(crate) struct Batch {
    users: Vec<Uuid>,
    counts: Vec<i64>,
    list: Vec<NewEvent>,
}

impl Batch {
    pub(crate) fn of(events: Vec<NewEvent>) -> Batch {
        let mut by_user: BTreeMap<Uuid, Vec<NewEvent>> = BTreeMap::new();
        for e in events {
            by_user.entry(e.user.0).or_default().push(e);
        }
        Batch {
            users: by_user.keys().copied().collect(),
            counts: by_user.values().map(|l| l.len() as i64).collect(),
            list: by_user.into_values().flatten().collect(),
        }
    }

    /// Whether the batch holds no event.
    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The common table expressions that write a batch, for a statement of its own or inside
    /// another one (a submission is on the hot path of design.md section 5): the counters moved
    /// in account order, the events numbered from them, a delivery and its job for each webhook
    /// that takes the kind, and one notification per account with a stream open (see
    /// [`hold_streams`]), which PostgreSQL delivers at commit. Its eight values are `$first`
    /// onwards, as [`Batch::bind`] adds them; with a `guard`, nothing is written unless that
    /// earlier expression returned a row.
    pub(crate) fn sql(first: usize, guard: Option<&str>) -> String {
        let p = |n: usize| format!("${}", first + n);
        let guard = guard.map_or(String::new(), |g| {
            format!("WHERE EXISTS (SELECT FROM {g}) ")
        });
        format!(
            "c AS ( \
               INSERT INTO account_event_counters AS k (user_id, last) \
               SELECT u, n FROM unnest({users}::uuid[], {counts}::bigint[]) WITH ORDINALITY AS t(u, n, o) \
               {guard}ORDER BY o \
               ON CONFLICT (user_id) DO UPDATE SET last = k.last + EXCLUDED.last \
               RETURNING k.user_id, k.last, \
                 CASE WHEN k.streaming_until > now() THEN pg_notify({channel}, k.user_id::text) END AS woken), \
             ev AS ( \
               SELECT e.u AS user_id, e.kind, e.game_id, e.data, \
                 c.last - count(*) OVER (PARTITION BY e.u) \
                   + row_number() OVER (PARTITION BY e.u ORDER BY e.o) AS seq \
               FROM unnest({user}::uuid[], {kind}::text[], {game}::uuid[], {data}::jsonb[]) \
                 WITH ORDINALITY AS e(u, kind, game_id, data, o) \
               JOIN c ON c.user_id = e.u), \
             written AS ( \
               INSERT INTO account_events (user_id, seq, kind, game_id, data) \
               SELECT user_id, seq, kind, game_id, data FROM ev), \
             hooks AS ( \
               INSERT INTO webhook_deliveries (webhook_id, seq) \
               SELECT w.id, ev.seq FROM ev JOIN webhooks w ON w.user_id = ev.user_id \
               WHERE w.disabled_at IS NULL AND ev.kind = ANY (w.events) \
               ON CONFLICT DO NOTHING \
               RETURNING webhook_id, seq), \
             queued AS ( \
               INSERT INTO jobs (kind, payload) \
               SELECT {job}, jsonb_build_object('webhook_id', webhook_id, 'seq', seq) \
               FROM hooks ORDER BY seq)",
            users = p(0),
            counts = p(1),
            user = p(2),
            kind = p(3),
            game = p(4),
            data = p(5),
            job = p(6),
            channel = p(7),
        )
    }

    /// Adds the batch's eight values to `query`, in the order [`Batch::sql`] numbers them.
    pub(crate) fn bind<'a>(&'a self, query: crate::db::Kept<'a>) -> crate::db::Kept<'a> {
        use diesel::sql_types::{Array, BigInt, Jsonb, Nullable, Text};
        let list = &self.list;
        query
            .bind::<Array<diesel::sql_types::Uuid>, _>(&self.users)
            .bind::<Array<BigInt>, _>(&self.counts)
            .bind::<Array<diesel::sql_types::Uuid>, _>(
                list.iter().map(|e| e.user.0).collect::<Vec<_>>(),
            )
            .bind::<Array<Text>, _>(list.iter().map(|e| e.kind.as_str()).collect::<Vec<_>>())
            .bind::<Array<Nullable<diesel::sql_types::Uuid>>, _>(
                list.iter().map(|e| e.game.map(|g| g.0)).collect::<Vec<_>>(),
            )
            .bind::<Array<Jsonb>, _>(list.iter().map(|e| &e.data).collect::<Vec<_>>())
            .bind::<Text, _>(<super::webhooks::DeliverWebhook as crate::jobs::BackgroundJob>::KIND)
            .bind::<Text, _>(CHANNEL)
    }
}

/// One event as clients receive it.
#[derive(Debug, Clone, Serialize, Queryable, utoipa::ToSchema)]
pub struct AccountEvent {
    /// The account's event number: increasing, without gaps.
    pub id: i64,
    #[serde(rename = "type")]
    pub kind: String,
    pub game_id: Option<Uuid>,
    #[schema(value_type = Object)]
    pub data: Value,
    pub at: DateTime<Utc>,
}

/// The account's events after number `after`, oldest first, at most `limit`.
///
/// # Errors
/// Database failures.
pub fn since(
    conn: &mut PgConnection,
    user: UserId,
    after: i64,
    limit: i64,
) -> Result<Vec<AccountEvent>, ApiError> {
    Ok(account_events::table
        .filter(account_events::user_id.eq(user.0))
        .filter(account_events::seq.gt(after))
        .order(account_events::seq)
        .limit(limit)
        .select(COLUMNS)
        .load(conn)?)
}

/// [`since`], for a client that says where it is: refused when events it has not seen are no
/// longer kept, so that it knows it missed some instead of skipping them unawares. Event numbers
/// have no gaps and commit in order (the counter's row lock), so a gap after `after` among events
/// already counted is a pruned stretch.
///
/// # Errors
/// 410 `cursor_expired` with the number to resume after; 422 for a cursor past the account's
/// last event; database failures.
pub fn since_kept(
    conn: &mut PgConnection,
    user: UserId,
    after: i64,
    limit: i64,
    kept_days: u32,
) -> Result<Vec<AccountEvent>, ApiError> {
    // The count first: an event counted by then is either read below or was pruned.
    let counted = last(conn, user)?;
    // Numbers are handed out only once their events are committed, and counters only grow: a
    // cursor past the last one was never given to this account (another server's, a typo), and
    // a stream from it would wait in silence for events it then skips.
    if after > counted {
        return Err(ApiError::Validation(format!(
            "the cursor {after} is beyond this account's last event, {counted}: resume after {counted} or leave the cursor out"
        )));
    }
    let list = since(conn, user, after, limit)?;
    let oldest = list.first().map_or(counted + 1, |e| e.id);
    if after < counted && oldest > after + 1 {
        return Err(ApiError::CursorExpired {
            after,
            resume_after: oldest - 1,
            kept_days,
        });
    }
    Ok(list)
}

/// Events deleted per statement by [`prune`] (and webhook deliveries by
/// [`super::webhooks::prune_deliveries`]): each batch commits on its own, so it holds its few
/// row locks for milliseconds (writers only insert new events, so they never wait on it).
pub const PRUNE_BATCH: i64 = 1000;

/// Batches per call of [`prune`]: a backlog (the first run on an old database) is worked off
/// over several calls, between which the worker sends its mail.
const PRUNE_BATCHES_PER_CALL: usize = 20;

/// Deletes events written before `before`, oldest first, in batches of [`PRUNE_BATCH`]; returns
/// how many, and whether some are left for another call.
///
/// # Errors
/// Database failures.
pub fn prune(conn: &mut PgConnection, before: DateTime<Utc>) -> QueryResult<(usize, bool)> {
    prune_in_batches(
        conn,
        "DELETE FROM account_events e USING ( \
           SELECT user_id, seq FROM account_events WHERE at < $1 ORDER BY at LIMIT $2) old \
         WHERE e.user_id = old.user_id AND e.seq = old.seq",
        before,
    )
}

/// Runs `delete` (bound to `before` and the batch size) up to [`PRUNE_BATCHES_PER_CALL`] times,
/// until a batch is not full; returns how many rows, and whether some may be left.
pub(crate) fn prune_in_batches(
    conn: &mut PgConnection,
    delete: &'static str,
    before: DateTime<Utc>,
) -> QueryResult<(usize, bool)> {
    use diesel::sql_types::{BigInt, Timestamptz};
    let mut deleted = 0;
    for _ in 0..PRUNE_BATCHES_PER_CALL {
        let n = diesel::sql_query(delete)
            .bind::<Timestamptz, _>(before)
            .bind::<BigInt, _>(PRUNE_BATCH)
            .execute(conn)?;
        deleted += n;
        if i64::try_from(n).unwrap_or(i64::MAX) < PRUNE_BATCH {
            return Ok((deleted, false));
        }
    }
    Ok((deleted, true))
}

/// The columns of an [`AccountEvent`], in its order.
const COLUMNS: (
    account_events::seq,
    account_events::kind,
    account_events::game_id,
    account_events::data,
    account_events::at,
) = (
    account_events::seq,
    account_events::kind,
    account_events::game_id,
    account_events::data,
    account_events::at,
);

/// Event `seq` of `user`, if there is one.
pub(crate) fn one(
    conn: &mut PgConnection,
    user: Uuid,
    seq: i64,
) -> QueryResult<Option<AccountEvent>> {
    account_events::table
        .find((user, seq))
        .select(COLUMNS)
        .first(conn)
        .optional()
}

/// The wake-ups of one process's streams, and how many each account holds open.
pub struct Hub {
    pool: crate::db::PgPool,
    sender: tokio::sync::broadcast::Sender<Uuid>,
    listening: OnceLock<()>,
    open: Mutex<BTreeMap<Uuid, usize>>,
}

/// A stream's place in the count of its account's open streams, given back when dropped.
pub struct StreamSlot {
    hub: Arc<Hub>,
    user: Uuid,
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        if let Ok(mut open) = self.hub.open.lock()
            && let Some(n) = open.get_mut(&self.user)
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(&self.user);
            }
        }
    }
}

/// The wake-up that every stream takes as its own: read the log again.
pub const EVERY_STREAM: Uuid = Uuid::nil();

/// The `application_name` of the connection that listens for the streams' wake-ups.
pub const LISTENER_NAME: &str = "herald events listener";

/// At most this many streams per account at once (per instance).
pub const MAX_STREAMS_PER_ACCOUNT: usize = 5;

impl Hub {
    pub fn new(pool: crate::db::PgPool) -> Hub {
        let (sender, _) = tokio::sync::broadcast::channel(1024);
        Hub {
            pool,
            sender,
            listening: OnceLock::new(),
            open: Mutex::new(BTreeMap::new()),
        }
    }

    /// A slot for a new stream of `user`, or `None` when the account has too many open.
    pub fn open(
        self: &Arc<Hub>,
        user: UserId,
    ) -> Option<(StreamSlot, tokio::sync::broadcast::Receiver<Uuid>)> {
        let mut open = self.open.lock().ok()?;
        let n = open.entry(user.0).or_insert(0);
        if *n >= MAX_STREAMS_PER_ACCOUNT {
            return None;
        }
        *n += 1;
        drop(open);
        // Subscribed before the listener starts, so this stream hears its first "read again".
        let wake = self.sender.subscribe();
        self.listen();
        Some((
            StreamSlot {
                hub: Arc::clone(self),
                user: user.0,
            },
            wake,
        ))
    }

    /// Starts the listening thread once: it holds one connection with `LISTEN herald_events`,
    /// asks the server for what arrived every 200 ms (libpq hands notifications over with the
    /// answer to a query), and wakes the streams of the accounts named.
    fn listen(&self) {
        self.listening.get_or_init(|| {
            let pool = self.pool.clone();
            let sender = self.sender.clone();
            let spawned = std::thread::Builder::new()
                .name("herald-events".to_owned())
                .spawn(move || {
                    loop {
                        if let Err(e) = listen_until_error(&pool, &sender) {
                            tracing::warn!(error = %e, "event listener lost its connection; again in 1 s");
                        }
                        std::thread::sleep(Duration::from_secs(1));
                    }
                });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start the event listener");
            }
        });
    }
}

fn listen_until_error(
    pool: &crate::db::PgPool,
    sender: &tokio::sync::broadcast::Sender<Uuid>,
) -> anyhow::Result<()> {
    let mut pooled = pool.get()?;
    let conn: &mut diesel::PgConnection = &mut pooled;
    diesel::sql_query(format!("LISTEN {CHANNEL}")).execute(conn)?;
    // Named, so that operators (and a test) can tell it in `pg_stat_activity`.
    diesel::sql_query(format!("SET application_name = '{LISTENER_NAME}'")).execute(conn)?;
    // Nothing written while nobody listened was announced here: the first listener starts
    // after its first stream has read the log, and a lost connection takes a second to come
    // back. Every stream reads its log again now, rather than at its next keep-alive (15 s).
    let _ = sender.send(EVERY_STREAM);
    let outcome = (|| -> anyhow::Result<()> {
        loop {
            diesel::sql_query("SELECT 1").execute(&mut *conn)?;
            for n in conn.notifications_iter() {
                if let Ok(user) = n?.payload.parse::<Uuid>() {
                    // No stream listening is not an error.
                    let _ = sender.send(user);
                }
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    })();
    // The connection goes back to the pool: it must not keep listening there.
    let _ = diesel::sql_query("UNLISTEN *").execute(conn);
    let _ = diesel::sql_query("RESET application_name").execute(conn);
    outcome
}

/// The events of one change of a game, as the one write path describes it: `game_started` to
/// every seat when it starts, `your_move` to each seat that became pending, `game_over` to every
/// seat at the end.
pub(crate) fn of_change(
    kind: &str,
    seats: &[(i16, Option<Uuid>)],
    change: &crate::services::notifications::Change,
    started: bool,
    outcome: Option<&Value>,
) -> Vec<NewEvent> {
    let game = change.game;
    let mut out = Vec::new();
    for (seat, user) in seats {
        let Some(user) = user else { continue };
        let event = |k: EventKind, data: Value| NewEvent {
            user: UserId(*user),
            kind: k,
            game: Some(game),
            data,
        };
        let base = serde_json::json!({"game_id": game.0, "kind": kind, "seat": seat, "version": change.version});
        if started {
            out.push(event(EventKind::GameStarted, base.clone()));
        }
        let pending = crate::engine::Seat(u8::try_from(*seat).unwrap_or(u8::MAX));
        if !change.finished
            && change.pending_after.contains(pending)
            && !change.pending_before.contains(pending)
        {
            out.push(event(EventKind::YourMove, base.clone()));
        }
        if change.finished {
            let mut data = base;
            if let Some(o) = outcome {
                data["winners"] = o.get("winners").cloned().unwrap_or(Value::Null);
                data["reason"] = o.get("reason").cloned().unwrap_or(Value::Null);
            }
            out.push(event(EventKind::GameOver, data));
        }
    }
    out
}

/// Whether `seat` of `game` became pending again after `version`: a `your_move` to `user` from a
/// later change. A turn mail asks this of a seat that has acted since its change but still has
/// a decision before it, to tell "the same turn, begun in an app" from "a later turn", which has
/// a mail of its own.
///
/// # Errors
/// Database failures.
pub fn pending_again_after(
    conn: &mut PgConnection,
    user: UserId,
    game: GameId,
    seat: i16,
    version: i64,
) -> QueryResult<bool> {
    use diesel::dsl::{exists, sql};
    use diesel::sql_types::{BigInt, Bool, Integer};
    let later = account_events::table
        .filter(account_events::user_id.eq(user.0))
        .filter(account_events::kind.eq(EventKind::YourMove.as_str()))
        .filter(account_events::game_id.eq(game.0))
        .filter(
            sql::<Bool>("(data->>'seat')::int = ")
                .bind::<Integer, _>(i32::from(seat))
                .sql(" AND (data->>'version')::bigint > ")
                .bind::<BigInt, _>(version),
        );
    diesel::select(exists(later)).get_result(conn)
}

/// The account's last event number (0 before the first).
///
/// # Errors
/// Database failures.
pub fn last(conn: &mut PgConnection, user: UserId) -> Result<i64, ApiError> {
    Ok(account_event_counters::table
        .find(user.0)
        .select(account_event_counters::last)
        .first(conn)
        .optional()?
        .unwrap_or(0))
}

/// A `deadline_soon` event for a seat's reminder, when the seat still waits for the same
/// decision (called by the reminder's job, in its transaction).
///
/// # Errors
/// Database failures.
pub fn deadline_soon(
    conn: &mut PgConnection,
    game: GameId,
    seat: i16,
    pending_since: DateTime<Utc>,
) -> Result<(), ApiError> {
    use crate::schema::{game_seats, games};
    type Line = (
        Option<Uuid>,
        bool,
        Option<DateTime<Utc>>,
        Option<DateTime<Utc>>,
        String,
    );
    let row: Option<Line> = game_seats::table
        .inner_join(games::table)
        .filter(game_seats::game_id.eq(game.0))
        .filter(game_seats::seat.eq(seat))
        .select((
            game_seats::user_id,
            game_seats::is_pending,
            game_seats::pending_since,
            game_seats::deadline,
            games::kind,
        ))
        .first(conn)
        .optional()?;
    let Some((Some(user), true, Some(since), Some(deadline), kind)) = row else {
        return Ok(());
    };
    // Microseconds may differ between the stored and the job's copy of the instant.
    if (since - pending_since).num_milliseconds().abs() > 1 {
        return Ok(());
    }
    record(
        conn,
        vec![NewEvent {
            user: UserId(user),
            kind: EventKind::DeadlineSoon,
            game: Some(game),
            data: serde_json::json!({"game_id": game.0, "kind": kind, "seat": seat, "deadline": deadline}),
        }],
    )
}
