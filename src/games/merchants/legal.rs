//! Every action a pending seat may take now (each accepted as listed), and the III.2 default
//! when a seat lets its deadline pass.

use super::Action;
use super::action::Loot;
use super::data::{self, Data};
use super::ids::{CargoId, GloryId, Loc, Nation, Ship};
use super::rules::{
    cur, has_power, hire_price, locked_out, max_loc, mod_price, offer_prices, port_capacity, purse,
    repair_price, rumor_price, sale_price, weapon_price,
};
use super::state::{Activity, Frame, State, Target};
use crate::engine::{Seat, Timeout};

/// TW1: the start-of-turn tactics in `seat`'s hand (one card per design).
pub fn tw1_cards(d: &Data, st: &State, seat: Seat) -> Vec<GloryId> {
    one_per_design(d, st, seat, |g| g.in_window(1))
}

fn one_per_design(
    d: &Data,
    st: &State,
    seat: Seat,
    keep: impl Fn(&data::GloryDesign) -> bool,
) -> Vec<GloryId> {
    let Some(p) = st.player(seat) else {
        return Vec::new();
    };
    let mut out: Vec<GloryId> = Vec::new();
    for c in &p.glory_hand {
        let Some(g) = d.glory_card(*c) else { continue };
        let seen = out
            .iter()
            .any(|o| d.glory_card(*o).is_some_and(|x| x.id == g.id));
        if keep(g) && !seen {
            out.push(*c);
        }
    }
    out
}

/// TW8: tactics playable between Port activities (GLY-10 with each card it may sell, GLY-12
/// with a bounty of this port's nation).
pub fn tw8_plays(d: &Data, st: &State, seat: Seat) -> Vec<Action> {
    let Some(p) = st.player(seat) else {
        return Vec::new();
    };
    let nation = d.zones.get(usize::from(p.zone)).and_then(|z| z.nation);
    let mut out = Vec::new();
    for card in one_per_design(d, st, seat, |g| g.in_window(8)) {
        match d.glory_card(card).map(|g| g.effect.as_str()) {
            Some("smuggle") => out.extend(p.cargo.iter().map(|c| Action::Play {
                card,
                cargo: Some(*c),
            })),
            Some("court")
                if nation.is_some_and(|n| p.bounty.get(n.index()).is_some_and(|b| *b > 0)) =>
            {
                out.push(Action::Play { card, cargo: None });
            }
            _ => {}
        }
    }
    out
}

/// MM-PLUN-1: what the winner may take from `from` now (each alone).
pub fn plunder_items(d: &Data, st: &State, seat: Seat, from: Seat) -> Vec<Loot> {
    let (Some(w), Some(l)) = (st.player(seat), st.player(from)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if l.gold > 0 {
        out.push(Loot::Gold);
    }
    if w.cargo.len() < hold(d, w) {
        out.extend(l.cargo.iter().map(|c| Loot::Cargo(*c)));
    }
    if w.glory_hand.len() < usize::from(d.start.glory_hand_limit) {
        out.extend(l.glory_hand.iter().map(|c| Loot::Glory(*c)));
    }
    if w.specialists.len() < 2 {
        out.extend(l.specialists.iter().map(|c| Loot::Specialist(*c)));
    }
    if l.rumor.is_some() {
        out.push(Loot::Rumor);
    }
    out.extend(
        l.weapons
            .iter()
            .filter(|k| !w.weapons.contains(k))
            .map(|k| Loot::Weapon(*k)),
    );
    out
}

/// III.2's plunder default: gold, then the most valuable cargo that fits, weapons, glory cards
/// up to the hand limit, specialists up to two, and the rumor if the winner has none.
pub fn plunder_all(d: &Data, st: &State, seat: Seat, from: Seat) -> Vec<Loot> {
    let (Some(w), Some(l)) = (st.player(seat), st.player(from)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if l.gold > 0 {
        out.push(Loot::Gold);
    }
    let mut cargo = l.cargo.clone();
    cargo.sort_by_key(|c| std::cmp::Reverse(d.cargo_card(*c).plunder));
    cargo.truncate(hold(d, w).saturating_sub(w.cargo.len()));
    out.extend(cargo.into_iter().map(Loot::Cargo));
    out.extend(
        l.weapons
            .iter()
            .filter(|k| !w.weapons.contains(k))
            .map(|k| Loot::Weapon(*k)),
    );
    let room = usize::from(d.start.glory_hand_limit).saturating_sub(w.glory_hand.len());
    out.extend(l.glory_hand.iter().take(room).map(|c| Loot::Glory(*c)));
    let room = 2usize.saturating_sub(w.specialists.len());
    out.extend(
        l.specialists
            .iter()
            .take(room)
            .map(|c| Loot::Specialist(*c)),
    );
    if l.rumor.is_some() && w.rumor.is_none() {
        out.push(Loot::Rumor);
    }
    out
}

/// The cards a ship holds where it is (MM-BUY-8 in port, current Cargo at sea).
fn hold(d: &Data, p: &super::state::Player) -> usize {
    if p.in_port {
        port_capacity(d, p)
    } else {
        usize::from(cur(p, Loc::Cargo))
    }
}

/// MM-BUY-6: whether `seat`'s hold, not its gold, now limits what it may take — cards of its
/// buy offer it could afford, a raid's (or a naval ship's) cargo to keep, a defeated captain's
/// cargo to plunder — while it holds cargo it could discard face up to make room.
pub fn hold_limits(d: &Data, st: &State, seat: Seat) -> bool {
    let Some(p) = st.player(seat).filter(|p| !p.cargo.is_empty()) else {
        return false;
    };
    let room = hold(d, p).saturating_sub(p.cargo.len());
    let wanted = match st.top() {
        Some(Frame::Offer { seat: s, cards }) if *s == seat => {
            // The most cards the buyer can pay for: the cheapest first.
            let mut prices = offer_prices(d, p.zone, cards);
            prices.sort_unstable();
            let mut left = purse(d, p);
            prices
                .into_iter()
                .take_while(|x| {
                    let fits = *x <= left;
                    left = left.saturating_sub(*x);
                    fits
                })
                .count()
        }
        Some(Frame::Keep { seat: s, cards, .. }) if *s == seat => cards.len(),
        Some(Frame::Plunder { seat: s, from }) if *s == seat => {
            st.player(*from).map_or(0, |l| l.cargo.len())
        }
        _ => 0,
    };
    wanted > room
}

/// The discards MM-BUY-6 allows now: each cargo card held, while the hold limits taking.
fn cargo_discards(d: &Data, st: &State, seat: Seat, out: &mut Vec<Action>) {
    if hold_limits(d, st, seat)
        && let Some(p) = st.player(seat)
    {
        out.extend(
            p.cargo
                .iter()
                .map(|card| Action::DiscardCargo { card: *card }),
        );
    }
}

/// Ports without a modification token (MM-YARD-5).
fn empty_ports(d: &Data, st: &State) -> Vec<u8> {
    d.zones
        .iter()
        .enumerate()
        .filter(|(z, row)| row.port && st.mod_tokens.get(*z).is_some_and(Option::is_none))
        .filter_map(|(z, _)| u8::try_from(z).ok())
        .collect()
}

/// Every subset of `cards` (in order) of at most `max` cards, the empty one first.
fn subsets(cards: &[CargoId], max: usize) -> Vec<Vec<CargoId>> {
    let mut out = vec![Vec::new()];
    for c in cards {
        let more: Vec<Vec<CargoId>> = out
            .iter()
            .filter(|s| s.len() < max)
            .map(|s| {
                let mut t = s.clone();
                t.push(*c);
                t
            })
            .collect();
        out.extend(more);
    }
    out
}

pub fn legal_actions(st: &State, seat: Seat) -> Vec<Action> {
    // III.3.9: a dead captain's request waiting beneath is read as the open decision.
    if let std::borrow::Cow::Owned(lifted) = super::rules::as_asked(st, seat) {
        return legal_actions(&lifted, seat);
    }
    let Ok(d) = data::load() else {
        return Vec::new();
    };
    let (Some(top), Some(p)) = (st.top(), st.player(seat)) else {
        return Vec::new();
    };
    // MM-GCARD-2: an over-full hand is settled before anything else.
    if super::rules::over_limit(d, st, seat) {
        return p
            .glory_hand
            .iter()
            .map(|card| Action::DiscardGlory { card: *card })
            .collect();
    }
    let mut out = Vec::new();
    match top {
        Frame::ShipChoice { .. } => {
            if p.sealed.is_none() {
                out.extend([Ship::Sloop, Ship::Flute].map(|ship| Action::Ship { ship }));
                if p.may_redraw {
                    out.push(Action::Redraw);
                }
            }
        }
        Frame::Turn {
            actions_left,
            port_used,
            started,
            pardoned,
            bonus_moves,
            ..
        } => {
            if !*started {
                out.extend(
                    tw1_cards(d, st, seat)
                        .into_iter()
                        .map(|card| Action::Play { card, cargo: None }),
                );
                if !*pardoned && p.gold >= 5 && st.round_effects.iter().any(|e| e == "pardon") {
                    out.extend(
                        Nation::ALL
                            .into_iter()
                            .filter(|n| p.bounty.get(n.index()).is_some_and(|b| *b > 0))
                            .map(|nation| Action::Pardon { nation }),
                    );
                }
            }
            // GLY-07's extra Moves allow only movement once the actions are spent.
            let full = *actions_left > 0;
            if full || *bonus_moves > 0 {
                if p.in_port {
                    let excess = p
                        .cargo
                        .len()
                        .saturating_sub(usize::from(cur(p, Loc::Cargo)));
                    for drop in subsets(&p.cargo, excess) {
                        if drop.len() == excess {
                            out.push(Action::Leave { drop });
                        }
                    }
                    if full && !port_used && !locked_out(d, p) {
                        out.push(Action::Port);
                    }
                } else {
                    out.extend(
                        d.neighbours(p.zone)
                            .into_iter()
                            .map(|to| Action::Move { to }),
                    );
                    if d.zones.get(usize::from(p.zone)).is_some_and(|z| z.port) {
                        out.push(Action::Enter);
                    }
                }
            }
            if full && !p.in_port {
                let token = st.merchants.get(usize::from(p.zone)).copied().flatten();
                if token.is_some() && !p.scouted.contains(&Target::Merchant) {
                    out.push(Action::Scout {
                        target: Target::Merchant,
                    });
                }
                // CAP-02: the merchants of adjacent zones.
                if has_power(d, p, "scout_adjacent_merchant").is_some() {
                    for z in d.neighbours(p.zone) {
                        let target = Target::FarMerchant(z);
                        if st
                            .merchants
                            .get(usize::from(z))
                            .copied()
                            .flatten()
                            .is_some()
                            && !p.scouted.contains(&target)
                        {
                            out.push(Action::Scout { target });
                        }
                    }
                }
                // MM-MIS-4: an objective tested with a Scout action here.
                let mission_here = p
                    .mission
                    .and_then(|m| d.missions.get(usize::from(m)))
                    .is_some_and(|m| {
                        m.objective.kind == "scout_test"
                            && m.objective.at.as_deref().and_then(|z| d.zone_index(z))
                                == Some(p.zone)
                    });
                if mission_here && !p.scouted.contains(&Target::Mission) {
                    out.push(Action::Scout {
                        target: Target::Mission,
                    });
                }
                for (i, q) in st.players.iter().enumerate() {
                    let target = Target::Player(Seat(u8::try_from(i).unwrap_or(0)));
                    if target != Target::Player(seat)
                        && q.at_sea()
                        && q.zone == p.zone
                        && !p.scouted.contains(&target)
                    {
                        out.push(Action::Scout { target });
                    }
                }
                let rumor_here = p
                    .rumor
                    .and_then(|r| d.rumors.get(usize::from(r)))
                    .is_some_and(|r| !r.port && d.zone_index(&r.zone) == Some(p.zone));
                if rumor_here && !p.scouted.contains(&Target::Rumor) {
                    out.push(Action::Scout {
                        target: Target::Rumor,
                    });
                }
                for n in st.npcs.iter().filter(|n| n.zone == p.zone) {
                    let target = Target::Npc(n.card);
                    if !p.scouted.contains(&target) {
                        out.push(Action::Scout { target });
                    }
                }
            }
            out.push(Action::End);
        }
        Frame::Port { current, done, .. } => port_actions(d, st, seat, *current, done, &mut out),
        Frame::Offer { cards, .. } => {
            let prices = offer_prices(d, p.zone, cards);
            let room = port_capacity(d, p).saturating_sub(p.cargo.len());
            for take in subsets(cards, room) {
                let cost: u32 = cards
                    .iter()
                    .zip(&prices)
                    .filter(|(c, _)| take.contains(c))
                    .map(|(_, x)| *x)
                    .sum();
                if cost <= purse(d, p) {
                    out.push(Action::Take { cards: take });
                }
            }
            cargo_discards(d, st, seat, &mut out);
        }
        Frame::Hire { .. } => {
            let missing = max_loc(d, p, Loc::Crew).saturating_sub(cur(p, Loc::Crew));
            for crew in 0..=missing {
                if hire_price(d, p.zone) * u32::from(crew) <= purse(d, p) {
                    out.push(Action::Hire { crew });
                }
            }
        }
        Frame::MerchantFound { token, zone, .. } => {
            out.push(Action::RaidAs { nation: None });
            if Loc::HITS.iter().all(|l| cur(p, *l) > 0) {
                out.push(Action::RaidAs {
                    nation: Some(*token),
                });
                let zn = d.zones.get(usize::from(*zone)).and_then(|z| z.nation);
                if let Some(n) = zn.filter(|n| n != token) {
                    out.push(Action::RaidAs { nation: Some(n) });
                }
            }
        }
        Frame::Raid { cards, .. } => {
            out.push(Action::Stop);
            out.push(Action::Draw);
            for card in cards {
                out.push(Action::Discard { card: *card });
                out.push(Action::Swap { card: *card });
            }
        }
        Frame::Combat {
            aggressor,
            defender,
            round,
            declared,
            ..
        } => {
            let me = if declared.is_none() {
                *aggressor
            } else {
                *defender
            };
            for decl in super::combat::allowed(d, st, me, *round) {
                out.push(Action::Declare { decl, weapon: None });
                // MM-WPN-3/4: Chain Shot and Grapeshot go with Shoot.
                if decl == super::combat::Decl::Shoot {
                    for w in &p.weapons {
                        if super::combat::weapon_loc(d, *w).is_some() {
                            out.push(Action::Declare {
                                decl,
                                weapon: Some(*w),
                            });
                        }
                    }
                }
            }
        }
        Frame::Window { tw, ctx, .. } => {
            out.push(Action::Pass);
            out.extend(super::combat::plays(d, st, seat, *tw, ctx));
        }
        Frame::Plunder { from, .. } => {
            out.push(Action::Done);
            out.push(Action::Plunder { item: Loot::All });
            out.extend(
                plunder_items(d, st, seat, *from)
                    .into_iter()
                    .map(|item| Action::Plunder { item }),
            );
            if st.player(*from).is_some_and(|l| l.ship.is_some()) {
                out.push(Action::Capture);
            }
            cargo_discards(d, st, seat, &mut out);
        }
        Frame::Claim { .. } => {
            out.push(Action::Done);
            out.push(Action::Capture);
        }
        Frame::Pick { options, .. } => {
            out.extend(
                options
                    .iter()
                    .map(|option| Action::Pick { option: *option }),
            );
        }
        Frame::Place { .. } => {
            out.extend(
                empty_ports(d, st)
                    .into_iter()
                    .map(|to| Action::Place { to }),
            );
        }
        Frame::Keep { cards, .. } => {
            let cap = if p.in_port {
                port_capacity(d, p)
            } else {
                usize::from(cur(p, Loc::Cargo))
            };
            let room = cap.saturating_sub(p.cargo.len());
            out.extend(
                subsets(cards, room)
                    .into_iter()
                    .map(|cards| Action::Keep { cards }),
            );
            cargo_discards(d, st, seat, &mut out);
        }
    }
    out
}

fn port_actions(
    d: &Data,
    st: &State,
    seat: Seat,
    current: Option<Activity>,
    done: &[Activity],
    out: &mut Vec<Action>,
) {
    let Some(p) = st.player(seat) else { return };
    // MM-STASH-2: in the home port the stash pays too.
    let gold = purse(d, p);
    out.push(Action::Done);
    out.extend(tw8_plays(d, st, seat));
    // The Shipyard takes several purchases; a Recruit under way with specialists employed but
    // no roll yet may still recruit (MM-RECR-2).
    let open = |a: Activity| {
        !done.contains(&a)
            && (current != Some(a) || matches!(a, Activity::Shipyard | Activity::Recruit))
    };
    if current.is_none() && done.is_empty() {
        for cards in subsets(&p.cargo, p.cargo.len()) {
            if !cards.is_empty() {
                out.push(Action::Sell { cards });
            }
        }
    }
    if open(Activity::Buy) {
        out.push(Action::Buy);
    }
    // EVT-33: a burned shipyard offers nothing at all this round.
    if open(Activity::Shipyard) && !super::rules::shipyard_burned(d, st, p.zone) {
        let sale = sale_price(d, p);
        let repair = repair_price(d, p);
        for ship in Ship::ALL {
            let t = d.ship(ship);
            // MM-YARD-2 names no exception for the type you sail: a new ship of the same
            // type replaces a damaged one (MM-YARD-6: it arrives at full value).
            if t.for_sale && gold + sale >= t.buy {
                out.push(Action::Yard { ship });
            }
        }
        let mut all = Vec::new();
        for l in [Loc::Hull, Loc::Masts, Loc::Cannons, Loc::Cargo] {
            let damage = max_loc(d, p, l).saturating_sub(cur(p, l));
            if damage > 0 && repair <= gold {
                out.push(Action::Repair { locs: vec![l] });
            }
            all.extend(std::iter::repeat_n(l, usize::from(damage)));
        }
        let cost = repair * u32::try_from(all.len()).unwrap_or(u32::MAX);
        if all.len() > 1 && cost <= gold {
            out.push(Action::Repair { locs: all });
        }
        if let Some(Some(t)) = st.mod_tokens.get(usize::from(p.zone))
            && !p.mods.contains(&t.kind)
            && gold >= mod_price(d, p.zone)
        {
            out.push(Action::Modify);
        }
        for (kind, left) in st.weapon_supply.iter().enumerate() {
            let kind = u8::try_from(kind).unwrap_or(0);
            if *left > 0 && !p.weapons.contains(&kind) && gold >= weapon_price(d, p.zone) {
                out.push(Action::Weapon { kind });
            }
        }
        out.extend(p.weapons.iter().map(|kind| Action::Resell { kind: *kind }));
    }
    if open(Activity::Recruit) && cur(p, Loc::Crew) < max_loc(d, p, Loc::Crew) {
        out.push(Action::Recruit);
    }
    // MM-GCARD-4: specialists are employed during the Recruit activity.
    let recruiting = current == Some(Activity::Recruit) || !done.contains(&Activity::Recruit);
    if recruiting && p.specialists.len() < 2 {
        for card in one_per_design(d, st, seat, |g| g.hire.is_some()) {
            let cost = d.glory_card(card).and_then(|g| g.hire).unwrap_or(u32::MAX);
            if cost <= gold {
                out.push(Action::Employ { card });
            }
        }
    }
    if open(Activity::Rumor)
        && gold >= rumor_price(d, p)
        && !(st.rumor_deck.is_empty() && st.rumor_discard.is_empty())
    {
        out.push(Action::Rumor);
    }
    let mission_here = st.missions_open.iter().any(|m| {
        d.missions
            .get(usize::from(*m))
            .and_then(|r| d.zone_index(&r.zone))
            == Some(p.zone)
    });
    let rumor_here = p
        .rumor
        .and_then(|r| d.rumors.get(usize::from(r)))
        .is_some_and(|r| r.port && d.zone_index(&r.zone) == Some(p.zone));
    if open(Activity::CheckRumor) && rumor_here {
        out.push(Action::Check);
    }
    if open(Activity::Mission) && p.mission.is_none() && mission_here {
        out.push(Action::Claim);
    }
    let home = d
        .captains
        .get(usize::from(p.captain))
        .and_then(|c| d.zone_index(&c.home));
    if open(Activity::Stash) && home == Some(p.zone) {
        // A compact list: all on board, ten, or all back (any other amount is accepted too).
        let mut amounts = vec![i64::from(p.gold), 10, -i64::from(p.stash)];
        amounts.retain(|a| *a != 0 && (*a < 0 || *a <= i64::from(p.gold)));
        amounts.dedup();
        out.extend(amounts.into_iter().map(|amount| Action::Stash { amount }));
    }
}

/// III.2 defaults: the newest glory card of an over-full hand; Sloop; end the turn; finish the port; buy nothing; hire none; let the
/// merchant go; stop spending; the defender Shoots, the aggressor repeats its last declaration
/// (else Shoots); keep the most valuable cards that fit; pass in windows; plunder
/// everything that fits, gold first; keep your own ship; the first option of a choice.
pub fn timeout(st: &State, seat: Seat) -> Timeout<Action> {
    // III.3.9: a dead captain's request waiting beneath is read as the open decision.
    if let std::borrow::Cow::Owned(lifted) = super::rules::as_asked(st, seat) {
        return timeout(&lifted, seat);
    }
    let Ok(d) = data::load() else {
        return Timeout::Loses;
    };
    // MM-GCARD-2 / III.2: the most recently drawn card goes.
    if super::rules::over_limit(d, st, seat) {
        return match st.player(seat).and_then(|p| p.glory_hand.last()) {
            Some(card) => Timeout::Play(Action::DiscardGlory { card: *card }),
            None => Timeout::Loses,
        };
    }
    let action = match st.top() {
        Some(Frame::ShipChoice { .. }) => Action::Ship { ship: Ship::Sloop },
        Some(Frame::Turn { .. }) => Action::End,
        Some(Frame::Port { .. }) => Action::Done,
        Some(Frame::Offer { .. }) => Action::Take { cards: Vec::new() },
        Some(Frame::Hire { .. }) => Action::Hire { crew: 0 },
        Some(Frame::MerchantFound { .. }) => Action::RaidAs { nation: None },
        Some(Frame::Raid { .. }) => Action::Stop,
        // III.2: the defender Shoots; the aggressor repeats its last declaration of this
        // combat if it is still allowed (MM-NAV-4/5), else Shoots. Never a special weapon.
        Some(Frame::Combat {
            aggressor,
            round,
            declared,
            last,
            ..
        }) => {
            let allowed = super::combat::allowed(d, st, *aggressor, *round);
            let decl = match (declared, last) {
                (None, Some(l)) if allowed.contains(l) => *l,
                _ => super::combat::Decl::Shoot,
            };
            Action::Declare { decl, weapon: None }
        }
        Some(Frame::Window { .. }) => Action::Pass,
        Some(Frame::Plunder { .. }) => Action::Plunder { item: Loot::All },
        Some(Frame::Claim { .. }) => Action::Done,
        Some(Frame::Pick { options, .. }) => match options.first() {
            Some(option) => Action::Pick { option: *option },
            None => return Timeout::Loses,
        },
        // III.2 says random empty ports; a default is a single action without dice, so the
        // first empty port in zone order.
        Some(Frame::Place { .. }) => match empty_ports(d, st).first() {
            Some(to) => Action::Place { to: *to },
            None => return Timeout::Loses,
        },
        Some(Frame::Keep { cards, .. }) => {
            let Some(p) = st.player(seat) else {
                return Timeout::Loses;
            };
            let cap = if p.in_port {
                port_capacity(d, p)
            } else {
                usize::from(cur(p, Loc::Cargo))
            };
            let mut best = cards.clone();
            best.sort_by_key(|c| std::cmp::Reverse(d.cargo_card(*c).plunder));
            best.truncate(cap.saturating_sub(p.cargo.len()));
            Action::Keep { cards: best }
        }
        None => return Timeout::Loses,
    };
    Timeout::Play(action)
}
