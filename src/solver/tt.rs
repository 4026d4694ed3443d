//! The transposition table: a fixed number of clusters, looked up by board key, with hands
//! compared for superiority.
//!
//! An entry holds the attacker's hand: for a proven entry the proof hand (証明駒, the least the
//! attacker needs), for a disproven one the disproof hand (反証駒, the most the attacker may
//! hold), otherwise the exact hand searched. A lookup with hand H is answered by a proven entry
//! whose proof hand H covers, by a disproven entry whose disproof hand covers H, or by the
//! entry with exactly H.
//!
//! Entries are verified by their full 64-bit board key and exact hand. The table never grows:
//! when a cluster is full the entry with the least search work behind it is replaced, solved
//! entries last.
//!
//! The table is shared by the threads of a parallel search (`&Table` is all a search needs):
//! every word is an atomic, and each slot is a small sequence lock. A writer takes the slot's
//! lock bit, writes the key and the entry, and releases the lock with a new version; a reader
//! takes a snapshot of key and entry and keeps it only when the slot's version word was the
//! same, and unlocked, before and after. A torn entry (half of one write, half of another)
//! would pair a proof with another position's hand, so it is never used; a write that finds
//! the slot locked by another thread is dropped (the table is a cache: a lost entry costs
//! nodes, never a wrong answer). With one thread the locks are always free and the search is
//! the same, node for node.

use super::memo::Memo;
use super::path::PathProofs;
use super::plies::Plies;
use super::pn::PnDn;
use crate::hand::Hand;
use crate::moves::Move;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering, fence};

/// Entries looked at to estimate the fill: about a thousand clusters, enough for a percentage
/// and cheap enough for every progress report.
const FILL_SAMPLE: usize = 16_000;

/// A request for memory that could not be met: the table (or the whole of
/// [`SolverConfig::hash_mib`](super::SolverConfig::hash_mib)) is larger than the system gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AllocError {
    /// The bytes asked for.
    pub requested: usize,
}

impl std::fmt::Display for AllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot allocate {} MiB for the transposition table",
            self.requested.div_ceil(1 << 20)
        )
    }
}

impl std::error::Error for AllocError {}

/// A vector of `n` values whose bytes are all zero, or `None` when the memory cannot be had.
/// The memory comes zeroed from the allocator (`alloc_zeroed`, which takes large blocks
/// from the system's zeroed pages), so an unused part of the table costs nothing until
/// touched, whereas writing the zeros would touch all of it now.
///
/// # Safety
///
/// All-zero bytes must be a valid `T` (true of the atomic integers and arrays of them used
/// here).
unsafe fn zeroed<T>(n: usize) -> Option<Vec<T>> {
    let layout = std::alloc::Layout::array::<T>(n).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout has a non-zero size.
    let p = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>();
    if p.is_null() {
        return None;
    }
    // SAFETY: `p` was allocated by the global allocator with the layout of `n` values of
    // `T`, which the caller vouches are valid as all zeros.
    Some(unsafe { Vec::from_raw_parts(p, n, n) })
}

/// Asks the kernel to back `v` with transparent huge pages (`madvise(MADV_HUGEPAGE)`); a
/// hint, ignored where the system has them off.
#[cfg(target_os = "linux")]
fn advise_huge_pages<T>(v: &[T]) {
    // SAFETY: sysconf has no preconditions.
    let page = match unsafe { libc::sysconf(libc::_SC_PAGESIZE) } {
        p if p > 0 => p as usize,
        _ => return,
    };
    let start = v.as_ptr() as usize;
    let end = start + std::mem::size_of_val(v);
    let first = start.next_multiple_of(page);
    if end > first {
        // SAFETY: the range lies inside `v`'s allocation, which stays mapped, and the advice
        // changes only how its pages are backed, not what they hold.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_: &[T]) {}

/// The first index from which elements of `size` bytes in a vector at address `addr` start
/// on a 64-byte boundary (fewer than [`WAYS`] in: `addr` is a multiple of 8, and so are the
/// sizes used here).
fn aligned_start(addr: usize, size: usize) -> usize {
    (0..WAYS).find(|i| (addr + i * size) % 64 == 0).unwrap_or(0)
}

/// Entries per cluster. A board reached with many different hands needs several entries, and
/// proofs must not be crowded out by them, so clusters are wide; the keys sit together in one
/// cache line. Eight rather than sixteen: a probe asks for every line of its cluster (keys
/// and entries), and with sixteen the search waited on memory more than it computed
/// (the history of benches/README.md in git, "Time per node (fourth round)"); four crowded proofs out (Astral
/// Traveler's first proof took 4.2 M nodes instead of 1.6 M).
const WAYS: usize = 8;

/// What an entry holds besides its key, as plain words so that a zeroed table is allocated
/// lazily: hand, pn, dn, work (nodes searched below, for replacement), mate length and best
/// move (16 bits each), and the slot's version word: the search generation that wrote it
/// (the low 16 bits; 0 is never used, so zeroed memory is empty), a lock bit and a write
/// counter (see the module docs). A snapshot of a slot, as read or about to be written.
type Entry = [u32; 6];

/// A slot's entry in the table.
type Slot = [AtomicU32; 6];

/// The bits of the version word that hold the generation.
const GENERATION_MASK: u32 = 0xffff;
/// The version word's lock bit: set while a thread writes the slot.
const LOCKED: u32 = 1 << 16;
/// One step of the version word's write counter (above the lock bit); it wraps.
const VERSION_STEP: u32 = 1 << 17;

const HAND: usize = 0;
const PN: usize = 1;
const DN: usize = 2;
const WORK: usize = 3;
const LEN_BEST: usize = 4;
const GENERATION: usize = 5;

/// The generation of an entry's version word.
#[inline]
fn generation_of(e: &Entry) -> u32 {
    e[GENERATION] & GENERATION_MASK
}

#[inline]
fn hand_of(e: &Entry) -> Hand {
    Hand::from_raw_unchecked(e[HAND])
}
#[inline]
fn solved(e: &Entry) -> bool {
    e[PN] == 0 || e[DN] == 0
}
#[inline]
fn len_of(e: &Entry) -> u16 {
    e[LEN_BEST] as u16
}

/// Which of a cluster's `keys` are `key`, as a bit mask: one pass without branches (it
/// compiles to vector compares), then only the few matching slots are read.
#[inline]
fn key_matches(keys: &[AtomicU64], key: u64) -> u32 {
    let mut m = 0u32;
    for (i, k) in keys.iter().enumerate().take(WAYS) {
        m |= ((k.load(Ordering::Relaxed) == key) as u32) << i;
    }
    m
}

/// Asks the CPU to start loading the cache line holding `p` (a hint: it never faults).
#[inline]
pub(crate) fn prefetch_line(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch is only a hint; it does not dereference the pointer, and SSE
        // is part of the x86-64 baseline.
        #[allow(unused_unsafe)]
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>())
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        // SAFETY: `p` points into the table (the caller takes it from a slice of it).
        std::hint::black_box(unsafe { p.read() });
    }
}

/// Asks for every cache line of `v` (whatever its alignment: each 64-byte step, and the
/// last byte).
#[inline]
fn prefetch_lines<T>(v: &[T]) {
    let bytes = std::mem::size_of_val(v);
    let start = v.as_ptr().cast::<u8>();
    for offset in (0..bytes).step_by(64) {
        prefetch_line(start.wrapping_add(offset));
    }
    if bytes > 0 {
        prefetch_line(start.wrapping_add(bytes - 1));
    }
}

/// What the table knows about a position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Probe {
    pub pn: PnDn,
    pub dn: PnDn,
    /// Proof hand (proven), disproof hand (disproven), or the hand looked up.
    pub hand: Hand,
    /// Mate length (proven), plies the disproof holds for (disproven), else zero.
    pub len: Plies,
    pub best: Option<Move>,
    /// Whether any entry was found.
    pub found: bool,
}

/// Fixed-size table: `WAYS` keys side by side per cluster, and their entries.
pub(crate) struct Table {
    keys: Vec<AtomicU64>,
    entries: Vec<Slot>,
    /// Clusters in the table.
    clusters: usize,
    /// Where the first cluster starts in `keys` and in `entries`: a few slots in, so that
    /// each cluster's keys fill one cache line and its entries three, rather than straddling
    /// two and four (the allocator aligns the vectors to 16 bytes only).
    key_start: usize,
    entry_start: usize,
    /// The current search's generation (see [`Table::new_search`]).
    generation: AtomicU32,
    /// Whether a proof serves only the hand it was found with (see
    /// [`Table::set_exact_proofs`]).
    exact_proofs: bool,
    /// The initial numbers of new nodes, which depend on the position alone: kept beside
    /// the table, for every search that uses it.
    pub memo: Memo,
    /// Proofs that hold below the paths with the positions they rest on, for every thread
    /// of the current search.
    pub path_proofs: PathProofs,
}

impl Table {
    /// A table of at most `mib` MiB (at least one cluster).
    #[cfg(test)]
    pub fn new(mib: usize) -> Table {
        Table::try_new(mib).expect("allocate the table")
    }

    /// A table of at most `mib` MiB (at least one cluster), or the error when the memory
    /// cannot be had.
    #[cfg(test)]
    pub fn try_new(mib: usize) -> Result<Table, AllocError> {
        Table::try_new_kib(mib.saturating_mul(1024))
    }

    /// A table of at most `kib` KiB (at least one cluster), or the error when the memory
    /// cannot be had.
    pub fn try_new_kib(kib: usize) -> Result<Table, AllocError> {
        let bytes = kib.saturating_mul(1 << 10);
        let per_cluster = WAYS * (8 + std::mem::size_of::<Entry>());
        let n = (bytes / per_cluster).max(1);
        let error = AllocError {
            requested: n.saturating_mul(per_cluster),
        };
        // Room for the cache-line alignment of the first cluster (224 bytes more than the
        // size asked for: taken from it, one cluster fewer, the clusters' keys would map to
        // other slots, and a search's nodes should not change with its speed).
        let slots = n
            .checked_mul(WAYS)
            .and_then(|s| s.checked_add(WAYS - 1))
            .ok_or(error)?;
        // SAFETY: zero is a valid atomic integer.
        let keys = unsafe { zeroed::<AtomicU64>(slots) }.ok_or(error)?;
        let entries = unsafe { zeroed::<Slot>(slots) }.ok_or(error)?;
        let key_start = aligned_start(keys.as_ptr() as usize, 8);
        let entry_start = aligned_start(entries.as_ptr() as usize, std::mem::size_of::<Entry>());
        Ok(Table {
            keys,
            entries,
            clusters: n,
            key_start,
            entry_start,
            generation: AtomicU32::new(1),
            exact_proofs: false,
            memo: Memo::for_table(bytes),
            path_proofs: PathProofs::new(bytes),
        })
    }

    /// Makes every proof serve only the attacker's hand it was found with, not larger hands
    /// (superiority): for the tables of searches with excluded positions
    /// ([`Search::exclude`](super::search::Search::exclude)). An excluded position is one
    /// board with one pair of hands; the same play from the same board with a larger hand
    /// reaches other positions, and one of them may be excluded, so a proof found clear of
    /// the exclusions with one hand says nothing of a larger one. Disproofs still serve
    /// smaller hands: they rest on no exclusion (those that do never reach the table), and
    /// a position not mated with some hand is not mated with less.
    pub fn set_exact_proofs(&mut self, on: bool) {
        self.exact_proofs = on;
    }

    /// See [`Table::set_exact_proofs`].
    pub fn exact_proofs(&self) -> bool {
        self.exact_proofs
    }

    /// Asks the system to back the table with huge pages from now on (`madvise`, a hint:
    /// ignored where the system has them off), before a search with several threads maps it
    /// as it goes, or before [`Table::prefault`].
    ///
    /// Mapped as a search goes, a zeroed table's small pages each take two faults (a read
    /// maps the shared zero page, the first write replaces it), and with several threads each
    /// replacement also interrupts the other cores to drop their stale translations: with
    /// two threads on a 2-core KVM guest a 1 GiB table cost 4-5 s of system time while it
    /// filled, and the first proof of 図巧100番 took 2.0 s (0.3 s with the table mapped
    /// first). In 2 MiB pages that is 512 faults per GiB. One thread keeps the small pages:
    /// its short searches touch a few of them, where each huge page would be cleared whole
    /// (a mate in 7 of 1,248 nodes mapped 950 MiB of a 1 GiB table, 0.1 s against 0.01 s).
    pub fn ask_huge_pages(&self) {
        advise_huge_pages(&self.keys);
        advise_huge_pages(&self.entries);
    }

    /// [`Table::ask_huge_pages`] for a table that `threads` search threads will share: only
    /// when they are several (see there why one thread keeps the small pages).
    pub fn ask_huge_pages_for(&self, threads: usize) {
        if threads > 1 {
            self.ask_huge_pages();
        }
    }

    /// Touches every page of the table now, keeping what it holds, so that a search does
    /// not take the page faults of a fresh table one by one (each page of a zeroed
    /// allocation is mapped at its first read and copied at its first write). See
    /// [`Solver::prefault`](crate::solver::Solver::prefault).
    pub fn prefault(&mut self) {
        // Huge pages first, where the system gives them: the table is read at random, and
        // with 4 KiB pages a look-up nearly always missed the TLB too. Touching one word per
        // 4 KiB maps them, or the small pages where the system gives no huge ones.
        self.ask_huge_pages();
        const PAGE: usize = 4096;
        for k in self.keys.iter_mut().step_by(PAGE / 8) {
            *k.get_mut() = std::hint::black_box(*k.get_mut());
        }
        for e in self
            .entries
            .iter_mut()
            .step_by(PAGE / std::mem::size_of::<Slot>())
        {
            *e[0].get_mut() = std::hint::black_box(*e[0].get_mut());
        }
    }

    /// Bytes held by the table.
    pub fn size_bytes(&self) -> usize {
        self.keys.len() * 8 + self.entries.len() * std::mem::size_of::<Slot>()
    }

    /// Starts a new search: entries of earlier searches become empty, and the proofs kept
    /// for paths ([`PathProofs`]) are forgotten. Between searches only: a search still
    /// running on the table would see its entries vanish.
    pub fn new_search(&self) {
        self.path_proofs.clear();
        let mut generation = self.generation.load(Ordering::Relaxed) + 1;
        if generation > GENERATION_MASK {
            for e in self.entries.iter() {
                e[GENERATION].store(0, Ordering::Relaxed);
            }
            generation = 1;
        }
        self.generation.store(generation, Ordering::Relaxed);
    }

    /// The current search's generation.
    #[inline]
    fn generation(&self) -> u32 {
        self.generation.load(Ordering::Relaxed)
    }

    /// First slot of the cluster of `key`.
    #[inline]
    fn base(&self, key: u64) -> usize {
        (((key as u128 * self.clusters as u128) >> 64) as usize) * WAYS
    }

    /// The keys of the cluster that starts at slot `base`.
    #[inline]
    fn cluster_keys(&self, base: usize) -> &[AtomicU64] {
        &self.keys[self.key_start + base..self.key_start + base + WAYS]
    }

    /// The index in `entries` of slot `slot`.
    #[inline]
    fn entry_index(&self, slot: usize) -> usize {
        self.entry_start + slot
    }

    /// Starts loading the cluster of `key` into the cache, keys and entries, so that the
    /// look-ups of a node's children overlap their memory latencies.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let base = self.base(key);
        // The keys, and the entries too, all of them (which one a probe reads is known only
        // from the keys): a hit's entry is otherwise a second miss after the keys', and a
        // store reads every entry of the cluster to choose what to replace.
        prefetch_lines(self.cluster_keys(base));
        let e = self.entry_index(base);
        prefetch_lines(&self.entries[e..e + WAYS]);
    }

    /// A consistent snapshot of slot `slot` when it holds `key` in this search's generation
    /// (see the module docs): `None` when it holds another key, an older generation, or is
    /// being written.
    #[inline]
    fn snapshot(&self, slot: usize, key: u64) -> Option<Entry> {
        let e = &self.entries[self.entry_index(slot)];
        let version = e[GENERATION].load(Ordering::Acquire);
        if version & LOCKED != 0 || version & GENERATION_MASK != self.generation() {
            return None;
        }
        let mut words = [0u32; 6];
        for (w, a) in words.iter_mut().zip(e.iter()).take(GENERATION) {
            *w = a.load(Ordering::Relaxed);
        }
        let k = self.keys[self.key_start + slot].load(Ordering::Relaxed);
        fence(Ordering::Acquire);
        if e[GENERATION].load(Ordering::Relaxed) != version || k != key {
            return None;
        }
        words[GENERATION] = version;
        Some(words)
    }

    /// Writes `key` and `new` into slot `slot` under its lock; nothing when another thread
    /// holds the lock. `new`'s version word gives the generation (0: the slot is emptied).
    fn write(&self, slot: usize, key: u64, new: &Entry) {
        let e = &self.entries[self.entry_index(slot)];
        let version = e[GENERATION].load(Ordering::Relaxed);
        if version & LOCKED != 0
            || e[GENERATION]
                .compare_exchange(
                    version,
                    version | LOCKED,
                    Ordering::Acquire,
                    Ordering::Relaxed,
                )
                .is_err()
        {
            return;
        }
        fence(Ordering::Release);
        self.keys[self.key_start + slot].store(key, Ordering::Relaxed);
        for (a, &w) in e.iter().zip(new.iter()).take(GENERATION) {
            a.store(w, Ordering::Relaxed);
        }
        let count = (version & !(GENERATION_MASK | LOCKED)).wrapping_add(VERSION_STEP);
        e[GENERATION].store(
            count | (new[GENERATION] & GENERATION_MASK),
            Ordering::Release,
        );
    }

    /// Empties slot `slot` (under its lock, like [`Table::write`]), when it still holds
    /// `key` as snapshot `old`.
    fn clear(&self, slot: usize, key: u64, old: &Entry) {
        let mut empty = *old;
        empty[GENERATION] = 0;
        if self.snapshot(slot, key) == Some(*old) {
            self.write(slot, key, &empty);
        }
    }

    /// Looks up the board `key` with the attacker's `hand`, for a search that allows at most
    /// `budget` more plies: a proof applies if it is no longer than that, a disproof if it
    /// holds for at least that many plies.
    pub fn probe(&self, key: u64, hand: Hand, budget: Plies) -> Probe {
        // Entries hold lengths as 16 bits with no limit as the largest, so comparing the raw
        // numbers orders them as `Plies` does.
        let budget = budget.to_raw();
        let base = self.base(key);
        let keys = self.cluster_keys(base);
        let mut exact: Option<Entry> = None;
        // Among proofs that apply, the shortest: mate lengths then only shrink as proofs are
        // added, which keeps the lengths along a walked line decreasing.
        let mut proof: Option<Entry> = None;
        let mut too_long: Option<Entry> = None;
        let mut other_budget: Option<Entry> = None;
        let mut matches = key_matches(keys, key);
        while matches != 0 {
            let i = matches.trailing_zeros() as usize;
            matches &= matches - 1;
            let Some(e) = self.snapshot(base + i, key) else {
                continue;
            };
            let e = &e;
            let eh = hand_of(e);
            if e[PN] == 0 {
                let applies = if self.exact_proofs {
                    eh == hand
                } else {
                    hand.covers(eh)
                };
                if applies {
                    if len_of(e) > budget {
                        if too_long.is_none_or(|p| len_of(e) < len_of(&p)) {
                            too_long = Some(*e);
                        }
                    } else if proof.is_none_or(|p| len_of(e) < len_of(&p)) {
                        proof = Some(*e);
                    }
                }
            } else if e[DN] == 0 {
                if len_of(e) >= budget && eh.covers(hand) {
                    return to_probe(e, eh);
                }
            } else if eh == hand {
                // An open node's numbers were searched with some budget: for a larger one,
                // a node near that search's horizon looks far harder than it is (after a
                // search within 11 plies, one within 65 could not find the mate in 65 a
                // search had found in 5 nodes), so they serve only as good or smaller
                // budgets (a mate within fewer plies is no easier to find). Its best move
                // still helps.
                if len_of(e) >= budget {
                    exact = Some(*e);
                } else {
                    other_budget = Some(*e);
                }
            }
        }
        if let Some(e) = proof {
            return to_probe(&e, hand_of(&e));
        }
        if let Some(e) = exact {
            return to_probe(&e, hand);
        }
        // A proof too long for the budget still says the node is mated and by which move:
        // the node is known, with the smallest numbers.
        if let Some(e) = too_long {
            return Probe {
                pn: 1,
                dn: 1,
                hand,
                len: Plies::ZERO,
                best: best_of(&e),
                found: true,
            };
        }
        Probe {
            pn: 1,
            dn: 1,
            hand,
            len: Plies::ZERO,
            best: other_budget.and_then(|e| best_of(&e)),
            found: false,
        }
    }

    /// Stores a result. `hand` is the proof hand for a proof, the disproof hand for a
    /// disproof, otherwise the hand searched; `len` is the mate length of a proof, the
    /// number of plies a disproof holds for (no limit: no mate at all), and the budget an
    /// open node was searched with.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        hand: Hand,
        pn: PnDn,
        dn: PnDn,
        len: Plies,
        best: Option<Move>,
        work: u64,
    ) {
        let len = len.to_raw();
        let generation = self.generation();
        let base = self.base(key);
        let new: Entry = [
            hand.raw(),
            pn,
            dn,
            work.min(u32::MAX as u64) as u32,
            len as u32 | (best.map_or(0, |m| m.raw()) as u32) << 16,
            generation,
        ];
        let class = |e: &Entry| (e[PN] == 0) as u8 | ((e[DN] == 0) as u8) << 1;
        let new_class = class(&new);
        let mut victim = None;
        let mut matches = key_matches(self.cluster_keys(base), key);
        while matches != 0 {
            let i = matches.trailing_zeros() as usize;
            matches &= matches - 1;
            let Some(old) = self.snapshot(base + i, key) else {
                continue;
            };
            let e = &old;
            let eh = hand_of(e);
            let old_len = len_of(e);
            // Same hand and same kind of entry: keep the better of the two.
            if e[HAND] == new[HAND] && class(e) == new_class {
                let keep_old = match new_class {
                    1 => old_len <= len,
                    2 => old_len >= len,
                    _ => false,
                };
                if !keep_old {
                    let mut new = new;
                    new[WORK] = e[WORK].max(new[WORK]);
                    self.write(base + i, key, &new);
                }
                return;
            }
            // Drop whatever the other answers make useless: an unsolved entry a new proof or
            // disproof answers, and among proofs (disproofs) the one that needs more (allows
            // less) without being shorter (holding longer).
            // A proof answers only its own hand in a table of exact proofs.
            let proof_covers = |larger: Hand, smaller: Hand| {
                if self.exact_proofs {
                    larger == smaller
                } else {
                    larger.covers(smaller)
                }
            };
            let dominated_old = match (e[PN] == 0, e[DN] == 0) {
                (true, _) => pn == 0 && proof_covers(eh, hand) && len <= old_len,
                (_, true) => dn == 0 && hand.covers(eh) && len >= old_len,
                // An open node of a budget the new proof (disproof) does not answer stays.
                _ => {
                    (pn == 0 && proof_covers(eh, hand) && len <= old_len)
                        || (dn == 0 && hand.covers(eh) && len >= old_len)
                }
            };
            let dominated_new = (e[PN] == 0 && pn == 0 && proof_covers(hand, eh) && old_len <= len)
                || (e[DN] == 0 && dn == 0 && eh.covers(hand) && old_len >= len);
            if dominated_new {
                return;
            }
            if dominated_old {
                self.clear(base + i, key, e);
                victim.get_or_insert(i);
            }
        }
        let slot = match victim {
            Some(i) => i,
            None => {
                // Empty or stale first, then the least work, keeping solved entries longest.
                let mut best_i = 0;
                let mut best_score = u64::MAX;
                for i in 0..WAYS {
                    // Plain loads: a torn read only makes a worse choice of victim.
                    let e = &self.entries[self.entry_index(base + i)];
                    let e: Entry = std::array::from_fn(|w| e[w].load(Ordering::Relaxed));
                    let score = if generation_of(&e) != generation {
                        0
                    } else {
                        e[WORK] as u64 + 1 + if solved(&e) { 1 << 32 } else { 0 }
                    };
                    if score < best_score {
                        best_score = score;
                        best_i = i;
                    }
                }
                best_i
            }
        };
        self.write(base + slot, key, &new);
    }

    /// Fraction of entries in use by this search, estimated from the first clusters.
    pub fn fill(&self) -> f64 {
        let sample = self.entries.len().min(FILL_SAMPLE);
        let used = self.entries[..sample]
            .iter()
            .filter(|e| {
                e[GENERATION].load(Ordering::Relaxed) & GENERATION_MASK == self.generation()
            })
            .count();
        used as f64 / sample.max(1) as f64
    }
}

fn to_probe(e: &Entry, hand: Hand) -> Probe {
    Probe {
        pn: e[PN],
        dn: e[DN],
        hand,
        len: Plies::from_raw(len_of(e)),
        best: best_of(e),
        found: true,
    }
}

/// The best move an entry records, if any.
fn best_of(e: &Entry) -> Option<Move> {
    Move::from_raw((e[LEN_BEST] >> 16) as u16)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::solver::plies::Plies;
    fn plies(n: u16) -> Plies {
        Plies::new(n)
    }
    use crate::solver::pn::{DISPROVEN, PROVEN};
    use crate::types::PieceKind;

    fn hand(p: u8, g: u8) -> Hand {
        Hand::EMPTY
            .with_count(PieceKind::Pawn, p)
            .unwrap()
            .with_count(PieceKind::Gold, g)
            .unwrap()
    }

    #[test]
    fn superiority_and_inferiority() {
        let t = Table::new(1);
        t.new_search();
        let (pn, dn) = PROVEN;
        t.store(42, hand(1, 0), pn, dn, plies(7), None, 10);
        assert_eq!(t.probe(42, hand(1, 0), Plies::Unlimited).pn, 0);
        assert_eq!(
            t.probe(42, hand(2, 1), Plies::Unlimited).pn,
            0,
            "more pieces: still proven"
        );
        assert!(
            !t.probe(42, hand(0, 1), Plies::Unlimited).found,
            "fewer pawns: unknown"
        );
        assert_eq!(t.probe(42, hand(2, 1), Plies::Unlimited).len, plies(7));
        let (pn, dn) = DISPROVEN;
        t.store(43, hand(1, 1), pn, dn, Plies::Unlimited, None, 10);
        assert_eq!(
            t.probe(43, hand(0, 1), Plies::Unlimited).dn,
            0,
            "fewer pieces: still disproven"
        );
        assert!(!t.probe(43, hand(2, 1), Plies::Unlimited).found);
        assert!(
            !t.probe(44, hand(0, 0), Plies::Unlimited).found,
            "other key"
        );
    }

    #[test]
    fn exact_proofs_answer_only_their_own_hand() {
        let mut t = Table::new(1);
        t.set_exact_proofs(true);
        t.new_search();
        let (pn, dn) = PROVEN;
        t.store(42, hand(1, 0), pn, dn, plies(7), None, 10);
        assert_eq!(t.probe(42, hand(1, 0), Plies::Unlimited).pn, 0);
        assert!(
            !t.probe(42, hand(2, 1), Plies::Unlimited).found,
            "more pieces: not taken from this proof"
        );
        // A proof for another hand neither drops nor is dropped by this one.
        t.store(42, hand(2, 1), pn, dn, plies(9), None, 10);
        assert_eq!(t.probe(42, hand(1, 0), Plies::Unlimited).len, plies(7));
        assert_eq!(t.probe(42, hand(2, 1), Plies::Unlimited).len, plies(9));
        // Disproofs still serve smaller hands.
        let (pn, dn) = DISPROVEN;
        t.store(43, hand(2, 1), pn, dn, Plies::Unlimited, None, 10);
        assert_eq!(t.probe(43, hand(1, 0), Plies::Unlimited).dn, 0);
    }

    #[test]
    fn budgets() {
        let t = Table::new(1);
        t.new_search();
        let mv = Move::from_usi("G*5b").unwrap();
        let (pn, dn) = PROVEN;
        t.store(42, hand(1, 0), pn, dn, plies(9), Some(mv), 10);
        assert_eq!(
            t.probe(42, hand(1, 0), plies(9)).pn,
            0,
            "a mate in 9 is within 9"
        );
        let p = t.probe(42, hand(1, 0), plies(7));
        assert!(p.pn != 0 && p.found, "too long for 7, but known");
        assert_eq!(p.best, Some(mv), "with its move");
        // A shorter proof with the same hand replaces the longer one.
        t.store(42, hand(1, 0), pn, dn, plies(5), Some(mv), 10);
        assert_eq!(t.probe(42, hand(1, 0), plies(7)).len, plies(5));
        // A disproof holds for the plies it was searched with, and fewer.
        let (pn, dn) = DISPROVEN;
        t.store(43, hand(1, 1), pn, dn, plies(11), None, 10);
        assert_eq!(t.probe(43, hand(1, 1), plies(11)).dn, 0);
        assert_eq!(
            t.probe(43, hand(0, 1), plies(3)).dn,
            0,
            "fewer plies, fewer pieces"
        );
        assert!(
            !t.probe(43, hand(1, 1), plies(13)).found,
            "not for more plies"
        );
        assert!(!t.probe(43, hand(1, 1), Plies::Unlimited).found);
        // A deeper disproof replaces it; a proof of the same hand lives beside it.
        t.store(43, hand(1, 1), pn, dn, plies(15), None, 10);
        assert_eq!(t.probe(43, hand(1, 1), plies(13)).dn, 0);
        let (pn, dn) = PROVEN;
        t.store(43, hand(1, 1), pn, dn, plies(17), None, 10);
        assert_eq!(t.probe(43, hand(1, 1), plies(15)).dn, 0);
        assert_eq!(t.probe(43, hand(1, 1), plies(17)).pn, 0);
    }

    /// An open node's numbers serve searches with the budget they were searched with or a
    /// smaller one; for a larger budget only its best move is given.
    #[test]
    fn open_entries_keep_their_budget() {
        let t = Table::new(1);
        let mv = Move::from_raw(0x0a12);
        assert!(mv.is_some());
        t.store(42, hand(0, 0), 3, 4, plies(9), mv, 1);
        for b in [plies(9), plies(7)] {
            let p = t.probe(42, hand(0, 0), b);
            assert!(p.found && p.pn == 3 && p.dn == 4);
        }
        for b in [plies(11), Plies::Unlimited] {
            let p = t.probe(42, hand(0, 0), b);
            assert!(!p.found && p.pn == 1 && p.dn == 1);
            assert_eq!(p.best, mv);
        }
    }

    #[test]
    fn prefault_keeps_what_the_table_holds() {
        let mut t = Table::new(1);
        t.new_search();
        let (pn, dn) = PROVEN;
        t.store(42, hand(1, 0), pn, dn, plies(7), None, 10);
        t.prefault();
        let p = t.probe(42, hand(1, 0), Plies::Unlimited);
        assert!(p.found && p.pn == 0 && p.len == plies(7));
    }

    /// The `VmFlags` of the mapping that holds `addr`, from `/proc/self/smaps`.
    #[cfg(target_os = "linux")]
    fn vm_flags(addr: usize) -> Option<String> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut inside = false;
        for line in smaps.lines() {
            let first = line.split_whitespace().next().unwrap_or("");
            if let Some((from, to)) = first.split_once('-')
                && let (Ok(from), Ok(to)) = (
                    usize::from_str_radix(from, 16),
                    usize::from_str_radix(to, 16),
                )
            {
                inside = (from..to).contains(&addr);
            } else if inside && let Some(flags) = line.strip_prefix("VmFlags:") {
                return Some(flags.trim().to_string());
            }
        }
        None
    }

    /// Whether the mappings of `t`'s keys and entries are both marked for huge pages (`hg`),
    /// or `None` on a kernel without transparent huge pages (the advice does not exist
    /// there). A table that was not told may be marked too: the allocator can hand out
    /// memory that an earlier table was advised on.
    #[cfg(target_os = "linux")]
    pub(crate) fn asks_huge_pages(t: &Table) -> Option<bool> {
        if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists() {
            return None;
        }
        let marked = |addr: usize| {
            let flags = vm_flags(addr).expect("the table's mapping is in /proc/self/smaps");
            flags.split_whitespace().any(|f| f == "hg")
        };
        let keys = marked(t.keys[t.keys.len() / 2].as_ptr() as usize);
        let entries = marked(t.entries[t.entries.len() / 2].as_ptr() as usize);
        Some(keys && entries)
    }

    /// A table asks for huge pages when told to (before a search with threads, or by
    /// `prefault`): see `Table::ask_huge_pages`.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_table_asks_for_huge_pages_when_told() {
        let t = Table::new(64);
        if asks_huge_pages(&t).is_none() {
            return;
        }
        t.ask_huge_pages();
        assert_eq!(asks_huge_pages(&t), Some(true));
        let mut t = Table::new(64);
        t.prefault();
        assert_eq!(asks_huge_pages(&t), Some(true));
    }

    #[test]
    fn new_search_forgets() {
        let t = Table::new(1);
        t.store(42, hand(0, 0), 3, 4, Plies::Unlimited, None, 1);
        assert!(t.probe(42, hand(0, 0), Plies::Unlimited).found);
        t.new_search();
        assert!(!t.probe(42, hand(0, 0), Plies::Unlimited).found);
    }

    #[test]
    fn clusters_start_on_cache_lines() {
        for addr in (0..64).step_by(8) {
            for size in [8, std::mem::size_of::<Slot>()] {
                let i = aligned_start(addr, size);
                assert!(i < WAYS);
                assert_eq!((addr + i * size) % 64, 0, "addr {addr}, size {size}");
            }
        }
        let t = Table::new(1);
        for key in [0u64, 42, u64::MAX / 3, u64::MAX] {
            let base = t.base(key);
            assert_eq!(t.cluster_keys(base).as_ptr() as usize % 64, 0);
            let e = &t.entries[t.entry_index(base)..t.entry_index(base) + WAYS];
            assert_eq!(e.as_ptr() as usize % 64, 0);
        }
    }

    #[test]
    fn never_grows_and_replaces() {
        let t = Table::new(1);
        let size = t.size_bytes();
        // The size asked for, and the room for aligning the clusters to cache lines.
        assert!(size <= (1 << 20) + (WAYS - 1) * (8 + std::mem::size_of::<Slot>()));
        for k in 0..200_000u64 {
            t.store(
                k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                hand(0, 0),
                2,
                2,
                plies(0),
                None,
                k,
            );
        }
        assert_eq!(t.size_bytes(), size);
        assert!(t.fill() > 0.9);
    }
}
