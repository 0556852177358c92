//! The engine's work on its background thread: its moves, the analysis, and its answer to
//! a draw offer.

use bashni_engine::{Limits, Score};
use bashni_rules::{Color, Game, Move};

use crate::app::App;
use crate::worker::{Answer, Job};

/// The engine's view of a position.
#[derive(Clone, Debug)]
pub(crate) struct Analysis {
    /// The position analysed, to drop the result once the board moves on.
    pub(crate) ply: usize,
    /// Who was to move there (scores are for that side).
    pub(crate) side: Color,
    /// Depth reached.
    pub(crate) depth: u32,
    /// Score for the side to move.
    pub(crate) score: Score,
    /// The best line, written in full.
    pub(crate) line: Vec<String>,
    /// Whether the search still runs.
    pub(crate) running: bool,
}

impl App {
    pub(crate) fn receive(&mut self, answer: Answer) {
        match answer {
            Answer::Move { id, best } => {
                if self.pending != Some(id) {
                    return;
                }
                self.pending = None;
                match best {
                    Some(mv) => {
                        if self.commit(&mv) {
                            if !self.game.is_over() {
                                self.say(format!("The engine played {mv}."));
                            }
                        } else {
                            self.complain(format!("The engine chose {mv}, which is not legal."));
                        }
                    }
                    None => self.complain("The engine found no move."),
                }
            }
            Answer::Info {
                id,
                depth,
                score,
                pv,
            } => {
                if self.analysing != Some(id) {
                    return;
                }
                if let Some(analysis) = &mut self.analysis {
                    analysis.depth = depth;
                    analysis.score = score;
                    analysis.line = pv.iter().map(Move::to_string).collect();
                }
            }
            Answer::Draw { id, accept } => self.engine_answers_draw(id, accept),
            Answer::Done { id } => {
                if self.analysing == Some(id) {
                    self.analysing = None;
                    if let Some(analysis) = &mut self.analysis {
                        analysis.running = false;
                    }
                }
            }
        }
    }

    pub(crate) fn start_engine_if_due(&mut self) {
        let Some(level) = self.level else { return };
        if self.pending.is_some()
            || self.replay.is_some()
            || self.game.is_over()
            || Some(self.game.side_to_move()) != self.engine_color()
        {
            return;
        }
        let limits =
            match bashni_engine::Clock::of_game(&self.clock, self.game.side_to_move(), self.now) {
                Some(clock) => Limits {
                    clock: Some(clock),
                    ..Limits::default()
                },
                None => Limits::movetime(self.think_time),
            };
        let id = self.id();
        let job = Job::Move {
            id,
            game: Box::new(self.game.clone()),
            level,
            limits,
            seed: self.seeds.next_u64(),
        };
        if self.worker().send(job) {
            self.pending = Some(id);
        } else {
            self.complain("The engine stopped working.");
        }
    }

    pub(crate) fn cancel_engine(&mut self) {
        if self.pending.take().is_some()
            && let Some(worker) = &self.worker
        {
            worker.stop();
        }
    }

    pub(crate) fn stop_analysis(&mut self) {
        if self.analysing.take().is_some()
            && let Some(worker) = &self.worker
        {
            worker.stop();
        }
        if let Some(analysis) = &mut self.analysis {
            analysis.running = false;
        }
    }

    pub(crate) fn analyse(&mut self) {
        if self.analysing.is_some() {
            self.stop_analysis();
            self.say("Analysis stopped.");
            return;
        }
        let game = match &self.replay {
            Some(replay) => {
                let mut game = Game::new(*replay.game.start_position());
                for mv in &replay.game.moves()[..replay.shown] {
                    let _ = game.play(mv);
                }
                game
            }
            None => self.game.clone(),
        };
        if game.position().legal_moves().is_empty() {
            self.complain("No move to analyse here.");
            return;
        }
        let id = self.id();
        let job = Job::Analyse {
            id,
            game: Box::new(game.clone()),
            time: self.think_time,
        };
        if self.worker().send(job) {
            self.analysing = Some(id);
            self.analysis = Some(Analysis {
                ply: game.ply(),
                side: game.side_to_move(),
                depth: 0,
                score: Score::Value(0),
                line: Vec::new(),
                running: true,
            });
            self.say("Analysing (i again stops).");
        }
    }

    /// Sends the person's open draw offer to the engine, whose answer comes to
    /// [`App::engine_answers_draw`].
    pub(crate) fn ask_engine_about_draw(&mut self) {
        let Some(level) = self.level else { return };
        let id = self.id();
        let job = Job::Draw {
            id,
            game: Box::new(self.game.clone()),
            level,
        };
        if self.worker().send(job) {
            self.draw_answer = Some((id, self.game.ply()));
            self.say("Draw offered; the engine considers it.");
        } else {
            self.complain("The engine stopped working.");
        }
    }

    /// The engine's answer to the draw offer asked about as `id`; dropped when the game
    /// has moved on since.
    pub(crate) fn engine_answers_draw(&mut self, id: u64, accept: bool) {
        let Some((asked, ply)) = self.draw_answer else {
            return;
        };
        if asked != id {
            return;
        }
        self.draw_answer = None;
        let Some(engine) = self.engine_color() else {
            return;
        };
        if self.replay.is_some()
            || self.game.ply() != ply
            || self.game.draw_offer() != Some(engine.opponent())
        {
            return;
        }
        if accept && self.game.accept_draw(engine).is_ok() {
            self.cancel_engine();
            self.announce_end();
        } else {
            let _ = self.game.decline_draw(engine);
            self.say("The engine declines the draw.");
        }
    }
}
