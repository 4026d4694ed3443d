//! The uniqueness checker (`Solver::check`): the flawed problems of `problems/flawed.sfen`
//! report exactly their expected flaws, every problem of the other files with a known length
//! reports the flaws documented next to it (`check: <verdict> <kind>@<ply> ...`), and every
//! flaw with a short enough length is confirmed by the brute force of tests/common, which
//! knows nothing of the solver.

mod common;

use common::{Brute, check_line, hand_after};
use tsume::check::{CheckConfig, Flaw, FlawKind, Question, Report, Verdict};
use tsume::solver::{Solver, SolverConfig, StopReason, is_mate_with_futile_interpositions};
use tsume::{Move, Position};

/// The configuration the documented results were produced with (`check_unique --hash-mb 64
/// --question-nodes 300000`); flawed.sfen uses a larger question share.
fn solver() -> Solver {
    Solver::new(config())
}

fn config() -> SolverConfig {
    SolverConfig::new().hash_mib(64)
}

/// A check with `question_nodes` for each question.
fn questions(question_nodes: u64) -> CheckConfig {
    CheckConfig::new().question_node_limit(Some(question_nodes))
}

/// The position after `moves` from `root`, if they are legal.
fn after(root: &Position, moves: &[Move]) -> Option<Position> {
    let mut p = root.clone();
    for &mv in moves {
        p.play(mv).ok()?;
    }
    Some(p)
}

/// The problems of `problems/<file>`, read by the library: line number, position, intended
/// line (if any) and comment.
fn problems(file: &str) -> Vec<(usize, Position, Option<Vec<Move>>, String)> {
    let path = format!("{}/problems/{file}", env!("CARGO_MANIFEST_DIR"));
    tsume::problem::read_file(&path)
        .into_iter()
        .map(|p| {
            let p = p.unwrap_or_else(|e| panic!("{e}"));
            let intended = (!p.moves.is_empty()).then(|| p.moves.clone());
            (p.origin.line, p.position, intended, p.comment)
        })
        .collect()
}

/// `kind@ply`, with `:move` when `with_move` and the flaw has one.
fn token(f: &Flaw, with_move: bool) -> String {
    match f.moves.first() {
        Some(m) if with_move => format!("{}@{}:{m}", f.kind.name(), f.ply),
        _ => format!("{}@{}", f.kind.name(), f.ply),
    }
}

/// A flawed.sfen comment's `expect[(<options>)]: <token> ... | why`: the options (`strict`,
/// `variations`) and the expected flaw tokens.
fn expectation(comment: &str) -> Option<(Vec<&str>, Vec<String>)> {
    let (options, spec) = comment.strip_prefix("expect")?.split_once(':')?;
    let options = options.trim_start_matches('(').trim_end_matches(')');
    let spec = spec.split('|').next().unwrap_or("");
    Some((
        options.split(',').filter(|o| !o.is_empty()).collect(),
        spec.split_whitespace().map(str::to_string).collect(),
    ))
}

/// A comment's documented `check: <verdict> <kind>@<ply> ...`: the verdict and the tokens.
fn documented_check(comment: &str) -> Option<(String, Vec<String>)> {
    let (_, doc) = comment.split_once("check:")?;
    let mut words = doc.split_whitespace();
    let verdict = words.next().unwrap_or("").to_string();
    Some((verdict, words.map(str::to_string).collect()))
}

/// A brute force for which the positions of `line` from the one after its 1-based `ply` to
/// the end are not mated: the positions a second solution from that ply keeps clear of.
fn clear_of_line(root: &Position, line: &[Move], ply: usize) -> Brute {
    let mut brute = Brute::new(true, 3_000_000);
    brute.excluded = (ply..=line.len())
        .map(|j| before(root, line, j + 1).key())
        .collect();
    brute
}

/// The position before the move at 1-based `ply` of `line`.
fn before(root: &Position, line: &[Move], ply: usize) -> Position {
    let mut p = root.clone();
    for &mv in &line[..ply - 1] {
        p.play(mv).expect("a legal line");
    }
    p
}

/// Confirms a report with the rules core and, for short lengths, the brute force: the line
/// checked is a mating line, 駒余り matches the hand, and each flaw's claim holds.
fn confirm(place: &str, root: &Position, report: &Report) -> Vec<String> {
    let mut bad = Vec::new();
    if !report.line.is_empty() {
        if let Err(e) = check_line(root, &report.line) {
            if !report
                .flaws
                .iter()
                .any(|f| f.kind == FlawKind::InvalidIntendedLine)
            {
                bad.push(format!("{place}: line checked is not a mate: {e}"));
            }
            return bad;
        }
        let left = hand_after(root, &report.line);
        let flagged = report
            .flaws
            .iter()
            .any(|f| f.kind == FlawKind::PiecesLeftOver && (f.ply as usize) == report.line.len());
        if flagged == left.is_empty() {
            bad.push(format!(
                "{place}: hand left {left:?}, 駒余り flagged {flagged}"
            ));
        }
    }
    for f in &report.flaws {
        let mut brute = Brute::new(true, 3_000_000);
        let what = format!("{place}: {}", token(f, true));
        match f.kind {
            FlawKind::AlternativeMate | FlawKind::AlternativeFinalMove => {
                let pos = before(root, &report.line, f.ply as usize);
                let mv = f.moves[0];
                if !pos.is_legal(mv) || !pos.gives_check(mv) {
                    bad.push(format!("{what}: not a legal check"));
                    continue;
                }
                let mut c = pos.clone();
                c.play_unchecked(mv);
                let len = f.length.expect("a length") as usize;
                if f.kind == FlawKind::AlternativeFinalMove {
                    if !is_mate_with_futile_interpositions(&c) || len != 1 {
                        bad.push(format!("{what}: not a mate in one"));
                    }
                } else if len <= 7 {
                    // The length is that of the shortest mate that does not come back to the
                    // line, so the brute force (which knows no line) may find a shorter one.
                    if let Some(None) = brute.defender_value(&c, (len - 1) as u32) {
                        bad.push(format!("{what}: brute force finds no mate"));
                    }
                    // Kept clear of the line's later positions, no mate is shorter than an
                    // exact length (a 余詰 that joins the line early, found only when none
                    // keeps clear, is no exception).
                    let mut clear = clear_of_line(root, &report.line, f.ply as usize);
                    if let (true, Some(Some(v))) =
                        (f.length_exact, clear.defender_value(&c, (len - 1) as u32))
                    {
                        if v + 1 < len as u32 {
                            bad.push(format!(
                                "{what}: clear of the line the brute force mates in {}",
                                v + 1
                            ));
                        }
                    }
                }
            }
            FlawKind::EqualLengthVariation | FlawKind::LongerVariation => {
                let pos = before(root, &report.line, f.ply as usize);
                let mut c = pos.clone();
                c.play(f.moves[0]).expect("a legal reply");
                let len = f.length.expect("a length");
                if len <= 8 && f.length_exact {
                    match brute.shortest(&c, len - 1) {
                        Some(Some(v)) if v != len - 1 => {
                            bad.push(format!("{what}: brute force gives {} plies", v + 1))
                        }
                        Some(None) => bad.push(format!("{what}: brute force finds no mate")),
                        _ => {}
                    }
                }
                if f.kind == FlawKind::EqualLengthVariation {
                    if f.length != f.line_length {
                        bad.push(format!("{what}: lengths differ"));
                    }
                    let mut line = report.line[..(f.ply as usize) - 1].to_vec();
                    line.extend(&f.moves);
                    match check_line(root, &line) {
                        Ok(()) if hand_after(root, &line).is_empty() => {}
                        Ok(()) => bad.push(format!("{what}: its line leaves pieces over")),
                        Err(e) => bad.push(format!("{what}: its line is not a mate: {e}")),
                    }
                } else if f.length <= f.line_length {
                    bad.push(format!("{what}: not longer"));
                }
            }
            FlawKind::ShorterMate => {
                let pos = before(root, &report.line, f.ply as usize);
                let len = f.length.expect("a length");
                if len <= 7 {
                    match brute.shortest(&pos, len) {
                        Some(Some(v)) if f.length_exact && v != len => {
                            bad.push(format!("{what}: brute force gives {v} plies"))
                        }
                        Some(None) => bad.push(format!("{what}: brute force finds no mate")),
                        _ => {}
                    }
                }
                if f.length >= f.line_length {
                    bad.push(format!("{what}: not shorter"));
                }
            }
            FlawKind::PromotionChoice | FlawKind::Transposition => {
                let pos = before(root, &report.line, f.ply as usize);
                let mv = f.moves[0];
                let played = report.line[(f.ply as usize) - 1];
                if !pos.is_legal(mv) || !pos.gives_check(mv) {
                    bad.push(format!("{what}: not a legal check"));
                    continue;
                }
                let flip = mv.from().is_some()
                    && mv.from() == played.from()
                    && mv.to() == played.to()
                    && mv.is_promotion() != played.is_promotion();
                if flip != (f.kind == FlawKind::PromotionChoice) {
                    bad.push(format!("{what}: promotion flip {flip} against {played}"));
                }
                // No slower than the line.
                if f.length > f.line_length {
                    bad.push(format!("{what}: longer than the line"));
                }
                let mut c = pos.clone();
                c.play_unchecked(mv);
                let len = f.length.expect("a length");
                if len <= 7 {
                    if let Some(None) = brute.defender_value(&c, len - 1) {
                        bad.push(format!("{what}: brute force finds no mate"));
                    }
                    // It mates only through the line's positions: kept clear of them, not
                    // as quickly.
                    let mut clear = clear_of_line(root, &report.line, f.ply as usize);
                    if let Some(Some(v)) = clear.defender_value(&c, len - 1) {
                        bad.push(format!(
                            "{what}: clear of the line the brute force mates in {}",
                            v + 1
                        ));
                    }
                }
                // The order shown reaches the line's position: at the same ply for 手順前後,
                // no later for 非限定.
                if let Some(j) = f.rejoin_ply.map(|j| j as usize) {
                    let reached = f.ply as usize - 1 + f.moves.len();
                    let ok = match after(&pos, &f.moves) {
                        Some(p) => {
                            p.key() == before(root, &report.line, j + 1).key()
                                && (reached == j
                                    || (f.kind == FlawKind::PromotionChoice && reached <= j))
                        }
                        None => false,
                    };
                    if !ok {
                        bad.push(format!("{what}: its order does not reach ply {j}"));
                    }
                }
            }
            FlawKind::VariationAlternativeMate => {
                // After the defence, the move mates as quickly as the variation's quickest.
                let pos = before(root, &report.line, f.ply as usize);
                let (Some(d), Some(c)) = (after(&pos, &f.moves[..1]), after(&pos, &f.moves)) else {
                    bad.push(format!("{what}: not legal"));
                    continue;
                };
                let len = f.length.expect("a length") - 1;
                if !c.in_check() {
                    bad.push(format!("{what}: not a check"));
                } else if len <= 7 {
                    match (brute.shortest(&d, len), brute.defender_value(&c, len - 1)) {
                        (Some(Some(v)), _) if v != len => {
                            bad.push(format!("{what}: brute force gives {v} plies"))
                        }
                        (_, Some(None)) => bad.push(format!("{what}: brute force finds no mate")),
                        (Some(None), _) => bad.push(format!("{what}: no mate after the defence")),
                        _ => {}
                    }
                }
            }
            FlawKind::NoMate if f.moves.is_empty() => {
                if let Some(Some(n)) = brute.shortest(root, 7) {
                    bad.push(format!("{what}: brute force finds a mate in {n}"));
                }
            }
            _ => {}
        }
    }
    bad
}

#[test]
fn flawed_problems_report_exactly_their_flaws() {
    let mut bad = Vec::new();
    let mut kinds = std::collections::HashSet::new();
    for (n, pos, intended, comment) in problems("flawed.sfen") {
        let (options, mut want) =
            expectation(&comment).unwrap_or_else(|| panic!("flawed.sfen:{n}: no `expect:`"));
        let strict = options.contains(&"strict");
        let variations = options.contains(&"variations");
        let check = questions(1_000_000).strict(strict).variations(variations);
        let report = solver().check(&pos, intended.as_deref(), &check);
        let place = format!("flawed.sfen:{n}");
        let mut got: Vec<String> = report.flaws.iter().map(|f| token(f, true)).collect();
        // An expectation without a move matches a flaw's `kind@ply` alone.
        for g in got.iter_mut() {
            if !want.contains(g) {
                let short = g.split(':').next().unwrap_or("").to_string();
                if want.contains(&short) {
                    *g = short;
                }
            }
        }
        want.sort();
        got.sort();
        if want != got {
            bad.push(format!("{place}: expected {want:?}, got {got:?}"));
        }
        for f in &report.flaws {
            if f.fatal != f.kind.is_fatal_with(strict) {
                bad.push(format!(
                    "{place}: {} counted fatal: {}",
                    token(f, true),
                    f.fatal
                ));
            }
        }
        let fatal = report.flaws.iter().any(|f| f.fatal);
        let verdict = if fatal {
            Verdict::Unsound
        } else {
            Verdict::Sound
        };
        if report.verdict != verdict || !report.undecided.is_empty() {
            bad.push(format!(
                "{place}: verdict {} with undecided {:?}",
                report.verdict, report.undecided
            ));
        }
        kinds.extend(report.flaws.iter().map(|f| f.kind));
        bad.extend(confirm(&place, &pos, &report));
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // The file covers every kind of flaw.
    assert_eq!(kinds.len(), 11, "kinds covered: {kinds:?}");
}

/// Checks the problems of `file` that document a `check:` result.
fn documented(file: &str, question_nodes: u64) -> Vec<String> {
    let mut solver = solver();
    let check = questions(question_nodes);
    let mut bad = Vec::new();
    let mut count = 0;
    for (n, pos, intended, comment) in problems(file) {
        let Some((verdict, mut want)) = documented_check(&comment) else {
            continue;
        };
        count += 1;
        let report = solver.check(&pos, intended.as_deref(), &check);
        let place = format!("{file}:{n}");
        let mut got: Vec<String> = report.flaws.iter().map(|f| token(f, false)).collect();
        got.sort();
        got.dedup();
        want.sort();
        if report.verdict.to_string() != verdict || want != got {
            bad.push(format!(
                "{place}: documented {verdict} {want:?}, got {} {got:?}",
                report.verdict
            ));
        }
        if report.verdict == Verdict::Sound && !report.undecided.is_empty() {
            bad.push(format!("{place}: sound with undecided questions"));
        }
        bad.extend(confirm(&place, &pos, &report));
    }
    assert!(count > 0, "{file} documents no check result");
    bad
}

#[test]
fn yaneuraou_problems_report_their_documented_flaws() {
    let bad = documented("yaneuraou.sfen", 400_000);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn antma_and_long_problems_report_their_documented_flaws() {
    // A million a question (the default least share): antma's tsume7-6 needs more than
    // 400,000 for its 余詰 at ply 1 (2a6a) on a side table of exact proofs, and mog_mate11 and
    // mog_mate13 more than that to settle that S*2d does not mate (sound, not undecided).
    let mut bad = documented("antma.sfen", 1_000_000);
    bad.extend(documented("long.sfen", 1_000_000));
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The classic 3-ply problem (古典3手詰): sound, with one 変同 note.
const CLASSIC: &str = "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1";
/// Karolina, 13 plies: a promotion choice at ply 7 (see long.sfen).
const KAROLINA: &str = "4RB1k1/5s3/7n1/5s1LP/9/7r1/9/9/6K2 b b4g2s3n3l17p";
/// mog_mate9, 9 plies, sound with four 変同 notes.
const MOG_MATE9: &str = "4k4/9/9/9/3+PP4/9/9/9/9 b 4G2r2b4s4n4l16p 1";
/// mog_mate13, 13 plies: a promotion choice at ply 5 (the unpromoted rook promotes later, back
/// in the line's position), and second mates in the variations of ply 2.
const MOG_MATE13: &str = "5n1k1/5p3/5s1p1/8N/7P1/9/9/9/9 b R2Br4g3s2n4l15p 1";

#[test]
fn the_intended_line_when_it_is_the_main_line_changes_nothing() {
    let pos = Position::from_sfen(CLASSIC).unwrap();
    let mut solver = solver();
    let check = questions(300_000);
    let plain = solver.check(&pos, None, &check);
    let line = plain.main_line.as_ref().expect("a mate").moves().to_vec();
    let with = solver.check(&pos, Some(&line), &check);
    assert_eq!(plain.verdict, Verdict::Sound);
    assert!(with.checked_intended && !plain.checked_intended);
    assert_eq!(plain.flaws, with.flaws);
    assert_eq!(plain.line, with.line);
    assert_eq!(plain.flaws.len(), 1);
    assert_eq!(plain.flaws[0].kind, FlawKind::EqualLengthVariation);
    assert_eq!(plain.flaws[0].ply, 2);
}

#[test]
fn questions_cut_short_are_undecided_never_sound() {
    let pos = Position::from_sfen(MOG_MATE9).unwrap();
    let full = solver().check(&pos, None, &questions(300_000));
    assert_eq!(full.verdict, Verdict::Sound, "{:?}", full.undecided);
    // Too few nodes per question: some alternative cannot be refuted.
    let report = solver().check(&pos, None, &questions(50));
    assert_eq!(report.verdict, Verdict::Undecided);
    assert_eq!(report.sound(), None);
    assert!(!report.undecided.is_empty());
    assert!(report.flaws.iter().all(|f| !f.kind.is_fatal()));
    // A node limit on the whole check: the solution itself may be out of reach.
    let mut tiny = Solver::new(SolverConfig::new().hash_mib(16).node_limit(Some(2_000)));
    let report = tiny.check(&pos, None, &CheckConfig::new());
    assert_eq!(report.verdict, Verdict::Undecided);
    assert!(!report.undecided.is_empty());
}

#[test]
fn a_promotion_choice_that_transposes_into_the_line_is_a_note_unless_strict() {
    // Karolina, ply 7: 5a3a+ is played; 5a3a (no promotion) is captured the same way and the
    // same position follows at the same ply: 成・不成の非限定, not a second solution (it was
    // reported as 余詰 by the letter of the rules, which `CheckConfig::strict` keeps as the count).
    let pos = Position::from_sfen(KAROLINA).unwrap();
    let report = solver().check(&pos, None, &questions(300_000));
    let line = &report.line;
    assert_eq!(line[6].to_string(), "5a3a+");
    let mut p = before(&pos, line, 7);
    let other = Move::from_usi("5a3a").unwrap();
    p.play(other).unwrap();
    p.play(line[7]).unwrap();
    assert_eq!(p.key(), before(&pos, line, 9).key(), "it transposes");
    let tokens: Vec<String> = report.flaws.iter().map(|f| token(f, true)).collect();
    assert_eq!(tokens, ["promotion_choice@7:5a3a"]);
    let f = &report.flaws[0];
    assert_eq!(
        (f.length, f.line_length, f.rejoin_ply),
        (Some(7), Some(7), Some(8))
    );
    assert_eq!(f.moves, [other, line[7]]);
    assert!(!f.fatal);
    assert_eq!(report.verdict, Verdict::Sound);

    let strict = solver().check(&pos, None, &questions(300_000).strict(true));
    assert_eq!(strict.verdict, Verdict::Unsound);
    assert_eq!(strict.flaws.len(), 1);
    assert!(strict.flaws[0].fatal && strict.fatal_flaws().count() == 1);
}

#[test]
fn other_drop_squares_that_reach_the_line_at_the_same_ply_are_transpositions() {
    // antma's tsume5-9 (flawed.sfen): R*5b and R*5c instead of R*5a reach the line's final
    // position at ply 5 and no defence outlasts the line: 手順前後, notes. Interpositions
    // between the rook and the king are futile: their capture positions reach the final
    // position "two plies late" on the board but not in the plies counted, and the brute force
    // (which knows no line) agrees on 5 plies for both.
    let pos =
        Position::from_sfen("9/9/3S5/3p1p3/4kb3/3P2s2/4P4/4N4/9 b RNrb3g2s2n4l14p 1").unwrap();
    let report = solver().check(&pos, None, &questions(1_000_000));
    let mut brute = Brute::new(true, 3_000_000);
    for usi in ["R*5b", "R*5c"] {
        let f = report
            .flaws
            .iter()
            .find(|f| f.ply == 1 && f.moves[0].to_string() == usi)
            .unwrap_or_else(|| panic!("{usi}: {:?}", report.flaws));
        assert_eq!(f.kind, FlawKind::Transposition, "{usi}");
        assert_eq!((f.length, f.rejoin_ply), (Some(5), Some(5)), "{usi}");
        assert!(!f.fatal);
        let mut p = pos.clone();
        p.play(Move::from_usi(usi).unwrap()).unwrap();
        assert_eq!(brute.defender_value(&p, 8), Some(Some(4)), "{usi}");
    }
}

#[test]
fn variations_are_searched_for_second_mates_only_when_asked() {
    let pos = Position::from_sfen(MOG_MATE13).unwrap();
    let plain = solver().check(&pos, None, &questions(1_000_000));
    assert!(
        plain
            .flaws
            .iter()
            .all(|f| f.kind != FlawKind::VariationAlternativeMate)
    );
    let with = solver().check(&pos, None, &questions(1_000_000).variations(true));
    let notes: Vec<&Flaw> = with
        .flaws
        .iter()
        .filter(|f| f.kind == FlawKind::VariationAlternativeMate)
        .collect();
    assert!(!notes.is_empty());
    assert!(
        notes
            .iter()
            .all(|f| f.ply == 2 && !f.fatal && f.moves.len() == 2)
    );
    // Notes only: the fatal flaws are the same.
    let fatal = |r: &Report| r.fatal_flaws().map(|f| token(f, true)).collect::<Vec<_>>();
    assert_eq!(fatal(&plain), fatal(&with));
}

/// Checks every problem of `file` with a documented `check:` result (or, for flawed.sfen,
/// an `expect:`) under `CheckConfig::first_flaw`: the verdict is the documented one, every
/// flaw reported is one of the documented flaws, and a check that stopped early says so.
fn first_flaw_agrees(file: &str, question_nodes: u64) -> (Vec<String>, usize) {
    let mut bad = Vec::new();
    let mut stopped_early = 0;
    for (n, pos, intended, comment) in problems(file) {
        let (verdict, want) = if let Some((verdict, want)) = documented_check(&comment) {
            (Some(verdict), want)
        } else if let Some((options, want)) = expectation(&comment) {
            if !options.is_empty() {
                continue; // strict and variations have their own tests
            }
            (None, want)
        } else {
            continue;
        };
        let check = questions(question_nodes).first_flaw(true);
        let report = solver().check(&pos, intended.as_deref(), &check);
        let place = format!("{file}:{n} (first_flaw)");
        let fatal_wanted = want.iter().any(|w| {
            let kind = w.split('@').next().unwrap_or("");
            FlawKind::ALL
                .iter()
                .any(|k| k.name() == kind && k.is_fatal())
        });
        let verdict =
            verdict.unwrap_or_else(|| if fatal_wanted { "unsound" } else { "sound" }.to_string());
        if report.verdict.to_string() != verdict {
            bad.push(format!(
                "{place}: documented {verdict}, got {} {:?} {:?}",
                report.verdict, report.flaws, report.undecided
            ));
        }
        for f in &report.flaws {
            if !want.contains(&token(f, true)) && !want.contains(&token(f, false)) {
                bad.push(format!(
                    "{place}: {} is not a documented flaw",
                    token(f, true)
                ));
            }
        }
        let stopped = report
            .undecided
            .iter()
            .filter(|u| u.reason == StopReason::FirstFlaw)
            .collect::<Vec<_>>();
        stopped_early += usize::from(!stopped.is_empty());
        if stopped.len() > 1 {
            bad.push(format!("{place}: the stop said {} times", stopped.len()));
        }
        for u in &stopped {
            if u.kind != Question::NotExamined || report.verdict != Verdict::Unsound {
                bad.push(format!(
                    "{place}: stopped early without a fatal flaw: {u:?}"
                ));
            }
            // Nothing is examined past the ply where the walk stopped (pieces left over and
            // the intended line's own errors are known before the walk).
            let past = report.flaws.iter().filter(|f| {
                f.ply > u.ply
                    && !matches!(
                        f.kind,
                        FlawKind::PiecesLeftOver | FlawKind::InvalidIntendedLine
                    )
            });
            for f in past {
                bad.push(format!(
                    "{place}: {} past the stop at {}",
                    token(f, true),
                    u.ply
                ));
            }
            // The walk stops at once, within its ply too: one fatal flaw from it.
            let walk_fatal = report
                .fatal_flaws()
                .filter(|f| {
                    !matches!(
                        f.kind,
                        FlawKind::PiecesLeftOver | FlawKind::InvalidIntendedLine
                    )
                })
                .count();
            if walk_fatal > 1 {
                bad.push(format!("{place}: {walk_fatal} fatal flaws from the walk"));
            }
        }
        // A sound problem is checked in full: every documented note is there.
        let noted = |w: &String| {
            report
                .flaws
                .iter()
                .any(|f| token(f, true) == *w || token(f, false) == *w)
        };
        if report.verdict == Verdict::Sound && !want.iter().all(noted) {
            bad.push(format!(
                "{place}: sound, but not every note: {:?}",
                report.flaws
            ));
        }
        bad.extend(confirm(&place, &pos, &report));
    }
    (bad, stopped_early)
}

#[test]
fn first_flaw_keeps_every_verdict_and_reports_only_real_flaws() {
    let (mut bad, _) = first_flaw_agrees("flawed.sfen", 1_000_000);
    let (more, stopped) = first_flaw_agrees("yaneuraou.sfen", 400_000);
    bad.extend(more);
    // Most of these samples are unsound at an early ply: the walk stops there.
    assert!(stopped >= 20, "only {stopped} checks stopped early");
    bad.extend(first_flaw_agrees("antma.sfen", 1_000_000).0);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // An unsound problem stops at its first fatal flaw and says where.
    let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b 2G").unwrap();
    let full = solver().check(&pos, None, &questions(300_000));
    let quick = solver().check(&pos, None, &questions(300_000).first_flaw(true));
    assert_eq!(full.verdict, Verdict::Unsound);
    assert_eq!(quick.verdict, Verdict::Unsound);
    assert!(quick.fatal_flaws().count() >= 1);
    assert!(quick.flaws.iter().all(|f| full.flaws.contains(f)));
    let first_flaw = |r: &Report| {
        r.undecided
            .iter()
            .any(|u| u.reason == StopReason::FirstFlaw)
    };
    assert!(first_flaw(&quick), "{:?}", quick.undecided);
    assert!(!first_flaw(&full));
    // Strict: a promotion choice (Karolina's 非限定 at ply 7) is fatal, and the walk stops there.
    let pos = Position::from_sfen(KAROLINA).unwrap();
    let strict = questions(1_000_000).strict(true);
    let full = solver().check(&pos, None, &strict);
    let quick = solver().check(&pos, None, &strict.first_flaw(true));
    assert_eq!(full.verdict, Verdict::Unsound);
    assert_eq!(quick.verdict, Verdict::Unsound);
    let tokens = |r: &Report| r.flaws.iter().map(|f| token(f, true)).collect::<Vec<_>>();
    assert!(tokens(&quick).iter().all(|t| tokens(&full).contains(t)));
    assert!(
        quick
            .fatal_flaws()
            .any(|f| f.kind == FlawKind::PromotionChoice)
    );
    // A sound problem is checked in full: the same report.
    let pos = Position::from_sfen(MOG_MATE9).unwrap();
    let full = solver().check(&pos, None, &questions(300_000));
    let quick = solver().check(&pos, None, &questions(300_000).first_flaw(true));
    assert_eq!(quick.verdict, Verdict::Sound);
    assert_eq!(quick.flaws, full.flaws);
    assert!(quick.undecided.is_empty());
    // The whole check's node limit running out: never sound, the walk's end said once, and
    // the quick walk (a sixteenth of each share) gets at least as far along the line as the
    // full walk under the same limit (a cut quick walk is the report, not replaced by a
    // full walk that stops at once).
    let total = full.stats.nodes;
    let stop_ply = |r: &Report| {
        r.undecided
            .iter()
            .filter(|u| u.kind == Question::NotExamined)
            .map(|u| u.ply)
            .collect::<Vec<_>>()
    };
    let mut cut_checks = 0;
    for part in 2..8 {
        let limit = total * part / 8;
        let limited = || Solver::new(config().node_limit(Some(limit)));
        let cut = limited().check(&pos, None, &questions(300_000).first_flaw(true));
        let plain = limited().check(&pos, None, &questions(300_000));
        let (at, plain_at) = (stop_ply(&cut), stop_ply(&plain));
        assert!(at.len() <= 1, "limit {limit}: {:?}", cut.undecided);
        if !cut.undecided.is_empty() {
            assert_eq!(cut.verdict, Verdict::Undecided, "limit {limit}");
        }
        if let (Some(&a), Some(&b)) = (at.first(), plain_at.first()) {
            cut_checks += 1;
            assert!(
                a >= b,
                "limit {limit}: stopped at ply {a}, the full walk at {b}"
            );
        }
    }
    assert!(cut_checks > 0, "no limit cut both checks");
}

#[test]
fn a_detour_back_to_the_line_after_extra_moves_is_not_a_second_solution() {
    // A generated position (the defender's hand is empty as written). The main line starts
    // R*6b; R*7b mates as well, but only by bringing the rook back to the line's squares,
    // later than the line does: a detour (迂回手順), not 余詰.
    let pos = Position::from_sfen("+B8/6k2/9/9/9/3G3+B1/9/9/9 b R 1").unwrap();
    let mut solver = solver();
    let report = solver.check(&pos, None, &questions(1_000_000));
    assert_eq!(report.line[0].to_string(), "R*6b");
    let detour = Move::from_usi("R*7b").unwrap();
    assert!(
        !report
            .flaws
            .iter()
            .any(|f| f.ply == 1 && f.moves[0] == detour),
        "{:?}",
        report.flaws
    );
    assert!(report.undecided.iter().all(|u| u.mv != Some(detour)));
    // It does mate: every reply is mated.
    let mut after = pos.clone();
    after.play(detour).unwrap();
    let mut any = false;
    for reply in after.legal_moves() {
        let mut p = after.clone();
        p.play(reply).unwrap();
        let sol = Solver::new(SolverConfig::new().hash_mib(16)).solve(&p);
        assert!(
            matches!(sol.outcome, tsume::solver::Outcome::Mate(_)),
            "{reply}"
        );
        any = true;
    }
    assert!(any);
}

/// What a check found, for comparing checks with different thread counts: the verdict, the
/// line, and each flaw with its kind, ply, moves and whether it is fatal.
fn findings(report: &Report) -> (Verdict, Vec<Move>, Vec<String>) {
    let flaws = report
        .flaws
        .iter()
        .map(|f| format!("{}@{} {:?} {}", f.kind.name(), f.ply, f.moves, f.fatal))
        .collect();
    (report.verdict, report.line.clone(), flaws)
}

/// The flaws of two reports with the same findings whose lengths contradict each other: both
/// proven and different, or one proven and the other's bound ("at most") below it.
fn length_conflicts(a: &Report, b: &Report) -> Vec<String> {
    let below = |x: &tsume::check::Flaw, y: &tsume::check::Flaw| {
        x.length_exact && matches!((x.length, y.length), (Some(m), Some(n)) if n < m)
    };
    a.flaws
        .iter()
        .zip(&b.flaws)
        .filter(|(x, y)| {
            (x.length_exact && y.length_exact && x.length != y.length) || below(x, y) || below(y, x)
        })
        .map(|(x, y)| {
            format!(
                "{}@{} {:?}: {:?} against {:?}",
                x.kind.name(),
                x.ply,
                x.moves,
                x.length,
                y.length
            )
        })
        .collect()
}

/// With 2 and (oversubscribed) 8 threads, the questions are shared out; a question settled
/// with every thread count gives the same answer, and the report lists it in the same place.
/// Lengths proven with both counts are equal. (A question at its node limit may be settled,
/// or its length proven, with one count and not with another: the table the searches share
/// holds other entries, and helpers add their nodes to a question's search. Such reports
/// keep their verdict.)
#[test]
fn checks_with_threads_report_what_one_thread_reports() {
    let mut bad = Vec::new();
    for (file, question_nodes) in [("flawed.sfen", 1_000_000), ("yaneuraou.sfen", 400_000)] {
        for first_flaw in [false, true] {
            let check = questions(question_nodes).first_flaw(first_flaw);
            let mut one = Solver::new(config());
            let mut two = Solver::new(config().threads(2));
            let mut eight = Solver::new(config().threads(8));
            for (n, pos, intended, comment) in problems(file) {
                let options = expectation(&comment).map(|(o, _)| o).unwrap_or_default();
                let check = check
                    .clone()
                    .strict(options.contains(&"strict"))
                    .variations(options.contains(&"variations"));
                let base = one.check(&pos, intended.as_deref(), &check);
                for (threads, solver) in [(2, &mut two), (8, &mut eight)] {
                    let report = solver.check(&pos, intended.as_deref(), &check);
                    let place = format!("{file}:{n} ({threads} threads, first flaw {first_flaw})");
                    if report.verdict != base.verdict {
                        bad.push(format!(
                            "{place}: {} against {}",
                            report.verdict, base.verdict
                        ));
                    } else if base.undecided.is_empty()
                        && report.undecided.is_empty()
                        && findings(&report) != findings(&base)
                    {
                        bad.push(format!(
                            "{place}: {:?} against {:?}",
                            findings(&report),
                            findings(&base)
                        ));
                    } else if findings(&report) == findings(&base) {
                        for conflict in length_conflicts(&report, &base) {
                            bad.push(format!("{place}: {conflict}"));
                        }
                    }
                    bad.extend(confirm(&place, &pos, &report));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
