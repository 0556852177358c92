//! What each key does: on the board, and while a move or a command is typed.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::app::App;

/// What the input line holds.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum Input {
    /// Nothing is being typed.
    Idle,
    /// A move text.
    Move(String),
    /// A command after `:`.
    Command(String),
}

impl App {
    /// Reacts to one key.
    pub fn handle_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL)
            && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('d'))
        {
            self.quit = true;
            return;
        }
        if self.help {
            self.help = false;
            return;
        }
        if self.confirm_quit {
            self.confirm_quit = false;
            if matches!(key.code, KeyCode::Char('y') | KeyCode::Char('Y')) {
                self.quit = true;
            } else {
                self.say("Not quitting.");
            }
            return;
        }
        match self.input.clone() {
            Input::Move(text) => self.edit_move(key, text),
            Input::Command(text) => self.edit_command(key, text),
            Input::Idle => self.normal_key(key),
        }
    }

    pub(crate) fn normal_key(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Left if self.replay.is_some() => self.step_replay(-1),
            KeyCode::Right if self.replay.is_some() => self.step_replay(1),
            KeyCode::Home if self.replay.is_some() => self.step_replay(-1000),
            KeyCode::End if self.replay.is_some() => self.step_replay(1000),
            KeyCode::Up => self.move_cursor(0, 1),
            KeyCode::Down => self.move_cursor(0, -1),
            KeyCode::Left => self.move_cursor(-1, 0),
            KeyCode::Right => self.move_cursor(1, 0),
            KeyCode::Enter | KeyCode::Char(' ') => self.pick(),
            KeyCode::Esc => {
                if self.path.is_empty() {
                    self.say("Press ? for help.");
                } else {
                    self.path.clear();
                    self.say("Move cancelled.");
                }
            }
            KeyCode::Char(c @ 'a'..='h') => {
                self.path.clear();
                self.input = Input::Move(c.to_string());
            }
            KeyCode::Char(':') => self.input = Input::Command(String::new()),
            KeyCode::Char('l') => {
                self.show_legal = !self.show_legal;
                self.say(if self.show_legal {
                    "Legal moves shown."
                } else {
                    "Legal moves hidden."
                });
            }
            KeyCode::Char('p') => self.flipped = !self.flipped,
            KeyCode::Char('u') => self.undo(),
            KeyCode::Char('i') => self.analyse(),
            KeyCode::Char('?') => self.help = true,
            KeyCode::Char('q') => {
                if self.replay.is_none() && !self.game.is_over() && self.game.ply() > 0 {
                    self.confirm_quit = true;
                    self.say("Quit this game? Press y to quit, any other key to stay.");
                } else {
                    self.quit = true;
                }
            }
            _ => {}
        }
    }

    pub(crate) fn edit_move(&mut self, key: KeyEvent, mut text: String) {
        match key.code {
            KeyCode::Esc => self.input = Input::Idle,
            KeyCode::Backspace => {
                text.pop();
                self.input = if text.is_empty() {
                    Input::Idle
                } else {
                    Input::Move(text)
                };
            }
            KeyCode::Enter => {
                self.input = Input::Idle;
                self.play_text(text.trim());
            }
            KeyCode::Char(c) if !c.is_control() && text.len() < 80 => {
                text.push(c);
                self.input = Input::Move(text);
            }
            _ => {}
        }
    }

    pub(crate) fn edit_command(&mut self, key: KeyEvent, mut text: String) {
        match key.code {
            KeyCode::Esc => self.input = Input::Idle,
            KeyCode::Backspace => {
                if text.pop().is_none() {
                    self.input = Input::Idle;
                } else {
                    self.input = Input::Command(text);
                }
            }
            KeyCode::Enter => {
                self.input = Input::Idle;
                self.command(text.trim());
            }
            KeyCode::Char(c) if !c.is_control() && text.len() < 200 => {
                text.push(c);
                self.input = Input::Command(text);
            }
            _ => {}
        }
    }
}
