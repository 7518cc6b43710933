"""The notification outbox on SQLite (a temp file): what it costs a move, and how fast it
is delivered.

1. Added latency per move: the same scripted xiangqi moves played one after another
   through ``service.move``, before (the repository drops the outbox: no entry written,
   as before issue 12) and after (entries written in the move's transaction, the live
   event handed to an ``OutboxRelay`` whose deliverer does nothing). p50/p99 per move.
2. Delivery throughput (messages/s): entries a crash left in the outbox, delivered by a
   fresh relay after a restart (read, decoded from their payload, delivered to a no-op,
   removed), over many matches at once; and the live path during play (the relay
   delivering the moves' own events as they are played, measured until drained).

Discord's own latency is not in these figures (the deliverer is a no-op): they are what
the outbox adds.

    python bench/bench_outbox.py [--moves 2000] [--matches 40]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_service import Table, pct
from service import Event, MatchService, NullNotifier, SystemClock
from service.outbox import OutboxRelay
from service.records import OutboxEntry
from storage import SqliteRepository


class NoOutbox:
    """The repository as it was before the outbox: ``outbox`` arguments are dropped."""

    def __init__(self, inner: SqliteRepository) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def save(self, before: Any, after: Any, append: Any = (), ratings: Any = None,
                   outbox: Any = None) -> Any:
        return await self._inner.save(before, after, append, ratings)

    async def create_match(self, record: Any, outbox: Any = None) -> Any:
        return await self._inner.create_match(record)


async def deliver_nothing(entry: OutboxEntry, event: Event) -> None:
    return None


async def moves(repo: Any, notifier: Any, n_matches: int, plies: int,
                seed: int) -> tuple[float, list[float]]:
    service = MatchService(repo, notifier, SystemClock())
    table = Table(service, "xiangqi", n_matches, plies, seed)
    await table.open()
    lat: list[float] = []
    t0 = time.perf_counter()
    for _ in range(plies):
        for k in range(n_matches):
            lat.append(await table.play(k))
    return time.perf_counter() - t0, lat


def line(label: str, lat: list[float]) -> str:
    ms = [x * 1000 for x in lat]
    return (f"{label}: p50 {statistics.median(ms):.3f} ms, p99 {pct(ms, 0.99):.3f} ms, "
            f"mean {statistics.fmean(ms):.3f} ms")


async def main(total_moves: int, n_matches: int) -> None:
    plies = max(1, total_moves // n_matches)
    with tempfile.TemporaryDirectory() as tmp:
        before_repo = await SqliteRepository.open(Path(tmp) / "before.db")
        _, before = await moves(NoOutbox(before_repo), NullNotifier(), n_matches, plies, 7)
        await before_repo.close()

        repo = await SqliteRepository.open(Path(tmp) / "after.db")
        relay = OutboxRelay(repo, deliver_nothing, SystemClock())
        await relay.recover()
        elapsed, after = await moves(repo, relay, n_matches, plies, 7)
        t0 = time.perf_counter()
        await relay.drain()
        live_total = elapsed + time.perf_counter() - t0
        print(f"per move, {len(after)} xiangqi moves over {n_matches} matches, SQLite:")
        print("  " + line("before (no outbox)", before))
        print("  " + line("after (outbox + relay)", after))
        p50 = statistics.median(after) - statistics.median(before)
        mean = statistics.fmean(after) - statistics.fmean(before)
        print(f"  added per move: p50 {1000 * p50:+.3f} ms, mean {1000 * mean:+.3f} ms")
        print(f"live path: {relay.delivered} messages delivered while playing, "
              f"{relay.delivered / live_total:.0f} messages/s (moves included)")
        await repo.close()

        # a restart with a backlog: every move's entry left undelivered
        crashed = await SqliteRepository.open(Path(tmp) / "crashed.db")
        await moves(crashed, NullNotifier(), n_matches, plies, 8)
        waiting = len(await crashed.pending_outbox(limit=10**6))
        restarted = OutboxRelay(crashed, deliver_nothing, SystemClock())
        t0 = time.perf_counter()
        await restarted.recover()
        await restarted.drain()
        while await crashed.pending_outbox(limit=1):  # recover takes up to 10,000 a pass
            await restarted.poll()
            await restarted.drain()
        took = time.perf_counter() - t0
        print(f"after a restart: {waiting} stored messages over {n_matches} matches "
              f"delivered in {took:.2f} s = {waiting / took:.0f} messages/s "
              "(read, decoded from JSON, delivered to a no-op, removed)")
        await crashed.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--matches", type=int, default=40)
    args = parser.parse_args()
    asyncio.run(main(args.moves, args.matches))
