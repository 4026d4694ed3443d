//! The attacker's plies: a shorter mate (早詰), a second mating check (余詰, and the detours,
//! transpositions and promotion choices that are not), another final move (最終手余詰).

use super::rejoin::*;
use super::report::*;
use super::run::*;
use crate::moves::Move;
use crate::position::Position;
use crate::solver::audit::Asked;
use crate::solver::budgets::{DETOUR_SHORTEN_SHARE, SIDE_HINT_SHARE, SIDE_HINT_SLACK};
use crate::solver::futile;
use crate::solver::monitor::Limits;
use crate::solver::plies::Plies;
use crate::solver::search::{NodeKind, Search, Within};
use crate::solver::shortest::{Allowance, shorten};
use crate::zobrist::KeyMap;

impl Checker<'_, '_> {
    /// 早詰: is the position at attacker ply `k` mated sooner than the `rest` of the
    /// intended line? `Some(first move of the shorter mate, if found)` when it is, and the
    /// flaw pushed (`examine` keeps only the first ply of a run of such plies: the later ones
    /// are usually the same shortcut).
    pub(super) fn shorter_mate(
        &mut self,
        walk: &Walk,
        k: usize,
        rest: i32,
    ) -> Option<Option<Move>> {
        let pos = &walk.positions[k];
        let path = &walk.keys[..k];
        let found = match self
            .search
            .within(pos, NodeKind::Or, rest - 2, path, Some(self.cap))
        {
            Within::No => return None,
            Within::Unknown => {
                self.undecided(
                    k + 1,
                    None,
                    Question::ShorterMate,
                    format!("is there a mate in {} or fewer?", rest - 2),
                );
                return None;
            }
            Within::Yes(l) => l,
        };
        // The shortest length, then its first move in generation order.
        let (len, exact) = self.shortest(pos, path, found);
        let mut first = None;
        // One share of nodes for finding the first move, over all the checks.
        let until = self.search.nodes().saturating_add(self.cap);
        for mv in pos.check_moves() {
            let mut c = pos.clone();
            c.play_unchecked(mv);
            let left = until.saturating_sub(self.search.nodes()).max(1);
            let w = self.search.within(
                &c,
                NodeKind::And,
                len as i32 - 1,
                &walk.keys[..=k],
                Some(left),
            );
            if let Within::Yes(_) = w {
                first = Some(mv);
                break;
            }
        }
        self.flaws.push(Flaw {
            moves: first.into_iter().collect(),
            length: Some(len as u32),
            length_exact: exact,
            line_length: Some(rest as u32),
            ..Flaw::new(
                FlawKind::ShorterMate,
                k + 1,
                format!(
                    "a mate in {}{len} from here, the intended line takes {rest} plies",
                    if exact { "" } else { "at most " }
                ),
            )
        });
        Some(first)
    }

    /// 最終手余詰: other moves that mate at the last ply.
    pub(super) fn final_move(&mut self, walk: &Walk, k: usize, played: Move) {
        let pos = &walk.positions[k];
        for mv in pos.check_moves() {
            if mv == played {
                continue;
            }
            let mut c = pos.clone();
            c.play_unchecked(mv);
            if futile::is_mate_on_path(&c, &walk.keys[..=k]) {
                self.flaws.push(Flaw {
                    moves: vec![mv],
                    length: Some(1),
                    length_exact: true,
                    line_length: Some(1),
                    ..Flaw::new(
                        FlawKind::AlternativeFinalMove,
                        k + 1,
                        "another move also mates at the last ply".into(),
                    )
                });
            }
        }
    }

    /// 余詰, 非限定, 手順前後: does `mv`, another check at attacker ply `k` (nothing when it is
    /// the line's own), force mate, and how does it use the line's positions (see
    /// [`Rejoin`])?
    ///
    /// Each check is searched for a mate of any length on the main table (which holds the
    /// line's proofs). One that mates is searched again on the side table with every
    /// position of the line after this ply off limits: a mate there is a second solution
    /// (余詰). Only when there is none does the check need more, how it comes back to the
    /// line ([`Checker::classify`]).
    pub(super) fn alternative_mate(
        &mut self,
        walk: &Walk,
        k: usize,
        mv: Move,
        played: Move,
        rest: i32,
    ) {
        let pos = &walk.positions[k];
        let path = &walk.keys[..=k];
        if mv == played {
            return;
        }
        let mut c = pos.clone();
        c.play_unchecked(mv);
        if walk.keys[..=k + 1].contains(&c.key()) {
            return; // back to a position the line had already reached: a detour
        }
        // Does it mate at all? On the main table, which knows the line's proofs.
        let mut answer = self
            .search
            .within_any(&c, NodeKind::And, path, Some(self.cap));
        if answer == Within::Unknown && self.search.aborted().is_none() {
            // Not settled within the share: as on the side table (`side_search`), one more
            // part of it for a mate at most a few plies longer than the line's.
            let hint = rest + SIDE_HINT_SLACK - 1;
            if let Within::Yes(len) = self.search.within(
                &c,
                NodeKind::And,
                hint,
                path,
                Some(self.cap / SIDE_HINT_SHARE),
            ) {
                answer = Within::Yes(len);
            }
        }
        let found = match answer {
            Within::No => return,
            Within::Unknown => {
                self.undecided(
                    k + 1,
                    Some(mv),
                    Question::AlternativeMate,
                    "does this check also force mate?".into(),
                );
                return;
            }
            Within::Yes(len) => len,
        };
        // It mates: again, with the line's positions off limits. Where that search needs
        // a hint, it is the main table's mate, or as long as the line's if that is shorter
        // (the main table's mate is the first it proved, at times far from the shortest).
        let hint = found.min((rest + SIDE_HINT_SLACK - 1) as u16);
        match self.side_search(walk, k, &c, Rejoin::Never, Plies::Unlimited, Some(hint)) {
            Side::Mate(len, exact) => {
                self.push_alternative(FlawKind::AlternativeMate, k, vec![mv], len, exact, rest)
            }
            Side::NoMate => self.classify(walk, k, mv, &c, played, rest, hint),
            Side::Unknown => self.undecided(
                k + 1,
                Some(mv),
                Question::AlternativeAvoidingLine,
                "does this check force mate other than through the line's positions?".into(),
            ),
        }
    }

    /// A check at ply `k` that mates, but not without the line's later positions: how does
    /// it use them? (`hint`: see [`Checker::side_search`].) A promotion choice (the played
    /// move with the other promotion flag) that mates without reaching any line position
    /// later than the line is 非限定; another check
    /// that mates reaching a line position sooner than the line does is 余詰 (it joins the
    /// line early); one that mates only through line positions reached at the line's own ply
    /// is 手順前後; one that mates only by coming back later is a detour (迂回手順), not
    /// reported. The two notes must also be as quick as the line ([`Checker::against_line`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn classify(
        &mut self,
        walk: &Walk,
        k: usize,
        mv: Move,
        c: &Position,
        played: Move,
        rest: i32,
        hint: u16,
    ) {
        let promotion_choice = mv.from().is_some()
            && mv.from() == played.from()
            && mv.to() == played.to()
            && mv.is_promotion() != played.is_promotion();
        // The side table's entries from here on may rest on line positions these searches
        // allow: it starts afresh for the next question (see `Rejoin`).
        self.side_dirty = true;
        if !promotion_choice {
            match self.side_search(walk, k, c, Rejoin::Earlier, Plies::Unlimited, Some(hint)) {
                Side::Mate(len, exact) => {
                    self.push_alternative(FlawKind::AlternativeMate, k, vec![mv], len, exact, rest);
                    return;
                }
                Side::NoMate => {}
                Side::Unknown => {
                    self.undecided(
                        k + 1,
                        Some(mv),
                        Question::AlternativeAvoidingLine,
                        "does this check force mate other than by rejoining the line?".into(),
                    );
                    return;
                }
            }
        }
        let kind = if promotion_choice {
            FlawKind::PromotionChoice
        } else {
            FlawKind::Transposition
        };
        let side = match self.side_search(walk, k, c, Rejoin::SamePly, Plies::Unlimited, Some(hint))
        {
            Side::Mate(..) => match self.against_line(walk, k, mv, c, kind, rest) {
                Some(len) => Side::Mate(len.0, len.1),
                None => return, // a second solution after all, or undecided: recorded
            },
            other => other,
        };
        match side {
            Side::Mate(len, exact) => {
                let found = rejoin_order(walk, k, mv, c, promotion_choice);
                let (moves, rejoin) = match found {
                    Some((moves, ply)) => (moves, Some(ply)),
                    None => (vec![mv], None),
                };
                self.push_alternative(kind, k, moves, len, exact, rest);
                if let Some(f) = self.flaws.last_mut() {
                    f.rejoin_ply = rejoin.map(|r| r as u32);
                    let n = walk.moves.len();
                    f.detail = match rejoin {
                        Some(j) => {
                            // The line's own moves in another order, or other moves.
                            let mut ours = f.moves.clone();
                            let mut theirs = walk.moves[k..j].to_vec();
                            ours.sort_unstable_by_key(|m| m.raw());
                            theirs.sort_unstable_by_key(|m| m.raw());
                            let how = if kind == FlawKind::PromotionChoice {
                                ""
                            } else if ours == theirs {
                                " by the line's own moves in another order"
                            } else {
                                " by other moves"
                            };
                            let at = match n - j {
                                0 => "the line's final position".to_string(),
                                1 => "1 ply from the end".to_string(),
                                d => format!("{d} plies from the end"),
                            };
                            format!(
                                "{}; it reaches{how} the line's position after ply {j}, {at}",
                                f.detail
                            )
                        }
                        None => format!(
                            "{}; it mates only through the line's positions, reached no \
                             later than the line (the order was not found by a short search)",
                            f.detail
                        ),
                    };
                }
            }
            Side::NoMate => {} // only a detour back to the line
            Side::Unknown => self.undecided(
                k + 1,
                Some(mv),
                Question::Transposition,
                "does this check reach the line's positions no later than the line \
                 (手順前後 / 非限定), or only after a detour?"
                    .into(),
            ),
        }
    }

    /// A check at ply `k` (reaching `c`) that mates through the line's positions: is it
    /// as quick as the line? Asked on the main table, without exclusions: the side table
    /// treats the capture position of a futile interposition (無駄合) as reached two plies
    /// later than the plies counted, so a line position reached through one would look like
    /// a detour there. Slower (the defender has a longer way out, where the two never meet):
    /// 余詰, pushed here. For 手順前後, faster (it joins the line sooner) is 余詰 too; for
    /// 非限定, "no later than the line" allows it. The length to report after the check and
    /// whether it is exact; `None` when a flaw or an undecided question was recorded instead.
    pub(super) fn against_line(
        &mut self,
        walk: &Walk,
        k: usize,
        mv: Move,
        c: &Position,
        kind: FlawKind,
        rest: i32,
    ) -> Option<(u16, bool)> {
        let path = &walk.keys[..=k];
        let undecided = |me: &mut Self| {
            me.undecided(
                k + 1,
                Some(mv),
                Question::Transposition,
                format!("does this check, which mates through the line, mate within the line's {rest} plies?"),
            );
            None
        };
        let as_long = match self
            .search
            .within(c, NodeKind::And, rest - 1, path, Some(self.cap))
        {
            Within::Yes(l) => l,
            Within::Unknown => return undecided(self),
            Within::No => {
                // It mates (the first search said so): the length of the mate found, if the
                // table still has it.
                let len = match self
                    .search
                    .within_any(c, NodeKind::And, path, Some(self.cap))
                {
                    Within::Yes(l) => Some(l),
                    _ => None,
                };
                self.push_alternative(
                    FlawKind::AlternativeMate,
                    k,
                    vec![mv],
                    len.unwrap_or(0),
                    false,
                    rest,
                );
                if let Some(f) = self.flaws.last_mut() {
                    f.length = len.map(|l| l as u32 + 1);
                    f.detail = format!(
                        "this check also forces mate, longer than the line ({rest} plies): it \
                         meets the line only in some variations"
                    );
                }
                return None;
            }
        };
        match self
            .search
            .within(c, NodeKind::And, rest - 3, path, Some(self.cap))
        {
            Within::No => Some(((rest - 1) as u16, true)),
            Within::Yes(l) if kind == FlawKind::PromotionChoice => Some((l.min(as_long), false)),
            Within::Yes(l) => {
                self.push_alternative(FlawKind::AlternativeMate, k, vec![mv], l, false, rest);
                if let Some(f) = self.flaws.last_mut() {
                    f.detail
                        .push_str(", sooner than the line, through its positions");
                }
                None
            }
            Within::Unknown => undecided(self),
        }
    }

    /// Records an alternative check at ply `k` that mates in `len` plies after it.
    pub(super) fn push_alternative(
        &mut self,
        kind: FlawKind,
        k: usize,
        moves: Vec<Move>,
        len: u16,
        exact: bool,
        rest: i32,
    ) {
        let what = match kind {
            FlawKind::PromotionChoice => "the other promotion choice also forces mate",
            FlawKind::Transposition => "this check also forces mate, through the line",
            _ => "this check also forces mate",
        };
        self.flaws.push(Flaw {
            moves,
            length: Some(len as u32 + 1),
            length_exact: exact,
            line_length: Some(rest as u32),
            ..Flaw::new(
                kind,
                k + 1,
                format!(
                    "{what}, in {}{} plies from here",
                    if exact { "" } else { "at most " },
                    len as u32 + 1
                ),
            )
        });
    }

    /// Searches `child` (a defender node after an alternative check at ply `k`) on the side
    /// table, with the line's positions treated as not mated as `rejoin` says, and shortens
    /// a mate it finds with a share of the question's nodes. `hint`: a length within which
    /// `child` is likely mated (the main table's mate, through the line's positions
    /// perhaps, or the line's length and a little more); when the search for a mate of any
    /// length is not settled within the share, one more part of it
    /// ([`SIDE_HINT_SHARE`]) looks for a mate within the hint. A search settled within the
    /// share gives the same answer as without the hint (the entries a retry leaves may still
    /// change later searches on the same tables).
    pub(super) fn side_search(
        &mut self,
        walk: &Walk,
        k: usize,
        child: &Position,
        rejoin: Rejoin,
        budget: Plies,
        hint: Option<u16>,
    ) -> Side {
        if self.side.is_none() {
            // A side table that cannot be allocated leaves the question undecided.
            match side_table(self.side_kib) {
                Ok(t) => {
                    // The helpers may join its searches.
                    t.ask_huge_pages_for(self.config.get_threads());
                    *self.side = Some(t)
                }
                Err(_) => return Side::Unknown,
            }
        }
        let Some(side) = self.side.as_mut() else {
            return Side::Unknown;
        };
        if self.side_dirty && rejoin == Rejoin::Never {
            side.new_search();
            self.side_dirty = false;
        }
        // What is left of the whole check's limits, without progress reports. The time left
        // is the question's own search's: a question worker's search started when the
        // questions were shared out, with the check's time left then.
        let limits = Limits {
            // With threads, the crew's count (every thread's nodes) is measured against the
            // whole limit; without, this search's own against what is left.
            nodes: self.config.get_node_limit().map(|n| match self.counter {
                Some(_) => n,
                None => n.saturating_sub(self.search.nodes()),
            }),
            time: self.search.time_left(),
            ..self.config.limits(self.stop, None)
        };
        let mut side_search = Search::new(side, self.search.attacker, limits);
        if let Some(crew) = self.search.crew_of() {
            // With threads, idle helpers may join this search on the side table. It counts
            // in the crew's nodes, which are `counter`.
            debug_assert!(self.counter.is_some());
            side_search.join_crew_on_own_table(crew);
            side_search.count_helpers_in_caps();
        }
        // Line position `j` (after ply `j`) is not mated when reached later than `at`.
        side_search.exclude(
            walk.keys
                .iter()
                .enumerate()
                .skip(k + 1)
                .map(|(j, &key)| {
                    let at = match rejoin {
                        Rejoin::Never => k + 1,
                        Rejoin::Earlier => j - 1,
                        Rejoin::SamePly => j,
                    };
                    (key, at as u32)
                })
                .collect::<KeyMap<u64, u32>>(),
        );
        if rejoin != Rejoin::Never {
            // Whether a line position is reached in time depends on the ply.
            side_search.key_by_depth();
        }
        side_search.set_path(&walk.keys[..=k]);
        let depth = (k + 1) as u32;
        let mut v = side_search.solve_until(child, NodeKind::And, depth, budget, self.cap);
        if v.is_none() && side_search.aborted().is_none() {
            // Not settled within the share. On a table without the line's proofs, a
            // search for a mate of any length can spend it all on long mates made of the
            // defender's pieces in hand (dozens of plies) and miss the short one the main
            // table's proof suggests: one more part of the share for a mate within `hint`.
            if let (Some(h), Plies::Unlimited) = (hint, budget) {
                let until = side_search.nodes() + self.cap / SIDE_HINT_SHARE;
                let hinted = side_search
                    .solve_until(child, NodeKind::And, depth, Plies::new(h), until)
                    .filter(|v| v.pn == 0);
                if hinted.is_some() {
                    v = hinted;
                }
            }
        }
        let result = match v {
            Some(v) if side_search.aborted().is_none() && v.pn == 0 => {
                let share = self.cap / DETOUR_SHORTEN_SHARE;
                let stop_at = side_search.nodes().saturating_add(share);
                let s = shorten(
                    &mut side_search,
                    child,
                    &walk.keys[..=k],
                    NodeKind::And,
                    v.len.plies(),
                    Allowance {
                        stop_at,
                        share,
                        top_down: None,
                        root: false,
                    },
                    false,
                );
                Side::Mate(s.len, s.minimal && side_search.aborted().is_none())
            }
            Some(v)
                if side_search.aborted().is_none() && v.dn == 0 && !side_search.depth_limited() =>
            {
                Side::NoMate
            }
            _ => Side::Unknown,
        };
        if let Some(log) = self.config.get_audit() {
            // The shortened length is a mate within it too: the audit checks that bound.
            let answer = match result {
                Side::Mate(len, _) => Within::Yes(len),
                Side::NoMate => Within::No,
                Side::Unknown => Within::Unknown,
            };
            log.record(Asked {
                pos: child.clone(),
                kind: NodeKind::And,
                attacker: self.search.attacker,
                budget,
                keys: walk.keys[..=k].to_vec(),
                max_depth: self.config.get_max_depth(),
                answer,
                side: side_search
                    .exclusions()
                    .map(|e| (e.clone(), rejoin != Rejoin::Never)),
            });
        }
        let used = side_search.nodes();
        if self.counter.is_some() {
            side_search.publish_nodes();
            drop(side_search);
            self.search.add_nodes_of_others(used);
        } else {
            drop(side_search);
            self.search.add_nodes(used);
        }
        result
    }
}
