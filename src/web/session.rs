//! Who is looking at a page: the play-session cookie of one game (set by a "your move" link), or
//! the account cookie (set by a sign-in link). Also the cookies themselves and the CSRF token of
//! the action forms, a keyed hash of the session that a page from another site cannot know.

use crate::auth::links::{PlayGrant, USER_COOKIE, play_cookie_name};
use crate::domain::{GameId, UserId};
use crate::schema::{email_links, web_sessions};
use crate::state::AppState;
use actix_web::HttpRequest;
use actix_web::cookie::{Cookie, SameSite};
use chrono::Utc;
use diesel::prelude::*;
use sha2::{Digest, Sha256};
use uuid::Uuid;

/// How long a play session and an account session last in the browser.
pub const PLAY_SESSION_TTL_S: i64 = 30 * 24 * 3600;
pub const USER_SESSION_TTL_S: i64 = 30 * 24 * 3600;
/// How long an emailed sign-in link stays valid.
pub const SIGN_IN_LINK_TTL_S: i64 = 3600;

/// Who acts on a game page.
#[derive(Debug, Clone)]
pub enum Viewer {
    /// A play session (from a link) or a signed-in account.
    User {
        user: UserId,
        /// The session cookie's value, the key of the CSRF token.
        session: String,
        /// The seat of the play link; `None` for an account session.
        seat: Option<i16>,
    },
    Anonymous,
}

impl Viewer {
    pub fn user(&self) -> Option<UserId> {
        match self {
            Viewer::User { user, .. } => Some(*user),
            Viewer::Anonymous => None,
        }
    }
}

/// The signed-in account of the account cookie, if any.
pub fn account(state: &AppState, req: &HttpRequest) -> Option<(UserId, String)> {
    let cookie = req.cookie(USER_COOKIE)?;
    let token = cookie.value().to_owned();
    state.links.verify_user_session(&token).map(|u| (u, token))
}

/// The viewer of game `game`: its play session first, then the account session.
pub fn viewer(state: &AppState, req: &HttpRequest, game: GameId) -> Viewer {
    if let Some(cookie) = req.cookie(&play_cookie_name(game))
        && let Some(grant) = state.links.verify_play_session(cookie.value(), game)
    {
        return Viewer::User {
            user: grant.user,
            session: cookie.value().to_owned(),
            seat: Some(grant.seat),
        };
    }
    match account(state, req) {
        Some((user, session)) => Viewer::User {
            user,
            session,
            seat: None,
        },
        None => Viewer::Anonymous,
    }
}

/// `viewer` with an ended account session (signed out, perhaps everywhere) read as no one, so a
/// copy of the cookie cannot act after its owner signed out. A database failure reads as no one
/// too: the page then asks to sign in rather than acting on an unchecked session.
pub async fn live(state: &AppState, viewer: Viewer) -> Viewer {
    let Viewer::User {
        session,
        seat: None,
        ..
    } = &viewer
    else {
        return viewer;
    };
    let st = state.clone();
    let token = session.clone();
    let live = crate::db::run(&state.pool, move |conn| is_live(conn, &st, &token)).await;
    match live {
        Ok(true) => viewer,
        _ => Viewer::Anonymous,
    }
}

fn secure(state: &AppState) -> bool {
    state.settings.http.public_url.starts_with("https://")
}

/// The play-session cookie for `grant`, scoped to its game's pages.
pub fn play_cookie(state: &AppState, grant: PlayGrant) -> Cookie<'static> {
    Cookie::build(
        play_cookie_name(grant.game),
        state.links.play_session(grant, PLAY_SESSION_TTL_S),
    )
    .path(format!("/play/{}", grant.game))
    .http_only(true)
    .same_site(SameSite::Lax)
    .secure(secure(state))
    .max_age(actix_web::cookie::time::Duration::seconds(
        PLAY_SESSION_TTL_S,
    ))
    .finish()
}

/// The account cookie for `user`.
pub fn user_cookie(state: &AppState, user: UserId, session: Uuid) -> Cookie<'static> {
    Cookie::build(
        USER_COOKIE,
        state
            .links
            .user_session_in(user, session, USER_SESSION_TTL_S),
    )
    .path("/")
    .http_only(true)
    .same_site(SameSite::Lax)
    .secure(secure(state))
    .max_age(actix_web::cookie::time::Duration::seconds(
        USER_SESSION_TTL_S,
    ))
    .finish()
}

/// An expired account cookie (signing out).
pub fn user_cookie_removal(state: &AppState) -> Cookie<'static> {
    let mut c = Cookie::build(USER_COOKIE, "")
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure(state))
        .finish();
    c.make_removal();
    c
}

/// The cookie that ties a sign-in link's button to the browser that opened the link.
pub const LINK_COOKIE: &str = "herald_link";
/// How long an opened link's button stays pressable in that browser.
const LINK_COOKIE_TTL_S: i64 = 3600;

/// A keyed hash of a sign-in link's token: what its opening browser holds.
fn link_mark(state: &AppState, token: &str) -> String {
    let mut h = Sha256::new();
    h.update(&state.settings.auth.jwt_secret);
    h.update(b"\0herald-link-opened\0");
    h.update(token.as_bytes());
    hex::encode(&h.finalize()[..16])
}

/// Set when a sign-in link's page is opened (GET), asked for when its button is pressed (POST).
/// Login CSRF: another site could post a link of its own account from the reader's browser and
/// sign them in as that account; its cross-site POST carries no such cookie (SameSite=Lax), and it
/// cannot press the button of our page for them (frames are refused). The cookie signs nobody in.
pub fn link_cookie(state: &AppState, token: &str) -> Cookie<'static> {
    Cookie::build(LINK_COOKIE, link_mark(state, token))
        .path("/sign-in/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure(state))
        .max_age(actix_web::cookie::time::Duration::seconds(
            LINK_COOKIE_TTL_S,
        ))
        .finish()
}

/// Whether the request comes from a browser that opened the sign-in link of `token`.
pub fn link_opened_here(state: &AppState, req: &HttpRequest, token: &str) -> bool {
    let expected = link_mark(state, token);
    req.cookie(LINK_COOKIE).is_some_and(|c| {
        c.value().len() == expected.len()
            && c.value()
                .bytes()
                .zip(expected.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0
    })
}

/// The CSRF token of a session: a keyed hash, so it changes with the session and cannot be
/// guessed from outside.
pub fn csrf_token(state: &AppState, session: &str) -> String {
    let mut h = Sha256::new();
    h.update(&state.settings.auth.jwt_secret);
    h.update(b"\0herald-csrf\0");
    h.update(session.as_bytes());
    hex::encode(&h.finalize()[..16])
}

/// Whether `token` is the CSRF token of `session` (compared in constant time).
pub fn csrf_ok(state: &AppState, session: &str, token: &str) -> bool {
    let expected = csrf_token(state, session);
    expected.len() == token.len()
        && expected
            .bytes()
            .zip(token.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// Records a single-use sign-in link for `user` and returns its token (for the `/sign-in/{token}`
/// landing). Used by `herald demo`; emailed links are recorded the same way.
///
/// # Errors
/// Database failures.
pub fn new_sign_in_link(
    conn: &mut PgConnection,
    state_links: &crate::auth::links::LinkKeys,
    user: UserId,
    email: &str,
    ttl_s: i64,
) -> QueryResult<String> {
    let id = Uuid::new_v4();
    let token = state_links.sign_in_link(user, id, ttl_s);
    diesel::insert_into(email_links::table)
        .values((
            email_links::id.eq(id),
            email_links::token_hash.eq(crate::auth::token_hash(&token)),
            email_links::user_id.eq(Some(user.0)),
            email_links::email.eq(email),
            email_links::purpose.eq("sign_in"),
            email_links::expires_at.eq(Utc::now() + chrono::Duration::seconds(ttl_s)),
        ))
        .execute(conn)?;
    Ok(token)
}

/// Starts a server-side session for `user` (the account cookie names it).
///
/// # Errors
/// Database failures.
pub fn start(conn: &mut PgConnection, user: UserId) -> QueryResult<Uuid> {
    let id = Uuid::new_v4();
    diesel::insert_into(web_sessions::table)
        .values((web_sessions::id.eq(id), web_sessions::user_id.eq(user.0)))
        .execute(conn)?;
    Ok(id)
}

/// Whether the account cookie `token` names a session that has not ended.
///
/// # Errors
/// Database failures.
pub fn is_live(conn: &mut PgConnection, state: &AppState, token: &str) -> QueryResult<bool> {
    let Some(id) = state.links.user_session_id(token) else {
        return Ok(false);
    };
    let live: Option<Uuid> = web_sessions::table
        .find(id)
        .filter(web_sessions::ended_at.is_null())
        .select(web_sessions::id)
        .first(conn)
        .optional()?;
    Ok(live.is_some())
}

/// Ends the session of the cookie `token`, or every session of its account.
///
/// # Errors
/// Database failures.
pub fn end(
    conn: &mut PgConnection,
    state: &AppState,
    token: &str,
    everywhere: bool,
) -> QueryResult<usize> {
    let now = Some(Utc::now());
    let open = web_sessions::ended_at.is_null();
    if everywhere {
        let Some(user) = state.links.verify_user_session(token) else {
            return Ok(0);
        };
        return diesel::update(
            web_sessions::table
                .filter(web_sessions::user_id.eq(user.0))
                .filter(open),
        )
        .set(web_sessions::ended_at.eq(now))
        .execute(conn);
    }
    let Some(id) = state.links.user_session_id(token) else {
        return Ok(0);
    };
    diesel::update(web_sessions::table.find(id).filter(open))
        .set(web_sessions::ended_at.eq(now))
        .execute(conn)
}

/// Whether the sign-in link row `link` of `user` can still be used (not used, not expired).
///
/// # Errors
/// Database failures.
pub fn sign_in_link_usable(conn: &mut PgConnection, user: UserId, link: Uuid) -> QueryResult<bool> {
    let found: Option<Uuid> = email_links::table
        .filter(email_links::id.eq(link))
        .filter(email_links::user_id.eq(user.0))
        .filter(email_links::used_at.is_null())
        .filter(email_links::expires_at.gt(Utc::now()))
        .select(email_links::id)
        .first(conn)
        .optional()?;
    Ok(found.is_some())
}

/// Marks the sign-in link row `link` used; false when it was already used, expired or unknown.
///
/// # Errors
/// Database failures.
pub fn use_sign_in_link(conn: &mut PgConnection, user: UserId, link: Uuid) -> QueryResult<bool> {
    let now = Utc::now();
    let n = diesel::update(
        email_links::table
            .filter(email_links::id.eq(link))
            .filter(email_links::user_id.eq(user.0))
            .filter(email_links::used_at.is_null())
            .filter(email_links::expires_at.gt(now)),
    )
    .set(email_links::used_at.eq(Some(now)))
    .execute(conn)?;
    if n == 1 {
        crate::services::accounts::address_works(conn, user)?;
    }
    Ok(n == 1)
}

/// Spends the sign-in link `link` of `user` and starts a session, in one transaction: the new
/// session's id, or `None` when the link was already spent or has expired.
///
/// # Errors
/// Database failures.
pub fn sign_in_by_link(
    conn: &mut PgConnection,
    user: UserId,
    link: Uuid,
) -> QueryResult<Option<Uuid>> {
    use diesel::Connection;
    conn.transaction(|conn| {
        if !use_sign_in_link(conn, user, link)? {
            return Ok(None);
        }
        start(conn, user).map(Some)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Settings;

    fn state(public_url: &str) -> AppState {
        let mut settings = Settings::for_tests(
            "postgres://nobody@127.0.0.1:1/none".to_owned(),
            std::env::temp_dir(),
        );
        settings.http.public_url = public_url.to_owned();
        let pool = crate::db::pool("postgres://nobody@127.0.0.1:1/none", 1).expect("a lazy pool");
        AppState::new(
            settings,
            pool,
            std::sync::Arc::new(crate::metrics::Metrics::new().unwrap()),
        )
    }

    #[test]
    fn session_cookies_are_http_only_lax_and_secure_exactly_behind_https() {
        let grant = PlayGrant {
            user: UserId::new(),
            game: GameId::new(),
            seat: 1,
        };
        for (url, secure) in [
            ("https://herald.example", true),
            ("http://127.0.0.1:8080", false),
        ] {
            let s = state(url);
            let c = play_cookie(&s, grant);
            assert_eq!(c.http_only(), Some(true));
            assert_eq!(c.same_site(), Some(SameSite::Lax));
            assert_eq!(c.secure(), Some(secure), "{url}");
            assert_eq!(c.path(), Some(format!("/play/{}", grant.game).as_str()));
            assert_eq!(
                s.links.verify_play_session(c.value(), grant.game),
                Some(grant)
            );
            let u = user_cookie(&s, grant.user, Uuid::new_v4());
            assert_eq!(u.secure(), Some(secure));
            assert_eq!(u.http_only(), Some(true));
        }
    }

    #[test]
    fn a_csrf_token_belongs_to_its_session() {
        let s = state("http://127.0.0.1");
        let token = csrf_token(&s, "session-a");
        assert!(csrf_ok(&s, "session-a", &token));
        assert!(!csrf_ok(&s, "session-b", &token));
        assert!(!csrf_ok(&s, "session-a", ""));
    }
}
