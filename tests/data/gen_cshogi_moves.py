#!/usr/bin/env python3
"""Generates tests/data/cshogi_moves.tsv, the oracle data for tests/cshogi_oracle.rs.

Not run by CI; kept to document how the data was made. Run from the crate root:

    python3 tests/data/gen_cshogi_moves.py [output path]

Requires the Python package cshogi (tested with 1.1.0). The output is deterministic for a given
cshogi version (fixed seed, sorted move lists).

Each data row is `sfen<TAB>legal moves<TAB>checking moves`, the move lists in USI, sorted,
space-separated (an empty field when there are none). Lines starting with `#` are comments.

Where the positions come from (tag in brackets, counts are printed at the end and written into
the header of the data file):

  [startpos]   random games from the initial position, up to ~150 plies, every position of
               each game kept with some probability;
  [source]     SFENs read from the files under /work/shared/problems-raw listed in SOURCES;
  [source+k]   a few random plies (k) played from each of those;
  [tsume]      random tsume-like positions (a defender king, some random pieces, a few attacker
               hand pieces, every remaining piece in the defender's hand; sometimes an attacker
               king), then played forward a few random plies; both colours as attacker, both
               sides to move;
  [drops]      sparse random boards with large hands for both sides (drop-heavy positions).

Random move choice is biased towards captures (to fill hands) and checks (to reach positions in
check, i.e. evasions) part of the time; see `pick_move`.

cshogi conventions that had to be handled
-----------------------------------------
* USI output (`cshogi.move_to_usi`): board moves `7g7f`, promotions `8h2b+`, drops `P*5e` - the
  same notation as tsume's `Move` Display, so no translation is needed.
* Non-promotions: `Board.legal_moves` (cshogi's LegalMoveList) does include the optional
  non-promotions of pawns, lances (to the 2nd/3rd rank), knights (to the 3rd rank), silvers,
  bishops and rooks, and leaves out the dead ones (pawn/lance to the last rank, knight to the last
  two). It was nevertheless not taken on trust: `complete_promotions` rebuilds, for every board
  move of an unpromoted promotable piece, the other promotion variant and checks it against the
  shogi rules (promotion allowed iff the move starts or ends in the zone; non-promotion allowed
  iff the piece can still move from the destination). Its counterpart's king safety is the same
  as the generated move's, so a rule-allowed counterpart is legal. Missing variants would be added
  and variants breaking the rules dropped; the counters are printed (both were 0 for cshogi
  1.1.0). Note that `Board.is_legal` is NOT usable for this: it accepts dead non-promotions such
  as a pawn moving unpromoted to the last rank, and a pawn drop on the last rank.
* Checking moves: a legal move gives check iff `board.is_check()` after pushing it, as asked.
  When the opponent has no king (the attacker in a tsume position has none) nothing can give
  check and the field is empty; cshogi's `is_check()` on a kingless side is not consulted
  because its king square is then the off-board value 81. cshogi's own `Board.check_moves`
  generator is compared with the push/is_check result for information only (counter printed).
* SFEN input: cshogi's `set_sfen` does not add up repeated hand letters (`PPPP` is read as ONE
  pawn), and a missing move number is printed back as 0. Every SFEN is
  therefore parsed and rewritten here in canonical form (hand counts, move number, `-` for an
  empty or missing hands field) before cshogi sees it, and cshogi's `sfen()` of the loaded
  position is checked to give back the same pieces. A malformed SFEN makes `set_sfen` abort the
  whole process (the C++ exception is not translated), another reason to parse first.
* Positions tsume::Position::from_sfen rejects by design are left out (`static_ok` and `load`):
  more pieces of a kind than a full set (2 K, 2 R, 2 B, 4 G, 4 S, 4 N, 4 L, 18 P, counting
  promoted pieces and hands), two kings of one colour or no king at all, two unpromoted pawns of
  one colour on a file (nifu), a piece that can never move (pawn/lance on the last rank, knight
  on the last two), and the side not to move in check. cshogi accepts all of these.
  The last test asks cshogi's `is_check()` with the side to move flipped, but cshogi does not
  count the enemy KING as a checker: with the two kings side by side it reports no check (and
  its legal moves then include capturing the king, after which its board state is corrupt).
  Adjacent kings are therefore rejected explicitly. A first version of this script missed that;
  its random tsume-like positions with an attacker king produced such rows, which tsume rightly
  rejected, plus one row continued after cshogi let a king be captured. To be safe each row's
  moves are computed on a fresh Board loaded from the row's SFEN, never on the board the random
  moves were played on.
* Checkmated/stalemated positions (no legal move) are kept when they come from a source file or
  end a random game, with empty move fields: the generator must return nothing there. A random
  game stops at such a position.

Oracle exclusions
-----------------
None. With the rows made as above, tsume agreed with cshogi on every row (legal moves, checking
moves, evasions), so no row had to be dropped for cshogi being wrong. The cshogi defects met
while writing this script are all about positions outside the rules or kingless sides, and are
worked around above rather than excluded: `is_check()` ignores the enemy king as a checker
(adjacent kings), `Board.check_moves` returns bogus "checks" when the opponent has no king, and
`set_sfen` mis-reads repeated hand letters.
"""

import glob
import os
import random
import sys

import cshogi

SEED = 20241129
ROOT = "/work/shared/problems-raw"
SOURCES = (
    sorted(glob.glob(f"{ROOT}/shogiops-perft/*.tsv"))
    + [
        f"{ROOT}/perft-reference/perft_reference.tsv",
        f"{ROOT}/rule-edge-cases/rule_edge_cases.tsv",
        f"{ROOT}/antma-tsumeshogi-check/tsume_tests.tsv",
    ]
    + sorted(glob.glob(f"{ROOT}/sugyan-tsumeshogi-solver/*.tsv"))
)

# How many positions of each synthetic kind to aim for.
STARTPOS_GAMES = 130
STARTPOS_KEEP = 0.09  # probability of keeping each position of a game
SOURCE_PLAYOUTS = 2  # random continuations per source position
TSUME_POSITIONS = 700
DROPS_POSITIONS = 60
# Size control: generated rows (not the source positions) longer than BIG_ROW bytes (hundreds
# of drops: a large hand, not in check) are kept only with probability BIG_ROW_KEEP, to hold the
# data file under ~1.5 MB.
BIG_ROW = 1200
BIG_ROW_KEEP = 0.35

FULL_SET = {"K": 2, "R": 2, "B": 2, "G": 4, "S": 4, "N": 4, "L": 4, "P": 18}
HAND_ORDER = "RBGSNLP"
PROMOTABLE = set("PLNSBR")

# ---------------------------------------------------------------------------------------------
# A small position model of our own: board[(file, rank)] = (black?, letter, promoted?),
# file 1..9 (USI digit), rank 1..9 (USI letter a..i, rank 1 = a = White's back rank).


class Pos:
    def __init__(self):
        self.board = {}
        self.black_to_move = True
        self.hands = {True: {k: 0 for k in HAND_ORDER}, False: {k: 0 for k in HAND_ORDER}}
        self.move_number = 1

    def sfen(self):
        rows = []
        for rank in range(1, 10):
            row, empty = "", 0
            for file in range(9, 0, -1):
                p = self.board.get((file, rank))
                if p is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                black, letter, promoted = p
                row += ("+" if promoted else "") + (letter if black else letter.lower())
            if empty:
                row += str(empty)
            rows.append(row)
        hand = ""
        for black in (True, False):
            for k in HAND_ORDER:
                n = self.hands[black][k]
                if n:
                    hand += (str(n) if n > 1 else "") + (k if black else k.lower())
        side = "b" if self.black_to_move else "w"
        return f"{'/'.join(rows)} {side} {hand or '-'} {self.move_number}"


def parse_sfen(text):
    """Parses an SFEN (optionally after the word `sfen`; hands may repeat letters; hands and
    move number may be missing). Returns a Pos or None when the text is not an SFEN."""
    fields = text.split()
    if fields and fields[0] == "sfen":
        fields = fields[1:]
    if len(fields) < 2 or len(fields) > 4:
        return None
    pos = Pos()
    ranks = fields[0].split("/")
    if len(ranks) != 9:
        return None
    for ri, row in enumerate(ranks):
        file, i = 9, 0
        while i < len(row):
            c = row[i]
            if c.isdigit():
                if c == "0":
                    return None
                file -= int(c)
                i += 1
                continue
            promoted = c == "+"
            if promoted:
                i += 1
                if i >= len(row):
                    return None
                c = row[i]
            letter = c.upper()
            if letter not in "KRBGSNLP" or (promoted and letter not in PROMOTABLE):
                return None
            if file < 1:
                return None
            pos.board[(file, ri + 1)] = (c.isupper(), letter, promoted)
            file -= 1
            i += 1
        if file != 0:
            return None
    if fields[1] not in ("b", "w"):
        return None
    pos.black_to_move = fields[1] == "b"
    hand = fields[2] if len(fields) > 2 else "-"
    if hand != "-":
        count = ""
        for c in hand:
            if c.isdigit():
                count += c
                continue
            letter = c.upper()
            if letter not in HAND_ORDER:
                return None
            pos.hands[c.isupper()][letter] += int(count) if count else 1
            count = ""
        if count:
            return None
    if len(fields) > 3:
        if not fields[3].isdigit():
            return None
        pos.move_number = max(1, int(fields[3]))
    return pos


def dead(black, letter, promoted, rank):
    """Whether an unpromoted piece on `rank` could never move again (行き所のない駒)."""
    if promoted:
        return False
    depth = rank if black else 10 - rank  # 1 = the last rank for that side
    return (letter in "PL" and depth == 1) or (letter == "N" and depth <= 2)


def static_ok(pos):
    """The rules of tsume::Position::from_sfen except 'side not to move in check'."""
    total = {k: 0 for k in FULL_SET}
    kings = {True: 0, False: 0}
    pawn_files = set()
    for (file, rank), (black, letter, promoted) in pos.board.items():
        total[letter] += 1
        if letter == "K":
            kings[black] += 1
        if dead(black, letter, promoted, rank):
            return False
        if letter == "P" and not promoted:
            if (black, file) in pawn_files:
                return False
            pawn_files.add((black, file))
    for black in (True, False):
        for k, n in pos.hands[black].items():
            total[k] += n
    if any(total[k] > FULL_SET[k] for k in FULL_SET):
        return False
    if kings[True] > 1 or kings[False] > 1 or kings[True] + kings[False] == 0:
        return False
    return True


def has_king(board, black):
    return board.king_square(cshogi.BLACK if black else cshogi.WHITE) < 81


def load(pos):
    """A cshogi Board for `pos`, or None when tsume would reject the position."""
    if not static_ok(pos):
        return None
    sfen = pos.sfen()
    board = cshogi.Board(sfen)
    back = parse_sfen(board.sfen())
    assert back.board == pos.board and back.hands == pos.hands, (sfen, board.sfen())
    # Kings side by side: each attacks the other, so the side not to move is in check; cshogi's
    # is_check() does not count the enemy king as a checker and would miss it (and would let
    # the king be captured), hence this explicit test.
    kings = [sq for sq, p in pos.board.items() if p[1] == "K"]
    if len(kings) == 2 and max(abs(kings[0][0] - kings[1][0]), abs(kings[0][1] - kings[1][1])) == 1:
        return None
    # The side not to move must not be in check: ask cshogi with the side flipped.
    other = not pos.black_to_move
    if has_king(board, other):
        pos.black_to_move = other
        flipped = cshogi.Board(pos.sfen())
        pos.black_to_move = not other
        if flipped.is_check():
            return None
    return board


def board_to_pos(board):
    return parse_sfen(board.sfen())


# ---------------------------------------------------------------------------------------------
# The oracle.

STATS = {"promo_variants_added": 0, "promo_variants_dropped": 0, "cshogi_check_moves_differs": 0}


def in_zone(black, rank):
    return rank <= 3 if black else rank >= 7


def sq_file_rank(sq):
    return sq // 9 + 1, sq % 9 + 1


def complete_promotions(board, moves):
    """Makes sure every board move has exactly the promotion variants the rules allow."""
    black = board.turn == cshogi.BLACK
    result = set()
    board_moves = {}
    for m in moves:
        if cshogi.move_is_drop(m):
            result.add(cshogi.move_to_usi(m))
            continue
        board_moves.setdefault((cshogi.move_from(m), cshogi.move_to(m)), set()).add(
            cshogi.move_is_promotion(m)
        )
    for (frm, to), variants in board_moves.items():
        ptype = cshogi.piece_to_piece_type(board.piece(frm))
        letter = cshogi.PIECE_SYMBOLS[ptype].upper()
        promoted = letter.startswith("+")
        base = letter.lstrip("+")
        _, from_rank = sq_file_rank(frm)
        _, to_rank = sq_file_rank(to)
        allowed = set()
        if not promoted and base in PROMOTABLE and (in_zone(black, from_rank) or in_zone(black, to_rank)):
            allowed.add(True)
        if not dead(black, base, promoted, to_rank):
            allowed.add(False)
        STATS["promo_variants_added"] += len(allowed - variants)
        STATS["promo_variants_dropped"] += len(variants - allowed)
        for promote in allowed:
            result.add(cshogi.move_to_usi(board.move(frm, to, promote)))
    return result


def oracle(board):
    """(legal moves, checking moves) of the side to move, as sorted USI lists."""
    moves = list(board.legal_moves)
    legal = sorted(complete_promotions(board, moves))
    checks = []
    opponent_black = board.turn != cshogi.BLACK
    if has_king(board, opponent_black):
        for usi in legal:
            m = board.move_from_usi(usi)
            board.push(m)
            if board.is_check():
                checks.append(usi)
            board.pop()
    cshogi_checks = sorted(cshogi.move_to_usi(m) for m in board.check_moves)
    if cshogi_checks != checks:
        STATS["cshogi_check_moves_differs"] += 1
    return legal, sorted(checks)


# ---------------------------------------------------------------------------------------------
# Position sources.

rng = random.Random(SEED)
rows = {}  # sfen without move number -> (origin, sfen, legal, checks)
origin_counts = {}
seen_keys = set()


def key_of(sfen):
    return " ".join(sfen.split()[:3])  # the move number does not change the moves


def record(board, origin):
    k = key_of(board.sfen())
    if k in seen_keys:
        return
    # The oracle works on a fresh board loaded from the SFEN written to the file, not on the
    # board the moves were played on, so the row describes exactly its SFEN.
    fresh = load(board_to_pos(board))
    if fresh is None:  # cannot happen once the start position is acceptable; be safe
        return
    sfen = fresh.sfen()
    legal, checks = oracle(fresh)
    big = len(sfen) + len(" ".join(legal)) + len(" ".join(checks)) > BIG_ROW
    if big and origin != "source" and rng.random() > BIG_ROW_KEEP:
        return
    seen_keys.add(k)
    rows[k] = (origin, sfen, legal, checks)
    origin_counts[origin] = origin_counts.get(origin, 0) + 1


def gives_check(board, m):
    board.push(m)
    c = board.is_check()
    board.pop()
    return c


def pick_move(board, moves, check_bias=0.2, capture_bias=0.3):
    """A random legal move: part of the time a checking move or a capture, if there is one."""
    r = rng.random()
    opponent_black = board.turn != cshogi.BLACK
    if r < check_bias and has_king(board, opponent_black):
        checking = [m for m in moves if gives_check(board, m)]
        if checking:
            return rng.choice(checking)
    elif r < check_bias + capture_bias:
        caps = [m for m in moves if not cshogi.move_is_drop(m) and board.piece(cshogi.move_to(m))]
        if caps:
            return rng.choice(caps)
    return rng.choice(moves)


def play(board, plies, origin, keep=1.0, **bias):
    """Plays up to `plies` random moves, recording each position reached with probability keep
    (the last one always). Stops at a position with no legal move (recorded)."""
    for i in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            record(board, origin)
            return
        board.push(pick_move(board, moves, **bias))
        if i == plies - 1 or rng.random() < keep:
            record(board, origin)


def startpos_games():
    for _ in range(STARTPOS_GAMES):
        board = cshogi.Board()
        plies = rng.randint(10, 150)
        check_bias = rng.choice([0.0, 0.15, 0.3])
        capture_bias = rng.choice([0.0, 0.3, 0.6])
        play(board, plies, "startpos", keep=STARTPOS_KEEP, check_bias=check_bias, capture_bias=capture_bias)


def source_sfens():
    out = []
    for path in SOURCES:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                for field in line.rstrip("\n").split("\t"):
                    if field.count("/") == 8 and parse_sfen(field) is not None:
                        out.append((os.path.basename(path), field))
    return out


def sources():
    rejected = []
    loaded = []
    done = set()
    for name, text in source_sfens():
        pos = parse_sfen(text)
        if key_of(pos.sfen()) in done:
            continue
        done.add(key_of(pos.sfen()))
        board = load(pos)
        if board is None:
            rejected.append((name, text))
            continue
        record(board, "source")
        loaded.append(board)
    for board in loaded:
        for _ in range(SOURCE_PLAYOUTS):
            b = board.copy()
            plies = rng.randint(1, 6)
            play(b, plies, "source+k", keep=0.0, check_bias=0.3, capture_bias=0.3)
    return rejected


def pool_remaining(pos):
    used = {k: 0 for k in FULL_SET}
    for (black, letter, promoted) in pos.board.values():
        used[letter] += 1
    for black in (True, False):
        for k, n in pos.hands[black].items():
            used[k] += n
    return {k: FULL_SET[k] - used[k] for k in FULL_SET if k != "K"}


def place_random(pos, black, letter, tries=40):
    for _ in range(tries):
        file, rank = rng.randint(1, 9), rng.randint(1, 9)
        if (file, rank) in pos.board:
            continue
        promoted = letter in PROMOTABLE and rng.random() < 0.25
        if dead(black, letter, promoted, rank):
            continue
        if letter == "P" and not promoted and any(
            p == (black, "P", False) for (f, _), p in pos.board.items() if f == file
        ):
            continue
        pos.board[(file, rank)] = (black, letter, promoted)
        return True
    return False


def random_tsume_position(attacker_black, attacker_king, big_attacker_hand=False):
    pos = Pos()
    defender_black = not attacker_black
    # The defender king, more often near its own back rank, as in most tsume problems.
    rank = rng.choice([1, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9])
    if defender_black:
        rank = 10 - rank
    pos.board[(rng.randint(1, 9), rank)] = (defender_black, "K", False)
    if attacker_king:
        place_random(pos, attacker_black, "K")
    bag = [k for k, n in FULL_SET.items() if k != "K" for _ in range(n)]
    rng.shuffle(bag)
    n_board = rng.randint(1, 10)
    for letter in bag[:n_board]:
        owner_black = attacker_black if rng.random() < 0.65 else not attacker_black
        place_random(pos, owner_black, letter)
    remaining = [k for k, n in pool_remaining(pos).items() for _ in range(n)]
    rng.shuffle(remaining)
    n_hand = rng.randint(8, 20) if big_attacker_hand else rng.choice([0, 1, 1, 2, 2, 3, 4])
    for letter in remaining[:n_hand]:
        pos.hands[attacker_black][letter] += 1
    for letter in remaining[n_hand:]:
        pos.hands[defender_black][letter] += 1
    return pos


def tsume_like():
    made = 0
    attempts = 0
    while made < TSUME_POSITIONS and attempts < 50 * TSUME_POSITIONS:
        attempts += 1
        attacker_black = rng.random() < 0.7
        pos = random_tsume_position(attacker_black, attacker_king=rng.random() < 0.2)
        # Attacker to move (the problem) or, less often, the defender (sizeable rows: large hand).
        pos.black_to_move = attacker_black if rng.random() < 0.85 else not attacker_black
        board = load(pos)
        if board is None:
            continue
        before = len(rows)
        if pos.black_to_move == attacker_black or rng.random() < 0.3:
            record(board, "tsume")
        plies = rng.randint(1, 6)
        # The attacker mostly checks, so the defender is mostly to move in check (evasions).
        play(board, plies, "tsume", keep=0.35, check_bias=0.8, capture_bias=0.1)
        made += len(rows) - before


def drop_heavy():
    made = 0
    while made < DROPS_POSITIONS:
        attacker_black = rng.random() < 0.5
        pos = random_tsume_position(attacker_black, attacker_king=True, big_attacker_hand=True)
        pos.black_to_move = rng.random() < 0.5
        board = load(pos)
        if board is None:
            continue
        before = len(rows)
        record(board, "drops")
        if rng.random() < 0.5:
            play(board, rng.randint(1, 3), "drops", keep=0.0, check_bias=0.5, capture_bias=0.2)
        made += len(rows) - before


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "cshogi_moves.tsv")
    rejected = sources()
    startpos_games()
    tsume_like()
    drop_heavy()
    in_check = sum(1 for (_, sfen, _, _) in rows.values() if cshogi.Board(sfen).is_check())
    no_moves = sum(1 for (_, _, legal, _) in rows.values() if not legal)
    big_hand = sum(
        1
        for (_, sfen, _, _) in rows.values()
        if sum(parse_sfen(sfen).hands[parse_sfen(sfen).black_to_move].values()) >= 8
    )
    summary = [
        f"rows: {len(rows)}",
        "by origin: " + ", ".join(f"{k} {v}" for k, v in sorted(origin_counts.items())),
        f"side to move in check: {in_check}; no legal move: {no_moves}; side to move holding >= 8 pieces: {big_hand}",
        f"source SFENs rejected (tsume rejects them by design): {len(rejected)}",
        "promotion variants added to / dropped from cshogi's legal_moves: "
        f"{STATS['promo_variants_added']} / {STATS['promo_variants_dropped']}",
        f"positions where cshogi's check_moves differs from push+is_check: {STATS['cshogi_check_moves_differs']}",
    ]
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("# Generated by tests/data/gen_cshogi_moves.py with cshogi; do not edit by hand.\n")
        f.write("# sfen<TAB>legal moves (USI, sorted)<TAB>checking moves (USI, sorted)\n")
        for line in summary:
            f.write(f"# {line}\n")
        for origin, sfen, legal, checks in rows.values():
            f.write(f"{sfen}\t{' '.join(legal)}\t{' '.join(checks)}\n")
    for line in summary:
        print(line)
    for name, text in rejected:
        print(f"rejected {name}: {text}")
    print(f"wrote {out_path}: {os.path.getsize(out_path)} bytes")


if __name__ == "__main__":
    main()
