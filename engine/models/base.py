"""The engine's knowledge of a game (:class:`GameModel`) and the registry that finds it.

A :class:`GameModel` reads positions only through the public rules API (``pieces()``,
the game facts of :class:`rules.Position`, the documented move types) and answers the
search's questions through the hooks below; each game's model lives in its own module of
:mod:`engine.models` and registers for the position types of its game (:func:`register`),
so the engine finds it from the position itself, never by comparing game keys.

Scores are centipawn-like integers per seat, each seat's own view of how well it stands
(higher is better for that seat); the search turns them into one side's advantage.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from engine.board import SearchBoard
from engine.levels import Level
from rules import Piece, Position, Variant

Pieces = Mapping[tuple[int, int], Piece]


class GameModel:
    """The engine's knowledge of one game. Every hook has a neutral default.

    ``mobility_weight`` scores each legal move of the side to move against the count its
    opponent had one ply earlier; ``quiescence`` whether leaves follow tactical moves;
    ``captures_compulsory`` tells quiescence that a side with a capture must take (no
    standing pat), as in draughts and Alquerque.
    """

    key: ClassVar[str] = ""
    mobility_weight: ClassVar[int] = 0
    quiescence: ClassVar[bool] = True
    captures_compulsory: ClassVar[bool] = False
    fairy_stockfish: ClassVar[bool] = False
    """Whether Fairy-Stockfish (:mod:`engine.fairy`) plays this game's strongest levels
    when it is installed."""
    place_value: ClassVar[int] = 0
    """With several rivals each on its own (Alquerque grande ``fast`` and ``slow``), what a
    finished game the searching seat did not win is worth: ``place_value`` times the
    share of rivals it finished above (ties half) less one half. 0: only a win counts,
    every other finish is a loss (the levels below the top in those modes)."""

    best_reply: ClassVar[bool] = False
    """With several rivals each on its own, search best-reply (:mod:`engine.search`: the
    strongest reply of any one rival, then the searching seat again) instead of paranoid
    (every rival in turn), where the game's board can play a move out of turn
    (:meth:`engine.board.SearchBoard.plays_out_of_turn`)."""

    def evaluate(self, position: Position[Any], pieces: Pieces) -> tuple[int, ...]:
        """Per seat, how well that seat stands (its own view). Default: pieces on board."""
        counts = [0] * position.seat_count
        for piece in pieces.values():
            counts[piece.seat] += 100
        return tuple(counts)

    def is_tactical(self, position: Position[Any], pieces: Pieces, move: Hashable) -> bool:
        """Whether ``move`` changes material (searched by quiescence, ordered first)."""
        return False

    def gain(self, position: Position[Any], pieces: Pieces, move: Hashable) -> int:
        """A quick guess of what a tactical move wins, for move ordering (MVV-LVA)."""
        return 0

    def tactical_gains(self, position: Position[Any], pieces: Pieces,
                       moves: Sequence[Hashable]) -> list[int | None]:
        """Per move of ``moves``, its :meth:`gain` if it :meth:`is_tactical`, else None:
        what the search asks of every move of a node, in one call. Models override it
        with one loop that gives the same answers faster."""
        is_tactical, gain = self.is_tactical, self.gain
        return [gain(position, pieces, m) if is_tactical(position, pieces, m) else None
                for m in moves]

    def key_change(self, pieces: Pieces, move: Hashable) -> int | None:
        """What playing ``move`` where ``pieces`` stand XORs into the position's Zobrist
        key, the seats to move aside (:mod:`engine.zobrist`); None: the model cannot say
        (the search rehashes the child's pieces). It must equal the difference of the
        keys exactly, or the search's transposition table would mix positions up."""
        return None

    def board(self, position: Position[Any]) -> SearchBoard | None:
        """A board of this game's own for the search to walk from ``position``, moves
        made and unmade in place (:mod:`engine.board`); None (the default): the search
        walks the rules' positions (:class:`engine.board.PositionBoard`). A board must
        answer exactly as the rules and this model do, or the search refuses it."""
        return None

    def arrange(self, position: Position[Any], seat: int, rng: random.Random,
                effort: int, chain: int = 16, deadline: float | None = None) -> Hashable:
        """In a setup phase, ``seat``'s arrangement move; ``effort`` 0 is a random one;
        ``chain``: the level's :attr:`engine.levels.Level.arrange_chain`; ``deadline``:
        the ``time.perf_counter()`` by which to have chosen (a time-bound level)."""
        raise NotImplementedError(f"{self.key} has no setup phase")

    level_changes: ClassVar[Mapping[int, Mapping[str, Any]]] = {}
    """Per level number, the :class:`engine.levels.Level` fields this game plays
    differently (:meth:`adapt_level`'s default applies them); none by default."""

    paired_balanced_openings: ClassVar[bool] = False
    """Whether self-play (:func:`engine.selfplay.run`) opens this game the strict way:
    its random opening (:class:`engine.selfplay.Opening`) keeps the balance from each
    seat's first move on, not only from its second (:data:`engine.selfplay.OPENING_MARGIN`),
    and each opening is played from every seat in turn (the seats rotate, the opening
    stays), as engine testers pair openings, so that an opening that favours one seat
    does not decide which level scores. Off by default: xiangqi's, damas' and Querni's
    ladders were measured with a first move of any quiet one and one opening a game,
    and pass."""

    def adapt_level(self, level: Level) -> Level:
        """The settings ``level`` plays this game with. Default: ``level`` with this
        model's :attr:`level_changes` for its number (unchanged where there are none).

        A game whose branching or evaluation scale makes the shared settings of
        :data:`engine.levels.LEVELS` mean something else (node budgets that all end in
        the first ply, noise too small to matter, mistakes too rare to tell two levels
        apart) changes them, by a table or by overriding this, to keep the levels'
        intent: each level a step stronger than the one below. It must keep the level's
        ``number`` and, for levels 1-6, stop on nodes (reproducible on any machine).

        >>> from engine.levels import LEVELS
        >>> GameModel().adapt_level(LEVELS[5]) is LEVELS[5]
        True
        """
        changes = self.level_changes.get(level.number)
        return dataclasses.replace(level, **changes) if changes else level

    def for_level(self, level: Level) -> GameModel:
        """The model ``level`` (as :meth:`adapt_level` shaped it) plays with. Default:
        this one. A game whose top level judges positions more finely than the levels
        below returns another model for it here (Querni: :class:`QuerniTopModel`).

        >>> from engine.levels import LEVELS
        >>> model = GameModel()
        >>> model.for_level(LEVELS[8]) is model
        True
        """
        return self


def forward(seat: int, y: int, height: int) -> int:
    """Ranks advanced from seat's own edge (seat 0 moves up, seat 1 down)."""
    return y if seat == 0 else height - 1 - y


class PathGameModel(GameModel):
    """Games whose moves are :class:`rules.core.PathMove` values ``(path, captured)``."""

    def is_tactical(self, position: Position[Any], pieces: Pieces, move: Hashable) -> bool:
        return bool(move[1])  # type: ignore[index]

    def gain(self, position: Position[Any], pieces: Pieces, move: Hashable) -> int:
        return 100 * len(move[1])  # type: ignore[index]

    def tactical_gains(self, position: Position[Any], pieces: Pieces,
                       moves: Sequence[Hashable]) -> list[int | None]:
        return [100 * len(m[1]) if m[1] else None for m in moves]  # type: ignore[index]


# --------------------------------------------------------------------------- registry

ModelChoice = Callable[[Position[Any] | None], GameModel]
"""What a game registers: given one of its positions (``None``: the game in general),
the model that plays it."""

_CHOICES: dict[type[Any], ModelChoice] = {}
F = TypeVar("F", bound=ModelChoice)


class NoModel(LookupError):
    """No engine model is registered for a game (its module must :func:`register`)."""


def register(*kinds: type[Any]) -> Callable[[F], F]:
    """Register a game's :data:`ModelChoice` for its variant class and position classes
    (a position of one of these classes, or a variant of this class, is played by it).

    >>> @register(int)
    ... def choose(position: object) -> GameModel:
    ...     return GameModel()
    >>> _CHOICES.pop(int) is choose
    True
    """
    def add(choice: F) -> F:
        for kind in kinds:
            if kind in _CHOICES:
                raise ValueError(f"an engine model is already registered for {kind.__name__}")
            _CHOICES[kind] = choice
        return choice
    return add


def _choice(kind: type[Any]) -> ModelChoice | None:
    for cls in kind.__mro__:
        found = _CHOICES.get(cls)
        if found is not None:
            return found
    return None


def model_for(variant: Variant[Any, Any], position: Position[Any] | None = None) -> GameModel:
    """The model that plays ``position`` (found by its class), or ``variant`` in general
    when no position is given. A position can be played by another game's rules (two
    players on Alquerque grande's board by the original Alquerque rules: an
    :class:`rules.alquerque.AlquerquePosition`), so the position decides first.

    >>> import rules
    >>> v = rules.variant("xiangqi")
    >>> p = v.start()
    >>> red, black = model_for(v).evaluate(p, p.pieces())
    >>> red == black  # the start is symmetric
    True
    >>> type(model_for(rules.variant("damas"))).__name__
    'DamasModel'
    >>> v = rules.variant("alquerque-grande")
    >>> type(model_for(v, v.start(players=2, rules="alquerque"))).__name__
    'GrandeAlquerqueRulesModel'
    >>> type(model_for(v, v.start(players=2, rules="grande"))).__name__
    'AlquerqueGrandeTwoSidesModel'
    >>> type(model_for(v, v.start(players=4, mode="teams"))).__name__
    'AlquerqueGrandeTwoSidesModel'
    >>> type(model_for(v, v.start(players=4, mode="slow"))).__name__
    'AlquerqueGrandeRivalsModel'
    """
    choice = _choice(type(position)) if position is not None else None
    if choice is None:
        choice = _choice(type(variant))
    if choice is None:
        raise NoModel(f"no engine model is registered for {variant.key!r}")
    return choice(position)


def model_at_level(position: Position[Any], settings: Level) -> tuple[GameModel, Level]:
    """The model for ``position`` as it plays at ``settings``, and the level as its game
    shapes it (:meth:`GameModel.adapt_level`, then :meth:`GameModel.for_level`)."""
    model = model_for(position.variant, position)
    settings = model.adapt_level(settings)
    return model.for_level(settings), settings
