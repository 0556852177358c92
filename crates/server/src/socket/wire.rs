//! The WebSocket under the sockets: the upgrade and the connection, read and written as
//! whole messages. It is `yawc`'s, for its permessage-deflate (RFC 7692): when the client
//! offers it (browsers do), what the server sends is compressed and what the client sends
//! compressed is read; a client that offers nothing is spoken to without it. The rest of
//! `socket/` sees only [`WebSocketUpgrade`], [`WebSocket`] and [`Message`].
//!
//! Compression keeps no context between messages, in either direction: a socket holds no
//! compressor of its own (a few hundred KiB each, and thousands of sockets are open at
//! once), it borrows one from a shared pool for each message it sends.

use std::future::Future;
use std::pin::Pin;
use std::sync::LazyLock;
use std::task::{Context, Poll, ready};

use axum::body::{Body, Bytes};
use axum::extract::FromRequestParts;
use axum::http::header::{CONNECTION, SEC_WEBSOCKET_EXTENSIONS, UPGRADE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::{Sink, Stream};
use yawc::close::CloseCode;
use yawc::{CompressionLevel, DeflatePool, Frame, HttpWebSocket, IncomingUpgrade, OpCode, Options};

use super::MAX_MESSAGE_BYTES;

/// What reading or writing a socket can fail with.
pub(crate) type Error = yawc::WebSocketError;

/// The close codes the server sends (RFC 6455, section 7.4.1).
pub(crate) mod close_code {
    /// The server closes a socket whose client went quiet.
    pub(crate) const AWAY: u16 = 1001;
    /// The client broke a rule (too many messages).
    pub(crate) const POLICY: u16 = 1008;
    /// A message too big, or one that could not be read.
    pub(crate) const SIZE: u16 = 1009;
    /// The server could not go on.
    pub(crate) const ERROR: u16 = 1011;
    /// The server is restarting; the client may connect again.
    pub(crate) const RESTART: u16 = 1012;
}

/// A close frame's code and reason.
#[derive(Debug, Clone)]
pub(crate) struct CloseFrame {
    /// The close code (see [`close_code`]).
    pub(crate) code: u16,
    /// Why, in a few words.
    pub(crate) reason: String,
}

/// A whole message of a socket: fragments are put together (and inflated) before it is read.
#[derive(Debug)]
pub(crate) enum Message {
    /// A text message (valid UTF-8).
    Text(String),
    /// A binary message.
    Binary(Bytes),
    /// A ping; the answer is sent without being asked.
    Ping(Bytes),
    /// A pong.
    Pong(Bytes),
    /// The closing of the socket, with its code and reason if any.
    Close(Option<CloseFrame>),
}

/// The socket's limits and buffers. Frames and messages up to four times the limit are read,
/// so that the client hears why it is closed; a larger one is closed by the library itself
/// with code 1009. Small buffers (a client's messages are a few hundred bytes; a larger one
/// grows the buffer for itself): a socket mostly waits, and thousands of them are open at
/// once.
fn options() -> Options {
    Options::default()
        .with_max_payload_read(4 * MAX_MESSAGE_BYTES)
        .with_max_read_buffer(4 * MAX_MESSAGE_BYTES)
        .with_read_buffer_capacity(512)
        .with_write_buffer_capacity(1024)
        .with_utf8()
        .with_deflate_pool(DEFLATE_POOL.clone())
        .with_compression_level(CompressionLevel::default())
        .server_no_context_takeover()
        .client_no_context_takeover()
        .with_compression_threshold(COMPRESSION_THRESHOLD)
}

/// Messages shorter than this are sent as they are: deflate hardly shortens them.
const COMPRESSION_THRESHOLD: usize = 128;

/// The compressors and decompressors sockets borrow for one message at a time; a few more
/// than the threads that may compress at once, the rest are made when needed and dropped.
static DEFLATE_POOL: LazyLock<DeflatePool> = LazyLock::new(|| DeflatePool::new(32));

/// The extractor of a WebSocket's opening request (`GET` with `Upgrade: websocket`).
pub struct WebSocketUpgrade {
    upgrade: IncomingUpgrade,
}

impl<S: Send + Sync> FromRequestParts<S> for WebSocketUpgrade {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        if parts.method != Method::GET {
            return Err(
                (StatusCode::METHOD_NOT_ALLOWED, "a WebSocket opens with GET").into_response(),
            );
        }
        if !header_has_token(&parts.headers, CONNECTION, "upgrade")
            || !header_has_token(&parts.headers, UPGRADE, "websocket")
        {
            return Err((StatusCode::BAD_REQUEST, "not a WebSocket upgrade").into_response());
        }
        match deflate_offer(&parts.headers) {
            Some(offer) => parts.headers.insert(SEC_WEBSOCKET_EXTENSIONS, offer),
            None => parts.headers.remove(SEC_WEBSOCKET_EXTENSIONS),
        };
        let upgrade = IncomingUpgrade::from_request_parts(parts, state)
            .await
            .map_err(|status| (status, "not a WebSocket upgrade").into_response())?;
        Ok(WebSocketUpgrade { upgrade })
    }
}

impl WebSocketUpgrade {
    /// Answers the opening request and, once the connection is switched over, runs
    /// `callback` with the socket (on a task of its own).
    pub(crate) fn on_upgrade<F, Fut>(self, callback: F) -> Response
    where
        F: FnOnce(WebSocket) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let (response, switched) = match self.upgrade.upgrade(options()) {
            Ok(answer) => answer,
            Err(error) => {
                tracing::debug!("a WebSocket upgrade: {error}");
                return (StatusCode::BAD_REQUEST, "not a WebSocket upgrade").into_response();
            }
        };
        // The socket's talk runs on a task of its own, made once the connection is switched:
        // a task keeps room for everything its future ever held, and the switch's state is
        // no longer needed then.
        tokio::spawn(async move {
            match switched.await {
                Ok(socket) => {
                    tokio::spawn(callback(WebSocket::new(socket)));
                }
                Err(error) => tracing::debug!("a WebSocket upgrade: {error}"),
            }
        });
        response.map(Body::new)
    }
}

/// Whether one of the values of the header `name` lists `token` (comma-separated, any case).
fn header_has_token(headers: &HeaderMap, name: axum::http::HeaderName, token: &str) -> bool {
    headers
        .get_all(name)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|part| part.trim().eq_ignore_ascii_case(token))
}

/// The client's first permessage-deflate offer the server can take, alone; `None` when there
/// is none. The library reads a single offer, and its deflate (without the `zlib` feature)
/// always uses the full window: an offer that asks for a smaller window of the server, or
/// has a parameter not in RFC 7692, is passed over (RFC 7692, section 5: a server declines
/// an offer it cannot follow).
fn deflate_offer(headers: &HeaderMap) -> Option<HeaderValue> {
    headers
        .get_all(SEC_WEBSOCKET_EXTENSIONS)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .find(|offer| acceptable_offer(offer))
        .and_then(|offer| HeaderValue::from_str(offer).ok())
}

/// Whether the server can take this one extension offer (see [`deflate_offer`]).
fn acceptable_offer(offer: &str) -> bool {
    let mut parts = offer.split(';').map(str::trim);
    if parts.next() != Some("permessage-deflate") {
        return false;
    }
    parts.all(|parameter| {
        let (name, value) = match parameter.split_once('=') {
            Some((name, value)) => (name.trim(), Some(value.trim().trim_matches('"'))),
            None => (parameter, None),
        };
        match name {
            "server_no_context_takeover" | "client_no_context_takeover" => value.is_none(),
            "client_max_window_bits" => value.is_none_or(|bits| {
                bits.parse::<u8>()
                    .is_ok_and(|bits| (8..=15).contains(&bits))
            }),
            "server_max_window_bits" => value == Some("15"),
            _ => false,
        }
    })
}

/// A WebSocket connection, read as a stream of [`Message`]s and written as a sink of them.
pub(crate) struct WebSocket {
    /// Boxed: a socket's tasks move it about, and every future that once held it keeps room
    /// for it.
    socket: Box<HttpWebSocket>,
    /// The client's close frame, held back until the library's answer to it is written.
    client_closed: Option<Option<CloseFrame>>,
    /// A close frame was sent (by the server, or by the library on a broken frame):
    /// nothing else may follow it.
    closed: bool,
    /// The connection is over: nothing more is read.
    ended: bool,
}

impl WebSocket {
    fn new(socket: HttpWebSocket) -> WebSocket {
        WebSocket {
            socket: Box::new(socket),
            client_closed: None,
            closed: false,
            ended: false,
        }
    }
}

/// The code and reason of a close frame that came in.
fn close_frame(frame: &Frame) -> Option<CloseFrame> {
    let code = frame.close_code()?;
    let reason = frame.close_reason().ok().flatten().unwrap_or_default();
    Some(CloseFrame {
        code: code.into(),
        reason: reason.to_owned(),
    })
}

impl Stream for WebSocket {
    type Item = Result<Message, Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if this.ended {
                return Poll::Ready(None);
            }
            let frame = match ready!(this.socket.poll_next_frame(cx)) {
                Ok(frame) => frame,
                // The library has written what it owed (the answer to a close) by now.
                Err(Error::ConnectionClosed) => {
                    this.ended = true;
                    return Poll::Ready(
                        this.client_closed
                            .take()
                            .map(|frame| Ok(Message::Close(frame))),
                    );
                }
                // The library closes the socket itself (1009 for a frame too big, 1002 for a
                // broken one, 1007 for text that is not UTF-8), and reads nothing more.
                Err(error) => {
                    this.closed = true;
                    return Poll::Ready(Some(Err(error)));
                }
            };
            let message = match frame.opcode() {
                OpCode::Text => match String::from_utf8(frame.into_payload().into()) {
                    Ok(text) => Message::Text(text),
                    Err(_) => return Poll::Ready(Some(Err(Error::InvalidUTF8))),
                },
                OpCode::Binary => Message::Binary(frame.into_payload()),
                OpCode::Ping => Message::Ping(frame.into_payload()),
                OpCode::Pong => Message::Pong(frame.into_payload()),
                OpCode::Close if this.closed => {
                    // The client answers the server's close: nothing is owed it.
                    this.ended = true;
                    return Poll::Ready(Some(Ok(Message::Close(close_frame(&frame)))));
                }
                OpCode::Close => {
                    // The library answers the client's close on the next read: the message is
                    // told once that answer is out.
                    this.closed = true;
                    this.client_closed = Some(close_frame(&frame));
                    continue;
                }
                // Fragments come put together.
                OpCode::Continuation => continue,
            };
            return Poll::Ready(Some(Ok(message)));
        }
    }
}

impl Sink<Message> for WebSocket {
    type Error = Error;

    fn poll_ready(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Error>> {
        let this = self.get_mut();
        if this.closed {
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut *this.socket).poll_ready(cx)
    }

    fn start_send(self: Pin<&mut Self>, message: Message) -> Result<(), Error> {
        let this = self.get_mut();
        if this.closed {
            // A second close is dropped; anything else after a close is an error.
            return match message {
                Message::Close(_) => Ok(()),
                _ => Err(Error::ConnectionClosed),
            };
        }
        let frame = match message {
            Message::Text(text) => Frame::text(text),
            Message::Binary(data) => Frame::binary(data),
            Message::Ping(data) => Frame::ping(data),
            Message::Pong(data) => Frame::pong(data),
            Message::Close(frame) => {
                this.closed = true;
                match frame {
                    Some(frame) => Frame::close(CloseCode::from(frame.code), frame.reason),
                    None => Frame::from((OpCode::Close, Bytes::new())),
                }
            }
        };
        Pin::new(&mut *this.socket).start_send(frame)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Error>> {
        Pin::new(&mut *self.get_mut().socket).poll_flush(cx)
    }

    fn poll_close(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), Error>> {
        Pin::new(&mut *self.get_mut().socket).poll_close(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offered(values: &[&'static str]) -> Option<String> {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append(SEC_WEBSOCKET_EXTENSIONS, HeaderValue::from_static(value));
        }
        deflate_offer(&headers).and_then(|offer| offer.to_str().ok().map(str::to_owned))
    }

    #[test]
    fn the_first_offer_the_server_can_follow_is_taken_alone() {
        let chromium = "permessage-deflate; client_max_window_bits";
        assert_eq!(offered(&[chromium]).as_deref(), Some(chromium));
        let firefox = "permessage-deflate";
        assert_eq!(offered(&[firefox]).as_deref(), Some(firefox));
        let several = "permessage-deflate; server_max_window_bits=10, \
                       permessage-deflate; client_no_context_takeover";
        assert_eq!(
            offered(&["x-webkit-deflate-frame", several]).as_deref(),
            Some("permessage-deflate; client_no_context_takeover")
        );
        assert_eq!(offered(&[]), None);
        assert_eq!(
            offered(&["permessage-deflate; server_max_window_bits=9"]),
            None
        );
        assert_eq!(offered(&["permessage-deflate; something_else"]), None);
        assert_eq!(
            offered(&["permessage-deflate; client_max_window_bits=99"]),
            None
        );
    }
}
