//! `bashni play`: Bashni and Russian draughts as a full-screen game in the terminal.
//!
//! [`App`] holds the whole state of the screen and knows nothing of the terminal: feed it
//! keys with [`App::handle_key`], call [`App::tick`] about ten times a second (it collects
//! the engine's moves from a background thread and runs the clocks) and paint it with
//! [`App::draw`]. [`run`] does that on the real terminal, and tests do it on ratatui's
//! `TestBackend`.
//!
//! ```
//! use bashni_rules::Variant;
//! use bashni_tui::{App, Config};
//! use ratatui::{Terminal, backend::TestBackend};
//!
//! let app = App::new(Config::new(Variant::Bashni)).unwrap();
//! let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
//! terminal.draw(|frame| app.draw(frame)).unwrap();
//! ```

mod app;
mod commands;
mod config;
mod keys;
mod picking;
mod records;
mod run;
mod thinking;
mod view;
mod worker;

pub use app::App;
pub use config::{Config, colors_wanted};
pub use run::run;
pub use view::{MIN_HEIGHT, MIN_WIDTH};
