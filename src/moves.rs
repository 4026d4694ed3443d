//! Moves and move lists.

use crate::types::{PieceKind, Square};
use smallvec::SmallVec;
use std::fmt;
use std::num::NonZeroU16;

/// A move: a board move (from, to, promotion flag) or a drop (kind, to).
///
/// Packed in 16 bits (`Option<Move>` too). A move does not know whose it is or what it
/// captures; [`Position`](crate::Position) answers those. USI notation via `Display` and
/// [`Move::from_usi`]: `7g7f`, `8h2b+`, `P*5e`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(NonZeroU16);

const PROMOTE_BIT: u16 = 1 << 14;
const DROP_BASE: u16 = 81;

impl Move {
    /// A board move from `from` to `to`, promoting if `promote`.
    ///
    /// # Panics
    /// If `from == to`.
    #[inline]
    pub fn new_normal(from: Square, to: Square, promote: bool) -> Move {
        assert!(from != to, "a move must change square");
        Move::normal_unchecked(from, to, promote)
    }

    #[inline]
    pub(crate) fn normal_unchecked(from: Square, to: Square, promote: bool) -> Move {
        let v = to.index() as u16 | (from.index() as u16) << 7 | (promote as u16) << 14;
        // from != to, so v != 0 whenever from or to is nonzero; from == to == 0 is excluded.
        Move(NonZeroU16::new(v).unwrap_or(NonZeroU16::MIN))
    }

    /// A drop of `kind` on `to`.
    ///
    /// # Panics
    /// If `kind` cannot be held in hand.
    #[inline]
    pub fn new_drop(kind: PieceKind, to: Square) -> Move {
        assert!(kind.is_hand_kind(), "only hand kinds can be dropped");
        Move::drop_unchecked(kind, to)
    }

    #[inline]
    pub(crate) fn drop_unchecked(kind: PieceKind, to: Square) -> Move {
        let v = to.index() as u16 | (DROP_BASE + kind as u16) << 7;
        // The from-field is at least 81, so v is nonzero.
        Move(NonZeroU16::new(v).unwrap_or(NonZeroU16::MIN))
    }

    /// The destination square.
    #[inline]
    pub fn to(self) -> Square {
        Square::from_index_unchecked((self.0.get() & 0x7f) as usize)
    }

    #[inline]
    fn origin_field(self) -> u16 {
        (self.0.get() >> 7) & 0x7f
    }

    /// The origin square of a board move; `None` for a drop.
    #[inline]
    pub fn from(self) -> Option<Square> {
        let f = self.origin_field();
        if f < DROP_BASE {
            Some(Square::from_index_unchecked(f as usize))
        } else {
            None
        }
    }

    /// Whether the move is a drop (打).
    #[inline]
    pub fn is_drop(self) -> bool {
        self.origin_field() >= DROP_BASE
    }

    /// The dropped kind for a drop; `None` for a board move.
    #[inline]
    pub fn drop_kind(self) -> Option<PieceKind> {
        let f = self.origin_field();
        if f >= DROP_BASE {
            PieceKind::from_index((f - DROP_BASE) as usize)
        } else {
            None
        }
    }

    /// Whether the move promotes (成).
    #[inline]
    pub fn is_promotion(self) -> bool {
        self.0.get() & PROMOTE_BIT != 0
    }

    /// The raw 16-bit encoding (stable within one version of the crate).
    #[inline]
    pub fn raw(self) -> u16 {
        self.0.get()
    }

    /// The move with raw encoding `raw` (see [`Move::raw`]), or `None` if `raw` encodes no
    /// move.
    pub fn from_raw(raw: u16) -> Option<Move> {
        if raw & !(PROMOTE_BIT | 0x3fff) != 0 {
            return None;
        }
        let to = Square::from_index((raw & 0x7f) as usize)?;
        let origin = (raw >> 7) & 0x7f;
        let promote = raw & PROMOTE_BIT != 0;
        if origin < DROP_BASE {
            let from = Square::from_index(origin as usize)?;
            (from != to).then(|| Move::normal_unchecked(from, to, promote))
        } else {
            let kind = PieceKind::from_index((origin - DROP_BASE) as usize)?;
            (kind.is_hand_kind() && !promote).then(|| Move::drop_unchecked(kind, to))
        }
    }

    /// Parses a move in USI notation: `7g7f`, `8h2b+`, `P*5e`. This only checks the syntax;
    /// [`Position::parse_usi_move`](crate::Position::parse_usi_move) also checks legality.
    pub fn from_usi(s: &str) -> Result<Move, ParseMoveError> {
        let err = || ParseMoveError {
            input: s.to_string(),
        };
        let b = s.as_bytes();
        if b.len() == 4 && b[1] == b'*' {
            let c = b[0] as char;
            if !c.is_ascii_uppercase() {
                return Err(err());
            }
            let kind = PieceKind::from_sfen_letter(c).ok_or_else(err)?;
            if !kind.is_hand_kind() {
                return Err(err());
            }
            let to = Square::from_usi(&s[2..4]).ok_or_else(err)?;
            return Ok(Move::drop_unchecked(kind, to));
        }
        let promote = match b.len() {
            4 => false,
            5 if b[4] == b'+' => true,
            _ => return Err(err()),
        };
        if !s.is_char_boundary(2) || !s.is_char_boundary(4) {
            return Err(err());
        }
        let from = Square::from_usi(&s[0..2]).ok_or_else(err)?;
        let to = Square::from_usi(&s[2..4]).ok_or_else(err)?;
        if from == to {
            return Err(err());
        }
        Ok(Move::normal_unchecked(from, to, promote))
    }
}

impl fmt::Display for Move {
    /// USI notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.drop_kind() {
            Some(k) => write!(f, "{}*{}", k.sfen_letter(), self.to()),
            None => {
                write!(f, "{}{}", self.from().unwrap_or(self.to()), self.to())?;
                if self.is_promotion() {
                    f.write_str("+")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::str::FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        Move::from_usi(s)
    }
}

/// A USI move string that is not well formed.
///
/// ```
/// use tsume::Move;
/// let err = Move::from_usi("7g7z").unwrap_err();
/// assert_eq!(err.input(), "7g7z");
/// assert_eq!(err.to_string(), r#"invalid usi move "7g7z" (expected e.g. 7g7f, 8h2b+ or P*5e)"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError {
    input: String,
}

impl ParseMoveError {
    /// The string that could not be read as a move.
    pub fn input(&self) -> &str {
        &self.input
    }
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid usi move {:?} (expected e.g. 7g7f, 8h2b+ or P*5e)",
            self.input
        )
    }
}

impl std::error::Error for ParseMoveError {}

/// A list of moves. The largest number of legal moves in any shogi position is 593, so
/// nearly all lists stay on the stack.
pub type MoveList = SmallVec<[Move; 256]>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_round_trip() {
        for s in ["7g7f", "8h2b+", "P*5e", "G*1a", "R*9i", "1a9i", "9i1a+"] {
            let m = Move::from_usi(s).unwrap();
            assert_eq!(m.to_string(), s);
        }
        let m = Move::from_usi("8h2b+").unwrap();
        assert_eq!(m.from(), Square::from_usi("8h"));
        assert_eq!(m.to(), Square::from_usi("2b").unwrap());
        assert!(m.is_promotion());
        assert!(!m.is_drop());
        let d = Move::from_usi("P*5e").unwrap();
        assert!(d.is_drop());
        assert_eq!(d.drop_kind(), Some(PieceKind::Pawn));
        assert_eq!(d.from(), None);
        for bad in [
            "", "7g7g", "7g7", "K*5e", "p*5e", "P*5j", "0a1a", "7g7f=", "P*5e+", "+P*5e", "７g7f",
        ] {
            assert!(Move::from_usi(bad).is_err(), "{bad}");
        }
        assert_eq!(std::mem::size_of::<Option<Move>>(), 2);
        for s in ["7g7f", "8h2b+", "P*5e", "R*1a"] {
            let m = Move::from_usi(s).unwrap();
            assert_eq!(Move::from_raw(m.raw()), Some(m));
        }
        assert_eq!(Move::from_raw(0), None);
        assert_eq!(Move::from_raw(u16::MAX), None);
    }
}
