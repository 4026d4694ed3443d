mod common;
use common::*;
use tsume::*;

fn desc(o: &Outcome) -> String {
    match o {
        Outcome::Mate(l) => format!(
            "mate {} sp={} ex={} {}",
            l.len(),
            l.shortest_proven,
            l.exact,
            usi(&l.moves)
        ),
        o => format!("{o:?}"),
    }
}

#[test]
fn replay() {
    let text = std::fs::read_to_string("/tmp/seq.txt").unwrap();
    let seq: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("SFEN "))
        .map(|s| s.to_string())
        .collect();
    let mut reused = Solver::new(SolverConfig::new().hash_mib(16).node_limit(Some(200_000)));
    let mut shown = 0;
    for (i, s) in seq.iter().enumerate() {
        let pos = Position::from_sfen(s).unwrap();
        let a = reused.solve(&pos).outcome;
        let b = Solver::new(SolverConfig::new().hash_mib(16).node_limit(Some(200_000)))
            .solve(&pos)
            .outcome;
        let la = match &a {
            Outcome::Mate(l) => Some(l.len()),
            _ => None,
        };
        let lb = match &b {
            Outcome::Mate(l) => Some(l.len()),
            _ => None,
        };
        let ka = std::mem::discriminant(&a);
        let kb = std::mem::discriminant(&b);
        if la != lb || ka != kb {
            println!("#{i} {s}\n  reused: {}\n  fresh:  {}", desc(&a), desc(&b));
            shown += 1;
            if shown > 8 {
                break;
            }
        }
    }
}
