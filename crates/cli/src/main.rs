//! The `bashni` command: the rules, game records and tools of Bashni and Russian draughts.

mod commands;
mod input;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Bashni (tower checkers) and Russian draughts.
#[derive(Parser)]
#[command(name = "bashni", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the move tree from a position, one line per depth.
    Perft(commands::perft::Args),
    /// Print the legal moves of positions as JSON lines.
    Moves(commands::moves::Args),
    /// Check and convert game records in PDN.
    #[command(subcommand)]
    Pdn(commands::pdn::Command),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Perft(args) => commands::perft::run(&args),
        Command::Moves(args) => commands::moves::run(&args),
        Command::Pdn(command) => commands::pdn::run(&command),
    };
    match outcome {
        Ok(code) => code,
        Err(error) => {
            eprintln!("bashni: {error}");
            ExitCode::from(2)
        }
    }
}
