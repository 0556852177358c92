//! A round as rows and back: the one place the stored form of a game is made and read.

use bashni_engine::Level;
use bashni_rules::notation::{parse_fen, parse_move, write_fen};
use bashni_rules::{Color, GameResult, TimeControl, Variant};
use serde::{Deserialize, Serialize};

use crate::game::correspondence::Correspondence;
use crate::game::round::{Mode, Player, Rematch, Round, Seat, duration_of_ms, millis};

/// A game's row, as both databases hold it.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    restore_offers(
        &mut round,
        row.draw_offer.as_deref(),
        row.last_offer.as_deref(),
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
    restore_clocks(&mut round, [row.white_ms, row.black_ms]);
    Ok(round)
}

/// The stored draw offers (the open one, and the last one made) given back to `round`.
fn restore_offers(round: &mut Round, open: Option<&str>, last: Option<&str>) {
    round.game.restore_draw_offers(
        open.and_then(Color::from_code),
        last.and_then(Color::from_code),
    );
}

/// The stored times left given back to `round`, and the side to move's clock started now
/// if it runs.
fn restore_clocks(round: &mut Round, stored: [Option<i64>; 2]) {
    for (color, stored) in [Color::White, Color::Black].into_iter().zip(stored) {
        if let Some(ms) = stored {
            round.clock.set_left(color, duration_of_ms(ms));
        }
    }
    round.settle_clock(std::time::Instant::now());
}

/// A change of a game that goes on, told to the other servers with its notification, so
/// that a server holding the game brings its copy up to date from the note alone, without
/// reading the game again. Only a move or a take-back in a game not over has one: any other
/// change (seats, offers, an end and its rating) is read from the store.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangeNote {
    /// The version the change was made on: only a copy at that version takes the note.
    pub was: u64,
    /// What was played or taken back.
    pub step: Step,
    /// White's time left after the change, as stored (ms).
    pub white_ms: Option<i64>,
    /// Black's time left.
    pub black_ms: Option<i64>,
    /// The side whose draw offer is open, as stored.
    pub draw_offer: Option<String>,
    /// The side that made the last draw offer, as stored.
    pub last_offer: Option<String>,
    /// When the game last changed (ms since 1970).
    pub updated_ms: i64,
    /// When the side to move's turn began (ms since 1970).
    pub turn_ms: i64,
    /// The side to move's deadline in a correspondence game (ms since 1970).
    pub deadline_ms: Option<i64>,
}

/// The moves a [`ChangeNote`] tells of.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Step {
    /// A move was played, in the rulebooks' notation, with both times stored after it.
    Move {
        /// The move.
        text: String,
        /// White's time after it (ms).
        white_ms: Option<i64>,
        /// Black's time after it (ms).
        black_ms: Option<i64>,
    },
    /// The moves from this ply on were taken back.
    TakeBack {
        /// The first ply taken back.
        ply: u32,
    },
}

/// The note of `change` of `round`, made on version `was`, if the change has one.
pub(crate) fn change_note(
    round: &Round,
    row: &GameRow,
    change: super::Change,
    was: u64,
) -> Option<ChangeNote> {
    if round.is_over() {
        return None;
    }
    let step = match change {
        super::Change::Move => {
            let mv = move_row(round, round.game.ply().checked_sub(1)?)?;
            Step::Move {
                text: mv.text,
                white_ms: mv.white_ms,
                black_ms: mv.black_ms,
            }
        }
        super::Change::TakeBack(ply) => Step::TakeBack {
            ply: u32::try_from(ply).ok()?,
        },
        super::Change::Game => return None,
    };
    Some(ChangeNote {
        was,
        step,
        white_ms: row.white_ms,
        black_ms: row.black_ms,
        draw_offer: row.draw_offer.clone(),
        last_offer: row.last_offer.clone(),
        updated_ms: round.updated_ms,
        turn_ms: round.turn_ms,
        deadline_ms: row.deadline_ms,
    })
}

/// `round` (a copy at the note's `was`) with the change of `note` made, now at `version`:
/// the same round as reading the game again would give. An error says why the note does not
/// fit this copy; the caller then reads the game again.
pub fn apply_note(round: &Round, version: u64, note: &ChangeNote) -> Result<Round, String> {
    if round.version != note.was {
        return Err(format!(
            "the note is for version {}, the copy is at {}",
            note.was, round.version
        ));
    }
    if round.is_over() {
        return Err("the copy's game is over".into());
    }
    let mut next = round.clone();
    match &note.step {
        Step::Move {
            text,
            white_ms,
            black_ms,
        } => {
            let ply = next.game.ply();
            let mv = parse_move(next.game.position(), text)
                .map_err(|e| format!("move {}: {e}", ply + 1))?;
            next.game
                .play(&mv)
                .map_err(|e| format!("move {}: {e}", ply + 1))?;
            next.move_clocks.push([*white_ms, *black_ms]);
        }
        Step::TakeBack { ply } => {
            let ply = *ply as usize;
            if ply > next.game.ply() {
                return Err(format!("no move at ply {} to take back", ply + 1));
            }
            while next.game.ply() > ply {
                next.game.undo();
            }
            next.move_clocks.truncate(ply);
        }
    }
    restore_offers(
        &mut next,
        note.draw_offer.as_deref(),
        note.last_offer.as_deref(),
    );
    if let Some(rule) = next.correspondence.as_mut() {
        rule.deadline_ms = note.deadline_ms;
    }
    next.updated_ms = note.updated_ms;
    next.turn_ms = note.turn_ms;
    next.version = version;
    restore_clocks(&mut next, [note.white_ms, note.black_ms]);
    Ok(next)
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use bashni_rules::{Position, TimeControl, Variant};

    use super::*;
    use crate::store::Change;

    /// A timed game at one screen, with both seats taken.
    fn local_round(variant: Variant) -> Round {
        let control = TimeControl {
            base: Duration::from_secs(60),
            increment: Duration::from_secs(1),
        };
        let mut round = Round::new(
            "n1".into(),
            Mode::Local,
            Position::start(variant),
            Some(control),
        );
        for color in [Color::White, Color::Black] {
            *round.player_mut(color) = Player {
                name: format!("{color:?}"),
                token: Some("aa".into()),
                joined: true,
            };
        }
        round.creator = Some(Seat::Both);
        round
    }

    /// What a server's copy shows of a game: its row, moves, clocks and turn.
    type Seen = (
        GameRow,
        Vec<String>,
        Vec<[Option<i64>; 2]>,
        i64,
        Option<Color>,
    );

    fn seen(round: &Round) -> Seen {
        let moves = round.game.moves().iter().map(ToString::to_string).collect();
        (
            row_of(round),
            moves,
            round.move_clocks.clone(),
            round.turn_ms,
            round.clock.running(),
        )
    }

    /// Played out: every move and every take-back of a long game, told by note to a copy
    /// one version behind, gives the copy the sender's game.
    #[test]
    fn a_copy_given_each_note_is_the_game_its_sender_stored() {
        for variant in [Variant::Bashni, Variant::Russian] {
            let mut sender = local_round(variant);
            let mut copy = sender.clone();
            let mut notes = 0;
            for n in 0u32..160 {
                let was = sender.version;
                let now = Instant::now();
                let change = if n % 7 == 6 && sender.game.ply() > 0 {
                    Change::TakeBack(sender.take_back(Seat::Both, now).expect("a take-back"))
                } else {
                    let legal = sender.game.legal_moves();
                    let Some(mv) = legal.iter().nth(n as usize % legal.len().max(1)) else {
                        break;
                    };
                    sender
                        .play(Seat::Both, &mv.to_string(), false, now)
                        .expect("a legal move");
                    Change::Move
                };
                if sender.is_over() {
                    assert_eq!(
                        change_note(&sender, &row_of(&sender), change, was),
                        None,
                        "an end is read"
                    );
                    break;
                }
                let note = change_note(&sender, &row_of(&sender), change, was).expect("a note");
                // Sent as JSON, as the notification carries it.
                let sent = serde_json::to_string(&note).expect("a note as JSON");
                let note: ChangeNote = serde_json::from_str(&sent).expect("the note read back");
                copy = apply_note(&copy, sender.version, &note).expect("the note fits");
                assert_eq!(seen(&copy), seen(&sender), "{variant:?}, change {n}");
                notes += 1;
            }
            assert!(notes > 40, "{variant:?}: only {notes} notes");
        }
    }

    #[test]
    fn a_note_for_another_version_is_not_applied() {
        let mut sender = local_round(Variant::Russian);
        let behind = sender.clone();
        for text in ["c3-d4", "f6-g5"] {
            sender
                .play(Seat::Both, text, false, Instant::now())
                .expect("legal");
        }
        let note = change_note(&sender, &row_of(&sender), Change::Move, sender.version - 1)
            .expect("a note");
        let refused = apply_note(&behind, sender.version, &note);
        assert!(
            refused.is_err_and(|why| why.contains("version")),
            "a copy two versions behind takes no note"
        );
        // A game changed otherwise than by a move has no note: it is read again.
        assert_eq!(
            change_note(&sender, &row_of(&sender), Change::Game, sender.version - 1),
            None
        );
    }
}
