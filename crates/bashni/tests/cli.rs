//! The `bashni` program, run as a user runs it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn bashni(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bashni"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("the program ends")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

#[test]
fn perft_prints_a_line_per_depth() {
    let output = bashni(&["perft", "--variant", "russian", "--depth", "5"], "");
    assert!(output.status.success());
    let text = stdout(&output);
    let counts: Vec<&str> = text
        .lines()
        .map(|l| l.split_whitespace().nth(2).expect("a count"))
        .collect();
    assert_eq!(counts, ["7", "49", "302", "1469", "7482"]);
    assert!(text.contains("nodes/s"));
}

#[test]
fn perft_divides_and_takes_a_position() {
    let position = "White: b4 0/10, d4 0; Black: b6 0, b8 1, c7 0/0101, d2 0, d6 0/0, e1 1, e7 1, h2 00/1100, h6 0/0; White to move";
    let output = bashni(
        &[
            "perft",
            "--variant",
            "bashni",
            "--depth",
            "2",
            "--position",
            position,
            "--divide",
        ],
        "",
    );
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("depth 2: 18 "), "{text}");
    let divided: u64 = text
        .lines()
        .filter(|l| l.starts_with("  "))
        .map(|l| {
            l.rsplit(' ')
                .next()
                .and_then(|n| n.parse::<u64>().ok())
                .expect("count")
        })
        .sum();
    assert_eq!(divided, 18);
    let bad = bashni(&["perft", "--depth", "2", "--position", "White: z9"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("not a dark square"));
}

#[test]
fn moves_answers_each_line_and_goes_on_after_a_bad_one() {
    let input = "White: c3 0, e3 0; Black: d4 0; White to move\nnonsense\n\nW:WKa1:Bh8\n";
    let output = bashni(&["moves", "--variant", "russian"], input);
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 3);
    let moves: Vec<&str> = lines[0]["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["move"].as_str().expect("text"))
        .collect();
    assert_eq!(moves, ["c3:e5", "e3:c5"]);
    assert_eq!(
        lines[0]["moves"][0]["result"],
        "White: e3 0, e5 0; Black: ; Black to move"
    );
    assert_eq!(lines[1]["position"], "nonsense");
    assert!(lines[1]["error"].as_str().is_some());
    assert_eq!(
        lines[2]["position"],
        "White: a1 1; Black: h8 0; White to move"
    );
    assert_eq!(
        output.status.code(),
        Some(1),
        "a bad line makes the exit status 1"
    );
}

const PDN: &str = "[Event \"Rulebook 000, 1.10\"]\n[Result \"1-0\"]\n[GameType \"60\"]\n\n\
1. cb4 bc5 2. ba5 ab6 3. bc3 cb4 4. a:a7 cb6 5. a:e5 f:b2 6. a:c3 dc7 7. gf4 e:g3\n\
8. h:f4 g:e5 9. e:g5 h:f4 10. de3 f:b4 11. b2:d4:f6:d8D:a5:d2:h6 1-0\n\n\
[Event \"Broken\"]\n[GameType \"25\"]\n\n1. ed4 dc5 2. d4:b6 *\n";

#[test]
fn pdn_check_reports_the_bad_move_and_fails() {
    let dir = std::env::temp_dir().join(format!("bashni-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("games.pdn");
    std::fs::write(&file, PDN).expect("write");
    let output = bashni(&["pdn", "check", file.to_str().expect("path")], "");
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("game 2 (Russian draughts), move 2. d4:b6 (line 11, column 15)"),
        "{text}"
    );
    assert!(
        text.contains("2 games, 1 good, 0 stop early, 1 with errors"),
        "{text}"
    );

    let converted = dir.join("full.pdn");
    let output = bashni(
        &[
            "pdn",
            "convert",
            file.to_str().expect("path"),
            "--form",
            "full",
            "-o",
            converted.to_str().expect("path"),
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(1), "the broken game is reported");
    let full = std::fs::read_to_string(&converted).expect("converted file");
    assert!(full.contains("4. a3:c5:a7 c7-b6"), "{full}");
    assert!(full.contains("11. b2:d4:f6:d8:a5:d2:h6 1-0"), "{full}");
    assert!(
        full.contains("2. d4:b6 *"),
        "the broken game is kept as it was: {full}"
    );
    let output = bashni(
        &[
            "pdn",
            "convert",
            converted.to_str().expect("path"),
            "--form",
            "short",
        ],
        "",
    );
    let short = stdout(&output);
    assert!(short.contains("1. cb4 bc5"), "{short}");
    std::fs::remove_dir_all(&dir).expect("clean up");
}

/// Two Russian games in letters: a rulebook game, and one with a start position.
const LETTER_GAMES: &str = "[Event \"Rulebook 001, 6.1.6\"]\n[GameType \"25\"]\n\n\
1. ed4 dc5 2. fe3 fg5 3. cb4 gh4 4. b:d6 h:f2 5. e:g3 c:h4 0-1\n\n\
[Event \"Kings\"]\n[GameType \"25\"]\n[FEN \"B:Wd4,Kc1:Bc7,Ka7\"]\n\n1... a7:e3 c1:f4:b8 1-0\n";

#[test]
fn pdn_reads_and_writes_numbered_squares() {
    let dir = std::env::temp_dir().join(format!("bashni-cli-numbers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = |name: &str| dir.join(name).to_str().expect("path").to_string();
    std::fs::write(path("letters.pdn"), LETTER_GAMES).expect("write");
    let convert = |from: &str, to: &str, form: &str, squares: &str| {
        let output = bashni(
            &[
                "pdn",
                "convert",
                &path(from),
                "--form",
                form,
                "--squares",
                squares,
                "-o",
                &path(to),
            ],
            "",
        );
        assert!(output.status.success(), "{output:?}");
        std::fs::read_to_string(path(to)).expect("converted file")
    };
    let numbers = convert("letters.pdn", "numbers.pdn", "full", "numeric");
    assert!(
        numbers.contains("1. 23-18 10-14 2. 27-23 11-16 3. 22-17 16-20 4. 17x10 20x27"),
        "{numbers}"
    );
    assert!(numbers.contains("[FEN \"B:W18,K30:BK5,6\"]"), "{numbers}");
    assert!(numbers.contains("1... 5x23 2. 30x19x1 1-0"), "{numbers}");
    let output = bashni(&["pdn", "check", &path("numbers.pdn")], "");
    assert!(output.status.success(), "{}", stdout(&output));
    assert!(stdout(&output).contains("2 games, 2 good, 0 stop early, 0 with errors"));
    // Read back into letters, the numbered file is the letter file in full form.
    let full = convert("letters.pdn", "full.pdn", "full", "letters");
    assert_eq!(convert("numbers.pdn", "back.pdn", "full", "letters"), full);
    assert!(full.contains("[FEN \"B:WKc1,d4:BKa7,c7\"]"), "{full}");
    let short = convert("numbers.pdn", "short.pdn", "short", "numeric");
    assert!(short.contains("1... 5x23 2. 30x1 1-0"), "{short}");
    assert_eq!(convert("short.pdn", "back2.pdn", "full", "letters"), full);

    std::fs::write(
        path("bad.pdn"),
        "[GameType \"25\"]\n\n1. 22-18 11-33 *\n\n[GameType \"25\"]\n[FEN \"W:W21-33:B1-12\"]\n\n1. 22-18 *\n",
    )
    .expect("write");
    let output = bashni(&["pdn", "check", &path("bad.pdn")], "");
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("game 1 (Russian draughts), move 1... 11-33 (line 3, column 10): `11-33` is not a move: at column 4, `33` is not a square number (1-32)"),
        "{text}"
    );
    assert!(
        text.contains(
            "game 2 (Russian draughts): FEN \"W:W21-33:B1-12\": FEN, column 4: `33` is not a square number (1-32)"
        ),
        "{text}"
    );
    let help = stdout(&bashni(&["pdn", "convert", "--help"], ""));
    assert!(
        help.contains("--squares") && help.contains("numeric"),
        "{help}"
    );
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn pdn_reads_records_as_archives_write_them() {
    let dir = std::env::temp_dir().join(format!("bashni-cli-dialects-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = |name: &str| dir.join(name).to_str().expect("path").to_string();
    // No GameType; an Event in Windows-1251; a capture written with a dash; moves not
    // known; a broken game between good ones.
    let mut bytes = b"Games of the club\n\n[Event \"\xCA\xF3\xE1\xEE\xEA\"]\n\n".to_vec();
    bytes.extend_from_slice(
        b"1. c3-d4 f6-e5 2. d4-f6 g7:e5 3. b2-c3 e7-f6 1-0\n\n\
          [Event \"Broken\"]\n\n1. c3-d4 & *\n\n\
          [Event \"Unknown\"]\n[GameType \"25\"]\n\n1. c3-d4 f6-e5 2. - - 3. - - 1/2-1/2\n",
    );
    std::fs::write(path("club.pdn"), &bytes).expect("write");
    let output = bashni(&["pdn", "check", &path("club.pdn")], "");
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    for expected in [
        "game 1, line 1, column 1: text that is not PDN skipped, up to line 1 (warning)",
        "game 1, line 3, column 9: the line is not UTF-8; read as windows-1251 (warning)",
        "game 1: no GameType; read as Russian draughts: replays only under its rules",
        "game 1, line 5, column 19: the capture `d4-f6` is written as a quiet move; read as d4:f6 (warning)",
        "game 2, line 9, column 10: unexpected character `&`",
        "game 3 (Russian draughts), move 2. - (line 14, column 19): the move is not known; replay stops here (game kept)",
        "3 games, 1 good, 1 stop early, 1 with errors, 1 with warnings",
    ] {
        assert!(text.contains(expected), "{expected}\n{text}");
    }
    let quiet = stdout(&bashni(&["pdn", "check", "--quiet", &path("club.pdn")], ""));
    assert!(!quiet.contains("(warning)"), "{quiet}");
    assert!(quiet.contains("1 with errors"), "{quiet}");
    // Asked to read it as Bashni, the first game is wrong, and the error says so.
    let bashni_text = stdout(&bashni(
        &["pdn", "check", "--variant", "bashni", &path("club.pdn")],
        "",
    ));
    assert!(
        bashni_text.contains("game 1 (Bashni), move 3... e7-f6"),
        "{bashni_text}"
    );
    // Converted: GameType added, the broken game written as it was.
    let output = bashni(
        &["pdn", "convert", &path("club.pdn"), "-o", &path("out.pdn")],
        "",
    );
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("(game written unchanged)"), "{stderr}");
    let converted = std::fs::read_to_string(path("out.pdn")).expect("converted");
    assert!(converted.contains("[Event \"Кубок\"]"), "{converted}");
    assert!(converted.contains("[GameType \"25\"]"), "{converted}");
    assert!(converted.contains("2. d4:f6 g7:e5"), "{converted}");
    assert!(
        converted.contains("[Event \"Broken\"]\n\n1. c3-d4 & *\n"),
        "{converted}"
    );
    assert!(converted.contains("2. - - 3. - - 1/2-1/2"), "{converted}");
    // A named encoding; an unknown one is refused with the names it takes.
    let named = stdout(&bashni(
        &["pdn", "check", "--encoding", "cp1251", &path("club.pdn")],
        "",
    ));
    assert!(!named.contains("not UTF-8"), "{named}");
    let output = bashni(
        &["pdn", "check", "--encoding", "klingon", &path("club.pdn")],
        "",
    );
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("unknown encoding `klingon`"), "{stderr}");
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn a_reader_that_stops_early_ends_the_output_quietly() {
    let file = std::env::temp_dir().join(format!("bashni-cli-pipe-{}.pdn", std::process::id()));
    // Each untagged game gets a line of its own, far more than a pipe holds.
    std::fs::write(&file, "1. c3-d4 f6-g5 *\n\n".repeat(5_000)).expect("write");
    let mut child = Command::new(env!("CARGO_BIN_EXE_bashni"))
        .args(["pdn", "check", file.to_str().expect("path")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts");
    let mut first = [0u8; 64];
    let read = std::io::Read::read(&mut child.stdout.take().expect("stdout"), &mut first)
        .expect("some output");
    assert!(read > 0);
    // The pipe's reading end is closed here; the program must stop without complaint.
    let output = child.wait_with_output().expect("the program ends");
    assert!(output.status.success(), "{output:?}");
    assert!(output.stderr.is_empty(), "{output:?}");
    std::fs::remove_file(&file).expect("clean up");
}

#[test]
fn positions_may_use_numbered_squares() {
    let output = bashni(
        &[
            "perft",
            "--variant",
            "russian",
            "--depth",
            "3",
            "--position",
            "W:W21-32:B1-12.",
        ],
        "",
    );
    assert!(output.status.success(), "{output:?}");
    let counts: Vec<String> = stdout(&output)
        .lines()
        .map(|l| l.split_whitespace().nth(2).expect("a count").to_string())
        .collect();
    assert_eq!(counts, ["7", "49", "302"]);
    let input = "W:W29,30,31,32:B1,2,3,4.\nWhite: 22 0; Black: 15 0; White to move\nW:W33:B1\n";
    let output = bashni(&["moves", "--variant", "russian"], input);
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 3);
    assert_eq!(
        lines[0]["position"],
        "White: a1 0, c1 0, e1 0, g1 0; Black: b8 0, d8 0, f8 0, h8 0; White to move"
    );
    assert_eq!(lines[1]["moves"][0]["move"], "c3-b4");
    assert!(
        lines[2]["error"]
            .as_str()
            .is_some_and(|e| e.contains("`33` is not a square number (1-32)")),
        "{}",
        lines[2]
    );
}

#[test]
fn play_explains_itself_and_refuses_bad_options_before_taking_the_screen() {
    let output = bashni(&["play", "--help"], "");
    assert!(output.status.success());
    let text = stdout(&output);
    for option in [
        "--level",
        "--two-players",
        "--time",
        "--position",
        "--pdn",
        "--no-color",
    ] {
        assert!(text.contains(option), "{option} missing: {text}");
    }
    let output = bashni(&["play", "--time", "x+1"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("3+2"));
    let output = bashni(&["play", "--pdn", "/nonexistent/none.pdn"], "");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("cannot open /nonexistent/none.pdn"),
        "{stderr}"
    );
}

#[test]
fn moves_skips_a_line_too_long_without_echoing_it_and_goes_on() {
    let long = "x".repeat(10_000_000);
    let input = format!("W:WKa1:Bh8\n{long}\r\n\nW:WKa1:Bh8\n");
    let output = bashni(&["moves", "--variant", "russian"], &input);
    let text = stdout(&output);
    assert!(text.len() < 4096, "{} bytes of output", text.len());
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(lines[1]["position"], format!("{}...", "x".repeat(32)));
    assert_eq!(
        lines[1]["error"],
        "line 2 is too long: 10000000 bytes, and the limit is 65536 bytes; it was skipped"
    );
    for answer in [&lines[0], &lines[2]] {
        assert_eq!(
            answer["position"],
            "White: a1 1; Black: h8 0; White to move"
        );
        assert!(answer["moves"].as_array().is_some_and(|m| !m.is_empty()));
    }
    assert_eq!(
        output.status.code(),
        Some(1),
        "the skipped line is a failure"
    );
    // A line just at the limit is read (and is not a position).
    let input = format!("{}\n", "y".repeat(65_536));
    let output = bashni(&["moves"], &input);
    let answer: serde_json::Value =
        serde_json::from_str(stdout(&output).trim_end()).expect("one JSON line");
    assert_eq!(answer["position"].as_str().map(str::len), Some(65_536));
    assert!(
        answer["error"]
            .as_str()
            .is_some_and(|e| !e.contains("too long")),
        "{answer}"
    );
}

#[test]
fn egtb_builds_verifies_and_probes() {
    let dir = std::env::temp_dir().join(format!("bashni-cli-egtb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dir_text = dir.to_str().expect("a UTF-8 path");

    let output = bashni(&["egtb", "build", "--pieces", "3", "--dir", dir_text], "");
    assert!(output.status.success(), "{output:?}");
    let text = stdout(&output);
    let kings = text
        .lines()
        .find(|l| l.starts_with("WW-B "))
        .expect("a line for two kings against one");
    let numbers: Vec<u64> = kings
        .split_whitespace()
        .skip(1)
        .take(4)
        .map(|n| n.parse().expect("a count"))
        .collect();
    assert_eq!(numbers[0], numbers[1] + numbers[2] + numbers[3], "{kings}");
    assert!(kings.ends_with("built"), "{kings}");
    assert!(text.contains("16 slices"), "{text}");
    // Again, on one thread: every slice is kept.
    let again = stdout(&bashni(
        &[
            "egtb",
            "build",
            "--pieces",
            "3",
            "--dir",
            dir_text,
            "--threads",
            "1",
        ],
        "",
    ));
    assert!(
        again.lines().filter(|l| l.ends_with("kept")).count() == 16,
        "{again}"
    );

    let output = bashni(&["egtb", "verify", "--dir", dir_text], "");
    assert!(output.status.success());
    assert!(stdout(&output).contains("positions checked, 0 wrong"));

    let output = bashni(
        &[
            "egtb",
            "probe",
            "--dir",
            dir_text,
            "White: c7 0; Black: h6 0; White to move",
        ],
        "",
    );
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("result: win in 3 plies for White"), "{text}");
    assert!(text.contains("best move: c7-d8"), "{text}");

    let output = bashni(&["egtb", "probe", "--dir", dir_text, "start"], "");
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).contains("not covered"));

    let file = dir.join("russian-0201.egtb");
    let bytes = std::fs::read(&file).expect("readable");
    std::fs::write(&file, &bytes[..bytes.len() - 3]).expect("written");
    let output = bashni(&["egtb", "verify", "--dir", dir_text], "");
    assert_eq!(output.status.code(), Some(2));
    let error = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(
        error.contains("russian-0201.egtb") && error.contains("truncated"),
        "{error}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each line of the command's standard output, read as JSON.
fn json_lines(output: &Output) -> Vec<serde_json::Value> {
    stdout(output)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}

/// `bench --time-ms N --peer exec:...` searches the same positions with a protocol engine
/// (here `bashni engine` itself) and prints its depth and speed next to the engine's; a peer
/// that cannot be started is a clear error.
#[test]
fn bench_compares_with_a_peer_engine_on_the_same_positions() {
    let peer = format!("exec:{} engine", env!("CARGO_BIN_EXE_bashni"));
    let output = bashni(&["bench", "--time-ms", "40", "--peer", &peer], "");
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    let ours = text
        .lines()
        .filter(|l| l.contains("nodes/s") && !l.contains("peer"))
        .count();
    let theirs = text
        .lines()
        .filter(|l| l.contains("nodes/s  peer  "))
        .count();
    assert!(ours >= 24, "{text}");
    assert_eq!(
        theirs,
        ours - 2,
        "each position once more, by the peer: {text}"
    );
    for game in ["russian", "bashni"] {
        assert!(
            text.contains(&format!("peer {game} middlegames: mean depth")),
            "{text}"
        );
    }

    let missing = bashni(
        &["bench", "--time-ms", "40", "--peer", "exec:/no/such/engine"],
        "",
    );
    assert!(!missing.status.success());
    let said = String::from_utf8_lossy(&missing.stderr);
    assert!(said.contains("/no/such/engine"), "{said}");
    let unwritten = bashni(&["bench", "--time-ms", "40", "--peer", "engine"], "");
    assert!(!unwritten.status.success());
    assert!(String::from_utf8_lossy(&unwritten.stderr).contains("exec:PROGRAM"));
}
