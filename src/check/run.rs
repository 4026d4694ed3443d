//! The driver of a check: solve, then walk the line and ask every question at each ply.

use super::config::CheckConfig;
use super::rejoin::*;
use super::report::*;
use crate::hand::Hand;
use crate::moves::Move;
use crate::position::Position;
use crate::solver::budgets::QUICK_SHARE_PART;
use crate::solver::config::SolverConfig;
use crate::solver::monitor::Limits;
use crate::solver::outcome::{Outcome, Progress, StopReason};
use crate::solver::parallel::Crew;
use crate::solver::plies::Plies;
use crate::solver::search::{NodeKind, Search};
use crate::solver::shortest::{self, Allowance, shorten};
use crate::solver::tt::Table;
use crate::solver::verify::verify_mate;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The moves, positions and keys along a line.
pub(super) struct Walk {
    pub(super) moves: Vec<Move>,
    pub(super) positions: Vec<Position>,
    pub(super) keys: Vec<u64>,
    /// The other moves of each ply (see [`Walk::units`]).
    pub(super) alternatives: Vec<Vec<Move>>,
}

impl Walk {
    pub(super) fn new(root: &Position, moves: &[Move]) -> Walk {
        let mut positions = Vec::with_capacity(moves.len() + 1);
        let mut p = root.clone();
        positions.push(p.clone());
        for &mv in moves {
            p.play_unchecked(mv);
            positions.push(p.clone());
        }
        let keys = positions.iter().map(Position::key).collect();
        // The other moves the checker asks about: checks at attacker plies but the last
        // (最終手余詰 is asked of the last ply as a whole), replies at defender plies.
        let alternatives = positions[..moves.len()]
            .iter()
            .enumerate()
            .map(|(k, p)| match k % 2 {
                0 if k + 1 < moves.len() => p.check_moves().iter().copied().collect(),
                0 => Vec::new(),
                _ => p.evasions().iter().copied().collect(),
            })
            .collect();
        Walk {
            moves: moves.to_vec(),
            positions,
            keys,
            alternatives,
        }
    }

    /// The walk's work in the order one thread asks it: each ply as a whole, then each of
    /// its other moves.
    fn units(&self) -> Vec<Unit> {
        let mut units = Vec::new();
        for (k, alternatives) in self.alternatives.iter().enumerate() {
            units.push(Unit { k, index: None });
            units.extend((0..alternatives.len()).map(|i| Unit { k, index: Some(i) }));
        }
        units
    }
}

/// The state of one check.
pub(super) struct Checker<'s, 'a> {
    pub(super) search: &'s mut Search<'a>,
    /// The table for searches that avoid the line (created on first use).
    pub(super) side: &'s mut Option<Table>,
    /// The side tables of the other question workers (see [`SideTables`]).
    pub(super) worker_sides: &'s mut Vec<Option<Table>>,
    /// Nodes each question may search.
    pub(super) cap: u64,
    /// The solver's settings and stop flag, for the searches on the side table.
    pub(super) config: &'s SolverConfig,
    /// The check's own settings.
    pub(super) check: &'s CheckConfig,
    pub(super) stop: &'s Arc<AtomicBool>,
    pub(super) flaws: Vec<Flaw>,
    pub(super) undecided: Vec<Undecided>,
    /// Whether the line checked is the composer's intended line (else the solver's).
    pub(super) intended: bool,
    /// Whether the side table holds entries of searches that allow line positions (it is
    /// then started afresh before the next search that allows none, see [`Rejoin`]).
    pub(super) side_dirty: bool,
    /// The size of a side table, in KiB: half the solver's table, shared out among the
    /// threads.
    pub(super) side_kib: usize,
    /// The crew of the threads to share the questions out among, if more than one.
    pub(super) workers: Option<&'s Crew>,
    /// The count of all threads' nodes, with threads (the side-table searches count in it).
    pub(super) counter: Option<&'s AtomicU64>,
    /// Where another thread found the first fatal flaw (with `first_flaw`), while the
    /// plies are shared out.
    pub(super) fatal_at: Option<Arc<AtomicUsize>>,
    /// The [`Unit`] being asked (its index among the walk's).
    pub(super) unit: usize,
    /// Why the walk stopped short, when the whole check's limits ran out.
    pub(super) walk_stopped: Option<StopReason>,
}

/// Stack for a question worker: its searches recurse as deep as the solver's.
const QUESTION_STACK: usize = 512 << 20;

/// The checker's tables for searches that avoid the line: the solver's thread's, and one for
/// each other question worker. Each is allocated on first use and kept from one check to
/// the next (a new search generation makes it empty), so that a check of a short problem
/// does not pay for mapping a fresh table per thread; or allocated and mapped up front by
/// [`SideTables::prefault`].
#[derive(Default)]
pub(crate) struct SideTables {
    main: Option<Table>,
    workers: Vec<Option<Table>>,
}

impl SideTables {
    /// Allocates the side tables of a check with `threads` threads (one for each question
    /// worker, of [`side_kib`] each) and maps their memory now ([`Table::prefault`]), as
    /// [`Solver::prefault`](crate::solver::Solver::prefault) does for the main table: a
    /// fresh side table's pages are otherwise mapped during the first checks, by all the
    /// workers at once. One that cannot be allocated is left to the first check that needs
    /// it (which then leaves its questions undecided).
    pub(crate) fn prefault(&mut self, config: &SolverConfig, threads: usize) {
        let kib = side_kib(config, threads);
        let mapped = |table: &mut Option<Table>| {
            if table.is_none() {
                *table = side_table(kib).ok();
            }
            if let Some(t) = table.as_mut() {
                t.prefault();
            }
        };
        mapped(&mut self.main);
        if self.workers.len() < threads.saturating_sub(1) {
            self.workers.resize_with(threads - 1, || None);
        }
        self.workers.iter_mut().for_each(mapped);
    }

    /// The side tables allocated so far (for tests).
    #[cfg(test)]
    pub(crate) fn allocated(&self) -> usize {
        self.workers.iter().chain([&self.main]).flatten().count()
    }
}

/// The size of each side table of a check with `threads` threads, in KiB: half the
/// solver's table, shared out among the threads.
pub(crate) fn side_kib(config: &SolverConfig, threads: usize) -> usize {
    config.get_hash_kib() / 2 / threads.max(1)
}

/// A new side table of `kib` KiB: one of exact proofs (see
/// [`Table::set_exact_proofs`]).
pub(super) fn side_table(kib: usize) -> Result<Table, crate::solver::tt::AllocError> {
    let mut t = Table::try_new_kib(kib)?;
    t.set_exact_proofs(true);
    Ok(t)
}

/// The check of [`Solver::check`](crate::solver::Solver::check): solve, then ask every
/// question along the line.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run(
    table: &Table,
    side_tables: &mut SideTables,
    config: &SolverConfig,
    check: &CheckConfig,
    stop: &Arc<AtomicBool>,
    progress: Option<&mut (dyn FnMut(&Progress) + Send + 'static)>,
    crew: Option<&Crew>,
    pos: &Position,
    intended: Option<&[Move]>,
) -> Report {
    let SideTables {
        main: side_table,
        workers: worker_sides,
    } = side_tables;
    if let Some(side) = side_table.as_mut() {
        // Its entries were found under another problem's exclusions.
        side.new_search();
    }
    let limits = config.limits(stop, progress);
    let mut search = Search::new(table, pos.side_to_move(), limits);
    if let Some(crew) = crew {
        // The helpers help the solve; the questions are then shared out by ply.
        search.join_crew_as_main(crew);
    }
    let mut flaws = Vec::new();
    let mut undecided = Vec::new();

    let given = intended.map(<[Move]>::to_vec);
    // The intended line must be a mating line; if not, the problem is still solved.
    let intended = match intended {
        Some(moves) => match verify_mate(pos, moves) {
            Ok(()) => Some(moves.to_vec()),
            Err(e) => {
                let (ply, mv) = e.place(moves.len());
                flaws.push(Flaw {
                    moves: mv.into_iter().collect(),
                    line_length: Some(moves.len() as u32),
                    ..Flaw::new(
                        FlawKind::InvalidIntendedLine,
                        ply,
                        format!("the intended line is not a mate: {e}"),
                    )
                });
                None
            }
        },
        None => None,
    };

    let outcome = shortest::outcome(
        &mut search,
        pos,
        Plies::Unlimited,
        config.get_shortest_node_limit(),
        false,
        config.get_tighten_line(),
    );
    let main_line = match outcome {
        Outcome::Mate(line) => Some(line),
        Outcome::NoMate => {
            flaws.push(Flaw::new(
                FlawKind::NoMate,
                1,
                "the position has no forced mate".into(),
            ));
            None
        }
        Outcome::Unknown(reason) => {
            undecided.push(Undecided {
                ply: 1,
                mv: None,
                kind: Question::Mate,
                question: "is there a mate?".into(),
                reason,
            });
            None
        }
    };
    if let Some(crew) = crew {
        // The questions are shared out among the threads; the helpers join in only as the
        // question workers run out of work (see `Checker::ask_in_parallel`). A question's
        // node share counts the helpers' nodes in it too: with them it ends sooner, also
        // when it is left undecided.
        crew.hold_offers(true);
        search.count_helpers_in_caps();
    }
    let workers = crew.filter(|crew| crew.threads() > 1);
    let threads = workers.map_or(1, Crew::threads);
    // As many nodes as the solution took on all threads: about what one thread takes, where
    // the main thread's own would be a part of it.
    let cap = check
        .get_question_node_limit()
        .unwrap_or(search.stats().nodes.max(CheckConfig::MIN_QUESTION_NODES));
    // A futile interposition (無駄合) is never played in a tsume line.
    let intended = match intended {
        Some(moves) if main_line.is_some() => match futile_in_line(&mut search, pos, &moves, cap) {
            Some((ply, mv, false)) => {
                // Not settled: the line is still checked, and the verdict stays undecided.
                undecided.push(Undecided {
                    ply: ply as u32,
                    mv: Some(mv),
                    kind: Question::FutileInterposition,
                    question: "is this interposition of the intended line futile (無駄合)?".into(),
                    reason: search.aborted().unwrap_or(StopReason::QuestionLimit),
                });
                Some(moves)
            }
            Some((ply, mv, true)) => {
                flaws.push(Flaw {
                    kind: FlawKind::InvalidIntendedLine,
                    ply: ply as u32,
                    moves: vec![mv],
                    length: None,
                    length_exact: false,
                    line_length: Some(moves.len() as u32),
                    rejoin_ply: None,
                    fatal: false,
                    detail: "the intended line plays a futile interposition (無駄合), which \
                             a tsume line leaves out together with its capture"
                        .into(),
                });
                None
            }
            None => Some(moves),
        },
        other => other,
    };
    let (line, checked_intended) = match (&intended, &main_line) {
        (Some(moves), _) => (moves.clone(), true),
        (None, Some(ml)) => (ml.moves().to_vec(), false),
        (None, None) => (Vec::new(), false),
    };
    let mut hand_left = Hand::EMPTY;
    if let (false, Some(ml)) = (checked_intended, &main_line) {
        if !ml.is_main_line() {
            undecided.push(Undecided {
                ply: 1,
                mv: None,
                kind: Question::MainLineDefences,
                question: format!(
                    "the main line is a mate in at most {} but the line shown has {} \
                     plies: which defence is the longest?",
                    ml.length(),
                    ml.line_len()
                ),
                reason: search.aborted().unwrap_or(StopReason::QuestionLimit),
            });
        }
        if !ml.shortest_proven() {
            undecided.push(Undecided {
                ply: 1,
                mv: None,
                kind: Question::MainLineShortest,
                question: "is the main line's length the shortest mate?".into(),
                reason: search.aborted().unwrap_or(StopReason::QuestionLimit),
            });
        } else if !ml.exact() {
            undecided.push(Undecided {
                ply: 1,
                mv: None,
                kind: Question::MainLineDefences,
                question: "is every defence of the main line the longest?".into(),
                reason: search.aborted().unwrap_or(StopReason::QuestionLimit),
            });
        }
    }
    if !line.is_empty() {
        // With `first_flaw`, a first walk gives each question a small share: a second
        // solution that is cheap to find anywhere along the line ends the check before the
        // full shares are spent on hard questions at earlier plies. Only when it finds no
        // fatal flaw does the full walk follow (on the same tables, so it repeats little).
        let shares: &[u64] = if check.get_first_flaw() {
            &[(cap / QUICK_SHARE_PART).max(1), cap]
        } else {
            &[cap]
        };
        let mut side_dirty = false;
        for (i, &share) in shares.iter().enumerate() {
            let mut checker = Checker {
                search: &mut search,
                side: &mut *side_table,
                worker_sides: &mut *worker_sides,
                cap: share,
                config,
                check,
                stop,
                flaws: flaws.clone(),
                undecided: undecided.clone(),
                intended: checked_intended,
                side_dirty,
                side_kib: side_kib(config, threads),
                workers,
                counter: crew.map(Crew::node_counter),
                fatal_at: None,
                unit: 0,
                walk_stopped: None,
            };
            let end = checker.examine(pos, &line, checked_intended);
            side_dirty = checker.side_dirty;
            // A walk cut short by the whole check's limits keeps what it found: a second
            // walk would stop at once and report less.
            let cut = checker.search.aborted().is_some() || checker.walk_stopped.is_some();
            let last = i + 1 == shares.len();
            if last || checker.at_first_flaw() || cut {
                hand_left = end;
                flaws = checker.flaws;
                if !last && !cut {
                    // The questions this quick walk left open were asked with a part of
                    // their share only: not questions the check could not settle. Where it
                    // stopped is kept.
                    let walked = checker.undecided.split_off(undecided.len());
                    undecided.extend(
                        walked
                            .into_iter()
                            .filter(|u| u.reason == StopReason::FirstFlaw),
                    );
                } else {
                    undecided = checker.undecided;
                }
                break;
            }
        }
    }
    // The intended line's own errors first (their plies count along that line), then
    // the flaws of the line checked, in ply order.
    flaws.sort_by_key(|f| (f.kind != FlawKind::InvalidIntendedLine, f.ply));
    for f in &mut flaws {
        f.fatal = f.kind.is_fatal_with(check.get_strict());
    }
    let verdict = if flaws.iter().any(|f| f.fatal) {
        Verdict::Unsound
    } else if !undecided.is_empty() {
        Verdict::Undecided
    } else {
        Verdict::Sound
    };
    if let Some(crew) = crew {
        crew.hold_offers(false);
    }
    let stats = search.stats();
    Report {
        verdict,
        line,
        checked_intended,
        intended: given,
        main_line,
        hand_left,
        flaws,
        undecided,
        stats,
        unnecessary_pieces: None,
    }
}

/// A piece of a walk's work: the questions about ply `k` (0-based) as a whole (`index`
/// `None`: 早詰, 最終手余詰), or those about its other move `index` (of
/// [`Walk::alternatives`]).
#[derive(Clone, Copy, Debug)]
struct Unit {
    k: usize,
    index: Option<usize>,
}

/// What the questions of one [`Unit`] found.
struct Answer {
    flaws: Vec<Flaw>,
    undecided: Vec<Undecided>,
    /// For the questions about the ply as a whole: `Some` when the intended line has a
    /// shorter mate here (早詰), with its first move if found.
    shorter: Option<Option<Move>>,
    /// Why the searches stopped, if the whole check's limits ran out.
    aborted: Option<StopReason>,
}

/// What the question workers of one walk share.
struct Walkers<'w> {
    crew: &'w Crew,
    units: &'w [Unit],
    /// The next unit to take.
    next: AtomicUsize,
    /// The first unit where a fatal flaw was found, with `first_flaw` (the units after it
    /// are not asked: they would not be reported).
    fatal_at: Arc<AtomicUsize>,
    /// The answers, by unit.
    answers: Mutex<Vec<Option<Answer>>>,
    /// Why a worker stopped taking units, when the whole check's limits ran out.
    stopped: Mutex<Option<StopReason>>,
}

impl Checker<'_, '_> {
    /// Asks every question along `line` (a verified mating line from `root`); the attacker's
    /// hand at its end. The work is cut into [`Unit`]s; with several
    /// [threads](SolverConfig::threads) they are shared out ([`Checker::ask_in_parallel`]).
    /// Either way the answers are put together in the order one thread walking the line
    /// asks them, with the same rules for where the walk stops.
    pub(super) fn examine(&mut self, root: &Position, line: &[Move], intended: bool) -> Hand {
        let walk = Walk::new(root, line);
        let n = line.len();
        let attacker = root.side_to_move();
        let end = walk.positions[n].hand(attacker);
        let left_over = |end: Hand| {
            Flaw::new(
                FlawKind::PiecesLeftOver,
                n,
                format!("the attacker ends with {} in hand", end.japanese()),
            )
        };
        // Known from the line alone: with `first_flaw` it ends the walk before its searches.
        let left_over_first = self.check.get_first_flaw() && end.total() > 0;
        if left_over_first {
            self.flaws.push(left_over(end));
        }
        let units = walk.units();
        // A search stopped by the limits before the walk asks nothing more.
        let mut stopped = self.search.aborted();
        let parallel =
            self.workers.is_some() && units.len() > 1 && !self.at_first_flaw() && stopped.is_none();
        let mut answers = if parallel {
            self.ask_in_parallel(&walk, &units, intended)
        } else {
            Vec::new()
        };
        let mut shorter_before = false;
        let mut u = 0;
        'plies: for k in 0..n {
            // Stopped at the first fatal flaw (found during ply k, 1-based, or before the
            // walk), or the whole check's limits ran out before ply k + 1.
            let stop = if self.at_first_flaw() {
                Some((k.max(1), StopReason::FirstFlaw))
            } else {
                stopped.clone().map(|reason| (k + 1, reason))
            };
            if let Some((ply, reason)) = stop {
                self.not_examined(ply, ply > k, reason);
                break;
            }
            let mut skip = None;
            while let Some(&unit) = units.get(u).filter(|unit| unit.k == k) {
                u += 1;
                if self.at_first_flaw() {
                    continue; // the rest of the ply: `not_examined` says so
                }
                let answer = if parallel {
                    answers[u - 1].take()
                } else {
                    self.unit = u - 1;
                    Some(self.ask(&walk, unit, skip, intended))
                };
                let Some(mut answer) = answer else {
                    // Not asked: a worker found the limits run out first.
                    let reason = self.walk_stopped.clone().unwrap_or(StopReason::Stopped);
                    self.not_examined(k + 1, false, reason);
                    break 'plies;
                };
                match unit.index {
                    None => {
                        skip = answer.shorter.flatten();
                        if answer.shorter.is_some() && shorter_before {
                            answer.flaws.retain(|f| f.kind != FlawKind::ShorterMate);
                        }
                        if k % 2 == 0 && intended {
                            shorter_before = answer.shorter.is_some();
                        }
                    }
                    // The first move of a shorter mate is reported as such, not as another.
                    Some(i) if Some(walk.alternatives[k][i]) == skip => continue,
                    Some(_) => {}
                }
                self.flaws.append(&mut answer.flaws);
                self.undecided.append(&mut answer.undecided);
                if answer.aborted.is_some() {
                    stopped = answer.aborted;
                }
            }
        }
        if stopped.is_some() && self.walk_stopped.is_none() {
            self.walk_stopped = stopped;
        }
        if end.total() > 0 && !left_over_first {
            self.flaws.push(left_over(end));
        }
        end
    }

    /// Notes that the walk stopped at `ply` (1-based): before it (`before`), or during it.
    fn not_examined(&mut self, ply: usize, before: bool, reason: StopReason) {
        let question = if before {
            "the plies from here on were not examined"
        } else {
            "the rest of this ply and the plies after it were not examined"
        };
        self.undecided.push(Undecided {
            ply: ply as u32,
            mv: None,
            kind: Question::NotExamined,
            question: question.into(),
            reason,
        });
    }

    /// The questions of `unit`; `skip`, the first move of a shorter mate at its ply when
    /// known, is not asked about.
    fn ask(&mut self, walk: &Walk, unit: Unit, skip: Option<Move>, intended: bool) -> Answer {
        let (flaws_before, undecided_before) = (self.flaws.len(), self.undecided.len());
        let k = unit.k;
        let n = walk.moves.len();
        let played = walk.moves[k];
        let rest = (n - k) as i32;
        let mut shorter = None;
        match unit.index {
            None if k % 2 == 0 => {
                if intended {
                    shorter = self.shorter_mate(walk, k, rest);
                }
                if k + 1 == n {
                    self.final_move(walk, k, played);
                }
            }
            None => {}
            Some(i) => {
                let mv = walk.alternatives[k][i];
                if Some(mv) != skip {
                    if k % 2 == 0 {
                        self.alternative_mate(walk, k, mv, played, rest);
                    } else {
                        self.variation(walk, k, mv, played, rest);
                    }
                }
            }
        }
        Answer {
            flaws: self.flaws.split_off(flaws_before),
            undecided: self.undecided.split_off(undecided_before),
            shorter,
            aborted: self.search.aborted(),
        }
    }

    /// The answers of `units`, asked by this thread and the other workers, each with its own
    /// search on the shared table and its own side table, each taking the next unit not yet
    /// taken. A unit after one with a fatal flaw (with `first_flaw`), or after the limits ran
    /// out, is left unasked (`None`).
    fn ask_in_parallel(
        &mut self,
        walk: &Walk,
        units: &[Unit],
        intended: bool,
    ) -> Vec<Option<Answer>> {
        let Some(workers) = self.workers else {
            return Vec::new();
        };
        let shared = Walkers {
            crew: workers,
            units,
            next: AtomicUsize::new(0),
            fatal_at: Arc::new(AtomicUsize::new(usize::MAX)),
            answers: Mutex::new(units.iter().map(|_| None).collect()),
            stopped: Mutex::new(None),
        };
        let table = self.search.table;
        let attacker = self.search.attacker;
        let spent = self.search.elapsed();
        let (config, check, stop, cap) = (self.config, self.check, self.stop, self.cap);
        let (side_kib, checked_intended) = (self.side_kib, self.intended);
        let threads = workers.threads().min(units.len());
        let mut sides = std::mem::take(self.worker_sides);
        if sides.len() < threads - 1 {
            sides.resize_with(threads - 1, || None);
        }
        std::thread::scope(|s| {
            for (index, side) in (1..threads).zip(sides.iter_mut()) {
                let shared = &shared;
                let flaws = self.flaws.clone();
                let work = move || {
                    if let Some(side) = side.as_mut() {
                        // Its entries were found under another walk's exclusions.
                        side.new_search();
                    }
                    let limits = Limits {
                        time: config.get_time_limit().map(|t| t.saturating_sub(spent)),
                        ..config.limits(stop, None)
                    };
                    let mut search = Search::new(table, attacker, limits);
                    // A member of the crew, so that the helpers can join its searches once
                    // the questions run out.
                    search.join_crew_as_main(workers);
                    search.count_helpers_in_caps();
                    let mut no_workers = Vec::new();
                    let mut checker = Checker {
                        search: &mut search,
                        side,
                        worker_sides: &mut no_workers,
                        cap,
                        config,
                        check,
                        stop,
                        flaws,
                        undecided: Vec::new(),
                        intended: checked_intended,
                        side_dirty: false,
                        side_kib,
                        workers: None,
                        counter: Some(workers.node_counter()),
                        fatal_at: Some(shared.fatal_at.clone()),
                        unit: 0,
                        walk_stopped: None,
                    };
                    checker.take_units(walk, intended, shared);
                    // The crew's count, which the check's statistics read, holds them all.
                    checker.search.publish_nodes();
                };
                // A worker that cannot be started is done without.
                let _ = std::thread::Builder::new()
                    .name(format!("tsume-check-{index}"))
                    .stack_size(QUESTION_STACK)
                    .spawn_scoped(s, work);
            }
            self.fatal_at = Some(shared.fatal_at.clone());
            self.take_units(walk, intended, &shared);
        });
        *self.worker_sides = sides;
        workers.hold_offers(true);
        self.fatal_at = None;
        if let Some(reason) = shared.stopped.lock().expect("no worker panics").take() {
            self.walk_stopped = Some(reason);
        }
        shared.answers.into_inner().expect("no worker panics")
    }

    /// One worker's loop: the next unit not yet taken, until none is left.
    fn take_units(&mut self, walk: &Walk, intended: bool, shared: &Walkers) {
        let strict = self.check.get_strict();
        loop {
            let u = shared.next.fetch_add(1, Ordering::Relaxed);
            let Some(&unit) = shared.units.get(u) else {
                // This thread is free: the helpers may take its place in the searches
                // still under way.
                shared.crew.hold_offers(false);
                break;
            };
            if u > shared.fatal_at.load(Ordering::Relaxed) {
                continue; // after the first fatal flaw: not reported
            }
            if let Some(reason) = self.search.aborted() {
                *shared.stopped.lock().expect("no worker panics") = Some(reason);
                break;
            }
            self.unit = u;
            let answer = self.ask(walk, unit, None, intended);
            if self.check.get_first_flaw()
                && answer.flaws.iter().any(|f| f.kind.is_fatal_with(strict))
            {
                shared.fatal_at.fetch_min(u, Ordering::Relaxed);
            }
            shared.answers.lock().expect("no worker panics")[u] = Some(answer);
        }
    }

    /// The shortest mate from `pos` (an attacker node on `path`), proven mated in `found`
    /// plies, with one question's share of nodes; and whether it is proven shortest.
    pub(super) fn shortest(&mut self, pos: &Position, path: &[u64], found: u16) -> (u16, bool) {
        let stop_at = self.search.nodes().saturating_add(self.cap);
        let s = shorten(
            self.search,
            pos,
            path,
            NodeKind::Or,
            found,
            Allowance {
                stop_at,
                share: self.cap,
                top_down: None,
                root: false,
            },
            false,
        );
        (s.len, s.minimal)
    }

    /// Whether the check is to stop here: [`CheckConfig::first_flaw`](super::CheckConfig::first_flaw) asked for, and a
    /// fatal flaw found.
    pub(super) fn at_first_flaw(&self) -> bool {
        let strict = self.check.get_strict();
        self.check.get_first_flaw()
            && (self.flaws.iter().any(|f| f.kind.is_fatal_with(strict))
                || self
                    .fatal_at
                    .as_ref()
                    .is_some_and(|at| at.load(Ordering::Relaxed) < self.unit))
    }

    pub(super) fn undecided(
        &mut self,
        ply: usize,
        mv: Option<Move>,
        kind: Question,
        question: String,
    ) {
        let reason = self.search.aborted().unwrap_or(StopReason::QuestionLimit);
        self.undecided.push(Undecided {
            ply: ply as u32,
            mv,
            kind,
            question,
            reason,
        });
    }
}
