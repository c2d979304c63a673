//! Games: the kinds on offer, create, join, list, read, play, check, history, resign, fairness.

use super::docs::{AuthErrors, BodyErrors, ServerErrors};
use super::idempotency_key;
use super::json::{Json, OptionalJson};
use super::paging::{self, AfterQuery, Next, PageQuery, WithPage};
use crate::auth::{AuthUser, MaybeAuthUser, Scope};
use crate::domain::{EmailAddress, GameId, UserId};
use crate::engine::registry::{GameKind, KindInfo};
use crate::error::{ApiError, Problem};
use crate::services::clocks::Clock;
use crate::services::games::{
    self, Fairness, GameResource, GameStatus, GameSummary, HistoryEntry, ListFilter, Mode,
    NewGameRequest, Submission, Submitted,
};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

/// A kind of game and what can be chosen when creating one.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameKindResponse {
    #[schema(value_type = super::schemas::GameKindName)]
    pub kind: String,
    pub name: String,
    pub min_seats: u8,
    pub max_seats: u8,
    /// Preset names, the default first.
    pub presets: Vec<String>,
    /// Each switch: its allowed values (the default first) and the rules it governs.
    #[schema(value_type = Object)]
    pub options: Value,
    /// The rules version new games start with (a game keeps its own).
    pub rules_version: u32,
}

impl From<KindInfo> for GameKindResponse {
    fn from(info: KindInfo) -> Self {
        GameKindResponse {
            kind: info.kind.as_str().to_owned(),
            name: info.name.to_owned(),
            min_seats: info.min_seats,
            max_seats: info.max_seats,
            presets: info.presets.iter().map(|p| (*p).to_owned()).collect(),
            options: info.options,
            rules_version: info.rules_version,
        }
    }
}

/// A new game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateGameRequest {
    #[schema(value_type = super::schemas::GameKindName)]
    pub kind: GameKind,
    /// `{"preset": "...", <switch>: <value>, ...}`; see `GET /api/v1/game-kinds`. The default
    /// preset when absent.
    #[serde(default)]
    #[schema(value_type = Option<Object>, example = json!({"preset": "standard"}))]
    pub options: Option<Value>,
    /// Addresses invited to the next seats, in seat order, each once.
    #[serde(default)]
    #[schema(value_type = std::collections::BTreeSet<super::schemas::Email>, max_items = 7, example = json!(["bruno@example.org"]))]
    pub invite: Vec<EmailAddress>,
    /// Players invited by id (found with `GET /api/v1/players?q=`), seated after the addresses,
    /// each once.
    #[serde(default)]
    #[schema(value_type = std::collections::BTreeSet<Uuid>, max_items = 7)]
    pub invite_players: Vec<Uuid>,
    /// Seats anyone may take, after the invited ones.
    #[serde(default)]
    #[schema(maximum = 7)]
    pub open_seats: u8,
    /// The time control; absent means `per_move` of 259200 s (3 days). Allowances under the
    /// server's `CLOCK_MIN_SECONDS` are refused.
    #[serde(default)]
    #[schema(value_type = Option<Clock>)]
    pub clock: Option<Value>,
    /// Whether the game counts for the players' ratings (design.md section 16); it does only
    /// when every seat is a different account.
    #[serde(default)]
    pub rated: bool,
    /// Whether spectators (signed-in accounts that do not play) may read and write the game's
    /// chat while it is played (default false: the players only).
    #[serde(default)]
    pub spectator_chat: bool,
}

/// Joining a game.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// Your own randomness, mixed into the game's seed before the first shuffle (public; see the
    /// fairness endpoint).
    #[schema(max_length = 256, example = "my lucky words")]
    pub entropy: Option<String>,
}

/// A list of actions for one game.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SubmitRequest {
    /// The `version` of the game the actions were decided on.
    #[schema(minimum = 0)]
    pub expected_version: i64,
    /// Applied in order, all or nothing. An action that ends the player's turn or rolls, draws or
    /// reveals something they cannot see yet (Magnate's `end`, a port's `buy`) must be the last
    /// of the list.
    #[schema(value_type = Vec<super::schemas::Action>, min_items = 1, max_items = 64)]
    pub actions: Vec<Value>,
}

/// The answer of a check: the actions would be accepted.
#[derive(Debug, Serialize, ToSchema)]
pub struct CheckResponse {
    /// Always `true` (a refusal is answered with the problem a submission would get).
    pub accepted: bool,
    /// The game's version the check ran against.
    pub version: i64,
}

/// Filters of the game list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListGamesQuery {
    /// Only games in this state.
    pub status: Option<GameStatus>,
    /// `true`: only games waiting for the caller.
    pub my_turn: Option<bool>,
}

fn answer(submitted: Submitted, fresh_status: actix_web::http::StatusCode) -> HttpResponse {
    match submitted {
        Submitted::Fresh(resource) => HttpResponse::build(fresh_status).json(resource),
        Submitted::Replayed(stored) => HttpResponse::build(
            actix_web::http::StatusCode::from_u16(stored.status).unwrap_or(fresh_status),
        )
        .json(stored.body),
        Submitted::Checked { version } => HttpResponse::Ok().json(CheckResponse {
            accepted: true,
            version,
        }),
    }
}

const PROBLEM: &str = "application/problem+json";

/// List game kinds
///
/// The games herald hosts, with their seat counts, presets and switches. Public.
#[utoipa::path(
    operation_id = "list_game_kinds",
    tag = "games",
    responses((status = 200, description = "The kinds of game.", body = Vec<GameKindResponse>))
)]
#[get("/game-kinds")]
pub async fn list_game_kinds() -> HttpResponse {
    let kinds: Vec<GameKindResponse> = games::kinds().into_iter().map(Into::into).collect();
    HttpResponse::Ok().json(kinds)
}

impl CreateGameRequest {
    /// What an `Idempotency-Key` is bound to: the whole request.
    fn scope(&self) -> Value {
        json!({"op": "create_game", "kind": self.kind, "options": self.options, "invite": self.invite, "invite_players": self.invite_players, "open_seats": self.open_seats, "clock": self.clock, "rated": self.rated, "spectator_chat": self.spectator_chat})
    }

    /// The service's request, the clock checked.
    fn into_new(self, clock_min_seconds: i64) -> Result<NewGameRequest, ApiError> {
        Ok(NewGameRequest {
            kind: self.kind,
            options: self.options.unwrap_or(Value::Null),
            invite: self.invite,
            invite_players: self.invite_players.into_iter().map(UserId).collect(),
            open_seats: self.open_seats,
            clock: Clock::from_request(self.clock.as_ref(), clock_min_seconds)?,
            rated: self.rated,
            spectator_chat: self.spectator_chat,
        })
    }
}

/// Create a game
///
/// The caller takes seat 0; invited addresses the next seats; open seats the rest. The game starts
/// when every seat is taken. Accepts `Idempotency-Key`. Needs the `play` scope.
#[utoipa::path(
    operation_id = "create_game",
    tag = "games",
    security(("bearer" = [])),
    request_body = CreateGameRequest,
    params(("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 255, pattern = "^[!-~]+$", description = "Makes a retry return the first answer instead of creating a second game.")),
    responses(
        (status = 201, description = "The game, waiting for its players.", body = GameResource),
        (status = 409, description = "The `Idempotency-Key` was used for a different request (`conflict`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        BodyErrors,
        ServerErrors,
    )
)]
#[post("/games")]
pub async fn create_game(
    state: web::Data<AppState>,
    auth: AuthUser,
    req: HttpRequest,
    body: Json<CreateGameRequest>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Play)?;
    let key = idempotency_key(&req, body.0.scope())?;
    let request = body.0.into_new(state.settings.games.clock_min_seconds)?;
    let user = auth.user_id;
    let done = crate::db::run(&state.pool, move |conn| {
        games::create(conn, user, request, key.as_ref())
    })
    .await?;
    Ok(answer(done, actix_web::http::StatusCode::CREATED))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LobbyQuery {
    /// Only games of this kind.
    #[param(value_type = Option<super::schemas::GameKindName>)]
    pub kind: Option<String>,
    /// Only games of this many seats (1–16).
    #[param(minimum = 1, maximum = 16)]
    pub seats: Option<i16>,
    /// At most this many games (1–200, default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
}

/// The lobby
///
/// Games waiting for players with seats anyone may take, newest first, without the caller's
/// own. Needs the `read` scope.
#[utoipa::path(
    operation_id = "list_lobby",
    tag = "games",
    security(("bearer" = [])),
    params(LobbyQuery),
    responses(
        (status = 200, description = "Games with open seats.", body = Vec<crate::services::games::lobby::LobbyGame>),
        (status = 422, description = "An unknown kind, filter or value (`validation_failed`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        ServerErrors,
    )
)]
#[get("/lobby")]
pub async fn lobby(
    state: web::Data<AppState>,
    auth: AuthUser,
    query: web::Query<LobbyQuery>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Read)?;
    let filter = lobby_filter(&query).map_err(|refused| refused.problem(&query))?;
    let user = auth.user_id;
    let games = crate::db::run(&state.pool, move |conn| {
        games::lobby::lobby(conn, user, &filter)
    })
    .await?;
    Ok(HttpResponse::Ok().json(games))
}

/// The seat counts a lobby query may ask for, and how many games one answer may list: the API's
/// problems and the lobby page's refusals name these ranges, read from here.
pub const LOBBY_SEATS: std::ops::RangeInclusive<i16> = 1..=16;
pub const LOBBY_LIMIT: std::ops::RangeInclusive<i64> = 1..=200;

/// The parameter of a lobby query whose value is refused. Only its name: the API and the page
/// each say it their own way (a problem in English; a page in the reader's language, which does
/// not repeat the value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LobbyParam {
    Kind,
    Seats,
    Limit,
}

impl LobbyParam {
    pub fn name(self) -> &'static str {
        match self {
            LobbyParam::Kind => "kind",
            LobbyParam::Seats => "seats",
            LobbyParam::Limit => "limit",
        }
    }

    /// The API's problem for `query` (api.md's sentences, unchanged).
    pub fn problem(self, query: &LobbyQuery) -> ApiError {
        let detail = match self {
            LobbyParam::Kind => format!(
                "“{}” is not one of {}",
                query.kind.as_deref().unwrap_or_default(),
                GameKind::names()
            ),
            LobbyParam::Seats => format!("from {} to {}", LOBBY_SEATS.start(), LOBBY_SEATS.end()),
            LobbyParam::Limit => format!("from {} to {}", LOBBY_LIMIT.start(), LOBBY_LIMIT.end()),
        };
        ApiError::Validation(format!("{}: {detail}", self.name()))
    }
}

/// The lobby's filter, checked: a known kind, a seat count and a limit in range; otherwise the
/// first parameter refused.
///
/// # Errors
/// The parameter whose value is refused.
pub fn lobby_filter(query: &LobbyQuery) -> Result<games::lobby::LobbyFilter, LobbyParam> {
    if query
        .kind
        .as_deref()
        .is_some_and(|kind| GameKind::parse(kind).is_none())
    {
        return Err(LobbyParam::Kind);
    }
    if query.seats.is_some_and(|n| !LOBBY_SEATS.contains(&n)) {
        return Err(LobbyParam::Seats);
    }
    let limit = query.limit.unwrap_or(50);
    if !LOBBY_LIMIT.contains(&limit) {
        return Err(LobbyParam::Limit);
    }
    Ok(games::lobby::LobbyFilter {
        kind: query.kind.clone(),
        seats: query.seats,
        limit,
    })
}

/// List my games
///
/// The games the caller sits in or is invited to, most recently changed first (then by id); with
/// `my_turn=true` only those waiting for the caller, the nearest deadline first (games without a
/// deadline last, then most recently changed first, then by id). Without `limit` the whole list
/// (at most 500 games); with it one page, `offset` games in. A page with more games after it
/// answers a `Link` header to the next page. Needs the `read` scope.
#[utoipa::path(
    operation_id = "list_games",
    tag = "games",
    security(("bearer" = [])),
    params(ListGamesQuery, PageQuery),
    responses(
        (status = 200, description = "The caller's games, or one page of them.", body = Vec<GameSummary>,
            headers(("Link" = String, description = "`<...>; rel=\"next\"` (RFC 8288): the address of the next page, the other query parameters kept. Only when more games follow this page."))),
        (status = 422, description = "An unknown filter or value, a `limit` out of 1–200 or an `offset` beyond 1000000 (`validation_failed`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        ServerErrors,
    )
)]
#[get("/games")]
pub async fn list_games(
    state: web::Data<AppState>,
    auth: AuthUser,
    req: HttpRequest,
    query: WithPage<ListGamesQuery>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Read)?;
    let page = query.page.page_or_whole(games::WHOLE_LIST)?;
    let filter = ListFilter {
        status: query.filter.status,
        my_turn: query.filter.my_turn.unwrap_or(false),
    };
    let user = auth.user_id;
    let list = crate::db::run(&state.pool, move |conn| {
        games::list(conn, user, filter, page)
    })
    .await?;
    let next = page.next_offset().filter(|_| list.more).map(Next::Offset);
    Ok(paging::answer(&req, next, &list.rows))
}

/// Get a game
///
/// The game as the caller may see it: their own view, their legal actions, everyone's pending
/// flags. An unseated caller gets a spectator's view. Finished games are public; games in progress
/// need a token with the `read` scope.
#[utoipa::path(
    operation_id = "get_game",
    tag = "games",
    security((), ("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The game's id."),
        ("If-None-Match" = Option<String>, Header, description = "The `ETag` of a copy the client holds: 304 while the game is unchanged for this caller."),
    ),
    responses(
        (status = 200, description = "The game, with its `ETag`.", body = GameResource,
            headers(("ETag" = String, description = "Changes whenever what this caller sees changes."))),
        (status = 304, description = "Unchanged since the `If-None-Match` tag: no body."),
        (status = 404, description = "No such game (`not_found`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        ServerErrors,
    )
)]
#[get("/games/{id}")]
pub async fn get_game(
    state: web::Data<AppState>,
    req: HttpRequest,
    auth: MaybeAuthUser,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let caller = auth.user_with(Scope::Read)?;
    let id = GameId(id.into_inner());
    let kept = state.seen.clone();
    let game = crate::db::run(&state.pool, move |conn| {
        games::read(conn, &kept, caller, id, games::Watch::SignedIn)
    })
    .await?;
    Ok(conditional(&req, &game))
}

/// A 200 with `value` and its `ETag`, or a 304 without a body when the client's
/// `If-None-Match` names that tag. The tag hashes the very bytes this caller would get, so it
/// changes with anything they see (a move, a deadline, a seat taken) and differs between viewers.
fn conditional<T: serde::Serialize>(req: &HttpRequest, value: &T) -> HttpResponse {
    use sha2::{Digest, Sha256};
    let body = serde_json::to_vec(value).unwrap_or_default();
    let tag = format!("\"{}\"", hex::encode(&Sha256::digest(&body)[..12]));
    let matches = req
        .headers()
        .get(actix_web::http::header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',')
                .map(|t| t.trim().trim_start_matches("W/"))
                .any(|t| t == tag || t == "*")
        });
    let mut answer = if matches {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    answer.insert_header((actix_web::http::header::ETAG, tag));
    if matches {
        answer.finish()
    } else {
        answer.content_type("application/json").body(body)
    }
}

/// Join a game
///
/// Accepts the caller's invitation, or takes an open seat. The game starts when every seat is
/// taken (the game's rules decide the start player). Needs the `play` scope.
#[utoipa::path(
    operation_id = "join_game",
    tag = "games",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id.")),
    request_body(content = Option<JoinRequest>, description = "Optional; `{}` or no body at all joins without entropy."),
    responses(
        (status = 200, description = "The game, with the caller seated (and started if the table is full).", body = GameResource),
        (status = 404, description = "No such game (`not_found`).", body = Problem, content_type = PROBLEM),
        (status = 409, description = "The caller already sits in this game, or it has started (`conflict`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        BodyErrors,
        ServerErrors,
    )
)]
#[post("/games/{id}/join")]
pub async fn join_game(
    state: web::Data<AppState>,
    auth: AuthUser,
    id: web::Path<Uuid>,
    body: OptionalJson<JoinRequest>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Play)?;
    let entropy = body.0.entropy;
    if entropy.as_ref().is_some_and(|e| e.chars().count() > 256) {
        return Err(ApiError::Validation(
            "entropy must be at most 256 characters".to_owned(),
        ));
    }
    let (user, id) = (auth.user_id, GameId(id.into_inner()));
    let game = crate::db::run(&state.pool, move |conn| {
        games::join(conn, user, id, entropy)
    })
    .await?;
    Ok(HttpResponse::Ok().json(game))
}

/// Submit actions
///
/// Applies the caller's actions in order, all or nothing, if the game is still at
/// `expected_version`. Checks run in this order: a seat (403), game over, stale version, then per
/// action: not your turn, illegal. An action that ends the player's turn or rolls, draws or
/// reveals what they cannot see yet ends the list: any action after it is refused (422
/// `validation_failed`, its `index`, one sentence for every case), whatever the outcome, so that
/// neither this nor a check can tell the outcome before the player commits. Answers the caller's fresh view (the other seats' deadlines, vacations and ratings as this server read them, at most a second before). Accepts `Idempotency-Key`: a
/// retry with the same key and body gets the first answer, not a second move. Needs the `play`
/// scope.
#[utoipa::path(
    operation_id = "submit_actions",
    tag = "games",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The game's id."),
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 255, pattern = "^[!-~]+$", description = "Makes a retry return the first answer instead of moving twice."),
    ),
    request_body = SubmitRequest,
    responses(
        (status = 200, description = "Stored; the game as the caller now sees it.", body = GameResource),
        (status = 404, description = "No such game (`not_found`).", body = Problem, content_type = PROBLEM),
        (status = 409, description = "The game is over (`game_over`), moved on (`stale_version`, with the current `version`), waits for another seat (`not_your_turn`, with `index`), has not started or the `Idempotency-Key` was used for another request (`conflict`).", body = Problem, content_type = PROBLEM),
        (status = 422, description = "An action breaks a rule (`illegal_action` with `rule` and `index`), or cannot be read (`validation_failed` with `index`), or the body is malformed (`validation_failed`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        BodyErrors,
        ServerErrors,
    )
)]
#[post("/games/{id}/actions")]
pub async fn submit_actions(
    state: web::Data<AppState>,
    auth: AuthUser,
    req: HttpRequest,
    id: web::Path<Uuid>,
    body: Json<SubmitRequest>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Play)?;
    let id = GameId(id.into_inner());
    let key = idempotency_key(
        &req,
        json!({"op": "submit_actions", "game": id, "body": &body.0}),
    )?;
    let submission = Submission {
        expected_version: body.0.expected_version,
        actions: body.0.actions,
        // The API's contract: any change since the version given is `stale_version`.
        same_decision: false,
    };
    let user = auth.user_id;
    // Observed when dropped: refusals count too, they take the same path.
    let _timer = state.metrics.action_submit.start_timer();
    let kept = state.seen.clone();
    let done = crate::db::run(&state.pool, move |conn| {
        games::submit(
            conn,
            Some(&kept),
            user,
            id,
            &submission,
            key.as_ref(),
            Mode::Store,
        )
    })
    .await?;
    Ok(answer(done, actix_web::http::StatusCode::OK))
}

/// Check actions
///
/// Says whether `submit_actions` with this body would be accepted now, storing nothing: 200 when
/// it would, otherwise the same problem the submission would get. Needs the `play` scope.
#[utoipa::path(
    operation_id = "check_actions",
    tag = "games",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id.")),
    request_body = SubmitRequest,
    responses(
        (status = 200, description = "The actions would be accepted.", body = CheckResponse),
        (status = 404, description = "No such game (`not_found`).", body = Problem, content_type = PROBLEM),
        (status = 409, description = "A submission would get `game_over`, `stale_version`, `not_your_turn` or `conflict`.", body = Problem, content_type = PROBLEM),
        (status = 422, description = "A submission would get `illegal_action` (with `rule` and `index`) or `validation_failed`.", body = Problem, content_type = PROBLEM),
        AuthErrors,
        BodyErrors,
        ServerErrors,
    )
)]
#[post("/games/{id}/actions/check")]
pub async fn check_actions(
    state: web::Data<AppState>,
    auth: AuthUser,
    id: web::Path<Uuid>,
    body: Json<SubmitRequest>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Play)?;
    let id = GameId(id.into_inner());
    let submission = Submission {
        expected_version: body.0.expected_version,
        actions: body.0.actions,
        // The API's contract: any change since the version given is `stale_version`.
        same_decision: false,
    };
    let user = auth.user_id;
    let kept = state.seen.clone();
    let done = crate::db::run(&state.pool, move |conn| {
        games::submit(conn, Some(&kept), user, id, &submission, None, Mode::Check)
    })
    .await?;
    Ok(answer(done, actix_web::http::StatusCode::OK))
}

/// Get a game's history
///
/// The record as the caller may see it: the setup (`seq` 0) and each action with the events the
/// caller is in the audience of; another seat's secret actions are left out until the game is
/// over, then the whole record is public. Oldest first. `after=N` answers only the entries
/// numbered above N (what is new since the last `seq` a client holds), `limit` at most that many;
/// a page with more entries after it answers a `Link` header to the next. What was left out
/// while the game went on appears in the entries it was left out of, once the game is over: a
/// client that keeps a copy reads the history from the start again once (`after` omitted) when
/// it sees the game finished. Finished games are
/// public; games in progress need the `read` scope.
#[utoipa::path(
    operation_id = "get_game_history",
    tag = "games",
    security((), ("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id."), AfterQuery),
    responses(
        (status = 200, description = "The history, or the part of it asked for, oldest first.", body = Vec<HistoryEntry>,
            headers(("Link" = String, description = "`<...>; rel=\"next\"` (RFC 8288): the address of the next page (`after` the last `seq` of this one), the other query parameters kept. Only when more entries follow this page."))),
        (status = 404, description = "No such game (`not_found`).", body = Problem, content_type = PROBLEM),
        (status = 422, description = "An `after` below 0, a `limit` out of 1–200 or an unknown parameter (`validation_failed`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        ServerErrors,
    )
)]
#[get("/games/{id}/history")]
pub async fn get_game_history(
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
        games::history_page(conn, caller, id, games::Watch::SignedIn, cursor)
    })
    .await?;
    let next = page
        .rows
        .last()
        .filter(|_| page.more)
        .map(|e| Next::After(e.seq));
    Ok(paging::answer(&req, next, &page.rows))
}

/// Resign
///
/// The caller resigns; the game ends at once and the other seats win. Needs the `play` scope.
#[utoipa::path(
    operation_id = "resign_game",
    tag = "games",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id.")),
    responses(
        (status = 200, description = "The finished game.", body = GameResource),
        (status = 404, description = "No such game (`not_found`).", body = Problem, content_type = PROBLEM),
        (status = 409, description = "The game is over (`game_over`) or has not started (`conflict`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        ServerErrors,
    )
)]
#[post("/games/{id}/resign")]
pub async fn resign_game(
    state: web::Data<AppState>,
    auth: AuthUser,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Play)?;
    let (user, id) = (auth.user_id, GameId(id.into_inner()));
    let game = crate::db::run(&state.pool, move |conn| games::resign(conn, user, id)).await?;
    Ok(HttpResponse::Ok().json(game))
}

/// Get a game's fairness record
///
/// The seed commitment and the players' entropy; once the game is over also the seed and whether
/// replaying the public record from it reproduces the stored result. Finished games are public;
/// games in progress need the `read` scope.
#[utoipa::path(
    operation_id = "get_game_fairness",
    tag = "games",
    security((), ("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id.")),
    responses(
        (status = 200, description = "The fairness record.", body = Fairness),
        (status = 404, description = "No such game (`not_found`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        ServerErrors,
    )
)]
#[get("/games/{id}/fairness")]
pub async fn get_game_fairness(
    state: web::Data<AppState>,
    auth: MaybeAuthUser,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let caller = auth.user_with(Scope::Read)?;
    let id = GameId(id.into_inner());
    let record = crate::db::run(&state.pool, move |conn| games::fairness(conn, caller, id)).await?;
    Ok(HttpResponse::Ok().json(record))
}
