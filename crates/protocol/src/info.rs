//! What an `info` line says about a search, and the text of scores, in both directions.

use std::time::Duration;

use bashni_engine::{Info, Score};

use crate::line::Line;

/// The contents of an `info` line. Every field is optional: an engine sends what it knows,
/// and a reader keeps what it understands.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SearchInfo {
    /// Depth completed, in plies.
    pub depth: Option<u32>,
    /// Deepest ply reached, captures included.
    pub seldepth: Option<u32>,
    /// Average depth of the leaves (some engines send it; ours does not).
    pub mean_depth: Option<f64>,
    /// Which line of a multi-line analysis (1 = best).
    pub multipv: Option<usize>,
    /// The line's score for the side to move.
    pub score: Option<Score>,
    /// Nodes searched so far.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Time since the search began.
    pub time: Option<Duration>,
    /// The line's moves, as written.
    pub pv: Vec<String>,
}

/// Writes a score: `37` or `-120` (hundredths of a man), `win 7` or `loss 4` (plies).
pub fn write_score(score: Score) -> String {
    score.to_string()
}

/// Reads a score written by [`write_score`].
///
/// ```
/// use bashni_engine::Score;
/// use bashni_protocol::{parse_score, write_score};
///
/// assert_eq!(parse_score("-35"), Some(Score::Value(-35)));
/// assert_eq!(parse_score("win 7"), Some(Score::WinIn(7)));
/// assert_eq!(write_score(Score::LossIn(4)), "loss 4");
/// assert_eq!(parse_score("0.35"), None);
/// ```
pub fn parse_score(text: &str) -> Option<Score> {
    let mut words = text.split_whitespace();
    let first = words.next()?;
    let score = match first {
        "win" => Score::WinIn(words.next()?.parse().ok()?),
        "loss" => Score::LossIn(words.next()?.parse().ok()?),
        value => Score::Value(value.parse().ok()?),
    };
    words.next().is_none().then_some(score)
}

/// Seconds with three decimals, as every time of the protocol is written.
pub(crate) fn write_seconds(time: Duration) -> String {
    format!("{:.3}", time.as_secs_f64())
}

/// Reads a time in seconds: a number, whole or decimal, not negative.
pub(crate) fn parse_seconds(text: &str) -> Option<Duration> {
    let seconds: f64 = text.parse().ok()?;
    if !seconds.is_finite() || seconds < 0.0 {
        return None;
    }
    Duration::try_from_secs_f64(seconds).ok()
}

impl SearchInfo {
    /// What the engine reported after a depth.
    pub fn from_engine(info: &Info) -> SearchInfo {
        SearchInfo {
            depth: Some(info.depth),
            seldepth: Some(info.seldepth),
            mean_depth: None,
            multipv: Some(info.multipv),
            score: Some(info.score),
            nodes: Some(info.nodes),
            nps: Some(info.nps),
            time: Some(info.time),
            pv: info.pv.iter().map(ToString::to_string).collect(),
        }
    }

    /// The `info` line, with the fields that are known.
    pub fn to_line(&self) -> Line {
        let mut line = Line::new("info");
        if let Some(depth) = self.depth {
            line = line.arg("depth", depth);
        }
        if let Some(seldepth) = self.seldepth {
            line = line.arg("seldepth", seldepth);
        }
        if let Some(mean_depth) = self.mean_depth {
            line = line.arg("mean-depth", format!("{mean_depth:.1}"));
        }
        if let Some(multipv) = self.multipv {
            line = line.arg("multipv", multipv);
        }
        if let Some(score) = self.score {
            line = line.arg("score", write_score(score));
        }
        if let Some(nodes) = self.nodes {
            line = line.arg("nodes", nodes);
        }
        if let Some(nps) = self.nps {
            line = line.arg("nps", nps);
        }
        if let Some(time) = self.time {
            line = line.arg("time", write_seconds(time));
        }
        if !self.pv.is_empty() {
            line = line.arg("pv", self.pv.join(" "));
        }
        line
    }

    /// Reads an `info` line; fields that are missing or unreadable are `None`.
    pub fn from_line(line: &Line) -> SearchInfo {
        SearchInfo {
            depth: line.get("depth").and_then(|v| v.parse().ok()),
            seldepth: line.get("seldepth").and_then(|v| v.parse().ok()),
            mean_depth: line
                .get("mean-depth")
                .and_then(|v| v.parse().ok())
                .filter(|d: &f64| d.is_finite()),
            multipv: line.get("multipv").and_then(|v| v.parse().ok()),
            score: line.get("score").and_then(parse_score),
            nodes: line.get("nodes").and_then(|v| v.parse().ok()),
            nps: line.get("nps").and_then(|v| v.parse().ok()),
            time: line.get("time").and_then(parse_seconds),
            pv: line
                .get("pv")
                .map(|pv| pv.split_whitespace().map(str::to_string).collect())
                .unwrap_or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_round_trip() {
        for score in [
            Score::Value(0),
            Score::Value(-120),
            Score::Value(37),
            Score::WinIn(1),
            Score::LossIn(0),
            Score::LossIn(12),
        ] {
            assert_eq!(parse_score(&write_score(score)), Some(score));
        }
        for bad in ["", "win", "win x", "loss 3 4", "mate 3", "1e3", "+-2"] {
            assert_eq!(parse_score(bad), None, "{bad}");
        }
    }

    #[test]
    fn info_lines_round_trip() {
        let info = SearchInfo {
            depth: Some(9),
            seldepth: Some(14),
            mean_depth: Some(8.5),
            multipv: Some(2),
            score: Some(Score::WinIn(5)),
            nodes: Some(123_456),
            nps: Some(2_000_000),
            time: Some(Duration::from_millis(1250)),
            pv: vec!["c3-d4".into(), "f6:d4:b2".into()],
        };
        let text = info.to_line().to_string();
        assert_eq!(
            text,
            r#"info depth=9 seldepth=14 mean-depth=8.5 multipv=2 score="win 5" nodes=123456 nps=2000000 time=1.250 pv="c3-d4 f6:d4:b2""#
        );
        let line = Line::parse(&text).expect("well formed").expect("a line");
        assert_eq!(SearchInfo::from_line(&line), info);
    }

    #[test]
    fn unreadable_fields_are_left_out() {
        let line = Line::parse("info depth=x score=0.5 time=-1 nodes=12 future=yes")
            .expect("well formed")
            .expect("a line");
        let info = SearchInfo::from_line(&line);
        assert_eq!(
            info,
            SearchInfo {
                nodes: Some(12),
                ..SearchInfo::default()
            }
        );
    }
}
