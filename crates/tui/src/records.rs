//! Games in PDN files: saving, opening one for replay, stepping through it and playing on.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use bashni_pdn::{LoadedGame, MoveForm, load_game, record, write_game};
use bashni_rules::{Color, Game};

use crate::app::App;

/// A recorded game being stepped through.
#[derive(Clone, Debug)]
pub(crate) struct Replay {
    /// The whole game.
    pub(crate) game: Game,
    /// Plies shown (0 = the start position).
    pub(crate) shown: usize,
    /// Where it came from, for the title.
    pub(crate) name: String,
}

impl App {
    pub(crate) fn step_replay(&mut self, by: i64) {
        if let Some(replay) = &mut self.replay {
            let last = replay.game.moves().len() as i64;
            replay.shown = (replay.shown as i64 + by).clamp(0, last) as usize;
            let shown = replay.shown;
            self.analysis = None;
            self.stop_analysis();
            if shown == 0 {
                self.say("Start position.");
            } else if let Some(replay) = &self.replay {
                let mv = replay.game.moves()[shown - 1];
                let text = format!("Ply {shown} of {last}: {mv}");
                self.say(text);
            }
        }
    }

    pub(crate) fn tags(&self) -> Vec<(String, String)> {
        let name = |color: Color| match (self.level, self.engine_color()) {
            (Some(level), Some(engine)) if engine == color => {
                format!("bashni engine level {}", level.number())
            }
            _ => "Player".to_string(),
        };
        let days = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() / 86_400) as i64;
        let mut tags = vec![
            ("Event".to_string(), "Casual game".to_string()),
            ("Date".to_string(), bashni_pdn::date_tag(days)),
            ("White".to_string(), name(Color::White)),
            ("Black".to_string(), name(Color::Black)),
        ];
        if let Some(time) = self.clock.control(Color::White) {
            tags.push(("TimeControl".to_string(), time.pdn_tag()));
        }
        tags
    }

    pub(crate) fn save(&mut self, file: &Path) {
        let game = match &self.replay {
            Some(replay) => &replay.game,
            None => &self.game,
        };
        let raw = record(game, &self.tags(), MoveForm::Full);
        let mut text = String::new();
        let _ = write_game(&mut text, &raw);
        match fs::write(file, text) {
            Ok(()) => self.say(format!("Saved to {}.", file.display())),
            Err(error) => self.complain(format!("Cannot write {}: {error}", file.display())),
        }
    }

    /// Opens game `number` (1-based) of a PDN file for replay.
    pub(crate) fn open(&mut self, file: &Path, number: usize) -> Result<(), String> {
        let LoadedGame { raw, game } =
            // A record without GameType is of the game it replays under.
            load_game(file, number, None).map_err(|e| format!("{e}."))?;
        self.cancel_engine();
        self.stop_analysis();
        self.clock.stop(self.now);
        self.analysis = None;
        self.path.clear();
        let mut name = String::new();
        let white = raw.tag("White").unwrap_or("?");
        let black = raw.tag("Black").unwrap_or("?");
        let _ = write!(name, "{white} - {black}");
        let plies = game.moves().len();
        self.replay = Some(Replay {
            game,
            shown: 0,
            name,
        });
        self.say(format!(
            "Opened game {number} of {} ({plies} plies). →/← step, Home/End, :play plays on.",
            file.display()
        ));
        Ok(())
    }

    pub(crate) fn play_from_replay(&mut self) {
        let Some(replay) = self.replay.take() else {
            self.complain("Not in a replay: :open FILE first.");
            return;
        };
        let mut game = Game::new(*replay.game.start_position());
        for mv in &replay.game.moves()[..replay.shown] {
            let _ = game.play(mv);
        }
        self.game = game;
        self.restart_clocks();
        if self.level.is_some() {
            self.human = self.game.side_to_move();
        }
        self.say(format!(
            "Playing on from ply {}. {} to move.",
            self.game.ply(),
            self.game.side_to_move()
        ));
        if self.game.is_over() {
            self.announce_end();
        }
        self.start_engine_if_due();
    }
}
