//! The games herald hosts, one folder each. Every game is pure: it depends on `engine` only.

pub mod magnate;
pub mod lancaster;
