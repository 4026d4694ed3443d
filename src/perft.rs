//! Perft: counting the leaf nodes of the legal move tree, the standard test of a move
//! generator.

use crate::moves::Move;
use crate::moves::MoveList;
use crate::position::Position;

/// The number of legal move sequences of exactly `depth` plies from `pos`.
///
/// The last ply is counted by the length of the legal move list, without making the moves.
///
/// ```
/// use tsume::{perft, Position};
/// assert_eq!(perft(&Position::startpos(), 3), 25_470);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut n = 0;
    for &m in &list {
        let mut child = pos.clone();
        child.play_unchecked(m);
        n += perft(&child, depth - 1);
    }
    n
}

/// Perft split by the first move: each legal move with the count below it.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}
