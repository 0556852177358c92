//! The sweeps: flags that fell, first moves and deadlines missed, games nobody uses.

use super::*;

impl App {
    /// Stores a flag fall if the side to move has run out of time (on the clock, or past a
    /// correspondence deadline); says whether it did.
    pub(super) async fn settle_flag(
        &self,
        slot: &Arc<GameSlot>,
        live: &mut Live,
    ) -> Result<bool, ActionError> {
        let now = self.now();
        let now_ms = self.now_ms();
        if live.round.clock.flagged(now).is_none() && live.round.overdue(now_ms).is_none() {
            return Ok(false);
        }
        let mut next = live.round.clone();
        let was = next.version;
        if !next.check_flag(now) && !next.end_overdue(now, now_ms) {
            return Ok(false);
        }
        self.commit(slot, live, next, Change::Game, was).await?;
        Ok(true)
    }

    /// Ends the correspondence games whose deadline has passed at `now_ms`, and the games in
    /// memory whose time for a first move has (see
    /// [`Round::first_move_due`](crate::game::round::Round::first_move_due)), whether anyone
    /// watches them or not; returns how many this server ended. With a database shared by
    /// several servers each ending is stored only against the version it was computed on:
    /// a game another server ended first is found changed (and read again), not ended twice.
    pub async fn end_overdue_games(self: &Arc<Self>, now_ms: i64) -> Result<usize, StoreError> {
        let mut ids = self
            .database
            .overdue(now_ms, crate::store::OVERDUE_PER_SWEEP)
            .await?;
        // First moves that are due are known to the servers holding their games (each slot
        // keeps its game's time for a first move, so only those past it are locked).
        let held: Vec<Arc<GameSlot>> = self
            .games()
            .values()
            .filter(|slot| slot.first_move_by.load(Ordering::Relaxed) <= now_ms)
            .cloned()
            .collect();
        for slot in held {
            let live = slot.live.lock().await;
            if live.round.first_move_due().is_some()
                && live.round.overdue(now_ms).is_some()
                && !ids.contains(&live.round.id)
            {
                ids.push(live.round.id.clone());
            }
        }
        let mut ended = 0;
        for id in ids {
            let slot = match self.slot(&id).await {
                Ok(slot) => slot,
                Err(error) => {
                    tracing::warn!(game = %id, "an overdue game cannot be read: {error:?}");
                    continue;
                }
            };
            let mut live = slot.live.lock().await;
            let mut next = live.round.clone();
            let was = next.version;
            if !next.end_overdue(self.now(), now_ms) {
                continue;
            }
            match self.commit(&slot, &mut live, next, Change::Game, was).await {
                Ok(()) => {
                    ended += 1;
                    tracing::debug!(game = %id, "the time for a correspondence move ran out");
                }
                Err(ActionError::Store(error)) if error.kind == StoreErrorKind::Stale => {
                    tracing::debug!(game = %id, "another server changed the overdue game first");
                }
                // Logged where it failed; the next sweep tries again.
                Err(_) => {}
            }
            drop(live);
            self.after_change(&slot);
        }
        Ok(ended)
    }

    /// Drops from memory the games nobody uses: finished ones after
    /// [`Settings::keep_finished`], others after [`Settings::keep_idle`]. A game with a
    /// socket, a running clock, an engine at work or a request in progress stays.
    /// Returns how many were dropped.
    pub fn sweep(&self, now: Instant) -> usize {
        let mut games = self.games();
        let before = games.len();
        games.retain(|_, slot| {
            // The map holds one reference; any other is a socket, a task or a request.
            if Arc::strong_count(slot) > 1 {
                return true;
            }
            let Ok(live) = slot.live.try_lock() else {
                return true;
            };
            let idle = now.saturating_duration_since(live.used);
            let keep = if live.round.is_over() {
                self.settings.keep_finished
            } else {
                self.settings.keep_idle
            };
            live.engine_busy || idle < keep
        });
        before - games.len()
    }

    /// Sweeps the games in memory every few seconds, and ends correspondence games past
    /// their deadline every [`Settings::deadline_sweep`], for as long as the server runs.
    pub fn start_sweeping(self: &Arc<Self>) {
        let app = Arc::downgrade(self);
        let every = self.settings.deadline_sweep;
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let Some(app) = app.upgrade() else { break };
                if let Err(error) = app.end_overdue_games(app.now_ms()).await {
                    tracing::warn!("cannot look for games past their deadline: {error}");
                }
            }
        });
        let app = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(2));
            loop {
                tick.tick().await;
                let Some(app) = app.upgrade() else { break };
                let dropped = app.sweep(app.now());
                if dropped > 0 {
                    tracing::debug!(
                        dropped,
                        in_memory = app.games_in_memory(),
                        "idle games left memory"
                    );
                }
            }
        });
    }
}
