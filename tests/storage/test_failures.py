"""Every way the database can fail is a clear, fast failure (issue 20 §2, issue 21 defect 2).

The start-up failures run ``tablero console`` and ``tablero run`` as subprocesses with a
timeout: before the fix they printed a trace and then hung forever (the aiosqlite thread of
a connection opened by a failed ``SqliteRepository.open`` was never closed).
"""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from service import MatchService, NullNotifier
from storage import SqliteRepository
from storage.errors import (
    DatabaseDamaged,
    DatabaseInaccessible,
    DatabaseLost,
    DatabaseUnusable,
    NotATableroDatabase,
)
from storage.sqlite import MIGRATIONS
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, SetClock

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60  # seconds; a failing start-up takes about one


def tablero(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Run the ``tablero`` command; a hang fails the test with TimeoutExpired."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "", **env}
    return subprocess.run([sys.executable, "-m", "bot", *args], input="as alice\n/games\n",
                          cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT,
                          env=environment)


async def play_some(path: Path, matches: int, plies: int, seed: int = 1) -> list[int]:
    """A Tablero database with ``matches`` xiangqi matches of ``plies`` random legal plies."""
    repo = await SqliteRepository.open(path, synchronous="NORMAL")
    service = MatchService(repo, NullNotifier(), SetClock(), rng=random.Random(seed))
    rng = random.Random(seed)
    ids = []
    try:
        for _ in range(matches):
            m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB],
                                        seat=0)
            await service.accept(m.id, BOB)
            for ply in range(plies):
                user = (ALICE, BOB)[ply % 2]
                moves = await service.suggest_moves(m.id, user, "", limit=500)
                await service.move(m.id, user, rng.choice(moves)[0])
            ids.append(m.id)
    finally:
        await repo.close()
    return ids


def damaged_files(folder: Path, good: Path) -> dict[str, Path]:
    """Files that are not usable Tablero databases, by how they are broken."""
    data = good.read_bytes()
    files = {
        "text": b"alice,bob,xiangqi\n1,2,h3-e3\n",
        "truncated": data[: len(data) // 3],
        "short": data[:60],
        "magic": b"SQLite format 2\x00" + data[16:],
        # the page size (bytes 16-17) must be a power of two from 512 to 65536
        "page size": data[:16] + b"\x03\x01" + data[18:],
    }
    out = {}
    for name, content in files.items():
        out[name] = folder / f"{name.replace(' ', '-')}.db"
        out[name].write_bytes(content)
    foreign = folder / "foreign.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    conn.commit()
    conn.close()
    out["foreign"] = foreign
    return out


@pytest.fixture(scope="module")
def good_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import asyncio

    path = tmp_path_factory.mktemp("good") / "good.db"
    asyncio.run(play_some(path, 40, 6))
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return path


@pytest.mark.parametrize(("command", "kinds"), [("console", ("text", "foreign")),
                                             ("run", ("truncated", "page size"))])
def test_a_damaged_or_foreign_file_fails_at_once_with_its_name(
        tmp_path: Path, good_db: Path, command: str, kinds: tuple[str, str]) -> None:
    """Each command turns a refused file into one line and exit status 3, no trace. What
    depends on how the file is broken (refused, its connection closed, the file left as
    it was) is checked for every kind in-process, below; the process, which costs a
    second or two to start, for two kinds each."""
    for kind, path in damaged_files(tmp_path, good_db).items():
        if kind not in kinds:
            continue
        before = path.read_bytes()
        if command == "console":
            done = tablero(["console", "--db", str(path)], tmp_path)
        else:  # the Discord bot: it opens the database before connecting
            done = tablero(["run"], tmp_path, DISCORD_TOKEN="x.y.z", TABLERO_DB=str(path))
        assert done.returncode == 3, (kind, done.stdout, done.stderr)
        assert f"{path} is not a Tablero database: " in done.stderr, (kind, done.stderr)
        assert "Traceback" not in done.stderr, (kind, done.stderr)
        assert path.read_bytes() == before, kind  # a refused file is left as it was


def test_damage_inside_the_file_is_caught_at_start_with_the_way_out(
        tmp_path: Path, good_db: Path) -> None:
    """Corrupt pages of rows (the last third of the file: the schema, grown by each
    migration, fills the pages after the first tables' roots, so the middle of a small
    file may hold it): the header and the schema are fine and the file opens, so only
    the start-up ``PRAGMA quick_check`` finds it (before, the deadline query met it
    later)."""
    path = tmp_path / "middle.db"
    data = bytearray(good_db.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    pages = len(data) // page
    assert pages > 8
    noise = random.Random(5)
    for n in range(pages - pages // 3, pages):
        data[n * page + 8: n * page + page - 8] = noise.randbytes(page - 16)
    path.write_bytes(bytes(data))
    done = tablero(["console", "--db", str(path)], tmp_path)
    assert done.returncode == 3, done.stderr
    assert f"{path} is damaged" in done.stderr
    assert "restore the last backup" in done.stderr and ".recover" in done.stderr
    assert "Traceback" not in done.stderr


async def test_open_refuses_damaged_files_and_closes_its_connections(
        tmp_path: Path, good_db: Path) -> None:
    import asyncio
    import threading

    async def new_connection_threads(before: set[threading.Thread]) -> int:
        """aiosqlite connection threads started since ``before`` and still alive once
        closing ones have had time to end."""
        alive: list[threading.Thread] = []
        for _ in range(150):
            alive = [t for t in threading.enumerate()
                     if "connection_worker" in t.name and t not in before]
            if not alive:
                break
            await asyncio.sleep(0.02)
        return len(alive)
    for kind, path in damaged_files(tmp_path, good_db).items():
        before = set(threading.enumerate())
        content = path.read_bytes()
        with pytest.raises(NotATableroDatabase) as info:
            await SqliteRepository.open(path)
        assert info.value.path == str(path), kind
        assert f"{path} is not a Tablero database: " in info.value.message, kind
        assert await new_connection_threads(before) == 0, kind  # left = a hung process
        assert path.read_bytes() == content, kind  # a refused file is left as it was


async def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    conn.close()
    with pytest.raises(NotATableroDatabase, match="newer Tablero") as refused:
        await SqliteRepository.open(path)
    # a downgrade: the file is Tablero's, and the way back is a backup, not 'upgrade'
    assert refused.value.message == (
        f"{path} was last used by a newer Tablero (its schema is {len(MIGRATIONS) + 1}; "
        f"this one knows {len(MIGRATIONS)}): run that version again, or restore a backup "
        "taken before the upgrade to use this one (a database is never migrated back)")


async def test_a_migration_that_sqlite_rolled_back_says_why_it_failed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite rolls a transaction back by itself on some errors (a full disk met while
    migrating a new database did): the migration's own ROLLBACK then failed ('cannot
    rollback - no transaction is active') and that was all the operator was told. The
    extra migration here ends its transaction as SQLite would, then fails."""
    import storage.sqlite

    monkeypatch.setattr(storage.sqlite, "MIGRATIONS", [
        *MIGRATIONS, "ROLLBACK; INSERT INTO nowhere VALUES (1)"])
    with pytest.raises(DatabaseUnusable) as refused:
        await SqliteRepository.open(tmp_path / "t.db")
    assert "no such table: nowhere" in refused.value.message
    assert "cannot rollback" not in refused.value.message


async def test_a_full_disk_at_start_is_said_with_what_to_do(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A disk that fills while the database is created or migrated: the line says the disk
    is full and what to do (it said 'cannot use t.db: database or disk is full')."""
    import storage.sqlite

    monkeypatch.setattr(storage.sqlite, "MIGRATIONS", [
        *MIGRATIONS, "PRAGMA max_page_count = 1; CREATE TABLE big (b BLOB); "
        "INSERT INTO big VALUES (zeroblob(100000))"])
    path = tmp_path / "t.db"
    with pytest.raises(DatabaseUnusable) as refused:
        await SqliteRepository.open(path)
    assert refused.value.message == (
        f"the disk holding {path} is full (database or disk is full): free some space "
        "there, or set TABLERO_DB to a disk with room, and start again")


async def test_a_folder_tablero_cannot_write_in_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A read-only folder: SQLite needs to create the -wal and -shm files beside the
    database. (Simulated through ``os.access``: these tests may run as root, which
    ignores permission bits.)"""
    folder = tmp_path / "ro"
    folder.mkdir()
    real_access = os.access

    def access(path: object, mode: int, **kw: object) -> bool:
        if Path(str(path)) == folder and mode & os.W_OK:
            return False
        return real_access(path, mode)  # type: ignore[arg-type]
    monkeypatch.setattr(os, "access", access)
    with pytest.raises(DatabaseInaccessible, match="cannot write in the folder"):
        await SqliteRepository.open(folder / "t.db")
    assert not (folder / "t.db").exists()


def _read_only(folder: Path, on: bool) -> None:
    """Make ``folder`` unwritable, for root too: permission bits do not stop root, so as
    root the folder is made immutable (``chattr +i``, which stops everyone)."""
    if os.geteuid() != 0:
        folder.chmod(0o555 if on else 0o755)
        return
    done = subprocess.run(["chattr", "+i" if on else "-i", str(folder)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.fail(f"cannot make {folder} read-only as root: {done.stderr.strip()}")


def test_a_read_only_folder_fails_at_once(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    _read_only(folder, True)
    try:
        done = tablero(["console", "--db", str(folder / "t.db")], tmp_path)
    finally:
        _read_only(folder, False)
    assert done.returncode == 3 and "cannot write in the folder" in done.stderr


async def test_quick_check_refuses_damage_the_header_does_not_show(
        tmp_path: Path, good_db: Path) -> None:
    path = tmp_path / "middle.db"
    data = bytearray(good_db.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    # the data pages only: the schema (page 1 and what it overflows into) stays readable,
    # so opening finds nothing wrong until the quick check reads the tables
    conn = sqlite3.connect(good_db)
    schema_pages = {int(n) for (n,) in conn.execute(
        "SELECT pageno FROM dbstat WHERE name = 'sqlite_schema'")} | {1, 2}
    conn.close()
    for n in range(2, len(data) // page - 1):
        if n + 1 in schema_pages:
            continue
        data[n * page + 100: n * page + 120] = b"\xff" * 20
    path.write_bytes(bytes(data))
    with pytest.raises(DatabaseDamaged, match="is damaged"):
        await SqliteRepository.open(path)


async def test_durability_is_full_unless_relaxed(tmp_path: Path) -> None:
    for mode, value in (("FULL", 2), ("normal", 1)):
        repo = await SqliteRepository.open(tmp_path / f"{mode}.db", synchronous=mode)
        try:
            async with repo._writer.execute("PRAGMA synchronous") as cur:
                row = await cur.fetchone()
            assert row is not None and row[0] == value
        finally:
            await repo.close()
    repo = await SqliteRepository.open(tmp_path / "default.db")
    try:
        async with repo._writer.execute("PRAGMA synchronous") as cur:
            row = await cur.fetchone()
        assert row is not None and row[0] == 2  # FULL: a commit is on the disk when acked
    finally:
        await repo.close()
    with pytest.raises(ValueError, match="FULL or NORMAL"):
        await SqliteRepository.open(tmp_path / "x.db", synchronous="OFF")


@pytest.mark.parametrize("how", ["deleted", "replaced", "moved away"])
async def test_a_database_file_removed_while_running_stops_acknowledging(
        tmp_path: Path, how: str, recwarn: pytest.WarningsRecorder) -> None:
    path = tmp_path / "live.db"
    repo = await SqliteRepository.open(path)
    service = MatchService(repo, NullNotifier(), SetClock())
    try:
        m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
        await service.accept(m.id, BOB)
        await service.move(m.id, ALICE, "h3-e3")
        if how == "deleted":
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
        elif how == "replaced":  # e.g. an old copy put in its place
            other = tmp_path / "other.db"
            await (await SqliteRepository.open(other)).close()  # a Tablero database
            os.replace(other, path)
        else:
            os.replace(path, tmp_path / "elsewhere.db")
        with pytest.raises(DatabaseLost, match="deleted or replaced"):
            await service.move(m.id, BOB, "h10-g8")
        with pytest.raises(DatabaseLost):  # and it stays refused
            await service.resign(m.id, ALICE)
    finally:
        await repo.close()
    # every connection the test opened was closed while its loop ran: one left to the
    # garbage collector stopped its worker thread unawaited, and a thread finishing after
    # the loop had closed raised "Event loop is closed" in aiosqlite's worker
    assert [str(w.message) for w in recwarn if issubclass(w.category, ResourceWarning)] == []


async def test_the_console_says_so_when_its_file_is_deleted(tmp_path: Path) -> None:
    import io

    from bot.console import open_console

    path = tmp_path / "c.db"
    repo = await SqliteRepository.open(path)
    out = io.StringIO()
    console = open_console(repo, out)
    try:
        for line in ["as alice", "/challenge @bob xiangqi seat:red", "as bob", "/accept",
                     "as alice", "/move h3-e3"]:
            assert await console.handle(line)
        path.unlink()
        assert await console.handle("as bob")
        assert await console.handle("/move h10-g8")
    finally:
        await repo.close()
    text = out.getvalue()
    assert "played h3-e3" in text and "played h10-g8" not in text
    assert f"! the database file {path} was deleted or replaced" in text
