#!/usr/bin/env python3
"""Solves files of problems on a Dask cluster (dask.distributed).

Each file holds one problem per line: an SFEN (``[sfen] <sfen> [moves ...] [# comment]``) or a
USI ``position`` line, as data sets of millions of positions usually are. The files are read
by the workers themselves in blocks (``dask.bag.read_text``), so they must be reachable from
every worker at the same path (a shared file system, or a URL that fsspec reads: s3://,
gs://, ...); a block's lines are solved one after the other by one solver reused (its table
allocated once), and the GIL is released during each search, so a worker's threads all
search at once.

    # a cluster started elsewhere (dask scheduler / dask worker, Kubernetes, SLURM, ...)
    python dask_solve.py problems.sfen --scheduler tcp://10.0.0.5:8786 --nodes 1000000 \\
        --out results.jsonl
    # or a local cluster of N worker processes
    python dask_solve.py problems.sfen --local 4

One JSON object per problem is written, in input order: ``file``, ``sfen``, ``comment`` and
the fields of ``tsume_shogi.SolveResult.to_dict()`` (``verdict``, ``length``, ``status``,
``moves``, ...), or ``error`` for a line that cannot be read. Limits: ``--nodes`` makes the
answers the same on every run and every machine; ``--time`` does not.
"""

import argparse
import json
import sys
import time
from typing import Any, Dict, Iterable, List, Optional, Sequence


def solve_lines(
    lines: Iterable[str],
    *,
    file: str = "",
    nodes: Optional[int] = None,
    time_limit: Optional[float] = None,
    shortest_nodes: Optional[int] = None,
    hash_mb: int = 64,
) -> List[Dict[str, Any]]:
    """Solves the problem lines of one block (comment and empty lines are skipped)."""
    import tsume_shogi as ts  # imported on the worker

    solver = ts.Solver(hash_mb=hash_mb)
    out: List[Dict[str, Any]] = []
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            problem = ts.read_problems(line)[0]
            record = solver.solve(
                problem, time=time_limit, nodes=nodes, shortest_nodes=shortest_nodes
            ).to_dict()
            record["comment"] = problem.comment
        except ts.ProblemError as e:
            # One bad line must not stop a run over millions: it is reported in its place.
            record = {"sfen": line, "verdict": "error", "error": e.what}
        record["file"] = file
        out.append(record)
    return out


def solve_files(
    client: Optional[Any],
    paths: Sequence[str],
    *,
    nodes: Optional[int] = None,
    time_limit: Optional[float] = None,
    shortest_nodes: Optional[int] = None,
    hash_mb: int = 64,
    blocksize: str = "256KiB",
) -> List[Dict[str, Any]]:
    """Solves every problem line of ``paths`` on the cluster ``client`` is connected to (None:
    in this process, block by block as a cluster would); the records come back in input
    order."""
    import dask.bag as db

    records: List[Dict[str, Any]] = []
    for path in paths:
        bag = db.read_text(path, blocksize=blocksize)
        solved = bag.map_partitions(
            solve_lines,
            file=path,
            nodes=nodes,
            time_limit=time_limit,
            shortest_nodes=shortest_nodes,
            hash_mb=hash_mb,
        )
        if client is None:
            records.extend(solved.compute(scheduler="synchronous"))
        else:
            records.extend(client.compute(solved).result())
    return records


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", help="files of SFEN / USI position lines")
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--scheduler", help="the Dask scheduler's address (tcp://host:8786)")
    where.add_argument("--local", type=int, metavar="N", help="a LocalCluster of N processes")
    ap.add_argument("--nodes", type=int, help="node limit per problem (reproducible)")
    ap.add_argument("--time", type=float, help="time limit per problem, seconds")
    ap.add_argument("--shortest-nodes", type=int, help="allowance for proving shortest")
    ap.add_argument("--hash-mb", type=int, default=64, help="table per solver (default 64)")
    ap.add_argument("--blocksize", default="256KiB",
                    help="bytes of a file per task (default 256KiB, some 3000 SFEN lines)")
    ap.add_argument("--out", help="write JSON lines here (default: standard output)")
    args = ap.parse_args(argv)

    from dask.distributed import Client, LocalCluster

    if args.local:
        cluster = LocalCluster(n_workers=args.local, threads_per_worker=1, processes=True)
        client = Client(cluster)
    else:
        cluster = None
        client = Client(args.scheduler)
    try:
        started = time.perf_counter()
        records = solve_files(
            client,
            args.files,
            nodes=args.nodes,
            time_limit=args.time,
            shortest_nodes=args.shortest_nodes,
            hash_mb=args.hash_mb,
            blocksize=args.blocksize,
        )
        elapsed = time.perf_counter() - started
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    lines = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(lines)
    else:
        sys.stdout.write(lines)
    counts: Dict[str, int] = {}
    for r in records:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    print(f"{len(records)} problems in {elapsed:.1f} s: {counts}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
