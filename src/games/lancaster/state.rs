//! The complete Lancaster state, hidden parts included (deck orders, sealed ballots, gold and
//! squires behind the screens). It never leaves the server as is: players get a
//! [`super::view::View`].

use super::ids::{CardId, CountyId, FavourId, LawId, Piece, Space};
use super::options::Rules;
use super::score::LancasterOutcome;
use crate::engine::{Seat, SeatSet};
use serde::{Deserialize, Serialize};

/// Where one knight piece is (LAN-GEN-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Loc {
    Reserve,
    Court,
    County(CountyId),
    Castle(Space),
    Conflict(CardId),
    /// Captured after a second French victory, waiting for the ransom decision (LAN-RWF-7).
    Captive,
}

impl Loc {
    /// On a knight space (LAN-LAW-2).
    pub fn deployed(self) -> bool {
        matches!(self, Loc::County(_) | Loc::Castle(_) | Loc::Conflict(_))
    }
}

/// A colour on the table: a player, or (two-player game) an ally controlled by a player.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Faction {
    /// The seat that decides for this colour.
    pub seat: Seat,
    pub ally: bool,
    /// Where each of the seven pieces is, by piece index.
    pub knights: Vec<Loc>,
    pub gold: u32,
    pub squires: u32,
    pub voting_markers: u32,
    pub pp: u32,
    /// Noble letters at the round table, in the order they were seated.
    pub nobles: Vec<CountyId>,
    /// Castle spaces covered by a built extension tile.
    pub built: Vec<Space>,
    /// Castle spaces already resolved in this round's castle step.
    pub resolved: Vec<Space>,
    pub castle_done: bool,
    /// D1: the chosen starting extension, sealed until every player has chosen.
    pub start_extension: Option<Space>,
}

/// `clone_from` reuses the vectors of the target (see [`State`]'s).
impl Clone for Faction {
    fn clone(&self) -> Faction {
        Faction {
            seat: self.seat,
            ally: self.ally,
            knights: self.knights.clone(),
            gold: self.gold,
            squires: self.squires,
            voting_markers: self.voting_markers,
            pp: self.pp,
            nobles: self.nobles.clone(),
            built: self.built.clone(),
            resolved: self.resolved.clone(),
            castle_done: self.castle_done,
            start_extension: self.start_extension,
        }
    }

    fn clone_from(&mut self, source: &Faction) {
        let Faction {
            seat,
            ally,
            knights,
            gold,
            squires,
            voting_markers,
            pp,
            nobles,
            built,
            resolved,
            castle_done,
            start_extension,
        } = source;
        self.seat = *seat;
        self.ally = *ally;
        self.knights.clone_from(knights);
        self.gold = *gold;
        self.squires = *squires;
        self.voting_markers = *voting_markers;
        self.pp = *pp;
        self.nobles.clone_from(nobles);
        self.built.clone_from(built);
        self.resolved.clone_from(resolved);
        self.castle_done = *castle_done;
        self.start_extension = *start_extension;
    }
}

impl Faction {
    pub fn loc(&self, idx: u8) -> Loc {
        self.knights
            .get(usize::from(idx))
            .copied()
            .unwrap_or(Loc::Reserve)
    }

    pub fn set_loc(&mut self, idx: u8, loc: Loc) {
        if let Some(l) = self.knights.get_mut(usize::from(idx)) {
            *l = loc;
        }
    }

    pub fn piece(&self, idx: u8) -> Piece {
        Piece {
            ally: self.ally,
            idx,
        }
    }

    /// The pieces at `loc`, by index.
    pub fn pieces_at(&self, loc: Loc) -> impl Iterator<Item = u8> + '_ {
        self.knights
            .iter()
            .enumerate()
            .filter(move |(_, l)| **l == loc)
            .map(|(i, _)| i as u8)
    }
}

/// A knight in a county with the squires placed with it (LAN-CTY-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountySlot {
    pub faction: u8,
    pub piece: u8,
    pub squires: u32,
}

/// One occupied space of a conflict card: a participant and its stacked knights.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stack {
    pub faction: u8,
    pub pieces: Vec<u8>,
}

/// A conflict card on the board with its spaces filled top to bottom (LAN-CNF-1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conflict {
    pub card: CardId,
    pub spaces: Vec<Stack>,
}

/// A sealed ballot (D3). `yes` is `None` for the abstention of a late seat (counted for neither
/// side; sealed like any ballot, so that nobody learns it abstained before the reveal).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ballot {
    pub yes: Option<bool>,
    pub markers: u32,
}

/// A decision the game waits for in the middle of a step, owned by one colour's seat. They form
/// a stack: the top one is asked first, and an effect's follow-up decisions go on top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Frame {
    /// LAN-FAV-1: pick a face-up favour tile.
    Favour { faction: u8 },
    /// LAN-EFF-3: pick a knight to upgrade, or decline.
    Upgrade {
        faction: u8,
        deployed_only: bool,
        only_strength: Option<u8>,
    },
    /// LAN-EFF-4: pick an unbuilt extension tile (never with `extension_draw = random`, where
    /// the tile is drawn at once).
    Build { faction: u8 },
    /// LAN-EFF-5 `take_noble(any)`, or for an ally remove a noble from the game (LAN-2P-7).
    Noble { faction: u8 },
    /// LAN-RWC-2: the county's occupant takes noble, reward or both.
    County { county: CountyId },
    /// LAN-EFF-7: move the county knight to a conflict, or decline.
    Passage { faction: u8, piece: u8 },
    /// LAN-RWC-4: Surrey's occupant picks the next start player.
    StartPlayer { seat: Seat },
    /// LAN-RWC-2 (b) for a county with reward options (`reward_options` in the data): which
    /// one `faction`, whose knight `piece` has just left the county, takes.
    Reward {
        county: CountyId,
        faction: u8,
        piece: u8,
    },
    /// LAN-LAW-3: how many times to make a law's exchange.
    Exchange { faction: u8, law: LawId },
    /// LAN-RWF-7: ransom captured knights one by one, or stop.
    Ransom { faction: u8 },
}

/// Where the round stands (LAN-GEN-3, LAN-RND-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// D1, simultaneous. Skipped with `extension_draw = random`: the tiles are drawn at setup.
    StartExtension,
    /// D2: `turn` places a knight.
    Place {
        turn: Seat,
    },
    /// D3: vote on proposal `k`, simultaneous and secret.
    Vote {
        k: u8,
    },
    /// D4: current law `law` for the player `player` places after the start player.
    Laws {
        law: u8,
        player: u8,
        majority: SeatSet,
    },
    /// D5: the next county to resolve, from `next`.
    Counties {
        next: u8,
    },
    /// D6, simultaneous.
    Castles,
    /// D7: the bottom row first (`top` false), then the top row.
    Conflicts {
        top: bool,
    },
    Over,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub rules: Rules,
    pub players: u8,
    /// Players first (seat order), then in two-player games each seat's ally.
    pub factions: Vec<Faction>,
    pub round: u8,
    pub start_player: Seat,
    /// Surrey's choice this round, who opens the next round (LAN-RWC-4); absent until it is
    /// made, cleared when the round ends. The marker passes at once (LAN-ENG-5), so it equals
    /// `start_player`, except in a game stored while the choice waited for the round's end: there
    /// the marker is still with the round's opener and the choice is applied when the round ends.
    /// Games stored before this field existed read it as absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_start_player: Option<Seat>,
    pub step: Step,
    pub frames: Vec<Frame>,
    /// The decisions from this stack index up are asked together, each seat answering its own
    /// (ransoms, D7a; law choices with `sim_law_choices`, D4; castle follow-ups, D6, from index
    /// 0 and beside the castle step's own decision, see [`State::step_open`]): they are
    /// independent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parallel_from: Option<usize>,
    pub counties: Vec<Option<CountySlot>>,
    /// Noble tiles left on each county's stack.
    pub nobles: Vec<u8>,
    /// Noble tiles removed from the game by allies, per letter.
    pub nobles_removed: Vec<u8>,
    pub conflict_deck: Vec<CardId>,
    pub top_row: Vec<Conflict>,
    pub bottom_row: Vec<Conflict>,
    pub conflict_discard: Vec<CardId>,
    pub law_deck: Vec<LawId>,
    pub current_laws: Vec<LawId>,
    /// The proposals of this round; a decided one is taken out (`None`).
    pub proposed_laws: Vec<Option<LawId>>,
    pub law_discard: Vec<LawId>,
    /// Face-down favour tiles this round.
    pub favours_taken: Vec<FavourId>,
    /// Knights placed on conflicts this round (the first six earn favours).
    pub conflict_placements: u8,
    /// Sealed ballots of the current vote, per player seat.
    pub ballots: Vec<Option<Ballot>>,
    pub resigned: Option<Seat>,
    pub outcome: Option<LancasterOutcome>,
}

/// Written out so that `clone_from` reuses every vector of the target (the self-play checks try
/// every listed action on a copy).
impl Clone for State {
    fn clone(&self) -> State {
        State {
            rules: self.rules.clone(),
            players: self.players,
            factions: self.factions.clone(),
            round: self.round,
            start_player: self.start_player,
            next_start_player: self.next_start_player,
            step: self.step,
            frames: self.frames.clone(),
            parallel_from: self.parallel_from,
            counties: self.counties.clone(),
            nobles: self.nobles.clone(),
            nobles_removed: self.nobles_removed.clone(),
            conflict_deck: self.conflict_deck.clone(),
            top_row: self.top_row.clone(),
            bottom_row: self.bottom_row.clone(),
            conflict_discard: self.conflict_discard.clone(),
            law_deck: self.law_deck.clone(),
            current_laws: self.current_laws.clone(),
            proposed_laws: self.proposed_laws.clone(),
            law_discard: self.law_discard.clone(),
            favours_taken: self.favours_taken.clone(),
            conflict_placements: self.conflict_placements,
            ballots: self.ballots.clone(),
            resigned: self.resigned,
            outcome: self.outcome.clone(),
        }
    }

    fn clone_from(&mut self, source: &State) {
        let State {
            rules,
            players,
            factions,
            round,
            start_player,
            next_start_player,
            step,
            frames,
            parallel_from,
            counties,
            nobles,
            nobles_removed,
            conflict_deck,
            top_row,
            bottom_row,
            conflict_discard,
            law_deck,
            current_laws,
            proposed_laws,
            law_discard,
            favours_taken,
            conflict_placements,
            ballots,
            resigned,
            outcome,
        } = source;
        self.rules.clone_from(rules);
        self.players = *players;
        self.factions.clone_from(factions);
        self.round = *round;
        self.start_player = *start_player;
        self.next_start_player = *next_start_player;
        self.step = *step;
        self.frames.clone_from(frames);
        self.parallel_from = *parallel_from;
        self.counties.clone_from(counties);
        self.nobles.clone_from(nobles);
        self.nobles_removed.clone_from(nobles_removed);
        self.conflict_deck.clone_from(conflict_deck);
        self.top_row.clone_from(top_row);
        self.bottom_row.clone_from(bottom_row);
        self.conflict_discard.clone_from(conflict_discard);
        self.law_deck.clone_from(law_deck);
        self.current_laws.clone_from(current_laws);
        self.proposed_laws.clone_from(proposed_laws);
        self.law_discard.clone_from(law_discard);
        self.favours_taken.clone_from(favours_taken);
        self.conflict_placements = *conflict_placements;
        self.ballots.clone_from(ballots);
        self.resigned = *resigned;
        self.outcome.clone_from(outcome);
    }
}

impl State {
    pub fn faction(&self, f: u8) -> Option<&Faction> {
        self.factions.get(usize::from(f))
    }

    pub fn faction_mut(&mut self, f: u8) -> Option<&mut Faction> {
        self.factions.get_mut(usize::from(f))
    }

    /// The faction of `seat`'s ally (two-player games).
    pub fn ally_of(&self, seat: Seat) -> Option<u8> {
        let f = seat.0.checked_add(self.players)?;
        self.faction(f).filter(|x| x.ally).map(|_| f)
    }

    /// The faction owning `piece` for `seat`: the player's or the ally's.
    pub fn faction_for(&self, seat: Seat, ally: bool) -> Option<u8> {
        if ally {
            self.ally_of(seat)
        } else {
            (seat.0 < self.players).then_some(seat.0)
        }
    }

    pub fn seats(&self) -> impl Iterator<Item = Seat> + use<> {
        (0..self.players).map(Seat)
    }

    /// Player seats in player order from the start player (LAN-GEN-2).
    pub fn player_order(&self) -> impl Iterator<Item = Seat> + use<> {
        let (n, s) = (self.players, self.start_player.0);
        (0..n).map(move |i| Seat((s + i) % n.max(1)))
    }

    pub fn next_seat(&self, seat: Seat) -> Seat {
        Seat((seat.0 + 1) % self.players.max(1))
    }

    pub fn county(&self, c: CountyId) -> Option<CountySlot> {
        self.counties.get(usize::from(c.0)).copied().flatten()
    }

    pub fn is_over(&self) -> bool {
        matches!(self.step, Step::Over)
    }

    /// The seat that decides frame `f`.
    pub fn frame_seat(&self, f: &Frame) -> Seat {
        let faction = match *f {
            Frame::Favour { faction }
            | Frame::Upgrade { faction, .. }
            | Frame::Build { faction }
            | Frame::Noble { faction }
            | Frame::Passage { faction, .. }
            | Frame::Exchange { faction, .. }
            | Frame::Reward { faction, .. }
            | Frame::Ransom { faction } => faction,
            Frame::County { county } => self.county(county).map(|s| s.faction).unwrap_or(0),
            Frame::StartPlayer { seat } => return seat,
        };
        self.faction(faction).map(|x| x.seat).unwrap_or(Seat(0))
    }

    /// The conflict card `card` in either row.
    pub fn conflict_mut(&mut self, card: CardId) -> Option<&mut Conflict> {
        self.top_row
            .iter_mut()
            .chain(self.bottom_row.iter_mut())
            .find(|c| c.card == card)
    }

    pub fn conflict(&self, card: CardId) -> Option<&Conflict> {
        self.top_row
            .iter()
            .chain(self.bottom_row.iter())
            .find(|c| c.card == card)
    }

    /// The decisions asked together, top first, when a parallel block is open.
    pub fn block(&self) -> Option<impl Iterator<Item = (usize, Frame)> + '_> {
        let start = self.parallel_from?;
        (self.frames.len() > start)
            .then(|| self.frames.iter().copied().enumerate().skip(start).rev())
    }

    /// The decision `seat` is asked now inside a step, with its place on the stack: the top one,
    /// or in a parallel block the seat's own topmost one.
    pub fn frame_for(&self, seat: Seat) -> Option<(usize, Frame)> {
        if let Some(mut block) = self.block() {
            return block.find(|(_, f)| self.frame_seat(f) == seat);
        }
        let top = *self.frames.last()?;
        (self.frame_seat(&top) == seat).then_some((self.frames.len() - 1, top))
    }

    /// Whether the step's own decision is asked now, beside any stacked ones: with nothing
    /// stacked, or in the castle step (D6), where a seat's follow-up decisions (the upgrade
    /// target of K3 or AK2) are asked in a parallel block covering the whole stack while the
    /// other seats go on resolving their own castles (LAN-RWK-4: they do not affect each other).
    /// A seat with a decision of its own in the block answers that one first.
    pub fn step_open(&self) -> bool {
        self.frames.is_empty()
            || (matches!(self.step, Step::Castles) && self.parallel_from == Some(0))
    }

    /// Whether `seat` has a decision to take now: `pending().contains(seat)` without building
    /// the set (it is asked for every action: by the driver, by `apply` and by the listing).
    pub fn is_pending(&self, seat: Seat) -> bool {
        if self.is_over() {
            return false;
        }
        // Its own decision in a parallel block, or the top one of a stack.
        if self.frame_for(seat).is_some() {
            return true;
        }
        self.step_open() && self.step_pending(seat)
    }

    /// Whether the step itself (not a stacked decision) waits for `seat`.
    fn step_pending(&self, seat: Seat) -> bool {
        let player = seat.0 < self.players;
        match self.step {
            Step::StartExtension => {
                player
                    && self
                        .faction(seat.0)
                        .is_some_and(|f| f.start_extension.is_none())
            }
            Step::Place { turn } => seat == turn,
            Step::Vote { .. } => {
                player && self.ballots.get(seat.index()).is_some_and(|b| b.is_none())
            }
            Step::Castles => player && self.faction(seat.0).is_some_and(|f| !f.castle_done),
            _ => false,
        }
    }

    pub fn pending(&self) -> SeatSet {
        if self.is_over() {
            return SeatSet::EMPTY;
        }
        let stacked = match self.block() {
            Some(block) => block.map(|(_, f)| self.frame_seat(&f)).collect(),
            None => self
                .frames
                .last()
                .map_or(SeatSet::EMPTY, |f| SeatSet::only(self.frame_seat(f))),
        };
        if !self.step_open() {
            return stacked;
        }
        self.seats()
            .filter(|s| self.step_pending(*s))
            .fold(stacked, SeatSet::with)
    }
}
