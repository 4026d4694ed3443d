//! Lengths and budgets in plies (手数): a mate length, the most plies a search may still use,
//! the plies a disproof holds for. One value, [`NO_LIMIT`], stands for "no limit" (any
//! length, or no mate at all); [`dec`] and [`inc`] keep it as it is.

/// Mates up to this many plies, and the last this many plies of any line, are handled
/// exhaustively: the shortest length is searched from the bottom up (1, 3, 5, ... plies, each
/// proven empty before the next), and the line walk compares equally long choices there (the
/// 駒余り rules). Below it both are cheap; above it, for long problems, they would cost more
/// than the rest of the solve.
pub(crate) const EXHAUSTIVE_PLIES: u16 = 41;

/// A budget or disproof depth without limit: the whole search, or no mate at all.
pub(crate) const NO_LIMIT: u16 = u16::MAX;

/// One ply less of budget (an unlimited budget stays unlimited).
#[inline]
pub(crate) fn dec(budget: u16) -> u16 {
    if budget == NO_LIMIT {
        NO_LIMIT
    } else {
        budget.saturating_sub(1)
    }
}

/// One ply more of disproof depth (unlimited stays unlimited).
#[inline]
pub(crate) fn inc(depth: u16) -> u16 {
    if depth == NO_LIMIT {
        NO_LIMIT
    } else {
        depth.saturating_add(1).min(NO_LIMIT - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_limit_stays_no_limit() {
        assert_eq!(dec(NO_LIMIT), NO_LIMIT);
        assert_eq!(inc(NO_LIMIT), NO_LIMIT);
    }

    #[test]
    fn finite_lengths_step_by_one_and_saturate() {
        assert_eq!(dec(7), 6);
        assert_eq!(dec(0), 0);
        assert_eq!(inc(6), 7);
        assert_eq!(
            inc(NO_LIMIT - 1),
            NO_LIMIT - 1,
            "a finite depth never becomes no limit"
        );
    }
}
