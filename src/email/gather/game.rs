//! What the mails about a seat of a game say: the invitation, the turn, the end, a reminder, a
//! vacation, a declined invitation.

use super::{Context, GameMail, Loaded, Recipient, account_of, db, unsubscribe_url, viewer};
use crate::auth::links::PlayGrant;
use crate::domain::{GameId, Locale, UserId};
use crate::email::compose::declined::Declined;
use crate::email::compose::game_over::GameOver;
use crate::email::compose::invitation::Invitation;
use crate::email::compose::reminders::{Reminder, Vacation};
use crate::email::compose::turn::Turn;
use crate::email::jobs::{DeclinedMail, ReminderMail, VacationMail};
use crate::jobs::JobError;
use crate::schema::{game_seats, users};
use crate::services::games::record;
use crate::services::notifications::Mode;
use chrono::{DateTime, Utc};
use diesel::prelude::*;
use serde_json::Value;
use uuid::Uuid;

/// Every mail but the turn mail goes out unless mail is off altogether.
fn not_off(mode: Mode) -> bool {
    mode != Mode::Off
}

/// The invitation of an invited seat, unless the game was aborted or the invitee has already
/// answered it: a seat taken before its mail went out (from the API or the game list) would get
/// a "you are invited" after the fact, and a declined one has no invitation left.
pub fn invitation(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &GameMail<'_>,
) -> Result<Option<Invitation>, JobError> {
    let Some(game) = Loaded::load(conn, p.game_id)? else {
        return Ok(None);
    };
    let Some(invited) = game.invited_at(p.seat).map(str::to_owned) else {
        return Ok(None);
    };
    if game.game.status == "aborted" || game.user_at(p.seat).is_some() {
        return Ok(None);
    }
    let account = account_of(conn, &invited)?;
    let to = Recipient::address(&invited, account.as_ref(), Locale::En);
    let (url, unsubscribe) = match &account {
        Some(user) => {
            let url = ctx.play_url(PlayGrant {
                user: UserId(user.id),
                game: GameId(p.game_id),
                seat: p.seat,
            });
            (url, Some(unsubscribe_url(conn, ctx, UserId(user.id))?))
        }
        None => (ctx.invite_url(GameId(p.game_id), p.seat, &invited), None),
    };
    let variant = game
        .game
        .options
        .get("preset")
        .and_then(Value::as_str)
        .unwrap_or("standard")
        .to_owned();
    Ok(Some(Invitation {
        rules_url: ctx.rules_url(game.table.kind, to.locale),
        to,
        table: game.table,
        seat: p.seat,
        variant,
        url,
        unsubscribe_url: unsubscribe,
        message_id: p.message_id.to_owned(),
    }))
}

/// The turn mail of a seat that became pending, unless the game is no longer active, the
/// player wants no turn mails, or has acted since (from the page or the API) and no longer has
/// that decision before it.
pub fn turn(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &GameMail<'_>,
) -> Result<Option<Turn>, JobError> {
    let wanted = Loaded::seated(conn, p.game_id, p.seat, Some("active"), |mode| {
        mode == Mode::Instant
    })?;
    let Some((game, user)) = wanted else {
        return Ok(None);
    };
    let Some(state) = game.state()? else {
        return Ok(None);
    };
    // The seat's actions are counted up to the state read, not to what has been stored since:
    // the decision below is then about that state, which the mail shows.
    let read = game.game.action_count;
    let acted = record::actions_between(conn, p.game_id, p.seat, p.upto, read).map_err(db)?;
    if acted > 0 && !same_decision(conn, &state, user.id, p)? {
        return Ok(None);
    }
    let view = state.view(viewer(p.seat));
    // What happened since the seat's own last move: up to the change that made it pending, or,
    // when it has acted since, up to the state read (the mail then shows that state).
    let upto = if acted > 0 { read } else { p.upto };
    let since = record::last_action_of(conn, p.game_id, p.seat, Some(upto)).map_err(db)?;
    let events = game.events_seen(conn, p.seat, since.map_or(0, |s| s + 1), upto)?;
    let me = usize::try_from(p.seat).unwrap_or(usize::MAX);
    let deciding = game
        .table
        .kind
        .deciding(&view, me, state.pending().iter().count());
    let deadline = seat_deadline(conn, p.game_id, p.seat)?;
    let by_mail = game.by_mail(ctx, &state, p.seat);
    Ok(Some(Turn {
        seat: game.seat_mail(conn, ctx, &user, p.seat, p.message_id)?,
        view,
        events,
        deciding,
        deadline,
        now: Utc::now(),
        by_mail,
    }))
}

/// Whether a seat that has acted since its turn mail's change still has the decision the mail
/// announces: pending now, and not pending anew since (a later turn has a mail of its own). A
/// turn of several actions begun in an app before the mail went out is still that seat's turn,
/// and the mail is then its only word of it by mail; a seat whose turn has passed would be told
/// something no longer true.
fn same_decision(
    conn: &mut PgConnection,
    state: &crate::engine::registry::AnyState,
    user: Uuid,
    p: &GameMail<'_>,
) -> Result<bool, JobError> {
    let me = crate::engine::Seat(u8::try_from(p.seat).unwrap_or(u8::MAX));
    if !state.pending().contains(me) {
        return Ok(false);
    }
    let again = crate::services::events::pending_again_after(
        conn,
        UserId(user),
        GameId(p.game_id),
        p.seat,
        p.version,
    )
    .map_err(db)?;
    Ok(!again)
}

/// The end of a finished game, unless mail is off.
pub fn game_over(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &GameMail<'_>,
) -> Result<Option<GameOver>, JobError> {
    let wanted = Loaded::seated(conn, p.game_id, p.seat, Some("finished"), not_off)?;
    let Some((game, user)) = wanted else {
        return Ok(None);
    };
    let Some(state) = game.state()? else {
        return Ok(None);
    };
    Ok(Some(GameOver {
        winners: state.winners().iter().map(|s| i16::from(s.0)).collect(),
        view: state.view(viewer(p.seat)),
        outcome: game.game.outcome.clone().unwrap_or(Value::Null),
        // The game is over: the seed is public now (design.md section 4).
        seed: hex::encode(&game.game.seed),
        commitment: game.game.seed_commitment.clone(),
        fairness_url: format!("{}/api/v1/games/{}/fairness", ctx.public_url, p.game_id),
        seat: game.seat_mail(conn, ctx, &user, p.seat, p.message_id)?,
    }))
}

/// The current deadline of `seat`, if it is pending under a clock.
fn seat_deadline(
    conn: &mut PgConnection,
    game: Uuid,
    seat: i16,
) -> Result<Option<DateTime<Utc>>, JobError> {
    let row: Option<(bool, Option<DateTime<Utc>>)> = game_seats::table
        .find((game, seat))
        .select((game_seats::is_pending, game_seats::deadline))
        .first(conn)
        .optional()
        .map_err(db)?;
    Ok(row.and_then(|(pending, deadline)| deadline.filter(|_| pending)))
}

/// A moment that may not be set.
type When = Option<DateTime<Utc>>;

/// A reminder before a deadline, unless the seat has decided since (its decision began at
/// `pending_since`), the deadline has passed, or mail is off.
pub fn reminder(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &ReminderMail,
) -> Result<Option<Reminder>, JobError> {
    let wanted = Loaded::seated(conn, p.game_id, p.seat, Some("active"), not_off)?;
    let Some((game, user)) = wanted else {
        return Ok(None);
    };
    let still: Option<(bool, When, When)> = game_seats::table
        .find((p.game_id, p.seat))
        .select((
            game_seats::is_pending,
            game_seats::pending_since,
            game_seats::deadline,
        ))
        .first(conn)
        .optional()
        .map_err(db)?;
    let Some((true, Some(since), Some(deadline))) = still else {
        return Ok(None);
    };
    let now = Utc::now();
    // Compared to the millisecond: the row keeps microseconds, the payload's JSON may not.
    if (since - p.pending_since).num_milliseconds().abs() > 1 || deadline <= now {
        return Ok(None);
    }
    let by_mail = match game.state()? {
        Some(state) => game.by_mail(ctx, &state, p.seat),
        None => None,
    };
    Ok(Some(Reminder {
        seat: game.seat_mail(conn, ctx, &user, p.seat, &p.message_id)?,
        deadline,
        now,
        by_mail,
    }))
}

/// Tells a player that an opponent is on vacation (unless the vacation is already over).
pub fn vacation(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &VacationMail,
) -> Result<Option<Vacation>, JobError> {
    let Some((game, user)) = Loaded::seated(conn, p.game_id, p.seat, None, not_off)? else {
        return Ok(None);
    };
    let Some(away) = game.user_at(p.away_seat).cloned() else {
        return Ok(None);
    };
    let until: Option<DateTime<Utc>> = users::table
        .find(away.id)
        .select(users::vacation_until)
        .first(conn)
        .map_err(db)?;
    let Some(until) = until else {
        return Ok(None);
    };
    Ok(Some(Vacation {
        seat: game.seat_mail(conn, ctx, &user, p.seat, &p.message_id)?,
        away: away.display_name,
        until,
    }))
}

/// To the creator: an invitee declined. A choice of the creator's own game, not a turn: sent
/// unless mail is off altogether.
pub fn declined(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &DeclinedMail,
) -> Result<Option<Declined>, JobError> {
    let Some((game, user)) = Loaded::seated(conn, p.game_id, p.seat, None, not_off)? else {
        return Ok(None);
    };
    let by: Option<String> = users::table
        .find(p.declined_by)
        .select(users::display_name)
        .first(conn)
        .optional()
        .map_err(db)?;
    let Some(by) = by else {
        return Ok(None);
    };
    Ok(Some(Declined {
        seat: game.seat_mail(conn, ctx, &user, p.seat, &p.message_id)?,
        by,
    }))
}
