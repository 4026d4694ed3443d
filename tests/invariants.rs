//! Property tests of the invariants of the public API.
//!
//! * Random legal playouts, from the start position and from random tsume-like positions
//!   (defender's king, optional attacker king, a few pieces, a few pieces in the attacker's
//!   hand, `fill_defender_hand`), Black and White to move. At every visited position:
//!   SFEN round trip, incremental keys against keys from scratch, `check_moves` against
//!   `gives_check`, `evasions` against `legal_moves`, no duplicate moves, `is_legal` /
//!   `check_legality` / `play` against the generated moves on a superset of candidate moves,
//!   king safety after every move, equal keys for transpositions. The generated moves are also
//!   compared with a slow, independent reference move generator written in this file.
//! * `Position::from_sfen` never panics (arbitrary strings, SFEN-like strings, mutated valid
//!   SFENs), and what it accepts round-trips and satisfies the static rules (checked by an
//!   independent validator, which must also agree with it on randomly built boards).
//! * `Move::from_usi` never panics, accepts only canonical strings, and round-trips
//!   `to_string` for every generated move.
//!
//! * Positions where a pawn drop would mate (打ち歩詰め), found with the reference model: the
//!   drop is refused by every entry point, then a short playout checks every ply exhaustively.
//!
//! Failures print the SFEN, the move and the moves played from the root of the playout.
//! No regression files are written. `cargo test --release --test invariants` takes about
//! 15-25 s on two cores; debug builds are about ten times slower.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::collections::{HashMap, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use tsume::{Color, IllegalMove, Move, PieceKind, Position, Square};

type TestResult = Result<(), TestCaseError>;

/// A configuration that never writes regression files and bounds shrinking time.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        max_shrink_time: 30_000,
        max_shrink_iters: 2_000,
        ..ProptestConfig::default()
    }
}

// =============================================================================================
// A small deterministic RNG (splitmix64).
// =============================================================================================

#[derive(Clone)]
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x0123_4567_89ab_cdef)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `num / den`.
    fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

// =============================================================================================
// An independent, slow reference model of the rules: a plain array board.
// =============================================================================================

const ALL_KINDS: [PieceKind; 14] = [
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
const HAND_SFEN_ORDER: [PieceKind; 7] = [
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Gold,
    PieceKind::Silver,
    PieceKind::Knight,
    PieceKind::Lance,
    PieceKind::Pawn,
];

fn hand_slot(k: PieceKind) -> usize {
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
fn base_of(k: PieceKind) -> PieceKind {
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
fn promoted_of(k: PieceKind) -> Option<PieceKind> {
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

fn is_promoted(k: PieceKind) -> bool {
    base_of(k) != k
}

fn full_set(base: PieceKind) -> u32 {
    match base {
        PieceKind::Pawn => 18,
        PieceKind::Bishop | PieceKind::Rook | PieceKind::King => 2,
        _ => 4,
    }
}

fn letter(base: PieceKind) -> char {
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

fn piece_token(c: Color, k: PieceKind) -> String {
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
fn rel_rank(c: Color, rank: i8) -> i8 {
    if c == Color::Black { rank } else { 10 - rank }
}

fn in_zone(c: Color, rank: i8) -> bool {
    rel_rank(c, rank) <= 3
}

/// Whether a piece of `c` and `k` on `rank` could never move again.
fn is_dead(c: Color, k: PieceKind, rank: i8) -> bool {
    let r = rel_rank(c, rank);
    match k {
        PieceKind::Pawn | PieceKind::Lance => r <= 1,
        PieceKind::Knight => r <= 2,
        _ => false,
    }
}

const ORTH: &[(i8, i8)] = &[(0, -1), (0, 1), (-1, 0), (1, 0)];
const DIAG: &[(i8, i8)] = &[(-1, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD_STEPS: &[(i8, i8)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const SILVER_STEPS: &[(i8, i8)] = &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
const KING_STEPS: &[(i8, i8)] = &[
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
type Dirs = &'static [(i8, i8)];

/// Step and slide directions of a kind for Black, as (file delta, rank delta); rank delta -1
/// is forward for Black.
fn movement(k: PieceKind) -> (Dirs, Dirs) {
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
fn orient(c: Color, d: (i8, i8)) -> (i8, i8) {
    if c == Color::Black { d } else { (-d.0, -d.1) }
}

fn on_board(f: i8, r: i8) -> bool {
    (1..=9).contains(&f) && (1..=9).contains(&r)
}

fn sq(f: i8, r: i8) -> Square {
    Square::new(f as u8, r as u8).expect("square on the board")
}

/// A move of the reference model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NMove {
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
    fn to_move(self) -> Move {
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
struct Naive {
    board: [[Option<(Color, PieceKind)>; 10]; 10],
    hands: [[u32; 7]; 2],
    side: Color,
}

impl Naive {
    fn empty(side: Color) -> Naive {
        Naive {
            board: [[None; 10]; 10],
            hands: [[0; 7]; 2],
            side,
        }
    }

    fn from_position(pos: &Position) -> Naive {
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

    fn at(&self, f: i8, r: i8) -> Option<(Color, PieceKind)> {
        self.board[f as usize][r as usize]
    }

    fn set(&mut self, f: i8, r: i8, p: Option<(Color, PieceKind)>) {
        self.board[f as usize][r as usize] = p;
    }

    fn squares() -> impl Iterator<Item = (i8, i8)> {
        (1..=9i8).flat_map(|f| (1..=9i8).map(move |r| (f, r)))
    }

    fn king(&self, c: Color) -> Option<(i8, i8)> {
        Naive::squares().find(|&(f, r)| self.at(f, r) == Some((c, PieceKind::King)))
    }

    /// Canonical SFEN, written independently of the library.
    fn sfen(&self, move_number: Option<u32>) -> String {
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
    fn attackers(&self, f: i8, r: i8, by: Color) -> Vec<(i8, i8)> {
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

    fn attacked(&self, f: i8, r: i8, by: Color) -> bool {
        !self.attackers(f, r, by).is_empty()
    }

    fn in_check(&self, c: Color) -> bool {
        match self.king(c) {
            Some((f, r)) => self.attacked(f, r, c.flip()),
            None => false,
        }
    }

    /// Checks the static rules a position must satisfy.
    fn validate(&self) -> Result<(), String> {
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
    fn apply(&mut self, m: NMove) {
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
    fn pseudo_moves(&self) -> Vec<NMove> {
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
    fn is_legal_pseudo(&self, m: NMove, check_pawn_mate: bool) -> bool {
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
    fn legal_moves(&self, check_pawn_mate: bool) -> Vec<NMove> {
        self.pseudo_moves()
            .into_iter()
            .filter(|&m| self.is_legal_pseudo(m, check_pawn_mate))
            .collect()
    }
}

/// Reference perft with the naive model (to validate the model itself).
fn naive_perft(n: &Naive, depth: u32) -> u64 {
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

// =============================================================================================
// Random positions.
// =============================================================================================

/// A random tsume-like candidate: the defender's king (side not to move), sometimes an
/// attacker king, and either (two times in three) 0-6 pieces of either side, mostly near the
/// defender's king, or ("crowded", one time in three) the squares around the defender's
/// king densely filled, the square in front of it left empty and a pawn in the attacker's
/// hand: that makes pins, discovered checks, mates and drop-pawn mates (打ち歩詰め) much more
/// frequent. Then 0-4 pieces in the attacker's hand. May break the static rules (nifu, dead
/// pieces, too many pieces, the defender in check...).
fn random_tsume_candidate(rng: &mut Rng) -> Naive {
    let crowded = rng.chance(1, 3);
    random_tsume_candidate_with(rng, crowded)
}

fn random_tsume_candidate_with(rng: &mut Rng, crowded: bool) -> Naive {
    let attacker = if rng.chance(1, 2) {
        Color::Black
    } else {
        Color::White
    };
    let defender = attacker.flip();
    let mut n = Naive::empty(attacker);
    let empties = |n: &Naive| -> Vec<(i8, i8)> {
        Naive::squares()
            .filter(|&(f, r)| n.at(f, r).is_none())
            .collect()
    };
    let random_kind = |rng: &mut Rng| loop {
        let k = rng.pick(&ALL_KINDS);
        if k != PieceKind::King {
            break k;
        }
    };
    // The defender's king, usually in the attacker's promotion zone.
    let kf = 1 + rng.below(9) as i8;
    let kr = if rng.chance(3, 4) {
        let r = 1 + rng.below(3) as i8;
        if defender == Color::White { r } else { 10 - r }
    } else {
        1 + rng.below(9) as i8
    };
    n.set(kf, kr, Some((defender, PieceKind::King)));
    if rng.chance(1, 2) {
        let e = empties(&n);
        let (f, r) = rng.pick(&e);
        n.set(f, r, Some((attacker, PieceKind::King)));
    }
    if crowded {
        // Crowded. The square from which an attacker's pawn would check the king.
        let front = (
            kf,
            if attacker == Color::Black {
                kr + 1
            } else {
                kr - 1
            },
        );
        for (f, r) in Naive::squares() {
            let dist = (f - kf).abs().max((r - kr).abs());
            if (f, r) == front || n.at(f, r).is_some() || dist == 0 || dist > 2 {
                continue;
            }
            let (p, color) = if dist == 1 {
                (55, if rng.chance(3, 5) { defender } else { attacker })
            } else {
                (
                    20,
                    if rng.chance(7, 10) {
                        attacker
                    } else {
                        defender
                    },
                )
            };
            if rng.below(100) < p {
                n.set(f, r, Some((color, random_kind(rng))));
            }
        }
        // Sliders aiming at the king from afar, to pin its neighbours or to be blocked by them.
        for &d in KING_STEPS {
            if !rng.chance(1, 4) {
                continue;
            }
            let dist = 2 + rng.below(7) as i8;
            let (f, r) = (kf + d.0 * dist, kr + d.1 * dist);
            if !on_board(f, r) || n.at(f, r).is_some() || (f, r) == front {
                continue;
            }
            let kind = if d.0 != 0 && d.1 != 0 {
                rng.pick(&[PieceKind::Bishop, PieceKind::Horse])
            } else if d.0 == 0 && (d.1 > 0) == (attacker == Color::Black) && rng.chance(1, 2) {
                // A lance of the attacker moving towards the king.
                PieceKind::Lance
            } else {
                rng.pick(&[PieceKind::Rook, PieceKind::Dragon])
            };
            let color = if rng.chance(4, 5) { attacker } else { defender };
            n.set(f, r, Some((color, kind)));
        }
        n.hands[attacker as usize][hand_slot(PieceKind::Pawn)] = 1;
        // Keep the pawn droppable there: promote the attacker's pawns on that file.
        for r in 1..=9 {
            if n.at(front.0, r) == Some((attacker, PieceKind::Pawn)) {
                n.set(front.0, r, Some((attacker, PieceKind::ProPawn)));
            }
        }
    } else {
        for _ in 0..rng.below(7) {
            let color = if rng.chance(3, 5) { attacker } else { defender };
            let kind = random_kind(rng);
            let near: Vec<(i8, i8)> = empties(&n)
                .into_iter()
                .filter(|&(f, r)| (f - kf).abs() <= 2 && (r - kr).abs() <= 2)
                .collect();
            let (f, r) = if !near.is_empty() && rng.chance(3, 5) {
                rng.pick(&near)
            } else {
                rng.pick(&empties(&n))
            };
            n.set(f, r, Some((color, kind)));
        }
    }
    for _ in 0..rng.below(5) {
        let k = rng.pick(&HAND_SFEN_ORDER);
        n.hands[attacker as usize][hand_slot(k)] += 1;
    }
    n
}

/// A random tsume-like position, already filled with `fill_defender_hand`. Also checks that
/// `from_sfen` accepts exactly the candidates the independent validator accepts.
fn random_tsume_position(rng: &mut Rng) -> Result<Position, TestCaseError> {
    for _ in 0..1000 {
        let cand = random_tsume_candidate(rng);
        let number = if rng.chance(1, 4) {
            None
        } else {
            Some(1 + rng.below(300) as u32)
        };
        let sfen = cand.sfen(number);
        let parsed = Position::from_sfen(&sfen);
        let valid = cand.validate();
        prop_assert_eq!(
            parsed.is_ok(),
            valid.is_ok(),
            "from_sfen and the reference validator disagree on {}: from_sfen {:?}, reference {:?}",
            sfen,
            parsed.as_ref().err(),
            valid
        );
        let Ok(mut pos) = parsed else { continue };
        prop_assert_eq!(
            &Naive::from_position(&pos),
            &cand,
            "parsed board of {}",
            sfen
        );
        prop_assert_eq!(
            pos.move_number(),
            number.unwrap_or(1),
            "move number of {}",
            sfen
        );
        pos.fill_defender_hand();
        // The defender holds everything not on the board nor in the attacker's hand.
        let mut expected = cand.clone();
        let defender = cand.side.flip();
        for k in HAND_SFEN_ORDER {
            let on_board = Naive::squares()
                .filter(|&(f, r)| cand.at(f, r).map(|p| base_of(p.1)) == Some(k))
                .count() as u32;
            let in_hands: u32 = (0..2).map(|c| cand.hands[c][hand_slot(k)]).sum();
            expected.hands[defender as usize][hand_slot(k)] += full_set(k) - on_board - in_hands;
        }
        prop_assert_eq!(
            &Naive::from_position(&pos),
            &expected,
            "fill_defender_hand on {}",
            sfen
        );
        return Ok(pos);
    }
    Err(TestCaseError::fail(
        "no valid random tsume position in 1000 tries",
    ))
}

/// The square on which a pawn of the side to move would check the other side's king.
fn pawn_check_square(n: &Naive) -> Option<(i8, i8)> {
    let (kf, kr) = n.king(n.side.flip())?;
    let r = if n.side == Color::Black {
        kr + 1
    } else {
        kr - 1
    };
    on_board(kf, r).then_some((kf, r))
}

/// A random crowded tsume-like position in which, according to the reference model, dropping
/// a pawn in front of the defender's king would be drop-pawn mate (打ち歩詰め). Returns the
/// position and the forbidden drop.
fn random_pawn_mate_position(rng: &mut Rng) -> Result<(Position, Move), TestCaseError> {
    for _ in 0..20_000 {
        let cand = random_tsume_candidate_with(rng, true);
        let Some(to) = pawn_check_square(&cand) else {
            continue;
        };
        let drop = NMove::Drop {
            kind: PieceKind::Pawn,
            to,
        };
        if cand.validate().is_err()
            || !cand.pseudo_moves().contains(&drop)
            || cand.is_legal_pseudo(drop, true)
            || !cand.is_legal_pseudo(drop, false)
        {
            continue;
        }
        let sfen = cand.sfen(Some(1));
        let pos = Position::from_sfen(&sfen);
        prop_assert!(pos.is_ok(), "from_sfen({}) = {:?}", sfen, pos);
        let mut pos = pos.unwrap();
        if rng.chance(1, 2) {
            pos.fill_defender_hand();
        }
        return Ok((pos, drop.to_move()));
    }
    Err(TestCaseError::fail(
        "no drop-pawn-mate position in 20000 tries",
    ))
}

// =============================================================================================
// The per-position checks.
// =============================================================================================

fn no_duplicates(moves: &[Move], what: &str, sfen: &str) -> TestResult {
    let mut seen = HashSet::new();
    for &m in moves {
        prop_assert!(
            seen.insert(m),
            "duplicate move {} in {} of {}",
            m,
            what,
            sfen
        );
    }
    Ok(())
}

fn sorted(moves: impl IntoIterator<Item = Move>) -> Vec<String> {
    let mut v: Vec<String> = moves.into_iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// Describes the difference of two move sets.
fn set_diff(expected: &HashSet<Move>, actual: &HashSet<Move>) -> String {
    format!(
        "missing {:?}, extra {:?}",
        sorted(expected.difference(actual).copied()),
        sorted(actual.difference(expected).copied())
    )
}

fn keys_consistent(pos: &Position, sfen: &str) -> TestResult {
    prop_assert_eq!(
        pos.board_key(),
        pos.compute_board_key(),
        "incremental board key of {}",
        sfen
    );
    prop_assert_eq!(
        pos.hand_key(),
        pos.compute_hand_key(),
        "incremental hand key of {}",
        sfen
    );
    prop_assert_eq!(
        pos.key(),
        pos.board_key() ^ pos.hand_key(),
        "key of {}",
        sfen
    );
    Ok(())
}

fn same_position(a: &Position, b: &Position, what: &str) -> TestResult {
    prop_assert!(a == b, "{}: {} != {}", what, a.to_sfen(), b.to_sfen());
    prop_assert_eq!(a.to_sfen(), b.to_sfen(), "{}", what);
    prop_assert_eq!(a.key(), b.key(), "{}: key", what);
    prop_assert_eq!(a.board_key(), b.board_key(), "{}: board key", what);
    prop_assert_eq!(a.hand_key(), b.hand_key(), "{}: hand key", what);
    prop_assert_eq!(a.checkers(), b.checkers(), "{}: checkers", what);
    prop_assert_eq!(a.move_number(), b.move_number(), "{}: move number", what);
    Ok(())
}

/// Cheap and medium checks of one position; with `exhaustive`, also `is_legal`, `play` and
/// `check_legality` on every candidate move.
fn check_position(pos: &Position, exhaustive: bool) -> TestResult {
    let sfen = pos.to_sfen();
    let sfen = sfen.as_str();
    let us = pos.side_to_move();
    let them = us.flip();

    // SFEN round trip, and agreement with an independent writer.
    let back = Position::from_sfen(sfen);
    prop_assert!(
        back.is_ok(),
        "to_sfen output rejected: {} ({:?})",
        sfen,
        back
    );
    let back = back.unwrap();
    same_position(&back, pos, &format!("SFEN round trip of {sfen}"))?;
    prop_assert_eq!(back.to_sfen(), sfen);
    let naive = Naive::from_position(pos);
    prop_assert_eq!(
        naive.sfen(Some(pos.move_number())),
        sfen,
        "independent SFEN writer"
    );
    if let Err(e) = naive.validate() {
        return Err(TestCaseError::fail(format!(
            "position breaks the static rules ({e}): {sfen}"
        )));
    }
    keys_consistent(pos, sfen)?;

    // Kings, check, checkers.
    for c in Color::ALL {
        prop_assert_eq!(
            pos.king_square(c),
            naive.king(c).map(|(f, r)| sq(f, r)),
            "king square of {} in {}",
            c,
            sfen
        );
    }
    prop_assert_eq!(pos.in_check(), naive.in_check(us), "in_check of {}", sfen);
    let expected_checkers: HashSet<Square> = match naive.king(us) {
        Some((f, r)) => naive
            .attackers(f, r, them)
            .into_iter()
            .map(|(x, y)| sq(x, y))
            .collect(),
        None => HashSet::new(),
    };
    let checkers: HashSet<Square> = pos.checkers().iter().collect();
    prop_assert_eq!(checkers, expected_checkers, "checkers of {}", sfen);

    // Move lists.
    let legal = pos.legal_moves();
    let evasions = pos.evasions();
    let checks = pos.check_moves();
    no_duplicates(&legal, "legal_moves", sfen)?;
    no_duplicates(&evasions, "evasions", sfen)?;
    no_duplicates(&checks, "check_moves", sfen)?;
    let legal_set: HashSet<Move> = legal.iter().copied().collect();
    let evasion_set: HashSet<Move> = evasions.iter().copied().collect();
    let check_set: HashSet<Move> = checks.iter().copied().collect();

    if pos.in_check() {
        prop_assert!(
            evasion_set == legal_set,
            "in check, evasions != legal moves in {}: {}",
            sfen,
            set_diff(&legal_set, &evasion_set)
        );
    } else {
        prop_assert!(
            evasions.is_empty(),
            "not in check but evasions {:?} in {}",
            sorted(evasions.iter().copied()),
            sfen
        );
    }

    // The independent reference generator.
    let reference: HashSet<Move> = naive
        .legal_moves(true)
        .into_iter()
        .map(NMove::to_move)
        .collect();
    prop_assert!(
        reference == legal_set,
        "legal_moves differ from the reference generator in {}: {}",
        sfen,
        set_diff(&reference, &legal_set)
    );

    // Every legal move.
    let mut expected_checks = HashSet::new();
    for &m in &legal {
        let usi = m.to_string();
        prop_assert_eq!(Move::from_usi(&usi), Ok(m), "USI round trip of {}", &usi);
        prop_assert_eq!(
            pos.check_legality(m),
            Ok(()),
            "generated move {} rejected in {}",
            &usi,
            sfen
        );
        prop_assert!(pos.is_legal(m), "is_legal({}) false in {}", &usi, sfen);
        prop_assert_eq!(
            pos.parse_usi_move(&usi),
            Ok(m),
            "parse_usi_move in {}",
            sfen
        );

        let mut after = pos.clone();
        after.play_unchecked(m);
        let ctx = format!("{sfen} after {usi}");
        prop_assert_eq!(after.side_to_move(), them, "side to move, {}", &ctx);
        prop_assert_eq!(
            after.move_number(),
            pos.move_number().saturating_add(1),
            "move number, {}",
            &ctx
        );
        if let Some(k) = after.king_square(us) {
            prop_assert!(
                !after.is_attacked(k, them, after.occupied()),
                "mover's king attacked, {}",
                &ctx
            );
        }
        keys_consistent(&after, &ctx)?;
        // play_unchecked agrees with the reference model.
        let mut expected_after = naive.clone();
        let nm = match m.from() {
            Some(from) => NMove::Board {
                from: (from.file() as i8, from.rank() as i8),
                to: (m.to().file() as i8, m.to().rank() as i8),
                promote: m.is_promotion(),
            },
            None => NMove::Drop {
                kind: m.drop_kind().expect("drop kind"),
                to: (m.to().file() as i8, m.to().rank() as i8),
            },
        };
        expected_after.apply(nm);
        prop_assert_eq!(
            Naive::from_position(&after).sfen(None),
            expected_after.sfen(None),
            "play_unchecked result, {}",
            &ctx
        );
        // Checked play gives the same position.
        let mut played = pos.clone();
        prop_assert_eq!(played.play(m), Ok(()), "play, {}", &ctx);
        same_position(&played, &after, &format!("play vs play_unchecked, {ctx}"))?;
        // gives_check, verified by playing the move.
        let gives = pos.gives_check(m);
        prop_assert_eq!(gives, after.in_check(), "gives_check, {}", &ctx);
        prop_assert_eq!(
            gives,
            expected_after.in_check(them),
            "gives_check vs reference, {}",
            &ctx
        );
        if gives {
            expected_checks.insert(m);
        }
    }
    prop_assert!(
        check_set == expected_checks,
        "check_moves differ from the checking legal moves in {}: {}",
        sfen,
        set_diff(&expected_checks, &check_set)
    );

    if exhaustive {
        check_all_candidates(pos, &naive, &legal_set, sfen)?;
    }
    Ok(())
}

/// `is_legal`, `check_legality`, `play` and the USI round trip on every board move between
/// two squares (with and without promotion) and every drop of every hand kind on every square.
fn check_all_candidates(
    pos: &Position,
    naive: &Naive,
    legal_set: &HashSet<Move>,
    sfen: &str,
) -> TestResult {
    let us = pos.side_to_move();
    let pseudo: HashSet<Move> = naive
        .pseudo_moves()
        .into_iter()
        .map(NMove::to_move)
        .collect();
    let mut candidates = Vec::with_capacity(81 * 80 * 2 + 7 * 81);
    for from in Square::all() {
        for to in Square::all() {
            if from != to {
                for promote in [false, true] {
                    let m = Move::new_normal(from, to, promote);
                    prop_assert_eq!(m.from(), Some(from));
                    prop_assert_eq!(m.to(), to);
                    prop_assert_eq!(m.is_promotion(), promote);
                    prop_assert!(!m.is_drop());
                    candidates.push(m);
                }
            }
        }
    }
    for kind in HAND_SFEN_ORDER {
        for to in Square::all() {
            let m = Move::new_drop(kind, to);
            prop_assert_eq!(m.from(), None);
            prop_assert_eq!(m.to(), to);
            prop_assert_eq!(m.drop_kind(), Some(kind));
            prop_assert!(m.is_drop() && !m.is_promotion());
            candidates.push(m);
        }
    }
    for m in candidates {
        let usi = m.to_string();
        prop_assert_eq!(Move::from_usi(&usi), Ok(m), "USI round trip of {}", &usi);
        let legal = legal_set.contains(&m);
        let verdict = pos.check_legality(m);
        prop_assert_eq!(
            verdict.is_ok(),
            legal,
            "check_legality({}) = {:?} but the move is{} generated, in {}",
            &usi,
            verdict,
            if legal { "" } else { " not" },
            sfen
        );
        prop_assert_eq!(pos.is_legal(m), legal, "is_legal({}) in {}", &usi, sfen);
        if legal {
            continue;
        }
        let err = verdict.unwrap_err();
        // The reason, where it is unambiguous.
        let expected_reason = match m.from() {
            Some(from) => match pos.piece_at(from) {
                None => Some(IllegalMove::NoPiece(from)),
                Some(p) if p.color() != us => Some(IllegalMove::NotYourPiece(from)),
                Some(_) => match pos.piece_at(m.to()) {
                    Some(q) if q.color() == us => Some(IllegalMove::OwnPieceOnTarget(m.to())),
                    _ => None,
                },
            },
            None => {
                let kind = m.drop_kind().expect("drop kind");
                if !pos.hand(us).has(kind) {
                    Some(IllegalMove::NotInHand(kind))
                } else if pos.piece_at(m.to()).is_some() {
                    Some(IllegalMove::DropOnOccupied(m.to()))
                } else {
                    None
                }
            }
        };
        if let Some(r) = expected_reason {
            prop_assert_eq!(err, r, "reason for {} in {}", &usi, sfen);
        }
        if pseudo.contains(&m) {
            // Obeys movement and drop rules: only king safety or drop-pawn mate can fail.
            let pawn_drop = m.drop_kind() == Some(PieceKind::Pawn);
            let gives_check = {
                let mut after = naive.clone();
                let to = (m.to().file() as i8, m.to().rank() as i8);
                if pawn_drop {
                    after.apply(NMove::Drop {
                        kind: PieceKind::Pawn,
                        to,
                    });
                }
                pawn_drop && after.in_check(us.flip())
            };
            let expected = if gives_check {
                vec![IllegalMove::DropPawnMate, IllegalMove::LeavesKingInCheck]
            } else {
                vec![IllegalMove::LeavesKingInCheck]
            };
            prop_assert!(
                expected.contains(&err),
                "pseudo-legal {} rejected with {:?} in {}",
                &usi,
                err,
                sfen
            );
        }
        // `play` refuses it with the same reason and leaves the position unchanged.
        let mut p = pos.clone();
        prop_assert_eq!(p.play(m), Err(err), "play({}) in {}", &usi, sfen);
        same_position(&p, pos, &format!("failed play({usi}) changed {sfen}"))?;
    }
    Ok(())
}

/// The message of a panic payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

/// Runs `check_position`, turning a panic into a failure that names the position.
fn check_position_guarded(pos: &Position, exhaustive: bool) -> TestResult {
    match catch_unwind(AssertUnwindSafe(|| check_position(pos, exhaustive))) {
        Ok(r) => r,
        Err(payload) => Err(TestCaseError::fail(format!(
            "panic while checking {}: {}",
            pos.to_sfen(),
            panic_message(payload.as_ref())
        ))),
    }
}

/// SFEN without the move number.
fn sfen_key(pos: &Position) -> String {
    let s = pos.to_sfen();
    match s.rfind(' ') {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// Equal positions have equal keys, and (with overwhelming probability) distinct ones distinct
/// keys, across everything a test case visits.
#[derive(Default)]
struct KeyBook {
    by_sfen: HashMap<String, u64>,
    by_key: HashMap<u64, String>,
}

impl KeyBook {
    fn record(&mut self, pos: &Position) -> TestResult {
        let s = sfen_key(pos);
        let k = pos.key();
        if let Some(&old) = self.by_sfen.get(&s) {
            prop_assert_eq!(old, k, "two different keys for {}", &s);
        } else {
            self.by_sfen.insert(s.clone(), k);
        }
        if let Some(old) = self.by_key.get(&k) {
            prop_assert_eq!(old, &s, "key collision");
        } else {
            self.by_key.insert(k, s);
        }
        Ok(())
    }
}

/// Tries to reach one position by two move orders (m1 n1 m2 and m2 n1 m1) and compares.
/// Returns whether a transposition was found.
fn transposition_check(pos: &Position, rng: &mut Rng) -> Result<bool, TestCaseError> {
    let legal = pos.legal_moves();
    if legal.len() < 2 {
        return Ok(false);
    }
    let m1 = rng.pick(&legal);
    let m2 = rng.pick(&legal);
    if m1 == m2 {
        return Ok(false);
    }
    let mut a = pos.clone();
    a.play_unchecked(m1);
    let replies = a.legal_moves();
    if replies.is_empty() {
        return Ok(false);
    }
    let n1 = rng.pick(&replies);
    a.play_unchecked(n1);
    if a.play(m2).is_err() {
        return Ok(false);
    }
    let mut b = pos.clone();
    b.play_unchecked(m2);
    if b.play(n1).is_err() || b.play(m1).is_err() {
        return Ok(false);
    }
    if a.to_sfen() != b.to_sfen() {
        return Ok(false);
    }
    let what = format!(
        "transposition {m1} {n1} {m2} / {m2} {n1} {m1} from {}",
        pos.to_sfen()
    );
    same_position(&a, &b, &what)?;
    keys_consistent(&a, &what)?;
    keys_consistent(&b, &what)?;
    Ok(true)
}

/// A random playout of up to `len` plies from `root`, checking every position. One position
/// in `exhaustive_every` gets the exhaustive candidate check (the root always does). Moves are
/// chosen uniformly, or one time in three among the checks, if any. A failure or a panic
/// reports the root SFEN and the moves played.
fn playout(root: Position, seed: u64, len: usize, exhaustive_every: usize) -> TestResult {
    let root_sfen = root.to_sfen();
    let mut history: Vec<String> = Vec::new();
    let result = catch_unwind(AssertUnwindSafe(|| {
        playout_inner(root, seed, len, exhaustive_every, &mut history)
    }));
    let error = match result {
        Ok(Ok(())) => return Ok(()),
        Ok(Err(e)) => e.to_string(),
        Err(payload) => format!("panic: {}", panic_message(payload.as_ref())),
    };
    Err(TestCaseError::fail(format!(
        "{error}\n  playout root: {root_sfen}\n  moves: {}",
        history.join(" ")
    )))
}

fn playout_inner(
    mut pos: Position,
    seed: u64,
    len: usize,
    exhaustive_every: usize,
    history: &mut Vec<String>,
) -> TestResult {
    let mut rng = Rng::new(seed.rotate_left(17) ^ 0xdead_beef);
    let mut book = KeyBook::default();
    for ply in 0..=len {
        check_position_guarded(&pos, ply % exhaustive_every == 0)?;
        book.record(&pos)?;
        transposition_check(&pos, &mut rng)?;
        let legal = pos.legal_moves();
        if legal.is_empty() || ply == len {
            break;
        }
        let checks = pos.check_moves();
        let m = if !checks.is_empty() && rng.chance(1, 3) {
            rng.pick(&checks)
        } else {
            rng.pick(&legal)
        };
        history.push(m.to_string());
        let r = pos.play(m);
        prop_assert!(r.is_ok(), "play of a generated move failed: {:?}", r);
    }
    Ok(())
}

// =============================================================================================
// Playout properties.
// =============================================================================================

proptest! {
    #![proptest_config(config(32))]

    #[test]
    fn playouts_from_startpos(seed in any::<u64>(), len in 0usize..=80) {
        playout(Position::startpos(), seed, len, 8)?;
    }
}

proptest! {
    #![proptest_config(config(96))]

    #[test]
    fn playouts_from_random_tsume_positions(seed in any::<u64>(), len in 0usize..=80) {
        let mut rng = Rng::new(seed);
        let root = random_tsume_position(&mut rng)?;
        playout(root, seed, len, 8)?;
    }
}

proptest! {
    #![proptest_config(config(64))]

    /// Positions where a pawn drop would mate: the drop must be refused everywhere, then a
    /// short playout with the exhaustive check at every ply.
    #[test]
    fn drop_pawn_mate_positions(seed in any::<u64>(), len in 0usize..=4) {
        let mut rng = Rng::new(seed);
        let (root, drop) = random_pawn_mate_position(&mut rng)?;
        let sfen = root.to_sfen();
        prop_assert_eq!(
            root.check_legality(drop),
            Err(IllegalMove::DropPawnMate),
            "{} in {}",
            drop,
            &sfen
        );
        prop_assert!(!root.legal_moves().contains(&drop), "{} generated in {}", drop, &sfen);
        prop_assert!(!root.check_moves().contains(&drop), "{} a check move in {}", drop, &sfen);
        let mut p = root.clone();
        prop_assert_eq!(p.play(drop), Err(IllegalMove::DropPawnMate));
        prop_assert_eq!(
            root.parse_usi_move(&drop.to_string()),
            Err(tsume::UsiMoveError::Illegal(drop, IllegalMove::DropPawnMate))
        );
        playout(root, seed, len, 1)?;
    }
}

// =============================================================================================
// SFEN parsing.
// =============================================================================================

/// What must hold of anything `from_sfen` accepts.
fn accepted_sfen_invariants(input: &str, pos: &Position, deep: bool) -> TestResult {
    let out = pos.to_sfen();
    let again = Position::from_sfen(&out);
    prop_assert!(
        again.is_ok(),
        "from_sfen({:?}) accepted, but its to_sfen {:?} is rejected: {:?}",
        input,
        out,
        again
    );
    let again = again.unwrap();
    same_position(&again, pos, &format!("re-parse of {out} (from {input:?})"))?;
    prop_assert_eq!(again.to_sfen(), out.as_str());
    let naive = Naive::from_position(pos);
    if let Err(e) = naive.validate() {
        return Err(TestCaseError::fail(format!(
            "from_sfen({input:?}) accepted a position that breaks the rules: {e}"
        )));
    }
    if deep {
        check_position_guarded(pos, false)
            .map_err(|e| TestCaseError::fail(format!("{e}\n  parsed from {input:?}")))?;
    }
    Ok(())
}

fn parse_guarded(input: &str) -> Result<Result<Position, tsume::SfenError>, TestCaseError> {
    catch_unwind(|| Position::from_sfen(input))
        .map_err(|_| TestCaseError::fail(format!("from_sfen panicked on {input:?}")))
}

fn fuzz_sfen(input: &str, deep: bool) -> TestResult {
    match parse_guarded(input)? {
        Ok(pos) => accepted_sfen_invariants(input, &pos, deep),
        Err(e) => {
            prop_assert!(
                !e.to_string().is_empty(),
                "empty error message for {:?}",
                input
            );
            Ok(())
        }
    }
}

/// A valid SFEN from a short random playout (start position or tsume-like root).
fn random_valid_sfen(rng: &mut Rng) -> Result<String, TestCaseError> {
    let mut pos = if rng.chance(1, 3) {
        Position::startpos()
    } else {
        random_tsume_position(rng)?
    };
    for _ in 0..rng.below(30) {
        let before = pos.to_sfen();
        let step = catch_unwind(AssertUnwindSafe(|| {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                return false;
            }
            pos.play_unchecked(rng.pick(&legal));
            true
        }));
        match step {
            Ok(true) => {}
            Ok(false) => break,
            Err(payload) => {
                return Err(TestCaseError::fail(format!(
                    "panic while generating or playing a move in {before}: {}",
                    panic_message(payload.as_ref())
                )));
            }
        }
    }
    Ok(pos.to_sfen())
}

const MUTATION_CHARS: &[&str] = &[
    "0",
    "1",
    "2",
    "9",
    "10",
    "18",
    "19",
    "99999999999",
    "p",
    "P",
    "k",
    "K",
    "+",
    "+k",
    "+g",
    "/",
    " ",
    "  ",
    "\t",
    "-",
    "b",
    "w",
    "sfen",
    "l",
    "N",
    "s",
    "R",
    "b",
    "G",
    "x",
    "\u{3000}",
    "歩",
    "é",
    "\0",
];

/// Applies a few random edits to an SFEN.
fn mutate(s: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    for _ in 0..1 + rng.below(3) {
        match rng.below(8) {
            // Replace one character.
            0 | 1 if !chars.is_empty() => {
                let i = rng.below(chars.len());
                let rep: Vec<char> = rng.pick(MUTATION_CHARS).chars().collect();
                chars.splice(i..i + 1, rep);
            }
            // Insert.
            2 => {
                let i = rng.below(chars.len() + 1);
                let ins: Vec<char> = rng.pick(MUTATION_CHARS).chars().collect();
                chars.splice(i..i, ins);
            }
            // Delete a run of up to 3 characters.
            3 if !chars.is_empty() => {
                let i = rng.below(chars.len());
                let j = (i + 1 + rng.below(3)).min(chars.len());
                chars.drain(i..j);
            }
            // Swap, duplicate or drop whitespace-separated fields.
            4..=6 => {
                let text: String = chars.iter().collect();
                let mut fields: Vec<String> = text.split(' ').map(|f| f.to_string()).collect();
                let n = fields.len();
                match rng.below(4) {
                    0 => fields.swap(rng.below(n), rng.below(n)),
                    1 => {
                        let f = fields[rng.below(n)].clone();
                        fields.insert(rng.below(n + 1), f);
                    }
                    2 => {
                        fields.remove(rng.below(n));
                    }
                    _ => {
                        // Swap two ranks of the board.
                        let mut ranks: Vec<String> =
                            fields[0].split('/').map(|r| r.to_string()).collect();
                        let m = ranks.len();
                        ranks.swap(rng.below(m), rng.below(m));
                        fields[0] = ranks.join("/");
                    }
                }
                chars = fields.join(" ").chars().collect();
            }
            // Swap two characters.
            _ if chars.len() >= 2 => {
                let i = rng.below(chars.len());
                let j = rng.below(chars.len());
                chars.swap(i, j);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// Counts of each base kind on the board and in both hands.
fn base_counts(n: &Naive) -> HashMap<PieceKind, u32> {
    let mut counts: HashMap<PieceKind, u32> = HashMap::new();
    for (f, r) in Naive::squares() {
        if let Some((_, k)) = n.at(f, r) {
            *counts.entry(base_of(k)).or_default() += 1;
        }
    }
    for c in 0..2 {
        for k in HAND_SFEN_ORDER {
            *counts.entry(k).or_default() += n.hands[c][hand_slot(k)];
        }
    }
    counts
}

/// A random board of any density with random hands. One time in four anything goes (the
/// result usually breaks several rules at once); otherwise pieces that would break the
/// counting, dead-piece or two-pawn rules are left out, and then one rule is sometimes broken
/// on purpose, so that each of the rules is exercised on its own.
fn random_dense_candidate(rng: &mut Rng) -> Naive {
    let side = if rng.chance(1, 2) {
        Color::Black
    } else {
        Color::White
    };
    let careful = rng.chance(3, 4);
    let mut n = Naive::empty(side);
    let random_color = |rng: &mut Rng| {
        if rng.chance(1, 2) {
            Color::Black
        } else {
            Color::White
        }
    };
    // Kings first, so that the careful mode does not run out of them.
    if !careful || rng.chance(9, 10) {
        for c in Color::ALL {
            if !careful || rng.chance(5, 6) {
                let f = 1 + rng.below(9) as i8;
                let r = 1 + rng.below(9) as i8;
                n.set(f, r, Some((c, PieceKind::King)));
            }
        }
    }
    let density = rng.below(60);
    for (f, r) in Naive::squares() {
        if n.at(f, r).is_some() || rng.below(100) >= density {
            continue;
        }
        let c = random_color(rng);
        let mut k = rng.pick(&ALL_KINDS);
        if k == PieceKind::King && (careful || rng.chance(2, 3)) {
            k = PieceKind::Gold;
        }
        if careful {
            let used = base_counts(&n).get(&base_of(k)).copied().unwrap_or(0);
            let pawn_on_file = (1..=9).any(|y| n.at(f, y) == Some((c, PieceKind::Pawn)));
            if used >= full_set(base_of(k))
                || is_dead(c, k, r)
                || (k == PieceKind::Pawn && pawn_on_file)
            {
                continue;
            }
        }
        n.set(f, r, Some((c, k)));
    }
    if rng.chance(1, 2) {
        for c in Color::ALL {
            for k in HAND_SFEN_ORDER {
                if rng.chance(1, 3) {
                    let max = if careful {
                        full_set(k) - base_counts(&n).get(&k).copied().unwrap_or(0)
                    } else {
                        full_set(k) + 1
                    };
                    n.hands[c as usize][hand_slot(k)] = rng.below(max as usize + 1) as u32;
                }
            }
        }
    }
    if careful && rng.chance(1, 2) {
        let (f, r) = (1 + rng.below(9) as i8, 1 + rng.below(9) as i8);
        let c = random_color(rng);
        match rng.below(5) {
            // A second unpromoted pawn on a file.
            0 => {
                let free: Vec<i8> = (3..=7)
                    .filter(|&y| n.at(f, y).map(|p| p.1) != Some(PieceKind::King))
                    .collect();
                if free.len() >= 2 {
                    let a = rng.below(free.len());
                    let b = (a + 1 + rng.below(free.len() - 1)) % free.len();
                    n.set(f, free[a], Some((c, PieceKind::Pawn)));
                    n.set(f, free[b], Some((c, PieceKind::Pawn)));
                }
            }
            // A piece on a square it can never leave.
            1 => {
                let k = rng.pick(&[PieceKind::Pawn, PieceKind::Lance, PieceKind::Knight]);
                let last = if c == Color::Black { 1 } else { 9 };
                let second = if c == Color::Black { 2 } else { 8 };
                let y = if k == PieceKind::Knight && rng.chance(1, 2) {
                    second
                } else {
                    last
                };
                if n.at(f, y).map(|p| p.1) != Some(PieceKind::King) {
                    n.set(f, y, Some((c, k)));
                }
            }
            // One piece too many.
            2 => {
                let k = rng.pick(&HAND_SFEN_ORDER);
                let used = base_counts(&n).get(&k).copied().unwrap_or(0);
                n.hands[c as usize][hand_slot(k)] += full_set(k) + 1 - used;
            }
            // A second king.
            3 => {
                if n.at(f, r).is_none() {
                    n.set(f, r, Some((c, PieceKind::King)));
                }
            }
            // Promoted pieces anywhere, pawns turned into tokins.
            _ => {
                for (x, y) in Naive::squares() {
                    if let Some((c2, k)) = n.at(x, y) {
                        if let Some(p) = promoted_of(k).filter(|_| rng.chance(1, 2)) {
                            n.set(x, y, Some((c2, p)));
                        }
                    }
                }
            }
        }
    }
    n
}

/// Writes the hands of `n` in a random but valid non-canonical form (repeated letters,
/// counts, any order).
fn lenient_hands(n: &Naive, rng: &mut Rng) -> String {
    let mut parts = Vec::new();
    for c in Color::ALL {
        for k in HAND_SFEN_ORDER {
            let count = n.hands[c as usize][hand_slot(k)];
            if count == 0 {
                continue;
            }
            let l = if c == Color::Black {
                letter(k)
            } else {
                letter(k).to_ascii_lowercase()
            };
            if count >= 2 && rng.chance(1, 2) {
                parts.push(format!("{count}{l}"));
            } else {
                for _ in 0..count {
                    parts.push(l.to_string());
                }
            }
        }
    }
    // Shuffle.
    for i in (1..parts.len()).rev() {
        parts.swap(i, rng.below(i + 1));
    }
    if parts.is_empty() {
        "-".to_string()
    } else {
        parts.concat()
    }
}

proptest! {
    #![proptest_config(config(8000))]

    #[test]
    fn from_sfen_never_panics_on_arbitrary_strings(s in ".*") {
        fuzz_sfen(&s, true)?;
    }

    #[test]
    fn from_sfen_never_panics_on_sfen_like_strings(
        s in "[1-9kKrRbBgGsSnNlLpP+/ -]{0,120}"
    ) {
        fuzz_sfen(&s, true)?;
    }

    #[test]
    fn from_sfen_never_panics_on_sfen_shaped_strings(
        ranks in prop::collection::vec("[1-9kKrRbBgGsSnNlLpP+]{0,6}", 7..=10),
        side in "[bwBW-]",
        hands in "[0-9RBGSNLPKrbgsnlpk-]{0,8}",
        number in "[0-9+-]{0,12}",
        prefix in prop::bool::ANY,
    ) {
        let mut s = String::new();
        if prefix {
            s.push_str("sfen ");
        }
        s.push_str(&ranks.join("/"));
        s.push(' ');
        s.push_str(&side);
        s.push(' ');
        s.push_str(&hands);
        if !number.is_empty() {
            s.push(' ');
            s.push_str(&number);
        }
        fuzz_sfen(&s, true)?;
    }
}

proptest! {
    #![proptest_config(config(5000))]

    #[test]
    fn from_sfen_never_panics_on_mutated_valid_sfens(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let valid = random_valid_sfen(&mut rng)?;
        let mutated = mutate(&valid, &mut rng);
        fuzz_sfen(&mutated, true)?;
    }

    #[test]
    fn from_sfen_agrees_with_the_reference_validator(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let cand = random_dense_candidate(&mut rng);
        let canonical = cand.sfen(if rng.chance(1, 2) { None } else { Some(rng.below(1000) as u32) });
        let valid = cand.validate();
        for input in [canonical.clone(), {
            // The same position with lenient hands and the optional "sfen" prefix.
            let mut fields: Vec<String> = canonical.split(' ').map(|f| f.to_string()).collect();
            fields[2] = lenient_hands(&cand, &mut rng);
            format!("sfen {}", fields.join(" "))
        }] {
            let parsed = parse_guarded(&input)?;
            prop_assert_eq!(
                parsed.is_ok(),
                valid.is_ok(),
                "from_sfen({:?}) = {:?} but the reference validator says {:?}",
                &input,
                parsed.as_ref().err(),
                &valid
            );
            if let Ok(pos) = parsed {
                prop_assert_eq!(&Naive::from_position(&pos), &cand, "board of {}", &input);
                accepted_sfen_invariants(&input, &pos, true)?;
            }
        }
    }
}

// =============================================================================================
// USI moves.
// =============================================================================================

fn fuzz_usi(s: &str) -> TestResult {
    let r = catch_unwind(|| Move::from_usi(s))
        .map_err(|_| TestCaseError::fail(format!("Move::from_usi panicked on {s:?}")))?;
    if let Ok(m) = r {
        prop_assert_eq!(m.to_string(), s, "from_usi accepted a non-canonical string");
        prop_assert_eq!(s.parse::<Move>(), Ok(m));
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(20000))]

    #[test]
    fn move_from_usi_never_panics_on_arbitrary_strings(s in ".*") {
        fuzz_usi(&s)?;
    }

    #[test]
    fn move_from_usi_never_panics_on_usi_like_strings(s in "[0-9`a-jA-Z*+ ]{0,6}") {
        fuzz_usi(&s)?;
    }

    #[test]
    fn move_from_usi_round_trips_all_moves(
        from in 0usize..81,
        to in 0usize..81,
        promote in prop::bool::ANY,
        kind in 0usize..7,
        drop in prop::bool::ANY,
    ) {
        let to = Square::from_index(to).unwrap();
        let m = if drop {
            Move::new_drop(HAND_SFEN_ORDER[kind], to)
        } else {
            let from = Square::from_index(from).unwrap();
            prop_assume!(from != to);
            Move::new_normal(from, to, promote)
        };
        let s = m.to_string();
        prop_assert_eq!(Move::from_usi(&s), Ok(m), "{}", &s);
    }
}

/// Regression: the rank byte just below 'a' once overflowed in debug builds.
#[test]
fn move_from_usi_rank_before_a() {
    for s in ["7g7`", "7`7f", "7`", "P*5`", "7`7f+"] {
        assert!(Move::from_usi(s).is_err(), "{s}");
    }
    assert_eq!(Square::from_usi("7`"), None);
    assert!(Position::startpos().parse_usi_move("7g7`").is_err());
}

// =============================================================================================
// Sanity of the reference model itself.
// =============================================================================================

#[test]
fn reference_model_perft_from_startpos() {
    let n = Naive::from_position(&Position::startpos());
    assert_eq!(naive_perft(&n, 1), 30);
    assert_eq!(naive_perft(&n, 2), 900);
    assert_eq!(naive_perft(&n, 3), 25_470);
}

#[test]
fn reference_model_knows_drop_pawn_mate() {
    // From the `check_legality` documentation: P*1b would mate, so it is illegal.
    let pos = Position::from_sfen("7lk/9/8S/9/9/9/9/7L1/8K b P").unwrap();
    let n = Naive::from_position(&pos);
    let pawn_mate = NMove::Drop {
        kind: PieceKind::Pawn,
        to: (1, 2),
    };
    assert!(n.pseudo_moves().contains(&pawn_mate));
    assert!(!n.legal_moves(true).contains(&pawn_mate));
    assert!(n.legal_moves(false).contains(&pawn_mate));
}
