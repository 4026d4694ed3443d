//! The driver of a check: solve, then walk the line and ask every question at each ply.

use super::config::CheckConfig;
use super::rejoin::*;
use super::report::*;
use crate::hand::Hand;
use crate::moves::Move;
use crate::position::Position;
use crate::solver::budgets::QUICK_SHARE_PART;
use crate::solver::config::SolverConfig;
use crate::solver::outcome::{Outcome, Progress, StopReason};
use crate::solver::plies::Plies;
use crate::solver::search::{NodeKind, Search};
use crate::solver::shortest::{self, Allowance, shorten};
use crate::solver::tt::Table;
use crate::solver::verify::verify_mate;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The moves, positions and keys along a line.
pub(super) struct Walk {
    pub(super) moves: Vec<Move>,
    pub(super) positions: Vec<Position>,
    pub(super) keys: Vec<u64>,
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
        Walk {
            moves: moves.to_vec(),
            positions,
            keys,
        }
    }
}

/// The state of one check.
pub(super) struct Checker<'s, 'a> {
    pub(super) search: &'s mut Search<'a>,
    /// The table for searches that avoid the line (created on first use).
    pub(super) side: &'s mut Option<Table>,
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
}

/// The check of [`Solver::check`](crate::solver::Solver::check): solve, then ask every
/// question along the line.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run(
    table: &Table,
    side_table: &mut Option<Table>,
    config: &SolverConfig,
    check: &CheckConfig,
    stop: &Arc<AtomicBool>,
    progress: Option<&mut (dyn FnMut(&Progress) + Send + 'static)>,
    pos: &Position,
    intended: Option<&[Move]>,
) -> Report {
    if let Some(side) = side_table.as_mut() {
        // Its entries were found under another problem's exclusions.
        side.new_search();
    }
    let limits = config.limits(stop, progress);
    let mut search = Search::new(table, pos.side_to_move(), limits);
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
    let cap = check
        .get_question_node_limit()
        .unwrap_or(search.nodes().max(CheckConfig::MIN_QUESTION_NODES));
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
                cap: share,
                config,
                check,
                stop,
                flaws: flaws.clone(),
                undecided: undecided.clone(),
                intended: checked_intended,
                side_dirty,
            };
            let end = checker.examine(pos, &line, checked_intended);
            side_dirty = checker.side_dirty;
            // A walk cut short by the whole check's limits keeps what it found: a second
            // walk would stop at once and report less.
            let cut = checker.search.aborted().is_some();
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

impl Checker<'_, '_> {
    /// Asks every question along `line` (a verified mating line from `root`); the attacker's
    /// hand at its end.
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
        let mut shorter_before = false;
        for (k, &mv) in line.iter().enumerate() {
            // Stopped at the first fatal flaw (found during ply k, 1-based, or before the
            // walk), or the whole check's limits ran out before ply k + 1.
            let stop = if self.at_first_flaw() {
                Some((k.max(1), StopReason::FirstFlaw))
            } else {
                self.search.aborted().map(|reason| (k + 1, reason))
            };
            if let Some((ply, reason)) = stop {
                let question = if ply > k {
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
                break;
            }
            let rest = (n - k) as i32;
            if k % 2 == 0 {
                let mut skip = None;
                if intended {
                    let shorter = self.shorter_mate(&walk, k, rest, shorter_before);
                    shorter_before = shorter.is_some();
                    skip = shorter.flatten();
                }
                if k + 1 == n {
                    self.final_move(&walk, k, mv);
                } else {
                    self.alternative_mates(&walk, k, mv, skip, rest);
                }
            } else {
                self.variations(&walk, k, mv, rest);
            }
        }
        if end.total() > 0 && !left_over_first {
            self.flaws.push(left_over(end));
        }
        end
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
        self.check.get_first_flaw() && self.flaws.iter().any(|f| f.kind.is_fatal_with(strict))
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
