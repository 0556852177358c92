//! How the game screen starts: the settings `bashni play` gives it.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use bashni_egtb::Tablebase;
use bashni_engine::Level;
use bashni_rules::{Color, Position, TimeControl, Variant};

/// How the game screen starts.
#[derive(Clone, Debug)]
pub struct Config {
    /// The game.
    pub variant: Variant,
    /// The start position; the usual start when `None`.
    pub position: Option<Position>,
    /// The engine's level; `None` for two people at one screen.
    pub level: Option<Level>,
    /// The side the person plays against the engine.
    pub color: Color,
    /// The clocks; none when `None`.
    pub time: Option<TimeControl>,
    /// Whether to paint with colours (otherwise plain text only).
    pub colors: bool,
    /// A PDN file and the game in it (1-based) to open for replay.
    pub pdn: Option<(PathBuf, usize)>,
    /// The engine's time per move without clocks, and for analysis.
    pub think_time: Duration,
    /// Endgame tables of Russian draughts the engine plays by (at levels 7 and 8, see
    /// [`Level::uses_tables`]) and analyses with.
    pub tables: Option<Arc<Tablebase>>,
}

impl Config {
    /// Two people, the usual start, no clocks, colours on.
    pub fn new(variant: Variant) -> Config {
        Config {
            variant,
            position: None,
            level: None,
            color: Color::White,
            time: None,
            colors: true,
            pdn: None,
            think_time: Duration::from_secs(1),
            tables: None,
        }
    }
}

/// Whether the terminal should get colours: not when `NO_COLOR` is set (to anything but
/// the empty text) or `TERM` is `dumb`.
pub fn colors_wanted() -> bool {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
    !no_color && !dumb
}
