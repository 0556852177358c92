//! `bashni match`: plays two players against each other on balanced openings and reports
//! the result with its statistics (`match` is a keyword, hence the module's name).
//!
//! The work is done by `bashni_arena`; this module reads the options, wires external
//! programs in through `bashni_protocol::ExternalEngine`, draws the progress bar and prints
//! the summary.

use std::error::Error;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::sync::Arc;

use bashni_arena::stats::format_elo;
use bashni_arena::{
    MatchConfig, Player, PlayerError, PlayerFactory, PlayerKind, PlayerSpec, Sprt, Tally, mix,
    openings, run_match,
};
use bashni_engine::{Clock, Limits};
use bashni_pdn::write_game_io;
use bashni_protocol::ExternalEngine;
use bashni_rules::TimeControl;
use bashni_rules::{Game, GameResult, Move, Variant};
use indicatif::{ProgressBar, ProgressStyle};

use crate::input::VariantArg;

/// Arguments of `bashni match`.
#[derive(clap::Args)]
pub struct Args {
    /// The first player: `level=8,time=10+0.1`, `depth=6`, `untuned`, `material2`,
    /// `weights=FILE`, `exec:PROGRAM ARGS`... (see the arena crate's `spec` module). Results
    /// are given from this player's side.
    #[arg(long, default_value = "level=8")]
    first: String,
    /// The second player, in the same form.
    #[arg(long, default_value = "material2")]
    second: String,
    /// The game.
    #[arg(long, value_enum, default_value = "bashni")]
    variant: VariantArg,
    /// Pairs of games: each opening is played twice, once with each player as White
    /// [default: the number of openings].
    #[arg(long)]
    games: Option<usize>,
    /// Time control of each game in seconds, `BASE+INCREMENT`; the default is 10+0.1 unless
    /// --depth or --nodes is given (then games have no clock).
    #[arg(long)]
    tc: Option<String>,
    /// Search depth per move of the built-in players (and external ones).
    #[arg(long)]
    depth: Option<u32>,
    /// Nodes per move of the built-in players (and external ones).
    #[arg(long)]
    nodes: Option<u64>,
    /// Games played at once, each with engines of its own.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Stop early by a sequential probability ratio test: `elo0,elo1,alpha,beta`.
    #[arg(long)]
    sprt: Option<String>,
    /// Write every game to this PDN file.
    #[arg(long)]
    pdn: Option<String>,
    /// Openings file, one position per line [default: the shipped ones of the variant].
    #[arg(long)]
    openings: Option<String>,
    /// Seed of the players' random choices (levels below 8, ties of material2).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game still going after this many plies is scored a draw.
    #[arg(long, default_value_t = bashni_arena::DEFAULT_MAX_PLIES)]
    max_plies: usize,
}

/// An external program speaking the engine protocol, as a player.
struct ExternalPlayer {
    engine: ExternalEngine,
    /// The program and its arguments, to start it again after a failure.
    command: Vec<String>,
    name: String,
    limits: Limits,
}

/// Starts the program of `command` (its first word) with the rest as its arguments.
fn start(command: &[String]) -> Result<ExternalEngine, String> {
    let Some((program, rest)) = command.split_first() else {
        return Err("no program to start".to_string());
    };
    let rest: Vec<&str> = rest.iter().map(String::as_str).collect();
    ExternalEngine::start(program, &rest).map_err(|error| error.to_string())
}

impl Player for ExternalPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) {
        // A program that failed in the last game (a crash loses that game) is started
        // afresh, so that one failure does not forfeit every later game. A failure here
        // shows at the next move, as an error of `go`.
        if (self.engine.is_gone() || self.engine.new_game().is_err())
            && let Ok(engine) = start(&self.command)
        {
            self.engine = engine;
            let _ = self.engine.new_game();
        }
    }

    fn choose(&mut self, game: &Game, clock: Option<Clock>) -> Result<Option<Move>, PlayerError> {
        let mut limits = self.limits.clone();
        limits.clock = clock;
        self.engine
            .go(game, &limits)
            .map_err(|error| PlayerError::new(error.to_string()))
    }
}

/// The factory of a player given by `spec`.
fn factory(spec: &PlayerSpec, args: &Args, variant: Variant, seed: u64) -> PlayerFactory {
    if let Some(factory) = spec.factory(variant, args.depth, args.nodes, seed) {
        return factory;
    }
    let command = match &spec.kind {
        PlayerKind::External { command } => command.clone(),
        _ => Vec::new(),
    };
    let name = spec.name.clone();
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        ..Limits::default()
    };
    Arc::new(move || {
        let engine =
            start(&command).map_err(|error| PlayerError::new(format!("{name}: {error}")))?;
        let name = match engine.name() {
            "" => name.clone(),
            id => id.to_string(),
        };
        Ok(Box::new(ExternalPlayer {
            engine,
            command: command.clone(),
            name,
            limits: limits.clone(),
        }) as Box<dyn Player + Send>)
    })
}

fn read_file(path: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|error| format!("{path}: {error}"))
}

fn read_bytes(path: &str) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|error| format!("{path}: {error}"))
}

fn percent(tally: &Tally) -> f64 {
    tally.score().unwrap_or(0.5) * 100.0
}

/// The progress bar's message: the running score.
fn progress_message(tally: &Tally, sprt: Option<&Sprt>) -> String {
    let mut text = format!("{tally}  {:.1}%", percent(tally));
    if let Some(elo) = tally.elo() {
        text.push_str(&format!(
            "  Elo {} [{} .. {}]",
            format_elo(elo.elo),
            format_elo(elo.low),
            format_elo(elo.high)
        ));
    }
    if let Some(sprt) = sprt {
        let (lower, upper) = sprt.bounds();
        text.push_str(&format!(
            "  LLR {:.2} ({lower:.2} .. {upper:.2})",
            sprt.llr(tally)
        ));
    }
    text
}

/// Runs the command.
pub fn run(args: &Args) -> Result<ExitCode, Box<dyn Error>> {
    let variant = Variant::from(args.variant);
    let mut first =
        PlayerSpec::parse(&args.first, read_bytes).map_err(|e| format!("--first: {e}"))?;
    let mut second =
        PlayerSpec::parse(&args.second, read_bytes).map_err(|e| format!("--second: {e}"))?;
    if first.name == second.name {
        first.name.push_str(" (1)");
        second.name.push_str(" (2)");
    }
    if args.depth == Some(0) || args.nodes == Some(0) {
        return Err("--depth and --nodes must be at least 1".into());
    }
    let clock = match &args.tc {
        Some(text) => Some(
            TimeControl::parse_seconds(text).map_err(|e| format!("time control `{text}`: {e}"))?,
        ),
        None if args.depth.is_some() || args.nodes.is_some() => None,
        None => Some(TimeControl::parse_seconds("10+0.1")?),
    };
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    let openings = match &args.openings {
        Some(path) => openings::parse_openings(variant, &read_file(path)?)?,
        None => openings::shipped(variant)?,
    };
    let pairs = args.games.unwrap_or(openings.len());
    if pairs == 0 {
        return Err("--games must be at least 1".into());
    }
    if args.concurrency == 0 {
        return Err("--concurrency must be at least 1".into());
    }
    if args.max_plies == 0 {
        return Err("--max-plies must be at least 1".into());
    }
    let mut config = MatchConfig::new(variant, openings, pairs);
    config.first_clock = first.time_control.or(clock);
    config.second_clock = second.time_control.or(clock);
    config.concurrency = args.concurrency;
    config.sprt = sprt;
    config.max_plies = args.max_plies;
    config.event = format!("bashni match: {} vs {}", first.name, second.name);
    for (option, spec, own_clock) in [
        ("--first", &first, config.first_clock),
        ("--second", &second, config.second_clock),
    ] {
        if own_clock.is_none()
            && args.depth.is_none()
            && args.nodes.is_none()
            && spec.needs_limits()
        {
            return Err(format!(
                "{option} `{}` has no clock, depth or node limit: give --tc, --depth or --nodes",
                spec.name
            )
            .into());
        }
    }
    let first_factory = factory(&first, args, variant, mix(&[args.seed, 1]));
    let second_factory = factory(&second, args, variant, mix(&[args.seed, 2]));

    let mut pdn = match &args.pdn {
        Some(path) => Some(BufWriter::new(
            File::create(path).map_err(|error| format!("{path}: {error}"))?,
        )),
        None => None,
    };
    let total = config.games();
    println!(
        "{} vs {}: {variant}, {total} games ({pairs} pairs, each opening with both colours), {}",
        first.name,
        second.name,
        describe_limits(&config, args)
    );
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template("[{bar:25}] {pos}/{len} {msg} ({elapsed})")
            .map_err(|e| e.to_string())?,
    );
    bar.set_message(progress_message(&Tally::default(), sprt.as_ref()));
    let mut by_colour = [0usize; 3];
    let event = config.event.clone();
    let summary = run_match(&config, first_factory, second_factory, |report, tally| {
        by_colour[match report.result {
            GameResult::WhiteWins => 0,
            GameResult::Draw => 1,
            GameResult::BlackWins => 2,
        }] += 1;
        bar.inc(1);
        bar.set_message(progress_message(tally, sprt.as_ref()));
        if let Some(out) = pdn.as_mut() {
            write_game_io(out, &report.to_pdn(&event))?;
            out.flush()?;
        }
        Ok(())
    });
    bar.finish_and_clear();
    let summary = summary?;

    let tally = summary.tally;
    let games = tally.games();
    println!(
        "Games: {games}{}",
        if summary.stopped_early() {
            format!(" of {total} (stopped by the SPRT)")
        } else {
            String::new()
        }
    );
    println!(
        "{}: {} wins, {} draws, {} losses",
        first.name, tally.wins, tally.draws, tally.losses
    );
    println!(
        "Score: {:.1}/{games} ({:.1}%)",
        tally.points(),
        percent(&tally)
    );
    if let Some(elo) = tally.elo() {
        let margin = elo.margin();
        let margin = if margin.is_finite() {
            format!(" ± {margin:.1}")
        } else {
            String::new()
        };
        println!(
            "Elo difference: {}{margin} (95%: {} .. {})",
            format_elo(elo.elo),
            format_elo(elo.low),
            format_elo(elo.high)
        );
    }
    if let (Some(sprt), Some(decision)) = (&sprt, summary.sprt) {
        let (lower, upper) = sprt.bounds();
        println!(
            "SPRT ({sprt}): LLR {:.2}, bounds {lower:.2} .. {upper:.2}: {decision}",
            sprt.llr(&tally)
        );
    }
    println!(
        "By colour: White won {}, drawn {}, Black won {}",
        by_colour[0], by_colour[1], by_colour[2]
    );
    let endings: Vec<String> = summary
        .terminations
        .iter()
        .map(|(kind, count)| format!("{count} {kind}"))
        .collect();
    println!(
        "Endings: {}; {:.1} plies a game",
        endings.join(", "),
        summary.plies as f64 / f64::from(games.max(1))
    );
    if let Some(path) = &args.pdn {
        println!("Games written to {path}");
    }
    Ok(ExitCode::SUCCESS)
}

fn describe_limits(config: &MatchConfig, args: &Args) -> String {
    let mut parts = Vec::new();
    match (config.first_clock, config.second_clock) {
        (None, None) => parts.push("no clock".to_string()),
        (Some(a), Some(b)) if a == b => parts.push(format!("tc {a}")),
        (a, b) => {
            let text = |tc: Option<TimeControl>| tc.map_or("none".to_string(), |t| t.to_string());
            parts.push(format!("tc {} / {}", text(a), text(b)));
        }
    }
    if let Some(depth) = args.depth {
        parts.push(format!("depth {depth}"));
    }
    if let Some(nodes) = args.nodes {
        parts.push(format!("nodes {nodes}"));
    }
    parts.push(format!("{} at once", config.concurrency));
    parts.join(", ")
}
