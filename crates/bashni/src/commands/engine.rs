//! `bashni engine`: the engine speaking the protocol of `docs/protocol.md` on standard input
//! and output, one line at a time.

use std::error::Error;
use std::io::{BufRead, Write};
use std::process::ExitCode;

use bashni_engine::{Engine, Options};
use bashni_protocol::{Flow, Session};

/// Runs the command until `quit` or the end of the input.
pub fn run() -> Result<ExitCode, Box<dyn Error>> {
    let mut session = Session::new(Engine::new(Options::default()), |line: &str| {
        let mut out = std::io::stdout().lock();
        // A GUI that has gone away closes our input too, which ends the loop below.
        let _ = writeln!(out, "{line}").and_then(|()| out.flush());
    });
    let mut input = std::io::stdin().lock();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        if input.read_until(b'\n', &mut buffer)? == 0 {
            session.finish();
            break;
        }
        if session.handle(&String::from_utf8_lossy(&buffer)) == Flow::Quit {
            break;
        }
    }
    Ok(ExitCode::SUCCESS)
}
