//! Game records: a record read from PDN stored as a game, and a game written as PDN.

use super::*;

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
