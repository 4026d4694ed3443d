"""tsume_shogi: a tsume-shogi (詰将棋) solver and uniqueness checker.

Python bindings of the Rust crate ``tsume``. A position is given as an SFEN or USI
``position`` line, a record's text (KIF, KI2, BOD, CSA), a path to a problem file, a
:class:`Position` or :class:`Problem`, or any object with an ``.sfen()`` method (a
``cshogi.Board``).

    >>> import tsume_shogi as ts
    >>> r = ts.solve("3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1")
    >>> r.status, r.moves
    ('mate in 3', ['9f5b+', '4a5b', 'S*4b'])

- :func:`solve` proves mate or no mate: the shortest mate (proven so or not), the main line
  with the longest defence, futile interpositions (無駄合) not counted.
- :func:`check` checks a composed problem for a unique solution and reports each flaw (余詰,
  駒余り, 変同, 早詰, ...); :meth:`CheckReport.write_kif` writes the flaws as variations.
- :func:`solve_many` solves a batch on several threads, results in input order.
- :func:`read_problems` reads every problem of a file.

Searches run without the GIL; Ctrl-C stops them (``KeyboardInterrupt``). Bad input raises
:class:`ProblemError`, a ``ValueError`` with ``file``, ``line``, ``column`` and ``what``.
"""

from typing import Any, Callable, Optional, Sequence, Union

from ._errors import ProblemError
from ._tsume_shogi import (
    DEFAULT_HASH_MB,
    CheckReport,
    Flaw,
    Position,
    Problem,
    Progress,
    Solver,
    SolveResult,
    Undecided,
    read_problems,
    solve_many,
)

__all__ = [
    "DEFAULT_HASH_MB",
    "CheckReport",
    "Flaw",
    "Position",
    "Problem",
    "ProblemError",
    "Progress",
    "SolveResult",
    "Solver",
    "Undecided",
    "check",
    "read_problems",
    "solve",
    "solve_many",
]

__version__ = "0.1.0"


def solve(
    position: Any,
    *,
    time: Optional[float] = None,
    nodes: Optional[int] = None,
    hash_mb: int = DEFAULT_HASH_MB,
    threads: int = 1,
    shortest_nodes: Optional[int] = None,
    max_length: Optional[int] = None,
    progress: Optional[Callable[[Progress], Any]] = None,
    progress_interval: Optional[float] = None,
) -> SolveResult:
    """Proves mate or no mate for the side to move (the attacker).

    ``time`` (seconds) and ``nodes`` bound the whole search; ``hash_mb`` is the table's size.
    ``shortest_nodes``: nodes allowed after the first proof for proving the mate shortest and
    walking the main line (default 10,000,000; ``1`` gives the first verified mate at once).
    ``max_length``: look only for mates of at most that many plies (``nomate`` then means none
    that short). ``progress`` is called with a :class:`Progress` about every
    ``progress_interval`` seconds (default 1), on the calling thread; if it raises, the search
    stops and the error propagates.

    ``threads``: search threads for this one position (default 1): helper threads search it
    over the one table of ``hash_mb``. More threads help long problems; answers are as sound,
    but node counts (and, under a limit, how far it got) vary from run to run. For many
    positions at once use :func:`solve_many` with ``jobs=N``.

    A :class:`SolveResult` comes back; read ``status`` for one sentence, ``length`` and
    ``shortest_proven`` for the length, ``moves`` / ``japanese`` for the line.
    """
    solver = Solver(hash_mb=hash_mb, threads=threads)
    return solver.solve(
        position,
        time=time,
        nodes=nodes,
        shortest_nodes=shortest_nodes,
        max_length=max_length,
        progress=progress,
        progress_interval=progress_interval,
    )


def check(
    position: Any,
    moves: Optional[Union[str, Sequence[str]]] = None,
    *,
    first_flaw: bool = False,
    strict: bool = False,
    variations: bool = False,
    time: Optional[float] = None,
    nodes: Optional[int] = None,
    question_nodes: Optional[int] = None,
    hash_mb: int = DEFAULT_HASH_MB,
    threads: int = 1,
    progress: Optional[Callable[[Progress], Any]] = None,
    progress_interval: Optional[float] = None,
) -> CheckReport:
    """Checks a composed problem for a unique solution and reports every flaw.

    ``moves``: the intended line (作意) in USI, a string or a list; by default the problem's
    own line when it has one (a KIF record's moves, ``moves`` on an SFEN line), else the
    solver's main line is checked. An intended line that is not a mate is reported as a flaw
    (``invalid_intended_line``), not raised.

    ``first_flaw``: stop at the first fatal flaw. ``strict``: 非限定 and 手順前後 count as
    fatal. ``variations``: also look for 変化別詰. ``time`` / ``nodes`` bound the whole check;
    ``question_nodes`` each question (one alternative move), after which it is reported as
    undecided. ``threads``, ``progress``: as for :func:`solve`.
    """
    solver = Solver(hash_mb=hash_mb, threads=threads)
    return solver.check(
        position,
        moves,
        first_flaw=first_flaw,
        strict=strict,
        variations=variations,
        time=time,
        nodes=nodes,
        question_nodes=question_nodes,
        progress=progress,
        progress_interval=progress_interval,
    )
