//! Property tests of the invariants of the public API.
//!
//! * Random legal playouts, from the start position and from random tsume-like positions
//!   (defender's king, optional attacker king, a few pieces, a few pieces in the attacker's
//!   hand, `fill_defender_hand`), Black and White to move. At every visited position:
//!   SFEN round trip, incremental keys against keys from scratch, `check_moves` against
//!   `gives_check`, `evasions` against `legal_moves`, no duplicate moves, `is_legal` /
//!   `check_legality` / `play` against the generated moves on a superset of candidate moves,
//!   king safety after every move, equal keys for transpositions. The generated moves are also
//!   compared with a slow, independent reference move generator (tests/common/reference.rs).
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

mod common;

use common::reference::{Rng, *};
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

/// A playout from `root`, one ply per entry of `choices`, checking every position. One
/// position in `exhaustive_every` gets the exhaustive candidate check (the root always does).
/// A choice `c` picks among the checks, if any, when `c % 3 == 0`, else among all legal
/// moves, the move at `c / 3` modulo their number; it also seeds the transposition check of
/// its position. So proptest's shrinking works on playouts: fewer plies, and choices closer
/// to 0 (the first moves generated). A failure or a panic reports the root SFEN and the moves
/// played.
fn playout(root: Position, choices: &[u32], exhaustive_every: usize) -> TestResult {
    let root_sfen = root.to_sfen();
    let mut history: Vec<String> = Vec::new();
    let result = catch_unwind(AssertUnwindSafe(|| {
        playout_inner(root, choices, exhaustive_every, &mut history)
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
    choices: &[u32],
    exhaustive_every: usize,
    history: &mut Vec<String>,
) -> TestResult {
    let mut book = KeyBook::default();
    for ply in 0..=choices.len() {
        check_position_guarded(&pos, ply % exhaustive_every == 0)?;
        book.record(&pos)?;
        let c = choices.get(ply).copied().unwrap_or(0);
        transposition_check(&pos, &mut Rng::new(u64::from(c) ^ 0xdead_beef))?;
        let legal = pos.legal_moves();
        if legal.is_empty() || ply == choices.len() {
            break;
        }
        let checks = pos.check_moves();
        let among: &[Move] = if !checks.is_empty() && c % 3 == 0 {
            &checks
        } else {
            &legal
        };
        let m = among[(c / 3) as usize % among.len()];
        history.push(m.to_string());
        let r = pos.play(m);
        prop_assert!(r.is_ok(), "play of a generated move failed: {:?}", r);
    }
    Ok(())
}

/// Up to 80 plies of choices for [`playout`].
fn choices(max: usize) -> impl Strategy<Value = Vec<u32>> {
    prop::collection::vec(any::<u32>(), 0..=max)
}

/// Runs `property` for the seeds `0..count`, naming the seed of a failure. For properties of
/// positions or strings built from a seed, where shrinking the seed would mean nothing.
fn for_seeds(count: u64, property: impl Fn(u64) -> TestResult) {
    for seed in 0..count {
        match property(seed) {
            Ok(()) | Err(TestCaseError::Reject(_)) => {}
            Err(TestCaseError::Fail(why)) => panic!("seed {seed}: {why}"),
        }
    }
}

// =============================================================================================
// Playout properties.
// =============================================================================================

proptest! {
    #![proptest_config(config(32))]

    #[test]
    fn playouts_from_startpos(choices in choices(80)) {
        playout(Position::startpos(), &choices, 8)?;
    }
}

proptest! {
    #![proptest_config(config(96))]

    /// The root from a seed (its SFEN is in a failure's message), the playout a strategy.
    #[test]
    fn playouts_from_random_tsume_positions(seed in any::<u64>(), choices in choices(80)) {
        let mut rng = Rng::new(seed);
        let root = random_tsume_position(&mut rng)?;
        playout(root, &choices, 8)?;
    }
}

proptest! {
    #![proptest_config(config(64))]

    /// Positions where a pawn drop would mate: the drop must be refused everywhere, then a
    /// short playout with the exhaustive check at every ply.
    #[test]
    fn drop_pawn_mate_positions(seed in any::<u64>(), choices in choices(4)) {
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
        playout(root, &choices, 1)?;
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

#[test]
fn from_sfen_never_panics_on_mutated_valid_sfens() {
    for_seeds(5000, |seed| {
        let mut rng = Rng::new(seed);
        let valid = random_valid_sfen(&mut rng)?;
        let mutated = mutate(&valid, &mut rng);
        fuzz_sfen(&mutated, true)
    });
}

#[test]
fn from_sfen_agrees_with_the_reference_validator() {
    for_seeds(5000, |seed| {
        let mut rng = Rng::new(seed);
        let cand = random_dense_candidate(&mut rng);
        let canonical = cand.sfen(if rng.chance(1, 2) {
            None
        } else {
            Some(rng.below(1000) as u32)
        });
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
        Ok(())
    });
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
