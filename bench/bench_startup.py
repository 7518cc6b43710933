"""Start-up time on a large database (issue 20 §2): 100,000 finished and 10,000 active
xiangqi matches of real, replayable games, written in bulk.

Prints the time of: opening the repository (migrations check, ``PRAGMA quick_check``) and
without the check; the console's start (open, names, the catch-up sweep, end of input);
the bot's start as far as the database goes (open + the first sweep); and, with
``--check``, the full replay of every match (``tablero db check``'s job; before issue 20
the console did it at every start: 8 min 42 s on such a database).

    python bench/bench_startup.py [--finished 100000] [--active 10000] [--plies 40]
                                  [--dir PATH] [--check] [--keep]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import sqlite3
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_service import scripted_game

import rules
from bot.console import run_console
from service import MatchService, NullNotifier, SystemClock
from service.records import MatchRecord, MatchStatus, ResultRecord, SeatRecord
from storage import SqliteRepository
from storage.sql import _MATCH_COLUMNS, _match_values

GUILD = 1


def scripted_games(count: int, plies: int, seed: int) -> list[tuple[list[str], str]]:
    """``count`` random xiangqi games of ``plies`` moves: (moves, final position text)."""
    v = rules.variant("xiangqi")
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        moves = scripted_game("xiangqi", plies, rng)
        p = v.start()
        for text in moves:
            p = p.play(v.parse_move(p, text))
        out.append((moves, p.to_text()))
    return out


def generate(path: Path, finished: int, active: int, plies: int) -> None:
    """Bulk-write the matches and their moves (the schema comes from a normal open)."""
    asyncio.run(_create(path))
    games = scripted_games(50, plies, 1)
    start = rules.variant("xiangqi").start().to_text()
    now = datetime.now(UTC)
    rng = random.Random(2)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("BEGIN")
    placeholders = ", ".join("?" * (len(_MATCH_COLUMNS.split(",")) + 2))
    total = finished + active
    for i in range(1, total + 1):
        moves, final = games[i % len(games)]
        a, b = rng.sample(range(10_000, 30_000), 2)
        over = i <= finished
        rec = MatchRecord(
            id=i, guild_id=GUILD, channel_id=1, thread_id=1_000_000 + i, game="xiangqi",
            ladder="xiangqi", rules_version="1", options={}, start_text=start, seat_count=2,
            status=MatchStatus.FINISHED if over else MatchStatus.ACTIVE, challenger_id=a,
            seats=(SeatRecord(a, 0), SeatRecord(b, 1)), seat_pref=0, seating="chosen",
            ply=plies, position_text=final, to_move=() if over else (plies % 2,),
            last_move=moves[-1], days_per_move=3, rated=True,
            deadline=None if over else now + timedelta(days=3),
            remind_at=None if over else now + timedelta(days=2), draw_offer=None,
            result=ResultRecord((0,), ((0,), (1,)), "resignation") if over else None,
            broken=None, created_at=now, updated_at=now, version=plies + 2,
            last_move_by=(a, b)[(plies - 1) % 2])
        conn.execute(f"INSERT INTO matches (id, version, {_MATCH_COLUMNS}) "
                     f"VALUES ({placeholders})", (i, rec.version, *_match_values(rec)))
        conn.executemany("INSERT INTO seats (match_id, user_id, seat, team) VALUES "
                         "(?, ?, ?, NULL)", ((i, a, 0), (i, b, 1)))
        if over:  # counted in the explorer as it ended (its rows left out: not read at start)
            conn.execute("INSERT INTO explorer_games (match_id, guild_id, imported) "
                         "VALUES (?, ?, 0)", (i, GUILD))
        conn.executemany(
            "INSERT INTO moves (match_id, ply, seat, notation, user_id, played_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            ((i, k, k % 2, m, (a, b)[k % 2], now.timestamp()) for k, m in enumerate(moves)))
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


async def _create(path: Path) -> None:
    await (await SqliteRepository.open(path)).close()


async def measure(path: Path, check: bool) -> None:
    t0 = time.perf_counter()
    repo = await SqliteRepository.open(path)
    opened = time.perf_counter() - t0
    await repo.close()
    t0 = time.perf_counter()
    repo = await SqliteRepository.open(path, check=False)
    unchecked = time.perf_counter() - t0
    await repo.close()
    print(f"open the repository: {opened * 1000:.0f} ms with PRAGMA quick_check, "
          f"{unchecked * 1000:.0f} ms without")

    t0 = time.perf_counter()
    repo = await SqliteRepository.open(path)
    service = MatchService(repo, NullNotifier(), SystemClock())
    await service.sweep()
    bot = time.perf_counter() - t0
    await repo.close()
    print(f"bot start (open + first sweep): {bot * 1000:.0f} ms")

    out = io.StringIO()
    t0 = time.perf_counter()
    await run_console(path, stdin=io.StringIO(""), stdout=out)
    console = time.perf_counter() - t0
    print(f"console start to end of (empty) input: {console * 1000:.0f} ms")

    out = io.StringIO()
    t0 = time.perf_counter()
    await run_console(path, stdin=io.StringIO("as u10000\n/board #109999\n"), stdout=out)
    first = time.perf_counter() - t0
    print(f"console start + first /board of an active match (replayed lazily): "
          f"{first * 1000:.0f} ms")
    if check:
        repo = await SqliteRepository.open(path)
        service = MatchService(repo, NullNotifier(), SystemClock())
        t0 = time.perf_counter()
        problems = await service.verify_all()
        print(f"full replay of every match (tablero db check): "
              f"{time.perf_counter() - t0:.1f} s, {len(problems)} problems")
        await repo.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--finished", type=int, default=100_000)
    parser.add_argument("--active", type=int, default=10_000)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--check", action="store_true", help="also time the full replay")
    parser.add_argument("--keep", action="store_true", help="keep the database, print it")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(dir=args.dir))
    path = folder / "big.db"
    t0 = time.perf_counter()
    generate(path, args.finished, args.active, args.plies)
    size = path.stat().st_size / 1e6
    print(f"generated {args.finished:,} finished + {args.active:,} active matches of "
          f"{args.plies} plies ({size:.0f} MB) in {time.perf_counter() - t0:.0f} s: {path}")
    try:
        asyncio.run(measure(path, args.check))
    finally:
        if not args.keep:
            for p in folder.iterdir():
                p.unlink()
            folder.rmdir()


if __name__ == "__main__":
    main()
