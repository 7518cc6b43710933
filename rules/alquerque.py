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
from typing import Any, ClassVar

from rules.core import (
    IllegalMoveError,
    MoveMarks,
    Outcome,
    Piece,
    Point,
    Position,
    PositionError,
    Variant,
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
from rules.notation import or_list
from rules.registry import register

GRID = Lattice(5)
PIECES_EACH = 12
LETTERS = "WB"
SEAT_NAMES = ("White", "Black")
FORWARD = (1, -1)  # dy of a forward move, per seat
FAR_RANK = (4, 0)  # the opponent's back rank, per seat


def _stepping_directions(seat: int) -> tuple[int, ...]:
    return tuple(d for d, (_, dy) in enumerate(DIRECTIONS) if dy in (0, FORWARD[seat]))


STEPPING = tuple(_stepping_directions(seat) for seat in (0, 1))
# A piece on the far rank makes no step (RULES §1 rule 2): its step table row is empty.
STEPS = tuple(
    tuple(() if GRID.points[i][1] == FAR_RANK[seat] else row
          for i, row in enumerate(GRID.steps_in(STEPPING[seat])))
    for seat in (0, 1))
FIRST_JUMPS = tuple(GRID.jumps_in(STEPPING[seat]) for seat in (0, 1))
ENEMY = ((False, False, True), (False, True, False))  # indexed by cell value, per seat


def _start_cells() -> tuple[int, ...]:
    cells = [0] * GRID.count
    for i, (x, y) in enumerate(GRID.points):
        if y < 2 or (y == 2 and x >= 3):
            cells[i] = 1
        elif y > 2 or x <= 1:
            cells[i] = 2
    return tuple(cells)


@dataclass(frozen=True, slots=True)
class AlquerquePosition(Position[Move]):
    """A position of Alquerque.

    ``cells`` holds one value per point in rank-major order (0 empty, 1 White, 2 Black);
    ``memory[i]`` is the point where the last move of the piece on ``i`` started
    (-1 if it never moved); ``turn`` is the seat whose turn it is. See :attr:`memories`
    and :meth:`captured_counts` for the same data by point name.
    """

    cells: tuple[int, ...]
    memory: tuple[int, ...]
    turn: int
    _table: list[MoveTable] = field(default_factory=list, init=False, compare=False,
                                   repr=False)

    # ------------------------------------------------------------------ Position API
    @property
    def variant(self) -> AlquerqueVariant:
        return ALQUERQUE

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
            raise IllegalMoveError(f"{move!r} is not a legal move here")
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
        return AlquerquePosition(tuple(cells), tuple(memory), 1 - self.turn)

    def outcome(self) -> Outcome | None:
        if self.legal_moves():
            return None
        reason = "no-moves" if (self.turn + 1) in self.cells else "no-pieces"
        return Outcome.win(1 - self.turn, seats=2, reason=reason)

    def pieces(self) -> Mapping[Point, Piece]:
        return {GRID.points[i]: Piece(v - 1, "stone") for i, v in enumerate(self.cells) if v}

    def to_text(self) -> str:
        memories = [f"{GRID.names[m]}>{GRID.names[i]}" for i, m in enumerate(self.memory)
                    if m >= 0]
        side = LETTERS[self.turn].lower()
        return f"{write_placement(GRID, self.cells, LETTERS)} {side} {','.join(memories) or '-'}"

    # ------------------------------------------------------------------ extras
    @property
    def memories(self) -> dict[Point, Point]:
        """The no-return memory of every piece that has moved: its point -> the point
        its last move started from."""
        return {GRID.points[i]: GRID.points[m] for i, m in enumerate(self.memory) if m >= 0}

    def captured_counts(self) -> tuple[int, int]:
        """How many enemy pieces each seat has captured (12 minus the enemy's pieces)."""
        return (PIECES_EACH - self.cells.count(2), PIECES_EACH - self.cells.count(1))

    @property
    def must_capture(self) -> bool:
        """Whether the side to move has a capture (and so may not step)."""
        return any(m[1] for m in self._moves().moves)

    def _moves(self) -> MoveTable:
        if self._table:
            return self._table[0]
        seat = self.turn
        me = seat + 1
        cells = list(self.cells)
        enemy = ENEMY[seat]
        table = MoveTable(GRID, cells, enemy, GRID.jumps)
        first = FIRST_JUMPS[seat]
        own = [i for i, v in enumerate(cells) if v == me]
        if any(i for i in cells if i and i != me):
            for s in own:
                avoid = self.memory[s]
                if any(land != avoid and enemy[cells[over]] and not cells[land]
                       for over, land, _, _ in first[s]):
                    table.search(s, first, avoid, prefixes=False)
        if not table.moves:
            steps = STEPS[seat]
            for s in own:
                avoid = self.memory[s]
                for j in steps[s]:
                    if not cells[j] and j != avoid:
                        table.add_step(s, j)
        self._table.append(table)
        return table

    def explain(self, points: Sequence[int], as_capture: bool = False) -> str:
        """Why the written points are not a legal move here (for error messages)."""
        return _Explainer(self).explain(points, as_capture)


class _Explainer(Explainer):
    """Alquerque's reasons: directions, the far rank, the no-return memory, the capture
    duty and a sequence that must go on."""

    def __init__(self, position: AlquerquePosition) -> None:
        super().__init__(GRID, position.cells, position.turn + 1)
        self.position = position

    def bad_step(self, start: int, end: int) -> str:
        names, turn = GRID.names, self.position.turn
        avoid = self.position.memory[start]
        if end not in GRID.steps_in(STEPPING[turn])[start]:
            return "pieces never move backwards"
        if end not in STEPS[turn][start]:
            return f"a piece on rank {FAR_RANK[turn] + 1} cannot step any more"
        if end == avoid:
            return (f"this piece came from {names[avoid]} and may not return there")
        captures = sorted(GRID.move_text(m) for m in self.position._moves().moves if m[1])
        if captures:
            return f"a capture is compulsory: {or_list(captures[:4])}"
        return super().bad_step(start, end)

    def bad_jump(self, start: int, k: int, at: int, land: int) -> str | None:
        if k == 0 and GRID.direction(at, land) not in STEPPING[self.position.turn]:
            return "the first jump must go forward, diagonally forward or sideways"
        avoid = self.position.memory[start]
        if land == avoid:
            return f"this piece came from {GRID.names[avoid]} and may not return there"
        return None

    def stopped(self, points: Sequence[int], at: int, board: Sequence[int]) -> str:
        names = GRID.names
        avoid = self.position.memory[points[0]]
        onward = sorted(names[land] for over, land, _, _ in GRID.jumps[at]
                        if land != avoid and ENEMY[self.position.turn][board[over]]
                        and not board[land])
        sofar = "x".join(names[i] for i in points)
        if onward:
            return f"a capture must continue: {sofar} can go on to {or_list(onward)}"
        return f"{sofar} is not a legal move"


class AlquerqueVariant(Variant[AlquerquePosition, Move]):
    """Alquerque, BrainKing rules (RULES §1)."""

    key: ClassVar[str] = "alquerque"
    name: ClassVar[str] = "Alquerque"
    board_size: ClassVar[tuple[int, int]] = (5, 5)
    options: ClassVar[Mapping[str, tuple[object, ...]]] = {}
    example_options: ClassVar[tuple[Mapping[str, object], ...]] = ({},)

    def start(self, **options: Any) -> AlquerquePosition:
        self.check_options(options)
        return AlquerquePosition(_start_cells(), (-1,) * GRID.count, 0)

    def from_text(self, text: str) -> AlquerquePosition:
        if not isinstance(text, str):
            raise PositionError("a position text must be a string", text=repr(text))
        fields = text.split()
        if len(fields) != 3:
            raise PositionError(
                "an Alquerque position text has three fields: placement, side, memories",
                text=text)
        cells = read_placement(GRID, fields[0], LETTERS, text)
        if fields[1] not in ("w", "b"):
            raise PositionError(f"the side to move is 'w' or 'b', not {fields[1]!r}", text=text)
        turn = "wb".index(fields[1])
        memory = [-1] * GRID.count
        if fields[2] != "-":
            for entry in fields[2].split(","):
                came, _, now = entry.partition(">")
                if came not in GRID.index or now not in GRID.index:
                    raise PositionError(f"{entry!r} is not a memory like c2>c3", text=text)
                i = GRID.index[now]
                if not cells[i]:
                    raise PositionError(f"memory {entry}: there is no piece on {now}",
                                        text=text)
                if memory[i] >= 0:
                    raise PositionError(f"two memories for the piece on {now}", text=text)
                memory[i] = GRID.index[came]
        for seat in (0, 1):
            if cells.count(seat + 1) > PIECES_EACH:
                raise PositionError(f"{SEAT_NAMES[seat]} has more than {PIECES_EACH} pieces",
                                    text=text)
        if (2 - turn) not in cells:
            raise PositionError(
                f"{SEAT_NAMES[1 - turn]} has no pieces: the game ended before "
                f"{SEAT_NAMES[turn]}'s turn", text=text)
        return AlquerquePosition(tuple(cells), tuple(memory), turn)

    def format_move(self, position: AlquerquePosition, move: Move) -> str:
        return GRID.move_text(move)

    def parse_move(self, position: AlquerquePosition, text: str) -> Move:
        p = _own(position)
        return parse_move(GRID, text, p._moves(), _Explainer(p), over=p.outcome() is not None)

    def move_marks(self, position: AlquerquePosition, move: Move) -> MoveMarks:
        return GRID.marks(move)

    def seat_name(self, seat: int, seat_count: int = 2) -> str:
        return SEAT_NAMES[seat]


def _own(position: Position) -> AlquerquePosition:
    if not isinstance(position, AlquerquePosition):
        raise TypeError("not an Alquerque position")
    return position


ALQUERQUE = register(AlquerqueVariant())
