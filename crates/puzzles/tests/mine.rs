//! The miner and the check on positions whose answer is known.

use bashni_engine::{Engine, Options};
use bashni_puzzles::{
    CheckOptions, Examined, Finding, MineOptions, Miner, Puzzle, Rejection, Seen, Theme,
    check_puzzle, puzzle_id,
};
use bashni_rules::notation::{parse_move, read_position};
use bashni_rules::{Game, Position, Variant};

fn engine() -> Engine {
    Engine::new(Options::default())
}

fn miner() -> Miner {
    Miner::new(engine(), MineOptions::default())
}

fn position(variant: Variant, text: &str) -> Position {
    read_position(variant, text).expect("a position")
}

/// A Bashni shot found in self-play: h2-g3 gives a man, c3-b4 gives another, and b4:d6:f8
/// takes two and is crowned.
const SHOT: &str = "White: c1 0, c3 00, g1 0, h2 0, h6 0/0000; Black: a3 0/0, a7 0, \
                    d8 0/0, e7 000/0000, f4 0, f6 0; White to move";

fn kept(examined: Examined) -> Puzzle {
    match examined {
        Examined::Kept(puzzle) => puzzle,
        Examined::Rejected(reason) => panic!("rejected: {}", reason.name()),
    }
}

#[test]
fn a_shot_is_kept_with_its_whole_line_and_themes() {
    let start = position(Variant::Bashni, SHOT);
    let puzzle = kept(miner().examine(&start, "test"));
    assert_eq!(puzzle.id, puzzle_id(&start));
    assert_eq!(puzzle.line.first().map(String::as_str), Some("h2-g3"));
    assert_eq!(puzzle.line.len() % 2, 1, "{:?}", puzzle.line);
    assert!(
        puzzle.themes.contains(&Theme::Sacrifice),
        "{:?}",
        puzzle.themes
    );
    assert!(puzzle.validate().is_ok());
    let options = CheckOptions {
        depth: 14,
        ..CheckOptions::default()
    };
    assert_eq!(check_puzzle(&engine(), &puzzle, &options), Finding::Sound);
}

#[test]
fn the_check_refuses_a_wrong_first_move() {
    let start = position(Variant::Bashni, SHOT);
    let mut puzzle = kept(miner().examine(&start, "test"));
    let other = start
        .legal_moves()
        .iter()
        .find(|mv| mv.to_string() != "h2-g3")
        .expect("another move")
        .to_string();
    puzzle.line = vec![other];
    let options = CheckOptions {
        depth: 10,
        ..CheckOptions::default()
    };
    match check_puzzle(&engine(), &puzzle, &options) {
        Finding::Unsound { ply, .. } => assert_eq!(ply, 0),
        Finding::Sound => panic!("a wrong first move passed"),
    }
}

#[test]
fn quiet_forced_won_and_twofold_positions_are_rejected() {
    let miner = miner();
    for variant in [Variant::Bashni, Variant::Russian] {
        assert_eq!(
            miner.examine(&Position::start(variant), "start"),
            Examined::Rejected(Rejection::NotDecisive)
        );
    }
    // One capture to make.
    let forced = position(
        Variant::Russian,
        "White: c3 0; Black: d4 0, h8 0; White to move",
    );
    assert_eq!(
        miner.examine(&forced, "t"),
        Examined::Rejected(Rejection::Forced)
    );
    // Five men against one.
    let won = position(
        Variant::Russian,
        "White: a1 0, c1 0, e1 0, g1 0, h2 0; Black: a7 0; White to move",
    );
    assert_eq!(
        miner.examine(&won, "t"),
        Examined::Rejected(Rejection::AlreadyWon)
    );
    // Either man takes Black's last one.
    let twofold = position(
        Variant::Russian,
        "White: c3 0, e3 0; Black: d4 0; White to move",
    );
    assert_eq!(
        miner.examine(&twofold, "t"),
        Examined::Rejected(Rejection::NotUnique)
    );
}

#[test]
fn a_game_playing_the_shot_gives_one_puzzle_and_duplicates_after() {
    let start = position(Variant::Bashni, SHOT);
    let miner = miner();
    let puzzle = kept(miner.examine(&start, "test"));
    let mut game = Game::new(start);
    let mut now = start;
    for text in &puzzle.line {
        let mv = parse_move(&now, text).expect("a legal move");
        game.play(&mv).expect("legal");
        now = now.after(&mv);
    }
    let found = miner.mine_game(&game, "game");
    let kept: Vec<&Examined> = found
        .iter()
        .filter(|e| matches!(e, Examined::Kept(_)))
        .collect();
    assert_eq!(kept.len(), 1, "{found:?}");
    let solver_turns_inside = puzzle.solver_moves() - 1;
    let duplicates = found
        .iter()
        .filter(|e| **e == Examined::Rejected(Rejection::Duplicate))
        .count();
    assert_eq!(duplicates, solver_turns_inside, "{found:?}");
    if let Examined::Kept(again) = kept[0] {
        assert_eq!(again.line, puzzle.line);
        assert!(
            again.source.starts_with("game, move 1 (White)"),
            "{}",
            again.source
        );
    }
    let mut seen = Seen::new();
    assert!(seen.admit(&puzzle));
    assert!(!seen.admit(&puzzle), "the same position twice");
}
