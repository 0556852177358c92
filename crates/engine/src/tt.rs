//! The transposition table: what the search learned about positions, shared by all threads.
//!
//! Each entry is two `u64`s: the position's hash XOR the data, and the data. A reader
//! accepts an entry only if the two agree, so an entry torn by two threads writing at once
//! is ignored rather than believed; no locks are needed.

use std::sync::atomic::{AtomicU64, Ordering};

use bashni_rules::{Move, MoveList};

use crate::score::Value;

/// What a stored value means.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The exact value.
    Exact,
    /// At least this value (the search failed high).
    Lower,
    /// At most this value (the search failed low).
    Upper,
}

/// One entry, unpacked.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    /// The value, relative to the position (wins counted from here).
    pub value: Value,
    /// Its meaning.
    pub bound: Bound,
    /// The depth it was searched to.
    pub depth: u8,
    /// The fingerprint of the best move (see [`fingerprint`]), if known.
    pub best: Option<u16>,
}

impl Entry {
    fn pack(self, age: u8) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let best = self.best.map_or(0xFFFF, u64::from);
        (self.value as u16 as u64)
            | (self.depth as u64) << 16
            | bound << 24
            | best << 32
            | (age as u64) << 48
    }

    fn unpack(data: u64) -> (Entry, u8) {
        let bound = match (data >> 24) & 0xFF {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        let best = ((data >> 32) & 0xFFFF) as u16;
        let entry = Entry {
            value: data as u16 as i16 as Value,
            bound,
            depth: (data >> 16) as u8,
            best: (best != 0xFFFF).then_some(best),
        };
        (entry, (data >> 48) as u8)
    }
}

/// The shared table.
pub struct TranspositionTable {
    slots: Vec<[AtomicU64; 2]>,
    age: std::sync::atomic::AtomicU8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one entry).
    pub fn new(megabytes: usize) -> TranspositionTable {
        // The largest power of two of 16-byte entries that fits.
        let wanted = megabytes.max(1) * 1024 * 1024 / 16;
        let entries = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        let slots = (0..entries.max(1024))
            .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
            .collect();
        TranspositionTable {
            slots,
            age: std::sync::atomic::AtomicU8::new(0),
        }
    }

    /// The size in MB.
    pub fn megabytes(&self) -> usize {
        self.slots.len() * 16 / (1024 * 1024)
    }

    /// Forgets everything (a new game).
    pub fn clear(&self) {
        for slot in &self.slots {
            slot[0].store(0, Ordering::Relaxed);
            slot[1].store(0, Ordering::Relaxed);
        }
    }

    /// Marks the start of a new search, so that old entries give way first.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    /// The two slots a position may be kept in: a pair of neighbours, so that a deep
    /// entry is not pushed out by every shallow one that lands on it.
    fn bucket(&self, hash: u64) -> [&[AtomicU64; 2]; 2] {
        // The table length is a power of two, at least 1024.
        let first = (hash as usize) & (self.slots.len() - 1) & !1;
        [&self.slots[first], &self.slots[first + 1]]
    }

    /// What is known of the position with this hash.
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        self.bucket(hash).into_iter().find_map(|slot| {
            let check = slot[0].load(Ordering::Relaxed);
            let data = slot[1].load(Ordering::Relaxed);
            (check ^ data == hash && data != 0).then(|| Entry::unpack(data).0)
        })
    }

    /// Stores what the search found: over this position's own entry if the bucket has one,
    /// else over the entry of an older search or the shallower one.
    pub fn store(&self, hash: u64, entry: Entry) {
        let age = self.age.load(Ordering::Relaxed);
        let bucket = self.bucket(hash);
        let mut victim = bucket[0];
        let mut victim_worth = i32::MAX;
        for slot in bucket {
            let data = slot[1].load(Ordering::Relaxed);
            let check = slot[0].load(Ordering::Relaxed);
            if data == 0 || check ^ data == hash {
                victim = slot;
                break;
            }
            let (old, old_age) = Entry::unpack(data);
            // What keeping it is worth: its depth, much less if it is from an older search.
            let worth = old.depth as i32 + if old_age == age { 256 } else { 0 };
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        let data = entry.pack(age);
        victim[0].store(hash ^ data, Ordering::Relaxed);
        victim[1].store(data, Ordering::Relaxed);
    }
}

/// A 16-bit mark of a move, enough to find it again among the moves of its position:
/// start, end, and a digest of the jumped squares (paths between the same squares differ
/// there).
pub fn fingerprint(mv: &Move) -> u16 {
    let digest = mv
        .captured()
        .iter()
        .fold(0u16, |acc, s| acc.rotate_left(3) ^ s.index() as u16);
    (mv.from().index() as u16) | (mv.to().index() as u16) << 6 | (digest & 0xF) << 12
}

/// The move of `list` with this fingerprint, if there is one.
pub fn find(list: &MoveList, mark: Option<u16>) -> Option<Move> {
    let mark = mark?;
    list.iter().find(|m| fingerprint(m) == mark).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_and_refuses_other_hashes() {
        let table = TranspositionTable::new(1);
        let entry = Entry {
            value: -1234,
            bound: Bound::Lower,
            depth: 9,
            best: Some(3),
        };
        table.store(0xDEAD_BEEF, entry);
        assert_eq!(table.probe(0xDEAD_BEEF), Some(entry));
        assert_eq!(table.probe(0xDEAD_BEEF ^ (1 << 40)), None);
        table.clear();
        assert_eq!(table.probe(0xDEAD_BEEF), None);
        assert!(table.megabytes() >= 1);
    }
}
