//! Reading the command line's variants and the games commands start from.

use std::error::Error;
use std::path::PathBuf;

use bashni_pdn::load_game;
use bashni_rules::notation::read_position;
use bashni_rules::{Game, Variant};

/// The game, as given by `--variant`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum VariantArg {
    /// Tower checkers.
    Bashni,
    /// Russian draughts (shashki).
    Russian,
}

impl From<VariantArg> for Variant {
    fn from(arg: VariantArg) -> Variant {
        match arg {
            VariantArg::Bashni => Variant::Bashni,
            VariantArg::Russian => Variant::Russian,
        }
    }
}

/// Which game a command works on and where it comes from: `--variant`, and a position given
/// as text or a game of a PDN file (`--position`, `--pdn`, `--game`); shared by `analyse`,
/// `diagram` and `play`.
#[derive(Clone, Debug, clap::Args)]
pub struct GameSource {
    /// The game.
    #[arg(long, value_enum, default_value = "bashni")]
    pub variant: VariantArg,
    /// The position (rulebook notation or FEN); the start if neither this nor --pdn is given.
    #[arg(long, conflicts_with = "pdn")]
    pub position: Option<String>,
    /// Take a game of this PDN file instead.
    #[arg(long)]
    pub pdn: Option<PathBuf>,
    /// Which game of the PDN file (1-based).
    #[arg(long, default_value_t = 1, requires = "pdn")]
    pub game: usize,
}

impl GameSource {
    /// The variant given by `--variant`.
    pub fn variant(&self) -> Variant {
        Variant::from(self.variant)
    }

    /// The game: game `--game` of the PDN file, replayed (a record without `GameType` is
    /// taken as `--variant`), or a game with no moves from `--position` (the start if not
    /// given).
    pub fn load(&self) -> Result<Game, Box<dyn Error>> {
        let variant = self.variant();
        match &self.pdn {
            None => {
                let text = self.position.as_deref().unwrap_or("start");
                let position =
                    read_position(variant, text).map_err(|e| format!("--position: {e}"))?;
                Ok(Game::new(position))
            }
            Some(path) => Ok(load_game(path, self.game, Some(variant))?.game),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bashni_rules::Position;

    fn source(position: Option<&str>, pdn: Option<PathBuf>, game: usize) -> GameSource {
        GameSource {
            variant: VariantArg::Russian,
            position: position.map(String::from),
            pdn,
            game,
        }
    }

    #[test]
    fn a_position_or_the_start() {
        let start = source(None, None, 1).load().expect("start");
        assert_eq!(start.position(), &Position::start(Variant::Russian));
        let given = source(Some("White: c3 0; Black: f6 0; White to move"), None, 1)
            .load()
            .expect("a position");
        assert_eq!(
            given
                .position()
                .owned_by(bashni_rules::Color::White)
                .count(),
            1
        );
        let bad = source(Some("White: z9 0"), None, 1)
            .load()
            .expect_err("no such square");
        assert!(bad.to_string().starts_with("--position: "), "{bad}");
    }

    #[test]
    fn a_game_of_a_pdn_file() {
        let dir = std::env::temp_dir().join(format!("bashni-source-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder");
        let file = dir.join("two.pdn");
        std::fs::write(
            &file,
            "[GameType \"25\"]\n\n1. c3-d4 f6-g5 *\n\n[GameType \"25\"]\n\n1. e3-f4 *\n",
        )
        .expect("written");
        let second = source(None, Some(file.clone()), 2).load().expect("game 2");
        assert_eq!(second.ply(), 1);
        let missing = source(None, Some(file), 3).load();
        assert!(missing.is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
