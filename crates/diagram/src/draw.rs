//! The drawing itself: SVG text in board units (a square is 100 units), the same geometry and
//! colours as the board of the web page (`crates/server/web/towers.js` and `style.css`).

use std::fmt::Write;

use bashni_rules::{Checker, Color, Move, Position, Square, Tower};

use crate::{Frame, MAX_COLUMNS, Options, escape};

/// A move as the picture marks it: the squares it passes (start first, then every landing
/// square) and its text.
pub(crate) struct Marked {
    squares: Vec<Square>,
    label: String,
}

impl Marked {
    /// The mark of a move.
    pub(crate) fn of(mv: &Move) -> Marked {
        let mut squares = vec![mv.from()];
        squares.extend_from_slice(mv.landings());
        Marked {
            squares,
            label: mv.to_string(),
        }
    }

    /// The mark of a path of squares, written with dashes; `None` for fewer than two.
    pub(crate) fn path(squares: &[Square]) -> Option<Marked> {
        (squares.len() >= 2).then(|| Marked {
            squares: squares.to_vec(),
            label: squares
                .iter()
                .map(Square::to_string)
                .collect::<Vec<_>>()
                .join("-"),
        })
    }
}

/// A square in board units.
const SQ: f64 = 100.0;
/// The frame around the squares, room for the coordinates.
const MARGIN: f64 = 28.0;
/// The board with its frame.
const BOARD: f64 = SQ * 8.0 + MARGIN * 2.0;
/// The band above a diagram that holds its title.
const TITLE_H: f64 = 52.0;
/// The band under a diagram of a sheet that holds its caption.
const CAPTION_H: f64 = 48.0;
/// Room between the diagrams of a sheet.
const GAP: f64 = 28.0;

/// Half the width and half the height of a disc's face.
const DISC_RX: f64 = 40.0;
const DISC_RY: f64 = 14.0;
/// Thickness of the commanding checker and of the others.
const TOP_T: f64 = 13.0;
const DISC_T: f64 = 9.0;
/// Towers higher than this are drawn compressed, with their height in a badge.
const TALL: usize = 5;

const FONT: &str = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";

const FRAME: &str = "#4a3526";
const LIGHT_SQ: &str = "#eed9b0";
const DARK_SQ: &str = "#9a6b43";
const COORD: &str = "#f0e3cc";
const INK: &str = "#2b2622";
const LAST_MARK: &str = "#ffd64a";
const ARROW: &str = "#1a63c4";

/// The colours of a disc: side fill, face fill, face fill on top, edge, ring.
struct Paint {
    side: &'static str,
    face: &'static str,
    top_face: &'static str,
    edge: &'static str,
    ring: &'static str,
}

const WHITE_PAINT: Paint = Paint {
    side: "#e7dfcc",
    face: "#f7f2e6",
    top_face: "#fffdf6",
    edge: "#6b5a44",
    ring: "#c9bb9f",
};

const BLACK_PAINT: Paint = Paint {
    side: "#3a332e",
    face: "#27221f",
    top_face: "#1b1715",
    edge: "#b7a896",
    ring: "#5b514a",
};

/// A number as SVG writes it: at most two decimals, no trailing zeros.
fn num(value: f64) -> String {
    let rounded = (value * 100.0).round() / 100.0;
    if rounded == rounded.trunc() {
        format!("{}", rounded as i64)
    } else {
        let text = format!("{rounded:.2}");
        text.trim_end_matches('0').to_string()
    }
}

/// The top left corner of a square's picture.
fn origin(square: Square, flipped: bool) -> (f64, f64) {
    let col = f64::from(square.file());
    let row = f64::from(square.rank());
    let (x, y) = if flipped {
        (7.0 - col, row)
    } else {
        (col, 7.0 - row)
    };
    (MARGIN + x * SQ, MARGIN + y * SQ)
}

/// The centre of a square's picture.
fn centre(square: Square, flipped: bool) -> (f64, f64) {
    let (x, y) = origin(square, flipped);
    (x + SQ / 2.0, y + SQ / 2.0)
}

/// The picture's height in pixels for a drawing of `w` × `h` units at `width_px` wide.
fn height_px(width_px: u32, w: f64, h: f64) -> u32 {
    (f64::from(width_px) * h / w).round().max(1.0) as u32
}

fn open_svg(out: &mut String, width_px: u32, w: f64, h: f64, class: &str) {
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"{class}\" width=\"{width_px}\" \
         height=\"{}\" viewBox=\"0 0 {} {}\">",
        height_px(width_px, w, h),
        num(w),
        num(h)
    );
    let _ = write!(
        out,
        "<rect class=\"background\" x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>",
        num(w),
        num(h)
    );
}

/// One diagram as a whole SVG document.
pub(crate) fn diagram(
    position: &Position,
    last_move: Option<&Marked>,
    title: Option<&str>,
    options: &Options,
) -> String {
    let mut out = String::with_capacity(24_000);
    let title_h = if title.is_some() { TITLE_H } else { 0.0 };
    open_svg(
        &mut out,
        options.width_px(),
        BOARD,
        BOARD + title_h,
        "diagram",
    );
    if let Some(title) = title {
        title_text(&mut out, BOARD / 2.0, TITLE_H - 16.0, 30.0, title, "title");
    }
    let _ = write!(
        out,
        "<g class=\"board\" transform=\"translate(0 {})\">",
        num(title_h)
    );
    board(
        &mut out,
        position,
        last_move,
        options.flipped,
        options.coordinates,
    );
    out.push_str("</g></svg>");
    out
}

/// Several diagrams on one sheet.
pub(crate) fn sheet(frames: &[Frame], columns: usize, arrows: bool, options: &Options) -> String {
    let columns = columns.clamp(1, MAX_COLUMNS).min(frames.len().max(1));
    let rows = frames.len().div_ceil(columns).max(1);
    let cell_w = BOARD;
    let cell_h = BOARD + CAPTION_H;
    let title_h = if options.title.is_some() {
        TITLE_H
    } else {
        0.0
    };
    let w = columns as f64 * cell_w + (columns as f64 + 1.0) * GAP;
    let h = title_h + rows as f64 * cell_h + (rows as f64 + 1.0) * GAP;
    let width_px = (f64::from(options.width_px()) * w / BOARD).round() as u32;
    let mut out = String::with_capacity(24_000 * frames.len().max(1));
    open_svg(&mut out, width_px, w, h, "sheet");
    if let Some(title) = &options.title {
        title_text(&mut out, w / 2.0, TITLE_H, 34.0, title, "title");
    }
    for (i, frame) in frames.iter().enumerate() {
        let x = GAP + (i % columns) as f64 * (cell_w + GAP);
        let y = title_h + GAP + (i / columns) as f64 * (cell_h + GAP);
        let _ = write!(
            out,
            "<g class=\"cell\" transform=\"translate({} {})\"><g class=\"board\">",
            num(x),
            num(y)
        );
        let last = if arrows {
            frame.last_move.as_ref().map(Marked::of)
        } else {
            None
        };
        board(
            &mut out,
            &frame.position,
            last.as_ref(),
            options.flipped,
            options.coordinates,
        );
        out.push_str("</g>");
        if !frame.caption.is_empty() {
            title_text(
                &mut out,
                BOARD / 2.0,
                BOARD + CAPTION_H - 12.0,
                30.0,
                &frame.caption,
                "caption",
            );
        }
        out.push_str("</g>");
    }
    out.push_str("</svg>");
    out
}

fn title_text(out: &mut String, x: f64, y: f64, size: f64, text: &str, class: &str) {
    let _ = write!(
        out,
        "<text class=\"{class}\" x=\"{}\" y=\"{}\" font-family=\"{FONT}\" font-size=\"{}\" \
         font-weight=\"600\" text-anchor=\"middle\" fill=\"{INK}\">{}</text>",
        num(x),
        num(y),
        num(size),
        escape(text)
    );
}

/// The board, its coordinates, the pieces and the arrow, in board units from (0, 0).
fn board(
    out: &mut String,
    position: &Position,
    last_move: Option<&Marked>,
    flipped: bool,
    coordinates: bool,
) {
    let _ = write!(
        out,
        "<rect class=\"frame\" x=\"0\" y=\"0\" width=\"{b}\" height=\"{b}\" fill=\"{FRAME}\"/>",
        b = num(BOARD)
    );
    out.push_str("<g class=\"squares\">");
    for rank in 0..8u8 {
        for file in 0..8u8 {
            let dark = (file + rank) % 2 == 0;
            let col = if flipped { 7 - file } else { file };
            let row = if flipped { rank } else { 7 - rank };
            let x = MARGIN + f64::from(col) * SQ;
            let y = MARGIN + f64::from(row) * SQ;
            let name = format!("{}{}", char::from(b'a' + file), rank + 1);
            let _ = write!(
                out,
                "<rect class=\"sq {}\" data-square=\"{name}\" x=\"{}\" y=\"{}\" width=\"{s}\" \
                 height=\"{s}\" fill=\"{}\"/>",
                if dark { "dark" } else { "light" },
                num(x),
                num(y),
                if dark { DARK_SQ } else { LIGHT_SQ },
                s = num(SQ)
            );
        }
    }
    out.push_str("</g>");
    if let Some(mv) = last_move {
        let ends = [mv.squares.first(), mv.squares.last()];
        for square in ends.into_iter().flatten().copied() {
            let (x, y) = origin(square, flipped);
            let _ = write!(
                out,
                "<rect class=\"mark-last\" x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\" \
                 fill=\"{LAST_MARK}\" fill-opacity=\"0.42\"/>",
                num(x),
                num(y),
                s = num(SQ)
            );
        }
    }
    if coordinates {
        coordinate_labels(out, flipped);
    }
    out.push_str("<g class=\"pieces\">");
    // From the back row forward, so that tall towers overlap the squares behind them.
    let mut squares: Vec<Square> = position.occupied().squares().collect();
    squares.sort_by(|a, b| {
        let (ya, yb) = (centre(*a, flipped).1, centre(*b, flipped).1);
        ya.total_cmp(&yb).then(a.index().cmp(&b.index()))
    });
    for square in squares {
        let (x, y) = centre(square, flipped);
        tower(out, square, position.tower(square), x, y);
    }
    out.push_str("</g>");
    if let Some(mv) = last_move {
        arrow(out, mv, flipped);
    }
}

fn coordinate_labels(out: &mut String, flipped: bool) {
    out.push_str("<g class=\"coordinates\">");
    for i in 0..8u8 {
        let file = char::from(b'a' + if flipped { 7 - i } else { i });
        let rank = if flipped { i + 1 } else { 8 - i };
        let along = MARGIN + f64::from(i) * SQ + SQ / 2.0;
        for (x, y, text) in [
            (along, BOARD - 7.0, file.to_string()),
            (along, 21.0, file.to_string()),
            (14.0, along + 7.0, rank.to_string()),
            (BOARD - 14.0, along + 7.0, rank.to_string()),
        ] {
            let _ = write!(
                out,
                "<text class=\"coord\" x=\"{}\" y=\"{}\" font-family=\"{FONT}\" font-size=\"20\" \
                 font-weight=\"600\" text-anchor=\"middle\" fill=\"{COORD}\">{text}</text>",
                num(x),
                num(y)
            );
        }
    }
    out.push_str("</g>");
}

/// A small crown, a base and three points, centred at (cx, cy).
fn crown(out: &mut String, cx: f64, cy: f64, size: f64, class: &str, stroke_width: f64) {
    let w = size;
    let h = size * 0.7;
    let x0 = cx - w / 2.0;
    let y0 = cy + h / 2.0;
    let points = [
        (x0, y0),
        (x0, y0 - h * 0.55),
        (x0 + w * 0.22, y0 - h * 0.25),
        (cx, y0 - h),
        (x0 + w * 0.78, y0 - h * 0.25),
        (x0 + w, y0 - h * 0.55),
        (x0 + w, y0),
    ];
    let mut d = String::new();
    for (i, (x, y)) in points.iter().enumerate() {
        let _ = write!(
            d,
            "{}{} {} ",
            if i == 0 { "M" } else { "L" },
            num(*x),
            num(*y)
        );
    }
    d.push('Z');
    let _ = write!(
        out,
        "<path class=\"{class}\" d=\"{d}\" fill=\"#e5b32a\" stroke=\"#7a5a08\" \
         stroke-width=\"{}\" stroke-linejoin=\"round\"/>",
        num(stroke_width)
    );
}

/// A tower seen from the side, centred at (x, y): the bottom checker drawn first, the
/// commanding checker last and thickest.
fn tower(out: &mut String, square: Square, tower: Tower, x: f64, y: f64) {
    let checkers: Vec<Checker> = tower.checkers().collect();
    let n = checkers.len();
    if n == 0 {
        return;
    }
    let compressed = n > TALL;
    let mut thickness = vec![TOP_T];
    let each = if compressed {
        (36.0 / (n as f64 - 1.0)).max(1.6)
    } else {
        DISC_T
    };
    thickness.extend(std::iter::repeat_n(each, n - 1));
    let sum: f64 = thickness.iter().sum();
    let y_top = -sum / 2.0 + 2.0;
    let mut ys = Vec::with_capacity(n);
    let mut at = y_top;
    for t in &thickness {
        ys.push(at);
        at += t;
    }
    let letters = tower.letters();
    let _ = write!(
        out,
        "<g class=\"tower\" data-square=\"{square}\" data-height=\"{n}\" data-tower=\"{letters}\" \
         transform=\"translate({} {})\">",
        num(x),
        num(y)
    );
    for i in (0..n).rev() {
        let checker = checkers[i];
        let paint = match checker.color {
            Color::White => &WHITE_PAINT,
            Color::Black => &BLACK_PAINT,
        };
        let top = i == 0;
        let yt = ys[i];
        let yb = yt + thickness[i];
        let stroke = if top {
            2.6
        } else if compressed {
            0.7
        } else {
            1.6
        };
        let _ = write!(
            out,
            "<g class=\"disc {}{}{}{}\" data-index=\"{i}\">",
            checker.color.code(),
            if top { " top" } else { "" },
            if checker.king { " king" } else { "" },
            if compressed && !top { " thin" } else { "" },
        );
        let _ = write!(
            out,
            "<path class=\"side\" d=\"M {l} {yt} L {l} {yb} A {rx} {ry} 0 0 0 {r} {yb} L {r} {yt} Z\" \
             fill=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>",
            paint.side,
            paint.edge,
            num(stroke),
            l = num(-DISC_RX),
            r = num(DISC_RX),
            rx = num(DISC_RX),
            ry = num(DISC_RY),
            yt = num(yt),
            yb = num(yb),
        );
        let _ = write!(
            out,
            "<ellipse class=\"face\" cx=\"0\" cy=\"{}\" rx=\"{}\" ry=\"{}\" fill=\"{}\" \
             stroke=\"{}\" stroke-width=\"{}\"/>",
            num(yt),
            num(DISC_RX),
            num(DISC_RY),
            if top { paint.top_face } else { paint.face },
            paint.edge,
            num(stroke)
        );
        if top {
            let _ = write!(
                out,
                "<ellipse class=\"ring\" cx=\"0\" cy=\"{}\" rx=\"{}\" ry=\"{}\" fill=\"none\" \
                 stroke=\"{}\" stroke-width=\"1.4\"/>",
                num(yt),
                num(DISC_RX * 0.68),
                num(DISC_RY * 0.62),
                paint.ring
            );
            if checker.king {
                crown(out, 0.0, yt, 22.0, "crown", 1.5);
            }
        } else if checker.king {
            // A king inside the tower: a mark on its edge.
            if compressed {
                let _ = write!(
                    out,
                    "<circle class=\"kingdot\" cx=\"{}\" cy=\"{}\" r=\"2.6\" fill=\"#e5b32a\" \
                     stroke=\"#7a5a08\" stroke-width=\"0.8\"/>",
                    num(DISC_RX - 6.0),
                    num(yb + DISC_RY * 0.6)
                );
            } else {
                let my = (yt + yb) / 2.0 + DISC_RY * 0.9;
                crown(out, 0.0, my - 1.0, 11.0, "crown small", 1.0);
            }
        }
        out.push_str("</g>");
    }
    if compressed {
        let bx = DISC_RX + 4.0;
        let by = y_top - DISC_RY - 2.0;
        let _ = write!(
            out,
            "<g class=\"badge\"><circle cx=\"{x}\" cy=\"{y}\" r=\"13\" fill=\"#1a4f8a\" \
             stroke=\"#ffffff\" stroke-width=\"2\"/><text class=\"badge-text\" x=\"{x}\" \
             y=\"{ty}\" font-family=\"{FONT}\" font-size=\"16\" font-weight=\"700\" \
             text-anchor=\"middle\" fill=\"#ffffff\">{n}</text></g>",
            x = num(bx),
            y = num(by),
            ty = num(by + 5.5),
        );
    }
    out.push_str("</g>");
}

/// The move as an arrow through the centres of its squares, the head on the last one.
fn arrow(out: &mut String, mv: &Marked, flipped: bool) {
    let mut points: Vec<(f64, f64)> = mv.squares.iter().map(|s| centre(*s, flipped)).collect();
    if points.len() < 2 {
        return;
    }
    let head_len = 34.0;
    let head_half = 19.0;
    let (ex, ey) = points[points.len() - 1];
    let (px, py) = points[points.len() - 2];
    let (dx, dy) = (ex - px, ey - py);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    // The line stops inside the head so that its round end does not show past the point.
    let last = points.len() - 1;
    points[last] = (ex - ux * head_len * 0.7, ey - uy * head_len * 0.7);
    let line: Vec<String> = points
        .iter()
        .map(|(x, y)| format!("{},{}", num(*x), num(*y)))
        .collect();
    let (bx, by) = (ex - ux * head_len, ey - uy * head_len);
    let _ = write!(
        out,
        "<g class=\"arrow\" data-move=\"{}\" opacity=\"0.88\"><polyline class=\"arrow-line\" \
         points=\"{}\" fill=\"none\" stroke=\"{ARROW}\" stroke-width=\"10\" \
         stroke-linejoin=\"round\" stroke-linecap=\"round\"/><polygon class=\"arrow-head\" \
         points=\"{},{} {},{} {},{}\" fill=\"{ARROW}\"/></g>",
        escape(&mv.label),
        line.join(" "),
        num(ex),
        num(ey),
        num(bx - uy * head_half),
        num(by + ux * head_half),
        num(bx + uy * head_half),
        num(by - ux * head_half),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(3.0), "3");
        assert_eq!(num(-4.5), "-4.5");
        assert_eq!(num(1.23456), "1.23");
        assert_eq!(num(0.1), "0.1");
    }

    #[test]
    fn squares_land_where_the_board_shows_them() {
        let a1 = Square::parse("a1").expect("a square");
        assert_eq!(centre(a1, false), (MARGIN + 50.0, MARGIN + 750.0));
        assert_eq!(centre(a1, true), (MARGIN + 750.0, MARGIN + 50.0));
    }
}
