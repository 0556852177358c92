//! `bashni bench`: fixed positions searched to a fixed depth; prints the node-count
//! signature and the speed.

use std::error::Error;
use std::io::Write;
use std::process::ExitCode;

use bashni_engine::bench;

/// Arguments of `bashni bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Search depth for every position.
    #[arg(long, default_value_t = 9)]
    depth: u32,
}

/// Runs the command.
pub fn run(args: &Args) -> Result<ExitCode, Box<dyn Error>> {
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
