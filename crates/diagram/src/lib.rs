//! Position diagrams of Bashni and Russian draughts.
//!
//! A diagram is drawn once, as SVG: the board with its coordinates, every tower seen from the
//! side (each checker a flat disc, the commanding checker on top, kings crowned, tall towers
//! compressed with a height number) and, if asked, the last move as an arrow. The PNG, the
//! sheet of several diagrams and the animated GIF are that same drawing, rasterised with
//! `resvg` (feature `raster`, on by default). The drawing matches the board of the web page.
//!
//! The crate does no input or output: it takes positions and gives back text or bytes.
//!
//! ```
//! use bashni_diagram::{Options, svg};
//! use bashni_rules::{Position, Variant};
//!
//! let picture = svg(&Position::start(Variant::Bashni), &Options::default());
//! assert!(picture.starts_with("<svg"));
//! assert_eq!(picture.matches("class=\"tower\"").count(), 24);
//! ```

mod draw;
#[cfg(feature = "raster")]
mod raster;

use std::fmt;

use bashni_rules::{Color, Game, Move, Position, Square};

#[cfg(feature = "raster")]
pub use raster::{Fonts, fontdb, gif, png, png_with_arrow, sheet_png};

/// The smallest width of a diagram in pixels; smaller requests are raised to it.
pub const MIN_SIZE_PX: u32 = 16;
/// The largest width of a diagram in pixels; larger requests are lowered to it.
pub const MAX_SIZE_PX: u32 = 4096;
/// The most columns a sheet has.
pub const MAX_COLUMNS: usize = 16;

/// How to draw a diagram.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The width of the picture in pixels (of one diagram, on a sheet), clamped to
    /// [`MIN_SIZE_PX`]..=[`MAX_SIZE_PX`]. The height follows from the drawing.
    pub size_px: u32,
    /// Black's side at the bottom.
    pub flipped: bool,
    /// The files a-h and ranks 1-8 around the board.
    pub coordinates: bool,
    /// The move that led to the position, drawn as an arrow along its path.
    pub last_move: Option<Move>,
    /// A line of text above the board (above the whole sheet on a sheet).
    pub title: Option<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            size_px: 400,
            flipped: false,
            coordinates: true,
            last_move: None,
            title: None,
        }
    }
}

impl Options {
    /// The width in pixels, within the limits.
    pub fn width_px(&self) -> u32 {
        self.size_px.clamp(MIN_SIZE_PX, MAX_SIZE_PX)
    }
}

/// One diagram of a sheet or one frame of an animation.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// The position shown.
    pub position: Position,
    /// The move that led to it, drawn as an arrow (when the options ask for arrows).
    pub last_move: Option<Move>,
    /// The text under the diagram on a sheet, above it in an animation; may be empty.
    pub caption: String,
}

impl Frame {
    /// The position of `game` after `ply` plies (at most the plies played), the move that
    /// led to it, and that move as a caption: numbered as a score sheet numbers it
    /// (`12. c3:e5`, `12... f6:d4`), or `Start`.
    pub fn of_game(game: &Game, ply: usize) -> Frame {
        let ply = ply.min(game.ply());
        let Some(before) = ply.checked_sub(1) else {
            return Frame {
                position: *game.start_position(),
                last_move: None,
                caption: "Start".to_string(),
            };
        };
        let mv = game.moves()[before];
        let dots = if game.positions()[before].side_to_move() == Color::White {
            "."
        } else {
            "..."
        };
        Frame {
            position: game.positions()[ply],
            last_move: Some(mv),
            caption: format!("{}{dots} {mv}", game.move_number(before)),
        }
    }
}

/// What can go wrong when making a picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiagramError {
    /// A sheet or an animation was asked for without any position.
    NoFrames,
    /// The picture would have more pixels than the limit.
    TooLarge {
        /// Its width in pixels.
        width: u64,
        /// Its height in pixels.
        height: u64,
    },
    /// The drawing could not be rasterised.
    Render(String),
    /// The picture could not be encoded.
    Encode(String),
}

impl fmt::Display for DiagramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiagramError::NoFrames => f.write_str("there is no position to draw"),
            DiagramError::TooLarge { width, height } => write!(
                f,
                "the picture would be {width}×{height} pixels, more than the limit of {} million",
                MAX_PIXELS / 1_000_000
            ),
            DiagramError::Render(e) => write!(f, "cannot draw the picture: {e}"),
            DiagramError::Encode(e) => write!(f, "cannot encode the picture: {e}"),
        }
    }
}

impl std::error::Error for DiagramError {}

/// The most pixels one picture (a sheet, one frame of an animation) may have.
pub const MAX_PIXELS: u64 = 64_000_000;

/// The diagram of a position as an SVG document.
pub fn svg(position: &Position, options: &Options) -> String {
    let last = options.last_move.as_ref().map(draw::Marked::of);
    draw::diagram(position, last.as_ref(), options.title.as_deref(), options)
}

/// The diagram of a position as an SVG document, with an arrow along `path` (the squares a
/// move passed, start first, as the caller knows them) instead of the options'
/// `last_move`: a path of fewer than two squares draws no arrow. The path is drawn as given,
/// not checked against the rules.
pub fn svg_with_arrow(position: &Position, path: &[Square], options: &Options) -> String {
    let last = draw::Marked::path(path);
    draw::diagram(position, last.as_ref(), options.title.as_deref(), options)
}

/// Several diagrams on one sheet, `columns` to a row, each with its caption underneath and
/// its move as an arrow when `arrows` is set. The options' size is the width of one
/// diagram; their title goes above the sheet; their `last_move` is not used.
pub fn sheet_svg(frames: &[Frame], columns: usize, arrows: bool, options: &Options) -> String {
    draw::sheet(frames, columns, arrows, options)
}

/// `text` with the characters that mean something in XML written as entities, fit for SVG
/// text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0.
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' && c != '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_writes_entities() {
        assert_eq!(
            escape("<a href=\"x\">&'</a>\u{1}"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt; "
        );
    }

    #[test]
    fn width_is_clamped() {
        let mut options = Options {
            size_px: 1,
            ..Options::default()
        };
        assert_eq!(options.width_px(), MIN_SIZE_PX);
        options.size_px = 1_000_000;
        assert_eq!(options.width_px(), MAX_SIZE_PX);
    }
}
