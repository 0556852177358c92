//! What the server is set to: limits, times, engines.

use super::*;

/// Settings of a server.
#[derive(Clone, Debug)]
pub struct Settings {
    /// How many engine searches may run at once.
    pub engines: usize,
    /// Table size of each engine, in MB.
    pub hash_mb: usize,
    /// Endgame tables of Russian draughts the engines play by (at the levels that play the
    /// best move, see [`bashni_engine::Level::uses_tables`]) and analyse with.
    pub tables: Option<EndgameTables>,
    /// Serve the page's files from this folder instead of the copies built in (development).
    pub web_dir: Option<std::path::PathBuf>,
    /// The most connections one address may hold open.
    pub connections_per_address: usize,
    /// The most HTTP requests one address may have in progress at once (behind a balancer,
    /// where all connections come from it, the limit that holds for slow requests).
    pub open_requests_per_address: usize,
    /// New games one address may make per minute (PDN uploads count one per game).
    pub new_games_per_minute: u32,
    /// HTTP requests one address may make per second on average (twice as many at once).
    pub requests_per_second: u32,
    /// How long a connection may take to send a request's headers, and may stay silent.
    pub idle_timeout: Duration,
    /// How fast a request's body must come (slower ones are answered 408 and closed).
    pub body_pace: crate::limits::BodyPace,
    /// The most connections open at once from all addresses (more are refused with 503);
    /// [`crate::serve`] lowers it to what the open-files limit allows.
    pub connections: usize,
    /// How long a game nobody uses stays in memory.
    pub keep_idle: Duration,
    /// How long a finished game nobody uses stays in memory.
    pub keep_finished: Duration,
    /// Whether the server runs behind a balancer that adds the client's address to
    /// `X-Forwarded-For` (limits per address then count that address).
    pub behind_proxy: bool,
    /// How often the server looks for correspondence games past their deadline.
    pub deadline_sweep: Duration,
    /// How long the side to move's player in a game between people may be offline on their
    /// turn before the other may claim the game (see [`crate::app::presence`]).
    pub abandon_after: Duration,
    /// The time for each side's first move in a tournament or rated game
    /// (see [`Round::first_move_due`](crate::game::round::Round::first_move_due)).
    pub first_move: Duration,
    /// With several servers: how often each renews its report of the sockets bound to seats
    /// (a report counts for three beats).
    pub presence_beat: Duration,
    /// Whether the session cookie is sent only over HTTPS (`Secure`): needed behind TLS.
    pub secure_cookies: bool,
    /// The site's own origin (`https://example.org`) when the server is behind a proxy that
    /// changes the `Host`; without it a request's `Origin` must name the `Host` it was sent to.
    pub site_origin: Option<String>,
    /// Log-in attempts per minute for one account name, and for one address.
    pub login_attempts_per_minute: u32,
    /// The time the server goes by: the machine's (tests move theirs forward).
    pub time: super::time::Time,
}

impl Settings {
    /// The number of engines when none is given: one per core.
    pub fn default_engines() -> usize {
        std::thread::available_parallelism().map_or(2, |n| n.get())
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            engines: Settings::default_engines(),
            hash_mb: 16,
            tables: None,
            web_dir: None,
            connections_per_address: 64,
            open_requests_per_address: 64,
            new_games_per_minute: 30,
            requests_per_second: 50,
            idle_timeout: Duration::from_secs(30),
            body_pace: crate::limits::BodyPace {
                patience: Duration::from_secs(10),
                min_rate: 1024,
            },
            connections: 100_000,
            keep_idle: Duration::from_secs(600),
            keep_finished: Duration::from_secs(5),
            behind_proxy: false,
            deadline_sweep: Duration::from_secs(10),
            abandon_after: Duration::from_secs(60),
            first_move: Duration::from_secs(30),
            presence_beat: Duration::from_secs(5),
            secure_cookies: false,
            site_origin: None,
            login_attempts_per_minute: 5,
            time: super::time::Time::default(),
        }
    }
}

/// Endgame tables loaded from a directory (`bashni egtb build`), shared by all engines.
#[derive(Clone, Debug)]
pub struct EndgameTables(pub Arc<bashni_egtb::Tablebase>);

impl EndgameTables {
    /// Loads the tables in `dir`: whole, or with `memory` (bytes) each slice when a search
    /// first needs it, within that bound (see [`bashni_egtb::Tablebase::open_on_demand`]).
    /// A directory that cannot be read, holds a damaged table (loaded whole) or holds none
    /// is an error saying so.
    pub fn open(dir: &std::path::Path, memory: Option<u64>) -> Result<EndgameTables, String> {
        let tables = bashni_egtb::Tablebase::load_within(dir, memory)
            .map_err(|e| format!("--egtb {}: {e}", dir.display()))?;
        Ok(EndgameTables(Arc::new(tables)))
    }

    /// What `/api/health` says of them: the most pieces covered, the number of slices, the
    /// memory their values take now and its bound when they are read on demand, and the
    /// slices that could not be read.
    pub fn summary(&self) -> serde_json::Value {
        serde_json::json!({
            "pieces": self.0.max_pieces(),
            "slices": self.0.signatures().len(),
            "memory_bytes": self.0.memory(),
            "memory_limit_bytes": self.0.memory_limit(),
            "problems": self.0.problems(),
        })
    }
}
