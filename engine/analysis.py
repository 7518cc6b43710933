"""Weighing the moves of a finished game: what each move cost the seat that played it.

:func:`weigh_move` searches the position before a move twice on the same node budget:
once over every move (the best score) and once over the played move alone. Both scores
are for the mover, so the difference is what the move lost in every configuration alike:
two sides, two teams, or four seats on their own (where the search is paranoid, the
mover against the rest, and so is the score).

>>> import rules
>>> v = rules.variant("damas")
>>> p = v.start()
>>> w = weigh_move(p, v.parse_move(p, "d3-c4"))
>>> w.lost >= 0 and (w.best, w.played) == (w.played + w.lost, w.played)
True
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from engine.errors import NotToMoveError, TerminalPositionError, position_text
from engine.levels import TOP, level
from engine.models import model_at_level
from engine.search import Limits, Search, forced_plies
from rules import Position

ANALYSIS_NODES = 400
"""The node budget of each of a move's two searches (a few ms each)."""


@dataclass(frozen=True, slots=True)
class Weighing:
    """A played move beside the best one: both scores in centipawns for the mover
    (beyond ±990 000: a forced win or loss); ``lost`` is ``best - played``, never below 0
    (a played move the short search liked better than its own best counts as best).
    ``best_move``: the best move found (the played move when it was the best or forced)."""

    best: int
    played: int
    best_move: Hashable | None = None

    @property
    def lost(self) -> int:
        return max(0, self.best - self.played)

    @property
    def best_end(self) -> int | None:
        """Plies to the forced end the best move holds (> 0 a win, < 0 a loss), else None."""
        return forced_plies(self.best)

    @property
    def played_end(self) -> int | None:
        """The same after the played move."""
        return forced_plies(self.played)


def weigh_move(position: Position[Any], move: Hashable, *,
               nodes: int = ANALYSIS_NODES) -> Weighing:
    """How good ``move`` was in ``position`` next to the best move there, by the top
    level's judgement on ``nodes`` nodes a search (reproducible: no time limit binds).

    Raises :class:`TerminalPositionError` for a finished game and :class:`NotToMoveError`
    where several seats are to move at once (a set-up) or ``move`` is not legal.
    """
    if position.outcome() is not None or not position.to_move:
        raise TerminalPositionError("the game is over: there is no move to weigh",
                                    text=position_text(position))
    if position.in_setup or len(position.to_move) != 1:
        raise NotToMoveError("an arrangement is not weighed, nor a move of several seats "
                             "at once", text=position_text(position))
    legal = position.legal_moves()
    if move not in legal:
        raise NotToMoveError(f"{move!r} is not a legal move here",
                             text=position_text(position))
    if len(legal) == 1:
        return Weighing(0, 0, move)  # forced: it cost nothing
    model, settings = model_at_level(position, level(TOP))
    search = Search(model, position,
                    Limits(nodes=nodes, seconds=None, quiescence=settings.quiescence))
    best = search.run()
    if best.move == move:
        return Weighing(best.score, best.score, move)
    # The played move alone, as deep as the best one was judged (not deeper on the nodes
    # the other moves left over: depths of either parity judge differently), on the same
    # node budget, starting from what the first search learnt (its table and history:
    # most of the played move's tree is there already).
    alone = Search(model, position, Limits(depth=max(1, best.depth), nodes=nodes,
                                           seconds=None, quiescence=settings.quiescence),
                   root_moves=(move,))
    alone.tt, alone.history = search.tt, search.history
    return Weighing(best.score, alone.run().score, best.move)
