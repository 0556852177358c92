//! The web server's request bodies and the actions on a game in play.

use std::time::Instant;

use bashni_rules::notation::{parse_fen, write_fen};
use bashni_rules::{Color, Game, Position, Variant};
use bashni_server::api::{
    CreateRequest, MoveRequest, PositionRequest, TimeRequest, parse_json, read_position,
};
use bashni_server::live::{LiveGame, Seat};
use bashni_server::store::{GameRow, MoveRow, SeatRow};

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
/// refusal or claim, or a take-back. After every action the game must be consistent: its
/// moves replay to its position, the row has a result exactly when the game is over, the
/// draw offer matches, and the stored moves restore the same game. A refused action must
/// change nothing.
pub fn server_messages(data: &[u8]) {
    let mut bytes = Bytes::new(data);
    let length = usize::from(bytes.byte());
    let body = bytes.take(length);
    let request: Option<MoveRequest> = parse_json::<MoveRequest>(body).ok();
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

fn seat_row(name: &str) -> SeatRow {
    SeatRow {
        name: name.to_string(),
        token: Some("0123456789abcdef".to_string()),
        joined: true,
    }
}

fn local_row(variant: Variant, clock: bool) -> GameRow {
    let base = clock.then_some(600_000);
    GameRow {
        id: "fuzz".into(),
        variant: variant.name().into(),
        mode: "local".into(),
        start_fen: write_fen(&Position::start(variant)),
        level: None,
        engine_color: None,
        creator: Some("white".into()),
        white: seat_row("White"),
        black: seat_row("Black"),
        invite: None,
        base_ms: base,
        increment_ms: clock.then_some(2_000),
        white_ms: base,
        black_ms: base,
        result: None,
        reason: None,
        reason_code: None,
        draw_offer: None,
        tags: "[]".into(),
        created_ms: 0,
        updated_ms: 0,
        version: 1,
        last_offer: None,
    }
}

/// Everything an action may change.
#[derive(PartialEq, Debug)]
struct Snapshot {
    row: GameRow,
    ply: usize,
    position: Position,
    draw_offer: Option<Color>,
    over: bool,
    version: u64,
}

fn snapshot(live: &LiveGame) -> Snapshot {
    Snapshot {
        row: live.row.clone(),
        ply: live.game.ply(),
        position: *live.game.position(),
        draw_offer: live.game.draw_offer(),
        over: live.game.is_over(),
        version: live.version,
    }
}

fn play_actions(bytes: &mut Bytes<'_>, request: Option<&MoveRequest>) {
    let setting = bytes.byte();
    let variant = variant(setting);
    let row = local_row(variant, setting & 2 != 0);
    let mut live = match LiveGame::restore(row, &[]) {
        Ok(live) => live,
        Err(error) => panic!("a new game does not restore: {error}"),
    };
    let mut stored: Vec<MoveRow> = Vec::new();
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
        let before = snapshot(&live);
        let now = Instant::now();
        let (name, done) = match choice & 15 {
            0..=5 => {
                let legal = live.game.legal_moves();
                let index = usize::from(bytes.byte());
                let text = legal
                    .get(index % legal.len().max(1))
                    .map_or(String::new(), ToString::to_string);
                let claim = choice & 0x40 != 0;
                let played = live.play(seat, &text, claim, now);
                let ok = played.is_ok();
                stored.extend(played.ok());
                ("a legal move", ok)
            }
            6 | 7 => {
                let length = usize::from(bytes.byte() % 32);
                let text = String::from_utf8_lossy(bytes.take(length)).into_owned();
                let played = live.play(seat, &text, choice & 0x40 != 0, now);
                let ok = played.is_ok();
                stored.extend(played.ok());
                ("a written move", ok)
            }
            8 => match request {
                Some(request) => {
                    let played = live.play(seat, &request.text, request.claim_draw, now);
                    let ok = played.is_ok();
                    stored.extend(played.ok());
                    ("the body's move", ok)
                }
                None => continue,
            },
            9 => ("resign", live.resign(seat).is_ok()),
            10 => ("offer", live.draw(seat, "offer").is_ok()),
            11 => ("accept", live.draw(seat, "accept").is_ok()),
            12 => ("decline", live.draw(seat, "decline").is_ok()),
            13 => ("claim", live.draw(seat, "claim").is_ok()),
            _ => match live.take_back(seat) {
                Ok(first) => {
                    stored.truncate(first as usize);
                    ("take back", true)
                }
                Err(_) => ("take back", false),
            },
        };
        if done {
            assert_eq!(
                live.version,
                before.version + 1,
                "{name} by {seat:?} did not count one change"
            );
        } else {
            assert_eq!(
                snapshot(&live),
                before,
                "{name} by {seat:?} was refused but changed the game"
            );
        }
        assert_consistent(&live, &stored, name);
    }
}

fn assert_consistent(live: &LiveGame, stored: &[MoveRow], action: &str) {
    let game = &live.game;
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
        live.row.result.is_some(),
        game.is_over(),
        "after {action}: the row's result {:?} and the game's outcome {:?} disagree",
        live.row.result,
        game.outcome()
    );
    assert_eq!(live.row.result.is_some(), live.row.reason_code.is_some());
    assert_eq!(
        live.row.draw_offer.as_deref(),
        game.draw_offer().map(Color::code),
        "after {action}"
    );
    assert_eq!(stored.len(), game.ply(), "after {action}");
    for (ply, (row, mv)) in stored.iter().zip(game.moves()).enumerate() {
        assert_eq!(row.ply as usize, ply, "after {action}");
        assert_eq!(row.text, mv.to_string(), "after {action}");
    }
    let restored = match LiveGame::restore(live.row.clone(), stored) {
        Ok(restored) => restored,
        Err(error) => panic!("after {action}: the stored game does not restore: {error}"),
    };
    assert_eq!(restored.game.moves(), game.moves(), "after {action}");
    assert_eq!(
        restored.game.outcome(),
        game.outcome(),
        "after {action}: the restored game ends differently"
    );
    assert_eq!(restored.is_over(), live.is_over());
    assert_eq!(
        restored.game.draw_offer(),
        game.draw_offer(),
        "after {action}: the restored game has another draw offer"
    );
    assert_eq!(
        restored.game.last_draw_offer(),
        game.last_draw_offer(),
        "after {action}: the restored game forgot who offered last"
    );
}
