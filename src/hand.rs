//! Pieces in hand (持ち駒, mochigoma).

use crate::types::PieceKind;
use std::fmt;

/// The pieces one player holds in hand: a count for each of the seven droppable kinds.
///
/// Packed into one `u32` with a guard bit above each count, so that the superiority test
/// ("this hand has at least as many of every kind as that one", used by the solver for proof
/// and disproof pieces, 証明駒 / 反証駒) is a single subtraction.
///
/// ```
/// use tsume::{Hand, PieceKind};
/// let mut a = Hand::EMPTY;
/// a.add(PieceKind::Gold);
/// a.add(PieceKind::Pawn);
/// let mut b = Hand::EMPTY;
/// b.add(PieceKind::Gold);
/// assert!(a.covers(b));
/// assert!(!b.covers(a));
/// assert_eq!(a.count(PieceKind::Pawn), 1);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Hand(u32);

// Bit offset of each hand kind's count, in PieceKind index order P L N S B R G.
const SHIFT: [u32; 7] = [0, 6, 10, 14, 18, 21, 24];
// Width of each count field.
const WIDTH: [u32; 7] = [5, 3, 3, 3, 2, 2, 3];
const GUARD: u32 = {
    let mut g = 0;
    let mut i = 0;
    while i < 7 {
        g |= 1 << (SHIFT[i] + WIDTH[i]);
        i += 1;
    }
    g
};

impl Hand {
    /// The empty hand.
    pub const EMPTY: Hand = Hand(0);

    /// Number of pieces of `kind` (a hand kind; other kinds count 0).
    #[inline]
    pub const fn count(self, kind: PieceKind) -> u8 {
        let i = kind as usize;
        if i >= 7 {
            return 0;
        }
        ((self.0 >> SHIFT[i]) & ((1 << WIDTH[i]) - 1)) as u8
    }

    /// Whether the hand holds at least one piece of `kind`.
    #[inline]
    pub const fn has(self, kind: PieceKind) -> bool {
        self.count(kind) > 0
    }

    /// Adds one piece of `kind` (its unpromoted kind is what is added).
    ///
    /// # Panics
    /// If `kind` is a king, or the count would exceed the full set (18 pawns, 4 of lance,
    /// knight, silver, gold, 2 of bishop and rook).
    #[inline]
    pub fn add(&mut self, kind: PieceKind) {
        let k = kind.unpromote();
        assert!(k.is_hand_kind(), "a king cannot be held in hand");
        assert!(self.count(k) < k.full_set_count(), "too many {k:?} in hand");
        self.0 += 1 << SHIFT[k as usize];
    }

    /// Removes one piece of `kind`.
    ///
    /// # Panics
    /// If the hand holds none.
    #[inline]
    pub fn remove(&mut self, kind: PieceKind) {
        assert!(self.has(kind), "no {kind:?} in hand");
        self.0 -= 1 << SHIFT[kind as usize];
    }

    /// Sets the count of `kind`, or returns `None` if `kind` cannot be held or `count` exceeds
    /// the full set.
    pub fn with_count(self, kind: PieceKind, count: u8) -> Option<Hand> {
        if !kind.is_hand_kind() || count > kind.full_set_count() {
            return None;
        }
        let i = kind as usize;
        let mask = ((1u32 << WIDTH[i]) - 1) << SHIFT[i];
        Some(Hand((self.0 & !mask) | ((count as u32) << SHIFT[i])))
    }

    /// Whether every kind has a count of at least that of `other` (superiority: a mate
    /// proven with hand `other` also works with `self`).
    #[inline]
    pub const fn covers(self, other: Hand) -> bool {
        self.0.wrapping_sub(other.0) & GUARD == 0
    }

    /// Whether the hand is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Total number of pieces.
    pub fn total(self) -> u32 {
        PieceKind::HAND.iter().map(|&k| self.count(k) as u32).sum()
    }

    /// The raw packed value (stable within one version of the crate).
    #[inline]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// The hand from its raw packed value, or `None` if a count exceeds the full set.
    pub fn from_raw(raw: u32) -> Option<Hand> {
        let h = Hand(raw);
        if raw & !Hand::FIELDS != 0 {
            return None;
        }
        PieceKind::HAND
            .iter()
            .all(|&k| h.count(k) <= k.full_set_count())
            .then_some(h)
    }

    /// The hand from a raw value known to be valid (read back from [`Hand::raw`]).
    #[inline]
    pub(crate) const fn from_raw_unchecked(raw: u32) -> Hand {
        Hand(raw)
    }

    /// Bits used by the count fields.
    const FIELDS: u32 = {
        let mut m = 0;
        let mut i = 0;
        while i < 7 {
            m |= ((1 << WIDTH[i]) - 1) << SHIFT[i];
            i += 1;
        }
        m
    };

    /// The hand with, for each kind, the smaller of the two counts.
    pub fn min(self, other: Hand) -> Hand {
        self.zip_with(other, |a, b| a.min(b))
    }

    /// The hand with, for each kind, the larger of the two counts.
    pub fn max(self, other: Hand) -> Hand {
        self.zip_with(other, |a, b| a.max(b))
    }

    #[inline]
    fn zip_with(self, other: Hand, f: impl Fn(u32, u32) -> u32) -> Hand {
        let mut out = 0;
        for i in 0..7 {
            let mask = (1u32 << WIDTH[i]) - 1;
            let a = (self.0 >> SHIFT[i]) & mask;
            let b = (other.0 >> SHIFT[i]) & mask;
            out |= f(a, b) << SHIFT[i];
        }
        Hand(out)
    }

    /// The hand holding the full set's count of every kind (18 pawns, 4 lances, ...).
    pub const FULL: Hand = {
        let counts = [18u32, 4, 4, 4, 2, 2, 4];
        let mut out = 0;
        let mut i = 0;
        while i < 7 {
            out |= counts[i] << SHIFT[i];
            i += 1;
        }
        Hand(out)
    };

    /// The kinds with a nonzero count, with their counts, in SFEN order (R B G S N L P).
    pub fn iter(self) -> impl Iterator<Item = (PieceKind, u8)> {
        SFEN_ORDER
            .into_iter()
            .map(move |k| (k, self.count(k)))
            .filter(|&(_, n)| n > 0)
    }
}

/// Hand kinds in the order SFEN writes them.
pub(crate) const SFEN_ORDER: [PieceKind; 7] = [
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Gold,
    PieceKind::Silver,
    PieceKind::Knight,
    PieceKind::Lance,
    PieceKind::Pawn,
];

impl Hand {
    /// The pieces in Japanese, each kind followed by its count when more than one, separated
    /// by spaces (`金 歩2`); empty for an empty hand.
    ///
    /// ```
    /// use tsume::{Hand, PieceKind};
    /// let mut hand = Hand::EMPTY;
    /// hand.add(PieceKind::Pawn);
    /// hand.add(PieceKind::Pawn);
    /// hand.add(PieceKind::Gold);
    /// assert_eq!(hand.japanese(), "金 歩2");
    /// assert_eq!(hand.to_string(), "G2P");
    /// ```
    pub fn japanese(self) -> String {
        self.iter()
            .map(|(k, n)| {
                if n > 1 {
                    format!("{}{n}", k.japanese())
                } else {
                    k.japanese().to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// SFEN letters in SFEN order, upper case, counts before the letter (`2GP`); nothing for an
/// empty hand.
impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, n) in self.iter() {
            if n > 1 {
                write!(f, "{n}")?;
            }
            write!(f, "{}", k.sfen_letter())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hand({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_limits() {
        let mut h = Hand::EMPTY;
        for _ in 0..18 {
            h.add(PieceKind::Pawn);
        }
        for k in [
            PieceKind::Lance,
            PieceKind::Knight,
            PieceKind::Silver,
            PieceKind::Gold,
        ] {
            for _ in 0..4 {
                h.add(k);
            }
        }
        h.add(PieceKind::Horse);
        h.add(PieceKind::Bishop);
        h.add(PieceKind::Rook);
        h.add(PieceKind::Rook);
        assert_eq!(h.count(PieceKind::Pawn), 18);
        assert_eq!(h.count(PieceKind::Bishop), 2);
        assert_eq!(h.count(PieceKind::Rook), 2);
        assert_eq!(h.count(PieceKind::Gold), 4);
        assert_eq!(h.total(), 38);
        assert_eq!(h.with_count(PieceKind::Pawn, 19), None);
        assert_eq!(h.with_count(PieceKind::King, 1), None);
    }

    #[test]
    fn min_max_full_raw() {
        let a = Hand::EMPTY
            .with_count(PieceKind::Pawn, 3)
            .unwrap()
            .with_count(PieceKind::Gold, 1)
            .unwrap();
        let b = Hand::EMPTY
            .with_count(PieceKind::Pawn, 1)
            .unwrap()
            .with_count(PieceKind::Rook, 2)
            .unwrap();
        let lo = a.min(b);
        let hi = a.max(b);
        assert_eq!(lo.count(PieceKind::Pawn), 1);
        assert_eq!(lo.count(PieceKind::Gold), 0);
        assert_eq!(hi.count(PieceKind::Pawn), 3);
        assert_eq!(hi.count(PieceKind::Rook), 2);
        assert_eq!(hi.count(PieceKind::Gold), 1);
        for k in PieceKind::HAND {
            assert_eq!(Hand::FULL.count(k), k.full_set_count());
        }
        assert_eq!(Hand::from_raw(Hand::FULL.raw()), Some(Hand::FULL));
        assert_eq!(Hand::from_raw(u32::MAX), None);
    }

    #[test]
    fn covers_is_componentwise() {
        let kinds = PieceKind::HAND;
        // Exhaustive over small counts on two kinds at a time.
        for (i, &a) in kinds.iter().enumerate() {
            for &b in &kinds[i + 1..] {
                for x in 0..3u8 {
                    for y in 0..3u8 {
                        for u in 0..3u8 {
                            for v in 0..3u8 {
                                let h1 = Hand::EMPTY
                                    .with_count(a, x)
                                    .unwrap()
                                    .with_count(b, y)
                                    .unwrap();
                                let h2 = Hand::EMPTY
                                    .with_count(a, u)
                                    .unwrap()
                                    .with_count(b, v)
                                    .unwrap();
                                assert_eq!(h1.covers(h2), x >= u && y >= v, "{h1:?} {h2:?}");
                            }
                        }
                    }
                }
            }
        }
    }
}
