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
use bashni_rules::{DrawCounts, Move, MoveList, Position, Variant};

use crate::eval::{Weights, evaluate};
use crate::limits::StopToken;
use crate::past::Past;
use crate::score::{DRAW, INFINITE, Value, WIN, WIN_BOUND, table_value};
use crate::time::MOVES_LEFT;
use crate::tt::{Bound, Entry, TranspositionTable, find, fingerprint};

/// The deepest ply the search goes to, captures included.
pub const MAX_PLY: usize = 128;

/// Move lists up to this long are ordered with their keys computed once.
const ORDER_KEYS: usize = 128;

/// The constants of the search's pruning and reductions. The defaults are the shipped
/// values; others are given to measure them by matches (`bashni match` player setting
/// `search=`).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct SearchParams {
    /// Late quiet moves are first searched `lmr_base + ln(depth) ln(index) / lmr_divisor`
    /// plies shallower.
    pub lmr_base: f64,
    /// See `lmr_base`: the larger, the smaller the reductions.
    pub lmr_divisor: f64,
    /// Late moves are reduced from this depth left on.
    pub lmr_depth: i32,
    /// Moves from this index (0-based, in search order) on are late.
    pub lmr_index: usize,
    /// Up to this depth a position whose evaluation is far above beta is not searched.
    pub futility_depth: i32,
    /// How far above beta, per ply of depth left.
    pub futility_margin: Value,
    /// Up to this depth (0: never) quiet moves after the first
    /// `lmp_base + depth * depth` are not searched at all where no line is expected.
    pub lmp_depth: i32,
    /// See `lmp_depth`.
    pub lmp_base: usize,
    /// Whether a quiet move that caused a cut-off also lowers the history of the quiet moves
    /// searched before it (0 or 1).
    pub history_malus: bool,
    /// From this depth on (0: never), a position with no move from the table is searched one
    /// ply shallower.
    pub iir_depth: i32,
    /// From this depth on (0: never), where the evaluation is at or above beta, the first
    /// `multicut_moves` moves are searched `multicut_reduction` plies shallower; if
    /// `multicut_cuts` of them reach beta, the position is taken to be worth beta.
    pub multicut_depth: i32,
    /// See `multicut_depth`.
    pub multicut_moves: usize,
    /// See `multicut_depth`.
    pub multicut_cuts: usize,
    /// See `multicut_depth`.
    pub multicut_reduction: i32,
    /// From this depth on (0: never), outside the principal variation, a late quiet move that
    /// is not reduced is first searched `probe_reduction` plies shallower against
    /// `alpha - probe_margin`; if it falls below even that, it is not searched further.
    pub probe_depth: i32,
    /// See `probe_depth`.
    pub probe_reduction: i32,
    /// See `probe_depth`.
    pub probe_margin: Value,
    /// From this depth on (0: never), outside the principal variation, the table is asked
    /// about every move's position before any is searched: one already known to refute the
    /// opponent's last move at enough depth is a cut-off at once (enhanced transposition
    /// cut-off).
    pub etc_depth: i32,
    /// The share of the clock's soft budget the search aims at, in percent: after each
    /// depth it stops once this much of the budget is used.
    pub time_soft: u32,
    /// How much more of the soft budget, in percent, the search may use while it is unsure:
    /// its first move changed at the last depth, or its value fell by a third of a man.
    pub time_unstable: u32,
    /// The moves the clock is shared out over when its control does not say how many remain
    /// (see [`crate::time_budget_over`]).
    pub time_moves: u32,
    /// What a position with one legal move adds to the depth of its reply, in 32nds of a
    /// ply (32: the forced reply costs no depth). Fractions add up along the line: each whole
    /// ply they make is one ply more.
    pub single_reply: u32,
    /// What a position with two legal moves adds to the depth of its replies, in 32nds of a
    /// ply, as `single_reply`.
    pub two_replies: u32,
}

impl Default for SearchParams {
    /// The shipped constants of Russian draughts.
    fn default() -> Self {
        SearchParams::shipped(Variant::Russian)
    }
}

impl SearchParams {
    /// The names [`SearchParams::parse`] knows.
    pub const NAMES: [&'static str; 23] = [
        "lmr_base",
        "lmr_divisor",
        "lmr_depth",
        "lmr_index",
        "futility_depth",
        "futility_margin",
        "lmp_depth",
        "lmp_base",
        "history_malus",
        "iir_depth",
        "multicut_depth",
        "multicut_moves",
        "multicut_cuts",
        "multicut_reduction",
        "probe_depth",
        "probe_reduction",
        "probe_margin",
        "etc_depth",
        "time_soft",
        "time_unstable",
        "time_moves",
        "single_reply",
        "two_replies",
    ];

    /// The constants the engine plays `variant` with. The hand-set values, and changes
    /// kept only where matches said they gain (docs/engine.md has the matches and their
    /// commands).
    pub fn shipped(variant: Variant) -> SearchParams {
        let hand_set = SearchParams {
            lmr_base: 0.5,
            lmr_divisor: 2.5,
            lmr_depth: 3,
            lmr_index: 2,
            futility_depth: 3,
            futility_margin: 80,
            lmp_depth: 0,
            lmp_base: 2,
            history_malus: false,
            iir_depth: 0,
            multicut_depth: 0,
            multicut_moves: 6,
            multicut_cuts: 2,
            multicut_reduction: 3,
            probe_depth: 0,
            probe_reduction: 4,
            probe_margin: 32,
            etc_depth: 0,
            time_soft: 100,
            time_unstable: 0,
            time_moves: MOVES_LEFT,
            single_reply: PLY_FRACTIONS,
            two_replies: 0,
        };
        match variant {
            // More pruning gained at 2+0.02 and not at 10+0.1; deepening longer, the shallow
            // probe and transposition cut-offs gained against KestoG 1.4 at 10+0.1 (50.0%
            // where the hand-set values scored 44.8%).
            Variant::Russian => SearchParams {
                time_soft: 170,
                probe_depth: 4,
                etc_depth: 4,
                ..hand_set
            },
            // More pruning gained at 2+0.02 and at 10+0.1.
            Variant::Bashni => SearchParams {
                lmr_divisor: 1.5,
                futility_depth: 4,
                lmp_depth: 4,
                lmp_base: 2,
                history_malus: true,
                iir_depth: 4,
                ..hand_set
            },
        }
    }

    /// The defaults of Russian draughts changed by `NAME:VALUE` pairs separated by `/`, for
    /// example `lmr_divisor:2/futility_margin:60`.
    pub fn parse(text: &str) -> Result<SearchParams, String> {
        SearchParams::default().changed(text)
    }

    /// These constants changed by `NAME:VALUE` pairs separated by `/` (as
    /// [`SearchParams::parse`]).
    pub fn changed(self, text: &str) -> Result<SearchParams, String> {
        let mut params = self;
        for pair in text.split('/').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((name, value)) = pair.split_once(':') else {
                return Err(format!("`{pair}`: expected NAME:VALUE"));
            };
            let (name, value) = (name.trim(), value.trim());
            let whole =
                |low: i64, high: i64| in_range(pair, name, value, low, high, "a whole number");
            let real = |low: f64, high: f64| in_range(pair, name, value, low, high, "a number");
            match name {
                "lmr_base" => params.lmr_base = real(-2.0, 4.0)?,
                "lmr_divisor" => params.lmr_divisor = real(0.5, 20.0)?,
                "lmr_depth" => params.lmr_depth = whole(1, 64)? as i32,
                "lmr_index" => params.lmr_index = whole(1, 64)? as usize,
                "futility_depth" => params.futility_depth = whole(0, 16)? as i32,
                "futility_margin" => params.futility_margin = whole(0, 10_000)? as Value,
                "lmp_depth" => params.lmp_depth = whole(0, 16)? as i32,
                "lmp_base" => params.lmp_base = whole(0, 256)? as usize,
                "history_malus" => params.history_malus = whole(0, 1)? == 1,
                "iir_depth" => params.iir_depth = whole(0, 64)? as i32,
                "multicut_depth" => params.multicut_depth = whole(0, 64)? as i32,
                "multicut_moves" => params.multicut_moves = whole(1, 64)? as usize,
                "multicut_cuts" => params.multicut_cuts = whole(1, 64)? as usize,
                "multicut_reduction" => params.multicut_reduction = whole(1, 16)? as i32,
                "probe_depth" => params.probe_depth = whole(0, 64)? as i32,
                "probe_reduction" => params.probe_reduction = whole(1, 16)? as i32,
                "probe_margin" => params.probe_margin = whole(0, 10_000)? as Value,
                "etc_depth" => params.etc_depth = whole(0, 64)? as i32,
                "time_soft" => params.time_soft = whole(10, 400)? as u32,
                "time_unstable" => params.time_unstable = whole(0, 400)? as u32,
                "time_moves" => params.time_moves = whole(1, 60)? as u32,
                "single_reply" => params.single_reply = whole(0, 64)? as u32,
                "two_replies" => params.two_replies = whole(0, 64)? as u32,
                _ => {
                    return Err(format!(
                        "`{pair}`: unknown search constant `{name}` (known: {})",
                        SearchParams::NAMES.join(", ")
                    ));
                }
            }
        }
        Ok(params)
    }

    /// The reduction of every depth (row) and move index (column), up to 63 of each.
    pub fn reduction_table(&self) -> Box<[[u8; 64]; 64]> {
        let mut table = Box::new([[0u8; 64]; 64]);
        for (d, row) in table.iter_mut().enumerate().skip(1) {
            for (i, cell) in row.iter_mut().enumerate().skip(1) {
                let r = self.lmr_base + (d as f64).ln() * (i as f64).ln() / self.lmr_divisor;
                *cell = r.clamp(0.0, 63.0) as u8;
            }
        }
        table
    }
}

/// `value` (of constant `name`, from `pair`) read as a number from `low` to `high`.
fn in_range<T>(
    pair: &str,
    name: &str,
    value: &str,
    low: T,
    high: T,
    kind: &str,
) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    value
        .parse::<T>()
        .ok()
        .filter(|v| *v >= low && *v <= high)
        .ok_or_else(|| {
            format!(
                "`{pair}`: `{value}` is not a valid value of {name}: give {kind} from {low} to {high}"
            )
        })
}

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
    /// The pruning and reduction constants.
    pub params: SearchParams,
    /// The late-move reductions by depth and move index ([`SearchParams::reduction_table`]).
    pub reduction_table: Box<[[u8; 64]; 64]>,
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

/// The fractions of a ply `SearchParams::single_reply` and `two_replies` count in.
pub const PLY_FRACTIONS: u32 = 32;

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
    /// The fractions of a ply (in 32nds) each ply's position was handed by the line above it
    /// (see `SearchParams::single_reply`).
    fractions: [u32; MAX_PLY + 1],
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
            fractions: [0; MAX_PLY + 1],
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
            && depth <= self.shared.params.futility_depth
            && self.shared.reductions
            && beta.abs() < WIN_BOUND
        {
            let standing = evaluate(position, self.weights);
            if standing - self.shared.params.futility_margin * depth >= beta {
                return standing;
            }
        }
        let table_move = entry.and_then(|e| find(&moves, e.best));
        let params = &self.shared.params;
        // No move from the table this deep: the position is probably not worth a full search.
        let depth = if params.iir_depth > 0
            && depth >= params.iir_depth
            && table_move.is_none()
            && self.shared.reductions
        {
            depth - 1
        } else {
            depth
        };
        // Few legal moves make the replies cheaper: a single one (a forced reply) costs no
        // depth as shipped, two may cost part of a ply; the fractions add up along the line.
        let added = match moves.len() {
            1 => params.single_reply,
            2 => params.two_replies,
            _ => 0,
        } + self.fractions[ply];
        self.fractions[ply + 1] = added % PLY_FRACTIONS;
        let next_depth = depth - 1 + (added / PLY_FRACTIONS) as i32;
        // Near the horizon, where no line is expected, late quiet moves are not searched.
        let late_limit = if !pv_node
            && !capturing
            && self.shared.reductions
            && depth <= params.lmp_depth
            && alpha.abs() < WIN_BOUND
        {
            params.lmp_base + (depth * depth) as usize
        } else {
            usize::MAX
        };
        // Enhanced transposition cut-off: a move whose position the table already knows to
        // be worth at least beta to this side, at the depth it would be searched to.
        if params.etc_depth > 0
            && !pv_node
            && self.shared.reductions
            && depth >= params.etc_depth
            && beta.abs() < WIN_BOUND
            && let Some(value) = self.transposition_cut(position, &moves, next_depth, beta, ply)
        {
            return value;
        }
        let history_malus = params.history_malus;
        let mut quiet_tried = [(0u8, 0u8); 64];
        let mut quiets = 0usize;
        self.order(&mut moves, table_move, ply);
        if params.multicut_depth > 0
            && !pv_node
            && !capturing
            && self.shared.reductions
            && depth >= params.multicut_depth
            && moves.len() >= params.multicut_moves
            && beta.abs() < WIN_BOUND
            && let Some(value) = self.multicut(position, &moves, depth, beta, ply)
        {
            return value;
        }

        let original_alpha = alpha;
        let mut best_value = -INFINITE;
        let mut best_move = None;
        self.path.push(hash);
        for (i, mv) in moves.iter().enumerate() {
            let quiet = !mv.is_capture();
            if i >= late_limit
                && best_value > -WIN_BOUND
                && !mv.promotes()
                && Some(*mv) != self.killers[ply][0]
                && Some(*mv) != self.killers[ply][1]
            {
                continue;
            }
            let child = position.after(mv);
            self.enter(position, mv);
            let value = if i == 0 {
                -self.negamax(&child, next_depth, -beta, -alpha, ply + 1)
            } else {
                // Late quiet moves are first searched shallower, the later the more.
                let reduction = if self.shared.reductions
                    && quiet
                    && !mv.promotes()
                    && depth >= self.shared.params.lmr_depth
                    && i >= self.shared.params.lmr_index
                    && Some(*mv) != self.killers[ply][0]
                    && Some(*mv) != self.killers[ply][1]
                {
                    let r = self.shared.reduction_table[(depth as usize).min(63)][i.min(63)] as i32
                        - pv_node as i32;
                    r.clamp(0, (next_depth - 1).max(0))
                } else {
                    0
                };
                // A shallow look first: a move far below alpha even there is given up.
                let params = &self.shared.params;
                let probe_floor = alpha - params.probe_margin;
                let probed = if params.probe_depth > 0
                    && !pv_node
                    && quiet
                    && !mv.promotes()
                    && self.shared.reductions
                    && depth >= params.probe_depth
                    && depth - params.probe_reduction < next_depth - reduction
                    && alpha.abs() < WIN_BOUND
                {
                    let shallow = (depth - params.probe_reduction).max(0);
                    let probe =
                        -self.negamax(&child, shallow, -probe_floor - 1, -probe_floor, ply + 1);
                    (probe <= probe_floor).then_some(probe)
                } else {
                    None
                };
                if let Some(probe) = probed {
                    probe
                } else {
                    let mut value =
                        -self.negamax(&child, next_depth - reduction, -alpha - 1, -alpha, ply + 1);
                    if value > alpha && reduction > 0 {
                        value = -self.negamax(&child, next_depth, -alpha - 1, -alpha, ply + 1);
                    }
                    if value > alpha && value < beta {
                        value = -self.negamax(&child, next_depth, -beta, -alpha, ply + 1);
                    }
                    value
                }
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
                        if history_malus {
                            for &(from, to) in &quiet_tried[..quiets] {
                                let cell = &mut self.move_history[from as usize][to as usize];
                                *cell = (*cell - depth * depth).max(-(1 << 20));
                            }
                        }
                    }
                    break;
                }
            }
            if quiet && quiets < quiet_tried.len() {
                quiet_tried[quiets] = (mv.from().index() as u8, mv.to().index() as u8);
                quiets += 1;
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

    /// A move of `moves` whose position the table holds, to at least `depth`, as worth at
    /// most `-beta` to the opponent: then this position is worth at least `beta`, and the
    /// best such value is returned. Moves that may lead back to a position of the path
    /// (a king's quiet move) are left out, as the table does not know the path.
    fn transposition_cut(
        &self,
        position: &Position,
        moves: &MoveList,
        depth: i32,
        beta: Value,
        ply: usize,
    ) -> Option<Value> {
        let kings = position.kings();
        for mv in moves.iter() {
            if !mv.is_capture() && kings.has(mv.from()) {
                continue;
            }
            let child = position.after(mv);
            let Some(entry) = self.shared.table.probe(child.hash()) else {
                continue;
            };
            if (entry.depth as i32) < depth || entry.bound == Bound::Lower {
                continue;
            }
            let value = -from_table(entry.value, ply + 1);
            if value >= beta {
                return Some(value);
            }
        }
        None
    }

    /// Multi-cut: whether several of the first moves, searched shallower, each reach `beta`
    /// in a position whose evaluation already does; then `beta` is its value.
    fn multicut(
        &mut self,
        position: &Position,
        moves: &MoveList,
        depth: i32,
        beta: Value,
        ply: usize,
    ) -> Option<Value> {
        let params = self.shared.params;
        if evaluate(position, self.weights) < beta {
            return None;
        }
        let shallower = (depth - 1 - params.multicut_reduction).max(0);
        let mut cuts = 0;
        self.path.push(position.hash());
        let mut result = None;
        for mv in moves.iter().take(params.multicut_moves) {
            let child = position.after(mv);
            self.enter(position, mv);
            let value = -self.negamax(&child, shallower, -beta, -beta + 1, ply + 1);
            self.leave();
            if self.shared.stop.load(Ordering::Relaxed) {
                break;
            }
            if value >= beta {
                cuts += 1;
                if cuts >= params.multicut_cuts {
                    result = Some(beta);
                    break;
                }
            }
        }
        self.path.pop();
        result
    }

    /// Puts the table move first, then the longest captures, killers and moves with a good
    /// history; moves of equal rank keep the order they were generated in.
    fn order(&self, moves: &mut MoveList, table_move: Option<Move>, ply: usize) {
        let killers = self.killers[ply];
        let history = &self.move_history;
        let key = |mv: &Move| -> i64 {
            if Some(*mv) == table_move {
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
            }
        };
        let moves = moves.as_mut_slice();
        if moves.len() > ORDER_KEYS {
            moves.sort_by_key(|mv| -key(mv));
            return;
        }
        // Each key once, then an insertion sort carrying moves and keys together: the lists
        // are short and often nearly in order already.
        let mut keys = [0i64; ORDER_KEYS];
        for (slot, mv) in keys.iter_mut().zip(moves.iter()) {
            *slot = key(mv);
        }
        for i in 1..moves.len() {
            let (k, mv) = (keys[i], moves[i]);
            let mut j = i;
            while j > 0 && keys[j - 1] < k {
                keys[j] = keys[j - 1];
                moves[j] = moves[j - 1];
                j -= 1;
            }
            keys[j] = k;
            moves[j] = mv;
        }
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
    fn search_constants_read_by_name() {
        let params =
            SearchParams::parse("lmr_divisor:2/futility_margin:60/history_malus:1").expect("valid");
        assert_eq!(params.lmr_divisor, 2.0);
        assert_eq!(params.futility_margin, 60);
        assert!(params.history_malus);
        assert_eq!(params.lmr_depth, SearchParams::default().lmr_depth);
        assert_eq!(
            SearchParams::parse("").expect("no change"),
            SearchParams::default()
        );
        let timed = SearchParams::parse("time_soft:150/time_unstable:80").expect("valid");
        assert_eq!((timed.time_soft, timed.time_unstable), (150, 80));
        let probed =
            SearchParams::parse("probe_depth:4/probe_margin:40/etc_depth:5").expect("valid");
        assert_eq!((probed.probe_depth, probed.probe_margin), (4, 40));
        assert_eq!(probed.etc_depth, 5);
        let fractions =
            SearchParams::parse("time_moves:20/single_reply:20/two_replies:8").expect("valid");
        assert_eq!(
            (
                fractions.time_moves,
                fractions.single_reply,
                fractions.two_replies
            ),
            (20, 20, 8)
        );
        for bad in [
            "lmr_divisor",
            "lmr_divisor:x",
            "lmr_divisor:0",
            "nothing:1",
            "time_soft:5",
            "time_unstable:-1",
            "probe_reduction:0",
            "etc_depth:x",
            "time_moves:0",
            "two_replies:65",
        ] {
            let error = SearchParams::parse(bad).expect_err(bad);
            assert!(
                error.contains(bad.split(':').next().unwrap_or(bad)),
                "{error}"
            );
        }
        let table = SearchParams::default().reduction_table();
        assert_eq!(table[1][1], 0, "no reduction at depth 1");
        assert!(
            table[20][20] > table[4][4],
            "later and deeper moves are reduced more"
        );
    }

    #[test]
    fn each_game_keeps_its_own_search_constants() {
        let mut engine = Engine::new(Options::default());
        for variant in [Variant::Bashni, Variant::Russian] {
            assert_eq!(
                *engine.search_params(variant),
                SearchParams::shipped(variant)
            );
        }
        let changed = SearchParams::shipped(Variant::Bashni)
            .changed("lmr_divisor:1/lmp_depth:7")
            .expect("valid");
        engine.set_search_params(Variant::Bashni, changed);
        assert_eq!(*engine.search_params(Variant::Bashni), changed);
        assert_eq!(
            *engine.search_params(Variant::Russian),
            SearchParams::shipped(Variant::Russian),
            "the other game is untouched"
        );
    }

    #[test]
    fn every_search_constant_set_finds_a_forced_win() {
        // Two kings catch a lone man before it crowns: every setting of the pruning must
        // still see the win to its end.
        let position = russian("White: a1 1, g1 1; Black: h4 0; White to move");
        for text in [
            "",
            "lmr_divisor:1/lmr_index:1/lmr_depth:1",
            "lmp_depth:6/lmp_base:0",
            "iir_depth:2/history_malus:1",
            "futility_depth:8/futility_margin:0",
            "multicut_depth:2/multicut_moves:1/multicut_cuts:1",
            "probe_depth:2/probe_reduction:1/probe_margin:0",
            "etc_depth:1",
            "single_reply:0/two_replies:20",
            "single_reply:20/two_replies:32",
        ] {
            let mut engine = Engine::new(Options::default());
            engine.set_search_params(Variant::Russian, SearchParams::parse(text).expect("valid"));
            let result = engine.search(&position, &Past::default(), &Limits::depth(12), |_| {});
            assert!(
                matches!(result.score, crate::Score::WinIn(_)),
                "{text}: {}",
                result.score
            );
        }
    }

    #[test]
    fn few_legal_moves_make_the_line_deeper_by_their_fractions() {
        let reach = |position: &str, text: &str| {
            let mut engine = Engine::new(Options::default());
            engine.set_search_params(Variant::Russian, SearchParams::parse(text).expect("valid"));
            let mut seldepth = 0;
            let position = russian(position);
            engine.search(&position, &Past::default(), &Limits::depth(5), |info| {
                seldepth = seldepth.max(info.seldepth)
            });
            seldepth
        };
        // Black's lone man has a single legal move each time.
        let single = "White: a1 0, h2 0; Black: h8 0; White to move";
        assert!(
            reach(single, "single_reply:0") < reach(single, ""),
            "a forced reply then costs a ply"
        );
        // Two men a side on the edges: two legal moves, for a while.
        let two = "White: a1 0, h2 0; Black: a7 0, h8 0; White to move";
        let shipped = reach(two, "");
        let halves = reach(two, "two_replies:16");
        assert!(halves > shipped, "two halves make a ply");
        assert!(
            reach(two, "two_replies:32") > halves,
            "two moves then cost nothing"
        );
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
