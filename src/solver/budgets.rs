//! Every node budget of the solver and the checker in one place, each with the reason for its
//! size. The caller's limits ([`SolverConfig`](super::SolverConfig),
//! [`CheckConfig`](crate::check::CheckConfig)) bound all of them; these only share out what
//! the caller allowed. Changing one changes node counts: measure with `bench_long`,
//! `bench_check` and the random suite (CONTRIBUTING.md).

// --- Proving the length minimal (`shortest.rs`) ---

/// The allowance after the first proof is shared out in eighths: each search from the root
/// for a shorter mate starts with one (the last, which must show there is none, is the hard
/// one), and goes on with twice as much while the allowance lasts.
pub(crate) const SHARES: u64 = 8;

/// The least share of one search for a shorter mate, so that a small allowance (a caller's,
/// or a checker question's) still lets a short problem show there is no mate two plies sooner.
pub(crate) const MIN_SHARE: u64 = 50_000;

/// A search from the top that finds a shorter mate only after more than this part of a share
/// hands over to the ladder from the bottom, where each rung is cheap.
pub(crate) const TOP_DOWN_STEP_PART: u64 = 8;

/// The least first proof (nodes) for which the searches from the top come before the ladder:
/// below it the ladder's rungs cost less than the one search from the top that shows there is
/// no shorter mate.
pub(crate) const TOP_DOWN_FIRST_PROOF: u64 = 50_000;

/// Each bounded search of the line tightening for a line position proven again within its new
/// bound, or for a check beside the line that the line plays later: most of them fail, and the
/// ones that succeed (a move-order shortcut) take a few hundred nodes.
pub(crate) const TIGHTEN_NODES: u64 = 300;

/// Each bounded search of the line tightening for a check beside the line that the line does
/// not play later: these rarely mate sooner, and there are many of them.
pub(crate) const TIGHTEN_OTHER_NODES: u64 = 30;

/// Each bounded search that confirms a line shorter than its bound (one position of it proven
/// within its part of the line): more than the tightening's, as each is a question the walk
/// could not answer with its own nodes.
pub(crate) const CONFIRM_NODES: u64 = 5_000;

// --- Walking the main line (`line.rs`, `shortest.rs`) ---

/// With the default allowance, the line walk may search at most this part of the first
/// proof's nodes (at least [`MIN_WALK_NODES`]): past that its searches only decide ties that
/// do not change the line.
pub(crate) const WALK_PART: u64 = 4;

/// The least share of the line walk, so that short problems still decide every choice.
pub(crate) const MIN_WALK_NODES: u64 = 1_000_000;

/// How many times a line that does not realise its bound is walked again, each time with
/// twice the nodes: up to 64 times the first share, unless a caller's limit runs out first.
pub(crate) const WALK_RETRIES: u32 = 6;

/// Most positions one line walk may visit (replies compared for the 駒余り rule included).
pub(crate) const MAX_WALK: u64 = 2_000_000;

/// Nodes each decision of the walk ("is this position mated within so many plies?") may
/// search before it is left undecided, when the length is proven minimal.
pub(crate) const DECISION_NODES: u64 = 100_000;

/// [`DECISION_NODES`] when the length is not proven minimal: the line is not exact anyway, and
/// long problems then have many undecidable ties.
pub(crate) const DECISION_NODES_LOOSE: u64 = 5_000;

/// Nodes each search of the walk's narrowing may take (a defender's replies asked, shortest
/// recorded mate first, until one is left): most replies mated two plies sooner show it
/// within a few hundred nodes, and with a proven minimal length the one left is the longest
/// without a search. The replies still open are asked with [`DECISION_NODES`] only when their
/// line would be chosen (a reply as long as the line's would otherwise spend a whole
/// [`DECISION_NODES`] on a disproof, often before a shorter sibling is looked at).
pub(crate) const DECISION_NODES_FIRST: u64 = 5_000;

/// Nodes all of a walk's searches may take past its allowance, after which the table alone
/// decides: near the end of a line whose bound is not tight, comparisons branch at every ply.
pub(crate) const WALK_OVERRUN_NODES: u64 = 1_000_000;

/// The allowance of the main-line walk of a mate in one that the first mate at once
/// (`--shortest-nodes 1`) shows: a node or so for each check, asked whether it mates at once,
/// to compare the mates in one (駒余り); ample.
pub(crate) const MATE_IN_ONE_WALK: u64 = 1_000;

/// Most positions a walk may visit once it no longer searches: on the table alone a walk
/// whose lines keep failing backtracks through the whole proof tree, counting no nodes.
pub(crate) const TABLE_WALK: u64 = 200_000;

/// Once the time limit has run out or the search was stopped, a walk of the line from the
/// table ends this long after: the caller gets the line found so far (the first proof's, or
/// the last one walked) within a tenth of a second, rather than after a walk of
/// [`TABLE_WALK`] positions (a second on 寿). After a node limit the walk keeps to that
/// count, so that its answer does not depend on the machine's speed.
pub(crate) const AFTER_LIMIT: std::time::Duration = std::time::Duration::from_millis(50);

// --- The checker (`crate::check`) ---

/// A checker's search for a mate of any length after another check (on the main table, or
/// on the side table clear of the line) that its share does not settle gets this part of
/// the share more to look for a mate within a bound: a df-pn search for a mate of any
/// length can spend a share on long mates made of the defender's many pieces in hand and
/// miss a short one (on the random mates of 7-15 plies this settles about one open
/// question in seven; the suites' reports are unchanged).
pub(crate) const SIDE_HINT_SHARE: u64 = 4;

/// That bound: the rest of the line from the other check on and this many plies more (or
/// the main table's mate, when shorter).
pub(crate) const SIDE_HINT_SLACK: i32 = 4;

/// The part of a question's share that shortens a second solution found on the side table:
/// the length of a 余詰 is a detail beside the fact that it mates.
pub(crate) const DETOUR_SHORTEN_SHARE: u64 = 4;

/// With a first-flaw check, the first walk along the line gives each question this part of
/// its share, so that a cheap second solution anywhere ends the check before hard questions
/// spend their whole shares.
pub(crate) const QUICK_SHARE_PART: u64 = 16;

/// Nodes the search for the order of moves of a 手順前後 / 非限定 may visit: it only shows an
/// order that the classifying searches have already shown the attacker can force.
pub(crate) const REJOIN_NODES: u32 = 20_000;

// --- The parallel search (`parallel.rs`) ---

/// Nodes the main thread searches in one df-pn search before it offers the search to the
/// helpers: a search smaller than this ends before a helper would have woken up and looked up
/// its first nodes (a few hundred microseconds), and the line walk runs thousands of them.
pub(crate) const HELP_AFTER: u64 = 2048;
