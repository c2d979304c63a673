//! What one viewer may see (Part III.4), built field by field: another seat's captain (before
//! the reveal), sealed ship, cargo, glory hand, stash, rumor and buy offer never appear; a
//! spectator sees only what every seat sees.

use super::action::Action;
use super::data;
use super::ids::{CargoId, GloryId, Nation, Ship, ZoneId};
use super::rules::{cur, max_loc};
use super::state::{Activity, Frame, PickWhat, State};
use crate::engine::{Seat, Viewer};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct View {
    pub you: Option<Seat>,
    pub round: u32,
    pub first: Seat,
    pub glory_target: u8,
    pub solo: Option<String>,
    pub war: Option<(Nation, Nation)>,
    pub round_effects: Vec<String>,
    pub players: Vec<PlayerView>,
    pub npcs: Vec<NpcView>,
    /// The good in demand per zone (face-up tokens).
    pub demand: Vec<Option<u8>>,
    /// Modification tokens per zone: the kind once face-up, `hidden` while face-down.
    pub mod_tokens: Vec<Option<ModView>>,
    /// Whether each zone holds a face-down merchant token.
    pub merchants: Vec<bool>,
    pub merchant_track: usize,
    pub missions_open: Vec<String>,
    pub decks: Decks,
    /// The open decision the game waits for: its kind and seat(s), with what this viewer may
    /// see of it (a dead captain's new ship or token placement once its own turn would begin,
    /// III.3.9).
    pub decision: Option<DecisionView>,
    /// The viewer's own new ship or token placement after its captain's death, while the game
    /// does not wait for it yet (MM-DEATH-2: it rejoins on its own next turn): it may answer now,
    /// out of turn, with no deadline running (III.3.9). Absent once it is `decision`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rejoin: Option<Rejoin>,
    pub over: bool,
}

/// A dead captain's request not due yet (III.3.9), with the answers its seat may send now. They
/// are in no `legal_actions`, which list only what the game waits for (a seat that is not
/// pending has none), so without them here a client could not know what the early answer is.
#[derive(Debug, Clone, Serialize)]
pub struct Rejoin {
    #[serde(flatten)]
    pub decision: DecisionView,
    /// Each as `legal_actions` lists an action: its fields and its `notation`.
    pub actions: Vec<Offered>,
}

/// An action with its notation, the shape of a listed action.
#[derive(Debug, Clone, Serialize)]
pub struct Offered {
    #[serde(flatten)]
    pub action: Action,
    pub notation: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct PlayerView {
    pub seat: Seat,
    /// Before the reveal, the captain is shown to its owner only.
    pub captain: Option<String>,
    pub revealed: bool,
    /// The owner's own sealed choice; others see only `has_chosen`.
    pub sealed: Option<Ship>,
    pub has_chosen: bool,
    pub ship: Option<Ship>,
    /// Current and full values of Hull, Masts, Cannons, Crew, Cargo.
    pub hits: [u8; 5],
    pub full: [u8; 5],
    pub mods: Vec<u8>,
    pub weapons: Vec<u8>,
    pub gold: u32,
    pub stash: Option<u32>,
    pub cargo: Option<Vec<CargoId>>,
    pub cargo_count: usize,
    pub glory_hand: Option<Vec<GloryId>>,
    pub glory_cards: usize,
    pub specialists: Vec<GloryId>,
    pub rumor: Option<String>,
    pub has_rumor: bool,
    pub mission: Option<String>,
    pub bounty: [u8; 4],
    pub glory: u8,
    pub zone: Option<ZoneId>,
    pub in_port: Option<bool>,
    /// The owner's own knowledge: face-down modification tokens they placed (zone, kind).
    pub known_mods: Option<Vec<(ZoneId, u8)>>,
    /// The owner's own MM-DEATH-4a choice.
    pub may_redraw: Option<bool>,
    /// The owner's own standing orders (III.3.3, III.4), in their one-line notation.
    pub orders: Option<Vec<String>>,
    /// The owner's own turn script, the steps still to come (III.3.4, III.4).
    pub script: Option<Vec<String>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct NpcView {
    pub npc: String,
    pub zone: ZoneId,
    pub hits: [u8; 5],
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ModView {
    Hidden,
    Kind(u8),
}

#[derive(Debug, Clone, Serialize)]
pub struct Decks {
    pub events: usize,
    pub cargo: usize,
    pub cargo_discard: Vec<CargoId>,
    pub glory: usize,
    pub rumors: usize,
    pub missions: usize,
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DecisionView {
    ShipChoice {
        waiting: Vec<Seat>,
    },
    Turn {
        seat: Seat,
        actions_left: u8,
        port_used: bool,
    },
    Port {
        seat: Seat,
        current: Option<Activity>,
        done: Vec<Activity>,
    },
    /// The offer's cards go to the buyer only (MM-BUY-5).
    Offer {
        seat: Seat,
        count: usize,
        cards: Option<Vec<CargoId>>,
    },
    Hire {
        seat: Seat,
    },
    MerchantFound {
        seat: Seat,
        token: Nation,
    },
    Raid {
        seat: Seat,
        nation: Nation,
        cards: Vec<CargoId>,
        successes: u8,
    },
    /// Raid cards are public; cards drawn face-down (a rumor's reward) go to their taker only.
    Keep {
        seat: Seat,
        count: usize,
        cards: Option<Vec<CargoId>>,
    },
    /// A timing window asking `seat` (D-WINDOW); what it may play stays in its hand.
    Window {
        tw: u8,
        seat: Seat,
    },
    /// MM-PLUN-1: the loser's hidden cards are shown to the winner only.
    Plunder {
        seat: Seat,
        from: Seat,
        cargo: Option<Vec<CargoId>>,
        glory_hand: Option<Vec<GloryId>>,
        rumor: Option<String>,
    },
    Claim {
        seat: Seat,
        ship: Ship,
        hits: [u8; 5],
    },
    /// A reward's choice; glory cards drawn are shown to the chooser only.
    Pick {
        seat: Seat,
        what: PickWhat,
        options: Option<Vec<u8>>,
    },
    /// MM-YARD-5: how many tokens the owner still places (which kinds, to the owner only).
    Place {
        seat: Seat,
        count: usize,
        kinds: Option<Vec<u8>>,
    },
    /// A naval combat: both sides and the aggressor's open declaration.
    Combat {
        aggressor: super::combat::Side,
        defender: super::combat::Side,
        round: u8,
        declared: Option<super::combat::Decl>,
    },
}

pub fn view(st: &State, viewer: Viewer) -> View {
    let me = viewer.seat();
    let d = data::load().ok();
    let name = |rows: Option<String>| rows;
    let players = st
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let seat = Seat(u8::try_from(i).unwrap_or(0));
            let own = me == Some(seat);
            let captain = d
                .and_then(|d| d.captains.get(usize::from(p.captain)))
                .map(|c| c.id.clone());
            let full = d.map_or([0; 5], |d| super::ids::Loc::HITS.map(|l| max_loc(d, p, l)));
            PlayerView {
                seat,
                captain: name(if own || p.revealed { captain } else { None }),
                revealed: p.revealed,
                sealed: if own { p.sealed } else { None },
                has_chosen: p.sealed.is_some(),
                ship: if p.revealed { p.ship } else { None },
                hits: super::ids::Loc::HITS.map(|l| cur(p, l)),
                full,
                mods: p.mods.clone(),
                weapons: p.weapons.clone(),
                gold: p.gold,
                stash: own.then_some(p.stash),
                cargo: own.then(|| p.cargo.clone()),
                cargo_count: p.cargo.len(),
                glory_hand: own.then(|| p.glory_hand.clone()),
                glory_cards: p.glory_hand.len(),
                specialists: p.specialists.clone(),
                rumor: if own {
                    p.rumor
                        .and_then(|r| d.and_then(|d| d.rumors.get(usize::from(r))))
                        .map(|r| r.id.clone())
                } else {
                    None
                },
                has_rumor: p.rumor.is_some(),
                mission: p
                    .mission
                    .and_then(|m| d.and_then(|d| d.missions.get(usize::from(m))))
                    .map(|m| m.id.clone()),
                bounty: p.bounty,
                glory: p.glory,
                // The starting port would name the captain before the reveal.
                zone: (own || p.revealed).then_some(p.zone),
                in_port: (own || p.revealed).then_some(p.in_port),
                known_mods: own.then(|| {
                    p.placed
                        .iter()
                        .filter_map(|z| {
                            st.mod_tokens
                                .get(usize::from(*z))
                                .copied()
                                .flatten()
                                .map(|t| (*z, t.kind))
                        })
                        .collect()
                }),
                may_redraw: own.then_some(p.may_redraw),
                orders: own.then(|| {
                    st.orders
                        .get(i)
                        .map(|os| os.iter().map(ToString::to_string).collect())
                        .unwrap_or_default()
                }),
                script: own.then(|| {
                    st.scripts
                        .get(i)
                        .map(|ss| ss.iter().map(ToString::to_string).collect())
                        .unwrap_or_default()
                }),
            }
        })
        .collect();
    // III.3.9: the decision the game waits for, as the viewer answers it: its own request
    // (one waiting beneath after a death, once due) when it is pending, else the game's; a dead
    // captain's request not due yet is shown to its seat apart.
    let pending = <super::Merchants as crate::engine::Game>::pending(st);
    let shown = match me {
        Some(s) if pending.contains(s) && super::rules::request_at(st, s).is_some() => {
            super::rules::as_asked(st, s)
        }
        _ => super::rules::as_waited(st),
    };
    let decision = shown.top().map(|f| decision_view(st, d, me, f));
    let rejoin = me
        .filter(|s| !pending.contains(*s) && super::rules::rejoin_request(st, *s))
        .and_then(|s| {
            let decision = super::rules::as_asked(st, s)
                .top()
                .map(|f| decision_view(st, d, me, f))?;
            // What the seat would be offered once due, read from the same request lifted.
            let actions = super::legal::legal_actions(st, s)
                .into_iter()
                .map(|action| Offered {
                    notation: action.to_string(),
                    action,
                })
                .collect();
            Some(Rejoin { decision, actions })
        });
    View {
        you: me,
        round: st.round,
        first: st.first,
        glory_target: st.glory_target,
        solo: st.solo.clone(),
        war: st.war,
        round_effects: st.round_effects.clone(),
        players,
        npcs: st
            .npcs
            .iter()
            .map(|n| NpcView {
                npc: d
                    .and_then(|d| d.npcs.get(usize::from(n.card)))
                    .map_or_else(String::new, |r| r.id.clone()),
                zone: n.zone,
                hits: n.hits,
            })
            .collect(),
        demand: st.demand.clone(),
        mod_tokens: st
            .mod_tokens
            .iter()
            .map(|t| {
                t.map(|t| {
                    if t.face_up {
                        ModView::Kind(t.kind)
                    } else {
                        ModView::Hidden
                    }
                })
            })
            .collect(),
        merchants: st.merchants.iter().map(Option::is_some).collect(),
        merchant_track: st.merchant_track.len(),
        missions_open: st
            .missions_open
            .iter()
            .filter_map(|m| d.and_then(|d| d.missions.get(usize::from(*m))))
            .map(|m| m.id.clone())
            .collect(),
        decks: Decks {
            events: st.event_deck.len(),
            cargo: st.cargo_deck.len(),
            cargo_discard: st.cargo_discard.clone(),
            glory: st.glory_deck.len(),
            rumors: st.rumor_deck.len(),
            missions: st.mission_deck.len(),
        },
        decision,
        rejoin,
        over: st.outcome.is_some(),
    }
}

/// What `me` may see of decision frame `f`.
fn decision_view(st: &State, d: Option<&data::Data>, me: Option<Seat>, f: &Frame) -> DecisionView {
    match f {
        Frame::ShipChoice { seats } => DecisionView::ShipChoice {
            waiting: seats
                .iter()
                .filter(|s| st.player(*s).is_some_and(|p| p.sealed.is_none()))
                .collect(),
        },
        Frame::Turn {
            seat,
            actions_left,
            port_used,
            ..
        } => DecisionView::Turn {
            seat: *seat,
            actions_left: *actions_left,
            port_used: *port_used,
        },
        Frame::Port {
            seat,
            current,
            done,
        } => DecisionView::Port {
            seat: *seat,
            current: *current,
            done: done.clone(),
        },
        Frame::Offer { seat, cards } => DecisionView::Offer {
            seat: *seat,
            count: cards.len(),
            cards: (me == Some(*seat)).then(|| cards.clone()),
        },
        Frame::Hire { seat } => DecisionView::Hire { seat: *seat },
        Frame::MerchantFound { seat, token, .. } => DecisionView::MerchantFound {
            seat: *seat,
            token: *token,
        },
        Frame::Raid {
            seat,
            nation,
            cards,
            successes,
            ..
        } => DecisionView::Raid {
            seat: *seat,
            nation: *nation,
            cards: cards.clone(),
            successes: *successes,
        },
        Frame::Combat {
            aggressor,
            defender,
            round,
            declared,
            ..
        } => DecisionView::Combat {
            aggressor: *aggressor,
            defender: *defender,
            round: *round,
            declared: *declared,
        },
        Frame::Keep {
            seat,
            cards,
            secret,
        } => DecisionView::Keep {
            seat: *seat,
            count: cards.len(),
            cards: (!*secret || me == Some(*seat)).then(|| cards.clone()),
        },
        Frame::Window { tw, seat, .. } => DecisionView::Window {
            tw: *tw,
            seat: *seat,
        },
        Frame::Plunder { seat, from } => {
            let winner = me == Some(*seat);
            let loser = st.player(*from);
            DecisionView::Plunder {
                seat: *seat,
                from: *from,
                cargo: loser.filter(|_| winner).map(|l| l.cargo.clone()),
                glory_hand: loser.filter(|_| winner).map(|l| l.glory_hand.clone()),
                rumor: loser
                    .filter(|_| winner)
                    .and_then(|l| l.rumor)
                    .and_then(|r| d.and_then(|d| d.rumors.get(usize::from(r))))
                    .map(|r| r.id.clone()),
            }
        }
        Frame::Claim { seat, ship, hits } => DecisionView::Claim {
            seat: *seat,
            ship: *ship,
            hits: *hits,
        },
        Frame::Pick {
            seat,
            what,
            options,
        } => DecisionView::Pick {
            seat: *seat,
            what: *what,
            options: (*what != PickWhat::GloryKeep || me == Some(*seat)).then(|| options.clone()),
        },
        Frame::Place { seat, kinds } => DecisionView::Place {
            seat: *seat,
            count: kinds.len(),
            kinds: (me == Some(*seat)).then(|| kinds.clone()),
        },
    }
}
