//! `bashni serve`: the web app on this machine, its games in an SQLite file.

use std::error::Error;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use bashni_server::{App, Database, PgStore, Settings, Store, StoreOptions};

/// Options of `bashni serve`.
#[derive(clap::Args)]
pub struct Args {
    /// The address to listen on (port 0: any free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// Where the games are: an SQLite file (made if missing), or a PostgreSQL database
    /// shared by several servers (`postgres://USER@HOST/DB`).
    #[arg(long, env = "BASHNI_DB", default_value = "bashni.sqlite3")]
    db: String,
    /// How many engine searches may run at once (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
    engines: Option<u16>,
    /// Table size of each engine, in MB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=4096))]
    hash: u16,
    /// Endgame tables of Russian draughts (a directory made by `bashni egtb build`): the
    /// engine plays by them at levels 7 and 8 and analyses with them. Loaded whole at the
    /// start (5 pieces: about 300 MB), shared by all engines.
    #[arg(long, env = "BASHNI_EGTB", value_name = "DIR")]
    egtb: Option<PathBuf>,
    /// With --egtb: keep the tables on disk and read each slice when a search first needs
    /// it, holding at most this many MiB of them (the least recently used make room); for
    /// tables larger than memory (six pieces: about 5 GiB whole).
    #[arg(long, env = "BASHNI_EGTB_MEMORY", value_name = "MIB", requires = "egtb",
          value_parser = clap::value_parser!(u64).range(1..=1_048_576))]
    egtb_memory: Option<u64>,
    /// More puzzles to add to the store at start (files that `bashni puzzles mine` or
    /// `bashni puzzles check --sound` wrote); the set built in is added in any case.
    #[arg(long)]
    puzzles: Vec<std::path::PathBuf>,
    /// The most connections one address may hold open (more are refused with 429).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..))]
    connections_per_address: u32,
    /// HTTP requests one address may have in progress at once (more are refused with 429);
    /// behind a balancer this is what limits a client's slow requests.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..))]
    open_requests_per_address: u32,
    /// The most connections held open at once from all addresses (more are refused with
    /// 503); never more than the open-files limit leaves room for.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u32).range(16..))]
    connections: u32,
    /// Seconds a request's body may stay silent, at its start or between two pieces; a body
    /// that falls behind is answered 408 and its connection closed.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=600))]
    body_timeout: u64,
    /// Bytes per second a request's body must average after its first --body-timeout
    /// seconds.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..))]
    body_min_rate: u64,
    /// New games one address may make per minute (PDN uploads count each game).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..))]
    new_games_per_minute: u32,
    /// HTTP requests one address may make per second on average (twice as many at once).
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..))]
    requests_per_second: u32,
    /// Seconds a connection may take to send a request's headers (also between requests);
    /// a WebSocket silent for twice as long is closed.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(2..=3600))]
    idle_timeout: u64,
    /// The largest the database file may grow, in MiB; beyond it writes are refused as on a
    /// full disk (default: no limit).
    #[arg(long)]
    db_max_mib: Option<u64>,
    /// Seconds a write waits for another process's lock on the database before it is refused.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=600))]
    db_wait: u64,
    /// What to log: error, warn, info, debug or trace (or a filter such as
    /// `bashni_server=debug`); the environment variable RUST_LOG says the same.
    #[arg(long, env = "RUST_LOG", default_value = "info")]
    log: String,
    /// The server runs behind a balancer (HAProxy, nginx) that adds the client's address to
    /// X-Forwarded-For: the limits per address count that address, and the limit of open
    /// connections per address is lifted (they all come from the balancer).
    #[arg(long)]
    behind_proxy: bool,
    /// Serve the page's files from this folder instead of the built-in copies
    /// (for working on the page).
    #[arg(long, env = "BASHNI_WEB_DIR")]
    web_dir: Option<PathBuf>,
    /// Seconds the player to move in a game between two people may be offline on their
    /// turn before the other player may claim the win or a draw.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    abandon_after_secs: u64,
    /// Seconds each side has for its first move in a tournament or rated game: missing it
    /// loses a tournament game and aborts a rated one.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(5..=86400))]
    first_move_secs: u64,
    /// Send the session cookie only over HTTPS (`Secure`): required when the site is served
    /// over TLS (by this server's balancer or proxy).
    #[arg(long)]
    secure_cookies: bool,
    /// The site's origin as browsers see it (`https://bashni.example`), when a proxy in front
    /// changes the Host header: requests of logged-in players must come from it.
    #[arg(long, value_parser = bashni_server::account::site_origin)]
    site_origin: Option<String>,
    /// Log-in attempts allowed per minute from one address, and for one account name from
    /// one address (ten times as many an hour for a name from addresses it never logged in
    /// from).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    login_attempts_per_minute: u32,
}

/// Runs the server until it is stopped.
pub fn run(args: &Args) -> Result<ExitCode, Box<dyn Error>> {
    let filter = tracing_subscriber::EnvFilter::try_new(&args.log)
        .map_err(|e| format!("--log {:?}: {e}", args.log))?;
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_target(false)
        .try_init()
        .map_err(|e| format!("cannot start the log: {e}"))?;
    let shared = args.db.starts_with("postgres://") || args.db.starts_with("postgresql://");
    let file = (!shared).then(|| {
        let options = StoreOptions {
            busy_timeout: Duration::from_secs(args.db_wait),
            max_mib: args.db_max_mib,
            ..StoreOptions::default()
        };
        Store::open(std::path::Path::new(&args.db), options)
            .map_err(|e| format!("cannot open the database {}: {e}", args.db))
    });
    let file = file.transpose()?;
    let tables = args
        .egtb
        .as_deref()
        .map(|dir| bashni_server::EndgameTables::open(dir, args.egtb_memory.map(|mib| mib << 20)))
        .transpose()?;
    let settings = Settings {
        engines: args
            .engines
            .map_or_else(Settings::default_engines, usize::from),
        hash_mb: usize::from(args.hash),
        tables,
        web_dir: args.web_dir.clone(),
        connections_per_address: if args.behind_proxy {
            usize::MAX
        } else {
            args.connections_per_address as usize
        },
        behind_proxy: args.behind_proxy,
        open_requests_per_address: args.open_requests_per_address as usize,
        connections: args.connections as usize,
        body_pace: bashni_server::limits::BodyPace {
            patience: Duration::from_secs(args.body_timeout),
            min_rate: args.body_min_rate,
        },
        new_games_per_minute: args.new_games_per_minute,
        requests_per_second: args.requests_per_second,
        idle_timeout: Duration::from_secs(args.idle_timeout),
        abandon_after: Duration::from_secs(args.abandon_after_secs),
        first_move: Duration::from_secs(args.first_move_secs),
        secure_cookies: args.secure_cookies,
        site_origin: args.site_origin.clone(),
        login_attempts_per_minute: args.login_attempts_per_minute,
        ..Settings::default()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let database: Database = match file {
            Some(store) => store.into(),
            None => PgStore::connect(&args.db)
                .await
                .map_err(|e| format!("cannot use the database {}: {e}", shown_url(&args.db)))?
                .into(),
        };
        // A bad puzzle file stops the start, with the line that is wrong.
        let mut extra = Vec::new();
        for file in &args.puzzles {
            let text =
                std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
            extra.extend(
                bashni_puzzles::read_puzzles(&text)
                    .map_err(|e| format!("{}: {e}", file.display()))?,
            );
        }
        let listener = tokio::net::TcpListener::bind(&args.addr)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", args.addr))?;
        let address = listener.local_addr()?;
        let mut out = std::io::stdout();
        writeln!(
            out,
            "Bashni is running. Open http://{address}/ in your browser (games are kept in {}).",
            shown_url(&args.db)
        )?;
        out.flush()?;
        tracing::info!(
            %address, engines = settings.engines, db = %shown_url(&args.db), "serving"
        );
        if let Some(tables) = &settings.tables {
            tracing::info!(
                pieces = tables.0.max_pieces(),
                slices = tables.0.signatures().len(),
                "the engines play by endgame tables"
            );
        }
        let app = App::new(database, settings);
        if !extra.is_empty() {
            let total = extra.len();
            let added = app.database.add_puzzles(extra).await?;
            tracing::info!(total, added, "puzzles from the files given");
        }
        let mut terminate =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        let server = tokio::spawn(bashni_server::serve(listener, std::sync::Arc::clone(&app)));
        tokio::select! {
            served = server => served??,
            _ = tokio::signal::ctrl_c() => app.stop(Duration::from_secs(10)).await,
            _ = terminate.recv() => app.stop(Duration::from_secs(10)).await,
        }
        Ok::<_, Box<dyn Error>>(ExitCode::SUCCESS)
    })
}

/// A database address as it may be shown: without a password.
pub(crate) fn shown_url(db: &str) -> String {
    match (db.find("://"), db.find('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let user_end = db[scheme + 3..at].find(':').map_or(at, |c| scheme + 3 + c);
            format!("{}{}", &db[..user_end], &db[at..])
        }
        _ => db.to_string(),
    }
}
