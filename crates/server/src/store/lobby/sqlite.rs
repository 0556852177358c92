//! The lobby's seeks in the SQLite file (see [`crate::store::lobby`]). One server has the
//! file for itself, so each call gives its notes back to the caller, which tells that
//! server's lobby.

use rusqlite::{Row, params};

use crate::game::round::Round;
use crate::store::Store;
use crate::store::lobby::SEEK_COLUMNS;
use crate::store::sqlite::insert_game;
use crate::store::{SeekNote, SeekRow, StoreError};

fn seek_of(row: &Row<'_>) -> rusqlite::Result<SeekRow> {
    Ok(SeekRow {
        id: row.get(0)?,
        owner: row.get(1)?,
        server: row.get(2)?,
        name: row.get(3)?,
        settings: row.get(4)?,
        created_ms: row.get(5)?,
    })
}

impl Store {
    /// Stores a new seek, unless its owner has `most` seeks already (then `None`).
    pub fn seek_insert(
        &self,
        seek: &SeekRow,
        lease_until: i64,
        most: i64,
    ) -> Result<Option<SeekNote>, StoreError> {
        let inserted = self.lock().execute(
            &format!(
                "INSERT INTO seeks ({SEEK_COLUMNS}, lease_until) \
                 SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 \
                 WHERE (SELECT COUNT(*) FROM seeks WHERE owner = ?2 AND game IS NULL) < ?8"
            ),
            params![
                seek.id,
                seek.owner,
                seek.server,
                seek.name,
                seek.settings,
                seek.created_ms,
                lease_until,
                most
            ],
        )?;
        Ok((inserted == 1).then(|| SeekNote::Added { seek: seek.clone() }))
    }

    /// Removes `owner`'s open seek `id`; `None` when there is none (taken, gone, another's).
    pub fn seek_cancel(&self, id: &str, owner: &str) -> Result<Option<SeekNote>, StoreError> {
        let removed = self.lock().execute(
            "DELETE FROM seeks WHERE id = ?1 AND owner = ?2 AND game IS NULL",
            params![id, owner],
        )?;
        Ok((removed == 1).then(|| SeekNote::Removed { id: id.to_string() }))
    }

    /// Removes every seek of `owner` (its socket closed).
    pub fn seek_owner_left(&self, owner: &str) -> Result<Vec<SeekNote>, StoreError> {
        self.remove_where("owner = ?1", owner)
    }

    /// Removes the seeks whose lease ran out before `now` (their server stopped).
    pub fn seek_sweep(&self, now: i64) -> Result<Vec<SeekNote>, StoreError> {
        self.remove_where("lease_until < ?1", now)
    }

    /// Removes the seeks of every server but `server`: with a file, those are left from an
    /// earlier run, whose sockets are all gone.
    pub fn seek_clear_others(&self, server: &str) -> Result<Vec<SeekNote>, StoreError> {
        self.remove_where("server <> ?1", server)
    }

    fn remove_where(
        &self,
        condition: &str,
        value: impl rusqlite::ToSql,
    ) -> Result<Vec<SeekNote>, StoreError> {
        let connection = self.lock();
        let mut statement = connection
            .prepare_cached(&format!("DELETE FROM seeks WHERE {condition} RETURNING id"))?;
        let ids = statement
            .query_map(params![value], |row| row.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ids.into_iter().map(|id| SeekNote::Removed { id }).collect())
    }

    /// Takes open seek `id` for `taker` and stores `round`, the game it makes, in one
    /// transaction; the seek's owner plays `owner_color`. `None`, and nothing stored, when
    /// the seek is not open any more (taken, cancelled, its lease out at `now`) or is the
    /// taker's own.
    pub fn seek_take(
        &self,
        id: &str,
        taker: &str,
        owner_color: &str,
        round: &Round,
        now: i64,
    ) -> Result<Option<SeekNote>, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let taken = {
            let mut statement = transaction.prepare_cached(
                "UPDATE seeks SET game = ?1, owner_color = ?2 \
                 WHERE id = ?3 AND owner <> ?4 AND game IS NULL AND lease_until >= ?5 \
                 RETURNING owner, server",
            )?;
            let mut rows = statement
                .query_map(params![round.id, owner_color, id, taker, now], |row| {
                    Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
                })?;
            rows.next().transpose()?
        };
        let Some((owner, server)) = taken else {
            return Ok(None);
        };
        insert_game(&transaction, round)?;
        transaction.commit()?;
        Ok(Some(SeekNote::Taken {
            id: id.to_string(),
            game: round.id.clone(),
            owner,
            server,
            owner_color: owner_color.to_string(),
        }))
    }

    /// Removes taken seek `id` once its owner has been told.
    pub fn seek_forget(&self, id: &str) -> Result<(), StoreError> {
        self.lock()
            .execute("DELETE FROM seeks WHERE id = ?1", params![id])?;
        Ok(())
    }

    /// Renews the lease of `server`'s open seeks until `lease_until`.
    pub fn seek_renew(&self, server: &str, lease_until: i64) -> Result<(), StoreError> {
        self.lock().execute(
            "UPDATE seeks SET lease_until = ?2 WHERE server = ?1 AND game IS NULL",
            params![server, lease_until],
        )?;
        Ok(())
    }

    /// The open seeks whose lease holds at `now`, oldest first.
    pub fn seek_list(&self, now: i64) -> Result<Vec<SeekRow>, StoreError> {
        let connection = self.lock();
        let mut statement = connection.prepare_cached(&format!(
            "SELECT {SEEK_COLUMNS} FROM seeks \
             WHERE game IS NULL AND lease_until >= ?1 ORDER BY created_ms, id"
        ))?;
        let seeks = statement
            .query_map(params![now], seek_of)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(seeks)
    }
}
