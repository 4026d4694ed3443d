//! How a second mate that reaches the line's positions is told apart: sooner than the line
//! (余詰), at its own ply (手順前後), with the other promotion choice (非限定), or later (a
//! detour); and the futile interpositions of an intended line.

use super::run::*;
use crate::moves::Move;
use crate::position::Position;
use crate::solver::budgets::REJOIN_NODES;
use crate::solver::futile;
use crate::solver::search::{NodeKind, Search, Within};

/// How the side table's searches treat the positions of the line after the ply in question
/// (each is a position the line mates in what is left of it): as not mated when reached
/// anywhere after the alternative ([`Rejoin::Never`], a mate that never touches the line: a
/// second solution), when reached at the line's own ply or later ([`Rejoin::Earlier`]: a mate
/// may join the line sooner than the line does), or only when reached later than the line
/// ([`Rejoin::SamePly`], as a detour does).
///
/// A proof found under more exclusions holds under fewer, and a refutation reaches the table
/// only when it rests on no excluded position: so one table serves every [`Rejoin::Never`]
/// search of a problem, and the other two after them, after which the table starts afresh.
/// In a [`Rejoin::Never`] search every position of the line is off limits whatever the ply
/// asked about (those up to it are on the search's path, where reaching one again counts as
/// not mated; the later ones are excluded), so its proofs hold for any ply, in any order of
/// plies (the first-flaw check walks the line twice).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rejoin {
    Never,
    Earlier,
    SamePly,
}

/// The answer of a side-table search.
#[derive(Debug)]
pub(super) enum Side {
    /// Mated: the length after the check (the shortest found) and whether it is proven
    /// shortest.
    Mate(u16, bool),
    /// Not mated.
    NoMate,
    Unknown,
}

/// Plies after the alternative within which that order is looked for.
const REJOIN_PLIES: usize = 8;

/// One order of moves, `mv` (the alternative check at ply `k`, reaching `after`) first, by
/// which the play reaches a position of the line: at the line's own ply, or with
/// `no_later`, at that ply or sooner. The moves and the line's ply (the line's position
/// after that many plies). A bounded depth-first search, the line's own moves tried first; it
/// only shows an order, the classifying searches have shown that the attacker can force one.
pub(super) fn rejoin_order(
    walk: &Walk,
    k: usize,
    mv: Move,
    after: &Position,
    no_later: bool,
) -> Option<(Vec<Move>, usize)> {
    fn dfs(
        walk: &Walk,
        pos: &Position,
        ply: usize,
        left: usize,
        no_later: bool,
        moves: &mut Vec<Move>,
        budget: &mut u32,
    ) -> Option<usize> {
        let key = pos.key();
        let n = walk.moves.len();
        if no_later {
            if let Some(j) = (ply..=n).find(|&j| walk.keys[j] == key) {
                return Some(j);
            }
        } else if ply <= n && walk.keys[ply] == key {
            return Some(ply);
        }
        if left == 0 || *budget == 0 || ply >= n {
            return None;
        }
        *budget -= 1;
        let attacker = ply % 2 == 0;
        let mut list: Vec<Move> = if attacker {
            pos.check_moves().iter().copied().collect()
        } else {
            pos.legal_moves().iter().copied().collect()
        };
        if let Some(i) = list.iter().position(|&m| m == walk.moves[ply]) {
            list.swap(0, i);
        }
        for m in list {
            let mut c = pos.clone();
            c.play_unchecked(m);
            moves.push(m);
            if let Some(j) = dfs(walk, &c, ply + 1, left - 1, no_later, moves, budget) {
                return Some(j);
            }
            moves.pop();
        }
        None
    }
    let mut budget = REJOIN_NODES;
    for depth in 1..=REJOIN_PLIES {
        let mut moves = vec![mv];
        if let Some(j) = dfs(walk, after, k + 1, depth, no_later, &mut moves, &mut budget) {
            return Some((moves, j));
        }
        if budget == 0 {
            break;
        }
    }
    None
}

/// The first defender move of `moves` (a verified mating line from `root`) that is a futile
/// interposition: its capture position is mated as soon as the line goes on after it, each
/// question searched with at most `cap` nodes. The 1-based ply, the move, and whether it was
/// shown futile (true) or the question could not be settled (false).
pub(super) fn futile_in_line(
    search: &mut Search<'_>,
    root: &Position,
    moves: &[Move],
    cap: u64,
) -> Option<(usize, Move, bool)> {
    let walk = Walk::new(root, moves);
    let n = moves.len();
    for k in (1..n).step_by(2) {
        let pos = &walk.positions[k];
        let mv = moves[k];
        let Some((checker, between)) = futile::distant_check(pos) else {
            continue;
        };
        if !between.contains(mv.to()) {
            continue;
        }
        if futile::repeated_interpositions(pos, &walk.keys[..=k]).contains(&mv) {
            return Some((k + 1, mv, true));
        }
        let Some(q) = futile::capture_position(pos, mv, checker) else {
            continue;
        };
        // The reply is worth (n - k) plies in the line; its capture position no more.
        let rest = (n - k) as i32;
        match search.within(&q, NodeKind::And, rest, &walk.keys[..=k], Some(cap)) {
            Within::Yes(_) => return Some((k + 1, mv, true)),
            Within::Unknown => return Some((k + 1, mv, false)),
            Within::No => {}
        }
    }
    None
}
