//! Proving a mate length minimal ("is there a mate in N-2?" until there is none), tightening
//! the line from its end when that is too hard from the root, and pairing the main line with
//! the proven bound.

use super::budgets::{
    CONFIRM_NODES, MATE_IN_ONE_WALK, MIN_SHARE, MIN_WALK_NODES, SHARES, TIGHTEN_NODES,
    TIGHTEN_OTHER_NODES, TOP_DOWN_FIRST_PROOF, TOP_DOWN_STEP_PART, WALK_PART, WALK_RETRIES,
};
use super::config::SolverConfig;
use super::line::{self, WalkMode};
use super::outcome::{LineCut, MateLine, Outcome, StopReason, UnverifiedLine, WalkedLine};
use super::plies::{BOTTOM_UP_PLIES, Plies};
use super::search::{NodeKind, Search, Within};
use super::verify::verify_mate;
use crate::moves::Move;
use crate::position::Position;
use crate::zobrist::KeySet;

/// The verdict on `pos`: a first proof of a mate within `max_length` plies, then the main
/// line ([`main_line`]); no mate, or unknown when the limits or the depth ran out.
pub(crate) fn outcome(
    search: &mut Search<'_>,
    pos: &Position,
    max_length: Plies,
    shortest_nodes: Option<u64>,
    defences: bool,
    tighten: bool,
) -> Outcome {
    let v = search.solve_node(pos, NodeKind::Or, 0, max_length);
    if let Some(reason) = search.aborted() {
        Outcome::Unknown(reason)
    } else if v.pn == 0 {
        search.mark_first_proof(Some(v.len.plies()));
        main_line(
            search,
            pos,
            v.len.plies(),
            shortest_nodes,
            defences,
            tighten,
        )
    } else if search.depth_limited() {
        Outcome::Unknown(StopReason::DepthLimit)
    } else {
        search.mark_first_proof(None);
        Outcome::NoMate
    }
}

/// After a first proof with a mate in `len`: proves the length minimal by searching for
/// a mate in `len - 2` until there is none (each success shortens it), then walks the main
/// line at the shortest length proven, verifies it, and pairs it with that length. With an
/// allowance of 0 or 1 node it gives the first proof's line from the table instead.
///
/// The length reported is always a bound some proof shows (the first proof's, or a
/// shorter one found since); a line is never taken for the length, except a verified
/// 1-ply line, which has no defence to get wrong: a mate in one. A walked line shorter
/// than the bound (its defender did not play a longest defence: a reply was left
/// undecided) is proven again from its end ([`tighten_line`]) within its own
/// length, with a share of nodes of its own; where that succeeds the bound comes down to
/// the proof and the line is walked again at it, else the line is reported as not the main
/// line ([`MateLine::is_main_line`]).
pub(crate) fn main_line(
    search: &mut Search<'_>,
    pos: &Position,
    len: u16,
    shortest_nodes: Option<u64>,
    defences: bool,
    tighten: bool,
) -> Outcome {
    if shortest_nodes.is_some_and(|n| n <= 1) && len > 1 && !defences {
        if let Some(at_once) = first_line_at_once(search, pos, len) {
            return at_once;
        }
    }
    let start = search.nodes();
    let allowance = shortest_nodes.unwrap_or(SolverConfig::DEFAULT_SHORTEST_NODES);
    let stop_at = start.saturating_add(allowance);
    // Each search for a shorter mate starts with a share of the allowance (the last one,
    // which must show there is none, is the hard one for long problems), and one that runs
    // out goes on with twice as much while the allowance lasts.
    let share = (allowance / SHARES).max(MIN_SHARE);
    // A line of the first proof, walked from the table while nothing has run out yet (a
    // few nodes): the answer if a limit runs out before the line can be walked at the end.
    let first = line::quick_line(search, pos, &[], len);
    let short = shorten(
        search,
        pos,
        &[],
        NodeKind::Or,
        len,
        Allowance {
            stop_at,
            share,
            top_down: (start >= TOP_DOWN_FIRST_PROOF).then(|| start.saturating_add(start / 2)),
            root: true,
        },
        tighten,
    );
    let (mut bound, minimal) = (short.len, short.minimal);
    // The walk's decisions search at length with what is left of the allowance (with the
    // default allowance, at most a `WALK_PART` of the first proof's nodes); a global
    // limit that ran out leaves it to the table. Should that fail (a limit ran out while
    // the mate was being shortened), a quick walk from the table at the bound is tried,
    // and then the line last walked before, still a mate, found with the table as it was
    // then: the tightening's last, else the first proof's (walked at a longer bound, so
    // not the main line).
    let mut left = stop_at.saturating_sub(search.nodes());
    if shortest_nodes.is_none() {
        left = left.min((start / WALK_PART).max(MIN_WALK_NODES));
    }
    let mode = WalkMode::main_line(minimal, defences);
    let mut walked = line::extract_line(search, pos, &[], bound, mode, left).or_else(|| {
        line::quick_line(search, pos, &[], bound)
            .or(short.line)
            .or(first)
            .map(|mut w| {
                w.exact = false;
                w
            })
    });
    // A line shorter than the bound: its defender plays a reply the walk could not show
    // to be the longest. Prove the line's own length where it can be afforded: an eighth
    // of the allowance of its own, since the shortening may have spent all of it.
    let confirm_at = stop_at.max(search.nodes().saturating_add(allowance / SHARES));
    while let Some(w) = &walked {
        if w.budget != bound
            || w.moves.len() >= bound as usize
            || search.nodes() >= confirm_at
            || search.aborted().is_some()
        {
            break;
        }
        let caps = (CONFIRM_NODES, CONFIRM_NODES);
        match tighten_line(search, pos, &[], &w.moves, caps, confirm_at) {
            Some(l) if l < bound => {
                debug_assert!(!minimal, "a proof shorter than a minimal length");
                bound = l;
                search.mark_shorter_mate(bound);
                let left = confirm_at.saturating_sub(search.nodes());
                match line::extract_line(search, pos, &[], bound, mode, left) {
                    Some(again) => walked = Some(again),
                    None => break,
                }
            }
            _ => break,
        }
    }
    // The main line whenever the limits allow it: a line that does not realise the bound
    // (a reply was left undecided within the walk's nodes) is walked again with twice the
    // nodes, while no limit set by the caller runs out, up to `WALK_RETRIES` times.
    let mut walk_nodes = left.max(MIN_WALK_NODES);
    for _ in 0..WALK_RETRIES {
        let Some(w) = &walked else { break };
        let main = w.budget == bound && w.moves.len() >= bound as usize;
        // An allowance the caller set is a limit too (the default one is not).
        let spent = shortest_nodes.is_some() && search.nodes() >= confirm_at;
        if main || spent || search.aborted().is_some() {
            break;
        }
        walk_nodes = walk_nodes.saturating_mul(2);
        match line::extract_line(search, pos, &[], bound, mode, walk_nodes) {
            Some(again) => walked = Some(again),
            None => break,
        }
    }
    // Which limit, if any, cut the walk short (named in the status sentence).
    let cut_by = match search.aborted() {
        Some(StopReason::TimeLimit) => Some(LineCut::TimeLimit),
        Some(StopReason::NodeLimit) => Some(LineCut::NodeLimit),
        Some(StopReason::Stopped) => Some(LineCut::Stopped),
        Some(_) => Some(LineCut::OtherLimit),
        None if shortest_nodes.is_some() && search.nodes() >= confirm_at => {
            Some(LineCut::ShortestAllowance)
        }
        None => None,
    };
    // Still short with no limit spent: the longest defence may be a futile interposition
    // the ordinary walk does not show; one more walk shows it where it lasts the budget.
    if let Some(w) = &walked {
        let main = w.budget == bound && w.moves.len() >= bound as usize;
        let spent = shortest_nodes.is_some() && search.nodes() >= confirm_at;
        if !main && !spent && search.aborted().is_none() {
            let mode = mode.showing_futile();
            if let Some(again) = line::extract_line(search, pos, &[], bound, mode, walk_nodes) {
                if again.budget == bound && again.moves.len() >= bound as usize {
                    walked = Some(again);
                }
            }
        }
    }
    match walked {
        Some(w) => match verify_mate(pos, &w.moves) {
            Ok(()) => Outcome::Mate(MateLine::new(w, bound, minimal, cut_by)),
            Err(e) => Outcome::Unknown(StopReason::UnverifiedLine(UnverifiedLine::Rejected(e))),
        },
        None => match search.aborted() {
            Some(reason) => Outcome::Unknown(reason),
            None => Outcome::Unknown(StopReason::UnverifiedLine(UnverifiedLine::NoLine)),
        },
    }
}

/// The answer with no nodes after the first proof (`--shortest-nodes 1`): the first
/// verified mate at once, the first proof's line walked from the table alone. The walks'
/// searches for longer defences are the allowance's work: on the long problems they cost
/// 0.2-0.9 s more, on 寿 60 % of the first proof's time again. (The defences, when asked
/// for, are recorded by those walks only: the caller does not come here then.) `None` when
/// the table no longer holds a line that verifies.
fn first_line_at_once(search: &mut Search<'_>, pos: &Position, len: u16) -> Option<Outcome> {
    let w =
        line::table_line(search, pos, &[], len).filter(|w| verify_mate(pos, &w.moves).is_ok())?;
    if w.moves.len() == 1 {
        // A mate in one the first proof passed over (it found a longer one first): the
        // shortest mate there is. Its line is walked as the main line (the 駒余り comparison
        // among mates in one: a node or so for each check, asked whether it mates at once).
        let mode = WalkMode::main_line(true, false);
        let main = line::extract_line(search, pos, &[], 1, mode, MATE_IN_ONE_WALK)
            .filter(|m| verify_mate(pos, &m.moves).is_ok());
        if let Some(m) = main {
            return Some(Outcome::Mate(MateLine::new(m, 1, true, None)));
        }
    }
    let w = WalkedLine { exact: false, ..w };
    let cut_by = Some(LineCut::ShortestAllowance);
    Some(Outcome::Mate(MateLine::new(w, len, false, cut_by)))
}

/// What [`shorten`] found.
pub(crate) struct Shortened {
    /// The shortest mate length found.
    pub len: u16,
    /// Whether it is proven minimal (no mate two plies sooner).
    pub minimal: bool,
    /// The line last walked for the line tightening, if it ran: a mate, for when the line
    /// cannot be walked again afterwards. Its length can exceed `len` (walked before the
    /// last shortening, or showing a futile interposition past its bound).
    pub line: Option<WalkedLine>,
}

/// The nodes [`shorten`] may spend and how it shares them out, and whether it shortens the
/// solver's own root or answers a checker question.
pub(crate) struct Allowance {
    /// The node count at which all its searches stop.
    pub stop_at: u64,
    /// The nodes each search from the top may take.
    pub share: u64,
    /// For a mate short enough for the ladder ([`BOTTOM_UP_PLIES`]): first the searches
    /// from the top, each allowed this many nodes (at least a share), until one runs out or
    /// finds its shorter mate only after more than a [`TOP_DOWN_STEP_PART`]th of a share;
    /// then the ladder from the bottom. `None`: the ladder at once.
    pub top_down: Option<u64>,
    /// The solver's root, not a checker question: when a search from the top runs out and
    /// the line cannot be tightened, it searches again with twice the share while the
    /// allowance lasts (a question stops there, with its fixed share of nodes), and each
    /// shorter mate found is reported at once in progress ([`Search::mark_shorter_mate`]).
    pub root: bool,
}

/// Shortens a mate in `len` proven from `pos` (an OR node when `or`, on the path `path`) to the
/// shortest one it can find, within `allowance`. `refine`: tighten the line
/// ([`Search::tighten_line`]) when a search from `pos` runs out (OR nodes only).
pub(crate) fn shorten(
    search: &mut Search<'_>,
    pos: &Position,
    path: &[u64],
    kind: NodeKind,
    mut len: u16,
    allowance: Allowance,
    mut refine: bool,
) -> Shortened {
    refine &= kind == NodeKind::Or;
    let may_refine = refine;
    let depth = path.len() as u32;
    let shortest = if kind == NodeKind::Or { 1 } else { 0 };
    let Allowance {
        stop_at,
        mut share,
        top_down,
        root,
    } = allowance;
    let mut minimal = false;
    let mut line = None;
    // The budgets below `refuted` are proven to have no mate.
    let mut refuted = shortest;
    let mut bottom_up = false;
    // The mate is short enough for the ladder.
    let mut short = false;
    // Go up the ladder next (from the top it is too hard, or it was never to be tried).
    let mut ladder = false;
    loop {
        // Once the mate is short enough, the budgets from the bottom up (see
        // `refute_from_bottom`).
        if !short && len <= BOTTOM_UP_PLIES {
            short = true;
            ladder |= top_down.is_none();
        }
        if ladder && !bottom_up {
            bottom_up = true;
            let at = Allowance {
                stop_at,
                share,
                top_down,
                root,
            };
            refute_from_bottom(search, pos, path, kind, &mut len, &mut refuted, &at);
        }
        if len < refuted + 2 {
            minimal = true;
            break;
        }
        // Before the ladder, a search from the top may take as much as the first proof
        // did, and more than a share (see `Allowance::top_down`).
        let trying = short && !bottom_up;
        let this_share = match top_down {
            Some(t) if trying => share.max(t),
            _ => share,
        };
        let cap = stop_at.min(search.nodes().saturating_add(this_share));
        let before_search = search.nodes();
        search.set_path(path);
        let Some(v) = search.solve_until(pos, kind, depth, Plies::new(len - 2), cap) else {
            let going = |s: &Search<'_>| s.nodes() < stop_at && s.aborted().is_none();
            if trying && going(search) {
                ladder = true;
                continue;
            }
            // Too hard from the root: tighten the line from its end, and again while that
            // shortens it (once, until a search from the top finds a shorter mate again). A
            // shorter line is then searched from the root again.
            if refine && going(search) {
                refine = false;
                let before = len;
                while going(search) {
                    let Some(w) = line::quick_line(search, pos, path, len) else {
                        break;
                    };
                    let caps = (TIGHTEN_NODES, TIGHTEN_OTHER_NODES);
                    let tightened = tighten_line(search, pos, path, &w.moves, caps, stop_at);
                    line = Some(w);
                    match tightened {
                        Some(l) if l < len => {
                            len = l;
                            if root {
                                search.mark_shorter_mate(len);
                            }
                        }
                        _ => break,
                    }
                }
                if len < before {
                    continue;
                }
            }
            // Without a shorter line the same search would only stop where it stopped: the main
            // line goes on with twice the share (the search resumes from what the table holds);
            // the checker's questions (`root` false) end here.
            if root && going(search) {
                share = share.saturating_mul(2);
                continue;
            }
            break;
        };
        if search.aborted().is_some() {
            break;
        }
        if v.pn == 0 {
            len = v.len.plies().min(len - 2);
            if root {
                search.mark_shorter_mate(len);
            }
            // A shorter mate found from the top after a tightening: its line is new, and may
            // waste moves where the last one did not.
            refine = may_refine;
            // A shorter mate that was costly to find from the top: the top-down steps are
            // in the hard part of the tree, and the ladder finds the shortest directly.
            ladder |= trying && search.nodes() - before_search > share / TOP_DOWN_STEP_PART;
        } else if v.dn == 0 {
            minimal = !search.depth_limited();
            break;
        }
    }
    Shortened { len, minimal, line }
}

/// Searches the budgets from `refuted` up (1, 3, 5, ... at an OR node), each proven empty
/// before the next, until one has a mate (`len` becomes it: the shortest) or one runs out;
/// `refuted` ends as the least budget not proven empty. Small budgets are cheap to refute,
/// whereas a search within `len - 2` of a short mate can wander into long lines, and a first
/// proof can be far longer than the shortest mate (67 plies, or even 517, for a mate in 23),
/// which shortening two plies at a time from the top takes many searches to reach. The
/// refutation of the budget just below the shortest mate is what a proof of minimality
/// needs, and each costs several times the one before: each may take half of what is left
/// of the allowance (at least a share).
fn refute_from_bottom(
    search: &mut Search<'_>,
    pos: &Position,
    path: &[u64],
    kind: NodeKind,
    len: &mut u16,
    refuted: &mut u16,
    at: &Allowance,
) {
    let depth = path.len() as u32;
    while *refuted < *len {
        let b = *refuted;
        let rest = at.stop_at.saturating_sub(search.nodes());
        let cap = at
            .stop_at
            .min(search.nodes().saturating_add(at.share.max(rest / 2)));
        search.set_path(path);
        let Some(v) = search.solve_until(pos, kind, depth, Plies::new(b), cap) else {
            return;
        };
        if search.aborted().is_some() || search.depth_limited() {
            return;
        }
        if v.pn == 0 {
            *len = v.len.plies().min(b);
            if at.root {
                search.mark_shorter_mate(*len);
            }
            return;
        }
        *refuted = b + 2;
    }
}

/// Tightens a walked line (`moves` from `root`, an attacker node) from its end back to the
/// root, and returns the mate length then proven for the root.
///
/// Each position of the line is proven mated within the length its part of the line now
/// needs: at an attacker node through the line's move or, when a bounded search finds that
/// another check mates at least two plies sooner, through that check (a shortcut beside the
/// line); at a defender node through the line's reply, or,
/// when another reply is longer, as long as the table's proof says. Every length is a
/// proof in the table, so a walk at the root's new length takes the shortcuts, and a
/// defence that was as long as the line before and is now the longest becomes the line
/// of the next pass. `path`: the full keys of the positions before `root`. Returns `None`
/// when the node count reaches `stop_at` or a limit runs out first, or when a position
/// has no proof in the table any more (replaced).
///
/// `caps`: the most nodes of each bounded search, first for a line position and for a check
/// that the line plays at a later attacker ply (a move order that wastes plies, the usual
/// shortcut), then for any other check.
pub(crate) fn tighten_line(
    search: &mut Search<'_>,
    root: &Position,
    path: &[u64],
    moves: &[Move],
    caps: (u64, u64),
    stop_at: u64,
) -> Option<u16> {
    let (cap, other_cap) = caps;
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
    // The attacker's moves at the plies after the current one.
    let mut played_later: KeySet<Move> = KeySet::default();
    for i in (0..n).rev() {
        if search.aborted().is_some() || search.nodes() >= stop_at {
            return None;
        }
        let pos = &positions[i];
        let before = &keys[..base + i];
        let mut t = after + 1;
        let kind = if i % 2 == 0 {
            NodeKind::Or
        } else {
            NodeKind::And
        };
        if kind == NodeKind::Or && t >= 3 {
            let here = &keys[..=base + i];
            for mv in pos.check_moves() {
                if mv == moves[i] {
                    continue;
                }
                let this_cap = if played_later.contains(&mv) {
                    cap
                } else {
                    other_cap
                };
                let mut c = pos.clone();
                c.play_unchecked(mv);
                if let Within::Yes(l) =
                    search.within(&c, NodeKind::And, t - 3, here, Some(this_cap))
                {
                    t = l as i32 + 1;
                    break;
                }
            }
        }
        after = match search.within(pos, kind, t, before, Some(cap)) {
            Within::Yes(l) => l as i32,
            // At a defender node another reply is longer than the line's; at either kind
            // the bounded search may have run out: the proof the table holds.
            _ => match search.recorded_len(pos, before) {
                Plies::Unlimited => return None,
                Plies::Within(len) => len as i32,
            },
        };
        if kind == NodeKind::Or {
            played_later.insert(moves[i]);
        }
    }
    Some(after as u16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::monitor::Limits;
    use crate::solver::tt::Table;

    /// The line tightening on its own, from the end of Microcosmos at ply 1320 of its
    /// published solution (205 plies left): the first proof's line wastes plies in
    /// knight-drop cycles, and tightening it from its end, pass after pass, finds the
    /// shortcuts. (With the default allowance the search from the root now gets there by
    /// itself too, so the solver-level test no longer shows the tightening's work.)
    #[test]
    fn tightening_the_first_line_finds_the_shortcuts() {
        let sfen = include_str!("../../problems/microcosmos.sfen")
            .lines()
            .find(|l| !l.starts_with('#') && !l.trim().is_empty())
            .expect("the problem")
            .split('#')
            .next()
            .unwrap()
            .trim()
            .to_string();
        let mut pos = Position::from_sfen(&sfen).unwrap();
        let solution = include_str!("../../problems/microcosmos_solution.usi");
        let moves: Vec<Move> = solution
            .lines()
            .filter(|l| !l.starts_with('#'))
            .flat_map(str::split_whitespace)
            .map(|m| Move::from_usi(m).unwrap())
            .collect();
        for &mv in &moves[..1320] {
            pos.play_unchecked(mv);
        }
        let table = Table::new(64);
        table.new_search();
        let limits = Limits {
            max_depth: 16_000,
            ..Limits::for_tests()
        };
        let mut search = Search::new(&table, pos.side_to_move(), limits);
        let v = search.solve_node(&pos, NodeKind::Or, 0, Plies::Unlimited);
        assert_eq!(v.pn, 0, "a mate");
        let first = v.len.plies();
        let mut len = first;
        loop {
            let w = line::quick_line(&mut search, &pos, &[], len).expect("a line");
            let caps = (TIGHTEN_NODES, TIGHTEN_OTHER_NODES);
            match tighten_line(&mut search, &pos, &[], &w.moves, caps, u64::MAX) {
                Some(l) if l < len => len = l,
                _ => break,
            }
        }
        assert!(first > 205, "the first proof wastes plies: {first}");
        assert_eq!(len, 205, "tightened from a first proof of {first}");
    }
}
