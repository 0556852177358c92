//! `bashni egtb`: building, checking and asking the endgame databases of Russian draughts
//! (`bashni_egtb`). The tables live in one directory, `egtb` in the current directory unless
//! `--dir` names another.

use std::error::Error;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use bashni_egtb::{
    BuildEvent, Probe, SliceReport, Tablebase, Verdict, build_with_threads, default_threads,
};
use bashni_rules::Variant;
use bashni_rules::notation::{read_position, write_position};
use indicatif::{ProgressBar, ProgressStyle};

/// The directory of the tables when `--dir` is not given.
const DEFAULT_DIR: &str = "egtb";

/// The `egtb` subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Build the tables of up to N pieces, slice by slice; slices already there that read
    /// well and pass the check are kept, so an interrupted build goes on where it stopped.
    Build {
        /// The most pieces, both sides together (2 to 8; 5 takes minutes on a small
        /// machine, 6 about an hour on two cores).
        #[arg(long)]
        pieces: u32,
        /// The directory of the tables.
        #[arg(long, default_value = DEFAULT_DIR)]
        dir: PathBuf,
        /// Threads to solve each slice on (the tables are the same whatever the number);
        /// one per core unless given.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: Option<u32>,
    },
    /// Check every stored position against the positions its moves lead to.
    ///
    /// Exits with status 1 if any value is wrong.
    Verify {
        /// The directory of the tables.
        #[arg(long, default_value = DEFAULT_DIR)]
        dir: PathBuf,
    },
    /// The result of a position, the distance to the end, and the best move.
    ///
    /// Exits with status 1 if the tables do not cover the position.
    Probe {
        /// The position (rulebook notation or FEN), Russian draughts.
        position: String,
        /// The directory of the tables.
        #[arg(long, default_value = DEFAULT_DIR)]
        dir: PathBuf,
    },
}

/// Runs an `egtb` subcommand.
pub fn run(command: &Command) -> Result<ExitCode, Box<dyn Error>> {
    match command {
        Command::Build {
            pieces,
            dir,
            threads,
        } => run_build(*pieces, dir, *threads),
        Command::Verify { dir } => verify(dir),
        Command::Probe { position, dir } => probe(position, dir),
    }
}

/// Steps of the progress bar per slice.
const SHARE: u64 = 1000;

/// A bar over the slices, each slice's share filled as its work goes on.
fn slice_bar() -> Result<ProgressBar, Box<dyn Error>> {
    let bar = ProgressBar::new(SHARE);
    bar.set_style(
        ProgressStyle::with_template("[{bar:25}] slice {msg} ({elapsed})")
            .map_err(|e| e.to_string())?,
    );
    Ok(bar)
}

/// Shows slice `slice` (from 1) of `slices` with `done` of its `total` work done.
fn set_share(bar: &ProgressBar, slice: usize, slices: usize, done: u64, total: u64) {
    bar.set_length(SHARE * slices as u64);
    let inside = (done.saturating_mul(SHARE) / total.max(1)).min(SHARE);
    bar.set_position(SHARE * slice.saturating_sub(1) as u64 + inside);
}

fn run_build(pieces: u32, dir: &Path, threads: Option<u32>) -> Result<ExitCode, Box<dyn Error>> {
    if !(2..=bashni_egtb::MAX_PIECES).contains(&pieces) {
        return Err(format!(
            "--pieces must be from 2 to {}, not {pieces}",
            bashni_egtb::MAX_PIECES
        )
        .into());
    }
    let bar = slice_bar()?;
    let started = Instant::now();
    let mut current = (0, 0);
    let threads = threads.map_or_else(default_threads, |n| n as usize);
    let mut shown = Ok(());
    bar.suspend(|| write_header(&mut std::io::stdout().lock()))?;
    let reports = build_with_threads(dir, pieces, threads, |event| match event {
        BuildEvent::Begin {
            signature,
            number,
            of,
            slots,
        } => {
            current = (number, of);
            bar.set_message(format!("{number}/{of} {signature} ({slots} slots)"));
            set_share(&bar, number, of, 0, 1);
        }
        BuildEvent::Step { done, total } => set_share(&bar, current.0, current.1, done, total),
        BuildEvent::End(report) => {
            // Each slice is shown as it ends, so a long build tells how it goes.
            if shown.is_ok() {
                shown = bar.suspend(|| write_report(&mut std::io::stdout().lock(), report));
            }
        }
    });
    bar.finish_and_clear();
    let reports = reports?;
    shown?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    write_total(&mut out, &reports)?;
    let solved: u64 = reports
        .iter()
        .filter(|r| !r.reused)
        .map(|r| r.counts.positions())
        .sum();
    let seconds = started.elapsed().as_secs_f64();
    writeln!(
        out,
        "{} slices in {}, {solved} positions solved in {seconds:.1} s ({:.0} positions/s)",
        reports.len(),
        dir.display(),
        solved as f64 / seconds.max(1e-9)
    )?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The heading of the slice lines.
fn write_header(out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{:<10} {:>12} {:>12} {:>12} {:>12} {:>7} {:>11} {:>8} {:>11}",
        "slice",
        "positions",
        "wins",
        "draws",
        "losses",
        "longest",
        "file bytes",
        "seconds",
        "state"
    )
}

/// One slice's line: its counts, longest distance, file size and time.
fn write_report(out: &mut impl Write, report: &SliceReport) -> std::io::Result<()> {
    let counts = report.counts;
    writeln!(
        out,
        "{:<10} {:>12} {:>12} {:>12} {:>12} {:>7} {:>11} {:>8.1} {:>11}",
        report.signature.to_string(),
        counts.positions(),
        counts.wins,
        counts.draws,
        counts.losses,
        counts.longest,
        report.file_bytes,
        report.time.as_secs_f64(),
        if report.reused { "kept" } else { "built" }
    )
}

/// The line of all slices together.
fn write_total(out: &mut impl Write, reports: &[SliceReport]) -> std::io::Result<()> {
    let mut total = bashni_egtb::Counts::default();
    let mut bytes = 0;
    for report in reports {
        let counts = report.counts;
        total.wins += counts.wins;
        total.draws += counts.draws;
        total.losses += counts.losses;
        total.longest = total.longest.max(counts.longest);
        bytes += report.file_bytes;
    }
    writeln!(
        out,
        "{:<10} {:>12} {:>12} {:>12} {:>12} {:>7} {:>11}",
        "all",
        total.positions(),
        total.wins,
        total.draws,
        total.losses,
        total.longest,
        bytes
    )
}

/// Opens the tables of `dir`, refusing a directory without any.
fn open(dir: &Path) -> Result<Tablebase, Box<dyn Error>> {
    let tables = Tablebase::open(dir)?;
    if tables.max_pieces() == 0 {
        return Err(format!(
            "{}: no endgame tables here (make them with `bashni egtb build --pieces N`)",
            dir.display()
        )
        .into());
    }
    Ok(tables)
}

fn verify(dir: &Path) -> Result<ExitCode, Box<dyn Error>> {
    let tables = open(dir)?;
    let slices = tables.signatures();
    let bar = slice_bar()?;
    let report = tables.verify(|signature, done, total| {
        let number = slices.iter().position(|s| *s == signature).unwrap_or(0) + 1;
        bar.set_message(format!("{number}/{} {signature}", slices.len()));
        set_share(&bar, number, slices.len(), done, total);
    });
    bar.finish_and_clear();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    writeln!(
        out,
        "{} slices, {} positions checked, {} wrong",
        slices.len(),
        report.checked,
        report.mismatches
    )?;
    let show = |probe: Option<Probe>| probe.map_or("no position".to_string(), |p| p.to_string());
    for wrong in &report.examples {
        writeln!(
            out,
            "wrong: {}: stored {}, the moves give {}",
            write_position(&wrong.position),
            show(wrong.stored),
            wrong.expected.map_or(
                "nothing (a move leads where no table is)".to_string(),
                |p| { p.to_string() }
            )
        )?;
    }
    out.flush()?;
    Ok(if report.mismatches == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// A move's value for the side that makes it, from the value of the position it leads to.
fn for_mover(after: Probe) -> String {
    match after.verdict {
        Verdict::Draw => "draw".to_string(),
        Verdict::Loss => format!("win in {}", after.distance + 1),
        Verdict::Win => format!("loss in {}", after.distance + 1),
    }
}

fn probe(text: &str, dir: &Path) -> Result<ExitCode, Box<dyn Error>> {
    let position = read_position(Variant::Russian, text).map_err(|e| format!("position: {e}"))?;
    let tables = open(dir)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let Some(value) = tables.probe(&position) else {
        writeln!(
            out,
            "not covered: the tables of {} hold up to {} pieces, both sides on the board",
            dir.display(),
            tables.max_pieces()
        )?;
        out.flush()?;
        return Ok(ExitCode::FAILURE);
    };
    writeln!(out, "position: {}", write_position(&position))?;
    let plies = match value.verdict {
        Verdict::Draw => String::new(),
        _ => " plies".to_string(),
    };
    writeln!(
        out,
        "result: {value}{plies} for {}",
        position.side_to_move()
    )?;
    match tables.ranked_moves(&position) {
        Some(moves) if !moves.is_empty() => {
            writeln!(out, "best move: {}", moves[0].0)?;
            for (mv, after) in &moves {
                writeln!(out, "  {mv}  {}", for_mover(*after))?;
            }
        }
        _ => writeln!(
            out,
            "best move: none, {} has no move",
            position.side_to_move()
        )?,
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
