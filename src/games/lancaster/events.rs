//! What happened, for histories, emails and pages. Each event is logged with an audience: a
//! sealed ballot and a sealed starting extension are seen by their owner only until revealed.
//! With `extension_draw = random` the starting extensions are drawn at setup and revealed at
//! once (`StartExtensionsRevealed`), and later tiles are drawn blind (`ExtensionDrawn`).
//! Gains and payments of gold and squires are public events (spec §15.2,
//! `log_resource_events = public`); only the totals behind the screens are private.

use super::action::Take;
use super::ids::{CardId, CountyId, FavourId, LawId, Piece, Space, Target};
use super::score::LancasterOutcome;
use crate::engine::Seat;
use serde::Serialize;

/// A ballot as revealed (LAN-PAR-2); `yes` is `null` for an abstention.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BallotShown {
    pub seat: Seat,
    pub yes: Option<bool>,
    pub markers: u32,
}

/// A participant's result in a conflict (LAN-RWF-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Rank {
    pub faction: u8,
    pub strength: u32,
    pub pp: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    RoundStarted {
        round: u8,
        start_player: Seat,
        conflicts: Vec<CardId>,
        proposed: Vec<LawId>,
    },
    /// Public: that `seat` has chosen.
    StartExtensionChosen {
        seat: Seat,
    },
    /// Owner only until every player has chosen.
    StartExtensionSealed {
        seat: Seat,
        space: Space,
    },
    StartExtensionsRevealed {
        built: Vec<(Seat, Space)>,
    },
    Placed {
        faction: u8,
        piece: Piece,
        target: Target,
        squires: u32,
    },
    Expelled {
        faction: u8,
        piece: Piece,
        county: CountyId,
        squires_lost: u32,
    },
    /// LAN-PLC-4: these seats' remaining court knights have nowhere to go this round.
    Stuck {
        seats: Vec<Seat>,
    },
    FavourTaken {
        faction: u8,
        tile: FavourId,
    },
    Gained {
        faction: u8,
        gold: u32,
        squires: u32,
        voting_markers: u32,
        pp: u32,
    },
    Paid {
        faction: u8,
        gold: u32,
        squires: u32,
        voting_markers: u32,
    },
    Recruited {
        faction: u8,
        piece: Piece,
    },
    Upgraded {
        faction: u8,
        from: Piece,
        to: Piece,
    },
    Declined {
        faction: u8,
        what: &'static str,
    },
    /// A chosen extension tile is built (LAN-EFF-4).
    Built {
        faction: u8,
        space: Space,
    },
    /// With `extension_draw = random`: a gained extension tile drawn blind from the face-down
    /// tiles and built. Public, like every built tile (LAN-GEN-5); the face-down tiles have no
    /// order to reveal, as each draw is made at the moment of gaining.
    ExtensionDrawn {
        faction: u8,
        space: Space,
    },
    NobleTaken {
        faction: u8,
        county: CountyId,
    },
    NobleRemoved {
        faction: u8,
        county: CountyId,
    },
    /// Public: that `seat` has voted (the content stays sealed).
    Voted {
        seat: Seat,
    },
    /// The voter only.
    BallotSealed {
        ballot: BallotShown,
    },
    VoteRevealed {
        law: LawId,
        ballots: Vec<BallotShown>,
        yes: u32,
        no: u32,
        passed: bool,
    },
    LawInForce {
        law: LawId,
        replaced: Option<LawId>,
    },
    LawApplied {
        law: LawId,
    },
    Exchanged {
        faction: u8,
        law: LawId,
        times: u32,
    },
    CountyResolved {
        county: CountyId,
        faction: u8,
        take: Take,
    },
    Passage {
        faction: u8,
        piece: Piece,
        card: CardId,
    },
    /// Surrey's occupant chose the start player (LAN-RWC-4): the marker passes at once
    /// (LAN-ENG-5) and `seat` opens the next round.
    StartPlayerChosen {
        seat: Seat,
    },
    /// The occupant of a county with reward options took option `option` (1 the first).
    RewardChosen {
        faction: u8,
        county: CountyId,
        option: u8,
    },
    CastleResolved {
        faction: u8,
        space: Space,
        taken: bool,
    },
    ConflictResolved {
        card: CardId,
        total: u32,
        france: u32,
        england_wins: bool,
        second_attempt: bool,
        ranks: Vec<Rank>,
    },
    Captured {
        faction: u8,
        pieces: Vec<Piece>,
    },
    Ransomed {
        faction: u8,
        piece: Piece,
        gold: u32,
    },
    GameOver {
        outcome: LancasterOutcome,
    },
    Resigned {
        seat: Seat,
    },
}
