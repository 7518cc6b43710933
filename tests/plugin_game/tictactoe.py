"""Tic-tac-toe as a Tablero game, all of it in this one file (README: "Adding a game").

Two seats, White (0, first) and Black (1), on 3×3 cells; a move names an empty cell
(``b2``); three in a row wins, a full board is a draw. Everything the other parts need is
declared here: the rules and notation (a :class:`rules.Variant` and
:class:`rules.Position`), the words (name and summary, marked with ``N_``), the board
facts the renderer draws, the record format (none: Tablero's own record) and the engine's
model (registered with :func:`engine.models.register`). :func:`register_game` adds the
variant to the rules registry (the tests do it for the length of a test).

>>> v = TicTacToe()
>>> p = v.start()
>>> for text in ("b2", "a1", "c1", "a3", "a2", "c2", "b1", "b3", "c3"):
...     p = p.play(v.parse_move(p, text))
>>> p.outcome().reason
'board-full'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.models import GameModel, Pieces, register
from rules import (
    BoardFacts,
    IllegalMoveError,
    MoveMarks,
    Outcome,
    Piece,
    Position,
    PositionError,
)
from rules.core import N_, Point, Variant
from rules.notation import parse_point, point_name

KEY = "tictactoe"
LINES: tuple[tuple[Point, Point, Point], ...] = (
    *(((0, y), (1, y), (2, y)) for y in range(3)),
    *(((x, 0), (x, 1), (x, 2)) for x in range(3)),
    ((0, 0), (1, 1), (2, 2)), ((0, 2), (1, 1), (2, 0)))
MARKS = "xo"


@dataclass(frozen=True, slots=True)
class TicTacToePosition(Position[Point]):
    """Nine cells, each ``None`` or the seat whose mark it holds, and the seat to move."""

    cells: tuple[int | None, ...] = (None,) * 9
    turn: int = 0

    @property
    def variant(self) -> TicTacToe:
        return TICTACTOE

    @property
    def to_move(self) -> frozenset[int]:
        return frozenset() if self.outcome() is not None else frozenset([self.turn])

    def legal_moves(self) -> Sequence[Point]:
        if self.outcome() is not None:
            return ()
        return tuple((i % 3, i // 3) for i, c in enumerate(self.cells) if c is None)

    def play(self, move: Point) -> TicTacToePosition:
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{point_name(*move)} is not an empty cell",
                                   text=point_name(*move))
        x, y = move
        cells = list(self.cells)
        cells[y * 3 + x] = self.turn
        return TicTacToePosition(tuple(cells), 1 - self.turn)

    def outcome(self) -> Outcome | None:
        for a, b, c in LINES:
            seat = self.cells[a[1] * 3 + a[0]]
            if seat is not None and seat == self.cells[b[1] * 3 + b[0]] \
                    == self.cells[c[1] * 3 + c[0]]:
                return Outcome.win(seat, seats=2, reason="three-in-a-row")
        if all(c is not None for c in self.cells):
            return Outcome.draw(seats=2, reason="board-full")
        return None

    def to_text(self) -> str:
        return "".join("." if c is None else MARKS[c] for c in self.cells) + f" {self.turn}"

    def pieces(self) -> Mapping[Point, Piece]:
        return {(i % 3, i // 3): Piece(c, "stone") for i, c in enumerate(self.cells)
                if c is not None}


class TicTacToe(Variant[TicTacToePosition, Point]):
    """Tic-tac-toe: three in a row on 3×3 cells."""

    key: ClassVar[str] = KEY
    name: ClassVar[str] = N_("Tic-tac-toe")
    summary: ClassVar[str] = N_(
        "**Tic-tac-toe**, 2 players on 3×3 cells. White starts. Put your mark on an "
        "empty cell; three in a row wins, a full board is a draw.\nMoves: `b2`.")
    board_size: ClassVar[tuple[int, int]] = (3, 3)
    board_facts: ClassVar[BoardFacts] = BoardFacts("cells", "stone", 0.7)

    def start(self, **options: Any) -> TicTacToePosition:
        self.check_options(options)
        return TicTacToePosition()

    def from_text(self, text: str) -> TicTacToePosition:
        marks, _, turn = text.strip().partition(" ")
        if len(marks) != 9 or set(marks) - set("." + MARKS) or turn not in ("0", "1"):
            raise PositionError(f"not a tic-tac-toe position: {text!r}", text=text)
        return TicTacToePosition(tuple(None if m == "." else MARKS.index(m) for m in marks),
                                 int(turn))

    def format_move(self, position: TicTacToePosition, move: Point) -> str:
        return point_name(*move)

    def parse_move(self, position: TicTacToePosition, text: str) -> Point:
        point = parse_point(text, width=3, height=3)  # NotationError names a bad cell
        if point not in position.legal_moves():
            raise IllegalMoveError(f"{text.strip()} is not an empty cell", text=text)
        return point

    def move_marks(self, position: TicTacToePosition, move: Point) -> MoveMarks:
        return MoveMarks(path=(move,))

    def seat_name(self, seat: int, seat_count: int = 2) -> str:
        return ("White", "Black")[seat]


TICTACTOE = TicTacToe()


class TicTacToeModel(GameModel):
    """The engine's view: a line still open for a seat is worth 10, two of its marks on
    it 100 (the search finds the rest)."""

    key = KEY

    def evaluate(self, position: Position[Any], pieces: Pieces) -> tuple[int, ...]:
        score = [0, 0]
        for line in LINES:
            owners = [pieces[p].seat for p in line if p in pieces]
            for seat in (0, 1):
                if all(o == seat for o in owners):
                    score[seat] += 10 + 90 * (len(owners) == 2)
        return tuple(score)


_MODEL = TicTacToeModel()


@register(TicTacToe, TicTacToePosition)
def _choose(position: Position[Any] | None) -> GameModel:
    return _MODEL


def reachable_positions() -> int:
    """How many positions can arise in play, the start included (5 478, the known count):
    a check that the rules are whole.

    >>> reachable_positions()
    5478
    """
    seen = {TICTACTOE.start()}
    todo = list(seen)
    while todo:
        for move in (p := todo.pop()).legal_moves():
            child = p.play(move)
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return len(seen)


__all__ = ["TICTACTOE", "TicTacToe", "TicTacToeModel", "TicTacToePosition", "reachable_positions"]
