//! Verifying a mating line move by move with the rules core only, independently of the search.

use super::futile;
use crate::moves::Move;
use crate::position::Position;
use std::fmt;

/// Why a claimed mating line is not one.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LineError {
    /// The move at `ply` (1-based) is illegal.
    Illegal {
        /// 1-based ply.
        ply: usize,
        /// The move.
        mv: Move,
        /// Why.
        reason: crate::IllegalMove,
    },
    /// The attacker's move at `ply` does not give check.
    NotCheck {
        /// 1-based ply.
        ply: usize,
        /// The move.
        mv: Move,
    },
    /// The line ends in a position that is not checkmate (not even once futile
    /// interpositions are not counted).
    NotMate,
    /// The line is empty or has an even number of plies (it must end with the attacker's move).
    EvenLength(usize),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::Illegal { ply, mv, reason } => {
                write!(f, "ply {ply}: {mv} is illegal: {reason}")
            }
            LineError::NotCheck { ply, mv } => write!(f, "ply {ply}: {mv} does not give check"),
            LineError::NotMate => write!(f, "the line does not end in checkmate"),
            LineError::EvenLength(n) => {
                write!(
                    f,
                    "a mating line has an odd number of plies, this one has {n}"
                )
            }
        }
    }
}

impl LineError {
    /// Where the line goes wrong in a line of `len` plies: the 1-based ply and the move there
    /// (the last ply, without a move, for a line that does not end in mate or is even).
    pub fn place(&self, len: usize) -> (usize, Option<Move>) {
        match *self {
            LineError::Illegal { ply, mv, .. } | LineError::NotCheck { ply, mv } => (ply, Some(mv)),
            LineError::NotMate | LineError::EvenLength(_) => (len.max(1), None),
        }
    }
}

impl std::error::Error for LineError {}

/// Checks that `moves` from `pos` is a mating line: every move legal, every attacker move (the
/// odd plies) a check, an odd number of plies, and the final position checkmate, or a mate
/// once futile interpositions are not counted (every reply is a futile interposition, see
/// [`is_mate_with_futile_interpositions`](crate::solver::is_mate_with_futile_interpositions)).
///
/// This uses only the rules core, not the search, so a line that passes is a mate whatever the
/// solver's table held.
///
/// ```
/// use tsume::{Move, Position};
/// use tsume::solver::verify_mate;
/// let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G")?;
/// let line = [Move::from_usi("G*5b").unwrap()];
/// assert!(verify_mate(&pos, &line).is_ok());
/// # Ok::<(), tsume::SfenError>(())
/// ```
pub fn verify_mate(pos: &Position, moves: &[Move]) -> Result<(), LineError> {
    if moves.len() % 2 == 0 {
        return Err(LineError::EvenLength(moves.len()));
    }
    let mut p = pos.clone();
    let mut path = vec![p.key()];
    for (i, &mv) in moves.iter().enumerate() {
        let ply = i + 1;
        p.check_legality(mv)
            .map_err(|reason| LineError::Illegal { ply, mv, reason })?;
        p.play_unchecked(mv);
        if i % 2 == 0 && !p.in_check() {
            return Err(LineError::NotCheck { ply, mv });
        }
        path.push(p.key());
    }
    if futile::is_mate_on_path(&p, &path) {
        Ok(())
    } else {
        Err(LineError::NotMate)
    }
}
