//! `bashni openings`: makes the balanced opening positions of `bashni match` (see
//! `bashni_arena::openings`), printed as an openings file.

use std::error::Error;
use std::process::ExitCode;

use bashni_arena::openings::{OpeningSettings, format_openings, generate};
use bashni_rules::Variant;
use indicatif::{ProgressBar, ProgressStyle};

use crate::input::VariantArg;

/// Arguments of `bashni openings`.
#[derive(clap::Args)]
pub struct Args {
    /// The game.
    #[arg(long, value_enum, default_value = "bashni")]
    variant: VariantArg,
    /// How many positions to make.
    #[arg(long, default_value_t = 50)]
    count: usize,
    /// Random plies from the start.
    #[arg(long, default_value_t = 6)]
    plies: usize,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Depth of the engine's search that judges balance.
    #[arg(long, default_value_t = 6)]
    depth: u32,
    /// Largest score, in hundredths of a man, still balanced.
    #[arg(long, default_value_t = 20)]
    margin: i32,
}

/// Runs the command.
pub fn run(args: &Args) -> Result<ExitCode, Box<dyn Error>> {
    if args.count == 0 || args.depth == 0 || args.margin < 0 {
        return Err("--count and --depth must be at least 1, --margin at least 0".into());
    }
    let settings = OpeningSettings {
        variant: Variant::from(args.variant),
        count: args.count,
        plies: args.plies,
        seed: args.seed,
        depth: args.depth,
        margin: args.margin,
    };
    let bar = ProgressBar::new(args.count as u64);
    bar.set_style(
        ProgressStyle::with_template("[{bar:25}] {pos}/{len} openings ({elapsed})")
            .map_err(|e| e.to_string())?,
    );
    let positions = generate(&settings, |kept| bar.set_position(kept as u64));
    bar.finish_and_clear();
    print!("{}", format_openings(&settings, &positions?));
    Ok(ExitCode::SUCCESS)
}
