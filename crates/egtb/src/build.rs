//! Building the tables of a directory, slice after slice, reusing the slices already there.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use bashni_rules::Color;

use crate::file::{EgtbError, file_name, read_slice, write_slice};
use crate::index::{Layout, MAX_PIECES, Signature};
use crate::solve::solve;
use crate::table::{Counts, Tablebase, VerifyReport};

/// What happened to one slice.
#[derive(Clone, Debug)]
pub struct SliceReport {
    /// The slice.
    pub signature: Signature,
    /// Its wins, draws and losses.
    pub counts: Counts,
    /// The size of its file.
    pub file_bytes: u64,
    /// The time it took (to solve and write, or to read and check).
    pub time: Duration,
    /// Whether a good file was already there, checked and kept.
    pub reused: bool,
}

impl SliceReport {
    /// Positions solved (or checked) per second.
    pub fn positions_per_second(&self) -> f64 {
        self.counts.positions() as f64 / self.time.as_secs_f64().max(1e-9)
    }
}

/// What the building reports while it works.
#[derive(Clone, Copy, Debug)]
pub enum BuildEvent<'a> {
    /// A slice is begun: its number (from 1) among `of`, and its slots.
    Begin {
        /// The slice.
        signature: Signature,
        /// Which slice, from 1.
        number: usize,
        /// How many slices in all.
        of: usize,
        /// Slots of the slice (positions, and the few that are no position).
        slots: u64,
    },
    /// Work inside the current slice: done out of total.
    Step {
        /// Work done.
        done: u64,
        /// Work in all.
        total: u64,
    },
    /// A slice is finished.
    End(&'a SliceReport),
}

/// The threads a build uses unless told otherwise: one per core of this machine.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Builds every slice of up to `pieces` pieces into `dir` (made if missing), in an order
/// where each slice's captures and promotions lead into slices already built, on
/// [`default_threads`] threads. A slice whose file is already there, reads well and passes
/// the check against its moves is kept; any other is solved and written. The result has a
/// report for each slice, in order.
pub fn build(
    dir: &Path,
    pieces: u32,
    on_event: impl FnMut(BuildEvent<'_>),
) -> Result<Vec<SliceReport>, EgtbError> {
    build_with_threads(dir, pieces, default_threads(), on_event)
}

/// [`build`] on `threads` threads (at least one). The tables do not depend on the number.
pub fn build_with_threads(
    dir: &Path,
    pieces: u32,
    threads: usize,
    on_event: impl FnMut(BuildEvent<'_>),
) -> Result<Vec<SliceReport>, EgtbError> {
    if pieces > MAX_PIECES {
        return Err(EgtbError::TooManyPieces(pieces));
    }
    build_slices(dir, &Signature::all_up_to(pieces), threads, on_event)
}

/// Builds the slices of `signatures` into `dir` as [`build`] does, in building order, on
/// `threads` threads. The slices their moves lead into must be among them: building stops
/// with [`EgtbError::MissingSlice`] at the first slice that needs one that is not.
pub fn build_slices(
    dir: &Path,
    signatures: &[Signature],
    threads: usize,
    mut on_event: impl FnMut(BuildEvent<'_>),
) -> Result<Vec<SliceReport>, EgtbError> {
    for &signature in signatures {
        if !signature.fits() {
            return Err(EgtbError::TooManyPieces(signature.pieces()));
        }
        if signature.pieces_of(Color::White) == 0 || signature.pieces_of(Color::Black) == 0 {
            return Err(EgtbError::NotASlice(signature));
        }
    }
    fs::create_dir_all(dir).map_err(|error| EgtbError::Io {
        path: dir.to_path_buf(),
        error,
    })?;
    let mut order = signatures.to_vec();
    order.sort_by_key(|s| (s.pieces(), s.men(), *s));
    order.dedup();
    let mut tables = Tablebase::new();
    let mut reports = Vec::with_capacity(order.len());
    for (number, &signature) in order.iter().enumerate() {
        let started = Instant::now();
        on_event(BuildEvent::Begin {
            signature,
            number: number + 1,
            of: order.len(),
            slots: Layout::new(signature).len(),
        });
        let path = dir.join(file_name(signature));
        let mut step = |done, total| on_event(BuildEvent::Step { done, total });
        let mut reused = false;
        if let Ok((stored, values)) = read_slice(&path)
            && stored == signature
        {
            tables.insert(signature, values);
            let mut check = VerifyReport::default();
            tables.verify_slice(signature, threads, &mut check, &mut step);
            if check.mismatches == 0 {
                reused = true;
            } else {
                tables.remove(signature);
            }
        }
        if !reused {
            let values = solve(&tables, signature, threads, &mut step)?;
            write_slice(&path, signature, &values)?;
            tables.insert(signature, values);
        }
        let file_bytes = fs::metadata(&path)
            .map_err(|error| EgtbError::Io {
                path: path.clone(),
                error,
            })?
            .len();
        let report = SliceReport {
            signature,
            counts: tables.counts(signature).unwrap_or_default(),
            file_bytes,
            time: started.elapsed(),
            reused,
        };
        on_event(BuildEvent::End(&report));
        reports.push(report);
    }
    Ok(reports)
}
