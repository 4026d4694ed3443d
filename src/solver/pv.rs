//! The mating line: walked out of the table after a proof, and verified move by move
//! independently of the search.

use super::futile;
use super::search::{Search, Value};
use super::tt::NO_LIMIT;
use crate::hand::Hand;
use crate::moves::Move;
use crate::position::Position;
use std::fmt;

/// Why a claimed mating line is not one.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LineError {
    /// The move at `ply` (1-based) is illegal.
    Illegal {
        /// 1-based ply.
        ply: usize,
        /// The move.
        mv: Move,
        /// Why.
        reason: crate::IllegalMove,
    },
    /// The attacker's move at `ply` does not give check.
    NotCheck {
        /// 1-based ply.
        ply: usize,
        /// The move.
        mv: Move,
    },
    /// The line ends in a position that is not checkmate (not even once futile
    /// interpositions are not counted).
    NotMate,
    /// The line is empty or has an even number of plies (it must end with the attacker's move).
    EvenLength(usize),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::Illegal { ply, mv, reason } => {
                write!(f, "ply {ply}: {mv} is illegal: {reason}")
            }
            LineError::NotCheck { ply, mv } => write!(f, "ply {ply}: {mv} does not give check"),
            LineError::NotMate => write!(f, "the line does not end in checkmate"),
            LineError::EvenLength(n) => {
                write!(
                    f,
                    "a mating line has an odd number of plies, this one has {n}"
                )
            }
        }
    }
}

impl LineError {
    /// Where the line goes wrong in a line of `len` plies: the 1-based ply and the move there
    /// (the last ply, without a move, for a line that does not end in mate or is even).
    pub fn place(&self, len: usize) -> (usize, Option<Move>) {
        match *self {
            LineError::Illegal { ply, mv, .. } | LineError::NotCheck { ply, mv } => (ply, Some(mv)),
            LineError::NotMate | LineError::EvenLength(_) => (len.max(1), None),
        }
    }
}

impl std::error::Error for LineError {}

/// Checks that `moves` from `pos` is a mating line: every move legal, every attacker move (the
/// odd plies) a check, an odd number of plies, and the final position checkmate, or a mate
/// once futile interpositions are not counted (every reply is a futile interposition, see
/// [`is_mate_with_futile_interpositions`](crate::is_mate_with_futile_interpositions)).
///
/// This uses only the rules core, not the search, so a line that passes is a mate whatever the
/// solver's table held.
///
/// ```
/// use tsume::{Move, Position, verify_mate};
/// let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G")?;
/// let line = [Move::from_usi("G*5b").unwrap()];
/// assert!(verify_mate(&pos, &line).is_ok());
/// # Ok::<(), tsume::SfenError>(())
/// ```
pub fn verify_mate(pos: &Position, moves: &[Move]) -> Result<(), LineError> {
    if moves.len() % 2 == 0 {
        return Err(LineError::EvenLength(moves.len()));
    }
    let mut p = pos.clone();
    for (i, &mv) in moves.iter().enumerate() {
        let ply = i + 1;
        p.check_legality(mv)
            .map_err(|reason| LineError::Illegal { ply, mv, reason })?;
        p.play_unchecked(mv);
        if i % 2 == 0 && !p.in_check() {
            return Err(LineError::NotCheck { ply, mv });
        }
    }
    if super::futile::is_mate_with_futile_interpositions(&p) {
        Ok(())
    } else {
        Err(LineError::NotMate)
    }
}

/// Most plies a walked line may have.
const MAX_LINE: usize = 20_000;
/// Most positions the line walk may visit (alternatives compared for the 駒余り rule included).
const MAX_WALK: u64 = 2_000_000;
/// Nodes each decision of the line walk may search ("is this position mated within so many
/// plies?") before it is left undecided: when the length is proven minimal, and otherwise
/// (then the line is not exact anyway, and long problems have many undecidable ties).
const DECISION_NODES: u64 = 100_000;
const DECISION_NODES_LOOSE: u64 = 5_000;
/// Below this many plies left, equally long defences are compared by walking their lines even
/// when the length is not proven minimal (the 駒余り rule at the end of long problems).
const COMPARE_PLIES: i32 = 41;

/// How the line walk judged one defender reply at a defender ply of the main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alternative {
    /// The reply.
    pub mv: Move,
    /// Plies from this reply (included) to the mate, futile interpositions not counted: the
    /// exact minimax length when `exact`, else an upper bound.
    pub length: u32,
    /// Whether `length` is exact.
    pub exact: bool,
    /// A futile interposition (無駄合): refuted by capturing it without gaining anything, in
    /// no more plies than `length`; never shown in a line unless it is the only longest reply.
    pub futile: bool,
}

/// The replies the line walk considered at one defender ply of the main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefenderChoice {
    /// 1-based ply of the defender's move in the line.
    pub ply: usize,
    /// Every legal reply there, the one played included, in move-generation order.
    pub replies: Vec<Alternative>,
}

/// Whether a position is mated within a number of plies, as far as one decision could tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Within {
    Yes(u16),
    No,
    Unknown,
}

/// A line from some position to the end, built backwards.
struct Sub {
    /// The moves, last first.
    rev: Vec<Move>,
    /// The defender plies' choices, last first (ply numbers filled in at the end).
    choices: Vec<(usize, Vec<Alternative>)>,
    /// The attacker's hand at the end.
    hand: Hand,
}

impl Sub {
    fn end(hand: Hand) -> Sub {
        Sub {
            rev: Vec::new(),
            choices: Vec::new(),
            hand,
        }
    }
    fn push(&mut self, mv: Move) {
        self.rev.push(mv);
    }
}

/// One defender reply as the line walk judges it.
struct Judged {
    mv: Move,
    child: Position,
    capture: Option<Position>,
    /// Mate length through this reply when mated two plies sooner, and whether the
    /// capture position gives it.
    short: Option<(u16, bool)>,
    /// Proven not to be mated two plies sooner.
    long: bool,
}

/// The state of one line walk.
pub(crate) struct LineWalk {
    /// Whether the length bound the walk starts from is proven minimal: every node on the
    /// line then has exactly its budget as mate length.
    tight: bool,
    /// Whether to record the replies at defender plies.
    alternatives: bool,
    /// Whether equally long choices are compared near the end of the line (the 駒余り rules);
    /// off for the quick walks of the line tightening, which only need a line that fits.
    compare: bool,
    /// Stays true while every choice was decided exactly.
    pub exact: bool,
    steps: u64,
    /// The node count up to which decisions may search at length.
    until: u64,
}

impl LineWalk {
    fn new(tight: bool, alternatives: bool, compare: bool, until: u64) -> LineWalk {
        LineWalk {
            tight,
            alternatives,
            compare,
            exact: true,
            steps: 0,
            until,
        }
    }

    /// Whether choices are still decided exactly: the length is proven minimal and the
    /// allowance lasts (`nodes` searched so far).
    fn deciding(&self, nodes: u64) -> bool {
        self.tight && nodes < self.until
    }

    /// Nodes one decision may search now: at length while a whole one fits in the allowance.
    fn cap(&self, nodes: u64) -> u64 {
        if self.tight && self.until.saturating_sub(nodes) >= DECISION_NODES {
            DECISION_NODES
        } else {
            DECISION_NODES_LOOSE
        }
    }
}

/// A walked line.
pub(crate) struct WalkedLine {
    pub moves: Vec<Move>,
    pub hand_left: Hand,
    pub choices: Vec<DefenderChoice>,
    pub exact: bool,
    /// The mate length the line was walked at (a proven bound from its root).
    pub budget: u16,
}

impl Search<'_> {
    /// Walks the main line out of a root proven mated within `budget` plies: at attacker nodes
    /// the first check (in generation order) that mates within the budget left (with a proven
    /// minimal budget, a shortest mate; within the last [`COMPARE_PLIES`] plies the first of
    /// those whose line leaves the fewest pieces in hand); at defender nodes the replies that
    /// are not mated two plies sooner (longest defence), futile interpositions left out, and
    /// among those the one that leaves the attacker the fewest pieces in hand (駒余り). Each decision is answered
    /// from the table or by a bounded search; an undecided one makes the line inexact.
    /// `minimal`: the budget is proven to be the shortest mate. `allowance`: nodes the
    /// decisions may search at length before they fall back to short searches. `path`: the
    /// full keys of the positions before `root` (empty from a problem's start).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn extract_line(
        &mut self,
        root: &Position,
        path: &[u64],
        budget: u16,
        minimal: bool,
        alternatives: bool,
        allowance: u64,
    ) -> Option<WalkedLine> {
        let walk = LineWalk::new(
            minimal,
            alternatives,
            true,
            self.nodes.saturating_add(allowance),
        );
        self.walk_line(root, path, budget, walk)
    }

    /// A line from `root` that mates within `budget` plies, walked from the table with as
    /// few searches as [`Search::extract_line`] without a proven minimal length and without
    /// an allowance, and without comparing equally long choices: what the line tightening
    /// needs.
    pub(crate) fn quick_line(
        &mut self,
        root: &Position,
        path: &[u64],
        budget: u16,
    ) -> Option<WalkedLine> {
        let walk = LineWalk::new(false, false, false, self.nodes);
        self.walk_line(root, path, budget, walk)
    }

    fn walk_line(
        &mut self,
        root: &Position,
        path: &[u64],
        budget: u16,
        mut walk: LineWalk,
    ) -> Option<WalkedLine> {
        let mut keys = path.to_vec();
        keys.push(root.key());
        let sub = self.walk_or(root, budget as i32, &mut keys, &mut walk)?;
        let moves: Vec<Move> = sub.rev.iter().rev().copied().collect();
        let n = moves.len();
        let choices = sub
            .choices
            .into_iter()
            .rev()
            .map(|(from_end, replies)| DefenderChoice {
                ply: n - from_end + 1,
                replies,
            })
            .collect();
        Some(WalkedLine {
            moves,
            hand_left: sub.hand,
            choices,
            exact: walk.exact,
            budget,
        })
    }

    /// Tightens a walked line (`moves` from `root`, an attacker node) from its end back to the
    /// root, and returns the mate length then proven for the root.
    ///
    /// Each position of the line is proven mated within the length its part of the line now
    /// needs: at an attacker node through the line's move or, when a bounded search (at most
    /// `cap` nodes) finds that another check mates at least two plies sooner, through that
    /// check (a shortcut beside the line); at a defender node through the line's reply, or,
    /// when another reply is longer, as long as the table's proof says. Every length is a
    /// proof in the table, so a walk at the root's new length takes the shortcuts, and a
    /// defence that was as long as the line before and is now the longest becomes the line
    /// of the next pass. `path`: the full keys of the positions before `root`. Returns `None`
    /// when the node count reaches `stop_at` or a limit runs out first, or when a position
    /// has no proof in the table any more (replaced).
    pub(crate) fn tighten_line(
        &mut self,
        root: &Position,
        path: &[u64],
        moves: &[Move],
        cap: u64,
        stop_at: u64,
    ) -> Option<u16> {
        let n = moves.len();
        let mut positions = Vec::with_capacity(n + 1);
        let mut keys = path.to_vec();
        let mut p = root.clone();
        positions.push(p.clone());
        for &mv in moves {
            keys.push(p.key());
            p.play_unchecked(mv);
            positions.push(p.clone());
        }
        let base = path.len();
        // Plies from the position after the current one to the mate, as proven so far.
        let mut after: i32 = 0;
        for i in (0..n).rev() {
            if self.aborted.is_some() || self.nodes >= stop_at {
                return None;
            }
            let pos = &positions[i];
            let before = &keys[..base + i];
            let mut t = after + 1;
            let or = i % 2 == 0;
            if or && t >= 3 {
                let here = &keys[..=base + i];
                for mv in pos.check_moves() {
                    if mv == moves[i] {
                        continue;
                    }
                    let mut c = pos.clone();
                    c.play_unchecked(mv);
                    if let Within::Yes(l) = self.within(&c, false, t - 3, here, Some(cap)) {
                        t = l as i32 + 1;
                        break;
                    }
                }
            }
            after = match self.within(pos, or, t, before, Some(cap)) {
                Within::Yes(l) => l as i32,
                // At a defender node another reply is longer than the line's; at either kind
                // the bounded search may have run out: the proof the table holds.
                _ => match self.recorded_len(pos, before) {
                    u16::MAX => return None,
                    len => len as i32,
                },
            };
        }
        Some(after as u16)
    }

    /// Whether `pos` (an OR node when `or`) is mated within `budget` plies on the path `keys`:
    /// from the table, then, given a `search` cap, by a bounded search of at most that many
    /// nodes. A budget of [`NO_LIMIT`] or more asks for a mate of any length.
    pub(crate) fn within(
        &mut self,
        pos: &Position,
        or: bool,
        budget: i32,
        keys: &[u64],
        search: Option<u64>,
    ) -> Within {
        if budget < 0 || (or && budget < 1) || keys.contains(&pos.key()) {
            return Within::No;
        }
        let b = if budget >= NO_LIMIT as i32 {
            NO_LIMIT
        } else {
            budget as u16
        };
        self.set_path(keys);
        let (v, _) = self.lookup(pos, b);
        if let Some(w) = judged(&v) {
            return w;
        }
        match search {
            Some(cap) if self.aborted.is_none() => {
                let until = self.nodes + cap;
                self.solve_until(pos, or, keys.len() as u32, b, until)
                    .and_then(|v| judged(&v))
                    .unwrap_or(Within::Unknown)
            }
            _ => Within::Unknown,
        }
    }

    /// The shortest mate the table records for `pos` (either kind of node) on the path `keys`,
    /// whatever the budget, or `u16::MAX` if none.
    fn recorded_len(&mut self, pos: &Position, keys: &[u64]) -> u16 {
        self.set_path(keys);
        let (v, _) = self.lookup(pos, NO_LIMIT);
        if v.pn == 0 { v.len } else { u16::MAX }
    }

    /// Decides whether reply `j` at a defender node with `budget` is mated two plies sooner
    /// (through its child, counted, or its capture position, futile); `search`: the cap of
    /// bounded searches, or `None` for the table only.
    fn judge_reply(&mut self, j: &mut Judged, budget: i32, keys: &[u64], search: Option<u64>) {
        if j.short.is_some() || j.long {
            return;
        }
        let real = self.within(&j.child, true, budget - 3, keys, search);
        let cap = match &j.capture {
            Some(q) => self.within(q, false, budget - 2, keys, search),
            None => Within::No,
        };
        j.short = match (real, cap) {
            (Within::Yes(r), Within::Yes(c)) => Some(if c <= r + 1 {
                (c, true)
            } else {
                (r + 1, false)
            }),
            (Within::Yes(r), _) => Some((r + 1, false)),
            (_, Within::Yes(c)) => Some((c, true)),
            _ => None,
        };
        j.long = real == Within::No && cap == Within::No;
    }

    fn walk_or(
        &mut self,
        pos: &Position,
        budget: i32,
        keys: &mut Vec<u64>,
        walk: &mut LineWalk,
    ) -> Option<Sub> {
        walk.steps += 1;
        if keys.len() > MAX_LINE || walk.steps > MAX_WALK || budget < 1 {
            return None;
        }
        let b = budget;
        let mut children: Vec<(Move, Position)> = Vec::new();
        for mv in pos.check_moves() {
            let mut c = pos.clone();
            c.play_unchecked(mv);
            if !keys.contains(&c.key()) {
                children.push((mv, c));
            }
        }
        // The first check in generation order that mates within the budget. With a proven
        // minimal length every such check is a shortest mate, and deciding the checks before
        // it makes the choice independent of what the table happens to hold.
        // Past the walk's allowance the table goes first and the choice is no longer exact.
        let decide = walk.deciding(self.nodes);
        let compare = walk.compare && b <= COMPARE_PLIES;
        let mut fitting: Option<Sub> = None;
        let mut tried = vec![false; children.len()];
        let mut skipped = false;
        let mut longer: Option<Sub> = None;
        for pass in 0..2 {
            for (i, (mv, c)) in children.iter().enumerate() {
                if tried[i] {
                    continue;
                }
                let search = (pass == 1 || decide).then(|| walk.cap(self.nodes));
                let w = self.within(c, false, b - 1, keys, search);
                match w {
                    Within::Yes(_) => {}
                    Within::No => {
                        tried[i] = true;
                        continue;
                    }
                    Within::Unknown => {
                        skipped = true;
                        if pass == 1 || decide {
                            tried[i] = true;
                        }
                        continue;
                    }
                }
                tried[i] = true;
                let exact_before = walk.exact;
                keys.push(c.key());
                let sub = self.walk_and(c, b - 1, keys, walk);
                keys.pop();
                if let Some(mut sub) = sub {
                    sub.push(*mv);
                    if sub.rev.len() as i32 <= b {
                        if skipped {
                            walk.exact = false;
                        }
                        if !compare {
                            return Some(sub);
                        }
                        // Near the end, every check that mates as soon is walked, and the one
                        // that leaves the fewest pieces in hand is kept (the first on ties).
                        let key = |l: &Sub| (l.rev.len(), l.hand.total());
                        if fitting.as_ref().is_none_or(|f| key(&sub) < key(f)) {
                            fitting = Some(sub);
                        }
                        if walk.steps > MAX_WALK / 2 {
                            return fitting;
                        }
                        continue;
                    }
                    // Its line had to show a futile interposition and runs past the budget:
                    // another check may have a line that fits.
                    walk.exact = exact_before;
                    if longer
                        .as_ref()
                        .is_none_or(|l: &Sub| sub.rev.len() < l.rev.len())
                    {
                        longer = Some(sub);
                    }
                }
            }
        }
        if fitting.is_some() {
            return fitting;
        }
        if longer.is_some() {
            walk.exact = false;
        }
        longer
    }

    fn walk_and(
        &mut self,
        pos: &Position,
        budget: i32,
        keys: &mut Vec<u64>,
        walk: &mut LineWalk,
    ) -> Option<Sub> {
        walk.steps += 1;
        if keys.len() > MAX_LINE || walk.steps > MAX_WALK {
            return None;
        }
        let replies = pos.evasions();
        let attacker = self.attacker;
        if replies.is_empty() {
            return Some(Sub::end(pos.hand(attacker)));
        }
        if budget <= 1 {
            return futile::is_mate_with_futile_interpositions(pos)
                .then(|| Sub::end(pos.hand(attacker)));
        }
        let b = budget;
        let distant = futile::distant_check(pos);
        let mut js = Vec::with_capacity(replies.len());
        for &mv in &replies {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            if keys.contains(&child.key()) {
                return None; // the defender repeats a position: no mate on this path
            }
            let capture = distant
                .filter(|(_, between)| between.contains(mv.to()))
                .and_then(|(checker, _)| futile::capture_position(pos, mv, checker));
            js.push(Judged {
                mv,
                child,
                capture,
                short: None,
                long: false,
            });
        }
        // Which replies are mated two plies sooner (short), from the table.
        for j in js.iter_mut() {
            self.judge_reply(j, b, keys, None);
        }
        let open = js.iter().filter(|j| j.short.is_none()).count();
        if open == 0 {
            // Every reply is mated two plies sooner: the budget was not tight here.
            return self.walk_and(pos, b - 2, keys, walk);
        }
        // The replies that can be shown counted (their own child mated within the budget):
        // only they can be the main line's reply, so only they need deciding. Futile
        // interpositions as long as the main line never do.
        let mut showable: Vec<usize> = Vec::new();
        for searching in [false, true] {
            for (i, j) in js.iter_mut().enumerate() {
                if j.short.is_some() || showable.contains(&i) {
                    continue;
                }
                let search = searching.then(|| walk.cap(self.nodes));
                if let Within::Yes(l) = self.within(&j.child, true, b - 1, keys, search) {
                    if (l as i32) <= b - 3 {
                        // The search found it mated two plies sooner after all: a shorter
                        // defence, never the line's (the line would then come out shorter
                        // than its budget, against a defence that is not the longest).
                        j.short = Some((l + 1, false));
                    } else {
                        showable.push(i);
                    }
                }
            }
            if !showable.is_empty() {
                break;
            }
        }
        if js.iter().all(|j| j.short.is_some()) {
            return self.walk_and(pos, b - 2, keys, walk);
        }
        let open = js.iter().filter(|j| j.short.is_none()).count();
        showable.sort_unstable();
        // More than one: bounded searches for shortness, shortest recorded mate first, until
        // one is left (with a proven minimal length it is then the longest; otherwise it is
        // assumed to be).
        if showable.len() > 1 {
            let mut order = showable.clone();
            order.sort_by_key(|&i| self.recorded_len(&js[i].child, keys));
            for i in order {
                let left = showable
                    .iter()
                    .filter(|&&k| js[k].short.is_none() && !js[k].long)
                    .count();
                if left <= 1 {
                    break;
                }
                let cap = walk.cap(self.nodes);
                self.judge_reply(&mut js[i], b, keys, Some(cap));
            }
            showable.retain(|&i| js[i].short.is_none());
        }
        let standing = showable.iter().filter(|&&i| !js[i].long).count();
        if standing > 1 || (standing == 1 && !walk.tight) {
            walk.exact = false;
        }
        // With the limits spent, a reply that could be neither shown nor shown to be shorter
        // might be the longest: no faithful line can be walked from here.
        if self.aborted.is_some()
            && js
                .iter()
                .enumerate()
                .any(|(i, j)| j.short.is_none() && !j.long && !showable.contains(&i))
        {
            return None;
        }
        let mut counted = showable;
        // The defender prefers the longest line, then the one that leaves the attacker the
        // fewest pieces in hand (駒余り), then the first in generation order. Otherwise the
        // longest recorded mate goes first (comparing lines at every ply would cost too much).
        // Lines are compared when the length is proven minimal or few plies are left.
        let compare = walk.compare && (walk.deciding(self.nodes) || b <= COMPARE_PLIES);
        if !compare && counted.len() > 1 {
            let mut lens: Vec<(usize, u16)> = counted
                .iter()
                .map(|&i| (i, self.recorded_len(&js[i].child, keys)))
                .collect();
            lens.sort_by_key(|&(i, len)| (std::cmp::Reverse(len), i));
            counted = lens.into_iter().map(|(i, _)| i).collect();
        }
        let mut best: Option<(usize, Sub)> = None;
        for &i in &counted {
            let j = &js[i];
            keys.push(j.child.key());
            let sub = self.walk_or(&j.child, b - 1, keys, walk);
            keys.pop();
            let Some(sub) = sub else { continue };
            let better = best.as_ref().is_none_or(|(_, s)| {
                (sub.rev.len(), std::cmp::Reverse(sub.hand.total()))
                    > (s.rev.len(), std::cmp::Reverse(s.hand.total()))
            });
            if better {
                best = Some((i, sub));
            }
            if !compare || walk.steps > MAX_WALK / 2 {
                break; // not comparing, or too many ties to compare: keep what was found
            }
        }
        let (chosen, mut sub) = match best {
            Some(found) => found,
            None => {
                // Only futile interpositions are this long (they lure the checker to a worse
                // square): show the interposition and its capture, which the length then
                // counts too.
                walk.exact = false;
                let mut found = None;
                for (i, j) in js.iter().enumerate() {
                    let (Some(_), None) = (&j.capture, j.short) else {
                        continue;
                    };
                    let (checker, _) = distant.expect("an interposition");
                    let capture = futile::capture_move(pos, j.mv, checker);
                    let mut after = j.child.clone();
                    if after.check_legality(capture).is_err() {
                        continue;
                    }
                    after.play_unchecked(capture);
                    keys.push(j.child.key());
                    keys.push(after.key());
                    let sub = self.walk_and(&after, b, keys, walk);
                    keys.pop();
                    keys.pop();
                    if let Some(mut sub) = sub {
                        sub.push(capture);
                        found = Some((i, sub));
                        break;
                    }
                }
                found?
            }
        };
        if walk.alternatives {
            let from_end = sub.rev.len() + 1;
            let single = open == 1 && walk.tight;
            let replies = js
                .iter()
                .enumerate()
                .map(|(i, j)| match j.short {
                    Some((len, by_capture)) => Alternative {
                        mv: j.mv,
                        length: len as u32,
                        exact: false,
                        futile: by_capture,
                    },
                    None => Alternative {
                        mv: j.mv,
                        length: if i == chosen {
                            sub.rev.len() as u32 + 1
                        } else {
                            b as u32
                        },
                        exact: j.long || single,
                        futile: !counted.contains(&i),
                    },
                })
                .collect();
            sub.choices.push((from_end, replies));
        }
        sub.push(js[chosen].mv);
        Some(sub)
    }
}

/// A decided value, if it is one.
fn judged(v: &Value) -> Option<Within> {
    if v.pn == 0 {
        Some(Within::Yes(v.len))
    } else if v.dn == 0 {
        Some(Within::No)
    } else {
        None
    }
}
