//! Writes a corpus of random legal games in mixed dialects, for measuring a PDN reader:
//!
//! ```sh
//! cargo run --release -p bashni-pdn --example corpus -- 100000 1 > corpus.pdn
//! bashni pdn check --quiet corpus.pdn
//! ```
//!
//! The arguments are the number of games and a seed; the same seed gives the same corpus.

#[path = "../tests/common/corpus.rs"]
mod corpus;

use std::io::Write;

fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1);
    let games = args.next().map_or(Ok(1000), |n| n.parse::<u64>());
    let seed = args.next().map_or(Ok(1), |n| n.parse::<u64>());
    let (Ok(games), Ok(seed)) = (games, seed) else {
        eprintln!("usage: corpus [GAMES] [SEED]   (both whole numbers)");
        return std::process::ExitCode::from(2);
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for index in 0..games {
        if let Err(error) = out.write_all(&corpus::game_text(seed, index)) {
            eprintln!("corpus: {error}");
            return std::process::ExitCode::FAILURE;
        }
    }
    if let Err(error) = out.flush() {
        eprintln!("corpus: {error}");
        return std::process::ExitCode::FAILURE;
    }
    std::process::ExitCode::SUCCESS
}
