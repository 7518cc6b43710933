"""The operator's commands: ``tablero db backup PATH``, ``tablero db check``,
``tablero db copy FROM TO``, ``tablero db explorer`` and ``tablero db fingerprints``, and
``holding``: the whole database for one command.

Backup and check work while the bot runs (SQLite WAL: readers and one writer at a time
share the file). A backup is one consistent snapshot (``VACUUM INTO``); the check replays
every stored match, reports the ones whose record does not give their stored position and
freezes them (status ``broken``) by a compare-and-set, as the service would on first use,
so it never acts twice beside a running bot. A copy must not run beside one (what the bot
writes meanwhile could be missed, or land on the target twice): it holds both databases
(``holding``), as the console holds its database.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TextIO

from locales.i18n import DEFAULT_LOCALE, Text, _
from service import ALL_SHARDS, MatchService, NullNotifier, Repository, SystemClock
from service.shards import LEASE_STALE, ShardLease, ShardsTaken
from storage import SqliteRepository, is_postgres_url, open_database
from storage.copy import TargetNotEmpty, copy_database, row_counts
from storage.errors import DatabaseInUse


@contextlib.asynccontextmanager
async def holding(repository: Repository, name: str, why: Text
                  ) -> AsyncIterator[ShardLease]:
    """Hold the whole database ``name`` while the body runs: the lease of shard 0 of 1,
    which no bot process's lease can share (the same shard, or another shard count), taken
    in the same transaction as theirs, renewed while the body runs, released after it.

    Raises ``DatabaseInUse`` (saying ``why`` not to act beside it) when a live process
    holds any shard of it; and, if this process stalls so long that another one takes
    the database meanwhile, cancels the body and raises ``DatabaseInUse`` too."""
    lease = ShardLease(repository, ALL_SHARDS, SystemClock())  # real time, never shifted
    seconds = int(LEASE_STALE.total_seconds())
    try:
        await lease.acquire()
    except ShardsTaken:
        raise DatabaseInUse(name, _(
            "{database} is in use by another running Tablero process (it renewed its "
            "lease within {seconds} s): {why} Stop that process first (one that died "
            "frees the database after {seconds} s).", database=name, seconds=seconds,
            why=why).render(DEFAULT_LOCALE)) from None
    body = asyncio.current_task()
    lost: list[ShardsTaken] = []

    async def on_lost(error: ShardsTaken) -> None:
        lost.append(error)
        if body is not None:
            body.cancel()
    keeper = asyncio.create_task(lease.keep(on_lost))
    try:
        yield lease
    except asyncio.CancelledError:
        if lost:
            raise DatabaseInUse(name, _(
                "another Tablero process took {database} while this one was stalled for "
                "over {seconds} s: stopped here. {why}", database=name, seconds=seconds,
                why=why).render(DEFAULT_LOCALE)) from None
        raise
    finally:
        keeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await keeper
        if not lost:
            with contextlib.suppress(Exception):  # else the lease runs out by itself
                await lease.release()


class ProgressBar:
    """``checking [#########...........]  45%  49,500/110,000`` on one line of a terminal;
    elsewhere (a log file) a line every 10%, so logs stay short."""

    def __init__(self, label: str, out: TextIO, *, width: int = 30) -> None:
        self.label = label
        self.out = out
        self.width = width
        self.tty = out.isatty()
        self._shown = -1
        self._last = 0.0

    def __call__(self, done: int, total: int) -> None:
        percent = 100 if total == 0 else done * 100 // total
        now = time.monotonic()
        if self.tty:
            if percent == self._shown and now - self._last < 0.2 and done != total:
                return
        elif percent // 10 == self._shown // 10 and done != total:
            return
        if done == total and self._shown == 100:
            return
        self._shown, self._last = percent, now
        filled = self.width * percent // 100
        bar = "#" * filled + "." * (self.width - filled)
        line = f"{self.label} [{bar}] {percent:3d}%  {done:,}/{total:,}"
        if self.tty:
            self.out.write("\r" + line + ("\n" if done == total else ""))
        else:
            self.out.write(line + "\n")
        self.out.flush()


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun`` in the reports' English: the noun plural unless ``n`` is 1.

    >>> counted(1, "match"), counted(2, "match"), counted(1200, "row"), counted(0, "row")
    ('1 match', '2 matches', '1,200 rows', '0 rows')
    """
    if n == 1:
        return f"1 {noun}"
    return f"{n:,} {noun}{'es' if noun.endswith(('ch', 'sh', 's', 'x')) else 's'}"


async def backup(database: Path | str, target: str | Path, *, out: TextIO | None = None
                 ) -> int:
    """Copy ``database`` to ``target`` consistently while it may be in use; 0 on success.
    A ``target`` ending in a slash, or an existing folder, receives a file named like the
    database."""
    out = out or sys.stdout
    if is_postgres_url(database):
        print("tablero: db backup copies a SQLite file; back PostgreSQL up with its own "
              "tools (pg_dump)", file=sys.stderr)
        return 2
    if str(target).endswith(("/", os.sep)) or Path(target).is_dir():
        target = Path(target) / Path(database).name
    repo = await SqliteRepository.open(database)
    loop = asyncio.get_running_loop()
    copying = asyncio.current_task()
    stopped: list[str] = []

    def stop(signum: signal.Signals) -> None:  # the copy ends and removes its file
        stopped.append(signum.name)
        if copying is not None:
            copying.cancel()

    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop, signum)
    try:
        started = time.perf_counter()
        written = await repo.backup(target)
    except asyncio.CancelledError:
        if not stopped:
            raise
        print(f"tablero: the backup to {target} was stopped ({stopped[0]}): nothing was "
              "written", file=sys.stderr)
        return 1
    except (OSError, sqlite3.Error, ValueError) as exc:
        print(f"tablero: cannot write the backup to {target}: {exc}", file=sys.stderr)
        return 1
    finally:
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(signum)
        await repo.close()
    size = written.stat().st_size
    print(f"backup of {database} written to {written} ({size / 1e6:.1f} MB, "
          f"{time.perf_counter() - started:.1f} s); check it with: tablero db check --db "
          f"{written}", file=out)
    return 0


async def copy(source: Path | str, target: Path | str, *, progress: bool = True,
               out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Copy a whole installation from ``source`` to the empty ``target`` (each a SQLite
    file or a ``postgresql://`` URL), then verify it: the same rows per table, and every
    match replays on the target. 0 on success; 1 when the target refuses or differs."""
    out = out or sys.stdout
    err = err or sys.stderr
    src = await open_database(source, create=False)  # an installation to copy
    try:
        dst = await open_database(target)
        try:
            async with holding(src, src.path, _(
                    "a copy made while it runs could miss what it writes.")), \
                    holding(dst, dst.path, _("the copy must be the only writer there.")):
                started = time.perf_counter()
                try:
                    counts = await copy_database(
                        src, dst, ProgressBar("copying rows", err) if progress else None)
                except TargetNotEmpty as exc:
                    print(f"tablero: {exc}", file=err)
                    return 1
                copied = await row_counts(dst)
                if copied != counts:
                    print(f"tablero: the copy differs from the source: {copied} != "
                          f"{counts}", file=err)
                    return 1
                service = MatchService(dst, NullNotifier(), SystemClock())
                problems = await service.verify_all(
                    progress=ProgressBar("replaying matches", err) if progress else None)
        finally:
            await dst.close()
    finally:
        await src.close()
    for match_id, problem in problems:
        print(f"match #{match_id}: {problem}", file=out)
    rows = sum(counts.values())
    verdict = "every match replays" if not problems else \
        f"{len(problems)} {'does' if len(problems) == 1 else 'do'} not replay"
    print(f"copied {src.path} to {dst.path}: {counted(rows, 'row')} "
          f"({counted(counts['matches'], 'match')}) in {time.perf_counter() - started:.1f} s; "
          f"{verdict}", file=out)
    return 0 if not problems else 1


async def check(database: Path | str, *, progress: bool = True, out: TextIO | None = None,
                err: TextIO | None = None) -> int:
    """Replay every match of ``database``; 0 when all replay, 1 when some are broken."""
    out = out or sys.stdout
    err = err or sys.stderr
    # SQLite: runs PRAGMA quick_check first; never sets a new database up
    repo = await open_database(database, create=False)
    try:
        service = MatchService(repo, NullNotifier(), SystemClock())
        started = time.perf_counter()
        problems = await service.verify_all(
            progress=ProgressBar("checking matches", err) if progress else None)
        total = len(await repo.match_ids())
    finally:
        await repo.close()
    for match_id, problem in problems:
        said = problem if problem.startswith(f"match #{match_id} ") else \
            f"match #{match_id}: {problem}"
        print(said, file=out)
    elapsed = time.perf_counter() - started
    verdict = "all replay" if not problems else f"{len(problems)} broken"
    matches = counted(total, "match")
    print(f"{repo.path}: {'file intact, ' if isinstance(repo, SqliteRepository) else ''}"
          f"{matches} checked in {elapsed:.1f} s, {verdict}",
          file=out)
    return 0 if not problems else 1


async def explorer_backfill(database: Path | str, *, out: TextIO | None = None) -> int:
    """Count every finished match of ``database`` the opening explorer does not hold yet
    (after the upgrade that brought it: new games are counted as they end); 0."""
    out = out or sys.stdout
    repo = await open_database(database, create=False)
    try:
        service = MatchService(repo, NullNotifier(), SystemClock())
        started = time.perf_counter()
        done = await service.backfill_explorer()
    finally:
        await repo.close()
    print(f"{repo.path}: {counted(done, 'finished match')} counted "
          f"in the opening explorer in {time.perf_counter() - started:.1f} s", file=out)
    return 0


async def fingerprints(database: Path | str, *, progress: bool = True,
                       out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Fingerprint every played match of ``database`` that ended without one (before the
    upgrade that brought fingerprints: each server's first ``/import`` would do its own,
    slowly on a large server), with a progress bar on ``err``; 0. Safe beside a running
    bot (a fingerprint stored stays), and a second run finds nothing to do."""
    out = out or sys.stdout
    err = err or sys.stderr
    repo = await open_database(database, create=False)
    try:
        service = MatchService(repo, NullNotifier(), SystemClock())
        started = time.perf_counter()
        keyed = await service.fingerprint_games(
            ProgressBar("fingerprinting played matches", err) if progress else None)
    finally:
        await repo.close()
    print(f"{repo.path}: {counted(keyed, 'played match')} fingerprinted "
          f"in {time.perf_counter() - started:.1f} s", file=out)
    return 0
