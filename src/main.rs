//! The `herald` command line: parse the subcommand and hand over. Nothing else lives here.

use clap::Parser;

fn main() -> std::process::ExitCode {
    herald::cli::run(herald::cli::Cli::parse())
}
