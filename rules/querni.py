"""Querni (RULES §5): number your stones into chains of three or more and take them off.

Two seats, Blue (0) and Pink (1), 16 stones numbered 1..16 each, on a 10×7 board of cells
with 8-neighbour adjacency. A turn is a movement (one step, or a chain of jumps over single
stones of either colour, no cell landed on or jumped over twice), a chain removal, a
movement followed by a removal, or ``pass`` -- only when the seat can do none of those
(:meth:`QuerniPosition.forced_move` names it, so the service can play it at once).

Rules versions (``QuerniVariant.rules_version``, stored with every match): ``"2"`` is
RULES §5 as revised by issue 18; ``"1"``, started by ``v.start_recorded("1", ...)`` for
matches stored before it, also allows a voluntary ``pass`` and jump sequences that jump a
cell twice. A position carries its version (``rules_version``) into every later position;
the position text does not hold it (``from_text`` reads a version 2 position).

>>> import rules
>>> v = rules.variant("querni")
>>> p = v.start(arrangement=(tuple(range(1, 17)), tuple(range(1, 17))))
>>> [v.format_move(p, m) for m in p.legal_moves()][:3]
['r1-3', 'r4-6', 'r11-13']
>>> p = p.play(v.parse_move(p, "c2-d3 r1-3"))
>>> p.to_text().split("/")[-3:]
['B11,B12,B13,B8,3,B14,B15,B16', 'B7,6,B9,1,B10', '7,B4,B5,B6 p 0 3,0']

Starting a game (``v.start(**options)``)
-----------------------------------------

* ``setup="random"`` (default) with ``seed=N`` (any int, default 0): each seat's numbers
  are dealt onto its 16 start cells by :func:`deal`, a Fisher–Yates shuffle driven by
  SplitMix64 (an explicit 64-bit generator written out here, so the same seed gives the
  same deal on every machine and Python version; ``random`` and ``hash`` are not used).
* ``arrangement=(nums0, nums1)``: 16 numbers per seat, each a permutation of 1..16, placed
  in the cell order of :data:`START_CELLS` (RULES §5). A given arrangement wins over a seed
  (the service always passes a seed; it is then simply unused).
* ``setup="choose"``: a :class:`QuerniSetupPosition` position. Both seats are to move
  (``to_move == {0, 1}``); each submits an :class:`Arrangement`, written like
  ``5 1 9 3 ... 12`` (16 numbers in cell order), in either order; the second submission
  starts play with Blue to move. A seed is accepted and ignored; an arrangement is refused.

Setup phase, decided where the rules are silent
-----------------------------------------------

* ``parse_move(p, text)`` has no seat. When exactly one seat is still pending the text is
  read as that seat's arrangement; while both are pending it raises IllegalMoveError and
  the caller (who knows who typed it) uses ``v.parse_arrangement(p, seat, text)``.
* ``legal_moves()`` is honest: a lazy :class:`ArrangementMoves` sequence of all
  16! arrangements of every pending seat (``len``, indexing, ``in`` and ``random.choice``
  work; never ``list()`` it). ``outcome()`` is always None during setup. The conformance
  playouts therefore use only ``seed`` and ``arrangement`` starts.
* Secrecy: ``pieces()`` of a setup position is always empty (nothing is on the board
  until both have submitted), and ``view_for(seat)`` returns the position with the other
  seat's submitted arrangement replaced by "submitted, hidden" (``?`` in the text), so a
  view can be stored, rendered or handed to a bot without leaking it. A view cannot start
  play (the hidden numbers are unknown); submit on the full position.
  ``p.arrangement(seat)`` reads a seat's own submitted numbers (None if pending or hidden).

Moves
-----

A play-phase move is a :class:`Turn`: ``movement`` ``(start, end)`` points or None,
``removal`` ``(low, high)`` or None, both None for ``pass``. Canonical strings: ``c2-e4``,
``r3-5``, ``c2-e4 r3-5``, ``pass``. Input may list a whole jump path (``c2-e4-g2``), which
is checked hop by hop; the Turn keeps it in ``path`` (not part of equality) for
:meth:`QuerniVariant.move_marks`, which otherwise draws a shortest jump path.

Endings (judged after every turn, in this order)
------------------------------------------------

``all-removed``: the mover took off his last stone and wins; ``no-chains``: neither seat
still has three consecutive numbers ``n, n+1, n+2`` anywhere on the board (draw);
``move-limit``: the 30th consecutive turn without a removal, passes included (draw). A
draw has no winners and the single ranking group ``{0, 1}``.

Position text
-------------

Play phase: ``<board> <side> <quiet> <removed0>,<removed1>``.

* ``<board>``: ranks from 7 (top) down to 1 separated by ``/``; in each rank the cells from
  file a to j as comma-separated tokens: ``B<n>`` a blue stone numbered n, ``P<n>`` a pink
  one, a number ``k`` for k empty cells in a row.
* ``<side>``: ``b`` Blue to move, ``p`` Pink to move (after the end: the seat that would be
  next).
* ``<quiet>``: consecutive turns without a removal, 0..30 (30 ends the game).
* ``<removed0>,<removed1>``: stones each seat has taken off (must agree with the board).

Setup phase: ``setup <blue> <pink>`` where each is ``-`` (not submitted yet), ``?``
(submitted, hidden in this view) or the 16 submitted numbers comma-separated.

>>> v.start(setup="choose").to_text()
'setup - -'
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from typing import Any, ClassVar, overload

from rules.core import (
    IllegalMoveError,
    MoveMarks,
    NotationError,
    OptionError,
    Outcome,
    Piece,
    Point,
    Position,
    PositionError,
    RulesError,
    Variant,
    detail,
)
from rules.notation import normalize, parse_point, point_name, tokenize
from rules.registry import register

WIDTH, HEIGHT = 10, 7
SIZE = WIDTH * HEIGHT
STONES = 16
MIN_CHAIN = 3
MOVE_LIMIT = 30
"""The 30th consecutive turn without a removal draws."""
SEAT_NAMES = ("Blue", "Pink")
RULES_VERSION = "2"
"""Querni's rules version (RULES §5 as revised by issue 18): a pass only when forced, no
cell jumped over twice in one sequence."""
RULES_VERSIONS = ("1", "2")
"""Version 1, kept for the matches stored before version 2: ``pass`` is always legal and
a jump sequence may jump a cell twice (only its landing cells are limited)."""
_STONE_LETTERS = "BP"
_SIDE_LETTERS = "bp"

POINTS: tuple[Point, ...] = tuple((i % WIDTH, i // WIDTH) for i in range(SIZE))
NAMES: tuple[str, ...] = tuple(point_name(x, y) for x, y in POINTS)
_INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}


def _cells(names: str) -> tuple[int, ...]:
    return tuple(_INDEX[n] for n in names.split())


START_CELLS: tuple[tuple[int, ...], tuple[int, ...]] = (
    _cells("a1 b1 c1 h1 i1 j1 a2 c2 h2 j2 a3 b3 c3 h3 i3 j3"),
    _cells("a5 b5 c5 h5 i5 j5 a6 c6 h6 j6 a7 b7 c7 h7 i7 j7"),
)
"""Each seat's start cells (as cell indices ``y * 10 + x``) in arrangement order."""
MARKED_CELLS: tuple[Point, ...] = ((1, 1), (8, 1), (1, 5), (8, 5))
"""The marked corner cells ``b2 i2 b6 i6`` (empty at the start; drawn specially)."""

_DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


def _on_board(x: int, y: int) -> bool:
    return 0 <= x < WIDTH and 0 <= y < HEIGHT


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple((y + dy) * WIDTH + x + dx for dx, dy in _DIRECTIONS if _on_board(x + dx, y + dy))
    for x, y in POINTS)
_ADJACENT: tuple[int, ...] = tuple(sum(1 << n for n in ns) for ns in NEIGHBOURS)
"""Bit masks: bit j of ``_ADJACENT[i]`` is set when cells i and j touch."""
_JUMPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(((y + dy) * WIDTH + x + dx, (y + 2 * dy) * WIDTH + x + 2 * dx)
          for dx, dy in _DIRECTIONS if _on_board(x + 2 * dx, y + 2 * dy))
    for x, y in POINTS)
"""Per cell: (jumped cell, landing cell) for every straight jump that stays on the board."""

# A cell holds 0 (empty) or a stone code: seat * 16 + number (1..16 Blue, 17..32 Pink).


def _seat_of(code: int) -> int:
    return (code - 1) >> 4


def _number_of(code: int) -> int:
    return ((code - 1) & 15) + 1


_PIECE_OF_CODE: tuple[Piece, ...] = tuple(Piece(_seat_of(code), str(_number_of(code)))
                                          for code in range(33))
"""The piece each stone code shows (index 0 unused), made once: ``pieces()`` runs at every
node of an engine search."""


# --------------------------------------------------------------------------- the deal

_MASK64 = (1 << 64) - 1


def splitmix64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: ``(new state, 64-bit output)``.

    >>> hex(splitmix64(0)[1])
    '0xe220a8397b1dcdaf'
    """
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


def deal(seed: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The random arrangements of ``setup="random"``, reproducible everywhere.

    The state starts as ``seed mod 2**64``. For Blue, then Pink (one continuing stream),
    the list 1..16 is Fisher–Yates shuffled: for i = 15 down to 1, swap entries i and
    ``splitmix64_output mod (i + 1)`` (the modulo bias is below 1e-17).

    >>> deal(0)[0]
    (3, 11, 15, 12, 7, 2, 6, 14, 9, 4, 5, 8, 13, 10, 1, 16)
    """
    state = seed & _MASK64
    result: list[tuple[int, ...]] = []
    for _ in range(2):
        numbers = list(range(1, STONES + 1))
        for i in range(STONES - 1, 0, -1):
            state, out = splitmix64(state)
            j = out % (i + 1)
            numbers[i], numbers[j] = numbers[j], numbers[i]
        result.append(tuple(numbers))
    return result[0], result[1]


def _check_numbers(numbers: Sequence[int]) -> tuple[int, ...]:
    """A permutation of 1..16, or a RulesError whose ``detail`` callers raise again as the
    error class of their context."""
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
_NUMBER = re.compile(r"[0-9]{1,3}")


def parse_numbers(text: str) -> tuple[int, ...]:
    """``'5 1 9 ... 12'`` -> the 16 numbers; NotationError/IllegalMoveError says why not."""
    s = normalize(text)
    tokens = [t for t in _ARRANGEMENT_SPLIT.split(s) if t]
    for t in tokens:
        if not _NUMBER.fullmatch(t):
            raise NotationError(detail("arrangement_syntax", input=t), text=text)
    try:
        return _check_numbers([int(t) for t in tokens])
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


def _movement_turn(start: int, end: int) -> Turn:
    """The movement-only turn from cell ``start`` to cell ``end``, made once (at most
    70 × 70 of them): ``legal_moves`` lists thousands of turns at every search node."""
    key = start * SIZE + end
    turn = _MOVEMENT_TURNS.get(key)
    if turn is None:
        turn = _MOVEMENT_TURNS[key] = Turn((POINTS[start], POINTS[end]))
    return turn


_MOVEMENT_REMOVAL_TURNS: dict[int, Turn] = {}
_MOVEMENT_REMOVAL_LIMIT = 1 << 16


def _movement_removal_turn(key: int, moved: Turn, run: tuple[int, int]) -> Turn:
    """The movement of the turn ``moved`` then the removal of ``run``, remembered by
    ``key`` (start and end cell, low and high number) in a bounded table: a search meets
    the same ones at many nodes."""
    turn = _MOVEMENT_REMOVAL_TURNS.get(key)
    if turn is None:
        if len(_MOVEMENT_REMOVAL_TURNS) >= _MOVEMENT_REMOVAL_LIMIT:
            _MOVEMENT_REMOVAL_TURNS.clear()
        turn = _MOVEMENT_REMOVAL_TURNS[key] = Turn(moved.movement, run)
    return turn


def _removal_turn(run: tuple[int, int]) -> Turn:
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


# --------------------------------------------------------------------------- chain helpers


@lru_cache(maxsize=1 << 15)
def _runs(links: int) -> tuple[tuple[int, int], ...]:
    """Every removable run for a link mask (bit n: stones n and n+1 both there, touching)."""
    runs: list[tuple[int, int]] = []
    n = 1
    while n < STONES:
        if links >> n & 1:
            top = n
            while top < STONES and links >> top & 1:
                top += 1
            # stones n..top form a maximal chain; every sub-run of >= 3 is removable
            for low in range(n, top - 1):
                for high in range(low + MIN_CHAIN - 1, top + 1):
                    runs.append((low, high))
            n = top
        n += 1
    return tuple(runs)


def _link_mask(where: Sequence[int]) -> int:
    links = 0
    for n in range(1, STONES):
        a, b = where[n], where[n + 1]
        if a >= 0 and b >= 0 and _ADJACENT[a] >> b & 1:
            links |= 1 << n
    return links


def _has_three_in_a_row(present: int) -> bool:
    """Whether a number mask (bit n = number n on the board) holds n, n+1, n+2."""
    return bool(present & (present >> 1) & (present >> 2))


def _jumps_from(cells: Sequence[int], start: int) -> dict[int, tuple[int, int, bool]]:
    """Breadth-first jump search from ``start`` with the landing limits only: for every
    cell reached, ``(parent, jumped cells of its tree path as a bit mask, whether that
    path jumps some cell twice)``. The start is included as its own parent.

    The start cell is empty while the stone jumps, so there is nothing there to jump over,
    and landing on it is forbidden (it holds the stone in ``cells``, so it is not 0).
    """
    tree: dict[int, tuple[int, int, bool]] = {start: (start, 0, False)}
    queue = [start]
    for c in queue:
        _, jumped, twice = tree[c]
        for over, land in _JUMPS[c]:
            if not cells[land] and cells[over] and over != start and land not in tree:
                bit = 1 << over
                tree[land] = (c, jumped | bit, twice or bool(jumped & bit))
                queue.append(land)
    return tree


def _open_reach(cells: Sequence[int], start: int, at: int, landed: int, jumped: int) -> int:
    """Bit mask of the cells a sequence standing on ``at`` could still land on if from now
    on only the cells already landed on (``landed``) and jumped over (``jumped``) were
    barred: an upper bound on what it can reach, which prunes the search below."""
    seen = 0
    stack = [at]
    while stack:
        c = stack.pop()
        for over, land in _JUMPS[c]:
            bit = 1 << land
            if cells[land] or not cells[over] or over == start or (landed | seen) & bit \
                    or jumped >> over & 1:
                continue
            seen |= bit
            stack.append(land)
    return seen


def _paths_once(cells: Sequence[int], start: int, wanted: int,
                end: int = -1) -> tuple[int, tuple[int, ...] | None]:
    """Depth-first search of the jump sequences from ``start`` that land on no cell twice
    (nor on the start) and jump no cell twice (RULES §5). Returns the bit mask of the
    ``wanted`` cells found reachable (it stops once all are found), and the path found to
    ``end`` if one is asked for (then it stops there).

    Only the cells whose shortest path jumps a cell twice need this: within one landing
    parity class a cell can be jumped along two lines only where two diagonals cross
    (``a1-c3`` and ``c1-a3`` over ``b2``). A branch is cut as soon as none of the cells
    still wanted can be reached from it even ignoring the limits still to come
    (:func:`_open_reach`), so a cell that is out of reach does not cost a walk over every
    path of a crowded board.
    """
    if end >= 0:
        wanted = 1 << end
    found = 0
    stack: list[tuple[int, int, int, tuple[int, ...]]] = [(start, 1 << start, 0, (start,))]
    while stack:
        c, landed, jumped, path = stack.pop()
        for over, land in _JUMPS[c]:
            land_bit, over_bit = 1 << land, 1 << over
            if cells[land] or not cells[over] or over == start or landed & land_bit \
                    or jumped & over_bit:
                continue
            if land == end:
                return found | land_bit, (*path, land)
            found |= land_bit
            missing = wanted & ~found
            if not missing:
                return found & wanted, None
            now_landed, now_jumped = landed | land_bit, jumped | over_bit
            if _open_reach(cells, start, land, now_landed, now_jumped) & missing:
                stack.append((land, now_landed, now_jumped, (*path, land)))
    return found & wanted, None


_CROSSINGS: tuple[tuple[int, int] | None, ...] = tuple(
    ((y + 1) * WIDTH + x + 1,
     (1 << (y * WIDTH + x)) | (1 << (y * WIDTH + x + 2)) | (1 << ((y + 2) * WIDTH + x))
     | (1 << ((y + 2) * WIDTH + x + 2)))
    if x + 2 < WIDTH and y + 2 < HEIGHT else None
    for x, y in POINTS)
"""Per cell ``i``: the crossing of two diagonal jumps whose lower left corner ``i`` is, as
``(centre, bit mask of its four corners)`` (None at the top and right edges)."""


def _jump_ends(cells: Sequence[int], start: int) -> int:
    """Bit mask of the start and every cell a jump sequence from it can land on with the
    landing limits only (none twice, never the start)."""
    seen = 1 << start
    frontier = [start]
    while frontier:
        c = frontier.pop()
        for over, land in _JUMPS[c]:
            # the start cell is empty while jumping: nothing there to jump over, and
            # landing on it is forbidden (it holds the stone in ``cells``, so it is not 0).
            if not cells[land] and cells[over] and over != start and not seen >> land & 1:
                seen |= 1 << land
                frontier.append(land)
    return seen


def _destination_mask(cells: Sequence[int], start: int, *, once: bool = True) -> int:
    """Bit mask of every cell the stone on ``start`` can move to (steps and jump ends).

    ``once``: no cell may be jumped over twice in one sequence (RULES §5, rules version
    2); without it only the landing limits hold (version 1, kept for stored matches).

    A cell can be jumped twice only where two diagonal jumps cross over a stone, and a
    sequence jumping it twice lands on all four corners of that crossing. So when no such
    crossing has every corner among the cells reachable with the landing limits alone,
    those cells are the answer; otherwise the cells whose shortest path jumps a cell
    twice are searched again path by path (:func:`_paths_once`).
    """
    dests = 0
    for n in NEIGHBOURS[start]:
        if not cells[n]:
            dests |= 1 << n
    seen = _jump_ends(cells, start)
    # (Jumps keep the parity of x and y, so a sequence never stands next to its start,
    # and a jump end is never also a step end.)
    jumps = seen & ~(1 << start)
    if not once or not jumps:
        return dests | jumps
    for i in _cells_of(seen):
        crossing = _CROSSINGS[i]
        if crossing is not None and cells[crossing[0]] and seen & crossing[1] == crossing[1]:
            break
    else:
        return dests | jumps
    tree = _jumps_from(cells, start)
    good = doubtful = 0
    for land, (_, _, twice) in tree.items():
        if land == start:
            continue
        if twice:
            doubtful |= 1 << land
        else:
            good |= 1 << land
    if doubtful:
        good |= _paths_once(cells, start, doubtful)[0]
    return dests | good


def _can_move(cells: Sequence[int], start: int) -> bool:
    """Whether the stone on ``start`` has any step or jump (a first jump is always a
    legal sequence on its own)."""
    return any(not cells[n] for n in NEIGHBOURS[start]) or any(
        cells[over] and not cells[land] for over, land in _JUMPS[start])


def _cells_of(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _jump_path(cells: Sequence[int], start: int, end: int, *,
               once: bool = True) -> tuple[int, ...] | None:
    """A jump path start..end respecting the limits (see :func:`_destination_mask`):
    the shortest one (breadth first, fixed direction order) when it jumps no cell
    twice, else one found depth first; None if there is none."""
    tree = _jumps_from(cells, start)
    if end not in tree or end == start:
        return None
    if tree[end][2] and once:
        return _paths_once(cells, start, 1 << end, end)[1]
    path = [end]
    while path[-1] != start:
        path.append(tree[path[-1]][0])
    return tuple(reversed(path))


# --------------------------------------------------------------------------- positions


@dataclass(frozen=True, slots=True)
class QuerniPosition(Position["QuerniMove"]):
    """A play-phase position: ``cells`` (70 codes, index ``y * 10 + x``), the seat to move,
    ``quiet``, the consecutive turns without a removal, and the ``rules_version`` it is
    played by (see :data:`RULES_VERSION`; the position text does not hold it)."""

    cells: tuple[int, ...]
    turn: int = 0
    quiet: int = 0
    rules_version: str = "2"
    _outcome: Outcome | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if len(self.cells) != SIZE or self.turn not in (0, 1) or self.quiet < 0 \
                or self.rules_version not in RULES_VERSIONS:
            raise ValueError("a Querni position has 70 cells, turn 0 or 1, quiet >= 0 and "
                             f"a rules version among {RULES_VERSIONS}")
        object.__setattr__(self, "_outcome", self._judge())

    def _judge(self) -> Outcome | None:
        present = [0, 0]  # per seat, bit n set while its stone n is on the board
        for code in self.cells:
            # _seat_of and _number_of inlined: this runs at every node of a search
            if code > STONES:
                present[1] |= 1 << (code - STONES)
            elif code:
                present[0] |= 1 << code
        for seat in (0, 1):
            if not present[seat]:
                return Outcome.win(seat, seats=2, reason="all-removed")
        if not (_has_three_in_a_row(present[0]) or _has_three_in_a_row(present[1])):
            return Outcome.draw(seats=2, reason="no-chains")
        if self.quiet >= MOVE_LIMIT:
            return Outcome.draw(seats=2, reason="move-limit")
        return None

    # ---------------------------------------------------------------- Position API

    @property
    def variant(self) -> QuerniVariant:
        return QUERNI

    @property
    def to_move(self) -> frozenset[int]:
        return frozenset() if self._outcome is not None else frozenset([self.turn])

    def outcome(self) -> Outcome | None:
        return self._outcome

    def legal_moves(self) -> tuple[Turn, ...]:
        """Removals alone, then each movement (by start cell, end cell) alone and followed
        by each removal possible after it; ``pass`` alone when there is none of those
        (rules version 1: ``pass`` always, last)."""
        if self._outcome is not None:
            return ()
        cells = self.cells
        once = self.rules_version != "1"
        where = self._where(self.turn)
        links = _link_mask(where)
        turns = [_removal_turn(r) for r in _runs(links)]
        append = turns.append
        low_code = self.turn * STONES
        for start in range(SIZE):
            code = cells[start] - low_code
            if not 1 <= code <= STONES:
                continue
            below = where[code - 1] if code > 1 else -1
            above = where[code + 1] if code < STONES else -1
            # only the links to the moved stone's neighbours in number can change
            base = links & ~((1 << (code - 1)) | (1 << code))
            for end in _cells_of(_destination_mask(cells, start, once=once)):
                turn = _movement_turn(start, end)
                append(turn)
                after = base
                if below >= 0 and _ADJACENT[end] >> below & 1:
                    after |= 1 << (code - 1)
                if above >= 0 and _ADJACENT[end] >> above & 1:
                    after |= 1 << code
                key = (start * SIZE + end) << 10
                for r in _runs(after):
                    append(_movement_removal_turn(key | r[0] << 5 | r[1], turn, r))
        if not turns or not once:
            append(PASS)
        return tuple(turns)

    def forced_move(self) -> Turn | None:
        """``pass`` when the seat to move can neither move nor remove (RULES §5: then it
        is his only legal move, which the service plays for him), else None."""
        if self._outcome is not None or self._can_act():
            return None
        return PASS

    def _can_act(self) -> bool:
        """Whether the seat to move has any movement or removal."""
        cells = self.cells
        if _runs(_link_mask(self._where(self.turn))):
            return True
        low = self.turn * STONES
        return any(low < code <= low + STONES and _can_move(cells, i)
                   for i, code in enumerate(cells))

    def play(self, move: QuerniMove) -> QuerniPosition:
        if not isinstance(move, Turn):
            raise IllegalMoveError(detail("not_a_move_value", value=repr(move), game="querni"))
        if self._outcome is not None:
            raise IllegalMoveError(detail("game_over"))
        where = self._check(move)
        cells = list(self.cells)
        if move.movement:
            start, end = (_cell_index(q) for q in move.movement)
            cells[end], cells[start] = cells[start], 0
        quiet = self.quiet + 1
        if move.removal:
            for n in range(move.removal[0], move.removal[1] + 1):
                cells[where[n]] = 0
            quiet = 0
        return QuerniPosition(tuple(cells), 1 - self.turn, quiet, self.rules_version)

    def to_text(self) -> str:
        rows = []
        for y in range(HEIGHT - 1, -1, -1):
            tokens: list[str] = []
            gap = 0
            for x in range(WIDTH):
                code = self.cells[y * WIDTH + x]
                if not code:
                    gap += 1
                    continue
                if gap:
                    tokens.append(str(gap))
                    gap = 0
                tokens.append(f"{_STONE_LETTERS[_seat_of(code)]}{_number_of(code)}")
            if gap:
                tokens.append(str(gap))
            rows.append(",".join(tokens))
        removed = self.removed_counts()
        return (f"{'/'.join(rows)} {_SIDE_LETTERS[self.turn]} {self.quiet} "
                f"{removed[0]},{removed[1]}")

    def pieces(self) -> Mapping[Point, Piece]:
        piece_of = _PIECE_OF_CODE
        return {POINTS[i]: piece_of[c] for i, c in enumerate(self.cells) if c}

    def removed_counts(self) -> tuple[int, int]:
        """How many stones each seat has taken off the board."""
        on_board = [0, 0]
        for code in self.cells:
            if code:
                on_board[_seat_of(code)] += 1
        return STONES - on_board[0], STONES - on_board[1]

    def stone_at(self, point: Point) -> tuple[int, int] | None:
        """``(seat, number)`` of the stone on ``point``, or None."""
        code = self.cells[point[1] * WIDTH + point[0]]
        return (_seat_of(code), _number_of(code)) if code else None

    def where(self, seat: int, number: int) -> Point | None:
        """The cell of ``seat``'s stone ``number``, or None once it is off the board."""
        cell = self._where(seat)[number]
        return POINTS[cell] if cell >= 0 else None

    def removable_runs(self) -> tuple[tuple[int, int], ...]:
        """Every ``(low, high)`` the side to move could remove now (before moving).

        >>> import rules
        >>> p = rules.variant("querni").start(arrangement=(tuple(range(1, 17)),) * 2)
        >>> p.removable_runs()[:4]
        ((1, 3), (4, 6), (11, 13), (14, 16))
        """
        if self._outcome is not None:
            return ()
        return _runs(_link_mask(self._where(self.turn)))

    def reachable(self, point: Point) -> tuple[Point, ...]:
        """Every cell the stone on ``point`` can move to (steps and jump sequence ends),
        in cell order; empty when the cell is empty."""
        start = point[1] * WIDTH + point[0]
        if not self.cells[start]:
            return ()
        return tuple(POINTS[c] for c in _cells_of(
            _destination_mask(self.cells, start, once=self.rules_version != "1")))

    # ---------------------------------------------------------------- internals

    def _where(self, seat: int) -> list[int]:
        return _where(self.cells, seat)

    def _check(self, move: Turn) -> list[int]:
        """Raise IllegalMoveError unless ``move`` is legal here (a targeted check: the
        movement by a search from its start cell, the removal on the board after it).
        Return where the mover's stones stand after the movement (as :meth:`_where`),
        which ``play`` removes stones by; empty without a removal (not worked out)."""
        if not move.movement and not move.removal:
            if self.rules_version != "1" and self._can_act():
                raise IllegalMoveError(detail("pass_not_allowed"))
            return []
        moved: tuple[int, int] | None = None
        if move.movement:
            start_point, end_point = move.movement
            start, end = _cell_index(start_point), _cell_index(end_point)
            self._check_movement(start, end, move.path)
            moved = start, end
        if not move.removal:
            return []
        where = self._where(self.turn)
        if moved is not None:
            start, end = moved
            where[_number_of(self.cells[start])] = end
        _check_removal(where, *move.removal)
        return where

    def _check_movement(self, start: int, end: int, path: Sequence[Point]) -> None:
        cells = self.cells
        code = cells[start]
        if not code:
            raise IllegalMoveError(detail("empty_point", point=NAMES[start], piece="stone"))
        if _seat_of(code) != self.turn:
            raise IllegalMoveError(detail("not_your_piece", point=NAMES[start], piece="stone"))
        if path and (_cell_index(path[0]), _cell_index(path[-1])) != (start, end):
            raise IllegalMoveError(detail("path_ends"))
        once = self.rules_version != "1"
        if len(path) > 2:
            _check_jump_path(cells, [_cell_index(p) for p in path], once=once)
            return
        if start == end:
            raise IllegalMoveError(detail("null_move", point=NAMES[start]))
        if cells[end]:
            raise IllegalMoveError(detail("occupied", point=NAMES[end]))
        if _destination_mask(cells, start, once=once) >> end & 1:
            return
        twice = _jump_path(cells, start, end, once=False) if once else None
        if twice is not None:
            over = _jumped_twice(twice)
            raise IllegalMoveError(detail("every_path_jumps_twice", start=NAMES[start],
                                          end=NAMES[end], path="-".join(NAMES[c] for c in twice),
                                          point=NAMES[over]))
        sx, sy = POINTS[start]
        ex, ey = POINTS[end]
        dx, dy = ex - sx, ey - sy
        if max(abs(dx), abs(dy)) == 2 and dx % 2 == 0 and dy % 2 == 0:
            over = start + (dy // 2) * WIDTH + dx // 2
            raise IllegalMoveError(detail("jump_over_empty", point=NAMES[over]))
        raise IllegalMoveError(detail("unreachable", start=NAMES[start], end=NAMES[end]))


def _cell_index(point: Point) -> int:
    x, y = point
    if not _on_board(x, y):
        raise IllegalMoveError(detail("cell_off_board", point=str(point)))
    return y * WIDTH + x


def _where(cells: Sequence[int], seat: int) -> list[int]:
    """Cell of each of ``seat``'s stones by number (index 0 unused; -1 = off the board)."""
    where = [-1] * (STONES + 2)
    low = seat * STONES
    for i, code in enumerate(cells):
        if low < code <= low + STONES:
            where[code - low] = i
    return where


def _jumped_twice(path: Sequence[int]) -> int:
    """The first cell a jump path jumps over for the second time (-1 if none)."""
    seen: set[int] = set()
    for frm, to in pairwise(path):
        over = (frm + to) // 2  # the middle cell: both coordinates differ by 0 or 2
        if over in seen:
            return over
        seen.add(over)
    return -1


def _check_jump_path(cells: Sequence[int], path: Sequence[int], *, once: bool = True) -> None:
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


def _check_removal(where: Sequence[int], low: int, high: int) -> None:
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
        if not _ADJACENT[where[n]] >> where[n - 1] & 1:
            raise IllegalMoveError(detail("chain_not_adjacent", number=n, previous=n - 1,
                                          point=NAMES[where[n]],
                                          previous_point=NAMES[where[n - 1]]))


# --------------------------------------------------------------------------- setup phase

_HIDDEN: tuple[int, ...] = ()
"""In a view: the seat has submitted, but its numbers are not shown."""


@dataclass(frozen=True, slots=True)
class QuerniSetupPosition(Position["QuerniMove"]):
    """The ``choose`` setup phase: per seat None (pending), its submitted numbers, or
    ``()`` (submitted, hidden in this view)."""

    arrangements: tuple[tuple[int, ...] | None, tuple[int, ...] | None] = (None, None)
    rules_version: str = RULES_VERSION
    """The rules version play will start with (see :class:`QuerniPosition`)."""

    @property
    def variant(self) -> QuerniVariant:
        return QUERNI

    @property
    def in_setup(self) -> bool:
        """True: the players are still submitting arrangements."""
        return True

    @property
    def to_move(self) -> frozenset[int]:
        return frozenset(s for s in (0, 1) if self.arrangements[s] is None)

    def outcome(self) -> Outcome | None:
        return None

    def legal_moves(self) -> ArrangementMoves:
        """All arrangements of every pending seat, lazily (16! per seat: never list it)."""
        return ArrangementMoves(tuple(sorted(self.to_move)))

    def play(self, move: QuerniMove) -> QuerniSetupPosition | QuerniPosition:
        if not isinstance(move, Arrangement):
            raise IllegalMoveError(detail("in_setup_phase"))
        seat = move.seat
        if seat not in (0, 1):
            raise IllegalMoveError(detail("no_such_seat", number=seat, game="querni"))
        if self.arrangements[seat] is not None:
            raise IllegalMoveError(detail("already_submitted", seat=SEAT_NAMES[seat]))
        try:
            numbers = _check_numbers(move.numbers)
        except RulesError as e:
            raise IllegalMoveError(e.detail) from None
        other = self.arrangements[1 - seat]
        if other is None:
            both = list(self.arrangements)
            both[seat] = numbers
            return QuerniSetupPosition((both[0], both[1]), self.rules_version)
        if other == _HIDDEN:
            raise IllegalMoveError(detail("hidden_view", seat=SEAT_NAMES[seat],
                                          other=SEAT_NAMES[1 - seat]))
        pair = (numbers, other) if seat == 0 else (other, numbers)
        return _arranged(pair, self.rules_version)

    def to_text(self) -> str:
        def field_text(a: tuple[int, ...] | None) -> str:
            if a is None:
                return "-"
            return ",".join(map(str, a)) if a else "?"
        return f"setup {field_text(self.arrangements[0])} {field_text(self.arrangements[1])}"

    def pieces(self) -> Mapping[Point, Piece]:
        """Always empty: no stone is on the board until both have submitted."""
        return {}

    def view_for(self, seat: int) -> QuerniSetupPosition:
        """This position as ``seat`` may see it: the other seat's numbers hidden."""
        if seat not in (0, 1):
            raise ValueError(f"no seat {seat} in Querni")
        other = self.arrangements[1 - seat]
        if not other:
            return self
        both = list(self.arrangements)
        both[1 - seat] = _HIDDEN
        return QuerniSetupPosition((both[0], both[1]), self.rules_version)

    def arrangement(self, seat: int) -> tuple[int, ...] | None:
        """``seat``'s submitted numbers; None while pending or hidden in this view."""
        return self.arrangements[seat] or None

    def has_submitted(self, seat: int) -> bool:
        return self.arrangements[seat] is not None


_FACTORIALS = [1]
for _k in range(1, STONES + 1):
    _FACTORIALS.append(_FACTORIALS[-1] * _k)


class ArrangementMoves(Sequence[Arrangement]):
    """Every arrangement of the pending ``seats`` in lexicographic order, computed on
    demand (``len`` is 16! per seat). Indexing unranks a permutation; ``in`` checks one
    arrangement directly."""

    __slots__ = ("seats",)

    def __init__(self, seats: tuple[int, ...]) -> None:
        self.seats = seats

    def __len__(self) -> int:
        return len(self.seats) * _FACTORIALS[STONES]

    @overload
    def __getitem__(self, index: int) -> Arrangement: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Arrangement]: ...

    def __getitem__(self, index: int | slice) -> Arrangement | Sequence[Arrangement]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("arrangement index out of range")
        seat_index, rank = divmod(index, _FACTORIALS[STONES])
        rest = list(range(1, STONES + 1))
        numbers = []
        for k in range(STONES - 1, -1, -1):
            digit, rank = divmod(rank, _FACTORIALS[k])
            numbers.append(rest.pop(digit))
        return Arrangement(self.seats[seat_index], tuple(numbers))

    def __contains__(self, item: object) -> bool:
        if not isinstance(item, Arrangement) or item.seat not in self.seats:
            return False
        return sorted(item.numbers) == list(range(1, STONES + 1))

    def __repr__(self) -> str:
        return f"<all {len(self)} arrangements of seats {list(self.seats)}>"


# --------------------------------------------------------------------------- construction


def _arranged(pair: Sequence[Sequence[int]], rules_version: str = RULES_VERSION
              ) -> QuerniPosition:
    cells = [0] * SIZE
    for seat in (0, 1):
        for cell, number in zip(START_CELLS[seat], pair[seat], strict=True):
            cells[cell] = seat * STONES + number
    return QuerniPosition(tuple(cells), 0, 0, rules_version)


_TOKEN = re.compile(r"([BP])([0-9]{1,2})|([0-9]{1,2})")
_QUIET = re.compile(r"[0-9]{1,2}")
_REMOVED = re.compile(r"([0-9]{1,2}),([0-9]{1,2})")


def _play_from_text(text: str, fields: list[str]) -> QuerniPosition:
    if len(fields) != 4:
        raise PositionError(detail("querni_fields"), text=text)
    board, side, quiet_text, removed_text = fields
    rows = board.split("/")
    if len(rows) != HEIGHT:
        raise PositionError(detail("fen_rank_count", ranks=HEIGHT, count=len(rows)),
                            text=text)
    cells = [0] * SIZE
    seen: set[int] = set()
    for r, row in enumerate(rows):
        y = HEIGHT - 1 - r
        x = 0
        for token in row.split(","):
            m = _TOKEN.fullmatch(token)
            if not m:
                raise PositionError(detail("querni_token", rank=y + 1, input=token), text=text)
            if m.group(3):
                gap = int(m.group(3))
                if gap < 1:
                    raise PositionError(detail("empty_run", rank=y + 1), text=text)
                x += gap
                continue
            seat = _STONE_LETTERS.index(m.group(1))
            number = int(m.group(2))
            if not 1 <= number <= STONES:
                raise PositionError(detail("not_a_stone_number", number=number, last=STONES),
                                    text=text)
            code = seat * STONES + number
            if code in seen:
                raise PositionError(detail("stone_twice", seat=SEAT_NAMES[seat], number=number),
                                    text=text)
            if x >= WIDTH:
                raise PositionError(detail("rank_cells", rank=y + 1, width=WIDTH), text=text)
            seen.add(code)
            cells[y * WIDTH + x] = code
            x += 1
        if x != WIDTH:
            raise PositionError(detail("rank_cells", rank=y + 1, width=WIDTH), text=text)
    if side not in ("b", "p"):
        raise PositionError(detail("side_letter", input=side, letters=("'b'", "'p'")), text=text)
    if not _QUIET.fullmatch(quiet_text) or int(quiet_text) > MOVE_LIMIT:
        raise PositionError(detail("quiet_count", input=quiet_text, limit=MOVE_LIMIT),
                            text=text)
    m = _REMOVED.fullmatch(removed_text)
    if not m:
        raise PositionError(detail("removed_counts_syntax", input=removed_text), text=text)
    position = QuerniPosition(tuple(cells), _SIDE_LETTERS.index(side), int(quiet_text))
    if (int(m.group(1)), int(m.group(2))) != position.removed_counts():
        raise PositionError(detail("removed_counts_disagree", input=removed_text,
                                   board="{},{}".format(*position.removed_counts())),
                            text=text)
    removed = position.removed_counts()
    if removed == (STONES, STONES):
        raise PositionError(detail("both_removed_all"), text=text)
    for seat in (0, 1):
        # only the mover's own removal empties a seat, and then the other seat is next
        if removed[seat] == STONES and position.turn == seat:
            raise PositionError(detail("no_stones_to_move", seat=SEAT_NAMES[seat]), text=text)
    return position


def _setup_from_text(text: str, fields: list[str]) -> QuerniSetupPosition:
    if len(fields) != 3:
        raise PositionError(detail("setup_text_fields"), text=text)
    both: list[tuple[int, ...] | None] = []
    for f in fields[1:]:
        if f == "-":
            both.append(None)
        elif f == "?":
            both.append(_HIDDEN)
        else:
            parts = f.split(",")
            if not all(_NUMBER.fullmatch(p) for p in parts):
                raise PositionError(detail("setup_arrangement_field", input=f), text=text)
            try:
                both.append(_check_numbers([int(p) for p in parts]))
            except RulesError as e:
                raise PositionError(e.detail, text=text) from None
    if both[0] is not None and both[1] is not None:
        raise PositionError(detail("both_submitted"), text=text)
    return QuerniSetupPosition((both[0], both[1]))


# --------------------------------------------------------------------------- notation

_REMOVAL = re.compile(r"r\s*([0-9]{1,3})\s*[-–—]\s*([0-9]{1,3})")


def _parse_turn_text(text: str) -> tuple[list[Point] | None, tuple[int, int] | None]:
    """Split turn text into its movement points and removal numbers (no legality yet)."""
    s = normalize(text)
    if s == "pass":
        return None, None
    at = s.find("r")
    movement_text, removal = s, None
    if at >= 0:
        movement_text = s[:at]
        m = _REMOVAL.fullmatch(s[at:].strip())
        if not m:
            raise NotationError(detail("removal_syntax", input=text.strip()), text=text)
        low, high = int(m.group(1)), int(m.group(2))
        if not (1 <= low <= STONES and 1 <= high <= STONES):
            raise NotationError(detail("stone_numbers", last=STONES), text=text)
        removal = (low, high)
    points: list[Point] | None = None
    if movement_text.strip():
        written = tokenize(movement_text).points
        points = [parse_point(p, width=WIDTH, height=HEIGHT) for p in written]
    elif removal is None:
        raise NotationError(detail("querni_turn_syntax", input=text.strip()), text=text)
    return points, removal


class QuerniVariant(Variant[QuerniPosition | QuerniSetupPosition, QuerniMove]):
    """Querni (RULES §5): options ``setup`` (random, choose), ``seed``, ``arrangement``."""

    key: ClassVar[str] = "querni"
    removal_word: ClassVar[str] = "removed"
    name: ClassVar[str] = "Querni"
    board_size: ClassVar[tuple[int, int]] = (WIDTH, HEIGHT)
    options: ClassVar[Mapping[str, tuple[object, ...]]] = {
        "setup": ("random", "choose"),
        "seed": (),
        "arrangement": (),
    }
    example_options: ClassVar[tuple[Mapping[str, object], ...]] = (
        {"seed": 1},
        {"arrangement": ((3, 1, 2, 9, 8, 7, 4, 5, 10, 11, 6, 16, 15, 12, 13, 14),
                         (14, 13, 12, 1, 2, 3, 16, 15, 4, 5, 11, 10, 9, 6, 7, 8))},
    )
    rules_version: ClassVar[str] = RULES_VERSION
    recorded_versions: ClassVar[tuple[str, ...]] = RULES_VERSIONS

    def start(self, **options: Any) -> QuerniPosition | QuerniSetupPosition:
        return self._start(RULES_VERSION, options)

    def start_recorded(self, rules_version: str, **options: Any
                       ) -> QuerniPosition | QuerniSetupPosition:
        """Version 1 (matches stored before issue 18) keeps the voluntary pass and jump
        sequences that jump a cell twice; its positions carry that version.

        >>> import rules
        >>> v = rules.variant("querni")
        >>> old = v.start_recorded("1", seed=3)
        >>> old.rules_version, old.to_text() == v.start(seed=3).to_text()
        ('1', True)
        """
        if rules_version not in RULES_VERSIONS:
            raise OptionError(detail("unknown_rules_version", game=self.key,
                                     version=str(rules_version), versions=RULES_VERSIONS))
        return self._start(rules_version, options)

    def _start(self, rules_version: str, options: Mapping[str, Any]
               ) -> QuerniPosition | QuerniSetupPosition:
        opts = self.check_options(options)
        seed = opts.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError(detail("seed_not_integer", game=self.key, value=repr(seed)))
        if opts["setup"] == "choose":
            if "arrangement" in opts:
                raise OptionError(detail("arrangement_with_choose", game=self.key))
            return QuerniSetupPosition(rules_version=rules_version)
        if "arrangement" in opts:
            return _arranged(_arrangement_option(opts["arrangement"]), rules_version)
        return _arranged(deal(seed), rules_version)

    def from_text(self, text: str) -> QuerniPosition | QuerniSetupPosition:
        if not isinstance(text, str):
            raise PositionError(detail("position_not_text"), text=repr(text))
        fields = text.split()
        if not fields:
            raise PositionError(detail("position_empty"), text=text)
        if fields[0] == "setup":
            return _setup_from_text(text, fields)
        return _play_from_text(text, fields)

    def format_move(self, position: QuerniPosition | QuerniSetupPosition,
                    move: QuerniMove) -> str:
        if isinstance(move, Arrangement):
            return " ".join(map(str, move.numbers))
        if not isinstance(move, Turn):
            raise TypeError(f"{move!r} is not a Querni move")
        parts = []
        if move.movement:
            parts.append(f"{point_name(*move.movement[0])}-{point_name(*move.movement[1])}")
        if move.removal:
            parts.append(f"r{move.removal[0]}-{move.removal[1]}")
        return " ".join(parts) or "pass"

    def parse_move(self, position: QuerniPosition | QuerniSetupPosition,
                   text: str) -> QuerniMove:
        """A turn (``c2-e4``, ``c2-e4-g2``, ``r3-5``, ``c2-e4 r3-5``, ``pass``), checked
        against the position without listing every legal turn; in a setup position the
        arrangement of the single seat still pending (see the module docstring)."""
        if isinstance(position, QuerniSetupPosition):
            pending = sorted(position.to_move)
            if len(pending) != 1:
                raise IllegalMoveError(detail("whose_arrangement"), text=text)
            return self.parse_arrangement(position, pending[0], text)
        p = _play_position(position)
        points, removal = _parse_turn_text(text)
        if p.outcome():
            raise IllegalMoveError(detail("game_over"), text=text)
        move = Turn(None if points is None else (points[0], points[-1]), removal,
                    tuple(points) if points and len(points) > 2 else ())
        try:
            p._check(move)
        except IllegalMoveError as e:
            raise IllegalMoveError(e.detail, text=text) from None
        return move

    def parse_arrangement(self, position: QuerniPosition | QuerniSetupPosition, seat: int,
                          text: str) -> Arrangement:
        """``seat``'s arrangement ``'5 1 9 ... 12'`` (16 numbers in start-cell order)."""
        if not isinstance(position, QuerniSetupPosition):
            raise IllegalMoveError(detail("setup_over"), text=text)
        if seat not in (0, 1):
            raise IllegalMoveError(detail("no_such_seat", number=seat, game="querni"), text=text)
        if position.has_submitted(seat):
            raise IllegalMoveError(detail("already_submitted", seat=SEAT_NAMES[seat]),
                                   text=text)
        return Arrangement(seat, parse_numbers(text))

    def move_marks(self, position: QuerniPosition | QuerniSetupPosition,
                   move: QuerniMove) -> MoveMarks:
        """The movement's path (the typed jump path, else a shortest one) and the cells of
        the removed stones (after the movement). Nothing for a setup submission."""
        if isinstance(move, Arrangement) or not isinstance(move, Turn):
            return MoveMarks(())
        p = _play_position(position)
        cells = p.cells
        path: tuple[Point, ...] = ()
        where = p._where(p.turn)
        if move.movement:
            start, end = (_cell_index(q) for q in move.movement)
            if move.path:
                path = move.path
            elif _ADJACENT[start] >> end & 1:
                path = move.movement
            else:
                cell_path = _jump_path(cells, start, end, once=p.rules_version != "1")
                path = (tuple(POINTS[c] for c in cell_path) if cell_path
                        else move.movement)
            if cells[start]:
                where[_number_of(cells[start])] = end
        removed: tuple[Point, ...] = ()
        if move.removal:
            removed = tuple(POINTS[where[n]] for n in range(move.removal[0],
                                                             move.removal[1] + 1)
                            if where[n] >= 0)
        return MoveMarks(path, (), removed)

    def seat_name(self, seat: int, seat_count: int = 2) -> str:
        return SEAT_NAMES[seat]


def _play_position(position: Position) -> QuerniPosition:
    if not isinstance(position, QuerniPosition):
        raise IllegalMoveError(detail("still_in_setup"))
    return position


def _arrangement_option(value: object) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if isinstance(value, str | bytes) or not isinstance(value, Sequence) or len(value) != 2:
        raise OptionError(detail("arrangement_pair", game="querni"))
    result: list[tuple[int, ...]] = []
    for seat, numbers in enumerate(value):
        if (isinstance(numbers, str | bytes) or not isinstance(numbers, Sequence)
                or not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers)):
            raise OptionError(detail("arrangement_integers", game="querni",
                                     seat=SEAT_NAMES[seat], count=STONES))
        try:
            result.append(_check_numbers(list(numbers)))
        except RulesError as e:
            raise OptionError(detail("seat_arrangement", game="querni", seat=SEAT_NAMES[seat],
                                     reason=e.detail)) from None
    return result[0], result[1]


QUERNI = register(QuerniVariant())
