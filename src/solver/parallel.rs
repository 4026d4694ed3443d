//! The parallel search's crew: what the threads of one search share besides the table (the
//! job on offer, the flags that end it, the node count and the busy marks), and the helper
//! threads' loop. The design (what is shared, how threads keep apart, how a proof by one
//! stops the others, what stays deterministic) is in the [solver module's
//! docs](super#parallel-search); the main thread's part is in `Search` (`steer`,
//! `crew_tick`, `solve_node`).

use super::monitor::Limits;
use super::plies::Plies;
use super::search::{NodeKind, Search};
use super::tt::Table;
use crate::position::Position;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// Slots of the busy marks: enough that the paths of a few threads (hundreds of nodes each on a
/// long problem) seldom share a slot, and small enough to stay in the cache.
const BUSY_SLOTS: usize = 1 << 16;

/// The root of a df-pn search: what `Search::solve_node` is given.
#[derive(Clone)]
pub(crate) struct Root {
    pub pos: Position,
    pub kind: NodeKind,
    pub depth: u32,
    pub budget: Plies,
}

/// A df-pn search offered to the helpers.
pub(crate) struct Job {
    /// Its number: a helper works on a job only while it is the one on offer.
    pub id: u64,
    pub root: Root,
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
    /// Whether the main threads keep their searches to themselves for now (see
    /// [`Crew::hold_offers`]).
    held: AtomicBool,
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
            held: AtomicBool::new(false),
        }
    }

    /// Holds back (or lets through) the offers of the main threads' searches: while the
    /// checker's question workers keep every thread busy, a helper would only slow them
    /// down; once one of them runs out of questions, the helpers join the searches still
    /// under way.
    pub fn hold_offers(&self, held: bool) {
        self.held.store(held, Ordering::Relaxed);
    }

    /// Whether offers are held back ([`Crew::hold_offers`]).
    #[inline]
    pub fn offers_held(&self) -> bool {
        self.held.load(Ordering::Relaxed)
    }

    /// Threads of the search, the main one included.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Offers the search from `root` on `path` to the helpers; its job id.
    pub fn post(&self, root: &Root, path: &[u64]) -> u64 {
        let id = self.last_id.fetch_add(1, Ordering::Relaxed) + 1;
        let job = Arc::new(Job {
            id,
            root: root.clone(),
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
        let Root {
            pos,
            kind,
            depth,
            budget,
        } = &job.root;
        let attacker = match kind {
            NodeKind::Or => pos.side_to_move(),
            NodeKind::And => pos.side_to_move().flip(),
        };
        let mut search = Search::new(table, attacker, limits());
        search.join_crew_as_helper(crew, job.id, index as u64);
        search.set_path(&job.path);
        let v = search.solve_node(pos, *kind, *depth, *budget);
        if (v.pn == 0 || v.dn == 0) && search.aborted().is_none() && !search.left_job() {
            crew.decide(job.id);
        }
        search.publish_nodes();
    }
}
