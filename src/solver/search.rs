//! The df-pn search proper: OR nodes (attacker to move, checks only) and AND nodes (defender
//! to move, evasions), with thresholds, the 1+ε trick, df-pn+ initial values, a mate-in-one
//! test at new children, proof and disproof hands, delayed expansion of interposition drops,
//! and path-dependent handling of repetitions.

use super::futile;
use super::hands;
use super::pn::{INF, INF_1, PnDn, add, epsilon_threshold, remaining_threshold};
use super::tt::{DISPROVEN, NO_LIMIT, PROVEN, Table};
use super::{Progress, StopReason};
use crate::hand::Hand;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, PieceKind, Square};
use ahash::{AHashMap, AHashSet};
use smallvec::SmallVec;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A node's value as its parent sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Value {
    pub pn: PnDn,
    pub dn: PnDn,
    /// Proof hand if proven, disproof hand if disproven, else the hand searched.
    pub hand: Hand,
    /// Mate length (plies) below a proven node; for a disproven node, the number of plies
    /// within which there is no mate ([`NO_LIMIT`]: none at all).
    pub len: u16,
    /// The disproof rests on a repetition on the current path: valid on this path only.
    pub rep: bool,
}

impl Value {
    fn proven(hand: Hand, len: u16) -> Value {
        let (pn, dn) = PROVEN;
        Value {
            pn,
            dn,
            hand,
            len,
            rep: false,
        }
    }
    fn disproven(hand: Hand, rep: bool, depth: u16) -> Value {
        let (pn, dn) = DISPROVEN;
        Value {
            pn,
            dn,
            hand,
            len: depth,
            rep,
        }
    }
    fn is_proven(&self) -> bool {
        self.pn == 0
    }
    fn is_disproven(&self) -> bool {
        self.dn == 0
    }
}

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
fn inc(depth: u16) -> u16 {
    if depth == NO_LIMIT {
        NO_LIMIT
    } else {
        depth.saturating_add(1).min(NO_LIMIT - 1)
    }
}

struct Child {
    mv: Move,
    v: Value,
    /// For an interposition at an AND node: index of its capture position's value in the
    /// node's list (shared by the drops on one square).
    q: Option<u8>,
}

/// A node's children, on the stack for all but the widest nodes.
type Children = SmallVec<[Child; 24]>;

/// What a node's loop needs from its children. `min` is over the numbers the node minimises
/// (pn at an OR node, dn at an AND node), with the child that has it (the first on ties) and
/// the second smallest; `weak` combines the other numbers as a weak sum (Ueda et al. 2008): the
/// largest plus one per other open child, rather than the plain sum, which counts subtrees
/// shared in the DAG again and again. Zero when every child is zero there.
struct Summary {
    best: usize,
    min: PnDn,
    second: PnDn,
    weak: PnDn,
}

/// Summarises `children`; `numbers` gives a child's (minimised, weakly summed) pair.
#[inline]
fn summarize(children: &[Child], numbers: impl Fn(&Child) -> (PnDn, PnDn)) -> Summary {
    let mut out = Summary {
        best: 0,
        min: INF,
        second: INF,
        weak: 0,
    };
    let mut largest: PnDn = 0;
    let mut open: PnDn = 0;
    for (i, ch) in children.iter().enumerate() {
        let (m, w) = numbers(ch);
        if m < out.min {
            out.second = out.min;
            out.min = m;
            out.best = i;
        } else if m < out.second {
            out.second = m;
        }
        if w != 0 {
            largest = largest.max(w);
            open += 1;
        }
    }
    if open > 0 {
        out.weak = add(largest, open - 1);
    }
    out
}

/// Order in which same-square interposition drops are expanded, one kind at a time.
const DROP_ORDER: [PieceKind; 7] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Silver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
];

/// Limits and reporting for one search.
pub(crate) struct Limits<'a> {
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    pub stop: Arc<AtomicBool>,
    pub max_depth: u32,
    pub progress_every: Duration,
    pub progress: Option<&'a mut (dyn FnMut(&Progress) + Send + 'static)>,
}

/// One search over a table.
pub(crate) struct Search<'a> {
    pub table: &'a mut Table,
    pub attacker: Color,
    limits: Limits<'a>,
    /// Full keys (board and hands) of the positions on the current path.
    path: AHashSet<u64>,
    /// Order-independent hash of the current path, including the current node.
    path_hash: u64,
    /// Disproofs that rest on a repetition, keyed by position and path.
    rep_table: AHashMap<u64, (Hand, u16)>,
    /// The entries `rep_table` may hold before it is cleared (see [`rep_table_max`]).
    rep_max: usize,
    pub nodes: u64,
    start: Instant,
    next_check: u64,
    last_progress: Instant,
    pub aborted: Option<StopReason>,
    pub depth_limited: bool,
    /// A node count at which the current sub-search gives up ([`Search::solve_until`]);
    /// reaching it sets `cap_hit`, not `aborted`.
    cap_at: Option<u64>,
    cap_hit: bool,
    pub root_pn: PnDn,
    pub root_dn: PnDn,
    /// Positions (full keys) treated as not mated when reached later than at the ply they
    /// map to: the uniqueness checker's search for a second solution that does not merely
    /// come back to the main line.
    excluded: Option<AHashMap<u64, u32>>,
}

const REP_TABLE_MAX: usize = 1 << 20;
/// Bytes one entry of the repetition table may take at most: 17 per bucket of the hash map,
/// whose bucket count is a power of two at least 8/7 of the entries (up to 39 bytes an
/// entry), and half as much again while it grows (the old buckets are freed after the move).
const REP_ENTRY_BYTES: usize = 60;

/// The entries the repetition table may hold for a transposition table of `table_bytes`:
/// it takes at most a sixteenth of that memory (at least 4096 entries, at most
/// [`REP_TABLE_MAX`]), so that [`SolverConfig::hash_mib`](super::SolverConfig::hash_mib)
/// bounds it too. Clearing it only loses path-dependent results, which are searched again.
pub(crate) fn rep_table_max(table_bytes: usize) -> usize {
    (table_bytes / 16 / REP_ENTRY_BYTES).clamp(4096, REP_TABLE_MAX)
}
const CHECK_EVERY: u64 = 1024;

#[inline]
fn mix(k: u64) -> u64 {
    let k = (k ^ (k >> 31)).wrapping_mul(0x7fb5_d329_728e_a185);
    k ^ (k >> 27)
}

impl<'a> Search<'a> {
    pub fn new(table: &'a mut Table, attacker: Color, limits: Limits<'a>) -> Search<'a> {
        let now = Instant::now();
        Search {
            rep_max: rep_table_max(table.size_bytes()),
            table,
            attacker,
            limits,
            path: AHashSet::new(),
            path_hash: 0,
            rep_table: AHashMap::new(),
            nodes: 0,
            start: now,
            next_check: CHECK_EVERY,
            last_progress: now,
            aborted: None,
            depth_limited: false,
            cap_at: None,
            cap_hit: false,
            root_pn: 1,
            root_dn: 1,
            excluded: None,
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Counts a node visit; the limits are looked at every [`CHECK_EVERY`] nodes.
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check_limits();
        }
    }

    fn check_limits(&mut self) {
        self.next_check = self.nodes + CHECK_EVERY;
        if self.cap_at.is_some_and(|c| self.nodes >= c) {
            self.cap_hit = true;
        }
        if let Some(n) = self.limits.nodes {
            if self.nodes >= n {
                self.aborted = Some(StopReason::NodeLimit);
            }
        }
        if self.limits.stop.load(Ordering::Relaxed) {
            self.aborted = Some(StopReason::Stopped);
        }
        let now = Instant::now();
        if let Some(t) = self.limits.time {
            if now.duration_since(self.start) >= t {
                self.aborted = Some(StopReason::TimeLimit);
            }
        }
        if now.duration_since(self.last_progress) >= self.limits.progress_every {
            self.last_progress = now;
            self.report_progress();
        }
    }

    pub fn report_progress(&mut self) {
        let elapsed = self.start.elapsed();
        let p = Progress {
            nodes: self.nodes,
            elapsed,
            nodes_per_second: (self.nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64,
            table_fill: self.table.fill(),
            root_pn: self.root_pn,
            root_dn: self.root_dn,
        };
        if let Some(cb) = self.limits.progress.as_mut() {
            cb(&p);
        }
    }

    #[inline]
    fn enter(&mut self, full: u64) {
        self.path.insert(full);
        self.path_hash ^= mix(full);
    }

    #[inline]
    fn leave(&mut self, full: u64) {
        self.path.remove(&full);
        self.path_hash ^= mix(full);
    }

    /// Treats the positions with these full keys ([`Position::key`]) as not mated when they
    /// are reached later than at the given ply (the `depth` of the search's nodes counts plies
    /// from the problem's start). Results that rest on them are path-dependent, like those
    /// that rest on a repetition, and never reach the table; but the table's own proofs do not
    /// know of the exclusion, so a search with exclusions needs a table of its own.
    pub fn exclude(&mut self, keys: AHashMap<u64, u32>) {
        self.excluded = Some(keys);
    }

    /// Adds nodes searched elsewhere (another table) to this search's count and limits.
    pub fn add_nodes(&mut self, n: u64) {
        self.nodes += n;
        self.check_limits();
    }

    /// Whether the position with key `full`, reached at `ply`, is excluded.
    #[inline]
    fn is_excluded(&self, full: u64, ply: u32) -> bool {
        self.excluded
            .as_ref()
            .is_some_and(|e| e.get(&full).is_some_and(|&at| ply > at))
    }

    /// Replaces the path (used when re-searching from inside a line).
    pub fn set_path(&mut self, keys: &[u64]) {
        self.path.clear();
        self.path_hash = 0;
        for &k in keys {
            self.enter(k);
        }
    }

    /// Records a node's result: solved results that rest on a repetition go to the
    /// path-keyed table, everything else to the transposition table.
    fn record(&mut self, pos: &Position, v: Value, best: Option<Move>, work: u64) {
        if v.rep {
            if self.rep_table.len() >= self.rep_max {
                self.rep_table.clear();
            }
            let own = mix(pos.key());
            // The path hash includes this node; the key uses its ancestors only.
            self.rep_table
                .insert(pos.key() ^ self.path_hash ^ own, (v.hand, v.len));
            return;
        }
        self.table
            .store(pos.board_key(), v.hand, v.pn, v.dn, v.len, best, work);
    }

    /// The value of `child`, a position one move below the current node, for a search with
    /// `budget` plies left there, as far as known without searching it. Also says whether
    /// anything was known (a new node is not).
    pub(crate) fn lookup(&self, child: &Position, budget: u16) -> (Value, bool) {
        self.lookup_keys(
            child.key(),
            child.board_key(),
            child.hand(self.attacker),
            budget,
            0,
        )
    }

    /// The value of the child of `pos` reached by `mv` (at ply `ply`), without making the
    /// move.
    #[inline]
    fn lookup_move(&self, pos: &Position, mv: Move, budget: u16, ply: u32) -> (Value, bool) {
        let (board, hands, hand) = pos.keys_after(mv, self.attacker);
        self.lookup_keys(board ^ hands, board, hand, budget, ply)
    }

    fn lookup_keys(
        &self,
        full: u64,
        board: u64,
        hand: Hand,
        budget: u16,
        ply: u32,
    ) -> (Value, bool) {
        if self.path.contains(&full) || self.is_excluded(full, ply) {
            return (Value::disproven(hand, true, NO_LIMIT), true);
        }
        if !self.rep_table.is_empty() {
            if let Some(&(dh, d)) = self.rep_table.get(&(full ^ self.path_hash)) {
                if d >= budget {
                    return (Value::disproven(dh, true, d), true);
                }
            }
        }
        let p = self.table.probe(board, hand, budget);
        let v = Value {
            pn: p.pn,
            dn: p.dn,
            hand: p.hand,
            len: p.len,
            rep: false,
        };
        (v, p.found)
    }

    /// Searches an OR node (attacker to move) until its pn or dn reaches its threshold.
    /// `budget` is the most plies the mate may take from here ([`NO_LIMIT`]: any).
    pub fn or_node(
        &mut self,
        pos: &Position,
        th_pn: PnDn,
        th_dn: PnDn,
        depth: u32,
        budget: u16,
    ) -> Value {
        self.count_node();
        let hand = pos.hand(self.attacker);
        let start_nodes = self.nodes;
        let moves = pos.check_moves();
        if moves.is_empty() {
            // No check: disproven at once (0-ply no-mate).
            let v = Value::disproven(hands::disproof_without_checks(hand), false, NO_LIMIT);
            self.record(pos, v, None, 1);
            return v;
        }
        if budget == 0 {
            return Value::disproven(Hand::FULL, false, 0);
        }
        if depth >= self.limits.max_depth {
            self.depth_limited = true;
            return Value::disproven(hand, true, NO_LIMIT);
        }
        let child_budget = dec(budget);
        let full = pos.key();
        self.enter(full);
        let mut children = Children::new();
        for &mv in &moves {
            self.table.prefetch(pos.keys_after(mv, self.attacker).0);
        }
        for &mv in &moves {
            let (mut v, known) = self.lookup_move(pos, mv, child_budget, depth + 1);
            if !known {
                let mut c = pos.clone();
                c.play_unchecked(mv);
                // New AND node: mate if the defender has no reply (mate in one), else df-pn+
                // initial numbers from its replies.
                let n = initial_and_pn(&c);
                if n == 0 {
                    let ph = hands::interposition_guard(&c, self.attacker);
                    let ph = hands::proof_before_attack(pos, mv, ph);
                    let v = Value::proven(ph, 1);
                    self.record(pos, v, Some(mv), 1);
                    self.leave(full);
                    return v;
                }
                v.pn = n;
                v.dn = 1;
            }
            if v.is_proven() {
                // Proven through the table (superiority). (Taking the shortest of the proven
                // children instead of the first was tried: Microcosmos then took 32 M nodes
                // instead of 25 M for a longer first proof, the others were unchanged.)
                let ph = hands::proof_before_attack(pos, mv, v.hand);
                let v = Value::proven(ph, v.len.saturating_add(1));
                self.record(pos, v, Some(mv), 1);
                self.leave(full);
                return v;
            }
            children.push(Child { mv, v, q: None });
        }

        // The table's best move from an earlier visit goes first (ties in pn keep order).
        if let Some(bm) = self.table.probe(pos.board_key(), hand, budget).best {
            if let Some(i) = children.iter().position(|c| c.mv == bm) {
                children.swap(0, i);
            }
        }

        let result = loop {
            // pn = the smallest child pn, dn = the children's weak dn.
            let Summary {
                best,
                min: pn,
                second,
                weak: dn,
            } = summarize(&children, |c| (c.v.pn, c.v.dn));
            if depth == 0 {
                self.root_pn = pn;
                self.root_dn = dn;
            }
            if pn == 0 {
                // Prefer the shortest proof among proven children.
                let ch = children
                    .iter()
                    .filter(|c| c.v.is_proven())
                    .min_by_key(|c| c.v.len)
                    .expect("a proven child");
                let ph = hands::proof_before_attack(pos, ch.mv, ch.v.hand);
                let v = Value::proven(ph, ch.v.len.saturating_add(1));
                self.record(pos, v, Some(ch.mv), self.nodes - start_nodes + 1);
                break v;
            }
            if dn == 0 {
                let mut dh = Hand::FULL;
                let mut rep = false;
                let mut holds = NO_LIMIT;
                for ch in &children {
                    dh = dh.min(hands::disproof_before_attack(pos, ch.mv, ch.v.hand));
                    rep |= ch.v.rep;
                    holds = holds.min(inc(ch.v.len));
                }
                let dh = if rep {
                    hand
                } else {
                    hands::finish_or_disproof(hand, dh)
                };
                let v = Value::disproven(dh, rep, holds);
                self.record(pos, v, None, self.nodes - start_nodes + 1);
                break v;
            }
            if pn >= th_pn || dn >= th_dn || self.aborted.is_some() || self.cap_hit {
                let v = Value {
                    pn,
                    dn,
                    hand,
                    len: 0,
                    rep: false,
                };
                let bm = children[best].mv;
                self.record(pos, v, Some(bm), self.nodes - start_nodes + 1);
                break v;
            }
            let child_th_pn = epsilon_threshold(th_pn, second);
            let child_th_dn = remaining_threshold(th_dn, dn, children[best].v.dn);
            let mv = children[best].mv;
            let mut c = pos.clone();
            c.play_unchecked(mv);
            let v = self.and_node(&c, child_th_pn, child_th_dn, depth + 1, child_budget);
            children[best].v = v;
        };
        self.leave(full);
        result
    }

    /// Searches an AND node (defender to move, in check). `budget` is the most plies the
    /// mate may take from here ([`NO_LIMIT`]: any). Interpositions against a distant check
    /// are refuted either by their own child (counted) or by their capture position (the
    /// futile-interposition rule: not counted, see `futile.rs`).
    pub fn and_node(
        &mut self,
        pos: &Position,
        th_pn: PnDn,
        th_dn: PnDn,
        depth: u32,
        budget: u16,
    ) -> Value {
        self.count_node();
        let hand = pos.hand(self.attacker);
        let start_nodes = self.nodes;
        let evasions = pos.evasions();
        if evasions.is_empty() {
            return Value::proven(hands::interposition_guard(pos, self.attacker), 0);
        }
        if depth >= self.limits.max_depth {
            self.depth_limited = true;
            return Value::disproven(hand, true, NO_LIMIT);
        }
        if budget <= 1 {
            return self.and_node_shallow(pos, &evasions, budget, depth);
        }
        let distant = futile::distant_check(pos);
        let child_budget = dec(budget);
        let full = pos.key();
        self.enter(full);

        // Board moves are all expanded; drops are grouped by square and expanded one kind at a
        // time (delayed interposition): the next kind only once the previous one is proven.
        // An interposition also carries the value of its capture position.
        let mut children = Children::new();
        let mut caps: SmallVec<[Value; 8]> = SmallVec::new();
        let mut pending: SmallVec<[(Square, u8); 8]> = SmallVec::new(); // (square, index into DROP_ORDER)
        let mut drop_squares: SmallVec<[(Square, Move); 8]> = SmallVec::new();
        for &mv in &evasions {
            if mv.is_drop() {
                if !drop_squares.iter().any(|&(s, _)| s == mv.to()) {
                    drop_squares.push((mv.to(), mv));
                }
                continue;
            }
            let q = match distant {
                Some((checker, between)) if between.contains(mv.to()) => {
                    self.new_capture(pos, mv, checker, budget, depth + 2, &mut caps)
                }
                _ => None,
            };
            let below = (child_budget, depth + 1);
            if let Some(v) = self.and_child(pos, mv, q, &caps, below, &mut children) {
                self.leave(full);
                return v;
            }
        }
        let defender_hand = pos.hand(self.attacker.flip());
        for &(sq, first) in &drop_squares {
            let q = match distant {
                Some((checker, between)) if between.contains(sq) => {
                    self.new_capture(pos, first, checker, budget, depth + 2, &mut caps)
                }
                _ => None,
            };
            if let Some(qi) = q {
                if caps[qi as usize].is_proven() {
                    // Every drop on this square is futile: one child stands for them all.
                    let (v, _) = self.lookup_move(pos, first, child_budget, depth + 1);
                    children.push(Child {
                        mv: first,
                        v,
                        q: Some(qi),
                    });
                    continue;
                }
            }
            if let Some(v) = self.expand_drops(
                pos,
                sq,
                0,
                defender_hand,
                &evasions,
                q,
                &caps,
                (child_budget, depth + 1),
                &mut children,
                &mut pending,
            ) {
                self.leave(full);
                return v;
            }
        }

        let result = loop {
            // dn = the smallest child dn, pn = the children's weak pn.
            let Summary {
                best,
                min: dn,
                second,
                weak: pn,
            } = summarize(&children, |c| {
                let (p, d) = effective(c, &caps);
                (d, p)
            });
            if dn == 0 {
                let v = self.refuted_by(pos, &children[best], &caps);
                self.record(
                    pos,
                    v,
                    Some(children[best].mv),
                    self.nodes - start_nodes + 1,
                );
                break v;
            }
            if pn == 0 {
                let mut ph = hands::interposition_guard(pos, self.attacker);
                let mut len = 0;
                let mut longest = children[0].mv;
                for ch in &children {
                    let (h, l) = proof_route(ch, &caps);
                    ph = ph.max(h);
                    if l >= len {
                        len = l;
                        longest = ch.mv;
                    }
                }
                let v = Value::proven(ph.min(hand), len);
                self.record(pos, v, Some(longest), self.nodes - start_nodes + 1);
                break v;
            }
            if pn >= th_pn || dn >= th_dn || self.aborted.is_some() || self.cap_hit {
                let v = Value {
                    pn,
                    dn,
                    hand,
                    len: 0,
                    rep: false,
                };
                let bm = children[best].mv;
                self.record(pos, v, Some(bm), self.nodes - start_nodes + 1);
                break v;
            }
            let child_th_dn = epsilon_threshold(th_dn, second);
            let (best_pn, _) = effective(&children[best], &caps);
            let child_th_pn = remaining_threshold(th_pn, pn, best_pn);
            let ch = &children[best];
            let mv = ch.mv;
            let real = ch.v;
            let open_capture =
                ch.q.map(|i| (i as usize, caps[i as usize]))
                    .filter(|(_, q)| !q.is_disproven());
            match open_capture {
                Some((qi, q)) if real.is_disproven() || q.pn <= real.pn => {
                    // The capture position: the reply is an OR of its two refutations.
                    let (tpn, tdn) = if real.is_disproven() {
                        (child_th_pn, child_th_dn)
                    } else {
                        (
                            epsilon_threshold(child_th_pn, real.pn),
                            remaining_threshold(child_th_dn, add(real.dn, q.dn), q.dn),
                        )
                    };
                    let (checker, _) = distant.expect("an interposition has a distant check");
                    let nv = match futile::capture_position(pos, mv, checker) {
                        Some(qpos) => self.and_node(&qpos, tpn, tdn, depth + 2, budget),
                        None => Value::disproven(hand, false, NO_LIMIT),
                    };
                    caps[qi] = nv;
                    if nv.is_proven() && mv.is_drop() {
                        pending.retain(|(s, _)| *s != mv.to());
                    }
                }
                _ => {
                    let (tpn, tdn) = match open_capture {
                        Some((_, q)) => (
                            epsilon_threshold(child_th_pn, q.pn),
                            remaining_threshold(child_th_dn, add(real.dn, q.dn), real.dn),
                        ),
                        None => (child_th_pn, child_th_dn),
                    };
                    let q = ch.q;
                    let mut c = pos.clone();
                    c.play_unchecked(mv);
                    let v = self.or_node(&c, tpn, tdn, depth + 1, child_budget);
                    children[best].v = v;
                    let capture_proven = q.is_some_and(|i| caps[i as usize].is_proven());
                    if v.is_proven() && mv.is_drop() && !capture_proven {
                        // Proven interposition: expand the next kind on that square.
                        let sq = mv.to();
                        if let Some(pi) = pending.iter().position(|&(s, _)| s == sq) {
                            let (_, next) = pending.swap_remove(pi);
                            if let Some(v) = self.expand_drops(
                                pos,
                                sq,
                                next as usize,
                                defender_hand,
                                &evasions,
                                q,
                                &caps,
                                (child_budget, depth + 1),
                                &mut children,
                                &mut pending,
                            ) {
                                break v;
                            }
                        }
                    }
                }
            }
        };
        self.leave(full);
        result
    }

    /// An AND node with too little budget for any counted reply (at most one ply): proven
    /// only if every reply is a futile interposition whose capture position is again such a
    /// node (a mate in 0 once futile interpositions are not counted).
    fn and_node_shallow(
        &mut self,
        pos: &Position,
        evasions: &[Move],
        budget: u16,
        depth: u32,
    ) -> Value {
        let hand = pos.hand(self.attacker);
        let fail = Value::disproven(hand, false, budget);
        let Some((checker, between)) = futile::distant_check(pos) else {
            return fail;
        };
        let mut ph = hands::interposition_guard(pos, self.attacker);
        let mut done: SmallVec<[Square; 8]> = SmallVec::new();
        for &mv in evasions {
            if !between.contains(mv.to()) {
                return fail;
            }
            if mv.is_drop() && done.contains(&mv.to()) {
                continue;
            }
            let Some(q) = futile::capture_position(pos, mv, checker) else {
                return fail;
            };
            if self.is_excluded(q.key(), depth + 2) {
                return Value::disproven(hand, true, budget);
            }
            let replies = q.evasions();
            let v = if replies.is_empty() {
                Value::proven(hands::interposition_guard(&q, self.attacker), 0)
            } else {
                self.and_node_shallow(&q, &replies, budget, depth + 2)
            };
            if !v.is_proven() {
                return fail;
            }
            ph = ph.max(v.hand);
            if mv.is_drop() {
                done.push(mv.to());
            }
        }
        Value::proven(ph.min(hand), 0)
    }

    /// Adds the capture position of interposition `mv` (at ply `ply`) to `caps` with its value
    /// as far as the table knows; its index, or `None` if the checker cannot capture.
    fn new_capture(
        &mut self,
        pos: &Position,
        mv: Move,
        checker: Square,
        budget: u16,
        ply: u32,
        caps: &mut SmallVec<[Value; 8]>,
    ) -> Option<u8> {
        if caps.len() >= u8::MAX as usize {
            return None;
        }
        let (board, full) = futile::capture_keys(pos, mv, checker)?;
        let (mut v, known) = self.lookup_keys(full, board, pos.hand(self.attacker), budget, ply);
        if !known {
            v.pn = 1;
            v.dn = 1;
        }
        caps.push(v);
        Some((caps.len() - 1) as u8)
    }

    /// The disproof of AND node `pos` by the child `ch` (both of its refutations failed).
    fn refuted_by(&self, pos: &Position, ch: &Child, caps: &[Value]) -> Value {
        let hand = pos.hand(self.attacker);
        let mut rep = ch.v.rep;
        let mut dh = ch.v.hand;
        let mut holds = inc(ch.v.len);
        if let Some(i) = ch.q {
            let q = caps[i as usize];
            rep |= q.rep;
            dh = dh.min(q.hand);
            holds = holds.min(q.len);
        }
        let dh = if rep {
            hand
        } else {
            hands::disproof_before_defence(ch.mv, hand, dh)
        };
        Value::disproven(dh, rep, holds)
    }

    /// Adds the child of AND node `pos` reached by `mv` (with its capture position `q`, for an
    /// interposition); returns the node's value if that child already disproves it. `below`:
    /// the children's budget and ply.
    #[allow(clippy::too_many_arguments)]
    fn and_child(
        &mut self,
        pos: &Position,
        mv: Move,
        q: Option<u8>,
        caps: &[Value],
        (budget, ply): (u16, u32),
        children: &mut Children,
    ) -> Option<Value> {
        let (v, _) = self.lookup_move(pos, mv, budget, ply);
        let ch = Child { mv, v, q };
        if effective(&ch, caps).1 == 0 {
            let nv = self.refuted_by(pos, &ch, caps);
            self.record(pos, nv, Some(mv), 1);
            return Some(nv);
        }
        children.push(ch);
        None
    }

    /// Adds the drops on `sq`, from kind index `from_kind` in [`DROP_ORDER`]: proven ones are
    /// added as proven children and skipped, and the first unproven one stays active with the
    /// rest pending. Returns the node's value if a drop disproves it.
    #[allow(clippy::too_many_arguments)]
    fn expand_drops(
        &mut self,
        pos: &Position,
        sq: Square,
        from_kind: usize,
        defender_hand: Hand,
        evasions: &[Move],
        q: Option<u8>,
        caps: &[Value],
        below: (u16, u32),
        children: &mut Children,
        pending: &mut SmallVec<[(Square, u8); 8]>,
    ) -> Option<Value> {
        for (i, &k) in DROP_ORDER.iter().enumerate().skip(from_kind) {
            if !defender_hand.has(k) {
                continue;
            }
            let mv = Move::drop_unchecked(k, sq);
            if !evasions.contains(&mv) {
                continue;
            }
            if let Some(v) = self.and_child(pos, mv, q, caps, below, children) {
                return Some(v);
            }
            let last = children.last().expect("just added");
            if effective(last, caps).0 != 0 {
                if i + 1 < DROP_ORDER.len() {
                    pending.push((sq, (i + 1) as u8));
                }
                return None;
            }
        }
        None
    }

    /// [`Search::solve_node`], giving up at node count `until`: `None` if it got there first.
    pub fn solve_until(
        &mut self,
        pos: &Position,
        or: bool,
        depth: u32,
        budget: u16,
        until: u64,
    ) -> Option<Value> {
        self.cap_at = Some(until);
        self.cap_hit = false;
        // The limits are looked at every CHECK_EVERY nodes: look at the cap when it comes
        // (small caps would otherwise run up to that many nodes over).
        self.next_check = self.next_check.min(until.max(self.nodes + 1));
        let v = self.solve_node(pos, or, depth, budget);
        self.cap_at = None;
        let hit = std::mem::take(&mut self.cap_hit);
        (!hit).then_some(v)
    }

    /// Solves `pos` (an OR node when `or`, else an AND node) as far as the limits allow,
    /// looking for a mate within `budget` plies.
    pub fn solve_node(&mut self, pos: &Position, or: bool, depth: u32, budget: u16) -> Value {
        loop {
            let v = if or {
                self.or_node(pos, INF_1, INF_1, depth, budget)
            } else {
                self.and_node(pos, INF_1, INF_1, depth, budget)
            };
            if depth == 0 {
                self.root_pn = v.pn;
                self.root_dn = v.dn;
            }
            if v.pn == 0 || v.dn == 0 || self.aborted.is_some() || self.cap_hit {
                return v;
            }
        }
    }
}

/// The (pn, dn) of an AND node's child as the node sees it: an interposition is refuted when
/// either its own child or its capture position is proven, and stands only when both are
/// disproven.
#[inline]
fn effective(ch: &Child, caps: &[Value]) -> (PnDn, PnDn) {
    let v = ch.v;
    let Some(i) = ch.q else {
        return (v.pn, v.dn);
    };
    let q = caps[i as usize];
    if v.is_proven() || q.is_proven() {
        PROVEN
    } else if q.is_disproven() {
        (v.pn, v.dn)
    } else if v.is_disproven() {
        (q.pn, q.dn)
    } else {
        (v.pn.min(q.pn), add(v.dn, q.dn))
    }
}

/// How a refuted AND child was refuted: the proof hand and the plies it adds to the node's
/// mate (one plus the child's mate when counted; the capture position's mate when futile; the
/// shorter when both are proven).
fn proof_route(ch: &Child, caps: &[Value]) -> (Hand, u16) {
    let real =
        ch.v.is_proven()
            .then(|| (ch.v.hand, ch.v.len.saturating_add(1)));
    let capture =
        ch.q.map(|i| caps[i as usize])
            .filter(|q| q.is_proven())
            .map(|q| (q.hand, q.len));
    match (real, capture) {
        (Some(r), Some(c)) => {
            if c.1 < r.1 {
                c
            } else {
                r
            }
        }
        (Some(r), None) => r,
        (None, Some(c)) => c,
        (None, None) => (Hand::EMPTY, 0),
    }
}

/// The df-pn+ initial proof number of a new AND node: its replies weighted by kind (board
/// replies count more than drops, and the drops on one square count once, as they are expanded
/// one kind at a time).
///
/// Weights tried (king move / other board reply / drop square), with the nodes for 寿 + ACTの夢 +
/// Astral Traveler and the most any short suite problem needed: 1/1/1: 5.97 M, 1.8 k;
/// 3/2/1: 4.01 M, 8.9 k; 6/2/1: 3.03 M, 50 k; 4/4/1: 3.02 M, 17 k; 5/5/1: 2.58 M, 20 k. But
/// 5/5/1 takes Microcosmos from 24 M to 43 M nodes and 橋本587 from 8 M to 23 M: 3/2/1 is kept.
fn initial_and_pn(pos: &Position) -> PnDn {
    let ev = pos.evasions();
    let king = pos.king_square(pos.side_to_move());
    let mut n = 0;
    let mut drop_squares = crate::bitboard::Bitboard::EMPTY;
    for m in &ev {
        if m.is_drop() {
            drop_squares.insert(m.to());
        } else if m.from() == king {
            n += KING_WEIGHT;
        } else {
            n += OTHER_WEIGHT;
        }
    }
    n + DROP_WEIGHT * drop_squares.count()
}

const KING_WEIGHT: PnDn = 3;
const OTHER_WEIGHT: PnDn = 2;
const DROP_WEIGHT: PnDn = 1;
