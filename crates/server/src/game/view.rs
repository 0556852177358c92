//! The JSON the API answers with: positions, moves and whole games as the page shows them.

use std::collections::BTreeMap;
use std::time::Instant;

use bashni_rules::notation::{write_fen, write_position, write_short};
use bashni_rules::{Color, Move, Position};
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::game::round::{Mode, Round, Seat};

/// A side that is away on its turn, and when the other may claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Away {
    /// The side to move, whose player is offline.
    pub side: Color,
    /// Since when it counts as away (ms since 1970).
    pub since_ms: i64,
    /// From when the other side may claim (ms since 1970).
    pub claim_at_ms: i64,
}

/// A game's presence as its state shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    /// Whether each side's player is online (White, Black); the engine always is.
    pub online: [bool; 2],
    /// The side to move, when its player is away and a claim may come.
    pub away: Option<Away>,
}

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

/// The record of move `ply` with the position after it, as JSON text (the API's answers).
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

/// Every move's record with the position after it (the API's whole states).
pub fn move_records(game: &bashni_rules::Game) -> Vec<Box<RawValue>> {
    (0..game.ply())
        .map_while(|ply| move_record(game, ply))
        .collect()
}

/// A move as a socket sends it: its notation in full and abbreviated. The client derives
/// the rest (its squares, its number, the position after it) from the position before.
#[derive(Serialize)]
struct ShortRecord {
    text: String,
    short: String,
}

/// The socket's record of move `ply` ([`ShortRecord`]), as JSON text; built once per move
/// and kept while the game is in memory.
pub fn short_record(game: &bashni_rules::Game, ply: usize) -> Option<Box<RawValue>> {
    let before = game.positions().get(ply)?;
    let mv = game.moves().get(ply)?;
    let record = ShortRecord {
        text: mv.to_string(),
        short: write_short(before, mv),
    };
    serde_json::value::to_raw_value(&record).ok()
}

/// How much a state spells out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Everything: each move's position after it, the position, and each legal move's
    /// squares (the HTTP API).
    Full,
    /// What the client cannot derive from the start position and the moves: no positions
    /// but the start, and legal moves by their notation only (the sockets).
    Short,
}

/// A legal move as a socket sends it: its notation, and whether it allows a draw claim.
#[derive(Serialize)]
#[serde(untagged)]
enum ShortMove {
    /// Most moves: the notation only.
    Text(String),
    /// A move that puts a position on the board a third time.
    Claiming { text: String, claims_draw: bool },
}

/// The legal moves in the state's form.
#[derive(Serialize)]
#[serde(untagged)]
enum LegalMoves {
    Full(Vec<MoveView>),
    Short(Vec<ShortMove>),
}

fn seat_view(round: &Round, color: Color) -> Value {
    let player = round.player(color);
    let engine = round.engine_color == Some(color);
    let mut value = serde_json::json!({
        "name": player.name,
        "kind": if engine { "engine" } else { "human" },
        "joined": player.joined,
    });
    if engine && let Some(level) = round.level {
        value["level"] = Value::from(level.number());
    }
    value
}

/// The state of a game as the API shows it (see `docs/api.md`); for an update, without the
/// start position and the record's notes.
#[derive(Serialize)]
pub struct GameStateView<'a> {
    id: &'a str,
    variant: &'static str,
    mode: &'static str,
    white: Value,
    black: Value,
    you: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    start: Option<PositionView>,
    /// A record's comments and variations (full states only).
    #[serde(skip_serializing_if = "Option::is_none")]
    notes: Option<&'a crate::game::notes::Notes>,
    moves: &'a [Box<RawValue>],
    /// The plies played: what an action made for this position says as its `ply`.
    ply: usize,
    /// The position now (whole form only: the client derives it from the moves).
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<PositionView>,
    turn: &'static str,
    legal_moves: LegalMoves,
    must_capture: bool,
    clock: Option<Value>,
    draw_offer: Option<&'static str>,
    may_offer_draw: bool,
    can_claim_draw: Option<String>,
    /// The draw the side to move may claim, for the page's words: `{"code", "details"}`.
    claim_draw: Option<Value>,
    can_take_back: bool,
    may_abort: bool,
    /// Whether the page may offer the engine for this game (see [`crate::game::fair_play`]).
    engine_help: bool,
    engine_thinking: bool,
    result: Option<Value>,
    rematch: Option<Value>,
    invite_url: Option<String>,
    correspondence: Option<Value>,
    /// The side that must make its first move, by when, and what missing it does.
    first_move: Option<Value>,
    /// The tournament a tournament game belongs to: its id, name and round.
    tournament: Option<Value>,
    abandon: Option<Value>,
    /// Grows with every change of the game.
    pub version: u64,
    /// The account name holding White's seat (`null` for a guest or the engine).
    white_player: Option<&'a str>,
    /// The account name holding Black's seat.
    black_player: Option<&'a str>,
    /// Whether the game counts for ratings (see [`crate::rating`]).
    rated: bool,
    /// Why a game asked for as rated does not count.
    unrated_reason: Option<&'static str>,
    /// The rating changes, once a rated game's end is stored.
    rating: Option<Value>,
}

/// What a state is made for besides the round: the moves' records (in the state's form),
/// who sees it (`seat`; a watcher is `None`), whether the engine thinks, the time now, who is
/// there (`seen`, at a time in ms since 1970) and the state's form.
pub struct Looker<'a> {
    /// The records of the moves, in `form`.
    pub records: &'a [Box<RawValue>],
    /// Who sees the state.
    pub seat: Option<Seat>,
    /// Whether the engine is searching now.
    pub engine_thinking: bool,
    /// The server's time now.
    pub now: Instant,
    /// Who is there, and the time in ms since 1970.
    pub seen: (Seen, i64),
    /// How much the state spells out.
    pub form: Form,
}

/// The whole state of a game as `looker` sees it.
pub fn game_state<'a>(round: &'a Round, looker: Looker<'a>) -> GameStateView<'a> {
    let mut view = update_view(round, looker);
    view.start = Some(PositionView::of(round.game.start_position()));
    view.notes = round.notes.as_ref();
    view
}

/// The state of a game as `looker` sees it, without the start position and the record's
/// notes (what an update may carry; see [`crate::game::shown`]).
pub fn update_view<'a>(round: &'a Round, looker: Looker<'a>) -> GameStateView<'a> {
    let Looker {
        records,
        seat,
        engine_thinking,
        now,
        seen: (seen, now_ms),
        form,
    } = looker;
    let position = round.game.position();
    let over = round.is_over();
    let playing = !over && round.mode != Mode::Record;
    let moves = if playing {
        round.game.legal_moves()
    } else {
        Default::default()
    };
    let legal = match form {
        Form::Full => LegalMoves::Full(
            moves
                .iter()
                .map(|mv| MoveView {
                    claims_draw: round.game.move_allows_claim(mv),
                    ..MoveView::of(position, mv)
                })
                .collect(),
        ),
        Form::Short => LegalMoves::Short(
            moves
                .iter()
                .map(|mv| match round.game.move_allows_claim(mv) {
                    false => ShortMove::Text(mv.to_string()),
                    true => ShortMove::Claiming {
                        text: mv.to_string(),
                        claims_draw: true,
                    },
                })
                .collect(),
        ),
    };
    let clock = round.control().map(|control| {
        serde_json::json!({
            "base_ms": crate::game::round::millis(control.base),
            "increment_ms": crate::game::round::millis(control.increment),
            "white_ms": round.time_left(Color::White, now).map(|t| t.max(0)),
            "black_ms": round.time_left(Color::Black, now).map(|t| t.max(0)),
            "running": round.running_clock().map(Color::code),
        })
    });
    let result = round.ending().map(|ending| ending_view(&ending));
    let invite_url = match (seat, &round.invite) {
        (Some(seat), Some(invite)) if Some(seat) == round.creator => {
            Some(format!("/g/{}/join/{}", round.id, invite))
        }
        _ => None,
    };
    let can_take_back = seat.is_some_and(|s| round.takeback_plies(s).is_ok()) && !over;
    let may_offer_draw = match seat {
        Some(Seat::White) => round.game.may_offer_draw_by(Color::White),
        Some(Seat::Black) => round.game.may_offer_draw_by(Color::Black),
        Some(_) => round.game.may_offer_draw_by(position.side_to_move()),
        None => round.game.may_offer_draw(),
    };
    let [mut white, mut black] = [Color::White, Color::Black].map(|c| seat_view(round, c));
    white["online"] = Value::Bool(seen.online[0]);
    black["online"] = Value::Bool(seen.online[1]);
    let abandon = seen.away.map(|away| {
        let claim_in_ms = (away.claim_at_ms - now_ms).max(0);
        let waiting = match seat {
            Some(Seat::White) => Some(Color::White),
            Some(Seat::Black) => Some(Color::Black),
            _ => None,
        };
        serde_json::json!({
            "side": away.side.code(),
            "claim_in_ms": claim_in_ms,
            "may_claim": claim_in_ms == 0 && waiting == Some(away.side.opponent()),
        })
    });
    GameStateView {
        id: &round.id,
        variant: round.variant().name(),
        mode: round.mode.name(),
        white,
        black,
        you: seat.map(Seat::name),
        start: None,
        notes: None,
        moves: records,
        ply: round.game.ply(),
        position: (form == Form::Full).then(|| PositionView::of(position)),
        turn: position.side_to_move().code(),
        legal_moves: legal,
        must_capture: playing && position.has_capture(),
        clock,
        draw_offer: round.game.draw_offer().map(Color::code),
        may_offer_draw: playing && may_offer_draw,
        can_claim_draw: round.game.can_claim_draw().map(|r| r.to_string()),
        claim_draw: round.game.can_claim_draw().map(|reason| {
            serde_json::json!({
                "code": crate::game::round::reason_code(reason),
                "details": reason_details(reason),
            })
        }),
        can_take_back,
        may_abort: round.may_abort(seat),
        engine_help: crate::game::fair_play::engine_help_allowed(round),
        engine_thinking,
        result,
        rematch: round.rematch.as_ref().map(|rematch| {
            serde_json::json!({
                "offered_by": rematch.offered_by.code(),
                "game": rematch.game,
            })
        }),
        invite_url,
        correspondence: round.correspondence.map(|rule| {
            serde_json::json!({
                "days_per_move": rule.days_per_move,
                "deadline_ms": rule.deadline_ms,
            })
        }),
        first_move: round.first_move_due().map(|(side, deadline_ms)| {
            serde_json::json!({
                "side": side.code(),
                "deadline_ms": deadline_ms,
                "in_ms": (deadline_ms - now_ms).max(0),
                "missed": if round.in_tournament() { "loses" } else { "aborts" },
            })
        }),
        tournament: round.tag(crate::game::round::TOURNAMENT_TAG).map(|id| {
            // The PDN tag Round reads "round.board" (and ".leg" in a micro-match).
            let mut numbers = round
                .tag("Round")
                .unwrap_or_default()
                .split('.')
                .map(|n| n.parse::<u32>().ok());
            serde_json::json!({
                "id": id,
                "name": round.tag("Event"),
                "round": numbers.next().flatten(),
                "board": numbers.next().flatten(),
            })
        }),
        abandon,
        version: round.version,
        white_player: round.account_name(Color::White),
        black_player: round.account_name(Color::Black),
        rated: crate::game::rated::is_rated(round),
        unrated_reason: crate::game::rated::unrated_reason(round),
        rating: round.rating.as_ref().map(crate::rating::GameRating::view),
    }
}

/// How a game ended, as the API shows a result: `{"score", "winner", "reason", "code"}`.
pub fn ending_view(ending: &crate::game::round::Ending) -> Value {
    serde_json::json!({
        "score": ending.score(),
        "winner": ending.winner().map(Color::code),
        "reason": ending.reason_text(),
        "code": ending.code(),
        "details": match &ending.reason {
            crate::game::round::EndReason::Rules(reason) => reason_details(*reason),
            crate::game::round::EndReason::Abandoned(left) => {
                serde_json::json!({ "side": left.code() })
            }
            _ => serde_json::json!({}),
        },
    })
}

/// What the words of `reason` need besides its code, so that a page can say it in its
/// language: the side it names (`side`), the pieces on the board (`pieces`) and the moves
/// its rule counts (`moves`).
pub fn reason_details(reason: bashni_rules::Reason) -> Value {
    use bashni_rules::Reason;
    use bashni_rules::draw::{king_ending_moves, king_moves_only_moves};
    match reason {
        Reason::NoMove(side) | Reason::Resignation(side) | Reason::Time(side) => {
            serde_json::json!({ "side": side.code() })
        }
        Reason::KingEnding { pieces } => {
            serde_json::json!({ "pieces": pieces, "moves": king_ending_moves(pieces) })
        }
        Reason::KingMovesOnly { pieces } => {
            serde_json::json!({ "pieces": pieces, "moves": king_moves_only_moves(pieces) })
        }
        _ => serde_json::json!({}),
    }
}
