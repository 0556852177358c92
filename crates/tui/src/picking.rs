//! Making a move: picking squares with the cursor, or typing the move.

use bashni_rules::notation::parse_move;
use bashni_rules::{Move, Square};

use crate::app::App;

impl App {
    /// Whether the person may move now; says why not otherwise.
    pub(crate) fn may_move(&mut self) -> bool {
        if self.replay.is_some() {
            self.complain("This is a replay: ←/→ to step, :play to play on from here.");
            false
        } else if let Some(outcome) = self.game.outcome() {
            self.complain(format!(
                "The game is over ({outcome}). :new for a new game."
            ));
            false
        } else if Some(self.game.side_to_move()) == self.engine_color() {
            self.complain("Wait: the engine is thinking.");
            false
        } else {
            true
        }
    }

    pub(crate) fn play_text(&mut self, text: &str) {
        if !self.may_move() {
            return;
        }
        match parse_move(self.game.position(), text) {
            Ok(mv) => {
                self.commit(&mv);
            }
            Err(error) => self.complain(error.to_string()),
        }
    }

    pub(crate) fn move_cursor(&mut self, right: i8, up: i8) {
        let (right, up) = if self.flipped {
            (-right, -up)
        } else {
            (right, up)
        };
        let file = (self.cursor.0 as i8 + right).clamp(0, 7);
        let rank = (self.cursor.1 as i8 + up).clamp(0, 7);
        self.cursor = (file as u8, rank as u8);
    }

    /// Every way to play each legal move (all capture paths), for picking squares.
    pub(crate) fn paths(&self) -> Vec<Move> {
        if self.game.is_over() {
            return Vec::new();
        }
        let position = self.game.position();
        if position.has_capture() {
            position.capture_paths().iter().copied().collect()
        } else {
            position.legal_moves().iter().copied().collect()
        }
    }

    /// The paths that still fit the squares picked so far.
    pub(crate) fn fitting(&self) -> Vec<Move> {
        let Some((&from, landed)) = self.path.split_first() else {
            return Vec::new();
        };
        self.paths()
            .into_iter()
            .filter(|mv| mv.from() == from && mv.landings().starts_with(landed))
            .collect()
    }

    /// Squares where the picked tower may land next.
    pub(crate) fn next_landings(&self) -> Vec<Square> {
        let step = self.path.len().saturating_sub(1);
        let mut squares: Vec<Square> = self
            .fitting()
            .iter()
            .filter_map(|mv| mv.landings().get(step).copied())
            .collect();
        squares.sort_by_key(|s| s.index());
        squares.dedup();
        squares
    }

    pub(crate) fn pick(&mut self) {
        if !self.may_move() {
            return;
        }
        let Some(square) = self.cursor() else {
            self.complain("Pieces stand only on the dark squares.");
            return;
        };
        if self.path.is_empty() {
            if self.paths().iter().any(|mv| mv.from() == square) {
                self.path.push(square);
                self.say(format!(
                    "{square} picked: now choose where it goes (Esc cancels)."
                ));
            } else if self
                .game
                .position()
                .owned_by(self.game.side_to_move())
                .has(square)
            {
                let forced = if self.game.position().has_capture() {
                    " (a capture is forced)"
                } else {
                    ""
                };
                self.complain(format!("The tower on {square} has no legal move{forced}."));
            } else {
                self.complain(format!(
                    "No tower of {} on {square}.",
                    self.game.side_to_move()
                ));
            }
            return;
        }
        if self.path.len() == 1 && self.path[0] == square {
            self.path.clear();
            self.say("Move cancelled.");
            return;
        }
        if !self.next_landings().contains(&square) {
            if self.path.len() == 1 && self.paths().iter().any(|mv| mv.from() == square) {
                self.path = vec![square];
                self.say(format!("{square} picked instead."));
            } else {
                self.complain(format!("The tower cannot land on {square} now."));
            }
            return;
        }
        self.path.push(square);
        let fitting = self.fitting();
        let variant = self.game.variant();
        let done = fitting
            .iter()
            .find(|mv| mv.landings() == &self.path[1..])
            .copied();
        let one_result = fitting
            .iter()
            .all(|mv| fitting.first().is_some_and(|f| f.same_result(mv, variant)));
        if let Some(first) = fitting.first().copied()
            && (one_result
                || done.is_some_and(|d| {
                    fitting
                        .iter()
                        .all(|m| m.landings().len() == d.landings().len())
                }))
        {
            let mv = done.unwrap_or(first);
            self.commit(&mv);
        } else {
            self.say(format!(
                "{}: choose the next landing square.",
                self.path
                    .iter()
                    .map(Square::to_string)
                    .collect::<Vec<_>>()
                    .join(":")
            ));
        }
    }
}
