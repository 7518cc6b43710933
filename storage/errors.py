"""Why a database cannot be used at start. Each ``message`` names the file and says what
to do. These are the start-up branch of the core's one family of storage errors
(``service.errors.StorageError``); what fails while Tablero runs is a
``StorageUnavailable`` (unreachable, full, read-only, commit uncertain) or ``DatabaseLost``,
declared there so the core catches them without importing storage.

>>> str(NotATableroDatabase("t.db", "it is a text file"))
't.db is not a Tablero database: it is a text file'
"""

from __future__ import annotations

from service.errors import (
    CommitUncertain,
    DatabaseFull,
    DatabaseLost,
    DatabaseReadOnly,
    DatabaseUnreachable,
    StorageError,
    StorageUnavailable,
)

__all__ = ["CommitUncertain", "DatabaseDamaged", "DatabaseFull", "DatabaseInUse",
           "DatabaseInaccessible", "DatabaseLost", "DatabaseReadOnly", "DatabaseUnreachable",
           "DatabaseUnusable", "NotATableroDatabase", "StorageError", "StorageUnavailable"]


class DatabaseUnusable(StorageError):
    """The database cannot be opened (start-up refuses it; the command exits 3). Its
    message is the operator's, in English, with the file's name."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message, path, message)
        self.path = path


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
