//! The consistency check: one position, one proven length, whatever the table size or the
//! allowance after the first proof. Shared by `examples/consistency.rs` (the long problems)
//! and `tests/consistency.rs` (the short suites and random mates with tiny tables).
//!
//! Two answers contradict each other when one says mate and the other no mate, when two
//! lengths proven shortest differ, or when a length proven shortest is longer than a mate
//! found by another answer. A length that is not proven is only an upper bound, and an
//! answer that ran out of nodes or time says nothing. Along a main line whose length L is
//! proven, the position after k plies, solved on its own, must have the length L - k (a
//! proven length other than that, or a mate found shorter, is a contradiction) unless its
//! own line passes through a position the main line played before ply k: then the
//! difference is the repetition rule's (a position of the line played so far is not mated
//! on that line) and is reported as explained.

#![allow(dead_code)]

use std::fmt;
use tsume::Position;
use tsume::solver::{Outcome, Solver, SolverConfig};

/// What one setting answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A mate of `length` plies (proven shortest or an upper bound), with its line.
    Mate {
        length: u32,
        proven: bool,
        main_line: bool,
    },
    NoMate,
    /// Out of time or nodes: no claim.
    Unknown,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Mate {
                length,
                proven,
                main_line,
            } => {
                write!(f, "{length}")?;
                if *proven {
                    write!(f, " proven")?;
                }
                if !*main_line {
                    write!(f, " (line not main)")?;
                }
                Ok(())
            }
            Verdict::NoMate => write!(f, "no mate"),
            Verdict::Unknown => write!(f, "unknown"),
        }
    }
}

/// One setting's answer.
#[derive(Clone, Debug)]
pub struct Answer {
    pub setting: String,
    pub verdict: Verdict,
    /// The positions of the line shown (the start first), for a mate.
    pub line: Vec<Position>,
}

/// Solves `pos` with `config` and labels the answer `setting`.
pub fn answer(pos: &Position, config: SolverConfig, setting: &str) -> Answer {
    let mut solver = Solver::new(config);
    let result = solver.solve(pos);
    let (verdict, line) = match result.outcome {
        Outcome::Mate(m) => {
            let mut p = pos.clone();
            let mut line = vec![p.clone()];
            for &mv in m.moves() {
                p.play_unchecked(mv);
                line.push(p.clone());
            }
            (
                Verdict::Mate {
                    length: m.length(),
                    proven: m.shortest_proven(),
                    main_line: m.is_main_line(),
                },
                line,
            )
        }
        Outcome::NoMate => (Verdict::NoMate, Vec::new()),
        _ => (Verdict::Unknown, Vec::new()),
    };
    Answer {
        setting: setting.to_string(),
        verdict,
        line,
    }
}

/// The contradictions among answers to one position, each as a sentence.
pub fn contradictions(answers: &[Answer]) -> Vec<String> {
    let mut out = Vec::new();
    for a in answers {
        for b in answers {
            match (&a.verdict, &b.verdict) {
                (Verdict::NoMate, Verdict::Mate { length, .. }) => out.push(format!(
                    "{}: no mate, but {}: mate in {length}",
                    a.setting, b.setting
                )),
                (
                    Verdict::Mate {
                        length: la,
                        proven: true,
                        ..
                    },
                    Verdict::Mate { length: lb, .. },
                ) if la > lb => out.push(format!(
                    "{}: mate in {la} proven shortest, but {}: mate in {lb}",
                    a.setting, b.setting
                )),
                _ => {}
            }
        }
    }
    out
}

/// What the check along a main line found: contradictions, and differences that the
/// repetition rule explains.
#[derive(Default, Debug)]
pub struct AlongLine {
    pub checked: usize,
    pub contradictions: Vec<String>,
    pub explained: Vec<String>,
}

/// Solves the positions of `main` (a main line's positions, the start first, whose length
/// `length` is proven shortest) every `step` attacker moves on their own with `config`, and
/// compares each with what the line leaves. A line that shows futile interpositions (longer
/// than `length`, its plies no longer what the length counts) is not checked.
pub fn along_line(main: &[Position], length: u32, step: usize, config: &SolverConfig) -> AlongLine {
    let mut out = AlongLine::default();
    if main.len() != length as usize + 1 {
        return out;
    }
    let stride = 2 * step.max(1);
    let mut k = stride;
    while k + 1 < main.len() {
        let left = length - k as u32;
        let a = answer(&main[k], config.clone(), &format!("ply {k}"));
        out.checked += 1;
        let bad = match a.verdict {
            Verdict::NoMate => Some(format!("ply {k}: no mate, the line leaves {left}")),
            Verdict::Mate {
                length: l, proven, ..
            } if l < left || (proven && l != left) => Some(format!(
                "ply {k}: mate in {l}{}, the line leaves {left}",
                if proven { " proven shortest" } else { "" }
            )),
            _ => None,
        };
        if let Some(bad) = bad {
            let before: Vec<u64> = main[..k].iter().map(|p| p.key()).collect();
            if a.line.iter().any(|p| before.contains(&p.key())) {
                out.explained.push(format!(
                    "{bad} (its line passes through a position the main line played before)"
                ));
            } else {
                out.contradictions.push(bad);
            }
        }
        k += stride;
    }
    out
}
