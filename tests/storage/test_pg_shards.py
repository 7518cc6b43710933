"""Two bot processes on one PostgreSQL, each given its own shard (issue 15): together
they fire every reminder and timeout once and deliver every outbox entry once; a second
process given a shard already running is refused. Real OS processes
(``tests.storage.pg_worker shard``)."""

from __future__ import annotations

import random
from collections import Counter
from datetime import datetime, timedelta

from service import MatchService, NullNotifier, shard_of
from storage import PostgresRepository
from tests.service.conftest import ALICE, BOB, CHANNEL, SetClock
from tests.storage.pg_worker import run_together

GUILDS = [(n << 22) | 999 for n in range(1000, 1010)]  # five on each of two shards


async def _processes(url: str, now: datetime, count: int, *shard_ids: int
                     ) -> list[dict[str, list[list[object]] | list[int] | str]]:
    """Run one worker per shard id, all acting at the same moment."""
    return await run_together(*(["shard", url, now.isoformat(), str(count), str(shard_id)]
                                 for shard_id in shard_ids))


async def test_two_shard_processes_fire_each_deadline_and_deliver_each_entry_once(
        postgres_url: str) -> None:
    assert sorted(Counter(shard_of(g, 2) for g in GUILDS).values()) == [5, 5]
    repo = await PostgresRepository.open(postgres_url)
    try:
        clock = SetClock()
        writer = MatchService(repo, NullNotifier(), clock, rng=random.Random(3))
        ids = []
        for guild in GUILDS:
            m = await writer.challenge(guild, CHANNEL, ALICE, "xiangqi", opponents=[BOB],
                                       seat=0, days=2)
            ids.append((await writer.accept(m.id, BOB)).id)
        deadline = (await writer.get_match(ids[0])).deadline
        assert deadline is not None
        entries = {e.id for e in await repo.pending_outbox(limit=1000)}
        assert entries  # the challenges and turns nobody delivered yet
        delivered: list[int] = []
        for at, kind in ((deadline - timedelta(hours=1), "DeadlineReminder"),
                         (deadline + timedelta(hours=1), "MatchEnded")):
            results = await _processes(postgres_url, at, 2, 0, 1)
            swept = [(k, m) for r in results for k, m in r["swept"]]  # type: ignore[misc]
            assert sorted(swept) == sorted((kind, i) for i in ids)  # each match once
            for shard_id, r in enumerate(results):  # each by the process of its guild
                owners = {shard_of((await writer.get_match(m)).guild_id, 2)  # type: ignore[has-type]
                          for _, m in r["swept"]}  # type: ignore[misc]
                assert owners == {shard_id}
            delivered += [i for r in results for i in r["delivered"]]  # type: ignore[misc]
        assert len(delivered) == len(set(delivered))  # nothing delivered twice
        assert entries < set(delivered)  # the old entries, and the reminders and results
        assert await repo.pending_outbox() == []
        for i in ids:
            assert (await repo.load_match(i)).status.value == "aborted"  # type: ignore[union-attr]
    finally:
        await repo.close()


async def test_two_processes_given_the_same_shard_one_is_refused(postgres_url: str) -> None:
    now = datetime.now().astimezone()
    results = await _processes(postgres_url, now, 2, 1, 1)
    refused = [r["refused"] for r in results if "refused" in r]
    assert len(refused) == 1 and len(results) - len(refused) == 1
    assert "shards [1] of 2 are run by another live process" in str(refused[0])
    # the one that ran released its lease at its clean stop: the shard can start again
    (again,) = await _processes(postgres_url, now, 2, 1)
    assert "swept" in again
