//! Connection limits that keep one client from taking the server for itself: open
//! connections per address (counted where connections are accepted), the pace of request
//! bodies ([`BodyPace`]) and messages per WebSocket.

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// File descriptors kept for everything but connections: the database, its log, the
/// engines' files, the page's files when served from a folder.
const FILES_KEPT: u64 = 256;

/// How many connections the server may hold open: the open-files limit, raised first as far as
/// the system allows, less what the server needs besides ([`FILES_KEPT`], or an eighth of the
/// limit when that is more).
pub fn connections_allowed() -> usize {
    let limit = match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => limit,
        Err(error) => {
            tracing::warn!("limit: cannot raise the open-files limit: {error}");
            rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(1024, |(soft, _)| soft)
        }
    };
    let kept = FILES_KEPT.max(limit / 8);
    usize::try_from(limit.saturating_sub(kept).max(16)).unwrap_or(usize::MAX)
}

/// How many connections each address, and all together, hold open.
pub struct ConnectionLimits {
    per_address: usize,
    total: usize,
    open: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    by_address: HashMap<IpAddr, usize>,
    total: usize,
}

/// Why a connection was not let in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Its address holds as many as one address may.
    Address,
    /// The server holds as many as it may.
    Server,
}

impl ConnectionLimits {
    /// At most `per_address` open connections from one address, and `total` from all.
    pub fn new(per_address: usize, total: usize) -> Arc<ConnectionLimits> {
        Arc::new(ConnectionLimits {
            per_address: per_address.max(1),
            total: total.max(1),
            open: Mutex::new(Open::default()),
        })
    }

    /// Counts a new connection from `ip`, unless that address or the server is at its limit.
    pub fn enter(self: &Arc<Self>, ip: IpAddr) -> Result<ConnectionGuard, Refused> {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        if open.total >= self.total {
            return Err(Refused::Server);
        }
        let count = open.by_address.entry(ip).or_insert(0);
        if *count >= self.per_address {
            return Err(Refused::Address);
        }
        *count += 1;
        open.total += 1;
        Ok(ConnectionGuard {
            limits: Arc::clone(self),
            ip,
        })
    }

    /// How many connections are open from all addresses.
    pub fn open(&self) -> usize {
        self.open.lock().unwrap_or_else(|p| p.into_inner()).total
    }

    /// How many connections `ip` holds open.
    pub fn open_from(&self, ip: IpAddr) -> usize {
        self.open
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .by_address
            .get(&ip)
            .copied()
            .unwrap_or(0)
    }
}

/// One counted connection; dropping it frees its place.
pub struct ConnectionGuard {
    limits: Arc<ConnectionLimits>,
    ip: IpAddr,
}

impl Drop for ConnectionGuard {
    fn drop(&mut self) {
        let mut open = self.limits.open.lock().unwrap_or_else(|p| p.into_inner());
        open.total = open.total.saturating_sub(1);
        if let Some(count) = open.by_address.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                open.by_address.remove(&self.ip);
            }
        }
    }
}

/// A TCP listener that refuses connections beyond the limit per address, answering them
/// with `429 Too Many Requests`, and beyond the server's limit, answering `503 Service
/// Unavailable`.
pub struct LimitedListener {
    inner: TcpListener,
    limits: Arc<ConnectionLimits>,
    /// When a failure to accept or a refusal was last logged (one line per second at most).
    last_logged: Option<Instant>,
    /// How many went unlogged since.
    unlogged: u64,
}

impl LimitedListener {
    /// Wraps `inner`.
    pub fn new(inner: TcpListener, limits: Arc<ConnectionLimits>) -> LimitedListener {
        LimitedListener {
            inner,
            limits,
            last_logged: None,
            unlogged: 0,
        }
    }

    /// Logs `what` unless a line was logged less than a second ago (then counts it).
    fn warn(&mut self, what: std::fmt::Arguments<'_>) {
        let now = Instant::now();
        if self
            .last_logged
            .is_some_and(|last| now.duration_since(last) < Duration::from_secs(1))
        {
            self.unlogged += 1;
            return;
        }
        tracing::warn!(more_since_last_line = self.unlogged, "{what}");
        self.last_logged = Some(now);
        self.unlogged = 0;
    }
}

const ADDRESS_REFUSAL: &str =
    r#"{"error":"too many open connections from your address","code":"too_many"}"#;

const SERVER_REFUSAL: &str =
    r#"{"error":"the server is full; try again shortly","code":"unavailable"}"#;

/// The whole answer to a connection refused for `why`.
fn refusal(why: Refused) -> String {
    let (status, body) = match why {
        Refused::Address => ("429 Too Many Requests", ADDRESS_REFUSAL),
        Refused::Server => ("503 Service Unavailable", SERVER_REFUSAL),
    };
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\n\r\n{body}",
        body.len()
    )
}

impl LimitedListener {
    /// The next connection from an address below its limit while the server is below its
    /// own; others are answered 429 (or 503) and closed.
    pub async fn accept(&mut self) -> (CountedStream, SocketAddr) {
        loop {
            let (stream, address) = match self.inner.accept().await {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors and the like: wait, then go on accepting.
                    self.warn(format_args!(
                        "limit: cannot accept a connection ({error}); raise the open-files \
                         limit or lower --connections-per-address"
                    ));
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            match self.limits.enter(address.ip()) {
                Ok(guard) => {
                    // A move is a small message that should leave at once, not wait to be
                    // merged with the next.
                    if let Err(error) = stream.set_nodelay(true) {
                        tracing::debug!(%address, "cannot set TCP_NODELAY: {error}");
                    }
                    return (
                        CountedStream {
                            guard: Some(guard),
                            inner: stream,
                        },
                        address,
                    );
                }
                Err(why) => {
                    match why {
                        Refused::Address => self.warn(format_args!(
                            "limit: {} has too many open connections; refused one",
                            address.ip()
                        )),
                        Refused::Server => {
                            let total = self.limits.total;
                            self.warn(format_args!(
                                "limit: the server holds {total} connections, its most; \
                                 refused one from {}",
                                address.ip()
                            ));
                        }
                    }
                    let _ = stream.try_write(refusal(why).as_bytes());
                }
            }
        }
    }

    /// The address listened on.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

/// An accepted connection that keeps its place counted while open. The place is freed
/// before the server's side closes (when it shuts the connection down, or when it is
/// dropped), so a client that has seen the connection end finds the place free.
pub struct CountedStream {
    // Declared first so that it is dropped before the socket closes.
    guard: Option<ConnectionGuard>,
    inner: TcpStream,
}

impl AsyncRead for CountedStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for CountedStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        this.guard = None;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// How fast a request's body must arrive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodyPace {
    /// The longest a body may stay silent, at its start or between two pieces.
    pub patience: Duration,
    /// Bytes per second the body must average, counted from the end of the first
    /// `patience`: after `t` seconds at least `(t - patience) * min_rate` bytes.
    pub min_rate: u64,
}

impl BodyPace {
    /// When the next piece of a body must have come, `received` bytes in: no later than
    /// `patience` after the last piece (or the start), and no later than the minimum rate
    /// allows for what came so far.
    pub fn deadline(&self, start: Instant, last: Instant, received: u64) -> Instant {
        let rate = self.min_rate.max(1);
        let earned = Duration::from_secs(received / rate)
            + Duration::from_nanos((received % rate) * 1_000_000_000 / rate);
        (last + self.patience).min(start + self.patience + earned)
    }
}

/// A token bucket: `burst` messages at once, then `per_second` on average.
pub struct MessageRate {
    burst: f64,
    per_second: f64,
    tokens: f64,
    last: Instant,
}

impl MessageRate {
    /// A full bucket.
    pub fn new(burst: u32, per_second: u32) -> MessageRate {
        MessageRate {
            burst: f64::from(burst),
            per_second: f64::from(per_second),
            tokens: f64::from(burst),
            last: Instant::now(),
        }
    }

    /// Takes one message's token at `now`; `false` when the client is too fast.
    pub fn allow(&mut self, now: Instant) -> bool {
        self.take(1.0, now)
    }

    fn refill(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.burst);
    }

    fn take(&mut self, count: f64, now: Instant) -> bool {
        self.refill(now);
        if self.tokens >= count {
            self.tokens -= count;
            true
        } else {
            false
        }
    }

    fn is_full(&mut self, now: Instant) -> bool {
        self.refill(now);
        self.tokens >= self.burst
    }
}

/// A token bucket per address (or per any other key, such as an account's name), for limits
/// such as requests per second or new games per minute. Keys whose bucket is full again are
/// forgotten now and then.
pub struct AddressRates<K = IpAddr> {
    burst: u32,
    per_second: f64,
    buckets: Mutex<HashMap<K, MessageRate>>,
}

impl<K: std::hash::Hash + Eq> AddressRates<K> {
    /// `burst` at once per address, then `per_second` on average.
    pub fn new(burst: u32, per_second: f64) -> AddressRates<K> {
        AddressRates {
            burst: burst.max(1),
            per_second,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes `count` tokens of `key`'s bucket at `now`; `false` (taking none) when there are
    /// not enough.
    pub fn allow(&self, key: K, count: u32, now: Instant) -> bool {
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() > 10_000 {
            buckets.retain(|_, bucket| !bucket.is_full(now));
        }
        let bucket = buckets.entry(key).or_insert_with(|| MessageRate {
            burst: f64::from(self.burst),
            per_second: self.per_second,
            tokens: f64::from(self.burst),
            last: now,
        });
        bucket.take(f64::from(count), now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_are_counted_per_address_and_freed() {
        let limits = ConnectionLimits::new(2, 3);
        let ip: IpAddr = [127, 0, 0, 1].into();
        let other: IpAddr = [10, 0, 0, 1].into();
        let third: IpAddr = [10, 0, 0, 3].into();
        let first = limits.enter(ip);
        let second = limits.enter(ip);
        assert!(first.is_ok() && second.is_ok());
        assert_eq!(limits.enter(ip).err(), Some(Refused::Address));
        let from_other = limits.enter(other);
        assert!(from_other.is_ok());
        // Three open: the server is full for every address.
        assert_eq!(limits.enter(third).err(), Some(Refused::Server));
        assert_eq!(limits.open(), 3);
        drop(first);
        assert_eq!(limits.open_from(ip), 1);
        assert!(limits.enter(ip).is_ok());
        drop(from_other);
        assert_eq!(limits.open_from(other), 0);
        assert!(limits.enter(third).is_ok());
    }

    /// A connection the server shuts down frees its place before the client can see it
    /// closed, so the client's next connection is not refused for it.
    #[tokio::test]
    async fn a_connection_frees_its_place_before_it_closes() -> io::Result<()> {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let limits = ConnectionLimits::new(1, 1);
        let mut listener =
            LimitedListener::new(TcpListener::bind("127.0.0.1:0").await?, Arc::clone(&limits));
        let address = listener.local_addr()?;
        let mut client = TcpStream::connect(address).await?;
        let (mut stream, _) = listener.accept().await;
        assert_eq!(limits.open(), 1);
        stream.shutdown().await?;
        // The stream is still held, its side closed: the place is free.
        assert_eq!(limits.open(), 0);
        let mut rest = Vec::new();
        client.read_to_end(&mut rest).await?;
        assert!(rest.is_empty());
        let _next = TcpStream::connect(address).await?;
        let (_accepted, _) = listener.accept().await;
        assert_eq!(limits.open(), 1);
        drop(stream);
        assert_eq!(
            limits.open(),
            1,
            "the shut-down stream freed its place once only"
        );
        Ok(())
    }

    #[test]
    fn a_body_deadline_follows_the_rate_and_the_patience() {
        let pace = BodyPace {
            patience: Duration::from_secs(10),
            min_rate: 100,
        };
        let start = Instant::now();
        let s = Duration::from_secs;
        // Nothing yet: the patience.
        assert_eq!(pace.deadline(start, start, 0), start + s(10));
        // 500 bytes at once: still only the patience after them.
        assert_eq!(pace.deadline(start, start + s(1), 500), start + s(11));
        // A byte now and then: the rate catches it.
        assert_eq!(
            pace.deadline(start, start + s(9), 150),
            start + s(11) + s(1) / 2
        );
    }

    #[test]
    fn the_bucket_refills_with_time() {
        let start = Instant::now();
        let mut rate = MessageRate::new(3, 10);
        rate.last = start;
        assert!((0..3).all(|_| rate.allow(start)));
        assert!(!rate.allow(start));
        assert!(rate.allow(start + Duration::from_millis(150)));
        assert!(!rate.allow(start + Duration::from_millis(150)));
    }

    #[test]
    fn each_address_has_its_own_bucket() {
        let rates = AddressRates::new(2, 1.0);
        let now = Instant::now();
        let one: IpAddr = [10, 0, 0, 1].into();
        let two: IpAddr = [10, 0, 0, 2].into();
        assert!(rates.allow(one, 2, now));
        assert!(!rates.allow(one, 1, now));
        assert!(rates.allow(two, 1, now));
        assert!(rates.allow(one, 1, now + Duration::from_millis(1100)));
    }
}
