//! A local web page for composers: paste or drop a problem (or set it up on the board), solve
//! it, check it for every flaw, step through the lines on the board.
//!
//! ```text
//! cargo run --release --example serve -- [--addr 127.0.0.1:8080] [--jobs 2] [--memory-mib 512]
//! ```
//!
//! It prints the address to open (`http://127.0.0.1:8080/`). The page (HTML, CSS, JavaScript
//! in `examples/serve/`) is compiled into the binary: no build step, nothing fetched from
//! elsewhere, so it works offline. It binds 127.0.0.1 unless `--addr` says otherwise (for
//! instance `--addr 0.0.0.0:8080` to serve a local network: there is no authentication).
//!
//! # Limits the operator sets
//!
//! - `--jobs N` (default 2): solves and checks running at once. One solver per job is made at
//!   start and reused; a request beyond them is answered `503` with `{"error": "busy: ..."}`
//!   and a `Retry-After` header, never queued.
//! - `--memory-mib M` (default 512): the one budget for every table. Each job's solver gets
//!   two thirds of its share for its main table and the checker's side table (half the main
//!   one) takes the rest, so the tables never exceed M together. `GET /api/status` shows the
//!   process's resident and peak memory.
//! - `--time-default S` / `--time-max S` (10 / 60 seconds), `--nodes-default N` / `--nodes-max
//!   N` (20,000,000 / 200,000,000): a request's `time_s` and `nodes` (whole solve or whole
//!   check) default to the first and may not exceed the second (a larger value is a `400`).
//! - request bodies of at most 1 MiB (`413` beyond); the problem is read from the request
//!   itself, never from a file named in it.
//!
//! # The HTTP API
//!
//! Every answer is JSON (`Content-Type: application/json`), errors too: `{"error": "...",
//! "status": N}`, with `kind` one of `bad_request` (the body is not the JSON asked for, or an
//! option is out of range), `bad_problem` (the parser's message, with `line` and `column` of
//! the problem text where known, and `where`, `"<request>:3:5"`), `busy`, `not_found`,
//! `method_not_allowed`, `too_large`, `internal`.
//!
//! | request | body | answer |
//! |---|---|---|
//! | `GET /api/status` | | `max_jobs`, `running_jobs`, `memory_budget_mib`, `table_kib_per_job`, `rss_kib`, `peak_rss_kib`, `limits` (`time_default_s`, `time_max_s`, `nodes_default`, `nodes_max`, `body_max_bytes`) |
//! | `POST /api/parse` | `{"problem": TEXT}` or `{"problem_base64": BYTES}` | the problem read: `format`, `sfen`, `moves` (USI), `japanese` (the moves in Japanese notation), `positions` (the SFEN before the first move and after each), `name`, `comment`, `kif` (the problem as a KIF record), `problems` (how many the text holds; the first is used) |
//! | `POST /api/solve` | the problem as for parse, and `time_s`, `nodes`, `wait` (default true) | with `wait`: the result; else `202` with `{"job": ID}` |
//! | `POST /api/check` | the same, and `first_flaw`, `strict`, `variations`, `unnecessary_pieces` (booleans, default false) | as for solve |
//! | `GET /api/jobs/ID` | | `id`, `kind`, `state` (`running` or `done`), `progress` (`nodes`, `time_ms`, `nps`, `first_mate`, `shortest_mate`), and `result` once done |
//! | `POST /api/jobs/ID/stop` | | stops the job (its result is then `unknown` / `undecided`, reason `stopped`); the job's state |
//!
//! A problem is any text `tsume::problem` reads (SFEN, USI `position`, KIF / KI2 / BOD, CSA);
//! `problem_base64` carries a file's bytes, UTF-8 or Shift-JIS. A record's moves are the
//! intended line for a check.
//!
//! The solve result is the object of `solve --json` (the `tsume::json` module: `result`,
//! `length`, `moves`, `status`, `nodes`, ...) with `sfen`, `japanese` (the line in Japanese
//! notation), `positions` (SFEN before the first move and after each) and `kif` (the main line
//! as a KIF record). The check result is the object of `check_unique --json` (`verdict`,
//! `flaws`, `undecided`, ...) with `sfen`, `japanese`, `positions`, `kif` (the line checked with
//! each flaw as a variation), each flaw's `japanese_moves`, `text` (its moves as one line), `line` (its moves continued to the mate
//! by the defender's longest replies, where the job's time allows) and `positions` (from the
//! position before its ply along that line), and with `unnecessary_pieces` the pieces found unnecessary
//! (不要駒, see `tsume::check::CheckConfig::unnecessary_pieces`).
//!
//! ```sh
//! curl -s localhost:8080/api/solve -d '{"problem": "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1"}'
//! ```

use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::Read;
use std::net::SocketAddr;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};
use tiny_http::{Header, Method, Request, Response, Server};
use tsume::check::{CheckConfig, Report};
use tsume::problem::{Problem, ProblemError, read_bytes, write_kif};
use tsume::solver::{Outcome, Progress, Solution, Solver, SolverConfig, StopHandle};
use tsume::{Move, Position, japanese_line};

const INDEX_HTML: &str = include_str!("serve/index.html");
const APP_JS: &str = include_str!("serve/app.js");
const STYLE_CSS: &str = include_str!("serve/style.css");

/// The largest request body read.
const BODY_MAX: usize = 1 << 20;
/// Finished jobs kept for polling, beyond which the oldest finished are dropped.
const JOBS_KEPT: usize = 256;

#[derive(Clone, Debug)]
struct Options {
    addr: SocketAddr,
    jobs: usize,
    memory_mib: usize,
    time_default: f64,
    time_max: f64,
    nodes_default: u64,
    nodes_max: u64,
}

const USAGE: &str = "usage: serve [--addr HOST:PORT] [--jobs N] [--memory-mib M] \
[--time-default S] [--time-max S] [--nodes-default N] [--nodes-max N]
  --addr           where to listen (default 127.0.0.1:8080; port 0 picks a free one)
  --jobs           solves and checks at once, beyond which requests are answered busy (2)
  --memory-mib     memory for all the solvers' tables together (512)
  --time-default   seconds a job may run when the request does not say (10)
  --time-max       the most seconds a request may ask for (60)
  --nodes-default  nodes a job may search when the request does not say (20000000)
  --nodes-max      the most nodes a request may ask for (200000000)";

fn parse_options() -> Result<Options, String> {
    let mut o = Options {
        addr: "127.0.0.1:8080".parse().map_err(|e| format!("{e}"))?,
        jobs: 2,
        memory_mib: 512,
        time_default: 10.0,
        time_max: 60.0,
        nodes_default: 20_000_000,
        nodes_max: 200_000_000,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--help" || a == "-h" {
            println!("{USAGE}");
            std::process::exit(0);
        }
        let v = args.next().ok_or_else(|| format!("{a} needs a value"))?;
        let bad = |e: &dyn std::fmt::Display| format!("{a} {v}: {e}");
        match a.as_str() {
            "--addr" => o.addr = v.parse().map_err(|e| bad(&e))?,
            "--jobs" => o.jobs = v.parse().map_err(|e| bad(&e))?,
            "--memory-mib" => o.memory_mib = v.parse().map_err(|e| bad(&e))?,
            "--time-default" => o.time_default = v.parse().map_err(|e| bad(&e))?,
            "--time-max" => o.time_max = v.parse().map_err(|e| bad(&e))?,
            "--nodes-default" => o.nodes_default = v.parse().map_err(|e| bad(&e))?,
            "--nodes-max" => o.nodes_max = v.parse().map_err(|e| bad(&e))?,
            _ => return Err(format!("unknown option {a}\n{USAGE}")),
        }
    }
    if o.jobs == 0 {
        return Err("--jobs must be at least 1".into());
    }
    if !(o.time_default > 0.0 && o.time_default <= o.time_max) {
        return Err("--time-default must be above 0 and at most --time-max".into());
    }
    if o.nodes_default == 0 || o.nodes_default > o.nodes_max {
        return Err("--nodes-default must be at least 1 and at most --nodes-max".into());
    }
    if o.memory_mib < o.jobs {
        return Err("--memory-mib must give each job at least 1 MiB".into());
    }
    Ok(o)
}

/// An answer: status and JSON body, plus a header or two.
struct Answer {
    status: u16,
    body: Value,
    retry_after: bool,
}

impl Answer {
    fn ok(body: Value) -> Answer {
        Answer {
            status: 200,
            body,
            retry_after: false,
        }
    }

    fn error(status: u16, kind: &str, message: impl Into<String>) -> Answer {
        Answer {
            status,
            body: json!({"error": message.into(), "kind": kind, "status": status}),
            retry_after: status == 503,
        }
    }

    fn bad(message: impl Into<String>) -> Answer {
        Answer::error(400, "bad_request", message)
    }
}

/// The parser's error: what and where, in the problem text.
fn problem_error(e: &ProblemError) -> Answer {
    Answer {
        status: 400,
        body: json!({
            "error": e.to_string(),
            "kind": "bad_problem",
            "status": 400,
            "message": e.kind.to_string(),
            "where": e.place(),
            "line": (e.line > 0).then_some(e.line),
            "column": e.column,
        }),
        retry_after: false,
    }
}

/// What a job reports while it runs.
#[derive(Clone, Debug, Default)]
struct Seen {
    nodes: u64,
    time_ms: u64,
    nps: u64,
    first_mate: Option<u32>,
    shortest_mate: Option<u32>,
}

struct JobState {
    seen: Seen,
    result: Option<Value>,
}

/// One solve or check, run on a thread of its own with a solver from the pool.
struct Job {
    id: u64,
    kind: &'static str,
    started: Instant,
    state: Mutex<JobState>,
    finished: Condvar,
    stop_asked: AtomicBool,
    stop: StopHandle,
}

impl Job {
    fn lock(&self) -> std::sync::MutexGuard<'_, JobState> {
        // A job thread that panicked while holding the lock has still left a usable state.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn view(&self) -> Value {
        let st = self.lock();
        let s = &st.seen;
        let mut v = json!({
            "id": self.id,
            "kind": self.kind,
            "state": if st.result.is_some() { "done" } else { "running" },
            "progress": {
                "nodes": s.nodes,
                "time_ms": s.time_ms,
                "nps": s.nps,
                "first_mate": s.first_mate,
                "shortest_mate": s.shortest_mate,
            },
        });
        if let Some(r) = &st.result {
            v["result"] = r.clone();
        }
        v
    }

    fn ask_stop(&self) {
        self.stop_asked.store(true, Ordering::Relaxed);
        self.stop.stop();
    }
}

struct App {
    options: Options,
    table_kib: usize,
    pool: Mutex<Vec<Solver>>,
    running: AtomicU64,
    jobs: Mutex<HashMap<u64, Arc<Job>>>,
    next_id: AtomicU64,
}

/// Resident and peak resident memory of this process, in KiB (Linux; 0 elsewhere).
fn memory_kib() -> (u64, u64) {
    let text = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// The request's problem: `problem` (text) or `problem_base64` (a file's bytes).
fn read_problem(body: &Value) -> Result<(Problem, usize), Answer> {
    let bytes = match (body.get("problem"), body.get("problem_base64")) {
        (Some(Value::String(s)), None) => s.as_bytes().to_vec(),
        (None, Some(Value::String(b))) => {
            base64_decode(b).ok_or_else(|| Answer::bad("problem_base64 is not base64"))?
        }
        (Some(_), Some(_)) => {
            return Err(Answer::bad("give problem or problem_base64, not both"));
        }
        (Some(_), None) | (None, Some(_)) => {
            return Err(Answer::bad("problem must be a string"));
        }
        (None, None) => return Err(Answer::bad("no problem: give problem (text)")),
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Answer::bad("the problem is empty"));
    }
    let all = read_bytes(&bytes, "<request>");
    let count = all.len();
    match all.into_iter().next() {
        Some(Ok(p)) => Ok((p, count)),
        Some(Err(e)) => Err(problem_error(&e)),
        None => Err(Answer::bad("no problem in the text")),
    }
}

/// Standard base64 (padding optional, whitespace ignored); `None` when it is not.
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' | b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

fn flag(body: &Value, name: &str) -> Result<bool, Answer> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(Answer::bad(format!("{name} must be true or false"))),
    }
}

/// The positions along `moves` from `start` (the start first), as far as they are legal.
fn positions(start: &Position, moves: &[Move]) -> Vec<String> {
    let mut p = start.clone();
    let mut out = vec![p.to_sfen()];
    for &m in moves {
        if p.play(m).is_err() {
            break;
        }
        out.push(p.to_sfen());
    }
    out
}

/// The line in Japanese notation, as far as it is legal.
fn japanese(start: &Position, moves: &[Move]) -> Vec<String> {
    let mut p = start.clone();
    let legal = moves.iter().take_while(|&&m| p.play(m).is_ok()).count();
    japanese_line(start, &moves[..legal])
}

fn parse_answer(problem: &Problem, count: usize) -> Value {
    let pos = &problem.position;
    json!({
        "format": problem.format.name(),
        "sfen": pos.to_sfen(),
        "moves": problem.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "japanese": japanese(pos, &problem.moves),
        "positions": positions(pos, &problem.moves),
        "name": problem.name,
        "comment": problem.comment,
        "kif": write_kif(problem),
        "problems": count,
    })
}

fn solve_result(problem: &Problem, sol: &Solution) -> Value {
    let pos = &problem.position;
    let mut v = serde_json::to_value(sol)
        .unwrap_or_else(|e| json!({"result": "error", "error": e.to_string()}));
    let mut record = Problem::new(pos.clone(), problem.origin.clone(), problem.format);
    record.name = problem.name.clone();
    let moves: &[Move] = match &sol.outcome {
        Outcome::Mate(line) => {
            record.moves = line.moves().to_vec();
            record.termination = Some("詰み".to_string());
            line.moves()
        }
        Outcome::NoMate => {
            record.comment = "不詰 (no mate)".into();
            &[]
        }
        Outcome::Unknown(r) => {
            record.comment = format!("undecided: {r}");
            &[]
        }
    };
    v["sfen"] = json!(pos.to_sfen());
    v["japanese"] = json!(japanese(pos, moves));
    v["positions"] = json!(positions(pos, moves));
    v["kif"] = json!(write_kif(&record));
    v
}

/// `record` is the report as a record ([`Report::to_problem`]), each flaw's alternative
/// continued to its mate where there was time: its variations give the flaws' lines.
fn check_result(problem: &Problem, report: &Report, record: &Problem) -> Value {
    let pos = &problem.position;
    let mut v = serde_json::to_value(report)
        .unwrap_or_else(|e| json!({"verdict": "error", "error": e.to_string()}));
    v["sfen"] = json!(pos.to_sfen());
    v["comment"] = json!(problem.comment);
    v["japanese"] = json!(japanese(pos, &report.line));
    v["positions"] = json!(positions(pos, &report.line));
    if let Some(flaws) = v["flaws"].as_array_mut() {
        for (f, out) in report.flaws.iter().zip(flaws.iter_mut()) {
            // A flaw's moves replace the ply `f.ply` of the line it refers to.
            let line = match (&report.intended, f.kind) {
                (Some(given), tsume::check::FlawKind::InvalidIntendedLine) => given,
                _ => &report.line,
            };
            let mut before = pos.clone();
            let mut reached = true;
            for &m in line.iter().take((f.ply as usize).saturating_sub(1)) {
                if before.play(m).is_err() {
                    reached = false;
                    break;
                }
            }
            out["text"] = json!(report.flaw_in_japanese(pos, f));
            let continued = record
                .variations
                .iter()
                .find(|v| v.ply == f.ply as usize && v.moves.first() == f.moves.first())
                .map_or(&f.moves, |v| &v.moves);
            if reached {
                out["line"] = json!(continued.iter().map(|m| m.to_string()).collect::<Vec<_>>());
                out["japanese_moves"] = json!(japanese(&before, continued));
                out["positions"] = json!(positions(&before, continued));
            } else {
                out["japanese_moves"] = json!([]);
                out["positions"] = json!([]);
            }
        }
    }
    v["kif"] = json!(write_kif(record));
    v
}

impl App {
    fn new(options: Options) -> Result<App, String> {
        // Two thirds of a job's share for the main table, the rest for the checker's side
        // table (half the main one).
        let table_kib = (options.memory_mib * 1024 / options.jobs * 2 / 3).max(64);
        let mut pool = Vec::new();
        for _ in 0..options.jobs {
            let config = SolverConfig::new().hash_kib(table_kib);
            pool.push(Solver::try_new(config).map_err(|e| e.to_string())?);
        }
        Ok(App {
            options,
            table_kib,
            pool: Mutex::new(pool),
            running: AtomicU64::new(0),
            jobs: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
        })
    }

    fn status(&self) -> Answer {
        let (rss, peak) = memory_kib();
        let o = &self.options;
        Answer::ok(json!({
            "max_jobs": o.jobs,
            "running_jobs": self.running.load(Ordering::Relaxed),
            "memory_budget_mib": o.memory_mib,
            "table_kib_per_job": self.table_kib,
            "rss_kib": rss,
            "peak_rss_kib": peak,
            "limits": {
                "time_default_s": o.time_default,
                "time_max_s": o.time_max,
                "nodes_default": o.nodes_default,
                "nodes_max": o.nodes_max,
                "body_max_bytes": BODY_MAX,
            },
        }))
    }

    /// The request's limits, within the operator's.
    fn limits(&self, body: &Value) -> Result<(Duration, u64), Answer> {
        let o = &self.options;
        let time = match body.get("time_s") {
            None | Some(Value::Null) => o.time_default,
            Some(v) => match v.as_f64() {
                Some(t) if t > 0.0 && t <= o.time_max => t,
                _ => {
                    return Err(Answer::bad(format!(
                        "time_s must be a number of seconds above 0 and at most {}",
                        o.time_max
                    )));
                }
            },
        };
        let nodes = match body.get("nodes") {
            None | Some(Value::Null) => o.nodes_default,
            Some(v) => match v.as_u64() {
                Some(n) if n >= 1 && n <= o.nodes_max => n,
                _ => {
                    return Err(Answer::bad(format!(
                        "nodes must be a whole number from 1 to {}",
                        o.nodes_max
                    )));
                }
            },
        };
        Ok((Duration::from_secs_f64(time), nodes))
    }

    fn jobs(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Job>>> {
        self.jobs.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Starts a solve or check; the answer when `wait`, else the job's id.
    fn start(self: &Arc<Self>, kind: &'static str, body: &Value) -> Answer {
        let (problem, _) = match read_problem(body) {
            Ok(p) => p,
            Err(a) => return a,
        };
        let (time, nodes) = match self.limits(body) {
            Ok(l) => l,
            Err(a) => return a,
        };
        let wait = match body.get("wait") {
            None | Some(Value::Null) => true,
            Some(Value::Bool(b)) => *b,
            Some(_) => return Answer::bad("wait must be true or false"),
        };
        let mut check = CheckConfig::new();
        if kind == "check" {
            if let Err(e) = problem.check_tsume() {
                return problem_error(&e);
            }
            let flags = (|| -> Result<_, Answer> {
                Ok((
                    flag(body, "first_flaw")?,
                    flag(body, "strict")?,
                    flag(body, "variations")?,
                    flag(body, "unnecessary_pieces")?,
                ))
            })();
            let (first, strict, variations, unnecessary) = match flags {
                Ok(f) => f,
                Err(a) => return a,
            };
            check = check
                .first_flaw(first)
                .strict(strict)
                .variations(variations)
                .unnecessary_pieces(unnecessary);
        }
        let Some(mut solver) = self.pool.lock().unwrap_or_else(|p| p.into_inner()).pop() else {
            return Answer::error(
                503,
                "busy",
                format!(
                    "busy: {} jobs are running, the most this server runs at once; try again shortly",
                    self.options.jobs
                ),
            );
        };
        let config = SolverConfig::new()
            .hash_kib(self.table_kib)
            .time_limit(Some(time))
            .node_limit(Some(nodes))
            .progress_interval(Duration::from_millis(200));
        // Same table size: the table is kept, so this cannot fail for want of memory.
        let _ = solver.set_config(config);
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let job = Arc::new(Job {
            id,
            kind,
            started: Instant::now(),
            state: Mutex::new(JobState {
                seen: Seen::default(),
                result: None,
            }),
            finished: Condvar::new(),
            stop_asked: AtomicBool::new(false),
            stop: solver.stop_handle(),
        });
        {
            let mut jobs = self.jobs();
            if jobs.len() >= JOBS_KEPT {
                let mut done: Vec<u64> = jobs
                    .values()
                    .filter(|j| j.lock().result.is_some())
                    .map(|j| j.id)
                    .collect();
                done.sort_unstable();
                for old in done.iter().take(jobs.len() + 1 - JOBS_KEPT) {
                    jobs.remove(old);
                }
            }
            jobs.insert(id, job.clone());
        }
        self.running.fetch_add(1, Ordering::Relaxed);
        let app = self.clone();
        let worker = job.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("job-{id}"))
            .spawn(move || app.run(worker, solver, problem, check));
        if spawned.is_err() {
            self.running.fetch_sub(1, Ordering::Relaxed);
            self.jobs().remove(&id);
            return Answer::error(500, "internal", "could not start a thread for the job");
        }
        if !wait {
            return Answer {
                status: 202,
                body: json!({"job": id, "kind": kind, "state": "running"}),
                retry_after: false,
            };
        }
        let mut st = job.lock();
        while st.result.is_none() {
            st = job.finished.wait(st).unwrap_or_else(|p| p.into_inner());
        }
        let result = st.result.clone().unwrap_or(Value::Null);
        drop(st);
        let status = if result.get("kind").and_then(Value::as_str) == Some("internal") {
            500
        } else {
            200
        };
        Answer {
            status,
            body: result,
            retry_after: false,
        }
    }

    /// The job's thread: runs it, records the result, gives the solver back.
    fn run(&self, job: Arc<Job>, mut solver: Solver, problem: Problem, check: CheckConfig) {
        let watcher = job.clone();
        solver.set_progress(move |p: &Progress| {
            {
                let mut st = watcher.lock();
                st.seen = Seen {
                    nodes: p.nodes,
                    time_ms: p.elapsed.as_millis() as u64,
                    nps: p.nodes_per_second,
                    first_mate: p.first_mate.or(st.seen.first_mate),
                    shortest_mate: p.shortest_mate.or(st.seen.shortest_mate),
                };
            }
            // A stop asked for before the search began was cleared by its start: ask again.
            if watcher.stop_asked.load(Ordering::Relaxed) {
                watcher.stop.stop();
            }
        });
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            if job.kind == "solve" {
                let sol = solver.solve(&problem.position);
                (solve_result(&problem, &sol), sol.stats.nodes)
            } else {
                let intended = (!problem.moves.is_empty()).then_some(problem.moves.as_slice());
                let report = solver.check(&problem.position, intended, &check);
                // Each flaw's alternative continued to its mate (a search per reply), within
                // the job's time and unless it was stopped.
                let deadline = solver.config().get_time_limit().map(|t| job.started + t);
                let record = report.to_problem(&problem, |after| {
                    if job.stop_asked.load(Ordering::Relaxed) {
                        return None;
                    }
                    solver.longest_defence(after, deadline)
                });
                (check_result(&problem, &report, &record), report.stats.nodes)
            }
        }));
        let (result, nodes) = match outcome {
            Ok(r) => r,
            Err(_) => {
                // The solver's state is not to be trusted after a panic: a fresh one.
                if let Ok(fresh) = Solver::try_new(SolverConfig::new().hash_kib(self.table_kib)) {
                    solver = fresh;
                }
                (
                    json!({"error": "internal error: the job failed", "kind": "internal", "status": 500}),
                    0,
                )
            }
        };
        solver.clear_progress();
        {
            let mut st = job.lock();
            st.seen.nodes = st.seen.nodes.max(nodes);
            st.seen.time_ms = job.started.elapsed().as_millis() as u64;
            st.result = Some(result);
        }
        self.pool
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(solver);
        self.running.fetch_sub(1, Ordering::Relaxed);
        job.finished.notify_all();
    }

    fn job(&self, id: &str) -> Result<Arc<Job>, Answer> {
        id.parse::<u64>()
            .ok()
            .and_then(|n| self.jobs().get(&n).cloned())
            .ok_or_else(|| Answer::error(404, "not_found", format!("no job {id}")))
    }

    fn route(self: &Arc<Self>, method: &Method, path: &str, body: &[u8]) -> Answer {
        let path = path.split('?').next().unwrap_or("");
        let json_body = || -> Result<Value, Answer> {
            let v: Value = serde_json::from_slice(body)
                .map_err(|e| Answer::bad(format!("the body is not JSON: {e}")))?;
            if !v.is_object() {
                return Err(Answer::bad("the body must be a JSON object"));
            }
            Ok(v)
        };
        let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        match (method, parts.as_slice()) {
            (Method::Get, ["api", "status"]) => self.status(),
            (Method::Post, ["api", "parse"]) => match json_body().and_then(|b| read_problem(&b)) {
                Ok((p, count)) => Answer::ok(parse_answer(&p, count)),
                Err(a) => a,
            },
            (Method::Post, ["api", kind @ ("solve" | "check")]) => match json_body() {
                Ok(b) => self.start(if *kind == "solve" { "solve" } else { "check" }, &b),
                Err(a) => a,
            },
            (Method::Get, ["api", "jobs", id]) => match self.job(id) {
                Ok(j) => Answer::ok(j.view()),
                Err(a) => a,
            },
            (Method::Post, ["api", "jobs", id, "stop"]) => match self.job(id) {
                Ok(j) => {
                    j.ask_stop();
                    Answer::ok(j.view())
                }
                Err(a) => a,
            },
            (_, ["api", "status"])
            | (_, ["api", "parse" | "solve" | "check"])
            | (_, ["api", "jobs", _])
            | (_, ["api", "jobs", _, "stop"]) => Answer::error(
                405,
                "method_not_allowed",
                format!("{method} is not allowed on {path}"),
            ),
            _ => Answer::error(404, "not_found", format!("nothing at {path}")),
        }
    }
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

fn respond(app: &Arc<App>, mut request: Request) {
    let method = request.method().clone();
    let url = request.url().to_string();
    let path = url.split('?').next().unwrap_or("").to_string();
    if method == Method::Get {
        let page = match path.as_str() {
            "/" | "/index.html" => Some((INDEX_HTML, "text/html; charset=utf-8")),
            "/app.js" => Some((APP_JS, "text/javascript; charset=utf-8")),
            "/style.css" => Some((STYLE_CSS, "text/css; charset=utf-8")),
            _ => None,
        };
        if let Some((text, mime)) = page {
            let r = Response::from_string(text).with_header(header("Content-Type", mime));
            let _ = request.respond(r);
            return;
        }
    }
    let answer = if request.body_length().is_some_and(|n| n > BODY_MAX) {
        Answer::error(
            413,
            "too_large",
            format!("the body is larger than {BODY_MAX} bytes"),
        )
    } else {
        let mut body = Vec::new();
        let read = request
            .as_reader()
            .take(BODY_MAX as u64 + 1)
            .read_to_end(&mut body);
        if read.is_err() {
            Answer::bad("the body could not be read")
        } else if body.len() > BODY_MAX {
            Answer::error(
                413,
                "too_large",
                format!("the body is larger than {BODY_MAX} bytes"),
            )
        } else {
            catch_unwind(AssertUnwindSafe(|| app.route(&method, &url, &body))).unwrap_or_else(
                |_| {
                    Answer::error(
                        500,
                        "internal",
                        "internal error while answering the request",
                    )
                },
            )
        }
    };
    let text = serde_json::to_string(&answer.body).unwrap_or_else(|_| "{}".into());
    // The length is known: a Content-Length rather than chunks above tiny_http's default
    // threshold, for the simplest clients.
    let mut r = Response::from_string(text)
        .with_chunked_threshold(usize::MAX)
        .with_status_code(answer.status)
        .with_header(header("Content-Type", "application/json; charset=utf-8"))
        .with_header(header("Cache-Control", "no-store"));
    if answer.retry_after {
        r = r.with_header(header("Retry-After", "1"));
    }
    let _ = request.respond(r);
}

/// Keeps every table out of malloc's heaps. glibc raises its threshold for serving an
/// allocation with its own mapping to the size of the last such block freed: after the first
/// side table is freed (each job's new settings free it), the next ones come from the heaps,
/// are cleared there byte by byte (so all their pages count) and stay there, one heap per
/// thread, after they are freed. The load test saw 240 MiB for a 96 MiB budget that way; with
/// a fixed threshold a table's memory goes back to the system when it is freed.
fn tables_outside_the_heaps() {
    #[cfg(target_os = "linux")]
    // SAFETY: mallopt only changes a setting of the allocator; called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

fn main() {
    tables_outside_the_heaps();
    let options = match parse_options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let server = match Server::http(options.addr) {
        Ok(s) => Arc::new(s),
        Err(e) => {
            eprintln!("error: cannot listen on {}: {e}", options.addr);
            std::process::exit(2);
        }
    };
    let jobs = options.jobs;
    let app = match App::new(options) {
        Ok(a) => Arc::new(a),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let addr = server
        .server_addr()
        .to_ip()
        .map(|a| a.to_string())
        .unwrap_or_default();
    println!("tsume serve: http://{addr}/");
    // Tests and scripts read the address from the first line.
    let _ = std::io::Write::flush(&mut std::io::stdout());
    // A request that waits for its job holds a thread; the others keep answering polls.
    let threads = jobs + 8;
    let mut handles = Vec::new();
    for i in 0..threads {
        let server = server.clone();
        let app = app.clone();
        let h = std::thread::Builder::new()
            .name(format!("http-{i}"))
            .spawn(move || {
                while let Ok(request) = server.recv() {
                    respond(&app, request);
                }
            });
        match h {
            Ok(h) => handles.push(h),
            Err(e) => eprintln!("warning: could not start an HTTP thread: {e}"),
        }
    }
    for h in handles {
        let _ = h.join();
    }
}
