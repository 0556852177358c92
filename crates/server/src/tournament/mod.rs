//! Tournaments on the server: made, joined and left while open, started by their creator,
//! then played round by round. Who plays whom and the standings come from the club crate
//! ([`bashni_club::tournament`]); this module keeps the rounds going and turns the stored
//! tournament into answers. The HTTP side is [`crate::http::tournaments`].
//!
//! * **Numbers.** At the start the players are numbered from 1 in the order they joined
//!   (the club crate counts from 0). A round robin pairs them by the Berger tables of
//!   [`round_robin::rounds`]; a Swiss tournament pairs each round with [`swiss::pair`].
//! * **Micro-matches** (Russian draughts only): each pairing plays two games on the opening
//!   the ballot gives the round ([`micro::draw`] with the tournament's seed), each player
//!   White once.
//! * **Games** are ordinary games between the players' accounts (mode friend, both seats
//!   taken, the tournament's clock), stored in the same transaction as their round. They
//!   carry the PDN tags Event, Round and [`TOURNAMENT_TAG`]; they cannot be aborted.
//! * **The next round** is paired when the last game of a round ends: a server that stores
//!   or hears of the end of a tournament game looks at its tournament (see [`game_over`]),
//!   and every server looks at all running tournaments at start and every
//!   [`CHECK_EVERY`], so that nothing stalls when a server died in between. The step is
//!   stored against the tournament's version, so it is made once however many servers try.
//!   Tournament games are casual: they change no rating.

use std::sync::Arc;
use std::time::Duration;

use crate::texts::text;
use bashni_club::GameScore;
use bashni_club::tournament::{
    History, Pairing, Points, Tiebreak, micro, round_robin, standings, swiss,
};
use bashni_rules::{Color, Position, TimeControl, Variant};

use crate::app::events::Happening;
use crate::app::{ActionError, App};
use crate::game::round::{Round, Seated};
use crate::game::secret::{new_game_id, random_hex};
use crate::store::{Advance, BoardRow, TournamentData, TournamentRow};

pub use crate::game::round::TOURNAMENT_TAG;

/// How often every server looks at the running tournaments.
pub const CHECK_EVERY: Duration = Duration::from_secs(30);

/// The points of a win, a draw and a loss (and of a bye, as a win).
pub const POINTS: Points = Points::DRAUGHTS;

/// The fewest players a round robin starts with.
pub const MIN_ROUND_ROBIN: usize = 3;
/// The fewest players a Swiss tournament starts with.
pub const MIN_SWISS: usize = 2;
/// The most players a tournament takes.
pub const MAX_PLAYERS: usize = 64;
/// The most rounds of a Swiss tournament.
pub const MAX_SWISS_ROUNDS: i64 = 20;

/// How a tournament pairs its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum System {
    /// Everybody meets everybody once, by the Berger tables.
    RoundRobin,
    /// A set number of rounds, each paired by points.
    Swiss,
}

impl System {
    /// The stored name: `round_robin` or `swiss`.
    pub fn name(self) -> &'static str {
        match self {
            System::RoundRobin => "round_robin",
            System::Swiss => "swiss",
        }
    }

    /// Reads a stored or requested name.
    pub fn parse(name: &str) -> Option<System> {
        match name {
            "round_robin" => Some(System::RoundRobin),
            "swiss" => Some(System::Swiss),
            _ => None,
        }
    }

    /// The tie-breaks of its standings: Sonneborn-Berger for a round robin, Buchholz for a
    /// Swiss tournament.
    pub fn tiebreaks(self) -> &'static [Tiebreak] {
        match self {
            System::RoundRobin => &Tiebreak::ROUND_ROBIN,
            System::Swiss => &Tiebreak::SWISS,
        }
    }
}

/// The score of a stored result, once a game has one.
pub fn score_of(result: Option<&str>) -> Option<GameScore> {
    match result? {
        "1-0" => Some(GameScore::WhiteWins),
        "0-1" => Some(GameScore::BlackWins),
        "1/2-1/2" => Some(GameScore::Draw),
        _ => None,
    }
}

/// The stored tournament's system (a round robin if the stored name is unknown).
pub fn system_of(tournament: &TournamentRow) -> System {
    System::parse(&tournament.system).unwrap_or(System::RoundRobin)
}

/// What has been played: the finished games and the byes, by player number from 0.
pub fn history(data: &TournamentData) -> History {
    let mut history = History::new(data.entrants.len());
    for board in &data.boards {
        let (Ok(round), Ok(white)) = (u32::try_from(board.round), usize::try_from(board.white))
        else {
            continue;
        };
        match board.black.and_then(|b| usize::try_from(b).ok()) {
            None => history.add_bye(round, white),
            Some(black) => {
                if let Some(score) = score_of(board.result.as_deref()) {
                    history.add_game(round, white, black, score);
                }
            }
        }
    }
    history
}

/// Whether every game of round `round` has ended.
fn round_done(data: &TournamentData, round: i64) -> bool {
    data.boards
        .iter()
        .filter(|board| board.round == round && board.black.is_some())
        .all(|board| score_of(board.result.as_deref()).is_some())
}

/// The pairings of round `round` (from 1), or `None` when no round is left.
fn pair_round(
    system: System,
    players: usize,
    history: &History,
    round: i64,
) -> Option<bashni_club::tournament::Round> {
    match system {
        System::RoundRobin => {
            let index = usize::try_from(round - 1).ok()?;
            round_robin::rounds(players).into_iter().nth(index)
        }
        System::Swiss => match swiss::pair(history, POINTS, &[]) {
            Ok(paired) => Some(paired),
            Err(error) => {
                tracing::info!("a Swiss tournament ends early: {error}");
                None
            }
        },
    }
}

/// The number of rounds a tournament of `players` plays under `system` (`asked` for Swiss).
pub fn rounds_for(system: System, players: usize, asked: i64) -> i64 {
    match system {
        System::RoundRobin => round_robin::rounds(players).len() as i64,
        System::Swiss => asked,
    }
}

/// The boards and games of round `round` of `tournament`, from `paired`.
fn round_games(
    tournament: &TournamentRow,
    names: &[(i64, String)],
    round: i64,
    paired: &bashni_club::tournament::Round,
) -> Result<(Vec<BoardRow>, Vec<Round>), ActionError> {
    let variant = Variant::parse(&tournament.variant).unwrap_or(Variant::Bashni);
    let micro = tournament.micro && variant == Variant::Russian;
    // Each round has its own opening from the ballot; the seed makes the draw the same
    // on every server.
    let opening = micro
        .then(|| {
            let count = usize::try_from(tournament.rounds.max(round)).unwrap_or(1);
            micro::draw(tournament.seed as u64, count)
                .get(usize::try_from(round - 1).unwrap_or(0))
                .copied()
        })
        .flatten();
    let start = match opening {
        Some(index) => micro::opening_position(index).unwrap_or(Position::start(variant)),
        None => Position::start(variant),
    };
    let mut boards = Vec::new();
    let mut games = Vec::new();
    for (index, pairing) in paired.pairings.iter().enumerate() {
        let board = index as i64 + 1;
        let legs: Vec<Pairing> = if micro {
            micro::MicroMatch::new(*pairing, opening.unwrap_or(0))
                .games()
                .to_vec()
        } else {
            vec![*pairing]
        };
        for (leg, pairing) in legs.into_iter().enumerate() {
            let leg = leg as i64 + 1;
            let round_text = if micro {
                format!("{round}.{board}.{leg}")
            } else {
                format!("{round}.{board}")
            };
            let game = tournament_game(tournament, names, pairing, start, &round_text)?;
            boards.push(BoardRow {
                round,
                board,
                leg,
                white: pairing.white as i64,
                black: Some(pairing.black as i64),
                game_id: Some(game.id.clone()),
                result: None,
            });
            games.push(game);
        }
    }
    if let Some(bye) = paired.bye {
        boards.push(BoardRow {
            round,
            board: paired.pairings.len() as i64 + 1,
            leg: 1,
            white: bye as i64,
            black: None,
            game_id: None,
            result: None,
        });
    }
    Ok((boards, games))
}

/// A game of the tournament between the players of `pairing`: both seats held by their
/// accounts, the tournament's clock, tagged with the tournament and the round.
fn tournament_game(
    tournament: &TournamentRow,
    names: &[(i64, String)],
    pairing: Pairing,
    start: Position,
    round_text: &str,
) -> Result<Round, ActionError> {
    let control = match (tournament.base_ms, tournament.increment_ms) {
        (Some(base), increment) => Some(TimeControl {
            base: crate::game::round::duration_of_ms(base),
            increment: crate::game::round::duration_of_ms(increment.unwrap_or(0)),
        }),
        _ => None,
    };
    let seat = |number: usize| {
        names
            .get(number)
            .cloned()
            .ok_or_else(|| ActionError::Invalid(format!("no player number {}", number + 1)))
    };
    let (white_id, white_name) = seat(pairing.white)?;
    let (black_id, black_name) = seat(pairing.black)?;
    let player = |id: i64, name: &str| -> Result<Seated, ActionError> {
        Ok(Seated {
            name: String::new(),
            token: random_hex(16)?,
            account: Some((id, name.to_string())),
            address: None,
        })
    };
    let players = [
        player(white_id, &white_name)?,
        player(black_id, &black_name)?,
    ];
    let mut round = Round::between(new_game_id()?, start, control, players, Color::White)?;
    let mut tags = vec![
        ("Event".to_string(), tournament.name.clone()),
        ("Site".to_string(), "bashni serve".to_string()),
        (
            "Date".to_string(),
            bashni_pdn::date_tag_of_ms(round.created_ms),
        ),
        ("Round".to_string(), round_text.to_string()),
        ("White".to_string(), white_name),
        ("Black".to_string(), black_name),
    ];
    if let Some(control) = control {
        tags.push(("TimeControl".to_string(), control.pdn_tag()));
    }
    tags.push((TOURNAMENT_TAG.to_string(), tournament.id.clone()));
    round.tags = tags;
    Ok(round)
}

/// The players' accounts and names by number (from 0), in joining order.
fn numbered(data: &TournamentData) -> Vec<(i64, String)> {
    let mut entrants = data.entrants.clone();
    // At the start the numbers are given in joining order; later they are the stored ones.
    entrants.sort_by_key(|e| (e.number.unwrap_or(i64::MAX), e.joined_ms, e.player_id));
    entrants
        .into_iter()
        .map(|e| (e.player_id, e.name))
        .collect()
}

/// The first round of open tournament `data`: its players numbered and round 1 paired.
pub fn first_step(data: &TournamentData) -> Result<Advance, ActionError> {
    let tournament = &data.tournament;
    let system = system_of(tournament);
    let players = data.entrants.len();
    let least = match system {
        System::RoundRobin => MIN_ROUND_ROBIN,
        System::Swiss => MIN_SWISS,
    };
    if players < least {
        return Err(ActionError::Round(
            crate::game::round::RoundError::Conflict(text!(
                "tournament-too-few-players",
                system = match system {
                    System::RoundRobin => "round_robin",
                    System::Swiss => "swiss",
                },
                least = least,
                players = players
            )),
        ));
    }
    let names = numbered(data);
    let mut started = tournament.clone();
    started.rounds = rounds_for(system, players, tournament.rounds);
    let history = History::new(players);
    let paired = pair_round(system, players, &history, 1).ok_or_else(|| {
        ActionError::Round(crate::game::round::RoundError::Conflict(text!(
            "tournament-no-pairing"
        )))
    })?;
    let (boards, games) = round_games(&started, &names, 1, &paired)?;
    Ok(Advance {
        was: tournament.version,
        status: "running".into(),
        current_round: 1,
        rounds: started.rounds,
        numbers: names
            .iter()
            .enumerate()
            .map(|(number, (id, _))| (*id, number as i64))
            .collect(),
        boards,
        games,
    })
}

/// The step after the current round of running tournament `data`, when all its games have
/// ended: the next round, or the end. `None` while games go on.
pub fn next_step(data: &TournamentData) -> Result<Option<Advance>, ActionError> {
    let tournament = &data.tournament;
    if tournament.status != "running" || !round_done(data, tournament.current_round) {
        return Ok(None);
    }
    let system = system_of(tournament);
    let next = tournament.current_round + 1;
    let paired = if next > tournament.rounds {
        None
    } else {
        pair_round(system, data.entrants.len(), &history(data), next)
    };
    let Some(paired) = paired else {
        return Ok(Some(Advance {
            was: tournament.version,
            status: "finished".into(),
            current_round: tournament.current_round,
            rounds: tournament.current_round,
            numbers: Vec::new(),
            boards: Vec::new(),
            games: Vec::new(),
        }));
    };
    let (boards, games) = round_games(tournament, &numbered(data), next, &paired)?;
    Ok(Some(Advance {
        was: tournament.version,
        status: "running".into(),
        current_round: next,
        rounds: tournament.rounds,
        numbers: Vec::new(),
        boards,
        games,
    }))
}

/// Pairs the next round of tournament `id` (or finishes it) if its current round is over.
/// Returns whether this call made the step (`false`: nothing to do, or another server
/// came first).
pub async fn advance(app: &Arc<App>, id: &str) -> Result<bool, ActionError> {
    let Some(data) = app.database.tournament(id).await? else {
        return Ok(false);
    };
    hold_current_games(app, &data).await;
    let Some(step) = next_step(&data)? else {
        return Ok(false);
    };
    let round = step.current_round;
    let status = step.status.clone();
    let made = app.database.tournament_advance(id, step).await?;
    if made {
        tracing::info!(tournament = %id, round, status = %status, "tournament moved on");
        if let Some(data) = app.database.tournament(id).await? {
            hold_current_games(app, &data).await;
        }
        app.tell(Happening::TournamentMoved(id.into())).await;
    }
    Ok(made)
}

/// Brings the games of the current round that are still going on into memory, where a
/// first move that is due is found (see `App::end_overdue_games`): an absent player loses
/// and the round goes on.
pub async fn hold_current_games(app: &Arc<App>, data: &TournamentData) {
    let current = data.tournament.current_round;
    for board in &data.boards {
        if board.round == current
            && board.result.is_none()
            && let Some(game) = &board.game_id
            && let Err(error) = app.slot(game).await
        {
            let id = &data.tournament.id;
            tracing::warn!(tournament = %id, game = %game, "cannot read a game: {error:?}");
        }
    }
}

/// Called after any change of a game in memory: when `round` is an ended tournament game,
/// its tournament is looked at (in a task of its own).
pub fn game_over(app: &Arc<App>, round: &Round) {
    if !round.is_over() {
        return;
    }
    let Some(id) = round.tag(TOURNAMENT_TAG) else {
        return;
    };
    let (app, id) = (Arc::clone(app), id.to_string());
    tokio::spawn(async move {
        if let Err(error) = advance(&app, &id).await {
            tracing::warn!(tournament = %id, "cannot move the tournament on: {error:?}");
        }
    });
}

/// Follows the games that end: a tournament's game moves its tournament on.
pub fn follow(app: &App) {
    app.subscribe(
        "tournament",
        Arc::new(|app, happening| {
            Box::pin(async move {
                if let Happening::GameOver(round) = happening {
                    game_over(&app, &round);
                }
            })
        }),
    );
}

/// Looks at every running tournament now and every [`CHECK_EVERY`], for as long as the
/// server runs.
pub fn start(app: &Arc<App>) {
    let app = Arc::downgrade(app);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(CHECK_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let Some(app) = app.upgrade() else { break };
            check_all(&app).await;
        }
    });
}

/// Moves on every running tournament whose round is over.
pub async fn check_all(app: &Arc<App>) {
    let ids = match app.database.tournaments_running().await {
        Ok(ids) => ids,
        Err(error) => {
            tracing::warn!("cannot list the running tournaments: {error}");
            return;
        }
    };
    for id in ids {
        if let Err(error) = advance(app, &id).await {
            tracing::warn!(tournament = %id, "cannot move the tournament on: {error:?}");
        }
    }
}

/// Standings and crosstable of `data`, computed by the club crate.
pub fn table(data: &TournamentData) -> standings::Crosstable {
    let system = system_of(&data.tournament);
    standings::crosstable(&history(data), POINTS, system.tiebreaks())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::EntrantRow;

    fn data(players: usize, system: System, micro: bool) -> TournamentData {
        TournamentData {
            tournament: TournamentRow {
                id: "t1".into(),
                name: "Cup".into(),
                variant: "russian".into(),
                system: system.name().into(),
                rounds: 3,
                micro,
                base_ms: Some(300_000),
                increment_ms: Some(2_000),
                creator: 1,
                creator_name: "p1".into(),
                status: "open".into(),
                current_round: 0,
                version: 4,
                created_ms: 0,
                seed: 7,
                players: players as i64,
            },
            entrants: (0..players)
                .map(|n| EntrantRow {
                    player_id: n as i64 + 10,
                    name: format!("p{n}"),
                    number: None,
                    joined_ms: 100 - n as i64,
                })
                .collect(),
            boards: Vec::new(),
        }
    }

    #[test]
    fn the_first_round_robin_round_follows_the_berger_table() -> Result<(), ActionError> {
        let data = data(4, System::RoundRobin, false);
        let step = first_step(&data)?;
        assert_eq!(step.rounds, 3);
        assert_eq!(step.was, 4);
        // Joined last first: number 0 is the account that joined first (id 13).
        assert_eq!(step.numbers[0], (13, 0));
        let expected = &round_robin::rounds(4)[0].pairings;
        let paired: Vec<(i64, Option<i64>)> =
            step.boards.iter().map(|b| (b.white, b.black)).collect();
        let wanted: Vec<(i64, Option<i64>)> = expected
            .iter()
            .map(|p| (p.white as i64, Some(p.black as i64)))
            .collect();
        assert_eq!(paired, wanted);
        assert_eq!(step.games.len(), 2);
        let game = &step.games[0];
        assert!(game.seated());
        assert_eq!(game.tag(TOURNAMENT_TAG), Some("t1"));
        assert_eq!(game.tag("Round"), Some("1.1"));
        Ok(())
    }

    #[test]
    fn too_few_players_do_not_start() {
        assert!(first_step(&data(2, System::RoundRobin, false)).is_err());
        assert!(first_step(&data(2, System::Swiss, false)).is_ok());
        assert!(first_step(&data(1, System::Swiss, false)).is_err());
    }

    #[test]
    fn a_micro_match_plays_both_colours_on_one_ballot_opening() -> Result<(), ActionError> {
        let step = first_step(&data(4, System::Swiss, true))?;
        assert_eq!(step.games.len(), 4);
        let opening = micro::draw(7, 3)[0];
        let start = micro::opening_position(opening)
            .ok_or("no opening")
            .map_err(|e| ActionError::Invalid(e.into()))?;
        for pair in step.boards.chunks(2) {
            assert_eq!(pair[0].white, pair[1].black.unwrap_or(-1));
            assert_eq!(pair[1].white, pair[0].black.unwrap_or(-1));
        }
        for game in &step.games {
            assert_eq!(game.game.start_position(), &start);
        }
        Ok(())
    }
}
