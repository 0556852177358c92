//! The example games printed in the rulebooks replay from their abbreviated scores, and
//! every abbreviated move means the move the full score gives.

use bashni_rules::notation::{parse_move, write_full_marked, write_position, write_short};
use bashni_rules::{Color, Position, Variant};

/// Replays the abbreviated and the full score side by side and returns the final position.
fn replay(variant: Variant, abbreviated: &[&str], full: &[&str]) -> Position {
    assert_eq!(abbreviated.len(), full.len());
    let mut position = Position::start(variant);
    for (ply, (short, long)) in abbreviated.iter().zip(full).enumerate() {
        let from_short = parse_move(&position, short)
            .unwrap_or_else(|e| panic!("ply {}: {short}: {e}", ply + 1));
        let from_long =
            parse_move(&position, long).unwrap_or_else(|e| panic!("ply {}: {long}: {e}", ply + 1));
        assert_eq!(from_short, from_long, "ply {}: {short} and {long}", ply + 1);
        assert_eq!(
            parse_move(&position, &write_short(&position, &from_short)),
            Ok(from_short),
            "ply {}: the short form written back",
            ply + 1
        );
        position.play(&from_short);
    }
    position
}

#[test]
fn bashni_ivanov_petrov() {
    // 000, 1.10: the abbreviated score, and the full score of the same game.
    let abbreviated = [
        "cb4",
        "bc5",
        "ba5",
        "ab6",
        "bc3",
        "cb4",
        "a:a7",
        "cb6",
        "a:e5",
        "f:b2",
        "a:c3",
        "dc7",
        "gf4",
        "e:g3",
        "h:f4",
        "g:e5",
        "e:g5",
        "h:f4",
        "de3",
        "f:b4",
        "b2:d4:f6:d8D:a5:d2:h6",
    ];
    let full = [
        "c3-b4",
        "b6-c5",
        "b4-a5",
        "a7-b6",
        "b2-c3",
        "c5-b4",
        "a3:a7",
        "c7-b6",
        "a5:e5",
        "f6:b2",
        "a1:c3",
        "d8-c7",
        "g3-f4",
        "e5:g3",
        "h2:f4",
        "g3:e5",
        "e3:g5",
        "h6:f4",
        "d2-e3",
        "f4:b4",
        "b2:d4:f6:d8:a5:d2:h6",
    ];
    let end = replay(Variant::Bashni, &abbreviated, &full);
    // The last move crowns on d8 and takes six black checkers under the new king.
    let before = replay(Variant::Bashni, &abbreviated[..20], &full[..20]);
    let last = parse_move(&before, "b2:d4:f6:d8:a5:d2:h6").expect("legal");
    assert!(last.promotes());
    assert_eq!(write_full_marked(&before, &last), "b2:d4:f6:d8D:a5:d2:h6");
    assert_eq!(end.side_to_move(), Color::Black);
    assert_eq!(end.checker_count(Color::White), 12);
    assert_eq!(end.checker_count(Color::Black), 12);
    let h6 = end.tower(bashni_rules::Square::parse("h6").expect("square"));
    // Two white men left b2; the top one is crowned on d8 and six black checkers go under.
    assert_eq!(h6.height(), 8, "{}", write_position(&end));
    assert_eq!(h6.owner_run(), 2);
    assert_eq!(h6.count(Color::Black), 6);
    assert!(h6.top().is_some_and(|c| c.king && c.color == Color::White));
}

#[test]
fn russian_ivanov_petrov() {
    // 001, 6.1.6: the full score and the abbreviated score of the same game.
    let abbreviated = [
        "ed4", "dc5", "fe3", "fg5", "cb4", "gh4", "b:d6", "h:f2", "e:g3", "c:h4",
    ];
    let full = [
        "e3-d4", "d6-c5", "f2-e3", "f6-g5", "c3-b4", "g5-h4", "b4:d6", "h4:f2", "e1:g3", "c7:h4",
    ];
    let end = replay(Variant::Russian, &abbreviated, &full);
    assert_eq!(end.side_to_move(), Color::White);
    // White took two men; Black's last move took four: c7:e5:c3:e1:h4.
    let before = replay(Variant::Russian, &abbreviated[..9], &full[..9]);
    assert_eq!(
        parse_move(&before, "c:h4").map(|m| m.to_string()),
        Ok("c7:e5:c3:e1:h4".into())
    );
    assert_eq!(end.checker_count(Color::White), 7);
    assert_eq!(end.checker_count(Color::Black), 10);
    assert_eq!(
        write_position(&end),
        "White: a1 0, a3 0, b2 0, c1 0, e3 0, g1 0, h2 0; \
         Black: a7 0, b6 0, b8 0, d8 0, e7 0, f8 0, g7 0, h4 1, h6 0, h8 0; White to move"
    );
}
