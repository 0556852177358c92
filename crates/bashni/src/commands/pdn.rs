//! `bashni pdn`: checking and converting game records.

use std::error::Error;
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use bashni_pdn::{
    MoveForm, RawGame, Reader, Replayed, TextEncoding, replay_record, rewrite, write_game_io,
};
use bashni_rules::{SquareNames, Variant};

use crate::input::VariantArg;

/// The `pdn` subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Replay every game of a file and report the first bad move of each.
    ///
    /// A game without a GameType tag is of the game --variant names; without --variant it is
    /// replayed as each game and the one it replays under is taken (Russian draughts when
    /// both fit), and the output says so. What was read leniently (a capture written with
    /// `-`, a line that is not UTF-8, a tag name in another case...) is reported as a
    /// warning with its place. A game that stops at a move written `-` (not known) is kept and
    /// reported. Exits with status 1 if any game cannot be read or replayed.
    Check {
        /// The PDN file.
        file: PathBuf,
        /// The game of records without a GameType tag (found by replaying if absent).
        #[arg(long, value_enum)]
        variant: Option<VariantArg>,
        /// The file's text encoding: `auto` (UTF-8 or UTF-16 by its byte order mark, lines
        /// that are not UTF-8 as Windows-1251), or a name such as `utf-8`, `windows-1251`,
        /// `koi8-r`, `cp866`, `utf-16le`.
        #[arg(long, default_value = "auto", value_parser = parse_encoding)]
        encoding: TextEncoding,
        /// Report only errors and the totals, not warnings and how games were read.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Rewrite the moves of every game, variations included, in full or abbreviated form,
    /// with squares as letters (`c3-d4`) or numbers (`22-18`).
    ///
    /// A FEN tag is rewritten with the same squares, and a GameType tag is added to games
    /// without one (see `pdn check` for how their game is found). Games that cannot be read
    /// or replayed are written exactly as they were and reported on standard error, as are
    /// warnings.
    Convert {
        /// The PDN file.
        file: PathBuf,
        /// How to write the moves.
        #[arg(long, value_enum, default_value = "full")]
        form: FormArg,
        /// How to write the squares: `letters` as the rulebooks (c3-d4, c3:e5), or
        /// `numeric`, 1 (b8) to 32 (g1), as many draughts programs (22-18, 22x15). With
        /// numbers there is no abbreviated score: `--form short` writes a capture by its
        /// start and end (22x6) when that is unambiguous.
        #[arg(long, value_enum, default_value = "letters")]
        squares: SquaresArg,
        /// Where to write (standard output if absent).
        #[arg(long, short)]
        output: Option<PathBuf>,
        /// The game of records without a GameType tag (found by replaying if absent).
        #[arg(long, value_enum)]
        variant: Option<VariantArg>,
        /// The file's text encoding, as for `pdn check`; the output is always UTF-8.
        #[arg(long, default_value = "auto", value_parser = parse_encoding)]
        encoding: TextEncoding,
    },
}

/// `--form` of `bashni pdn convert`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum FormArg {
    /// Every landing square: `c3-b4`, `a3:c5:e7`.
    Full,
    /// The abbreviated score: `cb4`, `a:a7`.
    Short,
}

/// `--squares` of `bashni pdn convert`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum SquaresArg {
    /// Letters and digits, `a1` to `h8`.
    Letters,
    /// Numbers, 1 (b8) to 32 (g1).
    Numeric,
}

impl From<SquaresArg> for SquareNames {
    fn from(squares: SquaresArg) -> SquareNames {
        match squares {
            SquaresArg::Letters => SquareNames::Letters,
            SquaresArg::Numeric => SquareNames::Numbers,
        }
    }
}

fn parse_encoding(label: &str) -> Result<TextEncoding, String> {
    TextEncoding::from_label(label).ok_or_else(|| {
        format!(
            "unknown encoding `{label}`: expected auto, utf-8, utf-16le, utf-16be, \
             windows-1251, koi8-r, cp866 or another single-byte encoding"
        )
    })
}

/// Runs a `pdn` subcommand.
pub fn run(command: &Command) -> Result<ExitCode, Box<dyn Error>> {
    match command {
        Command::Check {
            file,
            variant,
            encoding,
            quiet,
        } => check(file, variant.map(Variant::from), *encoding, *quiet),
        Command::Convert {
            file,
            form,
            squares,
            output,
            variant,
            encoding,
        } => convert(
            file,
            *form,
            SquareNames::from(*squares),
            output.as_ref(),
            variant.map(Variant::from),
            *encoding,
        ),
    }
}

fn open(file: &Path, encoding: TextEncoding) -> Result<Reader<BufReader<File>>, Box<dyn Error>> {
    let handle = File::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(Reader::with_encoding(BufReader::new(handle), encoding))
}

/// The notes on a game read well: how its game was chosen, what was read leniently.
fn notes(raw: &RawGame, replayed: &Replayed) -> Vec<String> {
    let game = raw.number;
    let mut notes = Vec::new();
    if let Some(reason) = replayed.variant_reason() {
        notes.push(format!("game {game}: {reason}"));
    }
    for warning in &replayed.warnings {
        notes.push(format!("game {game}, {warning} (warning)"));
    }
    notes
}

fn check(
    file: &Path,
    variant: Option<Variant>,
    encoding: TextEncoding,
    quiet: bool,
) -> Result<ExitCode, Box<dyn Error>> {
    let mut games = 0;
    let mut bad = 0;
    let mut stopped = 0;
    let mut warned = 0;
    let mut out = BufWriter::new(std::io::stdout().lock());
    for game in open(file, encoding)? {
        games += 1;
        let raw = match game {
            Ok(raw) => raw,
            Err(error) => {
                bad += 1;
                writeln!(out, "{}: {error}", file.display())?;
                continue;
            }
        };
        match replay_record(&raw, variant) {
            Err(error) => {
                bad += 1;
                writeln!(out, "{}: {error}", file.display())?;
            }
            Ok(replayed) => {
                let notes = notes(&raw, &replayed);
                if !replayed.warnings.is_empty() {
                    warned += 1;
                }
                if !quiet {
                    for note in notes {
                        writeln!(out, "{}: {note}", file.display())?;
                    }
                }
                if let Some(stop) = &replayed.stop {
                    stopped += 1;
                    writeln!(out, "{}: {stop} (game kept)", file.display())?;
                }
            }
        }
    }
    writeln!(
        out,
        "{games} games, {} good, {stopped} stop early, {bad} with errors, {warned} with warnings",
        games - bad - stopped
    )?;
    out.flush()?;
    Ok(if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn convert(
    file: &Path,
    form: FormArg,
    squares: SquareNames,
    output: Option<&PathBuf>,
    variant: Option<Variant>,
    encoding: TextEncoding,
) -> Result<ExitCode, Box<dyn Error>> {
    let form = match form {
        FormArg::Full => MoveForm::Full,
        FormArg::Short => MoveForm::Short,
    };
    let mut out: Box<dyn Write> = match output {
        Some(path) => Box::new(BufWriter::new(
            File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
        )),
        None => Box::new(BufWriter::new(std::io::stdout().lock())),
    };
    let mut failed = false;
    let mut reader = open(file, encoding)?.keep_text();
    while let Some(game) = reader.next_game() {
        let played = match game {
            Err(error) => Err(error.to_string()),
            Ok(raw) => match replay_record(&raw, variant) {
                Ok(replayed) => Ok((raw, replayed)),
                Err(error) => Err(error.to_string()),
            },
        };
        match played {
            Ok((raw, replayed)) => {
                for note in notes(&raw, &replayed) {
                    eprintln!("{}: {note}", file.display());
                }
                if let Some(stop) = &replayed.stop {
                    eprintln!(
                        "{}: {stop} (the moves after it are kept as written)",
                        file.display()
                    );
                }
                write_game_io(&mut out, &rewrite(&raw, &replayed.game, form, squares))?;
            }
            Err(error) => {
                failed = true;
                eprintln!("{}: {error} (game written unchanged)", file.display());
                let text = reader.game_text();
                out.write_all(text.as_bytes())?;
                if !text.ends_with("\n\n") {
                    out.write_all(b"\n")?;
                }
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
