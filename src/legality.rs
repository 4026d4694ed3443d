//! Checked moves: why a move is illegal, and `play` that refuses illegal moves.

use crate::bitboard::{self, Bitboard};
use crate::moves::{Move, ParseMoveError};
use crate::position::{Position, can_ever_move};
use crate::types::{Piece, PieceKind, Square};
use std::fmt;

/// Why a move is illegal in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IllegalMove {
    /// There is no piece on the origin square.
    NoPiece(Square),
    /// The piece on the origin square belongs to the opponent.
    NotYourPiece(Square),
    /// The destination holds one of the mover's own pieces.
    OwnPieceOnTarget(Square),
    /// The piece does not move that way.
    CannotReach {
        /// The moving piece.
        piece: Piece,
        /// Its origin.
        from: Square,
        /// The destination it cannot reach.
        to: Square,
    },
    /// A sliding piece's path is blocked by the piece on `by`.
    PathBlocked {
        /// The first blocking square.
        by: Square,
    },
    /// Promotion asked for a piece that cannot promote (gold, king, promoted piece).
    CannotPromote(PieceKind),
    /// Promotion asked for a move that neither starts nor ends in the promotion zone.
    OutsidePromotionZone,
    /// The piece would stand where it could never move again: a pawn or lance moving to the
    /// last rank or a knight to the last two ranks must promote.
    MustPromote,
    /// The piece to drop is not in hand.
    NotInHand(PieceKind),
    /// A drop on an occupied square.
    DropOnOccupied(Square),
    /// Drop of a pawn on a file that holds an unpromoted pawn of the same side (二歩, nifu).
    TwoPawns,
    /// A drop on a square from which the piece could never move (行き所のない駒).
    DeadDrop,
    /// Drop of a pawn that gives checkmate (打ち歩詰め, uchifuzume).
    DropPawnMate,
    /// The move leaves the mover's own king attacked (including not answering a check).
    LeavesKingInCheck,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::NoPiece(s) => write!(f, "no piece on {s}"),
            IllegalMove::NotYourPiece(s) => write!(f, "the piece on {s} belongs to the opponent"),
            IllegalMove::OwnPieceOnTarget(s) => write!(f, "{s} holds one of the mover's pieces"),
            IllegalMove::CannotReach { piece, from, to } => {
                write!(f, "{piece} on {from} does not move to {to}")
            }
            IllegalMove::PathBlocked { by } => write!(f, "the path is blocked on {by}"),
            IllegalMove::CannotPromote(k) => write!(f, "a {} cannot promote", k.japanese()),
            IllegalMove::OutsidePromotionZone => {
                write!(
                    f,
                    "promotion needs a move into, out of or within the promotion zone"
                )
            }
            IllegalMove::MustPromote => {
                write!(f, "the piece must promote: it could never move again")
            }
            IllegalMove::NotInHand(k) => write!(f, "no {} in hand", k.japanese()),
            IllegalMove::DropOnOccupied(s) => write!(f, "cannot drop on occupied square {s}"),
            IllegalMove::TwoPawns => write!(f, "a second unpromoted pawn on the file (nifu)"),
            IllegalMove::DeadDrop => write!(f, "the dropped piece could never move"),
            IllegalMove::DropPawnMate => write!(f, "a pawn drop may not give mate (uchifuzume)"),
            IllegalMove::LeavesKingInCheck => write!(f, "the move leaves the king in check"),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// A USI move that could not be played: malformed, or illegal in the position.
///
/// [`Error::source`](std::error::Error::source) gives the wrapped [`ParseMoveError`] or
/// [`IllegalMove`]. The `Display` message already includes the wrapped error's (it is what
/// the command-line programs print), so a report that also walks the source chain repeats it.
///
/// ```
/// use std::error::Error;
/// use tsume::{IllegalMove, Position, UsiMoveError};
/// let pos = Position::startpos();
/// let err = pos.parse_usi_move("7g7e").unwrap_err();
/// assert!(matches!(err, UsiMoveError::Illegal(_, IllegalMove::CannotReach { .. })));
/// assert!(err.source().is_some());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UsiMoveError {
    /// Not a well-formed USI move.
    Syntax(ParseMoveError),
    /// Well formed but illegal here.
    Illegal(Move, IllegalMove),
}

impl fmt::Display for UsiMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UsiMoveError::Syntax(e) => e.fmt(f),
            UsiMoveError::Illegal(m, why) => write!(f, "illegal move {m}: {why}"),
        }
    }
}

impl std::error::Error for UsiMoveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            UsiMoveError::Syntax(e) => Some(e),
            UsiMoveError::Illegal(_, why) => Some(why),
        }
    }
}

impl Position {
    /// Checks `mv` against every rule and says why it is illegal.
    ///
    /// ```
    /// use tsume::{IllegalMove, Move, Position};
    /// let pos = Position::from_sfen("7lk/9/8S/9/9/9/9/7L1/8K b P")?;
    /// let pawn_mate = Move::from_usi("P*1b").unwrap();
    /// assert_eq!(pos.check_legality(pawn_mate), Err(IllegalMove::DropPawnMate));
    /// # Ok::<(), tsume::SfenError>(())
    /// ```
    pub fn check_legality(&self, mv: Move) -> Result<(), IllegalMove> {
        let us = self.side_to_move();
        let to = mv.to();
        let occ = self.occupied();
        match mv.from() {
            None => {
                let kind = mv.drop_kind().expect("drop kind");
                if !self.hand(us).has(kind) {
                    return Err(IllegalMove::NotInHand(kind));
                }
                if occ.contains(to) {
                    return Err(IllegalMove::DropOnOccupied(to));
                }
                if !can_ever_move(Piece::new(us, kind), to) {
                    return Err(IllegalMove::DeadDrop);
                }
                if kind == PieceKind::Pawn && self.pawn_files(us).contains(to) {
                    return Err(IllegalMove::TwoPawns);
                }
            }
            Some(from) => {
                let piece = self.piece_at(from).ok_or(IllegalMove::NoPiece(from))?;
                if piece.color() != us {
                    return Err(IllegalMove::NotYourPiece(from));
                }
                if self.pieces_of(us).contains(to) {
                    return Err(IllegalMove::OwnPieceOnTarget(to));
                }
                let kind = piece.kind();
                if !bitboard::attacks(us, kind, from, occ).contains(to) {
                    if bitboard::attacks(us, kind, from, Bitboard::EMPTY).contains(to) {
                        let by = (bitboard::between(from, to) & occ)
                            .iter()
                            .min_by_key(|s| distance(from, *s))
                            .expect("a blocker");
                        return Err(IllegalMove::PathBlocked { by });
                    }
                    return Err(IllegalMove::CannotReach { piece, from, to });
                }
                if mv.is_promotion() {
                    if !kind.can_promote() {
                        return Err(IllegalMove::CannotPromote(kind));
                    }
                    if !from.in_promotion_zone(us) && !to.in_promotion_zone(us) {
                        return Err(IllegalMove::OutsidePromotionZone);
                    }
                } else if !can_ever_move(piece, to) {
                    return Err(IllegalMove::MustPromote);
                }
            }
        }
        // King safety: play it and look.
        let mut after = self.clone();
        after.play_unchecked(mv);
        if let Some(k) = after.king_square(us) {
            if after.is_attacked(k, us.flip(), after.occupied()) {
                return Err(IllegalMove::LeavesKingInCheck);
            }
        }
        if mv.drop_kind() == Some(PieceKind::Pawn)
            && after.in_check()
            && after.legal_moves().is_empty()
        {
            return Err(IllegalMove::DropPawnMate);
        }
        Ok(())
    }

    /// Whether `mv` is legal.
    #[inline]
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check_legality(mv).is_ok()
    }

    /// Plays `mv` if it is legal; otherwise leaves the position unchanged and says why not.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.check_legality(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Parses a USI move and checks that it is legal here.
    pub fn parse_usi_move(&self, s: &str) -> Result<Move, UsiMoveError> {
        let mv = Move::from_usi(s).map_err(UsiMoveError::Syntax)?;
        self.check_legality(mv)
            .map_err(|e| UsiMoveError::Illegal(mv, e))?;
        Ok(mv)
    }

    /// Plays a sequence of USI moves, stopping at the first bad one.
    pub fn play_usi_moves<'a, I: IntoIterator<Item = &'a str>>(
        &mut self,
        moves: I,
    ) -> Result<(), UsiMoveError> {
        for m in moves {
            let mv = self.parse_usi_move(m)?;
            self.play_unchecked(mv);
        }
        Ok(())
    }
}

fn distance(a: Square, b: Square) -> u8 {
    a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank()))
}
