//! The two rooms of a game's chat, and the index of each side in per-side arrays.

use bashni_rules::Color;

use crate::game::round::RoundError;

/// A room of a game's chat.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Room {
    /// The two players'.
    Players,
    /// The watchers'.
    Watchers,
}

impl Room {
    /// Both rooms.
    pub const ALL: [Room; 2] = [Room::Players, Room::Watchers];

    /// `players` or `watchers`.
    pub fn name(self) -> &'static str {
        match self {
            Room::Players => "players",
            Room::Watchers => "watchers",
        }
    }

    /// The room named `name`.
    pub fn parse(name: &str) -> Result<Room, RoundError> {
        match name {
            "players" => Ok(Room::Players),
            "watchers" => Ok(Room::Watchers),
            other => Err(RoundError::Invalid(format!(
                "room: expected players or watchers, not {:?}",
                other.chars().take(20).collect::<String>()
            ))),
        }
    }

    /// The room's place in per-room arrays: players 0, watchers 1.
    pub fn index(self) -> usize {
        match self {
            Room::Players => 0,
            Room::Watchers => 1,
        }
    }
}

/// The index of a colour in per-side arrays: White 0, Black 1.
pub fn side_index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}
