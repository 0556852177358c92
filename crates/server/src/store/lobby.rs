//! The lobby's seeks in the store, the same on both databases: each open seek is a row with
//! the socket that posted it (its owner), the server that socket is on, and a lease that
//! server renews while it runs. A seek is taken by one conditional update, in the same
//! transaction as the game it makes, so of two players accepting it at once on two servers
//! exactly one gets a game. Every change is a [`SeekNote`]: with PostgreSQL it is announced to
//! every server (`NOTIFY bashni_lobby`, the note as JSON), with an SQLite file the store's
//! caller is given it.

use serde::{Deserialize, Serialize};

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
