"""Puzzles found by the engine (issue 44): seeded positions from the engine's own games
(found by a seeded search over level-2 games, kept here) holding a known tactic in each
game: a Spanish draughts multi-capture shot, a Xiangqi cannon winning material, an
Alquerque double capture that wins, an Alquerque grande quiet move that sets a huff
trap, a Querni chain removal that wins. Each is found again, with its solution line;
quiet positions hold none."""

from __future__ import annotations

from typing import Any

import pytest

import rules
from engine.puzzles import KINDS, find_tactic

NODES = 800

TACTICS = [
    # (game, position text, the move, what it does)
    ("damas", "W:W1,4,5,8,9:B10,18,19,22,25,32", "g2xe4xc6", "material"),
    ("xiangqi", "r2akab2/1r7/2n1b2Rn/2C1p2Cp/p1P6/3c1c3/P3P1P1P/N8/6N2/3AKAB1R b - - 4 14",
     "d5-d8", "material"),
    ("alquerque", "W.W../...../B..B./BWW../B..WB b a3>a1,e3>e1,a4>a2,c1>b2,d2>c2,b3>a3,"
     "d4>d3,a4>a5,a5>c5", "a3xc1xc3", "win"),
    ("alquerque-grande", "BBBBBBB/B.B...B/BBBBWBB/B.B.W.W/...W..W/W.WWWWW/.WWWWWW w "
     "e3>e4,b6>c5 4,4 - 1 - players=2 -", "d3-d4", "material"),
    ("querni", "8,B10,1/5,P14,2,B11,1/2,P16,7/3,P15,6/1,B13,8/2,B12,1,B14,2,B15,2/8,B16,1 p 13 "
     "9,13", "f6-e5 r14-16", "win"),
]


@pytest.mark.parametrize(("game", "text", "best", "kind"), TACTICS,
                         ids=[t[0] for t in TACTICS])
def test_a_seeded_tactic_is_found_with_its_solution(game: str, text: str, best: str,
                                                   kind: str) -> None:
    v = rules.variant(game)
    p: Any = v.from_text(text)
    tactic = find_tactic(p, nodes=NODES)
    assert tactic is not None
    assert v.format_move(p, tactic.move) == best and tactic.kind == kind
    assert tactic.line[0] == tactic.move and len(tactic.line) % 2 == 1
    assert tactic.score - tactic.second >= 200 and 1 <= tactic.difficulty <= 5
    q = p
    for move in tactic.line:  # the solution is played by the rules, reply by reply
        assert move in q.legal_moves()
        q = q.play(move)
    if game == "damas":
        assert len(tactic.move.captured) >= 2  # a multi-capture shot
    if game == "xiangqi":
        assert p.pieces()[v.move_marks(p, tactic.move).path[0]].kind == "C"  # a cannon
    if game == "alquerque-grande":  # a quiet move, and a huff in the line that follows
        assert not v.move_marks(p, tactic.move).captured
        huffs, q = [], p
        for move in tactic.line:
            huffs += v.move_marks(q, move).removed
            q = q.play(move)
        assert huffs
    if game == "querni":  # the stones chained by the move leave the board
        assert v.move_marks(p, tactic.move).removed
    again = find_tactic(p, nodes=NODES)  # node-bounded: the same every time
    assert again == tactic


@pytest.mark.parametrize("game", list(rules.VARIANTS))
def test_a_start_position_is_no_puzzle(game: str) -> None:
    v = rules.variant(game)
    p: Any = v.start(**({"seed": 1} if "seed" in v.options else {}))
    assert find_tactic(p, nodes=NODES) is None
    assert set(KINDS) == {"win", "material", "save"}


def test_positions_without_a_choice_hold_none() -> None:
    v = rules.variant("querni")
    assert find_tactic(v.start(setup="choose")) is None  # a set-up: several seats to move
    finished = rules.variant("xiangqi").from_text("3rkr3/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1")
    assert finished.outcome() is not None and find_tactic(finished) is None
