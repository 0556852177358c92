//! What people do with games, the same for every transport: make a game, join it, move,
//! resign, draw, take back, upload records, analyse. HTTP ([`crate::http::games`]) and the WebSocket
//! ([`crate::socket::game`]) read their requests into these calls and write out the answers.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use bashni_engine::{Info, Level, Limits, Past, Score, StopToken};
use bashni_pdn::{RawGame, ResultToken};
use bashni_rules::{
    BaseUnit, Color, Game, Position, SquareNames, TimeControl, TimeControlError, Variant,
};
use serde::Deserialize;

use crate::account::Account;
use crate::app::events::Happening;
use crate::app::{Acted, ActionError, Answer, App, GameSlot, StateText};
use crate::game::correspondence::Correspondence;
use crate::game::notes::Notes;
use crate::game::round::{
    DrawAction, EndReason, MAX_PLIES, Mode, Player, RematchAction, RematchStep, Round, RoundError,
    Seat,
};
use crate::game::secret::{coin, new_game_id, random_hex, recorded_name};
use crate::store::Change;

mod analysis;
mod new_game;
mod records;

pub use analysis::{Analysis, AnalysisLine, analyse, analysis_line, analysis_refused};
pub use new_game::{
    ColorChoice, Created, NewGame, TimeRequest, address_mut, check_control, check_correspondence,
    create, join,
};
pub use records::{MAX_UPLOAD_GAMES, pdn_text, store_record};

/// The shortest game clock a game may have.
pub const MIN_BASE: Duration = Duration::from_secs(15);
/// The longest.
pub const MAX_BASE: Duration = Duration::from_secs(600 * 60);
/// The largest increment.
pub const MAX_INCREMENT: Duration = Duration::from_secs(180);

/// The longest analysis, per request.
pub const MAX_ANALYSIS: Duration = Duration::from_secs(5);

/// One action of a player in a game, as both transports read it: a JSON object whose
/// `type` names the action (over HTTP the address names it, see [`GameAction::read`]).
/// Each action made during play says the ply it was made for (`ply`: the number of plies the
/// player was shown); a move must say it, the others may. An action made for another ply
/// than the game's is refused with the code `stale` and changes nothing.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum GameAction {
    /// Plays a move (any accepted notation), claiming a draw with it if asked.
    Move {
        /// The move's text.
        #[serde(rename = "move")]
        text: String,
        /// Claim a draw with the move (a third repetition).
        #[serde(default)]
        claim_draw: bool,
        /// The ply the move was made for.
        ply: usize,
    },
    /// Resigns.
    Resign {
        /// The ply the player saw.
        #[serde(default)]
        ply: Option<usize>,
    },
    /// Aborts the game before both sides have moved.
    Abort {
        /// The ply the player saw.
        #[serde(default)]
        ply: Option<usize>,
    },
    /// Offers, accepts, declines or claims a draw.
    Draw {
        /// `offer`, `accept`, `decline` or `claim`.
        action: String,
        /// The ply the player saw.
        #[serde(default)]
        ply: Option<usize>,
    },
    /// Asks to take back moves (or agrees to the other's request).
    Takeback {
        /// The ply the player saw.
        #[serde(default)]
        ply: Option<usize>,
    },
    /// Offers, accepts or declines a rematch after the game.
    Rematch {
        /// `offer`, `accept` or `decline`.
        action: String,
    },
    /// Claims the win or a draw when the opponent left the game.
    Claim {
        /// `win` or `draw`.
        claim: String,
        /// The ply the player saw.
        #[serde(default)]
        ply: Option<usize>,
    },
}

impl GameAction {
    /// The names of the actions, as `type` takes them.
    pub const TYPES: [&'static str; 7] = [
        "move", "resign", "abort", "draw", "takeback", "rematch", "claim",
    ];

    /// Reads an action from the fields of a JSON object; `kind` is its type when the
    /// address names it (HTTP), and the object must then not name another.
    pub fn read(
        kind: Option<&str>,
        mut fields: serde_json::Map<String, serde_json::Value>,
    ) -> Result<GameAction, ActionError> {
        if let Some(kind) = kind {
            match fields.get("type") {
                Some(serde_json::Value::String(named)) if named == kind => {}
                None => {
                    fields.insert("type".into(), kind.into());
                }
                Some(other) => {
                    return Err(ActionError::Invalid(format!(
                        "type: this address takes {kind:?}, not {other}"
                    )));
                }
            }
        }
        serde_json::from_value(serde_json::Value::Object(fields))
            .map_err(|error| ActionError::Invalid(action_error_text(&error.to_string())))
    }

    /// Reads an action from JSON text (an object; empty text is an object without fields),
    /// as [`GameAction::read`] does.
    pub fn parse(kind: Option<&str>, text: &[u8]) -> Result<GameAction, ActionError> {
        let fields = if text.iter().all(u8::is_ascii_whitespace) {
            serde_json::Map::new()
        } else {
            read_json(text)?
        };
        GameAction::read(kind, fields)
    }
}

/// Says serde's complaint about an action in the API's words: `field: what is wrong`.
pub fn action_error_text(text: &str) -> String {
    let quoted = |text: &str| {
        text.split('`')
            .nth(1)
            .map(str::to_string)
            .unwrap_or_default()
    };
    if let Some(rest) = text.strip_prefix("missing field ") {
        let field = quoted(rest);
        if field == "ply" {
            return "ply: missing (the number of plies of the position the move was made for)"
                .into();
        }
        return format!("{field}: missing");
    }
    if let Some(rest) = text.strip_prefix("unknown field ") {
        return format!("{}: not a field of this message", quoted(rest));
    }
    if text.starts_with("unknown variant") {
        return format!("type: expected one of {}", GameAction::TYPES.join(", "));
    }
    text.replace('`', "")
}

/// What a game action did: the version after it, and the new game a rematch made.
pub struct Performed {
    /// The version after the action and, if asked, the state.
    pub acted: Acted,
    /// The id of the game an agreed rematch made.
    pub game: Option<String>,
}

/// Carries out `action` for the holder of `token`: the one place where each action is told
/// from the others, for every transport.
pub async fn perform(
    app: &Arc<App>,
    slot: &Arc<GameSlot>,
    token: Option<&str>,
    action: GameAction,
    answer: Answer<'_>,
) -> Result<Performed, ActionError> {
    let plain = |acted| Performed { acted, game: None };
    match action {
        GameAction::Move {
            text,
            claim_draw,
            ply,
        } => play(app, slot, token, &text, claim_draw, Some(ply), answer)
            .await
            .map(plain),
        GameAction::Resign { ply } => resign(app, slot, token, ply, answer).await.map(plain),
        GameAction::Abort { ply } => abort(app, slot, token, ply, answer).await.map(plain),
        GameAction::Draw { action, ply } => {
            let action = DrawAction::parse(&action)?;
            draw(app, slot, token, action, ply, answer).await.map(plain)
        }
        GameAction::Takeback { ply } => take_back(app, slot, token, ply, answer).await.map(plain),
        GameAction::Rematch { action } => {
            let action = RematchAction::parse(&action)?;
            let (acted, game) = rematch(app, slot, token, action, answer).await?;
            Ok(Performed { acted, game })
        }
        GameAction::Claim { claim, ply } => {
            let claim = crate::app::presence::AbandonClaim::parse(&claim)?;
            crate::app::presence::claim(app, slot, token, claim, ply, answer)
                .await
                .map(plain)
        }
    }
}

/// Carries out `step` for the seat that holds `token`, on the position after `seen` plies
/// when the action names one (a move always does); `step` says what it changed.
async fn seat_action<T>(
    app: &Arc<App>,
    slot: &Arc<GameSlot>,
    token: Option<&str>,
    seen: Option<usize>,
    answer: Answer<'_>,
    mut step: impl FnMut(&mut Round, Seat) -> Result<(T, Change), RoundError>,
) -> Result<(T, Acted), ActionError> {
    app.act(slot, answer, |round| {
        let seat = round.require_seat(token)?;
        round.require_ply(seen)?;
        let (value, change) = step(round, seat)?;
        Ok((value, Some(change)))
    })
    .await
}

/// Plays a move for the holder of `token`; returns the version once it is stored.
pub async fn play(
    app: &Arc<App>,
    slot: &Arc<GameSlot>,
    token: Option<&str>,
    text: &str,
    claim_draw: bool,
    ply: Option<usize>,
    answer: Answer<'_>,
) -> Result<Acted, ActionError> {
    let (_, acted) = seat_action(app, slot, token, ply, answer, |round, seat| {
        round.play(seat, text, claim_draw, app.now())?;
        Ok(((), Change::Move))
    })
    .await?;
    Ok(acted)
}

/// Resigns for the holder of `token`.
pub async fn resign(
    app: &Arc<App>,
    slot: &Arc<GameSlot>,
    token: Option<&str>,
    seen: Option<usize>,
    answer: Answer<'_>,
) -> Result<Acted, ActionError> {
    let (_, acted) = seat_action(app, slot, token, seen, answer, |round, seat| {
        round.resign(seat, app.now())?;
        Ok(((), Change::Game))
    })
    .await?;
    Ok(acted)
}

/// Aborts the game for the holder of `token`, before both sides have moved.
pub async fn abort(
    app: &Arc<App>,
    slot: &Arc<GameSlot>,
    token: Option<&str>,
    seen: Option<usize>,
    answer: Answer<'_>,
) -> Result<Acted, ActionError> {
    let (_, acted) = seat_action(app, slot, token, seen, answer, |round, seat| {
        round.abort(seat, app.now())?;
        Ok(((), Change::Game))
    })
    .await?;
    Ok(acted)
}

/// A rematch action for the holder of `token` after the game; returns the new game's id
/// when this action made it. The new game is stored before this game's change (see
/// [`App::act_making`]).
pub async fn rematch(
    app: &Arc<App>,
    slot: &Arc<GameSlot>,
    token: Option<&str>,
    action: RematchAction,
    answer: Answer<'_>,
) -> Result<(Acted, Option<String>), ActionError> {
    let new_id = new_game_id()?;
    let (made, acted) = app
        .act_making(slot, answer, |round| {
            let seat = round.require_seat(token)?;
            let step = round.rematch(seat, action)?;
            let made = (step == RematchStep::Agreed).then(|| {
                let made = round.rematch_round(new_id.clone(), app.now());
                round.rematch_made(new_id.clone());
                made
            });
            Ok((
                made.is_some().then(|| new_id.clone()),
                Some(Change::Game),
                made,
            ))
        })
        .await?;
    if let Some(id) = &made {
        tracing::debug!(game = %id, "rematch");
    }
    Ok((acted, made))
}

/// A draw action for the holder of `token`. Against the engine an offer is answered by the
/// engine; the call waits (a few seconds at most) for that answer to be stored.
pub async fn draw(
    app: &Arc<App>,
    slot: &Arc<GameSlot>,
    token: Option<&str>,
    action: DrawAction,
    seen: Option<usize>,
    answer: Answer<'_>,
) -> Result<Acted, ActionError> {
    let mut events = slot.events.subscribe();
    let (engine_answers, mut acted) = seat_action(app, slot, token, seen, answer, |round, seat| {
        round.draw(seat, action, app.now())?;
        Ok((round.engine_has_offer(), Change::Game))
    })
    .await?;
    if engine_answers {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while let Ok(Ok(event)) = tokio::time::timeout_at(deadline, events.recv()).await {
            if let crate::app::Event::Update { version, .. } = *event
                && version > acted.version
            {
                let live = slot.live.lock().await;
                if !live.round.engine_has_offer() {
                    acted.version = live.round.version;
                    if let Answer::State(token) = answer {
                        acted.state = Some(live.state_text(live.round.seat_of(token)));
                    }
                    break;
                }
            }
        }
    }
    Ok(acted)
}

/// Deletes account `account` (its password already checked): the account is marked
/// deleted in the store, with its seats renamed to the placeholder; its sessions end (and
/// their sockets close); the copies of its games in memory are brought up to date; the games
/// it still plays between people are lost; then the features are told
/// ([`Happening::AccountDeleted`]). Returns how many games showed the account.
pub async fn delete_account(app: &Arc<App>, account: i64) -> Result<usize, ActionError> {
    let changed = app.database.delete_player(account, app.now_ms()).await?;
    app.accounts.end_sessions(crate::account::SessionEnded {
        account,
        session: None,
    });
    for (id, version) in &changed {
        app.changed_in_store(id, *version).await;
    }
    // The games still going on are lost: nobody waits for a player who is gone.
    let games: Vec<String> = changed.into_iter().map(|(id, _)| id).collect();
    resign_for_deleted(app, account, &games).await;
    app.tell(Happening::AccountDeleted(account)).await;
    Ok(games.len())
}

/// Ends the games between people that a deleted account (`account`) still plays among
/// `games`: its side resigns each, so that no opponent, and no tournament round, waits for
/// a player who is gone. A game that cannot be changed now is logged and left.
async fn resign_for_deleted(app: &Arc<App>, account: i64, games: &[String]) {
    for id in games {
        let slot = match app.slot(id).await {
            Ok(slot) => slot,
            Err(error) => {
                tracing::warn!(game = %id, "a deleted player's game cannot be read: {error:?}");
                continue;
            }
        };
        let resigned = app
            .act(&slot, Answer::Version, |round| {
                let side = [Color::White, Color::Black]
                    .into_iter()
                    .find(|&color| round.account(color) == Some(account));
                match side {
                    Some(color) if round.mode == Mode::Friend && !round.is_over() => {
                        round.resign(Seat::of(color), app.now())?;
                        Ok(((), Some(Change::Game)))
                    }
                    _ => Ok(((), None)),
                }
            })
            .await;
        if let Err(error) = resigned {
            tracing::warn!(game = %id, "a deleted player's game could not be ended: {error:?}");
        }
    }
}

/// Takes back moves for the holder of `token`.
pub async fn take_back(
    app: &Arc<App>,
    slot: &Arc<GameSlot>,
    token: Option<&str>,
    seen: Option<usize>,
    answer: Answer<'_>,
) -> Result<Acted, ActionError> {
    let (_, acted) = seat_action(app, slot, token, seen, answer, |round, seat| {
        let ply = round.take_back(seat, app.now())?;
        Ok(((), Change::TakeBack(ply)))
    })
    .await?;
    Ok(acted)
}

/// The variant named `name`.
pub fn variant_named(name: &str) -> Result<Variant, RoundError> {
    Variant::parse(name).ok_or_else(|| {
        RoundError::Invalid(format!(
            "variant: expected bashni or russian, not {:?}",
            name.chars().take(20).collect::<String>()
        ))
    })
}

/// Reads JSON text that must be an object (a request body or a socket message), with the
/// place of the first error.
pub fn read_json<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, ActionError> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first != Some(&b'{') {
        return Err(ActionError::Invalid(
            "expected a JSON object ({...})".into(),
        ));
    }
    serde_json::from_slice(bytes).map_err(|e| ActionError::Invalid(format!("JSON: {e}")))
}
