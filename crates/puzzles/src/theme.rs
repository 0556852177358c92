//! Themes: what a puzzle's line does, found from its moves and the positions they are
//! made in.

use std::fmt;

use bashni_rules::{Color, Move, Position, Tower};

use bashni_rules::Square;

/// Room for every square index.
const SQUARE_SLOTS: usize = 64;
use serde::{Deserialize, Serialize};

use crate::material::balance;

/// One thing a line does. Written in lower case with dashes (`frees-prisoners`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Theme {
    /// The solver gives material: after one of the solver's moves and the reply, the
    /// solver holds less than before.
    Sacrifice,
    /// A man of the solver's walks onto the crowning rank (not by capturing).
    Breakthrough,
    /// A man of the solver's is crowned during a capture.
    CrowningCapture,
    /// A king of the solver's takes the long diagonal (a1-h8).
    LongDiagonal,
    /// The position is one the endgame tables cover: the line is perfect play.
    Tables,
    /// Bashni: the solver takes the top of a tower whose next checker is the solver's own,
    /// freeing it.
    FreesPrisoners,
    /// The solver takes a king (in Bashni: off a tower's top, making it a prisoner).
    CapturesKing,
    /// Bashni: the opponent's forced capture takes the top of a solver's tower whose next
    /// checker is the opponent's: the solver hands that tower over.
    TowerChangesHands,
}

impl Theme {
    /// Every theme, in the order they are listed to players.
    pub const ALL: [Theme; 8] = [
        Theme::Sacrifice,
        Theme::Breakthrough,
        Theme::CrowningCapture,
        Theme::LongDiagonal,
        Theme::Tables,
        Theme::FreesPrisoners,
        Theme::CapturesKing,
        Theme::TowerChangesHands,
    ];

    /// The written name (`frees-prisoners`).
    pub const fn name(self) -> &'static str {
        match self {
            Theme::Sacrifice => "sacrifice",
            Theme::Breakthrough => "breakthrough",
            Theme::CrowningCapture => "crowning-capture",
            Theme::LongDiagonal => "long-diagonal",
            Theme::Tables => "tables",
            Theme::FreesPrisoners => "frees-prisoners",
            Theme::CapturesKing => "captures-king",
            Theme::TowerChangesHands => "tower-changes-hands",
        }
    }

    /// Reads a written name.
    pub fn parse(name: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|theme| theme.name() == name)
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether `square` lies on the long diagonal, a1 to h8.
fn on_long_diagonal(square: Square) -> bool {
    square.file() == square.rank()
}

/// What a capture does to the towers it jumps, in order (a Bashni tower jumped twice loses
/// two tops): for each jump, the checker taken and the tower left behind.
fn jumps(position: &Position, mv: &Move) -> Vec<(bool, Tower)> {
    let mut towers = [Tower::EMPTY; SQUARE_SLOTS];
    let mut touched = [false; SQUARE_SLOTS];
    let mut out = Vec::with_capacity(mv.captured().len());
    for (i, &square) in mv.captured().iter().enumerate() {
        let slot = square.index();
        if !touched[slot] {
            towers[slot] = position.tower(square);
            touched[slot] = true;
        }
        let (left, _) = towers[slot].without_top();
        towers[slot] = left;
        out.push((mv.captured_king(i), left));
    }
    out
}

/// The themes of a line: each move with the position it is made in, the solver's first.
/// `tables` says whether the endgame tables cover the starting position. Sorted as
/// [`Theme::ALL`] lists them.
pub fn themes_of(line: &[(Position, Move)], tables: bool) -> Vec<Theme> {
    let mut found = Vec::new();
    let Some((first, _)) = line.first() else {
        return found;
    };
    let solver = first.side_to_move();
    if tables {
        found.push(Theme::Tables);
    }
    for (index, (position, mv)) in line.iter().enumerate() {
        let mover = position.side_to_move();
        let jumped = jumps(position, mv);
        if mover == solver {
            let king = position.tower(mv.from()).top().is_some_and(|top| top.king);
            if mv.promotes() {
                found.push(if mv.is_capture() {
                    Theme::CrowningCapture
                } else {
                    Theme::Breakthrough
                });
            }
            if king && on_long_diagonal(mv.to()) && !on_long_diagonal(mv.from()) {
                found.push(Theme::LongDiagonal);
            }
            if jumped.iter().any(|(king, _)| *king) {
                found.push(Theme::CapturesKing);
            }
            if jumped.iter().any(|(_, left)| owner(*left) == Some(solver)) {
                found.push(Theme::FreesPrisoners);
            }
            // Compared with the position after the reply: what the pair of moves cost.
            if let Some((after_reply, _)) = line.get(index + 2)
                && balance(after_reply, solver) < balance(position, solver)
            {
                found.push(Theme::Sacrifice);
            }
        } else if jumped.iter().any(|(_, left)| owner(*left) == Some(mover)) {
            found.push(Theme::TowerChangesHands);
        }
    }
    found.sort();
    found.dedup();
    found
}

fn owner(tower: Tower) -> Option<Color> {
    tower.top().map(|top| top.color)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bashni_rules::Variant;
    use bashni_rules::notation::{parse_move, read_position};

    fn line(variant: Variant, position: &str, moves: &[&str]) -> Vec<(Position, Move)> {
        let mut position = read_position(variant, position).expect("a position");
        let mut out = Vec::new();
        for text in moves {
            let mv = parse_move(&position, text).expect("a legal move");
            let next = position.after(&mv);
            out.push((position, mv));
            position = next;
        }
        out
    }

    #[test]
    fn names_read_back() {
        for theme in Theme::ALL {
            assert_eq!(Theme::parse(theme.name()), Some(theme));
            assert_eq!(
                serde_json::to_string(&theme).expect("json"),
                format!("\"{theme}\"")
            );
        }
        assert_eq!(Theme::parse("fork"), None);
    }

    #[test]
    fn a_man_given_to_win_two_is_a_sacrifice() {
        // e3-d4 is taken by c5:e3 (g1 stops the capture going on), then f2 takes two.
        let moves = line(
            Variant::Russian,
            "White: e3 0, f2 0, g1 0; Black: c5 0, e5 0, h8 0; White to move",
            &["e3-d4", "c5:e3", "f2:d4:f6"],
        );
        assert_eq!(themes_of(&moves, false), vec![Theme::Sacrifice]);
        // The same capture without the gift before it is no sacrifice.
        let moves = line(
            Variant::Russian,
            "White: d4 0; Black: e5 0, h8 0; White to move",
            &["d4:f6"],
        );
        assert!(themes_of(&moves, false).is_empty());
    }

    #[test]
    fn crowning_by_walking_and_by_capturing_differ() {
        let walk = line(
            Variant::Russian,
            "White: b6 0; Black: h8 0; White to move",
            &["b6-a7", "h8-g7", "a7-b8"],
        );
        assert_eq!(
            themes_of(&walk, true),
            vec![Theme::Breakthrough, Theme::Tables]
        );
        let crown = line(
            Variant::Russian,
            "White: b6 0; Black: c7 0, h4 0; White to move",
            &["b6:d8"],
        );
        assert_eq!(themes_of(&crown, false), vec![Theme::CrowningCapture]);
    }

    #[test]
    fn a_king_reaching_the_long_diagonal() {
        let moves = line(
            Variant::Russian,
            "White: c1 1; Black: a7 0; White to move",
            &["c1-a3"],
        );
        assert!(themes_of(&moves, false).is_empty());
        let moves = line(
            Variant::Russian,
            "White: a3 1; Black: a7 0; White to move",
            &["a3-c1", "a7-b6", "c1-b2"],
        );
        assert_eq!(themes_of(&moves, false), vec![Theme::LongDiagonal]);
    }

    #[test]
    fn bashni_towers_freed_handed_over_and_kings_taken() {
        // The black tower on d4 holds a white prisoner under its top: taking the top frees it.
        let frees = line(
            Variant::Bashni,
            "White: c3 0; Black: d4 0/0, h8 0; White to move",
            &["c3:e5"],
        );
        assert_eq!(themes_of(&frees, false), vec![Theme::FreesPrisoners]);
        // A black king on top, taken by a man.
        let king = line(
            Variant::Bashni,
            "White: c3 0; Black: d4 1, h8 0; White to move",
            &["c3:e5"],
        );
        assert_eq!(themes_of(&king, false), vec![Theme::CapturesKing]);
        // Black's capture takes the white top of d4, under which a black man is held: the
        // tower becomes Black's.
        let handed = line(
            Variant::Bashni,
            "White: d4 0/0, h2 0; Black: e5 0, f6 0; White to move",
            &["h2-g3", "e5:c3"],
        );
        assert_eq!(themes_of(&handed, false), vec![Theme::TowerChangesHands]);
    }
}
