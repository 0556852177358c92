//! The games in one SQLite file, with versioned migrations.

use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::grouped::{all_refused, last_move_row};
use super::rows::{GameRow, MoveRow, move_row, round_of, row_of};
use super::{
    Change, GameSummary, LIST_ORDER, ListFilter, SUMMARY_COLUMNS, StoreError, StoreErrorKind,
    StoreOptions, TURN_COLUMNS, TurnSummary,
};
use crate::game::round::Round;
use crate::rating::GameRating;

/// The schema, one step per version; `PRAGMA user_version` records how many have run.
const MIGRATIONS: &[&str] = &[
    // 1: games and their moves.
    "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        variant TEXT NOT NULL,
        mode TEXT NOT NULL,
        start_fen TEXT NOT NULL,
        level INTEGER,
        engine_color TEXT,
        creator TEXT,
        white_name TEXT NOT NULL,
        black_name TEXT NOT NULL,
        white_token TEXT,
        black_token TEXT,
        white_joined INTEGER NOT NULL,
        black_joined INTEGER NOT NULL,
        invite TEXT,
        base_ms INTEGER,
        increment_ms INTEGER,
        white_ms INTEGER,
        black_ms INTEGER,
        result TEXT,
        reason TEXT,
        reason_code TEXT,
        draw_offer TEXT,
        tags TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        updated_ms INTEGER NOT NULL
    );
    CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        text TEXT NOT NULL,
        white_ms INTEGER,
        black_ms INTEGER,
        at_ms INTEGER NOT NULL,
        PRIMARY KEY (game_id, ply)
    ) WITHOUT ROWID;
    CREATE INDEX games_by_update ON games(updated_ms);",
    // 2: the game's change counter, so that it keeps growing across restarts.
    "ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;",
    // 3: the side that offered a draw last (Bashni 1.13.3 limits repeated offers).
    "ALTER TABLE games ADD COLUMN last_offer TEXT;",
    // 4: a rematch offered after the game (the side that offered), and the new game's id.
    "ALTER TABLE games ADD COLUMN rematch_by TEXT;
    ALTER TABLE games ADD COLUMN rematch_game TEXT;",
    // 5: the games lists, newest first: all games, live ones and finished ones (the
    // conditions of `ListStatus`).
    "DROP INDEX games_by_update;
    CREATE INDEX games_by_update ON games(updated_ms, id);
    CREATE INDEX games_live ON games(updated_ms, id)
        WHERE result IS NULL AND mode <> 'record' AND white_joined AND black_joined;
    CREATE INDEX games_finished ON games(updated_ms, id)
        WHERE result IS NOT NULL AND mode <> 'record' AND reason_code <> 'aborted';",
    // 6: the list of game records read from PDN.
    "CREATE INDEX games_records ON games(updated_ms, id) WHERE mode = 'record';",
    // 7: correspondence games (days per move, the side to move's deadline, found by the
    // sweeper through its index), and the side to move of every game going on (filled in
    // for the games already stored: the start's side, or the other after an odd number of
    // moves).
    "ALTER TABLE games ADD COLUMN days_per_move INTEGER;
    ALTER TABLE games ADD COLUMN deadline_ms INTEGER;
    ALTER TABLE games ADD COLUMN to_move TEXT;
    UPDATE games SET to_move = CASE
        WHEN ((SELECT COUNT(*) FROM moves m WHERE m.game_id = games.id) % 2 = 0)
            = (substr(start_fen, 1, 1) = 'W') THEN 'white' ELSE 'black' END
        WHERE result IS NULL AND mode <> 'record' AND white_joined AND black_joined;
    CREATE INDEX games_by_deadline ON games(deadline_ms) WHERE deadline_ms IS NOT NULL;",
    // 8: the chat of each game, in two rooms (players, watchers), and the players who muted
    // their opponent (a row for the side that mutes).
    "CREATE TABLE chat (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        room TEXT NOT NULL,
        seq INTEGER NOT NULL,
        author TEXT NOT NULL,
        name TEXT NOT NULL,
        text TEXT NOT NULL,
        at_ms INTEGER NOT NULL,
        PRIMARY KEY (game_id, room, seq)
    ) WITHOUT ROWID;
    CREATE TABLE chat_mutes (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        side TEXT NOT NULL,
        PRIMARY KEY (game_id, side)
    ) WITHOUT ROWID;",
    // 9: player accounts, their log-in sessions, and the accounts holding a game's seats.
    super::players::SQLITE_MIGRATION,
    // 10: the lobby's seeks (see `store::lobby`): who posted each (a socket on a server), what
    // game it asks for (JSON), the lease its server renews, and once it is taken, the game
    // and the owner's colour until the owner is told.
    "CREATE TABLE seeks (
        id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        server TEXT NOT NULL,
        name TEXT NOT NULL,
        settings TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        lease_until INTEGER NOT NULL,
        game TEXT,
        owner_color TEXT
    );
    CREATE INDEX seeks_by_owner ON seeks(owner);
    CREATE INDEX seeks_by_server ON seeks(server);",
    // 11: tournaments, their players, and the boards of each round with their games.
    super::tournaments::SQLITE_MIGRATION,
    // 12: rated games, ratings per variant and pace, and each rated game's rating changes.
    super::ratings::SQLITE_MIGRATION,
    // 13: the comments and variations of a record read from PDN (JSON, see `notes`).
    "ALTER TABLE games ADD COLUMN notes TEXT NOT NULL DEFAULT '';",
    // 14: whether a chat line's writer is an account (a guest's is not).
    "ALTER TABLE chat ADD COLUMN account INTEGER NOT NULL DEFAULT 0;",
    // 15: the language an account chose for the site (`en`, `ru`), if it chose one.
    "ALTER TABLE players ADD COLUMN language TEXT;",
    // 16: the lists by each game's place in them (made, first move, ended), not by its last
    // change: a move then writes no list index.
    LISTED_MIGRATION,
    // 17: puzzles with their ratings, players' puzzle ratings, and their rated attempts.
    super::puzzles::SQLITE_MIGRATION,
];

/// The lists' place of each game (see [`GameSummary::listed_ms`]) and the lists' indexes on
/// it, for both databases (`{int}`: the whole-number type).
macro_rules! listed_migration {
    ($int:literal) => {
        concat!(
            "ALTER TABLE games ADD COLUMN listed_ms ",
            $int,
            " NOT NULL DEFAULT 0;
            UPDATE games SET listed_ms = updated_ms;
            DROP INDEX games_by_update;
            DROP INDEX games_live;
            DROP INDEX games_finished;
            DROP INDEX games_records;
            DROP INDEX games_white_player;
            DROP INDEX games_black_player;
            CREATE INDEX games_by_listing ON games(listed_ms, id);
            CREATE INDEX games_live ON games(listed_ms, id)
                WHERE result IS NULL AND mode <> 'record' AND white_joined AND black_joined;
            CREATE INDEX games_finished ON games(listed_ms, id)
                WHERE result IS NOT NULL AND mode <> 'record' AND reason_code <> 'aborted';
            CREATE INDEX games_records ON games(listed_ms, id) WHERE mode = 'record';
            CREATE INDEX games_white_player ON games(white_player, listed_ms, id)
                WHERE white_player IS NOT NULL;
            CREATE INDEX games_black_player ON games(black_player, listed_ms, id)
                WHERE black_player IS NOT NULL;"
        )
    };
}
pub(super) use listed_migration;

const LISTED_MIGRATION: &str = listed_migration!("INTEGER");

/// The games in an SQLite file.
pub struct Store {
    connection: Arc<Mutex<Connection>>,
    path: Option<std::path::PathBuf>,
    wal_limit_bytes: u64,
    /// Wakes the checkpoint thread when the log has grown past its limit.
    checkpoint_now: Option<std::sync::mpsc::SyncSender<()>>,
}

const GAME_COLUMNS: &str = "id, variant, mode, start_fen, level, engine_color, creator, \
    white_name, black_name, white_token, black_token, white_joined, black_joined, invite, \
    base_ms, increment_ms, white_ms, black_ms, result, reason, reason_code, draw_offer, tags, \
    created_ms, updated_ms, version, last_offer, rematch_by, rematch_game, days_per_move, \
    deadline_ms, to_move, notes";

fn game_from_row(row: &Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: row.get(0)?,
        variant: row.get(1)?,
        mode: row.get(2)?,
        start_fen: row.get(3)?,
        level: row.get(4)?,
        engine_color: row.get(5)?,
        creator: row.get(6)?,
        white: (row.get(7)?, row.get(9)?, row.get(11)?),
        black: (row.get(8)?, row.get(10)?, row.get(12)?),
        invite: row.get(13)?,
        base_ms: row.get(14)?,
        increment_ms: row.get(15)?,
        white_ms: row.get(16)?,
        black_ms: row.get(17)?,
        result: row.get(18)?,
        reason: row.get(19)?,
        reason_code: row.get(20)?,
        draw_offer: row.get(21)?,
        tags: row.get(22)?,
        created_ms: row.get(23)?,
        updated_ms: row.get(24)?,
        version: row.get(25)?,
        last_offer: row.get(26)?,
        rematch_by: row.get(27)?,
        rematch_game: row.get(28)?,
        days_per_move: row.get(29)?,
        deadline_ms: row.get(30)?,
        to_move: row.get(31)?,
        notes: row.get(32)?,
    })
}

fn sqlite_version(connection: &Connection) -> Result<i64, StoreError> {
    Ok(connection.pragma_query_value(None, "user_version", |r| r.get(0))?)
}

impl Store {
    /// Opens (or makes) the database at `path` and brings its schema up to date.
    ///
    /// The journal is a write-ahead log with `synchronous = NORMAL`: a commit is in the log
    /// before the call returns, so a killed server loses nothing it acknowledged; only a
    /// power cut can lose the last commits. That keeps a move's write well under a
    /// millisecond, where a full sync per move would cost several.
    ///
    /// Checkpoints (copying the log back into the database file, with its syncs) are not
    /// left to the writer, which would stall the move that happens to cross the threshold:
    /// a background thread runs them once a second on its own connection, and as soon as
    /// the writer sees the log past [`StoreOptions::wal_limit_bytes`]. Then it copies what it
    /// can while the writer goes on, holds the writer back only to copy the rest and
    /// truncate the log, so the log stays bounded while games are played, not only after.
    pub fn open(path: &Path, options: StoreOptions) -> Result<Store, StoreError> {
        let connection = Connection::open(path)?;
        let mut store = Store::setup(connection, options, Some(path))?;
        store.lock().pragma_update(None, "wal_autocheckpoint", 0)?;
        let checkpoints = Connection::open(path)?;
        checkpoints.busy_timeout(Duration::from_secs(5))?;
        let log = Log {
            wal: std::path::PathBuf::from(format!("{}-wal", path.display())),
            limit: options.wal_limit_bytes,
            writer: Arc::clone(&store.connection),
        };
        let (checkpoint_now, wanted) = std::sync::mpsc::sync_channel(1);
        store.checkpoint_now = Some(checkpoint_now);
        std::thread::Builder::new()
            .name("checkpoints".into())
            .spawn(move || checkpoint_loop(&checkpoints, &log, &wanted))
            .map_err(|e| StoreError::other(format!("cannot start the checkpoint thread: {e}")))?;
        Ok(store)
    }

    /// A database in memory, for tests.
    pub fn in_memory() -> Result<Store, StoreError> {
        Store::setup(Connection::open_in_memory()?, StoreOptions::default(), None)
    }

    fn setup(
        mut connection: Connection,
        options: StoreOptions,
        path: Option<&Path>,
    ) -> Result<Store, StoreError> {
        // A file from a newer program is refused before anything is written to it.
        let version = sqlite_version(&connection)?;
        let known = MIGRATIONS.len() as i64;
        if version > known {
            return Err(StoreError::other(format!(
                "the database has schema version {version}, newer than this program's {known}"
            )));
        }
        connection.busy_timeout(options.busy_timeout)?;
        connection.pragma_update(None, "journal_mode", "WAL")?;
        connection.pragma_update(None, "synchronous", "NORMAL")?;
        connection.pragma_update(None, "foreign_keys", "ON")?;
        connection.pragma_update(None, "journal_size_limit", 4 * 1024 * 1024)?;
        for (step, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            let transaction = connection.transaction()?;
            transaction.execute_batch(sql)?;
            transaction.pragma_update(None, "user_version", step as i64 + 1)?;
            transaction.commit()?;
        }
        let rekeyed = Store::rekey_players(&mut connection)?;
        if rekeyed > 0 {
            tracing::info!(accounts = rekeyed, "names' keys made by the present rule");
        }
        let store = Store {
            connection: Arc::new(Mutex::new(connection)),
            path: path.map(Path::to_path_buf),
            wal_limit_bytes: options.wal_limit_bytes,
            checkpoint_now: None,
        };
        if let Some(mib) = options.max_mib {
            store.limit_size(mib)?;
        }
        Ok(store)
    }

    /// Lets the database file grow to at most `mib` MiB (at least its present size): writes
    /// beyond fail as on a full disk.
    pub fn limit_size(&self, mib: u64) -> Result<(), StoreError> {
        let connection = self.lock();
        let page: i64 = connection.pragma_query_value(None, "page_size", |r| r.get(0))?;
        let pages = i64::try_from(mib.saturating_mul(1024 * 1024)).unwrap_or(i64::MAX) / page;
        let used: i64 = connection.pragma_query_value(None, "page_count", |r| r.get(0))?;
        connection.pragma_update(None, "max_page_count", pages.max(used))?;
        Ok(())
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves SQLite consistent (transactions roll back).
        self.connection
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The schema version in use.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        sqlite_version(&self.lock())
    }

    /// The size of the write-ahead log file, in bytes (0 in memory or when there is none).
    pub fn wal_bytes(&self) -> u64 {
        self.path
            .as_ref()
            .and_then(|p| std::fs::metadata(format!("{}-wal", p.display())).ok())
            .map_or(0, |m| m.len())
    }

    /// Asks the checkpoint thread to copy the log into the database and truncate it, if it
    /// has grown past its limit. The writer calls this after its writes.
    pub fn note_written(&self) {
        if let Some(checkpoint_now) = &self.checkpoint_now
            && self.wal_bytes() > self.wal_limit_bytes
        {
            // Full: the thread is asked already.
            let _ = checkpoint_now.try_send(());
        }
    }

    /// Stores a new game with its moves (a record read from PDN has some).
    pub fn insert(&self, round: &Round) -> Result<(), StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        insert_game(&transaction, round)?;
        transaction.commit()?;
        Ok(())
    }

    /// Stores `change` of `round`, in one transaction, provided the stored game is still at
    /// `was` (the version the change was computed on); otherwise nothing is written and the
    /// error's kind is [`StoreErrorKind::Stale`].
    pub fn save(&self, round: &Round, change: Change, was: u64) -> Result<(), StoreError> {
        self.save_rated(round, change, was).map(|_| ())
    }

    /// Like [`Store::save`]; when the change ends a rated game, both players' ratings change
    /// in the same transaction, and the change made is returned.
    pub fn save_rated(
        &self,
        round: &Round,
        change: Change,
        was: u64,
    ) -> Result<Option<GameRating>, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let rating = save_in(&transaction, round, change, was)?;
        transaction.commit()?;
        Ok(rating)
    }

    /// Stores several changes in one transaction (a group commit): each as
    /// [`Store::save_rated`] would, in order, and each on its own: a change that fails leaves
    /// nothing, while the others are stored. When the transaction itself cannot be committed,
    /// none is stored and each is answered with that failure.
    pub fn save_many(
        &self,
        changes: &[(&Round, Change, u64)],
    ) -> Vec<Result<Option<GameRating>, StoreError>> {
        let mut connection = self.lock();
        let all_fail = |error: &StoreError| all_refused(changes.len(), error);
        let transaction = match connection.transaction() {
            Ok(transaction) => transaction,
            Err(error) => return all_fail(&error.into()),
        };
        let mut results = Vec::with_capacity(changes.len());
        for &(round, change, was) in changes {
            let saved = transaction
                .execute_batch("SAVEPOINT change")
                .map_err(StoreError::from)
                .and_then(|()| save_in(&transaction, round, change, was));
            let ended = match saved {
                Ok(_) => transaction.execute_batch("RELEASE change"),
                Err(_) => transaction.execute_batch("ROLLBACK TO change; RELEASE change"),
            };
            match (ended, saved) {
                (Ok(()), saved) => results.push(saved),
                // SQLite may roll the whole transaction back itself (a full disk does):
                // then nothing of the batch is stored, for the change's reason.
                (Err(_), Err(error)) => return all_fail(&error),
                (Err(error), Ok(_)) => return all_fail(&error.into()),
            }
        }
        match transaction.commit() {
            Ok(()) => results,
            Err(error) => all_fail(&error.into()),
        }
    }

    /// The game `id`, rebuilt, if there is one.
    pub fn load(&self, id: &str) -> Result<Option<Round>, StoreError> {
        let connection = self.lock();
        let game = connection
            .query_row(
                &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"),
                params![id],
                game_from_row,
            )
            .optional()?;
        let Some(game) = game else {
            return Ok(None);
        };
        let mut statement = connection.prepare_cached(
            "SELECT ply, text, white_ms, black_ms, at_ms FROM moves WHERE game_id = ?1 ORDER BY ply",
        )?;
        let moves = statement
            .query_map(params![id], |row| {
                Ok(MoveRow {
                    ply: row.get(0)?,
                    text: row.get(1)?,
                    white_ms: row.get(2)?,
                    black_ms: row.get(3)?,
                    at_ms: row.get(4)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        drop(statement);
        let seats = super::players::read_seats_sqlite(&connection, id)?;
        let rated = super::ratings::read_rated_sqlite(&connection, id)?;
        drop(connection);
        round_of(game, &moves)
            .map(|round| Some(rated.apply(seats.apply(round))))
            .map_err(|e| StoreError::new(StoreErrorKind::Corrupt, format!("game {id}: {e}")))
    }

    /// The games changed most recently, newest first.
    pub fn recent(&self, limit: u32) -> Result<Vec<GameSummary>, StoreError> {
        self.list(&ListFilter {
            limit,
            ..ListFilter::default()
        })
    }

    /// The games `filter` asks for, newest first.
    pub fn list(&self, filter: &ListFilter) -> Result<Vec<GameSummary>, StoreError> {
        let Some((sql, values)) = list_query(filter) else {
            return Ok(Vec::new());
        };
        let connection = self.lock();
        let mut statement = connection.prepare_cached(&sql)?;
        let games = statement
            .query_map(rusqlite::params_from_iter(values), |row| {
                Ok(GameSummary {
                    id: row.get(0)?,
                    variant: row.get(1)?,
                    mode: row.get(2)?,
                    white: row.get(3)?,
                    black: row.get(4)?,
                    plies: row.get(5)?,
                    result: row.get(6)?,
                    reason: row.get(7)?,
                    updated_ms: row.get(8)?,
                    version: u64::try_from(row.get::<_, i64>(9)?).unwrap_or(0),
                    listed_ms: row.get(10)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(games)
    }
}

impl Store {
    /// The ids of correspondence games whose deadline is at or before `now_ms`, the longest
    /// overdue first, at most `limit`.
    pub fn overdue(&self, now_ms: i64, limit: u32) -> Result<Vec<String>, StoreError> {
        let connection = self.lock();
        let mut statement = connection.prepare_cached(
            "SELECT id FROM games WHERE deadline_ms IS NOT NULL AND deadline_ms <= ?1 \
             ORDER BY deadline_ms LIMIT ?2",
        )?;
        let ids = statement
            .query_map(params![now_ms, limit], |row| row.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(ids)
    }

    /// The ids of the games where account `player` is to move (see `ACCOUNT_TURNS`).
    pub fn account_turns(&self, player: i64) -> Result<Vec<String>, StoreError> {
        let connection = self.lock();
        let mut statement = connection.prepare_cached(&super::ACCOUNT_TURNS.replace("$1", "?1"))?;
        let ids = statement
            .query_map(params![player], |row| row.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(ids)
    }

    /// The games among `ids` that go on between seated players, with their side to move.
    pub fn turns(&self, ids: &[String]) -> Result<Vec<TurnSummary>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let places: Vec<String> = (1..=ids.len()).map(|n| format!("?{n}")).collect();
        let sql = format!(
            "SELECT {TURN_COLUMNS} FROM games g WHERE g.to_move IS NOT NULL AND g.id IN ({})",
            places.join(", ")
        );
        let connection = self.lock();
        let mut statement = connection.prepare(&sql)?;
        let games = statement
            .query_map(rusqlite::params_from_iter(ids), |row| {
                Ok(TurnSummary {
                    id: row.get(0)?,
                    variant: row.get(1)?,
                    white: row.get(2)?,
                    black: row.get(3)?,
                    white_token: row.get(4)?,
                    black_token: row.get(5)?,
                    engine_color: row.get(6)?,
                    to_move: row.get(7)?,
                    days_per_move: row.get(8)?,
                    deadline_ms: row.get(9)?,
                    plies: row.get(10)?,
                    updated_ms: row.get(11)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(games)
    }
}

/// The query of a list and its values; `None` when it can hold no game.
fn list_query(filter: &ListFilter) -> Option<(String, Vec<rusqlite::types::Value>)> {
    use rusqlite::types::Value;
    let mut clauses: Vec<String> = filter
        .status
        .condition()
        .map(String::from)
        .into_iter()
        .collect();
    let mut values: Vec<Value> = Vec::new();
    if let Some(ids) = &filter.ids {
        if ids.is_empty() {
            return None;
        }
        let mut places = Vec::new();
        for id in ids {
            values.push(Value::Text(id.clone()));
            places.push(format!("?{}", values.len()));
        }
        clauses.push(format!("g.id IN ({})", places.join(", ")));
    }
    if let Some((ms, id)) = &filter.before {
        values.push(Value::Integer(*ms));
        values.push(Value::Text(id.clone()));
        let n = values.len();
        clauses.push(format!("(g.listed_ms, g.id) < (?{}, ?{n})", n - 1));
    }
    values.push(Value::Integer(i64::from(filter.limit)));
    let sql = format!(
        "SELECT {SUMMARY_COLUMNS} FROM games g {} {LIST_ORDER} LIMIT ?{}",
        if clauses.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", clauses.join(" AND "))
        },
        values.len()
    );
    Some((sql, values))
}

/// Writes `change` of `round` in `connection`'s open transaction, provided the stored game is
/// still at `was`; returns the rating changes it makes.
fn save_in(
    connection: &Connection,
    round: &Round,
    change: Change,
    was: u64,
) -> Result<Option<GameRating>, StoreError> {
    let game = row_of(round);
    // The version check comes first, so a stale change is told apart from a broken one.
    update_game(connection, &game, was)?;
    match change {
        Change::Move => insert_move(connection, &game.id, &last_move_row(round)?)?,
        Change::TakeBack(ply) => {
            connection.execute(
                "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
                params![game.id, ply as i64],
            )?;
        }
        // Seats are taken (by an account too) only in changes of this kind.
        Change::Game => {
            super::players::write_seats_sqlite(connection, round)?;
            super::ratings::write_rated_sqlite(connection, round)?;
        }
    }
    super::ratings::apply_sqlite(connection, round)
}

/// The log frames (pages) left to copy that the writer may wait for while they are copied
/// and the log is truncated; more are copied first while it goes on.
const SMALL_REST_FRAMES: i64 = 256;

/// How far past its limit the log may grow while it is copied with the writer going on;
/// beyond, the writer is held for the rest of the copy and the truncation.
const LOG_HOLD_FACTOR: u64 = 4;

/// The write-ahead log as the checkpoint thread sees it: its file, the size past which it is
/// truncated, and the writer's connection (held while the log is truncated).
struct Log {
    wal: std::path::PathBuf,
    limit: u64,
    writer: Arc<Mutex<Connection>>,
}

/// Copies the log into the database once a second, and truncates it once it is past its
/// limit (woken by the writer as soon as it is) or nothing was written for a few seconds.
fn checkpoint_loop(connection: &Connection, log: &Log, wanted: &std::sync::mpsc::Receiver<()>) {
    let mut quiet = 0;
    let mut last_version = None;
    loop {
        match wanted.recv_timeout(Duration::from_secs(1)) {
            Ok(()) | Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return,
        }
        let size = std::fs::metadata(&log.wal).map_or(0, |m| m.len());
        // Nothing written for a few seconds (no other connection committed): the log goes
        // back to nothing too.
        let version = connection
            .query_row("PRAGMA data_version", [], |row| row.get::<_, i64>(0))
            .ok();
        quiet = if version == last_version {
            quiet + 1
        } else {
            0
        };
        last_version = version;
        let checkpoint = |mode: &str| {
            connection.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |row| {
                row.get::<_, i64>(0)
            })
        };
        let done = if size > log.limit {
            // The log is copied while the writer goes on, again while what it added meanwhile
            // is large; the writer waits only for the small rest and the truncation. A writer
            // faster than the copying is held at once, before the log is far past its limit.
            for _ in 0..4 {
                let now = std::fs::metadata(&log.wal).map_or(0, |m| m.len());
                if now > LOG_HOLD_FACTOR * log.limit {
                    break;
                }
                let left = connection.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
                    Ok(row.get::<_, i64>(1)? - row.get::<_, i64>(2)?)
                });
                if !left.is_ok_and(|frames| frames > SMALL_REST_FRAMES) {
                    break;
                }
            }
            let held = std::time::Instant::now();
            let writer = log.writer.lock().unwrap_or_else(|p| p.into_inner());
            let done = checkpoint("TRUNCATE");
            drop(writer);
            tracing::debug!(
                held_ms = held.elapsed().as_millis() as u64,
                "checkpoint: the log was truncated"
            );
            done
        } else if quiet >= 5 && size > 0 {
            checkpoint("TRUNCATE")
        } else {
            checkpoint("PASSIVE")
        };
        match done {
            Ok(0) => {}
            Ok(_) if size > log.limit => {
                tracing::warn!(
                    wal_bytes = size,
                    "checkpoint: the log could not be truncated yet"
                );
            }
            Ok(_) => {}
            Err(error) => tracing::warn!("checkpoint: {error}"),
        }
    }
}

/// Writes a new game with its moves in `connection`'s open transaction.
pub(super) fn insert_game(connection: &Connection, round: &Round) -> Result<(), StoreError> {
    let game = row_of(round);
    connection.execute(
        &format!(
            "INSERT INTO games ({GAME_COLUMNS}, listed_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, \
                 ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, \
                 ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?25)"
        ),
        params![
            game.id,
            game.variant,
            game.mode,
            game.start_fen,
            game.level,
            game.engine_color,
            game.creator,
            game.white.0,
            game.black.0,
            game.white.1,
            game.black.1,
            game.white.2,
            game.black.2,
            game.invite,
            game.base_ms,
            game.increment_ms,
            game.white_ms,
            game.black_ms,
            game.result,
            game.reason,
            game.reason_code,
            game.draw_offer,
            game.tags,
            game.created_ms,
            game.updated_ms,
            game.version,
            game.last_offer,
            game.rematch_by,
            game.rematch_game,
            game.days_per_move,
            game.deadline_ms,
            game.to_move,
            game.notes,
        ],
    )?;
    for ply in 0..round.game.ply() {
        if let Some(mv) = move_row(round, ply) {
            insert_move(connection, &game.id, &mv)?;
        }
    }
    super::players::write_seats_sqlite(connection, round)?;
    super::ratings::write_rated_sqlite(connection, round)?;
    Ok(())
}

fn insert_move(connection: &Connection, game: &str, mv: &MoveRow) -> Result<(), StoreError> {
    connection
        .prepare_cached(
            "INSERT INTO moves (game_id, ply, text, white_ms, black_ms, at_ms) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?
        .execute(params![
            game,
            mv.ply,
            mv.text,
            mv.white_ms,
            mv.black_ms,
            mv.at_ms
        ])?;
    Ok(())
}

fn update_game(connection: &Connection, game: &GameRow, was: u64) -> Result<(), StoreError> {
    let changed = connection
        .prepare_cached(&format!(
            "UPDATE games SET white_name = ?2, black_name = ?3, white_token = ?4, \
             black_token = ?5, white_joined = ?6, black_joined = ?7, invite = ?8, white_ms = ?9, \
             black_ms = ?10, result = ?11, reason = ?12, reason_code = ?13, draw_offer = ?14, \
             updated_ms = ?15, version = ?16, last_offer = ?17, rematch_by = ?18, \
             rematch_game = ?19, deadline_ms = ?21, to_move = ?22, {} \
             WHERE id = ?1 AND version = ?20",
            super::listed_after_update("?11", "?15")
        ))?
        .execute(params![
            game.id,
            game.white.0,
            game.black.0,
            game.white.1,
            game.black.1,
            game.white.2,
            game.black.2,
            game.invite,
            game.white_ms,
            game.black_ms,
            game.result,
            game.reason,
            game.reason_code,
            game.draw_offer,
            game.updated_ms,
            game.version,
            game.last_offer,
            game.rematch_by,
            game.rematch_game,
            i64::try_from(was).unwrap_or(i64::MAX),
            game.deadline_ms,
            game.to_move,
        ])?;
    if changed == 1 {
        Ok(())
    } else {
        Err(StoreError::new(
            StoreErrorKind::Stale,
            format!("game {} changed meanwhile (or is not stored)", game.id),
        ))
    }
}

#[cfg(test)]
pub(super) mod tests {
    use std::time::Instant;

    use bashni_rules::{Color, Position, TimeControl, Variant};

    use super::*;
    use crate::game::round::{Mode, Seat};
    use crate::store::ListStatus;

    /// A Bashni game `g1` between Anna and Boris, both seats in one browser.
    pub(in crate::store) fn sample() -> Round {
        let mut round = Round::new(
            "g1".into(),
            Mode::Local,
            Position::start(Variant::Bashni),
            Some(TimeControl {
                base: Duration::from_secs(60),
                increment: Duration::from_secs(1),
            }),
        );
        for (color, name) in [(Color::White, "Anna"), (Color::Black, "Boris")] {
            let player = round.player_mut(color);
            player.name = name.into();
            player.token = Some("aa".into());
            player.joined = true;
        }
        round.creator = Some(Seat::Both);
        round
    }

    fn play(store: &Store, round: &mut Round, text: &str) -> Result<(), StoreError> {
        let was = round.version;
        round
            .play(Seat::Both, text, false, Instant::now())
            .map_err(|e| StoreError::other(e.to_string()))?;
        store.save(round, Change::Move, was)
    }

    fn load(store: &Store, id: &str) -> Result<Round, StoreError> {
        store.load(id)?.ok_or(StoreError::other("missing"))
    }

    /// `round` with `text` played on it, and the version it was at.
    pub(in crate::store) fn moved(round: &Round, text: &str) -> Result<(Round, u64), StoreError> {
        let mut next = round.clone();
        next.play(Seat::Both, text, false, Instant::now())
            .map_err(|e| StoreError::other(e.to_string()))?;
        Ok((next, round.version))
    }

    #[test]
    fn a_group_commit_stores_each_change_on_its_own() -> Result<(), StoreError> {
        let store = Store::in_memory()?;
        let first = sample();
        let mut second = sample();
        second.id = "g2".into();
        store.insert(&first)?;
        store.insert(&second)?;
        let (a1, a1_was) = moved(&first, "c3-d4")?;
        let (a2, a2_was) = moved(&a1, "f6-g5")?;
        let (b1, _) = moved(&second, "c3-d4")?;
        // The second game's change is made on a version the store does not hold.
        let changes = [
            (&a1, Change::Move, a1_was),
            (&b1, Change::Move, second.version + 5),
            (&a2, Change::Move, a2_was),
        ];
        let results = store.save_many(&changes);
        assert!(results[0].is_ok(), "{:?}", results[0]);
        assert_eq!(
            results[1].as_ref().err().map(|e| e.kind),
            Some(StoreErrorKind::Stale)
        );
        assert!(results[2].is_ok(), "{:?}", results[2]);
        assert_eq!(load(&store, "g1")?.game.moves(), a2.game.moves());
        assert_eq!(load(&store, "g1")?.version, a2.version);
        assert_eq!(load(&store, "g2")?.game.ply(), 0);
        assert_eq!(load(&store, "g2")?.version, second.version);
        Ok(())
    }

    #[test]
    fn games_and_moves_round_trip() -> Result<(), StoreError> {
        let store = Store::in_memory()?;
        assert_eq!(store.schema_version()?, MIGRATIONS.len() as i64);
        let mut round = sample();
        store.insert(&round)?;
        play(&store, &mut round, "c3-d4")?;
        play(&store, &mut round, "f6-g5")?;
        let loaded = load(&store, "g1")?;
        assert_eq!(loaded.game.moves(), round.game.moves());
        assert_eq!(loaded.version, round.version);
        assert_eq!(loaded.white, round.white);
        assert_eq!(loaded.move_clocks, round.move_clocks);
        let was = round.version;
        let ply = round
            .take_back(Seat::Both, Instant::now())
            .map_err(|e| StoreError::other(e.to_string()))?;
        store.save(&round, Change::TakeBack(ply), was)?;
        assert_eq!(load(&store, "g1")?.game.ply(), 1);
        let recent = store.recent(10)?;
        assert_eq!(recent.len(), 1);
        assert_eq!(recent[0].plies, 1);
        assert!(store.load("nope")?.is_none());
        Ok(())
    }

    #[test]
    fn a_change_computed_on_an_old_version_is_refused() -> Result<(), StoreError> {
        let store = Store::in_memory()?;
        let mut round = sample();
        store.insert(&round)?;
        let mut other = round.clone();
        play(&store, &mut round, "c3-d4")?;
        let refused = play(&store, &mut other, "c3-b4");
        assert_eq!(
            refused.map_err(|e| e.kind).err(),
            Some(StoreErrorKind::Stale)
        );
        let stored = load(&store, "g1")?;
        assert_eq!(stored.game.moves(), round.game.moves());
        Ok(())
    }

    #[test]
    fn a_declared_result_is_declared_again() -> Result<(), StoreError> {
        let store = Store::in_memory()?;
        let mut round = sample();
        store.insert(&round)?;
        let was = round.version;
        round
            .resign(Seat::Both, Instant::now())
            .map_err(|e| StoreError::other(e.to_string()))?;
        store.save(&round, Change::Game, was)?;
        let loaded = load(&store, "g1")?;
        assert_eq!(loaded.ending(), round.ending());
        assert!(loaded.is_over());
        Ok(())
    }

    #[test]
    fn an_older_database_is_brought_up_to_date() -> Result<(), StoreError> {
        let connection = Connection::open_in_memory()?;
        connection.execute_batch(MIGRATIONS[0])?;
        connection.pragma_update(None, "user_version", 1)?;
        connection.execute(
            "INSERT INTO games (id, variant, mode, start_fen, white_name, black_name, \
             white_joined, black_joined, tags, created_ms, updated_ms) \
             VALUES ('old', 'russian', 'local', 'W:W:B', 'A', 'B', 1, 1, '[]', 1, 1)",
            [],
        )?;
        let store = Store::setup(connection, StoreOptions::default(), None)?;
        assert_eq!(store.schema_version()?, MIGRATIONS.len() as i64);
        let game = load(&store, "old")?;
        assert_eq!(game.version, 0);
        assert_eq!(game.white.name, "A");
        Ok(())
    }

    #[test]
    fn the_lists_of_live_and_finished_games_use_their_indexes() -> Result<(), StoreError> {
        let store = Store::in_memory()?;
        for (status, index) in [
            (ListStatus::Live, "games_live"),
            (ListStatus::Finished, "games_finished"),
            (ListStatus::Records, "games_records"),
            (ListStatus::All, "games_by_listing"),
        ] {
            let filter = ListFilter {
                status,
                before: Some((5, "x".into())),
                limit: 10,
                ..ListFilter::default()
            };
            let (sql, values) = list_query(&filter).ok_or(StoreError::other("no query"))?;
            let connection = store.lock();
            let mut statement = connection.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))?;
            let plan: Vec<String> = statement
                .query_map(rusqlite::params_from_iter(values), |row| row.get(3))?
                .collect::<Result<_, _>>()?;
            let plan = plan.join("; ");
            assert!(plan.contains(index), "{status:?}: {plan}");
            assert!(!plan.contains("TEMP B-TREE"), "{status:?} sorts: {plan}");
        }
        Ok(())
    }

    fn temp_path(name: &str) -> Result<std::path::PathBuf, StoreError> {
        let dir = std::env::temp_dir().join(format!("bashni-store-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| StoreError::other(e.to_string()))?;
        Ok(dir.join("games.sqlite3"))
    }

    #[test]
    fn reopening_keeps_games_and_schema() -> Result<(), StoreError> {
        let path = temp_path("reopen")?;
        let mut round = sample();
        {
            let store = Store::open(&path, StoreOptions::default())?;
            store.insert(&round)?;
            play(&store, &mut round, "c3-d4")?;
        }
        let store = Store::open(&path, StoreOptions::default())?;
        assert_eq!(store.schema_version()?, MIGRATIONS.len() as i64);
        assert_eq!(load(&store, "g1")?.game.ply(), 1);
        Ok(())
    }

    #[test]
    fn a_newer_file_is_refused_untouched() -> Result<(), StoreError> {
        let path = temp_path("newer")?;
        {
            let connection = Connection::open(&path)?;
            connection.pragma_update(None, "user_version", 99)?;
        }
        let before = std::fs::read(&path).map_err(|e| StoreError::other(e.to_string()))?;
        let refused = Store::open(&path, StoreOptions::default());
        assert!(refused.is_err_and(|e| e.message.contains("newer")));
        let after = std::fs::read(&path).map_err(|e| StoreError::other(e.to_string()))?;
        assert_eq!(before, after, "the file was written to");
        assert!(!std::path::Path::new(&format!("{}-wal", path.display())).exists());
        Ok(())
    }

    #[test]
    fn a_full_database_refuses_the_write_and_keeps_the_game() -> Result<(), StoreError> {
        let store = Store::in_memory()?;
        let mut round = sample();
        store.insert(&round)?;
        store.limit_size(0)?;
        let mut big = sample();
        big.id = "g2".into();
        big.tags = vec![("Event".into(), "x".repeat(100_000))];
        let refused = store.insert(&big);
        assert_eq!(
            refused.map_err(|e| e.kind).err(),
            Some(StoreErrorKind::Full)
        );
        play(&store, &mut round, "c3-d4")?;
        assert_eq!(load(&store, "g1")?.game.ply(), 1);
        Ok(())
    }

    #[test]
    fn an_older_database_learns_whose_turn_it_is() -> Result<(), StoreError> {
        let connection = Connection::open_in_memory()?;
        let before = MIGRATIONS
            .iter()
            .position(|sql| sql.contains("ADD COLUMN to_move"))
            .ok_or(StoreError::other("no migration adds to_move"))?;
        for sql in &MIGRATIONS[..before] {
            connection.execute_batch(sql)?;
        }
        connection.pragma_update(None, "user_version", before as i64)?;
        connection.execute_batch(
            "INSERT INTO games (id, variant, mode, start_fen, white_name, black_name, \
                 white_joined, black_joined, tags, created_ms, updated_ms, result) VALUES
                 ('whitesfirst', 'russian', 'local', 'W:W:B', 'A', 'B', 1, 1, '[]', 1, 1, NULL),
                 ('blacksfirst', 'russian', 'local', 'B:W:B', 'A', 'B', 1, 1, '[]', 1, 1, NULL),
                 ('over', 'russian', 'local', 'W:W:B', 'A', 'B', 1, 1, '[]', 1, 1, '1-0');
             INSERT INTO moves (game_id, ply, text, at_ms) VALUES ('whitesfirst', 0, 'c3-d4', 1);",
        )?;
        let store = Store::setup(connection, StoreOptions::default(), None)?;
        let ids = ["whitesfirst", "blacksfirst", "over"].map(String::from);
        let mut found: Vec<(String, String)> = store
            .turns(&ids)?
            .into_iter()
            .map(|game| (game.id, game.to_move))
            .collect();
        found.sort();
        let expected = [("blacksfirst", "black"), ("whitesfirst", "black")]
            .map(|(id, side)| (id.to_string(), side.to_string()));
        assert_eq!(found, expected);
        Ok(())
    }
}
