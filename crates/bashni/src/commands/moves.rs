//! `bashni moves`: the legal moves of positions, as JSON lines.

use std::error::Error;
use std::io::Write;
use std::process::ExitCode;

use bashni_protocol::{LineReader, LineTooLong};
use bashni_rules::Variant;
use bashni_rules::notation::{read_position, write_position};
use serde::Serialize;

use crate::input::VariantArg;

/// Arguments of `bashni moves`.
#[derive(clap::Args)]
pub struct Args {
    /// The game.
    #[arg(long, value_enum, default_value = "bashni")]
    variant: VariantArg,
    /// The position (rulebook notation or FEN). Without it, positions are read from
    /// standard input, one per line; a line longer than 64 KiB (65536 bytes) is answered
    /// with an error and skipped.
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

/// The answer for a line too long to read: its start only, and what was wrong.
fn too_long(line: &LineTooLong) -> Answer {
    Answer::Error {
        position: format!("{}...", line.start),
        error: line.to_string(),
    }
}

/// Runs the command.
pub fn run(args: &Args) -> Result<ExitCode, Box<dyn Error>> {
    let variant = Variant::from(args.variant);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = false;
    let mut emit = |line: Answer, out: &mut dyn Write| -> Result<(), Box<dyn Error>> {
        failed |= matches!(line, Answer::Error { .. });
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
        Ok(())
    };
    match &args.position {
        Some(text) => emit(answer(variant, text), &mut out)?,
        None => {
            // Lines are read with a bound, so that a line without end cannot fill the memory.
            for line in LineReader::new(std::io::stdin().lock()) {
                let line = match line? {
                    Ok(text) if text.trim().is_empty() => continue,
                    Ok(text) => answer(variant, &text),
                    Err(long) => too_long(&long),
                };
                emit(line, &mut out)?;
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
