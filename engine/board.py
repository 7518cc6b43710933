"""The position the search walks: one mutable board per search, moves made and unmade in
place (:class:`SearchBoard`).

The rules API's positions are immutable values: ``play`` validates the move and builds a
new position, and ``pieces()`` and the Zobrist key are worked out again at every node. A
game whose model knows its board (:meth:`engine.models.GameModel.board`: every game
today) gives the search a board of its own instead: a move is a small int, made and
unmade in place, the key and the evaluation follow each move incrementally. Every other
game is walked by :class:`PositionBoard`, a stack of the rules' own positions.

A board must answer exactly what the rules API answers (the same legal moves in the same
order, the same outcomes, keys equal to :func:`engine.zobrist.position_key`, the model's
evaluation): the search then visits the same nodes and plays the same moves either way
(the reproducible-play fixture pins them). The rules stay the referee: the search maps
the root's moves onto the rules' own move values one by one and refuses a board that
disagrees (:class:`engine.errors.BoardMismatch`), so every move it returns is one of
``root.legal_moves()``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Protocol

from engine.zobrist import mover_key, position_key
from rules import Outcome, Piece, Position

Pieces = Mapping[tuple[int, int], Piece]


class Hooks(Protocol):
    """What :class:`PositionBoard` asks of a game's model (:class:`engine.models.GameModel`)."""

    def evaluate(self, position: Position[Any], pieces: Pieces) -> tuple[int, ...]: ...

    def is_tactical(self, position: Position[Any], pieces: Pieces, move: Hashable) -> bool: ...

    def gain(self, position: Position[Any], pieces: Pieces, move: Hashable) -> int: ...

    def tactical_gains(self, position: Position[Any], pieces: Pieces,
                       moves: Sequence[Hashable]) -> list[int | None]: ...

    def key_change(self, pieces: Pieces, move: Hashable) -> int | None: ...


class SearchBoard:
    """A position the search changes in place: :meth:`make` a move, :meth:`unmake` the
    last one. Moves are the board's own values (:meth:`rules_move` names the rules API's
    value of one). Every question is about the position at hand; :meth:`moves` and the
    evaluation are only asked of a running game (:meth:`outcome` None)."""

    def moves(self) -> Sequence[Hashable]:
        """The legal moves, in the order of the rules' ``legal_moves()``."""
        raise NotImplementedError

    def make(self, move: Hashable) -> None:
        """Play ``move`` (one of :meth:`moves`)."""
        raise NotImplementedError

    def unmake(self) -> None:
        """Take back the last move made."""
        raise NotImplementedError

    def rewind(self) -> None:
        """Take back every move made (a search cut by its budget leaves moves made)."""
        raise NotImplementedError

    def outcome(self) -> Outcome | None:
        """As the rules' ``outcome()``."""
        raise NotImplementedError

    def mover(self) -> int:
        """The seat to move (a running game)."""
        raise NotImplementedError

    def key(self) -> int:
        """The Zobrist key, equal to :func:`engine.zobrist.position_key`."""
        raise NotImplementedError

    def in_check(self) -> bool:
        """Whether the seat to move is in check (the rules' ``checked_point()`` is set)."""
        raise NotImplementedError

    def evaluate(self) -> tuple[int, ...]:
        """The model's :meth:`engine.models.GameModel.evaluate` of the position at hand."""
        raise NotImplementedError

    def tactical_gains(self, moves: Sequence[Hashable]) -> list[int | None]:
        """As :meth:`engine.models.GameModel.tactical_gains`."""
        raise NotImplementedError

    def is_tactical(self, move: Hashable) -> bool:
        """As :meth:`engine.models.GameModel.is_tactical`."""
        raise NotImplementedError

    def gain(self, move: Hashable) -> int:
        """As :meth:`engine.models.GameModel.gain`."""
        raise NotImplementedError

    def rules_move(self, move: Hashable) -> Hashable:
        """The rules API's value of the board's ``move`` (equal to the one its
        ``legal_moves()`` lists)."""
        raise NotImplementedError

    def staged(self) -> bool:
        """Whether :meth:`holds` and :meth:`best_tactical` answer without listing every
        move: then the search tries the table's move and the best tactical one before
        it lists and orders the rest (a Querni position has thousands of moves, and
        most nodes are cut by the first)."""
        return False

    def plays_out_of_turn(self) -> bool:
        """Whether :meth:`pass_to` can hand the move to any seat (best-reply search,
        :attr:`engine.models.GameModel.best_reply`, needs it)."""
        return False

    def pass_to(self, seat: int) -> bool:
        """Make ``seat`` the seat to move in the position at hand, as though the seats
        between had passed (:meth:`unmake` takes it back like a move); False, and nothing
        changed, when the game is over or ``seat`` has no move. Only a board that
        :meth:`plays_out_of_turn` answers it."""
        raise NotImplementedError

    def holds(self, move: Hashable) -> bool:
        """Whether ``move`` is one of :meth:`moves` (any value: a table's move may
        come from another position whose key is the same)."""
        return move in self.moves()

    def best_tactical(self, besides: Hashable | None) -> Hashable | None:
        """The tactical move of the highest gain, the first of :meth:`moves` among
        equals, leaving out ``besides``; None when there is no other."""
        moves = self.moves()
        best: Hashable | None = None
        most = 0
        for move, gain in zip(moves, self.tactical_gains(moves), strict=True):
            if gain is not None and (best is None or gain > most) and move != besides:
                best, most = move, gain
        return best


class PositionBoard(SearchBoard):
    """The rules' own positions on a stack: ``make`` is ``play``, ``unmake`` a pop; a
    position's pieces and key are worked out once, when first asked (the key follows a
    move where the model says what it changes: :meth:`engine.models.GameModel.key_change`).

    >>> import rules
    >>> from engine.models import model_for
    >>> p = rules.variant("damas").start()
    >>> board = PositionBoard(model_for(p.variant, p), p)
    >>> move = board.moves()[0]
    >>> board.make(move); board.key() == position_key(p.play(move), p.play(move).pieces())
    True
    >>> board.unmake(); board.key() == position_key(p, p.pieces())
    True
    """

    def __init__(self, model: Hooks, root: Position[Any]) -> None:
        self.model = model
        self._positions: list[Position[Any]] = [root]
        self._pieces: list[Pieces | None] = [None]
        self._keys: list[int | None] = [None]

    def _pieces_here(self) -> Pieces:
        pieces = self._pieces[-1]
        if pieces is None:
            pieces = self._pieces[-1] = self._positions[-1].pieces()
        return pieces

    def moves(self) -> Sequence[Hashable]:
        moves: Sequence[Hashable] = self._positions[-1].legal_moves()
        return moves

    def make(self, move: Hashable) -> None:
        position = self._positions[-1]
        child: Position[Any] = position.play(move)
        key = self._keys[-1]
        child_key: int | None = None
        if key is not None:
            change = self.model.key_change(self._pieces_here(), move)
            if change is not None:
                child_key = key ^ change ^ mover_key(position.to_move) \
                    ^ mover_key(child.to_move)
        self._positions.append(child)
        self._pieces.append(None)
        self._keys.append(child_key)

    def unmake(self) -> None:
        self._positions.pop()
        self._pieces.pop()
        self._keys.pop()

    def rewind(self) -> None:
        del self._positions[1:], self._pieces[1:], self._keys[1:]

    def outcome(self) -> Outcome | None:
        return self._positions[-1].outcome()

    def mover(self) -> int:
        return self._positions[-1].mover

    def key(self) -> int:
        key = self._keys[-1]
        if key is None:
            key = self._keys[-1] = position_key(self._positions[-1], self._pieces_here())
        return key

    def in_check(self) -> bool:
        return self._positions[-1].checked_point() is not None

    def evaluate(self) -> tuple[int, ...]:
        return self.model.evaluate(self._positions[-1], self._pieces_here())

    def tactical_gains(self, moves: Sequence[Hashable]) -> list[int | None]:
        return self.model.tactical_gains(self._positions[-1], self._pieces_here(), moves)

    def is_tactical(self, move: Hashable) -> bool:
        return self.model.is_tactical(self._positions[-1], self._pieces_here(), move)

    def gain(self, move: Hashable) -> int:
        return self.model.gain(self._positions[-1], self._pieces_here(), move)

    def rules_move(self, move: Hashable) -> Hashable:
        return move
