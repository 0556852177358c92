//! Whole matches: results, records, clocks, SPRT, and the shipped openings.

use std::collections::HashSet;
use std::io::BufReader;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use bashni_arena::openings::shipped;
use bashni_arena::{
    GameScore, GameSettings, MatchConfig, MaterialPlayer, Player, PlayerError, PlayerFactory,
    PlayerSpec, Sprt, SprtDecision, Termination, play_game, run_match,
};
use bashni_engine::Clock;
use bashni_pdn::{Reader, replay};
use bashni_rules::TimeControl;
use bashni_rules::notation::parse_fen;
use bashni_rules::{Color, Game, GameResult, Move, Reason, Variant};

fn spec_factory(text: &str, variant: Variant, seed: u64) -> PlayerFactory {
    PlayerSpec::parse(text, |_| Err("no files".into()))
        .expect("valid spec")
        .factory(variant, None, None, seed)
        .expect("built in")
}

#[test]
fn tiny_match_finishes_and_its_records_read_back() {
    for variant in [Variant::Bashni, Variant::Russian] {
        let openings = shipped(variant).expect("shipped openings");
        let mut config = MatchConfig::new(variant, openings[..2].to_vec(), 2);
        config.concurrency = 2;
        config.event = "test match".into();
        let first = spec_factory("depth=1", variant, 1);
        let second = spec_factory("material2", variant, 2);
        let mut pdn: Vec<u8> = Vec::new();
        let mut seen = Vec::new();
        let mut last_tally = None;
        let summary = run_match(&config, first, second, |report, tally| {
            seen.push((report.index, report.first_score(), report.result));
            last_tally = Some(*tally);
            bashni_pdn::write_game_io(&mut pdn, &report.to_pdn("test match"))
        })
        .expect("match played");

        // Four games, handed out in order, and the tally adds up.
        assert_eq!(summary.planned, 4);
        assert!(!summary.stopped_early());
        let indices: Vec<usize> = seen.iter().map(|s| s.0).collect();
        assert_eq!(indices, vec![0, 1, 2, 3]);
        let tally = summary.tally;
        assert_eq!(Some(tally), last_tally);
        assert_eq!(tally.games(), 4);
        let count = |score| seen.iter().filter(|s| s.1 == score).count() as u32;
        assert_eq!(tally.wins, count(GameScore::Win));
        assert_eq!(tally.draws, count(GameScore::Draw));
        assert_eq!(tally.losses, count(GameScore::Loss));
        let draws = seen.iter().filter(|s| s.2 == GameResult::Draw).count() as u32;
        assert_eq!(tally.draws, draws);
        assert_eq!(summary.terminations.iter().map(|t| t.1).sum::<usize>(), 4);

        // The records read back: four games, every move legal, from the openings.
        let text = String::from_utf8(pdn).expect("UTF-8");
        let raws: Vec<_> = Reader::new(BufReader::new(text.as_bytes()))
            .collect::<Result<_, _>>()
            .expect("readable PDN");
        assert_eq!(raws.len(), 4);
        for (i, raw) in raws.iter().enumerate() {
            let game = replay(raw, None).expect("every move legal");
            assert_eq!(game.variant(), variant);
            assert!(game.ply() > 0);
            let opening = &config.openings[i / 2];
            assert_eq!(game.start_position(), opening);
            let fen = raw.tag("FEN").expect("FEN tag");
            assert_eq!(parse_fen(variant, fen).as_ref(), Ok(opening));
            assert_eq!(raw.tag("Event"), Some("test match"));
            assert_eq!(
                raw.tag("Round"),
                Some(format!("{}.{}", i / 2 + 1, i % 2 + 1).as_str())
            );
            let (white, black) = if i % 2 == 0 {
                ("depth=1", "material2")
            } else {
                ("material2", "depth=1")
            };
            assert_eq!(
                (raw.tag("White"), raw.tag("Black")),
                (Some(white), Some(black))
            );
            let result = raw.tag("Result").expect("Result tag");
            assert_eq!(Some(result), raw.result.map(|r| r.token()));
            assert_eq!(result, seen[i].2.score());
            assert!(raw.tag("Termination").is_some_and(|t| !t.is_empty()));
            assert!(raw.tag("GameType").is_some());
        }
    }
}

/// Sleeps, then plays the first legal move.
struct Slow(Duration);

impl Player for Slow {
    fn name(&self) -> String {
        "slow".into()
    }

    fn new_game(&mut self) {}

    fn choose(&mut self, game: &Game, _clock: Option<Clock>) -> Result<Option<Move>, PlayerError> {
        std::thread::sleep(self.0);
        Ok(game.legal_moves().iter().next().copied())
    }
}

#[test]
fn a_player_out_of_time_loses() {
    let opening = shipped(Variant::Bashni).expect("shipped")[0];
    let never = AtomicBool::new(false);
    let mut slow = Slow(Duration::from_millis(60));
    let mut quick = MaterialPlayer::new(1);
    let tight = TimeControl::parse_seconds("0.02").expect("valid");
    let settings = GameSettings {
        white_clock: Some(tight),
        black_clock: None,
        max_plies: 10,
    };
    let played = play_game(&opening, &mut slow, &mut quick, &settings, &never).expect("played");
    assert_eq!(played.termination, Termination::Time(Color::White));
    assert_eq!(played.result, GameResult::BlackWins);
    assert_eq!(played.game.ply(), 0, "the late move is not played");
    assert_eq!(
        played.game.outcome().map(|o| o.reason),
        Some(Reason::Time(Color::White))
    );
    assert!(played.time_used[0] >= Duration::from_millis(60));

    // As Black, with the increment too small to save it: loses on its second move.
    let mut slow = Slow(Duration::from_millis(30));
    let mut quick = MaterialPlayer::new(1);
    let settings = GameSettings {
        white_clock: None,
        black_clock: Some(TimeControl::parse_seconds("0.05+0.001").expect("valid")),
        max_plies: 10,
    };
    let played = play_game(&opening, &mut quick, &mut slow, &settings, &never).expect("played");
    assert_eq!(played.termination, Termination::Time(Color::Black));
    assert_eq!(played.result, GameResult::WhiteWins);
    assert!(
        matches!(played.game.ply(), 1 | 3),
        "flagged on its first or second move"
    );

    // With time enough, the same player is not flagged; the game is adjudicated.
    let mut slow = Slow(Duration::from_millis(1));
    let mut quick = MaterialPlayer::new(1);
    let settings = GameSettings {
        white_clock: Some(TimeControl::parse_seconds("5").expect("valid")),
        black_clock: Some(TimeControl::parse_seconds("5").expect("valid")),
        max_plies: 6,
    };
    let played = play_game(&opening, &mut slow, &mut quick, &settings, &never).expect("played");
    assert!(
        matches!(
            played.termination,
            Termination::MaxPlies(6) | Termination::Rules(_)
        ),
        "{}",
        played.termination
    );
}

#[test]
fn the_engine_keeps_to_its_clock() {
    let opening = shipped(Variant::Russian).expect("shipped")[3];
    let never = AtomicBool::new(false);
    let factory = spec_factory("level=8,hash=1", Variant::Russian, 1);
    let (mut white, mut black) = (factory().expect("made"), factory().expect("made"));
    let tc = TimeControl::parse_seconds("1+0.05").expect("valid");
    let settings = GameSettings {
        white_clock: Some(tc),
        black_clock: Some(tc),
        max_plies: 8,
    };
    let played = play_game(&opening, &mut *white, &mut *black, &settings, &never).expect("played");
    assert!(
        !matches!(
            played.termination,
            Termination::Time(_) | Termination::Forfeit(..)
        ),
        "{}",
        played.termination
    );
}

/// Plays the first legal move as Black; gives up at once as White.
struct LosesAsWhite;

impl Player for LosesAsWhite {
    fn name(&self) -> String {
        "loses as White".into()
    }

    fn new_game(&mut self) {}

    fn choose(&mut self, game: &Game, _clock: Option<Clock>) -> Result<Option<Move>, PlayerError> {
        if game.side_to_move() == Color::White {
            return Err(PlayerError::new("gives up"));
        }
        Ok(game.legal_moves().iter().next().copied())
    }
}

#[test]
fn sprt_stops_a_clear_match_early() {
    // The second player loses every game it has White and the games it has Black are
    // adjudicated after one ply: the first player scores 75%, far above 100 Elo's 64%.
    let openings = shipped(Variant::Russian).expect("shipped");
    let mut config = MatchConfig::new(Variant::Russian, openings, 50);
    config.max_plies = 1;
    config.concurrency = 2;
    config.sprt = Some(Sprt::parse("0,100,0.05,0.05").expect("valid"));
    let first: PlayerFactory =
        Arc::new(|| Ok(Box::new(MaterialPlayer::new(1)) as Box<dyn Player + Send>));
    let second: PlayerFactory = Arc::new(|| Ok(Box::new(LosesAsWhite) as Box<dyn Player + Send>));
    let mut reported = 0;
    let summary = run_match(&config, first, second, |report, _| {
        assert_eq!(report.index, reported);
        match report.first_is_white {
            true => assert_eq!(report.termination, Termination::MaxPlies(1)),
            false => assert!(matches!(
                report.termination,
                Termination::Forfeit(Color::White, _)
            )),
        }
        reported += 1;
        Ok(())
    })
    .expect("played");
    assert_eq!(summary.sprt, Some(SprtDecision::AcceptH1));
    assert!(summary.stopped_early());
    assert_eq!(summary.tally.games() as usize, reported);
    assert!(reported < 30, "{reported} games");
    assert!(summary.tally.wins > 0 && summary.tally.draws > 0 && summary.tally.losses == 0);
    let sprt = config.sprt.expect("set");
    assert!(sprt.llr(&summary.tally) >= sprt.bounds().1);
}

#[test]
fn a_player_that_cannot_start_stops_the_match() {
    let openings = shipped(Variant::Bashni).expect("shipped");
    let config = MatchConfig::new(Variant::Bashni, openings, 1);
    let first: PlayerFactory = Arc::new(|| Err(PlayerError::new("no such program")));
    let second = spec_factory("material2", Variant::Bashni, 1);
    let error = run_match(&config, first, second, |_, _| Ok(())).expect_err("no player");
    assert!(error.to_string().contains("no such program"), "{error}");

    let mismatched = MatchConfig::new(Variant::Russian, shipped(Variant::Bashni).expect("ok"), 1);
    let first = spec_factory("material2", Variant::Russian, 1);
    let second = spec_factory("material2", Variant::Russian, 2);
    assert!(run_match(&mismatched, first, second, |_, _| Ok(())).is_err());
}

#[test]
fn shipped_openings_are_playable_and_distinct() {
    for variant in [Variant::Bashni, Variant::Russian] {
        let openings = shipped(variant).expect("every line parses");
        assert_eq!(openings.len(), 50, "{variant}");
        let mut seen = HashSet::new();
        for opening in &openings {
            assert_eq!(opening.variant(), variant);
            let game = Game::new(*opening);
            assert!(!game.is_over(), "{variant}: an opening is already over");
            assert!(!game.legal_moves().is_empty());
            assert!(!opening.has_capture(), "{variant}: a capture is pending");
            assert!(
                seen.insert(opening.hash()),
                "{variant}: a duplicate opening"
            );
        }
    }
}
