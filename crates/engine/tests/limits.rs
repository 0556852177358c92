//! The engine answers within its limits, stops when told, and plays only legal moves.

use std::time::Duration;

use bashni_engine::{Clock, Engine, Level, Limits, Options, Past, StopToken};
use bashni_rules::{Game, Position, Variant};

// How long searches take against their limits is measured by the benchmark
// `benches/limits.rs`: timing depends on the machine. These tests check what does not.

#[test]
fn a_search_with_a_move_time_or_a_clock_ends_by_itself_with_a_legal_move() {
    let engine = Engine::new(Options::default());
    for variant in [Variant::Bashni, Variant::Russian] {
        let start = Position::start(variant);
        let clock = Limits {
            clock: Some(Clock {
                remaining: Duration::from_millis(30),
                increment: Duration::ZERO,
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        for limits in [Limits::movetime(Duration::from_millis(50)), clock] {
            let result = engine.search(&start, &Past::default(), &limits, |_| {});
            let best = result.best.expect("a move");
            assert!(start.legal_moves().contains(&best), "{variant}");
            assert!(result.depth >= 1, "{variant}");
        }
    }
}

#[test]
fn stop_ends_an_endless_search_with_a_legal_move() {
    let engine = Engine::new(Options {
        threads: 2,
        ..Options::default()
    });
    let stop = StopToken::new();
    let limits = Limits::default().with_stop(stop.clone());
    let start = Position::start(Variant::Russian);
    // Without a limit the search would go on to its greatest depth: stopped after depth 3
    // is done, it ends within the next.
    let result = engine.search(&start, &Past::default(), &limits, |info| {
        if info.depth >= 3 {
            stop.stop();
        }
    });
    assert!((3..=4).contains(&result.depth), "depth {}", result.depth);
    let best = result.best.expect("a move");
    assert!(start.legal_moves().contains(&best));
}

#[test]
fn games_between_levels_only_contain_legal_moves() {
    let engine = Engine::new(Options {
        hash_mb: 8,
        ..Options::default()
    });
    for (variant, seed) in [(Variant::Bashni, 1u64), (Variant::Russian, 2)] {
        let mut game = Game::start(variant);
        game.set_automatic_draws(true);
        let levels = [Level::new(2).expect("level"), Level::new(5).expect("level")];
        while !game.is_over() && game.ply() < 200 {
            let level = levels[game.ply() % 2];
            let result = level.choose(
                &engine,
                game.position(),
                &Past::of(&game),
                &Limits::depth(4),
                seed + game.ply() as u64,
            );
            let mv = result.best.expect("a side that is not lost has a move");
            // Game::play refuses anything that is not a legal move.
            game.play(&mv).expect("the engine's move is legal");
        }
        assert!(
            game.ply() > 10,
            "{variant}: the game lasted {} plies",
            game.ply()
        );
    }
}

#[test]
fn a_lost_position_has_no_move_and_says_so() {
    let engine = Engine::new(Options::default());
    let lost = bashni_rules::notation::parse_position(
        Variant::Russian,
        "White: a1 0; Black: b2 0, c3 0; White to move",
    )
    .expect("position");
    let result = engine.search(&lost, &Past::default(), &Limits::depth(3), |_| {});
    assert_eq!(result.best, None);
    assert_eq!(result.score, bashni_engine::Score::LossIn(0));
}

#[test]
fn a_stop_before_the_search_begins_is_kept_and_touches_no_other_search() {
    let engine = Engine::new(Options::default());
    let start = Position::start(Variant::Russian);
    let stopped = StopToken::new();
    stopped.stop();
    let result = engine.search(
        &start,
        &Past::default(),
        &Limits::default().with_stop(stopped),
        |_| {},
    );
    // Stopped at once: no depth past the first, which gives the move.
    assert!(result.depth <= 1, "depth {}", result.depth);
    assert!(start.legal_moves().contains(&result.best.expect("a move")));
    // The next search has its own token: it reaches its depth.
    let next = engine.search(
        &start,
        &Past::default(),
        &Limits::depth(6).with_stop(StopToken::new()),
        |_| {},
    );
    assert_eq!(next.depth, 6);
}

#[test]
fn absurd_times_cannot_make_the_search_panic() {
    let engine = Engine::new(Options::default());
    let start = Position::start(Variant::Bashni);
    let huge = [
        Duration::MAX,
        Duration::from_secs(u64::MAX / 2),
        Duration::from_secs_f64(1e19),
    ];
    for time in huge {
        for limits in [
            Limits {
                movetime: Some(time),
                ..Limits::depth(3)
            },
            Limits {
                clock: Some(Clock {
                    remaining: time,
                    increment: time,
                    moves_to_go: Some(1),
                }),
                ..Limits::depth(3)
            },
            Limits {
                movetime: Some(time),
                clock: Some(Clock {
                    remaining: Duration::from_secs(60),
                    increment: time,
                    moves_to_go: Some(u32::MAX),
                }),
                ..Limits::depth(3)
            },
        ] {
            // The budget is computed without overflow, and never above what is there.
            let (soft, hard) = bashni_engine::time_budget(&limits);
            assert!(soft <= hard, "{limits:?}");
            let result = engine.search(&start, &Past::default(), &limits, |_| {});
            assert_eq!(result.depth, 3, "{limits:?}");
        }
    }
}
