//! The extended Decktet as Magnate uses it (MAG-CARD): suits, suit sets, the 45 cards and their
//! codes, and the five districts `a`–`e`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// One of the six suits, in canonical order (MAG-COMP-4 maps the d6 onto this order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    Moons,
    Suns,
    Waves,
    Leaves,
    Wyrms,
    Knots,
}

impl Suit {
    pub const ALL: [Suit; 6] = [
        Suit::Moons,
        Suit::Suns,
        Suit::Waves,
        Suit::Leaves,
        Suit::Wyrms,
        Suit::Knots,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn letter(self) -> char {
        match self {
            Suit::Moons => 'M',
            Suit::Suns => 'S',
            Suit::Waves => 'V',
            Suit::Leaves => 'L',
            Suit::Wyrms => 'Y',
            Suit::Knots => 'K',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Suit::Moons => "Moons",
            Suit::Suns => "Suns",
            Suit::Waves => "Waves",
            Suit::Leaves => "Leaves",
            Suit::Wyrms => "Wyrms",
            Suit::Knots => "Knots",
        }
    }

    pub fn from_letter(c: char) -> Option<Suit> {
        Suit::ALL
            .into_iter()
            .find(|s| s.letter() == c.to_ascii_uppercase())
    }

    /// The suit a d6 face names (MAG-COMP-4): 1 Moons … 6 Knots.
    pub fn from_d6(face: u8) -> Option<Suit> {
        Suit::ALL.get(usize::from(face).wrapping_sub(1)).copied()
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl Serialize for Suit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut buf = [0u8; 4];
        s.serialize_str(self.letter().encode_utf8(&mut buf))
    }
}

impl<'de> Deserialize<'de> for Suit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        let mut chars = s.chars();
        match (chars.next().and_then(Suit::from_letter), chars.next()) {
            (Some(suit), None) => Ok(suit),
            _ => Err(serde::de::Error::custom(format!(
                "unknown suit {s:?}: expected one of M S V L Y K"
            ))),
        }
    }
}

/// A set of suits, one bit per suit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct SuitSet(u8);

impl SuitSet {
    pub const EMPTY: SuitSet = SuitSet(0);

    pub const fn from_bits(bits: u8) -> SuitSet {
        SuitSet(bits & 0x3f)
    }

    pub fn only(suit: Suit) -> SuitSet {
        SuitSet(1 << suit.index())
    }

    pub fn contains(self, suit: Suit) -> bool {
        self.0 & (1 << suit.index()) != 0
    }

    #[must_use]
    pub fn with(self, suit: Suit) -> SuitSet {
        SuitSet(self.0 | (1 << suit.index()))
    }

    pub fn intersects(self, other: SuitSet) -> bool {
        self.0 & other.0 != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The first suit in canonical order, if any.
    pub fn first(self) -> Option<Suit> {
        Suit::ALL.get(self.0.trailing_zeros() as usize).copied()
    }

    /// The suits of `self` that are not in `other`.
    #[must_use]
    pub fn minus(self, other: SuitSet) -> SuitSet {
        SuitSet(self.0 & !other.0)
    }

    /// One bit per suit, bit `i` for the suit of index `i`.
    pub fn bits(self) -> u8 {
        self.0
    }

    /// The suits in canonical order.
    pub fn iter(self) -> impl Iterator<Item = Suit> {
        Suit::ALL.into_iter().filter(move |s| self.contains(*s))
    }

    /// The suits in canonical order, in a fixed array (no allocation); `len()` of them are valid.
    pub fn to_array(self) -> ([Suit; 6], usize) {
        let mut out = [Suit::Moons; 6];
        let mut n = 0;
        for s in self.iter() {
            if let Some(slot) = out.get_mut(n) {
                *slot = s;
            }
            n += 1;
        }
        (out, n)
    }
}

/// The rank of a card, as Magnate reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rank {
    Ace,
    /// 2–9.
    Number(u8),
    Crown,
    Pawn,
    Court,
    Excuse,
}

/// One card of the extended Decktet: an index into [`CARDS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

/// What is printed on a card.
#[derive(Debug)]
pub struct CardInfo {
    pub code: &'static str,
    pub name: &'static str,
    pub rank: Rank,
    pub suits: SuitSet,
}

const M: u8 = 1;
const S: u8 = 2;
const V: u8 = 4;
const L: u8 = 8;
const Y: u8 = 16;
const K: u8 = 32;

const fn card(code: &'static str, name: &'static str, rank: Rank, suits: u8) -> CardInfo {
    CardInfo {
        code,
        name,
        rank,
        suits: SuitSet::from_bits(suits),
    }
}

/// The 45 cards of MAG-CARD (section 3 of the spec), in the spec's table order.
pub const CARDS: [CardInfo; 45] = [
    card("1M", "Ace of Moons", Rank::Ace, M),
    card("1S", "Ace of Suns", Rank::Ace, S),
    card("1V", "Ace of Waves", Rank::Ace, V),
    card("1L", "Ace of Leaves", Rank::Ace, L),
    card("1Y", "Ace of Wyrms", Rank::Ace, Y),
    card("1K", "Ace of Knots", Rank::Ace, K),
    card("2MK", "the Author", Rank::Number(2), M | K),
    card("2SY", "the Desert", Rank::Number(2), S | Y),
    card("2VL", "the Origin", Rank::Number(2), V | L),
    card("3MV", "the Journey", Rank::Number(3), M | V),
    card("3SK", "the Painter", Rank::Number(3), S | K),
    card("3LY", "the Savage", Rank::Number(3), L | Y),
    card("4MS", "the Mountain", Rank::Number(4), M | S),
    card("4VL", "the Sailor", Rank::Number(4), V | L),
    card("4YK", "the Battle", Rank::Number(4), Y | K),
    card("5ML", "the Forest", Rank::Number(5), M | L),
    card("5SV", "the Discovery", Rank::Number(5), S | V),
    card("5YK", "the Soldier", Rank::Number(5), Y | K),
    card("6MV", "the Lunatic", Rank::Number(6), M | V),
    card("6SY", "the Penitent", Rank::Number(6), S | Y),
    card("6LK", "the Market", Rank::Number(6), L | K),
    card("7ML", "the Chance Meeting", Rank::Number(7), M | L),
    card("7SK", "the Castle", Rank::Number(7), S | K),
    card("7VY", "the Cave", Rank::Number(7), V | Y),
    card("8MS", "the Diplomat", Rank::Number(8), M | S),
    card("8VL", "the Mill", Rank::Number(8), V | L),
    card("8YK", "the Betrayal", Rank::Number(8), Y | K),
    card("9MS", "the Pact", Rank::Number(9), M | S),
    card("9VY", "the Darkness", Rank::Number(9), V | Y),
    card("9LK", "the Merchant", Rank::Number(9), L | K),
    card("NM", "the Huntress", Rank::Crown, M),
    card("NS", "the Bard", Rank::Crown, S),
    card("NV", "the Sea", Rank::Crown, V),
    card("NL", "the End", Rank::Crown, L),
    card("NY", "the Calamity", Rank::Crown, Y),
    card("NK", "the Windfall", Rank::Crown, K),
    card("0", "the Excuse", Rank::Excuse, 0),
    card("PMYK", "the Watchman", Rank::Pawn, M | Y | K),
    card("PVLY", "the Borderland", Rank::Pawn, V | L | Y),
    card("PMSL", "the Harvest", Rank::Pawn, M | S | L),
    card("PSVK", "the Light Keeper", Rank::Pawn, S | V | K),
    card("TMVK", "the Consul", Rank::Court, M | V | K),
    card("TMLY", "the Rite", Rank::Court, M | L | Y),
    card("TSVY", "the Island", Rank::Court, S | V | Y),
    card("TSLK", "the Window", Rank::Court, S | L | K),
];

/// Each card's suits and rank, packed from [`CARDS`] at compile time: the engine reads them for
/// every card it looks at, and a table of 45 small entries stays in one or two cache lines where
/// the full [`CardInfo`] rows (names and codes included) spread over thirty.
#[allow(clippy::indexing_slicing)]
const PACKED: [(SuitSet, Rank); 45] = {
    let mut out = [(SuitSet::EMPTY, Rank::Excuse); 45];
    let mut i = 0;
    while i < CARDS.len() {
        out[i] = (CARDS[i].suits, CARDS[i].rank);
        i += 1;
    }
    out
};

/// For each card, the higher die that makes it pay income when completed (MAG-INC-2/3): its
/// rank for 2–9, 1 for an Ace (double 1s), 0 (never) for the others. Read for every property at
/// every roll, so it is a byte table rather than a match on [`CardInfo::rank`]. Evaluated at
/// compile time: an index out of range would fail the build, not a game.
#[allow(clippy::indexing_slicing)]
const PAYS_ON: [u8; 45] = {
    let mut out = [0u8; 45];
    let mut i = 0;
    while i < CARDS.len() {
        out[i] = match CARDS[i].rank {
            Rank::Ace => 1,
            Rank::Number(r) => r,
            _ => 0,
        };
        i += 1;
    }
    out
};

/// Marks an Ace in [`BUILD_COST`]: its cost is an option (MAG-BUILD-1).
const ACE_COST: u8 = u8::MAX;

/// Each card's cost to build outright and a deed's target (MAG-BUILD-1, MAG-DEV-3): its rank
/// for 2–9, 10 for Pawns and Courts, 0 for Crowns and the Excuse, [`ACE_COST`] for Aces. The
/// legal walk reads it for every card of the hand at every action, so it is a byte table
/// rather than a match on the rank. Evaluated at compile time.
#[allow(clippy::indexing_slicing)]
const BUILD_COST: [u8; 45] = {
    let mut out = [0u8; 45];
    let mut i = 0;
    while i < CARDS.len() {
        out[i] = match CARDS[i].rank {
            Rank::Ace => ACE_COST,
            Rank::Number(r) => r,
            Rank::Court | Rank::Pawn => 10,
            Rank::Crown | Rank::Excuse => 0,
        };
        i += 1;
    }
    out
};

impl Card {
    pub const EXCUSE: Card = Card(36);

    /// What building this card outright costs (MAG-BUILD-1), or `None` for an Ace, whose cost
    /// the options set (see [`BUILD_COST`]).
    pub fn fixed_cost(self) -> Option<u8> {
        match BUILD_COST.get(self.index()) {
            Some(&ACE_COST) => None,
            Some(&c) => Some(c),
            None => Some(0),
        }
    }

    /// The higher die (1–9) on which this card pays income, 0 if none does (see [`PAYS_ON`]).
    pub fn pays_on(self) -> u8 {
        PAYS_ON.get(self.index()).copied().unwrap_or(0)
    }

    /// Every card, in table order.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..CARDS.len() as u8).map(Card)
    }

    /// The cards of one rank class, in table order.
    pub fn of_rank(pred: fn(Rank) -> bool) -> impl Iterator<Item = Card> {
        Card::all().filter(move |c| pred(c.rank()))
    }

    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    pub fn info(self) -> &'static CardInfo {
        // Cards are only made from indices below CARDS.len(); fall back to the Excuse regardless.
        CARDS.get(self.index()).unwrap_or(&CARDS[36])
    }

    pub fn code(self) -> &'static str {
        self.info().code
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn rank(self) -> Rank {
        PACKED.get(self.index()).map_or(Rank::Excuse, |p| p.1)
    }

    pub fn suits(self) -> SuitSet {
        PACKED.get(self.index()).map_or(SuitSet::EMPTY, |p| p.0)
    }

    /// MAG-CARD-3: the two cards' suit sets intersect.
    pub fn shares_suit(self, other: Card) -> bool {
        self.suits().intersects(other.suits())
    }

    /// Looks a card up by its code, ignoring case (`8vl` is the Mill).
    pub fn from_code(code: &str) -> Option<Card> {
        CARDS
            .iter()
            .position(|c| c.code.eq_ignore_ascii_case(code))
            .and_then(|i| u8::try_from(i).ok())
            .map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for Card {
    fn serialize<S2: Serializer>(&self, s: S2) -> Result<S2::Ok, S2::Error> {
        s.serialize_str(self.code())
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Card::from_code(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown card code {s:?}")))
    }
}

/// A set of cards (a hand, the Crowns): one bit per card, so copying and testing are free.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CardSet(u64);

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);

    pub fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.0) != 0
    }

    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.0;
    }

    /// Removes `card`; returns whether it was there.
    pub fn remove(&mut self, card: Card) -> bool {
        let had = self.contains(card);
        self.0 &= !(1 << card.0);
        had
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cards in table order.
    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Some(Card(i))
        })
    }

    /// The `n`-th card in table order.
    pub fn nth(self, n: usize) -> Option<Card> {
        self.iter().nth(n)
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        let mut set = CardSet::EMPTY;
        for c in iter {
            set.insert(c);
        }
        set
    }
}

impl Serialize for CardSet {
    fn serialize<S2: Serializer>(&self, s: S2) -> Result<S2::Ok, S2::Error> {
        s.collect_seq(self.iter())
    }
}

/// One of the five districts, `a`–`e` left to right; the Excuse is `c` (MAG-SETUP-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct District(u8);

impl District {
    pub const ALL: [District; 5] = [
        District(0),
        District(1),
        District(2),
        District(3),
        District(4),
    ];

    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    pub fn letter(self) -> char {
        char::from(b'a' + self.0)
    }

    pub fn from_letter(c: char) -> Option<District> {
        let c = c.to_ascii_lowercase();
        ('a'..='e').contains(&c).then(|| District(c as u8 - b'a'))
    }
}

impl fmt::Display for District {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl Serialize for District {
    fn serialize<S2: Serializer>(&self, s: S2) -> Result<S2::Ok, S2::Error> {
        let mut buf = [0u8; 4];
        s.serialize_str(self.letter().encode_utf8(&mut buf))
    }
}

impl<'de> Deserialize<'de> for District {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        let mut chars = s.chars();
        match (chars.next().and_then(District::from_letter), chars.next()) {
            (Some(d), None) => Ok(d),
            _ => Err(serde::de::Error::custom(format!(
                "unknown district {s:?}: expected a letter a-e"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rank_two_to_nine_has_three_cards_carrying_each_suit_once() {
        for r in 2..=9u8 {
            let cards: Vec<Card> = Card::all()
                .filter(|c| c.rank() == Rank::Number(r))
                .collect();
            assert_eq!(cards.len(), 3, "rank {r}");
            for suit in Suit::ALL {
                assert_eq!(
                    cards.iter().filter(|c| c.suits().contains(suit)).count(),
                    1,
                    "rank {r} {suit}"
                );
            }
        }
    }

    #[test]
    fn every_suit_is_on_one_ace_one_crown_two_pawns_and_two_courts() {
        for suit in Suit::ALL {
            let count = |rank: Rank| {
                Card::all()
                    .filter(|c| c.rank() == rank && c.suits().contains(suit))
                    .count()
            };
            assert_eq!(count(Rank::Ace), 1);
            assert_eq!(count(Rank::Crown), 1);
            assert_eq!(count(Rank::Pawn), 2);
            assert_eq!(count(Rank::Court), 2);
        }
        assert!(Card::EXCUSE.suits().is_empty());
        assert_eq!(Card::EXCUSE.code(), "0");
    }

    #[test]
    fn card_codes_name_the_rank_then_the_suits_in_canonical_order() {
        for c in Card::all() {
            let suits: String = c.suits().iter().map(Suit::letter).collect();
            assert!(c.code().ends_with(&suits), "{}", c.code());
            assert_eq!(Card::from_code(&c.code().to_lowercase()), Some(c));
        }
        assert_eq!(Card::from_code("8VL").map(Card::name), Some("the Mill"));
        assert_eq!(Card::from_code("4VL").map(Card::name), Some("the Sailor"));
        assert_eq!(Card::from_code("8LV"), None);
    }

    #[test]
    fn card_sets_iterate_in_table_order() {
        let set: CardSet = ["9LK", "1M", "4VL"]
            .iter()
            .filter_map(|c| Card::from_code(c))
            .collect();
        let codes: Vec<&str> = set.iter().map(Card::code).collect();
        assert_eq!(codes, ["1M", "4VL", "9LK"]);
        assert_eq!(set.nth(1).map(Card::code), Some("4VL"));
    }
}
