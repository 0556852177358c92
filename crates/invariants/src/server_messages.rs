//! The web server's request bodies and the actions on a game in play.

use std::time::Instant;

use std::time::Duration;

use bashni_rules::notation::{parse_fen, write_fen};
use bashni_rules::{Color, Game, Position, TimeControl, Variant};
use bashni_server::app::actions::GameAction;
use bashni_server::app::actions::TimeRequest;
use bashni_server::game::round::{DrawAction, Mode, Player, Round, RoundError, Seat};
use bashni_server::http::error::parse_json;
use bashni_server::http::games::{CreateRequest, PositionRequest, read_position};
use bashni_server::store::{Change, Store};

use crate::bytes::{Bytes, assert_sound, variant};

/// At most this many actions of one input are taken.
const MAX_ACTIONS: usize = 200;

/// The first byte is the length of a JSON body that follows. The body is read as each
/// request type of the API; its text is also read as a position by the server's reader,
/// which must give a sound position that reads back from its FEN.
///
/// The rest drives a game at one screen (both seats joined, one token): the next byte
/// chooses the variant and whether there is a clock, then each action takes a byte for its
/// kind and seat and more for its details: a legal move by index, a move written in the
/// following bytes, the move of the JSON body, a resignation, a draw offer, acceptance,
/// refusal or claim, or a take-back. Each action is taken on a copy of the round, as the
/// server does; a done action is stored against the version it was computed on. After every
/// action the game must be consistent: its moves replay to its position, it has an ending
/// exactly when the rules say it is over, and the store gives back the same game (moves,
/// ending, draw offers, version). A refused action must change nothing.
pub fn server_messages(data: &[u8]) {
    let mut bytes = Bytes::new(data);
    let length = usize::from(bytes.byte());
    let body = bytes.take(length);
    let request = GameAction::parse(Some("move"), body).ok();
    let _ = GameAction::parse(None, body);
    let _ = parse_json::<CreateRequest>(body);
    let _ = parse_json::<PositionRequest>(body);
    let _ = parse_json::<TimeRequest>(body);
    let body_text = String::from_utf8_lossy(body);
    for variant in [Variant::Bashni, Variant::Russian] {
        if let Ok(position) = read_position(variant, &body_text) {
            assert_sound(&position);
            let fen = write_fen(&position);
            assert_eq!(parse_fen(variant, &fen).as_ref(), Ok(&position), "{fen}");
        }
    }
    if bytes.is_empty() {
        return;
    }
    play_actions(&mut bytes, request.as_ref());
}

fn local_round(variant: Variant, clock: bool) -> Round {
    let control = clock.then_some(TimeControl {
        base: Duration::from_secs(600),
        increment: Duration::from_secs(2),
    });
    let mut round = Round::new(
        "fuzz".into(),
        Mode::Local,
        Position::start(variant),
        control,
    );
    for (color, name) in [(Color::White, "White"), (Color::Black, "Black")] {
        *round.player_mut(color) = Player {
            name: name.to_string(),
            token: Some("0123456789abcdef".to_string()),
            joined: true,
        };
    }
    round.creator = Some(Seat::Both);
    round
}

/// Everything an action may change.
#[derive(PartialEq, Debug)]
struct Snapshot {
    ply: usize,
    position: Position,
    draw_offer: Option<Color>,
    last_offer: Option<Color>,
    over: bool,
    version: u64,
    clocks: [Option<Duration>; 2],
}

fn snapshot(round: &Round) -> Snapshot {
    Snapshot {
        ply: round.game.ply(),
        position: *round.game.position(),
        draw_offer: round.game.draw_offer(),
        last_offer: round.game.last_draw_offer(),
        over: round.is_over(),
        version: round.version,
        clocks: [Color::White, Color::Black].map(|c| round.clock.stored(c)),
    }
}

fn play_actions(bytes: &mut Bytes<'_>, request: Option<&GameAction>) {
    let setting = bytes.byte();
    let variant = variant(setting);
    let mut round = local_round(variant, setting & 2 != 0);
    let store = match Store::in_memory() {
        Ok(store) => store,
        Err(error) => panic!("no database: {error}"),
    };
    if let Err(error) = store.insert(&round) {
        panic!("a new game is not stored: {error}");
    }
    for _ in 0..MAX_ACTIONS {
        if bytes.is_empty() {
            break;
        }
        let choice = bytes.byte();
        let seat = match choice >> 4 & 3 {
            0 => Seat::White,
            1 => Seat::Black,
            _ => Seat::Both,
        };
        let now = Instant::now();
        let claim = choice & 0x40 != 0;
        let mut next = round.clone();
        let (name, done): (&str, Result<Change, RoundError>) = match choice & 15 {
            0..=5 => {
                let legal = next.game.legal_moves();
                let index = usize::from(bytes.byte());
                let text = legal
                    .get(index % legal.len().max(1))
                    .map_or(String::new(), ToString::to_string);
                (
                    "a legal move",
                    next.play(seat, &text, claim, now).map(|()| Change::Move),
                )
            }
            6 | 7 => {
                let length = usize::from(bytes.byte() % 32);
                let text = String::from_utf8_lossy(bytes.take(length)).into_owned();
                (
                    "a written move",
                    next.play(seat, &text, claim, now).map(|()| Change::Move),
                )
            }
            8 => match request {
                Some(GameAction::Move {
                    text, claim_draw, ..
                }) => (
                    "the body's move",
                    next.play(seat, text, *claim_draw, now)
                        .map(|()| Change::Move),
                ),
                _ => continue,
            },
            9 => ("resign", next.resign(seat, now).map(|()| Change::Game)),
            10..=13 => {
                let action = [
                    DrawAction::Offer,
                    DrawAction::Accept,
                    DrawAction::Decline,
                    DrawAction::Claim,
                ][usize::from(choice & 15) - 10];
                (
                    "a draw action",
                    next.draw(seat, action, now).map(|()| Change::Game),
                )
            }
            _ => ("take back", next.take_back(seat, now).map(Change::TakeBack)),
        };
        match done {
            Ok(change) => {
                assert_eq!(
                    next.version,
                    round.version + 1,
                    "{name} by {seat:?} did not count one change"
                );
                if let Err(error) = store.save(&next, change, round.version) {
                    panic!("{name} by {seat:?} could not be stored: {error}");
                }
                round = next;
            }
            Err(_) => assert_eq!(
                snapshot(&next),
                snapshot(&round),
                "{name} by {seat:?} was refused but changed the game"
            ),
        }
        assert_consistent(&round, &store, name);
    }
}

fn assert_consistent(round: &Round, store: &Store, action: &str) {
    let game = &round.game;
    let mut replayed = Game::new(*game.start_position());
    for mv in game.moves() {
        assert!(
            replayed.play(mv).is_ok(),
            "after {action}: {mv} does not replay"
        );
    }
    assert_eq!(replayed.position(), game.position(), "after {action}");
    assert_sound(game.position());
    assert_eq!(
        round.ending().is_some(),
        game.is_over(),
        "after {action}: the round's ending {:?} and the game's outcome {:?} disagree",
        round.ending(),
        game.outcome()
    );
    assert_eq!(round.move_clocks.len(), game.ply(), "after {action}");
    let stored = match store.load(&round.id) {
        Ok(Some(stored)) => stored,
        Ok(None) => panic!("after {action}: the game is not stored"),
        Err(error) => panic!("after {action}: the stored game does not load: {error}"),
    };
    assert_eq!(stored.game.moves(), game.moves(), "after {action}");
    assert_eq!(stored.version, round.version, "after {action}");
    assert_eq!(
        stored.ending(),
        round.ending(),
        "after {action}: the stored game ends differently"
    );
    assert_eq!(
        stored.game.draw_offer(),
        game.draw_offer(),
        "after {action}: the stored game has another draw offer"
    );
    assert_eq!(
        stored.game.last_draw_offer(),
        game.last_draw_offer(),
        "after {action}: the stored game forgot who offered last"
    );
    assert_eq!(stored.move_clocks, round.move_clocks, "after {action}");
}
