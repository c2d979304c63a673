//! Accounts, signing in, the caller's account and personal access tokens.

use super::docs::{AuthErrors, BodyErrors, ServerErrors};
use super::json::Json;
use crate::auth::{AuthUser, Scope, ScopeSet};
use crate::domain::{DisplayName, EmailAddress, Locale, Password, TokenId};
use crate::error::{ApiError, Problem};
use crate::services::{accounts, idempotency, tokens};
use crate::state::AppState;
use actix_web::{HttpRequest, HttpResponse, delete, get, post, put, web};
use chrono::{DateTime, Utc};
use diesel::Connection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

/// A new account.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateAccountRequest {
    #[schema(value_type = String, format = Email, max_length = 254, example = "ada@example.org")]
    pub email: EmailAddress,
    /// The name other players see.
    #[schema(value_type = String, min_length = 1, max_length = 64, example = "Ada")]
    pub display_name: DisplayName,
    #[schema(value_type = String, format = Password, min_length = 10, max_length = 1024, example = "correct horse battery")]
    pub password: Password,
    /// The language of emails and pages; English when absent.
    #[serde(default)]
    pub locale: Option<Locale>,
}

/// An account.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "0b9e5c1e-7f4f-4a43-9d2b-2f1a4b8c9d10", "email": "ada@example.org", "display_name": "Ada", "locale": "en"}))]
pub struct AccountResponse {
    pub id: Uuid,
    #[schema(format = Email)]
    pub email: String,
    pub display_name: String,
    pub locale: Locale,
    /// An IANA zone name; deadlines in mails and pages are shown in it.
    #[schema(example = "Europe/Madrid")]
    pub time_zone: String,
}

impl From<accounts::Account> for AccountResponse {
    fn from(a: accounts::Account) -> Self {
        AccountResponse {
            id: a.id.0,
            email: a.email,
            display_name: a.display_name,
            locale: a.locale,
            time_zone: a.time_zone,
        }
    }
}

/// Credentials for an access token.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    #[schema(max_length = 254, example = "ada@example.org")]
    pub email: String,
    #[schema(format = Password, max_length = 1024)]
    pub password: String,
}

/// An access token (a JWT) for the `Authorization: Bearer` header.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenResponse {
    pub access_token: String,
    /// Always `Bearer`.
    #[schema(example = "Bearer")]
    pub token_type: String,
    /// Seconds until the token expires (at least 3600).
    #[schema(minimum = 3600)]
    pub expires_in: i64,
}

/// A request for a sign-in link.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EmailLinkRequest {
    #[schema(max_length = 254, example = "ada@example.org")]
    pub email: String,
}

/// A new personal access token.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTokenRequest {
    /// A label to recognise the token by.
    #[schema(min_length = 1, max_length = 100, example = "my bot")]
    pub name: String,
    /// What the token may do.
    #[schema(min_items = 1, max_items = 3)]
    pub scopes: Vec<Scope>,
}

/// A personal access token (without its secret).
#[derive(Debug, Serialize, ToSchema)]
pub struct PersonalTokenResponse {
    pub id: Uuid,
    pub name: String,
    pub scopes: Vec<Scope>,
    pub created_at: DateTime<Utc>,
}

/// A personal access token just created: the only time its secret is shown.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedTokenResponse {
    pub id: Uuid,
    pub name: String,
    pub scopes: Vec<Scope>,
    pub created_at: DateTime<Utc>,
    /// The secret for `Authorization: Bearer`; store it now, it is not shown again.
    #[schema(example = "hpat_5Jx0…")]
    pub token: String,
}

impl From<tokens::TokenInfo> for PersonalTokenResponse {
    fn from(t: tokens::TokenInfo) -> Self {
        PersonalTokenResponse {
            id: t.id.0,
            name: t.name,
            scopes: t.scopes,
            created_at: t.created_at,
        }
    }
}

fn client_address(state: &AppState, req: &HttpRequest) -> String {
    crate::auth::rate_limit::client_ip(req, &state.settings.http.trusted_proxies)
}

fn rate_limit(
    state: &AppState,
    req: &HttpRequest,
    what: &str,
    email: &str,
) -> Result<(), ApiError> {
    let by_email = format!("{what}:email:{}", email.trim().to_lowercase());
    let by_client = format!("{what}:client:{}", client_address(state, req));
    state
        .limiter
        .check(&[&by_email, &by_client])
        .map_err(|retry_after_s| ApiError::RateLimited { retry_after_s })
}

/// Register an account
///
/// Creates an account that signs in with its e-mail address and password. Accepts
/// `Idempotency-Key`: a retry with the same key, address, name, locale and password gets the
/// first answer again (the account is created once); anything else for a registered address is
/// the 409.
#[utoipa::path(
    operation_id = "create_account",
    tag = "accounts",
    request_body = CreateAccountRequest,
    params(("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 255, pattern = "^[!-~]+$", description = "Makes a retry return the first answer instead of a 409.")),
    responses(
        (status = 201, description = "The account was created (or, for a retry with the same `Idempotency-Key` and request, the first answer again).", body = AccountResponse),
        (status = 409, description = "An account with this e-mail address already exists, and this is not a retry of the request that created it (`conflict`).", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many new accounts from this client address (`rate_limited`); see `Retry-After`.", body = Problem, content_type = "application/problem+json"),
        BodyErrors,
        ServerErrors,
    )
)]
#[post("/accounts")]
pub async fn create_account(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: Json<CreateAccountRequest>,
) -> Result<HttpResponse, ApiError> {
    let client = format!("register:client:{}", client_address(&state, &req));
    state
        .registrations
        .check(&[&client])
        .map_err(|retry_after_s| ApiError::RateLimited { retry_after_s })?;
    let CreateAccountRequest {
        email,
        display_name,
        password,
        locale,
    } = body.0;
    let locale = locale.unwrap_or_default();
    // No account exists to scope the key to before this request, so the key is kept under the
    // account it creates, and a retry (which then meets the taken address) finds it there. The
    // password is left out of the request's hash: that hash is a fast, unsalted SHA-256, which
    // must not become a way to test passwords; a retry's password is checked against the
    // account's own (argon2) hash instead, so only whoever knows it gets the answer replayed.
    let key = super::idempotency_key(
        &req,
        serde_json::json!({"op": "create_account", "email": email.as_str(), "display_name": display_name.as_str(), "locale": locale}),
    )?;
    // Kept (its `Debug` redacted) to check a retry's password against the account's.
    let attempt = password.clone();
    let (created, replay) = crate::db::run(&state.pool, move |conn| {
        let hash = crate::auth::password::hash(password.expose())?;
        let created = conn.transaction(|conn| {
            let account = accounts::register(conn, &email, &display_name, locale, Some(&hash))?;
            let body = serde_json::to_value(AccountResponse::from(account.clone()))
                .map_err(ApiError::internal)?;
            if let Some(key) = &key {
                idempotency::claim(conn, account.id, key)?;
                idempotency::store(conn, account.id, key, 201, &body)?;
            }
            Ok::<_, ApiError>(body)
        });
        let replay = match (&created, &key) {
            (Err(ApiError::Conflict(_)), Some(key)) => {
                match accounts::credentials(conn, email.as_str())? {
                    Some((id, Some(hash))) => {
                        idempotency::stored(conn, id, key)?.map(|answer| (answer, hash))
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        Ok::<_, ApiError>((created, replay))
    })
    .await?;
    if let (Err(ApiError::Conflict(_)), Some((answer, hash))) = (&created, replay) {
        let same_password =
            web::block(move || crate::auth::password::verify(attempt.expose(), &hash))
                .await
                .map_err(ApiError::internal)?;
        if same_password {
            return Ok(super::answered(idempotency::Answer {
                status: answer.status,
                body: answer.body,
            }));
        }
    }
    Ok(HttpResponse::Created().json(created?))
}

/// Sign in
///
/// Exchanges an e-mail address and password for an access token (a JWT valid for a day). The
/// answer does not reveal whether an account exists.
#[utoipa::path(
    operation_id = "create_token",
    tag = "auth",
    request_body = TokenRequest,
    responses(
        (status = 200, description = "Signed in.", body = TokenResponse),
        (status = 401, description = "Wrong e-mail address or password (`unauthenticated`).", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many sign-in attempts for this address or client (`rate_limited`); see `Retry-After`.", body = Problem, content_type = "application/problem+json"),
        BodyErrors,
        ServerErrors,
    )
)]
#[post("/auth/token")]
pub async fn create_token(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: Json<TokenRequest>,
) -> Result<HttpResponse, ApiError> {
    let TokenRequest { email, password } = body.0;
    let failures = sign_in_failures(&email, &client_address(&state, &req));
    let failures = [failures[0].as_str(), failures[1].as_str()];
    state
        .limiter
        .peek(&failures)
        .map_err(|retry_after_s| ApiError::RateLimited { retry_after_s })?;
    let found =
        crate::db::run(&state.pool, move |conn| accounts::credentials(conn, &email)).await?;
    let checked = web::block(move || accounts::check_password(found, &password))
        .await
        .map_err(ApiError::internal)?;
    if checked.is_err() {
        state.limiter.hit(&failures);
    }
    let issued = state.jwt.issue(checked?).map_err(ApiError::internal)?;
    Ok(HttpResponse::Ok().json(TokenResponse {
        access_token: issued.token,
        token_type: "Bearer".to_owned(),
        expires_in: issued.expires_in,
    }))
}

/// The limiter keys a wrong password counts against: the address it came from, and that
/// address's tries at this account. Never the account alone, so that someone guessing from
/// elsewhere cannot lock its owner out; a failure is counted once it has happened.
fn sign_in_failures(email: &str, client: &str) -> [String; 2] {
    [
        format!("sign-in-failed:client:{client}"),
        format!("sign-in-failed:{}:{client}", email.trim().to_lowercase()),
    ]
}

/// Request a sign-in link
///
/// Mails a one-time sign-in link when an account with this address exists. The answer is the
/// same either way, so it does not reveal whether an account exists.
#[utoipa::path(
    operation_id = "create_email_link",
    tag = "auth",
    request_body = EmailLinkRequest,
    responses(
        (status = 202, description = "Accepted: a link is mailed if the account exists."),
        (status = 429, description = "Too many link requests for this address or client (`rate_limited`); see `Retry-After`.", body = Problem, content_type = "application/problem+json"),
        BodyErrors,
    )
)]
#[post("/auth/email-link")]
pub async fn create_email_link(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: Json<EmailLinkRequest>,
) -> Result<HttpResponse, ApiError> {
    // A malformed address is refused before anything is written (the answer for a well-formed
    // one is the same whether or not it has an account).
    let email = EmailAddress::parse(&body.0.email)
        .map_err(|e| ApiError::Validation(e.0))?
        .as_str()
        .to_owned();
    rate_limit(&state, &req, "email-link", &email)?;
    // The link row and its mail job are written in one transaction; the answer is the same
    // whether or not an account has this address.
    crate::db::run(&state.pool, move |conn| {
        crate::services::notifications::request_sign_in_link(conn, &email)
    })
    .await?;
    Ok(HttpResponse::Accepted().finish())
}

/// Get my account
///
/// The account of the caller. Needs the `read` scope.
#[utoipa::path(
    operation_id = "get_me",
    tag = "accounts",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller's account.", body = AccountResponse),
        AuthErrors,
        ServerErrors,
    )
)]
#[get("/me")]
pub async fn get_me(state: web::Data<AppState>, auth: AuthUser) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Read)?;
    let account =
        crate::db::run(&state.pool, move |conn| accounts::get(conn, auth.user_id)).await?;
    Ok(HttpResponse::Ok().json(AccountResponse::from(account)))
}

/// What `PUT /me` changes; fields left out stay as they are.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"time_zone": "Europe/Madrid", "locale": "es"}))]
pub struct UpdateMeRequest {
    pub locale: Option<Locale>,
    /// An IANA time zone name.
    pub time_zone: Option<String>,
}

/// Change my account
///
/// The language of mails and pages and the time zone deadlines are shown in. Needs the `play`
/// scope.
#[utoipa::path(
    operation_id = "update_me",
    tag = "accounts",
    security(("bearer" = [])),
    request_body = UpdateMeRequest,
    responses(
        (status = 200, description = "The caller's account.", body = AccountResponse),
        AuthErrors,
        BodyErrors,
        ServerErrors,
    )
)]
#[put("/me")]
pub async fn update_me(
    state: web::Data<AppState>,
    auth: AuthUser,
    body: Json<UpdateMeRequest>,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Play)?;
    let UpdateMeRequest { locale, time_zone } = body.0;
    let account = crate::db::run(&state.pool, move |conn| {
        accounts::update(conn, auth.user_id, locale, time_zone.as_deref())
    })
    .await?;
    Ok(HttpResponse::Ok().json(AccountResponse::from(account)))
}

/// Create a personal access token
///
/// A long-lived token for scripts and third-party clients, limited to the given scopes. Needs an
/// access token from signing in (a personal access token cannot create tokens). The secret is in
/// this answer only. No `Idempotency-Key`: a replayed answer would have to be stored, and the
/// secret is stored nowhere but in this answer (only its hash is kept); a client that lost the
/// answer lists its tokens and revokes the one it cannot use.
#[utoipa::path(
    operation_id = "create_personal_token",
    tag = "accounts",
    security(("bearer" = [])),
    request_body = CreateTokenRequest,
    responses(
        (status = 201, description = "The token; its secret is shown only now.", body = CreatedTokenResponse),
        AuthErrors,
        BodyErrors,
        ServerErrors,
    )
)]
#[post("/me/tokens")]
pub async fn create_personal_token(
    state: web::Data<AppState>,
    auth: AuthUser,
    body: Json<CreateTokenRequest>,
) -> Result<HttpResponse, ApiError> {
    auth.require_session()?;
    let (name, scopes) = body.0.checked()?;
    let secret = crate::auth::new_personal_token();
    let shown = secret.clone();
    let info = crate::db::run(&state.pool, move |conn| {
        tokens::create(conn, auth.user_id, &name, scopes, &secret)
    })
    .await?;
    Ok(HttpResponse::Created().json(CreatedTokenResponse {
        id: info.id.0,
        name: info.name,
        scopes: info.scopes,
        created_at: info.created_at,
        token: shown,
    }))
}

impl CreateTokenRequest {
    /// The trimmed name and the scopes, or what is wrong with them.
    fn checked(self) -> Result<(String, ScopeSet), ApiError> {
        // One line a person reads in a list: the same rules as any other name.
        let name = crate::domain::one_line_text("name", &self.name, 100)
            .map_err(|e| ApiError::Validation(e.0))?;
        if self.scopes.is_empty() {
            return Err(ApiError::Validation(
                "scopes must name at least one scope".to_owned(),
            ));
        }
        Ok((name, self.scopes.into_iter().collect()))
    }
}

/// List my personal access tokens
///
/// The caller's tokens that are not revoked, newest first, without their secrets. Needs the
/// `read` scope.
#[utoipa::path(
    operation_id = "list_personal_tokens",
    tag = "accounts",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller's tokens.", body = Vec<PersonalTokenResponse>),
        AuthErrors,
        ServerErrors,
    )
)]
#[get("/me/tokens")]
pub async fn list_personal_tokens(
    state: web::Data<AppState>,
    auth: AuthUser,
) -> Result<HttpResponse, ApiError> {
    auth.require(Scope::Read)?;
    let list = crate::db::run(&state.pool, move |conn| tokens::list(conn, auth.user_id)).await?;
    let body: Vec<PersonalTokenResponse> = list.into_iter().map(Into::into).collect();
    Ok(HttpResponse::Ok().json(body))
}

/// Revoke a personal access token
///
/// The token stops working at once. Needs an access token from signing in.
#[utoipa::path(
    operation_id = "delete_personal_token",
    tag = "accounts",
    security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The token's id.")),
    responses(
        (status = 204, description = "The token is revoked."),
        (status = 404, description = "The caller has no such token (`not_found`).", body = Problem, content_type = "application/problem+json"),
        AuthErrors,
        ServerErrors,
    )
)]
#[delete("/me/tokens/{id}")]
pub async fn delete_personal_token(
    state: web::Data<AppState>,
    auth: AuthUser,
    id: web::Path<Uuid>,
) -> Result<HttpResponse, ApiError> {
    auth.require_session()?;
    let token = TokenId(id.into_inner());
    crate::db::run(&state.pool, move |conn| {
        tokens::revoke(conn, auth.user_id, token)
    })
    .await?;
    Ok(HttpResponse::NoContent().finish())
}
