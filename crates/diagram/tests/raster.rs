//! The PNG and GIF pictures, decoded and read pixel by pixel.

use bashni_diagram::{DiagramError, Fonts, Frame, Options, gif, png, sheet_png};
use bashni_rules::notation::parse_position;
use bashni_rules::{Game, Position, Variant};

/// The board is 856 units wide: a frame of 28, then squares of 100.
const BOARD: f64 = 856.0;

struct Image {
    width: u32,
    height: u32,
    rgba: Vec<u8>,
}

impl Image {
    fn decode(bytes: &[u8]) -> Image {
        let decoder = ::png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().expect("a PNG header");
        let mut buffer = vec![0; reader.output_buffer_size().expect("a size")];
        let info = reader.next_frame(&mut buffer).expect("a PNG image");
        assert_eq!(info.color_type, ::png::ColorType::Rgba);
        assert_eq!(info.bit_depth, ::png::BitDepth::Eight);
        buffer.truncate(info.buffer_size());
        Image {
            width: info.width,
            height: info.height,
            rgba: buffer,
        }
    }

    fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let i = ((y * self.width + x) * 4) as usize;
        [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2]]
    }

    /// The pixel at the centre of a square, as the diagram places it.
    fn at(&self, square: &str, flipped: bool) -> [u8; 3] {
        self.at_offset(square, flipped, 0.0, 0.0)
    }

    /// The pixel `dx` board units right of and `dy` below the centre of a square.
    fn at_offset(&self, square: &str, flipped: bool, dx: f64, dy: f64) -> [u8; 3] {
        let bytes = square.as_bytes();
        let (col, row) = (f64::from(bytes[0] - b'a'), f64::from(bytes[1] - b'1'));
        let (x, y) = if flipped {
            (7.0 - col, row)
        } else {
            (col, 7.0 - row)
        };
        let scale = f64::from(self.width) / BOARD;
        let px = (28.0 + x * 100.0 + 50.0 + dx) * scale;
        let py = (28.0 + y * 100.0 + 50.0 + dy) * scale;
        self.pixel(px as u32, py as u32)
    }
}

fn near(pixel: [u8; 3], want: [u8; 3]) -> bool {
    pixel
        .iter()
        .zip(want)
        .all(|(a, b)| (i32::from(*a) - i32::from(b)).abs() <= 12)
}

const LIGHT_SQ: [u8; 3] = [0xee, 0xd9, 0xb0];
const DARK_SQ: [u8; 3] = [0x9a, 0x6b, 0x43];
const WHITE_TOP: [u8; 3] = [0xff, 0xfd, 0xf6];
const BLACK_TOP: [u8; 3] = [0x1b, 0x17, 0x15];

fn towers() -> Position {
    parse_position(
        Variant::Bashni,
        "White: a1 0, c1 1/0000, e3 00000000/1; Black: b8 110101/1, h6 0; White to move",
    )
    .expect("a position")
}

#[test]
fn png_squares_and_top_discs_have_their_colours_both_ways_round() {
    for flipped in [false, true] {
        let options = Options {
            size_px: 428,
            flipped,
            ..Options::default()
        };
        let image = Image::decode(&png(&towers(), &options, &Fonts::default()).expect("a PNG"));
        assert_eq!((image.width, image.height), (428, 428));
        // The middle of the top face: 4.5 units above the centre for a single checker,
        // 22.5 for a tall tower, whose middle shows the sides of the checkers below; on a
        // king (b8, c1) to the right of the crown.
        for (square, dy, want) in [
            ("a2", 0.0, LIGHT_SQ),
            ("h1", 0.0, LIGHT_SQ),
            ("b2", 0.0, DARK_SQ),
            ("g7", 0.0, DARK_SQ),
            ("a1", 0.0, WHITE_TOP),
            ("a1", -4.5, WHITE_TOP),
            ("e3", -22.5, WHITE_TOP),
            ("b8", -22.5, BLACK_TOP),
            ("c1", -22.5, WHITE_TOP),
            ("h6", 0.0, BLACK_TOP),
        ] {
            let king = square == "b8" || square == "c1";
            let got = image.at_offset(square, flipped, if king { 18.0 } else { 0.0 }, dy);
            assert!(
                near(got, want),
                "{square} flipped={flipped}: {got:?}, want {want:?}"
            );
        }
        // The frame is dark brown, the corner of the picture.
        assert!(near(image.pixel(2, 2), [0x4a, 0x35, 0x26]));
    }
}

#[test]
fn png_of_the_start_shows_both_armies() {
    let image = Image::decode(
        &png(
            &Position::start(Variant::Russian),
            &Options::default(),
            &Fonts::default(),
        )
        .expect("a PNG"),
    );
    assert_eq!(image.width, 400);
    for square in ["a1", "c3", "h2"] {
        assert!(near(image.at(square, false), WHITE_TOP), "{square}");
    }
    for square in ["b8", "f6", "h6"] {
        assert!(near(image.at(square, false), BLACK_TOP), "{square}");
    }
    for square in ["b4", "d4", "e5", "g5"] {
        assert!(near(image.at(square, false), DARK_SQ), "{square}");
    }
}

#[test]
fn png_text_needs_fonts_and_draws_with_them() {
    let mut db = bashni_diagram::fontdb::Database::new();
    db.load_system_fonts();
    let fonts = Fonts::new(db);
    if fonts.is_empty() {
        eprintln!("no system fonts: the text check is skipped");
        return;
    }
    // The coordinate "a" under the a-file: some pixels in the bottom frame turn light.
    let options = Options::default();
    let with = Image::decode(&png(&towers(), &options, &fonts).expect("a PNG"));
    let without = Image::decode(&png(&towers(), &options, &Fonts::default()).expect("a PNG"));
    let scale = f64::from(with.width) / BOARD;
    let light = |image: &Image| {
        let mut count = 0;
        for y in ((BOARD - 26.0) * scale) as u32..((BOARD - 2.0) * scale) as u32 {
            for x in (48.0 * scale) as u32..(108.0 * scale) as u32 {
                if image.pixel(x, y)[0] > 180 {
                    count += 1;
                }
            }
        }
        count
    };
    assert_eq!(light(&without), 0);
    assert!(light(&with) > 5, "{}", light(&with));
}

#[test]
fn gif_has_one_frame_per_position() {
    let mut game = Game::start(Variant::Bashni);
    let mut frames = vec![Frame {
        position: *game.position(),
        last_move: None,
        caption: "start".into(),
    }];
    for _ in 0..4 {
        let mv = game.legal_moves()[0];
        game.play(&mv).expect("a legal move");
        frames.push(Frame {
            position: *game.position(),
            last_move: Some(mv),
            caption: mv.to_string(),
        });
    }
    let options = Options {
        size_px: 120,
        ..Options::default()
    };
    let bytes = gif(&frames, true, &options, &Fonts::default(), 500).expect("a GIF");
    let mut decoder = ::gif::DecodeOptions::new();
    decoder.set_color_output(::gif::ColorOutput::RGBA);
    let mut decoder = decoder
        .read_info(std::io::Cursor::new(bytes))
        .expect("a GIF header");
    assert_eq!(decoder.width(), 120);
    let mut delays = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        delays.push(frame.delay);
    }
    assert_eq!(delays, [50, 50, 50, 50, 150]);
    assert_eq!(
        gif(&[], true, &options, &Fonts::default(), 500),
        Err(DiagramError::NoFrames)
    );
}

#[test]
fn sheet_png_has_a_cell_per_column() {
    let frames: Vec<Frame> = (0..3)
        .map(|i| Frame {
            position: Position::start(Variant::Bashni),
            last_move: None,
            caption: format!("{i}"),
        })
        .collect();
    let options = Options {
        size_px: 100,
        ..Options::default()
    };
    let image =
        Image::decode(&sheet_png(&frames, 3, false, &options, &Fonts::default()).expect("a PNG"));
    assert!(image.width > 300 && image.width < 320, "{}", image.width);
    assert!(image.height > 100 && image.height < 120, "{}", image.height);
    assert_eq!(
        sheet_png(&[], 3, false, &options, &Fonts::default()),
        Err(DiagramError::NoFrames)
    );
}
