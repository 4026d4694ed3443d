"""The search runs without the GIL, Ctrl-C stops it at once, and progress reports arrive."""

import _thread
import threading
import time

import pytest
from conftest import PROBLEMS

import tsume_shogi as ts

MICROCOSMOS = ts.read_problems(PROBLEMS / "microcosmos.sfen")[0].position
# Enough nodes for about half a second of search: two such searches show the GIL released.
NODES = 600_000


def _timed(f):
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def test_two_threads_take_less_wall_time_than_one_after_the_other():
    def one():
        r = ts.solve(MICROCOSMOS, nodes=NODES, hash_mb=32)
        assert r.verdict == "unknown" and r.nodes >= NODES

    def both():
        threads = [threading.Thread(target=one) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    one()  # warm up: the first call imports and maps what later ones reuse
    # Held GIL: the two searches would run one after the other, a ratio of 1 or more; on two
    # free cores it is about 0.5. The best of up to five attempts under 0.9: the machine's other
    # work (two cores shared) can eat an attempt.
    ratios = []
    for _ in range(5):
        sequential = _timed(lambda: (one(), one()))
        parallel = _timed(both)
        ratios.append(parallel / sequential)
        print(f"\ntwo searches: {sequential:.2f} s one after the other, {parallel:.2f} s at once")
        if ratios[-1] < 0.9:
            break
    assert min(ratios) < 0.9, ratios


def test_python_runs_while_a_search_runs():
    """Pure Python code on the calling side keeps running during a search (it would stand
    still for the whole search if the GIL were held)."""

    def count(seconds: float) -> int:
        n, end = 0, time.perf_counter() + seconds
        while time.perf_counter() < end:
            n += 1
        return n

    alone = count(0.3)
    t = threading.Thread(target=lambda: ts.solve(MICROCOSMOS, nodes=3 * NODES, hash_mb=32))
    t.start()
    time.sleep(0.05)
    beside = count(0.3)
    still_running = t.is_alive()
    t.join()
    assert still_running
    assert beside > 0.1 * alone, (beside, alone)


def _interrupt_after(delay: float, fired: list):
    def fire():
        fired.append(time.perf_counter())
        _thread.interrupt_main()

    timer = threading.Timer(delay, fire)
    timer.start()
    return timer


@pytest.mark.parametrize("call", ["solve", "check", "solve_many", "solver"])
def test_ctrl_c_stops_a_search_at_once(call):
    solver = ts.Solver(hash_mb=32)
    run = {
        "solve": lambda: ts.solve(MICROCOSMOS, hash_mb=32),
        "check": lambda: ts.check(MICROCOSMOS, hash_mb=32),
        "solve_many": lambda: ts.solve_many([MICROCOSMOS] * 4, jobs=2, hash_mb=32),
        "solver": lambda: solver.solve(MICROCOSMOS),
    }[call]
    fired: list = []
    timer = _interrupt_after(0.3, fired)
    try:
        with pytest.raises(KeyboardInterrupt):
            run()
        latency = time.perf_counter() - fired[0]
    finally:
        timer.cancel()
    print(f"\n{call}: KeyboardInterrupt {latency * 1000:.0f} ms after Ctrl-C")
    assert latency < 0.1
    # The solver is whole afterwards.
    r = solver.solve("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1")
    assert r.status == "mate in 3"


def test_progress_reports_and_a_callback_that_raises_stops_the_search():
    seen = []
    r = ts.solve(MICROCOSMOS, nodes=NODES, hash_mb=32, progress=seen.append,
                 progress_interval=0.05)
    assert r.verdict == "unknown"
    assert seen and all(isinstance(p, ts.Progress) for p in seen)
    assert [p.nodes for p in seen] == sorted(p.nodes for p in seen)
    assert seen[-1].nodes <= r.nodes and seen[-1].time > 0

    class Enough(Exception):
        pass

    def stop(p):
        raise Enough

    t = time.perf_counter()
    with pytest.raises(Enough):
        ts.solve(MICROCOSMOS, hash_mb=32, progress=stop, progress_interval=0.05)
    assert time.perf_counter() - t < 1.0


def test_stop_from_another_thread():
    solver = ts.Solver(hash_mb=32)
    threading.Timer(0.2, solver.stop).start()
    t = time.perf_counter()
    r = solver.solve(MICROCOSMOS)
    assert r.verdict == "unknown" and r.reason == "stopped"
    assert time.perf_counter() - t < 1.0


def test_threads_give_the_same_answers():
    """A search on 2 threads (and on 4, more than the test machines' cores) answers as one."""
    for problem in ts.read_problems(PROBLEMS / "yaneuraou.sfen")[:12]:
        one = ts.solve(problem.position, hash_mb=16)
        for threads in (2, 4):
            r = ts.Solver(hash_mb=16, threads=threads).solve(problem.position)
            assert (r.verdict, r.length, r.shortest_proven) == (
                one.verdict,
                one.length,
                one.shortest_proven,
            )
    assert ts.Solver(threads=2).threads == 2
