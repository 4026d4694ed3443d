"""Bad input of every kind raises ProblemError (a ValueError) that says where and what, or a
TypeError / ValueError for a bad argument; never a crash."""

import pickle

import pytest
from conftest import PROBLEMS

import tsume_shogi as ts

CLASSIC = "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1"

BAD_KIF = """後手の持駒：残り全部
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・v銀v玉v銀 ・ ・ ・|一
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二
| ・ ・ ・ ・ 銀 ・ ・ ・ ・|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| 角 ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ ・ ・ ・ ・ ・|九
+---------------------------+
先手の持駒：銀
手数----指手---------消費時間--
   1 ５二角成(96)
   2 ５二飛(41)
"""

BAD_CSA = """V2.2
P1 *  *  *  * -OU *  *  *  *
P2 *  *  *  *  *  *  *  *  *
P3 *  *  *  * +XX *  *  *  *
P4 *  *  *  *  *  *  *  *  *
P5 *  *  *  *  *  *  *  *  *
P6 *  *  *  *  *  *  *  *  *
P7 *  *  *  *  *  *  *  *  *
P8 *  *  *  *  *  *  *  *  *
P9 *  *  *  *  *  *  *  *  *
P+00KI
P-00AL
+
"""


def _error(call) -> ts.ProblemError:
    with pytest.raises(ts.ProblemError) as info:
        call()
    e = info.value
    assert isinstance(e, ValueError)
    assert e.what and e.what in str(e)
    return e


@pytest.mark.parametrize(
    "text, line, column",
    [
        ("3sks3/9/4S4/9/9/B8/9/9/X b S 1", 1, 1),  # an unknown piece
        ("3sks3/9/4S4/9/9/B8/9/9 b S 1", 1, 1),  # eight ranks
        ("3sks3/9/4S4/9/9/B8/9/9/9 x S 1", 1, None),  # no such side to move
        (CLASSIC + " moves 9f5b+ 4a5b zz", 1, None),  # a move that cannot be read
        ("3sks3/9/4S4/9/9/B8/9/9/9 b S2Z 1", 1, None),  # a bad hand
        ("position sfen 3sks3/9/4S4/9/9/B8/9/9/9 b", 1, None),  # no hands in a USI line
    ],
)
def test_bad_sfen_and_usi_lines(text, line, column):
    e = _error(lambda: ts.Position(text))
    assert e.line == line
    if column is not None:
        assert e.column == column
    assert str(e).startswith(f"{e.file}:{e.line}")


def test_bad_kif_names_its_line():
    e = _error(lambda: ts.solve(BAD_KIF))
    assert e.line == 17 and "move 2" in e.what, (e.line, e.what)


def test_bad_csa_names_its_line():
    e = _error(lambda: ts.Position(BAD_CSA))
    assert e.line == 4, (e.line, e.what)


def test_a_file_and_its_lines(tmp_path):
    f = tmp_path / "two.sfen"
    f.write_text(f"{CLASSIC}\n# a comment\n3sks3/9/4S4/9/9/B8/9/9/Q b S 1\n")
    e = _error(lambda: ts.read_problems(f))
    assert (e.file, e.line, e.column) == (str(f), 3, 1)
    assert [p.line for p in ts.read_problems(f, on_error="skip")] == [1]
    both = ts.read_problems(f, on_error="return")
    assert isinstance(both[0], ts.Problem) and isinstance(both[1], ts.ProblemError)
    # A file of several problems is not one position.
    with pytest.raises(ValueError, match="read_problems"):
        ts.Position(f)
    with pytest.raises(ValueError, match="on_error"):
        ts.read_problems(f, on_error="ignore")


@pytest.mark.parametrize("text", ["", "   ", "no/such/problem.kif", "nonsense"])
def test_missing_files_and_empty_text(text):
    e = _error(lambda: ts.solve(text))
    assert e.line == 0


def test_no_defender_king():
    e = _error(lambda: ts.solve("9/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1"))
    assert "king" in e.what


def test_bad_moves():
    pos = ts.Position(CLASSIC)
    e = _error(lambda: pos.play("9f5b+ 4a5b S*4z"))
    assert (e.file, e.column) == ("<moves>", 12)
    e = _error(lambda: pos.play(["9f5b+", "9f5b"]))
    assert "move 2" in e.what and "illegal" in e.what
    # An illegal move in a problem's own line is read (a record may hold one): the checker
    # reports it as a flaw of the intended line.
    assert ts.Position(CLASSIC + " moves 9f5b+ 9f5b") == pos
    e = _error(lambda: ts.check(pos, "9f5b+ xx"))
    assert e.column == 7
    # An intended line that is legal but no mate is the checker's finding, not an error.
    report = ts.check(pos, "9f5b+ 4a5b 1a1b", hash_mb=16)
    assert any(f.kind == "invalid_intended_line" for f in report.flaws)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"threads": 0}, "threads"),
        ({"time": -1.0}, "time"),
        ({"time": float("nan")}, "time"),
        ({"nodes": 0}, "nodes"),
        ({"hash_mb": 0}, "hash_mb"),
        ({"shortest_nodes": 0}, "shortest_nodes"),
        ({"progress_interval": 0.0}, "progress_interval"),
    ],
)
def test_bad_settings(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ts.solve(CLASSIC, **kwargs)


def test_bad_settings_of_the_batch_and_the_checker():
    with pytest.raises(ValueError, match="jobs"):
        ts.solve_many([CLASSIC], jobs=0)
    with pytest.raises(ValueError, match="threads"):
        ts.solve_many([CLASSIC], threads=0)
    with pytest.raises(ValueError, match="question_nodes"):
        ts.check(CLASSIC, question_nodes=0)
    # A bad position anywhere in a batch raises before any search.
    _error(lambda: ts.solve_many([CLASSIC, "bad sfen here", CLASSIC]))


def test_wrong_types():
    for bad in [42, None, 3.5, [CLASSIC], b"3sks3"]:
        with pytest.raises(TypeError):
            ts.solve(bad)

    class NotABoard:
        def sfen(self):
            return 7

    with pytest.raises(TypeError, match="sfen"):
        ts.solve(NotABoard())
    with pytest.raises(TypeError):
        ts.Position(CLASSIC).play(42)
    with pytest.raises(TypeError):
        ts.solve_many(42)


def test_an_impossible_table_is_a_memory_error():
    with pytest.raises(MemoryError):
        ts.Solver(hash_mb=1 << 40)


def test_the_error_pickles_whole():
    e = _error(lambda: ts.Position("3sks3/9/4S4/9/9/B8/9/9/X b S 1"))
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is ts.ProblemError
    assert (back.file, back.line, back.column, back.what, str(back)) == (
        e.file, e.line, e.column, e.what, str(e))


def test_every_suite_file_reads_without_error():
    for f in PROBLEMS.iterdir():
        if f.name == "microcosmos_solution.usi":  # a line of moves, not a problem
            continue
        assert ts.read_problems(f), f
