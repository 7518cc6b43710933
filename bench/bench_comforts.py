"""The comforts' cost on the move path (issue 16), through the service on SQLite (a temp
file), rendering off. Prints per-move latency (p50/p99) for: a plain move; a move in a
match with 20 followers (a MoveFollowed entry more in the outbox); a move answered at
once by a conditional move (two moves and the line's bookkeeping); entering a line of
ten pairs (each move checked); and a takeback accepted (a replay of the record).

    python bench/bench_comforts.py [--rounds 200]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service import MatchService, NullNotifier, SystemClock
from storage import SqliteRepository

GUILD, CHANNEL, ALICE, BOB = 1, 2, 101, 202
LINE = "h10-g8 b1-c3 b10-c8 h1-g3 i10-i9 i1-i2 a10-a9 a1-a2 i9-f9 i2-f2"  # after h3-e3


def figures(name: str, samples: list[float]) -> None:
    ms = sorted(s * 1000 for s in samples)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(f"{name:<42} p50 {statistics.median(ms):6.2f} ms   p99 {p99:6.2f} ms   "
          f"(n={len(ms)})")


async def timed(work: Callable[..., Awaitable[object]], *args: object) -> float:
    t = time.perf_counter()
    await work(*args)
    return time.perf_counter() - t


async def main(rounds: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        repo = await SqliteRepository.open(Path(folder) / "bench.db")
        service = MatchService(repo, NullNotifier(), SystemClock())

        async def new_match() -> int:
            m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB],
                                        seat=0, rated=False)
            await service.accept(m.id, BOB)
            await service.move(m.id, ALICE, "h3-e3")
            return m.id

        plain, followed, answered, entered, taken = [], [], [], [], []
        for i in range(rounds):
            match_id = await new_match()
            plain.append(await timed(service.move, match_id, BOB, "h10-g8"))
            match_id = await new_match()
            for f in range(20):
                await service.follow(GUILD, 10_000 + i * 20 + f, match_id=match_id)
            followed.append(await timed(service.move, match_id, BOB, "h10-g8"))
            match_id = await new_match()
            entered.append(await timed(service.add_conditional_moves, match_id, ALICE, LINE))
            answered.append(await timed(service.move, match_id, BOB, "h10-g8"))
            await service.move(match_id, BOB, "b10-c8")  # answered too: h1-g3
            await service.request_takeback(match_id, ALICE)
            taken.append(await timed(service.accept_takeback, match_id, BOB))
        figures("plain move", plain)
        figures("move with 20 followers", followed)
        figures("move answered by a conditional move", answered)
        figures("/premove of ten pairs (checked)", entered)
        figures("takeback accepted (ply 5 -> 4)", taken)
        await repo.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=200)
    asyncio.run(main(parser.parse_args().rounds))
