//! The rules pages: `/rules` lists the games, `/rules/{game}` is a player-facing rules reference
//! in English, Spanish, Italian or French. Each game gives its page through its presentation
//! seam ([`crate::present::Present::rules`]: Markdown files in the game's folder, compiled in);
//! they are rendered here with pulldown-cmark into the site's layout.
//!
//! Every rule family of a game's spec (`MAG-PLACE`, `LAN-PAR`, ...) is a heading whose id is the
//! family, the same in every language, so a refusal citing `MAG-PLACE-2` links to
//! `/rules/magnate#MAG-PLACE` ([`rule_link`]). Card, county and law names are written in the texts
//! as `{{card:8VL}}`, `{{county:D}}` and `{{law:L01}}` and the game fills them in the reader's
//! language ([`crate::present::Present::rules_name`]); `{{cards}}` is Magnate's card table.
//!
//! This module owns no rules: the engines do. It must not be imported by `services`, `engine` or
//! `games`.

use super::account::signed_in;
use super::extract::{Fields, Query};
use super::i18n::{request_locale, t};
use super::layout::{Chrome, page, respond};
use crate::domain::Locale;
use crate::engine::registry::GameKind;
use crate::present::RulesPage;
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, PreEscaped, html};

use crate::state::AppState;

/// The languages of the pages, in the order the language links list them.
const LOCALES: [Locale; 4] = [Locale::En, Locale::Es, Locale::It, Locale::Fr];

/// A game with a rules page: its kind (wire name and display name) and the page.
#[derive(Clone, Copy)]
struct Game {
    kind: &'static str,
    name: &'static str,
    page: &'static RulesPage,
    of: GameKind,
}

/// The games with a rules page, in the registry's order.
fn games() -> impl Iterator<Item = Game> {
    GameKind::ALL.iter().filter_map(|k| {
        k.rules().map(|page| Game {
            kind: k.as_str(),
            name: k.info().name,
            page,
            of: *k,
        })
    })
}

fn game(kind: &str) -> Option<Game> {
    games().find(|g| g.kind == kind)
}

/// The rule families a game's page has an anchor for (tests hold every page to them).
pub fn families(kind: &str) -> &'static [&'static str] {
    game(kind).map_or(&[], |g| g.page.families)
}

/// The address of a game's rules page (the list of games for a kind without one).
pub fn rules_href(kind: &str) -> String {
    match game(kind) {
        Some(g) => format!("/rules/{}", g.kind),
        None => "/rules".to_owned(),
    }
}

/// The family of a rule ID: its first two parts (`MAG-PLACE-2` → `MAG-PLACE`, `LAN-2P-3` →
/// `LAN-2P`, `DAT-RULESET` → itself).
fn family(rule: &str) -> Option<&str> {
    let mut dashes = rule.match_indices('-').map(|(i, _)| i);
    let first = dashes.next()?;
    let end = dashes.next().unwrap_or(rule.len());
    (first > 0 && end > first + 1).then(|| &rule[..end])
}

/// The ids of the anchors of a text: `{#id}` heading attributes and `id="..."` attributes.
fn anchors(text: &str) -> impl Iterator<Item = &str> {
    let headings = text
        .split("{#")
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(id, _)| id));
    let attributes = text
        .split("id=\"")
        .skip(1)
        .filter_map(|rest| rest.split_once('"').map(|(id, _)| id));
    headings.chain(attributes)
}

/// Where the rules page explains a rule: `/rules/magnate#MAG-PLACE` for `MAG-PLACE-2`. `None`
/// for a kind without a rules page, an ID of another game, or a family without an anchor.
pub fn rule_link(kind: &str, rule: &str) -> Option<String> {
    let g = game(kind)?;
    let family = family(rule.trim())?;
    let prefix = family.split('-').next()?;
    if !g.page.prefixes.contains(&prefix) {
        return None;
    }
    anchors(g.page.texts[0])
        .any(|a| a == family)
        .then(|| format!("/rules/{}#{family}", g.kind))
}

// ---------------------------------------------------------------------------------------------
// The words of the pages themselves.

/// Small texts of the pages, en/es/it/fr.
fn say(l: Locale, key: &str) -> &'static str {
    let texts: [&str; 4] = match key {
        "rules" => ["Rules", "Reglas", "Regole", "Règles"],
        "rules_of" => [
            "Rules of {g}",
            "Reglas de {g}",
            "Regole di {g}",
            "Règles de {g}",
        ],
        "intro" => [
            "A rules reference for each game played here, in English, Spanish, Italian and French.",
            "Un reglamento de consulta para cada juego de este servidor, en inglés, español, italiano y francés.",
            "Un regolamento di consultazione per ogni gioco di questo server, in inglese, spagnolo, italiano e francese.",
            "Un aide-mémoire des règles de chaque jeu du serveur, en anglais, espagnol, italien et français.",
        ],
        "languages" => ["Languages", "Idiomas", "Lingue", "Langues"],
        "all_games" => [
            "Rules of every game",
            "Reglas de todos los juegos",
            "Regole di tutti i giochi",
            "Règles de tous les jeux",
        ],
        "no_rules" => [
            "There is no rules page for this game.",
            "No hay página de reglas para este juego.",
            "Non c'è una pagina di regole per questo gioco.",
            "Il n'y a pas de page de règles pour ce jeu.",
        ],
        _ => ["?", "?", "?", "?"],
    };
    texts[l.index()]
}

const LANGUAGE_NAMES: [&str; 4] = ["English", "Español", "Italiano", "Français"];

/// The text with its `{{...}}` names filled in for `l` by the game.
fn expand(g: Game, text: &str, l: Locale) -> String {
    let mut out = String::with_capacity(text.len() + 4096);
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else {
            out.push_str(&rest[start..]);
            return out;
        };
        let key = &after[..end];
        let filled = g.of.rules_name(l, key);
        match filled {
            Some(s) => out.push_str(&s),
            None => out.push_str(&rest[start..start + 2 + end + 2]),
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    out
}

/// A game's rules in `l`, as HTML.
fn render(g: Game, l: Locale) -> String {
    use pulldown_cmark::{Options, Parser, html::push_html};
    let text = expand(g, g.page.texts[l.index()], l);
    let options = Options::ENABLE_TABLES | Options::ENABLE_HEADING_ATTRIBUTES;
    let mut out = String::with_capacity(text.len() * 2);
    push_html(&mut out, Parser::new_ext(&text, options));
    // Wide tables scroll sideways on a phone instead of widening the page.
    out.replace("<table>", "<div class=\"scroll\"><table>")
        .replace("</table>", "</table></div>")
}

// ---------------------------------------------------------------------------------------------
// The pages.

/// The language a `?lang=` asks for, if it names one of ours.
fn asked_locale(query: &Fields) -> Option<Locale> {
    let lang = query.get("lang")?.trim().to_ascii_lowercase();
    LOCALES.into_iter().find(|l| l.as_str() == lang)
}

/// The reader's shell: a signed-in reader's account, a visitor's browser; `?lang=` wins over both.
async fn chrome(state: &AppState, req: &HttpRequest, query: &Fields) -> Chrome {
    let mut chrome = match signed_in(state, req).await {
        Some((_, _, chrome)) => chrome,
        None => Chrome::anonymous(request_locale(req)),
    };
    if let Some(l) = asked_locale(query) {
        chrome.locale = l;
    }
    chrome
}

fn language_links(l: Locale, path: &str) -> Markup {
    html! {
        nav.languages aria-label=(say(l, "languages")) {
            p {
                @for (i, other) in LOCALES.into_iter().enumerate() {
                    @if i > 0 { " · " }
                    @if other == l {
                        strong aria-current="page" lang=(other.as_str()) { (LANGUAGE_NAMES[other.index()]) }
                    } @else {
                        a href={ (path) "?lang=" (other.as_str()) } hreflang=(other.as_str()) lang=(other.as_str()) {
                            (LANGUAGE_NAMES[other.index()])
                        }
                    }
                }
            }
        }
    }
}

/// `GET /rules`.
pub async fn rules_index(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: Query,
) -> HttpResponse {
    let chrome = chrome(&state, &req, &query).await;
    let l = chrome.locale;
    let body = html! {
        h1 { (say(l, "rules")) }
        (language_links(l, "/rules"))
        p { (say(l, "intro")) }
        ul {
            @for g in games() {
                li { a href={ (rules_href(g.kind)) "?lang=" (l.as_str()) } { (say(l, "rules_of").replace("{g}", g.name)) } }
            }
        }
    };
    respond(StatusCode::OK, page(&chrome, say(l, "rules"), body))
}

/// `GET /rules/{game}[?lang=en|es|it|fr]`.
pub async fn rules_page(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<String>,
    query: Query,
) -> HttpResponse {
    let chrome = chrome(&state, &req, &query).await;
    let l = chrome.locale;
    let Some(g) = game(&path.into_inner()) else {
        let body = html! {
            h1 { (t(l, "not_found")) }
            p { (say(l, "no_rules")) }
            p { a href="/rules" { (say(l, "all_games")) } }
        };
        return respond(
            StatusCode::NOT_FOUND,
            page(&chrome, t(l, "not_found"), body),
        );
    };
    let title = say(l, "rules_of").replace("{g}", g.name);
    let body = html! {
        h1 { (title) }
        (language_links(l, &rules_href(g.kind)))
        article.rules {
            (PreEscaped(render(g, l)))
        }
        p { a href="/rules" { (say(l, "all_games")) } }
    };
    respond(StatusCode::OK, page(&chrome, &title, body))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::lancaster::names::{county_name, law_name};
    use crate::games::magnate::cards::CARDS;
    use crate::games::magnate::names::card_name;

    #[test]
    fn every_rule_family_of_both_specs_links_to_its_anchor() {
        for kind in ["magnate", "lancaster", "merchants_and_marauders"] {
            for family in families(kind) {
                let expected = format!("/rules/{kind}#{family}");
                assert_eq!(
                    rule_link(kind, &format!("{family}-1")).as_deref(),
                    Some(expected.as_str())
                );
                assert_eq!(rule_link(kind, family).as_deref(), Some(expected.as_str()));
            }
        }
        assert_eq!(
            rule_link("magnate", "MAG-PLACE-2").as_deref(),
            Some("/rules/magnate#MAG-PLACE")
        );
        assert_eq!(
            rule_link("magnate", "MAG-OPT-MEGA").as_deref(),
            Some("/rules/magnate#MAG-OPT")
        );
        assert_eq!(
            rule_link("lancaster", "LAN-2P-12").as_deref(),
            Some("/rules/lancaster#LAN-2P")
        );
    }

    #[test]
    fn a_rule_of_another_game_or_an_unknown_family_has_no_link() {
        assert_eq!(rule_link("magnate", "LAN-PAR-3"), None);
        assert_eq!(rule_link("lancaster", "MAG-PLACE-2"), None);
        assert_eq!(rule_link("merchants_and_marauders", "LAN-PAR-3"), None);
        assert_eq!(rule_link("magnate", "MAG-NOPE-1"), None);
        assert_eq!(rule_link("nim", "NIM-TAKE-1"), None);
        assert_eq!(rule_link("magnate", ""), None);
        assert_eq!(rule_link("magnate", "MAG"), None);
        assert_eq!(rule_link("magnate", "-PLACE-2"), None);
    }

    #[test]
    fn every_language_has_the_same_anchors_as_english() {
        for g in games() {
            let mut english: Vec<&str> = anchors(g.page.texts[0]).collect();
            english.sort_unstable();
            for family in families(g.kind) {
                assert!(english.contains(family), "{}: {family}", g.kind);
            }
            for (i, text) in g.page.texts.iter().enumerate().skip(1) {
                let mut ids: Vec<&str> = anchors(text).collect();
                ids.sort_unstable();
                assert_eq!(ids, english, "{} in language {i}", g.kind);
            }
        }
    }

    #[test]
    fn every_page_renders_its_anchors_and_fills_every_name() {
        for g in games() {
            for l in LOCALES {
                let html = render(g, l);
                assert!(!html.contains("{{"), "{} {l:?}: an unfilled name", g.kind);
                assert!(!html.contains("{#"), "{} {l:?}: a raw anchor", g.kind);
                for family in families(g.kind) {
                    assert!(
                        html.contains(&format!("id=\"{family}\"")),
                        "{} {l:?}: {family}",
                        g.kind
                    );
                }
            }
        }
    }

    #[test]
    fn every_card_county_and_law_has_a_name_in_every_language() {
        for l in LOCALES {
            for c in &CARDS {
                assert!(card_name(l, c.code).is_some(), "{l:?} {}", c.code);
            }
            for letter in ["A", "B", "C", "D", "E", "F", "G", "H", "I"] {
                assert!(county_name(l, letter).is_some(), "{l:?} {letter}");
            }
            for i in 1..=18 {
                assert!(law_name(l, &format!("L{i:02}")).is_some(), "{l:?} L{i:02}");
            }
        }
        assert_eq!(card_name(Locale::Es, "8VL"), Some("el Molino"));
        assert_eq!(card_name(Locale::It, "8vl"), Some("il Mulino"));
        assert_eq!(card_name(Locale::Fr, "8VL"), Some("le Moulin"));
        assert_eq!(card_name(Locale::En, "8VL"), Some("the Mill"));
        assert_eq!(card_name(Locale::En, "XX"), None);
    }

    #[test]
    fn the_pages_use_the_names_of_their_language() {
        let magnate = game("magnate").unwrap();
        assert!(render(magnate, Locale::Es).contains("el Molino"));
        assert!(render(magnate, Locale::It).contains("Serpi"));
        assert!(render(magnate, Locale::Fr).contains("Guivres"));
        let lancaster = game("lancaster").unwrap();
        assert!(render(lancaster, Locale::Fr).contains("Comté A"));
        assert!(render(lancaster, Locale::Es).contains(law_name(Locale::Es, "L10").unwrap()));
    }

    #[test]
    fn the_rules_address_of_a_kind() {
        assert_eq!(rules_href("magnate"), "/rules/magnate");
        assert_eq!(rules_href("lancaster"), "/rules/lancaster");
        assert_eq!(
            rules_href("merchants_and_marauders"),
            "/rules/merchants_and_marauders"
        );
        assert_eq!(rules_href("nim"), "/rules");
    }
}
