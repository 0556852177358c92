//! Players: anything that chooses moves for a game. The built-in engine at given settings,
//! a plain 2-ply material search as a baseline, and (outside this crate) external programs.

use std::fmt;

use bashni_engine::{Clock, Engine, Level, Limits, Options, Past, Weights};
use bashni_rules::{Color, Game, Move, Position};

use bashni_engine::rng::mix;

/// Why a player could not choose a move (a program that crashed or answered nonsense, a
/// setting that makes no sense). In a match the player loses the game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PlayerError {
    message: String,
}

impl PlayerError {
    /// An error saying `message`.
    pub fn new(message: impl Into<String>) -> PlayerError {
        PlayerError {
            message: message.into(),
        }
    }

    /// What went wrong.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PlayerError {}

impl From<std::io::Error> for PlayerError {
    fn from(error: std::io::Error) -> PlayerError {
        PlayerError::new(error.to_string())
    }
}

/// A player of a match.
///
/// The match calls [`Player::new_game`] before each game, then [`Player::choose`] whenever
/// it is the player's turn, with the game so far (start position and every move, so that
/// repetitions can be seen) and the player's clock if the game is timed. The match keeps the
/// clocks itself: the time `choose` takes is charged to the player, and a player whose time
/// runs out loses. A match runs each player in one thread, but several games may run at once
/// on other threads with players of their own, so a match needs players that are
/// [`Send`] (`Box<dyn Player + Send>`); a player is never shared between games.
pub trait Player {
    /// The name written in the game records.
    fn name(&self) -> String;

    /// A new game starts: forget what belongs to the last one.
    fn new_game(&mut self);

    /// The move to play in the current position of `game`; `None` when the game is over or
    /// the side to move has no move. `clock` is the time left on the player's clock and its
    /// increment, when the game is timed.
    fn choose(&mut self, game: &Game, clock: Option<Clock>) -> Result<Option<Move>, PlayerError>;
}

impl<P: Player + ?Sized> Player for Box<P> {
    fn name(&self) -> String {
        (**self).name()
    }

    fn new_game(&mut self) {
        (**self).new_game();
    }

    fn choose(&mut self, game: &Game, clock: Option<Clock>) -> Result<Option<Move>, PlayerError> {
        (**self).choose(game, clock)
    }
}

/// The hash table of a built-in player in a match, in MB: small, as every game of a match
/// has two engines of its own.
pub const MATCH_HASH_MB: usize = 16;

/// The built-in engine at given settings.
pub struct BuiltinPlayer {
    /// The name in the records.
    pub name: String,
    /// The engine (its own table; [`Player::new_game`] clears it).
    pub engine: Engine,
    /// The level; below full strength it picks weaker moves at times (see [`Level`]).
    pub level: Level,
    /// Limits of every search: depth, nodes, time per move. The match adds the clock.
    pub limits: Limits,
    /// Weights to use instead of the tuned ones, for the variant played (e.g.
    /// [`Weights::untuned`]).
    pub weights: Option<Weights>,
    /// Makes the choices of levels below full strength repeatable: the move drawn depends
    /// only on this seed and the position.
    pub seed: u64,
}

impl BuiltinPlayer {
    /// A player named `name` with an engine of `options`, at `level`, within `limits`.
    pub fn new(name: impl Into<String>, options: Options, level: Level, limits: Limits) -> Self {
        BuiltinPlayer {
            name: name.into(),
            engine: Engine::new(options),
            level,
            limits,
            weights: None,
            seed: 0,
        }
    }
}

impl Player for BuiltinPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) {
        self.engine.new_game();
    }

    fn choose(&mut self, game: &Game, clock: Option<Clock>) -> Result<Option<Move>, PlayerError> {
        if game.legal_moves().is_empty() {
            return Ok(None);
        }
        let mut limits = self.limits.clone();
        limits.clock = clock;
        let bounded = limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.movetime.is_some()
            || limits.clock.is_some()
            || self.level.depth().is_some();
        if !bounded {
            return Err(PlayerError::new(
                "the built-in engine at full strength needs a clock, a depth, a node count or a time per move",
            ));
        }
        if let Some(weights) = &self.weights {
            self.engine.set_weights(game.variant(), weights.clone());
        }
        let seed = mix(&[self.seed, game.position().hash(), game.ply() as u64]);
        let result = self.level.choose(
            &self.engine,
            game.position(),
            &Past::of(game),
            &limits,
            seed,
        );
        Ok(result.best)
    }
}

/// The value of a lost position in [`MaterialPlayer`]'s search.
const LOST: i32 = -1_000_000;

/// The baseline: a plain negamax to depth 2 (a move and the reply) that counts only
/// material, choosing among equally good moves at random (repeatably, from its seed).
///
/// Material is [`material`]: the checkers in the towers a side commands, a man 1 and a king
/// 3. A side without a move has lost. No draw rule, no capture extension, no ordering.
#[derive(Clone, Debug)]
pub struct MaterialPlayer {
    /// The name in the records.
    pub name: String,
    /// Decides between equal moves: the move drawn depends only on this and the position.
    pub seed: u64,
}

impl MaterialPlayer {
    /// The baseline, named `material2`.
    pub fn new(seed: u64) -> MaterialPlayer {
        MaterialPlayer {
            name: "material2".into(),
            seed,
        }
    }
}

/// The material of `color` in `position`: every checker of the towers it commands (its own
/// and the prisoners under them), a man 1 and a king 3. In Russian draughts the pieces.
pub fn material(position: &Position, color: Color) -> i32 {
    position
        .owned_by(color)
        .squares()
        .flat_map(|square| position.tower(square).checkers())
        .map(|checker| if checker.king { 3 } else { 1 })
        .sum()
}

/// Negamax to `depth` plies, counting material at the leaves, for the side to move.
fn negamax(position: &Position, depth: u32) -> i32 {
    let moves = position.legal_moves();
    if moves.is_empty() {
        return LOST;
    }
    if depth == 0 {
        let us = position.side_to_move();
        return material(position, us) - material(position, us.opponent());
    }
    moves
        .iter()
        .map(|mv| -negamax(&position.after(mv), depth - 1))
        .max()
        .unwrap_or(LOST)
}

impl Player for MaterialPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) {}

    fn choose(&mut self, game: &Game, _clock: Option<Clock>) -> Result<Option<Move>, PlayerError> {
        let moves = game.legal_moves();
        let position = game.position();
        let scored: Vec<(Move, i32)> = moves
            .iter()
            .map(|mv| (*mv, -negamax(&position.after(mv), 1)))
            .collect();
        let Some(best) = scored.iter().map(|&(_, value)| value).max() else {
            return Ok(None);
        };
        let best_moves: Vec<Move> = scored
            .iter()
            .filter(|&&(_, value)| value == best)
            .map(|&(mv, _)| mv)
            .collect();
        let seed = mix(&[self.seed, position.hash(), game.ply() as u64]);
        Ok(best_moves
            .get((seed % best_moves.len() as u64) as usize)
            .copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bashni_rules::notation::parse_position;
    use bashni_rules::{Variant, notation::parse_move};

    #[test]
    fn material_counts_commanded_checkers() {
        let position = parse_position(
            Variant::Bashni,
            "White: a1 0, c1 1/0000; Black: b8 110101/1; White to move",
        )
        .expect("position");
        // White: a man (1), a king (3) over four black men (4).
        assert_eq!(material(&position, Color::White), 8);
        // Black: the tower 110101/1 is king, king, man, king, man, king, over a white king.
        assert_eq!(material(&position, Color::Black), 3 + 3 + 1 + 3 + 1 + 3 + 3);
        let start = Position::start(Variant::Russian);
        assert_eq!(material(&start, Color::White), 12);
    }

    #[test]
    fn material2_takes_free_material() {
        // White can take a man on d4 at once; the baseline does.
        let position = parse_position(
            Variant::Russian,
            "White: c3 0, g3 0; Black: d4 0, h8 0; White to move",
        )
        .expect("position");
        let game = Game::new(position);
        let mut player = MaterialPlayer::new(3);
        let mv = player
            .choose(&game, None)
            .expect("no error")
            .expect("a move");
        assert_eq!(mv, parse_move(&position, "c3:e5").expect("legal"));
    }

    #[test]
    fn material2_avoids_hanging_a_man() {
        // Quiet moves only: c3-d4 and g3-f4 walk into a capture by e5, c3-b4 and g3-h4 do
        // not.
        let position = parse_position(
            Variant::Russian,
            "White: c3 0, g3 0; Black: e5 0, h8 0; White to move",
        )
        .expect("position");
        let game = Game::new(position);
        let safe = [
            parse_move(&position, "c3-b4").expect("legal"),
            parse_move(&position, "g3-h4").expect("legal"),
        ];
        let mut chosen = std::collections::HashSet::new();
        for seed in 0..20 {
            let mut player = MaterialPlayer::new(seed);
            let mv = player
                .choose(&game, None)
                .expect("no error")
                .expect("a move");
            assert!(safe.contains(&mv), "seed {seed}: {mv}");
            chosen.insert(mv);
        }
        assert_eq!(chosen.len(), 2, "ties are broken by the seed");
    }

    #[test]
    fn builtin_needs_a_bound_at_full_strength() {
        let mut player = BuiltinPlayer::new(
            "full",
            Options {
                hash_mb: 1,
                ..Options::default()
            },
            Level::full(),
            Limits::default(),
        );
        let game = Game::start(Variant::Bashni);
        assert!(player.choose(&game, None).is_err());
        player.limits = Limits::depth(2);
        let mv = player
            .choose(&game, None)
            .expect("no error")
            .expect("a move");
        assert!(game.legal_moves().contains(&mv));
    }
}
