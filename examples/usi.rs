//! A USI mate engine: `go mate` for shogi GUIs (ShogiGUI, Shogidokoro, Electron Shogi, 将棋所).
//!
//! The crate's answer (shortest mate, longest defence, no futile interpositions) one click
//! away in a shogi GUI:
//!
//! ```sh
//! cargo build --release --example usi    # gives target/release/examples/usi (usi.exe on Windows)
//! ```
//!
//! **Registering it.** The binary takes no arguments and runs from any working directory. Add it
//! in the GUI's engine dialog (ShogiGUI: エンジン設定, Shogidokoro and 将棋所: エンジン管理 /
//! エンジン登録, Electron Shogi: エンジン設定; the menu names differ between versions) and use it
//! as the mate engine of the GUI's mate search (詰将棋解析 / 詰み探索), which sends `go mate`. As a
//! normal engine (analysis mode, `go ...`) it shows a mate when it finds one. The protocol is
//! tested in-process (this file's `tests`: `cargo test --release --example usi`), over pipes
//! (`tests/usi.rs`) and with cshogi's USI client (`tests/usi_cshogi.rs`); the
//! GUIs themselves were not run here (none on the CI machine).
//!
//! **Options** (`setoption name X value Y`; an unknown name or a bad value gets an `info string`
//! saying so, and the value is not changed):
//!
//! | option | default | meaning |
//! |---|---|---|
//! | `USI_Hash` | 256 | MiB for the whole engine: the table gets (USI_Hash − 16) × 16/17 MiB, the repetition table up to a sixteenth of that, and 16 MiB are kept for the program, the search stack and the line walk (see Memory below). Allocated, and its pages mapped, at `isready`; a size that cannot be had gives an `info string` (and `go mate` then answers `checkmate notimplemented`) |
//! | `NodesLimit` | 0 | stop after about this many nodes (0: no limit); `checkmate timeout` then |
//! | `ShortestNodes` | 0 | nodes allowed, after the first proof, for proving the length shortest and walking the line (`tsume::solver::SolverConfig::shortest_node_limit`; 0: the library default, 10,000,000; the largest value: no limit; a `go mate` time limit that runs out during this work still gives the mate found) |
//! | `PvInterval` | 1000 | milliseconds between `info time .. nodes .. nps .. hashfull ..` lines during a search (0: none) |
//! | `Threads` | the machine's cores | search threads: helpers search the same problem over the one table (`tsume::solver::SolverConfig::threads`); 1 repeats a search node for node |
//! | `TightenLine` | true | the line tightening (`tsume::solver::SolverConfig::tighten_line`) |
//! | `MaxMateLength` | 0 | look only for mates of at most this many plies (0: any); `checkmate nomate` then means none that short |
//! | `FillDefenderHand` | false | give the defender every piece not on the board or in the attacker's hand (残り駒全部), for a GUI board whose defender's hand was left empty |
//!
//! `USI_Ponder` is accepted and ignored.
//!
//! **What it answers.**
//!
//! - `usi`: `id name tsume <version>`, `id author ...`, the `option` lines, `usiok`. `isready`:
//!   `readyok` (after allocating the table). `usinewgame`, `gameover`: nothing.
//! - `position startpos [moves ...]`, `position sfen <sfen> [moves ...]`: nothing; a bad SFEN
//!   or an illegal move is reported at once (`info string position: ...` with the move number,
//!   the reason and the column, also during a search) and again at the next `go`. The line is
//!   read by `tsume::problem::read_usi_position`.
//! - `go mate <ms>` / `go mate infinite` (`go mate 0` is taken as infinite): exactly one of
//!   `checkmate <usi moves>` (the main line: see the `tsume::solver` module docs), `checkmate nomate`,
//!   `checkmate timeout` (the time, `NodesLimit` or `stop`; also when the search can reach no
//!   verdict), `checkmate notimplemented` (a position the solver cannot take: no defending king,
//!   an invalid `position`, no table). Before it, a last `info time .. nodes .. nps .. hashfull ..`
//!   and `info string` lines: the mate's status (`MateLine::status`: `mate in N`, `mate in N (not
//!   proven shortest)` when `ShortestNodes` ran out, ...), the attacker's pieces left over (駒余り)
//!   if any, the reason of a timeout. A limit that runs out after the first proof still gives the
//!   mate found (`checkmate` with the line, not proven shortest). With `PvInterval` above 0 the
//!   first mate is announced as soon as it is proven, `info string first mate found: N plies (then
//!   shorter ones and the main line)`, since the proof of its length can take several seconds (寿: under a second to
//!   the first mate, about 12 s to the proven answer), and each shorter mate as it is proven,
//!   `info string shorter mate found: N plies` (`tsume::solver::Progress::shortest_mate`).
//! - `go` in any other form (`btime`, `wtime`, `binc`, `winc`, `byoyomi`, `movetime`, `nodes`,
//!   `infinite`, `ponder`): a mate search within `movetime`, or else a twentieth of the side's
//!   clock plus the byoyomi and the increment, less a tenth for safety (no limit without a
//!   clock). A mate gives `info ... score mate N pv <line>` and `bestmove <first move>`, anything
//!   else `bestmove resign`. After `go infinite` the answer waits for `stop`; after `go ponder`
//!   for `ponderhit` (the clock then starts) or `stop`.
//! - During a search, `stop` (answered within a few ms, see below), `quit` (the process exits at
//!   once), `isready` (`readyok` at once), `ponderhit` and `gameover` (the search is dropped,
//!   no answer) are obeyed at once; `usi`, `setoption`, `usinewgame`, `position` and `go` wait
//!   until the search has answered and are then run in order. End of input is `quit`. Unknown
//!   commands get `info string unknown command ...` at once; empty lines are ignored; every
//!   output line is flushed.
//!
//! **The side to move in check.** The side to move is always the attacker, as the USI `go mate`
//! asks ("can the side to move mate?"). If it is in check (a double-king problem, a game
//! position), its first move must get out of check and give check at once: a legal move, as in
//! a game (a counter-check, 逆王手, by a king move that uncovers a check, an interposition or a
//! capture that checks). If no evasion gives check the answer is `checkmate nomate`, with
//! `info string no mate (the side to move is in check and no evasion gives check)`. The engine
//! does not offer the other reading (KomoringHeights' `RootIsAndNodeIfChecked`: prove that the
//! side to move, in check, is mated); set up the position with the other side to move for that.
//! Tested in `tests/usi.rs` on `8k/6G2/9/9/9/7n1/9/8K/8L b - 1` (answer `1h2g 2f1h+ 1i1h`) and on
//! the same position without the lance (`nomate`).
//!
//! **Memory.** `USI_Hash` bounds the whole process: the peak resident size for Microcosmos
//! (`go mate infinite`, default options) was 56.8 MiB with `USI_Hash 64` (a 45 MiB table, mate in
//! 1525 in 274 s on a loaded machine) and 960.5 MiB with `USI_Hash 1024` (a 948 MiB table, mate in
//! 1525 in 105 s), measured with `/usr/bin/time -v`. Outside the tables the search needs about 12
//! MiB on Microcosmos (the program 2.5 MiB, the search stack as deep as the line, the line walk,
//! the memo of initial numbers at most 0.5 MiB);
//! the 16 MiB kept covers it for lines of that length, not for arbitrarily long ones. A
//! `USI_Hash` larger than the system gives is an `info string` at `isready`, not a crash; on Linux
//! a request that fits the address space but not the memory may still be granted (overcommit) and
//! fail when touched, which `isready` does: it maps the table's pages there, as KomoringHeights
//! writes its whole table there (shtsume only allocates it), so that `go mate` does not take them
//! one page fault at a time (Astral Traveler with `USI_Hash 1040`, from `go mate` to `checkmate`:
//! 4.39 and 4.61 s before, 3.72 and 4.21 s after; `Solver::prefault`). On Linux the table is
//! in transparent huge pages where the system gives them, which saves about a tenth of the
//! search's time (fewer TLB misses in a table read at random); mapping them takes about 0.1 s
//! per GiB of `USI_Hash` on this project's machine, up to 2 s per GiB when the system must
//! first free memory for huge pages.
//!
//! **Stop.** From `stop` to `checkmate`, measured with the engine over pipes (`USI_Hash 1024`,
//! a machine shared with other work): 1-14 ms on Astral Traveler (`stop` at 0.5 to 9 s, during
//! the first proof, which ends near 8 s, and after it, when the answer is the mate found so
//! far), and on Microcosmos 3 ms at 60 s and 7 ms at 88 s (first proof) and 32 ms at 100 s (after
//! the first proof: `checkmate` with its 1557-ply line, `info string mate in at most 1557
//! plies`, and the gold left over). Every phase looks at the limits every 1024 nodes; after a
//! stop the line is walked from the table and verified, which is what the 32 ms are.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};
use tsume::solver::{MateLine, Outcome, Solution, Solver, SolverConfig, StopHandle, StopReason};
use tsume::{Color, Move, Position};

/// What the engine's main loop waits for.
enum Event {
    /// A line read from standard input.
    Line(String),
    /// End of standard input: the same as `quit`.
    Eof,
    /// A search has ended; the solver comes back with its result.
    Done(Box<Finished>),
}

/// The end of a search.
struct Finished {
    /// The solver, or `None` if the search panicked (a bug; the next `isready` or `go`
    /// allocates a new one).
    solver: Option<Solver>,
    result: Result<Solution, String>,
}

/// The USI options (see [`Options::usi_lines`]).
#[derive(Clone, Debug)]
struct Options {
    hash_mib: usize,
    nodes_limit: u64,
    shortest_nodes: u64,
    pv_interval_ms: u64,
    tighten_line: bool,
    max_mate_length: u32,
    fill_defender_hand: bool,
    /// Search threads (`Threads`).
    threads: usize,
}

/// The largest value of the node-count spins (what a GUI's 64-bit spin holds).
const SPIN_MAX: u64 = i64::MAX as u64;
/// The largest `USI_Hash`: 1 TiB.
const HASH_MAX: u64 = 1 << 20;
/// The part of `USI_Hash` kept for what is not a table (see [`Options::table_mib`]).
const RESERVE_MIB: usize = 16;
/// The most search threads `Threads` may ask for.
const THREADS_MAX: u64 = 256;

/// The longest mate `MaxMateLength` may ask for.
const LENGTH_MAX: u64 = 65_533;

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mib: 256,
            nodes_limit: 0,
            shortest_nodes: 0,
            pv_interval_ms: 1000,
            tighten_line: true,
            max_mate_length: 0,
            fill_defender_hand: false,
            threads: Solver::default_threads().min(THREADS_MAX as usize),
        }
    }
}

impl Options {
    /// The `option` lines of the answer to `usi`.
    fn usi_lines(&self) -> Vec<String> {
        let d = Options::default();
        vec![
            format!(
                "option name USI_Hash type spin default {} min 1 max {HASH_MAX}",
                d.hash_mib
            ),
            format!(
                "option name NodesLimit type spin default {} min 0 max {SPIN_MAX}",
                d.nodes_limit
            ),
            format!(
                "option name ShortestNodes type spin default {} min 0 max {SPIN_MAX}",
                d.shortest_nodes
            ),
            format!(
                "option name PvInterval type spin default {} min 0 max 3600000",
                d.pv_interval_ms
            ),
            format!(
                "option name Threads type spin default {} min 1 max {THREADS_MAX}",
                d.threads
            ),
            format!(
                "option name TightenLine type check default {}",
                d.tighten_line
            ),
            format!(
                "option name MaxMateLength type spin default {} min 0 max {LENGTH_MAX}",
                d.max_mate_length
            ),
            format!(
                "option name FillDefenderHand type check default {}",
                d.fill_defender_hand
            ),
        ]
    }

    /// Sets option `name` to `value`, or says what is wrong.
    fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let spin = |max: u64| -> Result<u64, String> {
            let v = value.ok_or_else(|| format!("option {name} needs a value"))?;
            match v.parse::<u64>() {
                Ok(n) if n <= max => Ok(n),
                _ => Err(format!(
                    "bad value '{v}' for option {name}: expected an integer from 0 to {max}"
                )),
            }
        };
        let check = || -> Result<bool, String> {
            let v = value.ok_or_else(|| format!("option {name} needs a value"))?;
            match v.to_ascii_lowercase().as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(format!(
                    "bad value '{v}' for option {name}: expected true or false"
                )),
            }
        };
        match name.to_ascii_lowercase().as_str() {
            "usi_hash" => match spin(HASH_MAX)? {
                0 => Err(format!("bad value '0' for option {name}: at least 1 MiB")),
                n => {
                    self.hash_mib = n as usize;
                    Ok(())
                }
            },
            "nodeslimit" => spin(SPIN_MAX).map(|n| self.nodes_limit = n),
            "shortestnodes" => spin(SPIN_MAX).map(|n| self.shortest_nodes = n),
            "pvinterval" => spin(3_600_000).map(|n| self.pv_interval_ms = n),
            "threads" => match spin(THREADS_MAX)? {
                0 => Err(format!(
                    "bad value '0' for option {name}: at least 1 thread"
                )),
                n => {
                    self.threads = n as usize;
                    Ok(())
                }
            },
            // `Shortcuts`: its name before 0.1, still sent by a GUI that saved it.
            "tightenline" | "shortcuts" => check().map(|b| self.tighten_line = b),
            "maxmatelength" => spin(LENGTH_MAX).map(|n| self.max_mate_length = n as u32),
            "filldefenderhand" => check().map(|b| self.fill_defender_hand = b),
            // Every GUI sends it; a mate search does not ponder in the background.
            "usi_ponder" => Ok(()),
            _ => Err(format!("unknown option '{name}'")),
        }
    }

    /// The transposition table's share of `USI_Hash`, which bounds the whole process: the
    /// library's [`SolverConfig::hash_mib`] is the table, and a search takes besides at most
    /// a sixteenth of it for its repetition table, and its own few MiB (the program, the
    /// search stack as deep as the line, the line walk: about 12 MiB on Microcosmos), for
    /// which [`RESERVE_MIB`] is kept. At least 1 MiB.
    fn table_mib(&self) -> usize {
        (self.hash_mib.saturating_sub(RESERVE_MIB) * 16 / 17).max(1)
    }

    /// The solver settings these options give (limits of one `go` added by the caller).
    fn config(&self) -> SolverConfig {
        let nonzero = |n: u64| (n > 0).then_some(n);
        SolverConfig::new()
            .hash_mib(self.table_mib())
            .node_limit(nonzero(self.nodes_limit))
            .shortest_node_limit(nonzero(self.shortest_nodes))
            .progress_interval(Duration::from_millis(self.pv_interval_ms.max(1)))
            .tighten_line(self.tighten_line)
            .threads(self.threads)
            .max_mate_length((self.max_mate_length > 0).then_some(self.max_mate_length))
    }
}

/// What kind of `go` a search answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `go mate`: answered with `checkmate ...`.
    Mate,
    /// Any other `go`: answered with `bestmove ...`.
    Game,
}

/// A search in progress.
struct Running {
    kind: Kind,
    stop: StopHandle,
    /// When the engine stops the search itself (the time given).
    deadline: Option<Instant>,
    /// Set once the search is asked to stop: the stop is repeated until it ends (a stop
    /// sent before the search thread has started would otherwise be lost).
    stopping: bool,
    /// `go infinite` and `go ponder`: the answer waits for `stop` (or `ponderhit`).
    hold: bool,
    /// `go infinite`.
    infinite: bool,
    /// `go ponder`, until `ponderhit`.
    ponder: bool,
    /// `go ponder`: the time to search from `ponderhit` on.
    ponder_time: Option<Duration>,
    /// The answer, computed but held back (see `hold`).
    held: Option<Vec<String>>,
    /// `gameover` came: no answer is wanted.
    discard: bool,
    /// The position searched (to write the answer).
    pos: Position,
}

/// Where the engine's lines go: standard output in the program, a channel in the tests.
#[derive(Clone)]
struct Output(Arc<dyn Fn(&str) + Send + Sync>);

impl Output {
    /// Standard output, each line flushed. A GUI that has closed the pipe is gone: the
    /// engine exits.
    fn stdout() -> Output {
        Output(Arc::new(|line: &str| {
            let mut out = io::stdout().lock();
            if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
                std::process::exit(0);
            }
        }))
    }

    /// One line.
    fn send(&self, line: &str) {
        (self.0)(line)
    }

    /// `info string ...`.
    fn info(&self, text: &str) {
        self.send(&format!("info string {text}"));
    }
}

// The few places that read a mate line, kept together.

/// The moves of the line shown.
fn line_moves(line: &MateLine) -> &[Move] {
    line.moves()
}

/// The mate length the proof shows (what "mate in N" prints).
fn line_length(line: &MateLine) -> u32 {
    line.length()
}

/// The `info string` lines that qualify a mate.
fn line_notes(line: &MateLine) -> Vec<String> {
    let mut notes = vec![line.status().to_string()];
    if line.hand_left().total() > 0 {
        notes.push(format!(
            "attacker's hand at the end: {} (pieces left over)",
            line.hand_left()
        ));
    }
    notes
}

/// `info time ... nodes ... nps ... hashfull ...` for counters.
fn counters(elapsed: Duration, nodes: u64, nps: u64, fill: f64) -> String {
    format!(
        "info time {} nodes {nodes} nps {nps} hashfull {}",
        elapsed.as_millis(),
        (fill * 1000.0).round().clamp(0.0, 1000.0) as u32
    )
}

/// The position a `position` command describes, or what is wrong with it and where.
fn parse_position(line: &str) -> Result<Position, String> {
    tsume::problem::read_usi_position(line).map_err(|e| match e.column {
        Some(c) => format!("position: {} (column {c} of '{}')", e.kind, line.trim()),
        None => format!("position: {} ('{}')", e.kind, line.trim()),
    })
}

/// The limits of a `go` command.
#[derive(Debug, Default)]
struct Go {
    mate: bool,
    /// Time to search (`None`: until done or stopped).
    time: Option<Duration>,
    /// `go infinite` (the answer waits for `stop`).
    infinite: bool,
    ponder: bool,
    nodes: Option<u64>,
}

/// Parses `go ...` (the arguments after `go`) for the side to move `us`.
fn parse_go(args: &[&str], us: Color) -> Result<Go, String> {
    let mut go = Go::default();
    if args.first() == Some(&"mate") {
        go.mate = true;
        match args.get(1) {
            None | Some(&"infinite") => {}
            // 0 ms is no search at all: taken as no limit, like `infinite`.
            Some(ms) => match ms.parse::<u64>() {
                Ok(0) => {}
                Ok(ms) => go.time = Some(Duration::from_millis(ms)),
                Err(_) => {
                    return Err(format!(
                        "go mate: expected a time in ms or 'infinite', got '{ms}'"
                    ));
                }
            },
        }
        if args.len() > 2 {
            return Err(format!(
                "go mate: unexpected '{}' after the time",
                args[2..].join(" ")
            ));
        }
        return Ok(go);
    }
    let (mut own, mut inc, mut byoyomi, mut movetime) = (0u64, 0u64, 0u64, None);
    let mut timed = false;
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let mut number = || -> Result<u64, String> {
            i += 1;
            let v = args
                .get(i)
                .ok_or_else(|| format!("go: '{key}' needs a number"))?;
            v.parse::<u64>()
                .map_err(|_| format!("go: '{key}' needs a number, got '{v}'"))
        };
        match key {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "btime" | "wtime" => {
                let n = number()?;
                if (key == "btime") == (us == Color::Black) {
                    own = n;
                }
                timed = true;
            }
            "binc" | "winc" => {
                let n = number()?;
                if (key == "binc") == (us == Color::Black) {
                    inc = n;
                }
                timed = true;
            }
            "byoyomi" => {
                byoyomi = number()?;
                timed = true;
            }
            "movetime" => movetime = Some(number()?),
            "nodes" => go.nodes = Some(number()?),
            other => return Err(format!("go: unknown argument '{other}'")),
        }
        i += 1;
    }
    // A twentieth of the clock plus the byoyomi and the increment, less a tenth for safety.
    let ms = match movetime {
        Some(ms) => Some(ms),
        None if timed => Some(own / 20 + byoyomi + inc),
        None => None,
    };
    if !go.infinite {
        go.time = ms.map(|ms| Duration::from_millis((ms - ms / 10).max(10)));
    }
    Ok(go)
}

struct Engine {
    options: Options,
    /// The solver when no search runs (`None` while one runs, or when none could be
    /// allocated).
    solver: Option<Solver>,
    position: Result<Position, String>,
    running: Option<Running>,
    /// Commands that wait for the running search to answer (see [`Engine::input`]).
    queue: VecDeque<String>,
    /// Running commands from `queue` (their `position` was checked when it came).
    replaying: bool,
    events: Sender<Event>,
    /// Where its lines go.
    out: Output,
}

impl Engine {
    fn new(events: Sender<Event>, out: Output) -> Engine {
        Engine {
            out,
            options: Options::default(),
            solver: None,
            position: Ok(Position::startpos()),
            running: None,
            queue: VecDeque::new(),
            replaying: false,
            events,
        }
    }

    /// Makes sure a solver with the options' table size exists (`isready` does this, `go`
    /// again if needed). On failure it says why and leaves no solver.
    fn prepare(&mut self) -> bool {
        let config = self.options.config();
        let table = config.get_hash_mib();
        let fresh = self
            .solver
            .as_ref()
            .is_none_or(|s| s.config().get_hash_mib() != table);
        let result = match self.solver.as_mut() {
            Some(solver) => solver.set_config(config),
            None => Solver::try_new(config).map(|s| self.solver = Some(s)),
        };
        match result {
            Ok(()) => {
                if fresh {
                    self.out.info(&format!(
                        "USI_Hash {} MiB: transposition table {table} MiB, repetition table up \
                         to {:.1} MiB, {RESERVE_MIB} MiB kept for the rest",
                        self.options.hash_mib,
                        table as f64 / 16.0
                    ));
                }
                true
            }
            Err(e) => {
                self.solver = None;
                self.out.info(&format!(
                    "USI_Hash {} MiB: {e}; set a smaller USI_Hash",
                    self.options.hash_mib
                ));
                false
            }
        }
    }

    /// Takes one input line; `false` to quit. While a search runs, `quit`, `isready`, `stop`,
    /// `ponderhit` and `gameover` are obeyed at once, and an unknown command is answered at
    /// once (`info string unknown command ...`); `usi`, `setoption`, `usinewgame`, `position`
    /// and `go` wait until the search has answered, and the waiting ones are then run in order
    /// (so that `position` and `go` sent during a search apply to the next one, as if sent
    /// after the answer). A `position` line the engine cannot use is said at once either way
    /// (`info string position: ...`), and again at the `go` that would use it.
    fn input(&mut self, line: String) -> bool {
        let cmd = line.split_whitespace().next().unwrap_or("");
        if self.running.is_none() && self.queue.is_empty() {
            return self.command(&line);
        }
        match cmd {
            "quit" => false,
            "isready" | "stop" | "ponderhit" | "gameover" => self.command(&line),
            "usi" | "setoption" | "usinewgame" | "position" | "go" => {
                // Waits for the search; a `position` it cannot use is said at once.
                if cmd == "position" {
                    if let Err(e) = parse_position(&line) {
                        self.out.info(&e);
                    }
                }
                self.queue.push_back(line);
                true
            }
            _ => self.command(&line),
        }
    }

    /// Runs the commands that waited for a search, until one starts a new search.
    fn drain(&mut self) -> bool {
        while self.running.is_none() {
            let Some(line) = self.queue.pop_front() else {
                break;
            };
            self.replaying = true;
            let go_on = self.command(&line);
            self.replaying = false;
            if !go_on {
                return false;
            }
        }
        true
    }

    /// Handles one input line; `false` to quit.
    fn command(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else {
            return true;
        };
        match cmd {
            "usi" => {
                self.out
                    .send(&format!("id name tsume {}", env!("CARGO_PKG_VERSION")));
                self.out.send("id author the tsume developers");
                for l in self.options.usi_lines() {
                    self.out.send(&l);
                }
                self.out.send("usiok");
            }
            "isready" => {
                if self.running.is_none() && self.prepare() {
                    // The table's pages mapped now, not one fault at a time in `go mate`
                    // (KomoringHeights writes its whole table here too).
                    if let Some(s) = self.solver.as_mut() {
                        s.prefault();
                    }
                }
                self.out.send("readyok");
            }
            "setoption" => self.setoption(args),
            "usinewgame" => {}
            "gameover" => {
                if let Some(r) = self.running.as_mut() {
                    if r.held.is_some() {
                        // Finished, its answer held back: nothing more to wait for.
                        self.running = None;
                    } else {
                        r.discard = true;
                        r.stopping = true;
                        r.stop.stop();
                    }
                }
            }
            "position" => {
                self.position = parse_position(line);
                // Said at once (and again at `go`); a queued line was checked when it came.
                if let (Err(e), false) = (&self.position, self.replaying) {
                    self.out.info(e);
                }
            }
            "go" => self.go(args),
            "stop" => {
                if let Some(r) = self.running.as_mut() {
                    r.hold = false;
                    r.stopping = true;
                    r.stop.stop();
                    if let Some(answer) = r.held.take() {
                        self.running = None;
                        answer.iter().for_each(|l| self.out.send(l));
                    }
                }
            }
            "ponderhit" => {
                if let Some(r) = self.running.as_mut() {
                    if r.ponder {
                        // The move pondered on was played: the clock runs from now.
                        r.ponder = false;
                        r.hold = r.infinite;
                        r.deadline = r.ponder_time.map(|t| Instant::now() + t);
                    }
                    if !r.hold {
                        if let Some(answer) = r.held.take() {
                            self.running = None;
                            answer.iter().for_each(|l| self.out.send(l));
                        }
                    }
                }
            }
            "quit" => return false,
            other => self.out.info(&format!(
                "unknown command '{other}' (line '{}')",
                line.trim()
            )),
        }
        true
    }

    fn setoption(&mut self, args: &[&str]) {
        if args.first() != Some(&"name") || args.len() < 2 {
            self.out
                .info("setoption: expected 'setoption name <id> [value <x>]'");
            return;
        }
        let rest = &args[1..];
        let (name, value) = match rest.iter().position(|&a| a == "value") {
            Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
            None => (rest.join(" "), None),
        };
        if let Err(e) = self.options.set(&name, value.as_deref()) {
            self.out.info(&format!("setoption: {e}"));
        }
    }

    fn go(&mut self, args: &[&str]) {
        let us = self
            .position
            .as_ref()
            .map_or(Color::Black, |p| p.side_to_move());
        let go = match parse_go(args, us) {
            Ok(go) => go,
            Err(e) => {
                self.out.info(&e);
                // A malformed `go mate` is still answered, so that the GUI does not wait.
                if args.first() == Some(&"mate") {
                    self.out.send("checkmate notimplemented");
                } else {
                    self.out.send("bestmove resign");
                }
                return;
            }
        };
        let kind = if go.mate { Kind::Mate } else { Kind::Game };
        let out = self.out.clone();
        let cannot = |why: &str| {
            out.info(why);
            out.send(match kind {
                Kind::Mate => "checkmate notimplemented",
                Kind::Game => "bestmove resign",
            });
        };
        let mut pos = match &self.position {
            Ok(p) => p.clone(),
            Err(e) => return cannot(&format!("no valid position: {e}")),
        };
        if self.options.fill_defender_hand {
            pos.fill_defender_hand();
        }
        let defender = !pos.side_to_move();
        if pos.king_square(defender).is_none() {
            return cannot("the defender (the side not to move) has no king");
        }
        if !self.prepare() {
            return cannot("no transposition table");
        }
        let mut solver = self.solver.take().expect("prepared");
        let mut config = self.options.config();
        if let Some(n) = go.nodes {
            config = config.node_limit(Some(n));
        }
        solver
            .set_config(config)
            .expect("the table size is unchanged");
        if self.options.pv_interval_ms > 0 {
            // The shortest mate announced so far (`None`: not even the first yet).
            let mut shortest = None;
            let out = self.out.clone();
            solver.set_progress(move |p| {
                out.send(&counters(
                    p.elapsed,
                    p.nodes,
                    p.nodes_per_second,
                    p.table_fill,
                ));
                // The first mate, at once: the length work after it can take a while.
                if let (None, Some(n)) = (shortest, p.first_mate) {
                    out.send(&format!(
                        "info string first mate found: {n} plies (then shorter ones and the main line)"
                    ));
                    shortest = Some(n);
                }
                // Each shorter one as it is proven: the way down from the first mate can take
                // a long problem several seconds.
                if let Some(s) = p.shortest_mate
                    && shortest.is_some_and(|old| s < old)
                {
                    shortest = Some(s);
                    out.send(&format!("info string shorter mate found: {s} plies"));
                }
            });
        } else {
            solver.clear_progress();
        }
        let stop = solver.stop_handle();
        let events = self.events.clone();
        let searched = pos.clone();
        let spawned = std::thread::Builder::new()
            .name("usi-search".into())
            .spawn(move || {
                let mut solver = solver;
                let result = catch_unwind(AssertUnwindSafe(|| solver.solve(&searched)));
                let finished = match result {
                    Ok(solution) => Finished {
                        solver: Some(solver),
                        result: Ok(solution),
                    },
                    Err(panic) => Finished {
                        solver: None,
                        result: Err(panic
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_else(|| "the search failed".into())),
                    },
                };
                let _ = events.send(Event::Done(Box::new(finished)));
            });
        if let Err(e) = spawned {
            return cannot(&format!("cannot start the search thread: {e}"));
        }
        let now = Instant::now();
        self.running = Some(Running {
            kind,
            stop,
            deadline: if go.ponder {
                None
            } else {
                go.time.map(|t| now + t)
            },
            stopping: false,
            hold: kind == Kind::Game && (go.infinite || go.ponder),
            infinite: go.infinite,
            ponder: go.ponder,
            ponder_time: if go.ponder { go.time } else { None },
            held: None,
            discard: false,
            pos,
        });
    }

    /// A search has ended: answer it (or hold the answer, see [`Running::hold`]).
    fn finished(&mut self, f: Finished) {
        let Some(mut running) = self.running.take() else {
            self.solver = f.solver;
            return;
        };
        self.solver = f.solver;
        if running.discard {
            return;
        }
        let answer = answer(&running, f.result);
        if running.hold && !running.stopping {
            running.held = Some(answer);
            self.running = Some(running);
        } else {
            answer.iter().for_each(|l| self.out.send(l));
        }
    }

    /// When the main loop must wake up without input: a deadline, or a stop to repeat.
    fn wake_at(&self) -> Option<Instant> {
        let r = self.running.as_ref()?;
        if r.held.is_some() {
            return None;
        }
        if r.stopping {
            return Some(Instant::now() + Duration::from_millis(10));
        }
        r.deadline
    }

    /// Called when [`Engine::wake_at`] has passed.
    fn wake(&mut self) {
        if let Some(r) = self.running.as_mut() {
            if r.held.is_none() && (r.stopping || r.deadline.is_some_and(|d| Instant::now() >= d)) {
                r.stopping = true;
                r.stop.stop();
            }
        }
    }
}

/// The lines that answer a finished search.
fn answer(running: &Running, result: Result<Solution, String>) -> Vec<String> {
    let mut out = Vec::new();
    let solution = match result {
        Ok(s) => s,
        Err(why) => {
            out.push(format!("info string the search failed: {why}"));
            out.push(
                match running.kind {
                    Kind::Mate => "checkmate notimplemented",
                    Kind::Game => "bestmove resign",
                }
                .into(),
            );
            return out;
        }
    };
    let st = &solution.stats;
    out.push(counters(
        st.elapsed,
        st.nodes,
        st.nodes_per_second(),
        st.table_fill,
    ));
    let why_not = |reason: &StopReason| match reason {
        StopReason::Stopped => "timeout: stopped".to_string(),
        other => format!("timeout: {other}"),
    };
    match (&solution.outcome, running.kind) {
        (Outcome::Mate(line), Kind::Mate) => {
            out.extend(line_notes(line).iter().map(|n| format!("info string {n}")));
            let moves: Vec<String> = line_moves(line).iter().map(Move::to_string).collect();
            out.push(format!("checkmate {}", moves.join(" ")));
        }
        (Outcome::Mate(line), Kind::Game) => {
            out.extend(line_notes(line).iter().map(|n| format!("info string {n}")));
            let moves: Vec<String> = line_moves(line).iter().map(Move::to_string).collect();
            out.push(format!(
                "info time {} nodes {} score mate {} pv {}",
                st.elapsed.as_millis(),
                st.nodes,
                line_length(line),
                moves.join(" ")
            ));
            out.push(format!("bestmove {}", moves[0]));
        }
        (Outcome::NoMate, kind) => {
            let what = if running.pos.in_check() && running.pos.check_moves().is_empty() {
                "no mate (the side to move is in check and no evasion gives check)"
            } else {
                "no mate"
            };
            out.push(format!("info string {what}"));
            out.push(
                match kind {
                    Kind::Mate => "checkmate nomate",
                    Kind::Game => "bestmove resign",
                }
                .into(),
            );
        }
        (Outcome::Unknown(reason), kind) => {
            out.push(format!("info string {}", why_not(reason)));
            out.push(
                match kind {
                    Kind::Mate => "checkmate timeout",
                    Kind::Game => "bestmove resign",
                }
                .into(),
            );
        }
    }
    out
}

/// Reads standard input line by line (any bytes; invalid UTF-8 is replaced) into `events`.
fn read_input(events: Sender<Event>) {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => {
                let _ = events.send(Event::Eof);
                return;
            }
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf).trim().to_string();
                if events.send(Event::Line(line)).is_err() {
                    return;
                }
            }
        }
    }
}

fn main() {
    let (tx, rx): (Sender<Event>, Receiver<Event>) = mpsc::channel();
    let input = tx.clone();
    std::thread::spawn(move || read_input(input));
    run(tx, rx, Output::stdout());
    // `quit` (or the end of input), also during a search: exit at once; the search thread
    // dies with the process.
    let _ = io::stdout().flush();
    std::process::exit(0);
}

/// The engine's main loop: takes the lines (and the searches' ends) from `rx` until `quit` or
/// the end of input, and writes its answers to `out`. `tx` is the sender of `rx`, given to the
/// search threads.
fn run(tx: Sender<Event>, rx: Receiver<Event>, out: Output) {
    let mut engine = Engine::new(tx, out);
    loop {
        let event = match engine.wake_at() {
            Some(at) => match rx.recv_timeout(at.saturating_duration_since(Instant::now())) {
                Ok(e) => e,
                Err(RecvTimeoutError::Timeout) => {
                    engine.wake();
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            },
            None => match rx.recv() {
                Ok(e) => e,
                Err(_) => break,
            },
        };
        match event {
            Event::Line(line) => {
                if !engine.input(line) {
                    break;
                }
            }
            Event::Eof => break,
            Event::Done(f) => engine.finished(*f),
        }
        if !engine.drain() {
            break;
        }
    }
}

/// The protocol in-process: the engine's loop on a thread, lines in through its channel and
/// out through another (`tests/usi.rs` tests the program itself over pipes).
#[cfg(test)]
mod tests {
    use super::*;

    const THREE: &str = "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1";
    /// Microcosmos (1525 plies): no search here reaches its end.
    const LONG: &str = "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1";

    /// An engine on a thread, with its input and output as channels.
    struct Harness {
        input: Sender<Event>,
        output: Receiver<String>,
    }

    impl Harness {
        fn start() -> Harness {
            let (tx, rx) = mpsc::channel();
            let (out_tx, out_rx) = mpsc::channel::<String>();
            let out_tx = std::sync::Mutex::new(out_tx);
            let out = Output(Arc::new(move |line: &str| {
                let _ = out_tx.lock().unwrap().send(line.to_string());
            }));
            let input = tx.clone();
            std::thread::spawn(move || run(tx, rx, out));
            let h = Harness {
                input,
                output: out_rx,
            };
            // A small table: these searches are short.
            h.send("setoption name USI_Hash value 32");
            h
        }

        fn send(&self, line: &str) {
            self.input.send(Event::Line(line.to_string())).unwrap();
        }

        /// The lines up to and with the first that starts with `prefix`.
        fn until(&self, prefix: &str) -> Vec<String> {
            let mut lines = Vec::new();
            loop {
                let line = self
                    .output
                    .recv_timeout(Duration::from_secs(20))
                    .unwrap_or_else(|_| panic!("no '{prefix}' line after {lines:?}"));
                let done = line.starts_with(prefix);
                lines.push(line);
                if done {
                    return lines;
                }
            }
        }
    }

    #[test]
    fn handshake_and_ready() {
        let e = Harness::start();
        e.send("usi");
        let lines = e.until("usiok");
        assert!(lines[0].starts_with("id name tsume "), "{lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("option name USI_Hash type spin")),
            "{lines:?}"
        );
        e.send("isready");
        e.until("readyok");
    }

    #[test]
    fn mate_and_no_mate() {
        let e = Harness::start();
        e.send(&format!("position sfen {THREE}"));
        e.send("go mate 10000");
        let lines = e.until("checkmate");
        assert_eq!(lines.last().unwrap(), "checkmate 9f5b+ 4a5b S*4b");
        assert!(
            lines.contains(&"info string mate in 3".to_string()),
            "{lines:?}"
        );
        e.send("position sfen 4k4/9/9/9/9/9/9/9/4K4 b G2r2b3g4s4n4l18p 1");
        e.send("go mate 10000");
        assert_eq!(e.until("checkmate").last().unwrap(), "checkmate nomate");
        // As a game engine: a mate is a score and a best move.
        e.send(&format!("position sfen {THREE}"));
        e.send("go btime 10000 wtime 10000");
        let lines = e.until("bestmove");
        assert_eq!(lines.last().unwrap(), "bestmove 9f5b+");
        assert!(
            lines
                .iter()
                .any(|l| l.contains("score mate 3 pv 9f5b+ 4a5b S*4b")),
            "{lines:?}"
        );
    }

    #[test]
    fn bad_lines_are_answered_with_where_and_what() {
        let e = Harness::start();
        e.send("position startpos moves 7g7f 7g7f");
        let l = e.until("info string").pop().unwrap();
        assert_eq!(
            l,
            "info string position: move 2 \"7g7f\" is illegal: no piece on 7g \
             (column 30 of 'position startpos moves 7g7f 7g7f')"
        );
        e.send("go mate 1000");
        let lines = e.until("checkmate");
        assert_eq!(lines.last().unwrap(), "checkmate notimplemented");
        e.send("position sfen");
        let l = e.until("info string").pop().unwrap();
        assert!(l.starts_with("info string position: bad position: "), "{l}");
        e.send("position nonsense");
        let l = e.until("info string").pop().unwrap();
        assert!(
            l.contains("expected 'startpos' or 'sfen', found \"nonsense\" (column 10"),
            "{l}"
        );
        e.send("setoption name NoSuchOption value 3");
        assert!(
            e.until("info string")
                .pop()
                .unwrap()
                .contains("NoSuchOption")
        );
        e.send("hello");
        assert_eq!(
            e.until("info string").pop().unwrap(),
            "info string unknown command 'hello' (line 'hello')"
        );
        // A bare `moves` is no moves; the engine still answers.
        e.send("position startpos moves");
        e.send("isready");
        let lines = e.until("readyok");
        assert!(
            !lines.iter().any(|l| l.starts_with("info string position")),
            "{lines:?}"
        );
    }

    #[test]
    fn stop_answers_at_once_and_queued_lines_run_after() {
        let e = Harness::start();
        e.send("setoption name PvInterval value 0");
        e.send(&format!("position sfen {LONG}"));
        e.send("go mate infinite");
        std::thread::sleep(Duration::from_millis(200));
        // Waits for the answer, then applies to the next search.
        e.send(&format!("position sfen {THREE}"));
        let asked = Instant::now();
        e.send("stop");
        let lines = e.until("checkmate");
        assert!(
            asked.elapsed() < Duration::from_secs(2),
            "{:?}",
            asked.elapsed()
        );
        assert_eq!(lines.last().unwrap(), "checkmate timeout");
        e.send("go mate 10000");
        assert_eq!(
            e.until("checkmate").last().unwrap(),
            "checkmate 9f5b+ 4a5b S*4b"
        );
    }
}
