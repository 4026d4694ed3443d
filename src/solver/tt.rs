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

use super::pn::{INF, PnDn};
use crate::hand::Hand;
use crate::moves::Move;

const CLUSTER: usize = 16;

#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    hand: u32,
    pn: u32,
    dn: u32,
    /// Nodes searched below this entry (saturating), for replacement.
    work: u32,
    /// Mate length (plies) of the proof found, for proven entries.
    len: u16,
    /// The best move's raw encoding, or 0.
    best: u16,
    /// The search generation that wrote the entry; 0 is never used, so zeroed memory is empty.
    generation: u16,
    _pad: u16,
}

impl Entry {
    fn is_solved(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// What the table knows about a position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Probe {
    pub pn: PnDn,
    pub dn: PnDn,
    /// Proof hand (proven), disproof hand (disproven), or the hand looked up.
    pub hand: Hand,
    pub len: u16,
    pub best: Option<Move>,
    /// Whether any entry was found.
    pub found: bool,
}

/// Fixed-size table of 32-byte entries in clusters of four.
pub(crate) struct Table {
    clusters: Vec<[Entry; CLUSTER]>,
    generation: u16,
}

impl Table {
    /// A table of at most `mib` MiB (at least one cluster).
    pub fn new(mib: usize) -> Table {
        let bytes = mib.saturating_mul(1 << 20);
        let n = (bytes / std::mem::size_of::<[Entry; CLUSTER]>()).max(1);
        Table {
            // Zeroed memory is handed out lazily by the OS: an unused table costs nothing.
            clusters: vec![[Entry::default(); CLUSTER]; n],
            generation: 1,
        }
    }

    /// Bytes held by the table.
    pub fn size_bytes(&self) -> usize {
        self.clusters.len() * std::mem::size_of::<[Entry; CLUSTER]>()
    }

    /// Starts a new search: entries of earlier searches become empty.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            for c in self.clusters.iter_mut() {
                *c = [Entry::default(); CLUSTER];
            }
            self.generation = 1;
        }
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.clusters.len() as u128) >> 64) as usize
    }

    /// Looks up the board `key` with the attacker's `hand`.
    pub fn probe(&self, key: u64, hand: Hand) -> Probe {
        let cluster = &self.clusters[self.index(key)];
        let mut exact: Option<&Entry> = None;
        // Among proofs that apply, the shortest: mate lengths then only shrink as proofs are
        // added, which keeps the lengths along a walked line decreasing.
        let mut proof: Option<(&Entry, Hand)> = None;
        for e in cluster {
            if e.generation != self.generation || e.key != key {
                continue;
            }
            let eh = Hand::from_raw(e.hand).unwrap_or(Hand::EMPTY);
            if e.pn == 0 {
                if hand.covers(eh) && proof.is_none_or(|(p, _)| e.len < p.len) {
                    proof = Some((e, eh));
                }
            } else if e.dn == 0 {
                if eh.covers(hand) {
                    return to_probe(e, eh);
                }
            } else if eh == hand {
                exact = Some(e);
            }
        }
        if let Some((e, eh)) = proof {
            return to_probe(e, eh);
        }
        match exact {
            Some(e) => to_probe(e, hand),
            None => Probe {
                pn: 1,
                dn: 1,
                hand,
                len: 0,
                best: None,
                found: false,
            },
        }
    }

    /// Stores a result. `hand` is the proof hand for a proof, the disproof hand for a
    /// disproof, otherwise the hand searched.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        key: u64,
        hand: Hand,
        pn: PnDn,
        dn: PnDn,
        len: u16,
        best: Option<Move>,
        work: u64,
    ) {
        let generation = self.generation;
        let idx = self.index(key);
        let cluster = &mut self.clusters[idx];
        let solved = pn == 0 || dn == 0;
        let new = Entry {
            key,
            hand: hand.raw(),
            pn,
            dn,
            work: work.min(u32::MAX as u64) as u32,
            len,
            best: best.map_or(0, |m| m.raw()),
            generation,
            _pad: 0,
        };
        // Same position and hand: overwrite (keep the larger work figure).
        let mut victim = None;
        for (i, e) in cluster.iter_mut().enumerate() {
            if e.generation == generation && e.key == key {
                let eh = Hand::from_raw(e.hand).unwrap_or(Hand::EMPTY);
                if e.hand == new.hand {
                    if e.is_solved() && !solved {
                        return; // a solved entry is never downgraded
                    }
                    if e.pn == 0 && pn == 0 && e.len <= new.len {
                        return; // keep the shorter proof
                    }
                    let work = e.work.max(new.work);
                    *e = new;
                    e.work = work;
                    return;
                }
                // Drop whatever the other answers make useless: an unsolved entry a new
                // proof or disproof answers, and among proofs (disproofs) the one that needs
                // more (allows less) without being shorter.
                let dominated_old = match (e.pn == 0, e.dn == 0) {
                    (true, _) => pn == 0 && eh.covers(hand) && len <= e.len,
                    (_, true) => dn == 0 && hand.covers(eh),
                    _ => (pn == 0 && eh.covers(hand)) || (dn == 0 && hand.covers(eh)),
                };
                let dominated_new = (e.pn == 0 && pn == 0 && hand.covers(eh) && e.len <= len)
                    || (e.dn == 0 && dn == 0 && eh.covers(hand));
                if dominated_new {
                    return;
                }
                if dominated_old {
                    e.generation = 0;
                    victim.get_or_insert(i);
                }
            }
        }
        let slot = match victim {
            Some(i) => i,
            None => {
                // Empty or stale first, then the least work, keeping solved entries longest.
                let mut best_i = 0;
                let mut best_score = u64::MAX;
                for (i, e) in cluster.iter().enumerate() {
                    let score = if e.generation != generation {
                        0
                    } else {
                        e.work as u64 + 1 + if e.is_solved() { 1 << 32 } else { 0 }
                    };
                    if score < best_score {
                        best_score = score;
                        best_i = i;
                    }
                }
                best_i
            }
        };
        cluster[slot] = new;
    }

    /// Fraction of entries in use by this search, estimated from the first clusters.
    pub fn fill(&self) -> f64 {
        let sample = self.clusters.len().min(1000);
        let used: usize = self.clusters[..sample]
            .iter()
            .map(|c| c.iter().filter(|e| e.generation == self.generation).count())
            .sum();
        used as f64 / (sample * CLUSTER) as f64
    }
}

fn to_probe(e: &Entry, hand: Hand) -> Probe {
    Probe {
        pn: e.pn,
        dn: e.dn,
        hand,
        len: e.len,
        best: decode_move(e.best),
        found: true,
    }
}

fn decode_move(raw: u16) -> Option<Move> {
    Move::from_raw(raw)
}

/// The pn/dn pair of a proven node.
pub(crate) const PROVEN: (PnDn, PnDn) = (0, INF);
/// The pn/dn pair of a disproven node.
pub(crate) const DISPROVEN: (PnDn, PnDn) = (INF, 0);

#[cfg(test)]
mod tests {
    use super::*;
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
        let mut t = Table::new(1);
        t.new_search();
        let (pn, dn) = PROVEN;
        t.store(42, hand(1, 0), pn, dn, 7, None, 10);
        assert_eq!(t.probe(42, hand(1, 0)).pn, 0);
        assert_eq!(t.probe(42, hand(2, 1)).pn, 0, "more pieces: still proven");
        assert!(!t.probe(42, hand(0, 1)).found, "fewer pawns: unknown");
        assert_eq!(t.probe(42, hand(2, 1)).len, 7);
        let (pn, dn) = DISPROVEN;
        t.store(43, hand(1, 1), pn, dn, 0, None, 10);
        assert_eq!(
            t.probe(43, hand(0, 1)).dn,
            0,
            "fewer pieces: still disproven"
        );
        assert!(!t.probe(43, hand(2, 1)).found);
        assert!(!t.probe(44, hand(0, 0)).found, "other key");
    }

    #[test]
    fn new_search_forgets() {
        let mut t = Table::new(1);
        t.store(42, hand(0, 0), 3, 4, 0, None, 1);
        assert!(t.probe(42, hand(0, 0)).found);
        t.new_search();
        assert!(!t.probe(42, hand(0, 0)).found);
    }

    #[test]
    fn never_grows_and_replaces() {
        let mut t = Table::new(1);
        let size = t.size_bytes();
        assert!(size <= 1 << 20);
        for k in 0..200_000u64 {
            t.store(
                k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                hand(0, 0),
                2,
                2,
                0,
                None,
                k,
            );
        }
        assert_eq!(t.size_bytes(), size);
        assert!(t.fill() > 0.9);
    }
}
