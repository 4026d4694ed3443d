#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod bitboard;
mod hand;
mod legality;
mod movegen;
mod moves;
mod perft;
mod position;
pub mod rules;
mod types;
mod zobrist;

pub mod attacks;
pub use bitboard::{Bitboard, BitboardIter};
pub use hand::Hand;
pub use legality::{IllegalMove, UsiMoveError};
pub use moves::{Move, MoveList, ParseMoveError};
pub use perft::{perft, perft_divide};
pub use position::{Position, STARTPOS_SFEN, SfenError};
pub use types::{Color, Piece, PieceKind, Square};
pub mod check;
#[cfg(feature = "serde")]
pub mod json;
mod notation;
pub mod problem;
pub mod solver;
pub use notation::{board_diagram, japanese_line, japanese_move};
