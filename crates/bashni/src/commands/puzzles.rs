//! `bashni puzzles`: find puzzles in game records, check a set again, count a set.

use std::collections::{BTreeMap, BTreeSet};
use std::error::Error;
use std::fs::{self, File, OpenOptions};
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use bashni_egtb::Tablebase;
use bashni_engine::{Engine, Options};
use bashni_pdn::{Reader, TextEncoding, replay_record};
use bashni_puzzles::mine::Examined;
use bashni_puzzles::{
    CheckOptions, Finding, MineOptions, Miner, Puzzle, Rejection, Seen, Theme, check_puzzle,
    read_puzzles,
};
use bashni_rules::{Game, Variant};
use bashni_server::store::{ListFilter, ListStatus};
use bashni_server::{Database, PgStore, Store, StoreOptions};
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};

use crate::input::VariantArg;

/// The `bashni puzzles` subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Find puzzles in the games of PDN files or of a server's database; resumable (run it
    /// again to go on).
    Mine(MineArgs),
    /// Check every puzzle of a set again with a deeper search (or the tables).
    Check(CheckArgs),
    /// Count a set's puzzles by game, theme and length.
    Stats(StatsArgs),
}

/// Arguments of `bashni puzzles mine`.
#[derive(clap::Args)]
pub struct MineArgs {
    /// The PDN files to read.
    #[arg(required_unless_present = "db")]
    files: Vec<PathBuf>,
    /// Also mine the games a server stored: its SQLite file or its PostgreSQL database
    /// (`postgres://USER@HOST/DB`); the games played to an end there and the records
    /// uploaded to it, each once.
    #[arg(long, value_name = "DB")]
    db: Option<String>,
    /// Where the puzzles go, one JSON object a line; found puzzles are added to it. The
    /// progress is kept beside it (`FILE.progress.json`).
    #[arg(long, short)]
    out: PathBuf,
    /// The game of records without a `GameType` tag.
    #[arg(long, value_enum)]
    variant: Option<VariantArg>,
    /// The depth of the search that decides.
    #[arg(long, default_value_t = MineOptions::default().depth)]
    depth: u32,
    /// The depth of the quick search every position gets first.
    #[arg(long, default_value_t = MineOptions::default().screen_depth)]
    screen_depth: u32,
    /// Miners side by side (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Endgame tables of Russian draughts to use (the positions they cover are decided
    /// by them).
    #[arg(long)]
    egtb: Option<PathBuf>,
    /// Stop after this many games (those done before count).
    #[arg(long)]
    games: Option<usize>,
}

/// Arguments of `bashni puzzles check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// The puzzles, one JSON object a line.
    file: PathBuf,
    /// The depth of every search.
    #[arg(long, default_value_t = CheckOptions::default().depth)]
    depth: u32,
    /// Checkers side by side (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Endgame tables of Russian draughts to use.
    #[arg(long)]
    egtb: Option<PathBuf>,
    /// Also write the sound puzzles, in their order, to this file.
    #[arg(long)]
    sound: Option<PathBuf>,
}

/// Arguments of `bashni puzzles stats`.
#[derive(clap::Args)]
pub struct StatsArgs {
    /// The puzzles, one JSON object a line.
    file: PathBuf,
}

/// Runs a subcommand.
pub fn run(command: &Command) -> Result<ExitCode, Box<dyn Error>> {
    match command {
        Command::Mine(args) => mine(args),
        Command::Check(args) => check(args),
        Command::Stats(args) => stats(args),
    }
}

fn threads(asked: Option<usize>) -> usize {
    asked
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 256)
}

fn engine(tables: Option<&Arc<Tablebase>>) -> Engine {
    let mut engine = Engine::new(Options {
        hash_mb: 32,
        threads: 1,
        multipv: 1,
    });
    engine.set_tablebase(tables.cloned());
    engine
}

fn load_tables(dir: Option<&PathBuf>) -> Result<Option<Arc<Tablebase>>, Box<dyn Error>> {
    match dir {
        None => Ok(None),
        Some(dir) => Ok(Some(Arc::new(
            Tablebase::load(dir).map_err(|e| format!("{}: {e}", dir.display()))?,
        ))),
    }
}

/// What a mining run has done so far, kept beside its output.
#[derive(Default, Serialize, Deserialize)]
struct Progress {
    /// The games finished, by file: their numbers in the file.
    done: BTreeMap<String, Vec<usize>>,
    /// The stored games finished, by database: their ids.
    #[serde(default)]
    stored: BTreeMap<String, BTreeSet<String>>,
    /// Positions examined.
    examined: u64,
    /// Puzzles kept.
    kept: u64,
    /// Positions rejected, by reason.
    rejected: BTreeMap<String, u64>,
    /// Records that could not be replayed.
    unreadable: u64,
    /// Seconds spent, over every run.
    seconds: f64,
}

impl Progress {
    fn is_done(&self, file: &str, game: usize) -> bool {
        self.done
            .get(file)
            .is_some_and(|games| games.binary_search(&game).is_ok())
    }

    fn mark_done(&mut self, file: &str, game: usize) {
        let games = self.done.entry(file.to_string()).or_default();
        if let Err(at) = games.binary_search(&game) {
            games.insert(at, game);
        }
    }

    fn mark_place(&mut self, file: &str, place: &Place) {
        match place {
            Place::Record(number) => self.mark_done(file, *number),
            Place::Stored(id) => self.mark_stored(file, id),
        }
    }

    fn mark_stored(&mut self, database: &str, id: &str) {
        self.stored
            .entry(database.to_string())
            .or_default()
            .insert(id.to_string());
    }

    fn is_stored_done(&self, database: &str, id: &str) -> bool {
        self.stored
            .get(database)
            .is_some_and(|games| games.contains(id))
    }

    fn games_done(&self) -> usize {
        self.done.values().map(Vec::len).sum::<usize>()
            + self.stored.values().map(BTreeSet::len).sum::<usize>()
    }

    fn save(&self, path: &Path) -> Result<(), Box<dyn Error>> {
        let temporary = path.with_extension("json.part");
        fs::write(&temporary, serde_json::to_vec_pretty(self)?)?;
        fs::rename(&temporary, path)?;
        Ok(())
    }
}

fn progress_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".progress.json");
    PathBuf::from(name)
}

/// Where a game to mine comes from.
#[derive(Clone)]
enum Place {
    /// A record of a PDN file: its number in the file.
    Record(usize),
    /// A game a server stored: its id.
    Stored(String),
}

/// One game to mine.
struct Job {
    /// The PDN file or the database (as shown).
    file: String,
    place: Place,
    game: Game,
}

/// How a puzzle names the game it comes from.
fn source(file: &str, place: &Place) -> String {
    match place {
        Place::Record(number) => format!("{file} game {number}"),
        Place::Stored(id) => format!("{file} game {id}"),
    }
}

/// A server's database opened to read its games, with the runtime its questions need.
struct StoredGames {
    /// The database as shown (a PostgreSQL address without its password).
    name: String,
    database: Database,
    runtime: tokio::runtime::Runtime,
}

impl StoredGames {
    fn open(db: &str) -> Result<StoredGames, Box<dyn Error>> {
        let name = crate::commands::serve::shown_url(db);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let shared = db.starts_with("postgres://") || db.starts_with("postgresql://");
        let database: Database = if shared {
            runtime
                .block_on(PgStore::connect(db))
                .map_err(|e| format!("cannot use the database {name}: {e}"))?
                .into()
        } else {
            // A miner reads a server's games; it does not make an empty database.
            if !Path::new(db).is_file() {
                return Err(format!("--db {db}: no such database file").into());
            }
            Store::open(Path::new(db), StoreOptions::default())
                .map_err(|e| format!("cannot open the database {name}: {e}"))?
                .into()
        };
        Ok(StoredGames {
            name,
            database,
            runtime,
        })
    }

    /// The ids of the games played to an end and of the uploaded records, oldest first.
    fn ids(&self) -> Result<Vec<String>, Box<dyn Error>> {
        const PAGE: u32 = 500;
        let mut ids = Vec::new();
        for status in [ListStatus::Finished, ListStatus::Records] {
            let mut before = None;
            loop {
                let filter = ListFilter {
                    status,
                    ids: None,
                    before: before.clone(),
                    limit: PAGE,
                };
                let page = self
                    .runtime
                    .block_on(self.database.list(filter))
                    .map_err(|e| format!("{}: {e}", self.name))?;
                let Some(last) = page.last() else { break };
                before = Some((last.listed_ms, last.id.clone()));
                let full = page.len() == PAGE as usize;
                ids.extend(page.into_iter().map(|game| game.id));
                if !full {
                    break;
                }
            }
        }
        ids.reverse();
        Ok(ids)
    }

    /// The game `id` as the rules play it, if it is still there.
    fn game(&self, id: &str) -> Result<Option<Game>, String> {
        self.runtime
            .block_on(self.database.load(id))
            .map(|round| round.map(|round| round.game))
            .map_err(|e| e.to_string())
    }
}

/// The peak of the process's resident memory in MiB, where the system tells it.
fn peak_memory_mib() -> Option<f64> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn mine(args: &MineArgs) -> Result<ExitCode, Box<dyn Error>> {
    let started = Instant::now();
    let progress_file = progress_path(&args.out);
    let mut progress: Progress = match fs::read(&progress_file) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map_err(|e| format!("{}: {e}", progress_file.display()))?,
        Err(_) => Progress::default(),
    };
    let mut seen = Seen::new();
    if args.out.exists() {
        let text =
            fs::read_to_string(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
        for puzzle in read_puzzles(&text).map_err(|e| format!("{}: {e}", args.out.display()))? {
            seen.admit(&puzzle);
        }
    }
    let mut out = BufWriter::new(
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(&args.out)
            .map_err(|e| format!("{}: {e}", args.out.display()))?,
    );
    let tables = load_tables(args.egtb.as_ref())?;
    let options = MineOptions {
        depth: args.depth.max(1),
        screen_depth: args.screen_depth.clamp(1, args.depth.max(1)),
        ..MineOptions::default()
    };
    let variant = args.variant.map(Variant::from);
    let limit = args.games.unwrap_or(usize::MAX);
    // Count the games to do first, for the bar.
    let mut to_do = 0usize;
    for file in &args.files {
        let name = file.display().to_string();
        let handle = File::open(file).map_err(|e| format!("{name}: {e}"))?;
        for (index, _) in
            Reader::with_encoding(BufReader::new(handle), TextEncoding::AUTO).enumerate()
        {
            if !progress.is_done(&name, index + 1) {
                to_do += 1;
            }
        }
    }
    let stored = args.db.as_deref().map(StoredGames::open).transpose()?;
    let stored_ids: Vec<String> = match &stored {
        None => Vec::new(),
        Some(stored) => stored
            .ids()?
            .into_iter()
            .filter(|id| !progress.is_stored_done(&stored.name, id))
            .collect(),
    };
    to_do += stored_ids.len();
    let to_do = to_do.min(limit.saturating_sub(progress.games_done()));
    let bar = ProgressBar::new(to_do as u64);
    bar.set_style(
        ProgressStyle::with_template("[{bar:25}] {pos}/{len} games, {msg} ({elapsed}, {eta} left)")
            .map_err(|e| e.to_string())?,
    );
    let (job_tx, job_rx) = mpsc::sync_channel::<Job>(16);
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (found_tx, found_rx) = mpsc::channel::<(String, Place, Vec<Examined>)>();
    let workers = threads(args.threads);
    let mut unreadable = Vec::new();
    let mut unread = Vec::new();
    std::thread::scope(|scope| -> Result<(), Box<dyn Error>> {
        for _ in 0..workers {
            let job_rx = Arc::clone(&job_rx);
            let found_tx = found_tx.clone();
            let miner = Miner::new(engine(tables.as_ref()), options.clone());
            scope.spawn(move || {
                loop {
                    let job = match job_rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    let Ok(job) = job else { return };
                    let found = miner.mine_game(&job.game, &source(&job.file, &job.place));
                    if found_tx.send((job.file, job.place, found)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(found_tx);
        let files = args.files.clone();
        let done: Vec<(String, Vec<usize>)> = progress
            .done
            .iter()
            .map(|(file, games)| (file.clone(), games.clone()))
            .collect();
        let stored = stored.as_ref();
        let stored_ids = &stored_ids;
        let reader = scope.spawn(move || {
            // Records that cannot be replayed (marked done), and stored games that could
            // not be read this time (left for the next run).
            let mut unreadable = Vec::new();
            let mut unread = Vec::new();
            let mut sent = 0usize;
            for file in files {
                let name = file.display().to_string();
                let Ok(handle) = File::open(&file) else {
                    continue;
                };
                let finished = done
                    .iter()
                    .find(|(done_file, _)| *done_file == name)
                    .map(|(_, games)| games.clone())
                    .unwrap_or_default();
                for (index, raw) in
                    Reader::with_encoding(BufReader::new(handle), TextEncoding::AUTO).enumerate()
                {
                    let number = index + 1;
                    if finished.binary_search(&number).is_ok() {
                        continue;
                    }
                    if sent >= to_do {
                        return (unreadable, unread);
                    }
                    sent += 1;
                    let place = Place::Record(number);
                    let game = match raw {
                        Ok(raw) => match replay_record(&raw, variant) {
                            Ok(replayed) => replayed.game,
                            Err(error) => {
                                unreadable.push((name.clone(), place, error.to_string()));
                                continue;
                            }
                        },
                        Err(error) => {
                            unreadable.push((name.clone(), place, error.to_string()));
                            continue;
                        }
                    };
                    let job = Job {
                        file: name.clone(),
                        place,
                        game,
                    };
                    if job_tx.send(job).is_err() {
                        return (unreadable, unread);
                    }
                }
            }
            if let Some(stored) = stored {
                for id in stored_ids {
                    if sent >= to_do {
                        break;
                    }
                    sent += 1;
                    let place = Place::Stored(id.clone());
                    let game = match stored.game(id) {
                        Ok(Some(game)) => game,
                        Ok(None) => {
                            let why = "no longer stored".to_string();
                            unreadable.push((stored.name.clone(), place, why));
                            continue;
                        }
                        Err(error) => {
                            unread.push((stored.name.clone(), place, error));
                            continue;
                        }
                    };
                    let job = Job {
                        file: stored.name.clone(),
                        place,
                        game,
                    };
                    if job_tx.send(job).is_err() {
                        break;
                    }
                }
            }
            (unreadable, unread)
        });
        for (file, place, found) in found_rx {
            for examined in found {
                progress.examined += 1;
                let reason = match examined {
                    Examined::Kept(puzzle) => {
                        if seen.admit(&puzzle) {
                            serde_json::to_writer(&mut out, &puzzle)?;
                            writeln!(out)?;
                            progress.kept += 1;
                            continue;
                        }
                        Rejection::Duplicate
                    }
                    Examined::Rejected(reason) => reason,
                };
                *progress
                    .rejected
                    .entry(reason.name().to_string())
                    .or_default() += 1;
            }
            out.flush()?;
            progress.mark_place(&file, &place);
            progress.save(&progress_file)?;
            bar.inc(1);
            bar.set_message(format!(
                "{} positions, {} puzzles",
                progress.examined, progress.kept
            ));
        }
        (unreadable, unread) = reader.join().unwrap_or_default();
        Ok(())
    })?;
    bar.finish_and_clear();
    for (file, place, error) in &unreadable {
        // A record that cannot be replayed is reported and marked done, so a new run does
        // not read it again.
        eprintln!("{}: {error} (skipped)", source(file, place));
        progress.mark_place(file, place);
        progress.unreadable += 1;
    }
    for (file, place, error) in &unread {
        // A stored game the database did not give this time is mined by the next run.
        eprintln!("{}: {error} (left for the next run)", source(file, place));
    }
    let seconds = started.elapsed().as_secs_f64();
    progress.seconds += seconds;
    progress.save(&progress_file)?;
    let mut stdout = std::io::stdout().lock();
    writeln!(
        stdout,
        "games {} ({} unreadable), positions examined {}, puzzles kept {}",
        progress.games_done(),
        progress.unreadable,
        progress.examined,
        progress.kept
    )?;
    let reasons: Vec<String> = Rejection::ALL
        .iter()
        .map(|reason| {
            format!(
                "{} {}",
                reason.name(),
                progress.rejected.get(reason.name()).copied().unwrap_or(0)
            )
        })
        .collect();
    writeln!(stdout, "rejected: {}", reasons.join(", "))?;
    writeln!(
        stdout,
        "time {seconds:.1} s this run ({:.1} s in all), peak memory {}",
        progress.seconds,
        peak_memory_mib().map_or("unknown".to_string(), |mib| format!("{mib:.0} MiB"))
    )?;
    Ok(ExitCode::SUCCESS)
}

fn read_set(file: &Path) -> Result<Vec<Puzzle>, Box<dyn Error>> {
    let text = fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(read_puzzles(&text).map_err(|e| format!("{}: {e}", file.display()))?)
}

fn check(args: &CheckArgs) -> Result<ExitCode, Box<dyn Error>> {
    let puzzles = read_set(&args.file)?;
    let tables = load_tables(args.egtb.as_ref())?;
    let options = CheckOptions {
        depth: args.depth.max(1),
        ..CheckOptions::default()
    };
    let bar = ProgressBar::new(puzzles.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("[{bar:25}] {pos}/{len} puzzles ({elapsed}, {eta} left)")
            .map_err(|e| e.to_string())?,
    );
    let next = Mutex::new(0usize);
    let findings: Mutex<Vec<(usize, Finding)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads(args.threads) {
            scope.spawn(|| {
                let engine = engine(tables.as_ref());
                loop {
                    let index = {
                        let Ok(mut next) = next.lock() else { return };
                        let index = *next;
                        *next += 1;
                        index
                    };
                    let Some(puzzle) = puzzles.get(index) else {
                        return;
                    };
                    // Each puzzle from an empty table: its verdict does not depend on
                    // which puzzles this checker had before.
                    engine.new_game();
                    let finding = check_puzzle(&engine, puzzle, &options);
                    if let Ok(mut findings) = findings.lock() {
                        findings.push((index, finding));
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let mut findings = findings.into_inner().map_err(|e| e.to_string())?;
    findings.sort_by_key(|(index, _)| *index);
    let mut stdout = std::io::stdout().lock();
    let mut unsound = 0;
    let mut sound = Vec::new();
    for (index, finding) in &findings {
        let puzzle = &puzzles[*index];
        match finding {
            Finding::Unsound { ply, why } => {
                unsound += 1;
                writeln!(stdout, "{}: move {}: {why}", puzzle.id, ply + 1)?;
            }
            Finding::Sound => sound.push(puzzle),
        }
    }
    if let Some(path) = &args.sound {
        let mut text = String::new();
        for puzzle in sound {
            text.push_str(&serde_json::to_string(puzzle)?);
            text.push('\n');
        }
        fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    writeln!(
        stdout,
        "{} puzzles checked at depth {}: {} sound, {unsound} unsound",
        findings.len(),
        options.depth,
        findings.len() - unsound
    )?;
    Ok(if unsound == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn stats(args: &StatsArgs) -> Result<ExitCode, Box<dyn Error>> {
    let puzzles = read_set(&args.file)?;
    let mut stdout = std::io::stdout().lock();
    for variant in [Variant::Bashni, Variant::Russian] {
        let of_game: Vec<&Puzzle> = puzzles
            .iter()
            .filter(|puzzle| puzzle.variant == variant.name())
            .collect();
        writeln!(stdout, "{variant}: {} puzzles", of_game.len())?;
        let themes: Vec<String> = Theme::ALL
            .iter()
            .map(|theme| {
                let count = of_game.iter().filter(|p| p.themes.contains(theme)).count();
                format!("{theme} {count}")
            })
            .collect();
        writeln!(stdout, "  themes: {}", themes.join(", "))?;
        let mut lengths: BTreeMap<usize, usize> = BTreeMap::new();
        for puzzle in &of_game {
            *lengths.entry(puzzle.solver_moves()).or_default() += 1;
        }
        let lengths: Vec<String> = lengths
            .iter()
            .map(|(moves, count)| format!("{moves} {count}"))
            .collect();
        writeln!(stdout, "  solver's moves: {}", lengths.join(", "))?;
    }
    Ok(ExitCode::SUCCESS)
}
