//! What happened, for the history: every event is logged with an audience (public, or only the
//! seats that may see it, Part III.4), and every roll with its purpose (III.5).

use super::combat::{Decl, Side};
use super::ids::{CargoId, GloryId, Loc, Nation, Ship, ZoneId};
use super::state::Target;
use crate::engine::Seat;
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A seat sealed its ship choice (public: only that it chose).
    ShipSealed {
        seat: Seat,
    },
    /// MM-SETUP-9: captain and ship revealed together.
    Revealed {
        seat: Seat,
        captain: String,
        ship: Ship,
        zone: ZoneId,
    },
    /// Only to the owner: the captain dealt (MM-SETUP-8, MM-DEATH-2).
    CaptainDealt {
        seat: Seat,
        captain: String,
    },
    FirstPlayer {
        seat: Seat,
    },
    /// Any roll of the custom die, with its purpose (III.5).
    Rolled {
        seat: Option<Seat>,
        purpose: String,
        faces: Vec<u8>,
        successes: u8,
    },
    RoundBegins {
        round: u32,
    },
    /// MM-ROUND-2: tokens returned face-down, count only.
    MerchantsReturned {
        count: u8,
    },
    EventDrawn {
        card: String,
        title: String,
    },
    NpcArrives {
        npc: String,
        zone: ZoneId,
    },
    NpcMoves {
        npc: String,
        from: ZoneId,
        to: ZoneId,
    },
    War {
        nations: (Nation, Nation),
    },
    Peace,
    Hit {
        seat: Seat,
        loc: Loc,
    },
    CrewLost {
        seat: Seat,
    },
    DemandReplaced {
        zone: ZoneId,
        good: u8,
    },
    TurnBegins {
        seat: Seat,
        round: u32,
    },
    Moved {
        seat: Seat,
        zone: ZoneId,
        in_port: bool,
    },
    /// Cards going face-up to the cargo discard (public).
    CargoDiscarded {
        seat: Seat,
        cards: Vec<CargoId>,
    },
    /// MM-SCOUT-1: the target as the scout action names it (`{"kind": "player", "id": 0}`,
    /// `{"kind": "merchant"}`, ...), so that a page or mail can print the player's name.
    Scouted {
        seat: Seat,
        target: Target,
        found: bool,
    },
    MerchantRevealed {
        zone: ZoneId,
        nation: Nation,
    },
    LetGo {
        seat: Seat,
    },
    Bounty {
        seat: Seat,
        nation: Nation,
        level: u8,
    },
    /// MM-RAID-4: cards drawn face-up.
    RaidDrew {
        seat: Seat,
        cards: Vec<CargoId>,
    },
    RaidEnded {
        seat: Seat,
        success: bool,
        gold: u32,
    },
    CargoKept {
        seat: Seat,
        count: u8,
    },
    PortAction {
        seat: Seat,
        zone: ZoneId,
    },
    ModRevealed {
        zone: ZoneId,
        kind: u8,
    },
    Sold {
        seat: Seat,
        cards: Vec<CargoId>,
        gold: u32,
    },
    /// Public: an offer of `count` cards was drawn.
    OfferDrawn {
        seat: Seat,
        count: u8,
    },
    /// Only to the buyer: the offer itself (MM-BUY-5).
    Offer {
        seat: Seat,
        cards: Vec<CargoId>,
    },
    /// Public: a purchase happened, how many cards and for how much gold.
    Bought {
        seat: Seat,
        count: u8,
        gold: u32,
    },
    ShipBought {
        seat: Seat,
        ship: Ship,
        paid: u32,
        sale: u32,
    },
    Repaired {
        seat: Seat,
        locs: Vec<Loc>,
        gold: u32,
    },
    Modified {
        seat: Seat,
        kind: u8,
    },
    /// MM-YARD-5 (default placement): a modification back at a port, face-down.
    ModPlaced {
        zone: ZoneId,
    },
    WeaponBought {
        seat: Seat,
        kind: u8,
    },
    Recruited {
        seat: Seat,
        crew: u8,
        gold: u32,
    },
    /// Public: a rumor was taken. The card goes only to its holder.
    RumorTaken {
        seat: Seat,
    },
    RumorCard {
        seat: Seat,
        rumor: String,
    },
    MissionClaimed {
        seat: Seat,
        mission: String,
    },
    MissionOpened {
        mission: String,
    },
    /// Public: a stash activity happened (amount hidden).
    StashVisited {
        seat: Seat,
    },
    /// Only to the owner: the amount moved.
    Stashed {
        seat: Seat,
        amount: i64,
        stash: u32,
    },
    /// MM-STASH-2, only to the owner: `gold` of a price in the home port came from the stash,
    /// which now holds `stash`.
    PaidFromStash {
        seat: Seat,
        gold: u32,
        stash: u32,
    },
    Glory {
        seat: Seat,
        points: u8,
        rule: String,
    },
    /// Public: a glory card was drawn (count only); the card goes to its owner.
    GloryDrawn {
        seat: Seat,
    },
    GloryCard {
        seat: Seat,
        card: GloryId,
    },
    GloryDiscarded {
        seat: Seat,
        card: GloryId,
    },
    /// MM-END-1: announced without the stash amount.
    TargetReached {
        seat: Seat,
    },
    Died {
        seat: Seat,
    },
    /// MM-RUM-3: the rumor card is revealed when checked.
    RumorChecked {
        seat: Seat,
        rumor: String,
        truth: bool,
    },
    CombatStarts {
        aggressor: Side,
        defender: Side,
    },
    /// MM-NAV-4: declarations are open.
    Declared {
        side: Side,
        decl: Decl,
    },
    NpcHit {
        npc: u8,
        loc: Loc,
    },
    /// How the naval combat ended: sinking, boarding or escape.
    CombatEnds {
        how: String,
    },
    Defeated {
        winner: Side,
        loser: Side,
    },
    Reward {
        seat: Seat,
        gold: u32,
    },
    GameEnds {
        reason: String,
        winners: Vec<Seat>,
    },
    /// MM-WPN-1: a special weapon used (and returned to the supply).
    WeaponUsed {
        seat: Seat,
        kind: u8,
    },
    /// MM-YARD-12: a special weapon sold back.
    WeaponSold {
        seat: Seat,
        kind: u8,
        gold: u32,
    },
    /// MM-GCARD-5: a glory tactic played, revealed.
    GloryPlayed {
        seat: Seat,
        card: GloryId,
    },
    /// MM-GCARD-4: a specialist employed (public: it sits on the ship).
    Employed {
        seat: Seat,
        card: GloryId,
        gold: u32,
    },
    /// MM-MIS-4.
    MissionCompleted {
        seat: Seat,
        mission: String,
        gold: u32,
    },
    /// MM-PLUN-1: what kind of thing was taken (cards taken stay hidden).
    Plundered {
        seat: Seat,
        from: Seat,
        what: String,
    },
    /// III.3.3, to the filer only: standing orders filed (none: cleared).
    OrdersFiled {
        seat: Seat,
        count: u8,
    },
    /// III.3.3, to the seat only: its standing order number `order` answered a decision with
    /// `action` (the others see only the answer's public effects, III.3.5).
    OrderApplied {
        seat: Seat,
        order: u8,
        action: String,
    },
    /// III.3.4, to the seat only: a turn script of `steps` steps was filed (none: cleared).
    ScriptFiled {
        seat: Seat,
        steps: u8,
    },
    /// III.3.4, to the seat only: its script took `action` for it.
    ScriptStep {
        seat: Seat,
        action: String,
    },
    /// III.3.4, to the seat only: its script ended, at a step not legal now (`stopped_at`)
    /// or with no step left whose conditions hold.
    ScriptEnded {
        seat: Seat,
        stopped_at: Option<String>,
    },
    /// MM-PLUN-4: the defeated ship claimed.
    ShipCaptured {
        seat: Seat,
        ship: Ship,
    },
}
