//! The draw counts a game keeps move by move agree with the rules' definitions counted afresh
//! from the game's record, along random games that reach the endings where the counts matter.

use bashni_rules::draw::BIG_ROAD;
use bashni_rules::notation::parse_position;
use bashni_rules::{Color, DrawCounts, Game, Move, Position, Variant};
use proptest::prelude::*;

/// The counts of the game's current position, counted from its record by the definitions:
/// everything since the last capture or crowning, the kings' run since the last capture or
/// man's move, and each side's run of moves off the big road against a piece on it.
fn recount(game: &Game) -> DrawCounts {
    let moves = game.moves();
    let positions = game.positions();
    let balance = |mv: &Move| mv.is_capture() || mv.promotes();
    let start = moves.iter().rposition(balance).map_or(0, |last| last + 1);
    let since: Vec<(&Move, &Position)> = moves[start..].iter().zip(&positions[start..]).collect();
    let mut counts = DrawCounts {
        quiet_plies: since.len(),
        king_plies: since
            .iter()
            .rev()
            .take_while(|(mv, before)| before.kings().has(mv.from()))
            .count(),
        ..DrawCounts::default()
    };
    for color in [Color::White, Color::Black] {
        let own: Vec<&Position> = since
            .iter()
            .map(|(_, before)| *before)
            .filter(|before| before.side_to_move() == color)
            .collect();
        counts.moves[color.index()] = own.len();
        if game.variant() == Variant::Russian {
            counts.big_road_moves[color.index()] = own
                .iter()
                .rev()
                .take_while(|before| {
                    (before.owned_by(color) & BIG_ROAD).is_empty()
                        && !(before.owned_by(color.opponent()) & BIG_ROAD).is_empty()
                })
                .count();
        }
    }
    counts
}

/// Endings of Russian draughts in which every count can run out, and Bashni's start.
const STARTS: [(Variant, &str); 5] = [
    (
        Variant::Russian,
        "White: a3 1, c1 1, e1 1; Black: d4 1; White to move",
    ),
    (
        Variant::Russian,
        "White: a1 1, c1 1, e1 1, g1 0; Black: h8 1; Black to move",
    ),
    (
        Variant::Russian,
        "White: c3 1, e3 0, g3 0; Black: f8 1, b6 0, h6 0; White to move",
    ),
    (
        Variant::Russian,
        "White: a1 1, h2 0; Black: h8 1; White to move",
    ),
    (Variant::Bashni, "start"),
];

fn walk(start: usize, choices: &[u16]) {
    let (variant, text) = STARTS[start % STARTS.len()];
    let position = if text == "start" {
        Position::start(variant)
    } else {
        parse_position(variant, text).expect("a test position")
    };
    let mut game = Game::new(position);
    game.set_automatic_draws(true);
    for &choice in choices {
        assert_eq!(
            *game.draw_counts(),
            recount(&game),
            "after {:?}",
            game.moves()
        );
        if game.is_over() {
            let outcome = game.outcome().expect("over");
            // A draw by a count is exactly the verdict of the counts.
            if outcome.reason.is_draw() && outcome.reason != bashni_rules::Reason::Repetition {
                assert_eq!(
                    game.draw_counts().verdict(game.position()),
                    Some(outcome.reason)
                );
            }
            return;
        }
        let moves = game.legal_moves();
        let mv = moves[choice as usize % moves.len()];
        game.play(&mv).expect("a legal move");
    }
    assert_eq!(*game.draw_counts(), recount(&game));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn kept_counts_equal_a_recount(start in 0usize..5, choices in prop::collection::vec(any::<u16>(), 0..160)) {
        walk(start, &choices);
    }
}

#[test]
fn undo_takes_the_counts_back() {
    let position = parse_position(Variant::Russian, STARTS[1].1).expect("position");
    let mut game = Game::new(position);
    let before = *game.draw_counts();
    let mv = game.legal_moves()[0];
    game.play(&mv).expect("legal");
    assert_ne!(*game.draw_counts(), before);
    game.undo();
    assert_eq!(*game.draw_counts(), before);
}
