//! The Magnate game page, drawn from the game resource the API serves (the caller's view and legal
//! actions) and the caller's history: it can only show what the viewer may see, because it is
//! never given more.
//!
//! Each action form posts to `/play/{id}/{type}`; the page's version and CSRF token ride in the
//! form's address (`?v=..&csrf=..`), so the body holds only the player's choices. One-click forms
//! (sell a card, end the turn) carry their choice in the address too.

use super::Posted;
use crate::domain::Locale;
use crate::games::magnate::cards::Card;
use crate::games::magnate::names;
use crate::present::Part;
use crate::web::extract::{Accepts, unfit};
use crate::web::history::title;
use crate::web::i18n::t;
use crate::web::play::{GamePage, Notice};
use maud::{Markup, PreEscaped, html};
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};

const SUITS: [&str; 6] = ["M", "S", "V", "L", "Y", "K"];
const DISTRICTS: [&str; 5] = ["a", "b", "c", "d", "e"];

fn name_of(p: &GamePage, seat: usize) -> String {
    p.game
        .seats
        .get(seat)
        .and_then(|s| s.player.as_ref())
        .map_or_else(
            || format!("{} {seat}", t(p.locale, "seat")),
            |pl| pl.display_name.clone(),
        )
}

fn me(p: &GamePage) -> Option<usize> {
    p.game.you.as_ref().map(|y| usize::from(y.seat))
}

/// A card by code: the code, its suits as icons and letters, its name.
fn card(l: Locale, code: &str) -> Markup {
    let info = Card::from_code(code);
    html! {
        span.card {
            span.code { (code) }
            @if let Some(c) = info {
                @for s in c.suits().iter() {
                    (suit(l, &s.to_string()))
                }
                span.name { (names::card_name(l, code).unwrap_or(c.name())) }
            }
        }
    }
}

/// A suit->count map as icons with counts.
fn tokens(l: Locale, map: &Value) -> Markup {
    let items: Vec<(&str, u64)> = SUITS
        .iter()
        .filter_map(|s| map.get(*s).and_then(Value::as_u64).map(|n| (*s, n)))
        .filter(|(_, n)| *n > 0)
        .collect();
    html! {
        @if items.is_empty() {
            span.muted { "—" }
        } @else {
            span.tokens {
                @for (s, n) in items {
                    span { (suit(l, s)) "×" (n) }
                }
            }
        }
    }
}

fn str_list(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
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
    let me = me(p);
    let turn_seat = view["turn"]["seat"].as_u64().map(|s| s as usize);
    let active = p.game.status == crate::services::games::GameStatus::Active;
    let my_turn = active && !p.legal_actions.is_empty();
    html! {
        h1 { (title(p)) }
        (status_line(p, my_turn, turn_seat))
        @if let Some(n) = &p.notes.notice {
            p.notice role="alert" {
                (n.say(l))
            }
        }
        @if let Some(problem) = p.notes.problem.as_ref().filter(|pr| pr.action == "sell" || pr.action == "end") {
            (problem_box(p, &problem.action))
        }
        @if let Some(seat) = me {
            (hand(p, view, seat, my_turn))
        } @else {
            p.notice { (t(l, "spectator")) }
        }
        div.grid {
            div {
                (districts(p, view))
            }
            div {
                (players(p, view))
                (roll(p, view))
                (piles(p, view))
                (standings(p, view))
            }
        }
        @if let Some(seat) = me {
            @if active {
                (actions(p, view, seat))
            }
        }
        (history(p))
    }
}

fn status_line(p: &GamePage, my_turn: bool, turn_seat: Option<usize>) -> Markup {
    let l = p.locale;
    let csrf = p.csrf.clone().unwrap_or_default();
    let end = p.legal_actions.iter().any(|a| a["type"] == "end");
    html! {
        @match p.game.status {
            crate::services::games::GameStatus::Finished | crate::services::games::GameStatus::Aborted => {
                div.status role="status" {
                    strong { (t(l, "game_over")) }
                    @if let Some(winners) = p.game.outcome.as_ref().and_then(|o| o["winners"].as_array()) {
                        " " (t(l, "winner")) ": "
                        @for (i, w) in winners.iter().enumerate() {
                            @if i > 0 { ", " }
                            (name_of(p, w.as_u64().unwrap_or(0) as usize))
                        }
                    }
                }
            }
            _ => {
                @if my_turn {
                    div.status.mine role="status" {
                        strong { (t(l, "your_move")) }
                        @if end {
                            " "
                            form.quick method="post" data-action="end"
                                action={ "/play/" (p.game.id) "/end?v=" (p.game.version) "&csrf=" (csrf) } {
                                button type="submit" { (t(l, "end")) }
                            }
                        }
                    }
                } @else if let Some(s) = turn_seat {
                    div.status role="status" {
                        (t(l, "waiting_for")) " " strong { (name_of(p, s)) }
                    }
                }
            }
        }
    }
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

fn hand(p: &GamePage, view: &Value, seat: usize, my_turn: bool) -> Markup {
    let l = p.locale;
    let cards = str_list(&view["players"][seat]["hand"]);
    let sellable: BTreeSet<String> = p
        .legal_actions
        .iter()
        .filter(|a| a["type"] == "sell")
        .filter_map(|a| a["card"].as_str().map(str::to_owned))
        .collect();
    let csrf = p.csrf.clone().unwrap_or_default();
    html! {
        section aria-labelledby="hand-h" {
            h2 id="hand-h" { (t(l, "your_hand")) " (" (cards.len()) ")" }
            ul.plain {
                @for c in &cards {
                    li {
                        (card(l, c))
                        @if my_turn && sellable.contains(c) {
                            " "
                            form.quick method="post" data-action="sell"
                                action={ "/play/" (p.game.id) "/sell?card=" (c) "&v=" (p.game.version) "&csrf=" (csrf) } {
                                button.secondary type="submit" {
                                    (t(l, "sell")) span.skip { " " (c) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn districts(p: &GamePage, view: &Value) -> Markup {
    let l = p.locale;
    let me = me(p);
    let empty = Vec::new();
    html! {
        section aria-labelledby="districts-h" {
            h2 id="districts-h" { (t(l, "districts")) }
            div.districts {
                @for d in view["districts"].as_array().unwrap_or(&empty) {
                    @let letter = d["district"].as_str().unwrap_or("?");
                    div.district {
                        h3 {
                            span { (t(l, "district")) " " (letter) }
                            (card(l, d["card"].as_str().unwrap_or("")))
                        }
                        div.cols {
                            @for seat in 0..2usize {
                                div class={ "col" @if me == Some(seat) { " me" } } {
                                    h4 { (name_of(p, seat)) }
                                    ul.plain {
                                        @for prop in d["columns"][seat].as_array().unwrap_or(&empty) {
                                            li { (property(l, prop)) }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn property(l: Locale, prop: &Value) -> Markup {
    let code = prop["card"].as_str().unwrap_or("");
    let deed = prop["deed"].as_bool().unwrap_or(false);
    html! {
        @if deed {
            span.card.deed {
                span.code { (code) }
                span { " " (t(l, "deed")) ": " }
                (tokens(l, &prop["tokens_on_deed"]))
                @if let Some(target) = prop["target"].as_u64() {
                    span.muted { " " (t(l, "of")) " " (target) }
                }
                @if let Some(pref) = prop["prefer"].as_str() {
                    span.muted { " · " (t(l, "prefers")) ": " } (suit(l, pref))
                }
            }
        } @else {
            (card(l, code))
        }
    }
}

fn players(p: &GamePage, view: &Value) -> Markup {
    let l = p.locale;
    let empty = Vec::new();
    html! {
        section aria-labelledby="players-h" {
            h2 id="players-h" { (t(l, "players")) }
            @for (seat, pl) in view["players"].as_array().unwrap_or(&empty).iter().enumerate() {
                h3 {
                    (name_of(p, seat))
                    @if let Some(s) = p.game.seats.get(seat) { (crate::web::history::rating_note(s)) }
                    @if me(p) == Some(seat) { " (" (t(l, "you")) ")" }
                    @if p.game.seats.get(seat).is_some_and(|s| s.pending) { " · " (t(l, "turn")) }
                }
                p { (t(l, "supply")) ": " (tokens(l, &pl["supply"])) }
                p {
                    (t(l, "crowns")) ": "
                    @for c in str_list(&pl["crowns"]) { (card(l, &c)) " " }
                }
                p { (pl["hand_count"].as_u64().unwrap_or(0)) " " (t(l, "cards_in_hand")) }
            }
        }
    }
}

fn roll(p: &GamePage, view: &Value) -> Markup {
    let l = p.locale;
    let r = &view["last_roll"];
    // The taxation and income of the last roll are in the history.
    let last_of = |kind: &str| {
        p.history
            .iter()
            .rev()
            .flat_map(|h| h.events.iter().rev())
            .find(|e| e["type"] == kind)
            .cloned()
    };
    let taxed = last_of("taxed");
    let income = last_of("income");
    html! {
        section aria-labelledby="roll-h" {
            h2 id="roll-h" { (t(l, "last_roll")) }
            @if r.is_null() {
                p.muted { "—" }
            } @else {
                p {
                    (t(l, "dice")) ": " (r["d10"][0]) " + " (r["d10"][1])
                    " · " (t(l, "income_rank")) " " strong { (r["hi"]) }
                    " · "
                    @let suits = str_list(&r["tax_suits"]);
                    @if suits.is_empty() {
                        (t(l, "no_tax"))
                    } @else {
                        (t(l, "taxed")) ": "
                        @for s in &suits { (suit(l, s)) " " }
                    }
                }
                @if let Some(tx) = taxed.filter(|_| !str_list(&r["tax_suits"]).is_empty()) {
                    p {
                        (t(l, "tax_paid")) ": "
                        @for seat in 0..2usize {
                            (name_of(p, seat)) " " (tokens(l, &tx["lost"][seat])) " "
                        }
                    }
                }
                @if let Some(inc) = income {
                    p {
                        (t(l, "income")) ": "
                        @for seat in 0..2usize {
                            (name_of(p, seat)) " " (tokens(l, &inc["gained"][seat])) " "
                        }
                    }
                }
            }
        }
    }
}

fn piles(p: &GamePage, view: &Value) -> Markup {
    let l = p.locale;
    let discard = str_list(&view["discard"]);
    html! {
        section aria-labelledby="piles-h" {
            h2 id="piles-h" { (t(l, "draw_pile")) " · " (t(l, "discard")) }
            p { (t(l, "draw_pile")) ": " (view["draw_pile_count"].as_u64().unwrap_or(0)) " " (t(l, "cards")) }
            p {
                (t(l, "discard")) ": " (discard.len()) " " (t(l, "cards"))
                @for c in &discard { " " (card(l, c)) }
            }
            @if view["reshuffled"].as_bool() == Some(true) { p.muted { (t(l, "reshuffled")) } }
            @if let Some(rem) = view["final_turns"]["remaining"].as_array() {
                p {
                    (t(l, "final_turns")) ": "
                    @for s in rem { (name_of(p, s.as_u64().unwrap_or(0) as usize)) " " }
                }
            }
        }
    }
}

fn standings(p: &GamePage, view: &Value) -> Markup {
    let l = p.locale;
    let s = &view["standings"];
    html! {
        section aria-labelledby="standings-h" {
            h2 id="standings-h" { (t(l, "standings")) }
            table {
                thead {
                    tr {
                        th scope="col" { (t(l, "district")) }
                        th scope="col" { (name_of(p, 0)) }
                        th scope="col" { (name_of(p, 1)) }
                    }
                }
                tbody {
                    @for d in DISTRICTS {
                        tr {
                            th scope="row" { (d) }
                            td { (s["districts"][d][0]) }
                            td { (s["districts"][d][1]) }
                        }
                    }
                    tr {
                        th scope="row" { (t(l, "districts_won")) }
                        td { (s["district_points"][0]) }
                        td { (s["district_points"][1]) }
                    }
                    tr {
                        th scope="row" { (t(l, "total")) }
                        td { (s["totals"][0]) }
                        td { (s["totals"][1]) }
                    }
                    tr {
                        th scope="row" { (t(l, "tokens")) }
                        td { (s["tokens"][0]) }
                        td { (s["tokens"][1]) }
                    }
                }
            }
        }
    }
}

/// The entered value of `name` when the form of `action` was refused.
fn entered<'a>(p: &'a GamePage, action: &str, name: &str) -> Option<&'a str> {
    p.notes
        .problem
        .as_ref()
        .filter(|pr| pr.action == action)
        .and_then(|pr| pr.fields.get(name))
}

fn form_url(p: &GamePage, action: &str) -> String {
    format!(
        "/play/{}/{action}?v={}&csrf={}",
        p.game.id,
        p.game.version,
        p.csrf.as_deref().unwrap_or("")
    )
}

/// Tokens in words: "2 Moons + 1 Leaves".
fn pay_text(l: Locale, map: &Value) -> String {
    let parts: Vec<String> = SUITS
        .iter()
        .filter_map(|s| map.get(*s).and_then(Value::as_u64).map(|n| (*s, n)))
        .filter(|(_, n)| *n > 0)
        .map(|(s, n)| format!("{n} {}", suit_name(l, s)))
        .collect();
    if parts.is_empty() {
        "—".to_owned()
    } else {
        parts.join(" + ")
    }
}

/// A card in words: its code and its name in the reader's language.
fn card_text(l: Locale, code: &str) -> String {
    match names::card_name(l, code) {
        Some(name) => format!("{code} {name}"),
        None => code.to_owned(),
    }
}

/// What one listed action of a form's kind says in its option (the card is its group's label).
fn choice_text(l: Locale, a: &Value, districts: &HashMap<String, String>) -> String {
    let district = |a: &Value| {
        let d = a["district"].as_str().unwrap_or("?");
        match districts.get(d) {
            Some(card) => format!("{} {d} ({card})", t(l, "district")),
            None => format!("{} {d}", t(l, "district")),
        }
    };
    match a["type"].as_str().unwrap_or("") {
        "build" => format!(
            "{} · {}: {}",
            district(a),
            t(l, "payment"),
            pay_text(l, &a["payment"])
        ),
        "deed" => district(a),
        "develop" => format!("{}: {}", t(l, "payment"), pay_text(l, &a["payment"])),
        "trade" => format!(
            "{} {} → {} 1 {}",
            t(l, "give"),
            pay_text(l, &a["give"]),
            t(l, "take"),
            suit_name(l, a["take"].as_str().unwrap_or("?"))
        ),
        _ => a["notation"].as_str().unwrap_or("").to_owned(),
    }
}

/// The form of one kind of action: one choice among exactly the listed actions of that kind
/// (each with its price), grouped by card, posting its notation; the short line says what the
/// action does.
fn action_form(
    p: &GamePage,
    kind: &str,
    help: &str,
    listed: &[&Value],
    districts: &HashMap<String, String>,
) -> Markup {
    let l = p.locale;
    let chosen = entered(p, kind, "notation");
    let id = format!("{kind}-notation");
    // Groups in the order the engine lists them, so the cheapest payments come first.
    let mut groups: Vec<(String, Vec<&Value>)> = Vec::new();
    for a in listed {
        let card = a["card"].as_str().unwrap_or("").to_owned();
        match groups.iter_mut().find(|(c, _)| *c == card) {
            Some((_, g)) => g.push(a),
            None => groups.push((card, vec![a])),
        }
    }
    html! {
        form.action method="post" action=(form_url(p, kind)) data-action=(kind) {
            h3 { (t(l, kind_key(kind))) " " span.muted { "(" (listed.len()) ")" } }
            p.muted { (t(l, help)) }
            (problem_box(p, kind))
            label for=(id) { (t(l, "choose")) }
            br;
            select id=(id) name="notation" required
                aria-describedby=[chosen.map(|_| format!("problem-{kind}"))] {
                @for (card, group) in &groups {
                    @if card.is_empty() {
                        @for a in group { (choice(l, a, districts, chosen)) }
                    } @else {
                        optgroup label=(card_text(l, card)) {
                            @for a in group { (choice(l, a, districts, chosen)) }
                        }
                    }
                }
            }
            " "
            button type="submit" { (t(l, kind_key(kind))) }
        }
    }
}

fn choice(
    l: Locale,
    a: &Value,
    districts: &HashMap<String, String>,
    chosen: Option<&str>,
) -> Markup {
    let notation = a["notation"].as_str().unwrap_or("");
    html! {
        option value=(notation) selected[chosen == Some(notation)] { (choice_text(l, a, districts)) }
    }
}

/// The page's word for a kind of action.
fn kind_key(kind: &str) -> &'static str {
    match kind {
        "build" => "build",
        "deed" => "deed_action",
        "develop" => "develop",
        _ => "trade",
    }
}

fn suit_options(l: Locale) -> Vec<(String, Markup)> {
    SUITS
        .iter()
        .map(|s| ((*s).to_owned(), html! { (s) " " (suit_name(l, s)) }))
        .collect()
}

/// The standing income preference of one of the viewer's deeds (MAG-INC-6): allowed at any
/// time, so it is never among the listed actions.
fn prefer_form(p: &GamePage, my_deeds: &BTreeSet<String>) -> Markup {
    let l = p.locale;
    let chosen = |name: &str| entered(p, "prefer", name);
    html! {
        form.action method="post" action=(form_url(p, "prefer")) data-action="prefer" {
            h3 { (t(l, "prefer")) }
            (problem_box(p, "prefer"))
            label for="prefer-card" { (t(l, "card")) }
            select id="prefer-card" name="card" required {
                @for c in my_deeds {
                    option value=(c) selected[chosen("card") == Some(c.as_str())] { (card_text(l, c)) }
                }
            }
            " "
            label for="prefer-suit" { (t(l, "suit")) }
            select id="prefer-suit" name="suit" required {
                @for (value, text) in suit_options(l) {
                    option value=(value) selected[chosen("suit") == Some(value.as_str())] { (text) }
                }
            }
            " "
            button type="submit" { (t(l, "prefer")) }
        }
    }
}

/// The viewer's forms: one per kind of action listed for them now (build, deed, develop,
/// trade), each offering only listed actions; selling and ending the turn are buttons by the
/// hand and the status line.
fn actions(p: &GamePage, view: &Value, seat: usize) -> Markup {
    let l = p.locale;
    let legal = &p.legal_actions;
    let districts: HashMap<String, String> = view["districts"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            let letter = d["district"].as_str().unwrap_or("?").to_owned();
            (letter, card_text(l, d["card"].as_str().unwrap_or("")))
        })
        .collect();
    let my_deeds: BTreeSet<String> = view["districts"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|d| d["columns"][seat].as_array().into_iter().flatten())
        .filter(|prop| prop["deed"].as_bool() == Some(true))
        .filter_map(|prop| prop["card"].as_str().map(str::to_owned))
        .collect();
    let kinds = [
        ("build", "build_help"),
        ("deed", "deed_help"),
        ("develop", "develop_help"),
        ("trade", "trade_help"),
    ];
    html! {
        section aria-labelledby="actions-h" {
            h2 id="actions-h" { (t(l, "actions")) }
            @if legal.is_empty() {
                p.muted { (t(l, "nothing_to_do")) }
            }
            @for (kind, help) in kinds {
                @let listed: Vec<&Value> = legal.iter().filter(|a| a["type"] == kind).collect();
                @if !listed.is_empty() {
                    (action_form(p, kind, help, &listed, &districts))
                } @else if p.notes.problem.as_ref().is_some_and(|pr| pr.action == kind) {
                    // A refused form whose action is no longer listed: its refusal stays in view.
                    (problem_box(p, kind))
                }
            }
            @if !my_deeds.is_empty() {
                (prefer_form(p, &my_deeds))
            }
        }
    }
}

/// How Magnate's own things look in the history's sentences: cards with their suits.
fn draw_part(l: Locale, part: &Part) -> Option<Markup> {
    match part {
        Part::Card(code) => Some(card(l, code)),
        Part::Suit(letter) => Some(suit(l, letter)),
        Part::Tokens(map) => Some(tokens(l, map)),
        _ => None,
    }
}

fn history(p: &GamePage) -> Markup {
    let l = p.locale;
    crate::web::history::history(p, &|part| draw_part(l, part))
}

/// Magnate's page.
pub struct MagnatePage;

impl super::Page for MagnatePage {
    fn body(&self, p: &GamePage, _title: &str) -> Markup {
        // The suit icons are referenced by every card and token on the page: defined once here.
        html! { (PreEscaped(SUIT_SYMBOLS)) (body(p)) }
    }

    fn action(&self, form: &str, fields: &super::Posted) -> Result<Value, Notice> {
        action_of(form, fields)
    }
}

/// The counts a token field takes.
const TOKEN_COUNTS: std::ops::RangeInclusive<u16> = 0..=99;

/// A suit->count map from the `<prefix>M` ... `<prefix>K` fields.
fn posted_tokens(fields: &Posted, prefix: &str) -> Result<Value, Notice> {
    let mut map = serde_json::Map::new();
    for s in SUITS {
        let text = fields.get(&format!("{prefix}{s}"));
        if text.is_empty() {
            continue;
        }
        let refused = || Notice::Unfit(unfit("tokens", Accepts::range(&TOKEN_COUNTS)));
        let n: u16 = text.parse().map_err(|_| refused())?;
        if !TOKEN_COUNTS.contains(&n) {
            return Err(refused());
        }
        if n > 0 {
            map.insert(s.to_owned(), Value::from(n));
        }
    }
    Ok(Value::Object(map))
}

/// The action a form describes, as the API's JSON.
pub fn action_of(kind: &str, fields: &Posted) -> Result<Value, Notice> {
    let f = |name: &str| Value::from(fields.get(name));
    Ok(match kind {
        "build" => {
            serde_json::json!({"type": "build", "card": f("card"), "district": f("district"), "payment": posted_tokens(fields, "pay_")?})
        }
        "deed" => serde_json::json!({"type": "deed", "card": f("card"), "district": f("district")}),
        "sell" => serde_json::json!({"type": "sell", "card": f("card")}),
        "develop" => {
            serde_json::json!({"type": "develop", "card": f("card"), "payment": posted_tokens(fields, "pay_")?})
        }
        "trade" => {
            serde_json::json!({"type": "trade", "give": posted_tokens(fields, "give_")?, "take": f("take")})
        }
        "prefer" => serde_json::json!({"type": "prefer", "card": f("card"), "suit": f("suit")}),
        "end" => serde_json::json!({"type": "end"}),
        _ => return Err(Notice::Key("no_such_form")),
    })
}

/// The suit icons as SVG symbols, included once on each Magnate page and used by reference.
pub const SUIT_SYMBOLS: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" display="none" aria-hidden="true"><symbol id="i-M" viewBox="0 0 24 24"><path fill="currentColor" d="M15 3a9 9 0 1 0 6 15.7A8 8 0 0 1 15 3z"/></symbol><symbol id="i-S" viewBox="0 0 24 24"><circle cx="12" cy="12" r="5" fill="currentColor"/><g stroke="currentColor" stroke-width="2"><path d="M12 1v4M12 19v4M1 12h4M19 12h4M4.2 4.2l2.8 2.8M17 17l2.8 2.8M4.2 19.8 7 17M17 7l2.8-2.8"/></g></symbol><symbol id="i-V" viewBox="0 0 24 24"><path fill="none" stroke="currentColor" stroke-width="2.5" d="M1 9c3-4 5-4 7.5 0s5 4 7.5 0 5-4 7 0M1 17c3-4 5-4 7.5 0s5 4 7.5 0 5-4 7 0"/></symbol><symbol id="i-L" viewBox="0 0 24 24"><path fill="currentColor" d="M20 3C9 3 4 8 4 15c0 2 .5 4 1.5 5.5L4 22h2l1-1.5C8.5 21.5 10 22 12 22c7 0 9-8 8-19zM8 18c2-5 5-8 9-11-3 3-6 7-7.5 11.5z"/></symbol><symbol id="i-Y" viewBox="0 0 24 24"><path fill="none" stroke="currentColor" stroke-width="2.5" stroke-linecap="round" d="M3 20c3 0 4-3 4-6s1-6 5-6 4 3 4 5-1 3 1 3 4-2 4-6M19 6l2-2"/><circle cx="19" cy="8" r="1.5" fill="currentColor"/></symbol><symbol id="i-K" viewBox="0 0 24 24"><path fill="none" stroke="currentColor" stroke-width="2.5" d="M8 4a4 4 0 1 0 0 8h8a4 4 0 1 1 0 8 4 4 0 0 1-4-4V8a4 4 0 1 0-4 4"/></symbol></svg>"##;

/// The name of a Magnate suit by its letter (the game's own table), `?` for no suit.
fn suit_name(locale: Locale, suit: &str) -> &'static str {
    let mut letters = suit.chars();
    match (letters.next(), letters.next()) {
        (Some(c), None) => crate::games::magnate::cards::Suit::from_letter(c)
            .and_then(|s| crate::games::magnate::names::suit_name(locale, s))
            .unwrap_or("?"),
        _ => "?",
    }
}

/// A suit shown by icon and letter (never by colour alone), named for screen readers.
fn suit(locale: Locale, letter: &str) -> Markup {
    html! {
        span class={ "suit s-" (letter) } title=(suit_name(locale, letter)) {
            svg aria-hidden="true" focusable="false" { use href={ "#i-" (letter) } {} }
            span aria-hidden="true" { (letter) }
            span.skip { (suit_name(locale, letter)) }
        }
    }
}

#[cfg(test)]
mod properties {
    //! The form reader of the game page ([`action_of`], a pure function): whatever a browser or a
    //! forger posts, it never panics and gives either an action the API's parser then reads or
    //! refuses, or a sentence; and the fields of any action, as the page's forms name them, read
    //! back as that very action, from the body or from the address.
    #![allow(clippy::unwrap_used)]

    use super::action_of;
    use crate::engine::registry::GameKind;
    use crate::games::magnate::Action;
    use crate::games::magnate::cards::{Card, District, Suit};
    use crate::games::magnate::tokens::Tokens;
    use crate::web::extract::Fields;
    use crate::web::games::Posted;
    use proptest::collection::{hash_map, vec};
    use proptest::prelude::*;
    use serde_json::Value;
    use std::collections::HashMap;

    fn magnate() -> GameKind {
        GameKind::parse("magnate").unwrap()
    }

    const KINDS: [&str; 7] = ["build", "deed", "sell", "develop", "trade", "prefer", "end"];

    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            prop::sample::select(Card::all().map(|c| c.code().to_owned()).collect::<Vec<_>>()),
            "[a-f]",
            "[MSVLYK]",
            "-?[0-9]{1,6}",
            Just(String::new()),
            Just("\0".to_owned()),
            Just(" 3 ".to_owned()),
            any::<String>(),
        ]
    }

    fn form() -> impl Strategy<Value = HashMap<String, String>> {
        let mut names: Vec<String> = ["card", "district", "take", "suit", "csrf", "v", "zz"]
            .map(str::to_owned)
            .to_vec();
        names.extend(
            ["pay_", "give_"]
                .iter()
                .flat_map(|p| Suit::ALL.map(|s| format!("{p}{s}"))),
        );
        hash_map(prop::sample::select(names), text(), 0..8)
    }

    fn tokens() -> impl Strategy<Value = Tokens> {
        vec(0u16..=99, 6).prop_map(|counts| {
            let mut t = Tokens::NONE;
            for (s, n) in Suit::ALL.into_iter().zip(counts) {
                t.set(s, n);
            }
            t
        })
    }

    /// Every action a form can describe (the roll has no form: the server rolls).
    fn action() -> impl Strategy<Value = Action> {
        let card = prop::sample::select(Card::all().collect::<Vec<_>>());
        let district = prop::sample::select(District::ALL.to_vec());
        let suit = prop::sample::select(Suit::ALL.to_vec());
        prop_oneof![
            (card.clone(), district.clone(), tokens()).prop_map(|(card, district, payment)| {
                Action::Build {
                    card,
                    district,
                    payment,
                }
            }),
            (card.clone(), district).prop_map(|(card, district)| Action::Deed { card, district }),
            card.clone().prop_map(|card| Action::Sell { card }),
            (card.clone(), tokens()).prop_map(|(card, payment)| Action::Develop { card, payment }),
            (tokens(), suit.clone()).prop_map(|(give, take)| Action::Trade { give, take }),
            (card, suit).prop_map(|(card, suit)| Action::Prefer { card, suit }),
            Just(Action::End),
        ]
    }

    /// A map's fields, each once (as a form with them would be read).
    fn fields(map: HashMap<String, String>) -> Fields {
        Fields::read(map, &[]).unwrap()
    }

    /// The fields the page's form for `action` posts (padded with spaces when `pad`).
    fn fields_of(action: &Action, pad: bool) -> HashMap<String, String> {
        let json = serde_json::to_value(action).unwrap();
        let mut out = HashMap::new();
        let shown = |v: String| if pad { format!(" {v}\t") } else { v };
        for (k, v) in json.as_object().unwrap() {
            match (k.as_str(), v) {
                ("type", _) => {}
                ("payment" | "give", Value::Object(map)) => {
                    let prefix = if k == "payment" { "pay_" } else { "give_" };
                    for (s, n) in map {
                        out.insert(format!("{prefix}{s}"), shown(n.to_string()));
                    }
                }
                (_, Value::String(s)) => {
                    out.insert(k.clone(), shown(s.clone()));
                }
                (_, other) => {
                    out.insert(k.clone(), shown(other.to_string()));
                }
            }
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        #[test]
        fn any_form_gives_an_action_or_a_sentence(
            kind in prop_oneof![prop::sample::select(KINDS.to_vec()).prop_map(str::to_owned), any::<String>()],
            body in form(),
            query in form(),
        ) {
            let posted = Posted { body: fields(body), query: fields(query) };
            match action_of(&kind, &posted) {
                Ok(action) => {
                    prop_assert_eq!(action["type"].as_str(), Some(kind.as_str()));
                    // The API's reader takes it from here: an action or a reason, no panic.
                    if let Err(reason) = magnate().parse_action(&action) {
                        prop_assert!(!reason.is_empty());
                    }
                }
                Err(notice) => prop_assert!(!notice.say(crate::domain::Locale::En).is_empty()),
            }
        }

        #[test]
        fn the_fields_of_any_action_read_back_as_that_action(action in action(), pad in any::<bool>(), in_query in any::<bool>()) {
            let sent = fields(fields_of(&action, pad));
            let (body, query) = if in_query { (Fields::default(), sent) } else { (sent, Fields::default()) };
            let read = action_of(action.kind(), &Posted { body, query })
                .map_err(|e| TestCaseError::fail(format!("{action}: {e:?}")))?;
            let read = magnate()
                .parse_action(&read)
                .map_err(|e| TestCaseError::fail(format!("{action}: {e}")))?;
            prop_assert_eq!(read.notation(), action.to_string());
        }
    }
}
