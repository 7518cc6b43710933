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
         quiet: int = 0) -> QuerniPosition:
    cells = [0] * 70
    for seat, stones in enumerate((blue, pink)):
        for name, number in stones.items():
            x, y = pt(name)
            cells[y * 10 + x] = seat * 16 + number
    return QuerniPosition(tuple(cells), turn, quiet)


def play(p: rules.Position, text: str) -> QuerniPosition:
    after = p.play(v.parse_move(p, text))
    assert isinstance(after, QuerniPosition)
    return after
