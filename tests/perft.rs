//! Perft against published reference counts (tests/data/perft.tsv, copied from
//! ../shared/problems-raw/{perft-reference,shogiops-perft}).
//!
//! Counts up to 25 M nodes run in the normal suite (release build: about a second in all).
//! The deeper ones are `#[ignore]`d; run them with
//! `cargo test --release --test perft -- --ignored` (a few minutes).

use tsume::{Position, SfenError, perft};

struct Row {
    name: String,
    sfen: String,
    depth: u32,
    nodes: u64,
}

fn rows() -> Vec<Row> {
    include_str!("data/perft.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Row {
                name: f[0].to_string(),
                sfen: f[1].to_string(),
                depth: f[2].parse().expect("depth"),
                nodes: f[3].parse().expect("nodes"),
            }
        })
        .collect()
}

/// Reference positions that break the piece-count rule; the library must reject them.
const REJECTED: &[&str] = &["peeper_pos_a"];

fn check(max_nodes: u64, min_nodes: u64) -> usize {
    let mut failures = Vec::new();
    let mut checked = 0;
    for row in rows() {
        if row.nodes > max_nodes || row.nodes < min_nodes {
            continue;
        }
        if REJECTED.contains(&row.name.as_str()) {
            continue;
        }
        let pos = Position::from_sfen(&row.sfen)
            .unwrap_or_else(|e| panic!("{} {}: {e}", row.name, row.sfen));
        let got = perft(&pos, row.depth);
        checked += 1;
        if got != row.nodes {
            failures.push(format!(
                "{} depth {}: expected {}, got {} ({})",
                row.name, row.depth, row.nodes, got, row.sfen
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
    checked
}

#[test]
fn perft_reference_counts() {
    let n = check(25_000_000, 0);
    // Start position to depth 5, matsuri to 3, the 593-move position, kings with full hands,
    // the uchifuzume and knight-promotion positions, 20 gentest rows x 2 depths, 292 random.
    assert!(n >= 360, "only {n} rows checked");
}

#[test]
fn perft_includes_required_positions() {
    let rows = rows();
    let has = |name: &str, depth: u32| rows.iter().any(|r| r.name == name && r.depth == depth);
    assert!(has("startpos", 5));
    assert!(has("matsuri", 3));
    assert!(has("max_legal_moves", 1));
    assert!(has("drops_kings_only", 2));
    assert!(has("talkchess_pawn_drop_mate", 4));
    assert!(has("talkchess_knight_promo", 4));
}

#[test]
fn reference_positions_beyond_a_full_set_are_rejected() {
    for row in rows() {
        if REJECTED.contains(&row.name.as_str()) {
            let err = Position::from_sfen(&row.sfen).unwrap_err();
            assert!(
                matches!(err, SfenError::TooManyPieces { .. }),
                "{}: {err}",
                row.name
            );
        }
    }
}

#[test]
#[ignore = "deep perft: minutes; run with --ignored in release mode"]
fn perft_reference_counts_deep() {
    // Up to matsuri depth 4 (517 M) and startpos depth 6 (548 M).
    let n = check(600_000_000, 25_000_001);
    assert!(n >= 5, "only {n} rows checked");
}
