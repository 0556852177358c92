//! Searches the start position for a while: `cargo run --release --example think -- bashni 1000`.
use bashni_engine::Past;
use bashni_engine::{Engine, Limits, Options};
use bashni_rules::{Position, Variant};
fn main() {
    let mut args = std::env::args().skip(1);
    let variant = Variant::parse(&args.next().unwrap_or("bashni".into())).expect("variant");
    let ms: u64 = args.next().map_or(1000, |a| a.parse().expect("ms"));
    let threads: usize = args.next().map_or(1, |a| a.parse().expect("threads"));
    let hash_mb: usize = args.next().map_or(64, |a| a.parse().expect("MB"));
    let engine = Engine::new(Options {
        threads,
        hash_mb,
        ..Options::default()
    });
    let result = engine.search(
        &Position::start(variant),
        &Past::default(),
        &Limits::movetime(std::time::Duration::from_millis(ms)),
        |i| {
            let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
            println!(
                "depth {} seldepth {} score {} nodes {} nps {} time {:?} pv {}",
                i.depth,
                i.seldepth,
                i.score,
                i.nodes,
                i.nps,
                i.time,
                pv.join(" ")
            );
        },
    );
    println!("best {:?} time {:?}", result.best, result.time);
}
