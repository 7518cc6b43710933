"""One bot process's share of the two-process PostgreSQL tests (run as a subprocess).

    python -m tests.storage.pg_worker moves URL MATCH_ID N START_AT
    python -m tests.storage.pg_worker sweep URL NOW_ISO START_AT
    python -m tests.storage.pg_worker shard URL NOW_ISO SHARD_COUNT SHARD_ID START_AT

Each opens its own repository (its own connections), waits for the wall-clock START_AT so
both processes act together, then prints what it did as JSON: how many of its N
submissions of the same ply landed, or the kinds of the events its sweep sent.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.service import Conflict, Event, MatchService, NullNotifier, RecordEntry, ShardSet
from bot.service.outbox import OutboxRelay
from bot.service.records import OutboxEntry
from bot.service.shards import ShardLease, ShardsTaken
from storage import PostgresRepository


class FixedClock:
    def __init__(self, now: datetime) -> None:
        self.t = now

    def now(self) -> datetime:
        return self.t


async def moves(url: str, match_id: int, count: int, start_at: float) -> int:
    repo = await PostgresRepository.open(url, pool_size=4)
    try:
        m = await repo.load_match(match_id)
        assert m is not None
        await asyncio.sleep(max(0.0, start_at - time.time()))

        async def submit(i: int) -> bool:
            try:
                await repo.save(m, dataclasses.replace(m, ply=m.ply + 1),
                                [RecordEntry(m.ply, 0, f"p{i}", m.challenger_id, m.updated_at)])
                return True
            except Conflict:
                return False
        return sum(await asyncio.gather(*(submit(i) for i in range(count))))
    finally:
        await repo.close()


async def sweep(url: str, now: datetime, start_at: float) -> list[str]:
    repo = await PostgresRepository.open(url, pool_size=4)
    try:
        service = MatchService(repo, NullNotifier(), FixedClock(now))
        await asyncio.sleep(max(0.0, start_at - time.time()))
        return [type(e).__name__ for e in await service.sweep()]
    finally:
        await repo.close()


async def shard(url: str, now: datetime, count: int, shard_id: int,
                start_at: float) -> dict[str, object]:
    """A bot process running shard ``shard_id`` of ``count``: take the lease (or be
    refused), deliver the outbox left from before, sweep; what it swept and delivered."""
    repo = await PostgresRepository.open(url, pool_size=4)
    try:
        clock = FixedClock(now)
        shards = ShardSet(count, (shard_id,))
        delivered: list[int] = []

        async def deliver(entry: OutboxEntry, event: Event) -> None:
            delivered.append(entry.id)

        relay = OutboxRelay(repo, deliver, clock,
                            accepts=lambda entry: shards.owns(entry.guild_id))
        service = MatchService(repo, relay, clock, shards=shards)
        await asyncio.sleep(max(0.0, start_at - time.time()))
        lease = ShardLease(repo, shards, clock)
        try:
            await lease.acquire()
        except ShardsTaken as e:
            return {"refused": str(e)}
        await relay.recover()
        swept = [[type(e).__name__, e.match.id] for e in await service.sweep()]
        assert await relay.drain(30)
        await asyncio.sleep(1.0)  # running on, as a bot does: a twin started now is refused
        await lease.release()
        return {"swept": swept, "delivered": delivered}
    finally:
        await repo.close()


def main(argv: list[str]) -> None:
    if argv[0] == "shard":
        done: object = asyncio.run(shard(argv[1], datetime.fromisoformat(argv[2]),
                                         int(argv[3]), int(argv[4]), float(argv[5])))
    elif argv[0] == "moves":
        done = asyncio.run(moves(argv[1], int(argv[2]), int(argv[3]), float(argv[4])))
    else:
        done = asyncio.run(sweep(argv[1], datetime.fromisoformat(argv[2]), float(argv[3])))
    print(json.dumps(done))


async def run_together(*argvs: list[str]) -> list[Any]:
    """Run this worker once per argument list, all acting at one moment (a common start
    time appended to each), and return each one's JSON answer in order."""
    start_at = str(time.time() + 3.0)  # every one is connected by then
    procs = [await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.storage.pg_worker", *argv, start_at,
        cwd=str(Path(__file__).parents[2]), stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE) for argv in argvs]
    results = []
    for p in procs:
        out, err = await asyncio.wait_for(p.communicate(), 120)
        assert p.returncode == 0, err.decode()[-2000:]
        results.append(json.loads(out))
    return results


if __name__ == "__main__":
    main(sys.argv[1:])
