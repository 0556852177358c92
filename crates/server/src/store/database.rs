//! The one interface the server uses for its games, whichever database holds them.

use std::sync::Arc;

use super::grouped::{MOST_CHANGES_AT_ONCE, PendingChange, Saved};
use super::postgres::Heard;
use super::{Change, GameSummary, ListFilter, PgStore, Store, StoreError, TurnSummary};
use crate::game::round::Round;

/// The SQLite store on a thread of its own: every call is queued and runs there, one at a
/// time, so no async thread waits for the file and callers do not pile up on its lock. The
/// changes of games that are waiting together are stored in one transaction (a group
/// commit: [`Store::save_many`]), each still on its own.
pub(super) struct StoreThread {
    jobs: std::sync::mpsc::Sender<StoreJob>,
}

/// A call waiting for the store's thread.
enum StoreJob {
    /// Any call.
    Call(Box<dyn FnOnce(&Store) + Send>),
    /// A change of a game, which may share a transaction with the changes queued with it.
    Save(Box<PendingChange>),
}

impl StoreThread {
    fn start(store: Arc<Store>) -> StoreThread {
        let (jobs, queue) = std::sync::mpsc::channel::<StoreJob>();
        let started = std::thread::Builder::new()
            .name("store".into())
            .spawn(move || {
                let mut next = None;
                loop {
                    let job = match next.take() {
                        Some(job) => job,
                        None => match queue.recv() {
                            Ok(job) => job,
                            Err(_) => break,
                        },
                    };
                    match job {
                        StoreJob::Call(call) => call(&store),
                        StoreJob::Save(first) => {
                            // The changes queued behind it, up to the first other call.
                            let mut batch = vec![*first];
                            while batch.len() < MOST_CHANGES_AT_ONCE {
                                match queue.try_recv() {
                                    Ok(StoreJob::Save(job)) => batch.push(*job),
                                    Ok(other) => {
                                        next = Some(other);
                                        break;
                                    }
                                    Err(_) => break,
                                }
                            }
                            save_batch(&store, batch);
                        }
                    }
                    store.note_written();
                }
            });
        if let Err(error) = started {
            // Calls then fail one by one with a clear error.
            tracing::error!("cannot start the store's thread: {error}");
        }
        StoreThread { jobs }
    }

    /// Stores `change` of `round` with whatever other changes wait with it; answers with the
    /// round and what storing it gave.
    async fn save(&self, round: Round, change: Change, was: u64) -> Result<Saved, StoreError> {
        let (pending, waiting) = PendingChange::new(round, change, was);
        self.jobs
            .send(StoreJob::Save(Box::new(pending)))
            .map_err(|_| StoreError::other("the store's thread has stopped"))?;
        waiting.answered().await
    }

    pub(super) async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Store) -> T + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.jobs
            .send(StoreJob::Call(Box::new(move |store| {
                let _ = tx.send(work(store));
            })))
            .map_err(|_| StoreError::other("the store's thread has stopped"))?;
        rx.await
            .map_err(|_| StoreError::other("the store's thread dropped a call"))
    }
}

/// Stores a batch of changes in one transaction and answers each.
fn save_batch(store: &Store, batch: Vec<PendingChange>) {
    let changes: Vec<(&Round, Change, u64)> = batch.iter().map(PendingChange::change).collect();
    let results = store.save_many(&changes);
    drop(changes);
    for (pending, result) in batch.into_iter().zip(results) {
        pending.answer(result);
    }
}

pub(super) enum Backend {
    Sqlite {
        store: Arc<Store>,
        thread: StoreThread,
    },
    Postgres(PgStore),
}

/// Where the games are: an SQLite file or PostgreSQL.
pub struct Database {
    pub(super) backend: Backend,
}

impl From<Store> for Database {
    fn from(store: Store) -> Database {
        let store = Arc::new(store);
        Database {
            backend: Backend::Sqlite {
                thread: StoreThread::start(Arc::clone(&store)),
                store,
            },
        }
    }
}

impl From<PgStore> for Database {
    fn from(store: PgStore) -> Database {
        Database {
            backend: Backend::Postgres(store),
        }
    }
}

impl Database {
    /// The SQLite store, when the games are in a file.
    pub fn sqlite(&self) -> Option<&Store> {
        match &self.backend {
            Backend::Sqlite { store, .. } => Some(store),
            Backend::Postgres(_) => None,
        }
    }

    /// Whether other servers may share these games (and changes must be listened for).
    pub fn is_shared(&self) -> bool {
        matches!(self.backend, Backend::Postgres(_))
    }

    /// Stores a new game; gives the round back with the result (no round when the store's
    /// thread is gone).
    pub async fn insert(&self, round: Round) -> (Option<Round>, Result<(), StoreError>) {
        match &self.backend {
            Backend::Sqlite { thread, .. } => {
                let ran = thread
                    .run(move |store| {
                        let stored = store.insert(&round);
                        (round, stored)
                    })
                    .await;
                match ran {
                    Ok((round, stored)) => (Some(round), stored),
                    Err(error) => (None, Err(error)),
                }
            }
            Backend::Postgres(store) => {
                let stored = store.insert(&round).await;
                (Some(round), stored)
            }
        }
    }

    /// Stores `change` of `round`, computed on version `was`; gives the round back with the
    /// result.
    pub async fn save(
        &self,
        round: Round,
        change: Change,
        was: u64,
    ) -> (Option<Round>, Result<(), StoreError>) {
        match &self.backend {
            Backend::Sqlite { thread, .. } => {
                let ran = thread.save(round, change, was).await;
                match ran {
                    Ok((round, saved)) => (Some(rated(round, &saved)), saved.map(|_| ())),
                    Err(error) => (None, Err(error)),
                }
            }
            Backend::Postgres(store) => match store.save_grouped(round, change, was).await {
                Ok((round, saved)) => (Some(rated(round, &saved)), saved.map(|_| ())),
                Err(error) => (None, Err(error)),
            },
        }
    }

    /// Whether the database answers now: a trivial query to PostgreSQL, which may be down
    /// or out of reach. An SQLite file is this process's own and is not asked (a write
    /// waiting for its lock would hold the question up; such a write is refused on its own).
    pub async fn ping(&self) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Sqlite { .. } => Ok(()),
            Backend::Postgres(store) => store.ping().await,
        }
    }

    /// The game `id`, rebuilt, if there is one.
    pub async fn load(&self, id: &str) -> Result<Option<Round>, StoreError> {
        let id = id.to_string();
        on_backend!(self, |store| store.load(&id), store.load(&id))
    }

    /// The games changed most recently, newest first.
    pub async fn recent(&self, limit: u32) -> Result<Vec<GameSummary>, StoreError> {
        on_backend!(self, |store| store.recent(limit), store.recent(limit))
    }

    /// The games `filter` asks for, newest first.
    pub async fn list(&self, filter: ListFilter) -> Result<Vec<GameSummary>, StoreError> {
        on_backend!(self, |store| store.list(&filter), store.list(&filter))
    }

    /// The schema version in use.
    pub async fn schema_version(&self) -> Result<i64, StoreError> {
        match &self.backend {
            Backend::Sqlite { thread, .. } => thread.run(Store::schema_version).await?,
            Backend::Postgres(store) => store.schema_version().await,
        }
    }

    /// Takes an engine job for `server` (PostgreSQL only: with an SQLite file the server
    /// starts its engine itself).
    pub async fn take_job(&self, server: &str) -> Result<Option<(String, u64)>, StoreError> {
        match &self.backend {
            Backend::Sqlite { .. } => Ok(None),
            Backend::Postgres(store) => store.take_job(server).await,
        }
    }

    /// Renews `server`'s lease on the engine job of game `id`.
    pub async fn renew_job(&self, server: &str, id: &str) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Sqlite { .. } => Ok(()),
            Backend::Postgres(store) => store.renew_job(server, id).await,
        }
    }

    /// Gives back `server`'s engine job of game `id` undone.
    pub async fn release_job(&self, server: &str, id: &str) -> Result<(), StoreError> {
        match &self.backend {
            Backend::Sqlite { .. } => Ok(()),
            Backend::Postgres(store) => store.release_job(server, id).await,
        }
    }

    /// Listens for changes stored by other servers (PostgreSQL only; nothing is heard from
    /// an SQLite file, which one server has for itself).
    pub fn listen(&self, changes: tokio::sync::mpsc::Sender<Heard>) {
        if let Backend::Postgres(store) = &self.backend {
            store.listen(changes);
        }
    }

    /// The ids of correspondence games whose deadline is at or before `now_ms`, the longest
    /// overdue first, at most `limit`.
    pub async fn overdue(&self, now_ms: i64, limit: u32) -> Result<Vec<String>, StoreError> {
        on_backend!(
            self,
            |store| store.overdue(now_ms, limit),
            store.overdue(now_ms, limit)
        )
    }

    /// The ids of the games going on between people where account `player` is to move.
    pub async fn account_turns(&self, player: i64) -> Result<Vec<String>, StoreError> {
        on_backend!(
            self,
            |store| store.account_turns(player),
            store.account_turns(player)
        )
    }

    /// The games among `ids` that go on between seated players, with their side to move.
    pub async fn turns(&self, ids: Vec<String>) -> Result<Vec<TurnSummary>, StoreError> {
        on_backend!(self, |store| store.turns(&ids), store.turns(&ids))
    }
}

/// `round` with the rating change its save made, if it made one.
fn rated(mut round: Round, saved: &Result<Option<crate::rating::GameRating>, StoreError>) -> Round {
    if let Ok(Some(rating)) = saved {
        round.rating = Some(*rating);
    }
    round
}
