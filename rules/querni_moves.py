"""Querni's moves (RULES §5), for :mod:`rules.querni`: play-phase turns and set-up
arrangements as values, the numbers of an arrangement read from text, and the checks a
typed jump path and a removal must pass on a board of cells (:mod:`rules.querni_board`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from rules.core import IllegalMoveError, NotationError, Point, RulesError, detail
from rules.notation import normalize
from rules.querni_board import ADJACENT, MIN_CHAIN, NAMES, POINTS, SIZE, STONES, WIDTH, is_on_board


def check_numbers(numbers: Sequence[int]) -> tuple[int, ...]:
    """A permutation of 1..16, or a RulesError whose ``detail`` callers raise again as the
    error class of their context."""
    if not numbers:  # nothing given: no count of zero numbers, but what is missing
        raise RulesError(detail("arrangement_empty", need=STONES))
    if len(numbers) != STONES:
        raise RulesError(detail("arrangement_length", count=len(numbers), need=STONES))
    seen: set[int] = set()
    for n in numbers:
        if not 1 <= n <= STONES:
            raise RulesError(detail("not_a_stone_number", number=n, last=STONES))
        if n in seen:
            raise RulesError(detail("number_twice", number=n))
        seen.add(n)
    return tuple(numbers)


_ARRANGEMENT_SPLIT = re.compile(r"[\s,;/]+")
NUMBER = re.compile(r"[0-9]{1,3}")
"""One stone number as typed (at most three digits: a longer one is refused unread)."""


def parse_numbers(text: str) -> tuple[int, ...]:
    """``'5 1 9 ... 12'`` -> the 16 numbers; NotationError/IllegalMoveError says why not."""
    s = normalize(text)
    tokens = [t for t in _ARRANGEMENT_SPLIT.split(s) if t]
    for t in tokens:
        if not NUMBER.fullmatch(t):
            raise NotationError(detail("arrangement_syntax", input=t), text=text)
    try:
        return check_numbers([int(t) for t in tokens])
    except RulesError as e:
        raise IllegalMoveError(e.detail, text=text) from None



# --------------------------------------------------------------------------- moves


@dataclass(frozen=True, slots=True)
class Turn:
    """A play-phase turn: an optional movement, then an optional removal.

    ``movement`` is ``(start, end)``; ``removal`` is ``(low, high)`` stone numbers;
    both None is a pass. ``path`` is the jump path the player typed, if any: it is not
    part of the move's identity (RULES §5: a movement is its start and end).
    """

    movement: tuple[Point, Point] | None = None
    removal: tuple[int, int] | None = None
    path: tuple[Point, ...] = field(default=(), compare=False, repr=False)


PASS = Turn()
_MOVEMENT_TURNS: dict[int, Turn] = {}
_REMOVAL_TURNS: dict[tuple[int, int], Turn] = {}


def movement_turn(start: int, end: int) -> Turn:
    """The movement-only turn from cell ``start`` to cell ``end``, made once (at most
    70 × 70 of them): ``legal_moves`` lists thousands of turns at every search node."""
    key = start * SIZE + end
    turn = _MOVEMENT_TURNS.get(key)
    if turn is None:
        turn = _MOVEMENT_TURNS[key] = Turn((POINTS[start], POINTS[end]))
    return turn


_MOVEMENT_REMOVAL_TURNS: dict[int, Turn] = {}
_MOVEMENT_REMOVAL_LIMIT = 1 << 16


def movement_removal_turn(key: int, moved: Turn, run: tuple[int, int]) -> Turn:
    """The movement of the turn ``moved`` then the removal of ``run``, remembered by
    ``key`` (start and end cell, low and high number) in a bounded table: a search meets
    the same ones at many nodes."""
    turn = _MOVEMENT_REMOVAL_TURNS.get(key)
    if turn is None:
        if len(_MOVEMENT_REMOVAL_TURNS) >= _MOVEMENT_REMOVAL_LIMIT:
            _MOVEMENT_REMOVAL_TURNS.clear()
        turn = _MOVEMENT_REMOVAL_TURNS[key] = Turn(moved.movement, run)
    return turn


def removal_turn(run: tuple[int, int]) -> Turn:
    """The removal-only turn of ``run``, made once (at most 120 of them)."""
    turn = _REMOVAL_TURNS.get(run)
    if turn is None:
        turn = _REMOVAL_TURNS[run] = Turn(None, run)
    return turn


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A setup-phase submission: ``seat`` puts ``numbers`` on its start cells in order."""

    seat: int
    numbers: tuple[int, ...]


QuerniMove = Turn | Arrangement
"""A Querni move: a play-phase :class:`Turn` or a setup-phase :class:`Arrangement`."""


def cell_index(point: Point) -> int:
    x, y = point
    if not is_on_board(x, y):
        raise IllegalMoveError(detail("cell_off_board", point=str(point)))
    return y * WIDTH + x


def stone_cells(cells: Sequence[int], seat: int) -> list[int]:
    """Cell of each of ``seat``'s stones by number (index 0 unused; -1 = off the board)."""
    where = [-1] * (STONES + 2)
    low = seat * STONES
    for i, code in enumerate(cells):
        if low < code <= low + STONES:
            where[code - low] = i
    return where


def jumped_twice(path: Sequence[int]) -> int:
    """The first cell a jump path jumps over for the second time (-1 if none)."""
    seen: set[int] = set()
    for frm, to in pairwise(path):
        over = (frm + to) // 2  # the middle cell: both coordinates differ by 0 or 2
        if over in seen:
            return over
        seen.add(over)
    return -1


def check_jump_path(cells: Sequence[int], path: Sequence[int], *, once: bool = True) -> None:
    """A typed multi-hop path: every hop a straight jump over one stone onto an empty
    cell, no landing cell twice, never back onto the start, and (``once``, rules version
    2) no cell jumped over twice."""
    start = path[0]
    landed = {start}
    jumped: set[int] = set()
    for frm, to in pairwise(path):
        fx, fy = POINTS[frm]
        tx, ty = POINTS[to]
        dx, dy = tx - fx, ty - fy
        if max(abs(dx), abs(dy)) == 1:
            raise IllegalMoveError(detail("step_in_jumps", move=f"{NAMES[frm]}-{NAMES[to]}"))
        if not (max(abs(dx), abs(dy)) == 2 and dx % 2 == 0 and dy % 2 == 0):
            raise IllegalMoveError(detail("not_a_jump", move=f"{NAMES[frm]}-{NAMES[to]}"))
        over = frm + (dy // 2) * WIDTH + dx // 2
        if to == start:
            raise IllegalMoveError(detail("jump_back_to_start", point=NAMES[start]))
        if to in landed:
            raise IllegalMoveError(detail("landed_twice", point=NAMES[to]))
        if not cells[over] or over == start:
            raise IllegalMoveError(detail("jump_over_empty", point=NAMES[over]))
        if cells[to]:
            raise IllegalMoveError(detail("occupied", point=NAMES[to]))
        if once and over in jumped:
            raise IllegalMoveError(detail("jumped_twice", point=NAMES[over]))
        landed.add(to)
        jumped.add(over)


def check_removal(where: Sequence[int], low: int, high: int) -> None:
    if not (1 <= low <= STONES and 1 <= high <= STONES):
        raise IllegalMoveError(detail("stone_numbers", last=STONES))
    if low > high:
        raise IllegalMoveError(detail("lower_number_first", move=f"r{high}-{low}"))
    count = high - low + 1
    if count == 1:
        raise IllegalMoveError(detail("chain_of_one", move=f"r{low}-{high}", least=MIN_CHAIN))
    if count < MIN_CHAIN:
        raise IllegalMoveError(detail("chain_too_short", move=f"r{low}-{high}", count=count,
                                      least=MIN_CHAIN))
    for n in range(low, high + 1):
        if where[n] < 0:
            raise IllegalMoveError(detail("no_stone_number", number=n))
    for n in range(low + 1, high + 1):
        if not ADJACENT[where[n]] >> where[n - 1] & 1:
            raise IllegalMoveError(detail("chain_not_adjacent", number=n, previous=n - 1,
                                          point=NAMES[where[n]],
                                          previous_point=NAMES[where[n - 1]]))

