//! The client against programs that misbehave: they end, hang, or play illegal moves. (The
//! client against the real engine is tested with the `bashni` program, in the cli crate.)
#![cfg(unix)]

use std::process::Command;
use std::time::{Duration, Instant};

use bashni_engine::{Clock, Limits};
use bashni_protocol::{ClientError, ExternalEngine, Timeouts};
use bashni_rules::{Game, Variant};

const QUICK: Timeouts = Timeouts {
    start: Duration::from_millis(500),
    reply: Duration::from_millis(300),
    grace: Duration::from_millis(200),
    search: Duration::from_secs(2),
};

/// A shell script as an engine: it answers the handshake and `ping`, and `go` with `on_go`
/// (a shell command).
fn fake(on_go: &str) -> Command {
    let script = format!(
        r#"while read -r line; do
  case "$line" in
    hub*) echo 'id name=Fake author="A Tester"'; echo 'param name=hash value=1 type=int min=1 max=2'; echo wait ;;
    init*) echo ready ;;
    ping*) echo pong ;;
    quit*) exit 0 ;;
    go*) {on_go} ;;
  esac
done"#
    );
    let mut command = Command::new("sh");
    command.arg("-c").arg(script);
    command
}

#[test]
fn the_handshake_reads_id_and_params() {
    let engine =
        ExternalEngine::start_with(fake("true"), &[("hash", "2")], QUICK).expect("the fake starts");
    assert_eq!(engine.name(), "Fake");
    assert_eq!(
        engine.id().and_then(|id| id.get("author")),
        Some("A Tester")
    );
    assert_eq!(engine.params().len(), 1);
    assert_eq!(engine.params()[0].get("max"), Some("2"));
}

#[test]
fn a_program_that_ends_is_an_error() {
    let mut command = Command::new("sh");
    command.arg("-c").arg("exit 3");
    match ExternalEngine::start_with(command, &[], QUICK) {
        Err(ClientError::Exited(status)) => {
            assert_eq!(status.and_then(|s| s.code()), Some(3));
        }
        Err(error) => panic!("wrong error: {error}"),
        Ok(_) => panic!("a program that ends cannot start"),
    }
    assert!(matches!(
        ExternalEngine::start("/nonexistent/engine", &[]),
        Err(ClientError::Spawn(_))
    ));
}

#[test]
fn a_program_that_says_nothing_times_out() {
    let started = Instant::now();
    let mut command = Command::new("sleep");
    command.arg("30");
    match ExternalEngine::start_with(command, &[], QUICK) {
        Err(ClientError::Timeout { waiting_for, .. }) => assert_eq!(waiting_for, "wait"),
        Err(error) => panic!("wrong error: {error}"),
        Ok(_) => panic!("a silent program cannot start"),
    }
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn a_search_that_never_ends_times_out_and_the_engine_is_given_up() {
    let mut engine = ExternalEngine::start_with(fake("true"), &[], QUICK).expect("starts");
    let game = Game::start(Variant::Bashni);
    let started = Instant::now();
    let limits = Limits::movetime(Duration::from_millis(100));
    match engine.go(&game, &limits) {
        Err(ClientError::Timeout { waiting_for, .. }) => assert_eq!(waiting_for, "done"),
        other => panic!("expected a timeout, got {other:?}"),
    }
    // The time per move, the grace and the wait after `stop`.
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(600) && waited < Duration::from_secs(5),
        "{waited:?}"
    );
    assert!(matches!(engine.go(&game, &limits), Err(ClientError::Gone)));
}

#[test]
fn a_search_stopped_late_still_gives_its_move() {
    // This engine answers `go` with nothing, and `stop` with its move.
    let mut command = Command::new("sh");
    command.arg("-c").arg(
        r#"while read -r line; do
  case "$line" in
    hub*) echo wait ;;
    init*) echo ready ;;
    ping*) echo pong ;;
    stop*) echo 'info depth=7 score="win 3" pv="c3-d4"'; echo 'done move=c3-d4' ;;
  esac
done"#,
    );
    let mut engine = ExternalEngine::start_with(command, &[], QUICK).expect("starts");
    let game = Game::start(Variant::Bashni);
    let mv = engine
        .go(&game, &Limits::movetime(Duration::from_millis(50)))
        .expect("a move after stop")
        .expect("a move");
    assert_eq!(mv.to_string(), "c3-d4");
    let info = engine.last_info().expect("the info line is kept");
    assert_eq!(info.depth, Some(7));
    assert_eq!(info.score, Some(bashni_engine::Score::WinIn(3)));
}

#[test]
fn illegal_moves_and_refusals_are_errors() {
    let mut engine =
        ExternalEngine::start_with(fake("echo 'done move=c3-e5'"), &[], QUICK).expect("starts");
    let game = Game::start(Variant::Bashni);
    match engine.go(&game, &Limits::depth(1)) {
        Err(ClientError::IllegalMove { text, .. }) => assert_eq!(text, "c3-e5"),
        other => panic!("expected an illegal move, got {other:?}"),
    }

    let mut engine =
        ExternalEngine::start_with(fake(r#"echo 'error message="no thanks"'"#), &[], QUICK)
            .expect("starts");
    match engine.go(&game, &Limits::depth(1)) {
        Err(ClientError::Refused(message)) => assert_eq!(message, "no thanks"),
        other => panic!("expected a refusal, got {other:?}"),
    }

    let mut engine = ExternalEngine::start_with(fake("echo done"), &[], QUICK).expect("starts");
    assert!(matches!(engine.go(&game, &Limits::depth(1)), Ok(None)));
}

#[test]
fn a_program_that_crashes_mid_search_is_an_error() {
    let mut engine = ExternalEngine::start_with(fake("exit 7"), &[], QUICK).expect("starts");
    let game = Game::start(Variant::Bashni);
    match engine.go(&game, &Limits::depth(1)) {
        Err(ClientError::Exited(status)) => assert_eq!(status.and_then(|s| s.code()), Some(7)),
        other => panic!("expected the end of the program, got {other:?}"),
    }
}

#[test]
fn an_engine_line_too_long_to_read_is_passed_over() {
    // The first `done` is 100 kB long: it is skipped, and the next one counts.
    let mut engine = ExternalEngine::start_with(
        fake(
            "printf 'done move=c3-d4 pad='; head -c 100000 /dev/zero | tr '\\0' x; echo; echo 'done move=a3-b4'",
        ),
        &[],
        QUICK,
    )
    .expect("starts");
    let game = Game::start(Variant::Bashni);
    let mv = engine
        .go(&game, &Limits::depth(1))
        .expect("a move")
        .expect("a move");
    assert_eq!(mv.to_string(), "a3-b4");
}

#[test]
fn the_longest_limits_and_timeouts_do_not_overflow() {
    let endless = Timeouts {
        start: Duration::MAX,
        reply: Duration::MAX,
        grace: Duration::MAX,
        search: Duration::MAX,
    };
    let mut engine =
        ExternalEngine::start_with(fake("echo 'done move=c3-d4'"), &[], endless).expect("starts");
    let game = Game::start(Variant::Bashni);
    let limits = Limits {
        movetime: Some(Duration::MAX),
        clock: Some(Clock {
            remaining: Duration::MAX,
            increment: Duration::MAX,
            moves_to_go: Some(u32::MAX),
        }),
        ..Limits::default()
    };
    let mv = engine.go(&game, &limits).expect("a move").expect("a move");
    assert_eq!(mv.to_string(), "c3-d4");
    engine.ping().expect("pong");
}
