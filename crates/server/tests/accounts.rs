//! Player accounts over HTTP: signing up, logging in and out, sessions, look-alike names,
//! requests from other sites, the limits on log-ins, seats held by accounts, players' pages
//! and deleting an account; the same on SQLite and on PostgreSQL (a throw-away server, see
//! `common/pg.rs`).

mod common;

use std::net::IpAddr;
use std::sync::Arc;

use axum::http::{StatusCode, header};
use bashni_server::{App, PgStore, Settings, Store, StoreOptions};
use common::pg::Postgres;
use common::visitor::*;
use common::*;
use serde_json::{Value, json};

type Error = Box<dyn std::error::Error>;

impl Visitor {
    async fn signup(&mut self, name: &str, password: &str) -> Result<(StatusCode, Value), Error> {
        let body = json!({"name": name, "password": password});
        self.call("POST", "/api/account/signup", None, Some(body))
            .await
    }

    async fn login(&mut self, name: &str, password: &str) -> Result<(StatusCode, Value), Error> {
        let body = json!({"name": name, "password": password});
        self.call("POST", "/api/account/login", None, Some(body))
            .await
    }

    async fn who(&mut self) -> Result<(StatusCode, Value), Error> {
        self.call("GET", "/api/account", None, None).await
    }

    /// Makes a game; returns its id, the token and the state.
    async fn create(&mut self, body: Value) -> Result<(String, String, Value), Error> {
        let (status, answer) = self.call("POST", "/api/games", None, Some(body)).await?;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
        let id = answer["id"].as_str().ok_or("no id")?.to_string();
        let token = answer["token"].as_str().ok_or("no token")?.to_string();
        Ok((id, token, answer["state"].clone()))
    }
}

/// Settings with the log-in limit high enough for tests that sign up many accounts.
fn roomy() -> Settings {
    Settings {
        login_attempts_per_minute: 1000,
        ..test_settings()
    }
}

fn sqlite_app(settings: Settings) -> Result<Arc<App>, Error> {
    Ok(App::new(Store::in_memory()?, settings))
}

/// Signing up, logging in (a new session every time), out, and out everywhere.
async fn sessions_suite(app: &Arc<App>) -> Result<(), Error> {
    let mut anna = Visitor::new(app, 1);
    let (status, account) = anna.signup("Anna", "correct horse").await?;
    assert_eq!(status, StatusCode::CREATED, "{account}");
    assert_eq!(account["name"], "Anna");
    let first = anna.cookie.clone().ok_or("no session cookie")?;
    assert_eq!(first.len(), 64);
    assert!(
        !account.to_string().contains(&first),
        "the session id is in the JSON"
    );
    assert_eq!(anna.who().await?.1["name"], "Anna");

    // A guest is told so.
    let mut guest = Visitor::new(app, 2);
    let (status, refusal) = guest.who().await?;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(refusal["code"], "not_logged_in");

    // A new log-in gives a new session id and ends the one it replaces.
    let (status, _) = anna.login("anna", "correct horse").await?;
    assert_eq!(status, StatusCode::OK);
    let second = anna.cookie.clone().ok_or("no session after log-in")?;
    assert_ne!(first, second);
    let mut old = Visitor::new(app, 1);
    old.cookie = Some(first);
    assert_eq!(old.who().await?.0, StatusCode::UNAUTHORIZED);

    // Another browser logs in too; logging out everywhere ends both sessions.
    let mut phone = Visitor::new(app, 3);
    assert_eq!(
        phone.login("ANNA", "correct horse").await?.0,
        StatusCode::OK
    );
    assert_eq!(anna.who().await?.0, StatusCode::OK);
    let (status, _) = phone
        .call("POST", "/api/account/logout-all", None, Some(json!({})))
        .await?;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(phone.cookie, None, "the cookie is cleared");
    let mut kept = Visitor::new(app, 1);
    kept.cookie = Some(second);
    assert_eq!(kept.who().await?.0, StatusCode::UNAUTHORIZED);

    // Logging out ends this session only.
    anna.login("Anna", "correct horse").await?;
    phone.login("Anna", "correct horse").await?;
    let ended = anna.cookie.clone();
    let (status, _) = anna
        .call("POST", "/api/account/logout", None, Some(json!({})))
        .await?;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(anna.cookie, None);
    let mut stale = Visitor::new(app, 1);
    stale.cookie = ended;
    assert_eq!(stale.who().await?.0, StatusCode::UNAUTHORIZED);
    assert_eq!(phone.who().await?.0, StatusCode::OK);
    assert_eq!(
        phone
            .call("POST", "/api/account/logout-all", None, Some(json!({})))
            .await?
            .0,
        StatusCode::OK
    );
    assert_eq!(
        guest
            .call("POST", "/api/account/logout-all", None, Some(json!({})))
            .await?
            .0,
        StatusCode::UNAUTHORIZED
    );

    // A wrong password and an unknown name get the same answer.
    let (status, wrong) = anna.login("Anna", "wrong horse!").await?;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(wrong["code"], "wrong_login");
    let (status, unknown) = anna.login("Nobody", "correct horse").await?;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(unknown, wrong);
    assert_eq!(anna.cookie, None);
    Ok(())
}

/// Names that look like an account's are refused; bad names and passwords say what is wrong.
async fn names_suite(app: &Arc<App>) -> Result<(), Error> {
    let mut visitor = Visitor::new(app, 20);
    assert_eq!(
        visitor.signup("marina", "long enough").await?.0,
        StatusCode::CREATED
    );
    for same in ["Marina", "MARINA", "ma_rina", "rnarina"] {
        let (status, refusal) = visitor.signup(same, "long enough").await?;
        assert_eq!(status, StatusCode::CONFLICT, "{same}: {refusal}");
        assert_eq!(refusal["code"], "name_taken");
    }
    // A Cyrillic а in a Latin name mixes two alphabets.
    let (status, refusal) = visitor.signup("m\u{430}rina", "long enough").await?;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refusal}");
    assert!(
        refusal["error"]
            .as_str()
            .is_some_and(|e| e.contains("alphabets")),
        "{refusal}"
    );
    // A whole Cyrillic word that looks like a Latin name.
    assert_eq!(
        visitor.signup("paca", "long enough").await?.0,
        StatusCode::CREATED
    );
    let (status, refusal) = visitor
        .signup("\u{440}\u{430}\u{441}\u{430}", "long enough")
        .await?;
    assert_eq!(status, StatusCode::CONFLICT, "{refusal}");
    assert!(
        refusal["error"]
            .as_str()
            .is_some_and(|e| e.contains("looks too much like paca")),
        "{refusal}"
    );
    for (name, password, field) in [
        ("ab", "long enough", "name"),
        ("anna b", "long enough", "name"),
        ("anna", "short", "password"),
    ] {
        let (status, refusal) = visitor.signup(name, password).await?;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name}: {refusal}");
        assert!(
            refusal["error"]
                .as_str()
                .is_some_and(|e| e.starts_with(field)),
            "{refusal}"
        );
    }
    // A Russian name is a name.
    assert_eq!(
        visitor.signup("Иван", "long enough").await?.0,
        StatusCode::CREATED
    );
    Ok(())
}

/// Games made and joined by logged-in players hold their accounts; players' pages show
/// their results and games; a deleted account's games stay and show "deleted player".
async fn games_suite(app: &Arc<App>) -> Result<(), Error> {
    let mut anna = Visitor::new(app, 30);
    let mut boris = Visitor::new(app, 31);
    let mut guest = Visitor::new(app, 32);
    anna.signup("Anna", "anna's secret").await?;
    boris.signup("Boris", "boris's secret").await?;

    // The creator's name is the account's, whatever was typed.
    let (id, white_token, state) = anna
        .create(json!({"variant": "bashni", "mode": "friend", "name": "Boris"}))
        .await?;
    assert_eq!(state["white"]["name"], "Anna");
    assert_eq!(state["white_player"], "Anna");
    assert_eq!(state["black_player"], Value::Null);
    let invite = state["invite_url"]
        .as_str()
        .and_then(|url| url.rsplit('/').next())
        .ok_or("no invite")?
        .to_string();
    // Nobody plays themselves.
    let (status, refusal) = anna
        .call(
            "POST",
            &format!("/api/games/{id}/join"),
            None,
            Some(json!({"invite": invite})),
        )
        .await?;
    assert_eq!(status, StatusCode::CONFLICT, "{refusal}");
    let (status, joined) = boris
        .call(
            "POST",
            &format!("/api/games/{id}/join"),
            None,
            Some(json!({"invite": invite, "name": "Anna"})),
        )
        .await?;
    assert_eq!(status, StatusCode::OK, "{joined}");
    let black_token = joined["token"].as_str().ok_or("no token")?.to_string();
    assert_eq!(joined["state"]["black"]["name"], "Boris");
    assert_eq!(joined["state"]["black_player"], "Boris");

    // A guest may type an account's name: it shows as typed, without the account.
    let (_, _, typed) = guest
        .create(json!({"variant": "bashni", "mode": "engine", "name": "Anna"}))
        .await?;
    assert_eq!(typed["white"]["name"], "Anna");
    assert_eq!(typed["white_player"], Value::Null);

    // Boris resigns: a win for Anna, a loss for Boris.
    let (status, _) = boris
        .call(
            "POST",
            &format!("/api/games/{id}/resign"),
            Some(&black_token),
            Some(json!({})),
        )
        .await?;
    assert_eq!(status, StatusCode::OK);
    let (_, page) = guest.call("GET", "/api/players/anna", None, None).await?;
    assert_eq!(page["name"], "Anna");
    assert_eq!(
        page["results"]["bashni"],
        json!({"wins": 1, "draws": 0, "losses": 0})
    );
    assert_eq!(
        page["results"]["russian"],
        json!({"wins": 0, "draws": 0, "losses": 0})
    );
    assert_eq!(page["ratings"], json!({}));
    assert_eq!(page["games"][0]["id"], id.as_str());
    assert_eq!(page["games"][0]["color"], "white");
    assert_eq!(page["games"][0]["result"], "1-0");
    let (_, page) = guest.call("GET", "/api/players/Boris", None, None).await?;
    assert_eq!(page["results"]["bashni"]["losses"], 1);
    assert_eq!(page["games"][0]["color"], "black");

    // A rematch keeps the accounts, colours swapped.
    for (visitor, token) in [(&mut anna, &white_token), (&mut boris, &black_token)] {
        let (status, answer) = visitor
            .call(
                "POST",
                &format!("/api/games/{id}/rematch"),
                Some(token),
                Some(json!({"action": "offer"})),
            )
            .await?;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    let (_, old) = guest
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await?;
    let rematch = old["rematch"]["game"].as_str().ok_or("no rematch")?;
    let (_, new) = guest
        .call("GET", &format!("/api/games/{rematch}"), None, None)
        .await?;
    assert_eq!(new["white_player"], "Boris");
    assert_eq!(new["black_player"], "Anna");

    // Anna's games in pages, newest first.
    for _ in 0..2 {
        anna.create(json!({"variant": "russian", "mode": "engine"}))
            .await?;
    }
    let (_, first) = guest
        .call("GET", "/api/players/Anna?limit=2", None, None)
        .await?;
    let next = first["next"].as_str().ok_or("no next page")?;
    let (_, second) = guest
        .call(
            "GET",
            &format!("/api/players/Anna?limit=2&before={next}"),
            None,
            None,
        )
        .await?;
    let ids = |page: &Value| -> Vec<String> {
        page["games"]
            .as_array()
            .map(|games| {
                games
                    .iter()
                    .filter_map(|g| g["id"].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut all = ids(&first);
    all.extend(ids(&second));
    assert_eq!(all.len(), 4, "{first} {second}");
    assert!(all.contains(&id) && all.contains(&rematch.to_string()));
    assert_eq!(second["next"], Value::Null);
    let (status, _) = guest.call("GET", "/api/players/Nobody", None, None).await?;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // Deleting takes the password again.
    let (status, refusal) = anna.delete_account("not it at all").await?;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(refusal["code"], "wrong_password");
    let session = anna.cookie.clone();
    let (status, _) = anna.delete_account("anna's secret").await?;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(anna.cookie, None);
    let mut gone = Visitor::new(app, 30);
    gone.cookie = session;
    assert_eq!(gone.who().await?.0, StatusCode::UNAUTHORIZED);
    assert_eq!(
        gone.login("Anna", "anna's secret").await?.0,
        StatusCode::UNAUTHORIZED
    );
    // The name stays taken, so that nobody comes after her under it.
    assert_eq!(
        gone.signup("anna", "a new secret").await?.0,
        StatusCode::CONFLICT
    );
    let (status, _) = guest.call("GET", "/api/players/Anna", None, None).await?;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Her games stay, and show a deleted player; Boris keeps his results.
    let (_, state) = guest
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await?;
    assert_eq!(state["white"]["name"], "deleted player");
    assert_eq!(state["white_player"], "deleted player");
    assert_eq!(state["black_player"], "Boris");
    let (_, listed) = guest
        .call("GET", &format!("/api/games?ids={id},{rematch}"), None, None)
        .await?;
    for game in listed["games"].as_array().ok_or("no games")? {
        assert!(
            game["white"] == "deleted player" || game["black"] == "deleted player",
            "{game}"
        );
    }
    let (_, page) = guest.call("GET", "/api/players/boris", None, None).await?;
    assert_eq!(page["results"]["bashni"]["losses"], 1);
    assert_eq!(page["games"].as_array().map(Vec::len), Some(2));
    Ok(())
}

#[tokio::test]
async fn sessions_begin_end_and_rotate() -> Result<(), Error> {
    sessions_suite(&sqlite_app(roomy())?).await
}

#[tokio::test]
async fn look_alike_names_are_refused() -> Result<(), Error> {
    names_suite(&sqlite_app(roomy())?).await
}

#[tokio::test]
async fn games_hold_accounts_and_outlive_them() -> Result<(), Error> {
    games_suite(&sqlite_app(roomy())?).await
}

#[tokio::test]
async fn requests_with_the_cookie_from_other_sites_are_refused() -> Result<(), Error> {
    let app = sqlite_app(roomy())?;
    let mut anna = Visitor::new(&app, 40);
    anna.signup("Anna", "correct horse").await?;
    let cookie = format!("bashni_session={}", anna.cookie.clone().ok_or("no cookie")?);
    let client = anna.address;
    let new_game = json!({"variant": "bashni", "mode": "engine"});
    let with = |origin: Option<(header::HeaderName, &'static str)>| {
        let mut headers = vec![(header::HOST, HOST), (header::COOKIE, cookie.as_str())];
        headers.extend(origin);
        headers
    };
    for origin in [
        Some((header::ORIGIN, "http://evil.test")),
        Some((header::ORIGIN, "null")),
        Some((header::REFERER, "http://evil.test/bashni.test")),
        None,
    ] {
        let (status, _, refusal) = send(
            &app,
            client,
            "POST",
            "/api/games",
            &with(origin.clone()),
            Some(&new_game),
        )
        .await?;
        assert_eq!(status, StatusCode::FORBIDDEN, "{origin:?}: {refusal}");
        assert_eq!(refusal["code"], "cross_site");
    }
    let (status, _, _) = send(
        &app,
        client,
        "DELETE",
        "/api/account",
        &with(Some((header::ORIGIN, "http://evil.test"))),
        Some(&json!({"password": "correct horse"})),
    )
    .await?;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(anna.who().await?.0, StatusCode::OK, "the account is kept");
    // The site's own pages, by Origin or by Referer.
    let (status, _, made) = send(
        &app,
        client,
        "POST",
        "/api/games",
        &with(Some((header::REFERER, "http://bashni.test/"))),
        Some(&new_game),
    )
    .await?;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    // Reading is allowed from anywhere (the answers are not readable by other sites).
    let (status, _, _) = send(
        &app,
        client,
        "GET",
        "/api/account",
        &with(Some((header::ORIGIN, "http://evil.test"))),
        None,
    )
    .await?;
    assert_eq!(status, StatusCode::OK);
    // Without the cookie, seat tokens work as before, from anywhere.
    let (status, _, made) = send(
        &app,
        client,
        "POST",
        "/api/games",
        &[(header::HOST, HOST)],
        Some(&json!({"variant": "bashni", "mode": "local"})),
    )
    .await?;
    assert_eq!(status, StatusCode::CREATED);
    let (id, token) = (
        made["id"].as_str().ok_or("no id")?,
        made["token"].as_str().ok_or("no token")?,
    );
    let (status, _, _) = send(
        &app,
        client,
        "POST",
        &format!("/api/games/{id}/move"),
        &[
            (header::HOST, HOST),
            (header::ORIGIN, "http://evil.test"),
            (header::HeaderName::from_static("x-seat-token"), token),
        ],
        Some(&json!({"move": "c3-d4", "ply": 0})),
    )
    .await?;
    assert_eq!(status, StatusCode::OK);
    // Logging in always needs the site's own page.
    let (status, _, refusal) = send(
        &app,
        client,
        "POST",
        "/api/account/login",
        &[(header::HOST, HOST), (header::ORIGIN, "http://evil.test")],
        Some(&json!({"name": "Anna", "password": "correct horse"})),
    )
    .await?;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(refusal["code"], "cross_site");
    Ok(())
}

#[tokio::test]
async fn behind_a_proxy_the_site_is_the_origin_given() -> Result<(), Error> {
    let app = sqlite_app(Settings {
        site_origin: Some("https://bashni.example".into()),
        secure_cookies: true,
        ..roomy()
    })?;
    let body = json!({"name": "Anna", "password": "correct horse"});
    let internal = [
        (header::HOST, "10.0.0.9:8080"),
        (header::ORIGIN, "http://10.0.0.9:8080"),
    ];
    let (status, _, _) = send(
        &app,
        IpAddr::from([10, 0, 0, 1]),
        "POST",
        "/api/account/signup",
        &internal,
        Some(&body),
    )
    .await?;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let public = [
        (header::HOST, "10.0.0.9:8080"),
        (header::ORIGIN, "https://bashni.example"),
    ];
    let (status, headers, _) = send(
        &app,
        IpAddr::from([10, 0, 0, 1]),
        "POST",
        "/api/account/signup",
        &public,
        Some(&body),
    )
    .await?;
    assert_eq!(status, StatusCode::CREATED);
    let cookie = headers
        .get(header::SET_COOKIE)
        .ok_or("no cookie")?
        .to_str()?;
    for part in [
        "HttpOnly",
        "SameSite=Lax",
        "Path=/",
        "Max-Age=2592000",
        "Secure",
    ] {
        assert!(cookie.contains(part), "{cookie}");
    }
    Ok(())
}

/// Issue "abuse, round two", finding 3: nobody can lock a player out. Guesses at one name
/// from many addresses stop at the name's hourly limit (for addresses it never logged in
/// from), while its owner, at an address known for it, still logs in.
#[tokio::test]
async fn guesses_from_many_addresses_stop_without_locking_the_owner_out() -> Result<(), Error> {
    let per_minute = 2;
    let app = sqlite_app(Settings {
        login_attempts_per_minute: per_minute,
        ..test_settings()
    })?;
    let mut owner = Visitor::new(&app, 1);
    owner.signup("Vera", "vera's own words").await?;
    let per_hour = per_minute * bashni_server::account::NAME_ATTEMPTS_PER_HOUR;
    for n in 0..per_hour {
        let (status, answer) = Visitor::new(&app, 100 + n as u8)
            .login("vera", "a guessed word")
            .await?;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "attempt {n}: {answer}");
    }
    // The next address, even with the right password, is refused for an hour...
    let (status, refusal) = Visitor::new(&app, 200)
        .login("Vera", "vera's own words")
        .await?;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{refusal}");
    assert!(
        refusal["error"]
            .as_str()
            .is_some_and(|e| e.contains("many addresses")),
        "{refusal}"
    );
    // ... while the owner, at her own address, logs in; the attempts did not lock her out.
    let (status, answer) = owner.login("Vera", "vera's own words").await?;
    assert_eq!(status, StatusCode::OK, "{answer}");
    // And her address is still held to its own limit for the name.
    for _ in 0..per_minute {
        owner.login("Vera", "a typo").await?;
    }
    assert_eq!(
        owner.login("Vera", "vera's own words").await?.0,
        StatusCode::TOO_MANY_REQUESTS
    );
    Ok(())
}

#[tokio::test]
async fn log_in_attempts_are_limited_per_name_and_per_address() -> Result<(), Error> {
    let app = sqlite_app(test_settings())?;
    assert_eq!(app.settings.login_attempts_per_minute, 5);
    let mut maker = Visitor::new(&app, 50);
    maker.signup("Anna", "correct horse").await?;
    // Five attempts from one address, each for another name; the sixth is refused.
    let mut guesser = Visitor::new(&app, 51);
    for name in ["Anna", "Boris", "Clara", "Dmitri", "Elena"] {
        let (status, _) = guesser.login(name, "a guessed word").await?;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    let (status, refusal) = guesser.login("Fyodor", "a guessed word").await?;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{refusal}");
    assert!(
        refusal["error"]
            .as_str()
            .is_some_and(|e| e.contains("from your address") && e.contains("5 a minute")),
        "{refusal}"
    );
    // One name guessed from many addresses: each address has its own five a minute, so
    // Anna's account is not locked: six more wrong attempts are only wrong, and Anna, at the
    // address she signed up from, gets in.
    for last in 60..66 {
        let (status, _) = Visitor::new(&app, last)
            .login("anna", "a guessed word")
            .await?;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(
        maker.login("Anna", "correct horse").await?.0,
        StatusCode::OK
    );
    // New accounts have a budget of their own: the guesser may still make one, and five.
    for name in ["Gleb", "Hanna", "Igor", "Julia", "Kira"] {
        let (status, refusal) = guesser.signup(name, "long enough").await?;
        assert_eq!(status, StatusCode::CREATED, "{name}: {refusal}");
    }
    let (status, refusal) = guesser.signup("Lev", "long enough").await?;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{refusal}");
    assert!(
        refusal["error"]
            .as_str()
            .is_some_and(|e| e.contains("new accounts")),
        "{refusal}"
    );
    // Another name from another address still logs in.
    let mut boris = Visitor::new(&app, 80);
    assert_eq!(
        boris.signup("Boris", "boris's secret").await?.0,
        StatusCode::CREATED
    );
    assert_eq!(
        Visitor::new(&app, 81)
            .login("Boris", "boris's secret")
            .await?
            .0,
        StatusCode::OK
    );
    Ok(())
}

#[tokio::test]
async fn seat_accounts_are_kept_in_the_file() -> Result<(), Error> {
    let path = temp_db("accounts-file");
    let id = {
        let app = App::new(Store::open(&path, StoreOptions::default())?, roomy());
        let mut anna = Visitor::new(&app, 90);
        anna.signup("Anna", "correct horse").await?;
        anna.create(json!({"variant": "russian", "mode": "local", "opponent_name": "Anna"}))
            .await?
            .0
    };
    let app = App::new(Store::open(&path, StoreOptions::default())?, roomy());
    let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(state["white_player"], "Anna");
    assert_eq!(state["black"]["name"], "Anna", "the second player as typed");
    assert_eq!(state["black_player"], Value::Null);
    let mut anna = Visitor::new(&app, 90);
    assert_eq!(anna.login("Anna", "correct horse").await?.0, StatusCode::OK);
    Ok(())
}

/// Issue "abuse, round two", finding 4: `ADMİN`, `admín` and `vvolf` are taken by `admin`
/// and `wolf`. Accounts made under the older rule that now look alike keep their names: the
/// store gives the key to one and keeps the other apart when it is opened, and each still
/// logs in and has its page. `set_key` writes a key as the older rule would have.
async fn older_keys_suite<F, Fut>(
    app: &Arc<App>,
    set_key: impl Fn(String, String) -> F,
    reopen: impl FnOnce() -> Fut,
) -> Result<(), Error>
where
    F: std::future::Future<Output = Result<(), Error>>,
    Fut: std::future::Future<Output = Result<Arc<App>, Error>>,
{
    let mut wolf = Visitor::new(app, 71);
    assert_eq!(
        wolf.signup("wolf", "wolf's secret").await?.0,
        StatusCode::CREATED
    );
    for look_alike in ["vvolf", "VVOLF", "Wolf"] {
        let (status, answer) = Visitor::new(app, 72)
            .signup(look_alike, "a secret!")
            .await?;
        assert_eq!(status, StatusCode::CONFLICT, "{look_alike}: {answer}");
        assert_eq!(answer["code"], "name_taken");
    }
    for kept in ["ADM\u{130}N", "adm\u{ed}n"] {
        let (status, answer) = Visitor::new(app, 72).signup(kept, "a secret!").await?;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{kept}: {answer}");
    }
    // Made before the rule folded w into vv: wolf's key was "wolf", so vvolf was let in.
    set_key("wolf".into(), "wolf".into()).await?;
    let mut vvolf = Visitor::new(app, 73);
    assert_eq!(
        vvolf.signup("vvolf", "vvolf's secret").await?.0,
        StatusCode::CREATED
    );
    let app = reopen().await?;
    for (name, password) in [("wolf", "wolf's secret"), ("vvolf", "vvolf's secret")] {
        let mut visitor = Visitor::new(&app, 74);
        let (status, answer) = visitor.login(name, password).await?;
        assert_eq!(status, StatusCode::OK, "{name}: {answer}");
        assert_eq!(answer["name"], name);
        let (status, page) = visitor
            .call("GET", &format!("/api/players/{name}"), None, None)
            .await?;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(page["name"], name);
    }
    let (status, _) = Visitor::new(&app, 75).signup("VVolf", "a secret!").await?;
    assert_eq!(status, StatusCode::CONFLICT);
    Ok(())
}

#[tokio::test]
async fn look_alike_names_are_taken_and_older_accounts_keep_theirs() -> Result<(), Error> {
    let path = temp_db("older-keys");
    let app = App::new(Store::open(&path, StoreOptions::default())?, roomy());
    let file = path.clone();
    let set_key = |name: String, key: String| {
        let file = file.clone();
        async move {
            let connection = rusqlite::Connection::open(&file)?;
            let changed = connection.execute(
                "UPDATE players SET name_key = ?2 WHERE name = ?1",
                rusqlite::params![name, key],
            )?;
            assert_eq!(changed, 1);
            Ok::<_, Error>(())
        }
    };
    let reopen = || async {
        Ok(App::new(
            Store::open(&path, StoreOptions::default())?,
            roomy(),
        ))
    };
    older_keys_suite(&app, set_key, reopen).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_work_the_same_on_postgres() -> Result<(), Error> {
    let postgres = Postgres::start("accounts")?;
    let url = postgres.database("olderkeys").await?;
    let app = App::new(PgStore::connect(&url).await?, roomy());
    let set_key = |name: String, key: String| {
        let url = url.clone();
        async move {
            let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await?;
            let driver = tokio::spawn(connection);
            let changed = client
                .execute(
                    "UPDATE players SET name_key = $2 WHERE name = $1",
                    &[&name, &key],
                )
                .await?;
            assert_eq!(changed, 1);
            drop(client);
            let _ = driver.await;
            Ok::<_, Error>(())
        }
    };
    let reopen = || async { Ok(App::new(PgStore::connect(&url).await?, roomy())) };
    older_keys_suite(&app, set_key, reopen).await?;
    for (name, suite) in [("sessions", 0), ("names", 1), ("games", 2)] {
        let url = postgres.database(name).await?;
        let app = App::new(PgStore::connect(&url).await?, roomy());
        match suite {
            0 => sessions_suite(&app).await?,
            1 => names_suite(&app).await?,
            _ => games_suite(&app).await?,
        }
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deletion_on_one_server_renames_the_seats_on_another() -> Result<(), Error> {
    let postgres = Postgres::start("accounts-shared")?;
    let url = postgres.database("shared").await?;
    let a = App::new(PgStore::connect(&url).await?, roomy());
    let b = App::new(PgStore::connect(&url).await?, roomy());
    serve(&a).await?;
    serve(&b).await?;
    let mut anna = Visitor::new(&a, 1);
    anna.signup("Anna", "correct horse").await?;
    let (id, _, _) = anna
        .create(json!({"variant": "bashni", "mode": "friend"}))
        .await?;
    // Server B holds the game in memory.
    let state = wait_for(&b, &id, |s| s["white_player"] == "Anna").await?;
    let version = state["version"].as_u64().ok_or("no version")?;
    let (status, _) = anna.delete_account("correct horse").await?;
    assert_eq!(status, StatusCode::OK);
    let state = wait_for(&b, &id, |s| s["white_player"] == "deleted player").await?;
    assert_eq!(state["white"]["name"], "deleted player");
    assert!(state["version"].as_u64() > Some(version));
    Ok(())
}

/// Issue "Russian for the players who read it": the server's refusals come in the language
/// the request asks for (`Accept-Language`), English when it asks for none the site speaks;
/// the code stays the same.
#[tokio::test]
async fn refusals_speak_the_language_the_request_asks_for() -> Result<(), Error> {
    let app = App::new(Store::in_memory()?, roomy());
    let mut anna = Visitor::new(&app, 60);
    assert_eq!(
        anna.signup("Anna", "correct horse").await?.0,
        StatusCode::CREATED
    );
    let client: IpAddr = [10, 0, 0, 61].into();
    let wrong = json!({"name": "Anna", "password": "wrong horse"});
    let taken = json!({"name": "anna", "password": "correct horse"});
    for (asked, login, name) in [
        (
            Some("ru-RU,ru;q=0.9,en;q=0.8"),
            "неверное имя или пароль",
            "имя Anna занято; выберите другое",
        ),
        (
            Some("de-DE"),
            "the name or the password is wrong",
            "the name Anna is taken; choose another",
        ),
        (
            None,
            "the name or the password is wrong",
            "the name Anna is taken; choose another",
        ),
    ] {
        let mut headers = vec![(header::HOST, HOST), (header::ORIGIN, SITE)];
        headers.extend(asked.map(|a| (header::ACCEPT_LANGUAGE, a)));
        let (status, _, refusal) = send(
            &app,
            client,
            "POST",
            "/api/account/login",
            &headers,
            Some(&wrong),
        )
        .await?;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(refusal["code"], "wrong_login");
        assert_eq!(refusal["error"], login, "{asked:?}");
        let (status, _, refusal) = send(
            &app,
            client,
            "POST",
            "/api/account/signup",
            &headers,
            Some(&taken),
        )
        .await?;
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(refusal["code"], "name_taken");
        assert_eq!(refusal["error"], name, "{asked:?}");
    }
    Ok(())
}

/// The language an account chose is kept by the store and follows it to another browser;
/// a guest has nowhere to keep one, and only a language the site speaks is taken.
#[tokio::test]
async fn an_account_keeps_its_language() -> Result<(), Error> {
    let app = App::new(Store::in_memory()?, roomy());
    let mut home = Visitor::new(&app, 70);
    assert_eq!(
        home.signup("Vera", "correct horse").await?.0,
        StatusCode::CREATED
    );
    assert_eq!(home.who().await?.1["language"], Value::Null);
    let put = |language: &str| json!({ "language": language });
    let (status, answer) = home
        .call("PUT", "/api/account/language", None, Some(put("ru")))
        .await?;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["language"], "ru");
    let (status, answer) = home
        .call("PUT", "/api/account/language", None, Some(put("de")))
        .await?;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .is_some_and(|e| e.contains("en or ru"))
    );
    // Another browser: the account's language comes with it.
    let mut phone = Visitor::new(&app, 71);
    assert_eq!(
        phone.login("Vera", "correct horse").await?.0,
        StatusCode::OK
    );
    assert_eq!(phone.who().await?.1["language"], "ru");
    // A guest cannot keep one.
    let mut guest = Visitor::new(&app, 72);
    let (status, _) = guest
        .call("PUT", "/api/account/language", None, Some(put("en")))
        .await?;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    Ok(())
}
