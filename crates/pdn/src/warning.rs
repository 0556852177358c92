//! What the reader or the replay read leniently: never silently, always with its place.

use std::fmt;

/// Something in a record that is not PDN as the standard writes it, but whose meaning is
/// unique, so it was read anyway.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Warning {
    /// The line (1-based; 0 when the record was not read from a file).
    pub line: usize,
    /// The column (1-based, in characters; 0 when not known).
    pub column: usize,
    /// What was read leniently.
    pub kind: WarningKind,
}

/// What was read leniently.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum WarningKind {
    /// A line that is not UTF-8 was decoded in a single-byte encoding.
    Encoding {
        /// The encoding used, such as `windows-1251`.
        encoding: &'static str,
    },
    /// Lines of free text before a game (not tags, moves or comments) were skipped.
    TextSkipped {
        /// The last skipped line.
        last_line: usize,
    },
    /// A tag name written in another case was read as the name PDN gives it.
    TagName {
        /// The name as written.
        written: String,
        /// The name it was read as.
        read: &'static str,
    },
    /// A position set up in the movetext (PDN 3.0 `/.../`) before the first move was read as
    /// the game's `FEN` tag.
    SetupAsFen,
    /// Parentheses around words that are no moves (`(see game 5)`) were kept as a comment,
    /// not read as a variation.
    RemarkInParentheses,
    /// A capture was written as a quiet move (`d6-b4`, `bd6`, `22-15`); only one capture fits
    /// it, and that capture was read.
    CaptureWrittenQuiet {
        /// The move as written.
        written: String,
        /// The capture it was read as, in full.
        read: String,
    },
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WarningKind::Encoding { encoding } => {
                write!(f, "the line is not UTF-8; read as {encoding}")
            }
            WarningKind::TextSkipped { last_line } => {
                write!(f, "text that is not PDN skipped, up to line {last_line}")
            }
            WarningKind::TagName { written, read } => {
                write!(f, "tag name `{written}` read as `{read}`")
            }
            WarningKind::RemarkInParentheses => {
                f.write_str("parentheses around words that are no moves; kept as a comment")
            }
            WarningKind::SetupAsFen => {
                f.write_str("a position set up before the first move; read as the FEN tag")
            }
            WarningKind::CaptureWrittenQuiet { written, read } => {
                write!(
                    f,
                    "the capture `{written}` is written as a quiet move; read as {read}"
                )
            }
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.kind
        )
    }
}
