//! Zobrist keys, generated at compile time.
//!
//! The board key covers the pieces on the board and the side to move. Hands have their own
//! additive key so that the solver can look positions up by board alone and compare hands.

use crate::types::{Color, Piece, PieceKind, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

struct Keys {
    piece: [[u64; 81]; 28],
    hand: [[u64; 7]; 2],
    side: u64,
    in_play: [[u64; 19]; 7],
}

static KEYS: Keys = {
    let mut state = 0x7473_756d_655f_6b65u64; // "tsume_ke"
    let mut piece = [[0u64; 81]; 28];
    let mut p = 0;
    while p < 28 {
        let mut s = 0;
        while s < 81 {
            let (st, v) = splitmix(state);
            state = st;
            piece[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    let mut hand = [[0u64; 7]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 7 {
            let (st, v) = splitmix(state);
            state = st;
            hand[c][k] = v;
            k += 1;
        }
        c += 1;
    }
    let (st, side) = splitmix(state);
    state = st;
    let mut in_play = [[0u64; 19]; 7];
    let mut k = 0;
    while k < 7 {
        let mut n = 0;
        while n < 19 {
            let (st, v) = splitmix(state);
            state = st;
            in_play[k][n] = v;
            n += 1;
        }
        k += 1;
    }
    Keys {
        piece,
        hand,
        side,
        in_play,
    }
};

/// Key of `piece` standing on `sq`.
#[inline]
pub(crate) fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.piece[piece.index()][sq.index()]
}

/// Key added once per piece of `kind` in `color`'s hand (the hand key is a wrapping sum).
#[inline]
pub(crate) fn hand_key(color: Color, kind: PieceKind) -> u64 {
    KEYS.hand[color.index()][kind as usize]
}

/// Key xor-ed into the board key when a piece of `kind` is taken out of play and `count` pieces
/// of that kind were in play before (the capture position of a moving interposition, see the
/// solver's futile-interposition rule): `in_play_key(kind, count) ^ in_play_key(kind, count - 1)`.
/// A position with pieces out of play thus never shares a board key with one that has them,
/// whose defender holds them (the solver's table looks positions up by board and attacker's
/// hand, the defender holding the rest). `count` is at most 18 (a full set's pawns).
#[inline]
pub(crate) fn in_play_key(kind: PieceKind, count: u8) -> u64 {
    KEYS.in_play[kind as usize][count as usize]
}

/// Key xor-ed in when White is to move.
#[inline]
pub(crate) fn side_key() -> u64 {
    KEYS.side
}

/// The hasher of the solver's maps keyed by position keys: a Zobrist key is already uniformly
/// random in every bit, so it is its own hash (the map takes the bucket from the low bits and
/// the tag from the high ones). Anything else written (a move) is spread by a multiply, as
/// FxHash does.
#[derive(Clone, Copy, Default)]
pub(crate) struct KeyHasher(u64);

impl KeyHasher {
    /// Folds `n` in: the first value written is the hash as it is (a key), later ones are
    /// spread over it.
    #[inline]
    fn add(&mut self, n: u64) {
        self.0 = if self.0 == 0 {
            n
        } else {
            (self.0.rotate_left(5) ^ n).wrapping_mul(SPREAD)
        };
    }
}

impl std::hash::Hasher for KeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n).wrapping_mul(SPREAD));
    }

    #[inline]
    fn write_u16(&mut self, n: u16) {
        self.add(u64::from(n).wrapping_mul(SPREAD));
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b).wrapping_mul(SPREAD));
        }
    }
}

/// FxHash's multiplier (an odd number with its bits spread).
const SPREAD: u64 = 0x51_7c_c1_b7_27_22_0a_95;

/// The [`KeyHasher`] for maps.
pub(crate) type BuildKeyHasher = std::hash::BuildHasherDefault<KeyHasher>;
/// A map keyed by position keys (or moves), hashed by [`KeyHasher`].
pub(crate) type KeyMap<K, V> = std::collections::HashMap<K, V, BuildKeyHasher>;
/// A set of position keys (or moves), hashed by [`KeyHasher`].
pub(crate) type KeySet<K> = std::collections::HashSet<K, BuildKeyHasher>;
