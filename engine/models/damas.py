"""Spanish draughts: men and flying kings, promotion distance, the back rank, the centre."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, cast

from engine.board import SearchBoard
from engine.models.base import GameModel, PathGameModel, Pieces, forward, register
from engine.zobrist import mover_key, piece_key
from rules import Outcome, Position
from rules.damas import (
    KING_PLY_LIMIT,
    THREE_KINGS_LIMIT,
    DamasMove,
    DamasPosition,
    DamasVariant,
    piece_moves,
)
from rules.damas_board import BIT, FAR_RANK, LONG_DIAGONAL, POINT, SQUARES


class DamasModel(PathGameModel):
    """Men and (flying) kings, each man's distance to promotion, the back rank kept as a
    guard against crowning, the centre, and mobility."""

    key = "damas"
    mobility_weight = 4
    captures_compulsory = True
    MAN: ClassVar[int] = 100
    KING: ClassVar[int] = 330
    ADVANCE: ClassVar[tuple[int, ...]] = (0, 2, 5, 9, 15, 24, 38, 0)
    """A man's bonus by ranks advanced (7 = crowned: a king)."""

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

    def board(self, position: Position[Any]) -> SearchBoard | None:
        """The search's board (:class:`DamasBoard`) for this model's own evaluation."""
        if type(self) is DamasModel and isinstance(position, DamasPosition):
            return DamasBoard(position)
        return None

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


_INDEX = {BIT[n]: BIT[n].bit_length() - 1 for n in SQUARES}
"""The index of each square's bit in the bit boards (:mod:`rules.damas_board`)."""
_POINT_AT = {BIT[n].bit_length() - 1: POINT[n] for n in SQUARES}
_MEN_AT: tuple[tuple[int, ...], ...] = tuple(
    tuple(DamasModel.man_value(_POINT_AT[i], seat) if i in _POINT_AT else 0
          for i in range(36)) for seat in (0, 1))
"""Per seat, per bit index: :meth:`DamasModel.man_value`."""
_ZOBRIST: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(piece_key(_POINT_AT[i], seat, kind) if i in _POINT_AT else 0
                for i in range(36)) for kind in ("man", "king")) for seat in (0, 1))
"""Per seat, per kind (man, king), per bit index: the piece's Zobrist number."""
_MOVERS = (mover_key(frozenset([0])), mover_key(frozenset([1])))
_NO_PIECES = tuple(Outcome.win(seat ^ 1, seats=2, reason="no-pieces") for seat in (0, 1))
_NO_MOVES = tuple(Outcome.win(seat ^ 1, seats=2, reason="no-moves") for seat in (0, 1))
"""Per seat to move: it lost (no pieces, no legal move)."""
_REPETITION = Outcome.draw(seats=2, reason="repetition")
_MOVE_LIMIT = Outcome.draw(seats=2, reason="move-limit")
_THREE_KINGS = Outcome.draw(seats=2, reason="three-kings")


def _bit_indices(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _three_kings_count(white: int, black: int, kings: int, before: int | None,
                       mover: int) -> int | None:
    """As the rules count three kings against one (:mod:`rules.damas`): the moves of
    the strong side since the count started; None while it does not run."""
    if (white | black) & ~kings:
        return None
    counts = (white.bit_count(), black.bit_count())
    strong = 0 if counts == (3, 1) else 1 if counts == (1, 3) else -1
    if strong < 0:
        return None
    if before is not None:
        return before + (1 if mover == strong else 0)
    return 0 if (white if strong == 0 else black) & LONG_DIAGONAL else None


KNOWN_MOVES_KEPT = 100_000
"""How many positions' moves :class:`DamasBoard` keeps (the whole store is emptied when
full): a search meets most positions again, one iteration after the other."""
_KNOWN_MOVES: dict[tuple[int, int, int, int], tuple[DamasMove, ...]] = {}
"""The moves of the pieces (white, black, kings, seat to move), as the rules list them."""


class DamasBoard(SearchBoard):
    """Spanish draughts for the search (:mod:`engine.board`): the rules' bit boards, the
    draw counters and the repetition history, with each move's change made and unmade
    in place; the key and the evaluation's per-seat sums follow each move. The moves are
    the rules' own :class:`rules.damas.DamasMove` values, generated by the rules from the
    bit boards alone (:func:`rules.damas.piece_moves`: the draw rules are the board's),
    in the rules' order, and kept for the positions met again.

    >>> import rules
    >>> p = rules.variant("damas").start()
    >>> board = DamasBoard(p)
    >>> list(board.moves()) == list(p.legal_moves())
    True
    """

    def __init__(self, position: DamasPosition) -> None:
        self.white, self.black, self.kings = position.white, position.black, position.kings
        self.turn = position.turn
        self.king_plies = position.king_plies
        self.three_kings = position.three_kings
        self.history = list(position.history)
        self.values = [0, 0]
        self.men = [0, 0]
        key = _MOVERS[self.turn]
        for seat, mask in ((0, position.white), (1, position.black)):
            for i in _bit_indices(mask):
                if position.kings >> i & 1:
                    self.values[seat] += DamasModel.KING
                    key ^= _ZOBRIST[seat][1][i]
                else:
                    self.values[seat] += _MEN_AT[seat][i]
                    self.men[seat] += 1
                    key ^= _ZOBRIST[seat][0][i]
        self._key = key
        self._legal: Sequence[DamasMove] | None = None
        # per move made: what it changed (the state before, the history it replaced)
        self._undo: list[tuple[Any, ...]] = []

    def moves(self) -> Sequence[DamasMove]:
        legal = self._legal
        if legal is None:
            pieces = (self.white, self.black, self.kings, self.turn)
            legal = _KNOWN_MOVES.get(pieces)
            if legal is None:
                if len(_KNOWN_MOVES) >= KNOWN_MOVES_KEPT:
                    _KNOWN_MOVES.clear()
                legal = _KNOWN_MOVES[pieces] = piece_moves(*pieces)
            self._legal = legal
        return legal

    def make(self, move: Hashable) -> None:
        m = cast(DamasMove, move)
        turn = self.turn
        other = turn ^ 1
        start_index = _INDEX[BIT[m.path[0]]]
        end_index = _INDEX[BIT[m.path[-1]]]
        start, end = 1 << start_index, 1 << end_index
        kings = self.kings
        parent = (self.white, self.black, kings, turn)
        self._undo.append((parent, self.king_plies, self.three_kings, self.history,
                           self._key, self._legal, tuple(self.values), tuple(self.men)))
        key = self._key ^ _MOVERS[0] ^ _MOVERS[1]
        is_king = bool(start & kings)
        zobrist, values = _ZOBRIST[turn], self.values
        own, opp = (self.white, self.black) if turn == 0 else (self.black, self.white)
        own = (own & ~start) | end
        if is_king:
            kings = (kings & ~start) | end
            key ^= zobrist[1][start_index] ^ zobrist[1][end_index]
        elif end & FAR_RANK[turn]:
            kings |= end
            key ^= zobrist[0][start_index] ^ zobrist[1][end_index]
            values[turn] += DamasModel.KING - _MEN_AT[turn][start_index]
            self.men[turn] -= 1
        else:
            key ^= zobrist[0][start_index] ^ zobrist[0][end_index]
            values[turn] += _MEN_AT[turn][end_index] - _MEN_AT[turn][start_index]
        taken = 0
        for square in m.captured:
            bit = BIT[square]
            i = _INDEX[bit]
            taken |= bit
            if kings & bit:
                key ^= _ZOBRIST[other][1][i]
                values[other] -= DamasModel.KING
            else:
                key ^= _ZOBRIST[other][0][i]
                values[other] -= _MEN_AT[other][i]
                self.men[other] -= 1
        opp &= ~taken
        kings &= ~taken
        self.white, self.black = (own, opp) if turn == 0 else (opp, own)
        self.kings = kings
        reversible = is_king and not taken
        self.king_plies = self.king_plies + 1 if reversible else 0
        self.three_kings = _three_kings_count(self.white, self.black, kings,
                                              self.three_kings, turn)
        self.history = [*self.history, parent] if reversible else []
        self.turn = other
        self._key = key
        self._legal = None

    def unmake(self) -> None:
        parent, self.king_plies, self.three_kings, self.history, self._key, self._legal, \
            values, men = self._undo.pop()
        self.white, self.black, self.kings, self.turn = parent
        self.values, self.men = list(values), list(men)

    def rewind(self) -> None:
        while self._undo:
            self.unmake()

    def outcome(self) -> Outcome | None:
        # as :meth:`rules.damas.DamasPosition.outcome`
        turn = self.turn
        if not (self.white if turn == 0 else self.black):
            return _NO_PIECES[turn]
        if not self.moves():
            return _NO_MOVES[turn]
        if self.history.count((self.white, self.black, self.kings, turn)) >= 2:
            return _REPETITION
        if self.king_plies >= KING_PLY_LIMIT:
            return _MOVE_LIMIT
        if self.three_kings is not None and self.three_kings >= THREE_KINGS_LIMIT:
            return _THREE_KINGS
        return None

    def mover(self) -> int:
        return self.turn

    def key(self) -> int:
        return self._key

    def in_check(self) -> bool:
        return False

    def evaluate(self) -> tuple[int, ...]:
        values, men = self.values, self.men
        return values[0] + (0 if men[0] else 20), values[1] + (0 if men[1] else 20)

    def tactical_gains(self, moves: Sequence[Hashable]) -> list[int | None]:
        return [100 * len(c) if (c := cast(DamasMove, m).captured) else None for m in moves]

    def is_tactical(self, move: Hashable) -> bool:
        return bool(cast(DamasMove, move).captured)

    def gain(self, move: Hashable) -> int:
        return 100 * len(cast(DamasMove, move).captured)

    def rules_move(self, move: Hashable) -> Hashable:
        return move


_DAMAS = DamasModel()


@register(DamasVariant, DamasPosition)
def _choose(position: Position[Any] | None) -> GameModel:
    return _DAMAS
