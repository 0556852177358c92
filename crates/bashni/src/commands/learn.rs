//! `bashni learn`: self-play data for the pattern evaluation, and the fit of its weights.

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use bashni_engine::{Limits, Weights};
use bashni_rules::Variant;
use bashni_tuning::SelfPlay;
use bashni_tuning::learn::{
    DataConfig, LearnConfig, LearnProgress, fit_patterns, generate, read_data,
};

use super::tune::{bar, command_line};
use crate::input::VariantArg;

/// The two steps of learning.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Play self-play games and append their positions to a data file (goes on with a file
    /// made earlier with the same settings).
    Data(DataArgs),
    /// Fit the feature and pattern weights to data files.
    Fit(FitArgs),
}

/// Arguments of `bashni learn data`.
#[derive(clap::Args)]
pub struct DataArgs {
    /// The game.
    #[arg(long, value_enum, default_value = "russian")]
    variant: VariantArg,
    /// Seeds the random opening plies; the same seed gives the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games the file should hold.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Search depth of each move.
    #[arg(long, conflicts_with = "nodes")]
    depth: Option<u32>,
    /// Nodes searched for each move (instead of a depth).
    #[arg(long)]
    nodes: Option<u64>,
    /// Plies chosen at random at the start of each game.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// Games played at once; the games do not depend on it.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Play with the shipped pattern weights too (otherwise the features alone).
    #[arg(long)]
    patterns: bool,
    /// The data file.
    #[arg(long)]
    out: PathBuf,
}

/// Arguments of `bashni learn fit`.
#[derive(clap::Args)]
pub struct FitArgs {
    /// The game.
    #[arg(long, value_enum, default_value = "russian")]
    variant: VariantArg,
    /// Data files made by `bashni learn data`.
    #[arg(long = "data", required = true)]
    data: Vec<PathBuf>,
    /// Seeds the shuffling.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Adam's step size, in hundredths of a man.
    #[arg(long, default_value_t = 1.0)]
    learning_rate: f64,
    /// Pull of the pattern weights towards zero.
    #[arg(long, default_value_t = 1e-4)]
    regularisation: f64,
    /// The share of the game's result in each position's label, from 0 to 1; the rest is
    /// the value the data game's search gave the position (files made before values were
    /// written take the result alone).
    #[arg(long, default_value_t = 1.0, value_parser = share)]
    result_share: f64,
    /// Write the feature weights here (text, with a header naming this command).
    #[arg(long)]
    out_weights: Option<PathBuf>,
    /// Write the pattern weights here (binary, see the engine's `patterns` module).
    #[arg(long)]
    out_patterns: Option<PathBuf>,
}

fn share(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(share) if (0.0..=1.0).contains(&share) => Ok(share),
        _ => Err(format!("`{text}` is not a share from 0 to 1")),
    }
}

/// Runs the command.
pub fn run(command: &Command) -> Result<ExitCode, Box<dyn Error>> {
    match command {
        Command::Data(args) => data(args),
        Command::Fit(args) => fit(args),
    }
}

fn data(args: &DataArgs) -> Result<ExitCode, Box<dyn Error>> {
    let variant = Variant::from(args.variant);
    let limits = match (args.depth, args.nodes) {
        (_, Some(nodes)) => Limits::nodes(nodes),
        (Some(depth), None) => Limits::depth(depth),
        (None, None) => Limits::depth(4),
    };
    let weights = if args.patterns {
        Weights::tuned(variant)
    } else {
        Weights::tuned(variant).without_patterns()
    };
    let config = DataConfig {
        play: SelfPlay {
            seed: args.seed,
            games: args.games,
            limits,
            random_plies: args.random_plies,
            skip_plies: args.random_plies + 2,
            max_plies: 250,
            threads: args.threads,
        },
        weights,
    };
    let started = Instant::now();
    let games = bar(
        args.games as u64,
        "games [{bar:30}] {pos}/{len} {msg} {elapsed} (eta {eta})",
    )?;
    let done = generate(variant, &config, &args.out, |progress| {
        games.set_position(progress.done as u64);
        games.set_message(format!("{} positions", progress.positions));
    })
    .map_err(|error| format!("{}: {error}", args.out.display()))?;
    games.finish_and_clear();
    println!(
        "{}: {} games, {} positions ({:.1} s)",
        args.out.display(),
        done.done,
        done.positions,
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn fit(args: &FitArgs) -> Result<ExitCode, Box<dyn Error>> {
    let variant = Variant::from(args.variant);
    let started = Instant::now();
    let mut samples = Vec::new();
    let mut games = 0u32;
    for path in &args.data {
        let text = std::fs::read_to_string(path)
            .map_err(|error| format!("{}: {error}", path.display()))?;
        let mut read = read_data(variant, &text, games)
            .map_err(|error| format!("{}: {error}", path.display()))?;
        games = read.iter().map(|s| s.game + 1).max().unwrap_or(games);
        samples.append(&mut read);
    }
    let start = Weights::tuned(variant).without_patterns();
    let config = LearnConfig {
        seed: args.seed,
        epochs: args.epochs,
        learning_rate: args.learning_rate,
        regularisation: args.regularisation,
        result_share: args.result_share,
        ..LearnConfig::default()
    };
    let epochs = bar(
        args.epochs as u64,
        "fit [{bar:30}] {pos}/{len} epochs {msg}",
    )?;
    let report = fit_patterns(&samples, &start, &config, |progress| {
        if let LearnProgress::Epoch {
            done,
            train,
            validation,
            ..
        } = progress
        {
            epochs.set_position(done as u64);
            epochs.set_message(format!("error {train:.5} / held out {validation:.5}"));
        }
    });
    epochs.finish_and_clear();
    let summary = [
        format!(
            "{variant}: {} positions of {games} games: {} training, {} held out",
            samples.len(),
            report.train_positions,
            report.validation_positions
        ),
        format!(
            "K = {:.4}; mean squared error: training {:.5} -> {:.5}, held out {:.5} -> {:.5} (epoch {})",
            report.k,
            report.before.0,
            report.after.0,
            report.before.1,
            report.after.1,
            report.best_epoch
        ),
    ];
    for line in &summary {
        println!("{line}");
    }
    print!("{}", report.weights.to_text());
    println!("time: {:.1} s", started.elapsed().as_secs_f64());
    if let Some(path) = &args.out_weights {
        let mut text = format!("# Fitted by `{}`\n", command_line());
        for line in &summary {
            text.push_str(&format!("# {line}\n"));
        }
        text.push_str(&report.weights.to_text());
        std::fs::write(path, text)?;
    }
    if let Some(path) = &args.out_patterns
        && let Some(patterns) = &report.weights.patterns
    {
        std::fs::write(path, patterns.to_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}
