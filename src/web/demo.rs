//! `herald demo`: two demo accounts (kept between runs), a fresh game between them (the first kind two can play: today Magnate), and
//! one single-use sign-in link per seat that lands on the game page, so a newcomer can play both
//! sides a minute after cloning.

use super::session::new_sign_in_link;
use crate::auth::links::LinkKeys;
use crate::domain::{DisplayName, EmailAddress, GameId, Locale, UserId};
use crate::engine::registry::GameKind;
use crate::error::ApiError;
use crate::schema::users;
use crate::services::games::{self, NewGameRequest, Submitted};
use diesel::prelude::*;

/// The demo players: address and display name.
pub const PLAYERS: [(&str, &str); 2] = [
    ("ada.demo@herald.invalid", "Ada (demo)"),
    ("bruno.demo@herald.invalid", "Bruno (demo)"),
];

/// How long the printed links work.
pub const LINK_TTL_S: i64 = 24 * 3600;

/// What the demo made.
#[derive(Debug, Clone)]
pub struct Demo {
    pub game: GameId,
    /// Per seat: the display name and the sign-in link (a path under the public URL).
    pub seats: Vec<(String, String)>,
}

fn account(conn: &mut PgConnection, email: &str, name: &str) -> Result<UserId, ApiError> {
    let found: Option<uuid::Uuid> = users::table
        .filter(users::email.eq(email))
        .select(users::id)
        .first(conn)
        .optional()?;
    if let Some(id) = found {
        return Ok(UserId(id));
    }
    let email = EmailAddress::parse(email).map_err(|e| ApiError::Validation(e.0))?;
    let name = DisplayName::parse(name).map_err(|e| ApiError::Validation(e.0))?;
    // Demo accounts sign in by link only: their password is random and never shown.
    let secret = hex::encode(crate::auth::random_bytes::<24>());
    let hash = crate::auth::password::hash(&secret).map_err(ApiError::internal)?;
    let account =
        crate::services::accounts::register(conn, &email, &name, Locale::En, Some(&hash))?;
    Ok(account.id)
}

/// Creates (or reuses) the demo accounts, starts a game between them (the first kind two can play) and records one
/// sign-in link per seat.
///
/// # Errors
/// Database failures.
pub fn create(conn: &mut PgConnection, links: &LinkKeys) -> Result<Demo, ApiError> {
    let ada = account(conn, PLAYERS[0].0, PLAYERS[0].1)?;
    let bruno = account(conn, PLAYERS[1].0, PLAYERS[1].1)?;
    let invite = EmailAddress::parse(PLAYERS[1].0).map_err(|e| ApiError::Validation(e.0))?;
    let created = games::create(
        conn,
        ada,
        NewGameRequest {
            invite_players: Vec::new(),
            kind: GameKind::first_for_two()
                .ok_or_else(|| ApiError::internal(anyhow::anyhow!("no game for two")))?,
            options: serde_json::Value::Null,
            invite: vec![invite],
            open_seats: 0,
            clock: crate::services::clocks::Clock::default(),
            rated: false,
            spectator_chat: false,
        },
        None,
    )?;
    let Submitted::Fresh(game) = created else {
        return Err(ApiError::internal(anyhow::anyhow!("no fresh game")));
    };
    let game = GameId(game.id);
    games::join(conn, bruno, game, None)?;
    let mut seats = Vec::new();
    for ((email, name), user) in PLAYERS.iter().zip([ada, bruno]) {
        let token = new_sign_in_link(conn, links, user, email, LINK_TTL_S)?;
        seats.push((
            (*name).to_owned(),
            format!("/sign-in/{token}?next=/play/{game}"),
        ));
    }
    tracing::info!(game.id = %game, "demo game created");
    Ok(Demo { game, seats })
}
