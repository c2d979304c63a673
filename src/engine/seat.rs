//! Seats, sets of seats, viewers and event audiences.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A place at the table, numbered from 0. Seat 0 is the game's creator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    /// The seat number as an index into per-seat arrays.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A set of seats (at most 8), a bit mask: cheap to copy and to compare. Serialised as the sorted
/// list of seat numbers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SeatSet(u8);

impl SeatSet {
    /// No seat.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// The set holding just `seat`.
    pub fn only(seat: Seat) -> SeatSet {
        SeatSet(1 << seat.0)
    }

    /// Seats `0..n`.
    pub fn first(n: u8) -> SeatSet {
        SeatSet(((1u16 << n) - 1) as u8)
    }

    pub fn contains(self, seat: Seat) -> bool {
        seat.0 < 8 && self.0 & (1 << seat.0) != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    #[must_use]
    pub fn with(self, seat: Seat) -> SeatSet {
        SeatSet(self.0 | (1 << seat.0))
    }

    #[must_use]
    pub fn without(self, seat: Seat) -> SeatSet {
        SeatSet(self.0 & !(1 << seat.0))
    }

    /// The lowest-numbered seat in the set.
    pub fn lowest(self) -> Option<Seat> {
        (self.0 != 0).then(|| Seat(self.0.trailing_zeros() as u8))
    }

    /// The seats in increasing order.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..8u8).filter(move |s| self.0 & (1 << s) != 0).map(Seat)
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Self {
        iter.into_iter().fold(SeatSet::EMPTY, SeatSet::with)
    }
}

impl Serialize for SeatSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for SeatSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let seats = Vec::<u8>::deserialize(d)?;
        if let Some(bad) = seats.iter().find(|s| **s >= 8) {
            return Err(serde::de::Error::custom(format!(
                "seat {bad} is out of range"
            )));
        }
        Ok(seats.into_iter().map(Seat).collect())
    }
}

/// Who is looking: one seat's player, or a spectator who sees only what is public.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

impl Viewer {
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        }
    }
}

/// Who may see an event. The history a viewer reads is filtered by this, the same rule as views.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "audience", content = "seats", rename_all = "snake_case")]
pub enum Audience {
    Everyone,
    Only(SeatSet),
    AllBut(SeatSet),
}

impl Audience {
    /// Whether `viewer` may see an event with this audience. Spectators see only public events.
    pub fn admits(self, viewer: Viewer) -> bool {
        match (self, viewer) {
            (Audience::Everyone, _) => true,
            (Audience::Only(set), Viewer::Seat(s)) => set.contains(s),
            (Audience::AllBut(set), Viewer::Seat(s)) => !set.contains(s),
            (_, Viewer::Spectator) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_set_lists_its_seats_in_order_and_round_trips_as_json() {
        let set: SeatSet = [Seat(3), Seat(0), Seat(4)].into_iter().collect();
        assert_eq!(set.len(), 3);
        assert_eq!(set.lowest(), Some(Seat(0)));
        let json = serde_json::to_string(&set).unwrap();
        assert_eq!(json, "[0,3,4]");
        assert_eq!(serde_json::from_str::<SeatSet>(&json).unwrap(), set);
        assert!(serde_json::from_str::<SeatSet>("[9]").is_err());
    }

    #[test]
    fn audiences_admit_exactly_their_seats_and_spectators_only_public_events() {
        let only0 = Audience::Only(SeatSet::only(Seat(0)));
        let but0 = Audience::AllBut(SeatSet::only(Seat(0)));
        assert!(only0.admits(Viewer::Seat(Seat(0))));
        assert!(!only0.admits(Viewer::Seat(Seat(1))));
        assert!(!but0.admits(Viewer::Seat(Seat(0))));
        assert!(but0.admits(Viewer::Seat(Seat(1))));
        assert!(!but0.admits(Viewer::Spectator));
        assert!(Audience::Everyone.admits(Viewer::Spectator));
    }
}
