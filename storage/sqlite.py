"""The SQLite repository (aiosqlite): one file, WAL, foreign keys on.

Writes go through one writer connection behind an ``asyncio.Lock``, each in a
``BEGIN IMMEDIATE`` transaction; reads use a second connection, one single statement at a
time (a lock of their own), so each sees the latest committed snapshot (WAL) and reads
never wait for a write. A match row carries its seats as JSON so one
statement reads a whole match; the ``seats`` table indexes who plays where (``games_of``)
and is written in the same transaction. Moves are rows of ``moves`` with primary key
``(match_id, ply)``: of two writers appending the same ply exactly one succeeds.

The queries are ``storage.sql``'s, shared with PostgreSQL; so are the migrations
(``storage.schema``), applied at start-up: ``PRAGMA user_version`` holds how many have run.
Durability: ``synchronous=FULL`` by default, so a commit (an acknowledged move) is on the
disk before it is acknowledged and survives a power cut. ``synchronous="NORMAL"``
(``TABLERO_DB_SYNCHRONOUS=NORMAL``) is faster but a power cut (not a crash: WAL keeps the
file sound either way) may lose the last committed moves after players were told of them.

Failures are fast and clear (``storage.errors``): a foreign or damaged file, a read-only
folder or a schema from a newer Tablero make ``open`` raise ``DatabaseUnusable`` with the
file's name and what to do, after closing every connection it opened (an unclosed aiosqlite
connection thread keeps the process alive forever). ``PRAGMA quick_check`` runs at start.
A write first checks that the file on disk is still the one opened (device and inode): a
deleted or replaced file raises ``DatabaseLost`` and nothing more is acknowledged. While it
runs, what SQLite or the OS says of the disk becomes the core's typed family
(:func:`outage_of`): a full disk ``DatabaseFull``, a read-only one ``DatabaseReadOnly``, an
I/O error or a lock held too long ``DatabaseUnreachable``; the transaction is rolled back, so
nothing is stored in part, and the ``OutageLog`` tells the operator once.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import sqlite3
import threading
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from storage.counts import MoveCounts
from storage.errors import (
    DatabaseDamaged,
    DatabaseFull,
    DatabaseInaccessible,
    DatabaseLost,
    DatabaseReadOnly,
    DatabaseUnreachable,
    DatabaseUnusable,
    NewerSchema,
    NotATableroDatabase,
    StorageUnavailable,
)
from storage.outage import OutageLog
from storage.schema import ESTABLISHED as _ESTABLISHED
from storage.schema import MIGRATIONS, OLD_TABLES, TABLES, log_migration, statements
from storage.sql import INT64_MAX, INT64_MIN, SqlRepository, T

__all__ = [
    "INT64_MAX",
    "INT64_MIN",
    "MIGRATIONS",
    "_ESTABLISHED",
    "SqliteRepository",
    "open_repository",
    "outage_of",
]

log = logging.getLogger(__name__)

SYNCHRONOUS_MODES = ("FULL", "NORMAL")
SQLITE_HEADER = b"SQLite format 3\x00"

# SQLite's primary result codes (the low byte of an extended one) that say the disk, not
# the query, failed
_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_NOMEM, _SQLITE_READONLY = 5, 6, 7, 8
_SQLITE_IOERR, _SQLITE_FULL, _SQLITE_CANTOPEN, _SQLITE_PROTOCOL = 10, 13, 14, 15


def outage_of(exc: BaseException, path: str) -> StorageUnavailable | None:
    """The typed error for what SQLite (or the OS) said while ``path`` was in use, or
    None when ``exc`` is no outage (a bug: it goes on as it is).

    >>> full = sqlite3.OperationalError("database or disk is full")
    >>> type(outage_of(full, "t.db")).__name__, outage_of(ValueError("x"), "t.db")
    ('DatabaseFull', None)
    >>> type(outage_of(OSError(errno.EROFS, "Read-only file system"), "t.db")).__name__
    'DatabaseReadOnly'
    """
    cause = str(exc) or type(exc).__name__
    if isinstance(exc, sqlite3.Error):
        try:  # SQLite's result code, on every error the driver raises (Python 3.11+)
            primary: int | None = exc.sqlite_errorcode & 0xFF
        except AttributeError:  # one raised by hand: its words say what it is
            primary = None
        low = cause.lower()
        if primary == _SQLITE_FULL or "disk is full" in low:
            return DatabaseFull(path, cause)
        if primary == _SQLITE_READONLY or "readonly database" in low:
            return DatabaseReadOnly(path, cause)
        if primary in (_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_NOMEM, _SQLITE_IOERR,
                       _SQLITE_CANTOPEN, _SQLITE_PROTOCOL) or \
                "disk i/o error" in low or "database is locked" in low or \
                "unable to open database" in low:
            return DatabaseUnreachable(path, cause)
        return None
    if isinstance(exc, OSError):
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return DatabaseFull(path, cause)
        if exc.errno == errno.EROFS:
            return DatabaseReadOnly(path, cause)
        return DatabaseUnreachable(path, cause)
    return None


class SqliteRepository(SqlRepository):
    """The ``Repository`` Protocol on SQLite. Open with :func:`open_repository` (or
    ``await SqliteRepository.open(path)``); ``close()`` when done."""

    _unique_violation: tuple[type[BaseException], ...] = (sqlite3.IntegrityError,)

    def __init__(self, path: str | Path, writer: aiosqlite.Connection,
                 reader: aiosqlite.Connection) -> None:
        self.path = str(path)
        self._writer = writer
        self._reader = reader
        self._lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()
        self._identity = _identity(self.path)
        self._lost: str | None = None
        self.outage = OutageLog(self.path)
        self.counts = MoveCounts()

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL",
                   check: bool = True) -> SqliteRepository:
        """Open (creating and migrating as needed) the database at ``path``.

        ``synchronous``: "FULL" (default: an acknowledged write survives a power cut) or
        "NORMAL" (faster; a power cut may lose the last commits). ``check``: run
        ``PRAGMA quick_check`` first. Raises ``DatabaseUnusable`` (with every connection
        closed) when the file cannot serve as a Tablero database."""
        path = str(path)
        mode = synchronous.strip().upper()
        if mode not in SYNCHRONOUS_MODES:
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        if path != ":memory:":
            _precheck(path)
        opened: list[aiosqlite.Connection] = []
        try:
            for _ in range(2):
                opened.append(await aiosqlite.connect(path, isolation_level=None))
            writer, reader = opened
            for conn in opened:
                await conn.execute("PRAGMA busy_timeout = 10000")
                await conn.execute("PRAGMA foreign_keys = ON")
            if check:
                await _quick_check(path, writer)
            await _check_tables(path, writer)
            await writer.execute("PRAGMA journal_mode = WAL")
            await writer.execute(f"PRAGMA synchronous = {mode}")
            repo = cls(path, writer, reader)
            await repo._migrate()
            # The reader is a second connection: read once so a broken WAL surfaces here.
            await repo.schema_version()
            return repo
        except BaseException as exc:
            for conn in opened:
                with contextlib.suppress(Exception):
                    await conn.close()
            if isinstance(exc, DatabaseUnusable):
                raise
            if isinstance(exc, StorageUnavailable) and exc.__cause__ is not None:
                exc = exc.__cause__  # at start, what SQLite said refuses the file
            if isinstance(exc, sqlite3.Error | OSError):
                raise _unusable(path, exc) from exc
            raise

    async def _migrate(self) -> None:
        async with self._lock:
            async with self._writer.execute("PRAGMA user_version") as cur:
                row = await cur.fetchone()
            applied = int(row[0]) if row else 0
            if applied > len(MIGRATIONS):
                raise NewerSchema(self.path, applied, len(MIGRATIONS))
            for number in range(applied, len(MIGRATIONS)):
                await self._writer.execute("BEGIN IMMEDIATE")
                try:
                    for statement in statements(MIGRATIONS[number]):
                        await self._writer.execute(statement)
                    await self._writer.execute(f"PRAGMA user_version = {number + 1}")
                    await self._writer.execute("COMMIT")
                except BaseException:
                    # SQLite may have rolled back already (a full disk): its error counts
                    if self._writer.in_transaction:
                        await self._writer.execute("ROLLBACK")
                    raise
            log_migration(self.path, applied)

    async def columns(self, table: str) -> list[str]:
        return [str(r[1]) for r in await self._all(f"PRAGMA table_info({table})")]

    async def schema_version(self) -> int:
        rows = await self._all("PRAGMA user_version")
        return int(rows[0][0]) if rows else 0

    async def close(self) -> None:
        """Close both connections; a write transaction under way finishes first."""
        async with self._lock:
            try:
                await self._reader.close()
            finally:
                await self._writer.close()

    # ------------------------------------------------------------------ operations

    def check_file(self) -> None:
        """Raise ``DatabaseLost`` if the file on disk is no longer the one opened (deleted,
        moved away or replaced): what is written now would be lost at the next start."""
        if self._lost is None and self._identity is not None and \
                _identity(self.path) != self._identity:
            self._lost = (f"the database file {self.path} was deleted or replaced while "
                          "Tablero was running; nothing more is saved. Restore the file "
                          "(see README, Operations) and restart Tablero")
            log.critical("%s", self._lost)
        if self._lost is not None:
            raise DatabaseLost(self._lost, self.path, "deleted or replaced")

    async def backup(self, target: str | Path) -> Path:
        """A consistent copy of the database at ``target`` while it stays in use
        (``VACUUM INTO`` on a connection of its own: one read snapshot, writers go on).
        The copy is written beside ``target`` and renamed into place once complete and
        checked, so ``target`` is never a half-written file. Returns ``target``."""
        target = Path(target)
        if target.exists() and target.is_dir():
            target = target / Path(self.path).name
        if target.resolve() == Path(self.path).resolve():
            raise ValueError("the backup must not overwrite the database itself")
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
        stop = threading.Event()
        copying = asyncio.get_running_loop().run_in_executor(
            None, _vacuum_into, self.path, partial, target, stop)
        try:
            await asyncio.shield(copying)
        except asyncio.CancelledError:  # stopped: the copy ends and removes its file
            stop.set()
            try:
                await copying
            except Exception:
                raise asyncio.CancelledError from None
            # else it was in place before the stop reached it: a backup all the same
        return target

    # ------------------------------------------------------------------ write path

    async def _exec(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Cursor:
        """Every statement of a write goes through here (tests make it fail at step k
        to simulate a crash between two statements)."""
        return await self._writer.execute(sql, params)

    async def _transaction(self, body: Callable[[], Awaitable[T]]) -> T:
        async with self._lock:
            self.check_file()
            started = self.outage.now()
            try:
                await self._exec("BEGIN IMMEDIATE")
                try:
                    result = await body()
                    # Last look before acknowledging: a commit into a deleted file is lost.
                    self.check_file()
                    await self._exec("COMMIT")
                except BaseException:
                    # SQLite may have rolled back already (a full disk, an I/O error)
                    if self._writer.in_transaction:
                        await self._writer.execute("ROLLBACK")
                    raise
            except (sqlite3.Error, OSError) as exc:
                outage = self._outage(exc)
                if outage is None:
                    raise
                raise outage from exc
            self.outage.succeeded(started, write=True)
            return result

    def _outage(self, exc: BaseException) -> StorageUnavailable | None:
        """The typed outage for ``exc``, reported to the ``OutageLog``; None when ``exc``
        is no outage (a bug, or a constraint the caller handles: it goes on as it is)."""
        outage = outage_of(exc, self.path)
        if outage is not None:
            self.outage.failed(outage)
        return outage

    # ------------------------------------------------------------------ reads

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        # One read statement at a time: while any statement of a connection is still open,
        # later statements join its read transaction and see its (old) snapshot, so
        # overlapping reads would keep missing fresh commits.
        started = self.outage.now()
        try:
            async with self._read_lock, self._reader.execute(sql, params) as cur:
                rows = list(await cur.fetchall())
        except (sqlite3.Error, OSError) as exc:
            outage = self._outage(exc)
            if outage is None:
                raise
            raise outage from exc
        self.outage.succeeded(started, write=False)
        return rows


async def open_repository(path: str | Path, *, synchronous: str = "FULL",
                          check: bool = True) -> SqliteRepository:
    """Open (creating and migrating as needed) the database at ``path``
    (see ``SqliteRepository.open``)."""
    return await SqliteRepository.open(path, synchronous=synchronous, check=check)


# ---------------------------------------------------------------------- helpers of open

def _identity(path: str) -> tuple[int, int] | None:
    """The file's (device, inode); None for ``:memory:`` or a missing file."""
    if path == ":memory:":
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _precheck(path: str) -> None:
    """Refuse what SQLite would misreport or hang on: a folder, an unreadable file, a
    file that is not SQLite, a folder we cannot write in."""
    file = Path(path)
    if file.is_dir():
        raise NotATableroDatabase(path, "it is a folder")
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise DatabaseInaccessible(path, f"cannot create the folder {file.parent} for "
                                   f"{path}: {e.strerror or e}") from None
    if file.exists():
        try:
            with file.open("rb") as f:
                head = f.read(100)
        except OSError as e:
            raise DatabaseInaccessible(path, f"cannot read {path}: {e.strerror or e}") \
                from None
        if head and not head.startswith(SQLITE_HEADER[: len(head)]):
            raise NotATableroDatabase(path, "it is not a SQLite file (its first bytes are "
                                      f"{head[:16]!r})")
        if 0 < len(head) < 100:
            raise NotATableroDatabase(path, f"it is truncated ({len(head)} bytes, not "
                                      "even a SQLite header)")
        if head and not os.access(path, os.W_OK):
            raise DatabaseInaccessible(path, f"{path} is read-only: Tablero must write to "
                                       "it (check the file's owner and permissions)")
    if not os.access(file.parent, os.W_OK):
        raise DatabaseInaccessible(
            path, f"cannot write in the folder {file.parent}: Tablero keeps {file.name} and "
            f"its journal files ({file.name}-wal, {file.name}-shm) there (check the "
            "folder's permissions, or set TABLERO_DB to a writable place)")


def _repair_hint(path: str) -> str:
    return (f"restore the last backup (stop Tablero, copy the backup over {path}, remove "
            f"{path}-wal and {path}-shm), or salvage what is readable: sqlite3 {path} "
            f"'.recover' | sqlite3 {path}.recovered && tablero db check --db "
            f"{path}.recovered (see README, Operations)")


async def _quick_check(path: str, conn: aiosqlite.Connection) -> None:
    try:
        async with conn.execute("PRAGMA quick_check(5)") as cur:
            rows = [str(r[0]) for r in await cur.fetchall()]
    except UnicodeDecodeError:  # its report quotes damaged bytes (not UTF-8): damage too
        rows = ["the report of SQLite's check quotes unreadable bytes"]
    if rows != ["ok"]:
        raise DatabaseDamaged(path, f"{path} is damaged ({'; '.join(rows)[:300]}): "
                              f"{_repair_hint(path)}")


async def _check_tables(path: str, conn: aiosqlite.Connection) -> None:
    """A SQLite file holding tables Tablero never made belongs to something else."""
    async with conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cur:
        names = {str(r[0]) for r in await cur.fetchall()}
    # sqlite_* tables are SQLite's own (sqlite_sequence, the planner's sqlite_stat1 that
    # ANALYZE or PRAGMA optimize writes)
    foreign = sorted(n for n in names - TABLES - OLD_TABLES if not n.startswith("sqlite_"))
    if foreign:
        raise NotATableroDatabase(path, "it holds tables Tablero never made ("
                                  f"{', '.join(foreign[:5])})")


def _unusable(path: str, exc: BaseException) -> DatabaseUnusable:
    """A clear error for what SQLite (or the OS) said while opening ``path``."""
    text = str(exc)
    low = text.lower()
    if "not a database" in low or "malformed" in low or "corrupt" in low:
        return NotATableroDatabase(path, f"{text} ({_repair_hint(path)})")
    if "readonly" in low or "read-only" in low or "unable to open" in low or \
            isinstance(exc, PermissionError):
        return DatabaseInaccessible(path, f"cannot open {path} for writing: {text} (check "
                                    "the permissions of the file and its folder)")
    if isinstance(outage_of(exc, path), DatabaseFull):
        return DatabaseUnusable(path, f"the disk holding {path} is full ({text}): free some "
                                "space there, or set TABLERO_DB to a disk with room, and "
                                "start again")
    return DatabaseUnusable(path, f"cannot use {path}: {text}")


def _vacuum_into(source: str, partial: Path, target: Path,
                 stop: threading.Event | None = None) -> None:
    """``VACUUM INTO`` a partial file, check it, fsync it, rename it to ``target``;
    ``stop`` set interrupts the copy (its file removed, nothing renamed)."""
    partial.unlink(missing_ok=True)
    try:  # whatever fails, no partial copy stays (on a full disk it would keep it full)
        conn = sqlite3.connect(source, isolation_level=None)
        try:
            conn.execute("PRAGMA busy_timeout = 10000")
            if stop is not None:  # SQLite asks every 1000 steps whether to go on
                conn.set_progress_handler(lambda: int(stop.is_set()), 1000)
            conn.execute("VACUUM INTO ?", (str(partial),))
        finally:
            conn.close()
        if stop is not None and stop.is_set():
            raise sqlite3.OperationalError("interrupted")
        copy = sqlite3.connect(partial, isolation_level=None)
        try:
            found = [r[0] for r in copy.execute("PRAGMA quick_check")]
        finally:
            copy.close()
        if found != ["ok"]:
            raise DatabaseDamaged(str(target), f"the backup copy failed its check: {found}")
        with partial.open("rb+") as f:
            os.fsync(f.fileno())
        if stop is not None and stop.is_set():
            raise sqlite3.OperationalError("interrupted")
        os.replace(partial, target)
        with contextlib.suppress(OSError):  # make the rename itself durable
            fd = os.open(target.parent, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    finally:
        partial.unlink(missing_ok=True)
