//! Tournaments in the store: the tournaments, their players, and the boards of each round
//! with the games played on them. The same tables and the same SQL on both databases
//! (written with PostgreSQL's `$1` placeholders; SQLite reads them as its numbered `?1`).
//!
//! Every change of a tournament (a join, a leave, its start, a new round, its end) first
//! moves the tournament's `version` on, and a change computed on an older version writes
//! nothing. So when several servers see the last game of a round end at once, only one of
//! them pairs the next round; its games are stored in the same transaction.

use deadpool_postgres::GenericClient;
use rusqlite::{OptionalExtension, params};

use super::postgres::exec;
use super::{Database, PgStore, Store, StoreError};
use crate::game::round::Round;

/// SQLite's step of the schema (version 11).
pub(super) const SQLITE_MIGRATION: &str = "CREATE TABLE tournaments (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        variant TEXT NOT NULL,
        system TEXT NOT NULL,
        rounds INTEGER NOT NULL,
        micro INTEGER NOT NULL,
        base_ms INTEGER,
        increment_ms INTEGER,
        creator INTEGER NOT NULL REFERENCES players(id),
        status TEXT NOT NULL,
        current_round INTEGER NOT NULL,
        version INTEGER NOT NULL,
        created_ms INTEGER NOT NULL,
        seed INTEGER NOT NULL
    );
    CREATE INDEX tournaments_by_status ON tournaments(status, created_ms);
    CREATE TABLE tournament_players (
        tournament_id TEXT NOT NULL REFERENCES tournaments(id),
        player_id INTEGER NOT NULL REFERENCES players(id),
        number INTEGER,
        joined_ms INTEGER NOT NULL,
        PRIMARY KEY (tournament_id, player_id)
    ) WITHOUT ROWID;
    CREATE TABLE tournament_games (
        tournament_id TEXT NOT NULL REFERENCES tournaments(id),
        round INTEGER NOT NULL,
        board INTEGER NOT NULL,
        leg INTEGER NOT NULL,
        white INTEGER NOT NULL,
        black INTEGER,
        game_id TEXT REFERENCES games(id),
        PRIMARY KEY (tournament_id, round, board, leg)
    ) WITHOUT ROWID;
    CREATE INDEX tournament_games_by_game ON tournament_games(game_id);";

/// PostgreSQL's step of the schema (version 12).
pub(super) const POSTGRES_MIGRATION: &str = "CREATE TABLE tournaments (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        variant TEXT NOT NULL,
        system TEXT NOT NULL,
        rounds BIGINT NOT NULL,
        micro BIGINT NOT NULL,
        base_ms BIGINT,
        increment_ms BIGINT,
        creator BIGINT NOT NULL REFERENCES players(id),
        status TEXT NOT NULL,
        current_round BIGINT NOT NULL,
        version BIGINT NOT NULL,
        created_ms BIGINT NOT NULL,
        seed BIGINT NOT NULL
    );
    CREATE INDEX tournaments_by_status ON tournaments(status, created_ms);
    CREATE TABLE tournament_players (
        tournament_id TEXT NOT NULL REFERENCES tournaments(id),
        player_id BIGINT NOT NULL REFERENCES players(id),
        number BIGINT,
        joined_ms BIGINT NOT NULL,
        PRIMARY KEY (tournament_id, player_id)
    );
    CREATE TABLE tournament_games (
        tournament_id TEXT NOT NULL REFERENCES tournaments(id),
        round BIGINT NOT NULL,
        board BIGINT NOT NULL,
        leg BIGINT NOT NULL,
        white BIGINT NOT NULL,
        black BIGINT,
        game_id TEXT REFERENCES games(id),
        PRIMARY KEY (tournament_id, round, board, leg)
    );
    CREATE INDEX tournament_games_by_game ON tournament_games(game_id);";

/// A stored tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// `bashni` or `russian`.
    pub variant: String,
    /// `round_robin` or `swiss`.
    pub system: String,
    /// How many rounds (a Swiss tournament's from its creation, a round robin's from its
    /// start, 0 before).
    pub rounds: i64,
    /// Whether each pairing plays a micro-match (two games on a ballot opening).
    pub micro: bool,
    /// Each side's time at the start of a game, in ms (`None`: no clock).
    pub base_ms: Option<i64>,
    /// Time added after each move, in ms.
    pub increment_ms: Option<i64>,
    /// The account that made it.
    pub creator: i64,
    /// That account's name (filled in when read).
    pub creator_name: String,
    /// `open`, `running` or `finished`.
    pub status: String,
    /// The round being played (0 before the start).
    pub current_round: i64,
    /// Moves on with every change.
    pub version: i64,
    /// When it was made (ms since 1970).
    pub created_ms: i64,
    /// The seed of the ballot of openings.
    pub seed: i64,
    /// How many players have joined (filled in when read).
    pub players: i64,
}

/// A player of a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntrantRow {
    /// The account.
    pub player_id: i64,
    /// Its name.
    pub name: String,
    /// The player's number, from 0, given at the start.
    pub number: Option<i64>,
    /// When the player joined (ms since 1970).
    pub joined_ms: i64,
}

/// A board of a round: one game of a pairing (two for a micro-match, `leg` 1 and 2), or a
/// bye (no black player, no game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardRow {
    /// The round, from 1.
    pub round: i64,
    /// The board, from 1.
    pub board: i64,
    /// The game of a micro-match, 1 or 2 (1 otherwise).
    pub leg: i64,
    /// White's number.
    pub white: i64,
    /// Black's number (`None`: a bye of White's player).
    pub black: Option<i64>,
    /// The game.
    pub game_id: Option<String>,
    /// The game's result once over: `1-0`, `0-1`, `1/2-1/2` (filled in when read).
    pub result: Option<String>,
}

/// A tournament with its players and boards.
#[derive(Clone, Debug)]
pub struct TournamentData {
    /// The tournament.
    pub tournament: TournamentRow,
    /// Its players, in the order they joined.
    pub entrants: Vec<EntrantRow>,
    /// Its boards, in round, board and leg order.
    pub boards: Vec<BoardRow>,
}

/// A step of a tournament computed on its `was` version: its new status, round and number
/// of rounds, the players' numbers (at the start), and the boards and games of a new round.
#[derive(Clone, Debug)]
pub struct Advance {
    /// The version the step was computed on.
    pub was: i64,
    /// The status after.
    pub status: String,
    /// The round after.
    pub current_round: i64,
    /// The number of rounds after.
    pub rounds: i64,
    /// Players' numbers to write: (account, number).
    pub numbers: Vec<(i64, i64)>,
    /// The new round's boards.
    pub boards: Vec<BoardRow>,
    /// The new round's games.
    pub games: Vec<Round>,
}

/// What a join or a leave came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// Done (or nothing to do: already in, or not in).
    Done,
    /// There is no such tournament.
    Missing,
    /// The tournament is no longer open; its status.
    Closed(String),
    /// The tournament has as many players as it may have.
    Full,
}

const TOURNAMENT_COLUMNS: &str = concat!(
    "t.id, t.name, t.variant, t.system, t.rounds, t.micro, \
     t.base_ms, t.increment_ms, t.creator, ",
    shown_name!(),
    ", t.status, t.current_round, t.version, \
     t.created_ms, t.seed, (SELECT COUNT(*) FROM tournament_players e \
     WHERE e.tournament_id = t.id)"
);
const INSERT_TOURNAMENT: &str = "INSERT INTO tournaments (id, name, variant, system, rounds, \
    micro, base_ms, increment_ms, creator, status, current_round, version, created_ms, seed) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)";
/// A join or a leave moves the version on while the tournament is open, so that a start
/// computed on the players before it is refused.
const TOUCH_OPEN: &str =
    "UPDATE tournaments SET version = version + 1 WHERE id = $1 AND status = 'open'";
const STATUS_OF: &str = "SELECT status FROM tournaments WHERE id = $1";
const COUNT_ENTRANTS: &str = "SELECT COUNT(*), \
    COALESCE(SUM(CASE WHEN player_id = $2 THEN 1 ELSE 0 END), 0) \
    FROM tournament_players WHERE tournament_id = $1";
/// The tournaments an account made that have not finished.
const COUNT_UNFINISHED: &str =
    "SELECT COUNT(*) FROM tournaments WHERE creator = $1 AND status <> 'finished'";
/// Holds the creator's row until the commit, so that two creations count one after the other.
const LOCK_PLAYER: &str = "SELECT id FROM players WHERE id = $1 FOR UPDATE";
const INSERT_ENTRANT: &str = "INSERT INTO tournament_players (tournament_id, player_id, \
    joined_ms) VALUES ($1, $2, $3) ON CONFLICT (tournament_id, player_id) DO NOTHING";
const DELETE_ENTRANT: &str =
    "DELETE FROM tournament_players WHERE tournament_id = $1 AND player_id = $2";
/// The entrants, a deleted account under [`super::players::DELETED_NAME`].
const ENTRANTS: &str = concat!(
    "SELECT e.player_id, ",
    shown_name!(),
    ", e.number, e.joined_ms \
     FROM tournament_players e JOIN players p ON p.id = e.player_id \
     WHERE e.tournament_id = $1 ORDER BY e.joined_ms, e.player_id"
);
const BOARDS: &str = "SELECT b.round, b.board, b.leg, b.white, b.black, b.game_id, g.result \
    FROM tournament_games b LEFT JOIN games g ON g.id = b.game_id \
    WHERE b.tournament_id = $1 ORDER BY b.round, b.board, b.leg";
const STEP: &str = "UPDATE tournaments SET status = $2, current_round = $3, rounds = $4, \
    version = version + 1 WHERE id = $1 AND version = $5";
const NUMBER: &str =
    "UPDATE tournament_players SET number = $3 WHERE tournament_id = $1 AND player_id = $2";
const INSERT_BOARD: &str = "INSERT INTO tournament_games (tournament_id, round, board, leg, \
    white, black, game_id) VALUES ($1, $2, $3, $4, $5, $6, $7)";
const RUNNING: &str = "SELECT id FROM tournaments WHERE status = 'running' ORDER BY created_ms";

/// The most tournaments one list holds.
pub const TOURNAMENTS_LISTED: i64 = 100;

/// The query of the newest tournaments of one status.
fn list_query() -> String {
    format!(
        "SELECT {TOURNAMENT_COLUMNS} FROM tournaments t JOIN players p ON p.id = t.creator \
         WHERE t.status = $1 ORDER BY t.created_ms DESC, t.id DESC LIMIT $2"
    )
}

fn one_query() -> String {
    format!(
        "SELECT {TOURNAMENT_COLUMNS} FROM tournaments t JOIN players p ON p.id = t.creator \
         WHERE t.id = $1"
    )
}

/// A statement of this module as SQLite numbers its parameters.
fn sqlite(sql: &str) -> String {
    sql.replace('$', "?")
}

fn tournament_sqlite(row: &rusqlite::Row<'_>) -> rusqlite::Result<TournamentRow> {
    Ok(TournamentRow {
        id: row.get(0)?,
        name: row.get(1)?,
        variant: row.get(2)?,
        system: row.get(3)?,
        rounds: row.get(4)?,
        micro: row.get::<_, i64>(5)? != 0,
        base_ms: row.get(6)?,
        increment_ms: row.get(7)?,
        creator: row.get(8)?,
        creator_name: row.get(9)?,
        status: row.get(10)?,
        current_round: row.get(11)?,
        version: row.get(12)?,
        created_ms: row.get(13)?,
        seed: row.get(14)?,
        players: row.get(15)?,
    })
}

fn tournament_postgres(row: &tokio_postgres::Row) -> Result<TournamentRow, StoreError> {
    Ok(TournamentRow {
        id: row.try_get(0)?,
        name: row.try_get(1)?,
        variant: row.try_get(2)?,
        system: row.try_get(3)?,
        rounds: row.try_get(4)?,
        micro: row.try_get::<_, i64>(5)? != 0,
        base_ms: row.try_get(6)?,
        increment_ms: row.try_get(7)?,
        creator: row.try_get(8)?,
        creator_name: row.try_get(9)?,
        status: row.try_get(10)?,
        current_round: row.try_get(11)?,
        version: row.try_get(12)?,
        created_ms: row.try_get(13)?,
        seed: row.try_get(14)?,
        players: row.try_get(15)?,
    })
}

impl Store {
    fn tournament_create(&self, row: &TournamentRow, most: i64) -> Result<bool, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let unfinished: i64 =
            transaction.query_row(&sqlite(COUNT_UNFINISHED), params![row.creator], |r| {
                r.get(0)
            })?;
        if unfinished >= most {
            return Ok(false);
        }
        transaction
            .prepare_cached(&sqlite(INSERT_TOURNAMENT))?
            .execute(params![
                row.id,
                row.name,
                row.variant,
                row.system,
                row.rounds,
                i64::from(row.micro),
                row.base_ms,
                row.increment_ms,
                row.creator,
                row.status,
                row.current_round,
                row.version,
                row.created_ms,
                row.seed
            ])?;
        transaction.commit()?;
        Ok(true)
    }

    fn tournament_enter(
        &self,
        id: &str,
        player: i64,
        now: i64,
        join: bool,
        capacity: i64,
    ) -> Result<Entry, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        if transaction.execute(&sqlite(TOUCH_OPEN), params![id])? == 0 {
            let status: Option<String> = transaction
                .query_row(&sqlite(STATUS_OF), params![id], |row| row.get(0))
                .optional()?;
            return Ok(status.map_or(Entry::Missing, Entry::Closed));
        }
        if join {
            let (count, already): (i64, i64) =
                transaction.query_row(&sqlite(COUNT_ENTRANTS), params![id, player], |row| {
                    Ok((row.get(0)?, row.get(1)?))
                })?;
            if already == 0 && count >= capacity {
                return Ok(Entry::Full);
            }
            transaction.execute(&sqlite(INSERT_ENTRANT), params![id, player, now])?;
        } else {
            transaction.execute(&sqlite(DELETE_ENTRANT), params![id, player])?;
        }
        transaction.commit()?;
        Ok(Entry::Done)
    }

    fn tournament_list(&self, status: &str) -> Result<Vec<TournamentRow>, StoreError> {
        let connection = self.lock();
        let mut statement = connection.prepare_cached(&sqlite(&list_query()))?;
        let rows = statement
            .query_map(params![status, TOURNAMENTS_LISTED], tournament_sqlite)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    fn tournament(&self, id: &str) -> Result<Option<TournamentData>, StoreError> {
        let connection = self.lock();
        let Some(tournament) = connection
            .prepare_cached(&sqlite(&one_query()))?
            .query_row(params![id], tournament_sqlite)
            .optional()?
        else {
            return Ok(None);
        };
        let entrants = connection
            .prepare_cached(&sqlite(ENTRANTS))?
            .query_map(params![id], |row| {
                Ok(EntrantRow {
                    player_id: row.get(0)?,
                    name: row.get(1)?,
                    number: row.get(2)?,
                    joined_ms: row.get(3)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let boards = connection
            .prepare_cached(&sqlite(BOARDS))?
            .query_map(params![id], |row| {
                Ok(BoardRow {
                    round: row.get(0)?,
                    board: row.get(1)?,
                    leg: row.get(2)?,
                    white: row.get(3)?,
                    black: row.get(4)?,
                    game_id: row.get(5)?,
                    result: row.get(6)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(TournamentData {
            tournament,
            entrants,
            boards,
        }))
    }

    fn tournament_advance(&self, id: &str, step: &Advance) -> Result<bool, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let changed = transaction.execute(
            &sqlite(STEP),
            params![id, step.status, step.current_round, step.rounds, step.was],
        )?;
        if changed == 0 {
            return Ok(false);
        }
        for (player, number) in &step.numbers {
            transaction.execute(&sqlite(NUMBER), params![id, player, number])?;
        }
        for round in &step.games {
            super::sqlite::insert_game(&transaction, round)?;
        }
        for board in &step.boards {
            transaction.execute(
                &sqlite(INSERT_BOARD),
                params![
                    id,
                    board.round,
                    board.board,
                    board.leg,
                    board.white,
                    board.black,
                    board.game_id
                ],
            )?;
        }
        transaction.commit()?;
        Ok(true)
    }

    fn tournaments_running(&self) -> Result<Vec<String>, StoreError> {
        let connection = self.lock();
        let mut statement = connection.prepare_cached(RUNNING)?;
        let ids = statement
            .query_map([], |row| row.get(0))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ids)
    }
}

/// Whether a tournament `id` is there, and its status, after a refused join or leave.
async fn entry_refused(client: &impl GenericClient, id: &str) -> Result<Entry, StoreError> {
    let statement = client.prepare_cached(STATUS_OF).await?;
    Ok(match client.query_opt(&statement, &[&id]).await? {
        Some(row) => Entry::Closed(row.try_get(0)?),
        None => Entry::Missing,
    })
}

impl PgStore {
    async fn tournament_create(&self, row: &TournamentRow, most: i64) -> Result<bool, StoreError> {
        let mut client = self.pool.get().await?;
        let transaction = client.transaction().await?;
        exec(&transaction, LOCK_PLAYER, &[&row.creator]).await?;
        let statement = transaction.prepare_cached(COUNT_UNFINISHED).await?;
        let unfinished: i64 = transaction
            .query_one(&statement, &[&row.creator])
            .await?
            .try_get(0)?;
        if unfinished >= most {
            return Ok(false);
        }
        exec(
            &transaction,
            INSERT_TOURNAMENT,
            &[
                &row.id,
                &row.name,
                &row.variant,
                &row.system,
                &row.rounds,
                &i64::from(row.micro),
                &row.base_ms,
                &row.increment_ms,
                &row.creator,
                &row.status,
                &row.current_round,
                &row.version,
                &row.created_ms,
                &row.seed,
            ],
        )
        .await?;
        transaction.commit().await?;
        Ok(true)
    }

    async fn tournament_enter(
        &self,
        id: &str,
        player: i64,
        now: i64,
        join: bool,
        capacity: i64,
    ) -> Result<Entry, StoreError> {
        let mut client = self.pool.get().await?;
        let transaction = client.transaction().await?;
        // The update holds the tournament's row until the commit: a start, and another
        // join (which counts the players after this one), wait for it.
        if exec(&transaction, TOUCH_OPEN, &[&id]).await? == 0 {
            return entry_refused(&transaction, id).await;
        }
        if join {
            let statement = transaction.prepare_cached(COUNT_ENTRANTS).await?;
            let row = transaction.query_one(&statement, &[&id, &player]).await?;
            let (count, already): (i64, i64) = (row.try_get(0)?, row.try_get(1)?);
            if already == 0 && count >= capacity {
                return Ok(Entry::Full);
            }
            exec(&transaction, INSERT_ENTRANT, &[&id, &player, &now]).await?;
        } else {
            exec(&transaction, DELETE_ENTRANT, &[&id, &player]).await?;
        }
        transaction.commit().await?;
        Ok(Entry::Done)
    }

    async fn tournament_list(&self, status: &str) -> Result<Vec<TournamentRow>, StoreError> {
        let client = self.pool.get().await?;
        let statement = client.prepare_cached(&list_query()).await?;
        client
            .query(&statement, &[&status, &TOURNAMENTS_LISTED])
            .await?
            .iter()
            .map(tournament_postgres)
            .collect()
    }

    async fn tournament(&self, id: &str) -> Result<Option<TournamentData>, StoreError> {
        let client = self.pool.get().await?;
        let statement = client.prepare_cached(&one_query()).await?;
        let Some(row) = client.query_opt(&statement, &[&id]).await? else {
            return Ok(None);
        };
        let tournament = tournament_postgres(&row)?;
        let statement = client.prepare_cached(ENTRANTS).await?;
        let entrants = client
            .query(&statement, &[&id])
            .await?
            .iter()
            .map(|row| {
                Ok(EntrantRow {
                    player_id: row.try_get(0)?,
                    name: row.try_get(1)?,
                    number: row.try_get(2)?,
                    joined_ms: row.try_get(3)?,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        let statement = client.prepare_cached(BOARDS).await?;
        let boards = client
            .query(&statement, &[&id])
            .await?
            .iter()
            .map(|row| {
                Ok(BoardRow {
                    round: row.try_get(0)?,
                    board: row.try_get(1)?,
                    leg: row.try_get(2)?,
                    white: row.try_get(3)?,
                    black: row.try_get(4)?,
                    game_id: row.try_get(5)?,
                    result: row.try_get(6)?,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(Some(TournamentData {
            tournament,
            entrants,
            boards,
        }))
    }

    async fn tournament_advance(&self, id: &str, step: &Advance) -> Result<bool, StoreError> {
        let mut client = self.pool.get().await?;
        let transaction = client.transaction().await?;
        // A second server computing the same step waits here for the first one's commit,
        // then finds the version moved on and writes nothing.
        let changed = exec(
            &transaction,
            STEP,
            &[
                &id,
                &step.status,
                &step.current_round,
                &step.rounds,
                &step.was,
            ],
        )
        .await?;
        if changed == 0 {
            return Ok(false);
        }
        for (player, number) in &step.numbers {
            exec(&transaction, NUMBER, &[&id, player, number]).await?;
        }
        for round in &step.games {
            super::postgres::insert_game(&transaction, round).await?;
        }
        for board in &step.boards {
            exec(
                &transaction,
                INSERT_BOARD,
                &[
                    &id,
                    &board.round,
                    &board.board,
                    &board.leg,
                    &board.white,
                    &board.black,
                    &board.game_id,
                ],
            )
            .await?;
        }
        transaction.commit().await?;
        Ok(true)
    }

    async fn tournaments_running(&self) -> Result<Vec<String>, StoreError> {
        let client = self.pool.get().await?;
        let statement = client.prepare_cached(RUNNING).await?;
        client
            .query(&statement, &[])
            .await?
            .iter()
            .map(|row| row.try_get(0).map_err(StoreError::from))
            .collect()
    }
}

/// The tournaments, whichever database holds them.
impl Database {
    /// Stores a new tournament, unless its creator already has `most` tournaments that have
    /// not finished (counted in the same transaction): says whether it was stored.
    pub async fn tournament_create(
        &self,
        row: TournamentRow,
        most: i64,
    ) -> Result<bool, StoreError> {
        on_backend!(
            self,
            |store| store.tournament_create(&row, most),
            store.tournament_create(&row, most)
        )
    }

    /// Adds account `player` to open tournament `id` (`join`) while it has fewer than
    /// `capacity` players (counted in the same transaction), or takes it out.
    pub async fn tournament_enter(
        &self,
        id: &str,
        player: i64,
        now: i64,
        join: bool,
        capacity: i64,
    ) -> Result<Entry, StoreError> {
        let id = id.to_string();
        on_backend!(
            self,
            |store| store.tournament_enter(&id, player, now, join, capacity),
            store.tournament_enter(&id, player, now, join, capacity)
        )
    }

    /// The newest tournaments of `status`, at most [`TOURNAMENTS_LISTED`].
    pub async fn tournament_list(&self, status: &str) -> Result<Vec<TournamentRow>, StoreError> {
        let status = status.to_string();
        on_backend!(
            self,
            |store| store.tournament_list(&status),
            store.tournament_list(&status)
        )
    }

    /// Tournament `id` with its players and boards.
    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentData>, StoreError> {
        let id = id.to_string();
        on_backend!(self, |store| store.tournament(&id), store.tournament(&id))
    }

    /// Stores `step` of tournament `id` with its games in one transaction, provided the
    /// tournament is still at the version the step was computed on; `false`, and nothing
    /// written, otherwise.
    pub async fn tournament_advance(&self, id: &str, step: Advance) -> Result<bool, StoreError> {
        let id = id.to_string();
        on_backend!(
            self,
            |store| store.tournament_advance(&id, &step),
            store.tournament_advance(&id, &step)
        )
    }

    /// The ids of the running tournaments.
    pub async fn tournaments_running(&self) -> Result<Vec<String>, StoreError> {
        on_backend!(
            self,
            |store| store.tournaments_running(),
            store.tournaments_running()
        )
    }
}
