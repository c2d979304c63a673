//! The whole state of one game. Hidden parts are kept per seat (cargo, glory hand, stash,
//! rumor, captain before the reveal, a buy offer); decks are vectors in the generator's order,
//! the top card last. No maps: every table is a vector indexed by seat, zone or nation.

use super::ids::{CargoId, GloryId, Nation, Ship, ZoneId};
use crate::engine::{Seat, SeatSet};
use serde::{Deserialize, Serialize};

/// What one seat owns (MM-COMP-3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Player {
    /// D-CAPT row. Hidden from the others until `revealed` (MM-SETUP-8/9).
    pub captain: u8,
    /// The sealed ship choice (MM-SETUP-9, MM-DEATH-4), until every pending seat has chosen.
    pub sealed: Option<Ship>,
    /// Whether the captain and ship are public (after the reveal).
    pub revealed: bool,
    /// The ship; `None` only before the (first or post-death) ship choice.
    pub ship: Option<Ship>,
    /// Current Hull, Masts, Cannons, Crew, Cargo (`Loc::HITS` order).
    pub hits: [u8; 5],
    /// Installed modifications, by D-MOD row.
    pub mods: Vec<u8>,
    /// Special-weapon tokens, by D-WPN row.
    pub weapons: Vec<u8>,
    pub gold: u32,
    /// MM-STASH: hidden from the others.
    pub stash: u32,
    /// Cargo cards on board, in the order gained (hidden).
    pub cargo: Vec<CargoId>,
    /// Glory cards in hand (hidden), in the order drawn.
    pub glory_hand: Vec<GloryId>,
    /// Employed specialists (public).
    pub specialists: Vec<GloryId>,
    /// At most one rumor card, D-RUM row (hidden).
    pub rumor: Option<u8>,
    /// A claimed mission, D-MIS row (public).
    pub mission: Option<u8>,
    /// Bounty level per nation (`Nation::ALL` order), public.
    pub bounty: [u8; 4],
    /// Glory track points (public; never decrease).
    pub glory: u8,
    /// MM-YARD-8: this captain has taken the big-ship glory point.
    pub big_ship_glory: bool,
    pub zone: ZoneId,
    pub in_port: bool,
    /// MM-BUY-1: the port and turn number of the last purchase of goods.
    pub last_buy: Option<(ZoneId, u32)>,
    /// MM-ACT-3: targets scouted this turn.
    pub scouted: Vec<Target>,
    /// MM-DEATH-4a: a pirate NPC lies in the new captain's home zone; another may be drawn.
    #[serde(default)]
    pub may_redraw: bool,
    /// This captain fought a naval combat in the current turn (GLY-03).
    #[serde(default)]
    pub fought: bool,
    /// MM-YARD-5 / III.4: ports where this seat placed a face-down modification token (the
    /// owner knows what lies there until the token leaves the port).
    #[serde(default)]
    pub placed: Vec<ZoneId>,
}

impl Player {
    pub fn is_pirate(&self) -> bool {
        self.bounty.iter().any(|b| *b > 0)
    }

    pub fn at_sea(&self) -> bool {
        self.ship.is_some() && !self.in_port
    }
}

/// A scout target (MM-SCOUT-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    content = "id",
    rename_all = "snake_case",
    deny_unknown_fields
)]
pub enum Target {
    Merchant,
    /// MM-RUM-2: a sea-icon rumor, checked with a Scout action in its zone.
    Rumor,
    Player(Seat),
    /// An NPC by its D-NPC card.
    Npc(u8),
    /// CAP-02: the merchant token of an adjacent zone.
    FarMerchant(ZoneId),
    /// MM-MIS-4: a mission objective tested with a Scout action in its zone.
    Mission,
}

/// An NPC ship on the map (MM-NPC-1): its D-NPC card, zone and battle damage (MM-NPC-4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Npc {
    pub card: u8,
    pub zone: ZoneId,
    pub hits: [u8; 5],
}

/// A ship-modification token lying at a port (MM-SETUP-3, MM-PORT-3).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ModToken {
    pub kind: u8,
    pub face_up: bool,
}

/// One activity of the Port action (MM-PORT-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Activity {
    Sell,
    Buy,
    Shipyard,
    Recruit,
    Rumor,
    Mission,
    Stash,
    /// MM-RUM-2: checking a port-icon rumor in its port.
    CheckRumor,
}

/// One frame of the decision stack (Part III.1): the top frame says who is pending.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "frame", rename_all = "snake_case")]
pub enum Frame {
    /// MM-SETUP-9 / MM-DEATH-4: the sealed simultaneous ship choice of `seats`.
    ShipChoice { seats: SeatSet },
    /// A player's turn (MM-ACT-1).
    Turn {
        seat: Seat,
        actions_left: u8,
        port_used: bool,
        /// An action has been taken (TW1 and EVT-29 come before the first).
        #[serde(default)]
        started: bool,
        /// D-ZONE MAR: the free Move out of the zone was used this turn.
        #[serde(default)]
        free_move: bool,
        /// EVT-29: the pardon was bought this turn.
        #[serde(default)]
        pardoned: bool,
        /// GLY-07: extra Move actions (Move, enter or leave a port only).
        #[serde(default)]
        bonus_moves: u8,
    },
    /// Inside the Port action (MM-PORT-2): the activity under way and those finished.
    Port {
        seat: Seat,
        current: Option<Activity>,
        done: Vec<Activity>,
    },
    /// MM-BUY-1..4: the private offer of a buyer.
    Offer { seat: Seat, cards: Vec<CargoId> },
    /// MM-RECR-1: the Leadership roll failed; crew may be bought.
    Hire { seat: Seat },
    /// MM-RAID-1: a merchant token found; choose its nationality or let it go.
    MerchantFound {
        seat: Seat,
        token: Nation,
        /// The zone of the merchant (CAP-02 may raid an adjacent one).
        zone: ZoneId,
    },
    /// MM-RAID-4: drawn cards and successes still to spend.
    Raid {
        seat: Seat,
        zone: ZoneId,
        nation: Nation,
        cards: Vec<CargoId>,
        successes: u8,
    },
    /// MM-RAID-6: a successful raid's remaining cards, to keep or discard.
    Keep {
        seat: Seat,
        cards: Vec<CargoId>,
        /// Cards drawn face-down (a rumor's reward): only their taker sees them.
        #[serde(default)]
        secret: bool,
    },
    /// MM-NAV: a naval combat; the aggressor declares first, openly, then the defender. The
    /// interrupted turn waits beneath, unchanged, and resumes when this frame closes.
    Combat {
        aggressor: super::combat::Side,
        defender: super::combat::Side,
        round: u8,
        declared: Option<super::combat::Decl>,
        /// The aggressor's special weapon declared with Shoot (MM-WPN-3/4).
        #[serde(default)]
        weapon: Option<u8>,
        /// The round under way once both have declared (windows TW4–TW6 wait inside it).
        #[serde(default)]
        under_way: Option<super::combat::RoundData>,
        /// CAP-03: seats that used their once-per-combat reroll.
        #[serde(default)]
        rerolled: Vec<Seat>,
        /// The aggressor's most recent declaration in this combat: III.2's timeout default
        /// repeats it ("aggressor: repeat last, else Shoot").
        #[serde(default)]
        last: Option<super::combat::Decl>,
    },
    /// D-WINDOW: `seat` may play in timing window `tw` (only seats with a legal play are
    /// asked, in the window's order); the decision beneath waits.
    Window {
        tw: u8,
        seat: Seat,
        asked: Vec<Seat>,
        ctx: WindowCtx,
    },
    /// MM-PLUN-1/4: the winner of a crew combat takes what they like from the loser, who dies
    /// when the winner is done.
    Plunder { seat: Seat, from: Seat },
    /// MM-PLUN-2/4: take the defeated NPC's ship (with its damage) or keep your own.
    Claim {
        seat: Seat,
        ship: Ship,
        hits: [u8; 5],
    },
    /// A choice among listed options (a rumor's reward).
    Pick {
        seat: Seat,
        what: PickWhat,
        options: Vec<u8>,
    },
    /// MM-YARD-5: the owner places returned modification tokens face-down in empty ports.
    Place { seat: Seat, kinds: Vec<u8> },
}

/// What a window interrupts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "at", rename_all = "snake_case")]
pub enum WindowCtx {
    /// The naval combat beneath.
    Combat,
    /// TW2: a scout roll; the scout resolves when the window closes.
    Scout {
        scouter: super::combat::Side,
        target: Target,
        found: bool,
    },
}

/// The kinds of [`Frame::Pick`] (D-RUM rewards).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PickWhat {
    /// RUM-02: keep one of two glory cards drawn (hidden from the others).
    GloryKeep,
    /// RUM-05: install free the modification token of one port (by zone).
    FreeMod,
    /// RUM-09: remove one bounty level of one nation (by `Nation::ALL` index).
    Pardon,
    /// RUM-10: one free special weapon (by D-WPN row).
    Weapon,
}

impl Frame {
    pub fn seats(&self) -> SeatSet {
        match self {
            Frame::ShipChoice { seats } => *seats,
            Frame::Turn { seat, .. }
            | Frame::Port { seat, .. }
            | Frame::Offer { seat, .. }
            | Frame::Hire { seat }
            | Frame::MerchantFound { seat, .. }
            | Frame::Raid { seat, .. }
            | Frame::Keep { seat, .. }
            | Frame::Window { seat, .. }
            | Frame::Plunder { seat, .. }
            | Frame::Claim { seat, .. }
            | Frame::Pick { seat, .. }
            | Frame::Place { seat, .. } => SeatSet::only(*seat),
            Frame::Combat {
                aggressor,
                defender,
                declared,
                ..
            } => {
                let side = if declared.is_none() {
                    aggressor
                } else {
                    defender
                };
                side.seat().map_or(SeatSet::EMPTY, SeatSet::only)
            }
        }
    }
}

/// The whole game (MM-COMP-4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub seats: u8,
    /// D-SOLO level for a one-seat game.
    pub solo: Option<String>,
    pub glory_target: u8,
    pub players: Vec<Player>,
    pub npcs: Vec<Npc>,
    pub event_deck: Vec<u8>,
    pub event_discard: Vec<u8>,
    /// MM-SOLO-2: events set aside, drawn only by "draw another event" effects.
    pub event_aside: Vec<u8>,
    pub cargo_deck: Vec<CargoId>,
    pub cargo_discard: Vec<CargoId>,
    pub glory_deck: Vec<GloryId>,
    pub glory_discard: Vec<GloryId>,
    pub rumor_deck: Vec<u8>,
    pub rumor_discard: Vec<u8>,
    pub mission_deck: Vec<u8>,
    pub mission_discard: Vec<u8>,
    /// Open missions on the board (MM-SETUP-5), each lying in the zone it names.
    pub missions_open: Vec<u8>,
    pub captain_deck: Vec<u8>,
    pub captain_discard: Vec<u8>,
    /// Captains removed unseen (MM-SOLO-3).
    pub captains_removed: Vec<u8>,
    /// The good in demand at each zone's port (none at open sea), by zone.
    pub demand: Vec<Option<u8>>,
    /// The hidden demand pool (MM-SETUP-2).
    pub demand_pool: Vec<u8>,
    /// The modification token at each port, by zone.
    pub mod_tokens: Vec<Option<ModToken>>,
    /// Modification tokens out of play (on no ship, no port): only while a placement is owed.
    pub mod_supply: Vec<u8>,
    /// The face-down merchant token of each zone.
    pub merchants: Vec<Option<Nation>>,
    /// The merchant track (MM-ROUND-2).
    pub merchant_track: Vec<Nation>,
    /// Special-weapon tokens in the supply, per D-WPN row.
    pub weapon_supply: Vec<u8>,
    pub war: Option<(Nation, Nation)>,
    /// "This round" event effects in force (MM-EVT-3), by name.
    pub round_effects: Vec<String>,
    pub first: Seat,
    pub round: u32,
    /// Turns begun so far in the game (MM-BUY-1 "previous turn").
    pub turn_number: u32,
    /// Turns taken in this round.
    pub turns_this_round: u8,
    /// The decision stack; the top (last) frame is pending.
    pub stack: Vec<Frame>,
    /// MM-END-1: someone reached the target; the game ends with this round.
    pub ending: bool,
    pub outcome: Option<super::MmOutcome>,
    /// III.3.3: each seat's standing orders, by seat (hidden from the others, III.4); empty
    /// until a seat files some.
    #[serde(default)]
    pub orders: Vec<Vec<super::orders::Order>>,
    /// III.3.4: each seat's turn script, by seat (hidden from the others, III.4); empty until
    /// a seat files one, and again when its turn ends.
    #[serde(default)]
    pub scripts: Vec<Vec<super::script::Step>>,
    /// MM-NPC-7: the hunt under way (the hunted seat and the NPCs, by card, still to try in
    /// this trigger, in order): each tries once, the next when the fight before it is over.
    #[serde(default)]
    pub hunt: Option<(Seat, Vec<u8>)>,
}

impl State {
    pub fn player(&self, seat: Seat) -> Option<&Player> {
        self.players.get(seat.index())
    }

    pub fn top(&self) -> Option<&Frame> {
        self.stack.last()
    }

    /// MM-STASH-3 / MM-END-4: secret stash points, capped at half the target.
    pub fn stash_points(&self, p: &Player, per_point: u32, max: u8) -> u8 {
        let cap = max.min(self.glory_target / 2);
        u8::try_from(p.stash / per_point.max(1))
            .unwrap_or(u8::MAX)
            .min(cap)
    }
}
