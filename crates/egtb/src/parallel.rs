//! Work over a range shared by a few threads, a block at a time.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Items a thread takes at a time: small enough that the threads finish together, large
/// enough that taking one costs nothing.
pub(crate) const BLOCK: usize = 1 << 12;

/// Runs `work` over `0..len` in blocks of [`BLOCK`], on one thread per state at once (the
/// first state's on the calling thread, which hears `progress` with where each block it
/// takes starts: how far the blocks handed out have come). Once `work` returns `false` no more blocks are handed out.
pub(crate) fn in_blocks<S: Send>(
    states: &mut [S],
    len: usize,
    work: &(dyn Fn(&mut S, Range<usize>) -> bool + Sync),
    progress: &mut dyn FnMut(usize),
) {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let run = |state: &mut S, progress: &mut dyn FnMut(usize)| {
        while !stop.load(Ordering::Relaxed) {
            let start = next.fetch_add(BLOCK, Ordering::Relaxed);
            if start >= len {
                break;
            }
            progress(start);
            if !work(state, start..(start + BLOCK).min(len)) {
                stop.store(true, Ordering::Relaxed);
                break;
            }
        }
    };
    let Some((first, rest)) = states.split_first_mut() else {
        return;
    };
    std::thread::scope(|scope| {
        for state in rest {
            scope.spawn(|| run(state, &mut |_| {}));
        }
        run(first, progress);
    });
}
