//! Finding puzzles in the positions of played games.
//!
//! A position becomes a puzzle when the engine, first shallow and then at the full depth,
//! finds that exactly one move wins or gains decisively ([`MineOptions::decisive`]) and
//! every other move stays well below it ([`MineOptions::margin`]). The line then follows
//! the opponent's best replies and the solver's moves while each is forced or again the
//! only good one, and ends once the material is won and the position is quiet. Every other
//! position gets the [`Rejection`] that stopped it.

use std::collections::HashSet;

use bashni_engine::{Engine, Limits, Past, Score, SearchResult, Value};
use bashni_rules::notation::write_position;
use bashni_rules::{Color, Game, Move, Position};

use crate::material::balance;
use crate::puzzle::{Puzzle, puzzle_id};
use crate::theme::themes_of;

/// How the miner decides.
#[derive(Clone, Debug)]
pub struct MineOptions {
    /// The depth of the search that decides (the solver's moves and the replies).
    pub depth: u32,
    /// The depth of the quick search every position gets first.
    pub screen_depth: u32,
    /// The score (hundredths of a man, for the solver) that counts as a win or a decisive
    /// gain.
    pub decisive: Value,
    /// How far below the best move every other move must stay.
    pub margin: Value,
    /// The material lead at which a position counts as won anyway.
    pub already_won: i32,
    /// The material the line must win by its end, unless it wins the game outright or
    /// the tables call its end won.
    pub min_gain: i32,
    /// The longest line, in plies.
    pub max_plies: usize,
}

impl Default for MineOptions {
    fn default() -> MineOptions {
        MineOptions {
            depth: 12,
            screen_depth: 6,
            decisive: 250,
            margin: 200,
            already_won: 300,
            min_gain: 150,
            max_plies: 15,
        }
    }
}

/// Why a position is not a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rejection {
    /// The side to move has one legal move or none: nothing to find.
    Forced,
    /// The side to move is already far ahead in material.
    AlreadyWon,
    /// No move wins or gains decisively.
    NotDecisive,
    /// More than one move wins, or another comes close to the best.
    NotUnique,
    /// The line's later moves have equally good alternatives before the gain is made.
    Unfinished,
    /// The position was found before, as a puzzle or inside a puzzle's line.
    Duplicate,
}

impl Rejection {
    /// Every reason, in the order a report lists them.
    pub const ALL: [Rejection; 6] = [
        Rejection::Forced,
        Rejection::AlreadyWon,
        Rejection::NotDecisive,
        Rejection::NotUnique,
        Rejection::Unfinished,
        Rejection::Duplicate,
    ];

    /// The reason's written name.
    pub const fn name(self) -> &'static str {
        match self {
            Rejection::Forced => "forced",
            Rejection::AlreadyWon => "already-won",
            Rejection::NotDecisive => "not-decisive",
            Rejection::NotUnique => "not-unique",
            Rejection::Unfinished => "unfinished",
            Rejection::Duplicate => "duplicate",
        }
    }

    /// Reads a written name.
    pub fn parse(name: &str) -> Option<Rejection> {
        Rejection::ALL
            .into_iter()
            .find(|reason| reason.name() == name)
    }
}

/// What became of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Examined {
    /// A puzzle.
    Kept(Puzzle),
    /// Not a puzzle, for this reason.
    Rejected(Rejection),
}

/// Finds puzzles with an engine of its own (one thread).
pub struct Miner {
    engine: Engine,
    options: MineOptions,
}

impl Miner {
    /// A miner deciding as `options` say, with `engine` (its table size and endgame tables
    /// are used as they are; it should search on one thread, as miners run side by side).
    pub fn new(engine: Engine, options: MineOptions) -> Miner {
        Miner { engine, options }
    }

    /// The options in use.
    pub fn options(&self) -> &MineOptions {
        &self.options
    }

    fn search(&self, position: &Position, depth: u32, lines: usize) -> SearchResult {
        self.engine.search_lines(
            position,
            &Past::default(),
            &Limits::depth(depth),
            lines,
            |_| {},
        )
    }

    /// The only good move of `position` for its side to move at `depth`, with its score,
    /// or why there is none.
    fn only_move(&self, position: &Position, depth: u32) -> Result<(Move, Score), Rejection> {
        let result = self.search(position, depth, 2);
        let (Some(best), Some(line)) = (result.best, result.lines.first()) else {
            return Err(Rejection::Forced);
        };
        let value = line.score.value();
        if value < self.options.decisive {
            return Err(Rejection::NotDecisive);
        }
        if let Some(second) = result.lines.get(1) {
            let second = second.score.value();
            if second >= self.options.decisive || value - second < self.options.margin {
                return Err(Rejection::NotUnique);
            }
        }
        Ok((best, line.score))
    }

    /// The best reply of the side to move (its only move when it has one).
    fn reply(&self, position: &Position) -> Option<Move> {
        let moves = position.legal_moves();
        match moves.len() {
            0 => None,
            1 => Some(moves.as_slice()[0]),
            _ => self.search(position, self.options.depth, 1).best,
        }
    }

    /// The solver's material once the position after the solver's move has settled: if
    /// the opponent may capture, after its best reply.
    fn settled_balance(&self, position: &Position, solver: Color) -> i32 {
        if position.has_capture()
            && let Some(reply) = self.reply(position)
        {
            return balance(&position.after(&reply), solver);
        }
        balance(position, solver)
    }

    /// Whether the endgame tables say the side to move of `position` has lost.
    fn tables_say_lost(&self, position: &Position) -> bool {
        self.engine
            .tablebase()
            .and_then(|tables| tables.probe(position))
            .is_some_and(|probe| probe.verdict == bashni_egtb::Verdict::Loss)
    }

    fn tables_cover(&self, position: &Position) -> bool {
        self.engine
            .tablebase()
            .is_some_and(|tables| tables.probe(position).is_some())
    }

    /// Examines one position; `source` says where it was found.
    pub fn examine(&self, position: &Position, source: &str) -> Examined {
        match self.puzzle_at(position, source) {
            Ok(puzzle) => Examined::Kept(puzzle),
            Err(reason) => Examined::Rejected(reason),
        }
    }

    fn puzzle_at(&self, position: &Position, source: &str) -> Result<Puzzle, Rejection> {
        if position.legal_moves().len() < 2 {
            return Err(Rejection::Forced);
        }
        let solver = position.side_to_move();
        let start_balance = balance(position, solver);
        if start_balance >= self.options.already_won {
            return Err(Rejection::AlreadyWon);
        }
        self.only_move(position, self.options.screen_depth)?;
        let (first, score) = self.only_move(position, self.options.depth)?;
        let mut line = vec![(*position, first)];
        let mut now = position.after(&first);
        while line.len() + 2 <= self.options.max_plies {
            let gained = self.settled_balance(&now, solver) - start_balance;
            if gained >= self.options.min_gain && !now.has_capture() {
                break;
            }
            let Some(reply) = self.reply(&now) else { break };
            let after_reply = now.after(&reply);
            let ours = after_reply.legal_moves();
            let next = match ours.len() {
                0 => break,
                1 => ours.as_slice()[0],
                _ => match self.only_move(&after_reply, self.options.depth) {
                    Ok((mv, _)) => mv,
                    Err(_) => break,
                },
            };
            line.push((now, reply));
            line.push((after_reply, next));
            now = after_reply.after(&next);
        }
        let won = now.legal_moves().is_empty() || self.tables_say_lost(&now);
        let gained = self.settled_balance(&now, solver) - start_balance;
        if !won && gained < self.options.min_gain {
            return Err(Rejection::Unfinished);
        }
        let tables = self.tables_cover(position);
        Ok(Puzzle {
            id: puzzle_id(position),
            variant: position.variant().name().to_string(),
            position: write_position(position),
            line: line.iter().map(|(_, mv)| mv.to_string()).collect(),
            themes: themes_of(&line, tables),
            score: score.text(),
            source: source.to_string(),
        })
    }

    /// Examines every position of a played game in which its side to move has a move;
    /// `source` names the game. A position inside the line of a puzzle found earlier in
    /// the game is a duplicate. Each game starts from an empty table, so what it gives does
    /// not depend on the games mined before it.
    pub fn mine_game(&self, game: &Game, source: &str) -> Vec<Examined> {
        self.engine.new_game();
        let mut inside = HashSet::new();
        let mut out = Vec::new();
        for (ply, position) in game.positions().iter().enumerate() {
            if position.legal_moves().is_empty() {
                continue;
            }
            if inside.contains(&puzzle_id(position)) {
                out.push(Examined::Rejected(Rejection::Duplicate));
                continue;
            }
            let place = format!(
                "{source}, move {} ({})",
                game.move_number(ply),
                position.side_to_move()
            );
            let examined = self.examine(position, &place);
            if let Examined::Kept(puzzle) = &examined {
                inside.extend(solver_positions(puzzle));
            }
            out.push(examined);
        }
        out
    }
}

/// The ids of the positions in which the solver moves, the first included.
fn solver_positions(puzzle: &Puzzle) -> Vec<String> {
    puzzle
        .moves()
        .map(|moves| {
            moves
                .iter()
                .step_by(2)
                .map(|(position, _)| puzzle_id(position))
                .collect()
        })
        .unwrap_or_default()
}

/// The puzzles kept so far, to keep each position once: a puzzle whose position was seen,
/// as a puzzle or inside a kept puzzle's line, is a duplicate.
#[derive(Default, Debug)]
pub struct Seen {
    ids: HashSet<String>,
}

impl Seen {
    /// Nothing seen.
    pub fn new() -> Seen {
        Seen::default()
    }

    /// Takes `puzzle` if its position is new (and remembers the positions of its line);
    /// `false` for a duplicate.
    pub fn admit(&mut self, puzzle: &Puzzle) -> bool {
        if self.ids.contains(&puzzle.id) {
            return false;
        }
        self.ids.insert(puzzle.id.clone());
        self.ids.extend(solver_positions(puzzle));
        true
    }

    /// How many positions are known.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// Whether nothing is known.
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }
}
