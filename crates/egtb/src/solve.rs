//! Solving one slice, once every slice its captures and promotions lead into is solved.
//!
//! Only quiet moves that crown nobody stay inside a slice; every other move leaves it for a
//! solved slice, whose values are read from the tables. The solver goes by distance: pass `k`
//! decides the positions won in `k` plies (some move reaches a position lost in `k - 1`) and
//! lost in `k` plies (every move reaches a won position, the slowest of them in `k - 1`).
//! Rather than look at every open position in every pass, each pass starts from the
//! positions decided in the pass before and walks their moves backwards: a position one quiet
//! move before a lost one is won one ply later, and a position whose last open move has just
//! turned out to reach a win is lost. Each position keeps a count of its moves inside the
//! slice that do not yet reach a known win. What no pass decides is a draw.

use bashni_rules::{Bitboard, Color, Direction, MoveList, Position};

use crate::file::EgtbError;
use crate::index::{Layout, Placement, Signature};
use crate::table::Tablebase;
use crate::value::{DRAW, NO_POSITION, from_successors, is_loss, loss_in, win_in};

/// The count of a position that can no longer lose (a move leads to a draw or a win).
const CANNOT_LOSE: u8 = 255;
/// The count of a position already put in a later pass as a win.
const QUEUED: u8 = 254;

/// The positions to decide in each pass, by distance.
struct Passes {
    buckets: Vec<Vec<u32>>,
}

impl Passes {
    fn push(&mut self, distance: usize, index: usize) {
        if self.buckets.len() <= distance {
            self.buckets.resize_with(distance + 1, Vec::new);
        }
        self.buckets[distance].push(index as u32);
    }
}

/// Whether a move stays inside its slice: quiet, and crowning nobody.
fn stays(mv: &bashni_rules::Move) -> bool {
    !mv.is_capture() && !mv.promotes()
}

/// The values of `signature`'s slice. `tables` must hold every slice its moves lead into.
/// `progress` hears the work done and the work in all.
pub(crate) fn solve(
    tables: &Tablebase,
    signature: Signature,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Box<[u8]>, EgtbError> {
    let layout = Layout::new(signature);
    if layout.len() > u64::from(u32::MAX) {
        return Err(EgtbError::TooLarge {
            slice: signature,
            slots: layout.len(),
        });
    }
    let len = layout.len() as usize;
    let total_work = 2 * len as u64;
    // Undecided positions hold DRAW, which is what they are if no pass decides them.
    let mut values = vec![DRAW; len];
    let mut open = vec![0u8; len];
    let mut passes = Passes {
        buckets: Vec::new(),
    };
    let mut moves = MoveList::new();
    let exit = |position: &Position| {
        tables
            .byte(position)
            .ok_or_else(|| EgtbError::MissingSlice {
                slice: signature,
                needs: Signature::of(position),
            })
    };

    // First look at every position: its moves that leave the slice are already known.
    for (index, count) in open.iter_mut().enumerate() {
        if index & 0xFFFF == 0 {
            progress(index as u64, total_work);
        }
        let Some(position) = layout.placement(index as u64).and_then(|p| p.position()) else {
            values[index] = NO_POSITION;
            continue;
        };
        position.generate_moves(&mut moves);
        let mut inside = 0u8;
        let mut fastest_win: Option<usize> = None;
        let mut drawn = false;
        let mut slowest_loss = 0;
        for mv in moves.iter() {
            if stays(mv) {
                inside += 1;
                continue;
            }
            let byte = exit(&position.after(mv))?;
            if byte == DRAW {
                drawn = true;
            } else if is_loss(byte) {
                let plies = usize::from(byte) + 1;
                fastest_win = Some(fastest_win.map_or(plies, |w| w.min(plies)));
            } else {
                slowest_loss = slowest_loss.max(usize::from(byte) + 1);
            }
        }
        if let Some(plies) = fastest_win {
            passes.push(plies, index);
            *count = CANNOT_LOSE;
        } else if drawn {
            *count = CANNOT_LOSE;
        } else if inside == 0 {
            // No move at all (lost now), or every move leaves for the opponent's win.
            passes.push(slowest_loss, index);
        } else {
            *count = inside;
        }
    }

    // Then pass after pass, from the positions decided in the one before.
    let mut decided = 0u64;
    let mut earlier = Vec::new();
    let mut distance = 0;
    while distance < passes.buckets.len() {
        let bucket = std::mem::take(&mut passes.buckets[distance]);
        let won = distance % 2 == 1;
        for &index in &bucket {
            let index = index as usize;
            if values[index] != DRAW {
                continue;
            }
            values[index] = if won {
                win_in(distance as u32)
            } else {
                loss_in(distance as u32)
            };
            decided += 1;
            if decided & 0xFFFF == 0 {
                progress(len as u64 + decided, total_work);
            }
            let Some(position) = layout.placement(index as u64).and_then(|p| p.position()) else {
                continue;
            };
            predecessors(&position, &mut earlier);
            for before in &earlier {
                let at = layout.index(&Placement::of(before)) as usize;
                if values[at] != DRAW {
                    continue;
                }
                if !won {
                    // A move reaches a lost position: won one ply later, at the latest.
                    if open[at] != QUEUED {
                        open[at] = QUEUED;
                        passes.push(distance + 1, at);
                    }
                    continue;
                }
                let count = open[at];
                if count == CANNOT_LOSE || count == QUEUED {
                    continue;
                }
                open[at] = count - 1;
                if count == 1 {
                    // Every move now reaches a win: lost, as late as the slowest of them.
                    before.generate_moves(&mut moves);
                    let mut successors = Vec::with_capacity(moves.len());
                    for mv in moves.iter() {
                        let child = before.after(mv);
                        successors.push(if stays(mv) {
                            values[layout.index(&Placement::of(&child)) as usize]
                        } else {
                            exit(&child)?
                        });
                    }
                    let lost_in = usize::from(from_successors(successors));
                    passes.push(lost_in.max(distance + 1), at);
                }
            }
        }
        distance += 1;
    }
    progress(total_work, total_work);
    Ok(values.into_boxed_slice())
}

/// The positions from which one quiet move that crowns nobody leads to `position`, and in
/// which that move was legal (no capture was due).
pub(crate) fn predecessors(position: &Position, out: &mut Vec<Position>) {
    out.clear();
    let mover = position.side_to_move().opponent();
    let occupied = position.occupied();
    let kings = position.kings();
    let own = position.owned_by(mover);
    let other = position.owned_by(mover.opponent());
    let backward = match mover {
        Color::White => [Direction::DownLeft, Direction::DownRight],
        Color::Black => [Direction::UpLeft, Direction::UpRight],
    };
    for square in own.squares() {
        let king = kings.has(square);
        let directions: &[Direction] = if king { &Direction::ALL } else { &backward };
        for &direction in directions {
            let mut at = square;
            while let Some(from) = at.step(direction) {
                if occupied.has(from) {
                    break;
                }
                let swap = |board: Bitboard| Bitboard(board.0 & !square.bit().0 | from.bit().0);
                let moved = swap(own);
                let moved_kings = if king { swap(kings) } else { kings };
                let (white, black) = match mover {
                    Color::White => (moved, other),
                    Color::Black => (other, moved),
                };
                if let Ok(before) = Position::russian(white, black, moved_kings, mover)
                    && !before.has_capture()
                {
                    out.push(before);
                }
                if !king {
                    break;
                }
                at = from;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bashni_rules::Variant;
    use bashni_rules::notation::parse_position;

    #[test]
    fn predecessors_are_exactly_the_quiet_moves_into_a_position() {
        let text = "White: a1 1, c3 0; Black: h8 1, e7 0; Black to move";
        let position = parse_position(Variant::Russian, text).expect("a position");
        let mut found = Vec::new();
        predecessors(&position, &mut found);
        assert!(!found.is_empty());
        for before in &found {
            let moves = before.legal_moves();
            let into = moves
                .iter()
                .filter(|mv| stays(mv) && before.after(mv) == position)
                .count();
            assert_eq!(into, 1, "{before:?}");
        }
        // Every white quiet move of a position leading here is found: check from the other
        // side by trying each white piece on each empty square.
        let layout = Layout::new(Signature::of(&position));
        let mut expected = 0;
        for index in 0..layout.len() {
            let Some(before) = layout.placement(index).and_then(|p| p.position()) else {
                continue;
            };
            if before.side_to_move() != Color::White {
                continue;
            }
            expected += before
                .legal_moves()
                .iter()
                .filter(|mv| stays(mv) && before.after(mv) == position)
                .count();
        }
        assert_eq!(found.len(), expected);
    }
}
