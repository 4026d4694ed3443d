//! The parallel search: helper threads that search the same root as the main thread, over the
//! one shared table.
//!
//! # Design
//!
//! A search with `threads` threads is the single-thread search on one thread (the *main*
//! thread: it runs the whole pipeline of first proof, shortening, tightening and line walk,
//! exactly as with one thread) and `threads - 1` *helpers*. Whenever the main thread has spent
//! [`HELP_AFTER`] nodes in one df-pn search (a call of `Search::solve_node`, the root of the
//! first proof or one of the later bounded searches), it offers that search as a *job*: the
//! root position, its kind, ply, budget and path. Each helper runs the same df-pn search from
//! the same root on the shared [transposition table](super::tt): what they share is the table
//! (proofs, disproofs, and the numbers of open nodes) and the memo of initial numbers; each
//! thread has its own path, repetition table and node count.
//!
//! Threads that ran the same deterministic search would walk the same nodes one after the
//! other. The helpers are kept apart in two ways:
//!
//! - *Busy marks.* Every thread marks the nodes on its current path in a small shared array
//!   (a counter per slot, indexed by key). When a thread chooses the child to search next, a
//!   child another thread is inside counts as harder than it is: its proof number (at an OR
//!   node; its disproof number at an AND node) is raised by a half, once per thread inside.
//!   This is the virtual proof number of Kaneko's parallel df-pn, on the numbers of the
//!   1+ε trick: the thread takes the second-best child unless the best one is clearly better.
//!   Only the choice is affected; the numbers a node reports and stores are the true ones.
//! - *Noise.* Each helper breaks near ties between children its own way (a per-thread
//!   pseudo-random choice among children whose numbers are within an eighth of the best), so
//!   that two helpers that reach the same free node do not descend together.
//!
//! A thread that decides the job's root (proven or disproven within its budget) has stored the
//! result in the table and raises a flag; the main thread, which looks at it with its limits
//! (every 1024 nodes), unwinds, reads the root's result from the table and goes on with its
//! pipeline. When the main thread's search of the job ends, the job is withdrawn and every
//! helper stops within 1024 nodes of its own and waits for the next one.
//!
//! # What stays true
//!
//! Every entry of the table is a fact about a position that holds whatever thread wrote it
//! (results that hold on one path only never reach the table, see
//! [`Search`](super::search::Search)), and each slot is read whole (see
//! [`tt`](super::tt)): a proof found by a helper is a proof. The answer's line is walked and
//! verified by the main thread, as with one thread. With one thread there are no helpers, no
//! marks and no noise: the search is the single-thread search, node for node.
//!
//! # Limits
//!
//! The node limit counts the nodes of all threads; the time limit and a stop are watched by
//! every thread, so that each stops within 1024 of its own nodes. The table budget
//! ([`SolverConfig::hash_mib`](super::SolverConfig::hash_mib)) is the one table's; the
//! repetition tables of the threads' paths share the part of it they may take.

use super::monitor::Limits;
use super::plies::Plies;
use super::search::{NodeKind, Search};
use super::tt::Table;
use crate::position::Position;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// Nodes the main thread searches in one df-pn search before it offers the search to the
/// helpers: a search smaller than this ends before a helper would have woken up and looked up
/// its first nodes (a few hundred microseconds), and the line walk runs thousands of them.
pub(crate) const HELP_AFTER: u64 = 2048;

/// Slots of the busy marks: enough that the paths of a few threads (hundreds of nodes each on a
/// long problem) seldom share a slot, and small enough to stay in the cache.
const BUSY_SLOTS: usize = 1 << 16;

/// A df-pn search offered to the helpers.
pub(crate) struct Job {
    /// Its number: a helper works on a job only while it is the one on offer.
    pub id: u64,
    pub pos: Position,
    pub kind: NodeKind,
    pub depth: u32,
    pub budget: Plies,
    /// The positions (full keys) on the path to the root, as the main thread's search has them.
    pub path: Vec<u64>,
}

/// What the threads of one parallel search share besides the table: the job on offer, the
/// flags that end it, the helpers' node count and the busy marks.
pub(crate) struct Crew {
    /// The job on offer (`None` between jobs), and whether the helpers are to quit.
    offer: Mutex<(Option<Arc<Job>>, bool)>,
    wake: Condvar,
    /// The id of the job on offer, 0 when none: a helper whose job is not this one stops.
    current: AtomicU64,
    /// The id of the last job whose root a helper decided.
    decided: AtomicU64,
    /// The last job id given out.
    last_id: AtomicU64,
    /// Nodes all threads searched (each adds its own when it looks at its limits).
    nodes: AtomicU64,
    /// Threads inside each slot's nodes (see the module docs).
    busy: Box<[AtomicU8]>,
    /// Threads of the search, the main one included.
    threads: usize,
}

impl Crew {
    /// The crew of a search on `threads` threads.
    pub fn new(threads: usize) -> Crew {
        Crew {
            offer: Mutex::new((None, false)),
            wake: Condvar::new(),
            current: AtomicU64::new(0),
            decided: AtomicU64::new(0),
            last_id: AtomicU64::new(0),
            nodes: AtomicU64::new(0),
            busy: (0..BUSY_SLOTS).map(|_| AtomicU8::new(0)).collect(),
            threads,
        }
    }

    /// Threads of the search, the main one included.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Offers a search to the helpers; its job id.
    pub fn post(
        &self,
        pos: &Position,
        kind: NodeKind,
        depth: u32,
        budget: Plies,
        path: &[u64],
    ) -> u64 {
        let id = self.last_id.fetch_add(1, Ordering::Relaxed) + 1;
        let job = Arc::new(Job {
            id,
            pos: pos.clone(),
            kind,
            depth,
            budget,
            path: path.to_vec(),
        });
        let mut offer = self.offer.lock().unwrap_or_else(|e| e.into_inner());
        offer.0 = Some(job);
        self.current.store(id, Ordering::Release);
        self.wake.notify_all();
        id
    }

    /// Withdraws job `id`: the helpers stop working on it.
    pub fn withdraw(&self, id: u64) {
        let mut offer = self.offer.lock().unwrap_or_else(|e| e.into_inner());
        if offer.0.as_ref().is_some_and(|j| j.id == id) {
            offer.0 = None;
            self.current.store(0, Ordering::Release);
        }
    }

    /// Tells the helpers to quit once their job ends (with it withdrawn, at once).
    pub fn quit(&self) {
        let mut offer = self.offer.lock().unwrap_or_else(|e| e.into_inner());
        offer.0 = None;
        offer.1 = true;
        self.current.store(0, Ordering::Release);
        self.wake.notify_all();
    }

    /// Whether job `id` is still the one on offer.
    #[inline]
    pub fn is_current(&self, id: u64) -> bool {
        self.current.load(Ordering::Relaxed) == id
    }

    /// Whether a helper decided the root of job `id`.
    #[inline]
    pub fn was_decided(&self, id: u64) -> bool {
        self.decided.load(Ordering::Acquire) == id
    }

    /// The count of the nodes all threads searched.
    pub fn node_counter(&self) -> &AtomicU64 {
        &self.nodes
    }

    #[inline]
    fn busy_slot(&self, key: u64) -> &AtomicU8 {
        &self.busy[(key >> 48) as usize & (BUSY_SLOTS - 1)]
    }

    /// A thread enters the node with board key `key`.
    #[inline]
    pub fn enter(&self, key: u64) {
        // Every enter is followed by its leave on the same thread: the counts balance (a
        // slot would wrap only with 256 nodes inside it at once).
        self.busy_slot(key).fetch_add(1, Ordering::Relaxed);
    }

    /// A thread leaves the node with board key `key`.
    #[inline]
    pub fn leave(&self, key: u64) {
        self.busy_slot(key).fetch_sub(1, Ordering::Relaxed);
    }

    /// Threads inside the node with board key `key` (an estimate: slots are shared).
    #[inline]
    pub fn busy(&self, key: u64) -> u32 {
        self.busy_slot(key).load(Ordering::Relaxed) as u32
    }

    /// The next job for a helper that last worked on job `after`; `None` when it is to quit.
    fn next_job(&self, after: u64) -> Option<Arc<Job>> {
        let mut offer = self.offer.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if offer.1 {
                return None;
            }
            if let Some(job) = &offer.0 {
                if job.id > after {
                    return Some(job.clone());
                }
            }
            offer = self.wake.wait(offer).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Marks job `id` decided by a helper, if it is still on offer.
    fn decide(&self, id: u64) {
        if self.is_current(id) {
            self.decided.store(id, Ordering::Release);
        }
    }
}

/// A helper thread's work: each job on offer, searched from its root on the shared `table`
/// until it is decided or withdrawn, until the crew quits. `index` (1, 2, ...) seeds the
/// helper's noise; `limits` are the node limit (of all threads' nodes together) and the stop
/// flag it watches (the main thread watches the time and withdraws the job).
pub(crate) fn help(crew: &Crew, table: &Table, index: usize, limits: impl Fn() -> Limits<'static>) {
    let mut last = 0;
    while let Some(job) = crew.next_job(last) {
        last = job.id;
        let attacker = match job.kind {
            NodeKind::Or => job.pos.side_to_move(),
            NodeKind::And => job.pos.side_to_move().flip(),
        };
        let mut search = Search::new(table, attacker, limits());
        search.join_crew_as_helper(crew, job.id, index as u64);
        search.set_path(&job.path);
        let v = search.solve_node(&job.pos, job.kind, job.depth, job.budget);
        if (v.pn == 0 || v.dn == 0) && search.aborted().is_none() && !search.left_job() {
            crew.decide(job.id);
        }
        search.publish_nodes();
    }
}
