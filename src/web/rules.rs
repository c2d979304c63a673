//! The rules pages: `/rules` lists the games, `/rules/{game}` is a player-facing rules reference
//! in English, Spanish, Italian or French. The texts are Markdown files under `src/web/rules/`,
//! compiled in and rendered with pulldown-cmark into the site's layout.
//!
//! Every rule family of a game's spec (`MAG-PLACE`, `LAN-PAR`, ...) is a heading whose id is the
//! family, the same in every language, so a refusal citing `MAG-PLACE-2` links to
//! `/rules/magnate#MAG-PLACE` ([`rule_link`]). Card, county and law names are written in the texts
//! as `{{card:8VL}}`, `{{county:D}}` and `{{law:L01}}` and come from one table per kind here
//! ([`card_name`], [`county_name`], [`law_name`]); `{{cards}}` is the whole card table.
//!
//! This module owns no rules: the engines do. It must not be imported by `services`, `engine` or
//! `games`.

use super::account::signed_in;
use super::i18n::{request_locale, t};
use super::layout::{Chrome, page, respond};
use crate::domain::Locale;
use crate::games::magnate::cards::{CARDS, Rank};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, PreEscaped, html};
use std::collections::HashMap;

use crate::state::AppState;

/// The languages of the pages, in the order the language links list them.
const LOCALES: [Locale; 4] = [Locale::En, Locale::Es, Locale::It, Locale::Fr];

/// A game with a rules page: its kind, display name and rule-ID prefixes.
struct Game {
    kind: &'static str,
    name: &'static str,
    /// The prefixes of the IDs its spec gives (`DAT-*` are Lancaster's data tables).
    prefixes: &'static [&'static str],
    /// The text in en, es, it, fr.
    texts: [&'static str; 4],
}

const GAMES: &[Game] = &[
    Game {
        kind: "magnate",
        name: "Magnate",
        prefixes: &["MAG"],
        texts: [
            include_str!("rules/magnate.en.md"),
            include_str!("rules/magnate.es.md"),
            include_str!("rules/magnate.it.md"),
            include_str!("rules/magnate.fr.md"),
        ],
    },
    Game {
        kind: "lancaster",
        name: "Lancaster",
        prefixes: &["LAN", "DAT"],
        texts: [
            include_str!("rules/lancaster.en.md"),
            include_str!("rules/lancaster.es.md"),
            include_str!("rules/lancaster.it.md"),
            include_str!("rules/lancaster.fr.md"),
        ],
    },
    Game {
        kind: "merchants_and_marauders",
        name: "Merchants & Marauders",
        prefixes: &["MM"],
        texts: [
            include_str!("rules/merchants.en.md"),
            include_str!("rules/merchants.es.md"),
            include_str!("rules/merchants.it.md"),
            include_str!("rules/merchants.fr.md"),
        ],
    },
];

fn game(kind: &str) -> Option<&'static Game> {
    GAMES.iter().find(|g| g.kind == kind)
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
    if !g.prefixes.contains(&prefix) {
        return None;
    }
    anchors(g.texts[0])
        .any(|a| a == family)
        .then(|| format!("/rules/{}#{family}", g.kind))
}

// ---------------------------------------------------------------------------------------------
// Names.

/// Magnate's cards in es, it, fr (English is the engine's), by code. The seeds name the suits,
/// the Pawns, Crowns, Courts, the Excuse and the Mill; the other names are ours.
const CARD_NAMES: &[(&str, [&str; 3])] = &[
    ("1M", ["As de Lunas", "Asso di Lune", "As de Lunes"]),
    ("1S", ["As de Soles", "Asso di Soli", "As de Soleils"]),
    ("1V", ["As de Olas", "Asso di Onde", "As de Vagues"]),
    ("1L", ["As de Hojas", "Asso di Foglie", "As de Feuilles"]),
    ("1Y", ["As de Serpientes", "Asso di Serpi", "As de Guivres"]),
    ("1K", ["As de Nudos", "Asso di Nodi", "As de Nœuds"]),
    ("2MK", ["el Autor", "l'Autore", "l'Auteur"]),
    ("2SY", ["el Desierto", "il Deserto", "le Désert"]),
    ("2VL", ["el Origen", "l'Origine", "l'Origine"]),
    ("3MV", ["el Viaje", "il Viaggio", "le Voyage"]),
    ("3SK", ["el Pintor", "il Pittore", "le Peintre"]),
    ("3LY", ["el Salvaje", "il Selvaggio", "le Sauvage"]),
    ("4MS", ["la Montaña", "la Montagna", "la Montagne"]),
    ("4VL", ["el Marinero", "il Marinaio", "le Marin"]),
    ("4YK", ["la Batalla", "la Battaglia", "la Bataille"]),
    ("5ML", ["el Bosque", "la Foresta", "la Forêt"]),
    ("5SV", ["el Descubrimiento", "la Scoperta", "la Découverte"]),
    ("5YK", ["el Soldado", "il Soldato", "le Soldat"]),
    ("6MV", ["el Lunático", "il Lunatico", "le Lunatique"]),
    ("6SY", ["el Penitente", "il Penitente", "le Pénitent"]),
    ("6LK", ["el Mercado", "il Mercato", "le Marché"]),
    (
        "7ML",
        [
            "el Encuentro Fortuito",
            "l'Incontro Casuale",
            "la Rencontre Fortuite",
        ],
    ),
    ("7SK", ["el Castillo", "il Castello", "le Château"]),
    ("7VY", ["la Cueva", "la Caverna", "la Caverne"]),
    ("8MS", ["el Diplomático", "il Diplomatico", "le Diplomate"]),
    ("8VL", ["el Molino", "il Mulino", "le Moulin"]),
    ("8YK", ["la Traición", "il Tradimento", "la Trahison"]),
    ("9MS", ["el Pacto", "il Patto", "le Pacte"]),
    ("9VY", ["la Oscuridad", "l'Oscurità", "les Ténèbres"]),
    ("9LK", ["el Mercader", "il Mercante", "le Marchand"]),
    ("NM", ["la Cazadora", "la Cacciatrice", "la Chasseresse"]),
    ("NS", ["el Bardo", "il Bardo", "le Barde"]),
    ("NV", ["el Mar", "il Mare", "la Mer"]),
    ("NL", ["el Fin", "la Fine", "la Fin"]),
    ("NY", ["la Calamidad", "la Calamità", "la Calamité"]),
    ("NK", ["la Ganancia Inesperada", "la Manna", "l'Aubaine"]),
    ("0", ["la Excusa", "la Scusa", "l'Excuse"]),
    ("PMYK", ["el Vigía", "la Sentinella", "le Guetteur"]),
    ("PVLY", ["la Frontera", "la Frontiera", "la Frontière"]),
    ("PMSL", ["la Cosecha", "il Raccolto", "la Moisson"]),
    (
        "PSVK",
        ["el Farero", "il Guardiano del Faro", "le Gardien du Phare"],
    ),
    ("TMVK", ["el Cónsul", "il Console", "le Consul"]),
    ("TMLY", ["el Rito", "il Rito", "le Rite"]),
    ("TSVY", ["la Isla", "l'Isola", "l'Île"]),
    ("TSLK", ["la Ventana", "la Finestra", "la Fenêtre"]),
];

/// The name of a Magnate card by its code (`8VL`), in `l`.
pub fn card_name(l: Locale, code: &str) -> Option<&'static str> {
    let card = CARDS.iter().find(|c| c.code.eq_ignore_ascii_case(code))?;
    match l.index() {
        0 => Some(card.name),
        i => CARD_NAMES
            .iter()
            .find(|(c, _)| *c == card.code)
            .map(|(_, names)| names[i - 1]),
    }
}

/// Suit names as the rulebooks of each language give them (M S V L Y K).
const SUIT_NAMES: [[&str; 6]; 4] = [
    ["Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots"],
    ["Lunas", "Soles", "Olas", "Hojas", "Serpientes", "Nudos"],
    ["Lune", "Soli", "Onde", "Foglie", "Serpi", "Nodi"],
    ["Lunes", "Soleils", "Vagues", "Feuilles", "Guivres", "Nœuds"],
];

pub use crate::games::lancaster::names::{county_name, law_name};

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
        "code" => ["Code", "Código", "Codice", "Code"],
        "name" => ["Name", "Nombre", "Nome", "Nom"],
        "rank" => ["Rank", "Rango", "Valore", "Rang"],
        "suits" => ["Suits", "Palos", "Semi", "Couleurs"],
        "ace" => ["Ace", "As", "Asso", "As"],
        "crown" => ["Crown", "Corona", "Corona", "Couronne"],
        "pawn" => ["Pawn", "Peón", "Pedone", "Pion"],
        "court" => ["Court", "Corte", "Corte", "Cour"],
        "excuse" => ["Excuse", "Excusa", "Scusa", "Excuse"],
        "none" => ["none", "ninguno", "nessuno", "aucune"],
        _ => ["?", "?", "?", "?"],
    };
    texts[l.index()]
}

const LANGUAGE_NAMES: [&str; 4] = ["English", "Español", "Italiano", "Français"];

/// The card table of Magnate (`{{cards}}`), as Markdown.
fn card_table(l: Locale) -> String {
    let mut out = format!(
        "| {} | {} | {} | {} |\n|---|---|---|---|\n",
        say(l, "code"),
        say(l, "name"),
        say(l, "rank"),
        say(l, "suits")
    );
    for c in &CARDS {
        let rank = match c.rank {
            Rank::Ace => say(l, "ace").to_owned(),
            Rank::Number(n) => n.to_string(),
            Rank::Crown => say(l, "crown").to_owned(),
            Rank::Pawn => say(l, "pawn").to_owned(),
            Rank::Court => say(l, "court").to_owned(),
            Rank::Excuse => "—".to_owned(),
        };
        let suits: Vec<&str> = c
            .suits
            .iter()
            .map(|s| SUIT_NAMES[l.index()][s.index()])
            .collect();
        let suits = if suits.is_empty() {
            say(l, "none").to_owned()
        } else {
            suits.join(", ")
        };
        let name = card_name(l, c.code).unwrap_or(c.name);
        out.push_str(&format!("| `{}` | {name} | {rank} | {suits} |\n", c.code));
    }
    out
}

/// The text with its `{{...}}` names filled in for `l`.
fn expand(text: &str, l: Locale) -> String {
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
        let filled = match key.split_once(':') {
            None if key == "cards" => Some(card_table(l)),
            Some(("card", code)) => card_name(l, code).map(str::to_owned),
            Some(("county", letter)) => county_name(l, letter).map(str::to_owned),
            Some(("law", id)) => law_name(l, id).map(str::to_owned),
            _ => None,
        };
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
fn render(g: &Game, l: Locale) -> String {
    use pulldown_cmark::{Options, Parser, html::push_html};
    let text = expand(g.texts[l.index()], l);
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
fn asked_locale(req: &HttpRequest) -> Option<Locale> {
    let query = web::Query::<HashMap<String, String>>::from_query(req.query_string()).ok()?;
    let lang = query.get("lang")?.trim().to_ascii_lowercase();
    LOCALES.into_iter().find(|l| l.as_str() == lang)
}

/// The reader's shell: a signed-in reader's account, a visitor's browser; `?lang=` wins over both.
async fn chrome(state: &AppState, req: &HttpRequest) -> Chrome {
    let mut chrome = match signed_in(state, req).await {
        Some((_, _, chrome)) => chrome,
        None => Chrome::anonymous(request_locale(req)),
    };
    if let Some(l) = asked_locale(req) {
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
pub async fn rules_index(state: web::Data<AppState>, req: HttpRequest) -> HttpResponse {
    let chrome = chrome(&state, &req).await;
    let l = chrome.locale;
    let body = html! {
        h1 { (say(l, "rules")) }
        (language_links(l, "/rules"))
        p { (say(l, "intro")) }
        ul {
            @for g in GAMES {
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
) -> HttpResponse {
    let chrome = chrome(&state, &req).await;
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

/// Every rule family of `shared/rules/magnate.md` (sections 2–15).
pub const MAGNATE_FAMILIES: &[&str] = &[
    "MAG-COMP",
    "MAG-CARD",
    "MAG-SETUP",
    "MAG-TURN",
    "MAG-ROLL",
    "MAG-TAX",
    "MAG-INC",
    "MAG-PLAY",
    "MAG-PAY",
    "MAG-BUILD",
    "MAG-PLACE",
    "MAG-DEED",
    "MAG-SELL",
    "MAG-DEV",
    "MAG-TRADE",
    "MAG-DRAW",
    "MAG-END",
    "MAG-SCORE",
    "MAG-TIE",
    "MAG-COURT",
    "MAG-INFO",
    "MAG-OPT",
    "MAG-EDGE",
];

/// Every rule family of `shared/rules/lancaster.md` (sections 1–12), and the data tables the
/// page describes (section 13).
pub const LANCASTER_FAMILIES: &[&str] = &[
    "LAN-GEN",
    "LAN-CMP",
    "LAN-SET",
    "LAN-RND",
    "LAN-PLC",
    "LAN-CTY",
    "LAN-CAS",
    "LAN-CNF",
    "LAN-FAV",
    "LAN-PAR",
    "LAN-LAW",
    "LAN-RWC",
    "LAN-RWK",
    "LAN-RWF",
    "LAN-NXT",
    "LAN-FIN",
    "LAN-EFF",
    "LAN-2P",
    "LAN-ENG",
    "DAT-COUNTIES",
    "DAT-CASTLE",
    "DAT-ALLYCASTLE",
    "DAT-FAVOURS",
    "DAT-CONFLICTS",
    "DAT-LAWS",
    "DAT-KNIGHTS",
    "DAT-ROUNDTABLE",
    "DAT-MAJORITIES",
    "DAT-PLAYERCOUNT",
    "DAT-RULESET",
];

/// Every rule family of Part I of `shared/rules/merchants-and-marauders.md` (sections 1–23).
pub const MERCHANTS_FAMILIES: &[&str] = &[
    "MM-COMP", "MM-DICE", "MM-SETUP", "MM-ROUND", "MM-EVT", "MM-ACT", "MM-MOVE", "MM-SCOUT",
    "MM-PORT", "MM-SELL", "MM-BUY", "MM-YARD", "MM-RECR", "MM-RUM", "MM-MIS", "MM-STASH",
    "MM-RAID", "MM-NAV", "MM-DMG", "MM-CREW", "MM-WPN", "MM-PLUN", "MM-NPC", "MM-BNTY", "MM-WAR",
    "MM-GLORY", "MM-GCARD", "MM-DEATH", "MM-END", "MM-SOLO", "MM-COUNT",
];

/// The rule families each game's page has an anchor for (tests hold every page to them).
pub fn families(kind: &str) -> &'static [&'static str] {
    match kind {
        "magnate" => MAGNATE_FAMILIES,
        "lancaster" => LANCASTER_FAMILIES,
        "merchants_and_marauders" => MERCHANTS_FAMILIES,
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        for g in GAMES {
            let mut english: Vec<&str> = anchors(g.texts[0]).collect();
            english.sort_unstable();
            for family in families(g.kind) {
                assert!(english.contains(family), "{}: {family}", g.kind);
            }
            for (i, text) in g.texts.iter().enumerate().skip(1) {
                let mut ids: Vec<&str> = anchors(text).collect();
                ids.sort_unstable();
                assert_eq!(ids, english, "{} in language {i}", g.kind);
            }
        }
    }

    #[test]
    fn every_page_renders_its_anchors_and_fills_every_name() {
        for g in GAMES {
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
