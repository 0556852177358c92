//! One module per subcommand; each only translates between text and the libraries.

pub mod analyse;
pub mod bench;
pub mod diagram;
pub mod egtb;
pub mod engine;
pub mod learn;
pub mod matchplay;
pub mod moves;
pub mod openings;
pub mod pdn;
pub mod perft;
pub mod play;
pub mod puzzles;
pub mod serve;
pub mod tune;
