//! The games on disk. The store is the truth: it keeps each game's settings, seats, clocks
//! and result, and its moves as text; a [`Round`](crate::game::round::Round) is turned into rows and
//! back in [`rows`] and nowhere else. Every write that changes a game is one transaction that
//! succeeds only against the version the change was computed on, and a caller acknowledges a
//! change only after it has returned.
//!
//! Two databases hold the same tables: an SQLite file ([`Store`], the default, on a thread of
//! its own) and PostgreSQL ([`PgStore`], for several servers sharing their games).
//! [`Database`] is the one interface the server uses.

/// Runs `$sqlite` on the store's thread (with `store` bound to the SQLite store) or `$pg`
/// (with `store` bound to the PostgreSQL store): the one dispatch of every call of
/// [`Database`] that is the same on both.
macro_rules! on_backend {
    ($database:expr, |$store:ident| $sqlite:expr, $pg:expr) => {
        match &$database.backend {
            $crate::store::database::Backend::Sqlite { thread, .. } => {
                thread
                    .run(move |$store: &$crate::store::Store| $sqlite)
                    .await?
            }
            $crate::store::database::Backend::Postgres($store) => $pg.await,
        }
    };
}

/// The name a deleted account shows, as a literal for the statements that show it (see
/// [`DELETED_NAME`]).
macro_rules! deleted_name {
    () => {
        "deleted player"
    };
}

/// The name of the account in the players row `p` as lists show it: the placeholder once the
/// account is deleted.
macro_rules! shown_name {
    () => {
        concat!(
            "CASE WHEN p.deleted_ms IS NULL THEN p.name ELSE '",
            deleted_name!(),
            "' END"
        )
    };
}

mod database;
mod grouped;
mod lobby;
mod people;
mod players;
mod postgres;
mod puzzles;
mod ratings;
mod rows;
mod sqlite;
mod tournaments;

pub use database::Database;
pub use lobby::{SEEK_LEASE_MS, SeekNote, SeekRow};
pub use people::{CHAT_LINES_KEPT, ChatLine, PEOPLE_CHANNEL, SeatSeen};
pub use players::{
    NewPlayer, PlayerGame, PlayerRow, SessionRow, SessionSeen, Signup, VariantResults,
};
pub use postgres::{Heard, JOB_LEASE_MS, PgStore, migrations as postgres_migrations};
pub use puzzles::{AttemptOutcome, PICK_AMONG, Pick, PuzzleRating, PuzzleRow, rate_attempt};
pub use ratings::{HistoryPoint, LeaderRow, RatingRow};
pub use rows::{ChangeNote, Step, apply_note};
pub use sqlite::Store;
pub use tournaments::{
    Advance, BoardRow, EntrantRow, Entry, TOURNAMENTS_LISTED, TournamentData, TournamentRow,
};

use std::time::Duration;

/// What went wrong in the database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreErrorKind {
    /// Another process holds the database's lock for longer than the wait allowed.
    Busy,
    /// The disk (or the database's size limit) is full.
    Full,
    /// The game changed since the change was computed (another writer came first).
    Stale,
    /// A stored game cannot be read back.
    Corrupt,
    /// Anything else.
    Other,
}

/// A failure of the database.
#[derive(Clone, Debug)]
pub struct StoreError {
    /// What kind of failure.
    pub kind: StoreErrorKind,
    /// What happened.
    pub message: String,
}

impl StoreError {
    fn new(kind: StoreErrorKind, message: impl Into<String>) -> StoreError {
        StoreError {
            kind,
            message: message.into(),
        }
    }

    fn other(message: impl Into<String>) -> StoreError {
        StoreError::new(StoreErrorKind::Other, message)
    }
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "database: {}", self.message)
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(error: rusqlite::Error) -> StoreError {
        use rusqlite::ErrorCode;
        let kind = match error.sqlite_error_code() {
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreErrorKind::Busy,
            Some(ErrorCode::DiskFull) => StoreErrorKind::Full,
            Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => StoreErrorKind::Corrupt,
            _ => StoreErrorKind::Other,
        };
        StoreError::new(kind, error.to_string())
    }
}

/// How a store is opened.
#[derive(Clone, Copy, Debug)]
pub struct StoreOptions {
    /// How long a write waits for another process's lock before it fails.
    pub busy_timeout: Duration,
    /// The largest the database file may grow, in MiB (`None`: as large as the disk allows).
    pub max_mib: Option<u64>,
    /// The write-ahead log is truncated once it has grown past this many bytes.
    pub wal_limit_bytes: u64,
}

impl Default for StoreOptions {
    fn default() -> StoreOptions {
        StoreOptions {
            busy_timeout: Duration::from_secs(5),
            max_mib: None,
            wal_limit_bytes: 16 * 1024 * 1024,
        }
    }
}

/// What changed in a game, so that the store writes only that.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// A move was played (the round's last move; maybe the game ended with it).
    Move,
    /// Seats, clocks, result or draw offer changed.
    Game,
    /// Moves from this ply on were taken back.
    TakeBack(usize),
}

/// A game in a list.
#[derive(Clone, Debug)]
pub struct GameSummary {
    /// The game's id.
    pub id: String,
    /// `bashni` or `russian`.
    pub variant: String,
    /// The mode's name.
    pub mode: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// How many plies have been played.
    pub plies: u32,
    /// The score, once the game is over.
    pub result: Option<String>,
    /// Why it ended.
    pub reason: Option<String>,
    /// When it last changed (ms since 1970).
    pub updated_ms: i64,
    /// Its version (see [`Round::version`](crate::game::round::Round::version)).
    pub version: u64,
    /// Its place in the lists (ms since 1970): when it was made, when its first move was
    /// made and when it ended. Not every move: the lists' indexes are then written only
    /// for those, not for each move.
    pub listed_ms: i64,
}

/// Which games a list holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ListStatus {
    /// Every game.
    #[default]
    All,
    /// Games being played: not over, not records, both seats taken, at least one move made.
    Live,
    /// Games played to an end here: over, not records, not aborted.
    Finished,
    /// Game records read from PDN.
    Records,
}

impl ListStatus {
    /// The condition on a game `g` (its row in `games`) of this status, the same SQL for both
    /// databases; the partial indexes of their migrations have the same terms.
    pub(crate) fn condition(self) -> Option<&'static str> {
        match self {
            ListStatus::All => None,
            ListStatus::Live => Some(
                "g.result IS NULL AND g.mode <> 'record' AND g.white_joined AND \
                 g.black_joined AND EXISTS (SELECT 1 FROM moves m WHERE m.game_id = g.id)",
            ),
            ListStatus::Finished => {
                Some("g.result IS NOT NULL AND g.mode <> 'record' AND g.reason_code <> 'aborted'")
            }
            ListStatus::Records => Some("g.mode = 'record'"),
        }
    }
}

/// What a list of games asks for, newest first.
#[derive(Clone, Debug, Default)]
pub struct ListFilter {
    /// Which games.
    pub status: ListStatus,
    /// Only these games (unknown ids are left out).
    pub ids: Option<Vec<String>>,
    /// Only games older than this place in the list: listed before `.0` (see
    /// [`GameSummary::listed_ms`]), or at `.0` with an id before `.1` (the last game of the
    /// page before).
    pub before: Option<(i64, String)>,
    /// At most this many games.
    pub limit: u32,
}

/// The columns of a game in a list, read from `games g`, in [`GameSummary`]'s order.
pub(crate) const SUMMARY_COLUMNS: &str = "g.id, g.variant, g.mode, g.white_name, \
    g.black_name, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id), g.result, g.reason, \
    g.updated_ms, g.version, g.listed_ms";

/// The order of every list: newest first, ties by id (as [`ListFilter::before`] counts).
pub(crate) const LIST_ORDER: &str = "ORDER BY g.listed_ms DESC, g.id DESC";

/// The game row's place in the lists after an update (see [`GameSummary::listed_ms`]): the
/// update's time when the game's first move is stored or the game ends, else as it was.
/// `{result}` and `{updated}` are the update's parameters of the result and the time.
pub(crate) fn listed_after_update(result: &str, updated: &str) -> String {
    format!(
        "listed_ms = CASE WHEN (result IS NULL) <> ({result} IS NULL) \
         OR NOT EXISTS (SELECT 1 FROM moves m WHERE m.game_id = games.id) \
         THEN {updated} ELSE listed_ms END"
    )
}

/// A game going on between seated players, as a list of whose turn it is needs it.
#[derive(Clone, Debug)]
pub struct TurnSummary {
    /// The game's id.
    pub id: String,
    /// `bashni` or `russian`.
    pub variant: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// White's seat token (compared, never shown).
    pub white_token: Option<String>,
    /// Black's seat token (compared, never shown).
    pub black_token: Option<String>,
    /// The engine's colour, in a game against the engine.
    pub engine_color: Option<String>,
    /// The side to move: `white` or `black`.
    pub to_move: String,
    /// Days per move of a correspondence game.
    pub days_per_move: Option<u32>,
    /// The side to move's deadline in a correspondence game (ms since 1970).
    pub deadline_ms: Option<i64>,
    /// How many plies have been played.
    pub plies: u32,
    /// When it last changed (ms since 1970).
    pub updated_ms: i64,
}

/// The games going on between people where account `$1` is to move (its seat's colour is
/// the side to move), the newest first, at most [`MAX_TURN_GAMES`].
pub(crate) const ACCOUNT_TURNS: &str = "SELECT id FROM games WHERE to_move IS NOT NULL \
    AND engine_color IS NULL \
    AND ((white_player = $1 AND to_move = 'white') OR (black_player = $1 AND to_move = 'black')) \
    ORDER BY updated_ms DESC LIMIT 100";

/// The columns of [`TurnSummary`], in its order, read from `games g`.
pub(crate) const TURN_COLUMNS: &str = "g.id, g.variant, g.white_name, g.black_name, \
    g.white_token, g.black_token, g.engine_color, g.to_move, g.days_per_move, g.deadline_ms, \
    (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id), g.updated_ms";

/// The most games one list of turns reads.
pub const MAX_TURN_GAMES: usize = 100;

/// The most overdue games one sweep ends.
pub const OVERDUE_PER_SWEEP: u32 = 100;
