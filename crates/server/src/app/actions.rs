//! What people do with games, the same for every transport: make a game, join it, move,
//! resign, draw, take back, upload records, analyse. HTTP ([`crate::http::games`]) and the WebSocket
//! ([`crate::socket::game`]) read their requests into these calls and write out the answers.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bashni_engine::{Info, Level, Limits, Past, Score, StopToken};
use bashni_pdn::{RawGame, ResultToken};
use bashni_rules::{
    BaseUnit, Color, Game, Position, SquareNames, TimeControl, TimeControlError, Variant,
};
use serde::Deserialize;

use crate::account::Account;
use crate::app::{Acted, ActionError, Answer, App, GameSlot, StateText};
use crate::game::correspondence::Correspondence;
use crate::game::notes::Notes;
use crate::game::round::{
    DrawAction, EndReason, MAX_PLIES, Mode, Player, RematchAction, RematchStep, Round, RoundError,
    Seat,
};
use crate::game::secret::{coin, new_game_id, random_hex, recorded_name};
use crate::store::Change;

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

/// Which colour the creator of a game takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    /// This colour.
    Color(Color),
    /// Decided by a coin.
    Random,
}

/// A game to make.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The kind of game (engine, friend or local).
    pub mode: Mode,
    /// The position to start from.
    pub start: Position,
    /// The engine's level, in an engine game.
    pub level: Option<Level>,
    /// The creator's colour.
    pub color: ColorChoice,
    /// The clock, if any.
    pub control: Option<TimeControl>,
    /// The creator's name (already cleaned).
    pub name: Option<String>,
    /// At one screen: the other side's name.
    pub opponent_name: Option<String>,
    /// Days per move of a correspondence game (then `control` is `None`).
    pub days_per_move: Option<u32>,
}

/// A made game: its id, the creator's seat and token, and the invite for a friend.
pub struct Created {
    /// The game's id.
    pub id: String,
    /// The seat the creator holds.
    pub seat: Seat,
    /// The creator's token.
    pub token: String,
    /// The invite code of a friend game.
    pub invite: Option<String>,
    /// The state as the creator sees it.
    pub state: StateText,
}

/// The time a request asks for: minutes for the game and seconds added per move (a clock),
/// or days per move (a correspondence game). The same fields wherever a time is asked for:
/// a new game's `time`, a seek's `clock`, a tournament's `time`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeRequest {
    /// Minutes for the game.
    pub minutes: Option<f64>,
    /// Seconds added after each move.
    pub increment_s: Option<f64>,
    /// Days for each move of a correspondence game: 1, 2, 3 or 7.
    pub days_per_move: Option<f64>,
}

impl TimeRequest {
    /// A clock within the server's limits; errors name the fields under `field`.
    pub fn clock(&self, field: &str) -> Result<TimeControl, ActionError> {
        if self.days_per_move.is_some() {
            return Err(ActionError::Invalid(format!(
                "{field}.days_per_move: only a clock here (minutes and increment_s)"
            )));
        }
        let minutes = self
            .minutes
            .ok_or_else(|| ActionError::Invalid(format!("{field}.minutes: missing")))?;
        let increment = self.increment_s.unwrap_or(0.0);
        let control =
            TimeControl::from_numbers(minutes, BaseUnit::Minutes, increment).map_err(|error| {
                let part = match error {
                    TimeControlError::IncrementOutOfRange => "increment_s",
                    _ => "minutes",
                };
                ActionError::Invalid(format!("{field}.{part}: {error}"))
            })?;
        check_control(control, field)
    }

    /// A clock, or days per move (checked against the offered days when the game is made).
    pub fn rule(&self, field: &str) -> Result<(Option<TimeControl>, Option<u32>), ActionError> {
        let Some(days) = self.days_per_move else {
            if self.minutes.is_none() {
                return Err(ActionError::Invalid(format!(
                    "{field}.minutes: missing (or give days_per_move for correspondence)"
                )));
            }
            return Ok((Some(self.clock(field)?), None));
        };
        if self.minutes.is_some() || self.increment_s.is_some() {
            return Err(ActionError::Invalid(format!(
                "{field}: give minutes and increment_s for a clock, or days_per_move alone for \
                 correspondence"
            )));
        }
        if days.fract() != 0.0 || !(0.0..=f64::from(u32::MAX)).contains(&days) {
            return Err(ActionError::Invalid(format!(
                "{field}.days_per_move: expected a whole number of days: 1, 2, 3 or 7"
            )));
        }
        Ok((None, Some(days as u32)))
    }
}

/// Checks a clock against the server's limits; errors name the fields under `field`.
pub fn check_control(control: TimeControl, field: &str) -> Result<TimeControl, ActionError> {
    if control.base < MIN_BASE || control.base > MAX_BASE {
        return Err(ActionError::Invalid(format!(
            "{field}.minutes: from {} to {} minutes",
            MIN_BASE.as_secs_f64() / 60.0,
            MAX_BASE.as_secs() / 60
        )));
    }
    if control.increment > MAX_INCREMENT {
        return Err(ActionError::Invalid(format!(
            "{field}.increment_s: from 0 to {} seconds",
            MAX_INCREMENT.as_secs()
        )));
    }
    Ok(control)
}

/// Checks a correspondence game's days per move, and that it is a game for two people
/// online with no clock besides.
pub fn check_correspondence(new: &NewGame) -> Result<Option<Correspondence>, ActionError> {
    let Some(days) = new.days_per_move else {
        return Ok(None);
    };
    let rule = Correspondence::new(days)
        .map_err(|error| ActionError::Invalid(format!("time.days_per_move: {error}")))?;
    if new.mode != Mode::Friend {
        return Err(ActionError::Invalid(format!(
            "time.days_per_move: correspondence is for two people online (mode friend), \
             not for a game in mode {}",
            new.mode.name()
        )));
    }
    if new.control.is_some() {
        return Err(ActionError::Invalid(
            "time: a game has a clock or days per move, not both".into(),
        ));
    }
    Ok(Some(rule))
}

/// Refuses a rated game that cannot count: only a game between two people online, with a
/// clock or days per move, from the usual start position, is rated.
fn check_rated(new: &NewGame) -> Result<(), ActionError> {
    if new.mode != Mode::Friend {
        return Err(ActionError::Invalid(format!(
            "rated: only games between two people (mode friend) are rated, not a game in mode {}",
            new.mode.name()
        )));
    }
    if new.control.is_none() && new.days_per_move.is_none() {
        return Err(ActionError::Invalid(
            "rated: a rated game needs a clock or days per move (time)".into(),
        ));
    }
    if new.start != Position::start(new.start.variant()) {
        return Err(ActionError::Invalid(
            "rated: a rated game starts from the usual position".into(),
        ));
    }
    Ok(())
}

/// Where the address of the seat of `color` is kept.
pub fn address_mut(round: &mut Round, color: Color) -> &mut Option<String> {
    match color {
        Color::White => &mut round.white_address,
        Color::Black => &mut round.black_address,
    }
}

/// Makes a game; the creator's seat goes to `account` when a player is logged in, noting
/// the address the seat was taken from; `rated` asks for a rated game (a friend game with a clock or days per move, from
/// the usual start; the caller has checked that the creator is logged in).
pub async fn create(
    app: &Arc<App>,
    new: NewGame,
    account: Option<&Account>,
    address: Option<IpAddr>,
    rated: bool,
) -> Result<Created, ActionError> {
    if rated {
        check_rated(&new)?;
    }
    let control = new.control.map(|c| check_control(c, "time")).transpose()?;
    let correspondence = check_correspondence(&new)?;
    let creator = match new.color {
        ColorChoice::Color(color) => color,
        ColorChoice::Random if coin()? => Color::White,
        ColorChoice::Random => Color::Black,
    };
    let token = random_hex(16)?;
    let mut round = Round::new(new_game_id()?, new.mode, new.start, control);
    // The first deadline starts once the second player takes the free seat.
    round.correspondence = correspondence;
    let name = new.name.unwrap_or_default();
    let seat = match new.mode {
        Mode::Local => Seat::Both,
        _ => Seat::of(creator),
    };
    round.creator = Some(seat);
    {
        let mine = round.player_mut(creator);
        mine.token = Some(token.clone());
        mine.joined = true;
    }
    match new.mode {
        Mode::Engine => {
            let level = new
                .level
                .unwrap_or_else(|| Level::new(4).unwrap_or_else(Level::full));
            round.level = Some(level);
            round.engine_color = Some(creator.opponent());
            round.player_mut(creator).name = if name.is_empty() { "You".into() } else { name };
            *round.player_mut(creator.opponent()) = Player {
                name: format!("Engine, level {} ({})", level.number(), level.name()),
                token: None,
                joined: true,
            };
        }
        Mode::Friend => {
            round.player_mut(creator).name = if name.is_empty() {
                creator.code().to_string()
            } else {
                name
            };
            round.invite = Some(random_hex(16)?);
        }
        Mode::Local | Mode::Record => {
            // At one screen the creator holds both seats with one token.
            let (white, black) = (
                if name.is_empty() {
                    "White".to_string()
                } else {
                    name
                },
                new.opponent_name.unwrap_or_else(|| "Black".to_string()),
            );
            let (white, black) = match creator {
                Color::White => (white, black),
                Color::Black => (black, white),
            };
            round.white = Player {
                name: white,
                token: Some(token.clone()),
                joined: true,
            };
            round.black = Player {
                name: black,
                token: Some(token.clone()),
                joined: true,
            };
        }
    }
    if let Some(account) = account {
        round.seat_account(creator, account.id, &account.name)?;
    }
    round.rated = rated;
    if new.mode == Mode::Friend {
        *address_mut(&mut round, creator) = address.map(|address| address.to_string());
    }
    // No clock runs yet: each side's first move is free of time (see `Round::clock_runs`).
    round.settle_clock(Instant::now());
    let invite = round.invite.clone();
    let id = round.id.clone();
    let slot = app.insert(round).await?;
    let state = slot.live.lock().await.state_text(Some(seat));
    tracing::debug!(game = %id, mode = new.mode.name(), "new game");
    Ok(Created {
        id,
        seat,
        token,
        invite,
        state,
    })
}

/// Takes the free seat of a friend game with its invite code, for `account` when a player
/// is logged in, noting the address the seat was taken from; returns the seat, its new
/// token and the state as that seat sees it.
pub async fn join(
    app: &Arc<App>,
    slot: &Arc<GameSlot>,
    invite: &str,
    name: Option<String>,
    account: Option<&Account>,
    address: Option<IpAddr>,
) -> Result<(Seat, String, StateText), ActionError> {
    let token = random_hex(16)?;
    let given = token.clone();
    let (seat, acted) = app
        .act(slot, Answer::State(Some(&token)), move |round| {
            let name = name.clone().unwrap_or_default();
            let seat = round.join(invite, name, given.clone(), Instant::now())?;
            if let (Some(account), Some(color)) = (account, seat.color()) {
                round.seat_account(color, account.id, &account.name)?;
            }
            if let Some(color) = seat.color() {
                *address_mut(round, color) = address.map(|address| address.to_string());
            }
            Ok((seat, Some(Change::Game)))
        })
        .await?;
    let state = acted
        .state
        .ok_or_else(|| ActionError::Unavailable("no state".into()))?;
    Ok((seat, token, state))
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
    let (_, acted) = app
        .act(slot, answer, |round| {
            let seat = round.require_seat(token)?;
            round.require_ply(ply)?;
            round.play(seat, text, claim_draw, Instant::now())?;
            Ok(((), Some(Change::Move)))
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
    let (_, acted) = app
        .act(slot, answer, |round| {
            let seat = round.require_seat(token)?;
            round.require_ply(seen)?;
            round.resign(seat, Instant::now())?;
            Ok(((), Some(Change::Game)))
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
    let (_, acted) = app
        .act(slot, answer, |round| {
            let seat = round.require_seat(token)?;
            round.require_ply(seen)?;
            round.abort(seat, Instant::now())?;
            Ok(((), Some(Change::Game)))
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
                let made = round.rematch_round(new_id.clone(), Instant::now());
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
    let (engine_answers, mut acted) = app
        .act(slot, answer, |round| {
            let seat = round.require_seat(token)?;
            round.require_ply(seen)?;
            round.draw(seat, action, Instant::now())?;
            Ok((round.engine_has_offer(), Some(Change::Game)))
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

/// Ends the games between people that a deleted account (`account`) still plays among
/// `games`: its side resigns each, so that no opponent, and no tournament round, waits for
/// a player who is gone. A game that cannot be changed now is logged and left.
pub async fn resign_for_deleted(app: &Arc<App>, account: i64, games: &[String]) {
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
                        round.resign(Seat::of(color), Instant::now())?;
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
    let (_, acted) = app
        .act(slot, answer, |round| {
            let seat = round.require_seat(token)?;
            round.require_ply(seen)?;
            let ply = round.take_back(seat, Instant::now())?;
            Ok(((), Some(Change::TakeBack(ply))))
        })
        .await?;
    Ok(acted)
}

/// The most games one upload may hold.
pub const MAX_UPLOAD_GAMES: usize = 200;

/// Stores a game read from PDN as a record; returns its id.
pub async fn store_record(
    app: &Arc<App>,
    raw: &RawGame,
    game: Game,
) -> Result<String, ActionError> {
    if game.ply() > MAX_PLIES {
        return Err(ActionError::Invalid(format!(
            "the game has {} plies; the server keeps games of at most {MAX_PLIES}",
            game.ply()
        )));
    }
    let name = |tag: &str, default: &str| {
        raw.tag(tag)
            .filter(|v| v.trim() != "?")
            .and_then(recorded_name)
            .unwrap_or_else(|| default.to_string())
    };
    let result = raw
        .result
        .or_else(|| raw.tag("Result").and_then(ResultToken::from_token))
        .and_then(|r| match r {
            ResultToken::Score(score) => Some(score),
            _ => None,
        });
    let mut round = Round::new(new_game_id()?, Mode::Record, *game.start_position(), None);
    round.white = Player {
        name: name("White", "White"),
        token: None,
        joined: true,
    };
    round.black = Player {
        name: name("Black", "Black"),
        token: None,
        joined: true,
    };
    round.tags = raw
        .tags
        .iter()
        .filter(|(name, _)| !matches!(name.as_str(), "Result" | "GameType" | "FEN"))
        .map(|(name, value)| {
            let value: String = value
                .chars()
                .filter(|c| !c.is_control())
                .take(400)
                .collect();
            (name.chars().take(40).collect(), value)
        })
        .take(64)
        .collect();
    // Comments and variations, their moves written in full as the rules read them.
    round.notes = Notes::of(&bashni_pdn::rewrite(
        raw,
        &game,
        bashni_pdn::MoveForm::Full,
        SquareNames::Letters,
    ));
    round.move_clocks = vec![[None, None]; game.ply()];
    round.game = game;
    if round.game.outcome().is_none() {
        round.recorded = result;
    }
    let id = round.id.clone();
    app.insert(round).await?;
    Ok(id)
}

/// One line of an analysis.
pub struct AnalysisLine {
    /// The score for the side to move.
    pub score: Score,
    /// The moves, in full notation.
    pub moves: Vec<String>,
    /// The first move's start square and landing squares, for an arrow; empty without moves.
    pub path: Vec<String>,
}

/// The line the engine reports in `info`, for the current position of `game`: its moves
/// written out as long as the rules accept them.
pub fn analysis_line(game: &Game, info: &Info) -> AnalysisLine {
    let mut line = game.clone();
    let mut moves = Vec::new();
    let mut path = Vec::new();
    for mv in &info.pv {
        let before = *line.position();
        if line.play(mv).is_err() {
            break;
        }
        if moves.is_empty() {
            path = crate::game::view::MoveView::of(&before, mv).path;
        }
        moves.push(mv.to_string());
    }
    AnalysisLine {
        score: info.score,
        moves,
        path,
    }
}

/// What the engine says about a position.
pub struct Analysis {
    /// The side to move.
    pub side: Color,
    /// The depth reached.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The best lines.
    pub lines: Vec<AnalysisLine>,
}

/// The words for an analysis the engine pool refused.
pub fn analysis_refused(app: &App, refusal: crate::app::engines::PoolRefusal) -> ActionError {
    match refusal {
        crate::app::engines::PoolRefusal::ClientBusy => ActionError::TooMany(format!(
            "you already have {} analyses running; wait for them",
            app.engines.analyses_per_client
        )),
        crate::app::engines::PoolRefusal::QueueFull => ActionError::TooMany(
            "the engines are busy with other analyses; try again in a few seconds".into(),
        ),
    }
}

/// Analyses the current position of `game` (its moves count for repetitions) for `client`:
/// at most [`MAX_ANALYSIS`], `lines` best lines. Games' engine moves come first; when the
/// caller stops waiting, the search stops.
pub async fn analyse(
    app: &Arc<App>,
    client: IpAddr,
    game: Game,
    movetime: Duration,
    depth: Option<u32>,
    lines: usize,
) -> Result<Analysis, ActionError> {
    let side = game.side_to_move();
    if game.legal_moves().is_empty() {
        return Ok(Analysis {
            side,
            depth: 0,
            nodes: 0,
            lines: Vec::new(),
        });
    }
    let stop = StopToken::new();
    let limits = Limits {
        movetime: Some(movetime.clamp(Duration::from_millis(1), MAX_ANALYSIS)),
        depth: depth.map(|d| d.clamp(1, 64)),
        ..Limits::default()
    }
    .with_stop(stop.clone());
    let lines = lines.clamp(1, 5);
    let analysis = app
        .engines
        .analyse(client, stop, move |engine| {
            let result =
                engine.search_lines(game.position(), &Past::of(&game), &limits, lines, |_| {});
            let lines = result
                .lines
                .iter()
                .map(|info| analysis_line(&game, info))
                .collect();
            Analysis {
                side,
                depth: result.depth,
                nodes: result.nodes,
                lines,
            }
        })
        .await
        .map_err(|refusal| analysis_refused(app, refusal))?;
    analysis.ok_or_else(|| ActionError::Unavailable("the engine is not available".into()))
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

/// The game as PDN text.
pub fn pdn_text(round: &Round) -> String {
    let mut tags: Vec<(String, String)> = if round.tags.is_empty() {
        let event = match round.variant() {
            Variant::Bashni => "Bashni game",
            Variant::Russian => "Russian draughts game",
        };
        let mut tags = vec![
            ("Event".to_string(), event.to_string()),
            ("Site".to_string(), "bashni serve".to_string()),
            (
                "Date".to_string(),
                bashni_pdn::date_tag_of_ms(round.created_ms),
            ),
            ("White".to_string(), round.white.name.clone()),
            ("Black".to_string(), round.black.name.clone()),
        ];
        if let Some(control) = round.control() {
            tags.push(("TimeControl".to_string(), control.pdn_tag()));
        }
        if let Some(rule) = round.correspondence {
            tags.push(("TimeControl".to_string(), rule.control().pdn_tag()));
        }
        tags
    } else {
        round.tags.clone()
    };
    // Why the game ended, unless the tags kept from an upload say it already, or nobody
    // knows (a record with a bare result).
    if let Some(ending) = round.ending()
        && ending.reason != EndReason::Recorded(None)
        && !tags.iter().any(|(name, _)| name == "Termination")
    {
        tags.push(("Termination".to_string(), ending.reason_text()));
    }
    let mut raw = bashni_pdn::record(&round.game, &tags, bashni_pdn::MoveForm::Full);
    if let Some(notes) = &round.notes {
        notes.apply(&mut raw);
    }
    if round.game.outcome().is_none()
        && let Some(result) = round.recorded.or(round.abandoned)
    {
        // A record's result, or one claimed when a player left (the rules cannot rebuild
        // either from the moves), is written as stored.
        let token = ResultToken::Score(result);
        raw.result = Some(token);
        for (name, value) in raw.tags.iter_mut() {
            if name == "Result" {
                *value = token.token().to_string();
            }
        }
    }
    let mut text = String::new();
    let _ = bashni_pdn::write_game(&mut text, &raw);
    text
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
