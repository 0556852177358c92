//! Material as a solver counts it, in hundredths of a man: what a line gains is read here.
//!
//! Each free checker counts 100 for its owner and a king on a tower's top 200 more. In
//! Bashni a checker held prisoner under the opponent's top counts for nobody until it is
//! freed, so freeing prisoners gains material and taking a top makes a prisoner; in Russian
//! draughts every tower is one checker and this is the plain count of men and kings.

use bashni_rules::{Color, Position, Square};

/// The value of a free man.
pub const MAN: i32 = 100;
/// What a king on top counts beyond a man.
pub const KING_EXTRA: i32 = 200;

/// What `color` holds: its free checkers (those in the towers it commands) and its kings
/// on top.
pub fn held_by(position: &Position, color: Color) -> i32 {
    let mut total = 0;
    for square in Square::ALL_BY_NAME {
        let tower = position.tower(square);
        let Some(top) = tower.top() else { continue };
        if top.color != color {
            continue;
        }
        total += MAN * tower.count(color) as i32;
        if top.king {
            total += KING_EXTRA;
        }
    }
    total
}

/// `color`'s material less its opponent's.
pub fn balance(position: &Position, color: Color) -> i32 {
    held_by(position, color) - held_by(position, color.opponent())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bashni_rules::Variant;
    use bashni_rules::notation::read_position;

    #[test]
    fn the_start_is_even_and_a_king_counts_three_men() {
        assert_eq!(balance(&Position::start(Variant::Russian), Color::White), 0);
        let position = read_position(
            Variant::Russian,
            "White: c3 1, e3 0; Black: d6 0; White to move",
        )
        .expect("a position");
        assert_eq!(held_by(&position, Color::White), 400);
        assert_eq!(balance(&position, Color::White), 300);
        assert_eq!(balance(&position, Color::Black), -300);
    }

    #[test]
    fn prisoners_count_for_nobody_until_freed() {
        // A white tower holding two black prisoners, against one black man.
        let position = read_position(
            Variant::Bashni,
            "White: c3 0/00; Black: f6 0; White to move",
        )
        .expect("a position");
        assert_eq!(held_by(&position, Color::White), 100);
        assert_eq!(held_by(&position, Color::Black), 100);
    }
}
