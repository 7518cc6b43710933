"""Xiangqi: material, soldiers across the river, horse centrality, general safety."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

from engine.models.base import GameModel, Pieces, forward, register
from engine.zobrist import piece_key
from rules import Piece, Position
from rules.xiangqi import XiangqiPosition, XiangqiVariant


class XiangqiModel(GameModel):
    """Material, soldiers across the river, horse centrality, general safety (the palace
    shield of advisors and elephants against attackers on its half) and mobility."""

    key = "xiangqi"
    fairy_stockfish = True
    mobility_weight = 3
    VALUES: ClassVar[dict[str, int]] = {
        "K": 0, "A": 200, "B": 200, "N": 400, "R": 900, "C": 450, "P": 100}
    DANGER: ClassVar[dict[str, int]] = {"R": 40, "N": 30, "C": 30, "P": 15}

    def evaluate(self, position: Position[Any], pieces: Pieces) -> tuple[int, ...]:
        # per seat: the pieces' values, the weight of enemy attackers on its half and
        # its palace's defenders; in plain locals, not lists (this runs at every leaf)
        red = black = 0
        red_danger = black_danger = 0
        red_shield = black_shield = 1
        terms = _XIANGQI_TERMS
        for point, piece in pieces.items():
            seat = piece.seat
            found = terms.get(piece.kind)
            value, threat, guard = (found[seat][point] if found is not None
                                    else self.terms(point, seat, piece.kind))
            if seat:
                black += value
                red_danger += threat
                black_shield += guard
            else:
                red += value
                black_danger += threat
                red_shield += guard
        return (red - red_danger * 6 // red_shield,
                black - black_danger * 6 // black_shield)

    @classmethod
    def terms(cls, point: tuple[int, int], seat: int, kind: str) -> tuple[int, int, int]:
        """One piece's share of :meth:`evaluate`: its value, the danger it puts the enemy
        seat in, and what it adds to its own palace's shield (tabled once per point)."""
        x, y = point
        ahead = forward(seat, y, 10)
        value = cls.VALUES.get(kind, 0)
        guard = 0
        if kind == "P":
            if ahead >= 5:  # across the river: steps sideways too
                value += 90 + 15 * min(ahead - 5, 3) - 15 * max(ahead - 8, 0)
                value += 10 if 3 <= x <= 5 else 0
        elif kind == "N":
            value += 12 * (4 - abs(x - 4)) // 2 + 8 * min(ahead, 6)
        elif kind == "C":
            value += 20 if x == 4 else 0
        elif kind in ("A", "B"):
            guard = 2 if kind == "A" else 1
        elif kind == "K":
            value -= 20 * ahead + (10 if x != 4 else 0)  # a raised general is exposed
        threat = cls.DANGER[kind] if ahead >= 5 and kind in cls.DANGER else 0
        return value, threat, guard

    def is_tactical(self, position: Position[Any], pieces: Pieces, move: Hashable) -> bool:
        return move[1] in pieces  # type: ignore[index]

    def gain(self, position: Position[Any], pieces: Pieces, move: Hashable) -> int:
        victim = pieces.get(move[1])  # type: ignore[index]
        if victim is None:
            return 0
        return self._capture_gain(victim, pieces.get(move[0]))  # type: ignore[index]

    def _capture_gain(self, victim: Piece, mover: Piece | None) -> int:
        return 10 * self.VALUES.get(victim.kind, 0) + 1000 - (
            self.VALUES.get(mover.kind, 0) if mover else 0) // 10

    def key_change(self, pieces: Pieces, move: Hashable) -> int | None:
        # the piece leaves its source for the target, taking what stands there
        source: tuple[int, int] = move[0]  # type: ignore[index]
        target: tuple[int, int] = move[1]  # type: ignore[index]
        mover = pieces[source]
        change = piece_key(source, mover.seat, mover.kind) \
            ^ piece_key(target, mover.seat, mover.kind)
        victim = pieces.get(target)
        if victim is not None:
            change ^= piece_key(target, victim.seat, victim.kind)
        return change

    def tactical_gains(self, position: Position[Any], pieces: Pieces,
                       moves: Sequence[Hashable]) -> list[int | None]:
        at = pieces.get
        capture_gain = self._capture_gain
        out: list[int | None] = []
        add = out.append
        for move in moves:
            victim = at(move[1])  # type: ignore[index]
            add(None if victim is None else capture_gain(victim, at(move[0])))  # type: ignore[index]
        return out


_XIANGQI_TERMS: dict[str, tuple[dict[tuple[int, int], tuple[int, int, int]], ...]] = {
    kind: tuple({(x, y): XiangqiModel.terms((x, y), seat, kind)
                 for x in range(9) for y in range(10)} for seat in (0, 1))
    for kind in XiangqiModel.VALUES}
"""Per kind, per seat, per point: :meth:`XiangqiModel.terms` (the evaluation runs at every
leaf of a search)."""


_XIANGQI = XiangqiModel()


@register(XiangqiVariant, XiangqiPosition)
def _choose(position: Position[Any] | None) -> GameModel:
    return _XIANGQI
