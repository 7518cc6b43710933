"""Spanish draughts test helpers: positions written with square names (``"d3"``, ``"Kh1"``
for a king), turned into PDN FEN by :func:`fen`, so each scenario reads like its diagram."""

from __future__ import annotations

import rules
from rules.damas import SQUARE_AT, DamasPosition
from rules.notation import parse_point, point_name

V = rules.variant("damas")


def sq(name: str) -> int:
    """PDN number of an algebraic square name."""
    return SQUARE_AT[parse_point(name, width=8, height=8)]


def fen(turn: str, white: list[str], black: list[str], extra: str = "") -> str:
    def side(names: list[str]) -> str:
        return ",".join(("K" if s.startswith("K") else "") + str(sq(s.lstrip("K")))
                        for s in sorted(names, key=lambda s: sq(s.lstrip("K"))))
    return f"{turn}:W{side(white)}:B{side(black)}{extra}"


def pos(turn: str, white: list[str], black: list[str], extra: str = "") -> DamasPosition:
    p = V.from_text(fen(turn, white, black, extra))
    assert isinstance(p, DamasPosition)
    return p


def legal(p: DamasPosition) -> list[str]:
    return sorted(V.format_move(p, m) for m in p.legal_moves())


def play(p: DamasPosition, *moves: str) -> DamasPosition:
    for text in moves:
        q = p.play(V.parse_move(p, text))
        assert isinstance(q, DamasPosition)
        p = q
    return p


def kinds(p: DamasPosition) -> dict[str, tuple[int, str]]:
    return {point_name(*pt): (pc.seat, pc.kind) for pt, pc in p.pieces().items()}
