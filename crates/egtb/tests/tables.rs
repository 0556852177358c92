//! The tables of up to three pieces, built once for all tests, against the rulebook and
//! known endgame theory of Russian draughts.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use bashni_egtb::{
    EgtbError, Probe, Signature, Tablebase, Verdict, build, build_slices, build_with_threads,
    file_name,
};
use bashni_rules::notation::parse_position;
use bashni_rules::{Color, Position, Variant};

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bashni-egtb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The directory of the tables of up to three pieces, built once.
fn three_piece_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch("three");
        build(&dir, 3, |_| {}).expect("the tables build");
        dir
    })
}

fn tables() -> &'static Tablebase {
    static TABLES: OnceLock<Tablebase> = OnceLock::new();
    TABLES.get_or_init(|| Tablebase::open(three_piece_dir()).expect("the tables load"))
}

/// The tables of up to three pieces and, beside them, three kings against one king.
fn kings_tables() -> &'static Tablebase {
    static TABLES: OnceLock<Tablebase> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = scratch("kings");
        copy_dir(three_piece_dir(), &dir);
        let mut wanted = Signature::all_up_to(3);
        wanted.push(signature("0301"));
        let reports = build_slices(&dir, &wanted, 2, |_| {}).expect("the slice builds");
        assert_eq!(reports.iter().filter(|r| !r.reused).count(), 1);
        let tables = Tablebase::open(&dir).expect("the tables load");
        let _ = std::fs::remove_dir_all(&dir);
        tables
    })
}

fn russian(text: &str) -> Position {
    parse_position(Variant::Russian, text).expect("a test position")
}

fn probe(text: &str) -> Probe {
    tables()
        .probe(&russian(text))
        .unwrap_or_else(|| panic!("{text} is covered"))
}

fn signature(code: &str) -> Signature {
    Signature::from_code(code).expect("a signature")
}

#[test]
fn every_stored_value_agrees_with_the_moves() {
    let tables = tables();
    assert_eq!(tables.max_pieces(), 3);
    // 2 pieces: 4 slices (man or king each); 3 pieces: 2 * 3 * 2 = 12 slices.
    assert_eq!(tables.signatures().len(), 4 + 12);
    let mut slices_seen = 0;
    let report = tables.verify(|_, done, total| {
        assert!(done <= total);
        slices_seen += usize::from(done == total);
    });
    assert_eq!(slices_seen, 16);
    assert_eq!(report.mismatches, 0, "{:?}", report.examples);
    let positions: u64 = tables
        .signatures()
        .iter()
        .map(|s| tables.counts(*s).expect("held").positions())
        .sum();
    assert_eq!(report.checked, positions);
    assert!(positions > 300_000, "{positions}");
}

#[test]
fn one_thread_and_many_build_the_same_files() {
    // Three threads share even these small slices (a thread takes a few thousand
    // positions at a time), so their runs race on every pass.
    let one = scratch("one-thread");
    let many = scratch("three-threads");
    build_with_threads(&one, 3, 1, |_| {}).expect("built on one thread");
    build_with_threads(&many, 3, 3, |_| {}).expect("built on three threads");
    let mut files = 0;
    for entry in std::fs::read_dir(&one).expect("the directory lists") {
        let name = entry.expect("an entry").file_name();
        let a = std::fs::read(one.join(&name)).expect("one thread's file reads");
        let b = std::fs::read(many.join(&name)).expect("three threads' file reads");
        assert!(a == b, "{name:?} differs between one thread and three");
        files += 1;
    }
    assert_eq!(files, Signature::all_up_to(3).len());
    let _ = std::fs::remove_dir_all(&one);
    let _ = std::fs::remove_dir_all(&many);
}

#[test]
fn a_lone_king_against_a_lone_king_is_a_draw() {
    assert_eq!(
        probe("White: c1 1; Black: h8 1; White to move").verdict,
        Verdict::Draw
    );
    assert_eq!(
        probe("White: e1 1; Black: d8 1; Black to move").verdict,
        Verdict::Draw
    );
    // Unless the side to move takes the other king at once (rulebook 6.1.7: no pieces left).
    let capture = probe("White: a1 1; Black: c3 1; White to move");
    assert_eq!(
        capture,
        Probe {
            verdict: Verdict::Win,
            distance: 1
        }
    );
    let counts = tables().counts(signature("0101")).expect("held");
    assert!(
        counts.draws > 2 * (counts.wins + counts.losses),
        "{counts:?}"
    );
}

#[test]
fn two_kings_against_one_king_are_a_draw_in_general() {
    // The lone king on the big road.
    assert_eq!(
        probe("White: c1 1, e1 1; Black: d4 1; White to move").verdict,
        Verdict::Draw
    );
    // Off it, and far from the kings.
    assert_eq!(
        probe("White: a1 1, c1 1; Black: h4 1; White to move").verdict,
        Verdict::Draw
    );
    let counts = tables().counts(signature("0201")).expect("held");
    assert!(counts.draws > counts.wins + counts.losses, "{counts:?}");
}

#[test]
fn a_blocked_side_has_lost() {
    // Rulebook 6.1.7: a side whose pieces are all blocked loses. Black's man on h2 can
    // neither step to g1 nor jump the white man there.
    let blocked = probe("White: g1 0; Black: h2 0; Black to move");
    assert_eq!(
        blocked,
        Probe {
            verdict: Verdict::Loss,
            distance: 0
        }
    );
}

#[test]
fn a_king_against_a_lone_man_far_from_its_crowning_rank_wins() {
    // White crowns at once (c7-d8 or c7-b8), and the new king catches the black man before
    // it reaches rank 1.
    let crowning = probe("White: c7 0; Black: h6 0; White to move");
    assert_eq!(crowning.verdict, Verdict::Win);
    // Black to move, a man one step from crowning goes through: a king against a king.
    assert_eq!(
        probe("White: c7 0; Black: h2 0; Black to move").verdict,
        Verdict::Draw
    );
}

#[test]
fn perfect_play_ends_the_game_in_the_stored_distance() {
    let tables = tables();
    let start = russian("White: c7 0; Black: h6 0; White to move");
    let Probe { verdict, distance } = tables.probe(&start).expect("covered");
    assert_eq!(verdict, Verdict::Win);
    let mut position = start;
    let mut plies = 0;
    while let Some(mv) = tables.best_move(&position) {
        let before = tables.probe(&position).expect("covered");
        position = position.after(&mv);
        plies += 1;
        if let Some(after) = tables.probe(&position) {
            assert_eq!(
                after.distance + 1,
                before.distance,
                "each move one ply nearer"
            );
        }
        assert!(plies <= distance, "the game goes on past the distance");
    }
    assert_eq!(plies, distance);
    // The game is over: Black, to move, has no piece or no move.
    assert_eq!(position.side_to_move(), Color::Black);
    assert!(position.legal_moves().is_empty());
}

#[test]
fn positions_the_tables_do_not_cover() {
    let tables = tables();
    assert_eq!(
        tables.probe(&russian(
            "White: a1 1, c1 1, e1 1; Black: h8 1; White to move"
        )),
        None
    );
    assert_eq!(tables.probe(&Position::start(Variant::Russian)), None);
    let bashni = parse_position(Variant::Bashni, "White: c1 1; Black: h8 1; White to move")
        .expect("a Bashni position");
    assert_eq!(tables.probe(&bashni), None);
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a directory");
    for entry in std::fs::read_dir(from).expect("readable") {
        let entry = entry.expect("an entry");
        std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copied");
    }
}

fn open_error(dir: &Path) -> String {
    match Tablebase::open(dir) {
        Ok(_) => panic!("a damaged table was accepted"),
        Err(error @ EgtbError::BadFile { .. }) => error.to_string(),
        Err(other) => panic!("not the error of a bad file: {other}"),
    }
}

#[test]
fn a_damaged_or_truncated_file_is_refused_with_a_reason() {
    let dir = scratch("damaged");
    copy_dir(three_piece_dir(), &dir);
    let file = dir.join(file_name(signature("0201")));
    let good = std::fs::read(&file).expect("readable");

    let mut flipped = good.clone();
    let last = flipped.len() - 1;
    flipped[last / 2 + 20] ^= 0x55;
    std::fs::write(&file, &flipped).expect("written");
    let message = open_error(&dir);
    assert!(message.contains("russian-0201.egtb"), "{message}");
    assert!(
        message.contains("checksum") || message.contains("unpacked"),
        "{message}"
    );

    std::fs::write(&file, &good[..good.len() - 7]).expect("written");
    let message = open_error(&dir);
    assert!(message.contains("truncated"), "{message}");

    std::fs::write(&file, &good[..10]).expect("written");
    assert!(open_error(&dir).contains("shorter than the header"));

    let mut other = good.clone();
    other[0] = b'X';
    std::fs::write(&file, &other).expect("written");
    assert!(open_error(&dir).contains("BSHNEGTB"));

    // The right values under another slice's name.
    std::fs::write(&file, &good).expect("written");
    std::fs::rename(&file, dir.join(file_name(signature("0102")))).expect("renamed");
    assert!(open_error(&dir).contains("the name says"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn building_again_keeps_the_sound_slices_and_mends_a_damaged_one() {
    let dir = scratch("resume");
    copy_dir(three_piece_dir(), &dir);
    let file = dir.join(file_name(signature("1101")));
    let good = std::fs::read(&file).expect("readable");
    std::fs::write(&file, &good[..good.len() / 2]).expect("written");
    let reports = build(&dir, 3, |_| {}).expect("built again");
    assert_eq!(reports.len(), 16);
    for report in &reports {
        let mended = report.signature == signature("1101");
        assert_eq!(report.reused, !mended, "{}", report.signature);
    }
    assert_eq!(std::fs::read(&file).expect("readable"), good);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn three_kings_holding_the_big_road_win_against_a_king_off_it() {
    // Petrov's triangle: with the big road (a1-h8) held, three kings catch a lone king that
    // is off it (rulebook 6.1.8.3 counts fifteen moves for it).
    let tables = kings_tables();
    let position = russian("White: a1 1, c1 1, e1 1; Black: d8 1; White to move");
    let probe = tables.probe(&position).expect("covered");
    assert_eq!(probe.verdict, Verdict::Win);
    assert!(probe.distance <= 29, "within fifteen moves: {probe}");
    let report = tables.verify(|_, _, _| {});
    assert_eq!(report.mismatches, 0, "{:?}", report.examples);
}

#[test]
fn three_kings_draw_against_a_king_on_the_big_road_to_move() {
    // Rulebook 6.1.8.5: none of the three on the big road, the lone king on it.
    let tables = kings_tables();
    for text in [
        "White: a3 1, c1 1, e1 1; Black: d4 1; Black to move",
        "White: c1 1, e1 1, g1 1; Black: h8 1; Black to move",
    ] {
        let probe = tables.probe(&russian(text)).expect("covered");
        assert_eq!(probe.verdict, Verdict::Draw, "{text}");
    }
}

#[test]
fn a_slice_is_not_built_before_the_slices_it_leads_into() {
    let dir = scratch("order");
    match build_slices(&dir, &[signature("0301")], 1, |_| {}) {
        Err(EgtbError::MissingSlice { slice, needs }) => {
            assert_eq!(slice, signature("0301"));
            assert_eq!(needs.pieces(), 3);
        }
        other => panic!("built without its successors: {other:?}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Positions of several materials of two and three pieces, White to move and Black to move.
const MATERIALS: &[&str] = &[
    "W:Wc7:Bh6",
    "B:Wc3:Bf6",
    "W:WKa1:BKh8",
    "W:WKa1,c3:BKh8",
    "B:WKa1:BKh8,f6",
    "W:WKa1,Kc1:BKd8",
    "W:Wc3,e3:Bd6",
    "B:WKb2:Bd6,f6",
];

/// Tables read on demand within a bound answer exactly as the tables loaded whole, once a
/// slice is in memory; a probe never waits for the disk; the memory stays within the bound
/// however many slices are used, the least recently used making room.
#[test]
fn slices_read_on_demand_stay_within_their_bound_and_agree() {
    let whole = tables();
    let positions: Vec<Position> = MATERIALS
        .iter()
        .map(|fen| {
            bashni_rules::notation::read_position(Variant::Russian, fen).expect("a position")
        })
        .collect();
    // Room for the largest of these slices, but not for all of them.
    let sizes: Vec<u64> = positions
        .iter()
        .map(|position| {
            let alone = Tablebase::open_on_demand(three_piece_dir(), u64::MAX).expect("opens");
            alone.read_now(Signature::of(position)).expect("reads");
            alone.memory()
        })
        .collect();
    let bound = sizes.iter().copied().max().expect("sizes") * 2;
    assert!(
        sizes.iter().sum::<u64>() > bound,
        "{sizes:?}: the bound must force drops"
    );

    let lazy = Tablebase::open_on_demand(three_piece_dir(), bound).expect("opens");
    assert_eq!(lazy.memory(), 0, "nothing read at the start");
    assert_eq!(lazy.max_pieces(), whole.max_pieces());
    assert_eq!(lazy.signatures(), whole.signatures());
    assert_eq!(lazy.memory_limit(), Some(bound));
    for position in &positions {
        let signature = Signature::of(position);
        assert!(lazy.has(signature));
        assert!(whole.probe(position).is_some());
        assert!(lazy.read_now(signature).expect("reads"));
        assert_eq!(lazy.probe(position), whole.probe(position), "{position:?}");
        assert!(lazy.memory() <= bound, "{} > {bound}", lazy.memory());
    }
    assert!(lazy.problems().is_empty(), "{:?}", lazy.problems());

    // Moves by the tables need the slices their moves lead into too.
    let roomy = Tablebase::open_on_demand(three_piece_dir(), u64::MAX).expect("opens");
    for position in &positions {
        roomy.read_now(Signature::of(position)).expect("reads");
        for mv in position.legal_moves().iter() {
            let after = position.after(mv);
            if !after.owned_by(Color::White).is_empty() && !after.owned_by(Color::Black).is_empty()
            {
                roomy.read_now(Signature::of(&after)).expect("reads");
            }
        }
        assert_eq!(
            roomy.best_move(position),
            whole.best_move(position),
            "{position:?}"
        );
    }

    // A fresh set: its first probe does not wait, and answers nothing.
    let fresh = Tablebase::open_on_demand(three_piece_dir(), bound).expect("opens");
    assert_eq!(fresh.probe(&positions[0]), None);
    fresh.read_now(Signature::of(&positions[0])).expect("reads");
    assert_eq!(fresh.probe(&positions[0]), whole.probe(&positions[0]));
}

/// A bad file read on demand is reported, not a panic, and not read again; a slice larger
/// than the bound is never held; a directory without slices is refused by `load_within`.
#[test]
fn bad_or_too_large_slices_read_on_demand_are_reported() {
    let dir = scratch("on-demand-bad");
    std::fs::create_dir_all(&dir).expect("dir");
    let position = parse_position(Variant::Russian, "White: c7 0; Black: h6 0; White to move")
        .expect("a position");
    let signature = Signature::of(&position);
    std::fs::write(dir.join(file_name(signature)), b"BSHNEGTB not a table").expect("write");
    let lazy = Tablebase::open_on_demand(&dir, 1 << 30).expect("opens");
    assert!(lazy.has(signature));
    assert!(matches!(
        lazy.read_now(signature),
        Err(EgtbError::BadFile { .. })
    ));
    assert_eq!(lazy.probe(&position), None);
    let problems = lazy.problems();
    assert!(
        problems.iter().any(|p| p.contains(&file_name(signature))),
        "{problems:?}"
    );

    let small = Tablebase::open_on_demand(three_piece_dir(), 8).expect("opens");
    assert!(!small.read_now(signature).expect("no error"));
    assert_eq!(small.probe(&position), None);
    assert_eq!(small.memory(), 0);
    assert!(small.problems().iter().any(|p| p.contains("more than")));

    let empty = scratch("on-demand-empty");
    std::fs::create_dir_all(&empty).expect("dir");
    assert!(matches!(
        Tablebase::load_within(&empty, Some(1 << 20)),
        Err(EgtbError::NoTables(_))
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&empty);
}
