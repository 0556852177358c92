//! Players as the command line gives them: `level=8,time=10+0.1`, `material2`, `untuned`,
//! `depth=4,weights=untuned`, `exec:/path/to/program args`.
//!
//! A spec is a comma-separated list of settings:
//!
//! | setting | meaning |
//! | --- | --- |
//! | `material2` | the baseline [`MaterialPlayer`] (takes only `name`) |
//! | `untuned`, `tuned` | the built-in engine with [`Weights::untuned`] / tuned weights |
//! | `level=N` | level 1 to 8 (default 8, full strength) |
//! | `depth=N`, `nodes=N` | limits of every search (override the match's `--depth`, `--nodes`) |
//! | `movetime=S` | seconds per move at most |
//! | `time=B+I` (or `tc=B+I`) | this player's own clock (overrides the match's `--tc`) |
//! | `weights=tuned\|untuned\|FILE` | the evaluation weights (a file as `bashni tune` writes) |
//! | `patterns=off\|FILE` | no pattern weights, or those of a file (as `bashni learn fit` writes them) |
//! | `reductions=on\|off` | late-move reductions of the search (default on), to measure them |
//! | `search=NAME:VALUE/...` | search constants changed from each game's shipped ones ([`SearchParams::changed`]), to tune them by matches |
//! | `hash=MB`, `threads=N` | engine table size (default 16) and search threads (default 1) |
//! | `egtb=DIR` | endgame tables of Russian draughts from `DIR` (made by `bashni egtb build`), loaded once and shared by all games |
//! | `name=TEXT` | the name in the records (default: the spec itself) |
//!
//! `exec:PROGRAM ARGS` is an external program speaking the project's engine protocol; this
//! crate only recognises it ([`PlayerKind::External`]), the program that runs the match
//! makes the player.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use bashni_egtb::Tablebase;
use bashni_engine::patterns::PatternWeights;

use bashni_engine::{Level, Limits, Options, SearchParams, Weights};
use bashni_rules::Variant;

use crate::player::{BuiltinPlayer, MATCH_HASH_MB, MaterialPlayer, Player};
use crate::runner::PlayerFactory;
use bashni_rules::TimeControl;

/// Which kind of player a spec names.
#[derive(Clone, PartialEq, Debug)]
pub enum PlayerKind {
    /// The built-in engine.
    Builtin {
        /// Level 1 to 8.
        level: Level,
        /// Search depth per move.
        depth: Option<u32>,
        /// Nodes per move.
        nodes: Option<u64>,
        /// Time per move.
        movetime: Option<Duration>,
        /// Weights instead of the tuned ones.
        weights: Option<WeightsChoice>,
        /// Pattern weights instead of those that come with the weights.
        patterns: Option<PatternsChoice>,
        /// Table size in MB.
        hash_mb: usize,
        /// Search threads.
        threads: usize,
        /// Whether late-move reductions are on.
        reductions: bool,
        /// Changes to the shipped search constants (`NAME:VALUE/...`, checked), applied to
        /// those of each game.
        search: String,
        /// Endgame tables for the engine.
        egtb: Option<TablesChoice>,
    },
    /// The 2-ply material baseline.
    Material2,
    /// An external program: the command line, split at blanks.
    External {
        /// The program and its arguments.
        command: Vec<String>,
    },
}

/// Weights asked for by a spec.
#[derive(Clone, PartialEq, Debug)]
pub enum WeightsChoice {
    /// The hand-set weights ([`Weights::untuned`]).
    Untuned,
    /// Weights read from a file.
    Given(Weights),
}

/// Pattern weights asked for by a spec.
#[derive(Clone, PartialEq, Debug)]
pub enum PatternsChoice {
    /// No patterns: the features alone.
    Off,
    /// Pattern weights read from a file (as `bashni learn fit` writes them).
    Given(Arc<PatternWeights>),
}

/// Endgame tables asked for by `egtb=DIR`: the directory as given and the tables loaded
/// from it. Two choices are equal when they name the same directory.
#[derive(Clone)]
pub struct TablesChoice {
    /// The directory.
    pub dir: String,
    /// The tables.
    pub tables: Arc<Tablebase>,
}

impl PartialEq for TablesChoice {
    fn eq(&self, other: &TablesChoice) -> bool {
        self.dir == other.dir
    }
}

impl fmt::Debug for TablesChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TablesChoice({})", self.dir)
    }
}

/// A player as given on the command line.
#[derive(Clone, PartialEq, Debug)]
pub struct PlayerSpec {
    /// The name in the records.
    pub name: String,
    /// What plays.
    pub kind: PlayerKind,
    /// This player's own time control, if the spec gives one.
    pub time_control: Option<TimeControl>,
}

fn number<T: std::str::FromStr>(key: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("`{key}={value}`: `{value}` is not a valid number"))
}

impl PlayerSpec {
    /// Reads a spec (see the module notes). `read_file` reads a file named by
    /// `weights=FILE` or `patterns=FILE`.
    pub fn parse(
        text: &str,
        read_file: impl Fn(&str) -> Result<Vec<u8>, String>,
    ) -> Result<PlayerSpec, String> {
        let text = text.trim();
        if let Some(command) = text.strip_prefix("exec:") {
            let command: Vec<String> = command.split_whitespace().map(String::from).collect();
            let Some(program) = command.first() else {
                return Err("`exec:` needs a program".into());
            };
            return Ok(PlayerSpec {
                name: program
                    .rsplit(['/', '\\'])
                    .next()
                    .unwrap_or(program)
                    .to_string(),
                kind: PlayerKind::External { command },
                time_control: None,
            });
        }
        let mut name = None;
        let mut material = false;
        let mut level = Level::full();
        let mut depth = None;
        let mut nodes = None;
        let mut movetime = None;
        let mut weights = None;
        let mut patterns = None;
        let mut hash_mb = MATCH_HASH_MB;
        let mut reductions = true;
        let mut search = String::new();
        let mut threads = 1;
        let mut time_control = None;
        let mut builtin_setting = None;
        let mut egtb = None;
        for item in text.split(',').map(str::trim) {
            if item.is_empty() {
                continue;
            }
            let (key, value) = match item.split_once('=') {
                Some((key, value)) => (key.trim(), Some(value.trim())),
                None => (item, None),
            };
            match (key, value) {
                ("material2", None) => material = true,
                ("untuned", None) => weights = Some(WeightsChoice::Untuned),
                ("tuned", None) | ("builtin", None) => {}
                ("name", Some(value)) => {
                    name = Some(value.to_string());
                    continue;
                }
                ("level", Some(value)) => {
                    let n: u8 = number(key, value)?;
                    level = Level::new(n).ok_or_else(|| {
                        format!("`level={value}`: levels go from 1 to {}", Level::MAX)
                    })?;
                }
                ("depth", Some(value)) => {
                    let d: u32 = number(key, value)?;
                    if d == 0 {
                        return Err("`depth=0`: the depth must be at least 1".into());
                    }
                    depth = Some(d);
                }
                ("nodes", Some(value)) => {
                    let n: u64 = number(key, value)?;
                    if n == 0 {
                        return Err("`nodes=0`: the node count must be at least 1".into());
                    }
                    nodes = Some(n);
                }
                ("movetime", Some(value)) => {
                    let seconds: f64 = number(key, value)?;
                    if !(seconds > 0.0 && seconds < 1.0e7) {
                        return Err(format!("`movetime={value}`: give seconds above 0"));
                    }
                    movetime = Some(Duration::from_secs_f64(seconds));
                }
                ("time" | "tc", Some(value)) => {
                    time_control = Some(
                        TimeControl::parse_seconds(value)
                            .map_err(|e| format!("time control `{value}`: {e}"))?,
                    );
                    continue;
                }
                ("weights", Some("untuned")) => weights = Some(WeightsChoice::Untuned),
                ("weights", Some("tuned")) => weights = None,
                ("weights", Some(file)) => {
                    let text = String::from_utf8(read_file(file)?)
                        .map_err(|_| format!("{file}: not a text file"))?;
                    let parsed =
                        Weights::parse(&text).map_err(|error| format!("{file}: {error}"))?;
                    weights = Some(WeightsChoice::Given(parsed));
                }
                ("patterns", Some("off")) => patterns = Some(PatternsChoice::Off),
                ("patterns", Some(file)) => {
                    let parsed = PatternWeights::from_bytes(&read_file(file)?)
                        .map_err(|error| format!("{file}: {error}"))?;
                    patterns = Some(PatternsChoice::Given(Arc::new(parsed)));
                }
                ("reductions", Some("on")) => reductions = true,
                ("reductions", Some("off")) => reductions = false,
                ("search", Some(value)) => {
                    SearchParams::parse(value).map_err(|e| format!("`search=`: {e}"))?;
                    search = value.to_string();
                }
                ("hash", Some(value)) => {
                    hash_mb = number(key, value)?;
                    if hash_mb == 0 || hash_mb > 65_536 {
                        return Err(format!("`hash={value}`: give 1 to 65536 MB"));
                    }
                }
                ("egtb", Some(dir)) => {
                    let tables = Tablebase::load(std::path::Path::new(dir))
                        .map_err(|error| format!("`egtb={dir}`: {error}"))?;
                    egtb = Some(TablesChoice {
                        dir: dir.to_string(),
                        tables: Arc::new(tables),
                    });
                }
                ("threads", Some(value)) => {
                    threads = number(key, value)?;
                    if threads == 0 || threads > 256 {
                        return Err(format!("`threads={value}`: give 1 to 256 threads"));
                    }
                }
                _ => {
                    return Err(format!(
                        "unknown player setting `{item}` (expected material2, untuned, level=, depth=, nodes=, movetime=, time=, weights=, patterns=, reductions=on|off, search=, hash=, threads=, egtb=, name=, or exec:PROGRAM)"
                    ));
                }
            }
            if key != "material2" {
                builtin_setting = Some(item.to_string());
            }
        }
        if material && let Some(setting) = builtin_setting {
            return Err(format!(
                "`material2` is a fixed 2-ply search; `{setting}` does not apply to it"
            ));
        }
        let kind = if material {
            PlayerKind::Material2
        } else {
            PlayerKind::Builtin {
                level,
                depth,
                nodes,
                movetime,
                weights,
                patterns,
                hash_mb,
                threads,
                reductions,
                search,
                egtb,
            }
        };
        Ok(PlayerSpec {
            name: name.unwrap_or_else(|| text.to_string()),
            kind,
            time_control,
        })
    }

    /// Whether the player needs a clock, a depth or a node count from the match to know when
    /// to stop: the built-in engine at full strength without limits of its own.
    pub fn needs_limits(&self) -> bool {
        match &self.kind {
            PlayerKind::Builtin {
                level,
                depth,
                nodes,
                movetime,
                ..
            } => {
                level.depth().is_none()
                    && depth.is_none()
                    && nodes.is_none()
                    && movetime.is_none()
                    && self.time_control.is_none()
            }
            _ => false,
        }
    }

    /// The factory of this player for a match of `variant`: `depth` and `nodes` are the
    /// match's limits per move, used where the spec gives none; `seed` makes the choices
    /// repeatable. `None` for an external program (see the module notes).
    pub fn factory(
        &self,
        variant: Variant,
        depth: Option<u32>,
        nodes: Option<u64>,
        seed: u64,
    ) -> Option<PlayerFactory> {
        let name = self.name.clone();
        match &self.kind {
            PlayerKind::Material2 => Some(Arc::new(move || {
                let mut player = MaterialPlayer::new(seed);
                player.name = name.clone();
                Ok(Box::new(player) as Box<dyn Player + Send>)
            })),
            PlayerKind::Builtin {
                level,
                depth: own_depth,
                nodes: own_nodes,
                movetime,
                weights,
                patterns,
                hash_mb,
                threads,
                reductions,
                search,
                egtb,
            } => {
                let limits = Limits {
                    depth: own_depth.or(depth),
                    nodes: own_nodes.or(nodes),
                    movetime: *movetime,
                    ..Limits::default()
                };
                let options = Options {
                    hash_mb: *hash_mb,
                    threads: *threads,
                    ..Options::default()
                };
                let level = *level;
                let reductions = *reductions;
                let search = search_constants(variant, search);
                let tables = egtb.as_ref().map(|choice| Arc::clone(&choice.tables));
                let weights = (weights.is_some() || patterns.is_some()).then(|| {
                    let mut chosen = match weights {
                        None => Weights::tuned(variant),
                        Some(WeightsChoice::Untuned) => Weights::untuned(variant),
                        Some(WeightsChoice::Given(weights)) => weights.clone(),
                    };
                    match patterns {
                        None => {}
                        Some(PatternsChoice::Off) => chosen.patterns = None,
                        Some(PatternsChoice::Given(given)) => {
                            chosen.patterns = Some(Arc::clone(given));
                        }
                    }
                    chosen
                });
                Some(Arc::new(move || {
                    let mut player =
                        BuiltinPlayer::new(name.clone(), options.clone(), level, limits.clone());
                    player.weights = weights.clone();
                    player.engine.set_reductions(reductions);
                    player.engine.set_search_params(variant, search);
                    player.engine.set_tablebase(tables.as_ref().map(Arc::clone));
                    player.seed = seed;
                    Ok(Box::new(player) as Box<dyn Player + Send>)
                }))
            }
            PlayerKind::External { .. } => None,
        }
    }
}

/// The search constants of `variant` with the changes of a `search=` setting (checked when
/// the spec was read; the allowed ranges do not depend on the game).
fn search_constants(variant: Variant, changes: &str) -> SearchParams {
    let shipped = SearchParams::shipped(variant);
    shipped.changed(changes).unwrap_or(shipped)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<PlayerSpec, String> {
        PlayerSpec::parse(text, |file| match file {
            "w.txt" => Ok(b"man 90\nking 280\n".to_vec()),
            "p.bin" => Ok(PatternWeights::zero().to_bytes()),
            _ => Err(format!("{file}: no such file")),
        })
    }

    #[test]
    fn search_constants_are_read_and_checked() {
        let spec = parse("level=8,search=lmr_divisor:1.8/lmp_depth:3").expect("valid");
        let PlayerKind::Builtin { search, .. } = &spec.kind else {
            panic!("a built-in player");
        };
        assert_eq!(search, "lmr_divisor:1.8/lmp_depth:3");
        for variant in [Variant::Bashni, Variant::Russian] {
            let params = search_constants(variant, search);
            assert_eq!(params.lmr_divisor, 1.8);
            assert_eq!(params.lmp_depth, 3);
            assert_eq!(
                params.futility_margin,
                SearchParams::shipped(variant).futility_margin
            );
        }
        let error = parse("search=lmr_divisr:2").expect_err("misspelt");
        assert!(error.contains("lmr_divisr"), "{error}");
        let error = parse("search=lmp_depth:-1").expect_err("out of range");
        assert!(error.contains("lmp_depth"), "{error}");
    }

    #[test]
    fn specs_read() {
        let spec = parse("level=8,time=10+0.1").expect("valid");
        assert_eq!(spec.name, "level=8,time=10+0.1");
        assert_eq!(spec.time_control, TimeControl::parse_seconds("10+0.1").ok());
        assert!(matches!(spec.kind, PlayerKind::Builtin { level, .. } if level == Level::full()));
        assert!(!spec.needs_limits());

        let spec = parse("level=4").expect("valid");
        assert!(!spec.needs_limits(), "level 4 searches 4 plies at most");

        assert_eq!(
            parse("material2").expect("valid").kind,
            PlayerKind::Material2
        );
        let spec = parse("material2,name=base").expect("valid");
        assert_eq!(spec.name, "base");
        assert!(parse("material2,depth=3").is_err());

        let spec = parse("untuned").expect("valid");
        assert!(matches!(
            spec.kind,
            PlayerKind::Builtin {
                weights: Some(WeightsChoice::Untuned),
                ..
            }
        ));
        assert!(spec.needs_limits());

        let spec = parse("patterns=p.bin").expect("valid");
        assert!(matches!(
            spec.kind,
            PlayerKind::Builtin {
                patterns: Some(PatternsChoice::Given(_)),
                ..
            }
        ));
        let spec = parse("patterns=off").expect("valid");
        assert!(matches!(
            spec.kind,
            PlayerKind::Builtin {
                patterns: Some(PatternsChoice::Off),
                ..
            }
        ));
        let error = parse("patterns=w.txt").expect_err("not a pattern file");
        assert!(
            error.contains("w.txt") && error.contains("BPATTERN"),
            "{error}"
        );

        let spec = parse("depth=3,weights=w.txt,hash=8,threads=2").expect("valid");
        let PlayerKind::Builtin {
            depth,
            weights,
            hash_mb,
            threads,
            ..
        } = spec.kind
        else {
            panic!("builtin expected");
        };
        assert_eq!((depth, hash_mb, threads), (Some(3), 8, 2));
        let Some(WeightsChoice::Given(weights)) = weights else {
            panic!("weights from the file");
        };
        assert_eq!(weights.features[0], 90);

        let error = parse("depth=3,egtb=/no/such/place").expect_err("no tables there");
        assert!(error.starts_with("`egtb=/no/such/place`: "), "{error}");
        let dir = std::env::temp_dir().join(format!("bashni-spec-egtb-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        bashni_egtb::build(&dir, 2, |_| {}).expect("the tables build");
        let spec = parse(&format!("depth=3,egtb={}", dir.display())).expect("valid");
        let PlayerKind::Builtin {
            egtb: Some(choice), ..
        } = &spec.kind
        else {
            panic!("tables expected");
        };
        assert_eq!(choice.tables.max_pieces(), 2);
        let factory = spec
            .factory(Variant::Russian, None, None, 1)
            .expect("a builtin player");
        let mut player = factory().expect("a player");
        let position = bashni_rules::notation::parse_position(
            Variant::Russian,
            "White: c7 0; Black: h6 0; White to move",
        )
        .expect("a position");
        let chosen = player
            .choose(&bashni_rules::Game::new(position), None)
            .expect("a choice");
        assert_eq!(chosen.map(|m| m.to_string()), Some("c7-d8".to_string()));
        let _ = std::fs::remove_dir_all(&dir);

        let spec = parse("exec:/usr/local/bin/engine --fast").expect("valid");
        assert_eq!(spec.name, "engine");
        assert_eq!(
            spec.kind,
            PlayerKind::External {
                command: vec!["/usr/local/bin/engine".into(), "--fast".into()]
            }
        );
        assert!(spec.factory(Variant::Bashni, None, None, 1).is_none());
    }

    #[test]
    fn bad_specs_are_refused() {
        for bad in [
            "level=0",
            "level=9",
            "level=x",
            "depth=0",
            "depth=-1",
            "nodes=0",
            "time=abc",
            "movetime=0",
            "hash=0",
            "threads=0",
            "weights=missing.txt",
            "frobnicate",
            "level",
            "exec:",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn factories_make_named_players() {
        let spec = parse("depth=1,name=quick").expect("valid");
        let factory = spec
            .factory(Variant::Russian, None, None, 5)
            .expect("builtin");
        let player = factory().expect("made");
        assert_eq!(player.name(), "quick");
        let spec = parse("material2").expect("valid");
        let factory = spec
            .factory(Variant::Russian, Some(3), None, 5)
            .expect("material");
        assert_eq!(factory().expect("made").name(), "material2");
    }
}
