//! The search: iterative deepening, principal-variation alpha-beta with a transposition
//! table, killer and history move ordering, and captures searched out before a position is
//! evaluated. Repetitions and the draw rules that count moves ([`bashni_rules::draw`]: Bashni's
//! 15-move rule, Russian 6.1.8.4-6.1.8.8) count as draws inside the search.
//!
//! One [`Searcher`] runs in each thread; all share the table and the stop flag.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use bashni_egtb::Tablebase;
use bashni_rules::{DrawCounts, Move, MoveList, Position};

use crate::eval::{Weights, evaluate};
use crate::limits::StopToken;
use crate::past::Past;
use crate::score::{DRAW, INFINITE, Value, WIN, WIN_BOUND, table_value};
use crate::tt::{Bound, Entry, TranspositionTable, find, fingerprint};

/// The deepest ply the search goes to, captures included.
pub const MAX_PLY: usize = 128;

/// Up to this depth a position whose evaluation is far above beta is not searched.
const FUTILITY_DEPTH: i32 = 3;
/// How far above beta, per ply of depth left.
const FUTILITY_MARGIN: Value = 80;

/// What all threads of one search share.
pub struct Shared {
    /// The transposition table.
    pub table: Arc<TranspositionTable>,
    /// Set to stop every thread at once; belongs to this search alone.
    pub stop: AtomicBool,
    /// The caller's token, if it may stop the search from outside.
    pub token: Option<StopToken>,
    /// Nodes searched by all threads.
    pub nodes: AtomicU64,
    /// Stop when this many nodes have been searched (all threads together).
    pub node_limit: Option<u64>,
    /// Stop at this moment.
    pub deadline: Option<Instant>,
    /// Whether late quiet moves are first searched one ply shallower.
    pub reductions: bool,
    /// Endgame databases whose values replace the search where they cover a position.
    pub tablebase: Option<Arc<Tablebase>>,
}

impl Shared {
    /// Whether the caller's token says stop.
    pub fn told_to_stop(&self) -> bool {
        self.token.as_ref().is_some_and(StopToken::is_stopped)
    }

    /// Whether the search must stop now; once it must, it stays stopped.
    pub fn should_stop(&self) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        let over = self.told_to_stop()
            || self
                .node_limit
                .is_some_and(|limit| self.nodes.load(Ordering::Relaxed) >= limit)
            || self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline);
        if over {
            self.stop.store(true, Ordering::Relaxed);
        }
        over
    }
}

/// One line found at the root: its value and moves.
#[derive(Clone, Debug)]
pub struct Line {
    /// The value for the side to move at the root.
    pub value: Value,
    /// The moves, best first.
    pub moves: Vec<Move>,
}

/// The search of one thread.
pub struct Searcher<'a> {
    shared: &'a Shared,
    weights: &'a Weights,
    /// Hashes along the game and the current path, for repetitions.
    path: Vec<u64>,
    /// Where the positions that may repeat start in `path`, per ply of the path.
    reversible_from: Vec<usize>,
    /// The draw counts of each position of the path.
    counts: Vec<DrawCounts>,
    killers: [[Option<Move>; 2]; MAX_PLY],
    /// The history heuristic: how often a quiet move from one square to another caused a
    /// cut-off, weighted by depth.
    move_history: Box<[[i32; 64]; 64]>,
    pv: Vec<Vec<Move>>,
    local_nodes: u64,
    /// The deepest ply reached in the last iteration.
    pub seldepth: usize,
}

impl<'a> Searcher<'a> {
    /// A searcher for positions reached after `past`.
    pub fn new(shared: &'a Shared, weights: &'a Weights, past: &Past) -> Self {
        let mut path = past.hashes.clone();
        path.reserve(MAX_PLY + 2);
        let mut counts = Vec::with_capacity(MAX_PLY + 2);
        counts.push(past.counts);
        Searcher {
            shared,
            weights,
            reversible_from: vec![0],
            counts,
            path,
            killers: [[None; 2]; MAX_PLY],
            move_history: Box::new([[0; 64]; 64]),
            pv: vec![Vec::new(); MAX_PLY + 1],
            local_nodes: 0,
            seldepth: 0,
        }
    }

    fn count_node(&mut self) -> bool {
        self.local_nodes += 1;
        if self.local_nodes & 1023 == 0 {
            self.shared.nodes.fetch_add(1024, Ordering::Relaxed);
            return self.shared.should_stop();
        }
        false
    }

    /// Nodes this thread searched that are not yet added to the shared count.
    pub fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.local_nodes & 1023, Ordering::Relaxed);
        self.local_nodes &= !1023;
    }

    /// Searches the root to `depth`, skipping `excluded` moves (multi-PV), in the window
    /// (`alpha`, `beta`). `None` when stopped before the first move was searched.
    pub fn search_root(
        &mut self,
        root: &Position,
        moves: &[Move],
        depth: i32,
        mut alpha: Value,
        beta: Value,
    ) -> Option<Line> {
        let mut best: Option<Line> = None;
        let hash = root.hash();
        self.path.push(hash);
        for (i, mv) in moves.iter().enumerate() {
            let child = root.after(mv);
            self.enter(root, mv);
            let value = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, 1)
            } else {
                let probe = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1);
                if probe > alpha && probe < beta {
                    -self.negamax(&child, depth - 1, -beta, -alpha, 1)
                } else {
                    probe
                }
            };
            self.leave();
            if self.shared.stop.load(Ordering::Relaxed) && i > 0 {
                break;
            }
            if best.as_ref().is_none_or(|b| value > b.value) {
                let mut line = vec![*mv];
                line.extend_from_slice(&self.pv[1]);
                best = Some(Line { value, moves: line });
                alpha = alpha.max(value);
            }
            if self.shared.stop.load(Ordering::Relaxed) {
                break;
            }
            if value >= beta {
                break;
            }
        }
        self.path.pop();
        best
    }

    /// Records stepping from `position` by `mv` into the path.
    fn enter(&mut self, position: &Position, mv: &Move) {
        let man_moved = !position.kings().has(mv.from());
        let irreversible = mv.is_capture() || mv.promotes() || man_moved;
        let from = if irreversible {
            self.path.len()
        } else {
            *self.reversible_from.last().unwrap_or(&0)
        };
        self.reversible_from.push(from);
        let counts = self.counts.last().copied().unwrap_or_default();
        self.counts.push(counts.after(position, mv));
    }

    fn leave(&mut self) {
        self.reversible_from.pop();
        self.counts.pop();
    }

    /// Whether `position` (with `hash`), just reached, is a draw by the rules the search
    /// applies: a repetition of a position of the path, or a draw count that has run out
    /// ([`DrawCounts::verdict`]: Bashni's 15-move rule, the Russian endgame counts).
    fn is_draw(&self, position: &Position, hash: u64) -> bool {
        if self
            .counts
            .last()
            .is_some_and(|counts| counts.verdict(position).is_some())
        {
            return true;
        }
        let from = *self.reversible_from.last().unwrap_or(&0);
        let end = self.path.len();
        // Same side to move: every second position back.
        let mut i = end.saturating_sub(2) as isize;
        while i >= from as isize {
            if self.path[i as usize] == hash {
                return true;
            }
            i -= 2;
        }
        false
    }

    fn negamax(
        &mut self,
        position: &Position,
        depth: i32,
        mut alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Value {
        self.pv[ply].clear();
        if self.count_node() {
            return DRAW;
        }
        self.seldepth = self.seldepth.max(ply);
        let hash = position.hash();
        if self.is_draw(position, hash) {
            return DRAW;
        }
        // A Russian ending the tables cover is worth what they say (the draw counts of the
        // rulebook were applied just above; the tables know nothing of them).
        if let Some(tables) = &self.shared.tablebase
            && let Some(probe) = tables.probe(position)
        {
            return table_value(probe);
        }
        let mut moves = MoveList::new();
        position.generate_moves(&mut moves);
        if moves.is_empty() {
            return -WIN + ply as Value;
        }
        let capturing = moves[0].is_capture();
        if ply >= MAX_PLY - 1 {
            return evaluate(position, self.weights);
        }
        // At the horizon, a pending capture is played out first; otherwise evaluate.
        if depth <= 0 && !capturing {
            return evaluate(position, self.weights);
        }
        let depth = depth.max(0);
        let pv_node = beta - alpha > 1;
        let entry = self.shared.table.probe(hash);
        if let Some(entry) = entry
            && !pv_node
            && entry.depth as i32 >= depth
        {
            let value = from_table(entry.value, ply);
            let cut = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => value >= beta,
                Bound::Upper => value <= alpha,
            };
            if cut {
                return value;
            }
        }
        // Far above beta near the horizon, with no capture to make: the opponent is not
        // expected to come back within the few plies left.
        if !pv_node
            && !capturing
            && depth <= FUTILITY_DEPTH
            && self.shared.reductions
            && beta.abs() < WIN_BOUND
        {
            let standing = evaluate(position, self.weights);
            if standing - FUTILITY_MARGIN * depth >= beta {
                return standing;
            }
        }
        // A single legal move costs no depth: the reply is forced.
        let next_depth = if moves.len() == 1 { depth } else { depth - 1 };
        let table_move = entry.and_then(|e| find(&moves, e.best));
        self.order(&mut moves, table_move, ply);

        let original_alpha = alpha;
        let mut best_value = -INFINITE;
        let mut best_move = None;
        self.path.push(hash);
        for (i, mv) in moves.iter().enumerate() {
            let child = position.after(mv);
            self.enter(position, mv);
            let quiet = !mv.is_capture();
            let value = if i == 0 {
                -self.negamax(&child, next_depth, -beta, -alpha, ply + 1)
            } else {
                // Late quiet moves are first searched shallower, the later the more.
                let reduction = if self.shared.reductions
                    && quiet
                    && !mv.promotes()
                    && depth >= 3
                    && i >= 2
                    && Some(*mv) != self.killers[ply][0]
                    && Some(*mv) != self.killers[ply][1]
                {
                    let r = late_move_reduction(depth, i) - pv_node as i32;
                    r.clamp(0, (next_depth - 1).max(0))
                } else {
                    0
                };
                let mut value =
                    -self.negamax(&child, next_depth - reduction, -alpha - 1, -alpha, ply + 1);
                if value > alpha && reduction > 0 {
                    value = -self.negamax(&child, next_depth, -alpha - 1, -alpha, ply + 1);
                }
                if value > alpha && value < beta {
                    value = -self.negamax(&child, next_depth, -beta, -alpha, ply + 1);
                }
                value
            };
            self.leave();
            if self.shared.stop.load(Ordering::Relaxed) {
                self.path.pop();
                return DRAW;
            }
            if value > best_value {
                best_value = value;
                best_move = Some(*mv);
                if value > alpha {
                    alpha = value;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(*mv);
                    head[ply].extend_from_slice(&tail[0]);
                }
                if value >= beta {
                    if quiet {
                        self.reward(mv, depth, ply);
                    }
                    break;
                }
            }
        }
        self.path.pop();
        let bound = if best_value >= beta {
            Bound::Lower
        } else if best_value > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.table.store(
            hash,
            Entry {
                value: to_table(best_value, ply),
                bound,
                depth: depth.clamp(0, 255) as u8,
                best: best_move.map(|m| fingerprint(&m)),
            },
        );
        best_value
    }

    /// Puts the table move first, then the longest captures, killers and moves with a good
    /// history.
    fn order(&self, moves: &mut MoveList, table_move: Option<Move>, ply: usize) {
        let killers = self.killers[ply];
        let history = &self.move_history;
        moves.as_mut_slice().sort_unstable_by_key(|mv| {
            let key: i64 = if Some(*mv) == table_move {
                1 << 40
            } else if mv.is_capture() {
                (mv.captured().len() as i64) << 20
            } else if Some(*mv) == killers[0] {
                1 << 30
            } else if Some(*mv) == killers[1] {
                1 << 29
            } else {
                history[mv.from().index()][mv.to().index()] as i64
                    + if mv.promotes() { 1 << 28 } else { 0 }
            };
            -key
        });
    }

    fn reward(&mut self, mv: &Move, depth: i32, ply: usize) {
        if self.killers[ply][0] != Some(*mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(*mv);
        }
        let cell = &mut self.move_history[mv.from().index()][mv.to().index()];
        *cell = (*cell + depth * depth).min(1 << 20);
    }
}

/// How many plies shallower the `index`-th move (0-based) is first searched at `depth`: more
/// for later moves and deeper searches.
fn late_move_reduction(depth: i32, index: usize) -> i32 {
    static TABLE: std::sync::OnceLock<[[u8; 64]; 64]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut table = [[0u8; 64]; 64];
        for (d, row) in table.iter_mut().enumerate().skip(1) {
            for (i, cell) in row.iter_mut().enumerate().skip(1) {
                let r = 0.5 + (d as f64).ln() * (i as f64).ln() / 2.5;
                *cell = r.max(0.0) as u8;
            }
        }
        table
    });
    table[(depth as usize).min(63)][index.min(63)] as i32
}

/// Wins and losses are stored counted from the stored position, not from the root.
fn to_table(value: Value, ply: usize) -> Value {
    if value >= WIN_BOUND {
        value + ply as Value
    } else if value <= -WIN_BOUND {
        value - ply as Value
    } else {
        value
    }
}

fn from_table(value: Value, ply: usize) -> Value {
    if value >= WIN_BOUND {
        value - ply as Value
    } else if value <= -WIN_BOUND {
        value + ply as Value
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Engine, Options};
    use crate::limits::Limits;
    use bashni_rules::notation::parse_position;
    use bashni_rules::{Color, Variant};

    fn russian(text: &str) -> Position {
        parse_position(Variant::Russian, text).expect("test position")
    }

    #[test]
    fn the_search_sees_a_count_running_out() {
        let engine = Engine::new(Options::default());
        let position = russian("White: a1 1, c1 1, e1 1; Black: h8 1; White to move");
        let fresh = engine.search(&position, &Past::default(), &Limits::depth(4), |_| {});
        assert!(fresh.score.value() > 200, "{}", fresh.score);
        engine.new_game();
        let late = Past {
            counts: DrawCounts {
                quiet_plies: 29,
                moves: [14, 15],
                ..DrawCounts::default()
            },
            ..Past::default()
        };
        let result = engine.search(&position, &late, &Limits::depth(4), |_| {});
        assert_eq!(result.score.value(), DRAW, "every move ends the count");
    }

    #[test]
    fn the_search_applies_the_big_road() {
        // 6.1.8.5: three white pieces off the big road against a king on it; White's fifth
        // such move ends the game drawn.
        let engine = Engine::new(Options::default());
        let position = russian("White: a3 1, c1 1, e1 1; Black: d4 1; White to move");
        let late = Past {
            counts: DrawCounts {
                quiet_plies: 8,
                moves: [4, 4],
                big_road_moves: [4, 0],
                ..DrawCounts::default()
            },
            ..Past::default()
        };
        let moves = position.legal_moves().len();
        let result = engine.search_lines(&position, &late, &Limits::depth(3), moves, |_| {});
        assert_eq!(result.lines.len(), moves);
        let road = bashni_rules::draw::BIG_ROAD;
        let mut off_road = 0;
        for line in &result.lines {
            let first = line.pv[0];
            let onto_road = !(position.after(&first).owned_by(Color::White) & road).is_empty();
            if !onto_road {
                assert_eq!(line.score.value(), DRAW, "{first} is the fifth move");
                off_road += 1;
            }
        }
        assert!(off_road > 0);
    }
}
