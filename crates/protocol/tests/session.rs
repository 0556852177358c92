//! Conversations with the engine side, line by line, as a GUI holds them.

use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use bashni_engine::{Engine, Options};
use bashni_protocol::{Flow, Line, MAX_LINE_BYTES, SearchInfo, Session};
use bashni_rules::notation::{parse_move, parse_position};
use bashni_rules::{Game, Position, Variant};

/// Longest wait for any one line; a search in these tests takes far less.
const PATIENCE: Duration = Duration::from_secs(60);

struct Gui {
    session: Session,
    output: Receiver<String>,
}

impl Gui {
    fn new() -> Gui {
        let options = Options {
            hash_mb: 4,
            ..Options::default()
        };
        let (session, output) = Session::channel(Engine::new(options));
        Gui { session, output }
    }

    fn send(&mut self, line: &str) -> Flow {
        self.session.handle(line)
    }

    /// The next line the engine says.
    fn next(&self) -> String {
        self.output
            .recv_timeout(PATIENCE)
            .expect("the engine answers in time")
    }

    /// Every line up to and including the first with `command`.
    fn read_until(&self, command: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.next();
            let done = line.split_whitespace().next() == Some(command);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// What the engine answers to `line` at once: sends it and `ping`, and returns what came
    /// before `pong`.
    fn answers(&mut self, line: &str) -> Vec<String> {
        assert_eq!(self.send(line), Flow::Continue);
        assert_eq!(self.send("ping"), Flow::Continue);
        let mut lines = self.read_until("pong");
        lines.pop();
        lines
    }

    /// Like [`Gui::answers`] while a search runs: its `info` lines are passed over.
    fn answers_while_searching(&mut self, line: &str) -> Vec<String> {
        let mut lines = self.answers(line);
        lines.retain(|l| !l.starts_with("info "));
        lines
    }

    /// Sends `go ...` and returns the `info` lines and the `done` line.
    fn search(&mut self, go: &str) -> (Vec<SearchInfo>, Line) {
        self.send(go);
        let mut lines = self.read_until("done");
        let done = parse(&lines.pop().expect("done"));
        let infos = lines
            .iter()
            .map(|text| {
                let line = parse(text);
                assert_eq!(line.command(), "info", "{text}");
                SearchInfo::from_line(&line)
            })
            .collect();
        (infos, done)
    }
}

fn parse(text: &str) -> Line {
    Line::parse(text)
        .expect("the engine writes well-formed lines")
        .expect("not blank")
}

/// Asserts that `lines` is one `error` whose message contains `part`.
fn assert_error(lines: &[String], part: &str) {
    assert_eq!(lines.len(), 1, "{lines:?}");
    let line = parse(&lines[0]);
    assert_eq!(line.command(), "error", "{lines:?}");
    let message = line.get("message").expect("a message");
    assert!(message.contains(part), "`{message}` should say `{part}`");
}

/// The move of a `done` line, checked to be legal in `position` and written in full.
fn done_move(done: &Line, position: &Position) -> String {
    let text = done.get("move").expect("done names a move");
    let mv = parse_move(position, text).expect("a legal move");
    assert_eq!(mv.to_string(), text, "moves are written in full");
    text.to_string()
}

#[test]
fn full_conversation() {
    let mut gui = Gui::new();
    let hub = gui.answers("hub");
    assert!(hub[0].starts_with("id name=Bashni version="), "{hub:?}");
    assert_eq!(hub.last().map(String::as_str), Some("wait"));
    let params: Vec<Line> = hub[1..hub.len() - 1].iter().map(|l| parse(l)).collect();
    let names: Vec<&str> = params.iter().filter_map(|p| p.get("name")).collect();
    assert_eq!(
        names,
        ["variant", "hash", "threads", "multipv", "level", "egtb"]
    );
    assert!(params.iter().all(|p| p.command() == "param"));
    assert_eq!(
        hub[1],
        r#"param name=variant value=bashni type=enum values="bashni russian""#
    );
    assert_eq!(hub[2], "param name=hash value=4 type=int min=1 max=4096");

    assert_eq!(
        gui.answers("set-param name=hash value=8"),
        Vec::<String>::new()
    );
    assert_eq!(
        gui.answers("set-param name=threads value=1"),
        Vec::<String>::new()
    );
    assert_eq!(gui.answers("init"), ["ready"]);
    assert!(
        gui.answers("hub")
            .contains(&"param name=hash value=8 type=int min=1 max=4096".to_string())
    );

    assert_eq!(gui.answers("new-game"), Vec::<String>::new());
    assert_eq!(gui.answers("pos pos=start"), Vec::<String>::new());
    assert_eq!(gui.answers("level depth=4"), Vec::<String>::new());
    let (infos, done) = gui.search("go think");
    let depths: Vec<u32> = infos.iter().filter_map(|i| i.depth).collect();
    assert_eq!(depths, [1, 2, 3, 4]);
    for info in &infos {
        assert!(info.score.is_some() && info.nodes.is_some() && info.time.is_some());
        assert!(!info.pv.is_empty());
    }
    let start = Position::start(Variant::Bashni);
    let played = done_move(&done, &start);
    assert_eq!(infos.last().map(|i| i.pv[0].clone()), Some(played.clone()));
    if let Some(ponder) = done.get("ponder") {
        parse_move(
            &start.after(&parse_move(&start, &played).expect("legal")),
            ponder,
        )
        .expect("the expected reply is legal");
    }

    // Black has just answered c3-d4 with f6-e5: the capture d4:f6 is the only move.
    gui.send(r#"pos pos=start moves="c3-d4 f6-e5""#);
    let (_, done) = gui.search("go think");
    assert_eq!(done.get("move"), Some("d4:f6"));
    assert_eq!(gui.send("quit"), Flow::Quit);
}

#[test]
fn positions_in_rulebook_notation_and_fen() {
    let mut gui = Gui::new();
    let rulebook = "White: c1 1/0000, e3 0; Black: b8 110101/1, h6 0; Black to move";
    assert_eq!(
        gui.answers(&format!(r#"pos pos="{rulebook}""#)),
        Vec::<String>::new()
    );
    gui.send("level depth=3");
    let (_, done) = gui.search("go think");
    done_move(
        &done,
        &parse_position(Variant::Bashni, rulebook).expect("position"),
    );

    assert_eq!(
        gui.answers(r#"pos pos="B:Wc1=1/0000,e3:Bb8=110101/1,h6""#),
        Vec::<String>::new()
    );
    let (_, done) = gui.search("go think");
    done_move(
        &done,
        &parse_position(Variant::Bashni, rulebook).expect("position"),
    );
}

#[test]
fn stop_ends_an_infinite_analysis_promptly() {
    let mut gui = Gui::new();
    gui.send("pos pos=start");
    gui.send("level infinite");
    gui.send("go analyze");
    let first = parse(&gui.next());
    assert_eq!(first.command(), "info");
    // `ping` is answered while the engine thinks; other commands wait for the search.
    gui.send("ping");
    let mut before_pong = gui.read_until("pong");
    before_pong.pop();
    assert!(
        before_pong.iter().all(|l| l.starts_with("info ")),
        "{before_pong:?}"
    );
    assert!(gui.session.is_searching());
    assert_error(
        &gui.answers_while_searching("go think"),
        "search is running",
    );
    assert_error(
        &gui.answers_while_searching("set-param name=hash value=2"),
        "search is running",
    );
    assert_eq!(
        gui.answers_while_searching("level depth=2"),
        Vec::<String>::new()
    );

    let asked = Instant::now();
    gui.send("stop");
    let lines = gui.read_until("done");
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );
    let done = parse(lines.last().expect("done"));
    done_move(&done, &Position::start(Variant::Bashni));
    assert!(!gui.session.is_searching());

    // The level sent during the search holds for the next one.
    let (infos, _) = gui.search("go think");
    assert_eq!(infos.last().and_then(|i| i.depth), Some(2));
}

#[test]
fn stop_right_after_go_is_not_lost() {
    let mut gui = Gui::new();
    gui.send("level infinite");
    for _ in 0..3 {
        gui.send("go analyze");
        gui.send("stop");
        let asked = Instant::now();
        let lines = gui.read_until("done");
        assert!(asked.elapsed() < Duration::from_secs(5), "{lines:?}");
    }
}

#[test]
fn quit_and_end_of_input_end_the_search() {
    let mut gui = Gui::new();
    gui.send("go analyze");
    assert_eq!(gui.send("quit"), Flow::Quit);
    assert!(!gui.session.is_searching());

    // At the end of the input a bounded search ends by itself, an unbounded one is stopped.
    let mut gui = Gui::new();
    gui.send("level depth=3");
    gui.send("go think");
    gui.session.finish();
    let lines: Vec<String> = gui.output.try_iter().collect();
    assert!(
        lines.iter().any(|l| l.starts_with("info depth=3 ")),
        "{lines:?}"
    );
    assert!(
        lines.last().is_some_and(|l| l.starts_with("done move=")),
        "{lines:?}"
    );

    gui.send("level infinite");
    gui.send("go think");
    gui.session.finish();
    let lines: Vec<String> = gui.output.try_iter().collect();
    assert!(
        lines.last().is_some_and(|l| l.starts_with("done move=")),
        "{lines:?}"
    );
}

#[test]
fn bad_lines_are_answered_with_errors_and_the_session_goes_on() {
    let mut gui = Gui::new();
    for (line, part) in [
        (
            r#"pos pos="White: z9 0; Black: h8 0; White to move""#,
            "bad position",
        ),
        (r#"pos pos="W:Wz9:Bh8""#, "bad position"),
        (
            r#"pos pos="White: b8 0; Black: h6 0; White to move""#,
            "bad position",
        ),
        ("pos variant=checkers", "unknown variant `checkers`"),
        (r#"pos pos="White: c3 0"#, "unreadable line"),
        ("level depth=zero", "depth"),
        ("level depth=0", "depth"),
        ("level move-time=-1", "move-time"),
        ("level inc=2", "need time="),
        (
            "set-param name=hash value=0",
            "hash must be a whole number from 1 to 4096",
        ),
        ("set-param name=level value=9", "level must be"),
        (
            "set-param name=colour value=red",
            "unknown parameter `colour`",
        ),
        (
            "set-param name=variant value=chess",
            "unknown variant `chess`",
        ),
        ("set-param value=1", "needs name="),
        ("go", "think or analyze"),
        ("go ponder", "think or analyze"),
    ] {
        assert_error(&gui.answers(line), part);
    }

    // A refused `pos` or `level` leaves nothing to search until a good one comes.
    gui.answers(r#"pos pos="White: z9 0; Black: h8 0; White to move""#);
    assert_error(&gui.answers("go think"), "no position");
    gui.answers("pos pos=start");
    gui.answers("level depth=bad");
    assert_error(&gui.answers("go think"), "no limits");
    gui.answers("level depth=2");
    let (_, done) = gui.search("go think");
    done_move(&done, &Position::start(Variant::Bashni));
}

#[test]
fn unknown_commands_and_arguments_are_ignored() {
    let mut gui = Gui::new();
    assert_eq!(gui.answers("frobnicate x=1 y"), Vec::<String>::new());
    assert_eq!(gui.answers("ponder-hit"), Vec::<String>::new());
    assert_eq!(gui.answers("   "), Vec::<String>::new());
    assert_eq!(gui.answers("stop"), Vec::<String>::new());
    assert_eq!(
        gui.answers("pos pos=start colour=blue"),
        Vec::<String>::new()
    );
    assert_eq!(
        gui.answers("level depth=2 future=yes"),
        Vec::<String>::new()
    );
    let (_, done) = gui.search("go think fast");
    done_move(&done, &Position::start(Variant::Bashni));
}

#[test]
fn illegal_moves_in_moves_are_refused() {
    let mut gui = Gui::new();
    let lines = gui.answers(r#"pos moves="c3-d4 c3-d4""#);
    assert_error(&lines, "illegal move 2 in moves: `c3-d4` is illegal");
    let lines = gui.answers(r#"pos moves="c3-d4 f6-e5 a3-b4""#);
    assert_error(&lines, "a capture is compulsory");
    assert_error(&gui.answers(r#"pos moves="c3-d4 f6""#), "illegal move 2");
    assert_error(&gui.answers("go think"), "no position");

    // Shortened forms are read too; the game goes on from the moves.
    assert_eq!(
        gui.answers(r#"pos moves="cd4 fe5 d4:f6""#),
        Vec::<String>::new()
    );
    gui.send("level depth=2");
    let (_, done) = gui.search("go think");
    let mut game = Game::start(Variant::Bashni);
    for text in ["c3-d4", "f6-e5", "d4:f6"] {
        let mv = parse_move(game.position(), text).expect("legal");
        game.play(&mv).expect("legal");
    }
    done_move(&done, game.position());
}

#[test]
fn a_russian_game() {
    let mut gui = Gui::new();
    assert_eq!(
        gui.answers("set-param name=variant value=russian"),
        Vec::<String>::new()
    );
    assert!(
        gui.answers("hub")
            .iter()
            .any(|l| l.starts_with("param name=variant value=russian "))
    );
    // In Russian draughts the captured man leaves the board: a tower is no Russian position.
    assert_error(
        &gui.answers(r#"pos pos="White: c1 1/0000; Black: b8 0; White to move""#),
        "bad position",
    );
    let text = "White: c3 0, e3 0; Black: d4 0; White to move";
    assert_eq!(
        gui.answers(&format!(r#"pos pos="{text}""#)),
        Vec::<String>::new()
    );
    gui.send("level depth=3");
    let (_, done) = gui.search("go think");
    let played = done_move(
        &done,
        &parse_position(Variant::Russian, text).expect("position"),
    );
    assert!(["c3:e5", "e3:c5"].contains(&played.as_str()), "{played}");

    // A game of several moves, in the variant named by `pos` itself.
    assert_eq!(
        gui.answers("set-param name=variant value=bashni"),
        Vec::<String>::new()
    );
    let moves = "c3-d4 f6-e5 d4:f6 g7:e5";
    assert_eq!(
        gui.answers(&format!(r#"pos variant=russian pos=start moves="{moves}""#)),
        Vec::<String>::new()
    );
    let (_, done) = gui.search("go think");
    let mut game = Game::start(Variant::Russian);
    for text in moves.split(' ') {
        let mv = parse_move(game.position(), text).expect("legal");
        game.play(&mv).expect("legal");
    }
    done_move(&done, game.position());
    // In Bashni the same captures leave prisoners, so the moves differ.
    let mut bashni = Game::start(Variant::Bashni);
    for text in moves.split(' ') {
        let mv = parse_move(bashni.position(), text).expect("legal");
        bashni.play(&mv).expect("legal");
    }
    assert_ne!(bashni.position().hash(), game.position().hash());
}

#[test]
fn no_move_is_a_bare_done() {
    let mut gui = Gui::new();
    gui.send(r#"pos pos="White: a1 0; Black: b2 0, c3 0; White to move""#);
    gui.send("level depth=3");
    let (infos, done) = gui.search("go think");
    assert!(infos.is_empty());
    assert_eq!(done, Line::new("done"));
}

#[test]
fn weaker_levels_and_several_lines() {
    let mut gui = Gui::new();
    gui.send("set-param name=level value=2");
    gui.send("level depth=6");
    let (infos, done) = gui.search("go think");
    assert_eq!(infos.len(), 1, "a weaker level reports the line it chose");
    assert_eq!(infos[0].multipv, Some(1));
    assert!(infos[0].depth.is_some_and(|d| d <= 2), "{infos:?}");
    done_move(&done, &Position::start(Variant::Bashni));

    gui.send("set-param name=multipv value=3");
    gui.send("level depth=3");
    let (infos, done) = gui.search("go analyze");
    let deepest: Vec<usize> = infos
        .iter()
        .filter(|i| i.depth == Some(3))
        .filter_map(|i| i.multipv)
        .collect();
    assert_eq!(deepest, [1, 2, 3]);
    let firsts: Vec<&String> = infos
        .iter()
        .filter(|i| i.depth == Some(3))
        .map(|i| &i.pv[0])
        .collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert_eq!(done.get("move"), Some(firsts[0].as_str()));
}

#[test]
fn absurd_times_and_numbers_in_level_are_refused_and_the_session_goes_on() {
    let mut gui = Gui::new();
    for (line, part) in [
        // Times: too big for the clock arithmetic, negative, not numbers at all.
        ("level move-time=1e19", "move-time must be"),
        ("level move-time=18446744073709551616", "move-time must be"),
        ("level move-time=1000001", "move-time must be"),
        ("level move-time=-0.5", "move-time must be"),
        ("level move-time=NaN", "move-time must be"),
        ("level move-time=inf", "move-time must be"),
        ("level move-time=-inf", "move-time must be"),
        ("level move-time=1e400", "move-time must be"),
        ("level move-time=", "move-time must be"),
        ("level move-time", "move-time must be"),
        ("level time=1e19", "time must be"),
        ("level time=60 inc=1e19", "inc must be"),
        ("level time=60 inc=-1", "inc must be"),
        ("level time=1e300 inc=1e300", "time must be"),
        ("level time=nan", "time must be"),
        // Whole numbers: floats, signs, too big, out of range.
        ("level depth=4.5", "depth must be"),
        ("level depth=1e3", "depth must be"),
        ("level depth=-3", "depth must be"),
        ("level depth=121", "depth must be"),
        ("level depth=4294967296", "depth must be"),
        ("level nodes=0", "nodes must be"),
        ("level nodes=1e9", "nodes must be"),
        ("level nodes=-1", "nodes must be"),
        ("level nodes=18446744073709551616", "nodes must be"),
        ("level time=60 moves=0", "moves must be"),
        ("level time=60 moves=1001", "moves must be"),
        ("level time=60 moves=2.5", "moves must be"),
        (
            "set-param name=hash value=1e3",
            "hash must be a whole number from 1 to 4096",
        ),
        (
            "set-param name=hash value=-1",
            "hash must be a whole number from 1 to 4096",
        ),
        (
            "set-param name=hash value=18446744073709551616",
            "hash must be a whole number from 1 to 4096",
        ),
        (
            "set-param name=threads value=NaN",
            "threads must be a whole number from 1 to 256",
        ),
        (
            "set-param name=multipv value=65",
            "multipv must be a whole number from 1 to 64",
        ),
    ] {
        let lines = gui.answers(line);
        assert_error(&lines, part);
        // The message names the allowed range.
        assert!(lines[0].contains(" from "), "{line}: {lines:?}");
        // A refused `level` leaves no limits, and nothing else is broken.
        if line.starts_with("level") {
            assert_error(&gui.answers("go think"), "no limits");
        }
    }
    // A long value is repeated only in part.
    for line in [
        format!("level depth={}", "9".repeat(10_000)),
        format!("level move-time={}", "9".repeat(10_000)),
        format!("set-param name=hash value={}", "9".repeat(10_000)),
        format!("set-param name={} value=1", "x".repeat(10_000)),
    ] {
        let lines = gui.answers(&line);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].len() < 200, "{}", lines[0]);
        assert!(lines[0].contains("...`"), "{}", lines[0]);
    }
    // The largest values allowed are taken, and a search with them is stopped as usual.
    for line in [
        "level move-time=1000000",
        "level time=1000000 inc=1000000",
        "level time=1000000 inc=1000000 moves=1000 move-time=1000000",
        "level nodes=18446744073709551615 depth=120",
    ] {
        assert_eq!(gui.answers(line), Vec::<String>::new(), "{line}");
        gui.send("go analyze");
        std::thread::sleep(Duration::from_millis(50));
        gui.send("stop");
        let lines = gui.read_until("done");
        assert!(
            lines.iter().all(|l| !l.starts_with("error")),
            "{line}: {lines:?}"
        );
        done_move(
            &parse(lines.last().expect("done")),
            &Position::start(Variant::Bashni),
        );
    }
    // The session still works.
    gui.answers("level depth=2");
    let (_, done) = gui.search("go think");
    done_move(&done, &Position::start(Variant::Bashni));
}

#[test]
fn the_smallest_times_still_give_a_move() {
    let mut gui = Gui::new();
    for line in [
        "level move-time=0",
        "level move-time=1e-300",
        "level time=0",
        "level time=0 inc=0 moves=1",
    ] {
        assert_eq!(gui.answers(line), Vec::<String>::new(), "{line}");
        let (_, done) = gui.search("go think");
        done_move(&done, &Position::start(Variant::Bashni));
    }
}

/// Everything the session says when it serves `input` to its end.
fn serve(input: impl std::io::BufRead) -> Vec<String> {
    let options = Options {
        hash_mb: 4,
        ..Options::default()
    };
    let (mut session, output) = Session::channel(Engine::new(options));
    session.serve(input).expect("the input is read");
    drop(session);
    output.try_iter().collect()
}

#[test]
fn serving_a_stream_skips_over_long_lines_and_goes_on() {
    use std::io::Read;

    // Just over the limit, a line the size of a big file, and then work to do.
    let just_over = format!("pos moves=\"{}\"", "c3-d4 ".repeat(MAX_LINE_BYTES / 6));
    assert!(just_over.len() > MAX_LINE_BYTES);
    let head = format!("hub\n{just_over}\nlevel move-time=1e19\n");
    let huge = std::io::repeat(b'x').take(50_000_000);
    let tail = "\r\npos pos=start\nlevel depth=2\ngo think\nping\n";
    let input = std::io::BufReader::new(head.as_bytes().chain(huge).chain(tail.as_bytes()));
    let lines = serve(input);
    let errors: Vec<Line> = lines
        .iter()
        .map(|l| parse(l))
        .filter(|l| l.command() == "error")
        .collect();
    let messages: Vec<&str> = errors.iter().filter_map(|l| l.get("message")).collect();
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert!(
        messages[0].starts_with(&format!(
            "line 2 is too long: {} bytes, and the limit is 65536 bytes; it was skipped (it began `pos moves='c3-d4 c3-d4 c3-d4 c3",
            just_over.len()
        )),
        "{}",
        messages[0]
    );
    assert!(messages[0].len() < 200, "{}", messages[0]);
    assert!(
        messages[1].starts_with(
            "level: move-time must be a number of seconds from 0 to 1000000, not `1e19`"
        ),
        "{}",
        messages[1]
    );
    assert!(
        messages[2].starts_with(
            "line 4 is too long: 50000000 bytes, and the limit is 65536 bytes; it was skipped (it began `xxxxxxxx"
        ),
        "{}",
        messages[2]
    );
    // The lines after them were handled.
    assert!(lines[0].starts_with("id name=Bashni"), "{lines:?}");
    assert!(lines.contains(&"pong".to_string()), "{lines:?}");
    let done = lines
        .iter()
        .map(|l| parse(l))
        .find(|l| l.command() == "done")
        .expect("the search ends");
    done_move(&done, &Position::start(Variant::Bashni));
}

#[test]
fn serving_stops_at_quit_and_at_a_broken_input() {
    let lines = serve("ping\nquit\nping\n".as_bytes());
    assert_eq!(lines, ["pong"]);

    /// Gives a line, then fails.
    struct Broken(bool);
    impl std::io::Read for Broken {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if std::mem::replace(&mut self.0, true) {
                return Err(std::io::Error::other("the pipe broke"));
            }
            let line = b"ping\n";
            buf[..line.len()].copy_from_slice(line);
            Ok(line.len())
        }
    }
    let (mut session, output) = Session::channel(Engine::new(Options {
        hash_mb: 1,
        ..Options::default()
    }));
    let error = session
        .serve(std::io::BufReader::new(Broken(false)))
        .expect_err("the input fails");
    assert_eq!(error.to_string(), "the pipe broke");
    assert_eq!(output.try_iter().collect::<Vec<_>>(), ["pong"]);
}

#[test]
fn a_line_handed_over_whole_is_refused_when_too_long() {
    let mut gui = Gui::new();
    let long = format!("pos pos=start moves=\"{}\"", "x".repeat(MAX_LINE_BYTES));
    let lines = gui.answers(&long);
    assert_error(&lines, "the line is too long");
    assert!(lines[0].len() < 200, "{lines:?}");
    // The limit holds for the text, its line break not counted.
    let mut exact = "ping".to_string();
    exact.push_str(&" ".repeat(MAX_LINE_BYTES - exact.len()));
    exact.push_str("\r\n");
    assert_eq!(gui.send(&exact), Flow::Continue);
    assert_eq!(gui.next(), "pong");
    // The position was not changed by the refused line.
    gui.answers("level depth=2");
    let (_, done) = gui.search("go think");
    done_move(&done, &Position::start(Variant::Bashni));
}

#[test]
fn the_egtb_parameter_loads_endgame_tables_and_plays_by_them() {
    let dir = std::env::temp_dir().join(format!("bashni-session-egtb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    bashni_egtb::build(&dir, 2, |_| {}).expect("the tables build");
    let dir_text = dir.to_str().expect("a UTF-8 path").to_string();
    let mut gui = Gui::new();
    assert!(
        gui.answers("hub")
            .contains(&r#"param name=egtb value="" type=string"#.to_string())
    );
    assert_error(
        &gui.answers("set-param name=egtb value=/no/such/place"),
        "egtb: /no/such/place",
    );
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).expect("a directory");
    assert_error(
        &gui.answers(&format!("set-param name=egtb value={}", empty.display())),
        "holds no endgame tables",
    );
    assert_eq!(
        gui.answers(&format!("set-param name=egtb value={dir_text}")),
        Vec::<String>::new()
    );
    assert!(
        gui.answers("hub")
            .contains(&format!("param name=egtb value={dir_text} type=string"))
    );
    // A king against a man: the tables' fastest win, found without a search.
    let text = "White: c7 0; Black: h6 0; White to move";
    let position = parse_position(Variant::Russian, text).expect("a position");
    gui.send(&format!("pos variant=russian pos=\"{text}\""));
    gui.send("level depth=2");
    let (infos, done) = gui.search("go think");
    assert_eq!(done_move(&done, &position), "c7-d8");
    assert_eq!(infos.last().and_then(|i| i.nodes), Some(0));
    assert_eq!(
        gui.answers("set-param name=egtb value=\"\""),
        Vec::<String>::new()
    );
    let (infos, _) = gui.search("go think");
    assert!(
        infos.last().and_then(|i| i.nodes).is_some_and(|n| n > 0),
        "searched again"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
