"""Alquerque (key ``alquerque``), BrainKing rules: RULES.md §1.

Two players on the 5×5 lattice (:mod:`rules.lattice`), twelve pieces each; White
(seat 0) moves first towards rank 5, Black towards rank 1. Pieces step forward,
diagonally forward or sideways; a piece on the far rank cannot step; capturing is
compulsory, the first jump goes in a stepping direction, later jumps any way, and a
sequence goes on while it can. Every piece remembers where its own last move started
and may never step or jump onto that point (the no-return memory). The side to move loses
when it has no pieces (outcome reason ``no-pieces``) or no legal move (``no-moves``).

Moves are :class:`rules.lattice.Move` values (points as rank-major indices). Positions
offer, besides the Position API (with :meth:`captured_counts`): ``memories`` (point ->
where its piece's last move started) and ``must_capture``.

Position text, one line of three space-separated fields::

    BBBBB/BBBBB/BB.WW/WWWWW/WWWWW w -

1. placement, rank 5 first, files a–e left to right: ``W`` White, ``B`` Black,
   ``.`` empty; ranks separated by ``/``;
2. the side to move, ``w`` or ``b`` (kept after the end: the side that has lost);
3. the no-return memories, ``-`` if none, else ``from>to`` entries joined by ``,`` in
   rank-major order of ``to``: the piece now on ``to`` made its last move from ``from``
   (``c2>c4,d5>d4``). A piece that never moved has no entry.

>>> import rules
>>> v = rules.variant("alquerque")
>>> p = v.start()
>>> sorted(v.format_move(p, m) for m in p.legal_moves())
['b2-c3', 'c2-c3', 'd2-c3', 'd3-c3']
>>> p = p.play(v.parse_move(p, "d3-c3"))
>>> p.to_text()
'BBBBB/BBBBB/BBW.W/WWWWW/WWWWW b d3>c3'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple, cast

from rules.core import (
    N_,
    VARIANTS,
    BoardFacts,
    Detail,
    IllegalMoveError,
    MoveMarks,
    Outcome,
    Piece,
    Point,
    Position,
    PositionError,
    Variant,
    detail,
    register,
)
from rules.lattice import (
    DIRECTIONS,
    Explainer,
    Lattice,
    Move,
    MoveTable,
    parse_move,
    read_placement,
    write_placement,
)
from rules.lattice_moves import JumpTable, StepTable, original_moves

GRID = Lattice(5)
PIECES_EACH = 12
LETTERS = "WB"
STONES: tuple[Piece, ...] = tuple(Piece(seat, "stone") for seat in range(4))
"""Each seat's stone as ``pieces()`` shows it, made once: ``pieces()`` runs at
every node of an engine search."""
SEAT_NAMES = ("White", "Black")
FORWARD = (1, -1)  # dy of a forward move, per seat
ENEMY = ((False, False, True), (False, True, False))  # indexed by cell value, per seat


def _stepping_directions(seat: int) -> tuple[int, ...]:
    return tuple(d for d, (_, dy) in enumerate(DIRECTIONS) if dy in (0, FORWARD[seat]))


STEPPING = tuple(_stepping_directions(seat) for seat in (0, 1))


class Board(NamedTuple):
    """A board the original Alquerque rules (RULES §1) are played on: the 5×5 board of
    ``alquerque`` or the 7×7 of ``alquerque-grande`` with two players (RULES §2.5).
    Built by :func:`make_board`; ``key`` names the variant its positions belong to."""

    key: str
    grid: Lattice
    start: tuple[int, ...]
    pieces_each: int
    far_rank: tuple[int, int]
    """The opponent's back rank (a ``y``), per seat."""
    steps: tuple[StepTable, StepTable]
    first_jumps: tuple[JumpTable, JumpTable]


def make_board(key: str, grid: Lattice, start: tuple[int, ...]) -> Board:
    """The tables of the original rules on ``grid`` with ``start`` (0 empty, 1 White,
    2 Black per point): stepping directions per seat, the far rank where a piece makes
    no step, the first jump's directions."""
    far = (grid.size - 1, 0)
    # A piece on the far rank makes no step (RULES §1 rule 2): its step table row is empty.
    steps = tuple(
        tuple(() if grid.points[i][1] == far[seat] else row
              for i, row in enumerate(grid.steps_in(STEPPING[seat])))
        for seat in (0, 1))
    first = tuple(grid.jumps_in(STEPPING[seat]) for seat in (0, 1))
    return Board(key, grid, start, start.count(1), far, (steps[0], steps[1]),
                 (first[0], first[1]))


def _start_cells() -> tuple[int, ...]:
    cells = [0] * GRID.count
    for i, (x, y) in enumerate(GRID.points):
        if y < 2 or (y == 2 and x >= 3):
            cells[i] = 1
        elif y > 2 or x <= 1:
            cells[i] = 2
    return tuple(cells)


BOARD = make_board("alquerque", GRID, _start_cells())
"""Alquerque's own 5×5 board."""


@dataclass(frozen=True, slots=True)
class AlquerquePosition(Position[Move]):
    """A position of Alquerque (or of the original rules on Alquerque grande's board).

    ``cells`` holds one value per point in rank-major order (0 empty, 1 White, 2 Black);
    ``memory[i]`` is the point where the last move of the piece on ``i`` started
    (-1 if it never moved); ``turn`` is the seat whose turn it is; ``board`` the board
    (:data:`BOARD`, 5×5, unless it is Alquerque grande's 7×7). See :attr:`memories`
    and :meth:`captured_counts` for the same data by point name.
    """

    cells: tuple[int, ...]
    memory: tuple[int, ...]
    turn: int
    board: Board = field(default=BOARD, repr=False)
    _table: list[MoveTable] = field(default_factory=list, init=False, compare=False,
                                   repr=False)

    # ------------------------------------------------------------------ Position API
    @property
    def variant(self) -> Variant[Any, Move]:
        return cast("Variant[Any, Move]", VARIANTS[self.board.key])

    @property
    def to_move(self) -> frozenset[int]:
        return frozenset() if self.outcome() else frozenset([self.turn])

    def legal_moves(self) -> Sequence[Move]:
        return tuple(self._moves().moves)

    def play(self, move: Move) -> AlquerquePosition:
        try:
            legal = isinstance(move, tuple) and move in self._moves().moves
        except TypeError:  # unhashable junk is no move
            legal = False
        if not legal:
            raise IllegalMoveError(detail("not_legal", move=repr(move)))
        cells = list(self.cells)
        memory = list(self.memory)
        start, end = move[0][0], move[0][-1]
        piece = cells[start]
        cells[start] = 0
        memory[start] = -1
        for c in move[1]:
            cells[c] = 0
            memory[c] = -1
        cells[end] = piece
        memory[end] = start
        return AlquerquePosition(tuple(cells), tuple(memory), 1 - self.turn, self.board)

    def outcome(self) -> Outcome | None:
        if self._moves().moves:  # not legal_moves(): no tuple of them at every call
            return None
        reason = "no-moves" if (self.turn + 1) in self.cells else "no-pieces"
        return Outcome.win(1 - self.turn, seats=2, reason=reason)

    def pieces(self) -> Mapping[Point, Piece]:
        points = self.board.grid.points
        stones = STONES
        return {points[i]: stones[v - 1] for i, v in enumerate(self.cells) if v}

    def to_text(self) -> str:
        grid = self.board.grid
        memories = [f"{grid.names[m]}>{grid.names[i]}" for i, m in enumerate(self.memory)
                    if m >= 0]
        side = LETTERS[self.turn].lower()
        return f"{write_placement(grid, self.cells, LETTERS)} {side} {','.join(memories) or '-'}"

    # ------------------------------------------------------------------ extras
    @property
    def memories(self) -> dict[Point, Point]:
        """The no-return memory of every piece that has moved: its point -> the point
        its last move started from."""
        points = self.board.grid.points
        return {points[i]: points[m] for i, m in enumerate(self.memory) if m >= 0}

    def captured_counts(self) -> tuple[int, int]:
        """How many enemy pieces each seat has captured (12, or 24 on the 7×7 board,
        minus the enemy's pieces)."""
        each = self.board.pieces_each
        return (each - self.cells.count(2), each - self.cells.count(1))

    @property
    def rule_set(self) -> str | None:
        """On Alquerque grande's board (two players, ``rules=alquerque``) these are the
        original rules, one of that game's two rule sets; Alquerque itself has one."""
        if self.board is BOARD:
            return None
        return "the original Alquerque rules (no backward steps, compulsory captures)"

    @property
    def must_capture(self) -> bool:
        """Whether the side to move has a capture (and so may not step)."""
        return any(m[1] for m in self._moves().moves)

    def _moves(self) -> MoveTable:
        if self._table:
            return self._table[0]
        seat = self.turn
        cells = list(self.cells)
        enemy = ENEMY[seat]
        board = self.board
        grid = board.grid
        first = board.first_jumps[seat]
        table = MoveTable(grid, cells, enemy, grid.jumps)
        moves = original_moves(cells, self.memory, seat, enemy, first, grid.jumps,
                               board.steps[seat], grid.step_moves)
        table.adopt(moves, first, self.memory)
        self._table.append(table)
        return table

    def explain(self, points: Sequence[int], as_capture: bool = False) -> Detail:
        """Why the written points are not a legal move here (for error messages)."""
        return _Explainer(self).explain(points, as_capture)


class _Explainer(Explainer):
    """Alquerque's reasons: directions, the far rank, the no-return memory, the capture
    duty and a sequence that must go on."""

    def __init__(self, position: AlquerquePosition) -> None:
        super().__init__(position.board.grid, position.cells, position.turn + 1)
        self.position = position

    def bad_step(self, start: int, end: int) -> Detail:
        board, turn = self.position.board, self.position.turn
        grid = board.grid
        names = grid.names
        avoid = self.position.memory[start]
        if end not in grid.steps_in(STEPPING[turn])[start]:
            return detail("never_backwards")
        if end not in board.steps[turn][start]:
            return detail("far_rank_stuck", rank=board.far_rank[turn] + 1)
        if end == avoid:
            return detail("no_return", point=names[avoid])
        captures = sorted(grid.move_text(m) for m in self.position._moves().moves if m[1])
        if captures:
            return detail("must_capture", moves=tuple(captures[:4]))
        return super().bad_step(start, end)

    def bad_jump(self, start: int, k: int, at: int, land: int) -> Detail | None:
        if k == 0 and self.grid.direction(at, land) not in STEPPING[self.position.turn]:
            return detail("first_jump_direction")
        avoid = self.position.memory[start]
        if land == avoid:
            return detail("no_return", point=self.grid.names[avoid])
        return None

    def stopped(self, points: Sequence[int], at: int, board: Sequence[int]) -> Detail:
        names = self.grid.names
        avoid = self.position.memory[points[0]]
        onward = sorted(names[land] for over, land, _, _ in self.grid.jumps[at]
                        if land != avoid and ENEMY[self.position.turn][board[over]]
                        and not board[land])
        sofar = "x".join(names[i] for i in points)
        if onward:
            return detail("capture_must_continue", move=sofar, points=tuple(onward))
        return detail("not_legal", move=sofar)


class AlquerqueVariant(Variant[AlquerquePosition, Move]):
    """Alquerque, BrainKing rules (RULES §1)."""

    key: ClassVar[str] = "alquerque"
    worth_unit: ClassVar[str] = "stone"
    name: ClassVar[str] = N_("Alquerque")
    summary: ClassVar[str] = N_(
        "**Alquerque** (BrainKing rules), 2 players on a 5×5 board of points and lines. "
        "White starts. A turn is one move: step along a line forward, diagonally forward "
        "(where a diagonal exists) or sideways onto an empty point; or capture by jumping "
        "an adjacent enemy piece onto the empty point beyond it. Capturing is compulsory "
        "and a capturing piece keeps jumping while it can (later jumps in any direction). "
        "A piece may not return to the point its last move started from. You win when "
        "your opponent has no pieces or no legal move.\n"
        "Moves: `c2-c3`, captures list every landing point: `a1xc3xe1`.")
    board_size: ClassVar[tuple[int, int]] = (5, 5)
    board_facts: ClassVar[BoardFacts] = BoardFacts("lines", "stone", 0.60, diagonals=True)
    options: ClassVar[Mapping[str, tuple[object, ...]]] = {}
    example_options: ClassVar[tuple[Mapping[str, object], ...]] = ({},)

    def start(self, **options: Any) -> AlquerquePosition:
        self.check_options(options)
        return start_position(BOARD)

    def from_text(self, text: str) -> AlquerquePosition:
        return read_text(BOARD, text)

    def format_move(self, position: AlquerquePosition, move: Move) -> str:
        return _own(position).board.grid.move_text(move)

    def parse_move(self, position: AlquerquePosition, text: str) -> Move:
        p = _own(position)
        return parse_move(p.board.grid, text, p._moves(), _Explainer(p),
                          over=p.outcome() is not None)

    def move_marks(self, position: AlquerquePosition, move: Move) -> MoveMarks:
        return _own(position).board.grid.marks(move)

    def seat_name(self, seat: int, seat_count: int = 2) -> str:
        return SEAT_NAMES[seat]


def start_position(board: Board) -> AlquerquePosition:
    """The start of the original rules on ``board``: White to move, no memories."""
    return AlquerquePosition(board.start, (-1,) * board.grid.count, 0, board)


def read_text(board: Board, text: str) -> AlquerquePosition:
    """A position text of the original rules on ``board`` (the module docstring's form;
    ``board.grid.size`` ranks of as many points); raises PositionError."""
    if not isinstance(text, str):
        raise PositionError(detail("position_not_text"), text=repr(text))
    grid = board.grid
    fields = text.split()
    if len(fields) != 3:
        raise PositionError(detail("alquerque_fields"), text=text)
    cells = read_placement(grid, fields[0], LETTERS, text)
    if fields[1] not in ("w", "b"):
        raise PositionError(detail("side_letter", input=fields[1], letters=("'w'", "'b'")),
                            text=text)
    turn = "wb".index(fields[1])
    memory = [-1] * grid.count
    if fields[2] != "-":
        for entry in fields[2].split(","):
            came, _, now = entry.partition(">")
            if came not in grid.index or now not in grid.index:
                raise PositionError(detail("not_a_memory", input=entry), text=text)
            i = grid.index[now]
            if not cells[i]:
                raise PositionError(detail("memory_on_empty", memory=entry, point=now),
                                    text=text)
            if memory[i] >= 0:
                raise PositionError(detail("two_memories", point=now), text=text)
            memory[i] = grid.index[came]
    each = board.pieces_each
    for seat in (0, 1):
        if cells.count(seat + 1) > each:
            raise PositionError(detail("too_many_pieces", seat=SEAT_NAMES[seat], count=each),
                                text=text)
    if (2 - turn) not in cells:
        raise PositionError(detail("no_pieces_left", seat=SEAT_NAMES[1 - turn],
                                   other=SEAT_NAMES[turn]), text=text)
    return AlquerquePosition(tuple(cells), tuple(memory), turn, board)


def _own(position: Position) -> AlquerquePosition:
    if not isinstance(position, AlquerquePosition):
        raise TypeError("not an Alquerque position")
    return position


ALQUERQUE = AlquerqueVariant()
register(ALQUERQUE)
