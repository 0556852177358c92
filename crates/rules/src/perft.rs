//! Counting the move tree, to check move generation against published numbers.

use crate::moves::MoveList;
use crate::position::Position;

/// The number of move sequences of length `depth` from `position`.
///
/// Paths of one capture that leave the same position count once, as published tables
/// count them.
///
/// ```
/// use bashni_rules::{Position, Variant, perft};
/// assert_eq!(perft(&Position::start(Variant::Russian), 4), 1469);
/// ```
pub fn perft(position: &Position, depth: u32) -> u64 {
    let mut position = *position;
    walk(&mut position, depth)
}

/// The hash is not kept up to date inside the walk (nothing here reads it); every move is
/// taken back, so the position is whole again at the end.
fn walk(position: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.count_moves() as u64,
        _ => {
            let mut list = MoveList::new();
            position.generate_moves(&mut list);
            let mut nodes = 0;
            for mv in list.iter() {
                position.play_unhashed(mv);
                nodes += walk(position, depth - 1);
                position.undo_unhashed(mv);
            }
            nodes
        }
    }
}
