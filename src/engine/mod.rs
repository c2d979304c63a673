//! The game-agnostic engine core: what every game implements ([`Game`]), who is asked to act
//! ([`Seat`], [`SeatSet`]), who may see what ([`Audience`], [`Viewer`]), fair randomness
//! ([`GameRng`]), the [`driver`] that checks every action in a fixed order, and the [`registry`]
//! of the games herald hosts.
//!
//! This module and `games/` are pure: they import serde, serde_json, thiserror and the RNG crate
//! only. No actix, diesel, lettre, clock, OS randomness or logging, so a game replays byte for
//! byte from its seed and its actions.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

pub mod driver;
mod game;
pub mod registry;
mod rng;
mod seat;

pub use game::{
    EndReason, Game, Illegal, Logged, OptionsError, Outcome, Standing, Switch, SwitchValue,
    Timeout, places,
};
pub use rng::{Draw, GameRng, Seed};
pub use seat::{Audience, Seat, SeatSet, Viewer};
