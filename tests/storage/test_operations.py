"""``tablero db backup`` and ``tablero db check`` (issue 20 §2)."""

from __future__ import annotations

import asyncio
import io
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from service import MatchService, NullNotifier, StaleMove, SystemClock
from storage import SqliteRepository
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD
from tests.storage.test_failures import ROOT, play_some
from tests.storage.test_postgres import RELEASE_DB


@pytest.fixture
def tablero_here(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
                 ) -> Callable[[list[str], Path], subprocess.CompletedProcess[str]]:
    """``tablero ARGS`` run in ``cwd`` in this process: ``bot.__main__.main``, the very
    function ``python -m bot`` exits with, its exit code and what it printed (as
    ``tests.storage.test_failures.tablero`` runs it in a process of its own, which cost
    0.8 s of CPU and, on a loaded machine, several seconds a command to start). The
    backup taken while moves stream in keeps its own process: there the other process
    is the point."""
    from bot.__main__ import main

    def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
        capsys.readouterr()
        with monkeypatch.context() as env:
            env.chdir(cwd)
            env.setenv("DISCORD_TOKEN", "")
            code = main(args)
        said = capsys.readouterr()
        return subprocess.CompletedProcess(args, code, said.out, said.err)
    return run


async def test_a_backup_taken_during_a_stream_of_moves_holds_every_acknowledged_move(
        tmp_path: Path) -> None:
    """Four matches are played move after move while ``tablero db backup`` runs in another
    process: the copy opens, every match in it replays, and it holds every move that was
    acknowledged before the backup began (and nothing that was never acknowledged)."""
    path = tmp_path / "live.db"
    repo = await SqliteRepository.open(path)
    service = MatchService(repo, NullNotifier(), SystemClock(), rng=random.Random(2))
    matches = []
    for _ in range(4):
        m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
        await service.accept(m.id, BOB)
        matches.append(m.id)
    acknowledged: list[tuple[int, int, str]] = []  # (match, ply, move) in order of acks
    stop = asyncio.Event()

    async def player(match_id: int, seed: int) -> None:
        rng = random.Random(seed)
        ply = 0
        while not stop.is_set() and ply < 300:
            user = (ALICE, BOB)[ply % 2]
            moves = await service.suggest_moves(match_id, user, "", limit=500)
            if not moves:
                return
            text = rng.choice(moves)[0]
            try:
                await service.move(match_id, user, text, expected_ply=ply)
            except StaleMove:
                continue
            acknowledged.append((match_id, ply, text))
            ply += 1
            m = await service.get_match(match_id)
            if m.is_over:
                return

    players = [asyncio.create_task(player(mid, i)) for i, mid in enumerate(matches)]
    while len(acknowledged) < 40:
        await asyncio.sleep(0.01)
    before = list(acknowledged)  # acknowledged before the backup began
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": ""}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "db", "backup", "--db", str(path),
        f"{tmp_path / 'copies'}/", stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE, env=env, cwd=tmp_path)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    during = len(acknowledged) - len(before)
    stop.set()
    await asyncio.gather(*players)
    await repo.close()
    assert proc.returncode == 0, err.decode()
    copy = tmp_path / "copies" / "live.db"
    assert f"written to {copy}" in out.decode()
    assert during > 0  # moves went on while the backup ran

    restored = await SqliteRepository.open(copy)
    try:
        assert await MatchService(restored, NullNotifier(), SystemClock()).verify_all() == []
        stored = {mid: [(e.ply, e.text) for e in await restored.load_entries(mid)]
                  for mid in matches}
    finally:
        await restored.close()
    for mid, ply, text in before:
        assert (ply, text) in stored[mid], (mid, ply, text)
    every = {(mid, ply, text) for mid, ply, text in acknowledged}
    for mid, entries in stored.items():
        for ply, text in entries:
            assert (mid, ply, text) in every  # the copy invents nothing


def test_db_check_replays_every_match_and_reports_the_broken_ones(
        tmp_path: Path, tablero_here: Callable[[list[str], Path], Any]) -> None:
    path = tmp_path / "t.db"
    ids = asyncio.run(play_some(path, 12, 4))
    done = tablero_here(["db", "check", "--db", str(path)], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "12 matches checked" in done.stdout and "all replay" in done.stdout
    assert "100%  12/12" in done.stderr  # the progress bar
    conn = sqlite3.connect(path)  # tamper with one stored move
    conn.execute("UPDATE moves SET notation = 'a1-a2' WHERE match_id = ? AND ply = 1",
                 (ids[4],))
    conn.commit()
    conn.close()
    done = tablero_here(["db", "check", "--db", str(path), "--quiet"], tmp_path)
    assert done.returncode == 1
    assert f"match #{ids[4]} is broken: entry 2 ('a1-a2') does not replay" in done.stdout
    assert "1 broken" in done.stdout and "[" not in done.stderr  # --quiet: no bar


def test_db_commands_refuse_a_damaged_file(
        tmp_path: Path, tablero_here: Callable[[list[str], Path], Any]) -> None:
    bad = tmp_path / "bad.db"
    bad.write_text("not a database\n")
    for args in (["db", "check", "--db", str(bad)],
                 ["db", "backup", "--db", str(bad), str(tmp_path / "b.db")]):
        done = tablero_here(args, tmp_path)
        assert done.returncode == 3 and f"{bad} is not a Tablero database" in done.stderr
    assert not (tmp_path / "b.db").exists()


def test_a_backup_that_cannot_be_written_says_so(
        tmp_path: Path, tablero_here: Callable[[list[str], Path], Any]) -> None:
    path = tmp_path / "t.db"
    asyncio.run(play_some(path, 1, 2))
    blocker = tmp_path / "file"
    blocker.write_text("a file where a folder should be")
    done = tablero_here(["db", "backup", "--db", str(path), str(blocker / "b.db")], tmp_path)
    assert done.returncode == 1 and f"cannot write the backup to {blocker / 'b.db'}" in \
        done.stderr and "Traceback" not in done.stderr
    done = tablero_here(["db", "backup", "--db", str(path), str(path)], tmp_path)
    assert done.returncode == 1 and "must not overwrite the database" in done.stderr


async def test_a_backup_stopped_by_sigterm_leaves_nothing_behind(tmp_path: Path) -> None:
    """SIGTERM (a cron job's timeout, a shutdown) while the copy is written: it killed the
    process at once, leaving the hidden partial copy (195 MB of a 400 MB database, and its
    journal) in the backup folder for good. The copy is stopped, its file removed, and
    the command says so (exit status 1). The database is made large enough (about 80 MB)
    that the copy is still under way when the signal comes, once its file appeared."""
    path = tmp_path / "t.db"
    await (await SqliteRepository.open(path)).close()
    conn = sqlite3.connect(path)
    conn.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
                 "WHERE i < 160) INSERT INTO outbox (match_id, guild_id, version, n, kind, "
                 "payload, created_at) SELECT 1, 1, i, 0, 'x', hex(randomblob(250000)), 0 "
                 "FROM n")
    conn.commit()
    conn.close()
    copies = tmp_path / "copies"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": ""}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "db", "backup", "--db", str(path), f"{copies}/",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env,
        cwd=tmp_path)
    partial = copies / f".t.db.partial-{proc.pid}"
    loop = asyncio.get_running_loop()
    end = loop.time() + 60
    while not partial.exists():  # the copy has begun
        assert proc.returncode is None and loop.time() < end
        await asyncio.sleep(0.002)
    proc.send_signal(signal.SIGTERM)
    _, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 1, (proc.returncode, err.decode())
    assert err.decode().splitlines()[-1] == (
        f"tablero: the backup to {copies / 't.db'} was stopped (SIGTERM): nothing was "
        "written")
    assert list(copies.iterdir()) == []


async def test_a_backup_that_fails_midway_leaves_no_partial_copy(tmp_path: Path) -> None:
    """A copy that fails while it is written (found on a full disk: 'database or disk is
    full') left its hidden partial file ('.b.db.partial-PID') beside the target: on a full
    disk the half copy kept the disk full, and each day's failing backup left another.
    Here the source's pages break under the running repository, so the copy's reading
    fails after its file was made."""
    path = tmp_path / "t.db"
    await play_some(path, 12, 4)
    repo = await SqliteRepository.open(path)
    try:
        with path.open("r+b") as f:  # damage every page after the first two
            f.seek(8192)
            f.write(b"\xff" * (path.stat().st_size - 8192))
        backups = tmp_path / "backups"
        with pytest.raises(sqlite3.DatabaseError):
            await repo.backup(backups / "b.db")
        assert list(backups.iterdir()) == []
    finally:
        await repo.close()


@pytest.mark.parametrize("args", [
    ["db", "check"], ["db", "check", "--db", "typo.db"], ["db", "backup", "b.db"],
    ["db", "backup", "--db", "typo.db", "b.db"], ["db", "explorer", "--db", "typo.db"],
    ["db", "fingerprints", "--db", "typo.db"],
    ["db", "copy", "typo.db", "copy.db"],
])
def test_a_db_command_on_a_missing_file_refuses_instead_of_creating_it(
        tmp_path: Path, tablero_here: Callable[[list[str], Path], Any],
        args: list[str]) -> None:
    """A mistyped --db, or a command run from the wrong folder (TABLERO_DB's tablero.db
    is relative): every command created an empty database there and reported success
    ('typo.db: file intact, 0 matches checked', a backup of nothing, a copy of 0 rows
    into the new installation). It says the file does not exist and creates nothing."""
    done = tablero_here(args, tmp_path)
    name = "typo.db" if "typo.db" in args else "tablero.db"
    assert done.returncode == 3, done
    assert done.stderr.splitlines()[-1] == (
        f"tablero: {name} does not exist (in {tmp_path}): give the database with --db "
        "FILE or set TABLERO_DB; nothing was created")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_db_explorer_counts_the_finished_matches_once(
        tmp_path: Path, tablero_here: Callable[[list[str], Path], Any]) -> None:
    """``tablero db explorer`` after an upgrade: the finished matches stored before the
    explorer existed are counted, once; a second run counts none."""
    path = tmp_path / "old.db"

    async def games() -> None:
        repo = await SqliteRepository.open(path)
        service = MatchService(repo, NullNotifier(), SystemClock(), rng=random.Random(3))
        for opening in ("h3-e3", "h3-e3", "b1-c3"):
            m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB],
                                        seat=0)
            await service.accept(m.id, BOB)
            await service.move(m.id, ALICE, opening)
            await service.move(m.id, BOB, "h10-g8")
            await service.resign(m.id, ALICE)
        await service.explorer_idle()
        await repo._writer.execute("DELETE FROM explorer_moves")  # as before the upgrade
        await repo._writer.execute("DELETE FROM explorer_games")
        await repo._writer.commit()
        await repo.close()

    async def start_counts() -> dict[str, int]:
        repo = await SqliteRepository.open(path)
        try:
            view = await MatchService(repo, NullNotifier(), SystemClock()).explorer(
                GUILD, ALICE, "xiangqi")
            return {m.move: m.games for m in view.moves}
        finally:
            await repo.close()

    asyncio.run(games())
    assert asyncio.run(start_counts()) == {}
    done = tablero_here(["db", "explorer", "--db", str(path)], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "3 finished matches counted in the opening explorer" in done.stdout
    assert asyncio.run(start_counts()) == {"h3-e3": 2, "b1-c3": 1}
    again = tablero_here(["db", "explorer", "--db", str(path)], tmp_path)
    assert "0 finished matches counted" in again.stdout
    assert asyncio.run(start_counts()) == {"h3-e3": 2, "b1-c3": 1}


def test_db_fingerprints_fills_an_upgraded_files_played_games_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``tablero db fingerprints`` on a file of an earlier release (its finished match
    ended before fingerprints): fingerprinted ahead of the server's next import, with a
    progress bar; a second run does nothing."""
    from bot.__main__ import main
    path = tmp_path / "release.db"
    shutil.copy(RELEASE_DB, path)

    async def unkeyed() -> dict[int, int]:
        repo = await SqliteRepository.open(path)
        try:
            return await repo.unkeyed_game_counts()
        finally:
            await repo.close()

    assert asyncio.run(unkeyed()) == {1: 1}
    assert main(["db", "fingerprints", "--db", str(path)]) == 0
    said = capsys.readouterr()
    assert "1 played match fingerprinted" in said.out
    assert "fingerprinting played matches [" in said.err and "1/1" in said.err
    assert asyncio.run(unkeyed()) == {}
    assert main(["db", "fingerprints", "--db", str(path), "--quiet"]) == 0
    said = capsys.readouterr()
    assert "0 played matches fingerprinted" in said.out and "[" not in said.err


async def test_the_db_reports_say_one_match_and_one_row_in_the_singular(
        tmp_path: Path) -> None:
    """``tablero db copy`` said '(1 matches)' and, refusing a target, '(matches holds 1
    rows)'; ``tablero db check`` already said '1 match'."""
    from bot import operations
    from storage.copy import TargetNotEmpty

    source = tmp_path / "one.db"
    repo = await SqliteRepository.open(source)
    service = MatchService(repo, NullNotifier(), SystemClock(), rng=random.Random(5))
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
    await service.accept(m.id, BOB)
    await repo.close()
    out, err = io.StringIO(), io.StringIO()
    assert await operations.copy(source, tmp_path / "copy.db", progress=False, out=out,
                                 err=err) == 0
    assert " rows (1 match) in " in out.getvalue()
    assert "(matches holds 1 row)" in str(TargetNotEmpty("t.db", "matches", 1))
    assert "(matches holds 2 rows)" in str(TargetNotEmpty("t.db", "matches", 2))
    assert await operations.check(source, progress=False, out=out, err=err) == 0
    assert ": file intact, 1 match checked in " in out.getvalue()
