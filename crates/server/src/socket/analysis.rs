//! The analysis socket, `GET /api/analysis/ws`: the engine's view of a position streamed
//! while it searches, one message after each finished depth, until the client stops it, a
//! new position replaces it, or its time is up. The search is the engine pool's, with the
//! same per-client limit as `POST /api/analyse`; this module only reads the requests and
//! writes out what the engine reports.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use axum::extract::{Extension, State};
use axum::response::Response;
use bashni_engine::{Limits, Past, StopToken};
use bashni_rules::{Color, Game};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio::task::{JoinError, JoinHandle};

use crate::analysis::{
    MAX_DEPTH, MAX_LINES, MAX_STREAMED_ANALYSIS, MIN_MESSAGE_INTERVAL, YIELD_TO_GAMES_AFTER,
    check_analysis, line_view,
};
use crate::app::App;
use crate::app::actions::{self, AnalysisLine, analysis_line};
use crate::app::engines::PoolRefusal;
use crate::http::error::ApiError;
use crate::http::games::{Client, read_position};
use crate::socket::{
    Conversation, Said, WebSocket, WebSocketUpgrade, converse, error_reply, in_language,
    read_message,
};
use crate::texts::Language;

/// Opens the analysis socket.
pub async fn handler(
    ws: WebSocketUpgrade,
    State(app): State<Arc<App>>,
    Extension(Client(client)): Extension<Client>,
    Extension(language): Extension<Language>,
) -> Response {
    ws.on_upgrade(move |socket| in_language(language, run(app, client, socket)))
}

/// A client's message.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    id: Value,
    variant: Option<String>,
    position: Option<String>,
    moves: Option<Vec<String>>,
    lines: Option<usize>,
    movetime_ms: Option<u64>,
    depth: Option<u32>,
    /// The game the position comes from, when it comes from one (see [`crate::game::fair_play`]).
    game: Option<String>,
}

/// An analysis to start.
struct Asked {
    id: Value,
    game: Game,
    lines: usize,
    limits: Limits,
}

/// What the engine reported last: after a finished depth, or at the end.
#[derive(Default)]
struct Progress {
    depth: u32,
    nodes: u64,
    nps: u64,
    time: Duration,
    lines: Vec<AnalysisLine>,
}

/// Why an analysis ended, as its final message says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ending {
    /// The search reached its time or depth, or found the result.
    End,
    /// The client sent `stop`.
    Stop,
    /// A new `analyse` message took its place.
    Replaced,
    /// A game's move needed the engine.
    EngineNeeded,
    /// The position has no move to analyse.
    NoMoves,
}

impl Ending {
    fn name(self) -> &'static str {
        match self {
            Ending::End => "end",
            Ending::Stop => "stop",
            Ending::Replaced => "replaced",
            Ending::EngineNeeded => "engine_needed",
            Ending::NoMoves => "no_moves",
        }
    }
}

type Outcome = Result<Option<Progress>, PoolRefusal>;

/// The analysis a socket runs.
struct Running {
    id: Value,
    side: Color,
    stop: StopToken,
    /// When the engine began, once it has.
    began: Arc<OnceLock<Instant>>,
    progress: watch::Receiver<Option<Arc<Progress>>>,
    task: JoinHandle<Outcome>,
    /// Why the socket stopped it, if it did.
    ending: Option<Ending>,
    /// No progress message before this.
    next_message: tokio::time::Instant,
}

impl Drop for Running {
    fn drop(&mut self) {
        // A search that is still waiting for an engine or running ends with its socket.
        self.stop.stop();
        self.task.abort();
    }
}

/// What happened to the running analysis.
enum Happened {
    /// A depth is finished (and the message interval is over).
    Progress,
    /// The search is over.
    Done(Result<Outcome, JoinError>),
}

/// Waits for the next thing the running analysis has to say; never, when none runs.
async fn next_from(running: &mut Option<Running>) -> Happened {
    let Some(Running {
        task,
        progress,
        next_message,
        ..
    }) = running
    else {
        return std::future::pending().await;
    };
    let at = *next_message;
    tokio::select! {
        biased;
        done = task => Happened::Done(done),
        changed = async {
            tokio::time::sleep_until(at).await;
            progress.changed().await
        } => match changed {
            Ok(()) => Happened::Progress,
            // The search is over; its end comes through the task.
            Err(_) => std::future::pending().await,
        },
    }
}

fn message(id: &Value, side: Color, progress: &Progress, ending: Option<Ending>) -> String {
    let lines: Vec<Value> = progress
        .lines
        .iter()
        .map(|line| line_view(line, side))
        .collect();
    let mut message = json!({
        "type": "analysis",
        "id": id,
        "depth": progress.depth,
        "nodes": progress.nodes,
        "nps": progress.nps,
        "time_ms": progress.time.as_millis() as u64,
        "lines": lines,
        "done": ending.is_some(),
    });
    if let Some(ending) = ending {
        message["reason"] = json!(ending.name());
    }
    message.to_string()
}

/// Reads an `analyse` message into the analysis it asks for.
fn asked(request: Request) -> Result<Asked, ApiError> {
    let variant = request
        .variant
        .as_deref()
        .ok_or_else(|| ApiError::bad_request("variant: missing (bashni or russian)"))?;
    let variant = crate::app::actions::variant_named(variant)?;
    let position = read_position(variant, request.position.as_deref().unwrap_or(""))?;
    let game = crate::game::variation::play_variation(
        position,
        request.moves.as_deref().unwrap_or_default(),
    )?;
    let lines = request.lines.unwrap_or(1);
    if !(1..=MAX_LINES).contains(&lines) {
        return Err(ApiError::bad_request(format!(
            "lines: from 1 to {MAX_LINES}, not {lines}"
        )));
    }
    let most = MAX_STREAMED_ANALYSIS.as_millis() as u64;
    let movetime = match request.movetime_ms {
        Some(ms) if (1..=most).contains(&ms) => Duration::from_millis(ms),
        Some(ms) => {
            return Err(ApiError::bad_request(format!(
                "movetime_ms: from 1 to {most}, not {ms}"
            )));
        }
        None => MAX_STREAMED_ANALYSIS,
    };
    if let Some(depth) = request.depth
        && !(1..=MAX_DEPTH).contains(&depth)
    {
        return Err(ApiError::bad_request(format!(
            "depth: from 1 to {MAX_DEPTH}, not {depth}"
        )));
    }
    Ok(Asked {
        id: request.id,
        game,
        lines,
        limits: Limits {
            movetime: Some(movetime),
            depth: request.depth,
            ..Limits::default()
        },
    })
}

/// Starts an analysis on the engine pool; it reports each finished depth through the
/// returned analysis's `progress`, and its end through its `task`.
fn start(app: &Arc<App>, client: std::net::IpAddr, asked: Asked) -> Running {
    let Asked {
        id,
        game,
        lines,
        limits,
    } = asked;
    let side = game.side_to_move();
    let stop = StopToken::new();
    let limits = limits.with_stop(stop.clone());
    let began = Arc::new(OnceLock::new());
    let (report, progress) = watch::channel(None);
    let work = {
        let began = Arc::clone(&began);
        let time = app.settings.time.clone();
        move |engine: &bashni_engine::Engine| {
            let _ = began.set(time.now());
            let expected = lines.min(game.legal_moves().len());
            let mut batch: Vec<AnalysisLine> = Vec::new();
            let result =
                engine.search_lines(game.position(), &Past::of(&game), &limits, lines, |info| {
                    // The lines of one depth come one after the other, the best first.
                    if info.multipv == 1 {
                        batch.clear();
                    }
                    batch.push(analysis_line(&game, info));
                    if batch.len() == expected {
                        report.send_replace(Some(Arc::new(Progress {
                            depth: info.depth,
                            nodes: info.nodes,
                            nps: info.nps,
                            time: info.time,
                            lines: std::mem::take(&mut batch),
                        })));
                    }
                });
            let seconds = result.time.as_secs_f64().max(1e-6);
            Progress {
                depth: result.depth,
                nodes: result.nodes,
                nps: (result.nodes as f64 / seconds) as u64,
                time: result.time,
                lines: result
                    .lines
                    .iter()
                    .map(|info| analysis_line(&game, info))
                    .collect(),
            }
        }
    };
    let task = {
        let app = Arc::clone(app);
        let stop = stop.clone();
        tokio::spawn(async move { app.engines.analyse(client, stop, work).await })
    };
    Running {
        id,
        side,
        stop,
        began,
        progress,
        task,
        ending: None,
        next_message: tokio::time::Instant::now(),
    }
}

/// The messages that end `running`'s analysis, once it is over.
fn ending_messages(app: &App, running: &Running, done: Result<Outcome, JoinError>) -> String {
    let id = &running.id;
    match done {
        Ok(Ok(Some(last))) => message(
            id,
            running.side,
            &last,
            Some(running.ending.unwrap_or(Ending::End)),
        ),
        Ok(Err(refusal)) => {
            tracing::info!("limit: an analysis socket's analysis was refused: {refusal:?}");
            error_reply(id, actions::analysis_refused(app, refusal).into())
        }
        Ok(Ok(None)) | Err(_) => {
            let error = crate::app::ActionError::Unavailable("the engine is not available".into());
            error_reply(id, error.into())
        }
    }
}

/// Ends `running` for `ending` and returns its final message: a search under way is told
/// to stop and its last depth reported; one still waiting for an engine is dropped.
async fn finish(app: &App, mut running: Running, ending: Ending) -> String {
    running.ending = Some(ending);
    if running.began.get().is_some() {
        running.stop.stop();
        // The engine looks at its stop token often; the wait is short.
        if let Ok(done) = tokio::time::timeout(Duration::from_secs(5), &mut running.task).await {
            return ending_messages(app, &running, done);
        }
    }
    let last = running.progress.borrow().clone();
    let empty = Progress::default();
    message(
        &running.id,
        running.side,
        last.as_deref().unwrap_or(&empty),
        Some(ending),
    )
}

async fn run(app: Arc<App>, client: std::net::IpAddr, socket: WebSocket) {
    let mut games_check = tokio::time::interval(Duration::from_millis(250));
    games_check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut talk = AnalysisTalk {
        app: Arc::clone(&app),
        client,
        running: None,
        games_check,
    };
    converse(&app, socket, "an analysis socket", Vec::new(), &mut talk).await;
}

/// An analysis socket: the search it runs, if any.
struct AnalysisTalk {
    app: Arc<App>,
    client: std::net::IpAddr,
    running: Option<Running>,
    /// While a search runs: whether a game waits for its engine.
    games_check: tokio::time::Interval,
}

/// News of an analysis socket.
enum AnalysisNews {
    /// The search moved on or ended.
    Search(Happened),
    /// Time to look whether a game waits for an engine.
    GamesCheck,
}

impl Conversation for AnalysisTalk {
    type News = AnalysisNews;

    async fn next_news(&mut self) -> AnalysisNews {
        let searching = self.running.is_some();
        tokio::select! {
            happened = next_from(&mut self.running) => AnalysisNews::Search(happened),
            _ = self.games_check.tick(), if searching => AnalysisNews::GamesCheck,
        }
    }

    async fn tell(&mut self, news: AnalysisNews) -> Said {
        let Some(now) = self.running.as_mut() else {
            return Said::Nothing;
        };
        match news {
            AnalysisNews::Search(Happened::Progress) => {
                now.next_message = tokio::time::Instant::now() + MIN_MESSAGE_INTERVAL;
                let last = now.progress.borrow_and_update().clone();
                match last {
                    Some(last) => Said::text(message(&now.id, now.side, &last, None)),
                    None => Said::Nothing,
                }
            }
            AnalysisNews::Search(Happened::Done(done)) => {
                let text = ending_messages(&self.app, now, done);
                self.running = None;
                Said::text(text)
            }
            AnalysisNews::GamesCheck => {
                // Games come first: a long analysis gives its engine to a waiting game.
                if now.ending.is_none()
                    && now.began.get().is_some_and(|t| {
                        self.app.now().saturating_duration_since(*t) >= YIELD_TO_GAMES_AFTER
                    })
                    && self.app.engines.state().1 > 0
                {
                    now.ending = Some(Ending::EngineNeeded);
                    now.stop.stop();
                }
                Said::Nothing
            }
        }
    }

    async fn answer(&mut self, text: &str) -> Said {
        Said::texts(answer(&self.app, self.client, &mut self.running, text).await)
    }
}

/// Carries out one client message; returns the messages that answer it at once.
async fn answer(
    app: &Arc<App>,
    client: std::net::IpAddr,
    running: &mut Option<Running>,
    text: &str,
) -> Vec<String> {
    let request: Request = match read_message(text) {
        Ok(request) => request,
        Err(reply) => return vec![reply],
    };
    match request.kind.as_str() {
        "analyse" => {
            let id = request.id.clone();
            let from_game = request.game.clone();
            let asked = match asked(request) {
                Ok(asked) => asked,
                // A bad request leaves the running analysis alone.
                Err(error) => return vec![error_reply(&id, error)],
            };
            if let Err(error) = check_analysis(app, from_game.as_deref(), &asked.game).await {
                return vec![error_reply(&id, error.into())];
            }
            let mut replies = Vec::new();
            if let Some(old) = running.take() {
                replies.push(finish(app, old, Ending::Replaced).await);
            }
            if asked.game.legal_moves().is_empty() {
                let side = asked.game.side_to_move();
                replies.push(message(
                    &asked.id,
                    side,
                    &Progress::default(),
                    Some(Ending::NoMoves),
                ));
            } else {
                *running = Some(start(app, client, asked));
            }
            replies
        }
        "stop" => {
            let Some(now) = running.as_mut() else {
                // Nothing runs (it may have just ended): nothing to do.
                return Vec::new();
            };
            if now.began.get().is_some() {
                // Its last depth comes with the final message.
                now.ending.get_or_insert(Ending::Stop);
                now.stop.stop();
                Vec::new()
            } else {
                let waiting = running.take();
                match waiting {
                    Some(waiting) => vec![finish(app, waiting, Ending::Stop).await],
                    None => Vec::new(),
                }
            }
        }
        _ => vec![error_reply(
            &request.id,
            ApiError::bad_request("type: expected analyse or stop"),
        )],
    }
}
