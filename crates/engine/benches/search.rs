//! Search speed over the bench positions. The node count of each position is checked to be
//! the same on every run before timing, so that a change in search behaviour is seen.
//! Run with `cargo bench -p bashni-engine --bench search`.

// The criterion macros generate undocumented functions.
#![allow(missing_docs)]

use std::hint::black_box;

use bashni_engine::Past;
use bashni_engine::bench::{POSITIONS, position};
use bashni_engine::{Engine, Limits, Options};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const DEPTH: u32 = 7;

fn nodes(engine: &Engine, index: usize) -> u64 {
    let (variant, text) = POSITIONS[index];
    engine.new_game();
    engine
        .search(
            &position(variant, text),
            &Past::default(),
            &Limits::depth(DEPTH),
            |_| {},
        )
        .nodes
}

fn bench_search(c: &mut Criterion) {
    let engine = Engine::new(Options {
        hash_mb: 16,
        threads: 1,
        multipv: 1,
    });
    let mut group = c.benchmark_group("search");
    for (index, (variant, text)) in POSITIONS.iter().enumerate() {
        let count = nodes(&engine, index);
        assert_eq!(
            nodes(&engine, index),
            count,
            "{text}: the node count changes between runs"
        );
        assert!(count > 0);
        group.throughput(Throughput::Elements(count));
        let name = format!("{} {index}", variant.name());
        group.bench_function(name, |b| b.iter(|| nodes(&engine, black_box(index))));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench_search
}
criterion_main!(benches);
