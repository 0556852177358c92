//! Swiss pairings: the next round from the games so far.
//!
//! The pairing is simple and deterministic (the same history always gives the same round).
//! It follows the ideas of the usual Swiss systems without all the detail of FIDE's Dutch
//! system:
//!
//! 1. **Ranking.** The players taking part are ranked by points, then by starting number.
//! 2. **Bye.** With an odd number of players, the lowest-ranked player who has not had a
//!    bye sits out and scores a win. Nobody has a second bye while another player has had
//!    none (once everyone has had one, the count starts again).
//! 3. **Score groups.** The highest-ranked unpaired player is paired first, preferably
//!    within their score group (the players with the same points), the top half of the
//!    group against the bottom half: in a group of four ranked A, B, C, D, A meets C and B
//!    meets D. Failing that, the next candidates are the players further down the group,
//!    then those above the ideal one, and only then the players of lower groups, best
//!    ranked first. A group with an odd number of players thus sends its lowest player
//!    down (a floater) to meet the top of the next group.
//! 4. **No pair twice.** Two players who have met are never paired again.
//! 5. **Colours.** Each player is due the colour that evens their Whites and Blacks, or,
//!    when they are even, the opposite of their last colour. A player who has had two
//!    more of one colour, or the same colour twice running, must get the other one; one
//!    with one more of a colour is due the other more strongly than one who is merely
//!    alternating. When both players are due the same colour the stronger claim wins,
//!    and between equal claims the higher-ranked player. In the first round (no colours
//!    yet) the higher-ranked player of the first game has White, of the second Black, and
//!    so on in turn.
//!
//! Steps 3 and 4 are a search that steps back when the players left cannot all be paired.
//! It is tried three times with less strict colour rules: first no player may end with
//! Whites and Blacks more than two apart or have one colour three times running; then
//! only the first rule holds; last, colours are free. The bye of step 2 goes to the next
//! player up (among those without a bye) only if the others cannot be paired at all with
//! the first choice.
//!
//! Rounds in which a player had both colours (the two games of a micro-match) leave that
//! player's colours as they were.
//!
//! ```
//! use bashni_club::tournament::{History, Pairing, Points, swiss};
//!
//! let round = swiss::pair(&History::new(5), Points::default(), &[]).unwrap();
//! assert_eq!(round.pairings, vec![Pairing::new(0, 2), Pairing::new(3, 1)]);
//! assert_eq!(round.bye, Some(4));
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{History, Pairing, Points, Round};

/// How many steps one pairing search may take before it gives up and the next, less strict
/// search is tried. Fields of a few dozen players pair in far fewer steps.
const SEARCH_BUDGET: usize = 200_000;

/// Why no round could be paired.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SwissError {
    /// Fewer than two players take part.
    TooFewPlayers,
    /// The players cannot all be paired without someone meeting an opponent again, or
    /// having a second bye while another player has had none: the tournament has run out
    /// of rounds.
    NoPairing,
}

impl fmt::Display for SwissError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SwissError::TooFewPlayers => "a Swiss round needs at least two players",
            SwissError::NoPairing => {
                "no pairing is left in which nobody meets the same opponent twice"
            }
        })
    }
}

impl std::error::Error for SwissError {}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Colour {
    White,
    Black,
}

impl Colour {
    fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// How strictly the colour rules hold in one search.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Strictness {
    /// Whites and Blacks at most two apart, never three of a colour running.
    Strict,
    /// Whites and Blacks at most two apart.
    Balance,
    /// Any colours.
    Free,
}

/// What the pairing needs to know about one player.
#[derive(Clone, Debug, Default)]
struct Player {
    points: u32,
    /// Whites minus Blacks.
    balance: i32,
    /// The colours of the rounds with one colour, oldest first.
    colours: Vec<Colour>,
    byes: u32,
}

impl Player {
    /// The colour this player is due and how strongly: 3 must have it, 2 has one more of the
    /// other colour, 1 alternates, 0 has no colour yet.
    fn due(&self) -> (Option<Colour>, u8) {
        let last = self.colours.last().copied();
        let twice = match self.colours.as_slice() {
            [.., a, b] if a == b => Some(*a),
            _ => None,
        };
        if self.balance >= 2 || twice == Some(Colour::White) {
            (Some(Colour::Black), 3)
        } else if self.balance <= -2 || twice == Some(Colour::Black) {
            (Some(Colour::White), 3)
        } else if self.balance == 1 {
            (Some(Colour::Black), 2)
        } else if self.balance == -1 {
            (Some(Colour::White), 2)
        } else {
            (last.map(Colour::other), u8::from(last.is_some()))
        }
    }

    /// Whether getting `colour` keeps this player within the colour rules of `strictness`.
    fn may_get(&self, colour: Colour, strictness: Strictness) -> bool {
        let balance = self.balance
            + match colour {
                Colour::White => 1,
                Colour::Black => -1,
            };
        let third = matches!(self.colours.as_slice(), [.., a, b] if *a == colour && *b == colour);
        match strictness {
            Strictness::Strict => balance.abs() <= 2 && !third,
            Strictness::Balance => balance.abs() <= 2,
            Strictness::Free => true,
        }
    }
}

/// The pairing search of one round.
struct Search<'a> {
    players: &'a [Player],
    met: &'a [Vec<bool>],
    strictness: Strictness,
    steps: usize,
}

impl Search<'_> {
    /// Pairs all of `unpaired` (ranked, best first) into `games`; false if it cannot (or the
    /// budget ran out).
    fn pair(&mut self, unpaired: &mut Vec<usize>, games: &mut Vec<Pairing>) -> bool {
        let Some(&top) = unpaired.first() else {
            return true;
        };
        for candidate in self.candidates(top, &unpaired[1..]) {
            self.steps += 1;
            if self.steps > SEARCH_BUDGET {
                return false;
            }
            if self.met[top][candidate] {
                continue;
            }
            let Some(game) = self.colours(top, candidate, games.len()) else {
                continue;
            };
            let saved = unpaired.clone();
            unpaired.retain(|&p| p != top && p != candidate);
            games.push(game);
            if self.pair(unpaired, games) {
                return true;
            }
            games.pop();
            *unpaired = saved;
        }
        false
    }

    /// The possible opponents of `top` among `rest` (ranked), best first (see the module
    /// notes, step 3).
    fn candidates(&self, top: usize, rest: &[usize]) -> Vec<usize> {
        let points = self.players[top].points;
        let group: Vec<usize> = rest
            .iter()
            .copied()
            .take_while(|&p| self.players[p].points == points)
            .collect();
        let mut order = Vec::with_capacity(rest.len());
        if !group.is_empty() {
            // In a group of g players (top included) the ideal opponent is the first of the
            // bottom half: index g / 2 counting top as 0, so g / 2 - 1 among the others.
            let ideal = (group.len() + 1).div_euclid(2) - 1;
            order.extend_from_slice(&group[ideal..]);
            order.extend(group[..ideal].iter().rev());
        }
        order.extend_from_slice(&rest[group.len()..]);
        order
    }

    /// The colours of a game between `higher` (ranked higher) and `lower`, as game number
    /// `board` of the round, if the colour rules allow one.
    fn colours(&self, higher: usize, lower: usize, board: usize) -> Option<Pairing> {
        let (a, b) = (&self.players[higher], &self.players[lower]);
        let (due_a, strength_a) = a.due();
        let (due_b, strength_b) = b.due();
        let higher_colour = match (due_a, due_b) {
            (None, None) => {
                if board.is_multiple_of(2) {
                    Colour::White
                } else {
                    Colour::Black
                }
            }
            (Some(colour), None) => colour,
            (None, Some(colour)) => colour.other(),
            (Some(x), Some(y)) if x != y => x,
            (Some(x), Some(_)) => {
                if strength_b > strength_a {
                    x.other()
                } else {
                    x
                }
            }
        };
        let pairing = |colour: Colour| match colour {
            Colour::White => Pairing::new(higher, lower),
            Colour::Black => Pairing::new(lower, higher),
        };
        [higher_colour, higher_colour.other()]
            .into_iter()
            .find(|&colour| {
                a.may_get(colour, self.strictness) && b.may_get(colour.other(), self.strictness)
            })
            .map(pairing)
    }
}

/// The players' records from `history`, for players `0..history.players`.
fn records(history: &History, points: Points) -> (Vec<Player>, Vec<Vec<bool>>) {
    let n = history.players;
    let totals = history.points(points);
    let mut players: Vec<Player> = totals
        .into_iter()
        .map(|points| Player {
            points,
            ..Player::default()
        })
        .collect();
    let mut met = vec![vec![false; n]; n];
    // Each player's colours per round: (round, whites, blacks).
    let mut per_round: Vec<Vec<(u32, u32, u32)>> = vec![Vec::new(); n];
    for game in &history.games {
        let (white, black) = (game.pairing.white, game.pairing.black);
        if white >= n || black >= n || white == black {
            continue;
        }
        met[white][black] = true;
        met[black][white] = true;
        players[white].balance += 1;
        players[black].balance -= 1;
        for (player, is_white) in [(white, true), (black, false)] {
            let rounds = &mut per_round[player];
            let entry = match rounds.iter().position(|r| r.0 == game.round) {
                Some(i) => &mut rounds[i],
                None => {
                    rounds.push((game.round, 0, 0));
                    rounds.last_mut().expect("just pushed")
                }
            };
            if is_white {
                entry.1 += 1;
            } else {
                entry.2 += 1;
            }
        }
    }
    for (player, mut rounds) in players.iter_mut().zip(per_round) {
        rounds.sort_unstable();
        player.colours = rounds
            .into_iter()
            .filter_map(|(_, whites, blacks)| match (whites > 0, blacks > 0) {
                (true, false) => Some(Colour::White),
                (false, true) => Some(Colour::Black),
                _ => None,
            })
            .collect();
    }
    for bye in &history.byes {
        if let Some(player) = players.get_mut(bye.player) {
            player.byes += 1;
        }
    }
    (players, met)
}

/// The next round of a Swiss tournament (see the module notes) from `history`, scored with
/// `points`. Players listed in `absent` (withdrawn, or sitting this round out) get neither a
/// game nor a bye.
pub fn pair(history: &History, points: Points, absent: &[usize]) -> Result<Round, SwissError> {
    let (players, met) = records(history, points);
    let mut ranked: Vec<usize> = (0..history.players)
        .filter(|p| !absent.contains(p))
        .collect();
    if ranked.len() < 2 {
        return Err(SwissError::TooFewPlayers);
    }
    ranked.sort_by(|&a, &b| players[b].points.cmp(&players[a].points).then(a.cmp(&b)));
    let byes: Vec<Option<usize>> = if ranked.len() % 2 == 1 {
        // Only players with the fewest byes so far, lowest-ranked first.
        let fewest = ranked.iter().map(|&p| players[p].byes).min().unwrap_or(0);
        ranked
            .iter()
            .rev()
            .filter(|&&p| players[p].byes == fewest)
            .map(|&p| Some(p))
            .collect()
    } else {
        vec![None]
    };
    for bye in byes {
        let field: Vec<usize> = ranked.iter().copied().filter(|&p| Some(p) != bye).collect();
        for strictness in [Strictness::Strict, Strictness::Balance, Strictness::Free] {
            let mut search = Search {
                players: &players,
                met: &met,
                strictness,
                steps: 0,
            };
            let mut unpaired = field.clone();
            let mut games = Vec::with_capacity(field.len() / 2);
            if search.pair(&mut unpaired, &mut games) {
                return Ok(Round {
                    pairings: games,
                    bye,
                });
            }
        }
    }
    Err(SwissError::NoPairing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameScore;
    use crate::rng::Rng;

    fn play(history: &mut History, round: &Round, number: u32, rng: &mut Rng) {
        for pairing in &round.pairings {
            let score = match rng.below(10) {
                0..=3 => GameScore::WhiteWins,
                4..=6 => GameScore::Draw,
                _ => GameScore::BlackWins,
            };
            history.add_game(number, pairing.white, pairing.black, score);
        }
        if let Some(bye) = round.bye {
            history.add_bye(number, bye);
        }
    }

    #[test]
    fn first_round_top_half_against_bottom_half() {
        let round = pair(&History::new(8), Points::default(), &[]).expect("round 1");
        assert_eq!(
            round.pairings,
            [
                Pairing::new(0, 4),
                Pairing::new(5, 1),
                Pairing::new(2, 6),
                Pairing::new(7, 3)
            ]
        );
        assert_eq!(round.bye, None);
    }

    #[test]
    fn second_round_by_score_groups_and_colours() {
        let mut history = History::new(8);
        history.add_game(1, 0, 4, GameScore::WhiteWins);
        history.add_game(1, 5, 1, GameScore::BlackWins);
        history.add_game(1, 2, 6, GameScore::WhiteWins);
        history.add_game(1, 7, 3, GameScore::BlackWins);
        let round = pair(&history, Points::default(), &[]).expect("round 2");
        // Winners 0-3 and losers 4-7 each paired top half against bottom half; the higher
        // ranked player gets the colour both are due.
        assert_eq!(
            round.pairings,
            [
                Pairing::new(2, 0),
                Pairing::new(1, 3),
                Pairing::new(4, 6),
                Pairing::new(7, 5)
            ]
        );
    }

    #[test]
    fn odd_groups_float_their_lowest_player_down() {
        let mut history = History::new(6);
        // 0, 1, 2 won; 3, 4, 5 lost.
        history.add_game(1, 0, 3, GameScore::WhiteWins);
        history.add_game(1, 4, 1, GameScore::BlackWins);
        history.add_game(1, 2, 5, GameScore::WhiteWins);
        let mut round = pair(&history, Points::default(), &[]).expect("round 2");
        let mut pairs: Vec<(usize, usize)> = round
            .pairings
            .drain(..)
            .map(|p| (p.white.min(p.black), p.white.max(p.black)))
            .collect();
        pairs.sort_unstable();
        // 0-1 in the top group, 2 floats down to meet 3 (the best of the losers), 4-5.
        assert_eq!(pairs, [(0, 1), (2, 3), (4, 5)]);
    }

    #[test]
    fn byes_go_to_the_lowest_player_without_one() {
        let mut history = History::new(5);
        let first = pair(&history, Points::default(), &[]).expect("round 1");
        assert_eq!(first.bye, Some(4));
        history.add_game(1, 0, 2, GameScore::WhiteWins);
        history.add_game(1, 3, 1, GameScore::WhiteWins);
        history.add_bye(1, 4);
        // Standings: 0, 3, 4 on 2 points; 1, 2 on 0. Lowest without a bye: 2.
        let second = pair(&history, Points::default(), &[]).expect("round 2");
        assert_eq!(second.bye, Some(2));
        // An absent player gets neither game nor bye.
        let without = pair(&history, Points::default(), &[2]).expect("round 2");
        assert_eq!(without.bye, None);
        assert!(without.pairings.iter().all(|p| !p.has(2)));
    }

    #[test]
    fn colour_rules_bend_only_when_they_must() {
        // Players 0 and 1 had White twice, 2 and 3 Black twice; only 0-1 and 2-3 are left,
        // so two players must have a colour a third time: the higher ranked of each game
        // gets the colour both are due.
        let mut history = History::new(4);
        history.add_game(1, 0, 2, GameScore::Draw);
        history.add_game(1, 1, 3, GameScore::Draw);
        history.add_game(2, 0, 3, GameScore::Draw);
        history.add_game(2, 1, 2, GameScore::Draw);
        let round = pair(&history, Points::default(), &[]).expect("round 3");
        assert_eq!(round.pairings, [Pairing::new(1, 0), Pairing::new(2, 3)]);
        // Six players on equal points. 0 and 3 had White twice, 1 and 5 Black twice. The
        // score group's first choice for 0 is 3, which would give one of them a third White;
        // the next, 4, leaves 1, 2, 3, 5 unpairable (2-5 and 3-5 have met, 1-5 would be a
        // third Black); so 0 meets 5.
        let mut history = History::new(6);
        history.add_game(1, 0, 1, GameScore::Draw);
        history.add_game(1, 3, 4, GameScore::Draw);
        history.add_game(1, 2, 5, GameScore::Draw);
        history.add_game(2, 0, 2, GameScore::Draw);
        history.add_game(2, 3, 5, GameScore::Draw);
        history.add_game(2, 4, 1, GameScore::Draw);
        let round = pair(&history, Points::default(), &[]).expect("round 3");
        assert_eq!(
            round.pairings,
            [Pairing::new(5, 0), Pairing::new(1, 3), Pairing::new(2, 4)]
        );
    }

    #[test]
    fn the_field_runs_out_of_rounds() {
        let mut history = History::new(4);
        let mut rng = Rng::new(3);
        for number in 1..=3 {
            let round = pair(&history, Points::default(), &[]).expect("three rounds fit");
            play(&mut history, &round, number, &mut rng);
        }
        assert_eq!(
            pair(&history, Points::default(), &[]),
            Err(SwissError::NoPairing)
        );
        assert_eq!(
            pair(&History::new(1), Points::default(), &[]),
            Err(SwissError::TooFewPlayers)
        );
        assert_eq!(
            pair(&History::new(3), Points::default(), &[0, 1]),
            Err(SwissError::TooFewPlayers)
        );
    }

    #[test]
    fn the_same_history_gives_the_same_round() {
        let mut history = History::new(9);
        let mut rng = Rng::new(11);
        for number in 1..=4 {
            let round = pair(&history, Points::default(), &[]).expect("round");
            assert_eq!(pair(&history, Points::default(), &[]), Ok(round.clone()));
            play(&mut history, &round, number, &mut rng);
        }
    }

    /// Plays `rounds` Swiss rounds of `players` players with seeded random results and
    /// checks the rules: everyone plays or has the bye in every round, no pair meets twice,
    /// nobody has two byes, and every player's Whites and Blacks stay within two of each
    /// other.
    fn random_tournament(players: usize, rounds: u32, seed: u64) -> History {
        let mut rng = Rng::new(seed);
        let mut history = History::new(players);
        for number in 1..=rounds {
            let round = pair(&history, Points::default(), &[])
                .unwrap_or_else(|e| panic!("{players} players, seed {seed}, round {number}: {e}"));
            let mut seen = vec![0; players];
            for pairing in &round.pairings {
                seen[pairing.white] += 1;
                seen[pairing.black] += 1;
            }
            if let Some(bye) = round.bye {
                seen[bye] += 1;
            }
            assert!(seen.iter().all(|&n| n == 1), "{players}/{seed}: {round:?}");
            assert_eq!(round.bye.is_some(), players % 2 == 1);
            play(&mut history, &round, number, &mut rng);
        }
        let (records, _) = records(&history, Points::default());
        let mut met = std::collections::HashSet::new();
        for game in &history.games {
            let key = (
                game.pairing.white.min(game.pairing.black),
                game.pairing.white.max(game.pairing.black),
            );
            assert!(met.insert(key), "{players}/{seed}: {key:?} met twice");
        }
        for (player, record) in records.iter().enumerate() {
            assert!(record.byes <= 1, "{players}/{seed}: {player} had two byes");
            assert!(
                record.balance.abs() <= 2,
                "{players}/{seed}: {player} colours {:?}",
                record.colours
            );
        }
        history
    }

    /// Random tournaments of 4 to 12 players over half as many rounds as players (at least
    /// three), forty seeds each.
    #[test]
    fn random_tournaments_keep_the_rules() {
        for players in 4..=12usize {
            let rounds = players.div_ceil(2).max(3) as u32;
            for seed in 0..40 {
                random_tournament(players, rounds, seed * 100 + players as u64);
            }
        }
    }

    /// How many rounds a seeded random tournament of `players` lasts before no pairing is
    /// left (at most `limit`).
    fn rounds_until_stuck(players: usize, seed: u64, limit: u32) -> u32 {
        let mut rng = Rng::new(seed);
        let mut history = History::new(players);
        for number in 1..=limit {
            match pair(&history, Points::default(), &[]) {
                Ok(round) => play(&mut history, &round, number, &mut rng),
                Err(_) => return number - 1,
            }
        }
        limit
    }

    /// Longer runs: small fields play until no pairing is left. A field can always be
    /// paired for half as many rounds as it has players (rounded up): before that every
    /// player still has more unmet opponents than half the field. A Swiss tournament cannot
    /// last longer than a round robin. A large field plays nine rounds.
    #[test]
    fn long_and_large_tournaments() {
        for players in [5usize, 6, 7, 8, 9, 10, 16] {
            let most = (players + players % 2 - 1) as u32;
            for seed in 0..5 {
                let rounds = rounds_until_stuck(players, seed, most + 1);
                assert!(
                    rounds >= players.div_ceil(2) as u32 && rounds <= most,
                    "{players} players, seed {seed}: {rounds} rounds"
                );
                random_tournament(players, rounds, seed);
            }
        }
        let history = random_tournament(101, 9, 4);
        assert_eq!(history.games.len(), 9 * 50);
        assert_eq!(history.byes.len(), 9);
    }

    #[test]
    fn micro_match_rounds_leave_colours_as_they_were() {
        let mut history = History::new(4);
        history.add_game(1, 0, 2, GameScore::WhiteWins);
        history.add_game(2, 0, 1, GameScore::Draw);
        history.add_game(2, 1, 0, GameScore::Draw);
        let (players, met) = records(&history, Points::default());
        assert_eq!(players[0].colours, [Colour::White]);
        assert_eq!(players[0].balance, 1);
        assert_eq!(players[1].colours, []);
        assert!(met[0][1] && met[1][0] && met[0][2] && !met[1][2]);
        assert_eq!(players[0].due(), (Some(Colour::Black), 2));
        assert_eq!(players[3].due(), (None, 0));
    }
}
