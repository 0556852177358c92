//! The engine: owns the table and the weights, runs a search on several threads within the
//! given limits, and reports through a callback. It never prints.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bashni_egtb::{Probe, Tablebase, Verdict};
use bashni_rules::{Game, Move, Position, Variant};

use crate::eval::Weights;
use crate::limits::Limits;
use crate::past::Past;
use crate::score::{INFINITE, Score, Value, WIN_BOUND};
use crate::search::{Line, SearchParams, Searcher, Shared};
use crate::time::time_budget_over;
use crate::tt::TranspositionTable;

/// How the engine is set up.
#[derive(Clone, Debug)]
pub struct Options {
    /// Size of the transposition table in MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// How many best lines to report (analysis); the move played is the first.
    pub multipv: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            // A small table stays in the processor's address caches; measured faster per
            // node than 64 MB for searches of a few seconds.
            hash_mb: 16,
            threads: 1,
            multipv: 1,
        }
    }
}

/// What the search reports after each completed depth, one per line of multi-PV.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// Depth completed.
    pub depth: u32,
    /// Deepest ply reached, captures included.
    pub seldepth: u32,
    /// Which line (1 = best).
    pub multipv: usize,
    /// The line's score for the side to move.
    pub score: Score,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time since the search began.
    pub time: Duration,
    /// The line's moves.
    pub pv: Vec<Move>,
}

/// The end of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play; `None` when the side to move has no move.
    pub best: Option<Move>,
    /// Its score.
    pub score: Score,
    /// The last depth completed.
    pub depth: u32,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Time used.
    pub time: Duration,
    /// The best lines of the last completed depth, best first.
    pub lines: Vec<Info>,
}

/// The engine.
pub struct Engine {
    table: Arc<TranspositionTable>,
    options: Options,
    weights: [Weights; 2],
    reductions: bool,
    search_params: [SearchParams; 2],
    tablebase: Option<Arc<Tablebase>>,
}

fn variant_slot(variant: Variant) -> usize {
    match variant {
        Variant::Bashni => 0,
        Variant::Russian => 1,
    }
}

impl Engine {
    /// An engine with the tuned weights of both games.
    pub fn new(options: Options) -> Engine {
        Engine {
            table: Arc::new(TranspositionTable::new(options.hash_mb)),
            weights: [
                Weights::tuned(Variant::Bashni),
                Weights::tuned(Variant::Russian),
            ],
            options,
            reductions: true,
            search_params: [
                SearchParams::shipped(Variant::Bashni),
                SearchParams::shipped(Variant::Russian),
            ],
            tablebase: None,
        }
    }

    /// Uses endgame databases of Russian draughts from now on (`None`: none). In a covered
    /// position the engine plays the tables' move without searching; in the search, covered
    /// positions take their value from the tables.
    pub fn set_tablebase(&mut self, tablebase: Option<Arc<Tablebase>>) {
        self.tablebase = tablebase;
    }

    /// The endgame databases in use, if any.
    pub fn tablebase(&self) -> Option<&Arc<Tablebase>> {
        self.tablebase.as_ref()
    }

    /// The options in use.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Changes the options; a new table size clears the table.
    pub fn set_options(&mut self, options: Options) {
        if options.hash_mb != self.options.hash_mb {
            self.table = Arc::new(TranspositionTable::new(options.hash_mb));
        }
        self.options = options;
    }

    /// Uses `weights` for `variant` from now on.
    pub fn set_weights(&mut self, variant: Variant, weights: Weights) {
        self.weights[variant_slot(variant)] = weights;
    }

    /// Turns late-move reductions on or off (on by default), to measure what they gain.
    pub fn set_reductions(&mut self, on: bool) {
        self.reductions = on;
    }

    /// Uses `params` as the search's pruning and reduction constants of `variant` from now
    /// on (each game has its own, [`SearchParams::shipped`] at first).
    pub fn set_search_params(&mut self, variant: Variant, params: SearchParams) {
        self.search_params[variant_slot(variant)] = params;
    }

    /// The search constants in use for `variant`.
    pub fn search_params(&self, variant: Variant) -> &SearchParams {
        &self.search_params[variant_slot(variant)]
    }

    /// The weights in use for `variant`.
    pub fn weights(&self, variant: Variant) -> &Weights {
        &self.weights[variant_slot(variant)]
    }

    /// Forgets what earlier searches learned.
    pub fn new_game(&self) {
        self.table.clear();
    }

    /// Searches the current position of `game`.
    pub fn search_game(
        &self,
        game: &Game,
        limits: &Limits,
        on_info: impl FnMut(&Info),
    ) -> SearchResult {
        self.search(game.position(), &Past::of(game), limits, on_info)
    }

    /// Searches `position`, reached after `past`, within `limits`.
    pub fn search(
        &self,
        position: &Position,
        past: &Past,
        limits: &Limits,
        on_info: impl FnMut(&Info),
    ) -> SearchResult {
        self.search_lines(position, past, limits, self.options.multipv, on_info)
    }

    /// Like [`Engine::search`], reporting the best `multipv` lines.
    pub fn search_lines(
        &self,
        position: &Position,
        past: &Past,
        limits: &Limits,
        multipv: usize,
        mut on_info: impl FnMut(&Info),
    ) -> SearchResult {
        let started = Instant::now();
        let tablebase = self.tablebase.as_ref().filter(|_| !limits.without_tables);
        if let Some(result) = self.table_result(tablebase, position, multipv, started) {
            for info in &result.lines {
                on_info(info);
            }
            return result;
        }
        self.table.new_search();
        let params = *self.search_params(position.variant());
        let (soft, hard) = time_budget_over(limits, params.time_moves);
        let shared = Shared {
            table: Arc::clone(&self.table),
            stop: AtomicBool::new(false),
            token: limits.stop.clone(),
            nodes: AtomicU64::new(0),
            node_limit: limits.nodes,
            // A deadline too far to be represented is no deadline.
            deadline: hard.and_then(|h| started.checked_add(h)),
            reductions: self.reductions,
            params,
            reduction_table: params.reduction_table(),
            tablebase: tablebase.cloned(),
        };
        let weights = &self.weights[variant_slot(position.variant())];
        let mut root_moves: Vec<Move> = position.legal_moves().iter().copied().collect();
        let max_depth = limits
            .depth
            .unwrap_or(Limits::MAX_DEPTH)
            .clamp(1, Limits::MAX_DEPTH);
        if root_moves.is_empty() {
            return SearchResult {
                best: None,
                score: Score::LossIn(0),
                depth: 0,
                nodes: 0,
                time: started.elapsed(),
                lines: Vec::new(),
            };
        }
        let multipv = multipv.clamp(1, root_moves.len());
        let mut result_lines: Vec<Info> = Vec::new();
        let params = shared.params;
        // The depth at which the search last became unsure (see `SearchParams::time_unstable`).
        let mut unsure_at = 0;
        std::thread::scope(|scope| {
            for thread in 1..self.options.threads.max(1) {
                let shared = &shared;
                let moves = root_moves.clone();
                scope.spawn(move || {
                    helper_thread(shared, weights, position, past, moves, max_depth, thread)
                });
            }
            let mut searcher = Searcher::new(&shared, weights, past);
            for depth in 1..=max_depth {
                searcher.seldepth = 0;
                let mut lines: Vec<Line> = Vec::new();
                let mut complete = true;
                for _ in 0..multipv {
                    let remaining: Vec<Move> = root_moves
                        .iter()
                        .filter(|m| !lines.iter().any(|l| l.moves.first() == Some(m)))
                        .copied()
                        .collect();
                    // One line: a narrow window around the last depth's value first.
                    let previous = (multipv == 1)
                        .then(|| result_lines.first().map(|i| i.score.value()))
                        .flatten();
                    match search_aspirated(
                        &mut searcher,
                        &shared,
                        position,
                        &remaining,
                        depth as i32,
                        previous,
                    ) {
                        Some(line) => lines.push(line),
                        None => complete = false,
                    }
                    if shared.stop.load(Ordering::Relaxed) {
                        complete = false;
                        break;
                    }
                }
                searcher.flush_nodes();
                // A depth cut short is kept only if it found a better first move.
                let keep = complete
                    || result_lines.is_empty()
                    || lines
                        .first()
                        .zip(result_lines.first())
                        .is_some_and(|(new, old)| {
                            new.moves.first() != old.pv.first() && new.value > old.score.value()
                        });
                if keep && !lines.is_empty() {
                    if let (Some(new), Some(old)) = (lines.first(), result_lines.first())
                        && (new.moves.first() != old.pv.first()
                            || new.value < old.score.value() - UNSURE_FALL)
                    {
                        unsure_at = depth;
                    }
                    let nodes = shared.nodes.load(Ordering::Relaxed);
                    let time = started.elapsed();
                    let nps = (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64;
                    lines.sort_by_key(|l| std::cmp::Reverse(l.value));
                    result_lines = lines
                        .iter()
                        .enumerate()
                        .map(|(i, line)| Info {
                            depth,
                            seldepth: searcher.seldepth as u32,
                            multipv: i + 1,
                            score: Score::from_value(line.value),
                            nodes,
                            nps,
                            time,
                            pv: line.moves.clone(),
                        })
                        .collect();
                    for info in &result_lines {
                        on_info(info);
                    }
                    // Search the best moves first next time.
                    for line in lines.iter().rev() {
                        if let Some(first) = line.moves.first()
                            && let Some(at) = root_moves.iter().position(|m| m == first)
                        {
                            let mv = root_moves.remove(at);
                            root_moves.insert(0, mv);
                        }
                    }
                }
                if !complete || shared.stop.load(Ordering::Relaxed) || shared.told_to_stop() {
                    break;
                }
                if root_moves.len() == 1 {
                    break;
                }
                let percent = params.time_soft
                    + if unsure_at == depth {
                        params.time_unstable
                    } else {
                        0
                    };
                if soft.is_some_and(|s| started.elapsed() >= s.saturating_mul(percent) / 100) {
                    break;
                }
                if result_lines.first().is_some_and(
                    |i| matches!(i.score, Score::WinIn(p) | Score::LossIn(p) if p < depth),
                ) {
                    break;
                }
            }
            shared.stop.store(true, Ordering::Relaxed);
        });
        let best = result_lines
            .first()
            .and_then(|i| i.pv.first().copied())
            .or(root_moves.first().copied());
        SearchResult {
            best,
            score: result_lines.first().map_or(Score::Value(0), |i| i.score),
            depth: result_lines.first().map_or(0, |i| i.depth),
            nodes: shared.nodes.load(Ordering::Relaxed),
            time: started.elapsed(),
            lines: result_lines,
        }
    }
}

/// Searches the root in a window around `previous` (the value of the last depth), widened
/// on the side that fails until the value falls inside it; a full window without
/// `previous`, at low depths and near wins.
fn search_aspirated(
    searcher: &mut Searcher<'_>,
    shared: &Shared,
    position: &Position,
    moves: &[Move],
    depth: i32,
    previous: Option<Value>,
) -> Option<Line> {
    let Some(previous) = previous.filter(|v| depth >= 5 && v.abs() < WIN_BOUND) else {
        return searcher.search_root(position, moves, depth, -INFINITE, INFINITE);
    };
    let mut delta = 25;
    let (mut alpha, mut beta) = (previous - delta, previous + delta);
    loop {
        let line = searcher.search_root(position, moves, depth, alpha, beta)?;
        if shared.stop.load(Ordering::Relaxed) {
            return Some(line);
        }
        delta *= 3;
        if line.value <= alpha {
            alpha = if delta > 400 {
                -INFINITE
            } else {
                line.value - delta
            };
        } else if line.value >= beta {
            beta = if delta > 400 {
                INFINITE
            } else {
                line.value + delta
            };
        } else {
            return Some(line);
        }
    }
}

impl Engine {
    /// The answer of the endgame databases for a covered `position` with a move: its best
    /// `multipv` moves by the tables, each with the line of perfect play after it. `None`
    /// when no tables cover the position.
    fn table_result(
        &self,
        tables: Option<&Arc<Tablebase>>,
        position: &Position,
        multipv: usize,
        started: Instant,
    ) -> Option<SearchResult> {
        let tables = tables?;
        let ranked = tables.ranked_moves(position)?;
        let first = ranked.first()?.0;
        let time = started.elapsed();
        let lines: Vec<Info> = ranked
            .iter()
            .take(multipv.clamp(1, ranked.len()))
            .enumerate()
            .map(|(i, (mv, after))| {
                let mut pv = vec![*mv];
                let mut line_position = position.after(mv);
                while pv.len() < TABLE_LINE
                    && let Some(next) = tables.best_move(&line_position)
                {
                    pv.push(next);
                    line_position = line_position.after(&next);
                }
                Info {
                    depth: 1,
                    seldepth: pv.len() as u32,
                    multipv: i + 1,
                    score: mover_score(*after),
                    nodes: 0,
                    nps: 0,
                    time,
                    pv,
                }
            })
            .collect();
        Some(SearchResult {
            best: Some(first),
            score: lines.first().map_or(Score::Value(0), |i| i.score),
            depth: 1,
            nodes: 0,
            time,
            lines,
        })
    }
}

/// The most moves of a line of perfect play that a table answer gives.
const TABLE_LINE: usize = 24;

/// How far the value of the first move may fall from one depth to the next (a third of a
/// man) before the search counts itself unsure and may take more time.
const UNSURE_FALL: Value = 33;

/// The score of a move for the side that makes it, from the tables' value of the position it
/// leads to (for the opponent).
fn mover_score(after: Probe) -> Score {
    match after.verdict {
        Verdict::Loss => Score::WinIn(after.distance + 1),
        Verdict::Win => Score::LossIn(after.distance + 1),
        Verdict::Draw => Score::Value(0),
    }
}

/// A helper thread: the same iterative deepening, sharing the table, starting deeper on
/// odd threads so that the threads spread over depths.
fn helper_thread(
    shared: &Shared,
    weights: &Weights,
    position: &Position,
    past: &Past,
    moves: Vec<Move>,
    max_depth: u32,
    thread: usize,
) {
    let mut searcher = Searcher::new(shared, weights, past);
    let mut moves = moves;
    // Threads try the root moves in different orders, to explore different parts first.
    let shift = thread % moves.len().max(1);
    moves.rotate_left(shift);
    let start = 1 + (thread % 2) as u32;
    for depth in start..=max_depth {
        let line: Option<Line> =
            searcher.search_root(position, &moves, depth as i32, -INFINITE, INFINITE);
        if shared.stop.load(Ordering::Relaxed) {
            break;
        }
        if let Some(first) = line.and_then(|l| l.moves.first().copied())
            && let Some(at) = moves.iter().position(|m| *m == first)
        {
            let mv = moves.remove(at);
            moves.insert(0, mv);
        }
    }
    searcher.flush_nodes();
}
