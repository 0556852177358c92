//! Checks move generation against the shared conformance vectors and perft tables.

use std::collections::{BTreeMap, BTreeSet};

use bashni_rules::notation::{parse_position, write_position};
use bashni_rules::{Position, Variant, perft};

fn data(name: &str) -> String {
    let path = format!(
        "{}/tests/data/conformance/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn check_vectors(file: &str, variant: Variant) {
    let text = data(file);
    let mut checked = 0;
    for (number, line) in text.lines().enumerate() {
        let record: serde_json::Value = serde_json::from_str(line).expect("valid JSON");
        let position_text = record["position"].as_str().expect("position");
        let position = parse_position(variant, position_text)
            .unwrap_or_else(|e| panic!("{file}:{}: {e}", number + 1));
        assert_eq!(
            write_position(&position),
            position_text,
            "{file}:{} writes back",
            number + 1
        );
        let mut expected: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for mv in record["moves"].as_array().expect("moves") {
            let result = mv["result"].as_str().expect("result").to_string();
            let paths = mv["paths"].as_array().expect("paths").iter();
            let paths = paths
                .map(|p| p.as_str().expect("path").to_string())
                .collect();
            assert!(expected.insert(result, paths).is_none());
        }
        let moves = position.legal_moves();
        let mut got = BTreeMap::new();
        for mv in moves.iter() {
            let after = position.after(mv);
            assert_eq!(
                after.hash(),
                after.recompute_hash(),
                "{file}:{} hash after {mv}",
                number + 1
            );
            let result = write_position(&after);
            assert!(
                got.insert(result.clone(), mv.to_string()).is_none(),
                "{file}:{}: two moves give {result}",
                number + 1
            );
        }
        let expected_results: BTreeSet<_> = expected.keys().cloned().collect();
        let got_results: BTreeSet<_> = got.keys().cloned().collect();
        assert_eq!(
            got_results,
            expected_results,
            "{file}:{}: {position_text}\n got {:?}",
            number + 1,
            got.values().collect::<Vec<_>>()
        );
        for (result, text) in &got {
            assert!(
                expected[result].contains(text),
                "{file}:{}: wrote {text}, expected one of {:?}",
                number + 1,
                expected[result]
            );
        }
        checked += 1;
    }
    assert!(checked > 0, "{file} has no positions");
}

#[test]
fn bashni_moves() {
    check_vectors("bashni-moves.jsonl", Variant::Bashni);
}

#[test]
fn bashni_setups() {
    check_vectors("bashni-setups.jsonl", Variant::Bashni);
}

#[test]
fn bashni_special() {
    check_vectors("bashni-special.jsonl", Variant::Bashni);
}

#[test]
fn russian_moves() {
    check_vectors("russian-moves.jsonl", Variant::Russian);
}

#[test]
fn russian_setups() {
    check_vectors("russian-setups.jsonl", Variant::Russian);
}

#[test]
fn russian_special() {
    check_vectors("russian-special.jsonl", Variant::Russian);
}

/// Every perft line up to this many nodes runs in the test suite; the rest are for
/// `bashni perft` and the benchmarks.
const NODE_LIMIT: u64 = 5_000_000;

#[test]
fn perft_table() {
    let mut checked = 0;
    for line in data("perft.txt").lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let variant = Variant::parse(fields[0]).expect("variant");
        let position = match fields[1] {
            "start" => Position::start(variant),
            text => parse_position(variant, text).expect("perft position"),
        };
        let depth: u32 = fields[2].parse().expect("depth");
        let count: u64 = fields[3].parse().expect("count");
        if count > NODE_LIMIT {
            continue;
        }
        assert_eq!(perft(&position, depth), count, "{line}");
        checked += 1;
    }
    assert!(checked >= 40);
}
