//! The parallel search's crew: what the threads of one search share besides the table (the
//! job on offer, the flags that end it, the node count and the busy marks), and the helper
//! threads' loop. The design (what is shared, how threads keep apart, how a proof by one
//! stops the others, what stays deterministic) is in the [solver module's
//! docs](super#parallel-search); the main thread's part is in `Search` (`steer`,
//! `crew_tick`, `solve_node`).

use super::monitor::Limits;
use super::plies::Plies;
use super::pn::Value;
use super::search::{NodeKind, Search};
use super::tt::Table;
use crate::position::Position;
use crate::zobrist::KeyMap;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};
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
    /// How the search is set up beyond its root: its table, exclusions and keys.
    pub scope: Scope,
    /// Helpers working on the job: a job on a side table is withdrawn only once this is 0.
    users: AtomicUsize,
    /// The root's value as a helper decided it, and whether that helper's search cut a line
    /// at the maximum depth. The main thread takes it from here rather than from the table:
    /// a result that holds on the root's path only (it rests on a repetition, an excluded
    /// position or the depth limit) never reaches the table, but the helper searched the
    /// root on the main thread's path, with its exclusions, so it holds for the main thread.
    decided: Mutex<Option<(Value, bool)>>,
    /// Nodes the helpers searched on the job (each adds its own when it looks at its
    /// limits): a checker's question counts them against its node share.
    helper_nodes: AtomicU64,
}

impl Job {
    /// Nodes the helpers have searched on the job so far.
    pub fn helper_nodes(&self) -> u64 {
        self.helper_nodes.load(Ordering::Relaxed)
    }

    /// Adds `n` nodes a helper searched on the job.
    pub fn add_helper_nodes(&self, n: u64) {
        self.helper_nodes.fetch_add(n, Ordering::Relaxed);
    }

    /// The root's value as a helper decided it, and whether that helper's search cut a
    /// line at the maximum depth.
    pub fn decision(&self) -> Option<(Value, bool)> {
        *self.decided.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// How a search offered to the helpers is set up beyond its root, so that a helper's results
/// mean what the main thread's mean: the table it runs on (the crew's own, or a checker's
/// side table lent for as long as the search lasts), the positions it excludes and whether
/// its entries are keyed by ply (see `Search::exclude` and `Search::key_by_depth`).
pub(crate) struct Scope {
    /// A table of the main thread's own instead of the crew's.
    pub side_table: Option<LentTable>,
    /// The positions the search excludes (`Search::exclude`).
    pub excluded: Option<KeyMap<u64, u32>>,
    /// Whether its table entries are keyed by ply (`Search::key_by_depth`).
    pub by_depth: bool,
}

/// A table a main thread lends its helpers for one job (a checker's side table).
pub(crate) struct LentTable(NonNull<Table>);

// SAFETY: a `Table` is shared between threads by design (its slots are sequence locks). The
// pointer is followed only through `LentTable::get`, by helpers counted in the job's `users`;
// the search that lends the table waits in `Crew::withdraw` (called when that search ends
// or is dropped, while it still borrows the table) until no helper is left in the job.
unsafe impl Send for LentTable {}
unsafe impl Sync for LentTable {}

impl LentTable {
    /// Lends `table` (borrowed by the lending search for as long as the job is offered).
    pub fn new(table: &Table) -> LentTable {
        LentTable(NonNull::from(table))
    }

    /// The table, for a helper counted in `job`'s users, for as long as it borrows `job`.
    fn get(job: &Job) -> Option<&Table> {
        // SAFETY: see the `Send` and `Sync` impls: the caller is counted in `job.users`
        // (it holds a `Leaving` for it), so the lender has not returned from `withdraw` and
        // the table is alive and not borrowed mutably.
        job.scope
            .side_table
            .as_ref()
            .map(|lent| unsafe { lent.0.as_ref() })
    }
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

    /// Offers the search from `root` on `path`, set up as `scope` says, to the helpers.
    pub fn post(&self, root: &Root, path: &[u64], scope: Scope) -> Arc<Job> {
        let id = self.last_id.fetch_add(1, Ordering::Relaxed) + 1;
        let job = Arc::new(Job {
            id,
            root: root.clone(),
            path: path.to_vec(),
            scope,
            users: AtomicUsize::new(0),
            decided: Mutex::new(None),
            helper_nodes: AtomicU64::new(0),
        });
        let mut offer = self.offer.lock().unwrap_or_else(|e| e.into_inner());
        offer.0 = Some(job.clone());
        self.current.store(id, Ordering::Release);
        self.wake.notify_all();
        job
    }

    /// Withdraws `job`: the helpers stop working on it. For a job on a side table, waits
    /// until the last helper has left it (within 1,024 of its nodes), so that the table may
    /// then be cleared or dropped.
    pub fn withdraw(&self, job: &Job) {
        {
            let mut offer = self.offer.lock().unwrap_or_else(|e| e.into_inner());
            if offer.0.as_ref().is_some_and(|j| j.id == job.id) {
                offer.0 = None;
                self.current.store(0, Ordering::Release);
            }
        }
        if job.scope.side_table.is_some() {
            while job.users.load(Ordering::Acquire) > 0 {
                std::thread::yield_now();
            }
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
                    // Counted while the offer is locked: a withdrawal either comes first
                    // (and the job is not taken) or waits for this helper.
                    job.users.fetch_add(1, Ordering::AcqRel);
                    return Some(job.clone());
                }
            }
            offer = self.wake.wait(offer).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Marks `job` decided by a helper as `value`, if it is still on offer.
    fn decide(&self, job: &Job, value: Value, depth_limited: bool) {
        if self.is_current(job.id) {
            *job.decided.lock().unwrap_or_else(|e| e.into_inner()) = Some((value, depth_limited));
            self.decided.store(job.id, Ordering::Release);
        }
    }
}

/// A helper's place in a job's count of helpers (`Job::users`), given up when dropped.
struct Leaving<'j>(&'j Job);

impl Drop for Leaving<'_> {
    fn drop(&mut self) {
        self.0.users.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A helper thread's work: each job on offer, searched from its root on the shared `table`
/// (or the table the job lends) until it is decided or withdrawn, until the crew quits.
/// `index` (1, 2, ...) seeds the helper's noise; `limits` are the node limit (of all
/// threads' nodes together) and the stop flag it watches (the main thread watches the time
/// and withdraws the job).
pub(crate) fn help(crew: &Crew, table: &Table, index: usize, limits: impl Fn() -> Limits<'static>) {
    let mut last = 0;
    while let Some(job) = crew.next_job(last) {
        last = job.id;
        // Counted out when this turn ends, after `search_job` let go of the table, even if
        // it panicked.
        let _user = Leaving(&job);
        if crew.is_current(job.id) {
            search_job(
                crew,
                &job,
                LentTable::get(&job).unwrap_or(table),
                index,
                limits(),
            );
        }
    }
}

/// A helper's search of `job` on `table` (the job's, as long as `job` is borrowed).
fn search_job<'j>(
    crew: &'j Crew,
    job: &'j Job,
    table: &'j Table,
    index: usize,
    limits: Limits<'j>,
) {
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
    let mut search = Search::new(table, attacker, limits);
    search.join_crew_as_helper(crew, job, index as u64);
    if let Some(excluded) = &job.scope.excluded {
        search.exclude(excluded.clone());
    }
    if job.scope.by_depth {
        search.key_by_depth();
    }
    search.set_path(&job.path);
    let v = search.solve_node(pos, *kind, *depth, *budget);
    if (v.pn == 0 || v.dn == 0) && search.aborted().is_none() && !search.left_job() {
        crew.decide(job, v, search.depth_limited());
    }
    search.publish_nodes();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Microcosmos (1525 plies): a search that runs long.
    fn microcosmos() -> Position {
        Position::from_sfen(
            "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1",
        )
        .unwrap()
    }

    /// With `count_helpers_in_caps` (a checker's question), the helpers' nodes in a bounded
    /// search count towards its cap: the nodes of all threads stay near the cap, where they
    /// would come to about twice the cap with each thread counting only its own.
    #[test]
    fn a_capped_search_counts_its_helpers_nodes() {
        let pos = microcosmos();
        let table = Table::new(16);
        let crew = Crew::new(2);
        let cap = 400_000;
        // Deep enough that the search runs past its cap (1525 plies to the mate).
        let limits = || Limits {
            max_depth: 2000,
            ..Limits::for_tests()
        };
        let own = std::thread::scope(|s| {
            s.spawn(|| help(&crew, &table, 1, limits));
            let mut search = Search::new(&table, pos.side_to_move(), limits());
            search.join_crew_as_main(&crew);
            search.count_helpers_in_caps();
            let v = search.solve_until(&pos, NodeKind::Or, 0, Plies::Unlimited, cap);
            search.publish_nodes();
            let own = search.nodes();
            drop(search);
            // Before any assertion: a panic here would leave the helper waiting.
            crew.quit();
            assert!(v.is_none(), "the search ends at its cap, not with {v:?}");
            own
        });
        let all = crew.node_counter().load(Ordering::Relaxed);
        assert!(own <= cap + 1024, "{own} nodes of its own");
        // Each thread adds its nodes every 1,024; a thread that runs ahead of the other
        // between two looks may overshoot by a few thousand, never by half the cap.
        assert!(
            all < cap + cap / 2,
            "{all} nodes of all threads for a cap of {cap}"
        );
    }

    /// A job on a lent table is withdrawn only once its helper has left it: after
    /// `withdraw` returns, no helper counts itself in, and the table may go.
    #[test]
    fn a_lent_table_is_given_back_before_withdraw_returns() {
        // A search that runs until it is withdrawn.
        let pos = microcosmos();
        let table = Table::new(1);
        let crew = Crew::new(2);
        std::thread::scope(|s| {
            s.spawn(|| help(&crew, &table, 1, Limits::for_tests));
            for round in 0..3 {
                let side = Table::new(1);
                side.new_search();
                let root = Root {
                    pos: pos.clone(),
                    kind: NodeKind::Or,
                    depth: 0,
                    budget: Plies::Unlimited,
                };
                let scope = Scope {
                    side_table: Some(LentTable::new(&side)),
                    excluded: None,
                    by_depth: false,
                };
                let job = crew.post(&root, &[], scope);
                while job.users.load(Ordering::Acquire) == 0 {
                    std::thread::yield_now();
                }
                // The helper is searching on `side`.
                std::thread::sleep(std::time::Duration::from_millis(20 * round));
                crew.withdraw(&job);
                assert_eq!(job.users.load(Ordering::Acquire), 0);
                assert!(job.decision().is_none());
                drop(side);
            }
            crew.quit();
        });
    }
}
