//! `bashni play`: the full-screen game in the terminal (see docs/play.md).

use std::error::Error;
use std::process::ExitCode;

use bashni_engine::Level;
use bashni_rules::{Color, TimeControl};
use bashni_tui::{App, Config, colors_wanted};

use crate::input::GameSource;
use bashni_rules::notation::read_position;

/// The side the person plays against the engine.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum ColorArg {
    /// White moves first.
    White,
    /// Black.
    Black,
}

/// Arguments of `bashni play`.
#[derive(clap::Args)]
pub struct Args {
    /// Play against the engine at this level (1-8); without it two people play.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=8), conflicts_with = "two_players")]
    level: Option<u8>,
    /// Two people at this screen (the default when no level is given).
    #[arg(long)]
    two_players: bool,
    /// Your side against the engine.
    #[arg(long, value_enum, default_value = "white")]
    color: ColorArg,
    /// Clocks: minutes for the game and seconds added per move, e.g. 3+2.
    #[arg(long, value_name = "MIN+INC")]
    time: Option<String>,
    /// The game, and the position or the PDN record to start from.
    #[command(flatten)]
    source: GameSource,
    /// Plain text only, no colours (also when NO_COLOR is set or TERM is dumb).
    #[arg(long)]
    no_color: bool,
    /// Endgame tables of Russian draughts (a directory made by `bashni egtb build`): the
    /// engine plays by them at levels 7 and 8 and analyses with them.
    #[arg(long, env = "BASHNI_EGTB", value_name = "DIR")]
    egtb: Option<std::path::PathBuf>,
}

/// Runs the command.
pub fn run(args: &Args) -> Result<ExitCode, Box<dyn Error>> {
    let variant = args.source.variant();
    let mut config = Config::new(variant);
    if let Some(text) = &args.source.position {
        config.position = Some(read_position(variant, text)?);
    }
    config.level = match args.level {
        Some(n) if !args.two_players => Some(Level::new(n).ok_or("levels go from 1 to 8")?),
        _ => None,
    };
    config.color = match args.color {
        ColorArg::White => Color::White,
        ColorArg::Black => Color::Black,
    };
    if let Some(text) = &args.time {
        config.time = Some(
            TimeControl::parse_minutes(text).map_err(|e| format!("time control `{text}`: {e}"))?,
        );
    }
    if let Some(file) = &args.source.pdn {
        if args.source.game == 0 {
            return Err("--game counts from 1".into());
        }
        config.pdn = Some((file.clone(), args.source.game));
    }
    config.colors = !args.no_color && colors_wanted();
    if let Some(dir) = &args.egtb {
        let tables = bashni_egtb::Tablebase::load(dir)
            .map_err(|e| format!("--egtb {}: {e}", dir.display()))?;
        config.tables = Some(std::sync::Arc::new(tables));
    }
    let app = App::new(config)?;
    bashni_tui::run(app)?;
    Ok(ExitCode::SUCCESS)
}
