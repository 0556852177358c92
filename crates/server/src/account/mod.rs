//! Player accounts, which nobody needs in order to play: names and what makes two names too
//! alike, passwords (Argon2id, hashed on blocking threads so that no async thread waits for
//! them), log-in sessions, the limits on log-in attempts, and who is logged in on a request.
//!
//! A session's id lives only in the browser's `bashni_session` cookie; the store keeps its
//! SHA-256 hash. How a request says who it is (the cookie, the site's own pages) is HTTP's
//! business, in `http/session.rs`; the endpoints are in `http/accounts.rs`.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::LazyLock;
use std::time::Instant;

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use sha2::{Digest, Sha256};
use unicode_normalization::UnicodeNormalization;
use unicode_security::{GeneralSecurityProfile, MixedScript};

use crate::limits::AddressRates;
use crate::store::SessionRow;
use crate::texts::{Text, text};

/// The cookie that holds the session id.
pub const COOKIE: &str = "bashni_session";

/// How long a session lasts from its log-in, in seconds (30 days).
pub const SESSION_SECONDS: i64 = 30 * 24 * 60 * 60;

/// The shortest account name, in characters.
pub const MIN_NAME_CHARS: usize = 3;
/// The longest account name.
pub const MAX_NAME_CHARS: usize = 20;
/// The shortest password, in characters.
pub const MIN_PASSWORD_CHARS: usize = 8;
/// The longest password.
pub const MAX_PASSWORD_CHARS: usize = 200;

/// A logged-in player: the account a request's session belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// The account's id (the store's; never shown).
    pub id: i64,
    /// Its name.
    pub name: String,
    /// When it was made (ms since 1970).
    pub created_ms: i64,
}

/// The name a person chose, checked: NFKC-normalised, 3 to 20 letters, digits, `_` and `-`,
/// letters of one script only (digits, `_` and `-` go with any). Returns the name and its
/// key (see [`name_key`]), or what is wrong with it.
pub fn account_name(typed: &str) -> Result<(String, String), Text> {
    let name: String = typed.trim().nfkc().collect();
    let count = name.chars().count();
    if !(MIN_NAME_CHARS..=MAX_NAME_CHARS).contains(&count) {
        return Err(text!(
            "account-name-length",
            least = MIN_NAME_CHARS,
            most = MAX_NAME_CHARS
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|&c| crate::game::secret::is_hidden_format(c))
    {
        let code = format!("U+{:04X}", u32::from(c));
        return Err(text!("account-name-hidden", code = code));
    }
    let allowed = |c: char| c == '_' || c == '-' || (c.is_alphanumeric() && c.identifier_allowed());
    if let Some(c) = name.chars().find(|&c| !allowed(c)) {
        return Err(text!(
            "account-name-character",
            character = format!("{c:?}")
        ));
    }
    if !name.chars().any(char::is_alphabetic) {
        return Err(text!("account-name-no-letter"));
    }
    if !name.as_str().is_single_script() {
        return Err(text!("account-name-alphabets"));
    }
    let key = name_key(&name);
    if RESERVED_NAMES
        .iter()
        .any(|reserved| name_key(reserved) == key)
    {
        return Err(text!("account-name-reserved", name = name.as_str()));
    }
    Ok((name, key))
}

/// Names nobody may take, nor any name that looks like one of them: the placeholder shown
/// for a deleted account's seats, the engine, and names that would pass for the site's own.
pub const RESERVED_NAMES: &[&str] = &[
    "deleted_player",
    "deleted",
    "engine",
    "bashni",
    "admin",
    "administrator",
    "moderator",
    "system",
    "support",
    "guest",
    "anonymous",
];

pub use crate::names::{keys_to_change, name_key};

/// Why an account's action was refused; nothing was changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccountError {
    /// The request is malformed (a name, a password).
    Invalid(Text),
    /// Too many attempts or new accounts.
    TooMany(Text),
    /// The server failed (random numbers, a password hash).
    Failed(String),
}

impl std::fmt::Display for AccountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AccountError::Invalid(text) | AccountError::TooMany(text) => text.fmt(f),
            AccountError::Failed(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for AccountError {}

/// Checks a new password: 8 to 200 characters.
pub fn check_password(password: &str) -> Result<(), AccountError> {
    let count = password.chars().count();
    if (MIN_PASSWORD_CHARS..=MAX_PASSWORD_CHARS).contains(&count) {
        Ok(())
    } else {
        Err(AccountError::Invalid(text!(
            "account-password-length",
            least = MIN_PASSWORD_CHARS,
            most = MAX_PASSWORD_CHARS
        )))
    }
}

fn hashing_failed() -> AccountError {
    AccountError::Failed("the password could not be hashed; nothing was changed".into())
}

/// The password's Argon2id hash (a PHC string with its random salt and parameters), made on
/// a blocking thread.
pub async fn hash_password(password: String) -> Result<String, AccountError> {
    tokio::task::spawn_blocking(move || {
        let hash: PasswordHash = Argon2::default().hash_password(password.as_bytes())?;
        Ok::<_, argon2::password_hash::Error>(hash.to_string())
    })
    .await
    .map_err(|_| hashing_failed())?
    .map_err(|error| {
        tracing::error!("argon2: {error}");
        hashing_failed()
    })
}

/// A hash of no account's password, checked when the name given has no account: a wrong
/// name then takes as long as a wrong password.
static NOBODYS_HASH: LazyLock<String> = LazyLock::new(|| {
    let mut random = [0u8; 24];
    let _ = getrandom::fill(&mut random);
    Argon2::default()
        .hash_password(&random)
        .map(|hash: PasswordHash| hash.to_string())
        .unwrap_or_default()
});

/// Whether `password` is the one `stored` is the hash of, checked on a blocking thread;
/// `false` without a stored hash (no account, or a deleted one), after as much work.
pub async fn verify_password(password: String, stored: Option<String>) -> bool {
    tokio::task::spawn_blocking(move || {
        let known = stored.filter(|hash| !hash.is_empty());
        let text = known.as_deref().unwrap_or(NOBODYS_HASH.as_str());
        let Ok(hash) = PasswordHash::new(text) else {
            return false;
        };
        Argon2::default()
            .verify_password(password.as_bytes(), &hash)
            .is_ok()
            && known.is_some()
    })
    .await
    .unwrap_or(false)
}

/// The hash under which a session id is stored (hex SHA-256: the id is 256 random bits, so
/// a fast hash is enough; the store alone never lets anyone log in).
pub fn session_hash(id: &str) -> String {
    Sha256::digest(id.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A new session started at `now` from `client`: its id (for the cookie only) and its row.
pub fn new_session(client: IpAddr, now: i64) -> Result<(String, SessionRow), AccountError> {
    let id = crate::game::secret::random_hex(32)
        .map_err(|_| AccountError::Failed("no random numbers available".into()))?;
    let row = SessionRow {
        hash: session_hash(&id),
        created_ms: now,
        expires_ms: now + SESSION_SECONDS * 1000,
        address: client.to_string(),
    };
    Ok((id, row))
}

/// The scheme and host (with port) of an address: `https://example.org:8443/x` gives
/// `("https", "example.org:8443")`.
pub(crate) fn origin_parts(url: &str) -> Option<(&str, &str)> {
    let (scheme, rest) = url.split_once("://")?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    (!scheme.is_empty() && !host.is_empty()).then_some((scheme, host))
}

/// Reads `--site-origin`: a scheme and host (`https://example.org`, maybe with a port),
/// nothing after it but a `/`.
pub fn site_origin(text: &str) -> Result<String, String> {
    let trimmed = text.trim().trim_end_matches('/').to_ascii_lowercase();
    match origin_parts(&trimmed) {
        Some((scheme @ ("http" | "https"), host))
            if trimmed.len() == scheme.len() + 3 + host.len() =>
        {
            Ok(format!("{scheme}://{host}"))
        }
        _ => Err(format!(
            "{text:?} is not a site's origin such as https://example.org"
        )),
    }
}

/// The limits on log-in attempts (per account name and per address) and on new accounts
/// (per address).
pub struct Accounts {
    /// Attempts from one address, whatever the names.
    by_address: AddressRates,
    /// Attempts for one name from one address.
    by_name_and_address: AddressRates<(String, IpAddr)>,
    /// Attempts for one name from addresses it never logged in from, all together: slower,
    /// so that guessing from many addresses is stopped while the owner, at an address known
    /// for the name, still gets in.
    by_name: AddressRates<String>,
    /// The last addresses each name logged in from on this server.
    known: std::sync::Mutex<HashMap<String, Vec<IpAddr>>>,
    signups: AddressRates,
    per_minute: u32,
    /// Sessions that ended on this server, for the sockets opened with them.
    ended: tokio::sync::broadcast::Sender<SessionEnded>,
}

/// Sessions that ended: one (logged out) or every session of an account (logged out
/// everywhere, or the account deleted). The sockets opened with them close.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionEnded {
    /// The account.
    pub account: i64,
    /// The session's hash, or `None` for all of the account's sessions.
    pub session: Option<String>,
}

impl SessionEnded {
    /// Whether a socket opened by `account` with the session `session` (its hash) ends.
    pub fn ends(&self, account: i64, session: Option<&str>) -> bool {
        self.account == account
            && self
                .session
                .as_deref()
                .is_none_or(|ended| Some(ended) == session)
    }
}

/// How many attempts an hour one name may get from addresses it never logged in from, as a
/// multiple of the attempts a minute from one address.
pub const NAME_ATTEMPTS_PER_HOUR: u32 = 10;

/// How many addresses are remembered for each name (the last ones it logged in from).
const KNOWN_ADDRESSES: usize = 4;

/// How many names have addresses remembered, at most; past it the memory starts again.
const KNOWN_NAMES: usize = 100_000;

impl Accounts {
    /// `per_minute` attempts a minute from one address, and for one name from one address;
    /// [`NAME_ATTEMPTS_PER_HOUR`] times as many an hour for one name from addresses it never
    /// logged in from.
    pub fn new(per_minute: u32) -> Accounts {
        let per_minute = per_minute.max(1);
        let rate = f64::from(per_minute) / 60.0;
        let per_hour = per_minute.saturating_mul(NAME_ATTEMPTS_PER_HOUR);
        Accounts {
            by_address: AddressRates::new(per_minute, rate),
            by_name_and_address: AddressRates::new(per_minute, rate),
            by_name: AddressRates::new(per_hour, f64::from(per_hour) / 3600.0),
            known: std::sync::Mutex::new(HashMap::new()),
            signups: AddressRates::new(per_minute, rate),
            per_minute,
            ended: tokio::sync::broadcast::channel(64).0,
        }
    }

    /// Tells the sockets on this server that sessions ended.
    pub fn end_sessions(&self, ended: SessionEnded) {
        let _ = self.ended.send(ended);
    }

    /// Hears of the sessions that end on this server.
    pub fn watch_sessions(&self) -> tokio::sync::broadcast::Receiver<SessionEnded> {
        self.ended.subscribe()
    }

    fn refused(&self, whose: &'static str) -> AccountError {
        AccountError::TooMany(text!(
            "account-too-many-logins",
            whose = whose,
            most = self.per_minute
        ))
    }

    /// Counts a log-in attempt (or a password check) for the name with key `key` from
    /// `client`; refused when the address has made too many, or too many for this name, or
    /// when the name has had too many from addresses it never logged in from and `client`
    /// is one of those. An attack from many addresses thus stops at the name's hourly
    /// limit, and the owner, at an address the name logged in from before, is not locked
    /// out by it.
    pub fn allow_login(&self, client: IpAddr, key: &str) -> Result<(), AccountError> {
        let now = Instant::now();
        if !self.by_address.allow(client, 1, now) {
            tracing::warn!(%client, "limit: too many log-in attempts from one address");
            return Err(self.refused("address"));
        }
        let key: String = key.chars().take(64).collect();
        if !self
            .by_name_and_address
            .allow((key.clone(), client), 1, now)
        {
            tracing::warn!(%client, "limit: too many log-in attempts for one name");
            return Err(self.refused("name"));
        }
        if !self.is_known(&key, client) && !self.by_name.allow(key, 1, now) {
            tracing::warn!(%client, "limit: too many log-in attempts for one name, from many addresses");
            return Err(AccountError::TooMany(text!(
                "account-too-many-logins-spread"
            )));
        }
        Ok(())
    }

    /// Remembers that the name with key `key` logged in (or was made) from `client`.
    pub fn logged_in(&self, client: IpAddr, key: &str) {
        let key: String = key.chars().take(64).collect();
        let mut known = self.known.lock().unwrap_or_else(|p| p.into_inner());
        if known.len() >= KNOWN_NAMES && !known.contains_key(&key) {
            known.clear();
        }
        let addresses = known.entry(key).or_default();
        addresses.retain(|address| *address != client);
        addresses.push(client);
        if addresses.len() > KNOWN_ADDRESSES {
            addresses.remove(0);
        }
    }

    fn is_known(&self, key: &str, client: IpAddr) -> bool {
        let known = self.known.lock().unwrap_or_else(|p| p.into_inner());
        known
            .get(key)
            .is_some_and(|addresses| addresses.contains(&client))
    }

    /// Counts a new account from `client` (each costs a password hash): as many a minute
    /// as log-in attempts.
    pub fn allow_signup(&self, client: IpAddr) -> Result<(), AccountError> {
        if self.signups.allow(client, 1, Instant::now()) {
            Ok(())
        } else {
            tracing::warn!(%client, "limit: too many new accounts from one address");
            Err(AccountError::TooMany(text!(
                "account-too-many-signups",
                most = self.per_minute
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(name: &str) -> String {
        name_key(name)
    }

    #[test]
    fn names_that_look_alike_have_one_key() {
        assert_eq!(key("admin"), key("Admin"));
        assert_eq!(key("admin"), key("ADMIN"));
        // Cyrillic а in front (refused anyway as mixed), and a whole Cyrillic look-alike.
        assert_eq!(key("admin"), key("\u{430}dmin"));
        assert_eq!(key("paca"), key("\u{440}\u{430}\u{441}\u{430}"));
        assert_eq!(key("lucy"), key("Iucy"));
        assert_eq!(key("lucy"), key("1ucy"));
        assert_eq!(key("olga"), key("0lga"));
        assert_eq!(key("mary"), key("rnary"));
        assert_eq!(key("anna_b"), key("anna-b"));
        // Full-width letters are the same letters.
        assert_eq!(key("anna"), key("\u{ff41}nna"));
        assert_ne!(key("anna"), key("hanna"));
        assert_ne!(key("boris"), key("borls2"));
        // Issue "abuse, round two", finding 4: a dotted capital I, a double v and an
        // accent do not make a name of their own.
        assert_eq!(key("admin"), key("ADM\u{130}N"));
        assert_eq!(key("admin"), key("adm\u{ed}n"));
        assert_eq!(key("admin"), key("adm\u{131}n"));
        assert_eq!(key("wolf"), key("vvolf"));
        assert_eq!(key("wolf"), key("VVOLF"));
        assert_eq!(key("Андрей"), key("Андреи"));
        assert_ne!(key("wolf"), key("volf"));
    }

    #[test]
    fn a_changed_rule_keeps_one_owner_per_key_and_the_others_apart() {
        let player = |id: i64, name: &str, stored: &str| (id, name.to_string(), stored.to_string());
        let players = [
            // Had different keys by the old rule, one key by the new, which the second had
            // already: the first is kept apart.
            player(1, "wolf", "wolf"),
            player(2, "vvolf", &key("vvolf")),
            // The younger had the key already: it keeps it.
            player(3, "adm\u{ed}na", "adm\u{ed}na-old"),
            player(4, "admlna", &key("admlna")),
            // Unchanged.
            player(5, "boris", &key("boris")),
        ];
        let changes = keys_to_change(&players);
        assert_eq!(
            changes,
            vec![
                (1, format!("{}#1", key("wolf"))),
                (3, format!("{}#3", key("admlna")))
            ]
        );
        // Once changed, nothing more to change.
        let changed: Vec<_> = players
            .iter()
            .map(|(id, name, stored)| {
                let key = changes
                    .iter()
                    .find(|(c, _)| c == id)
                    .map_or(stored.clone(), |(_, key)| key.clone());
                (*id, name.clone(), key)
            })
            .collect();
        assert_eq!(keys_to_change(&changed), Vec::new());
    }

    /// Issue "abuse, round two", finding 4: the deleted-account placeholder and the site's
    /// own names cannot be taken, nor names that look like them.
    #[test]
    fn reserved_names_are_refused_in_every_look() {
        for reserved in [
            "deleted_player",
            "Deleted-Player",
            "DELETEDPLAYER",
            "deIeted_pIayer",
            "Admin",
            "adm1n",
            "Engine",
            "Guest",
        ] {
            let refused = account_name(reserved);
            assert!(
                refused
                    .as_ref()
                    .is_err_and(|why| why.to_string().contains("kept for the site")),
                "{reserved}: {refused:?}"
            );
        }
        assert!(account_name("Administrat0rs_fan").is_ok());
        for hidden in [
            "Anna\u{3164}",
            "An\u{E0041}na",
            "Ann\u{034F}a",
            "Anna\u{FE0F}",
        ] {
            assert!(account_name(hidden).is_err(), "{hidden:?}");
        }
        assert!(account_name("Deleted_Pawn").is_ok());
    }

    #[test]
    fn names_are_checked() {
        assert!(account_name("Anna").is_ok());
        assert!(account_name("Иван_2").is_ok());
        assert_eq!(
            account_name(" \u{ff21}nna ").map(|(name, _)| name),
            Ok("Anna".into())
        );
        for bad in [
            "ab",
            "a".repeat(21).as_str(),
            "anna b",
            "an<na",
            "___",
            "123",
            "\u{430}dmin",
        ] {
            assert!(account_name(bad).is_err(), "{bad:?} was taken");
        }
        assert!(
            account_name("\u{430}dmin").is_err_and(|e| e.to_string().contains("alphabets")),
            "a mixed name is refused for mixing"
        );
    }

    #[test]
    fn passwords_are_hashed_and_checked() -> Result<(), Box<dyn std::error::Error>> {
        let runtime = tokio::runtime::Builder::new_current_thread().build()?;
        runtime.block_on(async {
            let hash = hash_password("correct horse".into()).await?;
            assert!(hash.starts_with("$argon2id$"), "{hash}");
            assert!(verify_password("correct horse".into(), Some(hash.clone())).await);
            assert!(!verify_password("correct horsE".into(), Some(hash)).await);
            assert!(!verify_password("correct horse".into(), None).await);
            assert!(!verify_password("".into(), Some(String::new())).await);
            Ok::<_, AccountError>(())
        })?;
        assert!(check_password("1234567").is_err());
        assert!(check_password("12345678").is_ok());
        assert!(check_password(&"x".repeat(201)).is_err());
        Ok(())
    }
}
