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

pub use bitboard::{
    Bitboard, BitboardIter, aligned, attacks, between, bishop_attacks, gold_attacks, king_attacks,
    knight_attacks, lance_attacks, line, pawn_attacks, rook_attacks, silver_attacks,
};
pub use hand::Hand;
pub use legality::{IllegalMove, UsiMoveError};
pub use moves::{Move, MoveList, ParseMoveError};
pub use perft::{perft, perft_divide};
pub use position::{Position, STARTPOS_SFEN, SfenError};
pub use types::{Color, Piece, PieceKind, Square};
pub mod solver;
pub use solver::{
    AllocError, Alternative, DefenderChoice, Flaw, FlawKind, LineError, MateLine, Outcome,
    Progress, Question, Report, Solution, Solver, SolverConfig, Stats, StopHandle, StopReason,
    Undecided, UnverifiedLine, Verdict, is_mate_with_futile_interpositions, verify_mate,
};
#[cfg(feature = "serde")]
pub mod json;
mod notation;
pub mod problem;
pub use notation::{board_diagram, japanese_line, japanese_move};
