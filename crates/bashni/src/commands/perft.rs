//! `bashni perft`: counts the move tree from a position.

use std::error::Error;
use std::process::ExitCode;
use std::time::Instant;

use bashni_rules::perft::perft;
use bashni_rules::{Move, Variant};
use indicatif::{ProgressBar, ProgressStyle};

use crate::input::VariantArg;
use bashni_rules::notation::read_position;

/// Arguments of `bashni perft`.
#[derive(clap::Args)]
pub struct Args {
    /// The game.
    #[arg(long, value_enum, default_value = "bashni")]
    variant: VariantArg,
    /// Count to this depth, printing every depth from 1.
    #[arg(long)]
    depth: u32,
    /// Start from this position (rulebook notation or FEN) instead of the start.
    #[arg(long)]
    position: Option<String>,
    /// Also print the count below each legal move at the last depth.
    #[arg(long)]
    divide: bool,
}

/// Runs the command.
pub fn run(args: &Args) -> Result<ExitCode, Box<dyn Error>> {
    let variant = Variant::from(args.variant);
    let text = args.position.as_deref().unwrap_or("start");
    let position = read_position(variant, text)?;
    for depth in 1..=args.depth {
        let started = Instant::now();
        let moves = position.legal_moves();
        // A bar for the runs long enough to wait for; it draws only on a terminal.
        let bar = if depth >= 9 {
            let bar = ProgressBar::new(moves.len() as u64);
            bar.set_style(
                ProgressStyle::with_template("depth {msg} [{bar:30}] {pos}/{len} moves {elapsed}")
                    .map_err(|e| e.to_string())?,
            );
            bar.set_message(depth.to_string());
            bar
        } else {
            ProgressBar::hidden()
        };
        let mut divided: Vec<(Move, u64)> = Vec::with_capacity(moves.len());
        let mut total = 0;
        for mv in moves.iter() {
            let count = perft(&position.after(mv), depth - 1);
            total += count;
            divided.push((*mv, count));
            bar.inc(1);
        }
        bar.finish_and_clear();
        let seconds = started.elapsed().as_secs_f64();
        let rate = if seconds > 0.0 {
            total as f64 / seconds
        } else {
            0.0
        };
        println!("depth {depth}: {total} ({seconds:.3} s, {rate:.0} nodes/s)");
        if args.divide && depth == args.depth {
            divided.sort_by(|a, b| a.0.cmp_by_text(&b.0));
            for (mv, count) in divided {
                println!("  {mv}: {count}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
