//! Times perft from the start: `cargo run --release --example perft_speed -- russian 10`.
fn main() {
    let mut args = std::env::args().skip(1);
    let variant =
        bashni_rules::Variant::parse(&args.next().unwrap_or("russian".into())).expect("variant");
    let depth: u32 = args.next().map_or(10, |d| d.parse().expect("depth"));
    let start = bashni_rules::Position::start(variant);
    let t = std::time::Instant::now();
    let n = bashni_rules::perft(&start, depth);
    let s = t.elapsed().as_secs_f64();
    println!(
        "{variant} perft({depth}) = {n} in {s:.3} s, {:.1} Mnps",
        n as f64 / s / 1e6
    );
}
