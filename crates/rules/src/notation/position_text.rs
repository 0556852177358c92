//! The rulebooks' position notation.
//!
//! One-line form, as the project writes it (squares in alphabetical order, towers written
//! top down with `1` for a king and `0` for a man, prisoners after `/`):
//!
//! ```text
//! White: a1 0, c1 1/0000; Black: b8 110101/1; White to move
//! ```
//!
//! The reader also takes the rulebook's printed form, with dashes between square and tower
//! and a count of towers after each side, where a bare square is a single man:
//!
//! ```text
//! White: c1 – 1/0000, d6 – 000000, f4 – 0000 (3); Black: a1 – 110101/1, b2 – 00 (2)
//! ```
//!
//! When the side to move is not given, White moves. A square may also be written as its
//! number, 1 to 32 (see [`Square::from_number`]): `White: 22 0, 30 1/0000; Black: 1 0`.

use std::fmt;

use crate::position::{Position, PositionError, Setup, Variant};
use crate::square::Square;
use crate::tower::{Checker, Color, Tower};

/// Why a position text could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionTextError {
    /// The text is not in the notation; `at` is the character offset of the problem.
    Syntax {
        /// Character offset (0-based) where the problem was found.
        at: usize,
        /// What was expected or found.
        message: String,
    },
    /// The text is well formed but the placement breaks a rule.
    Illegal(PositionError),
}

impl fmt::Display for PositionTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionTextError::Syntax { at, message } => {
                write!(f, "position text, column {}: {message}", at + 1)
            }
            PositionTextError::Illegal(error) => write!(f, "illegal position: {error}"),
        }
    }
}

impl std::error::Error for PositionTextError {}

impl From<PositionError> for PositionTextError {
    fn from(error: PositionError) -> Self {
        PositionTextError::Illegal(error)
    }
}

/// Writes one tower's checkers in the rulebook's digits: owner's run, `/`, prisoners.
pub fn write_tower(tower: Tower, out: &mut String) {
    let Some(top) = tower.top() else { return };
    let mut in_prisoners = false;
    for checker in tower.checkers() {
        if checker.color != top.color && !in_prisoners {
            out.push('/');
            in_prisoners = true;
        }
        out.push(if checker.king { '1' } else { '0' });
    }
}

/// Writes `position` in the one-line notation.
pub fn write_position(position: &Position) -> String {
    write_setup(&position.to_setup())
}

/// Writes any placement in the one-line notation.
pub fn write_setup(setup: &Setup) -> String {
    let mut out = String::with_capacity(128);
    for color in [Color::White, Color::Black] {
        out.push_str(color.name());
        out.push(':');
        let mut first = true;
        for square in Square::ALL_BY_NAME {
            let tower = setup.tower(square);
            if tower.top().map(|c| c.color) != Some(color) {
                continue;
            }
            if !first {
                out.push(',');
            }
            out.push(' ');
            first = false;
            out.push_str(&square.to_string());
            out.push(' ');
            write_tower(tower, &mut out);
        }
        if first {
            out.push(' ');
        }
        out.push_str("; ");
    }
    out.push_str(setup.side_to_move.name());
    out.push_str(" to move");
    out
}

/// Reads a position in either the one-line or the printed form, and checks it.
pub fn parse_position(variant: Variant, text: &str) -> Result<Position, PositionTextError> {
    let setup = parse_setup(text)?;
    Ok(Position::from_setup(variant, &setup)?)
}

/// A character cursor that knows its offset, for error messages.
struct Cursor<'a> {
    chars: Vec<(usize, char)>,
    index: usize,
    _text: &'a str,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Cursor {
            chars: text.chars().enumerate().collect(),
            index: 0,
            _text: text,
        }
    }

    fn at(&self) -> usize {
        self.chars.get(self.index).map_or(self.chars.len(), |c| c.0)
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.index).map(|c| c.1)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek();
        self.index += 1;
        c
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.index += 1;
        }
    }

    fn error<T>(&self, message: impl Into<String>) -> Result<T, PositionTextError> {
        Err(PositionTextError::Syntax {
            at: self.at(),
            message: message.into(),
        })
    }

    fn word(&mut self) -> String {
        let mut word = String::new();
        while let Some(c) = self.peek() {
            if c.is_alphanumeric() {
                word.push(c);
                self.index += 1;
            } else {
                break;
            }
        }
        word
    }
}

fn is_dash(c: char) -> bool {
    matches!(c, '-' | '–' | '—')
}

/// Reads a placement without checking it against the rules.
pub fn parse_setup(text: &str) -> Result<Setup, PositionTextError> {
    let mut cursor = Cursor::new(text);
    let mut setup = Setup::default();
    let mut seen = [false; 2];
    let mut side_given = false;
    loop {
        cursor.skip_spaces();
        if cursor.peek().is_none() {
            break;
        }
        let start = cursor.index;
        let word = cursor.word();
        let color = match word.to_ascii_lowercase().as_str() {
            "white" => Color::White,
            "black" => Color::Black,
            "" => return cursor.error("expected `White:`, `Black:` or `White to move`"),
            _ => return cursor.error(format!("unexpected `{word}`")),
        };
        cursor.skip_spaces();
        if cursor.peek() != Some(':') {
            // "White to move" / "Black to move".
            let to = cursor.word();
            cursor.skip_spaces();
            let mv = cursor.word();
            if !to.eq_ignore_ascii_case("to") || !mv.eq_ignore_ascii_case("move") {
                cursor.index = start;
                return cursor.error(format!("expected `{color}:` or `{color} to move`"));
            }
            if side_given {
                cursor.index = start;
                return cursor.error("the side to move is given twice");
            }
            side_given = true;
            setup.side_to_move = color;
            cursor.skip_spaces();
            match cursor.peek() {
                None => break,
                Some(';' | '.') => {
                    cursor.bump();
                    continue;
                }
                Some(c) => return cursor.error(format!("unexpected `{c}` after the side to move")),
            }
        }
        cursor.bump();
        if seen[color.index()] {
            cursor.index = start;
            return cursor.error(format!("{color}'s towers are listed twice"));
        }
        seen[color.index()] = true;
        parse_side(&mut cursor, color, &mut setup)?;
    }
    if !seen[0] || !seen[1] {
        return cursor.error("both `White:` and `Black:` must be listed");
    }
    Ok(setup)
}

/// Reads one side's list of towers, up to and including the `;` that ends it.
fn parse_side(
    cursor: &mut Cursor,
    color: Color,
    setup: &mut Setup,
) -> Result<(), PositionTextError> {
    let mut listed = 0u32;
    loop {
        cursor.skip_spaces();
        match cursor.peek() {
            None => return Ok(()),
            Some(';') => {
                cursor.bump();
                return Ok(());
            }
            Some('(') => {
                let at = cursor.at();
                cursor.bump();
                let digits = cursor.word();
                let count: u32 = digits.parse().map_err(|_| PositionTextError::Syntax {
                    at,
                    message: format!("expected a count of towers in parentheses, found `{digits}`"),
                })?;
                if cursor.bump() != Some(')') {
                    return cursor.error("expected `)` after the count");
                }
                if count != listed {
                    return Err(PositionTextError::Syntax {
                        at,
                        message: format!("the count says {count} towers but {listed} are listed"),
                    });
                }
                continue;
            }
            _ => {}
        }
        let at = cursor.at();
        let name = cursor.word();
        let square = Square::read(&name).map_err(|error| PositionTextError::Syntax {
            at,
            message: error.to_string(),
        })?;
        if !setup.tower(square).is_empty() {
            return Err(PositionTextError::Syntax {
                at,
                message: format!("{square} is listed twice"),
            });
        }
        cursor.skip_spaces();
        if cursor.peek().is_some_and(is_dash) {
            cursor.bump();
            cursor.skip_spaces();
        }
        let tower = parse_tower(cursor, color)?;
        setup.put(square, tower);
        listed += 1;
        cursor.skip_spaces();
        match cursor.peek() {
            Some(',') => {
                cursor.bump();
            }
            Some(';') | Some('(') | None => {}
            Some(c) => {
                return cursor.error(format!("unexpected `{c}` after the tower on {square}"));
            }
        }
    }
}

fn checker_digit(c: char) -> Option<bool> {
    match c {
        '0' | 'O' | 'o' | 'О' | 'о' => Some(false),
        '1' => Some(true),
        _ => None,
    }
}

/// Reads a tower's digits for a tower commanded by `color`; none at all means one man.
fn parse_tower(cursor: &mut Cursor, color: Color) -> Result<Tower, PositionTextError> {
    let start = cursor.at();
    let mut checkers = Vec::new();
    let mut owner = color;
    let mut slash_seen = false;
    loop {
        match cursor.peek() {
            Some(c) if checker_digit(c).is_some() => {
                let king = checker_digit(c) == Some(true);
                checkers.push(Checker { color: owner, king });
                cursor.bump();
            }
            Some('/') => {
                if slash_seen {
                    return cursor.error("a tower has only one `/`");
                }
                if checkers.is_empty() {
                    return cursor.error("a tower needs its owner's checkers before `/`");
                }
                slash_seen = true;
                owner = color.opponent();
                cursor.bump();
                if cursor.peek().is_none_or(|c| checker_digit(c).is_none()) {
                    return cursor.error("expected prisoners (0 or 1) after `/`");
                }
            }
            Some(c) if c.is_alphanumeric() => {
                return cursor.error(format!(
                    "`{c}` is not a checker: write 0 for a man, 1 for a king"
                ));
            }
            _ => break,
        }
    }
    if checkers.is_empty() {
        return Ok(Tower::single(Checker::man(color)));
    }
    Tower::from_checkers(checkers).ok_or(PositionTextError::Syntax {
        at: start,
        message: "a tower holds at most 24 checkers".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let start = Position::start(Variant::Bashni);
        let text = write_position(&start);
        assert_eq!(
            text,
            "White: a1 0, a3 0, b2 0, c1 0, c3 0, d2 0, e1 0, e3 0, f2 0, g1 0, g3 0, h2 0; \
             Black: a7 0, b6 0, b8 0, c7 0, d6 0, d8 0, e7 0, f6 0, f8 0, g7 0, h6 0, h8 0; White to move"
        );
        assert_eq!(parse_position(Variant::Bashni, &text), Ok(start));
    }

    #[test]
    fn printed_form_of_diagram_four() {
        let printed =
            "White: c1 – 1/0000, d6 – 000000, f4 – 0000 (3); Black: a1 – 110101/1, b2 – 00 (2)";
        let position = parse_position(Variant::Bashni, printed).expect("diagram 4 reads");
        let written = write_position(&position);
        assert_eq!(
            written,
            "White: c1 1/0000, d6 000000, f4 0000; Black: a1 110101/1, b2 00; White to move"
        );
        assert_eq!(position.checker_count(Color::White), 12);
        assert_eq!(position.checker_count(Color::Black), 12);
        assert_eq!(parse_position(Variant::Bashni, &written), Ok(position));
    }

    #[test]
    fn bad_texts_say_what_and_where() {
        let cases = [
            (
                "White: a2 0; Black: b8 0; White to move",
                "not a dark square",
            ),
            ("White: a1 0; Black: a1 0; White to move", "listed twice"),
            ("White: a1 0x; Black: b8 0", "not a checker"),
            ("White: a1 0, c1 0 (3); Black: b8 0", "count says 3"),
            ("White: a1 0", "both"),
            ("Green: a1 0", "unexpected `Green`"),
            ("White: a1 0/; Black: b8 0", "prisoners"),
        ];
        for (text, expected) in cases {
            let error = parse_position(Variant::Bashni, text)
                .expect_err(text)
                .to_string();
            assert!(error.contains(expected), "{text}: {error}");
            assert!(error.contains("column"), "{text}: {error}");
        }
    }

    #[test]
    fn squares_may_be_numbers() {
        let letters =
            "White: c1 – 1/0000, d6 – 000000, f4 – 0000 (3); Black: a1 – 110101/1, b2 – 00 (2)";
        let numbers =
            "White: 30 – 1/0000, 10 – 000000, 19 – 0000 (3); Black: 29 – 110101/1, 25 – 00 (2)";
        let position = parse_position(Variant::Bashni, letters).expect("letters");
        assert_eq!(parse_position(Variant::Bashni, numbers), Ok(position));
        let men = parse_position(
            Variant::Russian,
            "White: 22, 21 1; Black: 1 0; Black to move",
        );
        assert_eq!(
            men.map(|p| write_position(&p)),
            Ok("White: a3 1, c3 0; Black: b8 0; Black to move".to_string())
        );
        let error = parse_position(Variant::Bashni, "White: 22 0, 33 0; Black: 1 0")
            .expect_err("33")
            .to_string();
        assert!(
            error.contains("column 14: `33` is not a square number (1-32)"),
            "{error}"
        );
    }

    #[test]
    fn rule_breaking_placements_are_refused() {
        let cases = [
            ("White: b8 0; Black: a1 1; White to move", "crowning rank"),
            ("White: c3 0/1/0; Black: a7 0", "only one `/`"),
            ("White: c3 00; Black: a7 0; White to move", "Russian"),
        ];
        for (text, expected) in cases {
            let error = parse_position(Variant::Russian, text)
                .expect_err(text)
                .to_string();
            assert!(error.contains(expected), "{text}: {error}");
        }
        let thirteen = "White: a1 0000000000000; Black: h8 0; White to move";
        let error = parse_position(Variant::Bashni, thirteen).expect_err("13 checkers");
        assert_eq!(
            error,
            PositionTextError::Illegal(PositionError::TooManyCheckers {
                color: Color::White,
                count: 13
            })
        );
    }
}
