"""``tablero db fingerprints`` on an SQLite file of ``--matches`` played matches that ended
without a fingerprint (an installation upgraded past migration 27): wall time, CPU time
and the database's reads and write transactions, per match.

The data: one Xiangqi match played to its end through the service (``--plies`` moves,
then a resignation), copied in SQL (its seats and moves too) into ``--matches`` matches
spread over ``--guilds`` servers, none fingerprinted. It is made once under ``--dir``
(default /tmp/tablero-fingerprints) and copied afresh for every run: each run
fingerprints every match. What the command does is timed as it runs
(``bot.operations.fingerprints``, progress shown to /dev/null); the repository's read and
write-transaction helpers are counted.

    nice python bench/bench_fingerprints.py [--matches 30000] [--plies 40] [--guilds 5]
        [--runs 1] [--dir /tmp/tablero-fingerprints] [--fresh]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import shutil
import sqlite3
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_startup import scripted_games  # noqa: E402

from bot import operations  # noqa: E402
from service import MatchService, NullNotifier  # noqa: E402
from storage.sqlite import SqliteRepository  # noqa: E402


class FixedClock:
    def now(self) -> datetime:
        return datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


async def _one_match(path: Path, plies: int) -> None:
    repo = await SqliteRepository.open(path)
    try:
        service = MatchService(repo, NullNotifier(), FixedClock())
        m = await service.challenge(1, 10, 101, "xiangqi", opponents=[102], seat=0)
        m = await service.accept(m.id, 102)
        (moves, _final), = scripted_games(1, plies, 1)
        for text in moves:
            m = (await service.move(m.id, m.to_move[0], text)).match
        await service.resign(m.id, m.to_move[0])
        await service.stop_background()
    finally:
        await repo.close()


def make(path: Path, matches: int, plies: int, guilds: int) -> None:
    """The file: one played match, copied into ``matches``, none fingerprinted."""
    path.unlink(missing_ok=True)
    asyncio.run(_one_match(path, plies))
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("BEGIN")
    columns = [r[1] for r in conn.execute("PRAGMA table_info(matches)")]
    names = ", ".join(columns)
    copied = ", ".join("n.i" if c == "id" else f"1 + n.i % {guilds}" if c == "guild_id"
                       else "NULL" if c in ("game_key", "thread_id") else c for c in columns)
    numbers = (f"WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n "
               f"WHERE i < {matches}) ")
    conn.execute(f"INSERT INTO matches ({names}) {numbers}SELECT {copied} FROM n, "
                 "matches WHERE matches.id = 1")
    for table in ("seats", "moves"):
        cols = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
        conn.execute(f"INSERT INTO {table} ({', '.join(cols)}) {numbers}SELECT "
                     + ", ".join("n.i" if c == "match_id" else c for c in cols)
                     + f" FROM n, {table} WHERE match_id = 1")
    conn.execute("UPDATE matches SET game_key = NULL")
    conn.execute("COMMIT")
    conn.close()


def counting() -> Counter[str]:
    """Count the SQLite repository's reads (``_all``), write transactions and the
    statements written in them (``_exec``, BEGIN and COMMIT included): each is a round
    trip to SQLite's thread."""
    counts: Counter[str] = Counter()
    read, write = SqliteRepository._all, SqliteRepository._transaction
    statement = SqliteRepository._exec

    async def _all(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts["reads"] += 1
        return await read(self, *args, **kwargs)

    async def _transaction(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts["write transactions"] += 1
        return await write(self, *args, **kwargs)

    async def _exec(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts["statements written"] += 1
        return await statement(self, *args, **kwargs)
    SqliteRepository._all = _all  # type: ignore[method-assign]
    SqliteRepository._transaction = _transaction  # type: ignore[method-assign]
    SqliteRepository._exec = _exec  # type: ignore[method-assign]
    return counts


threads: dict[str, tuple[int, int]] = {}
"""Per thread of this process: (ns run on a CPU, ns waited for one), /proc's schedstat as
last sampled; "start", the main thread's at the start."""


def sample() -> None:
    """Sample every thread's schedstat."""
    for task in Path("/proc/self/task").iterdir():
        try:
            ran, waited, _slices = (task / "schedstat").read_text().split()
        except OSError:
            continue
        threads.setdefault("start", (int(ran), int(waited)))
        threads[task.name] = (int(ran), int(waited))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=30_000)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--guilds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/tablero-fingerprints"))
    parser.add_argument("--fresh", action="store_true", help="make the data again")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    source = args.dir / f"made-{args.matches}-{args.plies}-{args.guilds}.db"
    if args.fresh or not source.exists():
        started = time.perf_counter()
        make(source, args.matches, args.plies, args.guilds)
        print(f"made {args.matches:,} matches of {args.plies} moves in "
              f"{time.perf_counter() - started:.1f} s")
    counts = counting()
    shown = operations.ProgressBar.__call__

    def progress(bar: operations.ProgressBar, done: int, total: int) -> None:
        sample()  # after each batch, while SQLite's thread is alive
        shown(bar, done, total)
    operations.ProgressBar.__call__ = progress  # type: ignore[method-assign]
    for run in range(args.runs):
        path = args.dir / "run.db"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        shutil.copy(source, path)
        counts.clear()
        out = io.StringIO()
        threads.clear()
        sample()
        wall, cpu = time.perf_counter(), time.process_time()
        asyncio.run(operations.fingerprints(path, progress=True, out=out,
                                            err=io.StringIO()))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        first = threads.pop("start")
        main_ran, main_queued = (a - b for a, b in zip(threads.pop(str(os.getpid())), first,
                                                      strict=True))
        other_ran = sum(t[0] for t in threads.values())
        other_queued = sum(t[1] for t in threads.values())
        conn = sqlite3.connect(path)
        left = conn.execute("SELECT count(*) FROM matches WHERE game_key IS NULL").fetchone()
        conn.close()
        print(f"run {run + 1}: {args.matches:,} matches fingerprinted in {wall:.2f} s wall, "
              f"{cpu:.2f} s CPU ({wall / args.matches * 1e3:.3f} ms wall, "
              f"{cpu / args.matches * 1e3:.3f} ms CPU a match); "
              + ", ".join(f"{n:,} {k}" for k, n in sorted(counts.items()))
              + f"; left unkeyed: {left[0]}")
        print(f"  main thread: ran {main_ran / 1e9:.2f} s, waited {main_queued / 1e9:.2f} s "
              f"for a CPU, {wall - (main_ran + main_queued) / 1e9:.2f} s blocked (on "
              f"SQLite's thread or the disk); SQLite's thread ran {other_ran / 1e9:.2f} s, "
              f"waited {other_queued / 1e9:.2f} s for a CPU (load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
        print("  " + out.getvalue().strip())


if __name__ == "__main__":
    main()
