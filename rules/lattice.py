"""The point-and-line lattice of the Alquerque boards, shared by Alquerque (5×5) and
Alquerque grande (7×7): geometry tables, the move value, jump-sequence search, notation.

Points are numbered rank-major, ``index = y * size + x`` (``a1 = 0, b1 = 1, …``), so
"the first point in rank-major order" is simply the smallest index. Every point is joined
to its orthogonal neighbours; diagonal lines run only through points with ``x + y`` even.

>>> grid = Lattice(5)
>>> [grid.names[j] for j in grid.steps[grid.index["b2"]]]
['c2', 'c3', 'b3', 'a3', 'a2', 'a1', 'b1', 'c1']
>>> [grid.names[j] for j in grid.steps[grid.index["b1"]]]
['c1', 'b2', 'a1']
>>> grid.jump_over(grid.index["a1"], grid.index["c3"]) == grid.index["b2"]
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import compress
from typing import NamedTuple

from rules.core import Detail, IllegalMoveError, MoveMarks, PathMove, Point, PositionError, detail
from rules.lattice_moves import JumpTable, StepMoves, StepTable, capture_search
from rules.notation import parse_point, point_name, resolve, tokenize

DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
"""The eight directions ``(dx, dy)``, counter-clockwise from east; indices into tables."""

Move = PathMove
"""A move on a lattice board (:class:`rules.core.PathMove`), point values being rank-major
indices (see the module docstring). Two capture paths with the same start, end and
captured set are one move (RULES §6); the move keeps the path whose string is
alphabetically smallest, so equal moves compare equal.

>>> m = Move((0, 12, 4), (6, 8))
>>> m.start, m.end, m.is_capture, Lattice(5).path_text(m.path, m.is_capture)
(0, 4, True, 'a1xc3xe1')
"""


class Lattice:
    """Precomputed tables of one board size (5 or 7)."""

    __slots__ = ("_jump", "_neighbour", "bits", "count", "file_major", "index",
                 "jumps", "names", "points", "size", "step_moves", "steps")

    def __init__(self, size: int) -> None:
        self.size = size
        self.count = size * size
        self.points: tuple[Point, ...] = tuple((i % size, i // size) for i in range(self.count))
        self.names: tuple[str, ...] = tuple(point_name(x, y) for x, y in self.points)
        self.index: dict[str, int] = {name: i for i, name in enumerate(self.names)}
        self.file_major: tuple[int, ...] = tuple(x * size + y for x, y in self.points)
        """Per point, its place when points are sorted by name (``a1, a2, …, b1, …``)."""
        self.bits: tuple[int, ...] = tuple(1 << i for i in range(self.count))
        """Per point, its bit in a board mask (``1 << index``)."""
        neighbour: list[list[int]] = []
        jump: list[list[tuple[int, int] | None]] = []
        for x, y in self.points:
            near: list[int] = []
            far: list[tuple[int, int] | None] = []
            for dx, dy in DIRECTIONS:
                if dx and dy and (x + y) % 2:
                    near.append(-1)  # no diagonal line through this point
                    far.append(None)
                    continue
                near.append(self._at(x + dx, y + dy))
                over, land = self._at(x + dx, y + dy), self._at(x + 2 * dx, y + 2 * dy)
                far.append((over, land) if land >= 0 else None)
            neighbour.append(near)
            jump.append(far)
        self._neighbour = tuple(tuple(row) for row in neighbour)
        self._jump = tuple(tuple(row) for row in jump)
        every = range(len(DIRECTIONS))
        self.steps: StepTable = self.steps_in(every)
        self.jumps: JumpTable = self.jumps_in(every)
        # every step's move value, made once: move generation runs at every search node
        self.step_moves: StepMoves = tuple({end: Move((start, end)) for end in row}
                                 for start, row in enumerate(self.steps))

    def _at(self, x: int, y: int) -> int:
        return y * self.size + x if 0 <= x < self.size and 0 <= y < self.size else -1

    def steps_in(self, directions: Iterable[int]) -> StepTable:
        """The step table restricted to some direction indices."""
        dirs = tuple(directions)
        return tuple(tuple(row[d] for d in dirs if row[d] >= 0) for row in self._neighbour)

    def jumps_in(self, directions: Iterable[int]) -> JumpTable:
        """The jump table restricted to some direction indices."""
        dirs = tuple(directions)
        # rows sorted by the landing point's name: the capture search relies on it
        return tuple(tuple(sorted(((j[0], j[1], 1 << j[0], 1 << j[1]) for d in dirs
                                   if (j := row[d]) is not None),
                                  key=lambda j: self.file_major[j[1]]))
                     for row in self._jump)

    def joined(self, a: int, b: int) -> bool:
        """Whether ``a`` and ``b`` are neighbours on a line."""
        return b in self._neighbour[a]

    def direction(self, a: int, b: int) -> int:
        """The direction index of the line step or jump from ``a`` to ``b`` (-1 if none)."""
        for d in range(len(DIRECTIONS)):
            j = self._jump[a][d]
            if self._neighbour[a][d] == b or (j is not None and j[1] == b):
                return d
        return -1

    def jump_over(self, a: int, b: int) -> int:
        """The point jumped when going from ``a`` to ``b`` in one jump (-1 if no jump)."""
        for j in self._jump[a]:
            if j is not None and j[1] == b:
                return j[0]
        return -1

    def read_points(self, text: str) -> tuple[tuple[int, ...], bool]:
        """Point indices written in move text, and whether it was written as a capture.

        Raises NotationError for text that is not a sequence of points of this board.
        """
        written = tokenize(text)
        pts = tuple(self._index_of(parse_point(tok, width=self.size, height=self.size))
                    for tok in written.points)
        return pts, written.is_capture

    def _index_of(self, point: Point) -> int:
        return point[1] * self.size + point[0]

    def path_text(self, path: Sequence[int], capture: bool) -> str:
        """``c2-c3`` for a step, ``a1xc3xe1`` for a capture."""
        return ("x" if capture else "-").join(self.names[i] for i in path)

    def move_text(self, move: Move) -> str:
        """The canonical string of a move (its kept path): ``c2-c3``, ``a1xc3xe1``."""
        return self.path_text(move[0], bool(move[1]))

    def marks(self, move: Move, removed: tuple[Point, ...] = ()) -> MoveMarks:
        """The points ``move`` visits and captures, plus any ``removed`` otherwise."""
        return MoveMarks(tuple(self.points[i] for i in move[0]),
                         tuple(self.points[i] for i in move[1]), removed)


class MoveTable:
    """The legal moves of one side in one position, built by the game.

    ``moves`` maps each move to a note (for Alquerque grande: 1 when the capture could go
    on, i.e. a stopped sequence). :meth:`search` adds capture sequences, :meth:`add_step`
    steps; :meth:`lookup` finds the move any written path names, canonical or not.

    ``cells`` holds a value per point (0 empty); ``enemy[value]`` says which pieces may
    be jumped; the first jump of a sequence uses the ``first`` table of its piece.
    """

    __slots__ = ("_avoid", "_first", "_masks", "cells", "enemy", "grid", "later", "moves")

    def __init__(self, grid: Lattice, cells: list[int], enemy: Sequence[bool],
                 later: JumpTable) -> None:
        self.grid = grid
        self.cells = cells
        self.enemy = enemy
        self.later = later
        self.moves: dict[Move, int] = {}
        self._first: dict[int, JumpTable] = {}
        self._avoid: dict[int, int] = {}
        self._masks: tuple[int, int] | None = None  # bits of enemy / occupied points

    def add_step(self, start: int, end: int) -> None:
        self.moves[self.grid.step_moves[start][end]] = 0

    def _board_masks(self) -> tuple[int, int]:
        """The bits of the points holding enemies, and of the occupied points."""
        if self._masks is None:
            bits, cells = self.grid.bits, self.cells
            self._masks = (sum(compress(bits, map(self.enemy.__getitem__, cells))),
                           sum(compress(bits, cells)))
        return self._masks

    def search(self, start: int, first: JumpTable, avoid: int = -1, *,
               prefixes: bool) -> int:
        """Add the capture moves of the piece on ``start``; return the most pieces one of
        its sequences takes (0: it cannot capture); see
        :func:`rules.lattice_moves.capture_search` (no jump lands on ``avoid``; with
        ``prefixes`` every sequence of one jump or more is a move, else only complete
        ones)."""
        enemies, occupied = self._board_masks()
        self._first[start] = first
        self._avoid[start] = avoid
        return capture_search(self.moves, enemies, occupied, start, first, self.later, avoid,
                              prefixes)

    def adopt(self, moves: dict[Move, int], first: JumpTable,
              memory: Sequence[int] | None = None) -> None:
        """Take ``moves`` (as :meth:`search` and :meth:`add_step` would have made them,
        made by a generator of :mod:`rules.lattice_moves`); every capture's piece was
        searched with the ``first`` jumps, avoiding its ``memory`` point (None: none)."""
        self.moves = moves
        for move in moves:
            if move[1]:
                start = move[0][0]
                self._first[start] = first
                self._avoid[start] = memory[start] if memory is not None else -1

    def lookup(self, path: tuple[int, ...]) -> Move | None:
        """The legal move one of whose paths is ``path``, or None."""
        if len(path) == 2:
            step = Move(path)
            if step in self.moves:
                return step
        start = path[0]
        first = self._first.get(start)
        if first is None:
            return None
        cells, avoid = self.cells, self._avoid[start]
        mask, at, table = 0, start, first
        for land in path[1:]:
            over = next((j[0] for j in table[at] if j[1] == land), -1)
            if (over < 0 or land == avoid or (mask >> over) & 1 or not self.enemy[cells[over]]
                    or (cells[land] and land != start and not (mask >> land) & 1)):
                return None
            mask |= 1 << over
            at, table = land, self.later
        for move in self.moves:
            if move[0][0] == start and move[0][-1] == at and move[1] and sum(
                    1 << c for c in move[1]) == mask:
                return move
        return None


class Written(NamedTuple):
    """Move text read against a position's legal moves (see :func:`match_move`)."""

    points: tuple[int, ...]
    as_capture: bool
    exact: Move | None
    candidates: list[Move]


def match_move(grid: Lattice, text: str, table: MoveTable) -> Written:
    """Read ``text`` against legal moves: the move whose path (any of its paths) is
    written in full, else the captures whose start and end it names (an abbreviated
    capture ``start x end``). Raises NotationError for malformed text.
    """
    pts, as_capture = grid.read_points(text)
    exact = table.lookup(pts)
    if exact is not None or len(pts) != 2:
        return Written(pts, as_capture, exact, [])
    start, end = pts
    return Written(pts, as_capture, None, [m for m in table.moves if m.captured and
                                             m.path[0] == start and m.path[-1] == end])


class Explainer:
    """Why written points are not a legal move (for error messages), on a lattice board.

    :meth:`explain` walks the written path through the checks both Alquerque games share
    (whose piece stands on the start, lines, jumps, occupied points); a game subclasses
    this and says what differs through the hooks, called in that walk's order.
    ``cells`` holds a value per point (0 empty), ``me`` the mover's value.
    """

    piece = "piece"
    """What the game calls a piece in messages ("stone" in Alquerque grande), a ``piece``
    param of the details (see :data:`rules.core.Param`)."""

    def __init__(self, grid: Lattice, cells: Sequence[int], me: int) -> None:
        self.grid = grid
        self.cells = cells
        self.me = me

    def explain(self, points: Sequence[int], as_capture: bool = False) -> Detail:
        """The reason, from the first check the written ``points`` fail."""
        grid, names, cells = self.grid, self.grid.names, self.cells
        start = points[0]
        if not cells[start]:
            return detail("empty_point", point=names[start], piece=self.piece)
        if cells[start] != self.me:
            return self.not_yours(start, cells[start])
        if len(points) == 2 and grid.jump_over(start, points[1]) < 0:
            end = points[1]
            if as_capture and not grid.joined(start, end):
                return detail("no_capture_to", start=names[start], end=names[end])
            if not grid.joined(start, end):
                return detail("not_on_a_line", start=names[start], end=names[end])
            if cells[end]:
                return detail("occupied", point=names[end])
            return self.bad_step(start, end)
        board = list(cells)
        board[start] = 0
        at = start
        for k, land in enumerate(points[1:]):
            over = grid.jump_over(at, land)
            if over < 0:
                if len(points) == 2:
                    return detail("no_capture_to", start=names[start], end=names[land])
                return detail("not_a_jump_on_a_line", start=names[at], end=names[land])
            if not board[over]:
                return detail("nothing_to_jump", point=names[over], piece=self.piece)
            why = self.not_jumpable(over, board[over])
            if why:
                return why
            if board[land]:
                return detail("occupied", point=names[land])
            why = self.bad_jump(start, k, at, land)
            if why:
                return why
            board[over] = 0
            at = land
        return self.stopped(points, at, board)

    # the hooks: what the games do differently
    def not_yours(self, start: int, value: int) -> Detail:
        """The start holds a piece of value ``value``, not the mover's."""
        return detail("not_your_piece", point=self.grid.names[start], piece=self.piece)

    def not_jumpable(self, over: int, value: int) -> Detail | None:
        """Why the piece of value ``value`` on ``over`` may not be jumped, or None."""
        if value == self.me:
            return detail("jumps_own_piece", point=self.grid.names[over], piece=self.piece)
        return None

    def bad_step(self, start: int, end: int) -> Detail:
        """Why a step to an empty neighbour is not legal."""
        names = self.grid.names
        return detail("not_legal", move=f"{names[start]}-{names[end]}")

    def bad_jump(self, start: int, k: int, at: int, land: int) -> Detail | None:
        """Why the ``k``-th jump (from 0), from ``at`` to the empty ``land``, is not
        allowed to the piece that started on ``start``, or None."""
        return None

    def stopped(self, points: Sequence[int], at: int, board: Sequence[int]) -> Detail:
        """Why a sequence of allowed jumps ending on ``at`` (``board`` holding what is
        left once they are made) is still not a legal move."""
        return detail("not_legal", move="x".join(self.grid.names[i] for i in points))


def parse_move(grid: Lattice, text: str, table: MoveTable, explainer: Explainer, *,
               over: bool) -> Move:
    """The legal move of ``table`` that ``text`` names, read as both Alquerque games read
    moves: any full path of a legal move, or a capture's start and end when that leaves
    one move. Raises NotationError (malformed text), IllegalMoveError ("the game is over"
    when ``over``, else ``explainer``'s reason) or AmbiguousMoveError.
    """
    written = match_move(grid, text, table)
    if over:
        raise IllegalMoveError(detail("game_over"), text=text)
    if written.exact is not None:
        return written.exact
    found = resolve(text, written.candidates, matches=lambda m: True,
                    format_move=grid.move_text)
    if found is not None:
        return found
    raise IllegalMoveError(explainer.explain(written.points, written.as_capture), text=text)


def write_placement(grid: Lattice, cells: Sequence[int], letters: str) -> str:
    """``WW.B/...``: top rank first, ``letters[v - 1]`` for cell value ``v``, ``.`` empty."""
    n = grid.size
    return "/".join("".join(letters[v - 1] if v else "." for v in cells[y * n:(y + 1) * n])
                    for y in reversed(range(n)))


def read_placement(grid: Lattice, placement: str, letters: str, text: str) -> list[int]:
    """Cell values from :func:`write_placement`'s form; raises PositionError."""
    n = grid.size
    ranks = placement.split("/")
    if len(ranks) != n or any(len(r) != n for r in ranks):
        raise PositionError(detail("placement_ranks", count=n), text=text)
    cells = [0] * grid.count
    for row, rank in enumerate(ranks):
        for x, ch in enumerate(rank):
            if ch == ".":
                continue
            if ch not in letters:
                raise PositionError(detail("not_a_piece_letter", input=ch,
                                           letters=(*letters, ".")), text=text)
            cells[(n - 1 - row) * n + x] = letters.index(ch) + 1
    return cells
