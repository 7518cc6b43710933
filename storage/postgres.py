"""The PostgreSQL repository (asyncpg): several bot processes may share one database.

Every query is ``storage.sql``'s (the SQLite repository runs the very same text; here its
``?`` placeholders become ``$1, $2, ...``), and the schema is ``storage.schema``'s
migration history rendered for PostgreSQL, counted in the one-row table
``tablero_schema``. Migrations run at start-up under a transaction-level advisory lock, so
processes starting together migrate once.

Each write is a transaction on a pooled connection of its own, and writes of one process
run side by side as those of several processes do (the server's commits then share
their disk flushes); reads take any pooled connection. The statement under way finds
its transaction's connection in a context variable (each write runs in its own task).
The database itself guards, within a process as across processes: ``save`` is an
``UPDATE ... WHERE version = ?`` (at READ COMMITTED a second writer waits for the first
one's row lock, then finds the version changed: ``Conflict``), the primary key
``(match_id, ply)`` refuses a ply twice, a deadlock the server breaks is a ``Conflict``
too (the transaction left nothing behind; the service retries it),
``extend_clocks`` is a compare-and-set on the shard's clock beat, and lease and clock
transactions take the one-row ``process_lock`` first, so they run one after the other.

A ``postgresql://`` URL may carry a password: messages name the server with the password
replaced by ``***``.

An outage is a typed refusal (:func:`outage_of`): a server that is down, restarting or cut
off raises ``DatabaseUnreachable``, a full disk ``DatabaseFull``, a read-only server
``DatabaseReadOnly``, a connection that broke during the commit ``CommitUncertain``; a
transaction that failed before its commit left nothing behind. The pool reconnects by
itself: the first failure of an outage expires every pooled connection, so none that died
with the server is used again once it is back; the ``OutageLog`` tells the operator when
the database went and when it came back.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any, ClassVar
from urllib.parse import urlsplit, urlunsplit

from service.errors import Conflict
from service.records import MatchRecord, OutboxFn, RatingChange, RecordEntry
from storage.counts import MoveCounts
from storage.errors import (
    CommitUncertain,
    DatabaseFull,
    DatabaseInaccessible,
    DatabaseReadOnly,
    DatabaseUnreachable,
    DatabaseUnusable,
    NewerSchema,
    NotATableroDatabase,
    StorageUnavailable,
)
from storage.outage import OutageLog
from storage.schema import (
    MIGRATIONS,
    OLD_TABLES,
    POSTGRES_TABLES,
    for_postgres,
    log_migration,
    statements,
)
from storage.sql import SqlRepository, T, select_match

URL_SCHEMES = ("postgresql://", "postgres://")
_MIGRATION_LOCK = 0x7461626C65726F  # "tablero": the advisory lock held while migrating
MATCH_CHANNEL = "tablero_match"
"""The NOTIFY channel of committed match changes (payload ``'<match id>:<version>'``)."""
CONNECT_TIMEOUT = 10.0
"""Seconds a new connection may take: a server that does not answer is unreachable (the
person is told so) rather than a request that hangs."""


_SETUP_ADVICE = {
    "3F000": " (the URL's search_path names a schema that does not exist: CREATE SCHEMA it "
             "on the server, owned by the role Tablero connects as)",
    "42501": " (the role Tablero connects as must be allowed to create tables: make it the "
             "database's owner, createdb -O ROLE DATABASE, or GRANT CREATE ON SCHEMA "
             "public TO ROLE)",
}
"""What to do about the refusals of a server not set up for Tablero yet, by SQLSTATE:
no schema to create in (invalid_schema_name), no right to create (insufficient_privilege:
since PostgreSQL 15 only the database's owner may create in its public schema)."""


def is_postgres_url(target: object) -> bool:
    """Whether a database setting names a PostgreSQL server rather than a SQLite file.

    >>> is_postgres_url("postgresql://bot@db.example/tablero"), is_postgres_url("t.db")
    (True, False)
    """
    return isinstance(target, str) and target.startswith(URL_SCHEMES)


def redact(url: str) -> str:
    """``url`` with its password (if any) replaced by ``***``.

    >>> redact("postgresql://bot:s3cret@db:5432/tablero")
    'postgresql://bot:***@db:5432/tablero'
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


@lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders numbered as PostgreSQL wants them (the shared
    queries hold no ``?`` inside a literal).

    >>> numbered("SELECT a FROM t WHERE b = ? AND c IN (?, ?)")
    'SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)'
    """
    count = iter(range(1, sql.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(count)}", sql)


def outage_of(exc: BaseException, database: str, *, committing: bool = False
              ) -> StorageUnavailable | None:
    """The typed error for what asyncpg (or the OS) said while ``database`` was in use,
    or None when ``exc`` is no outage (a bug, or a constraint the caller handles: it goes
    on as it is). ``committing``: the transaction's COMMIT was under way, so a broken
    connection leaves its outcome unknown.

    >>> type(outage_of(ConnectionRefusedError(111, "refused"), "db")).__name__
    'DatabaseUnreachable'
    >>> type(outage_of(ConnectionResetError(104, "reset"), "db", committing=True)).__name__
    'CommitUncertain'
    >>> outage_of(ValueError("x"), "db") is None
    True
    """
    import asyncpg  # type: ignore[import-untyped]

    cause = str(exc) or type(exc).__name__
    if isinstance(exc, asyncpg.DiskFullError):
        return DatabaseFull(database, cause)
    if isinstance(exc, asyncpg.ReadOnlySQLTransactionError):
        return DatabaseReadOnly(database, cause)
    # A protocol an outage left mid-operation says "another operation is in progress"
    # (InternalClientError): the connection is as good as lost.
    lost = isinstance(exc, OSError | TimeoutError | asyncpg.PostgresConnectionError |
                      asyncpg.InternalClientError) or (
        isinstance(exc, asyncpg.InterfaceError) and "closed" in cause
        and "pool" not in cause)
    # a server shutting down may end the session after the commit record is written
    ended = isinstance(exc, asyncpg.OperatorInterventionError)
    if committing and (lost or ended):
        return CommitUncertain(database, cause)
    if lost or ended or isinstance(exc, asyncpg.InsufficientResourcesError):
        return DatabaseUnreachable(database, cause)
    return None


class _Rows:
    """The rows a statement returned, read like an aiosqlite cursor."""

    def __init__(self, rows: list[Any]) -> None:
        self._rows = rows

    async def fetchone(self) -> Any:
        return tuple(self._rows[0]) if self._rows else None

    async def fetchall(self) -> Iterable[Any]:
        return [tuple(r) for r in self._rows]


class PostgresRepository(SqlRepository):
    """The ``Repository`` Protocol on PostgreSQL. Open with
    ``await PostgresRepository.open(url)``; ``close()`` when done."""

    # json has no equality (UNION needs one): the prefs come as text, as SQLite's do
    _prefs_sql: ClassVar[str] = (
        "json_object_agg(p.user_id, p.notify || COALESCE(' ' || p.time_zone, ''))::text")
    _select_match: ClassVar[str] = select_match(
        _prefs_sql, "json_agg(DISTINCT f.user_id)::text",
        "json_object_agg(r.user_id, json_build_array(r.mu, r.sigma, r.wins, r.losses, "
        "r.draws))::text")

    def __init__(self, url: str, pool: Any) -> None:
        self.path = redact(url)  # what messages call the database
        self._url = url  # for the listening connection (never shown)
        self._pool = pool
        # the connection of the write transaction under way in this task
        self._conn: contextvars.ContextVar[Any] = contextvars.ContextVar("tablero_pg_conn")
        import asyncpg
        self._unique_violation = (asyncpg.UniqueViolationError,)
        self._deadlock = asyncpg.DeadlockDetectedError
        self._driver_errors = (OSError, TimeoutError, asyncpg.PostgresError,
                               asyncpg.InterfaceError, asyncpg.InternalClientError)
        self.outage = OutageLog(self.path)
        self.counts = MoveCounts()

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 10,
                   create: bool = True) -> PostgresRepository:
        """Connect to ``url`` and migrate its schema to this Tablero's (``create=False``:
        a database without Tablero's tables is refused, not set up). Raises
        ``DatabaseUnusable`` (nothing left open) when the server cannot serve."""
        try:
            import asyncpg
        except ImportError:
            raise DatabaseUnusable(redact(url), "PostgreSQL needs the asyncpg driver: pip "
                                   "install -e \".[postgres]\"") from None
        name = redact(url)
        try:
            # A connection goes back to the pool as it came: asyncpg rolls back a
            # transaction left open either way, and Tablero keeps no session state (no
            # SET, LISTEN, cursors or session locks), so the default reset query (a round
            # trip at every release: one more per move) is skipped. No floor of open
            # connections (min_size 0): during an outage asyncpg would retry it on its
            # own, logging a trace each time; a request opens what it needs.
            pool = await asyncpg.create_pool(url, min_size=0, init_size=1,
                                             max_size=pool_size, command_timeout=60,
                                             reset=_keep_session, timeout=CONNECT_TIMEOUT)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as e:
            raise DatabaseInaccessible(name, f"cannot connect to {name}: {e}") from None
        repo = cls(url, pool)
        try:
            await repo._migrate(create)
        except BaseException as exc:
            await pool.close()
            if isinstance(exc, asyncpg.PostgresError):
                advice = _SETUP_ADVICE.get(exc.sqlstate, "")
                raise DatabaseUnusable(name, f"cannot use {name}: {exc}{advice}") from exc
            raise
        return repo

    async def _migrate(self, create: bool = True) -> None:
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            tables = {r[0] for r in await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
            foreign = sorted(tables - POSTGRES_TABLES - OLD_TABLES)
            if foreign:
                raise NotATableroDatabase(self.path, "it holds tables Tablero never made ("
                                          f"{', '.join(foreign[:5])})")
            if not tables and not create:
                raise DatabaseUnusable(self.path, f"{self.path} holds no Tablero database "
                                       "(no tablero_schema table): give the right one with "
                                       "--db or TABLERO_DB; nothing was created")
            if tables and "tablero_schema" not in tables:
                raise NotATableroDatabase(self.path, "it holds Tablero's tables but no "
                                          "tablero_schema (was it copied by hand?)")
            await conn.execute("CREATE TABLE IF NOT EXISTS tablero_schema (id INTEGER "
                               "PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)")
            applied = await conn.fetchval("SELECT version FROM tablero_schema") or 0
            if applied > len(MIGRATIONS):
                raise NewerSchema(self.path, applied, len(MIGRATIONS))
            for number in range(applied, len(MIGRATIONS)):
                for statement in statements(for_postgres(MIGRATIONS[number])):
                    await conn.execute(statement)
            if applied < len(MIGRATIONS):
                await conn.execute(
                    "INSERT INTO tablero_schema (id, version) VALUES (1, $1) ON CONFLICT "
                    "(id) DO UPDATE SET version = excluded.version", len(MIGRATIONS))
        log_migration(self.path, applied)  # once the transaction committed

    async def _save_in(self, before: MatchRecord, after: MatchRecord,
                       append: Sequence[RecordEntry], ratings: RatingChange | None,
                       outbox: OutboxFn | None) -> MatchRecord:
        """``save``'s statements and a NOTIFY of the change (sent when the transaction
        commits, never for one rolled back): live readers hear of a move at once."""
        stored = await super()._save_in(before, after, append, ratings, outbox)
        await self._exec("SELECT pg_notify(?, ?)",
                         (MATCH_CHANNEL, f"{stored.id}:{stored.version}"))
        return stored

    async def listen_matches(self, changed: Callable[[int, int], None]
                             ) -> Callable[[], Awaitable[None]]:
        """LISTEN to the committed match changes on a connection of its own (the pool's
        keep no session state); the returned function stops and closes it."""
        import asyncpg

        try:
            conn = await asyncpg.connect(self._url, timeout=CONNECT_TIMEOUT)
        except self._driver_errors as exc:
            outage = await self._outage(exc)
            if outage is None:
                raise
            raise outage from exc

        def heard(_conn: object, _pid: int, _channel: str, payload: str) -> None:
            match, _sep, version = payload.partition(":")
            if match.isdigit() and version.isdigit():
                changed(int(match), int(version))

        await conn.add_listener(MATCH_CHANNEL, heard)

        async def stop() -> None:
            with contextlib.suppress(*self._driver_errors):
                await conn.close(timeout=5)

        return stop

    async def columns(self, table: str) -> list[str]:
        rows = await self._all("SELECT column_name FROM information_schema.columns WHERE "
                               "table_schema = current_schema() AND table_name = ? ORDER BY "
                               "ordinal_position", (table,))
        return [str(r[0]) for r in rows]

    async def _after_copy(self) -> None:
        """Identity counters past the copied ids (the next match gets a new number)."""
        async def body() -> None:
            for table in ("matches", "outbox", "tournaments", "vacations", "conditional_moves",
                          "follows", "puzzles"):
                await self._exec(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                 f"max(id)) FROM {table} HAVING max(id) IS NOT NULL")
        await self._transaction(body)

    async def schema_version(self) -> int:
        rows = await self._all("SELECT version FROM tablero_schema")
        return int(rows[0][0]) if rows else 0

    async def close(self) -> None:
        """Close the pool; write transactions under way finish first."""
        await self._pool.close()

    async def _exec(self, sql: str, params: Sequence[Any] = ()) -> _Rows:
        return _Rows(await self._conn.get().fetch(numbered(sql), *params))

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        started = self.outage.now()
        try:
            async with self._pool.acquire() as conn:
                try:
                    rows = [tuple(r) for r in await conn.fetch(numbered(sql), *params)]
                except self._driver_errors as exc:
                    self._drop_if_broken(conn, exc)
                    raise
        except self._driver_errors as exc:
            outage = await self._outage(exc)
            if outage is None:
                raise
            raise outage from exc
        self.outage.succeeded(started, write=False)
        return rows

    async def _transaction(self, body: Callable[[], Awaitable[T]]) -> T:
        committing = False
        started = self.outage.now()
        try:
            async with self._pool.acquire() as conn:
                token = self._conn.set(conn)
                try:
                    async with conn.transaction():
                        result = await body()
                        committing = True  # leaving the block commits
                except self._deadlock:
                    raise Conflict("the database broke a deadlock between two writes; "
                                   "nothing was written") from None
                except self._driver_errors as exc:
                    self._drop_if_broken(conn, exc)
                    raise
                finally:
                    self._conn.reset(token)
        except self._driver_errors as exc:
            outage = await self._outage(exc, committing=committing)
            if outage is None:
                raise
            raise outage from exc
        self.outage.succeeded(started, write=True)
        return result

    def _drop_if_broken(self, conn: Any, exc: BaseException) -> None:
        """A connection that died (or whose protocol an outage left mid-operation) is
        closed, never handed back to the pool for the next request to fail on."""
        if isinstance(outage_of(exc, self.path), DatabaseUnreachable | CommitUncertain):
            # one that closed already went back to the pool by itself
            with contextlib.suppress(*self._driver_errors):
                conn.terminate()

    async def _outage(self, exc: BaseException, *, committing: bool = False
                      ) -> StorageUnavailable | None:
        """The typed outage for ``exc``, reported to the ``OutageLog``; None when ``exc``
        is no outage. A lost connection expires the pool's others: those that died with
        the server are replaced at their next use, not tried and failed."""
        outage = outage_of(exc, self.path, committing=committing)
        if outage is None:
            return None
        if isinstance(outage, DatabaseUnreachable | CommitUncertain):
            await self._pool.expire_connections()
        self.outage.failed(outage)
        return outage


async def _keep_session(connection: Any) -> None:
    """The pool's reset: nothing to undo (see ``PostgresRepository.open``)."""
