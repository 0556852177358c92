//! A match: every opening played twice, once with each player as White, several games at
//! once, with statistics as the games come in and an optional SPRT stop.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use bashni_pdn::{MoveForm, RawGame, record};
use bashni_rules::notation::write_fen;
use bashni_rules::{Color, Game, GameResult, Position, Variant};

use crate::play::{DEFAULT_MAX_PLIES, GameSettings, Termination, play_game};
use crate::player::{Player, PlayerError};
use crate::stats::{GameScore, Sprt, SprtDecision, Tally};
use bashni_rules::TimeControl;

/// Makes a fresh player for one thread of a match. Called once per thread; the player is
/// then used for that thread's games one after another (with [`Player::new_game`] between
/// them), never by two games at once.
pub type PlayerFactory = Arc<dyn Fn() -> Result<Box<dyn Player + Send>, PlayerError> + Send + Sync>;

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game.
    pub variant: Variant,
    /// The openings, used in order (and again from the first when there are more pairs).
    pub openings: Vec<Position>,
    /// Pairs of games: each pair plays one opening twice, the first player White in the
    /// first game of the pair and Black in the second.
    pub pairs: usize,
    /// The first player's time control (`None`: no clock).
    pub first_clock: Option<TimeControl>,
    /// The second player's time control (`None`: no clock).
    pub second_clock: Option<TimeControl>,
    /// A game still going after this many plies is scored a draw.
    pub max_plies: usize,
    /// Games played at once, each on its own thread with its own players.
    pub concurrency: usize,
    /// Stop as soon as this test decides.
    pub sprt: Option<Sprt>,
    /// The `Event` tag of the records.
    pub event: String,
}

impl MatchConfig {
    /// A match of `pairs` pairs on `openings`, without clocks, one game at a time.
    pub fn new(variant: Variant, openings: Vec<Position>, pairs: usize) -> MatchConfig {
        MatchConfig {
            variant,
            openings,
            pairs,
            first_clock: None,
            second_clock: None,
            max_plies: DEFAULT_MAX_PLIES,
            concurrency: 1,
            sprt: None,
            event: "bashni match".into(),
        }
    }

    /// Games in the whole match (if no SPRT stops it early).
    pub fn games(&self) -> usize {
        self.pairs.saturating_mul(2)
    }
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// The game's number in the match, from 0: games `2k` and `2k + 1` form pair `k`.
    pub index: usize,
    /// Which opening (index into [`MatchConfig::openings`]).
    pub opening: usize,
    /// Whether the first player had White.
    pub first_is_white: bool,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The moves.
    pub game: Game,
    /// The score.
    pub result: GameResult,
    /// Why the game ended.
    pub termination: Termination,
    /// Time used thinking by White and Black.
    pub time_used: [Duration; 2],
    /// White's and Black's time controls.
    pub clocks: [Option<TimeControl>; 2],
}

impl GameReport {
    /// The result for the first player.
    pub fn first_score(&self) -> GameScore {
        let first = if self.first_is_white {
            Color::White
        } else {
            Color::Black
        };
        match self.result.winner() {
            None => GameScore::Draw,
            Some(winner) if winner == first => GameScore::Win,
            Some(_) => GameScore::Loss,
        }
    }

    /// The round: `pair.game`, both from 1 (`3.2` is the second game on the third opening).
    pub fn round(&self) -> String {
        format!("{}.{}", self.index / 2 + 1, self.index % 2 + 1)
    }

    /// The game as a PDN record, moves in full: tags `Event`, `Round`, `White`, `Black`,
    /// `Result`, `GameType`, `FEN` (the opening), `TimeControl` (when both sides had the same
    /// clock), `Termination`; the termination is also a comment after the last move.
    pub fn to_pdn(&self, event: &str) -> RawGame {
        let mut tags: Vec<(String, String)> = vec![
            ("Event".into(), event.into()),
            ("Round".into(), self.round()),
            ("White".into(), self.white.clone()),
            ("Black".into(), self.black.clone()),
        ];
        if let [Some(white), Some(black)] = self.clocks
            && white == black
        {
            tags.push(("TimeControl".into(), white.pdn_tag()));
        }
        tags.push(("Termination".into(), self.termination.to_string()));
        let mut raw = record(&self.game, &tags, MoveForm::Full);
        let result = bashni_pdn::ResultToken::Score(self.result);
        raw.result = Some(result);
        raw.set_tag("Result", result.token());
        raw.set_tag("FEN", write_fen(self.game.start_position()));
        let comment = bashni_pdn::Annotation::Comment(self.termination.to_string());
        match raw.moves.last_mut() {
            Some(last) => last.after.push(comment),
            None => raw.intro.push(comment),
        }
        raw
    }
}

/// Why a match could not be played to its end.
#[derive(Debug)]
pub enum MatchError {
    /// The settings make no sense (no openings, no games, ...).
    Config(String),
    /// A player could not be made.
    Player(PlayerError),
    /// The callback failed (writing the records, say).
    Output(std::io::Error),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Config(message) => f.write_str(message),
            MatchError::Player(error) => write!(f, "cannot start a player: {error}"),
            MatchError::Output(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for MatchError {}

/// The end of a match.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    /// Wins, draws and losses of the first player.
    pub tally: Tally,
    /// Games the match was to have.
    pub planned: usize,
    /// What the SPRT said at the end, if one was run.
    pub sprt: Option<SprtDecision>,
    /// How many games ended each way ([`Termination::kind`]), most frequent first.
    pub terminations: Vec<(&'static str, usize)>,
    /// Total plies played.
    pub plies: usize,
}

impl MatchSummary {
    /// Whether the SPRT stopped the match before all games were played.
    pub fn stopped_early(&self) -> bool {
        (self.tally.games() as usize) < self.planned
    }
}

/// What a worker thread sends: a game (`None` when aborted) or the failure to make a player.
enum Message {
    Game(usize, Option<Box<GameReport>>),
    Failed(PlayerError),
}

/// Plays the match. `first` and `second` make the players (once per thread). Each game is
/// given to `on_game` with the tally so far (this game included), in the order of the games
/// whatever order they finish in; an error from it stops the match.
///
/// With an SPRT, the match stops at the first game (in that order) after which the test
/// decides: games still running are abandoned and games that finished later in order are
/// dropped, so the statistics are those of the first games of the match exactly.
pub fn run_match(
    config: &MatchConfig,
    first: PlayerFactory,
    second: PlayerFactory,
    mut on_game: impl FnMut(&GameReport, &Tally) -> std::io::Result<()>,
) -> Result<MatchSummary, MatchError> {
    if config.openings.is_empty() {
        return Err(MatchError::Config("no openings".into()));
    }
    if let Some(bad) = config
        .openings
        .iter()
        .find(|p| p.variant() != config.variant)
    {
        return Err(MatchError::Config(format!(
            "an opening is a {} position in a {} match",
            bad.variant(),
            config.variant
        )));
    }
    if config.pairs == 0 {
        return Err(MatchError::Config(
            "a match needs at least one pair of games".into(),
        ));
    }
    let total = config.games();
    let threads = config.concurrency.clamp(1, total);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<Message>();
    let mut tally = Tally::default();
    let mut decision = config.sprt.map(|_| SprtDecision::Continue);
    let mut terminations: Vec<(&'static str, usize)> = Vec::new();
    let mut plies = 0;
    let mut failure: Option<MatchError> = None;

    std::thread::scope(|scope| {
        for _ in 0..threads {
            let sender = sender.clone();
            let (first, second) = (Arc::clone(&first), Arc::clone(&second));
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                let players = first().and_then(|a| second().map(|b| (a, b)));
                let (mut first, mut second) = match players {
                    Ok(players) => players,
                    Err(error) => {
                        stop.store(true, Ordering::Relaxed);
                        let _ = sender.send(Message::Failed(error));
                        return;
                    }
                };
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= total {
                        break;
                    }
                    let report = play_match_game(config, index, &mut *first, &mut *second, stop);
                    if sender
                        .send(Message::Game(index, report.map(Box::new)))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(sender);

        // Hand the games out in order.
        let mut waiting: BTreeMap<usize, Option<Box<GameReport>>> = BTreeMap::new();
        let mut expected = 0;
        let mut done = false;
        for message in receiver {
            match message {
                Message::Failed(error) => {
                    stop.store(true, Ordering::Relaxed);
                    if failure.is_none() {
                        failure = Some(MatchError::Player(error));
                    }
                    done = true;
                }
                Message::Game(index, report) => {
                    waiting.insert(index, report);
                }
            }
            while !done && let Some(entry) = waiting.remove(&expected) {
                expected += 1;
                let Some(report) = entry else {
                    // Abandoned: only happens once stopped.
                    done = true;
                    break;
                };
                tally.add(report.first_score());
                plies += report.game.ply();
                let kind = report.termination.kind();
                match terminations.iter_mut().find(|(k, _)| *k == kind) {
                    Some(entry) => entry.1 += 1,
                    None => terminations.push((kind, 1)),
                }
                if let Err(error) = on_game(&report, &tally) {
                    failure = Some(MatchError::Output(error));
                    done = true;
                }
                if let Some(sprt) = &config.sprt {
                    let now = sprt.decision(&tally);
                    decision = Some(now);
                    if now != SprtDecision::Continue {
                        done = true;
                    }
                }
            }
            if done {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    if let Some(error) = failure {
        return Err(error);
    }
    terminations.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    Ok(MatchSummary {
        tally,
        planned: total,
        sprt: decision,
        terminations,
        plies,
    })
}

/// Plays game `index` of the match with the thread's players.
fn play_match_game<'a>(
    config: &MatchConfig,
    index: usize,
    first: &'a mut dyn Player,
    second: &'a mut dyn Player,
    stop: &AtomicBool,
) -> Option<GameReport> {
    let opening = (index / 2) % config.openings.len();
    let first_is_white = index.is_multiple_of(2);
    let (white, black, white_clock, black_clock) = if first_is_white {
        (first, second, config.first_clock, config.second_clock)
    } else {
        (second, first, config.second_clock, config.first_clock)
    };
    let settings = GameSettings {
        white_clock,
        black_clock,
        max_plies: config.max_plies,
    };
    let (white_name, black_name) = (white.name(), black.name());
    let played = play_game(&config.openings[opening], white, black, &settings, stop)?;
    Some(GameReport {
        index,
        opening,
        first_is_white,
        white: white_name,
        black: black_name,
        game: played.game,
        result: played.result,
        termination: played.termination,
        time_used: played.time_used,
        clocks: [white_clock, black_clock],
    })
}
