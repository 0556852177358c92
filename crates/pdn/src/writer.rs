//! Writing games as PDN.

use std::fmt;

use bashni_rules::Color;

use crate::game::{Annotation, RawGame, RawMove, Variation};

/// The writer keeps movetext lines within this many characters, unless one token (a move,
/// or a word of a comment) is longer by itself.
pub const LINE_WIDTH: usize = 80;

/// The tags the writer puts first, in this order; all others follow in their own order.
pub const HEADER_ORDER: [&str; 10] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "GameType",
    "FEN",
    "TimeControl",
];

/// The tags in the order the writer writes them: those of [`HEADER_ORDER`] first, in that
/// order, then the others in their given order (duplicates are kept, in their order).
pub fn ordered_tags(tags: &[(String, String)]) -> Vec<&(String, String)> {
    let rank = |name: &str| {
        HEADER_ORDER
            .iter()
            .position(|n| *n == name)
            .unwrap_or(HEADER_ORDER.len())
    };
    let mut ordered: Vec<&(String, String)> = tags.iter().collect();
    ordered.sort_by_key(|(name, _)| rank(name));
    ordered
}

/// A comment as the writer writes it, and so as the reader gives it back: without `}`
/// (which PDN comments cannot hold), trimmed, each run of white space made one space.
pub fn clean_comment(text: &str) -> String {
    let stripped: String = text.chars().filter(|&c| c != '}').collect();
    let mut out = String::with_capacity(stripped.len());
    for word in stripped.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Annotations as writing and reading them back leaves them, to compare a game with its
/// read-back copy: comments cleaned by [`clean_comment`], variations without what only
/// reading adds (their places, and the numbers and places of their moves).
pub fn clean_annotations(annotations: &[Annotation]) -> Vec<Annotation> {
    annotations
        .iter()
        .map(|annotation| match annotation {
            Annotation::Comment(text) => Annotation::Comment(clean_comment(text)),
            Annotation::Variation(variation) => Annotation::Variation(Variation {
                line: 0,
                column: 0,
                intro: clean_annotations(&variation.intro),
                moves: variation
                    .moves
                    .iter()
                    .map(|mv| RawMove {
                        after: clean_annotations(&mv.after),
                        ..RawMove::new(mv.text.clone())
                    })
                    .collect(),
                result: variation.result,
            }),
            other => other.clone(),
        })
        .collect()
}

/// Writes a tag name, with characters PDN does not allow in names made `_`.
fn write_tag_name<W: fmt::Write + ?Sized>(out: &mut W, name: &str) -> fmt::Result {
    if name.is_empty() {
        return out.write_char('_');
    }
    for c in name.chars() {
        out.write_char(if c.is_ascii_alphanumeric() || c == '_' {
            c
        } else {
            '_'
        })?;
    }
    Ok(())
}

/// Writes a tag value between quotes, `"` and `\` escaped, control characters other than tab
/// (line breaks among them) made spaces.
fn write_tag_value<W: fmt::Write + ?Sized>(out: &mut W, value: &str) -> fmt::Result {
    out.write_char('"')?;
    for c in value.chars() {
        match c {
            '"' => out.write_str("\\\"")?,
            '\\' => out.write_str("\\\\")?,
            c if c.is_control() && c != '\t' => out.write_char(' ')?,
            c => out.write_char(c)?,
        }
    }
    out.write_char('"')
}

/// Lays out movetext tokens in lines of at most [`LINE_WIDTH`] characters.
struct Wrapper<'a, W: ?Sized> {
    out: &'a mut W,
    column: usize,
}

impl<W: fmt::Write + ?Sized> Wrapper<'_, W> {
    fn token(&mut self, token: &str) -> fmt::Result {
        let len = token.chars().count();
        if self.column > 0 {
            if self.column + 1 + len <= LINE_WIDTH {
                self.out.write_char(' ')?;
                self.column += 1;
            } else {
                self.out.write_char('\n')?;
                self.column = 0;
            }
        }
        self.out.write_str(token)?;
        self.column += len;
        Ok(())
    }
}

/// Adds words as one bracketed group: `open` glued to the first, `close` to the last.
fn group(tokens: &mut Vec<String>, open: char, words: Vec<String>, close: char) {
    let mut words = words.into_iter();
    let Some(first) = words.next() else {
        tokens.push(format!("{open}{close}"));
        return;
    };
    tokens.push(format!("{open}{first}"));
    tokens.extend(words);
    if let Some(last) = tokens.last_mut() {
        last.push(close);
    }
}

fn annotation_tokens(tokens: &mut Vec<String>, annotation: &Annotation, at: (u32, Color)) {
    match annotation {
        Annotation::Comment(text) => {
            let words = clean_comment(text)
                .split(' ')
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect();
            group(tokens, '{', words, '}');
        }
        Annotation::Nag(nag) => tokens.push(format!("${nag}")),
        Annotation::Variation(variation) => {
            let mut words = Vec::new();
            line_tokens(&mut words, &variation.intro, &variation.moves, at);
            if let Some(result) = variation.result {
                words.push(result.token().to_string());
            }
            group(tokens, '(', words, ')');
        }
        // With `FEN` and quotes, as PDN 3.0 writes it: the reader takes both off again.
        Annotation::Setup(position) => tokens.push(format!("/FEN \"{position}\"/")),
    }
}

/// The tokens of a line of moves: the intro, then each move with its number where one is
/// due and what follows it. `start` is the number and side of the first move when it does
/// not carry its own.
fn line_tokens(
    tokens: &mut Vec<String>,
    intro: &[Annotation],
    moves: &[RawMove],
    start: (u32, Color),
) {
    for annotation in intro {
        annotation_tokens(tokens, annotation, start);
    }
    let (mut number, mut color) = moves.first().map_or(start, |mv| {
        (mv.number.unwrap_or(start.0), mv.color.unwrap_or(start.1))
    });
    let mut numbered = false;
    for mv in moves {
        let mut token = match color {
            Color::White => format!("{number}. "),
            Color::Black if !numbered => format!("{number}... "),
            Color::Black => String::new(),
        };
        token.push_str(&mv.text);
        let mut after = &mv.after[..];
        if let Some(Annotation::Nag(nag)) = after.first()
            && let Some(glyph) = glyph(*nag)
        {
            token.push_str(glyph);
            after = &after[1..];
        }
        tokens.push(token);
        for annotation in after {
            annotation_tokens(tokens, annotation, (number, color));
        }
        numbered = color == Color::White && after.is_empty();
        (number, color) = match color {
            Color::White => (number, Color::Black),
            Color::Black => (number.saturating_add(1), Color::White),
        };
    }
}

fn glyph(nag: u8) -> Option<&'static str> {
    Some(match nag {
        1 => "!",
        2 => "?",
        3 => "!!",
        4 => "??",
        5 => "!?",
        6 => "?!",
        _ => return None,
    })
}

/// Writes a game as PDN: the tag pairs one per line in [`ordered_tags`] order, a blank line,
/// the movetext wrapped at [`LINE_WIDTH`] columns, and a blank line after it (so games can
/// simply be written one after another).
///
/// * Tag values are quoted with `"` and `\` escaped; control characters other than tab (line
///   breaks among them) in a value become spaces, and characters other than letters, digits
///   and `_` in a tag name become `_`. The tags are written as given: the writer adds none (put a `Result` and a
///   `GameType`, see [`crate::game_type_tag`], in `game.tags` yourself).
/// * Moves are numbered by the writer: the first move is move [`RawMove::number`] of side
///   [`RawMove::color`] when they are set (`1... b6-c5` when Black moves first), White's
///   move 1 otherwise, and the count goes on from there (the numbers and sides stored in the
///   later moves are not looked at). After a comment, NAG or variation, Black's move is
///   numbered again (`3... f6-g5`).
/// * Move texts are written as they are and must be tokens the reader takes (see
///   [`crate::Reader`]); NAGs 1-6 right after a move are written as glyphs (`c3-b4!`), others
///   as `$n`; comments in braces, cleaned by [`clean_comment`]; variations in parentheses,
///   their first move numbered (by its own number, or as the move they replace), nested
///   as they are; a setup in the movetext as `/FEN "W:W21:B5"/`.
/// * The movetext ends with the result token, `*` when `game.result` is `None`.
///
/// Reading the output back gives the same tags (in [`ordered_tags`] order), moves,
/// comments (cleaned), NAGs, variations and result.
///
/// [`RawMove::number`]: crate::RawMove::number
/// [`RawMove::color`]: crate::RawMove::color
///
/// ```
/// use bashni_pdn::{RawGame, ResultToken, write_game};
/// use bashni_rules::GameResult;
///
/// let mut game = RawGame::from_moves(
///     vec![("White".into(), "Ivanov".into()), ("Event".into(), "Match \"A\"".into())],
///     ["c3-b4", "b6-c5"],
///     Some(ResultToken::Score(GameResult::WhiteWins)),
/// );
/// game.moves[0].after.push(bashni_pdn::Annotation::Comment("good".into()));
/// let mut text = String::new();
/// write_game(&mut text, &game).unwrap();
/// assert_eq!(
///     text,
///     "[Event \"Match \\\"A\\\"\"]\n[White \"Ivanov\"]\n\n1. c3-b4 {good} 1... b6-c5 1-0\n\n"
/// );
/// ```
pub fn write_game<W: fmt::Write + ?Sized>(out: &mut W, game: &RawGame) -> fmt::Result {
    for (name, value) in ordered_tags(&game.tags) {
        out.write_char('[')?;
        write_tag_name(out, name)?;
        out.write_char(' ')?;
        write_tag_value(out, value)?;
        out.write_str("]\n")?;
    }
    if !game.tags.is_empty() {
        out.write_char('\n')?;
    }
    let mut wrap = Wrapper {
        out: &mut *out,
        column: 0,
    };
    let mut tokens = Vec::new();
    line_tokens(&mut tokens, &game.intro, &game.moves, (1, Color::White));
    tokens.push(game.result.map_or("*", |r| r.token()).to_string());
    for token in &tokens {
        wrap.token(token)?;
    }
    out.write_str("\n\n")
}

/// Writes a game as PDN to a byte stream (UTF-8); see [`write_game`].
pub fn write_game_io<W: std::io::Write + ?Sized>(
    out: &mut W,
    game: &RawGame,
) -> std::io::Result<()> {
    let mut text = String::new();
    // Writing into a String cannot fail.
    let _ = write_game(&mut text, game);
    out.write_all(text.as_bytes())
}

impl fmt::Display for RawGame {
    /// The game as PDN, as [`write_game`] writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_game(f, self)
    }
}
