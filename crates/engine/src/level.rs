//! Levels of play for people: from a beginner who answers at once and sometimes misses a
//! good move, to full strength.
//!
//! A level limits the depth of the search and, below full strength, chooses among the legal
//! moves at random, favouring the better ones: the move is drawn with probability
//! proportional to `exp(score / temperature)`, so a higher temperature means more and bigger
//! mistakes. Every move chosen is legal: it comes from the legal moves of the position.

use bashni_rules::{Move, Position};

use crate::engine::{Engine, Limits, SearchResult};
use crate::rng;
use crate::search::History;

/// A level of play, 1 (beginner) to [`Level::MAX`] (full strength).
#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// Full strength.
    pub const MAX: u8 = 8;

    /// The level `number`, if it is between 1 and [`Level::MAX`].
    pub fn new(number: u8) -> Option<Level> {
        (1..=Level::MAX).contains(&number).then_some(Level(number))
    }

    /// Full strength.
    pub fn full() -> Level {
        Level(Level::MAX)
    }

    /// The level's number.
    pub fn number(self) -> u8 {
        self.0
    }

    /// A short name for people.
    pub fn name(self) -> &'static str {
        match self.0 {
            1 => "beginner",
            2 => "novice",
            3 => "casual",
            4 => "club",
            5 => "strong club",
            6 => "expert",
            7 => "master",
            _ => "full strength",
        }
    }

    /// The deepest search of the level (`None`: only the caller's limits).
    pub fn depth(self) -> Option<u32> {
        match self.0 {
            1 => Some(1),
            2 => Some(2),
            3 => Some(3),
            4 => Some(4),
            5 => Some(5),
            6 => Some(6),
            7 => Some(8),
            _ => None,
        }
    }

    /// How freely the level picks a weaker move, in hundredths of a man (0: never).
    pub fn temperature(self) -> i32 {
        match self.0 {
            1 => 250,
            2 => 160,
            3 => 100,
            4 => 60,
            5 => 30,
            6 => 12,
            _ => 0,
        }
    }

    /// Chooses a move for `position` with `engine` at this level, within `limits` too.
    /// `seed` makes the choice repeatable.
    pub fn choose(
        self,
        engine: &Engine,
        position: &Position,
        history: &History,
        limits: &Limits,
        seed: u64,
    ) -> SearchResult {
        let mut limits = *limits;
        if let Some(depth) = self.depth() {
            limits.depth = Some(limits.depth.map_or(depth, |d| d.min(depth)));
        }
        let temperature = self.temperature();
        if temperature == 0 {
            return engine.search(position, history, &limits, |_| {});
        }
        let all = position.legal_moves().len();
        let mut result = engine.search_lines(position, history, &limits, all, |_| {});
        let candidates: Vec<(Move, i32)> = result
            .lines
            .iter()
            .filter_map(|info| info.pv.first().map(|mv| (*mv, info.score.value())))
            .collect();
        if let Some(chosen) = pick(&candidates, temperature, seed) {
            if let Some(at) = result
                .lines
                .iter()
                .position(|i| i.pv.first() == Some(&chosen))
            {
                let line = result.lines.remove(at);
                result.score = line.score;
                result.lines.insert(0, line);
            }
            result.best = Some(chosen);
        }
        result
    }
}

/// Draws a move with probability proportional to `exp(score / temperature)`.
fn pick(candidates: &[(Move, i32)], temperature: i32, seed: u64) -> Option<Move> {
    let best = candidates.iter().map(|c| c.1).max()?;
    let weights: Vec<f64> = candidates
        .iter()
        .map(|&(_, score)| {
            ((score - best).max(-20 * temperature) as f64 / temperature as f64).exp()
        })
        .collect();
    let total: f64 = weights.iter().sum();
    let mut x = rng::unit(rng::splitmix(seed)) * total;
    for (candidate, weight) in candidates.iter().zip(&weights) {
        if x < *weight {
            return Some(candidate.0);
        }
        x -= weight;
    }
    candidates.last().map(|c| c.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Options;
    use bashni_rules::Variant;

    #[test]
    fn every_level_plays_legal_moves() {
        let engine = Engine::new(Options::default());
        for variant in [Variant::Bashni, Variant::Russian] {
            let start = Position::start(variant);
            for number in 1..=Level::MAX {
                let level = Level::new(number).expect("level");
                let result =
                    level.choose(&engine, &start, &History::default(), &Limits::depth(3), 7);
                let best = result.best.expect("a move");
                assert!(
                    start.legal_moves().contains(&best),
                    "{} {variant}",
                    level.name()
                );
            }
        }
        assert_eq!(Level::new(0), None);
        assert_eq!(Level::new(Level::MAX + 1), None);
    }

    #[test]
    fn low_temperature_prefers_the_best() {
        let a = Move::quiet(
            bashni_rules::Square::parse("c3").expect("sq"),
            bashni_rules::Square::parse("d4").expect("sq"),
            false,
        );
        let b = Move::quiet(
            bashni_rules::Square::parse("a3").expect("sq"),
            bashni_rules::Square::parse("b4").expect("sq"),
            false,
        );
        let picks = (0..1000)
            .filter(|&seed| pick(&[(a, 100), (b, -200)], 60, seed) == Some(a))
            .count();
        assert!(picks > 950, "{picks}");
        let picks = (0..1000)
            .filter(|&seed| pick(&[(a, 100), (b, 90)], 250, seed) == Some(a))
            .count();
        assert!((400..700).contains(&picks), "{picks}");
    }
}
