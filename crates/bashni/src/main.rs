//! The `bashni` command: the rules, game records and tools of Bashni and Russian draughts.

mod commands;
mod input;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The allocator: it gives memory back to the system soon after it is freed, so a server
/// whose games left memory shrinks again.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    /// The engine's score and best line for a position or every move of a game.
    Analyse(commands::analyse::Args),
    /// Search fixed positions to a fixed depth: node-count signature and speed.
    Bench(commands::bench::Args),
    /// Fit the evaluation weights to the results of self-play games.
    Tune(commands::tune::Args),
    /// Learn the pattern evaluation: self-play data, then the fit of its weights.
    #[command(subcommand)]
    Learn(commands::learn::Command),
    /// Speak the engine protocol (docs/protocol.md) on standard input and output.
    Engine,
    /// Play two players against each other on balanced openings; wins, Elo, SPRT.
    Match(commands::matchplay::Args),
    /// Make balanced opening positions for `bashni match`.
    Openings(commands::openings::Args),
    /// Run the web app: play, watch, replay and analyse games in the browser.
    Serve(commands::serve::Args),
    /// Play in the terminal, full screen: against the engine or two people; replay PDN.
    Play(commands::play::Args),
    /// Draw a position or a whole game as SVG, PNG or an animated GIF.
    Diagram(commands::diagram::Args),
    /// Check and convert game records in PDN.
    #[command(subcommand)]
    Pdn(commands::pdn::Command),
    /// Endgame databases of Russian draughts: build, verify, probe.
    #[command(subcommand)]
    Egtb(commands::egtb::Command),
    /// Tactics puzzles: find them in game records, check a set, count a set.
    #[command(subcommand)]
    Puzzles(commands::puzzles::Command),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Perft(args) => commands::perft::run(&args),
        Command::Moves(args) => commands::moves::run(&args),
        Command::Pdn(command) => commands::pdn::run(&command),
        Command::Match(args) => commands::matchplay::run(&args),
        Command::Openings(args) => commands::openings::run(&args),
        Command::Engine => commands::engine::run(),
        Command::Analyse(args) => commands::analyse::run(&args),
        Command::Bench(args) => commands::bench::run(&args),
        Command::Tune(args) => commands::tune::run(&args),
        Command::Learn(command) => commands::learn::run(&command),
        Command::Serve(args) => commands::serve::run(&args),
        Command::Diagram(args) => commands::diagram::run(&args),
        Command::Play(args) => commands::play::run(&args),
        Command::Egtb(command) => commands::egtb::run(&command),
        Command::Puzzles(command) => commands::puzzles::run(&command),
    };
    match outcome {
        Ok(code) => code,
        // The reader of the output went away (`bashni pdn check big.pdn | head`): stop quietly.
        Err(error)
            if error
                .downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("bashni: {error}");
            ExitCode::from(2)
        }
    }
}
