//! A memo of the df-pn+ initial numbers of new nodes, keyed by position.
//!
//! A node's children that the table does not know get initial numbers from their own
//! position ([`initial_and_pn`](super::expansion::initial_and_pn) counts a new AND node's
//! replies, [`initial_or_dn`](super::expansion::initial_or_dn) a new OR node's checks): the
//! child is made and its moves counted. Most of these children are never searched, so the
//! table never learns of them, and every later visit of the parent (a node is visited about
//! 1.7 times in a long search) counted them again. The memo keeps the numbers: they depend
//! on the position alone, so an entry is right on every path, in every search and for any
//! budget, and the memo is never cleared.
//!
//! Direct-mapped, one `u64` a slot: the key's upper 40 bits check the slot, the lower 24
//! hold the number plus one (zero is an empty slot). A collision of 40 bits among positions
//! mapped to one slot is as unlikely as one of the table's 64-bit keys, which the search
//! trusts already.
//!
//! The threads of a parallel search share it: a slot is one atomic word, read and written
//! whole.

use super::pn::PnDn;
use std::sync::atomic::{AtomicU64, Ordering};

/// Bits of a slot that hold the number (plus one).
const VALUE_BITS: u32 = 24;
const VALUE_MASK: u64 = (1 << VALUE_BITS) - 1;

/// The memo: slots indexed by the low bits of a position's key.
pub(crate) struct Memo {
    slots: Vec<AtomicU64>,
}

impl Memo {
    /// The largest memo: 512 KiB, about the size of a core's second-level cache.
    const MAX_BYTES: usize = 1 << 19;

    /// A memo of at most `bytes` (a power of two, at least 4 KiB and at most 512 KiB).
    pub fn new(bytes: usize) -> Memo {
        let bytes = bytes.clamp(4096, Self::MAX_BYTES);
        let bytes = if bytes.is_power_of_two() {
            bytes
        } else {
            bytes.next_power_of_two() / 2
        };
        Memo {
            slots: (0..bytes / 8).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The memo for a table of `table_bytes`: a thirty-second of it, within the bounds of
    /// [`Memo::new`].
    pub fn for_table(table_bytes: usize) -> Memo {
        Memo::new(table_bytes / 32)
    }

    /// Bytes held.
    #[cfg(test)]
    pub fn size_bytes(&self) -> usize {
        self.slots.len() * 8
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        key as usize & (self.slots.len() - 1)
    }

    /// Starts loading the slot of `key` into the cache (a hint: nothing is read).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        super::tt::prefetch_line(self.slots[self.slot(key)].as_ptr().cast_const().cast());
    }

    /// The number remembered for the position of `key`, if any.
    #[inline]
    pub fn get(&self, key: u64) -> Option<PnDn> {
        let s = self.slots[self.slot(key)].load(Ordering::Relaxed);
        (s != 0 && s >> VALUE_BITS == key >> VALUE_BITS).then(|| (s & VALUE_MASK) as PnDn - 1)
    }

    /// Remembers `n` for the position of `key` (replacing what the slot held). Numbers too
    /// large for a slot are not kept.
    #[inline]
    pub fn put(&self, key: u64, n: PnDn) {
        let v = n as u64 + 1;
        if v <= VALUE_MASK {
            let i = self.slot(key);
            self.slots[i].store((key & !VALUE_MASK) | v, Ordering::Relaxed);
        }
    }

    /// The number for `key`, computed by `f` (and remembered) when the memo has none.
    #[inline]
    pub fn get_or(&self, key: u64, f: impl FnOnce() -> PnDn) -> PnDn {
        match self.get(key) {
            Some(n) => n,
            None => {
                let n = f();
                self.put(key, n);
                n
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_what_it_was_told_and_only_for_that_key() {
        let m = Memo::new(4096);
        assert_eq!(m.size_bytes(), 4096);
        let k = 0x1234_5678_9abc_def0;
        assert_eq!(m.get(k), None);
        m.put(k, 0);
        assert_eq!(m.get(k), Some(0), "zero is a number, not an empty slot");
        // Same slot, other upper bits: not taken for the first.
        let other = k ^ (1 << 40);
        assert_eq!(m.get(other), None);
        m.put(other, 17);
        assert_eq!(m.get(other), Some(17));
        assert_eq!(m.get(k), None, "replaced");
        assert_eq!(m.get_or(k, || 5), 5);
        assert_eq!(m.get_or(k, || 6), 5, "remembered");
        m.put(k ^ 1, VALUE_MASK as PnDn);
        assert_eq!(m.get(k ^ 1), None, "too large to keep");
    }

    #[test]
    fn an_empty_slot_is_not_a_key_with_zero_upper_bits() {
        let m = Memo::new(4096);
        assert_eq!(m.get(0), None);
        assert_eq!(m.get(5), None);
    }

    #[test]
    fn sizes_are_powers_of_two_within_bounds() {
        assert_eq!(Memo::new(1).size_bytes(), 4096);
        assert_eq!(Memo::new(100_000).size_bytes(), 65536);
        assert_eq!(Memo::new(1 << 30).size_bytes(), 1 << 19);
        assert_eq!(Memo::for_table(1 << 20).size_bytes(), 32768);
    }
}
