//! The df-pn search proper: OR nodes (attacker to move, checks only) and AND nodes (defender
//! to move, evasions), with thresholds, the 1+ε trick, df-pn+ initial values, a mate-in-one
//! test at new children, proof and disproof hands, delayed expansion of interposition drops,
//! and path-dependent handling of repetitions.

use super::audit::Asked;
use super::budgets::HELP_AFTER;
use super::expansion::{
    Child, Children, DROP_ORDER, Expansion, Summary, effective, folded_squares, initial_and_pn,
    initial_or_dn, summarize,
};
use super::futile;
use super::hands;
use super::monitor::{Limits, Monitor};
use super::outcome::{Stats, StopReason};
use super::parallel::{Crew, Job, LentTable, Root, Scope};
use super::path::{Path, PathResult};
use super::plies::Plies;
use super::pn::{
    INF_1, PnDn, add, epsilon_threshold, remaining_threshold, reply_epsilon_threshold,
};
use super::pn::{NOT_ON_PATH, REP_OUTSIDE, Value};
use super::tt::Table;
use crate::bitboard::Bitboard;
use crate::hand::Hand;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Square};
use crate::zobrist::KeyMap;
use smallvec::SmallVec;
use std::time::Duration;

/// Whether a position is mated within a number of plies, as far as one decision could tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Within {
    Yes(u16),
    No,
    Unknown,
}

/// A child's keys as [`Position::keys_after`] makes them: board key, hand key, the
/// attacker's hand.
type ChildKeys = (u64, u64, Hand);

/// What the expansion of one AND node needs to know about it.
struct AndNode<'p> {
    pos: &'p Position,
    evasions: &'p [Move],
    /// The single checker from a distance and the squares between it and the king, when
    /// the replies there are interpositions.
    distant: Option<(Square, Bitboard)>,
    defender_hand: Hand,
    /// The node's budget (its children have one ply less; capture positions the same).
    budget: Plies,
    depth: u32,
}

/// The two kinds of node of the attacker-checks-only tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum NodeKind {
    /// The attacker to move (攻方): one check that mates is enough (an OR of its checks).
    Or,
    /// The defender to move (玉方), in check: every reply must be mated (an AND).
    And,
}

/// One search over a table.
pub(crate) struct Search<'a> {
    pub table: &'a Table,
    pub attacker: Color,
    /// Nodes, limits, progress: when to stop.
    pub monitor: Monitor<'a>,
    /// The positions on the current path, repetitions and exclusions.
    path: Path,
    /// Whether table entries are kept apart by the ply of their node (see
    /// [`Search::key_by_depth`]).
    by_depth: bool,
    /// Nodes and time when the root's first proof or disproof was complete
    /// ([`Stats::first_proof_nodes`]).
    first_proof: Option<(u64, Duration)>,
    /// This search's part in a parallel search, if any (see [`super::parallel`]).
    crew: Option<CrewRole<'a>>,
    /// Whether the helpers' nodes in a bounded search ([`Search::solve_until`]) count
    /// towards its cap, as a checker's questions have them.
    caps_count_helpers: bool,
}

/// A search's part in a parallel search.
enum CrewRole<'a> {
    /// The main thread: it offers its df-pn searches to the helpers.
    Main {
        crew: &'a Crew,
        /// The df-pn search under way: its root, and when and as what job it is offered.
        job: Option<Box<RootJob>>,
        /// Whether the search runs on a table of its own (a checker's side table), which it
        /// lends to the helpers with each job.
        lends_table: bool,
    },
    /// A helper searching job `job`, with its own noise; `counted`: its nodes already
    /// added to the job's count of helper nodes.
    Helper {
        crew: &'a Crew,
        job: &'a Job,
        noise: u64,
        counted: u64,
    },
}

/// The main thread's df-pn search under way, for offering it to the helpers.
struct RootJob {
    root: Root,
    /// The node count at which it is offered.
    offer_at: u64,
    /// The job once offered.
    offered: Option<std::sync::Arc<Job>>,
    /// Whether a helper's decision interrupts it (see [`Search::ignore_decisions`]).
    heed: bool,
}

impl Drop for Search<'_> {
    /// A search that ends without ending its df-pn search (a panic unwinding through it)
    /// still withdraws its job: a lent table must not go while helpers use it.
    fn drop(&mut self) {
        self.end_root_job();
    }
}

impl<'a> Search<'a> {
    pub fn new(table: &'a Table, attacker: Color, limits: Limits<'a>) -> Search<'a> {
        Search {
            path: Path::new(table.size_bytes()),
            by_depth: false,
            first_proof: None,
            crew: None,
            caps_count_helpers: false,
            table,
            attacker,
            monitor: Monitor::new(limits),
        }
    }

    /// Nodes searched so far.
    #[inline]
    pub fn nodes(&self) -> u64 {
        self.monitor.nodes
    }

    /// Why the search stopped, if a limit ran out.
    pub fn aborted(&self) -> Option<StopReason> {
        self.monitor.aborted.clone()
    }

    /// Whether a result rested on lines cut at the maximum depth.
    pub fn depth_limited(&self) -> bool {
        self.monitor.depth_limited
    }

    pub fn elapsed(&self) -> Duration {
        self.monitor.elapsed()
    }

    /// What is left of this search's time limit, if it has one.
    pub fn time_left(&self) -> Option<Duration> {
        self.monitor.time_left()
    }

    /// Notes that the root's first proof (or disproof) is complete, for [`Search::stats`];
    /// for a mate in `mate` plies, a progress report says so at once.
    pub fn mark_first_proof(&mut self, mate: Option<u16>) {
        // All threads' nodes, as `Stats::nodes` counts them: the helpers' own are added to
        // this thread's count only when its searches end.
        self.first_proof = Some((self.monitor.all_nodes(), self.elapsed()));
        if mate.is_some() {
            self.monitor.first_mate = mate;
            self.monitor.shortest_mate = mate;
            self.monitor.report_progress(self.table);
        }
    }

    /// Notes a shorter mate of the root, proven while its length is proven minimal: a
    /// progress report says so at once.
    pub fn mark_shorter_mate(&mut self, len: u16) {
        if self.monitor.shortest_mate.is_some_and(|s| len < s) {
            self.monitor.shortest_mate = Some(len);
            self.monitor.report_progress(self.table);
        }
    }

    #[inline]
    fn count_node(&mut self) {
        if self.monitor.count_node(self.table) && self.crew.is_some() {
            self.crew_tick();
        }
    }

    /// Makes this search the main thread of a parallel search with `crew` (see
    /// [`super::parallel`]). The path's repetition table keeps to its share of the budget.
    pub fn join_crew_as_main(&mut self, crew: &'a Crew) {
        self.path = Path::new(self.table.size_bytes() / crew.threads());
        self.monitor.share_nodes(crew.node_counter());
        self.crew = Some(CrewRole::Main {
            crew,
            job: None,
            lends_table: false,
        });
    }

    /// Makes this search, on a table of its own rather than the crew's (a checker's side
    /// table), a main thread of `crew`: the helpers join its searches on that table, with its
    /// exclusions, once the crew's offers are not held back. Called before
    /// [`Search::exclude`] and [`Search::set_path`] (it starts a new path).
    pub fn join_crew_on_own_table(&mut self, crew: &'a Crew) {
        debug_assert!(self.path.exclusions().is_none() && self.path.base_keys().is_empty());
        // The path keeps its size: the side table is already a thread's share.
        self.monitor.share_nodes(crew.node_counter());
        self.crew = Some(CrewRole::Main {
            crew,
            job: None,
            lends_table: true,
        });
    }

    /// Counts the nodes the helpers search in a bounded search ([`Search::solve_until`])
    /// towards its cap, besides this thread's own: a checker's question, whose node share
    /// is the question's whichever threads search it.
    pub fn count_helpers_in_caps(&mut self) {
        self.caps_count_helpers = true;
    }

    /// The crew this search belongs to, if any.
    pub fn crew_of(&self) -> Option<&'a Crew> {
        self.crew()
    }

    /// Makes this search helper `index` (1, 2, ...) of `crew`, working on job `job`.
    pub fn join_crew_as_helper(&mut self, crew: &'a Crew, job: &'a Job, index: u64) {
        self.path = Path::new(self.table.size_bytes() / crew.threads());
        self.monitor.share_nodes(crew.node_counter());
        self.crew = Some(CrewRole::Helper {
            crew,
            job,
            noise: index.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1,
            counted: self.monitor.nodes,
        });
    }

    /// Adds the nodes of the threads that worked beside this one (already counted towards
    /// the limits), for its statistics.
    pub fn add_nodes_of_others(&mut self, n: u64) {
        self.monitor.add_counted_nodes(n);
    }

    /// Whether this helper's job was withdrawn while it searched.
    pub fn left_job(&self) -> bool {
        self.monitor.interrupted
    }

    /// Adds this search's nodes not yet counted to its parallel search's count.
    pub fn publish_nodes(&mut self) {
        self.monitor.publish();
    }

    /// A parallel search's work at each look at the limits: the main thread offers its
    /// search once it has run [`HELP_AFTER`] nodes, and unwinds when a helper decided it; a
    /// helper unwinds when its job is withdrawn.
    fn crew_tick(&mut self) {
        let nodes = self.monitor.nodes;
        match &mut self.crew {
            Some(CrewRole::Main {
                crew,
                job: Some(job),
                lends_table,
            }) => match &job.offered {
                None if nodes >= job.offer_at && !crew.offers_held() => {
                    let scope = Scope {
                        side_table: lends_table.then(|| LentTable::new(self.table)),
                        excluded: self.path.exclusions().cloned(),
                        by_depth: self.by_depth,
                    };
                    job.offered = Some(crew.post(&job.root, self.path.base_keys(), scope));
                }
                Some(offered) => {
                    if job.heed && crew.was_decided(offered.id) {
                        self.monitor.interrupted = true;
                    }
                    if self.caps_count_helpers {
                        self.monitor.cap_with_others(offered.helper_nodes());
                    }
                }
                _ => {}
            },
            Some(CrewRole::Helper {
                crew, job, counted, ..
            }) => {
                job.add_helper_nodes(nodes - *counted);
                *counted = nodes;
                if !crew.is_current(job.id) {
                    self.monitor.interrupted = true;
                }
            }
            _ => {}
        }
    }

    /// At the start of a df-pn search from `pos` on the main thread of a parallel search:
    /// notes it for offering to the helpers. Whether it was noted.
    fn note_root_job(&mut self, pos: &Position, kind: NodeKind, depth: u32, budget: Plies) -> bool {
        if !self.is_main() {
            return false;
        }
        // df-pn searches do not nest; should one ever start inside another, the outer one's
        // job is withdrawn first (a lent table's helpers must not be left on it).
        self.end_root_job();
        let offer_at = self.monitor.nodes + HELP_AFTER;
        if let Some(CrewRole::Main { job, .. }) = &mut self.crew {
            *job = Some(Box::new(RootJob {
                root: Root {
                    pos: pos.clone(),
                    kind,
                    depth,
                    budget,
                },
                offer_at,
                offered: None,
                heed: true,
            }));
        }
        self.monitor.check_by(offer_at);
        true
    }

    /// Ends the main thread's df-pn search: its job, if offered, is withdrawn.
    fn end_root_job(&mut self) {
        if let Some(CrewRole::Main { crew, job, .. }) = &mut self.crew {
            if let Some(offered) = job.take().and_then(|j| j.offered) {
                crew.withdraw(&offered);
            }
        }
        self.monitor.interrupted = false;
    }

    /// The value a helper decided the current job's root with, if one did.
    fn helper_decision(&self) -> Option<(Value, bool)> {
        match &self.crew {
            Some(CrewRole::Main { job: Some(job), .. }) => job.offered.as_ref()?.decision(),
            _ => None,
        }
    }

    /// Stops taking the helpers' decisions for the current job: it stays offered, and the
    /// main thread searches it to its end.
    fn ignore_decisions(&mut self) {
        if let Some(CrewRole::Main { job: Some(job), .. }) = &mut self.crew {
            job.heed = false;
        }
    }

    /// Whether this is the main thread of a parallel search (interruptions are its helpers'
    /// decisions).
    fn is_main(&self) -> bool {
        matches!(self.crew, Some(CrewRole::Main { .. }))
    }

    /// The crew of this search's parallel search, if any.
    #[inline]
    fn crew(&self) -> Option<&'a Crew> {
        match self.crew {
            Some(CrewRole::Main { crew, .. } | CrewRole::Helper { crew, .. }) => Some(crew),
            None => None,
        }
    }

    /// Marks the node with full key `full` as entered (for the busy marks of a parallel
    /// search).
    #[inline]
    fn crew_enter(&self, full: u64) {
        if let Some(crew) = self.crew() {
            crew.enter(full);
        }
    }

    /// Marks the node with full key `full` as left (see [`Search::crew_enter`]).
    #[inline]
    fn crew_leave(&self, full: u64) {
        if let Some(crew) = self.crew() {
            crew.leave(full);
        }
    }

    /// In a parallel search, the child to search next and the number its threshold is
    /// grown from (the 1+ε trick's second-best), on virtual numbers: when the best child is
    /// busy, a child other threads are inside counts as harder than it is, by half its
    /// number per thread; and a helper breaks near ties its own way (see
    /// [`super::parallel`]). `best` is the child with the least `number`, which is under
    /// `threshold`; only children under it are chosen, and the chosen child's number is at
    /// most the returned one, so that its threshold leaves it room to grow. `None` when the
    /// choice stands: always on the main thread (and with one thread), which searches as it
    /// would alone.
    fn steer(
        &mut self,
        pos: &Position,
        children: &[Child],
        best: usize,
        threshold: PnDn,
        number: impl Fn(&Child) -> PnDn,
    ) -> Option<(usize, PnDn)> {
        let crew = self.crew()?;
        let busy = |ch: &Child| {
            let k = pos.keys_after(ch.mv, self.attacker);
            crew.busy(k.0 ^ k.1) as u64
        };
        // The main thread searches as it would alone: it follows the best child even where
        // helpers are inside. Steered away from their paths, it was drawn into side lines at
        // some level of a long forced line and took five times longer on Microcosmos in some
        // runs; the helpers are the ones to spread out.
        let Some(CrewRole::Helper { noise, .. }) = &mut self.crew else {
            return None;
        };
        let best_busy = busy(&children[best]) > 0;
        let min = number(&children[best]) as u64;
        // Children that may be chosen: under the threshold and within the largest penalty of
        // the best. Their virtual numbers count the threads inside them (only when the best
        // is busy: otherwise the look-ups would change nothing the main thread does); the
        // others keep their own number, a lower bound of their virtual one.
        let reach = (min + min / 2 + 1).min(threshold as u64);
        let eligible = |i: usize| i == best || (number(&children[i]) as u64) < reach;
        let virtual_numbers: SmallVec<[u64; 16]> = children
            .iter()
            .enumerate()
            .map(|(i, ch)| {
                let n = number(ch) as u64;
                if best_busy && eligible(i) {
                    n + busy(ch) * (n / 2 + 1)
                } else {
                    n
                }
            })
            .collect();
        let candidates = (0..children.len()).filter(|&i| eligible(i));
        let least = candidates.clone().map(|i| virtual_numbers[i]).min()?;
        // Any within a sixteenth of the least, at random (xorshift).
        let near: SmallVec<[usize; 8]> = candidates
            .filter(|&i| virtual_numbers[i] <= least + least / 16)
            .collect();
        let state = noise;
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        let chosen = *near.get((*state % near.len().max(1) as u64) as usize)?;
        let second = (0..children.len())
            .filter(|&i| i != chosen)
            .map(|i| virtual_numbers[i])
            .min()
            .unwrap_or(u64::MAX)
            .max(virtual_numbers[chosen]);
        Some((chosen, second.min(crate::solver::pn::INF as u64) as PnDn))
    }

    /// Looks at the time and stop limits between node counts (see [`Monitor::poll`]).
    pub fn poll_limits(&mut self) {
        self.monitor.poll(self.table);
    }

    /// Treats the positions with these full keys ([`Position::key`]) as not mated when they
    /// are reached later than at the given ply (the `depth` of the search's nodes counts plies
    /// from the problem's start). Results that rest on them are path-dependent, like those
    /// that rest on a repetition, and never reach the table; but the table's own proofs do not
    /// know of the exclusion, so a search with exclusions needs a table of its own.
    pub fn exclude(&mut self, keys: KeyMap<u64, u32>) {
        self.path.exclude(keys);
    }

    /// The positions excluded ([`Search::exclude`]), if any.
    pub(crate) fn exclusions(&self) -> Option<&KeyMap<u64, u32>> {
        self.path.exclusions()
    }

    /// Keeps the table's entries apart by the ply of their node: for exclusions that depend on
    /// the ply a position is reached at. A position excluded when reached later than some ply
    /// makes a proof found at one ply wrong a ply or more deeper (its play reaches the
    /// excluded position later), and the same position comes back deeper by another order of
    /// moves. With exclusions at no ply any node reaches (the checker's search for a mate
    /// clear of the line) this is not needed.
    pub fn key_by_depth(&mut self) {
        self.by_depth = true;
    }

    /// The table key of a node with board key `board` at ply `depth`.
    #[inline]
    fn table_key(&self, board: u64, depth: u32) -> u64 {
        if self.by_depth {
            board ^ (depth as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        } else {
            board
        }
    }

    /// Starts loading what the look-up of a child with keys `k` at `ply` reads: its
    /// table cluster and its slot of the memo of initial numbers (a new child's), so that
    /// the latencies of a node's children overlap.
    #[inline]
    fn prefetch_child(&self, k: ChildKeys, ply: u32) {
        self.table.prefetch(self.table_key(k.0, ply));
        self.table.memo.prefetch(k.0 ^ k.1);
    }

    /// Adds nodes searched elsewhere (another table) to this search's count and limits.
    pub fn add_nodes(&mut self, n: u64) {
        self.monitor.add_nodes(n, self.table);
    }

    /// Replaces the path (used when re-searching from inside a line).
    pub fn set_path(&mut self, keys: &[u64]) {
        self.path.set(keys);
    }

    /// Records a node's result: solved results that hold on this path only (a disproof that
    /// rests on a repetition, a proof that rests on a path position) go to the path-keyed
    /// table, everything else to the transposition table.
    fn record(&mut self, pos: &Position, depth: u32, v: Value, best: Option<Move>, work: u64) {
        if v.on_path_only() || v.rests_on_repetition() {
            // A proof that leaves out a repeated interposition, or a disproof that rests on a
            // repetition: valid on this path only. The proof holds below any path with the
            // positions it rests on (shared with the other threads), when they are few.
            if v.on_path_only()
                && let Some(keys) = self.path.keys_named(v.rests_on, v.rests_plies, depth)
            {
                let proofs = &self.table.path_proofs;
                proofs.insert(pos.key(), keys, depth, v.hand, v.len);
                return;
            }
            let result = PathResult {
                hand: v.hand,
                len: v.len,
                proof_rests_on: v.on_path_only().then_some(v.rests_on),
                proof_rests_plies: v.rests_plies,
                disproof_rests_on: v.rep,
                disproof_inferior: v.inf,
            };
            self.path.record_on_path(pos.key(), result);
            return;
        }
        // A table of exact proofs keeps the hand the proof was found with (see
        // `Table::set_exact_proofs`); the node's value keeps its proof hand for its parent.
        let hand = if v.pn == 0 && self.table.exact_proofs() {
            pos.hand(self.attacker)
        } else {
            v.hand
        };
        let key = self.table_key(pos.board_key(), depth);
        self.table.store(key, hand, v.pn, v.dn, v.len, best, work);
    }

    /// The value of `child`, a position one move below the current node, for a search with
    /// `budget` plies left there, as far as known without searching it. Also says whether
    /// anything was known (a new node is not).
    pub(crate) fn lookup(&self, child: &Position, budget: Plies, depth: u32) -> (Value, bool) {
        self.lookup_keys(
            child.key(),
            child.board_key(),
            child.hand(self.attacker),
            budget,
            depth,
        )
    }

    /// The value of the child of `pos` reached by `mv` (at ply `ply`), without making the
    /// move.
    #[inline]
    fn lookup_move(&self, pos: &Position, mv: Move, budget: Plies, ply: u32) -> (Value, bool) {
        self.lookup_child(pos.keys_after(mv, self.attacker), budget, ply)
    }

    /// [`Search::lookup_move`] with the child's keys already made.
    #[inline]
    fn lookup_child(
        &self,
        (board, hands, hand): ChildKeys,
        budget: Plies,
        ply: u32,
    ) -> (Value, bool) {
        self.lookup_keys(board ^ hands, board, hand, budget, ply)
    }

    fn lookup_keys(
        &self,
        full: u64,
        board: u64,
        hand: Hand,
        budget: Plies,
        ply: u32,
    ) -> (Value, bool) {
        if let Some(at) = self.path.ply_of(full) {
            return (Value::disproven(hand, at, Plies::Unlimited), true);
        }
        if self.path.is_excluded(full, ply) {
            return (Value::disproven(hand, REP_OUTSIDE, Plies::Unlimited), true);
        }
        // The board of a node on the path, with no more in the attacker's hand (an inferior
        // repetition, 劣等局面): whatever mates this position mates that node too
        // (superiority), with a smaller tree and no more plies, so the smallest and the
        // shortest mates of that node never pass through it. Not mated on this path, like a
        // repetition: a loop that only costs the attacker pieces (a pawn dropped and taken
        // each time round) is then not searched cycle after cycle.
        if let Some(at) = self.path.inferior_ply(board, hand) {
            let v = Value::disproven(hand, at, Plies::Unlimited).through_inferior(at);
            return (v, true);
        }
        let usable = |r: &PathResult| match r.proof_rests_on {
            None => r.len >= budget,
            Some(_) => r.len <= budget,
        };
        let found = self.path.on_path_result(full).filter(usable).or_else(|| {
            let ply_of = |k| self.path.ply_of(k);
            (self.table.path_proofs).find(full, ply, self.by_depth, ply_of, usable)
        });
        if let Some(r) = found {
            let v = match r.proof_rests_on {
                None => Value::disproven(r.hand, r.disproof_rests_on, r.len)
                    .through_inferior(r.disproof_inferior),
                Some(at) => Value {
                    rests_plies: r.proof_rests_plies,
                    ..Value::proven(r.hand, r.len).resting_on(at)
                },
            };
            return (v, true);
        }
        let p = self.table.probe(self.table_key(board, ply), hand, budget);
        let v = Value {
            pn: p.pn,
            dn: p.dn,
            hand: p.hand,
            len: p.len,
            rep: NOT_ON_PATH,
            rests_on: NOT_ON_PATH,
            rests_plies: 0,
            inf: NOT_ON_PATH,
        };
        (v, p.found)
    }

    /// Searches an OR node (attacker to move) until its pn or dn reaches its threshold.
    /// `budget` is the most plies the mate may take from here ([`Plies::Unlimited`]: any).
    pub fn or_node(
        &mut self,
        pos: &Position,
        th_pn: PnDn,
        th_dn: PnDn,
        depth: u32,
        budget: Plies,
    ) -> Value {
        self.count_node();
        let start_nodes = self.monitor.nodes;
        let moves = pos.check_moves();
        if let Some(v) = self.or_node_at_once(pos, &moves, depth, budget) {
            return v;
        }
        let full = pos.key();
        self.path
            .enter_node(full, pos.board_key(), pos.hand(self.attacker), depth);
        self.crew_enter(full);
        let mut children = match self.expand_or(pos, &moves, depth, budget) {
            Ok(children) => children,
            Err(v) => {
                self.path.leave_node(full, pos.board_key());
                self.crew_leave(full);
                return v;
            }
        };
        let result = loop {
            // pn = the smallest child pn, dn = the children's weak dn.
            let Summary {
                best,
                min: pn,
                second,
                weak: dn,
            } = summarize(&children, |c| (c.v.pn, c.v.dn));
            if depth == 0 {
                self.monitor.root_pn = pn;
                self.monitor.root_dn = dn;
            }
            if pn == 0 {
                let (v, mv) = self.or_proof(pos, &children, depth);
                break self.close(pos, depth, v, Some(mv), start_nodes);
            }
            if dn == 0 {
                let v = self.or_disproof(pos, &children, depth);
                break self.close(pos, depth, v, None, start_nodes);
            }
            if pn >= th_pn || dn >= th_dn || self.monitor.stopped() {
                let v = self.open_value(pos, pn, dn, budget);
                break self.close(pos, depth, v, Some(children[best].mv), start_nodes);
            }
            let mut child_th_pn = epsilon_threshold(th_pn, second);
            let mut best = best;
            if let Some((i, second)) = self.steer(pos, &children, best, th_pn, |c| c.v.pn) {
                best = i;
                child_th_pn = epsilon_threshold(th_pn, second);
            }
            let child_th_dn = remaining_threshold(th_dn, dn, children[best].v.dn);
            let mut c = pos.clone();
            c.play_unchecked(children[best].mv);
            children[best].v = self.and_node(&c, child_th_pn, child_th_dn, depth + 1, budget.dec());
        };
        self.path.leave_node(full, pos.board_key());
        self.crew_leave(full);
        result
    }

    /// Records the value `v` that a node's search ends with (`best`: its move), with the work
    /// done since `start_nodes`, and returns it.
    fn close(
        &mut self,
        pos: &Position,
        depth: u32,
        v: Value,
        best: Option<Move>,
        start_nodes: u64,
    ) -> Value {
        let work = self.monitor.nodes - start_nodes + 1;
        self.record(pos, depth, v, best, work);
        v
    }

    /// The value of a node left open (a threshold reached, or the search stopped): an open
    /// node's `len` is the budget its numbers were searched with.
    fn open_value(&self, pos: &Position, pn: PnDn, dn: PnDn, budget: Plies) -> Value {
        Value {
            pn,
            dn,
            hand: pos.hand(self.attacker),
            len: budget,
            rep: NOT_ON_PATH,
            rests_on: NOT_ON_PATH,
            rests_plies: 0,
            inf: NOT_ON_PATH,
        }
    }

    /// The OR nodes decided without children: no check (no mate), no plies left, the depth
    /// limit, and one ply left ([`Search::or_node_last`]).
    fn or_node_at_once(
        &mut self,
        pos: &Position,
        moves: &[Move],
        depth: u32,
        budget: Plies,
    ) -> Option<Value> {
        let hand = pos.hand(self.attacker);
        if moves.is_empty() {
            // No check: disproven at once (0-ply no-mate).
            let v = Value::disproven(
                hands::disproof_without_checks(hand),
                NOT_ON_PATH,
                Plies::Unlimited,
            );
            self.record(pos, depth, v, None, 1);
            return Some(v);
        }
        if budget == Plies::ZERO {
            return Some(Value::disproven(Hand::FULL, NOT_ON_PATH, Plies::ZERO));
        }
        if depth >= self.monitor.max_depth() {
            self.monitor.depth_limited = true;
            return Some(Value::disproven(hand, REP_OUTSIDE, Plies::Unlimited));
        }
        if budget == Plies::new(1) {
            return Some(self.or_node_last(pos, moves, depth));
        }
        None
    }

    /// The children of an OR node (on the path), each check with its value as far as known,
    /// the table's best move first; or the node's value when a check is already proven (a
    /// mate in one, or a proof in the table).
    fn expand_or(
        &mut self,
        pos: &Position,
        moves: &[Move],
        depth: u32,
        budget: Plies,
    ) -> Result<Children, Value> {
        let child_budget = budget.dec();
        let mut children = Children::new();
        // Every check is looked up: its keys once, and all clusters asked for before the
        // first look-up so that their memory latencies overlap.
        let keys: SmallVec<[ChildKeys; 32]> = moves
            .iter()
            .map(|&mv| pos.keys_after(mv, self.attacker))
            .collect();
        for &k in &keys {
            self.prefetch_child(k, depth + 1);
        }
        for (&mv, &k) in moves.iter().zip(&keys) {
            let (mut v, known) = self.lookup_child(k, child_budget, depth + 1);
            if !known {
                // New AND node: mate if the defender has no reply (mate in one), else df-pn+
                // initial numbers from its replies.
                let n = self.table.memo.get_or(k.0 ^ k.1, || {
                    let mut c = pos.clone();
                    c.play_unchecked(mv);
                    initial_and_pn(&c)
                });
                if n == 0 {
                    let mut c = pos.clone();
                    c.play_unchecked(mv);
                    let ph = hands::interposition_guard(&c, self.attacker);
                    let ph = hands::proof_before_attack(pos, mv, ph);
                    let v = Value::proven(ph, Plies::new(1));
                    self.record(pos, depth, v, Some(mv), 1);
                    return Err(v);
                }
                v.pn = n;
                v.dn = 1;
            }
            if v.is_proven() {
                // Proven through the table (superiority): the first such child is taken, not
                // the shortest (the history of benches/README.md in git has the trial).
                // A proof from the path-keyed table rests on a path position, and so does
                // this one until the node it rests on is reached: it must not reach the
                // transposition table from here.
                let ph = hands::proof_before_attack(pos, mv, v.hand);
                let v = Value::proven(ph, v.len.inc())
                    .resting_on_all(&v)
                    .settled_at(depth);
                self.record(pos, depth, v, Some(mv), 1);
                return Err(v);
            }
            children.push(Child { mv, v, q: None });
        }
        // The table's best move from an earlier visit goes first (ties in pn keep order).
        let key = self.table_key(pos.board_key(), depth);
        if let Some(bm) = self.table.probe(key, pos.hand(self.attacker), budget).best {
            if let Some(i) = children.iter().position(|c| c.mv == bm) {
                children.swap(0, i);
            }
        }
        Ok(children)
    }

    /// The proof of an OR node with a proven child, and its move: the shortest proof among
    /// the proven children (one that holds on any path first among equally short ones).
    fn or_proof(&self, pos: &Position, children: &[Child], depth: u32) -> (Value, Move) {
        let ch = children
            .iter()
            .filter(|c| c.v.is_proven())
            .min_by_key(|c| (c.v.len, c.v.on_path_only()))
            .expect("a proven child");
        let ph = hands::proof_before_attack(pos, ch.mv, ch.v.hand);
        let v = Value::proven(ph, ch.v.len.inc())
            .resting_on_all(&ch.v)
            .settled_at(depth);
        (v, ch.mv)
    }

    /// The disproof of an OR node whose checks are all disproven.
    fn or_disproof(&self, pos: &Position, children: &[Child], depth: u32) -> Value {
        let hand = pos.hand(self.attacker);
        let mut dh = Hand::FULL;
        let mut rep = NOT_ON_PATH;
        let mut inf = NOT_ON_PATH;
        let mut holds = Plies::Unlimited;
        for ch in children {
            dh = dh.min(hands::disproof_before_attack(pos, ch.mv, ch.v.hand));
            rep = rep.min(ch.v.rep);
            inf = inf.min(ch.v.inf);
            holds = holds.min(ch.v.len.inc());
        }
        // One that rests on a repetition keeps the exact hand, even once settled here.
        let dh = if rep != NOT_ON_PATH {
            hand
        } else {
            hands::finish_or_disproof(hand, dh)
        };
        Value::disproven(dh, rep, holds)
            .through_inferior(inf)
            .settled_at(depth)
    }

    /// An OR node with one ply left: mated if one of its checks `moves` mates at once (the
    /// defender has no reply, or only futile interpositions), otherwise disproven for one
    /// ply. Decided here rather than by visiting every check's node: at the horizon of a
    /// search for a short mate these nodes and their children are most of the search (more
    /// than half of the nodes of a search within 11 plies of a random problem).
    fn or_node_last(&mut self, pos: &Position, moves: &[Move], depth: u32) -> Value {
        let mut rep = NOT_ON_PATH;
        let mut inf = NOT_ON_PATH;
        for &mv in moves {
            let mut c = pos.clone();
            c.play_unchecked(mv);
            // A position excluded here is not mated, whatever the board says (and the
            // answer holds on this path only). One on the path has replies: not a mate.
            if self.path.is_excluded(c.key(), depth + 1) {
                rep = REP_OUTSIDE;
                continue;
            }
            let replies = c.evasions();
            let v = if replies.is_empty() {
                Value::proven(hands::interposition_guard(&c, self.attacker), Plies::ZERO)
            } else {
                self.and_node_shallow(&c, &replies, Plies::ZERO, depth + 1)
            };
            if v.is_proven() {
                let ph = hands::proof_before_attack(pos, mv, v.hand);
                let v = Value::proven(ph, Plies::new(1))
                    .resting_on_all(&v)
                    .settled_at(depth);
                // One that rests on a path position is not recorded: the path-keyed table
                // expects the node on the path, and this one never enters it.
                if !v.on_path_only() {
                    self.record(pos, depth, v, Some(mv), 1);
                }
                return v;
            }
            rep = rep.min(v.rep);
            inf = inf.min(v.inf);
        }
        // Every check leaves the defender a reply: with this hand or less, no mate in one. A
        // result that rests on an exclusion is not recorded: the path-keyed table expects the
        // node on the path, and this one never enters it.
        let v = Value::disproven(pos.hand(self.attacker), rep, Plies::new(1)).through_inferior(inf);
        if rep == NOT_ON_PATH {
            self.record(pos, depth, v, None, 1);
        }
        v
    }

    /// Searches an AND node (defender to move, in check). `budget` is the most plies the
    /// mate may take from here ([`Plies::Unlimited`]: any). Interpositions against a distant check
    /// are refuted either by their own child (counted) or by their capture position (the
    /// futile-interposition rule: not counted, see `futile.rs`).
    pub fn and_node(
        &mut self,
        pos: &Position,
        th_pn: PnDn,
        th_dn: PnDn,
        depth: u32,
        budget: Plies,
    ) -> Value {
        self.count_node();
        let hand = pos.hand(self.attacker);
        let start_nodes = self.monitor.nodes;
        let evasions = pos.evasions();
        if evasions.is_empty() {
            return Value::proven(hands::interposition_guard(pos, self.attacker), Plies::ZERO);
        }
        if depth >= self.monitor.max_depth() {
            self.monitor.depth_limited = true;
            return Value::disproven(hand, REP_OUTSIDE, Plies::Unlimited);
        }
        if budget <= Plies::new(1) {
            return self.and_node_shallow(pos, &evasions, budget, depth);
        }
        let node = AndNode {
            pos,
            evasions: &evasions,
            distant: futile::distant_check(pos),
            defender_hand: pos.hand(self.attacker.flip()),
            budget,
            depth,
        };
        let full = pos.key();
        self.path.enter_node(full, pos.board_key(), hand, depth);
        self.crew_enter(full);
        let mut exp = Expansion::default();
        if let Some(v) = self.expand_and(&node, &mut exp) {
            self.path.leave_node(full, pos.board_key());
            self.crew_leave(full);
            return v;
        }

        let result = loop {
            // dn = the smallest child dn, pn = the children's weak pn.
            let Summary {
                best,
                min: dn,
                second,
                weak: pn,
            } = exp.summary_and();
            if dn == 0 {
                let v = self.refuted_by(pos, &exp.children[best], &exp.caps, depth);
                break self.close(pos, depth, v, Some(exp.children[best].mv), start_nodes);
            }
            if pn == 0 {
                let guard = hands::interposition_guard(pos, self.attacker);
                let (ph, len, longest) = exp.proof(guard, hand);
                let v = exp.resting(Value::proven(ph, len)).settled_at(depth);
                break self.close(pos, depth, v, Some(longest), start_nodes);
            }
            if pn >= th_pn || dn >= th_dn || self.monitor.stopped() {
                let v = self.open_value(pos, pn, dn, budget);
                break self.close(pos, depth, v, Some(exp.children[best].mv), start_nodes);
            }
            let mut child_th_dn = reply_epsilon_threshold(th_dn, second);
            let mut best = best;
            let caps = &exp.caps;
            if let Some((i, second)) =
                self.steer(pos, &exp.children, best, th_dn, |c| effective(c, caps).1)
            {
                best = i;
                child_th_dn = reply_epsilon_threshold(th_dn, second);
            }
            let (best_pn, _) = effective(&exp.children[best], &exp.caps);
            let child_th_pn = remaining_threshold(th_pn, pn, best_pn);
            if let Some(v) = self.descend_and(&node, best, (child_th_pn, child_th_dn), &mut exp) {
                break v;
            }
        };
        self.path.leave_node(full, pos.board_key());
        self.crew_leave(full);
        result
    }

    /// Searches below the AND node's reply `exp.children[best]` with the thresholds `th` it
    /// may use: its capture position (when it is an interposition whose capture is still open
    /// and looks no harder) or the reply itself. The reply is an OR of its two refutations,
    /// so each gets thresholds that leave room for the other. Returns the node's value if a
    /// drop brought in by a proof already disproves it.
    fn descend_and(
        &mut self,
        node: &AndNode<'_>,
        best: usize,
        (child_th_pn, child_th_dn): (PnDn, PnDn),
        exp: &mut Expansion,
    ) -> Option<Value> {
        let ch = &exp.children[best];
        let real = ch.v;
        let open_capture =
            ch.q.map(|i| (i as usize, exp.caps[i as usize]))
                .filter(|(_, q)| !q.is_disproven());
        match open_capture {
            Some((qi, q)) if real.is_disproven() || q.pn <= real.pn => {
                let th = if real.is_disproven() {
                    (child_th_pn, child_th_dn)
                } else {
                    (
                        epsilon_threshold(child_th_pn, real.pn),
                        remaining_threshold(child_th_dn, add(real.dn, q.dn), q.dn),
                    )
                };
                self.search_capture(node, best, qi, th, exp);
                None
            }
            _ => {
                let th = match open_capture {
                    Some((_, q)) => (
                        epsilon_threshold(child_th_pn, q.pn),
                        remaining_threshold(child_th_dn, add(real.dn, q.dn), real.dn),
                    ),
                    None => (child_th_pn, child_th_dn),
                };
                self.search_reply(node, best, th, exp)
            }
        }
    }

    /// The first expansion of an AND node: every board reply (with its capture position when
    /// it is an interposition), and the drops grouped by square, one kind at a time (delayed
    /// interposition: the next kind only once the previous one is proven). Returns the node's
    /// value if a child already disproves it.
    fn expand_and(&mut self, node: &AndNode<'_>, exp: &mut Expansion) -> Option<Value> {
        exp.folded = folded_squares(node.pos, node.distant);
        let mut drop_squares: SmallVec<[(Square, Move); 8]> = SmallVec::new();
        // The board replies are all looked up now: their clusters are asked for first, so
        // that the memory latencies overlap (the drops come in one kind at a time).
        let mut replies: SmallVec<[(Move, ChildKeys); 16]> = SmallVec::new();
        for &mv in node.evasions {
            if mv.is_drop() {
                if !drop_squares.iter().any(|&(s, _)| s == mv.to()) {
                    drop_squares.push((mv.to(), mv));
                }
                continue;
            }
            let k = node.pos.keys_after(mv, self.attacker);
            self.prefetch_child(k, node.depth + 1);
            replies.push((mv, k));
        }
        self.leave_out_repeated(node, !replies.is_empty(), &mut drop_squares, exp);
        for &(mv, k) in &replies {
            let q = self.new_capture(node, mv, exp);
            if let Some(v) = self.and_child_keys(node, mv, k, q, exp) {
                return Some(v);
            }
        }
        for &(sq, first) in &drop_squares {
            let q = self.new_capture(node, first, exp);
            if let Some(qi) = q {
                if exp.caps[qi as usize].is_proven() {
                    // Every drop on this square is futile: one child stands for them all.
                    let (v, _) =
                        self.lookup_move(node.pos, first, node.budget.dec(), node.depth + 1);
                    exp.settle(qi);
                    exp.children.push(Child {
                        mv: first,
                        v,
                        q: Some(qi),
                    });
                    continue;
                }
            }
            if let Some(v) = self.expand_drops(node, sq, 0, q, exp) {
                return Some(v);
            }
        }
        None
    }

    /// The saw rule (`futile.rs`): the drop squares whose capture position repeats a
    /// position of the path are left out of `drop_squares` when the node has another reply
    /// (`board_replies`, or a drop square that is not one), and `exp.repeated_at` says which
    /// path position the node's proof then rests on. One drop stands for its square: the
    /// capture position, the piece handed back, is the same whatever was dropped.
    fn leave_out_repeated(
        &self,
        node: &AndNode<'_>,
        board_replies: bool,
        drop_squares: &mut SmallVec<[(Square, Move); 8]>,
        exp: &mut Expansion,
    ) {
        let Some((checker, _)) = node.distant else {
            return;
        };
        let firsts: SmallVec<[Move; 8]> = drop_squares.iter().map(|&(_, mv)| mv).collect();
        let at = futile::repeated_plies(node.pos, checker, &firsts, board_replies, |k| {
            self.path.ply_of(k)
        });
        exp.repeated_at = at.iter().flatten().copied().collect();
        if !exp.repeated_at.is_empty() {
            let mut i = 0;
            drop_squares.retain(|_| {
                i += 1;
                at[i - 1].is_none()
            });
        }
    }

    /// Searches the capture position of the interposition `exp.children[best]` (its capture
    /// value `qi`) with thresholds `th`; a proven capture settles every drop on that square.
    fn search_capture(
        &mut self,
        node: &AndNode<'_>,
        best: usize,
        qi: usize,
        (tpn, tdn): (PnDn, PnDn),
        exp: &mut Expansion,
    ) {
        let mv = exp.children[best].mv;
        let (checker, _) = node.distant.expect("an interposition has a distant check");
        let nv = match futile::capture_position(node.pos, mv, checker) {
            Some(qpos) => self.and_node(&qpos, tpn, tdn, node.depth + 2, node.budget),
            None => Value::disproven(node.pos.hand(self.attacker), NOT_ON_PATH, Plies::Unlimited),
        };
        exp.caps[qi] = nv;
        if nv.is_proven() && mv.is_drop() {
            let before = exp.pending.len();
            exp.pending.retain(|(s, _)| *s != mv.to());
            if exp.pending.len() < before {
                exp.settle(qi as u8);
            }
        }
    }

    /// Searches the reply `exp.children[best]` itself with thresholds `th`; a proven
    /// interposition drop brings in the next kind on its square. Returns the node's value if
    /// that next drop already disproves it.
    fn search_reply(
        &mut self,
        node: &AndNode<'_>,
        best: usize,
        (tpn, tdn): (PnDn, PnDn),
        exp: &mut Expansion,
    ) -> Option<Value> {
        let ch = &exp.children[best];
        let (mv, q) = (ch.mv, ch.q);
        let mut c = node.pos.clone();
        c.play_unchecked(mv);
        let v = self.or_node(&c, tpn, tdn, node.depth + 1, node.budget.dec());
        exp.children[best].v = v;
        let capture_proven = q.is_some_and(|i| exp.caps[i as usize].is_proven());
        if v.is_proven() && mv.is_drop() && !capture_proven {
            // Proven interposition: expand the next kind on that square.
            let sq = mv.to();
            if let Some(pi) = exp.pending.iter().position(|&(s, _)| s == sq) {
                let (_, next) = exp.pending.swap_remove(pi);
                return self.expand_drops(node, sq, next as usize, q, exp);
            }
        }
        None
    }

    /// An AND node with too little budget for any counted reply (at most one ply): proven
    /// only if every reply is a futile interposition whose capture position is again such a
    /// node (a mate in 0 once futile interpositions are not counted).
    fn and_node_shallow(
        &mut self,
        pos: &Position,
        evasions: &[Move],
        budget: Plies,
        depth: u32,
    ) -> Value {
        let hand = pos.hand(self.attacker);
        let fail = Value::disproven(hand, NOT_ON_PATH, budget);
        let Some((checker, between)) = futile::distant_check(pos) else {
            return fail;
        };
        // A reply that is no interposition (a king move) is never futile: checked first, as
        // most nodes at the horizon end here.
        if evasions.iter().any(|mv| !between.contains(mv.to())) {
            return fail;
        }
        let mut ph = hands::interposition_guard(pos, self.attacker);
        // The saw rule: drop squares whose capture position repeats a position of the path
        // are left out when another reply is left (one drop stands for its square).
        let mut firsts: SmallVec<[Move; 8]> = SmallVec::new();
        for &mv in evasions {
            if mv.is_drop() && !firsts.iter().any(|f| f.to() == mv.to()) {
                firsts.push(mv);
            }
        }
        let board_replies = evasions.iter().any(|mv| !mv.is_drop());
        let at = futile::repeated_plies(pos, checker, &firsts, board_replies, |k| {
            self.path.ply_of(k)
        });
        // What the proof rests on, gathered in a proof's value.
        let mut rests = Value::proven(hand, Plies::ZERO);
        let mut done: SmallVec<[Square; 8]> = SmallVec::new();
        for (f, a) in firsts.iter().zip(&at) {
            if let Some(a) = *a {
                rests = rests.resting_on(a);
                done.push(f.to());
            }
        }
        for &mv in evasions {
            if mv.is_drop() && done.contains(&mv.to()) {
                continue;
            }
            let Some(q) = futile::capture_position(pos, mv, checker) else {
                return fail;
            };
            if self.path.is_excluded(q.key(), depth + 2) {
                return Value::disproven(hand, REP_OUTSIDE, budget);
            }
            let replies = q.evasions();
            let v = if replies.is_empty() {
                Value::proven(hands::interposition_guard(&q, self.attacker), Plies::ZERO)
            } else {
                self.and_node_shallow(&q, &replies, budget, depth + 2)
            };
            if !v.is_proven() {
                return fail;
            }
            rests = rests.resting_on_all(&v);
            ph = ph.max(v.hand);
            if mv.is_drop() {
                done.push(mv.to());
            }
        }
        Value::proven(ph.min(hand), Plies::ZERO)
            .resting_on_all(&rests)
            .settled_at(depth)
    }

    /// Adds the capture position of `mv` to `exp.caps` when `mv` is an interposition, with its
    /// value as far as the table knows (the capture position is an AND node two plies down
    /// with the node's own budget: the interposition and its capture are not counted); its
    /// index, or `None` if `mv` is no interposition or the checker cannot capture.
    fn new_capture(&mut self, node: &AndNode<'_>, mv: Move, exp: &mut Expansion) -> Option<u8> {
        let (checker, between) = node.distant?;
        if !between.contains(mv.to()) || exp.caps.len() >= u8::MAX as usize {
            return None;
        }
        let pos = node.pos;
        let (board, full) = futile::capture_keys(pos, mv, checker)?;
        let hand = pos.hand(self.attacker);
        let (mut v, known) = self.lookup_keys(full, board, hand, node.budget, node.depth + 2);
        if !known {
            v.pn = 1;
            v.dn = 1;
        }
        exp.caps.push(v);
        Some((exp.caps.len() - 1) as u8)
    }

    /// The disproof of AND node `pos` by the child `ch` (both of its refutations failed).
    fn refuted_by(&self, pos: &Position, ch: &Child, caps: &[Value], depth: u32) -> Value {
        let hand = pos.hand(self.attacker);
        let mut rep = ch.v.rep;
        let mut inf = ch.v.inf;
        let mut dh = ch.v.hand;
        let mut holds = ch.v.len.inc();
        if let Some(i) = ch.q {
            let q = caps[i as usize];
            rep = rep.min(q.rep);
            inf = inf.min(q.inf);
            dh = dh.min(q.hand);
            holds = holds.min(q.len);
        }
        // One that rests on a repetition keeps the exact hand, even once settled here.
        let dh = if rep != NOT_ON_PATH {
            hand
        } else {
            hands::disproof_before_defence(ch.mv, hand, dh)
        };
        Value::disproven(dh, rep, holds)
            .through_inferior(inf)
            .settled_at(depth)
    }

    /// Adds the child reached by `mv` (with its capture value `q`, for an interposition);
    /// returns the node's value if that child already disproves it.
    fn and_child(
        &mut self,
        node: &AndNode<'_>,
        mv: Move,
        q: Option<u8>,
        exp: &mut Expansion,
    ) -> Option<Value> {
        let k = node.pos.keys_after(mv, self.attacker);
        self.and_child_keys(node, mv, k, q, exp)
    }

    /// [`Search::and_child`] with the child's keys already made.
    fn and_child_keys(
        &mut self,
        node: &AndNode<'_>,
        mv: Move,
        keys: ChildKeys,
        q: Option<u8>,
        exp: &mut Expansion,
    ) -> Option<Value> {
        let (mut v, known) = self.lookup_child(keys, node.budget.dec(), node.depth + 1);
        // A new OR node with a normal search ahead: df-pn+ numbers from its checks, and none
        // at all refutes the node now. (With one ply left, `or_node_last` decides it at once.)
        if !known && node.budget.dec() > Plies::new(1) {
            let dn = self.table.memo.get_or(keys.0 ^ keys.1, || {
                let mut c = node.pos.clone();
                c.play_unchecked(mv);
                initial_or_dn(&c)
            });
            match dn {
                0 => {
                    // keys.2: the attacker's hand after the reply.
                    let dh = hands::disproof_without_checks(keys.2);
                    v = Value::disproven(dh, NOT_ON_PATH, Plies::Unlimited);
                }
                dn => v.dn = dn,
            }
        }
        let ch = Child { mv, v, q };
        if effective(&ch, &exp.caps).1 == 0 {
            let nv = self.refuted_by(node.pos, &ch, &exp.caps, node.depth);
            self.record(node.pos, node.depth, nv, Some(mv), 1);
            return Some(nv);
        }
        exp.children.push(ch);
        None
    }

    /// Adds the drops on `sq`, from kind index `from_kind` in [`DROP_ORDER`]: proven ones are
    /// added as proven children and skipped, and the first unproven one stays active with the
    /// rest pending. Returns the node's value if a drop disproves it.
    fn expand_drops(
        &mut self,
        node: &AndNode<'_>,
        sq: Square,
        from_kind: usize,
        q: Option<u8>,
        exp: &mut Expansion,
    ) -> Option<Value> {
        for (i, &k) in DROP_ORDER.iter().enumerate().skip(from_kind) {
            if !node.defender_hand.has(k) {
                continue;
            }
            let mv = Move::drop_unchecked(k, sq);
            if !node.evasions.contains(&mv) {
                continue;
            }
            if let Some(v) = self.and_child(node, mv, q, exp) {
                return Some(v);
            }
            let last = exp.children.last().expect("just added");
            if effective(last, &exp.caps).0 != 0 {
                if i + 1 < DROP_ORDER.len() {
                    exp.pending.push((sq, (i + 1) as u8));
                }
                return None;
            }
        }
        None
    }

    /// [`Search::solve_node`], giving up at node count `until`: `None` if it got there first.
    pub fn solve_until(
        &mut self,
        pos: &Position,
        kind: NodeKind,
        depth: u32,
        budget: Plies,
        until: u64,
    ) -> Option<Value> {
        self.monitor.set_cap(until);
        let v = self.solve_node(pos, kind, depth, budget);
        let hit = self.monitor.clear_cap();
        (!hit).then_some(v)
    }

    /// Solves `pos` (an OR node when `or`, else an AND node) as far as the limits allow,
    /// looking for a mate within `budget` plies.
    pub fn solve_node(
        &mut self,
        pos: &Position,
        kind: NodeKind,
        depth: u32,
        budget: Plies,
    ) -> Value {
        let offered = self.note_root_job(pos, kind, depth, budget);
        let v = loop {
            let v = if kind == NodeKind::Or {
                self.or_node(pos, INF_1, INF_1, depth, budget)
            } else {
                self.and_node(pos, INF_1, INF_1, depth, budget)
            };
            if depth == 0 {
                self.monitor.root_pn = v.pn;
                self.monitor.root_dn = v.dn;
            }
            if self.monitor.interrupted && self.is_main() {
                // A helper decided the root: its value holds here (same root, path and
                // exclusions).
                self.monitor.interrupted = false;
                if let Some((t, cut)) = self.helper_decision() {
                    self.monitor.depth_limited |= cut;
                    break t;
                }
                let (t, _) = self.lookup(pos, budget, depth);
                if t.pn == 0 || t.dn == 0 {
                    break t;
                }
                // Not there after all (a result that holds on the helper's path only):
                // search on, and take no more interruptions for this job.
                self.ignore_decisions();
                continue;
            }
            if v.pn == 0 || v.dn == 0 || self.monitor.stopped() {
                break v;
            }
        };
        if offered {
            self.end_root_job();
        }
        v
    }
    /// Whether `pos` (an OR node when `or`) is mated within `budget` plies on the path `keys`:
    /// from the table, then, given a `search` cap, by a bounded search of at most that many
    /// nodes. A budget of [`Plies::Unlimited`] or more asks for a mate of any length.
    pub(crate) fn within(
        &mut self,
        pos: &Position,
        kind: NodeKind,
        budget: i32,
        keys: &[u64],
        search: Option<u64>,
    ) -> Within {
        if budget < 0 || (kind == NodeKind::Or && budget < 1) {
            return Within::No;
        }
        let b = Plies::new(budget.min(u16::MAX as i32) as u16);
        self.within_plies(pos, kind, b, keys, search)
    }

    /// [`Search::within`] for a mate of any length.
    pub(crate) fn within_any(
        &mut self,
        pos: &Position,
        kind: NodeKind,
        keys: &[u64],
        search: Option<u64>,
    ) -> Within {
        self.within_plies(pos, kind, Plies::Unlimited, keys, search)
    }

    /// [`Search::within`] with the bound as [`Plies`]; the answer is recorded when the
    /// search is audited ([`AuditLog`](super::audit::AuditLog)).
    pub(crate) fn within_plies(
        &mut self,
        pos: &Position,
        kind: NodeKind,
        b: Plies,
        keys: &[u64],
        search: Option<u64>,
    ) -> Within {
        let answer = self.decide_within(pos, kind, b, keys, search);
        // A fresh table answers for the whole tree: not for one with positions excluded.
        let plain = |s: &Self| !s.by_depth && s.path.exclusions().is_none();
        if let Some(log) = self.monitor.audit().filter(|_| plain(self)) {
            log.record(Asked {
                pos: pos.clone(),
                kind,
                attacker: self.attacker,
                budget: b,
                keys: keys.to_vec(),
                max_depth: self.monitor.max_depth(),
                answer,
                side: None,
            });
        }
        answer
    }

    fn decide_within(
        &mut self,
        pos: &Position,
        kind: NodeKind,
        b: Plies,
        keys: &[u64],
        search: Option<u64>,
    ) -> Within {
        if keys.contains(&pos.key()) {
            return Within::No;
        }
        self.set_path(keys);
        let (v, _) = self.lookup(pos, b, keys.len() as u32);
        if let Some(w) = judged(&v) {
            return w;
        }
        match search {
            Some(cap) if self.monitor.aborted.is_none() => {
                let until = self.monitor.nodes + cap;
                self.solve_until(pos, kind, keys.len() as u32, b, until)
                    .and_then(|v| judged(&v))
                    .unwrap_or(Within::Unknown)
            }
            _ => Within::Unknown,
        }
    }

    /// The shortest mate the table records for `pos` (either kind of node) on the path `keys`,
    /// whatever the budget; no limit if none (so that it orders after every known mate).
    pub(crate) fn recorded_len(&mut self, pos: &Position, keys: &[u64]) -> Plies {
        self.set_path(keys);
        let (v, _) = self.lookup(pos, Plies::Unlimited, keys.len() as u32);
        if v.pn == 0 { v.len } else { Plies::Unlimited }
    }

    /// The counters of this search so far.
    pub fn stats(&self) -> Stats {
        Stats {
            nodes: self.monitor.all_nodes(),
            elapsed: self.elapsed(),
            table_fill: self.table.fill(),
            table_bytes: self.table.size_bytes(),
            first_proof_nodes: self.first_proof.map(|f| f.0),
            first_proof_time: self.first_proof.map(|f| f.1),
        }
    }
}

/// A decided value, if it is one.
pub(crate) fn judged(v: &Value) -> Option<Within> {
    if v.pn == 0 {
        Some(Within::Yes(v.len.plies()))
    } else if v.dn == 0 {
        Some(Within::No)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// G*5b mates at once; its final position is excluded when reached later than ply 1. From
    /// ply 0 the mate reaches it at ply 1 (allowed); from ply 2 (the same position after two
    /// other plies, as a transposition brings it), at ply 3 (excluded), and no other check
    /// mates. Keyed by depth, the proof found at ply 0 is not taken at ply 2.
    #[test]
    fn a_proof_under_ply_dependent_exclusions_is_not_taken_deeper() {
        let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").unwrap();
        let mut mated = pos.clone();
        mated.play_unchecked(Move::from_usi("G*5b").unwrap());
        assert!(mated.legal_moves().is_empty());
        let table = Table::new(1);
        table.new_search();
        let mut search = Search::new(&table, pos.side_to_move(), Limits::for_tests());
        search.exclude([(mated.key(), 1)].into_iter().collect());
        search.key_by_depth();
        let at0 = search.within_any(&pos, NodeKind::Or, &[], Some(10_000));
        assert_eq!(
            at0,
            Within::Yes(1),
            "the mate reaches the position at ply 1"
        );
        // Two path keys of no real position: the node is at ply 2.
        let at2 = search.within_any(&pos, NodeKind::Or, &[1, 2], Some(10_000));
        assert_eq!(at2, Within::No, "from ply 2 the mate comes too late");
    }

    /// The first proof's node count includes the nodes the helpers have counted so far,
    /// as `Stats::nodes` does: it is compared with single-thread solvers.
    #[test]
    fn the_first_proof_counts_every_thread() {
        use std::sync::atomic::Ordering;
        let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").unwrap();
        let table = Table::new(1);
        table.new_search();
        let crew = Crew::new(2);
        let mut search = Search::new(&table, pos.side_to_move(), Limits::for_tests());
        search.join_crew_as_main(&crew);
        assert_eq!(
            search.solve_node(&pos, NodeKind::Or, 0, Plies::new(1)).pn,
            0
        );
        let own = search.nodes();
        // A helper's nodes, counted towards the crew's total.
        crew.node_counter().fetch_add(5_000, Ordering::Relaxed);
        search.mark_first_proof(Some(1));
        let stats = search.stats();
        assert_eq!(stats.first_proof_nodes, Some(own + 5_000));
        assert_eq!(stats.nodes, own + 5_000);
    }
}

#[cfg(test)]
mod saw_tests {
    use super::*;

    /// The horse saw of `futile.rs`'s docs: P (the horse on 3c checks the king on 1a), the
    /// king steps to 1b and back while the horse goes 3c-3d-4d, and at N the horse checks
    /// again from 4d, across 3c. A drop on 3c, taken by the horse, brings P back.
    fn saw() -> (Vec<u64>, Position) {
        let mut pos = Position::from_sfen("8k/9/6+B1p/8N/9/9/9/9/9 w G2rb3g4s3n4l17p 1").unwrap();
        let mut keys = vec![];
        for usi in ["1a1b", "3c3d", "1b1a", "3d4d"] {
            keys.push(pos.key());
            pos.play(Move::from_usi(usi).unwrap()).unwrap();
        }
        (keys, pos)
    }

    #[test]
    fn a_repeated_interposition_is_left_out() {
        let (keys, n) = saw();
        let table = Table::new(1);
        table.new_search();
        let mut search = Search::new(&table, Color::Black, Limits::for_tests());
        for budget in [2, 3] {
            let on_line = search.within(&n, NodeKind::And, budget, &keys, Some(100_000));
            assert_eq!(on_line, Within::Yes(2), "on the line, within {budget}");
            let alone = search.within(&n, NodeKind::And, budget, &[], Some(100_000));
            assert_eq!(alone, Within::Yes(2), "alone, within {budget}");
        }
    }
}
