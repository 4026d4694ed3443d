//! A node's children as the df-pn loops see them: the child list with each child's value,
//! the capture positions of interpositions (the futile-interposition rule's second refutation),
//! the order in which interposition drops on one square are expanded (delayed interposition),
//! the summary a node's loop needs (best child, second best, weak sum), and the df-pn+ initial
//! numbers of a new AND node.

use super::plies::Plies;
use super::pn::{INF, PROVEN, PnDn, Value, add};
use crate::bitboard::Bitboard;
use crate::hand::Hand;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{PieceKind, Square};
use smallvec::SmallVec;

pub(crate) struct Child {
    pub mv: Move,
    pub v: Value,
    /// For an interposition at an AND node: index of its capture position's value in the
    /// node's list (shared by the drops on one square).
    pub q: Option<u8>,
}

/// A node's children, on the stack for all but the widest nodes.
pub(crate) type Children = SmallVec<[Child; 24]>;

/// What a node's loop needs from its children. `min` is over the numbers the node minimises
/// (pn at an OR node, dn at an AND node), with the child that has it (the first on ties) and
/// the second smallest; `weak` combines the other numbers as a weak sum (Ueda et al. 2008): the
/// largest plus one per other open child, rather than the plain sum, which counts subtrees
/// shared in the DAG again and again. Zero when every child is zero there.
pub(crate) struct Summary {
    pub best: usize,
    pub min: PnDn,
    pub second: PnDn,
    pub weak: PnDn,
}

/// Summarises `children`; `numbers` gives a child's (minimised, weakly summed) pair.
#[inline]
pub(crate) fn summarize(children: &[Child], numbers: impl Fn(&Child) -> (PnDn, PnDn)) -> Summary {
    summarize_grouped(children, |c| {
        let (m, w) = numbers(c);
        (m, w, false)
    })
}

/// [`summarize`], where the open children that `numbers` marks (its third value) count once
/// together in the weak sum, as one child with the largest of their numbers.
#[inline]
pub(crate) fn summarize_grouped(
    children: &[Child],
    numbers: impl Fn(&Child) -> (PnDn, PnDn, bool),
) -> Summary {
    let mut out = Summary {
        best: 0,
        min: INF,
        second: INF,
        weak: 0,
    };
    let mut largest: PnDn = 0;
    let mut open: PnDn = 0;
    let mut grouped_open = false;
    for (i, ch) in children.iter().enumerate() {
        let (m, w, grouped) = numbers(ch);
        if m < out.min {
            out.second = out.min;
            out.min = m;
            out.best = i;
        } else if m < out.second {
            out.second = m;
        }
        if w != 0 {
            largest = largest.max(w);
            if !grouped {
                open += 1;
            } else if !grouped_open {
                grouped_open = true;
                open += 1;
            }
        }
    }
    if open > 0 {
        out.weak = add(largest, open - 1);
    }
    out
}

/// An AND node's children as its loop sees them: each reply with its value, the values of
/// the capture positions of interpositions (shared by the drops on one square), and the
/// squares whose next drop kinds are still to come (square, index into [`DROP_ORDER`]).
#[derive(Default)]
pub(crate) struct Expansion {
    pub children: Children,
    pub caps: SmallVec<[Value; 8]>,
    pub pending: SmallVec<[(Square, u8); 8]>,
    /// The capture positions (indices into `caps`) that settle drop kinds never expanded
    /// as children: a proven capture position refutes every drop on its square, so the
    /// kinds after the ones expanded are not searched, and the node's proof rests on the
    /// capture position for them ([`Expansion::proof`]).
    pub settled: SmallVec<[u8; 4]>,
    /// The plies of the path positions that left-out repeated interpositions came back to
    /// (the saw rule of `futile.rs`): the node's proof then holds on this path only.
    pub repeated_at: SmallVec<[u32; 2]>,
    /// The drop squares whose open drops count once together in the weak proof-number sum
    /// ([`folded_squares`]).
    pub folded: Bitboard,
}

impl Expansion {
    /// The proof of the AND node once every child is refuted: the proof hand (at least
    /// `guard`, at most the attacker's `hand`), the mate length (the most any reply is
    /// worth) and the reply that is worth it. A square whose drops are settled by their
    /// capture position counts that position's hand and length whatever the drop that
    /// stands for the square was worth by its own line: the kinds not expanded are worth up
    /// to the capture position's length, and are refuted only with its hand.
    pub fn proof(&self, guard: Hand, hand: Hand) -> (Hand, Plies, Move) {
        let mut ph = guard;
        let mut len = Plies::ZERO;
        let mut longest = self.children[0].mv;
        for ch in &self.children {
            let (mut h, mut l) = proof_route(ch, &self.caps);
            if let Some(i) = ch.q.filter(|i| self.settled.contains(i)) {
                let q = self.caps[i as usize];
                debug_assert!(q.is_proven(), "a settling capture position is proven");
                h = h.max(q.hand);
                l = l.max(q.len);
            }
            ph = ph.max(h);
            if l >= len {
                len = l;
                longest = ch.mv;
            }
        }
        (ph.min(hand), len, longest)
    }

    /// `v`, the node's proof, resting on what its proof rests on: a left-out repeated
    /// interposition's path position, and the path positions its proven children and capture
    /// positions rest on (all of them, used or not: the safe side).
    pub fn resting(&self, mut v: Value) -> Value {
        for &at in &self.repeated_at {
            v = v.resting_on(at);
        }
        for ch in &self.children {
            if ch.v.is_proven() {
                v = v.resting_on_all(&ch.v);
            }
        }
        for q in &self.caps {
            if q.is_proven() {
                v = v.resting_on_all(q);
            }
        }
        v
    }

    /// Marks the capture position `qi` as settling drop kinds that are not children.
    pub fn settle(&mut self, qi: u8) {
        if !self.settled.contains(&qi) {
            self.settled.push(qi);
        }
    }

    /// The summary an AND node needs: the smallest dn (with its child and the second
    /// smallest) and the weak sum of the pn, each child seen with its capture position, the
    /// open drops on the [`folded_squares`] counting once together.
    pub fn summary_and(&self) -> Summary {
        summarize_grouped(&self.children, |c| {
            let (p, d) = effective(c, &self.caps);
            (d, p, c.mv.is_drop() && self.folded.contains(c.mv.to()))
        })
    }
}

/// Order in which same-square interposition drops are expanded, one kind at a time.
pub(crate) const DROP_ORDER: [PieceKind; 7] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Silver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
];

/// The (pn, dn) of an AND node's child as the node sees it: an interposition is refuted when
/// either its own child or its capture position is proven, and stands only when both are
/// disproven.
#[inline]
pub(crate) fn effective(ch: &Child, caps: &[Value]) -> (PnDn, PnDn) {
    let v = ch.v;
    let Some(i) = ch.q else {
        return (v.pn, v.dn);
    };
    let q = caps[i as usize];
    if v.is_proven() || q.is_proven() {
        PROVEN
    } else if q.is_disproven() {
        (v.pn, v.dn)
    } else if v.is_disproven() {
        (q.pn, q.dn)
    } else {
        (v.pn.min(q.pn), add(v.dn, q.dn))
    }
}

/// How a refuted AND child was refuted: the proof hand and the plies it adds to the node's
/// mate (one plus the child's mate when counted; the capture position's mate when futile; the
/// shorter when both are proven).
pub(crate) fn proof_route(ch: &Child, caps: &[Value]) -> (Hand, Plies) {
    let real = ch.v.is_proven().then(|| (ch.v.hand, ch.v.len.inc()));
    let capture =
        ch.q.map(|i| caps[i as usize])
            .filter(|q| q.is_proven())
            .map(|q| (q.hand, q.len));
    match (real, capture) {
        (Some(r), Some(c)) => {
            if c.1 < r.1 {
                c
            } else {
                r
            }
        }
        (Some(r), None) => r,
        (None, Some(c)) => c,
        (None, None) => (Hand::EMPTY, Plies::ZERO),
    }
}

/// The squares between a distant horse or dragon and the king, at least two of them, that no
/// defender piece (the king included) guards: interpositions there are often futile (the
/// checker takes the piece and the check stands as before), so the open drops on them
/// count once together in the AND node's weak proof-number sum, as if they were one reply
/// (shtsume merges them into one move). Only the numbers change: each drop is still a child
/// and is still refuted, by its own line or by its capture position.
///
/// Measured (the history of benches/README.md in git, "Folded interpositions, again"): Astral Traveler's first
/// proof 1.58 M -> 1.05 M nodes, Microcosmos' 21.2 M -> 22.4 M; folding for a lance, rook or
/// bishop too made each node dearer (more of the search in nodes with many drops).
pub(crate) fn folded_squares(pos: &Position, distant: Option<(Square, Bitboard)>) -> Bitboard {
    let Some((checker, between)) = distant else {
        return Bitboard::EMPTY;
    };
    let far_horse_or_dragon = between.more_than_one()
        && pos
            .piece_at(checker)
            .is_some_and(|p| matches!(p.kind(), PieceKind::Dragon | PieceKind::Horse));
    if !far_horse_or_dragon {
        return Bitboard::EMPTY;
    }
    let defender = pos.side_to_move();
    let occ = pos.occupied();
    between
        .into_iter()
        .filter(|&sq| pos.attackers_to(sq, defender, occ).is_empty())
        .collect()
}

/// The df-pn+ initial proof number of a new AND node: its replies weighted by kind (board
/// replies count more than drops, and the drops on one square count once, as they are expanded
/// one kind at a time): 3 a king move, 2 another board reply, 1 a drop square. The weights
/// tried and what they cost are in the history of benches/README.md in git ("Tuning trials").
/// Counted without listing the replies ([`Position::evasion_counts`]): a new OR node asks
/// this of every check it has, most of which are never searched.
pub(crate) fn initial_and_pn(pos: &Position) -> PnDn {
    let n = pos.evasion_counts();
    KING_WEIGHT * n.king + OTHER_WEIGHT * n.board + DROP_WEIGHT * n.drop_squares
}

/// The df-pn+ initial disproof number of a new OR node (attacker to move): two for each of
/// its checks and eight more, on the scale of [`initial_and_pn`], so that at an AND node the
/// replies that leave the attacker fewest checks are tried first for a refutation. Zero when
/// the attacker has no check: the node is not mated as it stands.
///
/// Measured against 1 for every new OR node (the history of benches/README.md in git, "Tuning trials"): the six
/// long problems' first proofs 14.85 M -> 11.00 M nodes, the checker suites 32.1 M -> 27.1 M
/// and 22.5 M -> 15.0 M, the random suite 68.2 M -> 58.0 M. Steeper numbers (four a check)
/// did better on some problems and took one random mate from 1.4 M nodes to 9.2 M.
pub(crate) fn initial_or_dn(pos: &Position) -> PnDn {
    match pos.check_count() as PnDn {
        0 => 0,
        n => 2 * n + 8,
    }
}

const KING_WEIGHT: PnDn = 3;
const OTHER_WEIGHT: PnDn = 2;
const DROP_WEIGHT: PnDn = 1;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;
    use crate::position::Position;
    use crate::solver::futile;
    use crate::solver::pn::NOT_ON_PATH;

    fn child(pn: PnDn, dn: PnDn, q: Option<u8>) -> Child {
        let v = Value {
            pn,
            dn,
            hand: Hand::EMPTY,
            len: Plies::ZERO,
            rep: NOT_ON_PATH,
            rests_on: NOT_ON_PATH,
            rests_plies: 0,
            inf: NOT_ON_PATH,
        };
        Child {
            mv: Move::from_usi("P*5e").unwrap(),
            v,
            q,
        }
    }

    #[test]
    fn drops_are_expanded_pawn_first_and_rook_last() {
        assert_eq!(DROP_ORDER.first(), Some(&PieceKind::Pawn));
        assert_eq!(DROP_ORDER.last(), Some(&PieceKind::Rook));
        assert_eq!(DROP_ORDER.len(), 7, "every droppable kind once");
    }

    /// [`initial_and_pn`] from the list of evasions, independently of the counting sink.
    fn initial_and_pn_from_the_list(pos: &Position) -> PnDn {
        let ev = pos.evasions();
        let king = pos.king_square(pos.side_to_move());
        let mut n = 0;
        let mut drop_squares = crate::bitboard::Bitboard::EMPTY;
        for m in &ev {
            if m.is_drop() {
                drop_squares.insert(m.to());
            } else if m.from() == king {
                n += KING_WEIGHT;
            } else {
                n += OTHER_WEIGHT;
            }
        }
        n + DROP_WEIGHT * drop_squares.count()
    }

    /// The counts give the numbers the list gives: every position reached by a check from
    /// the problems of the crate's suites and two plies of play from each (evasions, then
    /// checks again).
    #[test]
    fn initial_numbers_counted_as_the_list_gives_them() {
        let mut seen = 0;
        let mut same = |pos: &Position| {
            assert_eq!(
                initial_and_pn(pos),
                initial_and_pn_from_the_list(pos),
                "{}",
                pos.to_sfen()
            );
            seen += 1;
        };
        let after = |pos: &Position, mv: Move| {
            let mut c = pos.clone();
            c.play_unchecked(mv);
            c
        };
        for file in ["yaneuraou.sfen", "antma.sfen", "random.sfen", "long.sfen"] {
            let path = format!("{}/problems/{file}", env!("CARGO_MANIFEST_DIR"));
            for p in crate::problem::read_file(&path).into_iter().flatten() {
                for mv in p.position.check_moves() {
                    let c = after(&p.position, mv);
                    same(&c);
                    for r in c.evasions() {
                        let d = after(&c, r);
                        for m2 in d.check_moves() {
                            same(&after(&d, m2));
                        }
                    }
                }
            }
        }
        assert!(seen > 100_000, "{seen} positions");
    }

    #[test]
    fn initial_numbers_weigh_king_moves_board_replies_and_drop_squares() {
        // A rook checks the king on 5a from 5e: king moves, and drops on 5b, 5c, 5d (three
        // squares, however many kinds), no other board reply.
        let pos = Position::from_sfen("4k4/9/9/9/4R4/9/9/9/9 w 2g 1").unwrap();
        let ev = pos.evasions();
        let king = ev.iter().filter(|m| !m.is_drop()).count() as PnDn;
        assert_eq!(
            initial_and_pn(&pos),
            KING_WEIGHT * king + DROP_WEIGHT * 3,
            "{ev:?}"
        );
        // Checkmate: no reply, a zero initial number (mate in one).
        let mate = Position::from_sfen("4k4/4G4/4P4/9/9/9/9/9/9 w - 1").unwrap();
        assert_eq!(initial_and_pn(&mate), 0);
    }

    #[test]
    fn an_interposition_stands_only_when_both_refutations_fail() {
        let (pn, dn) = PROVEN;
        let caps = [Value::proven(Hand::EMPTY, Plies::new(2))];
        // Capture position proven: the interposition is refuted, whatever its own child.
        assert_eq!(effective(&child(3, 4, Some(0)), &caps), (pn, dn));
        // Capture position disproven: only its own child counts.
        let caps = [Value::disproven(Hand::EMPTY, NOT_ON_PATH, Plies::new(9))];
        assert_eq!(effective(&child(3, 4, Some(0)), &caps), (3, 4));
        // Both open: an OR of the two, the smaller pn and the summed dn.
        let open = Value {
            pn: 2,
            dn: 5,
            hand: Hand::EMPTY,
            len: Plies::ZERO,
            rep: NOT_ON_PATH,
            rests_on: NOT_ON_PATH,
            rests_plies: 0,
            inf: NOT_ON_PATH,
        };
        assert_eq!(effective(&child(3, 4, Some(0)), &[open]), (2, 9));
        assert_eq!(effective(&child(3, 4, None), &[]), (3, 4));
    }

    #[test]
    fn a_futile_refutation_does_not_count_the_interposition() {
        // Its own child mated in 5 (6 with the interposition), its capture position in 3:
        // the capture position's length, uncounted.
        let mut ch = child(0, INF, Some(0));
        ch.v.len = Plies::new(5);
        let caps = [Value::proven(Hand::EMPTY, Plies::new(3))];
        assert_eq!(proof_route(&ch, &caps).1, Plies::new(3));
        let caps = [Value::proven(Hand::EMPTY, Plies::new(9))];
        assert_eq!(
            proof_route(&ch, &caps).1,
            Plies::new(6),
            "counted when shorter so"
        );
    }

    /// From random-20261201-149 (White in check from a dragon on 3b, king on 1b, drops on
    /// 2b): P*2b is mated in 7 by its own line with a knight and a pawn, and the capture
    /// position of 2b in 8 with a gold and a knight. The capture position settles the other
    /// kinds on 2b, never expanded; without the gold the lance dropped there lasts 17 plies.
    /// The node's proof needs the gold and is 8 plies, not the knight and pawn of P*2b's own
    /// line: with those alone, a search had taken a mate in 15 for a mate in 13.
    #[test]
    fn drops_settled_by_their_capture_position_keep_its_hand_and_length() {
        // Hands as SFEN writes them, read by the SFEN reader.
        let h = |s: &str| {
            Position::from_sfen(&format!("4k4/9/9/9/9/9/9/9/4K4 b {s} 1"))
                .unwrap()
                .hand(crate::types::Color::Black)
        };
        let mut drop = child(0, INF, Some(0));
        drop.v.hand = h("NP");
        drop.v.len = Plies::new(7);
        let king = Child {
            mv: Move::from_usi("1b1a").unwrap(),
            v: Value::proven(Hand::EMPTY, Plies::new(1)),
            q: None,
        };
        let mut exp = Expansion::default();
        exp.caps.push(Value::proven(h("GN"), Plies::new(8)));
        exp.children.push(king);
        exp.children.push(drop);
        let all = h("GN2P");
        // Every kind on 2b a child of its own: P*2b's line is as good as the capture
        // position, and the shorter route's hand is enough for it.
        let (ph, len, _) = exp.proof(Hand::EMPTY, all);
        assert_eq!((ph, len), (h("NP"), Plies::new(8)));
        // The other kinds settled by the capture position: its hand and length count.
        exp.settle(0);
        exp.settle(0);
        assert_eq!(exp.settled.len(), 1);
        let (ph, len, longest) = exp.proof(Hand::EMPTY, all);
        assert_eq!((ph, len), (h("GNP"), Plies::new(8)));
        assert_eq!(longest, Move::from_usi("P*5e").unwrap());
        // Never more than the attacker holds.
        let (ph, _, _) = exp.proof(Hand::EMPTY, h("GN"));
        assert_eq!(ph, h("GN"));
    }

    #[test]
    fn the_summary_has_the_best_the_second_and_a_weak_sum() {
        let kids = [child(5, 1, None), child(2, 1, None), child(7, 1, None)];
        let s = summarize(&kids, |c| (c.v.pn, c.v.dn));
        assert_eq!((s.best, s.min, s.second), (1, 2, 5));
        // The weak sum: the largest plus one for each other open child.
        let s = summarize(&kids, |c| (c.v.dn, c.v.pn));
        assert_eq!(s.weak, add(7, 2));
        // The first and the last grouped: they count once, with the largest of all (7).
        let s = summarize_grouped(&kids, |c| (c.v.dn, c.v.pn, c.v.pn != 2));
        assert_eq!(s.weak, add(7, 1));
    }

    fn drop_child(usi: &str, pn: PnDn) -> Child {
        Child {
            mv: Move::from_usi(usi).unwrap(),
            ..child(pn, 1, None)
        }
    }

    #[test]
    fn open_drops_on_folded_squares_count_once() {
        let mut exp = Expansion::default();
        exp.children.extend([
            drop_child("P*5e", 3),
            drop_child("P*5d", 4),
            drop_child("P*5c", 0),
            drop_child("P*5f", 2),
        ]);
        // Unfolded: the largest (4) and one for each other open child (two).
        assert_eq!(exp.summary_and().weak, 6);
        // 5e and 5d folded (5c is proven): they count as one open child.
        exp.folded = [Square::from_usi("5e"), Square::from_usi("5d")]
            .into_iter()
            .map(Option::unwrap)
            .collect();
        assert_eq!(exp.summary_and().weak, 5);
    }

    #[test]
    fn folded_squares_are_the_unguarded_ones_before_a_far_horse_or_dragon() {
        let squares = |sfen: &str| {
            let pos = Position::from_sfen(sfen).unwrap();
            let mut s: Vec<String> = folded_squares(&pos, futile::distant_check(&pos))
                .into_iter()
                .map(|sq| sq.to_string())
                .collect();
            s.sort();
            s
        };
        // A dragon on 9a checks the king on 1a: 2a is next to the king, 8a is guarded by the
        // defender's gold on 8b; the five between are not.
        assert_eq!(
            squares("+R7k/1g7/9/9/9/9/9/9/9 w r2b3g4s4n4l18p 1"),
            ["3a", "4a", "5a", "6a", "7a"]
        );
        // A rook there folds nothing; nor does a dragon one square short of the king's
        // neighbour.
        assert!(squares("R7k/1g7/9/9/9/9/9/9/9 w r2b3g4s4n4l18p 1").is_empty());
        assert!(squares("6+R1k/9/9/9/9/9/9/9/9 w r2b4g4s4n4l18p 1").is_empty());
    }
}
