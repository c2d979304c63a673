//! The games herald hosts, one folder each. Every game is pure: it depends on `engine` only.

pub mod lancaster;
pub mod magnate;
pub mod merchants;
#[cfg(test)]
pub mod nim;
