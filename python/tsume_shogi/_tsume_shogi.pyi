"""Types of the native module; the functions and classes are documented in their docstrings."""

import os
from typing import Any, Callable, Dict, Iterable, List, Literal, Optional, Sequence, Union, overload

from ._errors import ProblemError

DEFAULT_HASH_MB: int

PositionLike = Union[str, "os.PathLike[str]", "Position", "Problem", Any]
"""An SFEN or USI ``position`` line, a record's text (KIF, KI2, BOD, CSA), a path to a file
holding one problem, a Position, a Problem, or any object with an ``.sfen()`` method."""

Moves = Union[str, Sequence[str]]
"""USI moves: one string with spaces between, or a list of strings."""

class Position:
    def __init__(self, source: PositionLike) -> None: ...
    def sfen(self) -> str: ...
    @property
    def side_to_move(self) -> str: ...
    @property
    def in_check(self) -> bool: ...
    def legal_moves(self) -> List[str]: ...
    def play(self, moves: Moves) -> "Position": ...
    def japanese(self, moves: Moves) -> List[str]: ...
    def diagram(self) -> str: ...
    def _repr_svg_(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Problem:
    @property
    def position(self) -> Position: ...
    @property
    def moves(self) -> List[str]: ...
    @property
    def japanese(self) -> List[str]: ...
    @property
    def variations(self) -> List[Dict[str, Any]]: ...
    @property
    def name(self) -> Optional[str]: ...
    @property
    def comment(self) -> str: ...
    @property
    def termination(self) -> Optional[str]: ...
    @property
    def file(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def format(self) -> str: ...
    def sfen_line(self) -> str: ...
    def sfen(self) -> str: ...
    def kif(self) -> str: ...
    def write(self, path: Union[str, "os.PathLike[str]"]) -> None: ...
    def _repr_svg_(self) -> str: ...

class Progress:
    nodes: int
    time: float
    nps: int
    table_fill: float
    first_mate: Optional[int]
    shortest_mate: Optional[int]

class SolveResult:
    sfen: str
    verdict: str
    length: Optional[int]
    shortest_proven: Optional[bool]
    main_line: Optional[bool]
    exact: Optional[bool]
    status: str
    reason: Optional[str]
    moves: List[str]
    japanese: List[str]
    hand_left: Optional[str]
    nodes: int
    time: float
    nps: int
    first_proof_nodes: Optional[int]
    first_proof_time: Optional[float]
    @property
    def is_mate(self) -> bool: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...

class Flaw:
    kind: str
    kind_japanese: str
    ply: int
    moves: List[str]
    moves_japanese: str
    length: Optional[int]
    length_exact: bool
    line_length: Optional[int]
    rejoin_ply: Optional[int]
    fatal: bool
    detail: str

class Undecided:
    ply: int
    move: Optional[str]
    kind: str
    question: str
    reason: str

class CheckReport:
    @property
    def verdict(self) -> str: ...
    @property
    def sound(self) -> Optional[bool]: ...
    @property
    def sfen(self) -> str: ...
    @property
    def line(self) -> List[str]: ...
    @property
    def japanese(self) -> List[str]: ...
    @property
    def checked_intended(self) -> bool: ...
    @property
    def length(self) -> Optional[int]: ...
    @property
    def status(self) -> str: ...
    @property
    def hand_left(self) -> str: ...
    @property
    def flaws(self) -> List[Flaw]: ...
    @property
    def undecided(self) -> List[Undecided]: ...
    @property
    def nodes(self) -> int: ...
    @property
    def time(self) -> float: ...
    def to_problem(self, *, lines: bool = True) -> Problem: ...
    def write_kif(self, path: Union[str, "os.PathLike[str]"], *, lines: bool = True) -> None: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...

class Solver:
    def __init__(self, *, hash_mb: int = ..., threads: int = 1) -> None: ...
    @property
    def hash_mb(self) -> int: ...
    @property
    def threads(self) -> int: ...
    def prefault(self) -> None: ...
    def stop(self) -> None: ...
    def solve(
        self,
        position: PositionLike,
        *,
        time: Optional[float] = None,
        nodes: Optional[int] = None,
        shortest_nodes: Optional[int] = None,
        max_length: Optional[int] = None,
        progress: Optional[Callable[[Progress], Any]] = None,
        progress_interval: Optional[float] = None,
    ) -> SolveResult: ...
    def check(
        self,
        position: PositionLike,
        moves: Optional[Moves] = None,
        *,
        first_flaw: bool = False,
        strict: bool = False,
        variations: bool = False,
        time: Optional[float] = None,
        nodes: Optional[int] = None,
        question_nodes: Optional[int] = None,
        progress: Optional[Callable[[Progress], Any]] = None,
        progress_interval: Optional[float] = None,
    ) -> CheckReport: ...

@overload
def read_problems(
    source: Union[str, "os.PathLike[str]"], *, on_error: Literal["raise", "skip"] = "raise"
) -> List[Problem]: ...
@overload
def read_problems(
    source: Union[str, "os.PathLike[str]"], *, on_error: Literal["return"]
) -> List[Union[Problem, ProblemError]]: ...
def solve_many(
    positions: Iterable[PositionLike],
    *,
    jobs: int = 1,
    time: Optional[float] = None,
    nodes: Optional[int] = None,
    shortest_nodes: Optional[int] = None,
    max_length: Optional[int] = None,
    hash_mb: int = ...,
    threads: int = 1,
) -> List[SolveResult]: ...
