//! The rules flow: setup, the round (upkeep, event, NPC moves, turns), the turn's actions and
//! the port activities, each refusal citing its `MM-...` rule. An action is applied to a copy
//! of the state which replaces the original only when the action is accepted, so a refusal
//! changes nothing.

use super::data::{Data, Effect, parse_icon};
use super::events::Event;
use super::ids::{CargoId, Loc, Nation, Ship, Skill, ZoneId};
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

fn home_zone(d: &Data, p: &Player) -> Option<ZoneId> {
    d.captains
        .get(usize::from(p.captain))
        .and_then(|c| d.zone_index(&c.home))
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

/// MM-GCARD-1/2/6: draw one glory card; over the hand limit the most recent is discarded (the
/// III.2 default; choosing is left for the next stage).
fn draw_glory_card(d: &Data, st: &mut State, seat: Seat, rng: &mut GameRng, ev: &mut Ev) {
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
    if p.glory_hand.len() > usize::from(d.start.glory_hand_limit)
        && let Some(c) = p.glory_hand.pop()
    {
        st.glory_discard.push(c);
        ev.push(Logged::public(Event::GloryDiscarded { seat, card: c }));
    }
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

pub(super) fn add_bounty(d: &Data, st: &mut State, seat: Seat, nation: Nation, ev: &mut Ev) {
    let war = st
        .players
        .get(seat.index())
        .and_then(|p| captain_nation(d, p));
    // MM-BNTY-3: no bounty from a nation at war with your captain's nation.
    if war.is_some_and(|own| at_war_with(st, own, nation)) {
        return;
    }
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

/// MM-YARD-5 (III.2 default): modifications of a ship that leaves play go face-down to random
/// ports without a token.
fn return_mods(st: &mut State, mods: Vec<u8>, rng: &mut GameRng, ev: &mut Ev) {
    for kind in mods {
        let empty: Vec<usize> = st
            .mod_tokens
            .iter()
            .enumerate()
            .filter(|(_, t)| t.is_none())
            .map(|(i, _)| i)
            .collect();
        // Ports without a token exist whenever a token is off the map (16 tokens, 16 ports).
        let Some(&z) = empty.get(rng.index(empty.len())) else {
            st.mod_supply.push(kind);
            continue;
        };
        if let Some(slot) = st.mod_tokens.get_mut(z) {
            *slot = Some(ModToken {
                kind,
                face_up: false,
            });
            ev.push(Logged::public(Event::ModPlaced {
                zone: u8::try_from(z).unwrap_or(0),
            }));
        }
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
    return_mods(st, old.mods, rng, ev);
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
    // (III.3.9): the new ship is chosen when that turn is over.
    let own_turn = st
        .stack
        .iter()
        .any(|f| matches!(f, Frame::Turn { seat: s, .. } if *s == seat));
    st.stack.retain(|f| match f {
        Frame::ShipChoice { .. } | Frame::Combat { .. } => true,
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
            // A turn whose actions are spent ends by itself (MM-ACT-1).
            Some(Frame::Turn {
                actions_left: 0, ..
            }) => {
                st.stack.pop();
                continue;
            }
            Some(_) => return,
            None => {}
        }
        if st.turns_this_round < st.seats {
            let seat = Seat((st.first.0 + st.turns_this_round) % st.seats);
            st.turns_this_round += 1;
            st.turn_number += 1;
            if let Some(p) = st.players.get_mut(seat.index()) {
                p.scouted.clear();
            }
            ev.push(Logged::public(Event::TurnBegins {
                seat,
                round: st.round,
            }));
            st.stack.push(Frame::Turn {
                seat,
                actions_left: d.start.actions,
                port_used: false,
            });
            // MM-ACT-4 / MM-NPC-7: hunting NPCs in your zone may attack before your first action.
            super::combat::npc_hunt(d, st, seat, rng, ev);
            continue;
        }
        // MM-ROUND-3: end-of-round upkeep, then the end check (MM-END-1).
        st.round_effects.clear();
        if st.round > 0
            && st
                .players
                .iter()
                .any(|p| total_glory(d, st, p) >= st.glory_target)
        {
            finish(d, st, "glory target reached (MM-END-1)", ev);
            continue;
        }
        begin_round(d, st, rng, ev);
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
                if roll(d, rng, dice, Some(seat), "storm: Seamanship (EVT)", ev) == 0 {
                    hit(d, st, seat, None, rng, ev);
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
        Effect::HuntersToward => {
            ev.push(Logged::public(Event::EventNotBuilt {
                card: row.id.clone(),
            }));
        }
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

fn replace_demand(st: &mut State, z: ZoneId, rng: &mut GameRng, ev: &mut Ev) {
    let Some(slot) = st.demand.get_mut(usize::from(z)) else {
        return;
    };
    if let Some(old) = slot.take() {
        st.demand_pool.push(old);
    }
    let i = rng.index(st.demand_pool.len());
    if i < st.demand_pool.len() {
        let good = st.demand_pool.remove(i);
        *slot = Some(good);
        ev.push(Logged::public(Event::DemandReplaced { zone: z, good }));
    }
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
    let Some(row) = d.npcs.get(usize::from(n.card)) else {
        return false;
    };
    match row.nation {
        None => !p.is_pirate(),
        Some(x) => {
            p.bounty.get(x.index()).is_some_and(|b| *b > 0)
                || captain_nation(d, p).is_some_and(|own| at_war_with(st, own, x))
        }
    }
}

/// MM-NPC-5: every naval (or pirate) NPC moves one zone; toward a hunted player at sea in an
/// adjacent zone if there is one (first in turn order from the first player), else by the letter.
fn move_npcs(d: &Data, st: &mut State, naval: bool, dir: super::ids::Dir, ev: &mut Ev) {
    for i in 0..st.npcs.len() {
        let Some(n) = st.npcs.get(i) else { continue };
        let is_naval = npc_nation(d, n).is_some();
        if is_naval != naval {
            continue;
        }
        let from = n.zone;
        let near = d.neighbours(from);
        let target = (0..st.seats)
            .map(|k| Seat((st.first.0 + k) % st.seats))
            .filter_map(|s| st.player(s))
            .find(|p| p.at_sea() && near.contains(&p.zone) && hunts(d, st, n, p))
            .map(|p| p.zone);
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
    st.stack.clear();
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
    step(d, &mut next, seat, a, rng, &mut ev)?;
    advance(d, &mut next, rng, &mut ev);
    *st = next;
    events.extend(ev);
    Ok(())
}

fn step(d: &Data, st: &mut State, seat: Seat, a: &Action, rng: &mut GameRng, ev: &mut Ev) -> R<()> {
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
        (Frame::Turn { .. }, _) => turn_action(d, st, seat, a, rng, ev),
        (Frame::Port { current, done, .. }, _) => {
            port_activity(d, st, seat, current, done, a, rng, ev)
        }
        (Frame::Offer { cards, .. }, Action::Take { cards: chosen }) => {
            take(d, st, seat, &cards, chosen, ev)
        }
        (Frame::Hire { .. }, Action::Hire { crew }) => hire(d, st, seat, *crew, ev),
        (Frame::MerchantFound { token, .. }, Action::RaidAs { nation }) => {
            raid_as(d, st, seat, token, *nation, rng, ev)
        }
        (
            Frame::Raid { .. },
            Action::Draw | Action::Discard { .. } | Action::Swap { .. } | Action::Stop,
        ) => raid_spend(d, st, seat, a, rng, ev),
        (Frame::Combat { .. }, Action::Declare { decl }) => {
            super::combat::declare(d, st, seat, *decl, rng, ev)
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
    }
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

pub(super) fn use_action(st: &mut State, port: bool) {
    if let Some(Frame::Turn {
        actions_left,
        port_used,
        ..
    }) = st.stack.last_mut()
    {
        *actions_left = actions_left.saturating_sub(1);
        *port_used |= port;
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
        ..
    }) = st.stack.last().cloned()
    else {
        return Err(no("MM-ACT-1", "Not your turn."));
    };
    if matches!(a, Action::End) {
        st.stack.pop();
        return Ok(());
    }
    if actions_left == 0 {
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
            use_action(st, false);
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
            use_action(st, false);
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
            use_action(st, false);
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
            if zone_nation(d, p.zone)
                .is_some_and(|n| p.bounty.get(n.index()).is_some_and(|b| *b > 0))
            {
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
        skill(d, p, Skill::Scouting),
        Some(seat),
        "Scouting (MM-SCOUT-1)",
        ev,
    ) > 0;
    ev.push(Logged::public(Event::Scouted {
        seat,
        target: format!("{target:?}"),
        found,
    }));
    if found && target != Target::Merchant {
        // MM-SCOUT-2: the found target is attacked; the turn waits beneath the combat.
        let def = match target {
            Target::Player(t) => super::combat::Side::Player(t),
            Target::Npc(c) => super::combat::Side::Npc(c),
            Target::Merchant | Target::Rumor => return Ok(()),
        };
        super::combat::start(d, st, super::combat::Side::Player(seat), def, ev);
        return Ok(());
    }
    if found {
        // MM-RAID-1: the token goes to the track and its nation is revealed.
        if let Some(token) = st
            .merchants
            .get_mut(usize::from(p.zone))
            .and_then(Option::take)
        {
            st.merchant_track.push(token);
            ev.push(Logged::public(Event::MerchantRevealed {
                zone: p.zone,
                nation: token,
            }));
            st.stack.push(Frame::MerchantFound { seat, token });
        }
    }
    Ok(())
}

fn any_loc_zero(p: &Player) -> bool {
    Loc::HITS.iter().any(|l| cur(p, *l) == 0)
}

fn raid_as(
    d: &Data,
    st: &mut State,
    seat: Seat,
    token: Nation,
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
    if nation != token && zone_nation(d, p.zone) != Some(nation) {
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
    add_bounty(d, st, seat, nation, ev);
    let mut count = 3usize;
    if st.round_effects.iter().any(|e| e == "convoys_together") {
        count = 2;
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
    st.stack.push(Frame::Raid {
        seat,
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
    let Some(Frame::Raid { cards, .. }) = st.stack.pop() else {
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
    st.stack.push(Frame::Keep { seat, cards });
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
        Action::Yard { .. } | Action::Repair { .. } | Action::Modify | Action::Weapon { .. } => {
            Activity::Shipyard
        }
        Action::Recruit => Activity::Recruit,
        Action::Rumor => Activity::Rumor,
        Action::Claim => Activity::Mission,
        Action::Check => Activity::CheckRumor,
        Action::Stash { .. } => Activity::Stash,
        _ => return None,
    })
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
    if done.contains(&act) || (current == Some(act) && act != Activity::Shipyard) {
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
    match a {
        Action::Sell { cards } => sell(d, st, seat, &p, cards, rng, ev)?,
        Action::Buy => {
            let same = p.last_buy == Some((zone, st.round.saturating_sub(1)));
            let size = if same {
                d.prices.offer_same_port
            } else {
                d.prices.offer
            };
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
            if st
                .round_effects
                .iter()
                .any(|e| zone_nation(d, zone).is_some_and(|n| *e == format!("shipyard_fire:{n}")))
            {
                return Err(no("MM-YARD-1", "The shipyard burned this round (EVT-33)."));
            }
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
            let cost = d.prices.repair * u32::try_from(locs.len()).unwrap_or(u32::MAX);
            if locs.is_empty() || cost > q.gold {
                return Err(no(
                    "MM-YARD-9",
                    format!("Repairs cost {} gold per point.", d.prices.repair),
                ));
            }
            q.gold -= cost;
            *player_mut(st, seat)? = q;
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
            if p.gold < d.prices.modification {
                return Err(no(
                    "MM-YARD-10",
                    format!("A modification costs {} gold.", d.prices.modification),
                ));
            }
            let loc = d.modifications.get(usize::from(t.kind)).map(|m| m.location);
            let q = player_mut(st, seat)?;
            q.gold -= d.prices.modification;
            q.mods.push(t.kind);
            // MM-YARD-11: Hull, Masts, Cannons, Cargo rise now; Hammocks only the maximum.
            if let Some(l @ (Loc::Hull | Loc::Masts | Loc::Cannons | Loc::Cargo)) = loc {
                let v = cur(q, l) + 1;
                set_cur(q, l, v);
            }
            if let Some(slot) = st.mod_tokens.get_mut(usize::from(zone)) {
                *slot = None;
            }
            ev.push(Logged::public(Event::Modified { seat, kind: t.kind }));
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
            if p.gold < d.prices.weapon {
                return Err(no(
                    "MM-YARD-12",
                    format!("A special weapon costs {} gold.", d.prices.weapon),
                ));
            }
            let q = player_mut(st, seat)?;
            q.gold -= d.prices.weapon;
            q.weapons.push(*kind);
            if let Some(s) = st.weapon_supply.get_mut(usize::from(*kind)) {
                *s -= 1;
            }
            ev.push(Logged::public(Event::WeaponBought { seat, kind: *kind }));
        }
        Action::Recruit => {
            let max = max_loc(d, &p, Loc::Crew);
            if cur(&p, Loc::Crew) >= max {
                return Err(no("MM-RECR-1", "Your crew is full."));
            }
            let free = st.round_effects.iter().any(|e| e == "press_gangs")
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
            } else if p.gold >= d.prices.recruit_per_crew {
                st.stack.push(Frame::Hire { seat });
            }
        }
        Action::Rumor => {
            let cost = d.prices.rumor;
            if p.gold < cost {
                return Err(no("MM-RUM-1", format!("A rumor costs {cost} gold.")));
            }
            if st.rumor_deck.is_empty() && st.rumor_discard.is_empty() {
                return Err(no("MM-RUM-1", "No rumor card is left."));
            }
            player_mut(st, seat)?.gold -= cost;
            let ok = st.round_effects.iter().any(|e| e == "tavern_talk")
                || roll(
                    d,
                    rng,
                    skill(d, &p, Skill::Influence),
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
                    let q = player_mut(st, seat)?;
                    let old = q.rumor.replace(r);
                    st.rumor_discard.extend(old);
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
            let got = roll(
                d,
                rng,
                skill(d, &p, row.skill),
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
            if act != Activity::Shipyard && !dn.contains(&act) {
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
    let in_demand = cards
        .iter()
        .filter(|c| Some(d.cargo_card(**c).good) == demand)
        .count();
    let per_demand = if glut {
        d.prices.sell_demand.saturating_sub(1)
    } else {
        d.prices.sell_demand
    };
    let gold = per_demand * u32::try_from(in_demand).unwrap_or(0)
        + d.prices.sell * u32::try_from(cards.len() - in_demand).unwrap_or(0);
    let q = player_mut(st, seat)?;
    q.cargo.retain(|c| !cards.contains(c));
    q.gold += gold;
    st.cargo_discard.extend(cards.iter().copied());
    ev.push(Logged::public(Event::Sold {
        seat,
        cards: cards.to_vec(),
        gold,
    }));
    if in_demand > 0 {
        replace_demand(st, p.zone, rng, ev);
    }
    if in_demand >= 3 {
        gain_glory(d, st, seat, "MM-SELL-3", rng, ev);
    }
    Ok(())
}

/// MM-BUY-3 (D-PRICE): the price of each card of the offer.
pub fn offer_prices(d: &Data, offer: &[CargoId]) -> Vec<u32> {
    offer
        .iter()
        .map(|c| {
            let good = d.cargo_card(*c).good;
            let n = offer
                .iter()
                .filter(|o| d.cargo_card(**o).good == good)
                .count();
            let i = n.clamp(1, d.prices.buy_by_count.len()) - 1;
            d.prices.buy_by_count.get(i).copied().unwrap_or(1)
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
    let prices = offer_prices(d, offer);
    let cost: u32 = offer
        .iter()
        .zip(&prices)
        .filter(|(c, _)| chosen.contains(c))
        .map(|(_, p)| *p)
        .sum();
    if cost > p.gold {
        return Err(no(
            "MM-BUY-3",
            format!("These cards cost {cost} gold; you have {}.", p.gold),
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
    let q = player_mut(st, seat)?;
    q.gold -= cost;
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
    if p.ship == Some(ship) {
        return Err(no("MM-YARD-2", "You already sail that kind of ship."));
    }
    let sale = sale_price(d, p);
    if p.gold + sale < t.buy {
        return Err(no(
            "MM-YARD-2",
            format!(
                "The {} costs {}; your ship sells for {sale}.",
                t.name, t.buy
            ),
        ));
    }
    let big = t.big && !p.big_ship_glory;
    let q = player_mut(st, seat)?;
    q.gold = q.gold + sale - t.buy;
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
    return_mods(st, mods, rng, ev);
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
    let cost = d.prices.recruit_per_crew * u32::from(crew);
    if crew > missing || cost > p.gold {
        return Err(no(
            "MM-RECR-1",
            format!(
                "Hire up to {missing} crew at {} gold each.",
                d.prices.recruit_per_crew
            ),
        ));
    }
    let q = player_mut(st, seat)?;
    q.gold -= cost;
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
        skill(d, &p, row.skill),
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
    }
}
