//! `bashni serve`: the web app on this machine, its games in an SQLite file.

use std::error::Error;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use bashni_server::{App, Settings, Store};

/// Options of `bashni serve`.
#[derive(clap::Args)]
pub struct Args {
    /// The address to listen on (port 0: any free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// The database file; made if missing.
    #[arg(long, default_value = "bashni.sqlite3")]
    db: PathBuf,
    /// How many engine searches may run at once.
    #[arg(long, default_value_t = 2)]
    engines: usize,
    /// Table size of each engine, in MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// The most connections one address may hold open (more are refused with 429).
    #[arg(long, default_value_t = 64)]
    connections_per_address: usize,
    /// Serve the page's files from this folder instead of the built-in copies
    /// (for working on the page).
    #[arg(long, env = "BASHNI_WEB_DIR")]
    web_dir: Option<PathBuf>,
}

/// Runs the server until it is stopped.
pub fn run(args: &Args) -> Result<ExitCode, Box<dyn Error>> {
    let store = Store::open(&args.db)
        .map_err(|e| format!("cannot open the database {}: {e}", args.db.display()))?;
    let settings = Settings {
        engines: args.engines.max(1),
        hash_mb: args.hash.clamp(1, 4096),
        web_dir: args.web_dir.clone(),
        connections_per_address: args.connections_per_address.max(1),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(&args.addr)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", args.addr))?;
        let address = listener.local_addr()?;
        let mut out = std::io::stdout();
        writeln!(
            out,
            "Bashni is running. Open http://{address}/ in your browser (games are kept in {}).",
            args.db.display()
        )?;
        out.flush()?;
        let app = App::new(store, settings);
        tokio::select! {
            served = bashni_server::serve(listener, app) => served?,
            _ = tokio::signal::ctrl_c() => {}
        }
        Ok::<_, Box<dyn Error>>(ExitCode::SUCCESS)
    })
}
