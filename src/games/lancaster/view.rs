//! What one viewer may see (LAN-GEN-5, spec §15.2), built field by field: the board, knights,
//! PP, voting markers, nobles and extensions of everyone; gold and squires of others only in the
//! two-player game (no screens); the viewer's own sealed ballot and starting extension only; the
//! law and conflict decks as counts (and the law deck's top group, which its back shows).

use super::data::data;
use super::ids::{CardId, CountyId, FavourId, LawId, Piece, Space};
use super::options::Rules;
use super::score::LancasterOutcome;
use super::state::{Ballot, Frame, Loc, State, Step};
use crate::engine::{Seat, Viewer};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct KnightView {
    pub piece: Piece,
    pub strength: u8,
    pub at: Loc,
}

#[derive(Debug, Clone, Serialize)]
pub struct FactionView {
    pub faction: u8,
    pub seat: Seat,
    pub ally: bool,
    pub knights: Vec<KnightView>,
    /// Absent for other players behind a screen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gold: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub squires: Option<u32>,
    pub voting_markers: u32,
    pub pp: u32,
    pub nobles: Vec<CountyId>,
    pub extensions_built: Vec<Space>,
    /// The tiles not built yet, always in castle order (K1 to K6). With `extension_draw =
    /// random` they are face down and have no order at all: the next one is drawn with the
    /// game's generator at the moment it is gained, so nothing here can tell it.
    pub extensions_unbuilt: Vec<Space>,
    /// D1: whether this player has chosen (the choice itself shows once everyone has).
    pub start_extension_chosen: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct CountyView {
    pub county: CountyId,
    pub name: String,
    pub min: u8,
    pub nobles_left: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub knight: Option<CountyKnight>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CountyKnight {
    pub faction: u8,
    pub piece: Piece,
    pub squires: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct StackView {
    pub faction: u8,
    pub pieces: Vec<Piece>,
    pub strength: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct ConflictView {
    pub card: CardId,
    pub france: u32,
    pub pp: [u32; 3],
    pub spaces: Vec<StackView>,
}

#[derive(Debug, Clone, Serialize)]
pub struct View {
    pub rules: Rules,
    pub players: u8,
    pub round: u8,
    pub start_player: Seat,
    /// Surrey's choice of who opens the next round, once made (LAN-RWC-4). The marker passes
    /// at once (LAN-ENG-5), so this is `start_player` too, except in a game stored while the
    /// choice still waited for the round's end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_start_player: Option<Seat>,
    pub step: Step,
    /// The follow-up decision of an effect asked now: the viewer's own one if it has one, else
    /// the top one of a stack asked one at a time (the one everybody waits for). In a parallel
    /// block (ransoms, law choices with `sim_law_choices`, castle follow-ups) each seat sees only
    /// its own: who still decides is `pending`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<Frame>,
    pub pending: Vec<Seat>,
    pub factions: Vec<FactionView>,
    pub counties: Vec<CountyView>,
    pub top_row: Vec<ConflictView>,
    pub bottom_row: Vec<ConflictView>,
    pub conflict_deck_count: usize,
    pub conflict_discard: Vec<CardId>,
    pub current_laws: Vec<LawId>,
    pub proposed_laws: Vec<Option<LawId>>,
    pub law_deck_count: usize,
    /// The back number of the law deck's top card.
    pub law_deck_top_group: Option<u8>,
    pub law_discard: Vec<LawId>,
    /// The King's favour tiles in this game (DAT-FAVOURS `min_players`).
    pub favours_in_play: Vec<FavourId>,
    pub favours_face_down: Vec<FavourId>,
    pub conflict_knights_placed: u8,
    /// Who has voted in the current vote (contents sealed).
    pub voted: Vec<Seat>,
    /// The viewer's own sealed ballot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub my_ballot: Option<Ballot>,
    /// The viewer's own sealed starting extension.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub my_start_extension: Option<Space>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<LancasterOutcome>,
}

pub fn view(state: &State, viewer: Viewer) -> View {
    let d = data();
    let me = viewer.seat();
    let screens = d.player_count(state.players).is_none_or(|p| p.screens);
    let over = state.is_over();
    let factions = state
        .factions
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let open = !screens || over || (!f.ally && me == Some(f.seat));
            let n = if f.ally {
                d.ally_castle_spaces.len()
            } else {
                d.castle_spaces.len()
            };
            FactionView {
                faction: i as u8,
                seat: f.seat,
                ally: f.ally,
                knights: f
                    .knights
                    .iter()
                    .enumerate()
                    .map(|(k, l)| KnightView {
                        piece: f.piece(k as u8),
                        strength: d.strength(k),
                        at: *l,
                    })
                    .collect(),
                gold: (open && !f.ally).then_some(f.gold),
                squires: (open && !f.ally).then_some(f.squires),
                voting_markers: f.voting_markers,
                pp: f.pp,
                nobles: f.nobles.clone(),
                extensions_built: f.built.clone(),
                extensions_unbuilt: if f.ally {
                    Vec::new()
                } else {
                    (0..n as u8)
                        .map(|idx| Space { ally: false, idx })
                        .filter(|s| !f.built.contains(s))
                        .collect()
                },
                start_extension_chosen: f.start_extension.is_some(),
            }
        })
        .collect();
    let conflict = |c: &super::state::Conflict| {
        let card = d.conflict(usize::from(c.card.0));
        ConflictView {
            card: c.card,
            france: card.map_or(0, |x| x.france),
            pp: card.map_or([0; 3], |x| x.pp),
            spaces: c
                .spaces
                .iter()
                .map(|s| {
                    let ally = state.faction(s.faction).is_some_and(|f| f.ally);
                    StackView {
                        faction: s.faction,
                        pieces: s.pieces.iter().map(|p| Piece { ally, idx: *p }).collect(),
                        strength: s
                            .pieces
                            .iter()
                            .map(|p| u32::from(d.strength(usize::from(*p))))
                            .sum(),
                    }
                })
                .collect(),
        }
    };
    let own = |s: Seat| me == Some(s);
    View {
        rules: state.rules.clone(),
        players: state.players,
        round: state.round,
        start_player: state.start_player,
        next_start_player: state.next_start_player,
        step: state.step,
        decision: match me.and_then(|s| state.frame_for(s)) {
            Some((_, own)) => Some(own),
            None if state.block().is_none() => state.frames.last().copied(),
            None => None,
        },
        pending: state.pending().iter().collect(),
        factions,
        counties: (0..state.counties.len() as u8)
            .map(|c| {
                let cd = d.county(usize::from(c));
                CountyView {
                    county: CountyId(c),
                    name: cd.map(|x| x.name.clone()).unwrap_or_default(),
                    min: cd.map_or(0, |x| x.min),
                    nobles_left: state.nobles.get(usize::from(c)).copied().unwrap_or(0),
                    knight: state.county(CountyId(c)).map(|s| CountyKnight {
                        faction: s.faction,
                        piece: state
                            .faction(s.faction)
                            .map(|f| f.piece(s.piece))
                            .unwrap_or(Piece {
                                ally: false,
                                idx: s.piece,
                            }),
                        squires: s.squires,
                    }),
                }
            })
            .collect(),
        top_row: state.top_row.iter().map(conflict).collect(),
        bottom_row: state.bottom_row.iter().map(conflict).collect(),
        conflict_deck_count: state.conflict_deck.len(),
        conflict_discard: state.conflict_discard.clone(),
        current_laws: state.current_laws.clone(),
        proposed_laws: state.proposed_laws.clone(),
        law_deck_count: state.law_deck.len(),
        law_deck_top_group: state
            .law_deck
            .last()
            .and_then(|l| d.law(usize::from(l.0)))
            .map(|l| l.group),
        law_discard: state.law_discard.clone(),
        favours_in_play: d.favours_in_play(state.players).map(FavourId).collect(),
        favours_face_down: state.favours_taken.clone(),
        conflict_knights_placed: state.conflict_placements,
        voted: match state.step {
            Step::Vote { .. } => state
                .seats()
                .filter(|s| state.ballots.get(s.index()).is_some_and(Option::is_some))
                .collect(),
            _ => Vec::new(),
        },
        my_ballot: me
            .filter(|s| own(*s))
            .and_then(|s| state.ballots.get(s.index()).copied().flatten()),
        my_start_extension: me
            .and_then(|s| state.faction(s.0))
            .filter(|f| matches!(state.step, Step::StartExtension) && !f.ally)
            .and_then(|f| f.start_extension),
        outcome: state.outcome.clone(),
    }
}
