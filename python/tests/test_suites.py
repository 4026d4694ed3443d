"""The crate's problem suites through the Python API: lengths of the SFEN suites, the records
of each format, and the checker's documented flaws (the same expectations as the crate's own
tests, read from the files' comments)."""

import re

import pytest
from conftest import PROBLEMS

import tsume_shogi as ts


def _expected(problem: ts.Problem) -> str:
    return problem.comment.split("|")[0].split()[0]


@pytest.mark.parametrize("name", ["yaneuraou.sfen", "antma.sfen"])
def test_sfen_suite_lengths(name):
    problems = ts.read_problems(PROBLEMS / name)
    assert len(problems) > 30
    plain = [p for p in problems if not _expected(p).startswith("nomate<=")]
    results = ts.solve_many(plain, jobs=2, hash_mb=64)
    for p, r in zip(plain, results):
        want = _expected(p)
        where = f"{p.file}:{p.line}"
        if want == "nomate":
            assert r.verdict == "nomate", f"{where}: {r.status}"
        elif want != "?":
            assert r.status == f"mate in {want}", f"{where}: {r.status}"
            assert r.shortest_proven and r.main_line
            assert len(r.moves) >= r.length
    for p in problems:
        want = _expected(p)
        if want.startswith("nomate<="):
            bound = int(want[len("nomate<="):])
            r = ts.solve(p, max_length=bound, hash_mb=16)
            assert r.verdict == "nomate", f"{p.file}:{p.line}: {r.status} within {bound}"


def test_random_suite_lengths_are_bounds():
    """random.sfen's first hundred under a node limit: a mate's length is never below the
    shortest (it is a proven bound), and equals it when proven shortest."""
    problems = ts.read_problems(PROBLEMS / "random.sfen")[:100]
    results = ts.solve_many(problems, jobs=2, nodes=300_000, hash_mb=16)
    proven = 0
    for p, r in zip(problems, results):
        assert r.verdict in ("mate", "unknown"), f"{p.line}: {r.status}"
        if r.verdict == "mate" and _expected(p) != "?":
            want = int(_expected(p))
            assert r.length >= want, f"random.sfen:{p.line}: {r.status}, shortest is {want}"
            if r.shortest_proven:
                proven += 1
                assert r.length == want, f"random.sfen:{p.line}: {r.status}, expected {want}"
    assert proven >= 80


def _record_expectation(path):
    text = path.read_bytes().decode("cp932" if path.suffix == ".kif" else "utf-8")
    return [int(m) for m in re.findall(r"expect: mate (\d+)", text)]


@pytest.mark.parametrize("name", ["classic.kif", "karolina.ki2", "tsume.csa", "positions.usi"])
def test_records_of_each_format(name):
    path = PROBLEMS / name
    problems = ts.read_problems(path)
    lengths = _record_expectation(path)
    assert len(problems) == len(lengths) > 0
    for p, want in zip(problems, lengths):
        r = ts.solve(p, hash_mb=64)
        assert r.status == f"mate in {want}", f"{p.file}:{p.line}: {r.status}"
    # A path object and the file's text read the same problems as the path's string.
    assert [p.sfen_line() for p in ts.read_problems(str(path))] == [
        p.sfen_line() for p in problems
    ]


def _flaw_tokens(report: ts.CheckReport, with_move: bool):
    out = []
    for f in report.flaws:
        t = f"{f.kind}@{f.ply}"
        if with_move and f.moves:
            t += ":" + f.moves[0]
        out.append(t)
    return out


def test_flawed_problems_report_exactly_their_flaws():
    kinds = set()
    for p in ts.read_problems(PROBLEMS / "flawed.sfen"):
        m = re.match(r"expect(?:\(([^)]*)\))?:([^|]*)", p.comment.strip())
        assert m, f"{p.line}: no expectation"
        options = (m.group(1) or "").split(",")
        want = sorted(m.group(2).split())
        report = ts.check(
            p,
            strict="strict" in options,
            variations="variations" in options,
            question_nodes=1_000_000,
            hash_mb=64,
        )
        got = []
        for token in _flaw_tokens(report, with_move=True):
            short = token.split(":")[0]
            got.append(token if token in want or short not in want else short)
        assert sorted(got) == want, f"flawed.sfen:{p.line}"
        assert report.verdict == ("unsound" if any(f.fatal for f in report.flaws) else "sound")
        assert report.undecided == []
        kinds.update(f.kind for f in report.flaws)
    assert len(kinds) == 11, kinds


def test_yaneuraou_documented_checks():
    solver = ts.Solver(hash_mb=64)
    count = 0
    for p in ts.read_problems(PROBLEMS / "yaneuraou.sfen"):
        if "| check:" not in p.comment:
            continue
        documented = p.comment.split("| check:")[1].split()
        verdict, want = documented[0], sorted(set(documented[1:]))
        report = solver.check(p, question_nodes=400_000)
        got = sorted(set(_flaw_tokens(report, with_move=False)))
        assert (report.verdict, got) == (verdict, want), f"yaneuraou.sfen:{p.line}"
        count += 1
    assert count > 20
