//! A game record as read from (or written to) PDN, before any rules are applied.

use std::fmt;
use std::str::FromStr;

use bashni_rules::{Color, GameResult, Variant};

use crate::game_type::{GameTypeError, variant_of};
use crate::warning::Warning;

/// The game termination marker at the end of the movetext, as written.
///
/// The result itself is the rules' [`GameResult`]; the marker adds how it was written. PDN
/// knows two scoring styles: the chess style (`1-0`, `0-1`, `1/2-1/2`) and the draughts
/// points style (`2-0`, `0-2`, `1-1`, and `0-0` when both sides lose, e.g. a double forfeit).
/// The reader keeps the style that was written, so that it is written back the same way.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ResultToken {
    /// `1-0`, `0-1` or `1/2-1/2`.
    Score(GameResult),
    /// `2-0`, `0-2` or `1-1`.
    Points(GameResult),
    /// `*`: unfinished or unknown.
    Unfinished,
    /// `0-0`: both sides lose.
    BothLose,
}

impl ResultToken {
    /// Every marker: the chess style, `*`, the points style, `0-0`.
    pub const ALL: [ResultToken; 8] = [
        ResultToken::Score(GameResult::WhiteWins),
        ResultToken::Score(GameResult::BlackWins),
        ResultToken::Score(GameResult::Draw),
        ResultToken::Unfinished,
        ResultToken::Points(GameResult::WhiteWins),
        ResultToken::Points(GameResult::BlackWins),
        ResultToken::Points(GameResult::Draw),
        ResultToken::BothLose,
    ];

    /// The marker of a game's result in the chess style, `*` for a game not finished.
    pub const fn of(result: Option<GameResult>) -> ResultToken {
        match result {
            Some(result) => ResultToken::Score(result),
            None => ResultToken::Unfinished,
        }
    }

    /// The token as it is written in the movetext and in the `Result` tag.
    pub const fn token(self) -> &'static str {
        match self {
            ResultToken::Score(result) => result.score(),
            ResultToken::Points(GameResult::WhiteWins) => "2-0",
            ResultToken::Points(GameResult::BlackWins) => "0-2",
            ResultToken::Points(GameResult::Draw) => "1-1",
            ResultToken::Unfinished => "*",
            ResultToken::BothLose => "0-0",
        }
    }

    /// Reads a result token (exactly one of the eight forms).
    pub fn from_token(text: &str) -> Option<ResultToken> {
        ResultToken::ALL.into_iter().find(|r| r.token() == text)
    }

    /// The result of the game, in either style; `None` for `*` and `0-0`, which no game
    /// played by the rules ends with.
    pub const fn result(self) -> Option<GameResult> {
        match self {
            ResultToken::Score(result) | ResultToken::Points(result) => Some(result),
            ResultToken::Unfinished | ResultToken::BothLose => None,
        }
    }

    /// The winner, if one side won.
    pub const fn winner(self) -> Option<Color> {
        match self.result() {
            Some(result) => result.winner(),
            None => None,
        }
    }

    /// Whether the game was drawn.
    pub const fn is_draw(self) -> bool {
        matches!(self.result(), Some(GameResult::Draw))
    }
}

impl fmt::Display for ResultToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// The text is not one of the eight result tokens.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnknownResult(pub String);

impl fmt::Display for UnknownResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown game result `{}`: expected 1-0, 0-1, 1/2-1/2, *, 2-0, 0-2, 1-1 or 0-0",
            self.0
        )
    }
}

impl std::error::Error for UnknownResult {}

impl FromStr for ResultToken {
    type Err = UnknownResult;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ResultToken::from_token(s.trim()).ok_or_else(|| UnknownResult(s.to_string()))
    }
}

/// Something written between or after moves that is not a move.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Annotation {
    /// A `{...}` or `;...` comment. Its text is whitespace-normalised: trimmed, every run of
    /// white space (line breaks included) turned into one space.
    Comment(String),
    /// A numeric annotation glyph: `$12` is `Nag(12)`; the glyphs `!` `?` `!!` `??` `!?` `?!`
    /// are `Nag(1)`..`Nag(6)` as in PGN.
    Nag(u8),
    /// A `( ... )` variation: other moves instead of the move it follows, parsed as a line
    /// of its own (which may hold variations in turn).
    Variation(Variation),
    /// A position set up in the middle of the movetext (PDN 3.0 `/.../`), as written between
    /// the slashes (a `FEN "..."` around it removed). Replaying stops there: the moves after
    /// it do not follow from the moves before.
    Setup(String),
}

/// A variation: moves that could have been played instead of the move it is attached to,
/// starting from the position before that move.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Variation {
    /// The line of its opening `(` (0 when not read from a file).
    pub line: usize,
    /// The column of its opening `(`.
    pub column: usize,
    /// Comments (and NAGs) written before its first move.
    pub intro: Vec<Annotation>,
    /// Its moves, in order; each may carry comments and variations of its own.
    pub moves: Vec<RawMove>,
    /// A result written at its end, if any.
    pub result: Option<ResultToken>,
}

impl Variation {
    /// A variation of the given move texts, for writing.
    pub fn of_moves<I, S>(moves: I) -> Variation
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Variation {
            moves: moves.into_iter().map(RawMove::new).collect(),
            ..Variation::default()
        }
    }
}

/// One move token of the movetext, with where it was written.
///
/// The token is not checked against the rules: turn it into a move with
/// `bashni_rules::notation::parse_move` while replaying, and report a failure at
/// [`RawMove::line`] / [`RawMove::column`].
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct RawMove {
    /// The move as written, e.g. `c3-b4`, `b2:d4:f6:d8D`, `cb4`, `a:a7`, `22-18`, `9x18`.
    pub text: String,
    /// The line where the token starts (1-based; 0 for a move not read from a file).
    pub line: usize,
    /// The column where the token starts (1-based, in characters; 0 if not read).
    pub column: usize,
    /// The move number it belongs to, when a move number before it made it known.
    pub number: Option<u32>,
    /// The side that makes it, when a move number before it made it known.
    pub color: Option<Color>,
    /// Comments, NAGs and variations written after it, in order.
    pub after: Vec<Annotation>,
}

/// The text of a move that is not known: records write each such move as `-` (so
/// `1. - -` is a move number whose two moves are not known), some as `--`; the reader gives
/// either as this text and the writer writes it so.
pub const UNKNOWN_MOVE: &str = "-";

impl RawMove {
    /// A move with the given text, no position, no number and no annotations.
    pub fn new(text: impl Into<String>) -> RawMove {
        RawMove {
            text: text.into(),
            line: 0,
            column: 0,
            number: None,
            color: None,
            after: Vec::new(),
        }
    }

    /// The same move with a comment added after it.
    pub fn with_comment(mut self, comment: impl Into<String>) -> RawMove {
        self.after.push(Annotation::Comment(comment.into()));
        self
    }

    /// Whether the move is not known (written `-` or `--`).
    pub fn is_unknown(&self) -> bool {
        self.text == UNKNOWN_MOVE
    }

    /// The variations written after the move, in order.
    pub fn variations(&self) -> impl Iterator<Item = &Variation> {
        self.after.iter().filter_map(|a| match a {
            Annotation::Variation(variation) => Some(variation),
            _ => None,
        })
    }

    /// The comments written after the move, in order.
    pub fn comments(&self) -> impl Iterator<Item = &str> {
        self.after.iter().filter_map(|a| match a {
            Annotation::Comment(text) => Some(text.as_str()),
            _ => None,
        })
    }
}

/// One game of a PDN file, tokenised but not replayed.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct RawGame {
    /// The game's number in the file (1-based; 0 for a game not read from a file).
    pub number: usize,
    /// The line of the game's first token (0 for a game not read from a file).
    pub line: usize,
    /// The tag pairs in the order they were written: `(name, value)`, value unescaped.
    pub tags: Vec<(String, String)>,
    /// Comments (and any NAGs or variations) written before the first move.
    pub intro: Vec<Annotation>,
    /// The moves, in order.
    pub moves: Vec<RawMove>,
    /// The termination marker; `None` when the game ended (at the end of the input, or at the
    /// next game's tags) without one.
    pub result: Option<ResultToken>,
    /// What the reader read leniently in this game, in order.
    pub warnings: Vec<Warning>,
}

impl RawGame {
    /// A game from tags, move texts and a result, with no comments, ready for
    /// [`crate::write_game`]. The first move is White's move 1.
    pub fn from_moves<I, S>(
        tags: Vec<(String, String)>,
        moves: I,
        result: Option<ResultToken>,
    ) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        RawGame {
            tags,
            moves: moves.into_iter().map(RawMove::new).collect(),
            result,
            ..RawGame::default()
        }
    }

    /// The value of the first tag with this name (names are case-sensitive, as in PDN).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag: replaces the value of the first tag with this name, or appends the tag.
    pub fn set_tag(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let name = name.into();
        let value = value.into();
        match self.tags.iter_mut().find(|(n, _)| *n == name) {
            Some(tag) => tag.1 = value,
            None => self.tags.push((name, value)),
        }
    }

    /// The variant named by the `GameType` tag; see [`variant_of`].
    pub fn variant(&self, default: Option<Variant>) -> Result<Variant, GameTypeError> {
        variant_of(&self.tags, default)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_carry_the_rules_result() {
        for result in [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
        ] {
            let marker = ResultToken::of(Some(result));
            assert_eq!(marker.token(), result.score());
            assert_eq!(marker.result(), Some(result));
            assert_eq!(ResultToken::Points(result).result(), Some(result));
            assert_eq!(marker.winner(), result.winner());
        }
        assert_eq!(ResultToken::of(None), ResultToken::Unfinished);
        assert_eq!(ResultToken::Unfinished.result(), None);
        assert_eq!(ResultToken::BothLose.result(), None);
        let tokens: Vec<&str> = ResultToken::ALL.iter().map(|r| r.token()).collect();
        assert_eq!(
            tokens,
            ["1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1", "0-0"]
        );
    }
}
