//! `bashni match` and `bashni openings`, run as a user runs them.

mod common;

use common::bashni;

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

#[test]
fn a_tiny_match_prints_its_summary_and_writes_its_games() {
    let pdn = std::env::temp_dir().join(format!("bashni-match-{}.pdn", std::process::id()));
    let pdn_text = pdn.to_string_lossy().into_owned();
    let output = bashni(&[
        "match",
        "--variant",
        "russian",
        "--first",
        "depth=1",
        "--second",
        "material2",
        "--depth",
        "1",
        "--games",
        "1",
        "--concurrency",
        "2",
        "--sprt",
        "0,10,0.05,0.05",
        "--pdn",
        &pdn_text,
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    assert!(out.contains("Games: 2"), "{out}");
    assert!(out.contains("depth=1: "), "{out}");
    assert!(out.contains("Score: "), "{out}");
    assert!(
        out.contains("SPRT (elo0=0 elo1=10 alpha=0.05 beta=0.05): LLR"),
        "{out}"
    );
    let check = bashni(&["pdn", "check", &pdn_text]);
    let _ = std::fs::remove_file(&pdn);
    assert!(check.status.success(), "{}", text(&check.stdout));
    assert!(text(&check.stdout).contains("2 games, 2 good"));
}

#[test]
fn bad_match_options_are_refused_with_a_reason() {
    for (args, message) in [
        (vec!["--second", "exec:"], "needs a program"),
        (vec!["--first", "level=9"], "levels go from 1 to 8"),
        (vec!["--tc", "ten"], "is not a number of seconds"),
        (vec!["--sprt", "0,10"], "expected four numbers"),
        (vec!["--games", "0", "--depth", "1"], "at least 1"),
        (
            vec![
                "--second",
                "untuned",
                "--tc",
                "1",
                "--first",
                "depth=1,bogus=2",
            ],
            "unknown player setting",
        ),
    ] {
        let mut all = vec!["match"];
        all.extend(args.iter());
        let output = bashni(&all);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let err = text(&output.stderr);
        assert!(err.contains(message), "{args:?}: {err}");
    }
}

#[test]
fn openings_are_made_repeatably() {
    let args = [
        "openings",
        "--variant",
        "russian",
        "--count",
        "3",
        "--plies",
        "4",
        "--depth",
        "2",
        "--seed",
        "5",
    ];
    let first = bashni(&args);
    assert!(first.status.success(), "{}", text(&first.stderr));
    let out = text(&first.stdout);
    assert_eq!(
        out.lines().filter(|l| !l.starts_with('#')).count(),
        3,
        "{out}"
    );
    assert!(out.contains("# Made by: bashni openings --variant russian --count 3 --plies 4 --seed 5 --depth 2 --margin 20"));
    assert_eq!(text(&bashni(&args).stdout), out);
}

/// An external engine that dies in one game is started again for the next: only the game
/// it died in is lost, not every game after it.
#[cfg(unix)]
#[test]
fn an_external_engine_that_dies_is_started_again_for_the_next_game() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("bashni-restart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let script = dir.join("dies-once.sh");
    let mark = dir.join("started-before");
    let pdn = dir.join("games.pdn");
    // First life: the engine sees the protocol up to its first `go`, then its input ends
    // and it stops, in the middle of the game. Later lives are the engine itself.
    std::fs::write(
        &script,
        "#!/bin/sh\nif [ -e \"$1\" ]; then exec \"$2\" engine; fi\ntouch \"$1\"\nsed -u '/^go/q' | \"$2\" engine\n",
    )
    .expect("the script is written");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
        .expect("the script is executable");
    let second = format!(
        "exec:{} {} {}",
        script.display(),
        mark.display(),
        env!("CARGO_BIN_EXE_bashni")
    );
    let output = bashni(&[
        "match",
        "--variant",
        "russian",
        "--first",
        "depth=1",
        "--second",
        &second,
        "--depth",
        "1",
        "--games",
        "2",
        "--pdn",
        &pdn.to_string_lossy(),
    ]);
    let games = std::fs::read_to_string(&pdn).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(games.matches("[Event ").count(), 4, "{games}");
    let forfeited = games
        .lines()
        .filter(|line| line.starts_with("[Termination") && line.contains("forfeits"))
        .count();
    assert_eq!(
        forfeited, 1,
        "only the game the engine died in is lost: {games}"
    );
}
