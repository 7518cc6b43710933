"""Levels 0 to 8: how deep, how long and how carefully each one thinks.

Weak levels do not play random moves; they make the mistakes people make: they look
fewer moves ahead (and sometimes, ``overlook`` of the time, only at their own move,
missing the reply), follow exchanges only one capture deep (``quiescence`` plies: level
1 sees a recapture but not a chain of them), and misjudge
positions (a seeded evaluation error of ``noise`` centipawns either way, consistent
within a search, so the level prefers plausible but worse moves rather than absurd
ones). Level 8 plays as well as the time allows. Level 0 (self-play only) is uniformly
random legal moves.

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


LEVELS: dict[int, Level] = {level.number: level for level in (
    Level(0, 0, 0, 0, 0, 0.0, 0),
    Level(1, 1, 100, 1, 60, 0.0, 20, 0.25),
    Level(2, 1, 200, 8, 40, 0.0, 60, 0.25),
    Level(3, 2, 300, 8, 30, 0.3, 150, 0.25),
    Level(4, 3, 700, 8, 20, 0.1, 300, 0.25),
    Level(5, 4, 1_500, 8, 10, 0.0, 600, 0.25),
    Level(6, 5, 3_000, 8, 5, 0.0, 1_500, 0.25),
    Level(7, 64, None, 8, 0, 0.0, 3_000, 0.5),
    Level(8, 64, None, 8, 0, 0.0, 6_000, 1.0),
)}
"""Levels 1-6 stop on a node budget (each about double the one below), so their moves
are the same on any machine for a given seed, unless a slow machine reaches a quarter of
the time budget first (so no level out-thinks level 7); levels 7 and 8 search for half
and all of the time budget (2 s unless the caller gives another)."""
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
