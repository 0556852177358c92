//! Reading text one line at a time, with a bound on how long a line may be: a line longer
//! than the bound is skipped as it is read, without ever being held in memory, so that
//! endless input without a line break cannot use up the memory of the program reading it.
//!
//! The engine's standard input, the engine output that [`crate::ExternalEngine`] reads, and
//! the positions `bashni moves` reads all go through [`LineReader`].

use std::fmt;
use std::io::{self, BufRead, ErrorKind, Read};

/// The longest line [`LineReader::new`] takes: 64 KiB (65,536 bytes), not counting the line
/// break. A protocol line, even a `pos` with a long game, is a few kilobytes at most.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// How many characters of a skipped line [`LineTooLong::start`] keeps.
const START_CHARS: usize = 32;

/// A line that was longer than the reader's limit, and was skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineTooLong {
    /// The line's number (from 1).
    pub number: u64,
    /// The line's length in bytes, not counting the line break.
    pub length: u64,
    /// The longest line the reader takes, in bytes.
    pub limit: usize,
    /// The first characters of the line (at most 32), to recognise it by.
    pub start: String,
}

impl fmt::Display for LineTooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {} is too long: {} bytes, and the limit is {} bytes; it was skipped",
            self.number, self.length, self.limit
        )
    }
}

impl std::error::Error for LineTooLong {}

/// Reads lines from `R` and counts them, skipping those longer than its limit.
///
/// A line ends at `\n`, and a `\r` just before it is left out too; the last line need not
/// end with a line break. Bytes that are not UTF-8 are read as `U+FFFD`, the replacement
/// character. It never reads more than the limit (and two bytes) of one line into memory.
///
/// ```
/// use bashni_protocol::LineReader;
///
/// let input = "ping\r\nxxxxxxxxxx\nquit".as_bytes();
/// let mut lines = LineReader::with_limit(input, 8).map(|line| line.expect("read"));
/// assert_eq!(lines.next(), Some(Ok("ping".to_string())));
/// let too_long = lines.next().expect("a line").expect_err("too long");
/// assert_eq!((too_long.number, too_long.length), (2, 10));
/// assert_eq!(
///     too_long.to_string(),
///     "line 2 is too long: 10 bytes, and the limit is 8 bytes; it was skipped"
/// );
/// assert_eq!(lines.next(), Some(Ok("quit".to_string())));
/// assert_eq!(lines.next(), None);
/// ```
#[derive(Debug)]
pub struct LineReader<R> {
    input: R,
    limit: usize,
    /// The number of the last line read.
    number: u64,
    buffer: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    /// A reader of lines of at most [`MAX_LINE_BYTES`].
    pub fn new(input: R) -> LineReader<R> {
        LineReader::with_limit(input, MAX_LINE_BYTES)
    }

    /// A reader of lines of at most `limit` bytes, not counting the line break.
    pub fn with_limit(input: R, limit: usize) -> LineReader<R> {
        LineReader {
            input,
            limit,
            number: 0,
            buffer: Vec::new(),
        }
    }

    /// The longest line the reader takes, in bytes.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// The number of the last line read (from 1; 0 before the first).
    pub fn line_number(&self) -> u64 {
        self.number
    }

    /// The next line: `None` at the end of the input, `Some(Err(_))` when reading fails,
    /// `Some(Ok(Err(_)))` for a line longer than the limit, which has been skipped.
    pub fn read_line(&mut self) -> Option<io::Result<Result<String, LineTooLong>>> {
        self.buffer.clear();
        // Room for the longest line, a `\r` and a `\n`: a line that fills it without
        // ending is too long.
        let most = self.limit.saturating_add(2);
        let read = (&mut self.input)
            .take(u64::try_from(most).unwrap_or(u64::MAX))
            .read_until(b'\n', &mut self.buffer);
        match read {
            Ok(0) => return None,
            Ok(_) => {}
            Err(error) => return Some(Err(error)),
        }
        self.number = self.number.saturating_add(1);
        let ended = self.buffer.last() == Some(&b'\n');
        let length = if !ended && self.buffer.len() >= most {
            // Too long: the rest of the line is read and dropped.
            match self.skip_rest() {
                Ok((rest, cr)) => (self.buffer.len() as u64)
                    .saturating_add(rest)
                    .saturating_sub(u64::from(cr)),
                Err(error) => return Some(Err(error)),
            }
        } else {
            if ended {
                self.buffer.pop();
                if self.buffer.last() == Some(&b'\r') {
                    self.buffer.pop();
                }
            }
            self.buffer.len() as u64
        };
        if length > self.limit as u64 {
            return Some(Ok(Err(LineTooLong {
                number: self.number,
                length,
                limit: self.limit,
                start: start_of(&self.buffer),
            })));
        }
        Some(Ok(Ok(String::from_utf8_lossy(&self.buffer).into_owned())))
    }

    /// Reads and drops the rest of a line that filled the buffer, its line break included.
    /// Returns how many bytes were dropped before the line break, and whether the byte just
    /// before the line break (dropped or in the buffer) is a `\r`, which is not part of the
    /// line.
    fn skip_rest(&mut self) -> io::Result<(u64, bool)> {
        let mut dropped: u64 = 0;
        // Whether the last byte read was a `\r`, which is not part of the line if the line
        // break comes next.
        let mut after_cr = self.buffer.last() == Some(&b'\r');
        loop {
            let available = match self.input.fill_buf() {
                Ok(available) => available,
                Err(error) if error.kind() == ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            };
            if available.is_empty() {
                return Ok((dropped, false));
            }
            match available.iter().position(|&b| b == b'\n') {
                Some(at) => {
                    if at > 0 {
                        after_cr = available[at - 1] == b'\r';
                    }
                    self.input.consume(at + 1);
                    return Ok((dropped.saturating_add(at as u64), after_cr));
                }
                None => {
                    let count = available.len();
                    after_cr = available[count - 1] == b'\r';
                    self.input.consume(count);
                    dropped = dropped.saturating_add(count as u64);
                }
            }
        }
    }
}

/// The first [`START_CHARS`] characters of the start of a line, without a character cut in
/// two at the end.
fn start_of(bytes: &[u8]) -> String {
    // No character takes more than four bytes.
    let mut bytes = &bytes[..bytes.len().min(4 * START_CHARS)];
    if let Err(error) = std::str::from_utf8(bytes)
        && error.error_len().is_none()
    {
        bytes = &bytes[..error.valid_up_to()];
    }
    String::from_utf8_lossy(bytes)
        .chars()
        .take(START_CHARS)
        .collect()
}

/// The lines, as [`LineReader::read_line`] gives them.
impl<R: BufRead> Iterator for LineReader<R> {
    type Item = io::Result<Result<String, LineTooLong>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.read_line()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// Every line `input` gives with `limit`: the text, or the number and length of a line
    /// that was too long.
    fn lines(input: &[u8], limit: usize) -> Vec<Result<String, (u64, u64)>> {
        LineReader::with_limit(Cursor::new(input.to_vec()), limit)
            .map(|line| {
                line.expect("a cursor never fails")
                    .map_err(|long| (long.number, long.length))
            })
            .collect()
    }

    #[test]
    fn lines_up_to_the_limit_are_read_and_longer_ones_skipped() {
        assert_eq!(
            lines(b"abcd\nabcde\n\nab\r\nabcd\r\nabcde\r\nxyz", 4),
            [
                Ok("abcd".to_string()),
                Err((2, 5)),
                Ok(String::new()),
                Ok("ab".to_string()),
                Ok("abcd".to_string()),
                Err((6, 5)),
                Ok("xyz".to_string()),
            ]
        );
        // The last line, too long and without a line break.
        assert_eq!(lines(b"ok\nabcde", 4), [Ok("ok".to_string()), Err((2, 5))]);
        assert_eq!(lines(b"abcdef", 4), [Err((1, 6))]);
        assert_eq!(lines(b"abcde\r", 4), [Err((1, 6))]);
        assert_eq!(lines(b"", 4), []);
        assert_eq!(lines(b"\n", 4), [Ok(String::new())]);
        // A `\r` that is not before the line break counts.
        assert_eq!(lines(b"abc\rd\n", 4), [Err((1, 5))]);
        assert_eq!(lines(b"abc\r\n", 3), [Ok("abc".to_string())]);
        assert_eq!(lines(b"abcd\r\r\n", 4), [Err((1, 5))]);
        // Not UTF-8.
        assert_eq!(lines(b"a\xffb\n", 4), [Ok("a\u{fffd}b".to_string())]);
    }

    #[test]
    fn a_long_line_is_counted_whatever_the_buffer_sizes() {
        let mut text = vec![b'x'; 100_000];
        text.extend_from_slice(b"\r\nnext\n");
        for capacity in [1, 3, 7, 8192] {
            for limit in [0, 1, 5, 99_999, 100_000] {
                let reader = io::BufReader::with_capacity(capacity, Cursor::new(text.clone()));
                let got: Vec<_> = LineReader::with_limit(reader, limit)
                    .map(|line| line.expect("read").map_err(|long| long.length))
                    .collect();
                let first = if limit >= 100_000 {
                    Ok("x".repeat(100_000))
                } else {
                    Err(100_000)
                };
                let next = if limit >= 4 {
                    Ok("next".to_string())
                } else {
                    Err(4)
                };
                assert_eq!(got, [first, next], "capacity {capacity}, limit {limit}");
            }
        }
    }

    #[test]
    fn a_huge_line_is_skipped_without_being_held() {
        // 100 MB of one line without a break, then a good line.
        let huge = io::repeat(b'p').take(100_000_000);
        let input = io::BufReader::new(huge.chain(&b"\nping\n"[..]));
        let mut reader = LineReader::with_limit(input, 1024);
        let too_long = reader
            .next()
            .expect("a line")
            .expect("read")
            .expect_err("too long");
        assert_eq!(too_long.number, 1);
        assert_eq!(too_long.length, 100_000_000);
        assert_eq!(too_long.limit, 1024);
        assert_eq!(too_long.start, "p".repeat(32));
        assert!(
            reader.buffer.capacity() <= 4 * 1024,
            "{}",
            reader.buffer.capacity()
        );
        assert_eq!(
            reader.next().expect("a line").expect("read"),
            Ok("ping".to_string())
        );
        assert_eq!(reader.line_number(), 2);
        assert!(reader.next().is_none());
    }

    #[test]
    fn the_start_of_a_long_line_keeps_whole_characters() {
        let text = "é".repeat(100);
        let mut reader = LineReader::with_limit(Cursor::new(text.clone()), 150);
        let too_long = reader
            .next()
            .expect("a line")
            .expect("read")
            .expect_err("too long");
        assert_eq!(too_long.start, "é".repeat(32));
        assert_eq!(too_long.length, 200);
        // The reader holds 11 bytes of the line: five characters and half of one.
        let text = format!("a{text}");
        let mut reader = LineReader::with_limit(Cursor::new(text), 9);
        let too_long = reader
            .next()
            .expect("a line")
            .expect("read")
            .expect_err("too long");
        assert_eq!(too_long.start, format!("a{}", "é".repeat(5)));
        assert_eq!(too_long.length, 201);
    }

    #[test]
    fn the_default_limit_is_64_kib() {
        let mut text = "a".repeat(MAX_LINE_BYTES);
        text.push('\n');
        text.push_str(&"b".repeat(MAX_LINE_BYTES + 1));
        let mut reader = LineReader::new(Cursor::new(text));
        assert_eq!(reader.limit(), 65_536);
        assert_eq!(
            reader
                .next()
                .expect("a line")
                .expect("read")
                .map(|l| l.len()),
            Ok(MAX_LINE_BYTES)
        );
        let too_long = reader
            .next()
            .expect("a line")
            .expect("read")
            .expect_err("too long");
        assert_eq!((too_long.number, too_long.length), (2, 65_537));
    }
}
