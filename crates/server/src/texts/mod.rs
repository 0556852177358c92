//! What players read, in their language: the catalogues (Fluent files in
//! `crates/server/locales`, one per language, which the page reads too) and the language a
//! request asks for. Plural forms come from the Fluent library and the languages' rules.

use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

/// The catalogues, one per language: the language's code and the file's text.
pub const CATALOGUES: &[(&str, &str)] = &[
    ("en", include_str!("../../locales/en.ftl")),
    ("ru", include_str!("../../locales/ru.ftl")),
];

/// A language the site speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Language {
    /// English, the language of the API's words and of the log.
    #[default]
    English,
    /// Russian.
    Russian,
}

impl Language {
    /// The language's code (`en`, `ru`).
    pub fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Russian => "ru",
        }
    }

    /// The language with the code `code` (`en`, `ru`).
    pub fn from_code(code: &str) -> Option<Language> {
        match code {
            "en" => Some(Language::English),
            "ru" => Some(Language::Russian),
            _ => None,
        }
    }

    /// The language of a request: its `lang` query parameter when the site speaks it (a
    /// socket, whose browser cannot set headers, names the page's language so), otherwise
    /// its `Accept-Language` header.
    pub fn of_request(query: Option<&str>, accept: Option<&str>) -> Language {
        query
            .into_iter()
            .flat_map(|q| q.split('&'))
            .find_map(|pair| pair.strip_prefix("lang=").and_then(Language::from_code))
            .unwrap_or_else(|| accept.map_or_else(Language::default, Language::from_accept))
    }

    /// The language an `Accept-Language` header asks for: the first of its languages (by
    /// weight, then order) the site speaks; English when none.
    pub fn from_accept(header: &str) -> Language {
        let mut wanted: Vec<(f32, usize, &str)> = header
            .split(',')
            .enumerate()
            .filter_map(|(order, part)| {
                let mut pieces = part.split(';');
                let tag = pieces.next()?.trim();
                let weight = pieces
                    .find_map(|p| p.trim().strip_prefix("q="))
                    .map_or(Some(1.0), |q| q.trim().parse::<f32>().ok())?;
                (weight > 0.0 && !tag.is_empty()).then_some((weight, order, tag))
            })
            .collect();
        wanted.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        wanted
            .iter()
            .find_map(|(_, _, tag)| {
                let primary = tag.split(['-', '_']).next()?.to_ascii_lowercase();
                match primary.as_str() {
                    "ru" => Some(Language::Russian),
                    "en" => Some(Language::English),
                    _ => None,
                }
            })
            .unwrap_or_default()
    }
}

type Bundle = FluentBundle<FluentResource>;

fn bundle(code: &str, source: &str) -> Bundle {
    let language = code.parse().unwrap_or_default();
    let mut bundle = FluentBundle::new_concurrent(vec![language]);
    bundle.set_use_isolating(false);
    match FluentResource::try_new(source.to_string()) {
        Ok(resource) => {
            if let Err(errors) = bundle.add_resource(resource) {
                tracing::error!(language = code, "texts: {errors:?}");
            }
        }
        Err((resource, errors)) => {
            tracing::error!(language = code, "texts: {errors:?}");
            let _ = bundle.add_resource(resource);
        }
    }
    bundle
}

static BUNDLES: LazyLock<Vec<(Language, Bundle)>> = LazyLock::new(|| {
    [Language::English, Language::Russian]
        .into_iter()
        .filter_map(|language| {
            let (code, source) = CATALOGUES
                .iter()
                .find(|(code, _)| *code == language.code())?;
            Some((language, bundle(code, source)))
        })
        .collect()
});

/// A text of the catalogues: `text!("id")`, or `text!("id", name = value, ...)` where each
/// value becomes an [`Arg`].
macro_rules! text {
    ($id:literal) => {
        $crate::texts::Text::new($id, Vec::new())
    };
    ($id:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::texts::Text::new(
            $id,
            vec![$((stringify!($name), $crate::texts::Arg::from($value))),+],
        )
    };
}
pub(crate) use text;

/// A value put into a text: a word or a whole number (numbers choose plural forms).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// Text, shown as it is.
    Text(String),
    /// A whole number.
    Number(i64),
}

impl From<&str> for Arg {
    fn from(text: &str) -> Arg {
        Arg::Text(text.to_string())
    }
}

impl From<String> for Arg {
    fn from(text: String) -> Arg {
        Arg::Text(text)
    }
}

impl From<u64> for Arg {
    fn from(n: u64) -> Arg {
        Arg::Number(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl From<usize> for Arg {
    fn from(n: usize) -> Arg {
        Arg::Number(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl From<i64> for Arg {
    fn from(n: i64) -> Arg {
        Arg::Number(n)
    }
}

impl From<u32> for Arg {
    fn from(n: u32) -> Arg {
        Arg::Number(i64::from(n))
    }
}

/// A text to show: the id of its message and the values put into it. It is made into words
/// only when the reader's language is known.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Text {
    /// The message's id in the catalogues.
    pub id: &'static str,
    /// The values by name.
    pub args: Vec<(&'static str, Arg)>,
}

impl Text {
    /// The message `id` with `args`.
    pub fn new(id: &'static str, args: Vec<(&'static str, Arg)>) -> Text {
        Text { id, args }
    }

    /// Words of the API, the same in every language (for what only a program sends wrong).
    pub fn api_words(words: impl Into<String>) -> Text {
        text!("api-words", words = words.into())
    }

    /// The words in `language`; the English ones when that language lacks the message, and
    /// the id itself when no catalogue has it.
    pub fn words(&self, language: Language) -> String {
        let mut args = FluentArgs::new();
        for (name, value) in &self.args {
            match value {
                Arg::Text(text) => args.set(*name, FluentValue::from(text.as_str())),
                Arg::Number(n) => args.set(*name, FluentValue::from(*n)),
            }
        }
        for wanted in [language, Language::English] {
            let Some((_, bundle)) = BUNDLES.iter().find(|(l, _)| *l == wanted) else {
                continue;
            };
            if let Some(pattern) = bundle.get_message(self.id).and_then(|m| m.value()) {
                let mut errors = Vec::new();
                let words = bundle.format_pattern(pattern, Some(&args), &mut errors);
                if !errors.is_empty() {
                    tracing::warn!(id = self.id, "texts: {errors:?}");
                }
                return words.into_owned();
            }
        }
        tracing::warn!(id = self.id, "texts: no such message");
        self.id.to_string()
    }
}

impl std::fmt::Display for Text {
    /// The English words.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.words(Language::English))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn ids(source: &str) -> BTreeSet<String> {
        let resource = FluentResource::try_new(source.to_string())
            .unwrap_or_else(|(_, errors)| panic!("a catalogue does not parse: {errors:?}"));
        resource
            .entries()
            .filter_map(|entry| match entry {
                fluent_syntax::ast::Entry::Message(message) => Some(message.id.name.to_string()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn every_language_has_every_message() {
        let english = ids(CATALOGUES[0].1);
        assert!(english.len() > 50);
        for (code, source) in CATALOGUES {
            let theirs = ids(source);
            let lacking: Vec<_> = english.difference(&theirs).collect();
            let extra: Vec<_> = theirs.difference(&english).collect();
            assert!(lacking.is_empty(), "{code}.ftl lacks {lacking:?}");
            assert!(
                extra.is_empty(),
                "{code}.ftl has what en.ftl lacks: {extra:?}"
            );
        }
    }

    /// The ids the server's code names in `text!("id"...)` and `Text::new("id"...)`.
    fn ids_named_in(dir: &std::path::Path, found: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).expect("the sources read") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                ids_named_in(&path, found);
                continue;
            }
            // This file names ids only in its documentation and tests.
            if path.extension().is_none_or(|e| e != "rs") || path.ends_with("texts/mod.rs") {
                continue;
            }
            let source = std::fs::read_to_string(&path).expect("a source reads");
            for opening in ["text!(", "Text::new("] {
                for (at, _) in source.match_indices(opening) {
                    let rest = source[at + opening.len()..].trim_start();
                    let Some(quoted) = rest.strip_prefix('"') else {
                        continue;
                    };
                    let id: String = quoted.chars().take_while(|&c| c != '"').collect();
                    found.push((id, path.display().to_string()));
                }
            }
        }
    }

    #[test]
    fn every_message_the_server_names_is_in_the_catalogues() {
        let english = ids(CATALOGUES[0].1);
        let mut named = Vec::new();
        ids_named_in(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut named,
        );
        assert!(named.len() > 50, "only {} ids found", named.len());
        let missing: Vec<_> = named
            .iter()
            .filter(|(id, _)| !english.contains(id))
            .collect();
        assert!(missing.is_empty(), "not in en.ftl: {missing:?}");
    }

    #[test]
    fn the_language_is_the_first_wanted_the_site_speaks() {
        assert_eq!(
            Language::from_accept("ru-RU,ru;q=0.9,en;q=0.8"),
            Language::Russian
        );
        assert_eq!(Language::from_accept("de-DE, ru;q=0.5"), Language::Russian);
        assert_eq!(
            Language::from_accept("en;q=0.4, ru;q=0.9"),
            Language::Russian
        );
        assert_eq!(Language::from_accept("fr, de"), Language::English);
        assert_eq!(Language::from_accept(""), Language::English);
        assert_eq!(Language::from_accept("ru;q=0"), Language::English);
        assert_eq!(Language::from_accept(";;,,q=x"), Language::English);
    }

    #[test]
    fn numbers_choose_the_languages_plural_form() {
        let moves = |n: u64, language| {
            Text::new("game-item-moves", vec![("moves", n.into())]).words(language)
        };
        assert_eq!(moves(1, Language::Russian), "1 ход");
        assert_eq!(moves(3, Language::Russian), "3 хода");
        assert_eq!(moves(11, Language::Russian), "11 ходов");
        assert_eq!(moves(21, Language::Russian), "21 ход");
        assert_eq!(moves(2, Language::English), "2 moves");
        assert_eq!(
            Text::new("no-such-message", vec![]).words(Language::Russian),
            "no-such-message"
        );
    }
}
