//! The director's actions (design.md section 15): set or correct a result, extend a deadline,
//! pause and resume, replace, withdraw or disqualify an entrant, finalise. Each is written to the
//! audit log with who, when and why, in the transaction that makes it.

use super::records::{GameRow, live_standings};
use super::refusal::{self, Failure, Refusal};
use super::{CompetitionRow, Status, entrants, load, rounds};
use crate::competitions::GameResult;
use crate::domain::{GameId, UserId};
use crate::error::ApiError;
use crate::schema::{
    competition_audit, competition_entrants, competition_games, competitions, game_seats, users,
};
use crate::services::games;
use chrono::Utc;
use diesel::prelude::*;
use serde_json::{Value, json};
use uuid::Uuid;

/// A result as the director gives it.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultGiven {
    /// The place of each seat (1 = first; equal places share).
    Places(Vec<u32>),
    /// The winner's account; every other seat shares second place.
    Winner(Uuid),
}

/// A director action, checked.
#[derive(Debug, Clone)]
pub enum DirectorAction {
    SetResult { game: Uuid, given: ResultGiven },
    ExtendDeadline { game: Uuid, seconds: i64 },
    Pause,
    Resume,
    Replace { account: Uuid, by: Uuid },
    Withdraw { account: Uuid },
    Disqualify { account: Uuid },
    Finalise,
}

impl DirectorAction {
    fn name(&self) -> &'static str {
        match self {
            DirectorAction::SetResult { .. } => "set_result",
            DirectorAction::ExtendDeadline { .. } => "extend_deadline",
            DirectorAction::Pause => "pause",
            DirectorAction::Resume => "resume",
            DirectorAction::Replace { .. } => "replace",
            DirectorAction::Withdraw { .. } => "withdraw",
            DirectorAction::Disqualify { .. } => "disqualify",
            DirectorAction::Finalise => "finalise",
        }
    }

    fn detail(&self) -> Value {
        match self {
            DirectorAction::SetResult { game, given } => match given {
                ResultGiven::Places(places) => json!({"game_id": game, "places": places}),
                ResultGiven::Winner(w) => json!({"game_id": game, "winner": w}),
            },
            DirectorAction::ExtendDeadline { game, seconds } => {
                json!({"game_id": game, "seconds": seconds})
            }
            DirectorAction::Replace { account, by } => {
                json!({"account_id": account, "by_account_id": by})
            }
            DirectorAction::Withdraw { account } | DirectorAction::Disqualify { account } => {
                json!({"account_id": account})
            }
            DirectorAction::Pause | DirectorAction::Resume | DirectorAction::Finalise => json!({}),
        }
    }
}

/// The most characters of a director's reason (one line in the audit log).
pub const REASON_MOST: usize = 1000;

/// The seconds a deadline may be extended by: a minute to 30 days.
pub const EXTENSION_SECONDS: std::ops::RangeInclusive<i64> = 60..=30 * 24 * 3600;

/// Carries out `action` for the organiser `caller` and logs it with `reason`.
///
/// # Errors
/// 403 for anyone but the organiser; 404 for a game or account not in the competition; 409 when
/// the competition's state does not allow it (finalised, not running...).
pub fn act(
    conn: &mut PgConnection,
    caller: UserId,
    id: Uuid,
    action: DirectorAction,
    reason: &str,
) -> Result<super::CompetitionResource, ApiError> {
    refusal::as_api(try_act(conn, caller, id, action, reason))
}

/// [`act`], its refusal as a [`Refusal`] (`Ok(Err(_))`, nothing written).
///
/// # Errors
/// 404 for no such competition; database failures.
pub fn try_act(
    conn: &mut PgConnection,
    caller: UserId,
    id: Uuid,
    action: DirectorAction,
    reason: &str,
) -> Result<Result<super::CompetitionResource, Refusal>, ApiError> {
    // The audit log says why, in one line.
    let reason = match crate::domain::one_line_text("reason", reason, REASON_MOST) {
        Ok(reason) => reason,
        Err(e) => return Ok(Err(Refusal::Reason(e))),
    };
    let reason = reason.as_str();
    refusal::split(conn.transaction(|conn| {
        let row = load(conn, id, true)?;
        if row.organiser_id != caller.0 {
            return Err(Refusal::NotDirector.into());
        }
        if row.finalised_at.is_some() {
            return Err(Refusal::Finalised.into());
        }
        let started = row.status() != Status::Registering;
        if !started && !matches!(action, DirectorAction::Finalise) {
            return Err(Refusal::NotStarted.into());
        }
        apply(conn, &row, &action)?;
        diesel::insert_into(competition_audit::table)
            .values((
                competition_audit::competition_id.eq(id),
                competition_audit::actor_id.eq(Some(caller.0)),
                competition_audit::action.eq(action.name()),
                competition_audit::detail.eq(action.detail()),
                competition_audit::reason.eq(reason),
            ))
            .execute(conn)?;
        tracing::info!(competition.id = %id, action = action.name(), "director action");
        Ok::<_, Failure>(super::get(conn, id)?)
    }))
    .inspect(|done| {
        if done.is_ok() {
            crate::jobs::wake();
        }
    })
}

fn apply(
    conn: &mut PgConnection,
    row: &CompetitionRow,
    action: &DirectorAction,
) -> Result<(), Failure> {
    match action {
        DirectorAction::SetResult { game, given } => set_result(conn, row, *game, given),
        DirectorAction::ExtendDeadline { game, seconds } => {
            let g = game_of(conn, row, *game)?;
            if !EXTENSION_SECONDS.contains(seconds) {
                return Err(Refusal::ExtensionSeconds.into());
            }
            if games::extend_deadlines(conn, GameId(g.game_id), *seconds)? == 0 {
                return Err(Refusal::NoDeadline.into());
            }
            Ok(())
        }
        DirectorAction::Pause => {
            if row.status() != Status::Running {
                return Err(Refusal::NotRunning(row.status()).into());
            }
            Ok(set_status(conn, row.id, Status::Paused)?)
        }
        DirectorAction::Resume => {
            if row.status() != Status::Paused {
                return Err(Refusal::NotPaused.into());
            }
            set_status(conn, row.id, Status::Running)?;
            Ok(rounds::nudge(conn, row.id)?)
        }
        DirectorAction::Replace { account, by } => replace(conn, row, *account, *by),
        DirectorAction::Withdraw { account } | DirectorAction::Disqualify { account } => {
            let list = entrants(conn, row.id)?;
            let e = super::still_in(&list, *account)?;
            if row.status() == Status::Finished {
                return Err(Refusal::Finished.into());
            }
            let status = if matches!(action, DirectorAction::Withdraw { .. }) {
                "withdrawn"
            } else {
                "disqualified"
            };
            Ok(rounds::withdraw(conn, row, e, status)?)
        }
        DirectorAction::Finalise => {
            let table = live_standings(conn, row)?;
            let now = Utc::now();
            diesel::update(competitions::table.find(row.id))
                .set((
                    competitions::final_standings.eq(Some(
                        serde_json::to_value(&table).map_err(ApiError::internal)?,
                    )),
                    competitions::finalised_at.eq(Some(now)),
                    competitions::status.eq(Status::Finished.as_str()),
                    competitions::finished_at.eq(Some(row.finished_at.unwrap_or(now))),
                ))
                .execute(conn)?;
            Ok(())
        }
    }
}

fn set_status(conn: &mut PgConnection, id: Uuid, status: Status) -> Result<(), ApiError> {
    diesel::update(competitions::table.find(id))
        .set(competitions::status.eq(status.as_str()))
        .execute(conn)?;
    Ok(())
}

fn game_of(conn: &mut PgConnection, row: &CompetitionRow, game: Uuid) -> Result<GameRow, Failure> {
    let found = competition_games::table
        .find(game)
        .filter(competition_games::competition_id.eq(row.id))
        // Not locked here: the game row is locked first (by the abort or the extension), in the
        // order a game's end takes them, so the two never wait for each other in a cycle.
        .select(GameRow::as_select())
        .first(conn)
        .optional()?;
    Ok(found.ok_or(Refusal::NotItsGame(game))?)
}

fn set_result(
    conn: &mut PgConnection,
    row: &CompetitionRow,
    game: Uuid,
    given: &ResultGiven,
) -> Result<(), Failure> {
    let g = game_of(conn, row, game)?;
    let places = match given {
        ResultGiven::Places(p) => p.clone(),
        ResultGiven::Winner(w) => {
            let list = entrants(conn, row.id)?;
            let Some(winner) = list.iter().find(|e| e.user_id == *w) else {
                return Err(Refusal::WinnerNotEntrant(*w).into());
            };
            if !g.seats.contains(&winner.number) {
                let (winner, game) = (*w, game);
                return Err(Refusal::WinnerNotInGame { winner, game }.into());
            }
            g.seats
                .iter()
                .map(|s| if *s == winner.number { 1 } else { 2 })
                .collect()
        }
    };
    let places = places.as_slice();
    let seats = g.seats.len();
    if places.len() != seats {
        return Err(Refusal::PlacesPerSeat { seats }.into());
    }
    if places.iter().any(|p| *p == 0 || *p as usize > seats) {
        return Err(Refusal::PlacesRange { seats }.into());
    }
    check_ranking(places)?;
    // A game still being played ends here: the director's result replaces its end.
    games::abort_for_director(conn, GameId(g.game_id))?;
    let result = GameResult::Played {
        places: places.to_vec(),
        scores: match g.result() {
            GameResult::Played { scores, .. } => scores,
            _ => None,
        },
    };
    diesel::update(competition_games::table.find(g.game_id))
        .set((
            competition_games::result
                .eq(serde_json::to_value(&result).map_err(ApiError::internal)?),
            competition_games::corrected.eq(true),
        ))
        .execute(conn)?;
    Ok(rounds::nudge(conn, row.id)?)
}

/// Places must read as a ranking: each seat's place is one more than the number of seats ahead
/// of it (1, 2, 2, 4). Anything else (`[2, 2]`: nobody first) would be scored as some other
/// result than the director wrote, so it is refused rather than guessed at.
fn check_ranking(places: &[u32]) -> Result<(), Refusal> {
    let fits = places
        .iter()
        .all(|p| *p as usize == 1 + places.iter().filter(|q| *q < p).count());
    if fits {
        return Ok(());
    }
    Err(Refusal::NotARanking(places.to_vec()))
}

fn replace(
    conn: &mut PgConnection,
    row: &CompetitionRow,
    account: Uuid,
    by: Uuid,
) -> Result<(), Failure> {
    let list = entrants(conn, row.id)?;
    let e = super::still_in(&list, account)?;
    // As for a withdrawal: once it is over, the results are the players' who played them (a
    // league's next season takes newcomers by entry instead).
    if row.status() == Status::Finished {
        return Err(Refusal::Finished.into());
    }
    if list.iter().any(|x| x.user_id == by) {
        return Err(Refusal::AlreadyEntrant(by).into());
    }
    let exists: i64 = users::table.find(by).count().get_result(conn)?;
    if exists == 0 {
        return Err(Refusal::NoAccount(by).into());
    }
    // The newcomer brings their own rating (the `rating` tie-break, later seeding).
    let rating = super::rating_of(conn, by, &row.kind)?;
    diesel::update(competition_entrants::table.find((row.id, e.number)))
        .set((
            competition_entrants::user_id.eq(by),
            competition_entrants::rating.eq(rating),
        ))
        .execute(conn)?;
    // The newcomer takes the seats of the games still being played.
    let pending: Vec<GameRow> = competition_games::table
        .filter(competition_games::competition_id.eq(row.id))
        .select(GameRow::as_select())
        .load(conn)?
        .into_iter()
        .filter(|g| g.seats.contains(&e.number) && matches!(g.result(), GameResult::Pending))
        .collect();
    let rounds = pending.iter().map(|g| g.round);
    let (from, to) = (rounds.clone().min(), rounds.max());
    for g in &pending {
        // The game's version moves first: a move read before the change is then refused as
        // stale rather than stored for the account replaced, and the game row is locked before
        // its seats, in the order every write of a game takes them.
        crate::services::games::invitations::changed(conn, crate::domain::GameId(g.game_id))?;
        diesel::update(
            game_seats::table
                .filter(game_seats::game_id.eq(g.game_id))
                .filter(game_seats::user_id.eq(account)),
        )
        .set(game_seats::user_id.eq(by))
        .execute(conn)?;
    }
    // The newcomer hears of the games they now play, as every entrant did of theirs.
    if let (Some(from), Some(to)) = (from, to) {
        rounds::announce(conn, row, &[by], from, to)?;
    }
    Ok(())
}
