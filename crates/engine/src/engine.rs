//! The engine: owns the table and the weights, runs a search on several threads within the
//! given limits, and reports through a callback. It never prints.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bashni_rules::{Game, Move, Position, Variant};

use crate::eval::Weights;
use crate::score::{INFINITE, Score};
use crate::search::{History, Line, MAX_PLY, Searcher, Shared};
use crate::tt::TranspositionTable;

/// A clock: time left, and what each move adds.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Clock {
    /// Time left on the side to move's clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// When to stop searching. With none set, the search goes on until stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Limits {
    /// Search at most this deep (plies, captures beyond it not counted).
    pub depth: Option<u32>,
    /// Search at most this many nodes.
    pub nodes: Option<u64>,
    /// Use at most this much time for the move.
    pub movetime: Option<Duration>,
    /// Share out the time of a clock.
    pub clock: Option<Clock>,
}

impl Limits {
    /// Only a depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Only a time per move.
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    /// Only a node count.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
}

/// Time kept back from every budget for the program around the engine to answer.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(20);

/// The time to aim for and the time never to pass, for one move.
pub fn time_budget(limits: &Limits) -> (Option<Duration>, Option<Duration>) {
    let mut soft: Option<Duration> = None;
    let mut hard: Option<Duration> = None;
    if let Some(time) = limits.movetime {
        let time = time
            .saturating_sub(MOVE_OVERHEAD)
            .max(Duration::from_millis(1));
        soft = Some(time);
        hard = Some(time);
    }
    if let Some(clock) = limits.clock {
        let left = clock.remaining.saturating_sub(MOVE_OVERHEAD);
        let moves = clock.moves_to_go.unwrap_or(30).clamp(1, 60);
        let base = left / moves + clock.increment * 3 / 4;
        // Never more than a third of what is left, so that a slow move cannot lose on time.
        let cap = (left / 3).max(Duration::from_millis(1));
        let clock_hard = (base * 3).min(cap);
        let clock_soft = base.min(clock_hard);
        soft = Some(soft.map_or(clock_soft, |s| s.min(clock_soft)));
        hard = Some(hard.map_or(clock_hard, |h| h.min(clock_hard)));
    }
    (soft, hard)
}

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
    stop: Arc<AtomicBool>,
    options: Options,
    weights: [Weights; 2],
    reductions: bool,
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
            stop: Arc::new(AtomicBool::new(false)),
            weights: [
                Weights::tuned(Variant::Bashni),
                Weights::tuned(Variant::Russian),
            ],
            options,
            reductions: true,
        }
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

    /// The weights in use for `variant`.
    pub fn weights(&self, variant: Variant) -> &Weights {
        &self.weights[variant_slot(variant)]
    }

    /// A handle that stops the running search when set (from another thread).
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
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
        self.search(game.position(), &history_of(game), limits, on_info)
    }

    /// Searches `position`, reached after `history`, within `limits`.
    pub fn search(
        &self,
        position: &Position,
        history: &History,
        limits: &Limits,
        on_info: impl FnMut(&Info),
    ) -> SearchResult {
        self.search_lines(position, history, limits, self.options.multipv, on_info)
    }

    /// Like [`Engine::search`], reporting the best `multipv` lines.
    pub fn search_lines(
        &self,
        position: &Position,
        history: &History,
        limits: &Limits,
        multipv: usize,
        mut on_info: impl FnMut(&Info),
    ) -> SearchResult {
        let started = Instant::now();
        self.stop.store(false, Ordering::Relaxed);
        self.table.new_search();
        let (soft, hard) = time_budget(limits);
        let shared = Shared {
            table: Arc::clone(&self.table),
            stop: Arc::clone(&self.stop),
            nodes: AtomicU64::new(0),
            node_limit: limits.nodes,
            deadline: hard.map(|h| started + h),
            reductions: self.reductions,
        };
        let weights = &self.weights[variant_slot(position.variant())];
        let mut root_moves: Vec<Move> = position.legal_moves().iter().copied().collect();
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8);
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
        std::thread::scope(|scope| {
            for thread in 1..self.options.threads.max(1) {
                let shared = &shared;
                let moves = root_moves.clone();
                scope.spawn(move || {
                    helper_thread(shared, weights, position, history, moves, max_depth, thread)
                });
            }
            let mut searcher = Searcher::new(&shared, weights, position.variant(), history);
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
                    match searcher.search_root(
                        position,
                        &remaining,
                        depth as i32,
                        -INFINITE,
                        INFINITE,
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
                if !complete || shared.stop.load(Ordering::Relaxed) {
                    break;
                }
                if root_moves.len() == 1 {
                    break;
                }
                if soft.is_some_and(|s| started.elapsed() >= s) {
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

/// A helper thread: the same iterative deepening, sharing the table, starting deeper on
/// odd threads so that the threads spread over depths.
fn helper_thread(
    shared: &Shared,
    weights: &Weights,
    position: &Position,
    history: &History,
    moves: Vec<Move>,
    max_depth: u32,
    thread: usize,
) {
    let mut searcher = Searcher::new(shared, weights, position.variant(), history);
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

/// What the search must know of a game's past: positions that may still repeat, and plies
/// since the last capture or promotion.
pub fn history_of(game: &Game) -> History {
    let positions = game.positions();
    let moves = game.moves();
    let mut hashes = Vec::new();
    for (ply, mv) in moves.iter().enumerate().rev() {
        let before = &positions[ply];
        // After a capture, a crowning or a man's step, no earlier position can come back.
        if mv.is_capture() || mv.promotes() || !before.kings().has(mv.from()) {
            break;
        }
        hashes.push(before.hash());
    }
    hashes.reverse();
    let quiet_plies = moves
        .iter()
        .rev()
        .take_while(|mv| !mv.is_capture() && !mv.promotes())
        .count();
    let king_plies = moves
        .iter()
        .zip(positions)
        .rev()
        .take_while(|(mv, before)| !mv.is_capture() && before.kings().has(mv.from()))
        .count();
    History {
        hashes,
        quiet_plies,
        king_plies,
    }
}
