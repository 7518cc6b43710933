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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, overload

from rules.core import (
    N_,
    BoardFacts,
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
    register,
)
from rules.notation import normalize, parse_point, point_name, tokenize
from rules.querni_board import (
    ADJACENT,
    HEIGHT,
    MARKED_CELLS,
    NAMES,
    PIECE_OF_CODE,
    POINTS,
    SIZE,
    START_CELLS,
    STONES,
    WIDTH,
    can_move,
    cells_of,
    deal,
    destination_mask,
    has_three_in_a_row,
    jump_path,
    link_mask,
    number_of,
    runs_of_links,
    seat_of,
    splitmix64,
)
from rules.querni_moves import (
    NUMBER,
    PASS,
    Arrangement,
    QuerniMove,
    Turn,
    cell_index,
    check_jump_path,
    check_numbers,
    check_removal,
    jumped_twice,
    movement_removal_turn,
    movement_turn,
    parse_numbers,
    removal_turn,
    stone_cells,
)

__all__ = [
    "MARKED_CELLS", "MOVE_LIMIT", "PASS", "QUERNI", "RULES_VERSION", "RULES_VERSIONS",
    "SEAT_NAMES", "START_CELLS", "Arrangement", "ArrangementMoves", "QuerniMove",
    "QuerniPosition", "QuerniSetupPosition", "QuerniVariant", "Turn", "deal",
    "parse_numbers", "splitmix64",
]
"""The game's public names: the positions and variant here, the moves
(:mod:`rules.querni_moves`) and the board's facts (:mod:`rules.querni_board`)."""

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
            # seat_of and number_of inlined: this runs at every node of a search
            if code > STONES:
                present[1] |= 1 << (code - STONES)
            elif code:
                present[0] |= 1 << code
        for seat in (0, 1):
            if not present[seat]:
                return Outcome.win(seat, seats=2, reason="all-removed")
        if not (has_three_in_a_row(present[0]) or has_three_in_a_row(present[1])):
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
        links = link_mask(where)
        turns = [removal_turn(r) for r in runs_of_links(links)]
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
            for end in cells_of(destination_mask(cells, start, once=once)):
                turn = movement_turn(start, end)
                append(turn)
                after = base
                if below >= 0 and ADJACENT[end] >> below & 1:
                    after |= 1 << (code - 1)
                if above >= 0 and ADJACENT[end] >> above & 1:
                    after |= 1 << code
                key = (start * SIZE + end) << 10
                for r in runs_of_links(after):
                    append(movement_removal_turn(key | r[0] << 5 | r[1], turn, r))
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
        if runs_of_links(link_mask(self._where(self.turn))):
            return True
        low = self.turn * STONES
        return any(low < code <= low + STONES and can_move(cells, i)
                   for i, code in enumerate(cells))

    def play(self, move: QuerniMove) -> QuerniPosition:
        if not isinstance(move, Turn):
            raise IllegalMoveError(detail("not_a_move_value", value=repr(move), game="querni"))
        if self._outcome is not None:
            raise IllegalMoveError(detail("game_over"))
        where = self._check(move)
        cells = list(self.cells)
        if move.movement:
            start, end = (cell_index(q) for q in move.movement)
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
                tokens.append(f"{_STONE_LETTERS[seat_of(code)]}{number_of(code)}")
            if gap:
                tokens.append(str(gap))
            rows.append(",".join(tokens))
        removed = self.removed_counts()
        return (f"{'/'.join(rows)} {_SIDE_LETTERS[self.turn]} {self.quiet} "
                f"{removed[0]},{removed[1]}")

    def pieces(self) -> Mapping[Point, Piece]:
        piece_of = PIECE_OF_CODE
        return {POINTS[i]: piece_of[c] for i, c in enumerate(self.cells) if c}

    def removed_counts(self) -> tuple[int, int]:
        """How many stones each seat has taken off the board."""
        on_board = [0, 0]
        for code in self.cells:
            if code:
                on_board[seat_of(code)] += 1
        return STONES - on_board[0], STONES - on_board[1]

    def stone_at(self, point: Point) -> tuple[int, int] | None:
        """``(seat, number)`` of the stone on ``point``, or None."""
        code = self.cells[point[1] * WIDTH + point[0]]
        return (seat_of(code), number_of(code)) if code else None

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
        return runs_of_links(link_mask(self._where(self.turn)))

    def reachable(self, point: Point) -> tuple[Point, ...]:
        """Every cell the stone on ``point`` can move to (steps and jump sequence ends),
        in cell order; empty when the cell is empty."""
        start = point[1] * WIDTH + point[0]
        if not self.cells[start]:
            return ()
        return tuple(POINTS[c] for c in cells_of(
            destination_mask(self.cells, start, once=self.rules_version != "1")))

    # ---------------------------------------------------------------- internals

    def _where(self, seat: int) -> list[int]:
        return stone_cells(self.cells, seat)

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
            start, end = cell_index(start_point), cell_index(end_point)
            self._check_movement(start, end, move.path)
            moved = start, end
        if not move.removal:
            return []
        where = self._where(self.turn)
        if moved is not None:
            start, end = moved
            where[number_of(self.cells[start])] = end
        check_removal(where, *move.removal)
        return where

    def _check_movement(self, start: int, end: int, path: Sequence[Point]) -> None:
        cells = self.cells
        code = cells[start]
        if not code:
            raise IllegalMoveError(detail("empty_point", point=NAMES[start], piece="stone"))
        if seat_of(code) != self.turn:
            raise IllegalMoveError(detail("not_your_piece", point=NAMES[start], piece="stone"))
        if path and (cell_index(path[0]), cell_index(path[-1])) != (start, end):
            raise IllegalMoveError(detail("path_ends"))
        once = self.rules_version != "1"
        if len(path) > 2:
            check_jump_path(cells, [cell_index(p) for p in path], once=once)
            return
        if start == end:
            raise IllegalMoveError(detail("null_move", point=NAMES[start]))
        if cells[end]:
            raise IllegalMoveError(detail("occupied", point=NAMES[end]))
        if destination_mask(cells, start, once=once) >> end & 1:
            return
        twice = jump_path(cells, start, end, once=False) if once else None
        if twice is not None:
            over = jumped_twice(twice)
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
            numbers = check_numbers(move.numbers)
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

    def setup_cells(self, seat: int) -> tuple[Point, ...]:
        """``seat``'s start cells in arrangement order (RULES §5)."""
        if not 0 <= seat < len(START_CELLS):
            return ()
        return tuple(POINTS[i] for i in START_CELLS[seat])


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
            if not all(NUMBER.fullmatch(p) for p in parts):
                raise PositionError(detail("setup_arrangement_field", input=f), text=text)
            try:
                both.append(check_numbers([int(p) for p in parts]))
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
    worth_unit: ClassVar[str] = "stone"
    removal_word: ClassVar[str] = "removed"
    name: ClassVar[str] = N_("Querni")
    summary: ClassVar[str] = N_(
        "**Querni** on a 10×7 board: each player has stones numbered 1-16. A turn is a "
        "step or a jump sequence (jumped stones stay), a chain removal (three or more own "
        "stones with consecutive numbers, each next to the one before, leave the board), "
        "or a step followed by a removal. A jump sequence never passes over the same cell "
        "twice. You pass only when you can neither move nor remove: Tablero then plays "
        "the pass for you at once and says so. Remove all 16 of your stones to win. "
        "In the `choose` setup both players first arrange their numbers in secret "
        "(`{setup}`).\n"
        "Moves: `c2-e4`, removal `r3-5`, both `c2-e4 r3-5`.")
    board_size: ClassVar[tuple[int, int]] = (WIDTH, HEIGHT)
    board_facts: ClassVar[BoardFacts] = BoardFacts(
        "cells", "numbered", 0.84, kinds=("8", "16", ""), marked=MARKED_CELLS,
        areas=tuple((seat, tuple(sorted(POINTS[i] for i in cells)))
                    for seat, cells in enumerate(START_CELLS)))
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
            start, end = (cell_index(q) for q in move.movement)
            if move.path:
                path = move.path
            elif ADJACENT[start] >> end & 1:
                path = move.movement
            else:
                cell_path = jump_path(cells, start, end, once=p.rules_version != "1")
                path = (tuple(POINTS[c] for c in cell_path) if cell_path
                        else move.movement)
            if cells[start]:
                where[number_of(cells[start])] = end
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
            result.append(check_numbers(list(numbers)))
        except RulesError as e:
            raise OptionError(detail("seat_arrangement", game="querni", seat=SEAT_NAMES[seat],
                                     reason=e.detail)) from None
    return result[0], result[1]


QUERNI = register(QuerniVariant())
