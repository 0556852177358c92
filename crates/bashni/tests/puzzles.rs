//! `bashni puzzles` as a user runs it: mining self-play games, going on after a stop,
//! counting and checking the set; `bashni serve --puzzles` refusing a bad file.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bashni(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bashni"))
        .args(args)
        .output()
        .expect("the program runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bashni-puzzles-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    dir
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

#[test]
fn mining_goes_on_where_it_stopped_and_the_set_is_counted_and_checked() {
    let dir = folder("mine");
    let games = dir.join("games.pdn");
    // A weak level against a strong one: its mistakes give the strong side shots.
    let played = bashni(&[
        "match",
        "--variant",
        "bashni",
        "--first",
        "level=2",
        "--second",
        "level=6",
        "--games",
        "2",
        "--concurrency",
        "1",
        "--pdn",
        path(&games),
    ]);
    assert!(played.status.success(), "{}", text(&played.stderr));
    let out = dir.join("puzzles.jsonl");
    let mine = |games_limit: &str| {
        bashni(&[
            "puzzles",
            "mine",
            path(&games),
            "--out",
            path(&out),
            "--depth",
            "8",
            "--screen-depth",
            "4",
            "--threads",
            "1",
            "--games",
            games_limit,
        ])
    };
    let first = mine("2");
    assert!(first.status.success(), "{}", text(&first.stderr));
    let report = text(&first.stdout);
    assert!(
        report.starts_with("games 2 (0 unreadable), positions examined "),
        "{report}"
    );
    assert!(report.contains("rejected: forced "), "{report}");
    assert!(report.contains("peak memory"), "{report}");
    let after_first = std::fs::read_to_string(&out).expect("the puzzles");
    // `--games 2` made two pairs of games: four records. The next run goes on with the two
    // not done, and adds to the file.
    let rest = mine("4");
    assert!(rest.status.success(), "{}", text(&rest.stderr));
    let line = |r: &str| r.lines().next().unwrap_or_default().to_string();
    let report = text(&rest.stdout);
    assert!(
        line(&report).starts_with("games 4 (0 unreadable)"),
        "{report}"
    );
    let after_rest = std::fs::read_to_string(&out).expect("the puzzles");
    assert!(after_rest.starts_with(&after_first));
    // Once every game is done, a run examines nothing again and adds nothing.
    let again = mine("4");
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(line(&text(&again.stdout)), line(&report));
    assert_eq!(
        std::fs::read_to_string(&out).expect("the puzzles"),
        after_rest
    );
    let after_first = after_rest;
    let stats = bashni(&["puzzles", "stats", path(&out)]);
    assert!(stats.status.success());
    let count = after_first.lines().count();
    assert!(
        text(&stats.stdout).starts_with(&format!("bashni: {count} puzzles")),
        "{}",
        text(&stats.stdout)
    );
    let sound = dir.join("sound.jsonl");
    let checked = bashni(&[
        "puzzles",
        "check",
        path(&out),
        "--depth",
        "8",
        "--threads",
        "1",
        "--sound",
        path(&sound),
    ]);
    let summary = text(&checked.stdout);
    assert!(
        summary.contains(&format!("{count} puzzles checked at depth 8")),
        "{summary}"
    );
    let kept = std::fs::read_to_string(&sound).expect("the sound ones");
    assert!(kept.lines().all(|l| after_first.contains(l)));
    assert_eq!(checked.status.success(), kept.lines().count() == count);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_puzzle_file_is_refused_with_its_line() {
    let dir = folder("bad");
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "\n{\"id\": 1}\n").expect("written");
    let db = dir.join("games.sqlite3");
    let served = bashni(&[
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--db",
        path(&db),
        "--puzzles",
        path(&bad),
    ]);
    assert!(!served.status.success());
    let error = text(&served.stderr);
    assert!(error.contains("bad.jsonl: puzzle on line 2"), "{error}");
    let mined = bashni(&["puzzles", "stats", path(&bad)]);
    assert!(!mined.status.success());
    assert!(
        text(&mined.stderr).contains("line 2"),
        "{}",
        text(&mined.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
