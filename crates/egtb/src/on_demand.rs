//! Slices read from disk when a probe first needs them, within a bound on memory: the ones
//! used least recently make room. A probe never waits for the disk: a slice not in memory
//! yet answers "not covered" while a thread of its own reads it.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use crate::file::{EgtbError, read_slice};
use crate::index::{Layout, Signature};

/// One slice on disk, and its values while they are in memory.
pub(crate) struct DiskSlice {
    pub signature: Signature,
    pub layout: Layout,
    path: PathBuf,
    values: RwLock<Option<Arc<[u8]>>>,
    /// Set while a read is under way or once it failed for good.
    reading: AtomicBool,
    /// The budget's clock at the last probe.
    last_used: AtomicU64,
}

/// The memory the slices on disk may take, and what they take now.
pub(crate) struct Budget {
    limit: u64,
    held: Mutex<u64>,
    clock: AtomicU64,
    slices: Vec<Arc<DiskSlice>>,
    problems: Mutex<Vec<String>>,
}

impl DiskSlice {
    pub(crate) fn new(signature: Signature, path: PathBuf) -> DiskSlice {
        DiskSlice {
            signature,
            layout: Layout::new(signature),
            path,
            values: RwLock::new(None),
            reading: AtomicBool::new(false),
            last_used: AtomicU64::new(0),
        }
    }

    fn values(&self) -> Option<Arc<[u8]>> {
        self.values
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn is_held(&self) -> bool {
        self.values
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .is_some()
    }
}

impl Budget {
    pub(crate) fn new(limit: u64, slices: Vec<Arc<DiskSlice>>) -> Arc<Budget> {
        Arc::new(Budget {
            limit,
            held: Mutex::new(0),
            clock: AtomicU64::new(0),
            slices,
            problems: Mutex::new(Vec::new()),
        })
    }

    /// The stored byte at `index` of `slice` if its values are in memory; otherwise starts
    /// reading them (once) and answers `None`.
    pub(crate) fn byte(self: &Arc<Budget>, slice: &Arc<DiskSlice>, index: u64) -> Option<u8> {
        let tick = self.clock.fetch_add(1, Ordering::Relaxed);
        slice.last_used.store(tick, Ordering::Relaxed);
        {
            let values = slice.values.read().unwrap_or_else(PoisonError::into_inner);
            if let Some(values) = values.as_ref() {
                return values.get(index as usize).copied();
            }
        }
        if !slice.reading.swap(true, Ordering::AcqRel) {
            let budget = Arc::clone(self);
            let reading = Arc::clone(slice);
            let spawned = std::thread::Builder::new()
                .name("egtb-read".into())
                .spawn(move || {
                    let _ = budget.read(&reading);
                });
            if spawned.is_err() {
                slice.reading.store(false, Ordering::Release);
            }
        }
        None
    }

    /// Reads `slice` into memory now (making room as needed); `Ok(false)` when it alone is
    /// larger than the bound, so it is never held.
    pub(crate) fn read(&self, slice: &DiskSlice) -> Result<bool, EgtbError> {
        if slice.is_held() {
            return Ok(true);
        }
        let size = slice.layout.len();
        if size > self.limit {
            self.problem(format!(
                "slice {} needs {size} bytes, more than the {} allowed",
                slice.signature, self.limit
            ));
            return Ok(false);
        }
        let values: Arc<[u8]> = match read_slice(&slice.path) {
            Ok((_, values)) => values.into(),
            Err(error) => {
                // Left marked as being read: a broken file is not read again and again.
                self.problem(error.to_string());
                return Err(error);
            }
        };
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        if slice.is_held() {
            return Ok(true);
        }
        while *held + size > self.limit {
            let oldest = self
                .slices
                .iter()
                .filter(|other| !std::ptr::eq(Arc::as_ptr(other), slice) && other.is_held())
                .min_by_key(|other| other.last_used.load(Ordering::Relaxed));
            let Some(oldest) = oldest else { break };
            let dropped = oldest
                .values
                .write()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
            if let Some(dropped) = dropped {
                *held -= dropped.len() as u64;
            }
            oldest.reading.store(false, Ordering::Release);
        }
        *held += values.len() as u64;
        *slice.values.write().unwrap_or_else(PoisonError::into_inner) = Some(values);
        Ok(true)
    }

    fn problem(&self, text: String) {
        let mut problems = self.problems.lock().unwrap_or_else(PoisonError::into_inner);
        if problems.len() < 16 {
            problems.push(text);
        }
    }

    /// Bytes of values in memory now.
    pub(crate) fn held(&self) -> u64 {
        *self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The bound.
    pub(crate) fn limit(&self) -> u64 {
        self.limit
    }

    /// What went wrong reading slices (the first few).
    pub(crate) fn problems(&self) -> Vec<String> {
        self.problems
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The values of `slice`, read now if need be.
    pub(crate) fn values_now(&self, slice: &DiskSlice) -> Option<Arc<[u8]>> {
        match self.read(slice) {
            Ok(true) => slice.values(),
            _ => None,
        }
    }
}
