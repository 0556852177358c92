//! Checking a puzzle again, independently of the miner: a deeper search (or the tables)
//! must find the first move the only one that keeps the win or the decisive gain, and
//! every later move of the line forced or best.

use bashni_engine::{Engine, Limits, Past, Value};
use bashni_rules::{Move, Position};

use crate::puzzle::Puzzle;

/// How the check decides.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// The depth of every search.
    pub depth: u32,
    /// The score (hundredths of a man, for the solver) that counts as decisive.
    pub decisive: Value,
    /// How far below the best a move of the line may score and still count as best.
    pub tolerance: Value,
}

impl Default for CheckOptions {
    fn default() -> CheckOptions {
        CheckOptions {
            depth: 16,
            decisive: 250,
            tolerance: 30,
        }
    }
}

/// The verdict on one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// Every move of the line holds.
    Sound,
    /// The move at `ply` (0 = the first) fails, for the reason given.
    Unsound {
        /// Which move of the line.
        ply: usize,
        /// What the deeper search found.
        why: String,
    },
}

/// The score of `mv` in `position` for its side to move, at `depth`.
fn score_of(engine: &Engine, position: &Position, mv: &Move, depth: u32) -> Value {
    let after = position.after(mv);
    if after.legal_moves().is_empty() {
        return bashni_engine::score::WIN;
    }
    let result = engine.search_lines(
        &after,
        &Past::default(),
        &Limits::depth(depth.saturating_sub(1).max(1)),
        1,
        |_| {},
    );
    -result.score.value()
}

/// Checks `puzzle` with `engine` (its endgame tables, if any, are used where they cover
/// a position).
pub fn check_puzzle(engine: &Engine, puzzle: &Puzzle, options: &CheckOptions) -> Finding {
    let unsound = |ply: usize, why: String| Finding::Unsound { ply, why };
    let moves = match puzzle.validate().and_then(|()| puzzle.moves()) {
        Ok(moves) => moves,
        Err(error) => return unsound(0, error.to_string()),
    };
    for (ply, (position, mv)) in moves.iter().enumerate() {
        let legal = position.legal_moves();
        if legal.len() == 1 && ply > 0 {
            continue;
        }
        let limits = Limits::depth(options.depth);
        let result = engine.search_lines(position, &Past::default(), &limits, 2, |_| {});
        let (Some(best), Some(first)) = (result.best, result.lines.first()) else {
            return unsound(ply, "no legal move".to_string());
        };
        let best_value = first.score.value();
        let played = if best.same_result(mv, position.variant()) {
            best_value
        } else {
            score_of(engine, position, mv, options.depth)
        };
        if ply == 0 {
            if played < options.decisive {
                return unsound(
                    ply,
                    format!(
                        "{mv} scores {played}, below the decisive {}",
                        options.decisive
                    ),
                );
            }
            let other = if best.same_result(mv, position.variant()) {
                result
                    .lines
                    .get(1)
                    .map(|line| (line.pv[0], line.score.value()))
            } else {
                Some((best, best_value))
            };
            if let Some((other, value)) = other
                && value >= options.decisive
            {
                return unsound(ply, format!("{other} also keeps the gain ({value})"));
            }
        } else {
            let both_lost =
                ply % 2 == 1 && best_value <= -options.decisive && played <= -options.decisive;
            if played + options.tolerance < best_value && !both_lost {
                return unsound(
                    ply,
                    format!("{mv} scores {played}; {best} scores {best_value}"),
                );
            }
        }
    }
    Finding::Sound
}
