//! Solves tsume problems.
//!
//! ```text
//! cargo run --release --example solve -- [options] FILE... | SFEN | -
//! ```
//!
//! Input: files with one problem per line (SFEN, optional `sfen ` prefix, `#` starts a comment),
//! SFEN arguments, or `-` for standard input. Output per problem: the board, the verdict, the
//! line in USI and Japanese notation, length, nodes, time and nodes per second; with `--json`
//! exactly one JSON object per problem per line instead. Progress goes to standard error for
//! searches longer than a second. A bad line is reported with its file and line number, the
//! others are still solved, and the exit status is then 1.

use clap::Parser;
use serde_json::json;
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;
use tsume::{MateLine, Outcome, Position, Solver, SolverConfig, board_diagram, japanese_line};

/// The first line of a mate's report: the proven length, and what the line shown is. A line
/// whose defence is not shown to be the longest is never presented as "mate in N".
fn mate_headline(line: &MateLine) -> String {
    let n = line.length();
    let shortest = if line.shortest_proven() {
        "shortest proven"
    } else {
        "not proven shortest within the limits"
    };
    if !line.is_main_line() {
        let why = if line.line_len() < n as usize {
            "defence not the longest"
        } else {
            "attacker's moves not the shortest"
        };
        return format!(
            "mate in at most {n} ({shortest}); line shown: {} plies, {why}",
            line.line_len()
        );
    }
    let detail = if line.exact() {
        "shortest proven, line exact"
    } else if line.shortest_proven() {
        "shortest proven, some choices in the line not decided"
    } else {
        shortest
    };
    if line.line_len() > n as usize {
        format!(
            "mate in {n} ({detail}); the line shown has {} plies: it shows a futile \
             interposition and its capture, which are not counted",
            line.line_len()
        )
    } else {
        format!("mate in {n} ({detail})")
    }
}

#[derive(Parser, Debug)]
#[command(about = "Solve tsume-shogi problems (df-pn)")]
struct Args {
    /// Problem files, SFEN strings, or - for standard input.
    #[arg(required = true)]
    inputs: Vec<String>,
    /// Time limit per problem, in seconds.
    #[arg(long)]
    time: Option<f64>,
    /// Node limit per problem.
    #[arg(long)]
    nodes: Option<u64>,
    /// Transposition table size in MiB.
    #[arg(long = "hash-mb", default_value_t = 1024)]
    hash_mb: usize,
    /// Nodes allowed after the first proof for proving the length shortest and walking the
    /// line (default: as many as the first proof took, at least 200,000).
    #[arg(long = "shortest-nodes")]
    shortest_nodes: Option<u64>,
    /// One JSON object per problem per line.
    #[arg(long)]
    json: bool,
    /// No board diagram in the human output.
    #[arg(long)]
    no_board: bool,
}

/// One problem to solve: where it came from and its text.
struct Problem {
    source: String,
    line: Option<usize>,
    sfen: String,
}

fn read_problems(args: &Args) -> Result<Vec<Problem>, String> {
    let mut out = Vec::new();
    let mut add_lines = |source: &str, text: &str| {
        for (i, raw) in text.lines().enumerate() {
            let body = raw.split('#').next().unwrap_or("").trim();
            if body.is_empty() {
                continue;
            }
            out.push(Problem {
                source: source.to_string(),
                line: Some(i + 1),
                sfen: body.to_string(),
            });
        }
    };
    let mut direct = Vec::new();
    for input in &args.inputs {
        if input == "-" {
            let mut text = String::new();
            for l in std::io::stdin().lock().lines() {
                let l = l.map_err(|e| format!("standard input: {e}"))?;
                text.push_str(&l);
                text.push('\n');
            }
            add_lines("<stdin>", &text);
        } else if Path::new(input).exists() {
            let text = std::fs::read_to_string(input).map_err(|e| format!("{input}: {e}"))?;
            add_lines(input, &text);
        } else if input.contains('/') && input.split_whitespace().count() >= 3 {
            direct.push(input.clone());
        } else {
            return Err(format!("{input}: no such file, and not an sfen"));
        }
    }
    for sfen in direct {
        out.push(Problem {
            source: "<argument>".to_string(),
            line: None,
            sfen,
        });
    }
    Ok(out)
}

fn main() -> ExitCode {
    let args = Args::parse();
    let problems = match read_problems(&args) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let config = SolverConfig::new()
        .hash_mib(args.hash_mb)
        .node_limit(args.nodes)
        .shortest_node_limit(args.shortest_nodes)
        .time_limit(args.time.map(Duration::from_secs_f64));
    let mut solver = Solver::new(config);
    let show_progress = std::io::stderr().is_terminal() || !args.json;
    if show_progress {
        solver.set_progress(|p| {
            eprintln!(
                "  ... {} nodes, {:.1} s, {} nodes/s, table {:.0}%, root pn {} dn {}",
                p.nodes,
                p.elapsed.as_secs_f64(),
                p.nodes_per_second,
                p.table_fill * 100.0,
                p.root_pn,
                p.root_dn
            );
        });
    }
    let mut failed = false;
    let stdout = std::io::stdout();
    for prob in &problems {
        let place = match prob.line {
            Some(l) => format!("{}:{}", prob.source, l),
            None => prob.source.clone(),
        };
        let pos = match Position::from_sfen(&prob.sfen) {
            Ok(p) => p,
            Err(e) => {
                failed = true;
                if args.json {
                    let obj = json!({
                        "sfen": prob.sfen, "line": prob.line, "file": prob.source,
                        "result": "error", "error": e.to_string(), "length": null,
                        "moves": [], "nodes": 0, "time_ms": 0,
                    });
                    let _ = writeln!(stdout.lock(), "{obj}");
                } else {
                    eprintln!("{place}: error: {e}");
                    println!("{place}: error: {e}\n");
                }
                continue;
            }
        };
        if !args.json {
            println!("== {place}");
            println!("sfen {}", pos.to_sfen());
            if !args.no_board {
                println!("{}", board_diagram(&pos));
            }
        }
        let sol = solver.solve(&pos);
        let st = &sol.stats;
        let (result, moves) = match &sol.outcome {
            Outcome::Mate(line) => ("mate", line.moves().to_vec()),
            Outcome::NoMate => ("nomate", Vec::new()),
            Outcome::Unknown(_) => ("unknown", Vec::new()),
        };
        if args.json {
            let mut obj = json!({
                "sfen": prob.sfen, "line": prob.line, "file": prob.source,
                "result": result, "length": null,
                "moves": moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
                "nodes": st.nodes, "time_ms": st.elapsed.as_millis() as u64,
                "nps": st.nodes_per_second(),
            });
            if let Outcome::Unknown(reason) = &sol.outcome {
                obj["reason"] = json!(reason.to_string());
            }
            if let Outcome::Mate(line) = &sol.outcome {
                obj["length"] = json!(line.length());
                obj["line_length"] = json!(line.line_len());
                obj["line_is_main"] = json!(line.is_main_line());
                obj["hand_left"] = json!(line.hand_left().to_string());
                obj["shortest_proven"] = json!(line.shortest_proven());
                obj["exact"] = json!(line.exact());
            }
            let _ = writeln!(stdout.lock(), "{obj}");
        } else {
            match &sol.outcome {
                Outcome::Mate(line) => {
                    println!("{}", mate_headline(line));
                    println!(
                        "usi: {}",
                        line.moves()
                            .iter()
                            .map(|m| m.to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                    );
                    println!("kif: {}", japanese_line(&pos, line.moves()).join(" "));
                    println!(
                        "attacker's hand at the end{}: {}",
                        if line.is_main_line() {
                            ""
                        } else {
                            " of the line shown"
                        },
                        if line.hand_left().is_empty() {
                            "none".to_string()
                        } else {
                            line.hand_left().japanese()
                        }
                    );
                }
                Outcome::NoMate => println!("no mate"),
                Outcome::Unknown(reason) => println!("unknown ({reason})"),
            }
            println!(
                "nodes {} time {:.3} s nps {} table {:.1}%\n",
                st.nodes,
                st.elapsed.as_secs_f64(),
                st.nodes_per_second(),
                st.table_fill * 100.0
            );
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
