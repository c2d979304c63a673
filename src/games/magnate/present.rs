//! Magnate's words for mails and pages (the presentation seam of design.md section 13): the one
//! module of this folder outside the pure engine. Mails write cards by code; pages render the
//! same [`Part::Card`] with its suits.
// Reading a `serde_json::Value` by key or index answers `Null` when absent: it cannot panic.
#![allow(clippy::indexing_slicing)]

use super::Magnate;
use crate::domain::Locale;
use crate::present::{Part, Present, RulesPage, Sentence, T};
use serde_json::Value;

impl Present for Magnate {
    fn event(locale: Locale, e: &Value) -> Option<Sentence> {
        let seat = || Part::Seat(e["seat"].as_i64().unwrap_or(-1));
        let card = || Part::Card(e["card"].as_str().unwrap_or("").to_owned());
        let district = || Part::Text(e["district"].as_str().unwrap_or("").to_owned());
        let toks = |key: &str| Part::Tokens(e[key].clone());
        let suit = |key: &str| Part::Suit(e[key].as_str().unwrap_or("").to_owned());
        let die = |i: usize| Part::Text(e["d10"][i].to_string());
        let say = |t: &T, args: Vec<(&str, Part)>| Some(Sentence::say(locale, t, args));
        match e["type"].as_str()? {
            "rolled" => say(&ROLLED, vec![("p", seat()), ("a", die(0)), ("b", die(1))]),
            "taxed" => {
                let suits: Vec<String> = e["suits"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_owned)
                            .collect()
                    })
                    .unwrap_or_default();
                say(
                    &TAXED,
                    vec![
                        ("suits", Part::Text(suits.join(", "))),
                        ("list", per_seat(locale, &e["lost"], &RETURNED)),
                    ],
                )
            }
            "income" => say(
                &INCOME,
                vec![("list", per_seat(locale, &e["gained"], &GAINED))],
            ),
            "built" => say(
                &BUILT,
                vec![
                    ("p", seat()),
                    ("card", card()),
                    ("d", district()),
                    ("t", toks("payment")),
                ],
            ),
            "deeded" => say(
                &DEEDED,
                vec![
                    ("p", seat()),
                    ("card", card()),
                    ("d", district()),
                    ("t", toks("price")),
                ],
            ),
            "sold" => say(
                &SOLD,
                vec![("p", seat()), ("card", card()), ("t", toks("gained"))],
            ),
            "developed" => say(
                &DEVELOPED,
                vec![("p", seat()), ("card", card()), ("t", toks("payment"))],
            ),
            "traded" => say(
                &TRADED,
                vec![("p", seat()), ("t", toks("give")), ("suit", suit("take"))],
            ),
            "preferred" => say(
                &PREFERRED,
                vec![("p", seat()), ("card", card()), ("suit", suit("suit"))],
            ),
            "drew" => say(&DREW, vec![("p", seat()), ("card", card())]),
            "drew_face_down" => say(&DREW_FACE_DOWN, vec![("p", seat())]),
            "drew_nothing" => say(&DREW_NOTHING, vec![("p", seat())]),
            "reshuffled" => say(&RESHUFFLED, vec![]),
            "final_turns" => {
                let seats = e["remaining"]
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_i64).collect())
                    .unwrap_or_default();
                say(&FINAL_TURNS, vec![("names", Part::Seats(seats))])
            }
            _ => None,
        }
    }

    fn result(locale: Locale, view: &Value, _outcome: &Value) -> Vec<Sentence> {
        let standings = &view["standings"];
        let (Some(points), Some(totals)) = (
            standings["district_points"].as_array(),
            standings["totals"].as_array(),
        ) else {
            return Vec::new();
        };
        points
            .iter()
            .zip(totals)
            .enumerate()
            .map(|(seat, (pts, total))| {
                Sentence::say(
                    locale,
                    &SCORE_LINE,
                    vec![
                        ("name", Part::Seat(i64::try_from(seat).unwrap_or(-1))),
                        ("points", Part::Text(pts.to_string())),
                        ("total", Part::Text(total.to_string())),
                    ],
                )
            })
            .collect()
    }

    fn reminder(locale: Locale, view: &Value, seat: usize) -> Vec<Sentence> {
        let me = &view["players"][seat];
        let mut lines = Vec::new();
        if let Some(hand) = me["hand"].as_array() {
            let cards = hand
                .iter()
                .filter_map(Value::as_str)
                .map(|c| Part::Card(c.to_owned()))
                .collect();
            lines.push(Sentence::say(
                locale,
                &YOUR_HAND,
                vec![("cards", Part::Cards(cards))],
            ));
        }
        lines.push(Sentence::say(
            locale,
            &YOUR_TOKENS,
            vec![("tokens", Part::Tokens(me["supply"].clone()))],
        ));
        lines
    }

    /// Only the mover acts in Magnate: a pending seat that is not the mover is never asked.
    fn deciding(view: &Value, seat: usize, _pending: usize) -> bool {
        view["turn"]["seat"]
            .as_u64()
            .is_some_and(|s| usize::try_from(s).ok() != Some(seat))
    }

    fn rules() -> Option<&'static RulesPage> {
        Some(&RULES)
    }

    fn rules_name(locale: Locale, key: &str) -> Option<String> {
        match key.split_once(':') {
            None if key == "cards" => Some(super::names::card_table(locale)),
            Some(("card", code)) => super::names::card_name(locale, code).map(str::to_owned),
            _ => None,
        }
    }
}

/// The rules page (`/rules/<kind>`), in en, es, it, fr.
static RULES: RulesPage = RulesPage {
    texts: [
        include_str!("rules/en.md"),
        include_str!("rules/es.md"),
        include_str!("rules/it.md"),
        include_str!("rules/fr.md"),
    ],
    prefixes: &["MAG"],
    families: &FAMILIES,
};

/// Every rule family of `shared/rules/magnate.md` (sections 2–15).
const FAMILIES: [&str; 23] = [
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

/// `Ada returned V×1; Bruno returned nothing`: one entry per seat of a per-seat token list.
fn per_seat(locale: Locale, list: &Value, t: &T) -> Part {
    let items = list
        .as_array()
        .map(|items| {
            items
                .iter()
                .enumerate()
                .map(|(seat, toks)| {
                    Sentence::say(
                        locale,
                        t,
                        vec![
                            ("p", Part::Seat(i64::try_from(seat).unwrap_or(-1))),
                            ("t", Part::Tokens(toks.clone())),
                        ],
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    Part::List(items)
}

const YOUR_HAND: T = [
    "Your hand: {cards}",
    "Tu mano: {cards}",
    "La tua mano: {cards}",
    "Votre main : {cards}",
];
const YOUR_TOKENS: T = [
    "Your tokens: {tokens}",
    "Tus fichas: {tokens}",
    "I tuoi gettoni: {tokens}",
    "Vos jetons : {tokens}",
];
const SCORE_LINE: T = [
    "{name}: {points} [district|districts] won (tie-break total {total})",
    "{name}: {points} [distrito ganado|distritos ganados] (desempate {total})",
    "{name}: {points} [distretto vinto|distretti vinti] (spareggio {total})",
    "{name} : {points} [quartier gagné|quartiers gagnés] (départage {total})",
];
const ROLLED: T = [
    "{p} rolled {a} and {b}.",
    "{p} tiró {a} y {b}.",
    "{p} ha tirato {a} e {b}.",
    "{p} a lancé {a} et {b}.",
];
const TAXED: T = [
    "Taxation on {suits}: {list}.",
    "Impuesto sobre {suits}: {list}.",
    "Tassa su {suits}: {list}.",
    "Impôt sur {suits} : {list}.",
];
const RETURNED: T = [
    "{p} returned {t}",
    "{p} devolvió {t}",
    "{p} ha reso {t}",
    "{p} a rendu {t}",
];
const INCOME: T = [
    "Income: {list}.",
    "Ingresos: {list}.",
    "Entrate: {list}.",
    "Revenus : {list}.",
];
const GAINED: T = ["{p} {t}", "{p} {t}", "{p} {t}", "{p} {t}"];
const BUILT: T = [
    "{p} built {card} in district {d}, paying {t}.",
    "{p} construyó {card} en el distrito {d}, pagando {t}.",
    "{p} ha costruito {card} nel distretto {d}, pagando {t}.",
    "{p} a construit {card} dans le quartier {d}, en payant {t}.",
];
const DEEDED: T = [
    "{p} took a deed on {card} in district {d}, paying {t}.",
    "{p} tomó una escritura de {card} en el distrito {d}, pagando {t}.",
    "{p} ha preso un atto su {card} nel distretto {d}, pagando {t}.",
    "{p} a pris un titre sur {card} dans le quartier {d}, en payant {t}.",
];
const SOLD: T = [
    "{p} sold {card} for {t}.",
    "{p} vendió {card} por {t}.",
    "{p} ha venduto {card} per {t}.",
    "{p} a vendu {card} pour {t}.",
];
const DEVELOPED: T = [
    "{p} developed {card}, paying {t}.",
    "{p} desarrolló {card}, pagando {t}.",
    "{p} ha sviluppato {card}, pagando {t}.",
    "{p} a développé {card}, en payant {t}.",
];
const TRADED: T = [
    "{p} traded {t} for one {suit}.",
    "{p} cambió {t} por un {suit}.",
    "{p} ha scambiato {t} per un {suit}.",
    "{p} a échangé {t} contre un {suit}.",
];
const PREFERRED: T = [
    "{p} chose {suit} for {card}.",
    "{p} eligió {suit} para {card}.",
    "{p} ha scelto {suit} per {card}.",
    "{p} a choisi {suit} pour {card}.",
];
const DREW: T = [
    "{p} drew {card}.",
    "{p} robó {card}.",
    "{p} ha pescato {card}.",
    "{p} a pioché {card}.",
];
const DREW_FACE_DOWN: T = [
    "{p} drew a card.",
    "{p} robó una carta.",
    "{p} ha pescato una carta.",
    "{p} a pioché une carte.",
];
const DREW_NOTHING: T = [
    "{p} drew nothing: the draw pile is empty.",
    "{p} no robó nada: el mazo está vacío.",
    "{p} non ha pescato: il mazzo è vuoto.",
    "{p} n'a rien pioché : la pioche est vide.",
];
const RESHUFFLED: T = [
    "The discard pile became the new draw pile.",
    "Los descartes se barajaron como nuevo mazo.",
    "Gli scarti sono diventati il nuovo mazzo.",
    "La défausse est devenue la nouvelle pioche.",
];
const FINAL_TURNS: T = [
    "Final turns for: {names}.",
    "Últimos turnos para: {names}.",
    "Ultimi turni per: {names}.",
    "Derniers tours pour : {names}.",
];
