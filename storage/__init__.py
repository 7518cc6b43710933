"""Async persistence behind the service's ``Repository`` Protocol.

``SqliteRepository`` (the default: one file, WAL, foreign keys, one writer connection
behind an asyncio lock, ``BEGIN IMMEDIATE`` writes, versioned migrations at start-up) and
``PostgresRepository`` (several processes on one server; the same queries and migration
history, ``storage.sql`` and ``storage.schema``) and ``MemoryRepository`` (tests). All pass
the same contract tests (tests/storage). ``open_database`` picks by the setting: a
``postgresql://`` URL or a SQLite file.
"""

from pathlib import Path

from storage.memory import MemoryRepository
from storage.postgres import PostgresRepository, is_postgres_url
from storage.sqlite import SqliteRepository, open_repository

__all__ = ["MemoryRepository", "PostgresRepository", "SqliteRepository", "is_postgres_url",
           "open_database", "open_repository"]


async def open_database(target: str | Path, *, synchronous: str = "FULL",
                        check: bool = True, create: bool = True
                        ) -> SqliteRepository | PostgresRepository:
    """The repository ``target`` names: a ``postgresql://`` URL or a SQLite file path
    (``synchronous`` and ``check`` are SQLite's; ``create=False`` refuses a PostgreSQL
    database without Tablero's tables, where the tools that act on an installation look:
    a missing SQLite file is refused by the command line before it opens)."""
    if is_postgres_url(target):
        return await PostgresRepository.open(str(target), create=create)
    return await open_repository(target, synchronous=synchronous, check=check)
