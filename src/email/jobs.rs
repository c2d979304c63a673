//! The mail jobs: each payload is its job ([`BackgroundJob`]), written where the change that
//! causes it is stored (`services::notifications`) and run by the worker, which composes the
//! mail from what the recipient may see now and sends it.

use super::compose::{self, Mail};
use super::gather::{self, Context, GameMail, SignInLink};
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

/// A one-time sign-in link (the `email_links` row `link_id`), asked for an address that may or
/// may not have an account: the row says which, and only an account is mailed. (Rows written
/// before also carry a `user_id`, which the row's own makes redundant.)
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SignInMail {
    pub link_id: Uuid,
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

/// A mail job: it gathers what its mail says from what the recipient may see now and writes
/// the mail (`None`: no longer due); running it sends that mail.
pub trait MailJob: Serialize + serde::de::DeserializeOwned {
    /// The stored `jobs.kind`.
    const KIND: &'static str;

    /// The mail to send now, if it is still due.
    ///
    /// # Errors
    /// As a job's.
    fn mail(&self, conn: &mut PgConnection, ctx: &Context) -> Result<Option<Mail>, JobError>;
}

impl<M: MailJob> BackgroundJob for M {
    const KIND: &'static str = M::KIND;

    fn run(&self, env: &Env, conn: &mut PgConnection) -> Result<(), JobError> {
        let mail = self.mail(conn, env.sender.context())?;
        env.sender.send(mail, Self::KIND)
    }
}

/// The part every game mail's job shares.
fn game_mail(game_id: Uuid, seat: i16, message_id: &str) -> GameMail<'_> {
    GameMail {
        game_id,
        seat,
        upto: 0,
        version: 0,
        message_id,
    }
}

impl MailJob for InvitationMail {
    const KIND: &'static str = "email.invitation";
    fn mail(&self, c: &mut PgConnection, ctx: &Context) -> Result<Option<Mail>, JobError> {
        let p = game_mail(self.game_id, self.seat, &self.message_id);
        Ok(gather::invitation(c, ctx, &p)?.map(|v| compose::invitation::invitation(&v)))
    }
}

impl MailJob for TurnMail {
    const KIND: &'static str = "email.turn";
    fn mail(&self, c: &mut PgConnection, ctx: &Context) -> Result<Option<Mail>, JobError> {
        let p = GameMail {
            upto: self.upto,
            version: self.version,
            ..game_mail(self.game_id, self.seat, &self.message_id)
        };
        Ok(gather::turn(c, ctx, &p)?.map(|v| compose::turn::turn(&v)))
    }
}

impl MailJob for GameOverMail {
    const KIND: &'static str = "email.game_over";
    fn mail(&self, c: &mut PgConnection, ctx: &Context) -> Result<Option<Mail>, JobError> {
        let p = game_mail(self.game_id, self.seat, &self.message_id);
        Ok(gather::game_over(c, ctx, &p)?.map(|v| compose::game_over::game_over(&v)))
    }
}

impl BackgroundJob for SignInMail {
    const KIND: &'static str = "email.sign_in";

    fn run(&self, env: &Env, conn: &mut PgConnection) -> Result<(), JobError> {
        match gather::sign_in(conn, env.sender.context(), self)? {
            Some(SignInLink::Account(v)) => env
                .sender
                .send(Some(compose::account::sign_in(&v)), Self::KIND),
            // Written in full, as for an account, so that the worker is as busy either way up to
            // the sending, which only the address's owner would see.
            Some(SignInLink::NoAccount(v)) => env
                .sender
                .discard(&compose::account::sign_in(&v), Self::KIND),
            None => env.sender.send(None, Self::KIND),
        }
    }
}

impl MailJob for SignUpMail {
    const KIND: &'static str = "email.sign_up";
    fn mail(&self, c: &mut PgConnection, ctx: &Context) -> Result<Option<Mail>, JobError> {
        Ok(gather::sign_up(c, ctx, self)?.map(|v| compose::account::sign_up(&v)))
    }
}

impl MailJob for DigestMail {
    const KIND: &'static str = "email.digest";
    fn mail(&self, c: &mut PgConnection, ctx: &Context) -> Result<Option<Mail>, JobError> {
        Ok(gather::digest(c, ctx, self)?.map(|v| compose::digest::digest(&v)))
    }
}

impl MailJob for ReminderMail {
    const KIND: &'static str = "email.reminder";
    fn mail(&self, c: &mut PgConnection, ctx: &Context) -> Result<Option<Mail>, JobError> {
        // The clients' event too (design.md section 17), whatever the mail settings.
        crate::services::events::deadline_soon(
            c,
            crate::domain::GameId(self.game_id),
            self.seat,
            self.pending_since,
        )
        .map_err(|e| JobError::Retry(e.to_string()))?;
        Ok(gather::reminder(c, ctx, self)?.map(|v| compose::reminders::reminder(&v)))
    }
}

impl MailJob for VacationMail {
    const KIND: &'static str = "email.vacation";
    fn mail(&self, c: &mut PgConnection, ctx: &Context) -> Result<Option<Mail>, JobError> {
        Ok(gather::vacation(c, ctx, self)?.map(|v| compose::reminders::vacation(&v)))
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

impl MailJob for DeclinedMail {
    const KIND: &'static str = "email.declined";
    fn mail(&self, c: &mut PgConnection, ctx: &Context) -> Result<Option<Mail>, JobError> {
        Ok(gather::declined(c, ctx, self)?.map(|v| compose::declined::declined(&v)))
    }
}

/// An address is invited to enter a competition.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CompetitionInvitationMail {
    pub competition_id: Uuid,
    pub email: String,
    pub message_id: String,
}

impl MailJob for CompetitionInvitationMail {
    const KIND: &'static str = "email.competition_invitation";
    fn mail(&self, c: &mut PgConnection, ctx: &Context) -> Result<Option<Mail>, JobError> {
        Ok(gather::competition_invitation(c, ctx, self)?
            .map(|v| compose::competition::invitation(&v)))
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

impl MailJob for PairingMail {
    const KIND: &'static str = "email.pairing";
    fn mail(&self, c: &mut PgConnection, ctx: &Context) -> Result<Option<Mail>, JobError> {
        Ok(gather::pairing(c, ctx, self)?.map(|v| compose::competition::pairing(&v)))
    }
}

/// A webhook was disabled after 3 days of failed deliveries: to its owner.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WebhookDisabledMail {
    pub webhook_id: Uuid,
    pub message_id: String,
}

impl MailJob for WebhookDisabledMail {
    const KIND: &'static str = "email.webhook_disabled";
    fn mail(&self, c: &mut PgConnection, ctx: &Context) -> Result<Option<Mail>, JobError> {
        Ok(gather::webhook_disabled(c, ctx, self)?.map(|v| compose::webhook::disabled(&v)))
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

impl MailJob for AnswerMail {
    const KIND: &'static str = "email.answer";
    fn mail(&self, c: &mut PgConnection, ctx: &Context) -> Result<Option<Mail>, JobError> {
        Ok(gather::answer(c, ctx, self)?
            .map(|answer| compose::answer::answer(&answer, self.in_reply_to.as_deref())))
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
        // Sign-in jobs queued before every request had one named the account too.
        let sign_in: SignInMail =
            serde_json::from_value(json!({"link_id": game, "user_id": game, "message_id": "m"}))
                .unwrap();
        assert_eq!(
            sign_in.job().payload,
            json!({"link_id": game, "message_id": "m"})
        );
    }
}
