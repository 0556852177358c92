//! A `bashni serve` started by a test, and plain HTTP requests to it.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use serde_json::Value;

/// Runs the program with `args` and waits for its end.
pub fn bashni(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bashni"))
        .args(args)
        .output()
        .expect("the program runs")
}

/// Any error of a test.
pub type Error = Box<dyn std::error::Error>;

/// A running server, killed when dropped.
pub struct Server {
    /// The server's process.
    pub child: Child,
    /// Where it listens.
    pub address: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn start(db: &std::path::Path) -> Result<Server, Error> {
    start_with(db, &[])
}

pub fn start_with(db: &std::path::Path, more: &[&std::ffi::OsStr]) -> Result<Server, Error> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bashni"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .args([
            "--log",
            "info",
            "--db-wait",
            "1",
            "--engines",
            "1",
            "--hash",
            "4",
        ])
        .args(more)
        .env_remove("RUST_LOG")
        .env_remove("BASHNI_EGTB")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line)?;
    let address = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .ok_or_else(|| format!("no address in {line:?}"))?
        .to_string();
    Ok(Server { child, address })
}

/// One HTTP request on its own connection; the status and the body.
pub fn request(
    server: &Server,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> Result<(u16, Value), Error> {
    let mut stream = TcpStream::connect(&server.address)?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let token = token.map_or(String::new(), |t| format!("x-seat-token: {t}\r\n"));
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n{token}\
         content-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer)?;
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or("no status")?;
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
    Ok((status, serde_json::from_str(body).unwrap_or(Value::Null)))
}
