//! Tournaments: who plays whom, and who stands where.
//!
//! * [`round_robin`]: every player meets every other, in the order and with the colours of
//!   the Berger tables (the "table of play order" the Bashni rulebook's 1.7 refers to).
//! * [`swiss`]: the next round of a Swiss tournament from the games so far.
//! * [`micro`]: micro-matches of Russian draughts, two games on an opening drawn from a
//!   ballot, and the ballot itself.
//! * [`standings`]: points, tie-breaks, places and the crosstable.
//!
//! A tournament's players are numbered from 0 in their starting order. Its games so far are a
//! [`History`]: each finished game with its round, colours and result, and each bye.
//!
//! **Points.** The rulebooks give the result of a game (win, draw, loss) but leave the points
//! to a competition's regulations. [`Points::default`] is the count usual in draughts
//! competitions, 2 for a win, 1 for a draw and 0 for a loss. It orders the players exactly
//! as the count of 1, ½ and 0 does (its totals are those halved), and keeps every total a
//! whole number. Any other count may be given. A bye scores as a win.

pub mod micro;
pub mod round_robin;
pub mod standings;
pub mod swiss;

use serde::{Deserialize, Serialize};

use crate::{GameScore, Score};

pub use standings::{Crosstable, Standing, Tiebreak};

/// One game of a round: the players' numbers and colours.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Pairing {
    /// The player with the white pieces (moves first).
    pub white: usize,
    /// The player with the black pieces.
    pub black: usize,
}

impl Pairing {
    /// `white` against `black`.
    pub const fn new(white: usize, black: usize) -> Pairing {
        Pairing { white, black }
    }

    /// The same players with colours swapped.
    pub const fn reversed(self) -> Pairing {
        Pairing {
            white: self.black,
            black: self.white,
        }
    }

    /// Whether `player` plays in this game.
    pub const fn has(self, player: usize) -> bool {
        self.white == player || self.black == player
    }

    /// The other player of the game, if `player` is one of the two.
    pub const fn opponent_of(self, player: usize) -> Option<usize> {
        if self.white == player {
            Some(self.black)
        } else if self.black == player {
            Some(self.white)
        } else {
            None
        }
    }
}

/// The games of one round, and the player who sits out (odd number of players).
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Round {
    /// The games, first board first.
    pub pairings: Vec<Pairing>,
    /// The player without a game this round, if any.
    pub bye: Option<usize>,
}

/// Points for each result of a game. A bye scores [`Points::win`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Points {
    /// Points for a win (and for a bye).
    pub win: u32,
    /// Points for a draw.
    pub draw: u32,
    /// Points for a loss.
    pub loss: u32,
}

impl Default for Points {
    /// The draughts count: 2 for a win, 1 for a draw, 0 for a loss.
    fn default() -> Points {
        Points::DRAUGHTS
    }
}

impl Points {
    /// The draughts count: 2 for a win, 1 for a draw, 0 for a loss.
    pub const DRAUGHTS: Points = Points {
        win: 2,
        draw: 1,
        loss: 0,
    };

    /// The points for `score`.
    pub const fn of(&self, score: Score) -> u32 {
        match score {
            Score::Win => self.win,
            Score::Draw => self.draw,
            Score::Loss => self.loss,
        }
    }
}

/// A finished game of a tournament.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct GameRecord {
    /// The round, from 1.
    pub round: u32,
    /// The players and their colours.
    pub pairing: Pairing,
    /// The result.
    pub score: GameScore,
}

impl GameRecord {
    /// How the game ended for `player`, if `player` played in it.
    pub fn score_for(&self, player: usize) -> Option<Score> {
        if self.pairing.white == player {
            Some(self.score.for_white())
        } else if self.pairing.black == player {
            Some(self.score.for_black())
        } else {
            None
        }
    }
}

/// A round a player sat out without an opponent; it scores as a win.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct ByeRecord {
    /// The round, from 1.
    pub round: u32,
    /// The player.
    pub player: usize,
}

/// What a tournament has played so far: the number of players, the finished games and the
/// byes. Games of a round that are still going are simply not in it yet.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct History {
    /// How many players the tournament has (numbered from 0).
    pub players: usize,
    /// The finished games, in any order.
    pub games: Vec<GameRecord>,
    /// The byes given, in any order.
    pub byes: Vec<ByeRecord>,
}

impl History {
    /// A tournament of `players` players with nothing played.
    pub fn new(players: usize) -> History {
        History {
            players,
            games: Vec::new(),
            byes: Vec::new(),
        }
    }

    /// Records a finished game.
    pub fn add_game(&mut self, round: u32, white: usize, black: usize, score: GameScore) {
        self.games.push(GameRecord {
            round,
            pairing: Pairing::new(white, black),
            score,
        });
    }

    /// Records a bye.
    pub fn add_bye(&mut self, round: u32, player: usize) {
        self.byes.push(ByeRecord { round, player });
    }

    /// The highest round that has a game or a bye, 0 before the first.
    pub fn last_round(&self) -> u32 {
        let games = self.games.iter().map(|game| game.round);
        let byes = self.byes.iter().map(|bye| bye.round);
        games.chain(byes).max().unwrap_or(0)
    }

    /// Each player's points so far (byes count as wins).
    pub fn points(&self, points: Points) -> Vec<u32> {
        let mut totals = vec![0; self.players];
        for game in self
            .games
            .iter()
            .filter(|g| g.pairing.white != g.pairing.black)
        {
            for player in [game.pairing.white, game.pairing.black] {
                if let (Some(total), Some(score)) = (totals.get_mut(player), game.score_for(player))
                {
                    *total += points.of(score);
                }
            }
        }
        for bye in &self.byes {
            if let Some(total) = totals.get_mut(bye.player) {
                *total += points.win;
            }
        }
        totals
    }

    /// The games `player` has played, in round order.
    pub fn games_of(&self, player: usize) -> Vec<&GameRecord> {
        let mut games: Vec<&GameRecord> = self
            .games
            .iter()
            .filter(|game| game.pairing.has(player))
            .collect();
        games.sort_by_key(|game| game.round);
        games
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings() {
        let pairing = Pairing::new(3, 5);
        assert_eq!(pairing.reversed(), Pairing::new(5, 3));
        assert!(pairing.has(3) && pairing.has(5) && !pairing.has(4));
        assert_eq!(pairing.opponent_of(5), Some(3));
        assert_eq!(pairing.opponent_of(4), None);
    }

    #[test]
    fn points_and_history() {
        let mut history = History::new(3);
        assert_eq!(history.last_round(), 0);
        history.add_game(1, 0, 1, GameScore::WhiteWins);
        history.add_bye(1, 2);
        history.add_game(2, 2, 0, GameScore::Draw);
        history.add_bye(2, 1);
        assert_eq!(history.last_round(), 2);
        assert_eq!(history.points(Points::default()), vec![3, 2, 3]);
        let football = Points {
            win: 3,
            draw: 1,
            loss: 0,
        };
        assert_eq!(history.points(football), vec![4, 3, 4]);
        assert_eq!(history.games_of(0).len(), 2);
        assert_eq!(history.games[1].score_for(0), Some(Score::Draw));
        assert_eq!(history.games[1].score_for(1), None);
        assert_eq!(Points::default().of(Score::Win), 2);
    }
}
