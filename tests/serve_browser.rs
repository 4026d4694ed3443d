//! The `serve` example's page in headless Chromium, driven through chromedriver over
//! WebDriver (plain HTTP, no client crate): paste a KIF and solve it, check a flawed problem
//! and choose its flaw, edit a piece and see the SFEN change. A screenshot of each state is
//! written to `target/serve-screenshots/`.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them). Without them the
//! test says so and passes without checking anything, except under CI (the `CI` variable
//! set), where a missing tool is a failure.

#[path = "common/serve.rs"]
mod serve;

use serde_json::{Value, json};
use serve::{Server, request};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// WebDriver's key for an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Says why the test checks nothing; under CI a missing tool is a failure instead.
fn skip(why: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set and the browser test cannot run: {why}"
    );
    eprintln!("skipped: {why}");
}

struct Driver {
    child: Child,
    addr: String,
    session: String,
    profile: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = request(
            &self.addr,
            "DELETE",
            &format!("/session/{}", self.session),
            b"",
        );
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

impl Driver {
    fn start() -> Driver {
        let port = free_port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let addr = format!("127.0.0.1:{port}");
        let started = Instant::now();
        loop {
            let ready = std::net::TcpStream::connect(&addr).is_ok()
                && request(&addr, "GET", "/status", b"").json()["value"]["ready"] == true;
            if ready {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "chromedriver did not come up"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile =
            std::env::temp_dir().join(format!("tsume-chromium-{}-{port}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).expect("a fresh profile folder");
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--window-size=1280,1000",
                    format!("--user-data-dir={}", profile.display()),
                ],
            },
        }}});
        let mut driver = Driver {
            child,
            addr,
            session: String::new(),
            profile,
        };
        let v = driver.call("POST", "/session", Some(caps));
        driver.session = v["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {v}"))
            .to_string();
        driver
    }

    /// A WebDriver command; its `value`.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let r = request(&self.addr, method, path, body.as_bytes());
        let v = r.json();
        assert!(r.status == 200, "{method} {path}: {} {}", r.status, r.body);
        v["value"].clone()
    }

    fn session(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    fn go(&self, url: &str) {
        self.session("POST", "/url", Some(json!({"url": url})));
    }

    fn find(&self, css: &str) -> String {
        let v = self.session(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        v[ELEMENT].as_str().expect("an element").to_string()
    }

    fn find_all(&self, css: &str) -> Vec<String> {
        let v = self.session(
            "POST",
            "/elements",
            Some(json!({"using": "css selector", "value": css})),
        );
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|e| e[ELEMENT].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn click(&self, css: &str) {
        let id = self.find(css);
        self.session("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    fn text(&self, css: &str) -> String {
        let id = self.find(css);
        self.session("GET", &format!("/element/{id}/text"), None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    fn script(&self, script: &str, args: Value) -> Value {
        self.session(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
    }

    fn keys(&self, css: &str, text: &str) {
        let id = self.find(css);
        self.session(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({"text": text})),
        );
    }

    /// Waits until the text of `css` contains `words`; the text.
    fn wait_text(&self, css: &str, words: &str) -> String {
        let started = Instant::now();
        loop {
            let t = self.text(css);
            if t.contains(words) {
                return t;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "{css} never showed {words:?}; it shows {t:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn screenshot(&self, file: &Path) {
        let b64 = self.session("GET", "/screenshot", None);
        let png = base64_decode(b64.as_str().expect("base64 PNG"));
        assert!(png.starts_with(b"\x89PNG"), "not a PNG");
        std::fs::write(file, png).expect("write the screenshot");
        eprintln!("screenshot: {}", file.display());
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => continue,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

fn shots() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/serve-screenshots");
    std::fs::create_dir_all(&dir).expect("the screenshot folder");
    dir
}

/// Pastes `text` into the problem box as a user's paste does (the value set, an input
/// event), then presses Load.
fn paste_and_load(d: &Driver, text: &str) {
    d.script(
        "const t = document.getElementById('problem-text'); t.value = arguments[0]; \
         t.dispatchEvent(new Event('input', {bubbles: true}));",
        json!([text]),
    );
    d.click("#load");
}

#[test]
fn the_page_solves_checks_and_edits_in_a_real_browser() {
    for tool in [CHROMIUM, CHROMEDRIVER] {
        if !Path::new(tool).exists() {
            skip(&format!(
                "{tool} is missing (apt-get install chromium chromium-driver)"
            ));
            return;
        }
    }
    let server = Server::start(&["--memory-mib", "64", "--jobs", "2"]);
    let d = Driver::start();
    let dir = shots();
    d.go(&format!("http://{}/", server.addr));
    d.wait_text("#hand-bottom", "持駒");

    // 1. A KIF pasted and solved: the length and the moves, stepped with the arrow keys.
    let kif = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/problems/classic.kif"))
        .expect("classic.kif");
    let (kif, _) = tsume::problem::decode(&kif);
    paste_and_load(&d, &kif);
    d.wait_text("#line-title", "kif");
    d.click("#solve");
    let status = d.wait_text("#status", "mate in 3");
    assert_eq!(status, "mate in 3");
    let moves: Vec<String> = d
        .find_all("#moves li")
        .iter()
        .map(|id| {
            d.session("GET", &format!("/element/{id}/text"), None)
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    assert_eq!(moves, ["▲５二角成", "△同　銀左", "▲４二銀打"]);
    d.keys("body", "\u{E014}\u{E014}\u{E014}"); // three times →
    assert_eq!(d.text("#ply"), "ply 3 / 3");
    let last = d.script(
        "return document.querySelector('.sq.last').dataset.square",
        json!([]),
    );
    assert_eq!(last, "4b", "the last move is marked");
    d.screenshot(&dir.join("1-solved-kif.png"));

    // 2. A flawed problem of problems/flawed.sfen checked: its 余詰 at ply 1, chosen.
    let flawed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/problems/flawed.sfen"))
            .expect("flawed.sfen");
    let line = flawed
        .lines()
        .find(|l| l.contains("expect: alternative_mate@1:9f5b+"))
        .expect("the lance problem");
    let sfen = line.split('#').next().unwrap_or_default().trim();
    paste_and_load(&d, sfen);
    d.wait_text("#hand-bottom", "香");
    d.click("#check");
    let verdict = d.wait_text("#verdict", "unsound");
    assert!(verdict.contains("1 fatal flaw"), "{verdict}");
    let flaw = "#flaws li[data-kind='alternative_mate'][data-ply='1']";
    let text = d.text(flaw);
    assert!(
        text.contains("余詰") && text.contains("ply 1") && text.contains("▲５二角成"),
        "{text}"
    );
    d.click(flaw);
    d.wait_text("#line-title", "余詰 at ply 1");
    assert!(d.text("#ply").starts_with("ply 1 / "));
    let last = d.script(
        "return document.querySelector('.sq.last').dataset.square",
        json!([]),
    );
    assert_eq!(last, "5b", "the flaw's move is shown on the board");
    d.screenshot(&dir.join("2-checked-flaw.png"));

    // 3. A piece edited on the board: the SFEN follows.
    let sfen_value = || {
        d.script("return document.getElementById('sfen').value", json!([]))
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let before = sfen_value();
    d.click("#edit-box summary");
    d.click("#palette button[data-piece='P']");
    d.click("#board .sq[data-square='1i']");
    let after = sfen_value();
    assert_ne!(before, after);
    let rank9 = after
        .split(' ')
        .next()
        .unwrap()
        .split('/')
        .nth(8)
        .unwrap()
        .to_string();
    assert_eq!(rank9, "8P", "{after}");
    // The defender holds the rest: one pawn fewer.
    assert!(after.contains("17p"), "{after}");
    let piece = d.script(
        "return document.querySelector(\"#board .sq[data-square='1i']\").dataset.piece",
        json!([]),
    );
    assert_eq!(piece, "P");
    d.wait_text("#kif-box", "");
    let kif_text = d
        .script("return document.getElementById('kif').value", json!([]))
        .as_str()
        .unwrap_or_default()
        .to_string();
    let started = Instant::now();
    let mut kif_text = kif_text;
    while !kif_text.contains("歩|九") && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(100));
        kif_text = d
            .script("return document.getElementById('kif').value", json!([]))
            .as_str()
            .unwrap_or_default()
            .to_string();
    }
    assert!(kif_text.contains("歩|九"), "the KIF follows: {kif_text}");
    d.screenshot(&dir.join("3-edited-piece.png"));
}
