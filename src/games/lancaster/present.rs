//! Lancaster's words for mails and pages (the presentation seam of design.md section 13): the
//! one module of this folder outside the pure engine. A colour on the table is a
//! [`Part::Faction`]: a player, or in the two-player game a player's ally.
// Reading a `serde_json::Value` by key or index answers `Null` when absent: it cannot panic.
#![allow(clippy::indexing_slicing)]

use super::Lancaster;
use crate::domain::Locale;
use crate::present::{Part, Present, RulesPage, Sentence, T};
use serde_json::Value;

impl Present for Lancaster {
    fn event(locale: Locale, e: &Value) -> Option<Sentence> {
        let say = |t: &T, args: Vec<(&str, Part)>| Some(Sentence::say(locale, t, args));
        let text = |key: &str| Part::Text(word(&e[key]));
        let county_at = |key: &str| Part::Text(county(locale, &e[key]));
        let law_at = |key: &str| Part::Text(law(locale, &e[key]));
        let seat = || Part::Seat(e["seat"].as_i64().unwrap_or(-1));
        let faction = || Part::Faction(e["faction"].as_i64().unwrap_or(-1));
        match e["type"].as_str()? {
            "round_started" => say(
                &ROUND_STARTED,
                vec![
                    ("n", text("round")),
                    ("p", Part::Seat(e["start_player"].as_i64().unwrap_or(-1))),
                    ("conflicts", Part::Text(words(&e["conflicts"]))),
                    ("laws", Part::Text(laws(locale, &e["proposed"]))),
                ],
            ),
            "start_extension_chosen" => say(&START_CHOSEN, vec![("p", seat())]),
            "start_extension_sealed" => {
                say(&START_SEALED, vec![("p", seat()), ("s", text("space"))])
            }
            "start_extensions_revealed" => {
                let items = e["built"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|pair| {
                        Sentence(vec![
                            Part::Seat(pair[0].as_i64().unwrap_or(-1)),
                            Part::Text(format!(": {}", word(&pair[1]))),
                        ])
                    })
                    .collect();
                say(&START_REVEALED, vec![("list", Part::List(items))])
            }
            "placed" => {
                let t = if e["squires"].as_u64().unwrap_or(0) > 0 {
                    &PLACED_WITH_SQUIRES
                } else {
                    &PLACED
                };
                say(
                    t,
                    vec![
                        ("f", faction()),
                        ("k", text("piece")),
                        // A county by letter and name; a castle space or a conflict card by id.
                        ("t", county_at("target")),
                        ("n", text("squires")),
                    ],
                )
            }
            "expelled" => say(
                &EXPELLED,
                vec![
                    ("f", faction()),
                    ("k", text("piece")),
                    ("c", county_at("county")),
                    ("n", text("squires_lost")),
                ],
            ),
            "stuck" => {
                let seats = e["seats"]
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_i64).collect())
                    .unwrap_or_default();
                say(&STUCK, vec![("names", Part::Seats(seats))])
            }
            "favour_taken" => say(&FAVOUR_TAKEN, vec![("f", faction()), ("x", text("tile"))]),
            "gained" => say(
                &GAINED,
                vec![("f", faction()), ("what", Part::Text(amounts(locale, e)))],
            ),
            "paid" => say(
                &PAID,
                vec![("f", faction()), ("what", Part::Text(amounts(locale, e)))],
            ),
            "recruited" => say(&RECRUITED, vec![("f", faction()), ("k", text("piece"))]),
            "upgraded" => say(
                &UPGRADED,
                vec![("f", faction()), ("a", text("from")), ("b", text("to"))],
            ),
            "declined" => say(&DECLINED, vec![("f", faction()), ("what", text("what"))]),
            "built" => say(&BUILT, vec![("f", faction()), ("s", text("space"))]),
            "extension_drawn" => say(
                &EXTENSION_DRAWN,
                vec![("f", faction()), ("s", text("space"))],
            ),
            "noble_taken" => say(
                &NOBLE_TAKEN,
                vec![("f", faction()), ("c", county_at("county"))],
            ),
            "noble_removed" => say(
                &NOBLE_REMOVED,
                vec![("f", faction()), ("c", county_at("county"))],
            ),
            "voted" => say(&VOTED, vec![("p", seat())]),
            "ballot_sealed" => say(
                match e["ballot"]["yes"].as_bool() {
                    Some(true) => &BALLOT_YES,
                    Some(false) => &BALLOT_NO,
                    None => &BALLOT_ABSTAINED,
                },
                vec![
                    ("p", Part::Seat(e["ballot"]["seat"].as_i64().unwrap_or(-1))),
                    ("n", Part::Text(word(&e["ballot"]["markers"]))),
                ],
            ),
            "vote_revealed" => say(
                if e["passed"].as_bool() == Some(true) {
                    &VOTE_PASSED
                } else {
                    &VOTE_REJECTED
                },
                vec![
                    ("l", law_at("law")),
                    ("yes", text("yes")),
                    ("no", text("no")),
                ],
            ),
            "law_in_force" => match e["replaced"] {
                Value::Null => say(&LAW_IN_FORCE, vec![("l", law_at("law"))]),
                _ => say(
                    &LAW_REPLACES,
                    vec![("l", law_at("law")), ("old", law_at("replaced"))],
                ),
            },
            "law_applied" => say(&LAW_APPLIED, vec![("l", law_at("law"))]),
            "exchanged" => say(
                &EXCHANGED,
                vec![("f", faction()), ("l", law_at("law")), ("n", text("times"))],
            ),
            "county_resolved" => {
                let t = match e["take"].as_str() {
                    Some("noble") => &TOOK_NOBLE,
                    Some("both") => &TOOK_BOTH,
                    _ => &TOOK_REWARD,
                };
                say(t, vec![("f", faction()), ("c", county_at("county"))])
            }
            "passage" => say(
                &PASSAGE,
                vec![("f", faction()), ("k", text("piece")), ("x", text("card"))],
            ),
            "start_player_chosen" => say(&START_PLAYER, vec![("p", seat())]),
            "reward_chosen" => say(
                &REWARD_CHOSEN,
                vec![
                    ("f", faction()),
                    ("c", county_at("county")),
                    ("n", text("option")),
                ],
            ),
            "castle_resolved" => say(
                if e["taken"].as_bool() == Some(true) {
                    &CASTLE_TAKEN
                } else {
                    &CASTLE_LEFT
                },
                vec![("f", faction()), ("s", text("space"))],
            ),
            "conflict_resolved" => {
                let ranks = e["ranks"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|r| {
                        Sentence::say(
                            locale,
                            &RANK,
                            vec![
                                ("f", Part::Faction(r["faction"].as_i64().unwrap_or(-1))),
                                ("s", Part::Text(word(&r["strength"]))),
                                ("pp", Part::Text(word(&r["pp"]))),
                            ],
                        )
                    })
                    .collect();
                say(
                    if e["england_wins"].as_bool() == Some(true) {
                        &ENGLAND_WINS
                    } else {
                        &FRANCE_WINS
                    },
                    vec![
                        ("x", text("card")),
                        ("e", text("total")),
                        ("fr", text("france")),
                        ("list", Part::List(ranks)),
                    ],
                )
            }
            "captured" => say(
                &CAPTURED,
                vec![("f", faction()), ("k", Part::Text(words(&e["pieces"])))],
            ),
            "ransomed" => say(
                &RANSOMED,
                vec![("f", faction()), ("k", text("piece")), ("g", text("gold"))],
            ),
            _ => None,
        }
    }

    fn result(locale: Locale, _view: &Value, outcome: &Value) -> Vec<Sentence> {
        outcome["scores"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|line| {
                let n = |key: &str| Part::Text(word(&line[key]));
                Sentence::say(
                    locale,
                    &SCORE_LINE,
                    vec![
                        ("p", Part::Seat(line["seat"].as_i64().unwrap_or(-1))),
                        ("total", n("total")),
                        ("before", n("pp_before")),
                        ("knighthood", n("knighthood_pp")),
                        ("castle", n("castle_pp")),
                        ("table", n("round_table_pp")),
                        ("gold", n("gold")),
                    ],
                )
            })
            .collect()
    }

    fn reminder(locale: Locale, view: &Value, seat: usize) -> Vec<Sentence> {
        let mine = view["factions"].as_array().into_iter().flatten().find(|f| {
            f["seat"].as_u64().and_then(|s| usize::try_from(s).ok()) == Some(seat)
                && f["ally"].as_bool() != Some(true)
        });
        let Some(me) = mine else {
            return Vec::new();
        };
        let n = |key: &str| Part::Text(word(&me[key]));
        vec![Sentence::say(
            locale,
            &YOUR_SUPPLIES,
            vec![
                ("gold", n("gold")),
                ("squires", n("squires")),
                ("vm", n("voting_markers")),
                ("pp", n("pp")),
            ],
        )]
    }

    /// A vote or another simultaneous decision, or a decision asked during another player's
    /// placement (a ransom, a law's choice), is "you must decide"; one's own placement is a move.
    fn deciding(view: &Value, seat: usize, pending: usize) -> bool {
        let step = &view["step"];
        let others_turn = step["step"] == "place"
            && step["turn"].as_u64().and_then(|t| usize::try_from(t).ok()) != Some(seat);
        pending > 1 || others_turn
    }

    fn rules() -> Option<&'static RulesPage> {
        Some(&RULES)
    }

    fn rules_name(locale: Locale, key: &str) -> Option<String> {
        match key.split_once(':') {
            Some(("county", letter)) => {
                super::names::county_name(locale, letter).map(str::to_owned)
            }
            Some(("law", id)) => super::names::law_name(locale, id).map(str::to_owned),
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
    prefixes: &["LAN", "DAT"],
    families: &FAMILIES,
};

/// Every rule family of `shared/rules/lancaster.md` (sections 1–12), and the data tables the
/// page describes (section 13).
const FAMILIES: [&str; 30] = [
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

/// A JSON scalar as a word: strings without their quotes.
fn word(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "—".to_owned(),
        other => other.to_string(),
    }
}

/// A county by its letter, with its name where the rules give one: `D (Gloucester)`, `A`.
fn county(locale: Locale, v: &Value) -> String {
    let letter = word(v);
    match super::names::county_name(locale, &letter) {
        Some(name) if name.len() > 1 && !name.ends_with(&format!(" {letter}")) => {
            format!("{letter} ({name})")
        }
        _ => letter,
    }
}

/// A law by its code with its name in `locale`: `L13 (Dominion)`.
fn law(locale: Locale, v: &Value) -> String {
    let code = word(v);
    match super::names::law_name(locale, &code) {
        Some(name) => format!("{code} ({name})"),
        None => code,
    }
}

/// Laws as `L01 (…), L07 (…)`.
fn laws(locale: Locale, v: &Value) -> String {
    let items: Vec<String> = v
        .as_array()
        .into_iter()
        .flatten()
        .map(|x| law(locale, x))
        .collect();
    if items.is_empty() {
        "—".to_owned()
    } else {
        items.join(", ")
    }
}

/// A list of ids as `X01, X02`.
fn words(v: &Value) -> String {
    let items: Vec<String> = v.as_array().into_iter().flatten().map(word).collect();
    if items.is_empty() {
        "—".to_owned()
    } else {
        items.join(", ")
    }
}

/// `2 gold, 1 squire`: the non-zero amounts of a gain or a payment.
fn amounts(locale: Locale, e: &Value) -> String {
    let parts: Vec<String> = [
        ("gold", &GOLD),
        ("squires", &SQUIRES),
        ("voting_markers", &MARKERS),
        ("pp", &POWER),
    ]
    .into_iter()
    .filter_map(|(key, t)| {
        let n = e[key].as_u64().filter(|n| *n > 0)?;
        Some(crate::present::fill(locale, t, &[("n", &n.to_string())]))
    })
    .collect();
    if parts.is_empty() {
        crate::present::pick(locale, &crate::present::NOTHING).to_owned()
    } else {
        parts.join(", ")
    }
}

const GOLD: T = ["{n} gold", "{n} de oro", "{n} oro", "{n} or"];
const SQUIRES: T = [
    "{n} [squire|squires]",
    "{n} [escudero|escuderos]",
    "{n} [scudiero|scudieri]",
    "{n} [écuyer|écuyers]",
];
const MARKERS: T = [
    "{n} [voting marker|voting markers]",
    "{n} [marcador|marcadores] de voto",
    "{n} [segnalino|segnalini] voto",
    "{n} [marqueur|marqueurs] de vote",
];
const POWER: T = [
    "{n} [power point|power points]",
    "{n} [punto|puntos] de poder",
    "{n} [punto|punti] potere",
    "{n} [point|points] de pouvoir",
];

const ROUND_STARTED: T = [
    "Round {n} begins, {p} first. Conflicts: {conflicts}. Laws proposed: {laws}.",
    "Empieza la ronda {n}; comienza {p}. Conflictos: {conflicts}. Leyes propuestas: {laws}.",
    "Inizia il round {n}; comincia {p}. Conflitti: {conflicts}. Leggi proposte: {laws}.",
    "La manche {n} commence, {p} en premier. Conflits : {conflicts}. Lois proposées : {laws}.",
];
const START_CHOSEN: T = [
    "{p} chose a starting extension.",
    "{p} eligió una ampliación inicial.",
    "{p} ha scelto un ampliamento iniziale.",
    "{p} a choisi une extension de départ.",
];
const START_SEALED: T = [
    "{p} chose the starting extension {s} (sealed until everyone has chosen).",
    "{p} eligió la ampliación inicial {s} (secreta hasta que todos elijan).",
    "{p} ha scelto l'ampliamento iniziale {s} (segreto finché tutti non scelgono).",
    "{p} a choisi l'extension de départ {s} (secrète jusqu'à ce que tous aient choisi).",
];
const START_REVEALED: T = [
    "Starting extensions: {list}.",
    "Ampliaciones iniciales: {list}.",
    "Ampliamenti iniziali: {list}.",
    "Extensions de départ : {list}.",
];
const PLACED: T = [
    "{f} placed knight {k} on {t}.",
    "{f} colocó el caballero {k} en {t}.",
    "{f} ha piazzato il cavaliere {k} su {t}.",
    "{f} a placé le chevalier {k} sur {t}.",
];
const PLACED_WITH_SQUIRES: T = [
    "{f} placed knight {k} with {n} [squire|squires] on {t}.",
    "{f} colocó el caballero {k} con {n} [escudero|escuderos] en {t}.",
    "{f} ha piazzato il cavaliere {k} con {n} [scudiero|scudieri] su {t}.",
    "{f} a placé le chevalier {k} avec {n} [écuyer|écuyers] sur {t}.",
];
const EXPELLED: T = [
    "Knight {k} of {f} was expelled from county {c} ({n} [squire|squires] lost).",
    "El caballero {k} de {f} fue expulsado del condado {c} ({n} [escudero perdido|escuderos perdidos]).",
    "Il cavaliere {k} di {f} è stato espulso dalla contea {c} ({n} [scudiero perso|scudieri persi]).",
    "Le chevalier {k} de {f} a été expulsé du comté {c} ({n} [écuyer perdu|écuyers perdus]).",
];
const STUCK: T = [
    "{names}: no place left for the remaining knights this round.",
    "{names}: no queda sitio para los caballeros restantes esta ronda.",
    "{names}: nessun posto per i cavalieri rimasti in questo round.",
    "{names} : plus de place pour les chevaliers restants cette manche.",
];
const FAVOUR_TAKEN: T = [
    "{f} took the King's favour {x}.",
    "{f} tomó el favor del rey {x}.",
    "{f} ha preso il favore del re {x}.",
    "{f} a pris la faveur du roi {x}.",
];
const GAINED: T = [
    "{f} gained {what}.",
    "{f} ganó {what}.",
    "{f} ha guadagnato {what}.",
    "{f} a gagné {what}.",
];
const PAID: T = [
    "{f} paid {what}.",
    "{f} pagó {what}.",
    "{f} ha pagato {what}.",
    "{f} a payé {what}.",
];
const RECRUITED: T = [
    "{f} recruited knight {k}.",
    "{f} reclutó el caballero {k}.",
    "{f} ha reclutato il cavaliere {k}.",
    "{f} a recruté le chevalier {k}.",
];
const UPGRADED: T = [
    "{f} upgraded knight {a} to {b}.",
    "{f} mejoró el caballero {a} a {b}.",
    "{f} ha potenziato il cavaliere {a} a {b}.",
    "{f} a amélioré le chevalier {a} en {b}.",
];
const DECLINED: T = [
    "{f} declined: {what}.",
    "{f} renunció: {what}.",
    "{f} ha rinunciato: {what}.",
    "{f} a renoncé : {what}.",
];
const BUILT: T = [
    "{f} built the castle extension {s}.",
    "{f} construyó la ampliación del castillo {s}.",
    "{f} ha costruito l'ampliamento del castello {s}.",
    "{f} a construit l'extension du château {s}.",
];
const EXTENSION_DRAWN: T = [
    "{f} drew and built the castle extension {s}.",
    "{f} robó y construyó la ampliación del castillo {s}.",
    "{f} ha pescato e costruito l'ampliamento del castello {s}.",
    "{f} a tiré et construit l'extension du château {s}.",
];
const NOBLE_TAKEN: T = [
    "{f} took a noble of county {c}.",
    "{f} tomó un noble del condado {c}.",
    "{f} ha preso un nobile della contea {c}.",
    "{f} a pris un noble du comté {c}.",
];
const NOBLE_REMOVED: T = [
    "{f} removed a noble of county {c} from the game.",
    "{f} retiró del juego un noble del condado {c}.",
    "{f} ha tolto dal gioco un nobile della contea {c}.",
    "{f} a retiré du jeu un noble du comté {c}.",
];
const VOTED: T = ["{p} voted.", "{p} votó.", "{p} ha votato.", "{p} a voté."];
const BALLOT_YES: T = [
    "{p} voted for, with {n} [voting marker|voting markers] (sealed until the vote is revealed).",
    "{p} votó a favor, con {n} [marcador|marcadores] (secreto hasta revelar la votación).",
    "{p} ha votato a favore, con {n} [segnalino|segnalini] (segreto fino alla rivelazione).",
    "{p} a voté pour, avec {n} [marqueur|marqueurs] (secret jusqu'à la révélation).",
];
const BALLOT_NO: T = [
    "{p} voted against, with {n} [voting marker|voting markers] (sealed until the vote is revealed).",
    "{p} votó en contra, con {n} [marcador|marcadores] (secreto hasta revelar la votación).",
    "{p} ha votato contro, con {n} [segnalino|segnalini] (segreto fino alla rivelazione).",
    "{p} a voté contre, avec {n} [marqueur|marqueurs] (secret jusqu'à la révélation).",
];
/// A late seat's default ballot: counted for neither side.
const BALLOT_ABSTAINED: T = [
    "{p} abstained, counted for neither side (sealed until the vote is revealed).",
    "{p} se abstuvo, sin contar para ningún lado (secreto hasta revelar la votación).",
    "{p} si è astenuto, senza contare per nessuna parte (segreto fino alla rivelazione).",
    "{p} s'est abstenu, compté pour aucun camp (secret jusqu'à la révélation).",
];
const VOTE_PASSED: T = [
    "Vote on law {l}: {yes} for, {no} against. Passed.",
    "Votación de la ley {l}: {yes} a favor, {no} en contra. Aprobada.",
    "Votazione della legge {l}: {yes} a favore, {no} contro. Approvata.",
    "Vote de la loi {l} : {yes} pour, {no} contre. Adoptée.",
];
const VOTE_REJECTED: T = [
    "Vote on law {l}: {yes} for, {no} against. Rejected.",
    "Votación de la ley {l}: {yes} a favor, {no} en contra. Rechazada.",
    "Votazione della legge {l}: {yes} a favore, {no} contro. Respinta.",
    "Vote de la loi {l} : {yes} pour, {no} contre. Rejetée.",
];
const LAW_IN_FORCE: T = [
    "Law {l} is now in force.",
    "La ley {l} entra en vigor.",
    "La legge {l} è ora in vigore.",
    "La loi {l} est désormais en vigueur.",
];
const LAW_REPLACES: T = [
    "Law {l} is now in force, replacing {old}.",
    "La ley {l} entra en vigor y sustituye a {old}.",
    "La legge {l} è ora in vigore al posto di {old}.",
    "La loi {l} est désormais en vigueur à la place de {old}.",
];
const LAW_APPLIED: T = [
    "Law {l} applied.",
    "Se aplicó la ley {l}.",
    "Applicata la legge {l}.",
    "La loi {l} s'applique.",
];
const EXCHANGED: T = [
    "{f} used law {l} {n} times.",
    "{f} usó la ley {l} {n} veces.",
    "{f} ha usato la legge {l} {n} volte.",
    "{f} a utilisé la loi {l} {n} fois.",
];
const TOOK_NOBLE: T = [
    "County {c}: {f} took the noble.",
    "Condado {c}: {f} tomó el noble.",
    "Contea {c}: {f} ha preso il nobile.",
    "Comté {c} : {f} a pris le noble.",
];
const TOOK_REWARD: T = [
    "County {c}: {f} took the reward.",
    "Condado {c}: {f} tomó la recompensa.",
    "Contea {c}: {f} ha preso la ricompensa.",
    "Comté {c} : {f} a pris la récompense.",
];
const TOOK_BOTH: T = [
    "County {c}: {f} took the noble and the reward.",
    "Condado {c}: {f} tomó el noble y la recompensa.",
    "Contea {c}: {f} ha preso il nobile e la ricompensa.",
    "Comté {c} : {f} a pris le noble et la récompense.",
];
const PASSAGE: T = [
    "Knight {k} of {f} sailed to France for conflict {x}.",
    "El caballero {k} de {f} pasó a Francia para el conflicto {x}.",
    "Il cavaliere {k} di {f} è passato in Francia per il conflitto {x}.",
    "Le chevalier {k} de {f} est passé en France pour le conflit {x}.",
];
const START_PLAYER: T = [
    "{p} takes the start-player marker at once and will start the next round.",
    "{p} recibe ya la ficha de inicio y empezará la próxima ronda.",
    "{p} prende subito il segnalino di primo giocatore e inizierà il prossimo round.",
    "{p} prend aussitôt le marqueur de premier joueur et commencera la prochaine manche.",
];
const REWARD_CHOSEN: T = [
    "County {c}: {f} chose reward option {n}.",
    "Condado {c}: {f} eligió la opción de recompensa {n}.",
    "Contea {c}: {f} ha scelto l'opzione di ricompensa {n}.",
    "Comté {c} : {f} a choisi l'option de récompense {n}.",
];
const CASTLE_TAKEN: T = [
    "Castle space {s}: {f} took its effect.",
    "Espacio del castillo {s}: {f} tomó su efecto.",
    "Spazio del castello {s}: {f} ha preso il suo effetto.",
    "Case du château {s} : {f} a pris son effet.",
];
const CASTLE_LEFT: T = [
    "Castle space {s}: {f} let its effect go.",
    "Espacio del castillo {s}: {f} renunció a su efecto.",
    "Spazio del castello {s}: {f} ha rinunciato al suo effetto.",
    "Case du château {s} : {f} a renoncé à son effet.",
];
const ENGLAND_WINS: T = [
    "Conflict {x}: England {e} against France {fr}, England wins. {list}.",
    "Conflicto {x}: Inglaterra {e} contra Francia {fr}, gana Inglaterra. {list}.",
    "Conflitto {x}: Inghilterra {e} contro Francia {fr}, vince l'Inghilterra. {list}.",
    "Conflit {x} : Angleterre {e} contre France {fr}, l'Angleterre gagne. {list}.",
];
const FRANCE_WINS: T = [
    "Conflict {x}: England {e} against France {fr}, France wins. {list}.",
    "Conflicto {x}: Inglaterra {e} contra Francia {fr}, gana Francia. {list}.",
    "Conflitto {x}: Inghilterra {e} contro Francia {fr}, vince la Francia. {list}.",
    "Conflit {x} : Angleterre {e} contre France {fr}, la France gagne. {list}.",
];
const RANK: T = [
    "{f} strength {s}, {pp} power points",
    "{f} fuerza {s}, {pp} puntos de poder",
    "{f} forza {s}, {pp} punti potere",
    "{f} force {s}, {pp} points de pouvoir",
];
const CAPTURED: T = [
    "Knights {k} of {f} were captured.",
    "Los caballeros {k} de {f} fueron capturados.",
    "I cavalieri {k} di {f} sono stati catturati.",
    "Les chevaliers {k} de {f} ont été capturés.",
];
const RANSOMED: T = [
    "{f} ransomed knight {k} for {g} gold.",
    "{f} rescató el caballero {k} por {g} de oro.",
    "{f} ha riscattato il cavaliere {k} per {g} oro.",
    "{f} a racheté le chevalier {k} pour {g} or.",
];
const SCORE_LINE: T = [
    "{p}: {total} [power point|power points] ({before} before the final scoring; knighthood {knighthood}, castle {castle}, round table {table}; {gold} gold left)",
    "{p}: {total} [punto|puntos] de poder ({before} antes del recuento final; caballería {knighthood}, castillo {castle}, mesa redonda {table}; {gold} de oro)",
    "{p}: {total} [punto|punti] potere ({before} prima del conteggio finale; cavalleria {knighthood}, castello {castle}, tavola rotonda {table}; {gold} oro)",
    "{p} : {total} [point|points] de pouvoir ({before} avant le décompte final ; chevalerie {knighthood}, château {castle}, table ronde {table} ; {gold} or)",
];
const YOUR_SUPPLIES: T = [
    "Your gold: {gold}; squires: {squires}; voting markers: {vm}; power points: {pp}.",
    "Tu oro: {gold}; escuderos: {squires}; marcadores de voto: {vm}; puntos de poder: {pp}.",
    "Il tuo oro: {gold}; scudieri: {squires}; segnalini voto: {vm}; punti potere: {pp}.",
    "Votre or : {gold} ; écuyers : {squires} ; marqueurs de vote : {vm} ; points de pouvoir : {pp}.",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::Names;
    use serde_json::json;

    fn said(locale: Locale, e: &Value) -> String {
        let names = ["Ada".to_owned(), "Bruno".to_owned()];
        let n = Names {
            locale,
            names: &names,
        };
        Lancaster::event(locale, e)
            .map(|s| s.plain(&n))
            .unwrap_or_default()
    }

    /// A gain or a payment lists its amounts with each word agreeing with its number.
    #[test]
    fn amounts_agree_with_their_numbers_in_every_language() {
        let gained = json!({"type": "gained", "faction": 0, "gold": 2, "squires": 1,
                            "voting_markers": 1, "pp": 3});
        let lines: Vec<String> = [Locale::En, Locale::Es, Locale::It, Locale::Fr]
            .into_iter()
            .map(|l| said(l, &gained))
            .collect();
        for line in &lines {
            assert!(!line.contains('[') && !line.contains('|'), "{line}");
        }
        assert!(
            lines[0].contains("1 squire,") && lines[0].contains("1 voting marker,"),
            "{}",
            lines[0]
        );
        assert!(lines[0].contains("3 power points"), "{}", lines[0]);
        assert!(
            lines[1].contains("1 escudero,") && lines[1].contains("1 marcador de voto"),
            "{}",
            lines[1]
        );
        assert!(
            lines[2].contains("1 scudiero,") && lines[2].contains("3 punti potere"),
            "{}",
            lines[2]
        );
        assert!(
            lines[3].contains("1 écuyer,") && lines[3].contains("3 points de pouvoir"),
            "{}",
            lines[3]
        );
        let paid = json!({"type": "paid", "faction": 1, "squires": 2});
        assert!(
            said(Locale::Es, &paid).contains("2 escuderos"),
            "{}",
            said(Locale::Es, &paid)
        );
    }

    #[test]
    fn counties_and_laws_are_named_in_the_readers_language() {
        let noble = json!({"type": "noble_taken", "faction": 0, "county": "D"});
        assert_eq!(
            said(Locale::En, &noble),
            "Ada took a noble of county D (Gloucester)."
        );
        // A county without a name in the rules (a placeholder) is its letter in every language.
        let placeholder = json!({"type": "noble_taken", "faction": 1, "county": "A"});
        assert_eq!(
            said(Locale::It, &placeholder),
            "Bruno ha preso un nobile della contea A."
        );
        let law = json!({"type": "law_in_force", "law": "L13", "replaced": "L10"});
        assert_eq!(
            said(Locale::Fr, &law),
            "La loi L13 (Domination) est désormais en vigueur à la place de L10 (Champion)."
        );
        let vote =
            json!({"type": "vote_revealed", "law": "L09", "passed": true, "yes": 3, "no": 1});
        assert!(said(Locale::Es, &vote).contains("L09 (Entrenamiento)"));
    }
}
