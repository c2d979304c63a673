//! Moves by email (design.md section 18): a reply to a turn mail, received by the SMTP/LMTP
//! listener or `POST /api/v1/inbound-mail`, is read ([`crate::email::inbound`]), its reply
//! address and sender checked, and its move submitted through the one submission path
//! ([`games::submit`]: version check, rules, the same mails to the opponents). The sender gets an
//! answer in the reply's thread (an [`AnswerMail`] job written in the same transaction).
//!
//! What never plays: a machine's mail (auto-replies, bounces, lists: never answered either, so
//! no loop), a mail whose sender does not hold the seat of its reply address, an expired or
//! unknown address, a forwarded mail. Those get at most one polite answer per address a day;
//! every address gets at most [`ANSWERS_PER_HOUR`] answers an hour.
//!
//! Idempotent on the Message-ID: an `inbound_mails` row per sender and Message-ID is claimed in
//! the transaction that plays, so a message delivered twice plays (and is answered) once.
//!
//! Never logs a token, an address's token or the message: ids and outcomes only.

use super::games::{self, Mode, Submission};
use crate::auth::links::{LinkError, LinkKeys};
use crate::domain::{GameId, UserId};
use crate::email::compose::{MOVES_LISTED, numbered_these};
use crate::email::inbound::{self, Reply};
use crate::email::jobs::{Answer, AnswerMail, NotAllowed};
use crate::error::ApiError;
use crate::jobs::{self, BackgroundJob};
use crate::schema::{game_seats, games as games_table, users};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Nullable, SmallInt, Text};
use serde_json::json;
use sha2::{Digest, Sha256};
use uuid::Uuid;

/// Answers to mails that did not play one address gets at most in an hour (a played move is
/// always answered: moves cannot loop, the game moves on).
pub const REFUSALS_PER_HOUR: i64 = 20;

/// The longest Message-ID an answer is threaded under: its `In-Reply-To` and `References` lines
/// must stay within RFC 5322's 998 characters, and real ids are far shorter.
const MAX_THREADED_ID: usize = 900;

/// The largest message read (replies are short; attachments are not read).
pub const MAX_MESSAGE_BYTES: usize = 10 * 1024 * 1024;

/// What reading replies needs: the link keys (reply tokens are signed with them) and our domain.
#[derive(Clone)]
pub struct Inbox {
    pub links: LinkKeys,
    /// `MAIL_DOMAIN`: only reply addresses at it are read (any domain when unset).
    pub domain: Option<String>,
    /// How long a reply address is valid (`PLAY_LINK_TTL`): its expiry less this is when its
    /// mail was written.
    pub reply_ttl_s: i64,
}

/// The SMTP envelope of a message that came in by SMTP or LMTP.
#[derive(Debug, Clone, Default)]
pub struct Envelope {
    /// The reverse path; empty for the null sender `<>` (a bounce).
    pub mail_from: String,
    pub recipients: Vec<String>,
}

/// What became of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = InboundMailOutcome)]
pub enum Outcome {
    /// The move was played.
    Played,
    /// The move was refused (stale, not the seat's turn, illegal, unreadable, none found).
    Refused,
    /// The mail may not move (another address than the seat's, an expired or unknown reply
    /// address, a forwarded mail).
    NotAllowed,
    /// Not for us, or sent by a machine (auto-reply, bounce, list): nothing done, no answer.
    Ignored,
    /// This message was read before: nothing done again.
    Duplicate,
}

impl Outcome {
    fn as_str(self) -> &'static str {
        match self {
            Outcome::Played => "played",
            Outcome::Refused => "refused",
            Outcome::NotAllowed => "not_allowed",
            Outcome::Ignored => "ignored",
            Outcome::Duplicate => "duplicate",
        }
    }
}

/// Whether an address is a reply address we read (for the SMTP listener's `RCPT TO`).
pub fn accepts_recipient(inbox: &Inbox, address: &str) -> bool {
    inbound::reply_token(address, inbox.domain.as_deref()).is_some()
}

/// Reads one received message and does what it says (see the module documentation).
///
/// # Errors
/// 422 `validation_failed` when `raw` is not a message, or (without an envelope) not addressed
/// to a reply address; 413 beyond [`MAX_MESSAGE_BYTES`]; database failures (then nothing was
/// done, and the message may be delivered again).
pub fn receive(
    conn: &mut PgConnection,
    inbox: &Inbox,
    raw: &[u8],
    envelope: Option<&Envelope>,
) -> Result<Outcome, ApiError> {
    if raw.len() > MAX_MESSAGE_BYTES {
        return Err(ApiError::PayloadTooLarge {
            limit: MAX_MESSAGE_BYTES,
        });
    }
    let reply = inbound::read(raw).ok_or_else(|| {
        ApiError::Validation("the body is not an RFC 5322 message (no header)".to_owned())
    })?;
    let addresses = envelope.map_or(&reply.recipients, |e| &e.recipients);
    let Some(token) = addresses
        .iter()
        .find_map(|a| inbound::reply_token(a, inbox.domain.as_deref()))
    else {
        // Over SMTP the envelope was checked at `RCPT TO`; over HTTP this is not our mail.
        if envelope.is_some() {
            return Ok(Outcome::Ignored);
        }
        return Err(ApiError::Validation(
            "the message is not addressed to a reply address of this server (play+…@MAIL_DOMAIN)"
                .to_owned(),
        ));
    };
    let bounce = envelope.is_some_and(|e| e.mail_from.trim().trim_matches(['<', '>']).is_empty());
    if let Some(why) = reply.automatic.or(bounce.then_some("null sender")) {
        tracing::info!(
            why,
            "automatic mail to a reply address: not read, not answered"
        );
        return Ok(Outcome::Ignored);
    }
    let Some(sender) = reply.from.clone().filter(|f| f.contains('@')) else {
        return Ok(Outcome::Ignored);
    };
    // Our own mail coming back (a misrouted answer) is never answered.
    let sender_domain = sender.rsplit_once('@').map_or("", |(_, d)| d);
    if inbox
        .domain
        .as_deref()
        .is_some_and(|d| crate::domain::same_domain(sender_domain, d))
    {
        return Ok(Outcome::Ignored);
    }
    // No address, Message-ID or move has a NUL, and PostgreSQL text cannot store one: refused
    // for good (SMTP 554, not a "try again later" the relay would repeat for days), and never
    // answered, since its sender may not be who it says. After the machines' mail above, which
    // is ignored as always (a 554 would make their relay bounce it).
    let nul = |field: &Option<String>| field.as_deref().is_some_and(|f| f.contains('\0'));
    if nul(&reply.from) || nul(&reply.message_id) || nul(&reply.line) {
        return Err(ApiError::Validation(
            "the message has a NUL character in its sender, its Message-ID or its move".to_owned(),
        ));
    }
    let message_id = message_key(&reply, raw);
    let grant = inbox
        .links
        .verify_reply_token_expiring(&token)
        .map(|(grant, expiry)| (grant, expiry - chrono::Duration::seconds(inbox.reply_ttl_s)));
    let outcome = conn.transaction(|conn| -> Result<Outcome, ApiError> {
        if !claim(conn, &sender, &message_id)? {
            return Ok(Outcome::Duplicate);
        }
        let read = Read {
            sender: &sender,
            reply: &reply,
            links: &inbox.links,
        };
        let (outcome, game, answer) = match grant {
            Err(LinkError::Expired) => read.not_allowed(NotAllowed::Expired),
            Err(_) => read.not_allowed(NotAllowed::UnknownAddress),
            Ok((grant, written)) => read.play(conn, grant, written)?,
        };
        let answered = match answer {
            Some(answer) if may_answer(conn, &sender, &answer)? => {
                let (game_id, seat) = game.map_or((None, None), |(g, s)| (Some(g), Some(s)));
                let job = AnswerMail {
                    to: sender.clone(),
                    game_id,
                    seat,
                    // Threaded under the reply, unless its id is too long for a header line.
                    in_reply_to: reply
                        .message_id
                        .clone()
                        .filter(|id| id.len() <= MAX_THREADED_ID),
                    answer,
                    message_id: crate::email::jobs::message_id(),
                }
                .job();
                jobs::enqueue(conn, &[job])?;
                true
            }
            _ => false,
        };
        diesel::sql_query(
            "UPDATE inbound_mails SET outcome = $3, answered = $4, game_id = $5::uuid, seat = $6 \
             WHERE sender = $1 AND message_id = $2",
        )
        .bind::<Text, _>(&sender)
        .bind::<Text, _>(&message_id)
        .bind::<Text, _>(outcome.as_str())
        .bind::<diesel::sql_types::Bool, _>(answered)
        .bind::<Nullable<Text>, _>(game.map(|(g, _)| g.to_string()))
        .bind::<Nullable<SmallInt>, _>(game.map(|(_, s)| s))
        .execute(conn)?;
        tracing::info!(
            game.id = game.map(|(g, _)| g.to_string()),
            seat = game.map(|(_, s)| s),
            outcome = outcome.as_str(),
            answered,
            "mail reply read"
        );
        Ok(outcome)
    })?;
    jobs::wake();
    Ok(outcome)
}

/// The key a message is known by: its Message-ID, or the digest of its bytes without one (or
/// with an absurdly long one).
fn message_key(reply: &Reply, raw: &[u8]) -> String {
    match &reply.message_id {
        Some(id) if id.len() <= 250 => id.clone(),
        Some(id) => format!("<sha256:{}>", hex::encode(Sha256::digest(id.as_bytes()))),
        None => format!("<sha256:{}>", hex::encode(Sha256::digest(raw))),
    }
}

/// Claims the message for this transaction; `false` when it was read before.
fn claim(conn: &mut PgConnection, sender: &str, message_id: &str) -> QueryResult<bool> {
    let inserted = diesel::sql_query(
        "INSERT INTO inbound_mails (sender, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
    )
    .bind::<Text, _>(sender)
    .bind::<Text, _>(message_id)
    .execute(conn)?;
    Ok(inserted == 1)
}

#[derive(QueryableByName)]
struct Answered {
    #[diesel(sql_type = BigInt)]
    hour: i64,
    #[diesel(sql_type = BigInt)]
    polite: i64,
}

/// Whether `sender` may get this answer: always for a played move; else at most
/// [`REFUSALS_PER_HOUR`] answers an hour to mails that did not play, and at most one a day to a
/// mail that may not move.
fn may_answer(conn: &mut PgConnection, sender: &str, answer: &Answer) -> QueryResult<bool> {
    if matches!(answer, Answer::Played { .. }) {
        return Ok(true);
    }
    let counts: Answered = diesel::sql_query(
        "SELECT count(*) FILTER (WHERE received_at > now() - interval '1 hour') AS hour, \
                count(*) FILTER (WHERE outcome = 'not_allowed') AS polite \
         FROM inbound_mails \
         WHERE sender = $1 AND answered AND outcome <> 'played' \
           AND received_at > now() - interval '1 day'",
    )
    .bind::<Text, _>(sender)
    .get_result(conn)?;
    let polite = matches!(answer, Answer::NotAllowed { .. });
    Ok(counts.hour < REFUSALS_PER_HOUR && !(polite && counts.polite > 0))
}

/// A reply being read.
struct Read<'a> {
    sender: &'a str,
    reply: &'a Reply,
    /// The keys reply tokens and numbered lists are signed with.
    links: &'a LinkKeys,
}

/// What a reply came to: the outcome, the game and seat it concerns (when the sender holds
/// the seat), and the answer to send.
type Decision = (Outcome, Option<(Uuid, i16)>, Option<Answer>);

impl Read<'_> {
    fn not_allowed(&self, why: NotAllowed) -> Decision {
        (Outcome::NotAllowed, None, Some(Answer::NotAllowed { why }))
    }

    /// Checks the sender against the seat of the reply address, then submits the move line.
    fn play(
        &self,
        conn: &mut PgConnection,
        grant: crate::auth::links::ReplyGrant,
        written: chrono::DateTime<chrono::Utc>,
    ) -> Result<Decision, ApiError> {
        let holder: Option<(Uuid, String)> = game_seats::table
            .inner_join(users::table)
            .filter(game_seats::game_id.eq(grant.game.0))
            .filter(game_seats::seat.eq(grant.seat))
            .select((users::id, users::email))
            .first(conn)
            .optional()?;
        let Some((user, email)) = holder else {
            return Ok(self.not_allowed(NotAllowed::UnknownAddress));
        };
        // The actions stored before this move: the answer reports those after.
        let action_count: i64 = games_table::table
            .find(grant.game.0)
            .select(games_table::action_count)
            .first(conn)?;
        // Compared as accounts store addresses: a UTF-8 address (SMTPUTF8) in any Unicode
        // form, its domain in Unicode or `xn--` labels.
        if !crate::domain::same_mailbox(&email, self.sender) {
            return Ok(self.not_allowed(NotAllowed::OtherSeat));
        }
        let game = Some((grant.game.0, grant.seat));
        if self.reply.forwarded {
            let why = NotAllowed::Forwarded;
            return Ok((Outcome::NotAllowed, game, Some(Answer::NotAllowed { why })));
        }
        let line = self.reply.line.clone();
        let actions = line.as_deref().map(inbound::actions).unwrap_or_default();
        if actions.is_empty() {
            let answer = Answer::Refused {
                line,
                code: "no_move".to_owned(),
                rule: None,
                detail: "no move was found in the reply".to_owned(),
            };
            return Ok((Outcome::Refused, game, Some(answer)));
        }
        let line = line.unwrap_or_default();
        // The move line, or when it is no move at all (a greeting above the move), one of the
        // next lines; the refusal reported is the first that is not about reading the line.
        let mut refused: Option<(String, Vec<String>, ApiError)> = None;
        let lines = std::iter::once(line).chain(self.reply.more_lines.iter().cloned());
        for line in lines {
            let actions = inbound::actions(&line);
            if actions.is_empty() {
                continue;
            }
            let (line, actions) =
                match numbered(conn, self, UserId(user), grant, written, &line, actions) {
                    Ok(read) => read,
                    Err(e @ (ApiError::Internal(_) | ApiError::Unavailable(_))) => return Err(e),
                    // A number was meant as the move: its refusal is the answer.
                    Err(e) => {
                        refused = Some((line.clone(), vec![line], e));
                        break;
                    }
                };
            match submit(conn, UserId(user), grant, written, &actions) {
                Ok(()) => {
                    // A reply to our mail: mail reaches this account.
                    crate::services::accounts::address_works(conn, UserId(user))?;
                    let answer = Answer::Played {
                        line,
                        after: action_count,
                    };
                    return Ok((Outcome::Played, game, Some(answer)));
                }
                Err(e @ (ApiError::Internal(_) | ApiError::Unavailable(_))) => return Err(e),
                // A line whose first action cannot be read may be a greeting: the next line is
                // tried. A refusal further on is the answer.
                Err(e @ ApiError::InvalidAction { index: 0, .. }) => {
                    refused.get_or_insert((line, actions, e));
                }
                Err(e) => {
                    refused = Some((line, actions, e));
                    break;
                }
            }
        }
        let Some((line, actions, e)) = refused else {
            return Err(ApiError::internal(anyhow::anyhow!(
                "a reply's move line had actions and was neither played nor refused"
            )));
        };
        let problem = e.problem();
        let answer = Answer::Refused {
            line: Some(line),
            code: problem.code.as_str().to_owned(),
            rule: problem.rule,
            detail: which_move(&actions, problem.index, &problem.detail),
        };
        Ok((Outcome::Refused, game, Some(answer)))
    }
}

/// A move given by its number in the mail's list (`3`, `3.`, `#3`): the seat's legal move of
/// that number (1 the first) in the position the mail showed, read only while the game is still
/// there, or while the seat still has the mail's decision before it with the same list (see
/// [`same_list`]); returned as the line to report (`3. B:4VL@b+V+L3`) and the action to play. A
/// move copied with its number (`3. B:4VL@b+V+L3`) is the move after the number. Other lines
/// are left as they are.
fn numbered(
    conn: &mut PgConnection,
    read: &Read<'_>,
    user: UserId,
    grant: crate::auth::links::ReplyGrant,
    written: chrono::DateTime<chrono::Utc>,
    line: &str,
    actions: Vec<String>,
) -> Result<(String, Vec<String>), ApiError> {
    let actions: Vec<String> = actions
        .iter()
        .map(|a| inbound::without_number(a).to_owned())
        .collect();
    let n = match actions.as_slice() {
        [only] => inbound::list_number(only),
        _ => None,
    };
    let Some(n) = n else {
        return Ok((line.to_owned(), actions));
    };
    let refuse = |detail: String| ApiError::InvalidAction {
        detail: format!("action 0: {detail}"),
        index: 0,
    };
    let game = games::get(conn, Some(user), GameId(grant.game.0))?;
    // Only the moves the mail showed have numbers.
    let listed: Vec<String> = game
        .legal_actions
        .iter()
        .take(MOVES_LISTED)
        .filter_map(|raw| serde_json::from_str::<serde_json::Value>(raw.get()).ok())
        .filter_map(|a| a["notation"].as_str().map(str::to_owned))
        .collect();
    // The numbers are those of the mail's list: on another position, refused as stale (the
    // answer lists the moves now, numbered afresh) unless they still mean the same moves.
    if game.version != grant.version
        && !same_list(conn, read.links, grant, written, read.reply, &listed)?
    {
        return Err(ApiError::StaleVersion {
            current: game.version,
            expected: grant.version,
        });
    }
    let notation = n.checked_sub(1).and_then(|i| listed.get(i)).cloned();
    let listed = listed.len();
    match notation {
        Some(m) => Ok((format!("{n}. {m}"), vec![m])),
        None if listed == 0 => Err(refuse(format!(
            "there is no move {n}: you have no move to make now"
        ))),
        None => Err(refuse(format!(
            "there is no move {n}: the mail numbered its moves from 1 to {listed}"
        ))),
    }
}

/// Whether a reply's numbers, read on a position newer than its mail's, still mean the moves
/// the mail numbered: the seat still has the mail's decision before it ([`still_deciding`]:
/// only others have acted, as in a vote taken by several at once) and the mail it answers
/// (`In-Reply-To`) numbered exactly the moves listed now, which its `Message-ID` tells. A
/// reply without `In-Reply-To` is read as before: stale.
fn same_list(
    conn: &mut PgConnection,
    links: &LinkKeys,
    grant: crate::auth::links::ReplyGrant,
    written: chrono::DateTime<chrono::Utc>,
    reply: &Reply,
    listed: &[String],
) -> Result<bool, ApiError> {
    let Some(answered) = reply.replied_to.as_deref() else {
        return Ok(false);
    };
    let tag = links.list_tag(grant, listed);
    Ok(numbered_these(answered, &tag) && still_deciding(conn, grant, written)?)
}

/// Submits a reply's actions for the seat of `grant`. A reply whose game moved on since its mail
/// plays on the position now while the seat still has its mail's decision before it
/// ([`still_deciding`]).
fn submit(
    conn: &mut PgConnection,
    user: UserId,
    grant: crate::auth::links::ReplyGrant,
    written: chrono::DateTime<chrono::Utc>,
    actions: &[String],
) -> Result<(), ApiError> {
    let mut submission = Submission {
        expected_version: grant.version,
        actions: actions.iter().map(|a| json!({"notation": a})).collect(),
        // The mail's own rule (`still_deciding`) reads the time its mail was written.
        same_decision: false,
    };
    loop {
        // Moves by mail are few: they keep no state for the next move.
        let submitted = games::submit(
            conn,
            None,
            user,
            GameId(grant.game.0),
            &submission,
            None,
            Mode::Store,
        );
        match submitted {
            Ok(_) => return Ok(()),
            Err(ApiError::StaleVersion { current, .. })
                if current > submission.expected_version
                    && still_deciding(conn, grant, written)? =>
            {
                submission.expected_version = current;
            }
            Err(e) => return Err(e),
        }
    }
}

/// Whether the seat of `grant` still has before it the decision its mail (written at `written`,
/// or up to 4 ms later: a decision opened in those 4 ms is taken for a newer one) asked for,
/// though the game has moved on since: it is pending, and has been since before the mail was
/// written, without acting (acting starts a new decision). Only the other players have acted
/// meanwhile: in a decision taken by several at once (Lancaster's votes,
/// the ships of Merchants & Marauders) the others' sealed choices leave this one's reply as
/// meant, and the rules still check the move against the game as it is now.
fn still_deciding(
    conn: &mut PgConnection,
    grant: crate::auth::links::ReplyGrant,
    written: chrono::DateTime<chrono::Utc>,
) -> Result<bool, ApiError> {
    let since: Option<Option<chrono::DateTime<chrono::Utc>>> = game_seats::table
        .filter(game_seats::game_id.eq(grant.game.0))
        .filter(game_seats::seat.eq(grant.seat))
        .filter(game_seats::is_pending)
        .select(game_seats::pending_since)
        .first(conn)
        .optional()?;
    Ok(since.flatten().is_some_and(|t| t <= written))
}

/// A refusal's detail as a player reads it in a mail: the API's "action 2: " (counted from 0,
/// as its `index`) becomes the move itself, quoted, when the reply held several, and goes when
/// it held one.
fn which_move(actions: &[String], index: Option<usize>, detail: &str) -> String {
    let Some(index) = index else {
        return detail.to_owned();
    };
    let detail = detail
        .strip_prefix(&format!("action {index}: "))
        .unwrap_or(detail);
    match actions.get(index) {
        Some(action) if actions.len() > 1 => format!("\u{201c}{action}\u{201d}: {detail}"),
        _ => detail.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::which_move;

    #[test]
    fn a_refusal_names_the_move_of_several_that_failed_not_its_index() {
        let moves = vec!["S:1Y".to_owned(), "X:9".to_owned()];
        assert_eq!(
            which_move(&moves, Some(1), "action 1: cannot read \"X:9\""),
            "\u{201c}X:9\u{201d}: cannot read \"X:9\""
        );
        assert_eq!(
            which_move(&moves[..1], Some(0), "action 0: a rule says no"),
            "a rule says no"
        );
        assert_eq!(
            which_move(&moves, None, "the game is over"),
            "the game is over"
        );
    }
}
