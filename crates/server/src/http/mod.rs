//! HTTP: one file per resource. Handlers read a request, call the domain and translate its
//! answer or error; nothing here decides a rule.

pub mod accounts;
pub mod assets;
pub mod body;
pub mod diagram;
pub mod error;
pub mod export;
pub mod games;
pub mod puzzles;
pub mod ratings;
pub mod session;
pub mod tournaments;
pub mod turns;
