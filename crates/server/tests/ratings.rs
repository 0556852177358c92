//! Rated games and ratings: a rated game's end changes both players' ratings once, as
//! Glicko-2 computes them from the stored ratings; games that do not count (one address,
//! the engine, aborted, guests) change nothing; rated seeks in the lobby; on PostgreSQL, two
//! servers apply a game's end once, and two games of one player ending at once both count.

mod common;

use std::sync::Arc;

use axum::http::StatusCode;
use bashni_club::GameScore;
use bashni_club::rating::{Glicko2, Rating};
use bashni_server::store::Change;
use bashni_server::{App, Database, PgStore, Settings, Store};
use common::pg::Postgres;
use common::visitor::*;
use common::*;
use serde_json::{Value, json};

type Error = Box<dyn std::error::Error>;

impl Visitor {
    async fn signup(&mut self, name: &str) -> Result<(), Error> {
        let body = json!({"name": name, "password": "correct horse"});
        let (status, answer) = self
            .call("POST", "/api/account/signup", None, Some(body))
            .await?;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
        Ok(())
    }
}

/// A rated friend game between `white` (who makes it) and `black` (who joins): its id and
/// both tokens, and the state after joining.
async fn rated_game(
    white: &mut Visitor,
    black: &mut Visitor,
    time: Value,
) -> Result<(String, String, String, Value), Error> {
    let body = json!({"variant": "russian", "mode": "friend", "color": "white", "rated": true,
        "time": time});
    let (status, made) = white.call("POST", "/api/games", None, Some(body)).await?;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    assert_eq!(made["state"]["rated"], true, "{made}");
    let id = made["id"].as_str().ok_or("no id")?.to_string();
    let white_token = made["token"].as_str().ok_or("no token")?.to_string();
    let invite = made["invite_url"].as_str().ok_or("no invite")?;
    let code = invite.rsplit('/').next().ok_or("no code")?;
    let (status, joined) = black
        .call(
            "POST",
            &format!("/api/games/{id}/join"),
            None,
            Some(json!({"invite": code})),
        )
        .await?;
    assert_eq!(status, StatusCode::OK, "{joined}");
    let black_token = joined["token"].as_str().ok_or("no token")?.to_string();
    Ok((id, white_token, black_token, joined["state"].clone()))
}

/// Both sides make a move, then `loser` resigns; returns the final state.
async fn play_and_resign(
    visitor: &mut Visitor,
    id: &str,
    tokens: [&str; 2],
    loser: usize,
) -> Result<Value, Error> {
    for token in tokens {
        let (_, state) = visitor
            .call("GET", &format!("/api/games/{id}"), None, None)
            .await?;
        let text = state["legal_moves"][0]["text"]
            .as_str()
            .ok_or("no legal move")?
            .to_string();
        let (status, moved) = visitor
            .call(
                "POST",
                &format!("/api/games/{id}/move"),
                Some(token),
                Some(json!({"move": text, "ply": state["ply"]})),
            )
            .await?;
        assert_eq!(status, StatusCode::OK, "{moved}");
    }
    let (status, resigned) = visitor
        .call(
            "POST",
            &format!("/api/games/{id}/resign"),
            Some(tokens[loser]),
            Some(json!({})),
        )
        .await?;
    assert_eq!(status, StatusCode::OK, "{resigned}");
    let (_, state) = visitor
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await?;
    Ok(state)
}

/// A player's page.
async fn page(visitor: &mut Visitor, name: &str) -> Result<Value, Error> {
    let (status, page) = visitor
        .call("GET", &format!("/api/players/{name}"), None, None)
        .await?;
    assert_eq!(status, StatusCode::OK, "{page}");
    Ok(page)
}

fn shown(rating: Rating) -> i64 {
    rating.rating.round() as i64
}

fn blitz() -> Value {
    json!({"minutes": 3, "increment_s": 2})
}

/// Two rated games between the same players: each end changes both ratings as Glicko-2
/// computes them from the ratings before it; the page, the game's state, the history and
/// the leaderboard show them; storing the end again changes nothing.
async fn rated_suite(app: &Arc<App>) -> Result<(), Error> {
    let mut anna = Visitor::new(app, 1);
    let mut boris = Visitor::new(app, 2);
    anna.signup("Anna").await?;
    boris.signup("Boris").await?;
    let system = Glicko2::default();

    let (id, white, black, joined) = rated_game(&mut anna, &mut boris, blitz()).await?;
    assert_eq!(joined["rated"], true, "{joined}");
    assert_eq!(joined["unrated_reason"], Value::Null);
    let state = play_and_resign(&mut anna, &id, [&white, &black], 1).await?;
    let (anna_1, boris_1) = system.rate_game(Rating::NEW, Rating::NEW, GameScore::WhiteWins);
    assert_eq!(state["rating"]["white"]["before"], 1500, "{state}");
    assert_eq!(state["rating"]["white"]["after"], shown(anna_1), "{state}");
    assert_eq!(state["rating"]["black"]["after"], shown(boris_1), "{state}");
    assert_eq!(
        state["rating"]["white"]["diff"],
        shown(anna_1) - 1500,
        "{state}"
    );

    // The second game starts from the stored ratings; Boris wins with Black.
    let (id_2, white_2, black_2, _) = rated_game(&mut anna, &mut boris, blitz()).await?;
    let state = play_and_resign(&mut anna, &id_2, [&white_2, &black_2], 0).await?;
    let (anna_2, boris_2) = system.rate_game(anna_1, boris_1, GameScore::BlackWins);
    assert_eq!(state["rating"]["white"]["before"], shown(anna_1), "{state}");
    assert_eq!(state["rating"]["white"]["after"], shown(anna_2), "{state}");
    assert_eq!(state["rating"]["black"]["after"], shown(boris_2), "{state}");

    let anna_page = page(&mut anna, "Anna").await?;
    let blitz_rating = &anna_page["ratings"]["russian"]["blitz"];
    assert_eq!(blitz_rating["rating"], shown(anna_2), "{anna_page}");
    assert_eq!(
        blitz_rating["deviation"],
        anna_2.deviation.round() as i64,
        "{anna_page}"
    );
    assert_eq!(blitz_rating["games"], 2);
    assert_eq!(blitz_rating["provisional"], anna_2.is_provisional());
    let history = &anna_page["rating_history"]["russian"]["blitz"];
    assert_eq!(history[0]["rating"], shown(anna_1), "{anna_page}");
    assert_eq!(history[0]["game"], id.as_str());
    assert_eq!(history[1]["rating"], shown(anna_2));
    assert_eq!(history[1]["game"], id_2.as_str());
    assert_eq!(
        page(&mut anna, "Boris").await?["ratings"]["russian"]["blitz"]["rating"],
        shown(boris_2)
    );

    // Storing the game's end once more (a later change of the ended game) changes nothing.
    let stored = app.database.load(&id_2).await?.ok_or("the game is gone")?;
    assert!(
        stored.rating.is_some(),
        "the stored game has no rating change"
    );
    let mut again = stored.clone();
    again.rating = None;
    let was = again.version;
    again.version += 1;
    let (back, saved) = app.database.save(again, Change::Game, was).await;
    saved?;
    assert_eq!(back.and_then(|round| round.rating), None);
    let after = page(&mut anna, "Anna").await?;
    assert_eq!(after["ratings"], anna_page["ratings"]);
    assert_eq!(after["rating_history"], anna_page["rating_history"]);

    // The leaderboard lists both, the better first; a pace nobody played is empty.
    let (status, board) = anna
        .call(
            "GET",
            "/api/leaderboard?variant=russian&pace=blitz",
            None,
            None,
        )
        .await?;
    assert_eq!(status, StatusCode::OK, "{board}");
    let names: Vec<&str> = board["players"]
        .as_array()
        .ok_or("no players")?
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    let best_first = if anna_2.rating > boris_2.rating {
        ["Anna", "Boris"]
    } else {
        ["Boris", "Anna"]
    };
    assert_eq!(names, best_first, "{board}");
    let (_, empty) = anna
        .call(
            "GET",
            "/api/leaderboard?variant=bashni&pace=rapid",
            None,
            None,
        )
        .await?;
    assert_eq!(empty["players"], json!([]));
    let (status, refused) = anna
        .call("GET", "/api/leaderboard?pace=fast", None, None)
        .await?;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(refused["error"].as_str().unwrap_or("").contains("pace"));
    Ok(())
}

/// Games that do not count change no rating: two accounts at one address, an aborted
/// game; an engine game cannot be rated, and guests are refused.
async fn unrated_suite(app: &Arc<App>) -> Result<(), Error> {
    let mut carl = Visitor::new(app, 5);
    let mut dora = Visitor::new(app, 5);
    carl.signup("Carl").await?;
    dora.signup("Dora").await?;
    let (id, white, black, joined) = rated_game(&mut carl, &mut dora, blitz()).await?;
    assert_eq!(joined["rated"], false, "{joined}");
    assert_eq!(joined["unrated_reason"], "same address");
    let state = play_and_resign(&mut carl, &id, [&white, &black], 1).await?;
    assert_eq!(state["rating"], Value::Null, "{state}");
    assert_eq!(page(&mut carl, "Carl").await?["ratings"], json!({}));

    // Aborted before both sides moved.
    let mut erik = Visitor::new(app, 6);
    erik.signup("Erik").await?;
    let (id, white, _, _) = rated_game(&mut erik, &mut carl, blitz()).await?;
    let (status, aborted) = erik
        .call(
            "POST",
            &format!("/api/games/{id}/abort"),
            Some(&white),
            Some(json!({})),
        )
        .await?;
    assert_eq!(status, StatusCode::OK, "{aborted}");
    let (_, state) = erik
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await?;
    assert_eq!(state["rated"], false, "{state}");
    assert_eq!(state["unrated_reason"], "aborted");
    assert_eq!(page(&mut erik, "Erik").await?["ratings"], json!({}));

    // Seam 7: resigned before both sides moved (White moved, Black resigns): played out,
    // but not rated.
    let mut fred = Visitor::new(app, 7);
    fred.signup("Fred").await?;
    let (id, white, black, _) = rated_game(&mut erik, &mut fred, blitz()).await?;
    let (status, moved) = erik
        .call(
            "POST",
            &format!("/api/games/{id}/move"),
            Some(&white),
            Some(json!({"move": "c3-d4", "ply": 0})),
        )
        .await?;
    assert_eq!(status, StatusCode::OK, "{moved}");
    let (status, resigned) = fred
        .call(
            "POST",
            &format!("/api/games/{id}/resign"),
            Some(&black),
            Some(json!({"ply": 1})),
        )
        .await?;
    assert_eq!(status, StatusCode::OK, "{resigned}");
    assert_eq!(resigned["result"]["code"], "resignation");
    assert_eq!(resigned["rated"], false, "{resigned}");
    assert_eq!(resigned["unrated_reason"], "ended before both sides moved");
    assert_eq!(resigned["rating"], Value::Null);
    assert_eq!(page(&mut erik, "Erik").await?["ratings"], json!({}));
    assert_eq!(page(&mut fred, "Fred").await?["ratings"], json!({}));

    // The engine never plays rated games.
    let (status, refused) = erik
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"variant": "russian", "mode": "engine", "rated": true, "time": blitz()})),
        )
        .await?;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    assert!(refused["error"].as_str().unwrap_or("").contains("rated"));

    // A guest can neither make nor join a rated game.
    let mut guest = Visitor::new(app, 7);
    let (status, refused) = guest
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"variant": "russian", "mode": "friend", "rated": true, "time": blitz()})),
        )
        .await?;
    assert_eq!(status, StatusCode::FORBIDDEN, "{refused}");
    assert_eq!(refused["code"], "rated_needs_account");
    let body = json!({"variant": "russian", "mode": "friend", "rated": true, "time": blitz()});
    let (_, made) = erik.call("POST", "/api/games", None, Some(body)).await?;
    let id = made["id"].as_str().ok_or("no id")?;
    let code = made["invite_url"]
        .as_str()
        .and_then(|url| url.rsplit('/').next())
        .ok_or("no invite")?;
    let (status, refused) = guest
        .call(
            "POST",
            &format!("/api/games/{id}/join"),
            None,
            Some(json!({"invite": code})),
        )
        .await?;
    assert_eq!(status, StatusCode::FORBIDDEN, "{refused}");
    assert_eq!(refused["code"], "rated_needs_account");
    Ok(())
}

fn settings() -> Settings {
    Settings {
        login_attempts_per_minute: 1000,
        ..test_settings()
    }
}

#[tokio::test]
async fn rated_games_change_ratings_once_on_sqlite() -> Result<(), Error> {
    let app = App::new(Store::in_memory()?, settings());
    rated_suite(&app).await?;
    unrated_suite(&app).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rated_games_change_ratings_once_on_postgres() -> Result<(), Error> {
    let postgres = Postgres::start("ratings")?;
    let url = postgres.database("ratings").await?;
    let app = App::new(PgStore::connect(&url).await?, settings());
    rated_suite(&app).await?;
    unrated_suite(&app).await
}

/// Lobby sockets of two logged-in players at two addresses (the server is behind a proxy
/// that names them), and of a guest.
mod lobby {
    use super::*;
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;

    async fn socket(
        addr: std::net::SocketAddr,
        cookie: Option<&str>,
        address: &str,
    ) -> Result<Socket, Error> {
        let mut request = format!("ws://{addr}/api/lobby/ws").into_client_request()?;
        request
            .headers_mut()
            .insert("x-forwarded-for", address.parse()?);
        if let Some(cookie) = cookie {
            request
                .headers_mut()
                .insert("cookie", format!("bashni_session={cookie}").parse()?);
            request
                .headers_mut()
                .insert("origin", format!("http://{addr}").parse()?);
        }
        let (mut socket, _) = tokio_tungstenite::connect_async(request).await?;
        next_json(&mut socket, "seeks").await?;
        Ok(socket)
    }

    /// The reply to the message with `id`: an ack or an error.
    async fn reply(socket: &mut Socket, id: u32) -> Result<Value, Error> {
        use futures_util::StreamExt;
        loop {
            let message = tokio::time::timeout(std::time::Duration::from_secs(5), socket.next())
                .await?
                .ok_or("socket closed")??;
            if let Ok(text) = message.to_text()
                && let Ok(value) = serde_json::from_str::<Value>(text)
                && value["id"] == id
            {
                return Ok(value);
            }
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_rated_seek_needs_an_account_and_makes_a_rated_game() -> Result<(), Error> {
        let app = App::new(
            Store::in_memory()?,
            Settings {
                behind_proxy: true,
                ..settings()
            },
        );
        let mut anna = Visitor::new(&app, 1);
        let mut boris = Visitor::new(&app, 2);
        anna.signup("Anna").await?;
        boris.signup("Boris").await?;
        let addr = serve(&app).await?;
        let seek = json!({"type": "seek", "id": 1, "variant": "russian",
            "clock": {"minutes": 3, "increment_s": 2}, "rated": true, "color": "white"});

        let mut guest = socket(addr, None, "10.0.0.9").await?;
        send_json(&mut guest, seek.clone()).await?;
        let refused = reply(&mut guest, 1).await?;
        assert_eq!(refused["code"], "rated_needs_account", "{refused}");

        // Another site's page may not open a socket that acts for Anna.
        let mut foreign = format!("ws://{addr}/api/lobby/ws").into_client_request()?;
        let cookie = format!(
            "bashni_session={}",
            anna.cookie.as_deref().unwrap_or_default()
        );
        foreign.headers_mut().insert("cookie", cookie.parse()?);
        foreign
            .headers_mut()
            .insert("origin", "http://evil.example".parse()?);
        match tokio_tungstenite::connect_async(foreign).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
                assert_eq!(response.status(), StatusCode::FORBIDDEN);
            }
            other => panic!("a socket from another site was not refused: {other:?}"),
        }

        let mut a = socket(addr, anna.cookie.as_deref(), "10.0.0.1").await?;
        send_json(&mut a, seek.clone()).await?;
        let ack = reply(&mut a, 1).await?;
        let seek_id = ack["seek"].as_str().ok_or("no seek id")?.to_string();

        // A guest may not take it; nor may Anna's own account from another socket.
        let accept = json!({"type": "accept", "id": 2, "seek": seek_id});
        send_json(&mut guest, accept.clone()).await?;
        assert_eq!(reply(&mut guest, 2).await?["code"], "rated_needs_account");
        let mut a2 = socket(addr, anna.cookie.as_deref(), "10.0.0.3").await?;
        send_json(&mut a2, accept.clone()).await?;
        assert_eq!(reply(&mut a2, 2).await?["code"], "own_seek");

        // One account has at most 3 open seeks, whatever the socket: two more on the first
        // socket, then a fourth from the second is refused and nothing is stored.
        let casual = json!({"type": "seek", "variant": "bashni",
            "clock": {"minutes": 5, "increment_s": 3}, "rated": false, "color": "random"});
        let mut extra = Vec::new();
        for n in 10..12 {
            let mut message = casual.clone();
            message["id"] = json!(n);
            send_json(&mut a, message).await?;
            let ack = reply(&mut a, n).await?;
            extra.push(ack["seek"].as_str().ok_or("no seek id")?.to_string());
        }
        let mut fourth = casual.clone();
        fourth["id"] = json!(12);
        send_json(&mut a2, fourth).await?;
        let refused = reply(&mut a2, 12).await?;
        assert_eq!(refused["code"], "too_many", "{refused}");
        assert_eq!(
            app.database
                .seek_list(bashni_server::game::round::now_ms())
                .await?
                .len(),
            3
        );
        for (n, id) in (13..).zip(&extra) {
            send_json(&mut a, json!({"type": "cancel", "id": n, "seek": id})).await?;
            assert_eq!(reply(&mut a, n).await?["type"], "ack");
        }

        let mut b = socket(addr, boris.cookie.as_deref(), "10.0.0.2").await?;
        send_json(&mut b, accept).await?;
        let ack = reply(&mut b, 2).await?;
        let game = ack["game"].as_str().ok_or("no game")?;
        let (_, state) = anna
            .call("GET", &format!("/api/games/{game}"), None, None)
            .await?;
        assert_eq!(state["rated"], true, "{state}");
        assert_eq!(state["white_player"], "Anna");
        assert_eq!(state["black_player"], "Boris");
        // The store has it rated, with the address each seat came from.
        let stored = app
            .database
            .load(game)
            .await?
            .ok_or("the game is not stored")?;
        assert!(stored.rated);
        assert_eq!(stored.white_address.as_deref(), Some("10.0.0.1"));
        assert_eq!(stored.black_address.as_deref(), Some("10.0.0.2"));
        Ok(())
    }

    /// The close frame a socket is sent next (other messages are skipped).
    async fn closed_with(socket: &mut Socket) -> Result<(u16, String), Error> {
        use futures_util::StreamExt;
        use tokio_tungstenite::tungstenite::Message;
        loop {
            let message = tokio::time::timeout(std::time::Duration::from_secs(5), socket.next())
                .await?
                .ok_or("the socket ended without a close frame")??;
            if let Message::Close(frame) = message {
                let frame = frame.ok_or("a close frame without a reason")?;
                return Ok((frame.code.into(), frame.reason.to_string()));
            }
        }
    }

    /// Seam 4: a socket acts for an account only while the session it was opened with lasts.
    /// Logging out everywhere and deleting the account close it at once on this server; a
    /// session ended elsewhere (here: in the store, as another server does) is found on the
    /// socket's next action, which is refused and closes it. Its seeks leave with it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_socket_ends_with_the_session_it_was_opened_with() -> Result<(), Error> {
        let app = App::new(
            Store::in_memory()?,
            Settings {
                behind_proxy: true,
                ..settings()
            },
        );
        let addr = serve(&app).await?;
        let mut anna = Visitor::new(&app, 1);
        anna.signup("Anna").await?;
        let seek = json!({"type": "seek", "id": 1, "variant": "russian",
            "clock": {"minutes": 3, "increment_s": 2}, "rated": true, "color": "white"});

        // Logged out everywhere: the socket is closed, and its seek leaves the lobby.
        let mut watcher = socket(addr, None, "10.0.0.9").await?;
        let mut open = socket(addr, anna.cookie.as_deref(), "10.0.0.1").await?;
        send_json(&mut open, seek.clone()).await?;
        assert_eq!(reply(&mut open, 1).await?["type"], "ack");
        let added = next_json(&mut watcher, "seek_added").await?;
        let (status, _) = anna
            .call("POST", "/api/account/logout-all", None, Some(json!({})))
            .await?;
        assert_eq!(status, StatusCode::OK);
        let (code, reason) = closed_with(&mut open).await?;
        assert_eq!(code, 1008, "{reason}");
        assert!(reason.contains("session has ended"), "{reason}");
        let removed = next_json(&mut watcher, "seek_removed").await?;
        assert_eq!(removed["seek"], added["seek"]["id"], "{removed}");

        // A session ended behind this server's back: the next action is refused.
        let mut anna = Visitor::new(&app, 1);
        let body = json!({"name": "Anna", "password": "correct horse"});
        let (status, _) = anna
            .call("POST", "/api/account/login", None, Some(body))
            .await?;
        assert_eq!(status, StatusCode::OK);
        let mut open = socket(addr, anna.cookie.as_deref(), "10.0.0.1").await?;
        let player = app
            .database
            .player_by_name("Anna")
            .await?
            .ok_or("no Anna")?;
        app.database.end_sessions(player.id).await?;
        send_json(&mut open, seek.clone()).await?;
        let (code, _) = closed_with(&mut open).await?;
        assert_eq!(code, 1008);

        // Deleting the account closes its sockets too.
        let mut anna = Visitor::new(&app, 1);
        let body = json!({"name": "Anna", "password": "correct horse"});
        let (status, _) = anna
            .call("POST", "/api/account/login", None, Some(body))
            .await?;
        assert_eq!(status, StatusCode::OK);
        let mut open = socket(addr, anna.cookie.as_deref(), "10.0.0.1").await?;
        send_json(&mut open, seek).await?;
        assert_eq!(reply(&mut open, 1).await?["type"], "ack");
        next_json(&mut watcher, "seek_added").await?;
        let (status, answer) = anna.delete_account("correct horse").await?;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(closed_with(&mut open).await?.0, 1008);
        next_json(&mut watcher, "seek_removed").await?;
        Ok(())
    }

    /// Issue "abuse, round two", finding 4: a guest cannot post a seek under an account's
    /// name (nor one that looks like it), and every seek says whether its name is an
    /// account's.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_guest_cannot_seek_under_an_accounts_name() -> Result<(), Error> {
        let app = App::new(
            Store::in_memory()?,
            Settings {
                behind_proxy: true,
                ..settings()
            },
        );
        let mut champion = Visitor::new(&app, 1);
        champion.signup("Champion").await?;
        let addr = serve(&app).await?;
        let mut watcher = socket(addr, None, "10.0.0.8").await?;
        let mut guest = socket(addr, None, "10.0.0.9").await?;
        let seek = |id: u32, name: &str| {
            json!({"type": "seek", "id": id, "variant": "russian",
                "clock": {"minutes": 3, "increment_s": 2}, "color": "white", "name": name})
        };
        for (id, name) in [(1, "Champion"), (2, "CHAMPI0N"), (3, "champ_ion")] {
            send_json(&mut guest, seek(id, name)).await?;
            let refused = reply(&mut guest, id).await?;
            assert_eq!(refused["code"], "name_taken", "{name}: {refused}");
        }
        send_json(&mut guest, seek(4, "Fan")).await?;
        assert_eq!(reply(&mut guest, 4).await?["type"], "ack");
        let added = next_json(&mut watcher, "seek_added").await?;
        assert_eq!(
            (
                added["seek"]["name"].clone(),
                added["seek"]["account"].clone()
            ),
            (json!("Fan"), json!(false)),
            "{added}"
        );
        let mut own = socket(addr, champion.cookie.as_deref(), "10.0.0.1").await?;
        send_json(&mut own, seek(5, "anything")).await?;
        assert_eq!(reply(&mut own, 5).await?["type"], "ack");
        let added = next_json(&mut watcher, "seek_added").await?;
        assert_eq!(
            (
                added["seek"]["name"].clone(),
                added["seek"]["account"].clone()
            ),
            (json!("Champion"), json!(true)),
            "{added}"
        );
        Ok(())
    }

    /// With two servers: a seek posted on B by an account deleted on A leaves every lobby
    /// (A's lobby, told of the deletion, removes it from the store; B hears of it), so
    /// nobody can start a game with a player who is gone.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_deleted_accounts_seek_leaves_the_lobbies_of_every_server() -> Result<(), Error> {
        let postgres = Postgres::start("deletedseek")?;
        let url = postgres.database("deletedseek").await?;
        let proxied = Settings {
            behind_proxy: true,
            ..settings()
        };
        let a = App::new(PgStore::connect(&url).await?, proxied.clone());
        let b = App::new(PgStore::connect(&url).await?, proxied);
        let at_a = serve(&a).await?;
        let at_b = serve(&b).await?;
        let mut anna = Visitor::new(&a, 1);
        anna.signup("Anna").await?;
        let mut watcher = socket(at_a, None, "10.0.0.9").await?;
        let mut open = socket(at_b, anna.cookie.as_deref(), "10.0.0.1").await?;
        let seek = json!({"type": "seek", "id": 1, "variant": "russian",
            "clock": {"minutes": 3, "increment_s": 2}, "rated": true, "color": "white"});
        send_json(&mut open, seek).await?;
        assert_eq!(reply(&mut open, 1).await?["type"], "ack");
        let added = next_json(&mut watcher, "seek_added").await?;
        let (status, answer) = anna.delete_account("correct horse").await?;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let removed = next_json(&mut watcher, "seek_removed").await?;
        assert_eq!(removed["seek"], added["seek"]["id"], "{removed}");
        // B's socket is refused at its next action, and closed.
        send_json(
            &mut open,
            json!({"type": "seek", "id": 2, "variant": "russian",
                "clock": {"minutes": 3, "increment_s": 2}, "color": "white"}),
        )
        .await?;
        assert_eq!(closed_with(&mut open).await?.0, 1008);
        Ok(())
    }
}

/// Two servers sharing PostgreSQL: the same end stored by both counts once; two games of
/// one player ending at once on the two servers both count.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_count_each_rated_end_once() -> Result<(), Error> {
    let postgres = Postgres::start("ratings2")?;
    let url = postgres.database("ratings2").await?;
    let a = App::new(PgStore::connect(&url).await?, settings());
    let b = App::new(PgStore::connect(&url).await?, settings());
    let mut anna = Visitor::new(&a, 1);
    let mut boris = Visitor::new(&a, 2);
    let mut carl = Visitor::new(&b, 3);
    anna.signup("Anna").await?;
    boris.signup("Boris").await?;
    carl.signup("Carl").await?;

    // Both servers store the same end, computed on the same version: one of them is
    // refused, and the ratings change once.
    let (id, white, black, _) = rated_game(&mut anna, &mut boris, blitz()).await?;
    // Both sides move first: a game ended before that is not rated.
    for (ply, (visitor, token, text)) in
        [(&mut anna, &white, "c3-d4"), (&mut boris, &black, "f6-g5")]
            .into_iter()
            .enumerate()
    {
        let (status, moved) = visitor
            .call(
                "POST",
                &format!("/api/games/{id}/move"),
                Some(token),
                Some(json!({"move": text, "ply": ply})),
            )
            .await?;
        assert_eq!(status, StatusCode::OK, "{moved}");
    }
    let round = a.database.load(&id).await?.ok_or("no game")?;
    let mut ended = round.clone();
    ended
        .resign(
            bashni_server::game::round::Seat::Black,
            std::time::Instant::now(),
        )
        .map_err(|e| format!("{e:?}"))?;
    let was = round.version;
    let db_a: &Database = &a.database;
    let db_b: &Database = &b.database;
    let (one, two) = tokio::join!(
        db_a.save(ended.clone(), Change::Game, was),
        db_b.save(ended.clone(), Change::Game, was)
    );
    assert!(one.1.is_ok() != two.1.is_ok(), "exactly one store succeeds");
    let (anna_1, _) = Glicko2::default().rate_game(Rating::NEW, Rating::NEW, GameScore::WhiteWins);
    let anna_page = page(&mut anna, "Anna").await?;
    assert_eq!(anna_page["ratings"]["russian"]["blitz"]["games"], 1);
    assert_eq!(
        anna_page["ratings"]["russian"]["blitz"]["rating"],
        shown(anna_1)
    );
    let _ = white;

    // Anna plays Boris on server A and Carl on server B; both games end at once.
    let (g1, w1, b1, _) = rated_game(&mut anna, &mut boris, blitz()).await?;
    let mut anna_b = Visitor::new(&b, 1);
    anna_b.cookie = anna.cookie.clone();
    let (g2, w2, b2, _) = rated_game(&mut anna_b, &mut carl, blitz()).await?;
    for (visitor, id, tokens) in [(&mut anna, &g1, [&w1, &b1]), (&mut anna_b, &g2, [&w2, &b2])] {
        for token in tokens {
            let (_, state) = visitor
                .call("GET", &format!("/api/games/{id}"), None, None)
                .await?;
            let text = state["legal_moves"][0]["text"].as_str().ok_or("no move")?;
            let body = json!({"move": text, "ply": state["ply"]});
            let (status, _) = visitor
                .call(
                    "POST",
                    &format!("/api/games/{id}/move"),
                    Some(token),
                    Some(body),
                )
                .await?;
            assert_eq!(status, StatusCode::OK);
        }
    }
    let resign_1 = format!("/api/games/{g1}/resign");
    let resign_2 = format!("/api/games/{g2}/resign");
    let (r1, r2) = tokio::join!(
        anna.call("POST", &resign_1, Some(&b1), Some(json!({}))),
        anna_b.call("POST", &resign_2, Some(&b2), Some(json!({})))
    );
    assert_eq!(r1?.0, StatusCode::OK);
    assert_eq!(r2?.0, StatusCode::OK);
    let anna_page = page(&mut anna, "Anna").await?;
    let blitz_rating = &anna_page["ratings"]["russian"]["blitz"];
    assert_eq!(blitz_rating["games"], 3, "{anna_page}");
    // Each game started from the rating the other left: the history is one chain.
    let history = anna_page["rating_history"]["russian"]["blitz"]
        .as_array()
        .ok_or("no history")?
        .clone();
    assert_eq!(history.len(), 3);
    let boris_page = page(&mut anna, "Boris").await?;
    let carl_page = page(&mut anna, "Carl").await?;
    let boris_now = &boris_page["ratings"]["russian"]["blitz"];
    assert_eq!(boris_now["games"], 2);
    assert_eq!(carl_page["ratings"]["russian"]["blitz"]["games"], 1);
    // The final rating is the chain in one order or the other.
    let system = Glicko2::default();
    let (_, boris_1) = system.rate_game(Rating::NEW, Rating::NEW, GameScore::WhiteWins);
    let chain = |first_boris: bool| {
        let (opponent_1, opponent_2) = if first_boris {
            (boris_1, Rating::NEW)
        } else {
            (Rating::NEW, boris_1)
        };
        let (after_1, _) = system.rate_game(anna_1, opponent_1, GameScore::WhiteWins);
        let (after_2, _) = system.rate_game(after_1, opponent_2, GameScore::WhiteWins);
        shown(after_2)
    };
    let final_rating = blitz_rating["rating"].as_i64().ok_or("no rating")?;
    assert!(
        final_rating == chain(true) || final_rating == chain(false),
        "{final_rating} is neither {} nor {}",
        chain(true),
        chain(false)
    );
    Ok(())
}

/// Seam 6: "Your turn" follows the account, not the browser: a second device of a
/// logged-in player, holding no seat token, lists the game waiting for that player's move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn your_turn_follows_the_account_on_every_device() -> Result<(), Error> {
    let app = App::new(Store::in_memory()?, settings());
    let mut anna = Visitor::new(&app, 1);
    let mut boris = Visitor::new(&app, 2);
    anna.signup("Anna").await?;
    boris.signup("Boris").await?;
    let (id, white, _, _) = rated_game(&mut anna, &mut boris, blitz()).await?;
    // Each logs in on a second device that holds no seat.
    let mut devices = Vec::new();
    for (byte, name) in [(11, "Anna"), (12, "Boris")] {
        let mut device = Visitor::new(&app, byte);
        let body = json!({"name": name, "password": "correct horse"});
        let (status, _) = device
            .call("POST", "/api/account/login", None, Some(body))
            .await?;
        assert_eq!(status, StatusCode::OK);
        devices.push(device);
    }
    let mut waiting = Vec::new();
    for device in devices.iter_mut() {
        let (status, answer) = device
            .call("POST", "/api/your-turn", None, Some(json!({"seats": []})))
            .await?;
        assert_eq!(status, StatusCode::OK, "{answer}");
        waiting.push(answer["games"].clone());
    }
    assert_eq!(waiting[0][0]["id"], json!(id), "{}", waiting[0]);
    assert_eq!(waiting[0][0]["you"], "white");
    assert_eq!(waiting[1], json!([]), "not Boris's turn");
    // Anna moves on her first device: now Boris's second device lists it.
    let (status, _) = anna
        .call(
            "POST",
            &format!("/api/games/{id}/move"),
            Some(&white),
            Some(json!({"move": "c3-d4", "ply": 0})),
        )
        .await?;
    assert_eq!(status, StatusCode::OK);
    let (_, answer) = devices[1]
        .call("POST", "/api/your-turn", None, Some(json!({"seats": []})))
        .await?;
    assert_eq!(answer["games"][0]["id"], json!(id), "{answer}");
    assert_eq!(answer["games"][0]["you"], "black");
    let (_, answer) = devices[0]
        .call("POST", "/api/your-turn", None, Some(json!({"seats": []})))
        .await?;
    assert_eq!(answer["games"], json!([]));
    // A guest with no seat sees nothing.
    let mut guest = Visitor::new(&app, 13);
    let (_, answer) = guest
        .call("POST", "/api/your-turn", None, Some(json!({"seats": []})))
        .await?;
    assert_eq!(answer["games"], json!([]));
    Ok(())
}
