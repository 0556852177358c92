//! Random legal games written in the dialects real archives use, for measuring the reader
//! on large inputs. Shared by the memory test and the `corpus` example.

use bashni_pdn::{Annotation, MoveForm, UNKNOWN_MOVE, Variation, record, rewrite, write_game};
use bashni_rules::{Game, Position, SquareNames, Variant};

/// How many dialects [`game_text`] mixes; game `i` is in dialect `i % DIALECTS`.
pub const DIALECTS: u64 = 10;

/// A small, fast generator of random numbers (xorshift64*), so that a corpus is the same
/// for the same seed.
pub struct Random(u64);

impl Random {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Random {
        Random(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (x >> 33) as usize % n
    }
}

/// A random legal game of `variant` of at most `plies` moves.
fn random_game(random: &mut Random, variant: Variant, plies: usize) -> Game {
    let mut game = Game::new(Position::start(variant));
    for _ in 0..plies {
        if game.is_over() {
            break;
        }
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[random.below(moves.len())];
        if game.play(&mv).is_err() {
            break;
        }
    }
    game
}

/// The bytes of game `index` of a corpus: a random legal game in one of [`DIALECTS`]
/// dialects, chosen by the index, ended by a blank line.
///
/// 0. the project's own form: letters, `GameType`;
/// 1. no `GameType` (Russian draughts, found by replaying);
/// 2. numbered squares, `x` captures;
/// 3. captures written with `-`;
/// 4. the abbreviated score with captures without `:` (`bd6`);
/// 5. tag names in lower case, a title line before the tags;
/// 6. a Windows-1251 `Event` tag in an otherwise UTF-8 file;
/// 7. a variation at a random move;
/// 8. unknown moves (`- -`) at the end;
/// 9. the start as a PDN 3.0 setup `/FEN "..."/` in the movetext, Bashni.
pub fn game_text(seed: u64, index: u64) -> Vec<u8> {
    let mut random = Random::new(seed ^ index.wrapping_mul(0x1000_0001));
    let dialect = index % DIALECTS;
    let variant = if dialect == 9 || random.below(5) == 0 && dialect != 1 {
        Variant::Bashni
    } else {
        Variant::Russian
    };
    let plies = 20 + random.below(60);
    let game = random_game(&mut random, variant, plies);
    let tags = vec![
        ("Event".to_string(), format!("Corpus game {}", index + 1)),
        ("White".to_string(), "Иванов".to_string()),
        ("Black".to_string(), "Petrov".to_string()),
    ];
    let form = if dialect == 4 {
        MoveForm::Short
    } else {
        MoveForm::Full
    };
    let mut raw = record(&game, &tags, form);
    match dialect {
        1 => raw.tags.retain(|(name, _)| name != "GameType"),
        2 => raw = rewrite(&raw, &game, MoveForm::Full, SquareNames::Numbers),
        3 => {
            for mv in &mut raw.moves {
                mv.text = mv.text.replace(':', "-");
            }
        }
        4 => {
            // Only the abbreviated captures (`a:a7`); a capture by its squares keeps `:`.
            for mv in &mut raw.moves {
                if mv.text.len() == 4 && mv.text.as_bytes()[1] == b':' {
                    mv.text = mv.text.replace(':', "");
                }
            }
        }
        5 => {
            for (name, _) in &mut raw.tags {
                *name = name.to_lowercase();
            }
        }
        7 if game.ply() > 2 => {
            let at = 1 + random.below(game.ply() - 1);
            let before = &game.positions()[at];
            let others = before.legal_moves();
            let other = others[random.below(others.len())];
            raw.moves[at]
                .after
                .push(Annotation::Variation(Variation::of_moves([
                    other.to_string()
                ])));
        }
        8 => {
            for _ in 0..2 {
                raw.moves.push(bashni_pdn::RawMove::new(UNKNOWN_MOVE));
            }
            raw.result = Some(bashni_pdn::ResultToken::Unfinished);
        }
        _ => {}
    }
    let mut text = String::new();
    if dialect == 5 {
        text.push_str("A collection of games\n\n");
    }
    write_game(&mut text, &raw).expect("writing to a String");
    if dialect == 9 {
        text = text.replace("\n\n1. ", "\n\n/FEN \"W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8\"/ 1. ");
    }
    let mut bytes = text.into_bytes();
    if dialect == 6 {
        let event = format!("[Event \"Corpus game {}\"]", index + 1);
        let cp1251 = format!("[Event \"Турнир {}\"]", index + 1);
        let (encoded, _, _) = encoding_rs::WINDOWS_1251.encode(&cp1251);
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let at = text.find(&event).unwrap_or(0);
        let mut out = text.as_bytes()[..at].to_vec();
        out.extend_from_slice(&encoded);
        out.extend_from_slice(&text.as_bytes()[at + event.len()..]);
        bytes = out;
    }
    bytes
}
