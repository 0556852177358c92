//! Errors of the PDN reader.

use std::fmt;

/// Where something was found: game number in the file (1-based), line (1-based) and column
/// (1-based, counted in characters, a tab counting as one).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Location {
    /// The game's number in the file, counting every game the reader started, good or bad.
    pub game: usize,
    /// The line in the file.
    pub line: usize,
    /// The column in the line, in characters.
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, line {}, column {}",
            self.game, self.line, self.column
        )
    }
}

/// Why a game could not be read.
///
/// Every variant carries the [`Location`] of the problem; [`PdnError::location`] gives it
/// whatever the variant. After any error but [`PdnError::Io`] the reader can go on with the
/// next game (see [`crate::Reader`] for how it finds it).
#[derive(Debug)]
#[non_exhaustive]
pub enum PdnError {
    /// A `{` comment has no closing `}`; `at` is the opening brace.
    UnterminatedComment {
        /// The opening `{`.
        at: Location,
    },
    /// A `(` variation has no closing `)`; `at` is the opening parenthesis.
    UnterminatedVariation {
        /// The opening `(`.
        at: Location,
    },
    /// A tag value's string has no closing `"` on its line; `at` is the opening quote.
    UnterminatedString {
        /// The opening `"`.
        at: Location,
    },
    /// A tag pair has no closing `]` on its line; `at` is the opening bracket.
    UnterminatedTag {
        /// The opening `[`.
        at: Location,
    },
    /// A tag pair is malformed.
    BadTag {
        /// The offending character (or the end of the line).
        at: Location,
        /// What the reader expected there.
        expected: &'static str,
        /// What it found; `None` for the end of the line.
        found: Option<char>,
    },
    /// A character that cannot start or continue any token of the movetext.
    UnexpectedCharacter {
        /// The character.
        at: Location,
        /// The character found.
        found: char,
        /// What the reader expected there.
        expected: &'static str,
    },
    /// A move number that is not a positive number that fits in 32 bits, such as `0.`.
    BadMoveNumber {
        /// The first digit.
        at: Location,
        /// The move number as written.
        text: String,
    },
    /// A `$` NAG that is not `$0`..`$255`, or a run of `!`/`?` that is not one of
    /// `!`, `?`, `!!`, `??`, `!?`, `?!`.
    BadAnnotation {
        /// The first character of the annotation.
        at: Location,
        /// The annotation as written.
        text: String,
    },
    /// A line is not valid UTF-8; `at` is the first character that could not be decoded.
    InvalidUtf8 {
        /// The first undecodable byte (its column counts the characters before it).
        at: Location,
    },
    /// A PDN 3.0 setup `/.../` has no closing `/` on its line; `at` is the opening slash.
    UnterminatedSetup {
        /// The opening `/`.
        at: Location,
    },
    /// Text that is not PDN, and no game after it; `at` is its first character.
    TextWithoutGame {
        /// The first character of the text.
        at: Location,
    },
    /// A line is longer than [`crate::MAX_LINE_BYTES`]; the rest of it was skipped.
    LineTooLong {
        /// The column where the line was cut.
        at: Location,
    },
    /// Reading the input failed. The reader stops after this error.
    Io {
        /// The line being read when it failed (column 1).
        at: Location,
        /// The I/O error.
        error: std::io::Error,
    },
}

impl PdnError {
    /// Where the problem is.
    pub fn location(&self) -> Location {
        match self {
            PdnError::UnterminatedComment { at }
            | PdnError::UnterminatedVariation { at }
            | PdnError::UnterminatedString { at }
            | PdnError::UnterminatedTag { at }
            | PdnError::BadTag { at, .. }
            | PdnError::UnexpectedCharacter { at, .. }
            | PdnError::BadMoveNumber { at, .. }
            | PdnError::BadAnnotation { at, .. }
            | PdnError::InvalidUtf8 { at }
            | PdnError::UnterminatedSetup { at }
            | PdnError::TextWithoutGame { at }
            | PdnError::LineTooLong { at }
            | PdnError::Io { at, .. } => *at,
        }
    }

    /// The game's number in the file (1-based).
    pub fn game(&self) -> usize {
        self.location().game
    }

    /// The line of the problem (1-based).
    pub fn line(&self) -> usize {
        self.location().line
    }

    /// The column of the problem (1-based, in characters).
    pub fn column(&self) -> usize {
        self.location().column
    }
}

fn describe(found: Option<char>) -> String {
    match found {
        Some(c) => format!("`{}`", c.escape_debug()),
        None => "the end of the line".to_string(),
    }
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.location())?;
        match self {
            PdnError::UnterminatedComment { .. } => {
                f.write_str("unterminated comment: expected `}` to close this `{`")
            }
            PdnError::UnterminatedVariation { .. } => {
                f.write_str("unterminated variation: expected `)` to close this `(`")
            }
            PdnError::UnterminatedString { .. } => f.write_str(
                "unterminated string: expected `\"` to close this tag value on the same line",
            ),
            PdnError::UnterminatedTag { .. } => {
                f.write_str("unterminated tag: expected `]` to close this `[` on the same line")
            }
            PdnError::BadTag {
                expected, found, ..
            } => write!(
                f,
                "bad tag: expected {expected}, found {}",
                describe(*found)
            ),
            PdnError::UnexpectedCharacter {
                found, expected, ..
            } => write!(
                f,
                "unexpected character {}: expected {expected}",
                describe(Some(*found))
            ),
            PdnError::BadMoveNumber { text, .. } => write!(
                f,
                "bad move number `{text}`: expected a number from 1 followed by `.` or `...`"
            ),
            PdnError::BadAnnotation { text, .. } => write!(
                f,
                "bad annotation `{text}`: expected `$0`..`$255` or one of ! ? !! ?? !? ?!"
            ),
            PdnError::InvalidUtf8 { .. } => f.write_str("invalid UTF-8: expected UTF-8 text"),
            PdnError::UnterminatedSetup { .. } => {
                f.write_str("unterminated setup: expected `/` to close this `/` on the same line")
            }
            PdnError::TextWithoutGame { .. } => {
                f.write_str("text that is not PDN, and no game after it")
            }
            PdnError::LineTooLong { .. } => write!(
                f,
                "line too long: expected at most {} bytes in a line",
                crate::MAX_LINE_BYTES
            ),
            PdnError::Io { error, .. } => write!(f, "read error: {error}"),
        }
    }
}

impl std::error::Error for PdnError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PdnError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}
