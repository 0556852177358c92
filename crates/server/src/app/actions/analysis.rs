//! The engine's view of a position, asked for on the page: one search from the pool.

use super::*;

/// One line of an analysis.
pub struct AnalysisLine {
    /// The score for the side to move.
    pub score: Score,
    /// The moves, in full notation.
    pub moves: Vec<String>,
    /// The first move's start square and landing squares, for an arrow; empty without moves.
    pub path: Vec<String>,
}

/// The line the engine reports in `info`, for the current position of `game`: its moves
/// written out as long as the rules accept them.
pub fn analysis_line(game: &Game, info: &Info) -> AnalysisLine {
    let mut line = game.clone();
    let mut moves = Vec::new();
    let mut path = Vec::new();
    for mv in &info.pv {
        let before = *line.position();
        if line.play(mv).is_err() {
            break;
        }
        if moves.is_empty() {
            path = crate::game::view::MoveView::of(&before, mv).path;
        }
        moves.push(mv.to_string());
    }
    AnalysisLine {
        score: info.score,
        moves,
        path,
    }
}

/// What the engine says about a position.
pub struct Analysis {
    /// The side to move.
    pub side: Color,
    /// The depth reached.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The best lines.
    pub lines: Vec<AnalysisLine>,
}

/// The words for an analysis the engine pool refused.
pub fn analysis_refused(app: &App, refusal: crate::app::engines::PoolRefusal) -> ActionError {
    match refusal {
        crate::app::engines::PoolRefusal::ClientBusy => ActionError::TooMany(crate::texts::text!(
            "analysis-too-many",
            most = app.engines.analyses_per_client
        )),
        crate::app::engines::PoolRefusal::QueueFull => {
            ActionError::TooMany(crate::texts::text!("analysis-busy"))
        }
    }
}

/// Analyses the current position of `game` (its moves count for repetitions) for `client`:
/// at most [`MAX_ANALYSIS`], `lines` best lines. Games' engine moves come first; when the
/// caller stops waiting, the search stops.
pub async fn analyse(
    app: &Arc<App>,
    client: IpAddr,
    game: Game,
    movetime: Duration,
    depth: Option<u32>,
    lines: usize,
) -> Result<Analysis, ActionError> {
    let side = game.side_to_move();
    if game.legal_moves().is_empty() {
        return Ok(Analysis {
            side,
            depth: 0,
            nodes: 0,
            lines: Vec::new(),
        });
    }
    let stop = StopToken::new();
    let limits = Limits {
        movetime: Some(movetime.clamp(Duration::from_millis(1), MAX_ANALYSIS)),
        depth: depth.map(|d| d.clamp(1, 64)),
        ..Limits::default()
    }
    .with_stop(stop.clone());
    let lines = lines.clamp(1, 5);
    let analysis = app
        .engines
        .analyse(client, stop, move |engine| {
            let result =
                engine.search_lines(game.position(), &Past::of(&game), &limits, lines, |_| {});
            let lines = result
                .lines
                .iter()
                .map(|info| analysis_line(&game, info))
                .collect();
            Analysis {
                side,
                depth: result.depth,
                nodes: result.nodes,
                lines,
            }
        })
        .await
        .map_err(|refusal| analysis_refused(app, refusal))?;
    analysis.ok_or_else(|| ActionError::Unavailable("the engine is not available".into()))
}
