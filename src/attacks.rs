//! Attack sets and the geometry of lines between squares.
//!
//! The squares a piece attacks, as a [`Bitboard`](crate::Bitboard), from tables built at compile
//! time (step pieces) or by scanning the rays to the nearest blocker (lances, bishops, rooks and
//! their promotions). Pieces with a direction (pawn, lance, knight, silver, gold and the pieces
//! that move like a gold) take the [`Color`](crate::Color) of their owner: Black moves up the
//! board (towards rank a), White down.
//!
//! ```
//! use tsume::attacks::{aligned, between, ray, rook_attacks};
//! use tsume::{Bitboard, Square};
//!
//! let sq = |s: &str| Square::from_usi(s).unwrap();
//! // A rook on 5e with a piece on 5c sees 5d and 5c up the file, and the whole rank 5.
//! let seen = rook_attacks(sq("5e"), Bitboard::from_square(sq("5c")));
//! assert!(seen.contains(sq("5c")) && !seen.contains(sq("5b")));
//! assert_eq!(seen.count(), 2 + 4 + 8);
//! // Between 1a and 4d lie 2b and 3c; the ray through them runs from 1a to 9i.
//! assert_eq!(between(sq("1a"), sq("4d")).count(), 2);
//! assert_eq!(ray(sq("1a"), sq("4d")).count(), 9);
//! assert!(aligned(sq("1a"), sq("4d"), sq("9i")));
//! ```

pub use crate::bitboard::{
    aligned, attacks, between, bishop_attacks, bishop_pseudo_attacks, gold_attacks, king_attacks,
    knight_attacks, lance_attacks, lance_pseudo_attacks, pawn_attacks, ray, rook_attacks,
    rook_pseudo_attacks, silver_attacks,
};
