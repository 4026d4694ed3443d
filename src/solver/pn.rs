//! Proof and disproof numbers with saturating arithmetic, and a node's value (its numbers,
//! proof or disproof hand, mate length or disproof depth).

use super::plies::Plies;
use crate::hand::Hand;

/// A proof or disproof number. [`INF`] marks a solved node (pn = 0 and dn = INF for a proof,
/// the reverse for a disproof); ordinary values saturate at [`INF_1`].
pub(crate) type PnDn = u32;

/// Infinity: the node is solved.
pub(crate) const INF: PnDn = u32::MAX;
/// The largest finite value; sums saturate here rather than reach [`INF`].
pub(crate) const INF_1: PnDn = u32::MAX - 1;

/// `a + b`, infinite if either is, else saturating at [`INF_1`].
#[inline]
pub(crate) fn add(a: PnDn, b: PnDn) -> PnDn {
    if a == INF || b == INF {
        INF
    } else {
        (a as u64 + b as u64).min(INF_1 as u64) as PnDn
    }
}

/// The threshold handed to the best child under the 1+ε trick: a little above the second
/// best sibling's value (ε = 1/4), but never above the node's own threshold. Used for the
/// proof-number threshold of an OR node's best check, and at an AND node for the proof-number
/// threshold of a reply's real child or capture position while both are open.
#[inline]
pub(crate) fn epsilon_threshold(own: PnDn, second: PnDn) -> PnDn {
    grown_threshold(own, second, 4)
}

/// [`epsilon_threshold`] with ε = 1/8, for the disproof-number threshold of an AND node's
/// best reply. A smaller ε there switches sooner between replies that refute about as well;
/// measured against 1/4 it took fewer nodes on hard disproofs (the checker's suites 7-9 %
/// fewer) and first proofs (the seven long problems' 7.34 M to 6.92 M); 1/6, 1/10, 1/12 and
/// 1/16 took more first-proof nodes, and 1/6 and 1/16 more on the checker.
#[inline]
pub(crate) fn reply_epsilon_threshold(own: PnDn, second: PnDn) -> PnDn {
    grown_threshold(own, second, 8)
}

#[inline]
fn grown_threshold(own: PnDn, second: PnDn, inverse_epsilon: u64) -> PnDn {
    let grown = second as u64 + 1 + second as u64 / inverse_epsilon;
    own.min(grown.min(INF_1 as u64) as PnDn)
}

/// `th - total + part`, the threshold left for one child when its siblings account for
/// `total - part` of the node's sum; saturating at [`INF_1`], and at least `part + 1` so the
/// child always has room to grow.
#[inline]
pub(crate) fn remaining_threshold(th: PnDn, total: PnDn, part: PnDn) -> PnDn {
    if th >= INF_1 {
        return INF_1; // unbounded stays unbounded
    }
    let v = th as i64 - total as i64 + part as i64;
    v.clamp(part as i64 + 1, INF_1 as i64) as PnDn
}

/// The pn/dn pair of a proven node.
pub(crate) const PROVEN: (PnDn, PnDn) = (0, INF);
/// The pn/dn pair of a disproven node.
pub(crate) const DISPROVEN: (PnDn, PnDn) = (INF, 0);

/// A node's value as its parent sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Value {
    pub pn: PnDn,
    pub dn: PnDn,
    /// Proof hand if proven, disproof hand if disproven, else the hand searched.
    pub hand: Hand,
    /// Mate length (plies) below a proven node; for a disproven node, the number of plies
    /// within which there is no mate (no limit: none at all).
    pub len: Plies,
    /// For a disproof: the ply of the shallowest position of the current path that it
    /// rests on (reaching it again repeats, so it counts as not mated), [`REP_OUTSIDE`] for
    /// one that rests on something outside the search (an exclusion, the depth limit), and
    /// [`NOT_ON_PATH`] for one that holds on any path. See [`Value::settled_at`].
    pub rep: u32,
    /// For a proof: the ply of the shallowest position of the current path that the proof
    /// rests on ([`NOT_ON_PATH`]: none). A repeated interposition (the saw rule of
    /// `futile.rs`) is left out only because its capture position is on the path; the proof
    /// holds on other paths that have the positions it rests on ([`Value::rests_plies`]),
    /// and on any path once the shallowest of them is proven, where it stops resting on
    /// anything.
    pub rests_on: u32,
    /// For a proof: the plies of the path positions it rests on, modulo 64 (bit `p % 64`
    /// for ply `p`). With [`Value::rests_on`], the shallowest, it names a set of path
    /// positions that holds all those the proof rests on (and others, where plies 64 apart
    /// share a bit); the proof holds on any path that has them (`PathProofs`).
    pub rests_plies: u64,
    /// For a disproof: the ply of the shallowest node of the search that it rests on through
    /// an inferior repetition (劣等局面, see `Search::lookup_keys`), [`NOT_ON_PATH`] for
    /// none; such a node is in [`Value::rep`] too. The disproof then holds for that node's
    /// smallest mate, not for the positions below it taken on their own: a search from
    /// further down the path must not reuse it (`Path::on_path_result`).
    pub inf: u32,
}

/// [`Value::rests_on`] of a proof, or [`Value::rep`] of a disproof, that holds on any path.
pub(crate) const NOT_ON_PATH: u32 = u32::MAX;

/// [`Value::rep`] of a disproof that holds on this path only, whatever the node's ply: it
/// rests on an excluded position (the checker's searches) or on the depth limit. (Ply 0, the
/// root of a search with no path before it, is never a repetition that settles.)
pub(crate) const REP_OUTSIDE: u32 = 0;

impl Value {
    pub fn proven(hand: Hand, len: Plies) -> Value {
        let (pn, dn) = PROVEN;
        Value {
            pn,
            dn,
            hand,
            len,
            rep: NOT_ON_PATH,
            rests_on: NOT_ON_PATH,
            rests_plies: 0,
            inf: NOT_ON_PATH,
        }
    }
    /// A disproof resting on the path position at ply `rep` ([`NOT_ON_PATH`]: on none).
    pub fn disproven(hand: Hand, rep: u32, depth: Plies) -> Value {
        let (pn, dn) = DISPROVEN;
        Value {
            pn,
            dn,
            hand,
            len: depth,
            rep,
            rests_on: NOT_ON_PATH,
            rests_plies: 0,
            inf: NOT_ON_PATH,
        }
    }
    /// This disproof, resting on an inferior repetition of the node at ply `ply` as well
    /// (see [`Value::inf`]).
    pub fn through_inferior(mut self, ply: u32) -> Value {
        self.inf = self.inf.min(ply);
        self
    }
    /// This proof, resting on the path position at ply `ply` as well (see
    /// [`Value::rests_on`]).
    pub fn resting_on(mut self, ply: u32) -> Value {
        if ply != NOT_ON_PATH {
            self.rests_on = self.rests_on.min(ply);
            self.rests_plies |= 1 << (ply % 64);
        }
        self
    }
    /// This proof, resting on every path position that the proof `other` rests on as well.
    pub fn resting_on_all(self, other: &Value) -> Value {
        let mut v = self.resting_on(other.rests_on);
        if other.rests_on != NOT_ON_PATH {
            v.rests_plies |= other.rests_plies;
        }
        v
    }
    /// Whether this is a proof that holds on the current path only.
    pub fn on_path_only(&self) -> bool {
        self.pn == 0 && self.rests_on != NOT_ON_PATH
    }
    /// Whether this is a disproof that holds on the current path only (it rests on a
    /// repetition of a position above its node, or on something outside the search).
    pub fn rests_on_repetition(&self) -> bool {
        self.rep != NOT_ON_PATH
    }
    /// The value as its node at ply `ply` records it: a proof that rests on no position
    /// above the node holds on any path (the positions it rests on are the node itself or
    /// below it, proven with it).
    ///
    /// So does a disproof that rests on no repetition of a position above the node: every
    /// repetition it counts as not mated comes back to the node itself (or to a node below
    /// it, settled there). A mate from the node would need a mate tree, and its smallest
    /// one never passes through the node again, so a search that counts the way back to
    /// the node as not mated still finds it; having found none, the node is not mated
    /// whatever path leads to it. (Generalised history interaction: only repetitions of
    /// positions above the node make a result depend on the path.)
    pub fn settled_at(mut self, ply: u32) -> Value {
        if self.rests_on >= ply {
            self.rests_on = NOT_ON_PATH;
            self.rests_plies = 0;
        }
        if self.rep != REP_OUTSIDE && self.rep >= ply {
            self.rep = NOT_ON_PATH;
        }
        if self.inf >= ply {
            self.inf = NOT_ON_PATH;
        }
        self
    }
    pub fn is_proven(&self) -> bool {
        self.pn == 0
    }
    pub fn is_disproven(&self) -> bool {
        self.dn == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repetition_disproof_settles_at_the_node_it_comes_back_to() {
        let v = Value::disproven(Hand::EMPTY, 4, Plies::Unlimited);
        assert!(v.rests_on_repetition());
        assert!(
            v.settled_at(5).rests_on_repetition(),
            "rests on a node above ply 5"
        );
        assert!(
            !v.settled_at(4).rests_on_repetition(),
            "comes back to the node itself"
        );
        assert!(!v.settled_at(2).rests_on_repetition());
        let outside = Value::disproven(Hand::EMPTY, REP_OUTSIDE, Plies::Unlimited);
        assert!(
            outside.settled_at(0).rests_on_repetition(),
            "an exclusion never settles"
        );
        assert!(outside.settled_at(9).rests_on_repetition());
        let plain = Value::disproven(Hand::EMPTY, NOT_ON_PATH, Plies::Unlimited);
        assert!(!plain.settled_at(3).rests_on_repetition());
    }

    #[test]
    fn saturating_sums() {
        assert_eq!(add(1, 2), 3);
        assert_eq!(add(INF_1, 5), INF_1);
        assert_eq!(add(INF, 0), INF);
        assert_eq!(add(3, INF), INF);
    }

    #[test]
    fn thresholds() {
        assert_eq!(epsilon_threshold(100, 8), 11);
        assert_eq!(epsilon_threshold(5, 8), 5);
        assert_eq!(epsilon_threshold(INF_1, INF), INF_1);
        assert_eq!(reply_epsilon_threshold(100, 16), 19);
        assert_eq!(reply_epsilon_threshold(10, 16), 10);
        assert_eq!(reply_epsilon_threshold(INF_1, INF), INF_1);
        assert_eq!(remaining_threshold(10, 7, 3), 6);
        assert_eq!(remaining_threshold(INF_1, 7, 3), INF_1);
        assert_eq!(remaining_threshold(5, 20, 3), 4);
    }
}
