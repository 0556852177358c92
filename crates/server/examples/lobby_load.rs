//! Lobby load: opens many lobby sockets (`GET /api/lobby/ws`) to `bashni serve` on loopback,
//! has some of them post and cancel seeks at a steady rate for a while, and measures, for
//! every seek change, the time from the message that made it (a `seek` or a `cancel` sent) to
//! each socket's receiving the change (`seek_added`, `seek_removed`). It prints the median,
//! 99th percentile and largest of those times and how many changes a socket never received
//! (there must be none: the run fails otherwise).
//!
//! ```sh
//! cargo build --release -p bashni -p bashni-server --example lobby_load --bins
//! target/release/examples/lobby_load --server target/release/bashni \
//!     --sockets 1000 --posters 50 --rate 20 --duration-ms 20000
//! ```
//!
//! `--server PATH` starts the server on a temporary SQLite file, with the limits per address
//! lifted (all the sockets come from one address): `--connections-per-address`, and
//! `--new-games-per-minute`, `--requests-per-second` and `--open-requests-per-address` where
//! `bashni serve --help` names
//! them (a seek posted counts as a new game, a socket opened as a request). With `--addr
//! HOST:PORT` the server is one already running: start it with those limits raised. The
//! machine must allow two open files per socket (`ulimit -n`).
//!
//! `--instances N --db postgres://...` starts N servers on one PostgreSQL database, and
//! `--balancer` puts HAProxy (`--haproxy PATH`) in front of them: round robin, no sticky
//! sessions, so the sockets are spread over the servers and every change made on one server
//! must reach the sockets of the others. `scripts/cluster-load.sh` runs it so with
//! `LOAD=target/release/examples/lobby_load` (three instances; `--instances 2` after it makes
//! two). The servers and HAProxy are stopped on every way out, a signal included.
//!
//! A change's key is the seek's name for a `seek_added` (each post has a name of its own)
//! and the seek's id for a `seek_removed`. A socket that falls too far behind is sent the
//! whole list again (`seeks`); those are counted, and the changes such a socket did not get
//! one by one count as missed.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};
use tokio_tungstenite::tungstenite::Message;

type Error = Box<dyn std::error::Error + Send + Sync>;

/// Server limits to lift when the server has them: one address makes all the load.
const LIMIT_FLAGS: [&str; 3] = [
    "--new-games-per-minute",
    "--requests-per-second",
    "--open-requests-per-address",
];

/// Sockets being opened at once.
const OPENING_AT_ONCE: usize = 64;

struct Options {
    server: Option<String>,
    addr: Option<String>,
    sockets: usize,
    posters: usize,
    rate: f64,
    duration_ms: u64,
    settle_ms: u64,
    instances: usize,
    db: Option<String>,
    balancer: bool,
    haproxy: Option<String>,
}

fn options() -> Result<Options, Error> {
    let mut options = Options {
        server: None,
        addr: None,
        sockets: 1000,
        posters: 50,
        rate: 20.0,
        duration_ms: 20_000,
        settle_ms: 2000,
        instances: 1,
        db: None,
        balancer: false,
        haproxy: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--server" => options.server = Some(value()?),
            "--addr" => options.addr = Some(value()?),
            "--sockets" => options.sockets = value()?.parse()?,
            "--posters" => options.posters = value()?.parse()?,
            "--rate" => options.rate = value()?.parse()?,
            "--duration-ms" => options.duration_ms = value()?.parse()?,
            "--settle-ms" => options.settle_ms = value()?.parse()?,
            "--instances" => options.instances = value()?.parse()?,
            "--db" => options.db = Some(value()?),
            "--balancer" => options.balancer = true,
            "--haproxy" => options.haproxy = Some(value()?),
            other => return Err(format!("unknown option {other}").into()),
        }
    }
    if options.server.is_none() == options.addr.is_none() {
        return Err("give --server PATH (a bashni binary to start) or --addr HOST:PORT".into());
    }
    if options.posters == 0 || options.posters > options.sockets {
        return Err("--posters must be from 1 to --sockets".into());
    }
    if !(options.rate > 0.0 && options.rate <= 1000.0) {
        return Err("--rate: changes per second, more than 0 and at most 1000".into());
    }
    if options.instances == 0 {
        return Err("--instances must be at least 1".into());
    }
    let cluster = options.instances > 1 || options.db.is_some() || options.balancer;
    if cluster && options.server.is_none() {
        return Err(
            "--instances, --db and --balancer are about servers this run starts: \
                    give --server PATH"
                .into(),
        );
    }
    let shared = options
        .db
        .as_deref()
        .is_some_and(|db| db.starts_with("postgres://") || db.starts_with("postgresql://"));
    if options.instances > 1 && !shared {
        return Err(
            "--instances 2 or more needs --db postgres://... (a database they share)".into(),
        );
    }
    Ok(options)
}

/// The children of this run, killed when a signal ends it (no destructor runs then).
static CHILDREN: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn kill_children() {
    let pids = std::mem::take(&mut *CHILDREN.lock().unwrap_or_else(|e| e.into_inner()));
    for pid in pids {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .stderr(Stdio::null())
            .status();
    }
}

/// Stops every child when SIGINT, SIGTERM or SIGHUP arrives.
async fn stop_on_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut int), Ok(mut term), Ok(mut hup)) = (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
        signal(SignalKind::hangup()),
    ) else {
        eprintln!("lobby_load: cannot watch for signals; a signal may leave servers running");
        return;
    };
    let code = tokio::select! {
        _ = int.recv() => 130,
        _ = term.recv() => 143,
        _ = hup.recv() => 129,
    };
    eprintln!("lobby_load: stopped by a signal; stopping the servers this run started");
    kill_children();
    std::process::exit(code);
}

/// A child process; dropping it kills it and waits for it.
struct Kid(Child);

impl Kid {
    fn new(child: Child) -> Kid {
        CHILDREN
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(child.id());
        Kid(child)
    }
}

impl Drop for Kid {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
        let pid = self.0.id();
        CHILDREN
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|p| *p != pid);
    }
}

struct Server {
    kid: Kid,
    addr: String,
}

/// The flags that lift the per-address limits `bashni serve --help` mentions.
fn limit_args(binary: &str) -> Result<Vec<String>, Error> {
    let help = Command::new(binary).args(["serve", "--help"]).output()?;
    let text = String::from_utf8_lossy(&help.stdout).into_owned();
    Ok(LIMIT_FLAGS
        .iter()
        .filter(|flag| text.contains(*flag))
        .flat_map(|flag| [flag.to_string(), "1000000000".to_string()])
        .collect())
}

fn start_server(binary: &str, db: &str, extra: &[String]) -> Result<Server, Error> {
    let child = Command::new(binary)
        .args(["serve", "--addr", "127.0.0.1:0", "--db", db])
        .args(["--connections-per-address", "1000000", "--log", "warn"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()?;
    let mut kid = Kid::new(child);
    let stdout = kid.0.stdout.take().ok_or("no stdout")?;
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line)?;
    let start = line
        .find("http://")
        .ok_or(format!("unexpected output: {line}"))?
        + 7;
    let end = line[start..].find('/').ok_or("no address")? + start;
    Ok(Server {
        kid,
        addr: line[start..end].to_string(),
    })
}

/// The status of `GET path` on its own connection.
fn get_status(addr: &str, path: &str) -> Result<u16, Error> {
    let mut stream = std::net::TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes())?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response)?;
    String::from_utf8_lossy(&response)
        .split_whitespace()
        .nth(1)
        .and_then(|status| status.parse().ok())
        .ok_or_else(|| "no status".into())
}

/// HAProxy in front of the servers; dropping it stops it and removes its configuration.
struct Balancer {
    _kid: Kid,
    addr: String,
    dir: PathBuf,
}

impl Drop for Balancer {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn start_balancer(
    binary: &str,
    servers: &[Server],
    max_connections: usize,
) -> Result<Balancer, Error> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let mut config = format!(
        "global
    maxconn {max_connections}
    no strict-limits

defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h

frontend lobby
    bind 127.0.0.1:{port}
    maxconn {max_connections}
    default_backend servers

backend servers
    balance roundrobin
    option httpchk GET /api/health
"
    );
    for (i, server) in servers.iter().enumerate() {
        config.push_str(&format!(
            "    server s{i} {} check inter 500 fall 2 rise 1\n",
            server.addr
        ));
    }
    let dir = std::env::temp_dir().join(format!("bashni-lobby-haproxy-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let file = dir.join("haproxy.cfg");
    std::fs::write(&file, config)?;
    let child = Command::new(binary)
        .arg("-f")
        .arg(&file)
        .arg("-db")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start {binary} (--haproxy PATH): {e}"))?;
    let balancer = Balancer {
        _kid: Kid::new(child),
        addr: format!("127.0.0.1:{port}"),
        dir,
    };
    // Ready when one health request per server in a row goes through.
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut in_a_row = 0;
    while in_a_row < servers.len() {
        if Instant::now() > deadline {
            return Err("haproxy did not pass requests to the servers within 10 s".into());
        }
        match get_status(&balancer.addr, "/api/health") {
            Ok(200) => in_a_row += 1,
            _ => {
                in_a_row = 0;
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
    Ok(balancer)
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

/// What a change is known by: the name of a posted seek, the id of a cancelled one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Change {
    Added(String),
    Removed(String),
}

/// What the run shares between its sockets.
#[derive(Default)]
struct Shared {
    /// When each change was asked for (its message sent).
    asked: Mutex<HashMap<Change, Instant>>,
    /// Time from a post to its acknowledgement, in µs.
    acks_us: Mutex<Vec<u64>>,
    /// Refusals the posters got, by code.
    refused: Mutex<HashMap<String, usize>>,
    /// Toggles left out because the poster's previous message was not answered yet.
    skipped: AtomicUsize,
}

/// What one socket saw.
#[derive(Default)]
struct Seen {
    /// Each change it received and when.
    received: Vec<(Change, Instant)>,
    /// Whole lists received after the first (the socket fell behind).
    lists: usize,
}

/// A poster's message waiting for its answer.
struct Pending {
    id: u64,
    change: Change,
    sent: Instant,
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn open(addr: &str) -> Result<Socket, Error> {
    let (mut socket, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/lobby/ws"))
        .await
        .map_err(|e| format!("cannot open a lobby socket: {e}"))?;
    // The first message is the list.
    loop {
        let message = tokio::time::timeout(Duration::from_secs(30), socket.next())
            .await?
            .ok_or("the socket closed before the list")??;
        if let Message::Text(text) = message {
            let value: Value = serde_json::from_str(&text)?;
            if value["type"] == "seeks" {
                return Ok(socket);
            }
            return Err(format!("the first message is not the list: {value}").into());
        }
    }
}

/// One lobby socket: records every change it receives; a poster (with `toggles`) posts a
/// seek or cancels the one it has on each toggle.
async fn run_socket(
    index: usize,
    mut socket: Socket,
    mut toggles: Option<mpsc::Receiver<()>>,
    shared: Arc<Shared>,
    mut stop: watch::Receiver<bool>,
) -> Result<Seen, Error> {
    let mut seen = Seen::default();
    let mut open_seek: Option<String> = None;
    let mut pending: Option<Pending> = None;
    let mut next_id = 0u64;
    let mut posted = 0u64;
    loop {
        let toggle = async {
            match toggles.as_mut() {
                Some(toggles) => toggles.recv().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = stop.changed() => break,
            Some(()) = toggle => {
                if pending.is_some() {
                    shared.skipped.fetch_add(1, Ordering::Relaxed);
                    continue;
                }
                next_id += 1;
                let (change, message) = match open_seek.take() {
                    Some(seek) => (
                        Change::Removed(seek.clone()),
                        json!({"type": "cancel", "id": next_id, "seek": seek}),
                    ),
                    None => {
                        posted += 1;
                        let name = format!("p{index}-{posted}");
                        let message = json!({
                            "type": "seek", "id": next_id, "variant": "bashni",
                            "clock": {"minutes": 5, "increment_s": 3}, "name": name,
                        });
                        (Change::Added(name), message)
                    }
                };
                let sent = Instant::now();
                shared
                    .asked
                    .lock()
                    .map_err(|_| "lock")?
                    .insert(change.clone(), sent);
                socket.send(Message::Text(message.to_string().into())).await?;
                pending = Some(Pending { id: next_id, change, sent });
            }
            message = socket.next() => {
                let message = message.ok_or("the server closed the socket")??;
                let Message::Text(text) = message else { continue };
                let at = Instant::now();
                let value: Value = serde_json::from_str(&text)?;
                match value["type"].as_str() {
                    Some("seek_added") => {
                        let name = value["seek"]["name"].as_str().unwrap_or_default();
                        seen.received.push((Change::Added(name.to_string()), at));
                    }
                    Some("seek_removed") => {
                        let id = value["seek"].as_str().unwrap_or_default();
                        seen.received.push((Change::Removed(id.to_string()), at));
                    }
                    Some("seeks") => seen.lists += 1,
                    Some(kind @ ("ack" | "error")) => {
                        let Some(asked) = pending.take_if(|p| value["id"] == p.id) else {
                            return Err(format!("an answer to nothing asked: {value}").into());
                        };
                        if kind == "error" {
                            // Not made: not a change to wait for.
                            shared.asked.lock().map_err(|_| "lock")?.remove(&asked.change);
                            let code = value["code"].as_str().unwrap_or("?").to_string();
                            *shared.refused.lock().map_err(|_| "lock")?.entry(code).or_default() += 1;
                        } else if let Change::Added(_) = asked.change {
                            open_seek = value["seek"].as_str().map(String::from);
                            let us = asked.sent.elapsed().as_micros() as u64;
                            shared.acks_us.lock().map_err(|_| "lock")?.push(us);
                        }
                    }
                    _ => return Err(format!("unexpected message: {value}").into()),
                }
            }
        }
    }
    let _ = socket.close(None).await;
    Ok(seen)
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index] as f64 / 1000.0
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("lobby_load: {error}");
            kill_children();
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
    runtime.spawn(stop_on_signal());
    let own_db =
        std::env::temp_dir().join(format!("bashni-lobby-load-{}.sqlite3", std::process::id()));
    let db = options
        .db
        .clone()
        .unwrap_or_else(|| own_db.to_string_lossy().into_owned());
    let mut servers = Vec::new();
    if let Some(binary) = &options.server {
        let limits = limit_args(binary)?;
        if !limits.is_empty() {
            println!("server limits lifted: {}", limits.join(" "));
        }
        for _ in 0..options.instances {
            servers.push(start_server(binary, &db, &limits)?);
        }
        let list: Vec<String> = servers.iter().map(|s| s.addr.clone()).collect();
        println!(
            "{} server(s) at {} on {}",
            servers.len(),
            list.join(", "),
            shown(&db)
        );
    }
    let balancer = if options.balancer {
        let haproxy = options.haproxy.clone().unwrap_or_else(|| {
            if Command::new("haproxy").arg("-v").output().is_ok() {
                "haproxy".into()
            } else {
                "/usr/sbin/haproxy".into()
            }
        });
        let balancer = start_balancer(&haproxy, &servers, 2 * options.sockets + 256)?;
        println!("balancer: haproxy at {}, round robin", balancer.addr);
        Some(balancer)
    } else {
        None
    };
    let targets: Vec<String> = match (&options.addr, &balancer) {
        (Some(addr), _) => vec![addr.clone()],
        (None, Some(balancer)) => vec![balancer.addr.clone()],
        (None, None) => servers.iter().map(|s| s.addr.clone()).collect(),
    };
    let pids: Vec<u32> = servers.iter().map(|s| s.kid.0.id()).collect();
    let rss = || -> Option<u64> { pids.iter().map(|pid| rss_kb(*pid)).sum() };
    let rss_idle = rss();

    let shared = Arc::new(Shared::default());
    let (stop_tx, stop) = watch::channel(false);
    let result = runtime.block_on(async {
        // Open the sockets, a few at a time.
        let opening = Instant::now();
        let mut opened = Vec::with_capacity(options.sockets);
        let mut batch = futures_util::stream::iter((0..options.sockets).map(|i| {
            let addr = targets[i % targets.len()].clone();
            async move { open(&addr).await }
        }))
        .buffered(OPENING_AT_ONCE);
        while let Some(socket) = batch.next().await {
            opened.push(socket?);
        }
        println!(
            "{} lobby sockets open in {:.2} s",
            opened.len(),
            opening.elapsed().as_secs_f64()
        );
        let rss_open = rss();
        let mut posters = Vec::new();
        let mut tasks = Vec::new();
        for (index, socket) in opened.into_iter().enumerate() {
            // The posters are spread over the sockets (and so over the servers).
            let toggles = if index % (options.sockets / options.posters) == 0
                && posters.len() < options.posters
            {
                let (tx, rx) = mpsc::channel(4);
                posters.push(tx);
                Some(rx)
            } else {
                None
            };
            tasks.push(tokio::spawn(run_socket(
                index,
                socket,
                toggles,
                Arc::clone(&shared),
                stop.clone(),
            )));
        }
        // The changes, at a steady rate, each poster in turn.
        let started = Instant::now();
        let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / options.rate));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut turn = 0usize;
        while started.elapsed() < Duration::from_millis(options.duration_ms) {
            tick.tick().await;
            if posters[turn % posters.len()].try_send(()).is_err() {
                shared.skipped.fetch_add(1, Ordering::Relaxed);
            }
            turn += 1;
        }
        let changing = started.elapsed();
        tokio::time::sleep(Duration::from_millis(options.settle_ms)).await;
        let rss_busy = rss();
        let _ = stop_tx.send(true);
        let mut seen = Vec::new();
        let mut failures = Vec::new();
        for task in tasks {
            match task.await {
                Ok(Ok(socket)) => seen.push(socket),
                Ok(Err(error)) => failures.push(error.to_string()),
                Err(error) => failures.push(error.to_string()),
            }
        }
        Ok::<_, Error>((seen, failures, changing, rss_open, rss_busy))
    });
    drop(balancer);
    drop(servers);
    let _ = std::fs::remove_file(&own_db);
    for suffix in ["-wal", "-shm"] {
        let mut name = own_db.as_os_str().to_owned();
        name.push(suffix);
        let _ = std::fs::remove_file(name);
    }
    let (seen, failures, changing, rss_open, rss_busy) = result?;

    // Every change against every socket.
    let asked = shared.asked.lock().map_err(|_| "lock")?;
    let mut latencies = Vec::new();
    let mut missed = 0usize;
    let mut late = 0usize;
    let mut receipts: HashMap<&Change, usize> = HashMap::new();
    for socket in &seen {
        let mut first: HashMap<&Change, Instant> = HashMap::new();
        for (change, at) in &socket.received {
            first.entry(change).or_insert(*at);
        }
        for (change, at) in first {
            match asked.get(change) {
                Some(sent) => {
                    latencies.push(at.saturating_duration_since(*sent).as_micros() as u64);
                    *receipts.entry(change).or_default() += 1;
                }
                // Not asked for in this run (a seek removed as its poster closed).
                None => late += 1,
            }
        }
    }
    for change in asked.keys() {
        missed += seen.len() - receipts.get(change).copied().unwrap_or(0);
    }
    latencies.sort_unstable();
    let mut acks = shared.acks_us.lock().map_err(|_| "lock")?.clone();
    acks.sort_unstable();
    let added = asked
        .keys()
        .filter(|c| matches!(c, Change::Added(_)))
        .count();
    println!(
        "{} seek changes ({} posted, {} cancelled) in {:.1} s ({:.1}/s) by {} posters, {} left out (poster still waiting)",
        asked.len(),
        added,
        asked.len() - added,
        changing.as_secs_f64(),
        asked.len() as f64 / changing.as_secs_f64(),
        options.posters,
        shared.skipped.load(Ordering::Relaxed)
    );
    println!(
        "change to each socket ({} deliveries): median {:.2} ms, 99th percentile {:.2} ms, max {:.2} ms",
        latencies.len(),
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0)
    );
    println!(
        "seek posted to acknowledged: median {:.2} ms, 99th percentile {:.2} ms, max {:.2} ms",
        percentile(&acks, 0.5),
        percentile(&acks, 0.99),
        percentile(&acks, 1.0)
    );
    let lists: usize = seen.iter().map(|s| s.lists).sum();
    println!(
        "missed updates: {missed} (of {} changes x {} sockets); whole lists resent to sockets behind: {lists}; changes seen that the run did not make (posters' seeks leaving as they closed): {late}",
        asked.len(),
        seen.len()
    );
    if let (Some(idle), Some(open), Some(busy)) = (rss_idle, rss_open, rss_busy) {
        println!(
            "server memory: {idle} kB idle, {open} kB with the sockets open ({:.1} kB per socket), {busy} kB at the end",
            open.saturating_sub(idle) as f64 / options.sockets as f64
        );
    }
    let refused = shared.refused.lock().map_err(|_| "lock")?;
    if !refused.is_empty() {
        println!("refused: {refused:?}");
    }
    for failure in failures.iter().take(5) {
        eprintln!("socket: {failure}");
    }
    if !failures.is_empty() {
        return Err(format!("{} sockets failed", failures.len()).into());
    }
    if missed > 0 {
        return Err(format!("{missed} updates were missed").into());
    }
    if asked.is_empty() {
        return Err("no seek changed: nothing was measured".into());
    }
    Ok(())
}

/// A database address as it may be shown: without a password.
fn shown(db: &str) -> String {
    match (db.find("://"), db.find('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let user_end = db[scheme + 3..at].find(':').map_or(at, |c| scheme + 3 + c);
            format!("{}{}", &db[..user_end], &db[at..])
        }
        _ => db.to_string(),
    }
}
