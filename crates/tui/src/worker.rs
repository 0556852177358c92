//! The engine on a background thread: the screen sends jobs and collects answers through
//! channels, so drawing and the clocks never wait for a search.

use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use bashni_engine::{Engine, Level, Limits, Options, Past, Score, StopToken};
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
    jobs: Sender<(Job, StopToken)>,
    answers: Receiver<Answer>,
    /// The token of the jobs sent since the last stop.
    stop: Mutex<StopToken>,
}

impl Worker {
    /// Starts the thread with its own engine (16 MB table, one thread), playing by the
    /// endgame `tables` if given.
    pub(crate) fn start(tables: Option<std::sync::Arc<bashni_egtb::Tablebase>>) -> Worker {
        let mut engine = Engine::new(Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
        });
        engine.set_tablebase(tables);
        let (jobs, job_queue) = mpsc::channel::<(Job, StopToken)>();
        let (answer_out, answers) = mpsc::channel::<Answer>();
        thread::spawn(move || {
            while let Ok((job, stop)) = job_queue.recv() {
                if !serve(&engine, job, stop, &answer_out) {
                    break;
                }
            }
        });
        Worker {
            jobs,
            answers,
            stop: Mutex::new(StopToken::new()),
        }
    }

    /// Queues a job. Returns false when the thread is gone.
    pub(crate) fn send(&self, job: Job) -> bool {
        let stop = self.token().clone();
        self.jobs.send((job, stop)).is_ok()
    }

    /// Stops the running search and any queued one (their answers still come, and are
    /// ignored by id); jobs sent afterwards run in full.
    pub(crate) fn stop(&self) {
        let mut token = self.token();
        token.stop();
        *token = StopToken::new();
    }

    fn token(&self) -> std::sync::MutexGuard<'_, StopToken> {
        self.stop.lock().unwrap_or_else(PoisonError::into_inner)
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
fn serve(engine: &Engine, job: Job, stop: StopToken, out: &Sender<Answer>) -> bool {
    match job {
        Job::Move {
            id,
            game,
            level,
            limits,
            seed,
        } => {
            let limits = limits.with_stop(stop);
            let result = level.choose(engine, game.position(), &Past::of(&game), &limits, seed);
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
            let limits = Limits::movetime(time).with_stop(stop);
            engine.search_game(&game, &limits, |info| {
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
