//! Chat per game (design.md section 17): the players of a game talk, and spectators too when the
//! game's creator allowed it; each message is an event for the players (but its writer). Chat is
//! its own table and never enters the game's state, history, views or seed: it cannot leak a
//! hidden part because it never sees one.

use super::events::{EventKind, NewEvent, record};
use crate::domain::{GameId, UserId};
use crate::error::ApiError;
use crate::schema::{chat_mutes, game_chat, game_seats, games, users};
use crate::services::paging::{After, Paged};
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;
use uuid::Uuid;

/// The longest message, in characters.
pub const MAX_CHARS: usize = 500;
/// The seat a mute of the spectators is stored under (no player has it).
const SPECTATORS: i16 = -1;

/// Whose messages a mute silences: one seat, or every spectator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Muted {
    Seat(i16),
    Spectators,
}

impl Muted {
    /// A mute path's `{seat}`: a seat number or `spectators`.
    ///
    /// # Errors
    /// 404 for anything else.
    pub fn parse(text: &str) -> Result<Muted, ApiError> {
        if text == "spectators" {
            return Ok(Muted::Spectators);
        }
        text.parse::<i16>()
            .ok()
            .filter(|s| *s >= 0)
            .map(Muted::Seat)
            .ok_or_else(|| {
                ApiError::NotFound(format!(
                    "{text:?} is neither a seat number nor `spectators`"
                ))
            })
    }

    fn stored(self) -> i16 {
        match self {
            Muted::Seat(s) => s,
            Muted::Spectators => SPECTATORS,
        }
    }
}

/// A chat message.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ChatMessage {
    /// Its number in the game's chat (1 first).
    pub seq: i64,
    /// The writer's seat; `null` for a spectator.
    pub seat: Option<i16>,
    pub display_name: String,
    pub text: String,
    pub at: DateTime<Utc>,
}

/// The game's status and whether spectators may chat in it.
fn game_of(conn: &mut PgConnection, game: GameId, lock: bool) -> Result<(String, bool), ApiError> {
    let query = games::table
        .find(game.0)
        .select((games::status, games::spectator_chat));
    let found = if lock {
        query.for_update().first(conn).optional()?
    } else {
        query.first(conn).optional()?
    };
    found.ok_or_else(|| ApiError::NotFound(format!("there is no game {game}")))
}

fn seats_of(conn: &mut PgConnection, game: GameId) -> Result<Vec<(i16, Uuid)>, ApiError> {
    Ok(game_seats::table
        .filter(game_seats::game_id.eq(game.0))
        .filter(game_seats::user_id.is_not_null())
        .select((game_seats::seat, game_seats::user_id.assume_not_null()))
        .load(conn)?)
}

/// Posts `text` as `user`'s message in `game`.
///
/// # Errors
/// 404 for no such game, 403 for someone who does not play it (unless spectators may chat), 422
/// for an empty, too long or control-character text, 429 beyond `per_minute` messages of `user` in this game in the last minute
/// (`CHAT_PER_MINUTE`).
pub fn post(
    conn: &mut PgConnection,
    user: UserId,
    game: GameId,
    text: &str,
    per_minute: u32,
) -> Result<ChatMessage, ApiError> {
    let text = crate::domain::one_line_text("text", text, MAX_CHARS)
        .map_err(|e| ApiError::Validation(e.to_string()))?;
    conn.transaction(|conn| {
        // The game row's lock numbers the messages one after the other.
        let (_, spectators) = game_of(conn, game, true)?;
        let seats = seats_of(conn, game)?;
        let seat = seats.iter().find(|(_, u)| *u == user.0).map(|(s, _)| *s);
        if seat.is_none() && !spectators {
            return Err(ApiError::Forbidden(
                "only the players of this game may chat in it".to_owned(),
            ));
        }
        let recent: i64 = game_chat::table
            .filter(game_chat::game_id.eq(game.0))
            .filter(game_chat::user_id.eq(user.0))
            .filter(game_chat::at.gt(Utc::now() - chrono::Duration::seconds(60)))
            .count()
            .get_result(conn)?;
        if recent >= i64::from(per_minute) {
            return Err(ApiError::RateLimited { retry_after_s: 60 });
        }
        let last: Option<i64> = game_chat::table
            .filter(game_chat::game_id.eq(game.0))
            .select(diesel::dsl::max(game_chat::seq))
            .first(conn)?;
        let seq = last.unwrap_or(0) + 1;
        let at: DateTime<Utc> = diesel::insert_into(game_chat::table)
            .values((
                game_chat::game_id.eq(game.0),
                game_chat::seq.eq(seq),
                game_chat::user_id.eq(user.0),
                game_chat::seat.eq(seat),
                game_chat::text.eq(&text),
            ))
            .returning(game_chat::at)
            .get_result(conn)?;
        let name: String = users::table
            .find(user.0)
            .select(users::display_name)
            .first(conn)?;
        let message = ChatMessage {
            seq,
            seat,
            display_name: name,
            text,
            at,
        };
        let data = serde_json::json!({"game_id": game.0, "seq": seq, "seat": seat,
            "display_name": message.display_name, "text": message.text, "at": at});
        let muted_by: Vec<Uuid> = chat_mutes::table
            .filter(chat_mutes::game_id.eq(game.0))
            .filter(chat_mutes::seat.eq(seat.unwrap_or(SPECTATORS)))
            .select(chat_mutes::user_id)
            .load(conn)?;
        let events = seats
            .iter()
            .filter(|(_, u)| *u != user.0 && !muted_by.contains(u))
            .map(|(_, u)| NewEvent {
                user: UserId(*u),
                kind: EventKind::Chat,
                game: Some(game),
                data: data.clone(),
            })
            .collect();
        record(conn, events)?;
        Ok(message)
    })
}

/// Whether `user` may read the chat of a game in `status`: its players; signed-in spectators
/// when the game allows them; anyone once it is over.
fn may_read(status: &str, spectators: bool, player: bool, user: Option<UserId>) -> bool {
    player || matches!(status, "finished" | "aborted") || (spectators && user.is_some())
}

/// The game's chat, oldest first: for its players (and spectators when the game allows them),
/// and for anyone once the game is over; without the seats the caller muted, and only the
/// messages `page` asks for (numbered after `page.after`, at most `page.limit`).
///
/// # Errors
/// 404 for no such game; while it is played, 401 without a token and 403 for someone else.
pub fn list(
    conn: &mut PgConnection,
    user: Option<UserId>,
    game: GameId,
    page: After,
) -> Result<Paged<ChatMessage>, ApiError> {
    let (status, spectators) = game_of(conn, game, false)?;
    let seats = seats_of(conn, game)?;
    let player = user.is_some_and(|u| seats.iter().any(|(_, s)| *s == u.0));
    if !may_read(&status, spectators, player, user) {
        // Without a token, signing in may be all it takes (a player's, or a spectator's where
        // the game lets them): 401, as for the game itself.
        if user.is_none() {
            return Err(ApiError::Unauthenticated(
                "a game's chat in progress is for signed-in callers: send an `Authorization: Bearer <token>` header".to_owned(),
            ));
        }
        return Err(ApiError::Forbidden(
            "a game's chat is for its players while it is played".to_owned(),
        ));
    }
    let muted: Vec<i16> = match user {
        Some(u) => chat_mutes::table
            .filter(chat_mutes::game_id.eq(game.0))
            .filter(chat_mutes::user_id.eq(u.0))
            .select(chat_mutes::seat)
            .load(conn)?,
        None => Vec::new(),
    };
    /// A stored message: number, seat (none for a spectator), name, text, time.
    type Row = (i64, Option<i16>, String, String, DateTime<Utc>);
    let mut query = game_chat::table
        .inner_join(users::table)
        .filter(game_chat::game_id.eq(game.0))
        .filter(game_chat::seq.ge(page.first()))
        .order(game_chat::seq)
        .select((
            game_chat::seq,
            game_chat::seat,
            users::display_name,
            game_chat::text,
            game_chat::at,
        ))
        .into_boxed();
    // Muted messages are left out by the statement, not after it: a page counts only what the
    // caller is shown.
    let players_muted: Vec<i16> = muted.iter().copied().filter(|s| *s != SPECTATORS).collect();
    if !players_muted.is_empty() {
        query = query.filter(
            game_chat::seat
                .is_null()
                .or(game_chat::seat.ne_all(players_muted)),
        );
    }
    if muted.contains(&SPECTATORS) {
        query = query.filter(game_chat::seat.is_not_null());
    }
    if let Some(fetch) = page.fetch() {
        query = query.limit(fetch);
    }
    let rows: Vec<Row> = query.load(conn)?;
    let messages = rows
        .into_iter()
        .map(|(seq, seat, display_name, text, at)| ChatMessage {
            seq,
            seat,
            display_name,
            text,
            at,
        })
        .collect();
    Ok(Paged::of(messages, page.limit))
}

/// Mutes (or unmutes) `whom` in `game`'s chat for `user`, a player of it.
///
/// # Errors
/// 404 for no such game or seat, 403 for someone who does not play it, 422 for one's own seat.
pub fn mute(
    conn: &mut PgConnection,
    user: UserId,
    game: GameId,
    whom: Muted,
    muted: bool,
) -> Result<(), ApiError> {
    game_of(conn, game, false)?;
    let seats = seats_of(conn, game)?;
    let Some(&(own, _)) = seats.iter().find(|(_, u)| *u == user.0) else {
        return Err(ApiError::Forbidden(
            "only the players of this game may mute its chat".to_owned(),
        ));
    };
    if let Muted::Seat(seat) = whom {
        if !seats.iter().any(|(s, _)| *s == seat) {
            return Err(ApiError::NotFound(format!(
                "this game has no player at seat {seat}"
            )));
        }
        if seat == own {
            return Err(ApiError::Validation(
                "seat: that is your own seat".to_owned(),
            ));
        }
    }
    let seat = whom.stored();
    if muted {
        diesel::insert_into(chat_mutes::table)
            .values((
                chat_mutes::game_id.eq(game.0),
                chat_mutes::user_id.eq(user.0),
                chat_mutes::seat.eq(seat),
            ))
            .on_conflict_do_nothing()
            .execute(conn)?;
    } else {
        diesel::delete(chat_mutes::table.find((game.0, user.0, seat))).execute(conn)?;
    }
    Ok(())
}
