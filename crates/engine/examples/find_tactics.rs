//! Finds tactical test positions in random games: the side to move has a quiet move that
//! wins material only a search sees, and no other move comes close.
//!
//! `cargo run --release -p bashni-engine --example find_tactics -- bashni 40 7`
//! prints lines `variant<TAB>position<TAB>best move<TAB>gain<TAB>themes`.
use bashni_engine::Past;
use bashni_engine::rng::Rng;
use bashni_engine::{Engine, Limits, Options};
use bashni_rules::notation::write_position;
use bashni_rules::{Game, Position, Variant};

fn themes(position: &Position, line: &[bashni_rules::Move]) -> Vec<&'static str> {
    let mut out = Vec::new();
    let mut p = *position;
    let me = position.side_to_move();
    for mv in line {
        if mv.is_capture() && p.side_to_move() == me {
            for (i, sq) in mv.captured().iter().enumerate() {
                if mv.captured_king(i) && !out.contains(&"king capture") {
                    out.push("king capture");
                }
                let t = p.tower(*sq);
                if position.variant() == Variant::Bashni
                    && t.owner_run() == 1
                    && t.height() > 1
                    && !out.contains(&"tower shot frees prisoners")
                {
                    out.push("tower shot frees prisoners");
                }
            }
            if mv.promotes()
                && !mv.captured().is_empty()
                && !out.contains(&"promotion during capture")
            {
                out.push("promotion during capture");
            }
        }
        p.play(mv);
    }
    out
}

fn main() {
    let mut args = std::env::args().skip(1);
    let variant = Variant::parse(&args.next().unwrap_or("bashni".into())).expect("variant");
    let games: usize = args.next().map_or(40, |a| a.parse().expect("games"));
    let mut rng = Rng::new(args.next().map_or(7, |a| a.parse().expect("seed")));
    let engine = Engine::new(Options {
        hash_mb: 16,
        ..Options::default()
    });
    for _ in 0..games {
        let mut game = Game::start(variant);
        for ply in 0..80 {
            let moves = game.legal_moves();
            if moves.is_empty() || game.is_over() {
                break;
            }
            let position = *game.position();
            if ply >= 6 && !moves[0].is_capture() && moves.len() >= 3 {
                engine.new_game();
                let deep =
                    engine.search_lines(&position, &Past::default(), &Limits::depth(9), 2, |_| {});
                if deep.lines.len() == 2 {
                    let best = deep.lines[0].score.value();
                    let second = deep.lines[1].score.value();
                    let shallow =
                        engine.search(&position, &Past::default(), &Limits::depth(1), |_| {});
                    let base = shallow.score.value();
                    if best - second >= 150 && best - base >= 150 && best < 5000 {
                        let line = &deep.lines[0].pv;
                        println!(
                            "{}\t{}\t{}\t{}\t{}",
                            variant,
                            write_position(&position),
                            line[0],
                            best - base,
                            themes(&position, line).join(",")
                        );
                    }
                }
            }
            let mv = moves[rng.below(moves.len())];
            game.play(&mv).expect("legal");
        }
    }
}
