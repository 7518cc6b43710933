"""Puzzles mined from finished games (issue 44): positions where one move is clearly best.

:func:`find_tactic` searches a position twice on a node budget: over every move (the best
move and its score) and over every move but that one (the best of the rest). The
position is a puzzle when the best move stands out by :data:`GAP` centipawns or more and
it wins (a forced win the others miss), wins material (it ends :data:`GAIN` or more ahead)
or saves the game (every other move loses by :data:`GAP` or more, it does not). A second,
deeper search (four times the nodes) must agree on the move and on the gap, or there is
no puzzle: a shallow search's illusion is not a puzzle. The solution is the deeper
search's principal variation (the other seats' replies in it are their best), followed
while the puzzle side's moves in it stay the one clear move (or the only legal one) and
cut before the first that is not, the advantage being secured by then: at most
:data:`MOST_MOVES` of the puzzle side's moves, and it always ends on one.

Scores are for the mover, in every configuration alike (two sides, teams, or four seats
on their own, where the search is paranoid, the mover against the rest, even where the
top level plays best-reply: :attr:`engine.search.Limits.best_reply`).

>>> import rules
>>> v = rules.variant("damas")
>>> p = v.from_text("W:W1,4,5,8,9:B10,18,19,22,25,32")  # White's shot: two men for none
>>> t = find_tactic(p, nodes=800)
>>> v.format_move(p, t.move), t.kind, t.score - t.second >= GAP
('g2xe4xc6', 'material', True)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
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
    """The best over every move, and the best over every move but that one (in turn
    order: a best-reply search's lines and forced wins are not the game's)."""
    first = Search(model, position, Limits(nodes=nodes, seconds=None,
                                           quiescence=settings.quiescence, best_reply=False))
    best = first.run()
    others = [m for m in legal if m != best.move]
    rest = Search(model, position, Limits(depth=max(1, best.depth), nodes=nodes, seconds=None,
                                          quiescence=settings.quiescence, best_reply=False),
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
    line = tuple(deep_best.pv) or (best.move,)
    line = _secured(model, settings, position, line, nodes)
    ours = _ours(position, line)
    difficulty = min(5, ours + (1 if deep_best.depth > best.depth else 0)
                     + (1 if kind == "save" else 0))
    return Tactic(best.move, line, kind, deep_best.score, deep_second.score, difficulty,
                  best.nodes + second.nodes + deep_best.nodes + deep_second.nodes)


def _ours(position: Position[Any], line: Sequence[Hashable]) -> int:
    """How many of ``line``'s moves are the puzzle side's (the seat to move first)."""
    seat = min(position.to_move)
    count, p = 0, position
    for move in line:
        count += p.to_move == {seat}
        p = p.play(move)
    return count


def _secured(model: Any, settings: Any, position: Position[Any],
             line: Sequence[Hashable], nodes: int) -> tuple[Hashable, ...]:
    """``line`` (the deeper search's principal variation, starting with the puzzle's
    move) kept while the puzzle side's moves are the one clear move there (beating every
    other by :data:`GAP`, or the only legal move) and while it is legal, at most
    :data:`MOST_MOVES` of them, ending on the puzzle side's last kept move. A later move
    of the puzzle side that others match is where the advantage is secured: the puzzle
    stops before it, so no second good answer is ever refused."""
    seat = min(position.to_move)
    kept: list[Hashable] = []
    end = 0  # the kept moves up to the puzzle side's last one
    ours = 0
    p = position
    for n, move in enumerate(line):
        if p.outcome() is not None or move not in set(p.legal_moves()):
            break
        if p.to_move == {seat}:
            if ours == MOST_MOVES:
                break
            if n > 0:
                legal = list(p.legal_moves())
                if len(legal) > 1:
                    best, second = _searches(model, p, settings, nodes, legal)
                    if best.move != move or best.score - second.score < GAP:
                        break
            ours += 1
            end = n + 1
        kept.append(move)
        p = p.play(move)
    return tuple(kept[:max(1, end)])


def mine_positions(positions: Sequence[Position[Any]], *,
                   nodes: int = NODES) -> list[Tactic | None]:
    """:func:`find_tactic` of each position in turn (the miner's batch: one call to a
    worker process for a few positions of a finished game)."""
    return [find_tactic(p, nodes=nodes) for p in positions]
