//! Every action a pending seat may take now (each accepted as listed), and the III.2 default
//! when a seat lets its deadline pass.

use super::Action;
use super::data::{self, Data};
use super::ids::{CargoId, Loc, Ship};
use super::rules::{cur, max_loc, offer_prices, port_capacity, sale_price};
use super::state::{Activity, Frame, State, Target};
use crate::engine::{Seat, Timeout};

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
    let Ok(d) = data::load() else {
        return Vec::new();
    };
    let (Some(top), Some(p)) = (st.top(), st.player(seat)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    match top {
        Frame::ShipChoice { .. } => {
            if p.sealed.is_none() {
                out.extend([Ship::Sloop, Ship::Flute].map(|ship| Action::Ship { ship }));
            }
        }
        Frame::Turn {
            actions_left,
            port_used,
            ..
        } => {
            if *actions_left > 0 {
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
                    let locked = d
                        .zones
                        .get(usize::from(p.zone))
                        .and_then(|z| z.nation)
                        .is_some_and(|n| p.bounty.get(n.index()).is_some_and(|b| *b > 0));
                    if !port_used && !locked {
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
                    let token = st.merchants.get(usize::from(p.zone)).copied().flatten();
                    if token.is_some() && !p.scouted.contains(&Target::Merchant) {
                        out.push(Action::Scout {
                            target: Target::Merchant,
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
            }
            out.push(Action::End);
        }
        Frame::Port { current, done, .. } => port_actions(d, st, seat, *current, done, &mut out),
        Frame::Offer { cards, .. } => {
            let prices = offer_prices(d, cards);
            let room = port_capacity(d, p).saturating_sub(p.cargo.len());
            for take in subsets(cards, room) {
                let cost: u32 = cards
                    .iter()
                    .zip(&prices)
                    .filter(|(c, _)| take.contains(c))
                    .map(|(_, x)| *x)
                    .sum();
                if cost <= p.gold {
                    out.push(Action::Take { cards: take });
                }
            }
        }
        Frame::Hire { .. } => {
            let missing = max_loc(d, p, Loc::Crew).saturating_sub(cur(p, Loc::Crew));
            for crew in 0..=missing {
                if d.prices.recruit_per_crew * u32::from(crew) <= p.gold {
                    out.push(Action::Hire { crew });
                }
            }
        }
        Frame::MerchantFound { token, .. } => {
            out.push(Action::RaidAs { nation: None });
            if Loc::HITS.iter().all(|l| cur(p, *l) > 0) {
                out.push(Action::RaidAs {
                    nation: Some(*token),
                });
                let zn = d.zones.get(usize::from(p.zone)).and_then(|z| z.nation);
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
        } => {
            let me = if declared.is_none() {
                *aggressor
            } else {
                *defender
            };
            out.extend(
                super::combat::allowed(d, st, me, *round)
                    .into_iter()
                    .map(|decl| Action::Declare { decl }),
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
    out.push(Action::Done);
    let open = |a: Activity| !done.contains(&a) && (current != Some(a) || a == Activity::Shipyard);
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
    if open(Activity::Shipyard) {
        let fire = st.round_effects.iter().any(|e| {
            d.zones
                .get(usize::from(p.zone))
                .and_then(|z| z.nation)
                .is_some_and(|n| *e == format!("shipyard_fire:{n}"))
        });
        let sale = sale_price(d, p);
        for ship in Ship::ALL {
            let t = d.ship(ship);
            if t.for_sale && p.ship != Some(ship) && p.gold + sale >= t.buy {
                out.push(Action::Yard { ship });
            }
        }
        if !fire {
            let mut all = Vec::new();
            for l in [Loc::Hull, Loc::Masts, Loc::Cannons, Loc::Cargo] {
                let damage = max_loc(d, p, l).saturating_sub(cur(p, l));
                if damage > 0 && d.prices.repair <= p.gold {
                    out.push(Action::Repair { locs: vec![l] });
                }
                all.extend(std::iter::repeat_n(l, usize::from(damage)));
            }
            let cost = d.prices.repair * u32::try_from(all.len()).unwrap_or(u32::MAX);
            if all.len() > 1 && cost <= p.gold {
                out.push(Action::Repair { locs: all });
            }
        }
        if let Some(Some(t)) = st.mod_tokens.get(usize::from(p.zone))
            && !p.mods.contains(&t.kind)
            && p.gold >= d.prices.modification
        {
            out.push(Action::Modify);
        }
        for (kind, left) in st.weapon_supply.iter().enumerate() {
            let kind = u8::try_from(kind).unwrap_or(0);
            if *left > 0 && !p.weapons.contains(&kind) && p.gold >= d.prices.weapon {
                out.push(Action::Weapon { kind });
            }
        }
    }
    if open(Activity::Recruit) && cur(p, Loc::Crew) < max_loc(d, p, Loc::Crew) {
        out.push(Action::Recruit);
    }
    if open(Activity::Rumor)
        && p.gold >= d.prices.rumor
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

/// III.2 defaults: Sloop; end the turn; finish the port; buy nothing; hire none; let the
/// merchant go; stop spending; keep the most valuable cards that fit.
pub fn timeout(st: &State, seat: Seat) -> Timeout<Action> {
    let Ok(d) = data::load() else {
        return Timeout::Loses;
    };
    let action = match st.top() {
        Some(Frame::ShipChoice { .. }) => Action::Ship { ship: Ship::Sloop },
        Some(Frame::Turn { .. }) => Action::End,
        Some(Frame::Port { .. }) => Action::Done,
        Some(Frame::Offer { .. }) => Action::Take { cards: Vec::new() },
        Some(Frame::Hire { .. }) => Action::Hire { crew: 0 },
        Some(Frame::MerchantFound { .. }) => Action::RaidAs { nation: None },
        Some(Frame::Raid { .. }) => Action::Stop,
        Some(Frame::Combat { .. }) => Action::Declare {
            decl: super::combat::Decl::Shoot,
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
