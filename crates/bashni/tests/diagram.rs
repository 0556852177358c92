//! `bashni diagram`, run as a user runs it.

mod common;

use common::bashni;

use std::path::PathBuf;
use std::process::Output;

/// A folder of its own for each test.
fn dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bashni-diagram-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn text(path: &PathBuf) -> String {
    std::fs::read_to_string(path).expect("the picture was written")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

const GAME: &str = "[Event \"Club <night> & more\"]\n[GameType \"25\"]\n\n\
                    1. c3-d4 f6-g5 2. d4-e5 d6:f4 3. g3:e5 *\n";

#[test]
fn a_position_to_svg_and_png() {
    let dir = dir("position");
    let svg = dir.join("p.svg");
    let position = "White: c1 1/0000, e3 0; Black: b8 110101/1; White to move";
    let output = bashni(&[
        "diagram",
        "--position",
        position,
        "--out",
        svg.to_str().expect("path"),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let picture = text(&svg);
    assert!(picture.starts_with("<svg"));
    assert_eq!(picture.matches("class=\"tower\"").count(), 3);
    assert!(picture.contains("data-tower=\"Wbbbb\""));
    assert!(picture.contains("class=\"crown\""));
    assert!(picture.contains("class=\"coord\""));

    let png = dir.join("p.png");
    let output = bashni(&[
        "diagram",
        "--position",
        position,
        "--size",
        "200",
        "--flip",
        "--out",
        png.to_str().expect("path"),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let bytes = std::fs::read(&png).expect("written");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let width = u32::from_be_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]);
    let height = u32::from_be_bytes([bytes[20], bytes[21], bytes[22], bytes[23]]);
    assert_eq!((width, height), (200, 200));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_game_after_a_ply_with_an_arrow_a_sheet_and_a_gif() {
    let dir = dir("game");
    let pdn = dir.join("game.pdn");
    std::fs::write(&pdn, GAME).expect("write PDN");
    let pdn = pdn.to_str().expect("path");
    let svg = dir.join("ply.svg");
    let output = bashni(&[
        "diagram",
        "--variant",
        "russian",
        "--pdn",
        pdn,
        "--ply",
        "4",
        "--arrow",
        "--out",
        svg.to_str().expect("path"),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let picture = text(&svg);
    assert_eq!(picture.matches("class=\"tower\"").count(), 23);
    assert!(picture.contains("data-move=\"d6:f4\""), "the fourth ply");
    assert!(picture.contains("data-square=\"f4\" data-height=\"1\" data-tower=\"b\""));

    // The end of the game, without an arrow unless asked for.
    let end = dir.join("end.svg");
    let output = bashni(&[
        "diagram",
        "--variant",
        "russian",
        "--pdn",
        pdn,
        "--out",
        end.to_str().expect("path"),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let picture = text(&end);
    assert!(!picture.contains("class=\"arrow\""));
    assert!(picture.contains("data-square=\"e5\" data-height=\"1\" data-tower=\"w\""));

    let sheet = dir.join("sheet.svg");
    let output = bashni(&[
        "diagram",
        "--variant",
        "russian",
        "--pdn",
        pdn,
        "--sheet",
        "--every",
        "2",
        "--arrow",
        "--title",
        "<b>Club</b>",
        "--out",
        sheet.to_str().expect("path"),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let picture = text(&sheet);
    // Plies 0, 2, 4 and the last, 5.
    assert_eq!(picture.matches("class=\"cell\"").count(), 4);
    for caption in [">Start<", ">1... f6-g5<", ">2... d6:f4<", ">3. g3:e5<"] {
        assert!(picture.contains(caption), "{caption}");
    }
    assert!(picture.contains("&lt;b&gt;Club&lt;/b&gt;"));
    assert!(!picture.contains("<b>"));

    let gif = dir.join("game.gif");
    let output = bashni(&[
        "diagram",
        "--variant",
        "russian",
        "--pdn",
        pdn,
        "--size",
        "64",
        "--out",
        gif.to_str().expect("path"),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let bytes = std::fs::read(&gif).expect("written");
    assert_eq!(&bytes[..6], b"GIF89a");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_is_named_and_exits_with_2() {
    let dir = dir("bad");
    let pdn = dir.join("game.pdn");
    std::fs::write(&pdn, GAME).expect("write PDN");
    let pdn = pdn.to_str().expect("path");
    let out = dir.join("x.svg");
    let out = out.to_str().expect("path");
    let cases: &[(&[&str], &str)] = &[
        (
            &["diagram", "--position", "White: z9 0", "--out", out],
            "--position",
        ),
        (
            &["diagram", "--out", "picture.bmp"],
            "must be .svg, .png or .gif",
        ),
        (
            &[
                "diagram",
                "--variant",
                "russian",
                "--pdn",
                pdn,
                "--ply",
                "9",
                "--out",
                out,
            ],
            "the game has only 5 plies",
        ),
        (
            &[
                "diagram",
                "--variant",
                "russian",
                "--pdn",
                pdn,
                "--game",
                "3",
                "--out",
                out,
            ],
            "there is no game 3",
        ),
        (
            &["diagram", "--pdn", "/no/such/file.pdn", "--out", out],
            "/no/such/file.pdn",
        ),
        (&["diagram", "--size", "5", "--out", out], "--size 5"),
        (&["diagram", "--sheet", "--out", "game.gif"], "--sheet"),
    ];
    for (args, message) in cases {
        let output = bashni(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let error = stderr(&output);
        assert!(error.contains(message), "{args:?}: {error}");
        assert!(!error.contains("panicked"), "{error}");
    }
    assert!(!std::path::Path::new(out).exists());
    // A move the rules refuse, named with its place in the file.
    std::fs::write(dir.join("bad.pdn"), "[GameType \"25\"]\n\n1. c3-e5 *\n").expect("write");
    let output = bashni(&[
        "diagram",
        "--variant",
        "russian",
        "--pdn",
        dir.join("bad.pdn").to_str().expect("path"),
        "--out",
        out,
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("c3-e5"), "{}", stderr(&output));
    std::fs::remove_dir_all(&dir).ok();
}
