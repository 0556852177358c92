//! The tables in memory: loading, probing, choosing moves and checking.

use std::fs;
use std::path::Path;

use bashni_rules::{Color, Move, MoveList, Position, Variant};

use std::sync::Arc;

use crate::file::{EgtbError, read_slice, signature_of_name};
use crate::index::{Layout, Placement, Signature};
use crate::on_demand::{Budget, DiskSlice};
use crate::parallel;
use crate::value::{self, NO_POSITION, Probe, from_successors, preference};

/// The values of one signature.
pub(crate) struct Slice {
    pub layout: Layout,
    pub values: Box<[u8]>,
}

/// How many positions of a slice are won, drawn and lost for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Counts {
    /// Won for the side to move.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost for the side to move.
    pub losses: u64,
    /// The longest win or loss, in plies.
    pub longest: u32,
}

impl Counts {
    /// All positions counted.
    pub fn positions(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    pub(crate) fn of(values: &[u8]) -> Counts {
        let mut tally = [0u64; 256];
        for &byte in values {
            tally[usize::from(byte)] += 1;
        }
        let mut counts = Counts::default();
        for (byte, &n) in tally.iter().enumerate() {
            match Probe::from_byte(byte as u8) {
                None => {}
                Some(probe) => {
                    match probe.verdict {
                        value::Verdict::Win => counts.wins += n,
                        value::Verdict::Draw => counts.draws += n,
                        value::Verdict::Loss => counts.losses += n,
                    }
                    if n > 0 {
                        counts.longest = counts.longest.max(probe.distance);
                    }
                }
            }
        }
        counts
    }
}

/// A position whose stored value is not what its moves imply.
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// The position.
    pub position: Position,
    /// What is stored (`None`: the slot says no position).
    pub stored: Option<Probe>,
    /// What the moves imply (`None`: a move leads where no table is).
    pub expected: Option<Probe>,
}

/// What [`Tablebase::verify`] found.
#[derive(Clone, Debug, Default)]
pub struct VerifyReport {
    /// Positions checked.
    pub checked: u64,
    /// Positions whose value is wrong, and slots wrongly marked as no position.
    pub mismatches: u64,
    /// The first few mismatches.
    pub examples: Vec<Mismatch>,
}

/// How many mismatches a report keeps as examples.
const EXAMPLES: usize = 10;

/// Endgame databases of Russian draughts: for every covered material, the result and the
/// distance to the end of every position.
pub struct Tablebase {
    slices: Vec<Option<Slice>>,
    max_pieces: u32,
    /// Slices read from disk on demand, by key, and the memory they may take.
    on_disk: Option<(Arc<Budget>, DiskSlices)>,
}

/// The slices kept on disk, by key.
type DiskSlices = Vec<Option<Arc<DiskSlice>>>;

impl std::fmt::Debug for Tablebase {
    /// What is held, not the values: the number of slices and the most pieces.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebase")
            .field("slices", &self.signatures().len())
            .field("max_pieces", &self.max_pieces)
            .finish()
    }
}

impl Default for Tablebase {
    fn default() -> Tablebase {
        Tablebase::new()
    }
}

impl Tablebase {
    /// Tables that cover nothing yet.
    pub fn new() -> Tablebase {
        Tablebase {
            slices: (0..Signature::KEYS).map(|_| None).collect(),
            max_pieces: 0,
            on_disk: None,
        }
    }

    /// As [`Tablebase::load`] with `memory` `None`; with a bound, the slices stay on disk
    /// until a probe needs them and then take at most `memory` bytes together (see
    /// [`Tablebase::open_on_demand`]).
    pub fn load_within(dir: &Path, memory: Option<u64>) -> Result<Tablebase, EgtbError> {
        let tables = match memory {
            None => Tablebase::open(dir)?,
            Some(limit) => Tablebase::open_on_demand(dir, limit)?,
        };
        if tables.max_pieces() == 0 {
            return Err(EgtbError::NoTables(dir.to_path_buf()));
        }
        Ok(tables)
    }

    /// The slices stored in `dir`, each read from disk when a probe first needs it, by a
    /// thread of its own: until its values are in memory, its positions count as not
    /// covered (the probe does not wait). The values in memory stay within `memory` bytes:
    /// to make room, the slices probed least recently are dropped (and read again when
    /// needed). A slice larger than the bound is never held. A file that turns out bad is
    /// not read again; [`Tablebase::problems`] says what went wrong.
    pub fn open_on_demand(dir: &Path, memory: u64) -> Result<Tablebase, EgtbError> {
        let io = |error| EgtbError::Io {
            path: dir.to_path_buf(),
            error,
        };
        let mut tables = Tablebase::new();
        let mut by_key: DiskSlices = (0..Signature::KEYS).map(|_| None).collect();
        let mut all = Vec::new();
        for entry in fs::read_dir(dir)
            .map_err(io)?
            .filter_map(|entry| entry.ok())
        {
            let Some(name) = entry.file_name().to_str().map(String::from) else {
                continue;
            };
            let Some(signature) = signature_of_name(&name).filter(|s| s.fits()) else {
                continue;
            };
            let slice = Arc::new(DiskSlice::new(signature, dir.join(&name)));
            tables.max_pieces = tables.max_pieces.max(signature.pieces());
            by_key[signature.key()] = Some(Arc::clone(&slice));
            all.push(slice);
        }
        tables.on_disk = Some((Budget::new(memory, all), by_key));
        Ok(tables)
    }

    /// Reads the slice of `signature` into memory now, if the tables hold it on disk
    /// (making room as [`Tablebase::open_on_demand`] says); `Ok(false)` when it is larger
    /// than the bound. Tables loaded whole have nothing to read.
    pub fn read_now(&self, signature: Signature) -> Result<bool, EgtbError> {
        match self.disk_slice(signature) {
            Some((budget, slice)) => budget.read(slice),
            None => Ok(self.has(signature)),
        }
    }

    /// The bound on memory of tables read on demand.
    pub fn memory_limit(&self) -> Option<u64> {
        self.on_disk.as_ref().map(|(budget, _)| budget.limit())
    }

    /// What went wrong reading slices on demand (the first few), for the program to report.
    pub fn problems(&self) -> Vec<String> {
        self.on_disk
            .as_ref()
            .map(|(budget, _)| budget.problems())
            .unwrap_or_default()
    }

    fn disk_slice(&self, signature: Signature) -> Option<(&Arc<Budget>, &Arc<DiskSlice>)> {
        let (budget, slices) = self.on_disk.as_ref()?;
        if !signature.fits() {
            return None;
        }
        Some((budget, slices[signature.key()].as_ref()?))
    }

    /// Loads the tables in `dir` for an engine to play by: as [`Tablebase::open`], and a
    /// directory holding no slice is an error too ([`EgtbError::NoTables`]).
    pub fn load(dir: &Path) -> Result<Tablebase, EgtbError> {
        Tablebase::load_within(dir, None)
    }

    /// Loads every slice stored in `dir` (files `russian-*.egtb`; other files are left
    /// alone). A bad file is an error naming it; a directory without slices gives tables that
    /// cover nothing.
    pub fn open(dir: &Path) -> Result<Tablebase, EgtbError> {
        let io = |error| EgtbError::Io {
            path: dir.to_path_buf(),
            error,
        };
        let mut tables = Tablebase::new();
        let mut names: Vec<_> = fs::read_dir(dir)
            .map_err(io)?
            .filter_map(|entry| entry.ok())
            .filter_map(|entry| entry.file_name().to_str().map(String::from))
            .filter(|name| signature_of_name(name).is_some())
            .collect();
        names.sort();
        for name in names {
            let (signature, values) = read_slice(&dir.join(&name))?;
            tables.insert(signature, values);
        }
        Ok(tables)
    }

    /// Adds or replaces the values of a slice.
    pub(crate) fn insert(&mut self, signature: Signature, values: Box<[u8]>) {
        self.max_pieces = self.max_pieces.max(signature.pieces());
        self.slices[signature.key()] = Some(Slice {
            layout: Layout::new(signature),
            values,
        });
    }

    /// Takes a slice out again (one that failed its check).
    pub(crate) fn remove(&mut self, signature: Signature) {
        self.slices[signature.key()] = None;
    }

    /// The signatures held, in building order.
    pub fn signatures(&self) -> Vec<Signature> {
        Signature::all_up_to(self.max_pieces)
            .into_iter()
            .filter(|s| self.has(*s))
            .collect()
    }

    /// Whether the slice of `signature` is held.
    pub fn has(&self, signature: Signature) -> bool {
        signature.fits()
            && (self.slices[signature.key()].is_some() || self.disk_slice(signature).is_some())
    }

    /// The most pieces of any slice held (0 when none is).
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The counts of wins, draws and losses of a slice held.
    /// (A slice kept on disk is read for it.)
    pub fn counts(&self, signature: Signature) -> Option<Counts> {
        if let Some(slice) = self.slice(signature) {
            return Some(Counts::of(&slice.values));
        }
        let (budget, slice) = self.disk_slice(signature)?;
        budget.values_now(slice).map(|values| Counts::of(&values))
    }

    /// How many bytes the values of the slices take in memory now.
    pub fn memory(&self) -> u64 {
        let whole: u64 = self
            .slices
            .iter()
            .flatten()
            .map(|slice| slice.values.len() as u64)
            .sum();
        whole + self.on_disk.as_ref().map_or(0, |(budget, _)| budget.held())
    }

    fn slice(&self, signature: Signature) -> Option<&Slice> {
        if signature.fits() {
            self.slices[signature.key()].as_ref()
        } else {
            None
        }
    }

    /// The result and distance of `position`, if it is a position of Russian draughts whose
    /// material the tables cover. A position where one side has no pieces is no covered
    /// position (the game is over). The result ignores the drawing counts of the rulebook
    /// (6.1.8): it is what the board alone allows.
    pub fn probe(&self, position: &Position) -> Option<Probe> {
        if position.variant() != Variant::Russian
            || position.occupied().count() > self.max_pieces
            || position.owned_by(Color::White).is_empty()
            || position.owned_by(Color::Black).is_empty()
        {
            return None;
        }
        self.byte(position).and_then(Probe::from_byte)
    }

    /// The stored byte of a Russian position: a loss at once when the side to move has no
    /// pieces, `None` when the slice is not held.
    pub(crate) fn byte(&self, position: &Position) -> Option<u8> {
        if position.owned_by(position.side_to_move()).is_empty() {
            return Some(value::loss_in(0));
        }
        let signature = Signature::of(position);
        if let Some(slice) = self.slice(signature) {
            let index = slice.layout.index(&Placement::of(position));
            return slice.values.get(index as usize).copied();
        }
        let (budget, slice) = self.disk_slice(signature)?;
        budget.byte(slice, slice.layout.index(&Placement::of(position)))
    }

    /// The legal moves of a covered `position`, best first by the tables, each with the
    /// value of the position it leads to (for the opponent, who moves there). Among moves
    /// of equal value the order of the notation decides. `None` if the position or one of
    /// its successors is not covered.
    pub fn ranked_moves(&self, position: &Position) -> Option<Vec<(Move, Probe)>> {
        self.probe(position)?;
        let mut moves: Vec<(Move, u8)> = Vec::new();
        for mv in position.legal_moves().iter() {
            let byte = self.byte(&position.after(mv))?;
            moves.push((*mv, byte));
        }
        moves.sort_by(|a, b| {
            preference(b.1)
                .cmp(&preference(a.1))
                .then_with(|| a.0.cmp_by_text(&b.0))
        });
        moves
            .into_iter()
            .map(|(mv, byte)| Probe::from_byte(byte).map(|probe| (mv, probe)))
            .collect()
    }

    /// The move perfect play chooses in a covered `position`: when winning, towards the
    /// fastest win; when losing, towards the slowest loss; else a move that keeps the draw.
    /// `None` when the position is not covered or has no move.
    pub fn best_move(&self, position: &Position) -> Option<Move> {
        self.ranked_moves(position)?.first().map(|(mv, _)| *mv)
    }

    /// The value that `position`'s moves imply, from the stored values of its successors;
    /// `None` if one of them is not covered.
    fn implied(&self, position: &Position, moves: &mut MoveList) -> Option<u8> {
        position.generate_moves(moves);
        let mut successors = Vec::with_capacity(moves.len());
        for mv in moves.iter() {
            successors.push(self.byte(&position.after(mv))?);
        }
        Some(from_successors(successors))
    }

    /// Checks every slot of one slice against the values its moves imply.
    pub(crate) fn verify_slice(
        &self,
        signature: Signature,
        threads: usize,
        report: &mut VerifyReport,
        progress: &mut dyn FnMut(u64, u64),
    ) {
        /// What one thread found.
        #[derive(Default)]
        struct Part {
            moves: MoveList,
            checked: u64,
            mismatches: u64,
            /// The first few mismatches of this thread, with their slots.
            examples: Vec<(usize, Mismatch)>,
        }
        let Some(slice) = self.slice(signature) else {
            return;
        };
        let total = slice.values.len();
        let check = |part: &mut Part, slots: std::ops::Range<usize>| {
            for index in slots {
                let stored = slice.values[index];
                let position = slice
                    .layout
                    .placement(index as u64)
                    .and_then(|p| p.position());
                let Some(position) = position else {
                    if stored != NO_POSITION {
                        part.mismatches += 1;
                    }
                    continue;
                };
                part.checked += 1;
                let expected = self.implied(&position, &mut part.moves);
                if expected != Some(stored) {
                    part.mismatches += 1;
                    if part.examples.len() < EXAMPLES {
                        part.examples.push((
                            index,
                            Mismatch {
                                position,
                                stored: Probe::from_byte(stored),
                                expected: expected.and_then(Probe::from_byte),
                            },
                        ));
                    }
                }
            }
            true
        };
        let mut parts: Vec<Part> = (0..threads.max(1)).map(|_| Part::default()).collect();
        parallel::in_blocks(&mut parts, total, &check, &mut |done| {
            progress(done as u64, total as u64)
        });
        let mut examples = Vec::new();
        for part in parts {
            report.checked += part.checked;
            report.mismatches += part.mismatches;
            examples.extend(part.examples);
        }
        // The first mismatches by slot, whichever thread met them.
        examples.sort_by_key(|(index, _)| *index);
        let room = EXAMPLES.saturating_sub(report.examples.len());
        report.examples.extend(
            examples
                .into_iter()
                .take(room)
                .map(|(_, mismatch)| mismatch),
        );
        progress(total as u64, total as u64);
    }

    /// Checks every stored position: its value and distance must be what the values of the
    /// positions its moves lead to imply. `progress` hears each slice's signature with the
    /// slots done and the slots in all. Uses one thread per core.
    pub fn verify(&self, mut progress: impl FnMut(Signature, u64, u64)) -> VerifyReport {
        let threads = crate::build::default_threads();
        let mut report = VerifyReport::default();
        for signature in self.signatures() {
            self.verify_slice(signature, threads, &mut report, &mut |done, total| {
                progress(signature, done, total)
            });
        }
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::build;
    use crate::value::{DRAW, win_in};
    use bashni_rules::notation::parse_position;

    #[test]
    fn verify_finds_a_changed_value() {
        let dir = std::env::temp_dir().join(format!("bashni-egtb-verify-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        build(&dir, 2, |_| {}).expect("built");
        let mut tables = Tablebase::open(&dir).expect("loaded");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(tables.verify(|_, _, _| {}).mismatches, 0);

        // A drawn king ending said to be won.
        let text = "White: c1 1; Black: h8 1; White to move";
        let position = parse_position(Variant::Russian, text).expect("a position");
        let signature = Signature::of(&position);
        let index = Layout::new(signature).index(&Placement::of(&position)) as usize;
        let slice = tables.slice(signature).expect("held");
        let mut values = slice.values.to_vec();
        assert_eq!(values[index], DRAW);
        values[index] = win_in(5);
        tables.insert(signature, values.into_boxed_slice());
        let report = tables.verify(|_, _, _| {});
        assert!(report.mismatches >= 1);
        let wrong = report
            .examples
            .iter()
            .find(|m| m.position == position)
            .expect("the changed position is named");
        assert_eq!(wrong.stored.map(|p| p.distance), Some(5));
        assert_eq!(
            wrong.expected.map(|p| p.verdict),
            Some(crate::Verdict::Draw)
        );
    }
}
