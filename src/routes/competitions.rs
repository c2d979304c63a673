//! Competitions (design.md section 15, api.md "Competitions"): organisers create and direct them
//! (scope `organise`), players enter and withdraw (scope `play`), everyone reads them.

use super::docs::{AuthErrors, BodyErrors, ServerErrors};
use super::json::{Json, OptionalJson};
use crate::auth::{AuthUser, Scope};
use crate::competitions::Points;
use crate::competitions::format::Format;
use crate::competitions::standings::Scoring;
use crate::competitions::tiebreaks::TieBreak;
use crate::domain::EmailAddress;
use crate::engine::registry::GameKind;
use crate::error::{ApiError, Problem};
use crate::services::clocks::Clock;
use crate::services::competitions::{
    self as service, AuditEntry, CompetitionResource, CompetitionSummary, DirectorAction, Entry,
    NewCompetition, ResultGiven, RoundResource, StandingRow, Status,
};
use crate::services::idempotency;
use crate::state::AppState;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

const PROBLEM: &str = "application/problem+json";

/// A new competition.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateCompetitionRequest {
    #[schema(min_length = 1, max_length = 120, example = "Winter Magnate Swiss")]
    pub name: String,
    #[schema(value_type = super::schemas::GameKindName)]
    pub kind: GameKind,
    /// The games' options, as `POST /games` takes them.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub options: Option<Value>,
    /// The games' time control, as `POST /games` takes it (default 3 days per move), but never
    /// `none`: a game without deadlines could stall a round for good.
    #[serde(default)]
    #[schema(value_type = Option<Clock>)]
    pub clock: Option<Value>,
    /// Whether the games count for ratings.
    #[serde(default)]
    pub rated: bool,
    #[schema(value_type = FormatSchema)]
    pub format: Format,
    pub entry: Entry,
    /// Addresses invited to enter (each is mailed), each once.
    #[serde(default)]
    #[schema(value_type = std::collections::BTreeSet<super::schemas::Email>, max_items = 500)]
    pub invite: Vec<EmailAddress>,
    #[schema(minimum = 2, maximum = 1000)]
    pub max_entrants: Option<u32>,
    /// Open entry only for accounts with at least this rating in the kind.
    pub min_rating: Option<i32>,
    /// Open entry only for accounts whose mail address is known to work: they have used a
    /// mailed sign-in, sign-up or play link, or moved by mail (default false).
    #[serde(default)]
    pub require_working_address: bool,
    /// Applied in this order after points, each once.
    #[serde(default)]
    #[schema(value_type = std::collections::BTreeSet<TieBreakName>, max_items = 8)]
    pub tie_breaks: Vec<TieBreak>,
    /// Points of a pairing-allocated bye (default 1).
    #[schema(value_type = Option<f64>, minimum = 0, maximum = 1)]
    pub bye_points: Option<Points>,
    /// Tables: points by place, first place first, at most 5 places (default: one point per
    /// seat beaten).
    #[schema(value_type = Option<Vec<f64>>, max_items = 5)]
    pub place_points: Option<Vec<Points>>,
    /// Whether entrants may take vacation in the competition's games (default true).
    #[serde(default = "yes")]
    pub vacation_allowed: bool,
}

fn yes() -> bool {
    true
}

/// A tie-break's name.
#[derive(ToSchema)]
#[schema(as = TieBreakName)]
#[allow(dead_code, reason = "a schema only")]
pub enum TieBreakName {
    #[schema(rename = "sonneborn_berger")]
    SonnebornBerger,
    #[schema(rename = "buchholz")]
    Buchholz,
    #[schema(rename = "buchholz_cut1")]
    BuchholzCut1,
    #[schema(rename = "median_buchholz")]
    MedianBuchholz,
    #[schema(rename = "head_to_head")]
    HeadToHead,
    #[schema(rename = "wins")]
    Wins,
    #[schema(rename = "game_score")]
    GameScore,
    #[schema(rename = "rating")]
    Rating,
}

/// Round robin by the FIDE Berger tables.
#[derive(ToSchema)]
#[allow(dead_code, reason = "a schema only")]
pub struct FormatRoundRobin {
    #[schema(pattern = "^round_robin$")]
    r#type: String,
    #[schema(minimum = 1, maximum = 2)]
    cycles: u8,
    /// `all_at_once` (every game at the start) or `sequential` (round by round).
    #[schema(pattern = "^(all_at_once|sequential)$")]
    rounds: String,
}

/// Swiss by the FIDE Dutch system.
#[derive(ToSchema)]
#[allow(dead_code, reason = "a schema only")]
pub struct FormatSwiss {
    #[schema(pattern = "^swiss$")]
    r#type: String,
    #[schema(minimum = 1, maximum = 100)]
    rounds: u32,
}

/// Knockout seeded by rating, byes to the next power of two.
#[derive(ToSchema)]
#[allow(dead_code, reason = "a schema only")]
pub struct FormatKnockout {
    #[schema(pattern = "^knockout$")]
    r#type: String,
    #[schema(minimum = 1, maximum = 2)]
    games_per_match: u8,
}

/// A league season: divisions, each a round robin, promotion and relegation.
#[derive(ToSchema)]
#[allow(dead_code, reason = "a schema only")]
pub struct FormatLeague {
    #[schema(pattern = "^league$")]
    r#type: String,
    #[schema(minimum = 2, maximum = 1000)]
    division_size: u32,
    promote: u32,
    relegate: u32,
}

/// Tables of 3–5 seats, points by place. Each round is seated by standings (pairing numbers in
/// round 1), then entrants swap between tables while that seats fewer pairs who have already met.
#[derive(ToSchema)]
#[allow(dead_code, reason = "a schema only")]
pub struct FormatTables {
    #[schema(pattern = "^tables$")]
    r#type: String,
    /// The sizes tables may have (seats, 3 to 5); at least one.
    #[schema(value_type = Vec<super::schemas::TableSize>, min_items = 1)]
    table_sizes: Vec<u32>,
    #[schema(minimum = 1, maximum = 100)]
    rounds: u32,
}

/// A competition's format.
#[derive(ToSchema)]
#[schema(as = Format)]
#[serde(untagged)]
#[allow(dead_code, reason = "a schema only")]
pub enum FormatSchema {
    RoundRobin(FormatRoundRobin),
    Swiss(FormatSwiss),
    Knockout(FormatKnockout),
    League(FormatLeague),
    Tables(FormatTables),
}

impl CreateCompetitionRequest {
    /// The service's request: defaults filled, the clock and the bye's points checked.
    fn into_new(self, clock_min_seconds: i64) -> Result<NewCompetition, ApiError> {
        let scoring = Scoring {
            bye_points: self.bye_points.unwrap_or(Points::ONE),
            place_points: self.place_points,
        };
        if scoring.bye_points < Points::ZERO || scoring.bye_points > Points::ONE {
            return Err(ApiError::Validation(
                "bye_points: between 0 and 1".to_owned(),
            ));
        }
        Ok(NewCompetition {
            name: self.name,
            kind: self.kind,
            options: self.options.unwrap_or(Value::Null),
            clock: Clock::from_request(self.clock.as_ref(), clock_min_seconds)?,
            rated: self.rated,
            format: self.format,
            entry: self.entry,
            invite: self.invite,
            max_entrants: self.max_entrants,
            min_rating: self.min_rating,
            require_working_address: self.require_working_address,
            tie_breaks: self.tie_breaks,
            scoring,
            vacation_allowed: self.vacation_allowed,
        })
    }
}

/// Create a competition
///
/// Opens a competition for entries and mails the invited addresses. Accepts `Idempotency-Key`.
/// Needs the `organise` scope.
#[utoipa::path(
    operation_id = "create_competition",
    tag = "competitions",
    security(("bearer" = [])),
    request_body = CreateCompetitionRequest,
    params(("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 255, pattern = "^[!-~]+$", description = "Makes a retry return the first answer instead of creating a second competition.")),
    responses(
        (status = 201, description = "The competition, registering.", body = CompetitionResource),
        (status = 409, description = "The `Idempotency-Key` was used for a different request (`conflict`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        BodyErrors,
        ServerErrors,
    )
)]
#[post("/competitions")]
pub async fn create_competition(
    state: web::Data<AppState>,
    auth: AuthUser,
    req: HttpRequest,
    body: Json<CreateCompetitionRequest>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Organise)?;
    let b = body.0;
    let key = super::idempotency_key(
        &req,
        json!({"op": "create_competition", "body": serde_json::to_value(&b).map_err(ApiError::internal)?}),
    )?;
    let request = b.into_new(state.settings.games.clock_min_seconds)?;
    let user = auth.user_id;
    let answer = crate::db::run(&state.pool, move |conn| {
        idempotency::once(conn, user, key.as_ref(), 201, |conn| {
            service::create(conn, user, request)
        })
    })
    .await?;
    Ok(super::answered(answer))
}

/// Filters of the competition list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// `registering`, `running`, `paused` or `finished`.
    pub status: Option<Status>,
    /// Only competitions of this kind of game.
    #[param(value_type = Option<super::schemas::GameKindName>)]
    pub kind: Option<String>,
    /// At most this many (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
}

/// List competitions
///
/// Newest first. Public.
#[utoipa::path(
    operation_id = "list_competitions",
    tag = "competitions",
    params(ListQuery),
    responses(
        (status = 200, description = "The competitions.", body = Vec<CompetitionSummary>),
        (status = 422, description = "An unknown filter value (`validation_failed`).", body = Problem, content_type = PROBLEM),
        ServerErrors,
    )
)]
#[get("/competitions")]
pub async fn list_competitions(
    state: web::Data<AppState>,
    query: web::Query<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let q = query.into_inner();
    let kind = match q.kind.as_deref() {
        Some(k) => Some(GameKind::parse(k).ok_or_else(|| {
            ApiError::Validation(format!(
                "kind: no kind {k:?}; the kinds are {}",
                GameKind::names()
            ))
        })?),
        None => None,
    };
    let limit = q.limit.unwrap_or(50);
    if !(1..=200).contains(&limit) {
        return Err(ApiError::Validation("limit: between 1 and 200".to_owned()));
    }
    let limit = i64::from(limit);
    let list = crate::db::run(&state.pool, move |conn| {
        service::list(conn, q.status, kind, limit)
    })
    .await?;
    Ok(HttpResponse::Ok().json(list))
}

/// Get a competition
///
/// The competition, its entrants (by pairing number once started) and its current round. Public.
#[utoipa::path(
    operation_id = "get_competition",
    tag = "competitions",
    params(("id" = Uuid, Path, description = "The competition's id.")),
    responses(
        (status = 200, description = "The competition.", body = CompetitionResource),
        (status = 404, description = "No such competition (`not_found`).", body = Problem, content_type = PROBLEM),
        ServerErrors,
    )
)]
#[get("/competitions/{id}")]
pub async fn get_competition(
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let c = crate::db::run(&state.pool, move |conn| service::get(conn, id)).await?;
    Ok(HttpResponse::Ok().json(c))
}

/// Entering a competition.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EntryRequest {
    /// The organiser adds this account; absent: the caller enters.
    pub account_id: Option<Uuid>,
}

/// Enter a competition
///
/// The caller enters (open entry, or an invited address); the organiser may add an account with
/// `account_id`. Accepts `Idempotency-Key`. Needs the `play` scope (`organise` to add someone
/// else).
#[utoipa::path(
    operation_id = "enter_competition",
    tag = "competitions",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The competition's id."),
        ("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 255, pattern = "^[!-~]+$", description = "Makes a retry return the first answer instead of a 409 (already entered)."),
    ),
    request_body(content = Option<EntryRequest>, description = "Optional; `{}` or no body enters the caller."),
    responses(
        (status = 201, description = "The competition with the new entrant.", body = CompetitionResource),
        (status = 403, description = "Not invited, rating too low, or adding someone else without being the organiser (`forbidden`).", body = Problem, content_type = PROBLEM),
        (status = 404, description = "No such competition or account (`not_found`).", body = Problem, content_type = PROBLEM),
        (status = 409, description = "Already entered, full, started, or the `Idempotency-Key` was used for a different request (`conflict`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        BodyErrors,
        ServerErrors,
    )
)]
#[post("/competitions/{id}/entries")]
pub async fn enter_competition(
    state: web::Data<AppState>,
    auth: AuthUser,
    id: web::Path<Uuid>,
    req: HttpRequest,
    body: OptionalJson<EntryRequest>,
) -> Result<HttpResponse, ApiError> {
    let who = body.0.account_id;
    auth.require(if who.is_some_and(|w| w != auth.user_id.0) {
        Scope::Organise
    } else {
        Scope::Play
    })?;
    let (user, id) = (auth.user_id, id.into_inner());
    let key = super::idempotency_key(
        &req,
        json!({"op": "enter_competition", "competition": id, "account_id": who}),
    )?;
    let answer = crate::db::run(&state.pool, move |conn| {
        idempotency::once(conn, user, key.as_ref(), 201, |conn| {
            service::enter(conn, user, id, who)
        })
    })
    .await?;
    Ok(super::answered(answer))
}

/// Withdraw from a competition
///
/// The entrant withdraws, or the organiser withdraws them. Before the start the entry is
/// removed; after it, a withdrawal before half of one's games annuls one's results, a later one
/// forfeits the games still to play. Needs the `play` scope (`organise` for someone else).
#[utoipa::path(
    operation_id = "withdraw_from_competition",
    tag = "competitions",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The competition's id."),
        ("account_id" = Uuid, Path, description = "The entrant's account id."),
    ),
    responses(
        (status = 200, description = "The competition after the withdrawal.", body = CompetitionResource),
        (status = 403, description = "Someone else's entry (`forbidden`).", body = Problem, content_type = PROBLEM),
        (status = 404, description = "No such competition or entrant (`not_found`).", body = Problem, content_type = PROBLEM),
        (status = 409, description = "The competition has finished, or the entrant already withdrew or was disqualified (`conflict`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        ServerErrors,
    )
)]
#[delete("/competitions/{id}/entries/{account_id}")]
pub async fn withdraw_from_competition(
    state: web::Data<AppState>,
    auth: AuthUser,
    path: web::Path<(Uuid, Uuid)>,
) -> Result<HttpResponse, ApiError> {
    let (id, who) = path.into_inner();
    auth.require(if who == auth.user_id.0 {
        Scope::Play
    } else {
        Scope::Organise
    })?;
    let user = auth.user_id;
    let c = crate::db::run(&state.pool, move |conn| service::leave(conn, user, id, who)).await?;
    Ok(HttpResponse::Ok().json(c))
}

/// Start a competition
///
/// The organiser closes entry: pairing numbers by rating, the first round (every round of an
/// all-at-once round robin) paired, its games created and the pairings mailed. Needs the
/// `organise` scope.
#[utoipa::path(
    operation_id = "start_competition",
    tag = "competitions",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The competition's id.")),
    responses(
        (status = 200, description = "The competition, running.", body = CompetitionResource),
        (status = 403, description = "Not the organiser (`forbidden`).", body = Problem, content_type = PROBLEM),
        (status = 404, description = "No such competition (`not_found`).", body = Problem, content_type = PROBLEM),
        (status = 409, description = "Already started (`conflict`).", body = Problem, content_type = PROBLEM),
        (status = 422, description = "The format cannot start with these entrants (`validation_failed`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        ServerErrors,
    )
)]
#[post("/competitions/{id}/start")]
pub async fn start_competition(
    state: web::Data<AppState>,
    auth: AuthUser,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Organise)?;
    let (user, id) = (auth.user_id, id.into_inner());
    let c = crate::db::run(&state.pool, move |conn| service::start(conn, user, id)).await?;
    Ok(HttpResponse::Ok().json(c))
}

/// List a competition's rounds
///
/// Every round paired so far: its games (`seats` by entrant, seat 0 first; `result` once the
/// game ended) and byes. Public.
#[utoipa::path(
    operation_id = "list_competition_rounds",
    tag = "competitions",
    params(("id" = Uuid, Path, description = "The competition's id.")),
    responses(
        (status = 200, description = "The rounds, first first.", body = Vec<RoundResource>),
        (status = 404, description = "No such competition (`not_found`).", body = Problem, content_type = PROBLEM),
        ServerErrors,
    )
)]
#[get("/competitions/{id}/rounds")]
pub async fn list_competition_rounds(
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let r = crate::db::run(&state.pool, move |conn| service::rounds(conn, id)).await?;
    Ok(HttpResponse::Ok().json(r))
}

/// Get the standings
///
/// Points, games and the tie-breaks in the organiser's order, each with its name and value;
/// frozen once the director finalises. `Accept: text/csv` answers the same numbers as CSV.
/// Public.
#[utoipa::path(
    operation_id = "get_competition_standings",
    tag = "competitions",
    params(("id" = Uuid, Path, description = "The competition's id.")),
    responses(
        (status = 200, description = "The standings, first first (as CSV with `Accept: text/csv`: the same fields: division (leagues), rank, entrant, name, points, played, wins, draws, losses, byes, forfeit_wins, forfeit_losses, status, annulled, then `tb_<name>` per tie-break).", content(
            (Vec<StandingRow> = "application/json"),
            (String = "text/csv"),
        )),
        (status = 404, description = "No such competition (`not_found`).", body = Problem, content_type = PROBLEM),
        ServerErrors,
    )
)]
#[get("/competitions/{id}/standings")]
pub async fn get_competition_standings(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let csv = req
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/csv"));
    if csv {
        let text =
            crate::db::run(&state.pool, move |conn| service::standings_csv(conn, id)).await?;
        return Ok(HttpResponse::Ok()
            .content_type("text/csv; charset=utf-8")
            .insert_header((
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"standings-{id}.csv\""),
            ))
            .body(text));
    }
    let rows = crate::db::run(&state.pool, move |conn| service::standings(conn, id)).await?;
    Ok(HttpResponse::Ok().json(rows))
}

/// Get the TRF-16 file
///
/// A Swiss event as FIDE's Tournament Report File, for any FIDE pairing checker. Public.
#[utoipa::path(
    operation_id = "get_competition_trf",
    tag = "competitions",
    params(("id" = Uuid, Path, description = "The competition's id.")),
    responses(
        (status = 200, description = "The TRF-16 text (lines end with CR LF).", body = String, content_type = "text/plain"),
        (status = 404, description = "No such competition (`not_found`).", body = Problem, content_type = PROBLEM),
        (status = 409, description = "Not a Swiss event (`conflict`).", body = Problem, content_type = PROBLEM),
        ServerErrors,
    )
)]
#[get("/competitions/{id}/trf")]
pub async fn get_competition_trf(
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let text = crate::db::run(&state.pool, move |conn| service::trf(conn, id)).await?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .body(text))
}

/// A director action; every one needs a `reason` for the audit log.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum DirectorRequest {
    /// Set or correct a game's result: `places` (the place of each seat, 1 = first, equal
    /// places share and skip the places they cover, as in `[1, 2, 2, 4]`), or for two seats `winner` (an account id). The result
    /// counts for the competition only (`/rounds` shows it with `corrected: true`): a game still
    /// being played is stopped and reads `aborted`, without an outcome and unrated; a game
    /// already over keeps the outcome, rating change and history it was played to.
    #[schema(title = "DirectorSetResult")]
    SetResult {
        game_id: Uuid,
        #[schema(value_type = Option<Vec<super::schemas::ResultPlace>>, min_items = 1, max_items = 8)]
        places: Option<Vec<u32>>,
        winner: Option<Uuid>,
        reason: String,
    },
    /// Moves the deadline of the game's pending seats later.
    #[schema(title = "DirectorExtendDeadline")]
    ExtendDeadline {
        game_id: Uuid,
        #[schema(minimum = 60, maximum = 2592000)]
        seconds: i64,
        reason: String,
    },
    /// No round starts until `resume`.
    #[schema(title = "DirectorPause")]
    Pause { reason: String },
    #[schema(title = "DirectorResume")]
    Resume { reason: String },
    /// Another account takes the entrant's place, results and games in progress.
    #[schema(title = "DirectorReplace")]
    Replace {
        account_id: Uuid,
        by_account_id: Uuid,
        reason: String,
    },
    /// The withdrawal rule applies as if the entrant withdrew.
    #[schema(title = "DirectorWithdraw")]
    Withdraw { account_id: Uuid, reason: String },
    /// The entrant's games still to play are forfeited; they are paired no more.
    #[schema(title = "DirectorDisqualify")]
    Disqualify { account_id: Uuid, reason: String },
    /// Freezes the standings; no director action after it.
    #[schema(title = "DirectorFinalise")]
    Finalise { reason: String },
}

/// Direct a competition
///
/// The organiser's actions, each written to the audit log with who, when and why. Needs the
/// `organise` scope.
#[utoipa::path(
    operation_id = "direct_competition",
    tag = "competitions",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The competition's id.")),
    request_body = DirectorRequest,
    responses(
        (status = 200, description = "The competition after the action.", body = CompetitionResource),
        (status = 403, description = "Not the organiser (`forbidden`).", body = Problem, content_type = PROBLEM),
        (status = 404, description = "No such competition, game or entrant (`not_found`).", body = Problem, content_type = PROBLEM),
        (status = 409, description = "Not possible now: finalised, not started, not paused... (`conflict`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        BodyErrors,
        ServerErrors,
    )
)]
#[post("/competitions/{id}/director")]
pub async fn direct_competition(
    state: web::Data<AppState>,
    auth: AuthUser,
    id: web::Path<Uuid>,
    body: Json<DirectorRequest>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Organise)?;
    let (action, reason) = director_action(body.0)?;
    let (user, id) = (auth.user_id, id.into_inner());
    let c = crate::db::run(&state.pool, move |conn| {
        service::act(conn, user, id, action, &reason)
    })
    .await?;
    Ok(HttpResponse::Ok().json(c))
}

fn director_action(body: DirectorRequest) -> Result<(DirectorAction, String), ApiError> {
    Ok(match body {
        DirectorRequest::SetResult {
            game_id,
            places,
            winner,
            reason,
        } => {
            let given = match (places, winner) {
                (Some(p), None) => ResultGiven::Places(p),
                (None, Some(w)) => ResultGiven::Winner(w),
                _ => {
                    return Err(ApiError::Validation(
                        "set_result needs exactly one of `places` and `winner`".to_owned(),
                    ));
                }
            };
            (
                DirectorAction::SetResult {
                    game: game_id,
                    given,
                },
                reason,
            )
        }
        DirectorRequest::ExtendDeadline {
            game_id,
            seconds,
            reason,
        } => (
            DirectorAction::ExtendDeadline {
                game: game_id,
                seconds,
            },
            reason,
        ),
        DirectorRequest::Pause { reason } => (DirectorAction::Pause, reason),
        DirectorRequest::Resume { reason } => (DirectorAction::Resume, reason),
        DirectorRequest::Replace {
            account_id,
            by_account_id,
            reason,
        } => (
            DirectorAction::Replace {
                account: account_id,
                by: by_account_id,
            },
            reason,
        ),
        DirectorRequest::Withdraw { account_id, reason } => (
            DirectorAction::Withdraw {
                account: account_id,
            },
            reason,
        ),
        DirectorRequest::Disqualify { account_id, reason } => (
            DirectorAction::Disqualify {
                account: account_id,
            },
            reason,
        ),
        DirectorRequest::Finalise { reason } => (DirectorAction::Finalise, reason),
    })
}

/// Get the audit log
///
/// The director's actions, oldest first: who, when, what and why. Public, as a tournament's
/// arbiter decisions are.
#[utoipa::path(
    operation_id = "get_competition_audit",
    tag = "competitions",
    params(("id" = Uuid, Path, description = "The competition's id.")),
    responses(
        (status = 200, description = "The director's actions.", body = Vec<AuditEntry>),
        (status = 404, description = "No such competition (`not_found`).", body = Problem, content_type = PROBLEM),
        ServerErrors,
    )
)]
#[get("/competitions/{id}/audit")]
pub async fn get_competition_audit(
    state: web::Data<AppState>,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let log = crate::db::run(&state.pool, move |conn| service::audit(conn, id)).await?;
    Ok(HttpResponse::Ok().json(log))
}
