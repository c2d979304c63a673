//! Chat per game (design.md section 17): the players of a game talk; each message is an event
//! for the other players. Chat is its own table and never enters the game's state, history,
//! views or seed: it cannot leak a hidden part because it never sees one.

use super::events::{EventKind, NewEvent, record};
use crate::domain::{GameId, UserId};
use crate::error::ApiError;
use crate::schema::{chat_mutes, game_chat, game_seats, games, users};
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;
use uuid::Uuid;

/// The longest message, in characters.
pub const MAX_CHARS: usize = 500;
/// Messages one player may post in one game per minute.
pub const PER_MINUTE: i64 = 10;

/// A chat message.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct ChatMessage {
    /// Its number in the game's chat (1 first).
    pub seq: i64,
    pub seat: i16,
    pub display_name: String,
    pub text: String,
    pub at: DateTime<Utc>,
}

fn seats_of(conn: &mut PgConnection, game: GameId) -> Result<Vec<(i16, Uuid)>, ApiError> {
    let exists: i64 = games::table.find(game.0).count().get_result(conn)?;
    if exists == 0 {
        return Err(ApiError::NotFound(format!("there is no game {game}")));
    }
    Ok(game_seats::table
        .filter(game_seats::game_id.eq(game.0))
        .filter(game_seats::user_id.is_not_null())
        .select((game_seats::seat, game_seats::user_id.assume_not_null()))
        .load(conn)?)
}

/// Posts `text` as `user`'s message in `game`.
///
/// # Errors
/// 404 for no such game, 403 for someone who does not play it, 422 for an empty, too long or
/// control-character text, 429 beyond [`PER_MINUTE`].
pub fn post(
    conn: &mut PgConnection,
    user: UserId,
    game: GameId,
    text: &str,
) -> Result<ChatMessage, ApiError> {
    let text = crate::domain::one_line_text("text", text, MAX_CHARS)
        .map_err(|e| ApiError::Validation(e.to_string()))?;
    conn.transaction(|conn| {
        // The game row's lock numbers the messages one after the other.
        let _: Uuid = games::table
            .find(game.0)
            .select(games::id)
            .for_update()
            .first(conn)
            .optional()?
            .ok_or_else(|| ApiError::NotFound(format!("there is no game {game}")))?;
        let seats = seats_of(conn, game)?;
        let Some(&(seat, _)) = seats.iter().find(|(_, u)| *u == user.0) else {
            return Err(ApiError::Forbidden(
                "only the players of this game may chat in it".to_owned(),
            ));
        };
        let recent: i64 = game_chat::table
            .filter(game_chat::game_id.eq(game.0))
            .filter(game_chat::user_id.eq(user.0))
            .filter(game_chat::at.gt(Utc::now() - chrono::Duration::seconds(60)))
            .count()
            .get_result(conn)?;
        if recent >= PER_MINUTE {
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
            .filter(chat_mutes::seat.eq(seat))
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

/// The game's chat, oldest first: for its players, and for anyone once the game is over.
///
/// # Errors
/// 404 for no such game; 403 for someone else while it is played.
pub fn list(
    conn: &mut PgConnection,
    user: Option<UserId>,
    game: GameId,
) -> Result<Vec<ChatMessage>, ApiError> {
    let seats = seats_of(conn, game)?;
    let status: String = games::table
        .find(game.0)
        .select(games::status)
        .first(conn)?;
    let over = matches!(status.as_str(), "finished" | "aborted");
    if !over && !user.is_some_and(|u| seats.iter().any(|(_, s)| *s == u.0)) {
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
    let rows: Vec<(i64, i16, String, String, DateTime<Utc>)> = game_chat::table
        .inner_join(users::table)
        .filter(game_chat::game_id.eq(game.0))
        .filter(game_chat::seat.ne_all(&muted))
        .order(game_chat::seq)
        .select((
            game_chat::seq,
            game_chat::seat,
            users::display_name,
            game_chat::text,
            game_chat::at,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(seq, seat, display_name, text, at)| ChatMessage {
            seq,
            seat,
            display_name,
            text,
            at,
        })
        .collect())
}

/// Mutes (or unmutes) `seat`'s chat in `game` for `user`, a player of it.
///
/// # Errors
/// 404 for no such game or seat, 403 for someone who does not play it, 422 for one's own seat.
pub fn mute(
    conn: &mut PgConnection,
    user: UserId,
    game: GameId,
    seat: i16,
    muted: bool,
) -> Result<(), ApiError> {
    let seats = seats_of(conn, game)?;
    let Some(&(own, _)) = seats.iter().find(|(_, u)| *u == user.0) else {
        return Err(ApiError::Forbidden(
            "only the players of this game may mute its chat".to_owned(),
        ));
    };
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
