//! Futile interpositions (無駄合, mudaai): the positions the definition compares.
//!
//! The definition this crate implements ([`crate::rules`] has it with the other rules and
//! the reasons):
//!
//! * An **interposition** (合駒) is a defender reply, by drop or by moving a piece other than
//!   the king (移動合), onto a square strictly between the king and a single checker that gives
//!   check from a distance (a lance, bishop, rook, horse or dragon with at least one empty
//!   square between it and the king).
//! * Its **capture position** Q is the position after the interposition and the checker's
//!   capture of the interposed piece (a rook or bishop promotes when it may; a lance does not
//!   unless it must). The captured piece leaves the attacker's hand: a dropped one goes back
//!   to the defender's (Q is the starting position with the checker moved to the
//!   interposition square: as if the drop had not been made); a moved one goes to neither hand
//!   ([`Position::take_out_of_play`]: the attacker holds it and never uses it, the defender had
//!   it on the board, not in hand), its square left empty as in the game.
//! * A drop is worth the smaller of: one ply plus the mate length after it (the
//!   interposition counted), and the mate length from Q (the interposition and its capture not
//!   counted). It is **futile** when the second is what it is worth: the attacker can capture
//!   the piece and mate without ever using it in no more moves than the rest of the line.
//! * A 移動合 has a capture position only when Q ends the line (below); it is then futile and
//!   worth nothing, else it has none and counts. Whether the square it left matters (a flight,
//!   a line it opens) would otherwise take two mate lengths to tell; a mate at once settles it.
//!   This is what makes a chain of 移動合 after a distant check futile, each capture position
//!   ending the line because the next one does.
//! * A futile interposition is neither counted nor shown: a defender node where every reply
//!   is futile with a mate in 0 from Q (Q itself is mate, or mate in the same sense) ends the
//!   line, as a checkmate does.
//!
//! * **The saw rule** (repeated interpositions, 馬鋸 and 龍鋸): a drop whose Q (the piece
//!   handed back) repeats a position of the line played so far (the search's path; the line
//!   walk's and [`crate::solver::verify_mate`]'s line) is worth nothing while the defender has a
//!   reply that is not such a drop; when every reply is one, they count as real
//!   interpositions. The attacker takes the piece and holds it, and the proof of Q (an
//!   ancestor) mates the game's position too, with the defender a piece poorer each time it
//!   comes back, so the rule never turns a position that is not mated into a mate. A proof
//!   that leaves such a drop out holds on this path only: its value carries the ply of Q
//!   ([`Value::rests_on`](super::pn::Value)) and stays off the table until the node at that
//!   ply is proven (meanwhile kept beside the table by the capture positions it rests on, and
//!   found again below any path that has them).

use crate::bitboard::{self, Bitboard};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{PieceKind, Square};
use crate::zobrist::KeyMap;
use smallvec::SmallVec;

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
/// distant checker's square. `None` when the checker cannot legally capture with check, and
/// for a moving interposition (移動合) whose capture position does not end the line (such an
/// interposition always counts).
pub(crate) fn capture_position(pos: &Position, mv: Move, checker: Square) -> Option<Position> {
    capture_position_in(pos, mv, checker, &mut KeyMap::default())
}

/// [`capture_position`] with the line-end answers for capture positions remembered.
fn capture_position_in(
    pos: &Position,
    mv: Move,
    checker: Square,
    memo: &mut KeyMap<u64, bool>,
) -> Option<Position> {
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
    if mv.is_drop() {
        // As if the drop had not been made: the defender keeps the piece.
        q.hand_back(attacker, interposed);
        return Some(q);
    }
    // A moved piece came from the board, not from the hand: it goes to neither hand (the
    // attacker holds it and never uses it). Its square stays empty, as in the game, and the
    // interposition is futile only if that changes nothing: the capture position ends the line.
    q.take_out_of_play(attacker, interposed);
    ends_line(&q, memo).then_some(q)
}

/// The keys of the capture position (board key, full key), without building it for a drop
/// when the attacker has no king (then the capture is always legal and always checks, and the
/// capture position always exists). `None` when there is no capture position.
pub(crate) fn capture_keys(pos: &Position, mv: Move, checker: Square) -> Option<(u64, u64)> {
    if !mv.is_drop() || pos.king_square(pos.side_to_move().flip()).is_some() {
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
    ends_line(pos, &mut KeyMap::default())
}

/// [`is_mate_with_futile_interpositions`] at the end of a line whose positions have the full
/// keys `path`: a drop whose capture position repeats one of them is left out when the
/// defender has another reply (the saw rule, in the module docs).
pub(crate) fn is_mate_on_path(pos: &Position, path: &[u64]) -> bool {
    ends_line_on(pos, path, &mut KeyMap::default())
}

/// [`is_mate_with_futile_interpositions`] with the answers for capture positions remembered
/// (the drops of every kind on one square share theirs).
fn ends_line(pos: &Position, memo: &mut KeyMap<u64, bool>) -> bool {
    ends_line_on(pos, &[], memo)
}

/// The saw rule's core: for each of `candidates` (replies at `pos`, a defender node checked
/// from afar by `checker`), the ply of the path position that its capture position repeats
/// (`ply_of` answers for a full key), or `None`. A candidate that is no drop is never one
/// (a drop against a distant check is always between). Everything is `None` when the rule
/// leaves nothing out: no candidate is a repeated interposition, or every one is and the node
/// has no reply besides the candidates (`others`).
pub(crate) fn repeated_plies(
    pos: &Position,
    checker: Square,
    candidates: &[Move],
    others: bool,
    ply_of: impl Fn(u64) -> Option<u32>,
) -> SmallVec<[Option<u32>; 8]> {
    let mut at: SmallVec<[Option<u32>; 8]> = candidates
        .iter()
        .map(|&mv| {
            mv.is_drop()
                .then(|| capture_keys(pos, mv, checker))
                .flatten()
                .and_then(|(_, full)| ply_of(full))
        })
        .collect();
    let repeated = at.iter().filter(|a| a.is_some()).count();
    if !others && repeated == at.len() {
        at.fill(None);
    }
    at
}

/// The replies of `pos` (defender to move) that the saw rule leaves out on the line `path`
/// (full keys of its positions): the drops whose capture position is one of them, when some
/// other reply is left; none otherwise.
pub(crate) fn repeated_interpositions(pos: &Position, path: &[u64]) -> SmallVec<[Move; 8]> {
    let Some((checker, _)) = distant_check(pos).filter(|_| !path.is_empty()) else {
        return SmallVec::new();
    };
    let replies = pos.evasions();
    let at = repeated_plies(pos, checker, &replies, false, |k| {
        path.contains(&k).then_some(0)
    });
    replies
        .iter()
        .zip(&at)
        .filter(|(_, a)| a.is_some())
        .map(|(&mv, _)| mv)
        .collect()
}

/// [`ends_line`] on the line `path` (see [`is_mate_on_path`]).
fn ends_line_on(pos: &Position, path: &[u64], memo: &mut KeyMap<u64, bool>) -> bool {
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
        let repeated = if path.is_empty() {
            SmallVec::from_elem(None, replies.len())
        } else {
            repeated_plies(pos, checker, &replies, false, |k| {
                path.contains(&k).then_some(0)
            })
        };
        // A king move is never an interposition (the king cannot stay on the checked line).
        replies.iter().zip(&repeated).all(|(&mv, rep)| {
            rep.is_some()
                || (between.contains(mv.to())
                    && capture_position_in(pos, mv, checker, memo)
                        .is_some_and(|q| ends_line_on(&q, path, memo)))
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
            // Bishop from 9i again, White with nothing in hand: every 移動合 (knight 6c5e,
            // silvers 4c4d and 2d3c) has a capture position, which ends the line.
            "6G1k/8p/3n1s3/7s1/9/9/4P4/9/B8 w - 1",
        ];
        let mut moved = 0;
        for sfen in sfens {
            let pos = Position::from_sfen(sfen).unwrap();
            let (checker, between) = distant_check(&pos).expect(sfen);
            let mut seen = 0;
            for mv in pos.legal_moves() {
                if !between.contains(mv.to()) {
                    continue;
                }
                let Some(q) = capture_position(&pos, mv, checker) else {
                    // Only a 移動合 whose capture position would not end the line has none.
                    assert!(!mv.is_drop(), "{sfen} {mv}");
                    assert_eq!(capture_keys(&pos, mv, checker), None, "{sfen} {mv}");
                    continue;
                };
                assert_eq!(q.hand_key(), q.compute_hand_key());
                assert_eq!(
                    capture_keys(&pos, mv, checker),
                    Some((q.board_key(), q.key())),
                    "{sfen} {mv}"
                );
                let promote = capture_promotes(&pos, checker, mv.to());
                let (board, hands) = pos.capture_keys_after(mv, checker, promote);
                assert_eq!((board, hands), (q.board_key(), q.hand_key()), "{sfen} {mv}");
                if mv.is_drop() {
                    assert_eq!(q.board_key(), q.compute_board_key());
                } else {
                    // The moved piece is in neither hand, and the board key says so: it never
                    // meets the key of the position where the defender holds the piece.
                    assert_ne!(q.board_key(), q.compute_board_key(), "{sfen} {mv}");
                    assert!(ends_line(&q, &mut KeyMap::default()), "{sfen} {mv}");
                    let kind = pos.piece_at(mv.from().unwrap()).unwrap().kind().unpromote();
                    assert_eq!(
                        q.hand(Color::White).count(kind),
                        pos.hand(Color::White).count(kind)
                    );
                    moved += 1;
                }
                seen += 1;
            }
            assert!(seen > 0, "{sfen}");
        }
        assert_eq!(moved, 3, "the three 移動合 of the last position");
    }
}
