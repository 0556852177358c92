//! The engine with endgame databases: perfect play where they cover the position, their
//! values inside the search where they cover the positions searched.

use std::sync::{Arc, OnceLock};

use bashni_egtb::{Tablebase, Verdict, build};
use bashni_engine::score::{TABLE_WIN, WIN_BOUND};
use bashni_engine::{Engine, Limits, Options, Past, Score};
use bashni_rules::notation::parse_position;
use bashni_rules::{Game, Position, Variant};

/// The tables of up to three pieces, built once.
fn tables() -> Arc<Tablebase> {
    static TABLES: OnceLock<Arc<Tablebase>> = OnceLock::new();
    Arc::clone(TABLES.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("bashni-engine-egtb-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        build(&dir, 3, |_| {}).expect("the tables build");
        let tables = Tablebase::open(&dir).expect("the tables load");
        let _ = std::fs::remove_dir_all(&dir);
        Arc::new(tables)
    }))
}

fn russian(text: &str) -> Position {
    parse_position(Variant::Russian, text).expect("a test position")
}

fn engine_with_tables() -> Engine {
    let mut engine = Engine::new(Options::default());
    engine.set_tablebase(Some(tables()));
    engine
}

#[test]
fn a_covered_position_is_played_by_the_tables_to_the_end() {
    let engine = engine_with_tables();
    let start = russian("White: c7 0; Black: h6 0; White to move");
    let value = tables().probe(&start).expect("covered");
    assert_eq!(value.verdict, Verdict::Win);
    let mut game = Game::new(start);
    let mut plies = 0;
    while !game.legal_moves().is_empty() {
        let result = engine.search_game(&game, &Limits::depth(2), |_| {});
        assert_eq!(result.nodes, 0, "no search in a covered position");
        let best = result.best.expect("a move");
        assert_eq!(Some(best), tables().best_move(game.position()));
        if plies == 0 {
            assert_eq!(result.score, Score::WinIn(value.distance));
            assert_eq!(result.lines[0].pv.len() as u32, value.distance);
        }
        game.play(&best).expect("a legal move");
        plies += 1;
        assert!(plies <= value.distance);
    }
    assert_eq!(
        plies, value.distance,
        "the win comes in the stored distance"
    );
}

#[test]
fn the_search_sees_a_won_ending_the_tables_cover() {
    // Four pieces are not covered; taking the black king leaves two white kings against a
    // man, which the tables know is won.
    let position = russian("White: a1 1, e1 1; Black: c3 1, h6 0; White to move");
    let limits = Limits::depth(3);
    let plain =
        Engine::new(Options::default()).search(&position, &Past::default(), &limits, |_| {});
    let with_tables = engine_with_tables().search(&position, &Past::default(), &limits, |_| {});
    assert!(with_tables.nodes > 0, "not covered: searched");
    let value = with_tables.score.value();
    assert!(
        (TABLE_WIN - 299..WIN_BOUND).contains(&value),
        "a win by the tables: {}",
        with_tables.score
    );
    // Without them the search sees an evaluation, or a win it finds to the end itself.
    let plain = plain.score.value();
    assert!(!(TABLE_WIN - 300..WIN_BOUND).contains(&plain), "{plain}");
    let best = with_tables.best.expect("a move");
    let after = tables().probe(&position.after(&best)).expect("covered");
    assert_eq!(after.verdict, Verdict::Loss);
}

#[test]
fn without_tables_or_in_bashni_the_engine_searches() {
    let mut engine = engine_with_tables();
    let kings = russian("White: c1 1; Black: h8 1; White to move");
    assert_eq!(
        engine
            .search(&kings, &Past::default(), &Limits::depth(2), |_| {})
            .nodes,
        0
    );
    engine.set_tablebase(None);
    assert!(engine.tablebase().is_none());
    let searched = engine.search(&kings, &Past::default(), &Limits::depth(2), |_| {});
    assert!(searched.nodes > 0);
    let bashni = parse_position(Variant::Bashni, "White: c1 1; Black: h8 1; White to move")
        .expect("a Bashni position");
    let engine = engine_with_tables();
    let result = engine.search(&bashni, &Past::default(), &Limits::depth(2), |_| {});
    assert!(result.nodes > 0);
}

/// The levels that play the best move (7 and 8) play by the tables; the weaker ones search
/// as if there were none, so that a beginner does not play endings perfectly.
#[test]
fn only_the_best_move_levels_play_by_the_tables() {
    use bashni_engine::Level;
    let engine = engine_with_tables();
    let position = russian("White: c7 0; Black: h6 0; White to move");
    assert!(tables().probe(&position).is_some(), "covered");
    for number in 1..=Level::MAX {
        let level = Level::new(number).expect("a level");
        let result = level.choose(&engine, &position, &Past::default(), &Limits::depth(3), 5);
        let searched = result.nodes > 0;
        assert_eq!(
            searched,
            !level.uses_tables(),
            "level {number}: {} nodes",
            result.nodes
        );
        assert_eq!(level.uses_tables(), number >= 7, "level {number}");
        if level.uses_tables() {
            assert_eq!(result.best, tables().best_move(&position), "level {number}");
        }
    }
    // The same search without the flag uses the tables; with it, it searches.
    let mut limits = Limits::depth(3);
    assert_eq!(
        engine
            .search(&position, &Past::default(), &limits, |_| {})
            .nodes,
        0
    );
    limits.without_tables = true;
    assert!(
        engine
            .search(&position, &Past::default(), &limits, |_| {})
            .nodes
            > 0
    );
}
