//! Each game's page, behind one small trait: the board, the viewer's own panel, the forms for
//! their legal actions, and how a posted form reads as an action. Everything else of the game
//! page (session, CSRF, post/redirect/get, refusals next to their form, history, deadlines) is
//! generic and lives in `web::play` and `web::history`.
//!
//! A game without a page of its own gets [`plain_body`]: its history, and each legal action as a
//! button posting its notation, which every game's API parser reads.

pub mod lancaster;
pub mod magnate;
pub mod merchants;

use super::extract::Fields;
use super::i18n::t;
use super::play::{GamePage, Notice};
use maud::{Markup, html};
use serde_json::{Value, json};

/// A game's page.
pub trait Page: Sync {
    /// The game part of the page: board, panels, forms, history.
    fn body(&self, p: &GamePage, title: &str) -> Markup;

    /// The action the form `form` describes, as the API's JSON; what is wrong when it cannot.
    ///
    /// # Errors
    /// What is wrong with the fields, in the player's terms (said in the page's language, never
    /// repeating what was sent).
    fn action(&self, form: &str, fields: &Posted) -> Result<Value, Notice>;
}

/// The games with a page of their own, by wire name.
const PAGES: &[(&str, &dyn Page)] = &[
    ("magnate", &magnate::MagnatePage),
    ("lancaster", &lancaster::LancasterPage),
    ("merchants_and_marauders", &merchants::MerchantsPage),
];

fn page(kind: &str) -> Option<&'static dyn Page> {
    PAGES.iter().find(|(k, _)| *k == kind).map(|(_, p)| *p)
}

/// A posted form's fields: the body's, then the address's (a one-click form carries its choice
/// in the address, the page's token and version too). Each is read once per name
/// ([`Fields`]); a name in both is the body's when filled there.
#[derive(Debug, Clone, Default)]
pub struct Posted {
    pub body: Fields,
    pub query: Fields,
}

impl Posted {
    /// The trimmed value of `name`, from the body if it is filled there, else from the address.
    pub fn get(&self, name: &str) -> &str {
        self.body
            .get(name)
            .filter(|v| !v.trim().is_empty())
            .or_else(|| self.query.get(name))
            .unwrap_or("")
            .trim()
    }

    /// What the player entered, to show again next to a refusal (never the token).
    pub fn entered(&self) -> Fields {
        self.query.under(&self.body, "csrf")
    }
}

/// A rule ID in a refusal, linked to its place on the game's rules page when it has one.
pub fn rule_ref(kind: &str, rule: &str) -> Markup {
    match super::rules::rule_link(kind, rule) {
        Some(href) => html! { a.rule href=(href) { (rule) } },
        None => html! { span.rule { (rule) } },
    }
}

/// The game part of the page of a game of kind `kind`.
pub fn body(kind: &str, p: &GamePage, title: &str) -> Markup {
    match page(kind) {
        Some(page) => page.body(p, title),
        None => plain_body(p, title),
    }
}

/// The action of the form `form` posted on a page of a game of kind `kind`. The `notation` form
/// works for every game: its API reads the game's notation.
///
/// # Errors
/// What is wrong with the fields.
pub fn action(kind: &str, form: &str, fields: &Posted) -> Result<Value, Notice> {
    // A form may choose among listed actions by their notation, whatever its kind.
    if form == "notation" || !fields.get("notation").is_empty() {
        return Ok(json!({"notation": fields.get("notation")}));
    }
    match page(kind) {
        Some(page) => page.action(form, fields),
        None => Err(Notice::Key("no_such_form")),
    }
}

/// The page of a game whose board is not drawn on the web yet: who is to act, each legal
/// action as a button, and the history in sentences.
pub fn plain_body(p: &GamePage, title: &str) -> Markup {
    let l = p.locale;
    let url = format!(
        "/play/{}/notation?v={}&csrf={}",
        p.game.id,
        p.game.version,
        p.csrf.as_deref().unwrap_or("")
    );
    let notations: Vec<&str> = p
        .legal_actions
        .iter()
        .filter_map(|a| a["notation"].as_str())
        .collect();
    html! {
        h1 { (title) }
        p.muted { (t(l, "no_board")) }
        @if let Some(problem) = p.notes.problem.as_ref().filter(|pr| pr.action == "notation") {
            div.problem role="alert" id="problem-notation" {
                strong { (t(l, "refused")) }
                @if let Some(rule) = &problem.rule { " (" (rule_ref(&p.game.kind, rule)) ")" }
                ": " (problem.detail.say(p.locale))
            }
        }
        @if !notations.is_empty() {
            section aria-labelledby="actions-h" {
                h2 id="actions-h" { (t(l, "your_move")) }
                ul.plain.choices {
                    @for n in &notations {
                        li {
                            form.action method="post" action=(url) data-action="notation" {
                                input type="hidden" name="notation" value=(n);
                                button type="submit" { code { (n) } }
                            }
                        }
                    }
                }
            }
        }
        (super::history::history(p, &|_| None))
    }
}
