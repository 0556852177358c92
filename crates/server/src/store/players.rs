//! Player accounts in the store: the accounts, their log-in sessions, and which account holds
//! each seat of a game. The same tables and the same SQL on both databases (written with
//! PostgreSQL's `$1` placeholders; SQLite reads them as its numbered `?1`).
//!
//! An account is never removed, only marked deleted: its games keep pointing at it and show
//! "deleted player", and its name stays taken so that nobody can come after it under the
//! same or a look-alike name.

use deadpool_postgres::GenericClient;
use rusqlite::{Connection, OptionalExtension, params};

use super::postgres::{CHANNEL, exec};
use super::{Database, GameSummary, LIST_ORDER, PgStore, SUMMARY_COLUMNS, Store, StoreError};
use crate::game::round::Round;

/// The name a deleted account's seats show, and the account in lists (tournaments).
pub const DELETED_NAME: &str = deleted_name!();

/// SQLite's step of the schema (version 7).
pub(super) const SQLITE_MIGRATION: &str = "CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        deleted_ms INTEGER
    );
    CREATE TABLE sessions (
        id_hash TEXT PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players(id),
        created_ms INTEGER NOT NULL,
        last_seen_ms INTEGER NOT NULL,
        expires_ms INTEGER NOT NULL,
        address TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX sessions_by_player ON sessions(player_id);
    CREATE INDEX sessions_by_expiry ON sessions(expires_ms);
    ALTER TABLE games ADD COLUMN white_player INTEGER REFERENCES players(id);
    ALTER TABLE games ADD COLUMN black_player INTEGER REFERENCES players(id);
    CREATE INDEX games_white_player ON games(white_player, updated_ms, id)
        WHERE white_player IS NOT NULL;
    CREATE INDEX games_black_player ON games(black_player, updated_ms, id)
        WHERE black_player IS NOT NULL;";

/// PostgreSQL's step of the schema (version 8).
pub(super) const POSTGRES_MIGRATION: &str = "CREATE TABLE players (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        deleted_ms BIGINT
    );
    CREATE TABLE sessions (
        id_hash TEXT PRIMARY KEY,
        player_id BIGINT NOT NULL REFERENCES players(id),
        created_ms BIGINT NOT NULL,
        last_seen_ms BIGINT NOT NULL,
        expires_ms BIGINT NOT NULL,
        address TEXT NOT NULL
    );
    CREATE INDEX sessions_by_player ON sessions(player_id);
    CREATE INDEX sessions_by_expiry ON sessions(expires_ms);
    ALTER TABLE games ADD COLUMN white_player BIGINT REFERENCES players(id);
    ALTER TABLE games ADD COLUMN black_player BIGINT REFERENCES players(id);
    CREATE INDEX games_white_player ON games(white_player, updated_ms, id)
        WHERE white_player IS NOT NULL;
    CREATE INDEX games_black_player ON games(black_player, updated_ms, id)
        WHERE black_player IS NOT NULL;";

/// How often a session's `last_seen_ms` is written (not on every request: a read would
/// otherwise always write).
pub const SEEN_EVERY_MS: i64 = 10 * 60 * 1000;

/// An account to store.
#[derive(Clone, Debug)]
pub struct NewPlayer {
    /// The name as typed (normalised).
    pub name: String,
    /// The name's key: equal for names that look alike (see [`crate::names::name_key`]).
    pub key: String,
    /// The password's Argon2id hash (PHC string).
    pub password_hash: String,
    /// When the account was made (ms since 1970).
    pub created_ms: i64,
}

/// What storing a new account came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Signup {
    /// Stored, with this id.
    Created(i64),
    /// Refused: this account (its name) has the same key.
    Taken(String),
}

/// A stored account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    /// Its id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// The password's hash; empty once the account is deleted.
    pub password_hash: String,
    /// When it was made (ms since 1970).
    pub created_ms: i64,
    /// When it was deleted.
    pub deleted_ms: Option<i64>,
}

/// A log-in session to store. The session id itself is never stored, only its hash.
#[derive(Clone, Debug)]
pub struct SessionRow {
    /// The hash of the session id (hex).
    pub hash: String,
    /// When it starts (ms since 1970).
    pub created_ms: i64,
    /// When it ends.
    pub expires_ms: i64,
    /// The address it was started from.
    pub address: String,
}

/// A live session found by its hash: whose it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionSeen {
    /// The account's id.
    pub player_id: i64,
    /// The account's name.
    pub name: String,
    /// When the account was made.
    pub created_ms: i64,
}

/// An account's results in one variant.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VariantResults {
    /// `bashni` or `russian`.
    pub variant: String,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// A game of an account, with the colour it played.
#[derive(Clone, Debug)]
pub struct PlayerGame {
    /// The game, as lists show it.
    pub game: GameSummary,
    /// `white` or `black`.
    pub color: String,
}

/// The accounts holding a game's seats, as read from the store.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Seats {
    white: Option<i64>,
    black: Option<i64>,
}

impl Seats {
    /// `round` with these seats' accounts.
    pub(super) fn apply(self, mut round: Round) -> Round {
        round.white_account = self.white;
        round.black_account = self.black;
        round
    }
}

const WRITE_SEATS: &str = "UPDATE games SET white_player = $2, black_player = $3 WHERE id = $1";
const READ_SEATS: &str = "SELECT white_player, black_player FROM games WHERE id = $1";
/// The accounts with a key, and those kept apart from its owner (`key#id`, see
/// [`crate::names::keys_to_change`]): `$2` and `$3` are the key followed by `#` and by `$`.
const PLAYERS_BY_KEY: &str = "SELECT name_key, id, name, password_hash, created_ms, deleted_ms \
    FROM players WHERE name_key = $1 OR (name_key >= $2 AND name_key < $3) ORDER BY id";
const ALL_KEYS: &str = "SELECT id, name, name_key FROM players";
const SET_KEY: &str = "UPDATE players SET name_key = $2 WHERE id = $1";

/// The account a name stands for among those with its key (each with its stored key): the
/// one with exactly that name, else the key's owner, else the first.
fn chosen(name: &str, key: &str, rows: Vec<(String, PlayerRow)>) -> Option<PlayerRow> {
    let exact = rows.iter().position(|(_, row)| row.name == name);
    let owner = rows.iter().position(|(k, _)| k == key);
    let at = exact.or(owner).unwrap_or(0);
    rows.into_iter().nth(at).map(|(_, row)| row)
}

/// The bounds of the keys kept apart from `key`'s owner.
fn apart(key: &str) -> (String, String) {
    (format!("{key}#"), format!("{key}$"))
}
const INSERT_PLAYER: &str = "INSERT INTO players (name, name_key, password_hash, created_ms) \
    VALUES ($1, $2, $3, $4) ON CONFLICT (name_key) DO NOTHING RETURNING id";
const INSERT_SESSION: &str = "INSERT INTO sessions \
    (id_hash, player_id, created_ms, last_seen_ms, expires_ms, address) \
    VALUES ($1, $2, $3, $3, $4, $5)";
const END_EXPIRED: &str = "DELETE FROM sessions WHERE expires_ms <= $1";
const END_SESSION: &str = "DELETE FROM sessions WHERE id_hash = $1";
const END_SESSIONS: &str = "DELETE FROM sessions WHERE player_id = $1";
const PLAYER_LANGUAGE: &str = "SELECT language FROM players WHERE id = $1";
const SET_PLAYER_LANGUAGE: &str =
    "UPDATE players SET language = $2 WHERE id = $1 AND deleted_ms IS NULL";
const FIND_SESSION: &str = "SELECT s.player_id, p.name, p.created_ms, s.last_seen_ms \
    FROM sessions s JOIN players p ON p.id = s.player_id \
    WHERE s.id_hash = $1 AND s.expires_ms > $2 AND p.deleted_ms IS NULL";
const SEEN_SESSION: &str = "UPDATE sessions SET last_seen_ms = $2 WHERE id_hash = $1";
const DELETE_PLAYER: &str = "UPDATE players SET deleted_ms = $2, password_hash = '' \
    WHERE id = $1 AND deleted_ms IS NULL";
/// A deleted account's seats show [`DELETED_NAME`]; the games' versions grow, so every
/// server holding one of them in memory reads it again (and a change computed before is
/// refused as stale instead of writing the old name back).
const RENAME_SEATS: &str = "UPDATE games SET \
    white_name = CASE WHEN white_player = $1 THEN $2 ELSE white_name END, \
    black_name = CASE WHEN black_player = $1 THEN $2 ELSE black_name END, \
    version = version + 1 \
    WHERE white_player = $1 OR black_player = $1 RETURNING id, version";
/// Results count finished games between people: not aborted, not records, not against the
/// engine, not at one screen (where one person may play both sides).
const RESULTS: &str = "SELECT g.variant, \
    SUM(CASE WHEN (g.result = '1-0' AND g.white_player = $1) \
        OR (g.result = '0-1' AND g.black_player = $1) THEN 1 ELSE 0 END), \
    SUM(CASE WHEN g.result = '1/2-1/2' THEN 1 ELSE 0 END), \
    SUM(CASE WHEN (g.result = '0-1' AND g.white_player = $1) \
        OR (g.result = '1-0' AND g.black_player = $1) THEN 1 ELSE 0 END) \
    FROM games g \
    WHERE (g.white_player = $1 OR g.black_player = $1) AND g.result IS NOT NULL \
        AND g.reason_code <> 'aborted' AND g.mode NOT IN ('engine', 'local', 'record') \
    GROUP BY g.variant ORDER BY g.variant";

/// The query of an account's games, newest first: with `before` when `paged`.
fn games_query(paged: bool) -> String {
    let (before, limit) = if paged {
        ("AND (g.listed_ms, g.id) < ($2, $3)", "$4")
    } else {
        ("", "$2")
    };
    format!(
        "SELECT {SUMMARY_COLUMNS}, CASE WHEN g.white_player = $1 THEN 'white' ELSE 'black' END \
         FROM games g WHERE (g.white_player = $1 OR g.black_player = $1) {before} \
         {LIST_ORDER} LIMIT {limit}"
    )
}

/// A statement of this module as SQLite numbers its parameters.
fn sqlite(sql: &str) -> String {
    sql.replace('$', "?")
}

fn count(sum: Option<i64>) -> u32 {
    u32::try_from(sum.unwrap_or(0)).unwrap_or(u32::MAX)
}

/// Writes the accounts of `round`'s seats, in the transaction storing the round. A game
/// without accounts (every game of guests) costs nothing: its columns stay empty.
pub(super) fn write_seats_sqlite(connection: &Connection, round: &Round) -> Result<(), StoreError> {
    if round.white_account.is_none() && round.black_account.is_none() {
        return Ok(());
    }
    connection
        .prepare_cached(&sqlite(WRITE_SEATS))?
        .execute(params![round.id, round.white_account, round.black_account])?;
    Ok(())
}

/// The accounts holding game `id`'s seats.
pub(super) fn read_seats_sqlite(connection: &Connection, id: &str) -> Result<Seats, StoreError> {
    let seats = connection
        .prepare_cached(&sqlite(READ_SEATS))?
        .query_row(params![id], |row| {
            Ok(Seats {
                white: row.get(0)?,
                black: row.get(1)?,
            })
        })
        .optional()?;
    Ok(seats.unwrap_or_default())
}

/// Writes the accounts of `round`'s seats (see [`write_seats_sqlite`]).
pub(super) async fn write_seats_postgres(
    client: &impl GenericClient,
    round: &Round,
) -> Result<(), StoreError> {
    if round.white_account.is_none() && round.black_account.is_none() {
        return Ok(());
    }
    exec(
        client,
        WRITE_SEATS,
        &[&round.id, &round.white_account, &round.black_account],
    )
    .await?;
    Ok(())
}

/// The accounts holding game `id`'s seats.
pub(super) async fn read_seats_postgres(
    client: &impl GenericClient,
    id: &str,
) -> Result<Seats, StoreError> {
    let statement = client.prepare_cached(READ_SEATS).await?;
    Ok(match client.query_opt(&statement, &[&id]).await? {
        Some(row) => Seats {
            white: row.try_get(0)?,
            black: row.try_get(1)?,
        },
        None => Seats::default(),
    })
}

impl Store {
    fn player_by_name(&self, name: &str) -> Result<Option<PlayerRow>, StoreError> {
        let key = crate::names::name_key(name);
        let (from, to) = apart(&key);
        let connection = self.lock();
        let mut statement = connection.prepare_cached(&sqlite(PLAYERS_BY_KEY))?;
        let rows = statement
            .query_map(params![key, from, to], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    PlayerRow {
                        id: row.get(1)?,
                        name: row.get(2)?,
                        password_hash: row.get(3)?,
                        created_ms: row.get(4)?,
                        deleted_ms: row.get(5)?,
                    },
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(chosen(name, &key, rows))
    }

    /// Gives every account the key the present rule makes of its name (see
    /// [`crate::names::keys_to_change`]): run when the store is opened.
    pub(super) fn rekey_players(
        connection: &mut rusqlite::Connection,
    ) -> Result<usize, StoreError> {
        let transaction = connection.transaction()?;
        let players = transaction
            .prepare(ALL_KEYS)?
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?
            .collect::<Result<Vec<(i64, String, String)>, _>>()?;
        let changes = crate::names::keys_to_change(&players);
        {
            let mut set = transaction.prepare(&sqlite(SET_KEY))?;
            // Out of the way first, so that no two rows share a key at any step.
            for (id, _) in &changes {
                set.execute(params![id, format!("~{id}")])?;
            }
            for (id, key) in &changes {
                set.execute(params![id, key])?;
            }
        }
        transaction.commit()?;
        Ok(changes.len())
    }

    fn create_player(
        &self,
        player: &NewPlayer,
        session: &SessionRow,
    ) -> Result<Signup, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let id: Option<i64> = transaction
            .prepare_cached(&sqlite(INSERT_PLAYER))?
            .query_row(
                params![
                    player.name,
                    player.key,
                    player.password_hash,
                    player.created_ms
                ],
                |row| row.get(0),
            )
            .optional()?;
        let Some(id) = id else {
            let taken: String = transaction.query_row(
                "SELECT name FROM players WHERE name_key = ?1",
                params![player.key],
                |row| row.get(0),
            )?;
            return Ok(Signup::Taken(taken));
        };
        insert_session_sqlite(&transaction, id, session)?;
        transaction.commit()?;
        Ok(Signup::Created(id))
    }

    fn start_session(
        &self,
        player_id: i64,
        session: &SessionRow,
        replaced: Option<&str>,
    ) -> Result<(), StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        if let Some(replaced) = replaced {
            transaction
                .prepare_cached(&sqlite(END_SESSION))?
                .execute(params![replaced])?;
        }
        insert_session_sqlite(&transaction, player_id, session)?;
        transaction.commit()?;
        Ok(())
    }

    fn session(&self, hash: &str, now: i64) -> Result<Option<SessionSeen>, StoreError> {
        let connection = self.lock();
        let found = connection
            .prepare_cached(&sqlite(FIND_SESSION))?
            .query_row(params![hash, now], |row| {
                Ok((
                    SessionSeen {
                        player_id: row.get(0)?,
                        name: row.get(1)?,
                        created_ms: row.get(2)?,
                    },
                    row.get::<_, i64>(3)?,
                ))
            })
            .optional()?;
        let Some((seen, last_seen)) = found else {
            return Ok(None);
        };
        if now - last_seen >= SEEN_EVERY_MS {
            connection
                .prepare_cached(&sqlite(SEEN_SESSION))?
                .execute(params![hash, now])?;
        }
        Ok(Some(seen))
    }

    fn end_session(&self, hash: &str) -> Result<(), StoreError> {
        self.lock()
            .prepare_cached(&sqlite(END_SESSION))?
            .execute(params![hash])?;
        Ok(())
    }

    fn end_sessions(&self, player_id: i64) -> Result<(), StoreError> {
        self.lock()
            .prepare_cached(&sqlite(END_SESSIONS))?
            .execute(params![player_id])?;
        Ok(())
    }

    fn player_language(&self, player_id: i64) -> Result<Option<String>, StoreError> {
        let connection = self.lock();
        let mut statement = connection.prepare_cached(&sqlite(PLAYER_LANGUAGE))?;
        let mut rows = statement.query(params![player_id])?;
        Ok(match rows.next()? {
            Some(row) => row.get(0)?,
            None => None,
        })
    }

    fn set_player_language(&self, player_id: i64, code: &str) -> Result<bool, StoreError> {
        let changed = self
            .lock()
            .prepare_cached(&sqlite(SET_PLAYER_LANGUAGE))?
            .execute(params![player_id, code])?;
        Ok(changed == 1)
    }

    fn delete_player(&self, player_id: i64, now: i64) -> Result<Vec<(String, u64)>, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        transaction.execute(&sqlite(DELETE_PLAYER), params![player_id, now])?;
        transaction.execute(&sqlite(END_SESSIONS), params![player_id])?;
        let changed = transaction
            .prepare(&sqlite(RENAME_SEATS))?
            .query_map(params![player_id, DELETED_NAME], |row| {
                Ok((
                    row.get(0)?,
                    u64::try_from(row.get::<_, i64>(1)?).unwrap_or(0),
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        transaction.commit()?;
        Ok(changed)
    }

    fn player_results(&self, player_id: i64) -> Result<Vec<VariantResults>, StoreError> {
        let connection = self.lock();
        let mut statement = connection.prepare_cached(&sqlite(RESULTS))?;
        let results = statement
            .query_map(params![player_id], |row| {
                Ok(VariantResults {
                    variant: row.get(0)?,
                    wins: count(row.get(1)?),
                    draws: count(row.get(2)?),
                    losses: count(row.get(3)?),
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(results)
    }

    fn player_games(
        &self,
        player_id: i64,
        before: Option<&(i64, String)>,
        limit: u32,
    ) -> Result<Vec<PlayerGame>, StoreError> {
        use rusqlite::types::Value;
        let mut values = vec![Value::Integer(player_id)];
        if let Some((ms, id)) = before {
            values.push(Value::Integer(*ms));
            values.push(Value::Text(id.clone()));
        }
        values.push(Value::Integer(i64::from(limit)));
        let connection = self.lock();
        let mut statement = connection.prepare_cached(&sqlite(&games_query(before.is_some())))?;
        let games = statement
            .query_map(rusqlite::params_from_iter(values), |row| {
                Ok(PlayerGame {
                    game: GameSummary {
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
                    },
                    color: row.get(11)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(games)
    }
}

/// Stores a new session of `player_id`, and forgets the sessions that have run out.
fn insert_session_sqlite(
    connection: &Connection,
    player_id: i64,
    session: &SessionRow,
) -> Result<(), StoreError> {
    connection
        .prepare_cached(&sqlite(END_EXPIRED))?
        .execute(params![session.created_ms])?;
    connection
        .prepare_cached(&sqlite(INSERT_SESSION))?
        .execute(params![
            session.hash,
            player_id,
            session.created_ms,
            session.expires_ms,
            session.address
        ])?;
    Ok(())
}

/// Stores a new session of `player_id`, and forgets the sessions that have run out.
async fn insert_session_postgres(
    client: &impl GenericClient,
    player_id: i64,
    session: &SessionRow,
) -> Result<(), StoreError> {
    exec(client, END_EXPIRED, &[&session.created_ms]).await?;
    exec(
        client,
        INSERT_SESSION,
        &[
            &session.hash,
            &player_id,
            &session.created_ms,
            &session.expires_ms,
            &session.address,
        ],
    )
    .await?;
    Ok(())
}

/// Gives every account the key the present rule makes of its name, in `transaction` (see
/// [`crate::names::keys_to_change`]): run when the servers' schema is brought up to date.
pub(super) async fn rekey_players_pg(
    transaction: &tokio_postgres::Transaction<'_>,
) -> Result<usize, StoreError> {
    let mut players = Vec::new();
    for row in transaction.query(ALL_KEYS, &[]).await? {
        players.push((row.try_get(0)?, row.try_get(1)?, row.try_get(2)?));
    }
    let changes = crate::names::keys_to_change(&players);
    let set = transaction.prepare(SET_KEY).await?;
    for (id, _) in &changes {
        transaction.execute(&set, &[id, &format!("~{id}")]).await?;
    }
    for (id, key) in &changes {
        transaction.execute(&set, &[id, key]).await?;
    }
    Ok(changes.len())
}

impl PgStore {
    async fn player_by_name(&self, name: &str) -> Result<Option<PlayerRow>, StoreError> {
        let key = crate::names::name_key(name);
        let (from, to) = apart(&key);
        let client = self.pool.get().await?;
        let statement = client.prepare_cached(PLAYERS_BY_KEY).await?;
        let mut rows = Vec::new();
        for row in client.query(&statement, &[&key, &from, &to]).await? {
            let player = PlayerRow {
                id: row.try_get(1)?,
                name: row.try_get(2)?,
                password_hash: row.try_get(3)?,
                created_ms: row.try_get(4)?,
                deleted_ms: row.try_get(5)?,
            };
            rows.push((row.try_get(0)?, player));
        }
        Ok(chosen(name, &key, rows))
    }

    async fn create_player(
        &self,
        player: &NewPlayer,
        session: &SessionRow,
    ) -> Result<Signup, StoreError> {
        let mut client = self.pool.get().await?;
        let transaction = client.transaction().await?;
        let statement = transaction.prepare_cached(INSERT_PLAYER).await?;
        let inserted = transaction
            .query_opt(
                &statement,
                &[
                    &player.name,
                    &player.key,
                    &player.password_hash,
                    &player.created_ms,
                ],
            )
            .await?;
        let Some(row) = inserted else {
            let row = transaction
                .query_one(
                    "SELECT name FROM players WHERE name_key = $1",
                    &[&player.key],
                )
                .await?;
            return Ok(Signup::Taken(row.try_get(0)?));
        };
        let id: i64 = row.try_get(0)?;
        insert_session_postgres(&transaction, id, session).await?;
        transaction.commit().await?;
        Ok(Signup::Created(id))
    }

    async fn start_session(
        &self,
        player_id: i64,
        session: &SessionRow,
        replaced: Option<&str>,
    ) -> Result<(), StoreError> {
        let mut client = self.pool.get().await?;
        let transaction = client.transaction().await?;
        if let Some(replaced) = replaced {
            exec(&transaction, END_SESSION, &[&replaced]).await?;
        }
        insert_session_postgres(&transaction, player_id, session).await?;
        transaction.commit().await?;
        Ok(())
    }

    async fn session(&self, hash: &str, now: i64) -> Result<Option<SessionSeen>, StoreError> {
        let client = self.pool.get().await?;
        let statement = client.prepare_cached(FIND_SESSION).await?;
        let Some(row) = client.query_opt(&statement, &[&hash, &now]).await? else {
            return Ok(None);
        };
        let last_seen: i64 = row.try_get(3)?;
        if now - last_seen >= SEEN_EVERY_MS {
            exec(&client, SEEN_SESSION, &[&hash, &now]).await?;
        }
        Ok(Some(SessionSeen {
            player_id: row.try_get(0)?,
            name: row.try_get(1)?,
            created_ms: row.try_get(2)?,
        }))
    }

    async fn end_session(&self, hash: &str) -> Result<(), StoreError> {
        let client = self.pool.get().await?;
        exec(&client, END_SESSION, &[&hash]).await?;
        Ok(())
    }

    async fn end_sessions(&self, player_id: i64) -> Result<(), StoreError> {
        let client = self.pool.get().await?;
        exec(&client, END_SESSIONS, &[&player_id]).await?;
        Ok(())
    }

    async fn player_language(&self, player_id: i64) -> Result<Option<String>, StoreError> {
        let client = self.pool.get().await?;
        let statement = client.prepare_cached(PLAYER_LANGUAGE).await?;
        Ok(match client.query_opt(&statement, &[&player_id]).await? {
            Some(row) => row.try_get(0)?,
            None => None,
        })
    }

    async fn set_player_language(&self, player_id: i64, code: &str) -> Result<bool, StoreError> {
        let client = self.pool.get().await?;
        let statement = client.prepare_cached(SET_PLAYER_LANGUAGE).await?;
        Ok(client.execute(&statement, &[&player_id, &code]).await? == 1)
    }

    async fn delete_player(
        &self,
        player_id: i64,
        now: i64,
    ) -> Result<Vec<(String, u64)>, StoreError> {
        let mut client = self.pool.get().await?;
        let transaction = client.transaction().await?;
        exec(&transaction, DELETE_PLAYER, &[&player_id, &now]).await?;
        exec(&transaction, END_SESSIONS, &[&player_id]).await?;
        let mut changed = Vec::new();
        for row in transaction
            .query(RENAME_SEATS, &[&player_id, &DELETED_NAME])
            .await?
        {
            let version: i64 = row.try_get(1)?;
            changed.push((row.try_get(0)?, u64::try_from(version).unwrap_or(0)));
        }
        // Every server hears of each game changed, as of any stored change.
        let notes: Vec<String> = changed
            .iter()
            .map(|(id, version)| format!("{id} {version}"))
            .collect();
        exec(
            &transaction,
            "SELECT pg_notify($1, note) FROM unnest($2::text[]) AS note",
            &[&CHANNEL, &notes],
        )
        .await?;
        transaction.commit().await?;
        Ok(changed)
    }

    async fn player_results(&self, player_id: i64) -> Result<Vec<VariantResults>, StoreError> {
        let client = self.pool.get().await?;
        let statement = client.prepare_cached(RESULTS).await?;
        client
            .query(&statement, &[&player_id])
            .await?
            .iter()
            .map(|row| {
                Ok(VariantResults {
                    variant: row.try_get(0)?,
                    wins: count(row.try_get(1)?),
                    draws: count(row.try_get(2)?),
                    losses: count(row.try_get(3)?),
                })
            })
            .collect()
    }

    async fn player_games(
        &self,
        player_id: i64,
        before: Option<&(i64, String)>,
        limit: u32,
    ) -> Result<Vec<PlayerGame>, StoreError> {
        let client = self.pool.get().await?;
        let statement = client
            .prepare_cached(&games_query(before.is_some()))
            .await?;
        let limit = i64::from(limit);
        let rows = match before {
            Some((ms, id)) => {
                client
                    .query(&statement, &[&player_id, ms, id, &limit])
                    .await?
            }
            None => client.query(&statement, &[&player_id, &limit]).await?,
        };
        rows.iter()
            .map(|row| {
                let plies: i64 = row.try_get(5)?;
                let version: i64 = row.try_get(9)?;
                Ok(PlayerGame {
                    game: GameSummary {
                        id: row.try_get(0)?,
                        variant: row.try_get(1)?,
                        mode: row.try_get(2)?,
                        white: row.try_get(3)?,
                        black: row.try_get(4)?,
                        plies: u32::try_from(plies).unwrap_or(u32::MAX),
                        result: row.try_get(6)?,
                        reason: row.try_get(7)?,
                        updated_ms: row.try_get(8)?,
                        version: u64::try_from(version).unwrap_or(0),
                        listed_ms: row.try_get(10)?,
                    },
                    color: row.try_get(11)?,
                })
            })
            .collect()
    }
}

/// The accounts, whichever database holds them.
impl Database {
    /// The account a name stands for (deleted or not): the one whose name looks like it
    /// (has its key, see [`crate::names::name_key`]), or, where accounts made before the
    /// rule changed share the key, the one with exactly that name.
    pub async fn player_by_name(&self, name: &str) -> Result<Option<PlayerRow>, StoreError> {
        let name = name.to_string();
        on_backend!(
            self,
            |store| store.player_by_name(&name),
            store.player_by_name(&name)
        )
    }

    /// Stores a new account with its first session, unless an account has the same key.
    pub async fn create_player(
        &self,
        player: NewPlayer,
        session: SessionRow,
    ) -> Result<Signup, StoreError> {
        on_backend!(
            self,
            |store| store.create_player(&player, &session),
            store.create_player(&player, &session)
        )
    }

    /// Stores a new session of `player_id`; the session `replaced` (the one the request
    /// came with, if any) ends.
    pub async fn start_session(
        &self,
        player_id: i64,
        session: SessionRow,
        replaced: Option<String>,
    ) -> Result<(), StoreError> {
        on_backend!(
            self,
            |store| store.start_session(player_id, &session, replaced.as_deref()),
            store.start_session(player_id, &session, replaced.as_deref())
        )
    }

    /// The live session whose id has the hash `hash` at `now`, with its account (not
    /// deleted); notes that it was seen.
    pub async fn session(&self, hash: &str, now: i64) -> Result<Option<SessionSeen>, StoreError> {
        let hash = hash.to_string();
        on_backend!(
            self,
            |store| store.session(&hash, now),
            store.session(&hash, now)
        )
    }

    /// Ends the session whose id has the hash `hash`.
    pub async fn end_session(&self, hash: &str) -> Result<(), StoreError> {
        let hash = hash.to_string();
        on_backend!(
            self,
            |store| store.end_session(&hash),
            store.end_session(&hash)
        )
    }

    /// Ends every session of the account `player_id`.
    pub async fn end_sessions(&self, player_id: i64) -> Result<(), StoreError> {
        on_backend!(
            self,
            |store| store.end_sessions(player_id),
            store.end_sessions(player_id)
        )
    }

    /// The language (`en`, `ru`) the account `player_id` chose, if it chose one.
    pub async fn player_language(&self, player_id: i64) -> Result<Option<String>, StoreError> {
        on_backend!(
            self,
            |store| store.player_language(player_id),
            store.player_language(player_id)
        )
    }

    /// Keeps `code` as the language of the account `player_id`; `false` when there is no
    /// such account (or it was deleted).
    pub async fn set_player_language(
        &self,
        player_id: i64,
        code: &str,
    ) -> Result<bool, StoreError> {
        let code = code.to_string();
        on_backend!(
            self,
            |store| store.set_player_language(player_id, &code),
            store.set_player_language(player_id, &code)
        )
    }

    /// Deletes the account `player_id` at `now`: its sessions end, its password is gone, its
    /// name stays taken, and its games' seats show [`DELETED_NAME`]. Returns the games
    /// changed, with their new versions.
    pub async fn delete_player(
        &self,
        player_id: i64,
        now: i64,
    ) -> Result<Vec<(String, u64)>, StoreError> {
        on_backend!(
            self,
            |store| store.delete_player(player_id, now),
            store.delete_player(player_id, now)
        )
    }

    /// The account's results in each variant it has finished games of (see [`RESULTS`]).
    pub async fn player_results(&self, player_id: i64) -> Result<Vec<VariantResults>, StoreError> {
        on_backend!(
            self,
            |store| store.player_results(player_id),
            store.player_results(player_id)
        )
    }

    /// The account's games, newest first, older than `before` (a place in the list as in
    /// [`super::ListFilter::before`]).
    pub async fn player_games(
        &self,
        player_id: i64,
        before: Option<(i64, String)>,
        limit: u32,
    ) -> Result<Vec<PlayerGame>, StoreError> {
        on_backend!(
            self,
            |store| store.player_games(player_id, before.as_ref(), limit),
            store.player_games(player_id, before.as_ref(), limit)
        )
    }
}
