//! The state's invariants, for self-play `--check` and the tests: every component of the game
//! accounted for exactly once (knights, nobles, laws, conflict cards, favour tiles, extension
//! tiles), board and knight positions agreeing, and the stored form reading back the same.
//! With `extension_draw = random`, no extension tile is ever a decision.
//! Gold, squires, voting markers and PP are unsigned, so they cannot go negative.

use super::data::data;
use super::ids::{CardId, LawId};
use super::state::{Frame, Loc, State, Step};

fn once<T: PartialEq + std::fmt::Debug>(what: &str, all: &[T], found: &[T]) -> Result<(), String> {
    for x in all {
        let n = found.iter().filter(|y| *y == x).count();
        if n != 1 {
            return Err(format!("{what} {x:?} is in {n} places"));
        }
    }
    if found.len() != all.len() {
        return Err(format!(
            "{what}: {} found for {} in the game",
            found.len(),
            all.len()
        ));
    }
    Ok(())
}

pub fn check(state: &State) -> Result<(), String> {
    let d = data();
    let n = usize::from(state.players);
    let want = if n == 2 { 4 } else { n };
    if state.factions.len() != want {
        return Err(format!("{} colours for {n} players", state.factions.len()));
    }
    for (i, f) in state.factions.iter().enumerate() {
        let fi = i as u8;
        if f.knights.len() != d.knights.len() {
            return Err(format!("colour {i} has {} knights", f.knights.len()));
        }
        if f.ally && (f.gold | f.squires | f.voting_markers | f.pp) != 0 {
            return Err(format!("ally {i} holds resources"));
        }
        for (k, l) in f.knights.iter().enumerate() {
            let k = k as u8;
            match *l {
                Loc::County(c) => {
                    let slot = state.county(c);
                    if slot.is_none_or(|s| s.faction != fi || s.piece != k) {
                        return Err(format!("colour {i} knight {k} is not in county {c}"));
                    }
                }
                Loc::Conflict(card) => {
                    let c = state
                        .conflict(card)
                        .ok_or_else(|| format!("knight on {card}, which is not on the board"))?;
                    let hits = c
                        .spaces
                        .iter()
                        .filter(|s| s.faction == fi)
                        .flat_map(|s| s.pieces.iter())
                        .filter(|p| **p == k)
                        .count();
                    if hits != 1 {
                        return Err(format!("colour {i} knight {k} is {hits} times on {card}"));
                    }
                }
                Loc::Castle(sp) => {
                    if sp.ally != f.ally {
                        return Err(format!("colour {i} knight in a foreign castle"));
                    }
                    if f.knights.iter().filter(|x| **x == Loc::Castle(sp)).count() != 1 {
                        return Err(format!("two knights on {sp} of colour {i}"));
                    }
                }
                Loc::Captive => {
                    if !state.frames.contains(&Frame::Ransom { faction: fi }) {
                        return Err(format!("colour {i} has captives but no ransom decision"));
                    }
                }
                Loc::Reserve | Loc::Court => {}
            }
        }
        let mut built = f.built.clone();
        built.sort();
        built.dedup();
        if built.len() != f.built.len()
            || f.built.iter().any(|s| s.ally)
            || (f.ally && !built.is_empty())
        {
            return Err(format!("colour {i}: extension tiles wrong: {:?}", f.built));
        }
        let mut nobles = f.nobles.clone();
        nobles.sort();
        nobles.dedup();
        if nobles.len() != f.nobles.len() {
            return Err(format!("colour {i} holds a noble letter twice"));
        }
    }
    for (c, slot) in state.counties.iter().enumerate() {
        if let Some(s) = slot {
            let loc = state.faction(s.faction).map(|f| f.loc(s.piece));
            if loc != Some(Loc::County(super::ids::CountyId(c as u8))) {
                return Err(format!("county {c} names a knight that is elsewhere"));
            }
        }
    }
    for c in state.top_row.iter().chain(&state.bottom_row) {
        if c.spaces.len() > d.conflict_spaces() {
            return Err(format!(
                "{} has more than {} spaces",
                c.card,
                d.conflict_spaces()
            ));
        }
        for (j, s) in c.spaces.iter().enumerate() {
            if s.pieces.is_empty() || c.spaces.iter().skip(j + 1).any(|t| t.faction == s.faction) {
                return Err(format!("{}: a bad knight space", c.card));
            }
            for p in &s.pieces {
                if state.faction(s.faction).map(|f| f.loc(*p)) != Some(Loc::Conflict(c.card)) {
                    return Err(format!("{}: a knight that is elsewhere", c.card));
                }
            }
        }
    }
    if state.rules.draws_extensions() {
        // LAN-SET-7 with `extension_draw = random`: no tile is ever chosen, and every player's
        // starting extension was drawn and built at setup.
        if matches!(state.step, Step::StartExtension) {
            return Err("a starting extension is chosen although tiles are drawn".into());
        }
        if state
            .frames
            .iter()
            .any(|f| matches!(f, Frame::Build { .. }))
        {
            return Err("an extension tile is chosen although tiles are drawn".into());
        }
        for f in state.factions.iter().filter(|f| !f.ally) {
            if f.start_extension.is_none_or(|sp| !f.built.contains(&sp)) {
                return Err(format!("seat {} has no drawn starting extension", f.seat));
            }
        }
    }
    let per = d
        .player_count(state.players)
        .map_or(0, |p| p.nobles_per_county);
    for c in 0..state.nobles.len() {
        let letter = super::ids::CountyId(c as u8);
        let held = state
            .factions
            .iter()
            .filter(|f| f.nobles.contains(&letter))
            .count();
        let total = usize::from(state.nobles.get(c).copied().unwrap_or(0))
            + usize::from(state.nobles_removed.get(c).copied().unwrap_or(0))
            + held;
        if total != usize::from(per) {
            return Err(format!("noble {letter}: {total} tiles for {per}"));
        }
    }
    let all_laws: Vec<LawId> = (0..d.laws.len() as u8).map(LawId).collect();
    let mut laws: Vec<LawId> = state.law_deck.clone();
    laws.extend(&state.current_laws);
    laws.extend(state.proposed_laws.iter().flatten());
    laws.extend(&state.law_discard);
    once("law", &all_laws, &laws)?;
    if state.current_laws.len() > usize::from(d.components.current_laws) {
        return Err("more current laws than the parliament board holds".into());
    }
    let all_cards: Vec<CardId> = d.conflicts_in_play(state.players).map(CardId).collect();
    let mut cards = state.conflict_deck.clone();
    cards.extend(state.top_row.iter().map(|c| c.card));
    cards.extend(state.bottom_row.iter().map(|c| c.card));
    cards.extend(&state.conflict_discard);
    once("conflict card", &all_cards, &cards)?;
    let mut fav = state.favours_taken.clone();
    fav.sort();
    fav.dedup();
    if fav.len() != state.favours_taken.len() {
        return Err("a favour tile was taken twice".into());
    }
    let in_play: Vec<u8> = d.favours_in_play(state.players).collect();
    if let Some(t) = fav.iter().find(|t| !in_play.contains(&t.0)) {
        return Err(format!("favour tile {t} is not in a game of this size"));
    }
    // D6 (LAN-RWK-4): a castle follow-up is its seat's own, asked in a parallel block beside the
    // others' castles, and that seat is not done with its castle yet.
    if matches!(state.step, Step::Castles) && !state.frames.is_empty() {
        if state.parallel_from != Some(0) {
            return Err("a castle follow-up is asked one seat at a time".into());
        }
        for f in &state.frames {
            let seat = state.frame_seat(f);
            if state.faction(seat.0).is_none_or(|x| x.castle_done) {
                return Err(format!(
                    "seat {seat} is done with its castle but still asked {f:?}"
                ));
            }
        }
    }
    // LAN-RWC-4: Surrey's choice is kept for the rest of its rewards phase only (in a game stored
    // before LAN-ENG-5 was followed, it waits there to pass the marker when the round ends).
    if state.next_start_player.is_some()
        && !matches!(
            state.step,
            Step::Counties { .. } | Step::Castles | Step::Conflicts { .. }
        )
    {
        return Err("a next start player outside the rewards phase".into());
    }
    if state.is_over() != state.outcome.is_some() {
        return Err("over without outcome or outcome before the end".into());
    }
    let json = serde_json::to_string(state).map_err(|e| e.to_string())?;
    let back: State = serde_json::from_str(&json).map_err(|e| e.to_string())?;
    if &back != state {
        return Err("the stored form does not read back to the same state".into());
    }
    Ok(())
}
