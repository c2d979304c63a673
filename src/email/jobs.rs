//! The mail jobs: each payload is its job ([`BackgroundJob`]), written where the change that
//! causes it is stored (`services::notifications`) and run by the worker, which composes the
//! mail from what the recipient may see now and sends it.

use super::compose;
use super::gather::{self, Context, GameMail};
use crate::jobs::{BackgroundJob, Env, JobError};
use chrono::{DateTime, Utc};
use diesel::PgConnection;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// A fresh `Message-ID` local part, fixed when the job is written so that a repeat after a
/// crash is recognisable as the same mail.
pub fn message_id() -> String {
    Uuid::new_v4().to_string()
}

/// "X invites you to play": to an invited seat.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct InvitationMail {
    pub game_id: Uuid,
    pub seat: i16,
    pub message_id: String,
}

/// "Your move" (or "you must decide"): to a seat that became pending.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TurnMail {
    pub game_id: Uuid,
    pub seat: i16,
    /// The game's version after the change.
    #[serde(default)]
    pub version: i64,
    /// The actions stored at the change: the mail reports what happened up to here.
    #[serde(default)]
    pub upto: i64,
    pub message_id: String,
}

/// The result, the revealed seed: to every seat but the one whose action ended the game.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GameOverMail {
    pub game_id: Uuid,
    pub seat: i16,
    #[serde(default)]
    pub version: i64,
    pub message_id: String,
}

/// A one-time sign-in link (the `email_links` row `link_id`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SignInMail {
    pub link_id: Uuid,
    pub user_id: Uuid,
    pub message_id: String,
}

/// A sign-up link for an address without an account, in the language of the page it was asked
/// from.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SignUpMail {
    pub link_id: Uuid,
    pub locale: String,
    pub message_id: String,
}

/// The daily list of waiting games. Written by SQL too (`schedule_digests`), with these names.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DigestMail {
    pub user_id: Uuid,
    pub message_id: String,
}

/// A deadline is near: for the decision pending since `pending_since`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReminderMail {
    pub game_id: Uuid,
    pub seat: i16,
    pub pending_since: DateTime<Utc>,
    #[serde(default)]
    pub offset_seconds: i32,
    pub message_id: String,
}

/// The player of `away_seat` went on vacation: to `seat` of the same game.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct VacationMail {
    pub game_id: Uuid,
    pub seat: i16,
    pub away_seat: i16,
    pub message_id: String,
}

/// Gathers what a job's mail says from what its recipient may see now, writes the mail and
/// sends it.
fn deliver<V>(
    env: &Env,
    conn: &mut PgConnection,
    kind: &str,
    gather: impl FnOnce(&mut PgConnection, &Context) -> Result<Option<V>, JobError>,
    write: impl FnOnce(&V) -> compose::Mail,
) -> Result<(), JobError> {
    let mail = gather(conn, env.sender.context())?.map(|v| write(&v));
    env.sender.send(mail, kind)
}

/// The part every game mail's job shares.
fn game_mail(game_id: Uuid, seat: i16, upto: i64, message_id: &str) -> GameMail<'_> {
    GameMail {
        game_id,
        seat,
        upto,
        message_id,
    }
}

impl BackgroundJob for InvitationMail {
    const KIND: &'static str = "email.invitation";
    fn run(&self, env: &Env, conn: &mut PgConnection) -> Result<(), JobError> {
        let p = game_mail(self.game_id, self.seat, 0, &self.message_id);
        deliver(
            env,
            conn,
            Self::KIND,
            |c, ctx| gather::invitation(c, ctx, &p),
            compose::invitation::invitation,
        )
    }
}

impl BackgroundJob for TurnMail {
    const KIND: &'static str = "email.turn";
    fn run(&self, env: &Env, conn: &mut PgConnection) -> Result<(), JobError> {
        let p = game_mail(self.game_id, self.seat, self.upto, &self.message_id);
        deliver(
            env,
            conn,
            Self::KIND,
            |c, ctx| gather::turn(c, ctx, &p),
            compose::turn::turn,
        )
    }
}

impl BackgroundJob for GameOverMail {
    const KIND: &'static str = "email.game_over";
    fn run(&self, env: &Env, conn: &mut PgConnection) -> Result<(), JobError> {
        let p = game_mail(self.game_id, self.seat, 0, &self.message_id);
        deliver(
            env,
            conn,
            Self::KIND,
            |c, ctx| gather::game_over(c, ctx, &p),
            compose::game_over::game_over,
        )
    }
}

impl BackgroundJob for SignInMail {
    const KIND: &'static str = "email.sign_in";
    fn run(&self, env: &Env, conn: &mut PgConnection) -> Result<(), JobError> {
        deliver(
            env,
            conn,
            Self::KIND,
            |c, ctx| gather::sign_in(c, ctx, self),
            compose::account::sign_in,
        )
    }
}

impl BackgroundJob for SignUpMail {
    const KIND: &'static str = "email.sign_up";
    fn run(&self, env: &Env, conn: &mut PgConnection) -> Result<(), JobError> {
        deliver(
            env,
            conn,
            Self::KIND,
            |c, ctx| gather::sign_up(c, ctx, self),
            compose::account::sign_up,
        )
    }
}

impl BackgroundJob for DigestMail {
    const KIND: &'static str = "email.digest";
    fn run(&self, env: &Env, conn: &mut PgConnection) -> Result<(), JobError> {
        deliver(
            env,
            conn,
            Self::KIND,
            |c, ctx| gather::digest(c, ctx, self),
            compose::digest::digest,
        )
    }
}

impl BackgroundJob for ReminderMail {
    const KIND: &'static str = "email.reminder";
    fn run(&self, env: &Env, conn: &mut PgConnection) -> Result<(), JobError> {
        // The clients' event too (design.md section 17), whatever the mail settings.
        crate::services::events::deadline_soon(
            conn,
            crate::domain::GameId(self.game_id),
            self.seat,
            self.pending_since,
        )
        .map_err(|e| JobError::Retry(e.to_string()))?;
        deliver(
            env,
            conn,
            Self::KIND,
            |c, ctx| gather::reminder(c, ctx, self),
            compose::reminders::reminder,
        )
    }
}

impl BackgroundJob for VacationMail {
    const KIND: &'static str = "email.vacation";
    fn run(&self, env: &Env, conn: &mut PgConnection) -> Result<(), JobError> {
        deliver(
            env,
            conn,
            Self::KIND,
            |c, ctx| gather::vacation(c, ctx, self),
            compose::reminders::vacation,
        )
    }
}

/// An invitee of the game declined: to the creator's seat.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DeclinedMail {
    pub game_id: Uuid,
    pub seat: i16,
    pub declined_by: Uuid,
    pub message_id: String,
}

impl BackgroundJob for DeclinedMail {
    const KIND: &'static str = "email.declined";
    fn run(&self, env: &Env, conn: &mut PgConnection) -> Result<(), JobError> {
        deliver(
            env,
            conn,
            Self::KIND,
            |c, ctx| gather::declined(c, ctx, self),
            compose::declined::declined,
        )
    }
}

/// An address is invited to enter a competition.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CompetitionInvitationMail {
    pub competition_id: Uuid,
    pub email: String,
    pub message_id: String,
}

impl BackgroundJob for CompetitionInvitationMail {
    const KIND: &'static str = "email.competition_invitation";
    fn run(&self, env: &Env, conn: &mut PgConnection) -> Result<(), JobError> {
        deliver(
            env,
            conn,
            Self::KIND,
            |c, ctx| gather::competition_invitation(c, ctx, self),
            compose::competition::invitation,
        )
    }
}

/// An entrant's games (and byes) of the rounds just paired, with a play link for each game.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PairingMail {
    pub competition_id: Uuid,
    pub user_id: Uuid,
    pub season: i32,
    pub from_round: i32,
    pub to_round: i32,
    pub message_id: String,
}

impl BackgroundJob for PairingMail {
    const KIND: &'static str = "email.pairing";
    fn run(&self, env: &Env, conn: &mut PgConnection) -> Result<(), JobError> {
        deliver(
            env,
            conn,
            Self::KIND,
            |c, ctx| gather::pairing(c, ctx, self),
            compose::competition::pairing,
        )
    }
}

/// A webhook was disabled after 3 days of failed deliveries: to its owner.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WebhookDisabledMail {
    pub webhook_id: Uuid,
    pub message_id: String,
}

impl BackgroundJob for WebhookDisabledMail {
    const KIND: &'static str = "email.webhook_disabled";
    fn run(&self, env: &Env, conn: &mut PgConnection) -> Result<(), JobError> {
        deliver(
            env,
            conn,
            Self::KIND,
            |c, ctx| gather::webhook_disabled(c, ctx, self),
            compose::webhook::disabled,
        )
    }
}

/// The answer to a reply that came in by mail (moves by email, design.md section 18): to the
/// reply's sender, in the reply's thread.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AnswerMail {
    /// The reply's sender.
    pub to: String,
    /// The game and seat of the reply address, when the sender holds that seat.
    #[serde(default)]
    pub game_id: Option<Uuid>,
    #[serde(default)]
    pub seat: Option<i16>,
    /// The reply's `Message-ID` (`<...>`).
    #[serde(default)]
    pub in_reply_to: Option<String>,
    pub answer: Answer,
    pub message_id: String,
}

/// What a reply by mail came to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Answer {
    /// Played: the move's actions are the game's actions after number `after`.
    Played { line: String, after: i64 },
    /// Refused by the submission path (`code`: `stale_version`, `not_your_turn`,
    /// `illegal_action` with its `rule`, `validation_failed`, ...), or no move was found.
    Refused {
        line: Option<String>,
        code: String,
        rule: Option<String>,
        detail: String,
    },
    /// The mail may not move at all; the answer says why and nothing about any game.
    NotAllowed { why: NotAllowed },
}

/// Why a mail may not move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NotAllowed {
    /// The reply address is not one of ours (tampered, or its game is gone).
    UnknownAddress,
    /// The reply address has expired.
    Expired,
    /// The sender does not hold the seat of the reply address.
    OtherSeat,
    /// A forwarded mail, even from the seat's own address.
    Forwarded,
}

impl BackgroundJob for AnswerMail {
    const KIND: &'static str = "email.answer";
    fn run(&self, env: &Env, conn: &mut PgConnection) -> Result<(), JobError> {
        deliver(
            env,
            conn,
            Self::KIND,
            |c, ctx| gather::answer(c, ctx, self),
            |answer| compose::answer::answer(answer, self.in_reply_to.as_deref()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Rows written before these types (and by SQL) still read.
    #[test]
    fn stored_payloads_read_as_their_jobs() {
        let game = Uuid::nil();
        let turn: TurnMail = serde_json::from_value(
            json!({"game_id": game, "seat": 1, "version": 4, "upto": 3, "message_id": "m"}),
        )
        .unwrap();
        assert_eq!((turn.seat, turn.upto), (1, 3));
        let over: GameOverMail =
            serde_json::from_value(json!({"game_id": game, "seat": 0, "message_id": "m"})).unwrap();
        assert_eq!(over.version, 0);
        let job = TurnMail { version: 5, ..turn }.job();
        assert_eq!(job.kind, "email.turn");
        assert_eq!(job.payload["upto"], 3);
    }
}
