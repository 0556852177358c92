//! Load generator: plays many games at once against a `bashni serve` on loopback, each seat
//! a WebSocket client making random legal moves, and measures the time from sending a move
//! to its acknowledgement. At the end it checks that every acknowledged move is stored and
//! that each game's PDN holds exactly the moves its clients saw.
//!
//! ```sh
//! cargo build --release -p bashni
//! cargo run --release -p bashni-server --example load -- \
//!     --server target/release/bashni --games 200 --plies 60 --think-ms 500
//! ```
//!
//! With `--kill-after-ms T` the server is killed (SIGKILL) T ms into the run and started
//! again on the same database and port; the clients reconnect and play on.
//!
//! **Bytes per move pair.** Every byte a seat's client receives is counted: WebSocket text
//! payloads and the bodies of the HTTP answers it fetches (headers and framing are not
//! counted, nor anything it sends). By default a client does what the web page does: on every
//! `{"type":"state"}` message it fetches its seat's own view, `GET /api/games/{id}` with
//! `X-Seat-Token`, 30 ms later (a later state within those 30 ms moves the fetch on, as the
//! page's `refreshSoon` does), and again at once after a reconnection. Each byte is counted
//! under the number of plies played that it brings: a state or update under the length of
//! its move list, the ack of a move under that move's ply + 1, a fetch under the state
//! message that caused it, anything else under the client's current ply count. The figure
//! `bytes per move pair at ply 30` is the mean, over the games that reached 32 plies, of
//! what both seats received under 31 and 32 plies: all that the moves at plies 30 and 31
//! cost the two players.
//!
//! **`--bind-seat`** speaks the seat-bound socket protocol instead (never chosen
//! automatically): after the socket opens the client sends
//! `{"type":"seat","id":N,"token":T}`, the server answers `{"type":"ack","id":N,...,"you":C}`
//! and a full state for the seat, then `{"type":"update","update":U}` after each change, where
//! `U` is a state without `start` whose `moves` are those from ply `U.moves_from` on. A full
//! `state` replaces everything; when `moves_from` is past the client's list it asks for one
//! with `{"type":"state"}`. The client then never fetches over HTTP. A server that refuses the
//! `seat` message stops the run with a message saying so.
//!
//! **`--churn N`** runs another scenario *instead of* the play: N `local` games (one token
//! for both seats) are made over HTTP, each gets 2-6 random legal moves over HTTP and is
//! resigned, 16 at a time. It reports the server's resident memory (VmRSS) and the sizes of
//! the database and its `-wal` file before, right after the last game, and after
//! `--settle-ms` (default 15000) without traffic.
//!
//! When `bashni serve --help` mentions `--new-games-per-minute` or `--requests-per-second`,
//! the server is started with that limit at 1000000000, as one address makes all the load.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

type Error = Box<dyn std::error::Error + Send + Sync>;

/// The move pair the bytes figure is about: the moves at this ply and the next.
const PAIR_PLY: usize = 30;

/// How long the page waits after a socket state before fetching its own view.
const REFRESH_DELAY: Duration = Duration::from_millis(30);

/// Churn games in flight at once.
const CHURN_IN_FLIGHT: usize = 16;

/// Server limits to lift when the server has them: one address makes all the load.
const LIMIT_FLAGS: [&str; 2] = ["--new-games-per-minute", "--requests-per-second"];

struct Options {
    server: Option<String>,
    addr: Option<String>,
    games: usize,
    plies: usize,
    think_ms: u64,
    kill_after_ms: Option<u64>,
    variant: String,
    bind_seat: bool,
    churn: Option<usize>,
    settle_ms: u64,
}

fn options() -> Result<Options, Error> {
    let mut options = Options {
        server: None,
        addr: None,
        games: 200,
        plies: 60,
        think_ms: 500,
        kill_after_ms: None,
        variant: "bashni".into(),
        bind_seat: false,
        churn: None,
        settle_ms: 15000,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--server" => options.server = Some(value()?),
            "--addr" => options.addr = Some(value()?),
            "--games" => options.games = value()?.parse()?,
            "--plies" => options.plies = value()?.parse()?,
            "--think-ms" => options.think_ms = value()?.parse()?,
            "--kill-after-ms" => options.kill_after_ms = Some(value()?.parse()?),
            "--variant" => options.variant = value()?,
            "--bind-seat" => options.bind_seat = true,
            "--churn" => options.churn = Some(value()?.parse()?),
            "--settle-ms" => options.settle_ms = value()?.parse()?,
            other => return Err(format!("unknown option {other}").into()),
        }
    }
    if options.server.is_none() && options.addr.is_none() {
        return Err("give --server PATH (a bashni binary to start) or --addr HOST:PORT".into());
    }
    Ok(options)
}

/// A started server; dropping it kills it.
struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The database files of a server this run started; dropping it removes them.
struct TempDb {
    path: String,
    ours: bool,
}

impl Drop for TempDb {
    fn drop(&mut self) {
        if self.ours {
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", self.path));
            }
        }
    }
}

/// The flags that lift the per-address limits `bashni serve --help` mentions.
fn limit_args(binary: &str) -> Result<Vec<String>, Error> {
    let help = Command::new(binary).args(["serve", "--help"]).output()?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&help.stdout),
        String::from_utf8_lossy(&help.stderr)
    );
    Ok(LIMIT_FLAGS
        .iter()
        .filter(|flag| text.contains(*flag))
        .flat_map(|flag| [flag.to_string(), "1000000000".to_string()])
        .collect())
}

fn start_server(binary: &str, addr: &str, db: &str, extra: &[String]) -> Result<Server, Error> {
    let mut child = Command::new(binary)
        .args(["serve", "--addr", addr, "--db", db])
        .args(["--connections-per-address", "1000000"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line)?;
    let mut server = Server {
        child,
        addr: String::new(),
    };
    let start = line
        .find("http://")
        .ok_or(format!("unexpected output: {line}"))?
        + 7;
    let end = line[start..].find('/').ok_or("no address")? + start;
    server.addr = line[start..end].to_string();
    Ok(server)
}

fn rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// A file's size in kB; 0 when it is missing.
fn file_kb(path: &str) -> u64 {
    std::fs::metadata(path).map(|m| m.len() / 1024).unwrap_or(0)
}

/// The status and body of a whole HTTP/1.1 response (a chunked body is decoded).
fn parse_response(raw: &[u8]) -> Result<(u16, Vec<u8>), Error> {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("no end of headers")?;
    let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or("no status")?;
    let mut body = &raw[split + 4..];
    if !head.contains("transfer-encoding: chunked") {
        return Ok((status, body.to_vec()));
    }
    let mut decoded = Vec::new();
    loop {
        let line_end = body
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or("bad chunk")?;
        let size_text = String::from_utf8_lossy(&body[..line_end]);
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)?;
        body = &body[line_end + 2..];
        if size == 0 {
            return Ok((status, decoded));
        }
        decoded.extend_from_slice(body.get(..size).ok_or("short chunk")?);
        body = body.get(size + 2..).ok_or("short chunk")?;
    }
}

/// One HTTP/1.1 request on its own connection.
fn http(
    addr: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> Result<(u16, String), Error> {
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let token = token
        .map(|t| format!("X-Seat-Token: {t}\r\n"))
        .unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{token}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response)?;
    let (status, body) = parse_response(&response)?;
    Ok((status, String::from_utf8_lossy(&body).into_owned()))
}

/// `GET path` with a seat token, without blocking the runtime: the body's size.
async fn fetch_size(addr: &str, path: &str, token: &str) -> Result<u64, Error> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await?;
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nX-Seat-Token: {token}\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await?;
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut response)).await??;
    let (_, body) = parse_response(&response)?;
    Ok(body.len() as u64)
}

struct Seat {
    game: String,
    color: &'static str,
    token: String,
}

#[derive(Default)]
struct Record {
    latencies_us: Vec<u64>,
    /// Acknowledged moves of each game, by ply.
    acked: BTreeMap<String, BTreeMap<u64, String>>,
    /// The last move list each game's clients saw.
    seen: BTreeMap<String, Vec<String>>,
    /// The most plies each game's clients saw played.
    reached: BTreeMap<String, usize>,
    /// Bytes each game's seats received, by the ply count they are counted under:
    /// WebSocket, HTTP.
    bytes: BTreeMap<String, BTreeMap<usize, [u64; 2]>>,
    reconnects: u64,
    refused: u64,
    /// Full states asked for because an update did not fit the client's move list.
    states_asked: u64,
}

impl Record {
    fn count(&mut self, game: &str, ply: usize, http: bool, bytes: u64) {
        let entry = self.bytes.entry(game.to_string()).or_default();
        entry.entry(ply).or_default()[usize::from(http)] += bytes;
    }
}

fn move_texts(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .map(|m| {
            m.iter()
                .filter_map(|m| m["text"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// A server message, with only what a player needs.
#[derive(serde::Deserialize)]
struct Incoming {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    id: Option<u64>,
    state: Option<LiteState>,
    update: Option<LiteUpdate>,
    you: Option<String>,
    error: Option<String>,
    code: Option<String>,
}

#[derive(serde::Deserialize)]
struct LiteState {
    moves: Vec<LiteMove>,
    turn: String,
    legal_moves: Vec<LiteMove>,
    result: Option<serde::de::IgnoredAny>,
}

/// A state without `start`, whose moves begin at ply `moves_from`.
#[derive(serde::Deserialize)]
struct LiteUpdate {
    moves_from: usize,
    moves: Vec<LiteMove>,
    turn: String,
    legal_moves: Vec<LiteMove>,
    result: Option<serde::de::IgnoredAny>,
}

#[derive(serde::Deserialize)]
struct LiteMove {
    text: String,
}

/// What a client knows of its game.
struct View {
    moves: Vec<String>,
    turn: String,
    legal: Vec<String>,
    over: bool,
}

fn texts(moves: Vec<LiteMove>) -> Vec<String> {
    moves.into_iter().map(|m| m.text).collect()
}

struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// What every seat's client shares.
struct Play {
    addr: Arc<Mutex<String>>,
    plies: usize,
    think_ms: u64,
    bind_seat: bool,
    record: Arc<Mutex<Record>>,
}

impl Play {
    fn record(&self) -> Result<std::sync::MutexGuard<'_, Record>, Error> {
        self.record.lock().map_err(|_| "lock".into())
    }

    fn addr(&self) -> Result<String, Error> {
        Ok(self.addr.lock().map_err(|_| "lock")?.clone())
    }
}

/// Sleeps until `deadline`, or for ever without one.
async fn until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline.into()).await,
        None => std::future::pending().await,
    }
}

/// A move the client will send once it has thought: when, at which ply, which.
type Planned = Option<(Instant, usize, String)>;
/// A move sent and not yet acknowledged: id, when sent, ply, move.
type Pending = Option<(u64, Instant, u64, String)>;

/// Chooses the next move when it is the seat's turn and none is under way.
fn plan(
    view: &View,
    color: &str,
    pending: &Pending,
    planned: &mut Planned,
    random: &mut Random,
    think_ms: u64,
) {
    if view.over || view.turn != color || pending.is_some() || view.legal.is_empty() {
        *planned = None;
        return;
    }
    if matches!(planned, Some((_, ply, _)) if *ply == view.moves.len()) {
        return;
    }
    let choice = view.legal[(random.next() % view.legal.len() as u64) as usize].clone();
    let wait = if think_ms > 0 {
        random.next() % (2 * think_ms)
    } else {
        0
    };
    *planned = Some((
        Instant::now() + Duration::from_millis(wait),
        view.moves.len(),
        choice,
    ));
}

/// Fetches the seat's own view as the page does, counting the body under `ply`.
fn spawn_fetch(play: &Arc<Play>, seat: &Seat, ply: usize) -> tokio::task::JoinHandle<()> {
    let play = Arc::clone(play);
    let game = seat.game.clone();
    let token = seat.token.clone();
    tokio::spawn(async move {
        let Ok(addr) = play.addr() else {
            return;
        };
        // A failed fetch (the server is down) brings nothing, as on the page.
        if let Ok(size) = fetch_size(&addr, &format!("/api/games/{game}"), &token).await
            && let Ok(mut record) = play.record()
        {
            record.count(&game, ply, true, size);
        }
    })
}

enum Event {
    Message(Option<Result<Message, tokio_tungstenite::tungstenite::Error>>),
    TimedOut,
    Refresh,
    Move,
}

/// Plays one seat until the game has `plies` moves or ends.
async fn play_seat(play: Arc<Play>, seat: Seat, seed: u64) -> Result<(), Error> {
    let mut random = Random(seed | 1);
    let mut next_id = 0u64;
    let mut fetches = Vec::new();
    let mut opened_before = false;
    let mut plies_known = 0usize;
    // The page's fetch of its own view: when, and the plies of the state that asked. Its
    // timer, like the page's, outlives a lost connection.
    let mut refresh: Option<(Instant, usize)> = None;
    let outcome: Result<(), Error> = 'connect: loop {
        let url = format!("ws://{}/api/games/{}/ws", play.addr()?, seat.game);
        let Ok((mut socket, _)) = tokio_tungstenite::connect_async(&url).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let mut view: Option<View> = None;
        let mut pending: Pending = None;
        let mut planned: Planned = None;
        let mut seat_request: Option<u64> = None;
        let mut asked_state = false;
        if play.bind_seat {
            next_id += 1;
            seat_request = Some(next_id);
            let message = json!({"type": "seat", "id": next_id, "token": seat.token});
            if socket
                .send(Message::Text(message.to_string().into()))
                .await
                .is_err()
            {
                continue 'connect;
            }
        } else if opened_before {
            // The page fetches its view at once when its socket opens again.
            fetches.push(spawn_fetch(&play, &seat, plies_known));
        }
        opened_before = true;
        loop {
            let event = tokio::select! {
                message = tokio::time::timeout(Duration::from_secs(20), socket.next()) => {
                    message.map_or(Event::TimedOut, Event::Message)
                }
                () = until(refresh.as_ref().map(|r| r.0)) => Event::Refresh,
                () = until(planned.as_ref().map(|p| p.0)) => Event::Move,
            };
            let message = match event {
                Event::Refresh => {
                    if let Some((_, ply)) = refresh.take() {
                        fetches.push(spawn_fetch(&play, &seat, ply));
                    }
                    continue;
                }
                Event::Move => {
                    let Some((_, ply, choice)) = planned.take() else {
                        continue;
                    };
                    next_id += 1;
                    let message =
                        json!({"type": "move", "id": next_id, "token": seat.token, "move": choice});
                    pending = Some((next_id, Instant::now(), ply as u64, choice));
                    if socket
                        .send(Message::Text(message.to_string().into()))
                        .await
                        .is_err()
                    {
                        continue 'connect;
                    }
                    continue;
                }
                Event::Message(Some(Ok(Message::Text(text)))) => text,
                Event::Message(Some(Ok(Message::Close(_))))
                | Event::Message(Some(Err(_)) | None)
                | Event::TimedOut => {
                    play.record()?.reconnects += 1;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue 'connect;
                }
                Event::Message(Some(Ok(_))) => continue,
            };
            let size = message.len() as u64;
            // Only the fields a player needs are read; the rest is skipped unparsed.
            let incoming: Incoming = serde_json::from_str(message.as_str())?;
            let mut counted_at = plies_known;
            let mut changed = false;
            match incoming.kind.as_str() {
                "ack" if seat_request.is_some() && incoming.id == seat_request => {
                    seat_request = None;
                    let you = incoming.you.unwrap_or_default();
                    if you != seat.color && you != "both" {
                        break 'connect Err(format!(
                            "--bind-seat: the {} seat of game {} was bound as {you:?}",
                            seat.color, seat.game
                        )
                        .into());
                    }
                }
                "ack" => {
                    if let Some((id, sent, ply, mv)) = pending.take() {
                        if incoming.id == Some(id) {
                            counted_at = ply as usize + 1;
                            let mut record = play.record()?;
                            record.latencies_us.push(sent.elapsed().as_micros() as u64);
                            record
                                .acked
                                .entry(seat.game.clone())
                                .or_default()
                                .insert(ply, mv);
                        } else {
                            pending = Some((id, sent, ply, mv));
                        }
                    }
                }
                "error" if seat_request.is_some() && incoming.id == seat_request => {
                    break 'connect Err(format!(
                        "--bind-seat: the server refused the seat message of the {} seat of game {} ({}: {})",
                        seat.color,
                        seat.game,
                        incoming.code.unwrap_or_default(),
                        incoming.error.unwrap_or_default()
                    )
                    .into());
                }
                "error" => {
                    if incoming.id.is_none() || pending.as_ref().map(|p| p.0) == incoming.id {
                        pending = None;
                        changed = true;
                    }
                    play.record()?.refused += 1;
                }
                "state" => {
                    if let Some(state) = incoming.state {
                        asked_state = false;
                        let moves = texts(state.moves);
                        counted_at = moves.len();
                        if !play.bind_seat {
                            refresh = Some((Instant::now() + REFRESH_DELAY, moves.len()));
                        }
                        view = Some(View {
                            moves,
                            turn: state.turn,
                            legal: texts(state.legal_moves),
                            over: state.result.is_some(),
                        });
                        changed = true;
                    }
                }
                "update" => {
                    if let Some(update) = incoming.update {
                        match &mut view {
                            Some(view) if update.moves_from <= view.moves.len() => {
                                view.moves.truncate(update.moves_from);
                                view.moves.extend(texts(update.moves));
                                view.turn = update.turn;
                                view.legal = texts(update.legal_moves);
                                view.over = update.result.is_some();
                                counted_at = view.moves.len();
                                changed = true;
                            }
                            _ => {
                                if !asked_state {
                                    asked_state = true;
                                    play.record()?.states_asked += 1;
                                    let ask = json!({"type": "state"}).to_string();
                                    if socket.send(Message::Text(ask.into())).await.is_err() {
                                        continue 'connect;
                                    }
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
            play.record()?.count(&seat.game, counted_at, false, size);
            let Some(view) = view.as_ref().filter(|_| changed) else {
                continue;
            };
            plies_known = view.moves.len();
            {
                let mut record = play.record()?;
                record.seen.insert(seat.game.clone(), view.moves.clone());
                let reached = record.reached.entry(seat.game.clone()).or_default();
                *reached = (*reached).max(view.moves.len());
            }
            if view.over || view.moves.len() >= play.plies {
                if let Some((_, ply)) = refresh.take() {
                    fetches.push(spawn_fetch(&play, &seat, ply));
                }
                break 'connect Ok(());
            }
            plan(
                view,
                seat.color,
                &pending,
                &mut planned,
                &mut random,
                play.think_ms,
            );
        }
    };
    for fetch in fetches {
        fetch.await?;
    }
    outcome
}

/// Checks that the server binds a seat to a socket, before the play in `--bind-seat` mode.
async fn check_seat_binding(addr: &str, seat: &Seat) -> Result<(), Error> {
    let url = format!("ws://{addr}/api/games/{}/ws", seat.game);
    let (mut socket, _) = tokio_tungstenite::connect_async(&url).await?;
    let message = json!({"type": "seat", "id": 1, "token": seat.token});
    socket
        .send(Message::Text(message.to_string().into()))
        .await?;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let message = match tokio::time::timeout_at(deadline, socket.next()).await {
            Ok(Some(Ok(message))) => message,
            Ok(_) => {
                return Err(
                    "--bind-seat: the server closed the socket after the seat message".into(),
                );
            }
            Err(_) => return Err("--bind-seat: no answer to the seat message within 10 s".into()),
        };
        let Message::Text(text) = message else {
            continue;
        };
        let reply: Value = serde_json::from_str(text.as_str())?;
        if reply["id"] != json!(1) {
            continue;
        }
        match reply["type"].as_str() {
            Some("ack") if reply["you"] == json!(seat.color) || reply["you"] == json!("both") => {
                return Ok(());
            }
            Some("ack") => {
                return Err(format!(
                    "--bind-seat: the server acknowledged the seat message without binding the {} seat: {text}",
                    seat.color
                )
                .into());
            }
            Some("error") => {
                return Err(format!(
                    "--bind-seat: this server does not bind seats to sockets: it refused the seat message ({}: {})",
                    reply["code"].as_str().unwrap_or("?"),
                    reply["error"].as_str().unwrap_or("?")
                )
                .into());
            }
            _ => {
                return Err(format!(
                    "--bind-seat: this server does not bind seats to sockets: it answered the seat message with {text}"
                )
                .into());
            }
        }
    }
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index] as f64 / 1000.0
}

/// Makes a `local` game, plays 2-6 random legal moves over HTTP and resigns it.
fn churn_game(addr: &str, variant: &str, random: &mut Random) -> Result<(), Error> {
    let body = json!({"variant": variant, "mode": "local", "name": "churn"});
    let (status, answer) = http(addr, "POST", "/api/games", None, &body.to_string())?;
    if status != 201 {
        return Err(format!("create: {status} {answer}").into());
    }
    let answer: Value = serde_json::from_str(&answer)?;
    let id = answer["id"].as_str().ok_or("no id")?.to_string();
    let token = answer["token"].as_str().ok_or("no token")?.to_string();
    let mut state = answer["state"].clone();
    for _ in 0..2 + random.next() % 5 {
        let legal = state["legal_moves"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() || !state["result"].is_null() {
            break;
        }
        let choice = legal[(random.next() % legal.len() as u64) as usize]["text"]
            .as_str()
            .ok_or("no move text")?
            .to_string();
        let body = json!({"move": choice}).to_string();
        let path = format!("/api/games/{id}/move");
        let (status, answer) = http(addr, "POST", &path, Some(&token), &body)?;
        if status != 200 {
            return Err(format!("move {choice} in {id}: {status} {answer}").into());
        }
        state = serde_json::from_str(&answer)?;
    }
    if !state["result"].is_null() {
        return Ok(());
    }
    let path = format!("/api/games/{id}/resign");
    let (status, answer) = http(addr, "POST", &path, Some(&token), "{}")?;
    if status != 200 {
        return Err(format!("resign {id}: {status} {answer}").into());
    }
    let state: Value = serde_json::from_str(&answer)?;
    if state["result"]["code"] != json!("resignation") {
        return Err(format!("resign {id}: the game did not end: {}", state["result"]).into());
    }
    Ok(())
}

/// The churn scenario: many short games made, played and resigned over HTTP.
fn churn(options: &Options, addr: &str, pid: Option<u32>, db: Option<&str>) -> Result<(), Error> {
    let games = options.churn.unwrap_or(0);
    let measure = || {
        (
            pid.and_then(rss_kb),
            db.map(|db| (file_kb(db), file_kb(&format!("{db}-wal")))),
        )
    };
    let before = measure();
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::<String>::new());
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..CHURN_IN_FLIGHT.min(games) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let mut random = Random(0x2545_f491_4f6c_dd1d ^ (i as u64 + 1));
                    if let Err(error) = churn_game(addr, &options.variant, &mut random)
                        && let Ok(mut failures) = failures.lock()
                    {
                        failures.push(error.to_string());
                    }
                }
            });
        }
    });
    let elapsed = started.elapsed();
    let finished = measure();
    std::thread::sleep(Duration::from_millis(options.settle_ms));
    let settled = measure();
    let failures = failures.into_inner().map_err(|_| "lock")?;
    println!(
        "churn: {games} local games made, played (2-6 moves each) and resigned over HTTP in {:.2} s ({:.0} games/s, {} in flight), {} failed",
        elapsed.as_secs_f64(),
        games as f64 / elapsed.as_secs_f64(),
        CHURN_IN_FLIGHT.min(games),
        failures.len()
    );
    if let Some(first) = failures.first() {
        eprintln!("churn: first failure: {first}");
    }
    let settle = options.settle_ms;
    match (before.0, finished.0, settled.0) {
        (Some(a), Some(b), Some(c)) => println!(
            "churn: server memory (VmRSS) {a} kB before, {b} kB right after the last game, {c} kB after {settle} ms without traffic"
        ),
        _ => println!("churn: server memory unknown (the server was not started by this run)"),
    }
    match (before.1, finished.1, settled.1) {
        (Some((a, wa)), Some((b, wb)), Some((c, wc))) => println!(
            "churn: database file / -wal {a} / {wa} kB before, {b} / {wb} kB right after the last game, {c} / {wc} kB after {settle} ms without traffic"
        ),
        _ => println!("churn: database sizes unknown (the server was not started by this run)"),
    }
    if !failures.is_empty() {
        return Err(format!("{} churn games failed", failures.len()).into());
    }
    Ok(())
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("load: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Error> {
    let options = options()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    let db = std::env::temp_dir().join(format!("bashni-load-{}.sqlite3", std::process::id()));
    let db = db.to_string_lossy().into_owned();
    let (binary, limits) = match (&options.addr, &options.server) {
        (None, Some(binary)) => (Some(binary.clone()), limit_args(binary)?),
        _ => (None, Vec::new()),
    };
    if !limits.is_empty() {
        println!("server limits lifted: {}", limits.join(" "));
    }
    // Declared before the server, so it is dropped (its files removed) after the server.
    let _db_files = TempDb {
        path: db.clone(),
        ours: binary.is_some(),
    };
    let mut server = match &binary {
        Some(binary) => Some(start_server(binary, "127.0.0.1:0", &db, &limits)?),
        None => None,
    };
    let addr = match (&options.addr, &server) {
        (Some(addr), _) => addr.clone(),
        (None, Some(server)) => server.addr.clone(),
        _ => return Err("no server".into()),
    };
    let pid = server.as_ref().map(|s| s.child.id());
    std::thread::sleep(Duration::from_millis(300));
    if options.churn.is_some() {
        return churn(&options, &addr, pid, binary.as_ref().map(|_| db.as_str()));
    }
    let rss_before = pid.and_then(rss_kb);

    let mut seats = Vec::new();
    let created = Instant::now();
    for _ in 0..options.games {
        let body = json!({"variant": options.variant, "mode": "friend", "name": "load"});
        let (status, answer) = http(&addr, "POST", "/api/games", None, &body.to_string())?;
        if status != 201 {
            return Err(format!("create: {status} {answer}").into());
        }
        let answer: Value = serde_json::from_str(&answer)?;
        let id = answer["id"].as_str().ok_or("no id")?.to_string();
        let invite = answer["invite_url"]
            .as_str()
            .and_then(|u| u.rsplit('/').next())
            .ok_or("no invite")?
            .to_string();
        let (status, joined) = http(
            &addr,
            "POST",
            &format!("/api/games/{id}/join"),
            None,
            &json!({"invite": invite, "name": "load"}).to_string(),
        )?;
        if status != 200 {
            return Err(format!("join: {status} {joined}").into());
        }
        let joined: Value = serde_json::from_str(&joined)?;
        seats.push(Seat {
            game: id.clone(),
            color: "white",
            token: answer["token"].as_str().ok_or("no token")?.to_string(),
        });
        seats.push(Seat {
            game: id,
            color: "black",
            token: joined["token"].as_str().ok_or("no token")?.to_string(),
        });
    }
    let rss_games = pid.and_then(rss_kb);
    println!(
        "{} games made in {:.2} s",
        options.games,
        created.elapsed().as_secs_f64()
    );
    if options.bind_seat
        && let Some(first) = seats.first()
    {
        runtime.block_on(check_seat_binding(&addr, first))?;
    }

    let record = Arc::new(Mutex::new(Record::default()));
    let shared_addr = Arc::new(Mutex::new(addr.clone()));
    let play = Arc::new(Play {
        addr: Arc::clone(&shared_addr),
        plies: options.plies,
        think_ms: options.think_ms,
        bind_seat: options.bind_seat,
        record: Arc::clone(&record),
    });
    let started = Instant::now();
    let games: Vec<String> = seats.iter().step_by(2).map(|s| s.game.clone()).collect();
    let kill_after = options.kill_after_ms;
    let (rss_playing, restarts, failures) = runtime.block_on(async {
        let mut tasks = Vec::new();
        for (i, seat) in seats.into_iter().enumerate() {
            tasks.push(tokio::spawn(play_seat(
                Arc::clone(&play),
                seat,
                0x9e37_79b9_7f4a_7c15 ^ (i as u64 + 1),
            )));
        }
        tokio::time::sleep(Duration::from_millis(2000)).await;
        let rss_playing = pid.and_then(rss_kb);
        let mut restarts = 0;
        if let (Some(after), Some(binary), Some(running)) = (kill_after, &binary, &mut server) {
            tokio::time::sleep(Duration::from_millis(after.saturating_sub(2000))).await;
            running.child.kill().ok();
            running.child.wait().ok();
            let restarted = start_server(binary, &running.addr, &db, &limits);
            match restarted {
                Ok(new) => {
                    *running = new;
                    restarts += 1;
                }
                Err(error) => eprintln!("restart failed: {error}"),
            }
        }
        // Client failures, each message once with how many clients had it.
        let mut failures = BTreeMap::<String, usize>::new();
        for task in tasks {
            let failure = match task.await {
                Ok(Ok(())) => continue,
                Ok(Err(error)) => format!("client: {error}"),
                Err(error) => format!("client task: {error}"),
            };
            *failures.entry(failure).or_default() += 1;
        }
        (rss_playing, restarts, failures)
    });
    let elapsed = started.elapsed();
    let addr = shared_addr.lock().map_err(|_| "lock")?.clone();
    for (failure, clients) in &failures {
        match clients {
            1 => eprintln!("{failure}"),
            n => eprintln!("{failure} ({n} clients)"),
        }
    }

    // Every acknowledged move is stored, and the PDN holds what the clients saw.
    let record = record.lock().map_err(|_| "lock")?;
    let mut lost = 0usize;
    let mut mismatched = 0usize;
    for id in &games {
        let (_, state) = http(&addr, "GET", &format!("/api/games/{id}"), None, "")?;
        let stored = move_texts(&serde_json::from_str(&state)?);
        if let Some(acked) = record.acked.get(id) {
            for (ply, mv) in acked {
                if stored.get(*ply as usize) != Some(mv) {
                    lost += 1;
                }
            }
        }
        let (_, pdn) = http(&addr, "GET", &format!("/api/games/{id}/pdn"), None, "")?;
        let tokens: Vec<&str> = pdn
            .lines()
            .filter(|l| !l.starts_with('['))
            .flat_map(|l| l.split_whitespace())
            .filter(|t| t.contains('-') || t.contains(':'))
            .filter(|t| !matches!(*t, "1-0" | "0-1" | "1/2-1/2"))
            .collect();
        let seen = record.seen.get(id).cloned().unwrap_or_default();
        if tokens != seen.iter().map(String::as_str).collect::<Vec<_>>() || stored != seen {
            if mismatched == 0 {
                eprintln!("game {id}: PDN {tokens:?}, stored {stored:?}, seen {seen:?}");
            }
            mismatched += 1;
        }
    }
    let mut latencies = record.latencies_us.clone();
    latencies.sort_unstable();
    let acked: usize = record.acked.values().map(BTreeMap::len).sum();
    println!(
        "{} games, {} moves acknowledged in {:.1} s ({:.0} moves/s), {} refused, {} reconnects, {} restarts",
        games.len(),
        acked,
        elapsed.as_secs_f64(),
        acked as f64 / elapsed.as_secs_f64(),
        record.refused,
        record.reconnects,
        restarts
    );
    println!(
        "move to acknowledgement: median {:.2} ms, 99th percentile {:.2} ms, max {:.2} ms",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0)
    );
    if let (Some(before), Some(games_kb), Some(playing)) = (rss_before, rss_games, rss_playing) {
        let n = games.len().max(1) as f64;
        println!(
            "server memory: {before} kB idle, {games_kb} kB with the games ({:.1} kB per game), {playing} kB while playing with 2 sockets per game ({:.1} kB per game)",
            (games_kb.saturating_sub(before)) as f64 / n,
            (playing.saturating_sub(before)) as f64 / n
        );
    }
    // What both seats received while their game went from PAIR_PLY to PAIR_PLY + 2 plies.
    let mut pair_bytes = [0u64; 2];
    let mut counted = 0u64;
    for id in &games {
        if record.reached.get(id).copied().unwrap_or(0) < PAIR_PLY + 2 {
            continue;
        }
        counted += 1;
        if let Some(bytes) = record.bytes.get(id) {
            for ply in PAIR_PLY + 1..=PAIR_PLY + 2 {
                let [ws, http] = bytes.get(&ply).copied().unwrap_or_default();
                pair_bytes[0] += ws;
                pair_bytes[1] += http;
            }
        }
    }
    let how = if options.bind_seat {
        "seats bound to their sockets, no HTTP"
    } else {
        "each state re-fetched over HTTP as the page does"
    };
    if counted > 0 {
        let mean = |bytes: u64| bytes as f64 / counted as f64;
        println!(
            "bytes per move pair at ply {PAIR_PLY}: {:.0} (both seats, WebSocket + HTTP: {:.0} + {:.0}; {how}), mean over the {counted} of {} games that reached ply {}",
            mean(pair_bytes[0] + pair_bytes[1]),
            mean(pair_bytes[0]),
            mean(pair_bytes[1]),
            games.len(),
            PAIR_PLY + 2
        );
    } else {
        println!(
            "bytes per move pair at ply {PAIR_PLY}: none of the {} games reached ply {} (--plies {})",
            games.len(),
            PAIR_PLY + 2,
            options.plies
        );
    }
    if options.bind_seat {
        println!(
            "full states asked for after an update that did not fit: {}",
            record.states_asked
        );
    }
    println!(
        "acknowledged moves lost: {lost}; games whose PDN differs from what clients saw: {mismatched}"
    );
    drop(server);
    if lost > 0 || mismatched > 0 {
        return Err("moves were lost or records differ".into());
    }
    let failed: usize = failures.values().sum();
    if failed > 0 {
        return Err(format!("{failed} clients failed").into());
    }
    Ok(())
}
