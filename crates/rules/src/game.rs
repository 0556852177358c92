//! One game of Bashni or Russian draughts: the moves played, the positions they led to, and
//! the result.
//!
//! A [`Game`] starts from any legal [`Position`] and keeps every position it passes through,
//! so that [`Game::undo`] simply drops the last one. Beside each position it keeps the
//! [`DrawCounts`] of the rules that count moves (see [`crate::draw`], shared with the engine's
//! search), so undoing drops those too and needs no other bookkeeping.
//!
//! # Ways a game ends
//!
//! - **No move.** When the side to move has no legal move (no pieces left, or everything
//!   blocked), it loses. This is found after every move, and also when the game is built.
//! - **Resignation** ([`Game::resign`]) and **loss on time** ([`Game::flag`], for clocks).
//! - **Agreed draw.** [`Game::offer_draw`] leaves an offer open until the opponent answers:
//!   [`Game::accept_draw`] ends the game, [`Game::decline_draw`] or any move of the
//!   opponent refuses it. An offer made while the opponent's own offer is open is taken as
//!   an acceptance. [`Game::agree_draw`] records an agreement in one step. The Bashni rule
//!   that a player offers only while making a move, and offers again only after the other
//!   player has used his turn to offer, concerns the timing of the interface and is left to
//!   the application; the game accepts an offer from either side at any moment.
//!
//! # Bashni draws (rulebook 000, section 1.13)
//!
//! - **Threefold repetition**: the current position (the same towers, every checker of them,
//!   with the same side to move) has stood on the board three times in the game, not
//!   necessarily in a row.
//! - **Fifteen moves without change of material**: the last 30 plies (15 moves of each side)
//!   held no capture and no promotion. A capture changes the composition of two towers and a
//!   crowning changes one, while any other move leaves the number and make-up of the towers
//!   as they were, so this is how the rulebook's "balance" is read.
//!
//! Both are claims. The claim belongs to the player whose turn it is, before he moves:
//! [`Game::can_claim_draw`] says whether one is available and [`Game::claim_draw`] makes it.
//! The player who is about to make the move that brings a position back for the third time
//! may instead announce that move with [`Game::claim_draw_with_move`]: the move is recorded
//! and the game ends drawn. A player who simply plays such a move has let his chance pass;
//! the right to claim goes to his opponent, who is then to move. With
//! [`Game::set_automatic_draws`] (engine matches, the server) both rules end the game by
//! themselves right after the move that fulfils them.
//!
//! # Russian draughts draws (rulebook 001, section 6.1.8)
//!
//! These are applied automatically after every move. The setting of automatic draws only
//! concerns Bashni. Throughout, "the balance of forces" is the number of men and of kings of
//! each side; only a capture or a promotion changes it, so its current stretch starts right
//! after the last capture or promotion of the game (or at the start position). "A move"
//! means one move of each side, two plies, unless the rule counts the moves of one player.
//!
//! - **6.1.8.1**: a draw may be offered, or agreed, only once each side has made at least 20
//!   moves in this game; earlier attempts fail with [`GameError::DrawOfferTooEarly`].
//! - **Threefold repetition** (6.1.8.2 refers to the general rules for it): the same position,
//!   with the same side to move, for the third time.
//! - **6.1.8.3 and 6.1.8.4**: one side has three or more pieces and the other a single king
//!   and nothing else. When the stronger side has made 15 moves since the present balance
//!   arose without taking the king, the game is drawn right after its 15th move. Three kings
//!   holding the long diagonal (6.1.8.3) are a special case of the same count, so both are
//!   reported as [`Reason::LoneKing`].
//! - **6.1.8.5**: the stronger side has exactly three pieces (any mix of men and kings), none
//!   on the long diagonal a1-h8 (the "big road"), and the lone king stands on it. The count
//!   is of the stronger side's consecutive moves, within the present balance, each made from
//!   a position of that kind; it restarts as soon as the stronger side is to move in a
//!   position that is not (the king has left the road, or a piece of the stronger side stands
//!   on it). After the fifth such move the game is drawn. The rulebook excepts positions in
//!   which a side can force a win; telling those apart needs a judge, so the exception is not
//!   applied.
//! - **6.1.8.6**: both sides have at least one king and the balance has not changed for 5
//!   moves (10 plies) with 2 or 3 pieces on the board, 30 moves (60 plies) with 4 or 5, or 60
//!   moves (120 plies) with 6 or 7.
//! - **6.1.8.8**: with 4 or 5 pieces on the board, 15 moves (30 plies) in a row in which only
//!   kings moved and nothing was captured; with 6 or 7 pieces, 25 moves (50 plies). A man's
//!   move, including a crowning, ends the run.
//! - **6.1.8.7** (a "clearly drawn" position in which the stronger side fails to make progress
//!   within 5 moves) depends on a judge's view of the position, so it is never applied here;
//!   the players may still agree a draw.
//!
//! When two rules are fulfilled by the same move the first in this order is reported:
//! repetition, 6.1.8.5, 6.1.8.4, 6.1.8.6, 6.1.8.8. A side left without a legal move loses
//! even if a draw count ran out on the same move.
//!
//! ```
//! use bashni_rules::{Game, Variant};
//!
//! let mut game = Game::start(Variant::Bashni);
//! let mv = game
//!     .legal_moves()
//!     .iter()
//!     .copied()
//!     .find(|mv| mv.to_string() == "c3-d4")
//!     .expect("a legal opening move");
//! game.play(&mv).expect("legal");
//! assert_eq!(game.ply(), 1);
//! assert_eq!(game.undo(), Some(mv));
//! assert_eq!(game.ply(), 0);
//! ```

use std::fmt;

use crate::draw::{DrawCounts, king_ending_moves, king_moves_only_moves};
use crate::moves::{Move, MoveList};
use crate::position::{Position, Variant};
use crate::tower::Color;

pub use crate::draw::BASHNI_QUIET_PLIES;

/// Russian draughts, rulebook 001, 6.1.8.1: moves each side must have made before a draw
/// may be offered.
pub const RUSSIAN_DRAW_OFFER_MOVES: usize = 20;

/// How often a position must have occurred for a draw by repetition.
pub const REPETITIONS_FOR_DRAW: usize = 3;

/// The score of a finished game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Neither side won.
    Draw,
}

impl GameResult {
    /// The result in which `color` wins.
    pub const fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The winner, or `None` for a draw.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// The score as game records write it: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn score(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::WhiteWins => "White wins",
            GameResult::BlackWins => "Black wins",
            GameResult::Draw => "draw",
        })
    }
}

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Reason {
    /// This side was to move and had no legal move (no pieces, or all blocked); it lost.
    NoMove(Color),
    /// This side resigned.
    Resignation(Color),
    /// This side ran out of time.
    Time(Color),
    /// The players agreed a draw.
    Agreement,
    /// The same position with the same side to move occurred a third time.
    Repetition,
    /// Bashni 1.13: 15 moves of each side without capture or promotion.
    QuietMoves,
    /// Russian 6.1.8.3-6.1.8.4: three or more pieces failed to take a lone king in 15 moves.
    LoneKing,
    /// Russian 6.1.8.5: three pieces off the long diagonal failed to take a lone king on it
    /// in 5 moves.
    BigRoad,
    /// Russian 6.1.8.6: both sides have kings and the balance of forces stood still too long.
    KingEnding {
        /// How many pieces were on the board.
        pieces: u32,
    },
    /// Russian 6.1.8.8: only kings moved, without capture, for too long.
    KingMovesOnly {
        /// How many pieces were on the board.
        pieces: u32,
    },
}

impl Reason {
    /// Whether the reason ends the game drawn (otherwise someone lost).
    pub const fn is_draw(self) -> bool {
        !matches!(
            self,
            Reason::NoMove(_) | Reason::Resignation(_) | Reason::Time(_)
        )
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Reason::NoMove(color) => write!(f, "{color} has no move"),
            Reason::Resignation(color) => write!(f, "{color} resigned"),
            Reason::Time(color) => write!(f, "{color} ran out of time"),
            Reason::Agreement => f.write_str("draw by agreement"),
            Reason::Repetition => f.write_str("threefold repetition"),
            Reason::QuietMoves => f.write_str("15 moves without capture or promotion (1.13)"),
            Reason::LoneKing => {
                f.write_str("6.1.8.4: three or more pieces against a lone king, 15 moves")
            }
            Reason::BigRoad => {
                f.write_str("6.1.8.5: three pieces off the big road against a king on it, 5 moves")
            }
            Reason::KingEnding { pieces } => match king_ending_moves(pieces) {
                Some(moves) => write!(
                    f,
                    "6.1.8.6: kings on both sides, {pieces} pieces, {moves} moves without capture or promotion"
                ),
                None => write!(f, "6.1.8.6: kings on both sides, {pieces} pieces"),
            },
            Reason::KingMovesOnly { pieces } => match king_moves_only_moves(pieces) {
                Some(moves) => write!(
                    f,
                    "6.1.8.8: {pieces} pieces, {moves} moves with kings only and no capture"
                ),
                None => write!(f, "6.1.8.8: {pieces} pieces, kings only"),
            },
        }
    }
}

/// The end of a game: who won, and why.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// The score.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: Reason,
}

impl Outcome {
    /// `loser` lost, for `reason`.
    pub const fn loss(loser: Color, reason: Reason) -> Outcome {
        Outcome {
            result: GameResult::win_for(loser.opponent()),
            reason,
        }
    }

    /// A draw, for `reason`.
    pub const fn draw(reason: Reason) -> Outcome {
        Outcome {
            result: GameResult::Draw,
            reason,
        }
    }
}

/// Writes `White wins: Black has no move` or `draw: threefold repetition`.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.result, self.reason)
    }
}

/// Why the game refused an action.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameError {
    /// The game is already over.
    GameOver,
    /// The move is not a legal move of the current position.
    IllegalMove(Move),
    /// No draw can be claimed in the current position.
    NothingToClaim,
    /// Russian draughts, 6.1.8.1: a draw may be offered only after each side's 20th move.
    DrawOfferTooEarly,
    /// Bashni, 1.13.3: a draw is offered only by the side to move, with its move.
    DrawOfferNotOnMove,
    /// Bashni, 1.13.3: after a refused offer, the same side may offer again only once the
    /// opponent has offered in turn.
    DrawOfferRepeated,
    /// There is no open draw offer from the opponent to answer.
    NoDrawOffer,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::GameOver => f.write_str("the game is already over"),
            GameError::IllegalMove(mv) => write!(f, "{mv} is not a legal move in this position"),
            GameError::NothingToClaim => f.write_str("no draw can be claimed in this position"),
            GameError::DrawOfferTooEarly => write!(
                f,
                "in Russian draughts a draw may be offered only after each side has made {RUSSIAN_DRAW_OFFER_MOVES} moves (6.1.8.1)"
            ),
            GameError::NoDrawOffer => f.write_str("the opponent has not offered a draw"),
            GameError::DrawOfferNotOnMove => f.write_str(
                "in Bashni a draw is offered only on your own turn, together with your move (1.13.3)",
            ),
            GameError::DrawOfferRepeated => f.write_str(
                "in Bashni you may offer a draw again only after your opponent has offered one (1.13.3)",
            ),
        }
    }
}

impl std::error::Error for GameError {}

/// The number of men and kings of each side (Russian draughts: one piece per square).
/// A game in progress or finished: its start position, moves, positions and result.
#[derive(Clone, Debug)]
pub struct Game {
    /// Every position of the game, the start first; one more than the moves.
    positions: Vec<Position>,
    /// The draw counts of each position, in step with `positions`.
    counts: Vec<DrawCounts>,
    /// The moves played, as generated (each a legal move of the position before it).
    moves: Vec<Move>,
    /// Bashni: whether repetition and the 15-move rule end the game without a claim.
    automatic_draws: bool,
    /// A result declared in the current position (resignation, agreement, time, claim).
    declared: Option<Outcome>,
    /// The side whose draw offer is open.
    draw_offer: Option<Color>,
    /// Bashni 1.13.3: the side that made the last draw offer.
    last_offer: Option<Color>,
    /// The result, if the game is over: the declared one, else the one found by the rules.
    outcome: Option<Outcome>,
}

impl Game {
    /// A game starting from `position`, with nobody having moved yet.
    pub fn new(position: Position) -> Game {
        let mut game = Game {
            positions: vec![position],
            counts: vec![DrawCounts::default()],
            moves: Vec::new(),
            automatic_draws: false,
            declared: None,
            draw_offer: None,
            last_offer: None,
            outcome: None,
        };
        game.refresh();
        game
    }

    /// A game of `variant` from the usual starting position.
    pub fn start(variant: Variant) -> Game {
        Game::new(Position::start(variant))
    }

    /// Which game is played.
    pub fn variant(&self) -> Variant {
        self.position().variant()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        // `positions` always holds the start position, so the fallback is never used.
        self.positions.last().unwrap_or(&self.positions[0])
    }

    /// The position the game started from.
    pub fn start_position(&self) -> &Position {
        &self.positions[0]
    }

    /// The moves played so far, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position of the game: the start position, then the one after each move.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// How many plies (moves of one side) have been played.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The number a score sheet gives the move made at `ply` (0 for the first move of the
    /// game): White's move and Black's reply share a number, counting from 1. When the game
    /// starts with Black to move, Black's first move is `1. ...` and White's reply is 2.
    /// Any `ply` is numbered, also one not played yet.
    pub fn move_number(&self, ply: usize) -> usize {
        let black_starts = self.start_position().side_to_move() == Color::Black;
        (ply + usize::from(black_starts)) / 2 + 1
    }

    /// Who moves next.
    pub fn side_to_move(&self) -> Color {
        self.position().side_to_move()
    }

    /// The moves that may be played now: the legal moves of the position, or none once the
    /// game is over.
    pub fn legal_moves(&self) -> MoveList {
        if self.is_over() {
            MoveList::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// The legal move of the current position that has the same result as `mv` (any path of
    /// the same capture will do), or `None`. When `mv` is itself one of the capture paths, it
    /// is returned as given, so the record keeps the path the player chose.
    pub fn legal_move(&self, mv: &Move) -> Option<Move> {
        if self.is_over() {
            return None;
        }
        let position = self.position();
        let variant = position.variant();
        let moves = position.legal_moves();
        let canonical = *moves.iter().find(|m| m.same_result(mv, variant))?;
        if canonical == *mv || !mv.is_capture() {
            return Some(canonical);
        }
        let own_path = position.capture_paths().iter().any(|path| path == mv);
        Some(if own_path { *mv } else { canonical })
    }

    /// Plays `mv` if it is legal now and the game is not over; otherwise nothing changes.
    ///
    /// After the move the game checks whether the side to move has lost for lack of moves
    /// and, in Russian draughts (or Bashni with automatic draws), whether a draw rule ends
    /// the game. A move by the opponent of an open draw offer refuses that offer.
    pub fn play(&mut self, mv: &Move) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        let chosen = self.legal_move(mv).ok_or(GameError::IllegalMove(*mv))?;
        self.push(chosen);
        Ok(())
    }

    /// Records a move known to be legal.
    fn push(&mut self, mv: Move) {
        let mover = self.side_to_move();
        let next = self.position().after(&mv);
        let counts = self.draw_counts().after(self.position(), &mv);
        self.positions.push(next);
        self.counts.push(counts);
        self.moves.push(mv);
        if self.draw_offer.is_some_and(|offerer| offerer != mover) {
            self.draw_offer = None;
        }
        self.refresh();
    }

    /// Takes back the last move and returns it, or `None` if no move has been played.
    ///
    /// A result declared after that move (resignation, agreement, loss on time, a draw
    /// claim) and any open draw offer are taken back with it. A result declared before any
    /// move stays.
    pub fn undo(&mut self) -> Option<Move> {
        if self.positions.len() < 2 {
            return None;
        }
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.counts.pop();
        self.declared = None;
        self.draw_offer = None;
        self.refresh();
        Some(mv)
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Whether Bashni's repetition and 15-move rules end the game by themselves.
    pub fn automatic_draws(&self) -> bool {
        self.automatic_draws
    }

    /// Bashni: lets repetition and the 15-move rule end the game by themselves (engine
    /// matches, the server) instead of waiting for a claim. When switched on in a position
    /// that already allows a claim, the game ends at once. Russian draughts applies its
    /// draw rules automatically whatever this setting.
    pub fn set_automatic_draws(&mut self, automatic: bool) {
        self.automatic_draws = automatic;
        self.refresh();
    }

    /// Bashni: the draw the side to move may claim now (repetition first, then the 15-move
    /// rule), if any. Always `None` in Russian draughts, whose draw rules need no claim, and
    /// once the game is over.
    pub fn can_claim_draw(&self) -> Option<Reason> {
        if self.is_over() || self.variant() != Variant::Bashni {
            return None;
        }
        self.bashni_draw()
    }

    /// Bashni: the side to move claims the draw that [`Game::can_claim_draw`] names.
    pub fn claim_draw(&mut self) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        let reason = self.can_claim_draw().ok_or(GameError::NothingToClaim)?;
        self.declare(Outcome::draw(reason));
        Ok(())
    }

    /// Bashni: whether playing `mv` (a legal move) would put the same position on the board
    /// for the third time, so that a draw can be claimed with it (1.13.2).
    pub fn move_allows_claim(&self, mv: &Move) -> bool {
        !self.is_over()
            && self.variant() == Variant::Bashni
            && self.occurrences(&self.position().after(mv)) + 1 >= REPETITIONS_FOR_DRAW
    }

    /// Bashni: the side to move announces `mv`, whose result stands on the board for the
    /// third time, and claims the draw. The move is recorded and the game
    /// ends drawn by repetition. If `mv` is not legal or would not make a third occurrence,
    /// nothing changes.
    pub fn claim_draw_with_move(&mut self, mv: &Move) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        let chosen = self.legal_move(mv).ok_or(GameError::IllegalMove(*mv))?;
        if self.variant() != Variant::Bashni {
            return Err(GameError::NothingToClaim);
        }
        let next = self.position().after(&chosen);
        if self.occurrences(&next) + 1 < REPETITIONS_FOR_DRAW {
            return Err(GameError::NothingToClaim);
        }
        self.push(chosen);
        if !self.is_over() {
            self.declare(Outcome::draw(Reason::Repetition));
        }
        Ok(())
    }

    /// `color` resigns: the opponent wins.
    pub fn resign(&mut self, color: Color) -> Result<(), GameError> {
        self.end(Outcome::loss(color, Reason::Resignation(color)))
    }

    /// `color` ran out of time: the opponent wins. For clocks.
    pub fn flag(&mut self, color: Color) -> Result<(), GameError> {
        self.end(Outcome::loss(color, Reason::Time(color)))
    }

    /// Whether a draw may be offered now: the game goes on and, in Russian draughts, each
    /// side has made at least 20 moves.
    pub fn may_offer_draw(&self) -> bool {
        !self.is_over()
            && (self.variant() != Variant::Russian
                || (self.moves_made(Color::White) >= RUSSIAN_DRAW_OFFER_MOVES
                    && self.moves_made(Color::Black) >= RUSSIAN_DRAW_OFFER_MOVES))
    }

    /// Whether `color` may offer a draw now. Bashni (1.13.3): only the side to move, with
    /// its move, and not twice in a row without an offer from the opponent in between.
    pub fn may_offer_draw_by(&self, color: Color) -> bool {
        self.may_offer_draw()
            && (self.variant() != Variant::Bashni
                || self.draw_offer == Some(color.opponent())
                || (self.side_to_move() == color && self.last_offer != Some(color)))
    }

    fn check_draw_offer(&self) -> Result<(), GameError> {
        if self.is_over() {
            Err(GameError::GameOver)
        } else if !self.may_offer_draw() {
            Err(GameError::DrawOfferTooEarly)
        } else {
            Ok(())
        }
    }

    /// `color` offers a draw. The offer stays open until the opponent accepts, declines or
    /// makes a move. If the opponent's own offer is open, this accepts it. In Bashni
    /// (1.13.3) only the side to move offers, before its move, and a side whose offer was
    /// refused may offer again only after the opponent has offered.
    pub fn offer_draw(&mut self, color: Color) -> Result<(), GameError> {
        self.check_draw_offer()?;
        if self.draw_offer == Some(color.opponent()) {
            return self.accept_draw(color);
        }
        if self.variant() == Variant::Bashni {
            if self.side_to_move() != color {
                return Err(GameError::DrawOfferNotOnMove);
            }
            if self.last_offer == Some(color) {
                return Err(GameError::DrawOfferRepeated);
            }
        }
        self.draw_offer = Some(color);
        self.last_offer = Some(color);
        Ok(())
    }

    /// The side whose draw offer is open, if any. An offer closes when the game ends.
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer.filter(|_| !self.is_over())
    }

    /// The side that made the last draw offer, open or not (Bashni 1.13.3 counts it).
    pub fn last_draw_offer(&self) -> Option<Color> {
        self.last_offer
    }

    /// Puts back the draw offers of a stored game after its moves have been replayed: the
    /// open offer and the side that offered last. Nothing is checked; the values must be
    /// ones this game had.
    pub fn restore_draw_offers(&mut self, open: Option<Color>, last: Option<Color>) {
        if !self.is_over() {
            self.draw_offer = open;
        }
        self.last_offer = last.or(open);
    }

    /// `color` accepts the opponent's open draw offer: the game is drawn.
    pub fn accept_draw(&mut self, color: Color) -> Result<(), GameError> {
        self.check_draw_offer()?;
        if self.draw_offer != Some(color.opponent()) {
            return Err(GameError::NoDrawOffer);
        }
        self.declare(Outcome::draw(Reason::Agreement));
        Ok(())
    }

    /// `color` declines the opponent's open draw offer.
    pub fn decline_draw(&mut self, color: Color) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        if self.draw_offer != Some(color.opponent()) {
            return Err(GameError::NoDrawOffer);
        }
        self.draw_offer = None;
        Ok(())
    }

    /// Both players agree a draw, in one step (subject to the same limits as an offer).
    pub fn agree_draw(&mut self) -> Result<(), GameError> {
        self.check_draw_offer()?;
        self.declare(Outcome::draw(Reason::Agreement));
        Ok(())
    }

    /// How many moves `color` has made in this game.
    pub fn moves_made(&self, color: Color) -> usize {
        self.positions[..self.moves.len()]
            .iter()
            .filter(|position| position.side_to_move() == color)
            .count()
    }

    /// How many times the current position (with the same side to move) has occurred in
    /// the game, this time included.
    pub fn repetition_count(&self) -> usize {
        self.occurrences(self.position())
    }

    /// How many plies in a row, up to now, held no capture and no promotion.
    pub fn plies_without_capture_or_promotion(&self) -> usize {
        self.draw_counts().quiet_plies
    }

    /// The draw counts of the current position (see [`crate::draw`]).
    pub fn draw_counts(&self) -> &DrawCounts {
        self.counts.last().unwrap_or(&ZERO_COUNTS)
    }

    /// How many times `position` stands in the history.
    fn occurrences(&self, position: &Position) -> usize {
        self.positions
            .iter()
            .filter(|p| p.hash() == position.hash() && *p == position)
            .count()
    }

    /// Ends the game with `outcome`, unless it is over already.
    fn end(&mut self, outcome: Outcome) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        self.declare(outcome);
        Ok(())
    }

    fn declare(&mut self, outcome: Outcome) {
        self.declared = Some(outcome);
        self.draw_offer = None;
        self.refresh();
    }

    /// Works out the result again from the declared one and the rules.
    fn refresh(&mut self) {
        self.outcome = self.declared.or_else(|| self.rules_outcome());
    }

    /// The result the rules give the current position by themselves, without any claim.
    fn rules_outcome(&self) -> Option<Outcome> {
        let position = self.position();
        let side = position.side_to_move();
        if position.count_moves() == 0 {
            return Some(Outcome::loss(side, Reason::NoMove(side)));
        }
        let draw = match position.variant() {
            Variant::Russian => self.russian_draw(),
            Variant::Bashni if self.automatic_draws => self.bashni_draw(),
            Variant::Bashni => None,
        };
        draw.map(Outcome::draw)
    }

    /// Bashni 1.13: the draw available in the current position, claimed or automatic.
    fn bashni_draw(&self) -> Option<Reason> {
        if self.repetition_count() >= REPETITIONS_FOR_DRAW {
            Some(Reason::Repetition)
        } else {
            self.draw_counts().verdict(self.position())
        }
    }

    /// Russian 6.1.8: the draw the rules give the current position, if any.
    fn russian_draw(&self) -> Option<Reason> {
        if self.repetition_count() >= REPETITIONS_FOR_DRAW {
            return Some(Reason::Repetition);
        }
        self.draw_counts().verdict(self.position())
    }
}

/// The counts of a game that has no position, which never happens.
const ZERO_COUNTS: DrawCounts = DrawCounts {
    quiet_plies: 0,
    king_plies: 0,
    moves: [0; 2],
    big_road_moves: [0; 2],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;
    use crate::square::Square;

    fn game(variant: Variant, text: &str) -> Game {
        Game::new(parse_position(variant, text).expect("test position"))
    }

    #[test]
    fn moves_are_numbered_as_a_score_sheet_numbers_them() {
        let white_starts = Game::start(Variant::Russian);
        let numbers: Vec<usize> = (0..5).map(|ply| white_starts.move_number(ply)).collect();
        assert_eq!(numbers, [1, 1, 2, 2, 3]);
        let black_starts = game(Variant::Russian, "White: c3 0; Black: f6 0; Black to move");
        let numbers: Vec<usize> = (0..5).map(|ply| black_starts.move_number(ply)).collect();
        assert_eq!(numbers, [1, 2, 2, 3, 3]);
    }

    /// The legal move written `text` in the current position.
    fn find(game: &Game, text: &str) -> Move {
        game.legal_moves()
            .iter()
            .copied()
            .find(|mv| mv.to_string() == text)
            .unwrap_or_else(|| {
                panic!(
                    "{text} is not legal at ply {}: {:?}",
                    game.ply(),
                    game.legal_moves()
                )
            })
    }

    fn play(game: &mut Game, text: &str) {
        let mv = find(game, text);
        game.play(&mv).expect("legal move");
    }

    /// Kings on the edge of the board, out of each other's reach.
    const SHUFFLE: &str = "White: h2 1; Black: a7 1; White to move";
    const SHUFFLE_MOVES: [&str; 4] = ["h2-g1", "a7-b8", "g1-h2", "b8-a7"];

    /// A king tour of 15 moves over 16 different squares, none on the diagonals of h2 and g1.
    const TOUR: [&str; 15] = [
        "d8-h4", "h4-e1", "e1-b4", "b4-f8", "f8-h6", "h6-c1", "c1-a3", "a3-b2", "b2-h8", "h8-f6",
        "f6-g5", "g5-d2", "d2-a5", "a5-c3", "c3-g7",
    ];

    /// The king move between h2 and g1 for the `i`-th move of the shuffling side.
    fn shuffle(i: usize) -> &'static str {
        if i.is_multiple_of(2) {
            "h2-g1"
        } else {
            "g1-h2"
        }
    }

    #[test]
    fn play_and_undo_round_trip() {
        let mut game = Game::start(Variant::Bashni);
        let start = *game.position();
        for text in ["c3-d4", "f6-e5", "d4:f6"] {
            play(&mut game, text);
        }
        assert_eq!(game.ply(), 3);
        assert_eq!(game.positions().len(), 4);
        assert_eq!(game.moves()[2].to_string(), "d4:f6");
        assert_eq!(game.side_to_move(), Color::Black);
        let after_two = game.positions()[2];
        assert_eq!(game.undo().map(|mv| mv.to_string()), Some("d4:f6".into()));
        assert_eq!(*game.position(), after_two);
        assert_eq!(game.undo().map(|mv| mv.to_string()), Some("f6-e5".into()));
        assert_eq!(game.undo().map(|mv| mv.to_string()), Some("c3-d4".into()));
        assert_eq!(game.undo(), None);
        assert_eq!(*game.position(), start);
        assert_eq!(game.ply(), 0);
        assert!(game.moves().is_empty());
        assert_eq!(game.legal_moves().len(), 7);
    }

    #[test]
    fn illegal_move_is_refused_and_nothing_changes() {
        let mut game = Game::start(Variant::Russian);
        play(&mut game, "c3-d4");
        play(&mut game, "f6-e5");
        let before = game.clone();
        // A capture is compulsory now, so a quiet move is refused.
        let quiet = find(&Game::start(Variant::Russian), "a3-b4");
        assert_eq!(game.play(&quiet), Err(GameError::IllegalMove(quiet)));
        // A move of the other side.
        let black = Move::quiet(
            Square::parse("b6").expect("square"),
            Square::parse("a5").expect("square"),
            false,
        );
        let error = game.play(&black).expect_err("not White's move");
        assert_eq!(
            error.to_string(),
            "b6-a5 is not a legal move in this position"
        );
        assert_eq!(game.positions(), before.positions());
        assert_eq!(game.moves(), before.moves());
        assert_eq!(game.outcome(), None);
        play(&mut game, "d4:f6");
        assert_eq!(game.ply(), 3);
    }

    #[test]
    fn blocked_side_loses() {
        let mut game = game(
            Variant::Russian,
            "White: a1 0; Black: b2 0, d4 0; Black to move",
        );
        assert!(!game.is_over());
        play(&mut game, "d4-c3");
        let outcome = Outcome::loss(Color::White, Reason::NoMove(Color::White));
        assert_eq!(game.outcome(), Some(outcome));
        assert_eq!(outcome.result, GameResult::BlackWins);
        assert_eq!(outcome.to_string(), "Black wins: White has no move");
        assert!(game.legal_moves().is_empty());
        let again = find(
            &self::game(
                Variant::Russian,
                "White: a1 0; Black: b2 0, d4 0; Black to move",
            ),
            "b2-c1",
        );
        assert_eq!(game.play(&again), Err(GameError::GameOver));
        // Taking the move back lets the game go on.
        assert!(game.undo().is_some());
        assert_eq!(game.outcome(), None);
    }

    #[test]
    fn side_without_pieces_loses() {
        let mut game = game(Variant::Bashni, "White: c3 0; Black: d4 0; White to move");
        play(&mut game, "c3:e5");
        // In Bashni the black checker is now a prisoner in the white tower.
        assert_eq!(
            game.outcome().map(|o| (o.result, o.reason)),
            Some((GameResult::WhiteWins, Reason::NoMove(Color::Black)))
        );
    }

    #[test]
    fn bashni_repetition_is_a_claim() {
        let mut game = game(Variant::Bashni, SHUFFLE);
        for (ply, text) in SHUFFLE_MOVES.iter().cycle().take(8).enumerate() {
            assert_eq!(game.can_claim_draw(), None, "ply {ply}");
            assert_eq!(game.claim_draw(), Err(GameError::NothingToClaim));
            play(&mut game, text);
        }
        assert_eq!(game.repetition_count(), 3);
        assert!(!game.is_over(), "a claim is needed");
        assert_eq!(game.can_claim_draw(), Some(Reason::Repetition));
        game.claim_draw().expect("claim");
        assert_eq!(game.outcome(), Some(Outcome::draw(Reason::Repetition)));
        assert_eq!(game.claim_draw(), Err(GameError::GameOver));
        // Undoing the last move takes the claim back too.
        assert!(game.undo().is_some());
        assert_eq!(game.outcome(), None);
        assert_eq!(game.can_claim_draw(), None);
        // The player about to repeat may announce the move and claim instead.
        let mv = find(&game, "b8-a7");
        game.claim_draw_with_move(&mv).expect("claim with the move");
        assert_eq!(game.ply(), 8);
        assert_eq!(game.outcome(), Some(Outcome::draw(Reason::Repetition)));
    }

    #[test]
    fn bashni_claim_with_move_needs_a_third_occurrence() {
        let mut game = game(Variant::Bashni, SHUFFLE);
        for text in &SHUFFLE_MOVES[..3] {
            play(&mut game, text);
        }
        let mv = find(&game, "b8-a7");
        assert_eq!(
            game.claim_draw_with_move(&mv),
            Err(GameError::NothingToClaim)
        );
        assert_eq!(game.ply(), 3);
        assert!(!game.is_over());
    }

    /// Bashni: White shuffles its king while Black's king tours; 30 plies, no repetition.
    fn bashni_quiet_line(automatic: bool) -> Game {
        let mut game = game(Variant::Bashni, "White: h2 1; Black: d8 1; White to move");
        game.set_automatic_draws(automatic);
        for (i, black) in TOUR.iter().enumerate() {
            assert_eq!(game.can_claim_draw(), None, "ply {}", game.ply());
            assert!(!game.is_over());
            play(&mut game, shuffle(i));
            assert!(!game.is_over());
            assert_eq!(game.can_claim_draw(), None, "ply {}", game.ply());
            play(&mut game, black);
        }
        assert_eq!(game.ply(), 30);
        assert_eq!(game.repetition_count(), 1);
        assert_eq!(game.plies_without_capture_or_promotion(), 30);
        game
    }

    #[test]
    fn bashni_fifteen_moves_is_a_claim() {
        let mut game = bashni_quiet_line(false);
        assert!(!game.is_over());
        assert_eq!(game.can_claim_draw(), Some(Reason::QuietMoves));
        game.claim_draw().expect("claim");
        let outcome = game.outcome().expect("drawn");
        assert_eq!(outcome.result, GameResult::Draw);
        assert_eq!(
            outcome.reason.to_string(),
            "15 moves without capture or promotion (1.13)"
        );
    }

    #[test]
    fn bashni_automatic_draws_end_the_game() {
        let game = bashni_quiet_line(true);
        assert_eq!(game.outcome(), Some(Outcome::draw(Reason::QuietMoves)));
        assert_eq!(game.can_claim_draw(), None);

        let mut game = game_with_shuffle(Variant::Bashni, true, 7);
        assert!(!game.is_over());
        play(&mut game, SHUFFLE_MOVES[3]);
        assert_eq!(game.outcome(), Some(Outcome::draw(Reason::Repetition)));

        // Switching the setting on when a claim is pending ends the game at once.
        let mut game = game_with_shuffle(Variant::Bashni, false, 8);
        assert!(!game.is_over());
        game.set_automatic_draws(true);
        assert_eq!(game.outcome(), Some(Outcome::draw(Reason::Repetition)));
    }

    fn game_with_shuffle(variant: Variant, automatic: bool, plies: usize) -> Game {
        let mut game = game(variant, SHUFFLE);
        game.set_automatic_draws(automatic);
        for text in SHUFFLE_MOVES.iter().cycle().take(plies) {
            play(&mut game, text);
        }
        game
    }

    #[test]
    fn russian_repetition_is_automatic() {
        let mut game = game_with_shuffle(Variant::Russian, false, 7);
        assert!(!game.is_over());
        assert_eq!(game.can_claim_draw(), None);
        play(&mut game, SHUFFLE_MOVES[3]);
        assert_eq!(game.outcome(), Some(Outcome::draw(Reason::Repetition)));
        assert_eq!(game.legal_moves().len(), 0);
    }

    #[test]
    fn russian_three_pieces_against_lone_king() {
        // Three white kings (one on a1, so 6.1.8.5 does not apply) against a black king that
        // shuffles on the edge; White's tour never repeats a position.
        let mut game = game(
            Variant::Russian,
            "White: a1 1, b8 1, d8 1; Black: h2 1; White to move",
        );
        for (i, white) in TOUR.iter().enumerate() {
            assert!(!game.is_over(), "ply {}", game.ply());
            play(&mut game, white);
            if i < TOUR.len() - 1 {
                assert!(!game.is_over(), "ply {}", game.ply());
                play(&mut game, shuffle(i));
            }
        }
        assert_eq!(game.ply(), 29);
        assert_eq!(game.moves_made(Color::White), 15);
        let outcome = game.outcome().expect("drawn after White's 15th move");
        assert_eq!(outcome, Outcome::draw(Reason::LoneKing));
        assert_eq!(
            outcome.reason.to_string(),
            "6.1.8.4: three or more pieces against a lone king, 15 moves"
        );
    }

    #[test]
    fn russian_big_road() {
        // Three white kings off the long diagonal, the black king on it.
        let mut game = game(
            Variant::Russian,
            "White: a3 1, a5 1, b8 1; Black: h8 1; White to move",
        );
        let line = [
            "a3-c1", "h8-g7", "a5-d8", "g7-h8", "b8-a7", "h8-g7", "c1-a3", "g7-h8", "d8-a5",
        ];
        for text in line {
            assert!(!game.is_over(), "ply {}", game.ply());
            play(&mut game, text);
        }
        assert_eq!(game.outcome(), Some(Outcome::draw(Reason::BigRoad)));
    }

    #[test]
    fn russian_king_ending_counts_from_the_promotion() {
        // The white man crowns on the first move; the 5-move count (3 pieces) starts then.
        let mut game = game(
            Variant::Russian,
            "White: a7 0, h2 1; Black: d8 1; White to move",
        );
        play(&mut game, "a7-b8");
        for (i, black) in TOUR.iter().take(5).enumerate() {
            assert!(!game.is_over(), "ply {}", game.ply());
            play(&mut game, black);
            assert!(!game.is_over(), "ply {}", game.ply());
            play(&mut game, shuffle(i));
        }
        assert_eq!(game.ply(), 11);
        assert_eq!(game.plies_without_capture_or_promotion(), 10);
        let outcome = game.outcome().expect("6.1.8.6");
        assert_eq!(outcome.reason, Reason::KingEnding { pieces: 3 });
        assert_eq!(
            outcome.reason.to_string(),
            "6.1.8.6: kings on both sides, 3 pieces, 5 moves without capture or promotion"
        );
        // Take the last move back: nine plies only.
        assert!(game.undo().is_some());
        assert!(!game.is_over());
    }

    #[test]
    fn russian_kings_only_moves() {
        // Two pieces each, men standing still, only kings moving: 15 moves.
        let mut game = game(
            Variant::Russian,
            "White: a7 0, h2 1; Black: b8 0, d8 1; White to move",
        );
        for (i, black) in TOUR.iter().enumerate() {
            assert!(!game.is_over(), "ply {}", game.ply());
            play(&mut game, shuffle(i));
            assert!(!game.is_over(), "ply {}", game.ply());
            play(&mut game, black);
        }
        assert_eq!(game.ply(), 30);
        let outcome = game.outcome().expect("6.1.8.8");
        assert_eq!(outcome.reason, Reason::KingMovesOnly { pieces: 4 });
        assert_eq!(
            outcome.to_string(),
            "draw: 6.1.8.8: 4 pieces, 15 moves with kings only and no capture"
        );
    }

    #[test]
    fn russian_draw_offer_needs_twenty_moves_each() {
        let mut game = Game::start(Variant::Russian);
        assert_eq!(
            game.offer_draw(Color::White),
            Err(GameError::DrawOfferTooEarly)
        );
        assert_eq!(game.agree_draw(), Err(GameError::DrawOfferTooEarly));
        assert_eq!(game.draw_offer(), None);
        // Play on, always choosing a move that does not end the game.
        while game.ply() < 2 * RUSSIAN_DRAW_OFFER_MOVES {
            assert!(!game.may_offer_draw(), "ply {}", game.ply());
            let next = game
                .legal_moves()
                .iter()
                .find_map(|mv| {
                    let mut trial = game.clone();
                    trial.play(mv).ok()?;
                    (!trial.is_over()).then_some(trial)
                })
                .expect("a move that keeps the game going");
            game = next;
        }
        assert!(game.may_offer_draw());
        game.offer_draw(Color::White).expect("offer");
        assert_eq!(game.draw_offer(), Some(Color::White));
        assert_eq!(game.accept_draw(Color::White), Err(GameError::NoDrawOffer));
        game.accept_draw(Color::Black).expect("accept");
        assert_eq!(game.outcome(), Some(Outcome::draw(Reason::Agreement)));
    }

    #[test]
    fn bashni_draw_offer_is_refused_by_a_move() {
        let mut game = Game::start(Variant::Bashni);
        assert_eq!(
            game.offer_draw(Color::Black),
            Err(GameError::DrawOfferNotOnMove)
        );
        assert!(game.may_offer_draw_by(Color::White));
        assert!(!game.may_offer_draw_by(Color::Black));
        game.offer_draw(Color::White).expect("offer");
        play(&mut game, "c3-d4");
        assert_eq!(
            game.draw_offer(),
            Some(Color::White),
            "open until Black answers"
        );
        play(&mut game, "f6-g5");
        assert_eq!(game.draw_offer(), None);
        assert_eq!(game.accept_draw(Color::Black), Err(GameError::NoDrawOffer));
        // 1.13.3: White may offer again only after Black has offered.
        assert_eq!(
            game.offer_draw(Color::White),
            Err(GameError::DrawOfferRepeated)
        );
        assert!(!game.may_offer_draw_by(Color::White));
        play(&mut game, "d4-c5");
        game.offer_draw(Color::Black).expect("Black's first offer");
        game.decline_draw(Color::White).expect("decline");
        assert_eq!(game.draw_offer(), None);
        play(&mut game, "b6:d4");
        game.offer_draw(Color::White)
            .expect("White may offer again");
        game.offer_draw(Color::Black)
            .expect("an offer against an open offer agrees");
        assert_eq!(game.outcome(), Some(Outcome::draw(Reason::Agreement)));
    }

    #[test]
    fn an_open_draw_offer_closes_when_the_game_ends() {
        let mut game = game(Variant::Bashni, "White: c3 0; Black: d4 0; White to move");
        game.offer_draw(Color::White).expect("offer");
        play(&mut game, "c3:e5");
        assert!(game.is_over());
        assert_eq!(game.draw_offer(), None);
    }

    #[test]
    fn resignation_and_time() {
        let mut game = Game::start(Variant::Bashni);
        play(&mut game, "c3-d4");
        game.resign(Color::Black).expect("resign");
        let outcome = game.outcome().expect("over");
        assert_eq!(outcome.result, GameResult::WhiteWins);
        assert_eq!(outcome.result.score(), "1-0");
        assert_eq!(outcome.reason.to_string(), "Black resigned");
        assert!(game.is_over());
        assert_eq!(game.resign(Color::White), Err(GameError::GameOver));
        assert_eq!(game.flag(Color::White), Err(GameError::GameOver));
        assert_eq!(game.offer_draw(Color::White), Err(GameError::GameOver));
        let mv = find(&Game::start(Variant::Bashni), "c3-d4");
        assert_eq!(game.play(&mv), Err(GameError::GameOver));
        // Undo takes the resignation back with the move.
        assert!(game.undo().is_some());
        assert!(!game.is_over());
        game.flag(Color::White).expect("flag");
        assert_eq!(
            game.outcome(),
            Some(Outcome::loss(Color::White, Reason::Time(Color::White)))
        );
        assert_eq!(
            game.outcome().map(|o| o.result),
            Some(GameResult::BlackWins)
        );
    }

    #[test]
    fn any_capture_path_is_accepted() {
        // Two paths take the same pieces and leave the same position.
        let text = "White: b8 1, f8 1, h4 1; Black: b4 1, e7 0, f2 0, f4 1, g3 0; White to move";
        let mut game = game(Variant::Russian, text);
        let paths: Vec<Move> = game
            .position()
            .capture_paths()
            .iter()
            .copied()
            .filter(|mv| mv.from().to_string() == "f8" && mv.to().to_string() == "a3")
            .collect();
        assert_eq!(paths.len(), 2);
        let other = paths
            .iter()
            .copied()
            .find(|mv| mv.to_string() == "f8:d6:a3")
            .expect("second path");
        game.play(&other).expect("any path counts");
        assert_eq!(game.moves()[0].to_string(), "f8:d6:a3");
        assert_eq!(game.ply(), 1);
    }

    #[test]
    fn error_and_reason_texts() {
        assert_eq!(GameError::GameOver.to_string(), "the game is already over");
        assert!(
            GameError::DrawOfferTooEarly
                .to_string()
                .contains("20 moves")
        );
        assert_eq!(
            Reason::NoMove(Color::Black).to_string(),
            "Black has no move"
        );
        assert_eq!(Reason::Repetition.to_string(), "threefold repetition");
        assert!(Reason::Repetition.is_draw());
        assert!(!Reason::Time(Color::White).is_draw());
        assert_eq!(GameResult::Draw.score(), "1/2-1/2");
        assert_eq!(GameResult::BlackWins.winner(), Some(Color::Black));
    }
}
