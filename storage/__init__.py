"""Async persistence behind the service's ``Repository`` Protocol.

``SqliteRepository`` (the default: one file, WAL, foreign keys, one writer connection
behind an asyncio lock, ``BEGIN IMMEDIATE`` writes, versioned migrations at start-up) and
``MemoryRepository`` (tests). Both pass the same contract tests (tests/storage).
"""

from storage.memory import MemoryRepository
from storage.sqlite import SqliteRepository, open_repository

__all__ = ["MemoryRepository", "SqliteRepository", "open_repository"]
