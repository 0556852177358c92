//! What the search must know of the game before the position it searches.

use bashni_rules::{DrawCounts, Game};

/// The game's past, as the search needs it: the positions that may still repeat, and the
/// draw counts of the position searched ([`bashni_rules::draw`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Past {
    /// Hashes of the earlier positions that can still come back, oldest first: those since
    /// the last capture, crowning or move of a man.
    pub hashes: Vec<u64>,
    /// The draw counts of the position to search.
    pub counts: DrawCounts,
}

impl Past {
    /// The past of the current position of `game`.
    pub fn of(game: &Game) -> Past {
        let positions = game.positions();
        let mut hashes: Vec<u64> = game
            .moves()
            .iter()
            .zip(positions)
            .rev()
            // After a capture, a crowning or a man's step, no earlier position can come back.
            .take_while(|(mv, before)| {
                !mv.is_capture() && !mv.promotes() && before.kings().has(mv.from())
            })
            .map(|(_, before)| before.hash())
            .collect();
        hashes.reverse();
        Past {
            hashes,
            counts: *game.draw_counts(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bashni_rules::notation::parse_position;
    use bashni_rules::{Move, Variant};

    fn play(game: &mut Game, text: &str) -> Move {
        let mv = game
            .legal_moves()
            .iter()
            .copied()
            .find(|mv| mv.to_string() == text)
            .unwrap_or_else(|| panic!("{text} is not legal"));
        game.play(&mv).expect("legal");
        mv
    }

    #[test]
    fn only_positions_since_the_last_man_move_can_repeat() {
        let position = parse_position(
            Variant::Russian,
            "White: e1 1, c3 0; Black: h8 1, h6 0; White to move",
        )
        .expect("position");
        let mut game = Game::new(position);
        play(&mut game, "c3-b4");
        let after_man = game.position().hash();
        play(&mut game, "h8-g7");
        play(&mut game, "e1-d2");
        let past = Past::of(&game);
        assert_eq!(past.hashes.len(), 2);
        assert_eq!(past.hashes[0], after_man);
        assert_eq!(past.counts, *game.draw_counts());
        assert_eq!(past.counts.quiet_plies, 3);
        assert_eq!(past.counts.king_plies, 2);
    }
}
