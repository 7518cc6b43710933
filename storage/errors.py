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
           "DatabaseUnusable", "NewerSchema", "NotATableroDatabase", "StorageError",
           "StorageUnavailable"]


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


class NewerSchema(NotATableroDatabase):
    """Tablero's own database, migrated by a newer Tablero than this one (a downgrade):
    refused, since migrations only go forward; its message says the way back.

    >>> NewerSchema("t.db", 32, 31).message.split(":")[0]
    't.db was last used by a newer Tablero (its schema is 32; this one knows 31)'
    """

    def __init__(self, path: str, applied: int, known: int) -> None:
        DatabaseUnusable.__init__(
            self, path, f"{path} was last used by a newer Tablero (its schema is {applied}; "
            f"this one knows {known}): run that version again, or restore a backup taken "
            "before the upgrade to use this one (a database is never migrated back)")
        self.problem = f"its schema ({applied}) is from a newer Tablero"


class DatabaseDamaged(DatabaseUnusable):
    """``PRAGMA quick_check`` found damage inside an otherwise readable file."""


class DatabaseInaccessible(DatabaseUnusable):
    """The file or its folder cannot be read or written (permissions, a read-only disk)."""


class DatabaseInUse(DatabaseUnusable):
    """Another running Tablero process holds the database (its shard lease is live), and
    this command must not act beside it (the console, ``tablero db copy``)."""
