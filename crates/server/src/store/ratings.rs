//! Ratings in the store: whether a game was asked for as rated and the addresses its seats
//! were taken from (columns of `games`), each player's rating per variant and pace
//! (`ratings`), and every rated game's change of both ratings (`rating_changes`). The same
//! SQL on both databases (written with PostgreSQL's `$1` placeholders).
//!
//! A rated game's end changes the ratings in the transaction that stores the end, so the
//! ratings change exactly when the game's end is stored. The change is written first into
//! `rating_changes`, whose key is (game, player): a second attempt for the same game finds
//! its row there and changes nothing. On PostgreSQL the two rating rows are locked (in the
//! order of the players' ids, so two games locking the same rows cannot wait on each other)
//! before they are read, so two games of one player ending at once on two servers both
//! count, one after the other.

use deadpool_postgres::GenericClient;
use rusqlite::{Connection, OptionalExtension, params};

use super::postgres::exec;
use super::{Database, PgStore, Store, StoreError};
use crate::game::rated::{RatedEnd, rated_end};
use crate::game::round::Round;
use crate::rating::{GameRating, SideChange, Stored, rate, rating_at};
use bashni_club::rating::{PROVISIONAL_DEVIATION, Rating};

/// SQLite's step of the schema.
pub(super) const SQLITE_MIGRATION: &str =
    "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN white_address TEXT;
    ALTER TABLE games ADD COLUMN black_address TEXT;
    CREATE TABLE ratings (
        player INTEGER NOT NULL REFERENCES players(id),
        variant TEXT NOT NULL,
        pace TEXT NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL,
        updated_ms INTEGER NOT NULL,
        PRIMARY KEY (player, variant, pace)
    ) WITHOUT ROWID;
    CREATE INDEX ratings_board ON ratings(variant, pace, rating);
    CREATE TABLE rating_changes (
        game_id TEXT NOT NULL REFERENCES games(id),
        player INTEGER NOT NULL REFERENCES players(id),
        variant TEXT NOT NULL,
        pace TEXT NOT NULL,
        before_rating REAL NOT NULL,
        before_deviation REAL NOT NULL,
        after_rating REAL NOT NULL,
        after_deviation REAL NOT NULL,
        at_ms INTEGER NOT NULL,
        PRIMARY KEY (game_id, player)
    ) WITHOUT ROWID;
    CREATE INDEX rating_changes_by_player ON rating_changes(player, at_ms);";

/// PostgreSQL's step of the schema.
pub(super) const POSTGRES_MIGRATION: &str =
    "ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
    ALTER TABLE games ADD COLUMN white_address TEXT;
    ALTER TABLE games ADD COLUMN black_address TEXT;
    CREATE TABLE ratings (
        player BIGINT NOT NULL REFERENCES players(id),
        variant TEXT NOT NULL,
        pace TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        games BIGINT NOT NULL,
        updated_ms BIGINT NOT NULL,
        PRIMARY KEY (player, variant, pace)
    );
    CREATE INDEX ratings_board ON ratings(variant, pace, rating);
    CREATE TABLE rating_changes (
        game_id TEXT NOT NULL REFERENCES games(id),
        player BIGINT NOT NULL REFERENCES players(id),
        variant TEXT NOT NULL,
        pace TEXT NOT NULL,
        before_rating DOUBLE PRECISION NOT NULL,
        before_deviation DOUBLE PRECISION NOT NULL,
        after_rating DOUBLE PRECISION NOT NULL,
        after_deviation DOUBLE PRECISION NOT NULL,
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (game_id, player)
    );
    CREATE INDEX rating_changes_by_player ON rating_changes(player, at_ms);";

/// The most rating changes a player's history shows (the latest).
pub const HISTORY_LIMIT: i64 = 1000;

/// The most players a leaderboard lists.
pub const LEADERBOARD_LIMIT: i64 = 50;

const WRITE_RATED: &str =
    "UPDATE games SET rated = $2, white_address = $3, black_address = $4 WHERE id = $1";
const READ_RATED: &str = "SELECT rated, white_address, black_address FROM games WHERE id = $1";
const READ_CHANGES: &str = "SELECT player, before_rating, before_deviation, after_rating, \
    after_deviation FROM rating_changes WHERE game_id = $1";
const APPLIED: &str = "SELECT 1 FROM rating_changes WHERE game_id = $1 LIMIT 1";
const ENSURE_RATING: &str = "INSERT INTO ratings \
    (player, variant, pace, rating, deviation, volatility, games, updated_ms) \
    VALUES ($1, $2, $3, $4, $5, $6, 0, $7) ON CONFLICT (player, variant, pace) DO NOTHING";
const READ_TWO: &str = "SELECT player, rating, deviation, volatility, updated_ms, games \
    FROM ratings WHERE variant = $1 AND pace = $2 AND player IN ($3, $4) ORDER BY player";
const INSERT_CHANGE: &str = "INSERT INTO rating_changes (game_id, player, variant, pace, \
    before_rating, before_deviation, after_rating, after_deviation, at_ms) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (game_id, player) DO NOTHING";
const UPDATE_RATING: &str = "UPDATE ratings SET rating = $4, deviation = $5, volatility = $6, \
    games = games + 1, updated_ms = $7 WHERE player = $1 AND variant = $2 AND pace = $3";
const PLAYER_RATINGS: &str = "SELECT variant, pace, rating, deviation, volatility, games, \
    updated_ms FROM ratings WHERE player = $1 AND games > 0 ORDER BY variant, pace";
const HISTORY: &str = "SELECT variant, pace, at_ms, after_rating, game_id FROM rating_changes \
    WHERE player = $1 ORDER BY at_ms DESC, game_id DESC LIMIT $2";

/// The leaderboard: established players first (highest rating first), then provisional ones.
fn leaderboard_sql() -> String {
    format!(
        "SELECT p.name, r.rating, r.deviation, r.games FROM ratings r \
         JOIN players p ON p.id = r.player \
         WHERE r.variant = $1 AND r.pace = $2 AND r.games > 0 AND p.deleted_ms IS NULL \
         ORDER BY CASE WHEN r.deviation >= {PROVISIONAL_DEVIATION} THEN 1 ELSE 0 END, \
         r.rating DESC, p.id LIMIT $3"
    )
}

fn sqlite(sql: &str) -> String {
    sql.replace('$', "?")
}

/// A player's rating in one variant and pace.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// `bashni` or `russian`.
    pub variant: String,
    /// The pace's name.
    pub pace: String,
    /// The rating as stored.
    pub rating: Rating,
    /// Rated games played.
    pub games: i64,
    /// When it last changed (ms since 1970).
    pub updated_ms: i64,
}

/// A player's rating after one rated game.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryPoint {
    /// `bashni` or `russian`.
    pub variant: String,
    /// The pace's name.
    pub pace: String,
    /// When the game ended (ms since 1970).
    pub at_ms: i64,
    /// The rating after it.
    pub rating: f64,
    /// The game's id.
    pub game: String,
}

/// A place on a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaderRow {
    /// The account's name.
    pub name: String,
    /// Its rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Rated games played.
    pub games: i64,
}

/// What is stored about a game's rating besides its seats' accounts.
#[derive(Clone, Debug, Default)]
pub(super) struct RatedColumns {
    rated: bool,
    white_address: Option<String>,
    black_address: Option<String>,
    changes: Vec<SideChange>,
}

impl RatedColumns {
    /// `round` with these columns and its rating changes.
    pub(super) fn apply(self, mut round: Round) -> Round {
        round.rated = self.rated;
        round.white_address = self.white_address;
        round.black_address = self.black_address;
        round.rating = game_rating(&round, &self.changes);
        round
    }
}

/// Both sides' changes of `round` from its stored rows.
fn game_rating(round: &Round, changes: &[SideChange]) -> Option<GameRating> {
    let side = |account: Option<i64>| {
        let account = account?;
        changes
            .iter()
            .find(|change| change.player == account)
            .copied()
    };
    Some(GameRating {
        white: side(round.white_account)?,
        black: side(round.black_account)?,
    })
}

fn nothing_to_write(round: &Round) -> bool {
    !round.rated && round.white_address.is_none() && round.black_address.is_none()
}

/// The two players' new ratings: from the stored rows (`None`: a new player), in the order
/// white, black.
fn changes_of(
    end: &RatedEnd,
    white: Option<Stored>,
    black: Option<Stored>,
    now: i64,
) -> (SideChange, SideChange, Rating, Rating) {
    let white_before = rating_at(white, now);
    let black_before = rating_at(black, now);
    let (white_after, black_after) = rate(white_before, black_before, end.score);
    let change = |player, before: Rating, after: Rating| SideChange {
        player,
        before: before.rating,
        before_deviation: before.deviation,
        after: after.rating,
        after_deviation: after.deviation,
    };
    (
        change(end.white, white_before, white_after),
        change(end.black, black_before, black_after),
        white_after,
        black_after,
    )
}

/// Writes whether `round` is rated and its seats' addresses, in the transaction storing it.
pub(super) fn write_rated_sqlite(connection: &Connection, round: &Round) -> Result<(), StoreError> {
    if nothing_to_write(round) {
        return Ok(());
    }
    connection
        .prepare_cached(&sqlite(WRITE_RATED))?
        .execute(params![
            round.id,
            round.rated,
            round.white_address,
            round.black_address
        ])?;
    Ok(())
}

/// Reads what [`write_rated_sqlite`] wrote, and the game's rating changes.
pub(super) fn read_rated_sqlite(
    connection: &Connection,
    id: &str,
) -> Result<RatedColumns, StoreError> {
    let columns = connection
        .prepare_cached(&sqlite(READ_RATED))?
        .query_row(params![id], |row| {
            Ok(RatedColumns {
                rated: row.get(0)?,
                white_address: row.get(1)?,
                black_address: row.get(2)?,
                changes: Vec::new(),
            })
        })
        .optional()?
        .unwrap_or_default();
    if !columns.rated {
        return Ok(columns);
    }
    let changes = connection
        .prepare_cached(&sqlite(READ_CHANGES))?
        .query_map(params![id], |row| {
            Ok(SideChange {
                player: row.get(0)?,
                before: row.get(1)?,
                before_deviation: row.get(2)?,
                after: row.get(3)?,
                after_deviation: row.get(4)?,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(RatedColumns { changes, ..columns })
}

/// Changes both players' ratings when `round` is a rated game that has ended, unless its
/// change is stored already; in the transaction storing the game's end. Returns the change
/// made.
pub(super) fn apply_sqlite(
    connection: &Connection,
    round: &Round,
) -> Result<Option<GameRating>, StoreError> {
    let Some(end) = rated_end(round) else {
        return Ok(None);
    };
    let applied = connection
        .prepare_cached(&sqlite(APPLIED))?
        .query_row(params![round.id], |_| Ok(()))
        .optional()?;
    if applied.is_some() {
        return Ok(None);
    }
    let at = round.updated_ms;
    let stored = connection
        .prepare_cached(&sqlite(READ_TWO))?
        .query_map(
            params![end.variant, end.pace, end.white, end.black],
            |row| {
                Ok((
                    row.get::<_, i64>(0)?,
                    Stored {
                        rating: Rating::new(row.get(1)?, row.get(2)?, row.get(3)?),
                        updated_ms: row.get(4)?,
                    },
                ))
            },
        )?
        .collect::<Result<Vec<_>, _>>()?;
    let find = |player| stored.iter().find(|(p, _)| *p == player).map(|(_, s)| *s);
    let (white, black, white_after, black_after) =
        changes_of(&end, find(end.white), find(end.black), at);
    for (change, after) in [(white, white_after), (black, black_after)] {
        let new = Rating::NEW;
        connection
            .prepare_cached(&sqlite(ENSURE_RATING))?
            .execute(params![
                change.player,
                end.variant,
                end.pace,
                new.rating,
                new.deviation,
                new.volatility,
                at
            ])?;
        let inserted = connection
            .prepare_cached(&sqlite(INSERT_CHANGE))?
            .execute(params![
                round.id,
                change.player,
                end.variant,
                end.pace,
                change.before,
                change.before_deviation,
                change.after,
                change.after_deviation,
                at
            ])?;
        if inserted == 0 {
            return Ok(None);
        }
        connection
            .prepare_cached(&sqlite(UPDATE_RATING))?
            .execute(params![
                change.player,
                end.variant,
                end.pace,
                after.rating,
                after.deviation,
                after.volatility,
                at
            ])?;
    }
    Ok(Some(GameRating { white, black }))
}

/// Writes whether `round` is rated and its seats' addresses (see [`write_rated_sqlite`]).
pub(super) async fn write_rated_postgres(
    client: &impl GenericClient,
    round: &Round,
) -> Result<(), StoreError> {
    if nothing_to_write(round) {
        return Ok(());
    }
    exec(
        client,
        WRITE_RATED,
        &[
            &round.id,
            &round.rated,
            &round.white_address,
            &round.black_address,
        ],
    )
    .await?;
    Ok(())
}

/// Reads what [`write_rated_postgres`] wrote, and the game's rating changes.
pub(super) async fn read_rated_postgres(
    client: &impl GenericClient,
    id: &str,
) -> Result<RatedColumns, StoreError> {
    let statement = client.prepare_cached(READ_RATED).await?;
    let columns = match client.query_opt(&statement, &[&id]).await? {
        Some(row) => RatedColumns {
            rated: row.try_get(0)?,
            white_address: row.try_get(1)?,
            black_address: row.try_get(2)?,
            changes: Vec::new(),
        },
        None => RatedColumns::default(),
    };
    if !columns.rated {
        return Ok(columns);
    }
    let statement = client.prepare_cached(READ_CHANGES).await?;
    let mut changes = Vec::new();
    for row in client.query(&statement, &[&id]).await? {
        changes.push(SideChange {
            player: row.try_get(0)?,
            before: row.try_get(1)?,
            before_deviation: row.try_get(2)?,
            after: row.try_get(3)?,
            after_deviation: row.try_get(4)?,
        });
    }
    Ok(RatedColumns { changes, ..columns })
}

/// Changes both players' ratings when `round` is a rated game that has ended (see
/// [`apply_sqlite`]); the two rating rows are locked first, in the order of the players' ids.
pub(super) async fn apply_postgres(
    client: &impl GenericClient,
    round: &Round,
) -> Result<Option<GameRating>, StoreError> {
    let Some(end) = rated_end(round) else {
        return Ok(None);
    };
    let statement = client.prepare_cached(APPLIED).await?;
    if client.query_opt(&statement, &[&round.id]).await?.is_some() {
        return Ok(None);
    }
    let at = round.updated_ms;
    let new = Rating::NEW;
    let mut players = [end.white, end.black];
    players.sort_unstable();
    // A new player's row is made first, so that there is a row to lock.
    for player in players {
        exec(
            client,
            ENSURE_RATING,
            &[
                &player,
                &end.variant,
                &end.pace,
                &new.rating,
                &new.deviation,
                &new.volatility,
                &at,
            ],
        )
        .await?;
    }
    let statement = client
        .prepare_cached(&format!("{READ_TWO} FOR UPDATE"))
        .await?;
    let mut stored = Vec::new();
    for row in client
        .query(
            &statement,
            &[&end.variant, &end.pace, &end.white, &end.black],
        )
        .await?
    {
        let games: i64 = row.try_get(5)?;
        // A row made for this game (no games yet) is a new player's rating.
        let rating = (games > 0)
            .then(|| -> Result<Stored, tokio_postgres::Error> {
                Ok(Stored {
                    rating: Rating::new(row.try_get(1)?, row.try_get(2)?, row.try_get(3)?),
                    updated_ms: row.try_get(4)?,
                })
            })
            .transpose()?;
        stored.push((row.try_get::<_, i64>(0)?, rating));
    }
    let find = |player| {
        stored
            .iter()
            .find(|(p, _)| *p == player)
            .and_then(|(_, s)| *s)
    };
    let (white, black, white_after, black_after) =
        changes_of(&end, find(end.white), find(end.black), at);
    for (change, after) in [(white, white_after), (black, black_after)] {
        let inserted = exec(
            client,
            INSERT_CHANGE,
            &[
                &round.id,
                &change.player,
                &end.variant,
                &end.pace,
                &change.before,
                &change.before_deviation,
                &change.after,
                &change.after_deviation,
                &at,
            ],
        )
        .await?;
        if inserted == 0 {
            return Ok(None);
        }
        exec(
            client,
            UPDATE_RATING,
            &[
                &change.player,
                &end.variant,
                &end.pace,
                &after.rating,
                &after.deviation,
                &after.volatility,
                &at,
            ],
        )
        .await?;
    }
    Ok(Some(GameRating { white, black }))
}

fn rating_row(
    variant: String,
    pace: String,
    values: (f64, f64, f64),
    games: i64,
    updated_ms: i64,
) -> RatingRow {
    RatingRow {
        variant,
        pace,
        rating: Rating::new(values.0, values.1, values.2),
        games,
        updated_ms,
    }
}

impl Store {
    fn player_ratings(&self, player: i64) -> Result<Vec<RatingRow>, StoreError> {
        let connection = self.lock();
        let rows = connection
            .prepare_cached(&sqlite(PLAYER_RATINGS))?
            .query_map(params![player], |row| {
                Ok(rating_row(
                    row.get(0)?,
                    row.get(1)?,
                    (row.get(2)?, row.get(3)?, row.get(4)?),
                    row.get(5)?,
                    row.get(6)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    fn rating_history(&self, player: i64) -> Result<Vec<HistoryPoint>, StoreError> {
        let connection = self.lock();
        let mut points = connection
            .prepare_cached(&sqlite(HISTORY))?
            .query_map(params![player, HISTORY_LIMIT], |row| {
                Ok(HistoryPoint {
                    variant: row.get(0)?,
                    pace: row.get(1)?,
                    at_ms: row.get(2)?,
                    rating: row.get(3)?,
                    game: row.get(4)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        points.reverse();
        Ok(points)
    }

    fn leaderboard(&self, variant: &str, pace: &str) -> Result<Vec<LeaderRow>, StoreError> {
        let connection = self.lock();
        let rows = connection
            .prepare_cached(&sqlite(&leaderboard_sql()))?
            .query_map(params![variant, pace, LEADERBOARD_LIMIT], |row| {
                Ok(LeaderRow {
                    name: row.get(0)?,
                    rating: row.get(1)?,
                    deviation: row.get(2)?,
                    games: row.get(3)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }
}

impl PgStore {
    async fn player_ratings(&self, player: i64) -> Result<Vec<RatingRow>, StoreError> {
        let client = self.pool.get().await?;
        let statement = client.prepare_cached(PLAYER_RATINGS).await?;
        let mut rows = Vec::new();
        for row in client.query(&statement, &[&player]).await? {
            rows.push(rating_row(
                row.try_get(0)?,
                row.try_get(1)?,
                (row.try_get(2)?, row.try_get(3)?, row.try_get(4)?),
                row.try_get(5)?,
                row.try_get(6)?,
            ));
        }
        Ok(rows)
    }

    async fn rating_history(&self, player: i64) -> Result<Vec<HistoryPoint>, StoreError> {
        let client = self.pool.get().await?;
        let statement = client.prepare_cached(HISTORY).await?;
        let mut points = Vec::new();
        for row in client.query(&statement, &[&player, &HISTORY_LIMIT]).await? {
            points.push(HistoryPoint {
                variant: row.try_get(0)?,
                pace: row.try_get(1)?,
                at_ms: row.try_get(2)?,
                rating: row.try_get(3)?,
                game: row.try_get(4)?,
            });
        }
        points.reverse();
        Ok(points)
    }

    async fn leaderboard(&self, variant: &str, pace: &str) -> Result<Vec<LeaderRow>, StoreError> {
        let client = self.pool.get().await?;
        let statement = client.prepare_cached(&leaderboard_sql()).await?;
        let mut rows = Vec::new();
        for row in client
            .query(&statement, &[&variant, &pace, &LEADERBOARD_LIMIT])
            .await?
        {
            rows.push(LeaderRow {
                name: row.try_get(0)?,
                rating: row.try_get(1)?,
                deviation: row.try_get(2)?,
                games: row.try_get(3)?,
            });
        }
        Ok(rows)
    }
}

/// Ratings, whichever database holds them.
impl Database {
    /// The ratings of account `player` (only those with rated games).
    pub async fn player_ratings(&self, player: i64) -> Result<Vec<RatingRow>, StoreError> {
        on_backend!(
            self,
            |store| store.player_ratings(player),
            store.player_ratings(player)
        )
    }

    /// Account `player`'s rating after each of its rated games (the latest
    /// [`HISTORY_LIMIT`]), oldest first.
    pub async fn rating_history(&self, player: i64) -> Result<Vec<HistoryPoint>, StoreError> {
        on_backend!(
            self,
            |store| store.rating_history(player),
            store.rating_history(player)
        )
    }

    /// The best [`LEADERBOARD_LIMIT`] players of a variant and pace (accounts not deleted,
    /// with a rated game): established ratings first, then provisional ones, each by rating.
    pub async fn leaderboard(
        &self,
        variant: &'static str,
        pace: &'static str,
    ) -> Result<Vec<LeaderRow>, StoreError> {
        on_backend!(
            self,
            |store| store.leaderboard(variant, pace),
            store.leaderboard(variant, pace)
        )
    }
}
