//! The one interface the server uses for its games, whichever database holds them.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use super::grouped::{MOST_CHANGES_AT_ONCE, PendingChange, Saved};
use super::postgres::Heard;
use super::{Change, GameSummary, ListFilter, PgStore, Store, StoreError, TurnSummary};
use crate::game::round::Round;

/// The SQLite store on a thread of its own: every call is queued and runs there, one at a
/// time, so no async thread waits for the file and callers do not pile up on its lock. The
/// changes of games that are waiting together are stored in one transaction (a group
/// commit: [`Store::save_many`]), each still on its own. Changes and other calls wait in two
/// queues taken in turn, so that a move waits for at most one other call (not for every read
/// that came before it, as when thousands of sockets open at once) and no call waits for
/// more than one batch of changes.
pub(super) struct StoreThread {
    queue: Arc<(Mutex<StoreQueue>, Condvar)>,
}

/// Any call to run on the store's thread.
type StoreCall = Box<dyn FnOnce(&Store) + Send>;

/// What waits for the store's thread.
#[derive(Default)]
struct StoreQueue {
    /// Changes of games, stored together.
    saves: VecDeque<PendingChange>,
    /// Other calls, one at a time.
    calls: VecDeque<StoreCall>,
    /// No more work will come: the thread ends once the queues are empty.
    closed: bool,
}

/// What the store's thread does next.
enum StoreWork {
    Saves(Vec<PendingChange>),
    Call(StoreCall),
}

impl StoreQueue {
    /// The next work, taking changes and calls in turn when both wait; `None` once closed
    /// and empty.
    fn next(&mut self, last_was_saves: bool) -> Option<StoreWork> {
        let call_first = last_was_saves || self.saves.is_empty();
        if call_first && let Some(call) = self.calls.pop_front() {
            return Some(StoreWork::Call(call));
        }
        if !self.saves.is_empty() {
            let take = self.saves.len().min(MOST_CHANGES_AT_ONCE);
            return Some(StoreWork::Saves(self.saves.drain(..take).collect()));
        }
        self.calls.pop_front().map(StoreWork::Call)
    }

    fn is_idle(&self) -> bool {
        self.saves.is_empty() && self.calls.is_empty()
    }
}

fn lock_queue(queue: &Mutex<StoreQueue>) -> MutexGuard<'_, StoreQueue> {
    queue.lock().unwrap_or_else(PoisonError::into_inner)
}

impl StoreThread {
    fn start(store: Arc<Store>) -> StoreThread {
        let queue = Arc::new((Mutex::new(StoreQueue::default()), Condvar::new()));
        let shared = Arc::clone(&queue);
        let started = std::thread::Builder::new()
            .name("store".into())
            .spawn(move || {
                let (waiting, wake) = &*shared;
                let mut last_was_saves = false;
                loop {
                    let work = {
                        let mut queue = lock_queue(waiting);
                        while queue.is_idle() && !queue.closed {
                            queue = wake.wait(queue).unwrap_or_else(PoisonError::into_inner);
                        }
                        queue.next(last_was_saves)
                    };
                    match work {
                        Some(StoreWork::Call(call)) => {
                            last_was_saves = false;
                            call(&store);
                        }
                        Some(StoreWork::Saves(batch)) => {
                            last_was_saves = true;
                            save_batch(&store, batch);
                        }
                        None => break,
                    }
                    store.note_written();
                }
            });
        if let Err(error) = started {
            // Calls then wait for nothing: mark the queue closed so they fail at once.
            tracing::error!("cannot start the store's thread: {error}");
            lock_queue(&queue.0).closed = true;
        }
        StoreThread { queue }
    }

    /// Queues `change` or `call`, or refuses when the thread has stopped.
    fn push(&self, work: StoreWork) -> Result<(), StoreError> {
        let (waiting, wake) = &*self.queue;
        let mut queue = lock_queue(waiting);
        if queue.closed {
            return Err(StoreError::other("the store's thread has stopped"));
        }
        match work {
            StoreWork::Saves(changes) => queue.saves.extend(changes),
            StoreWork::Call(call) => queue.calls.push_back(call),
        }
        wake.notify_one();
        Ok(())
    }

    /// Stores `change` of `round` with whatever other changes wait with it; answers with the
    /// round and what storing it gave.
    async fn save(&self, round: Round, change: Change, was: u64) -> Result<Saved, StoreError> {
        let (pending, waiting) = PendingChange::new(round, change, was);
        self.push(StoreWork::Saves(vec![pending]))?;
        waiting.answered().await
    }

    pub(super) async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&Store) -> T + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.push(StoreWork::Call(Box::new(move |store| {
            let _ = tx.send(work(store));
        })))?;
        rx.await
            .map_err(|_| StoreError::other("the store's thread dropped a call"))
    }
}

impl Drop for StoreThread {
    /// The thread finishes what waits, then ends.
    fn drop(&mut self) {
        let (waiting, wake) = &*self.queue;
        lock_queue(waiting).closed = true;
        wake.notify_all();
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

    /// The version at which game `id` is stored, if it is (on PostgreSQL a look at that
    /// alone; SQLite, which one server holds alone, reads the game).
    pub async fn stored_version(&self, id: &str) -> Result<Option<u64>, StoreError> {
        match &self.backend {
            Backend::Postgres(store) => store.stored_version(id).await,
            Backend::Sqlite { .. } => Ok(self.load(id).await?.map(|round| round.version)),
        }
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

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::store::sqlite::tests::{moved, sample};

    /// Thousands of sockets opening at once queue reads on the store's thread: a move queued
    /// behind them waits for at most one of them, not for all.
    #[tokio::test]
    async fn a_change_waits_for_at_most_one_call_queued_before_it() -> Result<(), StoreError> {
        let store = Store::in_memory()?;
        let round = sample();
        store.insert(&round)?;
        let database = Database::from(store);
        let Backend::Sqlite { thread, .. } = &database.backend else {
            return Err(StoreError::other("not SQLite"));
        };
        // The thread is held by a first call until every other call and the change wait;
        // each is queued by its first poll, in this order.
        let (release, held) = std::sync::mpsc::channel::<()>();
        let mut holding = Box::pin(thread.run(move |_| held.recv().is_ok()));
        assert!(futures_util::poll!(&mut holding).is_pending());
        // Whether each later call saw the move stored.
        let seen = Arc::new(Mutex::new(Vec::new()));
        let mut calls = Vec::new();
        for _ in 0..20 {
            let seen = Arc::clone(&seen);
            let mut call = Box::pin(thread.run(move |store| {
                let plies = store.load("g1").ok().flatten().map_or(0, |r| r.game.ply());
                seen.lock().map(|mut s| s.push(plies)).is_ok()
            }));
            assert!(futures_util::poll!(&mut call).is_pending());
            calls.push(call);
        }
        let (next, was) = moved(&round, "c3-d4")?;
        let mut saving = Box::pin(database.save(next, Change::Move, was));
        assert!(futures_util::poll!(&mut saving).is_pending());
        release
            .send(())
            .map_err(|_| StoreError::other("the thread went"))?;
        let (held, (_, saved), ran) =
            tokio::join!(holding, saving, futures_util::future::join_all(calls));
        assert!(held?);
        saved?;
        assert!(ran.into_iter().all(|r| r.is_ok_and(|ok| ok)));
        let seen = seen.lock().map(|s| s.clone()).unwrap_or_default();
        assert_eq!(seen.len(), 20);
        let before: usize = seen.iter().filter(|&&plies| plies == 0).count();
        assert!(before <= 1, "the move waited for {before} calls: {seen:?}");
        assert!(
            seen.iter().skip(before).all(|&plies| plies == 1),
            "{seen:?}"
        );
        Ok(())
    }
}
