"""Clocks on SQLite (issue 16): how long a player's vacation takes to start and end when it
pauses N matches at once (one transaction), how long the sweep takes to put M lapsed
claim-win clocks into their waiting state, and a move on a bank clock vs days per move.

    python bench/bench_clocks.py [--matches 50] [--lapsed 200] [--moves 300]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_service import scripted_game
from service import MatchService, NullNotifier
from storage import SqliteRepository

GUILD, ALICE = 1, 7


class Clock:
    def __init__(self) -> None:
        self.t = datetime(2026, 6, 10, tzinfo=UTC)

    def now(self) -> datetime:
        return self.t


async def moves_per_second(s: MatchService, clock: str, n: int) -> float:
    script = scripted_game("xiangqi", n, random.Random(5))
    m = await s.challenge(GUILD, 1, 100, "xiangqi", opponents=[200], seat=0, clock=clock)
    await s.accept(m.id, 200)
    started = time.perf_counter()
    for i, move in enumerate(script):
        await s.move(m.id, (100, 200)[i % 2], move)
    return n / (time.perf_counter() - started)


async def main(matches: int, lapsed: int, moves: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        repo = await SqliteRepository.open(Path(folder) / "bench.db")
        clock = Clock()
        s = MatchService(repo, NullNotifier(), clock, rng=random.Random(1))
        await s.update_guild_settings(GUILD, vacation_days=60)
        for i in range(matches):
            m = await s.challenge(GUILD, 1, ALICE, "xiangqi", opponents=[1000 + i], seat=0,
                                  clock="3d+1d/10d")
            await s.accept(m.id, 1000 + i)
        starts, ends = [], []
        for _ in range(5):
            t0 = time.perf_counter()
            v = await s.start_vacation(GUILD, ALICE, 1)
            starts.append(time.perf_counter() - t0)
            assert len(v.paused) == matches
            clock.t += timedelta(hours=1)
            t0 = time.perf_counter()
            await s.end_vacation(GUILD, ALICE)
            ends.append(time.perf_counter() - t0)
        print(f"vacation start pausing {matches} matches: "
              f"median {statistics.median(starts) * 1000:.1f} ms")
        print(f"vacation end resuming {matches} matches: "
              f"median {statistics.median(ends) * 1000:.1f} ms")

        script = scripted_game("xiangqi", 2, random.Random(3))
        for i in range(lapsed):
            m = await s.challenge(GUILD, 1, 5000 + i, "xiangqi", opponents=[9000 + i],
                                  seat=0, days=1, claim_win=True)
            await s.accept(m.id, 9000 + i)
            await s.move(m.id, 5000 + i, script[0])
            await s.move(m.id, 9000 + i, script[1])
        clock.t += timedelta(days=30)
        await s.beat(clock.t)
        t0 = time.perf_counter()
        events = await s.sweep()
        took = time.perf_counter() - t0
        print(f"sweep: {len(events)} events ({lapsed} claim-win lapses, the vacationer's "
              f"{matches} timeouts) in {took * 1000:.0f} ms")
        days = await moves_per_second(s, "3", moves)
        bank = await moves_per_second(s, "3d+1d/10d", moves)
        print(f"moves/s on one match: days per move {days:.0f}, bank + increment {bank:.0f}")
        await repo.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--lapsed", type=int, default=200)
    parser.add_argument("--moves", type=int, default=300)
    a = parser.parse_args()
    asyncio.run(main(a.matches, a.lapsed, a.moves))
