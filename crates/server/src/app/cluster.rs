//! Several servers on one database: bringing copies up to the stored version, hearing
//! other servers' notes, and taking engine jobs any server may carry out.

use super::*;

impl App {
    /// With several servers: brings the game up to the stored version before its state is
    /// shown (a seat bound or a state asked for), so that no state comes from an old copy.
    pub async fn catch_up(&self, slot: &Arc<GameSlot>) {
        if !self.database.is_shared() {
            return;
        }
        let mut live = slot.live.lock().await;
        // Mostly the copy is at the stored version, which a look at the version alone tells.
        if let Ok(Some(stored)) = self.database.stored_version(&live.round.id).await
            && stored <= live.round.version
        {
            return;
        }
        self.refresh_locked(slot, &mut live).await;
    }

    /// Reads the game again from the store and, if the store holds a newer version (stored
    /// by another server), makes it the round and tells the sockets; says whether it did.
    pub(super) async fn refresh_locked(&self, slot: &Arc<GameSlot>, live: &mut Live) -> bool {
        let id = live.round.id.clone();
        let stored = match self.database.load(&id).await {
            Ok(Some(stored)) => stored,
            Ok(None) => return false,
            Err(error) => {
                tracing::warn!(game = %id, "cannot read the game again: {error}");
                return false;
            }
        };
        if stored.version <= live.round.version {
            return false;
        }
        self.install(slot, live, self.held(stored));
        true
    }

    /// Makes `newer` (a newer version of the game, stored by another server) the round and
    /// tells the sockets what changed.
    fn install(&self, slot: &Arc<GameSlot>, live: &mut Live, newer: Round) {
        let same = live
            .round
            .game
            .moves()
            .iter()
            .zip(newer.game.moves())
            .take_while(|(a, b)| a == b)
            .count();
        live.round = newer;
        slot.guard_board(&live.round);
        live.records.truncate(same);
        live.sync_records();
        if let Some(stop) = live.engine_stop.take() {
            stop.stop();
        }
        self.publish(slot, live);
    }

    /// Brings game `id` up to `version` if it is in memory and older: from the change the
    /// notification carried when it fits the copy, else by reading the game again. Whether
    /// the copy was older and is now newer (the change was made elsewhere).
    pub(super) async fn heard(
        self: &Arc<Self>,
        id: &str,
        version: Option<u64>,
        note: Option<&str>,
    ) -> bool {
        let Some(slot) = self.games().get(id).cloned() else {
            return false;
        };
        let mut live = slot.live.lock().await;
        let before = live.round.version;
        if version.is_some_and(|v| v <= before) {
            // Already so here (this server's own change comes back too): nothing to read.
            return false;
        }
        let note = crate::store::Heard::note(note);
        let newer = match (version, note.as_ref()) {
            (Some(version), Some(note)) => crate::store::apply_note(&live.round, version, note)
                .inspect_err(|why| tracing::debug!(game = id, "a note read again: {why}"))
                .ok(),
            _ => None,
        };
        match newer {
            Some(newer) => self.install(&slot, &mut live, newer),
            None => {
                if version.is_some() {
                    self.games_read_again.fetch_add(1, Ordering::Relaxed);
                }
                self.refresh_locked(&slot, &mut live).await;
            }
        }
        let newer = live.round.version > before;
        drop(live);
        self.after_change(&slot);
        newer
    }

    /// How many times a game in memory was read again from the store because another
    /// server's notification of a change did not carry the change (or it did not fit the
    /// copy); reads after a lost connection to the database are not counted.
    pub fn games_read_again(&self) -> u64 {
        self.games_read_again.load(Ordering::Relaxed)
    }

    /// How many games this server let go from memory on hearing that another server changed
    /// them, as a value that can be waited on.
    pub fn games_let_go(&self) -> tokio::sync::watch::Receiver<u64> {
        self.games_let_go.subscribe()
    }

    fn let_go(&self, games: &mut HashMap<String, Arc<GameSlot>>, id: &str) {
        if games.remove(id).is_some() {
            self.games_let_go.send_modify(|count| *count += 1);
        }
    }

    /// Brings game `id` up to `version` if it is in memory and older: for changes stored
    /// outside the path of actions (a deleted account's seats renamed).
    pub async fn changed_in_store(self: &Arc<Self>, id: &str, version: u64) {
        self.heard(id, Some(version), None).await;
    }

    /// Whether this server should bring game `id` up to date on hearing that it was stored at
    /// `version`: only when it holds the game for a socket, a task or a request, or the
    /// change is one it made itself. A game held with no use that another server changed
    /// (made here and played on its owner, say) is let go instead, and read again should it
    /// be wanted, rather than followed move by move.
    fn keeps_up_with(&self, id: &str, version: u64) -> bool {
        let mut games = self.games();
        let Some(slot) = games.get(id) else {
            return false;
        };
        // The map holds one reference; any other is a socket, a task or a request. A slot is
        // only taken from the map under its lock, so none is taken while this looks.
        let (already, unused) = match slot.live.try_lock() {
            Ok(live) => (
                live.round.version >= version,
                Arc::strong_count(slot) == 1 && !live.engine_busy,
            ),
            // Busy: followed, and let go afterwards if the change was another server's.
            Err(_) => (false, false),
        };
        if already {
            // This server's own change heard back: nothing to do.
            return false;
        }
        if unused {
            self.let_go(&mut games, id);
        }
        !unused
    }

    /// Lets game `id` go from memory if nothing holds it now: after following a change made
    /// elsewhere to a game that was in use only while the change was heard.
    /// Still held (by a request, a task or a feature looking at every game), it is marked
    /// and let go at a later beat once nothing holds it, unless a socket has come meanwhile.
    fn let_go_if_unused(&self, id: &str) {
        let mut games = self.games();
        let Some(slot) = games.get(id) else {
            return;
        };
        let unused = Arc::strong_count(slot) == 1
            && slot.live.try_lock().is_ok_and(|live| !live.engine_busy);
        if unused {
            self.let_go(&mut games, id);
        } else {
            slot.let_go_when_free.store(true, Ordering::Relaxed);
        }
    }

    /// Lets go the games marked by [`App::let_go_if_unused`] that nothing holds now (no
    /// socket, request or task); one this server changed since is no longer marked.
    pub(super) fn let_go_held_for_nobody(&self) {
        let mut games = self.games();
        let marked: Vec<String> = games
            .iter()
            .filter(|(_, slot)| slot.let_go_when_free.load(Ordering::Relaxed))
            .map(|(id, _)| id.clone())
            .collect();
        for id in marked {
            let Some(slot) = games.get(&id) else { continue };
            // A socket holds the game as long as it is open, so it is kept meanwhile.
            let unused = Arc::strong_count(slot) == 1
                && slot.live.try_lock().is_ok_and(|live| !live.engine_busy);
            if unused {
                self.let_go(&mut games, &id);
            }
        }
    }

    /// With a database shared by several servers: listens for the changes the others
    /// store, and brings the games in memory up to date (all of them after a lost
    /// connection, when a change may have been missed).
    pub fn start_listening(self: &Arc<Self>) {
        if !self.database.is_shared() {
            return;
        }
        let (tx, mut heard) = tokio::sync::mpsc::channel(1024);
        self.database.listen(tx);
        let app = Arc::downgrade(self);
        tokio::spawn(async move {
            while let Some(message) = heard.recv().await {
                let Some(app) = app.upgrade() else { break };
                match message {
                    crate::store::Heard::Job => app.jobs.notify_one(),
                    crate::store::Heard::Changed { id, version, note } => {
                        // Each game catches up on its own: one slow read holds up no other.
                        // A game this server does not hold needs nothing: with the games'
                        // requests routed to their owner, that is most of what it hears.
                        if !app.keeps_up_with(&id, version) {
                            continue;
                        }
                        tokio::spawn(async move {
                            if app.heard(&id, Some(version), note.as_deref()).await {
                                app.let_go_if_unused(&id);
                            }
                        });
                    }
                    crate::store::Heard::Gap => {
                        let ids: Vec<String> = app.games().keys().cloned().collect();
                        for id in &ids {
                            // A game followed here only because it was held just then is let
                            // go as after a change heard one by one; otherwise the change's
                            // own notice, arriving after this, finds nothing to follow and
                            // the game would stay in memory for good.
                            if app.heard(id, None, None).await {
                                app.let_go_if_unused(id);
                            }
                        }
                        let slots: Vec<Arc<GameSlot>> = app.games().values().cloned().collect();
                        app.refresh_presence(&slots).await;
                        app.tell(Happening::Heard(Arc::new(crate::store::Heard::Gap)))
                            .await;
                    }
                    crate::store::Heard::Presence { id, server } => {
                        // What this server's own sockets did, it knows already.
                        if server.as_deref() == Some(app.server_name.as_str()) {
                            continue;
                        }
                        let slot = app.games().get(&id).cloned();
                        if let Some(slot) = slot {
                            app.refresh_presence(&[slot]).await;
                        }
                    }
                    // The chat's lines and mutes, the lobby's seeks: for their features.
                    heard => app.tell(Happening::Heard(Arc::new(heard))).await,
                }
            }
        });
    }

    /// With a shared database: takes the engine jobs (moves and draw answers) of any game
    /// while this server has a free engine, and carries them out. A job is held by a lease
    /// renewed while the engine searches; a server that dies lets another take it.
    pub fn start_engine_jobs(self: &Arc<Self>) {
        if !self.database.is_shared() {
            return;
        }
        let app = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                let Some(strong) = app.upgrade() else { break };
                let _ =
                    tokio::time::timeout(Duration::from_millis(500), strong.jobs.notified()).await;
                if *strong.stopping.borrow() {
                    break;
                }
                while strong.jobs_running.load(Ordering::SeqCst) < strong.engines.size() {
                    match strong.database.take_job(&strong.server_name).await {
                        Ok(Some((id, version))) => {
                            strong.jobs_running.fetch_add(1, Ordering::SeqCst);
                            let app = Arc::clone(&strong);
                            tokio::spawn(async move {
                                app.engine_job(&id, version).await;
                                app.jobs_running.fetch_sub(1, Ordering::SeqCst);
                            });
                        }
                        Ok(None) => break,
                        Err(error) => {
                            tracing::warn!("cannot take an engine job: {error}");
                            break;
                        }
                    }
                }
            }
        });
    }

    /// One engine job: the game brought up to date, the engine's turn, the lease renewed
    /// meanwhile; a job not done is given back.
    pub(super) async fn engine_job(self: &Arc<Self>, id: &str, version: u64) {
        let slot = match self.slot(id).await {
            Ok(slot) => slot,
            Err(error) => {
                tracing::warn!(game = id, "an engine job's game cannot be read: {error:?}");
                let _ = self.database.release_job(&self.server_name, id).await;
                return;
            }
        };
        self.heard(id, Some(version), None).await;
        {
            let mut live = slot.live.lock().await;
            if live.engine_busy {
                return;
            }
            live.engine_busy = true;
        }
        let renewing = {
            let app = Arc::clone(self);
            let id = id.to_string();
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(Duration::from_millis(
                        (crate::store::JOB_LEASE_MS / 3) as u64,
                    ))
                    .await;
                    if let Err(error) = app.database.renew_job(&app.server_name, &id).await {
                        tracing::warn!(game = %id, "cannot renew an engine job: {error}");
                    }
                }
            })
        };
        self.engine_turn(&slot).await;
        renewing.abort();
        // Done jobs are gone (the stored answer removed them); anything else is given back.
        if let Err(error) = self.database.release_job(&self.server_name, id).await {
            tracing::warn!(game = id, "cannot give an engine job back: {error}");
        }
    }
}
