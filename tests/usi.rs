//! The USI engine (`examples/usi.rs`) driven over pipes, as a GUI drives it: a whole
//! conversation with every reply checked (options, isready, positions, mates, no-mates, time
//! and node limits, `stop` during `go mate infinite`, `isready` during a search, bad lines,
//! positions the solver cannot take, the side to move in check, `go` for a game, `go
//! infinite` and `go ponder`, `gameover`, `quit` during a search, end of input, a table too
//! large to allocate).
//!
//! The engine is the example binary next to this test's binary (`target/<profile>/examples/usi`);
//! the test runs `cargo build --example usi` first with the same profile, since `cargo test
//! --test usi` alone does not build examples.

#[path = "common/examples.rs"]
mod examples;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};
use tsume::solver::verify_mate;
use tsume::{Move, Position};

/// The 3-ply problem of the README: ▲５二角成 △同　銀左 ▲４二銀打.
const THREE: &str = "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1";
const THREE_LINE: &str = "9f5b+ 4a5b S*4b";
/// No mate: one gold drop, and the king takes it.
const NO_MATE: &str = "4k4/9/9/9/9/9/9/9/4K4 b G2r2b3g4s4n4l18p 1";
/// Microcosmos (1525 plies): long enough for every limit to run out first.
const LONG: &str =
    "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1";
/// Black to move is in check (knight on 2f) and mates by getting out of it with a discovered
/// check: 1h2g (the lance on 1i then checks 1a). White's only reply, 2f1h+, is a futile
/// interposition (移動合): 1i1h takes the knight, which goes to neither hand, and that is mate,
/// so the line ends at 1h2g. (When the rule gave the moved knight back to White's hand, White
/// could drop it again between and the 移動合 counted: 1h2g 2f1h+ 1i1h.)
const IN_CHECK_MATE: &str = "8k/6G2/9/9/9/7n1/9/8K/8L b - 1";
/// The same without the lance: no evasion gives check, so no mate.
const IN_CHECK_NO_MATE: &str = "8k/6G2/9/9/9/7n1/9/8K/9 b - 1";

/// The engine binary, built (or brought up to date) once per test run.
fn engine_path() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| examples::build(&["usi"])).clone()
}

/// The engine, with its output read on a thread.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything sent and received, for the failure messages.
    log: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        // Run from another directory: a GUI starts it from anywhere.
        let mut child = Command::new(engine_path())
            .current_dir(std::env::temp_dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the engine");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            log: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        self.log.push(format!("> {line}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to the engine");
        stdin.flush().unwrap();
    }

    /// The next line within `timeout`, or `None`.
    fn next(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.log.push(format!("< {l}"));
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// The lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let end = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.next(left) {
                Some(l) => {
                    let done = l.starts_with(prefix);
                    out.push(l);
                    if done {
                        return out;
                    }
                }
                None => panic!(
                    "no '{prefix}' within {timeout:?}; conversation:\n{}",
                    self.log.join("\n")
                ),
            }
        }
    }

    /// Asserts that nothing arrives within `wait`.
    fn silent(&mut self, wait: Duration) {
        if let Some(l) = self.next(wait) {
            panic!("unexpected '{l}'; conversation:\n{}", self.log.join("\n"));
        }
    }

    /// `isready` → `readyok`, with nothing but `info` lines before it.
    fn ready(&mut self) -> Vec<String> {
        self.send("isready");
        let lines = self.until("readyok", Duration::from_secs(30));
        for l in &lines[..lines.len() - 1] {
            assert!(l.starts_with("info "), "before readyok: {l}");
        }
        lines
    }

    /// `go mate ...` and the `checkmate` answer, with only `info` lines before it.
    fn go_mate(&mut self, sfen: &str, limit: &str) -> (Vec<String>, String) {
        self.send(&format!("position sfen {sfen}"));
        self.send(&format!("go mate {limit}"));
        self.answer("checkmate")
    }

    /// The lines up to the answer starting with `word`: only `info` lines before it.
    fn answer(&mut self, word: &str) -> (Vec<String>, String) {
        let mut lines = self.until(word, Duration::from_secs(60));
        let answer = lines.pop().unwrap();
        for l in &lines {
            assert!(l.starts_with("info "), "before {word}: {l}");
        }
        (lines, answer)
    }

    /// Waits for the process to end; its exit status.
    fn wait_exit(&mut self, timeout: Duration) -> std::process::ExitStatus {
        let end = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < end,
                "the engine did not exit within {timeout:?}"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The moves of a `checkmate` answer, verified as a mate from `sfen` by the rules core:
/// every attacker move checks, the end is mate.
fn verified(sfen: &str, answer: &str) -> Vec<Move> {
    let pos = Position::from_sfen(sfen).unwrap();
    let moves: Vec<Move> = answer
        .strip_prefix("checkmate ")
        .expect("a checkmate answer")
        .split_whitespace()
        .map(|m| Move::from_usi(m).unwrap_or_else(|e| panic!("{m}: {e}")))
        .collect();
    verify_mate(&pos, &moves).unwrap_or_else(|e| panic!("{answer}: {e}"));
    moves
}

fn has_info_string(lines: &[String], text: &str) -> bool {
    lines
        .iter()
        .any(|l| l.starts_with("info string") && l.contains(text))
}

#[test]
fn a_whole_conversation() {
    let mut e = Engine::start();
    let secs = Duration::from_secs;

    // usi: id lines, options, usiok.
    e.send("usi");
    let lines = e.until("usiok", secs(10));
    assert!(lines[0].starts_with("id name tsume "), "{}", lines[0]);
    assert!(lines[1].starts_with("id author "), "{}", lines[1]);
    for l in &lines[2..lines.len() - 1] {
        assert!(l.starts_with("option name "), "{l}");
    }
    for name in [
        "USI_Hash type spin default 256 min 1",
        "NodesLimit type spin default 0 min 0",
        "ShortestNodes type spin default 0 min 0",
        "PvInterval type spin default 1000 min 0",
        "TightenLine type check default true",
        "Threads type spin default ",
        "MaxMateLength type spin default 0 min 0",
        "FillDefenderHand type check default false",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {name}"))),
            "option {name} missing: {lines:?}"
        );
    }

    // Options: good ones are silent, bad ones get an info string naming the problem.
    e.send("setoption name USI_Hash value 32");
    e.send("setoption name USI_Ponder value true");
    e.send("setoption name PvInterval value 100");
    e.send("setoption name Threads value 2");
    e.silent(Duration::from_millis(200));
    e.send("setoption name Threads value 0");
    let l = e.next(secs(5)).unwrap();
    assert!(l.contains("at least 1 thread"), "{l}");
    e.send("setoption name Bogus value 1");
    let l = e.next(secs(5)).unwrap();
    assert_eq!(l, "info string setoption: unknown option 'Bogus'");
    e.send("setoption name NodesLimit value -5");
    let l = e.next(secs(5)).unwrap();
    assert!(
        l.starts_with("info string setoption: bad value '-5' for option NodesLimit"),
        "{l}"
    );
    e.send("setoption name TightenLine value maybe");
    let l = e.next(secs(5)).unwrap();
    assert!(l.contains("expected true or false"), "{l}");
    e.send("setoption USI_Hash 5");
    let l = e.next(secs(5)).unwrap();
    assert!(l.starts_with("info string setoption: expected"), "{l}");

    // isready allocates the table and says how USI_Hash is shared out.
    let lines = e.ready();
    assert!(
        has_info_string(&lines, "USI_Hash 32 MiB: transposition table"),
        "{lines:?}"
    );
    // A second isready with the same size allocates nothing.
    let lines = e.ready();
    assert_eq!(lines, ["readyok"]);
    e.send("usinewgame");

    // A mate: the crate's main line, proven shortest.
    let (info, answer) = e.go_mate(THREE, "10000");
    assert_eq!(answer, format!("checkmate {THREE_LINE}"));
    verified(THREE, &answer);
    assert!(
        info.iter().any(|l| l.starts_with("info time ")
            && l.contains(" nodes ")
            && l.contains(" nps ")
            && l.contains(" hashfull ")),
        "{info:?}"
    );
    assert!(
        info.iter().any(|l| l == "info string mate in 3"),
        "{info:?}"
    );
    // The first mate is announced as soon as it is proven, before the length work.
    assert!(
        has_info_string(&info, "first mate found: 3 plies"),
        "{info:?}"
    );

    // ShortestNodes 1: no nodes to prove the length shortest, and the answer says so.
    e.send("setoption name ShortestNodes value 1");
    let (info, answer) = e.go_mate(THREE, "10000");
    assert_eq!(answer, format!("checkmate {THREE_LINE}"));
    assert!(
        has_info_string(&info, "mate in 3 (not proven shortest)"),
        "{info:?}"
    );
    e.send("setoption name ShortestNodes value 0");

    // Each shorter mate is announced as it is proven: this mate in 9 has a first proof of 13.
    let nine = "lR3G1nl/6kb1/2gp3p1/2s1p1P2/p4N2p/P3PpR2/1PPP1P2P/2G1K2s1/LN6L b SN2Pbgs2p 1";
    let (info, answer) = e.go_mate(nine, "10000");
    assert_eq!(verified(nine, &answer).len(), 9, "{answer}");
    assert!(
        has_info_string(&info, "first mate found: 13 plies"),
        "{info:?}"
    );
    assert!(
        has_info_string(&info, "shorter mate found: 9 plies"),
        "{info:?}"
    );

    // `moves` after the sfen: the same problem two plies on, a mate in 1.
    e.send(&format!("position sfen {THREE} moves 9f5b+ 4a5b"));
    e.send("go mate infinite");
    let (_, answer) = e.answer("checkmate");
    assert_eq!(answer, "checkmate S*4b");

    // No mate.
    let (info, answer) = e.go_mate(NO_MATE, "10000");
    assert_eq!(answer, "checkmate nomate");
    assert!(has_info_string(&info, "no mate"), "{info:?}");

    // startpos: no mate for Black.
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go mate 1000");
    assert_eq!(e.answer("checkmate").1, "checkmate nomate");

    // A time limit: answered on time, with `timeout`.
    let t = Instant::now();
    let (info, answer) = e.go_mate(LONG, "300");
    assert_eq!(answer, "checkmate timeout");
    assert!(t.elapsed() < secs(3), "{:?}", t.elapsed());
    assert!(has_info_string(&info, "timeout"), "{info:?}");

    // A node limit.
    e.send("setoption name NodesLimit value 20000");
    let (info, answer) = e.go_mate(LONG, "infinite");
    assert_eq!(answer, "checkmate timeout");
    assert!(has_info_string(&info, "node limit reached"), "{info:?}");
    e.send("setoption name NodesLimit value 0");

    // stop during go mate infinite, after the first progress line; isready is answered
    // during the search.
    e.send(&format!("position sfen {LONG}"));
    e.send("go mate infinite");
    let first = e.until("info time", secs(10));
    assert!(first.iter().all(|l| l.starts_with("info")), "{first:?}");
    e.send("isready");
    let lines = e.until("readyok", secs(5));
    assert!(
        lines[..lines.len() - 1]
            .iter()
            .all(|l| l.starts_with("info")),
        "{lines:?}"
    );
    // Commands other than stop, quit, isready, ponderhit wait for the answer, silently.
    e.send("setoption name PvInterval value 0");
    let t = Instant::now();
    e.send("stop");
    let (_, answer) = e.answer("checkmate");
    let latency = t.elapsed();
    assert_eq!(answer, "checkmate timeout");
    // The engine answers within 0.1 s of the stop on a quiet machine (see the README); the
    // bound here leaves room for a loaded CI machine.
    assert!(
        latency < Duration::from_millis(1000),
        "stop took {latency:?}"
    );
    // PvInterval 0 (sent during the search, applied after it): no progress lines.
    let (info, answer) = e.go_mate(THREE, "infinite");
    assert_eq!(answer, format!("checkmate {THREE_LINE}"));
    assert_eq!(
        info.iter().filter(|l| l.starts_with("info time")).count(),
        1,
        "only the final counters: {info:?}"
    );

    // Bad lines: an info string each, and the engine stays alive.
    e.send("hello world");
    let l = e.next(secs(5)).unwrap();
    assert_eq!(
        l,
        "info string unknown command 'hello' (line 'hello world')"
    );
    e.send("");
    e.send("   ");
    e.silent(Duration::from_millis(100));
    // A bad position: said at once, and again at go, which answers notimplemented.
    e.send("position sfen 9/9/9 b - 1");
    let l = e.next(secs(5)).unwrap();
    assert!(
        l.starts_with("info string position: bad position: ")
            && l.ends_with("(column 15 of 'position sfen 9/9/9 b - 1')"),
        "{l}"
    );
    e.send("go mate 1000");
    let (info, answer) = e.answer("checkmate");
    assert_eq!(answer, "checkmate notimplemented");
    assert!(
        has_info_string(&info, "no valid position: position: bad position: "),
        "{info:?}"
    );
    e.send("position nonsense");
    let l = e.next(secs(5)).unwrap();
    assert!(l.contains("expected 'startpos' or 'sfen'"), "{l}");
    e.send("go mate 1000");
    let (info, answer) = e.answer("checkmate");
    assert_eq!(answer, "checkmate notimplemented");
    assert!(
        has_info_string(&info, "expected 'startpos' or 'sfen'"),
        "{info:?}"
    );
    // A bad position followed by a good one is still said, and while a search runs (`go
    // infinite` holds its answer until stop) bad lines are answered at once too.
    e.send("position garbage");
    e.send(&format!("position sfen {THREE}"));
    let l = e.next(secs(5)).unwrap();
    assert!(l.contains("expected 'startpos' or 'sfen'"), "{l}");
    e.send("go infinite");
    e.send("hello");
    let l = e
        .until("info string unknown command", secs(5))
        .pop()
        .unwrap();
    assert_eq!(l, "info string unknown command 'hello' (line 'hello')");
    e.send("position nonsense");
    let l = e.until("info string position:", secs(5)).pop().unwrap();
    assert!(l.contains("expected 'startpos' or 'sfen'"), "{l}");
    e.send("stop");
    let (_, answer) = e.answer("bestmove");
    assert!(answer.starts_with("bestmove "), "{answer}");
    // The queued bad position applies after the answer, silently (it was said already).
    e.send(&format!("position sfen {THREE}"));
    e.silent(Duration::from_millis(100));
    // An illegal move in the move list.
    e.send("position startpos moves 7g7f 7g7f");
    e.send("go mate 1000");
    let (info, answer) = e.answer("checkmate");
    assert_eq!(answer, "checkmate notimplemented");
    assert!(
        has_info_string(&info, "move 2 \"7g7f\" is illegal"),
        "{info:?}"
    );
    e.send("position startpos moves 7g7x");
    e.send("go mate 1000");
    assert_eq!(e.answer("checkmate").1, "checkmate notimplemented");
    // A malformed go mate.
    e.send(&format!("position sfen {THREE}"));
    e.send("go mate soon");
    let (info, answer) = e.answer("checkmate");
    assert_eq!(answer, "checkmate notimplemented");
    assert!(
        has_info_string(&info, "go mate: expected a time"),
        "{info:?}"
    );
    // No defending king: the solver cannot take it.
    let (info, answer) = e.go_mate("9/9/9/9/9/9/9/9/4K4 b G 1", "1000");
    assert_eq!(answer, "checkmate notimplemented");
    assert!(has_info_string(&info, "has no king"), "{info:?}");

    // The side to move in check: it is still the attacker; its first move gets out of check
    // and gives check.
    let (_, answer) = e.go_mate(IN_CHECK_MATE, "10000");
    let moves = verified(IN_CHECK_MATE, &answer);
    let pos = Position::from_sfen(IN_CHECK_MATE).unwrap();
    assert!(pos.in_check() && pos.evasions().contains(&moves[0]));
    assert_eq!(answer, "checkmate 1h2g");
    let (info, answer) = e.go_mate(IN_CHECK_NO_MATE, "10000");
    assert_eq!(answer, "checkmate nomate");
    assert!(
        has_info_string(&info, "in check and no evasion gives check"),
        "{info:?}"
    );

    // FillDefenderHand: the defender gets every piece not on the board.
    e.send("setoption name FillDefenderHand value true");
    let (_, answer) = e.go_mate("3sks3/9/4S4/9/9/B8/9/9/9 b S 1", "10000");
    assert_eq!(answer, format!("checkmate {THREE_LINE}"));
    e.send("setoption name FillDefenderHand value false");

    // MaxMateLength: no mate within 1 ply.
    e.send("setoption name MaxMateLength value 1");
    assert_eq!(e.go_mate(THREE, "10000").1, "checkmate nomate");
    e.send("setoption name MaxMateLength value 0");

    // go for a game: score mate and bestmove; no mate: resign.
    e.send(&format!("position sfen {THREE}"));
    e.send("go btime 60000 wtime 60000 byoyomi 1000");
    let (info, answer) = e.answer("bestmove");
    assert_eq!(answer, "bestmove 9f5b+");
    assert!(
        info.iter()
            .any(|l| l.contains(&format!("score mate 3 pv {THREE_LINE}"))),
        "{info:?}"
    );
    e.send(&format!("position sfen {NO_MATE}"));
    e.send("go byoyomi 1000");
    assert_eq!(e.answer("bestmove").1, "bestmove resign");
    // A game position with no mate in the time given: resign when the time is up.
    e.send(&format!("position sfen {LONG}"));
    let t = Instant::now();
    e.send("go movetime 300");
    assert_eq!(e.answer("bestmove").1, "bestmove resign");
    assert!(t.elapsed() < secs(3));
    // go infinite: the answer waits for stop.
    e.send(&format!("position sfen {THREE}"));
    e.send("go infinite");
    e.silent(Duration::from_millis(300));
    e.send("stop");
    assert_eq!(e.answer("bestmove").1, "bestmove 9f5b+");
    // go ponder: the answer waits for ponderhit.
    e.send("go ponder btime 1000 wtime 1000 byoyomi 1000");
    e.silent(Duration::from_millis(300));
    e.send("ponderhit");
    assert_eq!(e.answer("bestmove").1, "bestmove 9f5b+");
    // gameover during a search: no answer wanted, the engine goes on.
    e.send(&format!("position sfen {LONG}"));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("gameover lose");
    e.silent(Duration::from_millis(300));
    assert_eq!(e.ready(), ["readyok"]);
    // gameover after go infinite has found its answer (held back for stop): dropped too.
    e.send(&format!("position sfen {THREE}"));
    e.send("go infinite");
    e.silent(Duration::from_millis(300));
    e.send("gameover win");
    e.silent(Duration::from_millis(100));
    e.send("go mate 1000");
    assert_eq!(e.answer("checkmate").1, format!("checkmate {THREE_LINE}"));

    // quit during a search: the engine exits at once.
    e.send(&format!("position sfen {LONG}"));
    e.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    e.send("quit");
    let status = e.wait_exit(secs(5));
    assert!(status.success(), "{status:?}");
    assert!(
        t.elapsed() < Duration::from_millis(1000),
        "{:?}",
        t.elapsed()
    );
}

#[test]
fn end_of_input_is_quit() {
    let mut e = Engine::start();
    e.send("usi");
    e.until("usiok", Duration::from_secs(10));
    e.send(&format!("position sfen {LONG}"));
    e.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.stdin = None;
    let status = e.wait_exit(Duration::from_secs(5));
    assert!(status.success(), "{status:?}");
}

#[test]
fn a_table_too_large_is_an_error_not_an_abort() {
    // Linux with overcommit_memory = 1 grants any request (the pages come when touched):
    // there is then nothing to test.
    if std::fs::read_to_string("/proc/sys/vm/overcommit_memory").is_ok_and(|s| s.trim() == "1") {
        eprintln!("skipped: vm.overcommit_memory = 1 grants every allocation");
        return;
    }
    let mut e = Engine::start();
    e.send("setoption name USI_Hash value 1048576");
    let lines = e.ready();
    assert!(has_info_string(&lines, "cannot allocate"), "{lines:?}");
    let (info, answer) = e.go_mate(THREE, "1000");
    assert_eq!(answer, "checkmate notimplemented");
    assert!(has_info_string(&info, "cannot allocate"), "{info:?}");
    // A size that fits: the engine works again.
    e.send("setoption name USI_Hash value 32");
    e.ready();
    assert_eq!(
        e.go_mate(THREE, "1000").1,
        format!("checkmate {THREE_LINE}")
    );
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)).success());
}
