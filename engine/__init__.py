"""Tablero's computer players: a search over the public rules API, per-game evaluations,
levels 1 to 8 (0: random moves), and Fairy-Stockfish for xiangqi's strongest levels when
it is installed. It imports :mod:`rules` only; the rules core does not know it.

>>> import rules, engine
>>> v = rules.variant("xiangqi")
>>> choice = engine.choose_move(v.start(), level=2, seed=3, fairy=False)
>>> choice.engine, choice.seat, choice.move in v.start().legal_moves()
('tablero', 0, True)
>>> engine.choose_move(v.from_text("3rkr3/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1"))
Traceback (most recent call last):
...
engine.errors.TerminalPositionError: the game is over (checkmate): there is no move to choose
"""

from rules import native

native.extend(__name__, __path__)  # the compiled core first, where it is built and fresh

from engine.analysis import ANALYSIS_NODES, Weighing, weigh_move  # noqa: E402
from engine.errors import (  # noqa: E402
    EngineError,
    LevelError,
    NotToMoveError,
    TerminalPositionError,
)
from engine.levels import DEFAULT_SECONDS, LEVELS, TOP, Level, level  # noqa: E402
from engine.player import Choice, Progress, choose_move, fairy_available  # noqa: E402

__all__ = [
    "ANALYSIS_NODES",
    "DEFAULT_SECONDS",
    "LEVELS",
    "TOP",
    "Choice",
    "EngineError",
    "Level",
    "LevelError",
    "NotToMoveError",
    "Progress",
    "TerminalPositionError",
    "Weighing",
    "choose_move",
    "fairy_available",
    "level",
    "weigh_move",
]
