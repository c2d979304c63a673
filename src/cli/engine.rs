//! Engine tools on the command line: `selfplay` and `referee`. They print to standard output,
//! which is their whole purpose.
#![allow(clippy::print_stdout)]

use crate::engine::registry::{GameKind, SelfplayError};
use crate::games::magnate;
use crate::selfplay::{Plan, report};
use clap::Args;
use serde_json::{Map, Value};
use std::io::Read;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Debug, Args)]
pub struct SelfplayArgs {
    /// The game: magnate or lancaster.
    pub game: String,
    /// How many games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// The run's seed; game i is seeded from (seed, i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Players (default: the game's smallest count).
    #[arg(long)]
    pub players: Option<u8>,
    /// A named preset of the game's rules.
    #[arg(long)]
    pub preset: Option<String>,
    /// An option of the game's spec, NAME=VALUE, applied over the preset (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Threads to play on.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Check every invariant after every action (slow).
    #[arg(long)]
    pub check: bool,
}

/// `NAME=VALUE` options over a preset, as the JSON options object the game reads.
fn options_json(preset: Option<&str>, pairs: &[String]) -> Result<Value, String> {
    let mut map = Map::new();
    if let Some(p) = preset {
        map.insert("preset".into(), Value::String(p.into()));
    }
    for pair in pairs {
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("--option {pair}: expected NAME=VALUE"))?;
        let value = match value {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            v => v
                .parse::<u64>()
                .map(Value::from)
                .unwrap_or_else(|_| Value::String(v.into())),
        };
        map.insert(name.into(), value);
    }
    Ok(Value::Object(map))
}

pub fn selfplay(args: SelfplayArgs) -> ExitCode {
    let Some(kind) = GameKind::parse(&args.game) else {
        eprintln!(
            "selfplay: unknown game {:?}; the games are {}",
            args.game,
            GameKind::names()
        );
        return ExitCode::from(2);
    };
    let options = match options_json(args.preset.as_deref(), &args.options) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("selfplay: {e}");
            return ExitCode::from(2);
        }
    };
    let plan = Plan {
        players: args.players,
        games: args.games,
        seed: args.seed,
        threads: args.threads,
        check: args.check,
    };
    let start = Instant::now();
    match kind.selfplay(&options, &plan) {
        Ok(summary) => {
            print!("{}", report(&summary, start.elapsed()));
            ExitCode::SUCCESS
        }
        Err(SelfplayError::Setup(e)) => {
            eprintln!("selfplay: {e}");
            ExitCode::from(2)
        }
        Err(SelfplayError::Violation(v)) => {
            eprintln!("selfplay: invariant violated: {}", v.message);
            ExitCode::FAILURE
        }
    }
}

pub fn referee() -> ExitCode {
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        eprintln!("referee: cannot read standard input: {e}");
        return ExitCode::from(2);
    }
    match magnate::referee::referee(&input) {
        Ok(answer) => {
            println!("{answer}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("referee: {e}");
            ExitCode::from(2)
        }
    }
}
