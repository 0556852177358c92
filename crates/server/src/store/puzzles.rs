//! Puzzles in the store: the puzzles with their own rating (`puzzles`), each account's
//! puzzle rating per game (`puzzle_ratings`), and each account's rated attempt at a puzzle
//! (`puzzle_attempts`, one per account and puzzle: a second try changes nothing). The same
//! SQL on both databases (written with PostgreSQL's `$1` placeholders).
//!
//! An attempt changes the player's and the puzzle's ratings in one transaction, so both
//! change exactly when the attempt is stored; on PostgreSQL the puzzle's row is locked
//! first, so two attempts at once count one after the other.

use bashni_club::GameScore;
use bashni_club::rating::Rating;
use bashni_puzzles::Puzzle;
use rusqlite::{OptionalExtension, params};

use super::postgres::exec;
use super::{Database, PgStore, Store, StoreError};
use crate::rating::{Stored, rate, rating_at};

/// SQLite's step of the schema.
pub(super) const SQLITE_MIGRATION: &str = "CREATE TABLE puzzles (
        id TEXT PRIMARY KEY,
        variant TEXT NOT NULL,
        position TEXT NOT NULL,
        line TEXT NOT NULL,
        themes TEXT NOT NULL,
        score TEXT NOT NULL,
        source TEXT NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        solved INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX puzzles_by_rating ON puzzles(variant, rating);
    CREATE TABLE puzzle_ratings (
        player INTEGER NOT NULL REFERENCES players(id),
        variant TEXT NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        attempts INTEGER NOT NULL,
        updated_ms INTEGER NOT NULL,
        PRIMARY KEY (player, variant)
    ) WITHOUT ROWID;
    CREATE TABLE puzzle_attempts (
        player INTEGER NOT NULL REFERENCES players(id),
        puzzle TEXT NOT NULL REFERENCES puzzles(id),
        solved INTEGER NOT NULL,
        at_ms INTEGER NOT NULL,
        PRIMARY KEY (player, puzzle)
    ) WITHOUT ROWID;";

/// PostgreSQL's step of the schema.
pub(super) const POSTGRES_MIGRATION: &str = "CREATE TABLE puzzles (
        id TEXT PRIMARY KEY,
        variant TEXT NOT NULL,
        position TEXT NOT NULL,
        line TEXT NOT NULL,
        themes TEXT NOT NULL,
        score TEXT NOT NULL,
        source TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        attempts BIGINT NOT NULL DEFAULT 0,
        solved BIGINT NOT NULL DEFAULT 0
    );
    CREATE INDEX puzzles_by_rating ON puzzles(variant, rating);
    CREATE TABLE puzzle_ratings (
        player BIGINT NOT NULL REFERENCES players(id),
        variant TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        attempts BIGINT NOT NULL,
        updated_ms BIGINT NOT NULL,
        PRIMARY KEY (player, variant)
    );
    CREATE TABLE puzzle_attempts (
        player BIGINT NOT NULL REFERENCES players(id),
        puzzle TEXT NOT NULL REFERENCES puzzles(id),
        solved BOOLEAN NOT NULL,
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (player, puzzle)
    );";

/// How many puzzles nearest a rating a pick chooses among.
pub const PICK_AMONG: i64 = 24;

const COLUMNS: &str = "id, variant, position, line, themes, score, source, rating, deviation, \
    volatility, attempts, solved";
const INSERT: &str = "INSERT INTO puzzles (id, variant, position, line, themes, score, source, \
    rating, deviation, volatility) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
    ON CONFLICT (id) DO NOTHING";
const COUNT: &str = "SELECT COUNT(*) FROM puzzles WHERE variant = $1 AND line LIKE $2";
const PLAYER_RATING: &str = "SELECT rating, deviation, volatility, updated_ms, attempts \
    FROM puzzle_ratings WHERE player = $1 AND variant = $2";
const ATTEMPTED: &str = "SELECT 1 FROM puzzle_attempts WHERE player = $1 AND puzzle = $2";
const INSERT_ATTEMPT: &str =
    "INSERT INTO puzzle_attempts (player, puzzle, solved, at_ms) VALUES ($1, $2, $3, $4)";
const UPSERT_PLAYER: &str = "INSERT INTO puzzle_ratings \
    (player, variant, rating, deviation, volatility, attempts, updated_ms) \
    VALUES ($1, $2, $3, $4, $5, 1, $6) ON CONFLICT (player, variant) DO UPDATE SET \
    rating = $3, deviation = $4, volatility = $5, \
    attempts = puzzle_ratings.attempts + 1, updated_ms = $6";
const UPDATE_PUZZLE: &str = "UPDATE puzzles SET rating = $2, deviation = $3, volatility = $4, \
    attempts = attempts + 1, solved = solved + $5 WHERE id = $1";

fn one_sql() -> String {
    format!("SELECT {COLUMNS} FROM puzzles WHERE id = $1")
}

fn one_locked_sql() -> String {
    format!("SELECT {COLUMNS} FROM puzzles WHERE id = $1 FOR UPDATE")
}

/// The puzzles nearest a rating, of a game, with a theme (`$2` is `%` for any, else
/// `% theme %`), that account `$4` has not tried (0 for a guest).
fn near_sql() -> String {
    format!(
        "SELECT {COLUMNS} FROM puzzles WHERE variant = $1 AND (' ' || themes || ' ') LIKE $2 \
         AND id NOT IN (SELECT puzzle FROM puzzle_attempts WHERE player = $4) \
         ORDER BY ABS(rating - $3), id LIMIT $5"
    )
}

fn nth_sql() -> String {
    format!(
        "SELECT {COLUMNS} FROM puzzles WHERE variant = $1 AND line LIKE $2 \
         ORDER BY id LIMIT 1 OFFSET $3"
    )
}

/// The lines a daily puzzle is taken from, as `LIKE` patterns of the stored line (its moves
/// joined by spaces), the first that has puzzles: two moves of the solver or more (three
/// moves in the line), else any.
const DAILY_LINES: [&str; 2] = ["% % %", "%"];

/// A stored puzzle rating read from the columns of [`PLAYER_RATING`].
fn sqlite_stored(row: &rusqlite::Row<'_>) -> rusqlite::Result<(Stored, i64)> {
    Ok((
        Stored {
            rating: Rating::new(row.get(0)?, row.get(1)?, row.get(2)?),
            updated_ms: row.get(3)?,
        },
        row.get(4)?,
    ))
}

/// A stored puzzle rating read from the columns of [`PLAYER_RATING`].
fn pg_stored(row: &tokio_postgres::Row) -> Result<(Stored, i64), StoreError> {
    Ok((
        Stored {
            rating: Rating::new(row.try_get(0)?, row.try_get(1)?, row.try_get(2)?),
            updated_ms: row.try_get(3)?,
        },
        row.try_get(4)?,
    ))
}

fn sqlite(sql: &str) -> String {
    sql.replace('$', "?")
}

/// A stored puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRow {
    /// The puzzle as it was mined.
    pub puzzle: Puzzle,
    /// Its rating: how hard players found it.
    pub rating: Rating,
    /// Rated attempts at it.
    pub attempts: i64,
    /// How many of them solved it.
    pub solved: i64,
}

/// A player's puzzle rating in one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleRating {
    /// The rating.
    pub rating: Rating,
    /// Rated attempts.
    pub attempts: i64,
}

/// What an account's attempt did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttemptOutcome {
    /// Whether it counted (an account's first attempt at the puzzle).
    pub counted: bool,
    /// The player's rating before.
    pub before: Rating,
    /// The player's rating after (the same when it did not count).
    pub after: Rating,
    /// The puzzle's rating after.
    pub puzzle: Rating,
}

fn joined(words: &[String]) -> String {
    words.join(" ")
}

fn split(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// A puzzle as it starts: rated as a new player is.
fn first_rating() -> Rating {
    Rating::NEW
}

/// The player's and the puzzle's ratings after an attempt (`solved`: the player won).
pub fn rate_attempt(player: Rating, puzzle: Rating, solved: bool) -> (Rating, Rating) {
    let score = if solved {
        GameScore::WhiteWins
    } else {
        GameScore::BlackWins
    };
    rate(player, puzzle, score)
}

type Columns = (
    String,
    String,
    String,
    String,
    String,
    String,
    String,
    f64,
    f64,
    f64,
    i64,
    i64,
);

fn row_of(columns: Columns) -> Result<PuzzleRow, StoreError> {
    let (
        id,
        variant,
        position,
        line,
        themes,
        score,
        source,
        rating,
        deviation,
        volatility,
        attempts,
        solved,
    ) = columns;
    let themes = split(&themes)
        .iter()
        .filter_map(|name| bashni_puzzles::Theme::parse(name))
        .collect();
    Ok(PuzzleRow {
        puzzle: Puzzle {
            id,
            variant,
            position,
            line: split(&line),
            themes,
            score,
            source,
        },
        rating: Rating::new(rating, deviation, volatility),
        attempts,
        solved,
    })
}

fn sqlite_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Columns> {
    Ok((
        row.get(0)?,
        row.get(1)?,
        row.get(2)?,
        row.get(3)?,
        row.get(4)?,
        row.get(5)?,
        row.get(6)?,
        row.get(7)?,
        row.get(8)?,
        row.get(9)?,
        row.get(10)?,
        row.get(11)?,
    ))
}

fn pg_row(row: &tokio_postgres::Row) -> Result<Columns, StoreError> {
    Ok((
        row.try_get(0)?,
        row.try_get(1)?,
        row.try_get(2)?,
        row.try_get(3)?,
        row.try_get(4)?,
        row.try_get(5)?,
        row.try_get(6)?,
        row.try_get(7)?,
        row.try_get(8)?,
        row.try_get(9)?,
        row.try_get(10)?,
        row.try_get(11)?,
    ))
}

fn theme_pattern(theme: Option<&str>) -> String {
    match theme {
        None => "%".to_string(),
        Some(theme) => format!("% {theme} %"),
    }
}

/// Which of the nearest puzzles a pick takes: not one the caller skips, and otherwise by
/// `salt`, so that two picks at the same rating need not give the same puzzle.
fn choose(rows: Vec<PuzzleRow>, skip: &[String], salt: u64) -> Option<PuzzleRow> {
    let fresh: Vec<PuzzleRow> = rows
        .iter()
        .filter(|row| !skip.contains(&row.puzzle.id))
        .cloned()
        .collect();
    let pool = if fresh.is_empty() { rows } else { fresh };
    if pool.is_empty() {
        return None;
    }
    let index = (salt % pool.len() as u64) as usize;
    pool.into_iter().nth(index)
}

/// What a pick asks for.
#[derive(Clone, Debug)]
pub struct Pick {
    /// `bashni` or `russian`.
    pub variant: &'static str,
    /// Only puzzles with this theme.
    pub theme: Option<String>,
    /// The rating to be near.
    pub near: f64,
    /// The account picking (its tried puzzles are left out).
    pub player: Option<i64>,
    /// Puzzles to leave out if others are near (the guest's recent ones).
    pub skip: Vec<String>,
    /// Chooses among the nearest.
    pub salt: u64,
}

impl Store {
    fn add_puzzles(&self, puzzles: &[Puzzle]) -> Result<usize, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let mut added = 0;
        {
            let mut insert = transaction.prepare_cached(&sqlite(INSERT))?;
            let first = first_rating();
            for p in puzzles {
                added += insert.execute(params![
                    p.id,
                    p.variant,
                    p.position,
                    joined(&p.line),
                    joined(
                        &p.themes
                            .iter()
                            .map(|t| t.name().to_string())
                            .collect::<Vec<_>>()
                    ),
                    p.score,
                    p.source,
                    first.rating,
                    first.deviation,
                    first.volatility
                ])?;
            }
        }
        transaction.commit()?;
        Ok(added)
    }

    fn puzzle(&self, id: &str) -> Result<Option<PuzzleRow>, StoreError> {
        let connection = self.lock();
        let columns = connection
            .prepare_cached(&sqlite(&one_sql()))?
            .query_row(params![id], sqlite_row)
            .optional()?;
        columns.map(row_of).transpose()
    }

    fn pick_puzzle(&self, pick: &Pick) -> Result<Option<PuzzleRow>, StoreError> {
        let connection = self.lock();
        let rows = connection
            .prepare_cached(&sqlite(&near_sql()))?
            .query_map(
                params![
                    pick.variant,
                    theme_pattern(pick.theme.as_deref()),
                    pick.near,
                    pick.player.unwrap_or(0),
                    PICK_AMONG
                ],
                sqlite_row,
            )?
            .collect::<Result<Vec<_>, _>>()?;
        let rows = rows
            .into_iter()
            .map(row_of)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(choose(rows, &pick.skip, pick.salt))
    }

    fn nth_puzzle(&self, variant: &str, salt: u64) -> Result<Option<PuzzleRow>, StoreError> {
        let connection = self.lock();
        for lines in DAILY_LINES {
            let count: i64 = connection
                .prepare_cached(&sqlite(COUNT))?
                .query_row(params![variant, lines], |row| row.get(0))?;
            if count == 0 {
                continue;
            }
            let offset = (salt % count as u64) as i64;
            let columns = connection
                .prepare_cached(&sqlite(&nth_sql()))?
                .query_row(params![variant, lines, offset], sqlite_row)
                .optional()?;
            return columns.map(row_of).transpose();
        }
        Ok(None)
    }

    fn puzzle_rating(
        &self,
        player: i64,
        variant: &str,
    ) -> Result<Option<(Stored, i64)>, StoreError> {
        let connection = self.lock();
        Ok(connection
            .prepare_cached(&sqlite(PLAYER_RATING))?
            .query_row(params![player, variant], sqlite_stored)
            .optional()?)
    }

    fn attempt_puzzle(
        &self,
        player: i64,
        id: &str,
        solved: bool,
        now: i64,
    ) -> Result<Option<AttemptOutcome>, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let Some(columns) = transaction
            .prepare_cached(&sqlite(&one_sql()))?
            .query_row(params![id], sqlite_row)
            .optional()?
        else {
            return Ok(None);
        };
        let puzzle = row_of(columns)?;
        let variant = puzzle.puzzle.variant.clone();
        let stored = transaction
            .prepare_cached(&sqlite(PLAYER_RATING))?
            .query_row(params![player, variant], sqlite_stored)
            .optional()?
            .map(|(stored, _)| stored);
        let before = rating_at(stored, now);
        let tried = transaction
            .prepare_cached(&sqlite(ATTEMPTED))?
            .query_row(params![player, id], |_| Ok(()))
            .optional()?;
        if tried.is_some() {
            return Ok(Some(AttemptOutcome {
                counted: false,
                before,
                after: before,
                puzzle: puzzle.rating,
            }));
        }
        let (after, puzzle_after) = rate_attempt(before, puzzle.rating, solved);
        transaction
            .prepare_cached(&sqlite(INSERT_ATTEMPT))?
            .execute(params![player, id, solved, now])?;
        transaction
            .prepare_cached(&sqlite(UPSERT_PLAYER))?
            .execute(params![
                player,
                variant,
                after.rating,
                after.deviation,
                after.volatility,
                now
            ])?;
        transaction
            .prepare_cached(&sqlite(UPDATE_PUZZLE))?
            .execute(params![
                id,
                puzzle_after.rating,
                puzzle_after.deviation,
                puzzle_after.volatility,
                i64::from(solved)
            ])?;
        transaction.commit()?;
        Ok(Some(AttemptOutcome {
            counted: true,
            before,
            after,
            puzzle: puzzle_after,
        }))
    }
}

impl PgStore {
    async fn add_puzzles(&self, puzzles: &[Puzzle]) -> Result<usize, StoreError> {
        let mut client = self.pool.get().await?;
        let transaction = client.transaction().await?;
        let first = first_rating();
        let mut added = 0;
        for p in puzzles {
            let themes = joined(
                &p.themes
                    .iter()
                    .map(|t| t.name().to_string())
                    .collect::<Vec<_>>(),
            );
            added += exec(
                &transaction,
                INSERT,
                &[
                    &p.id,
                    &p.variant,
                    &p.position,
                    &joined(&p.line),
                    &themes,
                    &p.score,
                    &p.source,
                    &first.rating,
                    &first.deviation,
                    &first.volatility,
                ],
            )
            .await?;
        }
        transaction.commit().await?;
        Ok(added as usize)
    }

    async fn puzzle(&self, id: &str) -> Result<Option<PuzzleRow>, StoreError> {
        let client = self.pool.get().await?;
        let statement = client.prepare_cached(&one_sql()).await?;
        match client.query_opt(&statement, &[&id]).await? {
            Some(row) => Ok(Some(row_of(pg_row(&row)?)?)),
            None => Ok(None),
        }
    }

    async fn pick_puzzle(&self, pick: &Pick) -> Result<Option<PuzzleRow>, StoreError> {
        let client = self.pool.get().await?;
        let statement = client.prepare_cached(&near_sql()).await?;
        let pattern = theme_pattern(pick.theme.as_deref());
        let player = pick.player.unwrap_or(0);
        let mut rows = Vec::new();
        for row in client
            .query(
                &statement,
                &[&pick.variant, &pattern, &pick.near, &player, &PICK_AMONG],
            )
            .await?
        {
            rows.push(row_of(pg_row(&row)?)?);
        }
        Ok(choose(rows, &pick.skip, pick.salt))
    }

    async fn nth_puzzle(&self, variant: &str, salt: u64) -> Result<Option<PuzzleRow>, StoreError> {
        let client = self.pool.get().await?;
        for lines in DAILY_LINES {
            let statement = client.prepare_cached(COUNT).await?;
            let count: i64 = client
                .query_one(&statement, &[&variant, &lines])
                .await?
                .try_get(0)?;
            if count == 0 {
                continue;
            }
            let offset = (salt % count as u64) as i64;
            let statement = client.prepare_cached(&nth_sql()).await?;
            return match client
                .query_opt(&statement, &[&variant, &lines, &offset])
                .await?
            {
                Some(row) => Ok(Some(row_of(pg_row(&row)?)?)),
                None => Ok(None),
            };
        }
        Ok(None)
    }

    async fn puzzle_rating(
        &self,
        player: i64,
        variant: &str,
    ) -> Result<Option<(Stored, i64)>, StoreError> {
        let client = self.pool.get().await?;
        let statement = client.prepare_cached(PLAYER_RATING).await?;
        match client.query_opt(&statement, &[&player, &variant]).await? {
            Some(row) => Ok(Some(pg_stored(&row)?)),
            None => Ok(None),
        }
    }

    async fn attempt_puzzle(
        &self,
        player: i64,
        id: &str,
        solved: bool,
        now: i64,
    ) -> Result<Option<AttemptOutcome>, StoreError> {
        let mut client = self.pool.get().await?;
        let transaction = client.transaction().await?;
        let statement = transaction.prepare_cached(&one_locked_sql()).await?;
        let Some(row) = transaction.query_opt(&statement, &[&id]).await? else {
            return Ok(None);
        };
        let puzzle = row_of(pg_row(&row)?)?;
        let variant = puzzle.puzzle.variant.clone();
        let statement = transaction.prepare_cached(PLAYER_RATING).await?;
        let stored = match transaction
            .query_opt(&statement, &[&player, &variant])
            .await?
        {
            Some(row) => Some(pg_stored(&row)?.0),
            None => None,
        };
        let before = rating_at(stored, now);
        let statement = transaction.prepare_cached(ATTEMPTED).await?;
        if transaction
            .query_opt(&statement, &[&player, &id])
            .await?
            .is_some()
        {
            return Ok(Some(AttemptOutcome {
                counted: false,
                before,
                after: before,
                puzzle: puzzle.rating,
            }));
        }
        let (after, puzzle_after) = rate_attempt(before, puzzle.rating, solved);
        exec(&transaction, INSERT_ATTEMPT, &[&player, &id, &solved, &now]).await?;
        exec(
            &transaction,
            UPSERT_PLAYER,
            &[
                &player,
                &variant,
                &after.rating,
                &after.deviation,
                &after.volatility,
                &now,
            ],
        )
        .await?;
        exec(
            &transaction,
            UPDATE_PUZZLE,
            &[
                &id,
                &puzzle_after.rating,
                &puzzle_after.deviation,
                &puzzle_after.volatility,
                &i64::from(solved),
            ],
        )
        .await?;
        transaction.commit().await?;
        Ok(Some(AttemptOutcome {
            counted: true,
            before,
            after,
            puzzle: puzzle_after,
        }))
    }
}

/// Puzzles, whichever database holds them.
impl Database {
    /// Adds puzzles not stored yet (a puzzle whose id is stored is left as it is); returns
    /// how many were added.
    pub async fn add_puzzles(&self, puzzles: Vec<Puzzle>) -> Result<usize, StoreError> {
        on_backend!(
            self,
            |store| store.add_puzzles(&puzzles),
            store.add_puzzles(&puzzles)
        )
    }

    /// The puzzle `id`.
    pub async fn puzzle(&self, id: &str) -> Result<Option<PuzzleRow>, StoreError> {
        let id = id.to_string();
        on_backend!(self, |store| store.puzzle(&id), store.puzzle(&id))
    }

    /// A puzzle as `pick` asks: of its game and theme, among the [`PICK_AMONG`] nearest
    /// its rating that the account has not tried.
    pub async fn pick_puzzle(&self, pick: Pick) -> Result<Option<PuzzleRow>, StoreError> {
        on_backend!(
            self,
            |store| store.pick_puzzle(&pick),
            store.pick_puzzle(&pick)
        )
    }

    /// The puzzle of `variant` at place `salt` modulo their number, in the order of ids,
    /// among those with two moves of the solver or more when there are any (the daily
    /// puzzle takes the day for `salt`).
    pub async fn nth_puzzle(
        &self,
        variant: &'static str,
        salt: u64,
    ) -> Result<Option<PuzzleRow>, StoreError> {
        on_backend!(
            self,
            |store| store.nth_puzzle(variant, salt),
            store.nth_puzzle(variant, salt)
        )
    }

    /// Account `player`'s stored puzzle rating in `variant` and its rated attempts.
    pub async fn puzzle_rating(
        &self,
        player: i64,
        variant: &'static str,
    ) -> Result<Option<(Stored, i64)>, StoreError> {
        on_backend!(
            self,
            |store| store.puzzle_rating(player, variant),
            store.puzzle_rating(player, variant)
        )
    }

    /// Stores account `player`'s attempt at puzzle `id` and changes both ratings, in one
    /// transaction, unless the account tried it before (then nothing changes). `None`:
    /// no such puzzle.
    pub async fn attempt_puzzle(
        &self,
        player: i64,
        id: &str,
        solved: bool,
        now: i64,
    ) -> Result<Option<AttemptOutcome>, StoreError> {
        let id = id.to_string();
        on_backend!(
            self,
            |store| store.attempt_puzzle(player, &id, solved, now),
            store.attempt_puzzle(player, &id, solved, now)
        )
    }
}
