//! The games where it is a player's turn. `POST /api/your-turn` takes the seats a browser
//! holds (each game's id and seat token) and answers the games going on between two people
//! where that seat is to move, the nearest deadline first.
//!
//! Tokens travel in the request's body only, never in an address. The store reads the games
//! by their ids; the tokens are compared here, in constant time, as for every action. For a
//! logged-in player the store also gives the games where the account is to move, so the list
//! is the same on every device the player uses.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use bashni_rules::Color;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::app::App;
use crate::game::round::now_ms;
use crate::game::secret::{is_game_id, same_token};
use crate::http::error::ApiError;
use crate::http::games::parse_body;
use crate::store::{MAX_TURN_GAMES, TurnSummary};

/// `POST /api/your-turn`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct YourTurnRequest {
    seats: Vec<SeatRequest>,
}

/// One seat a browser holds.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatRequest {
    id: String,
    token: String,
}

/// The colour `token` plays in `game`, when that seat is one person's (not both seats of a
/// game at one screen, not a game against the engine) and it is its turn.
pub fn seat_to_move(game: &TurnSummary, token: &str) -> Option<Color> {
    if game.engine_color.is_some() {
        return None;
    }
    let holds = |seat: &Option<String>| seat.as_deref().is_some_and(|t| same_token(token, t));
    let color = match (holds(&game.white_token), holds(&game.black_token)) {
        (true, false) => Color::White,
        (false, true) => Color::Black,
        _ => return None,
    };
    (color.code() == game.to_move).then_some(color)
}

/// The games among `games` that wait for the move of the seat `token_of` gives for their id,
/// at `now_ms`: the nearest deadline first, then the games without one (with a clock, or
/// none), the longest waiting first. A game past its deadline is left out: it is lost, and
/// ends at the next sweep.
pub fn waiting_for(
    games: Vec<TurnSummary>,
    token_of: impl Fn(&str) -> Option<String>,
    now_ms: i64,
) -> Vec<(TurnSummary, Color)> {
    let mut waiting: Vec<(TurnSummary, Color)> = games
        .into_iter()
        .filter(|game| game.deadline_ms.is_none_or(|deadline| deadline > now_ms))
        .filter_map(|game| {
            let token = token_of(&game.id)?;
            let color = seat_to_move(&game, &token)?;
            Some((game, color))
        })
        .collect();
    sort_waiting(&mut waiting);
    waiting
}

/// The nearest deadline first, then the games without one, the longest waiting first.
fn sort_waiting(waiting: &mut [(TurnSummary, Color)]) {
    waiting.sort_by(|(a, _), (b, _)| {
        let key = |g: &TurnSummary| (g.deadline_ms.is_none(), g.deadline_ms, g.updated_ms);
        key(a).cmp(&key(b)).then_with(|| a.id.cmp(&b.id))
    });
}

/// One game of the answer.
fn turn_view(game: &TurnSummary, you: Color) -> Value {
    let opponent = match you {
        Color::White => &game.black,
        Color::Black => &game.white,
    };
    json!({
        "id": game.id,
        "variant": game.variant,
        "you": you.code(),
        "opponent": opponent,
        "moves": game.plies.div_ceil(2),
        "plies": game.plies,
        "days_per_move": game.days_per_move,
        "deadline_ms": game.deadline_ms,
        "updated_ms": game.updated_ms,
    })
}

/// The games where one of the seats sent is to move and, for a logged-in player, the games
/// where their account is to move, on any device.
pub async fn your_turn(
    State(app): State<Arc<App>>,
    crate::http::session::Viewer(viewer): crate::http::session::Viewer,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let request: YourTurnRequest = parse_body(body)?;
    if request.seats.len() > MAX_TURN_GAMES {
        return Err(ApiError::bad_request(format!(
            "seats: at most {MAX_TURN_GAMES} games at once"
        )));
    }
    // An id that is not a game id names no game: left out like an unknown one.
    let tokens: HashMap<String, String> = request
        .seats
        .into_iter()
        .filter(|seat| is_game_id(&seat.id))
        .map(|seat| (seat.id, seat.token.trim().to_string()))
        .collect();
    let games = app.database.turns(tokens.keys().cloned().collect()).await?;
    let now = now_ms();
    let mut waiting = waiting_for(games, |id| tokens.get(id).cloned(), now);
    if let Some(account) = viewer {
        // The account's games: the same list on every device it is logged in on.
        let ids: Vec<String> = app
            .database
            .account_turns(account.id)
            .await?
            .into_iter()
            .filter(|id| !waiting.iter().any(|(game, _)| &game.id == id))
            .collect();
        let mine = app.database.turns(ids).await?;
        waiting.extend(mine.into_iter().filter_map(|game| {
            let color = Color::from_code(&game.to_move)?;
            let due = game.deadline_ms.is_none_or(|deadline| deadline > now);
            due.then_some((game, color))
        }));
        sort_waiting(&mut waiting);
    }
    let games: Vec<Value> = waiting
        .iter()
        .map(|(game, you)| turn_view(game, *you))
        .collect();
    Ok(Json(json!({ "games": games, "now_ms": now })))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str, to_move: &str, deadline_ms: Option<i64>, updated_ms: i64) -> TurnSummary {
        TurnSummary {
            id: id.into(),
            variant: "bashni".into(),
            white: "Anna".into(),
            black: "Boris".into(),
            white_token: Some(format!("w-{id}")),
            black_token: Some(format!("b-{id}")),
            engine_color: None,
            to_move: to_move.into(),
            days_per_move: deadline_ms.map(|_| 1),
            deadline_ms,
            plies: 3,
            updated_ms,
        }
    }

    #[test]
    fn only_the_seat_to_move_of_a_game_between_two_people_waits() {
        let g = game("a", "black", Some(10), 1);
        assert_eq!(seat_to_move(&g, "b-a"), Some(Color::Black));
        assert_eq!(seat_to_move(&g, "w-a"), None, "not White's turn");
        assert_eq!(seat_to_move(&g, "x"), None, "not a seat of this game");
        let mut engine = g.clone();
        engine.engine_color = Some("white".into());
        assert_eq!(seat_to_move(&engine, "b-a"), None);
        let mut local = g;
        local.white_token = local.black_token.clone();
        assert_eq!(
            seat_to_move(&local, "b-a"),
            None,
            "both seats at one screen"
        );
    }

    #[test]
    fn the_nearest_deadline_comes_first_and_overdue_games_are_left_out() {
        let games = vec![
            game("clock-new", "white", None, 50),
            game("late", "white", Some(300), 1),
            game("overdue", "white", Some(99), 1),
            game("soon", "black", Some(200), 1),
            game("clock-old", "white", None, 20),
            game("theirs", "black", Some(150), 1),
        ];
        let token = |id: &str| {
            // Black's seat in "soon"; White's everywhere else ("theirs" waits for Black).
            Some(if id == "soon" {
                format!("b-{id}")
            } else {
                format!("w-{id}")
            })
        };
        let order: Vec<String> = waiting_for(games, token, 100)
            .into_iter()
            .map(|(g, _)| g.id)
            .collect();
        assert_eq!(order, ["soon", "late", "clock-old", "clock-new"]);
    }
}
