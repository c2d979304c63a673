//! What the answer to a reply by mail says (moves by email).

use super::{Context, Loaded, Recipient, account_of, db, viewer};
use crate::domain::{GameId, Locale};
use crate::email::compose::answer::{Answer, OnMove, Outcome, Polite};
use crate::email::jobs::{self, AnswerMail};
use crate::engine::Seat;
use crate::jobs::JobError;
use diesel::prelude::*;
use uuid::Uuid;

/// The answer to `p`: a polite refusal, or what became of the seat's move (nothing when the
/// seat has changed hands since).
pub fn answer(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &AnswerMail,
) -> Result<Option<Answer>, JobError> {
    match (&p.answer, p.game_id, p.seat) {
        (jobs::Answer::NotAllowed { why }, game, _) => {
            let account = account_of(conn, &p.to)?;
            Ok(Some(Answer::NotAllowed(Polite {
                to: Recipient::address(&p.to, account.as_ref(), Locale::En),
                why: *why,
                thread: game.map(GameId),
                message_id: p.message_id.clone(),
            })))
        }
        (answer, Some(game), Some(seat)) => {
            Ok(on_move(conn, ctx, p, answer, game, seat)?.map(|m| Answer::Move(Box::new(m))))
        }
        _ => Ok(None),
    }
}

fn on_move(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &AnswerMail,
    answer: &jobs::Answer,
    game_id: Uuid,
    seat: i16,
) -> Result<Option<OnMove>, JobError> {
    let Some(game) = Loaded::load(conn, game_id)? else {
        return Ok(None);
    };
    let Some(user) = game.user_at(seat).cloned() else {
        return Ok(None);
    };
    if !user.email.eq_ignore_ascii_case(&p.to) {
        return Ok(None);
    }
    let Some(state) = game.state()? else {
        return Ok(None);
    };
    let (outcome, after) = match answer {
        jobs::Answer::Played { line, after } => (Outcome::Played { line: line.clone() }, *after),
        jobs::Answer::Refused {
            line,
            code,
            rule,
            detail,
        } => {
            // The position since the seat's own last move, as the turn mail shows it.
            let since = crate::services::games::record::last_action_of(conn, game_id, seat, None)
                .map_err(db)?;
            let outcome = Outcome::Refused {
                line: line.clone(),
                code: code.clone(),
                rule: rule.clone(),
                detail: detail.clone(),
            };
            (outcome, since.unwrap_or(0))
        }
        jobs::Answer::NotAllowed { .. } => return Ok(None),
    };
    let events = game.events_seen(conn, seat, after.saturating_add(1), i64::MAX)?;
    let finished = (game.game.status == "finished")
        .then(|| game.game.outcome.clone().unwrap_or(serde_json::Value::Null));
    let pending = u8::try_from(seat).is_ok_and(|s| state.pending().contains(Seat(s)));
    let by_mail = game.by_mail(ctx, &state, seat);
    Ok(Some(OnMove {
        outcome,
        events,
        view: state.view(viewer(seat)),
        finished,
        pending,
        by_mail,
        seat: game.seat_mail(conn, ctx, &user, seat, &p.message_id)?,
    }))
}
