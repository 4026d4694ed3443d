//! What a search returns: [`Solution`] with its [`Outcome`] (a [`MateLine`], no mate, or why
//! it stopped) and [`Stats`]; progress reports and the stop handle.

use super::verify::LineError;
use crate::hand::Hand;
use crate::moves::Move;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A handle that stops a running search from another thread.
///
/// ```
/// use tsume::solver::{Solver, SolverConfig};
/// let solver = Solver::new(SolverConfig::new().hash_mib(1));
/// let stop = solver.stop_handle();
/// std::thread::spawn(move || stop.stop());
/// ```
#[derive(Clone, Debug)]
pub struct StopHandle(pub(crate) Arc<AtomicBool>);

impl StopHandle {
    /// Asks the search to stop; it returns [`Outcome::Unknown`] with [`StopReason::Stopped`].
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// A progress report, passed to the callback set with [`Solver::set_progress`](crate::solver::Solver::set_progress).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
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
    /// Once the root's first mate is proven: its length (a bound; the solver then looks for
    /// shorter mates and walks the line). The report that first carries it is made as soon
    /// as the first proof is complete, so that a caller can show "mate found" at once.
    pub first_mate: Option<u32>,
    /// The shortest mate proven so far: the first mate's length, then each shorter one found
    /// while the solver proves the length minimal (the proof that the last one is minimal can
    /// take far longer than finding it). A report is made as soon as it comes down.
    pub shortest_mate: Option<u32>,
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
    /// ([`CheckConfig::question_node_limit`](crate::check::CheckConfig::question_node_limit)); the check as a whole went on.
    QuestionLimit,
    /// The uniqueness checker stopped at its first fatal flaw, as
    /// [`CheckConfig::first_flaw`](crate::check::CheckConfig::first_flaw) asks.
    FirstFlaw,
    /// The mate was proven but no verified line could be built. This would be a bug in the
    /// solver; the verdict is withheld rather than reported unchecked.
    UnverifiedLine(UnverifiedLine),
}

/// Why a proven mate came without a verified line ([`StopReason::UnverifiedLine`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UnverifiedLine {
    /// The line walked out of the proof failed [`verify_mate`](crate::solver::verify_mate).
    Rejected(LineError),
    /// No line could be walked out of the proof, and no limit had run out.
    NoLine,
}

impl fmt::Display for UnverifiedLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnverifiedLine::Rejected(e) => write!(f, "{e}"),
            UnverifiedLine::NoLine => write!(f, "no line could be walked out of the proof"),
        }
    }
}

impl std::error::Error for UnverifiedLine {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            UnverifiedLine::Rejected(e) => Some(e),
            UnverifiedLine::NoLine => None,
        }
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::NodeLimit => write!(f, "node limit reached"),
            StopReason::TimeLimit => write!(f, "time limit reached"),
            StopReason::Stopped => write!(f, "stopped"),
            StopReason::DepthLimit => write!(f, "maximum depth reached"),
            StopReason::QuestionLimit => write!(f, "question node limit reached"),
            StopReason::FirstFlaw => write!(f, "stopped at the first fatal flaw"),
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
/// use tsume::Position;
/// use tsume::solver::{Outcome, Solver, SolverConfig};
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
    /// The limit that ran out before the line could be made the main line, if one did.
    cut_by: Option<LineCut>,
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
    pub fn line_len(&self) -> u32 {
        self.moves.len() as u32
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
    /// [`SolverConfig::shortest_node_limit`](crate::solver::SolverConfig::shortest_node_limit)); the length is then an upper bound, and a
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
    /// (only with [`SolverConfig::defences`](crate::solver::SolverConfig::defences); empty in the rare case where a limit ran out
    /// while the mate was being shortened and a line walked before is reported, see
    /// [`SolverConfig::tighten_line`](crate::solver::SolverConfig::tighten_line)).
    pub fn defences(&self) -> &[DefenderChoice] {
        &self.defences
    }

    /// The mate's status: the length, whether it is proven shortest, and how the line shown
    /// relates to it. Its [`Display`](fmt::Display) is the one sentence the programs print
    /// (see [`MateStatus`]).
    ///
    /// ```
    /// use tsume::Position;
    /// use tsume::solver::{Outcome, Solver, SolverConfig};
    /// let pos = Position::from_sfen("8k/9/8P/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1")?;
    /// let Outcome::Mate(line) = Solver::new(SolverConfig::new().hash_mib(1)).solve(&pos).outcome
    /// else {
    ///     panic!("a mate in one")
    /// };
    /// assert_eq!(line.status().to_string(), "mate in 1");
    /// assert!(line.status().shortest_proven && line.status().cut_by.is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn status(&self) -> MateStatus {
        MateStatus {
            length: self.length,
            shortest_proven: self.shortest_proven,
            main_line: self.main,
            line_len: self.moves.len() as u32,
            cut_by: if self.main {
                None
            } else {
                Some(self.cut_by.unwrap_or(LineCut::WalkFellShort))
            },
        }
    }

    /// The line and the proven bound it came with. `budget`: the length the line was walked
    /// at; the line is the main line when that is the bound and the line is at least as long.
    /// `cut_by`: the limit that ran out before the walk was done, if one did.
    pub(crate) fn new(
        w: WalkedLine,
        bound: u16,
        minimal: bool,
        cut_by: Option<LineCut>,
    ) -> MateLine {
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
            cut_by,
        }
    }
}

/// A mate's status in one value: the proven length, whether it is proven shortest, and how
/// the line shown relates to it ([`MateLine::status`]).
///
/// Its [`Display`](fmt::Display) is the sentence the programs print, the USI engine sends as
/// `info string` and the JSON carries as `status`:
///
/// - `mate in 11`: proven shortest, and the line shown is the main line;
/// - `mate in 11 (not proven shortest)`: a limit ran out before a shorter mate was ruled out;
///   the line shown is the main line at that length;
/// - `mate in at most 21; line shown: 17 plies, defence not the longest (time limit)`: a limit
///   ran out before the line could be made as long as the length; the line is a mate against
///   one defence only, and the sentence names the limit ([`LineCut`]). "At most" only when the
///   length is not proven shortest either;
/// - `mate in 9; line shown: 11 plies, with futile interpositions and their captures, which
///   are not counted`: the main line shows futile interpositions it does not count.
///
/// ```
/// use tsume::solver::{LineCut, MateStatus};
/// let cut = MateStatus {
///     length: 21,
///     shortest_proven: false,
///     main_line: false,
///     line_len: 17,
///     cut_by: Some(LineCut::TimeLimit),
/// };
/// assert_eq!(
///     cut.to_string(),
///     "mate in at most 21; line shown: 17 plies, defence not the longest (time limit)"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MateStatus {
    /// The mate length a proof shows ([`MateLine::length`]).
    pub length: u32,
    /// Whether no shorter mate exists ([`MateLine::shortest_proven`]).
    pub shortest_proven: bool,
    /// Whether the line shown is the main line ([`MateLine::is_main_line`]).
    pub main_line: bool,
    /// Plies of the line shown ([`MateLine::line_len`]).
    pub line_len: u32,
    /// Why the line shown is not the main line: `Some` exactly when `main_line` is false.
    pub cut_by: Option<LineCut>,
}

impl fmt::Display for MateStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.length;
        match (self.shortest_proven, self.main_line) {
            (true, _) => write!(f, "mate in {n}")?,
            (false, true) => write!(f, "mate in {n} (not proven shortest)")?,
            (false, false) => write!(f, "mate in at most {n}")?,
        }
        let shown = self.line_len;
        if !self.main_line {
            let why = if shown < n {
                "defence not the longest"
            } else {
                "attacker's moves not the shortest"
            };
            let cause = self.cut_by.unwrap_or(LineCut::WalkFellShort);
            write!(f, "; line shown: {shown} plies, {why} ({cause})")
        } else if shown > n {
            write!(
                f,
                "; line shown: {shown} plies, with futile interpositions and their captures, \
                 which are not counted"
            )
        } else {
            Ok(())
        }
    }
}

/// What kept the line shown from being the main line ([`MateStatus::cut_by`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LineCut {
    /// The time limit ([`SolverConfig::time_limit`](crate::solver::SolverConfig::time_limit)) ran out.
    TimeLimit,
    /// The node limit ([`SolverConfig::node_limit`](crate::solver::SolverConfig::node_limit)) ran out.
    NodeLimit,
    /// [`StopHandle::stop`] was called.
    Stopped,
    /// The allowance after the first proof
    /// ([`SolverConfig::shortest_node_limit`](crate::solver::SolverConfig::shortest_node_limit)) ran out.
    ShortestAllowance,
    /// Another limit ran out.
    OtherLimit,
    /// No limit ran out, and the line walk still could not make the line as long as the
    /// length. Rare; the line is a verified mate all the same.
    WalkFellShort,
}

impl fmt::Display for LineCut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LineCut::TimeLimit => "time limit",
            LineCut::NodeLimit => "node limit",
            LineCut::Stopped => "stopped",
            LineCut::ShortestAllowance => "shortest-mate allowance",
            LineCut::OtherLimit => "a limit ran out",
            LineCut::WalkFellShort => "no limit ran out: the line walk could not make it longer",
        })
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
#[non_exhaustive]
pub struct Stats {
    /// Nodes searched (including those re-searched while building the line), by all
    /// threads.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Fraction of the table in use at the end (0-1, estimated).
    pub table_fill: f64,
    /// Table size in bytes.
    pub table_bytes: usize,
    /// Nodes searched by all threads when the first proof of the root was complete (of a
    /// mate, before its length was shortened and the line walked; or of no mate, the answer
    /// itself); `None` when the search found neither. What to compare with a solver that
    /// stops at its first proof: with
    /// [`shortest_node_limit(Some(1))`](super::SolverConfig::shortest_node_limit) the answer,
    /// the first proof's line, costs no node more (a node or so per check where that line is
    /// a mate in one, compared with the other mates in one).
    pub first_proof_nodes: Option<u64>,
    /// Wall time when the first proof was complete (see [`Stats::first_proof_nodes`]).
    pub first_proof_time: Option<Duration>,
}

impl Stats {
    /// Nodes per second.
    pub fn nodes_per_second(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// The result of [`Solver::solve`](crate::solver::Solver::solve).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Solution {
    /// The verdict.
    pub outcome: Outcome,
    /// Counters.
    pub stats: Stats,
}

/// How the line walk judged one defender reply at a defender ply of the main line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DefenderReply {
    /// The reply.
    pub mv: Move,
    /// Plies from this reply (included) to the mate, futile interpositions not counted: the
    /// exact minimax length when `exact`, else an upper bound.
    pub length: u32,
    /// Whether `length` is exact.
    pub exact: bool,
    /// A futile interposition (無駄合): refuted by capturing it without gaining anything, in
    /// no more plies than `length`; never shown in a line unless it is the only longest reply.
    pub futile: bool,
}

/// The replies the line walk considered at one defender ply of the main line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DefenderChoice {
    /// 1-based ply of the defender's move in the line.
    pub ply: u32,
    /// Every legal reply there, the one played included, in move-generation order.
    pub replies: Vec<DefenderReply>,
}

/// A walked line.
pub(crate) struct WalkedLine {
    pub moves: Vec<Move>,
    pub hand_left: Hand,
    pub choices: Vec<DefenderChoice>,
    pub exact: bool,
    /// The mate length the line was walked at (a proven bound from its root).
    pub budget: u16,
}
