//! The engines the server lends to searches: one search per engine at a time, moves in games
//! before analyses, and every engine back in the pool however its search ends.

use std::collections::VecDeque;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use bashni_engine::{Engine, Options, StopToken};
use tokio::sync::oneshot;

/// Who waits for an engine; games come first.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Priority {
    /// A move or a draw answer in a game (its clock may be running).
    Game,
    /// An analysis asked for on the page.
    Analysis,
}

/// Why no engine was lent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PoolRefusal {
    /// This client already has as many analyses waiting or running as allowed.
    ClientBusy,
    /// Too many analyses are waiting.
    QueueFull,
}

struct Waiting {
    games: VecDeque<oneshot::Sender<Lent>>,
    analyses: VecDeque<oneshot::Sender<Lent>>,
    free: Vec<Engine>,
    analyses_of: std::collections::HashMap<IpAddr, usize>,
}

/// Engines lent to searches.
pub struct EnginePool {
    size: usize,
    waiting: Mutex<Waiting>,
    /// The most analyses one address may have waiting or running.
    pub analyses_per_client: usize,
    /// The most analyses waiting for an engine, all clients together.
    pub analysis_queue: usize,
    /// Told of each change of who waits, runs or holds an engine (see [`EnginePool::until`]).
    changed: tokio::sync::watch::Sender<()>,
}

/// An engine on loan; dropping it hands the engine to the next in line.
pub struct Lent {
    engine: Option<Engine>,
    pool: Arc<EnginePool>,
}

impl Lent {
    /// The engine.
    pub fn engine(&self) -> &Engine {
        // Present from lending until drop.
        self.engine.as_ref().unwrap_or_else(|| unreachable!())
    }
}

impl Drop for Lent {
    fn drop(&mut self) {
        if let Some(engine) = self.engine.take() {
            self.pool.give_back(engine);
        }
    }
}

/// Counts one analysis of a client while it waits or runs.
struct ClientTicket {
    pool: Arc<EnginePool>,
    client: IpAddr,
}

impl Drop for ClientTicket {
    fn drop(&mut self) {
        {
            let mut waiting = self.pool.lock();
            if let Some(count) = waiting.analyses_of.get_mut(&self.client) {
                *count -= 1;
                if *count == 0 {
                    waiting.analyses_of.remove(&self.client);
                }
            }
        }
        self.pool.changed.send_replace(());
    }
}

/// Stops a search when the request that asked for it is gone.
struct StopOnDrop(StopToken);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

impl EnginePool {
    /// `count` engines with `hash_mb` of table each, playing by the endgame `tables` if given.
    pub fn new(
        count: usize,
        hash_mb: usize,
        tables: Option<Arc<bashni_egtb::Tablebase>>,
    ) -> Arc<EnginePool> {
        let count = count.max(1);
        let free = (0..count)
            .map(|_| {
                let mut engine = Engine::new(Options {
                    hash_mb,
                    threads: 1,
                    multipv: 1,
                });
                engine.set_tablebase(tables.clone());
                engine
            })
            .collect();
        Arc::new(EnginePool {
            size: count,
            waiting: Mutex::new(Waiting {
                games: VecDeque::new(),
                analyses: VecDeque::new(),
                free,
                analyses_of: std::collections::HashMap::new(),
            }),
            analyses_per_client: 2,
            analysis_queue: 4 * count,
            changed: tokio::sync::watch::Sender::new(()),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Waiting> {
        self.waiting.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How many engines there are.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Waits until `check` holds for the pool's [`EnginePool::state`], looking again at each
    /// change of the pool.
    pub async fn until(&self, check: impl Fn((usize, usize, usize)) -> bool) {
        let mut changes = self.changed.subscribe();
        while !check(self.state()) {
            if changes.changed().await.is_err() {
                return;
            }
        }
    }

    /// Engines free now, games waiting, analyses waiting.
    pub fn state(&self) -> (usize, usize, usize) {
        let waiting = self.lock();
        let alive = |queue: &VecDeque<oneshot::Sender<Lent>>| {
            queue.iter().filter(|tx| !tx.is_closed()).count()
        };
        (
            waiting.free.len(),
            alive(&waiting.games),
            alive(&waiting.analyses),
        )
    }

    fn give_back(self: &Arc<Self>, engine: Engine) {
        self.hand_on(engine);
        self.changed.send_replace(());
    }

    fn hand_on(self: &Arc<Self>, engine: Engine) {
        let mut engine = Some(engine);
        let mut waiting = self.lock();
        while let Some(tx) = waiting
            .games
            .pop_front()
            .or_else(|| waiting.analyses.pop_front())
        {
            let lent = Lent {
                engine: engine.take(),
                pool: Arc::clone(self),
            };
            match tx.send(lent) {
                Ok(()) => return,
                // The waiter is gone: take the engine back and try the next one.
                Err(mut back) => engine = back.engine.take(),
            }
        }
        if let Some(engine) = engine {
            waiting.free.push(engine);
        }
    }

    /// Waits for an engine; the wait ends with the caller.
    pub async fn lend(self: &Arc<Self>, priority: Priority) -> Option<Lent> {
        let rx = {
            let mut waiting = self.lock();
            if let Some(engine) = waiting.free.pop() {
                drop(waiting);
                self.changed.send_replace(());
                return Some(Lent {
                    engine: Some(engine),
                    pool: Arc::clone(self),
                });
            }
            let (tx, rx) = oneshot::channel();
            match priority {
                Priority::Game => waiting.games.push_back(tx),
                Priority::Analysis => waiting.analyses.push_back(tx),
            }
            let (games, analyses) = (waiting.games.len(), waiting.analyses.len());
            if priority == Priority::Game {
                tracing::info!(games, analyses, "engines: all busy; a game's move waits");
            } else {
                tracing::debug!(games, analyses, "engines: all busy; an analysis waits");
            }
            rx
        };
        self.changed.send_replace(());
        rx.await.ok()
    }

    /// Runs `work` with an engine on a blocking thread, once one is free for `priority`.
    /// If the caller stops waiting (a client that hung up), `stop` is stopped so the search
    /// ends soon; the engine returns to the pool in every case.
    pub async fn run<T: Send + 'static>(
        self: &Arc<Self>,
        priority: Priority,
        stop: StopToken,
        work: impl FnOnce(&Engine) -> T + Send + 'static,
    ) -> Option<T> {
        let _stop_on_drop = StopOnDrop(stop);
        let lent = self.lend(priority).await?;
        tokio::task::spawn_blocking(move || {
            let result = work(lent.engine());
            drop(lent);
            result
        })
        .await
        .ok()
    }

    /// Runs an analysis for `client`, refused when that client already has
    /// [`EnginePool::analyses_per_client`] or the queue is full.
    pub async fn analyse<T: Send + 'static>(
        self: &Arc<Self>,
        client: IpAddr,
        stop: StopToken,
        work: impl FnOnce(&Engine) -> T + Send + 'static,
    ) -> Result<Option<T>, PoolRefusal> {
        let ticket = {
            let mut waiting = self.lock();
            let queued = waiting.analyses.iter().filter(|tx| !tx.is_closed()).count();
            if waiting.free.is_empty() && queued >= self.analysis_queue {
                return Err(PoolRefusal::QueueFull);
            }
            let count = waiting.analyses_of.entry(client).or_insert(0);
            if *count >= self.analyses_per_client {
                return Err(PoolRefusal::ClientBusy);
            }
            *count += 1;
            ClientTicket {
                pool: Arc::clone(self),
                client,
            }
        };
        self.changed.send_replace(());
        let result = self.run(Priority::Analysis, stop, work).await;
        drop(ticket);
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn games_come_before_analyses_and_engines_come_back() {
        let pool = EnginePool::new(1, 1, None);
        let first = pool.lend(Priority::Analysis).await;
        assert!(first.is_some());
        assert_eq!(pool.state().0, 0);
        let analysis = tokio::spawn({
            let pool = Arc::clone(&pool);
            async move { pool.lend(Priority::Analysis).await.is_some() }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        let game = tokio::spawn({
            let pool = Arc::clone(&pool);
            async move {
                let lent = pool.lend(Priority::Game).await;
                // Hold it a moment so the analysis cannot have been served first.
                tokio::time::sleep(Duration::from_millis(20)).await;
                lent.is_some()
            }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        // A waiter that gives up does not swallow the engine.
        let gone = tokio::spawn({
            let pool = Arc::clone(&pool);
            async move { pool.lend(Priority::Game).await.is_some() }
        });
        tokio::time::sleep(Duration::from_millis(10)).await;
        gone.abort();
        tokio::time::sleep(Duration::from_millis(10)).await;
        drop(first);
        tokio::time::sleep(Duration::from_millis(5)).await;
        assert!(
            !analysis.is_finished(),
            "the analysis was served before the game"
        );
        assert!(game.await.unwrap_or(false));
        assert!(analysis.await.unwrap_or(false));
        assert_eq!(pool.state(), (1, 0, 0));
    }

    #[tokio::test]
    async fn a_client_has_a_bounded_number_of_analyses() {
        let pool = EnginePool::new(1, 1, None);
        let client: IpAddr = [10, 0, 0, 1].into();
        let hold = pool.lend(Priority::Game).await;
        let mut waiting = Vec::new();
        for _ in 0..pool.analyses_per_client {
            let pool = Arc::clone(&pool);
            waiting.push(tokio::spawn(async move {
                pool.analyse(client, StopToken::new(), |_| 1).await
            }));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
        let refused = pool.analyse(client, StopToken::new(), |_| 1).await;
        assert_eq!(refused.err(), Some(PoolRefusal::ClientBusy));
        drop(hold);
        for task in waiting {
            assert_eq!(task.await.ok().and_then(Result::ok).flatten(), Some(1));
        }
        assert!(pool.analyse(client, StopToken::new(), |_| 2).await.is_ok());
    }
}
