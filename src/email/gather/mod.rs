//! Gathering what a mail says: the service step of every mail job. It reads, inside the
//! worker's transaction, what the recipient may see now (their seat's view, the events whose
//! audience admits them, the names at the table, their preferences), signs the links and
//! tokens, and decides whether the mail is still due. The result is a plain value that
//! [`super::compose`] writes as a mail without touching the database.
//!
//! A gathering function answers `None` when there is nothing to send (the recipient opted out,
//! already acted, the game ended...).

mod account;
mod answer;
mod competition;
mod game;
mod webhook;

pub use account::{SignInLink, digest, sign_in, sign_up};
pub use answer::answer;
pub use competition::{competition_invitation, pairing};
pub use game::{declined, game_over, invitation, reminder, turn, vacation};
pub use webhook::webhook_disabled;

use super::compose::{ByMail, MOVES_LISTED, Recipient, SeatEnd, SeatMail, Table};
use crate::auth::links::{LinkKeys, PlayGrant, ReplyGrant};
use crate::config::Settings;
use crate::domain::{GameId, Locale, UserId};
use crate::engine::registry::{AnyState, GameKind};
use crate::engine::{Audience, Seat, Viewer};
use crate::jobs::JobError;
use crate::models::{Game, User};
use crate::schema::{game_seats, games, users};
use crate::services::notifications::{self, Mode};
use diesel::prelude::*;
use lettre::message::Mailbox;
use serde_json::Value;
use uuid::Uuid;

/// What every mail needs to know about the server.
pub struct Context {
    pub public_url: String,
    /// The right-hand side of our `Message-ID`s.
    pub domain: String,
    pub from: Mailbox,
    pub links: LinkKeys,
    pub play_link_ttl_s: i64,
    /// `MAIL_DOMAIN`: turn mails carry a reply address at it (moves by email).
    pub mail_domain: Option<String>,
}

impl Context {
    pub fn new(settings: &Settings) -> Context {
        let public_url = settings.http.public_url.clone();
        let host = public_url
            .split("://")
            .nth(1)
            .unwrap_or("")
            .split(['/', ':'])
            .next()
            .unwrap_or("");
        let domain = if !host.is_empty()
            && host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
        {
            host.to_owned()
        } else {
            "herald.invalid".to_owned()
        };
        let from = settings.email.from.parse().unwrap_or_else(|_| {
            Mailbox::new(
                None,
                lettre::Address::new("herald", "localhost")
                    .unwrap_or_else(|_| unreachable_address()),
            )
        });
        Context {
            public_url,
            domain,
            from,
            links: LinkKeys::new(&settings.auth.jwt_secret),
            play_link_ttl_s: settings.email.play_link_ttl_s,
            mail_domain: settings.inbound.mail_domain.clone(),
        }
    }

    /// `play+<token>@MAIL_DOMAIN` for a move of `grant`'s seat, when moves by email are on.
    fn reply_address(&self, grant: ReplyGrant) -> Option<String> {
        let domain = self.mail_domain.as_ref()?;
        let token = self.links.reply_token(grant, self.play_link_ttl_s);
        Some(format!("play+{token}@{domain}"))
    }

    fn play_url(&self, grant: PlayGrant) -> String {
        let token = self.links.play_link(grant, self.play_link_ttl_s);
        format!("{}/play/{}?t={token}", self.public_url, grant.game)
    }

    fn invite_url(&self, game: GameId, seat: i16, email: &str) -> String {
        let token = self
            .links
            .invite_link(game, seat, email, self.play_link_ttl_s);
        format!("{}/invitations/{game}?t={token}", self.public_url)
    }

    /// The rules page of `kind` in `locale`.
    fn rules_url(&self, kind: GameKind, locale: Locale) -> String {
        format!(
            "{}/rules/{}?lang={}",
            self.public_url,
            kind.as_str(),
            locale.as_str()
        )
    }

    fn unsubscribe_url(&self, token: &str) -> String {
        format!("{}/unsubscribe/{token}", self.public_url)
    }
}

#[allow(clippy::expect_used, reason = "a constant, valid address")]
fn unreachable_address() -> lettre::Address {
    "herald@localhost".parse().expect("a valid address")
}

/// The game mails' common part of their jobs.
pub struct GameMail<'a> {
    pub game_id: Uuid,
    pub seat: i16,
    /// Turn mails: the last action the mail reports.
    pub upto: i64,
    /// Turn mails: the game's version after the change that made the seat pending.
    pub version: i64,
    pub message_id: &'a str,
}

fn db(e: impl std::fmt::Display) -> JobError {
    JobError::Retry(format!("database: {e}"))
}

impl Recipient {
    /// An account, in its language and time zone.
    fn account(user: &User) -> Recipient {
        Recipient {
            email: user.email.clone(),
            name: user.display_name.clone(),
            locale: Locale::from_db(&user.locale),
            time_zone: user.time_zone.clone(),
        }
    }

    /// An address without an account (or that of an account, if it has one).
    fn address(email: &str, account: Option<&User>, locale: Locale) -> Recipient {
        account.map_or_else(
            || Recipient {
                email: email.to_owned(),
                name: email.to_owned(),
                locale,
                time_zone: "UTC".to_owned(),
            },
            Recipient::account,
        )
    }
}

/// The account of an address, if it has one.
fn account_of(conn: &mut PgConnection, email: &str) -> Result<Option<User>, JobError> {
    users::table
        .filter(users::email.eq(email))
        .select(User::as_select())
        .first(conn)
        .optional()
        .map_err(db)
}

fn user(conn: &mut PgConnection, id: Uuid) -> Result<Option<User>, JobError> {
    users::table
        .find(id)
        .select(User::as_select())
        .first(conn)
        .optional()
        .map_err(db)
}

/// A game as its mails read it: the stored row, and its table.
struct Loaded {
    game: Game,
    table: Table,
    /// Each seat's invited address and account.
    players: Vec<(i16, Option<String>, Option<User>)>,
}

impl Loaded {
    fn load(conn: &mut PgConnection, id: Uuid) -> Result<Option<Loaded>, JobError> {
        let game: Option<Game> = games::table
            .find(id)
            .select(Game::as_select())
            .first(conn)
            .optional()
            .map_err(db)?;
        let Some(game) = game else {
            return Ok(None);
        };
        let Some(kind) = GameKind::parse(&game.kind) else {
            return Err(JobError::Permanent(format!(
                "unknown game kind {}",
                game.kind
            )));
        };
        let rows: Vec<(i16, Option<String>, Option<User>)> = game_seats::table
            .left_join(users::table)
            .filter(game_seats::game_id.eq(id))
            .order(game_seats::seat)
            .select((
                game_seats::seat,
                game_seats::invited_email,
                Option::<User>::as_select(),
            ))
            .load(conn)
            .map_err(db)?;
        let count = rows.iter().map(|(s, _, _)| s + 1).max().unwrap_or(0);
        let seat_names = (0..count)
            .map(|s| match rows.iter().find(|(seat, _, _)| *seat == s) {
                Some((_, _, user)) => user
                    .as_ref()
                    .map_or_else(|| "?".to_owned(), |u| u.display_name.clone()),
                None => format!("#{s}"),
            })
            .collect();
        let seats = rows
            .iter()
            .map(|(seat, invited, user)| {
                let shown = match (user, invited) {
                    (Some(u), _) => u.display_name.clone(),
                    // Another invitee's address is theirs: masked (design.md section 19).
                    (None, Some(email)) => crate::services::games::mask_email(email),
                    (None, None) => "?".to_owned(),
                };
                (*seat, shown)
            })
            .collect();
        let table = Table {
            game: GameId(id),
            kind,
            seat_names,
            seats,
        };
        Ok(Some(Loaded {
            game,
            table,
            players: rows,
        }))
    }

    fn user_at(&self, seat: i16) -> Option<&User> {
        self.players
            .iter()
            .find(|(s, _, _)| *s == seat)
            .and_then(|(_, _, user)| user.as_ref())
    }

    fn invited_at(&self, seat: i16) -> Option<&str> {
        self.players
            .iter()
            .find(|(s, _, _)| *s == seat)
            .and_then(|(_, invited, _)| invited.as_deref())
    }

    fn state(&self) -> Result<Option<AnyState>, JobError> {
        match &self.game.state {
            None => Ok(None),
            Some(state) => self
                .table
                .kind
                .load(&state.0)
                .map(Some)
                .map_err(|e| JobError::Permanent(format!("unreadable state: {e}"))),
        }
    }

    /// The game `id` and the account seated at `seat`, when the game's status is `status` (any
    /// with `None`) and the account wants this mail by its preference (`wants`).
    fn seated(
        conn: &mut PgConnection,
        id: Uuid,
        seat: i16,
        status: Option<&str>,
        wants: fn(Mode) -> bool,
    ) -> Result<Option<(Loaded, User)>, JobError> {
        let Some(game) = Loaded::load(conn, id)? else {
            return Ok(None);
        };
        if status.is_some_and(|status| game.game.status != status) {
            return Ok(None);
        }
        let Some(user) = game.user_at(seat).cloned() else {
            return Ok(None);
        };
        let mode = notifications::mode(conn, UserId(user.id)).map_err(db)?;
        Ok(wants(mode).then_some((game, user)))
    }

    /// What a mail to `user` about their `seat` knows, ending with the one-tap link, the
    /// unsubscribe link and the rules page.
    fn seat_mail(
        self,
        conn: &mut PgConnection,
        ctx: &Context,
        user: &User,
        seat: i16,
        message_id: &str,
    ) -> Result<SeatMail, JobError> {
        let to = Recipient::account(user);
        let end = SeatEnd {
            play_url: ctx.play_url(PlayGrant {
                user: UserId(user.id),
                game: self.table.game,
                seat,
            }),
            unsubscribe_url: unsubscribe_url(conn, ctx, UserId(user.id))?,
            rules_url: ctx.rules_url(self.table.kind, to.locale),
        };
        Ok(SeatMail {
            to,
            table: self.table,
            seat,
            end,
            message_id: message_id.to_owned(),
        })
    }

    /// Moves by email: when `MAIL_DOMAIN` is set and `seat` is pending, the reply address for a
    /// move on the game's current version and the seat's legal moves in notation.
    fn by_mail(&self, ctx: &Context, state: &AnyState, seat: i16) -> Option<ByMail> {
        let engine_seat = u8::try_from(seat).ok().map(Seat)?;
        if !state.pending().contains(engine_seat) {
            return None;
        }
        let grant = ReplyGrant {
            game: self.table.game,
            seat,
            version: self.game.version,
        };
        let address = ctx.reply_address(grant)?;
        let moves: Vec<String> = state
            .legal_actions(engine_seat)
            .iter()
            .filter_map(|a| a["notation"].as_str().map(str::to_owned))
            .collect();
        let tag = ctx
            .links
            .list_tag(grant, moves.get(..MOVES_LISTED).unwrap_or(&moves));
        Some(ByMail {
            address,
            moves,
            tag,
        })
    }

    /// The events of actions `from..=to` that `seat` may see, in order.
    fn events_seen(
        &self,
        conn: &mut PgConnection,
        seat: i16,
        from: i64,
        to: i64,
    ) -> Result<Vec<Value>, JobError> {
        let viewer = viewer(seat);
        let events = crate::services::games::record::events(conn, self.table.game.0, from, to)
            .map_err(db)?;
        Ok(events
            .into_iter()
            .filter(|e| {
                serde_json::from_value::<Audience>(e.audience.clone())
                    .is_ok_and(|a| a.admits(viewer))
            })
            .map(|e| e.event)
            .collect())
    }
}

/// The engine's viewer of a stored seat.
fn viewer(seat: i16) -> Viewer {
    Viewer::Seat(Seat(u8::try_from(seat).unwrap_or(u8::MAX)))
}

/// The account's unsubscribe link (its token is made on first use).
fn unsubscribe_url(
    conn: &mut PgConnection,
    ctx: &Context,
    user: UserId,
) -> Result<String, JobError> {
    let token = notifications::unsubscribe_token(conn, user).map_err(db)?;
    Ok(ctx.unsubscribe_url(&token))
}
