//! The Python extension `tsume_shogi._tsume_shogi`: a thin layer over the `tsume` crate.
//!
//! Every search runs on a worker thread without the GIL. The calling thread waits in short
//! slices, and in each it takes the GIL briefly to run Python's signal handlers and the
//! progress callback; when either raises (Ctrl-C is a `KeyboardInterrupt` raised there), it
//! fires the solvers' stop handles and, once the worker has returned, raises that error. A
//! panic of the library is caught on the worker and becomes a `RuntimeError`, never an abort
//! of the interpreter.

use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tsume::check::{CheckConfig, Flaw, Report, Undecided};
use tsume::problem::{
    Format, Origin, Problem, ProblemError, ProblemErrorKind, read_input, read_one, write_file,
    write_kif,
};
use tsume::solver::{MateLine, Outcome, Progress, Solution, Solver, SolverConfig, StopHandle};
use tsume::{Move, Position, board_diagram, japanese_line};

/// How long the waiting thread sleeps between two looks at Python's signals: well under the
/// 0.1 s a Ctrl-C may take to stop a search, and rare enough to cost nothing.
const SLICE: Duration = Duration::from_millis(10);

/// The default table size of the Python API (the crate's own default).
const DEFAULT_HASH_MB: usize = SolverConfig::DEFAULT_HASH_MIB;

// ---------------------------------------------------------------------------------------------
// Errors

/// `tsume_shogi.ProblemError` (a `ValueError`), defined in Python so that it pickles (Dask
/// sends errors between processes) and carries its fields as attributes.
fn problem_error(py: Python<'_>, e: &ProblemError) -> PyErr {
    let made = (|| -> PyResult<PyErr> {
        let class = py.import("tsume_shogi._errors")?.getattr("ProblemError")?;
        let value = class.call1((
            e.to_string(),
            e.file.clone(),
            e.line,
            e.column,
            e.kind.to_string(),
            e.text.clone(),
        ))?;
        Ok(PyErr::from_value(value))
    })();
    made.unwrap_or_else(|err| err)
}

fn problem_error_at(py: Python<'_>, file: &str, kind: ProblemErrorKind) -> PyErr {
    problem_error(py, &ProblemError::new(file, 0, kind))
}

fn config_error(what: impl Into<String>) -> PyErr {
    PyValueError::new_err(what.into())
}

// ---------------------------------------------------------------------------------------------
// Inputs

fn origin(file: &str) -> Origin {
    Origin {
        file: file.to_string(),
        line: 0,
    }
}

/// One problem from a string: an SFEN or `position` line, a whole record, or a file path
/// holding exactly one problem.
fn one_problem(py: Python<'_>, text: &str) -> PyResult<Problem> {
    let mut all = read_input(text);
    match all.len() {
        0 => Err(problem_error_at(py, text, ProblemErrorKind::NoProblem)),
        1 => all.pop().expect("one").map_err(|e| problem_error(py, &e)),
        n => Err(PyValueError::new_err(format!(
            "{text} holds {n} problems; read them with read_problems()"
        ))),
    }
}

/// Anything the API accepts as a position: a `Position`, a `Problem`, a string (SFEN,
/// `position` line, record text, file path), an `os.PathLike`, or an object with an
/// `.sfen()` method (a `cshogi.Board`).
fn problem_from(obj: &Bound<'_, PyAny>) -> PyResult<Problem> {
    let py = obj.py();
    if let Ok(p) = obj.extract::<PyRef<'_, PyPosition>>() {
        return Ok(Problem::new(
            p.0.clone(),
            origin("<Position>"),
            Format::Sfen,
        ));
    }
    if let Ok(p) = obj.extract::<PyRef<'_, PyProblem>>() {
        return Ok(p.0.clone());
    }
    if let Ok(s) = obj.extract::<String>() {
        return one_problem(py, &s);
    }
    let os = py.import("os")?;
    if obj.is_instance(&os.getattr("PathLike")?)? {
        let s: String = os.call_method1("fspath", (obj,))?.extract()?;
        return one_problem(py, &s);
    }
    if let Ok(method) = obj.getattr("sfen") {
        if method.is_callable() {
            let s: String = method.call0()?.extract().map_err(|_| {
                PyTypeError::new_err("the object's .sfen() did not return a string")
            })?;
            return read_one(&s, "<sfen()>").map_err(|e| problem_error(py, &e));
        }
    }
    Err(PyTypeError::new_err(format!(
        "cannot make a position of a {}: give an SFEN or `position` line, a record's text, a \
         file path, a Position, a Problem, or an object with an .sfen() method (cshogi.Board)",
        obj.get_type().name()?
    )))
}

/// A tsume's position: the defender must have a king.
fn tsume_from(obj: &Bound<'_, PyAny>) -> PyResult<Problem> {
    let p = problem_from(obj)?;
    p.check_tsume().map_err(|e| problem_error(obj.py(), &e))?;
    Ok(p)
}

/// USI moves given as one string (spaces between) or a sequence of strings.
fn usi_words(obj: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Ok(s) = obj.extract::<String>() {
        return Ok(s.split_whitespace().map(str::to_string).collect());
    }
    obj.extract::<Vec<String>>().map_err(|_| {
        PyTypeError::new_err("moves: a string of USI moves, or a list of USI move strings")
    })
}

/// Moves read as USI, syntax only: whether they are legal is for the caller (the checker
/// reports an illegal intended line as a flaw of its own).
fn parse_moves(py: Python<'_>, words: &[String]) -> PyResult<Vec<Move>> {
    let mut column = 1;
    let mut out = Vec::with_capacity(words.len());
    for w in words {
        match Move::from_usi(w) {
            Ok(m) => out.push(m),
            Err(_) => {
                let e = ProblemError::new(
                    "<moves>",
                    1,
                    ProblemErrorKind::MoveSyntax { text: w.clone() },
                )
                .at(column);
                return Err(problem_error(py, &e));
            }
        }
        column += w.chars().count() + 1;
    }
    Ok(out)
}

fn usi(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

// ---------------------------------------------------------------------------------------------
// Settings

/// The limits a call may set, checked before anything runs.
#[derive(Clone, Copy, Default)]
struct Limits {
    time: Option<Duration>,
    nodes: Option<u64>,
    shortest_nodes: Option<u64>,
    max_length: Option<u32>,
    progress_interval: Option<Duration>,
}

fn seconds(name: &str, s: Option<f64>) -> PyResult<Option<Duration>> {
    match s {
        None => Ok(None),
        Some(t) if (0.0..1e12).contains(&t) => Ok(Some(Duration::from_secs_f64(t))),
        Some(t) => Err(config_error(format!(
            "{name} must be a number of seconds, at least 0 (got {t})"
        ))),
    }
}

fn positive(name: &str, n: Option<u64>) -> PyResult<Option<u64>> {
    match n {
        Some(0) => Err(config_error(format!("{name} must be at least 1"))),
        n => Ok(n),
    }
}

fn check_threads(threads: usize) -> PyResult<usize> {
    if threads == 0 {
        Err(config_error("threads must be at least 1"))
    } else {
        Ok(threads)
    }
}

fn check_hash(hash_mb: usize) -> PyResult<usize> {
    if hash_mb == 0 {
        return Err(config_error("hash_mb must be at least 1"));
    }
    Ok(hash_mb)
}

impl Limits {
    fn new(
        time: Option<f64>,
        nodes: Option<u64>,
        shortest_nodes: Option<u64>,
        max_length: Option<u32>,
        progress_interval: Option<f64>,
    ) -> PyResult<Limits> {
        let progress_interval = seconds("progress_interval", progress_interval)?;
        if progress_interval.is_some_and(|d| d.is_zero()) {
            return Err(config_error("progress_interval must be more than 0"));
        }
        Ok(Limits {
            time: seconds("time", time)?,
            nodes: positive("nodes", nodes)?,
            shortest_nodes: positive("shortest_nodes", shortest_nodes)?,
            max_length: max_length.map(|n| n.max(1)),
            progress_interval,
        })
    }

    fn config(&self, hash_mb: usize, threads: usize) -> SolverConfig {
        let mut c = SolverConfig::new()
            .hash_mib(hash_mb)
            .threads(threads)
            .time_limit(self.time)
            .node_limit(self.nodes)
            .shortest_node_limit(self.shortest_nodes)
            .max_mate_length(self.max_length);
        if let Some(every) = self.progress_interval {
            c = c.progress_interval(every);
        }
        c
    }
}

fn new_solver(config: SolverConfig) -> PyResult<Solver> {
    Solver::try_new(config).map_err(|e| PyMemoryError::new_err(e.to_string()))
}

// ---------------------------------------------------------------------------------------------
// Running without the GIL

/// The stop handles of the solvers a call runs, and whether the call was cancelled (a
/// batch's workers take no new position then).
#[derive(Default)]
struct Stops {
    handles: Mutex<Vec<StopHandle>>,
    cancelled: AtomicBool,
}

impl Stops {
    fn add(&self, h: StopHandle) {
        lock(&self.handles).push(h);
    }

    /// Stops every search. Called again at every slice while the worker runs: a stop given
    /// just before a search starts is cleared by it (see `Solver::stop_handle`).
    fn stop_all(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
        for h in lock(&self.handles).iter() {
            h.stop();
        }
    }

    fn cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }
}

/// A poisoned lock only means another thread panicked while holding it; the data (stop
/// handles, a solver between searches) is still whole.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

enum Msg {
    Progress(Progress),
    Done,
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic".to_string()
    }
}

/// Runs `work` on a worker thread with the GIL released and waits for it, looking at Python's
/// signals and passing progress reports to `callback` every [`SLICE`]. `work` gets a sender
/// for progress reports.
fn run_detached<R: Send>(
    py: Python<'_>,
    stops: &Stops,
    callback: Option<&Py<PyAny>>,
    work: impl FnOnce(Sender<Msg>) -> R + Send,
) -> PyResult<R> {
    let (tx, rx) = mpsc::channel::<Msg>();
    let (outcome, failure) = py.detach(move || {
        std::thread::scope(|s| {
            let worker = s.spawn(move || {
                let done = tx.clone();
                let r = catch_unwind(AssertUnwindSafe(|| work(tx)));
                let _ = done.send(Msg::Done);
                r
            });
            let mut failure: Option<PyErr> = None;
            let mut finished = false;
            while !finished {
                let mut reports = Vec::new();
                match rx.recv_timeout(SLICE) {
                    Ok(Msg::Done) | Err(RecvTimeoutError::Disconnected) => finished = true,
                    Ok(Msg::Progress(p)) => reports.push(p),
                    Err(RecvTimeoutError::Timeout) => {}
                }
                while let Ok(m) = rx.try_recv() {
                    match m {
                        Msg::Done => finished = true,
                        Msg::Progress(p) => reports.push(p),
                    }
                }
                if failure.is_none() && !finished {
                    Python::attach(|py| {
                        if let Err(e) = py.check_signals() {
                            failure = Some(e);
                            return;
                        }
                        if let Some(cb) = callback {
                            for p in &reports {
                                if let Err(e) = cb.call1(py, (PyProgress::from(p),)) {
                                    failure = Some(e);
                                    return;
                                }
                            }
                        }
                    });
                }
                if failure.is_some() {
                    stops.stop_all();
                }
            }
            (worker.join(), failure)
        })
    });
    if let Some(e) = failure {
        return Err(e);
    }
    match outcome {
        Ok(Ok(r)) => Ok(r),
        Ok(Err(p)) | Err(p) => Err(PyRuntimeError::new_err(format!(
            "internal error in the tsume library (please report it): {}",
            panic_text(&*p)
        ))),
    }
}

fn progress_sender(tx: &Sender<Msg>) -> impl FnMut(&Progress) + Send + 'static {
    let tx = tx.clone();
    move |p: &Progress| {
        let _ = tx.send(Msg::Progress(*p));
    }
}

// ---------------------------------------------------------------------------------------------
// Python classes

/// A shogi position. `Position(x)` takes an SFEN or USI `position` line, a record's text
/// (KIF, KI2, BOD, CSA), a path to a file holding one problem, a `Problem`, or any object
/// with an `.sfen()` method (a `cshogi.Board`).
#[pyclass(name = "Position", module = "tsume_shogi", frozen, eq)]
#[derive(Clone, PartialEq)]
struct PyPosition(Position);

#[pymethods]
impl PyPosition {
    #[new]
    fn new(source: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        Ok(PyPosition(problem_from(source)?.position))
    }

    /// The position as an SFEN string (the same method name as `cshogi.Board.sfen`).
    fn sfen(&self) -> String {
        self.0.to_sfen()
    }

    /// `"black"` (先手) or `"white"` (後手): the side to move, the attacker in a tsume.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        match self.0.side_to_move() {
            tsume::Color::Black => "black",
            tsume::Color::White => "white",
        }
    }

    /// Whether the side to move is in check.
    #[getter]
    fn in_check(&self) -> bool {
        self.0.in_check()
    }

    /// The legal moves, as USI strings.
    fn legal_moves(&self) -> Vec<String> {
        self.0.legal_moves().iter().map(Move::to_string).collect()
    }

    /// The position after `moves` (USI, a string or a list). Raises `ProblemError` for a move
    /// that cannot be read or is illegal.
    fn play(&self, py: Python<'_>, moves: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        let words = usi_words(moves)?;
        let line = parse_moves(py, &words)?;
        let mut p = self.0.clone();
        for (i, (w, &mv)) in words.iter().zip(&line).enumerate() {
            if let Err(reason) = p.play(mv) {
                let kind = ProblemErrorKind::IllegalMove {
                    ply: i + 1,
                    text: w.clone(),
                    reason,
                };
                return Err(problem_error_at(py, "<moves>", kind));
            }
        }
        Ok(PyPosition(p))
    }

    /// Japanese notation (▲７六歩 ...) of `moves` played from here.
    fn japanese(&self, py: Python<'_>, moves: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let words = usi_words(moves)?;
        let line = parse_moves(py, &words)?;
        self.play(py, moves)?;
        Ok(japanese_line(&self.0, &line))
    }

    /// A KIF-style text diagram (後手の持駒, the board, 先手の持駒).
    fn diagram(&self) -> String {
        board_diagram(&self.0)
    }

    fn __str__(&self) -> String {
        board_diagram(&self.0)
    }

    fn __repr__(&self) -> String {
        format!("Position({:?})", self.0.to_sfen())
    }

    fn __hash__(&self) -> u64 {
        self.0.key()
    }

    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(Py<PyAny>, (String,))> {
        Ok((slf.get_type().into_any().unbind(), (slf.get().0.to_sfen(),)))
    }

    /// The board as SVG, for notebooks.
    fn _repr_svg_(&self, py: Python<'_>) -> PyResult<String> {
        board_svg(py, &self.0.to_sfen())
    }
}

fn board_svg(py: Python<'_>, sfen: &str) -> PyResult<String> {
    py.import("tsume_shogi._svg")?
        .call_method1("board_svg", (sfen,))?
        .extract()
}

/// A problem read from a file or text: its start position, its line (the intended solution,
/// 作意, or a record's moves), name, comment and where it came from.
#[pyclass(name = "Problem", module = "tsume_shogi", frozen)]
#[derive(Clone)]
struct PyProblem(Problem);

#[pymethods]
impl PyProblem {
    /// The start position.
    #[getter]
    fn position(&self) -> PyPosition {
        PyPosition(self.0.position.clone())
    }

    /// The main line's moves as USI strings (the intended line of a composed problem).
    #[getter]
    fn moves(&self) -> Vec<String> {
        usi(&self.0.moves)
    }

    /// The main line in Japanese notation.
    #[getter]
    fn japanese(&self) -> Vec<String> {
        japanese_line(&self.0.position, &self.0.moves)
    }

    /// The record's variations: dicts with `ply`, `parent` (index of the variation it
    /// branches from, or None for the main line), `moves` (USI) and `comment`.
    #[getter]
    fn variations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for v in &self.0.variations {
            let d = PyDict::new(py);
            d.set_item("ply", v.ply)?;
            d.set_item("parent", v.parent)?;
            d.set_item("moves", usi(&v.moves))?;
            d.set_item("comment", &v.comment)?;
            out.append(d)?;
        }
        Ok(out)
    }

    #[getter]
    fn name(&self) -> Option<String> {
        self.0.name.clone()
    }

    /// The comment (for an SFEN line, the text after `#`).
    #[getter]
    fn comment(&self) -> String {
        self.0.comment.clone()
    }

    /// How the record ends (`詰み`, `投了`, ...), if it says.
    #[getter]
    fn termination(&self) -> Option<String> {
        self.0.termination.clone()
    }

    /// The file it came from (`<argument>` for text).
    #[getter]
    fn file(&self) -> String {
        self.0.origin.file.clone()
    }

    /// The 1-based line it starts on.
    #[getter]
    fn line(&self) -> usize {
        self.0.origin.line
    }

    /// `sfen`, `usi`, `kif`, `ki2` or `csa`.
    #[getter]
    fn format(&self) -> &'static str {
        self.0.format.name()
    }

    /// The problem as one SFEN line with its moves: `<sfen> [moves ...]`.
    fn sfen_line(&self) -> String {
        self.0.to_sfen_line()
    }

    /// The position's SFEN (so that a Problem works where an `.sfen()` object does).
    fn sfen(&self) -> String {
        self.0.position.to_sfen()
    }

    /// The problem as KIF text (variations included).
    fn kif(&self) -> String {
        write_kif(&self.0)
    }

    /// Writes the problem to `path` in the format its extension names: `.kif` (Shift-JIS, as
    /// Kifu for Windows writes it), `.kifu` (UTF-8), `.csa`, `.sfen` / `.usi`.
    fn write(&self, py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<()> {
        let path: std::path::PathBuf = path.extract()?;
        py.detach(|| write_file(&path, &self.0))
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::InvalidInput => PyValueError::new_err(e.to_string()),
                _ => pyo3::exceptions::PyOSError::new_err(format!("{}: {e}", path.display())),
            })
    }

    fn __repr__(&self) -> String {
        format!(
            "Problem({:?}, file={:?}, line={})",
            self.0.to_sfen_line(),
            self.0.origin.file,
            self.0.origin.line
        )
    }

    fn _repr_svg_(&self, py: Python<'_>) -> PyResult<String> {
        board_svg(py, &self.0.position.to_sfen())
    }
}

/// A progress report during a search.
#[pyclass(name = "Progress", module = "tsume_shogi", frozen, get_all)]
struct PyProgress {
    /// Nodes searched so far.
    nodes: u64,
    /// Seconds since the search started.
    time: f64,
    /// Nodes per second.
    nps: u64,
    /// Fraction of the table in use (0-1, estimated).
    table_fill: f64,
    /// Once a first mate is proven: its length (a bound, shortened after).
    first_mate: Option<u32>,
    /// The shortest mate proven so far.
    shortest_mate: Option<u32>,
}

impl From<&Progress> for PyProgress {
    fn from(p: &Progress) -> PyProgress {
        PyProgress {
            nodes: p.nodes,
            time: p.elapsed.as_secs_f64(),
            nps: p.nodes_per_second,
            table_fill: p.table_fill,
            first_mate: p.first_mate,
            shortest_mate: p.shortest_mate,
        }
    }
}

#[pymethods]
impl PyProgress {
    fn __repr__(&self) -> String {
        format!(
            "Progress(nodes={}, time={:.3}, nps={}, table_fill={:.3}, first_mate={:?}, \
             shortest_mate={:?})",
            self.nodes, self.time, self.nps, self.table_fill, self.first_mate, self.shortest_mate
        )
    }
}

/// The result of `solve`: the verdict, the mate's length and status, the line.
#[pyclass(name = "SolveResult", module = "tsume_shogi", frozen, get_all)]
struct PySolveResult {
    /// The position solved, in SFEN.
    sfen: String,
    /// `"mate"`, `"nomate"` or `"unknown"` (no verdict within the limits).
    verdict: &'static str,
    /// The mate length (手数) a proof shows, futile interpositions (無駄合) not counted; None
    /// unless a mate. Minimal when `shortest_proven`.
    length: Option<u32>,
    /// Whether `length` is proven the shortest mate (None unless a mate).
    shortest_proven: Option<bool>,
    /// Whether the line shown is the main line (shortest attack, longest defence) at
    /// `length` (None unless a mate). When False, the line is a mate against one defence only.
    main_line: Option<bool>,
    /// Whether the line is, besides, decided exactly (the same for every table size).
    exact: Option<bool>,
    /// One sentence: `mate in 11`, `mate in 11 (not proven shortest)`, `no mate`, `unknown
    /// (time limit reached)`, ...
    status: String,
    /// Why there is no verdict (None unless `unknown`).
    reason: Option<String>,
    /// The line shown, attacker first, as USI strings (empty unless a mate).
    moves: Vec<String>,
    /// The line in Japanese notation (▲５二角成 △同　銀 ...).
    japanese: Vec<String>,
    /// The attacker's hand at the end of the line (駒余り when not empty), SFEN letters
    /// (`2GP`); None unless a mate.
    hand_left: Option<String>,
    /// Nodes searched.
    nodes: u64,
    /// Wall time in seconds.
    time: f64,
    /// Nodes per second.
    nps: u64,
    /// Nodes when the first proof was complete (what a solver that stops at its first proof
    /// would have searched).
    first_proof_nodes: Option<u64>,
    /// Seconds when the first proof was complete.
    first_proof_time: Option<f64>,
}

impl PySolveResult {
    fn new(pos: &Position, s: &Solution) -> PySolveResult {
        let st = &s.stats;
        let mut r = PySolveResult {
            sfen: pos.to_sfen(),
            verdict: "unknown",
            length: None,
            shortest_proven: None,
            main_line: None,
            exact: None,
            status: String::new(),
            reason: None,
            moves: Vec::new(),
            japanese: Vec::new(),
            hand_left: None,
            nodes: st.nodes,
            time: st.elapsed.as_secs_f64(),
            nps: st.nodes_per_second(),
            first_proof_nodes: st.first_proof_nodes,
            first_proof_time: st.first_proof_time.map(|t| t.as_secs_f64()),
        };
        match &s.outcome {
            Outcome::Mate(line) => r.fill_mate(pos, line),
            Outcome::NoMate => {
                r.verdict = "nomate";
                r.status = "no mate".into();
            }
            Outcome::Unknown(why) => {
                r.reason = Some(why.to_string());
                r.status = format!("unknown ({why})");
            }
        }
        r
    }

    fn fill_mate(&mut self, pos: &Position, line: &MateLine) {
        self.verdict = "mate";
        self.length = Some(line.length());
        self.shortest_proven = Some(line.shortest_proven());
        self.main_line = Some(line.is_main_line());
        self.exact = Some(line.exact());
        self.status = line.status().to_string();
        self.moves = usi(line.moves());
        self.japanese = japanese_line(pos, line.moves());
        self.hand_left = Some(line.hand_left().to_string());
    }
}

#[pymethods]
impl PySolveResult {
    /// True for a proven mate.
    #[getter]
    fn is_mate(&self) -> bool {
        self.verdict == "mate"
    }

    /// The fields as a dict (plain values: JSON- and pickle-friendly).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("sfen", &self.sfen)?;
        d.set_item("verdict", self.verdict)?;
        d.set_item("length", self.length)?;
        d.set_item("shortest_proven", self.shortest_proven)?;
        d.set_item("main_line", self.main_line)?;
        d.set_item("exact", self.exact)?;
        d.set_item("status", &self.status)?;
        d.set_item("reason", &self.reason)?;
        d.set_item("moves", &self.moves)?;
        d.set_item("japanese", &self.japanese)?;
        d.set_item("hand_left", &self.hand_left)?;
        d.set_item("nodes", self.nodes)?;
        d.set_item("time", self.time)?;
        d.set_item("nps", self.nps)?;
        d.set_item("first_proof_nodes", self.first_proof_nodes)?;
        d.set_item("first_proof_time", self.first_proof_time)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "SolveResult({:?}, {}, moves={:?})",
            self.status,
            self.sfen,
            self.moves.join(" ")
        )
    }

    /// The board, the status and the line, for notebooks.
    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        py.import("tsume_shogi._svg")?
            .call_method1(
                "result_html",
                (&self.sfen, &self.status, self.japanese.clone()),
            )?
            .extract()
    }
}

/// One flaw found by `check`.
#[pyclass(name = "Flaw", module = "tsume_shogi", frozen, get_all)]
struct PyFlaw {
    /// `alternative_mate`, `pieces_left_over`, `no_mate`, ... (`FlawKind::name`).
    kind: &'static str,
    /// The Japanese term: 余詰, 駒余り, 変同, 早詰, ...
    kind_japanese: &'static str,
    /// The 1-based ply of the line where it occurs.
    ply: u32,
    /// The alternative's moves (USI), its first move first.
    moves: Vec<String>,
    /// The alternative in Japanese notation.
    moves_japanese: String,
    /// Plies from `ply` to the mate along the alternative, if known.
    length: Option<u32>,
    /// Whether `length` is proven shortest.
    length_exact: bool,
    /// Plies from `ply` to the end of the line checked.
    line_length: Option<u32>,
    /// For 手順前後 / 非限定: the ply after which the alternative rejoins the line.
    rejoin_ply: Option<u32>,
    /// Whether the flaw counts as fatal in this check.
    fatal: bool,
    /// A sentence for people.
    detail: String,
}

impl PyFlaw {
    fn new(report: &Report, root: &Position, f: &Flaw) -> PyFlaw {
        PyFlaw {
            kind: f.kind.name(),
            kind_japanese: f.kind.japanese(),
            ply: f.ply,
            moves: usi(&f.moves),
            moves_japanese: report.flaw_in_japanese(root, f),
            length: f.length,
            length_exact: f.length_exact,
            line_length: f.line_length,
            rejoin_ply: f.rejoin_ply,
            fatal: f.fatal,
            detail: f.detail.clone(),
        }
    }

    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("kind", self.kind)?;
        d.set_item("kind_japanese", self.kind_japanese)?;
        d.set_item("ply", self.ply)?;
        d.set_item("moves", &self.moves)?;
        d.set_item("moves_japanese", &self.moves_japanese)?;
        d.set_item("length", self.length)?;
        d.set_item("length_exact", self.length_exact)?;
        d.set_item("line_length", self.line_length)?;
        d.set_item("rejoin_ply", self.rejoin_ply)?;
        d.set_item("fatal", self.fatal)?;
        d.set_item("detail", &self.detail)?;
        Ok(d)
    }
}

#[pymethods]
impl PyFlaw {
    fn __repr__(&self) -> String {
        format!(
            "Flaw({}@{} {}{}: {})",
            self.kind,
            self.ply,
            self.kind_japanese,
            if self.fatal { ", fatal" } else { "" },
            self.detail
        )
    }
}

/// A question the checker could not settle within its limits.
#[pyclass(name = "Undecided", module = "tsume_shogi", frozen, get_all)]
struct PyUndecided {
    /// The ply of the line it concerns.
    ply: u32,
    /// The move it concerns (USI), if one.
    #[pyo3(name = "move")]
    mv: Option<String>,
    /// Which question (`alternative_mate`, `main_line_shortest`, ...).
    kind: &'static str,
    /// The question, for people.
    question: String,
    /// Why it is undecided.
    reason: String,
}

impl From<&Undecided> for PyUndecided {
    fn from(u: &Undecided) -> PyUndecided {
        PyUndecided {
            ply: u.ply,
            mv: u.mv.map(|m| m.to_string()),
            kind: u.kind.name(),
            question: u.question.clone(),
            reason: u.reason.to_string(),
        }
    }
}

#[pymethods]
impl PyUndecided {
    fn __repr__(&self) -> String {
        format!(
            "Undecided({}@{}: {} ({}))",
            self.kind, self.ply, self.question, self.reason
        )
    }
}

/// The report of `check`: the verdict and every flaw.
#[pyclass(name = "CheckReport", module = "tsume_shogi", frozen)]
struct PyCheckReport {
    report: Report,
    source: Problem,
    config: SolverConfig,
}

#[pymethods]
impl PyCheckReport {
    /// `"sound"`, `"unsound"` or `"undecided"`.
    #[getter]
    fn verdict(&self) -> String {
        self.report.verdict.to_string()
    }

    /// True when sound, False when unsound, None when undecided.
    #[getter]
    fn sound(&self) -> Option<bool> {
        self.report.sound()
    }

    /// The position checked, in SFEN.
    #[getter]
    fn sfen(&self) -> String {
        self.source.position.to_sfen()
    }

    /// The line checked (USI): the intended line when one was given and it mates, else the
    /// solver's main line; empty when there is no mate.
    #[getter]
    fn line(&self) -> Vec<String> {
        usi(&self.report.line)
    }

    /// The line checked in Japanese notation.
    #[getter]
    fn japanese(&self) -> Vec<String> {
        japanese_line(&self.source.position, &self.report.line)
    }

    /// Whether `line` is the intended line.
    #[getter]
    fn checked_intended(&self) -> bool {
        self.report.checked_intended
    }

    /// The solver's mate length (None without a mate).
    #[getter]
    fn length(&self) -> Option<u32> {
        self.report.main_line.as_ref().map(MateLine::length)
    }

    /// The solver's main line status sentence (`mate in 9`, ...), or `no mate`.
    #[getter]
    fn status(&self) -> String {
        match &self.report.main_line {
            Some(l) => l.status().to_string(),
            None => "no mate".into(),
        }
    }

    /// The attacker's hand at the end of the line (SFEN letters; empty: none left over).
    #[getter]
    fn hand_left(&self) -> String {
        self.report.hand_left.to_string()
    }

    /// Every flaw, in ply order (fatal ones and notes).
    #[getter]
    fn flaws(&self) -> Vec<PyFlaw> {
        let root = &self.source.position;
        self.report
            .flaws
            .iter()
            .map(|f| PyFlaw::new(&self.report, root, f))
            .collect()
    }

    /// Questions not settled within the limits.
    #[getter]
    fn undecided(&self) -> Vec<PyUndecided> {
        self.report
            .undecided
            .iter()
            .map(PyUndecided::from)
            .collect()
    }

    /// Nodes over every search of the check.
    #[getter]
    fn nodes(&self) -> u64 {
        self.report.stats.nodes
    }

    /// Wall time in seconds.
    #[getter]
    fn time(&self) -> f64 {
        self.report.stats.elapsed.as_secs_f64()
    }

    /// The problem as checked, as a record: the line checked, each flaw's alternative as a
    /// variation (with its comment), the verdict in the comment. With `lines=True` each
    /// alternative that names only its first move gets its line to the mate (a search each,
    /// within the check's limits; the GIL is released and Ctrl-C stops them).
    #[pyo3(signature = (*, lines = true))]
    fn to_problem(&self, py: Python<'_>, lines: bool) -> PyResult<PyProblem> {
        if !lines {
            return Ok(PyProblem(self.report.to_problem(&self.source, |_| None)));
        }
        let stops = Stops::default();
        let config = self.config.clone();
        let record = run_detached(py, &stops, None, |_| -> PyResult<Problem> {
            let mut solver = Solver::try_new(config).map_err(|e| e.to_string());
            let Ok(solver) = solver.as_mut() else {
                return Ok(self.report.to_problem(&self.source, |_| None));
            };
            stops.add(solver.stop_handle());
            let deadline = solver.config().get_time_limit().map(|t| Instant::now() + t);
            Ok(self.report.to_problem(&self.source, |after| {
                if stops.cancelled() {
                    return None;
                }
                solver.longest_defence(after, deadline)
            }))
        })??;
        Ok(PyProblem(record))
    }

    /// Writes the record of `to_problem()` to `path` (`.kif` Shift-JIS, `.kifu` UTF-8): a
    /// shogi GUI then shows every flaw as a variation on the board.
    #[pyo3(signature = (path, *, lines = true))]
    fn write_kif(&self, py: Python<'_>, path: &Bound<'_, PyAny>, lines: bool) -> PyResult<()> {
        self.to_problem(py, lines)?.write(py, path)
    }

    /// The fields as a dict (plain values).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("sfen", self.sfen())?;
        d.set_item("verdict", self.verdict())?;
        d.set_item("sound", self.sound())?;
        d.set_item("line", self.line())?;
        d.set_item("japanese", self.japanese())?;
        d.set_item("checked_intended", self.checked_intended())?;
        d.set_item("length", self.length())?;
        d.set_item("status", self.status())?;
        d.set_item("hand_left", self.hand_left())?;
        let flaws = PyList::empty(py);
        for f in self.flaws() {
            flaws.append(f.to_dict(py)?)?;
        }
        d.set_item("flaws", flaws)?;
        let undecided = PyList::empty(py);
        for u in self.undecided() {
            let x = PyDict::new(py);
            x.set_item("ply", u.ply)?;
            x.set_item("move", u.mv)?;
            x.set_item("kind", u.kind)?;
            x.set_item("question", u.question)?;
            x.set_item("reason", u.reason)?;
            undecided.append(x)?;
        }
        d.set_item("undecided", undecided)?;
        d.set_item("nodes", self.nodes())?;
        d.set_item("time", self.time())?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let flaws: Vec<String> = self
            .report
            .flaws
            .iter()
            .map(|f| format!("{}@{}", f.kind.name(), f.ply))
            .collect();
        format!(
            "CheckReport({}, {}, flaws=[{}])",
            self.report.verdict,
            self.source.position.to_sfen(),
            flaws.join(", ")
        )
    }

    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        let flaws: Vec<String> = self
            .report
            .flaws
            .iter()
            .map(|f| {
                format!(
                    "{} {}@{}: {}",
                    f.kind.japanese(),
                    f.kind.name(),
                    f.ply,
                    f.detail
                )
            })
            .collect();
        let status = format!("{} ({})", self.report.verdict, self.status());
        py.import("tsume_shogi._svg")?
            .call_method1("result_html", (self.sfen(), status, self.japanese(), flaws))?
            .extract()
    }
}

/// A reusable solver with its own table (`hash_mb` MiB, reserved at once and touched as it
/// fills). Reuse one for many positions to skip the allocation; one search at a time per
/// solver (calls from other threads wait).
#[pyclass(name = "Solver", module = "tsume_shogi", frozen)]
struct PySolver {
    inner: Mutex<Solver>,
    stop: StopHandle,
    hash_mb: usize,
    threads: usize,
}

#[pymethods]
impl PySolver {
    #[new]
    #[pyo3(signature = (*, hash_mb = DEFAULT_HASH_MB, threads = 1))]
    fn new(hash_mb: usize, threads: usize) -> PyResult<PySolver> {
        let threads = check_threads(threads)?;
        let hash_mb = check_hash(hash_mb)?;
        let solver = new_solver(SolverConfig::new().hash_mib(hash_mb).threads(threads))?;
        Ok(PySolver {
            stop: solver.stop_handle(),
            inner: Mutex::new(solver),
            hash_mb,
            threads,
        })
    }

    /// Search threads per position.
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }

    /// The table size in MiB.
    #[getter]
    fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Maps the whole table now (the memory is otherwise touched as searches first reach it):
    /// before a long search, or to keep page faults out of a timing.
    fn prefault(&self, py: Python<'_>) {
        py.detach(|| lock(&self.inner).prefault());
    }

    /// Stops the search running on this solver (from another thread); it returns an
    /// `unknown` verdict.
    fn stop(&self) {
        self.stop.stop();
    }

    /// See `tsume_shogi.solve`.
    #[pyo3(signature = (position, *, time = None, nodes = None, shortest_nodes = None,
                        max_length = None, progress = None, progress_interval = None))]
    #[allow(clippy::too_many_arguments)]
    fn solve(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        time: Option<f64>,
        nodes: Option<u64>,
        shortest_nodes: Option<u64>,
        max_length: Option<u32>,
        progress: Option<Py<PyAny>>,
        progress_interval: Option<f64>,
    ) -> PyResult<PySolveResult> {
        let problem = tsume_from(position)?;
        let limits = Limits::new(time, nodes, shortest_nodes, max_length, progress_interval)?;
        let config = limits.config(self.hash_mb, self.threads);
        let stops = Stops::default();
        stops.add(self.stop.clone());
        let pos = problem.position;
        let want_progress = progress.is_some();
        let solution = run_detached(py, &stops, progress.as_ref(), |tx| {
            let mut solver = lock(&self.inner);
            solver
                .set_config(config)
                .map_err(|e| PyMemoryError::new_err(e.to_string()))?;
            if want_progress {
                solver.set_progress(progress_sender(&tx));
            }
            let s = solver.solve(&pos);
            solver.clear_progress();
            PyResult::Ok(s)
        })??;
        Ok(PySolveResult::new(&pos, &solution))
    }

    /// See `tsume_shogi.check`.
    #[pyo3(signature = (position, moves = None, *, first_flaw = false, strict = false,
                        variations = false, time = None, nodes = None, question_nodes = None,
                        progress = None, progress_interval = None))]
    #[allow(clippy::too_many_arguments)]
    fn check(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        moves: Option<&Bound<'_, PyAny>>,
        first_flaw: bool,
        strict: bool,
        variations: bool,
        time: Option<f64>,
        nodes: Option<u64>,
        question_nodes: Option<u64>,
        progress: Option<Py<PyAny>>,
        progress_interval: Option<f64>,
    ) -> PyResult<PyCheckReport> {
        let problem = tsume_from(position)?;
        let intended = match moves {
            Some(m) => Some(parse_moves(py, &usi_words(m)?)?),
            None => (!problem.moves.is_empty()).then(|| problem.moves.clone()),
        };
        let limits = Limits::new(time, nodes, None, None, progress_interval)?;
        let config = limits.config(self.hash_mb, self.threads);
        let check = CheckConfig::new()
            .first_flaw(first_flaw)
            .strict(strict)
            .variations(variations)
            .question_node_limit(positive("question_nodes", question_nodes)?);
        let stops = Stops::default();
        stops.add(self.stop.clone());
        let want_progress = progress.is_some();
        let pos = problem.position.clone();
        let report = run_detached(py, &stops, progress.as_ref(), |tx| {
            let mut solver = lock(&self.inner);
            solver
                .set_config(config.clone())
                .map_err(|e| PyMemoryError::new_err(e.to_string()))?;
            if want_progress {
                solver.set_progress(progress_sender(&tx));
            }
            let r = solver.check(&pos, intended.as_deref(), &check);
            solver.clear_progress();
            PyResult::Ok(r)
        })??;
        Ok(PyCheckReport {
            report,
            source: problem,
            config,
        })
    }

    fn __repr__(&self) -> String {
        format!("Solver(hash_mb={}, threads={})", self.hash_mb, self.threads)
    }
}

// ---------------------------------------------------------------------------------------------
// Module functions

/// Reads every problem of a file or text (SFEN / USI lines, KIF, KI2, BOD, CSA; UTF-8 or
/// Shift-JIS). `on_error`: `"raise"` (the first bad problem raises `ProblemError`), `"skip"`
/// (bad problems are left out) or `"return"` (they are in the list as `ProblemError`
/// instances, in their place).
#[pyfunction]
#[pyo3(signature = (source, *, on_error = "raise"))]
fn read_problems(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    on_error: &str,
) -> PyResult<Py<PyList>> {
    if !["raise", "skip", "return"].contains(&on_error) {
        return Err(config_error(format!(
            "on_error must be \"raise\", \"skip\" or \"return\", not {on_error:?}"
        )));
    }
    let text: String = if let Ok(s) = source.extract::<String>() {
        s
    } else {
        py.import("os")?
            .call_method1("fspath", (source,))
            .map_err(|_| PyTypeError::new_err("source: a path or a problem's text"))?
            .extract()?
    };
    let all = py.detach(|| read_input(&text));
    let out = PyList::empty(py);
    for r in all {
        match r {
            Ok(p) => out.append(Py::new(py, PyProblem(p))?)?,
            Err(e) => match on_error {
                "raise" => return Err(problem_error(py, &e)),
                "skip" => {}
                _ => out.append(problem_error(py, &e).value(py))?,
            },
        }
    }
    Ok(out.unbind())
}

/// Solves many positions on `jobs` threads (each with its own table of `hash_mb` MiB), the GIL
/// released; the results come in input order. Every position is read first: a bad one raises
/// before any search. Ctrl-C stops every search.
#[pyfunction]
#[pyo3(signature = (positions, *, jobs = 1, time = None, nodes = None, shortest_nodes = None,
                    max_length = None, hash_mb = DEFAULT_HASH_MB, threads = 1))]
#[allow(clippy::too_many_arguments)]
fn solve_many(
    py: Python<'_>,
    positions: &Bound<'_, PyAny>,
    jobs: usize,
    time: Option<f64>,
    nodes: Option<u64>,
    shortest_nodes: Option<u64>,
    max_length: Option<u32>,
    hash_mb: usize,
    threads: usize,
) -> PyResult<Vec<PySolveResult>> {
    let threads = check_threads(threads)?;
    let hash_mb = check_hash(hash_mb)?;
    if jobs == 0 {
        return Err(config_error("jobs must be at least 1"));
    }
    let limits = Limits::new(time, nodes, shortest_nodes, max_length, None)?;
    let mut all = Vec::new();
    for item in positions.try_iter()? {
        all.push(tsume_from(&item?)?.position);
    }
    let jobs = jobs.min(all.len()).max(1);
    let config = limits.config(hash_mb, threads);
    let stops = Stops::default();
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<Solution>>> = all.iter().map(|_| Mutex::new(None)).collect();
    run_detached(py, &stops, None, |_| -> PyResult<()> {
        std::thread::scope(|s| {
            let workers: Vec<_> = (0..jobs)
                .map(|_| {
                    s.spawn(|| -> PyResult<()> {
                        let mut solver = new_solver(config.clone())?;
                        stops.add(solver.stop_handle());
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            if i >= all.len() || stops.cancelled() {
                                return Ok(());
                            }
                            let s = solver.solve(&all[i]);
                            *lock(&results[i]) = Some(s);
                        }
                    })
                })
                .collect();
            let mut first_error = Ok(());
            for w in workers {
                let r = w.join().unwrap_or_else(|p| {
                    Err(PyRuntimeError::new_err(format!(
                        "internal error in the tsume library (please report it): {}",
                        panic_text(&*p)
                    )))
                });
                if first_error.is_ok() {
                    first_error = r;
                }
            }
            first_error
        })
    })??;
    let mut out = Vec::with_capacity(all.len());
    for (pos, r) in all.iter().zip(results) {
        let s = r
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .ok_or_else(|| PyRuntimeError::new_err("a position was not searched"))?;
        out.push(PySolveResult::new(pos, &s));
    }
    Ok(out)
}

#[pymodule]
fn _tsume_shogi(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPosition>()?;
    m.add_class::<PyProblem>()?;
    m.add_class::<PyProgress>()?;
    m.add_class::<PySolveResult>()?;
    m.add_class::<PyFlaw>()?;
    m.add_class::<PyUndecided>()?;
    m.add_class::<PyCheckReport>()?;
    m.add_class::<PySolver>()?;
    m.add_function(wrap_pyfunction!(read_problems, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many, m)?)?;
    m.add("DEFAULT_HASH_MB", DEFAULT_HASH_MB)?;
    Ok(())
}
