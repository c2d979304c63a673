//! The content of Part II (`D-*` tables) as typed data, parsed once from `data.json` and checked.
//! Rows or tables flagged `p` are placeholders [P] of the spec: a corrected table replaces the
//! JSON without code changes.

use super::ids::{Dir, Loc, Nation, Skill};
use serde::Deserialize;
use std::sync::LazyLock;

#[derive(Debug, Clone, Deserialize)]
pub struct Data {
    pub game: String,
    pub version: String,
    pub provenance: String,
    pub start: Start,
    pub die: Die,
    pub prices: Prices,
    pub ships: Vec<ShipType>,
    pub nations: Vec<NationRow>,
    pub goods: Vec<Good>,
    pub cargo_per_good: CargoTemplate,
    pub demand_per_good: u8,
    pub zones: Vec<Zone>,
    pub borders: Borders,
    pub captains: Vec<Captain>,
    pub captains_p: bool,
    pub npcs: Vec<NpcCard>,
    pub npcs_p: bool,
    pub events: Vec<EventCard>,
    pub events_p: bool,
    pub modifications: Vec<Modification>,
    pub weapons: Vec<Weapon>,
    pub glory: Vec<GloryDesign>,
    pub glory_copies: u8,
    pub glory_p: bool,
    pub missions: Vec<Mission>,
    pub missions_p: bool,
    pub rumors: Vec<Rumor>,
    pub rumors_p: bool,
    pub solo: Vec<SoloLevel>,
}

/// D-START.
#[derive(Debug, Clone, Deserialize)]
pub struct Start {
    pub gold: u32,
    pub glory_cards: u8,
    pub actions: u8,
    pub glory_target: u8,
    pub stash_gold_per_point: u32,
    pub stash_max_points: u8,
    pub glory_hand_limit: u8,
    pub merchant_refill: u8,
    pub open_missions: u8,
    pub max_bounty: u8,
    /// MM-BUY-8 [C]: the cards one may hold in port is max(this, current Cargo).
    pub in_port_cargo: u8,
    pub p: bool,
}

/// D-DIE and D-LOC: the six faces of the custom die.
#[derive(Debug, Clone, Deserialize)]
pub struct Die {
    pub faces: Vec<Face>,
    pub p: bool,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub struct Face {
    pub success: bool,
    pub pips: u8,
    pub location: Loc,
}

/// D-YARD and D-PRICE.
#[derive(Debug, Clone, Deserialize)]
pub struct Prices {
    pub sell: u32,
    pub sell_demand: u32,
    /// Buy price per card by how many of that good are in the offer: 1, 2, 3 or more.
    pub buy_by_count: Vec<u32>,
    pub offer: u8,
    pub offer_same_port: u8,
    pub repair: u32,
    pub modification: u32,
    pub weapon: u32,
    pub weapon_resale: u32,
    pub recruit_per_crew: u32,
    pub rumor: u32,
    pub p: bool,
}

/// D-SHIP.
#[derive(Debug, Clone, Deserialize)]
pub struct ShipType {
    pub id: String,
    pub name: String,
    pub buy: u32,
    pub sell: u32,
    pub toughness: u8,
    pub cannons: u8,
    pub crew: u8,
    pub cargo: u8,
    pub maneuver: u8,
    pub start: bool,
    pub for_sale: bool,
    pub big: bool,
}

#[derive(Debug, Clone, Deserialize)]
pub struct NationRow {
    pub id: Nation,
    pub name: String,
    pub merchants: u8,
}

/// D-GOODS, with the D-CARGO resistance location of the good.
#[derive(Debug, Clone, Deserialize)]
pub struct Good {
    pub id: String,
    pub name: String,
    pub resistance: Loc,
    pub p: bool,
}

/// D-CARGO: every good has the same eight cards.
#[derive(Debug, Clone, Deserialize)]
pub struct CargoTemplate {
    pub plunder: Vec<u8>,
    pub resistance: Vec<bool>,
    pub p: bool,
}

/// D-ZONE.
#[derive(Debug, Clone, Deserialize)]
pub struct Zone {
    pub id: String,
    pub name: String,
    pub nation: Option<Nation>,
    pub port: bool,
    pub effect: String,
    pub p: bool,
    /// The zone effect as verbs (`verb` or `verb=value`), read by the rules (D-ZONE).
    #[serde(default)]
    pub rules: Vec<String>,
}

/// D-ADJ: each row `[from, dir, to]` is one border; the other side carries the opposite letter.
#[derive(Debug, Clone, Deserialize)]
pub struct Borders {
    pub p: bool,
    pub rows: Vec<(String, Dir, String)>,
}

/// D-CAPT. Skills in the order Seamanship, Scouting, Leadership, Influence.
#[derive(Debug, Clone, Deserialize)]
pub struct Captain {
    pub id: String,
    pub name: String,
    pub nation: Nation,
    pub home: String,
    pub skills: [u8; 4],
    pub ability: String,
    /// The ability as a verb (`verb` or `verb=value`), read by the rules.
    #[serde(default)]
    pub power: String,
}

/// D-NPC. Skills in the order Seamanship, Scouting, Leadership.
#[derive(Debug, Clone, Deserialize)]
pub struct NpcCard {
    pub id: String,
    pub name: String,
    pub pirate: bool,
    pub nation: Option<Nation>,
    pub ship: String,
    pub skills: [u8; 3],
    pub arrival: String,
}

/// D-EVT.
#[derive(Debug, Clone, Deserialize)]
pub struct EventCard {
    pub id: String,
    pub title: String,
    /// `Nav:<dir>` / `Pir:<dir>` movement icons (MM-NPC-5).
    pub icons: Vec<String>,
    pub effect: Effect,
}

/// The closed set of event effect verbs.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// An NPC arrives (MM-NPC-2), by NPC card ID.
    Npc(String),
    /// Two random nations go to war (MM-WAR-2); players of those nations gain this much gold.
    War(u32),
    Peace,
    /// Every player ship at sea in these zones tests Seamanship; no success is 1 hit.
    Storm(Vec<String>),
    FeverInPort,
    ScurvyAtSea,
    /// Replace the demand token in every port of these nations.
    Markets(Vec<Nation>),
    /// A "this round" or "each player's turn" effect, by name.
    Round(String),
    HuntersToward,
    PriceOnHeads,
    DrawAnother,
    NavyAgain,
    ShipyardFire,
}

/// D-MOD.
#[derive(Debug, Clone, Deserialize)]
pub struct Modification {
    pub id: String,
    pub name: String,
    pub location: Loc,
    pub tokens: u8,
    pub p: bool,
}

/// D-WPN.
#[derive(Debug, Clone, Deserialize)]
pub struct Weapon {
    pub id: String,
    pub name: String,
    pub tokens: u8,
    pub p: bool,
    /// `volley` (fired before round 1, MM-WPN-2), or the location every hit of the round
    /// takes when declared with Shoot (`masts`, `crew`: MM-WPN-3/4).
    pub effect: String,
}

/// D-GLORY: one design, dealt `glory_copies` times.
#[derive(Debug, Clone, Deserialize)]
pub struct GloryDesign {
    pub id: String,
    pub name: String,
    /// A specialist's hiring cost; none for a tactic.
    pub hire: Option<u32>,
    pub window: String,
    /// The card's effect verb, read by the rules.
    pub effect: String,
}

impl GloryDesign {
    /// Whether the card may be played in timing window `tw` (D-WINDOW).
    pub fn in_window(&self, tw: u8) -> bool {
        self.hire.is_none()
            && self
                .window
                .split(',')
                .any(|w| w.trim() == format!("TW{tw}"))
    }
}

/// D-MIS.
#[derive(Debug, Clone, Deserialize)]
pub struct Mission {
    pub id: String,
    pub zone: String,
    pub skill: Skill,
    pub need: u8,
    pub gold: u32,
    pub objective: Objective,
}

/// A mission's objective (MM-MIS-4): a verb and its arguments.
#[derive(Debug, Clone, Deserialize)]
pub struct Objective {
    pub kind: String,
    /// The port (or sea zone) where it is completed.
    #[serde(default)]
    pub at: Option<String>,
    #[serde(default)]
    pub n: u8,
    #[serde(default)]
    pub skill: Option<Skill>,
    #[serde(default)]
    pub nation: Option<Nation>,
    #[serde(default)]
    pub good: Option<String>,
}

/// The objective verbs the rules know.
pub const OBJECTIVES: &[&str] = &[
    "gift",
    "deliver_same",
    "defeat_pirate_npc",
    "pay",
    "scout_test",
    "raid",
    "deliver_any",
    "win_combat",
    "clean_entry",
    "full_crew",
    "deliver_good",
];

/// The zone verbs the rules know (D-ZONE).
pub const ZONE_RULES: &[&str] = &[
    "raid_extra_card",
    "no_lockout",
    "hire_cost",
    "smuggle_sell",
    "repair_cost",
    "scout_minus",
    "fort",
    "buy_extra",
    "weapon_cost",
    "mod_cost",
    "storm_extra",
    "free_move_out",
    "always_demand",
    "twice_discount",
    "rumor_cost",
    "raid_gold",
];

/// The captain powers the rules know (D-CAPT).
pub const POWERS: &[&str] = &[
    "influence_in",
    "scout_adjacent_merchant",
    "reroll_contest_die",
    "mission_die",
    "repair_discount",
    "long_guns_round2",
    "raid_double_first",
    "recruit_in",
    "sell_demand_bonus",
    "crew_combat_die",
    "flee_on_tie",
    "buy_extra",
    "maneuver_bonus",
    "rumor_free",
    "scout_npc_die",
    "big_sale_glory_card",
];

/// The glory-card effects the rules know (D-GLORY).
pub const GLORY_EFFECTS: &[&str] = &[
    "flee_die",
    "gunner",
    "carpenter",
    "crew_die",
    "scout_die",
    "influence_die",
    "extra_move",
    "cancel_scout",
    "broadside",
    "smuggle",
    "reroll",
    "court",
    "windfall",
    "daring_escape",
];

/// The non-gold rumor rewards the rules know (D-RUM).
pub const RUMOR_EXTRAS: &[&str] = &[
    "glory_pick",
    "free_mod",
    "cargo",
    "crew_full",
    "pardon",
    "weapon",
];

/// `verb` or `verb=value` in a list of verbs: `Some(value)` (empty without `=`) when present.
pub fn verb<'a>(list: &'a [String], name: &str) -> Option<&'a str> {
    list.iter().find_map(|v| match v.split_once('=') {
        Some((k, val)) if k == name => Some(val),
        None if v == name => Some(""),
        _ => None,
    })
}

/// The number after `verb=` (0 when absent or not a number).
pub fn verb_number(list: &[String], name: &str) -> Option<u32> {
    verb(list, name).map(|v| v.parse().unwrap_or(0))
}

/// D-RUM.
#[derive(Debug, Clone, Deserialize)]
pub struct Rumor {
    pub id: String,
    pub zone: String,
    pub port: bool,
    pub skill: Skill,
    pub need: u8,
    pub gold: u32,
    /// A reward besides gold and the glory point (D-RUM).
    #[serde(default)]
    pub extra: Option<String>,
}

/// D-SOLO.
#[derive(Debug, Clone, Deserialize)]
pub struct SoloLevel {
    pub level: String,
    pub events: u8,
    pub naval: u8,
    pub pirate_sloop: bool,
    pub pirate_frigate: bool,
    pub wars: u8,
    pub captains_removed: u8,
    pub p: bool,
}

/// One cargo card of the 64, derived from its good and its number within the good.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CargoCard {
    pub good: u8,
    pub plunder: u8,
    pub resistance: Option<Loc>,
}

impl Data {
    /// The cargo deck in card-number order: card `n` is good `n / 8`, copy `n % 8`.
    pub fn cargo_card(&self, card: u8) -> CargoCard {
        let per = self.cargo_per_good.plunder.len().max(1);
        let good = usize::from(card) / per;
        let copy = usize::from(card) % per;
        CargoCard {
            good: u8::try_from(good).unwrap_or(0),
            plunder: self.cargo_per_good.plunder.get(copy).copied().unwrap_or(0),
            resistance: match self.cargo_per_good.resistance.get(copy) {
                Some(true) => self.goods.get(good).map(|g| g.resistance),
                _ => None,
            },
        }
    }

    pub fn cargo_cards(&self) -> u8 {
        u8::try_from(self.goods.len() * self.cargo_per_good.plunder.len()).unwrap_or(0)
    }

    pub fn good_index(&self, id: &str) -> Option<u8> {
        self.goods
            .iter()
            .position(|g| g.id == id)
            .and_then(|i| u8::try_from(i).ok())
    }

    /// The verbs of a zone's effect (D-ZONE).
    pub fn zone_rules(&self, zone: u8) -> &[String] {
        self.zones
            .get(usize::from(zone))
            .map_or(&[], |z| z.rules.as_slice())
    }

    /// A glory card's design (cards are dealt `glory_copies` times).
    pub fn glory_card(&self, card: u8) -> Option<&GloryDesign> {
        self.glory
            .get(usize::from(card) / usize::from(self.glory_copies.max(1)))
    }

    /// The zone whose D-ZONE code is `id`, in any case (`move sju` as `move SJU`).
    pub fn zone_index(&self, id: &str) -> Option<u8> {
        self.zones
            .iter()
            .position(|z| z.id.eq_ignore_ascii_case(id))
            .and_then(|i| u8::try_from(i).ok())
    }

    /// The zone across the border of `zone` labelled `dir` (D-ADJ), if any.
    pub fn across(&self, zone: u8, dir: Dir) -> Option<u8> {
        let id = &self.zones.get(usize::from(zone))?.id;
        self.borders.rows.iter().find_map(|(a, d, b)| {
            if a == id && *d == dir {
                self.zone_index(b)
            } else if b == id && d.opposite() == dir {
                self.zone_index(a)
            } else {
                None
            }
        })
    }

    /// Every zone adjacent to `zone`, in zone order.
    pub fn neighbours(&self, zone: u8) -> Vec<u8> {
        let mut out: Vec<u8> = Dir::ALL
            .iter()
            .filter_map(|d| self.across(zone, *d))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    pub fn ship(&self, ship: super::ids::Ship) -> &ShipType {
        // The checked table has one row per ship kind, in `Ship::ALL` order.
        self.ships.get(ship as usize).unwrap_or(&FALLBACK_SHIP)
    }

    /// Load-time validation (Part II: "Load-time validation should check").
    pub fn check(&self) -> Result<(), String> {
        let err = |m: String| Err(m);
        if self.die.faces.len() != 6 {
            return err("die: six faces".into());
        }
        let names: Vec<&str> = self.ships.iter().map(|s| s.id.as_str()).collect();
        if names != ["sloop", "flute", "frigate", "galleon", "man_o_war"] {
            return err(format!(
                "ships: sloop, flute, frigate, galleon, man_o_war, not {names:?}"
            ));
        }
        if self.nations.iter().map(|n| n.id).collect::<Vec<_>>() != Nation::ALL {
            return err("nations: ES, EN, FR, NL in that order".into());
        }
        let merchants: u32 = self.nations.iter().map(|n| u32::from(n.merchants)).sum();
        if merchants != 17 {
            return err(format!("D-COMP: 17 merchant tokens, not {merchants}"));
        }
        if self.cargo_cards() != 64
            || self.cargo_per_good.plunder.len() != self.cargo_per_good.resistance.len()
        {
            return err("D-COMP: 64 cargo cards (8 goods x 8)".into());
        }
        if usize::from(self.demand_per_good) * self.goods.len() != 24 {
            return err("D-COMP: 24 demand tokens".into());
        }
        let ports = self.zones.iter().filter(|z| z.port).count();
        if self.zones.len() != 17 || ports != 16 {
            return err("D-ZONE: 17 sea zones, 16 of them with a port".into());
        }
        for z in &self.zones {
            if z.port != z.nation.is_some() {
                return err(format!(
                    "D-ZONE {}: a port has a nation, open sea none",
                    z.id
                ));
            }
        }
        for (a, d, b) in &self.borders.rows {
            let (Some(ai), Some(bi)) = (self.zone_index(a), self.zone_index(b)) else {
                return err(format!("D-ADJ: unknown zone in {a} {d:?} {b}"));
            };
            // Each letter is used once per zone, so the border is the same seen from both sides.
            if self.across(ai, *d) != Some(bi) || self.across(bi, d.opposite()) != Some(ai) {
                return err(format!("D-ADJ: {a} {d:?} {b} is not one border"));
            }
        }
        let mut reached = vec![0u8];
        let mut i = 0;
        while let Some(&z) = reached.get(i) {
            for n in self.neighbours(z) {
                if !reached.contains(&n) {
                    reached.push(n);
                }
            }
            i += 1;
        }
        if reached.len() != self.zones.len() {
            return err("D-ADJ: the sea is not connected".into());
        }
        if self.captains.len() != 16 {
            return err("D-CAPT: 16 captains".into());
        }
        for c in &self.captains {
            if !self.zones.iter().any(|z| z.id == c.home && z.port) {
                return err(format!(
                    "D-CAPT {}: home port {} does not exist",
                    c.id, c.home
                ));
            }
        }
        for n in &self.npcs {
            if self.zone_index(&n.arrival).is_none() || !names.contains(&n.ship.as_str()) {
                return err(format!("D-NPC {}: unknown zone or ship", n.id));
            }
            if n.pirate == n.nation.is_some() {
                return err(format!(
                    "D-NPC {}: a naval NPC has a nation, a pirate none",
                    n.id
                ));
            }
        }
        if self.events.len() != 34 {
            return err(format!("D-EVT: 34 event cards, not {}", self.events.len()));
        }
        for e in &self.events {
            for icon in &e.icons {
                if parse_icon(icon).is_none() {
                    return err(format!("D-EVT {}: icon {icon}", e.id));
                }
            }
            let zones_ok = match &e.effect {
                Effect::Npc(id) => self.npcs.iter().any(|n| &n.id == id),
                Effect::Storm(zones) => zones.iter().all(|z| self.zone_index(z).is_some()),
                _ => true,
            };
            if !zones_ok {
                return err(format!("D-EVT {}: unknown NPC or zone", e.id));
            }
        }
        let mods: u32 = self.modifications.iter().map(|m| u32::from(m.tokens)).sum();
        if mods != 16 {
            return err("D-COMP: 16 modification tokens".into());
        }
        let weapons: u32 = self.weapons.iter().map(|w| u32::from(w.tokens)).sum();
        if weapons != 12 || self.weapons.len() != 3 {
            return err("D-COMP: 12 special weapons of 3 kinds".into());
        }
        if self
            .weapons
            .iter()
            .any(|w| !matches!(w.effect.as_str(), "volley" | "masts" | "crew"))
        {
            return err("D-WPN: effects are volley, masts or crew".into());
        }
        if self.glory.len() * usize::from(self.glory_copies) != 70 {
            return err("D-COMP: 70 glory cards".into());
        }
        for (what, zone) in self
            .missions
            .iter()
            .map(|m| (&m.id, &m.zone))
            .chain(self.rumors.iter().map(|r| (&r.id, &r.zone)))
        {
            if self.zone_index(zone).is_none() {
                return err(format!("{what}: unknown zone {zone}"));
            }
        }
        let known = |v: &str, list: &[&str]| list.contains(&v.split('=').next().unwrap_or(""));
        for z in &self.zones {
            if let Some(bad) = z.rules.iter().find(|r| !known(r, ZONE_RULES)) {
                return err(format!("D-ZONE {}: unknown rule {bad}", z.id));
            }
        }
        for c in &self.captains {
            if !c.power.is_empty() && !known(&c.power, POWERS) {
                return err(format!("D-CAPT {}: unknown power {}", c.id, c.power));
            }
        }
        for g in &self.glory {
            if !known(&g.effect, GLORY_EFFECTS) {
                return err(format!("D-GLORY {}: unknown effect {}", g.id, g.effect));
            }
        }
        for m in &self.missions {
            let at_ok = m
                .objective
                .at
                .as_ref()
                .is_none_or(|z| self.zone_index(z).is_some());
            let good_ok = m
                .objective
                .good
                .as_ref()
                .is_none_or(|g| self.good_index(g).is_some());
            if !known(&m.objective.kind, OBJECTIVES) || !at_ok || !good_ok {
                return err(format!("D-MIS {}: unknown objective", m.id));
            }
        }
        for r in &self.rumors {
            if r.extra.as_ref().is_some_and(|x| !known(x, RUMOR_EXTRAS)) {
                return err(format!("D-RUM {}: unknown reward", r.id));
            }
        }
        if self.solo.len() != 4 || self.prices.buy_by_count.len() != 3 {
            return err("D-SOLO: four levels; D-PRICE: three buy prices".into());
        }
        Ok(())
    }
}

/// `Nav:E` → (naval?, direction).
pub fn parse_icon(icon: &str) -> Option<(bool, Dir)> {
    let (who, dir) = icon.split_once(':')?;
    let naval = match who {
        "Nav" => true,
        "Pir" => false,
        _ => return None,
    };
    Some((naval, dir.parse().ok()?))
}

static FALLBACK_SHIP: ShipType = ShipType {
    id: String::new(),
    name: String::new(),
    buy: 0,
    sell: 0,
    toughness: 1,
    cannons: 0,
    crew: 0,
    cargo: 0,
    maneuver: 0,
    start: false,
    for_sale: false,
    big: false,
};

const RAW: &str = include_str!("data.json");

static PARSED: LazyLock<Result<Data, String>> = LazyLock::new(|| {
    let data: Data = serde_json::from_str(RAW).map_err(|e| format!("data.json: {e}"))?;
    data.check()?;
    Ok(data)
});

/// The parsed data, or why it cannot be used (setup refuses to start a game then).
pub fn load() -> Result<&'static Data, String> {
    PARSED.as_ref().map_err(Clone::clone)
}
