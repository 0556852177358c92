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
    /// With --time-ms: also search the same positions, as long each, with a program speaking
    /// the engine protocol (`exec:PROGRAM ARGS`, as in `bashni match`), and print its depth
    /// and speed as it reports them (each engine counts nodes its own way). Positions of a
    /// game it does not play are reported as refused.
    #[arg(long, requires = "time_ms", value_name = "exec:PROGRAM ARGS")]
    peer: Option<String>,
}

/// `--time-ms`: depth reached and speed per position, and the averages per game.
fn timed(milliseconds: u64, peer: Option<&str>) -> Result<ExitCode, Box<dyn Error>> {
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
    write_means(&mut out, "", &lines)?;
    if let Some(spec) = peer {
        let peer_lines = peer_timed(
            &mut out,
            spec,
            Duration::from_millis(milliseconds),
            &positions,
        )?;
        write_means(&mut out, "peer ", &peer_lines)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The mean depth and the speed over the middlegames of each game among `lines`.
fn write_means(
    out: &mut impl Write,
    who: &str,
    lines: &[bench::BenchLine],
) -> Result<(), Box<dyn Error>> {
    for variant in [Variant::Russian, Variant::Bashni] {
        let middle: Vec<_> = lines
            .iter()
            .filter(|l| l.variant == variant && l.position != "start")
            .collect();
        if middle.is_empty() {
            continue;
        }
        let depth = middle.iter().map(|l| l.depth as f64).sum::<f64>() / middle.len() as f64;
        let nodes: u64 = middle.iter().map(|l| l.nodes).sum();
        let seconds: f64 = middle.iter().map(|l| l.time.as_secs_f64()).sum();
        writeln!(
            out,
            "{who}{} middlegames: mean depth {depth:.1}, {:.0} nodes/s",
            variant.name(),
            nodes as f64 / seconds.max(1e-9)
        )?;
    }
    Ok(())
}

/// `--peer`: each of `positions` searched for `time` by the program `spec` names; its own
/// report of depth, nodes and time.
fn peer_timed(
    out: &mut impl Write,
    spec: &str,
    time: Duration,
    positions: &[(Variant, &str)],
) -> Result<Vec<bench::BenchLine>, Box<dyn Error>> {
    use bashni_arena::spec::{PlayerKind, PlayerSpec};
    // Read as `bashni match` reads its players; only an external program will do here.
    let command = match PlayerSpec::parse(spec, |_| Err("no files here".into())) {
        Ok(PlayerSpec {
            kind: PlayerKind::External { command },
            ..
        }) => command,
        _ => return Err(format!("--peer {spec:?}: write it as exec:PROGRAM ARGS").into()),
    };
    let (program, args) = command
        .split_first()
        .ok_or_else(|| format!("--peer {spec:?}: no program"))?;
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut engine = bashni_protocol::ExternalEngine::start(program, &args)
        .map_err(|e| format!("--peer {program}: {e}"))?;
    writeln!(out, "peer: {}", engine.name())?;
    let mut lines = Vec::new();
    for &(variant, text) in positions {
        let position = if text == "start" {
            bashni_rules::Position::start(variant)
        } else {
            bashni_rules::notation::read_position(variant, text)
                .map_err(|e| format!("bench position {text:?}: {e}"))?
        };
        engine.new_game()?;
        let game = bashni_rules::Game::new(position);
        if let Err(error) = engine.go(&game, &bashni_engine::Limits::movetime(time)) {
            writeln!(out, "{:8} refused ({error})  {text}", variant.name())?;
            continue;
        }
        let info = engine.last_info().cloned().unwrap_or_default();
        let line = bench::BenchLine {
            variant,
            position: text.to_string(),
            nodes: info.nodes.unwrap_or(0),
            depth: info.depth.unwrap_or(0),
            time: info.time.unwrap_or(time),
        };
        let nps = line.nodes as f64 / line.time.as_secs_f64().max(1e-9);
        writeln!(
            out,
            "{:8} depth {:>2} {:>10} nodes {:>9.0} nodes/s  peer  {}",
            line.variant.name(),
            line.depth,
            line.nodes,
            nps,
            line.position
        )?;
        lines.push(line);
    }
    Ok(lines)
}

/// Runs the command.
pub fn run(args: &Args) -> Result<ExitCode, Box<dyn Error>> {
    if let Some(milliseconds) = args.time_ms {
        return timed(milliseconds, args.peer.as_deref());
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
