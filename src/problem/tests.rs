//! Unit tests of the readers and writers; the GUI-style files and round trips are in
//! tests/problem.rs.

use super::*;

#[test]
fn sfen_lines_with_comments_and_moves() {
    let text = "# a comment\n\n3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1 moves 9f5b+ 4a5b S*4b # 3 classic | check: sound\nposition startpos moves 7g7f\n";
    let got = read_str(text, "t.sfen");
    assert_eq!(got.len(), 2);
    let p = got[0].as_ref().unwrap();
    assert_eq!(p.format, Format::Sfen);
    assert_eq!(p.origin.line, 3);
    assert_eq!(p.moves.len(), 3);
    assert_eq!(p.comment, "3 classic | check: sound");
    let q = got[1].as_ref().unwrap();
    assert_eq!(q.format, Format::Usi);
    assert_eq!(q.moves.len(), 1);
}

#[test]
fn sfen_errors_name_line_and_column() {
    let got = read_str("4k4/9/9/9/9/9/9/9/9 b G moves G*5b 5a5b 7g7z\n", "x");
    let e = got[0].as_ref().unwrap_err();
    assert_eq!(e.line, 1);
    assert_eq!(e.column, Some(41));
    assert!(
        matches!(*e.kind, ProblemErrorKind::MoveSyntax { .. }),
        "{e}"
    );
    // Illegal moves are kept: the checker reports them as the composer's flaw.
    let p = read_str("4k4/9/9/9/9/9/9/9/9 b G moves G*5b 5a5b 7g7f\n", "x").remove(0);
    let p = p.unwrap();
    assert_eq!((p.moves.len(), p.legal_len()), (3, 2));
    let e = read_str("\n\n4k4/9/9 b -\n", "y")[0].clone().unwrap_err();
    assert_eq!(
        e.to_string(),
        "y:3:1: bad position: board has 3 ranks separated by '/', expected 9"
    );
}

#[test]
fn shift_jis_is_detected() {
    let kif = "後手の持駒：なし\n先手の持駒：金\n";
    let bytes = to_shift_jis(kif);
    assert_eq!(decode(&bytes).1, Encoding::ShiftJis);
    assert_eq!(decode(&bytes).0, kif);
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(kif.as_bytes());
    assert_eq!(decode(&bom), (kif.to_string(), Encoding::Utf8Bom));
}

#[test]
fn formats_are_found_from_the_content() {
    assert_eq!(
        detect("# 後手の持駒：なし\n4k4/9/9/9/9/9/9/9/9 b G # ▲５二金 の持駒\n"),
        Format::Sfen
    );
    assert_eq!(detect("position startpos moves 7g7f\n"), Format::Usi);
    assert_eq!(detect("'comment\nPI\n+\n"), Format::Csa);
    assert_eq!(detect("+B8/9/9/9/9/9/9/9/4K4 b - 1\n"), Format::Sfen);
    assert_eq!(detect("手合割：平手\n   1 ７六歩(77)\n"), Format::Kif);
    assert_eq!(detect("手合割：平手\n▲７六歩 △３四歩\n"), Format::Ki2);
    assert_eq!(detect("#KIF version=2.0 encoding=UTF-8\n"), Format::Kif);
}

#[test]
fn usi_position_is_strict_and_says_where() {
    let pos = read_usi_position("startpos moves").unwrap();
    assert_eq!(pos, Position::startpos());
    let pos = read_usi_position("position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b").unwrap();
    assert_eq!(pos.side_to_move(), crate::Color::White);
    let cases: [(&str, usize, &str); 5] = [
        ("position startpos 7g7f", 19, "cannot read the line"),
        (
            "position startpos moves 7g7f 7g7x",
            30,
            "cannot read the move \"7g7x\"",
        ),
        (
            "position",
            9,
            "expected 'startpos' or 'sfen', found nothing",
        ),
        (
            "position 4k4/9/9/9/9/9/9/9/4K4 b - 1",
            10,
            "expected 'startpos' or 'sfen'",
        ),
        ("position sfen 4k4/9/9 b - 1", 15, "bad position"),
    ];
    for (line, column, what) in cases {
        let e = read_usi_position(line).unwrap_err();
        assert_eq!(e.column, Some(column), "{line}: {e}");
        assert!(e.to_string().contains(what), "{line}: {e}");
    }
}
