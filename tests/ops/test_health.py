"""Issue 41: the readiness conditions on a virtual clock: each fails with its reason past
its limit and holds again when the cause goes; a condition that hangs or breaks fails
(said), never the check; the gauges follow."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.ops.health import (
    OutboxFresh,
    Readiness,
    ShardsReady,
    SweepRecent,
    SweepWatch,
)
from bot.ops.metrics import Metrics
from service.errors import DatabaseFull, DatabaseUnreachable
from service.records import OutboxEntry

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class VirtualClock:
    def __init__(self) -> None:
        self.at = START

    def now(self) -> datetime:
        return self.at


def entry(guild: int, age: timedelta, clock: VirtualClock) -> OutboxEntry:
    return OutboxEntry(1, guild, 1, 0, "turn-started", "{}", clock.now() - age, id=guild)


async def test_the_sweep_condition_follows_the_last_sweep() -> None:
    clock = VirtualClock()
    metrics = Metrics()
    watch = SweepWatch(clock, 60.0, metrics)
    check = Readiness([SweepRecent(watch)], metrics)
    clock.at += timedelta(minutes=3)  # three intervals since the start: still ready
    assert (await check.check()).ready
    clock.at += timedelta(seconds=1)
    verdict = await check.check()
    assert verdict.failures == [("sweep", "no deadline sweep has finished since the start "
                                          "3 min ago (expected every 60 s)")]
    watch.ended("ok", 0.5)
    assert (await check.check()).ready
    watch.ended("unavailable", 0.1)  # a failed sweep is no success
    clock.at += timedelta(minutes=10)
    assert (await check.check()).text() == (
        "not ready\nsweep: the last deadline sweep finished 10 min ago (expected every "
        "60 s)\n")
    text = metrics.scrape().decode()
    assert 'tablero_sweeps_total{outcome="unavailable"} 1.0' in text
    assert 'tablero_ready_condition{condition="sweep"} 0.0' in text
    values = {s.name: s.value for f in text_string_to_metric_families(text)
              for s in f.samples}
    assert values["tablero_sweep_last_success_timestamp_seconds"] == \
        (START + timedelta(minutes=3, seconds=1)).timestamp()


async def test_the_outbox_condition_counts_this_process_entries_only() -> None:
    clock = VirtualClock()
    metrics = Metrics()
    waiting = [entry(5, timedelta(minutes=20), clock), entry(6, timedelta(minutes=1), clock)]

    async def pending(limit: int) -> list[OutboxEntry]:
        return waiting[:limit]

    mine = {6}
    check = Readiness([OutboxFresh(pending, lambda e: e.guild_id in mine, clock,
                                   timedelta(minutes=10), metrics)], metrics)
    assert (await check.check()).ready  # the old one is another process's
    mine.add(5)
    verdict = await check.check()
    assert verdict.failures == [("outbox", "the oldest undelivered message waits for "
                                           "20 min (limit 10 min; 2 waiting)")]
    text = metrics.scrape().decode()
    assert "tablero_outbox_backlog 2.0" in text
    assert "tablero_outbox_oldest_age_seconds 1200.0" in text
    waiting.clear()
    assert (await check.check()).ready
    assert "tablero_outbox_oldest_age_seconds 0.0" in metrics.scrape().decode()


async def test_a_hanging_or_failing_condition_fails_with_a_reason() -> None:
    class Hangs:
        name = "database"

        async def failure(self) -> str | None:
            await asyncio.Event().wait()
            return None

    class Breaks:
        name = "outbox"

        async def failure(self) -> str | None:
            raise DatabaseUnreachable("db", "connection refused")

    shards = {0: None, 1: "disconnected from the gateway"}
    metrics = Metrics()
    verdict = await Readiness([Hangs(), ShardsReady(lambda: shards, metrics), Breaks()],
                              metrics, timeout=0.05).check()
    assert verdict.failures == [
        ("database", "no answer within 0.05 s"),
        ("shards", "shard 1 disconnected from the gateway"),
        ("outbox", "cannot be checked: the database failed (DatabaseUnreachable)")]
    text = metrics.scrape().decode()
    assert 'tablero_shard_ready{shard="0"} 1.0' in text
    assert 'tablero_shard_ready{shard="1"} 0.0' in text
    assert "tablero_ready 0.0" in text


async def test_a_database_that_reads_but_refuses_writes_is_not_ready(tmp_path: Path) -> None:
    """A full disk (or a read-only file system or server): every move is refused, but a
    read still answers, so /readyz said 'database: ok' through the outage. The bot's
    condition asks the repository's outage log too, until a write goes through again."""
    from bot.discordapp.app import create_bot
    from service import MatchService, NullNotifier, SystemClock
    from storage import SqliteRepository
    from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD

    repo = await SqliteRepository.open(tmp_path / "t.db")
    try:
        bot = create_bot(repo, SystemClock(), background=False)
        assert bot.ops is not None
        (database,) = [c for c in bot.ops.readiness.conditions if c.name == "database"]
        service = MatchService(repo, NullNotifier(), SystemClock())
        assert await database.failure() is None
        pages = (await repo._all("PRAGMA page_count"))[0][0]
        await repo._writer.execute(f"PRAGMA max_page_count = {pages}")  # the disk is full
        with pytest.raises(DatabaseFull):
            for other in range(BOB + 1, BOB + 50):
                await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[other])
        assert await database.failure() == (
            "DatabaseFull: database or disk is full (reads answer, every change is refused)")
        await repo._writer.execute("PRAGMA max_page_count = 1000000")  # space again
        await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB])
        assert await database.failure() is None
    finally:
        await repo.close()
