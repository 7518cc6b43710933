"""The one place where the renderer asks a game for more than the generic rules API.

Everything else in ``render`` uses only ``Variant``/``Position``/``Piece``/``MoveMarks``.
Each function here reads one game-specific extra and degrades gracefully (returns
``None``, an empty set or a computed fallback) when a game does not offer it, so a new
game renders without touching this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from rules import Position, Variant

Point = tuple[int, int]


def _attr(obj: object, *names: str) -> object | None:
    """The first attribute of ``obj`` among ``names`` (called if it is a method)."""
    for name in names:
        value: object = getattr(obj, name, None)
        if value is None:
            continue
        if callable(value):
            try:
                value = value()
            except TypeError:
                continue
        return value
    return None


def checked_general(position: Position) -> Point | None:
    """Xiangqi: the point of the general of the side to move when it is in check
    (``Position.checked_general()`` or ``Position.in_check()``); ``None`` elsewhere."""
    found = getattr(position, "checked_general", None)
    if callable(found):
        point = found()
        return point if isinstance(point, tuple) else None
    if len(position.to_move) != 1 or not bool(_attr(position, "in_check")):
        return None
    seat = position.mover
    for point, piece in position.pieces().items():
        if piece.seat == seat and piece.kind == "K":
            return point
    return None


@lru_cache(maxsize=64)
def _start_counts(v: Variant, seat_count: int) -> tuple[int, ...] | None:
    """Pieces per seat in the variant's start position with ``seat_count`` seats."""
    for options in v.example_options:
        try:
            p = v.start(**options)
        except Exception:  # an option set that needs more (e.g. a seed): try the next
            continue
        if p.seat_count == seat_count:
            counts = [0] * seat_count
            for piece in p.pieces().values():
                counts[piece.seat] += 1
            return tuple(counts)
    return None


def on_board(position: Position) -> tuple[int, ...]:
    """How many pieces each seat has on the board."""
    counts = [0] * position.seat_count
    for piece in position.pieces().values():
        if 0 <= piece.seat < position.seat_count:
            counts[piece.seat] += 1
    return tuple(counts)


def captured_counts(position: Position) -> tuple[int, ...] | None:
    """How many enemy pieces each seat has captured.

    Alquerque grande keeps the count itself (huffed stones are nobody's capture); for
    two-seat games the count is the opponent's losses since the start. Querni captures
    nothing: ``None`` (its panel shows removed stones instead, :func:`removed_counts`).
    """
    if position.variant.key == "querni":
        return None
    kept = _attr(position, "captured", "captures", "captured_counts")
    if isinstance(kept, (tuple, list)) and len(kept) == position.seat_count:
        return tuple(int(n) for n in kept)
    if position.seat_count != 2:
        return None
    start = _start_counts(position.variant, 2)
    if start is None:
        return None
    now = on_board(position)
    return (max(0, start[1] - now[1]), max(0, start[0] - now[0]))


def removed_counts(position: Position) -> tuple[int, ...] | None:
    """Querni: how many of his own stones each seat has removed (16 minus those left)."""
    if position.variant.key != "querni" or setup_hidden(position):
        return None
    return tuple(16 - n for n in on_board(position))


def out_seats(position: Position) -> frozenset[int]:
    """Seats that are out of the game (Alquerque grande with four players)."""
    value = _attr(position, "out", "out_seats", "eliminated")
    if isinstance(value, (set, frozenset, tuple, list)):
        return frozenset(int(s) for s in value)
    return frozenset()


def setup_hidden(position: Position) -> bool:
    """Querni ``choose`` setup: while arrangements are being submitted nobody may see
    the numbers, so stones are drawn blank (and alt text does not list them)."""
    return position.variant.key == "querni" and callable(getattr(position, "has_submitted", None))


def submitted(position: Position, seat: int) -> bool | None:
    """Querni ``choose`` setup: whether ``seat`` has handed in its arrangement (never
    what it is); ``None`` outside a setup phase."""
    has = getattr(position, "has_submitted", None)
    return bool(has(seat)) if callable(has) else None


def mode(position: Position) -> str | None:
    """Alquerque grande's 4-player mode (``'teams'``, ``'fast'``, ``'slow'``) if any."""
    value = _attr(position, "mode")
    return value if isinstance(value, str) else None


def removal_word(position: Position) -> str:
    """What a MoveMarks ``removed`` point means in this game, for alt text."""
    return "removed" if position.variant.key == "querni" else "huffed"


def visible_pieces(position: Position) -> Mapping[Point, tuple[int, str]]:
    """``{point: (seat, kind)}`` as drawn: Querni numbers are blanked during setup."""
    hide = setup_hidden(position)
    return {p: (pc.seat, "" if hide else pc.kind) for p, pc in position.pieces().items()}


def last_huff(position: Position) -> Point | None:
    """Alquerque grande: where the stone huffed by the last move stood (``last_huff``),
    so a board drawn without the last move's marks still shows the huff."""
    value = getattr(position, "last_huff", None)
    return value if isinstance(value, tuple) else None
