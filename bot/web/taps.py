"""Playing by tapping the board picture itself: which points a player taps for each of
his legal moves, and where those points are on the picture (the renderer's own geometry,
``render.board.layout``, seen from his seat).

A move is tapped as: the piece, then where it ends (a multi-capture's last landing point:
the path between is the rules'); a Querni removal adds the first and the last stone of
the chain taken off (a removal alone is just those two; the stone just moved, when it
starts the chain, is not tapped twice); a stone the move itself takes off (Alquerque
grande's huff) is not tapped. Where two moves share their taps
(a draughts capture ending on the same square along another path), the page lets the
player choose between them. The page's script draws the spots; without it the lists
below the board play the same moves.
"""

from __future__ import annotations

import inspect
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from locales.i18n import Words, _
from locales.terms import seat_colour
from rules import Position
from rules.notation import point_name

Point = tuple[int, int]


@dataclass(frozen=True, slots=True)
class BoardTaps:
    """The tap data of one position for one player: ``moves`` as (canonical, display,
    the points tapped by name); ``spots``: each such point's centre on the picture, in
    percent of its width and height; ``size``: a point's spacing in percent of the
    picture's width."""

    moves: tuple[tuple[str, str, tuple[str, ...]], ...]
    spots: dict[str, tuple[float, float]]
    size: float
    removals: bool = False  # some move takes a chain off (Querni): tapped by its ends
    labels: dict[str, Words] = field(default_factory=dict)
    """Each spot in words, for a screen reader: the point and what stands there
    (:func:`spot_words`)."""

    def attributes(self) -> dict[str, str]:
        """The ``data-`` attributes the page's script reads (JSON)."""
        return {"data-taps": json.dumps([[c, d, list(t)] for c, d, t in self.moves],
                                        ensure_ascii=False, separators=(",", ":")),
                "data-spots": json.dumps(self.spots, separators=(",", ":")),
                "data-spot-size": f"{self.size:.2f}"}


def taps_of(path: Sequence[Point], removed: Sequence[Point]) -> tuple[Point, ...]:
    """The points a move is tapped by: its start and end, then its removal's first and
    last stone.

    >>> taps_of(((2, 1), (4, 3), (6, 5)), ())
    ((2, 1), (6, 5))
    >>> taps_of(((2, 1), (3, 2)), ((0, 0), (1, 0), (2, 0)))
    ((2, 1), (3, 2), (0, 0), (2, 0))
    >>> taps_of((), ((0, 0), (1, 0), (2, 0)))
    ((0, 0), (2, 0))
    >>> taps_of(((1, 0), (1, 1)), ((1, 1), (1, 2), (1, 3)))  # the moved stone starts it
    ((1, 0), (1, 1), (1, 3))
    """
    points: list[Point] = []
    for p in (*path[:1], *path[-1:], *removed[:1], *removed[-1:]):
        if not points or points[-1] != p:  # a stone moved onto a chain's end: one tap
            points.append(p)
    return tuple(points)


def spot_words(position: Position, point: Point) -> Words:
    """A point of the board in words, as a spot to tap is read out: its name and what
    stands there ('c3, chariot (Red)', 'e4, stone 7 (Blue)', 'd5, empty')."""
    from render.alt import piece_word

    name = point_name(*point)
    piece = position.pieces().get(point)
    if piece is None:
        return _("{point}, empty", point=name)
    seat = seat_colour(position.variant.seat_name(piece.seat, position.seat_count))
    kind = _("stone {number}", number=piece.kind) if piece.kind.isdigit() else \
        piece_word(piece.kind, 1)
    return _("{point}, {piece} ({seat})", point=name, piece=kind, seat=seat)


def _picture_size() -> int:
    """The long side of the pictures the renderer draws (``draw_board``'s default)."""
    from render.draw import draw_board

    size: int = inspect.signature(draw_board).parameters["size"].default
    return size


def board_taps(position: Position, choices: Sequence[tuple[str, str]],
               seat: int) -> BoardTaps | None:
    """The tap data of ``choices`` (the service's legal moves for the player: canonical,
    display) in ``position``, on the picture seen from ``seat``; None when no move is
    tapped on the board (none, only a pass) or the renderer is not installed."""
    try:
        from render.board import layout
    except ImportError:
        return None
    v = position.variant
    wanted = dict(choices)
    found: list[tuple[str, tuple[Point, ...], tuple[Point, ...]]] = []
    for move in position.legal_moves():
        canonical = v.format_move(position, move)
        if canonical in wanted:
            marks = v.move_marks(position, move)
            found.append((canonical, tuple(marks.path), tuple(marks.removed)))
    # a removal is tapped where the player chooses it (Querni: which chain, or none), that
    # is where another move goes the same way; one the move itself decides (Alquerque
    # grande's huff) is the rules' to make, never a tap of his
    ways = Counter(taps_of(path, ()) for _c, path, _r in found if path)
    moves: list[tuple[str, str, tuple[str, ...]]] = []
    points: set[Point] = set()
    removals = False
    for canonical, path, removed in found:
        chosen = removed if not path or ways[taps_of(path, ())] > 1 else ()
        tapped = taps_of(path, chosen)
        if not tapped:
            continue  # a pass: the list plays it
        removals = removals or bool(chosen)
        points.update(tapped)
        moves.append((canonical, wanted[canonical],
                      tuple(point_name(*p) for p in tapped)))
    if not moves:
        return None
    n = position.seat_count
    lay = layout(v.key, tuple(v.board_size), n, seat % n, _picture_size())
    spots = {}
    for p in sorted(points):
        x, y = lay.centre(p)
        spots[point_name(*p)] = (round(100 * x / lay.width, 2),
                                 round(100 * y / lay.height, 2))
    return BoardTaps(tuple(moves), spots, 100 * lay.step / lay.width, removals,
                     {point_name(*p): spot_words(position, p) for p in sorted(points)})


@dataclass(frozen=True, slots=True)
class SetupTaps:
    """A set-up by tapping (Querni ``choose``): the points the player's arrangement is
    written over (``Position.setup_cells``) by name, in the order it is written, and their
    ``spots`` on the picture (as :class:`BoardTaps`)."""

    cells: tuple[str, ...]
    spots: dict[str, tuple[float, float]]
    size: float

    def attributes(self) -> dict[str, str]:
        return {"data-cells": json.dumps(list(self.cells), separators=(",", ":")),
                "data-spots": json.dumps(self.spots, separators=(",", ":")),
                "data-spot-size": f"{self.size:.2f}"}


def setup_taps(position: Position, seat: int) -> SetupTaps | None:
    """The set-up tap data of ``seat`` in ``position`` (a set-up phase; whether he still
    has to hand in his arrangement is the match's to say: the public record hides it);
    None outside one (or without the renderer)."""
    cells = position.setup_cells(seat) if position.in_setup else ()
    if not cells:
        return None
    try:
        from render.board import layout
    except ImportError:
        return None
    v = position.variant
    n = position.seat_count
    lay = layout(v.key, tuple(v.board_size), n, seat % n, _picture_size())
    spots = {}
    for p in cells:
        x, y = lay.centre(p)
        spots[point_name(*p)] = (round(100 * x / lay.width, 2), round(100 * y / lay.height, 2))
    return SetupTaps(tuple(point_name(*p) for p in cells), spots,
                     100 * lay.step / lay.width)
