//! Checking a large file stays in constant memory: the heap in use while reading and
//! replaying does not grow with the number of games.

mod common;

use std::io::{BufReader, Read};

use bashni_pdn::{Reader, replay_record};
use common::corpus;
use peak_alloc::PeakAlloc;

/// Counts the bytes in use on the heap and their highest mark.
#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

/// The corpus as a stream: each game is made when the reader asks for more bytes, so the
/// input itself never sits in memory.
struct Corpus {
    seed: u64,
    next: u64,
    games: u64,
    pending: Vec<u8>,
    at: usize,
}

impl Read for Corpus {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.pending.len() {
            if self.next == self.games {
                return Ok(0);
            }
            self.pending = corpus::game_text(self.seed, self.next);
            self.at = 0;
            self.next += 1;
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Reads and replays `games` games of the corpus; returns the highest heap in use and how
/// many games were good (replayed, perhaps stopping early at an unknown move).
fn check(games: u64) -> (usize, u64) {
    let input = Corpus {
        seed: 7,
        next: 0,
        games,
        pending: Vec::new(),
        at: 0,
    };
    let before = HEAP.current_usage();
    HEAP.reset_peak_usage();
    let mut good = 0;
    for game in Reader::new(BufReader::with_capacity(8192, input)) {
        let raw = game.unwrap_or_else(|e| panic!("{e}"));
        let replayed = replay_record(&raw, None).unwrap_or_else(|e| panic!("{e}"));
        assert!(replayed.game.ply() > 0);
        good += 1;
    }
    (HEAP.peak_usage().saturating_sub(before), good)
}

#[test]
fn checking_stays_in_constant_memory() {
    let (small, good) = check(2_000);
    assert_eq!(good, 2_000);
    let (large, good) = check(20_000);
    assert_eq!(good, 20_000);
    println!("peak heap: {small} bytes for 2,000 games, {large} bytes for 20,000");
    // Ten times the games may not need more memory than a few games' worth more.
    assert!(
        large < small + 256 * 1024,
        "peak heap {large} bytes for 20,000 games, {small} for 2,000"
    );
    assert!(large < 4 * 1024 * 1024, "peak heap {large} bytes");
}
