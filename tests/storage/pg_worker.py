"""One bot process's share of the two-process PostgreSQL tests (run as a subprocess).

    python -m tests.storage.pg_worker moves URL MATCH_ID N START_AT
    python -m tests.storage.pg_worker sweep URL NOW_ISO START_AT

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

from bot.service import Conflict, MatchService, NullNotifier, RecordEntry
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


def main(argv: list[str]) -> None:
    if argv[0] == "moves":
        done: object = asyncio.run(moves(argv[1], int(argv[2]), int(argv[3]), float(argv[4])))
    else:
        done = asyncio.run(sweep(argv[1], datetime.fromisoformat(argv[2]), float(argv[3])))
    print(json.dumps(done))


if __name__ == "__main__":
    main(sys.argv[1:])
