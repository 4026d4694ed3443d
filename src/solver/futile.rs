//! Futile interpositions (無駄合, mudaai): the positions the definition compares.
//!
//! The definition this crate implements ([`crate::rules`] has it with the other rules):
//!
//! * An **interposition** (合駒) is a defender reply, by drop or by moving a piece other than
//!   the king (移動合), onto a square strictly between the king and a single checker that gives
//!   check from a distance (a lance, bishop, rook, horse or dragon with at least one empty
//!   square between it and the king).
//! * Its **capture position** Q is the position after the interposition and the checker's
//!   capture of the interposed piece (a rook or bishop promotes when it may; a lance does not
//!   unless it must), with the captured piece handed back from the attacker's hand to the
//!   defender's: the checker has come closer and nobody gained anything. For a drop, Q is the
//!   starting position with the checker moved to the interposition square.
//! * The reply is worth the smaller of: one ply plus the mate length after it (the
//!   interposition counted), and the mate length from Q (the interposition and its capture not
//!   counted). It is **futile** when the second is what it is worth: the attacker can capture
//!   the piece and mate without ever using it in no more moves than the rest of the line.
//! * A futile interposition is neither counted nor shown: a defender node where every reply
//!   is futile with a mate in 0 from Q (Q itself is mate, or mate in the same sense) ends the
//!   line, as a checkmate does.

use crate::bitboard::{self, Bitboard};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{PieceKind, Square};
use ahash::AHashMap;

/// The single checker giving check from a distance in `pos` (defender to move) and the squares
/// between it and the king, or `None` (no check, double check, or an adjacent or knight check).
pub(crate) fn distant_check(pos: &Position) -> Option<(Square, Bitboard)> {
    let checkers = pos.checkers();
    if checkers.more_than_one() {
        return None;
    }
    let checker = checkers.first()?;
    let king = pos.king_square(pos.side_to_move())?;
    let between = bitboard::between(checker, king);
    if between.is_empty() {
        None
    } else {
        Some((checker, between))
    }
}

/// Whether the checker on `checker` promotes when it captures on `to`: a rook or bishop
/// does whenever it may, a lance never needs to (the king lies beyond), the others cannot.
fn capture_promotes(pos: &Position, checker: Square, to: Square) -> bool {
    let Some(piece) = pos.piece_at(checker) else {
        return false;
    };
    let attacker = piece.color();
    matches!(piece.kind(), PieceKind::Rook | PieceKind::Bishop)
        && (checker.in_promotion_zone(attacker) || to.in_promotion_zone(attacker))
}

/// The checker's capture of the interposition `mv` (made in `pos`), as the definition plays it.
pub(crate) fn capture_move(pos: &Position, mv: Move, checker: Square) -> Move {
    Move::new_normal(checker, mv.to(), capture_promotes(pos, checker, mv.to()))
}

/// The capture position of the interposition `mv` in `pos` (see the module docs), given the
/// distant checker's square. `None` when the checker cannot legally capture with check.
pub(crate) fn capture_position(pos: &Position, mv: Move, checker: Square) -> Option<Position> {
    let defender = pos.side_to_move();
    let attacker = defender.flip();
    let interposed = match mv.from() {
        None => mv.drop_kind()?,
        Some(from) => pos.piece_at(from)?.kind().unpromote(),
    };
    let capture = capture_move(pos, mv, checker);
    let mut q = pos.clone();
    q.play_unchecked(mv);
    q.check_legality(capture).ok()?;
    q.play_unchecked(capture);
    if !q.in_check() {
        return None;
    }
    q.hand_back(attacker, interposed);
    Some(q)
}

/// The keys of the capture position (board key, full key), without building it when the
/// attacker has no king (then the capture is always legal and always checks). `None` when
/// there is no capture position.
pub(crate) fn capture_keys(pos: &Position, mv: Move, checker: Square) -> Option<(u64, u64)> {
    if pos.king_square(pos.side_to_move().flip()).is_some() {
        let q = capture_position(pos, mv, checker)?;
        return Some((q.board_key(), q.key()));
    }
    let promote = capture_promotes(pos, checker, mv.to());
    let (board, hands) = pos.capture_keys_after(mv, checker, promote);
    Some((board, board ^ hands))
}

/// Whether `pos` (defender to move) ends a tsume line: checkmate, or in check with every reply
/// a futile interposition whose capture position ends a line in the same sense (a mate in 0
/// once futile interpositions are not counted). The rules core only: no search.
pub fn is_mate_with_futile_interpositions(pos: &Position) -> bool {
    ends_line(pos, &mut AHashMap::new())
}

/// [`is_mate_with_futile_interpositions`] with the answers for capture positions remembered
/// (the drops of every kind on one square share theirs).
fn ends_line(pos: &Position, memo: &mut AHashMap<u64, bool>) -> bool {
    if !pos.in_check() {
        return false;
    }
    if let Some(&known) = memo.get(&pos.key()) {
        return known;
    }
    let replies = pos.legal_moves();
    let answer = if replies.is_empty() {
        true
    } else if let Some((checker, between)) = distant_check(pos) {
        // A king move is never an interposition (the king cannot stay on the checked line).
        replies.iter().all(|&mv| {
            between.contains(mv.to())
                && capture_position(pos, mv, checker).is_some_and(|q| ends_line(&q, memo))
        })
    } else {
        false
    };
    memo.insert(pos.key(), answer);
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Color;

    #[test]
    fn rook_check_along_a_rank_with_every_drop_futile() {
        // Black rook checks from 9a; the king on 1a cannot move (golds on 2c and 1c guard 1b
        // and 2b, a silver on 3b guards 2a), and every drop between is captured by the rook,
        // which then mates.
        let pos = Position::from_sfen("R7k/6S2/7GG/9/9/9/9/9/9 w 2b2g3s4n4l18pr 1").unwrap();
        assert!(pos.in_check());
        let (checker, between) = distant_check(&pos).expect("a distant check");
        assert_eq!(checker.to_string(), "9a");
        assert_eq!(between.count(), 7);
        let q = capture_position(&pos, Move::from_usi("G*5a").unwrap(), checker).unwrap();
        // The rook stands on 5a (promoted, as it may), the gold is back in White's hand.
        assert_eq!(
            q.piece_at(Square::from_usi("5a").unwrap())
                .map(|p| p.kind()),
            Some(PieceKind::Dragon)
        );
        assert_eq!(q.hand(Color::White).count(PieceKind::Gold), 2);
        assert!(q.hand(Color::Black).is_empty());
        assert!(is_mate_with_futile_interpositions(&pos));
    }

    #[test]
    fn a_real_interposition_is_not_futile() {
        // A gold on 1c guards 1b and 2b, but nothing guards 2a: a piece dropped there is
        // captured by the rook and the king takes the rook back. That interposition is real.
        let pos = Position::from_sfen("R7k/9/8G/9/9/9/9/9/9 w 2b3g4s4n4l18pr 1").unwrap();
        assert!(pos.in_check());
        assert!(!is_mate_with_futile_interpositions(&pos));
        let (checker, _) = distant_check(&pos).unwrap();
        let q = capture_position(&pos, Move::from_usi("P*2a").unwrap(), checker).unwrap();
        assert!(!q.legal_moves().is_empty(), "the king can take the dragon");
    }

    #[test]
    fn capture_keys_match_the_capture_position() {
        let sfens = [
            "R7k/6S2/7GG/9/9/9/9/9/9 w 2b2g3s4n4l18pr 1",
            "R7k/9/8G/9/9/9/9/9/9 w 2b3g4s4n4l18pr 1",
            // Bishop from 9i on the diagonal to 1a; White can also interpose by moving its
            // silver (移動合) or gold.
            "8k/6s2/5g3/9/9/9/9/9/B8 w 2r3g3s4n4l18pb 1",
            // Lance from 1i up the file to 1a.
            "8k/9/9/9/9/9/9/9/8L w 2r2b4g4s4n3l18p 1",
        ];
        for sfen in sfens {
            let pos = Position::from_sfen(sfen).unwrap();
            let (checker, between) = distant_check(&pos).expect(sfen);
            let mut seen = 0;
            for mv in pos.legal_moves() {
                if !between.contains(mv.to()) {
                    continue;
                }
                let q = capture_position(&pos, mv, checker).expect("a capture");
                assert_eq!(q.board_key(), q.compute_board_key());
                assert_eq!(q.hand_key(), q.compute_hand_key());
                assert_eq!(
                    capture_keys(&pos, mv, checker),
                    Some((q.board_key(), q.key())),
                    "{sfen} {mv}"
                );
                seen += 1;
            }
            assert!(seen > 0, "{sfen}");
        }
    }
}
