"""One bot process's share of the two-process PostgreSQL tests (run as a subprocess).

    python -m tests.storage.pg_worker moves URL MATCH_ID N
    python -m tests.storage.pg_worker sweep URL NOW_ISO
    python -m tests.storage.pg_worker shard URL NOW_ISO SHARD_COUNT SHARD_ID

Each opens its own repository (its own connections) and reads what it needs, says
``ready`` on a line of its own and waits for a line on stdin, so that every process acts
together however slowly each started (a barrier, not a wall-clock time: on a loaded
machine a late process once read the match after its twin's move and legitimately played
the next ply), then prints what it did as JSON: how many of its N submissions of the same
ply landed, or the kinds of the events its sweep sent.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from service import Conflict, Event, MatchService, NullNotifier, RecordEntry, ShardSet
from service.outbox import OutboxRelay
from service.records import OutboxEntry
from service.shards import ShardLease, ShardsTaken
from storage import PostgresRepository


class FixedClock:
    def __init__(self, now: datetime) -> None:
        self.t = now

    def now(self) -> datetime:
        return self.t


async def moves(url: str, match_id: int, count: int) -> int:
    repo = await PostgresRepository.open(url, pool_size=4)
    try:
        m = await repo.load_match(match_id)
        assert m is not None
        await _ready()

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


async def sweep(url: str, now: datetime) -> list[str]:
    repo = await PostgresRepository.open(url, pool_size=4)
    try:
        service = MatchService(repo, NullNotifier(), FixedClock(now))
        await _ready()
        return [type(e).__name__ for e in await service.sweep()]
    finally:
        await repo.close()


async def shard(url: str, now: datetime, count: int, shard_id: int) -> dict[str, object]:
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
        await _ready()
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


async def _ready() -> None:
    """Tell the parent this process is set up, then wait for its word to act."""
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)


def main(argv: list[str]) -> None:
    if argv[0] == "shard":
        done: object = asyncio.run(shard(argv[1], datetime.fromisoformat(argv[2]),
                                         int(argv[3]), int(argv[4])))
    elif argv[0] == "moves":
        done = asyncio.run(moves(argv[1], int(argv[2]), int(argv[3])))
    else:
        done = asyncio.run(sweep(argv[1], datetime.fromisoformat(argv[2])))
    print(json.dumps(done))


async def run_together(*argvs: list[str]) -> list[Any]:
    """Run this worker once per argument list, all acting at one moment (each says
    ``ready`` once set up; then all are told to go), and return each one's JSON answer
    in order."""
    procs = [await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.storage.pg_worker", *argv,
        cwd=str(Path(__file__).parents[2]), stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE) for argv in argvs]
    for p in procs:
        assert p.stdout is not None
        line = await asyncio.wait_for(p.stdout.readline(), 120)
        if line.strip() != b"ready":
            _, err = await p.communicate()
            raise AssertionError(f"worker not ready: {line!r} {err.decode()[-2000:]}")
    results = []
    for p in procs:
        assert p.stdin is not None
        p.stdin.write(b"go\n")
        await p.stdin.drain()
    for p in procs:
        out, err = await asyncio.wait_for(p.communicate(), 120)
        assert p.returncode == 0, err.decode()[-2000:]
        results.append(json.loads(out))
    return results


if __name__ == "__main__":
    main(sys.argv[1:])
