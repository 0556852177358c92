//! permessage-deflate (RFC 7692) on the sockets: a client that offers it (as browsers do) is
//! answered with the extension, gets compressed messages (RSV1 set) and may send compressed
//! ones; a client that offers nothing gets plain frames, as before. The client here is a raw
//! TCP stream, so that the frames are seen as they go over the wire.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::*;
use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The empty block a deflate sync flush ends with, left off the wire (RFC 7692, 7.2.1).
const TAIL: [u8; 4] = [0, 0, 0xff, 0xff];

/// A frame as it came over the wire.
struct WireFrame {
    /// RSV1: the message is compressed.
    compressed: bool,
    opcode: u8,
    payload: Vec<u8>,
    /// Header and payload.
    wire_len: usize,
}

/// Opens `path` on `address` with `extensions` offered (none when `None`); returns the stream
/// and the server's `Sec-WebSocket-Extensions` answer.
async fn open(
    address: SocketAddr,
    path: &str,
    extensions: Option<&str>,
) -> Result<(TcpStream, Option<String>), Box<dyn std::error::Error>> {
    let mut stream = TcpStream::connect(address).await?;
    let offer = extensions
        .map(|offer| format!("sec-websocket-extensions: {offer}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "GET {path} HTTP/1.1\r\nhost: {address}\r\nupgrade: websocket\r\n\
         connection: upgrade\r\nsec-websocket-version: 13\r\n\
         sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n{offer}\r\n"
    );
    stream.write_all(request.as_bytes()).await?;
    // The answer's head, a byte at a time so that no frame is read with it.
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        head.push(stream.read_u8().await?);
    }
    let head = String::from_utf8(head)?;
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    let answer = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("sec-websocket-extensions")
            .then(|| value.trim().to_owned())
    });
    Ok((stream, answer))
}

/// Reads the next frame (a server's frames are not masked), within 5 s.
async fn read_frame(stream: &mut TcpStream) -> Result<WireFrame, Box<dyn std::error::Error>> {
    let read = async {
        let first = stream.read_u8().await?;
        let second = stream.read_u8().await?;
        assert_eq!(second & 0x80, 0, "a server's frame is not masked");
        assert_ne!(first & 0x80, 0, "the server sends whole messages");
        let (len, extra) = match second & 0x7f {
            126 => (usize::from(stream.read_u16().await?), 2),
            127 => (usize::try_from(stream.read_u64().await?)?, 8),
            len => (usize::from(len), 0),
        };
        let mut payload = vec![0; len];
        stream.read_exact(&mut payload).await?;
        Ok::<_, Box<dyn std::error::Error>>(WireFrame {
            compressed: first & 0x40 != 0,
            opcode: first & 0x0f,
            payload,
            wire_len: 2 + extra + len,
        })
    };
    tokio::time::timeout(Duration::from_secs(5), read).await?
}

/// The text of a text frame, inflated if it is compressed (each message on its own: the
/// server keeps no context between messages).
fn text_of(frame: &WireFrame) -> Result<String, Box<dyn std::error::Error>> {
    assert_eq!(frame.opcode, 1, "a text frame");
    if !frame.compressed {
        return Ok(String::from_utf8(frame.payload.clone())?);
    }
    let mut input = frame.payload.clone();
    input.extend_from_slice(&TAIL);
    let mut inflate = Decompress::new(false);
    let mut output = Vec::with_capacity(64 * 1024);
    inflate.decompress_vec(&input, &mut output, FlushDecompress::Sync)?;
    assert_eq!(
        inflate.total_in(),
        input.len() as u64,
        "the whole message is inflated"
    );
    Ok(String::from_utf8(output)?)
}

/// The next message of type `kind` (others are skipped) and its frame.
async fn next_message(
    stream: &mut TcpStream,
    kind: &str,
) -> Result<(Value, WireFrame), Box<dyn std::error::Error>> {
    loop {
        let frame = read_frame(stream).await?;
        let value: Value = serde_json::from_str(&text_of(&frame)?)?;
        if value["type"] == kind {
            return Ok((value, frame));
        }
    }
}

/// Sends `value` as a masked text frame, compressed when `compress`.
async fn send(
    stream: &mut TcpStream,
    value: &Value,
    compress: bool,
) -> Result<(), Box<dyn std::error::Error>> {
    let text = value.to_string();
    let mut payload = text.into_bytes();
    if compress {
        let mut deflate = Compress::new(Compression::default(), false);
        let mut output = Vec::with_capacity(payload.len() + 64);
        deflate.compress_vec(&payload, &mut output, FlushCompress::Sync)?;
        assert!(output.ends_with(&TAIL));
        output.truncate(output.len() - TAIL.len());
        payload = output;
    }
    let mask = [0x12, 0x34, 0x56, 0x78];
    let mut frame = vec![if compress { 0xc1 } else { 0x81 }];
    assert!(payload.len() < 126);
    frame.push(0x80 | payload.len() as u8);
    frame.extend_from_slice(&mask);
    frame.extend(
        payload
            .iter()
            .enumerate()
            .map(|(i, byte)| byte ^ mask[i % 4]),
    );
    stream.write_all(&frame).await?;
    Ok(())
}

/// Chromium's offer is taken: the answer names the extension (with no context kept on either
/// side), the state comes compressed and reads back whole, and a compressed message from the
/// client is read and answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_offering_deflate_gets_compressed_messages() -> TestResult {
    let app = memory_app()?;
    let (id, _, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
    let address = serve(&app).await?;
    let path = format!("/api/games/{id}/ws");
    let (mut stream, answer) = open(
        address,
        &path,
        Some("permessage-deflate; client_max_window_bits"),
    )
    .await?;
    let answer = answer.ok_or("no Sec-WebSocket-Extensions in the answer")?;
    assert!(answer.starts_with("permessage-deflate"), "{answer}");
    assert!(answer.contains("server_no_context_takeover"), "{answer}");
    assert!(answer.contains("client_no_context_takeover"), "{answer}");

    let (state, frame) = next_message(&mut stream, "state").await?;
    assert!(
        frame.compressed,
        "the state was not compressed (RSV1 clear)"
    );
    let plain = serde_json::to_string(&state)?.len();
    assert!(
        frame.payload.len() * 2 < plain,
        "the state is {} bytes on the wire for {plain} bytes of text",
        frame.payload.len()
    );

    // A compressed message from the client: asking for the state again.
    send(&mut stream, &json!({"type": "state"}), true).await?;
    let (again, frame) = next_message(&mut stream, "state").await?;
    assert!(frame.compressed);
    assert_eq!(again, state);
    // And a plain one: each message says whether it is compressed.
    send(&mut stream, &json!({"type": "state"}), false).await?;
    let (again, _) = next_message(&mut stream, "state").await?;
    assert_eq!(again, state);
    Ok(())
}

/// A client that offers nothing (like tokio-tungstenite) gets no extension and plain frames;
/// so does one whose only offer the server cannot follow (a smaller window of the server's).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_not_offering_deflate_gets_plain_frames() -> TestResult {
    let app = memory_app()?;
    let (id, _, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
    let address = serve(&app).await?;
    let path = format!("/api/games/{id}/ws");
    for offer in [None, Some("permessage-deflate; server_max_window_bits=10")] {
        let (mut stream, answer) = open(address, &path, offer).await?;
        assert_eq!(answer, None, "offer {offer:?}");
        let (_, frame) = next_message(&mut stream, "state").await?;
        assert!(!frame.compressed, "offer {offer:?}");
    }

    let url = format!("ws://{address}{path}");
    let (mut socket, response) = tokio_tungstenite::connect_async(&url).await?;
    assert!(response.headers().get("sec-websocket-extensions").is_none());
    next_json(&mut socket, "state").await?;
    send_json(&mut socket, json!({"type": "state"})).await?;
    next_json(&mut socket, "state").await?;

    // The lobby and analysis sockets take the same path.
    for path in ["/api/lobby/ws", "/api/analysis/ws"] {
        let (_, answer) = open(address, path, None).await?;
        assert_eq!(answer, None, "{path}");
        let (_, answer) = open(address, path, Some("permessage-deflate")).await?;
        assert!(
            answer.is_some_and(|answer| answer.starts_with("permessage-deflate")),
            "{path}"
        );
    }
    Ok(())
}

/// What the sockets of a game send for one move pair at ply 30, on the wire, with and
/// without the extension (printed; the compressed one must be smaller).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_pair_costs_fewer_bytes_compressed() -> TestResult {
    let app = memory_app()?;
    let (id, token, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
    for _ in 0..30 {
        let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), Some(&token), None).await?;
        let legal = legal_texts(&state);
        let first = legal.first().ok_or("no legal move before ply 30")?;
        play(&app, &id, &token, first).await?;
    }
    let address = serve(&app).await?;
    let path = format!("/api/games/{id}/ws");
    let (mut plain, _) = open(address, &path, None).await?;
    let (mut deflated, _) = open(address, &path, Some("permessage-deflate")).await?;
    next_message(&mut plain, "state").await?;
    next_message(&mut deflated, "state").await?;
    // Each move's update is read before the next move is made: a socket that falls behind
    // may tell two moves in one update.
    let mut bytes = [0, 0];
    for _ in 0..2 {
        let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), Some(&token), None).await?;
        let legal = legal_texts(&state);
        play(&app, &id, &token, legal.first().ok_or("no legal move")?).await?;
        for (n, stream) in [&mut plain, &mut deflated].into_iter().enumerate() {
            let (_, frame) = next_message(stream, "update").await?;
            bytes[n] += frame.wire_len;
        }
    }
    eprintln!(
        "a move pair at ply 30 on a watcher's socket: {} bytes plain, {} compressed",
        bytes[0], bytes[1]
    );
    assert!(bytes[1] < bytes[0], "{bytes:?}");
    Ok(())
}
