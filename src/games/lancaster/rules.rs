//! The rules proper: setup (LAN-SET), the round flow (LAN-RND) as a state machine that runs every
//! automatic step until a decision is needed, each action's validation and effect, and the list
//! of legal actions.

use super::action::{Action, Take};
use super::data::{Cond, Effect, LawKind, Metric, Res, data};
use super::events::{BallotShown, Event, Rank};
use super::ids::{CardId, CountyId, FavourId, LawId, Piece, Space, Target};
use super::options::Rules;
use super::score::final_scoring;
use super::sink::{Contains, Count, Nth, Sink};
use super::state::{Ballot, Conflict, CountySlot, Faction, Frame, Loc, Stack, State, Step};
use crate::engine::{GameRng, Illegal, Logged, OptionsError, Seat, SeatSet};

type Events = Vec<Logged<Event>>;

fn illegal(rule: &'static str, detail: impl Into<String>) -> Illegal {
    Illegal::new(rule, detail)
}

/// LAN-SET: the starting state, waiting for the starting extensions (D1).
pub fn setup(
    rules: &Rules,
    players: u8,
    rng: &mut GameRng,
    events: &mut Events,
) -> Result<State, OptionsError> {
    let d = super::data::load().map_err(OptionsError)?;
    if !(2..=5).contains(&players) {
        return Err(OptionsError(format!(
            "seats: Lancaster is for 2 to 5 players, not {players}"
        )));
    }
    let pc = d
        .player_count(players)
        .ok_or_else(|| OptionsError(format!("no data for {players} players")))?;
    let faction = |seat: u8, ally: bool| {
        let court = if ally {
            &d.ally_start_court
        } else {
            &d.start_court
        };
        let mut knights = vec![Loc::Reserve; d.knights.len()];
        for s in court {
            if let Some((_, l)) = knights
                .iter_mut()
                .zip(&d.knights)
                .map(|(l, k)| (k, l))
                .find(|(k, l)| **k == *s && **l == Loc::Reserve)
            {
                *l = Loc::Court;
            }
        }
        Faction {
            seat: Seat(seat),
            ally,
            knights,
            gold: if ally { 0 } else { d.start.gold },
            squires: if ally { 0 } else { d.start.squires },
            voting_markers: if ally { 0 } else { rules.start_voting_markers },
            pp: 0,
            nobles: Vec::new(),
            built: Vec::new(),
            resolved: Vec::new(),
            castle_done: false,
            start_extension: None,
        }
    };
    let mut factions: Vec<Faction> = (0..players).map(|s| faction(s, false)).collect();
    if players == 2 {
        factions.extend((0..players).map(|s| faction(s, true)));
    }
    // R2: shuffle each law group, group 0 on top.
    let mut law_deck = Vec::new();
    for g in 0..d.law_group_sizes.len() {
        let mut group: Vec<LawId> = d
            .laws
            .iter()
            .enumerate()
            .filter(|(_, l)| usize::from(l.group) == g)
            .map(|(i, _)| LawId(i as u8))
            .collect();
        rng.shuffle(&mut group);
        law_deck.extend(group);
    }
    law_deck.reverse(); // draw from the end
    let current: Vec<LawId> = (0..d.components.current_laws)
        .filter_map(|_| law_deck.pop())
        .collect();
    // R3
    // DAT-CONFLICTS `min_players`; a two-player game uses `two_player_cards_as`'s cards.
    let mut conflict_deck: Vec<CardId> = d.conflicts_in_play(players).map(CardId).collect();
    rng.shuffle(&mut conflict_deck);
    // R1
    let start_player = Seat(rng.below(u32::from(players)) as u8);
    let mut state = State {
        rules: rules.clone(),
        players,
        factions,
        round: 1,
        start_player,
        next_start_player: None,
        step: Step::StartExtension,
        frames: Vec::new(),
        parallel_from: None,
        counties: vec![None; d.counties.len()],
        nobles: vec![pc.nobles_per_county; d.counties.len()],
        nobles_removed: vec![0; d.counties.len()],
        conflict_deck,
        top_row: Vec::new(),
        bottom_row: Vec::new(),
        conflict_discard: Vec::new(),
        law_deck,
        current_laws: current,
        proposed_laws: Vec::new(),
        law_discard: Vec::new(),
        favours_taken: Vec::new(),
        conflict_placements: 0,
        ballots: vec![None; usize::from(players)],
        resigned: None,
        outcome: None,
    };
    reveal_round(&mut state, events);
    if rules.draws_extensions() {
        // LAN-SET-7 with `extension_draw = random` (R4): each player's starting extension is
        // drawn blind now, after R1-R3, so there is no D1 decision.
        let mut built = Vec::new();
        for seat in state.seats() {
            if let Some(sp) = draw_extension(&mut state, seat.0, rng) {
                if let Some(f) = state.faction_mut(seat.0) {
                    f.start_extension = Some(sp);
                }
                built.push((seat, sp));
            }
        }
        events.push(Logged::public(Event::StartExtensionsRevealed { built }));
        state.step = Step::Place {
            turn: state.start_player,
        };
    }
    Ok(state)
}

/// LAN-EFF-4 with `extension_draw = random`: one of `faction`'s face-down extension tiles, drawn
/// blind with the action's generator and built. The face-down tiles have no stored order: the
/// draw happens at the moment of gaining, so no view or state can tell the next one. `None`
/// when none is left (LAN-ENG-4: the effect is lost).
fn draw_extension(state: &mut State, faction: u8, rng: &mut GameRng) -> Option<Space> {
    let options = build_options(state, faction);
    if options.is_empty() {
        return None;
    }
    let space = options.get(rng.index(options.len())).copied()?;
    state.faction_mut(faction)?.built.push(space);
    Some(space)
}

/// LAN-NXT-1..3 (and the first round's reveal): conflicts, favours, proposals.
fn reveal_round(state: &mut State, events: &mut Events) {
    let d = data();
    for _ in 0..d.conflicts_per_round {
        if let Some(card) = state.conflict_deck.pop() {
            state.top_row.push(Conflict {
                card,
                spaces: Vec::new(),
            });
        }
    }
    state.favours_taken.clear();
    state.conflict_placements = 0;
    for _ in 0..d.components.proposals_per_round {
        if let Some(l) = state.law_deck.pop() {
            state.proposed_laws.push(Some(l));
        }
    }
    events.push(Logged::public(Event::RoundStarted {
        round: state.round,
        start_player: state.start_player,
        conflicts: state.top_row.iter().map(|c| c.card).collect(),
        proposed: state.proposed_laws.iter().flatten().copied().collect(),
    }));
}

fn gain(state: &mut State, faction: u8, res: Res, events: &mut Events) {
    let Some(f) = state.faction_mut(faction) else {
        return;
    };
    if f.ally || res.is_zero() {
        // LAN-2P-7, LAN-2P-10: gold, squires and the like are lost to an ally.
        return;
    }
    f.gold += res.gold;
    f.squires += res.squires;
    f.voting_markers += res.voting_markers;
    f.pp += res.pp;
    events.push(Logged::public(Event::Gained {
        faction,
        gold: res.gold,
        squires: res.squires,
        voting_markers: res.voting_markers,
        pp: res.pp,
    }));
}

fn can_pay(f: &Faction, res: Res) -> bool {
    f.gold >= res.gold && f.squires >= res.squires && f.voting_markers >= res.voting_markers
}

/// The refusals of [`pay`], without paying.
fn pay_check(state: &State, faction: u8, res: Res) -> Result<(), Illegal> {
    let f = state
        .faction(faction)
        .ok_or_else(|| illegal("LAN-EFF-1", "no such colour"))?;
    if !can_pay(f, res) {
        return Err(illegal(
            "LAN-EFF-1",
            "A player cannot pay more than they hold.",
        ));
    }
    Ok(())
}

/// Pays `res`; refused (by [`pay_check`]) before anything changes.
fn pay(state: &mut State, faction: u8, res: Res, events: &mut Events) -> Result<(), Illegal> {
    pay_check(state, faction, res)?;
    let Some(f) = state.faction_mut(faction) else {
        return Ok(());
    };
    f.gold -= res.gold;
    f.squires -= res.squires;
    f.voting_markers -= res.voting_markers;
    if res.gold + res.squires + res.voting_markers > 0 {
        events.push(Logged::public(Event::Paid {
            faction,
            gold: res.gold,
            squires: res.squires,
            voting_markers: res.voting_markers,
        }));
    }
    Ok(())
}

/// LAN-EFF-2: a strength-1 knight from the reserve to the court, if there is one.
fn recruit(state: &mut State, faction: u8, events: &mut Events) {
    let d = data();
    let Some(f) = state.faction_mut(faction) else {
        return;
    };
    let weakest = d.knights.iter().copied().min().unwrap_or(1);
    let found = (0..f.knights.len() as u8)
        .find(|i| f.loc(*i) == Loc::Reserve && d.strength(usize::from(*i)) == weakest);
    if let Some(i) = found {
        f.set_loc(i, Loc::Court);
        let piece = f.piece(i);
        events.push(Logged::public(Event::Recruited { faction, piece }));
    }
}

/// Applies an effect's automatic parts and stacks its decisions (first decision on top). With
/// `extension_draw = random` an extension tile is drawn at once instead of asked for.
fn apply_effect(
    state: &mut State,
    faction: u8,
    e: &Effect,
    rng: &mut GameRng,
    events: &mut Events,
) {
    let ally = state.faction(faction).is_some_and(|f| f.ally);
    gain(state, faction, e.gain, events);
    for _ in 0..e.recruit {
        recruit(state, faction, events);
    }
    let mut frames = Vec::new();
    for _ in 0..e.upgrade {
        frames.push(Frame::Upgrade {
            faction,
            deployed_only: e.deployed_only,
            only_strength: e.only_strength,
        });
    }
    if !ally {
        for _ in 0..e.build_extension {
            if state.rules.draws_extensions() {
                if let Some(space) = draw_extension(state, faction, rng) {
                    events.push(Logged::public(Event::ExtensionDrawn { faction, space }));
                }
            } else {
                frames.push(Frame::Build { faction });
            }
        }
    }
    for _ in 0..e.take_noble {
        frames.push(Frame::Noble { faction });
    }
    frames.reverse();
    state.frames.extend(frames);
}

#[cfg(test)]
pub fn apply_effect_for_test(
    state: &mut State,
    faction: u8,
    e: &Effect,
    rng: &mut GameRng,
    events: &mut Events,
) {
    apply_effect(state, faction, e, rng, events);
}

/// LAN-EFF-3: the knights `faction` may upgrade under `frame`'s restrictions.
pub fn upgrade_options(
    state: &State,
    faction: u8,
    deployed_only: bool,
    only: Option<u8>,
) -> Vec<u8> {
    let d = data();
    let Some(f) = state.faction(faction) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, l) in f.knights.iter().enumerate() {
        let s = d.strength(i);
        let ok = *l != Loc::Reserve
            && *l != Loc::Captive
            && (!deployed_only || l.deployed())
            && only.is_none_or(|o| o == s)
            && f.knights
                .iter()
                .enumerate()
                .any(|(j, m)| *m == Loc::Reserve && d.strength(j) == s + 1);
        if ok {
            out.push(i as u8);
        }
    }
    out
}

fn do_upgrade(state: &mut State, faction: u8, idx: u8, events: &mut Events) {
    let d = data();
    let Some(f) = state.faction_mut(faction) else {
        return;
    };
    let s = d.strength(usize::from(idx));
    let Some(j) = (0..f.knights.len() as u8)
        .find(|j| f.loc(*j) == Loc::Reserve && d.strength(usize::from(*j)) == s + 1)
    else {
        return;
    };
    let loc = f.loc(idx);
    f.set_loc(j, loc);
    f.set_loc(idx, Loc::Reserve);
    let (from, to) = (f.piece(idx), f.piece(j));
    match loc {
        Loc::County(c) => {
            if let Some(Some(slot)) = state.counties.get_mut(usize::from(c.0)) {
                slot.piece = j;
            }
        }
        Loc::Conflict(card) => {
            if let Some(x) = state.conflict_mut(card) {
                for st in x.spaces.iter_mut().filter(|st| st.faction == faction) {
                    for p in st.pieces.iter_mut().filter(|p| **p == idx) {
                        *p = j;
                    }
                }
            }
        }
        _ => {}
    }
    events.push(Logged::public(Event::Upgraded { faction, from, to }));
}

/// LAN-EFF-5: the letters `faction` may take (or, for an ally, remove).
pub fn noble_options(state: &State, faction: u8) -> Vec<CountyId> {
    let Some(f) = state.faction(faction) else {
        return Vec::new();
    };
    (0..state.nobles.len() as u8)
        .map(CountyId)
        .filter(|c| state.nobles.get(usize::from(c.0)).is_some_and(|n| *n > 0))
        .filter(|c| f.ally || !f.nobles.contains(c))
        .collect()
}

fn take_noble(state: &mut State, faction: u8, c: CountyId, events: &mut Events) {
    let ally = state.faction(faction).is_some_and(|f| f.ally);
    if let Some(n) = state.nobles.get_mut(usize::from(c.0)) {
        *n = n.saturating_sub(1);
    }
    if ally {
        if let Some(n) = state.nobles_removed.get_mut(usize::from(c.0)) {
            *n += 1;
        }
        events.push(Logged::public(Event::NobleRemoved { faction, county: c }));
    } else {
        if let Some(f) = state.faction_mut(faction) {
            f.nobles.push(c);
        }
        events.push(Logged::public(Event::NobleTaken { faction, county: c }));
    }
}

/// Unbuilt extension tiles of `faction` (LAN-EFF-4).
pub fn build_options(state: &State, faction: u8) -> Vec<Space> {
    let Some(f) = state.faction(faction) else {
        return Vec::new();
    };
    if f.ally {
        return Vec::new();
    }
    (0..data().castle_spaces.len() as u8)
        .map(|idx| Space { ally: false, idx })
        .filter(|s| !f.built.contains(s))
        .collect()
}

/// Conflict cards `faction` may join now (LAN-CNF-1..3): its own stack or a free space.
fn conflict_options(state: &State, faction: u8) -> Vec<CardId> {
    conflicts_open(state, faction).collect()
}

/// [`conflict_options`] without the vector, in the same order.
fn conflicts_open(state: &State, faction: u8) -> impl Iterator<Item = CardId> + '_ {
    state
        .top_row
        .iter()
        .chain(&state.bottom_row)
        .filter(move |c| {
            c.spaces.len() < data().conflict_spaces()
                || c.spaces.iter().any(|s| s.faction == faction)
        })
        .map(|c| c.card)
}

fn join_conflict(state: &mut State, faction: u8, piece: u8, card: CardId) -> Result<(), Illegal> {
    let c = state
        .conflict_mut(card)
        .ok_or_else(|| illegal("LAN-CNF-3", format!("{card} is not on the board.")))?;
    if let Some(st) = c.spaces.iter_mut().find(|s| s.faction == faction) {
        st.pieces.push(piece);
    } else if c.spaces.len() < data().conflict_spaces() {
        c.spaces.push(Stack {
            faction,
            pieces: vec![piece],
        });
    } else {
        return Err(illegal(
            "LAN-CNF-1",
            format!("{card} has no free knight space."),
        ));
    }
    if let Some(f) = state.faction_mut(faction) {
        f.set_loc(piece, Loc::Conflict(card));
    }
    Ok(())
}

/// The King's favour tiles in this game (DAT-FAVOURS `min_players`) still face up this round.
pub fn face_up_favours(state: &State) -> Vec<FavourId> {
    favours_face_up(state).collect()
}

/// [`face_up_favours`] without the vector, in the same order.
fn favours_face_up(state: &State) -> impl Iterator<Item = FavourId> + '_ {
    data()
        .favours_in_play(state.players)
        .map(FavourId)
        .filter(|t| !state.favours_taken.contains(t))
}

/// Whether `faction` has a strength-1 knight in reserve to recruit (LAN-EFF-2).
fn can_recruit(state: &State, faction: u8) -> bool {
    let d = data();
    let weakest = d.knights.first().copied().unwrap_or(1);
    state.faction(faction).is_some_and(|f| {
        f.knights
            .iter()
            .enumerate()
            .any(|(i, l)| *l == Loc::Reserve && d.strength(i) == weakest)
    })
}

/// Whether effect `e` would give `faction` anything now: LAN-ENG-4 loses the parts that cannot
/// be applied, so an exchange whose effect has no part left gives nothing and is not offered
/// (LAN-ENG-3: a cost is paid for an effect).
pub fn effect_applies(state: &State, faction: u8, e: &Effect) -> bool {
    let ally = state.faction(faction).is_some_and(|f| f.ally);
    (!ally && !e.gain.is_zero())
        || (e.recruit > 0 && can_recruit(state, faction))
        || (e.upgrade > 0
            && !upgrade_options(state, faction, e.deployed_only, e.only_strength).is_empty())
        || (e.build_extension > 0 && !build_options(state, faction).is_empty())
        || (e.take_noble > 0 && !noble_options(state, faction).is_empty())
        || (e.passage_to_france > 0 && conflicts_open(state, faction).next().is_some())
}

fn county_strength(slot: &CountySlot) -> u32 {
    u32::from(data().strength(usize::from(slot.piece))) + slot.squires
}

/// Whether `faction`'s strength-`s` knight with `squires` may enter county `c` (LAN-CTY).
fn county_check(
    state: &State,
    faction: u8,
    s: u8,
    squires: u32,
    c: CountyId,
) -> Result<(), Illegal> {
    let Some(no) = county_refusal(state, faction, s, squires, c) else {
        return Ok(());
    };
    let name = data()
        .county(usize::from(c.0))
        .map_or("", |county| county.name.as_str());
    Err(match no {
        CountyNo::NoCounty => illegal("LAN-CMP-1", "no such county"),
        CountyNo::NoColour => illegal("LAN-GEN-4", "no such colour"),
        CountyNo::Weak(min) => illegal(
            "LAN-CTY-1",
            format!("{name} needs a knight of strength {min} or more; squires do not count."),
        ),
        CountyNo::AllySquires => illegal("LAN-2P-4", "Allies never use squires."),
        CountyNo::FewSquires => illegal("LAN-EFF-1", "You do not have that many squires."),
        CountyNo::Own(rule) => illegal(
            rule,
            "A player can never expel their own knight or their own ally's knight.",
        ),
        CountyNo::NotStronger(strength) => illegal(
            "LAN-CTY-3",
            format!(
                "To take over {name} the new knight and its squires must be strictly stronger than {strength}."
            ),
        ),
    })
}

/// Why a county placement is refused, without the sentence (building it allocates, and the
/// legal-action list asks about every county).
enum CountyNo {
    NoCounty,
    NoColour,
    Weak(u8),
    AllySquires,
    FewSquires,
    Own(&'static str),
    NotStronger(u32),
}

/// The checks of [`county_check`], in its order; `None` when the placement is allowed.
fn county_refusal(
    state: &State,
    faction: u8,
    s: u8,
    squires: u32,
    c: CountyId,
) -> Option<CountyNo> {
    let Some(county) = data().county(usize::from(c.0)) else {
        return Some(CountyNo::NoCounty);
    };
    let Some(f) = state.faction(faction) else {
        return Some(CountyNo::NoColour);
    };
    if s < county.min {
        return Some(CountyNo::Weak(county.min));
    }
    if squires > 0 && f.ally {
        return Some(CountyNo::AllySquires);
    }
    if squires > f.squires {
        return Some(CountyNo::FewSquires);
    }
    if let Some(occ) = state.county(c) {
        let occ_seat = state.faction(occ.faction).map(|x| x.seat);
        if occ_seat == Some(f.seat) {
            return Some(CountyNo::Own(if occ.faction == faction {
                "LAN-CTY-4"
            } else {
                "LAN-2P-5"
            }));
        }
        if u32::from(s) + squires <= county_strength(&occ) {
            return Some(CountyNo::NotStronger(county_strength(&occ)));
        }
    }
    None
}

/// The castle spaces `faction` may place on (LAN-CAS-1..2).
fn castle_free(state: &State, faction: u8) -> impl Iterator<Item = Space> + use<> {
    let f = state.faction(faction);
    let (ally, n) = match f {
        Some(f) if f.ally => (true, data().ally_castle_spaces.len()),
        Some(_) => (false, data().castle_spaces.len()),
        None => (false, 0),
    };
    // The taken spaces in one pass over the knights and tiles, not one pass per space (the
    // placement list asks for every strength in court, and the turn order for every seat).
    let mut taken = SpaceSet::default();
    if let Some(f) = f {
        for l in &f.knights {
            if let Loc::Castle(s) = l
                && s.ally == ally
            {
                taken.insert(s.idx);
            }
        }
        // LAN-CAS-2 [I]: a built tile covers its space, unless the data says it does not.
        if data().extension_covers_space {
            for s in f.built.iter().filter(|s| s.ally == ally) {
                taken.insert(s.idx);
            }
        }
    }
    (0..n as u8)
        .filter(move |idx| !taken.contains(*idx))
        .map(move |idx| Space { ally, idx })
}

/// Castle space indexes of one castle (every `u8`, the data's counts being `u8`s).
#[derive(Debug, Clone, Copy, Default)]
struct SpaceSet([u64; 4]);

impl SpaceSet {
    fn insert(&mut self, idx: u8) {
        if let Some(word) = self.0.get_mut(usize::from(idx / 64)) {
            *word |= 1 << (idx % 64);
        }
    }

    fn contains(self, idx: u8) -> bool {
        self.0
            .get(usize::from(idx / 64))
            .is_some_and(|word| word & (1 << (idx % 64)) != 0)
    }
}

/// Every placement of `seat` (D2), one per distinct strength in court.
fn placements(state: &State, seat: Seat, out: &mut impl Sink) {
    for ally in [false, true] {
        let Some(faction) = state.faction_for(seat, ally) else {
            continue;
        };
        let Some(f) = state.faction(faction) else {
            continue;
        };
        // The court's strengths with repeats next to each other dropped (as `Vec::dedup`).
        let mut last = None;
        let strengths = f
            .pieces_at(Loc::Court)
            .map(|i| data().strength(usize::from(i)))
            .filter(move |s| last.replace(*s) != Some(*s));
        let squires = if ally { 0 } else { f.squires };
        for s in strengths {
            for c in 0..state.counties.len() as u8 {
                let county = CountyId(c);
                if let Some(lo) = county_squires_from(state, faction, s, squires, county) {
                    out.run(squires - lo + 1, |i| Action::Place {
                        knight: s,
                        ally,
                        target: Target::County(county),
                        squires: lo + i,
                    });
                }
            }
            for sp in castle_free(state, faction) {
                out.one(Action::Place {
                    knight: s,
                    ally,
                    target: Target::Castle(sp),
                    squires: 0,
                });
            }
            for card in conflicts_open(state, faction) {
                out.one(Action::Place {
                    knight: s,
                    ally,
                    target: Target::Conflict(card),
                    squires: 0,
                });
            }
        }
    }
}

/// The fewest squires, of at most `most`, with which `faction`'s strength-`s` knight may enter
/// county `c`: the placements [`county_refusal`] allows are exactly those with `lo..=most`
/// squires. Only its strictly-stronger test depends on the squires, and more never hurt, so one
/// check at `most` and the occupant's strength decide them all.
fn county_squires_from(state: &State, faction: u8, s: u8, most: u32, c: CountyId) -> Option<u32> {
    if county_refusal(state, faction, s, most, c).is_some() {
        return None;
    }
    // Allowed with `most`, so `s + most` beats the occupant and `lo <= most`.
    Some(state.county(c).map_or(0, |occ| {
        (county_strength(&occ) + 1).saturating_sub(u32::from(s))
    }))
}

fn has_placement(state: &State, seat: Seat) -> bool {
    for ally in [false, true] {
        let Some(faction) = state.faction_for(seat, ally) else {
            continue;
        };
        let Some(f) = state.faction(faction) else {
            continue;
        };
        let Some(max) = f
            .pieces_at(Loc::Court)
            .map(|i| data().strength(usize::from(i)))
            .max()
        else {
            continue;
        };
        if castle_free(state, faction).next().is_some()
            || conflicts_open(state, faction).next().is_some()
        {
            return true;
        }
        let sq = if ally { 0 } else { f.squires };
        if (0..state.counties.len() as u8)
            .any(|c| county_refusal(state, faction, max, sq, CountyId(c)).is_none())
        {
            return true;
        }
        // A weaker knight may still fit a county the strongest cannot (never: the checks are
        // monotone in strength), so the strongest decides.
    }
    false
}

fn place(
    state: &mut State,
    seat: Seat,
    knight: u8,
    ally: bool,
    target: Target,
    squires: u32,
    events: &mut Events,
) -> Result<(), Illegal> {
    let faction = state.faction_for(seat, ally).ok_or_else(|| {
        illegal(
            "LAN-2P-3",
            "Only in the two-player game does a player place an ally's knight.",
        )
    })?;
    let f = state
        .faction(faction)
        .ok_or_else(|| illegal("LAN-GEN-4", "no such colour"))?;
    let piece = f
        .pieces_at(Loc::Court)
        .find(|i| data().strength(usize::from(*i)) == knight)
        .ok_or_else(|| {
            illegal(
                "LAN-PLC-1",
                format!("There is no strength-{knight} knight in that court."),
            )
        })?;
    if squires > 0 && !matches!(target, Target::County(_)) {
        return Err(illegal(
            "LAN-CTY-5",
            "Squires may be used only in counties.",
        ));
    }
    match target {
        Target::County(c) => {
            county_check(state, faction, knight, squires, c)?;
            if let Some(occ) = state.county(c) {
                let piece = state
                    .faction(occ.faction)
                    .map(|x| x.piece(occ.piece))
                    .unwrap_or(Piece {
                        ally: false,
                        idx: occ.piece,
                    });
                if let Some(o) = state.faction_mut(occ.faction) {
                    o.set_loc(occ.piece, Loc::Court);
                }
                events.push(Logged::public(Event::Expelled {
                    faction: occ.faction,
                    piece,
                    county: c,
                    squires_lost: occ.squires,
                }));
            }
            pay(
                state,
                faction,
                Res {
                    squires,
                    ..Res::default()
                },
                events,
            )?;
            if let Some(slot) = state.counties.get_mut(usize::from(c.0)) {
                *slot = Some(CountySlot {
                    faction,
                    piece,
                    squires,
                });
            }
            if let Some(f) = state.faction_mut(faction) {
                f.set_loc(piece, Loc::County(c));
            }
        }
        Target::Castle(sp) => {
            if sp.ally != ally {
                return Err(illegal(
                    "LAN-CAS-3",
                    "Knights can never go on another castle than their own.",
                ));
            }
            if !castle_free(state, faction).any(|s| s == sp) {
                return Err(illegal(
                    "LAN-CAS-1",
                    format!("{sp} is not a free space of your castle."),
                ));
            }
            if let Some(f) = state.faction_mut(faction) {
                f.set_loc(piece, Loc::Castle(sp));
            }
        }
        Target::Conflict(card) => {
            join_conflict(state, faction, piece, card)?;
        }
    }
    let p = Piece { ally, idx: piece };
    events.push(Logged::public(Event::Placed {
        faction,
        piece: p,
        target,
        squires,
    }));
    if matches!(target, Target::Conflict(_)) {
        state.conflict_placements = state.conflict_placements.saturating_add(1);
        if state.conflict_placements <= data().favours_per_round
            && favours_face_up(state).next().is_some()
        {
            state.frames.push(Frame::Favour { faction });
        }
    }
    if let Step::Place { turn } = state.step {
        state.step = Step::Place {
            turn: state.next_seat(turn),
        };
    }
    Ok(())
}

/// The ballot options of `seat` (D3): yes or no with 0..=markers. The abstention `V:-` is
/// accepted but not listed: it is a late seat's default, not a choice of the rules.
fn vote_actions(state: &State, seat: Seat, out: &mut impl Sink) {
    let m = state.faction(seat.0).map_or(0, |f| f.voting_markers);
    for yes in [Some(true), Some(false)] {
        out.run(m.saturating_add(1), |markers| Action::Vote { yes, markers });
    }
}

/// The metric of a law for `faction` (LAN-LAW-2).
fn metric(state: &State, faction: u8, m: Metric) -> u32 {
    let d = data();
    let Some(f) = state.faction(faction) else {
        return 0;
    };
    let deployed = |s: u8| {
        f.knights
            .iter()
            .enumerate()
            .filter(|(i, l)| l.deployed() && d.strength(*i) == s)
            .count() as u32
    };
    match m {
        Metric::Gold => f.gold,
        Metric::Squires => f.squires,
        Metric::CountiesOccupied => state
            .counties
            .iter()
            .flatten()
            .filter(|s| s.faction == faction)
            .count() as u32,
        Metric::ConflictsInvolved => state
            .top_row
            .iter()
            .chain(&state.bottom_row)
            .filter(|c| c.spaces.iter().any(|s| s.faction == faction))
            .count() as u32,
        Metric::DeployedStrength2 => deployed(2),
        Metric::ExtensionsBuilt => f.built.len() as u32,
        Metric::NobleTiles => f.nobles.len() as u32,
        Metric::DeployedSets1234 => (1..=4).map(deployed).min().unwrap_or(0),
    }
}

fn condition(state: &State, faction: u8, c: Cond) -> bool {
    let d = data();
    let Some(f) = state.faction(faction) else {
        return false;
    };
    let deployed = |s: u8| {
        f.knights
            .iter()
            .enumerate()
            .filter(|(i, l)| l.deployed() && d.strength(*i) == s)
            .count()
    };
    match c {
        Cond::NoDeployedStrength2 => deployed(2) == 0,
        Cond::DeployedStrength3 => deployed(3) > 0,
        Cond::AllThreeStrength1Deployed => {
            deployed(1) == d.knights.iter().filter(|k| **k == 1).count()
        }
    }
}

/// The most times `faction` can make law `law`'s exchange.
fn exchange_max(state: &State, faction: u8, law: LawId) -> u32 {
    let (Some(f), Some(l)) = (state.faction(faction), data().law(usize::from(law.0))) else {
        return 0;
    };
    let lim = |have: u32, need: u32| have.checked_div(need).unwrap_or(u32::MAX);
    lim(f.gold, l.give.gold)
        .min(lim(f.squires, l.give.squires))
        .min(lim(f.voting_markers, l.give.voting_markers))
}

fn scale(r: Res, k: u32) -> Res {
    Res {
        gold: r.gold * k,
        squires: r.squires * k,
        voting_markers: r.voting_markers * k,
        pp: r.pp * k,
    }
}

/// D4 for one player: applies law `law` to `seat`, stacking any decision.
fn apply_law(
    state: &mut State,
    law: LawId,
    seat: Seat,
    majority: SeatSet,
    rng: &mut GameRng,
    events: &mut Events,
) {
    let Some(l) = data().law(usize::from(law.0)) else {
        return;
    };
    let faction = seat.0;
    match l.kind {
        LawKind::Majority => {
            if majority.contains(seat) {
                apply_effect(state, faction, &l.effect, rng, events);
            }
        }
        LawKind::PerN | LawKind::PerSet => {
            let n = l.n.unwrap_or(1).max(1);
            let m = l.metric.map_or(0, |m| metric(state, faction, m));
            let k = (m / n).min(l.max.unwrap_or(u32::MAX));
            if k > 0 {
                let e = Effect {
                    gain: scale(l.effect.gain, k),
                    recruit: l.effect.recruit.saturating_mul(k.min(255) as u8),
                    upgrade: l.effect.upgrade.saturating_mul(k.min(255) as u8),
                    build_extension: l.effect.build_extension.saturating_mul(k.min(255) as u8),
                    ..l.effect
                };
                apply_effect(state, faction, &e, rng, events);
            }
        }
        LawKind::Exchange => {
            // Behind screens (3–5 players) every player is asked, one who cannot exchange with
            // only "no exchange" (E:0): the pending seats are public, so asking only those who
            // can would tell the table whose screened gold or squires fall short.
            if screened(state) || exchange_max(state, faction, law) > 0 {
                state.frames.push(Frame::Exchange { faction, law });
            }
        }
        LawKind::Condition => {
            if l.cond.is_some_and(|c| condition(state, faction, c)) {
                apply_effect(state, faction, &l.effect, rng, events);
            }
        }
    }
}

/// Whether gold and squires are behind screens (the player count's `screens`: 3–5 players).
fn screened(state: &State) -> bool {
    data().player_count(state.players).is_none_or(|p| p.screens)
}

/// Whether decision `top` has no option left (LAN-ENG-4: the effect is lost).
fn frame_dead(state: &State, top: Frame) -> bool {
    match top {
        Frame::Build { faction } => build_options(state, faction).is_empty(),
        Frame::Noble { faction } => noble_options(state, faction).is_empty(),
        Frame::Favour { .. } => favours_face_up(state).next().is_none(),
        Frame::Upgrade {
            faction,
            deployed_only,
            only_strength,
        } => upgrade_options(state, faction, deployed_only, only_strength).is_empty(),
        Frame::Passage { faction, piece } => state
            .faction(faction)
            .is_none_or(|f| f.loc(piece) != Loc::Court),
        Frame::Ransom { faction } => state
            .faction(faction)
            .is_none_or(|f| !f.knights.contains(&Loc::Captive)),
        Frame::Reward {
            county, faction, ..
        } => applicable_rewards(state, county, faction).is_empty(),
        _ => false,
    }
}

/// Runs every automatic step until a decision is needed or the game is over.
pub fn advance(state: &mut State, rng: &mut GameRng, events: &mut Events) {
    for _ in 0..10_000 {
        if let Some(start) = state.parallel_from {
            // Drop decisions of the block that have become impossible, then wait for the rest.
            let mut i = state.frames.len();
            while i > start {
                i -= 1;
                if state.frames.get(i).is_some_and(|f| frame_dead(state, *f)) {
                    state.frames.remove(i);
                }
            }
            if state.frames.len() > start {
                if matches!(state.step, Step::Castles) {
                    // D6: a seat that has resolved its whole castle meanwhile gets its markers
                    // and is done, whatever the others still have to answer (LAN-RWK-3/4).
                    finish_castles(state, events);
                }
                return;
            }
            state.parallel_from = None;
        }
        // Drop decisions that have become impossible (LAN-ENG-4: the effect is lost).
        if let Some(top) = state.frames.last().copied() {
            if frame_dead(state, top) {
                state.frames.pop();
                continue;
            }
            return;
        }
        match state.step {
            Step::StartExtension => {
                if state.seats().any(|s| {
                    state
                        .faction(s.0)
                        .is_some_and(|f| f.start_extension.is_none())
                }) {
                    return;
                }
                let mut built = Vec::new();
                for s in state.seats() {
                    if let Some(f) = state.faction_mut(s.0)
                        && let Some(sp) = f.start_extension
                    {
                        f.built.push(sp);
                        built.push((s, sp));
                    }
                }
                events.push(Logged::public(Event::StartExtensionsRevealed { built }));
                state.step = Step::Place {
                    turn: state.start_player,
                };
            }
            Step::Place { turn } => {
                // LAN-PLC-2/4: skip seats without a legal placement.
                let mut seat = turn;
                let mut found = None;
                for _ in 0..state.players {
                    if has_placement(state, seat) {
                        found = Some(seat);
                        break;
                    }
                    seat = state.next_seat(seat);
                }
                match found {
                    Some(s) => {
                        state.step = Step::Place { turn: s };
                        return;
                    }
                    None => {
                        let stuck: Vec<Seat> = state
                            .seats()
                            .filter(|s| {
                                [false, true].iter().any(|a| {
                                    state
                                        .faction_for(*s, *a)
                                        .and_then(|f| state.faction(f))
                                        .is_some_and(|f| f.knights.contains(&Loc::Court))
                                })
                            })
                            .collect();
                        if !stuck.is_empty() {
                            events.push(Logged::public(Event::Stuck { seats: stuck }));
                        }
                        state.ballots = vec![None; usize::from(state.players)];
                        state.step = Step::Vote { k: 0 };
                    }
                }
            }
            Step::Vote { k } => {
                if state.ballots.iter().any(Option::is_none) {
                    return;
                }
                settle_vote(state, k, events);
                if usize::from(k) + 1 < state.proposed_laws.len() {
                    state.ballots = vec![None; usize::from(state.players)];
                    state.step = Step::Vote { k: k + 1 };
                } else {
                    // LAN-PAR-6: leftover markers return to the supply.
                    for f in state.factions.iter_mut() {
                        f.voting_markers = 0;
                    }
                    state.proposed_laws.clear();
                    state.step = Step::Laws {
                        law: 0,
                        player: 0,
                        majority: SeatSet::EMPTY,
                    };
                }
            }
            Step::Laws {
                law,
                player,
                majority,
            } => {
                let Some(&law_id) = state.current_laws.get(usize::from(law)) else {
                    state.step = Step::Counties { next: 0 };
                    continue;
                };
                if player >= state.players {
                    state.step = Step::Laws {
                        law: law + 1,
                        player: 0,
                        majority: SeatSet::EMPTY,
                    };
                    continue;
                }
                let mut majority = majority;
                if player == 0 {
                    events.push(Logged::public(Event::LawApplied { law: law_id }));
                    majority = law_majority(state, law_id);
                    if state.rules.sim_law_choices {
                        // D4 with `sim_law_choices`: every player's choices are asked at once.
                        state.parallel_from = Some(state.frames.len());
                        for seat in state.player_order().collect::<Vec<_>>() {
                            apply_law(state, law_id, seat, majority, rng, events);
                        }
                        state.step = Step::Laws {
                            law,
                            player: state.players,
                            majority,
                        };
                        continue;
                    }
                }
                let seat = state
                    .player_order()
                    .nth(usize::from(player))
                    .unwrap_or(Seat(0));
                state.step = Step::Laws {
                    law,
                    player: player + 1,
                    majority,
                };
                apply_law(state, law_id, seat, majority, rng, events);
            }
            Step::Counties { next } => {
                let Some(c) = (next..state.counties.len() as u8)
                    .find(|c| state.county(CountyId(*c)).is_some())
                else {
                    start_castles(state);
                    continue;
                };
                state.step = Step::Counties { next: c + 1 };
                state.frames.push(Frame::County {
                    county: CountyId(c),
                });
            }
            Step::Castles => {
                finish_castles(state, events);
                if state
                    .seats()
                    .any(|s| state.faction(s.0).is_some_and(|f| !f.castle_done))
                {
                    return;
                }
                state.step = Step::Conflicts { top: false };
            }
            Step::Conflicts { top } => {
                if !top {
                    if state.bottom_row.is_empty() {
                        state.step = Step::Conflicts { top: true };
                    } else {
                        let c = state.bottom_row.remove(0);
                        resolve_conflict(state, c, true, events);
                    }
                    continue;
                }
                if !state.top_row.is_empty() {
                    let c = state.top_row.remove(0);
                    resolve_conflict(state, c, false, events);
                    continue;
                }
                end_round(state, events);
                if state.is_over() {
                    return;
                }
            }
            Step::Over => return,
        }
    }
}

fn law_majority(state: &State, law: LawId) -> SeatSet {
    let Some(l) = data().law(usize::from(law.0)) else {
        return SeatSet::EMPTY;
    };
    let (LawKind::Majority, Some(m)) = (l.kind, l.metric) else {
        return SeatSet::EMPTY;
    };
    let best = state
        .seats()
        .map(|s| metric(state, s.0, m))
        .max()
        .unwrap_or(0);
    // LAN-LAW-4: every player tied for the most (even at 0) qualifies.
    state
        .seats()
        .filter(|s| metric(state, s.0, m) == best)
        .collect()
}

fn settle_vote(state: &mut State, k: u8, events: &mut Events) {
    let Some(law) = state
        .proposed_laws
        .get_mut(usize::from(k))
        .and_then(Option::take)
    else {
        return;
    };
    let mut shown = Vec::new();
    let (mut yes, mut no) = (0u32, 0u32);
    for s in state.seats() {
        let Some(b) = state.ballots.get(s.index()).copied().flatten() else {
            continue;
        };
        // LAN-PAR-4: committed markers go to the supply whatever the result; they leave the
        // voter's public pile only now, so the pile does not betray a sealed ballot.
        if let Some(f) = state.faction_mut(s.0) {
            f.voting_markers = f.voting_markers.saturating_sub(b.markers);
        }
        // LAN-PAR-3: the tile is one vote, each marker one more. An abstention (a late seat's
        // default) counts for neither side, so it cannot sink a law the others would pass.
        match b.yes {
            Some(true) => yes += 1 + b.markers,
            Some(false) => no += 1 + b.markers,
            None => {}
        }
        shown.push(BallotShown {
            seat: s,
            yes: b.yes,
            markers: b.markers,
        });
    }
    let passed = yes >= no;
    events.push(Logged::public(Event::VoteRevealed {
        law,
        ballots: shown,
        yes,
        no,
        passed,
    }));
    if passed {
        // LAN-PAR-5
        let replaced = if state.current_laws.len() >= usize::from(data().components.current_laws) {
            Some(state.current_laws.remove(0))
        } else {
            None
        };
        if let Some(r) = replaced {
            state.law_discard.push(r);
        }
        state.current_laws.push(law);
        events.push(Logged::public(Event::LawInForce { law, replaced }));
    } else {
        state.law_discard.push(law);
    }
    for b in state.ballots.iter_mut() {
        *b = None;
    }
}

fn start_castles(state: &mut State) {
    for f in state.factions.iter_mut() {
        f.resolved.clear();
        f.castle_done = false;
    }
    state.step = Step::Castles;
}

/// The castle spaces of `faction` still to resolve this round (LAN-RWK-1).
pub fn castle_todo(state: &State, faction: u8) -> Vec<Space> {
    castle_left(state, faction).collect()
}

/// [`castle_todo`] without the vector, in the same order.
fn castle_left(state: &State, faction: u8) -> impl Iterator<Item = Space> + '_ {
    let f = state.faction(faction);
    let (ally, n) = match f {
        Some(f) if f.ally => (true, data().ally_castle_spaces.len()),
        Some(_) => (false, data().castle_spaces.len()),
        None => (false, 0),
    };
    (0..n as u8)
        .map(move |idx| Space { ally, idx })
        .filter(move |s| {
            f.is_some_and(|f| {
                !f.resolved.contains(s)
                    && (f.built.contains(s) || f.knights.contains(&Loc::Castle(*s)))
            })
        })
}

/// LAN-ENG-3/4: a castle space with a cost (K2, K3) is an exchange ("a cambio de"), offered only
/// when its effect can happen.
fn castle_exchange_check(
    state: &State,
    faction: u8,
    space: &super::data::CastleSpace,
) -> Result<(), Illegal> {
    if space.cost.is_zero() || effect_applies(state, faction, &space.effect) {
        return Ok(());
    }
    let why = if space.effect.recruit > 0 {
        "no strength-1 knight is left in your reserve to recruit"
    } else if space.effect.upgrade > 0 {
        "none of your knights can be upgraded (the next strength is not in your reserve)"
    } else {
        "its effect cannot be applied now"
    };
    Err(illegal(
        "LAN-ENG-4",
        format!(
            "Paying for {} would give nothing: {why}. Resolve it without paying (K:{}-).",
            space.id, space.id
        ),
    ))
}

/// Marks seats whose castles are all resolved, follow-up decisions included, as done, with their
/// round-table markers.
fn finish_castles(state: &mut State, events: &mut Events) {
    let d = data();
    for seat in state.seats() {
        if state.faction(seat.0).is_none_or(|f| f.castle_done) || state.frame_for(seat).is_some() {
            continue;
        }
        let left = castle_left(state, seat.0).next().is_some()
            || state
                .ally_of(seat)
                .is_some_and(|a| castle_left(state, a).next().is_some());
        if left {
            continue;
        }
        let round = state.round;
        let nobles = state.faction(seat.0).map_or(0, |f| f.nobles.len() as u32);
        if let Some(f) = state.faction_mut(seat.0) {
            f.castle_done = true;
        }
        if round != d.round_table_vm.skip_round {
            // LAN-RWK-3
            let vm = nobles * d.round_table_vm.per_noble + d.round_table_vm.lord;
            gain(
                state,
                seat.0,
                Res {
                    voting_markers: vm,
                    ..Res::default()
                },
                events,
            );
        }
    }
}

/// LAN-RWF-2..7.
fn resolve_conflict(state: &mut State, c: Conflict, second: bool, events: &mut Events) {
    let d = data();
    let Some(card) = d.conflict(usize::from(c.card.0)) else {
        return;
    };
    let strength_of = |st: &Stack| -> u32 {
        st.pieces
            .iter()
            .map(|p| u32::from(d.strength(usize::from(*p))))
            .sum()
    };
    let total: u32 = c.spaces.iter().map(strength_of).sum();
    let england = !c.spaces.is_empty() && total >= card.france;
    // LAN-RWF-3: stronger first; on a tie the lower space (joined later) ranks higher.
    let mut order: Vec<(usize, u32)> = c
        .spaces
        .iter()
        .enumerate()
        .map(|(i, st)| (i, strength_of(st)))
        .collect();
    order.sort_by(|a, b| b.1.cmp(&a.1).then(b.0.cmp(&a.0)));
    let [p1, p2, p3] = card.pp;
    let prizes = if england { [p1, p2, p3] } else { [p2, p3, 0] };
    let mut ranks = Vec::new();
    for ((i, strength), pp) in order.iter().zip(prizes) {
        let Some(st) = c.spaces.get(*i) else { continue };
        // LAN-2P-12: PP at an ally's rank are lost (gain ignores allies).
        gain(
            state,
            st.faction,
            Res {
                pp,
                ..Res::default()
            },
            events,
        );
        ranks.push(Rank {
            faction: st.faction,
            strength: *strength,
            pp,
        });
    }
    events.push(Logged::public(Event::ConflictResolved {
        card: c.card,
        total,
        france: card.france,
        england_wins: england,
        second_attempt: second,
        ranks,
    }));
    if england {
        for st in &c.spaces {
            if let Some(f) = state.faction_mut(st.faction) {
                for p in &st.pieces {
                    f.set_loc(*p, Loc::Court);
                }
            }
        }
        state.conflict_discard.push(c.card);
    } else if !second {
        state.bottom_row.push(c);
    } else {
        // LAN-RWF-7: captured; players may ransom in player order, allies cannot.
        let mut frames = Vec::new();
        for st in &c.spaces {
            let Some(f) = state.faction_mut(st.faction) else {
                continue;
            };
            let ally = f.ally;
            let seat = f.seat;
            for p in &st.pieces {
                f.set_loc(*p, if ally { Loc::Reserve } else { Loc::Captive });
            }
            let pieces = st.pieces.iter().map(|p| f.piece(*p)).collect();
            events.push(Logged::public(Event::Captured {
                faction: st.faction,
                pieces,
            }));
            if !ally {
                frames.push((seat, st.faction));
            }
        }
        state.conflict_discard.push(c.card);
        let order: Vec<Seat> = state.player_order().collect();
        frames.sort_by_key(|(s, _)| order.iter().position(|o| o == s));
        if !frames.is_empty() {
            // D7a: the owners' choices are independent, so they are asked at once.
            state.parallel_from = Some(state.frames.len());
        }
        for (_, faction) in frames.into_iter().rev() {
            state.frames.push(Frame::Ransom { faction });
        }
    }
}

fn end_round(state: &mut State, events: &mut Events) {
    let d = data();
    // LAN-RWC-4: Surrey's chosen seat opens the next round (the holder keeps the marker without
    // one). The marker has already passed (LAN-ENG-5), except in a game stored while the choice
    // waited for the round's end: that choice takes effect here, as it did then.
    let next = state.next_start_player.take();
    if state.round >= d.rounds {
        let outcome = final_scoring(state);
        events.push(Logged::public(Event::GameOver {
            outcome: outcome.clone(),
        }));
        state.outcome = Some(outcome);
        state.step = Step::Over;
        return;
    }
    state.round += 1;
    if let Some(seat) = next {
        state.start_player = seat;
    }
    for f in state.factions.iter_mut() {
        f.resolved.clear();
        f.castle_done = false;
    }
    reveal_round(state, events);
    state.step = Step::Place {
        turn: state.start_player,
    };
}

/// Every action `seat` may take now.
pub fn legal_actions(state: &State, seat: Seat) -> Vec<Action> {
    if !state.is_pending(seat) {
        return Vec::new();
    }
    // Room for a usual list, so that building it rarely grows the vector.
    let mut out = Vec::with_capacity(64);
    walk(state, seat, &mut out);
    out
}

/// How many actions `seat` may take now: `legal_actions(..).len()` without the list.
pub fn count_legal(state: &State, seat: Seat) -> u32 {
    if !state.is_pending(seat) {
        return 0;
    }
    let mut count = Count::default();
    walk(state, seat, &mut count);
    count.0
}

/// `legal_actions(..)[i]`, built alone.
pub fn nth_legal(state: &State, seat: Seat, i: u32) -> Option<Action> {
    if !state.is_pending(seat) {
        return None;
    }
    let mut nth = Nth::new(i);
    walk(state, seat, &mut nth);
    nth.found
}

/// One of `seat`'s actions uniformly at random, exactly `legal_actions(..)[rng.index(len)]` (the
/// same number drawn, nothing drawn when there is none), the list built into a per-thread
/// buffer so that picking allocates nothing. (Counting and then building only the drawn action
/// walked the rules twice and measured slower than one walk into the buffer.)
pub fn pick(state: &State, seat: Seat, rng: &mut impl crate::engine::Draw) -> Option<Action> {
    thread_local! {
        static LIST: std::cell::RefCell<Vec<Action>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    if !state.is_pending(seat) {
        return None;
    }
    LIST.with_borrow_mut(|list| {
        list.clear();
        walk(state, seat, list);
        let i = rng.index(list.len());
        list.get(i).cloned()
    })
}

/// The walk behind [`legal_actions`], for a seat that is pending.
fn walk(state: &State, seat: Seat, out: &mut impl Sink) {
    if let Some((_, frame)) = state.frame_for(seat) {
        frame_actions(state, frame, out);
        return;
    }
    if !state.step_open() {
        return;
    }
    match state.step {
        Step::StartExtension => {
            for idx in 0..data().castle_spaces.len() as u8 {
                out.one(Action::StartExtension {
                    space: Space { ally: false, idx },
                });
            }
        }
        Step::Place { .. } => placements(state, seat, out),
        Step::Vote { .. } => vote_actions(state, seat, out),
        Step::Castles => {
            for faction in [Some(seat.0), state.ally_of(seat)].into_iter().flatten() {
                for sp in castle_left(state, faction) {
                    let Some(space) = data().space(sp.ally, usize::from(sp.idx)) else {
                        continue;
                    };
                    let affordable = state
                        .faction(faction)
                        .is_some_and(|f| can_pay(f, space.cost));
                    if affordable && castle_exchange_check(state, faction, space).is_ok() {
                        out.one(Action::Castle {
                            space: sp,
                            take: true,
                        });
                    }
                    // LAN-ENG-3: every effect may be declined.
                    out.one(Action::Castle {
                        space: sp,
                        take: false,
                    });
                }
            }
        }
        _ => {}
    }
}

fn frame_actions(state: &State, top: Frame, out: &mut impl Sink) {
    match top {
        Frame::Favour { .. } => {
            for tile in face_up_favours(state) {
                out.one(Action::Favour { tile });
            }
        }
        Frame::Upgrade {
            faction,
            deployed_only,
            only_strength,
        } => {
            out.one(Action::Upgrade { knight: None });
            let ally = state.faction(faction).is_some_and(|f| f.ally);
            for i in upgrade_options(state, faction, deployed_only, only_strength) {
                out.one(Action::Upgrade {
                    knight: Some(Piece { ally, idx: i }),
                });
            }
        }
        Frame::Build { faction } => {
            for space in build_options(state, faction) {
                out.one(Action::Build { space });
            }
        }
        Frame::Noble { faction } => {
            for county in noble_options(state, faction) {
                out.one(Action::Noble { county });
            }
        }
        Frame::County { county } => {
            for take in county_takes(state, county) {
                out.one(Action::County { take });
            }
        }
        Frame::Passage { faction, .. } => {
            out.one(Action::Passage { card: None });
            for card in conflict_options(state, faction) {
                out.one(Action::Passage { card: Some(card) });
            }
        }
        Frame::StartPlayer { .. } => {
            for seat in state.seats() {
                out.one(Action::StartPlayer { seat });
            }
        }
        Frame::Reward {
            county, faction, ..
        } => {
            for i in applicable_rewards(state, county, faction) {
                out.one(Action::Reward {
                    option: i.saturating_add(1),
                });
            }
        }
        Frame::Exchange { faction, law } => {
            let max = exchange_max(state, faction, law);
            out.run(max.saturating_add(1), |times| Action::Exchange { times });
        }
        Frame::Ransom { faction } => {
            out.one(Action::Ransom { knight: None });
            if let Some(f) = state.faction(faction) {
                for i in f.pieces_at(Loc::Captive) {
                    if f.gold >= u32::from(data().strength(usize::from(i))) {
                        out.one(Action::Ransom {
                            knight: Some(f.piece(i)),
                        });
                    }
                }
            }
        }
    }
}

/// LAN-RWC-2, LAN-2P-10: the choices of the occupant of `county`.
fn county_takes(state: &State, county: CountyId) -> Vec<Take> {
    let d = data();
    let Some(slot) = state.county(county) else {
        return Vec::new();
    };
    let Some(f) = state.faction(slot.faction) else {
        return Vec::new();
    };
    let noble_ok = state
        .nobles
        .get(usize::from(county.0))
        .is_some_and(|n| *n > 0)
        && (f.ally || !f.nobles.contains(&county));
    let mut out = Vec::new();
    if noble_ok {
        out.push(Take::Noble);
    }
    out.push(Take::Reward);
    if noble_ok && !f.ally && can_pay(f, d.county_both_cost) && reward_applies(state, county) {
        out.push(Take::Both);
    }
    out
}

/// The reward options of `county` that would give its occupant anything now.
fn applicable_rewards(state: &State, county: CountyId, faction: u8) -> Vec<u8> {
    let Some(cd) = data().county(usize::from(county.0)) else {
        return Vec::new();
    };
    cd.rewards()
        .iter()
        .enumerate()
        .filter(|(_, r)| effect_applies(state, faction, &for_colour(state, faction, r)))
        .map(|(i, _)| i as u8)
        .collect()
}

/// LAN-RWC-2 with LAN-ENG-3/4: whether the county's reward can give its occupant anything, so
/// that paying 3 gold for "both" buys more than the noble alone.
fn reward_applies(state: &State, county: CountyId) -> bool {
    state
        .county(county)
        .is_some_and(|slot| !applicable_rewards(state, county, slot.faction).is_empty())
}

/// A county reward as `faction` can use it: LAN-2P-10, allies use only recruit, upgrade, noble
/// and passage.
fn for_colour(state: &State, faction: u8, reward: &Effect) -> Effect {
    if state.faction(faction).is_some_and(|f| f.ally) {
        Effect {
            recruit: reward.recruit,
            upgrade: reward.upgrade,
            passage_to_france: reward.passage_to_france,
            ..Effect::default()
        }
    } else {
        *reward
    }
}

/// Applies county reward `reward` to `faction`, whose knight `piece` has just left the county.
fn take_reward(
    state: &mut State,
    faction: u8,
    piece: u8,
    reward: &Effect,
    rng: &mut GameRng,
    events: &mut Events,
) {
    let reward = for_colour(state, faction, reward);
    apply_effect(state, faction, &reward, rng, events);
    if reward.passage_to_france > 0 {
        state.frames.push(Frame::Passage { faction, piece });
    }
}

/// Applies `action` by `seat` to `state`, which the caller has verified is pending for it, then
/// runs the automatic steps that follow. On error `state` is unchanged: every refusal is decided
/// before the first change (the one `pay` after a county expulsion in `place` is covered by
/// `county_check`, which refuses more squires than the colour holds), so [`super`] applies in
/// place.
pub fn act(
    state: &mut State,
    seat: Seat,
    action: &Action,
    rng: &mut GameRng,
    events: &mut Events,
) -> Result<(), Illegal> {
    if state.rules.draws_extensions()
        && matches!(action, Action::StartExtension { .. } | Action::Build { .. })
    {
        let rule = if matches!(action, Action::Build { .. }) {
            "LAN-EFF-4"
        } else {
            "LAN-SET-7"
        };
        return Err(illegal(
            rule,
            "In this game extension tiles are drawn blind (extension_draw = random), not chosen.",
        ));
    }
    match state.frame_for(seat) {
        Some((at, frame)) => act_frame(state, at, frame, action, rng, events)?,
        None if state.step_open() => act_step(state, seat, action, rng, events)?,
        None => return Err(illegal("LAN-GEN-2", "Another player decides first.")),
    }
    advance(state, rng, events);
    Ok(())
}

fn wrong(what: &str) -> Illegal {
    illegal("LAN-GEN-3", format!("The game now waits for {what}."))
}

fn act_step(
    state: &mut State,
    seat: Seat,
    action: &Action,
    rng: &mut GameRng,
    events: &mut Events,
) -> Result<(), Illegal> {
    match (state.step, action) {
        (Step::StartExtension, Action::StartExtension { space }) => {
            if space.ally || usize::from(space.idx) >= data().castle_spaces.len() {
                return Err(illegal("LAN-SET-7", "Build it on a space of your castle."));
            }
            let f = state
                .faction_mut(seat.0)
                .ok_or_else(|| illegal("LAN-SET-7", "no such player"))?;
            if f.start_extension.is_some() {
                return Err(illegal("LAN-SET-7", "You have already chosen."));
            }
            f.start_extension = Some(*space);
            events.push(Logged::public(Event::StartExtensionChosen { seat }));
            events.push(Logged::only(
                SeatSet::only(seat),
                Event::StartExtensionSealed {
                    seat,
                    space: *space,
                },
            ));
            Ok(())
        }
        (Step::StartExtension, _) => Err(wrong("the starting extensions (X:<space>)")),
        (
            Step::Place { .. },
            Action::Place {
                knight,
                ally,
                target,
                squires,
            },
        ) => place(state, seat, *knight, *ally, *target, *squires, events),
        (Step::Place { .. }, _) => Err(wrong("a knight placement")),
        (Step::Vote { .. }, Action::Vote { yes, markers }) => {
            let have = state.faction(seat.0).map_or(0, |f| f.voting_markers);
            if *markers > have {
                return Err(illegal(
                    "LAN-PAR-2",
                    format!("You hold {have} voting markers."),
                ));
            }
            if yes.is_none() && *markers > 0 {
                return Err(illegal(
                    "LAN-PAR-2",
                    "An abstention (V:-) commits no voting markers.",
                ));
            }
            if state.ballots.get(seat.index()).is_some_and(Option::is_some) {
                return Err(illegal("LAN-PAR-2", "You have already voted."));
            }
            if let Some(b) = state.ballots.get_mut(seat.index()) {
                *b = Some(Ballot {
                    yes: *yes,
                    markers: *markers,
                });
            }
            events.push(Logged::public(Event::Voted { seat }));
            events.push(Logged::only(
                SeatSet::only(seat),
                Event::BallotSealed {
                    ballot: BallotShown {
                        seat,
                        yes: *yes,
                        markers: *markers,
                    },
                },
            ));
            Ok(())
        }
        (Step::Vote { .. }, _) => Err(wrong("a vote (V:Y or V:N)")),
        (Step::Castles, Action::Castle { space, take }) => {
            let faction = state
                .faction_for(seat, space.ally)
                .ok_or_else(|| illegal("LAN-CAS-3", "You can resolve only your own castle."))?;
            if !castle_left(state, faction).any(|s| s == *space) {
                return Err(illegal(
                    "LAN-RWK-1",
                    format!("{space} has nothing left to resolve this round."),
                ));
            }
            let sd = data()
                .space(space.ally, usize::from(space.idx))
                .ok_or_else(|| illegal("LAN-CMP-3", "no such space"))?;
            if *take {
                castle_exchange_check(state, faction, sd)?;
                pay(state, faction, sd.cost, events)?;
            }
            let f = state
                .faction_mut(faction)
                .ok_or_else(|| illegal("LAN-GEN-4", "no such colour"))?;
            let here = f.pieces_at(Loc::Castle(*space)).next();
            if let Some(i) = here {
                f.set_loc(i, Loc::Court);
            }
            // The knight resolves first; a tile beside it (`extension_covers_space = false`)
            // still pays afterwards. A covering tile and a knight pay once (LAN-EFF-4 [E]).
            if here.is_none() || data().extension_covers_space || !f.built.contains(space) {
                f.resolved.push(*space);
            }
            events.push(Logged::public(Event::CastleResolved {
                faction,
                space: *space,
                taken: *take,
            }));
            if *take {
                apply_effect(state, faction, &sd.effect, rng, events);
                if !state.frames.is_empty() {
                    // D6 (LAN-RWK-4): the follow-up (an upgrade target) is this seat's own, asked
                    // beside the others' castle resolutions, which go on meanwhile.
                    state.parallel_from.get_or_insert(0);
                }
            }
            Ok(())
        }
        (Step::Castles, _) => Err(wrong("castle resolutions (K:<space>)")),
        _ => Err(wrong("no decision of yours")),
    }
}

fn act_frame(
    state: &mut State,
    at: usize,
    top: Frame,
    action: &Action,
    rng: &mut GameRng,
    events: &mut Events,
) -> Result<(), Illegal> {
    let mut listed = Contains::new(action);
    frame_actions(state, top, &mut listed);
    if !listed.found {
        if let (Frame::County { county }, Action::County { take: Take::Both }) = (top, action)
            && state.county(county).is_some()
            && !reward_applies(state, county)
        {
            let name = data()
                .county(usize::from(county.0))
                .map_or("the county", |c| c.name.as_str());
            return Err(illegal(
                "LAN-RWC-2",
                format!(
                    "Paying for both would buy only the noble: {name}'s reward cannot be \
                     applied now (LAN-ENG-4). Take the noble alone (C:N)."
                ),
            ));
        }
        return Err(frame_refusal(top, action));
    }
    frame_check(state, top, action)?;
    state.frames.remove(at);
    match (top, action) {
        (Frame::Favour { faction }, Action::Favour { tile }) => {
            state.favours_taken.push(*tile);
            events.push(Logged::public(Event::FavourTaken {
                faction,
                tile: *tile,
            }));
            if let Some(fv) = data().favours.get(usize::from(tile.0)) {
                apply_effect(state, faction, &fv.effect, rng, events);
            }
        }
        (Frame::Upgrade { faction, .. }, Action::Upgrade { knight }) => match knight {
            Some(p) => do_upgrade(state, faction, p.idx, events),
            None => events.push(Logged::public(Event::Declined {
                faction,
                what: "upgrade",
            })),
        },
        (Frame::Build { faction }, Action::Build { space }) => {
            if let Some(f) = state.faction_mut(faction) {
                f.built.push(*space);
            }
            events.push(Logged::public(Event::Built {
                faction,
                space: *space,
            }));
        }
        (Frame::Noble { faction }, Action::Noble { county }) => {
            take_noble(state, faction, *county, events);
        }
        (Frame::County { county }, Action::County { take }) => {
            resolve_county(state, county, *take, rng, events)?;
        }
        (Frame::Passage { faction, piece }, Action::Passage { card }) => match card {
            Some(card) => {
                join_conflict(state, faction, piece, *card)?;
                let p = state
                    .faction(faction)
                    .map(|f| f.piece(piece))
                    .unwrap_or(Piece {
                        ally: false,
                        idx: piece,
                    });
                events.push(Logged::public(Event::Passage {
                    faction,
                    piece: p,
                    card: *card,
                }));
            }
            None => events.push(Logged::public(Event::Declined {
                faction,
                what: "passage to France",
            })),
        },
        (Frame::StartPlayer { .. }, Action::StartPlayer { seat }) => {
            // LAN-RWC-4 [E], LAN-ENG-5: the marker passes at once, so this round's castles,
            // conflicts and ransoms already go in the new player order (LAN-GEN-2), and the
            // chosen seat opens the next round. `next_start_player` records the choice (who opens
            // the next round, for the view); `end_round` applies it, a no-op here but not for a
            // game stored while the choice still waited for the round's end.
            state.start_player = *seat;
            state.next_start_player = Some(*seat);
            events.push(Logged::public(Event::StartPlayerChosen { seat: *seat }));
        }
        (
            Frame::Reward {
                county,
                faction,
                piece,
            },
            Action::Reward { option },
        ) => {
            let reward = data()
                .county(usize::from(county.0))
                .and_then(|c| c.rewards().get(usize::from(option.saturating_sub(1))))
                .copied()
                .unwrap_or_default();
            events.push(Logged::public(Event::RewardChosen {
                faction,
                county,
                option: *option,
            }));
            take_reward(state, faction, piece, &reward, rng, events);
        }
        (Frame::Exchange { faction, law }, Action::Exchange { times }) => {
            if let Some(l) = data().law(usize::from(law.0)) {
                pay(state, faction, scale(l.give, *times), events)?;
                gain(state, faction, scale(l.get, *times), events);
            }
            events.push(Logged::public(Event::Exchanged {
                faction,
                law,
                times: *times,
            }));
        }
        (Frame::Ransom { faction }, Action::Ransom { knight }) => match knight {
            Some(p) => {
                let cost = u32::from(p.strength());
                pay(
                    state,
                    faction,
                    Res {
                        gold: cost,
                        ..Res::default()
                    },
                    events,
                )?;
                if let Some(f) = state.faction_mut(faction) {
                    f.set_loc(p.idx, Loc::Court);
                }
                events.push(Logged::public(Event::Ransomed {
                    faction,
                    piece: *p,
                    gold: cost,
                }));
                // Still deciding: the decision stays where it was.
                state.frames.insert(at, Frame::Ransom { faction });
            }
            None => {
                if let Some(f) = state.faction_mut(faction) {
                    for l in f.knights.iter_mut().filter(|l| **l == Loc::Captive) {
                        *l = Loc::Reserve;
                    }
                }
            }
        },
        _ => return Err(frame_refusal(top, action)),
    }
    Ok(())
}

/// The refusals of [`act_frame`]'s arms, in their order, checked before the state changes (a
/// listed action passes them all), so that a refused action changes nothing and
/// [`super::Lancaster`] applies in place.
fn frame_check(state: &State, top: Frame, action: &Action) -> Result<(), Illegal> {
    match (top, action) {
        (Frame::Favour { .. }, Action::Favour { .. })
        | (Frame::Upgrade { .. }, Action::Upgrade { .. })
        | (Frame::Build { .. }, Action::Build { .. })
        | (Frame::Noble { .. }, Action::Noble { .. })
        | (Frame::Passage { .. }, Action::Passage { card: None })
        | (Frame::StartPlayer { .. }, Action::StartPlayer { .. })
        | (Frame::Reward { .. }, Action::Reward { .. })
        | (Frame::Ransom { .. }, Action::Ransom { knight: None }) => Ok(()),
        (Frame::County { county }, Action::County { take }) => {
            let slot = state
                .county(county)
                .ok_or_else(|| illegal("LAN-RWC-1", "The county is empty."))?;
            data()
                .county(usize::from(county.0))
                .ok_or_else(|| illegal("LAN-CMP-1", "no such county"))?;
            if *take == Take::Both {
                pay_check(state, slot.faction, data().county_both_cost)?;
            }
            Ok(())
        }
        (Frame::Passage { faction, .. }, Action::Passage { card: Some(card) }) => {
            let c = state
                .conflict(*card)
                .ok_or_else(|| illegal("LAN-CNF-3", format!("{card} is not on the board.")))?;
            if c.spaces.iter().any(|s| s.faction == faction)
                || c.spaces.len() < data().conflict_spaces()
            {
                Ok(())
            } else {
                Err(illegal(
                    "LAN-CNF-1",
                    format!("{card} has no free knight space."),
                ))
            }
        }
        (Frame::Exchange { faction, law }, Action::Exchange { times }) => {
            match data().law(usize::from(law.0)) {
                Some(l) => pay_check(state, faction, scale(l.give, *times)),
                None => Ok(()),
            }
        }
        (Frame::Ransom { faction }, Action::Ransom { knight: Some(p) }) => pay_check(
            state,
            faction,
            Res {
                gold: u32::from(p.strength()),
                ..Res::default()
            },
        ),
        _ => Err(frame_refusal(top, action)),
    }
}

fn frame_refusal(top: Frame, action: &Action) -> Illegal {
    let (rule, what) = match top {
        Frame::Favour { .. } => ("LAN-FAV-1", "a face-up King's favour tile (F:<tile>)"),
        Frame::Upgrade { .. } => (
            "LAN-EFF-3",
            "an upgradable knight whose next strength is in reserve, or U:-",
        ),
        Frame::Build { .. } => (
            "LAN-EFF-4",
            "one of your unbuilt extension tiles (B:<space>)",
        ),
        Frame::Noble { .. } => (
            "LAN-EFF-5",
            "a county whose stack has a noble you do not hold (N:<letter>)",
        ),
        Frame::County { .. } => (
            "LAN-RWC-2",
            "noble, reward, or both for 3 gold when a noble can be taken (C:N, C:R, C:B)",
        ),
        Frame::Passage { .. } => ("LAN-EFF-7", "a conflict you may join (T:<card>) or T:-"),
        Frame::StartPlayer { .. } => ("LAN-RWC-4", "the next start player (S:<seat>)"),
        Frame::Reward { .. } => (
            "LAN-RWC-2",
            "one of the county's reward options that gives something (O:<n>)",
        ),
        Frame::Exchange { .. } => ("LAN-LAW-3", "how many exchanges you can afford (E:<n>)"),
        Frame::Ransom { .. } => (
            "LAN-RWF-7",
            "a captured knight you can pay for (R:<knight>) or R:-",
        ),
    };
    illegal(rule, format!("{action} is not possible: choose {what}."))
}

/// LAN-RWC-2..4 for the occupant of `county`.
fn resolve_county(
    state: &mut State,
    county: CountyId,
    take: Take,
    rng: &mut GameRng,
    events: &mut Events,
) -> Result<(), Illegal> {
    let d = data();
    let slot = state
        .county(county)
        .ok_or_else(|| illegal("LAN-RWC-1", "The county is empty."))?;
    let cd = d
        .county(usize::from(county.0))
        .ok_or_else(|| illegal("LAN-CMP-1", "no such county"))?;
    let faction = slot.faction;
    let seat = state.faction(faction).map_or(Seat(0), |f| f.seat);
    events.push(Logged::public(Event::CountyResolved {
        county,
        faction,
        take,
    }));
    // LAN-RWC-3: the knight returns to court, its squires to the supply.
    if let Some(s) = state.counties.get_mut(usize::from(county.0)) {
        *s = None;
    }
    if let Some(f) = state.faction_mut(faction) {
        f.set_loc(slot.piece, Loc::Court);
    }
    let mut later: Vec<Frame> = Vec::new();
    if cd.choose_start_player {
        later.push(Frame::StartPlayer { seat });
    }
    if take == Take::Both {
        pay(state, faction, d.county_both_cost, events)?;
    }
    if matches!(take, Take::Noble | Take::Both) {
        take_noble(state, faction, county, events);
    }
    state.frames.extend(later);
    if matches!(take, Take::Reward | Take::Both) {
        match cd.rewards() {
            [reward] => take_reward(state, faction, slot.piece, reward, rng, events),
            // The occupant chooses one of the options (`reward_options`).
            _ => state.frames.push(Frame::Reward {
                county,
                faction,
                piece: slot.piece,
            }),
        }
    }
    Ok(())
}
