//! The syntax every line of the protocol shares, in both directions: a command word, then
//! arguments `name=value` or a bare `name` (a flag). It knows nothing of what the commands
//! mean.

use std::fmt;

/// One line of the protocol: a command word and its arguments, in order.
///
/// ```
/// use bashni_protocol::Line;
///
/// let line = Line::parse(r#"pos pos="White: c3 0; Black: f6 0; White to move" moves="c3-d4""#)
///     .expect("well formed")
///     .expect("not blank");
/// assert_eq!(line.command(), "pos");
/// assert_eq!(line.get("moves"), Some("c3-d4"));
/// assert_eq!(Line::new("go").flag("think").to_string(), "go think");
/// assert_eq!(Line::new("info").arg("pv", "c3-d4 f6-e5").to_string(), r#"info pv="c3-d4 f6-e5""#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Line {
    command: String,
    args: Vec<(String, Option<String>)>,
}

/// Why a line could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Character offset (0-based) of the problem.
    pub at: usize,
    /// What is wrong.
    pub message: &'static str,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.at + 1, self.message)
    }
}

impl std::error::Error for SyntaxError {}

impl Line {
    /// A line with `command` and no arguments yet.
    pub fn new(command: impl Into<String>) -> Line {
        Line {
            command: command.into(),
            args: Vec::new(),
        }
    }

    /// Adds the argument `name=value`.
    pub fn arg(mut self, name: impl Into<String>, value: impl ToString) -> Line {
        self.args.push((name.into(), Some(value.to_string())));
        self
    }

    /// Adds the flag `name` (an argument without a value).
    pub fn flag(mut self, name: impl Into<String>) -> Line {
        self.args.push((name.into(), None));
        self
    }

    /// The command word.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// The value of the argument `name` (the last one if it is repeated); `Some("")` for a
    /// flag.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, value)| value.as_deref().unwrap_or(""))
    }

    /// Whether the argument or flag `name` is present.
    pub fn has(&self, name: &str) -> bool {
        self.args.iter().any(|(n, _)| n == name)
    }

    /// The arguments in order: each name, and its value unless it is a flag.
    pub fn args(&self) -> impl Iterator<Item = (&str, Option<&str>)> {
        self.args.iter().map(|(n, v)| (n.as_str(), v.as_deref()))
    }

    /// Reads one line. A blank line is `Ok(None)`.
    pub fn parse(text: &str) -> Result<Option<Line>, SyntaxError> {
        let chars: Vec<char> = text.chars().collect();
        let mut at = 0;
        let skip_space = |at: &mut usize| {
            while chars.get(*at).is_some_and(|c| c.is_whitespace()) {
                *at += 1;
            }
        };
        skip_space(&mut at);
        if at == chars.len() {
            return Ok(None);
        }
        let start = at;
        while chars.get(at).is_some_and(|c| !c.is_whitespace()) {
            if chars[at] == '"' {
                return Err(SyntaxError {
                    at,
                    message: "a quote in the command word",
                });
            }
            at += 1;
        }
        let mut line = Line::new(chars[start..at].iter().collect::<String>());
        loop {
            skip_space(&mut at);
            if at == chars.len() {
                return Ok(Some(line));
            }
            let start = at;
            while chars
                .get(at)
                .is_some_and(|&c| !c.is_whitespace() && c != '=')
            {
                if chars[at] == '"' {
                    return Err(SyntaxError {
                        at,
                        message: "a quote in an argument name",
                    });
                }
                at += 1;
            }
            if at == start {
                return Err(SyntaxError {
                    at,
                    message: "`=` without an argument name before it",
                });
            }
            let name: String = chars[start..at].iter().collect();
            if chars.get(at) != Some(&'=') {
                line.args.push((name, None));
                continue;
            }
            at += 1;
            let value = if chars.get(at) == Some(&'"') {
                let open = at;
                at += 1;
                let start = at;
                while chars.get(at).is_some_and(|&c| c != '"') {
                    at += 1;
                }
                if at == chars.len() {
                    return Err(SyntaxError {
                        at: open,
                        message: "a quote that is never closed",
                    });
                }
                let value: String = chars[start..at].iter().collect();
                at += 1;
                if chars.get(at).is_some_and(|c| !c.is_whitespace()) {
                    return Err(SyntaxError {
                        at,
                        message: "a space after the closing quote",
                    });
                }
                value
            } else {
                let start = at;
                while chars.get(at).is_some_and(|c| !c.is_whitespace()) {
                    if chars[at] == '"' {
                        return Err(SyntaxError {
                            at,
                            message: "a quote inside an unquoted value",
                        });
                    }
                    at += 1;
                }
                chars[start..at].iter().collect()
            };
            line.args.push((name, Some(value)));
        }
    }
}

/// Writes a value, quoted when it is empty or holds a space, `=` or a quote. A quoted value
/// cannot hold a quote or a line break, so those become `'` and a space.
fn write_value(value: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let plain = !value.is_empty()
        && !value
            .chars()
            .any(|c| c.is_whitespace() || c == '=' || c == '"');
    if plain {
        return f.write_str(value);
    }
    f.write_str("\"")?;
    for c in value.chars() {
        match c {
            '"' => f.write_str("'")?,
            c if c.is_whitespace() => f.write_str(" ")?,
            c => write!(f, "{c}")?,
        }
    }
    f.write_str("\"")
}

/// Writes the line as the protocol sends it, without the line break.
impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.command)?;
        for (name, value) in &self.args {
            write!(f, " {name}")?;
            if let Some(value) = value {
                f.write_str("=")?;
                write_value(value, f)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Line {
        Line::parse(text).expect("well formed").expect("not blank")
    }

    #[test]
    fn reads_commands_values_quotes_and_flags() {
        let line = parse(r#"  level   depth=4 infinite time="1.5"  empty="" last=x=y "#);
        assert_eq!(line.command(), "level");
        assert_eq!(line.get("depth"), Some("4"));
        assert_eq!(line.get("infinite"), Some(""));
        assert!(line.has("infinite"));
        assert!(!line.has("nodes"));
        assert_eq!(line.get("time"), Some("1.5"));
        assert_eq!(line.get("empty"), Some(""));
        assert_eq!(line.get("last"), Some("x=y"));
        assert_eq!(line.args().count(), 5);
        assert_eq!(parse("go think think=no").get("think"), Some("no"));
        assert_eq!(Line::parse(" \t ").expect("blank"), None);
        assert_eq!(parse("pong").command(), "pong");
    }

    #[test]
    fn refuses_broken_quotes_and_names() {
        for (text, at) in [
            (r#"pos pos="White: c3 0"#, 8),
            (r#"pos pos="a"b"#, 11),
            (r#"pos pos=a"b"#, 9),
            ("pos =x", 4),
            (r#"pos "pos"=x"#, 4),
            (r#"p"os"#, 1),
        ] {
            let error = Line::parse(text).expect_err(text);
            assert_eq!(error.at, at, "{text}: {error}");
        }
    }

    #[test]
    fn writes_what_it_reads() {
        let line = Line::new("error")
            .arg("message", "bad \"move\"\nhere")
            .arg("plain", "c3-d4")
            .arg("fen", "W:Wc1=1/0000:Bb8")
            .arg("empty", "")
            .flag("infinite");
        let text = line.to_string();
        assert_eq!(
            text,
            r#"error message="bad 'move' here" plain=c3-d4 fen="W:Wc1=1/0000:Bb8" empty="" infinite"#
        );
        let back = parse(&text);
        assert_eq!(back.get("message"), Some("bad 'move' here"));
        assert_eq!(back.get("fen"), Some("W:Wc1=1/0000:Bb8"));
        assert_eq!(back.get("empty"), Some(""));
        assert!(back.has("infinite"));
    }
}
