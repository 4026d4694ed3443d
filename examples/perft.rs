//! Counts the leaf nodes of the legal move tree.
//!
//! ```text
//! cargo run --release --example perft -- "<sfen>|startpos" <depth> [--divide]
//! ```
//!
//! With `--divide`, prints each first move with its count. The last line is the total alone.

use std::process::ExitCode;
use std::time::Instant;
use tsume::{Position, perft, perft_divide};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let divide = args.iter().any(|a| a == "--divide");
    let rest: Vec<&String> = args.iter().filter(|a| *a != "--divide").collect();
    if rest.len() != 2 {
        eprintln!("usage: perft \"<sfen>|startpos\" <depth> [--divide]");
        return ExitCode::from(2);
    }
    let pos = if rest[0] == "startpos" {
        Position::startpos()
    } else {
        match Position::from_sfen(rest[0]) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: bad sfen: {e}");
                return ExitCode::from(2);
            }
        }
    };
    let depth: u32 = match rest[1].parse() {
        Ok(d) => d,
        Err(_) => {
            eprintln!(
                "error: depth must be a non-negative integer, found {:?}",
                rest[1]
            );
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let total = if divide {
        let mut total = 0;
        for (m, n) in perft_divide(&pos, depth) {
            println!("{m}: {n}");
            total += n;
        }
        if depth == 0 { 1 } else { total }
    } else {
        perft(&pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "perft({depth}) = {total} in {secs:.3} s ({:.1} M nodes/s)",
        total as f64 / secs.max(1e-9) / 1e6
    );
    println!("{total}");
    ExitCode::SUCCESS
}
