//! `bashni moves`: the legal moves of positions, as JSON lines.

use std::error::Error;
use std::io::{BufRead, Write};
use std::process::ExitCode;

use bashni_rules::Variant;
use bashni_rules::notation::write_position;
use serde::Serialize;

use crate::input::VariantArg;
use bashni_rules::notation::read_position;

/// Arguments of `bashni moves`.
#[derive(clap::Args)]
pub struct Args {
    /// The game.
    #[arg(long, value_enum, default_value = "bashni")]
    variant: VariantArg,
    /// The position (rulebook notation or FEN). Without it, positions are read from
    /// standard input, one per line.
    #[arg(long)]
    position: Option<String>,
}

#[derive(Serialize)]
struct MoveLine {
    #[serde(rename = "move")]
    text: String,
    result: String,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Answer {
    Moves {
        position: String,
        moves: Vec<MoveLine>,
    },
    Error {
        position: String,
        error: String,
    },
}

/// The answer for one position text.
fn answer(variant: Variant, text: &str) -> Answer {
    match read_position(variant, text) {
        Err(error) => Answer::Error {
            position: text.to_string(),
            error: error.to_string(),
        },
        Ok(position) => {
            let mut moves: Vec<_> = position.legal_moves().iter().copied().collect();
            moves.sort_by(|a, b| a.cmp_by_text(b));
            Answer::Moves {
                position: write_position(&position),
                moves: moves
                    .iter()
                    .map(|mv| MoveLine {
                        text: mv.to_string(),
                        result: write_position(&position.after(mv)),
                    })
                    .collect(),
            }
        }
    }
}

/// Runs the command.
pub fn run(args: &Args) -> Result<ExitCode, Box<dyn Error>> {
    let variant = Variant::from(args.variant);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = false;
    let mut emit = |text: &str, out: &mut dyn Write| -> Result<(), Box<dyn Error>> {
        let line = answer(variant, text);
        failed |= matches!(line, Answer::Error { .. });
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
        Ok(())
    };
    match &args.position {
        Some(text) => emit(text, &mut out)?,
        None => {
            for line in std::io::stdin().lock().lines() {
                let line = line?;
                if line.trim().is_empty() {
                    continue;
                }
                emit(&line, &mut out)?;
                out.flush()?;
            }
        }
    }
    out.flush()?;
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
