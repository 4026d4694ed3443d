//! The defender's plies: another reply as long as the line (変同) or longer (変長), and a
//! second mate after a side variation's first check (変化別詰).

use super::report::*;
use super::run::*;
use crate::moves::Move;
use crate::position::Position;
use crate::solver::futile;
use crate::solver::line::{self, WalkMode};
use crate::solver::search::{NodeKind, Within};

impl Checker<'_, '_> {
    /// 変同 / 変長 for one reply `mv` at defender ply `k`, where the line has `rest` plies
    /// left (this reply included); nothing when it is the line's own.
    pub(super) fn variation(&mut self, walk: &Walk, k: usize, mv: Move, played: Move, rest: i32) {
        let pos = &walk.positions[k];
        let path = &walk.keys[..=k];
        if mv == played || futile::repeated_interpositions(pos, path).contains(&mv) {
            // A repeated interposition (the saw rule) is worth nothing: no variation.
            return;
        }
        let mut c = pos.clone();
        c.play_unchecked(mv);
        let capture = futile::distant_check(pos)
            .filter(|(_, between)| between.contains(mv.to()))
            .and_then(|(checker, _)| futile::capture_position(pos, mv, checker));
        let cap = Some(self.cap);
        // Shorter than the line (or futile, refuted by its capture as soon): nothing to say.
        let short = self.search.within(&c, NodeKind::Or, rest - 3, path, cap);
        let q_short = match &capture {
            Some(q) => self.search.within(q, NodeKind::And, rest, path, cap),
            None => Within::No,
        };
        if matches!(q_short, Within::Yes(_)) {
            return; // a futile interposition: no variation
        }
        if let Within::Yes(found) = short {
            if self.check.get_variations() {
                self.variation_mates(walk, k, mv, &c, found);
            }
            return;
        }
        let same = self.search.within(&c, NodeKind::Or, rest - 1, path, cap);
        match (short, q_short, same) {
            (Within::No, Within::No, Within::Yes(found)) => {
                if self.check.get_variations() {
                    self.variation_mates(walk, k, mv, &c, found);
                }
                self.equal_length(walk, k, mv, &c, rest)
            }
            (Within::No, Within::No, Within::No) => self.longer(walk, k, mv, &c, rest),
            _ => self.undecided(
                k + 1,
                Some(mv),
                Question::DefenceLength,
                format!("is this defence as long as the line ({rest} plies)?"),
            ),
        }
    }

    /// 変化別詰: after `defence` at defender ply `k` (reaching `child`, mated within `found`
    /// plies, no later than the line), the checks that mate as quickly as the quickest. The
    /// first in generation order is the variation's mate, each other one a note. Only the
    /// first attacker ply of the variation is examined, only when its shortest mate is proven
    /// and at least 3 plies (a variation's last move with two mates is left out, as noisy as
    /// it is harmless), and a question that its share cannot settle is not listed: the kind
    /// is a note, it cannot change the verdict.
    pub(super) fn variation_mates(
        &mut self,
        walk: &Walk,
        k: usize,
        defence: Move,
        child: &Position,
        found: u16,
    ) {
        let path = &walk.keys[..=k];
        let (len, exact) = self.shortest(child, path, found);
        if !exact || len < 3 {
            return;
        }
        let mut inner = path.to_vec();
        inner.push(child.key());
        let mut first: Option<Move> = None;
        for mv in child.check_moves() {
            let mut c = child.clone();
            c.play_unchecked(mv);
            let w = self
                .search
                .within(&c, NodeKind::And, len as i32 - 1, &inner, Some(self.cap));
            if !matches!(w, Within::Yes(_)) {
                continue;
            }
            let Some(main) = first else {
                first = Some(mv);
                continue;
            };
            let rest = (walk.moves.len() - k) as u32;
            self.flaws.push(Flaw {
                moves: vec![defence, mv],
                length: Some(len as u32 + 1),
                length_exact: true,
                line_length: Some(rest),
                ..Flaw::new(
                    FlawKind::VariationAlternativeMate,
                    k + 1,
                    format!(
                        "after this defence, this check mates in {len} plies, as quickly as {main}"
                    ),
                )
            });
        }
    }

    /// A reply as long as the line: 変同 if its line leaves the attacker no pieces.
    pub(super) fn equal_length(
        &mut self,
        walk: &Walk,
        k: usize,
        mv: Move,
        child: &Position,
        rest: i32,
    ) {
        let path = &walk.keys[..=k];
        let line = line::extract_line(
            self.search,
            child,
            path,
            (rest - 1) as u16,
            WalkMode::main_line(true, false),
            self.cap,
        );
        match line {
            Some(w) if w.hand_left.total() == 0 => {
                let mut moves = vec![mv];
                moves.extend(w.moves);
                self.flaws.push(Flaw {
                    moves,
                    length: Some(rest as u32),
                    length_exact: true,
                    line_length: Some(rest as u32),
                    ..Flaw::new(
                        FlawKind::EqualLengthVariation,
                        k + 1,
                        "another defence is as long and leaves no pieces over".into(),
                    )
                });
            }
            Some(w) if w.exact => {} // as long, but with pieces left over: not a 変同
            _ => self.undecided(
                k + 1,
                Some(mv),
                Question::EqualLengthPieces,
                "does this equally long defence end with no pieces left over?".into(),
            ),
        }
    }

    /// A reply longer than the line: 変長, or no mate at all after it.
    pub(super) fn longer(&mut self, walk: &Walk, k: usize, mv: Move, child: &Position, rest: i32) {
        let path = &walk.keys[..=k];
        match self
            .search
            .within_any(child, NodeKind::Or, path, Some(self.cap))
        {
            Within::Yes(found) => {
                let (len, exact) = self.shortest(child, path, found);
                if !self.intended {
                    // The line checked is the solver's own: a longer defence shows that its
                    // line is not the main line, not that the problem has a 変長.
                    self.undecided(
                        k + 1,
                        Some(mv),
                        Question::MainLineDefences,
                        format!(
                            "this defence lasts {}{} plies, longer than the solver's line \
                             ({rest}): which defence is the longest?",
                            if exact { "" } else { "at most " },
                            len as u32 + 1
                        ),
                    );
                    return;
                }
                self.flaws.push(Flaw {
                    moves: vec![mv],
                    length: Some(len as u32 + 1),
                    length_exact: exact,
                    line_length: Some(rest as u32),
                    ..Flaw::new(
                        FlawKind::LongerVariation,
                        k + 1,
                        format!(
                            "this defence lasts {}{} plies, the line {rest}",
                            if exact { "" } else { "at most " },
                            len as u32 + 1
                        ),
                    )
                });
            }
            Within::No => self.flaws.push(Flaw {
                moves: vec![mv],
                line_length: Some(rest as u32),
                ..Flaw::new(
                    FlawKind::NoMate,
                    k + 1,
                    "after this defence there is no mate".into(),
                )
            }),
            Within::Unknown => self.undecided(
                k + 1,
                Some(mv),
                Question::LongerDefence,
                "how long does this defence last (longer than the line)?".into(),
            ),
        }
    }
}
