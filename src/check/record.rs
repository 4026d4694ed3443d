//! A report as a record: the line checked with each flaw's alternative as a variation, for a
//! KIF file a composer opens in a shogi GUI, and a flaw's moves in Japanese notation.

use super::report::{Flaw, FlawKind, Report};
use crate::moves::Move;
use crate::notation::{japanese_line, japanese_move};
use crate::position::Position;
use crate::problem::{Problem, Variation};
use crate::solver::{Outcome, Solver};
use std::time::Instant;

impl Report {
    /// The problem as checked, as a record: the line checked as its main line, each flaw's
    /// alternative as a variation from the ply where it branches (its first move commented
    /// with the flaw's kind and detail), and the verdict and the undecided questions in the
    /// record's comment. [`write_kif`](crate::problem::write_kif) or
    /// [`write_file`](crate::problem::write_file) then gives a KIF file in which a GUI shows
    /// every flaw on the board.
    ///
    /// `source` is the problem that was checked (its position, name and origin are kept). A
    /// flaw that names only its first move (余詰, 早詰: another check that mates) gets the rest
    /// of its line from `extend`, given the position after that move: for instance
    /// [`Solver::longest_defence`]; `|_| None` writes the first move alone.
    ///
    /// ```
    /// use tsume::check::CheckConfig;
    /// use tsume::problem::{read_one, write_kif};
    /// use tsume::solver::{Solver, SolverConfig};
    /// let mut solver = Solver::new(SolverConfig::new().hash_mib(16));
    /// let problem = read_one("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1", "<argument>")?;
    /// let report = solver.check(&problem.position, None, &CheckConfig::new());
    /// let record = report.to_problem(&problem, |after| solver.longest_defence(after, None));
    /// assert_eq!(record.moves.len(), 3);
    /// assert_eq!(record.variations.len(), 1); // 変同 at ply 2
    /// assert!(write_kif(&record).contains("変化：2手"));
    /// # Ok::<(), tsume::problem::ProblemError>(())
    /// ```
    pub fn to_problem(
        &self,
        source: &Problem,
        mut extend: impl FnMut(&Position) -> Option<Vec<Move>>,
    ) -> Problem {
        let pos = &source.position;
        let mut out = Problem::new(pos.clone(), source.origin.clone(), source.format);
        out.name = source.name.clone();
        out.moves = self.line.clone();
        let mut notes = vec![format!(
            "{}: {}",
            if self.checked_intended {
                "作意 (intended line)"
            } else {
                "main line"
            },
            self.verdict
        )];
        if !self.line.is_empty() {
            out.termination = Some("詰み".to_string());
        }
        for f in &self.flaws {
            let what = format!("{} ({}): {}", f.kind.japanese(), f.kind, f.detail);
            // An invalid intended line's flaw refers to the line as given, not to this one.
            let mut before = pos.clone();
            let branches = f.kind != FlawKind::InvalidIntendedLine
                && !f.moves.is_empty()
                && f.ply >= 1
                && f.ply as usize <= self.line.len()
                && self.line[..f.ply as usize - 1]
                    .iter()
                    .all(|&m| before.play(m).is_ok())
                && f.moves.iter().all(|&m| before.play(m).is_ok());
            if branches {
                let mut moves = f.moves.clone();
                if moves.len() == 1 && f.length.is_some_and(|n| n > 1) {
                    moves.extend(extend(&before).unwrap_or_default());
                }
                out.variations.push(Variation {
                    ply: f.ply as usize,
                    parent: None,
                    moves,
                    comment: what,
                });
            } else {
                notes.push(format!("ply {}: {what}", f.ply));
            }
        }
        for u in &self.undecided {
            notes.push(format!(
                "ply {}: undecided: {} ({})",
                u.ply, u.question, u.reason
            ));
        }
        out.comment = notes.join("\n");
        out
    }

    /// A flaw's moves in Japanese notation (`▲５二角成 △同　銀 ...`), played from the
    /// position before its ply on the line it refers to (the intended line as given for
    /// [`FlawKind::InvalidIntendedLine`], else the line checked); `root` is the problem's
    /// position. Empty when the flaw has no moves, or they cannot be played there.
    pub fn flaw_in_japanese(&self, root: &Position, flaw: &Flaw) -> String {
        if flaw.moves.is_empty() {
            return String::new();
        }
        let line = match (&self.intended, flaw.kind) {
            (Some(given), FlawKind::InvalidIntendedLine) => given,
            _ => &self.line,
        };
        let mut before = root.clone();
        for &mv in line.iter().take((flaw.ply as usize).saturating_sub(1)) {
            if before.play(mv).is_err() {
                return String::new();
            }
        }
        let previous = flaw
            .ply
            .checked_sub(2)
            .and_then(|i| line.get(i as usize))
            .copied();
        let mut p = before.clone();
        if p.check_legality(flaw.moves[0]).is_err() {
            return String::new();
        }
        let mut out = vec![japanese_move(&before, flaw.moves[0], previous)];
        p.play_unchecked(flaw.moves[0]);
        out.extend(japanese_line(&p, &flaw.moves[1..]));
        out.join(" ")
    }
}

impl Solver {
    /// A line from `after` (the defender to move, after an attacker's check) for showing a
    /// flaw's alternative: the defender's longest reply, each reply solved on its own, then
    /// the main line after it. `None` when some reply is not mated within the solver's limits
    /// or `deadline` passes (a time limit applies to each solve, `deadline` to them all).
    ///
    /// Each reply is solved on its own, so an interposition may be shown that the main line
    /// would leave out as futile (無駄合): a variation in a record shows the defence played.
    pub fn longest_defence(
        &mut self,
        after: &Position,
        deadline: Option<Instant>,
    ) -> Option<Vec<Move>> {
        let whole = self.config().clone();
        let best = self.longest_reply(after, deadline, &whole);
        // Same table size: the table is kept.
        let _ = self.set_config(whole);
        best
    }

    /// [`Solver::longest_defence`] under `whole`, the solver's own settings, each solve given
    /// the time left.
    fn longest_reply(
        &mut self,
        after: &Position,
        deadline: Option<Instant>,
        whole: &crate::solver::SolverConfig,
    ) -> Option<Vec<Move>> {
        let mut best: Option<(u32, Vec<Move>)> = None;
        for &reply in after.legal_moves().iter() {
            let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            if left.is_some_and(|l| l.is_zero()) {
                return None;
            }
            let time = match (whole.get_time_limit(), left) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let _ = self.set_config(whole.clone().time_limit(time));
            let mut q = after.clone();
            q.play_unchecked(reply);
            let Outcome::Mate(line) = self.solve(&q).outcome else {
                return None;
            };
            if best.as_ref().is_none_or(|b| b.0 < line.length()) {
                let mut l = vec![reply];
                l.extend_from_slice(line.moves());
                best = Some((line.length(), l));
            }
        }
        Some(best.map(|b| b.1).unwrap_or_default())
    }
}
