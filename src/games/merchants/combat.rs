//! Naval combat (MM-NAV), damage (MM-DMG), crew combat (MM-CREW placeholder), NPC hunting and
//! choices (MM-NPC-7/8), and the rewards of a defeat (MM-NAV-13, MM-PLUN-3/5).
//!
//! A combat is one frame on the decision stack, above the turn it interrupted: the aggressor
//! declares first and openly, then the defender, each only when it is a player (NPCs never
//! wait); when the frame closes the turn beneath resumes exactly as it was. Not yet: Long
//! Guns and the other special weapons, the timing windows TW2–TW7 with glory cards, plunder
//! choices and claiming ships (the winner of a crew combat takes the loser's gold on board).

use super::data::Data;
use super::events::Event;
use super::ids::{Loc, Nation, Skill};
use super::rules::{
    add_bounty, captain_nation, die, face_loc, gain_glory, hit, is_success, max_of, no, skill, sunk,
};
use super::state::{Frame, State};
use crate::engine::{GameRng, Illegal, Logged, Seat};
use serde::{Deserialize, Serialize};

type Ev = Vec<Logged<Event>>;

/// A side of a combat: a player's ship or an NPC (by D-NPC card).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "id", rename_all = "snake_case")]
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
            })
        }
    }
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
        add_bounty(d, st, s, n, ev);
    }
    st.stack.push(Frame::Combat {
        aggressor,
        defender,
        round: 1,
        declared: None,
    });
    npc_declares(d, st, ev);
}

/// MM-NPC-8 [P]: an NPC aggressor declares at once.
fn npc_declares(d: &Data, st: &mut State, ev: &mut Ev) {
    let Some(Frame::Combat {
        aggressor: Side::Npc(c),
        defender,
        round,
        declared: None,
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

/// A player's declaration.
pub fn declare(
    d: &Data,
    st: &mut State,
    seat: Seat,
    decl: Decl,
    rng: &mut GameRng,
    ev: &mut Ev,
) -> Result<(), Illegal> {
    let Some(Frame::Combat {
        aggressor,
        defender,
        round,
        declared,
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
    ev.push(Logged::public(Event::Declared { side: me, decl }));
    match declared {
        None => {
            if let Some(Frame::Combat { declared, .. }) = st.stack.last_mut() {
                *declared = Some(decl);
            }
            if let Side::Npc(_) = defender {
                let answer = npc_choice(d, st, defender, aggressor, round, Some(decl));
                ev.push(Logged::public(Event::Declared {
                    side: defender,
                    decl: answer,
                }));
                resolve_round(d, st, decl, answer, rng, ev);
            }
        }
        Some(first) => resolve_round(d, st, first, decl, rng, ev),
    }
    Ok(())
}

/// MM-NAV-6..12: one round, from the contest to sinking, boarding or escape.
fn resolve_round(d: &Data, st: &mut State, da: Decl, db: Decl, rng: &mut GameRng, ev: &mut Ev) {
    let Some(Frame::Combat {
        aggressor: a,
        defender: b,
        round,
        ..
    }) = st.stack.last().cloned()
    else {
        return;
    };
    let (Some(sa), Some(sb)) = (stats(d, st, a), stats(d, st, b)) else {
        close(d, st, a, b, ev);
        return;
    };
    // MM-NAV-6: Seamanship, +1 die for 2 more Maneuverability, 1 die with Masts 0.
    let dice = |s: &Stats, o: &Stats| {
        if s.hits[1] == 0 {
            1
        } else {
            s.seamanship + u8::from(s.maneuver >= o.maneuver.saturating_add(2))
        }
    };
    let fa = roll(
        d,
        rng,
        dice(&sa, &sb),
        a,
        "contest: Seamanship (MM-NAV-6)",
        ev,
    );
    let fb = roll(
        d,
        rng,
        dice(&sb, &sa),
        b,
        "contest: Seamanship (MM-NAV-6)",
        ev,
    );
    let (na, nb) = (successes(d, &fa), successes(d, &fb));
    // MM-NAV-7.
    let winner = if na > nb {
        Some(a)
    } else if nb > na {
        Some(b)
    } else if na > 0 && pips(d, &fa) != pips(d, &fb) {
        Some(if pips(d, &fa) > pips(d, &fb) { a } else { b })
    } else {
        None
    };
    // MM-NAV-8: hits from every Shoot.
    let shots = |decl: Decl, s: &Stats, n: u8, won: bool| match decl {
        Decl::Shoot if won => s.hits[2],
        Decl::Shoot => n.min(s.hits[2]),
        _ => 0,
    };
    let to_b = shots(da, &sa, na, winner == Some(a));
    let to_a = shots(db, &sb, nb, winner == Some(b));
    // MM-NAV-11: roll every location, then apply all hits together.
    for _ in 0..to_a {
        side_hit(d, st, a, rng, ev);
    }
    for _ in 0..to_b {
        side_hit(d, st, b, rng, ev);
    }
    let (sunk_a, sunk_b) = (side_sunk(d, st, a), side_sunk(d, st, b));
    if sunk_a || sunk_b {
        // MM-NAV-12/13: a sunk side is defeated; both sunk, nobody scores.
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
        return;
    }
    // MM-NAV-9: a winning Board with crew left starts crew combat.
    for (side, decl, other) in [(a, da, b), (b, db, a)] {
        if winner == Some(side) && decl == Decl::Board {
            let crew = stats(d, st, side).map_or(0, |s| s.hits[3]);
            if crew > 0 {
                st.stack.pop();
                crew_combat(d, st, side, other, rng, ev);
                return;
            }
        }
    }
    // MM-NAV-10: Flee and won, or Flee and the opponent rolled no success.
    for (side, decl, their) in [(a, da, nb), (b, db, na)] {
        if decl == Decl::Flee && (winner == Some(side) || their == 0) {
            ev.push(Logged::public(Event::CombatEnds {
                how: "escape".into(),
            }));
            close(d, st, a, b, ev);
            return;
        }
    }
    if let Some(Frame::Combat {
        round: r, declared, ..
    }) = st.stack.last_mut()
    {
        *r = round.saturating_add(1);
        *declared = None;
    }
    npc_declares(d, st, ev);
}

/// MM-DMG-2/3 for either side.
fn side_hit(d: &Data, st: &mut State, side: Side, rng: &mut GameRng, ev: &mut Ev) {
    match side {
        Side::Player(s) => hit(d, st, s, None, rng, ev),
        Side::Npc(card) => {
            let face = rng.die(6);
            ev.push(Logged::public(Event::Rolled {
                seat: None,
                purpose: "hit location (MM-DMG-2)".into(),
                faces: vec![face],
                successes: u8::from(is_success(d, face)),
            }));
            let Some(s) = stats(d, st, side) else { return };
            let mut i = Loc::HITS
                .iter()
                .position(|l| *l == face_loc(d, face))
                .unwrap_or(0);
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
            a.leadership + u8::from(ca > cb),
            boarder,
            "crew combat: Leadership (MM-CREW-1)",
            ev,
        );
        let rb = roll(
            d,
            rng,
            b.leadership + u8::from(cb > ca),
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

/// The end of a combat with a defeat (MM-NAV-13, MM-PLUN-3/5/6, MM-CREW-4, MM-DEATH-1).
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
    if let (Some(w), [loser]) = (winner, losers) {
        ev.push(Logged::public(Event::Defeated {
            winner: w,
            loser: *loser,
        }));
        if let Side::Player(ws) = w {
            let loser_stats = stats(d, st, *loser);
            let winner_pirate = st.player(ws).is_some_and(|p| p.is_pirate());
            let mut gold = 0;
            match (*loser, loser_stats) {
                // MM-PLUN-3: a pirate NPC pays a non-pirate its reward.
                (Side::Npc(card), Some(ls)) if ls.pirate && !winner_pirate => {
                    let frigate = d
                        .npcs
                        .get(usize::from(card))
                        .is_some_and(|r| r.ship == "frigate");
                    gold += if frigate { 15 } else { 5 };
                }
                // MM-PLUN-1 (simplified): the loser's gold on board.
                (Side::Player(ls), _) if boarded => {
                    gold += st.player(ls).map_or(0, |p| p.gold);
                    if let Some(p) = st.players.get_mut(ls.index()) {
                        p.gold = 0;
                    }
                }
                _ => {}
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
            Side::Player(s) if losers.contains(&side) => die(d, st, s, rng, ev),
            Side::Player(_) => {}
        }
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

/// MM-NPC-7 [P]: each NPC in the seat's zone that hunts it rolls Scouting; the first to
/// succeed attacks. Only when the seat is at sea and no decision is already open above its turn.
pub fn npc_hunt(d: &Data, st: &mut State, seat: Seat, rng: &mut GameRng, ev: &mut Ev) {
    if !matches!(st.stack.last(), Some(Frame::Turn { .. })) {
        return;
    }
    let Some(p) = st.player(seat).cloned() else {
        return;
    };
    if !p.at_sea() {
        return;
    }
    let hunters: Vec<u8> = st
        .npcs
        .iter()
        .filter(|n| n.zone == p.zone && super::rules::hunts(d, st, n, &p))
        .map(|n| n.card)
        .collect();
    for card in hunters {
        let dice = stats(d, st, Side::Npc(card)).map_or(0, |s| s.scouting);
        let faces = roll(d, rng, dice, Side::Npc(card), "NPC Scouting (MM-NPC-7)", ev);
        if successes(d, &faces) > 0 {
            start(d, st, Side::Npc(card), Side::Player(seat), ev);
            return;
        }
    }
}
