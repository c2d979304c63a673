//! Tokens: a multiset of suits (a supply, a payment, the tokens on a deed). Written `V2 L1` in the
//! spec and `{"V": 2, "L": 1}` on the wire (suits with a count of zero omitted).

use super::cards::{Suit, SuitSet};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;

/// The largest count one suit may hold; far above anything a real game reaches, it keeps
/// arithmetic in range whatever a client sends.
pub const MAX_COUNT: u16 = 10_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Tokens(pub [u16; 6]);

impl Tokens {
    pub const NONE: Tokens = Tokens([0; 6]);

    pub fn of(suit: Suit, n: u16) -> Tokens {
        let mut t = Tokens::NONE;
        t.set(suit, n);
        t
    }

    pub fn get(&self, suit: Suit) -> u16 {
        self.0.get(suit.index()).copied().unwrap_or(0)
    }

    pub fn set(&mut self, suit: Suit, n: u16) {
        if let Some(slot) = self.0.get_mut(suit.index()) {
            *slot = n;
        }
    }

    pub fn add(&mut self, suit: Suit, n: u16) {
        self.set(suit, self.get(suit).saturating_add(n));
    }

    /// Adds `n` of each suit of `suits` (a bit scan rather than a pass over all six).
    pub fn add_suits(&mut self, suits: SuitSet, n: u16) {
        let mut bits = suits.bits();
        while bits != 0 {
            if let Some(slot) = self.0.get_mut(bits.trailing_zeros() as usize) {
                *slot = slot.saturating_add(n);
            }
            bits &= bits - 1;
        }
    }

    pub fn add_all(&mut self, other: &Tokens) {
        for s in Suit::ALL {
            self.add(s, other.get(s));
        }
    }

    /// Whether `self` holds at least `other` of every suit.
    pub fn covers(&self, other: &Tokens) -> bool {
        self.0.iter().zip(other.0.iter()).all(|(a, b)| a >= b)
    }

    /// Takes `other` away; the caller has checked [`Tokens::covers`] (saturates otherwise).
    pub fn remove_all(&mut self, other: &Tokens) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a = a.saturating_sub(*b);
        }
    }

    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| u32::from(n)).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// The suits with a count above zero.
    pub fn suits(&self) -> SuitSet {
        let mut bits = 0u8;
        for (i, &n) in self.0.iter().enumerate() {
            bits |= u8::from(n > 0) << i;
        }
        SuitSet::from_bits(bits)
    }

    /// Suits with their counts, canonical order, zeros skipped.
    pub fn iter(&self) -> impl Iterator<Item = (Suit, u16)> + '_ {
        Suit::ALL
            .into_iter()
            .map(|s| (s, self.get(s)))
            .filter(|&(_, n)| n > 0)
    }
}

/// The spec's written form: `V2 L1`, or `∅` when empty.
impl fmt::Display for Tokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("∅");
        }
        let mut first = true;
        for (s, n) in self.iter() {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{s}{n}")?;
        }
        Ok(())
    }
}

impl Serialize for Tokens {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Tokens {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let map = BTreeMap::<Suit, u16>::deserialize(d)?;
        let mut t = Tokens::NONE;
        for (suit, n) in map {
            if n > MAX_COUNT {
                return Err(serde::de::Error::custom(format!(
                    "{n} tokens of {suit} is more than {MAX_COUNT}"
                )));
            }
            t.set(suit, n);
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_serialise_as_a_suit_map_without_zeros() {
        let mut t = Tokens::NONE;
        t.add(Suit::Leaves, 3);
        t.add(Suit::Waves, 1);
        assert_eq!(serde_json::to_string(&t).unwrap(), r#"{"V":1,"L":3}"#);
        assert_eq!(t.to_string(), "V1 L3");
        let back: Tokens = serde_json::from_str(r#"{"L":3,"V":1,"M":0}"#).unwrap();
        assert_eq!(back, t);
        assert!(serde_json::from_str::<Tokens>(r#"{"Q":1}"#).is_err());
        assert!(serde_json::from_str::<Tokens>(r#"{"V":-1}"#).is_err());
        assert!(serde_json::from_str::<Tokens>(r#"{"V":10001}"#).is_err());
    }
}
