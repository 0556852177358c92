//! `bashni analyse`: the engine's score and best line for a position, or for every move of
//! a recorded game.

use std::error::Error;
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use bashni_engine::{Engine, Info, Limits, Options, Past};
use bashni_rules::{Color, Game, Move};

use crate::input::GameSource;

/// Arguments of `bashni analyse`.
#[derive(clap::Args)]
pub struct Args {
    /// The game, and the position or the PDN record to start from.
    #[command(flatten)]
    source: GameSource,
    /// Search depth per position.
    #[arg(long)]
    depth: Option<u32>,
    /// Time per position in milliseconds (default 1000 when no depth is given).
    #[arg(long)]
    movetime: Option<u64>,
    /// How many best lines to show.
    #[arg(long, default_value_t = 1)]
    multipv: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
}

fn line_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs the command.
pub fn run(args: &Args) -> Result<ExitCode, Box<dyn Error>> {
    let engine = Engine::new(Options {
        hash_mb: args.hash.clamp(1, 65_536),
        threads: args.threads.clamp(1, 256),
        multipv: args.multipv.max(1),
    });
    let limits = Limits {
        depth: args.depth,
        movetime: match (args.depth, args.movetime) {
            (None, None) => Some(Duration::from_millis(1000)),
            (_, time) => time.map(Duration::from_millis),
        },
        ..Limits::default()
    };
    let mut out = std::io::stdout().lock();
    let loaded = args.source.load()?;
    match &args.source.pdn {
        None => {
            let game = loaded;
            let side = game.side_to_move();
            let result = engine.search_game(&game, &limits, |info: &Info| {
                // Progress of the search, depth by depth.
                let _ = writeln!(
                    std::io::stdout(),
                    "depth {} line {} score {} nodes {} nps {} pv {}",
                    info.depth,
                    info.multipv,
                    info.score.white_text(side),
                    info.nodes,
                    info.nps,
                    line_text(&info.pv)
                );
            });
            match result.best {
                None => writeln!(out, "no legal move: {side} has lost")?,
                Some(best) => writeln!(
                    out,
                    "best {best} score {} depth {} line {}",
                    result.score.white_text(side),
                    result.depth,
                    result
                        .lines
                        .first()
                        .map_or(String::new(), |i| line_text(&i.pv))
                )?,
            }
        }
        Some(_) => {
            let played = loaded;
            let mut game = Game::new(*played.start_position());
            for (ply, mv) in played.moves().iter().enumerate() {
                let side = game.side_to_move();
                let result = engine.search(game.position(), &Past::of(&game), &limits, |_| {});
                let number = game.move_number(ply);
                let dots = if side == Color::White { "." } else { "..." };
                let best = result.best.map_or("-".to_string(), |m| m.to_string());
                let mark = if result
                    .best
                    .is_some_and(|b| b.same_result(mv, played.variant()))
                {
                    ""
                } else {
                    " ?"
                };
                writeln!(
                    out,
                    "{number}{dots} {mv}{mark}  score {}  best {best}  line {}",
                    result.score.white_text(side),
                    result
                        .lines
                        .first()
                        .map_or(String::new(), |i| line_text(&i.pv))
                )?;
                game.play(mv)?;
            }
            if let Some(outcome) = played.outcome() {
                writeln!(out, "{outcome}")?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
