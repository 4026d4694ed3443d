//! Lengths and budgets in plies (手数): [`Plies`], a mate length, the most plies a search may
//! still use, or the plies a disproof holds for, with "no limit" as a case of its own.

/// The last this many plies of any line are walked exhaustively: the line walk compares
/// equally long choices there (the 駒余り rules). Below it that is cheap; above it, for long
/// problems, it would cost more than the rest of the solve.
pub(crate) const EXHAUSTIVE_PLIES: u16 = 41;

/// The longest mate (a first proof's, or a shorter one found after it) whose length is
/// searched from the bottom up (1, 3, 5, ... plies, each proven empty before the next; after
/// the searches from the top when the first proof was costly, see `shortest.rs`). Random mates of at most
/// 25 plies can have first proofs of 67; the long problems' first proofs (寿 629 for 611,
/// Astral390 189) would need hundreds of refutations from the bottom, each a little costlier
/// than the one before (寿's first forty take about 4,000 nodes each; at 30 M nodes it gets to
/// 393 plies), which would only take the allowance from the line's tightening.
pub(crate) const BOTTOM_UP_PLIES: u16 = 127;

/// A number of plies (手数), or no limit: a search's budget (the most plies the mate may still
/// take), a proof's mate length (always finite), or the plies a disproof holds for. "No
/// limit" is a case of the type, not a number: an unlimited budget asks for a mate of any
/// length, an unlimited disproof says there is no mate at all. Ordered as the numbers, with
/// no limit above all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Plies {
    /// At most this many plies.
    Within(u16),
    /// No limit.
    Unlimited,
}

/// The largest finite number of plies; counts saturate here rather than become unlimited.
const MAX_FINITE: u16 = u16::MAX - 1;

impl Plies {
    /// No plies at all.
    pub const ZERO: Plies = Plies::Within(0);

    /// A finite number of plies (saturating below the unlimited case).
    #[inline]
    pub fn new(n: u16) -> Plies {
        Plies::Within(n.min(MAX_FINITE))
    }

    /// `n` plies, or no limit when `n` is `None`.
    pub fn limit(n: Option<u32>) -> Plies {
        n.map_or(Plies::Unlimited, |p| {
            Plies::new(p.min(MAX_FINITE as u32) as u16)
        })
    }

    /// One ply less (an unlimited budget stays unlimited; zero stays zero).
    #[inline]
    pub fn dec(self) -> Plies {
        match self {
            Plies::Within(n) => Plies::Within(n.saturating_sub(1)),
            Plies::Unlimited => Plies::Unlimited,
        }
    }

    /// One ply more (unlimited stays unlimited; a finite count never becomes unlimited).
    #[inline]
    pub fn inc(self) -> Plies {
        match self {
            Plies::Within(n) => Plies::new(n.saturating_add(1)),
            Plies::Unlimited => Plies::Unlimited,
        }
    }

    /// The finite count; no limit reads as the largest count (for mate lengths, which are
    /// always finite, and for lengths compared as numbers).
    #[inline]
    pub fn plies(self) -> u16 {
        match self {
            Plies::Within(n) => n,
            Plies::Unlimited => u16::MAX,
        }
    }

    /// The 16 bits the transposition table stores (no limit as `u16::MAX`).
    #[inline]
    pub fn to_raw(self) -> u16 {
        self.plies()
    }

    /// Back from the table's 16 bits.
    #[inline]
    pub fn from_raw(raw: u16) -> Plies {
        if raw == u16::MAX {
            Plies::Unlimited
        } else {
            Plies::Within(raw)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_limit_stays_no_limit() {
        assert_eq!(Plies::Unlimited.dec(), Plies::Unlimited);
        assert_eq!(Plies::Unlimited.inc(), Plies::Unlimited);
        assert_eq!(Plies::limit(None), Plies::Unlimited);
    }

    #[test]
    fn finite_lengths_step_by_one_and_saturate() {
        assert_eq!(Plies::new(7).dec(), Plies::new(6));
        assert_eq!(Plies::ZERO.dec(), Plies::ZERO);
        assert_eq!(Plies::new(6).inc(), Plies::new(7));
        assert_eq!(
            Plies::new(u16::MAX).inc(),
            Plies::new(MAX_FINITE),
            "never unlimited"
        );
        assert_eq!(Plies::limit(Some(1_000_000)), Plies::new(MAX_FINITE));
    }

    #[test]
    fn ordered_as_numbers_with_no_limit_above() {
        assert!(Plies::new(3) < Plies::new(5));
        assert!(Plies::new(MAX_FINITE) < Plies::Unlimited);
        for p in [
            Plies::ZERO,
            Plies::new(41),
            Plies::new(MAX_FINITE),
            Plies::Unlimited,
        ] {
            assert_eq!(Plies::from_raw(p.to_raw()), p);
        }
    }
}
