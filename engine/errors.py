"""The engine's typed errors: each is a ValueError carrying the position text it refused."""

from __future__ import annotations

from typing import Any

from rules import Position


def position_text(position: Position[Any]) -> str | None:
    """The text an error carries for ``position``; None when even that fails (a broken
    position must still get its typed error)."""
    try:
        return position.to_text()
    except Exception:
        return None


class EngineError(ValueError):
    """Base of every error the engine raises about its input.

    >>> str(EngineError("no move", text="setup - -"))
    'no move'
    """

    def __init__(self, message: str, *, text: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.text = text


class TerminalPositionError(EngineError):
    """The game is over in the position the engine was asked to move from."""


class NotToMoveError(EngineError):
    """The seat the engine was asked to play for is not to move (or several seats are and
    none was named)."""


class LevelError(EngineError):
    """A level outside 0..8 (or an unknown engine option)."""


class BoardMismatch(RuntimeError):
    """A game's search board (:mod:`engine.board`) disagrees with the rules API at the
    root of a search: a bug in the board, so the search refuses to play from it (the
    rules stay the referee of every move the engine returns)."""
