#!/usr/bin/env python3
"""tsume_shogi and cshogi's df-pn solver (cshogi.DfPn) on one suite, in the same run.

For each position of an SFEN suite whose comments give the expected answer (``<sfen> #
<expected> <name>``, as in the repository's problems/*.sfen), prints a Markdown table: what
each solver answers and the wall time it took. tsume_shogi answers with a mate length proven
shortest (or says it is not proven) and the main line; cshogi.DfPn answers mate or not, and a
principal variation (get_pv) that is a mate but not necessarily the shortest, nor with the
longest defence.

    python python/examples/compare_cshogi.py problems/yaneuraou.sfen
"""

import argparse
import statistics
import sys
import time

import cshogi

import tsume_shogi as ts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("suite", help="an SFEN file with `# <expected> <name>` comments")
    ap.add_argument("--nodes", type=int, default=10_000_000, help="node limit, both solvers")
    ap.add_argument("--hash-mb", type=int, default=64, help="tsume_shogi's table")
    args = ap.parse_args()

    solver = ts.Solver(hash_mb=args.hash_mb)
    dfpn = cshogi.DfPn()
    dfpn.set_max_depth(127)
    dfpn.set_max_search_node(args.nodes)
    # Both tables mapped before the clock runs (cshogi.DfPn allocates its own on its first
    # search): page faults are not what is compared.
    solver.prefault()
    warm = "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1"
    solver.solve(warm)
    dfpn.search(cshogi.Board(warm))

    print("| # | expected | tsume_shogi | time (ms) | cshogi.DfPn | time (ms) |")
    print("|---|---|---|---|---|---|")
    ours_ms, theirs_ms = [], []
    ours_right = theirs_pv_shortest = theirs_mates = count = 0
    for p in ts.read_problems(args.suite):
        words = p.comment.split("|")[0].split()
        expected = words[0] if words else "?"
        if expected.startswith("nomate<="):
            continue  # a bounded question, which cshogi.DfPn cannot be asked
        count += 1
        t = time.perf_counter()
        r = solver.solve(p, nodes=args.nodes)
        ours = (time.perf_counter() - t) * 1000
        board = cshogi.Board(p.sfen())
        t = time.perf_counter()
        mate = dfpn.search(board)
        theirs = (time.perf_counter() - t) * 1000
        if mate:
            pv = dfpn.get_pv(board)
            answer = f"mate, PV {len(pv)} plies"
            theirs_mates += 1
            if str(len(pv)) == expected:
                theirs_pv_shortest += 1
        elif dfpn.searched_node >= args.nodes:
            answer = "unknown (node limit)"
        else:
            answer = "no mate"
        if r.status == f"mate in {expected}" or (expected == "nomate" and r.verdict == "nomate"):
            ours_right += 1
        ours_ms.append(ours)
        theirs_ms.append(theirs)
        print(
            f"| {count} | {expected} | {r.status} | {ours:.1f} | {answer} | {theirs:.1f} |"
        )
    print()
    print(
        f"{count} positions. tsume_shogi: the expected answer (length proven shortest, or no "
        f"mate) on {ours_right}; median {statistics.median(ours_ms):.1f} ms, total "
        f"{sum(ours_ms):.0f} ms. cshogi.DfPn: mate on {theirs_mates}, a PV as long as the "
        f"expected shortest mate on {theirs_pv_shortest}; median "
        f"{statistics.median(theirs_ms):.1f} ms, total {sum(theirs_ms):.0f} ms."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
