"""Levels 0 to 8: how deep, how long and how carefully each one thinks.

Weak levels do not play random moves; they make the mistakes people make: they slip
(``slip`` of the time they play a plausible lesser move), they look
fewer moves ahead (and sometimes, ``overlook`` of the time, only at their own move,
missing the reply), follow exchanges only one capture deep (``quiescence`` plies: level
1 sees a recapture but not a chain of them), and misjudge
positions (a seeded evaluation error of ``noise`` centipawns either way, consistent
within a search, so the level prefers plausible but worse moves rather than absurd
ones). Level 8 plays as well as the time allows. Level 0 (self-play only) is uniformly
random legal moves.

These settings are shared; a game whose branching or evaluation scale would make them
mean something else shapes them through its model's documented hook,
:meth:`engine.models.GameModel.adapt_level` (default: unchanged), so that each level
stays a step stronger than the one below. Four do: Querni, whose 50-200 moves a
turn end every shared node budget of levels 1-5 within three plies (its levels 1-6
misjudge by 300 down to 0 centi-turns and look one ply (1-4), two (5) or part of a
third (6); 7 and 8 make no mistakes and look three whole plies (7) and part of a
fourth (8): :meth:`engine.models.querni.QuerniModel.adapt_level`; level 8 also judges by
the turns still to go: :class:`engine.models.querni.QuerniTopModel`), Alquerque on its
5×5 board, where twice level 7's nodes changed no game and level 8 searches eight times as many
(:attr:`engine.models.alquerque.AlquerqueModel.level_changes`), Alquerque grande played by two
sides (two players by either rule set, ``teams``), where level 8 searches four times
as many (:data:`engine.models.alquerque.GRANDE_TWO_SIDES_LEVELS`), and Alquerque grande with four
individual seats (``fast``, ``slow``), where looking further hardly pays against three
rivals and its levels are set apart by how often they slip
(:class:`engine.models.alquerque_grande.AlquerqueGrandeRivalsModel`). Levels 7 and 8
of Alquerque grande with four individual seats value a finish by its place (second of
four is not a loss: :class:`engine.models.alquerque_grande.AlquerqueGrandeTopModel`). The ladder
(``bench/bench_ladder.py``, figures in ``bench/results/``) measures each configuration.

>>> LEVELS[1].depth, LEVELS[6].nodes, LEVELS[8].nodes, LEVELS[7].time_share
(1, 3000, None, 0.5)
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import LevelError


@dataclass(frozen=True, slots=True)
class Level:
    """One level's settings (see the module docstring); ``arrange_effort`` is how hard
    it works on a Querni arrangement (hill-climbing rounds)."""

    number: int
    depth: int
    nodes: int | None
    quiescence: int
    noise: int
    overlook: float
    arrange_effort: int
    time_share: float = 1.0
    """The share of the per-move time budget the level may use."""
    min_nodes: int = 0
    """Nodes searched before the time budget may stop the search: a slow or busy
    machine cannot make a time-bound level weaker than the node-bound ones below it."""
    slip: float = 0.0
    """How often the level plays one of the next three moves of a one-ply look instead
    of its search's choice: a plausible move, not its best. Look-ahead alone did not
    set the levels apart everywhere: in Querni the node budgets of levels 1-5 all end
    in the first ply (50-200 moves a turn; level 3 scored 49 % against level 2), in
    Alquerque grande ``fast`` three rivals make look-ahead guesswork (level k+1 scored
    44-56 % against level k), and in Alquerque level 6 scored 53 % against level 5."""
    arrange_chain: int = 16
    """The longest chain of touching consecutive numbers a Querni ``choose`` arrangement
    of this level may hold (16: no limit). Two rings of eight chained numbers clear the
    board in two turns, so the beginner levels must not arrange that (issue 38: level 2
    arranged an eight-stone chain and won at ply 7): 3 at levels 1-2, then one more a
    level up to 7 at level 6; levels 7 and 8 arrange as well as they can."""


LEVELS: dict[int, Level] = {level.number: level for level in (
    Level(0, 0, 0, 0, 0, 0.0, 0),
    Level(1, 1, 100, 1, 60, 0.0, 20, 0.25, 100, 0.8, arrange_chain=3),
    Level(2, 1, 200, 8, 40, 0.0, 60, 0.25, 200, 0.6, arrange_chain=3),
    Level(3, 2, 300, 8, 30, 0.1, 150, 0.25, 300, 0.4, arrange_chain=4),
    Level(4, 3, 700, 8, 20, 0.0, 300, 0.25, 700, 0.22, arrange_chain=5),
    Level(5, 4, 1_500, 8, 10, 0.0, 600, 0.25, 1_500, 0.1, arrange_chain=6),
    Level(6, 8, 3_000, 8, 5, 0.0, 1_500, 0.25, 3_000, 0.03, arrange_chain=7),
    Level(7, 64, None, 8, 0, 0.0, 3_000, 0.5, 6_000),
    Level(8, 64, None, 8, 0, 0.0, 6_000, 1.0, 12_000),
)}
"""Levels 1-6 stop on a node budget (each about double the one below), so their moves
are the same on any machine for a given seed (their ``min_nodes`` is that budget, so a
slow machine or a small time budget does not cut them short; 3 000 nodes take 0.1-0.3 s
here); levels 7 and 8 search for half
and all of the time budget (2 s unless the caller gives another), and search at least
6 000 and 12 000 nodes (``min_nodes``; about 0.4 and 0.8 s at 15 000 nodes/s) while the
whole budget lasts: the time promised per move is kept. With ``floors``
(:func:`engine.choose_move`, ``tablero selfplay --floors``) they search their floors
however long it takes, and with a budget too small to pass them (``--movetime 1``) stop
on them at the first check past them: reproducible on any machine, and what the
strength ladder measures."""
TOP = 8
DEFAULT_SECONDS = 2.0
"""The per-move time budget when none is given (the top level uses all of it)."""


def level(number: int) -> Level:
    """The settings of level ``number`` (0..8); LevelError otherwise.

    >>> level(9)
    Traceback (most recent call last):
    ...
    engine.errors.LevelError: there is no level 9: levels go from 0 (random moves) to 8
    """
    if isinstance(number, bool) or number not in LEVELS:
        raise LevelError(f"there is no level {number}: levels go from 0 (random moves) "
                         f"to {TOP}", text=str(number))
    return LEVELS[number]
