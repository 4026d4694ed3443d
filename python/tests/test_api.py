"""The API's shape: every kind of position input, results, reports, records, notebooks."""

import json
import pickle

from conftest import PROBLEMS, need

import tsume_shogi as ts

CLASSIC = "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1"


def test_the_readme_example():
    r = ts.solve(CLASSIC, time=10)
    assert r.is_mate and r.status == "mate in 3" and r.length == 3
    assert r.moves == ["9f5b+", "4a5b", "S*4b"]
    assert r.japanese == ["▲５二角成", "△同　銀左", "▲４二銀打"]
    assert r.shortest_proven and r.main_line and r.exact
    assert r.hand_left == "" and r.nodes > 0 and r.time > 0
    assert json.loads(json.dumps(r.to_dict()))["status"] == "mate in 3"


def test_positions_from_every_kind_of_input(tmp_path):
    want = ts.Position(CLASSIC)
    kif = PROBLEMS / "classic.kif"
    inputs = [
        CLASSIC,
        "sfen " + CLASSIC,
        "position sfen " + CLASSIC,
        kif,  # a pathlib.Path
        str(kif),
        ts.read_problems(kif)[0],
        want,
    ]
    for x in inputs:
        assert ts.Position(x) == want, x
        assert ts.solve(x, hash_mb=4).status == "mate in 3", x
    assert ts.Position(kif.read_bytes().decode("cp932")) == want  # the record's text
    # White to move, from a USI line: the attacker is the side to move.
    white = ts.Position(ts.read_problems(PROBLEMS / "positions.usi")[0])
    assert white.side_to_move == "white"


def test_a_cshogi_board():
    cshogi = need("cshogi")
    board = cshogi.Board(CLASSIC)
    assert ts.Position(board) == ts.Position(CLASSIC)
    r = ts.solve(board, hash_mb=4)
    assert r.moves == ["9f5b+", "4a5b", "S*4b"]
    for usi in r.moves:
        board.push_usi(usi)
    assert board.is_game_over()


def test_position_methods():
    pos = ts.Position(CLASSIC)
    assert pos.sfen() == CLASSIC and not pos.in_check
    assert "9f5b+" in pos.legal_moves()
    after = pos.play("9f5b+")
    assert after.in_check and after.side_to_move == "white"
    assert pos.japanese(["9f5b+", "4a5b"]) == ["▲５二角成", "△同　銀左"]
    assert "後手の持駒" in str(pos) and repr(pos) == f'Position("{CLASSIC}")'
    assert pickle.loads(pickle.dumps(pos)) == pos
    assert len({pos, ts.Position(CLASSIC)}) == 1
    svg = pos._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<text") > 20 and "玉" not in svg
    assert "王" in svg  # White's king


def test_results_show_themselves():
    r = ts.solve(CLASSIC, hash_mb=4)
    html = r._repr_html_()
    assert "<svg" in html and "mate in 3" in html and "▲５二角成" in html
    assert "mate in 3" in repr(r)
    report = ts.check(CLASSIC, hash_mb=4)
    assert "<svg" in report._repr_html_() and "変同" in report._repr_html_()


def test_no_mate_and_limits():
    r = ts.solve("3sks3/9/4S4/2P6/9/B8/9/9/9 b S2rb4g4n4l17p 1", hash_mb=4)
    assert r.verdict == "nomate" and not r.is_mate and r.length is None and r.moves == []
    micro = ts.read_problems(PROBLEMS / "microcosmos.sfen")[0]
    r = ts.solve(micro, nodes=20_000, hash_mb=4)
    assert r.verdict == "unknown" and r.reason == "node limit reached"
    r = ts.solve(micro, time=0.05, hash_mb=4)
    assert r.verdict == "unknown" and r.reason == "time limit reached"
    r = ts.solve(CLASSIC, max_length=1, hash_mb=4)
    assert r.verdict == "nomate"


def test_solve_many_keeps_the_input_order():
    problems = ts.read_problems(PROBLEMS / "yaneuraou.sfen")
    one_by_one = [ts.solve(p, hash_mb=16).to_dict() for p in problems]
    batch = ts.solve_many(problems, jobs=3, hash_mb=16)
    strip = lambda d: {k: v for k, v in d.items() if k not in ("nodes", "time", "nps",
                                                              "first_proof_nodes",
                                                              "first_proof_time")}
    assert [strip(r.to_dict()) for r in batch] == [strip(d) for d in one_by_one]
    assert ts.solve_many([]) == []


def test_check_report_and_its_kif(tmp_path):
    # 古典3手詰: sound, with a 変同 at ply 2 (6a5b is as long as the line's 4a5b).
    report = ts.check(CLASSIC, hash_mb=16)
    assert report.verdict == "sound" and report.sound is True
    assert [(f.kind, f.ply, f.kind_japanese) for f in report.flaws] == [
        ("equal_length_variation", 2, "変同")]
    flaw = report.flaws[0]
    assert flaw.moves[0] == "6a5b" and flaw.moves_japanese.startswith("△同")
    assert not flaw.fatal and flaw.detail
    assert report.line == report.to_dict()["line"] and report.length == 3
    path = tmp_path / "checked.kif"
    report.write_kif(path)
    back = ts.read_problems(path)[0]
    assert back.moves == report.line
    assert back.variations and back.variations[0]["ply"] == 2
    assert back.variations[0]["moves"][0] == "6a5b"
    assert len(back.variations[0]["moves"]) > 1  # the alternative's line to the mate
    assert "変化：2手" in report.to_problem().kif()
    utf8 = tmp_path / "checked.kifu"
    report.write_kif(utf8, lines=False)
    assert "変同" in utf8.read_text(encoding="utf-8")


def test_check_uses_the_problems_own_line():
    # 古典3手詰 with a knight on 7e: its intended line mates in 3, 7e6c mates in 1.
    p = next(p for p in ts.read_problems(PROBLEMS / "flawed.sfen")
             if p.sfen_line().startswith("3sks3/9/4S4/9/2N6/B8/9/9/9 b S2rb4g3n4l18p 1 moves"))
    assert p.moves == ["9f5b+", "4a5b", "S*4b"]
    report = ts.check(p, question_nodes=1_000_000, hash_mb=16)
    assert report.checked_intended and report.verdict == "unsound"
    assert report.flaws[0].kind == "shorter_mate"
    other = ts.check(p.position, hash_mb=16)  # the position alone: the main line is checked
    assert not other.checked_intended


def test_a_solver_is_reused_and_problems_write(tmp_path):
    solver = ts.Solver(hash_mb=8)
    assert solver.hash_mb == 8 and "8" in repr(solver)
    for p in ts.read_problems(PROBLEMS / "yaneuraou.sfen")[:5]:
        assert solver.solve(p).is_mate
    p = ts.read_problems(PROBLEMS / "karolina.ki2")[0]
    for ext in ["kif", "kifu", "csa", "sfen"]:
        f = tmp_path / f"k.{ext}"
        p.write(f)
        assert ts.read_problems(f)[0].moves == p.moves
    try:
        p.write(tmp_path / "k.txt")
    except ValueError as e:
        assert ".kif" in str(e)
    else:
        raise AssertionError("an unknown extension must raise")
