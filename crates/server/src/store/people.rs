//! The people in a game, on both databases: the lines of its chat, the players who muted
//! their opponent, and (with PostgreSQL, for several servers) which server has sockets bound
//! to which seat. A chat line is stored before anyone is shown it; with PostgreSQL every
//! stored line, mute and change of presence is announced on [`PEOPLE_CHANNEL`].

use rusqlite::params;

use super::database::Backend;
use super::postgres::exec;
use super::{Database, StoreError};

/// The channel chat lines, mutes and changes of presence are announced on (PostgreSQL).
pub const PEOPLE_CHANNEL: &str = "bashni_people";

/// How many lines each room of a game keeps; older ones are deleted as new ones come.
pub const CHAT_LINES_KEPT: u64 = 200;

/// A line of a game's chat, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLine {
    /// The room: `players` or `watchers`.
    pub room: String,
    /// Its number in the room, from 1 up.
    pub seq: u64,
    /// Who wrote it: `white`, `black` or `watcher`.
    pub author: String,
    /// The name shown with it.
    pub name: String,
    /// The text, as typed (checked, trimmed).
    pub text: String,
    /// When it was written (ms since 1970).
    pub at_ms: i64,
    /// Whether the writer is an account (a player whose seat is an account's, or a
    /// logged-in watcher, whose name is the account's); a guest's line is not.
    pub account: bool,
}

/// What another server reports about one seat of a game (PostgreSQL).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatSeen {
    /// The game.
    pub game: String,
    /// `white` or `black`.
    pub side: String,
    /// Whether some other server has a socket bound to the seat (and said so lately).
    pub online: bool,
    /// When another server last saw a socket of this seat (ms since 1970).
    pub seen_ms: i64,
}

fn seq_of(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}

fn sql_seq(seq: u64) -> i64 {
    i64::try_from(seq).unwrap_or(i64::MAX)
}

impl super::Store {
    fn add_chat(&self, game: &str, line: &ChatLine) -> Result<u64, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let seq: i64 = transaction.query_row(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM chat WHERE game_id = ?1 AND room = ?2",
            params![game, line.room],
            |row| row.get(0),
        )?;
        transaction.execute(
            "INSERT INTO chat (game_id, room, seq, author, name, text, at_ms, account) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                game,
                line.room,
                seq,
                line.author,
                line.name,
                line.text,
                line.at_ms,
                line.account
            ],
        )?;
        transaction.execute(
            "DELETE FROM chat WHERE game_id = ?1 AND room = ?2 AND seq <= ?3",
            params![game, line.room, seq - CHAT_LINES_KEPT as i64],
        )?;
        transaction.commit()?;
        Ok(seq_of(seq))
    }

    fn chat_lines(
        &self,
        game: &str,
        room: &str,
        after: u64,
        limit: u64,
    ) -> Result<Vec<ChatLine>, StoreError> {
        let connection = self.lock();
        let mut statement = connection.prepare_cached(
            "SELECT seq, author, name, text, at_ms, account FROM chat \
             WHERE game_id = ?1 AND room = ?2 AND seq > ?3 ORDER BY seq DESC LIMIT ?4",
        )?;
        let mut lines = statement
            .query_map(params![game, room, sql_seq(after), sql_seq(limit)], |row| {
                Ok(ChatLine {
                    room: room.to_string(),
                    seq: seq_of(row.get(0)?),
                    author: row.get(1)?,
                    name: row.get(2)?,
                    text: row.get(3)?,
                    at_ms: row.get(4)?,
                    account: row.get(5)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        lines.reverse();
        Ok(lines)
    }

    fn set_mute(&self, game: &str, side: &str, muted: bool) -> Result<(), StoreError> {
        let connection = self.lock();
        if muted {
            connection.execute(
                "INSERT OR IGNORE INTO chat_mutes (game_id, side) VALUES (?1, ?2)",
                params![game, side],
            )?;
        } else {
            connection.execute(
                "DELETE FROM chat_mutes WHERE game_id = ?1 AND side = ?2",
                params![game, side],
            )?;
        }
        Ok(())
    }

    fn mutes(&self, game: &str) -> Result<Vec<String>, StoreError> {
        let connection = self.lock();
        let mut statement =
            connection.prepare_cached("SELECT side FROM chat_mutes WHERE game_id = ?1")?;
        let sides = statement
            .query_map(params![game], |row| row.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(sides)
    }
}

async fn notify_people(
    client: &impl deadpool_postgres::GenericClient,
    payload: &str,
) -> Result<(), StoreError> {
    exec(
        client,
        "SELECT pg_notify($1, $2)",
        &[&PEOPLE_CHANNEL, &payload],
    )
    .await
    .map(|_| ())
}

impl super::PgStore {
    async fn add_chat(&self, game: &str, line: &ChatLine) -> Result<u64, StoreError> {
        let mut client = self.pool.get().await?;
        let transaction = client.transaction().await?;
        // One line at a time per room, whichever server writes it: each takes the next number.
        let key = format!("chat {game} {}", line.room);
        exec(
            &transaction,
            "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
            &[&key],
        )
        .await?;
        let statement = transaction
            .prepare_cached(
                "INSERT INTO chat (game_id, room, seq, author, name, text, at_ms, account) \
                 SELECT $1::text, $2::text, COALESCE(MAX(seq), 0) + 1, $3::text, $4::text, $5::text, \
                 $6::bigint, $7::boolean FROM chat \
                 WHERE game_id = $1 AND room = $2 RETURNING seq",
            )
            .await?;
        let row = transaction
            .query_one(
                &statement,
                &[
                    &game,
                    &line.room,
                    &line.author,
                    &line.name,
                    &line.text,
                    &line.at_ms,
                    &line.account,
                ],
            )
            .await?;
        let seq: i64 = row.try_get(0)?;
        exec(
            &transaction,
            "DELETE FROM chat WHERE game_id = $1 AND room = $2 AND seq <= $3",
            &[&game, &line.room, &(seq - CHAT_LINES_KEPT as i64)],
        )
        .await?;
        notify_people(&transaction, &format!("chat {game} {} {seq}", line.room)).await?;
        transaction.commit().await?;
        Ok(seq_of(seq))
    }

    async fn chat_lines(
        &self,
        game: &str,
        room: &str,
        after: u64,
        limit: u64,
    ) -> Result<Vec<ChatLine>, StoreError> {
        let client = self.pool.get().await?;
        let statement = client
            .prepare_cached(
                "SELECT seq, author, name, text, at_ms, account FROM chat \
                 WHERE game_id = $1 AND room = $2 AND seq > $3 ORDER BY seq DESC LIMIT $4",
            )
            .await?;
        let rows = client
            .query(
                &statement,
                &[&game, &room, &sql_seq(after), &sql_seq(limit)],
            )
            .await?;
        let mut lines = rows
            .iter()
            .map(|row| {
                Ok(ChatLine {
                    room: room.to_string(),
                    seq: seq_of(row.try_get(0)?),
                    author: row.try_get(1)?,
                    name: row.try_get(2)?,
                    text: row.try_get(3)?,
                    at_ms: row.try_get(4)?,
                    account: row.try_get(5)?,
                })
            })
            .collect::<Result<Vec<_>, tokio_postgres::Error>>()?;
        lines.reverse();
        Ok(lines)
    }

    async fn set_mute(&self, game: &str, side: &str, muted: bool) -> Result<(), StoreError> {
        let mut client = self.pool.get().await?;
        let transaction = client.transaction().await?;
        let sql = if muted {
            "INSERT INTO chat_mutes (game_id, side) VALUES ($1, $2) ON CONFLICT DO NOTHING"
        } else {
            "DELETE FROM chat_mutes WHERE game_id = $1 AND side = $2"
        };
        exec(&transaction, sql, &[&game, &side]).await?;
        notify_people(&transaction, &format!("mute {game} {side}")).await?;
        transaction.commit().await?;
        Ok(())
    }

    async fn mutes(&self, game: &str) -> Result<Vec<String>, StoreError> {
        let client = self.pool.get().await?;
        let statement = client
            .prepare_cached("SELECT side FROM chat_mutes WHERE game_id = $1")
            .await?;
        let rows = client.query(&statement, &[&game]).await?;
        Ok(rows
            .iter()
            .map(|row| row.try_get(0))
            .collect::<Result<Vec<String>, _>>()?)
    }

    async fn presence_beat(
        &self,
        server: &str,
        seats: &[(String, &'static str, i32)],
        announce: &[String],
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let mut client = self.pool.get().await?;
        let transaction = client.transaction().await?;
        let games: Vec<&str> = seats.iter().map(|(game, _, _)| game.as_str()).collect();
        let sides: Vec<&str> = seats.iter().map(|(_, side, _)| *side).collect();
        let sockets: Vec<i32> = seats.iter().map(|(_, _, n)| *n).collect();
        exec(
            &transaction,
            "INSERT INTO presence (game_id, side, server, sockets, seen_ms) \
             SELECT game, side, $4, sockets, $5 \
             FROM unnest($1::text[], $2::text[], $3::int[]) AS seat(game, side, sockets) \
             ON CONFLICT (game_id, side, server) \
             DO UPDATE SET sockets = EXCLUDED.sockets, seen_ms = EXCLUDED.seen_ms",
            &[&games, &sides, &sockets, &server, &now_ms],
        )
        .await?;
        for game in announce {
            notify_people(&transaction, &format!("presence {game} {server}")).await?;
        }
        transaction.commit().await?;
        Ok(())
    }

    async fn presence_of(
        &self,
        games: &[String],
        server: &str,
        fresh_since_ms: i64,
    ) -> Result<Vec<SeatSeen>, StoreError> {
        let client = self.pool.get().await?;
        let statement = client
            .prepare_cached(
                "SELECT game_id, side, bool_or(sockets > 0 AND seen_ms >= $3), max(seen_ms) \
                 FROM presence WHERE game_id = ANY($1) AND server <> $2 GROUP BY game_id, side",
            )
            .await?;
        let rows = client
            .query(&statement, &[&games, &server, &fresh_since_ms])
            .await?;
        Ok(rows
            .iter()
            .map(|row| {
                Ok(SeatSeen {
                    game: row.try_get(0)?,
                    side: row.try_get(1)?,
                    online: row.try_get(2)?,
                    seen_ms: row.try_get(3)?,
                })
            })
            .collect::<Result<Vec<_>, tokio_postgres::Error>>()?)
    }

    async fn forget_presence(&self, before_ms: i64) -> Result<u64, StoreError> {
        let client = self.pool.get().await?;
        exec(
            &client,
            "DELETE FROM presence WHERE seen_ms < $1",
            &[&before_ms],
        )
        .await
    }
}

impl Database {
    /// Stores a line of game `game`'s chat (its `seq` is left out: the store numbers it)
    /// and gives back its number. Each room keeps its last [`CHAT_LINES_KEPT`] lines.
    pub async fn add_chat(&self, game: &str, line: ChatLine) -> Result<u64, StoreError> {
        let game = game.to_string();
        on_backend!(
            self,
            |store| store.add_chat(&game, &line),
            store.add_chat(&game, &line)
        )
    }

    /// The last `limit` lines of a room of game `game` after line `after` (0: from the
    /// first), oldest first.
    pub async fn chat_lines(
        &self,
        game: &str,
        room: &str,
        after: u64,
        limit: u64,
    ) -> Result<Vec<ChatLine>, StoreError> {
        let (game, room) = (game.to_string(), room.to_string());
        on_backend!(
            self,
            |store| store.chat_lines(&game, &room, after, limit),
            store.chat_lines(&game, &room, after, limit)
        )
    }

    /// Records whether `side` (`white` or `black`) of game `game` mutes its opponent.
    pub async fn set_mute(&self, game: &str, side: &str, muted: bool) -> Result<(), StoreError> {
        let (game, side) = (game.to_string(), side.to_string());
        on_backend!(
            self,
            |store| store.set_mute(&game, &side, muted),
            store.set_mute(&game, &side, muted)
        )
    }

    /// The sides of game `game` that mute their opponent.
    pub async fn mutes(&self, game: &str) -> Result<Vec<String>, StoreError> {
        let game = game.to_string();
        on_backend!(self, |store| store.mutes(&game), store.mutes(&game))
    }

    /// With PostgreSQL: records that `server` has `sockets` bound to each seat listed (game,
    /// side, count) at `now_ms`, and announces a change of presence in the games of
    /// `announce`. Nothing with an SQLite file, which one server has for itself.
    pub async fn presence_beat(
        &self,
        server: &str,
        seats: &[(String, &'static str, i32)],
        announce: &[String],
        now_ms: i64,
    ) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Sqlite { .. } => Ok(()),
            Backend::Postgres(store) => store.presence_beat(server, seats, announce, now_ms).await,
        }
    }

    /// With PostgreSQL: what the servers other than `server` report about the seats of
    /// `games`; a report older than `fresh_since_ms` no longer counts as online.
    pub async fn presence_of(
        &self,
        games: &[String],
        server: &str,
        fresh_since_ms: i64,
    ) -> Result<Vec<SeatSeen>, StoreError> {
        match &self.backend {
            Backend::Sqlite { .. } => Ok(Vec::new()),
            Backend::Postgres(store) => store.presence_of(games, server, fresh_since_ms).await,
        }
    }

    /// With PostgreSQL: forgets reports of presence older than `before_ms`; returns how many.
    pub async fn forget_presence(&self, before_ms: i64) -> Result<u64, StoreError> {
        match &self.backend {
            Backend::Sqlite { .. } => Ok(0),
            Backend::Postgres(store) => store.forget_presence(before_ms).await,
        }
    }
}
