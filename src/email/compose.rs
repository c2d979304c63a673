//! Composing mails from jobs: read what the recipient may see (their seat's view and the events
//! whose audience admits them), pick the words of their locale, add the links.
//!
//! Nothing here reads the full game state into a mail: the view is built for the recipient's
//! seat, events are filtered by audience, cards are written by code, and the seed appears only
//! once the game is over.

pub mod competition;
pub mod webhook;

use super::i18n;
use super::jobs::{
    Answer, AnswerMail, DeclinedMail, DigestMail, NotAllowed, ReminderMail, SignInMail, SignUpMail,
    VacationMail,
};
use crate::auth::links::{LinkKeys, PlayGrant, ReplyGrant};
use crate::config::Settings;
use crate::domain::{GameId, Locale, UserId};
use crate::engine::registry::{AnyState, GameKind};
use crate::engine::{Audience, Seat, Viewer};
use crate::jobs::JobError;
use crate::models::Game;
use crate::present::{Names, Sentence, join_names};
use crate::schema::{email_links, game_actions, game_events, game_seats, games, users};
use crate::services::notifications::{self, Mode};
use chrono::Utc;
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

    fn unsubscribe_url(&self, token: &str) -> String {
        format!("{}/unsubscribe/{token}", self.public_url)
    }
}

#[allow(clippy::expect_used, reason = "a constant, valid address")]
fn unreachable_address() -> lettre::Address {
    "herald@localhost".parse().expect("a valid address")
}

/// A composed mail, before headers and encoding.
#[derive(Debug, Clone)]
pub struct Mail {
    pub to_email: String,
    pub to_name: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// The left-hand side of the `Message-ID`, fixed when the job was created.
    pub message_id: String,
    /// The game whose thread this mail belongs to.
    pub thread: Option<GameId>,
    pub unsubscribe_url: Option<String>,
    /// The links in the mail (logged in file mode only).
    pub links: Vec<String>,
    /// `Reply-To`: the seat's reply address (moves by email).
    pub reply_to: Option<String>,
    /// The `Message-ID` of the mail this one answers (a reply by mail).
    pub in_reply_to: Option<String>,
    /// An automatic answer (`Auto-Submitted: auto-replied`, RFC 3834): answers to replies, so
    /// that no auto-responder answers them back.
    pub auto_replied: bool,
}

/// A mail's content, rendered to text and HTML alike.
struct Doc {
    locale: Locale,
    greeting: String,
    paragraphs: Vec<String>,
    list_heading: Option<String>,
    list: Vec<String>,
    after: Vec<String>,
    /// How to answer with a move, and the legal moves in notation (moves by email).
    moves_heading: Option<String>,
    moves: Vec<String>,
    /// The reply address the mail's `Reply-To` carries.
    reply_to: Option<String>,
    link: Option<(String, String)>,
    /// The game's rules page, after the link.
    rules: Option<String>,
    footer: Option<String>,
}

impl Doc {
    fn new(locale: Locale, name: &str) -> Doc {
        Doc {
            locale,
            greeting: i18n::fill(locale, &i18n::HELLO, &[("name", name)]),
            paragraphs: Vec::new(),
            list_heading: None,
            list: Vec::new(),
            after: Vec::new(),
            moves_heading: None,
            moves: Vec::new(),
            reply_to: None,
            link: None,
            rules: None,
            footer: None,
        }
    }

    fn text(&self) -> String {
        let mut out = vec![self.greeting.clone(), String::new()];
        for p in &self.paragraphs {
            out.push(p.clone());
            out.push(String::new());
        }
        if let Some(h) = &self.list_heading {
            out.push(h.clone());
        }
        for item in &self.list {
            out.push(format!("- {item}"));
        }
        if self.list_heading.is_some() || !self.list.is_empty() {
            out.push(String::new());
        }
        for p in &self.after {
            out.push(p.clone());
            out.push(String::new());
        }
        if let Some(h) = &self.moves_heading {
            out.push(h.clone());
            // Indented, one per line, so that each move stands alone and is easy to copy.
            out.extend(self.moves.iter().map(|m| format!("    {m}")));
            out.push(String::new());
        }
        if let Some((label, url)) = &self.link {
            out.push(label.clone());
            out.push(url.clone());
            out.push(String::new());
        }
        if let Some(rules) = &self.rules {
            out.push(rules.clone());
            out.push(String::new());
        }
        if let Some(footer) = &self.footer {
            out.push("-- ".to_owned());
            out.push(footer.clone());
        }
        out.join("\r\n") + "\r\n"
    }

    fn html(&self) -> String {
        let lang = self.locale.as_str();
        maud::html! {
            (maud::DOCTYPE)
            html lang=(lang) {
                head { meta charset="utf-8"; }
                body style="font-family: sans-serif; line-height: 1.4" {
                    p { (self.greeting) }
                    @for p in &self.paragraphs { p { (p) } }
                    @if let Some(h) = &self.list_heading { p { (h) } }
                    @if !self.list.is_empty() {
                        ul { @for item in &self.list { li { (item) } } }
                    }
                    @for p in &self.after { p { (p) } }
                    @if let Some(h) = &self.moves_heading {
                        p { (h) }
                        ul { @for m in &self.moves { li { code { (m) } } } }
                    }
                    @if let Some((label, url)) = &self.link {
                        p { (label) br; a href=(url) { (url) } }
                    }
                    @if let Some(rules) = &self.rules { p { (rules) } }
                    @if let Some(footer) = &self.footer {
                        hr;
                        p style="font-size: small; color: #555" { (footer) }
                    }
                }
            }
        }
        .into_string()
    }
}

/// The game mails' common part of their jobs.
pub struct GameMail<'a> {
    pub game_id: Uuid,
    pub seat: i16,
    /// Turn mails: the last action the mail reports.
    pub upto: i64,
    pub message_id: &'a str,
}

fn db(e: impl std::fmt::Display) -> JobError {
    JobError::Retry(format!("database: {e}"))
}

struct Player {
    seat: i16,
    user: Option<crate::models::User>,
    invited_email: Option<String>,
}

impl Player {
    fn name(&self) -> String {
        self.user
            .as_ref()
            .map_or_else(|| "?".to_owned(), |u| u.display_name.clone())
    }
}

struct Table {
    game: Game,
    kind: GameKind,
    players: Vec<Player>,
    /// Display names by seat, for the game's sentences.
    seat_names: Vec<String>,
}

impl Table {
    fn load(conn: &mut PgConnection, id: Uuid) -> Result<Option<Table>, JobError> {
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
        let rows: Vec<(i16, Option<String>, Option<crate::models::User>)> = game_seats::table
            .left_join(users::table)
            .filter(game_seats::game_id.eq(id))
            .order(game_seats::seat)
            .select((
                game_seats::seat,
                game_seats::invited_email,
                Option::<crate::models::User>::as_select(),
            ))
            .load(conn)
            .map_err(db)?;
        let players = rows
            .into_iter()
            .map(|(seat, invited_email, user)| Player {
                seat,
                user,
                invited_email,
            })
            .collect();
        let mut table = Table {
            game,
            kind,
            players,
            seat_names: Vec::new(),
        };
        let seats = table.players.iter().map(|p| p.seat + 1).max().unwrap_or(0);
        table.seat_names = (0..seats).map(|s| table.name_of(i64::from(s))).collect();
        Ok(Some(table))
    }

    fn player(&self, seat: i16) -> Option<&Player> {
        self.players.iter().find(|p| p.seat == seat)
    }

    fn name_of(&self, seat: i64) -> String {
        self.players
            .iter()
            .find(|p| i64::from(p.seat) == seat)
            .map_or_else(|| format!("#{seat}"), Player::name)
    }

    fn opponents(&self, seat: i16, locale: Locale) -> String {
        let names: Vec<String> = self
            .players
            .iter()
            .filter(|p| p.seat != seat)
            .map(|p| match (&p.user, &p.invited_email) {
                (Some(u), _) => u.display_name.clone(),
                // Another invitee's address is theirs: masked (design.md section 19).
                (None, Some(email)) => crate::services::games::mask_email(email),
                (None, None) => "?".to_owned(),
            })
            .collect();
        join_names(&names, locale)
    }

    fn names(&self, locale: Locale) -> Names<'_> {
        Names {
            locale,
            names: &self.seat_names,
        }
    }

    fn game_name(&self) -> &'static str {
        self.kind.info().name
    }

    fn state(&self) -> Result<Option<AnyState>, JobError> {
        match &self.game.state {
            None => Ok(None),
            Some(state) => self
                .kind
                .load(state)
                .map(Some)
                .map_err(|e| JobError::Permanent(format!("unreadable state: {e}"))),
        }
    }
}

/// The mail's game and seat, and its `Message-ID`.
struct SeatAt<'a> {
    game: Uuid,
    seat: i16,
    message_id: &'a str,
}

/// The end every mail about one seat of a game shares: the one-tap link for that seat under
/// `cta`, the game's thread, the footer.
fn seat_mail(
    conn: &mut PgConnection,
    ctx: &Context,
    user: &crate::models::User,
    at: SeatAt<'_>,
    cta: &i18n::T,
    subject: String,
    mut doc: Doc,
) -> Result<Option<Mail>, JobError> {
    let locale = Locale::from_db(&user.locale);
    let grant = PlayGrant {
        user: UserId(user.id),
        game: GameId(at.game),
        seat: at.seat,
    };
    doc.link = Some((i18n::pick(locale, cta).to_owned(), ctx.play_url(grant)));
    let mut mail = blank(
        user,
        subject,
        at.message_id.to_owned(),
        Some(GameId(at.game)),
    );
    footer(conn, ctx, UserId(user.id), locale, &mut mail, &mut doc)?;
    rules_line(conn, ctx, at.game, locale, &mut doc)?;
    Ok(Some(finish(mail, &doc)))
}

/// The game's rules page, after the link of every mail about a seat of a game.
fn rules_line(
    conn: &mut PgConnection,
    ctx: &Context,
    game: Uuid,
    locale: Locale,
    doc: &mut Doc,
) -> Result<(), JobError> {
    let kind: Option<String> = games::table
        .find(game)
        .select(games::kind)
        .first(conn)
        .optional()
        .map_err(db)?;
    let Some(kind) = kind.as_deref().and_then(GameKind::parse) else {
        return Ok(());
    };
    let url = format!(
        "{}/rules/{}?lang={}",
        ctx.public_url,
        kind.as_str(),
        locale.as_str()
    );
    let line = i18n::fill(
        locale,
        &i18n::RULES_LINE,
        &[("game", kind.info().name), ("url", &url)],
    );
    doc.rules = Some(line);
    Ok(())
}

fn footer(
    conn: &mut PgConnection,
    ctx: &Context,
    user: UserId,
    locale: Locale,
    mail: &mut Mail,
    doc: &mut Doc,
) -> Result<(), JobError> {
    let token = notifications::unsubscribe_token(conn, user).map_err(db)?;
    let url = ctx.unsubscribe_url(&token);
    doc.footer = Some(i18n::fill(locale, &i18n::FOOTER, &[("url", &url)]));
    mail.unsubscribe_url = Some(url);
    Ok(())
}

fn finish(mut mail: Mail, doc: &Doc) -> Mail {
    mail.text = doc.text();
    mail.html = doc.html();
    mail.reply_to.clone_from(&doc.reply_to);
    if let Some((_, url)) = &doc.link {
        mail.links.push(url.clone());
    }
    mail
}

fn blank(
    user: &crate::models::User,
    subject: String,
    message_id: String,
    thread: Option<GameId>,
) -> Mail {
    Mail {
        to_email: user.email.clone(),
        to_name: user.display_name.clone(),
        subject,
        text: String::new(),
        html: String::new(),
        message_id,
        thread,
        unsubscribe_url: None,
        links: Vec::new(),
        reply_to: None,
        in_reply_to: None,
        auto_replied: false,
    }
}

pub fn invitation(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &GameMail<'_>,
) -> Result<Option<Mail>, JobError> {
    let Some(table) = Table::load(conn, p.game_id)? else {
        return Ok(None);
    };
    let Some(player) = table.player(p.seat) else {
        return Ok(None);
    };
    let Some(invited) = player.invited_email.clone() else {
        return Ok(None);
    };
    if table.game.status == "aborted" {
        return Ok(None);
    }
    let account: Option<crate::models::User> = users::table
        .filter(users::email.eq(&invited))
        .select(crate::models::User::as_select())
        .first(conn)
        .optional()
        .map_err(db)?;
    let locale = account
        .as_ref()
        .map_or(Locale::En, |u| Locale::from_db(&u.locale));
    let inviter = table.name_of(0);
    let game = table.game_name();
    let variant = table
        .game
        .options
        .get("preset")
        .and_then(Value::as_str)
        .unwrap_or("standard")
        .to_owned();
    let subject = i18n::fill(
        locale,
        &i18n::INVITE_SUBJECT,
        &[("inviter", &inviter), ("game", game)],
    );
    let name = account
        .as_ref()
        .map_or_else(|| invited.clone(), |u| u.display_name.clone());
    let mut doc = Doc::new(locale, &name);
    doc.paragraphs.push(i18n::fill(
        locale,
        &i18n::INVITE_BODY,
        &[
            ("inviter", &inviter),
            ("game", game),
            ("variant", &variant),
            ("players", &table.opponents(p.seat, locale)),
        ],
    ));
    let thread = Some(GameId(p.game_id));
    let url = match &account {
        Some(user) => ctx.play_url(PlayGrant {
            user: UserId(user.id),
            game: GameId(p.game_id),
            seat: p.seat,
        }),
        None => ctx.invite_url(GameId(p.game_id), p.seat, &invited),
    };
    doc.link = Some((i18n::pick(locale, &i18n::INVITE_CTA).to_owned(), url));
    let mut mail = match &account {
        Some(user) => blank(user, subject, p.message_id.to_owned(), thread),
        None => Mail {
            to_email: invited.clone(),
            to_name: invited.clone(),
            subject,
            text: String::new(),
            html: String::new(),
            message_id: p.message_id.to_owned(),
            thread,
            unsubscribe_url: None,
            links: Vec::new(),
            reply_to: None,
            in_reply_to: None,
            auto_replied: false,
        },
    };
    if let Some(user) = &account {
        footer(conn, ctx, UserId(user.id), locale, &mut mail, &mut doc)?;
    }
    rules_line(conn, ctx, p.game_id, locale, &mut doc)?;
    Ok(Some(finish(mail, &doc)))
}

/// The seated account of `seat` and its preference.
fn recipient(
    conn: &mut PgConnection,
    table: &Table,
    seat: i16,
) -> Result<Option<(crate::models::User, Mode)>, JobError> {
    let Some(user) = table.player(seat).and_then(|p| p.user.clone()) else {
        return Ok(None);
    };
    let mode = notifications::mode(conn, UserId(user.id)).map_err(db)?;
    Ok(Some((user, mode)))
}

pub fn turn(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &GameMail<'_>,
) -> Result<Option<Mail>, JobError> {
    let Some(table) = Table::load(conn, p.game_id)? else {
        return Ok(None);
    };
    if table.game.status != "active" {
        return Ok(None);
    }
    let Some((user, mode)) = recipient(conn, &table, p.seat)? else {
        return Ok(None);
    };
    if mode != Mode::Instant {
        return Ok(None);
    }
    // Already acted since (from the page or the API): the mail would be stale.
    let acted: i64 = game_actions::table
        .filter(game_actions::game_id.eq(p.game_id))
        .filter(game_actions::seat.eq(p.seat))
        .filter(game_actions::seq.gt(p.upto))
        .count()
        .get_result(conn)
        .map_err(db)?;
    if acted > 0 {
        return Ok(None);
    }
    let Some(state) = table.state()? else {
        return Ok(None);
    };
    let seat = Seat(u8::try_from(p.seat).unwrap_or(u8::MAX));
    let viewer = Viewer::Seat(seat);
    let locale = Locale::from_db(&user.locale);
    let view = state.view(viewer);
    let since: Option<i64> = game_actions::table
        .filter(game_actions::game_id.eq(p.game_id))
        .filter(game_actions::seat.eq(p.seat))
        .filter(game_actions::seq.le(p.upto))
        .select(diesel::dsl::max(game_actions::seq))
        .first(conn)
        .map_err(db)?;
    let lower = since.map_or(0, |s| s + 1);
    let events: Vec<(Value, Value)> = game_events::table
        .filter(game_events::game_id.eq(p.game_id))
        .filter(game_events::action_seq.ge(lower))
        .filter(game_events::action_seq.le(p.upto))
        .order(game_events::seq)
        .select((game_events::audience, game_events::event))
        .load(conn)
        .map_err(db)?;
    let lines: Vec<String> = events
        .iter()
        .filter(|(audience, _)| {
            serde_json::from_value::<Audience>(audience.clone()).is_ok_and(|a| a.admits(viewer))
        })
        .filter_map(|(_, event)| event_line(locale, &table, event))
        .collect();
    let opponents = table.opponents(p.seat, locale);
    let game = table.game_name();
    let me = usize::try_from(p.seat).unwrap_or(usize::MAX);
    let deciding = table
        .kind
        .deciding(&view, me, state.pending().iter().count());
    let subject_t = if deciding {
        &i18n::DECIDE_SUBJECT
    } else {
        &i18n::TURN_SUBJECT
    };
    let subject = i18n::fill(
        locale,
        subject_t,
        &[("game", game), ("opponents", &opponents)],
    );
    let mut doc = Doc::new(locale, &user.display_name);
    doc.paragraphs.push(i18n::fill(
        locale,
        &i18n::TURN_BODY,
        &[("game", game), ("opponents", &opponents)],
    ));
    if let Some(deadline) = seat_deadline(conn, p.game_id, p.seat)? {
        let (when, left) = deadline_words(locale, &user.time_zone, deadline);
        doc.paragraphs.push(i18n::fill(
            locale,
            &i18n::DEADLINE,
            &[("when", &when), ("left", &left)],
        ));
    }
    if !lines.is_empty() {
        doc.list_heading = Some(i18n::pick(locale, &i18n::SINCE).to_owned());
        doc.list = lines;
    }
    // What the reader holds (their hand, their supplies): from their own view only.
    let names = table.names(locale);
    doc.after.extend(
        table
            .kind
            .reminder(locale, &view, me)
            .iter()
            .map(|line| line.plain(&names)),
    );
    reply_block(ctx, &table, &state, p.seat, locale, &mut doc);
    let at = SeatAt {
        game: p.game_id,
        seat: p.seat,
        message_id: p.message_id,
    };
    seat_mail(conn, ctx, &user, at, &i18n::PLAY_CTA, subject, doc)
}

/// The most legal moves a mail lists; the game page has them all.
const MOVES_LISTED: usize = 40;

/// Moves by email: when `MAIL_DOMAIN` is set and the seat is pending, the reply address for a
/// move on the game's current version, and how to reply with the legal moves in notation.
fn reply_block(
    ctx: &Context,
    table: &Table,
    state: &AnyState,
    seat: i16,
    locale: Locale,
    doc: &mut Doc,
) {
    let Ok(engine_seat) = u8::try_from(seat).map(Seat) else {
        return;
    };
    if ctx.mail_domain.is_none() || !state.pending().contains(engine_seat) {
        return;
    }
    let grant = ReplyGrant {
        game: GameId(table.game.id),
        seat,
        version: table.game.version,
    };
    doc.reply_to = ctx.reply_address(grant);
    let moves: Vec<String> = state
        .legal_actions(engine_seat)
        .iter()
        .filter_map(|a| a["notation"].as_str().map(str::to_owned))
        .collect();
    doc.moves_heading = Some(i18n::pick(locale, &i18n::REPLY_HOW).to_owned());
    doc.moves = moves.iter().take(MOVES_LISTED).cloned().collect();
    if moves.len() > MOVES_LISTED {
        let more = (moves.len() - MOVES_LISTED).to_string();
        doc.moves
            .push(i18n::fill(locale, &i18n::MORE_MOVES, &[("n", &more)]));
    }
}

pub fn game_over(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &GameMail<'_>,
) -> Result<Option<Mail>, JobError> {
    let Some(table) = Table::load(conn, p.game_id)? else {
        return Ok(None);
    };
    if table.game.status != "finished" {
        return Ok(None);
    }
    let Some((user, mode)) = recipient(conn, &table, p.seat)? else {
        return Ok(None);
    };
    if mode == Mode::Off {
        return Ok(None);
    }
    let Some(state) = table.state()? else {
        return Ok(None);
    };
    let locale = Locale::from_db(&user.locale);
    let game = table.game_name();
    let opponents = table.opponents(p.seat, locale);
    let subject = i18n::fill(
        locale,
        &i18n::OVER_SUBJECT,
        &[("game", game), ("opponents", &opponents)],
    );
    let mut doc = Doc::new(locale, &user.display_name);
    let winners: Vec<i16> = state.winners().iter().map(|s| i16::from(s.0)).collect();
    let names: Vec<String> = winners
        .iter()
        .map(|s| table.name_of(i64::from(*s)))
        .collect();
    let result = if winners.len() > 1 {
        i18n::fill(
            locale,
            &i18n::SHARED_WIN,
            &[("names", &join_names(&names, locale))],
        )
    } else if winners.contains(&p.seat) {
        i18n::pick(locale, &i18n::YOU_WON).to_owned()
    } else {
        i18n::fill(
            locale,
            &i18n::OTHERS_WON,
            &[("names", &join_names(&names, locale))],
        )
    };
    doc.paragraphs.push(result);
    if let Some(outcome) = table
        .game
        .outcome
        .as_ref()
        .filter(|o| o["reason"] == "timeout")
    {
        let late = outcome["timed_out"]
            .as_i64()
            .or(outcome["resigned"].as_i64());
        if let Some(s) = late {
            doc.paragraphs.push(if s == i64::from(p.seat) {
                i18n::pick(locale, &i18n::YOU_LOST_ON_TIME).to_owned()
            } else {
                i18n::fill(locale, &i18n::LOST_ON_TIME, &[("p", &table.name_of(s))])
            });
        }
    }
    let view = state.view(Viewer::Seat(Seat(u8::try_from(p.seat).unwrap_or(u8::MAX))));
    let outcome = table.game.outcome.clone().unwrap_or(Value::Null);
    let result: Vec<Sentence> = table.kind.result(locale, &view, &outcome);
    if !result.is_empty() {
        let names = table.names(locale);
        doc.list_heading = Some(i18n::pick(locale, &i18n::FINAL_SCORE).to_owned());
        doc.list = result.iter().map(|line| line.plain(&names)).collect();
    }
    // The game is over: the seed is public now (design.md section 4).
    doc.after.push(i18n::fill(
        locale,
        &i18n::SEED,
        &[
            ("seed", &hex::encode(&table.game.seed)),
            ("commitment", &table.game.seed_commitment),
        ],
    ));
    let fairness = format!("{}/api/v1/games/{}/fairness", ctx.public_url, p.game_id);
    doc.after.push(i18n::fill(
        locale,
        &i18n::VERIFY,
        &[("url", &fairness), ("id", &p.game_id.to_string())],
    ));
    let at = SeatAt {
        game: p.game_id,
        seat: p.seat,
        message_id: p.message_id,
    };
    seat_mail(conn, ctx, &user, at, &i18n::SEE_GAME, subject, doc)
}

/// The current deadline of `seat`, if it is pending under a clock.
fn seat_deadline(
    conn: &mut PgConnection,
    game: Uuid,
    seat: i16,
) -> Result<Option<chrono::DateTime<chrono::Utc>>, JobError> {
    let row: Option<(bool, Option<chrono::DateTime<chrono::Utc>>)> = game_seats::table
        .find((game, seat))
        .select((game_seats::is_pending, game_seats::deadline))
        .first(conn)
        .optional()
        .map_err(db)?;
    Ok(row.and_then(|(pending, deadline)| deadline.filter(|_| pending)))
}

/// A deadline in the reader's time zone (an unreadable zone name reads as UTC) and the time
/// left until it, in words.
fn deadline_words(
    locale: Locale,
    zone: &str,
    deadline: chrono::DateTime<chrono::Utc>,
) -> (String, String) {
    let when = crate::services::clocks::local_time(zone, deadline);
    let left =
        crate::services::clocks::time_left(locale, (deadline - chrono::Utc::now()).num_seconds());
    (when, left)
}

/// A moment that may not be set.
type When = Option<chrono::DateTime<chrono::Utc>>;

/// A reminder before a deadline, unless the seat has decided since (its decision began at
/// `pending_since`) or mail is off.
pub fn reminder(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &ReminderMail,
) -> Result<Option<Mail>, JobError> {
    let Some(table) = Table::load(conn, p.game_id)? else {
        return Ok(None);
    };
    if table.game.status != "active" {
        return Ok(None);
    }
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
    // Compared to the millisecond: the row keeps microseconds, the payload's JSON may not.
    if (since - p.pending_since).num_milliseconds().abs() > 1 || deadline <= chrono::Utc::now() {
        return Ok(None);
    }
    let Some((user, mode)) = recipient(conn, &table, p.seat)? else {
        return Ok(None);
    };
    if mode == Mode::Off {
        return Ok(None);
    }
    let locale = Locale::from_db(&user.locale);
    let game = table.game_name();
    let opponents = table.opponents(p.seat, locale);
    let (when, left) = deadline_words(locale, &user.time_zone, deadline);
    let subject = i18n::fill(
        locale,
        &i18n::REMINDER_SUBJECT,
        &[("game", game), ("opponents", &opponents), ("left", &left)],
    );
    let mut doc = Doc::new(locale, &user.display_name);
    doc.paragraphs.push(i18n::fill(
        locale,
        &i18n::REMINDER_BODY,
        &[("game", game), ("opponents", &opponents), ("when", &when)],
    ));
    // A reminder is a turn mail too: it may be answered with the move.
    if let Some(state) = table.state()? {
        reply_block(ctx, &table, &state, p.seat, locale, &mut doc);
    }
    let at = SeatAt {
        game: p.game_id,
        seat: p.seat,
        message_id: &p.message_id,
    };
    seat_mail(conn, ctx, &user, at, &i18n::PLAY_CTA, subject, doc)
}

/// Tells a player that an opponent is on vacation (unless the vacation is already over).
pub fn vacation(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &VacationMail,
) -> Result<Option<Mail>, JobError> {
    let Some(table) = Table::load(conn, p.game_id)? else {
        return Ok(None);
    };
    let Some(away) = table.player(p.away_seat).and_then(|a| a.user.clone()) else {
        return Ok(None);
    };
    let until: Option<chrono::DateTime<chrono::Utc>> = users::table
        .find(away.id)
        .select(users::vacation_until)
        .first(conn)
        .map_err(db)?;
    let Some(until) = until else {
        return Ok(None);
    };
    let Some((user, mode)) = recipient(conn, &table, p.seat)? else {
        return Ok(None);
    };
    if mode == Mode::Off {
        return Ok(None);
    }
    let locale = Locale::from_db(&user.locale);
    let game = table.game_name();
    let (when, _) = deadline_words(locale, &user.time_zone, until);
    let subject = i18n::fill(
        locale,
        &i18n::VACATION_SUBJECT,
        &[("p", &away.display_name), ("game", game)],
    );
    let mut doc = Doc::new(locale, &user.display_name);
    doc.paragraphs.push(i18n::fill(
        locale,
        &i18n::VACATION_BODY,
        &[("p", &away.display_name), ("until", &when), ("game", game)],
    ));
    let at = SeatAt {
        game: p.game_id,
        seat: p.seat,
        message_id: &p.message_id,
    };
    seat_mail(conn, ctx, &user, at, &i18n::SEE_GAME, subject, doc)
}

pub fn sign_in(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &SignInMail,
) -> Result<Option<Mail>, JobError> {
    let row: Option<(Option<chrono::DateTime<Utc>>, chrono::DateTime<Utc>)> = email_links::table
        .find(p.link_id)
        .select((email_links::used_at, email_links::expires_at))
        .first(conn)
        .optional()
        .map_err(db)?;
    let Some((None, expires_at)) = row else {
        return Ok(None);
    };
    let left = (expires_at - Utc::now()).num_seconds();
    if left < 60 {
        return Ok(None);
    }
    let user: Option<crate::models::User> = users::table
        .find(p.user_id)
        .select(crate::models::User::as_select())
        .first(conn)
        .optional()
        .map_err(db)?;
    let Some(user) = user else {
        return Ok(None);
    };
    let token = ctx.links.sign_in_link(UserId(user.id), p.link_id, left);
    // Stored in the worker's transaction: if the send fails, the row keeps its old hash.
    diesel::update(email_links::table.find(p.link_id))
        .set(email_links::token_hash.eq(crate::auth::token_hash(&token)))
        .execute(conn)
        .map_err(db)?;
    let locale = Locale::from_db(&user.locale);
    let subject = i18n::pick(locale, &i18n::SIGN_IN_SUBJECT).to_owned();
    let mut doc = Doc::new(locale, &user.display_name);
    let minutes = (left / 60).to_string();
    doc.paragraphs.push(i18n::fill(
        locale,
        &i18n::SIGN_IN_BODY,
        &[("minutes", &minutes)],
    ));
    doc.link = Some((
        i18n::pick(locale, &i18n::SIGN_IN_CTA).to_owned(),
        format!("{}/sign-in/{token}", ctx.public_url),
    ));
    let mail = blank(&user, subject, p.message_id.to_owned(), None);
    Ok(Some(finish(mail, &doc)))
}

/// The sign-up link of an address without an account (nothing is sent once the link was used,
/// has nearly expired, or the address got an account meanwhile).
pub fn sign_up(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &SignUpMail,
) -> Result<Option<Mail>, JobError> {
    let row: Option<(String, Option<chrono::DateTime<Utc>>, chrono::DateTime<Utc>)> =
        email_links::table
            .find(p.link_id)
            .filter(email_links::purpose.eq("sign_up"))
            .select((
                email_links::email,
                email_links::used_at,
                email_links::expires_at,
            ))
            .first(conn)
            .optional()
            .map_err(db)?;
    let Some((email, None, expires_at)) = row else {
        return Ok(None);
    };
    let left = (expires_at - Utc::now()).num_seconds();
    let registered: i64 = users::table
        .filter(users::email.eq(&email))
        .count()
        .get_result(conn)
        .map_err(db)?;
    if left < 60 || registered > 0 {
        return Ok(None);
    }
    let token = ctx.links.sign_up_link(p.link_id, left);
    diesel::update(email_links::table.find(p.link_id))
        .set(email_links::token_hash.eq(crate::auth::token_hash(&token)))
        .execute(conn)
        .map_err(db)?;
    let locale = Locale::from_db(&p.locale);
    let mut doc = Doc::new(locale, "");
    doc.greeting = i18n::pick(locale, &i18n::WELCOME).to_owned();
    let hours = (left / 3600).max(1).to_string();
    doc.paragraphs.push(i18n::fill(
        locale,
        &i18n::SIGN_UP_BODY,
        &[("hours", &hours)],
    ));
    doc.link = Some((
        i18n::pick(locale, &i18n::SIGN_UP_CTA).to_owned(),
        format!("{}/sign-up/{token}", ctx.public_url),
    ));
    let mail = Mail {
        to_email: email.clone(),
        to_name: email,
        subject: i18n::pick(locale, &i18n::SIGN_UP_SUBJECT).to_owned(),
        text: String::new(),
        html: String::new(),
        message_id: p.message_id.clone(),
        thread: None,
        unsubscribe_url: None,
        links: Vec::new(),
        reply_to: None,
        in_reply_to: None,
        auto_replied: false,
    };
    Ok(Some(finish(mail, &doc)))
}

pub fn digest(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &DigestMail,
) -> Result<Option<Mail>, JobError> {
    let user: Option<crate::models::User> = users::table
        .find(p.user_id)
        .select(crate::models::User::as_select())
        .first(conn)
        .optional()
        .map_err(db)?;
    let Some(user) = user else {
        return Ok(None);
    };
    if notifications::mode(conn, UserId(user.id)).map_err(db)? != Mode::DailyDigest {
        return Ok(None);
    }
    // Most urgent first: with no deadlines yet, the game that has waited longest.
    let waiting: Vec<(Uuid, i16, chrono::DateTime<Utc>)> = game_seats::table
        .inner_join(games::table)
        .filter(game_seats::user_id.eq(user.id))
        .filter(game_seats::is_pending.eq(true))
        .filter(games::status.eq("active"))
        .order((games::updated_at.asc(), games::id))
        .select((games::id, game_seats::seat, games::updated_at))
        .limit(50)
        .load(conn)
        .map_err(db)?;
    if waiting.is_empty() {
        return Ok(None);
    }
    let locale = Locale::from_db(&user.locale);
    let count = waiting.len().to_string();
    let subject = i18n::fill(locale, &i18n::DIGEST_SUBJECT, &[("count", &count)]);
    let mut doc = Doc::new(locale, &user.display_name);
    doc.list_heading = Some(i18n::pick(locale, &i18n::DIGEST_BODY).to_owned());
    let mut mail = blank(&user, subject, p.message_id.to_owned(), None);
    for (game_id, seat, since) in waiting {
        let Some(table) = Table::load(conn, game_id)? else {
            continue;
        };
        let link = ctx.play_url(PlayGrant {
            user: UserId(user.id),
            game: GameId(game_id),
            seat,
        });
        doc.list.push(i18n::fill(
            locale,
            &i18n::DIGEST_LINE,
            &[
                ("game", table.game_name()),
                ("opponents", &table.opponents(seat, locale)),
                ("since", &since.format("%Y-%m-%d %H:%M UTC").to_string()),
                ("link", &link),
            ],
        ));
        mail.links.push(link);
    }
    footer(conn, ctx, UserId(user.id), locale, &mut mail, &mut doc)?;
    Ok(Some(finish(mail, &doc)))
}

/// One line for an event the recipient may see; `None` for events not worth a line.
fn event_line(locale: Locale, table: &Table, event: &Value) -> Option<String> {
    // The end is the game-over mail's business (it reveals the hands and the scores).
    if event["type"] == "game_over" {
        return None;
    }
    let sentence = table.kind.event_line(locale, event)?;
    Some(sentence.plain(&table.names(locale)))
}

/// To the creator: an invitee declined; the seat stays empty until they invite someone else.
pub fn declined(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &DeclinedMail,
) -> Result<Option<Mail>, JobError> {
    let Some(table) = Table::load(conn, p.game_id)? else {
        return Ok(None);
    };
    let name: Option<String> = users::table
        .find(p.declined_by)
        .select(users::display_name)
        .first(conn)
        .optional()
        .map_err(db)?;
    let (Some(name), Some((user, mode))) = (name, recipient(conn, &table, p.seat)?) else {
        return Ok(None);
    };
    // A choice of the creator's own game, not a turn: sent unless mail is off altogether.
    if mode == Mode::Off {
        return Ok(None);
    }
    let locale = Locale::from_db(&user.locale);
    let game = table.game_name();
    let subject = i18n::fill(
        locale,
        &i18n::DECLINED_SUBJECT,
        &[("p", &name), ("game", game)],
    );
    let mut doc = Doc::new(locale, &user.display_name);
    doc.paragraphs.push(i18n::fill(
        locale,
        &i18n::DECLINED_BODY,
        &[("p", &name), ("game", game)],
    ));
    let at = SeatAt {
        game: p.game_id,
        seat: p.seat,
        message_id: &p.message_id,
    };
    seat_mail(conn, ctx, &user, at, &i18n::SEE_GAME, subject, doc)
}

/// The answer to a reply by mail (moves by email): in the reply's thread, marked automatic.
/// A played move shows what it did and the position now; a refused one why, and the position
/// now; both list the legal moves and carry a fresh reply address while the seat is pending. A
/// mail that may not move gets a short polite answer that tells nothing about any game.
pub fn answer(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &AnswerMail,
) -> Result<Option<Mail>, JobError> {
    let mut mail = match (&p.answer, p.game_id, p.seat) {
        (Answer::NotAllowed { why }, game, _) => not_allowed(conn, p, *why, game)?,
        (answer, Some(game), Some(seat)) => game_answer(conn, ctx, p, answer, game, seat)?,
        _ => None,
    };
    if let Some(mail) = &mut mail {
        mail.in_reply_to.clone_from(&p.in_reply_to);
        mail.auto_replied = true;
    }
    Ok(mail)
}

/// The polite answer to a mail that may not move, in the language of the sender's account if
/// they have one.
fn not_allowed(
    conn: &mut PgConnection,
    p: &AnswerMail,
    why: NotAllowed,
    game: Option<Uuid>,
) -> Result<Option<Mail>, JobError> {
    let account: Option<crate::models::User> = users::table
        .filter(users::email.eq(&p.to))
        .select(crate::models::User::as_select())
        .first(conn)
        .optional()
        .map_err(db)?;
    let locale = account
        .as_ref()
        .map_or(Locale::En, |u| Locale::from_db(&u.locale));
    let name = account
        .as_ref()
        .map_or_else(|| p.to.clone(), |u| u.display_name.clone());
    let mut doc = Doc::new(locale, &name);
    let reason = match why {
        NotAllowed::UnknownAddress => &i18n::UNKNOWN_ADDRESS,
        NotAllowed::Expired => &i18n::EXPIRED_ADDRESS,
        NotAllowed::OtherSeat => &i18n::OTHER_SEAT,
        NotAllowed::Forwarded => &i18n::FORWARDED,
    };
    doc.paragraphs.push(i18n::pick(locale, reason).to_owned());
    doc.paragraphs
        .push(i18n::pick(locale, &i18n::ONCE_A_DAY).to_owned());
    let mail = Mail {
        to_email: p.to.clone(),
        to_name: name,
        subject: i18n::pick(locale, &i18n::NOT_PLAYED_SUBJECT).to_owned(),
        text: String::new(),
        html: String::new(),
        message_id: p.message_id.clone(),
        // Only a forward from the seat's own address names its game.
        thread: game.map(GameId),
        unsubscribe_url: None,
        links: Vec::new(),
        reply_to: None,
        in_reply_to: None,
        auto_replied: true,
    };
    Ok(Some(finish(mail, &doc)))
}

/// The answer about a move of `seat` in `game`, to the seat's player (nothing when the seat has
/// changed hands since).
fn game_answer(
    conn: &mut PgConnection,
    ctx: &Context,
    p: &AnswerMail,
    answer: &Answer,
    game: Uuid,
    seat: i16,
) -> Result<Option<Mail>, JobError> {
    let Some(table) = Table::load(conn, game)? else {
        return Ok(None);
    };
    let Some(user) = table.player(seat).and_then(|pl| pl.user.clone()) else {
        return Ok(None);
    };
    if !user.email.eq_ignore_ascii_case(&p.to) {
        return Ok(None);
    }
    let Some(state) = table.state()? else {
        return Ok(None);
    };
    let engine_seat = Seat(u8::try_from(seat).unwrap_or(u8::MAX));
    let viewer = Viewer::Seat(engine_seat);
    let locale = Locale::from_db(&user.locale);
    let game_name = table.game_name();
    let opponents = table.opponents(seat, locale);
    let names = table.names(locale);
    let mut doc = Doc::new(locale, &user.display_name);
    let words = [("game", game_name), ("opponents", opponents.as_str())];
    let (subject, after) = match answer {
        Answer::Played { line, after } => {
            doc.paragraphs.push(i18n::fill(
                locale,
                &i18n::PLAYED_BODY,
                &[("line", line.as_str())],
            ));
            let subject = i18n::fill(locale, &i18n::PLAYED_SUBJECT, &words);
            (subject, *after)
        }
        Answer::Refused {
            line,
            code,
            rule,
            detail,
        } => {
            if let Some(line) = line {
                doc.paragraphs.push(i18n::fill(
                    locale,
                    &i18n::REFUSED_BODY,
                    &[("line", line.as_str())],
                ));
            }
            doc.paragraphs
                .push(refusal_reason(locale, code, rule.as_deref(), detail));
            let subject = i18n::fill(locale, &i18n::REFUSED_SUBJECT, &words);
            // The position since the seat's own last move, as the turn mail shows it.
            let since: Option<i64> = game_actions::table
                .filter(game_actions::game_id.eq(game))
                .filter(game_actions::seat.eq(seat))
                .select(diesel::dsl::max(game_actions::seq))
                .first(conn)
                .map_err(db)?;
            (subject, since.unwrap_or(0))
        }
        Answer::NotAllowed { .. } => return Ok(None),
    };
    let events: Vec<(Value, Value)> = game_events::table
        .filter(game_events::game_id.eq(game))
        .filter(game_events::action_seq.gt(after))
        .order(game_events::seq)
        .select((game_events::audience, game_events::event))
        .load(conn)
        .map_err(db)?;
    let lines: Vec<String> = events
        .iter()
        .filter(|(audience, _)| {
            serde_json::from_value::<Audience>(audience.clone()).is_ok_and(|a| a.admits(viewer))
        })
        .filter_map(|(_, event)| event_line(locale, &table, event))
        .collect();
    if !lines.is_empty() {
        doc.list_heading = Some(i18n::pick(locale, &i18n::WHAT_HAPPENED).to_owned());
        doc.list = lines;
    }
    let view = state.view(viewer);
    let me = usize::try_from(seat).unwrap_or(usize::MAX);
    if table.game.status == "finished" {
        doc.after
            .push(i18n::pick(locale, &i18n::OVER_NOW).to_owned());
        let outcome = table.game.outcome.clone().unwrap_or(Value::Null);
        doc.after.extend(
            table
                .kind
                .result(locale, &view, &outcome)
                .iter()
                .map(|line| line.plain(&names)),
        );
    } else {
        doc.after.extend(
            table
                .kind
                .reminder(locale, &view, me)
                .iter()
                .map(|line| line.plain(&names)),
        );
        if !state.pending().contains(engine_seat) {
            doc.after
                .push(i18n::pick(locale, &i18n::NOT_YOUR_TURN_ANY_MORE).to_owned());
        }
    }
    reply_block(ctx, &table, &state, seat, locale, &mut doc);
    let at = SeatAt {
        game,
        seat,
        message_id: &p.message_id,
    };
    seat_mail(conn, ctx, &user, at, &i18n::SEE_GAME, subject, doc)
}

/// Why a move by mail was refused, in the reader's language (a broken rule in the rulebook's
/// words, with its ID).
fn refusal_reason(locale: Locale, code: &str, rule: Option<&str>, detail: &str) -> String {
    match (code, rule) {
        ("illegal_action", Some(rule)) => i18n::fill(
            locale,
            &i18n::RULE_BROKEN,
            &[("rule", rule), ("detail", detail)],
        ),
        ("stale_version", _) => i18n::pick(locale, &i18n::STALE).to_owned(),
        ("not_your_turn", _) => i18n::pick(locale, &i18n::NOT_YOUR_TURN_NOW).to_owned(),
        ("game_over", _) => i18n::pick(locale, &i18n::OVER_NOW).to_owned(),
        ("no_move", _) => i18n::pick(locale, &i18n::NO_MOVE).to_owned(),
        ("validation_failed", _) => i18n::fill(locale, &i18n::UNREADABLE, &[("detail", detail)]),
        _ => detail.to_owned(),
    }
}
