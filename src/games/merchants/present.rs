//! Merchants & Marauders in words for mails and pages (the presentation seam of design.md
//! section 13): the one module of this folder outside the pure engine. Zones, captains, NPCs,
//! goods and cards are named from `data.json`; a player is a [`Part::Seat`]. Roll purposes
//! are the engine's own (with their rule IDs) in every language.
// Reading a `serde_json::Value` by key or index answers `Null` when absent: it cannot panic.
#![allow(clippy::indexing_slicing)]

use super::Merchants;
use super::data;
use crate::domain::Locale;
use crate::present::{Part, Present, RulesPage, Sentence, T};
use serde_json::Value;

impl Present for Merchants {
    fn event(locale: Locale, e: &Value) -> Option<Sentence> {
        let say = |t: &T, args: Vec<(&str, Part)>| Some(Sentence::say(locale, t, args));
        let seat = || Part::Seat(e["seat"].as_i64().unwrap_or(-1));
        let text = |key: &str| Part::Text(word(&e[key]));
        let zone = |key: &str| Part::Text(zone_name(&e[key]));
        let count = |key: &str| Part::Text(word(&e[key]));
        match e["type"].as_str()? {
            "ship_sealed" => say(&SHIP_SEALED, vec![("p", seat())]),
            "revealed" => say(
                &REVEALED,
                vec![
                    ("p", seat()),
                    ("c", Part::Text(captain_name(&e["captain"]))),
                    ("s", text("ship")),
                    ("z", zone("zone")),
                ],
            ),
            "captain_dealt" => say(
                &CAPTAIN_DEALT,
                vec![
                    ("p", seat()),
                    ("c", Part::Text(captain_name(&e["captain"]))),
                ],
            ),
            "first_player" => say(&FIRST_PLAYER, vec![("p", seat())]),
            "rolled" => {
                let who = match e["seat"].as_i64() {
                    Some(s) => Part::Seat(s),
                    None => Part::Text(pick(locale, &THE_SEA).to_owned()),
                };
                say(
                    &ROLLED,
                    vec![
                        ("p", who),
                        ("faces", Part::Text(faces(&e["faces"]))),
                        ("n", count("successes")),
                        ("why", text("purpose")),
                    ],
                )
            }
            "round_begins" => say(&ROUND_BEGINS, vec![("n", count("round"))]),
            "merchants_returned" => say(&MERCHANTS_RETURNED, vec![("n", count("count"))]),
            "event_drawn" => say(
                &EVENT_DRAWN,
                vec![("c", text("card")), ("t", text("title"))],
            ),
            "npc_arrives" => say(
                &NPC_ARRIVES,
                vec![
                    ("npc", Part::Text(npc_name(&e["npc"]))),
                    ("z", zone("zone")),
                ],
            ),
            "npc_moves" => say(
                &NPC_MOVES,
                vec![
                    ("npc", Part::Text(npc_name(&e["npc"]))),
                    ("a", zone("from")),
                    ("b", zone("to")),
                ],
            ),
            "war" => say(
                &WAR,
                vec![
                    ("a", Part::Text(word(&e["nations"][0]))),
                    ("b", Part::Text(word(&e["nations"][1]))),
                ],
            ),
            "peace" => say(&PEACE, vec![]),
            "hit" => say(&HIT, vec![("p", seat()), ("l", text("loc"))]),
            "npc_hit" => say(
                &NPC_HIT,
                vec![
                    ("npc", Part::Text(npc_by_card(&e["npc"]))),
                    ("l", text("loc")),
                ],
            ),
            "crew_lost" => say(&CREW_LOST, vec![("p", seat())]),
            "demand_replaced" => say(
                &DEMAND_REPLACED,
                vec![
                    ("z", zone("zone")),
                    ("g", Part::Text(good_name(&e["good"]))),
                ],
            ),
            "turn_begins" => say(&TURN_BEGINS, vec![("p", seat())]),
            "moved" => {
                let t = if e["in_port"].as_bool() == Some(true) {
                    &ENTERED
                } else {
                    &MOVED
                };
                say(t, vec![("p", seat()), ("z", zone("zone"))])
            }
            "cargo_discarded" => say(
                &CARGO_DISCARDED,
                vec![("p", seat()), ("cards", Part::Text(cards(&e["cards"])))],
            ),
            "scouted" => {
                let t = if e["found"].as_bool() == Some(true) {
                    &SCOUT_FOUND
                } else {
                    &SCOUT_MISSED
                };
                say(t, vec![("p", seat()), ("t", target(locale, &e["target"]))])
            }
            "merchant_revealed" => say(
                &MERCHANT_REVEALED,
                vec![("z", zone("zone")), ("n", text("nation"))],
            ),
            "let_go" => say(&LET_GO, vec![("p", seat())]),
            "bounty" => say(
                &BOUNTY,
                vec![("p", seat()), ("n", text("nation")), ("l", count("level"))],
            ),
            "raid_drew" => say(
                &RAID_DREW,
                vec![("p", seat()), ("cards", Part::Text(cards(&e["cards"])))],
            ),
            "raid_ended" => {
                let t = if e["success"].as_bool() == Some(true) {
                    &RAID_WON
                } else {
                    &RAID_LOST
                };
                say(t, vec![("p", seat()), ("g", count("gold"))])
            }
            "cargo_kept" => say(&CARGO_KEPT, vec![("p", seat()), ("n", count("count"))]),
            "port_action" => say(&PORT_ACTION, vec![("p", seat()), ("z", zone("zone"))]),
            "mod_revealed" => say(
                &MOD_REVEALED,
                vec![("z", zone("zone")), ("m", Part::Text(mod_name(&e["kind"])))],
            ),
            "sold" => say(
                &SOLD,
                vec![
                    ("p", seat()),
                    ("cards", Part::Text(cards(&e["cards"]))),
                    ("g", count("gold")),
                ],
            ),
            "offer_drawn" => say(&OFFER_DRAWN, vec![("p", seat()), ("n", count("count"))]),
            "offer" => say(
                &OFFER,
                vec![("p", seat()), ("cards", Part::Text(cards(&e["cards"])))],
            ),
            "bought" => say(
                &BOUGHT,
                vec![("p", seat()), ("n", count("count")), ("g", count("gold"))],
            ),
            "ship_bought" => say(
                &SHIP_BOUGHT,
                vec![
                    ("p", seat()),
                    ("s", text("ship")),
                    ("g", count("paid")),
                    ("x", count("sale")),
                ],
            ),
            "repaired" => say(
                &REPAIRED,
                vec![
                    ("p", seat()),
                    ("l", Part::Text(list(&e["locs"]))),
                    ("g", count("gold")),
                ],
            ),
            "modified" => say(
                &MODIFIED,
                vec![("p", seat()), ("m", Part::Text(mod_name(&e["kind"])))],
            ),
            "mod_placed" => say(&MOD_PLACED, vec![("z", zone("zone"))]),
            "weapon_bought" => say(
                &WEAPON_BOUGHT,
                vec![("p", seat()), ("w", Part::Text(weapon_name(&e["kind"])))],
            ),
            "weapon_used" => say(
                &WEAPON_USED,
                vec![("p", seat()), ("w", Part::Text(weapon_name(&e["kind"])))],
            ),
            "weapon_sold" => say(
                &WEAPON_SOLD,
                vec![
                    ("p", seat()),
                    ("w", Part::Text(weapon_name(&e["kind"]))),
                    ("g", count("gold")),
                ],
            ),
            "recruited" => say(
                &RECRUITED,
                vec![("p", seat()), ("n", count("crew")), ("g", count("gold"))],
            ),
            "rumor_taken" => say(&RUMOR_TAKEN, vec![("p", seat())]),
            "rumor_card" => say(&RUMOR_CARD, vec![("p", seat()), ("r", text("rumor"))]),
            "rumor_checked" => {
                let t = if e["truth"].as_bool() == Some(true) {
                    &RUMOR_TRUE
                } else {
                    &RUMOR_FALSE
                };
                say(t, vec![("p", seat()), ("r", text("rumor"))])
            }
            "mission_claimed" => say(
                &MISSION_CLAIMED,
                vec![("p", seat()), ("m", text("mission"))],
            ),
            "mission_opened" => say(&MISSION_OPENED, vec![("m", text("mission"))]),
            "mission_completed" => say(
                &MISSION_COMPLETED,
                vec![("p", seat()), ("m", text("mission")), ("g", count("gold"))],
            ),
            "stash_visited" => say(&STASH_VISITED, vec![("p", seat())]),
            "stashed" => say(
                &STASHED,
                vec![("p", seat()), ("a", count("amount")), ("s", count("stash"))],
            ),
            "paid_from_stash" => say(
                &PAID_FROM_STASH,
                vec![("p", seat()), ("g", count("gold")), ("s", count("stash"))],
            ),
            "glory" => say(
                &GLORY,
                vec![("p", seat()), ("n", count("points")), ("r", text("rule"))],
            ),
            "glory_drawn" => say(&GLORY_DRAWN, vec![("p", seat())]),
            "glory_card" => say(
                &GLORY_CARD,
                vec![("p", seat()), ("c", Part::Text(glory_name(&e["card"])))],
            ),
            "glory_discarded" => say(
                &GLORY_DISCARDED,
                vec![("p", seat()), ("c", Part::Text(glory_name(&e["card"])))],
            ),
            "glory_played" => say(
                &GLORY_PLAYED,
                vec![("p", seat()), ("c", Part::Text(glory_name(&e["card"])))],
            ),
            "employed" => say(
                &EMPLOYED,
                vec![
                    ("p", seat()),
                    ("c", Part::Text(glory_name(&e["card"]))),
                    ("g", count("gold")),
                ],
            ),
            "target_reached" => say(&TARGET_REACHED, vec![("p", seat())]),
            "died" => say(&DIED, vec![("p", seat())]),
            "combat_starts" => say(
                &COMBAT_STARTS,
                vec![("a", side(&e["aggressor"])), ("b", side(&e["defender"]))],
            ),
            "declared" => say(
                &DECLARED,
                vec![("a", side(&e["side"])), ("d", text("decl"))],
            ),
            "combat_ends" => say(&COMBAT_ENDS, vec![("how", text("how"))]),
            "defeated" => say(
                &DEFEATED,
                vec![("a", side(&e["winner"])), ("b", side(&e["loser"]))],
            ),
            "reward" => say(&REWARD, vec![("p", seat()), ("g", count("gold"))]),
            "plundered" => say(
                &PLUNDERED,
                vec![
                    ("p", seat()),
                    ("q", Part::Seat(e["from"].as_i64().unwrap_or(-1))),
                    ("what", text("what")),
                ],
            ),
            "ship_captured" => say(&SHIP_CAPTURED, vec![("p", seat()), ("s", text("ship"))]),
            "orders_filed" => say(&ORDERS_FILED, vec![("p", seat()), ("n", count("count"))]),
            "order_applied" => say(
                &ORDER_APPLIED,
                vec![("p", seat()), ("n", count("order")), ("a", text("action"))],
            ),
            "script_filed" => say(&SCRIPT_FILED, vec![("p", seat()), ("n", count("steps"))]),
            "script_step" => say(&SCRIPT_STEP, vec![("p", seat()), ("a", text("action"))]),
            "script_ended" if e["stopped_at"].is_null() => say(&SCRIPT_DONE, vec![("p", seat())]),
            "script_ended" => say(
                &SCRIPT_STOPPED,
                vec![("p", seat()), ("a", text("stopped_at"))],
            ),
            "game_ends" => say(&GAME_ENDS, vec![("why", text("reason"))]),
            _ => None,
        }
    }

    fn result(locale: Locale, _view: &Value, outcome: &Value) -> Vec<Sentence> {
        let glory = outcome["glory"].as_array().cloned().unwrap_or_default();
        let stash = outcome["stash"].as_array().cloned().unwrap_or_default();
        glory
            .iter()
            .enumerate()
            .map(|(i, g)| {
                Sentence::say(
                    locale,
                    &SCORE_LINE,
                    vec![
                        ("p", Part::Seat(i64::try_from(i).unwrap_or(-1))),
                        ("g", Part::Text(word(g))),
                        ("s", Part::Text(word(stash.get(i).unwrap_or(&Value::Null)))),
                    ],
                )
            })
            .collect()
    }

    /// The reader's own board and what the game waits for from them.
    fn reminder(locale: Locale, view: &Value, seat: usize) -> Vec<Sentence> {
        let me = &view["players"][seat];
        if me.is_null() {
            return Vec::new();
        }
        let n = |key: &str| Part::Text(word(&me[key]));
        let mut out = vec![Sentence::say(
            locale,
            &YOUR_BOARD,
            vec![
                ("gold", n("gold")),
                ("stash", n("stash")),
                ("glory", n("glory")),
                ("cargo", n("cargo_count")),
                ("cards", n("glory_cards")),
            ],
        )];
        if view["over"] != true && hand_over_limit(me) {
            out.push(Sentence::say(locale, &ASK_HAND, vec![]));
        }
        let d = &view["decision"];
        // Only the seat the decision asks is told what to do: the others' mails (a defender's
        // after its declaration, the attacker's while the defender declares) would otherwise
        // read "Your turn: ..." beside "It is not your turn any more".
        if asks(d, seat)
            && let Some(t) = prompt(&d["kind"])
        {
            out.push(Sentence::say(locale, t, vec![]));
        }
        // III.3.9: a dead captain's new ship may be chosen before its own turn, not yet asked.
        if view["rejoin"].is_object() {
            out.push(Sentence::say(locale, &MAY_REJOIN, vec![]));
        }
        out
    }

    /// A decision asked during another seat's turn (a defence, a window, a plunder, a late
    /// ship choice) is "you must decide".
    fn deciding(view: &Value, seat: usize, pending: usize) -> bool {
        let d = &view["decision"];
        let on_turn = matches!(
            d["kind"].as_str(),
            Some("turn" | "port" | "offer" | "hire" | "merchant_found" | "raid" | "keep")
        ) && d["seat"].as_u64().and_then(|s| usize::try_from(s).ok()) == Some(seat);
        pending > 1 || !on_turn
    }

    fn rules() -> Option<&'static RulesPage> {
        Some(&RULES)
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
    prefixes: &["MM"],
    families: &FAMILIES,
};

/// Every rule family of Part I of `shared/rules/merchants-and-marauders.md` (sections 1–23).
const FAMILIES: [&str; 31] = [
    "MM-COMP", "MM-DICE", "MM-SETUP", "MM-ROUND", "MM-EVT", "MM-ACT", "MM-MOVE", "MM-SCOUT",
    "MM-PORT", "MM-SELL", "MM-BUY", "MM-YARD", "MM-RECR", "MM-RUM", "MM-MIS", "MM-STASH",
    "MM-RAID", "MM-NAV", "MM-DMG", "MM-CREW", "MM-WPN", "MM-PLUN", "MM-NPC", "MM-BNTY", "MM-WAR",
    "MM-GLORY", "MM-GCARD", "MM-DEATH", "MM-END", "MM-SOLO", "MM-COUNT",
];

/// Whether the open decision waits for `seat`: the seats yet to seal a ship, the side to
/// declare in a naval combat (the aggressor first, MM-NAV-4; an NPC never), else its `seat`.
fn asks(d: &Value, seat: usize) -> bool {
    let is = |v: &Value| v.as_u64().and_then(|s| usize::try_from(s).ok()) == Some(seat);
    match d["kind"].as_str() {
        Some("ship_choice") => d["waiting"].as_array().is_some_and(|w| w.iter().any(is)),
        Some("combat") => {
            let side = if d["declared"].is_null() {
                &d["aggressor"]
            } else {
                &d["defender"]
            };
            side["kind"] == "player" && is(&side["id"])
        }
        _ => is(&d["seat"]),
    }
}

/// MM-GCARD-2: the reader's own glory hand is over the limit, which they settle first, in
/// anyone's turn.
fn hand_over_limit(me: &Value) -> bool {
    let limit = data::load().map_or(u64::MAX, |d| u64::from(d.start.glory_hand_limit));
    me["glory_cards"].as_u64().is_some_and(|n| n > limit)
}

/// What the open decision asks, by its kind.
fn prompt(kind: &Value) -> Option<&'static T> {
    Some(match kind.as_str()? {
        "ship_choice" => &ASK_SHIP,
        "turn" => &ASK_TURN,
        "port" => &ASK_PORT,
        "offer" => &ASK_OFFER,
        "hire" => &ASK_HIRE,
        "merchant_found" => &ASK_MERCHANT,
        "raid" => &ASK_RAID,
        "keep" => &ASK_KEEP,
        "combat" => &ASK_COMBAT,
        "window" => &ASK_WINDOW,
        "plunder" => &ASK_PLUNDER,
        "claim" => &ASK_CLAIM,
        "pick" => &ASK_PICK,
        "place" => &ASK_PLACE,
        _ => return None,
    })
}

fn pick(locale: Locale, t: &T) -> &'static str {
    crate::present::pick(locale, t)
}

/// A JSON scalar as a word: strings without their quotes.
fn word(v: &Value) -> String {
    match v {
        Value::String(s) => s.replace('_', " "),
        Value::Null => "—".to_owned(),
        other => other.to_string(),
    }
}

fn list(v: &Value) -> String {
    let items: Vec<String> = v.as_array().into_iter().flatten().map(word).collect();
    if items.is_empty() {
        "—".to_owned()
    } else {
        items.join(", ")
    }
}

fn faces(v: &Value) -> String {
    let items: Vec<String> = v
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| match f.as_u64() {
            Some(5 | 6) => "☠".to_owned(),
            Some(n) => n.to_string(),
            None => "?".to_owned(),
        })
        .collect();
    if items.is_empty() {
        "—".to_owned()
    } else {
        items.join(" ")
    }
}

fn index(v: &Value) -> Option<usize> {
    v.as_u64().and_then(|n| usize::try_from(n).ok())
}

fn zone_name(v: &Value) -> String {
    data::load()
        .ok()
        .and_then(|d| d.zones.get(index(v)?))
        .map_or_else(|| word(v), |z| z.name.clone())
}

fn captain_name(v: &Value) -> String {
    let id = v.as_str().unwrap_or_default();
    data::load()
        .ok()
        .and_then(|d| d.captains.iter().find(|c| c.id == id))
        .map_or_else(|| word(v), |c| c.name.clone())
}

fn npc_name(v: &Value) -> String {
    let id = v.as_str().unwrap_or_default();
    data::load()
        .ok()
        .and_then(|d| d.npcs.iter().find(|n| n.id == id))
        .map_or_else(|| word(v), |n| n.name.clone())
}

fn npc_by_card(v: &Value) -> String {
    data::load()
        .ok()
        .and_then(|d| d.npcs.get(index(v)?))
        .map_or_else(|| word(v), |n| n.name.clone())
}

fn good_name(v: &Value) -> String {
    data::load()
        .ok()
        .and_then(|d| d.goods.get(index(v)?))
        .map_or_else(|| word(v), |g| g.name.clone())
}

fn mod_name(v: &Value) -> String {
    data::load()
        .ok()
        .and_then(|d| d.modifications.get(index(v)?))
        .map_or_else(|| word(v), |m| m.name.clone())
}

fn weapon_name(v: &Value) -> String {
    data::load()
        .ok()
        .and_then(|d| d.weapons.get(index(v)?))
        .map_or_else(|| word(v), |w| w.name.clone())
}

fn glory_name(v: &Value) -> String {
    data::load()
        .ok()
        .and_then(|d| d.glory_card(u8::try_from(v.as_u64()?).ok()?))
        .map_or_else(|| word(v), |g| g.name.clone())
}

/// Cargo cards by good: `Sugar, Rum`.
fn cards(v: &Value) -> String {
    let Ok(d) = data::load() else {
        return list(v);
    };
    let items: Vec<String> = v
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| u8::try_from(c.as_u64()?).ok())
        .map(|c| {
            d.goods
                .get(usize::from(d.cargo_card(c).good))
                .map_or_else(|| c.to_string(), |g| g.name.clone())
        })
        .collect();
    if items.is_empty() {
        "—".to_owned()
    } else {
        items.join(", ")
    }
}

/// A side of a combat: a player, or an NPC by name.
fn side(v: &Value) -> Part {
    match v["kind"].as_str() {
        Some("player") => Part::Seat(v["id"].as_i64().unwrap_or(-1)),
        _ => Part::Text(npc_by_card(&v["id"])),
    }
}

/// A scout's target (the scout action's `{"kind": ..., "id": ...}`): a player by name, an
/// NPC, a merchant token, a rumor or a mission objective in words.
fn target(locale: Locale, v: &Value) -> Part {
    let named = |t: &T| Part::Text(pick(locale, t).to_owned());
    match v["kind"].as_str() {
        Some("player" | "npc") => side(v),
        Some("merchant") => named(&THE_MERCHANT),
        Some("rumor") => named(&THE_RUMOR),
        Some("mission") => named(&THE_MISSION),
        Some("far_merchant") => Part::Text(crate::present::fill(
            locale,
            &THE_MERCHANT_IN,
            &[("z", &zone_name(&v["id"]))],
        )),
        // Histories logged before targets were data hold a text.
        _ => Part::Text(word(v)),
    }
}

const THE_MERCHANT: T = [
    "the merchant",
    "el mercante",
    "il mercantile",
    "le marchand",
];
const THE_MERCHANT_IN: T = [
    "the merchant in {z}",
    "el mercante en {z}",
    "il mercantile in {z}",
    "le marchand à {z}",
];
const THE_RUMOR: T = ["a rumor", "un rumor", "una voce", "une rumeur"];
const THE_MISSION: T = [
    "a mission objective",
    "un objetivo de misión",
    "un obiettivo di missione",
    "un objectif de mission",
];
const THE_SEA: T = ["The sea", "El mar", "Il mare", "La mer"];
const SHIP_SEALED: T = [
    "{p} chose a ship (sealed until everyone has chosen).",
    "{p} eligió barco (sellado hasta que todos elijan).",
    "{p} ha scelto la nave (sigillata finché tutti scelgono).",
    "{p} a choisi un navire (scellé jusqu'à ce que tous aient choisi).",
];
const REVEALED: T = [
    "{p} is captain {c}, sailing a {s} from {z}.",
    "{p} es el capitán {c}, con un {s} desde {z}.",
    "{p} è il capitano {c}, con un {s} da {z}.",
    "{p} est le capitaine {c}, sur un {s} depuis {z}.",
];
const CAPTAIN_DEALT: T = [
    "{p}, your captain is {c} (secret until your ship is revealed).",
    "{p}, tu capitán es {c} (secreto hasta revelar tu barco).",
    "{p}, il tuo capitano è {c} (segreto fino alla rivelazione della nave).",
    "{p}, votre capitaine est {c} (secret jusqu'à la révélation du navire).",
];
const FIRST_PLAYER: T = [
    "{p} is the first player.",
    "{p} es el jugador inicial.",
    "{p} è il primo giocatore.",
    "{p} est le premier joueur.",
];
const ROLLED: T = [
    "{p} rolled {faces} ({n} [success|successes]): {why}.",
    "{p} tiró {faces} ({n} [éxito|éxitos]): {why}.",
    "{p} ha tirato {faces} ({n} [successo|successi]): {why}.",
    "{p} a lancé {faces} ({n} succès) : {why}.",
];
const ROUND_BEGINS: T = [
    "Round {n} begins.",
    "Empieza la ronda {n}.",
    "Inizia il round {n}.",
    "La manche {n} commence.",
];
const MERCHANTS_RETURNED: T = [
    "{n} [merchant ship returns|merchant ships return] to sea.",
    "{n} [mercante vuelve|mercantes vuelven] al mar.",
    "{n} [mercantile torna|mercantili tornano] in mare.",
    "{n} [navire marchand reprend|navires marchands reprennent] la mer.",
];
const EVENT_DRAWN: T = [
    "Event {c}: {t}.",
    "Evento {c}: {t}.",
    "Evento {c}: {t}.",
    "Événement {c} : {t}.",
];
const NPC_ARRIVES: T = [
    "{npc} arrives in {z}.",
    "{npc} llega a {z}.",
    "{npc} arriva a {z}.",
    "{npc} arrive à {z}.",
];
const NPC_MOVES: T = [
    "{npc} sails from {a} to {b}.",
    "{npc} navega de {a} a {b}.",
    "{npc} naviga da {a} a {b}.",
    "{npc} fait voile de {a} à {b}.",
];
const WAR: T = [
    "War between {a} and {b}.",
    "Guerra entre {a} y {b}.",
    "Guerra tra {a} e {b}.",
    "Guerre entre {a} et {b}.",
];
const PEACE: T = [
    "A treaty: peace returns.",
    "Un tratado: vuelve la paz.",
    "Un trattato: torna la pace.",
    "Un traité : la paix revient.",
];
const HIT: T = [
    "{p}'s ship is hit: {l}.",
    "El barco de {p} recibe un impacto: {l}.",
    "La nave di {p} è colpita: {l}.",
    "Le navire de {p} est touché : {l}.",
];
const NPC_HIT: T = [
    "{npc} is hit: {l}.",
    "{npc} recibe un impacto: {l}.",
    "{npc} è colpito: {l}.",
    "{npc} est touché : {l}.",
];
const CREW_LOST: T = [
    "{p} loses a crew member.",
    "{p} pierde un tripulante.",
    "{p} perde un membro dell'equipaggio.",
    "{p} perd un membre d'équipage.",
];
const DEMAND_REPLACED: T = [
    "{z} now demands {g}.",
    "{z} ahora demanda {g}.",
    "{z} ora richiede {g}.",
    "{z} demande maintenant {g}.",
];
const TURN_BEGINS: T = [
    "{p}'s turn.",
    "Turno de {p}.",
    "Turno di {p}.",
    "Tour de {p}.",
];
const MOVED: T = [
    "{p} sails to {z}.",
    "{p} navega a {z}.",
    "{p} naviga verso {z}.",
    "{p} fait voile vers {z}.",
];
const ENTERED: T = [
    "{p} enters the port of {z}.",
    "{p} entra en el puerto de {z}.",
    "{p} entra nel porto di {z}.",
    "{p} entre dans le port de {z}.",
];
const CARGO_DISCARDED: T = [
    "{p} discards cargo: {cards}.",
    "{p} descarta carga: {cards}.",
    "{p} scarta merci: {cards}.",
    "{p} défausse des marchandises : {cards}.",
];
const SCOUT_FOUND: T = [
    "{p} scouted {t} and found it.",
    "{p} exploró {t} y lo encontró.",
    "{p} ha esplorato {t} e l'ha trovato.",
    "{p} a cherché {t} et l'a trouvé.",
];
const SCOUT_MISSED: T = [
    "{p} scouted {t} and found nothing.",
    "{p} exploró {t} sin encontrar nada.",
    "{p} ha esplorato {t} senza trovare nulla.",
    "{p} a cherché {t} sans rien trouver.",
];
const MERCHANT_REVEALED: T = [
    "The merchant in {z} flies the flag of {n}.",
    "El mercante de {z} lleva bandera de {n}.",
    "Il mercantile in {z} batte bandiera {n}.",
    "Le marchand de {z} bat pavillon {n}.",
];
const LET_GO: T = [
    "{p} lets the merchant go.",
    "{p} deja ir al mercante.",
    "{p} lascia andare il mercantile.",
    "{p} laisse partir le marchand.",
];
const BOUNTY: T = [
    "{p}'s bounty from {n} is now {l}.",
    "La recompensa de {n} por {p} es ahora {l}.",
    "La taglia di {n} su {p} è ora {l}.",
    "La prime de {n} sur {p} est maintenant de {l}.",
];
const RAID_DREW: T = [
    "{p} raids: {cards}.",
    "{p} asalta: {cards}.",
    "{p} assalta: {cards}.",
    "{p} attaque : {cards}.",
];
const RAID_WON: T = [
    "{p}'s raid succeeds: {g} gold.",
    "El asalto de {p} triunfa: {g} de oro.",
    "L'assalto di {p} riesce: {g} oro.",
    "L'attaque de {p} réussit : {g} or.",
];
const RAID_LOST: T = [
    "{p}'s raid fails; the merchant escapes.",
    "El asalto de {p} fracasa; el mercante escapa.",
    "L'assalto di {p} fallisce; il mercantile fugge.",
    "L'attaque de {p} échoue ; le marchand s'échappe.",
];
const CARGO_KEPT: T = [
    "{p} keeps {n} [cargo card|cargo cards].",
    "{p} se queda {n} [carta|cartas] de carga.",
    "{p} tiene {n} [carta merce|carte merce].",
    "{p} garde {n} [carte|cartes] de marchandise.",
];
const PORT_ACTION: T = [
    "{p} does business in {z}.",
    "{p} hace negocios en {z}.",
    "{p} fa affari a {z}.",
    "{p} fait des affaires à {z}.",
];
const MOD_REVEALED: T = [
    "The shipyard of {z} offers {m}.",
    "El astillero de {z} ofrece {m}.",
    "Il cantiere di {z} offre {m}.",
    "Le chantier de {z} propose {m}.",
];
const SOLD: T = [
    "{p} sold {cards} for {g} gold.",
    "{p} vendió {cards} por {g} de oro.",
    "{p} ha venduto {cards} per {g} oro.",
    "{p} a vendu {cards} pour {g} or.",
];
const OFFER_DRAWN: T = [
    "{p} looks at {n} [cargo card|cargo cards] on offer.",
    "{p} mira {n} [carta|cartas] de carga en oferta.",
    "{p} guarda {n} [carta merce|carte merce] in offerta.",
    "{p} regarde {n} [carte|cartes] de marchandise en vente.",
];
const OFFER: T = [
    "{p}, your offer: {cards}.",
    "{p}, tu oferta: {cards}.",
    "{p}, la tua offerta: {cards}.",
    "{p}, votre offre : {cards}.",
];
const BOUGHT: T = [
    "{p} bought {n} [cargo card|cargo cards] for {g} gold.",
    "{p} compró {n} [carta|cartas] de carga por {g} de oro.",
    "{p} ha comprato {n} [carta merce|carte merce] per {g} oro.",
    "{p} a acheté {n} [carte|cartes] de marchandise pour {g} or.",
];
const SHIP_BOUGHT: T = [
    "{p} bought a {s} for {g} gold (the old ship sold for {x}).",
    "{p} compró un {s} por {g} de oro (el barco viejo se vendió por {x}).",
    "{p} ha comprato un {s} per {g} oro (la vecchia nave venduta per {x}).",
    "{p} a acheté un {s} pour {g} or (l'ancien navire vendu {x}).",
];
const REPAIRED: T = [
    "{p} repaired {l} for {g} gold.",
    "{p} reparó {l} por {g} de oro.",
    "{p} ha riparato {l} per {g} oro.",
    "{p} a réparé {l} pour {g} or.",
];
const MODIFIED: T = [
    "{p} fitted {m}.",
    "{p} instaló {m}.",
    "{p} ha installato {m}.",
    "{p} a installé {m}.",
];
const MOD_PLACED: T = [
    "A modification token is placed face-down in {z}.",
    "Se coloca boca abajo una mejora en {z}.",
    "Un potenziamento è posato coperto a {z}.",
    "Une amélioration est posée face cachée à {z}.",
];
const WEAPON_BOUGHT: T = [
    "{p} takes {w}.",
    "{p} toma {w}.",
    "{p} prende {w}.",
    "{p} prend {w}.",
];
const WEAPON_USED: T = [
    "{p} uses {w}.",
    "{p} usa {w}.",
    "{p} usa {w}.",
    "{p} utilise {w}.",
];
const WEAPON_SOLD: T = [
    "{p} sold {w} back for {g} gold.",
    "{p} revendió {w} por {g} de oro.",
    "{p} ha rivenduto {w} per {g} oro.",
    "{p} a revendu {w} pour {g} or.",
];
const RECRUITED: T = [
    "{p} recruited {n} crew for {g} gold.",
    "{p} reclutó {n} [tripulante|tripulantes] por {g} de oro.",
    "{p} ha reclutato {n} [marinaio|marinai] per {g} oro.",
    "{p} a recruté {n} [marin|marins] pour {g} or.",
];
const RUMOR_TAKEN: T = [
    "{p} heard a rumor.",
    "{p} oyó un rumor.",
    "{p} ha sentito una voce.",
    "{p} a entendu une rumeur.",
];
const RUMOR_CARD: T = [
    "{p}, your rumor: {r}.",
    "{p}, tu rumor: {r}.",
    "{p}, la tua voce: {r}.",
    "{p}, votre rumeur : {r}.",
];
const RUMOR_TRUE: T = [
    "{p}'s rumor {r} was true.",
    "El rumor {r} de {p} era cierto.",
    "La voce {r} di {p} era vera.",
    "La rumeur {r} de {p} était vraie.",
];
const RUMOR_FALSE: T = [
    "{p}'s rumor {r} was false.",
    "El rumor {r} de {p} era falso.",
    "La voce {r} di {p} era falsa.",
    "La rumeur {r} de {p} était fausse.",
];
const MISSION_CLAIMED: T = [
    "{p} took mission {m}.",
    "{p} tomó la misión {m}.",
    "{p} ha preso la missione {m}.",
    "{p} a pris la mission {m}.",
];
const MISSION_OPENED: T = [
    "Mission {m} is open.",
    "La misión {m} está disponible.",
    "La missione {m} è disponibile.",
    "La mission {m} est ouverte.",
];
const MISSION_COMPLETED: T = [
    "{p} completed mission {m}: {g} gold.",
    "{p} cumplió la misión {m}: {g} de oro.",
    "{p} ha completato la missione {m}: {g} oro.",
    "{p} a accompli la mission {m} : {g} or.",
];
const STASH_VISITED: T = [
    "{p} visited their stash.",
    "{p} visitó su escondite.",
    "{p} ha visitato il suo nascondiglio.",
    "{p} a visité sa cache.",
];
const STASHED: T = [
    "{p}, you moved {a} gold; your stash holds {s}.",
    "{p}, moviste {a} de oro; tu escondite guarda {s}.",
    "{p}, hai spostato {a} oro; il nascondiglio contiene {s}.",
    "{p}, vous avez déplacé {a} or ; votre cache contient {s}.",
];
const PAID_FROM_STASH: T = [
    "{p}, your stash paid {g} gold of the price; it holds {s}.",
    "{p}, tu escondite pagó {g} de oro del precio; guarda {s}.",
    "{p}, il nascondiglio ha pagato {g} oro del prezzo; contiene {s}.",
    "{p}, votre cache a payé {g} or du prix ; elle contient {s}.",
];
const GLORY: T = [
    "{p} gains {n} glory ({r}).",
    "{p} gana {n} de gloria ({r}).",
    "{p} guadagna {n} gloria ({r}).",
    "{p} gagne {n} gloire ({r}).",
];
const GLORY_DRAWN: T = [
    "{p} draws a glory card.",
    "{p} roba una carta de gloria.",
    "{p} pesca una carta gloria.",
    "{p} pioche une carte de gloire.",
];
const GLORY_CARD: T = [
    "{p}, you drew {c}.",
    "{p}, robaste {c}.",
    "{p}, hai pescato {c}.",
    "{p}, vous avez pioché {c}.",
];
const GLORY_DISCARDED: T = [
    "{p} discards {c} (hand limit).",
    "{p} descarta {c} (límite de mano).",
    "{p} scarta {c} (limite di mano).",
    "{p} défausse {c} (limite de main).",
];
const GLORY_PLAYED: T = [
    "{p} plays {c}.",
    "{p} juega {c}.",
    "{p} gioca {c}.",
    "{p} joue {c}.",
];
const ORDERS_FILED: T = [
    "{p} filed {n} standing orders.",
    "{p} registró {n} órdenes permanentes.",
    "{p} ha registrato {n} ordini permanenti.",
    "{p} a déposé {n} ordres permanents.",
];
const ORDER_APPLIED: T = [
    "Standing order {n} of {p} answered: {a}.",
    "La orden permanente {n} de {p} respondió: {a}.",
    "L'ordine permanente {n} di {p} ha risposto: {a}.",
    "L'ordre permanent {n} de {p} a répondu : {a}.",
];
const SCRIPT_FILED: T = [
    "{p} filed a turn script of {n} [step|steps].",
    "{p} registró un guion de turno de {n} [paso|pasos].",
    "{p} ha registrato uno script di turno di {n} [passo|passi].",
    "{p} a déposé un script de tour de {n} [étape|étapes].",
];
const SCRIPT_STEP: T = [
    "The turn script of {p} took: {a}.",
    "El guion de turno de {p} hizo: {a}.",
    "Lo script di turno di {p} ha eseguito: {a}.",
    "Le script de tour de {p} a joué : {a}.",
];
const SCRIPT_STOPPED: T = [
    "The turn script of {p} stopped: {a} is not possible now; your decision.",
    "El guion de turno de {p} se detuvo: {a} no es posible ahora; decides tú.",
    "Lo script di turno di {p} si è fermato: {a} ora non è possibile; decidi tu.",
    "Le script de tour de {p} s'est arrêté : {a} n'est pas possible maintenant ; à vous de décider.",
];
const SCRIPT_DONE: T = [
    "The turn script of {p} has no step left that applies.",
    "Al guion de turno de {p} no le queda ningún paso aplicable.",
    "Lo script di turno di {p} non ha più passi applicabili.",
    "Le script de tour de {p} n'a plus d'étape applicable.",
];
const EMPLOYED: T = [
    "{p} employs {c} for {g} gold.",
    "{p} contrata a {c} por {g} de oro.",
    "{p} ingaggia {c} per {g} oro.",
    "{p} engage {c} pour {g} or.",
];
const TARGET_REACHED: T = [
    "{p} has reached the glory target: the game ends with this round.",
    "{p} alcanzó la gloria necesaria: la partida termina con esta ronda.",
    "{p} ha raggiunto la gloria richiesta: la partita finisce con questo round.",
    "{p} a atteint l'objectif de gloire : la partie se termine avec cette manche.",
];
const DIED: T = [
    "{p}'s captain is dead; a new captain will take the sea.",
    "El capitán de {p} ha muerto; un nuevo capitán saldrá al mar.",
    "Il capitano di {p} è morto; un nuovo capitano prenderà il mare.",
    "Le capitaine de {p} est mort ; un nouveau capitaine prendra la mer.",
];
const COMBAT_STARTS: T = [
    "Naval combat: {a} attacks {b}.",
    "Combate naval: {a} ataca a {b}.",
    "Combattimento navale: {a} attacca {b}.",
    "Combat naval : {a} attaque {b}.",
];
const DECLARED: T = [
    "{a} declares {d}.",
    "{a} declara {d}.",
    "{a} dichiara {d}.",
    "{a} déclare {d}.",
];
const COMBAT_ENDS: T = [
    "The naval combat ends: {how}.",
    "El combate naval termina: {how}.",
    "Il combattimento navale finisce: {how}.",
    "Le combat naval se termine : {how}.",
];
const DEFEATED: T = [
    "{a} defeats {b}.",
    "{a} derrota a {b}.",
    "{a} sconfigge {b}.",
    "{a} vainc {b}.",
];
const REWARD: T = [
    "{p} is paid {g} gold.",
    "{p} cobra {g} de oro.",
    "{p} riceve {g} oro.",
    "{p} reçoit {g} or.",
];
const PLUNDERED: T = [
    "{p} plunders {q}: {what}.",
    "{p} saquea a {q}: {what}.",
    "{p} saccheggia {q}: {what}.",
    "{p} pille {q} : {what}.",
];
const SHIP_CAPTURED: T = [
    "{p} captures a {s}.",
    "{p} captura un {s}.",
    "{p} cattura un {s}.",
    "{p} capture un {s}.",
];
const GAME_ENDS: T = [
    "The game ends: {why}.",
    "La partida termina: {why}.",
    "La partita finisce: {why}.",
    "La partie se termine : {why}.",
];
const SCORE_LINE: T = [
    "{p}: {g} glory (stash {s} gold)",
    "{p}: {g} de gloria (escondite {s} de oro)",
    "{p}: {g} gloria (nascondiglio {s} oro)",
    "{p} : {g} gloire (cache {s} or)",
];
const YOUR_BOARD: T = [
    "Your gold: {gold}; stash: {stash}; glory: {glory}; cargo cards: {cargo}; glory cards: {cards}.",
    "Tu oro: {gold}; escondite: {stash}; gloria: {glory}; cartas de carga: {cargo}; cartas de gloria: {cards}.",
    "Il tuo oro: {gold}; nascondiglio: {stash}; gloria: {glory}; carte merce: {cargo}; carte gloria: {cards}.",
    "Votre or : {gold} ; cache : {stash} ; gloire : {glory} ; cartes de marchandise : {cargo} ; cartes de gloire : {cards}.",
];
const ASK_SHIP: T = [
    "Choose your ship: Sloop or Flute (sealed until all have chosen).",
    "Elige tu barco: balandro o flauta (sellado hasta que todos elijan).",
    "Scegli la nave: sloop o flauta (sigillata finché tutti scelgono).",
    "Choisissez votre navire : sloop ou flûte (scellé jusqu'à ce que tous aient choisi).",
];
const ASK_TURN: T = [
    "Your turn: Move, Scout or Port, or end the turn.",
    "Tu turno: mover, explorar o puerto, o terminar el turno.",
    "Il tuo turno: muovi, esplora o porto, o termina il turno.",
    "Votre tour : se déplacer, explorer ou faire escale, ou finir le tour.",
];
const ASK_PORT: T = [
    "In port: choose your next activity, or done.",
    "En puerto: elige la siguiente actividad, o terminar.",
    "In porto: scegli la prossima attività, o fine.",
    "Au port : choisissez l'activité suivante, ou terminé.",
];
const ASK_OFFER: T = [
    "Choose the cargo cards you buy from your offer.",
    "Elige las cartas de carga que compras de tu oferta.",
    "Scegli le carte merce che compri dalla tua offerta.",
    "Choisissez les cartes de marchandise que vous achetez.",
];
const ASK_HIRE: T = [
    "Your Leadership roll failed: hire crew for gold, or none.",
    "Falló tu tirada de liderazgo: contrata tripulantes con oro, o ninguno.",
    "Il tiro di comando è fallito: ingaggia marinai con oro, o nessuno.",
    "Votre jet de commandement a échoué : engagez des marins contre de l'or, ou aucun.",
];
const ASK_MERCHANT: T = [
    "A merchant is found: choose its flag to raid it, or let it go.",
    "Has encontrado un mercante: elige su bandera para asaltarlo, o déjalo ir.",
    "Hai trovato un mercantile: scegli la bandiera per assaltarlo, o lascialo andare.",
    "Un marchand est trouvé : choisissez son pavillon pour l'attaquer, ou laissez-le partir.",
];
const ASK_RAID: T = [
    "Spend your raid successes: draw, discard or swap, or stop.",
    "Gasta tus éxitos del asalto: robar, descartar o cambiar, o parar.",
    "Spendi i successi dell'assalto: pesca, scarta o scambia, o fermati.",
    "Dépensez vos succès : piocher, défausser ou échanger, ou arrêter.",
];
const ASK_KEEP: T = [
    "Choose the cargo cards you keep.",
    "Elige las cartas de carga que te quedas.",
    "Scegli le carte merce che tieni.",
    "Choisissez les cartes de marchandise que vous gardez.",
];
const ASK_COMBAT: T = [
    "Naval combat: declare Shoot, Board or Flee.",
    "Combate naval: declara disparar, abordar o huir.",
    "Combattimento navale: dichiara sparare, abbordare o fuggire.",
    "Combat naval : déclarez tirer, aborder ou fuir.",
];
const ASK_WINDOW: T = [
    "You may play a card or a weapon now, or pass.",
    "Puedes jugar una carta o un arma ahora, o pasar.",
    "Puoi giocare una carta o un'arma ora, o passare.",
    "Vous pouvez jouer une carte ou une arme maintenant, ou passer.",
];
const ASK_PLUNDER: T = [
    "You won the crew combat: take what you like, capture the ship, or done.",
    "Ganaste el abordaje: toma lo que quieras, captura el barco, o termina.",
    "Hai vinto l'abbordaggio: prendi ciò che vuoi, cattura la nave, o fine.",
    "Vous avez gagné l'abordage : prenez ce que vous voulez, capturez le navire, ou terminé.",
];
const ASK_CLAIM: T = [
    "Capture the defeated ship, or keep your own.",
    "Captura el barco derrotado, o quédate con el tuyo.",
    "Cattura la nave sconfitta, o tieni la tua.",
    "Capturez le navire vaincu, ou gardez le vôtre.",
];
const ASK_PICK: T = [
    "Pick one of the offered rewards.",
    "Elige una de las recompensas ofrecidas.",
    "Scegli una delle ricompense offerte.",
    "Choisissez l'une des récompenses proposées.",
];
const MAY_REJOIN: T = [
    "Your new captain rejoins on your next turn: you may choose the ship (and place returned \
     modifications) now, or when that turn comes.",
    "Tu nuevo capitán vuelve en tu próximo turno: puedes elegir el barco (y colocar las mejoras \
     devueltas) ahora o cuando llegue ese turno.",
    "Il tuo nuovo capitano rientra al tuo prossimo turno: puoi scegliere la nave (e piazzare i \
     potenziamenti restituiti) ora o quando arriva quel turno.",
    "Votre nouveau capitaine revient à votre prochain tour : vous pouvez choisir le navire (et \
     placer les améliorations rendues) maintenant ou quand ce tour viendra.",
];
const ASK_HAND: T = [
    "Your hand is over the limit of glory cards: discard one.",
    "Tu mano supera el límite de cartas de gloria: descarta una.",
    "La tua mano supera il limite di carte gloria: scartane una.",
    "Votre main dépasse la limite de cartes de gloire : défaussez-en une.",
];
const ASK_PLACE: T = [
    "Place your returned modification face-down in a port without one.",
    "Coloca tu mejora devuelta boca abajo en un puerto sin ninguna.",
    "Posa il tuo potenziamento coperto in un porto che non ne ha.",
    "Posez votre amélioration face cachée dans un port qui n'en a pas.",
];

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::present::Names;

    #[test]
    fn every_event_of_a_random_game_reads_as_a_sentence_in_every_language() {
        let names: Vec<String> = ["Ada", "Bruno", "Cleo"].map(String::from).to_vec();
        let e = serde_json::json!({"type": "npc_moves", "npc": "NPC-09", "from": 16, "to": 5});
        for locale in [Locale::En, Locale::Es, Locale::It, Locale::Fr] {
            let n = Names {
                locale,
                names: &names,
            };
            let s = Merchants::event(locale, &e).unwrap().plain(&n);
            assert!(
                s.contains("\"Red\" Haskins") && s.contains("Santo Domingo"),
                "{s}"
            );
        }
        let combat = serde_json::json!({"type": "combat_starts",
            "aggressor": {"kind": "player", "id": 1}, "defender": {"kind": "npc", "id": 0}});
        let n = Names {
            locale: Locale::En,
            names: &names,
        };
        assert_eq!(
            Merchants::event(Locale::En, &combat).unwrap().plain(&n),
            "Naval combat: Bruno attacks Almirante Ruidera."
        );
        // Counted words agree with their number in every language.
        let one = serde_json::json!({"type": "merchants_returned", "count": 1});
        let said: Vec<String> = [Locale::En, Locale::Es, Locale::It, Locale::Fr]
            .into_iter()
            .map(|locale| {
                let n = Names {
                    locale,
                    names: &names,
                };
                Merchants::event(locale, &one).unwrap().plain(&n)
            })
            .collect();
        assert_eq!(
            said,
            [
                "1 merchant ship returns to sea.",
                "1 mercante vuelve al mar.",
                "1 mercantile torna in mare.",
                "1 navire marchand reprend la mer.",
            ]
        );
        let crew = serde_json::json!({"type": "recruited", "seat": 0, "crew": 1, "gold": 2});
        let n = Names {
            locale: Locale::Es,
            names: &names,
        };
        assert_eq!(
            Merchants::event(Locale::Es, &crew).unwrap().plain(&n),
            "Ada reclutó 1 tripulante por 2 de oro."
        );
    }
}
