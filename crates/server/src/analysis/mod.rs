//! Analysis: the limits of the engine's view of a position (time, depth, lines), the lines
//! as the API shows them, and the fair-play check every analysis passes. The analysis
//! socket (`socket/analysis.rs`) and `POST /api/analyse` (`http/games.rs`) ask for it.

use std::sync::Arc;
use std::time::Duration;

use bashni_rules::{Color, Game};
use serde_json::{Value, json};

use crate::app::actions::{self, AnalysisLine};
use crate::app::{ActionError, App};

/// The longest analysis one `analyse` message runs (also when it names no time).
pub const MAX_STREAMED_ANALYSIS: Duration = Duration::from_secs(30);

/// The shortest time between two messages of one analysis: faster depths are folded into
/// the next message (the final message is sent at once).
pub const MIN_MESSAGE_INTERVAL: Duration = Duration::from_millis(100);

/// After this long an analysis gives its engine up as soon as a game's move waits for one,
/// so that games never wait longer for an analysis than for one over HTTP.
pub const YIELD_TO_GAMES_AFTER: Duration = actions::MAX_ANALYSIS;

/// The most lines one analysis reports.
pub const MAX_LINES: usize = 5;

/// The deepest search one may ask for.
pub const MAX_DEPTH: u32 = 64;

/// A line of an analysis as the API shows it: the scores (for the side to move, `score`
/// and `score_cp`, and for White, `score_white`), the moves, and the first move's path.
pub fn line_view(line: &AnalysisLine, side: Color) -> Value {
    json!({
        "score": line.score.text(),
        "score_white": line.score.white_text(side),
        "score_cp": line.score.value(),
        "moves": line.moves,
        "path": line.path,
    })
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
        if !crate::game::fair_play::engine_help_allowed(&live.round) {
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
    ActionError::FairPlay(crate::texts::text!("analysis-fair-play"))
}
