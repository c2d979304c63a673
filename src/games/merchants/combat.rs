//! Naval combat (MM-NAV), damage (MM-DMG), crew combat (MM-CREW placeholder), NPC hunting and
//! choices (MM-NPC-7/8), and the rewards of a defeat (MM-NAV-13, MM-PLUN-3/5).
//!
//! A combat is one frame on the decision stack, above the turn it interrupted: the aggressor
//! declares first and openly, then the defender, each only when it is a player (NPCs never
//! wait); when the frame closes the turn beneath resumes exactly as it was. Inside a combat the
//! timing windows of D-WINDOW (TW3 the Long Guns volley, TW4 after the declarations, TW5 after
//! the contest dice, TW6 after the hit locations) are frames above it that ask only seats with a
//! legal play, in the window's order; the round under way waits in the combat frame
//! ([`RoundData`]) and resumes where it stopped when the window closes. TW2 (after a scout roll)
//! waits the same way above the turn. The winner of a crew combat plunders (a frame of its own
//! above the turn, MM-PLUN-1) and may claim the defeated ship (MM-PLUN-2/4).

use super::Action;
use super::data::Data;
use super::events::Event;
use super::ids::{GloryId, Loc, Nation, Ship, Skill};
use super::rules::{
    Trigger, captain_nation, die, draw_cargo, engage_bounty, face_loc, gain_glory, has_power,
    has_specialist, hit, is_success, max_of, mission_trigger, no, skill, sunk,
};
use super::state::{Frame, State, Target, WindowCtx};
use crate::engine::{GameRng, Illegal, Logged, Seat};
use serde::{Deserialize, Serialize};

type Ev = Vec<Logged<Event>>;

/// A side of a combat: a player's ship or an NPC (by D-NPC card).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    content = "id",
    rename_all = "snake_case",
    deny_unknown_fields
)]
pub enum Side {
    Player(Seat),
    Npc(u8),
}

impl Side {
    pub fn seat(self) -> Option<Seat> {
        match self {
            Side::Player(s) => Some(s),
            Side::Npc(_) => None,
        }
    }
}

/// MM-NAV-4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decl {
    Shoot,
    Board,
    Flee,
}

impl Decl {
    pub fn word(self) -> &'static str {
        match self {
            Decl::Shoot => "shoot",
            Decl::Board => "board",
            Decl::Flee => "flee",
        }
    }
}

/// A round under way, once both sides have declared: what the windows TW4–TW6 may change
/// before the round is applied. Index 0 is the aggressor, 1 the defender.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoundData {
    pub decl: [Decl; 2],
    /// MM-WPN-3/4: the special weapon declared with Shoot.
    pub weapon: [Option<u8>; 2],
    /// The contest dice, once rolled (MM-NAV-6).
    pub faces: [Vec<u8>; 2],
    /// The hit locations each side is about to take (MM-DMG-2), once rolled.
    pub locs: [Vec<Loc>; 2],
    /// GLY-14: this side escapes on a tie.
    pub tie_escape: [bool; 2],
}

/// What a side fights with now.
#[derive(Debug, Clone, Copy)]
struct Stats {
    seamanship: u8,
    scouting: u8,
    leadership: u8,
    /// Current Hull, Masts, Cannons, Crew, Cargo.
    hits: [u8; 5],
    maneuver: u8,
    pirate: bool,
    nation: Option<Nation>,
    /// Crew-combat dice beyond Leadership (GLY-04, CAP-10).
    crew_bonus: u8,
    /// Contest dice beyond Seamanship when fleeing (GLY-01).
    flee_bonus: u8,
}

fn stats(d: &Data, st: &State, side: Side) -> Option<Stats> {
    match side {
        Side::Player(s) => {
            let p = st.player(s)?;
            let ship = p.ship?;
            Some(Stats {
                seamanship: skill(d, p, Skill::Seamanship),
                scouting: skill(d, p, Skill::Scouting),
                leadership: skill(d, p, Skill::Leadership),
                hits: p.hits,
                maneuver: max_of(d, ship, &p.mods, Loc::Maneuver),
                pirate: p.is_pirate(),
                nation: captain_nation(d, p),
                crew_bonus: u8::from(has_specialist(d, p, "crew_die"))
                    + u8::from(has_power(d, p, "crew_combat_die").is_some()),
                flee_bonus: u8::from(has_specialist(d, p, "flee_die")),
            })
        }
        Side::Npc(card) => {
            let n = st.npcs.iter().find(|n| n.card == card)?;
            let row = d.npcs.get(usize::from(card))?;
            let ship = super::ids::Ship::ALL
                .into_iter()
                .find(|k| k.word() == row.ship)?;
            let full = Loc::HITS.map(|l| max_of(d, ship, &[], l));
            let mut hits = [0; 5];
            for ((h, f), dmg) in hits.iter_mut().zip(full).zip(n.hits) {
                *h = f.saturating_sub(dmg);
            }
            Some(Stats {
                seamanship: row.skills[0],
                scouting: row.skills[1],
                leadership: row.skills[2],
                hits,
                maneuver: max_of(d, ship, &[], Loc::Maneuver),
                pirate: row.pirate,
                nation: row.nation,
                crew_bonus: 0,
                flee_bonus: 0,
            })
        }
    }
}

/// A side's current Hull, Masts, Cannons, Crew, Cargo (public, III.4), for standing orders.
pub fn current_hits(d: &Data, st: &State, side: Side) -> Option<[u8; 5]> {
    stats(d, st, side).map(|s| s.hits)
}

fn roll(d: &Data, rng: &mut GameRng, dice: u8, side: Side, purpose: &str, ev: &mut Ev) -> Vec<u8> {
    let faces: Vec<u8> = (0..dice).map(|_| rng.die(6)).collect();
    let successes = faces.iter().filter(|f| is_success(d, **f)).count();
    ev.push(Logged::public(Event::Rolled {
        seat: side.seat(),
        purpose: purpose.into(),
        faces: faces.clone(),
        successes: u8::try_from(successes).unwrap_or(u8::MAX),
    }));
    faces
}

fn successes(d: &Data, faces: &[u8]) -> u8 {
    u8::try_from(faces.iter().filter(|f| is_success(d, **f)).count()).unwrap_or(u8::MAX)
}

fn pips(d: &Data, faces: &[u8]) -> u32 {
    faces
        .iter()
        .filter(|f| !is_success(d, **f))
        .map(|f| u32::from(*f))
        .sum()
}

/// Starts a combat (MM-NAV-1/2): engaging a non-pirate gives the aggressor a bounty.
pub fn start(d: &Data, st: &mut State, aggressor: Side, defender: Side, ev: &mut Ev) {
    ev.push(Logged::public(Event::CombatStarts {
        aggressor,
        defender,
    }));
    if let (Side::Player(s), Some(def)) = (aggressor, stats(d, st, defender))
        && !def.pirate
        && let Some(n) = def.nation
    {
        engage_bounty(d, st, s, n, ev);
    }
    for side in [aggressor, defender] {
        if let Some(p) = side.seat().and_then(|s| st.players.get_mut(s.index())) {
            p.fought = true;
        }
    }
    st.stack.push(Frame::Combat {
        aggressor,
        defender,
        round: 1,
        declared: None,
        weapon: None,
        under_way: None,
        rerolled: Vec::new(),
        last: None,
    });
    open_round(d, st, ev);
}

/// The start of a round: the Long Guns volley (TW3, MM-NAV-3) where a side may fire, then an
/// NPC aggressor declares at once.
///
/// [I] When neither side can Shoot (no cannon left, MM-NAV-8), Board (Masts 0 or Crew 0,
/// MM-NAV-5) or Flee (Masts 0, MM-NAV-5), neither can ever hurt or leave the other and the
/// round would be fought again forever: the ships part, as in an escape, with no defeat. The
/// spec has no rule for this; it keeps every combat finite. While either side may still Board
/// or Flee, the fight goes on, until a round in which neither does is [`idle`].
fn open_round(d: &Data, st: &mut State, ev: &mut Ev) {
    if let Some((a, b, _)) = sides(st) {
        let stuck = |me: Side, them: Side| {
            let enemy_crew = stats(d, st, them).map_or(0, |s| s.hits[3]);
            stats(d, st, me).is_none_or(|s| {
                let [hull, masts, cannons, crew, _] = s.hits;
                // Shoot needs a cannon; Board and Flee need a mast (Board a crew too). An NPC
                // boards or flees only as MM-NPC-8 says, which nothing changes while no shot
                // can land.
                let moves = match me {
                    Side::Npc(_) => {
                        masts > 0 && (crew >= enemy_crew.saturating_add(2) || hull == 1)
                    }
                    Side::Player(_) => masts > 0,
                };
                cannons == 0 && !moves
            })
        };
        if stuck(a, b) && stuck(b, a) {
            ev.push(Logged::public(Event::CombatEnds {
                how: "disengaged".into(),
            }));
            close(d, st, a, b, ev);
            return;
        }
    }
    if !open_window(d, st, 3, WindowCtx::Combat, Vec::new()) {
        npc_declares(d, st, ev);
    }
}

/// The combat frame nearest the top of the stack.
fn combat_frame(st: &State) -> Option<&Frame> {
    st.stack
        .iter()
        .rev()
        .find(|f| matches!(f, Frame::Combat { .. }))
}

fn combat_frame_mut(st: &mut State) -> Option<&mut Frame> {
    st.stack
        .iter_mut()
        .rev()
        .find(|f| matches!(f, Frame::Combat { .. }))
}

fn under_way(st: &State) -> Option<RoundData> {
    match combat_frame(st) {
        Some(Frame::Combat { under_way, .. }) => under_way.clone(),
        _ => None,
    }
}

fn set_under_way(st: &mut State, rd: RoundData) {
    if let Some(Frame::Combat { under_way, .. }) = combat_frame_mut(st) {
        *under_way = Some(rd);
    }
}

/// The seats a window asks, in its order (D-WINDOW): aggressor then defender; for TW2 the
/// scout's target first, then the scouting player.
fn window_order(st: &State, ctx: &WindowCtx) -> Vec<Seat> {
    match ctx {
        WindowCtx::Combat => match combat_frame(st) {
            Some(Frame::Combat {
                aggressor,
                defender,
                ..
            }) => [aggressor, defender]
                .iter()
                .filter_map(|s| s.seat())
                .collect(),
            _ => Vec::new(),
        },
        WindowCtx::Scout {
            scouter, target, ..
        } => {
            let mut out = Vec::new();
            if let Target::Player(t) = target {
                out.push(*t);
            }
            out.extend(scouter.seat());
            out
        }
    }
}

/// One card of each glory design in `seat`'s hand that is a tactic of window `tw` with this
/// effect (copies of a design are one choice).
fn tactics(d: &Data, st: &State, seat: Seat, tw: u8, effect: &str) -> Vec<GloryId> {
    let Some(p) = st.player(seat) else {
        return Vec::new();
    };
    let mut out: Vec<GloryId> = Vec::new();
    for c in &p.glory_hand {
        let Some(g) = d.glory_card(*c) else { continue };
        let same = out
            .iter()
            .any(|o| d.glory_card(*o).is_some_and(|x| x.id == g.id));
        if g.in_window(tw) && g.effect == effect && !same {
            out.push(*c);
        }
    }
    out
}

/// The Long Guns token (MM-WPN-2): the D-WPN row fired in the volley.
pub fn long_guns(d: &Data) -> Option<u8> {
    d.weapons
        .iter()
        .position(|w| w.effect == "volley")
        .and_then(|i| u8::try_from(i).ok())
}

/// What `seat` may play in window `tw` now (empty: the seat is not asked).
pub fn plays(d: &Data, st: &State, seat: Seat, tw: u8, ctx: &WindowCtx) -> Vec<Action> {
    let Some(p) = st.player(seat) else {
        return Vec::new();
    };
    let play = |cards: Vec<GloryId>| {
        cards
            .into_iter()
            .map(|card| Action::Play { card, cargo: None })
    };
    let mut out = Vec::new();
    match ctx {
        WindowCtx::Combat => {
            let Some(Frame::Combat {
                aggressor,
                defender,
                round,
                under_way,
                rerolled,
                ..
            }) = combat_frame(st)
            else {
                return out;
            };
            let i = if *aggressor == Side::Player(seat) {
                0
            } else if *defender == Side::Player(seat) {
                1
            } else {
                return out;
            };
            match (tw, under_way) {
                (3, _) => {
                    let round_ok = *round == 1
                        || (*round == 2 && has_power(d, p, "long_guns_round2").is_some());
                    if round_ok && long_guns(d).is_some_and(|w| p.weapons.contains(&w)) {
                        out.push(Action::Fire);
                    }
                }
                (4, Some(rd))
                    if rd.decl.get(i) == Some(&Decl::Flee)
                        && !rd.tie_escape.get(i).copied().unwrap_or(true) =>
                {
                    out.extend(play(tactics(d, st, seat, 4, "daring_escape")));
                }
                (5, Some(rd)) => {
                    out.extend(play(tactics(d, st, seat, 5, "reroll")));
                    if has_power(d, p, "reroll_contest_die").is_some() && !rerolled.contains(&seat)
                    {
                        let faces = rd.faces.get(i).cloned().unwrap_or_default();
                        for (k, f) in faces.iter().enumerate() {
                            if !is_success(d, *f) {
                                out.push(Action::Reroll {
                                    die: u8::try_from(k).unwrap_or(0),
                                });
                            }
                        }
                    }
                }
                (6, Some(rd)) if rd.decl.get(i) == Some(&Decl::Shoot) => {
                    out.extend(play(tactics(d, st, seat, 6, "broadside")));
                }
                _ => {}
            }
        }
        WindowCtx::Scout {
            scouter,
            target,
            found,
        } => {
            if tw != 2 {
                return out;
            }
            if *target == Target::Player(seat) && *found {
                out.extend(play(tactics(d, st, seat, 2, "cancel_scout")));
            }
            if *scouter == Side::Player(seat) && !*found {
                out.extend(play(tactics(d, st, seat, 2, "reroll")));
            }
        }
    }
    out
}

/// Opens window `tw` for the first seat in its order, not yet asked, with a legal play; false
/// when nobody has one (the window passes silently).
pub fn open_window(d: &Data, st: &mut State, tw: u8, ctx: WindowCtx, asked: Vec<Seat>) -> bool {
    let next = window_order(st, &ctx)
        .into_iter()
        .find(|s| !asked.contains(s) && !plays(d, st, *s, tw, &ctx).is_empty());
    match next {
        Some(seat) => {
            st.stack.push(Frame::Window {
                tw,
                seat,
                asked,
                ctx,
            });
            true
        }
        None => false,
    }
}

/// A seat's answer in a window: a play, Long Guns, a reroll, or `pass`. The window then asks
/// the next seat with a play, or closes and the decision beneath resumes.
pub fn window_answer(
    d: &Data,
    st: &mut State,
    seat: Seat,
    a: &Action,
    rng: &mut GameRng,
    ev: &mut Ev,
) -> Result<(), Illegal> {
    let Some(Frame::Window {
        tw,
        seat: asked_seat,
        asked,
        mut ctx,
    }) = st.stack.last().cloned()
    else {
        return Err(no("MM-GCARD-5", "No timing window is open."));
    };
    if asked_seat != seat {
        return Err(no("MM-GCARD-5", "This window asks another seat."));
    }
    // Any copy of a listed design is accepted for it.
    let listed = match a {
        Action::Play { card, cargo } => st
            .player(seat)
            .and_then(|p| super::rules::listed_copy(d, p, *card))
            .map(|c| Action::Play {
                card: c,
                cargo: *cargo,
            }),
        other => Some(other.clone()),
    };
    if *a != Action::Pass && !listed.is_some_and(|x| plays(d, st, seat, tw, &ctx).contains(&x)) {
        let rule = match a {
            Action::Fire => "MM-WPN-2",
            Action::Reroll { .. } => "MM-NAV-6",
            _ => "MM-GCARD-5",
        };
        return Err(no(
            rule,
            format!("`{a}` cannot be played in window TW{tw} now; `pass` plays nothing."),
        ));
    }
    st.stack.pop();
    match a {
        Action::Fire => volley(d, st, seat, rng, ev),
        Action::Reroll { die: k } => reroll_one(d, st, seat, *k, rng, ev),
        Action::Play { card, .. } => play_card(d, st, seat, *card, &mut ctx, rng, ev),
        _ => {}
    }
    if ctx == WindowCtx::Combat && !matches!(st.stack.last(), Some(Frame::Combat { .. })) {
        // The volley sank a ship: the combat is over.
        return Ok(());
    }
    let mut asked = asked;
    asked.push(seat);
    if open_window(d, st, tw, ctx.clone(), asked) {
        return Ok(());
    }
    after_window(d, st, tw, ctx, rng, ev);
    Ok(())
}

/// The decision a closed window leaves off at.
fn after_window(d: &Data, st: &mut State, tw: u8, ctx: WindowCtx, rng: &mut GameRng, ev: &mut Ev) {
    match (tw, ctx) {
        (
            2,
            WindowCtx::Scout {
                scouter,
                target,
                found,
            },
        ) => super::rules::scout_resolved(d, st, scouter, target, found, ev),
        (3, _) => npc_declares(d, st, ev),
        (4, _) => contest(d, st, rng, ev),
        (5, _) => hits(d, st, rng, ev),
        (6, _) => apply_round(d, st, rng, ev),
        _ => {}
    }
}

/// Which side of the combat `seat` is (0 aggressor, 1 defender).
fn side_index(st: &State, seat: Seat) -> Option<usize> {
    match combat_frame(st) {
        Some(Frame::Combat {
            aggressor,
            defender,
            ..
        }) => {
            if *aggressor == Side::Player(seat) {
                Some(0)
            } else if *defender == Side::Player(seat) {
                Some(1)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The combat under way: aggressor, defender and round (for standing orders too).
pub fn sides(st: &State) -> Option<(Side, Side, u8)> {
    match combat_frame(st) {
        Some(Frame::Combat {
            aggressor,
            defender,
            round,
            ..
        }) => Some((*aggressor, *defender, *round)),
        _ => None,
    }
}

/// MM-WPN-1/2: Long Guns, rolled with the current Cannons; each success a hit on the enemy.
fn volley(d: &Data, st: &mut State, seat: Seat, rng: &mut GameRng, ev: &mut Ev) {
    let (Some((a, b, _)), Some(i)) = (sides(st), side_index(st, seat)) else {
        return;
    };
    let (me, them) = if i == 0 { (a, b) } else { (b, a) };
    let Some(w) = long_guns(d) else { return };
    if let Some(p) = st.players.get_mut(seat.index()) {
        p.weapons.retain(|k| *k != w);
    }
    if let Some(s) = st.weapon_supply.get_mut(usize::from(w)) {
        *s += 1;
    }
    ev.push(Logged::public(Event::WeaponUsed { seat, kind: w }));
    let cannons = stats(d, st, me).map_or(0, |s| s.hits[2]);
    let faces = roll(d, rng, cannons, me, "Long Guns (MM-WPN-2)", ev);
    for _ in 0..successes(d, &faces) {
        let loc = roll_loc(d, rng, them, ev);
        apply_hit(d, st, them, loc, rng, ev);
    }
    let (sunk_a, sunk_b) = (side_sunk(d, st, a), side_sunk(d, st, b));
    if sunk_a || sunk_b {
        end_by_sinking(d, st, a, b, sunk_a, sunk_b, rng, ev);
    }
}

/// CAP-03: one of the seat's own contest dice rolled again, once per combat.
fn reroll_one(d: &Data, st: &mut State, seat: Seat, k: u8, rng: &mut GameRng, ev: &mut Ev) {
    let Some(i) = side_index(st, seat) else {
        return;
    };
    let Some(mut rd) = under_way(st) else { return };
    let face = rng.die(6);
    ev.push(Logged::public(Event::Rolled {
        seat: Some(seat),
        purpose: "contest die rerolled (CAP-03)".into(),
        faces: vec![face],
        successes: u8::from(is_success(d, face)),
    }));
    if let Some(f) = rd.faces.get_mut(i).and_then(|v| v.get_mut(usize::from(k))) {
        *f = face;
    }
    set_under_way(st, rd);
    if let Some(Frame::Combat { rerolled, .. }) = combat_frame_mut(st) {
        rerolled.push(seat);
    }
}

/// A glory tactic played in a window (MM-GCARD-3/5): revealed, resolved, discarded.
fn play_card(
    d: &Data,
    st: &mut State,
    seat: Seat,
    card: GloryId,
    ctx: &mut WindowCtx,
    rng: &mut GameRng,
    ev: &mut Ev,
) {
    let Some(effect) = d.glory_card(card).map(|g| g.effect.clone()) else {
        return;
    };
    if let Some(p) = st.players.get_mut(seat.index()) {
        p.glory_hand.retain(|c| *c != card);
    }
    st.glory_discard.push(card);
    ev.push(Logged::public(Event::GloryPlayed { seat, card }));
    match ctx {
        WindowCtx::Scout {
            scouter,
            target,
            found,
        } => {
            match effect.as_str() {
                // GLY-08: the scout against you fails.
                "cancel_scout" => *found = false,
                // GLY-11: the scouting roll again.
                "reroll" => {
                    let dice = st
                        .player(seat)
                        .map_or(0, |p| super::rules::scout_dice(d, st, p, *target));
                    let faces = roll(d, rng, dice, *scouter, "Scouting rerolled (GLY-11)", ev);
                    *found = successes(d, &faces) > 0;
                }
                _ => {}
            }
            ev.push(Logged::public(Event::Scouted {
                seat: scouter.seat().unwrap_or(seat),
                target: *target,
                found: *found,
            }));
        }
        WindowCtx::Combat => {
            let (Some(i), Some(mut rd)) = (side_index(st, seat), under_way(st)) else {
                return;
            };
            match effect.as_str() {
                "daring_escape" => {
                    if let Some(t) = rd.tie_escape.get_mut(i) {
                        *t = true;
                    }
                }
                "reroll" => {
                    let n = rd.faces.get(i).map_or(0, Vec::len);
                    let side = Side::Player(seat);
                    let faces = roll(
                        d,
                        rng,
                        u8::try_from(n).unwrap_or(0),
                        side,
                        "contest rerolled (GLY-11)",
                        ev,
                    );
                    if let Some(f) = rd.faces.get_mut(i) {
                        *f = faces;
                    }
                }
                "broadside" => {
                    let Some((a, b, _)) = sides(st) else { return };
                    let them = if i == 0 { b } else { a };
                    let loc = match rd.weapon.get(i).copied().flatten() {
                        Some(w) => weapon_loc(d, w).unwrap_or(Loc::Hull),
                        None => roll_loc(d, rng, them, ev),
                    };
                    if let Some(l) = rd.locs.get_mut(1 - i) {
                        l.push(loc);
                    }
                }
                _ => {}
            }
            set_under_way(st, rd);
        }
    }
}

/// MM-NPC-8 [P]: an NPC aggressor declares at once.
fn npc_declares(d: &Data, st: &mut State, ev: &mut Ev) {
    let Some(Frame::Combat {
        aggressor: Side::Npc(c),
        defender,
        round,
        declared: None,
        ..
    }) = st.stack.last().cloned()
    else {
        return;
    };
    let decl = npc_choice(d, st, Side::Npc(c), defender, round, None);
    ev.push(Logged::public(Event::Declared {
        side: Side::Npc(c),
        decl,
    }));
    if let Some(Frame::Combat { declared, .. }) = st.stack.last_mut() {
        *declared = Some(decl);
    }
}

fn npc_choice(d: &Data, st: &State, me: Side, them: Side, round: u8, their: Option<Decl>) -> Decl {
    let (Some(a), Some(b)) = (stats(d, st, me), stats(d, st, them)) else {
        return Decl::Shoot;
    };
    if round == 1 || a.hits[1] == 0 {
        Decl::Shoot
    } else if a.hits[3] >= b.hits[3].saturating_add(2) {
        Decl::Board
    } else if a.hits[0] == 1 && their != Some(Decl::Flee) {
        Decl::Flee
    } else {
        Decl::Shoot
    }
}

/// The declarations a side may make now (MM-NAV-4/5).
pub fn allowed(d: &Data, st: &State, side: Side, round: u8) -> Vec<Decl> {
    let Some(s) = stats(d, st, side) else {
        return vec![Decl::Shoot];
    };
    if round == 1 || s.hits[1] == 0 {
        return vec![Decl::Shoot];
    }
    let mut out = vec![Decl::Shoot, Decl::Flee];
    if s.hits[3] > 0 {
        out.insert(1, Decl::Board);
    }
    out
}

/// The location every hit takes with this special weapon (MM-WPN-3/4); none for Long Guns.
pub fn weapon_loc(d: &Data, w: u8) -> Option<Loc> {
    match d.weapons.get(usize::from(w)).map(|x| x.effect.as_str()) {
        Some("masts") => Some(Loc::Masts),
        Some("crew") => Some(Loc::Crew),
        _ => None,
    }
}

/// A player's declaration, with a special weapon for Shoot (MM-WPN-3/4).
pub fn declare(
    d: &Data,
    st: &mut State,
    seat: Seat,
    decl: Decl,
    weapon: Option<u8>,
    rng: &mut GameRng,
    ev: &mut Ev,
) -> Result<(), Illegal> {
    let Some(Frame::Combat {
        aggressor,
        defender,
        round,
        declared,
        weapon: first_weapon,
        ..
    }) = st.stack.last().cloned()
    else {
        return Err(no("MM-NAV-4", "No combat is waiting for a declaration."));
    };
    let me = if declared.is_none() {
        aggressor
    } else {
        defender
    };
    if me != Side::Player(seat) {
        return Err(no(
            "MM-NAV-4",
            "The aggressor declares first, then the defender.",
        ));
    }
    if !allowed(d, st, me, round).contains(&decl) {
        let rule = if round == 1 { "MM-NAV-4" } else { "MM-NAV-5" };
        return Err(no(
            rule,
            "In round 1 both sides Shoot; with Masts 0 only Shoot; with Crew 0 no Board.",
        ));
    }
    if let Some(w) = weapon {
        let held = st.player(seat).is_some_and(|p| p.weapons.contains(&w));
        if decl != Decl::Shoot || !held || weapon_loc(d, w).is_none() {
            return Err(no(
                "MM-WPN-3",
                "Chain Shot and Grapeshot you hold are declared with Shoot.",
            ));
        }
        // MM-WPN-1: used once, back to the supply.
        if let Some(p) = st.players.get_mut(seat.index()) {
            p.weapons.retain(|k| *k != w);
        }
        if let Some(s) = st.weapon_supply.get_mut(usize::from(w)) {
            *s += 1;
        }
        ev.push(Logged::public(Event::WeaponUsed { seat, kind: w }));
    }
    ev.push(Logged::public(Event::Declared { side: me, decl }));
    match declared {
        None => {
            if let Some(Frame::Combat {
                declared,
                weapon: w,
                last,
                ..
            }) = st.stack.last_mut()
            {
                *declared = Some(decl);
                *w = weapon;
                *last = Some(decl);
            }
            if let Side::Npc(_) = defender {
                let answer = npc_choice(d, st, defender, aggressor, round, Some(decl));
                ev.push(Logged::public(Event::Declared {
                    side: defender,
                    decl: answer,
                }));
                both_declared(d, st, [decl, answer], [weapon, None], rng, ev);
            }
        }
        Some(first) => both_declared(d, st, [first, decl], [first_weapon, weapon], rng, ev),
    }
    Ok(())
}

/// Both sides have declared: TW4, then the contest.
fn both_declared(
    d: &Data,
    st: &mut State,
    decl: [Decl; 2],
    weapon: [Option<u8>; 2],
    rng: &mut GameRng,
    ev: &mut Ev,
) {
    set_under_way(
        st,
        RoundData {
            decl,
            weapon,
            faces: [Vec::new(), Vec::new()],
            locs: [Vec::new(), Vec::new()],
            tie_escape: [false, false],
        },
    );
    if !open_window(d, st, 4, WindowCtx::Combat, Vec::new()) {
        contest(d, st, rng, ev);
    }
}

/// MM-NAV-6: both roll Seamanship; +1 die for 2 more Maneuverability; 1 die with Masts 0.
fn contest(d: &Data, st: &mut State, rng: &mut GameRng, ev: &mut Ev) {
    let (Some((a, b, _)), Some(mut rd)) = (sides(st), under_way(st)) else {
        return;
    };
    let (Some(sa), Some(sb)) = (stats(d, st, a), stats(d, st, b)) else {
        close(d, st, a, b, ev);
        return;
    };
    // CAP-13: +1 Maneuverability for the bonus check.
    let maneuver = |side: Side, s: &Stats| {
        let bonus = side
            .seat()
            .and_then(|x| st.player(x))
            .is_some_and(|p| has_power(d, p, "maneuver_bonus").is_some());
        s.maneuver + u8::from(bonus)
    };
    let (ma, mb) = (maneuver(a, &sa), maneuver(b, &sb));
    let dice = |s: &Stats, mine: u8, theirs: u8, decl: Decl| {
        if s.hits[1] == 0 {
            1
        } else {
            s.seamanship
                + u8::from(mine >= theirs.saturating_add(2))
                + if decl == Decl::Flee { s.flee_bonus } else { 0 }
        }
    };
    let fa = roll(
        d,
        rng,
        dice(&sa, ma, mb, rd.decl[0]),
        a,
        "contest: Seamanship (MM-NAV-6)",
        ev,
    );
    let fb = roll(
        d,
        rng,
        dice(&sb, mb, ma, rd.decl[1]),
        b,
        "contest: Seamanship (MM-NAV-6)",
        ev,
    );
    rd.faces = [fa, fb];
    set_under_way(st, rd);
    if !open_window(d, st, 5, WindowCtx::Combat, Vec::new()) {
        hits(d, st, rng, ev);
    }
}

/// MM-NAV-7: the winner's index, if any.
fn winner(d: &Data, rd: &RoundData) -> Option<usize> {
    let (fa, fb) = (&rd.faces[0], &rd.faces[1]);
    let (na, nb) = (successes(d, fa), successes(d, fb));
    if na > nb {
        Some(0)
    } else if nb > na {
        Some(1)
    } else if na > 0 && pips(d, fa) != pips(d, fb) {
        Some(if pips(d, fa) > pips(d, fb) { 0 } else { 1 })
    } else {
        None
    }
}

/// MM-NAV-8 and MM-DMG-2: hits from every Shoot, their locations rolled (or set by a special
/// weapon); then TW6.
fn hits(d: &Data, st: &mut State, rng: &mut GameRng, ev: &mut Ev) {
    let (Some((a, b, _)), Some(mut rd)) = (sides(st), under_way(st)) else {
        return;
    };
    let (Some(sa), Some(sb)) = (stats(d, st, a), stats(d, st, b)) else {
        close(d, st, a, b, ev);
        return;
    };
    let won = winner(d, &rd);
    for (i, (me, them, s)) in [(a, b, &sa), (b, a, &sb)].into_iter().enumerate() {
        let n = successes(d, rd.faces.get(i).map_or(&[][..], Vec::as_slice));
        let shots = match rd.decl.get(i) {
            Some(Decl::Shoot) if won == Some(i) => s.hits[2],
            Some(Decl::Shoot) => n.min(s.hits[2]),
            _ => 0,
        };
        let fixed = rd
            .weapon
            .get(i)
            .copied()
            .flatten()
            .and_then(|w| weapon_loc(d, w));
        let mut locs = Vec::new();
        for _ in 0..shots {
            locs.push(fixed.unwrap_or_else(|| roll_loc(d, rng, them, ev)));
        }
        // GLY-02 (passive): once per round a Cargo hit you caused is rolled again.
        let gunner = me
            .seat()
            .and_then(|x| st.player(x))
            .is_some_and(|p| has_specialist(d, p, "gunner"));
        if gunner
            && fixed.is_none()
            && let Some(k) = locs.iter().position(|l| *l == Loc::Cargo)
            && let Some(l) = locs.get_mut(k)
        {
            *l = roll_loc(d, rng, them, ev);
        }
        if let Some(slot) = rd.locs.get_mut(1 - i) {
            *slot = locs;
        }
    }
    set_under_way(st, rd);
    if !open_window(d, st, 6, WindowCtx::Combat, Vec::new()) {
        apply_round(d, st, rng, ev);
    }
}

/// MM-NAV-9..12: apply all hits together, then sinking, boarding, escape or the next round.
fn apply_round(d: &Data, st: &mut State, rng: &mut GameRng, ev: &mut Ev) {
    let (Some((a, b, round)), Some(rd)) = (sides(st), under_way(st)) else {
        return;
    };
    for (side, locs) in [(a, &rd.locs[0]), (b, &rd.locs[1])] {
        for loc in locs {
            apply_hit(d, st, side, *loc, rng, ev);
        }
    }
    let (sunk_a, sunk_b) = (side_sunk(d, st, a), side_sunk(d, st, b));
    if sunk_a || sunk_b {
        end_by_sinking(d, st, a, b, sunk_a, sunk_b, rng, ev);
        return;
    }
    let won = winner(d, &rd);
    // MM-NAV-9: a winning Board with crew left starts crew combat.
    for (i, (side, other)) in [(a, b), (b, a)].into_iter().enumerate() {
        if won == Some(i) && rd.decl.get(i) == Some(&Decl::Board) {
            let crew = stats(d, st, side).map_or(0, |s| s.hits[3]);
            if crew > 0 {
                st.stack.pop();
                crew_combat(d, st, side, other, rng, ev);
                return;
            }
        }
    }
    // MM-NAV-10: Flee and won, or Flee and the opponent rolled no success; GLY-14 and CAP-11
    // also on a tie.
    for (i, side) in [a, b].into_iter().enumerate() {
        let theirs = successes(d, rd.faces.get(1 - i).map_or(&[][..], Vec::as_slice));
        let on_tie = rd.tie_escape.get(i).copied().unwrap_or(false)
            || side
                .seat()
                .and_then(|x| st.player(x))
                .is_some_and(|p| has_power(d, p, "flee_on_tie").is_some());
        if rd.decl.get(i) == Some(&Decl::Flee)
            && (won == Some(i) || theirs == 0 || (won.is_none() && on_tie))
        {
            ev.push(Logged::public(Event::CombatEnds {
                how: "escape".into(),
            }));
            close(d, st, a, b, ev);
            return;
        }
    }
    if idle(d, st, a, b, round, &rd) {
        ev.push(Logged::public(Event::CombatEnds {
            how: "disengaged".into(),
        }));
        close(d, st, a, b, ev);
        return;
    }
    if let Some(Frame::Combat {
        round: r,
        declared,
        weapon,
        under_way,
        ..
    }) = st.stack.last_mut()
    {
        *r = round.saturating_add(1);
        *declared = None;
        *weapon = None;
        *under_way = None;
    }
    open_round(d, st, ev);
}

/// [I] An idle round: from round 2 (round 1 is Shoot only, MM-NAV-4) both sides declared
/// Shoot, neither has a cannon left (MM-NAV-8: no Shoot can hurt) and no hit landed (a Full
/// Broadside hits without cannons). Nothing changed, so the next round would be the same and
/// the ones after it too: a late or dropped seat's III.2 default is Shoot, an NPC keeps to
/// MM-NPC-8, standing orders repeat themselves. The ships part, as in an escape, with no
/// defeat. A side that wants the fight declares Board (or Flee to leave): any round in which
/// either does is no idle round. The spec has no rule for this; it keeps every combat finite
/// (design 14: a game never stalls) and harms nobody, since either side could have boarded.
fn idle(d: &Data, st: &State, a: Side, b: Side, round: u8, rd: &RoundData) -> bool {
    round >= 2
        && rd.decl == [Decl::Shoot, Decl::Shoot]
        && rd.locs.iter().all(Vec::is_empty)
        && [a, b]
            .into_iter()
            .all(|side| stats(d, st, side).is_none_or(|s| s.hits[2] == 0))
}

/// MM-NAV-12/13: a sunk side is defeated; both sunk, nobody scores.
#[allow(clippy::too_many_arguments)]
fn end_by_sinking(
    d: &Data,
    st: &mut State,
    a: Side,
    b: Side,
    sunk_a: bool,
    sunk_b: bool,
    rng: &mut GameRng,
    ev: &mut Ev,
) {
    ev.push(Logged::public(Event::CombatEnds {
        how: "sinking".into(),
    }));
    st.stack.pop();
    let (winner, loser) = match (sunk_a, sunk_b) {
        (true, false) => (Some(b), vec![a]),
        (false, true) => (Some(a), vec![b]),
        _ => (None, vec![a, b]),
    };
    defeat(d, st, winner, &loser, false, rng, ev);
}

/// A hit location rolled for one hit on `side` (MM-DMG-2), logged.
fn roll_loc(d: &Data, rng: &mut GameRng, side: Side, ev: &mut Ev) -> Loc {
    let face = rng.die(6);
    ev.push(Logged::public(Event::Rolled {
        seat: side.seat(),
        purpose: "hit location (MM-DMG-2)".into(),
        faces: vec![face],
        successes: u8::from(is_success(d, face)),
    }));
    face_loc(d, face)
}

/// One hit at `loc` on either side; a location at 0 passes the hit to the Hull (MM-DMG-3).
fn apply_hit(d: &Data, st: &mut State, side: Side, loc: Loc, rng: &mut GameRng, ev: &mut Ev) {
    match side {
        Side::Player(s) => hit(d, st, s, Some(loc), rng, ev),
        Side::Npc(card) => {
            let Some(s) = stats(d, st, side) else { return };
            let mut i = Loc::HITS.iter().position(|l| *l == loc).unwrap_or(0);
            if s.hits.get(i).copied().unwrap_or(0) == 0 {
                i = 0;
            }
            if let Some(n) = st.npcs.iter_mut().find(|n| n.card == card)
                && let Some(h) = n.hits.get_mut(i)
            {
                *h += 1;
            }
            ev.push(Logged::public(Event::NpcHit {
                npc: card,
                loc: Loc::HITS.get(i).copied().unwrap_or(Loc::Hull),
            }));
        }
    }
}

fn side_sunk(d: &Data, st: &State, side: Side) -> bool {
    match side {
        Side::Player(s) => sunk(st, s),
        Side::Npc(_) => stats(d, st, side).is_some_and(|s| s.hits[0] == 0),
    }
}

/// MM-CREW-1..4 [P]: rounds of Leadership (+1 die for more crew) until a side has no crew.
fn crew_combat(
    d: &Data,
    st: &mut State,
    boarder: Side,
    boarded: Side,
    rng: &mut GameRng,
    ev: &mut Ev,
) {
    ev.push(Logged::public(Event::CombatEnds {
        how: "boarding".into(),
    }));
    let (Some(a), Some(b)) = (stats(d, st, boarder), stats(d, st, boarded)) else {
        return;
    };
    let (mut ca, mut cb) = (a.hits[3], b.hits[3]);
    for _ in 0..100 {
        if ca == 0 || cb == 0 {
            break;
        }
        let ra = roll(
            d,
            rng,
            a.leadership + a.crew_bonus + u8::from(ca > cb),
            boarder,
            "crew combat: Leadership (MM-CREW-1)",
            ev,
        );
        let rb = roll(
            d,
            rng,
            b.leadership + b.crew_bonus + u8::from(cb > ca),
            boarded,
            "crew combat: Leadership (MM-CREW-1)",
            ev,
        );
        cb = cb.saturating_sub(successes(d, &ra));
        ca = ca.saturating_sub(successes(d, &rb));
    }
    set_crew(st, boarder, a.hits[3], ca);
    set_crew(st, boarded, b.hits[3], cb);
    // MM-CREW-2: both at 0, the boarded side wins.
    let (winner, loser) = if cb == 0 && ca > 0 {
        (boarder, boarded)
    } else {
        (boarded, boarder)
    };
    defeat(d, st, Some(winner), &[loser], true, rng, ev);
}

fn set_crew(st: &mut State, side: Side, before: u8, after: u8) {
    match side {
        Side::Player(s) => {
            if let Some(p) = st.players.get_mut(s.index())
                && let Some(c) = p.hits.get_mut(3)
            {
                *c = after;
            }
        }
        Side::Npc(card) => {
            if let Some(n) = st.npcs.iter_mut().find(|n| n.card == card)
                && let Some(h) = n.hits.get_mut(3)
            {
                *h += before.saturating_sub(after);
            }
        }
    }
}

/// The end of a combat with a defeat (MM-NAV-13, MM-PLUN-1..6, MM-CREW-4, MM-DEATH-1). A player
/// who wins a crew combat plunders before the loser dies (a frame for the winner, who may not be
/// the player on turn); a naval NPC boarded gives its cargo, and any NPC boarded its ship.
#[allow(clippy::too_many_arguments)]
fn defeat(
    d: &Data,
    st: &mut State,
    winner: Option<Side>,
    losers: &[Side],
    boarded: bool,
    rng: &mut GameRng,
    ev: &mut Ev,
) {
    let all: Vec<Side> = winner.into_iter().chain(losers.iter().copied()).collect();
    let mut deferred: Option<Seat> = None;
    if let (Some(w), [loser]) = (winner, losers) {
        ev.push(Logged::public(Event::Defeated {
            winner: w,
            loser: *loser,
        }));
        if let Side::Player(ws) = w {
            let loser_stats = stats(d, st, *loser);
            let winner_pirate = st.player(ws).is_some_and(|p| p.is_pirate());
            let mut gold = 0;
            // MM-PLUN-3: a pirate NPC pays a non-pirate its reward.
            if let (Side::Npc(card), Some(ls)) = (*loser, loser_stats)
                && ls.pirate
                && !winner_pirate
            {
                let frigate = d
                    .npcs
                    .get(usize::from(card))
                    .is_some_and(|r| r.ship == "frigate");
                gold += if frigate { 15 } else { 5 };
            }
            // MM-PLUN-5: bounty rewards on a defeated pirate player, per eligible nation.
            if let Side::Player(ls) = *loser {
                let bounties = st.player(ls).map(|p| p.bounty).unwrap_or_default();
                let mine = st.player(ws).map(|p| p.bounty).unwrap_or_default();
                let own = st.player(ws).and_then(|p| captain_nation(d, p));
                for n in Nation::ALL {
                    let level = bounties.get(n.index()).copied().unwrap_or(0);
                    let hostile = mine.get(n.index()).is_some_and(|b| *b > 0)
                        || own.is_some_and(|o| {
                            st.war
                                .is_some_and(|(x, y)| (x == o && y == n) || (x == n && y == o))
                        });
                    if level > 0 && !hostile {
                        gold += 5 * u32::from(level);
                    }
                }
            }
            if let Some(p) = st.players.get_mut(ws.index()) {
                p.gold += gold;
            }
            if gold > 0 {
                ev.push(Logged::public(Event::Reward { seat: ws, gold }));
            }
            gain_glory(d, st, ws, "MM-NAV-13", rng, ev);
            // MM-MIS-4: objectives met by this victory.
            mission_trigger(d, st, ws, Trigger::Won, rng, ev);
            if loser_stats.is_some_and(|l| l.pirate) && matches!(loser, Side::Npc(_)) {
                mission_trigger(d, st, ws, Trigger::PirateNpcDefeated, rng, ev);
            }
            if boarded {
                match (*loser, loser_stats) {
                    // MM-PLUN-1: the loser waits, alive, until the winner is done.
                    (Side::Player(ls), _) => {
                        st.stack.push(Frame::Plunder { seat: ws, from: ls });
                        deferred = Some(ls);
                    }
                    (Side::Npc(card), Some(ls)) => {
                        let row = d.npcs.get(usize::from(card));
                        // MM-PLUN-2: a naval ship's cargo, less a card per Cargo hit it took.
                        if !ls.pirate {
                            let cargo_hits = st
                                .npcs
                                .iter()
                                .find(|n| n.card == card)
                                .map_or(0, |n| n.hits[4]);
                            naval_plunder(d, st, ws, cargo_hits, rng, ev);
                        }
                        // MM-PLUN-4: the defeated ship may be claimed, as it is.
                        let ship =
                            row.and_then(|r| Ship::ALL.into_iter().find(|k| k.word() == r.ship));
                        if let Some(ship) = ship {
                            st.stack.push(Frame::Claim {
                                seat: ws,
                                ship,
                                hits: ls.hits,
                            });
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    for side in all {
        match side {
            Side::Npc(card) if losers.contains(&side) => st.npcs.retain(|n| n.card != card),
            // MM-NPC-4: a surviving NPC's damage is cleared.
            Side::Npc(card) => {
                if let Some(n) = st.npcs.iter_mut().find(|n| n.card == card) {
                    n.hits = [0; 5];
                }
            }
            Side::Player(s) if losers.contains(&side) && deferred != Some(s) => {
                die(d, st, s, rng, ev);
            }
            Side::Player(_) => {}
        }
    }
}

/// MM-PLUN-2: three cargo cards, their plunder value in gold, one discarded at random per
/// Cargo hit the naval ship took; the rest may be kept.
fn naval_plunder(
    d: &Data,
    st: &mut State,
    seat: Seat,
    cargo_hits: u8,
    rng: &mut GameRng,
    ev: &mut Ev,
) {
    let mut cards: Vec<u8> = (0..3).filter_map(|_| draw_cargo(st, rng)).collect();
    let gold: u32 = cards
        .iter()
        .map(|c| u32::from(d.cargo_card(*c).plunder))
        .sum();
    ev.push(Logged::public(Event::RaidDrew {
        seat,
        cards: cards.clone(),
    }));
    if let Some(p) = st.players.get_mut(seat.index()) {
        p.gold += gold;
    }
    if gold > 0 {
        ev.push(Logged::public(Event::Reward { seat, gold }));
    }
    for _ in 0..cargo_hits {
        if cards.is_empty() {
            break;
        }
        let c = cards.remove(rng.index(cards.len()));
        st.cargo_discard.push(c);
        ev.push(Logged::public(Event::CargoDiscarded {
            seat,
            cards: vec![c],
        }));
    }
    if !cards.is_empty() {
        st.stack.push(Frame::Keep {
            seat,
            cards,
            secret: false,
        });
    }
}

/// A combat ended without a defeat (an escape).
fn close(d: &Data, st: &mut State, a: Side, b: Side, ev: &mut Ev) {
    let _ = (d, ev);
    st.stack.pop();
    for side in [a, b] {
        if let Side::Npc(card) = side
            && let Some(n) = st.npcs.iter_mut().find(|n| n.card == card)
        {
            n.hits = [0; 5];
        }
    }
}

/// MM-ACT-4 / MM-MOVE-2 / MM-NPC-7: every NPC in the zone of `seat` that has it on its hunt
/// list tries once, in order of where the seat stands on their lists (MM-NPC-6; ties in the
/// order the NPCs came into play). A found seat fights; the NPCs after wait for the end of that
/// fight ([`hunt_on`]).
pub fn npc_hunt(d: &Data, st: &mut State, seat: Seat, rng: &mut GameRng, ev: &mut Ev) {
    st.hunt = None;
    if !matches!(st.stack.last(), Some(Frame::Turn { .. })) {
        return;
    }
    let Some(p) = st.player(seat).cloned() else {
        return;
    };
    if !p.at_sea() {
        return;
    }
    // Highest on its list first; the sort is stable, so ties keep the order of play.
    let mut hunters: Vec<&super::state::Npc> = st
        .npcs
        .iter()
        .filter(|n| n.zone == p.zone && super::rules::hunts(d, st, n, &p))
        .collect();
    hunters.sort_by_key(|n| std::cmp::Reverse(super::rules::hunt_priority(d, st, n, &p)));
    let cards = hunters.into_iter().map(|n| n.card).collect();
    st.hunt = Some((seat, cards));
    hunt_on(d, st, rng, ev);
}

/// MM-NPC-7: the next NPCs of the hunt under way try their Scouting, until one finds the
/// hunted seat (a fight, after which the rest go on) or none is left. Nothing is left to try
/// once the hunted seat's turn is not on top any more, nor for an NPC gone from its zone.
pub fn hunt_on(d: &Data, st: &mut State, rng: &mut GameRng, ev: &mut Ev) {
    let Some((seat, mut left)) = st.hunt.take() else {
        return;
    };
    if !matches!(st.stack.last(), Some(Frame::Turn { seat: s, .. }) if *s == seat) {
        return;
    }
    while !left.is_empty() {
        let card = left.remove(0);
        let Some(p) = st.player(seat).cloned() else {
            return;
        };
        let here = st
            .npcs
            .iter()
            .find(|n| n.card == card)
            .is_some_and(|n| n.zone == p.zone && super::rules::hunts(d, st, n, &p));
        if !p.at_sea() || !here {
            continue;
        }
        let base = stats(d, st, Side::Npc(card)).map_or(0, |s| s.scouting);
        let dice = super::rules::zone_scouting(d, p.zone, base);
        let faces = roll(d, rng, dice, Side::Npc(card), "NPC Scouting (MM-NPC-7)", ev);
        if successes(d, &faces) > 0 {
            st.hunt = Some((seat, left));
            // TW2: the hunted captain may answer the scout before the attack.
            let ctx = WindowCtx::Scout {
                scouter: Side::Npc(card),
                target: Target::Player(seat),
                found: true,
            };
            if !open_window(d, st, 2, ctx, Vec::new()) {
                start(d, st, Side::Npc(card), Side::Player(seat), ev);
            }
            return;
        }
    }
}
