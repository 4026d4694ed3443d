//! Node counting, limits and progress reports for one search: everything that can make a
//! search stop, behind one signal ([`Monitor::stopped`]).

use super::audit::AuditLog;
use super::outcome::{Progress, StopReason};
use super::pn::PnDn;
use super::tt::Table;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The limits and the progress callback a search runs under.
pub(crate) struct Limits<'a> {
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    pub stop: Arc<AtomicBool>,
    pub max_depth: u32,
    pub progress_every: Duration,
    pub progress: Option<&'a mut (dyn FnMut(&Progress) + Send + 'static)>,
    /// Where the search's bounded answers are recorded, when it is audited.
    pub audit: Option<AuditLog>,
}

impl Limits<'static> {
    /// No limits, a depth of 64 plies and no progress reports: for the unit tests' searches.
    #[cfg(test)]
    pub fn for_tests() -> Limits<'static> {
        Limits {
            nodes: None,
            time: None,
            stop: Arc::new(AtomicBool::new(false)),
            max_depth: 64,
            progress_every: Duration::from_secs(3600),
            progress: None,
            audit: None,
        }
    }
}

/// The boxed progress callback a [`Solver`](super::Solver) keeps.
pub(crate) type ProgressFn = Box<dyn FnMut(&Progress) + Send>;

/// The limits are looked at every this many nodes: often enough for a stop to be seen within
/// a few milliseconds, rarely enough to cost nothing.
const CHECK_EVERY: u64 = 1024;

/// Counts nodes and watches the limits of one search.
pub(crate) struct Monitor<'a> {
    limits: Limits<'a>,
    /// Nodes searched so far.
    pub nodes: u64,
    start: Instant,
    next_check: u64,
    last_progress: Instant,
    /// Why the whole search stopped, once a limit ran out.
    pub aborted: Option<StopReason>,
    /// When a time limit or a stop was seen to run out.
    aborted_at: Option<Instant>,
    /// A result rested on lines cut at the maximum depth.
    pub depth_limited: bool,
    /// A node count at which the current bounded sub-search gives up; reaching it sets
    /// `cap_hit`, not `aborted`.
    cap_at: Option<u64>,
    cap_hit: bool,
    /// The root's numbers at their last update, for progress reports.
    pub root_pn: PnDn,
    pub root_dn: PnDn,
    /// The length of the root's first proven mate, for progress reports.
    pub first_mate: Option<u16>,
    /// The shortest mate of the root proven so far, for progress reports.
    pub shortest_mate: Option<u16>,
    /// The nodes of all threads of a parallel search, this one's up to `published`: what
    /// the node limit and the progress reports count.
    shared_nodes: Option<&'a AtomicU64>,
    published: u64,
    /// The current df-pn search must unwind, for its parallel search (a helper decided the
    /// main thread's root, or a helper's job was withdrawn); not a limit.
    pub interrupted: bool,
}

impl<'a> Monitor<'a> {
    pub fn new(limits: Limits<'a>) -> Monitor<'a> {
        let now = Instant::now();
        Monitor {
            limits,
            nodes: 0,
            start: now,
            next_check: CHECK_EVERY,
            last_progress: now,
            aborted: None,
            depth_limited: false,
            cap_at: None,
            cap_hit: false,
            root_pn: 1,
            root_dn: 1,
            first_mate: None,
            shortest_mate: None,
            shared_nodes: None,
            published: 0,
            interrupted: false,
            aborted_at: None,
        }
    }

    /// Counts this search's nodes into `shared`, the count of all threads of a parallel
    /// search, which the node limit and the progress reports then count.
    pub fn share_nodes(&mut self, shared: &'a AtomicU64) {
        self.shared_nodes = Some(shared);
        self.published = self.nodes;
    }

    /// Adds this search's nodes not yet counted to the shared count.
    pub fn publish(&mut self) {
        if let Some(shared) = self.shared_nodes {
            shared.fetch_add(self.nodes - self.published, Ordering::Relaxed);
            self.published = self.nodes;
        }
    }

    /// Nodes of all threads (this one's only, without a parallel search).
    pub fn all_nodes(&self) -> u64 {
        match self.shared_nodes {
            Some(shared) => shared.load(Ordering::Relaxed) + (self.nodes - self.published),
            None => self.nodes,
        }
    }

    /// Looks at the limits at node count `at` at the latest.
    pub fn check_by(&mut self, at: u64) {
        self.next_check = self.next_check.min(at.max(self.nodes + 1));
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// What is left of the time limit, if there is one.
    pub fn time_left(&self) -> Option<Duration> {
        self.limits
            .time
            .map(|t| t.saturating_sub(self.start.elapsed()))
    }

    /// The deepest ply the search may reach.
    pub fn max_depth(&self) -> u32 {
        self.limits.max_depth
    }

    /// Where the search's bounded answers are recorded, when it is audited.
    pub fn audit(&self) -> Option<&AuditLog> {
        self.limits.audit.as_ref()
    }

    /// Whether the current search must unwind: a limit ran out, or the bounded sub-search's
    /// cap was reached. The one signal the df-pn loops look at.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.aborted.is_some() || self.cap_hit || self.interrupted
    }

    /// Counts a node visit; the limits are looked at every [`CHECK_EVERY`] nodes (then it
    /// returns true). `table`: for the fill reported in progress reports.
    #[inline]
    pub fn count_node(&mut self, table: &Table) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check_limits(table);
            return true;
        }
        false
    }

    /// Looks at the limits without counting a node: for work that visits positions without
    /// searching them (the line walk over the table).
    pub fn poll(&mut self, table: &Table) {
        self.check_limits(table);
    }

    /// Adds nodes searched elsewhere (another table) to the count, and looks at the limits.
    pub fn add_nodes(&mut self, n: u64, table: &Table) {
        self.nodes += n;
        self.check_limits(table);
    }

    /// Adds nodes that other threads searched and already counted in the shared count
    /// (so that this search's statistics include them).
    pub fn add_counted_nodes(&mut self, n: u64) {
        self.nodes += n;
        if self.shared_nodes.is_some() {
            self.published += n;
        }
    }

    fn check_limits(&mut self, table: &Table) {
        self.next_check = self.nodes + CHECK_EVERY;
        self.publish();
        if self.cap_at.is_some_and(|c| self.nodes >= c) {
            self.cap_hit = true;
        }
        if let Some(n) = self.limits.nodes {
            if self.all_nodes() >= n {
                self.aborted = Some(StopReason::NodeLimit);
            }
        }
        if self.limits.stop.load(Ordering::Relaxed) {
            self.aborted = Some(StopReason::Stopped);
        }
        let now = Instant::now();
        if let Some(t) = self.limits.time {
            if now.duration_since(self.start) >= t {
                self.aborted = Some(StopReason::TimeLimit);
            }
        }
        // Only a clock limit starts the clock for what follows: after a node limit the
        // walk keeps to its count of positions, so that a node-limited search gives the
        // same answer on any machine.
        let clock = matches!(
            self.aborted,
            Some(StopReason::TimeLimit | StopReason::Stopped)
        );
        if clock && self.aborted_at.is_none() {
            self.aborted_at = Some(now);
        }
        if now.duration_since(self.last_progress) >= self.limits.progress_every {
            self.last_progress = now;
            self.report_progress(table);
        }
    }

    /// How long ago the time limit ran out or the search was stopped, if so (what the
    /// solver still does then, walking a line from the table, keeps to
    /// [`AFTER_LIMIT`](super::budgets::AFTER_LIMIT)). `None` after a node limit.
    pub fn since_abort(&self) -> Option<Duration> {
        self.aborted_at.map(|t| t.elapsed())
    }

    /// Calls the progress callback, if any, with the counters so far.
    pub fn report_progress(&mut self, table: &Table) {
        let elapsed = self.start.elapsed();
        self.last_progress = Instant::now();
        let nodes = self.all_nodes();
        let p = Progress {
            nodes,
            elapsed,
            nodes_per_second: (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64,
            table_fill: table.fill(),
            root_pn: self.root_pn,
            root_dn: self.root_dn,
            first_mate: self.first_mate.map(u32::from),
            shortest_mate: self.shortest_mate.map(u32::from),
        };
        if let Some(cb) = self.limits.progress.as_mut() {
            cb(&p);
        }
    }

    /// Starts a bounded sub-search that gives up at node count `until`.
    pub fn set_cap(&mut self, until: u64) {
        self.cap_at = Some(until);
        self.cap_hit = false;
        // The limits are looked at every CHECK_EVERY nodes: look at the cap when it comes
        // (small caps would otherwise run up to that many nodes over).
        self.next_check = self.next_check.min(until.max(self.nodes + 1));
    }

    /// Counts `others`, nodes other threads searched in the bounded sub-search, towards its
    /// cap (with this search's own).
    pub fn cap_with_others(&mut self, others: u64) {
        if self
            .cap_at
            .is_some_and(|c| self.nodes.saturating_add(others) >= c)
        {
            self.cap_hit = true;
        }
    }

    /// Ends the bounded sub-search; whether its cap was reached.
    pub fn clear_cap(&mut self) -> bool {
        self.cap_at = None;
        std::mem::take(&mut self.cap_hit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A time limit or a stop starts the clock that ends the line walk after it; a node
    /// limit does not, so that a node-limited answer does not depend on the machine.
    #[test]
    fn only_clock_limits_time_what_follows() {
        let table = Table::new(1);
        let mut nodes = Monitor::new(Limits {
            nodes: Some(10),
            ..Limits::for_tests()
        });
        nodes.add_nodes(20, &table);
        assert_eq!(nodes.aborted, Some(StopReason::NodeLimit));
        assert_eq!(nodes.since_abort(), None);

        let mut time = Monitor::new(Limits {
            time: Some(Duration::ZERO),
            ..Limits::for_tests()
        });
        time.poll(&table);
        assert_eq!(time.aborted, Some(StopReason::TimeLimit));
        assert!(time.since_abort().is_some());

        let limits = Limits::for_tests();
        limits.stop.store(true, Ordering::Relaxed);
        let mut stopped = Monitor::new(limits);
        stopped.poll(&table);
        assert_eq!(stopped.aborted, Some(StopReason::Stopped));
        assert!(stopped.since_abort().is_some());
    }
}
