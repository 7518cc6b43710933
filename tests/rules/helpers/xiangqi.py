"""Xiangqi test helpers: positions from FEN, moves played and listed as canonical text."""

from __future__ import annotations

import rules
from rules.xiangqi import XiangqiPosition

V = rules.variant("xiangqi")


def pos(fen: str) -> XiangqiPosition:
    p = V.from_text(fen)
    assert isinstance(p, XiangqiPosition)
    return p


def play(p: XiangqiPosition, *moves: str) -> XiangqiPosition:
    for text in moves:
        p = p.play(V.parse_move(p, text))
    return p


def canonical(p: XiangqiPosition) -> set[str]:
    return {V.format_move(p, m) for m in p.legal_moves()}
