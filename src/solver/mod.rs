//! The df-pn tsume solver: how it searches, what it promises, and what each setting buys.
//! The uniqueness checker, which runs on a [`Solver`], is [`crate::check`].
//!
//! [`Solver`] proves mate or no-mate for the side to move (the attacker), which may be Black or
//! White. The attacker plays checks only; the defender any legal reply. A proven mate comes
//! with a mating line that has been verified move by move with the rules core
//! ([`verify_mate`]) before it is reported.
//!
//! ```
//! use tsume::Position;
//! use tsume::solver::{Outcome, Solver, SolverConfig};
//! let mut solver = Solver::new(SolverConfig::new().hash_mib(16));
//! let pos = Position::from_sfen("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1")?;
//! let result = solver.solve(&pos);
//! match &result.outcome {
//!     Outcome::Mate(line) => assert_eq!(line.length(), 3),
//!     other => panic!("expected a mate, got {other:?}"),
//! }
//! # Ok::<(), tsume::SfenError>(())
//! ```
//!
//! # Solving
//! The attacker is the side to move, Black or White; it may have a king (then its moves must not
//! leave it in check, and the defender's replies may check it).
//!
//! The table's memory is reserved at once and mapped as the search first touches it, so a
//! short problem costs no more than it uses; before a long search, or to keep page faults out
//! of a timing, [`Solver::prefault`] maps all of it up front (the USI engine does it at
//! `isready`), in 2 MiB huge pages where the system gives them (on Linux, transparent huge
//! pages for programs that ask). A solver with several [threads](SolverConfig::threads) asks
//! for huge pages when its table is allocated: mapped as they go, small pages cost threads
//! far more than one (each first write of a page interrupts the other cores), and a search
//! that touches a few thousand entries then maps most of the table.
//!
//! **How it searches.** df-pn (Nagai 2002) over OR nodes (attacker to move, [`Position::check_moves`](crate::Position::check_moves)
//! only) and AND nodes (defender to move, [`Position::evasions`](crate::Position::evasions)):
//!
//! - a transposition table of fixed size, keyed by the board and side to move, holding the attacker's
//!   hand per entry: proof hands (証明駒) and disproof hands (反証駒) are stored, and a look-up with hand
//!   H is answered by any proof whose hand H covers or any disproof whose hand covers H
//!   (superiority, 優越関係). Entries are verified by the full 64-bit board key and the exact hand.
//!   When an 8-entry cluster is full, the entry with the least search work behind it goes first,
//!   solved entries last; entries a new proof or disproof makes useless are dropped at once
//!   (eight rather than sixteen: a look-up asks for the whole cluster, and the search waits on
//!   memory more than it computes; the history of benches/README.md in git has the measurements);
//! - beside the table, a memo of the initial numbers of new nodes (a thirty-second of the table,
//!   at most 512 KiB): most children are never searched, so the table never holds them, and
//!   their replies or checks would be counted again at every visit of their parent;
//! - thresholds with the 1+ε trick (ε = 1/4 for the proof-number threshold of an OR node's best
//!   check, 1/8 for the disproof-number threshold of an AND node's best reply: fewer nodes on hard
//!   disproofs and first proofs, measured in the history of benches/README.md in git); df-pn+ initial numbers at new AND
//!   nodes (the replies weighted by kind: 3 for a king move, 2 for another board reply, 1 for each
//!   square the defender can drop on) and at new OR nodes (disproof number 2 for each check, plus 8, so that
//!   the defender's replies that leave the attacker fewest checks are tried first); a mate-in-one
//!   test at every new child of an OR node; no checks = disproven at once, already when the
//!   defender's reply is first looked at;
//! - interposition drops on one square are expanded one piece kind at a time (pawn first), the next
//!   kind only once the previous one is proven; an interposition is refuted either by its own child
//!   or by its capture position (see the futile-interposition rule below), searched side by side as
//!   the two branches of an OR, and a proven capture position settles every drop on that square at
//!   once; against a horse or dragon checking from three or more squares away, the open drops on
//!   the squares between that no defender piece guards count once together in the AND node's
//!   proof number (they are often futile: the checker takes the piece and the check stands),
//!   though each is still searched and refuted;
//! - weak sums: an AND node's proof number is its largest child's plus one for each other open
//!   child, an OR node's disproof number likewise;
//! - repetition: a position already on the current path is a failure for the attacker (a repetition
//!   never mates). So is an inferior repetition (劣等局面): the board of a node on the path again,
//!   with no more in the attacker's hand (a loop that only costs the attacker a pawn each time
//!   round). Whatever mates such a position mates that node too, with a smaller tree and no more
//!   plies, so the smallest and the shortest mates never pass through it and no answer changes;
//!   the search just stops going round. A disproof that rests on a repetition is path-dependent: it is kept in a
//!   separate table keyed by the position and the set of positions on the path, and reused only on
//!   that same path (graph-history interaction), with the ply of the shallowest path position it
//!   rests on; at that node the loop is closed (every repetition it counts comes back to the node
//!   itself), and the disproof holds on any path and goes to the main table. The inferior rule
//!   applies to the search's own nodes only (a position before the search's root, such as a
//!   checker question's line so far, counts only when repeated exactly), and a disproof that
//!   rests on an inferior repetition of a node is reused only by searches for which that node
//!   is still their own: for a search from further down the same path it may be wrong (the
//!   positions between may be mated, only not by the smallest mate of the node above). A proof
//!   that leaves out a repeated interposition (the saw rule below) rests on the path too: it
//!   is kept beside the table by the path positions it rests on (the capture positions its
//!   left-out interpositions come back to; `PathProofs`, for every thread) and found again
//!   below any path that has them, whatever else the path holds (on a king walk under a long
//!   saw, the many routes the king can take to the same position), and it reaches the main
//!   table once the shallowest of them is proven;
//! - every search has a ply budget: a proof records its mate length, a disproof the number of
//!   plies it holds for, and an open node the budget its numbers were searched with; a look-up
//!   answers only with entries valid for the budget asked (an open node's numbers serve that
//!   budget or a smaller one: for a larger one, a node near a bounded search's horizon would look
//!   far harder than it is). A node with one ply left is decided on the spot (does one of its
//!   checks mate at once?) rather than by visiting every check: at the horizon of a search for a
//!   short mate such nodes and their children were more than half of the search.
//!
//! **The main line.** A mate comes with the tsume main line (the rules:
//! [`rules`, "The main line"](crate::rules#the-main-line-本手順)):
//!
//! - the attacker plays a shortest mate. After a first proof of at most 127 plies the solver
//!   searches from the bottom up: a mate in 1? in 3? in 5? ..., each a df-pn search with that
//!   budget and each allowed half of what is left of the allowance, the first with a mate being
//!   the shortest (a first proof can be far longer than the shortest mate: 67 plies for a mate in
//!   11). When the first proof took 50,000 nodes or more, it first asks from the top (a mate in
//!   two plies fewer?), each search allowed one and a half times the first proof's nodes, and
//!   goes to the bottom-up searches only when one runs out or finds its shorter mate only after
//!   more than an eighth of a search's share of the allowance: where the first proof is nearly
//!   the shortest, the ladder's rungs would each cost about as much as the last search from
//!   the top alone. When one of these runs out, or after a longer first proof, it asks "is there a mate in
//!   two plies fewer?" again and again until the answer is no or lies below the budgets already
//!   refuted ([`MateLine::shortest_proven`]), or its allowance of nodes runs out
//!   ([`SolverConfig::shortest_node_limit`]; by default 10,000,000 nodes, whatever the first
//!   proof took; each search from the root starts with an eighth of the allowance,
//!   and one that runs out goes on with twice as much). With that default 寿, ACTの夢, Astral
//!   Traveler, Astral390, 橋本587 and 図巧98番 come out proven shortest; `--shortest-nodes 1`
//!   (`Some(1)`) gives the first verified mate at once (the first proof's line, walked from
//!   the table alone: milliseconds, no node past the first proof but a node or so per check
//!   where that line is a mate in one), and a time limit that
//!   runs out during this work still gives the mate found so far, within a tenth of a
//!   second (the line is walked from the table for at most a few hundredths of a second
//!   more).
//!   When one such search runs out of its share, the line found so far is tightened from its end
//!   back to the root ([`SolverConfig::tighten_line`], on by default): at each attacker node every
//!   other check gets a small bounded search for a mate two plies sooner (a shortcut: 300 nodes
//!   for a check the line itself plays at a later attacker ply, the usual move-order waste, and 30
//!   for the rest), and each
//!   position of the line is proven again within what its part of the line then needs; while a
//!   pass shortens the root's mate, the line is walked again at the new length (a defence that
//!   has become the longest is then part of it) and tightened again, and a line that a later
//!   search from the top shortens further is tightened once more. Long problems whose first
//!   proof wastes moves in many places get their length this way (Microcosmos gets its 1525 plies
//!   so), though
//!   without the proof that it is minimal within the default allowance (with an allowance that
//!   does not run out, `--shortest-nodes unlimited`, the proof comes). The search that
//!   ran out then goes on with twice its share, from what the table holds, until the allowance
//!   is spent;
//! - the defender plays the longest defence and, among equally long ones, the one that leaves the
//!   attacker the fewest pieces in hand (駒余り); [`MateLine::hand_left`] is that hand;
//! - futile interpositions (無駄合) are neither counted nor shown (definition in [`rules`](crate::rules#futile-interpositions-無駄合-mudaai));
//! - the line is walked from the root with the proven length as budget: at attacker nodes the first
//!   check in move-generation order that mates within the budget left (near the end of the line,
//!   among the checks that mate as soon, the one that leaves the fewest pieces in hand, so that a
//!   sound problem's line uses up the attacker's pieces), at defender nodes the replies
//!   that are not mated two plies sooner, each question answered from the table or by a bounded
//!   search (with the default allowance the walk's searches take at most a quarter of the first
//!   proof's nodes, and at least 1,000,000: on 橋本587 more bought the same line; a line that
//!   still falls short of the length is walked again with twice the nodes, up to six times, while
//!   no limit set by the caller runs out). At a defender node with several replies not yet
//!   shown shorter, they are first asked with small searches, until one is left (most
//!   shorter replies show it within a few hundred nodes; with a proven minimal length, the
//!   last one left is the longest without a search). Where lines are compared (a proven
//!   minimal length within the allowance, or near the end), the lines of the replies still
//!   open are then walked in generation order, and a reply is asked at length only when its
//!   line would be chosen: a reply whose line loses cannot change the choice, whatever its
//!   length. A line of the whole budget that leaves no piece in hand cannot be beaten by a
//!   later one, so the replies after it are not walked at all. Elsewhere the reply with the
//!   longest recorded mate is walked alone. When the length
//!   is proven minimal and every choice was decided,
//!   [`MateLine::exact`] is true: each choice then depends only on the position and the
//!   move-generation order, not on what the table happened to hold, so the line is the same for
//!   every table size and every run (tested with 1, 4 and 64 MiB and a reused solver). Otherwise (long problems, where proving minimality is out of reach) the line is
//!   still a verified mate with the best length found, and the flags say what was not shown;
//! - with [`SolverConfig::defences`], every defender ply of the line lists all replies with
//!   their mate lengths ([`DefenderChoice`], [`DefenderReply`]);
//! - [`SolverConfig::max_mate_length`] restricts a search to mates of at most N plies (`NoMate`
//!   then means none that short), which is how the tests check a minimal length independently.
//!
//! Every line is checked move by move by [`verify_mate`] (rules core only) before it is reported; a
//! proof whose line cannot be verified is reported as `Unknown(UnverifiedLine)`, never as a mate.
//!
//! ## Parallel search
//!
//! With [`SolverConfig::threads`] above one, [`Solver::solve`] runs helper threads beside its
//! own. The solver's own thread (the main thread) does everything it does alone: the first
//! proof, the searches that prove the length minimal, the line tightening and the line walk.
//! Whenever one of its df-pn searches has run 2,048 nodes, the main thread offers that search's
//! root (position, budget and path) to the helpers, and each helper searches the same root.
//!
//! - **What they share:** the one transposition table and the memo of initial numbers (or,
//!   for a checker's search on a side table, that table, lent for the search; see below).
//!   Every slot of a table is a small sequence lock, so a thread never reads half of another's
//!   write. So are the proofs that rest on a few path positions (the saw rule), kept beside
//!   the table by those positions; each thread checks them against its own path. Each thread
//!   keeps its own path, repetition table and node count.
//! - **How they keep apart:** each thread marks the nodes on its path in a small shared array.
//!   When a helper chooses a child, a child that other threads are inside counts as harder by
//!   half its number per thread (a virtual proof or disproof number, after Kaneko's parallel
//!   df-pn). The 1+ε thresholds are grown from these virtual numbers, so the helper goes
//!   elsewhere unless that child is clearly the best. Each helper also breaks near ties its own
//!   way. The main thread chooses as it would alone: steered away from the helpers' paths, it
//!   was drawn into side lines somewhere along a long forced line, and some runs of
//!   Microcosmos took five times longer than one thread.
//! - **How a proof by one stops the others:** a helper that decides the root leaves its value
//!   with the job and raises a flag. Within 1,024 of its nodes the main thread unwinds, takes
//!   the value and goes on. The value holds for the main thread even when it rests on the
//!   path (a repetition, a position the checker excludes) and so never reaches the table: the
//!   helper searched the same root on the same path, with the same exclusions. When the main
//!   thread's search ends, the offer is withdrawn and the helpers stop within 1,024 of their
//!   own nodes.
//! - **Why the answers stay sound:** results that hold on one path only never reach the table,
//!   so every entry is true whichever thread wrote it; a proof kept by the path positions it
//!   rests on is used only below a path that has them. The main thread walks and verifies the
//!   line, as with one thread.
//! - **Limits:** the node limit counts the nodes of all threads, and every thread watches the
//!   stop flag. The table budget is the one table's, and the threads' repetition tables share
//!   the part of it they may take (on a lent side table, the part of that table's).
//! - **Determinism:** one thread repeats itself node for node. With several, which of equally
//!   short lines is found and the node counts vary from run to run.
//! - **What limits it:** the total nodes to the answer grow with the thread count, unevenly
//!   from problem to problem (ACTの夢's first proof: about 500,000 nodes with one thread,
//!   about 800,000 with two, half of them the helper's). The threads seldom search the same
//!   positions (in first proofs with two threads, the helper visits a tenth to a quarter of
//!   the positions the main thread visits; counted on Astral Traveler, ACTの夢, 寿 and
//!   図巧98番 with a build that recorded every thread's positions, not with a benchmark of
//!   the repository: the counts are in the message of commit a88b2d2). The loss is that most of the helper's work lies
//!   off the proof's way (more than half of its positions are ones a single thread never
//!   visits), and that the main thread, led by the numbers the helper leaves in the table,
//!   also visits positions a single thread does not, on some problems as many as the helper
//!   spares it. Those numbers are still what the main thread gains most from (kept from it,
//!   they made the first proofs cost both threads more nodes, not fewer). A thread can also
//!   run slower beside another (they share the caches and the memory bandwidth of the table).
//!   Short searches gain nothing: a search is offered only after 2,048 nodes. After the
//!   first proof much of the work is bounded searches that end at their node cap undecided
//!   (on ACTの夢, the line walk asking of three defences as long as the line's whether they
//!   are mated two plies sooner, each a disproof 190 to 320 plies deep, 300,000 of its 2.06
//!   million nodes with one thread): a helper adds nodes to them, rarely an answer, and
//!   handing each to a thread of its own instead gained nothing measurable either. The
//!   allowance for that work counts the main thread's nodes
//!   ([`SolverConfig::shortest_node_limit`]), so on a problem whose allowance runs out
//!   (Microcosmos) the total nodes grow with the thread count by design: the table's
//!   first-proof columns are the figure of the search's own overhead. benches/README.md
//!   ("Threads") has the measurements.
//!
//!
//! [`Solver::check`] uses the threads too. The crew solves the problem as above. The
//! questions along the line are then cut into units: each ply as a whole (早詰, 最終手余詰),
//! then each other move of it (an alternative check, another defence). The threads take
//! the units one by one, in line order, each with its own search on the shared table and its
//! own side table (half the table budget, shared out). Meanwhile the helpers wait: a thread
//! that finds no unit left lets them join the searches still under way, as above, those on
//! a side table too: the job then lends the helpers that table with the search's exclusions
//! (so their entries mean what its own mean), and the search, when it ends, waits until the
//! last helper has left it before the table is cleared or freed. The answers are put
//! together in the order one thread asks them, with the same rules for where the check stops
//! (at the first fatal flaw, or when a limit runs out). So one thread is node for node the
//! old check, and with several a question settled either way gets the same answer in the
//! same place of the report. A question's node share
//! ([`CheckConfig::question_node_limit`](crate::check::CheckConfig::question_node_limit))
//! counts the nodes of the helpers in its searches with its own thread's, so that a question
//! left undecided at its share also ends sooner with helpers. Such a question may be settled
//! with one thread count and not with another, because the table holds other entries, or
//! because the helpers' nodes went elsewhere than its own thread's would have; likewise a
//! length proven with one count and not with another.
//!
//! ## The length is a proven bound
//!
//! [`MateLine::length`] — `length` in the JSON, "mate in N" in the output of `solve` and
//! `check_unique` — is always a length that a proof in the search shows: against every defence
//! the attacker has a mate in at most N plies (futile interpositions not counted). It is the
//! first proof's length, or a shorter one proven since; the line shown never sets it, but for
//! a verified mate in one (a 1-ply line has no defence to get wrong).
//! [`MateLine::shortest_proven`] says whether N is also minimal (no mate in N-2).
//!
//! The line shown ([`MateLine::moves`], [`MateLine::line_len`]) is a verified mate, and
//! [`MateLine::is_main_line`] says whether its defender plays a longest defence within N: the line
//! then has N plies (more only when it has to show a futile interposition and its capture). When
//! the allowance for the shortest-mate work runs out, the line is walked at N with what the table
//! knows; where a defence could not be decided and the line comes out shorter, the solver proves
//! the line's own length from its end back to the root (with an eighth of the allowance of its own),
//! lowers N to that proof when it succeeds and walks again. Only when that fails too is the line
//! reported as not the main line — `mate in at most N; line shown: L plies, defence not the
//! longest` — and the checker then lists "which defence is the longest?" as undecided.
//!
//! **Futile interpositions (無駄合).** An interposition (合駒) between the king and a distant
//! checker, by a drop or a move (移動合), is not counted when the attacker can take it with the
//! checker and mate as fast without ever using the captured piece (a 移動合: when that capture
//! leaves a mate at once, as at the end of a chain of 移動合 after a distant check); the line does
//! not show it, and a position where every reply is such an interposition ends a line like a
//! checkmate ([`is_mate_with_futile_interpositions`]). In a horse or dragon saw (馬鋸, 龍鋸) a drop
//! on a square the checker left a cycle earlier, taken back, only brings the line back to a
//! position it has passed through, the attacker a piece richer: such a **repeated interposition**
//! is worth nothing while the defender has another reply (the saw rule), so a saw is not lengthened
//! by pawns dropped again and again (tested on a horse saw's positions in `tests/futile.rs` and the
//! search's and line walk's unit tests; no problem of the suites has a saw in its main line). The exact definition, why the saw rule is sound and where it
//! depends on the line played, and the one case the rule cannot show without counting:
//! [`rules`, "Futile interpositions"](crate::rules#futile-interpositions-無駄合-mudaai).
//!
pub(crate) mod audit;
pub(crate) mod budgets;
pub(crate) mod config;
mod entry;
mod expansion;
pub(crate) mod futile;
mod hands;
pub(crate) mod line;
mod memo;
pub(crate) mod monitor;
pub(crate) mod outcome;
pub(crate) mod parallel;
mod path;
pub(crate) mod plies;
mod pn;
pub(crate) mod search;
pub(crate) mod shortest;
pub(crate) mod tt;
pub(crate) mod verify;

pub use config::SolverConfig;
pub use entry::Solver;
pub use futile::is_mate_with_futile_interpositions;
pub use outcome::{
    DefenderChoice, DefenderReply, LineCut, MateLine, MateStatus, Outcome, Progress, Solution,
    Stats, StopHandle, StopReason, UnverifiedLine,
};
pub use tt::AllocError;
pub use verify::{LineError, verify_mate};
#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send<T: Send>() {}

    #[test]
    fn solver_is_send() {
        assert_send::<Solver>();
    }
}
