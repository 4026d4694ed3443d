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

/// Most plies a walked line may have.
const MAX_LINE: usize = 20_000;
/// Most nodes the line walk may visit, backtracking included.
const MAX_WALK: u64 = 1_000_000;

impl Search<'_> {
    /// Walks a mating line out of the table from a proven root: at attacker nodes the proven
    /// check with the shortest recorded mate, at defender nodes the reply with the longest.
    /// Children missing from the table (replaced) are searched again, and a check whose
    /// proof would only repeat a position of the line is given up for the next one. `None` if
    /// no line could be built within the limits.
    pub(crate) fn extract_line(&mut self, root: &Position) -> Option<Vec<Move>> {
        let mut line = Vec::new();
        let mut keys = vec![root.key()];
        let mut steps = 0;
        self.walk(root, &mut keys, &mut line, &mut steps)
            .then_some(line)
    }

    fn walk(
        &mut self,
        pos: &Position,
        keys: &mut Vec<u64>,
        line: &mut Vec<Move>,
        steps: &mut u64,
    ) -> bool {
        *steps += 1;
        if line.len() > MAX_LINE || *steps > MAX_WALK || self.aborted.is_some() {
            return false;
        }
        if pos.side_to_move() == self.attacker {
            let moves = pos.check_moves();
            // Proven checks by recorded length; then, if none of those leads to a line (the
            // table's lengths can disagree once entries are replaced), the others searched.
            let mut tried: Vec<Move> = Vec::new();
            for search in [false, true] {
                let mut candidates = self.proven_children(pos, &moves, keys, true, search);
                candidates.retain(|(m, _)| !tried.contains(m));
                tried.extend(candidates.iter().map(|&(m, _)| m));
                candidates.sort_by_key(|&(_, len)| len);
                for (mv, _) in candidates {
                    let mut c = pos.clone();
                    c.play_unchecked(mv);
                    keys.push(c.key());
                    line.push(mv);
                    if self.walk(&c, keys, line, steps) {
                        return true;
                    }
                    keys.pop();
                    line.pop();
                }
            }
            false
        } else {
            let moves = pos.evasions();
            if moves.is_empty() {
                return true;
            }
            // Every reply must be proven; the longest is the line.
            let mut known = self.proven_children(pos, &moves, keys, false, false);
            if known.len() < moves.len() {
                known = self.proven_children(pos, &moves, keys, false, true);
                if known.len() < moves.len() {
                    return false;
                }
            }
            let mut best = known[0];
            for &(mv, len) in &known {
                if len > best.1 {
                    best = (mv, len);
                }
            }
            let mut c = pos.clone();
            c.play_unchecked(best.0);
            keys.push(c.key());
            line.push(best.0);
            if self.walk(&c, keys, line, steps) {
                return true;
            }
            keys.pop();
            line.pop();
            false
        }
    }

    /// The children of `pos` by `moves` that are proven, with their recorded mate lengths.
    /// A child repeating a position of the line is never proven here. With `search`, children
    /// the table does not know are searched (at attacker nodes only until one is proven).
    fn proven_children(
        &mut self,
        pos: &Position,
        moves: &[Move],
        keys: &[u64],
        attacker: bool,
        search: bool,
    ) -> Vec<(Move, u16)> {
        let mut out = Vec::new();
        self.set_path(keys);
        for &mv in moves {
            let mut c = pos.clone();
            c.play_unchecked(mv);
            if keys.contains(&c.key()) {
                if attacker {
                    continue;
                }
                return out; // the defender repeats: no proof on this path
            }
            if attacker && c.evasions().is_empty() {
                out.push((mv, 0)); // the check mates
                continue;
            }
            let (v, _) = self.lookup(&c);
            if v.pn == 0 {
                out.push((mv, v.len));
                continue;
            }
            if !search || (v.dn == 0 && !v.rep) {
                if attacker {
                    continue;
                }
                return out;
            }
            let v = self.solve_node(&c, !attacker, keys.len() as u32);
            if v.pn == 0 {
                out.push((mv, v.len));
            } else if !attacker {
                return out;
            }
        }
        out
    }
}
