//! Retry-safe `POST`s: the first request with an `Idempotency-Key` claims the key in its
//! transaction; a retry with the same key and body gets the stored answer, a retry with another
//! body a 409. A failed request rolls back its claim, so it can be retried.

use crate::domain::UserId;
use crate::error::ApiError;
use crate::schema::idempotency_keys;
use diesel::prelude::*;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// A validated `Idempotency-Key` and the hash of the request it came with.
#[derive(Debug, Clone)]
pub struct IdempotencyKey {
    pub key: String,
    pub request_hash: Vec<u8>,
}

impl IdempotencyKey {
    /// # Errors
    /// 422 when the key is empty, longer than 255 characters, or not visible ASCII.
    pub fn new(key: &str, request: &Value) -> Result<IdempotencyKey, ApiError> {
        if key.is_empty() || key.len() > 255 || !key.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(ApiError::Validation(
                "Idempotency-Key must be 1 to 255 visible ASCII characters".to_owned(),
            ));
        }
        let canonical = serde_json::to_vec(request).unwrap_or_default();
        Ok(IdempotencyKey {
            key: key.to_owned(),
            request_hash: Sha256::digest(&canonical).to_vec(),
        })
    }
}

/// A stored answer.
#[derive(Debug, Clone)]
pub struct StoredAnswer {
    pub status: u16,
    pub body: Value,
}

/// Claims `key` for this transaction, or returns the answer stored by the request that claimed
/// it first (waiting for that request's transaction to end, if it is still running).
///
/// # Errors
/// 409 `conflict` when the key was used with a different request.
pub fn claim(
    conn: &mut PgConnection,
    user: UserId,
    key: &IdempotencyKey,
) -> Result<Option<StoredAnswer>, ApiError> {
    let inserted = diesel::insert_into(idempotency_keys::table)
        .values((
            idempotency_keys::user_id.eq(user.0),
            idempotency_keys::key.eq(&key.key),
            idempotency_keys::request_hash.eq(&key.request_hash),
            idempotency_keys::status.eq(0i16),
            idempotency_keys::body.eq(Value::Null),
        ))
        .on_conflict_do_nothing()
        .execute(conn)?;
    if inserted == 1 {
        return Ok(None);
    }
    let (hash, status, body): (Vec<u8>, i16, Value) = idempotency_keys::table
        .find((user.0, &key.key))
        .select((
            idempotency_keys::request_hash,
            idempotency_keys::status,
            idempotency_keys::body,
        ))
        .first(conn)?;
    if hash != key.request_hash {
        return Err(ApiError::Conflict(
            "this Idempotency-Key was already used for a different request".to_owned(),
        ));
    }
    Ok(Some(StoredAnswer {
        status: u16::try_from(status).unwrap_or(200),
        body,
    }))
}

/// The answer stored under `key` of `user` when that key came with the same request; `None`
/// when the key is unused, was used for another request, or its request has not finished. For a
/// caller that cannot claim a key before the work (`POST /accounts`: the account it is scoped to
/// does not exist yet), so it never waits or refuses.
///
/// # Errors
/// Database failures only.
pub fn stored(
    conn: &mut PgConnection,
    user: UserId,
    key: &IdempotencyKey,
) -> Result<Option<StoredAnswer>, ApiError> {
    let row: Option<(Vec<u8>, i16, Value)> = idempotency_keys::table
        .find((user.0, &key.key))
        .select((
            idempotency_keys::request_hash,
            idempotency_keys::status,
            idempotency_keys::body,
        ))
        .first(conn)
        .optional()?;
    Ok(row
        .filter(|(hash, status, _)| *hash == key.request_hash && *status != 0)
        .map(|(_, status, body)| StoredAnswer {
            status: u16::try_from(status).unwrap_or(200),
            body,
        }))
}

/// Stores the answer of the request that claimed `key`.
///
/// # Errors
/// Database failures only.
pub fn store(
    conn: &mut PgConnection,
    user: UserId,
    key: &IdempotencyKey,
    status: u16,
    body: &Value,
) -> Result<(), ApiError> {
    diesel::update(idempotency_keys::table.find((user.0, &key.key)))
        .set((
            idempotency_keys::status.eq(i16::try_from(status).unwrap_or(200)),
            idempotency_keys::body.eq(body),
        ))
        .execute(conn)?;
    Ok(())
}

/// The answer of a retry-safe request: fresh, or the one stored under its key.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: u16,
    pub body: Value,
}

/// Runs `make` in a transaction at most once per `key` of `user`: the first request stores its
/// answer (`status` and the serialised value); a retry gets that answer back without running
/// `make`. Without a key, `make` simply runs.
///
/// # Errors
/// `make`'s errors (the claim is then rolled back, so the key can be retried); 409 when the key
/// was used for another request.
pub fn once<T: serde::Serialize>(
    conn: &mut PgConnection,
    user: UserId,
    key: Option<&IdempotencyKey>,
    status: u16,
    make: impl FnOnce(&mut PgConnection) -> Result<T, ApiError>,
) -> Result<Answer, ApiError> {
    conn.transaction(|conn| {
        if let Some(key) = key
            && let Some(stored) = claim(conn, user, key)?
        {
            return Ok(Answer {
                status: stored.status,
                body: stored.body,
            });
        }
        let body = serde_json::to_value(make(conn)?).map_err(ApiError::internal)?;
        if let Some(key) = key {
            store(conn, user, key, status, &body)?;
        }
        Ok(Answer { status, body })
    })
}
