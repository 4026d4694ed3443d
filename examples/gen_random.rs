//! Generates random mating positions with a fixed seed, for the random suite
//! (`problems/random.sfen`): the defender's king near its edge, up to two of its own pieces
//! beside it, two to four attacking pieces near it, one to three pieces in the attacker's hand,
//! the defender holding every other piece (残り駒全部). Each candidate is solved with the
//! crate; the mates of 1 to 25 plies are kept, with their length, until `--count` are found.
//!
//! ```text
//! cargo run --release --example gen_random -- [--seed 20261201] [--count 300]
//!     [--nodes 2000000] [--shortest-nodes 20000000] > problems/random.sfen
//! ```
//!
//! Each line is `<sfen> # <length> random-<seed>-<n>`; the length is the crate's, proven
//! shortest (`--shortest-nodes` after the first proof); a mate whose length the crate cannot
//! prove minimal within that is written with `?` for its length and counted on standard error.
//! The generator is its own (SplitMix64), so the suite stays the same whatever crate versions
//! are installed.

use clap::Parser;
use tsume::Position;
use tsume::solver::{Outcome, Solver, SolverConfig};

#[derive(Parser, Debug)]
struct Args {
    /// Seed of the random generator.
    #[arg(long, default_value_t = 20261201)]
    seed: u64,
    /// Mates to keep.
    #[arg(long, default_value_t = 300)]
    count: usize,
    /// Node limit for finding a mate in a candidate.
    #[arg(long, default_value_t = 2_000_000)]
    nodes: u64,
    /// Nodes after the first proof for proving the length shortest.
    #[arg(long = "shortest-nodes", default_value_t = 20_000_000)]
    shortest_nodes: u64,
    /// Longest mate kept, in plies.
    #[arg(long = "max-plies", default_value_t = 25)]
    max_plies: u32,
}

/// SplitMix64 (Steele, Lea and Flood 2014): small, fast and fixed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// A number in `lo..=hi`.
    fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + (self.next() % (hi - lo + 1) as u64) as i32
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

const ATTACKERS: [&str; 11] = ["P", "L", "N", "S", "G", "B", "R", "+P", "+S", "+B", "+R"];
const DEFENDERS: [&str; 5] = ["p", "s", "g", "l", "n"];
const HAND: [&str; 7] = ["P", "L", "N", "S", "G", "B", "R"];

/// One candidate as SFEN (attacker Black to move, the defender's hand still empty), or
/// `None` when the random squares collide badly.
fn candidate(rng: &mut Rng) -> String {
    // board[rank][file], rank 0 = rank a (the defender's back rank), file 0 = file 9.
    let mut board: [[Option<&str>; 9]; 9] = [[None; 9]; 9];
    let kf = rng.range(0, 8);
    let kr = [0, 0, 1, 1, 2][rng.range(0, 4) as usize];
    board[kr as usize][kf as usize] = Some("k");
    let mut place = |rng: &mut Rng, df: (i32, i32), dr: (i32, i32), kinds: &[&'static str]| {
        let f = kf + rng.range(df.0, df.1);
        let r = kr + rng.range(dr.0, dr.1);
        let piece = rng.pick(kinds);
        if (0..9).contains(&f) && (0..9).contains(&r) && board[r as usize][f as usize].is_none() {
            board[r as usize][f as usize] = Some(piece);
        }
    };
    for _ in 0..rng.range(0, 2) {
        place(rng, (-2, 2), (0, 2), &DEFENDERS);
    }
    for _ in 0..rng.range(2, 4) {
        place(rng, (-3, 3), (0, 4), &ATTACKERS);
    }
    let hand: String = (0..rng.range(1, 3)).map(|_| rng.pick(&HAND)).collect();
    let ranks: Vec<String> = board
        .iter()
        .map(|rank| {
            let mut s = String::new();
            let mut empty = 0;
            for sq in rank {
                match sq {
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push_str(p);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            s
        })
        .collect();
    format!("{} b {hand} 1", ranks.join("/"))
}

fn main() {
    let args = Args::parse();
    let mut rng = Rng(args.seed);
    // A scout with a small limit for the candidates (most have no mate, or none it finds
    // soon), and a second solver with room to prove the length of the mates it finds.
    let mut scout = Solver::new(
        SolverConfig::new()
            .hash_mib(128)
            .node_limit(Some(args.nodes)),
    );
    let mut solver = Solver::new(
        SolverConfig::new()
            .hash_mib(256)
            .node_limit(Some(args.nodes.saturating_add(args.shortest_nodes)))
            .shortest_node_limit(Some(args.shortest_nodes)),
    );
    let mut seen = std::collections::HashSet::new();
    let (mut kept, mut tried, mut unproven) = (0, 0u64, 0);
    while kept < args.count {
        let sfen = candidate(&mut rng);
        tried += 1;
        // Invalid ones (two pawns on a file, a dead piece, the defender already in check,
        // more pieces than a set) are skipped, as are repeats.
        let Ok(mut pos) = Position::from_sfen(&sfen) else {
            continue;
        };
        pos.fill_defender_hand();
        let sfen = pos.to_sfen();
        if !seen.insert(sfen.clone()) {
            continue;
        }
        let Outcome::Mate(line) = &scout.solve(&pos).outcome else {
            continue;
        };
        if line.shortest_proven() && line.length() > args.max_plies {
            continue;
        }
        let solution = solver.solve(&pos);
        let Outcome::Mate(line) = &solution.outcome else {
            continue;
        };
        if line.length() > args.max_plies {
            continue;
        }
        kept += 1;
        let length = if line.shortest_proven() && line.is_main_line() {
            line.length().to_string()
        } else {
            unproven += 1;
            "?".to_string()
        };
        println!("{sfen} # {length} random-{}-{kept}", args.seed);
        eprintln!("{kept}/{} ({tried} candidates)", args.count);
    }
    eprintln!("{kept} mates from {tried} candidates; {unproven} not proven shortest");
}
