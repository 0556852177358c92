//! The lobby's seeks in the store, the same on both databases: each open seek is a row with
//! the socket that posted it (its owner), the server that socket is on, and a lease that
//! server renews while it runs. A seek is taken by one conditional update, in the same
//! transaction as the game it makes, so of two players accepting it at once on two servers
//! exactly one gets a game. Every change is a [`SeekNote`]: with PostgreSQL it is announced to
//! every server (`NOTIFY bashni_lobby`, the note as JSON), with an SQLite file the store's
//! caller is given it.

use serde::{Deserialize, Serialize};

use crate::game::round::Round;
use crate::store::database::Backend;
use crate::store::{Database, StoreError};

pub(super) mod postgres;
mod sqlite;

/// How long a server's open seeks last without the server renewing them, in ms: when a
/// server dies, its seeks leave the lobby of the others this long after its last renewal.
pub const SEEK_LEASE_MS: i64 = 15_000;

/// A seek as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeekRow {
    /// The seek's id.
    pub id: String,
    /// The socket that posted it (random, never shown).
    pub owner: String,
    /// The server that socket is on.
    pub server: String,
    /// The name its owner gave (already cleaned).
    pub name: String,
    /// What game it asks for, as JSON (read by [`crate::lobby`]).
    pub settings: String,
    /// When it was posted (ms since 1970).
    pub created_ms: i64,
}

/// A change of the seeks, in the order the store made them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "note", rename_all = "snake_case")]
pub enum SeekNote {
    /// A seek was posted.
    Added {
        /// The seek.
        seek: SeekRow,
    },
    /// A seek was cancelled, or left with its owner or its server.
    Removed {
        /// The seek's id.
        id: String,
    },
    /// A seek was accepted: game `game` is stored, and the seek's owner plays `owner_color`
    /// in it. The owner's server tells the owner (see [`crate::lobby`]).
    Taken {
        /// The seek's id.
        id: String,
        /// The game made.
        game: String,
        /// The seek's owner.
        owner: String,
        /// The owner's server.
        server: String,
        /// `white` or `black`.
        owner_color: String,
    },
}

/// The columns of a seek, in [`SeekRow`]'s order.
pub(crate) const SEEK_COLUMNS: &str = "id, owner, server, name, settings, created_ms";

/// The seeks, whichever database holds them.
impl Database {
    /// Stores a new seek unless its owner has `most` already (then `None`).
    pub async fn seek_insert(
        &self,
        seek: SeekRow,
        lease_until: i64,
        most: i64,
    ) -> Result<Option<SeekNote>, StoreError> {
        on_backend!(
            self,
            |store| store.seek_insert(&seek, lease_until, most),
            store.seek_insert(&seek, lease_until, most)
        )
    }

    /// Removes `owner`'s open seek `id`; `None` when there is none.
    pub async fn seek_cancel(&self, id: &str, owner: &str) -> Result<Option<SeekNote>, StoreError> {
        let (id, owner) = (id.to_string(), owner.to_string());
        on_backend!(
            self,
            |store| store.seek_cancel(&id, &owner),
            store.seek_cancel(&id, &owner)
        )
    }

    /// Removes every seek of `owner`.
    pub async fn seek_owner_left(&self, owner: &str) -> Result<Vec<SeekNote>, StoreError> {
        let owner = owner.to_string();
        on_backend!(
            self,
            |store| store.seek_owner_left(&owner),
            store.seek_owner_left(&owner)
        )
    }

    /// Removes the seeks whose lease ran out before `now`.
    pub async fn seek_sweep(&self, now: i64) -> Result<Vec<SeekNote>, StoreError> {
        on_backend!(self, |store| store.seek_sweep(now), store.seek_sweep(now))
    }

    /// With an SQLite file: removes the seeks left from an earlier run (every server's but
    /// `server`). A shared database keeps them: other servers' seeks are live there.
    pub async fn seek_clear_others(&self, server: &str) -> Result<Vec<SeekNote>, StoreError> {
        match &self.backend {
            Backend::Sqlite { thread, .. } => {
                let server = server.to_string();
                thread
                    .run(move |store| store.seek_clear_others(&server))
                    .await?
            }
            Backend::Postgres(_) => Ok(Vec::new()),
        }
    }

    /// Takes open seek `id` for `taker` and stores `round`, the game it makes, in one
    /// transaction; `None`, and nothing stored, when the seek is not open or is the taker's.
    pub async fn seek_take(
        &self,
        id: &str,
        taker: &str,
        owner_color: &str,
        round: Round,
        now: i64,
    ) -> Result<Option<SeekNote>, StoreError> {
        let (id, taker, color) = (id.to_string(), taker.to_string(), owner_color.to_string());
        on_backend!(
            self,
            |store| store.seek_take(&id, &taker, &color, &round, now),
            store.seek_take(&id, &taker, owner_color, &round, now)
        )
    }

    /// Removes taken seek `id` once its owner has been told.
    pub async fn seek_forget(&self, id: &str) -> Result<(), StoreError> {
        let id = id.to_string();
        on_backend!(self, |store| store.seek_forget(&id), store.seek_forget(&id))
    }

    /// Renews the lease of `server`'s open seeks until `lease_until`.
    pub async fn seek_renew(&self, server: &str, lease_until: i64) -> Result<(), StoreError> {
        let server = server.to_string();
        on_backend!(
            self,
            |store| store.seek_renew(&server, lease_until),
            store.seek_renew(&server, lease_until)
        )
    }

    /// The open seeks whose lease holds at `now`, oldest first.
    pub async fn seek_list(&self, now: i64) -> Result<Vec<SeekRow>, StoreError> {
        on_backend!(self, |store| store.seek_list(now), store.seek_list(now))
    }

    /// The taken seeks of `server`'s owners not told yet (PostgreSQL: after a lost
    /// connection, when a note may have been missed; a file's notes are never missed).
    pub async fn seeks_taken(&self, server: &str) -> Result<Vec<SeekNote>, StoreError> {
        match &self.backend {
            Backend::Sqlite { .. } => Ok(Vec::new()),
            Backend::Postgres(store) => store.seeks_taken(server).await,
        }
    }
}
