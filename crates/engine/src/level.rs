//! Levels of play for people: from a beginner who answers at once and sometimes misses a
//! good move, to full strength.
//!
//! A level limits the depth of the search and, below full strength, chooses among the legal
//! moves at random, favouring the better ones: the move is drawn with probability
//! proportional to `exp(score / temperature)`, so a higher temperature means more and bigger
//! mistakes. Every move chosen is legal: it comes from the legal moves of the position.

use std::time::Duration;

use bashni_rules::{Game, Move, Position};

use crate::engine::{Engine, SearchResult};
use crate::limits::Limits;
use crate::past::Past;
use crate::rng;

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

    /// The engine's answer to a draw offer, at this level: the offer must be open in
    /// `game`, made by the side the engine plays against. The level searches the position
    /// briefly (at most [`Level::DRAW_ANSWER_TIME`], and no deeper than it plays) and takes
    /// the draw when it stands clearly worse (below [`Level::DRAW_ACCEPT_BELOW`]), or no
    /// better once the game is [`Level::DRAW_ACCEPT_AFTER_PLIES`] plies long.
    pub fn accepts_draw(self, engine: &Engine, game: &Game) -> bool {
        let Some(offerer) = game.draw_offer() else {
            return false;
        };
        let own = offerer.opponent();
        if game.is_over() || game.legal_moves().is_empty() {
            return false;
        }
        let depth = self.depth().map_or(Level::DRAW_ANSWER_DEPTH, |d| {
            d.min(Level::DRAW_ANSWER_DEPTH)
        });
        let limits = Limits {
            movetime: Some(Level::DRAW_ANSWER_TIME),
            depth: Some(depth),
            without_tables: !self.uses_tables(),
            ..Limits::default()
        };
        let score = engine
            .search(game.position(), &Past::of(game), &limits, |_| {})
            .score
            .value();
        // The score is the side to move's; turn it to the engine's view.
        let own_score = if game.side_to_move() == own {
            score
        } else {
            -score
        };
        own_score < Level::DRAW_ACCEPT_BELOW
            || (own_score <= 0 && game.ply() >= Level::DRAW_ACCEPT_AFTER_PLIES)
    }

    /// The longest search for the answer to a draw offer.
    pub const DRAW_ANSWER_TIME: Duration = Duration::from_millis(300);
    /// The deepest search for the answer to a draw offer.
    pub const DRAW_ANSWER_DEPTH: u32 = 12;
    /// Below this score for itself (in hundredths of a man), the engine takes a draw.
    pub const DRAW_ACCEPT_BELOW: i32 = -50;
    /// From this many plies on, the engine takes a draw when it stands no better.
    pub const DRAW_ACCEPT_AFTER_PLIES: usize = 30;

    /// Whether the engine plays by its endgame tables at this level: only the levels that
    /// play the best move (7 and 8); the weaker ones find their way through an ending by
    /// their own search, mistakes included.
    pub fn uses_tables(self) -> bool {
        self.temperature() == 0
    }

    /// Chooses a move for `position` with `engine` at this level, within `limits` too.
    /// `seed` makes the choice repeatable.
    pub fn choose(
        self,
        engine: &Engine,
        position: &Position,
        past: &Past,
        limits: &Limits,
        seed: u64,
    ) -> SearchResult {
        let mut limits = limits.clone();
        if let Some(depth) = self.depth() {
            limits.depth = Some(limits.depth.map_or(depth, |d| d.min(depth)));
        }
        let temperature = self.temperature();
        limits.without_tables |= !self.uses_tables();
        if temperature == 0 {
            return engine.search(position, past, &limits, |_| {});
        }
        let all = position.legal_moves().len();
        let mut result = engine.search_lines(position, past, &limits, all, |_| {});
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
                let result = level.choose(&engine, &start, &Past::default(), &Limits::depth(3), 7);
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

    fn offered_by_white(variant: Variant, fen: &str) -> Game {
        let position = bashni_rules::notation::parse_fen(variant, fen).expect("position");
        let mut game = Game::new(position);
        game.restore_draw_offers(Some(bashni_rules::Color::White), None);
        game
    }

    #[test]
    fn a_lost_position_takes_the_draw_and_a_won_one_does_not() {
        let engine = Engine::new(Options::default());
        // Black has one man against three kings and two men.
        let lost = offered_by_white(Variant::Russian, "W:WKa1,Kc3,Ke1,e3,g3:Bb8");
        // Black has two kings and two men against one man.
        let won = offered_by_white(Variant::Russian, "W:Wa1:BKb8,Kd8,f8,h8");
        for number in [1, 4, Level::MAX] {
            let level = Level::new(number).expect("level");
            assert!(level.accepts_draw(&engine, &lost), "level {number}");
            assert!(!level.accepts_draw(&engine, &won), "level {number}");
        }
        // Black to move after White's offer: the score is turned the other way round.
        let lost_to_move = offered_by_white(Variant::Russian, "B:WKa1,Kc3,Ke1,e3,g3:Bb8");
        assert!(Level::full().accepts_draw(&engine, &lost_to_move));
    }

    #[test]
    fn an_even_opening_or_no_offer_is_declined() {
        let engine = Engine::new(Options::default());
        let mut start = Game::start(Variant::Bashni);
        assert!(!Level::full().accepts_draw(&engine, &start));
        start
            .offer_draw(bashni_rules::Color::White)
            .expect("Bashni allows an offer");
        assert!(!Level::full().accepts_draw(&engine, &start));
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
