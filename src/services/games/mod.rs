//! Games: create, join (the game starts when every seat is taken), read, list, submit actions
//! (the request path of design.md section 5), resign, history, and the fairness replay.
//!
//! Every change happens in one transaction with the game row locked (`SELECT ... FOR UPDATE`), so
//! concurrent requests on one game are serialised and exactly one of two racing moves is stored.
//! A submission that does not end the game is the exception: its one write statement is that
//! transaction, and the row lock its update takes checks the version it was computed from
//! ([`submit`]).

pub mod archive;
mod fairness;
mod history;
pub mod invitations;
pub mod lobby;
pub mod record;
pub mod refusal;
pub mod resource;
pub mod seen;
mod timeout;
mod write;

pub use fairness::{Fairness, Verification, effective_seed, fairness, verify};
pub use history::{HistoryEntry, history, history_page};
pub use resource::{
    GameResource, GameStatus, Invitee, PlayerRef, SeatResource, SeatRow, You, mask_email,
};
pub use timeout::{time_out, time_out_due};
use write::{Ending, Step, Written};

use super::clocks::Clock;
use super::idempotency::{self, IdempotencyKey, StoredAnswer};
use super::paging::{Page, Paged};
use crate::domain::{EmailAddress, GameId, UserId};
use crate::engine::driver::Refusal;
use crate::engine::registry::{AnyState, GameKind, LoggedJson};
use crate::engine::{SeatSet, Seed};
use crate::error::ApiError;
use crate::models::{Game, GameHead, GameSeat, NewGame, NewGameSeat};
use crate::schema::{game_seats, games, ratings, users};
use chrono::Utc;
use diesel::prelude::*;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::time::{Duration, Instant};

/// The most actions one request may carry.
pub const MAX_ACTIONS_PER_REQUEST: usize = 64;

/// A validated request to create a game.
#[derive(Debug, Clone)]
pub struct NewGameRequest {
    pub kind: GameKind,
    pub options: Value,
    pub invite: Vec<EmailAddress>,
    /// Accounts invited by id (found by display name), seated after the addresses.
    pub invite_players: Vec<UserId>,
    pub open_seats: u8,
    /// Checked by [`Clock::from_request`].
    pub clock: Clock,
    /// Counts for the players' ratings (when every seat is a distinct account).
    pub rated: bool,
    /// Spectators may read and write the chat while the game is played.
    pub spectator_chat: bool,
}

/// A list of actions for one game.
#[derive(Debug, Clone)]
pub struct Submission {
    pub expected_version: i64,
    pub actions: Vec<Value>,
    /// An older `expected_version` is taken while the seat has had its decision before it
    /// since that version without acting: only others have acted since (a vote taken by
    /// several at once, an opponent's out-of-turn preference), and the rules check the actions
    /// against the game as it is now. The pages' door; the API's answers `stale_version` as
    /// its contract says.
    pub same_decision: bool,
}

/// What a submission answered: a fresh resource, or the stored answer to an earlier request
/// with the same idempotency key.
#[derive(Debug)]
pub enum Submitted {
    Fresh(Box<GameResource>),
    Replayed(StoredAnswer),
    /// A check found the actions acceptable at this version; nothing was stored.
    Checked {
        version: i64,
    },
}

/// Filters of the caller's game list.
#[derive(Debug, Clone, Copy, Default)]
pub struct ListFilter {
    pub status: Option<GameStatus>,
    pub my_turn: bool,
}

/// One of the caller's games, without its view.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct GameSummary {
    pub id: uuid::Uuid,
    pub kind: String,
    pub status: GameStatus,
    pub version: i64,
    /// Counts for the players' ratings.
    pub rated: bool,
    pub seats: Vec<SeatResource>,
    /// The caller's seat; `null` when the caller is only invited.
    pub you: Option<You>,
    /// The caller has an unanswered invitation to this game.
    pub invited: bool,
    /// The game waits for the caller.
    pub my_turn: bool,
    pub created_at: chrono::DateTime<Utc>,
    pub updated_at: chrono::DateTime<Utc>,
}

fn not_found(id: GameId) -> ApiError {
    ApiError::NotFound(format!("there is no game {id}"))
}

fn internal(what: &str, detail: impl std::fmt::Display) -> ApiError {
    ApiError::internal(anyhow::anyhow!("{what}: {detail}"))
}

fn email_of(conn: &mut PgConnection, user: UserId) -> Result<String, ApiError> {
    users::table
        .find(user.0)
        .select(users::email)
        .first(conn)
        .optional()?
        .ok_or_else(|| {
            ApiError::Unauthenticated("the account of this token no longer exists".to_owned())
        })
}

fn load_game(conn: &mut PgConnection, id: GameId, lock: bool) -> Result<Game, ApiError> {
    let query = games::table.find(id.0).select(Game::as_select());
    let game = if lock {
        query.for_update().first(conn).optional()?
    } else {
        query.first(conn).optional()?
    };
    game.ok_or_else(|| not_found(id))
}

/// A seat with its player's display name, the start of their vacation if they are away, and
/// their rating, as `seats_joined!` reads them.
type SeatJoin = (
    GameSeat,
    Option<String>,
    Option<chrono::DateTime<chrono::Utc>>,
    Option<(f64, f64, Option<f64>)>,
);

/// The seats joined with their games, their players and those players' ratings in the game's
/// kind: written once for [`seat_rows`], [`load_seats`] and [`head_and_seats`], which select
/// from it.
macro_rules! seats_joined {
    () => {
        game_seats::table
            .inner_join(games::table)
            .left_join(users::table.on(users::id.nullable().eq(game_seats::user_id)))
            .left_join(
                ratings::table.on(ratings::user_id
                    .nullable()
                    .eq(game_seats::user_id)
                    .and(ratings::kind.eq(games::kind))),
            )
    };
}

/// The columns of a [`SeatJoin`].
macro_rules! seat_columns {
    () => {
        (
            GameSeat::as_select(),
            users::display_name.nullable(),
            users::vacation_since.nullable(),
            (ratings::rating, ratings::deviation, ratings::sigma).nullable(),
        )
    };
}

/// The seats of `games` with their players' names and ratings in the game's kind, by game and
/// seat (one statement: the ratings are two index lookups on the way). An invited address that
/// has an account shows by its display name (only waiting games have invited seats, so that
/// second lookup is usually skipped).
fn seat_rows(
    conn: &mut PgConnection,
    games: &[uuid::Uuid],
) -> Result<Vec<(uuid::Uuid, SeatRow)>, ApiError> {
    let rows: Vec<SeatJoin> = seats_joined!()
        .filter(game_seats::game_id.eq_any(games))
        .order((game_seats::game_id, game_seats::seat))
        .select(seat_columns!())
        .load(conn)?;
    named_seats(conn, rows)
}

/// One game's seats. Not [`seat_rows`] with one id: a plan made once per connection for `= ANY`
/// of a list expects many games and scanned the whole games table (265 buffers a call against
/// 10, `bench_submit`).
fn load_seats(conn: &mut PgConnection, id: GameId) -> Result<Vec<SeatRow>, ApiError> {
    let rows: Vec<SeatJoin> = seats_joined!()
        .filter(game_seats::game_id.eq(id.0))
        .order(game_seats::seat)
        .select(seat_columns!())
        .load(conn)?;
    Ok(named_seats(conn, rows)?
        .into_iter()
        .map(|(_, s)| s)
        .collect())
}

/// A game's head (everything but its state) and its seats, in one statement: the read of a
/// game whose view is kept by version needs nothing else from the database. Every game has its
/// seats from its creation on, so no row means no game.
fn head_and_seats(
    conn: &mut PgConnection,
    id: GameId,
) -> Result<(GameHead, Vec<SeatRow>), ApiError> {
    let rows: Vec<(GameHead, SeatJoin)> = seats_joined!()
        .filter(game_seats::game_id.eq(id.0))
        .order(game_seats::seat)
        .select((GameHead::as_select(), seat_columns!()))
        .load(conn)?;
    first_with_seats(conn, id, rows)
}

/// A game whole with its state parsed, and its seats, in one statement and outside any lock: the
/// read of a submission's unlocked path. The state comes with seat 0's row only (seats are
/// numbered from 0 from the game's creation on), not once per seat; and not at all when `kept`
/// holds it at the game's version, as it does for the next move of a game this instance stored
/// the last move of.
fn game_and_seats(
    conn: &mut PgConnection,
    kept: Option<&seen::SeenCache>,
    id: GameId,
) -> Result<(Game, Option<AnyState>, Vec<SeatRow>), ApiError> {
    type Row = (GameHead, Option<crate::db::JsonText>, SeatJoin);
    let read_at = Instant::now();
    let known = kept.and_then(|k| k.state_version(id.0));
    let rows: Vec<Row> = seats_joined!()
        .filter(game_seats::game_id.eq(id.0))
        .order(game_seats::seat)
        .select((
            GameHead::as_select(),
            // A typed expression, not an SQL literal: diesel keeps a literal's statement
            // unprepared, and planning it at every call cost more than the round trip saved.
            diesel::dsl::case_when(
                game_seats::seat
                    .eq(0)
                    .and(games::version.ne(known.unwrap_or(-1))),
                games::state,
            ),
            seat_columns!(),
        ))
        .load(conn)?;
    let rows = rows
        .into_iter()
        .map(|(h, s, seat)| ((h, s), seat))
        .collect();
    let ((head, text), seats) = first_with_seats(conn, id, rows)?;
    if known == Some(head.version) {
        return match kept.and_then(|k| k.state(id.0, head.version)) {
            Some(k) => {
                let game = head.with_state(Some(crate::db::JsonText(k.text.0.clone())));
                let state = (*k.state).clone();
                if let Some(kept) = kept {
                    let head = Some(seen::KeptHead::new(&game, &seats, read_at));
                    kept.put_state(id.0, seen::KeptState { head, ..k });
                }
                Ok((game, Some(state), seats))
            }
            // Replaced by a later version meanwhile: the game is read again, state and all.
            None => game_and_seats(conn, None, id),
        };
    }
    let game = head.with_state(text);
    let state = load_state(&game)?;
    if let (Some(kept), Some(state)) = (kept, &state) {
        keep_state(kept, &game, state, &seats, read_at);
    }
    Ok((game, state, seats))
}

/// Keeps `state`, committed as `game`'s state at its version, for the next read or move; with
/// the game's row and `seats` at that version, whose columns that move without the version were
/// read from the database at `read_at`.
fn keep_state(
    kept: &seen::SeenCache,
    game: &Game,
    state: &AnyState,
    seats: &[SeatRow],
    read_at: Instant,
) {
    let text = match &game.state {
        Some(text) => crate::db::JsonText(text.0.clone()),
        None => crate::db::JsonText(state.to_json_text()),
    };
    kept.put_state(
        game.id,
        seen::KeptState {
            version: game.version,
            text: std::sync::Arc::new(text),
            state: std::sync::Arc::new(state.clone()),
            head: Some(seen::KeptHead::new(game, seats, read_at)),
        },
    );
}

/// The first row's game and every row's seat, named; no row means no game.
fn first_with_seats<G>(
    conn: &mut PgConnection,
    id: GameId,
    rows: Vec<(G, SeatJoin)>,
) -> Result<(G, Vec<SeatRow>), ApiError> {
    let mut rows = rows.into_iter();
    let Some((head, first)) = rows.next() else {
        return Err(not_found(id));
    };
    let seats = std::iter::once(first)
        .chain(rows.map(|(_, seat)| seat))
        .collect();
    let seats = named_seats(conn, seats)?
        .into_iter()
        .map(|(_, s)| s)
        .collect();
    Ok((head, seats))
}

/// The seats with their ratings, and an invited address that has an account shown by its
/// display name (only waiting games have invited seats, so that lookup is usually skipped).
fn named_seats(
    conn: &mut PgConnection,
    rows: Vec<SeatJoin>,
) -> Result<Vec<(uuid::Uuid, SeatRow)>, ApiError> {
    let invited: Vec<&str> = rows
        .iter()
        .filter(|(r, ..)| r.user_id.is_none())
        .filter_map(|(r, ..)| r.invited_email.as_deref())
        .collect();
    let names: Vec<(String, String)> = if invited.is_empty() {
        Vec::new()
    } else {
        users::table
            .filter(users::email.eq_any(invited))
            .select((users::email, users::display_name))
            .load(conn)?
    };
    Ok(rows
        .into_iter()
        .map(|(row, display_name, away_since, rating)| {
            let rating = rating.map(|(r, d, sigma)| super::ratings::seat_rating(r, d, sigma));
            let invitee_name = names
                .iter()
                .find(|(email, _)| {
                    row.user_id.is_none() && row.invited_email.as_ref() == Some(email)
                })
                .map(|(_, name)| name.clone());
            (
                row.game_id,
                SeatRow {
                    row,
                    display_name,
                    invitee_name,
                    rating,
                    on_vacation: away_since.is_some(),
                },
            )
        })
        .collect())
}

/// The wire name of the kind of game `id` (the web reads a form by it).
///
/// # Errors
/// 404 for no such game; database failures.
pub fn kind_name(conn: &mut PgConnection, id: GameId) -> Result<String, ApiError> {
    crate::schema::games::table
        .find(id.0)
        .select(crate::schema::games::kind)
        .first(conn)
        .optional()?
        .ok_or_else(|| ApiError::NotFound(format!("there is no game {id}")))
}

fn kind_of(game: &Game) -> Result<GameKind, ApiError> {
    GameKind::parse(&game.kind).ok_or_else(|| internal("unknown stored kind", &game.kind))
}

fn load_state(game: &Game) -> Result<Option<AnyState>, ApiError> {
    let Some(state) = &game.state else {
        return Ok(None);
    };
    kind_of(game)?
        .load(&state.0)
        .map(Some)
        .map_err(|e| internal(&format!("game {} has an unreadable state", game.id), e))
}

fn seed_of(game: &Game, seats: &[SeatRow]) -> Result<Seed, ApiError> {
    let entropy: Vec<Option<String>> = seats.iter().map(|s| s.row.entropy.clone()).collect();
    effective_seed(&game.seed, &entropy).ok_or_else(|| internal("bad stored seed", game.id))
}

/// The kinds of game on offer.
pub fn kinds() -> Vec<crate::engine::registry::KindInfo> {
    GameKind::ALL.iter().map(|k| k.info()).collect()
}

/// Creates a game: the creator takes seat 0, invitations the next seats, open seats the rest.
///
/// # Errors
/// 422 for options the game refuses, a seat count out of range, or a bad invitation list.
pub fn create(
    conn: &mut PgConnection,
    creator: UserId,
    request: NewGameRequest,
    key: Option<&IdempotencyKey>,
) -> Result<Submitted, ApiError> {
    let info = request.kind.info();
    let rules = request
        .kind
        .resolve_options(&request.options)
        .map_err(|e| ApiError::Validation(format!("options: {e}")))?;
    let invited_count = request.invite.len() + request.invite_players.len();
    let seat_count = 1 + invited_count + usize::from(request.open_seats);
    if seat_count < usize::from(info.min_seats) || seat_count > usize::from(info.max_seats) {
        return Err(ApiError::Validation(format!(
            "{} is for {} to {} players; this game would have {seat_count} seats (you, {invited_count} invited, {} open)",
            info.name, info.min_seats, info.max_seats, request.open_seats
        )));
    }
    request
        .kind
        .options_fit_seats(
            &request.options,
            u8::try_from(seat_count).unwrap_or(u8::MAX),
        )
        .map_err(|e| ApiError::Validation(format!("options: {e}")))?;
    conn.transaction(|conn| {
        if let Some(key) = key
            && let Some(stored) = idempotency::claim(conn, creator, key)?
        {
            return Ok(Submitted::Replayed(stored));
        }
        let own = email_of(conn, creator)?;
        let mut invite: Vec<String> = request
            .invite
            .iter()
            .map(|e| e.as_str().to_owned())
            .collect();
        for player in &request.invite_players {
            invite.push(invitations::player_email(conn, *player)?);
        }
        let mut seen = std::collections::BTreeSet::new();
        for (i, email) in invite.iter().enumerate() {
            if *email == own {
                return Err(ApiError::Validation("you cannot invite yourself".to_owned()));
            }
            if !seen.insert(email.as_str()) {
                // Never echo an address the creator gave only as a player id.
                return Err(ApiError::Validation(match request.invite.get(i) {
                    Some(e) => format!("{e} is invited twice"),
                    None => format!(
                        "player {} is invited twice",
                        request.invite_players[i - request.invite.len()]
                    ),
                }));
            }
        }
        let id = GameId::new();
        let seed = crate::auth::random_bytes::<32>();
        let commitment = hex::encode(Sha256::digest(seed));
        diesel::insert_into(games::table)
            .values(NewGame {
                id: id.0,
                kind: request.kind.as_str(),
                rules_version: i32::try_from(info.rules_version).unwrap_or(i32::MAX),
                options: &rules,
                seed: &seed,
                seed_commitment: &commitment,
                status: GameStatus::Waiting.as_str(),
                seat_count: i16::try_from(seat_count).unwrap_or(i16::MAX),
                created_by: creator.0,
                clock: &request.clock.to_json(),
                rated: request.rated,
                spectator_chat: request.spectator_chat,
            })
            .execute(conn)?;
        let now = Utc::now();
        let mut seats = vec![NewGameSeat {
            game_id: id.0,
            seat: 0,
            user_id: Some(creator.0),
            invited_email: None,
            joined_at: Some(now),
        }];
        for (email, seat) in invite.iter().zip(1i16..) {
            seats.push(NewGameSeat {
                game_id: id.0,
                seat,
                user_id: None,
                invited_email: Some(email.as_str()),
                joined_at: None,
            });
        }
        let first_open = i16::try_from(seats.len()).unwrap_or(i16::MAX);
        for seat in first_open..first_open + i16::from(request.open_seats) {
            seats.push(NewGameSeat {
                game_id: id.0,
                seat,
                user_id: None,
                invited_email: None,
                joined_at: None,
            });
        }
        diesel::insert_into(game_seats::table)
            .values(&seats)
            .execute(conn)?;
        let invited: Vec<i16> = seats
            .iter()
            .filter(|s| s.invited_email.is_some())
            .map(|s| s.seat)
            .collect();
        super::notifications::enqueue_invitations(conn, id, &invited)?;
        tracing::info!(game.id = %id, user.id = %creator, kind = request.kind.as_str(), seats = seat_count, rated = request.rated, "game created");
        let game = load_game(conn, id, true)?;
        let seats = load_seats(conn, id)?;
        // A game of one (a solo Merchants & Marauders) has every seat taken already: it starts
        // now, as the last join starts any other.
        let resource = match setup_when_seated(&game, &seats)? {
            Some(started) => {
                let written = start(conn, &game, &seats, &started)?;
                resource::render(&written.game, &written.seats, Some(&started.0), Some(creator))
            }
            None => resource::render(&game, &seats, None, Some(creator)),
        };
        if let Some(key) = key {
            let body = serde_json::to_value(&resource).map_err(ApiError::internal)?;
            idempotency::store(conn, creator, key, 201, &body)?;
        }
        Ok(Submitted::Fresh(Box::new(resource)))
    })
    .inspect(|_| crate::jobs::wake())
}

/// A game whose seats are all given (a competition's pairing): created and started in the
/// caller's transaction, through the one write path, so its first mover is mailed as in any game.
/// `options` and `clock` were checked when the competition was created.
///
/// # Errors
/// Database failures, or 500 when the stored options no longer set up (a bug).
pub fn create_seated(
    conn: &mut PgConnection,
    kind: GameKind,
    options: &Value,
    clock: &Value,
    rated: bool,
    organiser: UserId,
    players: &[UserId],
) -> Result<GameId, ApiError> {
    let info = kind.info();
    let id = GameId::new();
    let seed = crate::auth::random_bytes::<32>();
    let commitment = hex::encode(Sha256::digest(seed));
    let seat_count = i16::try_from(players.len()).unwrap_or(i16::MAX);
    diesel::insert_into(games::table)
        .values(NewGame {
            id: id.0,
            kind: kind.as_str(),
            rules_version: i32::try_from(info.rules_version).unwrap_or(i32::MAX),
            options,
            seed: &seed,
            seed_commitment: &commitment,
            status: GameStatus::Waiting.as_str(),
            seat_count,
            created_by: organiser.0,
            clock,
            rated,
            spectator_chat: false,
        })
        .execute(conn)?;
    let now = Utc::now();
    let seats: Vec<NewGameSeat<'_>> = players
        .iter()
        .zip(0i16..)
        .map(|(player, seat)| NewGameSeat {
            game_id: id.0,
            seat,
            user_id: Some(player.0),
            invited_email: None,
            joined_at: Some(now),
        })
        .collect();
    diesel::insert_into(game_seats::table)
        .values(&seats)
        .execute(conn)?;
    let game = load_game(conn, id, true)?;
    let seats = load_seats(conn, id)?;
    let started = setup_when_seated(&game, &seats)?
        .ok_or_else(|| internal("a competition's game", "a seat was left empty"))?;
    start(conn, &game, &seats, &started)?;
    tracing::info!(game.id = %id, kind = kind.as_str(), seats = seat_count, "competition game started");
    Ok(id)
}

/// Ends a game that has not finished by the director's decision (a competition's `set_result`):
/// it is aborted, nobody is pending any more, and no result rows or ratings are written (the
/// competition keeps the result the director set).
///
/// # Errors
/// Database failures.
pub fn abort_for_director(conn: &mut PgConnection, id: GameId) -> Result<bool, ApiError> {
    let game = load_game(conn, id, true)?;
    if matches!(
        GameStatus::from_db(&game.status),
        GameStatus::Finished | GameStatus::Aborted
    ) {
        return Ok(false);
    }
    let now = Utc::now();
    diesel::update(games::table.find(id.0))
        .set((
            games::status.eq(GameStatus::Aborted.as_str()),
            games::version.eq(game.version + 1),
            games::updated_at.eq(now),
            games::finished_at.eq(Some(now)),
        ))
        .execute(conn)?;
    diesel::update(game_seats::table.filter(game_seats::game_id.eq(id.0)))
        .set((
            game_seats::is_pending.eq(false),
            game_seats::deadline.eq(None::<chrono::DateTime<Utc>>),
            game_seats::next_reminder_at.eq(None::<chrono::DateTime<Utc>>),
        ))
        .execute(conn)?;
    // Clients hear of the end as of any other (design.md section 17).
    let seats = load_seats(conn, id)?;
    let events = seats
        .iter()
        .filter_map(|s| {
            s.row.user_id.map(|user| crate::services::events::NewEvent {
                user: UserId(user),
                kind: crate::services::events::EventKind::GameOver,
                game: Some(id),
                data: json!({"game_id": id.0, "kind": game.kind, "seat": s.row.seat,
                             "version": game.version + 1, "winners": null, "reason": "director"}),
            })
        })
        .collect();
    crate::services::events::record(conn, events)?;
    tracing::info!(game.id = %id, "game ended by a competition director");
    Ok(true)
}

/// Moves the deadlines of a game's pending seats `seconds` later (a director's extension).
///
/// # Errors
/// Database failures.
pub fn extend_deadlines(
    conn: &mut PgConnection,
    id: GameId,
    seconds: i64,
) -> Result<usize, ApiError> {
    let _ = load_game(conn, id, true)?;
    // The reminder moves with the deadline, as a vacation moves both.
    Ok(diesel::sql_query(
        "UPDATE game_seats SET deadline = deadline + make_interval(secs => $2), \
         next_reminder_at = next_reminder_at + make_interval(secs => $2) \
         WHERE game_id = $1 AND is_pending AND deadline IS NOT NULL",
    )
    .bind::<diesel::sql_types::Uuid, _>(id.0)
    .bind::<diesel::sql_types::Double, _>(seconds as f64)
    .execute(conn)?)
}

/// A game's first state, with its setup's events (each numbered 0, the setup's).
type Started = (AnyState, Vec<(i64, LoggedJson)>);

/// The game's setup, its events numbered 0, once every seat is taken; `None` while a seat is
/// still open, invited or empty.
///
/// # Errors
/// 500 when the stored options no longer set up (a bug).
fn setup_when_seated(game: &Game, seats: &[SeatRow]) -> Result<Option<Started>, ApiError> {
    if !seats.iter().all(|s| s.row.user_id.is_some()) {
        return Ok(None);
    }
    let seed = seed_of(game, seats)?;
    let count = u8::try_from(seats.len()).unwrap_or(u8::MAX);
    let (state, events) = kind_of(game)?
        .setup(&game.options, count, &seed)
        .map_err(|e| internal("setup of stored rules", e))?;
    tracing::info!(game.id = %game.id, "game started");
    Ok(Some((state, events.into_iter().map(|e| (0, e)).collect())))
}

/// Stores the start of a game whose every seat is taken (nobody's move: each first pending seat
/// is mailed).
///
/// # Errors
/// Database failures.
fn start(
    conn: &mut PgConnection,
    game: &Game,
    seats: &[SeatRow],
    (state, events): &Started,
) -> Result<Written, ApiError> {
    write::commit(
        conn,
        Step {
            game,
            seats,
            state: Some(state),
            actor: None,
            actions: &[],
            events,
            ending: Ending::Played,
            timed_out: false,
        },
    )
}

/// Takes the caller's invited seat, or else the first open seat; mixes the caller's `entropy`
/// into the seed; starts the game when every seat is taken.
///
/// # Errors
/// 404 for no such game; 409 `conflict` when the game has started or the caller already sits in
/// it; 403 when the caller is not invited and no seat is open.
pub fn join(
    conn: &mut PgConnection,
    user: UserId,
    id: GameId,
    entropy: Option<String>,
) -> Result<GameResource, ApiError> {
    refusal::as_api(try_join(conn, user, id, entropy))
}

/// [`join`], its refusal as a [`refusal::Refusal`] (`Ok(Err(_))`, nothing written).
///
/// # Errors
/// 404 for no such game; database failures.
pub fn try_join(
    conn: &mut PgConnection,
    user: UserId,
    id: GameId,
    entropy: Option<String>,
) -> Result<Result<GameResource, refusal::Refusal>, ApiError> {
    // Not the engine's `Refusal` of an action: a refusal of the seat.
    use refusal::{Asked, Failure};
    refusal::split(conn.transaction(|conn| {
        let game = load_game(conn, id, true)?;
        let seats = load_seats(conn, id)?;
        if let Some(seat) = resource::seat_of(&seats, Some(user)) {
            return Err(refusal::Refusal::Seated(seat.0).into());
        }
        if let Some(closed) = refusal::Refusal::not_waiting(&game, Asked::Join) {
            return Err(closed.into());
        }
        let email = email_of(conn, user)?;
        if let Some(gone) = invitations::refused(conn, id, &email, Asked::Join)? {
            return Err(gone.into());
        }
        let free = |s: &&SeatRow| s.row.user_id.is_none() && !s.row.closed;
        let seat = seats
            .iter()
            .filter(free)
            .find(|s| s.row.invited_email.as_deref() == Some(email.as_str()))
            .or_else(|| {
                seats
                    .iter()
                    .filter(free)
                    .find(|s| s.row.invited_email.is_none())
            })
            .map(SeatRow::seat)
            .ok_or(refusal::Refusal::NoOpenSeat)?;
        diesel::update(game_seats::table.find((id.0, i16::from(seat.0))))
            .set((
                game_seats::user_id.eq(user.0),
                game_seats::entropy.eq(entropy),
                game_seats::joined_at.eq(Utc::now()),
            ))
            .execute(conn)?;
        tracing::info!(game.id = %id, user.id = %user, seat = seat.0, "seat taken");
        let seats = load_seats(conn, id)?;
        let (state, events) = match setup_when_seated(&game, &seats)? {
            Some((state, events)) => (Some(state), events),
            None => (None, Vec::new()),
        };
        // The start is nobody's move: every first pending seat, the joiner too, is mailed.
        let written = write::commit(
            conn,
            Step {
                game: &game,
                seats: &seats,
                state: state.as_ref(),
                actor: None,
                actions: &[],
                events: &events,
                ending: Ending::Played,
                timed_out: false,
            },
        )?;
        Ok::<_, Failure>(resource::render(
            &written.game,
            &written.seats,
            state.as_ref(),
            Some(user),
        ))
    }))
    .inspect(|joined| {
        if joined.is_ok() {
            crate::jobs::wake();
        }
    })
}

/// Who may watch a game in progress without signing in. Not an API caller: the API's public
/// reads are finished games (api.md). On the game's web page anyone may, with a spectator's view
/// (only public information), as on the game services players know; signing in is needed to
/// play and to chat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Watch {
    SignedIn,
    Anyone,
}

/// Who may read a game through the API: anyone once it is finished, signed-in callers before.
fn check_readable(game: &Game, caller: Option<UserId>) -> Result<(), ApiError> {
    readable(&game.status, caller, Watch::SignedIn)
}

fn readable(status: &str, caller: Option<UserId>, watch: Watch) -> Result<(), ApiError> {
    let status = GameStatus::from_db(status);
    if caller.is_none()
        && watch == Watch::SignedIn
        && !matches!(status, GameStatus::Finished | GameStatus::Aborted)
    {
        return Err(ApiError::Unauthenticated(
            "a game in progress is visible to signed-in callers only: send an `Authorization: Bearer <token>` header".to_owned(),
        ));
    }
    Ok(())
}

/// The game as `caller` may see it (a spectator's view when not seated).
///
/// # Errors
/// 404 for no such game; 401 for an anonymous caller before the game is over.
pub fn get(
    conn: &mut PgConnection,
    caller: Option<UserId>,
    id: GameId,
) -> Result<GameResource, ApiError> {
    let game = load_game(conn, id, false)?;
    check_readable(&game, caller)?;
    let seats = load_seats(conn, id)?;
    let state = load_state(&game)?;
    Ok(resource::render(&game, &seats, state.as_ref(), caller))
}

/// [`get`] for a read outside any transaction, which keeps what the engine showed this viewer
/// in `kept` and serves it again while the game's version stays; `watch` says whether an
/// anonymous reader may see a game in progress.
///
/// # Errors
/// As [`get`].
pub fn read(
    conn: &mut PgConnection,
    kept: &seen::SeenCache,
    caller: Option<UserId>,
    id: GameId,
    watch: Watch,
) -> Result<GameResource, ApiError> {
    let read_at = Instant::now();
    let (head, seats) = head_and_seats(conn, id)?;
    readable(&head.status, caller, watch)?;
    let you = resource::seat_of(&seats, caller);
    let key = seen::SeenKey::new(id.0, head.version, you, GameStatus::from_db(&head.status));
    if let Some(seen) = kept.get(&key) {
        let game = head.with_state(None);
        return Ok(resource::assemble(&game, &seats, you, (*seen).clone()));
    }
    let status = GameStatus::from_db(&head.status);
    if let Some(state) = kept.state(id.0, head.version) {
        // Another viewer's read, or the next move's: the state is at hand, parsed.
        let seen = resource::Seen::of(Some(&state.state), you, status);
        kept.put(key, std::sync::Arc::new(seen.clone()));
        return Ok(resource::assemble(
            &head.with_state(None),
            &seats,
            you,
            seen,
        ));
    }
    let (state, version): (Option<crate::db::JsonText>, i64) = games::table
        .find(id.0)
        .select((games::state, games::version))
        .first(conn)?;
    if version != head.version {
        // A move landed between the two reads: render the newer row whole, keeping nothing.
        let game = load_game(conn, id, false)?;
        readable(&game.status, caller, watch)?;
        let seats = load_seats(conn, id)?;
        return Ok(resource::render(
            &game,
            &seats,
            load_state(&game)?.as_ref(),
            caller,
        ));
    }
    let game = head.with_state(state);
    let state = load_state(&game)?;
    if let Some(state) = &state {
        keep_state(kept, &game, state, &seats, read_at);
    }
    let seen = resource::Seen::of(state.as_ref(), you, status);
    kept.put(key, std::sync::Arc::new(seen.clone()));
    Ok(resource::assemble(&game, &seats, you, seen))
}

/// The most games the list answers when the caller does not page it: the list answered at most
/// this many before it paged, and still does (the `Link` of a longer list leads on).
pub const WHOLE_LIST: u32 = 500;

/// One page of the caller's games (seated or invited), newest change first; with
/// `filter.my_turn` only those waiting for the caller, the nearest deadline first. Both orders end
/// with the game's id, so that pages neither overlap nor skip a game while nothing changes.
///
/// # Errors
/// Database failures only.
pub fn list(
    conn: &mut PgConnection,
    user: UserId,
    filter: ListFilter,
    page: Page,
) -> Result<Paged<GameSummary>, ApiError> {
    let found = if filter.my_turn {
        my_turn_heads(conn, user, filter, page)?
    } else {
        my_heads(conn, user, filter, page)?
    };
    // The row fetched beyond the page says only whether another follows; it is not read further.
    let found = Paged::of(found, Some(page.limit));
    let ids: Vec<uuid::Uuid> = found.rows.iter().map(|g| g.id).collect();
    let rows = seat_rows(conn, &ids)?;
    let mut summaries = Vec::with_capacity(found.rows.len());
    for game in found.rows {
        let seats: Vec<SeatRow> = rows
            .iter()
            .filter(|(game_id, _)| *game_id == game.id)
            .map(|(_, seat)| seat.clone())
            .collect();
        let summary = summary(&game, &seats, user);
        // The seats are read after the games: a move in between may have ended the caller's turn.
        if filter.my_turn && !summary.my_turn {
            continue;
        }
        summaries.push(summary);
    }
    Ok(Paged {
        rows: summaries,
        more: found.more,
    })
}

/// The heads of one page of the games the caller sits in or is invited to, newest change first.
fn my_heads(
    conn: &mut PgConnection,
    user: UserId,
    filter: ListFilter,
    page: Page,
) -> Result<Vec<GameHead>, ApiError> {
    // Invitations are to an address: only this list needs it (a round trip saved on the
    // clients' most frequent call, "my turn").
    let email = email_of(conn, user)?;
    let mine = game_seats::table
        .filter(
            game_seats::user_id.eq(user.0).or(game_seats::user_id
                .is_null()
                .and(game_seats::invited_email.eq(email))),
        )
        .select(game_seats::game_id);
    let mut query = games::table
        .filter(games::id.eq_any(mine))
        .order((games::updated_at.desc(), games::id))
        .limit(page.fetch())
        .offset(i64::from(page.offset))
        .select(GameHead::as_select())
        .into_boxed();
    if let Some(status) = filter.status {
        query = query.filter(games::status.eq(status.as_str()));
    }
    Ok(query.load(conn)?)
}

/// The heads of one page of the games waiting for the caller: the nearest deadline of the
/// caller's seat first (api.md "Clocks"), games without one last, then newest change first.
/// Whose turn it is lives on the seat: only the caller's pending seats are read (an index walk
/// in deadline order), never their whole history of games; and no state is read at all. An
/// account holds at most one seat of a game (joining twice is refused), so the join answers each
/// game once.
fn my_turn_heads(
    conn: &mut PgConnection,
    user: UserId,
    filter: ListFilter,
    page: Page,
) -> Result<Vec<GameHead>, ApiError> {
    let mut query = games::table
        .inner_join(game_seats::table)
        .filter(game_seats::user_id.eq(user.0))
        .filter(game_seats::is_pending)
        .filter(games::status.eq(GameStatus::Active.as_str()))
        .order((
            game_seats::deadline.asc().nulls_last(),
            games::updated_at.desc(),
            games::id,
        ))
        .limit(page.fetch())
        .offset(i64::from(page.offset))
        .select(GameHead::as_select())
        .into_boxed();
    if let Some(status) = filter.status {
        query = query.filter(games::status.eq(status.as_str()));
    }
    Ok(query.load(conn)?)
}

/// One game of the list as `user` sees it.
fn summary(game: &GameHead, seats: &[SeatRow], user: UserId) -> GameSummary {
    let you = resource::seat_of(seats, Some(user));
    let status = GameStatus::from_db(&game.status);
    let my_turn = status == GameStatus::Active
        && seats
            .iter()
            .any(|s| s.row.user_id == Some(user.0) && s.row.is_pending);
    GameSummary {
        id: game.id,
        kind: game.kind.clone(),
        status,
        version: game.version,
        rated: game.rated,
        seats: seats.iter().map(|s| s.resource(s.row.is_pending)).collect(),
        you: you.map(|s| You { seat: s.0 }),
        invited: you.is_none(),
        my_turn,
        created_at: game.created_at,
        updated_at: game.updated_at,
    }
}

fn refusal(refused: Refusal, index: usize, pending: SeatSet) -> ApiError {
    let index = Some(index);
    match refused {
        Refusal::GameOver => ApiError::GameOver { index },
        Refusal::NotYourTurn(_) => {
            let waiting: Vec<String> = pending.iter().map(|s| s.to_string()).collect();
            ApiError::NotYourTurn {
                detail: format!(
                    "it is not your turn: the game waits for seat {}",
                    waiting.join(" and ")
                ),
                index,
            }
        }
        Refusal::Illegal(illegal) => ApiError::IllegalAction {
            rule: illegal.rule.to_owned(),
            detail: illegal.detail,
            index,
        },
    }
}

/// Whether a submission is stored or only checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Store,
    Check,
}

/// Applies a list of actions by the caller, all or nothing (design.md section 5): in order a
/// seat (403), game over, stale version, and for each action not pending / illegal; then state,
/// version, pending flags, actions and events are written at once. In [`Mode::Check`] nothing
/// is written or locked.
///
/// A move that comes soon after this instance last read the game takes one round trip: it is
/// played on the game as this instance kept it, and one statement writes everything if the
/// game's version is still the kept one ([`submit_at_kept_version`], [`write::commit_unlocked`]).
/// Otherwise two: the game and its seats read in one statement, then the same write. A move that
/// ends the game is written the same way, in a transaction of its own that goes on to write its
/// results, ratings and competition round ([`write::commit_ending`]). A submission with an
/// idempotency key, and one that lost a race to another writer, take a transaction with the game
/// row locked (the loser then gets its answer from the game as it now is, usually
/// `stale_version`, or `game_over` when the move it lost to ended the game).
///
/// # Errors
/// The first refusal, as its problem (`game_over`, `stale_version`, `not_your_turn`,
/// `illegal_action` with `rule` and `index`, `validation_failed` with `index`).
pub fn submit(
    conn: &mut PgConnection,
    kept: Option<&seen::SeenCache>,
    user: UserId,
    id: GameId,
    submission: &Submission,
    key: Option<&IdempotencyKey>,
    mode: Mode,
) -> Result<Submitted, ApiError> {
    if submission.actions.is_empty() || submission.actions.len() > MAX_ACTIONS_PER_REQUEST {
        return Err(ApiError::Validation(format!(
            "actions must list 1 to {MAX_ACTIONS_PER_REQUEST} actions"
        )));
    }
    if mode == Mode::Store
        && key.is_none()
        && let Some(kept) = kept
        && let Some(stored) = submit_at_kept_version(conn, kept, user, id, submission)?
    {
        return Ok(stored);
    }
    if mode == Mode::Check || key.is_none() {
        // A refusal here is final: it is the answer the game as committed gives.
        let read_at = Instant::now();
        let (game, state, seats) = game_and_seats(conn, kept, id)?;
        let applied = apply(&game, state, &seats, user, submission)?;
        if mode == Mode::Check {
            return Ok(Submitted::Checked {
                version: game.version,
            });
        }
        // A move that lost a race is played again under the lock below.
        if let Some(written) = write_unlocked(conn, &applied, &game, &seats)? {
            crate::jobs::wake();
            if let Some(kept) = kept {
                keep_state(kept, &written.game, &applied.state, &written.seats, read_at);
            }
            return Ok(Submitted::Fresh(answer_for(user, written, applied)));
        }
    }
    let read_at = Instant::now();
    let locked = conn.transaction::<_, ApiError, _>(|conn| {
        let game = load_game(conn, id, true)?;
        if let Some(key) = key
            && let Some(stored) = idempotency::claim(conn, user, key)?
        {
            return Ok(Stored::Answer(Submitted::Replayed(stored)));
        }
        let seats = load_seats(conn, id)?;
        let applied = apply(&game, load_state(&game)?, &seats, user, submission)?;
        let written = write::commit(conn, applied.step(&game, &seats))?;
        match key {
            // The stored answer must be written in the transaction that made it.
            Some(key) => {
                let rendered = answer_for(user, written, applied);
                let body = serde_json::to_value(&rendered).map_err(ApiError::internal)?;
                idempotency::store(conn, user, key, 200, &body)?;
                Ok(Stored::Answer(Submitted::Fresh(rendered)))
            }
            None => Ok(Stored::ToRender(Box::new((written, applied)))),
        }
    })?;
    crate::jobs::wake();
    Ok(match locked {
        Stored::Answer(answer) => answer,
        // Rendering (the view, the legal actions) happens after the commit, without the row lock.
        Stored::ToRender(parts) => {
            let (written, applied) = *parts;
            if let Some(kept) = kept {
                keep_state(kept, &written.game, &applied.state, &written.seats, read_at);
            }
            Submitted::Fresh(answer_for(user, written, applied))
        }
    })
}

/// Stores `applied`, played on `game` and `seats` as read without the game's lock, unless the
/// version moved meanwhile (`None`, nothing written): a move that ends the game with its results
/// in a transaction of its own.
fn write_unlocked(
    conn: &mut PgConnection,
    applied: &Applied,
    game: &Game,
    seats: &[resource::SeatRow],
) -> Result<Option<write::Written>, ApiError> {
    let step = applied.step(game, seats);
    if applied.state.outcome().is_some() {
        write::commit_ending(conn, step)
    } else {
        write::commit_unlocked(conn, step)
    }
}

/// How long what changes at a table without the game's version (a seat's deadline moved by a
/// director or by a return from vacation; a player's vacation and rating, which are their
/// account's) may be taken from what this instance kept rather than read again. Only the
/// answer's picture of those can be this old: what a move plays and writes comes from the state,
/// the version and the seats' clocks, which the write checks by the version. A move a person
/// makes after reading the game and thinking finds it older, and reads the game first; the moves
/// this saves a read for are those in quick succession (a turn's actions, bots, `bench_submit`).
const KEPT_HEAD_FRESH: Duration = Duration::from_secs(1);

/// A submission played on the game as this instance kept it at the version it last stored or
/// read, and written by the one statement that checks the version is still that: one round
/// trip, where reading the game first takes two (a move that ends the game adds its results in
/// the same transaction). `None` when that does not settle it (nothing kept, or kept more than
/// [`KEPT_HEAD_FRESH`] ago; a refusal, which may only say the kept version is old; the version
/// moved meanwhile): nothing is written then, and the game as stored decides.
fn submit_at_kept_version(
    conn: &mut PgConnection,
    kept: &seen::SeenCache,
    user: UserId,
    id: GameId,
    submission: &Submission,
) -> Result<Option<Submitted>, ApiError> {
    let Some((k, head)) = kept.with_head(id.0, KEPT_HEAD_FRESH) else {
        return Ok(None);
    };
    let mut game = head.game.clone_without_state();
    game.state = Some(crate::db::JsonText(k.text.0.clone()));
    let Ok(applied) = apply(
        &game,
        Some((*k.state).clone()),
        &head.seats,
        user,
        submission,
    ) else {
        return Ok(None);
    };
    let Some(written) = write_unlocked(conn, &applied, &game, &head.seats)? else {
        return Ok(None);
    };
    crate::jobs::wake();
    keep_state(
        kept,
        &written.game,
        &applied.state,
        &written.seats,
        head.read_at,
    );
    Ok(Some(Submitted::Fresh(answer_for(user, written, applied))))
}

/// A submission checked against the game as read: the caller's seat, the state after its
/// actions, the actions as stored and the events they caused.
struct Applied {
    seat: crate::engine::Seat,
    state: AnyState,
    actions: Vec<Value>,
    events: Vec<(i64, LoggedJson)>,
}

impl Applied {
    fn step<'a>(&'a self, game: &'a Game, seats: &'a [SeatRow]) -> Step<'a> {
        Step {
            game,
            seats,
            state: Some(&self.state),
            actor: Some(self.seat),
            actions: &self.actions,
            events: &self.events,
            ending: Ending::Played,
            timed_out: false,
        }
    }
}

/// Checks `submission` by `user` against `game` and plays it on `state`, the game's as read.
fn apply(
    game: &Game,
    state: Option<AnyState>,
    seats: &[SeatRow],
    user: UserId,
    submission: &Submission,
) -> Result<Applied, ApiError> {
    let seat = seat_in_play(game, seats, user, "seats are still open")?;
    if submission.expected_version != game.version
        && !(submission.same_decision
            && deciding_since(game, seats, seat, submission.expected_version))
    {
        return Err(ApiError::StaleVersion {
            current: game.version,
            expected: submission.expected_version,
        });
    }
    let kind = kind_of(game)?;
    let mut state = state.ok_or_else(|| internal("active game without state", game.id))?;
    let seed = seed_of(game, seats)?;
    let mut actions = Vec::with_capacity(submission.actions.len());
    let mut events: Vec<(i64, LoggedJson)> = Vec::new();
    for (index, raw) in submission.actions.iter().enumerate() {
        let action = kind
            .parse_action(raw)
            .map_err(|detail| ApiError::InvalidAction {
                detail: format!("action {index}: {detail}"),
                index,
            })?;
        let number = game.action_count + 1 + i64::try_from(index).unwrap_or(i64::MAX);
        let n = u64::try_from(number).unwrap_or(u64::MAX);
        let pending = state.pending();
        action
            .chosen_by_player()
            .map_err(|illegal| refusal(Refusal::Illegal(illegal), index, pending))?;
        // Only an action with more after it needs telling what it turned up: a submission of
        // one action (nearly all of them) does no more than play it.
        let more = index + 1 < submission.actions.len();
        let played = if more {
            state.submit_telling(seat, &action, &seed, n)
        } else {
            state.submit(seat, &action, &seed, n).map(|l| (l, false))
        };
        let (logged, turned_up) = played.map_err(|refused| refusal(refused, index, pending))?;
        // An action that rolled, drew or revealed ends its list: what follows it being accepted
        // or refused (or checked) would tell the player the hidden outcome before they commit.
        // So does one that ends the seat's turn, whatever it turned up: the others' hidden
        // standing orders and scripts that then play (Merchants & Marauders) would otherwise
        // show through where the list ends. One sentence for both, so that it never tells which.
        if more && (turned_up || (pending.contains(seat) && !state.pending().contains(seat))) {
            let notation = action.notation();
            return Err(ApiError::InvalidAction {
                detail: format!(
                    "action {}: it comes after “{notation}”, which ends your turn or rolls, draws \
                     or reveals what you cannot see yet, and so must end its list; nothing was \
                     played: send the list up to “{notation}”, then the rest once you have seen \
                     what it did",
                    index + 1,
                ),
                index: index + 1,
            });
        }
        events.extend(logged.into_iter().map(|e| (number, e)));
        actions.push(action.to_json());
    }
    Ok(Applied {
        seat,
        state,
        actions,
        events,
    })
}

/// The caller's seat in a game in play: 403 without one, 409 `conflict` before the start
/// (`waiting` says what that means here), `game_over` after the end.
fn seat_in_play(
    game: &Game,
    seats: &[SeatRow],
    user: UserId,
    waiting: &str,
) -> Result<crate::engine::Seat, ApiError> {
    let seat = resource::seat_of(seats, Some(user))
        .ok_or_else(|| ApiError::Forbidden("you have no seat in this game".to_owned()))?;
    match GameStatus::from_db(&game.status) {
        GameStatus::Waiting => Err(ApiError::Conflict(format!(
            "the game has not started: {waiting}"
        ))),
        GameStatus::Finished | GameStatus::Aborted => Err(ApiError::GameOver { index: None }),
        GameStatus::Active => Ok(seat),
    }
}

/// Whether `seat` has had its decision before it since `version` (or earlier) without acting.
/// Only a version the game has had counts: one from its future was never read.
fn deciding_since(game: &Game, seats: &[SeatRow], seat: crate::engine::Seat, version: i64) -> bool {
    version < game.version
        && seats.iter().any(|s| {
            s.seat() == seat
                && s.row.is_pending
                && s.row.pending_version.is_some_and(|v| v <= version)
        })
}

/// The answer to a stored submission: logged, and the game rendered for `user`.
fn answer_for(user: UserId, written: Written, applied: Applied) -> Box<GameResource> {
    let Written { game, seats } = written;
    tracing::info!(
        game.id = %game.id,
        user.id = %user,
        seat = applied.seat.0,
        actions = applied.actions.len(),
        version = game.version,
        "actions stored"
    );
    Box::new(resource::render(
        &game,
        &seats,
        Some(&applied.state),
        Some(user),
    ))
}

/// What the submission transaction hands back.
enum Stored {
    Answer(Submitted),
    ToRender(Box<(Written, Applied)>),
}

/// The caller resigns: the game ends at once and the other seats win. Stored as the action
/// `{"type": "resign"}` so the record replays.
///
/// # Errors
/// 403 without a seat; 409 `conflict` before the start, `game_over` after the end.
pub fn resign(conn: &mut PgConnection, user: UserId, id: GameId) -> Result<GameResource, ApiError> {
    conn.transaction(|conn| {
        let game = load_game(conn, id, true)?;
        let seats = load_seats(conn, id)?;
        let seat = seat_in_play(&game, &seats, user, "there is nothing to resign")?;
        let mut state =
            load_state(&game)?.ok_or_else(|| internal("active game without state", game.id))?;
        state
            .resign(seat)
            .map_err(|_| ApiError::GameOver { index: None })?;
        let event = LoggedJson {
            audience: crate::engine::Audience::Everyone,
            event: json!({"type": "resigned", "seat": seat.0}),
        };
        let written = write::commit(
            conn,
            Step {
                game: &game,
                seats: &seats,
                state: Some(&state),
                actor: Some(seat),
                actions: &[json!({"type": "resign", "notation": "resign"})],
                events: &[(game.action_count + 1, event)],
                ending: Ending::Resigned,
                timed_out: false,
            },
        )?;
        tracing::info!(game.id = %id, user.id = %user, seat = seat.0, "resigned");
        Ok(resource::render(
            &written.game,
            &written.seats,
            Some(&state),
            Some(user),
        ))
    })
    .inspect(|_| crate::jobs::wake())
}
