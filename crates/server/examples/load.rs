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
//! **Several instances.** `--instances N --db URL` starts N servers on free loopback ports,
//! all on the database `URL` (a PostgreSQL database, `postgres://...`, which they share; with
//! one instance an SQLite file will do). Without `--balancer` the games are spread over the
//! instances round-robin (both seats of a game on the same one), and a client whose socket
//! closes reconnects to the next instance. `--balancer` puts HAProxy (`--haproxy PATH`,
//! default `haproxy` on the `PATH` or `/usr/sbin/haproxy`) in front of them, run in the
//! foreground with a generated configuration as `docs/deploy.md` gives it: each game's
//! requests and sockets (`/api/games/{id}/...`) go to the game's owner, by a consistent hash
//! of the path, the rest round robin; health checks on `GET /api/health` every 500 ms; every
//! request and socket of the clients then goes
//! through it, and each WebSocket answer names the instance behind it, so the sockets can be
//! counted per instance. `--kill-instance-after-ms T` kills instance 0 (SIGKILL) T ms into
//! the run and does not start it again: its clients reconnect and play on elsewhere. Besides
//! the checks above, the run counts the games whose clients were told of two different moves
//! at one ply (by acknowledgements, states or updates), which must not happen. Every child
//! (servers, HAProxy) is stopped on every way out, a signal (SIGINT, SIGTERM, SIGHUP) included.
//! `scripts/cluster-load.sh` runs it with three instances and the balancer on a throw-away
//! PostgreSQL.
//!
//! **Cost.** The run reports the CPU time used while the games are played by the servers, the
//! balancer and, with `--database-pid PID` (PostgreSQL's main process; the environment's
//! `BASHNI_LOAD_DATABASE_PID` by default, as `scripts/cluster-load.sh` sets it), the database server
//! with its backends (from `/proc/PID/stat`), and the whole machine's busy time (the clients
//! too, from `/proc/stat`), each also per 1000 acknowledged moves; and with a server it
//! started on SQLite, the largest size of the `-wal` file while playing (sampled every 100 ms).
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
//! `U` holds the fields that changed and the moves from ply `U.moves_from` on. A full
//! `state` replaces everything; when `moves_from` is past the client's list it asks for one
//! with `{"type":"state"}`. The client then never fetches over HTTP. A server that refuses the
//! `seat` message stops the run with a message saying so.
//!
//! **`--timeline`** also prints, for each second of the play, how many of the moves sent in
//! it were acknowledged and their median, 99th percentile and longest time to the
//! acknowledgement (where in the run the slow ones were: the opening of all the sockets at
//! once, a checkpoint, the end).
//!
//! **Memory** is measured while playing once every seat's socket has opened, 1 s later (at
//! least 2 s into the play, at most 30 s).
//!
//! **`--churn N`** runs another scenario *instead of* the play: N `local` games (one token
//! for both seats) are made over HTTP, each gets 2-6 random legal moves over HTTP and is
//! resigned, 16 at a time. It reports the server's resident memory (VmRSS) and the sizes of
//! the database and its `-wal` file before, right after the last game, and after
//! `--settle-ms` (default 15000) without traffic.
//!
//! **`--silent-uploads N`** adds an attacker to the play: as the play starts, N connections
//! from `--upload-addresses K` loopback addresses (127.0.0.2 on; default 16) each send the
//! headers of a `POST /api/games` with a 4096-byte body, ten bytes of it, and then nothing.
//! The run reports how the server answered them (the status of each answer, or a close without
//! one), when it closed them (time from opening) and how many it still held
//! `--upload-check-ms` (default 15000) after they were opened; the play's figures show what
//! the players felt meanwhile.
//!
//! When `bashni serve --help` mentions `--new-games-per-minute`, `--requests-per-second` or
//! `--open-requests-per-address`,
//! the server is started with that limit at 1000000000, as one address makes all the load.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
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
const LIMIT_FLAGS: [&str; 3] = [
    "--new-games-per-minute",
    "--requests-per-second",
    "--open-requests-per-address",
];

/// How long a client may go without a socket before it gives up.
const RECONNECT_LIMIT: Duration = Duration::from_secs(30);

/// The response header in which the balancer names the instance behind a request.
const INSTANCE_HEADER: &str = "x-bashni-instance";

struct Options {
    server: Option<String>,
    addr: Option<String>,
    games: usize,
    plies: usize,
    think_ms: u64,
    kill_after_ms: Option<u64>,
    variant: String,
    bind_seat: bool,
    /// Print the acknowledgement times second by second too.
    timeline: bool,
    churn: Option<usize>,
    settle_ms: u64,
    instances: usize,
    db: Option<String>,
    balancer: bool,
    haproxy: Option<String>,
    /// A database server's main process (PostgreSQL's postmaster), whose CPU time and its
    /// children's count with the servers'.
    database_pid: Option<u32>,
    kill_instance_after_ms: Option<u64>,
    silent_uploads: usize,
    upload_addresses: u8,
    upload_check_ms: u64,
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
        timeline: false,
        churn: None,
        settle_ms: 15000,
        instances: 1,
        db: None,
        balancer: false,
        database_pid: std::env::var("BASHNI_LOAD_DATABASE_PID")
            .ok()
            .and_then(|pid| pid.parse().ok()),
        haproxy: None,
        kill_instance_after_ms: None,
        silent_uploads: 0,
        upload_addresses: 16,
        upload_check_ms: 15000,
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
            "--timeline" => options.timeline = true,
            "--churn" => options.churn = Some(value()?.parse()?),
            "--settle-ms" => options.settle_ms = value()?.parse()?,
            "--instances" => options.instances = value()?.parse()?,
            "--db" => options.db = Some(value()?),
            "--balancer" => options.balancer = true,
            "--haproxy" => options.haproxy = Some(value()?),
            "--database-pid" => options.database_pid = Some(value()?.parse()?),
            "--kill-instance-after-ms" => {
                options.kill_instance_after_ms = Some(value()?.parse()?);
            }
            "--silent-uploads" => options.silent_uploads = value()?.parse()?,
            "--upload-addresses" => options.upload_addresses = value()?.parse()?,
            "--upload-check-ms" => options.upload_check_ms = value()?.parse()?,
            other => return Err(format!("unknown option {other}").into()),
        }
    }
    if options.server.is_none() && options.addr.is_none() {
        return Err("give --server PATH (a bashni binary to start) or --addr HOST:PORT".into());
    }
    let cluster = options.instances != 1
        || options.db.is_some()
        || options.balancer
        || options.kill_instance_after_ms.is_some();
    if cluster && (options.server.is_none() || options.addr.is_some()) {
        return Err(
            "--instances, --db, --balancer and --kill-instance-after-ms are about the servers \
             this run starts: give --server PATH, not --addr"
                .into(),
        );
    }
    if options.instances == 0 {
        return Err("--instances must be at least 1".into());
    }
    if !(1..=250).contains(&options.upload_addresses) {
        return Err("--upload-addresses must be from 1 to 250".into());
    }
    let shared = options
        .db
        .as_deref()
        .is_some_and(|db| db.starts_with("postgres://") || db.starts_with("postgresql://"));
    if options.instances > 1 && !shared {
        return Err(format!(
            "--instances {} needs --db postgres://...: a PostgreSQL database the instances share",
            options.instances
        )
        .into());
    }
    if options.kill_instance_after_ms.is_some() && options.instances < 2 {
        return Err(
            "--kill-instance-after-ms needs --instances 2 or more: somewhere for the \
                    clients to go (with one instance, --kill-after-ms kills and restarts it)"
                .into(),
        );
    }
    if options.kill_after_ms.is_some() && options.instances > 1 {
        return Err(
            "--kill-after-ms restarts the one server; with --instances use \
                    --kill-instance-after-ms"
                .into(),
        );
    }
    Ok(options)
}

/// What is left to stop and remove when a signal ends the run (no destructor runs then):
/// the children still running and this run's temporary files and folders.
struct Leftovers {
    pids: Vec<u32>,
    paths: Vec<PathBuf>,
}

static LEFTOVERS: Mutex<Leftovers> = Mutex::new(Leftovers {
    pids: Vec::new(),
    paths: Vec::new(),
});

fn leftovers(change: impl FnOnce(&mut Leftovers)) {
    let mut guard = LEFTOVERS.lock().unwrap_or_else(|e| e.into_inner());
    change(&mut guard);
}

/// Kills the children still running and removes the temporary files: on a signal.
fn clear_leftovers() {
    let Leftovers { pids, paths } =
        std::mem::replace(&mut *LEFTOVERS.lock().unwrap_or_else(|e| e.into_inner()), {
            Leftovers {
                pids: Vec::new(),
                paths: Vec::new(),
            }
        });
    for pid in pids {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .stderr(Stdio::null())
            .status();
    }
    for path in paths {
        remove_temp(&path);
    }
}

/// Stops every child and removes the temporary files when SIGINT, SIGTERM or SIGHUP arrives.
async fn stop_on_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut int), Ok(mut term), Ok(mut hup)) = (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
        signal(SignalKind::hangup()),
    ) else {
        eprintln!("load: cannot watch for signals; a signal may leave servers running");
        return;
    };
    let (name, code) = tokio::select! {
        _ = int.recv() => ("SIGINT", 130),
        _ = term.recv() => ("SIGTERM", 143),
        _ = hup.recv() => ("SIGHUP", 129),
    };
    eprintln!("load: {name}: stopping the servers and the balancer this run started");
    clear_leftovers();
    std::process::exit(code);
}

/// A child process of this run; dropping it kills it (SIGKILL) and waits for it.
struct Kid(Child);

impl Kid {
    fn new(child: Child) -> Kid {
        leftovers(|l| l.pids.push(child.id()));
        Kid(child)
    }

    fn id(&self) -> u32 {
        self.0.id()
    }

    /// Kills the child (SIGKILL) and waits for it; nothing when it is already gone.
    fn kill(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
        let pid = self.0.id();
        leftovers(|l| l.pids.retain(|p| *p != pid));
    }
}

impl Drop for Kid {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A started server; dropping it kills it.
struct Server {
    kid: Kid,
    addr: String,
}

/// A temporary file (with an SQLite database's `-wal` and `-shm`) or folder of this run;
/// dropping it removes it.
struct TempPath {
    path: PathBuf,
    ours: bool,
}

impl TempPath {
    fn new(path: PathBuf, ours: bool) -> TempPath {
        if ours {
            leftovers(|l| l.paths.push(path.clone()));
        }
        TempPath { path, ours }
    }
}

/// Removes a temporary folder, or a file with its `-wal` and `-shm`.
fn remove_temp(path: &std::path::Path) {
    let _ = std::fs::remove_dir_all(path);
    for suffix in ["", "-wal", "-shm"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        let _ = std::fs::remove_file(name);
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        if self.ours {
            remove_temp(&self.path);
            leftovers(|l| l.paths.retain(|p| *p != self.path));
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
    let child = Command::new(binary)
        .args(["serve", "--addr", addr, "--db", db])
        .args(["--connections-per-address", "1000000"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()?;
    let mut kid = Kid::new(child);
    let stdout = kid.0.stdout.take().ok_or("no stdout")?;
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line)?;
    let mut server = Server {
        kid,
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

/// Kills instance 0 (SIGKILL) and, with `restart` (binary, database, extra flags), starts it
/// again on the same port; says so with the time since `started`. Returns whether it runs
/// again.
fn kill_first(
    instances: &mut [Server],
    restart: Option<(&str, &str, &[String])>,
    started: Instant,
) -> Result<bool, Error> {
    let what = match instances.len() {
        1 => "the server",
        _ => "instance 0",
    };
    let first = instances.first_mut().ok_or("no server to kill")?;
    let gone = format!("{what} ({}, pid {})", first.addr, first.kid.id());
    first.kid.kill();
    let killed_at = started.elapsed().as_millis();
    let Some((binary, db, extra)) = restart else {
        println!("killed {gone} with SIGKILL at {killed_at} ms; not started again");
        return Ok(false);
    };
    let restarting = Instant::now();
    match start_server(binary, &first.addr, db, extra) {
        Ok(new) => {
            *first = new;
            println!(
                "killed {gone} with SIGKILL at {killed_at} ms; started again in {} ms (pid {})",
                restarting.elapsed().as_millis(),
                first.kid.id()
            );
            Ok(true)
        }
        Err(error) => {
            Err(format!("killed {gone} at {killed_at} ms; restart failed: {error}").into())
        }
    }
}

/// HAProxy in front of the instances; dropping it stops it and removes its configuration.
struct Balancer {
    kid: Kid,
    addr: String,
    _dir: TempPath,
}

/// A free port on loopback (free when asked; taken again at once by the caller).
fn free_port() -> Result<u16, Error> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

/// The HAProxy to run: `--haproxy`, else `haproxy` on the `PATH`, else `/usr/sbin/haproxy`.
fn haproxy_binary(chosen: Option<&str>) -> String {
    if let Some(chosen) = chosen {
        return chosen.to_string();
    }
    let on_path = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join("haproxy").is_file()));
    if on_path {
        "haproxy".into()
    } else {
        "/usr/sbin/haproxy".into()
    }
}

/// The balancer's configuration: round robin over the instances, no sticky sessions, health
/// checks on `/api/health`, WebSocket-friendly timeouts, the instance named in each answer.
fn haproxy_config(port: u16, instances: &[Server], max_connections: usize) -> String {
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
    retries 2
    option redispatch

frontend load
    bind 127.0.0.1:{port}
    maxconn {max_connections}
    acl one_game path_reg ^/api/games/[^/]+
    use_backend owners if one_game
    default_backend instances

backend owners
    balance uri depth 3
    hash-type consistent
    option httpchk GET /api/health
    http-response set-header {INSTANCE_HEADER} %s
"
    );
    let servers: String = instances
        .iter()
        .enumerate()
        .map(|(i, instance)| {
            format!(
                "    server i{i} {} check inter 500 fall 2 rise 1\n",
                instance.addr
            )
        })
        .collect();
    config.push_str(&servers);
    config.push_str(&format!(
        "
backend instances
    balance roundrobin
    option httpchk GET /api/health
    http-response set-header {INSTANCE_HEADER} %s
"
    ));
    config.push_str(&servers);
    config
}

/// Starts HAProxy in the foreground (`-db`) and waits until it answers for every instance.
fn start_balancer(
    binary: &str,
    instances: &[Server],
    max_connections: usize,
) -> Result<Balancer, Error> {
    let dir = std::env::temp_dir().join(format!("bashni-load-haproxy-{}", std::process::id()));
    let dir = TempPath::new(dir, true);
    std::fs::create_dir_all(&dir.path)?;
    let port = free_port()?;
    let config = dir.path.join("haproxy.cfg");
    std::fs::write(&config, haproxy_config(port, instances, max_connections))?;
    let child = Command::new(binary)
        .arg("-f")
        .arg(&config)
        .arg("-db")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start {binary} (--haproxy PATH): {e}"))?;
    let mut balancer = Balancer {
        kid: Kid::new(child),
        addr: format!("127.0.0.1:{port}"),
        _dir: dir,
    };
    // Ready when one health request per instance in a row goes through.
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut in_a_row = 0;
    while in_a_row < instances.len() {
        if let Some(status) = balancer.kid.0.try_wait()? {
            return Err(format!("haproxy stopped at once ({status})").into());
        }
        if Instant::now() > deadline {
            return Err("haproxy did not pass requests to the instances within 10 s".into());
        }
        match http(&balancer.addr, "GET", "/api/health", None, "") {
            Ok((200, _)) => in_a_row += 1,
            _ => {
                in_a_row = 0;
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
    Ok(balancer)
}

/// `GET path`, tried again for a few seconds while it fails or does not answer 200 (an
/// instance just killed may still get a request before the balancer sees it is down).
fn get_ok(addr: &str, path: &str) -> Result<String, Error> {
    let mut last = String::new();
    for attempt in 0..20 {
        if attempt > 0 {
            std::thread::sleep(Duration::from_millis(250));
        }
        match http(addr, "GET", path, None, "") {
            Ok((200, body)) => return Ok(body),
            Ok((status, body)) => last = format!("{status} {body}"),
            Err(error) => last = error.to_string(),
        }
    }
    Err(format!("GET {path} on {addr}: {last}").into())
}

/// The resident memory of several processes together; `None` when one is unknown.
fn rss_sum(pids: &[u32]) -> Option<u64> {
    if pids.is_empty() {
        return None;
    }
    pids.iter().map(|pid| rss_kb(*pid)).sum()
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

/// The fields of `/proc/PID/stat` after the command's name (which is in parentheses and may
/// hold spaces): the state is field 0 here, the parent 1, utime 11, stime 12, cutime 13 and
/// cstime 14.
fn stat_fields(pid: u32) -> Option<Vec<u64>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = stat.rsplit_once(')')?.1;
    // The state is a letter: kept as 0 so the numbers keep their places.
    Some(
        after_name
            .split_whitespace()
            .map(|field| field.parse().unwrap_or(0))
            .collect(),
    )
}

/// The CPU time (user and system, in clock ticks) of process `pid`; with `children`, also
/// that of its children it has waited for (the backends a database server ended).
fn cpu_ticks(pid: u32, children: bool) -> Option<u64> {
    let fields = stat_fields(pid)?;
    let sum = |range: std::ops::Range<usize>| fields.get(range).map(|f| f.iter().sum::<u64>());
    match children {
        true => sum(11..15),
        false => sum(11..13),
    }
}

/// The processes whose parent is `pid`.
fn children_of(pid: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&child| {
            stat_fields(child).and_then(|fields| fields.get(1).copied()) == Some(u64::from(pid))
        })
        .collect()
}

/// CPU time of the processes a run is about, in clock ticks: each process's own, and for a
/// database server its live children's and the ones it ended.
#[derive(Default)]
struct CpuTicks {
    by_process: BTreeMap<u32, u64>,
}

impl CpuTicks {
    fn read(pids: &[u32], database: Option<u32>) -> CpuTicks {
        let mut by_process = BTreeMap::new();
        for &pid in pids {
            if let Some(ticks) = cpu_ticks(pid, false) {
                by_process.insert(pid, ticks);
            }
        }
        if let Some(main) = database {
            if let Some(ticks) = cpu_ticks(main, true) {
                by_process.insert(main, ticks);
            }
            for child in children_of(main) {
                if let Some(ticks) = cpu_ticks(child, false) {
                    by_process.insert(child, ticks);
                }
            }
        }
        CpuTicks { by_process }
    }

    /// Seconds used between `self` and `later` (a process new since counts whole).
    fn seconds_until(&self, later: &CpuTicks) -> f64 {
        let all: Vec<u32> = later.by_process.keys().copied().collect();
        self.seconds_of(later, &all)
    }

    /// Seconds the processes `pids` used between `self` and `later`.
    fn seconds_of(&self, later: &CpuTicks, pids: &[u32]) -> f64 {
        let ticks: u64 = later
            .by_process
            .iter()
            .filter(|(pid, _)| pids.contains(pid))
            .map(|(pid, &t)| t.saturating_sub(self.by_process.get(pid).copied().unwrap_or(0)))
            .sum();
        ticks as f64 / 100.0
    }
}

/// The whole machine's busy CPU time in clock ticks (`/proc/stat`: all but idle and iowait).
fn machine_busy_ticks() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let line = stat.lines().next()?;
    let numbers: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .filter_map(|n| n.parse().ok())
        .collect();
    let total: u64 = numbers.iter().take(8).sum();
    Some(total - numbers.get(3)? - numbers.get(4)?)
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
    stream.set_nodelay(true)?;
    let token = token
        .map(|t| format!("X-Seat-Token: {t}\r\n"))
        .unwrap_or_default();
    // One write: pieces written one by one would wait on delayed acknowledgements (a proxy
    // in between waits for the whole head).
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{token}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes())?;
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
    /// The address (of `Play::targets`) the client connects to first.
    target: usize,
}

#[derive(Default)]
struct Record {
    latencies_us: Vec<u64>,
    /// Each acknowledgement: when its move was sent (ms into the play) and how long it took
    /// (µs).
    timeline: Vec<(u64, u64)>,
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
    /// Refused requests by error code.
    refused_codes: BTreeMap<String, u64>,
    /// The first move each game's clients were told of at each ply, by an acknowledgement,
    /// a state or an update.
    told: BTreeMap<String, BTreeMap<usize, String>>,
    /// Games whose clients were told of two different moves at one ply: the first such ply
    /// and the two moves.
    forked: BTreeMap<String, (usize, String, String)>,
    /// Sockets by instance (`None`: not known): opened first, opened again after a socket
    /// closed, closed.
    sockets: BTreeMap<Option<usize>, [u64; 3]>,
    /// Time from a socket's close to the next socket of the same client, in ms.
    reopen_ms: Vec<u64>,
    /// Attempts to open a socket that failed.
    connect_failures: u64,
    /// Clients that gave up after `RECONNECT_LIMIT` without a socket.
    gave_up: u64,
}

impl Record {
    /// Notes that a client was told that `mv` is the move at `ply` of `game`.
    fn tell(&mut self, game: &str, ply: usize, mv: &str) {
        let plies = match self.told.get_mut(game) {
            Some(plies) => plies,
            None => self.told.entry(game.to_string()).or_default(),
        };
        match plies.get(&ply) {
            None => {
                plies.insert(ply, mv.to_string());
            }
            Some(first) if first != mv => {
                let first = first.clone();
                self.forked
                    .entry(game.to_string())
                    .or_insert_with(|| (ply, first, mv.to_string()));
            }
            Some(_) => {}
        }
    }

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

/// The fields of a state that changed, whose moves begin at ply `moves_from`.
#[derive(serde::Deserialize)]
struct LiteUpdate {
    moves_from: usize,
    moves: Vec<LiteMove>,
    turn: Option<String>,
    legal_moves: Option<Vec<LiteMove>>,
    /// A game's result never goes away once it is there.
    result: Option<serde::de::IgnoredAny>,
}

/// A move as the socket sends it: its notation, or an object with it.
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum LiteMove {
    Text(String),
    Record { text: String },
}

/// What a client knows of its game.
struct View {
    moves: Vec<String>,
    turn: String,
    legal: Vec<String>,
    over: bool,
}

fn texts(moves: Vec<LiteMove>) -> Vec<String> {
    moves
        .into_iter()
        .map(|m| match m {
            LiteMove::Text(text) | LiteMove::Record { text } => text,
        })
        .collect()
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
    /// Where clients connect: the balancer alone, or the instances.
    targets: Vec<String>,
    /// Whether `targets` is a balancer (which names the instance behind each socket).
    balanced: bool,
    plies: usize,
    think_ms: u64,
    bind_seat: bool,
    record: Arc<Mutex<Record>>,
    /// Seats whose first socket has opened.
    opened: std::sync::atomic::AtomicUsize,
    /// When the play began.
    started: Instant,
}

impl Play {
    fn record(&self) -> Result<std::sync::MutexGuard<'_, Record>, Error> {
        self.record.lock().map_err(|_| "lock".into())
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
fn spawn_fetch(
    play: &Arc<Play>,
    addr: &str,
    seat: &Seat,
    ply: usize,
) -> tokio::task::JoinHandle<()> {
    let play = Arc::clone(play);
    let addr = addr.to_string();
    let game = seat.game.clone();
    let token = seat.token.clone();
    tokio::spawn(async move {
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
    let mut target = seat.target;
    // The instance of the open socket, when known; whether one is open.
    let mut instance: Option<usize> = None;
    let mut connected = false;
    // Since when the client has been without a socket after one closed.
    let mut down_since: Option<Instant> = None;
    let outcome: Result<(), Error> = 'connect: loop {
        let addr = play.targets[target].clone();
        if connected {
            // The socket of the last pass closed: reconnect, without a balancer to the next
            // instance.
            connected = false;
            down_since = Some(Instant::now());
            {
                let mut record = play.record()?;
                record.reconnects += 1;
                record.sockets.entry(instance).or_default()[2] += 1;
            }
            if !play.balanced {
                target = (target + 1) % play.targets.len();
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        }
        let url = format!("ws://{addr}/api/games/{}/ws", seat.game);
        let mut socket = match connect_socket(&url).await {
            Ok((socket, response)) => {
                instance = if play.balanced {
                    response
                        .headers()
                        .get(INSTANCE_HEADER)
                        .and_then(|name| name.to_str().ok())
                        .and_then(|name| name.strip_prefix('i'))
                        .and_then(|index| index.parse().ok())
                } else {
                    Some(target)
                };
                connected = true;
                if !opened_before {
                    play.opened
                        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                let mut record = play.record()?;
                record.sockets.entry(instance).or_default()[usize::from(opened_before)] += 1;
                if let Some(since) = down_since.take()
                    && opened_before
                {
                    record.reopen_ms.push(since.elapsed().as_millis() as u64);
                }
                socket
            }
            Err(error) => {
                play.record()?.connect_failures += 1;
                let since = *down_since.get_or_insert_with(Instant::now);
                if since.elapsed() > RECONNECT_LIMIT {
                    play.record()?.gave_up += 1;
                    break 'connect Err(format!(
                        "could not reconnect within {} s (last tried {url}: {error})",
                        RECONNECT_LIMIT.as_secs()
                    )
                    .into());
                }
                if !play.balanced {
                    target = (target + 1) % play.targets.len();
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
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
            fetches.push(spawn_fetch(&play, &addr, &seat, plies_known));
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
                        fetches.push(spawn_fetch(&play, &addr, &seat, ply));
                    }
                    continue;
                }
                Event::Move => {
                    let Some((_, ply, choice)) = planned.take() else {
                        continue;
                    };
                    next_id += 1;
                    let message = json!({"type": "move", "id": next_id, "token": seat.token, "move": choice, "ply": ply});
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
                | Event::TimedOut => continue 'connect,
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
                            record.timeline.push((
                                sent.saturating_duration_since(play.started).as_millis() as u64,
                                sent.elapsed().as_micros() as u64,
                            ));
                            record.tell(&seat.game, ply as usize, &mv);
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
                    let mut record = play.record()?;
                    record.refused += 1;
                    *record
                        .refused_codes
                        .entry(incoming.code.unwrap_or_default())
                        .or_default() += 1;
                }
                "state" => {
                    if let Some(state) = incoming.state {
                        asked_state = false;
                        let moves = texts(state.moves);
                        {
                            let mut record = play.record()?;
                            for (ply, mv) in moves.iter().enumerate() {
                                record.tell(&seat.game, ply, mv);
                            }
                        }
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
                        {
                            let mut record = play.record()?;
                            for (i, mv) in update.moves.iter().enumerate() {
                                let (LiteMove::Text(text) | LiteMove::Record { text }) = mv;
                                record.tell(&seat.game, update.moves_from + i, text);
                            }
                        }
                        match &mut view {
                            Some(view) if update.moves_from <= view.moves.len() => {
                                view.moves.truncate(update.moves_from);
                                view.moves.extend(texts(update.moves));
                                if let Some(turn) = update.turn {
                                    view.turn = turn;
                                }
                                if let Some(legal) = update.legal_moves {
                                    view.legal = texts(legal);
                                }
                                view.over |= update.result.is_some();
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
                    fetches.push(spawn_fetch(&play, &addr, &seat, ply));
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

/// Opens a WebSocket to `url` as a browser would: small messages sent at once (no Nagle), and
/// a read buffer of 4 KiB (tungstenite's 128 KiB, zeroed for every socket, made the client
/// spend more time on connecting thousands of sockets than the server).
async fn connect_socket(
    url: &str,
) -> Result<
    (
        tokio_tungstenite::WebSocketStream<
            tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
        >,
        tokio_tungstenite::tungstenite::handshake::client::Response,
    ),
    tokio_tungstenite::tungstenite::Error,
> {
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0);
    tokio_tungstenite::connect_async_with_config(url, Some(config), true).await
}

/// Checks that the server binds a seat to a socket, before the play in `--bind-seat` mode.
async fn check_seat_binding(addr: &str, seat: &Seat) -> Result<(), Error> {
    let url = format!("ws://{addr}/api/games/{}/ws", seat.game);
    let (mut socket, _) = connect_socket(&url).await?;
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

/// What became of the silent uploads.
#[derive(Default)]
struct Uploads {
    /// Connections opened.
    opened: usize,
    /// Connections that could not be opened.
    failed: usize,
    /// Answers by status ("closed" when the server closed without one).
    answers: BTreeMap<String, usize>,
    /// Time from opening to the server's close, in µs, for those closed.
    closed_us: Vec<u64>,
    /// Still open at the check.
    held_at_check: usize,
}

/// Opens `count` silent uploads to `target` from `addresses` loopback addresses and watches
/// them for `check` after the last was opened (see `--silent-uploads`).
async fn silent_uploads(target: String, count: usize, addresses: u8, check: Duration) -> Uploads {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let Ok(server) = target.parse::<std::net::SocketAddr>() else {
        eprintln!("silent uploads: {target} is not an address");
        return Uploads::default();
    };
    let head = "POST /api/games HTTP/1.1\r\nhost: load\r\ncontent-type: application/json\r\n\
                content-length: 4096\r\n\r\n{\"variant\":";
    let mut uploads = Uploads::default();
    let mut watchers = Vec::new();
    for i in 0..count {
        let from = std::net::Ipv4Addr::new(127, 0, 0, 2 + (i % usize::from(addresses)) as u8);
        let opened = async {
            let socket = tokio::net::TcpSocket::new_v4()?;
            socket.bind((from, 0).into())?;
            let mut stream = socket.connect(server).await?;
            stream.write_all(head.as_bytes()).await?;
            Ok::<_, std::io::Error>(stream)
        };
        match opened.await {
            Ok(mut stream) => {
                uploads.opened += 1;
                let began = Instant::now();
                watchers.push(tokio::spawn(async move {
                    let mut answer = Vec::new();
                    let _ = stream.read_to_end(&mut answer).await;
                    let text = String::from_utf8_lossy(&answer);
                    let status = text
                        .strip_prefix("HTTP/1.1 ")
                        .and_then(|rest| rest.get(..3))
                        .unwrap_or("closed")
                        .to_string();
                    (status, began.elapsed())
                }));
            }
            Err(_) => uploads.failed += 1,
        }
    }
    tokio::time::sleep(check).await;
    for watcher in watchers {
        if !watcher.is_finished() {
            uploads.held_at_check += 1;
            watcher.abort();
            continue;
        }
        if let Ok((status, took)) = watcher.await {
            *uploads.answers.entry(status).or_default() += 1;
            uploads.closed_us.push(took.as_micros() as u64);
        }
    }
    uploads.closed_us.sort_unstable();
    uploads
}

/// Prints, for each second of the play, the moves sent in it that were acknowledged and the
/// median, 99th percentile and longest time to their acknowledgement.
fn print_timeline(timeline: &[(u64, u64)]) {
    let mut by_second: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for (at_ms, took_us) in timeline {
        by_second.entry(at_ms / 1000).or_default().push(*took_us);
    }
    for (second, mut took) in by_second {
        took.sort_unstable();
        println!(
            "second {second}: {} moves, acknowledgement median {:.2} ms, 99th percentile {:.2} ms, max {:.2} ms",
            took.len(),
            percentile(&took, 0.5),
            percentile(&took, 0.99),
            percentile(&took, 1.0)
        );
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
        let ply = state["ply"].as_u64().ok_or("no ply")?;
        let body = json!({"move": choice, "ply": ply}).to_string();
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
    runtime.spawn(stop_on_signal());
    let own_db = std::env::temp_dir().join(format!("bashni-load-{}.sqlite3", std::process::id()));
    let db = match &options.db {
        Some(db) => db.clone(),
        None => own_db.to_string_lossy().into_owned(),
    };
    let shared = db.starts_with("postgres://") || db.starts_with("postgresql://");
    let (binary, limits) = match (&options.addr, &options.server) {
        (None, Some(binary)) => (Some(binary.clone()), limit_args(binary)?),
        _ => (None, Vec::new()),
    };
    if !limits.is_empty() {
        println!("server limits lifted: {}", limits.join(" "));
    }
    // Declared before the servers, so it is dropped (its files removed) after them.
    let _db_files = TempPath::new(own_db, binary.is_some() && options.db.is_none());
    let mut instances = Vec::new();
    if let Some(binary) = &binary {
        for _ in 0..options.instances {
            instances.push(start_server(binary, "127.0.0.1:0", &db, &limits)?);
        }
    }
    if instances.len() > 1 {
        let list: Vec<String> = instances
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{i} at {} (pid {})", s.addr, s.kid.id()))
            .collect();
        println!(
            "{} instances on one database: {}",
            instances.len(),
            list.join(", ")
        );
    }
    let balancer = match options.balancer {
        true => {
            let haproxy = haproxy_binary(options.haproxy.as_deref());
            let balancer = start_balancer(&haproxy, &instances, 2 * options.games + 256)?;
            println!(
                "balancer: haproxy at {} (pid {}), each game to its owner among the {} instances (the rest round robin), health checks every 500 ms",
                balancer.addr,
                balancer.kid.id(),
                instances.len()
            );
            Some(balancer)
        }
        false => None,
    };
    // Where clients go: the balancer, or the instances round-robin by game.
    let targets: Vec<String> = match (&options.addr, &balancer) {
        (Some(addr), _) => vec![addr.clone()],
        (None, Some(balancer)) => vec![balancer.addr.clone()],
        (None, None) => instances.iter().map(|s| s.addr.clone()).collect(),
    };
    if targets.is_empty() {
        return Err("no server".into());
    }
    let pids: Vec<u32> = instances.iter().map(|s| s.kid.id()).collect();
    std::thread::sleep(Duration::from_millis(300));
    if options.churn.is_some() {
        let pid = match pids.as_slice() {
            [pid] => Some(*pid),
            _ => None,
        };
        let db_file = (binary.is_some() && !shared).then_some(db.as_str());
        return churn(&options, &targets[0], pid, db_file);
    }
    let rss_before = rss_sum(&pids);

    let mut seats = Vec::new();
    let created = Instant::now();
    for game in 0..options.games {
        let target = game % targets.len();
        let addr = &targets[target];
        let body = json!({"variant": options.variant, "mode": "friend", "name": "load"});
        let (status, answer) = http(addr, "POST", "/api/games", None, &body.to_string())?;
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
            addr,
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
            target,
        });
        seats.push(Seat {
            game: id,
            color: "black",
            token: joined["token"].as_str().ok_or("no token")?.to_string(),
            target,
        });
    }
    let rss_games = rss_sum(&pids);
    println!(
        "{} games made in {:.2} s",
        options.games,
        created.elapsed().as_secs_f64()
    );
    if options.bind_seat
        && let Some(first) = seats.first()
    {
        runtime.block_on(check_seat_binding(&targets[first.target], first))?;
    }

    let record = Arc::new(Mutex::new(Record::default()));
    let play = Arc::new(Play {
        targets: targets.clone(),
        balanced: balancer.is_some(),
        plies: options.plies,
        think_ms: options.think_ms,
        bind_seat: options.bind_seat,
        record: Arc::clone(&record),
        opened: std::sync::atomic::AtomicUsize::new(0),
        started: Instant::now(),
    });
    let seat_count = seats.len();
    let started = Instant::now();
    let games: Vec<String> = seats.iter().step_by(2).map(|s| s.game.clone()).collect();
    // With one instance it is killed and started again; with more, instance 0 is killed.
    let kill_at = options
        .kill_after_ms
        .map(|ms| (ms, true))
        .or(options.kill_instance_after_ms.map(|ms| (ms, false)));
    let mut killed_instance = None;
    // The largest the SQLite log grows while the games are played, sampled every 100 ms.
    let wal_path = (binary.is_some() && !shared).then(|| format!("{db}-wal"));
    let largest_wal = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let playing = Arc::new(std::sync::atomic::AtomicBool::new(true));
    if let Some(wal) = wal_path.clone() {
        let (largest, playing) = (Arc::clone(&largest_wal), Arc::clone(&playing));
        std::thread::spawn(move || {
            while playing.load(std::sync::atomic::Ordering::Relaxed) {
                largest.fetch_max(file_kb(&wal), std::sync::atomic::Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(100));
            }
        });
    }
    // CPU time while the games are played: the servers, the balancer and the database.
    let mut counted_pids = pids.clone();
    if let Some(balancer) = &balancer {
        counted_pids.push(balancer.kid.id());
    }
    let cpu_before = CpuTicks::read(&counted_pids, options.database_pid);
    let machine_before = machine_busy_ticks();
    let (rss_playing, restarts, failures, uploads) = runtime.block_on(async {
        let uploads = (options.silent_uploads > 0).then(|| {
            tokio::spawn(silent_uploads(
                targets[0].clone(),
                options.silent_uploads,
                options.upload_addresses,
                Duration::from_millis(options.upload_check_ms),
            ))
        });
        let mut tasks = Vec::new();
        for (i, seat) in seats.into_iter().enumerate() {
            tasks.push(tokio::spawn(play_seat(
                Arc::clone(&play),
                seat,
                0x9e37_79b9_7f4a_7c15 ^ (i as u64 + 1),
            )));
        }
        // Memory is measured 2 s in, or 1 s after every seat's socket opened when that is
        // later (at most 30 s in, and before a kill that comes after 2 s).
        const MEASURE_MS: u64 = 2000;
        let mut restarts = 0;
        let mut rss_playing = None;
        let before = kill_at.filter(|k| k.0 < MEASURE_MS);
        let after = kill_at.filter(|k| k.0 >= MEASURE_MS);
        for step in [before, None, after] {
            let at = step.map_or(MEASURE_MS, |k| k.0);
            tokio::time::sleep_until((started + Duration::from_millis(at)).into()).await;
            match (step, &binary) {
                (None, _) => {
                    let limit_ms = after.map_or(30_000, |k| k.0.min(30_000));
                    let limit = started + Duration::from_millis(limit_ms);
                    while play.opened.load(std::sync::atomic::Ordering::Relaxed) < seat_count
                        && Instant::now() < limit
                    {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    let settled = Instant::now() + Duration::from_secs(1);
                    tokio::time::sleep_until(settled.min(limit).into()).await;
                    rss_playing = rss_sum(&pids);
                }
                (Some((_, restart)), Some(binary)) => {
                    let restart = restart.then_some((binary.as_str(), db.as_str(), &limits[..]));
                    match kill_first(&mut instances, restart, started) {
                        Ok(true) => restarts += 1,
                        Ok(false) => killed_instance = Some(0),
                        Err(error) => eprintln!("{error}"),
                    }
                }
                (Some(_), None) => {}
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
        let uploads = match uploads {
            Some(task) => task.await.ok(),
            None => None,
        };
        (rss_playing, restarts, failures, uploads)
    });
    let elapsed = started.elapsed();
    playing.store(false, std::sync::atomic::Ordering::Relaxed);
    let cpu_after = CpuTicks::read(&counted_pids, options.database_pid);
    let cpu_seconds = cpu_before.seconds_until(&cpu_after);
    let server_seconds = cpu_before.seconds_of(&cpu_after, &pids);
    let balancer_seconds = balancer
        .as_ref()
        .map(|balancer| cpu_before.seconds_of(&cpu_after, &[balancer.kid.id()]));
    let machine_seconds = machine_before
        .zip(machine_busy_ticks())
        .map(|(before, after)| after.saturating_sub(before) as f64 / 100.0);
    // The checks read each game from another instance than the one it was played on, when
    // there is one alive (through the balancer: wherever it sends them).
    let live: Vec<String> = match (&options.addr, &balancer) {
        (None, None) => instances
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != killed_instance)
            .map(|(_, s)| s.addr.clone())
            .collect(),
        _ => targets.clone(),
    };
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
    for (index, id) in games.iter().enumerate() {
        let addr = &live[(index + 1) % live.len()];
        let state = get_ok(addr, &format!("/api/games/{id}"))?;
        let stored = move_texts(&serde_json::from_str(&state)?);
        if let Some(acked) = record.acked.get(id) {
            for (ply, mv) in acked {
                if stored.get(*ply as usize) != Some(mv) {
                    lost += 1;
                }
            }
        }
        let pdn = get_ok(addr, &format!("/api/games/{id}/pdn"))?;
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
    if options.timeline {
        print_timeline(&record.timeline);
    }
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
    let per_thousand = |seconds: f64| seconds * 1000.0 / acked.max(1) as f64;
    let whose = match (balancer.is_some(), options.database_pid.is_some()) {
        (true, true) => "servers, balancer and database",
        (true, false) => "servers and balancer",
        (false, true) => "servers and database",
        (false, false) => "servers",
    };
    println!(
        "CPU time while playing ({whose}): {cpu_seconds:.2} s, {:.3} s per 1000 acknowledged moves",
        per_thousand(cpu_seconds)
    );
    if whose != "servers" {
        println!(
            "  of which the servers: {server_seconds:.2} s, {:.3} s per 1000 acknowledged moves",
            per_thousand(server_seconds)
        );
    }
    if let Some(balancer_seconds) = balancer_seconds {
        println!(
            "  of which the balancer: {balancer_seconds:.2} s, {:.3} s per 1000 acknowledged moves",
            per_thousand(balancer_seconds)
        );
    }
    if let Some(machine) = machine_seconds {
        println!(
            "CPU time of the whole machine while playing (the clients too): {machine:.2} s, {:.3} s per 1000 acknowledged moves",
            per_thousand(machine)
        );
    }
    if wal_path.is_some() {
        println!(
            "largest -wal file while playing: {} kB (sampled every 100 ms)",
            largest_wal.load(std::sync::atomic::Ordering::Relaxed)
        );
    }
    if let (Some(before), Some(games_kb), Some(playing)) = (rss_before, rss_games, rss_playing) {
        let n = games.len().max(1) as f64;
        let whose = match pids.len() {
            1 => "server memory".to_string(),
            n => format!("server memory ({n} instances together)"),
        };
        println!(
            "{whose}: {before} kB idle, {games_kb} kB with the games ({:.1} kB per game), {playing} kB while playing with 2 sockets per game ({:.1} kB per game)",
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
    if !record.refused_codes.is_empty() {
        let codes: Vec<String> = record
            .refused_codes
            .iter()
            .map(|(code, n)| format!("{code} {n}"))
            .collect();
        println!("refused, by code: {}", codes.join(", "));
    }
    if instances.len() > 1 || record.reconnects > 0 {
        let by_instance: Vec<String> = record
            .sockets
            .iter()
            .map(|(instance, [first, again, closed])| {
                let name = instance.map_or("unknown".to_string(), |i| format!("instance {i}"));
                format!("{name}: {first} / {again} / {closed}")
            })
            .collect();
        println!(
            "sockets by instance (opened / opened again after a close / closed): {}",
            by_instance.join("; ")
        );
        let mut reopen = record.reopen_ms.clone();
        reopen.sort_unstable();
        let middle = reopen.get(reopen.len() / 2).copied().unwrap_or(0);
        println!(
            "reconnects: {} sockets closed, {} opened again (close to new socket: median {middle} ms, max {} ms), {} failed attempts to open a socket, {} clients gave up ({} s without a socket)",
            record.reconnects,
            reopen.len(),
            reopen.last().copied().unwrap_or(0),
            record.connect_failures,
            record.gave_up,
            RECONNECT_LIMIT.as_secs()
        );
    }
    if let Some(uploads) = &uploads {
        let answers: Vec<String> = uploads
            .answers
            .iter()
            .map(|(status, n)| format!("{status}: {n}"))
            .collect();
        let ms = &uploads.closed_us;
        println!(
            "silent uploads: {} opened from {} addresses ({} could not connect); answered {}; closed by the server after median {:.0} ms, max {:.0} ms; still held {:.1} s after opening: {}",
            uploads.opened,
            options.upload_addresses,
            uploads.failed,
            if answers.is_empty() {
                "none".to_string()
            } else {
                answers.join(", ")
            },
            percentile(ms, 0.5),
            percentile(ms, 1.0),
            options.upload_check_ms as f64 / 1000.0,
            uploads.held_at_check
        );
    }
    println!(
        "acknowledged moves lost: {lost}; games whose PDN differs from what clients saw: {mismatched}"
    );
    let forked = record.forked.len();
    println!("games with two different moves at one ply: {forked}");
    if let Some((id, (ply, first, second))) = record.forked.iter().next() {
        eprintln!("game {id}: clients were told of {first} and of {second} at ply {ply}");
    }
    drop(balancer);
    drop(instances);
    if lost > 0 || mismatched > 0 || forked > 0 {
        return Err("moves were lost, records differ or a ply had two moves".into());
    }
    let failed: usize = failures.values().sum();
    if failed > 0 {
        return Err(format!("{failed} clients failed").into());
    }
    Ok(())
}
