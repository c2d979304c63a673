//! Subcommands of the `herald` binary. `main.rs` parses, this module dispatches: service commands
//! live in `service.rs`, the engine tools (self-play, referee) in `engine.rs`.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod engine;
mod service;

/// herald: a play-by-email board game server.
#[derive(Debug, Parser)]
#[command(name = "herald", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the API and pages (the default). Configuration comes from the environment.
    Serve,
    /// Run queued jobs (emails) without serving HTTP; several may run on one database.
    Worker,
    /// Apply pending database migrations and exit.
    Migrate,
    /// Create two demo accounts and a Magnate game between them; print a sign-in link per seat.
    Demo,
    /// Print the OpenAPI document.
    Openapi,
    /// Replay a finished game from its revealed seed and say whether it reproduces the stored result.
    Verify {
        /// The game's id.
        game_id: String,
    },
    /// Play random games through the engine driver (every action validated).
    Selfplay(engine::SelfplayArgs),
    /// Settle a Magnate rules question: read a position and actions on stdin, print the result.
    Referee,
    /// Ratings maintenance.
    Ratings {
        #[command(subcommand)]
        command: RatingsCommand,
    },
}

#[derive(Debug, Subcommand)]
pub enum RatingsCommand {
    /// Recompute every rating and its history from the stored game results, in the order the
    /// games were counted; says how many stored values differed.
    Rebuild,
}

/// Runs one parsed command line and returns the process exit code.
pub fn run(cli: Cli) -> ExitCode {
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => service::serve(),
        Command::Worker => service::worker(),
        Command::Migrate => service::migrate(),
        Command::Demo => service::demo(),
        Command::Openapi => service::openapi(),
        Command::Verify { game_id } => service::verify(&game_id),
        Command::Selfplay(args) => engine::selfplay(args),
        Command::Referee => engine::referee(),
        Command::Ratings {
            command: RatingsCommand::Rebuild,
        } => service::rebuild_ratings(),
    }
}
