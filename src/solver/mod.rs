//! The df-pn tsume solver.
//!
//! [`Solver`] proves mate or no-mate for the side to move (the attacker), which may be Black or
//! White. The attacker plays checks only; the defender any legal reply. A proven mate comes
//! with a mating line that has been verified move by move with the rules core
//! ([`verify_mate`]) before it is reported.
//!
//! ```
//! use tsume::{Outcome, Position, Solver, SolverConfig};
//! let mut solver = Solver::new(SolverConfig::new().hash_mib(16));
//! let pos = Position::from_sfen("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1")?;
//! let result = solver.solve(&pos);
//! match &result.outcome {
//!     Outcome::Mate(line) => assert_eq!(line.length(), 3),
//!     other => panic!("expected a mate, got {other:?}"),
//! }
//! # Ok::<(), tsume::SfenError>(())
//! ```

mod check;
mod futile;
mod hands;
mod pn;
mod pv;
mod search;
mod tt;

pub use check::{Flaw, FlawKind, Report, Undecided, Verdict};
pub use futile::is_mate_with_futile_interpositions;
pub use pv::{Alternative, DefenderChoice, LineError, verify_mate};

use crate::hand::Hand;
use crate::moves::Move;
use crate::position::Position;
use pv::WalkedLine;
use search::{Limits, Search};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
pub use tt::AllocError;
use tt::{NO_LIMIT, Table};

/// Settings for a [`Solver`], built with chained setters.
///
/// ```
/// use std::time::Duration;
/// use tsume::SolverConfig;
/// let config = SolverConfig::new()
///     .hash_mib(256)
///     .node_limit(Some(10_000_000))
///     .time_limit(Some(Duration::from_secs(30)));
/// assert_eq!(config.get_hash_mib(), 256);
/// ```
#[derive(Clone, Debug)]
pub struct SolverConfig {
    hash_mib: usize,
    node_limit: Option<u64>,
    time_limit: Option<Duration>,
    progress_interval: Duration,
    max_depth: u32,
    shortest_nodes: Option<u64>,
    alternatives: bool,
    max_length: Option<u16>,
    shortcuts: bool,
    question_nodes: Option<u64>,
}

impl Default for SolverConfig {
    fn default() -> SolverConfig {
        SolverConfig::new()
    }
}

impl SolverConfig {
    /// Defaults: a 256 MiB table, no node or time limit, progress every second, search depth up
    /// to 16,000 plies.
    pub fn new() -> SolverConfig {
        SolverConfig {
            hash_mib: 256,
            node_limit: None,
            time_limit: None,
            progress_interval: Duration::from_secs(1),
            max_depth: 16_000,
            shortest_nodes: None,
            alternatives: false,
            max_length: None,
            shortcuts: true,
            question_nodes: None,
        }
    }

    /// Transposition table size in MiB (at least one cluster). The table never grows past it;
    /// when full, entries with the least search work behind them are replaced first.
    ///
    /// Memory: the table takes this much, allocated by [`Solver::new`] (or
    /// [`Solver::try_new`], which returns an [`AllocError`] when it cannot be had) and touched
    /// as it fills. A search takes besides at most a sixteenth of it for the path-dependent
    /// repetition results (cleared when full), and a little of its own that no setting bounds:
    /// the search stack (as deep as the line searched) and the line walk's vectors, about
    /// 10 MiB on Microcosmos (1525 plies). [`Solver::check`] allocates a second table of half
    /// this size when it first needs one (questions are then undecided if it cannot be had).
    pub fn hash_mib(mut self, mib: usize) -> SolverConfig {
        self.hash_mib = mib;
        self
    }

    /// Stop after about this many nodes (`None`: no limit).
    pub fn node_limit(mut self, nodes: Option<u64>) -> SolverConfig {
        self.node_limit = nodes;
        self
    }

    /// Stop after about this much time (`None`: no limit).
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
    /// walk draws on them). `None` (the default): as many as the first proof took, and at
    /// least 200,000. When they run out the line is still reported, with
    /// [`MateLine::shortest_proven`] false. The node and time limits apply on top.
    pub fn shortest_node_limit(mut self, nodes: Option<u64>) -> SolverConfig {
        self.shortest_nodes = nodes;
        self
    }

    /// When a search from the root for a shorter mate runs out of its share of nodes, tighten
    /// the line found so far instead: from its end back to the root, every other check at
    /// each attacker node gets a small bounded search for a mate at least two plies shorter
    /// (a shortcut), and each position of the line is proven again within what its part of the
    /// line then needs. While a pass shortens the root's mate, the line is walked again at the
    /// new length (where a defence that has become the longest is now part of it) and
    /// tightened again. On by default. It is what brings Microcosmos from 1553 plies (the
    /// first proof's 1555, shortened once from the root) to 1525: the proof wastes four plies
    /// in seven of its cycles, and a search from the root must re-prove some 1500 plies under
    /// a tighter bound before it can use any of them. On problems without such shortcuts it
    /// costs one pass of small searches along the line. The length is still only called
    /// proven minimal when a search from the root finds no mate two plies shorter. When a
    /// node or time limit runs out while the mate is being shortened and the line cannot be
    /// walked again, the line walked last before is reported (a verified mate, not
    /// [`MateLine::exact`], possibly longer than the length proven by then).
    pub fn shortcuts(mut self, on: bool) -> SolverConfig {
        self.shortcuts = on;
        self
    }

    /// Record, for each defender ply of the main line, every reply with its mate length
    /// ([`MateLine::defences`]); off by default.
    pub fn alternatives(mut self, on: bool) -> SolverConfig {
        self.alternatives = on;
        self
    }

    /// Look only for mates of at most this many plies (futile interpositions not counted);
    /// [`Outcome::NoMate`] then means there is none that short. `None` (the default): any
    /// length. Used to check a claimed minimal length: no mate within `length - 2`.
    pub fn max_mate_length(mut self, plies: Option<u32>) -> SolverConfig {
        self.max_length = plies.map(|p| p.min(NO_LIMIT as u32 - 1) as u16);
        self
    }

    /// Nodes each question of the uniqueness checker ([`Solver::check`]) may search: one
    /// alternative move, "does this check also mate?", "is this defence as long?". A question
    /// that runs out is reported as undecided. `None` (the default): as many as the solution
    /// took, and at least 1,000,000.
    pub fn question_node_limit(mut self, nodes: Option<u64>) -> SolverConfig {
        self.question_nodes = nodes;
        self
    }

    /// The search limits these settings give.
    fn limits<'a>(
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
        }
    }

    /// The table size in MiB.
    pub fn get_hash_mib(&self) -> usize {
        self.hash_mib
    }
}

/// A handle that stops a running search from another thread.
///
/// ```
/// use tsume::{Solver, SolverConfig};
/// let solver = Solver::new(SolverConfig::new().hash_mib(1));
/// let stop = solver.stop_handle();
/// std::thread::spawn(move || stop.stop());
/// ```
#[derive(Clone, Debug)]
pub struct StopHandle(Arc<AtomicBool>);

impl StopHandle {
    /// Asks the search to stop; it returns [`Outcome::Unknown`] with [`StopReason::Stopped`].
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A progress report, passed to the callback set with [`Solver::set_progress`].
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Nodes per second.
    pub nodes_per_second: u64,
    /// Fraction of the table in use (0-1, estimated).
    pub table_fill: f64,
    /// The root's proof number at its last update.
    pub root_pn: u32,
    /// The root's disproof number at its last update.
    pub root_dn: u32,
}

/// Why a search ended without a verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StopReason {
    /// The node limit was reached.
    NodeLimit,
    /// The time limit was reached.
    TimeLimit,
    /// [`StopHandle::stop`] was called.
    Stopped,
    /// A no-mate proof rested on lines cut at the maximum depth.
    DepthLimit,
    /// A question of the uniqueness checker used up its own share of nodes
    /// ([`SolverConfig::question_node_limit`]); the check as a whole went on.
    QuestionLimit,
    /// The mate was proven but no verified line could be built (a bug if it ever happens:
    /// the verdict is withheld rather than reported unchecked).
    UnverifiedLine(String),
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::NodeLimit => write!(f, "node limit reached"),
            StopReason::TimeLimit => write!(f, "time limit reached"),
            StopReason::Stopped => write!(f, "stopped"),
            StopReason::DepthLimit => write!(f, "maximum depth reached"),
            StopReason::QuestionLimit => write!(f, "question node limit reached"),
            StopReason::UnverifiedLine(why) => {
                write!(f, "mating line could not be verified: {why}")
            }
        }
    }
}

/// A proven mate: the mate length a proof shows, and a verified mating line.
///
/// **The length is a proven bound.** [`MateLine::length`] is always a length that a proof in
/// the search shows: against every defence the attacker has a mate in at most that many plies
/// (手数), futile interpositions (無駄合) not counted. [`MateLine::shortest_proven`] says
/// whether it is also minimal (a search proved there is no mate two plies sooner). The line
/// shown ([`MateLine::moves`]) is a separate thing: a verified mate, attacker and defender
/// moves alternating, attacker first, ending in checkmate (or in a position where every reply
/// is a futile interposition). Only when [`MateLine::is_main_line`] is true does its defender
/// play a longest defence within that bound, so that the line is as long as the length (or
/// longer, when it shows a futile interposition and its capture, which the length does not
/// count). When it is false (the limits ran out before the line could be walked or confirmed
/// at the bound), the line's own length says nothing about the mate length: usually it is
/// shorter than the bound, its defender playing some reply that the search could not show to
/// be the longest; rarely (a node or time limit ran out just after the bound came down) it is
/// a line walked at an earlier, longer bound, whose attacker does not play the shortest mate.
/// Report such a result as "mate in at most N" with the line apart, never as a mate in the
/// line's length.
///
/// The main line the solver aims for is the tsume main line: the attacker plays a shortest
/// mate, the defender the longest defence, and among equally long defences the one that leaves
/// the attacker the fewest pieces in hand (駒余り). The fields are private so that a length
/// and a line cannot be mixed up; only the solver makes a `MateLine`.
///
/// ```
/// use tsume::{Outcome, Position, Solver, SolverConfig};
/// let mut solver = Solver::new(SolverConfig::new().hash_mib(16));
/// let pos = Position::from_sfen("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1")?;
/// let Outcome::Mate(line) = solver.solve(&pos).outcome else { panic!("a mate") };
/// assert_eq!(line.length(), 3);           // mate in 3, proven by the search
/// assert!(line.shortest_proven());        // and no mate in 1
/// assert!(line.is_main_line());           // the line shown realises it
/// assert_eq!(line.line_len(), 3);
/// # Ok::<(), tsume::SfenError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateLine {
    moves: Vec<Move>,
    length: u32,
    hand_left: Hand,
    shortest_proven: bool,
    main: bool,
    exact: bool,
    defences: Vec<DefenderChoice>,
}

impl MateLine {
    /// The mate length (手数) a proof shows: against every defence there is a mate in at most
    /// this many plies, futile interpositions not counted. Minimal when
    /// [`MateLine::shortest_proven`]. This, not the length of the line shown, is the answer
    /// to "mate in how many?".
    pub fn length(&self) -> u32 {
        self.length
    }

    /// The moves of the line shown, attacker first; a verified mate.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plies of the line shown. Equal to [`MateLine::length`] when [`MateLine::is_main_line`]
    /// (two plies more for each futile interposition the line has to show); shorter when it
    /// is not, and then not a mate length.
    pub fn line_len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the line's defender plays a longest defence within [`MateLine::length`]: the
    /// line is then as long as the proven length (at least). False when the limits ran out
    /// before the line could be walked or confirmed at that length: the line is then a mate
    /// against one defence only, usually shorter than the length (or, rarely, longer: walked
    /// at an earlier bound, before a limit ran out).
    pub fn is_main_line(&self) -> bool {
        self.main
    }

    /// Whether [`MateLine::length`] is proven to be the shortest mate: a search showed there
    /// is no mate two plies sooner. False when the limits ran out first (see
    /// [`SolverConfig::shortest_node_limit`]); the length is then an upper bound, and a
    /// shorter mate may exist.
    pub fn shortest_proven(&self) -> bool {
        self.shortest_proven
    }

    /// Whether, besides, the line is the main line and every choice along it was decided
    /// exactly: each defender reply shown is a longest one (proven, not assumed), and each
    /// attacker move is the first shortest mate in move-generation order (near the end, the
    /// first of those that leave the fewest pieces in hand). An exact line is the same
    /// whatever the table size or limits, as long as they let the solver get this far.
    pub fn exact(&self) -> bool {
        self.exact
    }

    /// The attacker's hand at the end of the line shown: pieces left over (駒余り) when not
    /// empty.
    pub fn hand_left(&self) -> Hand {
        self.hand_left
    }

    /// For each defender ply of the line, the replies considered with their mate lengths
    /// (only with [`SolverConfig::alternatives`]; empty in the rare case where a limit ran out
    /// while the mate was being shortened and a line walked before is reported, see
    /// [`SolverConfig::shortcuts`]).
    pub fn defences(&self) -> &[DefenderChoice] {
        &self.defences
    }

    /// The line and the proven bound it came with. `budget`: the length the line was walked
    /// at; the line is the main line when that is the bound and the line is at least as long.
    fn new(w: WalkedLine, bound: u16, minimal: bool) -> MateLine {
        let line_len = w.moves.len();
        let main = w.budget == bound && line_len >= bound as usize;
        MateLine {
            length: bound as u32,
            shortest_proven: minimal,
            main,
            exact: minimal && main && w.exact && line_len == bound as usize,
            moves: w.moves,
            hand_left: w.hand_left,
            defences: w.choices,
        }
    }
}

/// The verdict of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Mate proven, with a verified mating line.
    Mate(MateLine),
    /// No mate: proven that the attacker cannot force mate by checks.
    NoMate,
    /// No verdict within the limits.
    Unknown(StopReason),
}

/// Counters of one search.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Nodes searched (including those re-searched while building the line).
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Fraction of the table in use at the end (0-1, estimated).
    pub table_fill: f64,
    /// Table size in bytes.
    pub table_bytes: usize,
}

impl Stats {
    /// The counters of a search so far.
    fn of(search: &Search<'_>) -> Stats {
        Stats {
            nodes: search.nodes,
            elapsed: search.elapsed(),
            table_fill: search.table.fill(),
            table_bytes: search.table.size_bytes(),
        }
    }

    /// Nodes per second.
    pub fn nodes_per_second(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// The result of [`Solver::solve`].
#[derive(Clone, Debug)]
pub struct Solution {
    /// The verdict.
    pub outcome: Outcome,
    /// Counters.
    pub stats: Stats,
}

/// A reusable df-pn solver with its own transposition table. `Send`: run one per thread.
pub struct Solver {
    config: SolverConfig,
    table: Table,
    /// The uniqueness checker's table for searches that avoid the main line.
    side: Option<Table>,
    stop: Arc<AtomicBool>,
    progress: Option<ProgressFn>,
}

/// The boxed progress callback.
type ProgressFn = Box<dyn FnMut(&Progress) + Send>;

impl fmt::Debug for Solver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solver")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// Mates up to this many plies look for their shortest length from the bottom up.
const BOTTOM_UP_LIMIT: u16 = 41;

/// Nodes for each bounded search of the line tightening (a check beside the line, or a line
/// position proven again within its new bound): the shortcuts that matter are found within a
/// few nodes (Microcosmos' within 5) and most checks fail, so this is kept small.
const REFINE_NODES: u64 = 300;

/// The allowance for the shortest-mate work when none is configured: as many nodes as the
/// first proof took, and at least this many (short problems prove their length within it).
const MIN_SHORTEST_NODES: u64 = 200_000;

/// The allowance is shared out in eighths: each search from the root for a shorter mate may
/// take one (so that the last one, which must show there is none and is the hard one on long
/// problems, cannot take it all), and so may the confirmation of a line shorter than its
/// bound after the allowance is spent.
const SHARES: u64 = 8;

/// The least share of one search for a shorter mate, so that short problems with a tiny first
/// proof still get enough nodes to show there is no mate two plies sooner.
const MIN_SHARE: u64 = 50_000;

/// Nodes for each bounded search that confirms a line shorter than its bound (proving one
/// position of it within its part of the line): more than the tightening's, since each
/// question here is one the walk could not answer within its own cap.
const CONFIRM_NODES: u64 = 5_000;

/// Stack for the search thread: the recursion is as deep as the longest line searched.
const SEARCH_STACK: usize = 512 << 20;

impl Solver {
    /// A solver with the given settings. The table's memory is reserved now and touched only
    /// as it fills.
    ///
    /// # Panics
    ///
    /// When the table cannot be allocated ([`SolverConfig::hash_mib`] larger than the system
    /// gives); [`Solver::try_new`] returns the error instead.
    pub fn new(config: SolverConfig) -> Solver {
        Solver::try_new(config).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A solver with the given settings, or an [`AllocError`] when the table cannot be
    /// allocated (the request is larger than the system gives), instead of an abort.
    ///
    /// ```
    /// use tsume::{Solver, SolverConfig};
    /// assert!(Solver::try_new(SolverConfig::new().hash_mib(4)).is_ok());
    /// // Far more than any machine has: an error, not an abort.
    /// let err = Solver::try_new(SolverConfig::new().hash_mib(1 << 40)).unwrap_err();
    /// assert!(err.to_string().starts_with("cannot allocate"));
    /// ```
    pub fn try_new(config: SolverConfig) -> Result<Solver, AllocError> {
        Ok(Solver {
            table: Table::try_new(config.hash_mib)?,
            side: None,
            config,
            stop: Arc::new(AtomicBool::new(false)),
            progress: None,
        })
    }

    /// Replaces the settings for the next searches. The table is kept when
    /// [`SolverConfig::hash_mib`] is unchanged; otherwise the old one is freed first and a new
    /// one allocated, and when that fails the solver keeps a one-cluster table and its old
    /// settings, and the error is returned. The uniqueness checker's side table is freed.
    pub fn set_config(&mut self, config: SolverConfig) -> Result<(), AllocError> {
        self.side = None;
        if config.hash_mib != self.config.hash_mib {
            // Free the old table first: the two need not fit side by side.
            self.table = Table::try_new(0)?;
            self.table = Table::try_new(config.hash_mib)?;
        }
        self.config = config;
        Ok(())
    }

    /// The settings.
    pub fn config(&self) -> &SolverConfig {
        &self.config
    }

    /// A handle to stop the current or next search from another thread.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(self.stop.clone())
    }

    /// Sets a callback called about every [`SolverConfig::progress_interval`] during a search.
    pub fn set_progress(&mut self, callback: impl FnMut(&Progress) + Send + 'static) {
        self.progress = Some(Box::new(callback));
    }

    /// Removes the progress callback.
    pub fn clear_progress(&mut self) {
        self.progress = None;
    }

    /// Proves mate or no-mate for the side to move in `pos`.
    pub fn solve(&mut self, pos: &Position) -> Solution {
        let pos = pos.clone();
        self.on_search_thread(move |solver| solver.solve_here(&pos))
    }

    /// Runs `work` on a thread with a stack as deep as the search's recursion needs, after a
    /// fresh start: the stop flag cleared and a new table generation.
    fn on_search_thread<R: Send>(&mut self, work: impl FnOnce(&mut Solver) -> R + Send) -> R {
        self.stop.store(false, Ordering::Relaxed);
        self.table.new_search();
        std::thread::scope(|s| {
            std::thread::Builder::new()
                .name("tsume-search".into())
                .stack_size(SEARCH_STACK)
                .spawn_scoped(s, || work(self))
                .expect("spawn the search thread")
                .join()
                .expect("the search thread does not panic")
        })
    }

    fn solve_here(&mut self, pos: &Position) -> Solution {
        let config = &self.config;
        let limits = config.limits(&self.stop, self.progress.as_deref_mut());
        let mut search = Search::new(&mut self.table, pos.side_to_move(), limits);
        let outcome = Self::outcome(
            &mut search,
            pos,
            config.max_length.unwrap_or(NO_LIMIT),
            config.shortest_nodes,
            config.alternatives,
            config.shortcuts,
        );
        Solution {
            outcome,
            stats: Stats::of(&search),
        }
    }

    /// The verdict on `pos`: a first proof of a mate within `max_length` plies, then the main
    /// line ([`Solver::main_line`]); no mate, or unknown when the limits or the depth ran out.
    fn outcome(
        search: &mut Search<'_>,
        pos: &Position,
        max_length: u16,
        shortest_nodes: Option<u64>,
        alternatives: bool,
        shortcuts: bool,
    ) -> Outcome {
        let v = search.solve_node(pos, true, 0, max_length);
        if let Some(reason) = search.aborted.clone() {
            Outcome::Unknown(reason)
        } else if v.pn == 0 {
            Self::main_line(search, pos, v.len, shortest_nodes, alternatives, shortcuts)
        } else if search.depth_limited {
            Outcome::Unknown(StopReason::DepthLimit)
        } else {
            Outcome::NoMate
        }
    }
}

impl Solver {
    /// After a first proof with a mate in `len`: proves the length minimal by searching for
    /// a mate in `len - 2` until there is none (each success shortens it), then walks the main
    /// line at the shortest length proven, verifies it, and pairs it with that length.
    ///
    /// The length reported is always a bound some proof shows (the first proof's, or a
    /// shorter one found since); a line is never taken for the length. A walked line shorter
    /// than the bound (its defender did not play a longest defence: a reply was left
    /// undecided) is proven again from its end ([`Search::tighten_line`]) within its own
    /// length, with a share of nodes of its own; where that succeeds the bound comes down to
    /// the proof and the line is walked again at it, else the line is reported as not the main
    /// line ([`MateLine::is_main_line`]).
    fn main_line(
        search: &mut Search<'_>,
        pos: &Position,
        len: u16,
        shortest_nodes: Option<u64>,
        alternatives: bool,
        shortcuts: bool,
    ) -> Outcome {
        let allowance = shortest_nodes.unwrap_or(search.nodes.max(MIN_SHORTEST_NODES));
        let stop_at = search.nodes.saturating_add(allowance);
        // Each search for a shorter mate gets a share of the allowance: the last one, which
        // must show there is none, is the hard one for long problems, and a share keeps its
        // cost in proportion.
        let share = (allowance / SHARES).max(MIN_SHARE);
        // A line of the first proof, walked from the table while nothing has run out yet (a
        // few nodes): the answer if a limit runs out before the line can be walked at the end.
        let first = search.quick_line(pos, &[], len);
        let short = shorten(search, pos, &[], true, len, stop_at, share, shortcuts);
        let (mut bound, minimal) = (short.len, short.minimal);
        // The walk's decisions search at length with what is left of the allowance; a global
        // limit that ran out leaves it to the table. Should that fail (a limit ran out while
        // the mate was being shortened), a quick walk from the table at the bound is tried,
        // and then the line last walked before, still a mate, found with the table as it was
        // then: the tightening's last, else the first proof's (walked at a longer bound, so
        // not the main line).
        let left = stop_at.saturating_sub(search.nodes);
        let mut walked = search
            .extract_line(pos, &[], bound, minimal, alternatives, left)
            .or_else(|| {
                search
                    .quick_line(pos, &[], bound)
                    .or(short.line)
                    .or(first)
                    .map(|mut w| {
                        w.exact = false;
                        w
                    })
            });
        // A line shorter than the bound: its defender plays a reply the walk could not show
        // to be the longest. Prove the line's own length where it can be afforded: an eighth
        // of the allowance of its own, since the shortening may have spent all of it.
        let confirm_at = stop_at.max(search.nodes.saturating_add(allowance / SHARES));
        while let Some(w) = &walked {
            if w.budget != bound
                || w.moves.len() >= bound as usize
                || search.nodes >= confirm_at
                || search.aborted.is_some()
            {
                break;
            }
            match search.tighten_line(pos, &[], &w.moves, CONFIRM_NODES, confirm_at) {
                Some(l) if l < bound => {
                    debug_assert!(!minimal, "a proof shorter than a minimal length");
                    bound = l;
                    let left = confirm_at.saturating_sub(search.nodes);
                    match search.extract_line(pos, &[], bound, minimal, alternatives, left) {
                        Some(again) => walked = Some(again),
                        None => break,
                    }
                }
                _ => break,
            }
        }
        match walked {
            Some(w) => match verify_mate(pos, &w.moves) {
                Ok(()) => Outcome::Mate(MateLine::new(w, bound, minimal)),
                Err(e) => Outcome::Unknown(StopReason::UnverifiedLine(e.to_string())),
            },
            None => match search.aborted.clone() {
                Some(reason) => Outcome::Unknown(reason),
                None => Outcome::Unknown(StopReason::UnverifiedLine(
                    "no line could be walked out of the proof".into(),
                )),
            },
        }
    }
}

/// What [`shorten`] found.
pub(crate) struct Shortened {
    /// The shortest mate length found.
    pub len: u16,
    /// Whether it is proven minimal (no mate two plies sooner).
    pub minimal: bool,
    /// The line last walked for the line tightening, if it ran: a mate, for when the line
    /// cannot be walked again afterwards. Its length can exceed `len` (walked before the
    /// last shortening, or showing a futile interposition past its bound).
    pub line: Option<WalkedLine>,
}

/// Shortens a mate in `len` proven from `pos` (an OR node when `or`, on the path `path`) to the
/// shortest one it can find. Each search may take `share` nodes and all of them stop at node
/// count `stop_at`. `refine`: tighten the line ([`Search::tighten_line`]) when a search from
/// `pos` runs out (OR nodes only).
#[allow(clippy::too_many_arguments)]
pub(crate) fn shorten(
    search: &mut Search<'_>,
    pos: &Position,
    path: &[u64],
    or: bool,
    mut len: u16,
    stop_at: u64,
    share: u64,
    mut refine: bool,
) -> Shortened {
    refine &= or;
    let depth = path.len() as u32;
    let shortest = if or { 1 } else { 0 };
    let until = |search: &Search<'_>| stop_at.min(search.nodes.saturating_add(share));
    let mut minimal = false;
    let mut line = None;
    // Short mates: budgets from the bottom up (1, 3, 5, ... at an OR node), each proven empty
    // before the next; the first with a mate is the shortest. Small budgets are cheap to
    // refute, whereas a search within `len - 2` of a short mate can wander into long lines.
    if len <= BOTTOM_UP_LIMIT {
        let mut b = shortest;
        while b < len {
            let cap = until(search);
            search.set_path(path);
            let Some(v) = search.solve_until(pos, or, depth, b, cap) else {
                break;
            };
            if search.aborted.is_some() || search.depth_limited {
                break;
            }
            if v.pn == 0 {
                len = v.len.min(b);
                break;
            }
            b += 2;
        }
        // Either a mate at `b` or every budget below `len` refuted.
        minimal = b >= len;
    }
    while !minimal {
        if len < shortest + 2 {
            minimal = true;
            break;
        }
        let cap = until(search);
        search.set_path(path);
        let Some(v) = search.solve_until(pos, or, depth, len - 2, cap) else {
            if !refine || search.nodes >= stop_at || search.aborted.is_some() {
                break;
            }
            // Too hard from the root: tighten the line from its end, and again while that
            // shortens it (once per call). A shorter line is then searched from the root again;
            // without one, that search would only repeat itself.
            refine = false;
            let before = len;
            while search.nodes < stop_at && search.aborted.is_none() {
                let Some(w) = search.quick_line(pos, path, len) else {
                    break;
                };
                let tightened = search.tighten_line(pos, path, &w.moves, REFINE_NODES, stop_at);
                line = Some(w);
                match tightened {
                    Some(l) if l < len => len = l,
                    _ => break,
                }
            }
            if len == before {
                break;
            }
            continue;
        };
        if search.aborted.is_some() {
            break;
        }
        if v.pn == 0 {
            len = v.len.min(len - 2);
        } else if v.dn == 0 {
            minimal = !search.depth_limited;
            break;
        }
    }
    Shortened { len, minimal, line }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send<T: Send>() {}

    #[test]
    fn solver_is_send() {
        assert_send::<Solver>();
    }
}
