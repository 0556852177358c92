//! Learning the pattern weights ([`bashni_engine::patterns`]) together with the feature
//! weights, from many self-play games.
//!
//! 1. [`generate`] plays games (random opening plies from the seed, then the engine at a
//!    fixed depth or node count) and appends each finished game's quiet positions to a data
//!    file, labelled with the game's result and the value the engine's search gave them. The file names its settings on its first line;
//!    a run that stops can be started again with the same settings and goes on with the games
//!    not yet written (a game half written when the run stopped is dropped). The same seed
//!    gives the same games whatever the number of threads.
//! 2. [`read_data`] reads one or more such files, and [`fit_patterns`] fits the weights by
//!    logistic regression: the value to the side to move, `e`, predicts its result through
//!    `sigmoid(K * e / 100)`; the mean squared error plus a light pull of the pattern weights
//!    towards zero is minimised by Adam on shuffled mini-batches; every tenth game is held
//!    out, and the weights of the epoch that did best on it are kept. The label may mix the result with the search's value (`LearnConfig::result_share`):
//!    a game's result says little about a position far from its end, the search's value says
//!    what the engine saw there.
//!
//! Data file lines: `# bashni learn data v2 <settings>` first; then, per game, one line per
//! position `P <result for White: 1, 0.5 or 0> <the search's value for the side to move>
//! <position text>` and a closing line `G <game number> <result> <positions>`. Files of the
//! first version (`v1`, lines `P <result> <position text>`, no value) are read too.

use std::collections::BTreeSet;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};

use bashni_engine::eval::{FEATURES, Feature, features};
use bashni_engine::patterns::{
    FULL_BOARD, KINDS, PATTERN_WEIGHTS, PatternWeights, REGION_WEIGHTS, REGIONS, SQUARES, STATES,
    phase, pieces, states,
};
use bashni_engine::rng::Rng;
use bashni_engine::{Engine, Options, Value, Weights};
use bashni_rules::notation::{parse_position, write_position};
use bashni_rules::{Color, Variant};

use crate::SelfPlay;

/// How the data games are played.
#[derive(Clone, Debug)]
pub struct DataConfig {
    /// How the games are played and which positions are written.
    pub play: SelfPlay,
    /// The weights the engine plays with.
    pub weights: Weights,
}

impl DataConfig {
    /// The settings line of a data file made with this configuration; a run goes on with a
    /// file only if its line is the same.
    pub fn header(&self, variant: Variant) -> String {
        let limit = match (self.play.limits.depth, self.play.limits.nodes) {
            (Some(depth), _) => format!("depth={depth}"),
            (None, Some(nodes)) => format!("nodes={nodes}"),
            (None, None) => "depth=?".to_string(),
        };
        format!(
            "# bashni learn data v2 variant={} seed={} {limit} random-plies={} skip-plies={} max-plies={} patterns={}",
            variant.name(),
            self.play.seed,
            self.play.random_plies,
            self.play.skip_plies,
            self.play.max_plies,
            if self.weights.patterns.is_some() {
                "on"
            } else {
                "off"
            },
        )
    }
}

/// What data generation reports while it works.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DataProgress {
    /// Games in the file so far.
    pub done: usize,
    /// Games the file will hold.
    pub total: usize,
    /// Positions in the file so far.
    pub positions: usize,
}

/// Why a data file could not be made or read.
#[derive(Debug)]
pub enum DataError {
    /// Reading or writing failed.
    Io(std::io::Error),
    /// The file is not what was expected: which file, which line, what.
    Bad {
        /// The file's line (1-based).
        line: usize,
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io(error) => write!(f, "{error}"),
            DataError::Bad { line, message } => write!(f, "line {line}: {message}"),
        }
    }
}

impl std::error::Error for DataError {}

impl From<std::io::Error> for DataError {
    fn from(error: std::io::Error) -> DataError {
        DataError::Io(error)
    }
}

/// Games already complete in a data file, and where its last complete game ends.
struct Existing {
    games: BTreeSet<usize>,
    positions: usize,
    end: u64,
}

fn scan_existing(path: &Path, header: &str) -> Result<Option<Existing>, DataError> {
    let Ok(file) = File::open(path) else {
        return Ok(None);
    };
    let mut reader = BufReader::new(file);
    let mut line = String::new();
    let mut offset = 0u64;
    let mut number = 0;
    let mut existing = Existing {
        games: BTreeSet::new(),
        positions: 0,
        end: 0,
    };
    loop {
        line.clear();
        let read = reader.read_line(&mut line)?;
        if read == 0 || !line.ends_with('\n') {
            break;
        }
        number += 1;
        offset += read as u64;
        let text = line.trim_end();
        if number == 1 {
            if text != header {
                return Err(DataError::Bad {
                    line: 1,
                    message: format!(
                        "made with other settings: `{text}`; this run would write `{header}`"
                    ),
                });
            }
            existing.end = offset;
            continue;
        }
        if let Some(rest) = text.strip_prefix("G ") {
            let mut words = rest.split_whitespace();
            let game = words.next().and_then(|w| w.parse::<usize>().ok());
            let positions = words.nth(1).and_then(|w| w.parse::<usize>().ok());
            let (Some(game), Some(positions)) = (game, positions) else {
                return Err(DataError::Bad {
                    line: number,
                    message: format!("expected `G game result positions`, found `{text}`"),
                });
            };
            existing.games.insert(game);
            existing.positions += positions;
            existing.end = offset;
        }
    }
    Ok(Some(existing))
}

/// Plays the games `path` does not hold yet and appends them; returns the games and
/// positions the file holds when done.
pub fn generate(
    variant: Variant,
    config: &DataConfig,
    path: &Path,
    mut progress: impl FnMut(DataProgress),
) -> Result<DataProgress, DataError> {
    let header = config.header(variant);
    let existing = scan_existing(path, &header)?;
    let mut file = OpenOptions::new()
        .create(true)
        .append(false)
        .write(true)
        .read(true)
        .truncate(false)
        .open(path)?;
    let (done, mut positions) = match &existing {
        Some(existing) => {
            // Drop a game half written when the last run stopped.
            file.set_len(existing.end)?;
            file.seek(SeekFrom::End(0))?;
            (existing.games.clone(), existing.positions)
        }
        None => {
            file.set_len(0)?;
            writeln!(file, "{header}")?;
            (BTreeSet::new(), 0)
        }
    };
    let todo: Vec<usize> = (0..config.play.games)
        .filter(|g| !done.contains(g))
        .collect();
    let mut finished = config.play.games - todo.len();
    progress(DataProgress {
        done: finished,
        total: config.play.games,
        positions,
    });
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<(String, usize)>();
    let weights = Arc::new(config.weights.clone());
    let mut failure: Option<std::io::Error> = None;
    std::thread::scope(|scope| {
        for _ in 0..config.play.threads.clamp(1, todo.len().max(1)) {
            let sender = sender.clone();
            let (next, todo, weights) = (&next, &todo, Arc::clone(&weights));
            scope.spawn(move || {
                let mut engine = Engine::new(Options {
                    hash_mb: 4,
                    threads: 1,
                    multipv: 1,
                });
                engine.set_weights(variant, (*weights).clone());
                loop {
                    let at = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&game) = todo.get(at) else { break };
                    let block = play_data_game(&engine, variant, game, config);
                    if sender.send(block).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (block, count) in receiver.iter() {
            if failure.is_some() {
                continue;
            }
            // One write per game, so that a stop leaves at most one game half written.
            if let Err(error) = file.write_all(block.as_bytes()) {
                failure = Some(error);
                next.store(usize::MAX / 2, Ordering::Relaxed);
                continue;
            }
            finished += 1;
            positions += count;
            progress(DataProgress {
                done: finished,
                total: config.play.games,
                positions,
            });
        }
    });
    if let Some(error) = failure {
        return Err(error.into());
    }
    file.flush()?;
    Ok(DataProgress {
        done: finished,
        total: config.play.games,
        positions,
    })
}

fn result_text(result: f64) -> &'static str {
    if result == 1.0 {
        "1"
    } else if result == 0.0 {
        "0"
    } else {
        "0.5"
    }
}

/// Plays data game number `index`: its block of lines and how many positions it holds.
fn play_data_game(
    engine: &Engine,
    variant: Variant,
    index: usize,
    config: &DataConfig,
) -> (String, usize) {
    let (game, result, scores) = config.play.play_scored(engine, variant, index);
    let result = result_text(result);
    let mut block = String::new();
    let mut count = 0;
    for (ply, position) in config.play.recorded(&game) {
        // Wins and losses found by the search are written as a large value.
        let value = scores
            .get(ply)
            .copied()
            .flatten()
            .unwrap_or(0)
            .clamp(-SCORE_LIMIT, SCORE_LIMIT);
        block.push_str(&format!(
            "P {result} {value} {}\n",
            write_position(position)
        ));
        count += 1;
    }
    block.push_str(&format!("G {index} {result} {count}\n"));
    (block, count)
}

/// The largest value a data file holds: the search's wins and losses are written as this.
pub const SCORE_LIMIT: Value = 3000;

/// One position of the data, as the fit takes it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LearnSample {
    /// Which game (of its file) it comes from; the held-out games go by it.
    pub game: u32,
    /// The result for the side to move, in halves: 2 won, 1 drawn, 0 lost.
    pub result: u8,
    /// The value the data game's search gave the position, for the side to move (`None` in
    /// files of the first version).
    pub score: Option<i16>,
    /// +1 with White to move, -1 with Black.
    pub side: i8,
    /// Towers on the board, for blending opening and ending weights.
    pub phase: u8,
    /// The features, White minus Black.
    pub features: [i16; FEATURES],
    /// The state of each block, seen from the side to move.
    pub states: [u16; REGIONS],
    /// The places of the pieces the square tables weigh, by kind, seen from the side to move.
    pub pieces: [u32; KINDS],
}

/// Reads a data file of `variant`; positions are numbered into games from `first_game` on.
pub fn read_data(
    variant: Variant,
    text: &str,
    first_game: u32,
) -> Result<Vec<LearnSample>, DataError> {
    let mut out = Vec::new();
    let mut game = first_game;
    let mut pending = Vec::new();
    let mut scored = false;
    for (number, line) in text.lines().enumerate() {
        let bad = |message: String| DataError::Bad {
            line: number + 1,
            message,
        };
        if number == 0 {
            let expected = format!("variant={}", variant.name());
            scored = line.starts_with("# bashni learn data v2");
            if !(scored || line.starts_with("# bashni learn data v1")) || !line.contains(&expected)
            {
                return Err(bad(format!(
                    "not a {} data file of `bashni learn data`: `{line}`",
                    variant.name()
                )));
            }
            continue;
        }
        if line.starts_with("G ") {
            out.append(&mut pending);
            game += 1;
            continue;
        }
        let Some(rest) = line.strip_prefix("P ") else {
            return Err(bad(format!("expected a `P` or `G` line, found `{line}`")));
        };
        let (result, rest) = rest
            .split_once(' ')
            .ok_or_else(|| bad("expected `P result position`".into()))?;
        let (score, position) = if scored {
            let (value, position) = rest
                .split_once(' ')
                .ok_or_else(|| bad("expected `P result value position`".into()))?;
            let value: i16 = value
                .parse()
                .ok()
                .filter(|v: &i16| v.unsigned_abs() as Value <= SCORE_LIMIT)
                .ok_or_else(|| {
                    bad(format!(
                        "`{value}` is not a value (a whole number from -{SCORE_LIMIT} to {SCORE_LIMIT})"
                    ))
                })?;
            (Some(value), position)
        } else {
            (None, rest)
        };
        let white: u8 = match result {
            "1" => 2,
            "0.5" => 1,
            "0" => 0,
            _ => return Err(bad(format!("`{result}` is not a result (1, 0.5 or 0)"))),
        };
        let position = parse_position(variant, position).map_err(|error| bad(error.to_string()))?;
        let white_to_move = position.side_to_move() == Color::White;
        let mut f = [0i16; FEATURES];
        for (out, value) in f.iter_mut().zip(features(&position)) {
            *out = value.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        }
        pending.push(LearnSample {
            game,
            result: if white_to_move { white } else { 2 - white },
            score,
            side: if white_to_move { 1 } else { -1 },
            phase: phase(&position) as u8,
            features: f,
            states: states(&position),
            pieces: pieces(&position),
        });
    }
    Ok(out)
}

/// How to fit.
#[derive(Clone, Debug)]
pub struct LearnConfig {
    /// Seeds the shuffling.
    pub seed: u64,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per step.
    pub batch: usize,
    /// Adam's step size, in hundredths of a man; it decays over the epochs.
    pub learning_rate: f64,
    /// Pull of the pattern weights towards zero: adds `regularisation * Σ (w / 100)²`.
    pub regularisation: f64,
    /// Every this many games, one is held out.
    pub validation_every: usize,
    /// The scale of the sigmoid; `None`: the one that fits the starting weights best.
    pub k: Option<f64>,
    /// The share of the game's result in each label, from 0 to 1; the rest is the search's
    /// value through the same sigmoid (positions without a value take the result alone).
    pub result_share: f64,
}

impl Default for LearnConfig {
    fn default() -> LearnConfig {
        LearnConfig {
            seed: 1,
            epochs: 20,
            batch: 4096,
            learning_rate: 1.0,
            regularisation: 1e-4,
            validation_every: 10,
            k: None,
            result_share: 1.0,
        }
    }
}

/// What the fit reports while it works.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum LearnProgress {
    /// The sigmoid's scale was chosen.
    Scale {
        /// `K`.
        k: f64,
    },
    /// An epoch was finished.
    Epoch {
        /// Epochs done.
        done: usize,
        /// Epochs in all.
        total: usize,
        /// Mean squared error on the training positions.
        train: f64,
        /// Mean squared error on the held-out positions.
        validation: f64,
    },
}

/// What the fit found.
#[derive(Clone, Debug)]
pub struct LearnReport {
    /// The fitted weights, features and patterns, rounded.
    pub weights: Weights,
    /// The scale `K`.
    pub k: f64,
    /// Training positions.
    pub train_positions: usize,
    /// Held-out positions.
    pub validation_positions: usize,
    /// Errors (training, held out) of the starting weights, against the labels as mixed.
    pub before: (f64, f64),
    /// Errors (training, held out) of the fitted weights, rounded.
    pub after: (f64, f64),
    /// The epoch whose weights were kept (1-based).
    pub best_epoch: usize,
}

/// The parameters: the features, the tempo, then the pattern weights.
const LINEAR: usize = FEATURES + 1;

fn predict(sample: &LearnSample, w: &[f64]) -> f64 {
    let mut white = 0.0;
    for (f, w) in sample.features.iter().zip(&w[..FEATURES]) {
        white += *f as f64 * w;
    }
    let mut e = sample.side as f64 * white + w[FEATURES];
    let early = sample.phase as f64 / FULL_BOARD as f64;
    let patterns = &w[LINEAR..];
    let mut opening = 0.0;
    let mut ending = 0.0;
    for (region, state) in sample.states.iter().enumerate() {
        let at = region * STATES + *state as usize;
        opening += patterns[at];
        ending += patterns[REGIONS * STATES + at];
    }
    for at in square_places(sample) {
        opening += patterns[at];
        ending += patterns[at + KINDS * SQUARES];
    }
    e += early * opening + (1.0 - early) * ending;
    e
}

/// Where the opening weights of a sample's square tables sit among the pattern weights.
fn square_places(sample: &LearnSample) -> impl Iterator<Item = usize> + '_ {
    sample.pieces.iter().enumerate().flat_map(|(kind, &set)| {
        (0..set.count_ones()).scan(set, move |rest, _| {
            let place = rest.trailing_zeros() as usize;
            *rest &= *rest - 1;
            Some(REGION_WEIGHTS + kind * SQUARES + place)
        })
    })
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The label a sample is fitted to: its result, mixed with its search value by `share`.
fn label(sample: &LearnSample, k: f64, share: f64) -> f64 {
    let result = sample.result as f64 / 2.0;
    match sample.score {
        Some(score) if share < 1.0 => {
            share * result + (1.0 - share) * sigmoid(k * score as f64 / 100.0)
        }
        _ => result,
    }
}

/// Mean squared error of the prediction against the labels mixed by `share`.
fn mse(samples: &[&LearnSample], w: &[f64], k: f64, share: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(k * predict(s, w) / 100.0);
            let y = label(s, k, share);
            (p - y) * (p - y)
        })
        .sum();
    total / samples.len() as f64
}

fn start_parameters(start: &Weights) -> Vec<f64> {
    let mut w = vec![0.0; LINEAR + PATTERN_WEIGHTS];
    for (w, f) in w.iter_mut().zip(start.features) {
        *w = f as f64;
    }
    w[FEATURES] = start.tempo as f64;
    if let Some(patterns) = &start.patterns {
        for (w, p) in w[LINEAR..].iter_mut().zip(patterns.values()) {
            *w = *p as f64;
        }
    }
    w
}

fn rounded(w: &[f64]) -> Weights {
    let mut features = [0 as Value; FEATURES];
    for (out, w) in features.iter_mut().zip(w) {
        *out = w.round() as Value;
    }
    let patterns: Vec<i16> = w[LINEAR..]
        .iter()
        .map(|w| w.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16)
        .collect();
    Weights {
        features,
        tempo: w[FEATURES].round() as Value,
        patterns: PatternWeights::from_values(&patterns).ok().map(Arc::new),
    }
}

/// Fits the features' and the patterns' weights to `samples`, starting from `start`.
pub fn fit_patterns(
    samples: &[LearnSample],
    start: &Weights,
    config: &LearnConfig,
    mut progress: impl FnMut(LearnProgress),
) -> LearnReport {
    let held_out = |game: u32| {
        config.validation_every > 0
            && game as usize % config.validation_every == config.validation_every - 1
    };
    let (train, validation): (Vec<&LearnSample>, Vec<&LearnSample>) =
        samples.iter().partition(|s| !held_out(s.game));
    let mut w = start_parameters(start);
    let k = config.k.unwrap_or_else(|| {
        // Golden-section search of the scale that fits the starting weights best.
        let (mut a, mut b) = (0.05f64, 3.0f64);
        let ratio = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..40 {
            let c = b - ratio * (b - a);
            let d = a + ratio * (b - a);
            // The scale is fitted to the results alone.
            if mse(&train, &w, c, 1.0) < mse(&train, &w, d, 1.0) {
                b = d;
            } else {
                a = c;
            }
        }
        (a + b) / 2.0
    });
    progress(LearnProgress::Scale { k });
    let share = config.result_share.clamp(0.0, 1.0);
    let before = (mse(&train, &w, k, share), mse(&validation, &w, k, share));
    let man = Feature::Man as usize;
    let parameters = w.len();
    let mut m = vec![0.0; parameters];
    let mut v = vec![0.0; parameters];
    let mut gradient = vec![0.0; parameters];
    let mut rng = Rng::starting_at(config.seed ^ 0x006c_6561_726e);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let batch = config.batch.max(1);
    let total_steps = (train.len().div_ceil(batch) * config.epochs).max(1);
    let (beta1, beta2, epsilon) = (0.9f64, 0.999f64, 1e-8);
    let mut step = 0usize;
    let mut best = (f64::INFINITY, w.clone(), 0usize);
    for epoch in 0..config.epochs {
        for i in (1..order.len()).rev() {
            let j = rng.scaled_below(i + 1);
            order.swap(i, j);
        }
        for chunk in order.chunks(batch) {
            for &i in chunk {
                let s = train[i];
                let p = sigmoid(k * predict(s, &w) / 100.0);
                let y = label(s, k, share);
                let slope = 2.0 * (p - y) * p * (1.0 - p) * k / 100.0;
                for (g, f) in gradient[..FEATURES].iter_mut().zip(&s.features) {
                    *g += slope * s.side as f64 * *f as f64;
                }
                gradient[FEATURES] += slope;
                let early = s.phase as f64 / FULL_BOARD as f64;
                for (region, state) in s.states.iter().enumerate() {
                    let at = LINEAR + region * STATES + *state as usize;
                    gradient[at] += slope * early;
                    gradient[at + REGIONS * STATES] += slope * (1.0 - early);
                }
                for at in square_places(s) {
                    gradient[LINEAR + at] += slope * early;
                    gradient[LINEAR + at + KINDS * SQUARES] += slope * (1.0 - early);
                }
            }
            let n = chunk.len() as f64;
            step += 1;
            let fraction = step as f64 / total_steps as f64;
            let rate = config.learning_rate
                * (0.05 + 0.95 * 0.5 * (1.0 + (std::f64::consts::PI * fraction).cos()));
            let correction1 = 1.0 - beta1.powi(step.min(10_000) as i32);
            let correction2 = 1.0 - beta2.powi(step.min(100_000) as i32);
            // Adam on every parameter; the pattern weights are also pulled towards zero.
            for p in 0..parameters {
                if p == man {
                    gradient[p] = 0.0;
                    continue;
                }
                let pull = if p >= LINEAR {
                    config.regularisation * 2.0 * w[p] / (100.0 * 100.0)
                } else {
                    0.0
                };
                let g = gradient[p] / n + pull;
                gradient[p] = 0.0;
                m[p] = beta1 * m[p] + (1.0 - beta1) * g;
                v[p] = beta2 * v[p] + (1.0 - beta2) * g * g;
                w[p] -= rate * (m[p] / correction1) / ((v[p] / correction2).sqrt() + epsilon);
            }
        }
        let train_loss = mse(&train, &w, k, share);
        let validation_loss = mse(&validation, &w, k, share);
        progress(LearnProgress::Epoch {
            done: epoch + 1,
            total: config.epochs,
            train: train_loss,
            validation: validation_loss,
        });
        let score = if validation.is_empty() {
            train_loss
        } else {
            validation_loss
        };
        if score < best.0 {
            best = (score, w.clone(), epoch + 1);
        }
    }
    let (_, w, best_epoch) = best;
    let weights = rounded(&w);
    let fitted = start_parameters(&weights);
    LearnReport {
        after: (
            mse(&train, &fitted, k, share),
            mse(&validation, &fitted, k, share),
        ),
        weights,
        k,
        train_positions: train.len(),
        validation_positions: validation.len(),
        before,
        best_epoch: best_epoch.max(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bashni_engine::Limits;
    use bashni_engine::patterns::Kind;

    fn config(games: usize) -> DataConfig {
        DataConfig {
            play: SelfPlay {
                seed: 3,
                games,
                limits: Limits::depth(1),
                random_plies: 8,
                skip_plies: 4,
                max_plies: 120,
                threads: 2,
            },
            weights: Weights::tuned(Variant::Russian).without_patterns(),
        }
    }

    #[test]
    fn data_goes_on_where_it_stopped_and_is_the_same_as_in_one_run() {
        let dir = std::env::temp_dir().join(format!("bashni-learn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let whole = dir.join("whole.txt");
        let parts = dir.join("parts.txt");
        let _ = std::fs::remove_file(&whole);
        let _ = std::fs::remove_file(&parts);
        let one = generate(Variant::Russian, &config(6), &whole, |_| {}).expect("whole");
        assert_eq!(one.done, 6);
        assert!(one.positions > 0);
        generate(Variant::Russian, &config(3), &parts, |_| {}).expect("first part");
        // A half-written game at the end is dropped when the run goes on.
        let mut file = OpenOptions::new().append(true).open(&parts).expect("open");
        file.write_all(b"P 1 White: a1 0; Bla").expect("write");
        drop(file);
        let two = generate(Variant::Russian, &config(6), &parts, |_| {}).expect("rest");
        assert_eq!((two.done, two.positions), (one.done, one.positions));
        let read = |path: &Path| {
            let text = std::fs::read_to_string(path).expect("read");
            let mut samples = read_data(Variant::Russian, &text, 0).expect("parse");
            samples.sort_by_key(|s| (s.features, s.states, s.result));
            samples
        };
        let (a, b) = (read(&whole), read(&parts));
        assert_eq!(a.len(), one.positions);
        assert_eq!(
            a.iter()
                .map(|s| (s.features, s.states, s.result))
                .collect::<Vec<_>>(),
            b.iter()
                .map(|s| (s.features, s.states, s.result))
                .collect::<Vec<_>>()
        );
        // Other settings are refused, naming the line.
        let mut other = config(6);
        other.play.seed = 4;
        let error = generate(Variant::Russian, &other, &parts, |_| {}).expect_err("settings");
        assert!(error.to_string().contains("line 1"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn bad_data_names_its_line() {
        let header = config(1).header(Variant::Russian);
        let text = format!("{header}\nP 1 12 White: a1 0; Black: h8 0; White to move\nP 2 0 x\n");
        let error = read_data(Variant::Russian, &text, 0).expect_err("bad result");
        assert!(error.to_string().starts_with("line 3"), "{error}");
        let text =
            format!("{header}\nP 1 12 White: a1 0; Black: h8 0; White to move\nP 1 3001 x\n");
        let error = read_data(Variant::Russian, &text, 0).expect_err("bad value");
        assert!(
            error.to_string().starts_with("line 3") && error.to_string().contains("3001"),
            "{error}"
        );
        // A file of the first version, without values, is read.
        let old = header.replace("data v2", "data v1");
        let text = format!("{old}\nP 1 White: a1 0; Black: h8 0; White to move\nG 0 1 1\n");
        let samples = read_data(Variant::Russian, &text, 0).expect("first version");
        assert_eq!(
            (samples.len(), samples[0].score, samples[0].result),
            (1, None, 2)
        );
        let error = read_data(Variant::Bashni, &text, 0).expect_err("other game");
        assert!(error.to_string().starts_with("line 1"), "{error}");
    }

    /// Positions with White to move and random white men, half of them with a man on c3;
    /// `line` gives each position's result and value from whether it has the man on c3.
    fn c3_data(line: impl Fn(bool) -> (&'static str, i32)) -> String {
        let header = config(1).header(Variant::Russian);
        let mut text = format!("{header}\n");
        let mut rng = Rng::starting_at(9);
        let squares = ["a1", "e1", "g1", "b2", "d2", "f2", "h2", "a3", "e3", "g3"];
        for game in 0..400 {
            let with_c3 = game % 2 == 0;
            let mut white: Vec<&str> = Vec::new();
            for square in squares {
                if rng.below(2) == 0 {
                    white.push(square);
                }
            }
            if with_c3 {
                white.push("c3");
            }
            if white.is_empty() {
                white.push("a1");
            }
            let men: Vec<String> = white.iter().map(|s| format!("{s} 0")).collect();
            let (result, value) = line(with_c3);
            text.push_str(&format!(
                "P {result} {value} White: {}; Black: h8 0, f8 0; White to move\nG {game} {result} 1\n",
                men.join(", ")
            ));
        }
        text
    }

    /// Fits `text`'s positions with the given share of the results in the labels; returns
    /// the report and the pattern scores of a position with a man on c3 and of one without.
    fn fit_c3(text: &str, result_share: f64) -> (LearnReport, Value, Value) {
        let samples = read_data(Variant::Russian, text, 0).expect("data");
        assert_eq!(samples.len(), 400);
        let start = Weights::tuned(Variant::Russian).without_patterns();
        let report = fit_patterns(
            &samples,
            &start,
            &LearnConfig {
                epochs: 30,
                batch: 64,
                learning_rate: 5.0,
                k: Some(1.0),
                result_share,
                ..LearnConfig::default()
            },
            |_| {},
        );
        let patterns = report.weights.patterns.clone().expect("patterns");
        let with = bashni_rules::notation::parse_position(
            Variant::Russian,
            "White: c3 0; Black: h8 0, f8 0; White to move",
        )
        .expect("position");
        let without = bashni_rules::notation::parse_position(
            Variant::Russian,
            "White: e3 0; Black: h8 0, f8 0; White to move",
        )
        .expect("position");
        (report, patterns.score(&with), patterns.score(&without))
    }

    #[test]
    fn the_fit_learns_a_pattern_that_decides_games() {
        // Positions where a white man on c3 (with White to move) always wins and otherwise
        // the game is drawn: the fit must give the states holding it a positive weight.
        let text = c3_data(|c3| if c3 { ("1", 0) } else { ("0.5", 0) });
        let (report, with, without) = fit_c3(&text, 1.0);
        assert!(report.after.0 < report.before.0, "{report:?}");
        assert!(report.after.1 < report.before.1, "{report:?}");
        assert!(with > without + 20, "{with} {without}");
    }

    /// Patterns fitted to 400 one-position games: White has `pieces.0` (the game won) or
    /// `pieces.1` (drawn) in turn, and men on some of `extra`, against two black men.
    fn fit_two_setups(
        variant: Variant,
        pieces: (&str, &str),
        extra: &[&str],
        seed: u64,
    ) -> PatternWeights {
        let header = config(1).header(variant);
        let mut text = format!("{header}\n");
        let mut rng = Rng::starting_at(seed);
        for game in 0..400 {
            let (placed, result) = if game % 2 == 0 {
                (pieces.0, "1")
            } else {
                (pieces.1, "0.5")
            };
            let mut white = vec![placed.to_string()];
            for square in extra {
                if rng.below(2) == 0 {
                    white.push(format!("{square} 0"));
                }
            }
            text.push_str(&format!(
                "P {result} 0 White: {}; Black: h8 0, f8 0; White to move\nG {game} {result} 1\n",
                white.join(", ")
            ));
        }
        let samples = read_data(variant, &text, 0).expect("data");
        let report = fit_patterns(
            &samples,
            &Weights::tuned(variant).without_patterns(),
            &LearnConfig {
                epochs: 30,
                batch: 64,
                learning_rate: 5.0,
                k: Some(1.0),
                ..LearnConfig::default()
            },
            |_| {},
        );
        report.weights.patterns.expect("patterns").as_ref().clone()
    }

    #[test]
    fn the_fit_learns_where_a_king_stands_well() {
        // One white king in every position: on the long diagonal's end a1 White always
        // wins, on h2 the game is drawn; the men around it random.
        let patterns = fit_two_setups(
            Variant::Russian,
            ("a1 1", "h2 1"),
            &["c3", "e3", "d2", "f2"],
            5,
        );
        // a1 is place 0, h2 place 7; few towers, so the ending weights count most.
        let (a1, h2) = (
            patterns.square_weight(true, Kind::OwnKing, 0),
            patterns.square_weight(true, Kind::OwnKing, 7),
        );
        assert!(a1 > h2 + 20, "{a1} {h2}");
        assert_eq!(
            patterns.square_weight(true, Kind::EnemyKing, 0),
            0,
            "no black king seen"
        );
    }

    #[test]
    fn the_fit_learns_which_tower_stands_well_where() {
        // Bashni: White always has a tower holding a prisoner and one of two white men, on c3
        // and e3. With the prisoner on c3 White wins, with it on e3 the game is drawn. The
        // features and the blocks (which see the tops) are the same both ways: only the
        // square tables can tell them apart.
        let patterns = fit_two_setups(
            Variant::Bashni,
            ("c3 0/0, e3 00", "c3 00, e3 0/0"),
            &["a1", "g1", "h2"],
            6,
        );
        // c3 is place 9, e3 place 10; few towers, so the ending weights count most.
        let weight = |kind, place| patterns.square_weight(true, kind, place) as i32;
        let winning = weight(Kind::OwnOverEnemy, 9) + weight(Kind::OwnOverOwn, 10);
        let drawing = weight(Kind::OwnOverOwn, 9) + weight(Kind::OwnOverEnemy, 10);
        assert!(winning > drawing + 20, "{winning} {drawing}");
    }

    #[test]
    fn the_fit_follows_the_search_values_by_their_share() {
        // Every game drawn, but the search saw a man on c3 as two men up: the results alone
        // teach nothing about c3, the values alone teach that it is good.
        let text = c3_data(|c3| ("0.5", if c3 { 200 } else { 0 }));
        let (_, with, without) = fit_c3(&text, 1.0);
        assert!((with - without).abs() < 10, "{with} {without}");
        let (_, with, without) = fit_c3(&text, 0.0);
        assert!(with > without + 20, "{with} {without}");
    }
}
