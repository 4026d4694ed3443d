//! Cross-checks the move generators against an independent oracle, the Python library cshogi.
//!
//! `tests/data/cshogi_moves.tsv` holds about 3000 positions (random games, the positions of the
//! shared problem collections and random continuations of them, random tsume-like positions)
//! with cshogi's legal moves and checking moves; `tests/data/gen_cshogi_moves.py` made it and
//! documents how. For every row this test asserts that
//!
//! * `legal_moves()` equals the oracle's legal moves,
//! * `check_moves()` equals the oracle's checking moves,
//! * `evasions()` equals the legal moves when the side to move is in check, and is empty
//!   otherwise,
//!
//! all compared as sorted lists of USI strings (so a duplicated move is a mismatch too). Every
//! mismatch is collected before failing, each reported with its SFEN and the moves only we
//! generate and only the oracle generates.

use tsume::{MoveList, Position};

const DATA: &str = include_str!("data/cshogi_moves.tsv");

/// Sorted USI strings of a move list.
fn usi(list: &MoveList) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// Sorted moves of a space-separated data field (empty field: no moves).
fn field_moves(field: &str) -> Vec<String> {
    let mut v: Vec<String> = field.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

/// The multiset differences (ours - oracle, oracle - ours) of two sorted lists.
fn diff(ours: &[String], oracle: &[String]) -> (Vec<String>, Vec<String>) {
    let (mut only_ours, mut only_oracle) = (Vec::new(), Vec::new());
    let (mut i, mut j) = (0, 0);
    while i < ours.len() || j < oracle.len() {
        match (ours.get(i), oracle.get(j)) {
            (Some(a), Some(b)) if a == b => {
                i += 1;
                j += 1;
            }
            (Some(a), Some(b)) if a < b => {
                only_ours.push(a.clone());
                i += 1;
            }
            (Some(_), Some(b)) => {
                only_oracle.push(b.clone());
                j += 1;
            }
            (Some(a), None) => {
                only_ours.push(a.clone());
                i += 1;
            }
            (None, Some(b)) => {
                only_oracle.push(b.clone());
                j += 1;
            }
            (None, None) => unreachable!(),
        }
    }
    (only_ours, only_oracle)
}

fn compare(
    mismatches: &mut Vec<String>,
    line_no: usize,
    sfen: &str,
    what: &str,
    ours: &[String],
    oracle: &[String],
) {
    if ours != oracle {
        let (only_ours, only_oracle) = diff(ours, oracle);
        mismatches.push(format!(
            "line {line_no}: {what} differ for sfen {sfen}\n    only ours:   [{}]\n    only cshogi: [{}]",
            only_ours.join(" "),
            only_oracle.join(" ")
        ));
    }
}

#[test]
fn move_generators_match_cshogi() {
    let mut mismatches = Vec::new();
    let mut rows = 0usize;
    let mut in_check_rows = 0usize;
    for (index, line) in DATA.lines().enumerate() {
        let line_no = index + 1;
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        rows += 1;
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(
            fields.len(),
            3,
            "line {line_no}: expected sfen<TAB>legal<TAB>checks, got {line:?}"
        );
        let sfen = fields[0];
        let pos = match Position::from_sfen(sfen) {
            Ok(pos) => pos,
            Err(e) => {
                mismatches.push(format!("line {line_no}: we reject sfen {sfen}: {e}"));
                continue;
            }
        };
        let legal = usi(&pos.legal_moves());
        let oracle_legal = field_moves(fields[1]);
        compare(
            &mut mismatches,
            line_no,
            sfen,
            "legal moves",
            &legal,
            &oracle_legal,
        );
        let checks = usi(&pos.check_moves());
        compare(
            &mut mismatches,
            line_no,
            sfen,
            "checking moves",
            &checks,
            &field_moves(fields[2]),
        );
        let evasions = usi(&pos.evasions());
        if pos.in_check() {
            in_check_rows += 1;
            compare(
                &mut mismatches,
                line_no,
                sfen,
                "evasions (in check) and oracle legal moves",
                &evasions,
                &oracle_legal,
            );
        } else {
            compare(
                &mut mismatches,
                line_no,
                sfen,
                "evasions (not in check, so none)",
                &evasions,
                &[],
            );
        }
    }
    assert!(
        rows >= 2500,
        "only {rows} data rows read from tests/data/cshogi_moves.tsv"
    );
    assert!(in_check_rows >= 300, "only {in_check_rows} rows in check");
    assert!(
        mismatches.is_empty(),
        "{} mismatches against cshogi in {rows} positions:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}
