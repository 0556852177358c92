//! Which text encoding a PDN file is read in.

use std::fmt;

use encoding_rs::Encoding;

/// How the reader turns a file's bytes into text.
///
/// [`TextEncoding::AUTO`], the default, reads UTF-8 (with or without a byte order mark),
/// UTF-16 when the file starts with its byte order mark, and a line that is not UTF-8 as
/// Windows-1251, the single-byte encoding of most old Russian files, with a warning for that
/// line. Choosing an encoding ([`TextEncoding::from_label`]) reads every line in it; a byte
/// order mark at the start still wins, as it says what the file is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TextEncoding(Kind);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Auto,
    Utf8,
    Utf16 { little_endian: bool },
    Legacy(&'static Encoding),
}

/// How the bytes of one line are decoded, once the start of the file has been seen.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum LineDecoding {
    /// UTF-8; with a fallback, a line that is not UTF-8 is read in that encoding.
    Utf8 { fallback: Option<&'static Encoding> },
    /// UTF-16: lines end at the code unit 0x000A.
    Utf16 { little_endian: bool },
    /// An ASCII-compatible legacy encoding.
    Legacy(&'static Encoding),
}

impl TextEncoding {
    /// UTF-8 or UTF-16 by the byte order mark; lines that are not UTF-8 read as Windows-1251.
    pub const AUTO: TextEncoding = TextEncoding(Kind::Auto);
    /// UTF-8 only: a line that is not UTF-8 is an error.
    pub const UTF8: TextEncoding = TextEncoding(Kind::Utf8);

    /// The encoding of a label: `auto`, `utf-8`, `utf-16le`, `utf-16be`, `windows-1251`
    /// (also `cp1251`), `koi8-r`, `ibm866` (also `cp866`) and the other labels of the WHATWG
    /// Encoding Standard whose encodings keep ASCII as it is (any case).
    pub fn from_label(label: &str) -> Option<TextEncoding> {
        let label = label.trim();
        if label.eq_ignore_ascii_case("auto") {
            return Some(TextEncoding::AUTO);
        }
        let encoding = Encoding::for_label(label.as_bytes())?;
        Some(TextEncoding(if encoding == encoding_rs::UTF_8 {
            Kind::Utf8
        } else if encoding == encoding_rs::UTF_16LE {
            Kind::Utf16 {
                little_endian: true,
            }
        } else if encoding == encoding_rs::UTF_16BE {
            Kind::Utf16 {
                little_endian: false,
            }
        } else if encoding.is_ascii_compatible() && encoding != encoding_rs::REPLACEMENT {
            Kind::Legacy(encoding)
        } else {
            return None;
        }))
    }

    /// The encoding's name: `auto`, `UTF-8`, `UTF-16LE`, `windows-1251` and so on.
    pub fn name(self) -> &'static str {
        match self.0 {
            Kind::Auto => "auto",
            Kind::Utf8 => "UTF-8",
            Kind::Utf16 {
                little_endian: true,
            } => "UTF-16LE",
            Kind::Utf16 {
                little_endian: false,
            } => "UTF-16BE",
            Kind::Legacy(encoding) => encoding.name(),
        }
    }

    /// How lines are decoded, given the file's first bytes; and how many of them are a byte
    /// order mark to skip.
    pub(crate) fn start(self, first: &[u8]) -> (LineDecoding, usize) {
        if first.starts_with(b"\xEF\xBB\xBF") {
            let fallback = (self.0 == Kind::Auto).then_some(encoding_rs::WINDOWS_1251);
            return (LineDecoding::Utf8 { fallback }, 3);
        }
        if first.starts_with(b"\xFF\xFE") {
            return (
                LineDecoding::Utf16 {
                    little_endian: true,
                },
                2,
            );
        }
        if first.starts_with(b"\xFE\xFF") {
            return (
                LineDecoding::Utf16 {
                    little_endian: false,
                },
                2,
            );
        }
        let decoding = match self.0 {
            Kind::Auto => LineDecoding::Utf8 {
                fallback: Some(encoding_rs::WINDOWS_1251),
            },
            Kind::Utf8 => LineDecoding::Utf8 { fallback: None },
            Kind::Utf16 { little_endian } => LineDecoding::Utf16 { little_endian },
            Kind::Legacy(encoding) => LineDecoding::Legacy(encoding),
        };
        (decoding, 0)
    }
}

impl Default for TextEncoding {
    fn default() -> Self {
        TextEncoding::AUTO
    }
}

impl fmt::Display for TextEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_name_their_encodings() {
        for (label, name) in [
            ("auto", "auto"),
            ("utf-8", "UTF-8"),
            ("UTF8", "UTF-8"),
            ("utf-16le", "UTF-16LE"),
            ("utf-16be", "UTF-16BE"),
            ("windows-1251", "windows-1251"),
            ("cp1251", "windows-1251"),
            ("koi8-r", "KOI8-R"),
            ("cp866", "IBM866"),
        ] {
            assert_eq!(
                TextEncoding::from_label(label).map(|e| e.name()),
                Some(name)
            );
        }
        assert_eq!(TextEncoding::from_label("klingon"), None);
        assert_eq!(TextEncoding::from_label("iso-2022-jp"), None);
    }

    #[test]
    fn a_byte_order_mark_wins() {
        let cp1251 = TextEncoding::from_label("cp1251").expect("label");
        assert_eq!(
            cp1251.start(b"\xFF\xFE[\x00"),
            (
                LineDecoding::Utf16 {
                    little_endian: true
                },
                2
            )
        );
        assert_eq!(
            cp1251.start(b"[Event"),
            (LineDecoding::Legacy(encoding_rs::WINDOWS_1251), 0)
        );
        assert_eq!(
            TextEncoding::AUTO.start(b"\xEF\xBB\xBF["),
            (
                LineDecoding::Utf8 {
                    fallback: Some(encoding_rs::WINDOWS_1251)
                },
                3
            )
        );
    }
}
