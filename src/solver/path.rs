//! The current search path: the positions on it (a repetition never mates), the
//! path-dependent results (disproofs that rest on a repetition, proofs that rest on path
//! positions), and the checker's exclusions.

use super::plies::Plies;
use super::pn::NOT_ON_PATH;
use crate::hand::Hand;
use crate::zobrist::KeyMap;
use smallvec::SmallVec;

/// Most repetition-based disproofs kept; the table is cleared when full (they are cheap to
/// find again, and an unbounded map would grow with long searches).
const REP_TABLE_MAX: usize = 1 << 20;

/// Bytes one entry of the repetition table may take at most: 17 per bucket of the hash map,
/// whose bucket count is a power of two at least 8/7 of the entries (up to 39 bytes an
/// entry), and half as much again while it grows (the old buckets are freed after the move).
const REP_ENTRY_BYTES: usize = 60;

/// The entries the repetition table may hold beside a transposition table of `table_bytes`:
/// at most a sixteenth of that memory (at least 4096 entries, at most [`REP_TABLE_MAX`]), so
/// that [`SolverConfig::hash_mib`](super::SolverConfig::hash_mib) bounds it too. Clearing it
/// only loses path-dependent results, which are searched again.
pub(crate) fn rep_table_max(table_bytes: usize) -> usize {
    (table_bytes / 16 / REP_ENTRY_BYTES).clamp(4096, REP_TABLE_MAX)
}

/// Slots of the filters in front of the path's set and the repetition table: most look-ups
/// are of positions in neither, and a filter answers those without hashing.
const FILTER_SLOTS: usize = 1 << 12;

/// The filter slot of a key (its top bits: keys are uniformly random).
#[inline]
fn slot(k: u64) -> usize {
    (k >> (64 - 12)) as usize
}

/// Spreads a full key over 64 bits, so that the path hash (a XOR of mixed keys) does not
/// cancel out for related keys.
#[inline]
fn mix(k: u64) -> u64 {
    let k = (k ^ (k >> 31)).wrapping_mul(0x7fb5_d329_728e_a185);
    k ^ (k >> 27)
}

/// The length of the longest common prefix of `a` and `b`. Blocks are compared as slices
/// (a vectorised compare) before the first differing one is searched key by key: the
/// line walk sets paths of hundreds of keys hundreds of thousands of times, and a
/// key-by-key loop over them was 8 % of a long problem's time (橋本587, in `perf`).
fn common_prefix(a: &[u64], b: &[u64]) -> usize {
    const BLOCK: usize = 32;
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + BLOCK <= n && a[i..i + BLOCK] == b[i..i + BLOCK] {
        i += BLOCK;
    }
    i + a[i..n]
        .iter()
        .zip(&b[i..n])
        .take_while(|(x, y)| x == y)
        .count()
}

/// A result that holds on one path only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PathResult {
    /// The disproof hand, or the proof hand.
    pub hand: Hand,
    /// The plies a disproof holds for, or the proof's mate length.
    pub len: Plies,
    /// For a proof, the ply of the path position it rests on; `None` for a disproof.
    pub proof_rests_on: Option<u32>,
    /// For a proof, the plies of the path positions it rests on, modulo 64
    /// ([`Value::rests_plies`](super::pn::Value::rests_plies)).
    pub proof_rests_plies: u64,
    /// For a disproof, the ply of the shallowest path position it rests on
    /// ([`Value::rep`](super::pn::Value::rep)).
    pub disproof_rests_on: u32,
    /// For a disproof, the ply of the shallowest node it rests on through an inferior
    /// repetition ([`Value::inf`](super::pn::Value::inf)).
    pub disproof_inferior: u32,
}

/// A proof that rests on path positions, kept by those positions' keys: it holds wherever
/// they are on the path ([`PathProofs`]).
#[derive(Clone, Debug)]
struct NeedsPath {
    /// The full keys of the path positions it rests on (and maybe a few others: see
    /// [`Value::rests_plies`](super::pn::Value::rests_plies)).
    keys: SmallVec<[u64; 4]>,
    /// The ply of its node, for a search whose table is keyed by ply (it holds at that ply).
    ply: u32,
    hand: Hand,
    len: Plies,
}

/// Most [`NeedsPath`] proofs kept for one position; a new one replaces the oldest.
const NEEDS_PER_POSITION: usize = 4;

/// Most path positions a [`NeedsPath`] proof names; one that names more is kept by the whole
/// path.
const NEEDS_MAX_KEYS: usize = 32;

/// The positions on the current path and what depends on them.
pub(crate) struct Path {
    /// Full keys (board and hands) of the positions on the current path, with their plies.
    keys: KeyMap<u64, u32>,
    /// Order-independent hash of the current path, including the current node.
    hash: u64,
    /// Results that hold on one path only, keyed by position and path: disproofs that rest
    /// on a repetition and proofs that rest on a path position (the saw rule).
    reps: KeyMap<u64, PathResult>,
    /// Positions (full keys) treated as not mated when reached later than at the ply they
    /// map to: the uniqueness checker's search for a second solution that does not merely
    /// come back to the main line.
    excluded: Option<KeyMap<u64, u32>>,
    /// `by_ply[i]`: the full key of the path position at ply `i` (0: none at that ply; a
    /// capture position is searched two plies below its node).
    by_ply: Vec<u64>,
    /// The length of `by_ply` before each position on the path was entered.
    by_ply_before: Vec<usize>,
    /// The entries `reps` may hold before it is cleared ([`rep_table_max`]).
    reps_max: usize,
    /// How many keys of the path fall in each filter slot: none, and the key is not on it.
    on_path: Box<[u32; FILTER_SLOTS]>,
    /// Whether some key of `reps` falls in each filter slot (cleared with it).
    in_reps: Box<[bool; FILTER_SLOTS]>,
    /// The nodes of the search on the path ([`Path::enter_node`]) by board key (side to move
    /// included): the attacker's hand and the ply of each, for [`Path::inferior_ply`].
    boards: KeyMap<u64, SmallVec<[(Hand, u32); 2]>>,
    /// How many entries of `boards` fall in each filter slot.
    on_path_board: Box<[u32; FILTER_SLOTS]>,
    /// The keys of the last [`Path::set`], and how many entries of `keys` they made.
    base: Vec<u64>,
    base_entered: usize,
}

impl Path {
    /// An empty path, for a search beside a transposition table of `table_bytes`.
    pub fn new(table_bytes: usize) -> Path {
        Path {
            keys: KeyMap::default(),
            hash: 0,
            reps: KeyMap::default(),
            excluded: None,
            by_ply: Vec::new(),
            by_ply_before: Vec::new(),
            reps_max: rep_table_max(table_bytes),
            on_path: Box::new([0; FILTER_SLOTS]),
            in_reps: Box::new([false; FILTER_SLOTS]),
            boards: KeyMap::default(),
            on_path_board: Box::new([0; FILTER_SLOTS]),
            base: Vec::new(),
            base_entered: 0,
        }
    }

    /// A node with full key `full` is entered at ply `ply`.
    #[inline]
    pub fn enter(&mut self, full: u64, ply: u32) {
        if let std::collections::hash_map::Entry::Vacant(e) = self.keys.entry(full) {
            e.insert(ply);
            self.on_path[slot(full)] += 1;
        }
        self.hash ^= mix(full);
        self.by_ply_before.push(self.by_ply.len());
        self.by_ply.resize(ply as usize, 0);
        self.by_ply.push(full);
    }

    /// The node with full key `full` is left.
    #[inline]
    fn leave(&mut self, full: u64) {
        if self.keys.remove(&full).is_some() {
            self.on_path[slot(full)] -= 1;
        }
        self.hash ^= mix(full);
        if let Some(n) = self.by_ply_before.pop() {
            self.by_ply.truncate(n);
        }
    }

    /// A node of the search (full key `full`, board key `board`, the attacker's `hand`) is
    /// entered at ply `ply`: a repetition of it, exact or inferior, is now found.
    #[inline]
    pub fn enter_node(&mut self, full: u64, board: u64, hand: Hand, ply: u32) {
        self.enter(full, ply);
        self.boards.entry(board).or_default().push((hand, ply));
        self.on_path_board[slot(board)] += 1;
    }

    /// The node of [`Path::enter_node`] is left.
    #[inline]
    pub fn leave_node(&mut self, full: u64, board: u64) {
        self.leave(full);
        if let Some(v) = self.boards.get_mut(&board) {
            v.pop();
            self.on_path_board[slot(board)] -= 1;
            if v.is_empty() {
                self.boards.remove(&board);
            }
        }
    }

    /// The ply of the shallowest node of the search on the path with the same board (and
    /// side to move) as a position where the attacker holds `hand`, and at least as much
    /// in hand there (so the defender no more): reaching that board again with this hand
    /// is no better for the attacker than a repetition (see `Search::lookup_keys`).
    #[inline]
    pub fn inferior_ply(&self, board: u64, hand: Hand) -> Option<u32> {
        if self.on_path_board[slot(board)] == 0 {
            return None;
        }
        self.boards
            .get(&board)?
            .iter()
            .filter(|(h, _)| h.covers(hand))
            .map(|&(_, ply)| ply)
            .min()
    }

    /// Replaces the path (used when re-searching from inside a line).
    pub fn set(&mut self, keys: &[u64]) {
        // The line walk, the tightening and the checker set paths thousands of times, most
        // of them the last one with a few keys more or less at its end (hundreds of keys on
        // a long problem): only what differs is changed, when nothing but the last path is
        // on it (every search leaves the nodes it enters).
        let common = if self.keys.len() == self.base_entered && self.boards.is_empty() {
            common_prefix(&self.base, keys)
        } else {
            self.clear();
            0
        };
        for ply in (common..self.base.len()).rev() {
            let k = self.base[ply];
            if self.keys.get(&k) == Some(&(ply as u32)) {
                self.keys.remove(&k);
                self.on_path[slot(k)] -= 1;
            }
            self.hash ^= mix(k);
        }
        self.base.truncate(common);
        self.by_ply.truncate(common);
        self.by_ply_before.truncate(common);
        for (ply, &k) in keys.iter().enumerate().skip(common) {
            self.enter(k, ply as u32);
            self.base.push(k);
        }
        self.base_entered = self.keys.len();
    }

    /// Empties the path (the old keys' slots only, not the whole filter).
    fn clear(&mut self) {
        for (k, _) in self.keys.drain() {
            self.on_path[slot(k)] -= 1;
        }
        for (b, v) in self.boards.drain() {
            self.on_path_board[slot(b)] -= v.len() as u32;
        }
        self.hash = 0;
        self.by_ply.clear();
        self.by_ply_before.clear();
        self.base.clear();
    }

    /// Whether the position with full key `full` is on the path (reaching it repeats).
    #[cfg(test)]
    pub fn contains(&self, full: u64) -> bool {
        self.ply_of(full).is_some()
    }

    /// The ply of the position with full key `full` if it is on the path.
    #[inline]
    pub fn ply_of(&self, full: u64) -> Option<u32> {
        if self.on_path[slot(full)] == 0 {
            return None;
        }
        self.keys.get(&full).copied()
    }

    /// See [`Search::exclude`](super::search::Search::exclude).
    pub fn exclude(&mut self, keys: KeyMap<u64, u32>) {
        self.excluded = Some(keys);
    }

    /// The positions excluded ([`Path::exclude`]), if any.
    pub fn exclusions(&self) -> Option<&KeyMap<u64, u32>> {
        self.excluded.as_ref()
    }

    /// The keys of the path last set ([`Path::set`]): the positions before the search's root.
    pub fn base_keys(&self) -> &[u64] {
        &self.base
    }

    /// Whether the position with full key `full`, reached at `ply`, is excluded.
    #[inline]
    pub fn is_excluded(&self, full: u64, ply: u32) -> bool {
        self.excluded
            .as_ref()
            .is_some_and(|e| e.get(&full).is_some_and(|&at| ply > at))
    }

    /// Records a result of the current node (full key `full`, on the path) that holds for
    /// this node on this path only: a disproof that rests on a repetition, or a proof that
    /// rests on a path position that [`PathProofs`] does not keep.
    pub fn record_on_path(&mut self, full: u64, result: PathResult) {
        if self.reps.len() >= self.reps_max {
            self.reps.clear();
            self.in_reps.fill(false);
        }
        // The path hash includes this node; the key uses its ancestors only.
        let key = full ^ self.hash ^ mix(full);
        self.in_reps[slot(key)] = true;
        self.reps.insert(key, result);
    }

    /// The keys of the path positions at plies from `at` to below `ply` whose plies modulo
    /// 64 are in `plies` ([`Value::rests_plies`](super::pn::Value::rests_plies)): those a
    /// proof found at ply `ply` rests on, and maybe a few more. `None` if there are none or
    /// more than [`NEEDS_MAX_KEYS`].
    pub fn keys_named(&self, at: u32, plies: u64, ply: u32) -> Option<SmallVec<[u64; 4]>> {
        let keys: SmallVec<[u64; 4]> = (at..ply.min(self.by_ply.len() as u32))
            .filter(|p| plies & (1 << (p % 64)) != 0)
            .map(|p| self.by_ply[p as usize])
            .filter(|&k| k != 0)
            .take(NEEDS_MAX_KEYS + 1)
            .collect();
        (!keys.is_empty() && keys.len() <= NEEDS_MAX_KEYS).then_some(keys)
    }

    /// The path-dependent result recorded for the child with full key `full` of the current
    /// node, on this path.
    ///
    /// A disproof that rests on an inferior repetition of a node ([`Path::inferior_ply`])
    /// holds for that node's smallest mate: the positions between may well be mated. So it
    /// is used only while that node is one of the current search's own; for a search from
    /// further down the same path (the checker's questions, the line walk), where the node
    /// comes before the root, it is not. (The inferior rule is never applied to positions
    /// before the root: reaching one of those again is a repetition only when exact, and a
    /// disproof that rests on exact repetitions holds for every search on the path.)
    #[inline]
    pub fn on_path_result(&self, full: u64) -> Option<PathResult> {
        let key = full ^ self.hash;
        if !self.in_reps[slot(key)] {
            return None;
        }
        let r = self.reps.get(&key).copied()?;
        let root = self.base.len() as u32;
        if r.proof_rests_on.is_none() && r.disproof_inferior < root {
            return None;
        }
        Some(r)
    }
}

/// Proofs that rest on path positions (the capture positions of repeated interpositions they
/// leave out, the saw rule of `futile.rs`), kept by those positions' keys and shared by the
/// threads that search on one table (it holds them beside its entries).
///
/// Such a proof holds wherever those positions are on the path, whatever else is: it is a
/// mate, every line of it ends in checkmate within its length, and what it leaves out is
/// left out because those positions are on the path. So it is found again below any path
/// that has them: on a long king walk under a saw the same proofs are reached by a great many
/// routes that differ only below those positions, and by every thread. (For a table keyed by
/// ply, only at the ply it was found at.) A proof that names more than [`NEEDS_MAX_KEYS`]
/// positions is kept by its thread's [`Path`] under the whole path instead.
pub(crate) struct PathProofs {
    /// The proofs by their node's full key, in shards by the key's top bits.
    shards: Box<[std::sync::Mutex<ProofShard>]>,
    /// Whether some node's key falls in each filter slot (cleared with the shards).
    filter: Box<[std::sync::atomic::AtomicBool]>,
    /// Positions held (about: each thread adds its own), and the most before all is cleared.
    len: std::sync::atomic::AtomicUsize,
    max: usize,
}

/// One shard of [`PathProofs`]: the proofs kept for each node's full key.
type ProofShard = KeyMap<u64, SmallVec<[NeedsPath; NEEDS_PER_POSITION]>>;

/// Shards of [`PathProofs`]: enough that the threads seldom wait on one another.
const PROOF_SHARDS: usize = 64;

impl PathProofs {
    /// Room beside a transposition table of `table_bytes` ([`rep_table_max`]).
    pub fn new(table_bytes: usize) -> PathProofs {
        PathProofs {
            shards: (0..PROOF_SHARDS).map(|_| Default::default()).collect(),
            filter: (0..FILTER_SLOTS).map(|_| Default::default()).collect(),
            len: Default::default(),
            max: rep_table_max(table_bytes),
        }
    }

    #[inline]
    fn shard(&self, full: u64) -> &std::sync::Mutex<ProofShard> {
        &self.shards[(full >> 58) as usize % PROOF_SHARDS]
    }

    /// Forgets every proof: a new search on the table.
    pub fn clear(&self) {
        use std::sync::atomic::Ordering::Relaxed;
        for s in self.shards.iter() {
            s.lock().unwrap_or_else(|e| e.into_inner()).clear();
        }
        for f in self.filter.iter() {
            f.store(false, Relaxed);
        }
        self.len.store(0, Relaxed);
    }

    /// Keeps the proof (`hand`, `len`) of the node with full key `full`, found at ply `ply`,
    /// that rests on the path positions with keys `keys` ([`Path::keys_named`]).
    pub fn insert(&self, full: u64, keys: SmallVec<[u64; 4]>, ply: u32, hand: Hand, len: Plies) {
        use std::sync::atomic::Ordering::Relaxed;
        if self.len.load(Relaxed) >= self.max {
            self.clear();
        }
        let mut shard = self.shard(full).lock().unwrap_or_else(|e| e.into_inner());
        let kept = match shard.entry(full) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                self.len.fetch_add(1, Relaxed);
                e.insert(SmallVec::new())
            }
        };
        kept.retain(|n| n.keys != keys || n.ply != ply);
        if kept.len() == NEEDS_PER_POSITION {
            kept.remove(0);
        }
        kept.push(NeedsPath {
            keys,
            ply,
            hand,
            len,
        });
        self.filter[slot(full)].store(true, Relaxed);
    }

    /// A proof kept for the position with full key `full`, reached at ply `ply`, whose
    /// positions are all on the current path (`ply_of` gives their plies there) above it,
    /// that `usable` accepts; the newest first. With `ply_keyed`, only one found at `ply`.
    #[inline]
    pub fn find(
        &self,
        full: u64,
        ply: u32,
        ply_keyed: bool,
        ply_of: impl Fn(u64) -> Option<u32>,
        usable: impl Fn(&PathResult) -> bool,
    ) -> Option<PathResult> {
        if !self.filter[slot(full)].load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        let shard = self.shard(full).lock().unwrap_or_else(|e| e.into_inner());
        shard.get(&full)?.iter().rev().find_map(|n| {
            if ply_keyed && n.ply != ply {
                return None;
            }
            let (mut at, mut plies) = (NOT_ON_PATH, 0u64);
            for &k in &n.keys {
                let p = ply_of(k).filter(|&p| p < ply)?;
                at = at.min(p);
                plies |= 1 << (p % 64);
            }
            let r = PathResult {
                hand: n.hand,
                len: n.len,
                proof_rests_on: Some(at),
                proof_rests_plies: plies,
                disproof_rests_on: NOT_ON_PATH,
                disproof_inferior: NOT_ON_PATH,
            };
            usable(&r).then_some(r)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entering_and_leaving_restores_the_hash() {
        let mut p = Path::new(1 << 20);
        p.enter(1, 0);
        let h1 = p.hash;
        p.enter(2, 1);
        p.enter(3, 2);
        assert!(p.contains(2) && p.contains(3));
        p.leave(3);
        p.leave(2);
        assert_eq!(p.hash, h1);
        assert!(!p.contains(2));
        let mut q = Path::new(1 << 20);
        q.set(&[1]);
        assert_eq!(q.hash, h1, "set gives the same hash as entering");
    }

    #[test]
    fn the_filter_counts_keys_that_share_a_slot() {
        let mut p = Path::new(1 << 20);
        let (a, b) = (5u64 << 52, (5u64 << 52) + 1);
        assert_eq!(slot(a), slot(b));
        p.enter(a, 0);
        p.enter(b, 1);
        p.leave(a);
        assert!(p.contains(b) && !p.contains(a));
        p.leave(b);
        assert!(!p.contains(b));
        assert_eq!(p.on_path[slot(a)], 0);
        p.set(&[a, b]);
        p.set(&[b]);
        assert!(p.contains(b) && !p.contains(a));
        assert_eq!(p.on_path[slot(a)], 1, "set clears the old keys' counts");
    }

    #[test]
    fn a_repetition_disproof_holds_on_its_own_path_only() {
        let mut p = Path::new(1 << 20);
        let (root, child) = (10u64, 20u64);
        p.enter(root, 0);
        p.enter(child, 1);
        let r = PathResult {
            hand: Hand::EMPTY,
            len: Plies::new(7),
            proof_rests_on: None,
            proof_rests_plies: 0,
            disproof_rests_on: 0,
            disproof_inferior: NOT_ON_PATH,
        };
        p.record_on_path(child, r);
        p.leave(child);
        // Looked up from the parent, on the same path: found.
        assert_eq!(p.on_path_result(child), Some(r));
        // On another path to the same parent: not found.
        p.leave(root);
        p.set(&[99, root]);
        assert_eq!(p.on_path_result(child), None);
    }

    /// What the search does with a proof that rests on path positions: the path names their
    /// keys, the shared proofs keep it by them.
    fn keep(p: &Path, proofs: &PathProofs, x: u64, ply: u32, plies: &[u32]) {
        let mask = plies.iter().fold(0, |m, &q| m | 1 << (q % 64));
        let at = plies.iter().copied().min().unwrap();
        let keys = p
            .keys_named(at, mask, ply)
            .expect("named positions on the path");
        proofs.insert(x, keys, ply, Hand::EMPTY, Plies::new(5));
    }

    /// The proof [`keep`] keeps, as found on a path where its positions are at `plies`.
    fn kept(plies: &[u32]) -> Option<PathResult> {
        Some(PathResult {
            hand: Hand::EMPTY,
            len: Plies::new(5),
            proof_rests_on: plies.iter().copied().min(),
            proof_rests_plies: plies.iter().fold(0, |m, &q| m | 1 << (q % 64)),
            disproof_rests_on: NOT_ON_PATH,
            disproof_inferior: NOT_ON_PATH,
        })
    }

    /// A proof that rests on path positions is found again below any path that has them, at
    /// any ply, with the plies they are at there; not below one that lacks one of them, nor
    /// at another ply when results are kept to their ply; not after a new search.
    #[test]
    fn a_proof_resting_on_path_positions_holds_wherever_they_are_on_the_path() {
        let mut p = Path::new(1 << 20);
        let proofs = PathProofs::new(1 << 20);
        let (q1, q2, x) = (100u64, 200u64, 300u64);
        let find = |p: &Path, ply, keyed| proofs.find(x, ply, keyed, |k| p.ply_of(k), |_| true);
        // Found at `x` (ply 4) on the path 1, q1, 2, q2, resting on q1 (ply 1) and q2 (3).
        p.set(&[1, q1, 2, q2]);
        keep(&p, &proofs, x, 4, &[1, 3]);
        assert_eq!(find(&p, 4, false), kept(&[1, 3]));
        // Another path with both, in another order and at other plies: found there.
        p.set(&[7, q2, 8, 9, q1, 6]);
        assert_eq!(find(&p, 6, false), kept(&[1, 4]));
        // `usable` may refuse it (a budget shorter than the mate).
        let short = proofs.find(x, 6, false, |k| p.ply_of(k), |r| r.len <= Plies::new(3));
        assert_eq!(short, None);
        // A path without q2: not found.
        p.set(&[7, q1, 8, 9]);
        assert_eq!(find(&p, 4, false), None);
        // Kept to its ply.
        p.set(&[3, q1, 2, q2, 5]);
        assert_eq!(find(&p, 5, true), None);
        assert_eq!(find(&p, 5, false), kept(&[1, 3]));
        p.set(&[3, q1, 2, q2]);
        assert_eq!(find(&p, 4, true), kept(&[1, 3]));
        proofs.clear();
        assert_eq!(find(&p, 4, false), None);
    }

    /// Plies 64 apart share a bit: the proof is then kept by every path position the bits
    /// name, and found only below paths that have them all.
    #[test]
    fn a_proof_names_the_positions_its_plies_modulo_64_give() {
        let mut p = Path::new(1 << 20);
        let proofs = PathProofs::new(1 << 20);
        let keys: Vec<u64> = (1000..1070).collect();
        let x = 5u64;
        let find = |p: &Path| proofs.find(x, 70, false, |k| p.ply_of(k), |_| true);
        // Ply 2 and ply 66 share the bit.
        p.set(&keys);
        keep(&p, &proofs, x, 70, &[2]);
        assert_eq!(find(&p), kept(&[2, 66]));
        let mut other = keys.clone();
        other[66] = 9;
        p.set(&other);
        assert_eq!(find(&p), None);
        other[66] = keys[66];
        other[40] = 9;
        p.set(&other);
        assert_eq!(find(&p), kept(&[2, 66]), "ply 40 is not named");
    }

    /// A disproof found by a search from `a` (ply 0) that rests on an inferior repetition
    /// of `b` (ply 1) is not used by a later search from `c` down the same path, where `b`
    /// comes before the root; one that rests on an exact repetition of `b` still is.
    #[test]
    fn a_disproof_resting_on_an_inferior_repetition_is_not_used_from_below_it() {
        let mut p = Path::new(1 << 20);
        let (a, b, c, d, e) = (10u64, 20u64, 30u64, 40u64, 50u64);
        let resting_on = |ply, inferior| PathResult {
            hand: Hand::EMPTY,
            len: Plies::Unlimited,
            proof_rests_on: None,
            proof_rests_plies: 0,
            disproof_rests_on: ply,
            disproof_inferior: if inferior { ply } else { NOT_ON_PATH },
        };
        // The search from `a` reaches `d` and `e` through `b` and `c`.
        p.enter_node(a, 1, Hand::EMPTY, 0);
        p.enter_node(b, 2, Hand::EMPTY, 1);
        p.enter_node(c, 3, Hand::EMPTY, 2);
        for (k, inferior) in [(d, true), (e, false)] {
            p.enter_node(k, k, Hand::EMPTY, 3);
            p.record_on_path(k, resting_on(1, inferior));
            p.leave_node(k, k);
        }
        assert_eq!(p.on_path_result(d), Some(resting_on(1, true)));
        p.leave_node(c, 3);
        p.leave_node(b, 2);
        p.leave_node(a, 1);
        // A search from `c` (the path before it: a, b).
        p.set(&[a, b]);
        p.enter_node(c, 3, Hand::EMPTY, 2);
        assert_eq!(p.on_path_result(d), None);
        assert_eq!(p.on_path_result(e), Some(resting_on(1, false)));
        p.leave_node(c, 3);
        // A search from `b` (the path before it: a): `b` is its own again.
        p.set(&[a]);
        p.enter_node(b, 2, Hand::EMPTY, 1);
        p.enter_node(c, 3, Hand::EMPTY, 2);
        assert_eq!(p.on_path_result(d), Some(resting_on(1, true)));
    }

    #[test]
    fn an_inferior_repetition_is_found_by_board_and_hand() {
        use crate::types::PieceKind;
        let mut p = Path::new(1 << 20);
        let mut two_pawns = Hand::EMPTY;
        two_pawns.add(PieceKind::Pawn);
        two_pawns.add(PieceKind::Pawn);
        let mut one_pawn = Hand::EMPTY;
        one_pawn.add(PieceKind::Pawn);
        let mut gold = Hand::EMPTY;
        gold.add(PieceKind::Gold);
        p.enter_node(103, 7, two_pawns, 3);
        p.enter_node(105, 7, one_pawn, 5);
        assert_eq!(
            p.inferior_ply(7, one_pawn),
            Some(3),
            "the shallowest node that covers it"
        );
        assert_eq!(p.inferior_ply(7, two_pawns), Some(3));
        assert_eq!(p.inferior_ply(7, Hand::EMPTY), Some(3));
        assert_eq!(
            p.inferior_ply(7, gold),
            None,
            "a gold is not covered by pawns"
        );
        assert_eq!(p.inferior_ply(8, Hand::EMPTY), None, "another board");
        p.leave_node(105, 7);
        p.leave_node(103, 7);
        assert!(!p.contains(103) && !p.contains(105));
        assert_eq!(p.inferior_ply(7, Hand::EMPTY), None);
        p.enter_node(101, 7, gold, 1);
        p.set(&[1, 2]);
        assert_eq!(
            p.inferior_ply(7, Hand::EMPTY),
            None,
            "set clears the boards"
        );
        assert!(p.on_path_board.iter().all(|&n| n == 0));
    }

    #[test]
    fn setting_a_path_that_shares_a_prefix_is_the_same_as_setting_it_afresh() {
        let mut p = Path::new(1 << 20);
        p.set(&[1, 2, 3, 4]);
        p.set(&[1, 2, 5]);
        let mut q = Path::new(1 << 20);
        q.set(&[1, 2, 5]);
        assert_eq!(p.hash, q.hash);
        assert!(p.contains(5) && !p.contains(3) && !p.contains(4));
        assert_eq!((p.ply_of(1), p.ply_of(5)), (Some(0), Some(2)));
        // A key twice in a path keeps its first ply, also when the second goes.
        p.set(&[1, 2, 1]);
        p.set(&[1, 2]);
        assert_eq!(p.ply_of(1), Some(0));
        // A node left on the path (a search that did not leave it) makes it start afresh.
        p.enter_node(9, 9, Hand::EMPTY, 2);
        p.set(&[1, 2, 3]);
        assert!(!p.contains(9) && p.contains(3));
        q.set(&[1, 2, 3]);
        assert_eq!(p.hash, q.hash);
        assert_eq!(p.on_path.iter().sum::<u32>(), 3);
    }

    #[test]
    fn exclusions_apply_only_when_reached_later() {
        let mut p = Path::new(1 << 20);
        p.exclude([(5u64, 3u32)].into_iter().collect());
        assert!(!p.is_excluded(5, 3), "at its own ply: the line itself");
        assert!(p.is_excluded(5, 5), "later: a detour back to the line");
        assert!(!p.is_excluded(6, 9));
    }

    #[test]
    fn the_repetition_table_is_bounded_by_the_table_size() {
        assert_eq!(rep_table_max(0), 4096);
        assert_eq!(rep_table_max(1 << 30), REP_TABLE_MAX);
        assert_eq!(rep_table_max(64 << 20), (64 << 20) / 16 / REP_ENTRY_BYTES);
    }

    /// The block-wise prefix compare agrees with a key-by-key one wherever the paths part
    /// (inside a block, at a block's edge, past the shorter one's end).
    #[test]
    fn common_prefix_finds_where_two_paths_part() {
        let a: Vec<u64> = (0..100).collect();
        for len in [0, 1, 31, 32, 33, 64, 99, 100] {
            for part in 0..=len {
                let mut b: Vec<u64> = (0..len as u64).collect();
                if part < len {
                    b[part] = 1000;
                }
                let slow = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
                assert_eq!(common_prefix(&a, &b), slow, "len {len}, part {part}");
                assert_eq!(common_prefix(&b, &a), slow, "len {len}, part {part}");
            }
        }
    }
}
