//! The solver's settings: [`SolverConfig`], built with chained setters, each with a getter.

use super::audit::AuditLog;
use super::monitor::Limits;
use super::outcome::Progress;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Settings for a [`Solver`](super::Solver), built with chained setters; each setter has a
/// getter of the same name with `get_` in front. The defaults are the associated constants
/// below (the example binaries' `--help` and the README point here).
///
/// ```
/// use std::time::Duration;
/// use tsume::solver::SolverConfig;
/// let config = SolverConfig::new()
///     .hash_mib(256)
///     .node_limit(Some(10_000_000))
///     .time_limit(Some(Duration::from_secs(30)));
/// assert_eq!(config.get_hash_mib(), 256);
/// assert_eq!(config.get_node_limit(), Some(10_000_000));
/// assert_eq!(SolverConfig::new().get_hash_mib(), SolverConfig::DEFAULT_HASH_MIB);
/// ```
#[derive(Clone, Debug)]
pub struct SolverConfig {
    hash_kib: usize,
    node_limit: Option<u64>,
    time_limit: Option<Duration>,
    progress_interval: Duration,
    max_depth: u32,
    shortest_node_limit: Option<u64>,
    defences: bool,
    max_mate_length: Option<u32>,
    tighten_line: bool,
    threads: usize,
    /// Where the searches' bounded answers are recorded (tests only, see `audit`).
    audit: Option<AuditLog>,
}

impl Default for SolverConfig {
    fn default() -> SolverConfig {
        SolverConfig::new()
    }
}

impl SolverConfig {
    /// The default table size in MiB.
    pub const DEFAULT_HASH_MIB: usize = 256;
    /// The default deepest ply a search may reach.
    pub const DEFAULT_MAX_DEPTH: u32 = 16_000;
    /// The default interval between progress reports.
    pub const DEFAULT_PROGRESS_INTERVAL: Duration = Duration::from_secs(1);
    /// The default allowance for the shortest-mate work (when
    /// [`SolverConfig::shortest_node_limit`] is `None`): the nodes the solver may spend, after
    /// the first proof, on proving the length minimal and walking the main line. It is enough
    /// for the long problems of `problems/long.sfen` that the solver proves at all and for
    /// nearly every random mate of `problems/random.sfen` (the benchmarks show which), and
    /// it does not grow with the first proof: a problem whose first proof alone takes more
    /// ends with a mate that is not proven shortest, which the status says.
    pub const DEFAULT_SHORTEST_NODES: u64 = 10_000_000;

    /// The defaults: a [`DEFAULT_HASH_MIB`](Self::DEFAULT_HASH_MIB) table, no node or time
    /// limit, progress every [`DEFAULT_PROGRESS_INTERVAL`](Self::DEFAULT_PROGRESS_INTERVAL),
    /// depth up to [`DEFAULT_MAX_DEPTH`](Self::DEFAULT_MAX_DEPTH) plies, the automatic
    /// allowances, the line tightening on, defender replies not recorded, mates of any length,
    /// one search thread.
    pub fn new() -> SolverConfig {
        SolverConfig {
            hash_kib: Self::DEFAULT_HASH_MIB * 1024,
            node_limit: None,
            time_limit: None,
            progress_interval: Self::DEFAULT_PROGRESS_INTERVAL,
            max_depth: Self::DEFAULT_MAX_DEPTH,
            shortest_node_limit: None,
            defences: false,
            max_mate_length: None,
            tighten_line: true,
            threads: 1,
            audit: None,
        }
    }

    /// Records the bounded answers of the searches in `log` (`Search::within`, the checker's
    /// side-table searches), for [`audit::verify`]
    /// (tests only).
    ///
    /// [`audit::verify`]: super::audit::verify
    #[cfg(test)]
    pub(crate) fn audit(mut self, log: AuditLog) -> SolverConfig {
        self.audit = Some(log);
        self
    }

    /// Where the searches' bounded answers are recorded, if anywhere ([`SolverConfig::audit`]).
    pub(crate) fn get_audit(&self) -> Option<&AuditLog> {
        self.audit.as_ref()
    }

    /// Transposition table size in MiB (at least one cluster). The table never grows past it;
    /// when full, entries with the least search work behind them are replaced first.
    ///
    /// Memory: the table takes this much (and 224 bytes to align its clusters to cache
    /// lines), allocated by [`Solver::new`](super::Solver::new) (or
    /// [`Solver::try_new`](super::Solver::try_new), which returns an
    /// [`AllocError`](super::AllocError) when it cannot be had) and touched as it fills. A
    /// search takes besides at most a sixteenth of it for the path-dependent repetition
    /// results (cleared when full), a thirty-second of it (at most 512 KiB) for a memo of the
    /// initial numbers of new nodes, and a little of its own that no setting bounds: the search
    /// stack and the line walk's vectors, which grow with the length of the line searched
    /// (about 10 MiB for a line of 1,500 plies). [`Solver::check`](super::Solver::check) allocates a second
    /// table of half this size when it first needs one (questions are then undecided if it
    /// cannot be had).
    pub fn hash_mib(mut self, mib: usize) -> SolverConfig {
        self.hash_kib = mib.saturating_mul(1024);
        self
    }

    /// Transposition table size in KiB: [`SolverConfig::hash_mib`] in finer steps, for tables
    /// smaller than a MiB (tests that want entries replaced all the time, small devices).
    ///
    /// ```
    /// use tsume::solver::SolverConfig;
    /// let config = SolverConfig::new().hash_kib(256);
    /// assert_eq!(config.get_hash_kib(), 256);
    /// assert_eq!(config.get_hash_mib(), 0, "less than a MiB");
    /// assert_eq!(SolverConfig::new().hash_mib(2).get_hash_kib(), 2048);
    /// ```
    pub fn hash_kib(mut self, kib: usize) -> SolverConfig {
        self.hash_kib = kib;
        self
    }

    /// Stop after about this many nodes (`None`: no limit).
    pub fn node_limit(mut self, nodes: Option<u64>) -> SolverConfig {
        self.node_limit = nodes;
        self
    }

    /// Stop after about this much time (`None`: no limit). A limit that runs out after the
    /// first proof still gives the mate found so far, within a tenth of a second.
    pub fn time_limit(mut self, time: Option<Duration>) -> SolverConfig {
        self.time_limit = time;
        self
    }

    /// How often the progress callback is called.
    pub fn progress_interval(mut self, every: Duration) -> SolverConfig {
        self.progress_interval = every;
        self
    }

    /// The deepest ply the search may reach; deeper lines count as failures for the attacker
    /// and a no-mate that rests on that is reported as unknown.
    pub fn max_depth(mut self, plies: u32) -> SolverConfig {
        self.max_depth = plies.max(1);
        self
    }

    /// Nodes allowed, after the first proof, for proving the mate length minimal and for
    /// walking the main line (each "is there a mate in N-2?" search and each decision of the
    /// walk draws on them). `None` (the default):
    /// [`DEFAULT_SHORTEST_NODES`](Self::DEFAULT_SHORTEST_NODES). Each search from the root
    /// starts with an eighth of them, and one that runs out (when the line cannot be
    /// tightened instead) goes on with twice the share, from what the table holds, until
    /// the allowance is spent: a length that cannot be proven costs the whole allowance.
    /// With the default allowance the line walk gets what is left of it, but no more than a
    /// quarter of the first proof's nodes (and no less than 1,000,000 of those left). When
    /// they run out the mate is still reported with its proven length,
    /// [`MateLine::shortest_proven`](super::MateLine::shortest_proven) false: a caller who
    /// wants the first verified mate at once passes `Some(1)` (or `Some(0)`): the answer is
    /// then the first proof's line, walked from the table alone in a few milliseconds with
    /// no node past the first proof. Its defender plays replies the table shows to last, not
    /// ones decided to be the longest; a 1-ply line is shown as the shortest mate and the
    /// main line (a node or so per check, to compare the mates in one); where a small table
    /// has lost part of the proof, or with [`defences`](Self::defences), the walk searches
    /// as with any other spent allowance. A time limit also ends the work with the mate
    /// found so far. The node and time limits apply on top. `Some(u64::MAX)` is an
    /// allowance that does not run out (the programs' `--shortest-nodes unlimited`): the length is then proven shortest whatever it costs.
    /// With [several threads](Self::threads) the allowance and its shares count the main
    /// thread's nodes, and the helpers' nodes in the same searches come on top (unlike the
    /// node limit, which counts every thread's): a share buys more search with more
    /// threads, and the total nodes of a problem whose allowance runs out grow with the
    /// thread count. (Counted over all threads, the same allowance would buy less search
    /// with more threads, and a length one thread proves could be left unproven.)
    pub fn shortest_node_limit(mut self, nodes: Option<u64>) -> SolverConfig {
        self.shortest_node_limit = nodes;
        self
    }

    /// When a search from the root for a shorter mate runs out of its share of nodes, tighten
    /// the line found so far instead: from its end back to the root, every other check at
    /// each attacker node gets a small bounded search for a mate at least two plies shorter
    /// (a shortcut; larger for a check that the line plays later, which is how a wasteful
    /// move order shows), and each position of the line is proven again within what its part of the
    /// line then needs. While a pass shortens the root's mate, the line is walked again at the
    /// new length (where a defence that has become the longest is now part of it) and
    /// tightened again (and once more after a search from the root shortens it further).
    /// On by default. It finds shortcuts that a search from the root cannot
    /// afford to (it would have to re-prove the whole line under a tighter bound first); on
    /// problems without such shortcuts it costs one pass of small searches along the line.
    /// The length is still only called proven minimal when a search from the root finds no
    /// mate two plies shorter.
    pub fn tighten_line(mut self, on: bool) -> SolverConfig {
        self.tighten_line = on;
        self
    }

    /// Record, for each defender ply of the main line, every reply with its mate length
    /// ([`MateLine::defences`](super::MateLine::defences)); off by default.
    pub fn defences(mut self, on: bool) -> SolverConfig {
        self.defences = on;
        self
    }

    /// Look only for mates of at most this many plies (futile interpositions not counted);
    /// [`Outcome::NoMate`](super::Outcome::NoMate) then means there is none that short. `None` (the default): any
    /// length. Used to check a claimed minimal length: no mate within `length - 2`.
    pub fn max_mate_length(mut self, plies: Option<u32>) -> SolverConfig {
        self.max_mate_length = plies;
        self
    }

    /// Search threads (at least 1; the default is 1). With more than one, [`Solver::solve`]
    /// runs helper threads beside its own that search the same problem over the one table
    /// (the [`hash_mib`](Self::hash_mib) budget covers them all; the design is in
    /// [the solver module's docs](super#parallel-search)).
    /// [`Solver::check`](super::Solver::check) solves with them, then shares the questions out
    /// among them (the report lists the same flaws; see the module docs). The answers are as
    /// sound as with one thread, but which of several equally good lines is found, how many
    /// nodes it takes and, where a limit runs out, how far the search got depend on how the
    /// threads' work interleaves: only one thread repeats itself node for node.
    /// [`Solver::default_threads`](super::Solver::default_threads) is the machine's count.
    ///
    /// [`Solver::solve`]: super::Solver::solve
    pub fn threads(mut self, threads: usize) -> SolverConfig {
        self.threads = threads.max(1);
        self
    }

    /// The number of search threads ([`SolverConfig::threads`]).
    pub fn get_threads(&self) -> usize {
        self.threads
    }

    /// The search limits these settings give.
    pub(crate) fn limits<'a>(
        &self,
        stop: &Arc<AtomicBool>,
        progress: Option<&'a mut (dyn FnMut(&Progress) + Send + 'static)>,
    ) -> Limits<'a> {
        Limits {
            nodes: self.node_limit,
            time: self.time_limit,
            stop: stop.clone(),
            max_depth: self.max_depth,
            progress_every: self.progress_interval,
            progress,
            audit: self.audit.clone(),
        }
    }

    /// The table size in MiB ([`SolverConfig::hash_mib`]).
    pub fn get_hash_mib(&self) -> usize {
        self.hash_kib / 1024
    }

    /// The table size in KiB ([`SolverConfig::hash_kib`]).
    pub fn get_hash_kib(&self) -> usize {
        self.hash_kib
    }

    /// The node limit ([`SolverConfig::node_limit`]).
    pub fn get_node_limit(&self) -> Option<u64> {
        self.node_limit
    }

    /// The time limit ([`SolverConfig::time_limit`]).
    pub fn get_time_limit(&self) -> Option<Duration> {
        self.time_limit
    }

    /// The progress interval ([`SolverConfig::progress_interval`]).
    pub fn get_progress_interval(&self) -> Duration {
        self.progress_interval
    }

    /// The deepest ply ([`SolverConfig::max_depth`]).
    pub fn get_max_depth(&self) -> u32 {
        self.max_depth
    }

    /// The shortest-mate allowance ([`SolverConfig::shortest_node_limit`]).
    pub fn get_shortest_node_limit(&self) -> Option<u64> {
        self.shortest_node_limit
    }

    /// Whether the line is tightened ([`SolverConfig::tighten_line`]).
    pub fn get_tighten_line(&self) -> bool {
        self.tighten_line
    }

    /// Whether the defender plies' replies are recorded ([`SolverConfig::defences`]).
    pub fn get_defences(&self) -> bool {
        self.defences
    }

    /// The longest mate looked for ([`SolverConfig::max_mate_length`]).
    pub fn get_max_mate_length(&self) -> Option<u32> {
        self.max_mate_length
    }
}
