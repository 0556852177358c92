//! After every change: the engine's turn, the clock's flag, the game's end told to
//! whoever follows it.

use super::*;

/// What a change calls for, decided by [`App::after_change`].
struct AfterChange {
    /// Whether the engine is to play or answer here.
    engine_needed: bool,
    /// Milliseconds until the flag of the running clock (or the first move's time) falls.
    flag_in: Option<i64>,
    /// The game's version when this was decided.
    version: u64,
}

impl App {
    /// After any change: watch the clock, and start the engine if it is to move or to
    /// answer a draw offer. When the game is free this looks at once, and holds the game
    /// afterwards only for a clock to watch or an engine to run; a game with neither is
    /// left unheld (so that a server which hears of a change made elsewhere can let it go).
    pub fn after_change(self: &Arc<Self>, slot: &Arc<GameSlot>) {
        if let Ok(mut live) = slot.live.try_lock() {
            let next = self.next_after_change(&mut live);
            drop(live);
            self.carry_out(slot, next);
            return;
        }
        let app = Arc::clone(self);
        let slot = Arc::clone(slot);
        tokio::spawn(async move {
            let next = {
                let mut live = slot.live.lock().await;
                app.next_after_change(&mut live)
            };
            app.carry_out(&slot, next);
        });
    }

    /// What follows a change, decided under the game's lock: the engine's clock stopped and
    /// the engine marked busy when it is to play here, the game's end told.
    fn next_after_change(self: &Arc<Self>, live: &mut Live) -> AfterChange {
        let round = &live.round;
        let engine_needed =
            (round.engine_to_move() || round.engine_has_offer()) && !live.engine_busy;
        if engine_needed && live.round.engine_to_move() {
            // The engine's clock does not run while its move waits for an engine.
            live.round.clock.stop(self.now());
        }
        // With a shared database the engine's work is a job any server may take.
        let shared = self.database.is_shared();
        if shared && engine_needed {
            self.jobs.notify_one();
        }
        let engine_needed = engine_needed && !shared;
        if engine_needed {
            live.engine_busy = true;
        }
        let round = &live.round;
        if round.is_over() {
            let ended = Happening::GameOver(Arc::new(round.clone()));
            let app = Arc::clone(self);
            tokio::spawn(async move { app.tell(ended).await });
        }
        // The clock's flag, or the end of the time for a first move.
        let first_move_in = round
            .first_move_due()
            .map(|(_, deadline)| deadline - self.now_ms());
        let flag_in = round
            .running_clock()
            .and_then(|color| round.time_left(color, self.now()))
            .or(first_move_in);
        AfterChange {
            engine_needed,
            flag_in,
            version: round.version,
        }
    }

    /// Starts the flag's watch and the engine's turn that `next` asks for.
    fn carry_out(self: &Arc<Self>, slot: &Arc<GameSlot>, next: AfterChange) {
        if let Some(left) = next.flag_in {
            let app = Arc::clone(self);
            let slot = Arc::clone(slot);
            let version = next.version;
            tokio::spawn(async move {
                let wait = Duration::from_millis(left.max(0) as u64 + 5);
                tokio::time::sleep(wait).await;
                app.watch_flag(&slot, version).await;
            });
        }
        if next.engine_needed {
            let app = Arc::clone(self);
            let slot = Arc::clone(slot);
            tokio::spawn(async move { app.engine_turn(&slot).await });
        }
    }

    pub(super) async fn watch_flag(self: &Arc<Self>, slot: &Arc<GameSlot>, version: u64) {
        let mut live = slot.live.lock().await;
        if live.round.version != version {
            return;
        }
        match self.settle_flag(slot, &mut live).await {
            Ok(true) => {}
            Ok(false) => {
                drop(live);
                // The clock was not yet out (the timer fired early): look again.
                self.after_change(slot);
            }
            Err(_) => {
                drop(live);
                // Logged where it failed; try again shortly.
                tokio::time::sleep(Duration::from_secs(1)).await;
                self.after_change(slot);
            }
        }
    }

    /// The engine's move or draw answer in a game: waits for an engine (games come before
    /// analyses), searches, and stores the answer, trying again until it is stored or the
    /// game has changed.
    pub(super) async fn engine_turn(self: &Arc<Self>, slot: &Arc<GameSlot>) {
        let Some(lent) = self.engines.lend(Priority::Game).await else {
            self.engine_done(slot).await;
            return;
        };
        let stop = StopToken::new();
        let job = {
            let mut live = slot.live.lock().await;
            let round = &mut live.round;
            let now = self.now();
            let job = if round.engine_to_move() {
                round.engine_starts_thinking(now);
                let engine = round.engine_color.unwrap_or(bashni_rules::Color::White);
                let mut limits = Limits::default().with_stop(stop.clone());
                match EngineClock::of_game(&round.clock, engine, now) {
                    Some(clock) => limits.clock = Some(clock),
                    None => limits.movetime = Some(UNTIMED_MOVE_TIME),
                }
                let seed = round.version ^ (round.created_ms as u64).rotate_left(17);
                Some((true, round.game.clone(), limits, seed, round.engine_level()))
            } else if round.engine_has_offer() {
                Some((
                    false,
                    round.game.clone(),
                    Limits::default(),
                    0,
                    round.engine_level(),
                ))
            } else {
                None
            };
            if let Some((searching, ..)) = &job {
                live.thinking = *searching;
                live.engine_stop = Some(stop.clone());
                self.publish(slot, &live);
            }
            job.map(|job| (job, live.round.version))
        };
        let Some(((searching, game, limits, seed, level), version)) = job else {
            drop(lent);
            self.engine_done(slot).await;
            return;
        };
        let answer = tokio::task::spawn_blocking(move || {
            let answer = if searching {
                let past = Past::of(&game);
                let result = level.choose(lent.engine(), game.position(), &past, &limits, seed);
                EngineAnswer::Move(result.best)
            } else {
                EngineAnswer::Draw(level.accepts_draw(lent.engine(), &game))
            };
            drop(lent);
            answer
        })
        .await
        .unwrap_or(EngineAnswer::Move(None));
        let mut wait = Duration::from_millis(200);
        loop {
            match self.engine_commit(slot, version, &answer).await {
                Ok(()) => break,
                Err(EngineCommit::GameChanged) => break,
                Err(EngineCommit::Failed) => {
                    // Logged where it failed; the engine's answer is kept and stored later.
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(Duration::from_secs(5));
                }
            }
        }
        self.engine_done(slot).await;
    }

    async fn engine_commit(
        &self,
        slot: &Arc<GameSlot>,
        version: u64,
        answer: &EngineAnswer,
    ) -> Result<(), EngineCommit> {
        let mut live = slot.live.lock().await;
        if live.round.version != version {
            return Err(EngineCommit::GameChanged);
        }
        let mut next = live.round.clone();
        let now = self.now();
        let change = match answer {
            EngineAnswer::Move(Some(mv)) => next.play_engine_move(mv, now).map(|()| Change::Move),
            EngineAnswer::Move(None) => {
                // Only a stopped search finds nothing; the next turn searches again.
                tracing::warn!(game = %next.id, "the engine's search ended without a move");
                return Err(EngineCommit::GameChanged);
            }
            EngineAnswer::Draw(accept) => next
                .engine_answers_draw(*accept, now)
                .map(|()| Change::Game),
        };
        let change = change.map_err(|error| {
            tracing::error!(game = %next.id, "the engine's answer was refused: {error}");
            EngineCommit::GameChanged
        })?;
        live.thinking = false;
        match self.commit(slot, &mut live, next, change, version).await {
            Ok(()) => Ok(()),
            Err(ActionError::Store(error)) if error.kind == StoreErrorKind::Stale => {
                Err(EngineCommit::GameChanged)
            }
            Err(_) => Err(EngineCommit::Failed),
        }
    }

    pub(super) async fn engine_done(self: &Arc<Self>, slot: &Arc<GameSlot>) {
        {
            let mut live = slot.live.lock().await;
            live.engine_busy = false;
            live.thinking = false;
            live.engine_stop = None;
        }
        self.after_change(slot);
    }
}

enum EngineAnswer {
    Move(Option<Move>),
    Draw(bool),
}

enum EngineCommit {
    GameChanged,
    Failed,
}
