//! The position format of `magnate-position.md`: a complete state as JSON, hidden parts included.
//! It is also how a [`State`] is stored, so a stored game is a position a referee can read.
//! Reading one checks every invariant and names the first problem.

use super::action::TaxDice;
use super::cards::{Card, CardSet, District, Rank, Suit};
use super::options::{Options, Rules};
use super::play::cost;
use super::setup::{cards_in_game, deck_cards};
use super::state::{Deed, PerDistrict, PerSeat, Phase, Player, Property, Roll, State, Turn};
use super::tokens::Tokens;
use crate::engine::Seat;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColumnEntry {
    pub card: Card,
    /// Present for an unfinished deed: the development tokens on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deed: Option<Tokens>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefer: Option<Suit>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerPosition {
    pub crowns: Vec<Card>,
    #[serde(default)]
    pub supply: Tokens,
    #[serde(default)]
    pub hand: Vec<Card>,
    #[serde(default)]
    pub columns: BTreeMap<District, Vec<ColumnEntry>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PhaseName {
    Roll,
    Action,
    Over,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnPosition {
    pub seat: u8,
    pub phase: PhaseName,
    #[serde(default)]
    pub card_played: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinalTurnsPosition {
    pub remaining: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RollPosition {
    pub d10: [u8; 2],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub d6: Option<TaxDice>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    #[serde(default)]
    pub options: Options,
    pub districts: [Card; 5],
    pub players: [PlayerPosition; 2],
    /// Top card first.
    #[serde(default)]
    pub draw_pile: Vec<Card>,
    /// Oldest first.
    #[serde(default)]
    pub discard: Vec<Card>,
    #[serde(default)]
    pub reshuffled: bool,
    pub turn: TurnPosition,
    #[serde(default)]
    pub final_turns: Option<FinalTurnsPosition>,
    /// Not part of the position format proper: the last roll, kept for views.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_roll: Option<RollPosition>,
    /// Not part of the position format proper: the seat that resigned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resigned: Option<u8>,
    /// Not part of the position format proper: whether `resigned` lost on time.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub timed_out: bool,
}

fn options_of(r: &Rules) -> Options {
    Options {
        preset: Some(r.preset.clone()),
        courts: Some(r.courts),
        ace_build_cost: Some(r.ace_build_cost),
        ace_deed: Some(r.ace_deed),
        deed_on_two: Some(r.deed_on_two),
        deed_dev_each_suit: Some(r.deed_dev_each_suit),
        ace_scoring: Some(r.ace_scoring),
        trade: Some(r.trade),
        trade_same_suit: Some(r.trade_same_suit),
        tiebreak_total: Some(r.tiebreak_total),
        tax_dice: Some(r.tax_dice),
        district_cards: Some(r.district_cards),
        auto_pick: Some(r.auto_pick),
        start_player: Some(r.start_player),
        start_seat: Some(r.start_seat),
    }
}

impl From<&State> for Position {
    fn from(s: &State) -> Position {
        let player = |p: &Player| PlayerPosition {
            crowns: p.crowns.iter().collect(),
            supply: p.supply,
            hand: p.hand.iter().collect(),
            columns: District::ALL
                .into_iter()
                .filter(|d| !p.columns[*d].is_empty())
                .map(|d| {
                    let entries = p.columns[d]
                        .iter()
                        .map(|x| ColumnEntry {
                            card: x.card,
                            deed: x.deed.map(|d| d.tokens),
                            prefer: x.deed.and_then(|d| d.prefer),
                        })
                        .collect();
                    (d, entries)
                })
                .collect(),
        };
        Position {
            options: options_of(&s.rules),
            districts: s.districts.0,
            players: [player(&s.players[Seat(0)]), player(&s.players[Seat(1)])],
            draw_pile: s.draw_pile.iter().rev().copied().collect(),
            discard: s.discard.clone(),
            reshuffled: s.reshuffled,
            turn: TurnPosition {
                seat: s.turn.seat.0,
                phase: match s.turn.phase {
                    Phase::Roll => PhaseName::Roll,
                    Phase::Action => PhaseName::Action,
                    Phase::Over => PhaseName::Over,
                },
                card_played: s.turn.card_played,
            },
            final_turns: s.final_turns.as_ref().map(|r| FinalTurnsPosition {
                remaining: r.iter().map(|x| x.0).collect(),
            }),
            last_roll: s.last_roll.map(|r| RollPosition {
                d10: r.d10,
                d6: match r.d6 {
                    [0, 0] => None,
                    [a, 0] => Some(TaxDice::One(a)),
                    f => Some(TaxDice::Two(f)),
                },
            }),
            resigned: s.resigned.map(|x| x.0),
            timed_out: s.timed_out,
        }
    }
}

/// Records where each card was seen, to report the first card found twice or missing.
struct Census {
    seen: BTreeMap<Card, &'static str>,
    in_game: CardSet,
    rules_note: &'static str,
}

impl Census {
    fn place(&mut self, card: Card, place: &'static str) -> Result<(), String> {
        if !self.in_game.contains(card) {
            return Err(format!(
                "card {card} ({}) is not part of this game ({})",
                card.name(),
                self.rules_note
            ));
        }
        if let Some(first) = self.seen.insert(card, place) {
            return Err(format!(
                "card {card} appears twice: in {first} and in {place}"
            ));
        }
        Ok(())
    }
}

fn seat(n: u8, what: &str) -> Result<Seat, String> {
    if n > 1 {
        Err(format!(
            "{what}: seat {n} does not exist (Magnate has seats 0 and 1)"
        ))
    } else {
        Ok(Seat(n))
    }
}

impl TryFrom<Position> for State {
    type Error = String;

    fn try_from(p: Position) -> Result<State, String> {
        let rules = p.options.resolve().map_err(|e| format!("options: {e}"))?;
        let note = if rules.courts {
            "the Courts are in play"
        } else {
            "courts is off"
        };
        let mut census = Census {
            seen: BTreeMap::new(),
            in_game: cards_in_game(&rules),
            rules_note: note,
        };
        let deck: CardSet = deck_cards(&rules).into_iter().collect();
        for (i, card) in p.districts.iter().enumerate() {
            if deck.contains(*card) || card.rank() == Rank::Crown {
                return Err(format!(
                    "district {}: {card} is not a district card",
                    char::from(b'a' + i as u8)
                ));
            }
            census.place(*card, "the districts")?;
        }
        let mut players = PerSeat([Player::default(), Player::default()]);
        for (i, (pp, player)) in p.players.iter().zip(players.0.iter_mut()).enumerate() {
            let places: [&'static str; 4] = if i == 0 {
                ["seat 0's crowns", "seat 0's hand", "seat 0's columns", ""]
            } else {
                ["seat 1's crowns", "seat 1's hand", "seat 1's columns", ""]
            };
            let [crowns_at, hand_at, columns_at, _] = places;
            if pp.crowns.len() != 3 {
                return Err(format!(
                    "{crowns_at}: a player has three Crowns, not {}",
                    pp.crowns.len()
                ));
            }
            for c in &pp.crowns {
                if c.rank() != Rank::Crown {
                    return Err(format!("{crowns_at}: {c} is not a Crown"));
                }
                census.place(*c, crowns_at)?;
                player.crowns.insert(*c);
            }
            player.supply = pp.supply;
            for c in &pp.hand {
                if !deck.contains(*c) {
                    return Err(format!(
                        "{hand_at}: {c} is not a property card of this game"
                    ));
                }
                census.place(*c, hand_at)?;
                player.hand.insert(*c);
            }
            for (d, entries) in &pp.columns {
                for (k, e) in entries.iter().enumerate() {
                    if !deck.contains(e.card) {
                        return Err(format!(
                            "{columns_at}: {} in district {d} is not a property card of this game",
                            e.card
                        ));
                    }
                    census.place(e.card, columns_at)?;
                    let deed = match e.deed {
                        None => {
                            if e.prefer.is_some() {
                                return Err(format!(
                                    "{columns_at}: {} in district {d} is completed, so it has no preference",
                                    e.card
                                ));
                            }
                            None
                        }
                        Some(tokens) => {
                            if k + 1 != entries.len() {
                                return Err(format!(
                                    "{columns_at}: the unfinished deed {} in district {d} has cards on top of it (MAG-PLACE-4)",
                                    e.card
                                ));
                            }
                            if let Some((s, _)) =
                                tokens.iter().find(|(s, _)| !e.card.suits().contains(*s))
                            {
                                return Err(format!(
                                    "{columns_at}: the deed {} holds {} tokens, not one of its suits",
                                    e.card,
                                    s.name()
                                ));
                            }
                            let target = cost(e.card, &rules);
                            if tokens.total() > u32::from(target) {
                                return Err(format!(
                                    "{columns_at}: the deed {} holds {} tokens, more than its target {target}",
                                    e.card,
                                    tokens.total()
                                ));
                            }
                            if let Some(s) = e.prefer.filter(|s| !e.card.suits().contains(*s)) {
                                return Err(format!(
                                    "{columns_at}: the preference {} of {} is not one of its suits",
                                    s.name(),
                                    e.card
                                ));
                            }
                            Some(Deed {
                                tokens,
                                prefer: e.prefer,
                            })
                        }
                    };
                    player.columns[*d].push(Property { card: e.card, deed });
                }
            }
        }
        for c in &p.draw_pile {
            census.place(*c, "the draw pile")?;
        }
        for c in &p.discard {
            census.place(*c, "the discard pile")?;
        }
        if let Some(missing) = census.in_game.iter().find(|c| !census.seen.contains_key(c)) {
            return Err(format!(
                "card {missing} ({}) is missing: every card of the game must be in exactly one place",
                missing.name()
            ));
        }
        let phase = match p.turn.phase {
            PhaseName::Roll => Phase::Roll,
            PhaseName::Action => Phase::Action,
            PhaseName::Over => Phase::Over,
        };
        if phase == Phase::Over
            && players
                .0
                .iter()
                .any(|x| !x.hand.is_empty() || x.placed().any(|(_, q)| q.deed.is_some()))
        {
            return Err(
                "turn: in phase \"over\" the hands are discarded and unfinished deeds removed"
                    .into(),
            );
        }
        let final_turns = match p.final_turns {
            None => None,
            Some(f) => Some(
                f.remaining
                    .iter()
                    .map(|&n| seat(n, "final_turns"))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        let last_roll = p.last_roll.map(|r| Roll {
            d10: r.d10,
            d6: r.d6.map(TaxDice::faces).unwrap_or([0, 0]),
        });
        Ok(State {
            rules,
            districts: PerDistrict(p.districts),
            players,
            draw_pile: p.draw_pile.into_iter().rev().collect(),
            discard: p.discard,
            reshuffled: p.reshuffled,
            turn: Turn {
                seat: seat(p.turn.seat, "turn")?,
                phase,
                card_played: p.turn.card_played,
            },
            final_turns,
            last_roll,
            resigned: p.resigned.map(|n| seat(n, "resigned")).transpose()?,
            timed_out: p.timed_out,
        })
    }
}

impl Serialize for State {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Position::from(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for State {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let p = Position::deserialize(d)?;
        State::try_from(p).map_err(serde::de::Error::custom)
    }
}
