//! A round as rows and back: the one place the stored form of a game is made and read.

use bashni_engine::Level;
use bashni_rules::notation::{parse_fen, parse_move, write_fen};
use bashni_rules::{Color, GameResult, TimeControl, Variant};

use crate::game::correspondence::Correspondence;
use crate::game::round::{Mode, Player, Rematch, Round, Seat, duration_of_ms, millis};

/// A game's row, as both databases hold it.
pub(crate) struct GameRow {
    pub(crate) id: String,
    pub(crate) variant: String,
    pub(crate) mode: String,
    pub(crate) start_fen: String,
    pub(crate) level: Option<u8>,
    pub(crate) engine_color: Option<String>,
    pub(crate) creator: Option<String>,
    pub(crate) white: (String, Option<String>, bool),
    pub(crate) black: (String, Option<String>, bool),
    pub(crate) invite: Option<String>,
    pub(crate) base_ms: Option<i64>,
    pub(crate) increment_ms: Option<i64>,
    pub(crate) white_ms: Option<i64>,
    pub(crate) black_ms: Option<i64>,
    pub(crate) result: Option<String>,
    pub(crate) reason: Option<String>,
    pub(crate) reason_code: Option<String>,
    pub(crate) draw_offer: Option<String>,
    pub(crate) tags: String,
    /// A record's comments and variations as JSON; empty when it has none.
    pub(crate) notes: String,
    pub(crate) created_ms: i64,
    pub(crate) updated_ms: i64,
    pub(crate) version: i64,
    pub(crate) last_offer: Option<String>,
    pub(crate) rematch_by: Option<String>,
    pub(crate) rematch_game: Option<String>,
    /// Days per move of a correspondence game.
    pub(crate) days_per_move: Option<i64>,
    /// The side to move's deadline in a correspondence game (ms since 1970).
    pub(crate) deadline_ms: Option<i64>,
    /// The side to move while the game goes on between seated players, for lists of games by
    /// whose turn it is (a round read back takes it from its moves).
    pub(crate) to_move: Option<String>,
}

/// A move's row.
pub(crate) struct MoveRow {
    pub(crate) ply: u32,
    pub(crate) text: String,
    pub(crate) white_ms: Option<i64>,
    pub(crate) black_ms: Option<i64>,
    pub(crate) at_ms: i64,
}

/// The row of `round`.
pub(crate) fn row_of(round: &Round) -> GameRow {
    let control = round.control();
    let ending = round.ending();
    let player = |p: &Player| (p.name.clone(), p.token.clone(), p.joined);
    GameRow {
        id: round.id.clone(),
        variant: round.variant().name().to_string(),
        mode: round.mode.name().to_string(),
        start_fen: write_fen(round.game.start_position()),
        level: round.level.map(Level::number),
        engine_color: round.engine_color.map(|c| c.code().to_string()),
        creator: round.creator.map(|s| s.name().to_string()),
        white: player(&round.white),
        black: player(&round.black),
        invite: round.invite.clone(),
        base_ms: control.map(|c| millis(c.base)),
        increment_ms: control.map(|c| millis(c.increment)),
        white_ms: round.clock.stored(Color::White).map(millis),
        black_ms: round.clock.stored(Color::Black).map(millis),
        result: ending.as_ref().map(|e| e.score().to_string()),
        reason: ending.as_ref().map(|e| e.reason_text()),
        reason_code: ending.as_ref().map(|e| e.code().to_string()),
        draw_offer: round.game.draw_offer().map(|c| c.code().to_string()),
        tags: serde_json::to_string(&round.tags).unwrap_or_else(|_| "[]".into()),
        notes: round
            .notes
            .as_ref()
            .map(crate::game::notes::Notes::to_stored)
            .unwrap_or_default(),
        created_ms: round.created_ms,
        updated_ms: round.updated_ms,
        version: i64::try_from(round.version).unwrap_or(i64::MAX),
        last_offer: round.game.last_draw_offer().map(|c| c.code().to_string()),
        rematch_by: round
            .rematch
            .as_ref()
            .map(|r| r.offered_by.code().to_string()),
        rematch_game: round.rematch.as_ref().and_then(|r| r.game.clone()),
        days_per_move: round
            .correspondence
            .map(|rule| i64::from(rule.days_per_move)),
        deadline_ms: round.deadline_ms(),
        to_move: (round.mode != Mode::Record && round.seated() && !round.is_over())
            .then(|| round.game.side_to_move().code().to_string()),
    }
}

/// The row of the move at `ply` of `round`.
pub(crate) fn move_row(round: &Round, ply: usize) -> Option<MoveRow> {
    let mv = round.game.moves().get(ply)?;
    let [white_ms, black_ms] = round.move_clocks.get(ply).copied().unwrap_or([None, None]);
    Some(MoveRow {
        ply: u32::try_from(ply).ok()?,
        text: mv.to_string(),
        white_ms,
        black_ms,
        at_ms: round.updated_ms,
    })
}

fn score_of(text: &str) -> Option<GameResult> {
    match text {
        "1-0" => Some(GameResult::WhiteWins),
        "0-1" => Some(GameResult::BlackWins),
        "1/2-1/2" => Some(GameResult::Draw),
        _ => None,
    }
}

/// Rebuilds a stored game: replays its moves and declares a declared result again.
pub(crate) fn round_of(row: GameRow, moves: &[MoveRow]) -> Result<Round, String> {
    let id = row.id.clone();
    let variant =
        Variant::parse(&row.variant).ok_or_else(|| format!("unknown variant {}", row.variant))?;
    let mode = Mode::parse(&row.mode).ok_or_else(|| format!("unknown mode {}", row.mode))?;
    let start = parse_fen(variant, &row.start_fen).map_err(|e| format!("start position: {e}"))?;
    let control = row.base_ms.map(|base| TimeControl {
        base: duration_of_ms(base),
        increment: duration_of_ms(row.increment_ms.unwrap_or(0)),
    });
    let mut round = Round::new(id, mode, start, control);
    for stored in moves {
        let game = &mut round.game;
        if stored.ply as usize != game.ply() {
            return Err(format!("move {} is missing", game.ply() + 1));
        }
        let mv = parse_move(game.position(), &stored.text)
            .map_err(|e| format!("move {}: {e}", stored.ply + 1))?;
        game.play(&mv)
            .map_err(|e| format!("move {}: {e}", stored.ply + 1))?;
        round.move_clocks.push([stored.white_ms, stored.black_ms]);
    }
    let result = row.result.as_deref().and_then(score_of);
    if let (Some(code), None) = (row.reason_code.as_deref(), round.game.outcome()) {
        // Declared results are not found by replaying moves; declare them again.
        let loser = result.and_then(GameResult::winner).map(Color::opponent);
        let game = &mut round.game;
        round.aborted = code == "aborted";
        if code == "abandoned" {
            round.abandoned = result;
        }
        let _ = match (code, loser) {
            ("resignation", Some(loser)) => game.resign(loser),
            ("time", Some(loser)) => game.flag(loser),
            ("agreement", _) => game.agree_draw(),
            ("repetition" | "quiet_moves", _) => game.claim_draw(),
            _ => Ok(()),
        };
    }
    if round.game.outcome().is_none() && round.abandoned.is_none() {
        round.recorded = result;
    }
    round.game.restore_draw_offers(
        row.draw_offer.as_deref().and_then(Color::from_code),
        row.last_offer.as_deref().and_then(Color::from_code),
    );
    let player = |(name, token, joined): (String, Option<String>, bool)| Player {
        name,
        token,
        joined,
    };
    round.white = player(row.white);
    round.black = player(row.black);
    round.level = row.level.and_then(Level::new);
    round.engine_color = row.engine_color.as_deref().and_then(Color::from_code);
    round.creator = row.creator.as_deref().and_then(Seat::parse);
    round.invite = row.invite;
    round.rematch = row
        .rematch_by
        .as_deref()
        .and_then(Color::from_code)
        .map(|offered_by| Rematch {
            offered_by,
            game: row.rematch_game,
        });
    round.tags = serde_json::from_str(&row.tags).unwrap_or_default();
    round.notes = crate::game::notes::Notes::from_stored(&row.notes);
    if let Some(days) = row.days_per_move {
        let days = u32::try_from(days).map_err(|_| format!("days per move: {days}"))?;
        let mut rule = Correspondence::new(days).map_err(|e| format!("days per move: {e}"))?;
        rule.deadline_ms = row.deadline_ms;
        round.correspondence = Some(rule);
    }
    round.created_ms = row.created_ms;
    round.updated_ms = row.updated_ms;
    // The side to move's turn began with the last stored move.
    round.turn_ms = moves.last().map_or(row.created_ms, |mv| mv.at_ms);
    round.version = u64::try_from(row.version).unwrap_or(0);
    for (color, stored) in [(Color::White, row.white_ms), (Color::Black, row.black_ms)] {
        if let Some(ms) = stored {
            round.clock.set_left(color, duration_of_ms(ms));
        }
    }
    round.settle_clock(std::time::Instant::now());
    Ok(round)
}
