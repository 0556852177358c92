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

use std::ops::Range;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use bashni_rules::{Bitboard, Color, Direction, MoveList, Position};

use crate::file::EgtbError;
use crate::index::{Layout, Placement, Signature};
use crate::parallel;
use crate::table::Tablebase;
use crate::value::{DRAW, NO_POSITION, Outcomes, from_successors, loss_in, win_in};

/// The count of a position that can no longer lose (a move leads to a draw or a win).
const CANNOT_LOSE: u8 = 255;
/// The count of a position already put in a later pass as a win.
const QUEUED: u8 = 254;

/// The positions to decide in each pass, by distance.
#[derive(Default)]
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

    /// Adds every position of `other` to its pass here, leaving `other` empty.
    fn take_from(&mut self, other: &mut Passes) {
        for (distance, bucket) in other.buckets.iter_mut().enumerate() {
            if bucket.is_empty() {
                continue;
            }
            if self.buckets.len() <= distance {
                self.buckets.resize_with(distance + 1, Vec::new);
            }
            self.buckets[distance].append(bucket);
        }
    }
}

/// Whether a move stays inside its slice: quiet, and crowning nobody.
fn stays(mv: &bashni_rules::Move) -> bool {
    !mv.is_capture() && !mv.promotes()
}

/// What each thread keeps while it works: its buffers, the positions it found for later
/// passes, and the first error it met.
#[derive(Default)]
struct Worker {
    moves: MoveList,
    earlier: Vec<Position>,
    successors: Vec<u8>,
    passes: Passes,
    error: Option<EgtbError>,
}

/// Work on a range of slots (or of a pass's positions) that may fail.
type Work<'a> = dyn Fn(&mut Worker, Range<usize>) -> Result<(), EgtbError> + Sync + 'a;

/// Runs `work` over `0..len` on every worker's thread as [`parallel::in_blocks`] does,
/// keeping the first error each worker meets and stopping all at the first.
fn in_blocks(workers: &mut [Worker], len: usize, work: &Work<'_>, progress: &mut dyn FnMut(usize)) {
    let each = |worker: &mut Worker, slots: Range<usize>| match work(worker, slots) {
        Ok(()) => true,
        Err(error) => {
            worker.error = Some(error);
            false
        }
    };
    parallel::in_blocks(workers, len, &each, progress);
}

/// The first error any worker met.
fn first_error(workers: &mut [Worker]) -> Result<(), EgtbError> {
    match workers.iter_mut().find_map(|w| w.error.take()) {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// The values of `signature`'s slice, solved on `threads` threads (at least one).
/// `tables` must hold every slice its moves lead into. `progress` hears the work done and
/// the work in all. The values do not depend on the number of threads.
pub(crate) fn solve(
    tables: &Tablebase,
    signature: Signature,
    threads: usize,
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
    let values: Vec<AtomicU8> = (0..len).map(|_| AtomicU8::new(DRAW)).collect();
    let open: Vec<AtomicU8> = (0..len).map(|_| AtomicU8::new(0)).collect();
    let mut workers: Vec<Worker> = (0..threads.max(1)).map(|_| Worker::default()).collect();
    let exit = |position: &Position| {
        tables
            .byte(position)
            .ok_or_else(|| EgtbError::MissingSlice {
                slice: signature,
                needs: Signature::of(position),
            })
    };

    // First look at every position: its moves that leave the slice are already known.
    let scan = |worker: &mut Worker, slots: Range<usize>| {
        for index in slots {
            let Some(position) = layout.placement(index as u64).and_then(|p| p.position()) else {
                values[index].store(NO_POSITION, Ordering::Relaxed);
                continue;
            };
            position.generate_moves(&mut worker.moves);
            let mut inside = 0u8;
            let mut outcomes = Outcomes::default();
            for mv in worker.moves.iter() {
                if stays(mv) {
                    inside += 1;
                    continue;
                }
                outcomes.add(exit(&position.after(mv))?);
            }
            let count = if let Some(plies) = outcomes.fastest_win {
                worker.passes.push(plies as usize, index);
                CANNOT_LOSE
            } else if outcomes.drawn {
                CANNOT_LOSE
            } else if inside == 0 {
                // No move at all (lost now), or every move leaves for the opponent's win.
                worker.passes.push(outcomes.slowest_loss as usize, index);
                0
            } else {
                inside
            };
            open[index].store(count, Ordering::Relaxed);
        }
        Ok(())
    };
    in_blocks(&mut workers, len, &scan, &mut |done| {
        progress(done as u64, total_work)
    });
    first_error(&mut workers)?;

    // Then pass after pass, from the positions decided in the one before. A pass decides
    // only wins or only losses, so its threads never race on what they write: a value is
    // set once (whoever sets it walks its moves back), and a count that reaches zero was
    // lowered last by the thread that then reads the values of every move.
    let mut passes = Passes::default();
    for worker in &mut workers {
        passes.take_from(&mut worker.passes);
    }
    let decided = AtomicU64::new(0);
    let mut distance = 0;
    while distance < passes.buckets.len() {
        let bucket = std::mem::take(&mut passes.buckets[distance]);
        let won = distance % 2 == 1;
        let value = if won {
            win_in(distance as u32)
        } else {
            loss_in(distance as u32)
        };
        let pass = |worker: &mut Worker, at: Range<usize>| {
            for &index in &bucket[at] {
                let index = index as usize;
                if values[index]
                    .compare_exchange(DRAW, value, Ordering::AcqRel, Ordering::Relaxed)
                    .is_err()
                {
                    continue;
                }
                decided.fetch_add(1, Ordering::Relaxed);
                let Some(position) = layout.placement(index as u64).and_then(|p| p.position())
                else {
                    continue;
                };
                predecessors(&position, &mut worker.earlier);
                for before in &worker.earlier {
                    let at = layout.index(&Placement::of(before)) as usize;
                    if values[at].load(Ordering::Acquire) != DRAW {
                        continue;
                    }
                    if !won {
                        // A move reaches a lost position: won one ply later, at the latest.
                        if open[at].swap(QUEUED, Ordering::Relaxed) != QUEUED {
                            worker.passes.push(distance + 1, at);
                        }
                        continue;
                    }
                    let lowered =
                        open[at].fetch_update(Ordering::AcqRel, Ordering::Acquire, |count| {
                            (count != CANNOT_LOSE && count != QUEUED && count != 0)
                                .then(|| count - 1)
                        });
                    if lowered != Ok(1) {
                        continue;
                    }
                    // Every move now reaches a win: lost, as late as the slowest of them.
                    before.generate_moves(&mut worker.moves);
                    worker.successors.clear();
                    for mv in worker.moves.iter() {
                        let child = before.after(mv);
                        worker.successors.push(if stays(mv) {
                            values[layout.index(&Placement::of(&child)) as usize]
                                .load(Ordering::Acquire)
                        } else {
                            exit(&child)?
                        });
                    }
                    let lost_in = usize::from(from_successors(worker.successors.iter().copied()));
                    worker.passes.push(lost_in.max(distance + 1), at);
                }
            }
            Ok(())
        };
        in_blocks(&mut workers, bucket.len(), &pass, &mut |_| {
            progress(len as u64 + decided.load(Ordering::Relaxed), total_work)
        });
        first_error(&mut workers)?;
        for worker in &mut workers {
            passes.take_from(&mut worker.passes);
        }
        distance += 1;
    }
    progress(total_work, total_work);
    Ok(values.into_iter().map(AtomicU8::into_inner).collect())
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
