"""Querni test helpers: positions built with ``make(blue={...}, pink={...})`` (cell name ->
stone number), moves played from text."""

from __future__ import annotations

import rules
from rules.notation import parse_point
from rules.querni import QUERNI, QuerniPosition

v = QUERNI


def pt(name: str) -> tuple[int, int]:
    return parse_point(name, width=10, height=7)


def make(blue: dict[str, int], pink: dict[str, int], *, turn: int = 0,
         quiet: int = 0, rules_version: str = "2") -> QuerniPosition:
    cells = [0] * 70
    for seat, stones in enumerate((blue, pink)):
        for name, number in stones.items():
            x, y = pt(name)
            cells[y * 10 + x] = seat * 16 + number
    return QuerniPosition(tuple(cells), turn, quiet, rules_version)


def play(p: rules.Position, text: str) -> QuerniPosition:
    after = p.play(v.parse_move(p, text))
    assert isinstance(after, QuerniPosition)
    return after


# A real game (``setup="choose"``) in which Blue walls Pink's last stone, 16, into the
# corner a7 with its last move: Pink can then neither move nor remove, so Pink's turn is a
# forced pass (RULES §5). Blue's arrangement, Pink's arrangement, then the moves in order.
FORCED_PASS_BLUE = tuple(range(1, 17))
FORCED_PASS_PINK = (1, 2, 3, 8, 9, 10, 4, 7, 15, 11, 16, 5, 6, 14, 13, 12)
FORCED_PASS_MOVES = (
    "a2-a4", "r8-15", "c2-c4", "r1-3", "a3-a5", "r4-7", "c3-c5", "a7-b6", "b3-b7", "b6-a7",
    "a4-a6", "a7-b6", "c4-c6", "b6-a7", "c6-c7", "a7-b6", "r1-3", "b6-a7", "i1-g1", "a7-b6",
    "r14-16", "b6-a7", "g1-f2", "a7-b6", "h1-g1", "b6-a7", "g1-e3", "a7-b6", "j1-i1", "b6-a7",
    "f2-b6")
