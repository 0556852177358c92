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
    /// The game: Bashni if not given; a game of a PDN file without GameType is then of the
    /// game it replays under.
    #[arg(long, value_enum)]
    pub variant: Option<VariantArg>,
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
    /// The variant given by `--variant`, Bashni if none was.
    pub fn variant(&self) -> Variant {
        self.variant.map_or(Variant::Bashni, Variant::from)
    }

    /// The game: game `--game` of the PDN file, replayed (a record without `GameType` is
    /// taken as `--variant`, or found by replaying without it), or a game with no moves from
    /// `--position` (the start if not given).
    pub fn load(&self) -> Result<Game, Box<dyn Error>> {
        let variant = self.variant();
        match &self.pdn {
            None => {
                let text = self.position.as_deref().unwrap_or("start");
                let position =
                    read_position(variant, text).map_err(|e| format!("--position: {e}"))?;
                Ok(Game::new(position))
            }
            Some(path) => Ok(load_game(path, self.game, self.variant.map(Variant::from))?.game),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bashni_rules::Position;

    fn source(position: Option<&str>, pdn: Option<PathBuf>, game: usize) -> GameSource {
        GameSource {
            variant: Some(VariantArg::Russian),
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
        // Without GameType and without --variant, the record is of the game it replays in;
        // with --variant it is of that game.
        let untagged = dir.join("untagged.pdn");
        std::fs::write(
            &untagged,
            "1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. b2-c3 e7-f6 *\n",
        )
        .expect("written");
        let mut unnamed = source(None, Some(untagged), 1);
        unnamed.variant = None;
        assert_eq!(unnamed.load().expect("Russian").variant(), Variant::Russian);
        unnamed.variant = Some(VariantArg::Bashni);
        let error = unnamed.load().expect_err("not Bashni");
        assert!(
            error.to_string().contains("(Bashni), move 3... e7-f6"),
            "{error}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
