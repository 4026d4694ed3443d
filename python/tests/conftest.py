"""Shared helpers: the repository's paths, tools that must be there under CI, random tsumes."""

import importlib
import os
import random
from pathlib import Path
from typing import List, Optional

import pytest

import tsume_shogi as ts

ROOT = Path(__file__).resolve().parents[2]
PROBLEMS = ROOT / "problems"


def need(module: str):
    """Imports a tool a test needs. Missing: the test fails under CI (a skipped test there would
    hide that the tool was never installed), and is skipped elsewhere."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        if os.environ.get("CI"):
            pytest.fail(f"{module} is needed and CI is set: {e}")
        pytest.skip(f"{module} is not installed")


# Pieces of each kind in a set, kings apart.
_SET = {"R": 2, "B": 2, "G": 4, "S": 4, "N": 4, "L": 4, "P": 18}
_ATTACKERS = ["R", "B", "G", "S", "N", "L", "P", "+R", "+B", "+P", "+S", "+N"]
_GUARDS = ["G", "S", "P", "L", "N", "B"]


def _sfen(board: dict, black_hand: dict, white_hand: dict) -> str:
    rows = []
    for rank in range(1, 10):
        row, empty = "", 0
        for file in range(9, 0, -1):
            p = board.get((file, rank))
            if p is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += p
        rows.append(row + (str(empty) if empty else ""))

    def hand(h: dict, upper: bool) -> str:
        out = ""
        for k in "RBGSNLP":
            n = h.get(k, 0)
            if n:
                out += (str(n) if n > 1 else "") + (k if upper else k.lower())
        return out

    hands = hand(black_hand, True) + hand(white_hand, False)
    return f"{'/'.join(rows)} b {hands or '-'} 1"


def random_tsume(rng: random.Random) -> Optional[str]:
    """A random tsume-like position, Black to mate: White's king near the top edge with up to
    two guards, two to four Black pieces near it, one to three in Black's hand, White holding
    the rest (残り駒全部). None when the draw is not a legal position."""
    board: dict = {}
    used = {k: 0 for k in _SET}
    kf, kr = rng.randint(1, 9), rng.randint(1, 2)
    board[(kf, kr)] = "k"

    def place(sq, piece: str) -> None:
        f, r = sq
        if not (1 <= f <= 9 and 1 <= r <= 9) or sq in board:
            return
        base = piece.lstrip("+").upper()
        if used[base] >= _SET[base]:
            return
        used[base] += 1
        board[sq] = piece

    for _ in range(rng.randint(0, 2)):
        place((kf + rng.randint(-1, 1), kr + rng.randint(0, 1)), rng.choice(_GUARDS).lower())
    for _ in range(rng.randint(2, 4)):
        place((kf + rng.randint(-2, 2), rng.randint(1, 5)), rng.choice(_ATTACKERS))
    black_hand: dict = {}
    for _ in range(rng.randint(1, 3)):
        k = rng.choice("RBGSNLP")
        if used[k] < _SET[k]:
            used[k] += 1
            black_hand[k] = black_hand.get(k, 0) + 1
    white_hand = {k: _SET[k] - used[k] for k in _SET}
    sfen = _sfen(board, black_hand, white_hand)
    try:
        pos = ts.Position(sfen)
        # White (the side not to move) must not stand in check.
        if ts.Position(sfen.replace(" b ", " w ")).in_check:
            return None
    except ts.ProblemError:
        return None
    return pos.sfen()


def random_tsumes(n: int, seed: int) -> List[str]:
    rng = random.Random(seed)
    out: List[str] = []
    while len(out) < n:
        s = random_tsume(rng)
        if s is not None:
            out.append(s)
    return out
