//! The [`AuthUser`] extractor: a handler that takes one answers 401 to anonymous callers.

use super::{PERSONAL_TOKEN_PREFIX, Scope, ScopeSet};
use crate::domain::{TokenId, UserId};
use crate::error::ApiError;
use crate::state::AppState;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, dev::Payload, web};
use futures_util::future::LocalBoxFuture;

/// How the caller proved who they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Credential {
    /// A JWT from signing in: every scope, until `expires` (seconds since the epoch).
    AccessToken { expires: i64 },
    /// A personal access token with its own scopes.
    PersonalToken(TokenId),
}

/// The authenticated caller.
#[derive(Debug, Clone)]
pub struct AuthUser {
    pub user_id: UserId,
    pub scopes: ScopeSet,
    pub credential: Credential,
}

impl AuthUser {
    /// # Errors
    /// 403 `forbidden` when the caller's token lacks `scope`.
    pub fn require(&self, scope: Scope) -> Result<(), ApiError> {
        if self.scopes.contains(scope) {
            Ok(())
        } else {
            Err(ApiError::Forbidden(format!(
                "this token lacks the `{}` scope",
                scope.as_str()
            )))
        }
    }

    /// # Errors
    /// 403 `forbidden` for a personal access token: managing tokens needs a signed-in session,
    /// so a leaked token cannot mint more tokens.
    pub fn require_session(&self) -> Result<(), ApiError> {
        match self.credential {
            Credential::AccessToken { .. } => Ok(()),
            Credential::PersonalToken(_) => Err(ApiError::Forbidden(
                "personal access tokens cannot manage tokens: use an access token from POST /api/v1/auth/token".to_owned(),
            )),
        }
    }
}

fn bearer(req: &HttpRequest) -> Result<String, ApiError> {
    let missing = || {
        ApiError::Unauthenticated(
            "this request needs an `Authorization: Bearer <token>` header".to_owned(),
        )
    };
    let value = req
        .headers()
        .get(header::AUTHORIZATION)
        .ok_or_else(missing)?;
    let value = value.to_str().map_err(|_| missing())?;
    let (scheme, token) = value.trim().split_once(' ').ok_or_else(missing)?;
    if !scheme.eq_ignore_ascii_case("bearer") || token.trim().is_empty() {
        return Err(missing());
    }
    Ok(token.trim().to_owned())
}

impl FromRequest for AuthUser {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<AuthUser, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let token = bearer(req);
        let state = req.app_data::<web::Data<AppState>>().cloned();
        Box::pin(async move {
            let token = token?;
            let state = state.ok_or_else(|| ApiError::internal(anyhow::anyhow!("no app state")))?;
            let refused =
                || ApiError::Unauthenticated("the token is invalid, expired or revoked".to_owned());
            if token.starts_with(PERSONAL_TOKEN_PREFIX) {
                let hash = super::token_hash(&token);
                let found = crate::db::run(&state.pool, move |conn| {
                    crate::services::tokens::find_active(conn, &hash)
                })
                .await?;
                let (id, user_id, scopes) = found.ok_or_else(refused)?;
                within_limit(&state, user_id)?;
                Ok(AuthUser {
                    user_id,
                    scopes,
                    credential: Credential::PersonalToken(id),
                })
            } else {
                let (user_id, expires) = state.jwt.verify_until(&token).ok_or_else(refused)?;
                within_limit(&state, user_id)?;
                Ok(AuthUser {
                    user_id,
                    scopes: ScopeSet::ALL,
                    credential: Credential::AccessToken { expires },
                })
            }
        })
    }
}

/// Counts the call against the account's limit (`ACCOUNT_REQUESTS_PER_MINUTE`). It is checked
/// here, before any handler runs, so a refused call changes nothing.
///
/// # Errors
/// 429 `rate_limited` naming the limit, with the seconds to wait.
pub(crate) fn within_limit(state: &AppState, user: UserId) -> Result<(), ApiError> {
    state
        .accounts
        .check(user.0)
        .map_err(|retry_after_s| ApiError::AccountRateLimited {
            per_minute: state.accounts.per_minute(),
            retry_after_s,
        })
}

/// An optional caller: no `Authorization` header means anonymous, but a header with a bad token
/// is still a 401 (a client with an expired token should hear so, not be served as a stranger).
#[derive(Debug, Clone)]
pub struct MaybeAuthUser(pub Option<AuthUser>);

impl FromRequest for MaybeAuthUser {
    type Error = ApiError;
    type Future = LocalBoxFuture<'static, Result<MaybeAuthUser, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        if req.headers().get(header::AUTHORIZATION).is_none() {
            return Box::pin(async { Ok(MaybeAuthUser(None)) });
        }
        let inner = AuthUser::from_request(req, payload);
        Box::pin(async move { inner.await.map(|user| MaybeAuthUser(Some(user))) })
    }
}

impl MaybeAuthUser {
    /// The caller's id, after checking `scope` when there is a caller.
    ///
    /// # Errors
    /// 403 when the caller's token lacks `scope`.
    pub fn user_with(&self, scope: Scope) -> Result<Option<UserId>, ApiError> {
        match &self.0 {
            Some(user) => {
                user.require(scope)?;
                Ok(Some(user.user_id))
            }
            None => Ok(None),
        }
    }
}
