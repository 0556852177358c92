//! The streaming PDN reader.

use std::io::{BufRead, ErrorKind};

use bashni_rules::Color;

use crate::error::{Location, PdnError};
use crate::game::{Annotation, RawGame, RawMove, ResultToken};

/// The longest line the reader accepts, in bytes. The rest of a longer line is skipped
/// (without being stored) and reported as [`PdnError::LineTooLong`]; this bounds the
/// reader's buffers whatever the input.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What the reader expects where it found something it cannot use in the movetext.
const EXPECTED_MOVETEXT: &str =
    "a move, a move number, a result, a comment, a variation, an annotation or a tag";
/// What the reader expects inside a move token.
const EXPECTED_IN_MOVE: &str = "a square (a1..h8 or a number), `-`, `:` or `x` in a move";

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
///   its line.
/// * Move numbers `12.` (White's move 12 follows) and `12...` or `12. ...` (Black's), checked
///   loosely: any positive number is taken and restarts the count, so a wrong number is not
///   an error (replaying finds real mistakes). Moves after a known number get
///   [`RawMove::number`] and [`RawMove::color`] by counting on; before the first move number
///   they are `None`. A number may be glued to its move: `1.c3-b4`.
/// * Move tokens: a letter `a`-`h`/`A`-`H` or a digit, then letters `a`-`h`/`A`-`H`, digits,
///   `-`, `:`, `x`, `X`. So `c3-b4`, `b2:d4:f6:d8D:a5`, `c3xe5`, `cb4`, `a:a7`, `22-18` and
///   `9x18` are tokens; whether they are legal moves is left to replaying.
/// * Comments `{...}` (over several lines) and `;...` (to the end of the line), attached
///   after the move they follow, or to [`RawGame::intro`] before the first move; NAGs `$n`
///   and glyphs `!` `?` `!!` `??` `!?` `?!`; variations `( ... )`, kept as text (see
///   [`Annotation::Variation`]).
/// * A line starting with `%` (outside comments and variations) is skipped, as in PGN.
///   A UTF-8 byte order mark at the start is skipped; `\r\n` line ends are taken.
///
/// # Where a game ends
///
/// At its result token (`1-0`, `0-1`, `1/2-1/2`, `*`, `2-0`, `0-2`, `1-1`, `0-0`); or,
/// without one ([`RawGame::result`] is `None`), at a `[` after its movetext began, at a `[`
/// after a blank line that follows its tags, or at the end of the input. Anything between a
/// result and the next game's first tag or move (such as a comment) belongs to the next game;
/// comments alone at the end of the input are dropped.
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
/// the file. Invalid UTF-8 is an error at the first bad byte (its column counts the
/// characters before it). After an I/O error the reader stops.
///
/// Game numbers count every game the reader started, good or bad, from 1.
#[derive(Debug)]
pub struct Reader<R> {
    inner: R,
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
    /// The next call must first skip to the next game.
    resync: bool,
    /// The input failed; no more games.
    stopped: bool,
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

/// The game being read.
struct Builder {
    game: RawGame,
    /// A move, move number or result has been read.
    movetext_started: bool,
    /// A blank line came after the tags (and before any movetext).
    blank_after_tags: bool,
    /// The number and side of the next move, when known.
    next: Option<(u32, Color)>,
    /// The last token was a move number.
    after_number: bool,
}

impl Builder {
    fn new(number: usize) -> Builder {
        Builder {
            game: RawGame {
                number,
                ..RawGame::default()
            },
            movetext_started: false,
            blank_after_tags: false,
            next: None,
            after_number: false,
        }
    }

    fn annotate(&mut self, annotation: Annotation) {
        match self.game.moves.last_mut() {
            Some(last) => last.after.push(annotation),
            None => self.game.intro.push(annotation),
        }
    }

    fn has_substance(&self) -> bool {
        !self.game.tags.is_empty() || self.movetext_started
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
    starts_move(c) || matches!(c, '-' | ':' | 'x' | 'X')
}

impl<R: BufRead> Reader<R> {
    /// A reader of the PDN text in `inner`.
    pub fn new(inner: R) -> Reader<R> {
        Reader {
            inner,
            bytes: Vec::new(),
            line: Vec::new(),
            pos: 0,
            line_no: 0,
            prev_blank: true,
            prev_bracket: false,
            games: 0,
            resync: false,
            stopped: false,
        }
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
        if self.stopped {
            return None;
        }
        let result = if self.resync {
            self.resync = false;
            self.skip_to_next_game().and_then(|()| self.read_game())
        } else {
            self.read_game()
        };
        match result {
            Ok(Some(game)) => {
                self.games += 1;
                Some(Ok(game))
            }
            Ok(None) => None,
            Err(failure) => {
                self.games += 1;
                if matches!(failure.error, PdnError::Io { .. }) {
                    self.stopped = true;
                } else {
                    self.resync = failure.resync;
                }
                Some(Err(failure.error))
            }
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

    fn peek(&self) -> Option<char> {
        self.line.get(self.pos).copied()
    }

    fn line_is_blank(&self) -> bool {
        self.line.iter().all(|c| c.is_whitespace())
    }

    fn first_visible(&self) -> Option<char> {
        self.line.iter().copied().find(|c| !c.is_whitespace())
    }

    /// Reads the next line into `bytes`: whether there was one, and whether it was cut.
    fn read_raw_line(&mut self) -> std::io::Result<(bool, bool)> {
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
            let (chunk, used, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], i + 1, true),
                None => (buf, buf.len(), false),
            };
            let room = MAX_LINE_BYTES.saturating_sub(self.bytes.len());
            if chunk.len() > room {
                too_long = true;
                self.bytes.extend_from_slice(&chunk[..room]);
            } else {
                self.bytes.extend_from_slice(chunk);
            }
            self.inner.consume(used);
            if done {
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
        let (got, too_long) = match self.read_raw_line() {
            Ok(read) => read,
            Err(error) => {
                let at = Location {
                    game: self.games + 1,
                    line: self.line_no + 1,
                    column: 1,
                };
                return Err(Failure::skip(PdnError::Io { at, error }));
            }
        };
        if !got {
            return Ok(false);
        }
        self.line_no += 1;
        if self.bytes.last() == Some(&b'\r') {
            self.bytes.pop();
        }
        let mut bytes = &self.bytes[..];
        if self.line_no == 1 {
            bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        }
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                self.line.extend(text.chars());
                if too_long {
                    let at = self.at(self.line.len());
                    return Err(Failure::skip(PdnError::LineTooLong { at }));
                }
                Ok(true)
            }
            Err(e) => {
                let valid = &bytes[..e.valid_up_to()];
                let column = String::from_utf8_lossy(valid).chars().count();
                self.line.extend(String::from_utf8_lossy(bytes).chars());
                // A line cut in the middle of a character is too long, not badly encoded.
                let at = self.at(column);
                if too_long && e.error_len().is_none() {
                    Err(Failure::skip(PdnError::LineTooLong { at }))
                } else {
                    Err(Failure::skip(PdnError::InvalidUtf8 { at }))
                }
            }
        }
    }

    /// Skips the rest of a bad game (see the type's documentation).
    fn skip_to_next_game(&mut self) -> Result<(), Failure> {
        self.pos = self.line.len();
        loop {
            match self.advance_line() {
                Ok(false) => return Ok(()),
                Ok(true) => {
                    if self.first_visible() == Some('[') && !self.prev_bracket {
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

    /// Goes on to the next line inside a comment or variation opened at `start`.
    fn continue_block(
        &mut self,
        start: Location,
        unterminated: fn(Location) -> PdnError,
    ) -> Result<(), Failure> {
        let more = self.advance_line()?;
        if !more || (self.prev_blank && self.line.first() == Some(&'[')) {
            // Go on at this line: it probably starts the next game.
            return Err(Failure {
                error: unterminated(start),
                resync: false,
            });
        }
        Ok(())
    }

    /// Reads one game; `Ok(None)` at the end of the input.
    fn read_game(&mut self) -> Result<Option<RawGame>, Failure> {
        let mut b = Builder::new(self.games + 1);
        loop {
            let Some(c) = self.peek() else {
                if !self.advance_line()? {
                    return Ok(b.has_substance().then_some(b.game));
                }
                if self.line.first() == Some(&'%') {
                    self.pos = self.line.len();
                } else if !b.game.tags.is_empty() && !b.movetext_started && self.line_is_blank() {
                    b.blank_after_tags = true;
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
                    if b.movetext_started || b.blank_after_tags {
                        return Ok(Some(b.game));
                    }
                    let tag = self.read_tag()?;
                    b.game.tags.push(tag);
                }
                '{' => {
                    let text = self.read_comment()?;
                    b.annotate(Annotation::Comment(text));
                }
                ';' => {
                    let mut text = Normaliser::default();
                    for &d in &self.line[self.pos + 1..] {
                        text.push(d);
                    }
                    self.pos = self.line.len();
                    b.annotate(Annotation::Comment(text.finish()));
                }
                '(' => {
                    let text = self.read_variation()?;
                    b.annotate(Annotation::Variation(text));
                }
                '$' => {
                    let nag = self.read_nag()?;
                    b.annotate(Annotation::Nag(nag));
                }
                '!' | '?' => {
                    let nag = self.read_glyph()?;
                    b.annotate(Annotation::Nag(nag));
                }
                '*' => {
                    self.pos += 1;
                    b.game.result = Some(ResultToken::Unfinished);
                    return Ok(Some(b.game));
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
                        return Ok(Some(b.game));
                    }
                }
            }
        }
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
        let name: String = self.line[name_start..self.pos].iter().collect();
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
            self.continue_block(start, |at| PdnError::UnterminatedComment { at })?;
        }
    }

    /// Reads a `( ... )` variation at the cursor, over as many lines as it takes.
    fn read_variation(&mut self) -> Result<String, Failure> {
        let start = self.here();
        self.pos += 1;
        let mut depth = 1usize;
        let mut in_comment = false;
        let mut text = Normaliser::default();
        loop {
            while let Some(c) = self.peek() {
                self.pos += 1;
                if in_comment {
                    text.push(c);
                    in_comment = c != '}';
                    continue;
                }
                match c {
                    '{' => {
                        in_comment = true;
                        text.push(c);
                    }
                    '(' => {
                        depth += 1;
                        text.push(c);
                    }
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            return Ok(text.finish());
                        }
                        text.push(c);
                    }
                    ';' => {
                        // A line comment would swallow the rest once the text is on one line.
                        let mut comment = Normaliser::default();
                        for &d in &self.line[self.pos..] {
                            if d != '}' {
                                comment.push(d);
                            }
                        }
                        self.pos = self.line.len();
                        text.push(' ');
                        text.push('{');
                        for d in comment.finish().chars() {
                            text.push(d);
                        }
                        text.push('}');
                    }
                    _ => text.push(c),
                }
            }
            text.push('\n');
            self.continue_block(start, |at| PdnError::UnterminatedVariation { at })?;
        }
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

    /// Reads a word of the movetext at the cursor: a result, a move number, a move, or
    /// both a number and a move (`1.c3-b4`). Returns whether the game ended.
    fn read_word(&mut self, b: &mut Builder) -> Result<bool, Failure> {
        let start = self.pos;
        let mut end = start;
        while self.line.get(end).is_some_and(|&c| !is_delimiter(c)) {
            end += 1;
        }
        let word = &self.line[start..end];
        if word.len() <= 7 {
            let text: String = word.iter().collect();
            if let Some(result) = ResultToken::from_token(&text) {
                self.pos = end;
                b.movetext_started = true;
                b.game.result = Some(result);
                return Ok(true);
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
            b.next = Some((number, color));
            b.movetext_started = true;
            b.after_number = true;
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
                b.game.result = Some(result);
                return Ok(true);
            }
            return self.read_move(b, rest, end).map(|()| false);
        }
        if word.iter().all(|&c| c == '.') {
            // `1. ... b6-c5`: the dots after a number say that Black moves.
            if b.after_number
                && let Some((number, Color::White)) = b.next
            {
                b.next = Some((number, Color::Black));
            }
            self.pos = end;
            return Ok(false);
        }
        self.read_move(b, start, end).map(|()| false)
    }

    /// Takes `line[start..end]` as a move token.
    fn read_move(&mut self, b: &mut Builder, start: usize, end: usize) -> Result<(), Failure> {
        let word = &self.line[start..end];
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
        let (number, color) = match b.next {
            Some((n, c)) => (Some(n), Some(c)),
            None => (None, None),
        };
        b.game.moves.push(RawMove {
            text: word.iter().collect(),
            line: self.line_no,
            column: start + 1,
            number,
            color,
            after: Vec::new(),
        });
        b.next = b.next.and_then(|(n, c)| match c {
            Color::White => Some((n, Color::Black)),
            Color::Black => n.checked_add(1).map(|n| (n, Color::White)),
        });
        b.movetext_started = true;
        b.after_number = false;
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
