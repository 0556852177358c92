//! WebSockets: the game, lobby and analysis sockets. They read messages, call the domain and
//! send its answers; nothing here decides a rule. One loop serves all three
//! ([`converse`]): the limits on frames, the pings, the server's stop, and for each socket
//! its own news and answers ([`Conversation`]). The WebSocket itself, compressed when the
//! client offers permessage-deflate, is `wire`'s.

pub mod analysis;
pub mod game;
pub mod lobby;
mod wire;

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::app::App;
use crate::http::error::ApiError;
use crate::limits::MessageRate;
use crate::texts::Language;

use wire::{CloseFrame, Message};
pub(crate) use wire::{WebSocket, WebSocketUpgrade, close_code};

/// The largest message a client may send; a larger one closes the socket (code 1009).
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;

/// Frames a client may send at once (text, binary or ping), then per second on average.
pub const MESSAGE_BURST: u32 = 20;
/// See [`MESSAGE_BURST`].
pub const MESSAGES_PER_SECOND: u32 = 10;

/// Refused frames after which the socket is closed.
pub const MAX_REFUSED_MESSAGES: u32 = 100;

type Sink = SplitSink<WebSocket, Message>;

/// Sends a text message; `false` when the socket is gone.
pub(crate) async fn send_text(sink: &mut Sink, text: impl Into<String>) -> bool {
    sink.send(Message::Text(text.into())).await.is_ok()
}

/// Closes the socket with `code` and `reason`.
pub(crate) async fn close(sink: &mut Sink, code: u16, reason: &'static str) {
    let frame = CloseFrame {
        code,
        reason: reason.to_owned(),
    };
    let _ = sink.send(Message::Close(Some(frame))).await;
}

/// What a socket tells its client of a piece of news, or after answering a message.
pub(crate) enum Said {
    /// These messages, in order.
    Texts(Vec<String>),
    /// Nothing.
    Nothing,
    /// The socket is closed with this code and reason.
    Close(u16, &'static str),
    /// The socket ends without a word (its news ended).
    End,
}

impl Said {
    /// One message.
    pub(crate) fn text(text: impl Into<String>) -> Said {
        Said::Texts(vec![text.into()])
    }

    /// Several messages.
    pub(crate) fn texts(texts: Vec<String>) -> Said {
        Said::Texts(texts)
    }
}

/// One kind of socket: where its news comes from, what it tells of it, and how it answers
/// a client's message. The loop around it is [`converse`].
pub(crate) trait Conversation: Send {
    /// A piece of news (a change of a game, a seek, a step of a search).
    type News: Send;

    /// Waits for the next piece of news. The wait may be dropped when a client's message
    /// comes first, so it only receives (from a channel and the like), losing nothing.
    fn next_news(&mut self) -> impl Future<Output = Self::News> + Send;

    /// What the client is told of `news`.
    fn tell(&mut self, news: Self::News) -> impl Future<Output = Said> + Send;

    /// Answers one text message of the client.
    fn answer(&mut self, text: &str) -> impl Future<Output = Said> + Send;
}

/// Runs one socket until it closes: sends `opening`, then news and answers, pings the
/// client and closes it when nothing is heard for twice the idle time, screens every frame
/// (size, rate, kind), and closes with "connect again" when the server stops. `what` names
/// the socket in the log.
pub(crate) async fn converse<C: Conversation>(
    app: &Arc<App>,
    socket: WebSocket,
    what: &'static str,
    opening: Vec<String>,
    conversation: &mut C,
) {
    let (mut sink, mut stream) = socket.split();
    let mut rate = MessageRate::new(MESSAGE_BURST, MESSAGES_PER_SECOND);
    let mut refused = 0u32;
    let idle = app.settings.idle_timeout;
    let mut ping = tokio::time::interval(idle / 2);
    ping.reset();
    let mut heard = Instant::now();
    let mut stopping = app.stopping();
    if !say(&mut sink, Said::Texts(opening)).await {
        return;
    }
    // Answering is boxed: its future is large (an action reaches the store) and a socket
    // spends nearly all its life waiting, so it takes memory only while it runs, not in each
    // of thousands of waiting sockets.
    loop {
        let said = tokio::select! {
            // Boxed, as the answers are: a waiting socket keeps no room for either.
            news = conversation.next_news() => Box::pin(conversation.tell(news)).await,
            _ = crate::app::stopped(&mut stopping) => {
                Said::Close(close_code::RESTART, "the server is restarting; connect again")
            }
            _ = ping.tick() => {
                if heard.elapsed() > 2 * idle {
                    Said::Close(close_code::AWAY, "nothing heard from the client for too long")
                } else if sink.send(Message::Ping(Default::default())).await.is_err() {
                    Said::End
                } else {
                    Said::Nothing
                }
            }
            incoming = stream.next() => {
                heard = Instant::now();
                match screen(incoming, &mut sink, &mut rate, &mut refused, what).await {
                    Screened::Text(text) => {
                        let _in_flight = app.in_flight();
                        Box::pin(conversation.answer(&text)).await
                    }
                    Screened::Skip => Said::Nothing,
                    Screened::Close => Said::End,
                    Screened::Refused => {
                        linger(&mut stream).await;
                        Said::End
                    }
                }
            }
        };
        if !say(&mut sink, said).await {
            return;
        }
    }
}

/// After the server closed a socket for a reason: reads and drops what the client still sends,
/// for at most a second, until the client closes too. Closing the connection with its data
/// unread would reset it, and the client could lose the close frame and its reason.
pub(crate) async fn linger<S>(stream: &mut S)
where
    S: futures_util::Stream<Item = Result<Message, wire::Error>> + Unpin,
{
    let drain = async {
        let mut errors = 0u32;
        while let Some(item) = stream.next().await {
            match item {
                Ok(Message::Close(_)) => break,
                Ok(_) => {}
                Err(_) => {
                    errors += 1;
                    if errors > 100 {
                        break;
                    }
                }
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), drain).await;
}

/// Sends what was said; `false` when the socket is done (closed, gone or ended).
async fn say(sink: &mut Sink, said: Said) -> bool {
    match said {
        Said::Texts(texts) => {
            for text in texts {
                if !send_text(sink, text).await {
                    return false;
                }
            }
            true
        }
        Said::Nothing => true,
        Said::Close(code, reason) => {
            close(sink, code, reason).await;
            false
        }
        Said::End => false,
    }
}

/// Reads a client's message (a JSON object); a message that cannot be read is answered
/// with an `error` for its `id`, if that much can be read.
pub(crate) fn read_message<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    crate::http::error::parse_json(text.as_bytes())
        .map_err(|error| error_reply(&message_id(text), error))
}

/// The `id` of a client's message, so that a refusal names the message it answers; `null`
/// when the message is too big to look at or has none that can be read.
fn message_id(text: &str) -> Value {
    #[derive(serde::Deserialize)]
    struct Id {
        id: Option<Value>,
    }
    if text.len() > MAX_MESSAGE_BYTES {
        return Value::Null;
    }
    serde_json::from_str::<Id>(text)
        .ok()
        .and_then(|message| message.id)
        .unwrap_or(Value::Null)
}

/// A frame from a client after the socket's limits (see [`screen`]).
pub(crate) enum Screened {
    /// A text message to answer.
    Text(String),
    /// Nothing to answer (a pong, a refused or binary frame, already answered).
    Skip,
    /// The socket is closed by the client, or gone.
    Close,
    /// The server has just closed the socket with a reason sent to the client: what the
    /// client still sends is read and dropped for a moment (see [`linger`]), so that the
    /// close frame reaches it.
    Refused,
}

/// Screens one frame a client sent, the same way on every socket: a broken or oversized
/// frame closes the socket with a reason; beyond the message rate a text is refused with
/// `too_many`, and after [`MAX_REFUSED_MESSAGES`] refusals the socket is closed; a binary
/// frame is answered that messages are JSON text. `what` names the socket in the log.
pub(crate) async fn screen(
    incoming: Option<Result<Message, wire::Error>>,
    sink: &mut Sink,
    rate: &mut MessageRate,
    refused: &mut u32,
    what: &str,
) -> Screened {
    let frame = match incoming {
        Some(Ok(Message::Pong(_))) => return Screened::Skip,
        Some(Ok(Message::Close(_))) | None => return Screened::Close,
        Some(Err(error)) => {
            tracing::debug!("{what}: {error}");
            // The library has closed the socket already (1009 for a frame over four times the
            // limit, 1002 or 1007 for a broken one): this close only stands in for it.
            close(sink, close_code::SIZE, "message too big or malformed").await;
            return Screened::Refused;
        }
        Some(Ok(frame)) => frame,
    };
    if !rate.allow(Instant::now()) {
        *refused += 1;
        if *refused > MAX_REFUSED_MESSAGES {
            tracing::warn!("limit: {what} sent too many messages and was closed");
            close(sink, close_code::POLICY, "too many messages").await;
            return Screened::Refused;
        }
        if let Message::Text(text) = &frame {
            let error = ApiError::texted(
                axum::http::StatusCode::TOO_MANY_REQUESTS,
                "too_many",
                crate::texts::text!("error-socket-too-many"),
            );
            if !send_text(sink, error_reply(&message_id(text), error)).await {
                return Screened::Close;
            }
        }
        return Screened::Skip;
    }
    match frame {
        Message::Text(text) if text.len() > MAX_MESSAGE_BYTES => {
            close(sink, close_code::SIZE, "message too big (at most 16 KiB)").await;
            Screened::Refused
        }
        Message::Text(text) => Screened::Text(text),
        Message::Binary(_) => {
            let error = ApiError::bad_request("messages are JSON text");
            if send_text(sink, error_reply(&Value::Null, error)).await {
                Screened::Skip
            } else {
                Screened::Close
            }
        }
        _ => Screened::Skip,
    }
}

tokio::task_local! {
    /// The language of the page that opened the socket (see [`in_language`]).
    static LANGUAGE: Language;
}

/// Runs a socket's `talk` with its refusals said in `language`. (A plain function, not an
/// `async` one: that would keep room for `talk` twice in every socket's task.)
pub(crate) fn in_language<F: Future>(
    language: Language,
    talk: F,
) -> tokio::task::futures::TaskLocalFuture<Language, F> {
    LANGUAGE.scope(language, talk)
}

/// The `error` message answering the message `id`, in the socket's language when the
/// refusal is a text of the catalogues.
pub(crate) fn error_reply(id: &Value, error: ApiError) -> String {
    let language = LANGUAGE.try_with(|l| *l).unwrap_or_default();
    let words = match &error.text {
        Some(text) if language != Language::English => text.words(language),
        _ => error.error,
    };
    let mut reply = json!({
        "type": "error", "id": id, "error": words, "code": error.code,
    });
    if let Some(legal) = error.legal {
        reply["legal"] = json!(legal);
    }
    reply.to_string()
}
