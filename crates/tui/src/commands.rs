//! The commands typed after `:`.

use std::path::Path;

use bashni_engine::Level;
use bashni_rules::{Game, Variant};

use crate::app::{App, start_cursor};

impl App {
    pub(crate) fn command(&mut self, text: &str) {
        let mut words = text.split_whitespace();
        let name = words.next().unwrap_or("");
        let rest: Vec<&str> = words.collect();
        match name {
            "" => {}
            "q" | "quit" => self.quit = true,
            "new" => self.new_game(rest.first().copied()),
            "save" | "w" => match rest.first() {
                Some(file) => self.save(Path::new(file)),
                None => self.complain("Usage: :save FILE"),
            },
            "open" | "o" => match rest.first() {
                Some(file) => {
                    let number = match rest.get(1).map(|n| n.parse::<usize>()) {
                        None => 1,
                        Some(Ok(n)) if n >= 1 => n,
                        Some(_) => {
                            self.complain("Usage: :open FILE [GAME NUMBER]");
                            return;
                        }
                    };
                    if let Err(error) = self.open(Path::new(file), number) {
                        self.complain(error);
                    }
                }
                None => self.complain("Usage: :open FILE [GAME NUMBER]"),
            },
            "play" => self.play_from_replay(),
            "resign" => self.resign(),
            "draw" => self.draw_command(),
            "level" => self.set_level(rest.first().copied()),
            "flip" => self.flipped = !self.flipped,
            "help" => self.help = true,
            other => self.complain(format!("Unknown command :{other}. Press ? for help.")),
        }
    }

    pub(crate) fn new_game(&mut self, variant: Option<&str>) {
        let variant = match variant {
            None => self.game.variant(),
            Some(name) => match Variant::parse(name) {
                Some(v) => v,
                None => {
                    self.complain(format!("Unknown game `{name}`: bashni or russian."));
                    return;
                }
            },
        };
        self.cancel_engine();
        self.stop_analysis();
        self.analysis = None;
        self.replay = None;
        self.path.clear();
        self.game = Game::start(variant);
        self.restart_clocks();
        self.cursor = start_cursor(self.game.side_to_move());
        self.say(format!("New game of {variant}."));
        self.start_engine_if_due();
    }

    pub(crate) fn set_level(&mut self, arg: Option<&str>) {
        match arg.map(str::parse::<u8>) {
            Some(Ok(0)) => {
                self.cancel_engine();
                self.level = None;
                self.say("Two players at this screen.");
            }
            Some(Ok(n)) => match Level::new(n) {
                Some(level) => {
                    self.cancel_engine();
                    self.level = Some(level);
                    if self.replay.is_none() && !self.game.is_over() {
                        self.human = self.game.side_to_move();
                    }
                    self.say(format!(
                        "Engine level {n} ({}) plays {}.",
                        level.name(),
                        self.human.opponent()
                    ));
                    self.start_engine_if_due();
                }
                None => self.complain("Levels go from 1 to 8 (0: two players)."),
            },
            _ => self.complain("Usage: :level N (1-8; 0 for two players)"),
        }
    }

    pub(crate) fn resign(&mut self) {
        if self.replay.is_some() || self.game.is_over() {
            self.complain("No game is going on.");
            return;
        }
        let side = if self.level.is_some() {
            self.human
        } else {
            self.game.side_to_move()
        };
        self.cancel_engine();
        if self.game.resign(side).is_ok() {
            self.announce_end();
        }
    }

    pub(crate) fn draw_command(&mut self) {
        if self.replay.is_some() || self.game.is_over() {
            self.complain("No game is going on.");
            return;
        }
        if self.game.can_claim_draw().is_some()
            && self.engine_color() != Some(self.game.side_to_move())
        {
            if self.game.claim_draw().is_ok() {
                self.announce_end();
            }
            return;
        }
        let side = self.game.side_to_move();
        match self.engine_color() {
            Some(engine) => {
                let human = engine.opponent();
                if self.game.draw_offer() == Some(engine) {
                    match self.game.accept_draw(human) {
                        Ok(()) => self.announce_end(),
                        Err(error) => self.complain(format!("{error}.")),
                    }
                    return;
                }
                if let Err(error) = self.game.offer_draw(human) {
                    self.complain(format!("{error}."));
                    return;
                }
                self.ask_engine_about_draw();
            }
            None => {
                let result = match self.game.draw_offer() {
                    Some(offerer) => self.game.accept_draw(offerer.opponent()),
                    None => self.game.offer_draw(side),
                };
                match result {
                    Err(error) => self.complain(format!("{error}.")),
                    Ok(()) if self.game.is_over() => self.announce_end(),
                    Ok(()) => self.say(format!(
                        "{side} offers a draw. {}: :draw accepts; a move by {} refuses it.",
                        side.opponent(),
                        side.opponent()
                    )),
                }
            }
        }
    }
}
