//! A puzzle as it is written, one JSON object a line, and read back with every move checked.

use std::fmt;

use bashni_rules::notation::{parse_move, read_position};
use bashni_rules::{Color, Move, Position, Variant};
use serde::{Deserialize, Serialize};

use crate::theme::Theme;

/// A position with one winning line: the solver's moves at the even places of `line`
/// (first, third, ...), the opponent's replies between them; the line ends with the
/// solver's move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Puzzle {
    /// A name that stays the same for the same position (see [`puzzle_id`]).
    pub id: String,
    /// `bashni` or `russian`.
    pub variant: String,
    /// The position in the rulebooks' notation; its side to move is the solver.
    pub position: String,
    /// The moves in full notation (`c3-d4`, `e5:c3:a1`).
    pub line: Vec<String>,
    /// What the line does.
    pub themes: Vec<Theme>,
    /// The miner's score of the position for the solver (`+3.10`, `win in 7`).
    pub score: String,
    /// Where the position was found: a file and game number, or a game's name.
    pub source: String,
}

/// What is wrong with a written puzzle, and on which line of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleError {
    /// The line of the text (1-based); 0 when a single puzzle was checked.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "puzzle: {}", self.message)
        } else {
            write!(f, "puzzle on line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for PuzzleError {}

fn problem(message: impl Into<String>) -> PuzzleError {
    PuzzleError {
        line: 0,
        message: message.into(),
    }
}

impl Puzzle {
    /// The game.
    pub fn game(&self) -> Result<Variant, PuzzleError> {
        Variant::parse(&self.variant)
            .ok_or_else(|| problem(format!("unknown game {:?}", self.variant)))
    }

    /// The starting position.
    pub fn start(&self) -> Result<Position, PuzzleError> {
        let variant = self.game()?;
        read_position(variant, &self.position)
            .map_err(|error| problem(format!("position {:?}: {error}", self.position)))
    }

    /// The side that solves.
    pub fn solver(&self) -> Result<Color, PuzzleError> {
        Ok(self.start()?.side_to_move())
    }

    /// The line as legal moves, each checked in the position it is made in, with the
    /// position before each.
    pub fn moves(&self) -> Result<Vec<(Position, Move)>, PuzzleError> {
        let mut position = self.start()?;
        let mut moves = Vec::with_capacity(self.line.len());
        for (index, text) in self.line.iter().enumerate() {
            let mv = parse_move(&position, text)
                .map_err(|error| problem(format!("move {} ({text:?}): {error}", index + 1)))?;
            let next = position.after(&mv);
            moves.push((position, mv));
            position = next;
        }
        Ok(moves)
    }

    /// How many moves the solver makes.
    pub fn solver_moves(&self) -> usize {
        self.line.len().div_ceil(2)
    }

    /// Checks what a reader relies on: a known game, a legal position whose name is its id,
    /// a line of legal moves that ends with the solver's move.
    pub fn validate(&self) -> Result<(), PuzzleError> {
        let start = self.start()?;
        if self.id != puzzle_id(&start) {
            return Err(problem(format!(
                "id {:?} is not the position's ({})",
                self.id,
                puzzle_id(&start)
            )));
        }
        if self.line.len().is_multiple_of(2) {
            return Err(problem(format!(
                "the line has {} moves; it must end with the solver's move",
                self.line.len()
            )));
        }
        self.moves().map(|_| ())
    }
}

/// The id of a puzzle starting at `position`: the game's letter and a hash of the
/// position's text (FNV-1a), the same in every build.
pub fn puzzle_id(position: &Position) -> String {
    let text = bashni_rules::notation::write_position(position);
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let letter = match position.variant() {
        Variant::Bashni => 'b',
        Variant::Russian => 'r',
    };
    format!("{letter}{:012x}", hash >> 16)
}

/// Reads puzzles written one JSON object a line (blank lines are skipped), checking each;
/// the error names the line.
pub fn read_puzzles(text: &str) -> Result<Vec<Puzzle>, PuzzleError> {
    let mut puzzles = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let at = |error: PuzzleError| PuzzleError {
            line: index + 1,
            message: error.message,
        };
        if line.trim().is_empty() {
            continue;
        }
        let puzzle: Puzzle = serde_json::from_str(line).map_err(|error| PuzzleError {
            line: index + 1,
            message: error.to_string(),
        })?;
        puzzle.validate().map_err(at)?;
        puzzles.push(puzzle);
    }
    Ok(puzzles)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Puzzle {
        let start = read_position(
            Variant::Russian,
            "White: c3 0, g3 0; Black: d4 0, h6 0; White to move",
        )
        .expect("a position");
        Puzzle {
            id: puzzle_id(&start),
            variant: "russian".into(),
            position: bashni_rules::notation::write_position(&start),
            line: vec!["c3:e5".into()],
            themes: vec![],
            score: "+1.00".into(),
            source: "test".into(),
        }
    }

    #[test]
    fn a_written_puzzle_reads_back() {
        let puzzle = sample();
        let text = format!("{}\n\n", serde_json::to_string(&puzzle).expect("json"));
        assert_eq!(read_puzzles(&text), Ok(vec![puzzle]));
    }

    #[test]
    fn a_bad_puzzle_is_named_by_its_line_and_fault() {
        let mut illegal = sample();
        illegal.line = vec!["c3-b4".into()];
        let mut even = sample();
        even.line = vec!["c3:e5".into(), "h6-g5".into()];
        let mut renamed = sample();
        renamed.id = "r000000000000".into();
        let good = serde_json::to_string(&sample()).expect("json");
        for (bad, needle) in [
            (illegal, "move 1"),
            (even, "must end with the solver's move"),
            (renamed, "is not the position's"),
        ] {
            let text = format!("{good}\n{}\n", serde_json::to_string(&bad).expect("json"));
            let error = read_puzzles(&text).expect_err("a bad puzzle");
            assert_eq!(error.line, 2, "{error}");
            assert!(error.to_string().contains(needle), "{error}");
        }
        let error = read_puzzles("{\"id\": 3}").expect_err("not a puzzle");
        assert_eq!(error.line, 1);
    }

    #[test]
    fn ids_differ_by_game_and_position() {
        let russian = Position::start(Variant::Russian);
        let bashni = Position::start(Variant::Bashni);
        assert_ne!(puzzle_id(&russian), puzzle_id(&bashni));
        assert_eq!(
            puzzle_id(&russian),
            puzzle_id(&Position::start(Variant::Russian))
        );
        assert!(puzzle_id(&russian).starts_with('r'));
        assert_eq!(puzzle_id(&russian).len(), 13);
    }
}
