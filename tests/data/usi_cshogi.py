"""Drives the USI engine with a real USI client, cshogi.usi.Engine, and checks every answer
with cshogi's own rules (an independent move generator): each move of a `checkmate` line is
legal, every attacker move gives check, and the line ends in checkmate.

Usage: python3 tests/data/usi_cshogi.py ENGINE PROBLEMS...
Exit status 0: all passed; 1: a check failed; 77: cshogi is not installed (the test skips).
Run by tests/usi_cshogi.rs; `.ci/run` installs cshogi (python3 -m pip install cshogi)."""
import sys

try:
    import cshogi
    import cshogi.usi
except ImportError:
    print("cshogi is not installed (python3 -m pip install cshogi)")
    sys.exit(77)

THREE = "3sks3/9/4S4/9/9/B8/9/9/9 b S2rb4g4n4l18p 1"
NO_MATE = "4k4/9/9/9/9/9/9/9/4K4 b G2r2b3g4s4n4l18p 1"
LONG = "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1"
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def verify(sfen, answer):
    """The moves of a checkmate answer, checked with cshogi's rules; None if not a mate."""
    board = cshogi.Board(sfen)
    moves = answer.split()
    for i, usi in enumerate(moves):
        move = board.move_from_usi(usi)
        if not board.is_legal(move):
            check(False, f"{sfen}: ply {i + 1} {usi} is not legal per cshogi")
            return None
        board.push(move)
        if i % 2 == 0 and not board.is_check():
            check(False, f"{sfen}: attacker move {i + 1} {usi} gives no check per cshogi")
            return None
    check(mated(board, 12, {}), f"{sfen}: the line does not end in checkmate per cshogi")
    return moves


def mated(board, depth, seen):
    """Checkmate, or (the crate's lines leave out futile interpositions, 無駄合) every reply
    puts a piece on a square that the attacker captures with check, reaching such a position
    again, within `depth` interpositions."""
    if board.is_game_over():
        return True
    if depth == 0 or not board.is_check():
        return False
    for reply in list(board.legal_moves):
        board.push(reply)
        to = cshogi.move_to(reply)
        ok = False
        for capture in list(board.legal_moves):
            if cshogi.move_to(capture) != to:
                continue
            board.push(capture)
            ok = board.is_check() and mated(board, depth - 1, seen)
            board.pop()
            if ok:
                break
        board.pop()
        if not ok:
            return False
    return True


engine = cshogi.usi.Engine(sys.argv[1])
check(engine.name.startswith("tsume "), f"id name: {engine.name}")
options = engine.usi()
for name in ["USI_Hash", "NodesLimit", "ShortestNodes", "PvInterval"]:
    check(any(l.startswith(f"option name {name} ") for l in options), f"option {name} missing")
engine.setoption("USI_Hash", 64)
engine.isready()
engine.usinewgame()

engine.position(sfen="sfen " + THREE)
answer = engine.go_mate(10000)
check(answer == "9f5b+ 4a5b S*4b", f"3-ply problem: {answer}")
verify(THREE, answer)

engine.position(sfen="sfen " + NO_MATE)
check(engine.go_mate(10000) == "nomate", "no mate")

engine.position(sfen="sfen " + LONG)
check(engine.go_mate(300) == "timeout", "timeout")

engine.position(sfen="sfen " + THREE)
best, ponder = engine.go(byoyomi=1000)
check(best == "9f5b+", f"go byoyomi: bestmove {best}")

engine.position(moves=["7g7f", "3c3d"])
best, _ = engine.go(btime=1000, wtime=1000, byoyomi=500)
check(best == "resign", f"startpos: bestmove {best}")

# Problem files: "<sfen> # <expected> <name>"; every stated length is answered, and every line
# passes cshogi's rules.
solved = 0
for path in sys.argv[2:]:
    for raw in open(path, encoding="utf-8"):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        sfen, _, comment = line.partition("#")
        sfen = sfen.strip()
        expected = comment.split()[0] if comment.split() else "?"
        engine.position(sfen="sfen " + sfen)
        answer = engine.go_mate(20000)
        if expected == "nomate":
            check(answer == "nomate", f"{sfen}: expected nomate, got {answer}")
        elif expected.isdigit():
            moves = verify(sfen, answer) if answer not in ("nomate", "timeout", "notimplemented") else None
            check(moves is not None and len(moves) == int(expected),
                  f"{sfen}: expected mate in {expected}, got {answer}")
        solved += 1

engine.quit()
print(f"{solved} problems from {len(sys.argv) - 2} files; {len(failures)} failures")
sys.exit(1 if failures else 0)
