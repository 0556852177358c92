//! The SVG drawing, read back as XML.

use bashni_diagram::{Frame, Options, sheet_svg, svg, svg_with_arrow};
use bashni_rules::notation::{parse_move, parse_position};
use bashni_rules::{Position, Variant};

const TOWERS: &str =
    "White: a1 0, c1 1/0000, e3 00000000/0; Black: b8 110101/1, h6 1; White to move";

fn position(variant: Variant, text: &str) -> Position {
    parse_position(variant, text).expect("a position")
}

fn has_class(node: &roxmltree::Node<'_, '_>, class: &str) -> bool {
    node.attribute("class")
        .is_some_and(|c| c.split_whitespace().any(|w| w == class))
}

fn all<'a, 'i>(doc: &'a roxmltree::Document<'i>, class: &str) -> Vec<roxmltree::Node<'a, 'i>> {
    doc.descendants().filter(|n| has_class(n, class)).collect()
}

fn tower_at<'a, 'i>(doc: &'a roxmltree::Document<'i>, square: &str) -> roxmltree::Node<'a, 'i> {
    doc.descendants()
        .find(|n| has_class(n, "tower") && n.attribute("data-square") == Some(square))
        .unwrap_or_else(|| panic!("a tower on {square}"))
}

/// The classes of the commanding disc of the tower on `square`.
fn top_disc(doc: &roxmltree::Document<'_>, square: &str) -> String {
    let tower = tower_at(doc, square);
    let tops: Vec<_> = tower
        .descendants()
        .filter(|n| has_class(n, "disc") && has_class(n, "top"))
        .collect();
    assert_eq!(tops.len(), 1, "one top disc on {square}");
    // The commander is drawn last, over the others.
    let last = tower
        .children()
        .rev()
        .find(|n| has_class(n, "disc"))
        .expect("discs");
    assert_eq!(last, tops[0], "the top disc is drawn last on {square}");
    tops[0].attribute("class").unwrap_or_default().to_string()
}

fn face_fill(disc: roxmltree::Node<'_, '_>) -> String {
    disc.children()
        .find(|n| has_class(n, "face"))
        .and_then(|n| n.attribute("fill"))
        .expect("a face")
        .to_string()
}

#[test]
fn the_start_has_24_single_checkers_and_coordinates() {
    let text = svg(&Position::start(Variant::Bashni), &Options::default());
    let doc = roxmltree::Document::parse(&text).expect("valid XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.attribute("width"), Some("400"));
    assert_eq!(all(&doc, "tower").len(), 24);
    assert_eq!(all(&doc, "disc").len(), 24);
    assert_eq!(all(&doc, "sq").len(), 64);
    assert_eq!(all(&doc, "dark").len(), 32);
    assert!(all(&doc, "crown").is_empty());
    assert!(all(&doc, "arrow").is_empty());
    assert!(top_disc(&doc, "c3").contains("white"));
    assert!(top_disc(&doc, "f6").contains("black"));
    let coords: Vec<String> = all(&doc, "coord")
        .iter()
        .map(|n| n.text().unwrap_or_default().to_string())
        .collect();
    for label in [
        "a", "b", "c", "d", "e", "f", "g", "h", "1", "2", "3", "4", "5", "6", "7", "8",
    ] {
        assert_eq!(
            coords.iter().filter(|c| *c == label).count(),
            2,
            "{label} on both sides"
        );
    }
    let none = svg(
        &Position::start(Variant::Bashni),
        &Options {
            coordinates: false,
            ..Options::default()
        },
    );
    assert!(!none.contains("class=\"coord\""));
}

#[test]
fn towers_show_every_checker_kings_and_heights() {
    let p = position(Variant::Bashni, TOWERS);
    let text = svg(&p, &Options::default());
    let doc = roxmltree::Document::parse(&text).expect("valid XML");
    assert_eq!(all(&doc, "tower").len(), 5);
    // 1 + 5 + 9 + 7 + 1 checkers.
    assert_eq!(all(&doc, "disc").len(), 23);
    assert_eq!(tower_at(&doc, "c1").attribute("data-height"), Some("5"));
    assert_eq!(tower_at(&doc, "c1").attribute("data-tower"), Some("Wbbbb"));
    assert_eq!(
        tower_at(&doc, "b8").attribute("data-tower"),
        Some("BBbBbBW")
    );
    let c1 = top_disc(&doc, "c1");
    assert!(c1.contains("white") && c1.contains("king"), "{c1}");
    let a1 = top_disc(&doc, "a1");
    assert!(a1.contains("white") && !a1.contains("king"), "{a1}");
    let b8 = top_disc(&doc, "b8");
    assert!(b8.contains("black") && b8.contains("king"), "{b8}");
    // The face colours: a light top disc for White, a dark one for Black.
    let white_top = tower_at(&doc, "a1")
        .children()
        .find(|n| has_class(n, "top"))
        .expect("top");
    let black_top = tower_at(&doc, "h6")
        .children()
        .find(|n| has_class(n, "top"))
        .expect("top");
    assert_eq!(face_fill(white_top), "#fffdf6");
    assert_eq!(face_fill(black_top), "#1b1715");
    // Crowns: on the top of c1, b8 and h6; small crowns or dots on the kings inside b8.
    for square in ["c1", "b8", "h6"] {
        let tower = tower_at(&doc, square);
        let top = tower.children().find(|n| has_class(n, "top")).expect("top");
        assert!(
            top.children().any(|n| has_class(&n, "crown")),
            "a crown on {square}"
        );
    }
    for square in ["a1", "e3"] {
        assert!(
            !tower_at(&doc, square)
                .descendants()
                .any(|n| has_class(&n, "crown") || has_class(&n, "kingdot")),
            "no king mark on {square}"
        );
    }
    // b8 holds five kings: one crowned on top, four marked inside (compressed: dots).
    let b8_marks = tower_at(&doc, "b8")
        .descendants()
        .filter(|n| has_class(n, "kingdot"))
        .count();
    assert_eq!(b8_marks, 4);
    // Tall towers are compressed and carry their height; short ones do not.
    let badge = |square: &str| {
        tower_at(&doc, square)
            .descendants()
            .find(|n| has_class(n, "badge-text"))
            .and_then(|n| n.text().map(str::to_string))
    };
    assert_eq!(badge("e3").as_deref(), Some("9"));
    assert_eq!(badge("b8").as_deref(), Some("7"));
    assert_eq!(badge("c1"), None);
    assert_eq!(badge("a1"), None);
}

#[test]
fn a_capture_is_drawn_as_an_arrow_along_its_path() {
    let before = position(
        Variant::Russian,
        "White: c3 0; Black: d4 0, f6 0; White to move",
    );
    let mv = parse_move(&before, "c3:e5:g7").expect("a move");
    let after = before.after(&mv);
    let options = Options {
        last_move: Some(mv),
        ..Options::default()
    };
    let text = svg(&after, &options);
    let doc = roxmltree::Document::parse(&text).expect("valid XML");
    let arrows = all(&doc, "arrow");
    assert_eq!(arrows.len(), 1);
    assert_eq!(arrows[0].attribute("data-move"), Some("c3:e5:g7"));
    let line = arrows[0]
        .descendants()
        .find(|n| has_class(n, "arrow-line"))
        .expect("a line");
    // From c3 through e5 towards g7: three points.
    let points = line.attribute("points").expect("points");
    assert_eq!(points.split_whitespace().count(), 3, "{points}");
    assert!(points.starts_with("278,578 478,378 "), "{points}");
    assert_eq!(all(&doc, "arrow-head").len(), 1);
    assert_eq!(all(&doc, "mark-last").len(), 2);
    assert!(top_disc(&doc, "g7").contains("white"));
    assert_eq!(all(&doc, "tower").len(), 1);
    // Without the option there is no arrow.
    let plain = svg(&after, &Options::default());
    assert!(!plain.contains("arrow"));
}

#[test]
fn a_path_of_squares_is_drawn_as_the_same_arrow() {
    let before = position(
        Variant::Russian,
        "White: c3 0; Black: d4 0, f6 0; White to move",
    );
    let mv = parse_move(&before, "c3:e5:g7").expect("a move");
    let after = before.after(&mv);
    let squares: Vec<bashni_rules::Square> = ["c3", "e5", "g7"]
        .iter()
        .filter_map(|name| bashni_rules::Square::parse(name))
        .collect();
    let text = svg_with_arrow(&after, &squares, &Options::default());
    let doc = roxmltree::Document::parse(&text).expect("valid XML");
    let arrows = all(&doc, "arrow");
    assert_eq!(arrows.len(), 1);
    assert_eq!(arrows[0].attribute("data-move"), Some("c3-e5-g7"));
    let from_move = svg(
        &after,
        &Options {
            last_move: Some(mv),
            ..Options::default()
        },
    );
    // The same drawing but for the arrow's label.
    assert_eq!(text.replace("c3-e5-g7", "c3:e5:g7"), from_move);
    // One square is no path: no arrow, no marks.
    let one = svg_with_arrow(&after, &squares[..1], &Options::default());
    assert!(!one.contains("arrow") && !one.contains("mark-last"));
}

#[test]
fn a_game_frame_is_captioned_as_a_score_sheet_numbers_it() {
    let mut game = bashni_rules::Game::start(Variant::Russian);
    for text in ["c3-d4", "f6-g5", "d4-e5"] {
        let mv = parse_move(game.position(), text).expect("a move");
        game.play(&mv).expect("legal");
    }
    let start = Frame::of_game(&game, 0);
    assert_eq!(start.caption, "Start");
    assert_eq!(start.last_move, None);
    assert_eq!(start.position, *game.start_position());
    assert_eq!(Frame::of_game(&game, 1).caption, "1. c3-d4");
    assert_eq!(Frame::of_game(&game, 2).caption, "1... f6-g5");
    let last = Frame::of_game(&game, 3);
    assert_eq!(last.caption, "2. d4-e5");
    assert_eq!(last.position, *game.position());
    assert_eq!(
        last.last_move.map(|m| m.to_string()).as_deref(),
        Some("d4-e5")
    );
    // Past the end: the last position.
    assert_eq!(Frame::of_game(&game, 99), last);
}

#[test]
fn flipping_puts_a1_at_the_top_right() {
    let p = position(Variant::Russian, "White: a1 0; Black: h8 0; White to move");
    let at = |flipped: bool| {
        let text = svg(
            &p,
            &Options {
                flipped,
                ..Options::default()
            },
        );
        let doc = roxmltree::Document::parse(&text).expect("valid XML");
        tower_at(&doc, "a1")
            .attribute("transform")
            .expect("placed")
            .to_string()
    };
    assert_eq!(at(false), "translate(78 778)");
    assert_eq!(at(true), "translate(778 78)");
}

#[test]
fn titles_and_captions_are_escaped_text() {
    let evil = "<script>alert(1)</script> & \"quotes\"";
    let options = Options {
        title: Some(evil.to_string()),
        ..Options::default()
    };
    let text = svg(&Position::start(Variant::Bashni), &options);
    assert!(!text.contains("<script>"));
    let doc = roxmltree::Document::parse(&text).expect("valid XML");
    let title = all(&doc, "title");
    assert_eq!(title.len(), 1);
    assert_eq!(title[0].text(), Some(evil));
    let frames = vec![
        Frame {
            position: Position::start(Variant::Bashni),
            last_move: None,
            caption: evil.to_string(),
        };
        3
    ];
    let sheet = sheet_svg(&frames, 2, true, &options);
    let doc = roxmltree::Document::parse(&sheet).expect("valid XML");
    assert_eq!(all(&doc, "cell").len(), 3);
    assert_eq!(all(&doc, "tower").len(), 72);
    let captions: Vec<_> = all(&doc, "caption")
        .iter()
        .map(|n| n.text().unwrap_or_default().to_string())
        .collect();
    assert_eq!(captions, [evil, evil, evil]);
    // Two columns of 400 px diagrams and their gaps.
    let width: u32 = doc
        .root_element()
        .attribute("width")
        .and_then(|w| w.parse().ok())
        .expect("a width");
    assert!((800..900).contains(&width), "{width}");
}
