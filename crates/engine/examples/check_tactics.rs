//! Keeps the lines of a `find_tactics` file whose move a depth-8 search finds and a depth-10
//! search without reductions or pruning confirms with a margin of 100: the criteria of
//! `tests/tactics.rs`.
use bashni_engine::Past;
use bashni_engine::{Engine, Limits, Options};
use bashni_rules::Variant;
use bashni_rules::notation::{parse_move, parse_position};
use std::io::BufRead;
fn main() {
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("line");
        let f: Vec<&str> = line.split('\t').collect();
        let variant = Variant::parse(f[0]).expect("variant");
        let position = parse_position(variant, f[1]).expect("position");
        let expected = parse_move(&position, f[2]).expect("move");
        let engine = Engine::new(Options {
            hash_mb: 16,
            ..Options::default()
        });
        let shallow = engine.search(&position, &Past::default(), &Limits::depth(8), |_| {});
        let mut engine = Engine::new(Options {
            hash_mb: 16,
            ..Options::default()
        });
        engine.set_reductions(false);
        let deep = engine.search_lines(&position, &Past::default(), &Limits::depth(10), 2, |_| {});
        let ok = shallow
            .best
            .is_some_and(|b| b.same_result(&expected, variant))
            && deep.lines.len() == 2
            && deep.lines[0].pv[0].same_result(&expected, variant)
            && deep.lines[0].score.value() - deep.lines[1].score.value() >= 100;
        if ok {
            println!("{line}");
        }
    }
}
