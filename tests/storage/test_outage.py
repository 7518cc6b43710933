"""The repositories turn what their driver says of an outage into the core's typed family
(issue 36 §2): the PostgreSQL server stopped for real, read-only for real, SQLite's disk
full, read-only or failing; every request, read or write, raises a ``StorageUnavailable``
and never an asyncpg, ``OSError`` or ``sqlite3`` exception; the same repository works again
once the database is back (the pool reconnects by itself).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest

from service import MatchStatus
from service.errors import (
    CommitUncertain,
    DatabaseFull,
    DatabaseReadOnly,
    DatabaseUnreachable,
    ServiceError,
    StorageError,
    StorageUnavailable,
)
from service.records import Follow
from storage import PostgresRepository, SqliteRepository
from storage.errors import DatabaseInaccessible, DatabaseLost, DatabaseUnusable
from storage.postgres import outage_of as postgres_outage
from storage.sqlite import outage_of as sqlite_outage
from tests.outages import DiskFull, LogWatch, ServerDown
from tests.postgres import LocalServer

NOW = datetime(2026, 1, 1, tzinfo=UTC)

Call = Callable[[Any], Awaitable[object]]
REQUESTS: dict[str, Call] = {
    # reads
    "load_match": lambda r: r.load_match(1),
    "load_entries": lambda r: r.load_entries(1),
    "matches_of": lambda r: r.matches_of(7, None, (MatchStatus.ACTIVE,)),
    "due_matches": lambda r: r.due_matches(NOW),
    "pending_outbox": lambda r: r.pending_outbox(limit=10),
    "leaderboard": lambda r: r.leaderboard(1, "xiangqi", 0, 10),
    "get_guild_settings": lambda r: r.get_guild_settings(1),
    "heartbeat": lambda r: r.heartbeat(),
    "tournaments_in": lambda r: r.tournaments_in(None, ()),
    "known_names": lambda r: r.known_names(1),
    "note_of": lambda r: r.note_of(1, 7),
    # writes
    "beat": lambda r: r.beat(NOW),
    "lease_shards": lambda r: r.lease_shards([0], 1, "me", NOW, timedelta(seconds=90)),
    "remember_name": lambda r: r.remember_name(1, 7, "alice", NOW),
    "remember_locale": lambda r: r.remember_locale(7, "de"),
    "set_dms_closed": lambda r: r.set_dms_closed(7, True),
    "add_follow": lambda r: r.add_follow(Follow(7, 1, match_id=None, player_id=8)),
    "mark_delivered": lambda r: r.mark_delivered(1),
}


async def test_every_request_to_a_stopped_postgres_server_is_a_typed_refusal(
        restartable_postgres_url: tuple[LocalServer, str],
        caplog: pytest.LogCaptureFixture) -> None:
    server, url = restartable_postgres_url
    watch = LogWatch(caplog)
    repo = await PostgresRepository.open(url)
    down = ServerDown(server)
    try:
        await down.begin()
        refused: dict[str, StorageError] = {}
        for name, request in REQUESTS.items():
            with pytest.raises(StorageUnavailable) as caught:
                await request(repo)
            refused[name] = caught.value
        await down.end()
        assert {type(e) for e in refused.values()} == {DatabaseUnreachable}, refused
        # the driver's words are kept for the operator, as the cause; the password never
        assert all(e.database == repo.path and e.cause for e in refused.values())
        assert not any(isinstance(e.__cause__, StorageError) for e in refused.values())
        for request in REQUESTS.values():  # the same repository, reconnected
            await request(repo)
        assert (await repo.heartbeat()) == NOW
        assert len(watch.went()) == 1 and len(watch.back()) == 1
        assert f"({len(REQUESTS)} requests refused meanwhile)" in watch.back()[0]
        assert watch.tracebacks() == []
    finally:
        await repo.close()


async def test_a_read_only_postgres_server_refuses_writes_typed_and_still_reads(
        postgres_url: str) -> None:
    """A server in read-only mode (a standby, ``default_transaction_read_only``): reads
    work, every write is a ``DatabaseReadOnly``."""
    await (await PostgresRepository.open(postgres_url)).close()  # the schema, migrated
    # asyncpg passes unknown URL parameters to the server as settings
    pool = await asyncpg.create_pool(f"{postgres_url}&default_transaction_read_only=on",
                                     min_size=0, max_size=2)
    repo = PostgresRepository(postgres_url, pool)
    try:
        assert await repo.load_match(1) is None
        for name in ("beat", "remember_name", "set_dms_closed"):
            with pytest.raises(DatabaseReadOnly) as caught:
                await REQUESTS[name](repo)
            assert "read-only" in caught.value.cause
    finally:
        await repo.close()


def test_postgres_errors_map_onto_the_family() -> None:
    assert type(postgres_outage(asyncpg.DiskFullError("could not extend file"), "db")) \
        is DatabaseFull
    assert type(postgres_outage(asyncpg.AdminShutdownError("terminating"), "db")) \
        is DatabaseUnreachable
    assert type(postgres_outage(asyncpg.CannotConnectNowError("starting up"), "db")) \
        is DatabaseUnreachable
    broke = asyncpg.ConnectionDoesNotExistError("connection was closed in the middle")
    assert type(postgres_outage(broke, "db")) is DatabaseUnreachable
    assert type(postgres_outage(broke, "db", committing=True)) is CommitUncertain
    # a shutdown may end the session after the commit record was written
    shutdown = asyncpg.AdminShutdownError("terminating connection")
    assert type(postgres_outage(shutdown, "db", committing=True)) is CommitUncertain
    # a bug or a constraint is no outage: it goes on as it is
    assert postgres_outage(asyncpg.UniqueViolationError("duplicate key"), "db") is None
    assert postgres_outage(asyncpg.UndefinedTableError("no such table"), "db") is None


async def test_sqlite_read_only_and_io_errors_are_typed(tmp_path: Path) -> None:
    repo = await SqliteRepository.open(tmp_path / "tablero.db")
    try:
        # SQLite's own refusal: the connection may not write
        await repo._writer.execute("PRAGMA query_only = 1")
        with pytest.raises(DatabaseReadOnly) as caught:
            await repo.beat(NOW)
        assert "readonly" in caught.value.cause
        assert await repo.load_match(1) is None  # reads go on
        await repo._writer.execute("PRAGMA query_only = 0")
        await repo.beat(NOW)
        # a disk that fails a read
        real = repo._reader

        class Failing:
            def execute(self, *args: Any) -> Any:
                error = sqlite3.OperationalError("disk I/O error")
                error.sqlite_errorcode = 10  # type: ignore[attr-defined]
                raise error
        repo._reader = Failing()  # type: ignore[assignment]
        with pytest.raises(DatabaseUnreachable):
            await repo.load_match(1)
        repo._reader = real
        assert await repo.heartbeat() == NOW
    finally:
        await repo.close()


async def test_a_full_sqlite_disk_refuses_every_write_and_reads_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    watch = LogWatch(caplog)
    repo = await SqliteRepository.open(tmp_path / "tablero.db")
    full = DiskFull(repo)
    try:
        await repo.beat(NOW)
        await full.begin()
        writes = [n for n in REQUESTS if n in ("beat", "lease_shards", "remember_name",
                                               "remember_locale", "set_dms_closed",
                                               "add_follow", "mark_delivered")]
        for name in writes:
            with pytest.raises(DatabaseFull):
                await REQUESTS[name](repo)
        for name in set(REQUESTS) - set(writes):
            await REQUESTS[name](repo)  # reads still work on a full disk
        await full.end()
        await repo.beat(NOW + timedelta(hours=1))
        assert await repo.heartbeat() == NOW + timedelta(hours=1)
        # one line when it filled, one when a write went through again (reads between
        # them do not count as "back")
        assert len(watch.went()) == 1 and len(watch.back()) == 1
        assert full.refused == len(writes)
    finally:
        await repo.close()


def test_sqlite_errors_map_onto_the_family() -> None:
    def error(message: str, code: int | None = None) -> sqlite3.Error:
        e = sqlite3.OperationalError(message)
        if code is not None:
            e.sqlite_errorcode = code  # type: ignore[attr-defined]
        return e
    assert type(sqlite_outage(error("database or disk is full", 13), "t.db")) is DatabaseFull
    assert type(sqlite_outage(error("attempt to write a readonly database", 8), "t.db")) \
        is DatabaseReadOnly
    assert type(sqlite_outage(error("attempt to write a readonly database", 8 | 3 << 8),
                              "t.db")) is DatabaseReadOnly  # an extended code
    assert type(sqlite_outage(error("database is locked", 5), "t.db")) is DatabaseUnreachable
    assert type(sqlite_outage(error("disk I/O error"), "t.db")) is DatabaseUnreachable
    assert type(sqlite_outage(OSError(28, "No space left on device"), "t.db")) is DatabaseFull
    # a bug or a constraint is no outage
    assert sqlite_outage(sqlite3.IntegrityError("UNIQUE constraint failed"), "t.db") is None
    assert sqlite_outage(error("no such table: x", 1), "t.db") is None


def test_the_existing_storage_errors_are_members_of_the_family() -> None:
    """Start-up refusals and a deleted file are ``StorageError``s too: one family, which
    every adapter shows as a refusal (a ``ServiceError``)."""
    for cls in (DatabaseUnusable, DatabaseInaccessible, DatabaseLost, DatabaseFull):
        assert issubclass(cls, StorageError) and issubclass(cls, ServiceError)
    assert not issubclass(DatabaseLost, StorageUnavailable)  # it needs a restart
    assert DatabaseInaccessible("t.db", "cannot write").message == "cannot write"
