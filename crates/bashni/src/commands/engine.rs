//! `bashni engine`: the engine speaking the protocol of `docs/protocol.md` on standard input
//! and output, one line at a time.

use std::error::Error;
use std::io::Write;
use std::process::ExitCode;

use bashni_engine::{Engine, Options};
use bashni_protocol::Session;

/// Runs the command until `quit` or the end of the input. A line longer than
/// [`bashni_protocol::MAX_LINE_BYTES`] is answered by `error` and skipped.
pub fn run() -> Result<ExitCode, Box<dyn Error>> {
    let mut session = Session::new(Engine::new(Options::default()), |line: &str| {
        let mut out = std::io::stdout().lock();
        // A GUI that has gone away closes our input too, which ends the session.
        let _ = writeln!(out, "{line}").and_then(|()| out.flush());
    });
    session.serve(std::io::stdin().lock())?;
    Ok(ExitCode::SUCCESS)
}
