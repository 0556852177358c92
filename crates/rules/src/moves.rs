//! Moves and their generation.
//!
//! A [`Move`] is a whole turn: a quiet step or slide, or a complete capture with every
//! landing square and every jumped square in order. Generation writes into a [`MoveList`],
//! which keeps its moves inline and never allocates for the positions of real games.
//!
//! Capture rules implemented here (see the rulebooks and `RULES.md`):
//! - capture is compulsory, men capture backward too, kings fly;
//! - a king must land where the capture goes on, if such a landing square exists;
//! - a man crowned during a capture goes on capturing as a king;
//! - no capture may turn straight back on the very next jump (in Russian draughts this
//!   follows from the Turkish strike, in Bashni it is a rule of its own);
//! - Russian: jumped pieces stay on the board until the move ends and cannot be jumped again;
//! - Bashni: each jump takes only the top checker, at once, and puts it under the capturing
//!   tower; a tower may be jumped again later if its new top is still an enemy;
//! - two paths that leave the same position are one move; the one kept is the path that
//!   comes first in writing.

use std::cmp::Ordering;
use std::fmt;

use arrayvec::ArrayVec;

use crate::position::{Position, Variant};
use crate::square::{Bitboard, Direction, SQUARE_SLOTS, Square};
use crate::tower::Color;

/// The most checkers one capture can take. Only squares off the edge can be jumped, and
/// there are 18 of them; in Bashni the bound is the opponent's 12 checkers.
pub const MAX_CAPTURES: usize = 18;

/// A whole move of one side.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: Square,
    jumps: u8,
    promotes: bool,
    /// Bit `i` set: the `i`-th checker taken was a king.
    captured_kings: u32,
    /// The landing squares in order; a quiet move has one, its destination.
    path: [Square; MAX_CAPTURES],
    /// The jumped squares in order.
    captured: [Square; MAX_CAPTURES],
}

impl Move {
    /// A quiet move (no capture) from `from` to `to`.
    pub fn quiet(from: Square, to: Square, promotes: bool) -> Move {
        let mut path = [from; MAX_CAPTURES];
        path[0] = to;
        Move {
            from,
            jumps: 0,
            promotes,
            captured_kings: 0,
            path,
            captured: [from; MAX_CAPTURES],
        }
    }

    /// The square the tower leaves.
    #[inline]
    pub fn from(&self) -> Square {
        self.from
    }

    /// The square the tower ends on.
    #[inline]
    pub fn to(&self) -> Square {
        self.path[(self.jumps as usize).max(1) - 1]
    }

    /// Whether the move captures.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.jumps > 0
    }

    /// Whether the moving tower's top man is crowned by this move.
    #[inline]
    pub fn promotes(&self) -> bool {
        self.promotes
    }

    /// Every square the tower lands on, in order, ending with [`Move::to`].
    #[inline]
    pub fn landings(&self) -> &[Square] {
        &self.path[..(self.jumps as usize).max(1)]
    }

    /// The jumped squares, in order of the jumps (a Bashni tower may appear more than once).
    #[inline]
    pub fn captured(&self) -> &[Square] {
        &self.captured[..self.jumps as usize]
    }

    /// Whether the `i`-th checker taken was a king.
    pub fn captured_king(&self, i: usize) -> bool {
        self.captured_kings >> i & 1 == 1
    }

    /// Whether two moves of the same position leave the same position.
    pub fn same_result(&self, other: &Move, variant: Variant) -> bool {
        if self.from != other.from
            || self.to() != other.to()
            || self.jumps != other.jumps
            || self.promotes != other.promotes
        {
            return false;
        }
        match variant {
            Variant::Russian => {
                let set = |m: &Move| m.captured().iter().fold(0u64, |acc, s| acc | s.bit().0);
                set(self) == set(other)
            }
            Variant::Bashni => {
                if self.captured_kings != other.captured_kings {
                    return false;
                }
                let mut a: ArrayVec<Square, MAX_CAPTURES> =
                    self.captured().iter().copied().collect();
                let mut b: ArrayVec<Square, MAX_CAPTURES> =
                    other.captured().iter().copied().collect();
                a.sort_unstable();
                b.sort_unstable();
                a == b
            }
        }
    }

    /// Orders moves as their full texts sort: by start square, then landing squares.
    pub fn cmp_by_text(&self, other: &Move) -> Ordering {
        let key = |m: &Move| {
            std::iter::once(m.from)
                .chain(m.landings().iter().copied())
                .map(|s| (s.file(), s.rank()))
                .collect::<ArrayVec<(u8, u8), 13>>()
        };
        self.is_capture()
            .cmp(&other.is_capture())
            .then_with(|| key(self).cmp(&key(other)))
    }

    /// Whether this move's landing path comes before `other`'s in writing (same length).
    fn path_precedes(&self, other: &Move) -> bool {
        for (a, b) in self.landings().iter().zip(other.landings()) {
            match a.cmp_by_name(*b) {
                Ordering::Less => return true,
                Ordering::Greater => return false,
                Ordering::Equal => {}
            }
        }
        false
    }
}

/// Writes the full notation: `c3-b4`, or `a3:c5:e7` with every landing square.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.from)?;
        let separator = if self.is_capture() { ':' } else { '-' };
        for square in self.landings() {
            write!(f, "{separator}{square}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

const INLINE_MOVES: usize = 128;

/// The moves of one position. Holds up to 128 moves inline; a position with more (none is
/// known from play) moves them to the heap rather than fail.
#[derive(Clone, Default)]
pub struct MoveList {
    inline: ArrayVec<Move, INLINE_MOVES>,
    spilled: Vec<Move>,
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList::default()
    }

    /// Adds a move at the end.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        if self.spilled.is_empty() {
            if let Err(full) = self.inline.try_push(mv) {
                self.spilled.extend(self.inline.drain(..));
                self.spilled.push(full.element());
            }
        } else {
            self.spilled.push(mv);
        }
    }

    /// Empties the list.
    pub fn clear(&mut self) {
        self.inline.clear();
        self.spilled.clear();
    }

    /// The moves.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        if self.spilled.is_empty() {
            &self.inline
        } else {
            &self.spilled
        }
    }

    /// The moves, to change or reorder.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        if self.spilled.is_empty() {
            &mut self.inline
        } else {
            &mut self.spilled
        }
    }

    /// How many moves there are.
    #[inline]
    pub fn len(&self) -> usize {
        self.as_slice().len()
    }

    /// Whether there is no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The moves, in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The directions in which men of `color` step without capturing.
#[inline]
const fn forward(color: Color) -> [Direction; 2] {
    match color {
        Color::White => [Direction::UpRight, Direction::UpLeft],
        Color::Black => [Direction::DownRight, Direction::DownLeft],
    }
}

impl Position {
    /// All legal moves. Captures, when there are any, are the only legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(&mut list);
        list
    }

    /// Writes all legal moves into `list` (emptied first).
    pub fn generate_moves(&self, list: &mut MoveList) {
        list.clear();
        let capturers = self.capturers();
        if capturers.is_empty() {
            self.generate_quiet(list);
        } else {
            self.generate_captures(capturers, list, false);
        }
    }

    /// Every capture path, without merging paths that leave the same position. Used to read
    /// a written capture in any of the forms the rulebooks allow.
    pub fn capture_paths(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_captures(self.capturers(), &mut list, true);
        list
    }

    /// How many legal moves there are; faster than generating them when none captures.
    pub fn count_moves(&self) -> usize {
        let capturers = self.capturers();
        if !capturers.is_empty() {
            let mut list = MoveList::new();
            let single_jumps = self.run_captures(capturers, &mut list, false, true);
            return single_jumps + list.len();
        }
        let side = self.side_to_move();
        let empty = !self.occupied();
        let own = self.owned_by(side);
        let men = Bitboard(own.0 & !self.kings().0);
        let mut count = 0;
        for direction in forward(side) {
            count += (men.shift(direction) & empty).count();
        }
        for king in (own & self.kings()).squares() {
            for direction in Direction::ALL {
                count += slide(king, direction, empty).count();
            }
        }
        count as usize
    }

    /// Whether the side to move has a capture (and so must capture).
    pub fn has_capture(&self) -> bool {
        !self.capturers().is_empty()
    }

    fn generate_quiet(&self, list: &mut MoveList) {
        let side = self.side_to_move();
        let empty = !self.occupied();
        let own = self.owned_by(side);
        let men = Bitboard(own.0 & !self.kings().0);
        let crowning = Position::crowning_rank(side);
        for direction in forward(side) {
            let back = direction.reverse();
            for to in (men.shift(direction) & empty).squares() {
                // `to` came from a square by one step, so the step back is on the board.
                let from = to.step_back_trusted(back);
                list.push(Move::quiet(from, to, crowning.has(to)));
            }
        }
        for king in (own & self.kings()).squares() {
            for direction in Direction::ALL {
                for to in slide(king, direction, empty).squares() {
                    list.push(Move::quiet(king, to, false));
                }
            }
        }
    }

    /// The squares of the side to move whose tower has a capture.
    fn capturers(&self) -> Bitboard {
        let side = self.side_to_move();
        let empty = !self.occupied();
        let enemy = self.owned_by(side.opponent());
        let own = self.owned_by(side);
        let men = Bitboard(own.0 & !self.kings().0);
        let mut out = Bitboard::EMPTY;
        for direction in Direction::ALL {
            let back = direction.reverse();
            out = out | (men & (enemy & empty.shift(back)).shift(back));
        }
        for king in (own & self.kings()).squares() {
            if Direction::ALL
                .into_iter()
                .any(|d| king_target(king, d, empty, enemy).is_some())
            {
                out.insert(king);
            }
        }
        out
    }

    fn generate_captures(&self, capturers: Bitboard, list: &mut MoveList, all_paths: bool) {
        self.run_captures(capturers, list, all_paths, false);
    }

    /// Searches the captures of the towers on `capturers`. With `count_only`, captures of a
    /// single jump (which never share a result with another path) are only counted, and the
    /// count is returned; longer ones still go to `list` to merge equal results.
    fn run_captures(
        &self,
        capturers: Bitboard,
        list: &mut MoveList,
        all_paths: bool,
        count_only: bool,
    ) -> usize {
        let mut searched = capturers;
        let mut single_jumps = 0;
        if !all_paths {
            let (simple, landings) = self.single_jump_men(capturers);
            searched = Bitboard(searched.0 & !simple.0);
            if count_only {
                single_jumps = landings.iter().map(|l| l.count() as usize).sum();
            } else {
                let crowning = Position::crowning_rank(self.side_to_move());
                for (direction, landings) in Direction::ALL.into_iter().zip(landings) {
                    let back = direction.reverse();
                    for landing in landings.squares() {
                        // Both squares behind a landing square were found by shifting.
                        let over = landing.step_back_trusted(back);
                        let from = over.step_back_trusted(back);
                        list.push(Move {
                            from,
                            jumps: 1,
                            promotes: crowning.has(landing),
                            captured_kings: self.kings().has(over) as u32,
                            path: [landing; MAX_CAPTURES],
                            captured: [over; MAX_CAPTURES],
                        });
                    }
                }
            }
        }
        let Some(first) = searched.squares().next() else {
            return single_jumps;
        };
        let side = self.side_to_move();
        let mut search = CaptureSearch {
            position: self,
            list,
            first: 0,
            all_paths,
            count_only,
            single_jumps,
            crowning: Position::crowning_rank(side),
            own: side,
            from: first,
            start_king: false,
            depth: 0,
            captured_kings: 0,
            path: [first; MAX_CAPTURES],
            captured: [first; MAX_CAPTURES],
            empty: Bitboard::EMPTY,
            enemy: self.owned_by(side.opponent()),
            taken: [0; SQUARE_SLOTS],
        };
        for from in searched.squares() {
            search.from = from;
            search.start_king = self.kings().has(from);
            search.empty = !self.occupied();
            search.empty.insert(from);
            search.first = search.list.len();
            if search.start_king {
                search.king_jumps(from, None);
            } else {
                search.man_jumps(from, None);
            }
        }
        search.single_jumps
    }
}

impl Position {
    /// Finds, all at once with bitboards, the men among `capturers` whose every capture is a
    /// single jump that cannot go on and does not crown: the common case, which needs no
    /// search. Returns those men, and for each direction the landing squares of their jumps.
    ///
    /// After a man jumps from `f` over `o` to `l` in direction `d`, only the squares `f` and
    /// `o` have changed, and both lie behind `l`. A further jump from `l` may not turn back
    /// (direction `-d`), so it never meets them, and the board as it was before the jump
    /// tells whether the capture goes on.
    fn single_jump_men(&self, capturers: Bitboard) -> (Bitboard, [Bitboard; 4]) {
        let side = self.side_to_move();
        let enemy = self.owned_by(side.opponent());
        let empty = !self.occupied();
        let crowning = Position::crowning_rank(side);
        let men = Bitboard(capturers.0 & !self.kings().0);
        // Squares from which a jump in each direction is possible.
        let can_jump =
            Direction::ALL.map(|d| (enemy & empty.shift(d.reverse())).shift(d.reverse()));
        let mut landings = [Bitboard::EMPTY; 4];
        let mut searched = Bitboard::EMPTY;
        for (i, d) in Direction::ALL.into_iter().enumerate() {
            let back = d.reverse();
            let found = (men & can_jump[i]).shift(d).shift(d);
            let mut goes_on = Bitboard(found.0 & crowning.0);
            for (j, e) in Direction::ALL.into_iter().enumerate() {
                if e != back {
                    goes_on = goes_on | (found & can_jump[j]);
                }
            }
            searched = searched | goes_on.shift(back).shift(back);
            landings[i] = found;
        }
        for (landing, d) in landings.iter_mut().zip(Direction::ALL) {
            *landing = Bitboard(landing.0 & !searched.shift(d).shift(d).0);
        }
        (Bitboard(men.0 & !searched.0), landings)
    }
}

/// Whether a man on `at`, having just jumped in direction `last`, can jump again.
#[inline]
fn man_can_jump(at: Square, last: Direction, empty: Bitboard, enemy: Bitboard) -> bool {
    let from = at.bit();
    Direction::ALL
        .into_iter()
        .any(|d| d != last.reverse() && !((from.shift(d) & enemy).shift(d) & empty).is_empty())
}

/// Whether a king on `at`, having just jumped in direction `last`, can jump again.
#[inline]
fn king_can_jump(at: Square, last: Direction, empty: Bitboard, enemy: Bitboard) -> bool {
    Direction::ALL
        .into_iter()
        .any(|d| d != last.reverse() && king_target(at, d, empty, enemy).is_some())
}

/// The empty squares a king on `from` can slide to in `direction`.
#[inline]
fn slide(from: Square, direction: Direction, empty: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    let mut next = from.step(direction);
    while let Some(square) = next {
        if !empty.has(square) {
            break;
        }
        out.insert(square);
        next = square.step(direction);
    }
    out
}

/// The enemy square a king on `from` can jump in `direction`, with the first landing square.
#[inline]
fn king_target(
    from: Square,
    direction: Direction,
    empty: Bitboard,
    enemy: Bitboard,
) -> Option<(Square, Square)> {
    let mut next = from.step(direction);
    while let Some(square) = next {
        if empty.has(square) {
            next = square.step(direction);
            continue;
        }
        if !enemy.has(square) {
            return None;
        }
        let landing = square.step(direction)?;
        return empty.has(landing).then_some((square, landing));
    }
    None
}

/// The state of a depth-first search of the captures of one tower.
struct CaptureSearch<'a> {
    position: &'a Position,
    list: &'a mut MoveList,
    /// Index in `list` of this tower's first capture, for merging equal results.
    first: usize,
    all_paths: bool,
    /// Count captures of one jump instead of recording them.
    count_only: bool,
    /// How many captures of one jump were counted.
    single_jumps: usize,
    crowning: Bitboard,
    own: Color,
    from: Square,
    start_king: bool,
    depth: usize,
    captured_kings: u32,
    path: [Square; MAX_CAPTURES],
    captured: [Square; MAX_CAPTURES],
    /// Squares the capturing tower may pass or land on (its start square included).
    empty: Bitboard,
    /// Squares whose top is an enemy checker that may still be jumped.
    enemy: Bitboard,
    /// Bashni: how many checkers have been taken off each square so far.
    taken: [u8; SQUARE_SLOTS],
}

/// What a jump changed, to put back when the search returns.
struct Undo {
    empty: Bitboard,
    enemy: Bitboard,
}

impl CaptureSearch<'_> {
    /// Takes the top of `square` and records the jump landing on `landing`.
    #[inline]
    fn jump(&mut self, square: Square, landing: Square) -> Undo {
        let undo = Undo {
            empty: self.empty,
            enemy: self.enemy,
        };
        self.path[self.depth] = landing;
        self.captured[self.depth] = square;
        match self.position.variant() {
            Variant::Russian => {
                if self.position.kings().has(square) {
                    self.captured_kings |= 1 << self.depth;
                }
                // The Turkish strike: the piece stays until the move ends, and blocks.
                self.enemy.remove(square);
            }
            Variant::Bashni => {
                let taken = self.taken[square.index()] as u32;
                let tower = self.position.tower(square);
                let mut rest = tower;
                for _ in 0..taken {
                    rest = rest.without_top().0;
                }
                let (rest, top) = rest.without_top();
                if top.king {
                    self.captured_kings |= 1 << self.depth;
                }
                self.taken[square.index()] += 1;
                match rest.top() {
                    None => {
                        self.enemy.remove(square);
                        self.empty.insert(square);
                    }
                    Some(new_top) if new_top.color == self.own => self.enemy.remove(square),
                    Some(_) => {}
                }
            }
        }
        self.depth += 1;
        undo
    }

    #[inline]
    fn unjump(&mut self, undo: Undo) {
        self.depth -= 1;
        self.captured_kings &= !(1 << self.depth);
        let square = self.captured[self.depth];
        if self.position.variant() == Variant::Bashni {
            self.taken[square.index()] -= 1;
        }
        self.empty = undo.empty;
        self.enemy = undo.enemy;
    }

    #[inline]
    fn man_can_jump(&self, at: Square, last: Direction) -> bool {
        man_can_jump(at, last, self.empty, self.enemy)
    }

    #[inline]
    fn king_can_jump(&self, at: Square, last: Direction) -> bool {
        king_can_jump(at, last, self.empty, self.enemy)
    }

    fn man_jumps(&mut self, at: Square, last: Option<Direction>) {
        let from = at.bit();
        for direction in Direction::ALL {
            if last == Some(direction.reverse()) {
                continue;
            }
            let over = from.shift(direction) & self.enemy;
            let landing = over.shift(direction) & self.empty;
            let (Some(over), Some(landing)) = (over.squares().next(), landing.squares().next())
            else {
                continue;
            };
            let undo = self.jump(over, landing);
            if self.crowning.has(landing) {
                if self.king_can_jump(landing, direction) {
                    self.king_jumps(landing, Some(direction));
                } else {
                    self.emit(true);
                }
            } else if self.man_can_jump(landing, direction) {
                self.man_jumps(landing, Some(direction));
            } else {
                self.emit(false);
            }
            self.unjump(undo);
        }
    }

    fn king_jumps(&mut self, at: Square, last: Option<Direction>) {
        for direction in Direction::ALL {
            if last == Some(direction.reverse()) {
                continue;
            }
            let Some((over, first_landing)) = king_target(at, direction, self.empty, self.enemy)
            else {
                continue;
            };
            let undo = self.jump(over, first_landing);
            let mut landings: ArrayVec<(Square, bool), 7> = ArrayVec::new();
            let mut any_goes_on = false;
            let mut next = Some(first_landing);
            while let Some(square) = next {
                if !self.empty.has(square) {
                    break;
                }
                let goes_on = self.king_can_jump(square, direction);
                any_goes_on |= goes_on;
                landings.push((square, goes_on));
                next = square.step(direction);
            }
            for (landing, goes_on) in landings {
                if any_goes_on && !goes_on {
                    continue;
                }
                self.path[self.depth - 1] = landing;
                if goes_on {
                    self.king_jumps(landing, Some(direction));
                } else {
                    self.emit(true);
                }
            }
            self.unjump(undo);
        }
    }

    /// Records the finished capture held in the search state.
    fn emit(&mut self, ends_as_king: bool) {
        if self.count_only && self.depth == 1 {
            self.single_jumps += 1;
            return;
        }
        let mv = Move {
            from: self.from,
            jumps: self.depth as u8,
            promotes: ends_as_king && !self.start_king,
            captured_kings: self.captured_kings,
            path: self.path,
            captured: self.captured,
        };
        // One jump is one path: a different path would take another square or land
        // elsewhere. Only longer captures can meet another path's result.
        if !self.all_paths && self.depth > 1 {
            let variant = self.position.variant();
            let first = self.first;
            for existing in &mut self.list.as_mut_slice()[first..] {
                if existing.same_result(&mv, variant) {
                    if mv.path_precedes(existing) {
                        *existing = mv;
                    }
                    return;
                }
            }
        }
        self.list.push(mv);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;

    #[test]
    fn a_long_list_moves_to_the_heap_and_keeps_every_move() {
        let a1 = Square::parse("a1").expect("square");
        let b2 = Square::parse("b2").expect("square");
        let mut list = MoveList::new();
        for i in 0..300 {
            list.push(Move::quiet(a1, b2, i % 2 == 0));
        }
        assert_eq!(list.len(), 300);
        assert_eq!(list.iter().filter(|m| m.promotes()).count(), 150);
        list.clear();
        assert!(list.is_empty());
    }

    #[test]
    fn many_kings_many_moves() {
        let p = parse_position(
            Variant::Russian,
            "White: a1 1, c1 1, e1 1, g1 1, b4 1, d4 1, f4 1, h4 1; Black: a7 1, h8 1; White to move",
        )
        .expect("position");
        let moves = p.legal_moves();
        assert_eq!(moves.len(), p.count_moves());
        // Every move is a distinct (from, to) pair: no capture is possible here.
        let mut pairs: Vec<_> = moves.iter().map(|m| (m.from(), m.to())).collect();
        pairs.sort();
        pairs.dedup();
        assert_eq!(pairs.len(), moves.len());
        assert!(moves.iter().all(|m| !m.is_capture()));
    }
}
