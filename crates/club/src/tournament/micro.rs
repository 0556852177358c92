//! Micro-matches of Russian draughts and the ballot of openings they are played on.
//!
//! Russian draughts competitions may be played in micro-matches (rulebook 001, 6.1.4.1 lets
//! the regulations fix the first moves by a draw): each pairing plays two games from the
//! same opening, drawn by ballot, each player having White once.
//!
//! **The ballot.** [`RUSSIAN_BALLOT`] holds the 102 positions that three quiet plies from the
//! start can reach in which nothing is hanging: no capture in the three plies, no capture
//! for the side to move after any of them, and none for White either if Black were to pass
//! after the third. Each position is written once, by its first move order in the order
//! in which `bashni-rules` lists moves (move orders reaching the same position are the same
//! opening). The list is computed from the rules, not copied from a federation's table:
//! published ballots were not at hand to check, and a computed list can be checked by a test
//! (`the_ballot_is_what_the_rules_give`). It is meant for Russian draughts; Bashni has no
//! ballot tradition and starts from the initial position.
//!
//! **The draw.** [`draw`] shuffles the list with a seed (splitmix64 and Fisher-Yates) and
//! deals openings from it; every opening comes up once before any comes up again. A
//! tournament keeps one seed and takes the opening of round `r` as `draw(seed, rounds)[r -
//! 1]`, the same for every board of the round.
//!
//! ```
//! use bashni_club::tournament::{Pairing, micro};
//!
//! let openings = micro::draw(2024, 7);
//! let games = micro::MicroMatch::new(Pairing::new(0, 1), openings[0]).games();
//! assert_eq!(games, [Pairing::new(0, 1), Pairing::new(1, 0)]);
//! assert_eq!(micro::opening_moves(openings[0]).map(|m| m.len()), Some(3));
//! ```

use bashni_rules::notation::parse_move;
use bashni_rules::{Move, Position, Variant};
use serde::{Deserialize, Serialize};

use super::{Pairing, Points};
use crate::GameScore;
use crate::rng::Rng;

/// The ballot of Russian draughts openings: three plies each (White, Black, White), written
/// in the rulebook's full notation. See the module notes for how it was made.
pub const RUSSIAN_BALLOT: [&str; 102] = [
    "a3-b4 b6-c5 b2-a3",
    "a3-b4 b6-c5 b4-a5",
    "a3-b4 d6-e5 g3-h4",
    "a3-b4 d6-e5 b2-a3",
    "a3-b4 d6-e5 e3-d4",
    "a3-b4 d6-e5 b4-a5",
    "a3-b4 f6-g5 c3-d4",
    "a3-b4 f6-g5 b2-a3",
    "a3-b4 f6-g5 e3-d4",
    "a3-b4 f6-g5 g3-f4",
    "a3-b4 f6-g5 b4-a5",
    "a3-b4 b6-a5 e3-f4",
    "a3-b4 b6-a5 g3-h4",
    "a3-b4 b6-a5 b2-a3",
    "a3-b4 b6-a5 e3-d4",
    "a3-b4 b6-a5 g3-f4",
    "a3-b4 f6-e5 e3-f4",
    "a3-b4 f6-e5 g3-h4",
    "a3-b4 f6-e5 b2-a3",
    "a3-b4 f6-e5 b4-a5",
    "a3-b4 h6-g5 c3-d4",
    "a3-b4 h6-g5 g3-h4",
    "a3-b4 h6-g5 b2-a3",
    "a3-b4 h6-g5 e3-d4",
    "a3-b4 h6-g5 b4-a5",
    "c3-d4 d6-e5 b2-c3",
    "c3-d4 d6-e5 d2-c3",
    "c3-d4 f6-g5 b2-c3",
    "c3-d4 f6-g5 d2-c3",
    "c3-d4 f6-g5 g3-f4",
    "c3-d4 b6-a5 b2-c3",
    "c3-d4 b6-a5 e3-f4",
    "c3-d4 b6-a5 g3-h4",
    "c3-d4 b6-a5 d2-c3",
    "c3-d4 b6-a5 g3-f4",
    "c3-d4 d6-c5 b2-c3",
    "c3-d4 d6-c5 g3-h4",
    "c3-d4 d6-c5 d2-c3",
    "c3-d4 d6-c5 g3-f4",
    "c3-d4 h6-g5 b2-c3",
    "c3-d4 h6-g5 g3-h4",
    "c3-d4 h6-g5 d2-c3",
    "e3-f4 b6-c5 d2-e3",
    "e3-f4 b6-c5 g3-h4",
    "e3-f4 b6-c5 f2-e3",
    "e3-f4 b6-c5 c3-b4",
    "e3-f4 f6-g5 d2-e3",
    "e3-f4 f6-g5 f2-e3",
    "e3-f4 b6-a5 d2-e3",
    "e3-f4 b6-a5 g3-h4",
    "e3-f4 b6-a5 f2-e3",
    "e3-f4 d6-c5 d2-e3",
    "e3-f4 d6-c5 g3-h4",
    "e3-f4 d6-c5 f2-e3",
    "e3-f4 f6-e5 d2-e3",
    "e3-f4 f6-e5 f2-e3",
    "e3-f4 f6-e5 c3-b4",
    "g3-h4 b6-c5 f2-g3",
    "g3-h4 b6-c5 h2-g3",
    "g3-h4 b6-c5 c3-b4",
    "g3-h4 d6-e5 f2-g3",
    "g3-h4 d6-e5 h2-g3",
    "g3-h4 d6-e5 c3-b4",
    "g3-h4 d6-e5 e3-d4",
    "g3-h4 b6-a5 f2-g3",
    "g3-h4 b6-a5 h2-g3",
    "g3-h4 b6-a5 e3-d4",
    "g3-h4 d6-c5 f2-g3",
    "g3-h4 d6-c5 h2-g3",
    "g3-h4 f6-e5 f2-g3",
    "g3-h4 f6-e5 h2-g3",
    "g3-h4 f6-e5 c3-b4",
    "g3-h4 h6-g5 f2-g3",
    "g3-h4 h6-g5 h2-g3",
    "g3-h4 h6-g5 c3-b4",
    "g3-h4 h6-g5 e3-d4",
    "c3-b4 b6-c5 d2-c3",
    "c3-b4 b6-c5 g3-f4",
    "c3-b4 b6-c5 b4-a5",
    "c3-b4 d6-e5 d2-c3",
    "c3-b4 d6-e5 b4-a5",
    "c3-b4 f6-g5 d2-c3",
    "c3-b4 f6-g5 e3-d4",
    "c3-b4 f6-g5 g3-f4",
    "c3-b4 f6-g5 b4-a5",
    "c3-b4 b6-a5 d2-c3",
    "c3-b4 f6-e5 d2-c3",
    "c3-b4 f6-e5 b4-a5",
    "c3-b4 h6-g5 d2-c3",
    "c3-b4 h6-g5 e3-d4",
    "c3-b4 h6-g5 b4-a5",
    "e3-d4 d6-e5 f2-e3",
    "e3-d4 f6-g5 f2-e3",
    "e3-d4 b6-a5 f2-e3",
    "e3-d4 b6-a5 g3-f4",
    "e3-d4 d6-c5 f2-e3",
    "e3-d4 h6-g5 f2-e3",
    "g3-f4 b6-c5 h2-g3",
    "g3-f4 f6-g5 h2-g3",
    "g3-f4 b6-a5 h2-g3",
    "g3-f4 d6-c5 h2-g3",
    "g3-f4 f6-e5 h2-g3",
];

/// The moves of ballot opening `index`, from the starting position; `None` past the end of
/// the list.
pub fn opening_moves(index: usize) -> Option<Vec<Move>> {
    let text = RUSSIAN_BALLOT.get(index)?;
    let mut position = Position::start(Variant::Russian);
    let mut moves = Vec::with_capacity(3);
    for word in text.split_whitespace() {
        let mv = parse_move(&position, word).ok()?;
        position.play(&mv);
        moves.push(mv);
    }
    Some(moves)
}

/// The position after ballot opening `index` (Black to move); `None` past the end of the
/// list.
pub fn opening_position(index: usize) -> Option<Position> {
    let mut position = Position::start(Variant::Russian);
    for mv in opening_moves(index)? {
        position.play(&mv);
    }
    Some(position)
}

/// `count` ballot openings (indexes into [`RUSSIAN_BALLOT`]) drawn with `seed`: the same
/// seed always gives the same openings, and no opening repeats until all have come up.
pub fn draw(seed: u64, count: usize) -> Vec<usize> {
    let mut rng = Rng::new(seed);
    let mut drawn = Vec::with_capacity(count);
    while drawn.len() < count {
        let mut deck: Vec<usize> = (0..RUSSIAN_BALLOT.len()).collect();
        rng.shuffle(&mut deck);
        let wanted = count - drawn.len();
        drawn.extend(deck.into_iter().take(wanted));
    }
    drawn
}

/// A micro-match: two games between the same players on the same ballot opening, each
/// player White once. The first player of the pairing has White in the first game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct MicroMatch {
    /// The pairing of the first game; the second game reverses it.
    pub pairing: Pairing,
    /// The opening, an index into [`RUSSIAN_BALLOT`].
    pub opening: usize,
}

impl MicroMatch {
    /// The micro-match of `pairing` on ballot opening `opening`.
    pub const fn new(pairing: Pairing, opening: usize) -> MicroMatch {
        MicroMatch { pairing, opening }
    }

    /// The two games: the pairing as given, then with colours swapped.
    pub const fn games(&self) -> [Pairing; 2] {
        [self.pairing, self.pairing.reversed()]
    }

    /// The points of the pairing's White and Black player (of the first game) over both
    /// games, given the two results in order.
    pub fn points(&self, results: [GameScore; 2], points: Points) -> (u32, u32) {
        let first = points.of(results[0].for_white()) + points.of(results[1].for_black());
        let second = points.of(results[0].for_black()) + points.of(results[1].for_white());
        (first, second)
    }
}

/// The micro-matches of a round: every pairing of `pairings` on the same `opening`.
pub fn micro_matches(pairings: &[Pairing], opening: usize) -> Vec<MicroMatch> {
    pairings
        .iter()
        .map(|&pairing| MicroMatch::new(pairing, opening))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bashni_rules::Color;
    use std::collections::HashSet;

    /// Whether the side not to move in `position` would have a capture if it were its turn.
    fn threatens(position: &Position) -> bool {
        let mut setup = position.to_setup();
        setup.side_to_move = match setup.side_to_move {
            Color::White => Color::Black,
            Color::Black => Color::White,
        };
        Position::from_setup(Variant::Russian, &setup)
            .map(|p| p.has_capture())
            .unwrap_or(false)
    }

    /// The ballot computed from the rules, as the module notes describe it.
    fn computed_ballot() -> Vec<String> {
        let start = Position::start(Variant::Russian);
        let mut seen = HashSet::new();
        let mut ballot = Vec::new();
        for first in start.legal_moves().iter() {
            let one = start.after(first);
            for second in one.legal_moves().iter() {
                let two = one.after(second);
                for third in two.legal_moves().iter() {
                    let three = two.after(third);
                    let captures = [first, second, third].iter().any(|m| m.is_capture());
                    let pending = one.has_capture() || two.has_capture() || three.has_capture();
                    if captures || pending || threatens(&three) {
                        continue;
                    }
                    if seen.insert(three.hash()) {
                        ballot.push(format!("{first} {second} {third}"));
                    }
                }
            }
        }
        ballot
    }

    #[test]
    fn the_ballot_is_what_the_rules_give() {
        let computed: HashSet<String> = computed_ballot().into_iter().collect();
        let listed: HashSet<String> = RUSSIAN_BALLOT.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            listed.len(),
            RUSSIAN_BALLOT.len(),
            "an opening is listed twice"
        );
        assert_eq!(listed, computed);
    }

    #[test]
    fn every_opening_is_legal_and_distinct() {
        let mut positions = HashSet::new();
        for (index, text) in RUSSIAN_BALLOT.iter().enumerate() {
            let moves = opening_moves(index).expect("legal");
            assert_eq!(moves.len(), 3);
            assert!(moves.iter().all(|m| !m.is_capture()));
            let position = opening_position(index).expect("legal");
            assert_eq!(position.side_to_move(), Color::Black);
            assert!(!position.has_capture() && !threatens(&position));
            assert!(positions.insert(position.hash()), "{text} twice");
        }
        assert_eq!(opening_moves(RUSSIAN_BALLOT.len()), None);
        assert_eq!(opening_position(usize::MAX), None);
        // The seven first moves of White all appear.
        let firsts: HashSet<&str> = RUSSIAN_BALLOT
            .iter()
            .filter_map(|s| s.split_whitespace().next())
            .collect();
        assert_eq!(firsts.len(), 7);
    }

    #[test]
    fn draws_are_repeatable_and_use_every_opening_first() {
        let size = RUSSIAN_BALLOT.len();
        assert_eq!(draw(5, 9), draw(5, 9));
        assert_ne!(draw(5, 9), draw(6, 9));
        // A longer draw starts like a shorter one with the same seed.
        assert_eq!(draw(5, 30)[..9], draw(5, 9)[..]);
        let all = draw(77, size);
        assert_eq!(all.iter().copied().collect::<HashSet<_>>().len(), size);
        let more = draw(77, 2 * size + 5);
        assert_eq!(more[..size], all[..]);
        let second: HashSet<usize> = more[size..2 * size].iter().copied().collect();
        assert_eq!(second.len(), size);
        assert!(draw(1, 0).is_empty());
        assert!(more.iter().all(|&i| i < size));
    }

    #[test]
    fn micro_match_games_and_points() {
        let mm = MicroMatch::new(Pairing::new(4, 7), 12);
        assert_eq!(mm.games(), [Pairing::new(4, 7), Pairing::new(7, 4)]);
        // Player 4 wins with White, then draws with Black: 2 + 1 against 0 + 1.
        assert_eq!(
            mm.points([GameScore::WhiteWins, GameScore::Draw], Points::default()),
            (3, 1)
        );
        // Both games won by Black: one each.
        assert_eq!(
            mm.points(
                [GameScore::BlackWins, GameScore::BlackWins],
                Points::default()
            ),
            (2, 2)
        );
        let round = micro_matches(&[Pairing::new(0, 1), Pairing::new(3, 2)], 5);
        assert_eq!(round.len(), 2);
        assert!(round.iter().all(|m| m.opening == 5));
        assert_eq!(round[1].games()[1], Pairing::new(2, 3));
    }
}
