"""The Dask example on a LocalCluster of two worker processes, over a few hundred problems,
against the answers of this process."""

import importlib.util
import time

from conftest import PROBLEMS, ROOT, need

import tsume_shogi as ts

FILES = [PROBLEMS / "random.sfen", PROBLEMS / "yaneuraou.sfen", PROBLEMS / "antma.sfen"]
LIMITS = dict(nodes=100_000, hash_mb=16, blocksize="4KiB")


def _example():
    spec = importlib.util.spec_from_file_location(
        "dask_solve", ROOT / "python" / "examples" / "dask_solve.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_dask_local_cluster_matches_one_process():
    need("dask")
    distributed = need("distributed")
    example = _example()
    paths = [str(f) for f in FILES]

    started = time.perf_counter()
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        ready = time.perf_counter()
        on_cluster = example.solve_files(client, paths, **LIMITS)
        done = time.perf_counter()
    print(
        f"\nDask, 2 worker processes: {len(on_cluster)} problems in {done - ready:.1f} s "
        f"(cluster start {ready - started:.1f} s)"
    )

    # The same blocks in this process: the same answers, field for field (a node limit makes
    # a search reproducible; only the wall times differ).
    here = example.solve_files(None, paths, **LIMITS)
    timeless = lambda r: {k: v for k, v in r.items() if k not in ("time", "nps",
                                                                  "first_proof_time")}
    assert [timeless(r) for r in on_cluster] == [timeless(r) for r in here]

    # And the answers of solve_many in this process, problem by problem: every verdict both
    # give agrees, and so does every length both prove shortest (a solver reused from one
    # problem to the next may reach a verdict within the limit that a fresh one does not).
    problems = [p for f in FILES for p in ts.read_problems(f)]
    assert len(problems) == len(on_cluster) >= 300
    t = time.perf_counter()
    single = ts.solve_many(problems, jobs=1, nodes=LIMITS["nodes"], hash_mb=LIMITS["hash_mb"])
    print(f"solve_many in one process, one job: {time.perf_counter() - t:.1f} s")
    decided = 0
    for p, d, s in zip(problems, on_cluster, single):
        assert d["sfen"] == s.sfen and d["file"] == p.file
        if "unknown" not in (d["verdict"], s.verdict):
            assert d["verdict"] == s.verdict, p.sfen_line()
            decided += 1
        if d["shortest_proven"] and s.shortest_proven:
            assert d["length"] == s.length, p.sfen_line()
    assert decided >= 0.9 * len(problems)
