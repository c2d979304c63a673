//! Events for clients (design.md section 17, api.md "Events, webhooks, chat"): the account's
//! event stream (Server-Sent Events, resumable with `Last-Event-ID`), the same events as JSON for
//! clients that cannot stream, and chat per game.

use super::docs::{AuthErrors, BodyErrors, ServerErrors};
use super::json::Json;
use super::paging::{self, AfterQuery, Next};
use crate::auth::{AuthUser, Credential, MaybeAuthUser, Scope};
use crate::domain::{GameId, UserId};
use crate::error::{ApiError, Problem};
use crate::services::chat::{self, ChatMessage};
use crate::services::events::{self, AccountEvent};
use crate::services::idempotency;
use crate::services::webhooks::{self, CreatedWebhook, WebhookResource};
use crate::state::AppState;
use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, delete, get, post, put, web};
use serde::Deserialize;
use serde_json::json;
use std::time::Duration;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

const PROBLEM: &str = "application/problem+json";

/// A comment line this often keeps proxies from closing a quiet stream.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// Events per read of the log.
const BATCH: i64 = 200;

/// Where to start.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// Answer the events after this number as JSON (with `Accept: text/event-stream`, stream
    /// from there).
    #[param(minimum = 0)]
    pub after: Option<i64>,
}

/// Follow the account's events
///
/// With `Accept: text/event-stream` (or without `after`): a Server-Sent Events stream, each event
/// with `id:` (the account's event number), `event:` (`your_move`, `game_started`, `game_over`,
/// `chat`, `pairing`, `deadline_soon`) and `data:` (the event as JSON); a comment every 15 s keeps
/// it open. Reconnect with `Last-Event-ID` to receive exactly what was missed. A new stream
/// without either starts with the next event. With `?after=N`: the events after N as JSON (at
/// most 200; ask again from the last id). At most 5 streams per account. Needs the `read` scope.
///
/// Events are kept `EVENT_RETENTION_DAYS` (45 by default). A client resuming from before the
/// oldest one kept (by `after` or `Last-Event-ID`) missed events and is told so: 410
/// `cursor_expired`, with `resume_after` in the problem; it reloads what it shows and resumes
/// after that number. A cursor past the account's last event was never given to it: 422.
#[utoipa::path(
    operation_id = "get_my_events",
    tag = "events",
    security(("bearer" = [])),
    params(
        EventsQuery,
        ("Last-Event-ID" = Option<i64>, Header, minimum = 0, description = "Resume a stream after this event."),
    ),
    responses(
        (status = 200, description = "The events after `after` as JSON, or the stream: `id:`, `event:` and `data:` (an AccountEvent as JSON) per event.", content(
            (Vec<AccountEvent> = "application/json"),
            (String = "text/event-stream", example = "id: 42\nevent: your_move\ndata: {\"id\":42,\"type\":\"your_move\",\"game_id\":\"...\",\"data\":{},\"at\":\"...\"}\n\n"),
        )),
        (status = 422, description = "`after` or `Last-Event-ID` is not an event number, or is past the account's last event (`validation_failed`).", body = Problem, content_type = PROBLEM),
        (status = 410, description = "Events after `after` (or `Last-Event-ID`) are no longer kept (`cursor_expired`; kept `EVENT_RETENTION_DAYS`, 45 by default): the client missed some. `resume_after` says where to resume once it has reloaded what it shows.", body = Problem, content_type = PROBLEM),
        AuthErrors,
        // After AuthErrors, whose 429 it replaces.
        (status = 429, description = "Too many open streams for this account, or more calls than `ACCOUNT_REQUESTS_PER_MINUTE` this minute (`rate_limited`); see `Retry-After`.", body = Problem, content_type = PROBLEM),
        ServerErrors,
    )
)]
#[get("/me/events")]
pub async fn get_my_events(
    state: web::Data<AppState>,
    auth: AuthUser,
    req: HttpRequest,
    query: web::Query<EventsQuery>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Read)?;
    let user = auth.user_id;
    let (resume, after) = cursors(&req, &query)?;
    let kept_days = state.settings.events.retention_days;
    if let (Some(after), false) = (after, wants_stream(&req)) {
        let list = crate::db::run(&state.pool, move |conn| {
            events::since_kept(conn, user, after, BATCH, kept_days)
        })
        .await?;
        return Ok(HttpResponse::Ok().json(list));
    }
    let (slot, wake) = state
        .events
        .open(user)
        .ok_or(ApiError::RateLimited { retry_after_s: 30 })?;
    let stream = Stream {
        pool: state.pool.clone(),
        user,
        credential: auth.credential,
        last: start_of(&state, user, resume.or(after)).await?,
        held: None,
        wake,
        _slot: slot,
    };
    Ok(stream.response())
}

/// Where a stream starts: after the client's cursor, once it is checked that nothing the client
/// missed has been pruned; without a cursor, after the account's latest event.
///
/// # Errors
/// 410 `cursor_expired`; 422 for a cursor past the account's last event; database failures.
async fn start_of(state: &AppState, user: UserId, cursor: Option<i64>) -> Result<i64, ApiError> {
    let kept_days = state.settings.events.retention_days;
    Ok(match cursor {
        Some(n) => {
            crate::db::run(&state.pool, move |conn| {
                events::since_kept(conn, user, n, 1, kept_days)
            })
            .await?;
            n
        }
        None => crate::db::run(&state.pool, move |conn| events::last(conn, user)).await?,
    })
}

/// Whether the client asked for `text/event-stream`.
fn wants_stream(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/event-stream"))
}

/// The client's cursors, each checked: the `Last-Event-ID` of a reconnecting stream, then
/// `?after=N`.
///
/// # Errors
/// 422 for a cursor that is not an event number.
fn cursors(req: &HttpRequest, query: &EventsQuery) -> Result<(Option<i64>, Option<i64>), ApiError> {
    let resume = last_event_id(req)?;
    if query.after.is_some_and(|a| a < 0) {
        return Err(ApiError::Validation("after: 0 or more".to_owned()));
    }
    Ok((resume, query.after))
}

/// The `Last-Event-ID` a reconnecting client sends, if any.
fn last_event_id(req: &HttpRequest) -> Result<Option<i64>, ApiError> {
    req.headers()
        .get("Last-Event-ID")
        .map(|v| {
            v.to_str()
                .ok()
                .and_then(|s| s.trim().parse::<i64>().ok())
                .filter(|n| *n >= 0)
                .ok_or_else(|| ApiError::Validation("Last-Event-ID: an event number".to_owned()))
        })
        .transpose()
}

/// One open stream: where it is in the account's log, and what wakes it.
struct Stream {
    pool: crate::db::PgPool,
    user: UserId,
    /// What opened the stream: it ends when that token expires or is revoked.
    credential: Credential,
    last: i64,
    /// When the stream last renewed its account's lease ([`events::hold_streams`]): writes
    /// notify the account's streams only while it holds.
    held: Option<std::time::Instant>,
    wake: tokio::sync::broadcast::Receiver<Uuid>,
    /// Counts the stream among its account's until dropped.
    _slot: events::StreamSlot,
}

impl Stream {
    /// The streaming answer (unbuffered by proxies that honour `X-Accel-Buffering`).
    fn response(self) -> HttpResponse {
        HttpResponse::Ok()
            .content_type("text/event-stream")
            .insert_header((header::CACHE_CONTROL, "no-cache"))
            .insert_header(("X-Accel-Buffering", "no"))
            .streaming(futures_util::stream::unfold(self, next_chunk))
    }

    /// How long the access token that opened the stream still holds (`None`: it has expired).
    /// A personal token has no expiry; [`Stream::token_in_force`] sees it revoked.
    fn time_left(&self) -> Option<Duration> {
        match self.credential {
            Credential::AccessToken { expires } => {
                let left = expires - chrono::Utc::now().timestamp();
                u64::try_from(left)
                    .ok()
                    .filter(|l| *l > 0)
                    .map(Duration::from_secs)
            }
            Credential::PersonalToken(_) => Some(Duration::MAX),
        }
    }

    /// Whether the personal token that opened the stream is still in force (checked at each
    /// keep-alive, so a revoked token's stream ends within [`KEEP_ALIVE`]).
    async fn token_in_force(&self) -> bool {
        match self.credential {
            Credential::AccessToken { .. } => true,
            Credential::PersonalToken(id) => crate::db::run(&self.pool, move |conn| {
                crate::services::tokens::in_force(conn, id)
            })
            .await
            .unwrap_or(false),
        }
    }
}

/// The stream's next bytes: the events after the last one sent, else (after a wake-up for this
/// account or the keep-alive interval) a comment.
async fn next_chunk(mut s: Stream) -> Option<(Result<Bytes, actix_web::Error>, Stream)> {
    let left = s.time_left()?;
    let (user, last) = (s.user, s.last);
    let renew = s
        .held
        .is_none_or(|at| at.elapsed() >= events::STREAM_LEASE_RENEWAL);
    // Taken before the lease is written (after a wait for a connection, perhaps), so the lease
    // always outlasts what the stream counts on.
    let asked = std::time::Instant::now();
    let read = crate::db::run(&s.pool, move |conn| {
        // The lease first: whatever is written after it wakes this stream, whatever before it
        // is in the log read next.
        if renew {
            events::hold_streams(conn, user)?;
        }
        events::since(conn, user, last, BATCH)
    })
    .await;
    if renew && read.is_ok() {
        s.held = Some(asked);
    }
    // The database went away: end the stream; the client reconnects with its last id.
    let list = read.ok()?;
    // Events pruned before this stream sent them (it fell more than the retention behind): it
    // ends, and the client's reconnection from its last id hears `cursor_expired`.
    if list.first().is_some_and(|e| e.id > s.last + 1) {
        return None;
    }
    if let Some(end) = list.last() {
        s.last = end.id;
        return Some((Ok(Bytes::from(frames(&list))), s));
    }
    wait(s, left).await
}

/// Server-sent event frames of `list`, one per event.
fn frames(list: &[AccountEvent]) -> String {
    let mut text = String::new();
    for e in list {
        let data = serde_json::to_string(e).unwrap_or_default();
        text.push_str(&format!(
            "id: {}\nevent: {}\ndata: {data}\n\n",
            e.id, e.kind
        ));
    }
    text
}

/// Waits for the account's next event (an empty chunk: read the log again), a keep-alive, or
/// the end of the stream's token.
async fn wait(mut s: Stream, left: Duration) -> Option<(Result<Bytes, actix_web::Error>, Stream)> {
    let expiring = left < KEEP_ALIVE;
    let deadline = tokio::time::sleep(left.min(KEEP_ALIVE));
    tokio::pin!(deadline);
    loop {
        tokio::select! {
            () = &mut deadline => {
                // The token ran out or was revoked: the stream ends (the client reconnects
                // with a fresh one).
                if expiring || !s.token_in_force().await {
                    return None;
                }
                return Some((Ok(Bytes::from_static(b": keep-alive\n\n")), s));
            }
            woke = s.wake.recv() => match woke {
                Ok(u) if u == s.user.0 || u == events::EVERY_STREAM => return Some((Ok(Bytes::new()), s)),
                Ok(_) => {}
                // Missed wake-ups: read the log again.
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => return Some((Ok(Bytes::new()), s)),
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
            },
        }
    }
}

/// A chat message to post.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChatRequest {
    #[schema(min_length = 1, max_length = 500)]
    pub text: String,
}

/// Post in a game's chat
///
/// One line of at most 500 characters, for the game's players — and for signed-in spectators
/// when the game's creator allowed it (`spectator_chat`) — at most 10 a minute; the players
/// (but the writer) get a `chat` event. Accepts `Idempotency-Key`. Needs the `play` scope.
#[utoipa::path(
    operation_id = "post_chat",
    tag = "events",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The game's id."),
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 255, pattern = "^[!-~]+$", description = "Makes a retry return the first answer instead of posting twice."),
    ),
    request_body = ChatRequest,
    responses(
        (status = 201, description = "The message.", body = ChatMessage),
        (status = 403, description = "Not a player of this game (`forbidden`).", body = Problem, content_type = PROBLEM),
        (status = 409, description = "The `Idempotency-Key` was used for a different request (`conflict`).", body = Problem, content_type = PROBLEM),
        (status = 404, description = "No such game (`not_found`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        // After AuthErrors, whose 429 it replaces.
        (status = 429, description = "More than 10 messages in a minute (`CHAT_PER_MINUTE`), or more calls than `ACCOUNT_REQUESTS_PER_MINUTE` this minute (`rate_limited`); see `Retry-After`.", body = Problem, content_type = PROBLEM),
        BodyErrors,
        ServerErrors,
    )
)]
#[post("/games/{id}/chat")]
pub async fn post_chat(
    state: web::Data<AppState>,
    auth: AuthUser,
    id: web::Path<Uuid>,
    req: HttpRequest,
    body: Json<ChatRequest>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Play)?;
    let (user, id) = (auth.user_id, GameId(id.into_inner()));
    let key = super::idempotency_key(
        &req,
        json!({"op": "post_chat", "game": id.0, "text": body.0.text}),
    )?;
    let (text, limit) = (body.0.text, state.settings.auth.chat_per_minute);
    let answer = crate::db::run(&state.pool, move |conn| {
        idempotency::once(conn, user, key.as_ref(), 201, |conn| {
            chat::post(conn, user, id, &text, limit)
        })
    })
    .await?;
    Ok(super::answered(answer))
}

/// Read a game's chat
///
/// Oldest first, without the seats you muted. `after=N` answers only the messages numbered above N
/// (what is new since the last `seq` a client holds), `limit` at most that many; a page with more
/// messages after it answers a `Link` header to the next. While the game is played, for its
/// players (and signed-in spectators when the game allows them: `spectator_chat`); for anyone
/// once it is over, without a token too. Needs the `read` scope when a token is given.
#[utoipa::path(
    operation_id = "get_chat",
    tag = "events",
    // A finished game's chat is public, so the token is optional (as for the game itself).
    security((), ("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id."), AfterQuery),
    responses(
        (status = 200, description = "The messages, or the part of them asked for, oldest first.", body = Vec<ChatMessage>,
            headers(("Link" = String, description = "`<...>; rel=\"next\"` (RFC 8288): the address of the next page (`after` the last `seq` of this one), the other query parameters kept. Only when more messages follow this page."))),
        (status = 403, description = "Not a player of this game while it is played (`forbidden`).", body = Problem, content_type = PROBLEM),
        (status = 404, description = "No such game (`not_found`).", body = Problem, content_type = PROBLEM),
        (status = 422, description = "An `after` below 0, a `limit` out of 1–200 or an unknown parameter (`validation_failed`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        ServerErrors,
    )
)]
#[get("/games/{id}/chat")]
pub async fn get_chat(
    state: web::Data<AppState>,
    auth: MaybeAuthUser,
    req: HttpRequest,
    id: web::Path<Uuid>,
    query: web::Query<AfterQuery>,
) -> Result<HttpResponse, ApiError> {
    let caller = auth.user_with(Scope::Read)?;
    let cursor = query.cursor()?;
    let id = GameId(id.into_inner());
    let page = crate::db::run(&state.pool, move |conn| {
        chat::list(conn, caller, id, cursor)
    })
    .await?;
    let next = page
        .rows
        .last()
        .filter(|_| page.more)
        .map(|m| Next::After(m.seq));
    Ok(paging::answer(&req, next, &page.rows))
}

/// A webhook subscription.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WebhookRequest {
    /// An http(s) URL on a public address, without spaces.
    // The scheme is matched in any case, as the server's URL parser does.
    #[schema(
        max_length = 2000,
        pattern = r"^[Hh][Tt][Tt][Pp][Ss]?://[^\s/?#]+([/?#]\S*)?$",
        example = "https://bot.example.org/herald"
    )]
    pub url: String,
    /// The kinds of event to deliver, each once.
    #[schema(value_type = std::collections::BTreeSet<super::schemas::WebhookEventKind>, min_items = 1, max_items = 6)]
    pub events: Vec<String>,
}

/// Subscribe a webhook
///
/// Each event of these kinds is POSTed to the URL as JSON (the same object as the stream's
/// `data`) with `Herald-Signature: sha256=<hex HMAC-SHA256 of the body with the secret>` and
/// `Herald-Event-Id` (the same on every retry: deduplicate by it). Failed deliveries are tried
/// again with back-off; after 3 days of failures the subscription is disabled and you are
/// mailed. The secret is shown only in this answer (and in a retry's with the same
/// `Idempotency-Key`). Needs the `read` scope.
#[utoipa::path(
    operation_id = "create_webhook",
    tag = "events",
    security(("bearer" = [])),
    params(("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 255, pattern = "^[!-~]+$", description = "Makes a retry return the first answer instead of subscribing twice.")),
    request_body = WebhookRequest,
    responses(
        (status = 201, description = "The subscription and its secret (shown once).", body = CreatedWebhook),
        (status = 409, description = "Already 10 webhooks, or the `Idempotency-Key` was used for a different request (`conflict`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        BodyErrors,
        ServerErrors,
    )
)]
#[post("/me/webhooks")]
pub async fn create_webhook(
    state: web::Data<AppState>,
    auth: AuthUser,
    req: HttpRequest,
    body: Json<WebhookRequest>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Read)?;
    let user = auth.user_id;
    let key = super::idempotency_key(
        &req,
        json!({"op": "create_webhook", "url": body.0.url, "events": body.0.events}),
    )?;
    let WebhookRequest { url, events } = body.0;
    let allow = state.settings.webhooks.allow_private;
    let answer = crate::db::run(&state.pool, move |conn| {
        idempotency::once(conn, user, key.as_ref(), 201, |conn| {
            webhooks::create(conn, user, &url, &events, allow)
        })
    })
    .await?;
    Ok(super::answered(answer))
}

/// List your webhooks
///
/// Needs the `read` scope.
#[utoipa::path(
    operation_id = "list_webhooks",
    tag = "events",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The subscriptions (without secrets).", body = Vec<WebhookResource>),
        AuthErrors,
        ServerErrors,
    )
)]
#[get("/me/webhooks")]
pub async fn list_webhooks(
    state: web::Data<AppState>,
    auth: AuthUser,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Read)?;
    let user = auth.user_id;
    let list = crate::db::run(&state.pool, move |conn| webhooks::list(conn, user)).await?;
    Ok(HttpResponse::Ok().json(list))
}

/// Get a webhook
///
/// The subscription (without its secret) and its latest 50 deliveries. Needs the `read` scope.
#[utoipa::path(
    operation_id = "get_webhook",
    tag = "events",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The webhook's id.")),
    responses(
        (status = 200, description = "The subscription and its delivery log.", body = WebhookResource),
        (status = 404, description = "No such webhook of yours (`not_found`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        ServerErrors,
    )
)]
#[get("/me/webhooks/{id}")]
pub async fn get_webhook(
    state: web::Data<AppState>,
    auth: AuthUser,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Read)?;
    let (user, id) = (auth.user_id, id.into_inner());
    let w = crate::db::run(&state.pool, move |conn| webhooks::get(conn, user, id)).await?;
    Ok(HttpResponse::Ok().json(w))
}

/// Delete a webhook
///
/// Deliveries to it stop. Needs the `read` scope.
#[utoipa::path(
    operation_id = "delete_webhook",
    tag = "events",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The webhook's id.")),
    responses(
        (status = 204, description = "Deleted."),
        (status = 404, description = "No such webhook of yours (`not_found`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        ServerErrors,
    )
)]
#[delete("/me/webhooks/{id}")]
pub async fn delete_webhook(
    state: web::Data<AppState>,
    auth: AuthUser,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Read)?;
    let (user, id) = (auth.user_id, id.into_inner());
    crate::db::run(&state.pool, move |conn| webhooks::delete(conn, user, id)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Mute a seat's chat
///
/// Its messages are hidden from you in this game and raise no `chat` event for you; the seat
/// `spectators` mutes every spectator (in a game whose creator lets spectators chat). Needs the
/// `play` scope.
#[utoipa::path(
    operation_id = "mute_chat_seat",
    tag = "events",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The game's id."),
        ("seat" = String, Path, pattern = "^([0-9]+|spectators)$", description = "The seat to mute: its number, or `spectators`.", example = "1"),
    ),
    responses(
        (status = 204, description = "Muted."),
        (status = 403, description = "Not a player of this game (`forbidden`).", body = Problem, content_type = PROBLEM),
        (status = 404, description = "No such game or seat (`not_found`).", body = Problem, content_type = PROBLEM),
        (status = 422, description = "Your own seat (`validation_failed`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        ServerErrors,
    )
)]
#[put("/games/{id}/chat/mutes/{seat}")]
pub async fn mute_chat_seat(
    state: web::Data<AppState>,
    auth: AuthUser,
    path: web::Path<(Uuid, String)>,
) -> Result<HttpResponse, ApiError> {
    set_mute(state, auth, path, true).await
}

/// Unmute a seat's chat
///
/// Needs the `play` scope.
#[utoipa::path(
    operation_id = "unmute_chat_seat",
    tag = "events",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The game's id."),
        ("seat" = String, Path, pattern = "^([0-9]+|spectators)$", description = "The seat to hear again: its number, or `spectators`.", example = "1"),
    ),
    responses(
        (status = 204, description = "Unmuted."),
        (status = 403, description = "Not a player of this game (`forbidden`).", body = Problem, content_type = PROBLEM),
        (status = 404, description = "No such game or seat (`not_found`).", body = Problem, content_type = PROBLEM),
        (status = 422, description = "Your own seat (`validation_failed`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        ServerErrors,
    )
)]
#[delete("/games/{id}/chat/mutes/{seat}")]
pub async fn unmute_chat_seat(
    state: web::Data<AppState>,
    auth: AuthUser,
    path: web::Path<(Uuid, String)>,
) -> Result<HttpResponse, ApiError> {
    set_mute(state, auth, path, false).await
}

async fn set_mute(
    state: web::Data<AppState>,
    auth: AuthUser,
    path: web::Path<(Uuid, String)>,
    muted: bool,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Play)?;
    let (id, seat) = path.into_inner();
    let (user, id, whom) = (auth.user_id, GameId(id), chat::Muted::parse(&seat)?);
    crate::db::run(&state.pool, move |conn| {
        chat::mute(conn, user, id, whom, muted)
    })
    .await?;
    Ok(HttpResponse::NoContent().finish())
}
