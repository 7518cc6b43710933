"""Database outages for the tests, real ones where the machine allows it.

* ``ServerDown``: the PostgreSQL server really stops (``pg_ctl stop -m fast``: every
  session ended, new connections refused) and starts again on the same port and data.
* ``DiskFull``: SQLite's disk refuses to take more, the way a full disk does with a WAL
  database: the pages of a write wait in SQLite's cache and go to the WAL file at COMMIT,
  which then fails with ``SQLITE_FULL`` ("database or disk is full", SQLite's own error,
  raised at the repository's statement hook). A real small file system needs root to
  mount; ``test_a_size_limit_fills_the_database_for_real`` makes SQLite itself run out of
  room through ``PRAGMA max_page_count`` instead.
* ``LogWatch``: what the operator's log said meanwhile: the outage lines of the
  repository, and every record that carries a traceback (there must be none).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Sequence
from typing import Any

import pytest

from service.errors import DatabaseFull, DatabaseUnreachable, StorageUnavailable
from tests.postgres import LocalServer

SQLITE_FULL = 13


def full_disk_error() -> sqlite3.OperationalError:
    """What SQLite raises when the disk is full (the code Python 3.11+ attaches too)."""
    error = sqlite3.OperationalError("database or disk is full")
    error.sqlite_errorcode = SQLITE_FULL  # type: ignore[attr-defined]
    error.sqlite_errorname = "SQLITE_FULL"  # type: ignore[attr-defined]
    return error


class ServerDown:
    """The PostgreSQL server of ``server`` goes down and comes back."""

    expected: type[StorageUnavailable] = DatabaseUnreachable
    kind = "postgres"

    def __init__(self, server: LocalServer) -> None:
        self.server = server

    async def begin(self) -> None:
        await asyncio.to_thread(self.server.shut_down)

    async def end(self) -> None:
        await asyncio.to_thread(self.server.start_again)


class DiskFull:
    """The disk of a ``SqliteRepository`` is full from ``begin`` to ``end``: every
    COMMIT fails as SQLite's does (reads still work, as they do on a full disk)."""

    expected: type[StorageUnavailable] = DatabaseFull
    kind = "sqlite"

    def __init__(self, repository: Any) -> None:
        self.repository = repository
        self.refused = 0
        self._exec = repository._exec

    async def _full_exec(self, sql: str, params: Sequence[Any] = ()) -> Any:
        if sql == "COMMIT":
            self.refused += 1
            raise full_disk_error()
        return await self._exec(sql, params)

    def fill(self) -> None:
        self.repository._exec = self._full_exec

    def free(self) -> None:
        self.repository._exec = self._exec

    async def begin(self) -> None:
        self.fill()

    async def end(self) -> None:
        self.free()


class LogWatch:
    """The log records of a test (``caplog`` at INFO): the repository's outage lines
    and the tracebacks."""

    def __init__(self, caplog: pytest.LogCaptureFixture) -> None:
        self.caplog = caplog
        caplog.set_level(logging.INFO)

    def went(self) -> list[str]:
        return [r.getMessage() for r in self.caplog.records
                if r.name == "tablero.storage" and "is unavailable" in r.getMessage()]

    def back(self) -> list[str]:
        return [r.getMessage() for r in self.caplog.records
                if r.name == "tablero.storage" and " is back after " in r.getMessage()]

    def tracebacks(self) -> list[str]:
        return [f"{r.name}: {r.getMessage()}" for r in self.caplog.records
                if r.exc_info is not None or r.exc_text]

    def loud(self) -> list[str]:
        """Records at WARNING or above other than the two outage lines."""
        return [f"{r.name}: {r.getMessage()}" for r in self.caplog.records
                if r.levelno >= logging.WARNING and r.name != "tablero.storage"]
