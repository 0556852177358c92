//! Standings, tie-breaks and the crosstable.
//!
//! Players are ordered by points, then by the chosen tie-breaks in turn (higher first), and
//! players equal on all of them share a place. Within a shared place the lower starting
//! number is listed first.
//!
//! The tie-breaks:
//!
//! * **Sonneborn-Berger** (used in round robins): the points of every opponent the player
//!   beat, plus half the points of every opponent the player drew with. More generally each
//!   game adds the opponent's final points times the share of a win the player took from the
//!   game (1 for a win, ½ for a draw under the draughts count, 0 for a loss).
//! * **Buchholz** (used in Swiss tournaments): the sum of the final points of all the
//!   player's opponents, once per game played against them.
//! * **Median Buchholz**: the Buchholz sum without the best and the worst opponent, for
//!   players with at least three games; with fewer it is the Buchholz sum.
//! * **Wins**: the number of games won over the board.
//!
//! A bye adds its points to the player's total but, having no opponent, nothing to the
//! Buchholz or Sonneborn-Berger sums and no win to the count of wins.
//!
//! ```
//! use bashni_club::GameScore;
//! use bashni_club::tournament::{History, Points, Tiebreak, standings};
//!
//! let mut history = History::new(3);
//! history.add_game(1, 0, 1, GameScore::WhiteWins);
//! history.add_bye(1, 2);
//! let table = standings::standings(&history, Points::default(), &Tiebreak::SWISS);
//! assert_eq!(table[0].player, 0);
//! assert_eq!((table[0].points, table[0].buchholz), (2, 0));
//! // The bye scores as a win: players 0 and 2 share the points, and the Buchholz sum
//! // decides nothing (both 0), nor does anything else, so they share first place.
//! assert_eq!((table[1].player, table[1].place), (2, 1));
//! ```

use std::cmp::Ordering;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::{History, Points};
use crate::Score;

/// A way to order players who have the same points.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tiebreak {
    /// Opponents' points, weighted by the result against each.
    SonnebornBerger,
    /// The sum of the opponents' points.
    Buchholz,
    /// The Buchholz sum without the best and the worst opponent.
    MedianBuchholz,
    /// Games won.
    Wins,
}

impl Tiebreak {
    /// The tie-breaks of a round robin: Sonneborn-Berger, then wins.
    pub const ROUND_ROBIN: [Tiebreak; 2] = [Tiebreak::SonnebornBerger, Tiebreak::Wins];

    /// The tie-breaks of a Swiss tournament: Buchholz, median Buchholz, then
    /// Sonneborn-Berger.
    pub const SWISS: [Tiebreak; 3] = [
        Tiebreak::Buchholz,
        Tiebreak::MedianBuchholz,
        Tiebreak::SonnebornBerger,
    ];
}

/// One player's line in the standings.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Standing {
    /// The player's number.
    pub player: usize,
    /// The place, from 1; players equal on points and every tie-break share the place
    /// (the next one down is then as many places lower).
    pub place: usize,
    /// The points, byes included.
    pub points: u32,
    /// Games played (byes not counted).
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Byes received.
    pub byes: u32,
    /// The Sonneborn-Berger sum.
    pub sonneborn_berger: f64,
    /// The Buchholz sum.
    pub buchholz: u32,
    /// The median Buchholz sum.
    pub median_buchholz: u32,
}

impl Standing {
    /// The value of `tiebreak` for this player.
    pub fn tiebreak(&self, tiebreak: Tiebreak) -> f64 {
        match tiebreak {
            Tiebreak::SonnebornBerger => self.sonneborn_berger,
            Tiebreak::Buchholz => f64::from(self.buchholz),
            Tiebreak::MedianBuchholz => f64::from(self.median_buchholz),
            Tiebreak::Wins => f64::from(self.wins),
        }
    }

    /// How this line compares with `other` by points and `tiebreaks`: `Less` when this
    /// player stands higher.
    fn rank_against(&self, other: &Standing, tiebreaks: &[Tiebreak]) -> Ordering {
        other.points.cmp(&self.points).then_with(|| {
            tiebreaks.iter().fold(Ordering::Equal, |order, &tiebreak| {
                order.then_with(|| other.tiebreak(tiebreak).total_cmp(&self.tiebreak(tiebreak)))
            })
        })
    }
}

/// The standings of `history` under `points`, ordered by points and then `tiebreaks`.
/// Games naming a player number outside the tournament are ignored.
pub fn standings(history: &History, points: Points, tiebreaks: &[Tiebreak]) -> Vec<Standing> {
    let n = history.players;
    let totals = history.points(points);
    let mut lines: Vec<Standing> = (0..n)
        .map(|player| Standing {
            player,
            place: 0,
            points: totals[player],
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            byes: 0,
            sonneborn_berger: 0.0,
            buchholz: 0,
            median_buchholz: 0,
        })
        .collect();
    let mut opponents_points: Vec<Vec<u32>> = vec![Vec::new(); n];
    let win = f64::from(points.win.max(1));
    for game in &history.games {
        let (white, black) = (game.pairing.white, game.pairing.black);
        if white >= n || black >= n || white == black {
            continue;
        }
        for (player, opponent) in [(white, black), (black, white)] {
            let Some(score) = game.score_for(player) else {
                continue;
            };
            let line = &mut lines[player];
            line.games += 1;
            match score {
                Score::Win => line.wins += 1,
                Score::Draw => line.draws += 1,
                Score::Loss => line.losses += 1,
            }
            line.sonneborn_berger +=
                f64::from(totals[opponent]) * f64::from(points.of(score)) / win;
            opponents_points[player].push(totals[opponent]);
        }
    }
    for bye in &history.byes {
        if let Some(line) = lines.get_mut(bye.player) {
            line.byes += 1;
        }
    }
    for (line, opponents) in lines.iter_mut().zip(&mut opponents_points) {
        line.buchholz = opponents.iter().sum();
        opponents.sort_unstable();
        line.median_buchholz = if opponents.len() >= 3 {
            opponents[1..opponents.len() - 1].iter().sum()
        } else {
            line.buchholz
        };
    }
    lines.sort_by(|a, b| {
        a.rank_against(b, tiebreaks)
            .then_with(|| a.player.cmp(&b.player))
    });
    for i in 0..lines.len() {
        lines[i].place = if i > 0 && lines[i].rank_against(&lines[i - 1], tiebreaks).is_eq() {
            lines[i - 1].place
        } else {
            i + 1
        };
    }
    lines
}

/// The table of every player's results against every other.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Crosstable {
    /// One row per player, in the order of the standings.
    pub rows: Vec<CrosstableRow>,
}

/// One row of a [`Crosstable`].
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct CrosstableRow {
    /// The player's line in the standings.
    pub standing: Standing,
    /// One cell per column; the columns are the rows' players in the same order. A cell
    /// holds the player's results against that column's player in round order (empty if
    /// they have not played); the cell of the player against themself is `None`.
    pub cells: Vec<Option<Vec<Score>>>,
}

/// The crosstable of `history`: the standings (see [`standings`]) with each player's results
/// against each other player.
pub fn crosstable(history: &History, points: Points, tiebreaks: &[Tiebreak]) -> Crosstable {
    let table = standings(history, points, tiebreaks);
    let mut column = vec![usize::MAX; history.players];
    for (index, line) in table.iter().enumerate() {
        column[line.player] = index;
    }
    let mut games: Vec<_> = history.games.iter().collect();
    games.sort_by_key(|game| game.round);
    let mut rows: Vec<CrosstableRow> = table
        .into_iter()
        .enumerate()
        .map(|(index, standing)| CrosstableRow {
            standing,
            cells: (0..column.len())
                .map(|other| (other != index).then(Vec::new))
                .collect(),
        })
        .collect();
    for game in games {
        let (white, black) = (game.pairing.white, game.pairing.black);
        if white >= column.len() || black >= column.len() || white == black {
            continue;
        }
        let (w, b) = (column[white], column[black]);
        if let Some(cell) = &mut rows[w].cells[b] {
            cell.push(game.score.for_white());
        }
        if let Some(cell) = &mut rows[b].cells[w] {
            cell.push(game.score.for_black());
        }
    }
    Crosstable { rows }
}

impl Crosstable {
    /// The table as plain text, for logs and tests: place, player number (from 1), one
    /// column per opponent with the points of each game (`x` for the player's own cell,
    /// `.` for a game not played yet), then the points.
    pub fn to_text(&self, points: Points) -> String {
        let cells: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|row| {
                row.cells
                    .iter()
                    .map(|cell| match cell {
                        None => "x".to_string(),
                        Some(games) if games.is_empty() => ".".to_string(),
                        Some(games) => games
                            .iter()
                            .map(|&score| points.of(score).to_string())
                            .collect::<Vec<_>>()
                            .join(","),
                    })
                    .collect()
            })
            .collect();
        let width = cells
            .iter()
            .flatten()
            .map(String::len)
            .chain(
                self.rows
                    .iter()
                    .map(|r| (r.standing.player + 1).to_string().len()),
            )
            .max()
            .unwrap_or(1);
        let mut out = String::new();
        let _ = write!(out, "{:>5} {:>4} |", "place", "no");
        for row in &self.rows {
            let _ = write!(out, " {:>width$}", row.standing.player + 1);
        }
        out.push_str(" | points\n");
        for (row, line) in self.rows.iter().zip(&cells) {
            let _ = write!(
                out,
                "{:>5} {:>4} |",
                row.standing.place,
                row.standing.player + 1
            );
            for cell in line {
                let _ = write!(out, " {cell:>width$}");
            }
            let _ = writeln!(out, " | {}", row.standing.points);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameScore;
    use crate::tournament::round_robin;

    /// A four-player round robin played by the Berger table (1-4 2-3, 4-3 1-2, 2-4 3-1, in
    /// numbers from 1) with these results:
    ///
    /// | round | game | result |
    /// | --- | --- | --- |
    /// | 1 | 1-4 | draw |
    /// | 1 | 2-3 | 3 wins |
    /// | 2 | 4-3 | 4 wins |
    /// | 2 | 1-2 | 1 wins |
    /// | 3 | 2-4 | 2 wins |
    /// | 3 | 3-1 | 1 wins |
    ///
    /// By hand, at 2-1-0: player 1 has 1+2+2 = 5, player 4 has 1+2+0 = 3, players 2 and 3
    /// have 2 each. Sonneborn-Berger: player 1 drew 4 (3/2) and beat 2 and 3 (2+2): 5.5;
    /// player 4 drew 1 (5/2) and beat 3 (2): 4.5; player 2 beat 4: 3; player 3 beat 2: 2.
    /// Buchholz: 1: 3+2+2 = 7; 2: 5+2+3 = 10; 3: 2+3+5 = 10; 4: 5+2+2 = 9. Median Buchholz
    /// (middle opponent of three): 1: 2; 2: 3; 3: 3; 4: 2.
    fn four_player_history() -> History {
        let results = [
            GameScore::Draw,
            GameScore::BlackWins,
            GameScore::WhiteWins,
            GameScore::WhiteWins,
            GameScore::WhiteWins,
            GameScore::BlackWins,
        ];
        let mut history = History::new(4);
        let mut scores = results.into_iter();
        for (index, round) in round_robin::rounds(4).iter().enumerate() {
            for pairing in &round.pairings {
                let score = scores.next().expect("six results");
                history.add_game(index as u32 + 1, pairing.white, pairing.black, score);
            }
        }
        history
    }

    #[test]
    fn hand_computed_round_robin() {
        let table = standings(
            &four_player_history(),
            Points::default(),
            &Tiebreak::ROUND_ROBIN,
        );
        let order: Vec<usize> = table.iter().map(|s| s.player + 1).collect();
        assert_eq!(order, [1, 4, 2, 3]);
        let points: Vec<u32> = table.iter().map(|s| s.points).collect();
        assert_eq!(points, [5, 3, 2, 2]);
        let sb: Vec<f64> = table.iter().map(|s| s.sonneborn_berger).collect();
        assert_eq!(sb, [5.5, 4.5, 3.0, 2.0]);
        let buchholz: Vec<u32> = table.iter().map(|s| s.buchholz).collect();
        assert_eq!(buchholz, [7, 9, 10, 10]);
        let median: Vec<u32> = table.iter().map(|s| s.median_buchholz).collect();
        assert_eq!(median, [2, 2, 3, 3]);
        let places: Vec<usize> = table.iter().map(|s| s.place).collect();
        assert_eq!(places, [1, 2, 3, 4]);
        let record: Vec<(u32, u32, u32)> =
            table.iter().map(|s| (s.wins, s.draws, s.losses)).collect();
        assert_eq!(record, [(2, 1, 0), (1, 1, 1), (1, 0, 2), (1, 0, 2)]);
        assert!(table.iter().all(|s| s.games == 3 && s.byes == 0));
    }

    #[test]
    fn tie_break_order_matters() {
        let history = four_player_history();
        // Without tie-breaks players 2 and 3 share third place, 2 listed first.
        let plain = standings(&history, Points::default(), &[]);
        let places: Vec<(usize, usize)> = plain.iter().map(|s| (s.player + 1, s.place)).collect();
        assert_eq!(places, [(1, 1), (4, 2), (2, 3), (3, 3)]);
        // Wins alone do not split them either; Buchholz and median Buchholz neither
        // (10 and 3 each); Sonneborn-Berger does.
        let wins = standings(&history, Points::default(), &[Tiebreak::Wins]);
        assert_eq!((wins[3].player, wins[3].place), (2, 3));
        let swiss = standings(&history, Points::default(), &Tiebreak::SWISS);
        assert_eq!((swiss[2].player, swiss[2].place), (1, 3));
        assert_eq!((swiss[3].player, swiss[3].place), (2, 4));
        assert_eq!(swiss[1].player, 3);
    }

    #[test]
    fn other_point_counts() {
        let football = Points {
            win: 3,
            draw: 1,
            loss: 0,
        };
        let table = standings(&four_player_history(), football, &Tiebreak::ROUND_ROBIN);
        let points: Vec<(usize, u32)> = table.iter().map(|s| (s.player + 1, s.points)).collect();
        assert_eq!(points, [(1, 7), (4, 4), (2, 3), (3, 3)]);
        // A draw now takes a third of a win's points: player 1 gets a third of player 4's
        // 4 points, and all of the 3 points of players 2 and 3.
        assert!((table[0].sonneborn_berger - (4.0 / 3.0 + 6.0)).abs() < 1e-12);
    }

    #[test]
    fn byes_count_as_wins_but_not_in_tie_breaks() {
        let mut history = History::new(3);
        history.add_game(1, 0, 1, GameScore::Draw);
        history.add_bye(1, 2);
        history.add_game(2, 2, 0, GameScore::BlackWins);
        history.add_bye(2, 1);
        let table = standings(&history, Points::default(), &Tiebreak::SWISS);
        let line = |player: usize| table.iter().find(|s| s.player == player).expect("line");
        assert_eq!(line(0).points, 3);
        assert_eq!(line(1).points, 3);
        assert_eq!(line(2).points, 2);
        assert_eq!((line(1).byes, line(1).wins, line(1).games), (1, 0, 1));
        assert_eq!(line(1).buchholz, 3);
        assert_eq!(line(0).buchholz, 3 + 2);
        assert_eq!(line(0).sonneborn_berger, 1.5 + 2.0);
        assert_eq!(table[0].player, 0);
    }

    #[test]
    fn crosstable_of_the_four_player_round_robin() {
        let history = four_player_history();
        let table = crosstable(&history, Points::default(), &Tiebreak::ROUND_ROBIN);
        let players: Vec<usize> = table.rows.iter().map(|r| r.standing.player).collect();
        assert_eq!(players, [0, 3, 1, 2]);
        // Row of player 1 (index 0): against 4 a draw, against 2 and 3 wins.
        assert_eq!(
            table.rows[0].cells,
            [
                None,
                Some(vec![Score::Draw]),
                Some(vec![Score::Win]),
                Some(vec![Score::Win])
            ]
        );
        // Row of player 3: lost to 1 and 4, beat 2.
        assert_eq!(
            table.rows[3].cells,
            [
                Some(vec![Score::Loss]),
                Some(vec![Score::Loss]),
                Some(vec![Score::Win]),
                None
            ]
        );
        let expected = "\
place   no | 1 4 2 3 | points
    1    1 | x 1 2 2 | 5
    2    4 | 1 x 0 2 | 3
    3    2 | 0 2 x 0 | 2
    4    3 | 0 0 2 x | 2
";
        assert_eq!(table.to_text(Points::default()), expected);
    }

    #[test]
    fn crosstable_with_games_to_come_and_double_games() {
        let mut history = History::new(3);
        history.add_game(2, 1, 0, GameScore::WhiteWins);
        history.add_game(1, 0, 1, GameScore::Draw);
        let table = crosstable(&history, Points::default(), &Tiebreak::ROUND_ROBIN);
        // Player 2 (index 1) has 3 points, player 1 has 1, player 3 nothing yet.
        let players: Vec<usize> = table.rows.iter().map(|r| r.standing.player).collect();
        assert_eq!(players, [1, 0, 2]);
        assert_eq!(table.rows[0].cells[1], Some(vec![Score::Draw, Score::Win]));
        assert_eq!(table.rows[1].cells[0], Some(vec![Score::Draw, Score::Loss]));
        assert_eq!(table.rows[2].cells[0], Some(vec![]));
        assert!(table.to_text(Points::default()).contains("1,2"));
        let json = serde_json::to_string(&table).expect("json");
        assert!(
            json.contains(r#""cells":[null,["draw","win"],[]]"#),
            "{json}"
        );
    }
}
