//! Integration tests: a real server on port 0, real HTTP, a real PostgreSQL (one private cluster
//! per test process, one database per test, cloned from a migrated template).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod accounts;
mod bad_input;
mod browser;
mod cli;
mod clocks;
mod competitions;
mod embedded;
mod errors;
mod events;
mod games;
mod hardening;
mod health;
mod helpers;
mod invitations;
mod lancaster;
mod mail;
mod merchants;
mod moves_by_email;
mod openapi;
mod ops;
mod paging;
mod play;
mod ratings;
mod retries;
mod rules;
mod smtp;
mod smtp_relay;
mod web;
mod web_forms;
mod web_merchants;
