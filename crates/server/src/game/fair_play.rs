//! Fair play: while a game between two people is in progress, the engine does not help
//! with it, for its players or anyone else. The rule lives here and nowhere else:
//! - a game's state says whether the engine may be shown for it (`engine_help`);
//! - an analysis that names a game in progress is refused;
//! - an analysis of a position now on the board of a game in progress on this server is
//!   refused, whoever asks and however the position was copied, once the game has left
//!   the opening ([`GUARD_FROM_PLY`]): the first positions are shared by many games and are
//!   everybody's to study.

use crate::game::round::{Mode, Round};

/// The ply from which a game's board is kept from the engine also when copied.
pub const GUARD_FROM_PLY: usize = 6;

/// Whether the engine may look at this game now: always, except while a game between two
/// people is in progress.
pub fn engine_help_allowed(round: &Round) -> bool {
    round.mode != Mode::Friend || round.is_over()
}

/// The board a game in progress between people shows (the position's hash), or 0: what
/// [`GameSlot`](crate::app::GameSlot) keeps for [`check_analysis`](crate::analysis::check_analysis).
pub fn guarded_board(round: &Round) -> u64 {
    if engine_help_allowed(round) || round.game.ply() < GUARD_FROM_PLY {
        0
    } else {
        round.game.position().hash() | 1
    }
}
