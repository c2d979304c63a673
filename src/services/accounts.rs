//! Registering accounts and checking passwords.

use crate::auth::password;
use crate::domain::{DisplayName, EmailAddress, Locale, UserId};
use crate::error::ApiError;
use crate::models::{NewUser, User};
use crate::schema::users;
use diesel::prelude::*;

/// An account as its owner sees it.
#[derive(Debug, Clone)]
pub struct Account {
    pub id: UserId,
    pub email: String,
    pub display_name: String,
    pub locale: Locale,
    /// An IANA zone name (`Europe/Madrid`): deadlines are shown in it.
    pub time_zone: String,
}

impl From<User> for Account {
    fn from(user: User) -> Account {
        Account {
            id: UserId(user.id),
            email: user.email,
            display_name: user.display_name,
            locale: Locale::from_db(&user.locale),
            time_zone: user.time_zone,
        }
    }
}

/// Creates an account; `password_hash` is already hashed (hashing happens outside the
/// transaction, it is slow on purpose); an account without one signs in by mailed links only.
///
/// # Errors
/// 409 `conflict` when the address is already registered.
pub fn register(
    conn: &mut PgConnection,
    email: &EmailAddress,
    display_name: &DisplayName,
    locale: Locale,
    password_hash: Option<&str>,
) -> Result<Account, ApiError> {
    let id = UserId::new();
    let inserted = diesel::insert_into(users::table)
        .values(NewUser {
            id: id.0,
            email: email.as_str(),
            display_name: display_name.as_str(),
            locale: locale.as_str(),
            password_hash,
        })
        .returning(User::as_returning())
        .get_result(conn);
    match inserted {
        Ok(user) => {
            tracing::info!(user.id = %id, "account registered");
            Ok(user.into())
        }
        Err(e) if super::is_unique_violation(&e) => Err(ApiError::Conflict(
            "an account with this e-mail address already exists".to_owned(),
        )),
        Err(e) => Err(e.into()),
    }
}

/// What is stored to check a password: the account and its hash, if the address is registered.
/// Looked up apart from [`check_password`] so no database connection is held while argon2 works.
///
/// # Errors
/// Database failures only.
pub fn credentials(
    conn: &mut PgConnection,
    email: &str,
) -> Result<Option<(UserId, Option<String>)>, ApiError> {
    let Ok(email) = EmailAddress::parse(email) else {
        return Ok(None);
    };
    let found: Option<(uuid::Uuid, Option<String>)> = users::table
        .filter(users::email.eq(email.as_str()))
        .select((users::id, users::password_hash))
        .first(conn)
        .optional()?;
    Ok(found.map(|(id, hash)| (UserId(id), hash)))
}

/// The account when `password` matches what [`credentials`] found.
///
/// # Errors
/// 401 `unauthenticated` with the same sentence (and about the same time) whether the account is
/// missing or the password wrong.
pub fn check_password(
    found: Option<(UserId, Option<String>)>,
    password: &str,
) -> Result<UserId, ApiError> {
    let refused = || ApiError::Unauthenticated("wrong e-mail address or password".to_owned());
    match found {
        Some((id, Some(stored))) if password::verify(password, &stored) => Ok(id),
        Some((_, Some(_))) => Err(refused()),
        _ => {
            password::verify_nothing(password);
            Err(refused())
        }
    }
}

/// Changes the caller's language and time zone (each only when given).
///
/// # Errors
/// 422 for a time zone that is not an IANA name; database failures.
pub fn update(
    conn: &mut PgConnection,
    id: UserId,
    locale: Option<Locale>,
    time_zone: Option<&str>,
) -> Result<Account, ApiError> {
    let zone = time_zone
        .map(crate::services::clocks::time_zone)
        .transpose()?;
    conn.transaction(|conn| {
        if let Some(locale) = locale {
            diesel::update(users::table.find(id.0))
                .set((
                    users::locale.eq(locale.as_str()),
                    users::updated_at.eq(chrono::Utc::now()),
                ))
                .execute(conn)?;
        }
        if let Some(zone) = zone {
            diesel::update(users::table.find(id.0))
                .set((
                    users::time_zone.eq(zone.name()),
                    users::updated_at.eq(chrono::Utc::now()),
                ))
                .execute(conn)?;
        }
        get(conn, id)
    })
}

/// The account of `id`.
///
/// # Errors
/// 401 when the account no longer exists (its token outlived it).
pub fn get(conn: &mut PgConnection, id: UserId) -> Result<Account, ApiError> {
    users::table
        .find(id.0)
        .select(User::as_select())
        .first(conn)
        .optional()?
        .map(Account::from)
        .ok_or_else(|| {
            ApiError::Unauthenticated("the account of this token no longer exists".to_owned())
        })
}

/// A player as anyone signed in may find them: an id and a display name, never an address.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct PlayerName {
    pub id: uuid::Uuid,
    pub display_name: String,
}

/// The most players one search answers.
pub const SEARCH_LIMIT: i64 = 20;

/// Players whose display name contains `text` (case-insensitive), shortest names first so an
/// exact match leads, then by name; at most [`SEARCH_LIMIT`].
///
/// # Errors
/// 422 for a search text under 2 or over 64 characters; database failures.
pub fn search(conn: &mut PgConnection, text: &str) -> Result<Vec<PlayerName>, ApiError> {
    use unicode_normalization::UnicodeNormalization;
    let text: String = text.trim().nfc().collect();
    let len = text.chars().count();
    if !(2..=64).contains(&len) || text.chars().any(char::is_control) {
        return Err(ApiError::Validation(
            "q: give 2 to 64 characters of a display name, without control characters".to_owned(),
        ));
    }
    // The text is a substring to find, not a pattern: its wildcards are escaped.
    let pattern = format!(
        "%{}%",
        text.replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_")
    );
    let rows: Vec<(uuid::Uuid, String)> = users::table
        .filter(users::display_name.ilike(pattern))
        .order((
            diesel::dsl::sql::<diesel::sql_types::Integer>("length(display_name)"),
            users::display_name,
        ))
        .select((users::id, users::display_name))
        .limit(SEARCH_LIMIT)
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(id, display_name)| PlayerName { id, display_name })
        .collect())
}

/// The one player called `name` (any case), for an invitation by display name.
///
/// # Errors
/// 422 naming the problem when nobody or several players have that name.
pub fn by_display_name(conn: &mut PgConnection, name: &str) -> Result<UserId, ApiError> {
    use unicode_normalization::UnicodeNormalization;
    let name: String = name.trim().nfc().collect();
    let found: Vec<uuid::Uuid> = users::table
        .filter(
            diesel::dsl::sql::<diesel::sql_types::Bool>("lower(display_name) = lower(")
                .bind::<diesel::sql_types::Text, _>(&name)
                .sql(")"),
        )
        .select(users::id)
        .limit(2)
        .load(conn)?;
    match found.as_slice() {
        [one] => Ok(UserId(*one)),
        [] => Err(ApiError::Validation(format!(
            "no player is called “{name}”; invite them by address"
        ))),
        _ => Err(ApiError::Validation(format!(
            "several players are called “{name}”; invite them by address"
        ))),
    }
}

/// Notes that mail reaches `user`'s address (a mailed link was used, a mail answered), once:
/// a competition may take only such accounts (design.md section 15).
///
/// # Errors
/// Database failures.
pub fn address_works(conn: &mut PgConnection, user: UserId) -> QueryResult<()> {
    diesel::update(
        users::table
            .find(user.0)
            .filter(users::address_works_since.is_null()),
    )
    .set(users::address_works_since.eq(Some(chrono::Utc::now())))
    .execute(conn)?;
    Ok(())
}

/// Whether mail has been seen to reach `user`'s address.
///
/// # Errors
/// Database failures.
pub fn address_is_known_to_work(conn: &mut PgConnection, user: UserId) -> QueryResult<bool> {
    let since: Option<Option<chrono::DateTime<chrono::Utc>>> = users::table
        .find(user.0)
        .select(users::address_works_since)
        .first(conn)
        .optional()?;
    Ok(since.flatten().is_some())
}
