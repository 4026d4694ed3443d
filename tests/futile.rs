//! Hand-made futile-interposition (無駄合) problems, each with its answer explained, checked
//! three ways: the solver (length, proven shortest, exact line, the line itself), the
//! independent line checker and `verify_mate`, and brute-force minimax searches written in
//! tests/common from the definition (below). The brute force decides the length (a mate in
//! exactly that many plies and none shorter) and the length with every interposition counted,
//! and enumerates the main lines the solver's line must be one of.
//!
//! The definition (tests/common has it in full): at a defender node in check from a single
//! lance, bishop, rook, horse or dragon with empty squares between it and the king, a reply
//! onto one of those squares (a drop, or a move of a piece other than the king) is an
//! interposition. Its capture position Q: the checker takes the piece (a rook or bishop
//! promoting when it may), and the piece goes back to the defender's hand. The reply is worth
//! `min(L(Q), 1 + L(after the reply))`; it is futile when the capture position is what it is
//! worth, and a defender node where every reply is a futile interposition whose Q is mated at
//! once (recursively) ends the line like a checkmate.
//!
//! `cargo test --release --test futile`: about five seconds in release.

mod common;

use common::{
    Brute, capture_position, check_defences, check_line, distant_check, ends_line, flip_sfen,
    hand_after, is_interposition, main_lines, usi,
};
use tsume::solver::{
    MateLine, Outcome, Solver, SolverConfig, is_mate_with_futile_interpositions, verify_mate,
};
use tsume::{Move, Position};

/// A hand-made problem and its answer.
struct Problem {
    sfen: &'static str,
    /// Mate length, futile interpositions not counted.
    length: u32,
    /// The main line the solver must give (USI).
    line: &'static str,
    /// The mate length with every interposition counted, by the brute force within
    /// `plain_plies` (`None`: no mate that short).
    plain: Option<u32>,
    plain_plies: u32,
}

/// Nodes the brute forces may visit for one problem.
const BRUTE_NODES: u64 = 20_000_000;

/// Checks a problem all the ways described in the module docs and returns the solver's line.
fn check(p: &Problem) -> MateLine {
    let sfen = p.sfen;
    let pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    // A legal problem: the attacker (to move) is not in check, and neither is the defender
    // (it would be capturable).
    let attacker = pos.side_to_move();
    let defender_king = pos.king_square(attacker.flip()).expect("a defender king");
    assert!(!pos.in_check(), "{sfen}: the attacker is in check");
    assert!(
        !pos.is_attacked(defender_king, attacker, pos.occupied()),
        "{sfen}: the defender is in check"
    );
    assert_eq!(
        Position::from_sfen(&pos.to_sfen()).unwrap().key(),
        pos.key(),
        "{sfen}: SFEN round trip"
    );

    // The brute force: a mate in exactly `length`, none shorter.
    let mut futile = Brute::new(true, BRUTE_NODES);
    assert_eq!(
        futile.shortest(&pos, p.length),
        Some(Some(p.length)),
        "{sfen}: brute-force length (futile interpositions not counted)"
    );
    let mut plain = Brute::new(false, BRUTE_NODES);
    assert_eq!(
        plain.shortest(&pos, p.plain_plies),
        Some(p.plain),
        "{sfen}: brute-force length with every interposition counted, within {} plies",
        p.plain_plies
    );

    // The solver.
    let mut solver = Solver::new(SolverConfig::new().hash_mib(16).defences(true));
    let line = match solver.solve(&pos).outcome {
        Outcome::Mate(line) => line,
        other => panic!("{sfen}: expected a mate in {}, got {other:?}", p.length),
    };
    let moves = usi(line.moves());
    assert_eq!(line.length(), p.length, "{sfen}: solver's length: {moves}");
    assert!(
        line.is_main_line() && line.line_len() as u32 == p.length,
        "{sfen}: the line shown is not the main line: {moves}"
    );
    assert!(line.shortest_proven() && line.exact(), "{sfen}: {line:?}");
    assert_eq!(moves, p.line, "{sfen}: the solver's main line");
    check_line(&pos, line.moves()).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    verify_mate(&pos, line.moves()).unwrap_or_else(|e| panic!("{sfen}: verify_mate: {e}"));
    assert_eq!(line.hand_left(), hand_after(&pos, line.moves()), "{sfen}");
    let lines = main_lines(&pos, p.length);
    assert!(
        lines.contains(&line.moves().to_vec()),
        "{sfen}: {moves} is not among the brute force's main lines: {:?}",
        lines.iter().map(|l| usi(l)).collect::<Vec<_>>()
    );
    let errors = check_defences(&pos, &line, 7);
    assert!(errors.is_empty(), "{sfen}: defender choices: {errors:#?}");

    // The same problem for White: the same length.
    let flipped = flip_sfen(sfen);
    let fpos = Position::from_sfen(&flipped).unwrap();
    let mut b = Brute::new(true, BRUTE_NODES);
    assert_eq!(
        b.shortest(&fpos, p.length),
        Some(Some(p.length)),
        "{flipped}"
    );
    match solver.solve(&fpos).outcome {
        Outcome::Mate(l) => assert_eq!(l.length(), p.length, "{flipped}"),
        other => panic!("{flipped}: {other:?}"),
    }
    line
}

/// The position after the first `plies` moves of `line` from the problem.
fn after(p: &Problem, line: &MateLine, plies: usize) -> Position {
    let mut pos = Position::from_sfen(p.sfen).unwrap();
    for &mv in &line.moves()[..plies] {
        pos.play_unchecked(mv);
    }
    pos
}

/// Asserts that the final position of the line is not checkmate but every reply there is an
/// interposition (futile: the line checker already requires that it ends the line), and
/// returns those replies.
fn ends_in_futile_interpositions(p: &Problem, line: &MateLine) -> Vec<Move> {
    let end = after(p, line, line.line_len() as usize);
    let replies: Vec<Move> = end.legal_moves().iter().copied().collect();
    assert!(
        !replies.is_empty(),
        "{}: the line ends in checkmate",
        p.sfen
    );
    let dc = distant_check(&end).expect("a distant check");
    for &r in &replies {
        assert!(is_interposition(&end, &dc, r), "{}: {r}", p.sfen);
    }
    assert!(ends_line(&end));
    assert!(is_mate_with_futile_interpositions(&end));
    replies
}

/// The defender's reply at 1-based ply `ply` of the line, checked to be an interposition that
/// is not futile: its capture position is not mated within the plies the line has left from
/// that reply (brute force), so the reply is worth its counted length; or the checker cannot
/// take it. Returns the distant checker's square.
fn counted_interposition(p: &Problem, line: &MateLine, ply: usize) -> tsume::Square {
    let before = after(p, line, ply - 1);
    let mv = line.moves()[ply - 1];
    let dc = distant_check(&before).expect("a distant check");
    assert!(is_interposition(&before, &dc, mv), "{}: {mv}", p.sfen);
    let left = line.line_len() - ply as u32 + 1;
    if let Some(q) = capture_position(&before, &dc, mv) {
        let mut b = Brute::new(true, BRUTE_NODES);
        assert_eq!(
            b.defender_value(&q, left),
            Some(None),
            "{}: the capture position of {mv} is mated within {left}",
            p.sfen
        );
    }
    dc.checker
}

// =============================================================================================
// (a) The problem of the issue
// =============================================================================================

/// The problem of the issue: a mate in 3, which counting the futile interpositions would make
/// a mate in 9.
///
/// White: king 6d, dragon 9d, pawns 6c 5c 4d, tokin 5e; in hand 4g4s4n3l14p (no rook or
/// bishop). Black: lance 7e, dragon 7f, bishops 9g and 9h, nothing in hand.
///
/// 1. 7e7b+ (the lance goes away, promoting) uncovers the bishop on 9g: check along 8f-7e.
///    Every reply is mated at once (the brute force values them all 2): 6d5d, the dragon's
///    9d9g taking the bishop (then 7f7c), or a drop on 7e or 8f (then the dragon mates). Of
///    the replies whose mate leaves the attacker nothing in hand, the king's move comes first
///    in generation order.
/// 2. 6d5d 7f5f uncovers the bishop on 9h: check along 8g-7f-6e. The king has no square, and
///    every reply is a drop on 8g, 7f or 6e (4c, beyond the king, is still on the bishop's
///    line), which the bishop takes (no promotion outside the zone) and mates from there
///    without using the piece: futile. The line ends: mate in 3.
///
/// Counted, those drops (and the ones that follow them) make it 9 plies.
#[test]
fn a_issue_problem_is_a_mate_in_3() {
    let p = Problem {
        sfen: "9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b 4g4s4n3l14p 1",
        length: 3,
        line: "7e7b+ 6d5d 7f5f",
        plain: Some(9),
        plain_plies: 9,
    };
    let line = check(&p);
    let replies = ends_in_futile_interpositions(&p, &line);
    let squares: std::collections::BTreeSet<String> =
        replies.iter().map(|m| m.to().to_string()).collect();
    assert_eq!(squares.into_iter().collect::<Vec<_>>(), ["6e", "7f", "8g"]);
    // Every reply at ply 2 is worth 2: the king's move is one longest defence among many.
    let choice = &line.defences()[0];
    assert!(choice.replies.len() > 10);
    assert!(choice.replies.iter().all(|a| a.length == 2), "{choice:?}");
}

// =============================================================================================
// (b) A rook from afar, every drop between futile
// =============================================================================================

/// White: king 1a, lance 2a, pawn 2b, the rest in hand. Black: knight 2d, rook 5i, nothing
/// in hand.
///
/// 5i1i checks along file 1 (1b to 1h between). The king cannot move (2a and 2b hold its own
/// pieces, 1b is on the rook's line), and no White piece on the board reaches the file, so
/// every reply is a drop between. Each is futile: the rook takes it (promoting on 1c and 1b,
/// in the zone), still checking along the file; what is dropped next is taken the same way,
/// and the dragon on 1b, protected by the knight on 2d, is mate. So 5i1i is a mate in 1, and
/// the only one. Counted, the drops go on for more than 11 plies.
#[test]
fn b_rook_from_afar_with_every_drop_futile_is_a_mate_in_1() {
    let p = Problem {
        sfen: "7lk/7p1/9/7N1/9/9/9/9/4R4 b r2b4g4s3n3l17p 1",
        length: 1,
        line: "5i1i",
        plain: None,
        plain_plies: 11,
    };
    let line = check(&p);
    let replies = ends_in_futile_interpositions(&p, &line);
    // Seven squares, seven kinds, but no knight on 1h (White's knights cannot be dropped on
    // its last two ranks, h and i).
    assert_eq!(replies.len(), 7 * 7 - 1, "{replies:?}");
    assert!(replies.iter().all(|m| m.is_drop()));
    assert_eq!(line.hand_left(), tsume::Hand::EMPTY);
}

// =============================================================================================
// (c) An interposition taken by another piece than the checker
// =============================================================================================

/// White: king 1a, gold 2a, the rest in hand (rb3g4s4n4l17p). Black: tokin 1c, rook 1h
/// (behind the tokin on file 1), a bishop in hand.
///
/// 1. B*3c checks along 2b. The king has no square (1b is the tokin's, 2b the bishop's line).
///    The gold's move 2a2b (移動合) is futile: the bishop takes it promoting, and the horse
///    on 2b, protected by the tokin, is mate (worth 0). A drop on 2b is not: if the checker
///    takes it, the gold on 2a takes the horse (the capture position is not mated in 2).
/// 2. P*2b 1c2b: the tokin takes the pawn, another piece than the checker, and uncovers the
///    rook on 1h: double check, and the gold cannot take both; 2a and 1b are covered. Mate.
///
/// So the drop counts and the mate is in 3, with the pawn left over. Every drop on 2b is as
/// long and leaves one piece over; the pawn is the first. (B*4d and the other bishop drops
/// down the diagonal mate as fast; the first in generation order is shown.)
#[test]
fn c_interposition_taken_by_another_piece_counts() {
    let p = Problem {
        sfen: "7gk/9/8+P/9/9/9/9/8R/9 b Brb3g4s4n4l17p 1",
        length: 3,
        line: "B*3c P*2b 1c2b",
        plain: Some(3),
        plain_plies: 3,
    };
    let line = check(&p);
    let checker = counted_interposition(&p, &line, 2);
    let take = line.moves()[2];
    assert_eq!(
        take.to(),
        line.moves()[1].to(),
        "the interposed piece is taken"
    );
    assert_ne!(
        take.from(),
        Some(checker),
        "by another piece than the checker"
    );
    // The gold's 移動合 is listed as futile.
    let gold = Move::from_usi("2a2b").unwrap();
    let alt = line.defences()[0]
        .replies
        .iter()
        .find(|a| a.mv == gold)
        .expect("2a2b is listed");
    // Worth 0 (its capture position is mate); the length shown is that or an upper bound.
    assert!(alt.futile && (!alt.exact || alt.length == 0), "{alt:?}");
    let end = after(&p, &line, 3);
    assert!(end.legal_moves().is_empty(), "checkmate");
    assert_eq!(end.checkers().count(), 2, "double check");
}

// =============================================================================================
// (d) An interposition the attacker must not capture
// =============================================================================================

/// White: king 5a, lance 6a, pawn 6b, bishop 8f (on the diagonal 7e-6d-5c-4b-3a), a silver
/// in hand. Black: knight 3c, lance 4g (file 4 up to 4a), a lance and a gold in hand.
///
/// 1. L*5d checks along 5c-5b. The king has no square: 4a and 4b are covered (the knight and
///    the lance on 4g), 6a and 6b hold its own pieces. The replies, each worth 2 by the brute
///    force: S*5b, S*5c, and the bishop's 8f5c (移動合). The 移動合 counts: in its capture
///    position (the lance takes the bishop, which is then in neither hand) White still has
///    the silver, and S*5b next to the king, taken by the lance, is taken back by the king, so
///    that position does not end the line. After 8f5c, G*4b mates: the bishop on 5c shields
///    its king from the lance on 5d and cannot take the gold.
/// 2. S*5c, two squares from the king, must not be taken: the lance taking it (as in its
///    capture position) is taken by the bishop, and no mate follows within 2. Instead G*4b:
///    the silver now blocks the bishop's diagonal, so the gold, protected by the lance on 4g,
///    stays; 4a and 5b are the gold's, 6a and 6b White's own. Mate in 3, nothing left over.
///
/// S*5b is as long: after it G*4a mates (3c4a+ as well, but it leaves the gold over, and
/// among equally short mates the attacker's line uses up its pieces). The three replies leave
/// nothing over, and 8f5c, the board move, comes first in generation order.
#[test]
fn d_interposition_the_attacker_must_not_capture_counts() {
    let p = Problem {
        sfen: "3lk4/3p5/6N2/9/9/1b7/5L3/9/9 b LGs 1",
        length: 3,
        line: "L*5d 8f5c G*4b",
        plain: Some(3),
        plain_plies: 3,
    };
    let line = check(&p);
    counted_interposition(&p, &line, 2);
    // S*5c, two squares from the king, counts as well and must not be taken: after 5d5c (or
    // 5d5c+) the line does not end.
    let mut at = after(&p, &line, 1);
    let king = at.king_square(tsume::Color::White).unwrap();
    let s5c = Move::from_usi("S*5c").unwrap();
    assert!(
        king.rank().abs_diff(s5c.to().rank()) > 1,
        "not next to the king"
    );
    at.play(s5c).unwrap();
    for take in ["5d5c", "5d5c+"] {
        if let Ok(mv) = at.parse_usi_move(take) {
            let mut c = at.clone();
            c.play(mv).unwrap();
            assert!(!ends_line(&c), "{take}");
        }
    }
    assert!(
        line.defences()[0]
            .replies
            .iter()
            .any(|a| a.mv == s5c && !a.futile)
    );
    assert!(main_lines(&at_root(&p), 3).contains(&moves_of("L*5d S*5c G*4b")));
    let lengths: Vec<(String, u32)> = line.defences()[0]
        .replies
        .iter()
        .map(|a| (a.mv.to_string(), a.length))
        .collect();
    assert_eq!(
        lengths,
        [("8f5c".into(), 2), ("S*5b".into(), 2), ("S*5c".into(), 2)]
    );
}

// =============================================================================================
// (e) The captured piece is dropped later
// =============================================================================================

/// White: king 8a, promoted knight 8c, the rest in hand. Black: dragon 9c, horse 9d, a rook
/// in hand.
///
/// 1. 9c8c: the dragon takes the promoted knight and checks along 8b (adjacent to the king).
///    The king may go to 7a or 9a (mated at once), or drop a piece on 8b. Taking it with the
///    dragon lets the king take the dragon, so no drop is futile (no capture position is
///    mated within 6). A pawn, lance, knight, silver or bishop on 8b is mated in 3 more; the
///    gold holds out longest, 5 more (the brute force).
/// 2. G*8b: two mates in 5 more. 8c8b (the dragon takes the gold) 8a8b (the king takes the
///    dragon), and the gold comes back: R*7b 8b8a G*8b, with the knight left over; in the
///    capture position (the gold handed back to White) Black has no gold, and that mate is
///    gone. Or N*7c 8a9a R*9b 8b9b 7c8a+, which uses up the knight and the rook: the line
///    shown, as the attacker's line uses up its pieces among equally short mates.
#[test]
fn e_interposed_piece_captured_and_dropped_again_counts() {
    let p = Problem {
        sfen: "1k7/9/+R+n7/+B8/9/9/9/9/9 b Rb4g4s3n4l18p 1",
        length: 7,
        line: "9c8c G*8b N*7c 8a9a R*9b 8b9b 7c8a+",
        plain: Some(7),
        plain_plies: 7,
    };
    let line = check(&p);
    counted_interposition(&p, &line, 2);
    // The line that takes the gold and drops it again is as long.
    assert!(main_lines(&at_root(&p), 7).contains(&moves_of("9c8c G*8b 8c8b 8a8b R*7b 8b8a G*8b")));
    // The gold is the longest of the drops on 8b; the others are worth 4.
    for a in &line.defences()[0].replies {
        let expected = match a.mv.to_string().as_str() {
            "G*8b" => 6,
            "8a7a" | "8a9a" => 2,
            _ => 4,
        };
        assert!(a.length <= expected && !a.futile, "{a:?}");
    }
    assert_eq!(line.hand_left().total(), 0);
}

/// A 移動合 that counts for the same kind of reason, away from the king: the rook moved in
/// between is taken, and the mate after it drops the rook.
///
/// White: king 2a, rook 4d, promoted knight 1c, nothing in hand. Black: promoted knight 2d,
/// a rook and a gold in hand.
///
/// 1. R*5a checks along 4a-3a. 2a2b is the longest reply (2a1b is mated in 3 more, 2a3b at
///    once, and 4d4a between is worth 4).
/// 2. 2a2b 5a5b+: the dragon checks along 4b-3b. The king's moves are mated at once; 4d4b
///    (移動合, two squares from the king) is worth 4: its capture position (the rook in
///    neither hand) does not end the line, so it is counted.
/// 3. 4d4b 5b4b (the dragon takes the rook) 2b1a R*3a (the rook taken, dropped): mate in 7,
///    the gold left over.
///
/// The gold first is not as short any more: after R*5a 2a2b G*3c 2b1b 5a5b+ the same 4d4b
/// is counted (its capture position is mated in 2, 1b1a 3c2b, not at once) and makes that
/// line 9 plies. (Had the rook's 移動合 been futile there, as the rule with the rook handed
/// back to White's hand judged it, that line would have been a mate in 7 with nothing left
/// over.)
#[test]
fn e_move_interposition_away_from_the_king_counts() {
    let p = Problem {
        sfen: "7k1/9/8+n/5r1+N1/9/9/9/9/9 b RG 1",
        length: 7,
        line: "R*5a 2a2b 5a5b+ 4d4b 5b4b 2b1a R*3a",
        plain: Some(7),
        plain_plies: 7,
    };
    let line = check(&p);
    assert_eq!(line.hand_left().total(), 1, "the gold");
    let moves = line.moves();
    assert!(!moves[3].is_drop(), "a board move between (移動合)");
    // Counted: listed at its ply with the rest of the line, not as futile.
    let played = line.defences()[1]
        .replies
        .iter()
        .find(|a| a.mv == moves[3])
        .expect("listed");
    assert!(!played.futile && played.length == 4, "{played:?}");
}

// =============================================================================================
// (f) Futile interpositions after the last move
// =============================================================================================

/// White: king 1c, the rest in hand (no rook). Black: dragon 3b, a rook in hand.
///
/// 1. R*2c (protected by the dragon) checks; 1b is covered by the dragon, 1d is the only
///    square: 1c1d.
/// 2. 3b1b checks along 1c. The king cannot go to 1e (still on the dragon's file), 2d or 2e
///    (the rook's file), nor take anything. Every reply is a drop on 1c, which the dragon
///    takes, protected by the rook on 2c: mate. Futile, so the line ends there: mate in 3.
///    Counted, X*1c 1b1c makes it 5.
#[test]
fn f_futile_interpositions_after_the_last_move() {
    let p = Problem {
        sfen: "9/6+R2/8k/9/9/9/9/9/9 b R2b4g4s4n4l18p 1",
        length: 3,
        line: "R*2c 1c1d 3b1b",
        plain: Some(5),
        plain_plies: 5,
    };
    let line = check(&p);
    let replies = ends_in_futile_interpositions(&p, &line);
    assert!(replies.iter().all(|m| m.to().to_string() == "1c"));
    assert_eq!(replies.len(), 6, "P L N S G B (White has no rook)");
}

// =============================================================================================
// (g) A futile 移動合
// =============================================================================================

/// White: king 1a, lance 2a, pawn 2b, gold 2e, nothing in hand. Black: knight 2d, rook 5i,
/// nothing in hand.
///
/// 5i1i checks along file 1. White has nothing to drop; the only replies are the gold's
/// moves between, 2e1e and 2e1f (移動合). Both are futile: the rook takes the gold (it goes
/// back to White's hand), and the gold dropped between again is taken again, until the dragon
/// on 1b, protected by the knight, mates. Mate in 1. Counted: 5i1i 2e1e 1i1e, and Black keeps
/// the gold, White has nothing left to interpose: 3.
#[test]
fn g_futile_move_interposition() {
    let p = Problem {
        sfen: "7lk/7p1/9/7N1/7g1/9/9/9/4R4 b - 1",
        length: 1,
        line: "5i1i",
        plain: Some(3),
        plain_plies: 3,
    };
    let line = check(&p);
    let replies = ends_in_futile_interpositions(&p, &line);
    let mut got: Vec<String> = replies.iter().map(|m| m.to_string()).collect();
    got.sort();
    assert_eq!(got, ["2e1e", "2e1f"]);
}

// =============================================================================================
// (h) An interposition next to the king, which the king could take back
// =============================================================================================

/// White: king 1a, the rest in hand (no rook). Black: rook 2g (file 2 is covered: 2a and
/// 2b), a rook and a lance in hand.
///
/// 1. L*1c checks along 1b. The king cannot move (2a and 2b covered, 1b on the line), so
///    every reply is a drop on 1b, next to the king. Its capture position has the lance on
///    1b (a lance's capture does not promote), unprotected: the king takes it, no mate within 2,
///    so the drop is not futile; it counts.
/// 2. P*1b R*2a: the rook on 2a, protected by the one on 2g, checks; 1b holds White's own
///    pawn and 2b is covered twice. Mate in 3, nothing left over.
///
/// Had the drop been futile, L*1c would have been a mate in 1.
#[test]
fn h_interposition_next_to_the_king_that_it_could_take_back_counts() {
    let p = Problem {
        sfen: "8k/9/9/9/9/9/7R1/9/9 b RL2b4g4s4n3l18p 1",
        length: 3,
        line: "L*1c P*1b R*2a",
        plain: Some(3),
        plain_plies: 3,
    };
    let line = check(&p);
    counted_interposition(&p, &line, 2);
    let after_check = after(&p, &line, 1);
    assert!(!ends_line(&after_check));
    assert!(!is_mate_with_futile_interpositions(&after_check));
    // In the capture position the king can take the lance.
    let dc = distant_check(&after_check).unwrap();
    let q = capture_position(&after_check, &dc, line.moves()[1]).unwrap();
    let take_back = q.parse_usi_move("1a1b").unwrap();
    assert!(q.is_legal(take_back));
    // Every reply is a drop on 1b (no rook left for White), counted, worth 2.
    let choice = &line.defences()[0];
    assert_eq!(choice.replies.len(), 6);
    assert!(
        choice.replies.iter().all(|a| a.length == 2
            && !a.futile
            && a.mv.is_drop()
            && a.mv.to() == line.moves()[1].to()),
        "{choice:?}"
    );
}

// =============================================================================================
// (k)-(n) Moving interpositions (移動合): chains, and the ones that count
// =============================================================================================

/// The capture position with the old rule's hands: the captured piece handed back to the
/// defender's hand, also for a moved piece.
fn handed_back(pos: &Position, mv: Move) -> Position {
    let dc = distant_check(pos).expect("a distant check");
    let from = mv.from().expect("a board move");
    let kind = pos.piece_at(from).unwrap().kind().unpromote();
    let defender = pos.side_to_move();
    let mut c = pos.clone();
    c.play(mv).unwrap();
    let capture = c
        .parse_usi_move(&format!("{}{}+", dc.checker, mv.to()))
        .or_else(|_| c.parse_usi_move(&format!("{}{}", dc.checker, mv.to())))
        .unwrap();
    c.play(capture).unwrap();
    let mut att = c.hand(defender.flip());
    let mut def = c.hand(defender);
    att.remove(kind);
    def.add(kind);
    match defender {
        tsume::Color::White => common::with_hands(&c, att, def),
        tsume::Color::Black => common::with_hands(&c, def, att),
    }
}

/// The corner bishop's discovered check answered by a chain of 移動合: a mate in 1.
///
/// White: king 1a, pawn 1b, knight 6c, silvers 4c and 2d, nothing in hand. Black: bishop 9i,
/// pawn 7g, gold 3a, nothing in hand.
///
/// 7g7f uncovers the bishop: check along 8h-7g-6f-5e-4d-3c-2b. The king cannot move (2a is
/// the gold's, 1b its own pawn's, 2b on the line), and nothing of White's reaches 2b. The
/// replies are the 移動合 6c5e (knight), 4c4d and 2d3c (silvers). Each is taken by the bishop
/// (promoting on 3c), and the captured piece, held by Black and never used, is in neither
/// hand in the capture position: after 6c5e 9i5e the others can still move in and be taken,
/// and after the last capture the horse on 3c checks along 2b, which no White piece reaches:
/// mate. Every capture position ends the line, so every reply is futile: mate in 1.
///
/// Counted, the chain is 7g7f 6c5e 9i5e 4c4d 5e4d 2d3c 4d3c+, a mate in 7 that ends with two
/// silvers and a knight in Black's hand. That is what the rule gave when it handed a moved
/// piece back to the defender's hand: White could then drop it on 2b, next to the king,
/// where the bishop's capture is taken back by the king, so no capture position ended the
/// line (asserted below with those hands).
#[test]
fn k_corner_bishop_chain_of_moving_interpositions_is_a_mate_in_1() {
    let p = Problem {
        sfen: "6G1k/8p/3n1s3/7s1/9/9/2P6/9/B8 b - 1",
        length: 1,
        line: "7g7f",
        plain: Some(7),
        plain_plies: 7,
    };
    let line = check(&p);
    let replies = ends_in_futile_interpositions(&p, &line);
    let mut got: Vec<String> = replies.iter().map(|m| m.to_string()).collect();
    got.sort();
    assert_eq!(got, ["2d3c", "4c4d", "6c5e"]);
    let end = after(&p, &line, 1);
    let dc = distant_check(&end).unwrap();
    for &r in &replies {
        let q = capture_position(&end, &dc, r).expect("a capture position");
        assert!(
            q.hand(tsume::Color::White).is_empty(),
            "{r}: in neither hand"
        );
        assert!(
            q.hand(tsume::Color::Black).is_empty(),
            "{r}: in neither hand"
        );
        assert!(ends_line(&q), "{r}");
        // With the piece in White's hand, a drop on 2b would be a real defence.
        let old = handed_back(&end, r);
        assert!(
            !ends_line(&old),
            "{r}: handed back, the capture position goes on"
        );
        assert!(
            old.legal_moves()
                .iter()
                .any(|m| m.is_drop() && m.to().to_string() == "2b"),
            "{r}: handed back, it can be dropped next to the king"
        );
    }
}

/// A 移動合 whose departure opens a flight square counts.
///
/// White: king 1a, knight 2a, pawn 1b, nothing in hand. Black: bishop 9i, pawn 7g, a gold in
/// hand.
///
/// 1. 7g7f uncovers the bishop: check along the diagonal to 2b. The king cannot move (2a and
///    1b hold its own pieces, 2b is on the line). The only reply is the knight's 2a3c.
/// 2. 2a3c 9i3c+: the horse takes the knight, but 2a is empty now and the horse does not
///    reach it: 1a2a. Its capture position does not end the line, so the 移動合 counts.
/// 3. 1a2a G*2b: the gold, protected by the horse, covers 1a, 3a, 3b; 1b is White's own:
///    mate in 5, the knight left over.
///
/// With the knight handed back to White's hand, the rule took 2a3c for futile (its capture
/// position is mated in 2, sooner than the 4 plies counted) and called this a mate in 3,
/// showing 5 plies: a length shorter than the play.
#[test]
fn l_moving_interposition_that_opens_a_flight_counts() {
    let p = Problem {
        sfen: "7nk/8p/9/9/9/9/2P6/9/B8 b G 1",
        length: 5,
        line: "7g7f 2a3c 9i3c+ 1a2a G*2b",
        plain: Some(5),
        plain_plies: 5,
    };
    let line = check(&p);
    counted_interposition(&p, &line, 2);
    let at = after(&p, &line, 1);
    let dc = distant_check(&at).unwrap();
    assert!(capture_position(&at, &dc, line.moves()[1]).is_none());
    assert_eq!(line.hand_left().to_string(), "N");
}

/// The rule stays on the safe side: a 移動合 is futile only when its capture position ends
/// the line. Here that makes a mate in 7 of what composers count as a mate in 5.
///
/// The position of (l) with a White silver on 4c, which can also move in (4c4d). After
/// 7g7f 4c4d 9i4d the silver is held by Black and the knight's 2a3c is still a real
/// defence (it opens 2a), so the silver's capture position does not end the line and the
/// silver's 移動合 counts: 7g7f 4c4d 9i4d 2a3c 4d3c+ 1a2a S*2b (the silver dropped; G*2b is as
/// short). Composers would call 4c4d futile (the mate after its capture is the mate of (l)),
/// but telling that apart needs the mate lengths of two positions (see `tsume::rules`); the
/// interposition is counted, which can only make a length longer, never shorter.
#[test]
fn m_moving_interposition_before_a_real_one_counts() {
    let p = Problem {
        sfen: "7nk/8p/5s3/9/9/9/2P6/9/B8 b G 1",
        length: 7,
        line: "7g7f 4c4d 9i4d 2a3c 4d3c+ 1a2a S*2b",
        plain: Some(7),
        plain_plies: 7,
    };
    let line = check(&p);
    counted_interposition(&p, &line, 2);
    counted_interposition(&p, &line, 4);
}

/// A 移動合 whose departure opens a line for another defender piece counts.
///
/// White: king 1a, pawn 1b, lance 4a, silver 4c (on the lance's file), nothing in hand.
/// Black: bishop 9i, pawn 7g, gold 3a, nothing in hand.
///
/// 7g7f uncovers the bishop. The king cannot move (2a is the gold's, 1b its pawn's), and the
/// only reply is the silver's 4c4d. It unblocks file 4: if the bishop takes on 4d, the lance
/// takes the bishop. So its capture position does not end the line, and Black has no mate at
/// all (the brute force: none within 7 plies; Black's other check, 3a2a, is taken by the
/// king). Had the silver's move been futile, 7g7f would have been a mate in 1.
#[test]
fn n_moving_interposition_that_opens_a_line_counts() {
    let sfen = "5lG1k/8p/5s3/9/9/9/2P6/9/B8 b - 1";
    for s in [sfen.to_string(), flip_sfen(sfen)] {
        let pos = Position::from_sfen(&s).unwrap();
        let mut brute = Brute::new(true, BRUTE_NODES);
        assert_eq!(brute.shortest(&pos, 7), Some(None), "{s}");
        let mut solver = Solver::new(SolverConfig::new().hash_mib(16));
        assert!(
            matches!(solver.solve(&pos).outcome, Outcome::NoMate),
            "{s}: expected no mate"
        );
    }
    let mut at = Position::from_sfen(sfen).unwrap();
    at.play(at.parse_usi_move("7g7f").unwrap()).unwrap();
    let replies: Vec<String> = at.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(replies, ["4c4d"]);
    assert!(!ends_line(&at) && !is_mate_with_futile_interpositions(&at));
    let dc = distant_check(&at).unwrap();
    assert!(capture_position(&at, &dc, Move::from_usi("4c4d").unwrap()).is_none());
}

// =============================================================================================
// Lines through defences made only of futile interpositions
// =============================================================================================

// =============================================================================================
// (o) Repeated interpositions: the saw rule (馬鋸, 龍鋸)
// =============================================================================================

/// A horse saw's positions: P (White to move), the horse on 3c checking the king on 1a along
/// 2b; then 1a1b, 3c3d (checking along 2c), 1b1a, 3d4d: N, the horse checking from 4d along
/// 3c and 2b. Black also has a knight on 1d (it guards 2b) and a gold in hand; White a pawn on
/// 1c and every other piece in hand. Returns the positions before N (P first) and N.
fn horse_saw() -> (Vec<Position>, Position) {
    let mut pos = Position::from_sfen("8k/9/6+B1p/8N/9/9/9/9/9 w G2rb3g4s3n4l17p 1").unwrap();
    let mut line = vec![];
    for usi in ["1a1b", "3c3d", "1b1a", "3d4d"] {
        line.push(pos.clone());
        pos.play(pos.parse_usi_move(usi).unwrap()).unwrap();
    }
    (line, pos)
}

/// (o) A drop on the square the horse left a cycle earlier is a repeated interposition.
///
/// At N, White has: the king's moves 1a1b and 1a2a, each answered by G*2b, mate (the gold is
/// guarded by the horse through 3c; mate in 2); drops on 2b, each taken by the horse, which
/// the knight guards there: mate at once (futile, worth 0); and drops on 3c. A drop on 3c,
/// taken 4d3c, gives back P with the piece in Black's hand: its capture position (the piece
/// handed back) is P itself.
///
/// - Off the line (P not played before), the drop on 3c is an ordinary interposition whose
///   capture position P is mated in 2 (1a1b G*2b): futile, N is worth 2.
/// - On the line without the saw rule, P is a repetition, never mated, so the drop counts:
///   a silver on 3c (it guards 2b against G*2b) is worth 4 (4d3c, then as from P). N: 4.
/// - On the line with the saw rule, the drops on 3c are worth nothing beside the king's
///   moves: N is worth 2, as off the line.
#[test]
fn o_repeated_interposition_in_a_horse_saw_is_worth_nothing() {
    let (line, n) = horse_saw();
    let dc = distant_check(&n).expect("the horse checks from afar");
    let s3c = n.parse_usi_move("S*3c").unwrap();
    assert!(is_interposition(&n, &dc, s3c));
    assert_eq!(
        capture_position(&n, &dc, s3c).unwrap().key(),
        line[0].key(),
        "the capture position of a drop on 3c is P"
    );
    let value = |brute: Brute| {
        let mut brute = brute;
        brute.defender_value(&n, 6)
    };
    let off = value(Brute::new(true, BRUTE_NODES));
    let counted = value(Brute::new(true, BRUTE_NODES).on_line(&line, false));
    let saw = value(Brute::new(true, BRUTE_NODES).on_line(&line, true));
    assert_eq!(off, Some(Some(2)), "off the line");
    assert_eq!(counted, Some(Some(4)), "on the line, the drop counted");
    assert_eq!(saw, Some(Some(2)), "on the line, the saw rule");
}

/// Checks that the solver gives a mate of exactly `length` plies, proven shortest and exact,
/// that is one of the brute force's main lines, for `sfen` and its colour-swapped twin.
fn assert_shown_line_of_mate_length(sfen: &str, length: u32) -> Vec<String> {
    let mut failures = Vec::new();
    for s in [sfen.to_string(), flip_sfen(sfen)] {
        let pos = Position::from_sfen(&s).unwrap();
        let mut futile = Brute::new(true, BRUTE_NODES);
        assert_eq!(futile.shortest(&pos, length), Some(Some(length)), "{s}");
        let lines = main_lines(&pos, length);
        assert!(
            !lines.is_empty(),
            "{s}: no line of {length} plies can be shown"
        );
        let mut solver = Solver::new(SolverConfig::new().hash_mib(16));
        let line = match solver.solve(&pos).outcome {
            Outcome::Mate(line) => line,
            other => panic!("{s}: {other:?}"),
        };
        check_line(&pos, line.moves()).unwrap_or_else(|e| panic!("{s}: {e}"));
        if !(line.length() == length
            && line.line_len() as u32 == length
            && line.shortest_proven()
            && line.exact()
            && lines.contains(&line.moves().to_vec()))
        {
            failures.push(format!(
                "{s}: solver's mate in {} (shortest proven {}, exact {}): {}; the brute force \
                 mates in {length}, e.g. {}",
                line.line_len(),
                line.shortest_proven(),
                line.exact(),
                usi(line.moves()),
                usi(&lines[0])
            ));
        }
    }
    failures
}

/// Found by the random-position tests. Each position has a mate whose length is worth less
/// than any line through it that could be shown: at some defender node of it, every longest
/// reply is a futile interposition (worth its capture position's length, shorter than the
/// reply counted), so its line would continue from the capture position, which is not a
/// position of the game. Other mates of the same length have lines that can be shown (the
/// brute force lists them); the solver must give one of those, proven shortest.
///
/// The first, explained: White attacks, king-less, with a horse on 3h and a rook and a lance
/// in hand; Black: king 1h, pawn 1e, everything else in hand. L*1g (the king must take it)
/// and R*2h are mates in 3 with lines that can be shown. L*1f is worth a mate in 3 too, but
/// only through futile interpositions: every reply is a drop on 1g (no pawn: the one on 1e),
/// mated in 3 more counted (the lance takes it, the king takes the lance, R*1f) but whose
/// capture position is mated in 2. The others are alike, with mates in 5.
#[test]
fn i_defences_made_only_of_futile_interpositions_do_not_hide_a_line() {
    let cases = [
        ("9/9/9/9/8P/9/9/6+b1K/9 w RB4G4S4N3L17Prl 1", 3),
        ("9/7B1/7k1/9/9/6+R2/9/9/9 b Rb4g4s4n4l18p 1", 5),
        ("9/k8/9/BG7/9/9/9/9/9 b Rrb3g4s4n4l18p 1", 5),
        ("k8/9/9/B8/9/9/9/9/9 b 2RGb3g4s4n4l18p 1", 5),
    ];
    let failures: Vec<String> = cases
        .iter()
        .flat_map(|&(sfen, n)| assert_shown_line_of_mate_length(sfen, n))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Found by the random-position tests: a three-piece position with a mate in 5 (R*4b 2b2a
/// B*4c 2a1a L*1b) for which the solver must prove that there is no mate in 3.
#[test]
fn j_small_mate_is_proven_shortest() {
    let failures = assert_shown_line_of_mate_length("7S1/7k1/9/9/7+S1/9/9/9/9 b RBL 1", 5);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// =============================================================================================
// The definition against the library's
// =============================================================================================

/// `is_mate_with_futile_interpositions` agrees with the definition of tests/common on every
/// position along the lines of the problems above, on every position reached by one check
/// from them, and on the capture positions of every interposition there.
#[test]
fn library_line_end_test_agrees_with_the_definition() {
    let sfens = [
        "9/9/3pp4/+r2k1p3/2L1+p4/2+R6/B8/B8/9 b 4g4s4n3l14p 1",
        "7lk/7p1/9/7N1/9/9/9/9/4R4 b r2b4g4s3n3l17p 1",
        "7gk/9/8+P/9/9/9/9/8R/9 b Brb3g4s4n4l17p 1",
        "3lk4/3p5/6N2/9/9/1b7/5L3/9/9 b LGs 1",
        "1k7/9/+R+n7/+B8/9/9/9/9/9 b Rb4g4s3n4l18p 1",
        "7k1/9/8+n/5r1+N1/9/9/9/9/9 b RG 1",
        "9/6+R2/8k/9/9/9/9/9/9 b R2b4g4s4n4l18p 1",
        "7lk/7p1/9/7N1/7g1/9/9/9/4R4 b - 1",
        "8k/9/9/9/9/9/7R1/9/9 b RL2b4g4s4n3l18p 1",
    ];
    let mut compared = 0;
    let mut ends = 0;
    let mut solver = Solver::new(SolverConfig::new().hash_mib(16));
    for sfen in sfens {
        let root = Position::from_sfen(sfen).unwrap();
        let Outcome::Mate(line) = solver.solve(&root).outcome else {
            panic!("{sfen}: no mate");
        };
        let mut pos = root.clone();
        for (i, &mv) in line.moves().iter().enumerate() {
            if i % 2 == 0 {
                // Attacker to move: every check.
                for check in pos.check_moves() {
                    let mut c = pos.clone();
                    c.play_unchecked(check);
                    let mut todo = vec![c];
                    // The position, and the capture positions of its interpositions (one per
                    // square: the piece goes back to the hand it came from).
                    let mut seen = std::collections::HashSet::new();
                    while let Some(d) = todo.pop() {
                        if !seen.insert(d.key()) {
                            continue;
                        }
                        let mine = ends_line(&d);
                        assert_eq!(
                            mine,
                            is_mate_with_futile_interpositions(&d),
                            "{}",
                            d.to_sfen()
                        );
                        compared += 1;
                        ends += mine as u32;
                        if let Some(dc) = distant_check(&d) {
                            for r in d.legal_moves() {
                                if is_interposition(&d, &dc, r) {
                                    todo.extend(capture_position(&d, &dc, r));
                                }
                            }
                        }
                    }
                }
            }
            pos.play_unchecked(mv);
        }
    }
    assert!(
        compared > 500 && ends > 20,
        "{compared} positions, {ends} line ends"
    );
}

/// The problem's position.
fn at_root(p: &Problem) -> Position {
    Position::from_sfen(p.sfen).unwrap()
}

/// USI moves, space-separated.
fn moves_of(text: &str) -> Vec<Move> {
    text.split_whitespace()
        .map(|t| Move::from_usi(t).unwrap())
        .collect()
}
