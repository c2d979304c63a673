//! The record of a game as one caller may see it: the events each viewer is in the audience of,
//! grouped by the action that caused them. Before the end, another seat's action is shown when
//! the game says its audience admits the caller (`Game::action_audience`: a Magnate preference
//! or a Lancaster ballot is its sender's alone), and its entry at all only when the action or
//! one of its events is visible; once the game is over the whole record is public, since the
//! revealed seed lets anyone replay it.

use super::resource::{GameStatus, seat_of};
use super::{Watch, load_game, load_seats, readable};
use crate::domain::{GameId, UserId};
use crate::engine::registry::GameKind;
use crate::engine::{Audience, Seat, Viewer};
use crate::error::ApiError;
use crate::services::paging::{After, Paged};
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

/// One step of the record: the setup (`seq` 0) or one action and what it caused.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HistoryEntry {
    /// The action number (0 for the setup).
    pub seq: i64,
    /// Who acted; `null` for the setup.
    pub seat: Option<u8>,
    /// The action with its `notation`; `null` for the setup and for another seat's secret action.
    #[schema(value_type = Option<crate::routes::schemas::GameAction>)]
    pub action: Option<Value>,
    /// What happened, as far as the caller may see.
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Value>,
    pub created_at: DateTime<Utc>,
}

/// The history of game `id` for `caller`; `watch` as for [`super::read`].
///
/// # Errors
/// 404 for no such game; 401 for an anonymous caller before the end unless anyone may watch.
pub fn history(
    conn: &mut PgConnection,
    caller: Option<UserId>,
    id: GameId,
    watch: Watch,
) -> Result<Vec<HistoryEntry>, ApiError> {
    Ok(history_page(conn, caller, id, watch, After::ALL)?.rows)
}

/// The entries of game `id`'s history that `caller` may see and that come after `page.after`,
/// at most `page.limit` of them. The page is counted in entries the caller sees: one left out
/// (another seat's secret action) neither fills a place nor shows in whether more follow.
///
/// # Errors
/// As [`history`].
pub fn history_page(
    conn: &mut PgConnection,
    caller: Option<UserId>,
    id: GameId,
    watch: Watch,
    page: After,
) -> Result<Paged<HistoryEntry>, ApiError> {
    let game = load_game(conn, id, false)?;
    readable(&game.status, caller, watch)?;
    let seats = load_seats(conn, id)?;
    let over = matches!(
        GameStatus::from_db(&game.status),
        GameStatus::Finished | GameStatus::Aborted
    );
    let me = seat_of(&seats, caller);
    let viewer = me.map_or(Viewer::Spectator, Viewer::Seat);
    let kind = GameKind::parse(&game.kind);
    let first = page.first();
    let actions: Vec<(i64, i16, Value, DateTime<Utc>)> =
        super::record::actions_from(conn, id.0, first)?
            .into_iter()
            .map(|a| (a.seq, a.seat, a.action, a.created_at))
            .collect();
    let events: Vec<(i64, Value, Value, DateTime<Utc>)> =
        super::record::events(conn, id.0, first.max(0), i64::MAX)?
            .into_iter()
            .map(|e| (e.action_seq, e.audience, e.event, e.created_at))
            .collect();
    let visible = |audience: &Value| {
        over || serde_json::from_value::<Audience>(audience.clone()).is_ok_and(|a| a.admits(viewer))
    };
    let mut entries = Vec::with_capacity(actions.len() + 1);
    let setup: Vec<&(i64, Value, Value, DateTime<Utc>)> =
        events.iter().filter(|e| e.0 == 0).collect();
    if let (Some(first), true) = (setup.first(), page.admits(0)) {
        entries.push(HistoryEntry {
            seq: 0,
            seat: None,
            action: None,
            events: setup
                .iter()
                .filter(|e| visible(&e.1))
                .map(|e| e.2.clone())
                .collect(),
            created_at: first.3,
        });
    }
    let full = |entries: &Vec<HistoryEntry>| {
        page.limit
            .and_then(|l| usize::try_from(l).ok())
            .is_some_and(|l| entries.len() > l)
    };
    for (seq, seat, action, created_at) in actions {
        if full(&entries) {
            // The page and the one entry that says more follow are there.
            break;
        }
        let caused: Vec<&(i64, Value, Value, DateTime<Utc>)> =
            events.iter().filter(|e| e.0 == seq).collect();
        let shown: Vec<Value> = caused
            .iter()
            .filter(|e| visible(&e.1))
            .map(|e| e.2.clone())
            .collect();
        let seat = u8::try_from(seat).unwrap_or(u8::MAX);
        let mine = me.is_some_and(|m| m.0 == seat);
        let action_shown = over
            || mine
            || kind.is_some_and(|k| k.action_audience(&action, Seat(seat)).admits(viewer));
        if !action_shown && shown.is_empty() {
            // Nothing of this action reaches the caller: not even that it happened.
            continue;
        }
        entries.push(HistoryEntry {
            seq,
            seat: Some(seat),
            action: action_shown.then_some(action),
            events: shown,
            created_at,
        });
    }
    Ok(Paged::of(entries, page.limit))
}
