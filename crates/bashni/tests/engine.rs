//! `bashni engine`, spoken to through pipes as a GUI speaks to it.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

use bashni_engine::{Clock, Limits};
use bashni_protocol::{ExternalEngine, Timeouts};
use bashni_rules::{Game, Variant};

fn engine_command() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_bashni"));
    command.arg("engine");
    command
}

/// Runs `bashni engine` on `input` and returns its output once the input has ended.
fn converse(input: &str) -> String {
    let mut child = engine_command()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the program starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    let output = child.wait_with_output().expect("the program ends");
    assert!(output.status.success());
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

#[test]
fn a_piped_conversation() {
    let text = converse(
        "hub\nset-param name=hash value=4\ninit\nnonsense here\npos pos=\"broken\nlevel depth=3\ngo think\n",
    );
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("id name=Bashni "), "{text}");
    assert!(
        lines.contains(&"wait") && lines.contains(&"ready"),
        "{text}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("error message=\"unreadable line")),
        "{text}"
    );
    // The search ends by itself although the input has ended.
    assert!(
        lines.iter().any(|l| l.starts_with("info depth=3 ")),
        "{text}"
    );
    assert!(
        lines.last().is_some_and(|l| l.starts_with("done move=")),
        "{text}"
    );
}

#[test]
fn quit_ends_the_program() {
    let text = converse("ping\nquit\nping\n");
    assert_eq!(text, "pong\n");
}

#[test]
fn the_client_plays_a_game_against_the_program() {
    let mut white =
        ExternalEngine::start_with(engine_command(), &[("hash", "4")], Timeouts::default())
            .expect("the engine starts");
    let mut black = ExternalEngine::start_with(
        engine_command(),
        &[("hash", "4"), ("level", "3")],
        Timeouts::default(),
    )
    .expect("the engine starts");
    assert_eq!(white.name(), "Bashni");
    assert!(
        white
            .params()
            .iter()
            .any(|p| p.get("name") == Some("level"))
    );
    for variant in [Variant::Bashni, Variant::Russian] {
        white.new_game().expect("new game");
        black.new_game().expect("new game");
        let mut game = Game::start(variant);
        for ply in 0..8 {
            let engine = if ply % 2 == 0 { &mut white } else { &mut black };
            let mv = engine
                .go(&game, &Limits::depth(4))
                .expect("the engine answers")
                .expect("a move");
            game.play(&mv).expect("the move is legal");
            let info = engine.last_info().expect("the search said something");
            assert!(info.depth.is_some_and(|d| d <= 4), "{info:?}");
        }
        assert_eq!(game.ply(), 8);
    }

    // On a clock the program answers within its time.
    let game = Game::start(Variant::Bashni);
    let limits = Limits {
        clock: Some(Clock {
            remaining: Duration::from_millis(600),
            increment: Duration::ZERO,
            moves_to_go: None,
        }),
        ..Limits::default()
    };
    let started = std::time::Instant::now();
    let mv = white.go(&game, &limits).expect("answers").expect("a move");
    assert!(game.position().legal_moves().contains(&mv));
    assert!(started.elapsed() < Duration::from_millis(600));
}

#[test]
fn absurd_limits_and_endless_lines_are_refused_and_the_program_goes_on() {
    let long = format!("pos moves=\"{}\"", "c3-d4 ".repeat(2_000_000));
    let text = converse(&format!(
        "level move-time=1e19\ngo think\n{long}\nlevel time=60 inc=1e19\nlevel depth=2\ngo think\n"
    ));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..4],
        [
            "error message=\"level: move-time must be a number of seconds from 0 to 1000000, not `1e19`\"",
            "error message=\"no limits to search with: the last level was refused\"",
            "error message=\"line 3 is too long: 12000012 bytes, and the limit is 65536 bytes; it was skipped (it began `pos moves='c3-d4 c3-d4 c3-d4 c3-...`)\"",
            "error message=\"level: inc must be a number of seconds from 0 to 1000000, not `1e19`\"",
        ],
        "{text}"
    );
    assert!(!text.contains("the search failed"), "{text}");
    assert!(
        lines.last().is_some_and(|l| l.starts_with("done move=")),
        "{text}"
    );
}
