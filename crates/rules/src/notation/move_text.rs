//! Reading and writing moves.
//!
//! The project writes every move in full: `c3-b4` for a quiet move, `b2:d4:f6:d8:a5:d2:h6`
//! for a capture, with every landing square. The reader takes every form the rulebooks use:
//!
//! - the full form, also with `x` or a dash of any kind as separator;
//! - a capture with only some of its landing squares, such as start and end only (`a3:a7`)
//!   or the squares where the direction changes (`d2:g5:d8:a5`);
//! - the abbreviated score: the start file and the end square, `cb4` for a quiet move and
//!   `a:a7` for a capture;
//! - a king mark `D` after the square where a man is crowned (`d8D`);
//! - squares written as numbers, 1 to 32 (see [`Square::from_number`]), in the full or
//!   shortened form: `22-18`, `22x15`, `22:15:24`. A move is written all in numbers or all
//!   in letters.
//!
//! A text that fits more than one legal move is an error that lists them all; a text that
//! fits none says why and lists the legal moves.

use std::fmt;

use crate::moves::Move;
use crate::position::Position;
use crate::square::{Square, SquareError, SquareNames};
use crate::tower::Color;

/// Why a move text could not be turned into a legal move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveTextError {
    /// The text is not a move in any accepted form.
    Syntax {
        /// The text as given.
        text: String,
        /// Character offset (0-based) of the problem.
        at: usize,
        /// What was expected.
        expected: &'static str,
    },
    /// The text is well formed but no legal move fits it.
    Illegal {
        /// The text as given.
        text: String,
        /// Why not.
        reason: IllegalReason,
        /// Every legal move, in full form, with squares written as the text wrote them.
        legal: Vec<String>,
        /// How the text wrote its squares; the reason and the moves are written so too.
        names: SquareNames,
    },
    /// A number in the text is not a square number (1 to 32).
    Square {
        /// The text as given.
        text: String,
        /// Character offset (0-based) of the number.
        at: usize,
        /// What is wrong with it.
        error: SquareError,
    },
    /// More than one legal move fits the text.
    Ambiguous {
        /// The text as given.
        text: String,
        /// The moves it could mean, in full form.
        candidates: Vec<String>,
    },
}

/// Why a well-formed move text is not legal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum IllegalReason {
    /// The side to move has no tower on the start square.
    NoTowerOfSide(Square),
    /// A capture is possible, so a quiet move is not allowed.
    CaptureCompulsory,
    /// The text is a capture but the side to move has none.
    NoCapture,
    /// The king mark `D` is on a square where no man is crowned.
    NoCrowning(Square),
    /// The game has no legal move at all.
    NoMoves,
    /// Nothing else explains it: no legal move goes that way.
    NoSuchMove,
}

impl IllegalReason {
    /// The reason in words, its square written as `names` says (`c3` or `22`).
    pub fn written(self, names: SquareNames) -> String {
        match self {
            IllegalReason::NoTowerOfSide(square) => format!(
                "the side to move commands no tower on {}",
                square.written(names)
            ),
            IllegalReason::CaptureCompulsory => "a capture is compulsory".to_string(),
            IllegalReason::NoCapture => "there is nothing to capture".to_string(),
            IllegalReason::NoCrowning(square) => {
                format!("no man is crowned on {}", square.written(names))
            }
            IllegalReason::NoMoves => "the side to move has no legal move".to_string(),
            IllegalReason::NoSuchMove => "no legal move goes that way".to_string(),
        }
    }
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.written(SquareNames::Letters))
    }
}

impl fmt::Display for MoveTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveTextError::Syntax { text, at, expected } => {
                write!(
                    f,
                    "`{text}` is not a move: at column {}, expected {expected}",
                    at + 1
                )
            }
            MoveTextError::Square { text, at, error } => {
                write!(f, "`{text}` is not a move: at column {}, {error}", at + 1)
            }
            MoveTextError::Illegal {
                text,
                reason,
                legal,
                names,
            } => write!(
                f,
                "`{text}` is illegal: {}; legal moves: {}",
                reason.written(*names),
                if legal.is_empty() {
                    "none".to_string()
                } else {
                    legal.join(", ")
                }
            ),
            MoveTextError::Ambiguous { text, candidates } => {
                write!(
                    f,
                    "`{text}` is ambiguous: it could be {}",
                    candidates.join(" or ")
                )
            }
        }
    }
}

impl std::error::Error for MoveTextError {}

/// A move text split into its parts, before looking at a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveText {
    /// Squares with separators: `c3-b4`, `a3:a7`, `b2:d4:f6:d8D:a5`.
    Squares {
        /// Written squares, each with its king mark.
        squares: Vec<(Square, bool)>,
        /// Whether the separators say capture (`:` or `x`).
        capture: bool,
    },
    /// The abbreviated score: start file (0 = a) and end square, `cb4` or `a:a7`.
    Abbreviated {
        /// The start file.
        file: u8,
        /// The end square, with its king mark.
        to: (Square, bool),
        /// Whether written as a capture.
        capture: bool,
    },
}

fn is_capture_separator(c: char) -> bool {
    matches!(c, ':' | 'x' | 'X' | '×')
}

fn is_quiet_separator(c: char) -> bool {
    matches!(c, '-' | '–' | '—')
}

impl MoveText {
    /// Splits `text` into its parts.
    pub fn parse(text: &str) -> Result<MoveText, MoveTextError> {
        MoveText::parse_with(text, false)
    }

    /// Splits `text` into its parts; `dashed_path` also takes more than two squares joined
    /// by dashes (`d6-b4-d2`), read as a quiet text for [`parse_move_lenient`] to retry as
    /// a capture.
    fn parse_with(text: &str, dashed_path: bool) -> Result<MoveText, MoveTextError> {
        let chars: Vec<char> = text.trim().chars().collect();
        let lead = text.chars().take_while(|c| c.is_whitespace()).count();
        let syntax = |at: usize, expected: &'static str| MoveTextError::Syntax {
            text: text.to_string(),
            at: lead + at,
            expected,
        };
        // The first character says whether the squares are numbers or names.
        let numbers = chars.first().is_some_and(char::is_ascii_digit);
        let square_at = |at: usize| -> Result<(Square, bool, usize), MoveTextError> {
            let end = if numbers {
                let rest = chars.get(at..).unwrap_or_default();
                let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
                if digits == 0 {
                    return Err(syntax(at, "a square number 1-32, as the move starts"));
                }
                at + digits
            } else {
                let (Some(&file), Some(&rank)) = (chars.get(at), chars.get(at + 1)) else {
                    return Err(syntax(at, "a square such as c3"));
                };
                if !file.is_ascii_alphabetic() || !rank.is_ascii_digit() {
                    return Err(syntax(at, "a dark square a1..h8"));
                }
                at + 2
            };
            let written: String = chars[at..end].iter().collect();
            let square = Square::read(&written).map_err(|error| match error {
                SquareError::NotANumber(_) => MoveTextError::Square {
                    text: text.to_string(),
                    at: lead + at,
                    error,
                },
                SquareError::NotDark(_) => syntax(at, "a dark square a1..h8"),
            })?;
            let king = matches!(chars.get(end), Some('D' | 'Д' | 'K'));
            Ok((square, king, end + king as usize))
        };
        if chars.is_empty() {
            return Err(syntax(0, "a move"));
        }
        let first = chars[0].to_ascii_lowercase();
        let second = chars.get(1).copied();
        if ('a'..='h').contains(&first) && second.is_some_and(|c| !c.is_ascii_digit()) {
            // Abbreviated: `cb4` or `a:a7`.
            let file = first as u8 - b'a';
            let (capture, at) = match second {
                Some(c) if is_capture_separator(c) => (true, 2),
                Some(c) if c.is_ascii_alphabetic() => (false, 1),
                _ => return Err(syntax(1, "a file letter and a square, such as cb4 or a:a7")),
            };
            let (square, king, end) = square_at(at)?;
            if end != chars.len() {
                return Err(syntax(end, "the end of the move"));
            }
            return Ok(MoveText::Abbreviated {
                file,
                to: (square, king),
                capture,
            });
        }
        let mut squares = Vec::new();
        let mut capture = None;
        let mut at = 0;
        loop {
            let (square, king, end) = square_at(at)?;
            squares.push((square, king));
            at = end;
            let Some(&c) = chars.get(at) else { break };
            let this = if is_capture_separator(c) {
                true
            } else if is_quiet_separator(c) {
                false
            } else {
                return Err(syntax(at, "`-`, `:` or the end of the move"));
            };
            if capture.is_some_and(|previous| previous != this) {
                return Err(syntax(at, "the same separator throughout"));
            }
            capture = Some(this);
            at += 1;
        }
        if squares.len() < 2 {
            return Err(syntax(at, "`-` or `:` and a second square"));
        }
        let capture = capture.unwrap_or(false);
        if !capture && squares.len() > 2 && !dashed_path {
            return Err(syntax(
                0,
                "a quiet move of two squares, or `:` for a capture",
            ));
        }
        Ok(MoveText::Squares { squares, capture })
    }

    /// The same text read as a capture.
    fn as_capture(&self) -> MoveText {
        let mut text = self.clone();
        match &mut text {
            MoveText::Squares { capture, .. } | MoveText::Abbreviated { capture, .. } => {
                *capture = true;
            }
        }
        text
    }

    fn is_capture(&self) -> bool {
        match self {
            MoveText::Squares { capture, .. } | MoveText::Abbreviated { capture, .. } => *capture,
        }
    }

    /// Whether the text names the start and every landing square of `mv`.
    fn is_exactly(&self, mv: &Move) -> bool {
        match self {
            MoveText::Squares { squares, capture } => {
                *capture == mv.is_capture()
                    && squares.len() == mv.landings().len() + 1
                    && squares[0].0 == mv.from()
                    && squares[1..]
                        .iter()
                        .zip(mv.landings())
                        .all(|(s, l)| s.0 == *l)
            }
            MoveText::Abbreviated { .. } => false,
        }
    }

    /// Whether the move `mv` (one path of it) of the side `mover` fits this text.
    fn fits(&self, mv: &Move, mover: Color) -> bool {
        if mv.is_capture() != self.is_capture() {
            return false;
        }
        match self {
            MoveText::Abbreviated { file, to, .. } => {
                mv.from().file() == *file
                    && mv.to() == to.0
                    && (!to.1 || crowned_on(mv, mover) == Some(to.0))
            }
            MoveText::Squares { squares, .. } => {
                let (first, rest) = squares.split_first().expect("at least two squares");
                if first.0 != mv.from() || first.1 {
                    return false;
                }
                let (last, middle) = rest.split_last().expect("at least two squares");
                if last.0 != mv.to() {
                    return false;
                }
                // The written middle squares must be landing squares, in order.
                let landings = mv.landings();
                let mut next = 0;
                for written in middle {
                    match landings[next..landings.len() - 1]
                        .iter()
                        .position(|&l| l == written.0)
                    {
                        Some(found) => next += found + 1,
                        None => return false,
                    }
                }
                squares
                    .iter()
                    .filter(|s| s.1)
                    .all(|s| crowned_on(mv, mover) == Some(s.0))
            }
        }
    }
}

/// The landing square where the moving man of `mover` is crowned, if it is.
fn crowned_on(mv: &Move, mover: Color) -> Option<Square> {
    if !mv.promotes() {
        return None;
    }
    let rank = Position::crowning_rank(mover);
    mv.landings().iter().copied().find(|&s| rank.has(s))
}

/// Reads `text` as one of the legal moves of `position`.
pub fn parse_move(position: &Position, text: &str) -> Result<Move, MoveTextError> {
    resolve(position, text, &MoveText::parse(text)?)
}

/// A move read by [`parse_move_lenient`], and whether it took the lenient reading.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LenientMove {
    /// The legal move.
    pub mv: Move,
    /// The text was written as a quiet move (`d6-b4`, `bd6`, `22-15`) but only a capture
    /// fits it.
    pub capture_written_quiet: bool,
}

/// Reads `text` as [`parse_move`] does and, when no legal move fits it, once more as a
/// capture if it was written as a quiet move: some records write captures with a dash
/// (`d6-b4`, `d6-b4-d2`, `22-15`) or abbreviate them without `:` (`bd6`). The second reading
/// is taken only when exactly one capture fits; otherwise the error is the strict one.
pub fn parse_move_lenient(position: &Position, text: &str) -> Result<LenientMove, MoveTextError> {
    let strict = MoveText::parse(text).and_then(|parsed| resolve(position, text, &parsed));
    let error = match strict {
        Ok(mv) => {
            return Ok(LenientMove {
                mv,
                capture_written_quiet: false,
            });
        }
        Err(error) => error,
    };
    let Ok(parsed) = MoveText::parse_with(text, true) else {
        return Err(error);
    };
    if parsed.is_capture() || !position.legal_moves().first().is_some_and(Move::is_capture) {
        return Err(error);
    }
    match resolve(position, text, &parsed.as_capture()) {
        Ok(mv) => Ok(LenientMove {
            mv,
            capture_written_quiet: true,
        }),
        Err(_) => Err(error),
    }
}

/// The one legal move of `position` that fits `parsed` (read from `text`).
fn resolve(position: &Position, text: &str, parsed: &MoveText) -> Result<Move, MoveTextError> {
    let legal = position.legal_moves();
    // An answer to a numbered text is numbered too.
    let names = if text.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
        SquareNames::Numbers
    } else {
        SquareNames::Letters
    };
    let illegal = |reason| {
        let mut sorted: Vec<Move> = legal.iter().copied().collect();
        sorted.sort_by(Move::cmp_by_text);
        MoveTextError::Illegal {
            text: text.to_string(),
            reason,
            legal: sorted.iter().map(|mv| write_full(mv, names)).collect(),
            names,
        }
    };
    let paths = if parsed.is_capture() {
        position.capture_paths()
    } else {
        legal.clone()
    };
    let mover = position.side_to_move();
    // A text naming every landing square is the full form of exactly that path, even when
    // it could also be read as a shortened longer capture.
    let exact: Vec<&Move> = paths.iter().filter(|m| parsed.is_exactly(m)).collect();
    let fitting: Vec<&Move> = if exact.is_empty() {
        paths.iter().filter(|m| parsed.fits(m, mover)).collect()
    } else {
        exact
            .into_iter()
            .filter(|m| parsed.fits(m, mover))
            .collect()
    };
    let mut found: Vec<Move> = Vec::new();
    for path in fitting {
        let Some(mv) = legal
            .iter()
            .find(|m| m.same_result(path, position.variant()))
        else {
            continue;
        };
        if !found.contains(mv) {
            found.push(*mv);
        }
    }
    match found.len() {
        1 => Ok(found[0]),
        0 => Err(illegal(explain(position, parsed, &legal))),
        _ => Err(MoveTextError::Ambiguous {
            text: text.to_string(),
            candidates: found.iter().map(|mv| write_full(mv, names)).collect(),
        }),
    }
}

/// Finds the most helpful reason why no legal move fits `parsed`.
fn explain(position: &Position, parsed: &MoveText, legal: &[Move]) -> IllegalReason {
    if legal.is_empty() {
        return IllegalReason::NoMoves;
    }
    let has_capture = legal[0].is_capture();
    if let MoveText::Squares { squares, .. } = parsed {
        let from = squares[0].0;
        if !position.owned_by(position.side_to_move()).has(from) {
            return IllegalReason::NoTowerOfSide(from);
        }
    }
    if has_capture && !parsed.is_capture() {
        return IllegalReason::CaptureCompulsory;
    }
    if !has_capture && parsed.is_capture() {
        return IllegalReason::NoCapture;
    }
    let marked = match parsed {
        MoveText::Squares { squares, .. } => squares.iter().find(|s| s.1).map(|s| s.0),
        MoveText::Abbreviated { to, .. } => to.1.then_some(to.0),
    };
    match marked {
        Some(square)
            if !legal
                .iter()
                .any(|m| crowned_on(m, position.side_to_move()) == Some(square)) =>
        {
            IllegalReason::NoCrowning(square)
        }
        _ => IllegalReason::NoSuchMove,
    }
}

/// Writes `mv` in the shortest form of the abbreviated score that no other legal move of
/// `position` shares: `cb4`, `a:a7`, then start and end square, then the full form.
pub fn write_short(position: &Position, mv: &Move) -> String {
    write_short_with(position, mv, SquareNames::Letters)
}

/// [`write_short`] with squares written as `names` says. Numbers have no abbreviated
/// score, so with numbers a quiet move is written in full (`22-18`) and a capture by its
/// start and end (`22x6`) when no other legal move shares them, in full otherwise.
pub fn write_short_with(position: &Position, mv: &Move, names: SquareNames) -> String {
    let (from, to) = (mv.from().written(names), mv.to().written(names));
    let separator = capture_separator(names);
    let mut forms = Vec::with_capacity(3);
    if names == SquareNames::Letters {
        let from_file = mv.from().file_char();
        if mv.is_capture() {
            forms.push(format!("{from_file}:{to}"));
        } else {
            forms.push(format!("{from_file}{to}"));
        }
    }
    if mv.is_capture() {
        forms.push(format!("{from}{separator}{to}"));
    }
    for form in forms {
        if parse_move(position, &form).is_ok_and(|found| found.same_result(mv, position.variant()))
        {
            return form;
        }
    }
    match names {
        SquareNames::Letters => write_full_marked(position, mv),
        SquareNames::Numbers => write_full(mv, names),
    }
}

/// The separator of a capture's squares: `:` as the rulebooks write it, `x` between
/// numbers as PDN does.
fn capture_separator(names: SquareNames) -> char {
    match names {
        SquareNames::Letters => ':',
        SquareNames::Numbers => 'x',
    }
}

/// The full form with squares written as `names` says: `c3-b4` and `b2:d4:f6` with
/// letters (as [`Move`]'s `Display` writes it), `22-18` and `25x18x11` with numbers.
pub fn write_full(mv: &Move, names: SquareNames) -> String {
    write_path(mv, names, None)
}

/// The full form with the king mark `D` after the square where a man is crowned, as the
/// rulebooks' scores write it (`b2:d4:f6:d8D:a5:d2:h6`).
pub fn write_full_marked(position: &Position, mv: &Move) -> String {
    let crowned = crowned_on(mv, position.side_to_move());
    write_path(mv, SquareNames::Letters, crowned)
}

/// Writes the start and every landing square of `mv`, with the king mark after `crowned`.
fn write_path(mv: &Move, names: SquareNames, crowned: Option<Square>) -> String {
    let mut out = mv.from().written(names).to_string();
    let separator = if mv.is_capture() {
        capture_separator(names)
    } else {
        '-'
    };
    for &square in mv.landings() {
        out.push(separator);
        out.push_str(&square.written(names).to_string());
        if Some(square) == crowned {
            out.push('D');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;
    use crate::position::Variant;

    fn position(variant: Variant, text: &str) -> Position {
        parse_position(variant, text).expect("test position")
    }

    #[test]
    fn every_written_form_of_a_quiet_move() {
        let start = Position::start(Variant::Russian);
        for text in ["c3-d4", "c3–d4", "cd4", "C3-D4", " c3-d4 "] {
            assert_eq!(
                parse_move(&start, text).map(|m| m.to_string()),
                Ok("c3-d4".into()),
                "{text}"
            );
        }
    }

    #[test]
    fn captures_written_as_quiet_moves_are_read_only_leniently() {
        // White c3 can take d4 (landing on e5); e3-f4 is no move while a capture is due.
        let p = position(
            Variant::Russian,
            "White: c3 0, e3 0; Black: d4 0, h8 0; White to move",
        );
        for text in ["c3-e5", "ce5", "22-15", "c3\u{2013}e5"] {
            assert!(parse_move(&p, text).is_err(), "{text} is not strict");
            let read = parse_move_lenient(&p, text).expect(text);
            assert_eq!(read.mv.to_string(), "c3:e5", "{text}");
            assert!(read.capture_written_quiet, "{text}");
        }
        let strict = parse_move_lenient(&p, "c3:e5").expect("strict");
        assert!(!strict.capture_written_quiet);
        // A quiet text that fits no capture keeps the strict error.
        let error = parse_move_lenient(&p, "e3-f4").expect_err("capture due");
        assert_eq!(error, parse_move(&p, "e3-f4").expect_err("strict"));
        // Without a capture to make, a wrong quiet move is not read as one.
        let start = Position::start(Variant::Russian);
        assert!(parse_move_lenient(&start, "c3-e5").is_err());
        // A dashed path of three squares is a capture or nothing.
        let two = position(
            Variant::Russian,
            "White: c3 0; Black: d4 0, f6 0, h8 0; White to move",
        );
        let read = parse_move_lenient(&two, "c3-e5-g7").expect("dashed path");
        assert_eq!(read.mv.to_string(), "c3:e5:g7");
        assert!(parse_move(&two, "c3-e5-g7").is_err());
    }

    #[test]
    fn a_numbered_move_is_explained_in_numbers() {
        let start = Position::start(Variant::Russian);
        let error = parse_move(&start, "17-13").expect_err("no man on b4");
        assert_eq!(
            error.to_string(),
            "`17-13` is illegal: the side to move commands no tower on 17; legal moves: \
             21-17, 22-17, 22-18, 23-18, 23-19, 24-19, 24-20"
        );
        let letters = parse_move(&start, "b4-a5").expect_err("no man on b4");
        assert!(
            letters
                .to_string()
                .contains("no tower on b4; legal moves: a3-b4")
        );
    }

    #[test]
    fn abbreviated_quiet_move_is_unique() {
        let start = Position::start(Variant::Russian);
        assert_eq!(
            parse_move(&start, "cb4").map(|m| m.to_string()),
            Ok("c3-b4".into())
        );
        assert_eq!(
            parse_move(&start, "ab4").map(|m| m.to_string()),
            Ok("a3-b4".into())
        );
        assert_eq!(
            write_short(&start, &parse_move(&start, "g3-h4").expect("legal")),
            "gh4"
        );
    }

    #[test]
    fn shortened_captures_and_alternative_paths() {
        // A king on f8 takes e7 and b4: both d6 and c5 are landing squares before b4.
        let p = position(
            Variant::Russian,
            "White: b8 1, f8 1, h4 1; Black: b4 1, e7 0, f2 0, f4 1, g3 0; White to move",
        );
        for text in ["f8:a3", "f8:c5:a3", "f8:d6:a3", "f8xa3"] {
            assert_eq!(
                parse_move(&p, text).map(|m| m.to_string()),
                Ok("f8:c5:a3".into()),
                "{text}"
            );
        }
        assert_eq!(
            parse_move(&p, "f:g1").map(|m| m.to_string()),
            Ok("f8:c5:g1".into())
        );
        let error = parse_move(&p, "f8:e5").expect_err("not a landing");
        assert!(matches!(
            error,
            MoveTextError::Illegal {
                reason: IllegalReason::NoSuchMove,
                ..
            }
        ));
    }

    #[test]
    fn ambiguity_lists_the_candidates() {
        let p = position(
            Variant::Russian,
            "White: c3 0, e3 0; Black: d4 0; White to move",
        );
        let error = parse_move(&p, "d:d4").expect_err("no such capture");
        assert!(matches!(error, MoveTextError::Illegal { .. }));
        let p = position(
            Variant::Russian,
            "White: c3 0, e3 0; Black: d4 0, b8 0; White to move",
        );
        match parse_move(&p, "c3-d4") {
            Err(MoveTextError::Illegal {
                reason: IllegalReason::CaptureCompulsory,
                legal,
                ..
            }) => assert_eq!(legal, vec!["c3:e5".to_string(), "e3:c5".to_string()]),
            other => panic!("{other:?}"),
        }
        let p = position(
            Variant::Russian,
            "White: c3 0, c7 0; Black: d4 0, d6 0, h8 0; White to move",
        );
        match parse_move(&p, "c:e5") {
            Err(MoveTextError::Ambiguous { candidates, .. }) => {
                assert_eq!(candidates, vec!["c3:e5".to_string(), "c7:e5".to_string()]);
            }
            other => panic!("{other:?}"),
        }
        let c7 = parse_move(&p, "c7:e5").expect("legal");
        assert_eq!(write_short(&p, &c7), "c7:e5");
    }

    #[test]
    fn two_towers_of_one_file_make_short_forms_ambiguous() {
        let p = position(
            Variant::Russian,
            "White: c1 0, c3 0; Black: h8 0; White to move",
        );
        assert_eq!(
            parse_move(&p, "cd2").map(|m| m.to_string()),
            Ok("c1-d2".into())
        );
        let p = position(
            Variant::Russian,
            "White: c3 1, c5 1; Black: h8 0; White to move",
        );
        match parse_move(&p, "cd4") {
            Err(MoveTextError::Ambiguous { candidates, .. }) => {
                assert_eq!(candidates, vec!["c3-d4".to_string(), "c5-d4".to_string()]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            write_short(&p, &parse_move(&p, "c5-d4").expect("legal")),
            "c5-d4"
        );
    }

    #[test]
    fn king_mark_must_fit() {
        let p = position(Variant::Russian, "White: a7 0; Black: h2 0; White to move");
        assert_eq!(
            parse_move(&p, "a7-b8D").map(|m| m.to_string()),
            Ok("a7-b8".into())
        );
        assert_eq!(
            parse_move(&p, "ab8D").map(|m| m.to_string()),
            Ok("a7-b8".into())
        );
        let p = position(Variant::Russian, "White: a5 0; Black: h2 0; White to move");
        assert!(matches!(
            parse_move(&p, "a5-b6D"),
            Err(MoveTextError::Illegal {
                reason: IllegalReason::NoCrowning(_),
                ..
            })
        ));
    }

    #[test]
    fn numbered_squares_read_in_every_form() {
        let start = Position::start(Variant::Russian);
        for text in ["22-18", "22–18", " 22-18 "] {
            assert_eq!(
                parse_move(&start, text).map(|m| m.to_string()),
                Ok("c3-d4".into()),
                "{text}"
            );
        }
        // The king on f8 (3) takes through d6 (10) or c5 (14) to a3 (21).
        let p = position(
            Variant::Russian,
            "White: b8 1, f8 1, h4 1; Black: b4 1, e7 0, f2 0, f4 1, g3 0; White to move",
        );
        for text in [
            "3x14x21", "3:14:21", "3x21", "3:21", "3x10x21", "3X21", "03x21",
        ] {
            assert_eq!(
                parse_move(&p, text).map(|m| m.to_string()),
                Ok("f8:c5:a3".into()),
                "{text}"
            );
        }
        let crowning = position(Variant::Russian, "White: a7 0; Black: h2 0; White to move");
        assert_eq!(
            parse_move(&crowning, "5-1D").map(|m| m.to_string()),
            Ok("a7-b8".into())
        );
    }

    #[test]
    fn numbered_moves_are_written_and_read_back() {
        let positions = [
            Position::start(Variant::Russian),
            Position::start(Variant::Bashni),
            position(
                Variant::Russian,
                "White: b8 1, f8 1, h4 1; Black: b4 1, e7 0, f2 0, f4 1, g3 0; White to move",
            ),
            position(
                Variant::Russian,
                "White: c3 0, c7 0; Black: d4 0, d6 0, h8 0; White to move",
            ),
            position(
                Variant::Bashni,
                "White: c1 1/0000, d6 000000, f4 0000; Black: a1 110101/1, b2 00; Black to move",
            ),
        ];
        for p in positions {
            for mv in p.legal_moves().iter() {
                let full = write_full(mv, SquareNames::Numbers);
                assert!(
                    !full.contains(|c: char| c.is_ascii_alphabetic() && c != 'x'),
                    "{full}"
                );
                assert_eq!(parse_move(&p, &full).as_ref(), Ok(mv), "{full}");
                assert_eq!(write_full(mv, SquareNames::Letters), mv.to_string());
                let short = write_short_with(&p, mv, SquareNames::Numbers);
                let read = parse_move(&p, &short);
                assert!(
                    read.as_ref().is_ok_and(|m| m.same_result(mv, p.variant())),
                    "{short} of {mv} reads as {read:?}"
                );
            }
        }
        let p = position(
            Variant::Russian,
            "White: b8 1, f8 1, h4 1; Black: b4 1, e7 0, f2 0, f4 1, g3 0; White to move",
        );
        let mv = parse_move(&p, "f8:c5:a3").expect("legal");
        assert_eq!(write_full(&mv, SquareNames::Numbers), "3x14x21");
        assert_eq!(write_short_with(&p, &mv, SquareNames::Numbers), "3x21");
        let start = Position::start(Variant::Russian);
        let mv = parse_move(&start, "c3-d4").expect("legal");
        assert_eq!(write_short_with(&start, &mv, SquareNames::Numbers), "22-18");
        assert_eq!(write_short_with(&start, &mv, SquareNames::Letters), "cd4");
    }

    #[test]
    fn bad_numbers_are_named() {
        let start = Position::start(Variant::Russian);
        for (text, column, number) in [("22-33", 4, "33"), ("0-5", 1, "0"), ("22x15x99", 7, "99")] {
            let error = parse_move(&start, text).expect_err(text);
            assert!(
                matches!(error, MoveTextError::Square { at, .. } if at + 1 == column),
                "{text}: {error:?}"
            );
            assert_eq!(
                error.to_string(),
                format!(
                    "`{text}` is not a move: at column {column}, `{number}` is not a square number (1-32)"
                )
            );
        }
        // A move is written all in numbers or all in letters.
        for (text, column) in [("22-c3", 4), ("c3-18", 4), ("22-", 4), ("a:22", 3)] {
            match parse_move(&start, text) {
                Err(MoveTextError::Syntax { at, .. }) => assert_eq!(at + 1, column, "{text}"),
                other => panic!("{text}: {other:?}"),
            }
        }
        match parse_move(&start, "c3-b9") {
            Err(error @ MoveTextError::Syntax { .. }) => {
                assert!(
                    error.to_string().contains("a dark square a1..h8"),
                    "{error}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn syntax_errors_point_at_the_problem() {
        let start = Position::start(Variant::Bashni);
        let cases = [
            ("", 1),
            ("c3", 3),
            ("c3-b9", 4),
            ("c3-b4-a5", 1),
            ("c3:d4-e5", 6),
            ("c3?b4", 3),
            ("z3-b4", 1),
        ];
        for (text, column) in cases {
            match parse_move(&start, text) {
                Err(MoveTextError::Syntax { at, .. }) => assert_eq!(at + 1, column, "{text}"),
                other => panic!("{text}: {other:?}"),
            }
        }
        match parse_move(&start, "c5-d4") {
            Err(MoveTextError::Illegal { reason, legal, .. }) => {
                assert_eq!(
                    reason,
                    IllegalReason::NoTowerOfSide(Square::parse("c5").expect("sq"))
                );
                assert_eq!(legal.len(), 7);
            }
            other => panic!("{other:?}"),
        }
    }
}
