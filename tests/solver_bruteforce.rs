//! The solver against a brute-force mate search written here, on random small positions.
//!
//! The brute force knows nothing of the solver: checks are the legal moves after which the
//! opponent is in check, replies are all legal moves, a position repeated on the path is a
//! failure for the attacker, and every interposition counts. Properties: a mate within 3 plies
//! found by brute force is found by the solver (with a verified line, of length 1 when the brute
//! force finds a mate in 1), and a solver no-mate is never contradicted by the brute force.

use proptest::prelude::*;
use tsume::{Outcome, Position, Solver, SolverConfig, verify_mate};

fn checks(pos: &Position) -> Vec<Position> {
    pos.legal_moves()
        .into_iter()
        .filter_map(|m| {
            let mut c = pos.clone();
            c.play_unchecked(m);
            c.in_check().then_some(c)
        })
        .collect()
}

/// Whether the side to move mates within `plies` (odd) plies.
fn mates_within(pos: &Position, plies: u32, path: &mut Vec<u64>) -> bool {
    if plies == 0 {
        return false;
    }
    checks(pos).iter().any(|c| {
        if path.contains(&c.key()) {
            return false;
        }
        path.push(c.key());
        let r = defender_loses(c, plies - 1, path);
        path.pop();
        r
    })
}

fn defender_loses(pos: &Position, plies: u32, path: &mut Vec<u64>) -> bool {
    let replies = pos.legal_moves();
    if replies.is_empty() {
        return true;
    }
    if plies < 2 {
        return false;
    }
    replies.into_iter().all(|m| {
        let mut c = pos.clone();
        c.play_unchecked(m);
        if path.contains(&c.key()) {
            return false;
        }
        path.push(c.key());
        let r = mates_within(&c, plies - 1, path);
        path.pop();
        r
    })
}

/// A small random position from `seed`, or `None` if the SFEN drawn is not a legal position.
fn random_position(seed: u64) -> Option<Position> {
    let mut s = seed | 1;
    let mut rnd = |n: u64| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s % n
    };
    let mut board = [['.'; 9]; 9]; // [rank][file index 0 = file 9]
    let (kr, kf) = (rnd(2) as usize, rnd(9) as usize);
    board[kr][kf] = 'k';
    let pieces = [
        'P', 'L', 'N', 'S', 'G', 'B', 'R', '+', 'p', 'l', 'n', 's', 'g', 'b', 'r',
    ];
    for _ in 0..2 + rnd(5) {
        let (r, f) = (
            (kr as i64 + rnd(4) as i64).clamp(0, 8) as usize,
            (kf as i64 + rnd(5) as i64 - 2).clamp(0, 8) as usize,
        );
        if board[r][f] == '.' {
            board[r][f] = pieces[rnd(pieces.len() as u64) as usize];
        }
    }
    let mut rows = Vec::new();
    for rank in board {
        let mut row = String::new();
        let mut empty = 0;
        for c in rank {
            if c == '.' {
                empty += 1;
                continue;
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
                empty = 0;
            }
            if c == '+' {
                row.push_str("+P"); // a tokin
            } else {
                row.push(c);
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    let mut hand = String::new();
    for _ in 0..1 + rnd(3) {
        hand.push(['P', 'L', 'N', 'S', 'G', 'B', 'R'][rnd(7) as usize]);
    }
    if hand.is_empty() {
        hand.push('-');
    }
    let mut pos = Position::from_sfen(&format!("{} b {hand} 1", rows.join("/"))).ok()?;
    if pos.in_check() {
        return None;
    }
    if rnd(2) == 0 {
        pos.fill_defender_hand();
    }
    Some(pos)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn solver_agrees_with_brute_force_within_three_plies(seed in any::<u64>()) {
        let Some(pos) = random_position(seed) else { return Ok(()) };
        let root = vec![pos.key()];
        let mate1 = mates_within(&pos, 1, &mut root.clone());
        let mate3 = mate1 || mates_within(&pos, 3, &mut root.clone());
        let mut solver = Solver::new(SolverConfig::new().hash_mib(4).node_limit(Some(2_000_000)));
        let outcome = solver.solve(&pos).outcome;
        match &outcome {
            Outcome::Mate(line) => {
                prop_assert!(verify_mate(&pos, &line.moves).is_ok(), "{}: bad line", pos);
                if mate1 {
                    prop_assert_eq!(line.len(), 1, "{}: mate in 1 exists", pos);
                }
            }
            Outcome::NoMate => prop_assert!(!mate3, "{}: false no-mate", pos),
            Outcome::Unknown(r) => prop_assert!(!mate3, "{}: unknown ({}) but a short mate exists", pos, r),
        }
        if mate3 {
            prop_assert!(matches!(outcome, Outcome::Mate(_)), "{}: mate within 3 missed", pos);
        }
    }
}

#[test]
fn brute_force_sanity() {
    let m1 = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
    assert!(mates_within(&m1, 1, &mut vec![m1.key()]));
    let m3 = Position::from_sfen("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1").unwrap();
    assert!(!mates_within(&m3, 1, &mut vec![m3.key()]));
    assert!(mates_within(&m3, 3, &mut vec![m3.key()]));
    let start = Position::startpos();
    assert!(!mates_within(&start, 3, &mut vec![start.key()]));
}

#[test]
fn random_positions_are_varied() {
    // The generator must produce enough legal positions, some of them mates in 1 or 3.
    let mut legal = 0;
    let mut short_mates = 0;
    for seed in 0..400u64 {
        if let Some(p) = random_position(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)) {
            legal += 1;
            if mates_within(&p, 3, &mut vec![p.key()]) {
                short_mates += 1;
            }
        }
    }
    assert!(
        legal > 150 && short_mates > 15,
        "{legal} legal, {short_mates} short mates"
    );
}
