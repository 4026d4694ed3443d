//! Problem files (`tsume::problem`): files as the GUIs write them (tests/data/gui, made by
//! hand from the formats' descriptions, with their quirks), the problem file of each format in
//! problems/ with its expected answer, round trips through the KIF, CSA and SFEN writers,
//! errors that name the place, and property tests that no reader ever panics on random,
//! mutated or truncated input (Shift-JIS included).

use proptest::prelude::*;
use tsume::check::{CheckConfig, Verdict};
use tsume::problem::{
    Encoding, Format, Problem, ProblemErrorKind, decode, read_bytes, read_file, read_str,
    to_shift_jis, write_csa, write_kif,
};
use tsume::solver::{Outcome, Solver, SolverConfig};
use tsume::{Color, Move, PieceKind, Position};

fn path(rel: &str) -> String {
    format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"))
}

fn bytes(rel: &str) -> Vec<u8> {
    std::fs::read(path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn one(rel: &str) -> Problem {
    let mut all = read_file(path(rel));
    assert_eq!(all.len(), 1, "{rel}: {all:?}");
    all.remove(0).unwrap_or_else(|e| panic!("{e}"))
}

fn usi(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

// ----- files as the GUIs write them ---------------------------------------------------------

#[test]
fn kifu_for_windows_game_shift_jis_with_variations() {
    let b = bytes("tests/data/gui/kifu_for_windows_game.kif");
    assert_eq!(decode(&b).1, Encoding::ShiftJis);
    let p = one("tests/data/gui/kifu_for_windows_game.kif");
    assert_eq!(p.format, Format::Kif);
    assert_eq!(p.position, Position::startpos());
    assert_eq!(usi(&p.moves), "7g7f 3c3d 8h2b+ 3a2b B*4e 7a6b");
    assert_eq!(p.termination.as_deref(), Some("投了"));
    assert_eq!(p.comment, "対局前のコメント");
    assert_eq!(p.variations.len(), 2);
    assert_eq!((p.variations[0].ply, p.variations[0].parent), (4, None));
    assert_eq!(usi(&p.variations[0].moves), "8b2b 7i7h");
    assert_eq!((p.variations[1].ply, p.variations[1].parent), (2, None));
    assert_eq!(usi(&p.variation_line(1).unwrap()), "7g7f 8c8d 2g2f");
}

#[test]
fn shogigui_white_to_move_tsume_with_bom_and_rest_in_black_hand() {
    let b = bytes("tests/data/gui/shogigui_white_to_move.kif");
    assert_eq!(decode(&b).1, Encoding::Utf8Bom);
    let p = one("tests/data/gui/shogigui_white_to_move.kif");
    assert_eq!(p.name.as_deref(), Some("白番の三手詰"));
    assert_eq!(p.position.side_to_move(), Color::White);
    // 残りの駒全部 in Black's hand: everything not on the board or in White's hand.
    let black = p.position.hand(Color::Black);
    assert_eq!(black.count(PieceKind::Silver), 0);
    assert_eq!(black.count(PieceKind::Gold), 4);
    assert_eq!(black.count(PieceKind::Pawn), 18);
    assert_eq!(black.count(PieceKind::Bishop), 1);
    assert_eq!(usi(&p.moves), "1d5h+ 6i5h S*6h");
    assert_eq!(p.termination.as_deref(), Some("詰み"));
    let sol = Solver::new(SolverConfig::new().hash_mib(16)).solve(&p.position);
    assert!(matches!(sol.outcome, Outcome::Mate(ref l) if l.length() == 3 && l.is_main_line()));
}

#[test]
fn handicap_record_starts_with_white() {
    let p = one("tests/data/gui/handicap_lance.kif");
    assert_eq!(
        p.position.to_sfen(),
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(usi(&p.moves), "3c3d 7g7f 2b8h+ 7i8h");
    assert_eq!(p.termination.as_deref(), Some("中断"));
}

#[test]
fn ki2_with_same_square_marks_and_implicit_drop() {
    let p = one("tests/data/gui/game.ki2");
    assert_eq!(p.format, Format::Ki2);
    assert_eq!(usi(&p.moves), "7g7f 3c3d 4i5h 8c8d 8h2b+ 3a2b B*4e 6a5b");
}

#[test]
fn csa_v3_two_records_handicap_and_rest_of_pieces() {
    let all = read_file(path("tests/data/gui/two_records_v3.csa"));
    assert_eq!(all.len(), 2);
    let a = all[0].as_ref().unwrap();
    assert_eq!(a.format, Format::Csa);
    assert_eq!(a.name.as_deref(), Some("二枚落ち練習"));
    assert_eq!(
        a.position.to_sfen(),
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(usi(&a.moves), "3c3d 7g7f 4a3b 2g2f");
    assert_eq!(a.comment, "指し掛け");
    let b = all[1].as_ref().unwrap();
    assert_eq!(
        b.position.to_sfen(),
        "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1"
    );
    assert_eq!(usi(&b.moves), "9f5b+ 4a5b S*4b");
    assert_eq!(b.termination.as_deref(), Some("詰み"));
    assert_eq!(b.origin.line, 17);
}

#[test]
fn electron_shogi_nested_variations() {
    let p = one("tests/data/gui/electron_shogi_variations.kifu");
    assert_eq!(usi(&p.moves), "7g7f 3c3d 2g2f 8c8d");
    let lines: Vec<String> = (0..p.variations.len())
        .map(|j| usi(&p.variation_line(j).unwrap()))
        .collect();
    assert_eq!(
        lines,
        ["7g7f 3c3d 6g6f 8c8d", "7g7f 3c3d 6g6f 4c4d", "7g7f 8c8d"]
    );
    assert_eq!(p.variations[1].parent, Some(0));
    assert_eq!(p.variations[0].comment, "振り飛車の出だし");
}

// ----- problems/: one file per format with its expected answer ------------------------------

#[test]
fn problem_files_of_each_format_give_their_expected_answers() {
    // (file, format, [(mate length, check verdict)])
    type Case = (&'static str, Format, &'static [(usize, Verdict)]);
    let cases: [Case; 4] = [
        ("problems/classic.kif", Format::Kif, &[(3, Verdict::Sound)]),
        // Karolina: sound, with a 成・不成の非限定 note at ply 7 (problems/long.sfen).
        (
            "problems/karolina.ki2",
            Format::Ki2,
            &[(13, Verdict::Sound)],
        ),
        (
            "problems/tsume.csa",
            Format::Csa,
            &[(9, Verdict::Sound), (3, Verdict::Sound)],
        ),
        (
            "problems/positions.usi",
            Format::Usi,
            &[(3, Verdict::Unsound), (3, Verdict::Sound)],
        ),
    ];
    let mut solver = Solver::new(SolverConfig::new().hash_mib(32));
    let check = CheckConfig::new().question_node_limit(Some(300_000));
    for (file, format, expected) in cases {
        let all = read_file(path(file));
        assert_eq!(all.len(), expected.len(), "{file}");
        for (p, &(length, verdict)) in all.iter().zip(expected) {
            let p = p.as_ref().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(p.format, format, "{file}");
            match solver.solve(&p.position).outcome {
                Outcome::Mate(l) => {
                    assert_eq!(l.length() as usize, length, "{}", p.origin);
                    assert!(l.is_main_line(), "{}", p.origin);
                }
                other => panic!("{}: {other:?}", p.origin),
            }
            if !p.moves.is_empty() {
                assert_eq!(p.moves.len(), length, "{}: intended line", p.origin);
            }
            let intended = (!p.moves.is_empty()).then_some(p.moves.as_slice());
            let report = solver.check(&p.position, intended, &check);
            assert_eq!(report.verdict, verdict, "{}: {:?}", p.origin, report.flaws);
        }
    }
}

// ----- round trips ---------------------------------------------------------------------------

/// The hand-made GUI-style files and the problem files in the other formats.
const SAMPLES: [&str; 10] = [
    "tests/data/gui/kifu_for_windows_game.kif",
    "tests/data/gui/shogigui_white_to_move.kif",
    "tests/data/gui/handicap_lance.kif",
    "tests/data/gui/game.ki2",
    "tests/data/gui/two_records_v3.csa",
    "tests/data/gui/electron_shogi_variations.kifu",
    "problems/classic.kif",
    "problems/karolina.ki2",
    "problems/tsume.csa",
    "problems/positions.usi",
];

fn all_samples() -> Vec<Problem> {
    let mut out = Vec::new();
    let sfen_files = ["problems/flawed.sfen", "problems/yaneuraou.sfen"];
    for f in SAMPLES.iter().chain(&sfen_files) {
        for p in read_file(path(f)) {
            out.push(p.unwrap_or_else(|e| panic!("{e}")));
        }
    }
    out
}

fn variation_lines(p: &Problem) -> Vec<(usize, String)> {
    let mut v: Vec<(usize, String)> = (0..p.variations.len())
        .map(|j| (p.variations[j].ply, usi(&p.variation_line(j).unwrap())))
        .collect();
    v.sort();
    v
}

#[test]
fn kif_round_trip_keeps_position_lines_and_variations() {
    for p in all_samples() {
        let text = write_kif(&p);
        for (name, bytes) in [
            ("utf-8", text.clone().into_bytes()),
            ("shift-jis", to_shift_jis(&text)),
        ] {
            let back = read_bytes(&bytes, "round-trip.kif");
            let q = back[0]
                .as_ref()
                .unwrap_or_else(|e| panic!("{} ({name}): {e}\n{text}", p.origin));
            assert_eq!(q.format, Format::Kif);
            assert_eq!(q.position, p.position, "{}", p.origin);
            assert_eq!(q.moves, p.moves[..p.legal_len()], "{}", p.origin);
            assert_eq!(
                variation_lines(q),
                variation_lines(&p),
                "{}\n{text}",
                p.origin
            );
            assert_eq!(q.name, p.name);
            if q.moves == p.moves {
                assert_eq!(q.termination, p.termination, "{}", p.origin);
            }
        }
    }
}

#[test]
fn csa_and_sfen_round_trips_keep_position_and_line() {
    for p in all_samples() {
        let text = write_csa(&p);
        let q = read_str(&text, "round-trip.csa").remove(0);
        let q = q.unwrap_or_else(|e| panic!("{}: {e}\n{text}", p.origin));
        assert_eq!(q.format, Format::Csa);
        assert_eq!(q.position, p.position, "{}", p.origin);
        assert_eq!(q.moves, p.moves[..p.legal_len()], "{}", p.origin);
        let line = p.to_sfen_line();
        let r = read_str(&line, "round-trip.sfen").remove(0).unwrap();
        assert_eq!(r.position, p.position);
        assert_eq!(r.moves, p.moves);
    }
}

#[test]
fn written_kif_has_the_diagram_and_the_mate_line() {
    let p = one("problems/classic.kif");
    let text = write_kif(&p);
    assert!(
        text.contains("後手の持駒：飛二　角　金四　桂四　香四　歩十八"),
        "{text}"
    );
    assert!(text.contains("| 角 ・ ・ ・ ・ ・ ・ ・ ・|六"), "{text}");
    assert!(text.contains("   1 ５二角成(96)"), "{text}");
    assert!(text.contains("   2 同　銀(41)"), "{text}");
    assert!(text.contains("   3 ４二銀打"), "{text}");
    assert!(text.contains("まで3手で詰み"), "{text}");
}

// ----- errors --------------------------------------------------------------------------------

#[test]
fn errors_name_file_line_column_and_what() {
    let cases: [(&str, &str); 9] = [
        (
            "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1 moves 9f5b+ 4a4x\n",
            "x:1:56: cannot read the move \"4a4x\"",
        ),
        (
            "4k4/9/9/9/9/9/9/9/9 b Q\n",
            "x:1:1: bad position: bad hands field",
        ),
        (
            "後手の持駒：なし\n| ・ ・ ・ ・v玉 ・ ・ ・|一\n",
            "x:2:18: bad board diagram: a row has 8 squares, expected 9",
        ),
        (
            "後手の持駒：金五\n",
            "x:1: bad hand: \"金五\": 5 pieces of 金, a full set has 4",
        ),
        ("手合割：九枚落ち\n", "x:1: unknown 手合割 \"九枚落ち\""),
        (
            "手合割：平手\n   1 ７六歩(77)\n   3 ３四歩(33)\n",
            "x:3: move number 3, expected 2",
        ),
        (
            "手合割：平手\n   1 ７五歩(77)\n",
            "x:2:6: move 1 \"７五歩(77)\" is illegal",
        ),
        (
            "手合割：平手\n▲７六歩 △５二金\n",
            "x:2:7: move 2 \"５二金\" fits several legal moves",
        ),
        (
            "V2.2\nPI\n+\n+7776FU\n-3334KA\n",
            "x:5: move 2 \"-3334KA\" names another piece than the one there",
        ),
    ];
    for (text, want) in cases {
        let got = read_str(text, "x");
        let e = got[0].as_ref().expect_err(text);
        assert!(e.to_string().starts_with(want), "{text:?}: {e}");
    }
    // A file that cannot be read keeps its path and the operating system's error.
    let e = read_file(path("no/such/file.kif")).remove(0).unwrap_err();
    match &*e.kind {
        ProblemErrorKind::Io(io) => assert_eq!(io.kind(), std::io::ErrorKind::NotFound),
        other => panic!("expected an I/O error, got {other:?}"),
    }
    assert!(e.file.ends_with("no/such/file.kif"), "{}", e.file);
    let source = std::error::Error::source(&e).expect("the io::Error as the source");
    assert!(source.downcast_ref::<std::io::Error>().is_some());
}

#[test]
fn a_bad_line_does_not_stop_the_others() {
    let text = "4k4/9/9/9/9/9/9/9/9 b G\nnot an sfen\n4k4/9/4P4/9/9/9/9/9/9 b G\n";
    let got = read_str(text, "mixed");
    assert_eq!(got.len(), 3);
    assert!(got[0].is_ok() && got[2].is_ok());
    assert_eq!(got[1].as_ref().unwrap_err().line, 2);
}

// ----- no reader panics ------------------------------------------------------------------------

fn sample_files() -> Vec<Vec<u8>> {
    SAMPLES.iter().map(|f| bytes(f)).collect()
}

#[test]
fn every_truncation_of_every_sample_reads_without_panic() {
    // Shift-JIS files cut in the middle of a two-byte character included.
    for b in sample_files() {
        for n in 0..=b.len() {
            let _ = read_bytes(&b[..n], "cut");
        }
    }
}

/// Pieces of the formats, to build random files that get past the first checks.
const TOKENS: &[&str] = &[
    "\n",
    " ",
    "　",
    "後手の持駒：",
    "先手の持駒：",
    "残り全部",
    "なし",
    "金",
    "歩十八",
    "十",
    "|",
    "v",
    "・",
    "玉",
    "と",
    "龍",
    "一",
    "九",
    "+---------------------------+",
    "後手番",
    "手合割：",
    "平手",
    "香落ち",
    "   1 ",
    "   2 ",
    "７六",
    "同　",
    "歩",
    "成",
    "不成",
    "打",
    "(77)",
    "(",
    ")",
    "変化：",
    "2手",
    "まで",
    "*",
    "&",
    "▲",
    "△",
    "右",
    "左",
    "直",
    "V2.2",
    "P1",
    " * ",
    "-OU",
    "+FU",
    "PI",
    "P+00AL",
    "P-00KI",
    "+",
    "-",
    "+7776FU",
    "-3334FU",
    "T1.5",
    "%TORYO",
    "/",
    "'",
    ",",
    "4k4/9/9/9/9/9/9/9/9 b G",
    "position",
    "sfen",
    "startpos",
    "moves",
    "7g7f",
    "G*5b",
    "#",
    "\u{feff}",
    "\u{fffd}",
];

fn token_file() -> impl Strategy<Value = String> {
    prop::collection::vec(0..TOKENS.len(), 0..120)
        .prop_map(|ix| ix.into_iter().map(|i| TOKENS[i]).collect::<String>())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_bytes_never_panic(b in prop::collection::vec(any::<u8>(), 0..600)) {
        let _ = read_bytes(&b, "random");
    }

    #[test]
    fn random_token_files_never_panic(text in token_file()) {
        let _ = read_str(&text, "tokens");
        let _ = read_bytes(&to_shift_jis(&text), "tokens");
    }

    #[test]
    fn mutated_samples_never_panic(
        which in 0usize..10,
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..4), 1..8),
    ) {
        let mut b = sample_files().swap_remove(which);
        for (at, byte, op) in edits {
            if b.is_empty() {
                b.push(byte);
                continue;
            }
            let i = at.index(b.len());
            match op {
                0 => b[i] = byte,
                1 => b.insert(i, byte),
                2 => { b.remove(i); }
                _ => b.truncate(i),
            }
        }
        let _ = read_bytes(&b, "mutated");
    }

    #[test]
    fn mutated_kif_lines_never_panic(which in 0usize..10, line in 0usize..40, text in token_file()) {
        let b = sample_files().swap_remove(which);
        let (s, _) = decode(&b);
        let mut lines: Vec<String> = s.lines().map(str::to_string).collect();
        if !lines.is_empty() {
            let i = line % lines.len();
            lines[i] = text;
        }
        let _ = read_str(&lines.join("\n"), "mutated");
    }
}

// ----- JSON records (feature serde) ------------------------------------------------------------

#[test]
fn json_records_have_the_documented_keys() {
    use tsume::json::{CheckRecord, ErrorRecord, SolveRecord};
    let keys = |v: serde_json::Value| -> Vec<String> {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    let p = one("problems/classic.kif");
    let mut solver = Solver::new(SolverConfig::new().hash_mib(16));
    let sol = solver.solve(&p.position);
    let rec = SolveRecord {
        sfen: p.position.to_sfen(),
        file: &p.origin.file,
        line: Some(p.origin.line),
        ply: None,
        solution: &sol,
    };
    let v = serde_json::to_value(&rec).unwrap();
    assert_eq!(v["length"], 3);
    assert_eq!(v["line_length"], 3);
    assert_eq!(v["line_is_main"], true);
    assert_eq!(v["hand_left"], "");
    assert_eq!(v["status"], "mate in 3");
    let first = v["first_proof_nodes"].as_u64().unwrap();
    assert!(first >= 1 && first <= v["nodes"].as_u64().unwrap());
    assert!(v["first_proof_ms"].as_u64().unwrap() <= v["time_ms"].as_u64().unwrap());
    assert_eq!(
        keys(v),
        [
            "exact",
            "file",
            "first_proof_ms",
            "first_proof_nodes",
            "hand_left",
            "length",
            "line",
            "line_is_main",
            "line_length",
            "moves",
            "nodes",
            "nps",
            "ply",
            "result",
            "sfen",
            "shortest_proven",
            "status",
            "time_ms"
        ]
    );
    let report = solver.check(&p.position, Some(&p.moves), &CheckConfig::new());
    let rec = CheckRecord {
        sfen: p.position.to_sfen(),
        file: &p.origin.file,
        line: Some(1),
        comment: &p.comment,
        report: &report,
    };
    let v = serde_json::to_value(&rec).unwrap();
    assert_eq!(v["verdict"], "sound");
    assert_eq!(v["flaws"][0]["kind"], "equal_length_variation");
    assert_eq!(v["flaws"][0]["moves"][0], "6a5b");
    assert_eq!(
        keys(v),
        [
            "comment",
            "file",
            "flaws",
            "hand_left",
            "intended",
            "intended_moves",
            "length",
            "line",
            "line_is_main",
            "line_length",
            "moves",
            "nodes",
            "sfen",
            "sound",
            "time_ms",
            "undecided",
            "verdict"
        ]
    );
    let e = read_str("4k4/9 b -", "bad.sfen").remove(0).unwrap_err();
    let v = serde_json::to_value(ErrorRecord(&e)).unwrap();
    assert_eq!(v["result"], "error");
    assert_eq!(v["line"], 1);
    assert_eq!(v["sfen"], "4k4/9 b -");
}

/// `write_file` picks the format and encoding from the extension, and every file it writes
/// reads back as the same problem (position, main line, and for KIF the variations); an
/// extension it does not know is an error and writes nothing.
#[test]
fn written_files_read_back_in_their_format_and_encoding() {
    let dir = std::env::temp_dir().join(format!("tsume-write-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = read_file(path("problems/karolina.ki2"))
        .remove(0)
        .expect("the sample reads");
    for (ext, format, shift_jis) in [
        ("kif", Format::Kif, true),
        ("kifu", Format::Kif, false),
        ("csa", Format::Csa, true),
        ("sfen", Format::Sfen, false),
    ] {
        let f = dir.join(format!("karolina.{ext}"));
        tsume::problem::write_file(&f, &p).unwrap();
        let bytes = std::fs::read(&f).unwrap();
        assert_eq!(std::str::from_utf8(&bytes).is_err(), shift_jis, "{ext}");
        let back = read_file(&f)
            .remove(0)
            .unwrap_or_else(|e| panic!("{ext}: {e}"));
        assert_eq!(back.format, format, "{ext}");
        assert_eq!(back.position, p.position, "{ext}");
        assert_eq!(back.moves, p.moves, "{ext}");
    }
    let bad = dir.join("karolina.txt");
    let e = tsume::problem::write_file(&bad, &p).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
    assert!(!bad.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `read_input` takes a file, or a problem's text, and calls a word that is neither a
/// missing file.
#[test]
fn an_input_is_a_file_or_a_problem_text() {
    let file = tsume::problem::read_input(&path("problems/tsume.csa"));
    assert_eq!(file.len(), 2);
    let text = tsume::problem::read_input("position startpos moves 7g7f");
    assert_eq!(text[0].as_ref().unwrap().format, Format::Usi);
    for missing in ["nothing-here.kif", "no/such/file", "nothing"] {
        let e = tsume::problem::read_input(missing).remove(0).unwrap_err();
        assert!(
            matches!(&*e.kind, ProblemErrorKind::Io(io) if io.kind() == std::io::ErrorKind::NotFound),
            "{missing}: {e}"
        );
    }
}
