//! Fair play: while a game between two people is in progress, the engine does not help
//! with it, for its players or anyone else. The rule lives here and nowhere else:
//! - a game's state says whether the engine may be shown for it (`engine_help`);
//! - an analysis that names a game in progress is refused;
//! - an analysis of a position now on the board of a game in progress on this server is
//!   refused, whoever asks and however the position was copied, once the game has left
//!   the opening ([`GUARD_FROM_PLY`]): the first positions are shared by many games and are
//!   everybody's to study.

use std::sync::Arc;

use bashni_rules::Game;

use crate::app::{ActionError, App};
use crate::game::round::{Mode, Round};

/// The ply from which a game's board is kept from the engine also when copied.
pub const GUARD_FROM_PLY: usize = 6;

/// Whether the engine may look at this game now: always, except while a game between two
/// people is in progress.
pub fn engine_help_allowed(round: &Round) -> bool {
    round.mode != Mode::Friend || round.is_over()
}

/// The board a game in progress between people shows (the position's hash), or 0: what
/// [`GameSlot`](crate::app::GameSlot) keeps for [`check_analysis`].
pub fn guarded_board(round: &Round) -> u64 {
    if engine_help_allowed(round) || round.game.ply() < GUARD_FROM_PLY {
        0
    } else {
        round.game.position().hash() | 1
    }
}

/// Refuses an analysis that helps a game in progress between people: one that names such a
/// game (`game`, the id the page sends from a game), or whose positions (the start and
/// after each move) include one on the board of such a game on this server.
pub async fn check_analysis(
    app: &Arc<App>,
    game: Option<&str>,
    analysed: &Game,
) -> Result<(), ActionError> {
    if let Some(id) = game {
        let slot = app.slot(id).await?;
        let live = slot.live.lock().await;
        if !engine_help_allowed(&live.round) {
            return Err(refusal());
        }
    }
    let boards: Vec<u64> = app
        .guarded_boards()
        .into_iter()
        .filter(|&board| board != 0)
        .collect();
    if boards.is_empty() {
        return Ok(());
    }
    let on_board = analysed
        .positions()
        .iter()
        .any(|position| boards.contains(&(position.hash() | 1)));
    if on_board {
        return Err(refusal());
    }
    Ok(())
}

fn refusal() -> ActionError {
    ActionError::FairPlay(
        "this position is in a game between people that is still going on; \
         the engine looks at it once the game has ended"
            .into(),
    )
}
