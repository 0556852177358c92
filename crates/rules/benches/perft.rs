//! Perft speed of both games, from the start and from tower-rich positions.
//!
//! Every benchmark first checks its node count, so a faster but wrong generator fails.
//! Run with `cargo bench -p bashni-rules --bench perft`.

// The criterion macros generate undocumented functions.
#![allow(missing_docs)]

use std::hint::black_box;

use bashni_rules::notation::parse_position;
use bashni_rules::{Position, Variant, perft};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// (name, variant, position or "start", depth, nodes), counts from the conformance tables.
const CASES: &[(&str, Variant, &str, u32, u64)] = &[
    ("russian start", Variant::Russian, "start", 8, 929_899),
    ("bashni start", Variant::Bashni, "start", 8, 925_862),
    (
        "bashni towers 1",
        Variant::Bashni,
        "White: d8 1/0, e3 001/011, e5 00, h2 1/0100, h4 011/10; Black: b4 0, c3 0/01; White to move",
        4,
        1261,
    ),
    (
        "bashni towers 2",
        Variant::Bashni,
        "White: a1 0, d6 0, e5 0/0, f2 000, f6 00, h6 1; Black: b4 0, c1 1, f8 01/0, h4 0011/01, h8 011; Black to move",
        4,
        851,
    ),
];

fn position(variant: Variant, text: &str) -> Position {
    if text == "start" {
        Position::start(variant)
    } else {
        parse_position(variant, text).expect("benchmark position")
    }
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    for &(name, variant, text, depth, nodes) in CASES {
        let start = position(variant, text);
        assert_eq!(perft(&start, depth), nodes, "{name}: node count");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| b.iter(|| perft(black_box(&start), depth)));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench_perft
}
criterion_main!(benches);
