//! The invariants of a game in progress, for self-play's `--check` and the tests: every
//! component in exactly one place (cargo and glory cards, captains, demand, modification,
//! merchant and weapon tokens, event cards), the hold at sea and the glory hand within their
//! limits, bounties within range, pending empty exactly at the end, and the stored form reading
//! back to the same state.

use super::data;
use super::ids::Loc;
use super::rules::{cur, max_loc};
use super::state::{Frame, PickWhat, State};

fn same(what: &str, mut got: Vec<u8>, n: usize) -> Result<(), String> {
    got.sort_unstable();
    let want: Vec<u8> = (0..n).filter_map(|i| u8::try_from(i).ok()).collect();
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}: each exactly once, found {got:?}"))
    }
}

pub fn check(st: &State) -> Result<(), String> {
    let d = data::load()?;
    let mut cargo: Vec<u8> = st
        .cargo_deck
        .iter()
        .chain(&st.cargo_discard)
        .copied()
        .collect();
    let mut glory: Vec<u8> = st
        .glory_deck
        .iter()
        .chain(&st.glory_discard)
        .copied()
        .collect();
    let mut captains: Vec<u8> = st
        .captain_deck
        .iter()
        .chain(&st.captain_discard)
        .chain(&st.captains_removed)
        .copied()
        .collect();
    let mut mods = st.mod_tokens.iter().flatten().count() + st.mod_supply.len();
    let mut weapons: usize = st.weapon_supply.iter().map(|w| usize::from(*w)).sum();
    for (i, p) in st.players.iter().enumerate() {
        cargo.extend(&p.cargo);
        glory.extend(p.glory_hand.iter().chain(&p.specialists));
        captains.push(p.captain);
        mods += p.mods.len();
        weapons += p.weapons.len();
        // MM-GCARD-2: over the limit only while the owner is asked to discard.
        if p.glory_hand.len() > usize::from(d.start.glory_hand_limit)
            && st.outcome.is_none()
            && !<super::Merchants as crate::engine::Game>::pending(st)
                .contains(crate::engine::Seat(u8::try_from(i).unwrap_or(u8::MAX)))
        {
            return Err(format!(
                "seat {i}: more glory cards than the hand limit, and no discard asked"
            ));
        }
        if p.specialists.len() > 2 {
            return Err(format!("seat {i}: more than two specialists"));
        }
        if p.bounty.iter().any(|b| *b > d.start.max_bounty) {
            return Err(format!("seat {i}: a bounty over the maximum"));
        }
        if p.ship.is_some() {
            for l in Loc::HITS {
                if cur(p, l) > max_loc(d, p, l) {
                    return Err(format!("seat {i}: {l:?} above its maximum"));
                }
            }
            if !p.in_port && p.cargo.len() > usize::from(cur(p, Loc::Cargo)) {
                return Err(format!("seat {i}: more cargo than the hold at sea"));
            }
        }
        let mut kinds = p.weapons.clone();
        kinds.sort_unstable();
        kinds.dedup();
        if kinds.len() != p.weapons.len() {
            return Err(format!("seat {i}: two special weapons of one kind"));
        }
    }
    for f in &st.stack {
        match f {
            Frame::Offer { cards, .. } | Frame::Raid { cards, .. } | Frame::Keep { cards, .. } => {
                cargo.extend(cards);
            }
            Frame::Pick {
                what: PickWhat::GloryKeep,
                options,
                ..
            } => glory.extend(options),
            Frame::Place { kinds, .. } => mods += kinds.len(),
            _ => {}
        }
    }
    same("cargo cards", cargo, usize::from(d.cargo_cards()))?;
    same(
        "glory cards",
        glory,
        d.glory.len() * usize::from(d.glory_copies),
    )?;
    same("captains", captains, d.captains.len())?;
    let demand = st.demand.iter().flatten().count() + st.demand_pool.len();
    if demand != usize::from(d.demand_per_good) * d.goods.len() {
        return Err(format!("demand tokens: {demand}"));
    }
    let mod_total: usize = d.modifications.iter().map(|m| usize::from(m.tokens)).sum();
    if mods != mod_total {
        return Err(format!("modification tokens: {mods} of {mod_total}"));
    }
    let weapon_total: usize = d.weapons.iter().map(|w| usize::from(w.tokens)).sum();
    if weapons != weapon_total {
        return Err(format!("special weapons: {weapons} of {weapon_total}"));
    }
    let merchants = st.merchants.iter().flatten().count() + st.merchant_track.len();
    let merchant_total: usize = d.nations.iter().map(|n| usize::from(n.merchants)).sum();
    if merchants != merchant_total {
        return Err(format!("merchant tokens: {merchants}"));
    }
    let events = st.event_deck.len() + st.event_discard.len() + st.event_aside.len();
    if events != d.events.len() {
        return Err(format!("event cards: {events}"));
    }
    if st.stack.is_empty() != st.outcome.is_some() {
        return Err("the decision stack is empty exactly when the game is over".into());
    }
    let json = serde_json::to_value(st).map_err(|e| e.to_string())?;
    let back: State = serde_json::from_value(json).map_err(|e| e.to_string())?;
    if &back != st {
        return Err("the stored form does not read back to the same state".into());
    }
    Ok(())
}
