//! Whether the players are there, and what the other may claim when one leaves.
//!
//! A player is online while a socket is bound to their seat, on any server. Each server
//! counts its own sockets; with PostgreSQL it also writes its count per seat to the table
//! `presence` when a seat's first socket comes or its last goes (and announces it), and
//! renews the counts of open sockets every [`Settings::presence_beat`]: a server that dies
//! stops renewing, and its sockets count as gone three beats after their last renewal.
//!
//! In a game between two people online, with a clock or without one (not correspondence:
//! its deadlines end it), once both sides have moved, the side to move's player may leave:
//! when they have been offline for [`Settings::abandon_after`] of their turn, the other
//! player may claim the win or a draw. The result is stored with the reason code
//! `abandoned`. Before both sides have moved, a tournament or rated game has a time for the
//! first move instead (see [`Round::first_move_due`](crate::game::round::Round::first_move_due)).
//!
//! [`Settings::presence_beat`]: crate::app::Settings::presence_beat
//! [`Settings::abandon_after`]: crate::app::Settings::abandon_after

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use bashni_rules::{Color, GameResult};

use crate::app::{Acted, ActionError, Answer, App, GameSlot};
use crate::game::room::side_index;
use crate::game::round::{Mode, Round, RoundError, Seat, millis};
use crate::game::view::{Away, Seen};
use crate::store::Change;
use crate::texts::{Text, text};

/// How many beats a server's report of a socket counts after it was last renewed.
const BEATS_FRESH: u32 = 3;

/// Reports of presence older than this are deleted from the database.
const FORGET_AFTER: Duration = Duration::from_secs(24 * 3600);

/// Old reports are looked for once in this many beats (an hour at the usual beat).
const FORGET_EVERY_BEATS: u64 = 720;

/// Seats whose counts of sockets changed, waiting to be written (see
/// [`App::seat_moved`]): per game, the sides that turned.
#[derive(Default)]
pub(crate) struct PresenceWaiting {
    seats: std::collections::HashMap<String, (Arc<GameSlot>, Vec<Color>)>,
}

impl PresenceWaiting {
    /// Adds the sides `turned` of game `id`.
    fn add(&mut self, id: String, slot: Arc<GameSlot>, turned: Vec<Color>) {
        let (_, colors) = self.seats.entry(id).or_insert_with(|| (slot, Vec::new()));
        for color in turned {
            if !colors.contains(&color) {
                colors.push(color);
            }
        }
    }
}

/// What the other servers report about one seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Remote {
    online: bool,
    seen_ms: Option<i64>,
}

/// Who is there in one game, as this server knows it.
#[derive(Debug)]
pub struct Presence {
    /// Sockets bound to each side's seat on this server (White, Black).
    local: [usize; 2],
    /// When this server's last socket of each side went (ms since 1970).
    local_gone_ms: [Option<i64>; 2],
    /// What the other servers report (a shared database only).
    remote: [Remote; 2],
    /// Nobody counts as away from before this time (ms since 1970): with one server, when
    /// it took the game into memory, so that a restart gives every player their time again.
    floor_ms: i64,
    /// How long the side to move may be away before the other may claim.
    wait_ms: i64,
}

/// The colours a seat plays.
fn colors_of(seat: Option<Seat>) -> &'static [Color] {
    match seat {
        Some(Seat::White) => &[Color::White],
        Some(Seat::Black) => &[Color::Black],
        Some(Seat::Both) => &[Color::White, Color::Black],
        Some(Seat::Engine) | None => &[],
    }
}

impl Presence {
    /// Nobody there yet; nobody away from before `floor_ms`; a claim after `wait`.
    pub fn new(floor_ms: i64, wait: Duration) -> Presence {
        Presence {
            local: [0; 2],
            local_gone_ms: [None; 2],
            remote: [Remote::default(); 2],
            floor_ms,
            wait_ms: millis(wait),
        }
    }

    /// A socket bound to `from` now is bound to `to` (`None`: a watcher's, or closed).
    /// Returns the sides whose count of sockets here went from none to some or back.
    pub fn moved(&mut self, from: Option<Seat>, to: Option<Seat>, now_ms: i64) -> Vec<Color> {
        let before = self.local;
        for &color in colors_of(from) {
            let count = &mut self.local[side_index(color)];
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.local_gone_ms[side_index(color)] = Some(now_ms);
            }
        }
        for &color in colors_of(to) {
            self.local[side_index(color)] += 1;
        }
        [Color::White, Color::Black]
            .into_iter()
            .filter(|&c| (before[side_index(c)] == 0) != (self.local[side_index(c)] == 0))
            .collect()
    }

    /// How many sockets of each side are bound here.
    pub fn local(&self, color: Color) -> usize {
        self.local[side_index(color)]
    }

    /// Takes the other servers' report about `color`: online or not, last seen when.
    pub fn set_remote(&mut self, color: Color, online: bool, seen_ms: Option<i64>) {
        self.remote[side_index(color)] = Remote { online, seen_ms };
    }

    /// Whether `color`'s player has a socket bound anywhere.
    pub fn online(&self, color: Color) -> bool {
        self.local[side_index(color)] > 0 || self.remote[side_index(color)].online
    }

    /// The presence `round` shows at `now_ms`.
    pub fn seen(&self, round: &Round, now_ms: i64) -> Seen {
        let online = [Color::White, Color::Black].map(|color| {
            round.mode != Mode::Record && (round.engine_color == Some(color) || self.online(color))
        });
        let side = round.game.side_to_move();
        let away = (round.abandon_applies() && !online[side_index(side)]).then(|| {
            let i = side_index(side);
            let since_ms = [
                self.local_gone_ms[i],
                self.remote[i].seen_ms,
                Some(round.turn_ms),
                Some(self.floor_ms),
            ]
            .into_iter()
            .flatten()
            .max()
            .unwrap_or(now_ms);
            Away {
                side,
                since_ms,
                claim_at_ms: since_ms.saturating_add(self.wait_ms),
            }
        });
        Seen { online, away }
    }
}

/// Locks a game's presence (a panic elsewhere leaves it usable).
pub fn lock(presence: &Mutex<Presence>) -> MutexGuard<'_, Presence> {
    presence.lock().unwrap_or_else(|p| p.into_inner())
}

/// What a player claims when the opponent left.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AbandonClaim {
    /// The win.
    Win,
    /// A draw.
    Draw,
}

impl AbandonClaim {
    /// The claim named `name`.
    pub fn parse(name: &str) -> Result<AbandonClaim, RoundError> {
        match name {
            "win" => Ok(AbandonClaim::Win),
            "draw" => Ok(AbandonClaim::Draw),
            other => Err(RoundError::Invalid(format!(
                "claim: expected win or draw, not {:?}",
                other.chars().take(20).collect::<String>()
            ))),
        }
    }
}

fn seconds(ms: i64) -> i64 {
    (ms.max(0) + 999) / 1000
}

impl Round {
    /// Whether the side to move may be claimed against when its player leaves: a game
    /// between two people online, with a clock or without one (a correspondence game ends
    /// by its deadlines instead), once both sides have moved, not over.
    pub fn abandon_applies(&self) -> bool {
        self.mode == Mode::Friend
            && self.correspondence.is_none()
            && self.seated()
            && !self.is_over()
            && self.both_have_moved()
    }

    /// `seat` claims the win or a draw because the side to move's player left (`away`, as
    /// [`Presence::seen`] tells it at `now_ms`; `None` when they are online).
    pub fn claim_abandoned(
        &mut self,
        seat: Seat,
        claim: AbandonClaim,
        away: Option<Away>,
        now_ms: i64,
        now: Instant,
    ) -> Result<(), RoundError> {
        let conflict = |text: Text| Err(RoundError::Conflict(text));
        if self.is_over() {
            return conflict(text!("round-game-over"));
        }
        if self.mode != Mode::Friend {
            return conflict(text!("claim-friend-only"));
        }
        if self.correspondence.is_some() {
            return conflict(text!("claim-correspondence"));
        }
        if !self.both_have_moved() {
            return conflict(text!("claim-before-both-moved"));
        }
        let claimer = match seat {
            Seat::White => Color::White,
            Seat::Black => Color::Black,
            Seat::Both | Seat::Engine => {
                return Err(RoundError::Forbidden(text!("claim-not-player")));
            }
        };
        let mover = self.game.side_to_move();
        if claimer == mover {
            return conflict(text!("claim-own-turn"));
        }
        let Some(away) = away.filter(|a| a.side == mover) else {
            return conflict(text!("claim-opponent-online", mover = mover.code()));
        };
        if now_ms < away.claim_at_ms {
            return conflict(text!(
                "claim-too-early",
                mover = mover.code(),
                away = (now_ms - away.since_ms).max(0) / 1000,
                after = seconds(away.claim_at_ms - away.since_ms),
                left = seconds(away.claim_at_ms - now_ms)
            ));
        }
        self.abandoned = Some(match claim {
            AbandonClaim::Win => GameResult::win_for(claimer),
            AbandonClaim::Draw => GameResult::Draw,
        });
        // An open draw offer goes with the game.
        if let Some(by) = self.game.draw_offer() {
            let _ = self.game.decline_draw(by.opponent());
        }
        self.settle_clock(now);
        self.touch();
        Ok(())
    }
}

/// The holder of `token` claims the win or a draw because the opponent left (see
/// [`Round::claim_abandoned`]). With several servers, their reports are read first.
pub async fn claim(
    app: &Arc<App>,
    slot: &Arc<GameSlot>,
    token: Option<&str>,
    claim: AbandonClaim,
    seen: Option<usize>,
    answer: Answer<'_>,
) -> Result<Acted, ActionError> {
    app.refresh_presence(std::slice::from_ref(slot)).await;
    let presence = Arc::clone(&slot.presence);
    let (_, acted) = app
        .act(slot, answer, move |round| {
            let seat = round.require_seat(token)?;
            round.require_ply(seen)?;
            let now = app.now_ms();
            let away = lock(&presence).seen(round, now).away;
            round.claim_abandoned(seat, claim, away, now, app.now())?;
            Ok(((), Some(Change::Game)))
        })
        .await?;
    Ok(acted)
}

impl App {
    /// A socket of `slot` bound to `from` is now bound to `to` (`None`: a watcher's, or
    /// closed). When that changes who is online, the sockets are sent an update; with
    /// several servers the change is stored and announced.
    pub async fn seat_moved(
        self: &Arc<Self>,
        slot: &Arc<GameSlot>,
        from: Option<Seat>,
        to: Option<Seat>,
    ) {
        if from == to {
            return;
        }
        let now = self.now_ms();
        let (id, turned) = {
            let live = slot.live.lock().await;
            let mut presence = lock(&slot.presence);
            let before = presence.seen(&live.round, now);
            let turned = presence.moved(from, to, now);
            let after = presence.seen(&live.round, now);
            drop(presence);
            if before != after {
                self.publish(slot, &live);
            }
            (live.round.id.clone(), turned)
        };
        if !turned.is_empty() && self.database.is_shared() {
            self.write_presence_soon(id, Arc::clone(slot), turned).await;
        }
    }

    /// Writes this server's counts of sockets for the sides `turned` of game `id` and announces
    /// the change, together with the others waiting meanwhile (a group commit: sockets that
    /// come at once cost one write); returns once they are written.
    async fn write_presence_soon(&self, id: String, slot: Arc<GameSlot>, turned: Vec<Color>) {
        self.presence_waiting
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .add(id, slot, turned);
        let _writing = self.presence_writes.lock().await;
        // Whoever writes takes everything waiting: ours may be written already.
        let waiting = std::mem::take(
            &mut *self
                .presence_waiting
                .lock()
                .unwrap_or_else(|p| p.into_inner()),
        );
        if waiting.seats.is_empty() {
            return;
        }
        let seats: Vec<(String, Arc<GameSlot>, Vec<Color>)> = waiting
            .seats
            .into_iter()
            .map(|(id, (slot, colors))| (id, slot, colors))
            .collect();
        let announce: Vec<String> = seats.iter().map(|(id, _, _)| id.clone()).collect();
        self.write_presence_held(&seats, &announce).await;
    }

    /// Writes this server's counts of sockets for the listed sides of each game, as they
    /// are when the write begins (writes never overtake each other), and announces a change
    /// in the games of `announce`.
    async fn write_presence(
        &self,
        seats: &[(String, Arc<GameSlot>, Vec<Color>)],
        announce: &[String],
    ) {
        let _writing = self.presence_writes.lock().await;
        self.write_presence_held(seats, announce).await;
    }

    /// [`App::write_presence`] with the writers' lock held.
    async fn write_presence_held(
        &self,
        seats: &[(String, Arc<GameSlot>, Vec<Color>)],
        announce: &[String],
    ) {
        let rows: Vec<(String, &'static str, i32)> = seats
            .iter()
            .flat_map(|(id, slot, colors)| {
                let presence = lock(&slot.presence);
                colors
                    .iter()
                    .map(|&color| {
                        let count = i32::try_from(presence.local(color)).unwrap_or(i32::MAX);
                        (id.clone(), color.code(), count)
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        if rows.is_empty() && announce.is_empty() {
            return;
        }
        let written = self
            .database
            .presence_beat(&self.server_name, &rows, announce, self.now_ms())
            .await;
        if let Err(error) = written {
            tracing::warn!("cannot write who is online: {error}");
        }
    }

    /// With several servers: reads what the others report about the seats of `slots`, and
    /// sends an update where that changes who is online.
    pub async fn refresh_presence(&self, slots: &[Arc<GameSlot>]) {
        if !self.database.is_shared() || slots.is_empty() {
            return;
        }
        let mut ids = Vec::with_capacity(slots.len());
        for slot in slots {
            ids.push(slot.live.lock().await.round.id.clone());
        }
        let now = self.now_ms();
        let fresh_since = now - millis(self.settings.presence_beat) * i64::from(BEATS_FRESH);
        let reports = match self
            .database
            .presence_of(&ids, &self.server_name, fresh_since)
            .await
        {
            Ok(reports) => reports,
            Err(error) => {
                tracing::warn!("cannot read who is online: {error}");
                return;
            }
        };
        for (id, slot) in ids.iter().zip(slots) {
            let live = slot.live.lock().await;
            let mut presence = lock(&slot.presence);
            let before = presence.seen(&live.round, now);
            for color in [Color::White, Color::Black] {
                let report = reports
                    .iter()
                    .find(|r| &r.game == id && r.side == color.code());
                presence.set_remote(
                    color,
                    report.is_some_and(|r| r.online),
                    report.map(|r| r.seen_ms),
                );
            }
            let changed = presence.seen(&live.round, now) != before;
            drop(presence);
            if changed {
                self.publish(slot, &live);
            }
        }
    }

    /// With several servers: renews this server's reports of its sockets every beat, reads
    /// the others' for the games watched here, and forgets day-old reports now and then.
    pub fn start_presence(self: &Arc<Self>) {
        if !self.database.is_shared() {
            return;
        }
        let app = Arc::downgrade(self);
        let beat = self.settings.presence_beat;
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(beat);
            let mut beats: u64 = 0;
            loop {
                tick.tick().await;
                let Some(app) = app.upgrade() else { break };
                app.let_go_held_for_nobody();
                let watched: Vec<(String, Arc<GameSlot>)> = app
                    .games()
                    .iter()
                    .filter(|(_, slot)| {
                        let presence = lock(&slot.presence);
                        slot.events.receiver_count() > 0
                            || presence.local(Color::White) > 0
                            || presence.local(Color::Black) > 0
                    })
                    .map(|(id, slot)| (id.clone(), Arc::clone(slot)))
                    .collect();
                let seats: Vec<(String, Arc<GameSlot>, Vec<Color>)> = watched
                    .iter()
                    .map(|(id, slot)| {
                        let presence = lock(&slot.presence);
                        let colors = [Color::White, Color::Black]
                            .into_iter()
                            .filter(|&c| presence.local(c) > 0)
                            .collect();
                        (id.clone(), Arc::clone(slot), colors)
                    })
                    .collect();
                app.write_presence(&seats, &[]).await;
                let slots: Vec<Arc<GameSlot>> = watched.into_iter().map(|(_, slot)| slot).collect();
                app.refresh_presence(&slots).await;
                beats += 1;
                if beats.is_multiple_of(FORGET_EVERY_BEATS) {
                    let before = app.now_ms() - millis(FORGET_AFTER);
                    if let Err(error) = app.database.forget_presence(before).await {
                        tracing::warn!("cannot forget old reports of who is online: {error}");
                    }
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bashni_rules::{Position, TimeControl, Variant};

    const WAIT: Duration = Duration::from_secs(60);

    /// A friend game with a clock in which both sides have moved, White to move, the last
    /// move made at `turn_ms`.
    fn running(turn_ms: i64) -> Result<Round, RoundError> {
        let mut round = Round::new(
            "p".into(),
            Mode::Friend,
            Position::start(Variant::Russian),
            Some(TimeControl {
                base: Duration::from_secs(300),
                increment: Duration::ZERO,
            }),
        );
        for (color, token) in [(Color::White, "w"), (Color::Black, "b")] {
            let player = round.player_mut(color);
            player.joined = true;
            player.token = Some(token.into());
        }
        let now = Instant::now();
        round.play(Seat::White, "c3-d4", false, now)?;
        round.play(Seat::Black, "f6-g5", false, now)?;
        round.turn_ms = turn_ms;
        Ok(round)
    }

    #[test]
    fn a_side_is_online_while_a_socket_of_its_seat_is_open_anywhere() -> Result<(), RoundError> {
        let round = running(1_000)?;
        let mut presence = Presence::new(0, WAIT);
        assert_eq!(presence.seen(&round, 2_000).online, [false, false]);
        assert_eq!(
            presence.moved(None, Some(Seat::White), 2_000),
            [Color::White]
        );
        assert_eq!(presence.moved(None, Some(Seat::White), 2_100), []);
        assert_eq!(presence.seen(&round, 2_200).online, [true, false]);
        assert_eq!(presence.moved(Some(Seat::White), None, 3_000), []);
        assert_eq!(
            presence.moved(Some(Seat::White), None, 4_000),
            [Color::White]
        );
        assert_eq!(presence.seen(&round, 4_000).online, [false, false]);
        // Another server's socket counts as well.
        presence.set_remote(Color::White, true, Some(4_500));
        let seen = presence.seen(&round, 5_000);
        assert_eq!(seen.online, [true, false]);
        assert_eq!(seen.away, None);
        Ok(())
    }

    #[test]
    fn the_wait_counts_from_the_later_of_leaving_and_the_turn() -> Result<(), RoundError> {
        let mut round = running(10_000)?;
        let mut presence = Presence::new(0, WAIT);
        presence.moved(None, Some(Seat::White), 1_000);
        presence.moved(Some(Seat::White), None, 5_000);
        // White left before its turn began: the wait starts with the turn.
        let away = presence.seen(&round, 20_000).away;
        assert_eq!(
            away,
            Some(Away {
                side: Color::White,
                since_ms: 10_000,
                claim_at_ms: 70_000
            })
        );
        // Left during its turn: from then.
        presence.moved(None, Some(Seat::White), 21_000);
        assert_eq!(presence.seen(&round, 22_000).away, None);
        presence.moved(Some(Seat::White), None, 30_000);
        let away = presence
            .seen(&round, 31_000)
            .away
            .ok_or(RoundError::Invalid("no".into()))?;
        assert_eq!((away.since_ms, away.claim_at_ms), (30_000, 90_000));
        // Black, waiting, is not asked to be there.
        assert_eq!(away.side, Color::White);
        // Without a clock the same holds (seam 2: an untimed game is not waited for ever).
        round.clock = bashni_rules::Clock::new(None);
        assert_eq!(presence.seen(&round, 31_000).away, Some(away));
        // A correspondence game ends by its deadlines instead.
        round.correspondence = Some(
            crate::game::correspondence::Correspondence::new(1)
                .map_err(|e| RoundError::Invalid(e.to_string()))?,
        );
        assert_eq!(presence.seen(&round, 31_000).away, None);
        Ok(())
    }

    #[test]
    fn a_claim_needs_the_wait_and_ends_the_game_with_its_reason() -> Result<(), RoundError> {
        let now = Instant::now();
        let mut round = running(0)?;
        let mut presence = Presence::new(0, WAIT);
        presence.moved(None, Some(Seat::White), 0);
        let online = presence.seen(&round, 100_000).away;
        let refused =
            round
                .clone()
                .claim_abandoned(Seat::Black, AbandonClaim::Win, online, 100_000, now);
        assert!(
            matches!(refused, Err(RoundError::Conflict(m)) if m.to_string().contains("White is online"))
        );
        presence.moved(Some(Seat::White), None, 0);
        let away = presence.seen(&round, 30_000).away;
        let early =
            round
                .clone()
                .claim_abandoned(Seat::Black, AbandonClaim::Win, away, 30_000, now);
        assert!(
            matches!(&early, Err(RoundError::Conflict(m)) if m.to_string().contains("offline for 30 s") && m.to_string().contains("in 30 s")),
            "{early:?}"
        );
        let own_turn =
            round
                .clone()
                .claim_abandoned(Seat::White, AbandonClaim::Win, away, 60_000, now);
        assert!(
            matches!(own_turn, Err(RoundError::Conflict(m)) if m.to_string().contains("your turn"))
        );
        let version = round.version;
        round.claim_abandoned(Seat::Black, AbandonClaim::Win, away, 60_000, now)?;
        assert_eq!(round.version, version + 1);
        let ending = round
            .ending()
            .ok_or(RoundError::Invalid("not over".into()))?;
        assert_eq!(ending.score(), "0-1");
        assert_eq!(ending.code(), "abandoned");
        assert_eq!(ending.reason_text(), "White left the game");
        assert_eq!(round.running_clock(), None);
        let mut drawn = running(0)?;
        drawn.claim_abandoned(Seat::Black, AbandonClaim::Draw, away, 60_000, now)?;
        assert_eq!(drawn.ending().map(|e| e.score()), Some("1/2-1/2"));
        Ok(())
    }
}
