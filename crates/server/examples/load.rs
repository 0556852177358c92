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

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

type Error = Box<dyn std::error::Error + Send + Sync>;

struct Options {
    server: Option<String>,
    addr: Option<String>,
    games: usize,
    plies: usize,
    think_ms: u64,
    kill_after_ms: Option<u64>,
    variant: String,
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
            other => return Err(format!("unknown option {other}").into()),
        }
    }
    if options.server.is_none() && options.addr.is_none() {
        return Err("give --server PATH (a bashni binary to start) or --addr HOST:PORT".into());
    }
    Ok(options)
}

/// A started server.
struct Server {
    child: Child,
    addr: String,
}

fn start_server(binary: &str, addr: &str, db: &str) -> Result<Server, Error> {
    let mut child = Command::new(binary)
        .args(["serve", "--addr", addr, "--db", db])
        .args(["--connections-per-address", "1000000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line)?;
    let start = line
        .find("http://")
        .ok_or(format!("unexpected output: {line}"))?
        + 7;
    let end = line[start..].find('/').ok_or("no address")? + start;
    Ok(Server {
        child,
        addr: line[start..end].to_string(),
    })
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
    let mut response = String::new();
    stream.read_to_string(&mut response)?;
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or("no status")?;
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    Ok((status, body))
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
    reconnects: u64,
    refused: u64,
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
}

#[derive(serde::Deserialize)]
struct LiteState {
    moves: Vec<LiteMove>,
    turn: String,
    legal_moves: Vec<LiteMove>,
    result: Option<serde::de::IgnoredAny>,
}

#[derive(serde::Deserialize)]
struct LiteMove {
    text: String,
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

/// Plays one seat until the game has `plies` moves or ends.
async fn play_seat(
    addr: Arc<Mutex<String>>,
    seat: Seat,
    plies: usize,
    think_ms: u64,
    seed: u64,
    record: Arc<Mutex<Record>>,
) -> Result<(), Error> {
    let mut random = Random(seed | 1);
    let mut next_id = 0u64;
    'connect: loop {
        let url = {
            let addr = addr.lock().map_err(|_| "lock")?.clone();
            format!("ws://{addr}/api/games/{}/ws", seat.game)
        };
        let Ok((mut socket, _)) = tokio_tungstenite::connect_async(&url).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let mut pending: Option<(u64, Instant, u64, String)> = None;
        loop {
            let message = match tokio::time::timeout(Duration::from_secs(20), socket.next()).await {
                Ok(Some(Ok(message))) => message,
                _ => {
                    record.lock().map_err(|_| "lock")?.reconnects += 1;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue 'connect;
                }
            };
            let Ok(text) = message.to_text() else {
                continue;
            };
            // Only the fields a player needs are read; the rest is skipped unparsed.
            let incoming: Incoming = serde_json::from_str(text)?;
            match incoming.kind.as_str() {
                "ack" => {
                    if let Some((id, sent, ply, mv)) = pending.take() {
                        if incoming.id == Some(id) {
                            let mut record = record.lock().map_err(|_| "lock")?;
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
                "error" => {
                    pending = None;
                    record.lock().map_err(|_| "lock")?.refused += 1;
                }
                "state" => {
                    let Some(state) = incoming.state else {
                        continue;
                    };
                    let moves: Vec<String> = state.moves.into_iter().map(|m| m.text).collect();
                    record
                        .lock()
                        .map_err(|_| "lock")?
                        .seen
                        .insert(seat.game.clone(), moves.clone());
                    if state.result.is_some() || moves.len() >= plies {
                        return Ok(());
                    }
                    if state.turn != seat.color || pending.is_some() {
                        continue;
                    }
                    let legal = state.legal_moves;
                    if legal.is_empty() {
                        continue;
                    }
                    let choice = legal[(random.next() % legal.len() as u64) as usize]
                        .text
                        .clone();
                    if think_ms > 0 {
                        let wait = random.next() % (2 * think_ms);
                        tokio::time::sleep(Duration::from_millis(wait)).await;
                    }
                    next_id += 1;
                    let message =
                        json!({"type": "move", "id": next_id, "token": seat.token, "move": choice});
                    pending = Some((next_id, Instant::now(), moves.len() as u64, choice));
                    if socket
                        .send(Message::Text(message.to_string().into()))
                        .await
                        .is_err()
                    {
                        continue 'connect;
                    }
                }
                _ => {}
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

fn main() -> Result<(), Error> {
    let options = options()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    let db = std::env::temp_dir().join(format!("bashni-load-{}.sqlite3", std::process::id()));
    let db = db.to_string_lossy().into_owned();
    let mut server = match (&options.addr, &options.server) {
        (None, Some(binary)) => Some(start_server(binary, "127.0.0.1:0", &db)?),
        _ => None,
    };
    let addr = match (&options.addr, &server) {
        (Some(addr), _) => addr.clone(),
        (None, Some(server)) => server.addr.clone(),
        _ => return Err("no server".into()),
    };
    let pid = server.as_ref().map(|s| s.child.id());
    std::thread::sleep(Duration::from_millis(300));
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

    let record = Arc::new(Mutex::new(Record::default()));
    let shared_addr = Arc::new(Mutex::new(addr.clone()));
    let started = Instant::now();
    let games: Vec<String> = seats.iter().step_by(2).map(|s| s.game.clone()).collect();
    let kill_after = options.kill_after_ms;
    let binary = options.server.clone();
    let (rss_playing, restarts) = runtime.block_on(async {
        let mut tasks = Vec::new();
        for (i, seat) in seats.into_iter().enumerate() {
            tasks.push(tokio::spawn(play_seat(
                Arc::clone(&shared_addr),
                seat,
                options.plies,
                options.think_ms,
                0x9e37_79b9_7f4a_7c15 ^ (i as u64 + 1),
                Arc::clone(&record),
            )));
        }
        tokio::time::sleep(Duration::from_millis(2000)).await;
        let rss_playing = pid.and_then(rss_kb);
        let mut restarts = 0;
        if let (Some(after), Some(binary), Some(running)) = (kill_after, &binary, &mut server) {
            tokio::time::sleep(Duration::from_millis(after.saturating_sub(2000))).await;
            running.child.kill().ok();
            running.child.wait().ok();
            let restarted = start_server(binary, &running.addr, &db);
            match restarted {
                Ok(new) => {
                    *running = new;
                    restarts += 1;
                }
                Err(error) => eprintln!("restart failed: {error}"),
            }
        }
        for task in tasks {
            match task.await {
                Ok(Ok(())) => {}
                Ok(Err(error)) => eprintln!("client: {error}"),
                Err(error) => eprintln!("client task: {error}"),
            }
        }
        (rss_playing, restarts)
    });
    let elapsed = started.elapsed();
    let addr = shared_addr.lock().map_err(|_| "lock")?.clone();

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
    println!(
        "acknowledged moves lost: {lost}; games whose PDN differs from what clients saw: {mismatched}"
    );
    if let Some(mut server) = server {
        server.child.kill().ok();
        server.child.wait().ok();
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{db}{suffix}"));
        }
    }
    if lost > 0 || mismatched > 0 {
        return Err("moves were lost or records differ".into());
    }
    Ok(())
}
