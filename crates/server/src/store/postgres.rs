//! The games in PostgreSQL, for several servers that share them: the same tables as the
//! SQLite file, versioned migrations run under an advisory lock, a pool of connections, and a
//! notification (`bashni_games`, carrying the game's id and version, and for a move or a
//! take-back the change itself) with every stored change, so that every server can tell its
//! watchers without reading the game again.

use std::sync::Arc;

use deadpool_postgres::GenericClient;
use deadpool_postgres::{Config, Pool, Runtime};
use futures_util::StreamExt;
use tokio_postgres::error::SqlState;
use tokio_postgres::{AsyncMessage, NoTls, Row};

use super::grouped::{MOST_CHANGES_AT_ONCE, PendingChange, all_refused, last_move_row};
use super::people::PEOPLE_CHANNEL;
use super::rows::{ChangeNote, GameRow, MoveRow, change_note, move_row, round_of, row_of};
use super::{
    Change, GameSummary, LIST_ORDER, ListFilter, SUMMARY_COLUMNS, StoreError, StoreErrorKind,
    TURN_COLUMNS, TurnSummary,
};
use crate::game::round::Round;
use crate::rating::GameRating;

/// Connections each server keeps to the database.
const POOL_SIZE: usize = 16;

/// The channel every stored change is announced on.
pub const CHANNEL: &str = "bashni_games";

/// The channel on which a server announces an engine job made or given back (the game's id).
pub const JOBS_CHANNEL: &str = "bashni_jobs";

/// The schema, one step per version; the table `bashni_schema` records how many have run.
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
        white_joined BOOLEAN NOT NULL,
        black_joined BOOLEAN NOT NULL,
        invite TEXT,
        base_ms BIGINT,
        increment_ms BIGINT,
        white_ms BIGINT,
        black_ms BIGINT,
        result TEXT,
        reason TEXT,
        reason_code TEXT,
        draw_offer TEXT,
        tags TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        updated_ms BIGINT NOT NULL
    );
    CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        text TEXT NOT NULL,
        white_ms BIGINT,
        black_ms BIGINT,
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (game_id, ply)
    );
    CREATE INDEX games_by_update ON games(updated_ms);",
    // 2: the game's change counter.
    "ALTER TABLE games ADD COLUMN version BIGINT NOT NULL DEFAULT 0;",
    // 3: the side that offered a draw last (Bashni 1.13.3).
    "ALTER TABLE games ADD COLUMN last_offer TEXT;",
    // 4: the engine's moves and draw answers to make, taken by whichever server has a free
    // engine (a lease, renewed while it searches, so a server that dies lets another take it).
    "CREATE TABLE engine_jobs (
        game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        version BIGINT NOT NULL,
        taken_by TEXT,
        taken_until BIGINT
    );",
    // 5: a rematch offered after the game (the side that offered), and the new game's id.
    "ALTER TABLE games ADD COLUMN rematch_by TEXT;
    ALTER TABLE games ADD COLUMN rematch_game TEXT;",
    // 6: the games lists, newest first: all games, live ones and finished ones (the
    // conditions of `ListStatus`).
    "DROP INDEX games_by_update;
    CREATE INDEX games_by_update ON games(updated_ms, id);
    CREATE INDEX games_live ON games(updated_ms, id)
        WHERE result IS NULL AND mode <> 'record' AND white_joined AND black_joined;
    CREATE INDEX games_finished ON games(updated_ms, id)
        WHERE result IS NOT NULL AND mode <> 'record' AND reason_code <> 'aborted';",
    // 7: the list of game records read from PDN.
    "CREATE INDEX games_records ON games(updated_ms, id) WHERE mode = 'record';",
    // 8: correspondence games (days per move, the side to move's deadline, found by the
    // sweeper through its index), and the side to move of every game going on (filled in
    // for the games already stored: the start's side, or the other after an odd number of
    // moves).
    "ALTER TABLE games ADD COLUMN days_per_move INTEGER;
    ALTER TABLE games ADD COLUMN deadline_ms BIGINT;
    ALTER TABLE games ADD COLUMN to_move TEXT;
    UPDATE games SET to_move = CASE
        WHEN ((SELECT COUNT(*) FROM moves m WHERE m.game_id = games.id) % 2 = 0)
            = (substr(start_fen, 1, 1) = 'W') THEN 'white' ELSE 'black' END
        WHERE result IS NULL AND mode <> 'record' AND white_joined AND black_joined;
    CREATE INDEX games_by_deadline ON games(deadline_ms) WHERE deadline_ms IS NOT NULL;",
    // 9: the chat of each game, in two rooms (players, watchers); the players who muted their
    // opponent (a row for the side that mutes); and which server has sockets bound to which
    // seat, renewed while they are open (a server that dies leaves rows that go stale).
    "CREATE TABLE chat (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        room TEXT NOT NULL,
        seq BIGINT NOT NULL,
        author TEXT NOT NULL,
        name TEXT NOT NULL,
        text TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (game_id, room, seq)
    );
    CREATE TABLE chat_mutes (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        side TEXT NOT NULL,
        PRIMARY KEY (game_id, side)
    );
    CREATE TABLE presence (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        side TEXT NOT NULL,
        server TEXT NOT NULL,
        sockets INTEGER NOT NULL,
        seen_ms BIGINT NOT NULL,
        PRIMARY KEY (game_id, side, server)
    );
    CREATE INDEX presence_by_seen ON presence(seen_ms);",
    // 10: player accounts, their log-in sessions, and the accounts holding a game's seats.
    super::players::POSTGRES_MIGRATION,
    // 11: the lobby's seeks (see `store::lobby`): who posted each (a socket on a server), what
    // game it asks for (JSON), the lease its server renews, and once it is taken, the game
    // and the owner's colour until the owner is told.
    "CREATE TABLE seeks (
        id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        server TEXT NOT NULL,
        name TEXT NOT NULL,
        settings TEXT NOT NULL,
        created_ms BIGINT NOT NULL,
        lease_until BIGINT NOT NULL,
        game TEXT,
        owner_color TEXT
    );
    CREATE INDEX seeks_by_owner ON seeks(owner);
    CREATE INDEX seeks_by_server ON seeks(server);",
    // 12: tournaments, their players, and the boards of each round with their games.
    super::tournaments::POSTGRES_MIGRATION,
    // 13: rated games, ratings per variant and pace, and each rated game's rating changes.
    super::ratings::POSTGRES_MIGRATION,
    // 14: the comments and variations of a record read from PDN (JSON, see `notes`).
    "ALTER TABLE games ADD COLUMN notes TEXT NOT NULL DEFAULT '';",
    // 15: whether a chat line's writer is an account (a guest's is not).
    "ALTER TABLE chat ADD COLUMN account BOOLEAN NOT NULL DEFAULT FALSE;",
    // 16: the language an account chose for the site (`en`, `ru`), if it chose one.
    "ALTER TABLE players ADD COLUMN language TEXT;",
    // 17: the lists by each game's place in them (made, first move, ended), not by its last
    // change: a move then writes no list index (and its update can stay on its page).
    super::sqlite::listed_migration!("BIGINT"),
    // 18: room on each page of games for a row's next version, so that a move's update
    // (which changes no indexed column any more) is written on the same page, with no index
    // entry (a heap-only update).
    "ALTER TABLE games SET (fillfactor = 70);",
    // 19: puzzles with their ratings, players' puzzle ratings, and their rated attempts.
    super::puzzles::POSTGRES_MIGRATION,
];

/// How long a server holds an engine job without renewing it, in ms.
pub const JOB_LEASE_MS: i64 = 10_000;

/// The schema's steps, in order (for tests that upgrade an old database).
pub fn migrations() -> &'static [&'static str] {
    MIGRATIONS
}

/// A key for the advisory lock that lets one server at a time migrate.
const MIGRATION_LOCK: i64 = 0x6261_7368_6e69;

const GAME_COLUMNS: &str = "id, variant, mode, start_fen, level, engine_color, creator, \
    white_name, black_name, white_token, black_token, white_joined, black_joined, invite, \
    base_ms, increment_ms, white_ms, black_ms, result, reason, reason_code, draw_offer, tags, \
    created_ms, updated_ms, version, last_offer, rematch_by, rematch_game, days_per_move, \
    deadline_ms, to_move, notes";

impl From<tokio_postgres::Error> for StoreError {
    fn from(error: tokio_postgres::Error) -> StoreError {
        // No code: the connection failed (the server is down or unreachable).
        let kind = error.code().map_or(StoreErrorKind::Busy, kind_of_code);
        // The database's own words (tokio-postgres says only "db error" for them).
        let message = error
            .as_db_error()
            .map_or_else(|| error.to_string(), |db| format!("{error}: {db}"));
        StoreError::new(kind, message)
    }
}

/// What a PostgreSQL error code means for the server. A database going away answers with
/// codes of its own before the connections drop (class 08, connection exceptions, and 57P,
/// the server shut down or not accepting connections yet): those, like a lock or too many
/// connections, are the database being unavailable for now, not a fault of the server.
fn kind_of_code(code: &SqlState) -> StoreErrorKind {
    if *code == SqlState::DISK_FULL || *code == SqlState::OUT_OF_MEMORY {
        StoreErrorKind::Full
    } else if *code == SqlState::LOCK_NOT_AVAILABLE
        || *code == SqlState::T_R_SERIALIZATION_FAILURE
        || *code == SqlState::T_R_DEADLOCK_DETECTED
        || *code == SqlState::QUERY_CANCELED
        || *code == SqlState::TOO_MANY_CONNECTIONS
        || code.code().starts_with("08")
        || code.code().starts_with("57P")
    {
        StoreErrorKind::Busy
    } else if *code == SqlState::DATA_CORRUPTED {
        StoreErrorKind::Corrupt
    } else {
        StoreErrorKind::Other
    }
}

impl From<deadpool_postgres::PoolError> for StoreError {
    fn from(error: deadpool_postgres::PoolError) -> StoreError {
        match error {
            deadpool_postgres::PoolError::Backend(error) => error.into(),
            other => StoreError::new(StoreErrorKind::Busy, format!("no connection: {other}")),
        }
    }
}

/// The games in PostgreSQL.
pub struct PgStore {
    pub(super) pool: Pool,
    url: String,
    /// The changes of games for the group commit ([`PgStore::save_grouped`]).
    saves: tokio::sync::mpsc::UnboundedSender<PendingChange>,
}

fn game_from_row(row: &Row) -> Result<GameRow, tokio_postgres::Error> {
    let level: Option<i32> = row.try_get(4)?;
    Ok(GameRow {
        id: row.try_get(0)?,
        variant: row.try_get(1)?,
        mode: row.try_get(2)?,
        start_fen: row.try_get(3)?,
        level: level.and_then(|l| u8::try_from(l).ok()),
        engine_color: row.try_get(5)?,
        creator: row.try_get(6)?,
        white: (row.try_get(7)?, row.try_get(9)?, row.try_get(11)?),
        black: (row.try_get(8)?, row.try_get(10)?, row.try_get(12)?),
        invite: row.try_get(13)?,
        base_ms: row.try_get(14)?,
        increment_ms: row.try_get(15)?,
        white_ms: row.try_get(16)?,
        black_ms: row.try_get(17)?,
        result: row.try_get(18)?,
        reason: row.try_get(19)?,
        reason_code: row.try_get(20)?,
        draw_offer: row.try_get(21)?,
        tags: row.try_get(22)?,
        created_ms: row.try_get(23)?,
        updated_ms: row.try_get(24)?,
        version: row.try_get(25)?,
        last_offer: row.try_get(26)?,
        rematch_by: row.try_get(27)?,
        rematch_game: row.try_get(28)?,
        days_per_move: row.try_get::<_, Option<i32>>(29)?.map(i64::from),
        deadline_ms: row.try_get(30)?,
        to_move: row.try_get(31)?,
        notes: row.try_get(32)?,
    })
}

/// Runs one statement, prepared once per connection.
pub(super) async fn exec(
    client: &impl GenericClient,
    sql: &str,
    params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
) -> Result<u64, StoreError> {
    let statement = client.prepare_cached(sql).await?;
    Ok(client.execute(&statement, params).await?)
}

/// Writes a new game with its moves (and its engine job, and its notification) in
/// `client`'s open transaction.
pub(super) async fn insert_game(
    client: &impl GenericClient,
    round: &Round,
) -> Result<(), StoreError> {
    let game = row_of(round);
    let level = game.level.map(i32::from);
    let days_per_move = game.days_per_move.and_then(|d| i32::try_from(d).ok());
    exec(
        client,
        &format!(
            "INSERT INTO games ({GAME_COLUMNS}, listed_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, \
                 $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, \
                 $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $25)"
        ),
        &[
            &game.id,
            &game.variant,
            &game.mode,
            &game.start_fen,
            &level,
            &game.engine_color,
            &game.creator,
            &game.white.0,
            &game.black.0,
            &game.white.1,
            &game.black.1,
            &game.white.2,
            &game.black.2,
            &game.invite,
            &game.base_ms,
            &game.increment_ms,
            &game.white_ms,
            &game.black_ms,
            &game.result,
            &game.reason,
            &game.reason_code,
            &game.draw_offer,
            &game.tags,
            &game.created_ms,
            &game.updated_ms,
            &game.version,
            &game.last_offer,
            &game.rematch_by,
            &game.rematch_game,
            &days_per_move,
            &game.deadline_ms,
            &game.to_move,
            &game.notes,
        ],
    )
    .await?;
    for ply in 0..round.game.ply() {
        if let Some(mv) = move_row(round, ply) {
            insert_move(client, &game.id, &mv).await?;
        }
    }
    super::players::write_seats_postgres(client, round).await?;
    super::ratings::write_rated_postgres(client, round).await?;
    sync_job(client, round).await?;
    notify(client, &game.id, round.version, None).await?;
    Ok(())
}

/// The writer of game changes: takes the changes waiting, stores them together (see
/// [`save_many`]), answers each, and again. While changes keep coming (some were waiting when
/// it came back for more), it gathers them for a moment before storing: every transaction
/// costs the database a commit and a sync of its log, and each server one round trip, so the
/// more moves one holds, the less each costs. A change arriving alone is stored at once.
async fn group_commits(pool: Pool, mut queue: GroupedQueue) {
    let mut batch = Vec::with_capacity(MOST_CHANGES_AT_ONCE);
    loop {
        let busy = !queue.is_empty();
        if queue.recv_many(&mut batch, MOST_CHANGES_AT_ONCE).await == 0 {
            return;
        }
        if busy {
            let until = tokio::time::Instant::now() + GATHER_FOR;
            while batch.len() < GATHER_UP_TO {
                match tokio::time::timeout_at(until, queue.recv()).await {
                    Ok(Some(more)) => batch.push(more),
                    Ok(None) | Err(_) => break,
                }
            }
            while batch.len() < MOST_CHANGES_AT_ONCE {
                let Ok(more) = queue.try_recv() else { break };
                batch.push(more);
            }
        }
        let results = save_many(&pool, &batch).await;
        for (pending, result) in batch.drain(..).zip(results) {
            pending.answer(result);
        }
    }
}

/// The changes waiting for the writer.
type GroupedQueue = tokio::sync::mpsc::UnboundedReceiver<PendingChange>;

/// How long the writer gathers changes while they keep coming, at most.
const GATHER_FOR: std::time::Duration = std::time::Duration::from_millis(10);

/// How many changes the writer gathers before it stores them without waiting longer.
const GATHER_UP_TO: usize = 8;

/// Stores `batch`: its plain moves (see [`plain_move`]) all by one statement, which is a
/// transaction of its own, and the other changes in one transaction, each under its own
/// savepoint. Should the database refuse the plain moves' statement (nothing of it is stored
/// then), they are stored the careful way too.
async fn save_many(
    pool: &Pool,
    batch: &[PendingChange],
) -> Vec<Result<Option<GameRating>, StoreError>> {
    let mut client = match pool.get().await {
        Ok(client) => client,
        Err(error) => return all_refused(batch.len(), &error.into()),
    };
    let mut results: Vec<Option<Result<Option<GameRating>, StoreError>>> =
        std::iter::repeat_with(|| None).take(batch.len()).collect();
    let plain: Vec<bool> = batch
        .iter()
        .map(|job| {
            let (round, change, _) = job.change();
            plain_move(round, change)
        })
        .collect();
    let moves: Vec<&PendingChange> = batch
        .iter()
        .zip(&plain)
        .filter_map(|(job, &plain)| plain.then_some(job))
        .collect();
    let mut careful: Vec<usize> = (0..batch.len()).filter(|&index| !plain[index]).collect();
    if !moves.is_empty() {
        match store_plain_moves(&client, &moves).await {
            Ok(stored) => {
                for (index, job) in batch.iter().enumerate().filter(|&(index, _)| plain[index]) {
                    let id = &job.change().0.id;
                    results[index] = Some(if stored.contains(id) {
                        Ok(None)
                    } else {
                        Err(stale(id))
                    });
                }
            }
            // The database refused the statement: it stored none of it.
            Err(error) if error.as_db_error().is_some() => careful = (0..batch.len()).collect(),
            // Whether it was stored is not known: no second try.
            Err(error) => {
                let error = StoreError::from(error);
                for index in (0..batch.len()).filter(|&index| plain[index]) {
                    results[index] = Some(Err(error.clone()));
                }
            }
        }
    }
    if !careful.is_empty() {
        let jobs: Vec<&PendingChange> = careful.iter().map(|&index| &batch[index]).collect();
        for (index, result) in careful.iter().zip(save_each(&mut client, &jobs).await) {
            results[*index] = Some(result);
        }
    }
    results
        .into_iter()
        .map(|result| result.unwrap_or_else(|| Err(StoreError::other("a change was not stored"))))
        .collect()
}

/// Whether `change` of `round` is a plain move, stored by one statement: a move that ends no
/// rated game (a rated ending changes the ratings too).
fn plain_move(round: &Round, change: Change) -> bool {
    change == Change::Move && crate::game::rated::rated_end(round).is_none()
}

/// The plain moves of several games (see [`plain_move`]) in one statement, each game's
/// parameters one element of each array: each game's row where it is still at the version the
/// move was made on, and for those only, the move, the engine job and the notifications. It
/// answers the ids of the games whose move it stored.
static PLAIN_MOVES: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let arrays = std::iter::once("$1::TEXT[]".to_string())
        .chain(
            GAME_CHANGE
                .iter()
                .enumerate()
                .map(|(at, (_, kind, _))| format!("${}::{kind}[]", at + 2)),
        )
        .collect::<Vec<_>>()
        .join(", ");
    let names = GAME_CHANGE
        .iter()
        .map(|(column, _, _)| format!("new_{column}"))
        .collect::<Vec<_>>()
        .join(", ");
    let sets = GAME_CHANGE
        .iter()
        .map(|(column, _, _)| format!("{column} = x.new_{column}"))
        .collect::<Vec<_>>()
        .join(", ");
    let next = GAME_CHANGE.len() + 2;
    let [was, job, ply, text, white_ms, black_ms, at_ms, payload] =
        std::array::from_fn(|at| format!("${}", next + at));
    format!(
        "WITH x AS (SELECT * FROM unnest({arrays}, {was}::BIGINT[], {job}::BOOLEAN[], \
                    {ply}::INTEGER[], {text}::TEXT[], {white_ms}::BIGINT[], {black_ms}::BIGINT[], \
                    {at_ms}::BIGINT[], {payload}::TEXT[]) \
                    AS u(id, {names}, was, job, ply, text, white_ms, black_ms, at_ms, payload)), \
         changed AS (UPDATE games SET {sets}, {listed} FROM x \
                      WHERE games.id = x.id AND games.version = x.was RETURNING games.id), \
         stored AS (SELECT x.* FROM x JOIN changed USING (id)), \
         moved AS (INSERT INTO moves (game_id, ply, text, white_ms, black_ms, at_ms) \
                   SELECT id, ply, text, white_ms, black_ms, at_ms FROM stored), \
         jobs AS (INSERT INTO engine_jobs (game_id, version) \
                  SELECT id, new_version FROM stored WHERE job \
                  ON CONFLICT (game_id) DO UPDATE \
                  SET version = EXCLUDED.version, taken_by = NULL, taken_until = NULL), \
         no_jobs AS (DELETE FROM engine_jobs USING stored \
                     WHERE engine_jobs.game_id = stored.id AND NOT stored.job) \
         SELECT id, pg_notify('{CHANNEL}', payload), \
                CASE WHEN job THEN pg_notify('{JOBS_CHANNEL}', id) END \
         FROM stored",
        listed = super::listed_after_update("x.new_result", "x.new_updated_ms"),
    )
});

/// Stores the plain moves `moves` (see [`plain_move`]) by [`PLAIN_MOVES`]: the ids of the
/// games whose move is stored; the others had changed meanwhile.
async fn store_plain_moves(
    client: &deadpool_postgres::Object,
    moves: &[&PendingChange],
) -> Result<std::collections::HashSet<String>, tokio_postgres::Error> {
    let mut rows = Vec::with_capacity(moves.len());
    let mut was = Vec::with_capacity(moves.len());
    let mut job = Vec::with_capacity(moves.len());
    let mut made = Vec::with_capacity(moves.len());
    let mut payload = Vec::with_capacity(moves.len());
    for pending in moves {
        let (round, change, was_version) = pending.change();
        let game = row_of(round);
        // A plain move is a move: the round has its row.
        let Ok(mv) = last_move_row(round) else {
            continue;
        };
        payload.push(notification(
            &game.id,
            round.version,
            change_note(round, &game, change, was_version).as_ref(),
        ));
        was.push(i64::try_from(was_version).unwrap_or(i64::MAX));
        job.push(round.engine_to_move() || round.engine_has_offer());
        made.push(mv);
        rows.push(game);
    }
    let ids: Vec<&str> = rows.iter().map(|game| game.id.as_str()).collect();
    let changes: Vec<GameColumn> = GAME_CHANGE
        .iter()
        .map(|(_, _, value)| GameColumn::of(rows.iter().map(value)))
        .collect();
    let ply: Vec<i32> = made
        .iter()
        .map(|mv| i32::try_from(mv.ply).unwrap_or(i32::MAX))
        .collect();
    let text: Vec<&str> = made.iter().map(|mv| mv.text.as_str()).collect();
    let white_ms: Vec<Option<i64>> = made.iter().map(|mv| mv.white_ms).collect();
    let black_ms: Vec<Option<i64>> = made.iter().map(|mv| mv.black_ms).collect();
    let at_ms: Vec<i64> = made.iter().map(|mv| mv.at_ms).collect();
    let mut params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = vec![&ids];
    params.extend(
        changes
            .iter()
            .map(|column| column as &(dyn tokio_postgres::types::ToSql + Sync)),
    );
    params.extend([
        &was as &(dyn tokio_postgres::types::ToSql + Sync),
        &job,
        &ply,
        &text,
        &white_ms,
        &black_ms,
        &at_ms,
        &payload,
    ]);
    let statement = client.prepare_cached(&PLAIN_MOVES).await?;
    let stored = client.query(&statement, &params).await?;
    Ok(stored.iter().map(|row| row.get::<_, String>(0)).collect())
}

/// The error of a change made on a version of game `id` that is no longer the stored one.
fn stale(id: &str) -> StoreError {
    StoreError::new(
        StoreErrorKind::Stale,
        format!("game {id} changed meanwhile (or is not stored)"),
    )
}

/// Stores `batch` in one transaction, each change under its own savepoint.
async fn save_each(
    client: &mut deadpool_postgres::Object,
    batch: &[&PendingChange],
) -> Vec<Result<Option<GameRating>, StoreError>> {
    let all_fail = |error: StoreError| all_refused(batch.len(), &error);
    let transaction = match client.transaction().await {
        Ok(transaction) => transaction,
        Err(error) => return all_fail(error.into()),
    };
    let mut results = Vec::with_capacity(batch.len());
    for job in batch {
        let (round, change, was) = job.change();
        match save_under_savepoint(&transaction, round, change, was).await {
            Ok(saved) => results.push(saved),
            // The transaction cannot go on: nothing of the batch is stored.
            Err(error) => return all_fail(error),
        }
    }
    match transaction.commit().await {
        Ok(()) => results,
        Err(error) => all_fail(error.into()),
    }
}

/// Stores `change` of `round` (made on version `was`) under a savepoint of the open
/// `transaction`: `Ok` with what storing it gave (a failed change leaves nothing), `Err` when
/// the transaction cannot go on.
async fn save_under_savepoint(
    transaction: &deadpool_postgres::Transaction<'_>,
    round: &Round,
    change: Change,
    was: u64,
) -> Result<Result<Option<GameRating>, StoreError>, StoreError> {
    transaction.batch_execute("SAVEPOINT change").await?;
    let saved = save_in(transaction, round, change, was).await;
    let end = if saved.is_ok() {
        "RELEASE SAVEPOINT change"
    } else {
        "ROLLBACK TO SAVEPOINT change; RELEASE SAVEPOINT change"
    };
    match (transaction.batch_execute(end).await, saved) {
        (Ok(()), saved) => Ok(saved),
        (Err(_), Err(error)) => Err(error),
        (Err(error), Ok(_)) => Err(error.into()),
    }
}

/// A value of one of three kinds, each its own type: a text, a number or a flag (one value, or
/// one column of values for several games); it is sent as the value it holds.
#[derive(Debug)]
enum Typed<T, N, F> {
    Text(T),
    Number(N),
    Flag(F),
}

/// A value of a game's row that a change writes.
type GameValue = Typed<Option<String>, Option<i64>, bool>;

/// One column of [`GAME_CHANGE`] for several games, as an array parameter.
type GameColumn = Typed<Vec<Option<String>>, Vec<Option<i64>>, Vec<bool>>;

/// A column a change of a game writes: its name, its type and its value in a game's row.
type ChangedColumn = (&'static str, &'static str, fn(&GameRow) -> GameValue);

/// The columns a change of a game writes (all but its id).
const GAME_CHANGE: [ChangedColumn; 20] = [
    ("white_name", "TEXT", |g| {
        Typed::Text(Some(g.white.0.clone()))
    }),
    ("black_name", "TEXT", |g| {
        Typed::Text(Some(g.black.0.clone()))
    }),
    ("white_token", "TEXT", |g| Typed::Text(g.white.1.clone())),
    ("black_token", "TEXT", |g| Typed::Text(g.black.1.clone())),
    ("white_joined", "BOOLEAN", |g| Typed::Flag(g.white.2)),
    ("black_joined", "BOOLEAN", |g| Typed::Flag(g.black.2)),
    ("invite", "TEXT", |g| Typed::Text(g.invite.clone())),
    ("white_ms", "BIGINT", |g| Typed::Number(g.white_ms)),
    ("black_ms", "BIGINT", |g| Typed::Number(g.black_ms)),
    ("result", "TEXT", |g| Typed::Text(g.result.clone())),
    ("reason", "TEXT", |g| Typed::Text(g.reason.clone())),
    ("reason_code", "TEXT", |g| {
        Typed::Text(g.reason_code.clone())
    }),
    ("draw_offer", "TEXT", |g| Typed::Text(g.draw_offer.clone())),
    ("updated_ms", "BIGINT", |g| {
        Typed::Number(Some(g.updated_ms))
    }),
    ("version", "BIGINT", |g| Typed::Number(Some(g.version))),
    ("last_offer", "TEXT", |g| Typed::Text(g.last_offer.clone())),
    ("rematch_by", "TEXT", |g| Typed::Text(g.rematch_by.clone())),
    ("rematch_game", "TEXT", |g| {
        Typed::Text(g.rematch_game.clone())
    }),
    ("deadline_ms", "BIGINT", |g| Typed::Number(g.deadline_ms)),
    ("to_move", "TEXT", |g| Typed::Text(g.to_move.clone())),
];

/// Where column `name` of [`GAME_CHANGE`] is among the parameters of [`UPDATE_GAME`].
fn change_param(name: &str) -> String {
    let at = GAME_CHANGE
        .iter()
        .position(|(column, _, _)| *column == name)
        .unwrap_or_default();
    let (_, kind, _) = GAME_CHANGE[at];
    format!("${}::{kind}", at + 2)
}

/// The change of a game's row (`$1` its id, then the columns of [`GAME_CHANGE`]) made on
/// version `$22`; it changes nothing when the stored game is at another version.
static UPDATE_GAME: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let sets = GAME_CHANGE
        .iter()
        .enumerate()
        .map(|(at, (column, _, _))| format!("{column} = ${}", at + 2))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "UPDATE games SET {sets}, {} WHERE id = $1 AND version = ${}",
        super::listed_after_update(&change_param("result"), &change_param("updated_ms")),
        GAME_CHANGE.len() + 2
    )
});

impl GameColumn {
    /// The column of `values` (all of one kind: the first one's).
    fn of(values: impl Iterator<Item = GameValue>) -> GameColumn {
        let mut values = values.peekable();
        match values.peek() {
            Some(Typed::Number(_)) => Typed::Number(
                values
                    .map(|value| match value {
                        Typed::Number(number) => number,
                        _ => None,
                    })
                    .collect(),
            ),
            Some(Typed::Flag(_)) => Typed::Flag(
                values
                    .map(|value| matches!(value, Typed::Flag(true)))
                    .collect(),
            ),
            _ => Typed::Text(
                values
                    .map(|value| match value {
                        Typed::Text(text) => text,
                        _ => None,
                    })
                    .collect(),
            ),
        }
    }
}

impl<T, N, F> tokio_postgres::types::ToSql for Typed<T, N, F>
where
    T: tokio_postgres::types::ToSql,
    N: tokio_postgres::types::ToSql,
    F: tokio_postgres::types::ToSql,
{
    fn to_sql(
        &self,
        ty: &tokio_postgres::types::Type,
        out: &mut bytes::BytesMut,
    ) -> Result<tokio_postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Typed::Text(text) => text.to_sql(ty, out),
            Typed::Number(number) => number.to_sql(ty, out),
            Typed::Flag(flag) => flag.to_sql(ty, out),
        }
    }

    fn accepts(ty: &tokio_postgres::types::Type) -> bool {
        T::accepts(ty) || N::accepts(ty) || F::accepts(ty)
    }

    tokio_postgres::types::to_sql_checked!();
}

/// Writes `change` of `round` in the open transaction `transaction`, provided the stored game
/// is still at `was`; returns the rating changes it makes.
async fn save_in(
    transaction: &impl GenericClient,
    round: &Round,
    change: Change,
    was: u64,
) -> Result<Option<GameRating>, StoreError> {
    let game = row_of(round);
    let was_version = was;
    let was = i64::try_from(was).unwrap_or(i64::MAX);
    let values: Vec<GameValue> = GAME_CHANGE
        .iter()
        .map(|(_, _, value)| value(&game))
        .collect();
    let mut params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = vec![&game.id];
    params.extend(
        values
            .iter()
            .map(|value| value as &(dyn tokio_postgres::types::ToSql + Sync)),
    );
    params.push(&was);
    let changed = exec(transaction, &UPDATE_GAME, &params).await?;
    if changed != 1 {
        return Err(stale(&game.id));
    }
    // The rest goes out at once (pipelined on the connection): one round trip.
    let moves = async {
        match change {
            Change::Move => insert_move(transaction, &game.id, &last_move_row(round)?).await,
            Change::TakeBack(ply) => {
                let ply = i32::try_from(ply).unwrap_or(i32::MAX);
                exec(
                    transaction,
                    "DELETE FROM moves WHERE game_id = $1 AND ply >= $2",
                    &[&game.id, &ply],
                )
                .await
                .map(|_| ())
            }
            // Seats are taken (by an account too) only in changes of this kind.
            Change::Game => {
                super::players::write_seats_postgres(transaction, round).await?;
                super::ratings::write_rated_postgres(transaction, round).await
            }
        }
    };
    let note = change_note(round, &game, change, was_version);
    tokio::try_join!(
        moves,
        sync_job(transaction, round),
        notify(transaction, &game.id, round.version, note.as_ref())
    )?;
    super::ratings::apply_postgres(transaction, round).await
}

async fn insert_move(
    client: &impl GenericClient,
    game: &str,
    mv: &MoveRow,
) -> Result<(), StoreError> {
    let statement = client
        .prepare_cached(
            "INSERT INTO moves (game_id, ply, text, white_ms, black_ms, at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .await?;
    let ply = i32::try_from(mv.ply).unwrap_or(i32::MAX);
    client
        .execute(
            &statement,
            &[&game, &ply, &mv.text, &mv.white_ms, &mv.black_ms, &mv.at_ms],
        )
        .await?;
    Ok(())
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://USER@HOST/DB`, or with
    /// `?host=/run/postgresql` for a Unix socket) and brings its schema up to date.
    pub async fn connect(url: &str) -> Result<PgStore, StoreError> {
        let mut config = Config::new();
        config.url = Some(url.to_string());
        config.pool = Some(deadpool_postgres::PoolConfig::new(POOL_SIZE));
        let pool = config
            .create_pool(Some(Runtime::Tokio1), NoTls)
            .map_err(|e| StoreError::other(format!("cannot use {url}: {e}")))?;
        let (saves, queue) = tokio::sync::mpsc::unbounded_channel();
        // One writer: a game's changes never meet in two transactions at once (its next
        // change is made only once the last is stored), and the changes of all games wait
        // for the same commits.
        tokio::spawn(group_commits(pool.clone(), queue));
        let store = PgStore {
            pool,
            url: url.to_string(),
            saves,
        };
        store.migrate().await?;
        Ok(store)
    }

    async fn migrate(&self) -> Result<(), StoreError> {
        let mut client = self.pool.get().await?;
        let transaction = client.transaction().await?;
        transaction
            .execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .await?;
        transaction
            .batch_execute("CREATE TABLE IF NOT EXISTS bashni_schema (version INTEGER NOT NULL)")
            .await?;
        let version: i32 = match transaction
            .query_opt("SELECT version FROM bashni_schema", &[])
            .await?
        {
            Some(row) => row.try_get(0)?,
            None => {
                transaction
                    .execute("INSERT INTO bashni_schema (version) VALUES (0)", &[])
                    .await?;
                0
            }
        };
        let known = MIGRATIONS.len() as i32;
        if version > known {
            return Err(StoreError::other(format!(
                "the database has schema version {version}, newer than this program's {known}"
            )));
        }
        for (step, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            transaction.batch_execute(sql).await?;
            transaction
                .execute(
                    "UPDATE bashni_schema SET version = $1",
                    &[&(step as i32 + 1)],
                )
                .await?;
        }
        let rekeyed = super::players::rekey_players_pg(&transaction).await?;
        if rekeyed > 0 {
            tracing::info!(accounts = rekeyed, "names' keys made by the present rule");
        }
        transaction.commit().await?;
        Ok(())
    }

    /// The schema version in use.
    pub async fn schema_version(&self) -> Result<i64, StoreError> {
        let client = self.pool.get().await?;
        let row = client
            .query_one("SELECT version FROM bashni_schema", &[])
            .await?;
        Ok(i64::from(row.try_get::<_, i32>(0)?))
    }

    /// Stores a new game with its moves.
    pub async fn insert(&self, round: &Round) -> Result<(), StoreError> {
        let mut client = self.pool.get().await?;
        let transaction = client.transaction().await?;
        insert_game(&transaction, round).await?;
        transaction.commit().await?;
        Ok(())
    }

    /// Takes an engine job nobody holds (or whose holder's lease ran out) for `server`:
    /// the game's id and the version the job is for.
    pub async fn take_job(&self, server: &str) -> Result<Option<(String, u64)>, StoreError> {
        let client = self.pool.get().await?;
        let now = crate::game::round::now_ms();
        let row = client
            .query_opt(
                "UPDATE engine_jobs SET taken_by = $1, taken_until = $2 WHERE game_id = (
                     SELECT game_id FROM engine_jobs
                     WHERE taken_until IS NULL OR taken_until < $3
                     ORDER BY version FOR UPDATE SKIP LOCKED LIMIT 1)
                 RETURNING game_id, version",
                &[&server, &(now + JOB_LEASE_MS), &now],
            )
            .await?;
        Ok(match row {
            Some(row) => {
                let version: i64 = row.try_get(1)?;
                Some((row.try_get(0)?, u64::try_from(version).unwrap_or(0)))
            }
            None => None,
        })
    }

    /// Renews `server`'s lease on the job of game `id` (while its engine searches).
    pub async fn renew_job(&self, server: &str, id: &str) -> Result<(), StoreError> {
        let client = self.pool.get().await?;
        let until = crate::game::round::now_ms() + JOB_LEASE_MS;
        client
            .execute(
                "UPDATE engine_jobs SET taken_until = $3 WHERE game_id = $1 AND taken_by = $2",
                &[&id, &server, &until],
            )
            .await?;
        Ok(())
    }

    /// Gives back `server`'s job on game `id` undone (another server, or this one later,
    /// takes it again).
    pub async fn release_job(&self, server: &str, id: &str) -> Result<(), StoreError> {
        let client = self.pool.get().await?;
        client
            .execute(
                "UPDATE engine_jobs SET taken_by = NULL, taken_until = NULL \
                 WHERE game_id = $1 AND taken_by = $2",
                &[&id, &server],
            )
            .await?;
        client
            .execute("SELECT pg_notify($1, $2)", &[&JOBS_CHANNEL, &id])
            .await?;
        Ok(())
    }

    /// Stores `change` of `round` in one transaction, provided the stored game is still at
    /// version `was`; otherwise nothing is written and the error's kind is
    /// [`StoreErrorKind::Stale`]. Every server listening hears of the change once it is
    /// committed.
    pub async fn save(&self, round: &Round, change: Change, was: u64) -> Result<(), StoreError> {
        self.save_rated(round, change, was).await.map(|_| ())
    }

    /// Like [`PgStore::save`]; when the change ends a rated game, both players' ratings
    /// change in the same transaction, and the change made is returned.
    pub async fn save_rated(
        &self,
        round: &Round,
        change: Change,
        was: u64,
    ) -> Result<Option<GameRating>, StoreError> {
        let mut client = self.pool.get().await?;
        let transaction = client.transaction().await?;
        let rating = save_in(&transaction, round, change, was).await?;
        transaction.commit().await?;
        Ok(rating)
    }

    /// Stores `change` of `round` as [`PgStore::save_rated`] does, in one transaction with
    /// the changes of other games waiting with it (a group commit: one commit, and so one
    /// sync of the database's log, for many moves). Each change is still on its own: one
    /// that fails leaves nothing and the others are stored. Answers with the round.
    pub async fn save_grouped(
        &self,
        round: Round,
        change: Change,
        was: u64,
    ) -> Result<(Round, Result<Option<GameRating>, StoreError>), StoreError> {
        let (pending, waiting) = PendingChange::new(round, change, was);
        self.saves
            .send(pending)
            .map_err(|_| StoreError::other("the database's writer has stopped"))?;
        waiting.answered().await
    }

    /// Whether the database answers: a trivial query on a connection of the pool.
    pub async fn ping(&self) -> Result<(), StoreError> {
        let client = self.pool.get().await?;
        client.simple_query("SELECT 1").await?;
        Ok(())
    }

    /// The version at which game `id` is stored, if it is: a look that reads nothing else.
    pub async fn stored_version(&self, id: &str) -> Result<Option<u64>, StoreError> {
        let client = self.pool.get().await?;
        let statement = client
            .prepare_cached("SELECT version FROM games WHERE id = $1")
            .await?;
        let row = client.query_opt(&statement, &[&id]).await?;
        Ok(row
            .map(|row| row.try_get::<_, i64>(0))
            .transpose()?
            .map(|version| u64::try_from(version).unwrap_or_default()))
    }

    /// The game `id`, rebuilt, if there is one.
    pub async fn load(&self, id: &str) -> Result<Option<Round>, StoreError> {
        let client = self.pool.get().await?;
        let statement = client
            .prepare_cached(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
            .await?;
        let row = client.query_opt(&statement, &[&id]).await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let game = game_from_row(&row)?;
        let statement = client
            .prepare_cached(
                "SELECT ply, text, white_ms, black_ms, at_ms FROM moves WHERE game_id = $1 \
                 ORDER BY ply",
            )
            .await?;
        let mut moves = Vec::new();
        for row in client.query(&statement, &[&id]).await? {
            let ply: i32 = row.try_get(0)?;
            moves.push(MoveRow {
                ply: u32::try_from(ply).unwrap_or(u32::MAX),
                text: row.try_get(1)?,
                white_ms: row.try_get(2)?,
                black_ms: row.try_get(3)?,
                at_ms: row.try_get(4)?,
            });
        }
        let seats = super::players::read_seats_postgres(&client, id).await?;
        let rated = super::ratings::read_rated_postgres(&client, id).await?;
        round_of(game, &moves)
            .map(|round| Some(rated.apply(seats.apply(round))))
            .map_err(|e| StoreError::new(StoreErrorKind::Corrupt, format!("game {id}: {e}")))
    }

    /// The games changed most recently, newest first.
    pub async fn recent(&self, limit: u32) -> Result<Vec<GameSummary>, StoreError> {
        self.list(&ListFilter {
            limit,
            ..ListFilter::default()
        })
        .await
    }

    /// The games `filter` asks for, newest first.
    pub async fn list(&self, filter: &ListFilter) -> Result<Vec<GameSummary>, StoreError> {
        type Param = Box<dyn tokio_postgres::types::ToSql + Sync + Send>;
        let mut clauses: Vec<String> = filter
            .status
            .condition()
            .map(String::from)
            .into_iter()
            .collect();
        let mut values: Vec<Param> = Vec::new();
        if let Some(ids) = &filter.ids {
            if ids.is_empty() {
                return Ok(Vec::new());
            }
            values.push(Box::new(ids.clone()));
            clauses.push(format!("g.id = ANY(${})", values.len()));
        }
        if let Some((ms, id)) = &filter.before {
            values.push(Box::new(*ms));
            values.push(Box::new(id.clone()));
            let n = values.len();
            clauses.push(format!("(g.listed_ms, g.id) < (${}, ${n})", n - 1));
        }
        values.push(Box::new(i64::from(filter.limit)));
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS} FROM games g {} {LIST_ORDER} LIMIT ${}",
            if clauses.is_empty() {
                String::new()
            } else {
                format!("WHERE {}", clauses.join(" AND "))
            },
            values.len()
        );
        let client = self.pool.get().await?;
        let statement = client.prepare_cached(&sql).await?;
        let params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = values
            .iter()
            .map(|value| value.as_ref() as &(dyn tokio_postgres::types::ToSql + Sync))
            .collect();
        let rows = client.query(&statement, &params).await?;
        rows.iter()
            .map(|row| {
                let plies: i64 = row.try_get(5)?;
                let version: i64 = row.try_get(9)?;
                Ok(GameSummary {
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
                })
            })
            .collect()
    }

    /// Listens for changes stored by any server: each is sent as the game's id and its new
    /// version. The listener connects again after a lost connection; `gap` is sent then (a
    /// change may have been missed).
    pub fn listen(&self, changes: tokio::sync::mpsc::Sender<Heard>) {
        let url = self.url.clone();
        tokio::spawn(async move {
            let mut wait = std::time::Duration::from_millis(100);
            loop {
                match listen_once(&url, &changes).await {
                    Ok(()) => return,
                    Err(error) => {
                        tracing::warn!("database notifications: {error}; connecting again");
                        if changes.send(Heard::Gap).await.is_err() {
                            return;
                        }
                        tokio::time::sleep(wait).await;
                        wait = (wait * 2).min(std::time::Duration::from_secs(5));
                    }
                }
            }
        });
    }
}

impl PgStore {
    /// The ids of correspondence games whose deadline is at or before `now_ms`, the longest
    /// overdue first, at most `limit`.
    pub async fn overdue(&self, now_ms: i64, limit: u32) -> Result<Vec<String>, StoreError> {
        let client = self.pool.get().await?;
        let statement = client
            .prepare_cached(
                "SELECT id FROM games WHERE deadline_ms IS NOT NULL AND deadline_ms <= $1 \
                 ORDER BY deadline_ms LIMIT $2",
            )
            .await?;
        let rows = client
            .query(&statement, &[&now_ms, &i64::from(limit)])
            .await?;
        rows.iter()
            .map(|row| row.try_get(0).map_err(StoreError::from))
            .collect()
    }

    /// The ids of the games where account `player` is to move (see `ACCOUNT_TURNS`).
    pub async fn account_turns(&self, player: i64) -> Result<Vec<String>, StoreError> {
        let client = self.pool.get().await?;
        let statement = client.prepare_cached(super::ACCOUNT_TURNS).await?;
        let rows = client.query(&statement, &[&player]).await?;
        rows.iter()
            .map(|row| row.try_get(0).map_err(StoreError::from))
            .collect()
    }

    /// The games among `ids` that go on between seated players, with their side to move.
    pub async fn turns(&self, ids: &[String]) -> Result<Vec<TurnSummary>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let client = self.pool.get().await?;
        let statement = client
            .prepare_cached(&format!(
                "SELECT {TURN_COLUMNS} FROM games g WHERE g.to_move IS NOT NULL \
                 AND g.id = ANY($1)"
            ))
            .await?;
        let rows = client.query(&statement, &[&ids]).await?;
        rows.iter()
            .map(|row| {
                let days: Option<i32> = row.try_get(8)?;
                let plies: i64 = row.try_get(10)?;
                Ok(TurnSummary {
                    id: row.try_get(0)?,
                    variant: row.try_get(1)?,
                    white: row.try_get(2)?,
                    black: row.try_get(3)?,
                    white_token: row.try_get(4)?,
                    black_token: row.try_get(5)?,
                    engine_color: row.try_get(6)?,
                    to_move: row.try_get(7)?,
                    days_per_move: days.and_then(|d| u32::try_from(d).ok()),
                    deadline_ms: row.try_get(9)?,
                    plies: u32::try_from(plies).unwrap_or(u32::MAX),
                    updated_ms: row.try_get(11)?,
                })
            })
            .collect()
    }
}

/// What a notification on [`CHANNEL`] says (see [`notify`]), if it can be read. The note is
/// kept as its text: only a server holding the game reads it ([`Heard::note`]).
fn heard_of_game(payload: &str) -> Option<Heard> {
    let mut parts = payload.splitn(3, ' ');
    let id = parts.next()?.to_string();
    let version = parts.next()?.parse().ok()?;
    let note = parts.next().map(Arc::from);
    Some(Heard::Changed { id, version, note })
}

impl Heard {
    /// The change a [`Heard::Changed`] carried, read; `None` when it carried none or it
    /// cannot be read (the game is then read again).
    pub fn note(text: Option<&str>) -> Option<ChangeNote> {
        text.and_then(|text| serde_json::from_str(text).ok())
    }
}

/// What the listener hears.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heard {
    /// Game `id` was stored at `version`.
    Changed {
        /// The game's id.
        id: String,
        /// Its version now.
        version: u64,
        /// The change itself as JSON text, when it was sent with the notification.
        note: Option<Arc<str>>,
    },
    /// The connection was lost: any change may have been missed.
    Gap,
    /// Line `seq` of room `room` of game `id`'s chat was stored.
    Chat {
        /// The game's id.
        id: String,
        /// `players` or `watchers`.
        room: String,
        /// The line's number.
        seq: u64,
    },
    /// A player of game `id` muted or unmuted the opponent.
    Muted {
        /// The game's id.
        id: String,
        /// The side that mutes or unmutes: `white` or `black`.
        side: String,
    },
    /// A server's sockets bound to a seat of game `id` came or went.
    Presence {
        /// The game's id.
        id: String,
        /// The server whose sockets they are, when the note names it.
        server: Option<String>,
    },
    /// An engine job (a move or a draw answer) was made or given back: a server with a free
    /// engine may take it.
    Job,
    /// A change of the lobby's seeks (see [`super::lobby`]).
    Lobby(super::SeekNote),
}

/// What a notification on [`PEOPLE_CHANNEL`] says, if it can be read.
fn heard_of_people(payload: &str) -> Option<Heard> {
    let mut parts = payload.split(' ');
    let (kind, id) = (parts.next()?, parts.next()?.to_string());
    match kind {
        "chat" => Some(Heard::Chat {
            id,
            room: parts.next()?.to_string(),
            seq: parts.next()?.parse().ok()?,
        }),
        "mute" => Some(Heard::Muted {
            id,
            side: parts.next()?.to_string(),
        }),
        "presence" => Some(Heard::Presence {
            id,
            server: parts.next().map(String::from),
        }),
        _ => None,
    }
}

/// Keeps the game's engine job as the round needs it: one for this version when the engine
/// is to move or to answer a draw offer, none otherwise.
async fn sync_job(client: &impl GenericClient, round: &Round) -> Result<(), StoreError> {
    if round.engine_to_move() || round.engine_has_offer() {
        let version = i64::try_from(round.version).unwrap_or(i64::MAX);
        exec(
            client,
            "INSERT INTO engine_jobs (game_id, version) VALUES ($1, $2) \
             ON CONFLICT (game_id) DO UPDATE \
             SET version = $2, taken_by = NULL, taken_until = NULL",
            &[&round.id, &version],
        )
        .await?;
        exec(
            client,
            "SELECT pg_notify($1, $2)",
            &[&JOBS_CHANNEL, &round.id],
        )
        .await?;
    } else {
        exec(
            client,
            "DELETE FROM engine_jobs WHERE game_id = $1",
            &[&round.id],
        )
        .await?;
    }
    Ok(())
}

/// The longest notification sent with its change; PostgreSQL takes up to 8,000 bytes.
const NOTE_BYTES: usize = 7_000;

/// Tells the listening servers that game `id` is stored at `version`, with the change made
/// when it has a note (see [`ChangeNote`]) that fits: `id version` or `id version {note}`.
async fn notify(
    client: &impl GenericClient,
    id: &str,
    version: u64,
    note: Option<&ChangeNote>,
) -> Result<(), StoreError> {
    let payload = notification(id, version, note);
    exec(client, "SELECT pg_notify($1, $2)", &[&CHANNEL, &payload]).await?;
    Ok(())
}

/// The notification that game `id` is stored at `version`, with the change made when it has a
/// note that fits: `id version` or `id version {note}`.
fn notification(id: &str, version: u64, note: Option<&ChangeNote>) -> String {
    let mut payload = format!("{id} {version}");
    if let Some(note) = note.and_then(|note| serde_json::to_string(note).ok())
        && payload.len() + 1 + note.len() <= NOTE_BYTES
    {
        payload.push(' ');
        payload.push_str(&note);
    }
    payload
}

/// One connection's worth of listening; returns `Ok` only when nobody listens any more.
async fn listen_once(
    url: &str,
    changes: &tokio::sync::mpsc::Sender<Heard>,
) -> Result<(), tokio_postgres::Error> {
    let (client, mut connection) = tokio_postgres::connect(url, NoTls).await?;
    let (messages_tx, mut messages) = tokio::sync::mpsc::unbounded_channel();
    let driver = tokio::spawn(async move {
        let mut stream = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
        while let Some(message) = stream.next().await {
            match message {
                Ok(message) => {
                    if messages_tx.send(Ok(message)).is_err() {
                        break;
                    }
                }
                Err(error) => {
                    let _ = messages_tx.send(Err(error));
                    break;
                }
            }
        }
    });
    client
        .batch_execute(&format!(
            "LISTEN {CHANNEL}; LISTEN {PEOPLE_CHANNEL}; LISTEN {JOBS_CHANNEL}; LISTEN {}",
            crate::store::lobby::postgres::CHANNEL
        ))
        .await?;
    // A change stored before LISTEN took effect would be missed: say so once.
    if changes.send(Heard::Gap).await.is_err() {
        driver.abort();
        return Ok(());
    }
    while let Some(message) = messages.recv().await {
        let message = match message {
            Ok(message) => message,
            Err(error) => {
                driver.abort();
                return Err(error);
            }
        };
        if let AsyncMessage::Notification(note) = message {
            if note.channel() == JOBS_CHANNEL {
                if changes.send(Heard::Job).await.is_err() {
                    driver.abort();
                    return Ok(());
                }
                continue;
            }
            if note.channel() == PEOPLE_CHANNEL {
                let Some(heard) = heard_of_people(note.payload()) else {
                    continue;
                };
                if changes.send(heard).await.is_err() {
                    driver.abort();
                    return Ok(());
                }
                continue;
            }
            if note.channel() == crate::store::lobby::postgres::CHANNEL {
                let Some(heard) = crate::store::lobby::postgres::heard(note.payload()) else {
                    continue;
                };
                if changes.send(Heard::Lobby(heard)).await.is_err() {
                    driver.abort();
                    return Ok(());
                }
                continue;
            }
            let Some(heard) = heard_of_game(note.payload()) else {
                continue;
            };
            if changes.send(heard).await.is_err() {
                driver.abort();
                return Ok(());
            }
        }
    }
    driver.abort();
    // The connection ended without an error (the server closed it).
    client.batch_execute("SELECT 1").await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_going_away_is_unavailable_not_a_fault() {
        for gone in [
            SqlState::ADMIN_SHUTDOWN,
            SqlState::CRASH_SHUTDOWN,
            SqlState::CANNOT_CONNECT_NOW,
            SqlState::CONNECTION_FAILURE,
            SqlState::CONNECTION_EXCEPTION,
            SqlState::TOO_MANY_CONNECTIONS,
        ] {
            assert_eq!(kind_of_code(&gone), StoreErrorKind::Busy, "{}", gone.code());
        }
        assert_eq!(kind_of_code(&SqlState::DISK_FULL), StoreErrorKind::Full);
        assert_eq!(kind_of_code(&SqlState::SYNTAX_ERROR), StoreErrorKind::Other);
    }
}
