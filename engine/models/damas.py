"""Spanish draughts: men and flying kings, promotion distance, the back rank, the centre."""

from __future__ import annotations

from typing import Any

from engine.models.base import GameModel, PathGameModel, Pieces, forward, register
from rules import Position
from rules.damas import DamasPosition, DamasVariant


class DamasModel(PathGameModel):
    """Men and (flying) kings, each man's distance to promotion, the back rank kept as a
    guard against crowning, the centre, and mobility."""

    key = "damas"
    mobility_weight = 4
    captures_compulsory = True
    MAN, KING = 100, 330
    ADVANCE = (0, 2, 5, 9, 15, 24, 38, 0)  # by ranks advanced (7 = crowned: a king)

    def evaluate(self, position: Position[Any], pieces: Pieces) -> tuple[int, ...]:
        # per seat its pieces' worth and its men, in plain locals (this runs at every leaf)
        white = black = 0
        white_men = black_men = 0
        white_values, black_values = _DAMAS_MEN
        king = self.KING
        for point, piece in pieces.items():
            if piece.seat:
                if piece.kind == "king":
                    black += king
                else:
                    black_men += 1
                    black += black_values[point]
            elif piece.kind == "king":
                white += king
            else:
                white_men += 1
                white += white_values[point]
        # kings only: the advance table no longer matters
        return (white + (0 if white_men else 20)), (black + (0 if black_men else 20))

    @classmethod
    def man_value(cls, point: tuple[int, int], seat: int) -> int:
        """What a man of ``seat`` on ``point`` is worth (tabled once per point)."""
        x, y = point
        ahead = forward(seat, y, 8)
        value = cls.MAN + cls.ADVANCE[ahead]
        if ahead == 0:
            value += 12  # the back rank stops enemy men from crowning
        if 2 <= x <= 5 and 2 <= y <= 5:
            value += 6
        return value


_DAMAS_MEN: tuple[dict[tuple[int, int], int], ...] = tuple(
    {(x, y): DamasModel.man_value((x, y), seat) for x in range(8) for y in range(8)}
    for seat in (0, 1))
"""Per seat, per point: :meth:`DamasModel.man_value` (the evaluation runs at every leaf)."""


_DAMAS = DamasModel()


@register(DamasVariant, DamasPosition)
def _choose(position: Position[Any] | None) -> GameModel:
    return _DAMAS
