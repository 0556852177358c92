//! `bashni tune`: fits the evaluation weights to the results of self-play games.

use std::error::Error;
use std::process::ExitCode;
use std::time::Instant;

use bashni_engine::{Limits, Weights};
use bashni_rules::Variant;
use bashni_tuning::{
    Dataset, PARAMETERS, Progress, SelfPlay, TuneConfig, parameter_name, parameters,
};
use indicatif::{ProgressBar, ProgressStyle};

use crate::input::VariantArg;

/// Arguments of `bashni tune`.
#[derive(clap::Args)]
pub struct Args {
    /// The game.
    #[arg(long, value_enum, default_value = "bashni")]
    variant: VariantArg,
    /// Seeds the random opening plies and the fit; the same seed gives the same weights.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Self-play games.
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Search depth of each move of the games.
    #[arg(long, conflicts_with = "nodes")]
    depth: Option<u32>,
    /// Nodes searched for each move of the games (instead of a depth).
    #[arg(long)]
    nodes: Option<u64>,
    /// Passes of the fit over the training positions.
    #[arg(long, default_value_t = 100)]
    epochs: usize,
    /// Games played at once; the result does not depend on it.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Plies chosen at random at the start of each game.
    #[arg(long, default_value_t = 6)]
    random_plies: usize,
    /// Start from (and play with) these weights instead of the hand-set ones.
    #[arg(long)]
    start: Option<String>,
    /// Keep a weight within bounds, as `NAME=LOW..HIGH` (e.g. `mobility=2..20`); may be
    /// repeated. The man weight is always 100.
    #[arg(long = "bound", value_parser = parse_bound)]
    bounds: Vec<(usize, (i32, i32))>,
    /// Write the fitted weights here, with a header naming this command.
    #[arg(long)]
    out: Option<String>,
    /// Write the self-play positions here, to refit later with `--from-data`.
    #[arg(long)]
    data: Option<String>,
    /// Fit to positions saved earlier with `--data` instead of playing games.
    #[arg(long, conflicts_with_all = ["data", "depth", "nodes", "games"])]
    from_data: Option<String>,
}

/// Reads `NAME=LOW..HIGH` into the weight's index and its bounds.
fn parse_bound(text: &str) -> Result<(usize, (i32, i32)), String> {
    let (name, range) = text
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=LOW..HIGH, found `{text}`"))?;
    let index = (0..PARAMETERS)
        .find(|&p| parameter_name(p) == name.trim())
        .ok_or_else(|| format!("unknown weight `{name}`"))?;
    let (low, high) = range
        .split_once("..")
        .ok_or_else(|| format!("expected LOW..HIGH, found `{range}`"))?;
    let number = |t: &str| {
        t.trim()
            .parse::<i32>()
            .map_err(|_| format!("`{t}` is not a whole number"))
    };
    let (low, high) = (number(low)?, number(high)?);
    if low > high {
        return Err(format!("empty range {low}..{high}"));
    }
    Ok((index, (low, high)))
}

/// A progress bar of `len` steps drawn by `template`.
pub(crate) fn bar(len: u64, template: &str) -> Result<ProgressBar, Box<dyn Error>> {
    let bar = ProgressBar::new(len);
    bar.set_style(ProgressStyle::with_template(template).map_err(|e| e.to_string())?);
    Ok(bar)
}

/// The command line as typed, with `bashni` for the program's path.
pub(crate) fn command_line() -> String {
    let mut words = vec!["bashni".to_string()];
    for arg in std::env::args().skip(1) {
        if arg.is_empty() || arg.contains(|c: char| c.is_whitespace() || c == '"') {
            words.push(format!("{arg:?}"));
        } else {
            words.push(arg);
        }
    }
    words.join(" ")
}

/// Runs the command.
pub fn run(args: &Args) -> Result<ExitCode, Box<dyn Error>> {
    let variant = Variant::from(args.variant);
    let started = Instant::now();
    let start = match &args.start {
        Some(path) => Some(Weights::parse(&std::fs::read_to_string(path)?)?),
        None => None,
    };
    let limits = match (args.depth, args.nodes) {
        (_, Some(nodes)) => Limits::nodes(nodes),
        (Some(depth), None) => Limits::depth(depth),
        (None, None) => Limits::depth(3),
    };
    let mut bounds = bashni_tuning::UNBOUNDED;
    for &(index, range) in &args.bounds {
        bounds[index] = range;
    }
    let defaults = TuneConfig::default();
    let config = TuneConfig {
        play: SelfPlay {
            seed: args.seed,
            games: args.games,
            limits,
            random_plies: args.random_plies,
            threads: args.threads,
            ..defaults.play.clone()
        },
        start,
        epochs: args.epochs,
        bounds,
        ..defaults
    };

    let dataset = match &args.from_data {
        Some(path) => {
            let dataset = Dataset::parse(&std::fs::read_to_string(path)?)?;
            if dataset.variant != variant {
                return Err(
                    format!("{path} holds {} positions, not {variant}", dataset.variant).into(),
                );
            }
            dataset
        }
        None => {
            let games = bar(
                config.play.games as u64,
                "games [{bar:30}] {pos}/{len} {msg} {elapsed} (eta {eta})",
            )?;
            let dataset = bashni_tuning::play_games(variant, &config, |progress| {
                if let Progress::Game {
                    done, positions, ..
                } = progress
                {
                    games.set_position(done as u64);
                    games.set_message(format!("{positions} positions"));
                }
            });
            games.finish_and_clear();
            if let Some(path) = &args.data {
                std::fs::write(path, dataset.to_text())?;
            }
            dataset
        }
    };
    let played = started.elapsed();

    let epochs = bar(
        config.epochs as u64,
        "fit [{bar:30}] {pos}/{len} epochs {msg}",
    )?;
    let report = bashni_tuning::fit(&dataset, &config, |progress| {
        if let Progress::Epoch {
            done, train_loss, ..
        } = progress
        {
            epochs.set_position(done as u64);
            epochs.set_message(format!("loss {train_loss:.5}"));
        }
    });
    epochs.finish_and_clear();

    let (wins, draws, losses) = dataset.results();
    let summary = [
        format!(
            "{variant}: {} games (White {wins} wins, {draws} draws, {losses} losses), {} positions: {} training, {} held out",
            dataset.games,
            dataset.samples.len(),
            report.train_positions,
            report.validation_positions
        ),
        format!(
            "K = {:.4}; mean squared error: training {:.5} -> {:.5}, held out {:.5} -> {:.5}",
            report.k,
            report.loss_before.train,
            report.loss_after.train,
            report.loss_before.validation,
            report.loss_after.validation
        ),
    ];
    for line in &summary {
        println!("{line}");
    }
    println!("{:<18} {:>7} {:>7}", "weight", "start", "fitted");
    let (before, after) = (parameters(&report.start), parameters(&report.weights));
    for p in 0..PARAMETERS {
        let mark = if report.at_bound.contains(&parameter_name(p)) {
            "  (at its bound)"
        } else {
            ""
        };
        println!(
            "{:<18} {:>7} {:>7}{mark}",
            parameter_name(p),
            before[p],
            after[p]
        );
    }
    println!(
        "time: {:.1} s playing, {:.1} s in all",
        played.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );

    if let Some(path) = &args.out {
        let mut text = format!("# Fitted by `{}`\n", command_line());
        for line in &summary {
            text.push_str(&format!("# {line}\n"));
        }
        if !report.at_bound.is_empty() {
            text.push_str(&format!(
                "# At their bounds: {}\n",
                report.at_bound.join(", ")
            ));
        }
        text.push_str(&report.weights.to_text());
        std::fs::write(path, text)?;
    }
    Ok(ExitCode::SUCCESS)
}
