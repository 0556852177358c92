//! How long the engine takes against its time limits, measured on this machine: a move
//! time, short clocks, a stop from another thread, a stop given before the search. Each
//! prints what it measured and fails if the engine went past its limit by more than the
//! tolerance. Timing figures depend on the machine and what else runs on it, so they are a
//! benchmark, not a test: run with `cargo bench -p bashni-engine --bench limits` on an
//! otherwise idle machine. (Under `cargo test` it does nothing.)

#![allow(missing_docs)]

use std::time::{Duration, Instant};

use bashni_engine::{Clock, Engine, Limits, Options, Past, StopToken};
use bashni_rules::{Position, Variant};

/// How far past its budget a search may end: the deadline is checked every 1024 nodes.
const TOLERANCE: Duration = Duration::from_millis(60);

fn check(name: &str, used: Duration, limit: Duration) -> bool {
    let ok = used <= limit;
    println!(
        "{name:<44} {:>9.1} ms (limit {:>7.1} ms) {}",
        used.as_secs_f64() * 1e3,
        limit.as_secs_f64() * 1e3,
        if ok { "ok" } else { "OVER" }
    );
    ok
}

fn main() {
    if !std::env::args().any(|arg| arg == "--bench") {
        return;
    }
    let mut ok = true;
    let engine = Engine::new(Options::default());
    for variant in [Variant::Bashni, Variant::Russian] {
        let started = Instant::now();
        let result = engine.search(
            &Position::start(variant),
            &Past::default(),
            &Limits::movetime(Duration::from_millis(200)),
            |_| {},
        );
        let name = format!(
            "{} movetime 200 ms (depth {})",
            variant.name(),
            result.depth
        );
        ok &= check(
            &name,
            started.elapsed(),
            Duration::from_millis(200) + TOLERANCE,
        );
    }
    let start = Position::start(Variant::Bashni);
    for remaining in [30u64, 300, 3000] {
        let limits = Limits {
            clock: Some(Clock {
                remaining: Duration::from_millis(remaining),
                increment: Duration::ZERO,
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let started = Instant::now();
        let result = engine.search(&start, &Past::default(), &limits, |_| {});
        assert!(result.best.is_some());
        ok &= check(
            &format!("bashni clock {remaining} ms left"),
            started.elapsed(),
            Duration::from_millis(remaining / 3) + TOLERANCE,
        );
    }
    let two = Engine::new(Options {
        threads: 2,
        ..Options::default()
    });
    let stop = StopToken::new();
    let limits = Limits::default().with_stop(stop.clone());
    let russian = Position::start(Variant::Russian);
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(150));
        stop.stop();
    });
    let started = Instant::now();
    let result = two.search(&russian, &Past::default(), &limits, |_| {});
    let used = started.elapsed();
    stopper.join().expect("the stopper thread");
    assert!(result.best.is_some());
    ok &= check(
        "russian, two threads, stopped after 150 ms",
        used,
        Duration::from_millis(150) + TOLERANCE * 2,
    );
    let stopped = StopToken::new();
    stopped.stop();
    let started = Instant::now();
    engine.search(
        &russian,
        &Past::default(),
        &Limits::default().with_stop(stopped),
        |_| {},
    );
    ok &= check(
        "russian, stopped before it began",
        started.elapsed(),
        TOLERANCE * 2,
    );
    assert!(ok, "a search went past its limit");
}
