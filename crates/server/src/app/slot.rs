//! A game in memory: its round under a lock, and the events its sockets hear.

use super::*;

/// What a game's sockets hear: a change, a chat line, a mute.
pub enum Event {
    /// The game changed: each socket sends its client what changed for it.
    Update {
        /// The version after the change.
        version: u64,
        /// Its number among the game's updates (see [`GameSlot::published`]).
        number: u64,
    },
    /// A stored chat line, as the socket message: sent to the sockets that may read its
    /// room, except those of the side that mutes its author.
    Chat {
        /// The line's room.
        room: Room,
        /// The socket message.
        text: String,
        /// The side that mutes the line's author, if any.
        hidden_from: Option<Color>,
    },
    /// A player muted or unmuted the other: that seat's sockets are sent their chat again.
    Muted {
        /// The side that did.
        side: Color,
    },
}

/// A game held in memory.
pub struct GameSlot {
    /// The game.
    pub live: tokio::sync::Mutex<Live>,
    /// Every change, as the update each seat is sent.
    pub events: broadcast::Sender<Arc<Event>>,
    /// What features keep on this game (its chat as this server knows it).
    pub parts: Parts,
    /// Whether this server made the game and stored it just now: nothing else of it (chat
    /// lines, mutes) can be stored yet, so its features need not read them (any that another
    /// server stores later is announced like every other).
    pub made_here: bool,
    /// Who is there (shared with [`Live`], whose states show it).
    pub presence: Arc<std::sync::Mutex<Presence>>,
    /// How many updates were published (counted while the game's lock is held).
    pub(super) published: AtomicU64,
    /// The board the engine may not look at now ([`crate::game::fair_play::guarded_board`]).
    pub(super) board: AtomicU64,
    /// When the side to move's time for a first move runs out (ms since 1970; `i64::MAX`
    /// when it has none): see [`Round::first_move_due`](crate::game::round::Round::first_move_due).
    pub(super) first_move_by: AtomicI64,
    /// Whether a change another server made was followed here only because something held
    /// the game just then: let go once nothing does (see [`App::let_go_held_for_nobody`]).
    pub(super) let_go_when_free: std::sync::atomic::AtomicBool,
}

impl GameSlot {
    pub(super) fn new(
        round: Round,
        presence: Presence,
        time: Time,
        made_here: bool,
    ) -> Arc<GameSlot> {
        let (events, _) = broadcast::channel(32);
        let presence = Arc::new(std::sync::Mutex::new(presence));
        let board = AtomicU64::new(crate::game::fair_play::guarded_board(&round));
        let first_move_by = AtomicI64::new(first_move_by(&round));
        Arc::new(GameSlot {
            live: tokio::sync::Mutex::new(Live::new(round, Arc::clone(&presence), time)),
            events,
            parts: Parts::default(),
            made_here,
            presence,
            published: AtomicU64::new(0),
            board,
            first_move_by,
            let_go_when_free: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// How many updates were published: a whole state made while the game's lock is held
    /// says everything the updates numbered up to this one said (a socket that sent it may
    /// leave those out).
    pub fn published(&self) -> u64 {
        self.published.load(Ordering::SeqCst)
    }

    /// Notes what the round shows after a change: the board the engine may not look at, and
    /// the time for a first move.
    pub(super) fn guard_board(&self, round: &Round) {
        self.board.store(
            crate::game::fair_play::guarded_board(round),
            Ordering::Relaxed,
        );
        self.first_move_by
            .store(first_move_by(round), Ordering::Relaxed);
    }
}

/// When `round`'s time for a first move runs out, or `i64::MAX`.
pub(super) fn first_move_by(round: &Round) -> i64 {
    round.first_move_due().map_or(i64::MAX, |(_, by)| by)
}

/// A round in memory and what goes with it there.
pub struct Live {
    /// The round, always as stored.
    pub round: Round,
    /// The socket's record of each move ([`short_record`]), kept so a state is cheap to
    /// make.
    pub(super) records: Records,
    /// Whether an engine task looks after this game's move or draw answer.
    pub(super) engine_busy: bool,
    /// Whether the engine is searching now (its clock runs).
    pub thinking: bool,
    /// Stops the engine's present search.
    pub(super) engine_stop: Option<StopToken>,
    /// When the game was last used.
    pub(super) used: Instant,
    /// Who is there (see [`GameSlot::presence`]).
    pub(super) presence: Arc<std::sync::Mutex<Presence>>,
    /// The server's time, for the clocks and presence its states show.
    time: Time,
}

impl Live {
    pub(super) fn new(round: Round, presence: Arc<std::sync::Mutex<Presence>>, time: Time) -> Live {
        let mut live = Live {
            round,
            records: Records::default(),
            engine_busy: false,
            thinking: false,
            engine_stop: None,
            used: time.now(),
            presence,
            time,
        };
        live.sync_records();
        live
    }

    pub(super) fn sync_records(&mut self) {
        let ply = self.round.game.ply();
        self.records.truncate(ply);
        while self.records.len() < ply {
            match short_record(&self.round.game, self.records.len()) {
                Some(record) => self.records.push(record),
                None => break,
            }
        }
    }

    /// Who is there now, as the game's states show it.
    pub fn seen(&self) -> (Seen, i64) {
        let now = self.time.now_ms();
        (presence::lock(&self.presence).seen(&self.round, now), now)
    }

    fn looker<'a>(
        &self,
        records: &'a [Box<RawValue>],
        seat: Option<Seat>,
        form: Form,
    ) -> Looker<'a> {
        Looker {
            records,
            seat,
            engine_thinking: self.thinking,
            now: self.time.now(),
            seen: self.seen(),
            form,
        }
    }

    /// The whole state as `seat` sees it, every position spelt out (the HTTP API), as JSON
    /// text.
    pub fn state_text(&self, seat: Option<Seat>) -> StateText {
        let records = move_records(&self.round.game);
        let view = game_state(&self.round, self.looker(&records, seat, Form::Full));
        StateText {
            json: serde_json::to_string(&view).unwrap_or_default(),
            version: self.round.version,
        }
    }

    /// The socket message with the whole state as `seat` sees it; `shown` notes it.
    pub fn state_message(&self, seat: Option<Seat>, shown: &mut Shown) -> String {
        let view = game_state(&self.round, self.looker(&[], seat, Form::Short));
        shown.whole(&view, &self.records)
    }

    /// The socket message with what changed since `shown` for `seat`, if anything did.
    pub fn update_message(&self, seat: Option<Seat>, shown: &mut Shown) -> Option<String> {
        let view = update_view(&self.round, self.looker(&[], seat, Form::Short));
        shown.update(&view, &self.records)
    }
}

/// What an action answers besides its value.
#[derive(Clone, Copy, Debug)]
pub enum Answer<'a> {
    /// Only the version after the action (the WebSocket's acknowledgement).
    Version,
    /// Also the state right after it, as the holder of this token sees it.
    State(Option<&'a str>),
}

/// The version after an action and, if asked for, the state.
pub struct Acted {
    /// The version after the action.
    pub version: u64,
    /// The state right after the action.
    pub state: Option<StateText>,
}

/// A game's state, serialised once, and its version.
pub struct StateText {
    /// The JSON text.
    pub json: String,
    /// The state's version.
    pub version: u64,
}
