//! A game on the server, without I/O: the round and its actions, its record's notes, the
//! correspondence deadline, the views players are sent, variations played from a position,
//! the fair-play rules, and the secrets that seat its players.

pub mod correspondence;
pub mod fair_play;
pub mod notes;
pub mod rated;
pub mod room;
pub mod round;
pub mod secret;
pub mod shown;
pub mod variation;
pub mod view;
