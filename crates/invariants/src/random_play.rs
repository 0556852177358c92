//! Random games, checking every invariant of the rules after each move.

use bashni_rules::{Color, Game, Position, Square, Variant};

use crate::bytes::{Bytes, assert_sound, variant};

/// How many checkers each side has at the start.
const PER_SIDE: u32 = 12;

/// The first byte chooses the variant; every following byte chooses a legal move (its index
/// modulo the number of legal moves) until the bytes run out or no move is left. Each
/// position must be sound (hash in step, towers a legal position equal to it); the legal
/// moves must agree with the move counter and the capture test, be captures whenever one is
/// possible, and leave from the mover's towers; playing a move and taking it back must
/// restore the position exactly. Bashni keeps all 24 checkers, 12 of each colour, on the
/// board; Russian draughts never gains a piece, loses exactly the pieces a move jumps, and
/// never stacks two on a square. A [`Game`] fed the same moves must agree with the
/// positions until it ends.
pub fn random_play(data: &[u8]) {
    let mut bytes = Bytes::new(data);
    let variant = variant(bytes.byte());
    let mut position = Position::start(variant);
    let mut game = Game::start(variant);
    while !bytes.is_empty() {
        check_position(&position);
        let legal = position.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[usize::from(bytes.byte()) % legal.len()];
        let mover = position.side_to_move();
        assert!(
            position.owned_by(mover).has(mv.from()),
            "{mv} leaves from a square the mover does not command"
        );
        let before = position;
        position.play(&mv);
        assert_eq!(position.side_to_move(), mover.opponent());
        let mut undone = position;
        undone.undo(&mv);
        assert_eq!(undone, before, "undoing {mv} does not restore the position");
        if variant == Variant::Russian {
            let count =
                |p: &Position| p.checker_count(Color::White) + p.checker_count(Color::Black);
            assert_eq!(
                count(&position) + mv.captured().len() as u32,
                count(&before),
                "{mv} does not take exactly the pieces it jumps"
            );
        }
        if !game.is_over() {
            assert!(
                game.play(&mv).is_ok(),
                "the game refuses the legal move {mv}"
            );
            assert_eq!(game.position(), &position);
        }
    }
    check_position(&position);
}

fn check_position(position: &Position) {
    assert_sound(position);
    let legal = position.legal_moves();
    assert_eq!(position.count_moves(), legal.len());
    let capture = position.has_capture();
    assert_eq!(capture, legal.iter().any(|mv| mv.is_capture()));
    if capture {
        assert!(
            legal.iter().all(|mv| mv.is_capture()),
            "a quiet move beside a capture"
        );
    }
    let white = position.checker_count(Color::White);
    let black = position.checker_count(Color::Black);
    match position.variant() {
        Variant::Bashni => {
            assert_eq!(
                (white, black),
                (PER_SIDE, PER_SIDE),
                "checkers lost or made"
            );
        }
        Variant::Russian => {
            assert!(white <= PER_SIDE && black <= PER_SIDE, "pieces made");
            for square in Square::ALL_BY_NAME {
                assert!(position.tower(square).height() <= 1, "a stack on {square}");
            }
        }
    }
    for square in Square::ALL_BY_NAME {
        let Some(top) = position.tower(square).top() else {
            continue;
        };
        assert!(
            position.owned_by(top.color).has(square),
            "{square} is not marked as commanded by its top"
        );
        assert_eq!(
            position.kings().has(square),
            top.king,
            "king mark on {square}"
        );
        assert!(
            top.king || !Position::crowning_rank(top.color).has(square),
            "a man commands {square} on its crowning rank"
        );
    }
}
