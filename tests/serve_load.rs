//! A load test of the `serve` example on loopback: a few hundred requests, eight at a time,
//! good and bad mixed. Every good answer must be right (the mate length or the verdict that
//! `problems/antma.sfen` and `problems/yaneuraou.sfen` give), every bad one a clear error
//! with its status, and at the end the server must be alive and within its memory budget.
//! A good request answered "busy" (more jobs than the server runs at once) is retried after
//! the `Retry-After` it gets, as a client should. Prints the figures: requests, failures,
//! busy answers, peak memory.

#[path = "common/serve.rs"]
mod serve;

use serde_json::json;
use serve::{Server, request};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const REQUESTS: usize = 320;
const CLIENTS: usize = 8;
const MEMORY_MIB: u64 = 96;
/// What the process may hold besides the tables: code, thread stacks as deep as short
/// searches go, buffers of requests in flight.
const OVERHEAD_MIB: u64 = 64;

/// A problem of the suites: its SFEN, mate length and the checker's verdict.
struct Known {
    sfen: String,
    length: u64,
    verdict: String,
}

fn suites() -> Vec<Known> {
    let mut out = Vec::new();
    for file in ["problems/antma.sfen", "problems/yaneuraou.sfen"] {
        let text = std::fs::read_to_string(format!("{}/{file}", env!("CARGO_MANIFEST_DIR")))
            .expect("a suite");
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let (sfen, comment) = line.split_once('#').expect("a comment");
            let length = comment
                .split_whitespace()
                .next()
                .and_then(|n| n.parse().ok());
            let verdict = comment
                .split("check:")
                .nth(1)
                .and_then(|c| c.split_whitespace().next());
            if let (Some(length), Some(verdict)) = (length, verdict) {
                out.push(Known {
                    sfen: sfen.trim().to_string(),
                    length,
                    verdict: verdict.to_string(),
                });
            }
        }
    }
    out
}

/// Request `i`: its method, path, body, and what a right answer is.
enum Expect {
    Length(u64),
    Verdict(String),
    Error(u16, &'static str),
    Status,
}

fn make(i: usize, known: &[Known]) -> (&'static str, &'static str, Vec<u8>, Expect) {
    let k = &known[(i * 7) % known.len()];
    match i % 10 {
        0..=3 => (
            "POST",
            "/api/solve",
            json!({"problem": k.sfen, "time_s": 20})
                .to_string()
                .into_bytes(),
            Expect::Length(k.length),
        ),
        4 | 5 => (
            "POST",
            "/api/check",
            json!({"problem": k.sfen, "time_s": 20})
                .to_string()
                .into_bytes(),
            Expect::Verdict(k.verdict.clone()),
        ),
        6 => {
            // The board cut short: the parser names what is wrong.
            let cut = k.sfen.split_once('/').map_or("x", |(a, _)| a).to_string();
            (
                "POST",
                "/api/solve",
                json!({"problem": format!("{cut} b - 1")})
                    .to_string()
                    .into_bytes(),
                Expect::Error(400, "bad_problem"),
            )
        }
        7 => match i % 3 {
            0 => (
                "POST",
                "/api/check",
                b"{\"problem\": ".to_vec(),
                Expect::Error(400, "bad_request"),
            ),
            1 => (
                "POST",
                "/api/solve",
                json!({"problem": k.sfen, "nodes": 0})
                    .to_string()
                    .into_bytes(),
                Expect::Error(400, "bad_request"),
            ),
            _ => (
                "POST",
                "/api/solve",
                if i % 70 == 7 {
                    vec![b'{'; (1 << 20) + 10]
                } else {
                    json!({"problem": k.sfen, "time_s": 1e9})
                        .to_string()
                        .into_bytes()
                },
                if i % 70 == 7 {
                    Expect::Error(413, "too_large")
                } else {
                    Expect::Error(400, "bad_request")
                },
            ),
        },
        8 => (
            "GET",
            if i % 20 == 8 {
                "/api/solve"
            } else {
                "/api/jobs/77777777"
            },
            Vec::new(),
            if i % 20 == 8 {
                Expect::Error(405, "method_not_allowed")
            } else {
                Expect::Error(404, "not_found")
            },
        ),
        _ => ("GET", "/api/status", Vec::new(), Expect::Status),
    }
}

#[test]
fn hundreds_of_mixed_requests_eight_at_a_time() {
    let known = suites();
    assert!(known.len() >= 90, "the suites: {}", known.len());
    let mut server = Server::start(&[
        "--memory-mib",
        &MEMORY_MIB.to_string(),
        "--jobs",
        "4",
        "--time-max",
        "30",
    ]);
    let next = AtomicUsize::new(0);
    let busy = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::<String>::new());
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..CLIENTS {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= REQUESTS {
                        break;
                    }
                    let (method, path, body, expect) = make(i, &known);
                    let reply = loop {
                        let r = request(&server.addr, method, path, &body);
                        if r.status == 503 && r.header("retry-after").is_some() {
                            busy.fetch_add(1, Ordering::Relaxed);
                            std::thread::sleep(Duration::from_millis(20));
                            continue;
                        }
                        break r;
                    };
                    let v: serde_json::Value = match serde_json::from_str(&reply.body) {
                        Ok(v) => v,
                        Err(e) => {
                            failures
                                .lock()
                                .unwrap()
                                .push(format!("{i}: not JSON ({e})"));
                            continue;
                        }
                    };
                    let wrong = match &expect {
                        Expect::Length(n) => {
                            (reply.status != 200 || v["result"] != "mate" || v["length"] != *n)
                                .then(|| format!("expected mate in {n}"))
                        }
                        Expect::Verdict(want) => (reply.status != 200 || v["verdict"] != *want)
                            .then(|| format!("expected {want}")),
                        Expect::Error(status, kind) => (reply.status != *status
                            || v["kind"] != *kind
                            || v["error"].as_str().is_none_or(str::is_empty))
                        .then(|| format!("expected {status} {kind}")),
                        Expect::Status => (reply.status != 200 || v["max_jobs"] != 4)
                            .then(|| "expected the status".to_string()),
                    };
                    if let Some(w) = wrong {
                        failures.lock().unwrap().push(format!(
                            "{i} {method} {path}: {w}, got {} {}",
                            reply.status,
                            reply.body.chars().take(300).collect::<String>()
                        ));
                    }
                }
            });
        }
    });
    let elapsed = started.elapsed();
    assert!(server.alive(), "the server died");
    let status = server.get("/api/status").json();
    let peak = status["peak_rss_kib"].as_u64().unwrap();
    let failures = failures.into_inner().unwrap();
    eprintln!(
        "load: {REQUESTS} requests, {CLIENTS} at a time, {:.1} s; failures {}; busy answers \
         (retried) {}; peak RSS {:.1} MiB (budget {MEMORY_MIB} MiB for the tables, +{OVERHEAD_MIB} \
         MiB allowed besides); RSS at the end {:.1} MiB",
        elapsed.as_secs_f64(),
        failures.len(),
        busy.load(Ordering::Relaxed),
        peak as f64 / 1024.0,
        status["rss_kib"].as_u64().unwrap() as f64 / 1024.0,
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(status["running_jobs"], 0);
    assert!(
        peak <= (MEMORY_MIB + OVERHEAD_MIB) * 1024,
        "peak RSS {peak} KiB beyond the budget"
    );
}
