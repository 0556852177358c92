//! Round robins by the Berger tables.
//!
//! The Bashni rulebook (1.7) lets the table of play order give each game's colours in a
//! tournament. The table used in draughts and chess alike is Berger's: for an even number
//! `n` of players it has `n - 1` rounds; for an odd number the table of `n + 1` is used and
//! whoever meets the missing last number sits out.
//!
//! How the table is built (numbers from 1, as printed): the last player `n` stays put; the
//! others move round a circle. Round 1 pairs 1 with `n` and then 2 with `n - 1`, 3 with
//! `n - 2` and so on, the smaller number with White. Each later round adds `n / 2` to every
//! number but `n`, counting round from `n - 1` back to 1, and keeps each game's place and
//! the colours of the two places; only player `n` changes colour every round, Black in odd
//! rounds and White in even ones. For four players this gives the familiar printed table:
//! round 1 is 1-4 and 2-3, round 2 is 4-3 and 1-2, round 3 is 2-4 and 3-1.
//!
//! Each player's Whites and Blacks differ by at most one, and in a table for an odd number
//! of players everyone has as many Whites as Blacks.
//!
//! The functions here number players from 0: player `i` is number `i + 1` of the table.
//!
//! ```
//! use bashni_club::tournament::{Pairing, round_robin};
//!
//! let rounds = round_robin::rounds(3);
//! assert_eq!(rounds.len(), 3);
//! // The table for four, with number 4 (index 3) sitting out: 2-3 plays, 1 has the bye.
//! assert_eq!(rounds[0].pairings, vec![Pairing::new(1, 2)]);
//! assert_eq!(rounds[0].bye, Some(0));
//! ```

use super::{Pairing, Round};

/// The rounds of a single round robin of `players` players, in order (none for fewer than
/// two players).
pub fn rounds(players: usize) -> Vec<Round> {
    if players < 2 {
        return Vec::new();
    }
    let size = players + players % 2;
    (0..size - 1)
        .map(|round| table_round(size, round, players))
        .collect()
}

/// A double round robin: the rounds of [`rounds`], then all of them again with colours
/// swapped, so that every two players meet once with each colour.
pub fn double_rounds(players: usize) -> Vec<Round> {
    let first = rounds(players);
    let second: Vec<Round> = first
        .iter()
        .map(|round| Round {
            pairings: round.pairings.iter().map(|p| p.reversed()).collect(),
            bye: round.bye,
        })
        .collect();
    first.into_iter().chain(second).collect()
}

/// Round `round` (from 0) of the Berger table of `size` (even) players, with the players from
/// `players` on absent (a bye for their opponents).
fn table_round(size: usize, round: usize, players: usize) -> Round {
    let fixed = size - 1;
    let circle = size - 1;
    let step = round * size / 2;
    let moved = |number: usize| (number + step) % circle;
    let mut games = Vec::with_capacity(size / 2);
    // The first game: player 0 (moved round the circle) against the fixed last player, who
    // has Black in odd rounds (counted from 1) and White in even ones.
    let first = Pairing::new(moved(0), fixed);
    games.push(if round.is_multiple_of(2) {
        first
    } else {
        first.reversed()
    });
    for place in 1..size / 2 {
        games.push(Pairing::new(moved(place), moved(size - 1 - place)));
    }
    let mut result = Round::default();
    for game in games {
        if game.white >= players {
            result.bye = Some(game.black);
        } else if game.black >= players {
            result.bye = Some(game.white);
        } else {
            result.pairings.push(game);
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table as printed, numbers from 1, `white-black`.
    fn printed(rounds: &[Round]) -> Vec<String> {
        rounds
            .iter()
            .map(|round| {
                round
                    .pairings
                    .iter()
                    .map(|p| format!("{}-{}", p.white + 1, p.black + 1))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    #[test]
    fn the_printed_tables() {
        // The Berger tables for four, six and eight players as they are printed in the
        // competition rules of chess and draughts federations.
        assert_eq!(printed(&rounds(4)), ["1-4 2-3", "4-3 1-2", "2-4 3-1"]);
        assert_eq!(
            printed(&rounds(6)),
            [
                "1-6 2-5 3-4",
                "6-4 5-3 1-2",
                "2-6 3-1 4-5",
                "6-5 1-4 2-3",
                "3-6 4-2 5-1"
            ]
        );
        assert_eq!(
            printed(&rounds(8)),
            [
                "1-8 2-7 3-6 4-5",
                "8-5 6-4 7-3 1-2",
                "2-8 3-1 4-7 5-6",
                "8-6 7-5 1-4 2-3",
                "3-8 4-2 5-1 6-7",
                "8-7 1-6 2-5 3-4",
                "4-8 5-3 6-2 7-1"
            ]
        );
        assert_eq!(printed(&rounds(2)), ["1-2"]);
        assert!(rounds(1).is_empty() && rounds(0).is_empty());
    }

    #[test]
    fn odd_fields_use_the_next_table_with_a_bye() {
        let five = rounds(5);
        assert_eq!(
            printed(&five),
            ["2-5 3-4", "5-3 1-2", "3-1 4-5", "1-4 2-3", "4-2 5-1"]
        );
        let byes: Vec<Option<usize>> = five.iter().map(|r| r.bye).collect();
        assert_eq!(byes, [Some(0), Some(3), Some(1), Some(4), Some(2)]);
    }

    #[test]
    fn everyone_meets_everyone_once_with_balanced_colours() {
        for players in 2..=24 {
            let table = rounds(players);
            let size = players + players % 2;
            assert_eq!(table.len(), size - 1, "{players} players");
            let mut met = vec![vec![0u32; players]; players];
            let mut whites = vec![0i32; players];
            let mut blacks = vec![0i32; players];
            let mut byes = vec![0u32; players];
            for round in &table {
                let mut busy = vec![false; players];
                for p in &round.pairings {
                    assert_ne!(p.white, p.black);
                    for player in [p.white, p.black] {
                        assert!(
                            !busy[player],
                            "{players} players: {player} twice in a round"
                        );
                        busy[player] = true;
                    }
                    met[p.white][p.black] += 1;
                    met[p.black][p.white] += 1;
                    whites[p.white] += 1;
                    blacks[p.black] += 1;
                }
                if let Some(bye) = round.bye {
                    assert!(!busy[bye]);
                    busy[bye] = true;
                    byes[bye] += 1;
                }
                assert!(
                    busy.iter().all(|&b| b),
                    "{players} players: someone left out"
                );
            }
            for a in 0..players {
                for (b, &count) in met[a].iter().enumerate() {
                    assert_eq!(count, u32::from(a != b), "{players} players: {a} and {b}");
                }
                assert!((whites[a] - blacks[a]).abs() <= 1, "{players} players: {a}");
                if players % 2 == 1 {
                    assert_eq!(whites[a], blacks[a], "{players} players: {a}");
                    assert_eq!(byes[a], 1);
                }
            }
        }
    }

    #[test]
    fn double_round_robin_swaps_colours() {
        let table = double_rounds(4);
        assert_eq!(table.len(), 6);
        assert_eq!(printed(&table[3..]), ["4-1 3-2", "3-4 2-1", "4-2 1-3"]);
        let mut games = std::collections::HashSet::new();
        for round in &double_rounds(7) {
            for &pairing in &round.pairings {
                assert!(games.insert(pairing), "{pairing:?} twice");
            }
        }
        assert_eq!(games.len(), 7 * 6);
    }
}
