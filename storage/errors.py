"""Why a database cannot be used. Each ``message`` names the file and says what to do.

>>> str(NotATableroDatabase("t.db", "it is a text file"))
't.db is not a Tablero database: it is a text file'
"""

from __future__ import annotations

from bot.service.errors import ServiceError


class DatabaseUnusable(Exception):
    """The database cannot be opened (start-up refuses it; the command exits non-zero)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


class NotATableroDatabase(DatabaseUnusable):
    """A damaged or foreign file: not SQLite, truncated, a bad header, someone else's
    tables, or a schema from a newer Tablero."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(path, f"{path} is not a Tablero database: {problem}")
        self.problem = problem


class DatabaseDamaged(DatabaseUnusable):
    """``PRAGMA quick_check`` found damage inside an otherwise readable file."""


class DatabaseInaccessible(DatabaseUnusable):
    """The file or its folder cannot be read or written (permissions, a read-only disk)."""


class DatabaseInUse(DatabaseUnusable):
    """Another running Tablero process holds the database (its shard lease is live), and
    this command must not act beside it (the console, ``tablero db copy``)."""


class DatabaseLost(ServiceError):
    """The database file was deleted or replaced while Tablero ran: nothing more is
    acknowledged (a move written now would vanish at the next start). A ``ServiceError``,
    so every adapter shows it as a refusal; restart Tablero to reopen the file."""
