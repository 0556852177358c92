//! The lobby's seeks in PostgreSQL (see [`crate::store::lobby`]): every change is announced
//! on [`CHANNEL`] in the transaction that makes it, so every server hears it once it is
//! committed, in the order of the commits.

use deadpool_postgres::GenericClient;
use tokio_postgres::Row;

use crate::game::round::Round;
use crate::store::PgStore;
use crate::store::lobby::SEEK_COLUMNS;
use crate::store::postgres::insert_game;
use crate::store::{SeekNote, SeekRow, StoreError};

/// The channel every change of the seeks is announced on, with the [`SeekNote`] as JSON.
pub const CHANNEL: &str = "bashni_lobby";

/// Reads an announced note; `None` (logged) when it cannot be read.
pub(in crate::store) fn heard(payload: &str) -> Option<SeekNote> {
    match serde_json::from_str(payload) {
        Ok(note) => Some(note),
        Err(error) => {
            tracing::warn!("an unreadable lobby notification was left out: {error}");
            None
        }
    }
}

fn payload(note: &SeekNote) -> Result<String, StoreError> {
    serde_json::to_string(note)
        .map_err(|e| StoreError::other(format!("a lobby note cannot be written: {e}")))
}

async fn announce(client: &impl GenericClient, note: &SeekNote) -> Result<(), StoreError> {
    let payload = payload(note)?;
    let statement = client.prepare_cached("SELECT pg_notify($1, $2)").await?;
    client.execute(&statement, &[&CHANNEL, &payload]).await?;
    Ok(())
}

fn seek_of(row: &Row) -> Result<SeekRow, tokio_postgres::Error> {
    Ok(SeekRow {
        id: row.try_get(0)?,
        owner: row.try_get(1)?,
        server: row.try_get(2)?,
        name: row.try_get(3)?,
        settings: row.try_get(4)?,
        created_ms: row.try_get(5)?,
    })
}

fn taken_of(row: &Row) -> Result<SeekNote, tokio_postgres::Error> {
    Ok(SeekNote::Taken {
        id: row.try_get(0)?,
        game: row.try_get(1)?,
        owner: row.try_get(2)?,
        server: row.try_get(3)?,
        owner_color: row.try_get(4)?,
    })
}

impl PgStore {
    /// Stores a new seek, unless its owner has `most` seeks already (then `None`).
    pub async fn seek_insert(
        &self,
        seek: &SeekRow,
        lease_until: i64,
        most: i64,
    ) -> Result<Option<SeekNote>, StoreError> {
        let note = SeekNote::Added { seek: seek.clone() };
        let payload = payload(&note)?;
        let client = self.pool.get().await?;
        // One statement: the row, and its announcement only when the row is stored.
        let statement = client
            .prepare_cached(&format!(
                "WITH added AS (
                     INSERT INTO seeks ({SEEK_COLUMNS}, lease_until)
                     SELECT $1, $2, $3, $4, $5, $6, $7
                     WHERE (SELECT COUNT(*) FROM seeks WHERE owner = $2 AND game IS NULL) < $8
                     RETURNING id)
                 SELECT pg_notify($9, $10) FROM added"
            ))
            .await?;
        let inserted = client
            .query(
                &statement,
                &[
                    &seek.id,
                    &seek.owner,
                    &seek.server,
                    &seek.name,
                    &seek.settings,
                    &seek.created_ms,
                    &lease_until,
                    &most,
                    &CHANNEL,
                    &payload,
                ],
            )
            .await?;
        Ok((inserted.len() == 1).then_some(note))
    }

    /// Removes `owner`'s open seek `id`; `None` when there is none (taken, gone, another's).
    pub async fn seek_cancel(&self, id: &str, owner: &str) -> Result<Option<SeekNote>, StoreError> {
        let note = SeekNote::Removed { id: id.to_string() };
        let payload = payload(&note)?;
        let client = self.pool.get().await?;
        let statement = client
            .prepare_cached(
                "WITH gone AS (
                     DELETE FROM seeks WHERE id = $1 AND owner = $2 AND game IS NULL RETURNING id)
                 SELECT pg_notify($3, $4) FROM gone",
            )
            .await?;
        let removed = client
            .query(&statement, &[&id, &owner, &CHANNEL, &payload])
            .await?;
        Ok((removed.len() == 1).then_some(note))
    }

    /// Removes every seek of `owner` (its socket closed).
    pub async fn seek_owner_left(&self, owner: &str) -> Result<Vec<SeekNote>, StoreError> {
        self.remove_where("owner = $1", &owner).await
    }

    /// Removes the seeks whose lease ran out before `now` (their server died).
    pub async fn seek_sweep(&self, now: i64) -> Result<Vec<SeekNote>, StoreError> {
        self.remove_where("lease_until < $1", &now).await
    }

    async fn remove_where(
        &self,
        condition: &str,
        value: &(dyn tokio_postgres::types::ToSql + Sync),
    ) -> Result<Vec<SeekNote>, StoreError> {
        let client = self.pool.get().await?;
        // Each removal announced as [`SeekNote::Removed`] reads it.
        let statement = client
            .prepare_cached(&format!(
                "WITH gone AS (DELETE FROM seeks WHERE {condition} RETURNING id)
                 SELECT id, pg_notify($2, json_build_object('note', 'removed', 'id', id)::text)
                 FROM gone"
            ))
            .await?;
        let rows = client.query(&statement, &[value, &CHANNEL]).await?;
        rows.iter()
            .map(|row| {
                Ok(SeekNote::Removed {
                    id: row.try_get(0)?,
                })
            })
            .collect()
    }

    /// Takes open seek `id` for `taker` and stores `round`, the game it makes, in one
    /// transaction; the seek's owner plays `owner_color`. `None`, and nothing stored, when
    /// the seek is not open any more (taken, cancelled, its lease out at `now`) or is the
    /// taker's own.
    pub async fn seek_take(
        &self,
        id: &str,
        taker: &str,
        owner_color: &str,
        round: &Round,
        now: i64,
    ) -> Result<Option<SeekNote>, StoreError> {
        let mut client = self.pool.get().await?;
        let transaction = client.transaction().await?;
        // Of two servers taking one seek at once, the second waits for the first's commit,
        // then finds the seek taken and changes nothing.
        let statement = transaction
            .prepare_cached(
                "UPDATE seeks SET game = $1, owner_color = $2 \
                 WHERE id = $3 AND owner <> $4 AND game IS NULL AND lease_until >= $5 \
                 RETURNING owner, server",
            )
            .await?;
        let taken = transaction
            .query_opt(&statement, &[&round.id, &owner_color, &id, &taker, &now])
            .await?;
        let Some(taken) = taken else {
            return Ok(None);
        };
        insert_game(&transaction, round).await?;
        let note = SeekNote::Taken {
            id: id.to_string(),
            game: round.id.clone(),
            owner: taken.try_get(0)?,
            server: taken.try_get(1)?,
            owner_color: owner_color.to_string(),
        };
        announce(&transaction, &note).await?;
        transaction.commit().await?;
        Ok(Some(note))
    }

    /// Removes taken seek `id` once its owner has been told.
    pub async fn seek_forget(&self, id: &str) -> Result<(), StoreError> {
        let client = self.pool.get().await?;
        client
            .execute("DELETE FROM seeks WHERE id = $1", &[&id])
            .await?;
        Ok(())
    }

    /// Renews the lease of `server`'s open seeks until `lease_until`.
    pub async fn seek_renew(&self, server: &str, lease_until: i64) -> Result<(), StoreError> {
        let client = self.pool.get().await?;
        client
            .execute(
                "UPDATE seeks SET lease_until = $2 WHERE server = $1 AND game IS NULL",
                &[&server, &lease_until],
            )
            .await?;
        Ok(())
    }

    /// The open seeks whose lease holds at `now`, oldest first.
    pub async fn seek_list(&self, now: i64) -> Result<Vec<SeekRow>, StoreError> {
        let client = self.pool.get().await?;
        let rows = client
            .query(
                &format!(
                    "SELECT {SEEK_COLUMNS} FROM seeks \
                     WHERE game IS NULL AND lease_until >= $1 ORDER BY created_ms, id"
                ),
                &[&now],
            )
            .await?;
        Ok(rows.iter().map(seek_of).collect::<Result<_, _>>()?)
    }

    /// The seeks of `server`'s owners that were taken and whose owners were not told yet.
    pub async fn seeks_taken(&self, server: &str) -> Result<Vec<SeekNote>, StoreError> {
        let client = self.pool.get().await?;
        let rows = client
            .query(
                "SELECT id, game, owner, server, owner_color FROM seeks \
                 WHERE server = $1 AND game IS NOT NULL AND owner_color IS NOT NULL",
                &[&server],
            )
            .await?;
        Ok(rows.iter().map(taken_of).collect::<Result<_, _>>()?)
    }
}
