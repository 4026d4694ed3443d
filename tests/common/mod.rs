//! Shared by the solver tests: the tsume definition with futile interpositions (無駄合),
//! written here again from the rules core only (`legal_moves`, `play_unchecked`, `checkers`,
//! `piece_at`, `hand`, SFEN), never with the library's own futile-interposition code, and
//! brute-force searches built on it.
//!
//! The definition:
//!
//! * At a defender node in check from exactly one checker that is a lance, bishop, rook, horse
//!   or dragon with at least one empty square between it and the king, an **interposition** is
//!   a legal reply (a drop, or a board move of a piece other than the king) onto a square
//!   strictly between the checker and the king.
//! * Its **capture position** Q: play the interposition, then the checker captures on that
//!   square (a rook or bishop promotes if the move starts or ends in the attacker's promotion
//!   zone, otherwise not; a lance never promotes), then the captured piece (unpromoted) leaves
//!   the attacker's hand: a dropped piece goes back to the defender's hand, a moved one (移動合)
//!   is in neither hand (the defender had it on the board, not in hand; the attacker holds it
//!   but never uses it). No Q when that capture is illegal, and none for a moving
//!   interposition whose Q does not end the line (below): such an interposition is counted.
//! * L (mate length, plies) of an attacker node: the least `1 + V(child)` over its checks.
//!   V of a defender node: the greatest value of a reply, `1 + L(child)` for a
//!   non-interposition and `min(V(Q), 1 + L(child))` for an interposition; 0 with no reply.
//! * A defender node **ends the line** (V = 0) when it is checkmate, or when every reply is
//!   an interposition whose Q ends the line in the same sense.
//!
//! * The **saw rule**, on a line ([`Brute::on_line`]): a drop interposition whose Q (the piece
//!   handed back) is a position of the line played so far is left out while the defender node
//!   has a reply that is not one (a repeated interposition, 馬鋸 and 龍鋸). On a line the
//!   search keeps its path, and a position of the path is a repetition, never mated.
//!
//! Otherwise repetitions are not modelled (see `Brute`): they cannot change a result within 5 plies. The
//! 7-ply problems of tests/futile.rs are searched that deep too; their brute-force lengths
//! agree with the solver's, which does treat repetitions (as a failure for the attacker).

#![allow(dead_code)]

pub mod reference;

use std::collections::{HashMap, HashSet};
use tsume::solver::MateLine;
use tsume::{Color, Hand, Move, PieceKind, Position, Square};

/// The squares strictly between `a` and `b` when they share a rank, file or diagonal
/// (stepping one square at a time), else none.
pub fn squares_between(a: Square, b: Square) -> Vec<Square> {
    let (af, ar) = (a.file() as i32, a.rank() as i32);
    let (bf, br) = (b.file() as i32, b.rank() as i32);
    let (df, dr) = (bf - af, br - ar);
    let aligned = df == 0 || dr == 0 || df.abs() == dr.abs();
    if !aligned || (df == 0 && dr == 0) {
        return Vec::new();
    }
    let (sf, sr) = (df.signum(), dr.signum());
    let mut out = Vec::new();
    let (mut f, mut r) = (af + sf, ar + sr);
    while (f, r) != (bf, br) {
        out.push(Square::new(f as u8, r as u8).expect("on the board"));
        f += sf;
        r += sr;
    }
    out
}

/// A single check from a distance: the checker and the empty squares between it and the king.
#[derive(Clone, Debug)]
pub struct DistantCheck {
    pub checker: Square,
    pub between: Vec<Square>,
}

/// The distant check the defender (side to move) is under, if it is one.
pub fn distant_check(pos: &Position) -> Option<DistantCheck> {
    let checkers: Vec<Square> = pos.checkers().iter().collect();
    if checkers.len() != 1 {
        return None;
    }
    let checker = checkers[0];
    let kind = pos.piece_at(checker)?.kind();
    if !matches!(
        kind,
        PieceKind::Lance
            | PieceKind::Bishop
            | PieceKind::Rook
            | PieceKind::Horse
            | PieceKind::Dragon
    ) {
        return None;
    }
    let king = pos.king_square(pos.side_to_move())?;
    let between = squares_between(checker, king);
    if between.is_empty() || between.iter().any(|&s| pos.piece_at(s).is_some()) {
        return None;
    }
    Some(DistantCheck { checker, between })
}

/// Whether reply `mv` in `pos` is an interposition against the distant check `dc`.
pub fn is_interposition(pos: &Position, dc: &DistantCheck, mv: Move) -> bool {
    if !dc.between.contains(&mv.to()) {
        return false;
    }
    match mv.from() {
        None => true,
        Some(from) => pos
            .piece_at(from)
            .is_some_and(|p| p.kind() != PieceKind::King),
    }
}

/// Whether `sq` is in `color`'s promotion zone (the three ranks farthest from its camp).
fn in_zone(sq: Square, color: Color) -> bool {
    match color {
        Color::Black => sq.rank() <= 3,
        Color::White => sq.rank() >= 7,
    }
}

/// The SFEN hand field for two hands.
fn hand_field(black: Hand, white: Hand) -> String {
    let mut s = String::new();
    for (color, hand) in [(Color::Black, black), (Color::White, white)] {
        for (kind, n) in hand.iter() {
            let letter = kind.sfen_letter();
            let letter = match color {
                Color::Black => letter.to_ascii_uppercase(),
                Color::White => letter.to_ascii_lowercase(),
            };
            for _ in 0..n {
                s.push(letter);
            }
        }
    }
    if s.is_empty() { "-".into() } else { s }
}

/// `pos` with its hands replaced (through SFEN).
pub fn with_hands(pos: &Position, black: Hand, white: Hand) -> Position {
    let sfen = pos.to_sfen();
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let s = format!("{} {} {} {}", f[0], f[1], hand_field(black, white), f[3]);
    Position::from_sfen(&s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// The capture position Q of the interposition `mv` in `pos`, or `None` when the checker
/// cannot legally capture. A dropped piece goes back to the defender's hand; a moved one
/// (移動合) is in neither hand, and has a Q only when that Q ends the line.
pub fn capture_position(pos: &Position, dc: &DistantCheck, mv: Move) -> Option<Position> {
    let defender = pos.side_to_move();
    let attacker = defender.flip();
    let interposed = match mv.from() {
        None => mv.drop_kind()?,
        Some(from) => pos.piece_at(from)?.kind().unpromote(),
    };
    let checker_kind = pos.piece_at(dc.checker)?.kind();
    let to = mv.to();
    let promote = matches!(checker_kind, PieceKind::Rook | PieceKind::Bishop)
        && (in_zone(dc.checker, attacker) || in_zone(to, attacker));
    let capture = Move::new_normal(dc.checker, to, promote);
    let mut q = pos.clone();
    q.play_unchecked(mv);
    if !q.legal_moves().contains(&capture) {
        return None;
    }
    q.play_unchecked(capture);
    let mut att = q.hand(attacker);
    let mut def = q.hand(defender);
    att.remove(interposed);
    if mv.from().is_none() {
        def.add(interposed);
    }
    let (black, white) = match attacker {
        Color::Black => (att, def),
        Color::White => (def, att),
    };
    let q = with_hands(&q, black, white);
    // A moving interposition is futile only when its capture position ends the line.
    if mv.from().is_some() && !ends_line(&q) {
        return None;
    }
    Some(q)
}

/// Whether the defender's position `pos` ends a tsume line: checkmate, or every reply an
/// interposition whose capture position ends the line in the same sense.
pub fn ends_line(pos: &Position) -> bool {
    ends_line_memo(pos, &mut HashMap::new())
}

/// [`ends_line`], remembering the capture positions already judged (the drops of different
/// pieces on one square share theirs).
fn ends_line_memo(pos: &Position, memo: &mut HashMap<u64, bool>) -> bool {
    if let Some(&r) = memo.get(&pos.key()) {
        return r;
    }
    let r = pos.in_check()
        && match pos.legal_moves().as_slice() {
            [] => true,
            replies => distant_check(pos).is_some_and(|dc| {
                replies.iter().all(|&mv| {
                    is_interposition(pos, &dc, mv)
                        && capture_position(pos, &dc, mv).is_some_and(|q| ends_line_memo(&q, memo))
                })
            }),
        };
    memo.insert(pos.key(), r);
    r
}

/// Exhaustive minimax over the definition, with a memo. `futile`: the definition above;
/// otherwise every interposition is counted (the plain mate length). Returns `None` (unknown)
/// once more than `limit` nodes were visited.
///
/// Repetitions are ignored, and the memo is keyed by position alone. A position can come back
/// 4 plies later at the earliest, so in a search of at most 5 plies only the root can come
/// back (at ply 4, with 1 ply left) or the position after the first move (at ply 5, as a
/// final position): either matters only if the root has a mate in 1, which is found first as
/// lengths are tried shortest first. Capture positions are not on the game's path at all.
pub struct Brute {
    pub futile: bool,
    pub nodes: u64,
    pub limit: u64,
    /// Whether some defender node visited had an interposition among its replies.
    pub saw_interposition: bool,
    /// Positions (full keys) treated as not mated wherever they are reached, capture
    /// positions included: the line's positions, for a second solution that keeps clear of
    /// them (the checker's 余詰). The memo stays keyed by position, since this does not
    /// depend on the ply.
    pub excluded: HashSet<u64>,
    /// Whether the search keeps its path ([`Brute::on_line`]): a position on it is a
    /// repetition, never mated.
    on_line: bool,
    /// The saw rule (repeated interpositions, see [`Brute::on_line`]).
    saw: bool,
    /// The full keys of the line's positions so far (the problem's start first), and an
    /// order-independent hash of them for the memo.
    path: Vec<u64>,
    path_hash: u64,
    memo: HashMap<(u64, bool, u32, u64), bool>,
    aborted: bool,
}

impl Brute {
    pub fn new(futile: bool, limit: u64) -> Brute {
        Brute {
            futile,
            nodes: 0,
            limit,
            saw_interposition: false,
            excluded: HashSet::new(),
            on_line: false,
            saw: false,
            path: Vec::new(),
            path_hash: 0,
            memo: HashMap::new(),
            aborted: false,
        }
    }

    /// Searches positions reached by `line` (the positions before them, the problem's start
    /// first), keeping the path: a position of the line played so far (`line` and the
    /// search's own path) is a repetition and never mated, and with `saw` the saw rule holds:
    /// a drop interposition whose capture position (the piece handed back) is a position of
    /// the line is left out while the defender node has another reply. The memo is then
    /// keyed by the path too.
    pub fn on_line(mut self, line: &[Position], saw: bool) -> Brute {
        self.on_line = true;
        self.saw = saw;
        for p in line {
            self.push(p.key());
        }
        self
    }

    /// Whether `pos` repeats a position of the path (only kept [`Brute::on_line`]).
    fn repeats(&self, pos: &Position) -> bool {
        self.on_line && self.path.contains(&pos.key())
    }

    fn mix(k: u64) -> u64 {
        let k = (k ^ (k >> 31)).wrapping_mul(0x7fb5_d329_728e_a185);
        k ^ (k >> 27)
    }

    fn push(&mut self, k: u64) {
        self.path.push(k);
        self.path_hash ^= Self::mix(k);
    }

    fn pop(&mut self) {
        let k = self.path.pop().expect("pushed");
        self.path_hash ^= Self::mix(k);
    }

    /// Whether reply `mv` is a repeated interposition on the current path: a drop whose
    /// capture position is one of the path's positions.
    fn repeats_path(&self, pos: &Position, dc: &DistantCheck, mv: Move) -> bool {
        self.saw
            && mv.from().is_none()
            && is_interposition(pos, dc, mv)
            && capture_position(pos, dc, mv).is_some_and(|q| self.path.contains(&q.key()))
    }

    /// The shortest mate within `max` plies (`Some(None)`: none; `None`: too big to tell).
    pub fn shortest(&mut self, pos: &Position, max: u32) -> Option<Option<u32>> {
        for n in (1..=max).step_by(2) {
            let r = self.attacker_within(pos, n);
            if self.aborted {
                return None;
            }
            if r {
                return Some(Some(n));
            }
        }
        Some(None)
    }

    /// Whether the attacker (to move) mates within `n` plies.
    pub fn attacker_within(&mut self, pos: &Position, n: u32) -> bool {
        if n == 0 || self.aborted || self.excluded.contains(&pos.key()) || self.repeats(pos) {
            return false;
        }
        let k = (pos.key(), true, n, self.path_hash);
        if let Some(&r) = self.memo.get(&k) {
            return r;
        }
        self.nodes += 1;
        if self.nodes > self.limit {
            self.aborted = true;
            return false;
        }
        let mut r = false;
        if self.on_line {
            self.push(pos.key());
        }
        for mv in pos.legal_moves() {
            let mut c = pos.clone();
            c.play_unchecked(mv);
            if c.in_check() && self.defender_within(&c, n - 1) {
                r = true;
                break;
            }
        }
        if self.on_line {
            self.pop();
        }
        if !self.aborted {
            self.memo.insert(k, r);
        }
        r
    }

    /// Whether the defender (to move, in check) is mated within `n` plies: the value of the
    /// node is at most `n`.
    pub fn defender_within(&mut self, pos: &Position, n: u32) -> bool {
        if self.aborted || self.excluded.contains(&pos.key()) || self.repeats(pos) {
            return false;
        }
        let k = (pos.key(), false, n, self.path_hash);
        if let Some(&r) = self.memo.get(&k) {
            return r;
        }
        self.nodes += 1;
        let mut replies: Vec<Move> = pos.legal_moves().to_vec();
        if replies.is_empty() {
            return true;
        }
        let dc = distant_check(pos);
        if let Some(dc) = &dc {
            if replies.iter().any(|&mv| is_interposition(pos, dc, mv)) {
                self.saw_interposition = true;
            }
            // The saw rule: repeated interpositions are worth nothing beside another reply.
            let kept: Vec<Move> = replies
                .iter()
                .copied()
                .filter(|&mv| !self.repeats_path(pos, dc, mv))
                .collect();
            if !kept.is_empty() {
                replies = kept;
            }
        }
        if self.on_line {
            self.push(pos.key());
        }
        let r = self.defender_replies_within(pos, &replies, dc.as_ref(), n);
        if self.on_line {
            self.pop();
        }
        if !self.aborted {
            self.memo.insert(k, r);
        }
        r
    }

    /// Whether every reply of `replies` at the defender node `pos` is refuted within `n`.
    fn defender_replies_within(
        &mut self,
        pos: &Position,
        replies: &[Move],
        dc: Option<&DistantCheck>,
        n: u32,
    ) -> bool {
        let mut r = true;
        for &mv in replies {
            let mut ok = false;
            if n >= 2 {
                let mut c = pos.clone();
                c.play_unchecked(mv);
                ok = self.attacker_within(&c, n - 1);
            }
            if !ok && self.futile {
                if let Some(dc) = dc {
                    if is_interposition(pos, dc, mv) {
                        if let Some(q) = capture_position(pos, dc, mv) {
                            ok = self.defender_within(&q, n);
                        }
                    }
                }
            }
            if !ok {
                r = false;
                break;
            }
        }
        r
    }

    /// The value of the defender node `pos` (in check) if at most `max` plies.
    pub fn defender_value(&mut self, pos: &Position, max: u32) -> Option<Option<u32>> {
        for n in (0..=max).step_by(2) {
            let r = self.defender_within(pos, n);
            if self.aborted {
                return None;
            }
            if r {
                return Some(Some(n));
            }
        }
        Some(None)
    }
}

/// Checks a mating line with the rules core only: every move legal (by `check_legality`,
/// `is_legal` and the generated move list), the defender in check before each of its moves,
/// every attacker move a check, odd length, and the final position ends the line (checkmate,
/// or every reply a futile interposition per the definition above).
pub fn check_line(root: &Position, moves: &[Move]) -> Result<(), String> {
    if moves.is_empty() {
        return Err("empty line".into());
    }
    if moves.len() % 2 == 0 {
        return Err(format!("even length {}", moves.len()));
    }
    let mut pos = root.clone();
    for (i, &mv) in moves.iter().enumerate() {
        let ply = i + 1;
        if let Err(e) = pos.check_legality(mv) {
            return Err(format!(
                "ply {ply} {mv}: illegal ({e:?}) in {}",
                pos.to_sfen()
            ));
        }
        if !pos.is_legal(mv) {
            return Err(format!(
                "ply {ply} {mv}: check_legality accepts it but is_legal does not"
            ));
        }
        if !pos.legal_moves().contains(&mv) {
            return Err(format!(
                "ply {ply} {mv}: not among the generated legal moves"
            ));
        }
        if ply % 2 == 0 && !pos.in_check() {
            return Err(format!("ply {ply}: the defender moves while not in check"));
        }
        pos.play_unchecked(mv);
        if ply % 2 == 1 && !pos.in_check() {
            return Err(format!("ply {ply} {mv}: attacker move does not give check"));
        }
    }
    if !ends_line(&pos) {
        let replies = pos.legal_moves();
        return Err(format!(
            "final position is neither mate nor all futile interpositions: {} legal replies \
             (e.g. {}) in {}",
            replies.len(),
            replies.first().map(|m| m.to_string()).unwrap_or_default(),
            pos.to_sfen()
        ));
    }
    Ok(())
}

/// The moves in USI, space-separated.
pub fn usi(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The attacker's hand after playing `moves` from `root`.
pub fn hand_after(root: &Position, moves: &[Move]) -> Hand {
    let attacker = root.side_to_move();
    let mut p = root.clone();
    for &mv in moves {
        p.play_unchecked(mv);
    }
    p.hand(attacker)
}

/// Checks the defender's choices recorded with `SolverConfig::defences` for a mating line
/// from `root`: one choice per defender ply, listing every legal reply once; the reply played
/// is not flagged futile and its length is what is left of the line; no reply is longer;
/// `hand_left` is the attacker's hand after the line. For lines of at most `brute_plies`
/// plies each reply is also judged by the brute force: a length flagged exact is the reply's
/// value, any length is at least it, and a reply flagged futile is an interposition whose
/// capture position is mated within its length. Returns the failures.
pub fn check_defences(root: &Position, line: &MateLine, brute_plies: usize) -> Vec<String> {
    let mut failures = Vec::new();
    let n = line.line_len() as usize;
    if line.hand_left() != hand_after(root, line.moves()) {
        failures.push(format!("hand_left {:?}", line.hand_left()));
    }
    let plies: Vec<u32> = line.defences().iter().map(|d| d.ply).collect();
    let expected: Vec<u32> = (2..n as u32).step_by(2).collect();
    if plies != expected {
        failures.push(format!(
            "DefenderChoice::ply: {plies:?}, expected the 1-based plies of the defender's \
             moves, {expected:?}"
        ));
        if plies.len() != expected.len() {
            return failures;
        }
    }
    let mut brute = Brute::new(true, 5_000_000);
    let mut at = root.clone();
    for (i, &mv) in line.moves().iter().enumerate() {
        if i % 2 == 1 {
            let choice = &line.defences()[i / 2];
            let ply = i + 1;
            let left = (n - ply + 1) as u32;
            let mut listed: Vec<Move> = choice.replies.iter().map(|a| a.mv).collect();
            let mut legal: Vec<Move> = at.legal_moves().iter().copied().collect();
            listed.sort_unstable();
            legal.sort_unstable();
            if listed != legal {
                failures.push(format!("ply {ply}: replies {listed:?}, legal {legal:?}"));
            }
            match choice.replies.iter().find(|a| a.mv == mv) {
                None => failures.push(format!("ply {ply}: the reply played, {mv}, is not listed")),
                Some(played) => {
                    if played.length != left || played.futile {
                        failures.push(format!("ply {ply}: played {played:?}, {left} plies left"));
                    }
                }
            }
            for a in &choice.replies {
                if a.length > left {
                    failures.push(format!("ply {ply}: {a:?} is longer than the line's {left}"));
                }
            }
            if n <= brute_plies {
                let dc = distant_check(&at);
                for a in &choice.replies {
                    let mut child = at.clone();
                    child.play_unchecked(a.mv);
                    // The brute force gives up (None) on too big a tree: skip the reply.
                    let Some(counted) = brute.shortest(&child, left + 1) else {
                        continue;
                    };
                    let counted = counted.map(|l| l + 1);
                    let mut by_capture = None;
                    if let Some(d) = &dc {
                        if is_interposition(&at, d, a.mv) {
                            if let Some(q) = capture_position(&at, d, a.mv) {
                                let Some(v) = brute.defender_value(&q, left + 2) else {
                                    continue;
                                };
                                by_capture = v;
                            }
                        }
                    }
                    let value = match (counted, by_capture) {
                        (Some(c), Some(q)) => Some(c.min(q)),
                        (c, q) => c.or(q),
                    };
                    let ok = value.is_some_and(|v| a.length >= v && (!a.exact || a.length == v));
                    if !ok {
                        failures.push(format!(
                            "ply {ply}: {a:?}, brute force value {value:?} (counted {counted:?}, \
                             by capture {by_capture:?})"
                        ));
                    }
                    if a.futile && by_capture.is_none_or(|q| q > a.length) {
                        failures.push(format!(
                            "ply {ply}: {a:?} flagged futile, capture position {by_capture:?}"
                        ));
                    }
                }
            }
        }
        at.play_unchecked(mv);
    }
    failures
}

/// Every main line of `len` plies from `root` by the brute force, the 駒余り tie-break left
/// out: each attacker move mates in exactly the plies left, and each defender reply is a
/// longest one that is shown counted: its own child is mated in exactly the plies left after
/// it, and it is not futile. An interposition whose capture position is mated sooner is
/// worth less than that (not a longest reply); one whose capture position is mated in as many
/// plies is futile as well (as long, but refuted without using the piece), and is shown only
/// when no other reply is as long.
pub fn main_lines(root: &Position, len: u32) -> Vec<Vec<Move>> {
    let mut brute = Brute::new(true, 50_000_000);
    let mut out = Vec::new();
    let mut line = Vec::new();
    lines_from(&mut brute, root, len, true, &mut line, &mut out);
    out
}

fn exactly(brute: &mut Brute, pos: &Position, n: u32, attacker: bool) -> bool {
    if attacker {
        brute.attacker_within(pos, n) && (n < 2 || !brute.attacker_within(pos, n - 2))
    } else {
        brute.defender_within(pos, n) && (n < 2 || !brute.defender_within(pos, n - 2))
    }
}

fn lines_from(
    brute: &mut Brute,
    pos: &Position,
    n: u32,
    attacker: bool,
    line: &mut Vec<Move>,
    out: &mut Vec<Vec<Move>>,
) {
    if !attacker && n == 0 {
        out.push(line.clone());
        return;
    }
    let dc = if attacker { None } else { distant_check(pos) };
    // (move, child, futile though as long)
    let mut next: Vec<(Move, Position, bool)> = Vec::new();
    for mv in pos.legal_moves() {
        let mut c = pos.clone();
        c.play_unchecked(mv);
        if attacker {
            if c.in_check() && exactly(brute, &c, n - 1, false) {
                next.push((mv, c, false));
            }
            continue;
        }
        if n < 2 || !exactly(brute, &c, n - 1, true) {
            continue;
        }
        let q = dc
            .as_ref()
            .filter(|d| is_interposition(pos, d, mv))
            .and_then(|d| capture_position(pos, d, mv));
        match q {
            Some(q) if brute.defender_within(&q, n - 2) => {} // worth less than n
            Some(q) if brute.defender_within(&q, n) => next.push((mv, c, true)),
            _ => next.push((mv, c, false)),
        }
    }
    if next.iter().any(|(_, _, tie)| !tie) {
        next.retain(|(_, _, tie)| !tie);
    }
    for (mv, c, _) in next {
        line.push(mv);
        lines_from(brute, &c, n - 1, !attacker, line, out);
        line.pop();
    }
}

/// One SFEN rank from its nine cells, file 9 first.
pub fn encode_rank(cells: &[Option<String>]) -> String {
    let mut out = String::new();
    let mut empty = 0;
    for c in cells {
        match c {
            None => empty += 1,
            Some(p) => {
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push_str(p);
            }
        }
    }
    if empty > 0 {
        out.push_str(&empty.to_string());
    }
    out
}

fn swap_case(c: char) -> char {
    if c.is_ascii_uppercase() {
        c.to_ascii_lowercase()
    } else {
        c.to_ascii_uppercase()
    }
}

/// The same problem with the colours exchanged: the board turned through 180 degrees, every
/// piece and hand given to the other side, the other side to move.
pub fn flip_sfen(sfen: &str) -> String {
    let mut fields = sfen.split_whitespace();
    let board = fields.next().expect("a board");
    let side = fields.next().expect("a side to move");
    let hands = fields.next().unwrap_or("-");
    let ranks: Vec<String> = board
        .split('/')
        .rev()
        .map(|rank| {
            let mut cells: Vec<Option<String>> = Vec::new();
            let mut promoted = false;
            for ch in rank.chars() {
                if let Some(d) = ch.to_digit(10) {
                    cells.extend((0..d).map(|_| None));
                } else if ch == '+' {
                    promoted = true;
                } else {
                    let plus = if promoted { "+" } else { "" };
                    cells.push(Some(format!("{plus}{}", swap_case(ch))));
                    promoted = false;
                }
            }
            cells.reverse();
            encode_rank(&cells)
        })
        .collect();
    let side = if side == "b" { "w" } else { "b" };
    let hands: String = hands.chars().map(swap_case).collect();
    format!("{} {side} {hands} 1", ranks.join("/"))
}
