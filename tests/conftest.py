"""Session-wide fixtures: the PostgreSQL server the storage suite also runs on."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from service import Repository
from tests.postgres import ENV_URL, LocalServer, NoServer

REPOSITORY_KINDS = ["memory", "sqlite", "postgres"]

# Compiled modules are cached (__pycache__, git-ignored) even where the environment asks
# Python not to write them (PYTHONDONTWRITEBYTECODE): the suite starts a great many Python
# processes (its workers, the commands it runs, the engine's process pools), and each would
# otherwise compile the same sources again (measured: 8 % of the suite's CPU time).
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


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


def _started() -> tuple[LocalServer, str]:
    try:
        server = LocalServer()
        return server, server.start()
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


def _on_server(server: str, sql: str) -> None:
    """Run ``sql`` on ``server`` from a thread with its own event loop (so a fixture of
    any test, async or not, can)."""
    async def run() -> None:
        import asyncpg  # type: ignore[import-untyped]

        admin = await asyncpg.connect(server)
        try:
            await admin.execute(sql)
        finally:
            await admin.close()
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A URL onto an empty schema of its own on that server (dropped afterwards)."""
    schema = f"t_{uuid.uuid4().hex[:16]}"
    _on_server(postgres_server, f"CREATE SCHEMA {schema}")
    joiner = "&" if "?" in postgres_server else "?"
    yield f"{postgres_server}{joiner}search_path={schema}"
    _on_server(postgres_server, f"DROP SCHEMA {schema} CASCADE")


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
        _on_server(url, f"DROP SCHEMA {schema} CASCADE")


async def open_repository_of(kind: str, folder: Path, request: pytest.FixtureRequest
                             ) -> Repository:
    """A fresh repository of ``kind`` (memory, sqlite or postgres)."""
    from storage import MemoryRepository, PostgresRepository, SqliteRepository

    if kind == "memory":
        return MemoryRepository()
    if kind == "sqlite":
        return await SqliteRepository.open(folder / "tablero.db")
    url: str = request.getfixturevalue("postgres_url")
    return await PostgresRepository.open(url)

