//! Painting the screen: the board on the left, the side panel on the right, the message and
//! input lines under the board.

use bashni_rules::{Checker, Color as Side, Position, Square, Tower};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use crate::app::App;
use crate::keys::Input;

/// The smallest screen the game is drawn on.
pub const MIN_WIDTH: u16 = 80;
/// The smallest screen the game is drawn on.
pub const MIN_HEIGHT: u16 = 24;

/// Colours when they are on; plain styles otherwise.
struct Theme {
    on: bool,
}

impl Theme {
    fn style(&self, fg: Option<Color>, bg: Option<Color>) -> Style {
        if !self.on {
            return Style::default();
        }
        let mut style = Style::default();
        if let Some(fg) = fg {
            style = style.fg(fg);
        }
        if let Some(bg) = bg {
            style = style.bg(bg);
        }
        style
    }

    fn bold(&self) -> Style {
        Style::default().add_modifier(Modifier::BOLD)
    }

    fn error(&self) -> Style {
        self.style(Some(Color::LightRed), None)
    }

    fn dim(&self) -> Style {
        self.style(Some(Color::DarkGray), None)
    }
}

/// How a square is marked.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    None,
    Cursor,
    Picked,
    Landing,
    Movable,
    LastMove,
}

impl Mark {
    fn brackets(self) -> (char, char) {
        match self {
            Mark::Cursor => ('[', ']'),
            Mark::Picked => ('(', ')'),
            Mark::Landing => ('*', '*'),
            Mark::Movable => ('+', ' '),
            Mark::None | Mark::LastMove => (' ', ' '),
        }
    }
}

fn checker_name(checker: Checker, first: bool) -> String {
    let color = match (checker.color, first) {
        (Side::White, true) => "White",
        (Side::Black, true) => "Black",
        (Side::White, false) => "white",
        (Side::Black, false) => "black",
    };
    format!("{color} {}", if checker.king { "king" } else { "man" })
}

/// `c3: White king / black man / black man`, or `c3: empty`.
pub(crate) fn composition(square: Square, tower: Tower) -> String {
    if tower.is_empty() {
        return format!("{square}: empty");
    }
    let names: Vec<String> = tower
        .checkers()
        .enumerate()
        .map(|(i, checker)| checker_name(checker, i == 0))
        .collect();
    format!("{square}: {}", names.join(" / "))
}

/// Paints the whole screen.
pub(crate) fn draw(app: &App, frame: &mut Frame) {
    let area = frame.area();
    let theme = Theme { on: app.colors };
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let text = format!(
            "This game needs a terminal of at least {MIN_WIDTH}x{MIN_HEIGHT}; this one is {}x{}. \
             Please make the window larger (q quits).",
            area.width, area.height
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    // Bigger squares when there is room for them.
    let (cw, ch) = if area.height >= 8 * 3 + 3 + 5 && area.width >= 8 * 7 + 4 + 40 {
        (7u16, 3u16)
    } else {
        (5, 2)
    };
    let board_w = 2 + 8 * cw + 2;
    let board_h = 8 * ch + 1 + 2;
    let left = Rect::new(area.x, area.y, board_w, area.height);
    let right = Rect::new(area.x + board_w, area.y, area.width - board_w, area.height);
    let board_area = Rect::new(left.x, left.y, left.width, board_h);
    let below = Rect::new(left.x, left.y + board_h, left.width, left.height - board_h);
    draw_board(app, frame, board_area, cw, ch, &theme);
    draw_below(app, frame, below, &theme);
    draw_panel(app, frame, right, &theme);
    if app.help {
        draw_help(frame, area, &theme);
    }
}

fn draw_board(app: &App, frame: &mut Frame, area: Rect, cw: u16, ch: u16, theme: &Theme) {
    let position = app.shown_position();
    let variant = match position.variant() {
        bashni_rules::Variant::Bashni => "Bashni",
        bashni_rules::Variant::Russian => "Russian draughts",
    };
    let title = match &app.replay {
        Some(replay) => format!(" {variant}: replay of {} ", replay.name),
        None => format!(" {variant} "),
    };
    let block = Block::default().borders(Borders::ALL).title(title);
    let inner = block.inner(area);
    frame.render_widget(block, area);

    let landings = if app.replay.is_none() {
        app.next_landings()
    } else {
        Vec::new()
    };
    let movable: Vec<Square> = if app.show_legal && app.replay.is_none() && app.path.is_empty() {
        app.paths().iter().map(|mv| mv.from()).collect()
    } else {
        Vec::new()
    };
    let last_move = match &app.replay {
        Some(replay) if replay.shown > 0 => replay.game.moves().get(replay.shown - 1).copied(),
        Some(_) => None,
        None => app.game.moves().last().copied(),
    };
    let mark_of = |square: Option<Square>, file: u8, rank: u8| -> Mark {
        if app.cursor == (file, rank) {
            return Mark::Cursor;
        }
        let Some(square) = square else {
            return Mark::None;
        };
        if app.path.contains(&square) {
            Mark::Picked
        } else if landings.contains(&square) {
            Mark::Landing
        } else if movable.contains(&square) {
            Mark::Movable
        } else if last_move.is_some_and(|mv| mv.from() == square || mv.to() == square) {
            Mark::LastMove
        } else {
            Mark::None
        }
    };
    let inner_w = (cw - 2) as usize;
    let mut lines: Vec<Line> = Vec::new();
    for row in 0..8u8 {
        let rank = if app.flipped { row } else { 7 - row };
        for sub in 0..ch {
            let mut spans = vec![Span::raw(if sub == 0 {
                format!("{} ", rank + 1)
            } else {
                "  ".to_string()
            })];
            for col in 0..8u8 {
                let file = if app.flipped { 7 - col } else { col };
                let square = Square::from_coords(file, rank);
                let mark = mark_of(square, file, rank);
                let (open, close) = mark.brackets();
                let tower = square.map_or(Tower::EMPTY, |s| position.tower(s));
                let body = cell_text(tower, sub, ch, inner_w, square.is_some(), theme.on);
                let bg = match mark {
                    Mark::Cursor => Color::Yellow,
                    Mark::Picked => Color::Blue,
                    Mark::Landing => Color::Cyan,
                    Mark::Movable => Color::LightGreen,
                    Mark::LastMove => Color::Indexed(100),
                    Mark::None if square.is_some() => Color::Green,
                    Mark::None => Color::Gray,
                };
                let fg = match tower.top() {
                    Some(top) if sub == 0 => Some(piece_fg(top.color)),
                    _ => Some(Color::Black),
                };
                let base = theme.style(fg, Some(bg));
                spans.push(Span::styled(open.to_string(), base));
                if sub == 0 || !theme.on {
                    spans.push(Span::styled(
                        body,
                        base.add_modifier(bold_if(sub == 0, theme)),
                    ));
                } else {
                    // Colour each checker of the lower rows by its side.
                    for c in body.chars() {
                        let fg = match c {
                            'w' | 'W' => piece_fg(Side::White),
                            'b' | 'B' => piece_fg(Side::Black),
                            _ => Color::Black,
                        };
                        spans.push(Span::styled(c.to_string(), theme.style(Some(fg), Some(bg))));
                    }
                }
                spans.push(Span::styled(close.to_string(), base));
            }
            lines.push(Line::from(spans));
        }
    }
    let mut files = String::from("  ");
    for col in 0..8u8 {
        let file = if app.flipped { 7 - col } else { col };
        let name = (b'a' + file) as char;
        files.push_str(&format!("{:^width$}", name, width = cw as usize));
    }
    lines.push(Line::from(files));
    frame.render_widget(Paragraph::new(lines), inner);
}

fn bold_if(bold: bool, theme: &Theme) -> Modifier {
    if bold && theme.on {
        Modifier::BOLD
    } else {
        Modifier::empty()
    }
}

fn piece_fg(side: Side) -> Color {
    match side {
        Side::White => Color::White,
        Side::Black => Color::Black,
    }
}

/// The text inside one square's row `sub` of `rows`: the top and the height on the first
/// row, the checkers below the top on the following rows (`+` when more do not fit).
fn cell_text(tower: Tower, sub: u16, rows: u16, width: usize, dark: bool, colors: bool) -> String {
    let mut text = String::new();
    if tower.is_empty() {
        if dark && sub == 0 && !colors {
            text.push_str(&format!("{:^width$}", "."));
        }
    } else if sub == 0 {
        if let Some(top) = tower.top() {
            text.push(top.letter());
        }
        if tower.height() > 1 {
            text.push_str(&tower.height().to_string());
        }
    } else {
        let below: Vec<char> = tower.checkers().skip(1).map(Checker::letter).collect();
        let start = (sub as usize - 1) * width;
        if start < below.len() {
            let rest = &below[start..];
            if rest.len() > width && sub + 1 == rows {
                text.extend(&rest[..width - 1]);
                text.push('+');
            } else {
                text.extend(rest.iter().take(width));
            }
        }
    }
    let mut out: String = text.chars().take(width).collect();
    while out.chars().count() < width {
        out.push(' ');
    }
    out
}

fn draw_below(app: &App, frame: &mut Frame, area: Rect, theme: &Theme) {
    if area.height == 0 {
        return;
    }
    let input_y = area.y + area.height.saturating_sub(2);
    let message_area = Rect::new(area.x, area.y, area.width, area.height.saturating_sub(2));
    let style = if app.error {
        theme.error()
    } else {
        Style::default()
    };
    frame.render_widget(
        Paragraph::new(app.message.as_str())
            .style(style)
            .wrap(Wrap { trim: true }),
        message_area,
    );
    let input = match &app.input {
        Input::Idle if app.confirm_quit => Line::from("Quit? y / n"),
        Input::Idle => Line::from(Span::styled("Type a move (c3-d4) or :command", theme.dim())),
        Input::Move(text) => Line::from(format!("Move: {text}_")),
        Input::Command(text) => Line::from(format!(":{text}_")),
    };
    frame.render_widget(
        Paragraph::new(input),
        Rect::new(area.x, input_y, area.width, 1),
    );
    if area.height >= 2 {
        frame.render_widget(
            Paragraph::new(Line::from(Span::styled(
                "?:help l:legal u:undo p:flip i:score q:quit",
                theme.dim(),
            ))),
            Rect::new(area.x, input_y + 1, area.width, 1),
        );
    }
}

fn clock_text(left: std::time::Duration) -> String {
    let total = left.as_secs();
    if total < 20 {
        format!(
            "{}:{:02}.{}",
            total / 60,
            total % 60,
            left.subsec_millis() / 100
        )
    } else {
        format!("{}:{:02}", total / 60, total % 60)
    }
}

fn draw_panel(app: &App, frame: &mut Frame, area: Rect, theme: &Theme) {
    let block = Block::default().borders(Borders::ALL).title(" Game ");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let width = inner.width as usize;
    let mut lines: Vec<Line> = Vec::new();
    let position: &Position = app.shown_position();
    let to_move = position.side_to_move();
    let clocks = app.clock_left();
    for side in [Side::White, Side::Black] {
        let who = match (&app.replay, app.level) {
            (Some(_), _) => String::new(),
            (None, Some(level)) if side != app.human => {
                format!("engine, level {}", level.number())
            }
            (None, Some(_)) => "you".to_string(),
            (None, None) => String::new(),
        };
        let arrow = if to_move == side && (!app.game.is_over() || app.replay.is_some()) {
            ">"
        } else {
            " "
        };
        let mut text = format!("{arrow} {:<6}{who}", side.name());
        if let Some(left) = clocks {
            let clock = clock_text(left[side.index()]);
            let pad = width.saturating_sub(text.chars().count() + clock.len());
            text.push_str(&" ".repeat(pad));
            text.push_str(&clock);
        }
        let style = if to_move == side {
            theme.bold()
        } else {
            Style::default()
        };
        lines.push(Line::from(Span::styled(text, style)));
    }
    // Status.
    let mut status = Vec::new();
    match &app.replay {
        Some(replay) => {
            status.push(format!(
                "Replay: ply {} of {}",
                replay.shown,
                replay.game.moves().len()
            ));
            if replay.shown == replay.game.moves().len()
                && let Some(outcome) = replay.game.outcome()
            {
                status.push(format!("Result: {outcome}"));
            } else {
                status.push(format!("{to_move} to move"));
            }
        }
        None => match app.game.outcome() {
            Some(outcome) => status.push(format!("Result: {outcome}")),
            None => {
                let mut line = format!("{to_move} to move");
                if app.engine_thinking() {
                    line.push_str(" (thinking...)");
                }
                status.push(line);
                if position.has_capture() {
                    status.push("Capture is forced.".to_string());
                }
                if let Some(offerer) = app.game.draw_offer() {
                    status.push(format!("{offerer} offers a draw."));
                }
            }
        },
    }
    for text in status {
        lines.extend(
            wrap_text(&text, width)
                .into_iter()
                .map(|t| Line::from(Span::styled(t, theme.style(Some(Color::LightYellow), None)))),
        );
    }
    // The cursor square's tower, broken between checkers.
    if let Some(square) = app.cursor() {
        let text = composition(square, position.tower(square));
        let wrapped = wrap_parts(&text, width);
        let shown = wrapped.len().min(4);
        for (i, t) in wrapped.iter().take(shown).enumerate() {
            let mut t = t.clone();
            if i + 1 == shown && wrapped.len() > shown {
                t = format!(
                    "{}...",
                    t.chars().take(width.saturating_sub(3)).collect::<String>()
                );
            }
            lines.push(Line::from(t));
        }
    } else {
        lines.push(Line::from(""));
    }
    // Analysis.
    if let Some(analysis) = &app.analysis {
        let mut head = if analysis.depth == 0 {
            "Analysing...".to_string()
        } else {
            format!(
                "Score {} depth {}",
                analysis.score.white_text(analysis.side),
                analysis.depth
            )
        };
        if analysis.running && analysis.depth > 0 {
            head.push_str(" ...");
        }
        lines.push(Line::from(Span::styled(
            head,
            theme.style(Some(Color::LightCyan), None),
        )));
        if !analysis.line.is_empty() {
            let text = format!("Best: {}", analysis.line.join(" "));
            lines.extend(wrap_text(&text, width).into_iter().take(2).map(Line::from));
        }
        let _ = analysis.ply;
    }
    // Legal moves on request.
    if app.show_legal && app.replay.is_none() {
        let moves: Vec<String> = app
            .game
            .legal_moves()
            .iter()
            .map(|mv| mv.to_string())
            .collect();
        let text = if moves.is_empty() {
            "Legal: none".to_string()
        } else {
            format!("Legal: {}", moves.join(" "))
        };
        let wrapped = wrap_text(&text, width);
        let room = 4;
        let count = wrapped.len();
        for (i, t) in wrapped.into_iter().take(room).enumerate() {
            if i + 1 == room && count > room {
                lines.push(Line::from(format!(
                    "{}...",
                    t.chars().take(width.saturating_sub(3)).collect::<String>()
                )));
            } else {
                lines.push(Line::from(Span::styled(
                    t,
                    theme.style(Some(Color::LightGreen), None),
                )));
            }
        }
    }
    // The moves, the latest (or the shown one in a replay) kept in view.
    let (game, shown) = match &app.replay {
        Some(replay) => (&replay.game, Some(replay.shown)),
        None => (&app.game, None),
    };
    let room = (inner.height as usize).saturating_sub(lines.len() + 1);
    lines.push(Line::from(Span::styled("Moves:", theme.bold())));
    let (move_lines, focus) = move_lines(game, shown, width, theme);
    let end = match focus {
        Some(at) => (at + 1)
            .max(room.min(move_lines.len()))
            .min(move_lines.len()),
        None => move_lines.len(),
    };
    let start = end.saturating_sub(room);
    lines.extend(move_lines[start..end].iter().cloned());
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The moves as numbered lines (`12. c3-d4 f6-e5`), and the line holding the shown ply.
fn move_lines<'a>(
    game: &bashni_rules::Game,
    shown: Option<usize>,
    width: usize,
    theme: &Theme,
) -> (Vec<Line<'a>>, Option<usize>) {
    let mut lines: Vec<Line> = Vec::new();
    let mut focus = None;
    let mut current: Vec<Span> = Vec::new();
    let mut used = 0usize;
    for (ply, mv) in game.moves().iter().enumerate() {
        let number = game.move_number(ply);
        let white_move = game.positions()[ply].side_to_move() == Side::White;
        let is_shown = shown == Some(ply + 1);
        let text = if is_shown {
            format!("[{mv}]")
        } else {
            format!("{mv}")
        };
        if white_move || current.is_empty() {
            if !current.is_empty() {
                lines.push(Line::from(std::mem::take(&mut current)));
            }
            let head = if white_move {
                format!("{number}. ")
            } else {
                format!("{number}. ... ")
            };
            used = head.len();
            current.push(Span::raw(head));
        } else if used + 1 + text.len() > width {
            lines.push(Line::from(std::mem::take(&mut current)));
            let head = format!("{number}. ... ");
            used = head.len();
            current.push(Span::raw(head));
        } else {
            current.push(Span::raw(" "));
            used += 1;
        }
        used += text.len();
        let style = if is_shown {
            theme.style(Some(Color::Black), Some(Color::Yellow))
        } else {
            Style::default()
        };
        current.push(Span::styled(text, style));
        if is_shown {
            focus = Some(lines.len());
        }
    }
    if !current.is_empty() {
        lines.push(Line::from(current));
    }
    if shown == Some(0) {
        focus = Some(0);
    }
    if let Some(outcome) = game.outcome() {
        lines.push(Line::from(outcome.result.score()));
    }
    (lines, focus)
}

/// Splits a composition into lines at its ` / ` marks (at spaces when one part is too long).
fn wrap_parts(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let parts: Vec<&str> = text.split(" / ").collect();
    for (i, part) in parts.iter().enumerate() {
        let piece = if i + 1 < parts.len() {
            format!("{part} /")
        } else {
            (*part).to_string()
        };
        let needed = line.chars().count() + usize::from(!line.is_empty()) + piece.chars().count();
        if !line.is_empty() && needed > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
        .into_iter()
        .flat_map(|l| wrap_text(&l, width))
        .collect()
}

/// Splits `text` into lines of at most `width` characters at spaces.
fn wrap_text(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let word_len = word.chars().count();
        let line_len = line.chars().count();
        if line_len > 0 && line_len + 1 + word_len > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        let mut rest: String = word.to_string();
        while line.chars().count() + rest.chars().count() > width {
            let room = width - line.chars().count();
            let head: String = rest.chars().take(room).collect();
            line.push_str(&head);
            lines.push(std::mem::take(&mut line));
            rest = rest.chars().skip(room).collect();
        }
        line.push_str(&rest);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

const HELP: &[&str] = &[
    "Moving",
    "  arrows      move the cursor",
    "  Enter/Space pick a tower, then each landing square",
    "  Esc         cancel",
    "  a-h ...     type a move: c3-d4, c3:e5:g3, cd4; Enter plays",
    "Keys",
    "  l legal moves   p flip board   u take back   i score",
    "  ? this help     q quit",
    "Commands (type : first)",
    "  :save FILE   :open FILE [N]   :play (from a replay)",
    "  :new [bashni|russian]   :resign   :draw (offer, accept, claim)",
    "  :level N (1-8, 0 = two players)   :quit",
    "Replay: ←/→ one move, Home/End first/last",
    "",
    "Press any key to go back.",
];

fn draw_help(frame: &mut Frame, area: Rect, theme: &Theme) {
    let width = 70.min(area.width);
    let height = (HELP.len() as u16 + 2).min(area.height);
    let rect = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    frame.render_widget(Clear, rect);
    let lines: Vec<Line> = HELP
        .iter()
        .map(|l| {
            if l.starts_with(' ') || l.is_empty() {
                Line::from(*l)
            } else {
                Line::from(Span::styled(*l, theme.bold()))
            }
        })
        .collect();
    frame.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" Help ")),
        rect,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use bashni_rules::Color as C;

    #[test]
    fn compositions_name_every_checker() {
        let tower = Tower::from_checkers([
            Checker::king(C::White),
            Checker::man(C::Black),
            Checker::man(C::Black),
        ])
        .expect("a tower");
        let square = Square::parse("c3").expect("square");
        assert_eq!(
            composition(square, tower),
            "c3: White king / black man / black man"
        );
        assert_eq!(cell_text(tower, 0, 2, 3, true, false), "W3 ");
        assert_eq!(cell_text(tower, 1, 2, 3, true, false), "bb ");
    }

    #[test]
    fn text_wraps_at_spaces() {
        assert_eq!(wrap_text("ab cd ef", 5), vec!["ab cd", "ef"]);
        assert_eq!(wrap_text("abcdefg", 3), vec!["abc", "def", "g"]);
        assert_eq!(
            wrap_parts("c3: White king / black man / black man", 30),
            vec!["c3: White king / black man /", "black man"]
        );
    }
}
