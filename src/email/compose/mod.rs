//! Writing mails: each mail is a pure function of the value that `email::gather` read for it
//! (recipient, locale, names, the recipient's view, links, tokens, deadline, the moment it was
//! read). Nothing here touches the database or the clock, so a mail can be rendered from a
//! hand-built value (see the tests).
//!
//! Nothing here ever sees the full game state: the view is the recipient's seat's, events are
//! those whose audience admits the seat, cards are written by code, and the seed appears only
//! once the game is over.

pub mod account;
pub mod answer;
pub mod competition;
pub mod declined;
pub mod digest;
pub mod game_over;
pub mod invitation;
pub mod reminders;
pub mod turn;
pub mod webhook;

use super::i18n;
use crate::domain::{GameId, Locale};
use crate::engine::registry::GameKind;
use crate::present::{Names, Sentence, join_names};
use chrono::{DateTime, Utc};
use serde_json::Value;

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
    /// Numbered from 1 in the mail, so that a reply may give a move by its number.
    moves: Vec<String>,
    /// The keyed tag of the numbered moves, for the `Message-ID`.
    list_tag: Option<String>,
    /// "… and N more on the game page", after the numbered moves.
    more_moves: Option<String>,
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
            list_tag: None,
            more_moves: None,
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
            // Indented, one per line, so that each move stands alone and is easy to copy; numbered,
            // so that a reply may give the number alone.
            out.extend(
                self.moves
                    .iter()
                    .enumerate()
                    .map(|(i, m)| format!("    {}. {m}", i + 1)),
            );
            out.extend(self.more_moves.iter().map(|m| format!("    {m}")));
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
                        ol { @for m in &self.moves { li { code { (m) } } } }
                        @if let Some(more) = &self.more_moves { p { (more) } }
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

/// Who a mail is for.
#[derive(Debug, Clone)]
pub struct Recipient {
    pub email: String,
    /// The display name (or the address, for someone without an account).
    pub name: String,
    pub locale: Locale,
    /// The IANA zone moments are written in (an unreadable one reads as UTC).
    pub time_zone: String,
}

/// The game a mail is about, as any seat may see it: its kind and who sits where.
#[derive(Debug, Clone)]
pub struct Table {
    pub game: GameId,
    pub kind: GameKind,
    /// Display names by seat, for the game's sentences (`?` for a seat not taken yet).
    pub seat_names: Vec<String>,
    /// Each seat as the others see it: the display name, or an invitee's masked address
    /// (design.md section 19).
    pub seats: Vec<(i16, String)>,
}

impl Table {
    pub fn game_name(&self) -> &'static str {
        self.kind.info().name
    }

    pub fn name_of(&self, seat: i64) -> String {
        self.names(Locale::En).seat(seat)
    }

    /// Everyone at the table but `seat`, in words.
    pub fn opponents(&self, seat: i16, locale: Locale) -> String {
        let names: Vec<String> = self
            .seats
            .iter()
            .filter(|(s, _)| *s != seat)
            .map(|(_, name)| name.clone())
            .collect();
        join_names(&names, locale)
    }

    pub fn names(&self, locale: Locale) -> Names<'_> {
        Names {
            locale,
            names: &self.seat_names,
        }
    }

    /// The line of each event, in order; events not worth a line are left out, and so is the
    /// end, which is the game-over mail's business (it reveals the hands and the scores).
    pub fn event_lines(&self, locale: Locale, events: &[Value]) -> Vec<String> {
        let names = self.names(locale);
        events
            .iter()
            .filter(|event| event["type"] != "game_over")
            .filter_map(|event| self.kind.event_line(locale, event))
            .map(|sentence| sentence.plain(&names))
            .collect()
    }
}

/// The end every mail about one seat of a game shares.
#[derive(Debug, Clone)]
pub struct SeatEnd {
    /// The one-tap link to the seat's game.
    pub play_url: String,
    pub unsubscribe_url: String,
    /// The game's rules page in the reader's language.
    pub rules_url: String,
}

/// What every mail to the player of one seat of a game knows: who they are, the table, the
/// seat, the end of the mail and its `Message-ID`.
#[derive(Debug, Clone)]
pub struct SeatMail {
    pub to: Recipient,
    pub table: Table,
    pub seat: i16,
    pub end: SeatEnd,
    pub message_id: String,
}

impl SeatMail {
    fn locale(&self) -> Locale {
        self.to.locale
    }

    /// The others at the table, in words.
    fn opponents(&self) -> String {
        self.table.opponents(self.seat, self.locale())
    }

    /// `t` filled with the game's name and the opponents, and `more`.
    fn fill(&self, t: &i18n::T, more: &[(&str, &str)]) -> String {
        let opponents = self.opponents();
        let mut words = vec![
            ("game", self.table.game_name()),
            ("opponents", opponents.as_str()),
        ];
        words.extend_from_slice(more);
        i18n::fill(self.locale(), t, &words)
    }

    /// The mail, greeting its reader, with nothing in it yet.
    fn doc(&self) -> Doc {
        Doc::new(self.locale(), &self.to.name)
    }

    /// Sentences of the game as plain lines.
    fn plain(&self, sentences: &[Sentence]) -> Vec<String> {
        let names = self.table.names(self.locale());
        sentences.iter().map(|line| line.plain(&names)).collect()
    }

    /// What the seat holds, from its own view (a turn mail's reminder).
    fn holds(&self, view: &Value) -> Vec<String> {
        let me = usize::try_from(self.seat).unwrap_or(usize::MAX);
        self.plain(&self.table.kind.reminder(self.locale(), view, me))
    }

    /// The result of the finished game, from the seat's view and the stored outcome.
    fn result(&self, view: &Value, outcome: &Value) -> Vec<String> {
        self.plain(&self.table.kind.result(self.locale(), view, outcome))
    }

    /// Where the game's rules page, in the reader's language, explains `rule` (its family's
    /// section), when it has a section for it.
    fn rule_url(&self, rule: &str) -> Option<String> {
        let link = crate::web::rules::rule_link(self.table.kind.as_str(), rule)?;
        let (_, section) = link.split_once('#')?;
        Some(format!("{}#{section}", self.end.rules_url))
    }

    /// The mail: `doc` ending with the seat's link under `cta`, the footer and the rules line,
    /// in the game's thread.
    fn write(&self, cta: &i18n::T, subject: String, mut doc: Doc) -> Mail {
        let locale = self.locale();
        doc.link = Some((
            i18n::pick(locale, cta).to_owned(),
            self.end.play_url.clone(),
        ));
        let mut mail = blank(&self.to, subject, &self.message_id, Some(self.table.game));
        footer(&self.end.unsubscribe_url, locale, &mut mail, &mut doc);
        let rules = rules_line(locale, self.table.game_name(), &self.end.rules_url);
        doc.rules = Some(rules);
        finish(mail, &doc)
    }
}

/// Moves by email: the seat's reply address (on the game's current version) and its legal
/// moves in notation.
#[derive(Debug, Clone)]
pub struct ByMail {
    pub address: String,
    pub moves: Vec<String>,
    /// The keyed tag of the first [`MOVES_LISTED`] moves, carried in the `Message-ID`.
    pub tag: String,
}

/// The most legal moves a mail lists; the game page has them all. A reply may give one of these
/// by its number (`services::inbound`), never one it did not show.
pub const MOVES_LISTED: usize = 40;

/// Whether the mail whose `Message-ID` is `message_id` (`<local@domain>`) carries `tag`, the
/// tag of the moves it numbered ([`crate::auth::links::LinkKeys::list_tag`]).
pub fn numbered_these(message_id: &str, tag: &str) -> bool {
    let local = message_id
        .trim()
        .trim_start_matches('<')
        .split('@')
        .next()
        .unwrap_or_default();
    local.rsplit_once('.').is_some_and(|(_, t)| t == tag)
}

impl ByMail {
    /// How to reply with a move, and the moves.
    fn write(&self, locale: Locale, doc: &mut Doc) {
        doc.reply_to = Some(self.address.clone());
        doc.moves_heading = Some(i18n::pick(locale, &i18n::REPLY_HOW).to_owned());
        doc.moves = self.moves.iter().take(MOVES_LISTED).cloned().collect();
        doc.list_tag = Some(self.tag.clone());
        if self.moves.len() > MOVES_LISTED {
            let more = (self.moves.len() - MOVES_LISTED).to_string();
            doc.more_moves = Some(i18n::fill(locale, &i18n::MORE_MOVES, &[("n", &more)]));
        }
    }
}

/// The game's rules page, after the link of every mail about a seat of a game.
fn rules_line(locale: Locale, game: &str, url: &str) -> String {
    i18n::fill(locale, &i18n::RULES_LINE, &[("game", game), ("url", url)])
}

/// The unsubscribe link, in the footer and in the `List-Unsubscribe` header.
fn footer(url: &str, locale: Locale, mail: &mut Mail, doc: &mut Doc) {
    doc.footer = Some(i18n::fill(locale, &i18n::FOOTER, &[("url", url)]));
    mail.unsubscribe_url = Some(url.to_owned());
}

fn finish(mut mail: Mail, doc: &Doc) -> Mail {
    mail.text = doc.text();
    mail.html = doc.html();
    if let Some(tag) = doc.list_tag.as_ref().filter(|_| !doc.moves.is_empty()) {
        // The numbers of the listed moves, carried in our Message-ID and so in the reply's
        // `In-Reply-To`: a reply by number that arrives after others' sealed choices in a
        // decision taken at once still reads against the list it saw (`services::inbound`).
        mail.message_id = format!("{}.{tag}", mail.message_id);
    }
    mail.reply_to.clone_from(&doc.reply_to);
    if let Some((_, url)) = &doc.link {
        mail.links.push(url.clone());
    }
    mail
}

/// A mail to `to` with nothing in it yet.
fn blank(to: &Recipient, subject: String, message_id: &str, thread: Option<GameId>) -> Mail {
    Mail {
        to_email: to.email.clone(),
        to_name: to.name.clone(),
        subject,
        text: String::new(),
        html: String::new(),
        message_id: message_id.to_owned(),
        thread,
        unsubscribe_url: None,
        links: Vec::new(),
        reply_to: None,
        in_reply_to: None,
        auto_replied: false,
    }
}

/// A moment in the reader's time zone.
fn local_time(to: &Recipient, at: DateTime<Utc>) -> String {
    crate::services::clocks::local_time(&to.time_zone, at)
}

/// A deadline in the reader's time zone, and the time left from `now` until it, in words.
fn deadline_words(to: &Recipient, at: DateTime<Utc>, now: DateTime<Utc>) -> (String, String) {
    let left = crate::services::clocks::time_left(to.locale, (at - now).num_seconds());
    (local_time(to, at), left)
}

#[cfg(test)]
mod tests;
