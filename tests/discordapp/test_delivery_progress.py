"""What already went out for an entry (``Routes.delivering``'s ``Progress``) is kept for
as long as the relay will try that entry again, and no longer.

After a ``Retry`` (or a ``StorageError``: the relay retries both with the same entry) the
retry skips the steps already done; once the entry is delivered, or dropped by a final
failure, its progress is forgotten (it stayed in the dict for the life of the process
after a final failure). Real relay over the SQLite repository, real ``Routes``; the
"posts" are steps that record themselves.
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

from bot.discordapp.dispatcher import Progress, Routes, entry_identity
from service import MatchService
from service.errors import DatabaseUnreachable
from service.outbox import OutboxRelay, Retry
from service.records import OutboxEntry
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, Recorder, SetClock


class Deliverer:
    """A deliverer through ``Routes.delivering``: each entry posts "first" then
    "second"; ``failures`` are raised (in order, one per call) between the two."""

    def __init__(self, failures: list[Exception]) -> None:
        self.routes = Routes(SimpleNamespace(shard_count=None), None)  # type: ignore[arg-type]
        self.progress: dict[int, Progress] = {}
        self.failures = failures
        self.posted: list[tuple[int, str]] = []
        self.kept_while_waiting: list[list[int]] = []  # what progress was kept at each sleep

    async def __call__(self, entry: OutboxEntry, event: Any) -> None:
        await self.routes.delivering(entry, self.posts(entry), self.progress)

    async def posts(self, entry: OutboxEntry) -> None:
        await self.post(entry, "first")
        if self.failures:
            raise self.failures.pop(0)
        await self.post(entry, "second")

    async def post(self, entry: OutboxEntry, step: str) -> None:
        async def send() -> str:
            self.posted.append((entry.id, step))
            return step
        await self.routes._step(step, send)

    async def sleep(self, seconds: float) -> None:
        self.kept_while_waiting.append(sorted(self.progress))


async def one_entry(repository: Any) -> OutboxEntry:
    """An entry waiting in the outbox (a challenge: the process died before delivering)."""
    service = MatchService(repository, Recorder(), SetClock(), rng=random.Random(1))
    await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
    pending: list[OutboxEntry] = await repository.pending_outbox()
    assert len(pending) == 1
    return pending[0]


async def deliver(repository: Any, deliverer: Deliverer) -> None:
    relay = OutboxRelay(repository, deliverer, SetClock(), sleep=deliverer.sleep)
    assert await relay.recover() == 1
    assert await relay.drain(5)
    assert await repository.pending_outbox() == []


async def test_a_retry_keeps_the_progress_and_skips_what_went_out(repository: Any) -> None:
    entry = await one_entry(repository)
    deliverer = Deliverer([Retry(), DatabaseUnreachable("tablero.db", "disk I/O error")])
    await deliver(repository, deliverer)
    # kept across both retries: the first post went out once
    assert deliverer.kept_while_waiting == [[entry.id], [entry.id]]
    assert deliverer.posted == [(entry.id, "first"), (entry.id, "second")]
    assert deliverer.progress == {}  # delivered: forgotten


async def test_a_final_failure_forgets_the_progress(repository: Any) -> None:
    await one_entry(repository)
    deliverer = Deliverer([RuntimeError("a bug: the entry is dropped")])
    await deliver(repository, deliverer)
    assert deliverer.progress == {}
    assert deliverer.kept_while_waiting == []  # never retried


async def test_the_progress_of_another_entry_under_the_same_id_is_not_this_ones(
        repository: Any) -> None:
    entry = await one_entry(repository)
    deliverer = Deliverer([])
    deliverer.progress[entry.id] = Progress("another entry", {"first": "first"})
    assert entry_identity(entry) != "another entry"
    await deliver(repository, deliverer)
    assert deliverer.posted == [(entry.id, "first"), (entry.id, "second")]
    assert deliverer.progress == {}
