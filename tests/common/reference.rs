//! An independent, slow reference model of the rules (a plain array board, every rule
//! written again from the shogi rules, none of the library's code) and a small deterministic
//! RNG: the oracle the property tests compare the library's move generation, legality and
//! SFEN validation with (tests/invariants.rs).

use std::collections::HashMap;
use tsume::{Color, Move, PieceKind, Position, Square};

// =============================================================================================
// A small deterministic RNG (splitmix64).
// =============================================================================================

#[derive(Clone)]
pub struct Rng(pub u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x0123_4567_89ab_cdef)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }

    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

// =============================================================================================
// An independent, slow reference model of the rules: a plain array board.
// =============================================================================================

pub const ALL_KINDS: [PieceKind; 14] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Silver,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Gold,
    PieceKind::King,
    PieceKind::ProPawn,
    PieceKind::ProLance,
    PieceKind::ProKnight,
    PieceKind::ProSilver,
    PieceKind::Horse,
    PieceKind::Dragon,
];

/// Kinds that can be held in hand, in the order SFEN writes them.
pub const HAND_SFEN_ORDER: [PieceKind; 7] = [
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Gold,
    PieceKind::Silver,
    PieceKind::Knight,
    PieceKind::Lance,
    PieceKind::Pawn,
];

pub fn hand_slot(k: PieceKind) -> usize {
    match k {
        PieceKind::Pawn => 0,
        PieceKind::Lance => 1,
        PieceKind::Knight => 2,
        PieceKind::Silver => 3,
        PieceKind::Bishop => 4,
        PieceKind::Rook => 5,
        PieceKind::Gold => 6,
        _ => panic!("not a hand kind: {k:?}"),
    }
}

/// The unpromoted kind.
pub fn base_of(k: PieceKind) -> PieceKind {
    match k {
        PieceKind::ProPawn => PieceKind::Pawn,
        PieceKind::ProLance => PieceKind::Lance,
        PieceKind::ProKnight => PieceKind::Knight,
        PieceKind::ProSilver => PieceKind::Silver,
        PieceKind::Horse => PieceKind::Bishop,
        PieceKind::Dragon => PieceKind::Rook,
        other => other,
    }
}

/// The promoted kind, for kinds that promote.
pub fn promoted_of(k: PieceKind) -> Option<PieceKind> {
    match k {
        PieceKind::Pawn => Some(PieceKind::ProPawn),
        PieceKind::Lance => Some(PieceKind::ProLance),
        PieceKind::Knight => Some(PieceKind::ProKnight),
        PieceKind::Silver => Some(PieceKind::ProSilver),
        PieceKind::Bishop => Some(PieceKind::Horse),
        PieceKind::Rook => Some(PieceKind::Dragon),
        _ => None,
    }
}

pub fn is_promoted(k: PieceKind) -> bool {
    base_of(k) != k
}

pub fn full_set(base: PieceKind) -> u32 {
    match base {
        PieceKind::Pawn => 18,
        PieceKind::Bishop | PieceKind::Rook | PieceKind::King => 2,
        _ => 4,
    }
}

pub fn letter(base: PieceKind) -> char {
    match base {
        PieceKind::Pawn => 'P',
        PieceKind::Lance => 'L',
        PieceKind::Knight => 'N',
        PieceKind::Silver => 'S',
        PieceKind::Bishop => 'B',
        PieceKind::Rook => 'R',
        PieceKind::Gold => 'G',
        PieceKind::King => 'K',
        other => panic!("not a base kind: {other:?}"),
    }
}

pub fn piece_token(c: Color, k: PieceKind) -> String {
    let mut s = String::new();
    if is_promoted(k) {
        s.push('+');
    }
    let l = letter(base_of(k));
    s.push(if c == Color::Black {
        l
    } else {
        l.to_ascii_lowercase()
    });
    s
}

/// Rank counted from `c`'s side: 1 is the farthest rank.
pub fn rel_rank(c: Color, rank: i8) -> i8 {
    if c == Color::Black { rank } else { 10 - rank }
}

pub fn in_zone(c: Color, rank: i8) -> bool {
    rel_rank(c, rank) <= 3
}

/// Whether a piece of `c` and `k` on `rank` could never move again.
pub fn is_dead(c: Color, k: PieceKind, rank: i8) -> bool {
    let r = rel_rank(c, rank);
    match k {
        PieceKind::Pawn | PieceKind::Lance => r <= 1,
        PieceKind::Knight => r <= 2,
        _ => false,
    }
}

pub const ORTH: &[(i8, i8)] = &[(0, -1), (0, 1), (-1, 0), (1, 0)];
pub const DIAG: &[(i8, i8)] = &[(-1, -1), (1, -1), (-1, 1), (1, 1)];
pub const GOLD_STEPS: &[(i8, i8)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
pub const SILVER_STEPS: &[(i8, i8)] = &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
pub const KING_STEPS: &[(i8, i8)] = &[
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// A list of directions (file delta, rank delta).
pub type Dirs = &'static [(i8, i8)];

/// Step and slide directions of a kind for Black, as (file delta, rank delta); rank delta -1
/// is forward for Black.
pub fn movement(k: PieceKind) -> (Dirs, Dirs) {
    match k {
        PieceKind::Pawn => (&[(0, -1)], &[]),
        PieceKind::Lance => (&[], &[(0, -1)]),
        PieceKind::Knight => (&[(-1, -2), (1, -2)], &[]),
        PieceKind::Silver => (SILVER_STEPS, &[]),
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => (GOLD_STEPS, &[]),
        PieceKind::King => (KING_STEPS, &[]),
        PieceKind::Bishop => (&[], DIAG),
        PieceKind::Rook => (&[], ORTH),
        PieceKind::Horse => (ORTH, DIAG),
        PieceKind::Dragon => (DIAG, ORTH),
    }
}

/// A direction as seen by `c` (White's pieces are Black's turned by 180 degrees).
pub fn orient(c: Color, d: (i8, i8)) -> (i8, i8) {
    if c == Color::Black { d } else { (-d.0, -d.1) }
}

pub fn on_board(f: i8, r: i8) -> bool {
    (1..=9).contains(&f) && (1..=9).contains(&r)
}

pub fn sq(f: i8, r: i8) -> Square {
    Square::new(f as u8, r as u8).expect("square on the board")
}

/// A move of the reference model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NMove {
    Board {
        from: (i8, i8),
        to: (i8, i8),
        promote: bool,
    },
    Drop {
        kind: PieceKind,
        to: (i8, i8),
    },
}

impl NMove {
    pub fn to_move(self) -> Move {
        match self {
            NMove::Board { from, to, promote } => {
                Move::new_normal(sq(from.0, from.1), sq(to.0, to.1), promote)
            }
            NMove::Drop { kind, to } => Move::new_drop(kind, sq(to.0, to.1)),
        }
    }
}

/// The reference position: `board[file][rank]` with files and ranks 1-9.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Naive {
    pub board: [[Option<(Color, PieceKind)>; 10]; 10],
    pub hands: [[u32; 7]; 2],
    pub side: Color,
}

impl Naive {
    pub fn empty(side: Color) -> Naive {
        Naive {
            board: [[None; 10]; 10],
            hands: [[0; 7]; 2],
            side,
        }
    }

    pub fn from_position(pos: &Position) -> Naive {
        let mut n = Naive::empty(pos.side_to_move());
        for f in 1..=9 {
            for r in 1..=9 {
                n.board[f as usize][r as usize] =
                    pos.piece_at(sq(f, r)).map(|p| (p.color(), p.kind()));
            }
        }
        for c in Color::ALL {
            for k in HAND_SFEN_ORDER {
                n.hands[c as usize][hand_slot(k)] = pos.hand(c).count(k) as u32;
            }
        }
        n
    }

    pub fn at(&self, f: i8, r: i8) -> Option<(Color, PieceKind)> {
        self.board[f as usize][r as usize]
    }

    pub fn set(&mut self, f: i8, r: i8, p: Option<(Color, PieceKind)>) {
        self.board[f as usize][r as usize] = p;
    }

    pub fn squares() -> impl Iterator<Item = (i8, i8)> {
        (1..=9i8).flat_map(|f| (1..=9i8).map(move |r| (f, r)))
    }

    pub fn king(&self, c: Color) -> Option<(i8, i8)> {
        Naive::squares().find(|&(f, r)| self.at(f, r) == Some((c, PieceKind::King)))
    }

    /// Canonical SFEN, written independently of the library.
    pub fn sfen(&self, move_number: Option<u32>) -> String {
        let mut s = String::new();
        for r in 1..=9 {
            let mut empty = 0;
            for f in (1..=9).rev() {
                match self.at(f, r) {
                    None => empty += 1,
                    Some((c, k)) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push_str(&piece_token(c, k));
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if r < 9 {
                s.push('/');
            }
        }
        s.push_str(if self.side == Color::Black {
            " b "
        } else {
            " w "
        });
        let mut hands = String::new();
        for c in Color::ALL {
            for k in HAND_SFEN_ORDER {
                let n = self.hands[c as usize][hand_slot(k)];
                if n > 1 {
                    hands.push_str(&n.to_string());
                }
                if n > 0 {
                    let l = letter(k);
                    hands.push(if c == Color::Black {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    });
                }
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        s.push_str(&hands);
        if let Some(m) = move_number {
            s.push(' ');
            s.push_str(&m.to_string());
        }
        s
    }

    /// The pieces of `by` attacking square (f, r).
    pub fn attackers(&self, f: i8, r: i8, by: Color) -> Vec<(i8, i8)> {
        let mut out = Vec::new();
        for &u in KING_STEPS {
            let (mut x, mut y) = (f + u.0, r + u.1);
            let mut dist = 1;
            while on_board(x, y) {
                if let Some((c, k)) = self.at(x, y) {
                    if c == by {
                        // The piece would move in direction -u to reach (f, r).
                        let d = orient(by, (-u.0, -u.1));
                        let (steps, slides) = movement(k);
                        if (dist == 1 && steps.contains(&d)) || slides.contains(&d) {
                            out.push((x, y));
                        }
                    }
                    break;
                }
                x += u.0;
                y += u.1;
                dist += 1;
            }
        }
        for &s in &[(-1i8, -2i8), (1, -2)] {
            let s = orient(by, s);
            let (x, y) = (f - s.0, r - s.1);
            if on_board(x, y) && self.at(x, y) == Some((by, PieceKind::Knight)) {
                out.push((x, y));
            }
        }
        out
    }

    pub fn attacked(&self, f: i8, r: i8, by: Color) -> bool {
        !self.attackers(f, r, by).is_empty()
    }

    pub fn in_check(&self, c: Color) -> bool {
        match self.king(c) {
            Some((f, r)) => self.attacked(f, r, c.flip()),
            None => false,
        }
    }

    /// Checks the static rules a position must satisfy.
    pub fn validate(&self) -> Result<(), String> {
        let mut counts: HashMap<PieceKind, u32> = HashMap::new();
        let mut kings = [0u32; 2];
        for (f, r) in Naive::squares() {
            if let Some((c, k)) = self.at(f, r) {
                *counts.entry(base_of(k)).or_default() += 1;
                if k == PieceKind::King {
                    kings[c as usize] += 1;
                }
                if is_dead(c, k, r) {
                    return Err(format!("dead piece {} on {f}{r}", piece_token(c, k)));
                }
            }
        }
        for c in Color::ALL {
            for k in HAND_SFEN_ORDER {
                *counts.entry(k).or_default() += self.hands[c as usize][hand_slot(k)];
            }
        }
        for (k, n) in &counts {
            if *n > full_set(*k) {
                return Err(format!("{n} pieces of kind {k:?}"));
            }
        }
        if kings[0] > 1 || kings[1] > 1 {
            return Err("two kings of one colour".into());
        }
        if kings == [0, 0] {
            return Err("no king".into());
        }
        for c in Color::ALL {
            for f in 1..=9 {
                let pawns = (1..=9)
                    .filter(|&r| self.at(f, r) == Some((c, PieceKind::Pawn)))
                    .count();
                if pawns > 1 {
                    return Err(format!("nifu on file {f}"));
                }
            }
        }
        if self.in_check(self.side.flip()) {
            return Err("the side not to move is in check".into());
        }
        Ok(())
    }

    /// Plays a (pseudo-legal) move.
    pub fn apply(&mut self, m: NMove) {
        let us = self.side;
        match m {
            NMove::Drop { kind, to } => {
                self.hands[us as usize][hand_slot(kind)] -= 1;
                self.set(to.0, to.1, Some((us, kind)));
            }
            NMove::Board { from, to, promote } => {
                let (c, k) = self.at(from.0, from.1).expect("a piece to move");
                if let Some((_, captured)) = self.at(to.0, to.1) {
                    self.hands[us as usize][hand_slot(base_of(captured))] += 1;
                }
                let k = if promote {
                    promoted_of(k).expect("promotable")
                } else {
                    k
                };
                self.set(from.0, from.1, None);
                self.set(to.0, to.1, Some((c, k)));
            }
        }
        self.side = us.flip();
    }

    /// Moves obeying movement, promotion and drop rules, ignoring king safety and
    /// drop-pawn mate.
    pub fn pseudo_moves(&self) -> Vec<NMove> {
        let us = self.side;
        let mut out = Vec::new();
        for (f, r) in Naive::squares() {
            let Some((c, k)) = self.at(f, r) else {
                continue;
            };
            if c != us {
                continue;
            }
            let mut targets = Vec::new();
            let (steps, slides) = movement(k);
            for &d in steps {
                let d = orient(us, d);
                let (x, y) = (f + d.0, r + d.1);
                if on_board(x, y) && self.at(x, y).map(|p| p.0) != Some(us) {
                    targets.push((x, y));
                }
            }
            for &d in slides {
                let d = orient(us, d);
                let (mut x, mut y) = (f + d.0, r + d.1);
                while on_board(x, y) {
                    match self.at(x, y) {
                        None => targets.push((x, y)),
                        Some((c2, _)) => {
                            if c2 != us {
                                targets.push((x, y));
                            }
                            break;
                        }
                    }
                    x += d.0;
                    y += d.1;
                }
            }
            for to in targets {
                if promoted_of(k).is_some() && (in_zone(us, r) || in_zone(us, to.1)) {
                    out.push(NMove::Board {
                        from: (f, r),
                        to,
                        promote: true,
                    });
                }
                if !is_dead(us, k, to.1) {
                    out.push(NMove::Board {
                        from: (f, r),
                        to,
                        promote: false,
                    });
                }
            }
        }
        for k in HAND_SFEN_ORDER {
            if self.hands[us as usize][hand_slot(k)] == 0 {
                continue;
            }
            for (f, r) in Naive::squares() {
                if self.at(f, r).is_some() || is_dead(us, k, r) {
                    continue;
                }
                if k == PieceKind::Pawn
                    && (1..=9).any(|y| self.at(f, y) == Some((us, PieceKind::Pawn)))
                {
                    continue;
                }
                out.push(NMove::Drop {
                    kind: k,
                    to: (f, r),
                });
            }
        }
        out
    }

    /// Whether a pseudo-legal move is legal: the mover's king is not left attacked, and a
    /// pawn drop does not mate.
    pub fn is_legal_pseudo(&self, m: NMove, check_pawn_mate: bool) -> bool {
        let us = self.side;
        let mut after = self.clone();
        after.apply(m);
        if after.in_check(us) {
            return false;
        }
        if check_pawn_mate
            && matches!(
                m,
                NMove::Drop {
                    kind: PieceKind::Pawn,
                    ..
                }
            )
            && after.in_check(us.flip())
            && after.legal_moves(false).is_empty()
        {
            return false;
        }
        true
    }

    /// Legal moves. With `check_pawn_mate` false, pawn drops that mate are kept (used to
    /// answer "has the defender any reply", where a pawn drop is never an answer to a check
    /// by an adjacent pawn anyway).
    pub fn legal_moves(&self, check_pawn_mate: bool) -> Vec<NMove> {
        self.pseudo_moves()
            .into_iter()
            .filter(|&m| self.is_legal_pseudo(m, check_pawn_mate))
            .collect()
    }
}

/// Reference perft with the naive model (to validate the model itself).
pub fn naive_perft(n: &Naive, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = n.legal_moves(true);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|m| {
            let mut c = n.clone();
            c.apply(m);
            naive_perft(&c, depth - 1)
        })
        .sum()
}
