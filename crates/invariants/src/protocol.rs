//! The engine side of the protocol.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bashni_engine::{Engine, Options};
use bashni_protocol::{Flow, Line, Session};
use bashni_rules::notation::MoveText;

/// At most this many lines of one input are handled.
const MAX_LINES: usize = 64;

/// The longest a depth-2 search may take before the check calls it a hang.
const SEARCH_TIMEOUT: Duration = Duration::from_secs(20);

/// Feeds the bytes, line by line, to a protocol session with a small engine.
///
/// Searches are kept short: the session starts with `level depth=2`, every `level` line is
/// handled and then followed by `level depth=2`, and `set-param` lines that would make the
/// table larger than 2 MB or use more than 2 threads are skipped. After each line the
/// check waits for any search to end, then checks what the session said: every line it
/// wrote reads as a protocol line, no search failed, `ping` is answered by `pong`, and a
/// `go` is answered either by one `error` or by `info` lines and one `done` whose move is
/// written in the move notation. Input stops at `quit`.
pub fn protocol(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let said = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = Arc::clone(&said);
    let options = Options {
        hash_mb: 1,
        ..Options::default()
    };
    let mut session = Session::new(Engine::new(options), move |line: &str| {
        if let Ok(mut lines) = sink.lock() {
            lines.push(line.to_string());
        }
    });
    let send = |session: &mut Session, line: &str| -> (Flow, Vec<String>) {
        let flow = session.handle(line);
        let began = Instant::now();
        while session.is_searching() {
            assert!(
                began.elapsed() < SEARCH_TIMEOUT,
                "a depth-2 search after {line:?} did not end"
            );
            std::thread::sleep(Duration::from_micros(200));
        }
        let answer = match said.lock() {
            Ok(mut lines) => std::mem::take(&mut *lines),
            Err(_) => panic!("the output lock is poisoned"),
        };
        (flow, answer)
    };
    let (_, answer) = send(&mut session, "level depth=2");
    assert!(answer.is_empty(), "level depth=2 is answered by {answer:?}");
    for line in text.split('\n').take(MAX_LINES) {
        let parsed = Line::parse(line);
        let command = match &parsed {
            Ok(Some(parsed)) => parsed.command().to_string(),
            _ => String::new(),
        };
        if let Ok(Some(parsed)) = &parsed
            && command == "set-param"
            && too_big(parsed)
        {
            continue;
        }
        let (flow, answer) = send(&mut session, line);
        check_answer(line, &command, &answer);
        if flow == Flow::Quit {
            assert_eq!(command, "quit", "{line:?} ends the session");
            return;
        }
        if command == "level" {
            let (_, answer) = send(&mut session, "level depth=2");
            assert!(answer.is_empty(), "level depth=2 is answered by {answer:?}");
        }
    }
}

/// Whether a `set-param` line asks for a table or a thread count too big for fuzzing.
fn too_big(line: &Line) -> bool {
    let limit = match line.get("name") {
        Some("hash" | "threads") => 2,
        _ => return false,
    };
    line.get("value")
        .and_then(|value| value.parse::<u64>().ok())
        .is_some_and(|value| value > limit)
}

fn check_answer(line: &str, command: &str, answer: &[String]) {
    let mut lines = Vec::with_capacity(answer.len());
    for said in answer {
        match Line::parse(said) {
            Ok(Some(parsed)) => lines.push(parsed),
            other => panic!("the engine said {said:?}, which reads as {other:?} (after {line:?})"),
        }
        assert!(
            !said.contains("the search failed"),
            "a search panicked after {line:?}: {answer:?}"
        );
    }
    match command {
        "ping" => assert_eq!(answer, ["pong"], "the answer to {line:?}"),
        "go" => {
            let refused = lines.len() == 1 && lines[0].command() == "error";
            if refused {
                return;
            }
            let Some((done, infos)) = lines.split_last() else {
                panic!("{line:?} is answered by nothing");
            };
            assert_eq!(done.command(), "done", "{line:?} is answered by {answer:?}");
            assert!(
                infos.iter().all(|info| info.command() == "info"),
                "{line:?} is answered by {answer:?}"
            );
            for name in ["move", "ponder"] {
                if let Some(mv) = done.get(name) {
                    assert!(
                        MoveText::parse(mv).is_ok(),
                        "done {name}={mv:?} is not a move text"
                    );
                }
            }
        }
        _ => {}
    }
}
