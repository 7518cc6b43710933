"""The engine's model of each game, one module a game, found through registration.

Each module registers its game's :class:`~engine.models.base.GameModel` choice for the
game's variant and position classes (:func:`~engine.models.base.register`);
:func:`model_for` finds it from a position. Importing this package registers them all.
"""

from rules import native

native.extend(__name__, __path__)  # the compiled core first, where it is built and fresh

from engine.models import alquerque, alquerque_grande, damas, querni, xiangqi  # noqa: E402
from engine.models.base import (  # noqa: E402
    GameModel,
    ModelChoice,
    NoModel,
    PathGameModel,
    Pieces,
    model_at_level,
    model_for,
    register,
)

GAME_MODULES = (alquerque, alquerque_grande, damas, querni, xiangqi)
"""The modules that register the games' models (imported for that)."""

__all__ = ["GAME_MODULES", "GameModel", "ModelChoice", "NoModel", "PathGameModel", "Pieces",
           "model_at_level", "model_for", "register"]
