//! herald: a play-by-email board game server.
//!
//! `engine` and `games` are pure (no I/O, no clock, no OS randomness); everything else is the
//! service around them. See `README.md` for the architecture map.

/// Every binary built on herald (the server, the benchmarks, the tests) allocates through
/// mimalloc: with glibc's allocator, allocation was a seventh of the CPU of the submission path
/// (its arenas and consolidation under many threads; `perf` over `bench_submit`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod access;
pub mod auth;
pub mod cli;
pub mod competitions;
pub mod config;
pub mod db;
pub mod devdb;
pub mod domain;
pub mod email;
pub mod engine;
pub mod error;
pub mod games;
pub mod jobs;
pub mod logging;
pub mod metrics;
pub mod models;
pub mod present;
pub mod routes;
pub mod schema;
pub mod selfplay;
pub mod services;
pub mod startup;
pub mod state;
pub mod web;
