//! [`Solver`]: the entry points, the search thread and the tables. (Not `solver.rs`: a
//! module named like its parent is clippy's `module_inception`.)

use super::config::SolverConfig;
use super::monitor::{Limits, ProgressFn};
use super::outcome::{Progress, Solution, StopHandle};
use super::parallel::{self, Crew};
use super::plies::Plies;
use super::search::Search;
use super::shortest;
use super::tt::{AllocError, Table};
use crate::check::{self, CheckConfig, Report};
use crate::moves::Move;
use crate::position::Position;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A reusable df-pn solver with its own transposition table. `Send`: run one per thread, or
/// give it several threads ([`SolverConfig::threads`]).
pub struct Solver {
    config: SolverConfig,
    /// Shared with the helper threads while a search runs; only this solver's at other times.
    table: Arc<Table>,
    /// The uniqueness checker's tables for searches that avoid the main line (one per
    /// thread), kept from one check to the next.
    side: crate::check::SideTables,
    stop: Arc<AtomicBool>,
    progress: Option<ProgressFn>,
}

impl fmt::Debug for Solver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solver")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// Stack for the search thread: the recursion is as deep as the longest line searched.
pub(crate) const SEARCH_STACK: usize = 512 << 20;

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
    /// use tsume::solver::{Solver, SolverConfig};
    /// assert!(Solver::try_new(SolverConfig::new().hash_mib(4)).is_ok());
    /// // Far more than any machine has: an error, not an abort.
    /// let err = Solver::try_new(SolverConfig::new().hash_mib(1 << 40)).unwrap_err();
    /// assert!(err.to_string().starts_with("cannot allocate"));
    /// ```
    pub fn try_new(config: SolverConfig) -> Result<Solver, AllocError> {
        let table = Table::try_new_kib(config.get_hash_kib())?;
        table.ask_huge_pages_for(config.get_threads());
        Ok(Solver {
            table: Arc::new(table),
            side: Default::default(),
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
        self.side = Default::default();
        if config.get_hash_kib() != self.config.get_hash_kib() {
            // Free the old table first: the two need not fit side by side.
            self.table = Arc::new(Table::try_new_kib(0)?);
            self.table = Arc::new(Table::try_new_kib(config.get_hash_kib())?);
        }
        self.table.ask_huge_pages_for(config.get_threads());
        self.config = config;
        Ok(())
    }

    /// Maps every page of the table's memory now rather than during the next search (the USI
    /// engine does it at `isready`): a fresh table's pages are otherwise mapped one page fault
    /// at a time as the search first touches them, which a search that fills a large table
    /// pays for in its own time. On Linux it first asks for transparent huge pages for the
    /// table, where the system gives them (a solver with several threads asks when its
    /// table is allocated), so that the search's random look-ups miss the TLB less often;
    /// the cost is paid here, in clearing the table's memory, and grows with the table's
    /// size (about 0.1 s per GiB on this project's machine, up to 2 s per GiB when the
    /// system must first free memory for huge pages). What the table holds is kept.
    ///
    /// ```
    /// use tsume::Position;
    /// use tsume::solver::{Solver, SolverConfig};
    /// let mut solver = Solver::new(SolverConfig::new().hash_mib(16));
    /// solver.prefault();
    /// let pos = Position::from_sfen("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
    /// assert!(matches!(solver.solve(&pos).outcome, tsume::solver::Outcome::Mate(_)));
    /// ```
    pub fn prefault(&mut self) {
        self.table_mut().prefault();
    }

    /// [`Solver::prefault`], and the same for the tables of the uniqueness checker's
    /// searches that avoid the line ([`Solver::check`]: half the table's size in all, one
    /// for each thread), which are otherwise allocated and mapped during the first checks:
    /// for a program that checks many problems (`check_unique` does it with `--prefault`).
    ///
    /// ```
    /// use tsume::Position;
    /// use tsume::check::{CheckConfig, Verdict};
    /// use tsume::solver::{Solver, SolverConfig};
    /// let mut solver = Solver::new(SolverConfig::new().hash_mib(16).threads(2));
    /// solver.prefault_checks();
    /// let pos = Position::from_sfen("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
    /// // Sound, with one note (変同: △同銀右 ▲６二銀打 is as long).
    /// assert_eq!(solver.check(&pos, None, &CheckConfig::new()).verdict, Verdict::Sound);
    /// ```
    pub fn prefault_checks(&mut self) {
        self.prefault();
        self.side
            .prefault(&self.config, self.config.get_threads().max(1));
    }

    /// The table, for the changes only a solver at rest may make: no search holds it then.
    fn table_mut(&mut self) -> &mut Table {
        Arc::get_mut(&mut self.table).expect("no search holds the table between searches")
    }

    /// The number of threads the machine runs at once
    /// ([`std::thread::available_parallelism`], 1 when unknown): what the programs give
    /// [`SolverConfig::threads`] by default.
    pub fn default_threads() -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }

    /// The settings.
    pub fn config(&self) -> &SolverConfig {
        &self.config
    }

    /// A handle to stop the running search from another thread. Each search clears the flag
    /// when it starts (a stop meant for the last search must not end the next one at once), so
    /// a stop given just before a search starts is lost: to stop a search that may not have
    /// started yet, repeat the stop until the call returns (as the USI engine does).
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
    ///
    /// The search runs on a thread of its own with a 512 MiB stack (its recursion is as
    /// deep as the longest line searched: Microcosmos' 1525 plies need far less, but a
    /// search may go to [`SolverConfig::max_depth`]); the memory is reserved, and touched only
    /// as deep as the search goes. This call blocks until the search ends; stop it from
    /// another thread with [`Solver::stop_handle`].
    pub fn solve(&mut self, pos: &Position) -> Solution {
        let pos = pos.clone();
        self.on_search_thread(true, move |solver, crew| solver.solve_here(&pos, crew))
    }

    /// Runs `work` on a thread with a stack as deep as the search's recursion needs, after a
    /// fresh start: the stop flag cleared and a new table generation. With `helpers` and more
    /// than one [thread](SolverConfig::threads), the helper threads of the parallel search
    /// run beside it (see [`parallel`]) until `work` returns; `work` gets their crew.
    fn on_search_thread<R: Send>(
        &mut self,
        helpers: bool,
        work: impl FnOnce(&mut Solver, Option<&Crew>) -> R + Send,
    ) -> R {
        self.stop.store(false, Ordering::Relaxed);
        self.table.new_search();
        let threads = if helpers {
            self.config.get_threads()
        } else {
            1
        };
        let crew = (threads > 1).then(|| Crew::new(threads));
        let table = crew.as_ref().map(|_| self.table.clone());
        let stop = self.stop.clone();
        let max_depth = self.config.get_max_depth();
        let node_limit = self.config.get_node_limit();
        let crew = crew.as_ref();
        let r = std::thread::scope(|s| {
            if let (Some(crew), Some(table)) = (crew, &table) {
                for index in 1..threads {
                    let stop = &stop;
                    // A helper that cannot be started is done without: the search is the same,
                    // with fewer threads.
                    let _ = std::thread::Builder::new()
                        .name(format!("tsume-helper-{index}"))
                        .stack_size(SEARCH_STACK)
                        .spawn_scoped(s, move || {
                            parallel::help(crew, table, index, || Limits {
                                nodes: node_limit,
                                time: None,
                                stop: stop.clone(),
                                max_depth,
                                progress_every: std::time::Duration::MAX,
                                progress: None,
                                audit: None,
                            })
                        });
                }
            }
            let r = std::thread::Builder::new()
                .name("tsume-search".into())
                .stack_size(SEARCH_STACK)
                .spawn_scoped(s, || work(self, crew))
                .map(|h| h.join());
            // The helpers quit before anything else: the scope waits for them, even to
            // pass on a panic.
            if let Some(crew) = crew {
                crew.quit();
            }
            r.expect("spawn the search thread")
                .expect("the search thread does not panic")
        });
        drop(table);
        r
    }

    fn solve_here(&mut self, pos: &Position, crew: Option<&Crew>) -> Solution {
        let config = &self.config;
        let limits = config.limits(&self.stop, self.progress.as_deref_mut());
        let mut search = Search::new(&self.table, pos.side_to_move(), limits);
        if let Some(crew) = crew {
            search.join_crew_as_main(crew);
        }
        let outcome = shortest::outcome(
            &mut search,
            pos,
            Plies::limit(config.get_max_mate_length()),
            config.get_shortest_node_limit(),
            config.get_defences(),
            config.get_tighten_line(),
        );
        Solution {
            outcome,
            stats: search.stats(),
        }
    }

    /// Checks a composed problem for soundness: solves it, then looks for every flaw of the
    /// [rules](crate::rules#flaws-the-checker-reports) along the line (the intended line when
    /// given, else the main line).
    ///
    /// The node and time limits of the [`SolverConfig`](super::SolverConfig) apply to the
    /// whole check; each question (one alternative move) may search at most
    /// [`CheckConfig::question_node_limit`](crate::check::CheckConfig::question_node_limit)
    /// nodes, after which it is reported as undecided. Searches share this solver's table; the
    /// searches for a second solution that must avoid the line use a second table of half the
    /// size, allocated on first use and kept for the next check.
    ///
    /// ```
    /// use tsume::Position;
    /// use tsume::check::{CheckConfig, FlawKind, Verdict};
    /// use tsume::solver::{Solver, SolverConfig};
    /// let mut solver = Solver::new(SolverConfig::new().hash_mib(16));
    /// // Mate in 1 by G*5b, but the attacker holds a second gold that is never used.
    /// let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b 2G")?;
    /// let report = solver.check(&pos, None, &CheckConfig::new());
    /// assert_eq!(report.verdict, Verdict::Unsound);
    /// assert!(report.flaws.iter().any(|f| f.kind == FlawKind::PiecesLeftOver));
    /// # Ok::<(), tsume::SfenError>(())
    /// ```
    pub fn check(
        &mut self,
        pos: &Position,
        intended: Option<&[Move]>,
        config: &CheckConfig,
    ) -> Report {
        let pos = pos.clone();
        let intended = intended.map(<[Move]>::to_vec);
        let check_config = config.clone();
        let started = std::time::Instant::now();
        self.on_search_thread(true, move |solver, crew| {
            let mut report = check::run(
                &solver.table,
                &mut solver.side,
                &solver.config,
                &check_config,
                &solver.stop,
                solver.progress.as_deref_mut(),
                crew,
                &pos,
                intended.as_deref(),
            );
            if check_config.get_unnecessary_pieces() {
                check::find_unnecessary(
                    &solver.table,
                    &mut solver.side,
                    &solver.config,
                    &check_config,
                    &solver.stop,
                    solver.progress.as_deref_mut(),
                    crew,
                    &pos,
                    &mut report,
                    started,
                );
            }
            report
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::CheckConfig;

    /// A solver with several threads asks for huge pages for its table (also when
    /// `set_config` raises the thread count): see `Table::ask_huge_pages`. (That one
    /// thread does not ask cannot be seen reliably here: the allocator may reuse memory
    /// another test's table was advised on.)
    #[cfg(target_os = "linux")]
    #[test]
    fn threads_ask_for_huge_pages() {
        use crate::solver::tt::tests::asks_huge_pages;
        let one = Solver::new(SolverConfig::new().hash_mib(64));
        if asks_huge_pages(&one.table).is_none() {
            return; // a kernel without transparent huge pages
        }
        let two = Solver::new(SolverConfig::new().hash_mib(64).threads(2));
        assert_eq!(asks_huge_pages(&two.table), Some(true));
        let mut raised = Solver::new(SolverConfig::new().hash_mib(64));
        raised
            .set_config(SolverConfig::new().hash_mib(64).threads(2))
            .unwrap();
        assert_eq!(asks_huge_pages(&raised.table), Some(true));
    }

    /// The side tables `prefault_checks` maps are the ones the checks then use (none is
    /// allocated later), and a check finds the flaws it finds without them. (tsume5-9 of
    /// problems/antma.sfen: its 余詰 are found on the side tables.)
    #[test]
    fn prefaulted_side_tables_serve_the_checks() {
        let pos =
            Position::from_sfen("9/9/3S5/3p1p3/4kb3/3P2s2/4P4/4N4/9 b RNrb3g2s2n4l14p 1").unwrap();
        let config = SolverConfig::new().hash_mib(16).threads(2);
        let flaws = |report: &Report| -> Vec<_> {
            report
                .flaws
                .iter()
                .map(|f| (f.kind, f.ply, f.moves.clone()))
                .collect()
        };
        let expected = Solver::new(config.clone()).check(&pos, None, &CheckConfig::new());
        let mut solver = Solver::new(config);
        solver.prefault_checks();
        assert_eq!(solver.side.allocated(), 2, "one side table per thread");
        let report = solver.check(&pos, None, &CheckConfig::new());
        assert_eq!(solver.side.allocated(), 2, "no other side table allocated");
        assert_eq!(report.verdict, expected.verdict);
        assert!(!report.flaws.is_empty());
        assert_eq!(flaws(&report), flaws(&expected));
    }
}
