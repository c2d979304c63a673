//! Invitations after a game's creation (design.md section 19): the invitee declines, the
//! creator cancels the waiting game, withdraws an invitation or invites someone to an empty
//! seat; players are found by display name.

use super::docs::{AuthErrors, BodyErrors, ServerErrors};
use super::json::Json;
use crate::auth::{AuthUser, Scope};
use crate::domain::{EmailAddress, GameId, UserId};
use crate::error::{ApiError, Problem};
use crate::services::accounts::{self, PlayerName};
use crate::services::games::GameResource;
use crate::services::games::invitations::{self, Invitee};
use crate::state::AppState;
use actix_web::{HttpResponse, delete, get, post, web};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

const PROBLEM: &str = "application/problem+json";

/// Decline an invitation
///
/// The invitee declines: their seat stays empty until the creator invites someone else, the
/// creator is mailed, and this account may not join the game any more. Needs the `play` scope.
#[utoipa::path(
    operation_id = "decline_invitation",
    tag = "games",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id.")),
    responses(
        (status = 200, description = "The game, without the caller's seat.", body = GameResource),
        (status = 403, description = "No invitation of the caller to decline (`forbidden`).", body = Problem, content_type = PROBLEM),
        (status = 404, description = "No such game (`not_found`).", body = Problem, content_type = PROBLEM),
        (status = 409, description = "The game has started or was cancelled (`conflict`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        ServerErrors,
    )
)]
#[post("/games/{id}/decline")]
pub async fn decline_invitation(
    state: web::Data<AppState>,
    auth: AuthUser,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Play)?;
    let (user, id) = (auth.user_id, GameId(id.into_inner()));
    let game = crate::db::run(&state.pool, move |conn| {
        invitations::decline(conn, user, id)
    })
    .await?;
    Ok(HttpResponse::Ok().json(game))
}

/// Cancel a waiting game
///
/// The creator cancels a game that has not started: its status becomes `aborted` (never
/// played, never rated). Needs the `play` scope.
#[utoipa::path(
    operation_id = "cancel_game",
    tag = "games",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id.")),
    responses(
        (status = 200, description = "The cancelled game (`aborted`).", body = GameResource),
        (status = 403, description = "The caller did not create the game (`forbidden`).", body = Problem, content_type = PROBLEM),
        (status = 404, description = "No such game (`not_found`).", body = Problem, content_type = PROBLEM),
        (status = 409, description = "The game has started or was cancelled (`conflict`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        ServerErrors,
    )
)]
#[post("/games/{id}/cancel")]
pub async fn cancel_game(
    state: web::Data<AppState>,
    auth: AuthUser,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Play)?;
    let (user, id) = (auth.user_id, GameId(id.into_inner()));
    let game = crate::db::run(&state.pool, move |conn| invitations::cancel(conn, user, id)).await?;
    Ok(HttpResponse::Ok().json(game))
}

/// Whom to invite: exactly one of an address or a player's id.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InvitationRequest {
    pub email: Option<EmailAddress>,
    pub player_id: Option<Uuid>,
}

/// Whom to invite: exactly one of an address (`InvitationByEmail`) or a player's id
/// (`InvitationByPlayer`); the other may be left out or `null`.
#[derive(ToSchema)]
#[schema(as = InvitationRequest)]
#[serde(untagged)]
#[allow(dead_code, reason = "a schema only")]
pub enum InvitationSchema {
    ByEmail(InvitationByEmail),
    ByPlayer(InvitationByPlayer),
}

/// An invitation mailed to an address.
#[derive(ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(title = "InvitationByEmail")]
#[allow(dead_code, reason = "a schema only")]
pub struct InvitationByEmail {
    /// An address (an account is not needed: the mail lets them join as a new player).
    #[schema(format = Email, max_length = 254, example = "cyd@example.org")]
    email: String,
    #[schema(schema_with = null_only)]
    player_id: Option<()>,
}

/// An invitation of a player found by name.
#[derive(ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(title = "InvitationByPlayer")]
#[allow(dead_code, reason = "a schema only")]
pub struct InvitationByPlayer {
    /// A player found with `GET /api/v1/players?q=`.
    player_id: Uuid,
    #[schema(schema_with = null_only)]
    email: Option<()>,
}

/// A field that may be sent, but only as `null` (it means "not this one").
fn null_only() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::Null)
        .description(Some(
            "Absent or `null`: the other field says whom to invite.",
        ))
        .build()
}

impl InvitationRequest {
    fn invitee(self) -> Result<Invitee, ApiError> {
        match (self.email, self.player_id) {
            (Some(email), None) => Ok(Invitee::Email(email)),
            (None, Some(id)) => Ok(Invitee::Player(UserId(id))),
            _ => Err(ApiError::Validation(
                "give exactly one of email and player_id".to_owned(),
            )),
        }
    }
}

/// Invite someone to an empty seat
///
/// The creator of a waiting game invites an address or a player to the first empty seat (one
/// left by a declined or withdrawn invitation); the invitation is mailed. Needs the `play` scope.
#[utoipa::path(
    operation_id = "create_invitation",
    tag = "games",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The game's id.")),
    request_body = InvitationSchema,
    responses(
        (status = 200, description = "The game with the new invitation.", body = GameResource),
        (status = 403, description = "The caller did not create the game (`forbidden`).", body = Problem, content_type = PROBLEM),
        (status = 404, description = "No such game (`not_found`).", body = Problem, content_type = PROBLEM),
        (status = 409, description = "No seat is empty, the invitee already has a seat or an invitation, or the game has started (`conflict`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        BodyErrors,
        ServerErrors,
    )
)]
#[post("/games/{id}/invitations")]
pub async fn create_invitation(
    state: web::Data<AppState>,
    auth: AuthUser,
    id: web::Path<Uuid>,
    body: Json<InvitationRequest>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Play)?;
    let (user, id) = (auth.user_id, GameId(id.into_inner()));
    let invitee = body.0.invitee()?;
    let game = crate::db::run(&state.pool, move |conn| {
        invitations::invite(conn, user, id, invitee)
    })
    .await?;
    Ok(HttpResponse::Ok().json(game))
}

/// Withdraw an invitation
///
/// The creator of a waiting game withdraws the invitation (or the open place) of a seat not yet
/// taken: the seat becomes empty, and the invitee's links and `join` answer 403. Needs the
/// `play` scope.
#[utoipa::path(
    operation_id = "withdraw_invitation",
    tag = "games",
    security(("bearer" = [])),
    params(
        ("id" = Uuid, Path, description = "The game's id."),
        // A game has at most 8 seats (the `games.seat_count` check), numbered from 0.
        ("seat" = i16, Path, minimum = 0, maximum = 7, description = "The seat whose invitation is withdrawn."),
    ),
    responses(
        (status = 200, description = "The game with the seat empty.", body = GameResource),
        (status = 403, description = "The caller did not create the game (`forbidden`).", body = Problem, content_type = PROBLEM),
        (status = 404, description = "No such game or seat (`not_found`).", body = Problem, content_type = PROBLEM),
        (status = 409, description = "The seat is taken or already empty, or the game has started (`conflict`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        ServerErrors,
    )
)]
#[delete("/games/{id}/invitations/{seat}")]
pub async fn withdraw_invitation(
    state: web::Data<AppState>,
    auth: AuthUser,
    path: web::Path<(Uuid, i16)>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Play)?;
    let (id, seat) = path.into_inner();
    let (user, id) = (auth.user_id, GameId(id));
    let game = crate::db::run(&state.pool, move |conn| {
        invitations::withdraw(conn, user, id, seat)
    })
    .await?;
    Ok(HttpResponse::Ok().json(game))
}

/// A search for players.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PlayerQuery {
    /// Part of a display name, 2 to 64 characters (counted once trimmed), any case.
    #[param(min_length = 2, max_length = 64)]
    pub q: String,
}

/// Find players by display name
///
/// Players whose display name contains the text, any case, shortest names first, at most 20:
/// ids and display names only. Needs a signed-in caller.
#[utoipa::path(
    operation_id = "search_players",
    tag = "players",
    security(("bearer" = [])),
    params(PlayerQuery),
    responses(
        (status = 200, description = "The players found (maybe none).", body = Vec<PlayerName>),
        (status = 422, description = "A text under 2 or over 64 characters (`validation_failed`).", body = Problem, content_type = PROBLEM),
        AuthErrors,
        ServerErrors,
    )
)]
#[get("/players")]
pub async fn search_players(
    state: web::Data<AppState>,
    auth: AuthUser,
    query: web::Query<PlayerQuery>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Read)?;
    let q = query.into_inner().q;
    let found = crate::db::run(&state.pool, move |conn| accounts::search(conn, &q)).await?;
    Ok(HttpResponse::Ok().json(found))
}
