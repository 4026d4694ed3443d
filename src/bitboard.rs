//! Bitboards: sets of squares as 81 bits of a `u128`, and the attack tables.
//!
//! Bit `i` is the square with index `i` (`(file - 1) * 9 + rank - 1`). Step attacks come from
//! tables built at compile time; sliding attacks use the classical ray method: the ray in each
//! direction, cut at the nearest blocker found with one bit scan.

use crate::types::{Color, PieceKind, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub(crate) u128);

const ALL_BITS: u128 = (1u128 << 81) - 1;

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const ALL: Bitboard = Bitboard(ALL_BITS);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// Builds a set from the raw bits (bits above 80 are dropped).
    #[inline]
    pub const fn from_bits(bits: u128) -> Bitboard {
        Bitboard(bits & ALL_BITS)
    }

    /// The raw bits.
    #[inline]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is not empty.
    #[inline]
    pub const fn is_any(self) -> bool {
        self.0 != 0
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        (self.0 >> sq.index()) & 1 != 0
    }

    /// Adds `sq`.
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0 |= 1u128 << sq.index();
    }

    /// Removes `sq`.
    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !(1u128 << sq.index());
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has more than one square.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The square with the lowest index, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(
                self.0.trailing_zeros() as usize
            ))
        }
    }

    /// Removes and returns the square with the lowest index.
    #[inline]
    pub fn pop(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    /// The squares of file `file` (1-9).
    #[inline]
    pub const fn file_mask(file: u8) -> Bitboard {
        Bitboard(0x1ff << ((file as u32 - 1) * 9))
    }

    /// The squares of rank `rank` (1-9).
    pub const fn rank_mask(rank: u8) -> Bitboard {
        let mut b = 0u128;
        let mut f = 0;
        while f < 9 {
            b |= 1 << (f * 9 + rank as u32 - 1);
            f += 1;
        }
        Bitboard(b)
    }

    /// Iterates over the squares, lowest index first.
    #[inline]
    pub fn iter(self) -> BitboardIter {
        BitboardIter {
            lo: self.0 as u64,
            hi: (self.0 >> 64) as u64,
        }
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest index first.
pub struct BitboardIter {
    lo: u64,
    hi: u64,
}

impl Iterator for BitboardIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        // Two 64-bit halves scan faster than one u128.
        if self.lo != 0 {
            let i = self.lo.trailing_zeros() as usize;
            self.lo &= self.lo - 1;
            Some(Square::from_index_unchecked(i))
        } else if self.hi != 0 {
            let i = self.hi.trailing_zeros() as usize + 64;
            self.hi &= self.hi - 1;
            Some(Square::from_index_unchecked(i))
        } else {
            None
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.lo.count_ones() + self.hi.count_ones()) as usize;
        (n, Some(n))
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    fn into_iter(self) -> BitboardIter {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for sq in iter {
            b.insert(sq);
        }
        b
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }
}

impl fmt::Debug for Bitboard {
    /// A 9×9 diagram, rank 1 on top, file 9 on the left, as a board is drawn.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard(")?;
        for rank in 1..=9 {
            for file in (1..=9).rev() {
                let sq = Square::new(file, rank).unwrap();
                f.write_str(if self.contains(sq) { " X" } else { " ." })?;
            }
            writeln!(f)?;
        }
        write!(f, ")")
    }
}

// ---------------------------------------------------------------------------------------------
// Compile-time tables.

const fn sq_of(file: i32, rank: i32) -> i32 {
    if file < 0 || file > 8 || rank < 0 || rank > 8 {
        -1
    } else {
        file * 9 + rank
    }
}

/// Step offsets (delta file, delta rank) for Black; White negates the rank delta.
const PAWN_STEPS: &[(i32, i32)] = &[(0, -1)];
const KNIGHT_STEPS: &[(i32, i32)] = &[(-1, -2), (1, -2)];
const SILVER_STEPS: &[(i32, i32)] = &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD_STEPS: &[(i32, i32)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const KING_STEPS: &[(i32, i32)] = &[
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

const fn step_table(steps: &[(i32, i32)], color: usize) -> [u128; 81] {
    let mut t = [0u128; 81];
    let mut s = 0;
    while s < 81 {
        let f = (s / 9) as i32;
        let r = (s % 9) as i32;
        let mut i = 0;
        while i < steps.len() {
            let (df, dr) = steps[i];
            let dr = if color == 0 { dr } else { -dr };
            let t2 = sq_of(f + df, r + dr);
            if t2 >= 0 {
                t[s] |= 1 << t2;
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// Ray directions as (delta file, delta rank). The first four increase the index (their nearest
/// blocker is the lowest set bit); the last four decrease it.
const DIRS: [(i32, i32); 8] = [
    (0, 1),   // +1: towards rank 9 (down)
    (1, -1),  // +8
    (1, 0),   // +9: towards file 9 (left)
    (1, 1),   // +10
    (0, -1),  // -1: towards rank 1 (up)
    (-1, 1),  // -8
    (-1, 0),  // -9
    (-1, -1), // -10
];
const DOWN: usize = 0;
const UP: usize = 4;

const fn ray_table() -> [[u128; 81]; 8] {
    let mut t = [[0u128; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < 81 {
            let (df, dr) = DIRS[d];
            let mut f = (s / 9) as i32 + df;
            let mut r = (s % 9) as i32 + dr;
            while sq_of(f, r) >= 0 {
                t[d][s] |= 1 << sq_of(f, r);
                f += df;
                r += dr;
            }
            s += 1;
        }
        d += 1;
    }
    t
}

static RAYS: [[u128; 81]; 8] = ray_table();

/// Step attacks indexed by `[color][kind][square]` for pawn, knight, silver, gold (the same for
/// promoted minor pieces) and king; zero for sliders.
static STEP: [[[u128; 81]; 8]; 2] = {
    let mut t = [[[0u128; 81]; 8]; 2];
    let mut c = 0;
    while c < 2 {
        t[c][PieceKind::Pawn as usize] = step_table(PAWN_STEPS, c);
        t[c][PieceKind::Knight as usize] = step_table(KNIGHT_STEPS, c);
        t[c][PieceKind::Silver as usize] = step_table(SILVER_STEPS, c);
        t[c][PieceKind::Gold as usize] = step_table(GOLD_STEPS, c);
        t[c][PieceKind::King as usize] = step_table(KING_STEPS, c);
        c += 1;
    }
    t
};

/// `BETWEEN[a][b]`: the squares strictly between `a` and `b` when they share a line, else empty.
/// `LINE[a][b]`: the whole line through `a` and `b` (edge to edge) when they share one, else empty.
static LINES: ([[u128; 81]; 81], [[u128; 81]; 81]) = {
    let rays = ray_table();
    let mut between = [[0u128; 81]; 81];
    let mut line = [[0u128; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let mut r = rays[d][a];
            let opposite = (d + 4) % 8;
            while r != 0 {
                let b = r.trailing_zeros() as usize;
                r &= r - 1;
                // The ray from a in direction d, cut before b.
                between[a][b] = rays[d][a] & !rays[d][b] & !(1 << b);
                line[a][b] = rays[d][a] | rays[opposite][a] | (1 << a);
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
};

#[inline]
fn ray_pos(dir: usize, sq: usize, occ: u128) -> u128 {
    let r = RAYS[dir][sq];
    let b = r & occ;
    if b == 0 {
        r
    } else {
        r ^ RAYS[dir][b.trailing_zeros() as usize]
    }
}

#[inline]
fn ray_neg(dir: usize, sq: usize, occ: u128) -> u128 {
    let r = RAYS[dir][sq];
    let b = r & occ;
    if b == 0 {
        r
    } else {
        r ^ RAYS[dir][127 - b.leading_zeros() as usize]
    }
}

/// `BOXES[0][sq]`: the squares at most two files and two ranks from `sq`; `BOXES[1][sq]`: at
/// most two files and four ranks. A piece that steps (not a lance, bishop, rook, horse or
/// dragon) can give check by moving only from the first box around the enemy king, a knight
/// only from the second.
static BOXES: [[u128; 81]; 2] = {
    let mut t = [[0u128; 81]; 2];
    let mut a: usize = 0;
    while a < 81 {
        let (fa, ra) = ((a / 9) as i32, (a % 9) as i32);
        let mut b: usize = 0;
        while b < 81 {
            let (df, dr) = (((b / 9) as i32 - fa).abs(), ((b % 9) as i32 - ra).abs());
            if df <= 2 && dr <= 2 {
                t[0][a] |= 1 << b;
            }
            if df <= 2 && dr <= 4 {
                t[1][a] |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    t
};

/// The squares at most two files and two ranks from `sq` (see [`BOXES`]).
#[inline]
pub(crate) fn near_box(sq: Square) -> Bitboard {
    Bitboard(BOXES[0][sq.index()])
}

/// The squares at most two files and four ranks from `sq` (see [`BOXES`]).
#[inline]
pub(crate) fn knight_box(sq: Square) -> Bitboard {
    Bitboard(BOXES[1][sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(STEP[color.index()][PieceKind::Pawn as usize][sq.index()])
}

/// Squares a knight of `color` on `sq` attacks.
#[inline]
pub fn knight_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(STEP[color.index()][PieceKind::Knight as usize][sq.index()])
}

/// Squares a silver of `color` on `sq` attacks.
#[inline]
pub fn silver_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(STEP[color.index()][PieceKind::Silver as usize][sq.index()])
}

/// Squares a gold (or tokin, promoted lance, knight or silver) of `color` on `sq` attacks.
#[inline]
pub fn gold_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(STEP[color.index()][PieceKind::Gold as usize][sq.index()])
}

/// Squares a king on `sq` attacks.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(STEP[0][PieceKind::King as usize][sq.index()])
}

/// Squares a lance of `color` on `sq` attacks given the occupied squares `occ`.
#[inline]
pub fn lance_attacks(color: Color, sq: Square, occ: Bitboard) -> Bitboard {
    match color {
        Color::Black => Bitboard(ray_neg(UP, sq.index(), occ.0)),
        Color::White => Bitboard(ray_pos(DOWN, sq.index(), occ.0)),
    }
}

/// Squares a bishop on `sq` attacks given `occ`.
#[inline]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let s = sq.index();
    let o = occ.0;
    Bitboard(ray_pos(1, s, o) | ray_pos(3, s, o) | ray_neg(5, s, o) | ray_neg(7, s, o))
}

/// Squares a rook on `sq` attacks given `occ`.
#[inline]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let s = sq.index();
    let o = occ.0;
    Bitboard(ray_pos(0, s, o) | ray_pos(2, s, o) | ray_neg(4, s, o) | ray_neg(6, s, o))
}

/// Squares a bishop on `sq` would attack on an empty board.
#[inline]
pub fn bishop_pseudo_attacks(sq: Square) -> Bitboard {
    let s = sq.index();
    Bitboard(RAYS[1][s] | RAYS[3][s] | RAYS[5][s] | RAYS[7][s])
}

/// Squares a rook on `sq` would attack on an empty board.
#[inline]
pub fn rook_pseudo_attacks(sq: Square) -> Bitboard {
    let s = sq.index();
    Bitboard(RAYS[0][s] | RAYS[2][s] | RAYS[4][s] | RAYS[6][s])
}

/// Squares a lance of `color` on `sq` would attack on an empty board.
#[inline]
pub fn lance_pseudo_attacks(color: Color, sq: Square) -> Bitboard {
    match color {
        Color::Black => Bitboard(RAYS[UP][sq.index()]),
        Color::White => Bitboard(RAYS[DOWN][sq.index()]),
    }
}

/// Squares attacked by a piece of `color` and `kind` on `sq`, given `occ`.
#[inline]
pub fn attacks(color: Color, kind: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Pawn => pawn_attacks(color, sq),
        PieceKind::Lance => lance_attacks(color, sq, occ),
        PieceKind::Knight => knight_attacks(color, sq),
        PieceKind::Silver => silver_attacks(color, sq),
        PieceKind::Bishop => bishop_attacks(sq, occ),
        PieceKind::Rook => rook_attacks(sq, occ),
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => gold_attacks(color, sq),
        PieceKind::King => king_attacks(sq),
        PieceKind::Horse => bishop_attacks(sq, occ) | king_attacks(sq),
        PieceKind::Dragon => rook_attacks(sq, occ) | king_attacks(sq),
    }
}

/// The squares strictly between `a` and `b` if they share a rank, file or diagonal; else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.0[a.index()][b.index()])
}

/// The full ray (edge to edge) through `a` and `b`, both included, if they share a rank, file or
/// diagonal; else empty.
#[inline]
pub fn ray(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.1[a.index()][b.index()])
}

/// Whether `a`, `b` and `c` lie on one line.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    ray(a, b).contains(c)
}

const fn far_ranks_const(color: usize, n: u8) -> u128 {
    let mut b = 0u128;
    let mut r = 1;
    while r <= n {
        let rank = if color == 0 { r } else { 10 - r };
        b |= Bitboard::rank_mask(rank).0;
        r += 1;
    }
    b
}

static FAR_RANKS: [[u128; 10]; 2] = {
    let mut t = [[0u128; 10]; 2];
    let mut c = 0;
    while c < 2 {
        let mut n = 0;
        while n < 10 {
            t[c][n] = far_ranks_const(c, n as u8);
            n += 1;
        }
        c += 1;
    }
    t
};

/// Squares on ranks 1..=n (n <= 9) counted from `color`'s side (its promotion zone for n = 3).
#[inline]
pub(crate) fn far_ranks(color: Color, n: u8) -> Bitboard {
    Bitboard(FAR_RANKS[color.index()][n as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::from_usi(s).unwrap()
    }

    // Attacks computed by walking the board one step at a time.
    fn slow_slide(sq0: Square, dirs: &[(i32, i32)], occ: Bitboard) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for &(df, dr) in dirs {
            let mut f = sq0.file() as i32 + df;
            let mut r = sq0.rank() as i32 + dr;
            while (1..=9).contains(&f) && (1..=9).contains(&r) {
                let s = Square::new(f as u8, r as u8).unwrap();
                b.insert(s);
                if occ.contains(s) {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        b
    }

    #[test]
    fn sliding_attacks_match_slow_walk() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let lo = seed;
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let occ = Bitboard::from_bits(((seed as u128) << 64 | lo as u128) & (lo as u128));
            for s in Square::all() {
                let rook = [(0, 1), (0, -1), (1, 0), (-1, 0)];
                let bishop = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
                assert_eq!(rook_attacks(s, occ), slow_slide(s, &rook, occ));
                assert_eq!(bishop_attacks(s, occ), slow_slide(s, &bishop, occ));
                assert_eq!(
                    lance_attacks(Color::Black, s, occ),
                    slow_slide(s, &[(0, -1)], occ)
                );
                assert_eq!(
                    lance_attacks(Color::White, s, occ),
                    slow_slide(s, &[(0, 1)], occ)
                );
            }
        }
    }

    #[test]
    fn step_attacks_examples() {
        assert_eq!(
            pawn_attacks(Color::Black, sq("7g")),
            Bitboard::from_square(sq("7f"))
        );
        assert_eq!(
            pawn_attacks(Color::White, sq("3c")),
            Bitboard::from_square(sq("3d"))
        );
        let n: Vec<_> = knight_attacks(Color::Black, sq("2i")).iter().collect();
        assert_eq!(n, vec![sq("1g"), sq("3g")]);
        assert_eq!(knight_attacks(Color::Black, sq("5b")), Bitboard::EMPTY);
        assert_eq!(gold_attacks(Color::Black, sq("5e")).count(), 6);
        assert_eq!(silver_attacks(Color::White, sq("5e")).count(), 5);
        assert!(silver_attacks(Color::White, sq("5e")).contains(sq("5f")));
        assert!(gold_attacks(Color::White, sq("5e")).contains(sq("5d")));
        assert!(!gold_attacks(Color::White, sq("5e")).contains(sq("4d")));
        assert_eq!(king_attacks(sq("1a")).count(), 3);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(
            between(sq("5a"), sq("5e")).iter().collect::<Vec<_>>(),
            vec![sq("5b"), sq("5c"), sq("5d")]
        );
        assert_eq!(between(sq("1a"), sq("3b")), Bitboard::EMPTY);
        assert_eq!(between(sq("1a"), sq("2b")), Bitboard::EMPTY);
        assert_eq!(
            between(sq("9i"), sq("6f")).iter().collect::<Vec<_>>(),
            vec![sq("7g"), sq("8h")]
        );
        assert_eq!(ray(sq("5a"), sq("5e")), Bitboard::file_mask(5));
        assert_eq!(ray(sq("1e"), sq("5e")), Bitboard::rank_mask(5));
        assert!(aligned(sq("1a"), sq("5e"), sq("9i")));
        assert!(!aligned(sq("1a"), sq("5e"), sq("9h")));
        assert_eq!(ray(sq("1a"), sq("3b")), Bitboard::EMPTY);
    }
}
