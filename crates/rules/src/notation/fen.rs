//! The compact one-line position form for PDN's `FEN` tag.
//!
//! It extends the usual draughts FEN, `W:Wa1,c3,Kd2:Bb8,Kh6`, with towers:
//!
//! - the first field is the side to move, `W` or `B`;
//! - then one field per side, `W...` and `B...`, listing the squares that side commands,
//!   separated by commas, in alphabetical order;
//! - a single man is its square (`c3`), a single king is `K` and its square (`Kd2`);
//! - a taller tower is its square, `=`, and its checkers in the rulebook's digits, top
//!   down, `1` a king and `0` a man, prisoners after `/`: `c1=1/0000` is a white king over
//!   four black men when it stands in the `W` field.
//!
//! A square may also be written as its number, 1 to 32 (see [`Square::from_number`]), as
//! Russian-draughts archives do: `W:W21,22,K30:B1,5=1/00`. With numbers a side's list may
//! hold ranges of single pieces, `21-32` or `K1-4`, and a `.` may end the text:
//! `W:W21-32:B1-12.` is the start.
//!
//! A Russian-draughts position (no towers) is therefore plain draughts FEN with algebraic
//! squares, and a Bashni position written this way reads back exactly:
//!
//! ```
//! use bashni_rules::notation::{parse_fen, write_fen, parse_position};
//! use bashni_rules::Variant;
//!
//! let text = "White: c1 1/0000, d6 000000, f4 0000; Black: a1 110101/1, b2 00; Black to move";
//! let position = parse_position(Variant::Bashni, text).unwrap();
//! let fen = write_fen(&position);
//! assert_eq!(fen, "B:Wc1=1/0000,d6=000000,f4=0000:Ba1=110101/1,b2=00");
//! assert_eq!(parse_fen(Variant::Bashni, &fen).unwrap(), position);
//! ```

use std::fmt;

use crate::notation::position_text::write_tower;
use crate::position::{Position, PositionError, Setup, Variant};
use crate::square::{Square, SquareNames};
use crate::tower::{Checker, Color, Tower};

/// Why a FEN text could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FenError {
    /// The text is not in the form; `at` is the character offset of the bad part.
    Syntax {
        /// Character offset (0-based).
        at: usize,
        /// What is wrong.
        message: String,
    },
    /// The placement breaks a rule.
    Illegal(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Syntax { at, message } => write!(f, "FEN, column {}: {message}", at + 1),
            FenError::Illegal(error) => write!(f, "illegal FEN position: {error}"),
        }
    }
}

impl std::error::Error for FenError {}

/// Writes `position` in the compact form.
pub fn write_fen(position: &Position) -> String {
    write_fen_with(position, SquareNames::Letters)
}

/// Writes `position` in the compact form with squares written as `names` says: with
/// numbers the squares of each side are listed in the order of their numbers
/// (`W:W21,22,K30:B1,5=1/00`).
pub fn write_fen_with(position: &Position, names: SquareNames) -> String {
    let setup = position.to_setup();
    let mut out = String::with_capacity(96);
    out.push(side_letter(setup.side_to_move));
    let mut order = Square::ALL_BY_NAME;
    if names == SquareNames::Numbers {
        order.sort_by_key(|square| square.number());
    }
    for color in [Color::White, Color::Black] {
        out.push(':');
        out.push(side_letter(color));
        let mut first = true;
        for square in order {
            let tower = setup.tower(square);
            let Some(top) = tower.top() else { continue };
            if top.color != color {
                continue;
            }
            if !first {
                out.push(',');
            }
            first = false;
            if tower.height() == 1 {
                if top.king {
                    out.push('K');
                }
                out.push_str(&square.written(names).to_string());
            } else {
                out.push_str(&square.written(names).to_string());
                out.push('=');
                write_tower(tower, &mut out);
            }
        }
    }
    out
}

fn side_letter(color: Color) -> char {
    match color {
        Color::White => 'W',
        Color::Black => 'B',
    }
}

fn side_of(letter: char) -> Option<Color> {
    match letter {
        'W' | 'w' => Some(Color::White),
        'B' | 'b' => Some(Color::Black),
        _ => None,
    }
}

/// Reads a position in the compact form and checks it against the rules of `variant`.
pub fn parse_fen(variant: Variant, text: &str) -> Result<Position, FenError> {
    let setup = parse_fen_setup(text)?;
    Position::from_setup(variant, &setup).map_err(FenError::Illegal)
}

/// Reads a placement in the compact form without checking it against the rules.
pub fn parse_fen_setup(text: &str) -> Result<Setup, FenError> {
    let syntax = |at: usize, message: String| FenError::Syntax { at, message };
    let mut setup = Setup::default();
    let trimmed = text.trim_end().trim_end_matches('.');
    let mut offset = 0;
    let mut seen = [false; 2];
    for (index, field) in trimmed.split(':').enumerate() {
        let start = offset + field.len() - field.trim_start().len();
        offset += field.chars().count() + 1;
        let field = field.trim();
        let mut chars = field.chars();
        let Some(color) = chars.next().and_then(side_of) else {
            return Err(syntax(
                start,
                format!("expected `W` or `B`, found `{field}`"),
            ));
        };
        if index == 0 {
            if field.len() != 1 {
                return Err(syntax(
                    start,
                    "the first field is the side to move, `W` or `B`".into(),
                ));
            }
            setup.side_to_move = color;
            continue;
        }
        if std::mem::replace(&mut seen[color.index()], true) {
            return Err(syntax(start, format!("the {color} field appears twice")));
        }
        let list = chars.as_str();
        let mut at = start + 1;
        for token in list.split(',') {
            let token_at = at + token.len() - token.trim_start().len();
            at += token.chars().count() + 1;
            let token = token.trim();
            if token.is_empty() {
                if list.trim().is_empty() {
                    continue;
                }
                return Err(syntax(token_at, "an empty entry between commas".into()));
            }
            let names = if token
                .trim_start_matches('K')
                .starts_with(|c: char| c.is_ascii_digit())
            {
                SquareNames::Numbers
            } else {
                SquareNames::Letters
            };
            for (square, tower) in parse_token(token, color).map_err(|m| syntax(token_at, m))? {
                if !setup.tower(square).is_empty() {
                    let square = square.written(names);
                    return Err(syntax(token_at, format!("{square} is listed twice")));
                }
                setup.put(square, tower);
            }
        }
    }
    if !seen[0] || !seen[1] {
        return Err(syntax(0, "both a `W` and a `B` field are needed".into()));
    }
    Ok(setup)
}

/// Reads one entry of a side's list: a square with what stands on it, or a range of
/// square numbers (`21-32`, `K1-4`) with a single piece on each.
fn parse_token(token: &str, color: Color) -> Result<Vec<(Square, Tower)>, String> {
    let (head, digits) = match token.split_once('=') {
        Some((head, digits)) => (head, Some(digits)),
        None => (token, None),
    };
    let (king, name) = match head.strip_prefix('K') {
        Some(rest) => (true, rest),
        None => (false, head),
    };
    let piece = Tower::single(Checker { color, king });
    if let Some((low, high)) = name.split_once('-') {
        if digits.is_some() {
            return Err(format!(
                "`{token}`: a range holds single pieces; write a tower on its own square"
            ));
        }
        let number = |text: &str| match Square::read(text) {
            _ if text.is_empty() => Err(format!(
                "`{name}`: a range needs a square number on each side of `-`"
            )),
            Ok(square) if text.bytes().all(|b| b.is_ascii_digit()) => Ok(square.number()),
            Ok(_) => Err(format!(
                "`{name}`: a range is written with square numbers, such as 21-32"
            )),
            Err(error) => Err(error.to_string()),
        };
        let (low, high) = (number(low)?, number(high)?);
        if low > high {
            return Err(format!(
                "`{name}`: a range goes from the lower number to the higher"
            ));
        }
        return Ok((low..=high)
            .filter_map(Square::from_number)
            .map(|square| (square, piece))
            .collect());
    }
    let square = Square::read(name).map_err(|error| error.to_string())?;
    let Some(digits) = digits else {
        return Ok(vec![(square, piece)]);
    };
    if king {
        return Err(format!(
            "`{token}`: write a tower's king in its digits, not with `K`"
        ));
    }
    let (own, prisoners) = digits.split_once('/').unwrap_or((digits, ""));
    if own.is_empty() {
        return Err(format!(
            "`{token}`: a tower needs its owner's checkers after `=`"
        ));
    }
    if digits.contains('/') && prisoners.is_empty() {
        return Err(format!("`{token}`: expected prisoners after `/`"));
    }
    let mut checkers = Vec::with_capacity(digits.len());
    for (run, owner) in [(own, color), (prisoners, color.opponent())] {
        for c in run.chars() {
            let king = match c {
                '0' => false,
                '1' => true,
                _ => return Err(format!("`{token}`: `{c}` is not a checker (0 man, 1 king)")),
            };
            checkers.push(Checker { color: owner, king });
        }
    }
    let tower = Tower::from_checkers(checkers).ok_or_else(|| format!("`{token}`: too tall"))?;
    Ok(vec![(square, tower)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions() {
        let start = Position::start(Variant::Russian);
        let fen = write_fen(&start);
        assert_eq!(
            fen,
            "W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8"
        );
        assert_eq!(parse_fen(Variant::Russian, &fen), Ok(start));
    }

    #[test]
    fn kings_and_empty_sides() {
        let p = parse_fen(Variant::Russian, "B:WKa1,c3:B").expect("reads");
        assert_eq!(write_fen(&p), "B:WKa1,c3:B");
        assert!(p.legal_moves().is_empty());
        let p = parse_fen(Variant::Russian, " W : W a1 , Kh8 : B b6 .").expect("spaces");
        assert_eq!(write_fen(&p), "W:Wa1,Kh8:Bb6");
    }

    #[test]
    fn numbers_ranges_and_kings_read_as_the_letter_form() {
        let start = Position::start(Variant::Russian);
        for text in [
            "W:W21-32:B1-12.",
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            "W:W21-24,25-28,29-32:B12,1-11",
        ] {
            assert_eq!(parse_fen(Variant::Russian, text), Ok(start), "{text}");
        }
        let letters = parse_fen(Variant::Russian, "B:Wa1,c1,e1,g1,Kb8:Bb6,Ka7,Kc7").expect("reads");
        for text in [
            "B:W29,30,31,32,K1:B9,K5,K6.",
            "B:W29-32,K1:B9,K5-6",
            "B : W K1 , 29-32 : B K5, 9 ,K6 .",
        ] {
            assert_eq!(parse_fen(Variant::Russian, text), Ok(letters), "{text}");
        }
        assert_eq!(
            write_fen_with(&letters, SquareNames::Numbers),
            "B:WK1,29,30,31,32:BK5,K6,9"
        );
        let bashni = "B:Wc1=1/0000,d6=000000,f4=0000:Ba1=110101/1,b2=00";
        let position = parse_fen(Variant::Bashni, bashni).expect("towers");
        let numeric = write_fen_with(&position, SquareNames::Numbers);
        assert_eq!(numeric, "B:W10=000000,19=0000,30=1/0000:B25=00,29=110101/1");
        assert_eq!(parse_fen(Variant::Bashni, &numeric), Ok(position));
        assert_eq!(write_fen(&position), bashni);
    }

    #[test]
    fn bad_numbers_and_ranges_are_named() {
        let cases = [
            ("W:W33:B1", 4, "`33` is not a square number (1-32)"),
            ("W:W21,0:B1", 7, "`0` is not a square number (1-32)"),
            ("W:WK40:B1", 4, "`40` is not a square number (1-32)"),
            ("W:W21-33:B1", 4, "`33` is not a square number (1-32)"),
            ("W:W32-21:B1", 4, "from the lower number"),
            ("W:Wa1-c3:B1", 4, "with square numbers"),
            ("W:W21-24=00:B1", 4, "single pieces"),
            ("W:W21-:B1", 4, "a square number on each side"),
            ("W:WK-5:B1", 4, "a square number on each side"),
            ("W:W21-24:B24", 11, "24 is listed twice"),
            ("W:W22,c3:B1", 7, "c3 is listed twice"),
            ("W:Wa2:B1", 4, "`a2` is not a dark square"),
        ];
        assert_syntax_errors(&cases);
    }

    /// Each text is refused with a syntax error at the column given, saying the words given.
    fn assert_syntax_errors(cases: &[(&str, usize, &str)]) {
        for &(text, column, message) in cases {
            match parse_fen(Variant::Bashni, text) {
                Err(FenError::Syntax { at, message: m }) => {
                    assert_eq!(at + 1, column, "{text}: {m}");
                    assert!(m.contains(message), "{text}: {m}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn errors_name_the_column() {
        let cases = [
            ("X:Wa1:Bb8", 1, "`W` or `B`"),
            ("W:Wa1,a2:Bb8", 7, "not a dark square"),
            ("W:Wa1,,c3:Bb8", 7, "empty entry"),
            ("W:Wa1=02:Bb8", 4, "not a checker"),
            ("W:Wa1", 1, "both"),
            ("W:Wa1:Ba1", 8, "listed twice"),
            ("W:WKa1=1:Bb8", 4, "digits"),
        ];
        assert_syntax_errors(&cases);
        assert!(matches!(
            parse_fen(Variant::Russian, "W:Wa1=00:Bb8"),
            Err(FenError::Illegal(PositionError::TowerInRussian(_)))
        ));
    }
}
