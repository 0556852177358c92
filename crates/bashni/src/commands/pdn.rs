//! `bashni pdn`: checking and converting game records.

use std::error::Error;
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use bashni_pdn::{MoveForm, Reader, replay, rewrite, write_game_io};
use bashni_rules::{SquareNames, Variant};

use crate::input::VariantArg;

/// The `pdn` subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Replay every game of a file and report the first bad move of each.
    ///
    /// Exits with status 1 if any game cannot be read or replayed.
    Check {
        /// The PDN file.
        file: PathBuf,
        /// The game of records without a GameType tag.
        #[arg(long, value_enum, default_value = "bashni")]
        variant: VariantArg,
    },
    /// Rewrite the moves of every game in full or abbreviated form, with squares as
    /// letters (`c3-d4`) or numbers (`22-18`).
    ///
    /// A FEN tag is rewritten with the same squares. Games that cannot be replayed are
    /// written unchanged and reported on standard error.
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
        /// The game of records without a GameType tag.
        #[arg(long, value_enum, default_value = "bashni")]
        variant: VariantArg,
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

/// Runs a `pdn` subcommand.
pub fn run(command: &Command) -> Result<ExitCode, Box<dyn Error>> {
    match command {
        Command::Check { file, variant } => check(file, Variant::from(*variant)),
        Command::Convert {
            file,
            form,
            squares,
            output,
            variant,
        } => convert(
            file,
            *form,
            SquareNames::from(*squares),
            output.as_ref(),
            Variant::from(*variant),
        ),
    }
}

fn open(file: &PathBuf) -> Result<Reader<BufReader<File>>, Box<dyn Error>> {
    let handle = File::open(file).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(Reader::new(BufReader::new(handle)))
}

fn check(file: &PathBuf, variant: Variant) -> Result<ExitCode, Box<dyn Error>> {
    let mut games = 0;
    let mut bad = 0;
    let mut out = BufWriter::new(std::io::stdout().lock());
    for game in open(file)? {
        games += 1;
        let problem = match game {
            Err(error) => Some(error.to_string()),
            Ok(raw) => replay(&raw, Some(variant)).err().map(|e| e.to_string()),
        };
        if let Some(problem) = problem {
            bad += 1;
            writeln!(out, "{}: {problem}", file.display())?;
        }
    }
    writeln!(
        out,
        "{games} games, {} good, {bad} with errors",
        games - bad
    )?;
    out.flush()?;
    Ok(if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn convert(
    file: &PathBuf,
    form: FormArg,
    squares: SquareNames,
    output: Option<&PathBuf>,
    variant: Variant,
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
    for game in open(file)? {
        match game {
            Err(error) => {
                failed = true;
                eprintln!("{}: {error} (game skipped)", file.display());
            }
            Ok(raw) => match replay(&raw, Some(variant)) {
                Ok(played) => write_game_io(&mut out, &rewrite(&raw, &played, form, squares))?,
                Err(error) => {
                    failed = true;
                    eprintln!("{}: {error} (game written unchanged)", file.display());
                    write_game_io(&mut out, &raw)?;
                }
            },
        }
    }
    out.flush()?;
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
