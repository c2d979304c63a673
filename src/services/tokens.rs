//! Personal access tokens: created with a secret shown once, listed, revoked.

use crate::auth::{Scope, ScopeSet};
use crate::domain::{TokenId, UserId};
use crate::error::ApiError;
use crate::models::{ApiToken, NewApiToken};
use crate::schema::api_tokens;
use chrono::{DateTime, Utc};
use diesel::prelude::*;

/// A token as its owner sees it (never its secret, except once at creation).
#[derive(Debug, Clone)]
pub struct TokenInfo {
    pub id: TokenId,
    pub name: String,
    pub scopes: Vec<Scope>,
    pub created_at: DateTime<Utc>,
}

fn scopes_of(row: &[Option<String>]) -> ScopeSet {
    row.iter()
        .flatten()
        .filter_map(|s| Scope::parse(s))
        .collect()
}

impl From<ApiToken> for TokenInfo {
    fn from(row: ApiToken) -> TokenInfo {
        TokenInfo {
            id: TokenId(row.id),
            scopes: scopes_of(&row.scopes).to_vec(),
            name: row.name,
            created_at: row.created_at,
        }
    }
}

/// Stores a new token for `user` under the hash of `secret`.
///
/// # Errors
/// Database failures only.
pub fn create(
    conn: &mut PgConnection,
    user: UserId,
    name: &str,
    scopes: ScopeSet,
    secret: &str,
) -> Result<TokenInfo, ApiError> {
    let hash = crate::auth::token_hash(secret);
    let row = diesel::insert_into(api_tokens::table)
        .values(NewApiToken {
            id: TokenId::new().0,
            user_id: user.0,
            name,
            token_hash: &hash,
            scopes: scopes
                .to_vec()
                .into_iter()
                .map(|s| Some(s.as_str().to_owned()))
                .collect(),
        })
        .returning(ApiToken::as_returning())
        .get_result(conn)?;
    tracing::info!(user.id = %user, token.id = %row.id, "personal access token created");
    Ok(row.into())
}

/// The user's tokens that are not revoked, newest first.
///
/// # Errors
/// Database failures only.
pub fn list(conn: &mut PgConnection, user: UserId) -> Result<Vec<TokenInfo>, ApiError> {
    let rows = api_tokens::table
        .filter(api_tokens::user_id.eq(user.0))
        .filter(api_tokens::revoked_at.is_null())
        .order((api_tokens::created_at.desc(), api_tokens::id))
        .select(ApiToken::as_select())
        .load(conn)?;
    Ok(rows.into_iter().map(TokenInfo::from).collect())
}

/// Revokes one of the user's tokens.
///
/// # Errors
/// 404 when the user has no such (unrevoked) token.
pub fn revoke(conn: &mut PgConnection, user: UserId, token: TokenId) -> Result<(), ApiError> {
    let changed = diesel::update(
        api_tokens::table
            .filter(api_tokens::id.eq(token.0))
            .filter(api_tokens::user_id.eq(user.0))
            .filter(api_tokens::revoked_at.is_null()),
    )
    .set(api_tokens::revoked_at.eq(diesel::dsl::now))
    .execute(conn)?;
    if changed == 0 {
        return Err(ApiError::NotFound(format!("you have no token {token}")));
    }
    tracing::info!(user.id = %user, token.id = %token, "personal access token revoked");
    Ok(())
}

/// The token id, owner and scopes of an unrevoked token with this hash.
///
/// # Errors
/// Database failures only.
pub fn find_active(
    conn: &mut PgConnection,
    hash: &[u8],
) -> Result<Option<(TokenId, UserId, ScopeSet)>, ApiError> {
    let row: Option<(uuid::Uuid, uuid::Uuid, Vec<Option<String>>)> = api_tokens::table
        .filter(api_tokens::token_hash.eq(hash))
        .filter(api_tokens::revoked_at.is_null())
        .select((api_tokens::id, api_tokens::user_id, api_tokens::scopes))
        .first(conn)
        .optional()?;
    Ok(row.map(|(id, user, scopes)| (TokenId(id), UserId(user), scopes_of(&scopes))))
}

/// Whether personal token `id` is still in force (not revoked): a long-lived connection made
/// with it (an event stream) ends when it is revoked.
///
/// # Errors
/// Database failures.
pub fn in_force(conn: &mut PgConnection, id: TokenId) -> Result<bool, ApiError> {
    let found: Option<uuid::Uuid> = api_tokens::table
        .find(id.0)
        .filter(api_tokens::revoked_at.is_null())
        .select(api_tokens::id)
        .first(conn)
        .optional()?;
    Ok(found.is_some())
}
