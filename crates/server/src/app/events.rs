//! What happens in the core that features follow: a game ended, a note heard from another
//! server. The core publishes; tournaments, the chat and the lobby subscribe when the server
//! is put together, so the core calls none of them by name.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, PoisonError, RwLock};

use crate::app::App;
use crate::game::round::Round;
use crate::store::Heard;

/// Something that happened.
#[derive(Clone, Debug)]
pub enum Happening {
    /// A game was stored ended (published again when an ended game is stored again).
    GameOver(Arc<Round>),
    /// A note from another server on a shared database, after the core has brought its own
    /// copies (games, presence) up to date with it.
    Heard(Arc<Heard>),
    /// Tournament `id` moved on (a new round paired, or the tournament finished) by this
    /// server.
    TournamentMoved(Arc<str>),
    /// The account with this id was deleted on this server: its sessions have ended, its
    /// seats show the placeholder name and its games between people are lost.
    AccountDeleted(i64),
}

/// What a subscriber does about a happening; the core waits for it before the next one.
pub type Reaction = Pin<Box<dyn Future<Output = ()> + Send>>;

/// A subscriber: sees every happening, reacts to those it follows.
pub type Subscriber = Arc<dyn Fn(Arc<App>, Happening) -> Reaction + Send + Sync>;

/// The subscribers, by name.
#[derive(Default)]
pub struct Subscribers(RwLock<Vec<(&'static str, Subscriber)>>);

impl Subscribers {
    /// Adds `subscriber` as `name`, replacing one of the same name.
    pub fn add(&self, name: &'static str, subscriber: Subscriber) {
        let mut list = self.0.write().unwrap_or_else(PoisonError::into_inner);
        list.retain(|(other, _)| *other != name);
        list.push((name, subscriber));
    }

    /// Every subscriber, in the order they came.
    pub fn all(&self) -> Vec<Subscriber> {
        let list = self.0.read().unwrap_or_else(PoisonError::into_inner);
        list.iter()
            .map(|(_, subscriber)| Arc::clone(subscriber))
            .collect()
    }
}

impl App {
    /// Adds a subscriber to what happens in the core (see [`Happening`]).
    pub fn subscribe(&self, name: &'static str, subscriber: Subscriber) {
        self.subscribers.add(name, subscriber);
    }

    /// Tells every subscriber, one after another.
    pub async fn tell(self: &Arc<Self>, happening: Happening) {
        for subscriber in self.subscribers.all() {
            subscriber(Arc::clone(self), happening.clone()).await;
        }
    }
}
