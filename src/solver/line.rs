//! The main line: walked out of the table after a proof, at attacker nodes the first check
//! that mates within the budget, at defender nodes the longest defence, futile interpositions
//! left out, 駒余り compared near the end.

use super::futile;
use super::outcome::{DefenderChoice, DefenderReply, WalkedLine};
use super::plies::{EXHAUSTIVE_PLIES, Plies};
use super::search::{NodeKind, Search, Within};
use crate::bitboard::Bitboard;
use crate::hand::Hand;
use crate::moves::Move;
use crate::position::Position;
use crate::types::Square;

/// Most plies a walked line may have.
const MAX_LINE: usize = 20_000;
use super::budgets::{
    AFTER_LIMIT, DECISION_NODES, DECISION_NODES_FIRST, DECISION_NODES_LOOSE, MAX_WALK, TABLE_WALK,
    WALK_OVERRUN_NODES,
};
/// Positions visited between two looks at the time and stop limits.
const POLL_EVERY: u64 = 1024;

/// A line from some position to the end, built backwards.
struct Sub {
    /// The moves, last first.
    rev: Vec<Move>,
    /// The defender plies' choices, last first (ply numbers filled in at the end).
    choices: Vec<(usize, Vec<DefenderReply>)>,
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

/// One line walk: the search it asks its questions of, and its state.
pub(crate) struct LineWalk<'s, 'a> {
    search: &'s mut Search<'a>,
    /// What the walk does.
    mode: WalkMode,
    /// Stays true while every choice was decided exactly.
    exact: bool,
    steps: u64,
    /// The node count up to which decisions may search at length.
    until: u64,
    /// The node count past which decisions no longer search at all.
    hard_until: u64,
    /// The step count the walk ends at, once it walks on the table alone.
    table_steps_until: Option<u64>,
}

/// What a line walk does beside walking a line that mates within its budget.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct WalkMode {
    /// The length bound the walk starts from is proven minimal: every node on the line then
    /// has exactly its budget as mate length (the main line's walk after a proof of length).
    pub(crate) minimal: bool,
    /// Record the replies at defender plies ([`MateLine::defences`](super::MateLine::defences)).
    pub(crate) defences: bool,
    /// Compare equally long choices near the end of the line (the 駒余り rules); off for the
    /// quick walks of the line tightening, which only need a line that fits.
    pub(crate) compare: bool,
    /// Where the counted replies' line falls short, show a futile interposition proven to
    /// last the budget (with its capture): the one case the futile-interposition rule cannot
    /// show without counting, for when the ordinary walk, retried, still falls short.
    pub(crate) futile_longest: bool,
}

impl WalkMode {
    /// The walk of the main line: equally long choices compared; `minimal` and `defences`
    /// as above.
    pub(crate) fn main_line(minimal: bool, defences: bool) -> WalkMode {
        WalkMode {
            minimal,
            defences,
            compare: true,
            futile_longest: false,
        }
    }

    /// [`WalkMode::main_line`] that also shows a futile interposition as the longest
    /// defence where nothing else lasts the budget.
    pub(crate) fn showing_futile(self) -> WalkMode {
        WalkMode {
            futile_longest: true,
            ..self
        }
    }

    /// What the line tightening needs: any line that fits, as quickly as the table gives it.
    pub(crate) const QUICK: WalkMode = WalkMode {
        minimal: false,
        defences: false,
        compare: false,
        futile_longest: false,
    };
}

/// Walks the main line out of a root proven mated within `budget` plies: at attacker nodes
/// the first check (in generation order) that mates within the budget left (with a proven
/// minimal budget, a shortest mate; within the last [`EXHAUSTIVE_PLIES`] plies the first of
/// those whose line leaves the fewest pieces in hand); at defender nodes the replies that
/// are not mated two plies sooner (longest defence), futile interpositions left out, and
/// among those the one that leaves the attacker the fewest pieces in hand (駒余り). Each
/// decision is answered from the table or by a bounded search; an undecided one makes the line
/// inexact. `minimal`: the budget is proven to be the shortest mate. `allowance`: nodes the
/// decisions may search at length before they fall back to short searches. `path`: the full
/// keys of the positions before `root` (empty from a problem's start).
pub(crate) fn extract_line(
    search: &mut Search<'_>,
    root: &Position,
    path: &[u64],
    budget: u16,
    mode: WalkMode,
    allowance: u64,
) -> Option<WalkedLine> {
    let until = search.nodes().saturating_add(allowance);
    LineWalk::new(search, mode, until).run(root, path, budget)
}

/// A line from `root` that mates within `budget` plies, walked from the table alone, without
/// a search: right after the proof of `root` the table holds such a line, so the walk costs
/// milliseconds and no nodes (寿's 611 plies: 2 ms). Its defender plays replies the table
/// shows to last, not ones decided to be the longest. `None` where the table no longer
/// holds enough of the proof (entries replaced in a small table).
pub(crate) fn table_line(
    search: &mut Search<'_>,
    root: &Position,
    path: &[u64],
    budget: u16,
) -> Option<WalkedLine> {
    quick_walk(search, root, path, budget, 0)
}

/// A line from `root` that mates within `budget` plies, walked from the table with as few
/// searches as [`extract_line`] without a proven minimal length and without an allowance, and
/// without comparing equally long choices: what the line tightening needs.
pub(crate) fn quick_line(
    search: &mut Search<'_>,
    root: &Position,
    path: &[u64],
    budget: u16,
) -> Option<WalkedLine> {
    quick_walk(search, root, path, budget, WALK_OVERRUN_NODES)
}

/// A [`WalkMode::QUICK`] walk with no allowance, its decisions searching until they have
/// taken `overrun` nodes in all (none: the table alone).
fn quick_walk(
    search: &mut Search<'_>,
    root: &Position,
    path: &[u64],
    budget: u16,
    overrun: u64,
) -> Option<WalkedLine> {
    let until = search.nodes();
    let mut walk = LineWalk::new(search, WalkMode::QUICK, until);
    walk.hard_until = until.saturating_add(overrun);
    walk.run(root, path, budget)
}

impl<'s, 'a> LineWalk<'s, 'a> {
    fn new(search: &'s mut Search<'a>, mode: WalkMode, until: u64) -> LineWalk<'s, 'a> {
        LineWalk {
            search,
            mode,
            exact: true,
            steps: 0,
            until,
            hard_until: until.saturating_add(WALK_OVERRUN_NODES),
            table_steps_until: None,
        }
    }

    /// Whether choices are still decided exactly: the length is proven minimal and the
    /// allowance lasts.
    fn deciding(&self) -> bool {
        self.mode.minimal && self.search.nodes() < self.until
    }

    /// Whether the walk may still search (and compare equally long choices).
    fn searching(&self) -> bool {
        self.search.nodes() < self.hard_until
    }

    /// Nodes one decision may search now: at length while a whole one fits in the allowance,
    /// a few past it, none (the table only) past [`WALK_OVERRUN_NODES`] more.
    fn cap(&self) -> Option<u64> {
        if self.mode.minimal && self.until.saturating_sub(self.search.nodes()) >= DECISION_NODES {
            Some(DECISION_NODES)
        } else if self.searching() {
            Some(DECISION_NODES_LOOSE)
        } else {
            None
        }
    }

    fn run(mut self, root: &Position, path: &[u64], budget: u16) -> Option<WalkedLine> {
        let mut keys = path.to_vec();
        keys.push(root.key());
        let sub = self.walk_or(root, budget as i32, &mut keys)?;
        let moves: Vec<Move> = sub.rev.iter().rev().copied().collect();
        let n = moves.len();
        let choices = sub
            .choices
            .into_iter()
            .rev()
            .map(|(from_end, replies)| DefenderChoice {
                ply: (n - from_end + 1) as u32,
                replies,
            })
            .collect();
        Some(WalkedLine {
            moves,
            hand_left: sub.hand,
            choices,
            exact: self.exact,
            budget,
        })
    }

    /// Decides whether reply `j` at a defender node with `budget` is mated two plies sooner
    /// (through its child, counted, or its capture position, futile); `search`: the cap of
    /// bounded searches, or `None` for the table only.
    fn judge_reply(&mut self, j: &mut Judged, budget: i32, keys: &[u64], search: Option<u64>) {
        if j.short.is_some() || j.long {
            return;
        }
        let real = self
            .search
            .within(&j.child, NodeKind::Or, budget - 3, keys, search);
        let cap = match &j.capture {
            Some(q) => self
                .search
                .within(q, NodeKind::And, budget - 2, keys, search),
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

    /// Counts a visited position; false when the walk must end (too many positions).
    fn step(&mut self) -> bool {
        self.steps += 1;
        let poll = self.steps % POLL_EVERY == 0;
        if poll {
            self.search.poll_limits();
        }
        // Also at a walk's first step (without looking at the limits: that would move the
        // node counts at which bounded searches notice their caps).
        if (poll || self.steps == 1)
            && self
                .search
                .monitor
                .since_abort()
                .is_some_and(|d| d >= AFTER_LIMIT)
        {
            // Every later step fails too (the limit has run out, so the table walk's own
            // end applies): the walk unwinds at once.
            self.table_steps_until = Some(0);
        }
        if !self.searching() || self.search.aborted().is_some() {
            let end = *self
                .table_steps_until
                .get_or_insert(self.steps.saturating_add(TABLE_WALK));
            if self.steps > end {
                self.exact = false;
                return false;
            }
        }
        if self.steps > MAX_WALK {
            self.exact = false;
            return false;
        }
        true
    }

    fn walk_or(&mut self, pos: &Position, budget: i32, keys: &mut Vec<u64>) -> Option<Sub> {
        if !self.step() || keys.len() > MAX_LINE || budget < 1 {
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
        let decide = self.deciding();
        let wanted = self.mode.compare && b <= EXHAUSTIVE_PLIES as i32;
        let compare = wanted && self.searching();
        if wanted && !compare && children.len() > 1 {
            // The 駒余り comparison is skipped: the choice is no longer the rule's.
            self.exact = false;
        }
        let mut fitting: Option<Sub> = None;
        let mut tried = vec![false; children.len()];
        let mut skipped = false;
        let mut longer: Option<Sub> = None;
        for pass in 0..2 {
            for (i, (mv, c)) in children.iter().enumerate() {
                if tried[i] {
                    continue;
                }
                let search = (pass == 1 || decide).then(|| self.cap()).flatten();
                // On the table alone a check that mates at once is unknown (mated positions
                // are not stored): the rules say so instead.
                let ends = !self.searching() && futile::is_mate_on_path(c, keys);
                let w = if ends {
                    Within::Yes(0)
                } else {
                    self.search.within(c, NodeKind::And, b - 1, keys, search)
                };
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
                let exact_before = self.exact;
                keys.push(c.key());
                let sub = self.walk_and(c, if ends { (b - 1).min(1) } else { b - 1 }, keys);
                keys.pop();
                if let Some(mut sub) = sub {
                    sub.push(*mv);
                    if sub.rev.len() as i32 <= b {
                        if skipped {
                            self.exact = false;
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
                        if self.steps > MAX_WALK / 2 {
                            return fitting;
                        }
                        continue;
                    }
                    // Its line had to show a futile interposition and runs past the budget:
                    // another check may have a line that fits.
                    self.exact = exact_before;
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
            self.exact = false;
        }
        longer
    }

    fn walk_and(&mut self, pos: &Position, budget: i32, keys: &mut Vec<u64>) -> Option<Sub> {
        if !self.step() || keys.len() > MAX_LINE {
            return None;
        }
        let replies = pos.evasions();
        let attacker = self.search.attacker;
        if replies.is_empty() {
            return Some(Sub::end(pos.hand(attacker)));
        }
        if budget <= 1 {
            return futile::is_mate_on_path(pos, keys).then(|| Sub::end(pos.hand(attacker)));
        }
        let b = budget;
        let distant = futile::distant_check(pos);
        let mut js = Self::replies(pos, &replies, distant, keys)?;
        // Which replies are mated two plies sooner (short), from the table.
        for j in js.iter_mut() {
            self.judge_reply(j, b, keys, None);
        }
        if js.iter().all(|j| j.short.is_some()) {
            // Every reply is mated two plies sooner: the budget was not tight here.
            return self.walk_and(pos, b - 2, keys);
        }
        let mut showable = self.showable(&mut js, b, keys);
        if js.iter().all(|j| j.short.is_some()) {
            return self.walk_and(pos, b - 2, keys);
        }
        let open = js.iter().filter(|j| j.short.is_none()).count();
        self.narrow(&mut js, &mut showable, b, keys);
        let compare = self.comparing(b, showable.len());
        if !compare {
            // Only one line is walked: what the narrowing left open stays open.
            let standing = showable.iter().filter(|&&i| !js[i].long).count();
            if standing > 1 || (standing == 1 && !self.mode.minimal) {
                self.exact = false;
            }
        }
        // With the limits spent, a reply that could be neither shown nor shown to be shorter
        // might be the longest: no faithful line can be walked from here.
        if self.search.aborted().is_some()
            && js
                .iter()
                .enumerate()
                .any(|(i, j)| j.short.is_none() && !j.long && !showable.contains(&i))
        {
            return None;
        }
        let counted = showable;
        let (chosen, mut sub) = match self.walk_counted(&mut js, &counted, b, keys, compare) {
            Some(found) if !self.mode.futile_longest || found.1.rev.len() as i32 + 1 >= b => found,
            Some(found) => {
                // No counted reply lasts the budget, but an interposition does (its child and
                // its capture position both not mated sooner): show it, the longer line kept.
                let lasting = js
                    .iter()
                    .enumerate()
                    .any(|(i, j)| j.capture.is_some() && j.long && !counted.contains(&i));
                match lasting
                    .then(|| self.walk_futile_shown(pos, &js, distant, b, keys))
                    .flatten()
                {
                    Some(shown) if shown.1.rev.len() > found.1.rev.len() => shown,
                    _ => found,
                }
            }
            None => self.walk_futile_shown(pos, &js, distant, b, keys)?,
        };
        if self.mode.defences {
            let from_end = sub.rev.len() + 1;
            let single = open == 1 && self.mode.minimal;
            let replies = js
                .iter()
                .enumerate()
                .map(|(i, j)| match j.short {
                    Some((len, by_capture)) => DefenderReply {
                        mv: j.mv,
                        length: len as u32,
                        exact: false,
                        futile: by_capture,
                    },
                    None => DefenderReply {
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

    /// The defender's replies at `pos` with their children and capture positions, undecided;
    /// `None` when a reply repeats a position of the path (no mate on this path).
    fn replies(
        pos: &Position,
        replies: &[Move],
        distant: Option<(Square, Bitboard)>,
        keys: &[u64],
    ) -> Option<Vec<Judged>> {
        let mut js = Vec::with_capacity(replies.len());
        for &mv in replies {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            if keys.contains(&child.key()) {
                return None;
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
        // The saw rule: a drop whose capture position repeats a position of the line is worth
        // nothing while the defender has another reply (shown as futile, length 0).
        if distant.is_some() {
            let repeated = futile::repeated_interpositions(pos, keys);
            for j in js.iter_mut().filter(|j| repeated.contains(&j.mv)) {
                j.short = Some((0, true));
            }
        }
        Some(js)
    }

    /// The replies that can be shown counted (their own child mated within the budget), in
    /// generation order: only they can be the main line's reply, so only they need deciding
    /// (futile interpositions as long as the main line never do). From the table first, then,
    /// if none, with bounded searches. A reply found mated two plies sooner is marked short.
    fn showable(&mut self, js: &mut [Judged], b: i32, keys: &[u64]) -> Vec<usize> {
        let mut showable: Vec<usize> = Vec::new();
        for searching in [false, true] {
            for (i, j) in js.iter_mut().enumerate() {
                if j.short.is_some() || showable.contains(&i) {
                    continue;
                }
                let search = searching.then(|| self.cap()).flatten();
                if let Within::Yes(l) =
                    self.search
                        .within(&j.child, NodeKind::Or, b - 1, keys, search)
                {
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
        showable.sort_unstable();
        showable
    }

    /// With more than one showable reply: bounded searches for shortness, shortest recorded
    /// mate first, until one is left (with a proven minimal length it is then the longest;
    /// otherwise it is assumed to be). The short ones leave `showable`. Each search gets at
    /// most [`DECISION_NODES_FIRST`]: the replies left open are asked at length only when
    /// their lines would be chosen ([`LineWalk::stands`]).
    fn narrow(&mut self, js: &mut [Judged], showable: &mut Vec<usize>, b: i32, keys: &[u64]) {
        if showable.len() <= 1 {
            return;
        }
        let mut order = showable.clone();
        order.sort_by_key(|&i| self.search.recorded_len(&js[i].child, keys));
        for i in order {
            let left = showable
                .iter()
                .filter(|&&k| js[k].short.is_none() && !js[k].long)
                .count();
            if left <= 1 {
                break;
            }
            let cap = self.cap().map(|c| c.min(DECISION_NODES_FIRST));
            self.judge_reply(&mut js[i], b, keys, cap);
        }
        showable.retain(|&i| js[i].short.is_none());
    }

    /// Whether the counted replies' lines are walked and compared (with a proven minimal
    /// length, or near the end), `n` of them; when they should be but the walk no longer
    /// searches, the choice is not the rule's.
    fn comparing(&mut self, b: i32, n: usize) -> bool {
        let wanted = self.mode.compare && (self.deciding() || b <= EXHAUSTIVE_PLIES as i32);
        let compare = wanted && self.searching();
        if wanted && !compare && n > 1 {
            self.exact = false;
        }
        compare
    }

    /// Walks the counted replies' lines and picks the defender's: the longest line, then the
    /// one that leaves the attacker the fewest pieces in hand (駒余り), then the first in
    /// generation order. Lines are compared when `compare` ([`LineWalk::comparing`]);
    /// otherwise the longest recorded mate goes first and is kept (comparing lines at every
    /// ply would cost too much).
    fn walk_counted(
        &mut self,
        js: &mut [Judged],
        counted: &[usize],
        b: i32,
        keys: &mut Vec<u64>,
        compare: bool,
    ) -> Option<(usize, Sub)> {
        let mut order = counted.to_vec();
        if !compare && order.len() > 1 {
            let mut lens: Vec<(usize, Plies)> = order
                .iter()
                .map(|&i| (i, self.search.recorded_len(&js[i].child, keys)))
                .collect();
            lens.sort_by_key(|&(i, len)| (std::cmp::Reverse(len), i));
            order = lens.into_iter().map(|(i, _)| i).collect();
        }
        let mut lines: Vec<(usize, Sub)> = Vec::new();
        for &i in &order {
            let j = &js[i];
            keys.push(j.child.key());
            let sub = self.walk_or(&j.child, b - 1, keys);
            keys.pop();
            let Some(sub) = sub else { continue };
            if !compare {
                return Some((i, sub)); // the longest recorded mate, kept
            }
            lines.push((i, sub));
            lines.sort_by_key(|(i, l)| (std::cmp::Reverse(l.rev.len()), l.hand.total(), *i));
            if let Some(k) = self.pick(js, counted, &lines, b, keys, true) {
                return Some(lines.swap_remove(k));
            }
            if self.steps > MAX_WALK / 2 {
                break; // too many ties to compare: choose among those walked
            }
        }
        // None when every reply walked is mated sooner (one whose line could not be walked
        // may be the longest): a line through a shorter reply is never the main line.
        let k = self.pick(js, counted, &lines, b, keys, false)?;
        Some(lines.swap_remove(k))
    }

    /// Of the compared `lines`, best first, the first whose reply stands
    /// ([`LineWalk::stands`]), as an index into `lines`. With `unbeatable`, only a line of
    /// exactly the budget left (`b - 1` plies) that leaves the attacker no piece in hand is
    /// taken: no line walked after it can beat it (a tie goes to the reply generated first),
    /// so the replies after it need not be walked at all. (A line longer than that shows a
    /// futile interposition and is not exact; a later one may be longer still.)
    fn pick(
        &mut self,
        js: &mut [Judged],
        counted: &[usize],
        lines: &[(usize, Sub)],
        b: i32,
        keys: &[u64],
        unbeatable: bool,
    ) -> Option<usize> {
        for (k, (i, line)) in lines.iter().enumerate() {
            if js[*i].short.is_some() {
                continue;
            }
            if unbeatable && !(line.rev.len() as i32 == b - 1 && line.hand.is_empty()) {
                return None;
            }
            if self.stands(js, counted, *i, b, keys) {
                return Some(k);
            }
        }
        None
    }

    /// Whether counted reply `i`, whose line would be chosen, stands: it is not shown to be
    /// mated two plies sooner. Beyond the table and the narrowing's small searches, a reply
    /// is asked at length only here, when its line would be chosen: a reply whose line loses
    /// to a longest one's cannot change the choice, whatever its length, and the replies as
    /// long as the line's are disproofs hundreds of plies deep that a decision's cap rarely
    /// settles. With a proven minimal length a reply stands without a
    /// search once every other counted reply is shown to be shorter. A reply that stands
    /// undecided makes the line inexact.
    fn stands(
        &mut self,
        js: &mut [Judged],
        counted: &[usize],
        i: usize,
        b: i32,
        keys: &[u64],
    ) -> bool {
        let alone = counted.iter().all(|&o| o == i || js[o].short.is_some());
        if !js[i].long && !alone {
            let cap = self.cap();
            self.judge_reply(&mut js[i], b, keys, cap);
            if js[i].short.is_some() {
                return false;
            }
        }
        let decided = js[i].long || (alone && self.mode.minimal);
        if !decided {
            self.exact = false;
        }
        true
    }

    /// When only futile interpositions are this long (they lure the checker to a worse
    /// square): shows the first such interposition and its capture, which the line's length
    /// then counts too (the line is then not exact).
    fn walk_futile_shown(
        &mut self,
        pos: &Position,
        js: &[Judged],
        distant: Option<(Square, Bitboard)>,
        b: i32,
        keys: &mut Vec<u64>,
    ) -> Option<(usize, Sub)> {
        self.exact = false;
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
            let sub = self.walk_and(&after, b, keys);
            keys.pop();
            keys.pop();
            if let Some(mut sub) = sub {
                sub.push(capture);
                return Some((i, sub));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::monitor::Limits;
    use crate::solver::tt::Table;

    /// The 古典3手詰 of the README: ▲５二角成 △同　銀左 ▲４二銀打, mate in 3. After a proof,
    /// the walk at the proven length gives exactly that line, exact, and with its replies recorded
    /// every defender reply listed.
    #[test]
    fn walks_the_known_main_line_of_a_mate_in_three() {
        let pos = Position::from_sfen("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
        let table = Table::new(1);
        table.new_search();
        let mut search = Search::new(&table, pos.side_to_move(), Limits::for_tests());
        let v = search.solve_node(&pos, NodeKind::Or, 0, Plies::Unlimited);
        assert_eq!(v.pn, 0, "a mate");
        let w = extract_line(
            &mut search,
            &pos,
            &[],
            3,
            WalkMode::main_line(true, true),
            1_000_000,
        )
        .expect("a line");
        assert_eq!(
            crate::japanese_line(&pos, &w.moves).join(" "),
            "▲５二角成 △同　銀左 ▲４二銀打"
        );
        assert!(w.exact && w.budget == 3 && w.hand_left.is_empty());
        assert_eq!(w.choices.len(), 1);
        assert_eq!(w.choices[0].ply, 2);
        let replies = &w.choices[0].replies;
        assert_eq!(
            replies.len(),
            pos_after(&pos, &w.moves[..1]).evasions().len()
        );
        // A budget one mate too short for the walk gives no line.
        assert!(quick_line(&mut search, &pos, &[], 1).is_none());
    }

    /// The horse saw of tests/futile.rs (o): on the line through P, the drops on 3c at N
    /// (their capture position is P) are worth nothing; the defender's longest replies are
    /// the king's moves, mated in 2 by G*2b.
    #[test]
    fn a_repeated_interposition_is_listed_futile_and_not_played() {
        let mut pos = Position::from_sfen("8k/9/6+B1p/8N/9/9/9/9/9 w G2rb3g4s3n4l17p 1").unwrap();
        let mut keys = vec![];
        for usi in ["1a1b", "3c3d", "1b1a", "3d4d"] {
            keys.push(pos.key());
            pos.play(Move::from_usi(usi).unwrap()).unwrap();
        }
        keys.push(pos.key());
        let table = Table::new(1);
        table.new_search();
        let mut search = Search::new(&table, crate::Color::Black, Limits::for_tests());
        let mut walk = LineWalk::new(&mut search, WalkMode::main_line(true, true), 1_000_000);
        let sub = walk
            .walk_and(&pos, 2, &mut keys)
            .expect("mated within 2 on this line");
        let line: Vec<String> = sub.rev.iter().rev().map(|m| m.to_string()).collect();
        assert_eq!(line.len(), 2, "{line:?}");
        assert!(line[0] == "1a1b" || line[0] == "1a2a", "{line:?}");
        assert_eq!(line[1], "G*2b");
        let (_, replies) = &sub.choices[0];
        let s3c = replies
            .iter()
            .find(|a| a.mv == Move::from_usi("S*3c").unwrap())
            .expect("listed");
        assert!(s3c.futile && s3c.length == 0, "{s3c:?}");
    }

    /// The defender's replies after ▲５二角成 in the mate in 3 above (two silvers can take),
    /// undecided, and the path's keys.
    fn two_equal_replies() -> (Vec<Judged>, Vec<u64>) {
        let root = Position::from_sfen("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
        let pos = pos_after(&root, &[Move::from_usi("9f5b+").unwrap()]);
        let keys = vec![root.key(), pos.key()];
        let js = LineWalk::replies(&pos, &pos.evasions(), None, &keys).expect("no repetition");
        assert!(js.len() >= 2, "both silvers can take");
        (js, keys)
    }

    /// A line of `len` plies ending with `hand` in the attacker's hand (only its length and
    /// hand are compared).
    fn line_of(len: usize, hand: Hand) -> Sub {
        Sub {
            rev: vec![Move::from_usi("5c4b").unwrap(); len],
            choices: Vec::new(),
            hand,
        }
    }

    /// `pick` asks only about the reply whose line would be chosen: a reply known to last, its
    /// line of the whole budget with no piece left in hand, is taken and the reply whose line
    /// loses to it is never asked about; with `unbeatable`, a line that leaves a piece in hand
    /// is not taken yet; an undecided reply whose line would be chosen is asked about.
    #[test]
    fn only_the_reply_whose_line_is_chosen_is_decided() {
        let (mut js, keys) = two_equal_replies();
        let table = Table::new(1);
        table.new_search();
        let mut search = Search::new(&table, crate::Color::Black, Limits::for_tests());
        let mut walk = LineWalk::new(&mut search, WalkMode::main_line(true, false), 1_000_000);
        let b = 4;
        let counted = [0, 1];
        js[0].long = true;
        let full = vec![
            (0, line_of(3, Hand::default())),
            (1, line_of(3, Hand::default())),
        ];
        assert_eq!(walk.pick(&mut js, &counted, &full, b, &keys, true), Some(0));
        assert!(
            js[1].short.is_none() && !js[1].long,
            "the loser is not decided"
        );
        assert!(walk.exact);

        // A line that leaves a piece in hand may still be beaten by a line not yet walked.
        let mut hand = Hand::default();
        hand.add(crate::types::PieceKind::Pawn);
        let rich = vec![(1, line_of(3, hand))];
        assert_eq!(walk.pick(&mut js, &counted, &rich, b, &keys, true), None);
        assert!(js[1].short.is_none() && !js[1].long, "nothing decided yet");

        // Undecided, the reply whose line would be chosen is asked about: with a budget of 4
        // it is mated two plies sooner (a mate in 1 after the capture), so the next line is
        // taken, its reply the only one left.
        js[0].long = false;
        assert_eq!(
            walk.pick(&mut js, &counted, &full, b, &keys, false),
            Some(1)
        );
        assert_eq!(js[0].short, Some((2, false)));
        assert!(
            js[1].short.is_none() && !js[1].long,
            "the last one is not searched"
        );
    }

    /// In the walk itself: after ▲５二角成 both captures are mated by the last silver, a line of
    /// the whole budget (1 ply) with nothing left in hand, so the first capture's line is
    /// chosen as soon as it is walked and the second is never walked.
    #[test]
    fn an_unbeatable_line_ends_the_comparison() {
        let steps_of = |counted: &[usize]| {
            let (mut js, mut keys) = two_equal_replies();
            let table = Table::new(1);
            table.new_search();
            let mut search = Search::new(&table, crate::Color::Black, Limits::for_tests());
            let mut walk = LineWalk::new(&mut search, WalkMode::main_line(true, false), 1_000_000);
            let (chosen, line) = walk
                .walk_counted(&mut js, counted, 2, &mut keys, true)
                .expect("a line");
            assert_eq!((chosen, line.rev.len()), (counted[0], 1));
            assert!(line.hand.is_empty() && walk.exact);
            walk.steps
        };
        assert_eq!(
            steps_of(&[0, 1]),
            steps_of(&[0]),
            "the second line is not walked"
        );
    }

    /// With a proven minimal length, the last reply not shown shorter is the longest without a
    /// search; without one, the line that plays it is not exact.
    #[test]
    fn the_last_reply_standing_needs_no_search_with_a_minimal_length() {
        for minimal in [true, false] {
            let (mut js, keys) = two_equal_replies();
            let table = Table::new(1);
            table.new_search();
            let mut search = Search::new(&table, crate::Color::Black, Limits::for_tests());
            let mode = WalkMode::main_line(minimal, false);
            let mut walk = LineWalk::new(&mut search, mode, 1_000_000);
            js[0].short = Some((1, false));
            let lines = vec![
                (0, line_of(3, Hand::default())),
                (1, line_of(3, Hand::default())),
            ];
            assert_eq!(
                walk.pick(&mut js, &[0, 1], &lines, 4, &keys, false),
                Some(1)
            );
            assert!(js[1].short.is_none() && !js[1].long, "not searched");
            assert_eq!(walk.exact, minimal);
            assert_eq!(walk.search.nodes(), 0);
        }
    }

    fn pos_after(pos: &Position, moves: &[Move]) -> Position {
        let mut p = pos.clone();
        for &m in moves {
            p.play_unchecked(m);
        }
        p
    }
}
