"""Session-wide fixtures: the PostgreSQL server the storage suite also runs on."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import gc
import os
import shutil
import sys
import tempfile
import threading
import uuid
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from service import Repository
from tests.postgres import ENV_URL, LocalServer, NoServer

REPOSITORY_KINDS = ["memory", "sqlite", "postgres"]

# Compiled modules are cached (__pycache__, git-ignored) even where the environment asks
# Python not to write them (PYTHONDONTWRITEBYTECODE): the suite starts a great many Python
# processes (its workers, the commands it runs, the engine's process pools), and each would
# otherwise compile the same sources again (measured: 8 % of the suite's CPU time).
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


# Hypothesis fails an example that runs longer than its deadline (200 ms by default): a
# wall-clock check, which a loaded machine fails by chance. No deadline anywhere; the
# example counts bound each property's work.
settings.register_profile("tablero", deadline=None)
settings.load_profile("tablero")


SHM_ROOM = 2 * 1024**3
"""Free bytes the memory file system needs for the tests' temporary files to go there."""


def _temporary_files_in_memory() -> None:
    """Temporary files (each test's SQLite file, the PostgreSQL servers' data, the files
    the commands under test write) go to the machine's memory file system where it has
    one, unless ``TMPDIR`` says otherwise: SQLite's default ``synchronous=FULL`` waits
    for the disk at every commit, and most tests commit on SQLite (measured under load,
    tests/discordapp/test_puzzles.py, test_languages.py and tests/service/test_matches.py
    on SQLite, one process: 69 s and 45 s on the disk, 43 s and 26 s in memory, the same
    CPU time). No test needs a real disk's flush (the tests of ``synchronous`` read the
    setting back). Only where it has room (``SHM_ROOM``: a container's /dev/shm is often
    64 MB, less than the PostgreSQL servers' data)."""
    memory = Path("/dev/shm")
    if os.environ.get("TMPDIR") or not memory.is_dir() or not os.access(memory, os.W_OK) \
            or shutil.disk_usage(memory).free < SHM_ROOM:
        return
    folder = memory / f"tablero-tests-{os.getuid()}"
    folder.mkdir(mode=0o755, exist_ok=True)  # the PostgreSQL servers' user passes through
    os.environ["TMPDIR"] = str(folder)  # for the processes the tests start
    tempfile.tempdir = str(folder)  # for this one (pytest's tmp_path included)


_temporary_files_in_memory()


LONG_MODULES = ("tests/storage/test_failures.py", "tests/storage/test_pg_shards.py",
                "tests/storage/test_postgres.py", "tests/service/test_busy_matches.py")
"""Modules of long single tests (each runs processes of its own: several seconds a test)
that are collected late; with the modules of real-browser tests they run first."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests run first: the modules that drive Chromium (collected last, under
    tests/web) and ``LONG_MODULES``, each kept whole and in order (module fixtures are
    built once). pytest-xdist hands the tests out in collection order, in chunks that
    shrink towards the end; a long test handed out last kept one worker busy alone (a
    minute under load, tests/web/test_tap_endings.py) while the other had finished. The
    order is a pure function of the collection, so every worker collects the same."""
    root = Path(__file__).resolve().parent.parent
    first = {item.path for item in items if "chromium" in getattr(item, "fixturenames", ())}
    first |= {root / name for name in LONG_MODULES}
    items.sort(key=lambda item: item.path not in first)  # stable: the rest keep their order


def pytest_collection_finish(session: pytest.Session) -> None:
    """What the collection left alive (the modules, the tests, their parameters, the
    packages' tables) is set apart from the cyclic garbage collector (``gc.freeze``):
    every full collection of a test process went through all of it again, and it stays
    alive until the process ends (measured, tests/rules, tests/locales and
    tests/service/test_matches.py in one process: 3.1-3.7 s of CPU in full collections,
    0.9 s with it). Objects made afterwards are collected as always."""
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def console_lines_are_rendered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every line the console prints, in every test, is words: never the Python object
    of a lazy text (``tests/unrendered.py``)."""
    from bot.console import ConsolePrinter
    from locales.i18n import Words, render
    from tests.unrendered import unrendered

    say = ConsolePrinter.say

    def checked(self: ConsolePrinter, text: Words) -> None:
        leak = unrendered(render(text, self.locale))
        assert leak is None, f"the console printed unrendered words: {leak}"
        say(self, text)

    monkeypatch.setattr(ConsolePrinter, "say", checked)


def _start_server() -> tuple[LocalServer, str]:
    server = LocalServer()
    return server, server.start()


_EARLY: list[Future[tuple[LocalServer, str]]] = []
"""The session's own server, started while the tests are still being collected."""


def pytest_itemcollected(item: pytest.Item) -> None:
    """The first test collected that needs a PostgreSQL server (a fixture of the server,
    or a repository parameter ``postgres``) starts the session's own on a thread of its
    own, while the collection goes on (measured: a second or two of ``initdb`` and
    ``pg_ctl``, which every worker of the whole suite otherwise waited for before its
    first test; collecting is several seconds of CPU). ``local_postgres`` takes it over;
    a session that never asks for it (its tests deselected) stops it at the end."""
    if _EARLY or os.environ.get(ENV_URL, "").strip():
        return
    params = getattr(getattr(item, "callspec", None), "params", {})
    if "local_postgres" in getattr(item, "fixturenames", ()) or "postgres" in params.values():
        pool = ThreadPoolExecutor(1, thread_name_prefix="postgres-start")
        _EARLY.append(pool.submit(_start_server))
        pool.shutdown(wait=False)


def pytest_sessionfinish() -> None:
    for early in _EARLY:  # started, never taken
        with contextlib.suppress(Exception):
            early.result()[0].stop()
    _EARLY.clear()
    try:
        _remove_named_change_log()
    except Exception as e:  # the tests' verdict stands; say what was left
        print(f"\nthe tests' log of schema changes stays on {ENV_URL}: {e!r}",
              file=sys.stderr)
    for server in list(_ADMINS):  # closed, not left to asyncpg's warning at exit
        _close_admin(server)


EARLY_TAKEN: list[bool] = []
"""Whether the session's own server was the one started while collecting."""


def _started() -> tuple[LocalServer, str]:
    try:
        if _EARLY:
            EARLY_TAKEN.append(True)
            return _EARLY.pop().result()
        EARLY_TAKEN.append(False)
        return _start_server()
    except NoServer as e:
        pytest.fail(f"the PostgreSQL tests cannot run: {e}", pytrace=False)


@pytest.fixture(scope="session")
def local_postgres() -> Iterator[tuple[LocalServer, str] | None]:
    """The server this session started and its URL; None when ``TABLERO_TEST_POSTGRES_URL``
    names one (which the tests cannot stop and start)."""
    if os.environ.get(ENV_URL, "").strip():
        yield None
        return
    server, url = _started()
    try:
        yield server, url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_server(local_postgres: tuple[LocalServer, str] | None) -> str:
    """The URL of a PostgreSQL server (see tests/postgres.py); fails, never skips,
    when there is none."""
    return local_postgres[1] if local_postgres is not None else os.environ[ENV_URL].strip()


@pytest.fixture(scope="session")
def restartable_postgres(local_postgres: tuple[LocalServer, str] | None
                         ) -> Iterator[tuple[LocalServer, str]]:
    """A server the outage tests may stop and start, and its URL: the session's own, or
    (when the session uses a named server) one started for them."""
    if local_postgres is not None:
        yield local_postgres
        return
    server, url = _started()
    try:
        yield server, url
    finally:
        server.stop()


class _Admin:
    """One connection onto a PostgreSQL server for the fixtures' own statements, kept
    open by this process and driven from a thread of its own with its own event loop (so
    a fixture of any test, async or not, can use it). Measured: connecting anew for every
    statement (a thread, an event loop, a login and a server process each time) cost
    about 25 ms a statement, and the schemas' fixtures run two or three a test. A
    connection the server closed (the outage tests stop and start it) is opened again."""

    def __init__(self, server: str) -> None:
        self.server = server
        self.loop = asyncio.new_event_loop()
        self.connection: Any = None
        threading.Thread(target=self.loop.run_forever, name="postgres-admin",
                         daemon=True).start()

    def run(self, work: Callable[[Any], Awaitable[object]]) -> object:
        return asyncio.run_coroutine_threadsafe(self._run(work), self.loop).result()

    def close(self) -> None:
        """Close the connection (its session's advisory locks go with it; at once, not
        waiting on a server that may be stopped already) and the loop."""
        async def close() -> None:
            if self.connection is not None:
                self.connection.terminate()
        asyncio.run_coroutine_threadsafe(close(), self.loop).result()
        self.loop.call_soon_threadsafe(self.loop.stop)

    async def _run(self, work: Callable[[Any], Awaitable[object]]) -> object:
        import asyncpg  # type: ignore[import-untyped]

        for attempt in (1, 2):
            if self.connection is None or self.connection.is_closed():
                self.connection = await asyncpg.connect(self.server)
            try:
                return await work(self.connection)
            except (asyncpg.ConnectionDoesNotExistError, ConnectionError):
                if attempt == 2 or not self.connection.is_closed():
                    raise  # a server down, not a connection it closed before
            except BaseException:
                if not self.connection.is_closed() and self.connection.is_in_transaction():
                    await self.connection.execute("ROLLBACK")  # one of several statements
                raise
        raise AssertionError("unreachable")


_ADMINS: dict[str, _Admin] = {}
_ADMINS_LOCK = threading.Lock()


def _on_server_async(server: str, work: Callable[[Any], Awaitable[object]]) -> object:
    """``work(connection)`` on ``server``, on this process's connection there (``_Admin``)."""
    with _ADMINS_LOCK:
        admin = _ADMINS.get(server) or _ADMINS.setdefault(server, _Admin(server))
    return admin.run(work)


def _close_admin(server: str) -> None:
    """Close this process's connection onto ``server`` (``_Admin``), if it has one."""
    with _ADMINS_LOCK:
        admin = _ADMINS.pop(server, None)
    if admin is not None:
        admin.close()


def _on_server(server: str, sql: str) -> None:
    """Run ``sql`` on ``server`` (``_on_server_async``)."""
    async def run(admin: Any) -> None:
        await admin.execute(sql)
    _on_server_async(server, run)


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A URL onto an empty schema of its own on that server (dropped afterwards)."""
    schema = f"t_{uuid.uuid4().hex[:16]}"
    _on_server(postgres_server, f"CREATE SCHEMA {schema}")
    joiner = "&" if "?" in postgres_server else "?"
    yield f"{postgres_server}{joiner}search_path={schema}"
    _drop_schema(postgres_server, schema)


_SHAPE = """
WITH ns AS (SELECT oid FROM pg_namespace WHERE nspname = $1),
     rel AS (SELECT oid, relname, relkind FROM pg_class WHERE relnamespace = (TABLE ns))
SELECT md5(coalesce(string_agg(item, ' ' ORDER BY item), '')) FROM (
    SELECT 'relation ' || relname || ' ' || relkind::text AS item FROM rel
    UNION ALL SELECT 'column ' || rel.relname || '.' || attname || ' ' || atttypid::text
        || ' ' || attnotnull::text || ' ' || coalesce(pg_get_expr(adbin, adrelid), '')
        FROM pg_attribute JOIN rel ON rel.oid = attrelid
        LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum
        WHERE attnum > 0 AND NOT attisdropped
    UNION ALL SELECT 'constraint ' || conname || ' ' || pg_get_constraintdef(oid)
        FROM pg_constraint WHERE connamespace = (TABLE ns)
    UNION ALL SELECT 'index ' || pg_get_indexdef(indexrelid)
        FROM pg_index WHERE indrelid IN (SELECT oid FROM rel)
    UNION ALL SELECT 'trigger ' || tgname FROM pg_trigger WHERE tgrelid IN (SELECT oid FROM rel)
    UNION ALL SELECT 'routine ' || proname FROM pg_proc WHERE pronamespace = (TABLE ns)
    UNION ALL SELECT 'type ' || typname FROM pg_type WHERE typnamespace = (TABLE ns)
    UNION ALL SELECT 'version ' || version FROM {schema}.tablero_schema
) AS shape
"""
"""One text for everything a test could change in a Tablero schema but its rows and its
identity counters: tables, columns, constraints, indexes, triggers, routines, types and
the schema version (where the server keeps no log of its schemas' changes, ``_DDL_LOG``)."""

_DDL_LOG = """
SELECT pg_advisory_xact_lock(7262615);
CREATE SCHEMA IF NOT EXISTS tablero_tests;
CREATE TABLE IF NOT EXISTS tablero_tests.changed (schema_name TEXT, object_identity TEXT);
CREATE OR REPLACE FUNCTION tablero_tests.log_change() RETURNS event_trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_EVENT = 'sql_drop' THEN
        INSERT INTO tablero_tests.changed SELECT schema_name, object_identity
            FROM pg_event_trigger_dropped_objects();
    ELSE
        INSERT INTO tablero_tests.changed SELECT schema_name, object_identity
            FROM pg_event_trigger_ddl_commands();
    END IF;
END $$;
DO $$ BEGIN
    IF NOT EXISTS (SELECT FROM pg_event_trigger WHERE evtname = 'tablero_tests_made') THEN
        CREATE EVENT TRIGGER tablero_tests_made ON ddl_command_end
            EXECUTE FUNCTION tablero_tests.log_change();
    END IF;
    IF NOT EXISTS (SELECT FROM pg_event_trigger WHERE evtname = 'tablero_tests_dropped') THEN
        CREATE EVENT TRIGGER tablero_tests_dropped ON sql_drop
            EXECUTE FUNCTION tablero_tests.log_change();
    END IF;
END $$;
"""
"""A log, kept by the server, of every change to the definition of anything (tables,
columns, constraints, indexes, sequences, triggers, routines, types, the schemas
themselves) in any schema of the database, which the tests cannot get around: two event
triggers (``ddl_command_end``, ``sql_drop``). Superusers only (a named server that
refuses them is checked by ``_SHAPE`` instead). Measured: reading the shape cost the
server about 45 ms a test, reading the log under 1 ms."""

_LOG_IN_USE = 7262616
"""The advisory lock each test session holds, shared, on its connection to a server whose
``_DDL_LOG`` it uses: the log is removed only by a session that can take it alone."""

_DDL_LOG_REMOVED = """
SELECT pg_advisory_xact_lock(7262615);
DROP EVENT TRIGGER IF EXISTS tablero_tests_made;
DROP EVENT TRIGGER IF EXISTS tablero_tests_dropped;
DROP SCHEMA IF EXISTS tablero_tests CASCADE;
"""
"""``_DDL_LOG`` undone: its event triggers first (they would log their own schema's
drop), then its schema."""

_CHANGED = """SELECT EXISTS (SELECT FROM tablero_tests.changed WHERE schema_name = $1
    OR object_identity = $1 OR starts_with(object_identity, $1 || '.'))"""
_FORGET = """DELETE FROM tablero_tests.changed WHERE schema_name = $1
    OR object_identity = $1 OR starts_with(object_identity, $1 || '.')"""

_LOGGED: dict[str, bool] = {}


def _changes_logged(server: str) -> bool:
    """Whether ``server`` keeps ``_DDL_LOG`` (set up once a process, which holds
    ``_LOG_IN_USE`` from then on: ``_remove_named_change_log``)."""
    if server not in _LOGGED:
        async def set_up(admin: Any) -> bool:
            import asyncpg

            # before it is made: a session removing it (holding the lock alone) first ends
            await admin.execute(f"SELECT pg_advisory_lock_shared({_LOG_IN_USE})")
            try:
                async with admin.transaction():
                    await admin.execute(_DDL_LOG)
            except asyncpg.InsufficientPrivilegeError:
                return False
            return True
        _LOGGED[server] = _on_server_async(server, set_up) is True
    return _LOGGED[server]


def _remove_named_change_log() -> bool:
    """At the end of a test session (``pytest_sessionfinish``): where the server
    ``TABLERO_TEST_POSTGRES_URL`` names keeps ``_DDL_LOG`` for this session, remove it
    (event triggers that fire at every definition change in the whole database, and
    their schema, are no thing to leave on a server the tests were lent), unless another
    session still uses it (each holds ``_LOG_IN_USE``, shared: pytest-xdist's workers,
    another run), which then removes it in its turn: the last one out. True when it was
    removed. The session's own server is thrown away whole: nothing to remove there."""
    named = os.environ.get(ENV_URL, "").strip()
    if not named or not _LOGGED.pop(named, False):
        return False

    async def remove(admin: Any) -> bool:
        await admin.execute(f"SELECT pg_advisory_unlock_shared({_LOG_IN_USE})")
        if not await admin.fetchval(f"SELECT pg_try_advisory_lock({_LOG_IN_USE})"):
            return False  # still in use: its last user removes it
        try:
            async with admin.transaction():
                await admin.execute(_DDL_LOG_REMOVED)
        finally:
            await admin.execute(f"SELECT pg_advisory_unlock({_LOG_IN_USE})")
        return True
    return _on_server_async(named, remove) is True


@dataclass
class _UsedSchema:
    name: str
    shape: str | None  # None: its changes are in the server's log (``_DDL_LOG``)
    version: int
    emptying: str  # the statements that delete its rows and restart its counters


def _drop_schema(server: str, name: str) -> None:
    """Drop the schema ``name`` and what the server's log (``_DDL_LOG``) says of it."""
    async def drop(admin: Any) -> None:
        async with admin.transaction():
            await admin.execute(f"DROP SCHEMA {name} CASCADE")
            if _LOGGED.get(server):
                await admin.execute(_FORGET, name)
    _on_server_async(server, drop)


@pytest.fixture(scope="session")
def _emptied_schemas(postgres_server: str) -> Iterator[list[_UsedSchema]]:
    """Tablero schemas an earlier test of this session used, emptied again (dropped at
    the end)."""
    ready: list[_UsedSchema] = []
    yield ready
    for schema in ready:
        _drop_schema(postgres_server, schema.name)


def _url_of(server: str, schema: str) -> str:
    joiner = "&" if "?" in server else "?"
    return f"{server}{joiner}search_path={schema}"


def _new_tablero_schema(server: str, *, logged: bool = True) -> _UsedSchema:
    """A new schema holding Tablero's tables (migrated as ``PostgresRepository.open``
    migrates an empty one), with what ``repository_postgres_url`` needs to empty it and
    to see whether a test changed more than its rows: the server's log of its changes
    (``_DDL_LOG``) where it keeps one (unless not ``logged``), else its shape (``_SHAPE``)."""
    from storage import PostgresRepository

    logged = logged and _changes_logged(server)
    name = f"t_{uuid.uuid4().hex[:16]}"
    _on_server(server, f"CREATE SCHEMA {name}")

    async def migrate(admin: Any) -> _UsedSchema:
        repository = await PostgresRepository.open(_url_of(server, name))
        await repository.close()
        tables = [r[0] for r in await admin.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = $1", name)]
        sequences = [r[0] for r in await admin.fetch(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = $1", name)]
        emptying = "".join(
            [f"DELETE FROM {name}.{t};" for t in sorted(tables) if t != "tablero_schema"]
            + [f"ALTER SEQUENCE {name}.{s} RESTART;" for s in sorted(sequences)])
        version = await admin.fetchval(f"SELECT version FROM {name}.tablero_schema")
        shape = None if logged else await admin.fetchval(_SHAPE.format(schema=name), name)
        if logged:  # its making, which is no test's change
            await admin.execute(_FORGET, name)
        return _UsedSchema(name, shape, version, emptying)
    made = _on_server_async(server, migrate)
    assert isinstance(made, _UsedSchema)
    return made


@pytest.fixture
def repository_postgres_url(postgres_server: str, _emptied_schemas: list[_UsedSchema]
                            ) -> Iterator[str]:
    """A URL onto a schema of its own holding Tablero's tables and no rows, for the
    repositories of ``open_repository_of``: one an earlier test of this worker used,
    emptied (its rows deleted, its identity counters restarted: as new but for the
    migration, which the tests of ``postgres_url`` make from an empty schema), else a
    new one. Measured: creating, migrating and dropping a schema cost the server about
    0.1 s of CPU time a test, emptying one 0.01 s. Afterwards the schema is emptied for
    the next test, or dropped where the test changed more than its rows and counters
    (``_DDL_LOG``, ``_SHAPE``) or emptying it fails."""
    schema = _emptied_schemas.pop() if _emptied_schemas else _new_tablero_schema(
        postgres_server)
    yield _url_of(postgres_server, schema.name)
    if _emptied(postgres_server, schema):
        _emptied_schemas.append(schema)
    else:
        _drop_schema(postgres_server, schema.name)


def _emptied(server: str, schema: _UsedSchema) -> bool:
    """Whether ``schema`` could be emptied: its rows deleted and its identity counters
    restarted where nothing else in it changed since it was made (``_DDL_LOG``, else
    ``_SHAPE``; its schema version either way)."""
    async def empty(admin: Any) -> bool:
        if schema.shape is None:
            if await admin.fetchval(_CHANGED, schema.name) or await admin.fetchval(
                    f"SELECT array_agg(version) FROM {schema.name}.tablero_schema") \
                    != [schema.version]:
                return False
        elif await admin.fetchval(_SHAPE.format(schema=schema.name), schema.name) \
                != schema.shape:
            return False
        async with admin.transaction():
            await admin.execute(schema.emptying)
            if schema.shape is None:  # restarting the counters is a change too
                await admin.execute(_FORGET, schema.name)
        return True
    try:
        return _on_server_async(server, empty) is True
    except Exception:  # e.g. a table the test left locked, a server it left down
        return False


@pytest.fixture
def restartable_postgres_url(restartable_postgres: tuple[LocalServer, str]
                             ) -> Iterator[tuple[LocalServer, str]]:
    """The server an outage test may stop and start, and a URL onto an empty schema of
    its own there (dropped afterwards, with the server running again)."""
    server, url = restartable_postgres
    schema = f"t_{uuid.uuid4().hex[:16]}"
    _on_server(url, f"CREATE SCHEMA {schema}")
    try:
        yield server, f"{url}?search_path={schema}"
    finally:
        if not server.running:  # a test that failed mid-outage: the next ones need it
            server.start_again()
        _drop_schema(url, schema)


_MIGRATED: list[Path] = []
_MIGRATING = threading.Lock()


def _migrated_sqlite() -> Path:
    """A SQLite file this process made once as ``SqliteRepository.open`` makes a new one
    (created and migrated, then closed: no rows, nothing left in a write-ahead log);
    removed when the process ends."""
    with _MIGRATING:
        if not _MIGRATED:
            from storage import SqliteRepository

            folder = Path(tempfile.mkdtemp(prefix="tablero-migrated-"))
            atexit.register(shutil.rmtree, folder, True)
            path = folder / "tablero.db"

            async def make() -> None:
                repository = await SqliteRepository.open(path)
                await repository.close()
            with ThreadPoolExecutor(1) as pool:
                pool.submit(asyncio.run, make()).result()
            assert not Path(f"{path}-wal").exists() and not Path(f"{path}-shm").exists()
            _MIGRATED.append(path)
        return _MIGRATED[0]


def new_sqlite_file(path: Path) -> Path:
    """``path``, holding a new Tablero database if it held nothing: a copy of the one
    this process migrated (``_migrated_sqlite``), the same file as opening the missing
    path would have made (the same schema and rows, ``user_version`` and journal mode),
    for a tenth of the CPU time (measured: 34 ms to create and migrate a file, 3.5 ms to
    copy and open one; about a thousand tests open a new SQLite file). A file already
    there (a restart of the same database) is left alone. The migrations themselves are
    run by every process (here, once) and tested in tests/storage."""
    if not path.exists():
        shutil.copyfile(_migrated_sqlite(), path)
    return path


async def open_repository_of(kind: str, folder: Path, request: pytest.FixtureRequest
                             ) -> Repository:
    """A fresh repository of ``kind`` (memory, sqlite or postgres; a new SQLite file is a
    copy of a migrated one, ``new_sqlite_file``)."""
    from storage import MemoryRepository, PostgresRepository, SqliteRepository

    if kind == "memory":
        return MemoryRepository()
    if kind == "sqlite":
        return await SqliteRepository.open(new_sqlite_file(folder / "tablero.db"))
    url: str = request.getfixturevalue("repository_postgres_url")
    return await PostgresRepository.open(url)

