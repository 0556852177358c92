//! Making a game and taking its free seat: the settings asked for, checked against the
//! server's limits.

use super::*;

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
    round.settle_clock(app.now());
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
            let seat = round.join(invite, name, given.clone(), app.now())?;
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
