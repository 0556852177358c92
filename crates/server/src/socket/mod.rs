//! WebSockets: the game, lobby and analysis sockets. They read messages, call the domain and
//! send its answers; nothing here decides a rule.

pub mod analysis;
pub mod game;
pub mod lobby;
