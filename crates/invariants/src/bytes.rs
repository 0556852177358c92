//! Reading choices out of the fuzzer's bytes.

use bashni_rules::{Game, Position, Variant};

/// The input, read from the front; reads past the end give zeros.
pub(crate) struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub(crate) fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&first, rest)) => {
                self.data = rest;
                first
            }
            None => 0,
        }
    }

    /// Up to `count` bytes.
    pub(crate) fn take(&mut self, count: usize) -> &'a [u8] {
        let (taken, rest) = self.data.split_at(count.min(self.data.len()));
        self.data = rest;
        taken
    }

    /// Everything left.
    pub(crate) fn rest(&mut self) -> &'a [u8] {
        self.take(self.data.len())
    }
}

/// Bashni for an even byte, Russian draughts for an odd one.
pub(crate) fn variant(byte: u8) -> Variant {
    if byte & 1 == 0 {
        Variant::Bashni
    } else {
        Variant::Russian
    }
}

/// A game from the start of `variant`, with up to `plies` moves chosen by the next bytes
/// (stopping early if the game ends).
pub(crate) fn game_after(variant: Variant, plies: usize, bytes: &mut Bytes<'_>) -> Game {
    let mut game = Game::start(variant);
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() || game.is_over() {
            break;
        }
        let mv = moves[usize::from(bytes.byte()) % moves.len()];
        assert!(game.play(&mv).is_ok(), "a generated move {mv} is refused");
    }
    game
}

/// Checks what every position must satisfy: the hash is in step, and the towers make a
/// legal position of its variant again, equal to it.
pub(crate) fn assert_sound(position: &Position) {
    assert_eq!(
        position.hash(),
        position.recompute_hash(),
        "hash out of step in {position:?}"
    );
    let rebuilt = Position::from_setup(position.variant(), &position.to_setup());
    assert_eq!(
        rebuilt.as_ref(),
        Ok(position),
        "the towers of a position do not make the same position again"
    );
}
