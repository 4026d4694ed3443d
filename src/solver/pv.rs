//! The mating line: walked out of the table after a proof, and verified move by move
//! independently of the search.

use super::search::Search;
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
    /// The line ends in a position that is not checkmate.
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

impl std::error::Error for LineError {}

/// Checks that `moves` from `pos` is a mating line: every move legal, every attacker move (the
/// odd plies) a check, an odd number of plies, and the final position checkmate.
///
/// This uses only the rules core, not the search, so a line that passes is a mate whatever the
/// solver's table held.
///
/// ```
/// use tsume::{Move, Position, verify_mate};
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
    for (i, &mv) in moves.iter().enumerate() {
        let ply = i + 1;
        p.check_legality(mv)
            .map_err(|reason| LineError::Illegal { ply, mv, reason })?;
        p.play_unchecked(mv);
        if i % 2 == 0 && !p.in_check() {
            return Err(LineError::NotCheck { ply, mv });
        }
    }
    if p.in_check() && p.legal_moves().is_empty() {
        Ok(())
    } else {
        Err(LineError::NotMate)
    }
}

/// Most plies a walked line may have: a cycle guard.
const MAX_LINE: usize = 20_000;

impl Search<'_> {
    /// Walks a mating line out of the table from a proven root: at attacker nodes the proven
    /// check with the shortest recorded mate, at defender nodes the reply with the longest.
    /// Children missing from the table (replaced) are searched again. `None` if no line could
    /// be built within the limits.
    pub(crate) fn extract_line(&mut self, root: &Position) -> Option<Vec<Move>> {
        let mut pos = root.clone();
        let mut line = Vec::new();
        let mut keys = vec![pos.key()];
        loop {
            if line.len() > MAX_LINE || self.aborted.is_some() {
                return None;
            }
            let attacker_to_move = pos.side_to_move() == self.attacker;
            let moves = if attacker_to_move {
                pos.check_moves()
            } else {
                pos.evasions()
            };
            if !attacker_to_move && moves.is_empty() {
                return Some(line);
            }
            let mut chosen: Option<(Move, u16)> = None;
            // First what the table knows; at an attacker node, search only if nothing is
            // proven there (a defender node needs every reply proven anyway).
            for pass in 0..2 {
                let search = pass == 1;
                for &mv in &moves {
                    let mut c = pos.clone();
                    c.play_unchecked(mv);
                    if keys.contains(&c.key()) {
                        if attacker_to_move {
                            continue; // a repetition never mates
                        }
                        return None; // the defender could repeat: no proof on this path
                    }
                    let len = match self.child_len(&c, &keys, !attacker_to_move, search) {
                        Some(l) => l,
                        None if attacker_to_move => continue,
                        None if search => return None,
                        None => {
                            // Unknown defender reply: search it in the second pass.
                            chosen = None;
                            break;
                        }
                    };
                    let better = match chosen {
                        None => true,
                        Some((_, l)) if attacker_to_move => len < l,
                        Some((_, l)) => len > l,
                    };
                    if better {
                        chosen = Some((mv, len));
                    }
                    if attacker_to_move && search {
                        break; // the first proven check found by searching will do
                    }
                }
                if chosen.is_some() {
                    break;
                }
            }
            let (mv, _) = chosen?;
            pos.play_unchecked(mv);
            keys.push(pos.key());
            line.push(mv);
        }
    }

    /// The recorded mate length below `child` if it is proven, searching it again if the table
    /// no longer knows. `or` says the child is an attacker node.
    fn child_len(&mut self, child: &Position, path: &[u64], or: bool, search: bool) -> Option<u16> {
        if !or && child.evasions().is_empty() {
            return Some(0);
        }
        self.set_path(path);
        let (v, _) = self.lookup(child);
        if v.pn == 0 {
            return Some(v.len);
        }
        if !search || (v.dn == 0 && !v.rep) {
            return None;
        }
        let v = self.solve_node(child, or, path.len() as u32);
        (v.pn == 0).then_some(v.len)
    }
}
