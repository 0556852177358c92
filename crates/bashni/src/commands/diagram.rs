//! `bashni diagram`: a position, or a whole game, drawn as SVG, PNG or an animated GIF.

use std::error::Error;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use bashni_diagram::{Fonts, Frame, Options, fontdb};
use bashni_rules::Move;

use crate::input::GameSource;

/// Arguments of `bashni diagram`.
#[derive(clap::Args)]
pub struct Args {
    /// The game, and the position or the PDN record to start from.
    #[command(flatten)]
    source: GameSource,
    /// The position after this many plies (moves of one side); the end of the game if not
    /// given.
    #[arg(long, requires = "pdn")]
    ply: Option<usize>,
    /// Mark the move that led to the position with an arrow along its path.
    #[arg(long)]
    arrow: bool,
    /// Black's side at the bottom.
    #[arg(long)]
    flip: bool,
    /// Leave out the coordinates a-h and 1-8.
    #[arg(long)]
    no_coordinates: bool,
    /// The width of one diagram in pixels.
    #[arg(long, default_value_t = 400)]
    size: u32,
    /// A line of text above the diagram (the sheet).
    #[arg(long)]
    title: Option<String>,
    /// The picture to write; its extension picks the format: .svg, .png or .gif (the whole
    /// game, animated, up to --ply).
    #[arg(long)]
    out: PathBuf,
    /// The whole game (up to --ply) as a sheet of diagrams with captions.
    #[arg(long)]
    sheet: bool,
    /// On a sheet or in a GIF, every N-th position (the start and the last are always shown).
    #[arg(long, default_value_t = 1)]
    every: usize,
    /// Diagrams per row on a sheet.
    #[arg(long, default_value_t = 4)]
    columns: usize,
    /// How long each position of a GIF is shown, in milliseconds.
    #[arg(long, default_value_t = 800)]
    delay: u32,
}

/// The picture formats, from the output file's extension.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Svg,
    Png,
    Gif,
}

fn format_of(path: &Path) -> Result<Format, String> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("svg") => Ok(Format::Svg),
        Some("png") => Ok(Format::Png),
        Some("gif") => Ok(Format::Gif),
        _ => Err(format!(
            "--out {}: the extension must be .svg, .png or .gif",
            path.display()
        )),
    }
}

/// Runs the command.
pub fn run(args: &Args) -> Result<ExitCode, Box<dyn Error>> {
    let format = format_of(&args.out)?;
    if !(32..=4096).contains(&args.size) {
        return Err(format!("--size {}: give a width from 32 to 4096 pixels", args.size).into());
    }
    if args.every == 0 {
        return Err("--every must be at least 1".into());
    }
    if !(1..=bashni_diagram::MAX_COLUMNS).contains(&args.columns) {
        return Err(format!(
            "--columns {}: give 1 to {}",
            args.columns,
            bashni_diagram::MAX_COLUMNS
        )
        .into());
    }
    if args.sheet && format == Format::Gif {
        return Err("--sheet draws a still picture: write it to .svg or .png".into());
    }
    let game = args.source.load()?;
    let plies = game.moves().len();
    let ply = args.ply.unwrap_or(plies);
    if ply > plies {
        return Err(format!(
            "--ply {ply}: the game has only {plies} {}",
            if plies == 1 { "ply" } else { "plies" }
        )
        .into());
    }
    let last_move = |ply: usize| -> Option<Move> { ply.checked_sub(1).map(|i| game.moves()[i]) };
    let options = Options {
        size_px: args.size,
        flipped: args.flip,
        coordinates: !args.no_coordinates,
        last_move: if args.arrow { last_move(ply) } else { None },
        title: args.title.clone(),
    };
    let fonts = || {
        let mut db = fontdb::Database::new();
        db.load_system_fonts();
        Fonts::new(db)
    };
    let frames = || -> Vec<Frame> {
        let mut plies: Vec<usize> = (0..=ply).step_by(args.every).collect();
        if plies.last() != Some(&ply) {
            plies.push(ply);
        }
        plies
            .into_iter()
            .map(|p| Frame::of_game(&game, p))
            .collect()
    };
    let bytes: Vec<u8> = match (format, args.sheet) {
        (Format::Svg, false) => bashni_diagram::svg(&game.positions()[ply], &options).into_bytes(),
        (Format::Png, false) => bashni_diagram::png(&game.positions()[ply], &options, &fonts())?,
        (Format::Svg, true) => {
            bashni_diagram::sheet_svg(&frames(), args.columns, args.arrow, &options).into_bytes()
        }
        (Format::Png, true) => {
            bashni_diagram::sheet_png(&frames(), args.columns, args.arrow, &options, &fonts())?
        }
        (Format::Gif, _) => {
            bashni_diagram::gif(&frames(), args.arrow, &options, &fonts(), args.delay)?
        }
    };
    std::fs::write(&args.out, &bytes).map_err(|e| format!("{}: {e}", args.out.display()))?;
    Ok(ExitCode::SUCCESS)
}
