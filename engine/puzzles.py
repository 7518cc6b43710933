"""Puzzles mined from finished games (issue 44): positions where one move is clearly best.

:func:`find_tactic` searches a position twice on a node budget: over every move (the best
move and its score) and over every move but that one (the best of the rest). The
position is a puzzle when the best move stands out by :data:`GAP` centipawns or more and
it wins (a forced win the others miss), wins material (it ends :data:`GAIN` or more ahead)
or saves the game (every other move loses by :data:`GAP` or more, it does not). A second,
deeper search (four times the nodes) must agree on the move and on the gap, or there is
no puzzle: a shallow search's illusion is not a puzzle. The solution is the deeper
search's principal variation, cut after the puzzle side's third move at most (the
opponent's replies in it are its best).

Scores are for the mover, in every configuration alike (two sides, teams, or four seats
on their own, where the search is paranoid: the mover against the rest).

>>> import rules
>>> v = rules.variant("damas")
>>> p = v.from_text("W:W1,4,5,8,9:B10,18,19,22,25,32")  # White's shot: two men for none
>>> t = find_tactic(p, nodes=800)
>>> v.format_move(p, t.move), t.kind, t.score - t.second >= GAP
('g2xe4xc6', 'material', True)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from engine.levels import TOP, level
from engine.models import model_at_level
from engine.search import Limits, Search, forced_plies
from rules import Position

GAP = 200
"""Centipawns by which the best move must beat every other (two pawns' worth)."""
GAIN = 150
"""How far ahead the best move must leave its player to win material."""
NODES = 1500
"""The first search's node budget per search (the check runs four times as many)."""
KINDS = ("win", "material", "save")
"""What a puzzle asks: find the forced win, win material, or save the game."""
MOST_MOVES = 3
"""The solution's moves of the puzzle side at most (the line until the gain is sure)."""


@dataclass(frozen=True, slots=True)
class Tactic:
    """A puzzle found in a position: the one clearly best move, the solution line (the
    puzzle side's moves and the opponent's best replies between them, starting with that
    move), what it achieves (``kind``: one of :data:`KINDS`), its score and the best other
    move's (centipawns for the mover; beyond ±990 000 a forced end), a difficulty (1 easy
    to 5) and the nodes both checks searched."""

    move: Hashable
    line: tuple[Hashable, ...]
    kind: str
    score: int
    second: int
    difficulty: int
    nodes: int


def _searches(model: Any, position: Position[Any], settings: Any, nodes: int,
              legal: list[Hashable]) -> tuple[Any, Any]:
    """The best over every move, and the best over every move but that one."""
    first = Search(model, position, Limits(nodes=nodes, seconds=None,
                                           quiescence=settings.quiescence))
    best = first.run()
    others = [m for m in legal if m != best.move]
    rest = Search(model, position, Limits(depth=max(1, best.depth), nodes=nodes, seconds=None,
                                          quiescence=settings.quiescence),
                  root_moves=others)
    rest.tt, rest.history = first.tt, first.history
    return best, rest.run()


def _kind(best: int, second: int) -> str | None:
    """What the best move does when it beats the best other by :data:`GAP`, or None."""
    if best - second < GAP:
        return None
    won, other_won = forced_plies(best), forced_plies(second)
    if won is not None and won > 0 and not (other_won is not None and other_won > 0):
        return "win"
    if best >= GAIN and won is None:
        return "material"
    if second <= -GAP and best > -GAIN and (won is None or won > 0):
        return "save"
    return None


def find_tactic(position: Position[Any], *, nodes: int = NODES) -> Tactic | None:
    """The puzzle in ``position`` for the seat to move, or None (see the module). A
    finished game, a set-up, several seats to move or a single legal move hold none."""
    if position.outcome() is not None or position.in_setup or len(position.to_move) != 1:
        return None
    legal = list(position.legal_moves())
    if len(legal) < 2:
        return None
    model, settings = model_at_level(position, level(TOP))
    best, second = _searches(model, position, settings, nodes, legal)
    kind = _kind(best.score, second.score)
    if kind is None:
        return None
    deep_best, deep_second = _searches(model, position, settings, 4 * nodes, legal)
    if deep_best.move != best.move or _kind(deep_best.score, deep_second.score) != kind:
        return None
    line = tuple(deep_best.pv[:2 * MOST_MOVES - 1]) or (best.move,)
    if len(line) % 2 == 0:  # end on the puzzle side's move
        line = line[:-1]
    ours = (len(line) + 1) // 2
    difficulty = min(5, ours + (1 if deep_best.depth > best.depth else 0)
                     + (1 if kind == "save" else 0))
    return Tactic(best.move, line, kind, deep_best.score, deep_second.score, difficulty,
                  best.nodes + second.nodes + deep_best.nodes + deep_second.nodes)
