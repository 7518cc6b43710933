"""Tablero's rules core: pure, synchronous game logic for every game Tablero hosts.

>>> import rules
>>> v = rules.variant("xiangqi")
>>> p = v.start()
>>> p = p.play(v.parse_move(p, "h3-e3"))
>>> sorted(p.to_move)
[1]

The API names here are a contract (DESIGN §2). Game facts beyond it (captured counts,
seats out, teams, check, a setup phase...) are typed members of the :class:`Variant` and
:class:`Position` bases, with defaults each game overrides. Each game lives in its own
module and registers its variant(s) below; the conformance suite in ``tests/rules`` plays
them all.
"""

from rules import native

native.extend(__name__, __path__)  # the compiled core first, where it is built and fresh

from rules.core import (  # noqa: E402
    VARIANTS,
    AmbiguousMoveError,
    BoardFacts,
    GameRecord,
    IllegalMoveError,
    MoveMarks,
    NotationError,
    OptionError,
    Outcome,
    Piece,
    Position,
    PositionError,
    RulesError,
    SeatSkipError,
    UnknownVariantError,
    Variant,
    register,
    variant,
)

# One line per game: importing the module registers its variant(s).
from rules import alquerque  # noqa: E402, F401  isort: skip
from rules import alquerque_grande  # noqa: E402, F401  isort: skip
from rules import xiangqi  # noqa: E402, F401  isort: skip
from rules import xiangqi_records  # noqa: E402, F401  isort: skip
from rules import damas  # noqa: E402, F401  isort: skip
from rules import querni  # noqa: E402, F401  isort: skip

__all__ = [
    "VARIANTS",
    "AmbiguousMoveError",
    "BoardFacts",
    "GameRecord",
    "IllegalMoveError",
    "MoveMarks",
    "NotationError",
    "OptionError",
    "Outcome",
    "Piece",
    "Position",
    "PositionError",
    "RulesError",
    "SeatSkipError",
    "UnknownVariantError",
    "Variant",
    "register",
    "variant",
]
