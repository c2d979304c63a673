//! The Lancaster game page (design.md section 9), drawn from the game resource the API serves:
//! the counties with their knights, the castle, the conflicts in France, parliament, each
//! player's public panel and the viewer's own supplies. It only shows what the viewer's view
//! holds: other players' gold and squires behind their screens, and every sealed ballot but the
//! viewer's own, are not in it.
//!
//! Each kind of decision listed for the viewer (a placement, a ballot, a ransom, a law's choice,
//! a county's reward …) is one form whose choices are exactly the listed actions, in words,
//! posting the action's notation; so a form can never offer what the rules refuse.

use crate::domain::Locale;
use crate::present::T;
use crate::web::history::{seat_names, title};
use crate::web::i18n::t;
use crate::web::play::{GamePage, Notice};
use maud::{Markup, html};
use serde_json::Value;

/// The page's own words, en/es/it/fr.
const WORDS: &[(&str, T)] = &[
    ("counties", ["Counties", "Condados", "Contee", "Comtés"]),
    ("castle", ["Castle", "Castillo", "Castello", "Château"]),
    (
        "france",
        [
            "Conflicts in France",
            "Conflictos en Francia",
            "Conflitti in Francia",
            "Conflits en France",
        ],
    ),
    (
        "parliament",
        ["Parliament", "Parlamento", "Parlamento", "Parlement"],
    ),
    (
        "laws_in_force",
        [
            "Laws in force",
            "Leyes vigentes",
            "Leggi in vigore",
            "Lois en vigueur",
        ],
    ),
    (
        "proposals",
        [
            "Proposed laws",
            "Leyes propuestas",
            "Leggi proposte",
            "Lois proposées",
        ],
    ),
    (
        "voted",
        ["Have voted", "Han votado", "Hanno votato", "Ont voté"],
    ),
    (
        "your_ballot",
        [
            "Your sealed ballot",
            "Tu voto secreto",
            "Il tuo voto segreto",
            "Votre bulletin scellé",
        ],
    ),
    ("ballot_yes", ["for", "a favor", "a favore", "pour"]),
    ("ballot_no", ["against", "en contra", "contro", "contre"]),
    // A late seat's default ballot (never listed as a choice, but shown as one's own ballot).
    (
        "ballot_abstain",
        ["abstains", "abstención", "astensione", "abstention"],
    ),
    (
        "min",
        [
            "minimum strength",
            "fuerza mínima",
            "forza minima",
            "force minimale",
        ],
    ),
    (
        "nobles_left",
        [
            "nobles left",
            "nobles restantes",
            "nobili rimasti",
            "nobles restants",
        ],
    ),
    ("empty", ["empty", "vacío", "vuoto", "vide"]),
    ("strength", ["strength", "fuerza", "forza", "force"]),
    ("gold", ["Gold", "Oro", "Oro", "Or"]),
    ("squires", ["Squires", "Escuderos", "Scudieri", "Écuyers"]),
    (
        "markers",
        [
            "Voting markers",
            "Marcadores de voto",
            "Segnalini di voto",
            "Marqueurs de vote",
        ],
    ),
    (
        "pp",
        [
            "Power points",
            "Puntos de poder",
            "Punti potere",
            "Points de pouvoir",
        ],
    ),
    ("nobles", ["Nobles", "Nobles", "Nobili", "Nobles"]),
    (
        "extensions",
        [
            "Extensions built",
            "Ampliaciones construidas",
            "Ampliamenti costruiti",
            "Extensions bâties",
        ],
    ),
    (
        "knights",
        ["Knights", "Caballeros", "Cavalieri", "Chevaliers"],
    ),
    ("ally", ["ally of", "aliado de", "alleato di", "allié de"]),
    (
        "screen",
        [
            "behind the screen",
            "tras la pantalla",
            "dietro lo schermo",
            "derrière l'écran",
        ],
    ),
    ("round", ["Round", "Ronda", "Round", "Manche"]),
    ("decks", ["Decks", "Mazos", "Mazzi", "Pioches"]),
    (
        "conflict_deck",
        [
            "conflict cards left",
            "cartas de conflicto restantes",
            "carte conflitto rimaste",
            "cartes conflit restantes",
        ],
    ),
    (
        "law_deck",
        [
            "law cards left",
            "cartas de ley restantes",
            "carte legge rimaste",
            "cartes loi restantes",
        ],
    ),
    (
        "decide",
        [
            "Your decision",
            "Tu decisión",
            "La tua decisione",
            "Votre décision",
        ],
    ),
    ("choose", ["Choose", "Elige", "Scegli", "Choisissez"]),
    (
        "in_reserve",
        ["in reserve", "en la reserva", "in riserva", "en réserve"],
    ),
    (
        "at_court",
        ["at court", "en la corte", "a corte", "à la cour"],
    ),
    ("decline", ["Decline", "Renunciar", "Rinuncia", "Refuser"]),
    (
        "place",
        [
            "Place a knight",
            "Colocar un caballero",
            "Piazza un cavaliere",
            "Placer un chevalier",
        ],
    ),
    ("vote", ["Vote", "Votar", "Vota", "Voter"]),
    (
        "start_extension",
        [
            "Starting extension",
            "Ampliación inicial",
            "Ampliamento iniziale",
            "Extension de départ",
        ],
    ),
    (
        "favour",
        [
            "Take a favour",
            "Tomar un favor",
            "Prendi un favore",
            "Prendre une faveur",
        ],
    ),
    (
        "exchange",
        ["Exchange", "Intercambio", "Scambio", "Échange"],
    ),
    (
        "upgrade",
        [
            "Upgrade a knight",
            "Mejorar un caballero",
            "Migliora un cavaliere",
            "Améliorer un chevalier",
        ],
    ),
    (
        "build",
        [
            "Build an extension",
            "Construir una ampliación",
            "Costruisci un ampliamento",
            "Bâtir une extension",
        ],
    ),
    (
        "noble",
        [
            "Take a noble",
            "Tomar un noble",
            "Prendi un nobile",
            "Prendre un noble",
        ],
    ),
    (
        "county",
        [
            "County reward",
            "Recompensa del condado",
            "Ricompensa della contea",
            "Récompense du comté",
        ],
    ),
    (
        "passage",
        [
            "Passage to France",
            "Paso a Francia",
            "Passaggio in Francia",
            "Passage en France",
        ],
    ),
    (
        "start_player",
        [
            "Next start player",
            "Próximo jugador inicial",
            "Prossimo primo giocatore",
            "Prochain premier joueur",
        ],
    ),
    ("ransom", ["Ransom", "Rescate", "Riscatto", "Rançon"]),
    (
        "reward",
        [
            "Choose the reward",
            "Elegir la recompensa",
            "Scegli la ricompensa",
            "Choisir la récompense",
        ],
    ),
    (
        "option_n",
        ["option {n}", "opción {n}", "opzione {n}", "option {n}"],
    ),
    (
        "with_squires",
        [
            "with {n} squires",
            "con {n} escuderos",
            "con {n} scudieri",
            "avec {n} écuyers",
        ],
    ),
    (
        "markers_n",
        [
            "{n} voting markers",
            "{n} marcadores",
            "{n} segnalini",
            "{n} marqueurs",
        ],
    ),
    ("times", ["{n} times", "{n} veces", "{n} volte", "{n} fois"]),
    (
        "take_noble",
        ["the noble", "el noble", "il nobile", "le noble"],
    ),
    (
        "take_reward",
        [
            "the reward",
            "la recompensa",
            "la ricompensa",
            "la récompense",
        ],
    ),
    (
        "take_both",
        [
            "both (pay the price)",
            "ambos (pagando el precio)",
            "entrambi (pagando il prezzo)",
            "les deux (en payant le prix)",
        ],
    ),
    ("take_it", ["take it", "tomarla", "prenderla", "la prendre"]),
    (
        "leave_it",
        ["leave it", "dejarla", "lasciarla", "la laisser"],
    ),
    ("stop", ["stop", "parar", "basta", "arrêter"]),
];

fn w(l: Locale, key: &str) -> &'static str {
    WORDS
        .iter()
        .find(|(k, _)| *k == key)
        .map_or("?", |(_, t)| crate::present::pick(l, t))
}

fn with_n(l: Locale, key: &str, n: &Value) -> String {
    w(l, key).replace("{n}", &word(n))
}

/// A JSON scalar as a word: strings without their quotes.
fn word(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "—".to_owned(),
        other => other.to_string(),
    }
}

fn list(v: &Value) -> Vec<&Value> {
    v.as_array().map(|a| a.iter().collect()).unwrap_or_default()
}

/// The names of the seats, and of each faction (an ally is "ally of <seat>").
struct Who {
    seats: Vec<String>,
    factions: Vec<String>,
}

impl Who {
    fn new(p: &GamePage, view: &Value) -> Who {
        let seats = seat_names(p);
        let factions = list(&view["factions"])
            .iter()
            .map(|f| {
                let seat = f["seat"].as_u64().map_or(usize::MAX, |s| s as usize);
                let name = seats.get(seat).cloned().unwrap_or_else(|| "?".to_owned());
                if f["ally"].as_bool() == Some(true) {
                    format!("{} {name}", w(p.locale, "ally"))
                } else {
                    name
                }
            })
            .collect();
        Who { seats, factions }
    }

    fn faction(&self, f: &Value) -> &str {
        f.as_u64()
            .and_then(|i| self.factions.get(i as usize))
            .map_or("?", String::as_str)
    }

    fn seat(&self, s: &Value) -> &str {
        s.as_u64()
            .and_then(|i| self.seats.get(i as usize))
            .map_or("?", String::as_str)
    }
}

/// A county's name by its letter in the reader's language, else as the game names it, else the
/// letter.
fn county_name(l: Locale, view: &Value, id: &str) -> String {
    if let Some(name) = crate::games::lancaster::names::county_name(l, id) {
        return name.to_owned();
    }
    list(&view["counties"])
        .iter()
        .find(|c| c["county"].as_str() == Some(id))
        .and_then(|c| c["name"].as_str())
        .map_or_else(|| id.to_owned(), str::to_owned)
}

/// A placement target in words: a county by name, a castle space or a conflict card by id.
fn target_text(l: Locale, view: &Value, target: &Value) -> String {
    let id = word(target);
    if list(&view["counties"])
        .iter()
        .any(|c| c["county"].as_str() == Some(id.as_str()))
    {
        county_name(l, view, &id)
    } else {
        id
    }
}

/// One listed action in words (the viewer's own choice: it never shows on another's page).
fn choice_text(l: Locale, view: &Value, who: &Who, a: &Value) -> String {
    let declined = || w(l, "decline").to_owned();
    match a["type"].as_str().unwrap_or("") {
        "place" => {
            let mut s = format!(
                "{} {}{} → {}",
                w(l, "strength"),
                if a["ally"].as_bool() == Some(true) {
                    "a"
                } else {
                    ""
                },
                word(&a["knight"]),
                target_text(l, view, &a["target"])
            );
            if a["squires"].as_u64().unwrap_or(0) > 0 {
                s = format!("{s}, {}", with_n(l, "with_squires", &a["squires"]));
            }
            s
        }
        "vote" => {
            let side = match a["yes"].as_bool() {
                Some(true) => "ballot_yes",
                Some(false) => "ballot_no",
                None => "ballot_abstain",
            };
            format!("{}, {}", w(l, side), with_n(l, "markers_n", &a["markers"]))
        }
        "exchange" => with_n(l, "times", &a["times"]),
        "noble" => county_name(l, view, &word(&a["county"])),
        "county" => w(l, &format!("take_{}", word(&a["take"]))).to_owned(),
        "start_player" => who.seat(&a["seat"]).to_owned(),
        "castle" => {
            let take = if a["take"].as_bool() == Some(false) {
                "leave_it"
            } else {
                "take_it"
            };
            format!("{}: {}", word(&a["space"]), w(l, take))
        }
        "upgrade" | "ransom" if a["knight"].is_null() => {
            if a["type"] == "ransom" {
                w(l, "stop").to_owned()
            } else {
                declined()
            }
        }
        "upgrade" | "ransom" => format!("{} {}", w(l, "strength"), word(&a["knight"])),
        "passage" if a["card"].is_null() => declined(),
        "passage" => word(&a["card"]),
        "favour" => word(&a["tile"]),
        "reward" => with_n(l, "option_n", &a["option"]),
        "build" | "start_extension" => word(&a["space"]),
        _ => a["notation"].as_str().unwrap_or("").to_owned(),
    }
}

/// The kinds of decision in the order the listed actions first name them.
fn kinds(legal: &[Value]) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for a in legal {
        if let Some(k) = a["type"].as_str()
            && !out.contains(&k)
        {
            out.push(k);
        }
    }
    out
}

fn problem_box(p: &GamePage, action: &str) -> Markup {
    html! {
        @if let Some(pr) = p.notes.problem.as_ref().filter(|pr| pr.action == action) {
            div.problem role="alert" id={ "problem-" (action) } {
                strong { (t(p.locale, "refused")) }
                @if let Some(rule) = &pr.rule { " (" (super::rule_ref(&p.game.kind, rule)) ")" }
                ": " (pr.detail.say(p.locale))
            }
        }
    }
}

/// The viewer's decisions: a form per kind, offering exactly the listed actions.
fn decisions(p: &GamePage, view: &Value, who: &Who) -> Markup {
    let l = p.locale;
    let legal = &p.legal_actions;
    let url = |kind: &str| {
        format!(
            "/play/{}/{kind}?v={}&csrf={}",
            p.game.id,
            p.game.version,
            p.csrf.as_deref().unwrap_or("")
        )
    };
    let reminder = crate::engine::registry::GameKind::parse(&p.game.kind)
        .zip(p.game.you.as_ref())
        .map(|(k, you)| k.reminder(l, view, usize::from(you.seat)))
        .unwrap_or_default();
    html! {
        @if !legal.is_empty() {
            section.decide aria-labelledby="decide-h" {
                h2 id="decide-h" { (w(l, "decide")) }
                @for s in &reminder {
                    p.muted { (crate::web::history::sentence(p, s, &|_| None)) }
                }
                @for kind in kinds(legal) {
                    @let id = format!("{kind}-notation");
                    @let chosen = p.notes.problem.as_ref().filter(|pr| pr.action == kind).and_then(|pr| pr.fields.get("notation"));
                    form.action method="post" action=(url(kind)) data-action=(kind) {
                        h3 { (w(l, kind)) }
                        (problem_box(p, kind))
                        label for=(id) { (w(l, "choose")) }
                        br;
                        select id=(id) name="notation" required {
                            @for a in legal.iter().filter(|a| a["type"] == kind) {
                                @let n = a["notation"].as_str().unwrap_or("");
                                option value=(n) selected[chosen == Some(n)] {
                                    (choice_text(l, view, who, a))
                                }
                            }
                        }
                        " "
                        button type="submit" { (w(l, kind)) }
                    }
                }
            }
        }
    }
}

fn counties(l: Locale, view: &Value, who: &Who) -> Markup {
    html! {
        section aria-labelledby="counties-h" {
            h2 id="counties-h" { (w(l, "counties")) }
            ul.plain {
                @for c in list(&view["counties"]) {
                    li {
                        strong { (county_name(l, view, &word(&c["county"]))) }
                        span.muted {
                            " · " (w(l, "min")) " " (word(&c["min"]))
                            " · " (word(&c["nobles_left"])) " " (w(l, "nobles_left"))
                        }
                        " · "
                        @match c.get("knight") {
                            Some(k) if !k.is_null() => {
                                (who.faction(&k["faction"])) ": " (w(l, "strength")) " " (word(&k["piece"]))
                                @if k["squires"].as_u64().unwrap_or(0) > 0 {
                                    " + " (word(&k["squires"])) " " (w(l, "squires").to_lowercase())
                                }
                            }
                            _ => { span.muted { (w(l, "empty")) } }
                        }
                    }
                }
            }
        }
    }
}

fn conflicts(l: Locale, view: &Value, who: &Who) -> Markup {
    let rows = [&view["top_row"], &view["bottom_row"]];
    html! {
        section aria-labelledby="france-h" {
            h2 id="france-h" { (w(l, "france")) }
            @for row in rows {
                ul.plain {
                    @for c in list(row) {
                        li {
                            strong { (word(&c["card"])) }
                            span.muted { " · France " (word(&c["france"])) " · PP " (word(&c["pp"][0])) "/" (word(&c["pp"][1])) "/" (word(&c["pp"][2])) }
                            @for s in list(&c["spaces"]) {
                                " · " (who.faction(&s["faction"])) " " (word(&s["strength"]))
                            }
                        }
                    }
                }
            }
        }
    }
}

fn parliament(l: Locale, view: &Value, who: &Who) -> Markup {
    // A law by its code and its name in the reader's language (the rules page's names).
    let laws = |v: &Value| -> String {
        let ids: Vec<String> = list(v)
            .iter()
            .map(|x| {
                let id = word(x);
                match crate::games::lancaster::names::law_name(l, &id) {
                    Some(name) => format!("{id} {name}"),
                    None => id,
                }
            })
            .collect();
        if ids.is_empty() {
            "—".to_owned()
        } else {
            ids.join(", ")
        }
    };
    let voted: Vec<&str> = list(&view["voted"]).iter().map(|s| who.seat(s)).collect();
    html! {
        section aria-labelledby="parliament-h" {
            h2 id="parliament-h" { (w(l, "parliament")) }
            p { (w(l, "laws_in_force")) ": " (laws(&view["current_laws"])) }
            p { (w(l, "proposals")) ": " (laws(&view["proposed_laws"])) }
            @if !voted.is_empty() {
                p { (w(l, "voted")) ": " (voted.join(", ")) }
            }
            @if let Some(b) = view.get("my_ballot").filter(|b| !b.is_null()) {
                @let side = match b["yes"].as_bool() { Some(true) => "ballot_yes", Some(false) => "ballot_no", None => "ballot_abstain" };
                p.mine { (w(l, "your_ballot")) ": " (w(l, side)) ", " (with_n(l, "markers_n", &b["markers"])) }
            }
            p.muted {
                (w(l, "decks")) ": " (word(&view["conflict_deck_count"])) " " (w(l, "conflict_deck"))
                " · " (word(&view["law_deck_count"])) " " (w(l, "law_deck"))
            }
        }
    }
}

/// Where a knight stands, in words.
fn at_text(l: Locale, view: &Value, at: &Value) -> String {
    match at {
        Value::String(s) if s == "reserve" => w(l, "in_reserve").to_owned(),
        Value::String(s) if s == "court" => w(l, "at_court").to_owned(),
        Value::String(s) => s.clone(),
        Value::Object(m) => m
            .iter()
            .next()
            .map_or_else(String::new, |(k, v)| match k.as_str() {
                "county" => county_name(l, view, &word(v)),
                _ => word(v),
            }),
        other => word(other),
    }
}

fn players(p: &GamePage, view: &Value, who: &Who) -> Markup {
    let l = p.locale;
    let me = p.game.you.as_ref().map(|y| u64::from(y.seat));
    html! {
        section aria-labelledby="players-h" {
            h2 id="players-h" { (t(l, "players")) }
            @for f in list(&view["factions"]) {
                @let mine = f["seat"].as_u64() == me && f["ally"].as_bool() != Some(true);
                div class={ "faction" @if mine { " me" } } {
                    h3 {
                        (who.faction(&f["faction"]))
                        @if mine { " (" (t(l, "you")) ")" }
                    }
                    p {
                        (w(l, "pp")) ": " (word(&f["pp"]))
                        " · " (w(l, "markers")) ": " (word(&f["voting_markers"]))
                    }
                    @if f.get("gold").is_some() || f.get("squires").is_some() {
                        p { (w(l, "gold")) ": " (word(&f["gold"])) " · " (w(l, "squires")) ": " (word(&f["squires"])) }
                    } @else if f["ally"].as_bool() != Some(true) {
                        p.muted { (w(l, "gold")) ", " (w(l, "squires").to_lowercase()) ": " (w(l, "screen")) }
                    }
                    @let nobles: Vec<String> = list(&f["nobles"]).iter().map(|c| county_name(l, view, &word(c))).collect();
                    @if !nobles.is_empty() { p { (w(l, "nobles")) ": " (nobles.join(", ")) } }
                    @let built: Vec<String> = list(&f["extensions_built"]).iter().map(|x| word(x)).collect();
                    @if !built.is_empty() { p { (w(l, "extensions")) ": " (built.join(", ")) } }
                    p {
                        (w(l, "knights")) ": "
                        @for (i, k) in list(&f["knights"]).iter().enumerate() {
                            @if i > 0 { "; " }
                            (word(&k["piece"])) " (" (at_text(l, view, &k["at"])) ")"
                        }
                    }
                }
            }
        }
    }
}

fn status(p: &GamePage, view: &Value, who: &Who) -> Markup {
    let l = p.locale;
    let over = matches!(
        p.game.status,
        crate::services::games::GameStatus::Finished | crate::services::games::GameStatus::Aborted
    );
    let pending: Vec<&str> = list(&view["pending"]).iter().map(|s| who.seat(s)).collect();
    let results = crate::engine::registry::GameKind::parse(&p.game.kind)
        .zip(p.game.outcome.as_ref())
        .map(|(k, o)| k.result(l, view, o))
        .unwrap_or_default();
    html! {
        @if over {
            div.status role="status" {
                strong { (t(l, "game_over")) }
                ul.plain {
                    @for s in &results { li { (crate::web::history::sentence(p, s, &|_| None)) } }
                }
            }
        } @else if !p.legal_actions.is_empty() {
            div.status.mine role="status" { strong { (t(l, "your_move")) } }
        } @else if !pending.is_empty() {
            div.status role="status" { (t(l, "waiting_for")) " " strong { (pending.join(", ")) } }
        }
        p.muted { (w(l, "round")) " " (word(&view["round"])) }
    }
}

/// The body of the game page.
pub fn body(p: &GamePage) -> Markup {
    let l = p.locale;
    let Some(view) = p.view.as_ref() else {
        return html! {
            h1 { (title(p)) }
            p.status { (t(l, "status_waiting")) }
        };
    };
    let who = Who::new(p, view);
    html! {
        h1 { (title(p)) }
        (status(p, view, &who))
        @if let Some(n) = &p.notes.notice {
            p.notice role="alert" {
                (n.say(l))
            }
        }
        (decisions(p, view, &who))
        div.grid {
            div {
                (counties(l, view, &who))
                (conflicts(l, view, &who))
            }
            div {
                (players(p, view, &who))
                (parliament(l, view, &who))
            }
        }
        (crate::web::history::history(p, &|_| None))
    }
}

/// Lancaster's page.
pub struct LancasterPage;

impl super::Page for LancasterPage {
    fn body(&self, p: &GamePage, _title: &str) -> Markup {
        body(p)
    }

    fn action(&self, _form: &str, _fields: &super::Posted) -> Result<Value, Notice> {
        // Every Lancaster form posts a listed action's notation, read before this.
        Err(Notice::Key("choose_listed"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_is_in_four_languages_and_every_kind_of_decision_has_a_title() {
        for (key, t) in WORDS {
            assert!(t.iter().all(|s| !s.is_empty()), "{key}");
        }
        for kind in [
            "start_extension",
            "place",
            "favour",
            "vote",
            "exchange",
            "upgrade",
            "build",
            "noble",
            "county",
            "passage",
            "start_player",
            "castle",
            "ransom",
        ] {
            assert_ne!(w(Locale::Fr, kind), "?", "{kind}");
        }
    }
}
