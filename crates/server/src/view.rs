//! The JSON the API answers with: positions, moves and whole games as the page shows them.

use std::collections::BTreeMap;
use std::time::Instant;

use bashni_rules::notation::{write_fen, write_position, write_short};
use bashni_rules::{Color, Move, Position};
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::live::{LiveGame, Mode, Seat};

/// A position: who moves, its text in both notations, and every tower.
#[derive(Serialize, Clone, Debug)]
pub struct PositionView {
    /// `bashni` or `russian`.
    pub variant: &'static str,
    /// `white` or `black`: who moves.
    pub turn: &'static str,
    /// The rulebook's one-line notation.
    pub text: String,
    /// The compact FEN form.
    pub fen: String,
    /// Each occupied square's tower, top first: `w`/`b` men, `W`/`B` kings.
    pub towers: BTreeMap<String, String>,
}

impl PositionView {
    /// The view of `position`.
    pub fn of(position: &Position) -> PositionView {
        let mut towers = BTreeMap::new();
        for square in bashni_rules::Square::ALL_BY_NAME {
            let tower = position.tower(square);
            if !tower.is_empty() {
                towers.insert(square.to_string(), tower.letters());
            }
        }
        PositionView {
            variant: position.variant().name(),
            turn: position.side_to_move().code(),
            text: write_position(position),
            fen: write_fen(position),
            towers,
        }
    }
}

/// A legal move, for the page to offer.
#[derive(Serialize, Clone, Debug)]
pub struct MoveView {
    /// Full notation.
    pub text: String,
    /// The abbreviated score.
    pub short: String,
    /// The start square, then every landing square.
    pub path: Vec<String>,
    /// The squares jumped, in order.
    pub captured: Vec<String>,
    /// Whether a man is crowned.
    pub promotes: bool,
    /// Bashni: whether the move puts the same position on the board a third time, so a
    /// draw may be claimed with it (1.13.2).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub claims_draw: bool,
}

impl MoveView {
    /// The view of `mv`, a legal move of `position`.
    pub fn of(position: &Position, mv: &Move) -> MoveView {
        let mut path = vec![mv.from().to_string()];
        path.extend(mv.landings().iter().map(|s| s.to_string()));
        MoveView {
            text: mv.to_string(),
            short: write_short(position, mv),
            path,
            captured: mv.captured().iter().map(|s| s.to_string()).collect(),
            promotes: mv.promotes(),
            claims_draw: false,
        }
    }
}

/// A move of the game's record.
#[derive(Serialize, Clone, Debug)]
pub struct MoveRecord {
    /// The move.
    #[serde(flatten)]
    pub mv: MoveView,
    /// 0 for the first move.
    pub ply: usize,
    /// The move number.
    pub number: usize,
    /// Who made it.
    pub color: &'static str,
    /// The position after it.
    pub after: PositionView,
}

/// The record of the game's moves, built once per move and kept as JSON text.
pub fn move_record(game: &bashni_rules::Game, ply: usize) -> Option<Box<RawValue>> {
    let before = game.positions().get(ply)?;
    let after = game.positions().get(ply + 1)?;
    let mv = game.moves().get(ply)?;
    let record = MoveRecord {
        mv: MoveView::of(before, mv),
        ply,
        number: game.move_number(ply),
        color: before.side_to_move().code(),
        after: PositionView::of(after),
    };
    serde_json::value::to_raw_value(&record).ok()
}

fn seat_view(live: &LiveGame, color: Color) -> Value {
    let seat = match color {
        Color::White => &live.row.white,
        Color::Black => &live.row.black,
    };
    let engine = live.engine_color == Some(color);
    let mut value = serde_json::json!({
        "name": seat.name,
        "kind": if engine { "engine" } else { "human" },
        "joined": seat.joined,
    });
    if engine && let Some(level) = live.row.level {
        value["level"] = Value::from(level);
    }
    value
}

/// The state of a game as the API shows it (see `docs/api.md`).
#[derive(Serialize)]
pub struct GameStateView<'a> {
    id: &'a str,
    variant: &'a str,
    mode: &'static str,
    white: Value,
    black: Value,
    you: Option<&'static str>,
    start: PositionView,
    moves: &'a [Box<RawValue>],
    position: PositionView,
    turn: &'static str,
    legal_moves: Vec<MoveView>,
    must_capture: bool,
    clock: Option<Value>,
    draw_offer: Option<&'a str>,
    may_offer_draw: bool,
    can_claim_draw: Option<String>,
    can_take_back: bool,
    engine_thinking: bool,
    result: Option<Value>,
    invite_url: Option<String>,
    /// Grows with every change of the game.
    pub version: u64,
}

/// The whole state of a game as `seat` (or a watcher, `None`) sees it.
pub fn game_state<'a>(
    live: &'a LiveGame,
    records: &'a [Box<RawValue>],
    seat: Option<Seat>,
    now: Instant,
) -> GameStateView<'a> {
    let position = live.game.position();
    let over = live.is_over();
    let legal: Vec<MoveView> = if over || live.mode == Mode::Record {
        Vec::new()
    } else {
        live.game
            .legal_moves()
            .iter()
            .map(|mv| MoveView {
                claims_draw: live.game.move_allows_claim(mv),
                ..MoveView::of(position, mv)
            })
            .collect()
    };
    let clock = live.row.base_ms.map(|base| {
        serde_json::json!({
            "base_ms": base,
            "increment_ms": live.row.increment_ms.unwrap_or(0),
            "white_ms": live.time_left(Color::White, now).map(|t| t.max(0)),
            "black_ms": live.time_left(Color::Black, now).map(|t| t.max(0)),
            "running": live.running_clock().map(Color::code),
        })
    });
    let result = live.row.result.as_ref().map(|score| {
        let winner = match score.as_str() {
            "1-0" => Some("white"),
            "0-1" => Some("black"),
            _ => None,
        };
        serde_json::json!({
            "score": score,
            "winner": winner,
            "reason": live.row.reason.clone().unwrap_or_default(),
            "code": live.row.reason_code.clone().unwrap_or_default(),
        })
    });
    let creator = live.row.creator.as_deref();
    let invite_url = match (seat, &live.row.invite) {
        (Some(seat), Some(invite)) if Some(seat.name()) == creator => {
            Some(format!("/g/{}/join/{}", live.row.id, invite))
        }
        _ => None,
    };
    let can_take_back = seat.is_some_and(|s| live.takeback_plies(s).is_ok()) && !over;
    let playing = !over && live.mode != Mode::Record;
    let may_offer_draw = match seat {
        Some(Seat::White) => live.game.may_offer_draw_by(Color::White),
        Some(Seat::Black) => live.game.may_offer_draw_by(Color::Black),
        Some(_) => live.game.may_offer_draw_by(position.side_to_move()),
        None => live.game.may_offer_draw(),
    };
    GameStateView {
        id: &live.row.id,
        variant: &live.row.variant,
        mode: live.mode.name(),
        white: seat_view(live, Color::White),
        black: seat_view(live, Color::Black),
        you: seat.map(Seat::name),
        start: PositionView::of(live.game.start_position()),
        moves: records,
        position: PositionView::of(position),
        turn: position.side_to_move().code(),
        legal_moves: legal,
        must_capture: playing && position.has_capture(),
        clock,
        draw_offer: live.row.draw_offer.as_deref(),
        may_offer_draw: playing && may_offer_draw,
        can_claim_draw: live.game.can_claim_draw().map(|r| r.to_string()),
        can_take_back,
        engine_thinking: live.engine_thinking,
        result,
        invite_url,
        version: live.version,
    }
}
