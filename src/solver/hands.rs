//! Proof and disproof hands (証明駒 / 反証駒): how a child's hand bound becomes the parent's.
//!
//! A proof hand P of a node says: the node is proven whenever the attacker holds at least P
//! (the defender holding the rest). A disproof hand D says: the node is disproven whenever the
//! attacker holds at most D.

use crate::bitboard;
use crate::hand::Hand;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, PieceKind};

fn set(h: Hand, k: PieceKind, n: u8) -> Hand {
    h.with_count(k, n.min(k.full_set_count())).unwrap_or(h)
}

/// The base kind of the piece `mv` captures in `pos`, if any.
#[inline]
pub(crate) fn captured_kind(pos: &Position, mv: Move) -> Option<PieceKind> {
    if mv.is_drop() {
        return None;
    }
    pos.piece_at(mv.to()).map(|p| p.kind().unpromote())
}

/// The proof hand of an OR node proven by the attacker's move `mv`, from the child's.
pub(crate) fn proof_before_attack(pos: &Position, mv: Move, child: Hand) -> Hand {
    if let Some(k) = mv.drop_kind() {
        return set(child, k, child.count(k) + 1);
    }
    match captured_kind(pos, mv) {
        Some(k) if child.count(k) > 0 => set(child, k, child.count(k) - 1),
        _ => child,
    }
}

/// The disproof hand of an OR node for one attacker move `mv`, from the child's.
pub(crate) fn disproof_before_attack(pos: &Position, mv: Move, child: Hand) -> Hand {
    if let Some(k) = mv.drop_kind() {
        return set(child, k, child.count(k).saturating_add(1));
    }
    match captured_kind(pos, mv) {
        Some(k) => set(child, k, child.count(k).saturating_sub(1)),
        None => child,
    }
}

/// The disproof hand of an OR node with no check at all: more pieces of a kind the attacker
/// already holds give no new check, but a first piece of a new kind might.
pub(crate) fn disproof_without_checks(hand: Hand) -> Hand {
    let mut out = Hand::EMPTY;
    for k in PieceKind::HAND {
        if hand.count(k) > 0 {
            out = set(out, k, k.full_set_count());
        }
    }
    out
}

/// Finishes an OR node's disproof hand (the minimum over its children): a kind the attacker
/// does not hold was never dropped, so the disproof says nothing about holding one.
pub(crate) fn finish_or_disproof(hand: Hand, dh: Hand) -> Hand {
    let mut out = dh;
    for k in PieceKind::HAND {
        if hand.count(k) == 0 {
            out = set(out, k, 0);
        }
    }
    out.max(hand)
}

/// The disproof hand of an AND node refuted by the defender's move `mv`: if `mv` drops a piece,
/// the defender must still have one, so the attacker may not hold more of that kind than now.
pub(crate) fn disproof_before_defence(mv: Move, attacker_hand: Hand, child: Hand) -> Hand {
    match mv.drop_kind() {
        Some(k) => set(child, k, child.count(k).min(attacker_hand.count(k))),
        None => child,
    }
}

/// What the attacker must keep at an AND node because of interpositions it prevented: when the
/// check could be blocked by a drop, every kind the defender lacks in hand must stay out of its
/// reach, so the attacker keeps all of those it holds.
pub(crate) fn interposition_guard(pos: &Position, attacker: Color) -> Hand {
    let checkers = pos.checkers();
    if checkers.more_than_one() {
        return Hand::EMPTY;
    }
    let (Some(ksq), Some(checker)) = (pos.king_square(attacker.flip()), checkers.first()) else {
        return Hand::EMPTY;
    };
    if bitboard::between(ksq, checker).is_empty() {
        return Hand::EMPTY;
    }
    let ours = pos.hand(attacker);
    let theirs = pos.hand(attacker.flip());
    let mut out = Hand::EMPTY;
    for k in PieceKind::HAND {
        if theirs.count(k) == 0 {
            out = set(out, k, ours.count(k));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drop_and_capture_adjustments() {
        let pos = Position::from_sfen("4k4/9/4p4/9/4R4/9/9/9/9 b G").unwrap();
        let drop = Move::from_usi("G*5b").unwrap();
        let child = Hand::EMPTY;
        let ph = proof_before_attack(&pos, drop, child);
        assert_eq!(ph.count(PieceKind::Gold), 1);
        let capture = Move::from_usi("5e5c").unwrap();
        let child = Hand::EMPTY.with_count(PieceKind::Pawn, 1).unwrap();
        assert_eq!(
            proof_before_attack(&pos, capture, child).count(PieceKind::Pawn),
            0
        );
        assert_eq!(
            disproof_before_attack(&pos, capture, Hand::FULL).count(PieceKind::Pawn),
            17
        );
        let dh = disproof_without_checks(pos.hand(Color::Black));
        assert_eq!(dh.count(PieceKind::Gold), 4);
        assert_eq!(dh.count(PieceKind::Rook), 0);
    }

    #[test]
    fn guard_keeps_kinds_the_defender_lacks() {
        // Rook checks from a distance; White holds a pawn but no gold.
        let pos = Position::from_sfen("4k4/9/9/9/4R4/9/9/9/9 w G2p").unwrap();
        let g = interposition_guard(&pos, Color::Black);
        assert_eq!(g.count(PieceKind::Gold), 1);
        assert_eq!(g.count(PieceKind::Pawn), 0);
        // Adjacent check: nothing to interpose.
        let pos = Position::from_sfen("4k4/4R4/9/9/9/9/9/9/9 w G2p").unwrap();
        assert!(interposition_guard(&pos, Color::Black).is_empty());
    }
}
