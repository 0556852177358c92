//! `bashni bench`: fixed positions searched to a fixed depth; prints the node-count
//! signature and the speed.

use std::error::Error;
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use bashni_engine::bench;
use bashni_rules::Variant;

/// Arguments of `bashni bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Search depth for every position.
    #[arg(long, default_value_t = 9)]
    depth: u32,
    /// Instead of a depth: search the two starts and ten middlegames of each game this many
    /// milliseconds each, and print the depth reached and the speed.
    #[arg(long, conflicts_with = "depth")]
    time_ms: Option<u64>,
}

/// `--time-ms`: depth reached and speed per position, and the averages per game.
fn timed(milliseconds: u64) -> Result<ExitCode, Box<dyn Error>> {
    let mut out = std::io::stdout().lock();
    let mut positions: Vec<(Variant, &str)> =
        vec![(Variant::Russian, "start"), (Variant::Bashni, "start")];
    positions.extend_from_slice(bench::MIDDLEGAMES);
    let mut failed = None;
    let lines = bench::run_timed(Duration::from_millis(milliseconds), &positions, |line| {
        let nps = line.nodes as f64 / line.time.as_secs_f64().max(1e-9);
        let written = writeln!(
            out,
            "{:8} depth {:>2} {:>10} nodes {:>9.0} nodes/s  {}",
            line.variant.name(),
            line.depth,
            line.nodes,
            nps,
            line.position
        );
        if let Err(error) = written {
            failed = Some(error);
        }
    });
    if let Some(error) = failed {
        return Err(error.into());
    }
    for variant in [Variant::Russian, Variant::Bashni] {
        let middle: Vec<_> = lines
            .iter()
            .filter(|l| l.variant == variant && l.position != "start")
            .collect();
        let depth = middle.iter().map(|l| l.depth as f64).sum::<f64>() / middle.len().max(1) as f64;
        let nodes: u64 = middle.iter().map(|l| l.nodes).sum();
        let seconds: f64 = middle.iter().map(|l| l.time.as_secs_f64()).sum();
        writeln!(
            out,
            "{} middlegames: mean depth {depth:.1}, {:.0} nodes/s",
            variant.name(),
            nodes as f64 / seconds.max(1e-9)
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs the command.
pub fn run(args: &Args) -> Result<ExitCode, Box<dyn Error>> {
    if let Some(milliseconds) = args.time_ms {
        return timed(milliseconds);
    }
    let mut out = std::io::stdout().lock();
    let mut failed = None;
    let lines = bench::run(args.depth.clamp(1, 60), |line| {
        let written = writeln!(
            out,
            "{:8} {:>10} nodes {:>8.3} s  {}",
            line.variant.name(),
            line.nodes,
            line.time.as_secs_f64(),
            line.position
        );
        if let Err(error) = written {
            failed = Some(error);
        }
    });
    if let Some(error) = failed {
        return Err(error.into());
    }
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let seconds: f64 = lines.iter().map(|l| l.time.as_secs_f64()).sum();
    writeln!(out, "signature {nodes}")?;
    writeln!(out, "{:.0} nodes/s", nodes as f64 / seconds.max(1e-9))?;
    Ok(ExitCode::SUCCESS)
}
