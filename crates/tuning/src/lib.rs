//! Tuning: fitting the evaluation [`Weights`] to the results of self-play games.
//!
//! The pipeline has two steps, both deterministic for a given seed:
//!
//! 1. [`play_games`]: the engine plays itself from the start of the game, the first few plies
//!    chosen at random (from the seed) so that games differ, with automatic draws on and a cap
//!    on the length (a draw). Every quiet position (no capture pending for the side to move)
//!    after the opening plies becomes a [`Sample`]: its [`features`], who is to move, and the
//!    game's final result from White's point of view (1, ½ or 0). The [`Dataset`] can be
//!    saved as text and read back ([`Dataset::to_text`], [`Dataset::parse`]) to refit
//!    without replaying.
//! 2. [`fit`]: logistic regression of the result on the features,
//!    `P(White wins) = sigmoid(K * (w · f + tempo * side) / 100)`, where `side` is +1 with
//!    White to move and -1 with Black. `K` is chosen first so that the starting weights fit
//!    best, then held; the man weight stays at 100 and sets the scale. The mean squared error
//!    plus a light pull towards the starting weights is minimised by Adam on shuffled
//!    mini-batches; every tenth game is held out to measure the gain on unseen games.
//!
//! [`tune`] runs both. Nothing here prints: progress goes to a callback.
//!
//! ```
//! use bashni_tuning::{TuneConfig, tune};
//! use bashni_engine::{Limits, Weights};
//! use bashni_rules::Variant;
//!
//! let mut config = TuneConfig {
//!     epochs: 2,
//!     ..TuneConfig::default()
//! };
//! config.play.games = 4;
//! config.play.limits = Limits::depth(1);
//! let report = tune(Variant::Russian, &config, |_| {});
//! assert_eq!(report.fit.weights.features[0], 100);
//! assert!(report.dataset.samples.len() > 0);
//! ```

pub mod learn;

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use bashni_rules::{Color, Game, GameResult, Position, Variant};

use bashni_engine::eval::{FEATURES, Feature, FeatureVector, Weights, features};
use bashni_engine::rng::Rng;
use bashni_engine::{Engine, Limits, Options, Value};

/// How many weights are fitted: one per feature, and the tempo.
pub const PARAMETERS: usize = FEATURES + 1;

/// The index of the tempo among the [`PARAMETERS`].
pub const TEMPO: usize = FEATURES;

/// The names of the [`PARAMETERS`], as weight files write them.
pub fn parameter_name(index: usize) -> &'static str {
    if index == TEMPO {
        "tempo"
    } else {
        Feature::ALL[index].name()
    }
}

/// How to play the games and fit the weights.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// How the games are played; its seed also seeds the shuffling of the fit.
    pub play: SelfPlay,
    /// Transposition table of each playing engine, in MB.
    pub hash_mb: usize,
    /// The weights the engine plays with, and the fit starts from and is pulled towards;
    /// `None`: [`Weights::untuned`].
    pub start: Option<Weights>,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per gradient step.
    pub batch: usize,
    /// Adam's step size, in weight units (hundredths of a man); it decays to a twentieth
    /// over the epochs.
    pub learning_rate: f64,
    /// Pull towards the starting weights: adds `regularisation * Σ ((w - start) / 100)²`
    /// to the loss.
    pub regularisation: f64,
    /// Every this many games, one is held out for validation (0: none).
    pub validation_every: usize,
    /// The scale of the sigmoid; `None`: the one that fits the starting weights best.
    pub k: Option<f64>,
    /// Bounds on each fitted weight (features, then tempo); the man weight is always 100.
    pub bounds: [(Value, Value); PARAMETERS],
}

impl Default for TuneConfig {
    fn default() -> TuneConfig {
        TuneConfig {
            play: SelfPlay {
                seed: 1,
                games: 200,
                limits: Limits::depth(3),
                random_plies: 6,
                skip_plies: 10,
                max_plies: 250,
                threads: 1,
            },
            hash_mb: 4,
            start: None,
            epochs: 100,
            batch: 256,
            learning_rate: 2.0,
            regularisation: 1e-4,
            validation_every: 10,
            k: None,
            bounds: UNBOUNDED,
        }
    }
}

/// No bounds beyond what a weight can hold.
pub const UNBOUNDED: [(Value, Value); PARAMETERS] = [(-100_000, 100_000); PARAMETERS];

/// One recorded position.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Sample {
    /// Which game it comes from (the validation split goes by game).
    pub game: u32,
    /// The game's result for White: 1, 0.5 or 0.
    pub result: f64,
    /// +1 with White to move, -1 with Black.
    pub side: i32,
    /// The features of the position, White minus Black.
    pub features: FeatureVector,
}

impl Sample {
    /// The features and the side to move, as the fitted parameters take them.
    pub fn inputs(&self) -> [f64; PARAMETERS] {
        let mut x = [0.0; PARAMETERS];
        for (x, f) in x.iter_mut().zip(self.features) {
            *x = f as f64;
        }
        x[TEMPO] = self.side as f64;
        x
    }
}

/// Positions labelled with game results.
#[derive(Clone, PartialEq, Debug)]
pub struct Dataset {
    /// The game they come from.
    pub variant: Variant,
    /// Games played to make it.
    pub games: usize,
    /// The positions.
    pub samples: Vec<Sample>,
}

/// Why a dataset file could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DatasetError {
    /// Line (1-based).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "dataset, line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for DatasetError {}

impl Dataset {
    /// Writes the dataset: a `variant` line, a `games` line, then one line per position,
    /// `game result side` followed by the features in the order of [`Feature::ALL`]. Lines
    /// starting with `#` are comments.
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(self.samples.len() * 48 + 256);
        out.push_str("# bashni tune dataset: one quiet position a line\n");
        out.push_str(&format!("variant {}\n", self.variant.name()));
        out.push_str(&format!("games {}\n", self.games));
        out.push_str("# game result side");
        for feature in Feature::ALL {
            out.push(' ');
            out.push_str(feature.name());
        }
        out.push('\n');
        for sample in &self.samples {
            let result = if sample.result == 1.0 {
                "1"
            } else if sample.result == 0.0 {
                "0"
            } else {
                "0.5"
            };
            out.push_str(&format!("{} {result} {}", sample.game, sample.side));
            for f in sample.features {
                out.push_str(&format!(" {f}"));
            }
            out.push('\n');
        }
        out
    }

    /// Reads what [`Dataset::to_text`] writes.
    pub fn parse(text: &str) -> Result<Dataset, DatasetError> {
        let mut variant = None;
        let mut games = None;
        let mut samples = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let error = |message: String| DatasetError {
                line: number + 1,
                message,
            };
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(name) = line.strip_prefix("variant ") {
                variant = Some(
                    Variant::parse(name.trim())
                        .ok_or_else(|| error(format!("unknown variant `{}`", name.trim())))?,
                );
                continue;
            }
            if let Some(count) = line.strip_prefix("games ") {
                games = Some(
                    count
                        .trim()
                        .parse()
                        .map_err(|_| error(format!("`{}` is not a count", count.trim())))?,
                );
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.len() != 3 + FEATURES {
                return Err(error(format!(
                    "expected {} numbers, found {}",
                    3 + FEATURES,
                    words.len()
                )));
            }
            let game = words[0]
                .parse()
                .map_err(|_| error(format!("`{}` is not a game number", words[0])))?;
            let result = match words[1] {
                "1" => 1.0,
                "0.5" => 0.5,
                "0" => 0.0,
                other => return Err(error(format!("`{other}` is not a result (1, 0.5, 0)"))),
            };
            let side = match words[2] {
                "1" => 1,
                "-1" => -1,
                other => return Err(error(format!("`{other}` is not a side (1, -1)"))),
            };
            let mut features = [0; FEATURES];
            for (f, word) in features.iter_mut().zip(&words[3..]) {
                *f = word
                    .parse()
                    .map_err(|_| error(format!("`{word}` is not a whole number")))?;
            }
            samples.push(Sample {
                game,
                result,
                side,
                features,
            });
        }
        let variant = variant.ok_or(DatasetError {
            line: 0,
            message: "no `variant` line".into(),
        })?;
        let games = games.unwrap_or_else(|| {
            samples
                .iter()
                .map(|s| s.game as usize + 1)
                .max()
                .unwrap_or(0)
        });
        Ok(Dataset {
            variant,
            games,
            samples,
        })
    }

    /// How many games White won, drew and lost (by the samples' labels; games without a
    /// recorded position are not counted).
    pub fn results(&self) -> (usize, usize, usize) {
        let mut seen = std::collections::BTreeMap::new();
        for sample in &self.samples {
            seen.insert(sample.game, sample.result);
        }
        let wins = seen.values().filter(|&&r| r == 1.0).count();
        let losses = seen.values().filter(|&&r| r == 0.0).count();
        (wins, seen.len() - wins - losses, losses)
    }
}

/// What the tuning reports while it works.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Progress {
    /// A game was finished.
    Game {
        /// Games finished so far.
        done: usize,
        /// Games to play.
        total: usize,
        /// Positions recorded so far.
        positions: usize,
    },
    /// The sigmoid's scale was chosen.
    Scale {
        /// The scale `K`.
        k: f64,
    },
    /// A pass over the training positions was finished.
    Epoch {
        /// Epochs finished so far.
        done: usize,
        /// Epochs to run.
        total: usize,
        /// Mean squared error on the training positions (with the weights unrounded).
        train_loss: f64,
    },
}

/// Mean squared errors on the training and held-out positions.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct Losses {
    /// On the training positions.
    pub train: f64,
    /// On the held-out positions (0 when none is held out).
    pub validation: f64,
}

/// What a fit found.
#[derive(Clone, PartialEq, Debug)]
pub struct FitReport {
    /// The fitted weights, rounded.
    pub weights: Weights,
    /// The weights the fit started from.
    pub start: Weights,
    /// The sigmoid's scale.
    pub k: f64,
    /// Training positions.
    pub train_positions: usize,
    /// Held-out positions.
    pub validation_positions: usize,
    /// The losses of the starting weights.
    pub loss_before: Losses,
    /// The losses of the fitted (rounded) weights.
    pub loss_after: Losses,
    /// Names of the weights that ended on one of their bounds.
    pub at_bound: Vec<&'static str>,
}

/// What [`tune`] did.
#[derive(Clone, PartialEq, Debug)]
pub struct TuneReport {
    /// The positions it fitted to.
    pub dataset: Dataset,
    /// The fit.
    pub fit: FitReport,
}

/// Plays the games and fits the weights to them.
pub fn tune(
    variant: Variant,
    config: &TuneConfig,
    mut progress: impl FnMut(Progress),
) -> TuneReport {
    let dataset = play_games(variant, config, &mut progress);
    let fit = fit(&dataset, config, progress);
    TuneReport { dataset, fit }
}

/// The seed of one game, from the run's seed and the game's number.
fn game_seed(seed: u64, game: usize) -> u64 {
    let mut rng = Rng::starting_at(seed ^ (game as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
    rng.next_u64()
}

/// Plays `config.play.games` games of `variant` and records their quiet positions.
pub fn play_games(
    variant: Variant,
    config: &TuneConfig,
    mut progress: impl FnMut(Progress),
) -> Dataset {
    let weights = config
        .start
        .clone()
        .unwrap_or_else(|| Weights::untuned(variant));
    let next = AtomicUsize::new(0);
    let mut games: Vec<Vec<Sample>> = vec![Vec::new(); config.play.games];
    let (sender, receiver) = mpsc::channel::<(usize, Vec<Sample>)>();
    std::thread::scope(|scope| {
        for _ in 0..config.play.threads.clamp(1, config.play.games.max(1)) {
            let sender = sender.clone();
            let next = &next;
            let weights = weights.clone();
            scope.spawn(move || {
                let mut engine = Engine::new(Options {
                    hash_mb: config.hash_mb,
                    threads: 1,
                    multipv: 1,
                });
                engine.set_weights(variant, weights);
                loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= config.play.games {
                        break;
                    }
                    let samples = play_game(&engine, variant, game, config);
                    if sender.send((game, samples)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut positions = 0;
        for (done, (game, samples)) in receiver.iter().enumerate() {
            positions += samples.len();
            games[game] = samples;
            progress(Progress::Game {
                done: done + 1,
                total: config.play.games,
                positions,
            });
        }
    });
    Dataset {
        variant,
        games: config.play.games,
        samples: games.into_iter().flatten().collect(),
    }
}

/// How self-play games are played: the run's seed and size, the search per move, the random
/// opening plies, which positions are kept and the cap on a game's length. Tuning and the
/// learning data share it.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// Seeds the random opening plies; the same seed gives the same games.
    pub seed: u64,
    /// Games to play.
    pub games: usize,
    /// What the engine may search for each move; a depth or a node count keeps the games
    /// repeatable (a time limit would not).
    pub limits: Limits,
    /// Plies at the start of each game chosen at random among the legal moves.
    pub random_plies: usize,
    /// Positions before this ply are not recorded.
    pub skip_plies: usize,
    /// A game still going after this many plies is scored a draw.
    pub max_plies: usize,
    /// Games played at once (each on one thread; the games do not depend on it).
    pub threads: usize,
}

impl SelfPlay {
    /// Plays game number `index` (its random plies drawn from the run's seed and the
    /// number); returns the game and its result for White (1, 0.5 or 0; 0.5 when cut off).
    pub(crate) fn play(&self, engine: &Engine, variant: Variant, index: usize) -> (Game, f64) {
        let (game, result, _) = self.play_scored(engine, variant, index);
        (game, result)
    }

    /// As [`SelfPlay::play`], and the value the engine's search gave each position it played
    /// from (for the side to move; `None` for the random plies).
    pub(crate) fn play_scored(
        &self,
        engine: &Engine,
        variant: Variant,
        index: usize,
    ) -> (Game, f64, Vec<Option<Value>>) {
        let mut scores = Vec::new();
        let mut rng = Rng::starting_at(game_seed(self.seed, index));
        let mut game = Game::start(variant);
        game.set_automatic_draws(true);
        engine.new_game();
        while !game.is_over() && game.ply() < self.max_plies {
            let moves = game.legal_moves();
            let chosen = if game.ply() < self.random_plies {
                scores.push(None);
                moves.get(rng.scaled_below(moves.len())).copied()
            } else {
                let found = engine.search_game(&game, &self.limits, |_| {});
                scores.push(Some(found.score.value()));
                found.best
            };
            let Some(chosen) = chosen else { break };
            if game.play(&chosen).is_err() {
                break;
            }
        }
        let result = match game.outcome().map(|o| o.result) {
            Some(GameResult::WhiteWins) => 1.0,
            Some(GameResult::BlackWins) => 0.0,
            Some(GameResult::Draw) | None => 0.5,
        };
        (game, result, scores)
    }

    /// The positions of a played game that are recorded, with their plies: after the skipped
    /// plies, with no capture to make, up to the last move.
    pub(crate) fn recorded<'g>(
        &self,
        game: &'g Game,
    ) -> impl Iterator<Item = (usize, &'g Position)> {
        let played = game.moves().len();
        game.positions()[..played]
            .iter()
            .enumerate()
            .skip(self.skip_plies)
            .filter(|(_, position)| !position.has_capture())
    }
}

/// Plays game number `index` and returns its quiet positions, labelled with its result.
fn play_game(engine: &Engine, variant: Variant, index: usize, config: &TuneConfig) -> Vec<Sample> {
    let (game, result) = config.play.play(engine, variant, index);
    config
        .play
        .recorded(&game)
        .map(|(_, position)| Sample {
            game: index as u32,
            result,
            side: if position.side_to_move() == Color::White {
                1
            } else {
                -1
            },
            features: features(position),
        })
        .collect()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of `weights` (features, then tempo) on `rows` with scale `k`.
fn mse(rows: &[([f64; PARAMETERS], f64)], weights: &[f64; PARAMETERS], k: f64) -> f64 {
    if rows.is_empty() {
        return 0.0;
    }
    let total: f64 = rows
        .iter()
        .map(|(x, y)| {
            let e: f64 = x.iter().zip(weights).map(|(x, w)| x * w).sum();
            let p = sigmoid(k * e / 100.0);
            (p - y) * (p - y)
        })
        .sum();
    total / rows.len() as f64
}

/// The weights as the fit sees them: features, then tempo.
pub fn parameters(weights: &Weights) -> [f64; PARAMETERS] {
    let mut out = [0.0; PARAMETERS];
    for (out, w) in out.iter_mut().zip(weights.features) {
        *out = w as f64;
    }
    out[TEMPO] = weights.tempo as f64;
    out
}

/// The scale `K` in [0.01, 10] that makes `weights` fit `rows` best (golden-section search;
/// the error is unimodal in `K` for all practical data).
fn best_scale(rows: &[([f64; PARAMETERS], f64)], weights: &[f64; PARAMETERS]) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (0.01f64, 10.0f64);
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut fc, mut fd) = (mse(rows, weights, c), mse(rows, weights, d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - ratio * (b - a);
            fc = mse(rows, weights, c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + ratio * (b - a);
            fd = mse(rows, weights, d);
        }
    }
    (a + b) / 2.0
}

/// Fits the weights to `dataset`: chooses `K` for the starting weights (unless given),
/// then minimises the error on the training positions with Adam, the man weight held at
/// 100, every other weight kept within its bounds.
pub fn fit(
    dataset: &Dataset,
    config: &TuneConfig,
    mut progress: impl FnMut(Progress),
) -> FitReport {
    let start = config
        .start
        .clone()
        .unwrap_or_else(|| Weights::untuned(dataset.variant));
    let initial = parameters(&start);
    let held_out = |game: u32| {
        config.validation_every > 0
            && game as usize % config.validation_every == config.validation_every - 1
    };
    let (train, validation): (Vec<_>, Vec<_>) = dataset
        .samples
        .iter()
        .map(|s| (s.game, (s.inputs(), s.result)))
        .partition(|(game, _)| !held_out(*game));
    let train: Vec<_> = train.into_iter().map(|(_, row)| row).collect();
    let validation: Vec<_> = validation.into_iter().map(|(_, row)| row).collect();
    let k = config.k.unwrap_or_else(|| best_scale(&train, &initial));
    progress(Progress::Scale { k });
    let losses = |w: &[f64; PARAMETERS]| Losses {
        train: mse(&train, w, k),
        validation: mse(&validation, w, k),
    };
    let loss_before = losses(&initial);

    let mut bounds = [(0.0, 0.0); PARAMETERS];
    for (b, &(low, high)) in bounds.iter_mut().zip(&config.bounds) {
        *b = (low as f64, high.max(low) as f64);
    }
    let man = Feature::Man as usize;
    bounds[man] = (100.0, 100.0);
    let mut w = initial;
    for (w, (low, high)) in w.iter_mut().zip(bounds) {
        *w = w.clamp(low, high);
    }

    let mut rng = Rng::starting_at(config.play.seed ^ 0x7475_6E65);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let batch = config.batch.max(1);
    let steps_per_epoch = train.len().div_ceil(batch).max(1);
    let total_steps = (steps_per_epoch * config.epochs).max(1);
    let (beta1, beta2, epsilon) = (0.9, 0.999, 1e-8);
    let mut m = [0.0; PARAMETERS];
    let mut v = [0.0; PARAMETERS];
    let mut step = 0usize;
    for epoch in 0..config.epochs {
        // Fisher-Yates with the run's generator.
        for i in (1..order.len()).rev() {
            let j = rng.scaled_below(i + 1);
            order.swap(i, j);
        }
        for chunk in order.chunks(batch) {
            let mut gradient = [0.0; PARAMETERS];
            for &i in chunk {
                let (x, y) = &train[i];
                let e: f64 = x.iter().zip(&w).map(|(x, w)| x * w).sum();
                let p = sigmoid(k * e / 100.0);
                let slope = 2.0 * (p - y) * p * (1.0 - p) * k / 100.0;
                for (g, x) in gradient.iter_mut().zip(x) {
                    *g += slope * x;
                }
            }
            let n = chunk.len() as f64;
            step += 1;
            let progress_fraction = step as f64 / total_steps as f64;
            // Cosine decay to a twentieth of the step size.
            let rate = config.learning_rate
                * (0.05 + 0.95 * 0.5 * (1.0 + (std::f64::consts::PI * progress_fraction).cos()));
            for p in 0..PARAMETERS {
                if p == man {
                    continue;
                }
                let g = gradient[p] / n
                    + config.regularisation * 2.0 * (w[p] - initial[p]) / (100.0 * 100.0);
                m[p] = beta1 * m[p] + (1.0 - beta1) * g;
                v[p] = beta2 * v[p] + (1.0 - beta2) * g * g;
                let m_hat = m[p] / (1.0 - beta1.powi(step as i32));
                let v_hat = v[p] / (1.0 - beta2.powi(step as i32));
                w[p] = (w[p] - rate * m_hat / (v_hat.sqrt() + epsilon))
                    .clamp(bounds[p].0, bounds[p].1);
            }
        }
        progress(Progress::Epoch {
            done: epoch + 1,
            total: config.epochs,
            train_loss: mse(&train, &w, k),
        });
    }

    let mut rounded = [0.0; PARAMETERS];
    for (r, w) in rounded.iter_mut().zip(w) {
        *r = w.round();
    }
    let at_bound = (0..PARAMETERS)
        .filter(|&p| p != man && (rounded[p] <= bounds[p].0 || rounded[p] >= bounds[p].1))
        .map(parameter_name)
        .collect();
    let mut weights = Weights {
        features: [0; FEATURES],
        tempo: rounded[TEMPO] as Value,
        patterns: None,
    };
    for (out, r) in weights.features.iter_mut().zip(rounded) {
        *out = r as Value;
    }
    FitReport {
        loss_after: losses(&rounded),
        weights,
        start,
        k,
        train_positions: train.len(),
        validation_positions: validation.len(),
        loss_before,
        at_bound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(variant: Variant, seed: u64, games: usize) -> TuneConfig {
        let _ = variant;
        let mut config = TuneConfig::default();
        config.play.seed = seed;
        config.play.games = games;
        config.play.limits = Limits::depth(2);
        config
    }

    #[test]
    fn the_fitter_recovers_known_weights() {
        // Random positions, labelled by drawing from the model with known weights.
        let truth = Weights {
            features: [100, 260, 45, 70, 55, 150, -40, -20, 6, 2, 9, 3, 20],
            tempo: 12,
            patterns: None,
        };
        let k = 0.6;
        let true_parameters = parameters(&truth);
        // Each feature spread so that it moves the evaluation by about a man, like real ones.
        let spread: Vec<usize> = truth
            .features
            .iter()
            .map(|w| (100 / w.unsigned_abs() as usize).clamp(1, 10))
            .collect();
        let mut rng = Rng::starting_at(99);
        let mut samples = Vec::new();
        for i in 0..100_000u32 {
            let mut features = [0; FEATURES];
            for (f, spread) in features.iter_mut().zip(&spread) {
                *f = rng.scaled_below(2 * spread + 1) as i32 - *spread as i32;
            }
            let side = if rng.scaled_below(2) == 0 { 1 } else { -1 };
            let sample = Sample {
                game: i,
                result: 0.0,
                side,
                features,
            };
            let e: f64 = sample
                .inputs()
                .iter()
                .zip(&true_parameters)
                .map(|(x, w)| x * w)
                .sum();
            let p = sigmoid(k * e / 100.0);
            let result = if rng.unit() < p { 1.0 } else { 0.0 };
            samples.push(Sample { result, ..sample });
        }
        let dataset = Dataset {
            variant: Variant::Bashni,
            games: samples.len(),
            samples,
        };
        let config = TuneConfig {
            k: Some(k),
            epochs: 40,
            regularisation: 0.0,
            ..TuneConfig::default()
        };
        let report = fit(&dataset, &config, |_| {});
        assert!(report.loss_after.train < report.loss_before.train);
        assert!(report.loss_after.validation < report.loss_before.validation);
        let fitted = parameters(&report.weights);
        for p in 0..PARAMETERS {
            let error = (fitted[p] - true_parameters[p]).abs();
            assert!(
                error <= 5.0 + true_parameters[p].abs() * 0.05,
                "{}: fitted {} true {} ({report:?})",
                parameter_name(p),
                fitted[p],
                true_parameters[p]
            );
        }
        // The scale the starting weights would choose is found again for the true weights.
        let rows: Vec<_> = dataset
            .samples
            .iter()
            .map(|s| (s.inputs(), s.result))
            .collect();
        assert!((best_scale(&rows, &true_parameters) - k).abs() < 0.05);
    }

    #[test]
    fn the_same_seed_gives_the_same_dataset() {
        for variant in [Variant::Bashni, Variant::Russian] {
            let config = small(variant, 5, 4);
            let one = play_games(variant, &config, |_| {});
            let mut threaded = config.clone();
            threaded.play.threads = 2;
            let two = play_games(variant, &threaded, |_| {});
            assert!(!one.samples.is_empty());
            assert_eq!(one, two, "{variant}");
            let other = play_games(variant, &small(variant, 6, 4), |_| {});
            assert_ne!(one, other, "{variant}");
            // Games differ from one another.
            let first: Vec<_> = one.samples.iter().filter(|s| s.game == 0).collect();
            let second: Vec<_> = one.samples.iter().filter(|s| s.game == 1).collect();
            assert_ne!(first, second);
            // The text form reads back the same.
            assert_eq!(Dataset::parse(&one.to_text()), Ok(one));
        }
    }

    #[test]
    fn the_loss_goes_down_on_self_play() {
        for variant in [Variant::Bashni, Variant::Russian] {
            let config = TuneConfig {
                epochs: 30,
                validation_every: 0,
                ..small(variant, 3, 30)
            };
            let mut epochs = 0;
            let report = tune(variant, &config, |p| {
                if let Progress::Epoch { .. } = p {
                    epochs += 1;
                }
            });
            assert_eq!(epochs, 30);
            assert!(report.fit.train_positions > 200, "{variant}");
            assert!(
                report.fit.loss_after.train < report.fit.loss_before.train,
                "{variant}: {:?}",
                report.fit
            );
            assert_eq!(report.fit.weights.features[Feature::Man as usize], 100);
        }
    }

    #[test]
    fn bounds_hold_and_are_reported() {
        let dataset = play_games(Variant::Russian, &small(Variant::Russian, 8, 6), |_| {});
        let mut bounds = UNBOUNDED;
        bounds[Feature::King as usize] = (300, 300);
        bounds[TEMPO] = (0, 1);
        let config = TuneConfig {
            bounds,
            epochs: 5,
            learning_rate: 20.0,
            ..TuneConfig::default()
        };
        let report = fit(&dataset, &config, |_| {});
        assert_eq!(report.weights.features[Feature::King as usize], 300);
        assert!((0..=1).contains(&report.weights.tempo));
        assert!(report.at_bound.contains(&"king"));
    }

    #[test]
    fn bad_dataset_lines_are_named() {
        let error = Dataset::parse("variant russian\n0 1 1 0\n").expect_err("short");
        assert_eq!(error.line, 2);
        let line = format!("0 2 1{}", " 0".repeat(FEATURES));
        let error = Dataset::parse(&format!("variant russian\n{line}\n")).expect_err("result");
        assert!(error.message.contains("result"), "{error}");
        assert!(Dataset::parse("games 3\n").is_err());
    }
}
