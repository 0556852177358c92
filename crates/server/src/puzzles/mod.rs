//! The puzzles a server starts with: a set mined and checked by `bashni puzzles` (see
//! `docs/puzzles.md`), built into the binary and added to the store at start, so that a
//! fresh server has puzzles at once. Puzzles stored already keep their ratings.

use bashni_puzzles::{Puzzle, PuzzleError, read_puzzles};

use crate::app::App;

/// The shipped set, one JSON object a line.
const SHIPPED: &str = include_str!("../../puzzles/shipped.jsonl");

/// The shipped puzzles, each checked as it is read.
pub fn shipped() -> Result<Vec<Puzzle>, PuzzleError> {
    read_puzzles(SHIPPED)
}

/// Adds the shipped puzzles the store does not hold yet. A failure is logged, and the
/// server goes on without them (the puzzles already stored are served).
pub async fn add_shipped(app: &App) {
    let puzzles = match shipped() {
        Ok(puzzles) => puzzles,
        Err(error) => {
            tracing::error!(%error, "the shipped puzzles cannot be read");
            return;
        }
    };
    let total = puzzles.len();
    match app.database.add_puzzles(puzzles).await {
        Ok(added) => tracing::info!(total, added, "shipped puzzles"),
        Err(error) => tracing::warn!(%error, "the shipped puzzles were not added"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_set_reads_and_holds_both_games() {
        let puzzles = shipped().expect("the shipped set reads");
        for variant in ["bashni", "russian"] {
            assert!(
                puzzles.iter().filter(|p| p.variant == variant).count() >= 100,
                "too few {variant} puzzles"
            );
        }
        let mut ids: Vec<&str> = puzzles.iter().map(|p| p.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), puzzles.len(), "an id twice");
    }
}
