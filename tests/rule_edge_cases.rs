//! Every case of tests/data/rule_edge_cases.tsv (copied from
//! ../shared/problems-raw/rule-edge-cases), each with its assertion written out in code.
//!
//! Rows about mate lengths under the futile-interposition convention need the solver; here they
//! get the checks the rules core can make (the position is valid, a plain mate in one exists or
//! not, the attacker has checks), and the solver's tests take them further.

use std::collections::BTreeSet;
use tsume::{Color, IllegalMove, Move, Position, SfenError, perft};

fn rows() -> Vec<(String, String)> {
    include_str!("data/rule_edge_cases.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].to_string())
        })
        .collect()
}

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn mv(s: &str) -> Move {
    Move::from_usi(s).unwrap()
}

fn usi_set(moves: impl IntoIterator<Item = Move>) -> BTreeSet<String> {
    moves.into_iter().map(|m| m.to_string()).collect()
}

fn set(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// A checking move after which the opponent has no legal move (interpositions all counted).
fn plain_mates_in_one(p: &Position) -> Vec<Move> {
    p.check_moves()
        .into_iter()
        .filter(|&m| {
            let mut c = p.clone();
            c.play_unchecked(m);
            c.legal_moves().is_empty()
        })
        .collect()
}

fn expect(index: usize, sfen: &str) {
    let legal = |s: &str, m: &str| pos(s).is_legal(mv(m));
    match index {
        // --- uchifuzume
        0 | 1 => {
            let p = pos(sfen);
            assert!(p.is_legal(mv("L*5b")));
            assert_eq!(p.check_legality(mv("P*5b")), Err(IllegalMove::DropPawnMate));
            assert!(!p.legal_moves().contains(&mv("P*5b")));
            assert!(!p.check_moves().contains(&mv("P*5b")));
        }
        2 => {
            let p = pos(sfen);
            assert_eq!(p.check_legality(mv("P*1b")), Err(IllegalMove::DropPawnMate));
            assert_eq!(perft(&p, 1), 85);
        }
        3 | 4 | 6 => {
            let p = pos(sfen);
            assert_eq!(p.check_legality(mv("P*1d")), Err(IllegalMove::DropPawnMate));
            assert!(!p.check_moves().contains(&mv("P*1d")));
        }
        5 | 7 => {
            let p = pos(sfen);
            assert!(p.is_legal(mv("P*1d")));
            assert!(p.check_moves().contains(&mv("P*1d")));
        }
        8 => {
            let p = pos(sfen);
            assert!(p.is_legal(mv("P*2b")));
            assert!(p.check_moves().contains(&mv("P*2b")));
        }
        9 => {
            let p = pos(sfen);
            assert!(p.is_legal(mv("P*1b")));
            assert!(p.check_moves().contains(&mv("P*1b")));
        }
        10 => {
            let p = pos(sfen);
            assert_eq!(p.check_legality(mv("P*9b")), Err(IllegalMove::DropPawnMate));
            assert!(plain_mates_in_one(&p).is_empty());
        }
        11 => {
            // Mate in 5 "involving uchifuzume": the solver's tests check the length.
            let p = pos(sfen);
            assert!(p.is_legal(mv("4a2c")), "23角不成 is legal");
            assert!(p.check_moves().contains(&mv("4a2c")));
            assert!(plain_mates_in_one(&p).is_empty());
        }
        // --- nifu
        12 => {
            let p = pos(sfen);
            assert!(!plain_mates_in_one(&p).is_empty(), "mate in 1 expected");
        }
        13 => assert_eq!(
            Position::from_sfen(sfen).unwrap_err(),
            SfenError::TwoPawns {
                color: Color::White,
                file: 9
            }
        ),
        14 => {
            let p = pos(sfen);
            assert_eq!(perft(&p, 1), 72);
            assert_eq!(perft(&p, 2), 355);
        }
        15 | 16 => {
            // The source position has six silvers (its author swapped bishop and rook for
            // silvers), more than a full set: rejected. The assertion is checked on the same
            // position with a bishop on 2b and a rook on 2h, which changes no drop.
            assert_eq!(
                Position::from_sfen(sfen).unwrap_err(),
                SfenError::TooManyPieces {
                    kind: tsume::PieceKind::Silver,
                    count: 6
                }
            );
            let fixed = sfen
                .replacen("1r5s1", "1r5b1", 1)
                .replacen("1B5S1", "1B5R1", 1);
            let p = pos(&fixed);
            let drops: Vec<Move> = p
                .legal_moves()
                .into_iter()
                .filter(|m| m.is_drop())
                .collect();
            assert_eq!(drops.len(), if index == 15 { 6 } else { 7 });
            assert!(
                drops
                    .iter()
                    .all(|m| m.drop_kind() == Some(tsume::PieceKind::Pawn))
            );
        }
        // --- dead pieces
        17..=20 => assert!(
            matches!(Position::from_sfen(sfen), Err(SfenError::DeadPiece { .. })),
            "{sfen} must be rejected as a dead piece"
        ),
        21 => {
            let p = pos(sfen);
            assert!(!plain_mates_in_one(&p).is_empty(), "mate in 1 expected");
            // After each mating move, White may not drop its knight on its last two ranks.
            for m in plain_mates_in_one(&p) {
                let mut c = p.clone();
                c.play_unchecked(m);
                for sq in ["1i", "5i", "9i", "1h", "9h"] {
                    let drop = mv(&format!("N*{sq}"));
                    assert!(!c.is_legal(drop), "{drop} after {m}");
                }
            }
        }
        // --- promotion
        22 => {
            assert!(!legal(sfen, "8d8c+"), "a tokin cannot promote");
            assert!(!legal(sfen, "7d7c+"), "a gold cannot promote");
            assert_eq!(
                pos(sfen).check_legality(mv("7d7c+")),
                Err(IllegalMove::CannotPromote(tsume::PieceKind::Gold))
            );
            assert_eq!(
                pos(sfen).check_legality(mv("1i1a")),
                Err(IllegalMove::MustPromote)
            );
            assert!(legal(sfen, "1i1a+"));
            assert_eq!(
                pos(sfen).check_legality(mv("3d2b")),
                Err(IllegalMove::MustPromote)
            );
            assert!(legal(sfen, "3d2b+"));
            for m in ["2c1d+", "2c1d", "2d1c+", "2d1c"] {
                assert!(legal(sfen, m), "{m}");
            }
        }
        23 => {
            let p = pos(sfen);
            assert_eq!(perft(&p, 1), 76);
            assert_eq!(perft(&p, 2), 2606);
            assert_eq!(perft(&p, 3), 201_658);
        }
        24 => {
            let p = pos(sfen);
            let us = p.side_to_move();
            let mut promoting_knight_moves = 0;
            for m in p.legal_moves() {
                let Some(from) = m.from() else { continue };
                if p.piece_at(from).unwrap().kind() != tsume::PieceKind::Knight {
                    continue;
                }
                if m.to().relative_rank(us) <= 2 {
                    assert!(m.is_promotion(), "{m} must promote");
                    promoting_knight_moves += 1;
                }
            }
            assert!(promoting_knight_moves > 0);
        }
        25 => {
            let p = pos(sfen);
            assert!(p.is_legal(mv("2d2c")));
            assert!(p.is_legal(mv("2d2c+")));
            assert!(p.piece_at(mv("2d2c").to()).is_none(), "not a capture");
            let l = p.legal_moves();
            assert!(l.contains(&mv("2d2c")) && l.contains(&mv("2d2c+")));
        }
        // --- double check
        26 => {
            let p = pos(sfen);
            assert!(p.checkers().more_than_one());
            let k = p.king_square(Color::White).unwrap();
            let l = p.legal_moves();
            assert!(!l.is_empty());
            assert!(l.iter().all(|m| m.from() == Some(k)));
        }
        27 => {
            // The source has no hands field and four black bishops: rejected. The same double
            // check with two bishops leaves the king two more diagonal flights.
            assert_eq!(
                Position::from_sfen(sfen).unwrap_err(),
                SfenError::MissingField("hands")
            );
            assert!(matches!(
                Position::from_sfen(&format!("{sfen} -")),
                Err(SfenError::TooManyPieces { .. })
            ));
            let p = pos("9/9/2B6/9/4k4/9/6B2/9/8K w - 1");
            assert!(p.checkers().more_than_one());
            assert_eq!(
                usi_set(p.legal_moves()),
                set(&["5e5d", "5e5f", "5e4e", "5e6e", "5e4d", "5e6f"])
            );
        }
        // --- check detection
        28 | 31 | 33 => assert!(pos(sfen).in_check(), "{sfen} is check"),
        29 | 30 | 32 => assert!(!pos(sfen).in_check(), "{sfen} is not check"),
        // --- pins
        34 | 35 => assert_eq!(perft(&pos(sfen), 1), 5),
        // --- evasions
        36 => assert_eq!(usi_set(pos(sfen).legal_moves()), set(&["3h2i"])),
        37 => assert_eq!(
            usi_set(pos(sfen).legal_moves()),
            set(&["8c7b", "8c7c", "8c7d", "8c8d", "8c9d", "9c9b+", "9c9b"])
        ),
        38 => {
            let p = pos(sfen);
            assert!(p.in_check());
            assert!(p.legal_moves().is_empty());
        }
        39 => assert_eq!(usi_set(pos(sfen).legal_moves()), set(&["1b2b", "2a2b"])),
        40 => assert_eq!(perft(&pos(sfen), 1), 0),
        41 => {
            let mut p = pos(sfen);
            p.play(mv("6d6c")).unwrap();
            p.play(mv("5a4a")).unwrap();
            assert!(p.is_legal(mv("G*5e")));
        }
        // --- futile interpositions: solver rows; the rules core checks what it can.
        42 | 48 => {
            let p = pos(sfen);
            assert!(!p.check_moves().is_empty());
        }
        43..=46 => {
            // Mate in 1 once futile interpositions are discounted: a check exists, and the
            // solver's tests prove the rest.
            let p = pos(sfen);
            assert!(!p.check_moves().is_empty());
        }
        47 => {
            let p = pos(sfen);
            assert!(plain_mates_in_one(&p).is_empty(), "no mate in 1");
        }
        _ => panic!("row {index} ({sfen}) has no expectation: add one"),
    }
}

#[test]
fn every_rule_edge_case_holds() {
    let rows = rows();
    assert_eq!(
        rows.len(),
        49,
        "a row was added or removed: update the expectations"
    );
    for (i, (category, sfen)) in rows.iter().enumerate() {
        let result = std::panic::catch_unwind(|| expect(i, sfen));
        assert!(result.is_ok(), "row {i} [{category}] failed: {sfen}");
    }
}
