//! The games on disk: one SQLite file with versioned migrations.
//!
//! The store knows rows, not rules: it keeps each game's settings, seats, clocks and result,
//! and its moves as text. Every write that changes a game is one transaction, and a caller
//! acknowledges a move only after [`Store::append_move`] has returned.

use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use rusqlite::{Connection, OptionalExtension, Row, params};

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
];

/// A failure of the database.
#[derive(Debug)]
pub struct StoreError(pub String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "database: {}", self.0)
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(error: rusqlite::Error) -> StoreError {
        StoreError(error.to_string())
    }
}

/// One seat as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// The player's name as shown.
    pub name: String,
    /// The seat's secret token (hex), if a person holds it.
    pub token: Option<String>,
    /// Whether somebody (or the engine) sits there.
    pub joined: bool,
}

/// A game's settings and state, everything but its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// The game's id, used in its links.
    pub id: String,
    /// `bashni` or `russian`.
    pub variant: String,
    /// `engine`, `friend`, `local` or `record`.
    pub mode: String,
    /// The start position in the compact FEN form.
    pub start_fen: String,
    /// The engine's level in an engine game.
    pub level: Option<u8>,
    /// The engine's colour (`white` or `black`) in an engine game.
    pub engine_color: Option<String>,
    /// The colour of the seat the game's creator took.
    pub creator: Option<String>,
    /// White's seat.
    pub white: SeatRow,
    /// Black's seat.
    pub black: SeatRow,
    /// The invite code of a friend game's free seat, until it is taken.
    pub invite: Option<String>,
    /// The clock's starting time, if the game has a clock.
    pub base_ms: Option<i64>,
    /// The increment per move.
    pub increment_ms: Option<i64>,
    /// White's time left when White's clock last stopped.
    pub white_ms: Option<i64>,
    /// Black's time left when Black's clock last stopped.
    pub black_ms: Option<i64>,
    /// `1-0`, `0-1`, `1/2-1/2`, or `None` while the game goes on.
    pub result: Option<String>,
    /// Why the game ended, for people.
    pub reason: Option<String>,
    /// Why the game ended, as a code (see the API description).
    pub reason_code: Option<String>,
    /// The colour whose draw offer is open.
    pub draw_offer: Option<String>,
    /// Extra PDN tags (a JSON array of pairs), kept from an uploaded record.
    pub tags: String,
    /// When the game was made (ms since 1970).
    pub created_ms: i64,
    /// When it last changed.
    pub updated_ms: i64,
    /// How many changes the game has seen (grows with every change, never goes back).
    pub version: i64,
    /// The colour that offered a draw last, open or not.
    pub last_offer: Option<String>,
}

/// One move as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    /// 0 for the first move.
    pub ply: u32,
    /// The move in full notation.
    pub text: String,
    /// White's time left after the move.
    pub white_ms: Option<i64>,
    /// Black's time left after the move.
    pub black_ms: Option<i64>,
    /// When it was played (ms since 1970).
    pub at_ms: i64,
}

/// A game in a list.
#[derive(Clone, Debug)]
pub struct GameSummary {
    /// The row.
    pub row: GameRow,
    /// How many moves have been played.
    pub moves: u32,
}

/// The database.
pub struct Store {
    connection: Mutex<Connection>,
}

const GAME_COLUMNS: &str = "id, variant, mode, start_fen, level, engine_color, creator, \
    white_name, black_name, white_token, black_token, white_joined, black_joined, invite, \
    base_ms, increment_ms, white_ms, black_ms, result, reason, reason_code, draw_offer, tags, \
    created_ms, updated_ms, version, last_offer";

fn game_from_row(row: &Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: row.get(0)?,
        variant: row.get(1)?,
        mode: row.get(2)?,
        start_fen: row.get(3)?,
        level: row.get(4)?,
        engine_color: row.get(5)?,
        creator: row.get(6)?,
        white: SeatRow {
            name: row.get(7)?,
            token: row.get(9)?,
            joined: row.get(11)?,
        },
        black: SeatRow {
            name: row.get(8)?,
            token: row.get(10)?,
            joined: row.get(12)?,
        },
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
    })
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
    /// a background thread runs them once a second on its own connection, and they never
    /// block writers.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let connection = Connection::open(path)?;
        let store = Store::setup(connection)?;
        store.lock().pragma_update(None, "wal_autocheckpoint", 0)?;
        let checkpoints = Connection::open(path)?;
        checkpoints.busy_timeout(std::time::Duration::from_secs(5))?;
        std::thread::Builder::new()
            .name("checkpoints".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(std::time::Duration::from_secs(1));
                    if let Err(error) =
                        checkpoints.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
                    {
                        tracing::warn!("checkpoint: {error}");
                    }
                }
            })
            .map_err(|e| StoreError(format!("cannot start the checkpoint thread: {e}")))?;
        Ok(store)
    }

    /// A database in memory, for tests.
    pub fn in_memory() -> Result<Store, StoreError> {
        Store::setup(Connection::open_in_memory()?)
    }

    fn setup(mut connection: Connection) -> Result<Store, StoreError> {
        connection.pragma_update(None, "journal_mode", "WAL")?;
        connection.pragma_update(None, "synchronous", "NORMAL")?;
        connection.pragma_update(None, "foreign_keys", "ON")?;
        connection.busy_timeout(std::time::Duration::from_secs(5))?;
        let version: i64 = connection.pragma_query_value(None, "user_version", |r| r.get(0))?;
        let known = MIGRATIONS.len() as i64;
        if version > known {
            return Err(StoreError(format!(
                "the database has schema version {version}, newer than this program's {known}"
            )));
        }
        for (step, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            let transaction = connection.transaction()?;
            transaction.execute_batch(sql)?;
            transaction.pragma_update(None, "user_version", step as i64 + 1)?;
            transaction.commit()?;
        }
        Ok(Store {
            connection: Mutex::new(connection),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves SQLite consistent (transactions roll back).
        self.connection
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The schema version in use.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        Ok(self
            .lock()
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    /// Stores a new game with its moves (a record read from PDN has some).
    pub fn insert_game(&self, game: &GameRow, moves: &[MoveRow]) -> Result<(), StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        transaction.execute(
            &format!(
                "INSERT INTO games ({GAME_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, \
                 ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27)"
            ),
            params![
                game.id,
                game.variant,
                game.mode,
                game.start_fen,
                game.level,
                game.engine_color,
                game.creator,
                game.white.name,
                game.black.name,
                game.white.token,
                game.black.token,
                game.white.joined,
                game.black.joined,
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
            ],
        )?;
        for mv in moves {
            insert_move(&transaction, &game.id, mv)?;
        }
        transaction.commit()?;
        Ok(())
    }

    /// Stores a played move and the game's new state, together.
    pub fn append_move(&self, game: &GameRow, mv: &MoveRow) -> Result<(), StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        insert_move(&transaction, &game.id, mv)?;
        update_game(&transaction, game)?;
        transaction.commit()?;
        Ok(())
    }

    /// Stores the game's new state (seats, clocks, result, draw offer).
    pub fn update_game(&self, game: &GameRow) -> Result<(), StoreError> {
        let connection = self.lock();
        update_game(&connection, game)
    }

    /// Takes back every move from `ply` on and stores the game's new state, together.
    pub fn take_back(&self, game: &GameRow, ply: u32) -> Result<(), StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        transaction.execute(
            "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
            params![game.id, ply],
        )?;
        update_game(&transaction, game)?;
        transaction.commit()?;
        Ok(())
    }

    /// The game `id` and its moves in order, if there is one.
    pub fn load_game(&self, id: &str) -> Result<Option<(GameRow, Vec<MoveRow>)>, StoreError> {
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
        Ok(Some((game, moves)))
    }

    /// The games changed most recently, newest first.
    pub fn recent_games(&self, limit: u32) -> Result<Vec<GameSummary>, StoreError> {
        let connection = self.lock();
        let columns = GAME_COLUMNS
            .split(", ")
            .map(|c| format!("g.{}", c.trim()))
            .collect::<Vec<_>>()
            .join(", ");
        let mut statement = connection.prepare_cached(&format!(
            "SELECT {columns}, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) \
             FROM games g ORDER BY g.updated_ms DESC LIMIT ?1"
        ))?;
        let games = statement
            .query_map(params![limit], |row| {
                Ok(GameSummary {
                    row: game_from_row(row)?,
                    moves: row.get(27)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(games)
    }
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

fn update_game(connection: &Connection, game: &GameRow) -> Result<(), StoreError> {
    let changed = connection
        .prepare_cached(
            "UPDATE games SET white_name = ?2, black_name = ?3, white_token = ?4, \
             black_token = ?5, white_joined = ?6, black_joined = ?7, invite = ?8, white_ms = ?9, \
             black_ms = ?10, result = ?11, reason = ?12, reason_code = ?13, draw_offer = ?14, \
             updated_ms = ?15, version = ?16, last_offer = ?17 WHERE id = ?1",
        )?
        .execute(params![
            game.id,
            game.white.name,
            game.black.name,
            game.white.token,
            game.black.token,
            game.white.joined,
            game.black.joined,
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
        ])?;
    if changed == 1 {
        Ok(())
    } else {
        Err(StoreError(format!(
            "game {} is not in the database",
            game.id
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRow {
        GameRow {
            id: "g1".into(),
            variant: "bashni".into(),
            mode: "friend".into(),
            start_fen: "W:W:B".into(),
            level: None,
            engine_color: None,
            creator: Some("white".into()),
            white: SeatRow {
                name: "Anna".into(),
                token: Some("aa".into()),
                joined: true,
            },
            black: SeatRow {
                name: "".into(),
                token: None,
                joined: false,
            },
            invite: Some("inv".into()),
            base_ms: Some(60_000),
            increment_ms: Some(1_000),
            white_ms: Some(60_000),
            black_ms: Some(60_000),
            result: None,
            reason: None,
            reason_code: None,
            draw_offer: None,
            tags: "[]".into(),
            created_ms: 1,
            updated_ms: 1,
            version: 1,
            last_offer: None,
        }
    }

    fn mv(ply: u32, text: &str) -> MoveRow {
        MoveRow {
            ply,
            text: text.into(),
            white_ms: Some(59_000),
            black_ms: Some(60_000),
            at_ms: 2,
        }
    }

    #[test]
    fn games_and_moves_round_trip() -> Result<(), StoreError> {
        let store = Store::in_memory()?;
        assert_eq!(store.schema_version()?, MIGRATIONS.len() as i64);
        let mut game = sample();
        store.insert_game(&game, &[])?;
        store.append_move(&game, &mv(0, "c3-d4"))?;
        game.black.joined = true;
        game.black.name = "Boris".into();
        game.updated_ms = 5;
        store.append_move(&game, &mv(1, "f6-g5"))?;
        let (loaded, moves) = store.load_game("g1")?.ok_or(StoreError("missing".into()))?;
        assert_eq!(loaded, game);
        assert_eq!(moves, vec![mv(0, "c3-d4"), mv(1, "f6-g5")]);
        store.take_back(&game, 1)?;
        let (_, moves) = store.load_game("g1")?.ok_or(StoreError("missing".into()))?;
        assert_eq!(moves, vec![mv(0, "c3-d4")]);
        let recent = store.recent_games(10)?;
        assert_eq!(recent.len(), 1);
        assert_eq!(recent[0].moves, 1);
        assert!(store.load_game("nope")?.is_none());
        Ok(())
    }

    #[test]
    fn a_move_twice_at_the_same_ply_is_refused() -> Result<(), StoreError> {
        let store = Store::in_memory()?;
        let game = sample();
        store.insert_game(&game, &[])?;
        store.append_move(&game, &mv(0, "c3-d4"))?;
        assert!(store.append_move(&game, &mv(0, "c3-b4")).is_err());
        let (_, moves) = store.load_game("g1")?.ok_or(StoreError("missing".into()))?;
        assert_eq!(moves, vec![mv(0, "c3-d4")]);
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
        let store = Store::setup(connection)?;
        assert_eq!(store.schema_version()?, MIGRATIONS.len() as i64);
        let (game, _) = store
            .load_game("old")?
            .ok_or(StoreError("missing".into()))?;
        assert_eq!(game.version, 0);
        assert_eq!(game.white.name, "A");
        Ok(())
    }

    #[test]
    fn reopening_keeps_games_and_schema() -> Result<(), StoreError> {
        let dir = std::env::temp_dir().join(format!("bashni-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| StoreError(e.to_string()))?;
        let path = dir.join("games.sqlite3");
        let _ = std::fs::remove_file(&path);
        {
            let store = Store::open(&path)?;
            store.insert_game(&sample(), &[mv(0, "c3-d4")])?;
        }
        let store = Store::open(&path)?;
        assert_eq!(store.schema_version()?, MIGRATIONS.len() as i64);
        let (_, moves) = store.load_game("g1")?.ok_or(StoreError("missing".into()))?;
        assert_eq!(moves.len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    }
}
