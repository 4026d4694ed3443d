"""200 random tsume-like positions: every mating line is checked move by move with cshogi's
rules (each move legal, every attacker move a check, mate at the end), and every verdict is
compared with cshogi's own df-pn solver wherever it gives one."""

from collections import Counter

from conftest import need, random_tsumes

import tsume_shogi as ts

COUNT = 200
NODES = 300_000
DFPN_NODES = 100_000


def _mated_or_futile_end(cshogi, board) -> bool:
    """The line's end: checkmate, or (a line that does not show futile interpositions, 無駄合)
    the defender in check with interpositions only, each of which cshogi's own df-pn mates."""
    if board.is_game_over():
        return board.is_check()
    if not board.is_check():
        return False
    king = board.king_square(board.turn)
    for mv in board.legal_moves:
        if cshogi.move_from(mv) == king and not cshogi.move_is_drop(mv):
            return False
        board.push(mv)
        dfpn = cshogi.DfPn()
        dfpn.set_max_search_node(DFPN_NODES)
        mated = dfpn.search(board)
        board.pop()
        if not mated:
            return False
    return True


def test_random_positions_lines_and_verdicts():
    cshogi = need("cshogi")
    sfens = random_tsumes(COUNT, seed=36)
    results = ts.solve_many(sfens, jobs=2, nodes=NODES, hash_mb=16)
    verdicts = Counter(r.verdict for r in results)
    # The draw must exercise both answers, or the comparison below says little.
    assert verdicts["mate"] >= 40 and verdicts["nomate"] >= 40, verdicts

    pairs = Counter()
    for sfen, r in zip(sfens, results):
        assert r.sfen == sfen
        if r.verdict == "mate":
            board = cshogi.Board(sfen)
            attacker = board.turn
            for i, usi in enumerate(r.moves):
                mv = board.move_from_usi(usi)
                assert mv != 0 and board.is_legal(mv), f"{sfen}: ply {i + 1} {usi} illegal"
                board.push(mv)
                if board.turn != attacker:
                    assert board.is_check(), f"{sfen}: ply {i + 1} {usi} gives no check"
            assert _mated_or_futile_end(cshogi, board), f"{sfen}: {r.moves} ends in no mate"
            assert len(r.japanese) == len(r.moves)
            if r.main_line:
                assert len(r.moves) >= r.length

        dfpn = cshogi.DfPn()
        dfpn.set_max_depth(127)
        dfpn.set_max_search_node(DFPN_NODES)
        mate = dfpn.search(cshogi.Board(sfen))
        theirs = "mate" if mate else ("nomate" if dfpn.searched_node < DFPN_NODES else "unknown")
        pairs[(r.verdict, theirs)] += 1
        if "unknown" not in (r.verdict, theirs):
            assert r.verdict == theirs, f"{sfen}: tsume says {r.status}, cshogi.DfPn {theirs}"
    print("\n(tsume, cshogi.DfPn) verdicts:", dict(pairs))
    assert pairs[("mate", "mate")] + pairs[("nomate", "nomate")] >= COUNT // 2
