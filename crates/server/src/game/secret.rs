//! Secrets and names from outside: seat tokens, invite codes and game ids from the
//! operating system's random numbers, compared in constant time; players' names cleaned.

use subtle::ConstantTimeEq;

/// The longest player name, in characters, wherever a name comes from.
pub const MAX_NAME_CHARS: usize = 40;

/// The operating system gave no random numbers.
#[derive(Debug)]
pub struct NoRandomness;

/// `bytes` random bytes from the operating system, as hex.
pub fn random_hex(bytes: usize) -> Result<String, NoRandomness> {
    let mut buffer = vec![0u8; bytes];
    getrandom::fill(&mut buffer).map_err(|_| NoRandomness)?;
    Ok(buffer.iter().map(|b| format!("{b:02x}")).collect())
}

/// A random bit.
pub fn coin() -> Result<bool, NoRandomness> {
    let mut byte = [0u8; 1];
    getrandom::fill(&mut byte).map_err(|_| NoRandomness)?;
    Ok(byte[0] & 1 == 0)
}

/// A new game id: 12 letters and digits (about 60 bits).
pub fn new_game_id() -> Result<String, NoRandomness> {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut buffer = [0u8; 12];
    getrandom::fill(&mut buffer).map_err(|_| NoRandomness)?;
    Ok(buffer
        .iter()
        .map(|b| ALPHABET[(*b as usize) % ALPHABET.len()] as char)
        .collect())
}

/// Whether `id` could be a game id (so that nothing else reaches the database).
pub fn is_game_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric())
}

/// Compares two tokens in time that does not depend on where they differ.
pub fn same_token(given: &str, stored: &str) -> bool {
    given.len() == stored.len() && bool::from(given.as_bytes().ct_eq(stored.as_bytes()))
}

/// Characters that change how text around them is shown or hide themselves, by their
/// Unicode classes, not by a list of known tricks: every format character (general category
/// Cf: direction overrides and isolates, zero-width characters, the byte-order mark, soft
/// hyphens, tags, interlinear annotations), the line and paragraph separators (Zl, Zp), and
/// the rest of the default-ignorable code points (variation selectors, the combining
/// grapheme joiner, Hangul fillers and the reserved ranges the standard adds to them), and
/// the blank Braille pattern, which shows as nothing.
pub(crate) fn is_hidden_format(c: char) -> bool {
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
    matches!(
        c.general_category(),
        GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
    ) || is_default_ignorable(c)
        || c == '\u{2800}'
}

/// Unicode's Default_Ignorable_Code_Point beyond the format characters: the variation
/// selectors and Other_Default_Ignorable_Code_Point (PropList.txt).
fn is_default_ignorable(c: char) -> bool {
    matches!(c,
        // Variation selectors.
        '\u{180B}'..='\u{180D}'
        | '\u{180F}'
        | '\u{FE00}'..='\u{FE0F}'
        | '\u{E0100}'..='\u{E01EF}'
        // Other_Default_Ignorable_Code_Point.
        | '\u{034F}'
        | '\u{115F}'..='\u{1160}'
        | '\u{17B4}'..='\u{17B5}'
        | '\u{2065}'
        | '\u{3164}'
        | '\u{FFA0}'
        | '\u{FFF0}'..='\u{FFF8}'
        | '\u{E0000}'..='\u{E0FFF}')
}

/// A name as shown: control and hidden formatting characters dropped, runs of white space
/// made one space, trimmed; `None` when nothing is left.
pub fn normalise_name(name: &str) -> Option<String> {
    let mut clean = String::with_capacity(name.len().min(4 * MAX_NAME_CHARS));
    for c in name.chars() {
        if c.is_control() && !c.is_whitespace() || is_hidden_format(c) {
            continue;
        }
        if c.is_whitespace() {
            if !clean.is_empty() && !clean.ends_with(' ') {
                clean.push(' ');
            }
        } else {
            clean.push(c);
        }
    }
    let clean = clean.trim_end().to_string();
    (!clean.is_empty()).then_some(clean)
}

/// A name typed by a player: normalised, and refused when longer than [`MAX_NAME_CHARS`].
pub fn typed_name(name: Option<&str>) -> Result<Option<String>, crate::texts::Text> {
    let Some(name) = name.and_then(normalise_name) else {
        return Ok(None);
    };
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(crate::texts::text!(
            "error-name-long",
            most = MAX_NAME_CHARS as i64
        ));
    }
    Ok(Some(name))
}

/// A name read from a record: normalised and cut to [`MAX_NAME_CHARS`].
pub fn recorded_name(name: &str) -> Option<String> {
    normalise_name(name).map(|n| n.chars().take(MAX_NAME_CHARS).collect())
}

#[cfg(test)]
mod tests {

    /// Issue "abuse, round two", finding 4: each character that was accepted although it
    /// shows as nothing, or changes the text around it.
    #[test]
    fn invisible_and_format_characters_are_hidden_by_their_class() {
        for c in [
            '\u{E0041}',
            '\u{E007F}',
            '\u{3164}',
            '\u{2800}',
            '\u{180E}',
            '\u{034F}',
            '\u{FE0F}',
            '\u{206E}',
            '\u{FFF9}',
            '\u{2028}',
            '\u{2029}',
            '\u{200B}',
            '\u{202E}',
            '\u{FEFF}',
            '\u{00AD}',
            '\u{115F}',
            '\u{FFA0}',
            '\u{E0100}',
        ] {
            assert!(is_hidden_format(c), "U+{:04X}", u32::from(c));
        }
        for c in [
            'a',
            'Я',
            'ё',
            '7',
            '_',
            ' ',
            '\u{265F}',
            '\u{1F600}',
            '\u{0301}',
        ] {
            assert!(!is_hidden_format(c), "U+{:04X}", u32::from(c));
        }
        assert_eq!(
            normalise_name("An\u{E0041}na\u{3164}\u{2028}").as_deref(),
            Some("Anna")
        );
    }

    use super::*;

    #[test]
    fn tokens_compare_exactly() {
        assert!(same_token("abc", "abc"));
        assert!(!same_token("abc", "abd"));
        assert!(!same_token("abc", "abcd"));
    }

    #[test]
    fn names_lose_what_hides_or_reorders_text() {
        assert_eq!(
            normalise_name(" Anna\u{202E}\u{200B} \t Ivanova\u{0007} "),
            Some("Anna Ivanova".into())
        );
        assert_eq!(normalise_name("\u{200D}\u{FEFF}"), None);
        assert_eq!(normalise_name("Иван"), Some("Иван".into()));
        assert!(typed_name(Some(&"x".repeat(41))).is_err());
        assert_eq!(recorded_name(&"y".repeat(80)).map(|n| n.len()), Some(40));
    }
}
