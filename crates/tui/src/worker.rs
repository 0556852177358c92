//! The engine on a background thread: the screen sends jobs and collects answers through
//! channels, so drawing and the clocks never wait for a search.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::Duration;

use bashni_engine::{Engine, Level, Limits, Options, Score, history_of};
use bashni_rules::{Game, Move};

/// Work for the engine.
pub(crate) enum Job {
    /// Choose a move at a level.
    Move {
        id: u64,
        game: Box<Game>,
        level: Level,
        limits: Limits,
        seed: u64,
    },
    /// Answer the open draw offer at a level.
    Draw {
        id: u64,
        game: Box<Game>,
        level: Level,
    },
    /// Search the position for about `time`, reporting each depth.
    Analyse {
        id: u64,
        game: Box<Game>,
        time: Duration,
    },
}

/// What the engine sends back.
pub(crate) enum Answer {
    /// The chosen move (none when the position has no move).
    Move { id: u64, best: Option<Move> },
    /// Whether the engine takes the draw offered.
    Draw { id: u64, accept: bool },
    /// One completed depth of an analysis.
    Info {
        id: u64,
        depth: u32,
        score: Score,
        pv: Vec<Move>,
    },
    /// The analysis finished.
    Done { id: u64 },
}

/// The handle kept by the screen.
pub(crate) struct Worker {
    jobs: Sender<Job>,
    answers: Receiver<Answer>,
    stop: Arc<AtomicBool>,
}

impl Worker {
    /// Starts the thread with its own engine (16 MB table, one thread).
    pub(crate) fn start() -> Worker {
        let engine = Engine::new(Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
        });
        let stop = engine.stop_handle();
        let (jobs, job_queue) = mpsc::channel::<Job>();
        let (answer_out, answers) = mpsc::channel::<Answer>();
        thread::spawn(move || {
            while let Ok(job) = job_queue.recv() {
                if !serve(&engine, job, &answer_out) {
                    break;
                }
            }
        });
        Worker {
            jobs,
            answers,
            stop,
        }
    }

    /// Queues a job. Returns false when the thread is gone.
    pub(crate) fn send(&self, job: Job) -> bool {
        self.jobs.send(job).is_ok()
    }

    /// Stops the running search (its answer still comes, and is ignored by id).
    pub(crate) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The next answer, if one is waiting.
    pub(crate) fn try_answer(&self) -> Option<Answer> {
        self.answers.try_recv().ok()
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Runs one job; false when nobody listens any more.
fn serve(engine: &Engine, job: Job, out: &Sender<Answer>) -> bool {
    match job {
        Job::Move {
            id,
            game,
            level,
            limits,
            seed,
        } => {
            let result = level.choose(engine, game.position(), &history_of(&game), &limits, seed);
            out.send(Answer::Move {
                id,
                best: result.best,
            })
            .is_ok()
        }
        Job::Draw { id, game, level } => out
            .send(Answer::Draw {
                id,
                accept: level.accepts_draw(engine, &game),
            })
            .is_ok(),
        Job::Analyse { id, game, time } => {
            let mut alive = true;
            engine.search_game(&game, &Limits::movetime(time), |info| {
                alive &= out
                    .send(Answer::Info {
                        id,
                        depth: info.depth,
                        score: info.score,
                        pv: info.pv.clone(),
                    })
                    .is_ok();
            });
            alive && out.send(Answer::Done { id }).is_ok()
        }
    }
}
