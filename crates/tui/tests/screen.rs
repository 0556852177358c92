//! The game screen driven by keys and checked on ratatui's test backend.

use std::time::{Duration, Instant};

use bashni_engine::Level;
use bashni_rules::notation::parse_position;
use bashni_rules::{Color, Game, Move, Reason, TimeControl, Variant};
use bashni_tui::{App, Config};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Color as Paint;

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        app.handle_key(key(KeyCode::Char(c)));
    }
    app.handle_key(key(KeyCode::Enter));
}

fn terminal(width: u16, height: u16) -> Terminal<TestBackend> {
    Terminal::new(TestBackend::new(width, height)).expect("a test terminal")
}

/// The screen as text, one line per row.
fn screen(terminal: &mut Terminal<TestBackend>, app: &App) -> String {
    terminal.draw(|frame| app.draw(frame)).expect("drawn");
    let buffer = terminal.backend().buffer();
    let mut text = String::new();
    for y in 0..buffer.area.height {
        for x in 0..buffer.area.width {
            text.push_str(buffer[(x, y)].symbol());
        }
        text.push('\n');
    }
    text
}

fn config(variant: Variant, position: &str) -> Config {
    let mut config = Config::new(variant);
    config.position = Some(parse_position(variant, position).expect("a valid position"));
    config.think_time = Duration::from_millis(200);
    config
}

/// A move that makes progress: the longest capture, else the first move.
fn choose(game: &Game) -> Move {
    let moves = game.legal_moves();
    *moves
        .iter()
        .max_by_key(|mv| (mv.captured().len(), mv.promotes()))
        .expect("a legal move")
}

#[test]
fn two_players_type_moves_to_a_result() {
    let position = "White: c1 0, e1 0, g3 0; Black: b6 0, d8 0, h6 0; White to move";
    let mut app = App::new(config(Variant::Russian, position)).expect("app");
    let mut term = terminal(80, 24);
    let mut played = Vec::new();
    for _ in 0..400 {
        if app.game().is_over() {
            break;
        }
        let mv = choose(app.game());
        type_text(&mut app, &mv.to_string());
        played.push(mv);
        assert_eq!(app.game().moves(), &played[..], "{}", app.message());
    }
    let outcome = app.game().outcome().expect("the game ended");
    let text = screen(&mut term, &app);
    assert!(
        text.contains(&format!("Result: {}", outcome.result)),
        "{text}"
    );
    let reason: String = outcome.reason.to_string().chars().take(15).collect();
    assert!(text.contains(&reason), "{text}");
    assert!(text.contains("Moves:"), "{text}");
    let last = app.game().moves().last().expect("a move").to_string();
    assert!(text.contains(&last), "{text}");
}

/// Moves the cursor onto a square by arrow keys (board not flipped).
fn go_to(app: &mut App, file: u8, rank: u8) {
    for _ in 0..16 {
        let (f, r) = app.cursor_at();
        let code = if f < file {
            KeyCode::Right
        } else if f > file {
            KeyCode::Left
        } else if r < rank {
            KeyCode::Up
        } else if r > rank {
            KeyCode::Down
        } else {
            return;
        };
        app.handle_key(key(code));
    }
    panic!("the cursor did not reach the square");
}

#[test]
fn a_game_against_the_engine_by_cursor_keys() {
    let position = "White: a1 1, c3 0, e3 0; Black: f6 0, h8 0; White to move";
    let mut config = config(Variant::Russian, position);
    config.level = Level::new(1);
    config.color = Color::White;
    let mut app = App::new(config).expect("app");
    let mut term = terminal(80, 24);
    let mut engine_moves = 0;
    for _ in 0..200 {
        if app.game().is_over() {
            break;
        }
        assert_eq!(app.game().side_to_move(), Color::White);
        let mv = choose(app.game());
        let ply = app.game().ply();
        go_to(&mut app, mv.from().file(), mv.from().rank());
        app.handle_key(key(KeyCode::Enter));
        for landing in mv.landings() {
            if app.game().ply() > ply {
                break;
            }
            go_to(&mut app, landing.file(), landing.rank());
            app.handle_key(key(KeyCode::Enter));
        }
        assert_eq!(app.game().ply(), ply + 1, "{}", app.message());
        assert_eq!(app.game().moves()[ply].to(), mv.to());
        // Wait for the engine's answer.
        let deadline = Instant::now() + Duration::from_secs(30);
        while !app.game().is_over() && app.game().side_to_move() == Color::Black {
            assert!(Instant::now() < deadline, "the engine did not answer");
            std::thread::sleep(Duration::from_millis(5));
            app.tick(Instant::now());
        }
        if app.game().ply() == ply + 2 {
            engine_moves += 1;
        }
    }
    assert!(engine_moves > 0);
    let outcome = app.game().outcome().expect("the game ended");
    let text = screen(&mut term, &app);
    assert!(
        text.contains(&format!("Result: {}", outcome.result)),
        "{text}"
    );
    assert!(text.contains("engine, level 1"), "{text}");
}

#[test]
fn the_panel_names_every_checker_of_the_cursor_square() {
    let position = "White: c3 1/00, e1 0; Black: h8 0; White to move";
    let mut app = App::new(config(Variant::Bashni, position)).expect("app");
    let mut term = terminal(80, 24);
    go_to(&mut app, 2, 2);
    let text = screen(&mut term, &app);
    // The panel breaks the list between checkers.
    assert!(text.contains("c3: White king / black man /"), "{text}");
    assert!(text.contains("│black man "), "{text}");
    // On the board: the king with the height, the men below it on the second row.
    assert!(text.contains("[W3 ]"), "{text}");
    assert!(text.contains("[bb ]"), "{text}");
    go_to(&mut app, 4, 0);
    let text = screen(&mut term, &app);
    assert!(text.contains("e1: White man"), "{text}");
}

/// The rank labels down the board's left edge, top to bottom.
fn rank_labels(text: &str) -> String {
    text.lines()
        .skip(1)
        .filter_map(|line| line.chars().nth(1).filter(char::is_ascii_digit))
        .collect()
}

#[test]
fn flipping_turns_the_board() {
    let mut app = App::new(Config::new(Variant::Bashni)).expect("app");
    let mut term = terminal(80, 24);
    let text = screen(&mut term, &app);
    assert_eq!(rank_labels(&text), "87654321");
    app.handle_key(key(KeyCode::Char('p')));
    let text = screen(&mut term, &app);
    assert_eq!(rank_labels(&text), "12345678");
}

#[test]
fn an_illegal_move_shows_why_and_changes_nothing() {
    let mut app = App::new(Config::new(Variant::Bashni)).expect("app");
    let mut term = terminal(80, 24);
    let before = screen(&mut term, &app);
    type_text(&mut app, "d4-e5");
    assert_eq!(app.game().ply(), 0);
    let text = screen(&mut term, &app);
    assert!(text.contains("`d4-e5` is illegal"), "{text}");
    assert!(text.contains("d4"), "{text}");
    // The board part of the screen is as it was.
    let board = |t: &str| -> Vec<String> {
        t.lines()
            .take(19)
            .map(|l| l.chars().take(44).collect())
            .collect()
    };
    assert_eq!(board(&before), board(&text));
    // And a legal one is played.
    type_text(&mut app, "cd4");
    assert_eq!(app.game().ply(), 1);
    assert!(screen(&mut term, &app).contains("1. c3-d4"));
}

#[test]
fn saving_and_replaying_a_game() {
    let dir = std::env::temp_dir().join(format!("bashni-tui-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let file = dir.join("game.pdn");
    let mut app = App::new(Config::new(Variant::Bashni)).expect("app");
    let mut term = terminal(80, 24);
    type_text(&mut app, "c3-d4");
    type_text(&mut app, "f6-e5");
    type_text(&mut app, "d4:f6");
    let played = app.game().clone();
    assert_eq!(played.ply(), 3, "{}", app.message());
    type_text(&mut app, &format!(":save {}", file.display()));
    let saved = std::fs::read_to_string(&file).expect("the file was written");
    assert!(saved.contains("1. c3-d4 f6-e5 2. d4:f6"), "{saved}");
    assert!(saved.contains("[GameType \"60"), "{saved}");

    type_text(&mut app, &format!(":open {}", file.display()));
    assert!(app.in_replay(), "{}", app.message());
    assert_eq!(app.shown_position(), &played.positions()[0]);
    for ply in 1..=3 {
        app.handle_key(key(KeyCode::Right));
        assert_eq!(app.shown_position(), &played.positions()[ply]);
    }
    app.handle_key(key(KeyCode::Right));
    assert_eq!(app.shown_position(), &played.positions()[3]);
    let text = screen(&mut term, &app);
    assert!(text.contains("Replay: ply 3 of 3"), "{text}");
    assert!(text.contains("[d4:f6]"), "{text}");
    app.handle_key(key(KeyCode::Left));
    assert_eq!(app.shown_position(), &played.positions()[2]);
    app.handle_key(key(KeyCode::Home));
    assert_eq!(app.shown_position(), &played.positions()[0]);
    // Moves are refused in a replay; :play goes on from the shown position.
    type_text(&mut app, "c3-b4");
    assert!(app.in_replay());
    app.handle_key(key(KeyCode::Right));
    type_text(&mut app, ":play");
    assert!(!app.in_replay());
    assert_eq!(app.game().ply(), 1);
    assert_eq!(app.game().side_to_move(), Color::Black);
    std::fs::remove_dir_all(&dir).ok();
}

fn coloured_cells(term: &Terminal<TestBackend>) -> usize {
    term.backend()
        .buffer()
        .content()
        .iter()
        .filter(|cell| cell.fg != Paint::Reset || cell.bg != Paint::Reset)
        .count()
}

#[test]
fn plain_mode_paints_no_colour() {
    let position = "White: c3 1/00, e1 0; Black: h8 0; White to move";
    let mut plain = config(Variant::Bashni, position);
    plain.colors = false;
    let mut app = App::new(plain.clone()).expect("app");
    app.handle_key(key(KeyCode::Char('l')));
    app.handle_key(key(KeyCode::Enter));
    let mut term = terminal(80, 24);
    let text = screen(&mut term, &app);
    assert_eq!(coloured_cells(&term), 0);
    // Still readable: the cursor in brackets, pieces as letters, empty dark squares as dots.
    assert!(text.contains("(W3 )") || text.contains("[W3 ]"), "{text}");
    assert!(text.contains(" . "), "{text}");
    // The same screen with colours does paint.
    plain.colors = true;
    let app = App::new(plain).expect("app");
    screen(&mut term, &app);
    assert!(coloured_cells(&term) > 100);
}

#[test]
fn a_small_terminal_asks_for_more_room() {
    let app = App::new(Config::new(Variant::Russian)).expect("app");
    let mut term = terminal(60, 20);
    let text = screen(&mut term, &app);
    assert!(
        text.contains("needs a terminal of at least 80x24"),
        "{text}"
    );
    assert!(!text.contains("Moves:"));
    term.backend_mut().resize(80, 24);
    let text = screen(&mut term, &app);
    assert!(!text.contains("needs a terminal"), "{text}");
    assert!(text.contains("Moves:"), "{text}");
    // A larger terminal gets larger squares.
    term.backend_mut().resize(120, 40);
    let text = screen(&mut term, &app);
    assert!(text.contains("Moves:"), "{text}");
    assert_eq!(rank_labels(&text), "87654321");
}

#[test]
fn the_engine_takes_a_draw_only_when_it_stands_worse() {
    for (position, accepted) in [
        (
            "White: a1 1, c3 1, e1 1, e3 0, g3 0; Black: b8 0; White to move",
            true,
        ),
        (
            "White: a1 0; Black: b8 1, d8 1, f8 0, h8 0; White to move",
            false,
        ),
    ] {
        let mut config = config(Variant::Bashni, position);
        config.level = Level::new(Level::MAX);
        config.color = Color::White;
        let mut app = App::new(config).expect("app");
        type_text(&mut app, ":draw");
        assert_eq!(app.game().draw_offer(), Some(Color::White), "{position}");
        let deadline = Instant::now() + Duration::from_secs(30);
        while app.game().draw_offer().is_some() {
            assert!(Instant::now() < deadline, "the engine did not answer");
            std::thread::sleep(Duration::from_millis(5));
            app.tick(Instant::now());
        }
        let outcome = app.game().outcome();
        if accepted {
            assert_eq!(
                outcome.map(|o| o.reason),
                Some(Reason::Agreement),
                "{position}"
            );
        } else {
            assert_eq!(outcome, None, "{position}");
            assert!(app.message().contains("declines"), "{}", app.message());
        }
    }
}

#[test]
fn the_clocks_run_for_the_side_to_move_and_go_into_the_record() {
    let mut config = Config::new(Variant::Bashni);
    config.time = Some(TimeControl::parse_minutes("3+2").expect("valid"));
    let mut app = App::new(config).expect("app");
    // Taken after the screen's own start: at least ten seconds pass below.
    let start = Instant::now();
    let full = Duration::from_secs(180);
    app.tick(start + Duration::from_secs(10));
    let [white, black] = app.clock_left().expect("clocks");
    assert!(white <= Duration::from_secs(170) && white > Duration::from_secs(160));
    assert_eq!(black, full);
    type_text(&mut app, "c3-d4");
    let [white, black] = app.clock_left().expect("clocks");
    assert!(white <= Duration::from_secs(172) && white > Duration::from_secs(162));
    assert_eq!(black, full);
    app.tick(start + Duration::from_secs(400));
    let outcome = app.game().outcome().expect("Black's flag fell");
    assert_eq!(outcome.reason, Reason::Time(Color::Black));
    assert_eq!(app.clock_left().expect("clocks")[1], Duration::ZERO);

    let file = std::env::temp_dir().join(format!("bashni-tui-clock-{}.pdn", std::process::id()));
    type_text(&mut app, &format!(":save {}", file.display()));
    let saved = std::fs::read_to_string(&file).expect("the file was written");
    std::fs::remove_file(&file).ok();
    assert!(saved.contains("[TimeControl \"180+2\"]"), "{saved}");
}
