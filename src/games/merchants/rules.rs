//! The rules flow: setup, the round (upkeep, event, NPC moves, turns), the turn's actions and
//! the port activities, each refusal citing its `MM-...` rule. An action is applied to a copy
//! of the state which replaces the original only when the action is accepted, so a refusal
//! changes nothing.

use super::data::{Data, Effect, parse_icon};
use super::events::Event;
use super::ids::{CargoId, GloryId, Loc, Nation, Ship, Skill, ZoneId};
use super::state::{Activity, Frame, ModToken, Npc, Player, State, Target};
use super::{Action, MmOutcome, Rules};
use crate::engine::{GameRng, Illegal, Logged, OptionsError, Seat, SeatSet};

type Ev = Vec<Logged<Event>>;
type R<T> = Result<T, Illegal>;

pub(super) fn no(rule: &'static str, detail: impl Into<String>) -> Illegal {
    Illegal::new(rule, detail)
}

fn only(seat: Seat, e: Event) -> Logged<Event> {
    Logged::only(SeatSet::only(seat), e)
}

// ---------------------------------------------------------------------------------------------
// Setup (MM-SETUP)
// ---------------------------------------------------------------------------------------------

pub fn setup(
    rules: &Rules,
    seats: u8,
    rng: &mut GameRng,
    ev: &mut Ev,
) -> Result<State, OptionsError> {
    let d = super::data::load().map_err(OptionsError)?;
    if !(1..=4).contains(&seats) {
        return Err(OptionsError(format!("players: 1 to 4, not {seats}")));
    }
    let zones = d.zones.len();
    let n = |len: usize| {
        (0..len)
            .filter_map(|i| u8::try_from(i).ok())
            .collect::<Vec<u8>>()
    };
    // MM-SETUP-1: shuffle every deck.
    let mut event_deck = n(d.events.len());
    rng.shuffle(&mut event_deck);
    let mut cargo_deck = n(usize::from(d.cargo_cards()));
    rng.shuffle(&mut cargo_deck);
    let mut glory_deck = n(d.glory.len() * usize::from(d.glory_copies));
    rng.shuffle(&mut glory_deck);
    let mut rumor_deck = n(d.rumors.len());
    rng.shuffle(&mut rumor_deck);
    let mut mission_deck = n(d.missions.len());
    rng.shuffle(&mut mission_deck);
    let mut captain_deck = n(d.captains.len());
    rng.shuffle(&mut captain_deck);
    // MM-SETUP-2: one demand token per port, the rest a hidden pool.
    let mut demand_pool: Vec<u8> = n(d.goods.len())
        .into_iter()
        .flat_map(|g| std::iter::repeat_n(g, usize::from(d.demand_per_good)))
        .collect();
    rng.shuffle(&mut demand_pool);
    let mut demand = vec![None; zones];
    for (z, row) in demand.iter_mut().zip(&d.zones) {
        if row.port {
            *z = demand_pool.pop();
        }
    }
    // MM-SETUP-3: one modification token face-down per port.
    let mut mods: Vec<u8> = n(d.modifications.len())
        .into_iter()
        .flat_map(|m| {
            let count = d.modifications.get(usize::from(m)).map_or(0, |r| r.tokens);
            std::iter::repeat_n(m, usize::from(count))
        })
        .collect();
    rng.shuffle(&mut mods);
    let mut mod_tokens = vec![None; zones];
    for (z, row) in mod_tokens.iter_mut().zip(&d.zones) {
        if row.port {
            *z = mods.pop().map(|kind| ModToken {
                kind,
                face_up: false,
            });
        }
    }
    // MM-SETUP-4: one merchant token face-down per sea zone.
    let mut merchant_tokens: Vec<Nation> = d
        .nations
        .iter()
        .flat_map(|r| std::iter::repeat_n(r.id, usize::from(r.merchants)))
        .collect();
    rng.shuffle(&mut merchant_tokens);
    let merchants: Vec<Option<Nation>> = (0..zones).map(|_| merchant_tokens.pop()).collect();

    let solo = (seats == 1).then(|| rules.solo_level.clone());
    let mut st = State {
        seats,
        solo: solo.clone(),
        glory_target: rules.glory_target,
        players: Vec::new(),
        npcs: Vec::new(),
        event_deck,
        event_discard: Vec::new(),
        event_aside: Vec::new(),
        cargo_deck,
        cargo_discard: Vec::new(),
        glory_deck,
        glory_discard: Vec::new(),
        rumor_deck,
        rumor_discard: Vec::new(),
        mission_deck,
        mission_discard: Vec::new(),
        missions_open: Vec::new(),
        captain_deck,
        captain_discard: Vec::new(),
        captains_removed: Vec::new(),
        demand,
        demand_pool,
        mod_tokens,
        mod_supply: mods,
        merchants,
        merchant_track: merchant_tokens,
        weapon_supply: d.weapons.iter().map(|w| w.tokens).collect(),
        war: None,
        round_effects: Vec::new(),
        first: Seat(0),
        round: 0,
        turn_number: 0,
        turns_this_round: seats,
        stack: Vec::new(),
        ending: false,
        outcome: None,
        orders: vec![Vec::new(); usize::from(seats)],
        scripts: vec![Vec::new(); usize::from(seats)],
        hunt: None,
    };
    // MM-SETUP-5: two open missions.
    for _ in 0..d.start.open_missions {
        open_mission(d, &mut st, ev);
    }
    // MM-SOLO-2/3: the solo level's deck, NPCs and removed captains.
    if let Some(level) = &solo {
        solo_setup(d, &mut st, level, rng, ev).map_err(OptionsError)?;
    }
    // MM-SETUP-7..13 for every seat; ships wait for the sealed choice.
    for s in 0..seats {
        let captain = st.captain_deck.pop().unwrap_or(0);
        st.players.push(new_player(d, captain));
        ev.push(only(
            Seat(s),
            Event::CaptainDealt {
                seat: Seat(s),
                captain: captain_name(d, captain),
            },
        ));
        draw_glory_card(d, &mut st, Seat(s), rng, ev);
    }
    st.stack.push(Frame::ShipChoice {
        seats: SeatSet::first(seats),
    });
    Ok(st)
}

fn new_player(d: &Data, captain: u8) -> Player {
    let home = d
        .captains
        .get(usize::from(captain))
        .and_then(|c| d.zone_index(&c.home))
        .unwrap_or(0);
    Player {
        captain,
        sealed: None,
        revealed: false,
        ship: None,
        hits: [0; 5],
        mods: Vec::new(),
        weapons: Vec::new(),
        gold: d.start.gold,
        stash: 0,
        cargo: Vec::new(),
        glory_hand: Vec::new(),
        specialists: Vec::new(),
        rumor: None,
        mission: None,
        bounty: [0; 4],
        glory: 0,
        big_ship_glory: false,
        zone: home,
        in_port: true,
        last_buy: None,
        scouted: Vec::new(),
        may_redraw: false,
        fought: false,
        placed: Vec::new(),
    }
}

fn captain_name(d: &Data, c: u8) -> String {
    d.captains
        .get(usize::from(c))
        .map_or_else(String::new, |r| r.id.clone())
}

fn solo_setup(
    d: &Data,
    st: &mut State,
    level: &str,
    rng: &mut GameRng,
    ev: &mut Ev,
) -> Result<(), String> {
    let row = d
        .solo
        .iter()
        .find(|r| r.level == level)
        .ok_or_else(|| format!("solo_level: {level:?} is not a D-SOLO level"))?;
    // Reveal from the top until the required NPC cards are found; resolve them.
    let mut naval = row.naval;
    let (mut sloop, mut frigate) = (row.pirate_sloop, row.pirate_frigate);
    let mut kept = Vec::new();
    while let Some(card) = st.event_deck.pop() {
        let npc = match d.events.get(usize::from(card)).map(|e| &e.effect) {
            Some(Effect::Npc(id)) => d.npcs.iter().position(|n| &n.id == id),
            _ => None,
        };
        let wanted = npc.and_then(|i| d.npcs.get(i)).is_some_and(|n| {
            if !n.pirate {
                naval > 0 && !st.npcs.iter().any(|o| npc_nation(d, o) == n.nation)
            } else if n.ship == "sloop" {
                sloop
            } else {
                frigate
            }
        });
        match (wanted, npc) {
            (true, Some(i)) => {
                let n = d.npcs.get(i).map(|n| (n.pirate, n.ship == "sloop"));
                match n {
                    Some((false, _)) => naval -= 1,
                    Some((true, true)) => sloop = false,
                    _ => frigate = false,
                }
                npc_arrives(d, st, u8::try_from(i).unwrap_or(0), ev);
                st.event_discard.push(card);
            }
            _ => kept.push(card),
        }
        if naval == 0 && !sloop && !frigate {
            break;
        }
    }
    st.event_deck.extend(kept);
    rng.shuffle(&mut st.event_deck);
    for _ in 0..row.wars {
        start_war(d, st, rng, 0, ev);
    }
    let keep = usize::from(row.events).min(st.event_deck.len());
    let aside = st.event_deck.len() - keep;
    st.event_aside = st.event_deck.drain(..aside).collect();
    for _ in 0..row.captains_removed {
        if let Some(c) = st.captain_deck.pop() {
            st.captains_removed.push(c);
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Values derived from data
// ---------------------------------------------------------------------------------------------

pub(super) fn loc_index(l: Loc) -> usize {
    match l {
        Loc::Hull => 0,
        Loc::Masts => 1,
        Loc::Cannons => 2,
        Loc::Crew => 3,
        Loc::Cargo | Loc::Maneuver => 4,
    }
}

/// The full value of a location for a ship with these modifications (MM-SETUP-12, MM-YARD-11).
pub fn max_of(d: &Data, ship: Ship, mods: &[u8], l: Loc) -> u8 {
    let t = d.ship(ship);
    let base = match l {
        Loc::Hull | Loc::Masts => t.toughness,
        Loc::Cannons => t.cannons,
        Loc::Crew => t.crew,
        Loc::Cargo => t.cargo,
        Loc::Maneuver => t.maneuver,
    };
    let bonus = mods
        .iter()
        .filter(|m| {
            d.modifications
                .get(usize::from(**m))
                .is_some_and(|r| r.location == l)
        })
        .count();
    base.saturating_add(u8::try_from(bonus).unwrap_or(0))
}

pub fn max_loc(d: &Data, p: &Player, l: Loc) -> u8 {
    p.ship.map_or(0, |s| max_of(d, s, &p.mods, l))
}

pub fn cur(p: &Player, l: Loc) -> u8 {
    p.hits.get(loc_index(l)).copied().unwrap_or(0)
}

pub(super) fn set_cur(p: &mut Player, l: Loc, v: u8) {
    if let Some(x) = p.hits.get_mut(loc_index(l)) {
        *x = v;
    }
}

pub(super) fn skill(d: &Data, p: &Player, s: Skill) -> u8 {
    let i = match s {
        Skill::Seamanship => 0,
        Skill::Scouting => 1,
        Skill::Leadership => 2,
        Skill::Influence => 3,
    };
    d.captains
        .get(usize::from(p.captain))
        .and_then(|c| c.skills.get(i))
        .copied()
        .unwrap_or(0)
}

/// MM-BUY-8 [C]: cards one may hold in port.
pub fn port_capacity(d: &Data, p: &Player) -> usize {
    usize::from(d.start.in_port_cargo.max(cur(p, Loc::Cargo)))
}

pub(super) fn zone_nation(d: &Data, z: ZoneId) -> Option<Nation> {
    d.zones.get(usize::from(z)).and_then(|r| r.nation)
}

fn npc_nation(d: &Data, n: &Npc) -> Option<Nation> {
    d.npcs.get(usize::from(n.card)).and_then(|r| r.nation)
}

fn at_war_with(st: &State, a: Nation, b: Nation) -> bool {
    st.war
        .is_some_and(|(x, y)| (x == a && y == b) || (x == b && y == a))
}

pub(super) fn captain_nation(d: &Data, p: &Player) -> Option<Nation> {
    d.captains.get(usize::from(p.captain)).map(|c| c.nation)
}

/// The captain's ability (D-CAPT): `Some(value)` when it is `name` (`""` without a value).
pub(super) fn has_power<'a>(d: &'a Data, p: &Player, name: &str) -> Option<&'a str> {
    let power = &d.captains.get(usize::from(p.captain))?.power;
    match power.split_once('=') {
        Some((k, v)) if k == name => Some(v),
        None if power == name => Some(""),
        _ => None,
    }
}

/// The copy of `card`'s design that the legal lists name (the first in hand): copies of a
/// design are one choice, and any copy held is accepted for it.
pub(super) fn listed_copy(
    d: &Data,
    p: &Player,
    card: super::ids::GloryId,
) -> Option<super::ids::GloryId> {
    if !p.glory_hand.contains(&card) {
        return None;
    }
    let id = &d.glory_card(card)?.id;
    p.glory_hand
        .iter()
        .copied()
        .find(|c| d.glory_card(*c).is_some_and(|g| &g.id == id))
}

/// An employed specialist with this effect (D-GLORY, MM-GCARD-4).
pub(super) fn has_specialist(d: &Data, p: &Player, effect: &str) -> bool {
    p.specialists
        .iter()
        .any(|c| d.glory_card(*c).is_some_and(|g| g.effect == effect))
}

/// D-ZONE SDO: scouting in a zone with `scout_minus` rolls fewer dice (at least 1).
pub(super) fn zone_scouting(d: &Data, zone: ZoneId, dice: u8) -> u8 {
    match super::data::verb_number(d.zone_rules(zone), "scout_minus") {
        Some(n) => dice
            .saturating_sub(u8::try_from(n).unwrap_or(u8::MAX))
            .max(1),
        None => dice,
    }
}

/// The Scouting dice of a player against `target` (MM-SCOUT-1): GLY-05, CAP-15, D-ZONE.
pub(super) fn scout_dice(d: &Data, _st: &State, p: &Player, target: Target) -> u8 {
    let mut dice = skill(d, p, Skill::Scouting) + u8::from(has_specialist(d, p, "scout_die"));
    if matches!(target, Target::Npc(_)) && has_power(d, p, "scout_npc_die").is_some() {
        dice += 1;
    }
    zone_scouting(d, p.zone, dice)
}

/// Influence dice (MM-DICE-2): GLY-06 and CAP-01 in its nation's ports.
fn influence_dice(d: &Data, p: &Player) -> u8 {
    let mut dice = skill(d, p, Skill::Influence) + u8::from(has_specialist(d, p, "influence_die"));
    if let Some(n) = has_power(d, p, "influence_in")
        && p.in_port
        && zone_nation(d, p.zone).is_some_and(|z| z.to_string() == n)
    {
        dice += 1;
    }
    dice
}

/// A skill test's dice with the bonuses that apply to that skill.
fn test_dice(d: &Data, p: &Player, s: Skill) -> u8 {
    match s {
        Skill::Influence => influence_dice(d, p),
        Skill::Scouting => zone_scouting(
            d,
            p.zone,
            skill(d, p, s) + u8::from(has_specialist(d, p, "scout_die")),
        ),
        _ => skill(d, p, s),
    }
}

/// MM-PORT-4 and D-ZONE NAS/SEU: a bounty of the port's nation shuts its Port action.
pub(super) fn locked_out(d: &Data, p: &Player) -> bool {
    super::data::verb(d.zone_rules(p.zone), "no_lockout").is_none()
        && zone_nation(d, p.zone).is_some_and(|n| p.bounty.get(n.index()).is_some_and(|b| *b > 0))
}

fn home_zone(d: &Data, p: &Player) -> Option<ZoneId> {
    d.captains
        .get(usize::from(p.captain))
        .and_then(|c| d.zone_index(&c.home))
}

/// MM-STASH-2: the gold a captain may spend now: on board, and in the home port the stash too.
pub fn purse(d: &Data, p: &Player) -> u32 {
    if p.in_port && home_zone(d, p) == Some(p.zone) {
        p.gold.saturating_add(p.stash)
    } else {
        p.gold
    }
}

/// MM-STASH-2: pays `cost` (at most [`purse`]) from the gold on board first, the stash paying
/// only the rest. A fixed order rather than a choice in every priced action: the stash is safe
/// from plunder (MM-STASH-4) and worth secret glory (MM-STASH-3), so keeping it is nearly
/// always the captain's interest, and one who wants the stash to pay first moves that gold on
/// board with the Stash activity beforehand (MM-STASH-1), which comes to the same. The part
/// the stash paid is told to the owner only (III.4); the price is public as before, and gold
/// on board is public, so what the stash paid is inferable, as on the tabletop, but never what
/// it still holds.
fn spend(d: &Data, st: &mut State, seat: Seat, cost: u32, ev: &mut Ev) -> R<()> {
    let p = player_mut(st, seat)?;
    if cost > purse(d, p) {
        return Err(no(
            "MM-STASH-2",
            format!("{cost} gold is more than you have."),
        ));
    }
    let from_stash = cost.saturating_sub(p.gold);
    p.gold -= cost - from_stash;
    p.stash -= from_stash;
    if from_stash > 0 {
        let stash = p.stash;
        ev.push(only(
            seat,
            Event::PaidFromStash {
                seat,
                gold: from_stash,
                stash,
            },
        ));
    }
    Ok(())
}

pub fn total_glory(d: &Data, st: &State, p: &Player) -> u8 {
    p.glory.saturating_add(st.stash_points(
        p,
        d.start.stash_gold_per_point,
        d.start.stash_max_points,
    ))
}

// ---------------------------------------------------------------------------------------------
// Dice (MM-DICE), cards and glory
// ---------------------------------------------------------------------------------------------

/// Rolls `dice` custom dice (MM-DICE-1/2), logs the roll publicly with its purpose.
pub(super) fn roll(
    d: &Data,
    rng: &mut GameRng,
    dice: u8,
    seat: Option<Seat>,
    purpose: &str,
    ev: &mut Ev,
) -> u8 {
    let faces: Vec<u8> = (0..dice).map(|_| rng.die(6)).collect();
    let successes = faces.iter().filter(|f| is_success(d, **f)).count();
    let successes = u8::try_from(successes).unwrap_or(u8::MAX);
    ev.push(Logged::public(Event::Rolled {
        seat,
        purpose: purpose.into(),
        faces,
        successes,
    }));
    successes
}

pub(super) fn is_success(d: &Data, face: u8) -> bool {
    d.die
        .faces
        .get(usize::from(face.saturating_sub(1)))
        .is_some_and(|f| f.success)
}

pub(super) fn face_loc(d: &Data, face: u8) -> Loc {
    d.die
        .faces
        .get(usize::from(face.saturating_sub(1)))
        .map_or(Loc::Hull, |f| f.location)
}

/// MM-BUY-7: draw a cargo card, reshuffling the discard when the deck is empty.
pub(super) fn draw_cargo(st: &mut State, rng: &mut GameRng) -> Option<CargoId> {
    if st.cargo_deck.is_empty() {
        st.cargo_deck = std::mem::take(&mut st.cargo_discard);
        rng.shuffle(&mut st.cargo_deck);
    }
    st.cargo_deck.pop()
}

/// MM-GCARD-1/6: draw one glory card. Over the hand limit the owner then owes a discard of
/// its choice (MM-GCARD-2, [`over_limit`]).
pub(super) fn draw_glory_card(
    _d: &Data,
    st: &mut State,
    seat: Seat,
    rng: &mut GameRng,
    ev: &mut Ev,
) {
    if st.glory_deck.is_empty() {
        st.glory_deck = std::mem::take(&mut st.glory_discard);
        rng.shuffle(&mut st.glory_deck);
    }
    let Some(card) = st.glory_deck.pop() else {
        return;
    };
    let Some(p) = st.players.get_mut(seat.index()) else {
        return;
    };
    p.glory_hand.push(card);
    ev.push(Logged::public(Event::GloryDrawn { seat }));
    ev.push(only(seat, Event::GloryCard { seat, card }));
}

/// MM-GCARD-2: `seat` holds more glory cards than the hand limit and owes a discard. The
/// debt is a side request, not a frame: the seat is pending (with only `discard glory`
/// listed) until it is back at the limit, and answers before any other decision of its own,
/// but it never blocks the turn under way when that is someone else's (as III.3.9 for a
/// death). A frame pushed where the card is drawn would sit in the middle of the combat,
/// plunder or raid that drew it, whose code expects its own frame on top; and the hand count
/// is public, so being asked reveals nothing.
pub fn over_limit(d: &Data, st: &State, seat: Seat) -> bool {
    st.outcome.is_none()
        && st
            .player(seat)
            .is_some_and(|p| p.glory_hand.len() > usize::from(d.start.glory_hand_limit))
}

/// MM-GCARD-2: `card` leaves the over-full hand face-up (public from now on).
fn discard_glory(d: &Data, st: &mut State, seat: Seat, card: GloryId, ev: &mut Ev) -> R<()> {
    if !over_limit(d, st, seat) {
        return Err(no(
            "MM-GCARD-2",
            format!(
                "Glory cards are discarded only from a hand over the limit of {}.",
                d.start.glory_hand_limit
            ),
        ));
    }
    let p = player_mut(st, seat)?;
    if !p.glory_hand.contains(&card) {
        return Err(no(
            "MM-GCARD-2",
            format!("Glory card {card} is not in your hand."),
        ));
    }
    p.glory_hand.retain(|c| *c != card);
    st.glory_discard.push(card);
    ev.push(Logged::public(Event::GloryDiscarded { seat, card }));
    Ok(())
}

/// MM-GLORY-1 / MM-GCARD-1: track points, one glory card each; MM-END-1 announced.
pub(super) fn gain_glory(
    d: &Data,
    st: &mut State,
    seat: Seat,
    rule: &str,
    rng: &mut GameRng,
    ev: &mut Ev,
) {
    let Some(p) = st.players.get_mut(seat.index()) else {
        return;
    };
    p.glory = p.glory.saturating_add(1);
    ev.push(Logged::public(Event::Glory {
        seat,
        points: 1,
        rule: rule.into(),
    }));
    draw_glory_card(d, st, seat, rng, ev);
    announce_target(d, st, seat, ev);
}

fn announce_target(d: &Data, st: &mut State, seat: Seat, ev: &mut Ev) {
    let reached = st
        .player(seat)
        .is_some_and(|p| total_glory(d, st, p) >= st.glory_target);
    if reached && !st.ending {
        st.ending = true;
        ev.push(Logged::public(Event::TargetReached { seat }));
    }
}

/// MM-BNTY-2/3: engaging a non-pirate of `nation` (raiding its merchant, attacking its naval
/// NPC or one of its captains) gives a bounty of that nation, except when the engaging
/// captain's nation is at war with it.
pub(super) fn engage_bounty(d: &Data, st: &mut State, seat: Seat, nation: Nation, ev: &mut Ev) {
    let own = st
        .players
        .get(seat.index())
        .and_then(|p| captain_nation(d, p));
    // MM-BNTY-3: no bounty from a nation at war with your captain's nation.
    if own.is_some_and(|own| at_war_with(st, own, nation)) {
        return;
    }
    add_bounty(d, st, seat, nation, ev);
}

/// MM-BNTY-1: one bounty level more from `nation`, up to the maximum — as it is, with no war
/// exception (that one is for engagements only: [`engage_bounty`]).
pub(super) fn add_bounty(d: &Data, st: &mut State, seat: Seat, nation: Nation, ev: &mut Ev) {
    if let Some(p) = st.players.get_mut(seat.index())
        && let Some(b) = p.bounty.get_mut(nation.index())
    {
        *b = (*b + 1).min(d.start.max_bounty);
        ev.push(Logged::public(Event::Bounty {
            seat,
            nation,
            level: *b,
        }));
    }
}

/// MM-DMG-2/3: one hit at a rolled location; a location at 0 passes the hit to the Hull.
pub(super) fn hit(
    d: &Data,
    st: &mut State,
    seat: Seat,
    loc: Option<Loc>,
    rng: &mut GameRng,
    ev: &mut Ev,
) {
    let loc = loc.unwrap_or_else(|| {
        let face = rng.die(6);
        ev.push(Logged::public(Event::Rolled {
            seat: Some(seat),
            purpose: "hit location (MM-DMG-2)".into(),
            faces: vec![face],
            successes: u8::from(is_success(d, face)),
        }));
        face_loc(d, face)
    });
    let Some(p) = st.players.get_mut(seat.index()) else {
        return;
    };
    let loc = if cur(p, loc) == 0 { Loc::Hull } else { loc };
    let v = cur(p, loc).saturating_sub(1);
    set_cur(p, loc, v);
    ev.push(Logged::public(Event::Hit { seat, loc }));
    // MM-DMG-4: cargo over a reduced hold at sea is discarded at random.
    if loc == Loc::Cargo && !p.in_port {
        while p.cargo.len() > usize::from(cur(p, Loc::Cargo)) {
            let i = rng.index(p.cargo.len());
            let c = p.cargo.remove(i);
            st.cargo_discard.push(c);
            ev.push(Logged::public(Event::CargoDiscarded {
                seat,
                cards: vec![c],
            }));
        }
    }
}

pub(super) fn sunk(st: &State, seat: Seat) -> bool {
    st.player(seat)
        .is_some_and(|p| p.ship.is_some() && cur(p, Loc::Hull) == 0)
}

/// MM-YARD-5: modifications of a ship that leaves play are owed by its owner, who places them
/// face-down in ports without a token: a frame on top (`now`), or at the bottom of the stack
/// for a captain who died in another's turn (it never blocks that turn, III.3.9).
fn owe_mods(st: &mut State, seat: Seat, mods: Vec<u8>, now: bool) {
    if mods.is_empty() {
        return;
    }
    let frame = Frame::Place { seat, kinds: mods };
    if now || st.stack.is_empty() {
        st.stack.push(frame);
    } else {
        st.stack.insert(0, frame);
    }
}

/// A modification token leaves a port: nobody knows what lies there any more.
fn forget_port(st: &mut State, zone: ZoneId) {
    for p in &mut st.players {
        p.placed.retain(|z| *z != zone);
    }
}

/// MM-DEATH-1..5: the captain dies; a new captain waits for its sealed ship choice. Dying in
/// one's own turn ends it (MM-DEATH-2).
pub(super) fn die(d: &Data, st: &mut State, seat: Seat, rng: &mut GameRng, ev: &mut Ev) {
    ev.push(Logged::public(Event::Died { seat }));
    let Some(p) = st.players.get_mut(seat.index()) else {
        return;
    };
    let old = std::mem::replace(p, new_player(d, 0));
    st.captain_discard.push(old.captain);
    st.glory_discard.extend(old.glory_hand);
    st.glory_discard.extend(old.specialists);
    st.rumor_discard.extend(old.rumor);
    st.mission_discard.extend(old.mission);
    st.cargo_discard.extend(old.cargo.iter().copied());
    for w in old.weapons {
        if let Some(s) = st.weapon_supply.get_mut(usize::from(w)) {
            *s += 1;
        }
    }
    if st.captain_deck.is_empty() {
        st.captain_deck = std::mem::take(&mut st.captain_discard);
        rng.shuffle(&mut st.captain_deck);
    }
    let captain = st.captain_deck.pop().unwrap_or(old.captain);
    let mut fresh = new_player(d, captain);
    // MM-DEATH-3/4: glory and stash stay; 10 gold from the stash, the bank adding the rest.
    fresh.glory = old.glory;
    let from_stash = old.stash.min(d.start.gold);
    fresh.stash = old.stash - from_stash;
    fresh.gold = d.start.gold;
    fresh.placed = old.placed;
    // MM-DEATH-4a: a pirate NPC in the new captain's home zone allows another draw.
    fresh.may_redraw = pirate_at_home(d, st, &fresh);
    if let Some(p) = st.players.get_mut(seat.index()) {
        *p = fresh;
    }
    ev.push(only(
        seat,
        Event::CaptainDealt {
            seat,
            captain: captain_name(d, captain),
        },
    ));
    draw_glory_card(d, st, seat, rng, ev);
    // MM-DEATH-2: dying in your own turn ends it; dying in another's turn never blocks it
    // (III.3.9): the new ship waits beneath, to be chosen at any time before the seat's own
    // next turn ([`rejoining`]).
    let own_turn = st
        .stack
        .iter()
        .any(|f| matches!(f, Frame::Turn { seat: s, .. } if *s == seat));
    if own_turn {
        super::script::end_turn(st, seat);
    }
    st.stack.retain(|f| match f {
        Frame::ShipChoice { .. } | Frame::Combat { .. } | Frame::Place { .. } => true,
        _ => !f.seats().contains(seat),
    });
    let frame = Frame::ShipChoice {
        seats: SeatSet::only(seat),
    };
    if own_turn || st.stack.is_empty() {
        st.stack.push(frame);
    } else {
        st.stack.insert(0, frame);
    }
    owe_mods(st, seat, old.mods, own_turn);
}

fn pirate_at_home(d: &Data, st: &State, p: &Player) -> bool {
    let home = home_zone(d, p);
    st.npcs
        .iter()
        .any(|n| Some(n.zone) == home && d.npcs.get(usize::from(n.card)).is_some_and(|r| r.pirate))
}

// ---------------------------------------------------------------------------------------------
// Rounds, events and NPCs (MM-ROUND, MM-EVT, MM-NPC)
// ---------------------------------------------------------------------------------------------

/// Runs the game forward until a decision is needed or the game is over.
pub fn advance(d: &Data, st: &mut State, rng: &mut GameRng, ev: &mut Ev) {
    for _ in 0..1000 {
        if st.outcome.is_some() {
            st.stack.clear();
            return;
        }
        match st.stack.last() {
            // MM-NPC-7: the fight with one hunting NPC is over; the next ones try, before
            // anything else of the turn (even one whose actions are spent).
            Some(Frame::Turn { .. }) if st.hunt.is_some() => {
                super::combat::hunt_on(d, st, rng, ev);
                continue;
            }
            // A turn whose actions are spent ends by itself (MM-ACT-1).
            Some(Frame::Turn {
                actions_left: 0,
                bonus_moves: 0,
                seat,
                ..
            }) => {
                let seat = *seat;
                st.stack.pop();
                end_of_turn(d, st, seat, ev);
                continue;
            }
            // III.3.9: only a dead captain's requests beneath: the game goes on.
            Some(_) if st.stack.len() > rejoining(st).len() => return,
            _ => {}
        }
        if st.turns_this_round < st.seats {
            let seat = next_turn(st);
            // III.3.9: a dead captain's request is answered before its own next turn begins.
            if rejoin_due(st) == Some(seat) {
                return;
            }
            st.turns_this_round += 1;
            st.turn_number += 1;
            if let Some(p) = st.players.get_mut(seat.index()) {
                p.scouted.clear();
                p.fought = false;
            }
            ev.push(Logged::public(Event::TurnBegins {
                seat,
                round: st.round,
            }));
            st.stack.push(Frame::Turn {
                seat,
                actions_left: d.start.actions,
                port_used: false,
                started: false,
                free_move: false,
                pardoned: false,
                bonus_moves: 0,
            });
            // MM-ACT-4 / MM-NPC-7: hunting NPCs in your zone may attack before your first action.
            super::combat::npc_hunt(d, st, seat, rng, ev);
            continue;
        }
        // MM-ROUND-3: end-of-round upkeep, then the end check (MM-END-1): once a total has
        // reached the target the end is announced and cannot be undone (a total that drops
        // back, withdrawing stash gold, changes nothing).
        st.round_effects.clear();
        if st.round > 0
            && (st.ending
                || st
                    .players
                    .iter()
                    .any(|p| total_glory(d, st, p) >= st.glory_target))
        {
            finish(d, st, "glory target reached (MM-END-1)", ev);
            continue;
        }
        begin_round(d, st, rng, ev);
    }
}

/// TW9, the end of a turn: GLY-03 repairs one point if its captain did not fight this turn.
/// The turn's script ends with it (III.3.4).
fn end_of_turn(d: &Data, st: &mut State, seat: Seat, ev: &mut Ev) {
    super::script::end_turn(st, seat);
    let Some(p) = st.players.get_mut(seat.index()) else {
        return;
    };
    if p.ship.is_none() || p.fought || !has_specialist(d, p, "carpenter") {
        return;
    }
    let damaged = [Loc::Hull, Loc::Masts, Loc::Cannons, Loc::Cargo]
        .into_iter()
        .find(|l| cur(p, *l) < max_loc(d, p, *l));
    if let Some(l) = damaged {
        let v = cur(p, l) + 1;
        set_cur(p, l, v);
        ev.push(Logged::public(Event::Repaired {
            seat,
            locs: vec![l],
            gold: 0,
        }));
    }
}

fn begin_round(d: &Data, st: &mut State, rng: &mut GameRng, ev: &mut Ev) {
    st.round += 1;
    st.turns_this_round = 0;
    ev.push(Logged::public(Event::RoundBegins { round: st.round }));
    // MM-ROUND-2: merchant refill.
    if st.merchant_track.len() >= usize::from(d.start.merchant_refill) {
        rng.shuffle(&mut st.merchant_track);
        let mut count = 0;
        for slot in st.merchants.iter_mut().filter(|m| m.is_none()) {
            if let Some(t) = st.merchant_track.pop() {
                *slot = Some(t);
                count += 1;
            }
        }
        ev.push(Logged::public(Event::MerchantsReturned { count }));
    }
    draw_event(d, st, rng, ev);
}

/// MM-EVT-1..4: draw and resolve the top event card; an empty deck ends the game (MM-END-3).
fn draw_event(d: &Data, st: &mut State, rng: &mut GameRng, ev: &mut Ev) {
    let Some(card) = st.event_deck.pop() else {
        finish(d, st, "event deck exhausted (MM-END-3)", ev);
        return;
    };
    resolve_event(d, st, card, rng, ev);
}

fn resolve_event(d: &Data, st: &mut State, card: u8, rng: &mut GameRng, ev: &mut Ev) {
    let Some(row) = d.events.get(usize::from(card)) else {
        return;
    };
    st.event_discard.push(card);
    ev.push(Logged::public(Event::EventDrawn {
        card: row.id.clone(),
        title: row.title.clone(),
    }));
    // MM-EVT-2: NPC icons first.
    for icon in &row.icons {
        if let Some((naval, dir)) = parse_icon(icon) {
            move_npcs(d, st, naval, dir, ev);
        }
    }
    match &row.effect {
        Effect::Npc(id) => {
            if let Some(i) = d.npcs.iter().position(|n| &n.id == id) {
                npc_arrives(d, st, u8::try_from(i).unwrap_or(0), ev);
            }
        }
        Effect::War(gold) => start_war(d, st, rng, *gold, ev),
        Effect::Peace => {
            st.war = None;
            ev.push(Logged::public(Event::Peace));
        }
        Effect::Storm(zones) => {
            let zones: Vec<ZoneId> = zones.iter().filter_map(|z| d.zone_index(z)).collect();
            for s in 0..st.seats {
                let seat = Seat(s);
                let Some(p) = st.player(seat) else { continue };
                if !p.at_sea() || !zones.contains(&p.zone) {
                    continue;
                }
                let dice = skill(d, p, Skill::Seamanship);
                // D-ZONE GUA: storms inflict extra hits here.
                let extra =
                    super::data::verb_number(d.zone_rules(p.zone), "storm_extra").unwrap_or(0);
                if roll(d, rng, dice, Some(seat), "storm: Seamanship (EVT)", ev) == 0 {
                    for _ in 0..=extra {
                        if !sunk(st, seat) {
                            hit(d, st, seat, None, rng, ev);
                        }
                    }
                    if sunk(st, seat) {
                        die(d, st, seat, rng, ev);
                    }
                }
            }
        }
        Effect::FeverInPort | Effect::ScurvyAtSea => {
            let in_port = row.effect == Effect::FeverInPort;
            for (s, p) in st.players.iter_mut().enumerate() {
                let hit = p.ship.is_some()
                    && if in_port {
                        p.in_port
                    } else {
                        !p.in_port && p.cargo.is_empty()
                    };
                if hit && cur(p, Loc::Crew) > 0 {
                    let v = cur(p, Loc::Crew) - 1;
                    set_cur(p, Loc::Crew, v);
                    ev.push(Logged::public(Event::CrewLost {
                        seat: Seat(u8::try_from(s).unwrap_or(0)),
                    }));
                }
            }
        }
        Effect::Markets(nations) => {
            for z in 0..d.zones.len() {
                let z = u8::try_from(z).unwrap_or(0);
                if zone_nation(d, z).is_some_and(|n| nations.contains(&n)) {
                    replace_demand(st, z, rng, ev);
                }
            }
        }
        Effect::Round(name) => st.round_effects.push(name.clone()),
        // EVT-28 is no engagement: MM-BNTY-3's war exception does not apply.
        Effect::PriceOnHeads => {
            for s in 0..st.seats {
                let seat = Seat(s);
                let nation = st
                    .player(seat)
                    .filter(|p| p.is_pirate() && p.ship.is_some())
                    .and_then(|p| zone_nation(d, p.zone));
                if let Some(n) = nation {
                    add_bounty(d, st, seat, n, ev);
                }
            }
        }
        Effect::DrawAnother => {
            // MM-SOLO-2: set-aside cards serve "draw another event" first.
            match st.event_aside.pop() {
                Some(c) => resolve_event(d, st, c, rng, ev),
                None => draw_event(d, st, rng, ev),
            }
        }
        Effect::NavyAgain => {
            for icon in &row.icons {
                if let Some((true, dir)) = parse_icon(icon) {
                    move_npcs(d, st, true, dir, ev);
                }
            }
        }
        Effect::ShipyardFire => {
            let nation = Nation::ALL.get(rng.index(4)).copied().unwrap_or(Nation::ES);
            st.round_effects.push(format!("shipyard_fire:{nation}"));
        }
        Effect::HuntersToward => hunters_toward(d, st, ev),
    }
}

/// MM-WAR-2: two different random nations go to war; EVT-15 pays `gold` to each player whose
/// captain's nation is in the pair.
fn start_war(d: &Data, st: &mut State, rng: &mut GameRng, gold: u32, ev: &mut Ev) {
    let a = rng.index(4);
    let b = (a + 1 + rng.index(3)) % 4;
    let (Some(&x), Some(&y)) = (Nation::ALL.get(a), Nation::ALL.get(b)) else {
        return;
    };
    st.war = Some((x, y));
    ev.push(Logged::public(Event::War { nations: (x, y) }));
    if gold > 0 {
        for (i, p) in st.players.iter_mut().enumerate() {
            let own = d.captains.get(usize::from(p.captain)).map(|c| c.nation);
            if p.ship.is_some() && (own == Some(x) || own == Some(y)) {
                p.gold += gold;
                let seat = Seat(u8::try_from(i).unwrap_or(0));
                ev.push(Logged::public(Event::Reward { seat, gold }));
            }
        }
    }
}

/// MM-SELL-2 (and EVT-22/23): the port's demand token is replaced by a random one from the
/// hidden pool, drawn before the old one goes back, so the same token cannot come straight back;
/// the pool stays at 8.
pub(super) fn replace_demand(st: &mut State, z: ZoneId, rng: &mut GameRng, ev: &mut Ev) {
    let i = rng.index(st.demand_pool.len());
    if i >= st.demand_pool.len() || st.demand.get(usize::from(z)).is_none() {
        return;
    }
    let good = st.demand_pool.remove(i);
    if let Some(old) = st
        .demand
        .get_mut(usize::from(z))
        .and_then(|s| s.replace(good))
    {
        st.demand_pool.push(old);
    }
    ev.push(Logged::public(Event::DemandReplaced { zone: z, good }));
}

/// MM-NPC-2: an NPC arrives, replacing one of the same kind (MM-COMP-2).
fn npc_arrives(d: &Data, st: &mut State, card: u8, ev: &mut Ev) {
    let Some(row) = d.npcs.get(usize::from(card)) else {
        return;
    };
    let same = |n: &Npc| {
        d.npcs.get(usize::from(n.card)).is_some_and(|o| {
            o.pirate == row.pirate
                && if row.pirate {
                    o.ship == row.ship
                } else {
                    o.nation == row.nation
                }
        })
    };
    st.npcs.retain(|n| !same(n));
    let zone = d.zone_index(&row.arrival).unwrap_or(0);
    st.npcs.push(Npc {
        card,
        zone,
        hits: [0; 5],
    });
    ev.push(Logged::public(Event::NpcArrives {
        npc: row.id.clone(),
        zone,
    }));
}

/// MM-NPC-6: is this player on the NPC's hunt list?
pub(super) fn hunts(d: &Data, st: &State, n: &Npc, p: &Player) -> bool {
    hunt_priority(d, st, n, p).is_some()
}

/// MM-NPC-6: where `p` stands on the hunt list of `n`, higher first; none when off the list.
/// A naval NPC of nation X puts players with X's bounty first, a higher level first, then
/// players whose captain's nation is at war with X; a pirate, non-pirates with the most cargo
/// cards first.
pub(super) fn hunt_priority(d: &Data, st: &State, n: &Npc, p: &Player) -> Option<(u8, usize)> {
    let row = d.npcs.get(usize::from(n.card))?;
    match row.nation {
        None => (!p.is_pirate()).then_some((0, p.cargo.len())),
        Some(x) => {
            let bounty = p.bounty.get(x.index()).copied().unwrap_or(0);
            if bounty > 0 {
                Some((1, usize::from(bounty)))
            } else if captain_nation(d, p).is_some_and(|own| at_war_with(st, own, x)) {
                Some((0, 0))
            } else {
                None
            }
        }
    }
}

/// MM-NPC-5: every naval (or pirate) NPC moves one zone; toward a hunted player at sea in an
/// adjacent zone if there is one (the highest on its hunt list, MM-NPC-6; ties by turn order
/// from the first player), else by the letter.
fn move_npcs(d: &Data, st: &mut State, naval: bool, dir: super::ids::Dir, ev: &mut Ev) {
    for i in 0..st.npcs.len() {
        let Some(n) = st.npcs.get(i) else { continue };
        let is_naval = npc_nation(d, n).is_some();
        if is_naval != naval {
            continue;
        }
        let from = n.zone;
        let near = d.neighbours(from);
        let mut target: Option<((u8, usize), ZoneId)> = None;
        for p in (0..st.seats)
            .map(|k| Seat((st.first.0 + k) % st.seats))
            .filter_map(|s| st.player(s))
            .filter(|p| p.at_sea() && near.contains(&p.zone))
        {
            // Strictly higher only: the earlier in turn order keeps a tie.
            if let Some(rank) = hunt_priority(d, st, n, p)
                && target.is_none_or(|(best, _)| rank > best)
            {
                target = Some((rank, p.zone));
            }
        }
        let target = target.map(|(_, zone)| zone);
        let to = target.or_else(|| d.across(from, dir));
        if let (Some(to), Some(n)) = (to, st.npcs.get_mut(i)) {
            n.zone = to;
            let name = d
                .npcs
                .get(usize::from(n.card))
                .map_or_else(String::new, |r| r.id.clone());
            ev.push(Logged::public(Event::NpcMoves {
                npc: name,
                from,
                to,
            }));
        }
    }
}

/// EVT-27: each naval NPC moves one zone toward the nearest player at sea with a bounty from its
/// nation (ties: turn order from the first player, then zone order), if there is one.
fn hunters_toward(d: &Data, st: &mut State, ev: &mut Ev) {
    for i in 0..st.npcs.len() {
        let Some(n) = st.npcs.get(i).cloned() else {
            continue;
        };
        let Some(nation) = npc_nation(d, &n) else {
            continue;
        };
        // Distances from the NPC's zone (D-ADJ).
        let mut dist = vec![u8::MAX; d.zones.len()];
        let mut queue = vec![n.zone];
        if let Some(x) = dist.get_mut(usize::from(n.zone)) {
            *x = 0;
        }
        let mut k = 0;
        while let Some(&z) = queue.get(k) {
            k += 1;
            let here = dist.get(usize::from(z)).copied().unwrap_or(u8::MAX);
            for m in d.neighbours(z) {
                if let Some(x) = dist.get_mut(usize::from(m))
                    && *x == u8::MAX
                {
                    *x = here.saturating_add(1);
                    queue.push(m);
                }
            }
        }
        let target = (0..st.seats)
            .map(|s| Seat((st.first.0 + s) % st.seats))
            .filter_map(|s| st.player(s))
            .filter(|p| p.at_sea() && p.bounty.get(nation.index()).is_some_and(|b| *b > 0))
            .min_by_key(|p| dist.get(usize::from(p.zone)).copied().unwrap_or(u8::MAX))
            .map(|p| p.zone);
        let Some(goal) = target else { continue };
        if goal == n.zone {
            continue;
        }
        // One step along a shortest path: the neighbour nearest the goal.
        let mut back = vec![u8::MAX; d.zones.len()];
        let mut queue = vec![goal];
        if let Some(x) = back.get_mut(usize::from(goal)) {
            *x = 0;
        }
        let mut k = 0;
        while let Some(&z) = queue.get(k) {
            k += 1;
            let here = back.get(usize::from(z)).copied().unwrap_or(u8::MAX);
            for m in d.neighbours(z) {
                if let Some(x) = back.get_mut(usize::from(m))
                    && *x == u8::MAX
                {
                    *x = here.saturating_add(1);
                    queue.push(m);
                }
            }
        }
        let step = d
            .neighbours(n.zone)
            .into_iter()
            .min_by_key(|m| back.get(usize::from(*m)).copied().unwrap_or(u8::MAX));
        if let (Some(to), Some(npc)) = (step, st.npcs.get_mut(i)) {
            npc.zone = to;
            let name = d
                .npcs
                .get(usize::from(npc.card))
                .map_or_else(String::new, |r| r.id.clone());
            ev.push(Logged::public(Event::NpcMoves {
                npc: name,
                from: n.zone,
                to,
            }));
        }
    }
}

fn open_mission(d: &Data, st: &mut State, ev: &mut Ev) {
    // MM-MIS-3: a mission naming an occupied zone goes under the deck; draw again.
    for _ in 0..st.mission_deck.len() {
        let Some(m) = st.mission_deck.pop() else {
            return;
        };
        let zone = d.missions.get(usize::from(m)).map(|r| &r.zone);
        let taken = st
            .missions_open
            .iter()
            .any(|o| d.missions.get(usize::from(*o)).map(|r| &r.zone) == zone);
        if taken {
            st.mission_deck.insert(0, m);
            continue;
        }
        st.missions_open.push(m);
        let id = d
            .missions
            .get(usize::from(m))
            .map_or_else(String::new, |r| r.id.clone());
        ev.push(Logged::public(Event::MissionOpened { mission: id }));
        return;
    }
}

/// MM-END-1..4 and MM-SOLO-4.
fn finish(d: &Data, st: &mut State, reason: &str, ev: &mut Ev) {
    let totals: Vec<u8> = st.players.iter().map(|p| total_glory(d, st, p)).collect();
    let by_total = !st
        .players
        .iter()
        .any(|p| total_glory(d, st, p) >= st.glory_target);
    let key = |i: usize| {
        let p = st.players.get(i);
        (
            if by_total {
                totals.get(i).copied().unwrap_or(0)
            } else {
                0
            },
            p.map_or(0, |p| p.glory),
            p.map_or(0, |p| p.stash),
        )
    };
    let reached: Vec<usize> = (0..st.players.len())
        .filter(|i| totals.get(*i).copied().unwrap_or(0) >= st.glory_target)
        .collect();
    let seat_of = |i: &usize| Seat(u8::try_from(*i).unwrap_or(0));
    let winners: Vec<Seat> = if st.solo.is_some() {
        reached.iter().map(seat_of).collect()
    } else {
        // MM-END-2: among those at the target, most track points then stash gold; with none at
        // the target (MM-END-3), highest total first, then the same tie-breaks.
        let pool: Vec<usize> = if reached.is_empty() {
            (0..st.players.len()).collect()
        } else {
            reached
        };
        let best = pool.iter().map(|i| key(*i)).max();
        pool.iter()
            .filter(|i| Some(key(**i)) == best)
            .map(seat_of)
            .collect()
    };
    ev.push(Logged::public(Event::GameEnds {
        reason: reason.into(),
        winners: winners.clone(),
    }));
    st.outcome = Some(MmOutcome {
        winners,
        glory: totals,
        stash: st.players.iter().map(|p| p.stash).collect(),
        reason: reason.into(),
    });
    // A dead captain's tokens still owed when the game ends (III.3.9: they wait for no one)
    // stay out of play.
    for f in std::mem::take(&mut st.stack) {
        if let Frame::Place { kinds, .. } = f {
            st.mod_supply.extend(kinds);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Actions
// ---------------------------------------------------------------------------------------------

pub fn apply(st: &mut State, seat: Seat, a: &Action, rng: &mut GameRng, events: &mut Ev) -> R<()> {
    let d = super::data::load().map_err(|e| no("MM-COMP-1", e))?;
    if st.outcome.is_some() {
        return Err(no("MM-END-1", "The game is over."));
    }
    let mut next = st.clone();
    let mut ev = Vec::new();
    match a {
        Action::Orders { orders } => super::orders::file(d, &mut next, seat, orders, &mut ev)?,
        Action::Script { steps } => super::script::file(d, &mut next, seat, steps, &mut ev)?,
        _ => act(d, &mut next, seat, a, rng, &mut ev)?,
    }
    // III.3.3: decisions the seats' standing orders answer are never asked.
    super::orders::settle(d, &mut next, rng, &mut ev);
    *st = next;
    events.extend(ev);
    Ok(())
}

/// One decision by `seat` and what follows from it until the next decision is needed (a
/// refusal may leave `st` part-changed: callers work on a copy).
pub(super) fn act(
    d: &Data,
    st: &mut State,
    seat: Seat,
    a: &Action,
    rng: &mut GameRng,
    ev: &mut Ev,
) -> R<()> {
    // MM-GCARD-2: "at once": an over-full hand is settled before anything else the seat does.
    if let Action::DiscardGlory { card } = a {
        return discard_glory(d, st, seat, *card, ev);
    }
    if over_limit(d, st, seat) {
        return Err(no(
            "MM-GCARD-2",
            format!(
                "Your hand is over the limit of {} glory cards: discard first (`discard glory N`).",
                d.start.glory_hand_limit
            ),
        ));
    }
    step(d, st, seat, a, rng, ev)?;
    // MM-MIS-4: objectives met in port are checked when the holder's turn or Port action is
    // waiting again.
    if matches!(
        st.stack.last(),
        Some(Frame::Turn { seat: s, .. } | Frame::Port { seat: s, .. }) if *s == seat
    ) {
        mission_trigger(d, st, seat, Trigger::InPort, rng, ev);
    }
    advance(d, st, rng, ev);
    Ok(())
}

/// III.3.9: the requests of captains who died (the new ship, MM-DEATH-4; the modification
/// tokens to place, MM-YARD-5) wait at the bottom of the stack, beneath the turns they never
/// block: the run of ship choices and placements there once the game has begun (the setup's
/// ship choice blocks everyone). Their seats may answer them at any time (out of turn, not
/// pending: no deadline runs); the game waits for one only when its seat's own turn would begin
/// ([`advance`], [`rejoin_due`]), MM-DEATH-2's "rejoining on your own next turn".
pub fn rejoining(st: &State) -> &[Frame] {
    if st.round == 0 {
        return &[];
    }
    let n = st
        .stack
        .iter()
        .take_while(|f| matches!(f, Frame::ShipChoice { .. } | Frame::Place { .. }))
        .count();
    st.stack.get(..n).unwrap_or_default()
}

/// The seat whose turn begins next in this round.
fn next_turn(st: &State) -> Seat {
    Seat((st.first.0 + st.turns_this_round) % st.seats.max(1))
}

/// III.3.9 / MM-DEATH-2: the seat the game waits for to rejoin: nothing but dead captains'
/// requests is left on the stack and this seat, one of theirs, would begin its own turn now.
/// Only then is it pending (its deadline runs and a timeout may default it).
pub fn rejoin_due(st: &State) -> Option<Seat> {
    let run = rejoining(st);
    if run.is_empty() || run.len() < st.stack.len() || st.turns_this_round >= st.seats {
        return None;
    }
    let seat = next_turn(st);
    run.iter().any(|f| f.seats().contains(seat)).then_some(seat)
}

/// Whether `seat` has a dead captain's request it may answer now, due or not (III.3.9).
pub fn rejoin_request(st: &State, seat: Seat) -> bool {
    request_at(st, seat).is_some_and(|i| i < rejoining(st).len())
}

/// The state with the decision the game waits for at the top: a due request of a dead
/// captain (III.3.9) lifted from beneath the others, else the state as it is.
pub fn as_waited(st: &State) -> std::borrow::Cow<'_, State> {
    match rejoin_due(st) {
        Some(seat) => as_asked(st, seat),
        None => std::borrow::Cow::Borrowed(st),
    }
}

/// Whether `f` waits for `seat` (a sealed ship choice waits only for the others).
fn waits_for(st: &State, f: &Frame, seat: Seat) -> bool {
    f.seats().contains(seat)
        && match f {
            Frame::ShipChoice { .. } => st.player(seat).is_some_and(|p| p.sealed.is_none()),
            _ => true,
        }
}

/// The index in the stack of the decision `seat` answers: the top frame's, else the topmost
/// of its requests waiting beneath after a death (III.3.9).
pub fn request_at(st: &State, seat: Seat) -> Option<usize> {
    let top = st.stack.len().checked_sub(1)?;
    if st.stack.get(top).is_some_and(|f| f.seats().contains(seat)) {
        return Some(top);
    }
    let run = rejoining(st);
    (0..run.len())
        .rev()
        .find(|i| run.get(*i).is_some_and(|f| waits_for(st, f, seat)))
}

/// The state as `seat` answers it: a request of its waiting beneath (III.3.9) lifted to the
/// top, so that what is legal, a timeout's default and the view read it as the open decision.
pub fn as_asked(st: &State, seat: Seat) -> std::borrow::Cow<'_, State> {
    match request_at(st, seat) {
        Some(i) if i + 1 < st.stack.len() => {
            let mut lifted = st.clone();
            let f = lifted.stack.remove(i);
            lifted.stack.push(f);
            std::borrow::Cow::Owned(lifted)
        }
        _ => std::borrow::Cow::Borrowed(st),
    }
}

fn step(d: &Data, st: &mut State, seat: Seat, a: &Action, rng: &mut GameRng, ev: &mut Ev) -> R<()> {
    let Some(at) = request_at(st, seat) else {
        if st.stack.is_empty() {
            return Err(no("MM-ROUND-1", "Nothing is waiting for a decision."));
        }
        return Err(no("MM-ACT-1", "It is not your decision now."));
    };
    if at + 1 == st.stack.len() {
        return step_top(d, st, seat, a, rng, ev);
    }
    // III.3.9: a dead captain's request is answered where it waits: lifted to the top for the
    // answer, and what is left of it (a redraw, tokens still owed) put back in its place.
    let f = st.stack.remove(at);
    st.stack.push(f);
    let base = st.stack.len() - 1;
    let result = step_top(d, st, seat, a, rng, ev);
    let left: Vec<Frame> = st.stack.drain(base.min(st.stack.len())..).collect();
    let at = at.min(st.stack.len());
    st.stack.splice(at..at, left);
    result
}

fn step_top(
    d: &Data,
    st: &mut State,
    seat: Seat,
    a: &Action,
    rng: &mut GameRng,
    ev: &mut Ev,
) -> R<()> {
    let Some(top) = st.stack.last().cloned() else {
        return Err(no("MM-ROUND-1", "Nothing is waiting for a decision."));
    };
    if !top.seats().contains(seat) {
        return Err(no("MM-ACT-1", "It is not your decision now."));
    }
    match (top, a) {
        (Frame::ShipChoice { seats }, Action::Ship { ship }) => {
            choose_ship(d, st, seats, seat, *ship, rng, ev)
        }
        (Frame::ShipChoice { .. }, Action::Redraw) => redraw(d, st, seat, rng, ev),
        (
            Frame::Window { .. },
            Action::Pass | Action::Play { .. } | Action::Fire | Action::Reroll { .. },
        ) => super::combat::window_answer(d, st, seat, a, rng, ev),
        (Frame::Plunder { from, .. }, Action::Plunder { item }) => {
            plunder(d, st, seat, from, *item, rng, ev)
        }
        (Frame::Plunder { from, .. }, Action::Capture) => capture(d, st, seat, from, rng, ev),
        (Frame::Plunder { from, .. }, Action::Done) => {
            st.stack.pop();
            die(d, st, from, rng, ev);
            Ok(())
        }
        (Frame::Claim { ship, hits, .. }, Action::Capture) => {
            st.stack.pop();
            take_ship(d, st, seat, ship, hits, Vec::new(), rng, ev);
            Ok(())
        }
        (Frame::Claim { .. }, Action::Done) => {
            st.stack.pop();
            Ok(())
        }
        (Frame::Pick { what, options, .. }, Action::Pick { option }) => {
            pick(d, st, seat, what, &options, *option, rng, ev)
        }
        (Frame::Place { kinds, .. }, Action::Place { to }) => place(d, st, seat, &kinds, *to, ev),
        (
            Frame::Offer { .. } | Frame::Keep { .. } | Frame::Plunder { .. },
            Action::DiscardCargo { card },
        ) => discard_cargo(d, st, seat, *card, ev),
        (Frame::Turn { .. }, _) => turn_action(d, st, seat, a, rng, ev),
        (Frame::Port { current, done, .. }, _) => {
            port_activity(d, st, seat, current, done, a, rng, ev)
        }
        (Frame::Offer { cards, .. }, Action::Take { cards: chosen }) => {
            take(d, st, seat, &cards, chosen, ev)
        }
        (Frame::Hire { .. }, Action::Hire { crew }) => hire(d, st, seat, *crew, ev),
        (Frame::MerchantFound { token, zone, .. }, Action::RaidAs { nation }) => {
            raid_as(d, st, seat, token, zone, *nation, rng, ev)
        }
        (
            Frame::Raid { .. },
            Action::Draw | Action::Discard { .. } | Action::Swap { .. } | Action::Stop,
        ) => raid_spend(d, st, seat, a, rng, ev),
        (Frame::Combat { .. }, Action::Declare { decl, weapon }) => {
            super::combat::declare(d, st, seat, *decl, *weapon, rng, ev)
        }
        (Frame::Keep { cards, .. }, Action::Keep { cards: chosen }) => {
            keep(d, st, seat, &cards, chosen, ev)
        }
        (frame, _) => Err(no(
            "MM-ACT-1",
            format!(
                "`{a}` does not answer this decision ({}).",
                frame_word(&frame)
            ),
        )),
    }
}

fn frame_word(f: &Frame) -> &'static str {
    match f {
        Frame::ShipChoice { .. } => "choose a ship",
        Frame::Turn { .. } => "your turn",
        Frame::Port { .. } => "port activities",
        Frame::Offer { .. } => "take cards of the offer",
        Frame::Hire { .. } => "hire crew",
        Frame::MerchantFound { .. } => "raid or let go",
        Frame::Raid { .. } => "spend raid successes",
        Frame::Keep { .. } => "keep raid cargo",
        Frame::Combat { .. } => "declare Shoot, Board or Flee",
        Frame::Window { .. } => "play in the timing window or pass",
        Frame::Plunder { .. } => "plunder, capture or done",
        Frame::Claim { .. } => "capture or done",
        Frame::Pick { .. } => "pick an option",
        Frame::Place { .. } => "place a modification token",
    }
}

/// MM-DEATH-4a: another captain instead of one whose home zone holds a pirate NPC.
fn redraw(d: &Data, st: &mut State, seat: Seat, rng: &mut GameRng, ev: &mut Ev) -> R<()> {
    let p = st
        .player(seat)
        .cloned()
        .ok_or_else(|| no("MM-DEATH-4", "No such seat."))?;
    if !p.may_redraw || p.sealed.is_some() {
        return Err(no(
            "MM-DEATH-4",
            "Another captain may be drawn only when a pirate NPC lies in the new captain's home zone, before the ship is chosen.",
        ));
    }
    if st.captain_deck.is_empty() {
        st.captain_deck = std::mem::take(&mut st.captain_discard);
        rng.shuffle(&mut st.captain_deck);
    }
    let Some(captain) = st.captain_deck.pop() else {
        return Err(no("MM-DEATH-4", "No other captain is left."));
    };
    st.captain_discard.push(p.captain);
    let home = {
        let q = player_mut(st, seat)?;
        q.captain = captain;
        q.may_redraw = false;
        home_zone(d, q).unwrap_or(0)
    };
    player_mut(st, seat)?.zone = home;
    ev.push(only(
        seat,
        Event::CaptainDealt {
            seat,
            captain: captain_name(d, captain),
        },
    ));
    Ok(())
}

/// The triggers of mission objectives (MM-MIS-4, D-MIS).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Trigger {
    /// The holder is in a port (entering it, or acting there).
    InPort,
    /// A successful raid on a merchant of this nation.
    Raid(Nation),
    /// A naval combat won (a sinking or a crew combat).
    Won,
    PirateNpcDefeated,
}

/// MM-MIS-4: completes the holder's mission if `trigger` meets its objective: the reward, one
/// glory point, the card discarded. Delivered cards go face-up to the cargo discard.
pub(super) fn mission_trigger(
    d: &Data,
    st: &mut State,
    seat: Seat,
    trigger: Trigger,
    rng: &mut GameRng,
    ev: &mut Ev,
) {
    let Some(p) = st.player(seat).cloned() else {
        return;
    };
    let Some((m, row)) = p
        .mission
        .and_then(|m| d.missions.get(usize::from(m)).map(|r| (m, r)))
    else {
        return;
    };
    if p.ship.is_none() {
        return;
    }
    let o = &row.objective;
    let at = o.at.as_deref().and_then(|z| d.zone_index(z));
    let here = p.in_port && at == Some(p.zone);
    let n = usize::from(o.n.max(1));
    // Cards delivered, if the objective takes any.
    let mut deliver: Vec<CargoId> = Vec::new();
    let met = match (trigger, o.kind.as_str()) {
        (Trigger::InPort, "gift" | "deliver_any") if here && p.cargo.len() >= n => {
            deliver = p.cargo.iter().take(n).copied().collect();
            true
        }
        (Trigger::InPort, "deliver_same") if here => {
            let good = (0..u8::try_from(d.goods.len()).unwrap_or(0)).find(|g| {
                p.cargo
                    .iter()
                    .filter(|c| d.cargo_card(**c).good == *g)
                    .count()
                    >= n
            });
            if let Some(g) = good {
                deliver = p
                    .cargo
                    .iter()
                    .filter(|c| d.cargo_card(**c).good == g)
                    .take(n)
                    .copied()
                    .collect();
            }
            good.is_some()
        }
        (Trigger::InPort, "deliver_good") if here => {
            let good = o.good.as_deref().and_then(|g| d.good_index(g));
            let cards: Vec<CargoId> = p
                .cargo
                .iter()
                .filter(|c| Some(d.cargo_card(**c).good) == good)
                .take(n)
                .copied()
                .collect();
            let ok = cards.len() >= n;
            if ok {
                deliver = cards;
            }
            ok
        }
        (Trigger::InPort, "pay") if here && p.gold >= u32::from(o.n) => {
            if let Some(q) = st.players.get_mut(seat.index()) {
                q.gold -= u32::from(o.n);
            }
            true
        }
        (Trigger::InPort, "clean_entry") if here => o
            .nation
            .is_none_or(|x| p.bounty.get(x.index()).is_some_and(|b| *b == 0)),
        (Trigger::InPort, "full_crew") if here => cur(&p, Loc::Crew) >= max_loc(d, &p, Loc::Crew),
        (Trigger::Raid(x), "raid") => o.nation.is_none_or(|y| y == x),
        (Trigger::Won, "win_combat") | (Trigger::PirateNpcDefeated, "defeat_pirate_npc") => true,
        _ => false,
    };
    if met {
        complete_mission(d, st, seat, m, &deliver, rng, ev);
    }
}

fn complete_mission(
    d: &Data,
    st: &mut State,
    seat: Seat,
    m: u8,
    deliver: &[CargoId],
    rng: &mut GameRng,
    ev: &mut Ev,
) {
    let Some(row) = d.missions.get(usize::from(m)) else {
        return;
    };
    if let Some(q) = st.players.get_mut(seat.index()) {
        q.cargo.retain(|c| !deliver.contains(c));
        q.mission = None;
        q.gold += row.gold;
    }
    st.cargo_discard.extend(deliver.iter().copied());
    st.mission_discard.push(m);
    if !deliver.is_empty() {
        ev.push(Logged::public(Event::CargoDiscarded {
            seat,
            cards: deliver.to_vec(),
        }));
    }
    ev.push(Logged::public(Event::MissionCompleted {
        seat,
        mission: row.id.clone(),
        gold: row.gold,
    }));
    gain_glory(d, st, seat, "MM-MIS-4", rng, ev);
}

/// MM-PLUN-1: one thing taken from the defeated captain, or everything that fits.
fn plunder(
    d: &Data,
    st: &mut State,
    seat: Seat,
    from: Seat,
    item: super::action::Loot,
    rng: &mut GameRng,
    ev: &mut Ev,
) -> R<()> {
    use super::action::Loot;
    if item == Loot::All {
        for loot in super::legal::plunder_all(d, st, seat, from) {
            plunder(d, st, seat, from, loot, rng, ev)?;
        }
        st.stack.pop();
        die(d, st, from, rng, ev);
        return Ok(());
    }
    if !super::legal::plunder_items(d, st, seat, from).contains(&item) {
        return Err(no(
            "MM-PLUN-1",
            "Take something the defeated captain has that fits your ship and hand.",
        ));
    }
    let (Some(mut w), Some(mut l)) = (st.player(seat).cloned(), st.player(from).cloned()) else {
        return Err(no("MM-PLUN-1", "No such seat."));
    };
    match item {
        Loot::Gold => {
            w.gold += l.gold;
            l.gold = 0;
        }
        Loot::Cargo(c) => {
            l.cargo.retain(|x| *x != c);
            w.cargo.push(c);
        }
        Loot::Glory(c) => {
            l.glory_hand.retain(|x| *x != c);
            w.glory_hand.push(c);
        }
        Loot::Specialist(c) => {
            l.specialists.retain(|x| *x != c);
            w.specialists.push(c);
        }
        Loot::Rumor => {
            st.rumor_discard.extend(w.rumor.take());
            w.rumor = l.rumor.take();
        }
        Loot::Weapon(k) => {
            l.weapons.retain(|x| *x != k);
            w.weapons.push(k);
        }
        Loot::All => {}
    }
    if let Some(x) = st.players.get_mut(seat.index()) {
        *x = w;
    }
    if let Some(x) = st.players.get_mut(from.index()) {
        *x = l;
    }
    ev.push(Logged::public(Event::Plundered {
        seat,
        from,
        what: match item {
            Loot::Gold => "gold",
            Loot::Cargo(_) => "cargo",
            Loot::Glory(_) => "glory",
            Loot::Specialist(_) => "specialist",
            Loot::Rumor => "rumor",
            Loot::Weapon(_) => "weapon",
            Loot::All => "all",
        }
        .into(),
    }));
    Ok(())
}

/// MM-PLUN-4: the winner takes the defeated captain's ship; the loser dies without it.
fn capture(
    d: &Data,
    st: &mut State,
    seat: Seat,
    from: Seat,
    rng: &mut GameRng,
    ev: &mut Ev,
) -> R<()> {
    let Some(l) = st.player(from).cloned() else {
        return Err(no("MM-PLUN-4", "No such seat."));
    };
    let Some(ship) = l.ship else {
        return Err(no("MM-PLUN-4", "That ship is already taken."));
    };
    if let Some(x) = st.players.get_mut(from.index()) {
        x.ship = None;
        x.mods.clear();
    }
    take_ship(d, st, seat, ship, l.hits, l.mods, rng, ev);
    Ok(())
}

/// A claimed ship replaces the winner's own (MM-PLUN-4 [P]): its damage and modifications
/// stay, the winner's crew moves over (capped), the old ship's modifications are placed by
/// their owner (MM-YARD-5), cargo over the new hold at sea is discarded at random.
#[allow(clippy::too_many_arguments)]
fn take_ship(
    d: &Data,
    st: &mut State,
    seat: Seat,
    ship: Ship,
    hits: [u8; 5],
    mods: Vec<u8>,
    rng: &mut GameRng,
    ev: &mut Ev,
) {
    let Some(p) = st.players.get_mut(seat.index()) else {
        return;
    };
    let crew = cur(p, Loc::Crew);
    let old = std::mem::replace(&mut p.mods, mods);
    p.ship = Some(ship);
    p.hits = hits;
    let cap = max_loc(d, p, Loc::Crew);
    set_cur(p, Loc::Crew, crew.min(cap));
    let mut dropped = Vec::new();
    while !p.in_port && p.cargo.len() > usize::from(cur(p, Loc::Cargo)) {
        let i = rng.index(p.cargo.len());
        dropped.push(p.cargo.remove(i));
    }
    st.cargo_discard.extend(dropped.iter().copied());
    ev.push(Logged::public(Event::ShipCaptured { seat, ship }));
    if !dropped.is_empty() {
        ev.push(Logged::public(Event::CargoDiscarded {
            seat,
            cards: dropped,
        }));
    }
    owe_mods(st, seat, old, true);
}

/// A rumor's reward chosen among its options (D-RUM).
#[allow(clippy::too_many_arguments)]
fn pick(
    d: &Data,
    st: &mut State,
    seat: Seat,
    what: super::state::PickWhat,
    options: &[u8],
    option: u8,
    rng: &mut GameRng,
    ev: &mut Ev,
) -> R<()> {
    use super::state::PickWhat;
    if !options.contains(&option) {
        return Err(no("MM-RUM-3", "Pick one of the listed options."));
    }
    st.stack.pop();
    match what {
        PickWhat::GloryKeep => {
            let rest: Vec<u8> = options.iter().filter(|c| **c != option).copied().collect();
            st.glory_discard.extend(rest);
            let p = player_mut(st, seat)?;
            p.glory_hand.push(option);
            ev.push(Logged::public(Event::GloryDrawn { seat }));
            ev.push(only(seat, Event::GloryCard { seat, card: option }));
        }
        PickWhat::FreeMod => {
            let token = st.mod_tokens.get(usize::from(option)).copied().flatten();
            let Some(t) = token else {
                return Err(no("MM-RUM-3", "That port has no modification token."));
            };
            // A face-down token is revealed; "if legal" (D-RUM): one of a kind the ship has
            // stays at its port, face-up.
            if !t.face_up {
                if let Some(Some(x)) = st.mod_tokens.get_mut(usize::from(option)) {
                    x.face_up = true;
                }
                ev.push(Logged::public(Event::ModRevealed {
                    zone: option,
                    kind: t.kind,
                }));
            }
            if !st.player(seat).is_some_and(|p| p.mods.contains(&t.kind)) {
                install_mod(d, st, seat, option, t.kind, ev)?;
            }
        }
        PickWhat::Pardon => {
            let Some(n) = Nation::ALL.get(usize::from(option)).copied() else {
                return Err(no("MM-RUM-3", "No such nation."));
            };
            lose_bounty(st, seat, n, ev);
        }
        PickWhat::Weapon => {
            if let Some(s) = st.weapon_supply.get_mut(usize::from(option)) {
                *s = s.saturating_sub(1);
            }
            player_mut(st, seat)?.weapons.push(option);
            ev.push(Logged::public(Event::WeaponBought { seat, kind: option }));
        }
    }
    let _ = rng;
    Ok(())
}

/// One bounty level of `n` removed (EVT-29, RUM-09, GLY-12).
fn lose_bounty(st: &mut State, seat: Seat, n: Nation, ev: &mut Ev) {
    if let Some(p) = st.players.get_mut(seat.index())
        && let Some(b) = p.bounty.get_mut(n.index())
    {
        *b = b.saturating_sub(1);
        ev.push(Logged::public(Event::Bounty {
            seat,
            nation: n,
            level: *b,
        }));
    }
}

/// The port's token on the seat's ship (MM-YARD-10/11).
fn install_mod(d: &Data, st: &mut State, seat: Seat, zone: ZoneId, kind: u8, ev: &mut Ev) -> R<()> {
    let loc = d.modifications.get(usize::from(kind)).map(|m| m.location);
    let q = player_mut(st, seat)?;
    q.mods.push(kind);
    // MM-YARD-11: Hull, Masts, Cannons, Cargo rise now; Hammocks only the maximum.
    if let Some(l @ (Loc::Hull | Loc::Masts | Loc::Cannons | Loc::Cargo)) = loc {
        let v = cur(q, l) + 1;
        set_cur(q, l, v);
    }
    if let Some(slot) = st.mod_tokens.get_mut(usize::from(zone)) {
        *slot = None;
    }
    forget_port(st, zone);
    ev.push(Logged::public(Event::Modified { seat, kind }));
    Ok(())
}

/// MM-YARD-5: one owed token placed face-down in a port without one.
fn place(d: &Data, st: &mut State, seat: Seat, kinds: &[u8], to: ZoneId, ev: &mut Ev) -> R<()> {
    let empty_port = d.zones.get(usize::from(to)).is_some_and(|z| z.port)
        && st
            .mod_tokens
            .get(usize::from(to))
            .is_some_and(Option::is_none);
    if !empty_port {
        return Err(no("MM-YARD-5", "Place the token in a port that has none."));
    }
    let Some((&kind, rest)) = kinds.split_first() else {
        return Err(no("MM-YARD-5", "No token is owed."));
    };
    if let Some(slot) = st.mod_tokens.get_mut(usize::from(to)) {
        *slot = Some(ModToken {
            kind,
            face_up: false,
        });
    }
    forget_port(st, to);
    player_mut(st, seat)?.placed.push(to);
    ev.push(Logged::public(Event::ModPlaced { zone: to }));
    st.stack.pop();
    if !rest.is_empty() {
        st.stack.push(Frame::Place {
            seat,
            kinds: rest.to_vec(),
        });
    }
    Ok(())
}

fn choose_ship(
    d: &Data,
    st: &mut State,
    seats: SeatSet,
    seat: Seat,
    ship: Ship,
    rng: &mut GameRng,
    ev: &mut Ev,
) -> R<()> {
    if !d.ship(ship).start {
        return Err(no("MM-SETUP-9", "Choose a Sloop or a Flute."));
    }
    let p = st
        .players
        .get_mut(seat.index())
        .ok_or_else(|| no("MM-SETUP-9", "No such seat."))?;
    if p.sealed.is_some() {
        return Err(no("MM-SETUP-9", "Your choice is already sealed."));
    }
    p.sealed = Some(ship);
    ev.push(Logged::public(Event::ShipSealed { seat }));
    if seats
        .iter()
        .any(|s| st.player(s).is_some_and(|p| p.sealed.is_none()))
    {
        return Ok(());
    }
    // Everyone has chosen: reveal together (MM-SETUP-9..12).
    for s in seats.iter() {
        let Some(p) = st.players.get_mut(s.index()) else {
            continue;
        };
        let Some(ship) = p.sealed.take() else {
            continue;
        };
        p.ship = Some(ship);
        p.mods.clear();
        for l in Loc::HITS {
            set_cur(p, l, max_of(d, ship, &[], l));
        }
        p.zone = home_zone(d, p).unwrap_or(0);
        p.in_port = true;
        p.revealed = true;
        let (captain, zone) = (captain_name(d, p.captain), p.zone);
        ev.push(Logged::public(Event::Revealed {
            seat: s,
            captain,
            ship,
            zone,
        }));
    }
    st.stack.pop();
    if st.round == 0 {
        // MM-SETUP-14: a random first player for the whole game.
        st.first = Seat(u8::try_from(rng.index(usize::from(st.seats))).unwrap_or(0));
        ev.push(Logged::public(Event::FirstPlayer { seat: st.first }));
    }
    Ok(())
}

pub(super) fn player_mut(st: &mut State, seat: Seat) -> R<&mut Player> {
    st.players
        .get_mut(seat.index())
        .ok_or_else(|| no("MM-ACT-1", "No such seat."))
}

/// A movement spends a GLY-07 extra Move first, else an action.
fn use_move(st: &mut State) {
    if let Some(Frame::Turn {
        bonus_moves,
        started,
        ..
    }) = st.stack.last_mut()
        && *bonus_moves > 0
    {
        *bonus_moves -= 1;
        *started = true;
        return;
    }
    use_action(st, false);
}

pub(super) fn use_action(st: &mut State, port: bool) {
    if let Some(Frame::Turn {
        actions_left,
        port_used,
        started,
        ..
    }) = st.stack.last_mut()
    {
        *actions_left = actions_left.saturating_sub(1);
        *port_used |= port;
        *started = true;
    }
}

fn distinct_owned(cards: &[CargoId], owned: &[CargoId]) -> bool {
    cards
        .iter()
        .enumerate()
        .all(|(i, c)| owned.contains(c) && !cards.get(..i).is_some_and(|b| b.contains(c)))
}

fn turn_action(
    d: &Data,
    st: &mut State,
    seat: Seat,
    a: &Action,
    rng: &mut GameRng,
    ev: &mut Ev,
) -> R<()> {
    let Some(Frame::Turn {
        actions_left,
        port_used,
        started,
        free_move,
        pardoned,
        bonus_moves,
        ..
    }) = st.stack.last().cloned()
    else {
        return Err(no("MM-ACT-1", "Not your turn."));
    };
    if matches!(a, Action::End) {
        st.stack.pop();
        end_of_turn(d, st, seat, ev);
        return Ok(());
    }
    // TW1 and EVT-29: before the first action, and taking none.
    match a {
        Action::Play { card, cargo: None } => {
            let listed = st.player(seat).and_then(|p| listed_copy(d, p, *card));
            if started || !listed.is_some_and(|c| super::legal::tw1_cards(d, st, seat).contains(&c))
            {
                return Err(no(
                    "MM-GCARD-5",
                    "A start-of-turn tactic is played before your first action.",
                ));
            }
            let effect = d
                .glory_card(*card)
                .map(|g| g.effect.clone())
                .unwrap_or_default();
            let q = player_mut(st, seat)?;
            q.glory_hand.retain(|c| c != card);
            if effect == "windfall" {
                q.gold += 5;
            }
            st.glory_discard.push(*card);
            ev.push(Logged::public(Event::GloryPlayed { seat, card: *card }));
            if effect == "extra_move"
                && let Some(Frame::Turn { bonus_moves, .. }) = st.stack.last_mut()
            {
                *bonus_moves += 1;
            }
            return Ok(());
        }
        Action::Pardon { nation } => {
            let p = st
                .player(seat)
                .cloned()
                .ok_or_else(|| no("EVT-29", "No such seat."))?;
            let ok = !started
                && !pardoned
                && st.round_effects.iter().any(|e| e == "pardon")
                && p.gold >= 5
                && p.bounty.get(nation.index()).is_some_and(|b| *b > 0);
            if !ok {
                return Err(no(
                    "EVT-29",
                    "At the start of your turn, once, pay 5 gold to lose a bounty level you have.",
                ));
            }
            player_mut(st, seat)?.gold -= 5;
            lose_bounty(st, seat, *nation, ev);
            if let Some(Frame::Turn { pardoned, .. }) = st.stack.last_mut() {
                *pardoned = true;
            }
            return Ok(());
        }
        _ => {}
    }
    let moving = matches!(
        a,
        Action::Move { .. } | Action::Enter | Action::Leave { .. }
    );
    if actions_left == 0 && !(moving && bonus_moves > 0) {
        return Err(no("MM-ACT-1", "You have taken your three actions."));
    }
    let p = st
        .player(seat)
        .cloned()
        .ok_or_else(|| no("MM-ACT-1", "No such seat."))?;
    match a {
        Action::Move { to } => {
            if p.in_port {
                return Err(no(
                    "MM-MOVE-1",
                    "Leave port first: a Move from a port goes out to its sea zone.",
                ));
            }
            if !d.neighbours(p.zone).contains(to) {
                return Err(no("MM-MOVE-1", "That sea zone is not adjacent."));
            }
            let q = player_mut(st, seat)?;
            q.zone = *to;
            ev.push(Logged::public(Event::Moved {
                seat,
                zone: *to,
                in_port: false,
            }));
            // D-ZONE MAR: the first Move out of this zone each turn costs no action.
            let free =
                !free_move && super::data::verb(d.zone_rules(p.zone), "free_move_out").is_some();
            if free {
                if let Some(Frame::Turn {
                    free_move, started, ..
                }) = st.stack.last_mut()
                {
                    *free_move = true;
                    *started = true;
                }
            } else {
                use_move(st);
            }
            // D-ZONE SJU: the fort fires at a captain with a bounty of its nation.
            if let Some(guns) = super::data::verb_number(d.zone_rules(*to), "fort")
                && zone_nation(d, *to)
                    .is_some_and(|n| p.bounty.get(n.index()).is_some_and(|b| *b > 0))
            {
                let got = roll(
                    d,
                    rng,
                    u8::try_from(guns).unwrap_or(0),
                    None,
                    "fort guns (D-ZONE)",
                    ev,
                );
                for _ in 0..got {
                    if !sunk(st, seat) {
                        hit(d, st, seat, Some(Loc::Hull), rng, ev);
                    }
                }
                if sunk(st, seat) {
                    die(d, st, seat, rng, ev);
                    return Ok(());
                }
            }
            // MM-MOVE-2 / MM-NPC-7: entering a hunting NPC's zone.
            super::combat::npc_hunt(d, st, seat, rng, ev);
            Ok(())
        }
        Action::Enter => {
            if p.in_port {
                return Err(no("MM-MOVE-1", "You are already in port."));
            }
            if !d.zones.get(usize::from(p.zone)).is_some_and(|z| z.port) {
                return Err(no("MM-MOVE-1", "This sea zone has no port."));
            }
            player_mut(st, seat)?.in_port = true;
            ev.push(Logged::public(Event::Moved {
                seat,
                zone: p.zone,
                in_port: true,
            }));
            use_move(st);
            Ok(())
        }
        Action::Leave { drop } => {
            if !p.in_port {
                return Err(no("MM-MOVE-1", "You are not in port."));
            }
            let excess = p
                .cargo
                .len()
                .saturating_sub(usize::from(cur(&p, Loc::Cargo)));
            if !distinct_owned(drop, &p.cargo) || drop.len() != excess {
                return Err(no(
                    "MM-MOVE-3",
                    format!("Leaving port, discard exactly {excess} cargo card(s) of yours."),
                ));
            }
            let q = player_mut(st, seat)?;
            q.cargo.retain(|c| !drop.contains(c));
            q.in_port = false;
            st.cargo_discard.extend(drop.iter().copied());
            if !drop.is_empty() {
                ev.push(Logged::public(Event::CargoDiscarded {
                    seat,
                    cards: drop.clone(),
                }));
            }
            ev.push(Logged::public(Event::Moved {
                seat,
                zone: p.zone,
                in_port: false,
            }));
            use_move(st);
            Ok(())
        }
        Action::Scout { target } => scout(d, st, seat, &p, *target, rng, ev),
        Action::Port => {
            if !p.in_port {
                return Err(no("MM-PORT-1", "The Port action is taken in a port."));
            }
            if port_used {
                return Err(no(
                    "MM-ACT-2",
                    "The Port action is taken at most once per turn.",
                ));
            }
            if locked_out(d, &p) {
                return Err(no("MM-PORT-4", "This port's nation has a bounty on you."));
            }
            // MM-PORT-3: the modification token is revealed.
            if let Some(Some(t)) = st.mod_tokens.get_mut(usize::from(p.zone))
                && !t.face_up
            {
                t.face_up = true;
                ev.push(Logged::public(Event::ModRevealed {
                    zone: p.zone,
                    kind: t.kind,
                }));
            }
            ev.push(Logged::public(Event::PortAction { seat, zone: p.zone }));
            use_action(st, true);
            st.stack.push(Frame::Port {
                seat,
                current: None,
                done: Vec::new(),
            });
            Ok(())
        }
        _ => Err(no(
            "MM-ACT-1",
            format!("`{a}` is not a Move, Scout or Port action."),
        )),
    }
}

fn scout(
    d: &Data,
    st: &mut State,
    seat: Seat,
    p: &Player,
    target: Target,
    rng: &mut GameRng,
    ev: &mut Ev,
) -> R<()> {
    if p.in_port {
        return Err(no("MM-SCOUT-4", "You must be at sea to scout."));
    }
    if p.scouted.contains(&target) {
        return Err(no(
            "MM-ACT-3",
            "You have already scouted that target this turn.",
        ));
    }
    match target {
        Target::Rumor => {
            let here = p
                .rumor
                .and_then(|r| d.rumors.get(usize::from(r)))
                .is_some_and(|r| !r.port && d.zone_index(&r.zone) == Some(p.zone));
            if !here {
                return Err(no(
                    "MM-RUM-2",
                    "Your rumor is not checked at sea in this zone.",
                ));
            }
            player_mut(st, seat)?.scouted.push(target);
            use_action(st, false);
            check_rumor(d, st, seat, rng, ev);
            return Ok(());
        }
        Target::Mission => {
            let Some((m, o)) = scout_mission(d, p) else {
                return Err(no(
                    "MM-MIS-4",
                    "Your mission is not tested with a Scout action in this zone.",
                ));
            };
            player_mut(st, seat)?.scouted.push(target);
            use_action(st, false);
            let s = o.skill.unwrap_or(Skill::Scouting);
            let got = roll(
                d,
                rng,
                test_dice(d, p, s),
                Some(seat),
                "mission objective test (MM-MIS-4)",
                ev,
            );
            if got >= o.n {
                complete_mission(d, st, seat, m, &[], rng, ev);
            }
            return Ok(());
        }
        Target::Merchant => {
            if st
                .merchants
                .get(usize::from(p.zone))
                .copied()
                .flatten()
                .is_none()
            {
                return Err(no(
                    "MM-SCOUT-1",
                    "There is no merchant token in this sea zone.",
                ));
            }
        }
        Target::FarMerchant(z) => {
            let ok = has_power(d, p, "scout_adjacent_merchant").is_some()
                && d.neighbours(p.zone).contains(&z)
                && st
                    .merchants
                    .get(usize::from(z))
                    .copied()
                    .flatten()
                    .is_some();
            if !ok {
                return Err(no(
                    "MM-SCOUT-1",
                    "Only a captain with that ability scouts the merchant of an adjacent zone.",
                ));
            }
        }
        Target::Player(t) => {
            let ok = t != seat && st.player(t).is_some_and(|q| q.at_sea() && q.zone == p.zone);
            if !ok {
                return Err(no(
                    "MM-SCOUT-1",
                    "Scout a captain at sea in your sea zone (never one in port).",
                ));
            }
        }
        Target::Npc(card) => {
            if !st.npcs.iter().any(|n| n.card == card && n.zone == p.zone) {
                return Err(no("MM-SCOUT-1", "That NPC ship is not in your sea zone."));
            }
        }
    }
    player_mut(st, seat)?.scouted.push(target);
    use_action(st, false);
    let found = roll(
        d,
        rng,
        scout_dice(d, st, p, target),
        Some(seat),
        "Scouting (MM-SCOUT-1)",
        ev,
    ) > 0;
    ev.push(Logged::public(Event::Scouted {
        seat,
        target,
        found,
    }));
    // TW2: the target (then the scouting player) may answer the roll.
    let scouter = super::combat::Side::Player(seat);
    let ctx = super::state::WindowCtx::Scout {
        scouter,
        target,
        found,
    };
    if !super::combat::open_window(d, st, 2, ctx, Vec::new()) {
        scout_resolved(d, st, scouter, target, found, ev);
    }
    Ok(())
}

/// The holder's mission objective tested with a Scout action in this zone (MM-MIS-4).
fn scout_mission<'a>(d: &'a Data, p: &Player) -> Option<(u8, &'a super::data::Objective)> {
    let m = p.mission?;
    let o = &d.missions.get(usize::from(m))?.objective;
    (o.kind == "scout_test" && o.at.as_deref().and_then(|z| d.zone_index(z)) == Some(p.zone))
        .then_some((m, o))
}

/// MM-SCOUT-2, once TW2 has closed: a found player or NPC is attacked (the turn waits beneath
/// the combat); a found merchant goes to MM-RAID-1.
pub(super) fn scout_resolved(
    d: &Data,
    st: &mut State,
    scouter: super::combat::Side,
    target: Target,
    found: bool,
    ev: &mut Ev,
) {
    if !found {
        // A Hidden Cove against a hunting NPC's scout ends that trigger's hunt.
        if scouter.seat().is_none() {
            st.hunt = None;
        }
        return;
    }
    let def = match target {
        Target::Player(t) => Some(super::combat::Side::Player(t)),
        Target::Npc(c) => Some(super::combat::Side::Npc(c)),
        _ => None,
    };
    if let Some(def) = def {
        super::combat::start(d, st, scouter, def, ev);
        return;
    }
    let Some(seat) = scouter.seat() else { return };
    let zone = match target {
        Target::FarMerchant(z) => z,
        _ => match st.player(seat) {
            Some(p) => p.zone,
            None => return,
        },
    };
    // MM-RAID-1: the token goes to the track and its nation is revealed.
    if let Some(token) = st
        .merchants
        .get_mut(usize::from(zone))
        .and_then(Option::take)
    {
        st.merchant_track.push(token);
        ev.push(Logged::public(Event::MerchantRevealed {
            zone,
            nation: token,
        }));
        st.stack.push(Frame::MerchantFound { seat, token, zone });
    }
}

fn any_loc_zero(p: &Player) -> bool {
    Loc::HITS.iter().any(|l| cur(p, *l) == 0)
}

#[allow(clippy::too_many_arguments)]
fn raid_as(
    d: &Data,
    st: &mut State,
    seat: Seat,
    token: Nation,
    zone: ZoneId,
    nation: Option<Nation>,
    rng: &mut GameRng,
    ev: &mut Ev,
) -> R<()> {
    let p = st
        .player(seat)
        .cloned()
        .ok_or_else(|| no("MM-RAID-1", "No such seat."))?;
    let Some(nation) = nation else {
        st.stack.pop();
        ev.push(Logged::public(Event::LetGo { seat }));
        return Ok(());
    };
    if nation != token && zone_nation(d, zone) != Some(nation) {
        return Err(no(
            "MM-RAID-1",
            "The merchant is of its token's nation or of the sea zone's nation.",
        ));
    }
    if any_loc_zero(&p) {
        return Err(no(
            "MM-RAID-2",
            "You may not raid with a hit location at 0.",
        ));
    }
    st.stack.pop();
    engage_bounty(d, st, seat, nation, ev);
    let mut count = 3usize;
    if st.round_effects.iter().any(|e| e == "convoys_together") {
        count = 2;
    }
    // D-ZONE HAV: a raid here draws an extra card.
    if super::data::verb(d.zone_rules(zone), "raid_extra_card").is_some() {
        count += 1;
    }
    let cards: Vec<CargoId> = (0..count).filter_map(|_| draw_cargo(st, rng)).collect();
    ev.push(Logged::public(Event::RaidDrew {
        seat,
        cards: cards.clone(),
    }));
    let successes = roll(
        d,
        rng,
        skill(d, &p, Skill::Seamanship),
        Some(seat),
        "raid: Seamanship (MM-RAID-4)",
        ev,
    );
    // CAP-07: the first success may be spent twice.
    let successes = if successes > 0 && has_power(d, &p, "raid_double_first").is_some() {
        successes + 1
    } else {
        successes
    };
    st.stack.push(Frame::Raid {
        seat,
        zone,
        nation,
        cards,
        successes,
    });
    if successes == 0 {
        end_raid(d, st, seat, rng, ev);
    }
    Ok(())
}

fn raid_spend(
    d: &Data,
    st: &mut State,
    seat: Seat,
    a: &Action,
    rng: &mut GameRng,
    ev: &mut Ev,
) -> R<()> {
    if matches!(a, Action::Stop) {
        end_raid(d, st, seat, rng, ev);
        return Ok(());
    }
    let Some(Frame::Raid { cards, .. }) = st.stack.last() else {
        return Err(no("MM-RAID-4", "No raid under way."));
    };
    let held = |c: &CargoId| cards.contains(c);
    let card = match a {
        Action::Discard { card } | Action::Swap { card } => Some(*card),
        _ => None,
    };
    if card.is_some_and(|c| !held(&c)) {
        return Err(no("MM-RAID-4", "That card is not among the raid's cards."));
    }
    let drawn = if matches!(a, Action::Draw | Action::Swap { .. }) {
        draw_cargo(st, rng)
    } else {
        None
    };
    let mut gone = None;
    if let Some(Frame::Raid {
        cards, successes, ..
    }) = st.stack.last_mut()
    {
        if let Some(c) = card {
            cards.retain(|x| *x != c);
            gone = Some(c);
        }
        cards.extend(drawn);
        *successes = successes.saturating_sub(1);
    }
    st.cargo_discard.extend(gone);
    if let Some(c) = drawn {
        ev.push(Logged::public(Event::RaidDrew {
            seat,
            cards: vec![c],
        }));
    }
    if let Some(c) = gone {
        ev.push(Logged::public(Event::CargoDiscarded {
            seat,
            cards: vec![c],
        }));
    }
    if matches!(st.stack.last(), Some(Frame::Raid { successes: 0, .. })) {
        end_raid(d, st, seat, rng, ev);
    }
    Ok(())
}

/// MM-RAID-5..7: resistance icons hit the raider; two or more and the merchant escapes.
fn end_raid(d: &Data, st: &mut State, seat: Seat, rng: &mut GameRng, ev: &mut Ev) {
    let Some(Frame::Raid {
        cards,
        zone,
        nation,
        ..
    }) = st.stack.pop()
    else {
        return;
    };
    let icons: Vec<Loc> = cards
        .iter()
        .filter_map(|c| d.cargo_card(*c).resistance)
        .collect();
    for l in &icons {
        hit(d, st, seat, Some(*l), rng, ev);
    }
    if sunk(st, seat) {
        st.cargo_discard.extend(cards);
        ev.push(Logged::public(Event::RaidEnded {
            seat,
            success: false,
            gold: 0,
        }));
        die(d, st, seat, rng, ev);
        return;
    }
    if icons.len() >= 2 {
        st.cargo_discard.extend(cards);
        ev.push(Logged::public(Event::RaidEnded {
            seat,
            success: false,
            gold: 0,
        }));
        return;
    }
    let mut gold: u32 = cards
        .iter()
        .map(|c| u32::from(d.cargo_card(*c).plunder))
        .sum();
    if st.round_effects.iter().any(|e| e == "rich_convoys") {
        gold += 3;
    }
    // D-ZONE CTG: a successful raid here gains extra gold.
    gold += super::data::verb_number(d.zone_rules(zone), "raid_gold").unwrap_or(0);
    if let Some(p) = st.players.get_mut(seat.index()) {
        p.gold += gold;
    }
    ev.push(Logged::public(Event::RaidEnded {
        seat,
        success: true,
        gold,
    }));
    if gold >= 12 {
        gain_glory(d, st, seat, "MM-RAID-7", rng, ev);
    }
    mission_trigger(d, st, seat, Trigger::Raid(nation), rng, ev);
    st.stack.push(Frame::Keep {
        seat,
        cards,
        secret: false,
    });
}

/// MM-BUY-6 "to make room you may discard old cargo face-up": while buying, and wherever else
/// cards are taken into the hold (the raid's cargo kept at sea, MM-RAID-6, whose excess is
/// discarded at once anyway; a naval ship's plunder, MM-PLUN-2; a defeated captain's cargo,
/// MM-PLUN-1). Only while the hold, not the gold, limits the taking; the card goes face up to
/// the cargo discard (public), the rest of the hold stays hidden, and the decision stays open.
fn discard_cargo(d: &Data, st: &mut State, seat: Seat, card: CargoId, ev: &mut Ev) -> R<()> {
    let rule = match st.top() {
        Some(Frame::Keep { .. }) => "MM-RAID-6",
        Some(Frame::Plunder { .. }) => "MM-PLUN-1",
        _ => "MM-BUY-6",
    };
    if !st.player(seat).is_some_and(|p| p.cargo.contains(&card)) {
        return Err(no(rule, "Discard a cargo card you hold."));
    }
    if !super::legal::hold_limits(d, st, seat) {
        return Err(no(
            rule,
            "Old cargo is discarded only to make room: your hold already takes all you can.",
        ));
    }
    player_mut(st, seat)?.cargo.retain(|c| *c != card);
    st.cargo_discard.push(card);
    ev.push(Logged::public(Event::CargoDiscarded {
        seat,
        cards: vec![card],
    }));
    Ok(())
}

fn keep(
    d: &Data,
    st: &mut State,
    seat: Seat,
    offered: &[CargoId],
    chosen: &[CargoId],
    ev: &mut Ev,
) -> R<()> {
    let p = st
        .player(seat)
        .cloned()
        .ok_or_else(|| no("MM-RAID-6", "No such seat."))?;
    if !distinct_owned(chosen, offered) {
        return Err(no("MM-RAID-6", "Keep only cards of this raid, each once."));
    }
    let cap = if p.in_port {
        port_capacity(d, &p)
    } else {
        usize::from(cur(&p, Loc::Cargo))
    };
    if p.cargo.len() + chosen.len() > cap {
        return Err(no(
            "MM-RAID-6",
            format!(
                "Your hold takes {} more card(s).",
                cap.saturating_sub(p.cargo.len())
            ),
        ));
    }
    player_mut(st, seat)?.cargo.extend(chosen.iter().copied());
    let rest: Vec<CargoId> = offered
        .iter()
        .filter(|c| !chosen.contains(c))
        .copied()
        .collect();
    st.cargo_discard.extend(rest.iter().copied());
    ev.push(Logged::public(Event::CargoKept {
        seat,
        count: u8::try_from(chosen.len()).unwrap_or(0),
    }));
    if !rest.is_empty() {
        ev.push(Logged::public(Event::CargoDiscarded { seat, cards: rest }));
    }
    st.stack.pop();
    Ok(())
}

fn activity_of(a: &Action) -> Option<Activity> {
    Some(match a {
        Action::Sell { .. } => Activity::Sell,
        Action::Buy => Activity::Buy,
        Action::Yard { .. }
        | Action::Repair { .. }
        | Action::Modify
        | Action::Weapon { .. }
        | Action::Resell { .. } => Activity::Shipyard,
        Action::Recruit | Action::Employ { .. } => Activity::Recruit,
        Action::Rumor => Activity::Rumor,
        Action::Claim => Activity::Mission,
        Action::Check => Activity::CheckRumor,
        Action::Stash { .. } => Activity::Stash,
        _ => return None,
    })
}

/// EVT-33 "Shipyard fire": no Shipyard activity this round in the ports of the nation drawn.
pub(super) fn shipyard_burned(d: &Data, st: &State, zone: ZoneId) -> bool {
    zone_nation(d, zone).is_some_and(|n| st.round_effects.contains(&format!("shipyard_fire:{n}")))
}

#[allow(clippy::too_many_arguments)]
fn port_activity(
    d: &Data,
    st: &mut State,
    seat: Seat,
    current: Option<Activity>,
    done: Vec<Activity>,
    a: &Action,
    rng: &mut GameRng,
    ev: &mut Ev,
) -> R<()> {
    if matches!(a, Action::Done) {
        st.stack.pop();
        return Ok(());
    }
    if let Action::Play { card, cargo } = a {
        return port_tactic(d, st, seat, *card, *cargo, ev);
    }
    let Some(act) = activity_of(a) else {
        return Err(no(
            "MM-PORT-1",
            format!("`{a}` is not a port activity; `done` ends the Port action."),
        ));
    };
    // MM-PORT-2: selling first; each activity once, finished before the next.
    if act == Activity::Sell && (current.is_some() || !done.is_empty()) {
        return Err(no("MM-PORT-2", "Selling must be the first activity."));
    }
    // Employing specialists belongs to the Recruit activity under way (MM-GCARD-4).
    let employing = matches!(a, Action::Employ { .. })
        && (current == Some(Activity::Recruit) || !done.contains(&Activity::Recruit));
    // The Recruit activity is under way but not done while only specialists were employed:
    // its Leadership roll may still follow (MM-RECR-2), once.
    let again = current == Some(act) && !matches!(act, Activity::Shipyard | Activity::Recruit);
    if !employing && (done.contains(&act) || again) {
        return Err(no(
            "MM-PORT-2",
            "Each activity at most once per Port action.",
        ));
    }
    let p = st
        .player(seat)
        .cloned()
        .ok_or_else(|| no("MM-PORT-1", "No such seat."))?;
    let zone = p.zone;
    // EVT-33: the whole Shipyard activity is unavailable (ships, repairs, modifications,
    // special weapons), not repairs alone.
    if act == Activity::Shipyard && shipyard_burned(d, st, zone) {
        return Err(no(
            "EVT-33",
            "The shipyards of this port's nation burned this round: no Shipyard activity.",
        ));
    }
    match a {
        Action::Sell { cards } => sell(d, st, seat, &p, cards, rng, ev)?,
        Action::Buy => {
            let same = p.last_buy == Some((zone, st.round.saturating_sub(1)));
            let size = if same {
                d.prices.offer_same_port
            } else {
                d.prices.offer
            };
            // D-ZONE SMA and CAP-12: extra cards in the offer.
            let extra = super::data::verb_number(d.zone_rules(zone), "buy_extra").unwrap_or(0)
                + has_power(d, &p, "buy_extra").map_or(0, |v| v.parse().unwrap_or(1));
            let size = size.saturating_add(u8::try_from(extra).unwrap_or(0));
            let demand = st.demand.get(usize::from(zone)).copied().flatten();
            let mut offer = Vec::new();
            // MM-BUY-1/2: draw, then replace every card of the good in demand.
            let mut guard = usize::from(d.cargo_cards()) * 2;
            while offer.len() < usize::from(size) && guard > 0 {
                guard -= 1;
                let Some(c) = draw_cargo(st, rng) else { break };
                if Some(d.cargo_card(c).good) == demand {
                    st.cargo_discard.push(c);
                    ev.push(Logged::public(Event::CargoDiscarded {
                        seat,
                        cards: vec![c],
                    }));
                } else {
                    offer.push(c);
                }
            }
            ev.push(Logged::public(Event::OfferDrawn {
                seat,
                count: u8::try_from(offer.len()).unwrap_or(0),
            }));
            ev.push(only(
                seat,
                Event::Offer {
                    seat,
                    cards: offer.clone(),
                },
            ));
            st.stack.push(Frame::Offer { seat, cards: offer });
        }
        Action::Yard { ship } => yard(d, st, seat, &p, *ship, rng, ev)?,
        Action::Repair { locs } => {
            let mut q = p.clone();
            for l in locs {
                if matches!(l, Loc::Crew | Loc::Maneuver) {
                    return Err(no("MM-YARD-9", "Crew cannot be repaired; recruit it."));
                }
                if cur(&q, *l) >= max_loc(d, &q, *l) {
                    return Err(no("MM-YARD-9", "Repair only damaged points."));
                }
                let v = cur(&q, *l) + 1;
                set_cur(&mut q, *l, v);
            }
            let each = repair_price(d, &p);
            let cost = each * u32::try_from(locs.len()).unwrap_or(u32::MAX);
            if locs.is_empty() || cost > purse(d, &q) {
                return Err(no(
                    "MM-YARD-9",
                    format!("Repairs cost {each} gold per point."),
                ));
            }
            *player_mut(st, seat)? = q;
            spend(d, st, seat, cost, ev)?;
            ev.push(Logged::public(Event::Repaired {
                seat,
                locs: locs.clone(),
                gold: cost,
            }));
        }
        Action::Modify => {
            let token = st.mod_tokens.get(usize::from(zone)).copied().flatten();
            let Some(t) = token else {
                return Err(no("MM-YARD-10", "This port has no modification token."));
            };
            if p.mods.contains(&t.kind) {
                return Err(no(
                    "MM-YARD-10",
                    "Your ship already has a modification of that type.",
                ));
            }
            let price = mod_price(d, zone);
            if purse(d, &p) < price {
                return Err(no(
                    "MM-YARD-10",
                    format!("A modification costs {price} gold."),
                ));
            }
            spend(d, st, seat, price, ev)?;
            install_mod(d, st, seat, zone, t.kind, ev)?;
        }
        Action::Weapon { kind } => {
            if st
                .weapon_supply
                .get(usize::from(*kind))
                .copied()
                .unwrap_or(0)
                == 0
            {
                return Err(no("MM-YARD-12", "No token of that weapon is left."));
            }
            if p.weapons.contains(kind) {
                return Err(no("MM-YARD-12", "At most one of each weapon per ship."));
            }
            let price = weapon_price(d, zone);
            if purse(d, &p) < price {
                return Err(no(
                    "MM-YARD-12",
                    format!("A special weapon costs {price} gold."),
                ));
            }
            spend(d, st, seat, price, ev)?;
            player_mut(st, seat)?.weapons.push(*kind);
            if let Some(s) = st.weapon_supply.get_mut(usize::from(*kind)) {
                *s -= 1;
            }
            ev.push(Logged::public(Event::WeaponBought { seat, kind: *kind }));
        }
        Action::Resell { kind } => {
            if !p.weapons.contains(kind) {
                return Err(no("MM-YARD-12", "Sell back a special weapon you hold."));
            }
            let q = player_mut(st, seat)?;
            q.weapons.retain(|k| k != kind);
            q.gold += d.prices.weapon_resale;
            if let Some(s) = st.weapon_supply.get_mut(usize::from(*kind)) {
                *s += 1;
            }
            ev.push(Logged::public(Event::WeaponSold {
                seat,
                kind: *kind,
                gold: d.prices.weapon_resale,
            }));
        }
        Action::Employ { card } => {
            let hire = d.glory_card(*card).and_then(|g| g.hire);
            let Some(cost) = hire.filter(|_| p.glory_hand.contains(card)) else {
                return Err(no(
                    "MM-GCARD-4",
                    "Employ a specialist from your glory hand.",
                ));
            };
            if p.specialists.len() >= 2 || purse(d, &p) < cost {
                return Err(no(
                    "MM-GCARD-4",
                    format!("At most 2 specialists per ship; this one costs {cost} gold."),
                ));
            }
            spend(d, st, seat, cost, ev)?;
            let q = player_mut(st, seat)?;
            q.glory_hand.retain(|c| c != card);
            q.specialists.push(*card);
            ev.push(Logged::public(Event::Employed {
                seat,
                card: *card,
                gold: cost,
            }));
        }
        Action::Recruit => {
            let max = max_loc(d, &p, Loc::Crew);
            if cur(&p, Loc::Crew) >= max {
                return Err(no("MM-RECR-1", "Your crew is full."));
            }
            // CAP-08: recruiting always succeeds in its nation's ports.
            let sure = has_power(d, &p, "recruit_in")
                .is_some_and(|n| zone_nation(d, zone).is_some_and(|z| z.to_string() == n));
            let free = sure
                || st.round_effects.iter().any(|e| e == "press_gangs")
                || roll(
                    d,
                    rng,
                    skill(d, &p, Skill::Leadership),
                    Some(seat),
                    "Leadership (MM-RECR-1)",
                    ev,
                ) > 0;
            if free {
                let gained = max - cur(&p, Loc::Crew);
                set_cur(player_mut(st, seat)?, Loc::Crew, max);
                ev.push(Logged::public(Event::Recruited {
                    seat,
                    crew: gained,
                    gold: 0,
                }));
            } else if purse(d, &p) >= hire_price(d, zone) {
                st.stack.push(Frame::Hire { seat });
            }
        }
        Action::Rumor => {
            let cost = rumor_price(d, &p);
            if purse(d, &p) < cost {
                return Err(no("MM-RUM-1", format!("A rumor costs {cost} gold.")));
            }
            if st.rumor_deck.is_empty() && st.rumor_discard.is_empty() {
                return Err(no("MM-RUM-1", "No rumor card is left."));
            }
            spend(d, st, seat, cost, ev)?;
            // MM-RUM-1: one rumor at most; the old one is discarded first, whatever the roll.
            if let Some(old) = player_mut(st, seat)?.rumor.take() {
                st.rumor_discard.push(old);
            }
            let ok = st.round_effects.iter().any(|e| e == "tavern_talk")
                || roll(
                    d,
                    rng,
                    influence_dice(d, &p),
                    Some(seat),
                    "Influence (MM-RUM-1)",
                    ev,
                ) > 0;
            if ok {
                if st.rumor_deck.is_empty() {
                    st.rumor_deck = std::mem::take(&mut st.rumor_discard);
                    rng.shuffle(&mut st.rumor_deck);
                }
                if let Some(r) = st.rumor_deck.pop() {
                    player_mut(st, seat)?.rumor = Some(r);
                    ev.push(Logged::public(Event::RumorTaken { seat }));
                    let id = d
                        .rumors
                        .get(usize::from(r))
                        .map_or_else(String::new, |x| x.id.clone());
                    ev.push(only(seat, Event::RumorCard { seat, rumor: id }));
                }
            }
        }
        Action::Check => {
            let here = p
                .rumor
                .and_then(|r| d.rumors.get(usize::from(r)))
                .is_some_and(|r| r.port && d.zone_index(&r.zone) == Some(zone));
            if !here {
                return Err(no("MM-RUM-2", "Your rumor is not checked in this port."));
            }
            check_rumor(d, st, seat, rng, ev);
        }
        Action::Claim => {
            if p.mission.is_some() {
                return Err(no("MM-MIS-2", "A captain holds at most one mission."));
            }
            let here = st.missions_open.iter().copied().find(|m| {
                d.missions
                    .get(usize::from(*m))
                    .and_then(|r| d.zone_index(&r.zone))
                    == Some(zone)
            });
            let Some(m) = here else {
                return Err(no("MM-MIS-1", "No open mission lies in this sea zone."));
            };
            let Some(row) = d.missions.get(usize::from(m)) else {
                return Err(no("MM-MIS-1", "Unknown mission."));
            };
            // CAP-04: +1 die on claim tests.
            let dice =
                test_dice(d, &p, row.skill) + u8::from(has_power(d, &p, "mission_die").is_some());
            let got = roll(
                d,
                rng,
                dice,
                Some(seat),
                "mission claim test (MM-MIS-1)",
                ev,
            );
            if got >= row.need {
                st.missions_open.retain(|x| *x != m);
                player_mut(st, seat)?.mission = Some(m);
                ev.push(Logged::public(Event::MissionClaimed {
                    seat,
                    mission: row.id.clone(),
                }));
                open_mission(d, st, ev);
            }
        }
        Action::Stash { amount } => {
            if home_zone(d, &p) != Some(zone) {
                return Err(no(
                    "MM-STASH-1",
                    "Gold is stashed only in your captain's home port.",
                ));
            }
            let mag = u32::try_from(amount.unsigned_abs()).unwrap_or(u32::MAX);
            let ok = *amount != 0
                && if *amount > 0 {
                    mag <= p.gold
                } else {
                    mag <= p.stash
                };
            if !ok {
                return Err(no(
                    "MM-STASH-1",
                    "Move an amount you have, one way or the other.",
                ));
            }
            let q = player_mut(st, seat)?;
            if *amount > 0 {
                q.gold -= mag;
                q.stash += mag;
            } else {
                q.stash -= mag;
                q.gold += mag;
            }
            let stash = q.stash;
            ev.push(Logged::public(Event::StashVisited { seat }));
            ev.push(only(
                seat,
                Event::Stashed {
                    seat,
                    amount: *amount,
                    stash,
                },
            ));
            // MM-STASH-5: no glory card for secret points; the target may be reached.
            announce_target(d, st, seat, ev);
        }
        _ => return Err(no("MM-PORT-1", "Not a port activity.")),
    }
    // The Port frame is under any sub-frame just pushed: record the activity there.
    for f in st.stack.iter_mut().rev() {
        if let Frame::Port {
            current: c,
            done: dn,
            seat: s,
        } = f
            && *s == seat
        {
            if let Some(prev) = c.take()
                && prev != act
                && !dn.contains(&prev)
            {
                dn.push(prev);
            }
            *c = Some(act);
            // Employing a specialist happens inside Recruit (MM-RECR-2, MM-GCARD-4) and does not
            // finish it: the Recruit roll may still come; the Shipyard takes several purchases.
            let employed = matches!(a, Action::Employ { .. });
            if act != Activity::Shipyard && !employed && !dn.contains(&act) {
                dn.push(act);
            }
            break;
        }
    }
    Ok(())
}

fn sell(
    d: &Data,
    st: &mut State,
    seat: Seat,
    p: &Player,
    cards: &[CargoId],
    rng: &mut GameRng,
    ev: &mut Ev,
) -> R<()> {
    if cards.is_empty() || !distinct_owned(cards, &p.cargo) {
        return Err(no("MM-SELL-1", "Sell cards you hold, each once."));
    }
    let demand = st.demand.get(usize::from(p.zone)).copied().flatten();
    let glut = st.round_effects.iter().any(|e| e == "glut");
    let rules = d.zone_rules(p.zone);
    // D-ZONE BAR: a good that always sells as in demand here (the token stays).
    let always = super::data::verb(rules, "always_demand").and_then(|g| d.good_index(g));
    let token_sold = cards.iter().any(|c| Some(d.cargo_card(*c).good) == demand);
    let in_demand = cards
        .iter()
        .filter(|c| {
            let g = Some(d.cargo_card(**c).good);
            g == demand || g == always
        })
        .count();
    let mut per_demand = if glut {
        d.prices.sell_demand.saturating_sub(1)
    } else {
        d.prices.sell_demand
    };
    // CAP-09: more per in-demand card.
    per_demand += has_power(d, p, "sell_demand_bonus").map_or(0, |v| v.parse().unwrap_or(1));
    let others = cards.len() - in_demand;
    let mut gold = per_demand * u32::try_from(in_demand).unwrap_or(0)
        + d.prices.sell * u32::try_from(others).unwrap_or(0);
    // D-ZONE PGV: one card not in demand sells for more.
    if others > 0
        && let Some(price) = super::data::verb_number(rules, "smuggle_sell")
    {
        gold += price.saturating_sub(d.prices.sell.min(price));
    }
    let q = player_mut(st, seat)?;
    q.cargo.retain(|c| !cards.contains(c));
    q.gold += gold;
    st.cargo_discard.extend(cards.iter().copied());
    ev.push(Logged::public(Event::Sold {
        seat,
        cards: cards.to_vec(),
        gold,
    }));
    if token_sold {
        replace_demand(st, p.zone, rng, ev);
    }
    // MM-SELL-3: three or more cards of *the* in-demand good. At BAR Sugar is an in-demand good
    // of its own beside the token's; the two are not added together.
    let of_good = |g: Option<u8>| {
        cards
            .iter()
            .filter(|c| g.is_some() && Some(d.cargo_card(**c).good) == g)
            .count()
    };
    if of_good(demand).max(of_good(always)) >= 3 {
        gain_glory(d, st, seat, "MM-SELL-3", rng, ev);
        // CAP-16: a big sale also draws a glory card.
        if has_power(d, p, "big_sale_glory_card").is_some() {
            draw_glory_card(d, st, seat, rng, ev);
        }
    }
    Ok(())
}

/// MM-BUY-3 (D-PRICE): the price of each card of the offer.
pub fn offer_prices(d: &Data, zone: ZoneId, offer: &[CargoId]) -> Vec<u32> {
    // D-ZONE CUR: goods appearing exactly twice cost less (at least 1).
    let twice = super::data::verb_number(d.zone_rules(zone), "twice_discount").unwrap_or(0);
    offer
        .iter()
        .map(|c| {
            let good = d.cargo_card(*c).good;
            let n = offer
                .iter()
                .filter(|o| d.cargo_card(**o).good == good)
                .count();
            let i = n.clamp(1, d.prices.buy_by_count.len()) - 1;
            let price = d.prices.buy_by_count.get(i).copied().unwrap_or(1);
            if n == 2 {
                price.saturating_sub(twice).max(1)
            } else {
                price
            }
        })
        .collect()
}

fn take(
    d: &Data,
    st: &mut State,
    seat: Seat,
    offer: &[CargoId],
    chosen: &[CargoId],
    ev: &mut Ev,
) -> R<()> {
    let p = st
        .player(seat)
        .cloned()
        .ok_or_else(|| no("MM-BUY-4", "No such seat."))?;
    if !distinct_owned(chosen, offer) {
        return Err(no("MM-BUY-4", "Take only cards of your offer, each once."));
    }
    let prices = offer_prices(d, p.zone, offer);
    let cost: u32 = offer
        .iter()
        .zip(&prices)
        .filter(|(c, _)| chosen.contains(c))
        .map(|(_, p)| *p)
        .sum();
    if cost > purse(d, &p) {
        return Err(no(
            "MM-BUY-3",
            format!("These cards cost {cost} gold; you have {}.", purse(d, &p)),
        ));
    }
    let cap = port_capacity(d, &p);
    if p.cargo.len() + chosen.len() > cap {
        return Err(no(
            "MM-BUY-8",
            format!("In port you may hold {cap} cargo cards."),
        ));
    }
    let round = st.round;
    spend(d, st, seat, cost, ev)?;
    let q = player_mut(st, seat)?;
    q.cargo.extend(chosen.iter().copied());
    if !chosen.is_empty() {
        q.last_buy = Some((q.zone, round));
    }
    let rest: Vec<CargoId> = offer
        .iter()
        .filter(|c| !chosen.contains(c))
        .copied()
        .collect();
    st.cargo_discard.extend(rest.iter().copied());
    ev.push(Logged::public(Event::Bought {
        seat,
        count: u8::try_from(chosen.len()).unwrap_or(0),
        gold: cost,
    }));
    if !rest.is_empty() {
        ev.push(Logged::public(Event::CargoDiscarded { seat, cards: rest }));
    }
    st.stack.pop();
    Ok(())
}

/// MM-YARD-3: what the current ship sells for.
pub fn sale_price(d: &Data, p: &Player) -> u32 {
    let Some(ship) = p.ship else { return 0 };
    let t = d.ship(ship);
    if !t.for_sale {
        return 0;
    }
    let damage: u32 = [Loc::Hull, Loc::Masts, Loc::Cannons, Loc::Cargo]
        .iter()
        .map(|l| u32::from(max_loc(d, p, *l).saturating_sub(cur(p, *l))))
        .sum();
    (t.sell + u32::try_from(p.mods.len()).unwrap_or(0)).saturating_sub(damage)
}

fn yard(
    d: &Data,
    st: &mut State,
    seat: Seat,
    p: &Player,
    ship: Ship,
    rng: &mut GameRng,
    ev: &mut Ev,
) -> R<()> {
    let t = d.ship(ship);
    if !t.for_sale {
        return Err(no("MM-YARD-7", "A Man-o-War cannot be bought."));
    }
    let sale = sale_price(d, p);
    if purse(d, p) + sale < t.buy {
        return Err(no(
            "MM-YARD-2",
            format!(
                "The {} costs {}; your ship sells for {sale}.",
                t.name, t.buy
            ),
        ));
    }
    let big = t.big && !p.big_ship_glory;
    player_mut(st, seat)?.gold += sale;
    spend(d, st, seat, t.buy, ev)?;
    let q = player_mut(st, seat)?;
    let crew = cur(q, Loc::Crew);
    let mods = std::mem::take(&mut q.mods);
    q.ship = Some(ship);
    for l in Loc::HITS {
        set_cur(q, l, max_of(d, ship, &[], l));
    }
    // MM-YARD-4: crew moves over, capped.
    set_cur(q, Loc::Crew, crew.min(max_of(d, ship, &[], Loc::Crew)));
    if big {
        q.big_ship_glory = true;
    }
    ev.push(Logged::public(Event::ShipBought {
        seat,
        ship,
        paid: t.buy,
        sale,
    }));
    owe_mods(st, seat, mods, true);
    if big {
        gain_glory(d, st, seat, "MM-YARD-8", rng, ev);
    }
    Ok(())
}

fn hire(d: &Data, st: &mut State, seat: Seat, crew: u8, ev: &mut Ev) -> R<()> {
    let p = st
        .player(seat)
        .cloned()
        .ok_or_else(|| no("MM-RECR-1", "No such seat."))?;
    let missing = max_loc(d, &p, Loc::Crew).saturating_sub(cur(&p, Loc::Crew));
    let each = hire_price(d, p.zone);
    let cost = each * u32::from(crew);
    if crew > missing || cost > purse(d, &p) {
        return Err(no(
            "MM-RECR-1",
            format!("Hire up to {missing} crew at {each} gold each."),
        ));
    }
    spend(d, st, seat, cost, ev)?;
    let q = player_mut(st, seat)?;
    let v = cur(q, Loc::Crew) + crew;
    set_cur(q, Loc::Crew, v);
    ev.push(Logged::public(Event::Recruited {
        seat,
        crew,
        gold: cost,
    }));
    st.stack.pop();
    Ok(())
}

/// MM-RUM-3: roll the card's skill; enough successes and the rumor is true (its gold and 1
/// glory point); either way the card is discarded. Rewards other than gold (D-RUM) are not
/// built yet.
fn check_rumor(d: &Data, st: &mut State, seat: Seat, rng: &mut GameRng, ev: &mut Ev) {
    let Some(p) = st.player(seat).cloned() else {
        return;
    };
    let Some((r, row)) = p
        .rumor
        .and_then(|r| d.rumors.get(usize::from(r)).map(|row| (r, row)))
    else {
        return;
    };
    let got = roll(
        d,
        rng,
        test_dice(d, &p, row.skill),
        Some(seat),
        "rumor check (MM-RUM-3)",
        ev,
    );
    let truth = got >= row.need;
    if let Some(q) = st.players.get_mut(seat.index()) {
        q.rumor = None;
        if truth {
            q.gold += row.gold;
        }
    }
    st.rumor_discard.push(r);
    ev.push(Logged::public(Event::RumorChecked {
        seat,
        rumor: row.id.clone(),
        truth,
    }));
    if truth {
        gain_glory(d, st, seat, "MM-RUM-3", rng, ev);
        rumor_extra(d, st, seat, row.extra.as_deref(), rng, ev);
    }
}

/// The rewards of D-RUM besides gold: a choice where the card gives one.
fn rumor_extra(
    d: &Data,
    st: &mut State,
    seat: Seat,
    extra: Option<&str>,
    rng: &mut GameRng,
    ev: &mut Ev,
) {
    use super::state::PickWhat;
    let Some(p) = st.player(seat).cloned() else {
        return;
    };
    let (what, options) = match extra {
        Some("glory_pick") => {
            let mut cards = Vec::new();
            for _ in 0..2 {
                if st.glory_deck.is_empty() {
                    st.glory_deck = std::mem::take(&mut st.glory_discard);
                    rng.shuffle(&mut st.glory_deck);
                }
                cards.extend(st.glory_deck.pop());
            }
            (PickWhat::GloryKeep, cards)
        }
        Some("free_mod") => {
            // Face-down tokens are offered whatever they hide (filtering them by kind would tell
            // what lies there); face-up ones only if the ship may take them.
            let zones = st
                .mod_tokens
                .iter()
                .enumerate()
                .filter_map(|(z, t)| {
                    t.filter(|t| !t.face_up || !p.mods.contains(&t.kind))
                        .and_then(|_| u8::try_from(z).ok())
                })
                .collect();
            (PickWhat::FreeMod, zones)
        }
        Some("pardon") => {
            let nations = Nation::ALL
                .iter()
                .filter(|n| p.bounty.get(n.index()).is_some_and(|b| *b > 0))
                .filter_map(|n| u8::try_from(n.index()).ok())
                .collect();
            (PickWhat::Pardon, nations)
        }
        Some("weapon") => {
            let kinds = st
                .weapon_supply
                .iter()
                .enumerate()
                .filter(|(k, left)| **left > 0 && !p.weapons.iter().any(|w| usize::from(*w) == *k))
                .filter_map(|(k, _)| u8::try_from(k).ok())
                .collect();
            (PickWhat::Weapon, kinds)
        }
        Some("cargo") => {
            let cards: Vec<CargoId> = (0..3).filter_map(|_| draw_cargo(st, rng)).collect();
            if !cards.is_empty() {
                st.stack.push(Frame::Keep {
                    seat,
                    cards,
                    secret: true,
                });
            }
            return;
        }
        Some("crew_full") => {
            if let Some(q) = st.players.get_mut(seat.index()) {
                let max = max_loc(d, q, Loc::Crew);
                let gained = max.saturating_sub(cur(q, Loc::Crew));
                set_cur(q, Loc::Crew, max);
                ev.push(Logged::public(Event::Recruited {
                    seat,
                    crew: gained,
                    gold: 0,
                }));
            }
            return;
        }
        _ => return,
    };
    if !options.is_empty() {
        st.stack.push(Frame::Pick {
            seat,
            what,
            options,
        });
    }
}

/// D-YARD repair price, with D-ZONE PRY and CAP-05.
pub fn repair_price(d: &Data, p: &Player) -> u32 {
    let base =
        super::data::verb_number(d.zone_rules(p.zone), "repair_cost").unwrap_or(d.prices.repair);
    match has_power(d, p, "repair_discount") {
        Some(v) => base.saturating_sub(v.parse().unwrap_or(1)).max(1),
        None => base,
    }
}

/// D-YARD modification price, with D-ZONE ANT.
pub fn mod_price(d: &Data, zone: ZoneId) -> u32 {
    super::data::verb_number(d.zone_rules(zone), "mod_cost").unwrap_or(d.prices.modification)
}

/// D-YARD special-weapon price, with D-ZONE SEU.
pub fn weapon_price(d: &Data, zone: ZoneId) -> u32 {
    super::data::verb_number(d.zone_rules(zone), "weapon_cost").unwrap_or(d.prices.weapon)
}

/// D-YARD crew price after a failed Recruit, with D-ZONE TOR.
pub fn hire_price(d: &Data, zone: ZoneId) -> u32 {
    super::data::verb_number(d.zone_rules(zone), "hire_cost").unwrap_or(d.prices.recruit_per_crew)
}

/// D-YARD rumor price, with D-ZONE CCS and CAP-14.
pub fn rumor_price(d: &Data, p: &Player) -> u32 {
    if has_power(d, p, "rumor_free").is_some() {
        return 0;
    }
    super::data::verb_number(d.zone_rules(p.zone), "rumor_cost").unwrap_or(d.prices.rumor)
}

/// TW8: a tactic played between the activities of the Port action (GLY-10, GLY-12).
fn port_tactic(
    d: &Data,
    st: &mut State,
    seat: Seat,
    card: super::ids::GloryId,
    cargo: Option<CargoId>,
    ev: &mut Ev,
) -> R<()> {
    let legal = super::legal::tw8_plays(d, st, seat);
    let listed = st.player(seat).and_then(|p| listed_copy(d, p, card));
    if !listed.is_some_and(|c| legal.contains(&Action::Play { card: c, cargo })) {
        return Err(no(
            "MM-GCARD-5",
            "Play a tactic of window TW8 you hold, with what it needs.",
        ));
    }
    let effect = d
        .glory_card(card)
        .map(|g| g.effect.clone())
        .unwrap_or_default();
    let zone = st.player(seat).map_or(0, |p| p.zone);
    let q = player_mut(st, seat)?;
    q.glory_hand.retain(|c| *c != card);
    st.glory_discard.push(card);
    ev.push(Logged::public(Event::GloryPlayed { seat, card }));
    match (effect.as_str(), cargo) {
        // GLY-10: one card for 6 gold, no glory, no token change.
        ("smuggle", Some(c)) => {
            let q = player_mut(st, seat)?;
            q.cargo.retain(|x| *x != c);
            q.gold += 6;
            st.cargo_discard.push(c);
            ev.push(Logged::public(Event::Sold {
                seat,
                cards: vec![c],
                gold: 6,
            }));
        }
        // GLY-12: a bounty level of this port's nation.
        ("court", None) => {
            if let Some(n) = zone_nation(d, zone) {
                lose_bounty(st, seat, n, ev);
            }
        }
        _ => {}
    }
    Ok(())
}
