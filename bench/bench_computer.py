"""Does the computer block the bot? ``/move`` latency of people's matches while engine
searches run in the process pool.

The service over SQLite (a temporary file) with the real ``PoolMovePicker``: first a
baseline (people's moves, no computer), then the same while ``--searches`` computer
matches (level 8, full per-move budget) are thinking; the people's matches keep moving
(each move waits ``--pause`` ms, like people clicking). Prints p50/p95/max of the service
call and how many computer moves landed meanwhile.

Run: ``nice -n 15 .venv/bin/python bench/bench_computer.py [--seconds 10]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.computer import PoolMovePicker
from service import MatchService, NullNotifier, SystemClock
from storage import SqliteRepository

GUILD, CHANNEL = 1, 1


async def people_moving(service: MatchService, seconds: float, pause: float,
                        matches: int) -> list[float]:
    """Play random moves in ``matches`` human matches for ``seconds``; the latencies."""
    rng = random.Random(1)
    ids = []
    for i in range(matches):
        a, b = 10 + 2 * i, 11 + 2 * i
        m = await service.challenge(GUILD, CHANNEL, a, "xiangqi", opponents=[b], seat=0)
        await service.accept(m.id, b)
        ids.append((m.id, a, b))
    latencies: list[float] = []
    end = time.perf_counter() + seconds
    turn = 0
    while time.perf_counter() < end:
        match_id, a, b = ids[turn % len(ids)]
        turn += 1
        p, _ = await service.position(match_id)
        if p.outcome() is not None:
            continue
        user = a if p.mover == 0 else b
        text = p.variant.format_move(p, rng.choice(p.legal_moves()))
        t = time.perf_counter()
        await service.move(match_id, user, text)
        latencies.append(time.perf_counter() - t)
        await asyncio.sleep(pause)
    return latencies


def summary(label: str, values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return (f"{label}: {len(ms)} moves, p50 {statistics.median(ms):.1f} ms, "
            f"p95 {p95:.1f} ms, max {ms[-1]:.1f} ms")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--searches", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--pause", type=float, default=50.0, help="ms between moves")
    parser.add_argument("--budget", type=float, default=2.0, help="seconds per engine move")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        repo = await SqliteRepository.open(Path(tmp) / "bench.db")
        picker = PoolMovePicker(workers=args.workers, seconds=args.budget)
        service = MatchService(repo, NullNotifier(), SystemClock(), picker=picker)
        try:
            # warm the pool (spawned workers import the engine once)
            await picker.pick(*(await _start(service)), 1, seed=0)
            base = await people_moving(service, args.seconds, args.pause / 1000, 4)
            print(summary("baseline, no engine search", base))
            before = 0
            cpu_matches = []
            for i in range(args.searches):
                m = await service.challenge_computer(GUILD, CHANNEL, 500 + i, "xiangqi",
                                                     level=8, seat=1)
                cpu_matches.append(m.id)
            loaded = await people_moving(service, args.seconds, args.pause / 1000, 4)
            after = sum([(await service.get_match(i)).ply for i in cpu_matches])
            print(summary(f"{args.searches} level-8 searches in a pool of {args.workers}",
                          loaded))
            print(f"computer moves landed meanwhile: {after - before} "
                  f"({args.budget:g} s per move, {args.workers} workers)")
            await service.computers_idle()
        finally:
            picker.close()
            await repo.close()


async def _start(service: MatchService) -> tuple[object, int]:
    m = await service.challenge(GUILD, CHANNEL, 1, "xiangqi", opponents=[2], seat=0)
    await service.accept(m.id, 2)
    p, _ = await service.position(m.id)
    return p, 0


if __name__ == "__main__":
    asyncio.run(main())
