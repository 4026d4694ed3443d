//! Checks composed tsume problems for soundness: a composer's report of every flaw.
//!
//! ```text
//! cargo run --release --example check_unique -- [options] FILE... | -
//! ```
//!
//! Each input line: `<sfen> [moves <usi move> ...] [# comment]`; the optional intended line
//! (作意) follows the word `moves`, as in the USI `position` command (a leading `position` or
//! `sfen` is accepted too). Output per problem: the verdict (sound / unsound / undecided), the
//! line checked in USI and Japanese notation, and each flaw on its own line with its ply,
//! moves, lengths and Japanese term; with `--json` one JSON object per problem per line
//! instead. Exit status: 0 when every problem is sound, 1 when any is unsound or undecided,
//! 2 when some input could not be read (the others are still checked).

use clap::Parser;
use serde_json::json;
use std::io::{IsTerminal, Read, Write};
use std::process::ExitCode;
use std::time::Duration;
use tsume::{
    Flaw, FlawKind, MateLine, Move, Position, Report, Solver, SolverConfig, Verdict, japanese_line,
    japanese_move,
};

#[derive(Parser, Debug)]
#[command(about = "Check tsume-shogi problems for a unique solution (余詰検討)")]
struct Args {
    /// Problem files, or - for standard input.
    #[arg(required = true)]
    inputs: Vec<String>,
    /// Time limit per problem (the whole check), in seconds.
    #[arg(long)]
    time: Option<f64>,
    /// Node limit per problem (the whole check).
    #[arg(long)]
    nodes: Option<u64>,
    /// Nodes each question (one alternative move) may search before it is left undecided
    /// (default: as many as the solution took, at least 1,000,000).
    #[arg(long)]
    question_nodes: Option<u64>,
    /// Transposition table size in MiB (the checker adds a second table of half this size
    /// when it must search for a second solution that avoids the main line).
    #[arg(long = "hash-mb", default_value_t = 1024)]
    hash_mb: usize,
    /// Nodes allowed after the first proof for proving the length shortest and walking the
    /// line (default: as many as the first proof took, at least 200,000).
    #[arg(long = "shortest-nodes")]
    shortest_nodes: Option<u64>,
    /// One JSON object per problem per line.
    #[arg(long)]
    json: bool,
}

/// One problem: where it came from, the position and the intended line.
struct Problem {
    source: String,
    line: usize,
    text: String,
    comment: String,
}

/// A problem line parsed: the position and the intended line, if any.
fn parse_problem(text: &str) -> Result<(Position, Option<Vec<Move>>), String> {
    let mut tokens: Vec<&str> = text.split_whitespace().collect();
    for prefix in ["position", "sfen"] {
        if tokens.first() == Some(&prefix) {
            tokens.remove(0);
        }
    }
    let (sfen, moves) = match tokens.iter().position(|&t| t == "moves") {
        Some(i) => (&tokens[..i], Some(&tokens[i + 1..])),
        None => (&tokens[..], None),
    };
    let pos = Position::from_sfen(&sfen.join(" ")).map_err(|e| format!("bad sfen: {e}"))?;
    if pos.king_square(pos.side_to_move().flip()).is_none() {
        return Err("the defender (the side not to move) has no king".into());
    }
    let intended = match moves {
        None => None,
        Some([]) => return Err("`moves` is followed by no move".into()),
        Some(list) => Some(
            list.iter()
                .map(|t| Move::from_usi(t).map_err(|e| format!("bad move {t:?}: {e}")))
                .collect::<Result<Vec<_>, _>>()?,
        ),
    };
    Ok((pos, intended))
}

/// Reads every input; an input that cannot be read is reported and skipped.
fn read_problems(args: &Args, errors: &mut Vec<String>) -> Vec<Problem> {
    let mut out = Vec::new();
    for input in &args.inputs {
        let (source, bytes) = if input == "-" {
            let mut bytes = Vec::new();
            if let Err(e) = std::io::stdin().lock().read_to_end(&mut bytes) {
                errors.push(format!("standard input: {e}"));
                continue;
            }
            ("<stdin>".to_string(), bytes)
        } else {
            match std::fs::read(input) {
                Ok(b) => (input.clone(), b),
                Err(e) => {
                    errors.push(format!("{input}: {e}"));
                    continue;
                }
            }
        };
        // Lines that are not UTF-8 are kept (with replacement characters) and rejected as
        // bad problems, so the others are still read.
        let text = String::from_utf8_lossy(&bytes);
        for (i, raw) in text.lines().enumerate() {
            let (body, comment) = match raw.find('#') {
                Some(c) => (&raw[..c], raw[c + 1..].trim()),
                None => (raw, ""),
            };
            if body.trim().is_empty() {
                continue;
            }
            out.push(Problem {
                source: source.clone(),
                line: i + 1,
                text: body.trim().to_string(),
                comment: comment.to_string(),
            });
        }
    }
    out
}

fn usi(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The solver's mate: its proven length, and the line's length where the line is not the
/// main line (never presented as the mate length then).
fn mate_text(ml: &MateLine) -> String {
    if ml.is_main_line() {
        format!("mate in {}, {} plies", ml.length(), ml.line_len())
    } else {
        format!(
            "mate in at most {}; line shown: {} plies, defence not the longest",
            ml.length(),
            ml.line_len()
        )
    }
}

fn hand_text(report: &Report) -> String {
    if report.hand_left.is_empty() {
        "none".into()
    } else {
        report.hand_left.japanese()
    }
}

/// A flaw's moves in Japanese notation, played from the position before its ply.
fn flaw_kif(root: &Position, report: &Report, flaw: &Flaw) -> String {
    if flaw.moves.is_empty() {
        return String::new();
    }
    let line = match (&report.intended, flaw.kind) {
        (Some(given), FlawKind::InvalidIntendedLine) => given,
        _ => &report.line,
    };
    let mut before = root.clone();
    for &mv in line.iter().take(flaw.ply.saturating_sub(1)) {
        if before.play(mv).is_err() {
            return String::new();
        }
    }
    let previous = flaw.ply.checked_sub(2).and_then(|i| line.get(i)).copied();
    let mut p = before.clone();
    if p.check_legality(flaw.moves[0]).is_err() {
        return String::new();
    }
    let mut out = vec![japanese_move(&before, flaw.moves[0], previous)];
    p.play_unchecked(flaw.moves[0]);
    out.extend(japanese_line(&p, &flaw.moves[1..]));
    out.join(" ")
}

fn print_human(place: &str, comment: &str, pos: &Position, report: &Report) {
    println!(
        "== {place}{}",
        if comment.is_empty() {
            String::new()
        } else {
            format!("  # {comment}")
        }
    );
    println!("sfen {}", pos.to_sfen());
    let fatal = report.fatal_flaws().count();
    let notes = report.flaws.len() - fatal;
    println!(
        "verdict: {} ({fatal} fatal flaw{}, {notes} note{}, {} undecided)",
        report.verdict,
        if fatal == 1 { "" } else { "s" },
        if notes == 1 { "" } else { "s" },
        report.undecided.len()
    );
    if !report.line.is_empty() {
        let what = match (&report.main_line, report.checked_intended) {
            (Some(ml), false) => format!("main line ({}", mate_text(ml)),
            _ => format!("intended line ({} plies", report.line.len()),
        };
        println!("{what}, attacker's hand at the end: {})", hand_text(report));
        println!("usi: {}", usi(&report.line));
        println!("kif: {}", japanese_line(pos, &report.line).join(" "));
    }
    if let (false, Some(given)) = (report.checked_intended, &report.intended) {
        println!(
            "intended line (not a valid tsume line, see below): {}",
            usi(given)
        );
    }
    if report.checked_intended {
        if let Some(ml) = &report.main_line {
            if ml.moves() != report.line {
                println!(
                    "solver's main line ({}): {}",
                    mate_text(ml),
                    usi(ml.moves())
                );
            }
        }
    }
    for f in &report.flaws {
        let mut what = format!(
            "  ply {:>3}  {} {} ({}): {}",
            f.ply,
            if f.kind.is_fatal() { "FLAW" } else { "note" },
            f.kind.japanese(),
            f.kind,
            f.detail
        );
        if !f.moves.is_empty() {
            what.push_str(&format!(
                "; {} [{}]",
                flaw_kif(pos, report, f),
                usi(&f.moves)
            ));
        }
        println!("{what}");
    }
    for u in &report.undecided {
        println!(
            "  ply {:>3}  undecided: {}{} ({})",
            u.ply,
            u.mv.map(|m| format!("{m}: ")).unwrap_or_default(),
            u.question,
            u.reason
        );
    }
    let st = &report.stats;
    println!(
        "nodes {} time {:.3} s nps {}\n",
        st.nodes,
        st.elapsed.as_secs_f64(),
        st.nodes_per_second()
    );
}

fn json_report(prob: &Problem, pos: &Position, report: &Report) -> serde_json::Value {
    let flaws: Vec<_> = report
        .flaws
        .iter()
        .map(|f| {
            json!({
                "kind": f.kind.name(),
                "japanese": f.kind.japanese(),
                "ply": f.ply,
                "moves": f.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
                "length": f.length,
                "length_exact": f.length_exact,
                "line_length": f.line_length,
                "fatal": f.kind.is_fatal(),
                "detail": f.detail,
            })
        })
        .collect();
    let undecided: Vec<_> = report
        .undecided
        .iter()
        .map(|u| {
            json!({
                "ply": u.ply,
                "move": u.mv.map(|m| m.to_string()),
                "question": u.question,
                "reason": u.reason.to_string(),
            })
        })
        .collect();
    json!({
        "sfen": pos.to_sfen(),
        "file": prob.source,
        "line": prob.line,
        "comment": prob.comment,
        "sound": report.sound(),
        "verdict": report.verdict.to_string(),
        // The mate length: the solver's proven bound when its main line is checked, the
        // intended line's own length when that is.
        "length": match (&report.main_line, report.checked_intended) {
            (Some(ml), false) => Some(ml.length() as usize),
            _ => (!report.line.is_empty()).then_some(report.line.len()),
        },
        "line_length": (!report.line.is_empty()).then_some(report.line.len()),
        "line_is_main": match (&report.main_line, report.checked_intended) {
            (Some(ml), false) => Some(ml.is_main_line()),
            _ => None,
        },
        "moves": report.line.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "intended": report.checked_intended,
        "intended_moves": report
            .intended
            .as_ref()
            .map(|l| l.iter().map(|m| m.to_string()).collect::<Vec<_>>()),
        "hand_left": report.hand_left.to_string(),
        "flaws": flaws,
        "undecided": undecided,
        "nodes": report.stats.nodes,
        "time_ms": report.stats.elapsed.as_millis() as u64,
    })
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut errors = Vec::new();
    let problems = read_problems(&args, &mut errors);
    for e in &errors {
        eprintln!("error: {e}");
    }
    let config = SolverConfig::new()
        .hash_mib(args.hash_mb)
        .node_limit(args.nodes)
        .shortest_node_limit(args.shortest_nodes)
        .time_limit(args.time.map(Duration::from_secs_f64))
        .question_node_limit(args.question_nodes);
    let mut solver = Solver::new(config);
    if std::io::stderr().is_terminal() || !args.json {
        solver.set_progress(|p| {
            eprintln!(
                "  ... {} nodes, {:.1} s, {} nodes/s, table {:.0}%",
                p.nodes,
                p.elapsed.as_secs_f64(),
                p.nodes_per_second,
                p.table_fill * 100.0
            );
        });
    }
    let mut bad_input = !errors.is_empty();
    let mut all_sound = true;
    let stdout = std::io::stdout();
    for prob in &problems {
        let place = format!("{}:{}", prob.source, prob.line);
        let (pos, intended) = match parse_problem(&prob.text) {
            Ok(parsed) => parsed,
            Err(e) => {
                bad_input = true;
                if args.json {
                    let obj = json!({
                        "sfen": prob.text, "file": prob.source, "line": prob.line,
                        "comment": prob.comment, "sound": null, "verdict": "error",
                        "error": e, "length": null, "moves": [], "intended": false,
                        "intended_moves": null, "hand_left": "", "flaws": [],
                        "undecided": [], "nodes": 0, "time_ms": 0,
                    });
                    let _ = writeln!(stdout.lock(), "{obj}");
                } else {
                    println!("== {place}\nerror: {e}\n");
                }
                eprintln!("{place}: error: {e}");
                continue;
            }
        };
        let report = solver.check(&pos, intended.as_deref());
        if report.verdict != Verdict::Sound {
            all_sound = false;
        }
        if args.json {
            let _ = writeln!(stdout.lock(), "{}", json_report(prob, &pos, &report));
        } else {
            print_human(&place, &prob.comment, &pos, &report);
        }
    }
    if bad_input {
        ExitCode::from(2)
    } else if all_sound {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
