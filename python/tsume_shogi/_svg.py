"""Boards as SVG and results as HTML, for notebooks (``_repr_svg_``, ``_repr_html_``).

Drawn from the SFEN alone, so that it needs nothing but the standard library.
"""

from html import escape
from typing import List, Optional, Sequence, Tuple

_KANJI = {
    "P": "歩", "L": "香", "N": "桂", "S": "銀", "G": "金", "B": "角", "R": "飛", "K": "玉",
    "+P": "と", "+L": "杏", "+N": "圭", "+S": "全", "+B": "馬", "+R": "龍",
}
_HAND_ORDER = "RBGSNLP"
_DIGITS = "０１２３４５６７８９"
_RANKS = "一二三四五六七八九"

_CELL = 40
_MARGIN_X = 90  # room for a hand on each side
_MARGIN_Y = 24


def _parse(sfen: str) -> Tuple[List[List[Optional[str]]], str, dict, dict]:
    fields = sfen.split()
    rows: List[List[Optional[str]]] = []
    for rank in fields[0].split("/"):
        row: List[Optional[str]] = []
        promoted = False
        for c in rank:
            if c.isdigit():
                row.extend([None] * int(c))
            elif c == "+":
                promoted = True
            else:
                row.append(("+" if promoted else "") + c)
                promoted = False
        rows.append(row)
    side = fields[1] if len(fields) > 1 else "b"
    hands: dict = {"b": {}, "w": {}}
    hand = fields[2] if len(fields) > 2 else "-"
    count = ""
    for c in hand:
        if c == "-":
            break
        if c.isdigit():
            count += c
            continue
        who = "b" if c.isupper() else "w"
        hands[who][c.upper()] = hands[who].get(c.upper(), 0) + int(count or "1")
        count = ""
    return rows, side, hands["b"], hands["w"]


def _hand_text(hand: dict) -> List[str]:
    out = []
    for k in _HAND_ORDER:
        n = hand.get(k, 0)
        if n:
            out.append(_KANJI[k] + (str(n) if n > 1 else ""))
    return out or ["なし"]


def board_svg(sfen: str) -> str:
    """The position as an SVG image: the board, White's pieces upside down, the hands beside."""
    rows, side, black_hand, white_hand = _parse(sfen)
    width = 9 * _CELL + 2 * _MARGIN_X
    height = 9 * _CELL + 2 * _MARGIN_Y
    x0, y0 = _MARGIN_X, _MARGIN_Y
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect x="{x0}" y="{y0}" width="{9 * _CELL}" height="{9 * _CELL}" fill="#f3d9a0" '
        'stroke="#000" stroke-width="2"/>',
    ]
    for i in range(1, 9):
        parts.append(
            f'<line x1="{x0 + i * _CELL}" y1="{y0}" x2="{x0 + i * _CELL}" '
            f'y2="{y0 + 9 * _CELL}" stroke="#000"/>'
        )
        parts.append(
            f'<line x1="{x0}" y1="{y0 + i * _CELL}" x2="{x0 + 9 * _CELL}" '
            f'y2="{y0 + i * _CELL}" stroke="#000"/>'
        )
    for f in range(9):
        parts.append(
            f'<text x="{x0 + f * _CELL + _CELL / 2}" y="{y0 - 6}" font-size="13" '
            f'text-anchor="middle">{_DIGITS[9 - f]}</text>'
        )
    for r in range(9):
        parts.append(
            f'<text x="{x0 + 9 * _CELL + 10}" y="{y0 + r * _CELL + _CELL / 2 + 5}" '
            f'font-size="13">{_RANKS[r]}</text>'
        )
    for r, row in enumerate(rows[:9]):
        for f, piece in enumerate(row[:9]):
            if piece is None:
                continue
            white = piece.lstrip("+").islower()
            kanji = _KANJI.get(piece.upper(), "?")
            if kanji == "玉" and white:
                kanji = "王"
            cx = x0 + f * _CELL + _CELL / 2
            cy = y0 + r * _CELL + _CELL / 2
            colour = "#c00" if piece.startswith("+") else "#000"
            size = 22 if len(kanji) == 1 else 14
            rotate = f' transform="rotate(180 {cx} {cy})"' if white else ""
            parts.append(
                # Centred on the square both ways, so that a half turn leaves it in place.
                f'<text x="{cx}" y="{cy}" font-size="{size}" text-anchor="middle" '
                f'dominant-baseline="central" fill="{colour}"{rotate}>{kanji}</text>'
            )
    mark_b = "☗先手" + (" ●" if side == "b" else "")
    mark_w = "☖後手" + (" ●" if side == "w" else "")
    right = x0 + 9 * _CELL + 30
    parts.append(f'<text x="{right}" y="{y0 + 9 * _CELL - 150}" font-size="13">{mark_b}</text>')
    for i, t in enumerate(_hand_text(black_hand)):
        parts.append(
            f'<text x="{right}" y="{y0 + 9 * _CELL - 130 + 18 * i}" font-size="15">{t}</text>'
        )
    parts.append(f'<text x="8" y="{y0 + 14}" font-size="13">{mark_w}</text>')
    for i, t in enumerate(_hand_text(white_hand)):
        parts.append(f'<text x="8" y="{y0 + 34 + 18 * i}" font-size="15">{t}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def result_html(
    sfen: str, status: str, japanese: Sequence[str], notes: Sequence[str] = ()
) -> str:
    """A result for notebooks: the board, the status sentence, the line, any notes (flaws)."""
    out = [
        '<div style="display:inline-block">',
        board_svg(sfen),
        f"<p><b>{escape(status)}</b></p>",
    ]
    if japanese:
        out.append(f"<p>{escape(' '.join(japanese))}</p>")
    if notes:
        out.append("<ul>" + "".join(f"<li>{escape(n)}</li>" for n in notes) + "</ul>")
    out.append("</div>")
    return "\n".join(out)
