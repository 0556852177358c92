//! The streaming PDN reader.

use std::io::{BufRead, ErrorKind};

use bashni_rules::Color;

use crate::encoding::{LineDecoding, TextEncoding};
use crate::error::{Location, PdnError};
use crate::game::{Annotation, RawGame, RawMove, ResultToken, UNKNOWN_MOVE, Variation};
use crate::warning::{Warning, WarningKind};
use crate::writer::HEADER_ORDER;

/// The longest line the reader accepts, in bytes. The rest of a longer line is skipped
/// (without being stored) and reported as [`PdnError::LineTooLong`]; this bounds the
/// reader's buffers whatever the input.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What the reader expects where it found something it cannot use in the movetext.
const EXPECTED_MOVETEXT: &str =
    "a move, a move number, a result, a comment, a variation, an annotation or a tag";
/// What the reader expects inside a move token.
const EXPECTED_IN_MOVE: &str = "a square (a1..h8 or a number), `-`, `:` or `x` in a move";

/// Tag names PDN (and PGN) give in a fixed case; a name written in another case is read as
/// the one here, with a warning.
const KNOWN_TAGS: [&str; 8] = [
    "Annotator",
    "PlyCount",
    "Termination",
    "Time",
    "Mode",
    "Setup",
    "Opening",
    "Variant",
];

/// The spelling the reader gives a tag name: a name PDN (or PGN) writes in a fixed case
/// ([`HEADER_ORDER`] and a few more) in that case, whatever case it was written in; any
/// other name as written.
pub fn tag_spelling(name: &str) -> &str {
    known_tag(name).unwrap_or(name)
}

/// The fixed spelling of `name` if PDN (or PGN) gives it one.
fn known_tag(name: &str) -> Option<&'static str> {
    HEADER_ORDER
        .iter()
        .chain(KNOWN_TAGS.iter())
        .find(|known| known.eq_ignore_ascii_case(name))
        .copied()
}

/// Reads the games of a PDN file one at a time, in constant memory (bounded by the largest
/// game and [`MAX_LINE_BYTES`]).
///
/// ```
/// use bashni_pdn::{Reader, ResultToken};
/// use bashni_rules::GameResult;
///
/// let text = "[Event \"Example\"]\n\n1. c3-b4 {quiet} b6-c5 2. b4:d6 1-0\n";
/// let mut reader = Reader::new(text.as_bytes());
/// let game = reader.next_game().unwrap().unwrap();
/// assert_eq!(game.tag("Event"), Some("Example"));
/// assert_eq!(game.moves.len(), 3);
/// assert_eq!(game.moves[1].text, "b6-c5");
/// assert_eq!((game.moves[1].line, game.moves[1].column), (3, 18));
/// assert_eq!(game.result, Some(ResultToken::Score(GameResult::WhiteWins)));
/// assert!(reader.next_game().is_none());
/// ```
///
/// # What it reads
///
/// * Tag pairs `[Name "value"]`, any number on a line, before the movetext; `\"` and `\\`
///   in a value stand for `"` and `\` (any other backslash is kept). A value without quotes
///   (`[GameType 25]`) is also taken, up to the first blank or `]`. A tag pair must end on
///   its line. A usual tag name written in another case (`[event "..."]`) is read as PDN
///   writes it, with a warning.
/// * Move numbers `12.` (White's move 12 follows) and `12...` or `12. ...` (Black's), checked
///   loosely: any positive number is taken and restarts the count, so a wrong number is not
///   an error (replaying finds real mistakes). Moves after a known number get
///   [`RawMove::number`] and [`RawMove::color`] by counting on; before the first move number
///   they are `None`. A number may be glued to its move: `1.c3-b4`.
/// * Move tokens: a letter `a`-`h`/`A`-`H` or a digit, then letters `a`-`h`/`A`-`H`, digits,
///   `-`, `–`, `—`, `:`, `x`, `X`, `×`. So `c3-b4`, `b2:d4:f6:d8D:a5`, `c3xe5`, `cb4`,
///   `a:a7`, `22-18` and `9x18` are tokens; whether they are legal moves is left to
///   replaying. `-` (or `--`) is a move that is not known ([`crate::UNKNOWN_MOVE`]), as in
///   `1. - - 2. - -`.
/// * Comments `{...}` (over several lines) and `;...` (to the end of the line), attached
///   after the move they follow, or to [`RawGame::intro`] before the first move; NAGs `$n`
///   and glyphs `!` `?` `!!` `??` `!?` `?!`; variations `( ... )`, parsed as lines of moves
///   of their own, nested to any depth ([`Annotation::Variation`]). Parentheses that close
///   on their line around words that are no moves (`(see game 5)`) are a remark, kept as a
///   comment with a warning.
/// * A position set up in the movetext, PDN 3.0's `/FEN "W:W...:B..."/` (or `/W:.../`): before
///   the first move it is read as the `FEN` tag, with a warning; later it is kept as
///   [`Annotation::Setup`].
/// * A line starting with `%` (outside comments and variations) is skipped, as in PGN.
///   `\r\n` line ends are taken. Lines of free text between games (a title before the
///   first tag, say) are skipped with a warning.
/// * Encodings: see [`TextEncoding`]; by default UTF-8 with or without a byte order mark,
///   UTF-16 by its byte order mark, and a line that is not UTF-8 as Windows-1251 with a
///   warning.
///
/// What was read leniently is in [`RawGame::warnings`], with its line and column.
///
/// # Where a game ends
///
/// At its result token (`1-0`, `0-1`, `1/2-1/2`, `*`, `2-0`, `0-2`, `1-1`, `0-0`) outside
/// variations; or, without one ([`RawGame::result`] is `None`), at a `[` after its movetext
/// began, at a `[` after a blank line that follows its tags, or at the end of the input.
/// Anything between a result and the next game's first tag or move (such as a comment)
/// belongs to the next game; comments alone at the end of the input are dropped.
///
/// # Errors and recovery
///
/// An error ends the game it is found in: [`Reader::next_game`] returns it (with the game's
/// number, line and column) and the next call goes on with the next game. To find it the
/// reader skips the rest of the line of the error and then whole lines until one whose first
/// non-blank character is `[` and whose previous line does not start with `[` (that is, the
/// first tag line after a blank line or after movetext: the rest of a bad game's tag
/// section is skipped, the next game's is not). A `{` comment or `(` variation that is still
/// open when a blank line is followed by a line starting with `[` is reported unterminated,
/// and reading goes on at that line, so an unclosed brace costs one game, not the rest of
/// the file. After an I/O error the reader stops.
///
/// Game numbers count every game the reader started, good or bad, from 1.
#[derive(Debug)]
pub struct Reader<R> {
    inner: R,
    /// The encoding asked for.
    encoding: TextEncoding,
    /// How lines are decoded, once the start of the input was seen.
    decoding: Option<LineDecoding>,
    /// The bytes of the current line, without the line end.
    bytes: Vec<u8>,
    /// The current line, decoded.
    line: Vec<char>,
    /// The cursor in `line`.
    pos: usize,
    /// The number of the current line (0 before the first).
    line_no: usize,
    /// Whether the line before the current one was blank.
    prev_blank: bool,
    /// Whether the line before the current one started with `[`.
    prev_bracket: bool,
    /// Games started so far (good or bad).
    games: usize,
    /// An error met while skipping a bad game, to give on the next call.
    pending: Option<PdnError>,
    /// The input failed; no more games.
    stopped: bool,
    /// Warnings met while reading the current game.
    warnings: Vec<Warning>,
    /// Whether to keep the text of each game (see [`Reader::keep_text`]).
    keep_text: bool,
    /// The lines read since the last game ended, when text is kept.
    captured: String,
    /// Where the current line starts in `captured`.
    line_in_captured: usize,
    /// The text of the game returned last, when text is kept.
    last_text: String,
}

/// An error, and whether the reader must skip to the next game before going on.
struct Failure {
    error: PdnError,
    resync: bool,
}

impl Failure {
    fn skip(error: PdnError) -> Failure {
        Failure {
            error,
            resync: true,
        }
    }
}

/// Where moves go while reading: the game itself or a variation inside it.
struct Line {
    intro: Vec<Annotation>,
    moves: Vec<RawMove>,
    /// The number and side of the next move, when known.
    next: Option<(u32, Color)>,
    /// The last token was a move number.
    after_number: bool,
}

impl Line {
    fn new(next: Option<(u32, Color)>) -> Line {
        Line {
            intro: Vec::new(),
            moves: Vec::new(),
            next,
            after_number: false,
        }
    }

    fn annotate(&mut self, annotation: Annotation) {
        match self.moves.last_mut() {
            Some(last) => last.after.push(annotation),
            None => self.intro.push(annotation),
        }
    }
}

/// A variation being read.
struct Open {
    /// Its opening `(`.
    at: Location,
    line: Line,
    result: Option<ResultToken>,
}

/// The game being read.
struct Builder {
    game: RawGame,
    main: Line,
    /// Variations open at the cursor, innermost last.
    open: Vec<Open>,
    /// A move, move number or result has been read.
    movetext_started: bool,
    /// A blank line came after the tags (and before any movetext).
    blank_after_tags: bool,
    /// Free text skipped before the game: its first character and its last line.
    skipped: Option<(Location, usize)>,
}

impl Builder {
    fn new(number: usize) -> Builder {
        Builder {
            game: RawGame {
                number,
                ..RawGame::default()
            },
            main: Line::new(None),
            open: Vec::new(),
            movetext_started: false,
            blank_after_tags: false,
            skipped: None,
        }
    }

    /// The line moves go to: the innermost open variation, or the game.
    fn current(&mut self) -> &mut Line {
        match self.open.last_mut() {
            Some(open) => &mut open.line,
            None => &mut self.main,
        }
    }

    fn has_substance(&self) -> bool {
        !self.game.tags.is_empty() || self.movetext_started || !self.open.is_empty()
    }

    /// The finished game, with the reader's warnings.
    fn finish(mut self, warnings: &mut Vec<Warning>) -> RawGame {
        if let Some((at, last_line)) = self.skipped {
            self.game.warnings.push(Warning {
                line: at.line,
                column: at.column,
                kind: WarningKind::TextSkipped { last_line },
            });
        }
        self.game.warnings.append(warnings);
        self.game
            .warnings
            .sort_by_key(|warning| (warning.line, warning.column));
        self.game.intro = self.main.intro;
        self.game.moves = self.main.moves;
        self.game
    }
}

/// Collapses runs of white space into one space and drops it at both ends.
#[derive(Default)]
struct Normaliser {
    text: String,
    space: bool,
}

impl Normaliser {
    fn push(&mut self, c: char) {
        if c.is_whitespace() {
            self.space = !self.text.is_empty();
        } else {
            if self.space {
                self.text.push(' ');
                self.space = false;
            }
            self.text.push(c);
        }
    }

    fn finish(self) -> String {
        self.text
    }
}

/// Characters that end a word of the movetext.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || "[]{}();$!?\"*".contains(c)
}

fn starts_move(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, 'a'..='h' | 'A'..='H')
}

fn continues_move(c: char) -> bool {
    starts_move(c) || matches!(c, '-' | '–' | '—' | ':' | 'x' | 'X' | '×')
}

fn is_dash(c: char) -> bool {
    matches!(c, '-' | '–' | '—')
}

/// Whether a word could be part of movetext: a move number, a result, a move, a glyph. A
/// move must have a digit when `strict` (every square has one; a line starting `A ...` is
/// text), not otherwise (any token the reader takes as a move).
fn is_movetext_word(word: &str, strict: bool) -> bool {
    if ResultToken::from_token(word).is_some() || word.chars().all(|c| c == '.') {
        return true;
    }
    let digits = word.chars().take_while(char::is_ascii_digit).count();
    let rest = if digits > 0 && word[digits..].starts_with('.') {
        word[digits..].trim_start_matches('.')
    } else {
        word
    };
    if ResultToken::from_token(rest).is_some() {
        return true;
    }
    let rest = rest.trim_end_matches(['!', '?']);
    let mut chars = rest.chars();
    match chars.next() {
        None => true,
        Some(c) if is_dash(c) => rest.chars().all(is_dash),
        Some(c) => {
            starts_move(c)
                && chars.all(continues_move)
                && (!strict || rest.contains(|c: char| c.is_ascii_digit()))
        }
    }
}

/// Whether a line is free text rather than PDN: its first word is nothing PDN starts a
/// line with (a tag, a comment, movetext...).
fn is_free_text(line: &[char]) -> bool {
    let text: String = line.iter().collect();
    let Some(word) = text.split_whitespace().next() else {
        return false;
    };
    !word.starts_with(['[', '{', ';', '(', '%', '/', '$', '!', '?'])
        && !is_movetext_word(word, true)
}

/// Decodes a line that is not all UTF-8: its UTF-8 runs as UTF-8, each byte between them in
/// the single-byte `fallback` (so a line mixing both keeps both readable).
fn decode_mixed(mut bytes: &[u8], fallback: &'static encoding_rs::Encoding, line: &mut Vec<char>) {
    while !bytes.is_empty() {
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                line.extend(text.chars());
                return;
            }
            Err(e) => {
                let (valid, rest) = bytes.split_at(e.valid_up_to());
                line.extend(String::from_utf8_lossy(valid).chars());
                let bad = e.error_len().unwrap_or(rest.len()).max(1);
                let (text, _) = fallback.decode_without_bom_handling(&rest[..bad]);
                line.extend(text.chars());
                bytes = &rest[bad..];
            }
        }
    }
}

/// The content of a PDN 3.0 setup `/.../`: an optional `FEN` and quotes around a position.
fn setup_text(inside: &str) -> String {
    let mut text = inside.trim();
    if let Some(rest) = text
        .get(..3)
        .filter(|head| head.eq_ignore_ascii_case("FEN"))
        .and_then(|_| text.get(3..))
    {
        text = rest.trim_start();
    }
    text.trim_matches('"').trim().to_string()
}

impl<R: BufRead> Reader<R> {
    /// A reader of the PDN text in `inner`, in the default encoding
    /// ([`TextEncoding::AUTO`]).
    pub fn new(inner: R) -> Reader<R> {
        Reader::with_encoding(inner, TextEncoding::AUTO)
    }

    /// A reader of the PDN text in `inner`, in the given encoding.
    pub fn with_encoding(inner: R, encoding: TextEncoding) -> Reader<R> {
        Reader {
            inner,
            encoding,
            decoding: None,
            bytes: Vec::new(),
            line: Vec::new(),
            pos: 0,
            line_no: 0,
            prev_blank: true,
            prev_bracket: false,
            games: 0,
            pending: None,
            stopped: false,
            warnings: Vec::new(),
            keep_text: false,
            captured: String::new(),
            line_in_captured: 0,
            last_text: String::new(),
        }
    }

    /// Makes the reader keep the text of each game it returns, good or bad, as
    /// [`Reader::game_text`] gives it (for writing a game that cannot be read back as it
    /// was).
    pub fn keep_text(mut self) -> Reader<R> {
        self.keep_text = true;
        self
    }

    /// The text of the game returned last, from the end of the game before it to its own
    /// end, decoded, lines ended by `\n`; empty unless [`Reader::keep_text`] was asked for.
    pub fn game_text(&self) -> &str {
        &self.last_text
    }

    /// How many games (good or bad) the reader has returned so far.
    pub fn games_read(&self) -> usize {
        self.games
    }

    /// The number of the line the reader is on (1-based; 0 before reading).
    pub fn line_number(&self) -> usize {
        self.line_no
    }

    /// The underlying input.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// The next game: `None` at the end of the input, `Some(Err(_))` for a game that could
    /// not be read (the next call goes on with the following game).
    pub fn next_game(&mut self) -> Option<Result<RawGame, PdnError>> {
        if let Some(error) = self.pending.take() {
            self.stopped = true;
            return Some(Err(error));
        }
        if self.stopped {
            return None;
        }
        self.warnings.clear();
        let result = self.read_game();
        match result {
            Ok(Some(game)) => {
                self.games += 1;
                self.take_text();
                Some(Ok(game))
            }
            Ok(None) => None,
            Err(failure) => {
                self.games += 1;
                if matches!(failure.error, PdnError::Io { .. }) {
                    self.stopped = true;
                } else if failure.resync
                    && let Err(skip) = self.skip_to_next_game()
                {
                    self.pending = Some(skip.error);
                }
                self.take_text();
                Some(Err(failure.error))
            }
        }
    }

    /// Sets the text of the game just ended aside, when text is kept: the lines read since
    /// the last game ended, except the current line when the next game starts on it.
    fn take_text(&mut self) {
        if !self.keep_text {
            return;
        }
        let next_starts_here =
            self.pos < self.line.len() && self.line[..self.pos].iter().all(|c| c.is_whitespace());
        if next_starts_here {
            let line = self.captured.split_off(self.line_in_captured);
            self.last_text = std::mem::replace(&mut self.captured, line);
            self.line_in_captured = 0;
        } else {
            self.last_text = std::mem::take(&mut self.captured);
            self.line_in_captured = 0;
        }
    }

    /// A location on the current line, `index` being a 0-based index into the line.
    fn at(&self, index: usize) -> Location {
        Location {
            game: self.games + 1,
            line: self.line_no,
            column: index + 1,
        }
    }

    fn here(&self) -> Location {
        self.at(self.pos)
    }

    fn warn(&mut self, index: usize, kind: WarningKind) {
        self.warnings.push(Warning {
            line: self.line_no,
            column: index + 1,
            kind,
        });
    }

    fn peek(&self) -> Option<char> {
        self.line.get(self.pos).copied()
    }

    fn line_is_blank(&self) -> bool {
        self.line.iter().all(|c| c.is_whitespace())
    }

    fn first_visible(&self) -> Option<char> {
        self.line.iter().copied().find(|c| !c.is_whitespace())
    }

    /// Decides how lines are decoded from the first bytes of the input, and skips a byte
    /// order mark.
    fn start_decoding(&mut self) -> std::io::Result<LineDecoding> {
        if let Some(decoding) = self.decoding {
            return Ok(decoding);
        }
        let first = loop {
            match self.inner.fill_buf() {
                Ok(buf) => break buf,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        let (decoding, mark) = self.encoding.start(first);
        self.inner.consume(mark);
        self.decoding = Some(decoding);
        Ok(decoding)
    }

    /// Reads the next line into `bytes`: whether there was one, and whether it was cut.
    /// `utf16` says whether lines are UTF-16 (and in which byte order).
    fn read_raw_line(&mut self, utf16: Option<bool>) -> std::io::Result<(bool, bool)> {
        self.bytes.clear();
        let mut got = false;
        let mut too_long = false;
        loop {
            let buf = match self.inner.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok((got, too_long));
            }
            got = true;
            // The index in `buf` of the last byte of the line end, and its length.
            let newline = match utf16 {
                None => buf.iter().position(|&b| b == b'\n').map(|i| (i, 1)),
                Some(little_endian) => {
                    let unit: [u8; 2] = if little_endian { [10, 0] } else { [0, 10] };
                    let before = self.bytes.len();
                    (0..buf.len())
                        .filter(|i| (before + i) % 2 == 1)
                        .find(|&i| {
                            let first = if i == 0 {
                                self.bytes.last().copied()
                            } else {
                                Some(buf[i - 1])
                            };
                            first == Some(unit[0]) && buf[i] == unit[1]
                        })
                        .map(|i| (i, 2))
                }
            };
            let used = newline.map_or(buf.len(), |(i, _)| i + 1);
            let room = MAX_LINE_BYTES.saturating_sub(self.bytes.len());
            if used > room {
                too_long = true;
                self.bytes.extend_from_slice(&buf[..room]);
            } else {
                self.bytes.extend_from_slice(&buf[..used]);
            }
            self.inner.consume(used);
            if let Some((_, length)) = newline {
                if !too_long {
                    self.bytes.truncate(self.bytes.len().saturating_sub(length));
                }
                return Ok((true, too_long));
            }
        }
    }

    /// Moves to the next line: `Ok(false)` at the end of the input. On an error the line is
    /// still current (lossily decoded) and the cursor is at its start.
    fn advance_line(&mut self) -> Result<bool, Failure> {
        self.prev_blank = self.line_is_blank();
        self.prev_bracket = self.first_visible() == Some('[');
        self.line.clear();
        self.pos = 0;
        let io_failure = |reader: &Self, error| {
            let at = Location {
                game: reader.games + 1,
                line: reader.line_no + 1,
                column: 1,
            };
            Failure::skip(PdnError::Io { at, error })
        };
        let decoding = match self.start_decoding() {
            Ok(decoding) => decoding,
            Err(error) => return Err(io_failure(self, error)),
        };
        let utf16 = match decoding {
            LineDecoding::Utf16 { little_endian } => Some(little_endian),
            _ => None,
        };
        let (got, too_long) = match self.read_raw_line(utf16) {
            Ok(read) => read,
            Err(error) => return Err(io_failure(self, error)),
        };
        if !got {
            return Ok(false);
        }
        self.line_no += 1;
        let decoded = self.decode_line(decoding, too_long);
        if self.line.last() == Some(&'\r') {
            self.line.pop();
        }
        if self.keep_text {
            self.line_in_captured = self.captured.len();
            self.captured.extend(self.line.iter());
            self.captured.push('\n');
        }
        decoded.map(|()| true)
    }

    /// Decodes `bytes` into `line`.
    fn decode_line(&mut self, decoding: LineDecoding, too_long: bool) -> Result<(), Failure> {
        let bytes = &self.bytes[..];
        let too_long_at = |reader: &Self| {
            let at = reader.at(reader.line.len());
            Err(Failure::skip(PdnError::LineTooLong { at }))
        };
        match decoding {
            LineDecoding::Utf16 { little_endian } => {
                let encoding = if little_endian {
                    encoding_rs::UTF_16LE
                } else {
                    encoding_rs::UTF_16BE
                };
                let (text, _) = encoding.decode_without_bom_handling(bytes);
                self.line.extend(text.chars());
            }
            LineDecoding::Legacy(encoding) => {
                let (text, _) = encoding.decode_without_bom_handling(bytes);
                self.line.extend(text.chars());
            }
            LineDecoding::Utf8 { fallback } => match std::str::from_utf8(bytes) {
                Ok(text) => self.line.extend(text.chars()),
                // A line cut in the middle of a character is too long, not badly encoded.
                Err(e) if too_long && e.error_len().is_none() => {
                    let valid = &bytes[..e.valid_up_to()];
                    self.line.extend(String::from_utf8_lossy(valid).chars());
                    return too_long_at(self);
                }
                Err(e) => {
                    // The column of the first bad byte: the characters before it.
                    let column = String::from_utf8_lossy(&bytes[..e.valid_up_to()])
                        .chars()
                        .count();
                    match fallback {
                        Some(encoding) => {
                            decode_mixed(bytes, encoding, &mut self.line);
                            self.warn(
                                column,
                                WarningKind::Encoding {
                                    encoding: encoding.name(),
                                },
                            );
                        }
                        None => {
                            self.line.extend(String::from_utf8_lossy(bytes).chars());
                            let at = self.at(column);
                            return Err(Failure::skip(PdnError::InvalidUtf8 { at }));
                        }
                    }
                }
            },
        }
        if too_long {
            return too_long_at(self);
        }
        Ok(())
    }

    /// Skips the rest of a bad game (see the type's documentation).
    fn skip_to_next_game(&mut self) -> Result<(), Failure> {
        self.pos = self.line.len();
        loop {
            match self.advance_line() {
                Ok(false) => return Ok(()),
                Ok(true) => {
                    if self.first_visible() == Some('[') && !self.prev_bracket {
                        self.pos = 0;
                        return Ok(());
                    }
                }
                Err(failure) if matches!(failure.error, PdnError::Io { .. }) => {
                    return Err(failure);
                }
                // A bad line inside skipped text is skipped with it.
                Err(_) => {}
            }
            self.pos = self.line.len();
        }
    }

    /// Goes on to the next line inside a comment opened at `start`.
    fn continue_comment(&mut self, start: Location) -> Result<(), Failure> {
        let more = self.advance_line()?;
        if !more || (self.prev_blank && self.line.first() == Some(&'[')) {
            // Go on at this line: it probably starts the next game.
            return Err(Failure {
                error: PdnError::UnterminatedComment { at: start },
                resync: false,
            });
        }
        Ok(())
    }

    /// The error for variations still open where the game cannot go on (the outermost
    /// one's `(`); reading goes on where it is.
    fn unterminated(&self, b: &Builder) -> Failure {
        Failure {
            error: PdnError::UnterminatedVariation {
                at: b.open.first().map_or_else(|| self.here(), |open| open.at),
            },
            resync: false,
        }
    }

    /// Reads one game; `Ok(None)` at the end of the input.
    fn read_game(&mut self) -> Result<Option<RawGame>, Failure> {
        let mut b = Builder::new(self.games + 1);
        loop {
            let Some(c) = self.peek() else {
                if !self.advance_line()? {
                    if !b.open.is_empty() {
                        return Err(self.unterminated(&b));
                    }
                    if !b.has_substance()
                        && let Some((at, _)) = b.skipped
                    {
                        return Err(Failure::skip(PdnError::TextWithoutGame { at }));
                    }
                    return Ok(b.has_substance().then(|| b.finish(&mut self.warnings)));
                }
                if self.line.first() == Some(&'%') && b.open.is_empty() {
                    self.pos = self.line.len();
                } else if !b.game.tags.is_empty() && !b.movetext_started && self.line_is_blank() {
                    b.blank_after_tags = true;
                } else if !b.has_substance() && is_free_text(&self.line) {
                    let first = self.line.iter().position(|c| !c.is_whitespace());
                    let at = self.at(first.unwrap_or(0));
                    let from = b.skipped.map_or(at, |(from, _)| from);
                    b.skipped = Some((from, self.line_no));
                    self.pos = self.line.len();
                }
                continue;
            };
            if c.is_whitespace() {
                self.pos += 1;
                continue;
            }
            if b.game.line == 0 {
                b.game.line = self.line_no;
            }
            match c {
                '[' => {
                    if !b.open.is_empty() {
                        return Err(self.unterminated(&b));
                    }
                    if b.movetext_started || b.blank_after_tags {
                        return Ok(Some(b.finish(&mut self.warnings)));
                    }
                    let tag = self.read_tag()?;
                    b.game.tags.push(tag);
                }
                '{' => {
                    let text = self.read_comment()?;
                    b.current().annotate(Annotation::Comment(text));
                }
                ';' => {
                    let mut text = Normaliser::default();
                    for &d in &self.line[self.pos + 1..] {
                        text.push(d);
                    }
                    self.pos = self.line.len();
                    b.current().annotate(Annotation::Comment(text.finish()));
                }
                '(' => {
                    let at = self.here();
                    if let Some(text) = self.remark_in_parentheses() {
                        self.warn(at.column - 1, WarningKind::RemarkInParentheses);
                        b.current().annotate(Annotation::Comment(text));
                        continue;
                    }
                    self.pos += 1;
                    // A variation replaces the move before it, so it starts with that
                    // move's number and side.
                    let next = b
                        .current()
                        .moves
                        .last()
                        .and_then(|mv| mv.number.zip(mv.color));
                    b.open.push(Open {
                        at,
                        line: Line::new(next),
                        result: None,
                    });
                }
                ')' if !b.open.is_empty() => {
                    self.pos += 1;
                    if let Some(open) = b.open.pop() {
                        let variation = Variation {
                            line: open.at.line,
                            column: open.at.column,
                            intro: open.line.intro,
                            moves: open.line.moves,
                            result: open.result,
                        };
                        b.current().annotate(Annotation::Variation(variation));
                    }
                }
                '/' => self.read_setup(&mut b)?,
                '$' => {
                    let nag = self.read_nag()?;
                    b.current().annotate(Annotation::Nag(nag));
                }
                '!' | '?' => {
                    let nag = self.read_glyph()?;
                    b.current().annotate(Annotation::Nag(nag));
                }
                '*' => {
                    self.pos += 1;
                    match b.open.last_mut() {
                        Some(open) => open.result = Some(ResultToken::Unfinished),
                        None => {
                            b.game.result = Some(ResultToken::Unfinished);
                            return Ok(Some(b.finish(&mut self.warnings)));
                        }
                    }
                }
                ']' | ')' | '}' | '"' => {
                    return Err(Failure::skip(PdnError::UnexpectedCharacter {
                        at: self.here(),
                        found: c,
                        expected: EXPECTED_MOVETEXT,
                    }));
                }
                _ => {
                    if self.read_word(&mut b)? {
                        return Ok(Some(b.finish(&mut self.warnings)));
                    }
                }
            }
        }
    }

    /// Parentheses that close on their line around words that are no movetext (`(see game
    /// 5)`, `(+)`) are a remark, not a variation: their text, whitespace-normalised, with the
    /// cursor moved past them. `None` for a variation, or parentheses that do not close on
    /// this line (read as a variation).
    fn remark_in_parentheses(&mut self) -> Option<String> {
        let mut depth = 0usize;
        let mut in_comment = false;
        let mut in_setup = false;
        let mut words = String::new();
        let mut end = None;
        for (i, &c) in self.line.iter().enumerate().skip(self.pos) {
            match c {
                _ if in_comment => in_comment = c != '}',
                '/' => in_setup = !in_setup,
                _ if in_setup => {}
                '{' => in_comment = true,
                ';' => return None,
                '(' => {
                    depth += 1;
                    words.push(' ');
                }
                ')' => {
                    depth -= 1;
                    words.push(' ');
                    if depth == 0 {
                        end = Some(i);
                        break;
                    }
                }
                _ => words.push(c),
            }
        }
        let end = end?;
        let movetext = words.split_whitespace().all(|word| {
            is_movetext_word(word, false)
                || word == "*"
                || word.chars().all(|c| c == '!' || c == '?')
                || word
                    .strip_prefix('$')
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        });
        if movetext {
            return None;
        }
        let mut text = Normaliser::default();
        for &c in &self.line[self.pos + 1..end] {
            text.push(c);
        }
        self.pos = end + 1;
        Some(text.finish())
    }

    fn skip_blanks_in_line(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn bad_tag(&self, expected: &'static str) -> Failure {
        Failure::skip(PdnError::BadTag {
            at: self.here(),
            expected,
            found: self.peek(),
        })
    }

    /// Reads `[Name "value"]` at the cursor.
    fn read_tag(&mut self) -> Result<(String, String), Failure> {
        let open = self.here();
        self.pos += 1;
        self.skip_blanks_in_line();
        let name_start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.pos += 1;
        }
        if self.pos == name_start {
            return Err(self.bad_tag("a tag name (letters, digits, `_`)"));
        }
        let mut name: String = self.line[name_start..self.pos].iter().collect();
        if let Some(known) = known_tag(&name).filter(|known| *known != name) {
            let written = std::mem::replace(&mut name, known.to_string());
            self.warn(
                name_start,
                WarningKind::TagName {
                    written,
                    read: known,
                },
            );
        }
        if self.peek().is_some_and(|c| !c.is_whitespace() && c != '"') {
            return Err(self.bad_tag("a space and a tag value after the tag name"));
        }
        self.skip_blanks_in_line();
        let mut value = String::new();
        match self.peek() {
            Some('"') => {
                let quote = self.here();
                self.pos += 1;
                loop {
                    match self.peek() {
                        None => {
                            return Err(Failure::skip(PdnError::UnterminatedString { at: quote }));
                        }
                        Some('"') => {
                            self.pos += 1;
                            break;
                        }
                        Some('\\') => {
                            self.pos += 1;
                            match self.peek() {
                                Some(c @ ('"' | '\\')) => {
                                    value.push(c);
                                    self.pos += 1;
                                }
                                _ => value.push('\\'),
                            }
                        }
                        Some(c) => {
                            value.push(c);
                            self.pos += 1;
                        }
                    }
                }
            }
            Some(c) if c != ']' => {
                while let Some(c) = self.peek() {
                    if c.is_whitespace() || c == ']' || c == '"' {
                        break;
                    }
                    value.push(c);
                    self.pos += 1;
                }
            }
            _ => return Err(self.bad_tag("a tag value in double quotes")),
        }
        self.skip_blanks_in_line();
        match self.peek() {
            Some(']') => {
                self.pos += 1;
                Ok((name, value))
            }
            None => Err(Failure::skip(PdnError::UnterminatedTag { at: open })),
            Some(_) => Err(self.bad_tag("`]` after the tag value")),
        }
    }

    /// Reads a `{...}` comment at the cursor, over as many lines as it takes.
    fn read_comment(&mut self) -> Result<String, Failure> {
        let start = self.here();
        self.pos += 1;
        let mut text = Normaliser::default();
        loop {
            while let Some(c) = self.peek() {
                self.pos += 1;
                if c == '}' {
                    return Ok(text.finish());
                }
                text.push(c);
            }
            text.push('\n');
            self.continue_comment(start)?;
        }
    }

    /// Reads a PDN 3.0 setup `/.../` at the cursor (on one line).
    fn read_setup(&mut self, b: &mut Builder) -> Result<(), Failure> {
        let start = self.pos;
        let Some(close) = self.line[start + 1..].iter().position(|&c| c == '/') else {
            return Err(Failure::skip(PdnError::UnterminatedSetup {
                at: self.at(start),
            }));
        };
        let end = start + 1 + close;
        let inside: String = self.line[start + 1..end].iter().collect();
        self.pos = end + 1;
        let position = setup_text(&inside);
        if b.open.is_empty() && b.main.moves.is_empty() {
            b.game.set_tag("FEN", position);
            self.warn(start, WarningKind::SetupAsFen);
        } else {
            b.current().annotate(Annotation::Setup(position));
        }
        b.movetext_started = true;
        Ok(())
    }

    /// Reads `$n` at the cursor.
    fn read_nag(&mut self) -> Result<u8, Failure> {
        let start = self.pos;
        self.pos += 1;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        let digits: String = self.line[start + 1..self.pos].iter().collect();
        digits.parse::<u8>().map_err(|_| {
            let mut text: String = self.line[start..self.pos].iter().collect();
            if let Some(c) = self.peek().filter(|c| !c.is_whitespace()) {
                text.push(c);
            }
            Failure::skip(PdnError::BadAnnotation {
                at: self.at(start),
                text,
            })
        })
    }

    /// Reads a run of `!` and `?` at the cursor.
    fn read_glyph(&mut self) -> Result<u8, Failure> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c == '!' || c == '?') {
            self.pos += 1;
        }
        let text: String = self.line[start..self.pos].iter().collect();
        match text.as_str() {
            "!" => Ok(1),
            "?" => Ok(2),
            "!!" => Ok(3),
            "??" => Ok(4),
            "!?" => Ok(5),
            "?!" => Ok(6),
            _ => Err(Failure::skip(PdnError::BadAnnotation {
                at: self.at(start),
                text,
            })),
        }
    }

    /// The end of the word starting at `start`.
    fn word_end(&self, start: usize) -> usize {
        let mut end = start;
        while self.line.get(end).is_some_and(|&c| !is_delimiter(c)) {
            end += 1;
        }
        end
    }

    /// Reads a word of the movetext at the cursor: a result, a move number, a move, or
    /// both a number and a move (`1.c3-b4`). Returns whether the game ended.
    fn read_word(&mut self, b: &mut Builder) -> Result<bool, Failure> {
        let start = self.pos;
        let end = self.word_end(start);
        let word = &self.line[start..end];
        if word.len() <= 7 {
            let text: String = word.iter().collect();
            if let Some(result) = ResultToken::from_token(&text) {
                self.pos = end;
                return Ok(self.end_with(b, result));
            }
        }
        let digits = word.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits > 0 && word.get(digits) == Some(&'.') {
            let dots = word[digits..].iter().take_while(|&&c| c == '.').count();
            let number = word[..digits]
                .iter()
                .collect::<String>()
                .parse::<u32>()
                .ok()
                .filter(|&n| n > 0);
            let Some(number) = number else {
                return Err(Failure::skip(PdnError::BadMoveNumber {
                    at: self.at(start),
                    text: word[..digits + dots].iter().collect(),
                }));
            };
            let color = if dots == 1 {
                Color::White
            } else {
                Color::Black
            };
            let line = b.current();
            line.next = Some((number, color));
            line.after_number = true;
            b.movetext_started = true;
            let rest = start + digits + dots;
            if rest == end {
                self.pos = end;
                return Ok(false);
            }
            // `1.1-0`: a result glued to a number is the result, as it is on its own (the
            // writer puts it after a space, where it could not be read as a move).
            let glued: String = word[digits + dots..].iter().collect();
            if let Some(result) = ResultToken::from_token(&glued) {
                self.pos = end;
                return Ok(self.end_with(b, result));
            }
            return self.read_move(b, rest, end).map(|()| false);
        }
        if word.iter().all(|&c| c == '.') {
            // `1. ... b6-c5`: the dots after a number say that Black moves.
            let line = b.current();
            if line.after_number
                && let Some((number, Color::White)) = line.next
            {
                line.next = Some((number, Color::Black));
            }
            self.pos = end;
            return Ok(false);
        }
        self.read_move(b, start, end).map(|()| false)
    }

    /// Takes a result token: it ends the game, or is kept with the variation it ends.
    fn end_with(&mut self, b: &mut Builder, result: ResultToken) -> bool {
        b.movetext_started = true;
        match b.open.last_mut() {
            Some(open) => {
                open.result = Some(result);
                false
            }
            None => {
                b.game.result = Some(result);
                true
            }
        }
    }

    /// Takes `line[start..end]` as a move token.
    fn read_move(&mut self, b: &mut Builder, start: usize, end: usize) -> Result<(), Failure> {
        let word = &self.line[start..end];
        let text = if word.len() <= 2 && word.iter().all(|&c| is_dash(c)) {
            // `-` (or `--`) is a move that is not known: `1. - - 2. - -` are four of them.
            UNKNOWN_MOVE.to_string()
        } else {
            for (i, &c) in word.iter().enumerate() {
                let fits = if i == 0 {
                    starts_move(c)
                } else {
                    continues_move(c)
                };
                if !fits {
                    return Err(Failure::skip(PdnError::UnexpectedCharacter {
                        at: self.at(start + i),
                        found: c,
                        expected: if i == 0 {
                            EXPECTED_MOVETEXT
                        } else {
                            EXPECTED_IN_MOVE
                        },
                    }));
                }
            }
            word.iter().collect()
        };
        let line_no = self.line_no;
        let line = b.current();
        let (number, color) = match line.next {
            Some((n, c)) => (Some(n), Some(c)),
            None => (None, None),
        };
        line.moves.push(RawMove {
            text,
            line: line_no,
            column: start + 1,
            number,
            color,
            after: Vec::new(),
        });
        line.next = line.next.and_then(|(n, c)| match c {
            Color::White => Some((n, Color::Black)),
            Color::Black => n.checked_add(1).map(|n| (n, Color::White)),
        });
        line.after_number = false;
        b.movetext_started = true;
        self.pos = end;
        Ok(())
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Result<RawGame, PdnError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_game()
    }
}
