//! The `serve` example for the tests that talk to it: a server on a free loopback port, ended
//! when dropped, and a plain HTTP/1.1 client over `TcpStream` (one request a connection).

#![allow(dead_code)]

#[path = "examples.rs"]
mod examples;

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

/// The serve binary, built once per test program.
pub fn binary() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| examples::build(&["serve"])).clone()
}

/// A running server.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Server {
    /// Starts the server on a free loopback port with `args` besides.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(binary())
            .args(["--addr", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start the serve example");
        let mut first = String::new();
        let stdout = child.stdout.take().expect("its standard output");
        BufReader::new(stdout)
            .read_line(&mut first)
            .expect("read the address line");
        let addr = first
            .trim()
            .strip_prefix("tsume serve: http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .to_string();
        Server { child, addr }
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// `method path` with `body`: the status, the headers (lower-case names) and the body.
    pub fn request(&self, method: &str, path: &str, body: &[u8]) -> Reply {
        request(&self.addr, method, path, body)
    }

    pub fn get(&self, path: &str) -> Reply {
        self.request("GET", path, b"")
    }

    pub fn post(&self, path: &str, body: &Value) -> Reply {
        self.request("POST", path, body.to_string().as_bytes())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An answer.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    /// The body as JSON (panics with the body when it is not).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// One request on a fresh connection. A server that stops reading a body it refuses may
/// close the connection while it is still being sent: the answer is read all the same.
pub fn request(addr: &str, method: &str, path: &str, body: &[u8]) -> Reply {
    let mut s = TcpStream::connect(addr).expect("connect to the server");
    s.set_read_timeout(Some(Duration::from_secs(120))).ok();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = s.write_all(head.as_bytes());
    let _ = s.write_all(body);
    let _ = s.flush();
    // Read the head, then as many bytes as Content-Length says: a server may keep the
    // connection open whatever the request asked (chromedriver does).
    let mut raw = Vec::new();
    let mut buf = [0u8; 16384];
    let mut wanted: Option<usize> = None;
    loop {
        if let Some(end) = find(&raw, b"\r\n\r\n") {
            if wanted.is_none() {
                let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
                let length = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|n| n.trim().parse::<usize>().ok());
                wanted = Some(length.map_or(usize::MAX, |n| end + 4 + n));
            }
            if wanted.is_some_and(|w| raw.len() >= w) {
                break;
            }
        }
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
        }
    }
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Reply {
        status,
        headers,
        body: body.to_string(),
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Standard base64 with padding.
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.len();
        let v = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= n {
                out.push(A[(v >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The problem of the classic mate in 3 (a 変同 at ply 2).
pub const CLASSIC: &str = "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1";
/// Microcosmos (1525 plies): far more than any test lets a job search.
pub const MICROCOSMOS: &str =
    "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1";
