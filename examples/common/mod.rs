//! What `solve` and `check_unique` share: reading the inputs, solving many problems on
//! several threads with the output in input order, progress on a terminal, and writing KIF /
//! CSA files.
#![allow(dead_code)]

pub mod bench;
pub mod consistency;

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tsume::problem::{self, Problem, ProblemError};

/// `--shortest-nodes`: a node count, or `unlimited` for an allowance that does not run out
/// (the proof of the length goes on until it comes or another limit ends it).
pub fn parse_allowance(s: &str) -> Result<u64, String> {
    if s.eq_ignore_ascii_case("unlimited") {
        return Ok(u64::MAX);
    }
    s.parse()
        .map_err(|e| format!("'{s}': {e} (a node count, or 'unlimited')"))
}

/// The settings both programs build from their common options: each of `jobs` solvers gets
/// its share of `hash_mb`, and `threads` search threads (`None`: its share of the cores).
pub fn solver_config(
    hash_mb: usize,
    jobs: usize,
    threads: Option<usize>,
    nodes: Option<u64>,
    shortest_nodes: Option<u64>,
    time: Option<f64>,
) -> tsume::solver::SolverConfig {
    let threads =
        threads.unwrap_or_else(|| (tsume::solver::Solver::default_threads() / jobs).max(1));
    tsume::solver::SolverConfig::new()
        .hash_mib((hash_mb / jobs).max(1))
        .threads(threads)
        .node_limit(nodes)
        .shortest_node_limit(shortest_nodes)
        .time_limit(time.map(Duration::from_secs_f64))
}

/// When to map the table's memory before the first problem (`Solver::prefault`, with huge
/// pages where the system gives them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Prefault {
    /// When each job has at least 32 problems ([`AUTO_PREFAULT_PROBLEMS`]).
    Auto,
    /// Before the first problem, always.
    Always,
    /// Never: the pages are mapped as the searches touch them.
    Never,
}

/// Problems per job from which `--prefault auto` maps the table first. Mapping it costs about
/// 0.1 s per GiB here (up to 2 s when the system must first free memory for huge pages), which
/// the searches would otherwise pay as they go; one short problem would only pay for it.
pub const AUTO_PREFAULT_PROBLEMS: usize = 32;

impl Prefault {
    /// Whether to map the table for `problems` problems shared by `jobs` jobs.
    pub fn wanted(self, problems: usize, jobs: usize) -> bool {
        match self {
            Prefault::Auto => problems / jobs.max(1) >= AUTO_PREFAULT_PROBLEMS,
            Prefault::Always => true,
            Prefault::Never => false,
        }
    }
}

/// Ends the program with one line and exit status 2 when the table of `config` cannot be
/// allocated (`--hash-mb` more than the machine gives), saying how much was asked for and,
/// where the system says, how much memory is available. The table is tried once and freed:
/// its pages are not touched, so the trial costs nothing.
pub fn ensure_table(config: &tsume::solver::SolverConfig, jobs: usize) {
    if let Err(e) = tsume::solver::Solver::try_new(config.clone()) {
        let available = available_mib()
            .map(|m| format!("; {m} MiB of memory is available"))
            .unwrap_or_default();
        let per_job = if jobs > 1 {
            format!(" ({jobs} jobs, each with its own table)")
        } else {
            String::new()
        };
        eprintln!("error: {e}{per_job}{available}: give a smaller --hash-mb");
        std::process::exit(2);
    }
}

/// The memory available to a new program in MiB, where the system says (Linux).
fn available_mib() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// What [`new_solver`] maps before the first problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mapped {
    /// Nothing: the pages are mapped as the searches touch them.
    Nothing,
    /// The table (`Solver::prefault`): for solving.
    Table,
    /// The table and the checker's side tables (`Solver::prefault_checks`): for checking.
    ForChecks,
}

/// A solver with `config`; with `progress`, it reports each search's progress on standard
/// error once a second (with the root's proof numbers when `root_numbers`); its memory
/// mapped now as `mapped` says.
pub fn new_solver(
    config: &tsume::solver::SolverConfig,
    progress: bool,
    root_numbers: bool,
    mapped: Mapped,
) -> tsume::solver::Solver {
    let mut solver = tsume::solver::Solver::new(config.clone());
    match mapped {
        Mapped::Nothing => {}
        Mapped::Table => solver.prefault(),
        Mapped::ForChecks => solver.prefault_checks(),
    }
    if progress {
        solver.set_progress(move |p| {
            let root = if root_numbers {
                format!(", root pn {} dn {}", p.root_pn, p.root_dn)
            } else {
                String::new()
            };
            let mate = match (p.first_mate, p.shortest_mate) {
                (Some(n), Some(s)) if s < n => {
                    format!(", first mate found: {n} plies, shortest so far: {s} plies")
                }
                (Some(n), _) => format!(", first mate found: {n} plies"),
                _ => String::new(),
            };
            eprintln!(
                "  ... {} nodes, {:.1} s, {} nodes/s, table {:.0}%{mate}{root}",
                p.nodes,
                p.elapsed.as_secs_f64(),
                p.nodes_per_second,
                p.table_fill * 100.0
            );
        });
    }
    solver
}

/// Every problem of every input, in order: files, `-` for standard input, or a problem given
/// as text (see [`problem::read_input`]).
pub fn read_inputs(inputs: &[String]) -> Vec<Result<Problem, ProblemError>> {
    inputs.iter().flat_map(|i| problem::read_input(i)).collect()
}

/// `file:line`, or `file` for an argument.
pub fn place(p: &Problem) -> String {
    if p.origin.file == "<argument>" {
        p.origin.file.clone()
    } else {
        p.origin.to_string()
    }
}

/// How many threads `--jobs N` means (0: one per core).
pub fn job_count(jobs: usize) -> usize {
    if jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        jobs
    }
}

/// Runs `work` on every item with `jobs` threads, each with its own state from `init`, and
/// hands the results to `emit` in item order. Shows problems done / total, the rate and the
/// time left on standard error when it is a terminal.
pub fn run_ordered<T: Sync, R: Send, S>(
    items: &[T],
    jobs: usize,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &T) -> R + Sync,
    mut emit: impl FnMut(usize, R),
) {
    let total = items.len();
    let jobs = jobs.clamp(1, total.max(1));
    let next = AtomicUsize::new(0);
    let show = std::io::stderr().is_terminal() && total > 1;
    let start = Instant::now();
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, R)>();
        for _ in 0..jobs {
            let tx = tx.clone();
            let (next, init, work) = (&next, &init, &work);
            scope.spawn(move || {
                let mut state = init();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= total {
                        break;
                    }
                    if tx.send((i, work(&mut state, &items[i]))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut waiting = BTreeMap::new();
        let mut done = 0;
        let mut shown = Instant::now();
        for (i, r) in rx {
            waiting.insert(i, r);
            while let Some(r) = waiting.remove(&done) {
                emit(done, r);
                done += 1;
            }
            if show && (shown.elapsed() > Duration::from_millis(300) || done == total) {
                shown = Instant::now();
                let secs = start.elapsed().as_secs_f64();
                let rate = done as f64 / secs.max(1e-9);
                let eta = (total - done) as f64 / rate.max(1e-9);
                eprint!(
                    "\r\x1b[K{done}/{total} problems, {rate:.1}/s, {:.0} s left",
                    eta.min(1e9)
                );
            }
        }
        if show {
            eprintln!();
        }
    });
}

/// Where `--kif-dir` / `--csa-dir` write a problem: `<input stem>-<line>.<ext>`.
pub fn file_in(dir: &Path, p: &Problem, index: usize, ext: &str) -> PathBuf {
    let stem = match p.origin.file.as_str() {
        "<argument>" => format!("argument{}", index + 1),
        "<stdin>" => "stdin".to_string(),
        f => Path::new(f)
            .file_stem()
            .map_or("problem".into(), |s| s.to_string_lossy().into_owned()),
    };
    dir.join(format!("{stem}-{}.{ext}", p.origin.line))
}

/// Output files asked for on the command line (the same options for `solve`, which writes
/// the main line, and `check_unique`, which writes the line checked with each flaw as a
/// variation).
#[derive(clap::Args, Debug, Default)]
pub struct Outputs {
    /// Write the line (solve: the main line; check_unique: the line checked, each flaw a
    /// variation) as a KIF file (one problem).
    #[arg(long)]
    pub kif: Option<PathBuf>,
    /// Write each problem's KIF as DIR/<input>-<line>.kif.
    #[arg(long = "kif-dir")]
    pub kif_dir: Option<PathBuf>,
    /// Write the line as a CSA file (one problem).
    #[arg(long)]
    pub csa: Option<PathBuf>,
    /// Write each problem's CSA as DIR/<input>-<line>.csa.
    #[arg(long = "csa-dir")]
    pub csa_dir: Option<PathBuf>,
}

impl Outputs {
    /// Checks the options against the number of problems; creates the directories.
    pub fn prepare(&self, problems: usize) -> Result<(), String> {
        for (opt, f) in [("--kif", &self.kif), ("--csa", &self.csa)] {
            if f.is_some() && problems > 1 {
                return Err(format!(
                    "{opt} FILE takes one problem, there are {problems}: use {opt}-dir DIR"
                ));
            }
        }
        for d in [&self.kif_dir, &self.csa_dir].into_iter().flatten() {
            std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
        }
        Ok(())
    }

    /// Writes `out` (the problem as solved or checked) where asked.
    pub fn write(&self, source: &Problem, index: usize, out: &Problem) -> Result<(), String> {
        let files = [
            self.kif.clone(),
            self.kif_dir
                .as_ref()
                .map(|d| file_in(d, source, index, "kif")),
            self.csa.clone(),
            self.csa_dir
                .as_ref()
                .map(|d| file_in(d, source, index, "csa")),
        ];
        for f in files.iter().flatten() {
            problem::write_file(f, out).map_err(|e| format!("{}: {e}", f.display()))?;
        }
        Ok(())
    }

    pub fn any(&self) -> bool {
        self.kif.is_some() || self.kif_dir.is_some() || self.csa.is_some() || self.csa_dir.is_some()
    }
}

/// A problem of a benchmark file (`<sfen> # <expected> <name> [| check: ...]`): its position,
/// the expected result as written (`?` when not stated) and its name.
pub struct BenchProblem {
    pub position: tsume::Position,
    pub expected: String,
    pub name: String,
}

/// The problems of the benchmark file `file`; a problem that cannot be read is reported on
/// standard error and left out, and a file that cannot be read at all ends the program.
pub fn bench_problems(file: &str) -> Vec<BenchProblem> {
    let mut out = Vec::new();
    for problem in problem::read_file(file) {
        let problem = match problem {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                if e.line == 0 {
                    std::process::exit(2);
                }
                continue;
            }
        };
        // `| check: ...` after the name is the uniqueness checker's result, not part of it.
        let comment = problem.comment.split(" | ").next().unwrap_or("");
        let mut words = comment.split_whitespace();
        let expected = words.next().unwrap_or("?").to_string();
        let name = words.collect::<Vec<_>>().join(" ");
        out.push(BenchProblem {
            position: problem.position,
            expected,
            name,
        });
    }
    out
}
